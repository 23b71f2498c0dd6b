/* hitcheck_view.c: a unit's hit-check table for the tools that draw it
 * (navbake render), through the runtime's check of the unit's sections;
 * entries of the turned start headings are read as the runtime reads
 * them. */
#include <stdlib.h>

#include "bake_int.h"
#include "turning/turning.h"

struct nbb_hitcheck {
    nbi_hitcheck hc;
};

nb_status nbb_hitcheck_open(const nb_bundle *b, const char *name, nb_unit *u, nbb_hitcheck **out,
                            nb_err *err)
{
    *out = NULL;
    nb_unit unit;
    nbi_hitcheck hc;
    nb_status st = nbi_unit_sections(b, name, &unit, &hc, NULL, err);
    if (st != NB_OK)
        return st;
    nbb_hitcheck *v = nbb_malloc(sizeof *v);
    if (!v)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a hit-check view");
    v->hc = hc;
    if (u)
        *u = unit;
    *out = v;
    return NB_OK;
}

void nbb_hitcheck_close(nbb_hitcheck *v) { nbb_free(v); }

void nbb_hitcheck_describe(const nbb_hitcheck *v, nbb_hitcheck_info *info)
{
    info->headings = v->hc.headings;
    info->neighbourhood = v->hc.neighbourhood;
    info->window = v->hc.window;
    info->all = v->hc.all;
    info->entries = v->hc.nstored;
    info->curves = v->hc.ncurves;
    info->radius = v->hc.radius;
    info->width = v->hc.width;
}

void nbb_hitcheck_offset(const nbb_hitcheck *v, unsigned o, int *dx, int *dy)
{
    *dx = v->hc.off[o][0];
    *dy = v->hc.off[o][1];
}

unsigned nbb_hitcheck_entry(const nbb_hitcheck *v, unsigned h0, unsigned h1, unsigned o)
{
    uint32_t first;
    unsigned quarter;
    return nbi_hc_entry(&v->hc, h0, h1, o, &first, &quarter);
}

void nbb_hitcheck_curve_get(const nbb_hitcheck *v, unsigned h0, unsigned h1, unsigned o,
                            unsigned k, nbb_hitcheck_curve *out)
{
    const nbi_hitcheck *hc = &v->hc;
    uint32_t first;
    unsigned quarter;
    nbi_hc_entry(hc, h0, h1, o, &first, &quarter);
    out->length = nbi_hc_length(hc, first + k);
    out->word = nbi_words[nbi_hc_word(hc, first + k)];
    out->variant = nbi_hc_variant(hc, first + k);
    out->cells = 0;
    int half = (int)hc->window / 2;
    for (int y = -half; y <= half; y++)
        for (int x = -half; x <= half; x++)
            out->cells += (unsigned)nbi_hc_touches(hc, first + k, 0, x, y);
}

int nbb_hitcheck_touches(const nbb_hitcheck *v, unsigned h0, unsigned h1, unsigned o, unsigned k,
                         unsigned x, unsigned y)
{
    const nbi_hitcheck *hc = &v->hc;
    uint32_t first;
    unsigned quarter;
    nbi_hc_entry(hc, h0, h1, o, &first, &quarter);
    int half = (int)hc->window / 2;
    return x < hc->window && y < hc->window &&
           nbi_hc_touches(hc, first + k, quarter, (int)x - half, (int)y - half);
}
