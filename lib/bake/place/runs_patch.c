/* runs_patch.c: the runs section of a component layer that changed only
 * within some rows, from the old section and the new layer's values in
 * those rows, without a label array for the map.
 *
 * Why: an incremental rebake (issue 17) of a small edit rebuilds a
 * component layer that differs from the old one in a band of rows; runs
 * never cross a row, so every run outside the band is the old one, and
 * building the section from the whole layer (two passes over every cell
 * and 4 bytes a cell of labels) was a tenth of the rebake's CPU time at
 * 4096^2.  Here the cost is O(runs + components + cells of the band).
 *
 * The result is byte for byte what nbb_runs_build makes of the new layer
 * when the old section describes the old layer (as every bake writes it;
 * navbake verify --deep checks it).  Whatever the old section says, its
 * checked view (nbi_runs_at) keeps every read here within its arrays;
 * runs out of row-major order in a component, or components numbered past
 * the new layer's count outside the band, are refused (NB_ERR_FORMAT) and
 * the caller builds from the whole layer. */
#include <stdlib.h>

#include "place/runs_build.h"

/* A run of the band: its component, first cell and length. */
typedef struct band_run {
    uint32_t c, start, len;
} band_run;

nb_status nbb_runs_patch(const nbi_runs *old, const nbi_layer *layer, uint32_t y0, uint32_t y1,
                         nbb_runs *out, nb_err *err)
{
    memset(out, 0, sizeof *out);
    uint64_t w = layer->width, a = (uint64_t)y0 * w, z = (uint64_t)y1 * w;
    uint32_t n = layer->maxval;
    if (old->width != layer->width || old->height != layer->height || y0 > y1 ||
        y1 > layer->height)
        return nbi_fail(err, NB_ERR_ARG, "nbb_runs_patch: the old runs are of another map");
    /* The band's runs, row by row. */
    band_run *band = NULL;
    size_t nband = 0, cap = 0;
    for (uint64_t i = a; i < z;) {
        uint32_t c = nbi_comp_value(layer, i);
        uint64_t end = i + 1;
        while (end % w != 0 && nbi_comp_value(layer, end) == c)
            end++;
        if (c) {
            if (!nbi_grow(nbb_mem(), (void **)&band, &cap, nband + 1, sizeof *band)) {
                nbb_free(band);
                return nbi_fail(err, NB_ERR_NOMEM, "no memory for the runs of rows %u to %u", y0,
                                y1);
            }
            band[nband++] = (band_run){c, (uint32_t)i, (uint32_t)(end - i)};
        }
        i = end;
    }
    /* Per component: its runs before the band, in it, after it. */
    uint32_t *cnt = nbb_calloc((size_t)n + 1, sizeof *cnt);
    uint32_t *cur = nbb_calloc((size_t)n + 1, sizeof *cur);
    nb_status st = NB_OK;
    if (!cnt || !cur)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the runs of %u components", n);
    for (uint32_t c = 1; st == NB_OK && c <= old->n; c++) {
        uint32_t j0 = nbi_runs_first(old, c - 1), j1 = nbi_runs_first(old, c);
        for (uint32_t j = j0; j < j1 && st == NB_OK; j++) {
            uint32_t s = nbi_runs_start(old, j);
            if (j > j0 && s <= nbi_runs_start(old, j - 1))
                st = nbi_fail(err, NB_ERR_FORMAT, "component %u's runs are not in row order", c);
            else if ((s < a || s >= z) && c > n)
                st = nbi_fail(err, NB_ERR_FORMAT,
                              "component %u outside the changed rows, of %u components", c, n);
            else if (s < a || s >= z)
                cnt[c]++;
        }
    }
    for (size_t k = 0; st == NB_OK && k < nband; k++)
        cnt[band[k].c]++;
    uint64_t nruns = 0;
    for (uint32_t c = 1; st == NB_OK && c <= n; c++)
        nruns += cnt[c];
    size_t len = NBI_RUNS_HEADER + 4 * ((size_t)n + 1) + NBI_RUNS_RECORD * (size_t)nruns;
    uint8_t *p = st == NB_OK ? nbb_calloc(len, 1) : NULL;
    if (st == NB_OK && !p)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %llu runs", (unsigned long long)nruns);
    if (st != NB_OK) {
        nbb_free(band);
        nbb_free(cnt);
        nbb_free(cur);
        nbb_free(p);
        return st;
    }
    uint8_t *first = p + NBI_RUNS_HEADER, *runs = first + 4 * ((size_t)n + 1);
    uint32_t acc = 0;
    for (uint32_t c = 1; c <= n; c++) {
        nbi_put32(first + 4 * (size_t)(c - 1), acc);
        cur[c] = acc;
        acc += cnt[c];
    }
    nbi_put32(first + 4 * (size_t)n, acc);
    /* Lengths for now, at each component's next slot: the old runs before
     * the band, the band's, the old ones after, which keeps row order. */
#define PUT(c, s, l)                                                                             \
    do {                                                                                          \
        uint8_t *rec_ = runs + (size_t)cur[c]++ * NBI_RUNS_RECORD;                                \
        nbi_put32(rec_ + NBI_RUN_START, (s));                                                     \
        nbi_put32(rec_ + NBI_RUN_BEFORE, (l));                                                    \
    } while (0)
    for (uint32_t c = 1; c <= old->n && c <= n; c++)
        for (uint32_t j = nbi_runs_first(old, c - 1); j < nbi_runs_first(old, c) && nbi_runs_start(old, j) < a; j++)
            PUT(c, nbi_runs_start(old, j), nbi_runs_before(old, j + 1) - nbi_runs_before(old, j));
    for (size_t k = 0; k < nband; k++)
        PUT(band[k].c, band[k].start, band[k].len);
    for (uint32_t c = 1; c <= old->n && c <= n; c++)
        for (uint32_t j = nbi_runs_first(old, c - 1); j < nbi_runs_first(old, c); j++)
            if (nbi_runs_start(old, j) >= z)
                PUT(c, nbi_runs_start(old, j), nbi_runs_before(old, j + 1) - nbi_runs_before(old, j));
#undef PUT
    uint64_t before = nbb_runs_lengths_to_before(runs, nruns);
    nbi_put32(p + NBI_RUNS_WIDTH, layer->width);
    nbi_put32(p + NBI_RUNS_HEIGHT, layer->height);
    nbi_put32(p + NBI_RUNS_COMPONENTS, n);
    nbi_put32(p + NBI_RUNS_COUNT, (uint32_t)nruns);
    nbi_put32(p + NBI_RUNS_CELLS, (uint32_t)before);
    nbb_free(band);
    nbb_free(cnt);
    nbb_free(cur);
    out->payload = p;
    out->len = len;
    out->n = n;
    out->count = (uint32_t)nruns;
    out->cells = (uint32_t)before;
    return NB_OK;
}
