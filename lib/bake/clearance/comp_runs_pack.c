/* comp_runs_pack.c: a component layer stored by runs along rows (version
 * 2, formats/clearance.md), made from the packed layer (version 1) the
 * bake builds.  The runs are the layer's maximal stretches of one value in
 * a row, but for the row's leading zeros: a function of the values alone,
 * so the same layer gives the same bytes whatever baked it. */
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"
#include "clearance/clearance_build.h"

/* Counts row y's runs on from run k, writing their records into rec
 * unless it is NULL; returns the run after them. */
static uint64_t row_runs(const nbi_layer *l, uint32_t y, uint64_t k, uint8_t *rec, uint32_t xbits,
                         uint32_t rbits)
{
    uint64_t i = (uint64_t)y * l->width;
    uint32_t prev = 0;
    for (uint32_t x = 0; x < l->width; x++) {
        uint32_t c = nbi_layer_get(l, i + x);
        if (c == prev)
            continue;
        prev = c;
        if (rec) {
            uint64_t v = (uint64_t)x | (uint64_t)c << xbits, bit = k * rbits;
            for (uint32_t j = 0; j < rbits; j++, bit++)
                if (v >> j & 1)
                    rec[bit / 8] |= (uint8_t)(1u << (bit % 8));
        }
        k++;
    }
    return k;
}

uint8_t *nbb_comp_runs_pack(const uint8_t *packed, size_t *len)
{
    nbi_layer l;
    nbb_layer_of_payload(packed, &l);
    uint32_t xbits = nbi_bits_for(l.width ? l.width - 1 : 0), rbits = xbits + l.bits;
    uint64_t runs = 0;
    for (uint32_t y = 0; y < l.height; y++)
        runs = row_runs(&l, y, runs, NULL, xbits, rbits);
    uint64_t size = nbi_comp_runs_bytes(l.height, xbits, l.bits, runs);
    uint8_t *p = runs <= UINT32_MAX ? nbb_calloc(1, (size_t)size) : NULL;
    if (!p)
        return NULL;
    memcpy(p, packed, NBI_LAYER_HEADER); /* width, height, bits, count: as version 1's */
    nbi_put32(p + NBI_CRUNS_XBITS, xbits);
    nbi_put32(p + NBI_CRUNS_COUNT, (uint32_t)runs);
    uint8_t *rows = p + NBI_CRUNS_HEADER, *rec = rows + 4 * ((size_t)l.height + 1);
    uint64_t k = 0;
    for (uint32_t y = 0; y < l.height; y++) {
        nbi_put32at(rows, y, (uint32_t)k);
        k = row_runs(&l, y, k, rec, xbits, rbits);
    }
    nbi_put32at(rows, l.height, (uint32_t)k);
    *len = (size_t)size;
    return p;
}

nb_status nbb_builder_comp_runs(nbb_builder *b, int always, nb_err *err)
{
    const nb_section_info *in;
    const uint8_t *stored;
    for (size_t i = 0; (in = nbb_builder_section(b, i, &stored)) != NULL; i++) {
        if (in->type != NB_SEC_COMPONENTS || in->version != NBI_COMPONENTS_VERSION ||
            in->encoding != NB_ENC_PACKED || in->usize < NBI_LAYER_HEADER)
            continue;
        uint32_t bits = nbi_get32(stored + NBI_LAYER_BITS);
        uint64_t cells = (uint64_t)nbi_get32(stored + NBI_LAYER_WIDTH) *
                         nbi_get32(stored + NBI_LAYER_HEIGHT);
        if (bits < 1 || bits > NBI_LAYER_MAX_BITS || in->usize != nbi_layer_bytes(cells, bits))
            continue; /* not a layer this bake made: left as it is */
        size_t len;
        uint8_t *p = nbb_comp_runs_pack(stored, &len);
        if (!p)
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for a component layer by runs");
        if (!always && len >= in->usize) { /* a tile too small or too broken up to gain */
            nbb_free(p);
            continue;
        }
        nb_section_info out = *in;
        out.version = NBI_COMPONENTS_VERSION_RUNS;
        nb_status st = nbb_builder_add_owned(b, &out, p, len, 0, err); /* replaces section i */
        if (st != NB_OK)
            return st;
    }
    return NB_OK;
}

uint8_t *nbb_comp_runs_unpack(const nbi_layer *l, size_t *len)
{
    uint64_t cells = (uint64_t)l->width * l->height, size = nbi_layer_bytes(cells, l->bits);
    uint32_t *v = nbb_malloc((cells ? cells : 1) * sizeof *v);
    uint8_t *p = v ? nbb_calloc(1, (size_t)size) : NULL;
    if (p) {
        for (uint32_t y = 0; y < l->height; y++)
            nbi_comp_row(l, y, v + (size_t)y * l->width);
        nbb_layer_header(p, l->width, l->height, l->bits, l->maxval);
        nbb_layer_pack_rows(p, l->width, l->bits, 0, l->height, NULL, v);
        *len = (size_t)size;
    }
    nbb_free(v);
    return p;
}
