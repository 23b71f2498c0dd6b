/* hitcheck_view.c: a unit's hit-check table for the tools that draw it
 * (navbake render), through the runtime's check of the unit's sections. */
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
    nbb_hitcheck *v = malloc(sizeof *v);
    if (!v)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a hit-check view");
    v->hc = hc;
    if (u)
        *u = unit;
    *out = v;
    return NB_OK;
}

void nbb_hitcheck_close(nbb_hitcheck *v) { free(v); }

void nbb_hitcheck_describe(const nbb_hitcheck *v, nbb_hitcheck_info *info)
{
    info->headings = v->hc.headings;
    info->neighbourhood = v->hc.neighbourhood;
    info->window = v->hc.window;
    info->curves = v->hc.ncurves;
    info->radius = v->hc.radius;
    info->width = v->hc.width;
}

void nbb_hitcheck_offset(const nbb_hitcheck *v, unsigned o, int *dx, int *dy)
{
    *dx = v->hc.off[o][0];
    *dy = v->hc.off[o][1];
}

uint32_t nbb_hitcheck_entry(const nbb_hitcheck *v, unsigned h0, unsigned h1, unsigned o,
                            uint32_t *first)
{
    const nbi_hitcheck *hc = &v->hc;
    size_t e = ((size_t)h0 * hc->headings + h1) * hc->neighbourhood + o;
    *first = nbi_get32(hc->index + NBI_HC_INDEX_ENTRY * e);
    return nbi_get32(hc->index + NBI_HC_INDEX_ENTRY * e + 4);
}

void nbb_hitcheck_curve_get(const nbb_hitcheck *v, uint32_t r, nbb_hitcheck_curve *out)
{
    const uint8_t *rec = v->hc.records + (size_t)r * v->hc.recsize;
    out->length = nbi_getf64(rec + NBI_HC_R_LENGTH);
    out->word = nbi_words[rec[NBI_HC_R_WORD]];
    out->variant = rec[NBI_HC_R_VARIANT];
    out->cells = nbi_get16(rec + NBI_HC_R_CELLS);
}

int nbb_hitcheck_touches(const nbb_hitcheck *v, uint32_t r, unsigned x, unsigned y)
{
    const nbi_hitcheck *hc = &v->hc;
    const uint8_t *bits = hc->records + (size_t)r * hc->recsize + NBI_HC_RECORD_HEAD;
    size_t b = (size_t)y * hc->window + x;
    return x < hc->window && y < hc->window && (bits[b / 8] >> (b % 8) & 1);
}
