/* runs_build.c: each component's cells as runs along rows, with the count
 * of cells before each run, so that the runtime draws a uniform random
 * cell of a component in O(log runs) (place/random.c).  Two passes over
 * the labels: the runs and cells of each component are counted, then each
 * run is put at its component's next slot, which keeps each component's
 * runs in row-major order.  Memory: the section, 8 bytes a run. */
#include <stdlib.h>

#include "place/runs_build.h"

uint64_t nbb_runs_lengths_to_before(uint8_t *runs, uint64_t nruns)
{
    uint64_t before = 0;
    for (uint64_t j = 0; j < nruns; j++) {
        uint8_t *rec = runs + (size_t)j * NBI_RUNS_RECORD;
        uint32_t m = nbi_get32(rec + NBI_RUN_BEFORE);
        nbi_put32(rec + NBI_RUN_BEFORE, (uint32_t)before);
        before += m;
    }
    return before;
}

nb_status nbb_runs_build(const uint32_t *label, uint32_t width, uint32_t height, uint32_t n,
                         nbb_runs *out, nb_err *err)
{
    memset(out, 0, sizeof *out);
    size_t w = width, cells = w * height;
    uint32_t *slot = calloc((size_t)n + 2, sizeof *slot); /* runs of each component, then cursors */
    if (!slot)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the runs of %u components", n);
    uint64_t nruns = 0, nstand = 0;
    for (size_t i = 0; i < cells; i++) {
        uint32_t c = label[i];
        if (c > n) {
            free(slot);
            return nbi_fail(err, NB_ERR_FORMAT, "cell %zu has component %u of %u", i, c, n);
        }
        if (c == 0)
            continue;
        nstand++;
        if (i % w == 0 || label[i - 1] != c) {
            slot[c]++;
            nruns++;
        }
    }
    /* first[k] for k = 0 .. n: slot[k] becomes the first run of component
     * k + 1 (its cursor), slot[n] the count. */
    uint32_t acc = 0;
    for (uint32_t k = 1; k <= n; k++) {
        uint32_t m = slot[k];
        slot[k - 1] = acc;
        acc += m;
    }
    slot[n] = acc;
    size_t len = NBI_RUNS_HEADER + 4 * ((size_t)n + 1) + NBI_RUNS_RECORD * (size_t)nruns;
    uint8_t *p = calloc(len, 1);
    if (!p) {
        free(slot);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for %llu runs", (unsigned long long)nruns);
    }
    nbi_put32(p + NBI_RUNS_WIDTH, width);
    nbi_put32(p + NBI_RUNS_HEIGHT, height);
    nbi_put32(p + NBI_RUNS_COMPONENTS, n);
    nbi_put32(p + NBI_RUNS_COUNT, (uint32_t)nruns);
    nbi_put32(p + NBI_RUNS_CELLS, (uint32_t)nstand);
    uint8_t *first = p + NBI_RUNS_HEADER, *runs = first + 4 * ((size_t)n + 1);
    for (uint32_t k = 0; k <= n; k++)
        nbi_put32(first + 4 * (size_t)k, slot[k]);
    /* The runs at their slots, with their lengths for now. */
    for (size_t i = 0; i < cells;) {
        uint32_t c = label[i];
        size_t end = i + 1;
        while (end % w != 0 && label[end] == c)
            end++;
        if (c) {
            uint8_t *rec = runs + (size_t)slot[c - 1]++ * NBI_RUNS_RECORD;
            nbi_put32(rec + NBI_RUN_START, (uint32_t)i);
            nbi_put32(rec + NBI_RUN_BEFORE, (uint32_t)(end - i));
        }
        i = end;
    }
    nbb_runs_lengths_to_before(runs, nruns);
    free(slot);
    out->payload = p;
    out->len = len;
    out->n = n;
    out->count = (uint32_t)nruns;
    out->cells = (uint32_t)nstand;
    return NB_OK;
}

void nbb_runs_free(nbb_runs *r)
{
    free(r->payload);
    memset(r, 0, sizeof *r);
}

nb_status nbb_runs_add(nbb_builder *b, nb_capability cap, uint32_t size, const uint32_t *label,
                       uint32_t width, uint32_t height, uint32_t n, int compress, nb_err *err)
{
    nbb_runs runs;
    nb_status st = nbb_runs_build(label, width, height, n, &runs, err);
    if (st != NB_OK)
        return st;
    st = nbb_runs_add_built(b, cap, size, &runs, compress, err);
    nbb_runs_free(&runs);
    return st;
}

nb_status nbb_runs_add_built(nbb_builder *b, nb_capability cap, uint32_t size, const nbb_runs *runs,
                             int compress, nb_err *err)
{
    nb_section_info in;
    memset(&in, 0, sizeof in);
    in.type = NB_SEC_RUNS;
    in.version = NBI_RUNS_VERSION;
    in.encoding = NB_ENC_RAW;
    uint32_t params[5] = {cap, size, runs->n, runs->count, runs->cells};
    memcpy(in.param, params, sizeof params);
    return nbb_builder_add(b, &in, runs->payload, runs->len, compress, err);
}
