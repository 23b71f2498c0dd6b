/* runs_build.c: each component's cells as runs along rows, with the count
 * of cells before each run, so that the runtime draws a uniform random
 * cell of a component in O(log runs) (place/random.c).  Two passes over
 * the labels: the runs and cells of each component are counted, then each
 * run is put at its component's next slot, which keeps each component's
 * runs in row-major order.  Memory: the section, 8 bytes a run, and 4
 * bytes a component for each band of rows counted apart. */
#include <stdio.h>
#include <stdlib.h>

#include "parallel/parallel.h"
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

/* Rows are cut into bands, one a thread at most: a run never crosses a
 * row's end, so each band counts its runs per component on its own, the
 * counts become each band's cursors (band by band within a component,
 * which keeps row-major order), and each band writes its runs at them:
 * the same bytes for any number of bands. */
typedef struct runs_job {
    const uint32_t *label;
    size_t w;
    uint32_t height, n, bands;
    uint32_t *cursor;  /* bands x (n + 1): band b's runs of component c, then its cursor */
    uint64_t *stand;   /* each band's standable cells */
    uint8_t *runs;     /* NULL while counting */
} runs_job;

static void band_cells(const runs_job *j, size_t band, size_t *i0, size_t *i1)
{
    *i0 = (size_t)((uint64_t)j->height * band / j->bands) * j->w;
    *i1 = (size_t)((uint64_t)j->height * (band + 1) / j->bands) * j->w;
}

static nb_status count_band(void *ctx, size_t band, unsigned worker, nb_err *err)
{
    (void)worker;
    runs_job *j = ctx;
    const uint32_t *label = j->label;
    uint32_t *count = j->cursor + band * ((size_t)j->n + 1), n = j->n;
    size_t i0, i1, w = j->w;
    uint64_t stand = 0;
    band_cells(j, band, &i0, &i1);
    for (size_t i = i0; i < i1; i++) {
        uint32_t c = label[i];
        if (c > n)
            return nbi_fail(err, NB_ERR_FORMAT, "cell %zu has component %u of %u", i, c, n);
        if (c == 0)
            continue;
        stand++;
        if (i % w == 0 || label[i - 1] != c)
            count[c]++;
    }
    j->stand[band] = stand;
    return NB_OK;
}

static nb_status write_band(void *ctx, size_t band, unsigned worker, nb_err *err)
{
    (void)worker;
    (void)err;
    runs_job *j = ctx;
    const uint32_t *label = j->label;
    uint32_t *cursor = j->cursor + band * ((size_t)j->n + 1);
    size_t i0, i1, w = j->w;
    band_cells(j, band, &i0, &i1);
    for (size_t i = i0; i < i1;) {
        uint32_t c = label[i];
        size_t end = i + 1;
        while (end % w != 0 && label[end] == c)
            end++;
        if (c) {
            uint8_t *rec = j->runs + (size_t)cursor[c]++ * NBI_RUNS_RECORD;
            nbi_put32(rec + NBI_RUN_START, (uint32_t)i);
            nbi_put32(rec + NBI_RUN_BEFORE, (uint32_t)(end - i));
        }
        i = end;
    }
    return NB_OK;
}

nb_status nbb_runs_build(const uint32_t *label, uint32_t width, uint32_t height, uint32_t n,
                         nbb_runs *out, nb_err *err)
{
    return nbb_runs_build_threads(label, width, height, n, 1, out, err);
}

nb_status nbb_runs_build_threads(const uint32_t *label, uint32_t width, uint32_t height,
                                 uint32_t n, unsigned threads, nbb_runs *out, nb_err *err)
{
    memset(out, 0, sizeof *out);
    uint64_t cells = (uint64_t)width * height;
    runs_job j = {label, width, height, n, nbb_threads_resolve(threads), NULL, NULL, NULL};
    /* A band's counts cost 4 bytes a component: more bands than the
     * labels' own size allows are not worth it. */
    while (j.bands > 1 && ((uint64_t)n + 1) * j.bands > cells)
        j.bands--;
    if (j.bands > height)
        j.bands = height ? height : 1;
    j.cursor = nbb_calloc(((size_t)n + 1) * j.bands, sizeof *j.cursor);
    j.stand = nbb_calloc(j.bands, sizeof *j.stand);
    uint8_t *p = NULL;
    nb_status st = NB_OK;
    if (!j.cursor || !j.stand) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the runs of %u components", n);
        goto done;
    }
    st = nbb_par_for(j.bands, j.bands, count_band, &j, err);
    if (st != NB_OK)
        goto done;
    uint64_t nruns = 0, nstand = 0;
    for (uint32_t b = 0; b < j.bands; b++)
        nstand += j.stand[b];
    size_t stride = (size_t)n + 1;
    for (uint32_t c = 1; c <= n; c++)
        for (uint32_t b = 0; b < j.bands; b++) {
            uint32_t m = j.cursor[b * stride + c];
            j.cursor[b * stride + c] = (uint32_t)nruns;
            nruns += m;
        }
    size_t len = NBI_RUNS_HEADER + 4 * ((size_t)n + 1) + NBI_RUNS_RECORD * (size_t)nruns;
    if (!(p = nbb_calloc(len, 1))) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %llu runs", (unsigned long long)nruns);
        goto done;
    }
    nbi_put32(p + NBI_RUNS_WIDTH, width);
    nbi_put32(p + NBI_RUNS_HEIGHT, height);
    nbi_put32(p + NBI_RUNS_COMPONENTS, n);
    nbi_put32(p + NBI_RUNS_COUNT, (uint32_t)nruns);
    nbi_put32(p + NBI_RUNS_CELLS, (uint32_t)nstand);
    /* first[k]: the first run of component k + 1 (band 0's cursor), first[n]
     * the count. */
    uint8_t *first = p + NBI_RUNS_HEADER;
    for (uint32_t k = 0; k < n; k++)
        nbi_put32(first + 4 * (size_t)k, j.cursor[k + 1]);
    nbi_put32(first + 4 * (size_t)n, (uint32_t)nruns);
    /* The runs at their slots, with their lengths for now. */
    j.runs = first + 4 * ((size_t)n + 1);
    st = nbb_par_for(j.bands, j.bands, write_band, &j, err);
    if (st != NB_OK)
        goto done;
    nbb_runs_lengths_to_before(j.runs, nruns);
    out->payload = p;
    p = NULL;
    out->len = len;
    out->n = n;
    out->count = (uint32_t)nruns;
    out->cells = (uint32_t)nstand;
done:
    nbb_free(p);
    nbb_free(j.cursor);
    nbb_free(j.stand);
    return st;
}

int nbb_runs_differ(const uint8_t *have, size_t len, const nbb_runs *want, uint32_t width,
                    char *msg, size_t size)
{
    uint32_t n = nbi_get32(have + NBI_RUNS_COMPONENTS), count = nbi_get32(have + NBI_RUNS_COUNT),
             cells = nbi_get32(have + NBI_RUNS_CELLS);
    if (n != want->n || count != want->count || cells != want->cells || len != want->len) {
        snprintf(msg, size, "%u components, %u runs, %u cells; recomputed from the map %u, %u, %u",
                 n, count, cells, want->n, want->count, want->cells);
        return 1;
    }
    /* The same counts: the same layout, so every read below is within both. */
    const uint8_t *hfirst = have + NBI_RUNS_HEADER, *wfirst = want->payload + NBI_RUNS_HEADER;
    const uint8_t *hruns = hfirst + 4 * ((size_t)n + 1), *wruns = wfirst + 4 * ((size_t)n + 1);
    for (uint32_t k = 0; k < n; k++)
        if (nbi_u32at(hfirst, k) != nbi_u32at(wfirst, k)) {
            snprintf(msg, size, "component %u starts at run %u, recomputed %u", k + 1,
                     nbi_u32at(hfirst, k), nbi_u32at(wfirst, k));
            return 1;
        }
    uint32_t comp = 0;
    for (uint32_t j = 0; j < count; j++) {
        while (comp < n && nbi_u32at(wfirst, comp + 1) <= j)
            comp++;
        const uint8_t *a = hruns + (size_t)j * NBI_RUNS_RECORD,
                      *b = wruns + (size_t)j * NBI_RUNS_RECORD;
        uint32_t as = nbi_get32(a + NBI_RUN_START), bs = nbi_get32(b + NBI_RUN_START);
        uint32_t ab = nbi_get32(a + NBI_RUN_BEFORE), bb = nbi_get32(b + NBI_RUN_BEFORE);
        if (as != bs || ab != bb) {
            snprintf(msg, size,
                     "run %u (component %u) starts at cell (%u, %u) with %u cells before it; "
                     "recomputed from the map (%u, %u) with %u",
                     j, comp + 1, as % width, as / width, ab, bs % width, bs / width, bb);
            return 1;
        }
    }
    for (size_t i = 0; i < len; i++)
        if (have[i] != want->payload[i]) {
            snprintf(msg, size, "payload byte %zu is 0x%02x, recomputed 0x%02x", i, have[i],
                     want->payload[i]);
            return 1;
        }
    return 0;
}

int nbb_runs_check(const uint8_t *have, size_t len, const uint32_t *label, uint32_t width,
                   uint32_t height, uint32_t n, uint64_t stand, char *msg, size_t size)
{
    /* Whatever have says is checked before it is relied on: the layout first. */
    uint64_t cells = (uint64_t)width * height;
    if (len < NBI_RUNS_HEADER) {
        snprintf(msg, size, "%zu bytes, shorter than its header", len);
        return 1;
    }
    uint32_t hn = nbi_get32(have + NBI_RUNS_COMPONENTS), count = nbi_get32(have + NBI_RUNS_COUNT),
             total = nbi_get32(have + NBI_RUNS_CELLS);
    if (nbi_get32(have + NBI_RUNS_WIDTH) != width || nbi_get32(have + NBI_RUNS_HEIGHT) != height ||
        hn != n || total != stand || nbi_get32(have + NBI_RUNS_ZERO) != 0 ||
        len != NBI_RUNS_HEADER + 4 * ((uint64_t)n + 1) + NBI_RUNS_RECORD * (uint64_t)count) {
        snprintf(msg, size,
                 "%u x %u cells, %u components, %u cells in %u runs; recomputed from the map "
                 "%u x %u, %u, %llu",
                 nbi_get32(have + NBI_RUNS_WIDTH), nbi_get32(have + NBI_RUNS_HEIGHT), hn, total,
                 count, width, height, n, (unsigned long long)stand);
        return 1;
    }
    const uint8_t *first = have + NBI_RUNS_HEADER, *runs = first + 4 * ((size_t)n + 1);
#define START(j) nbi_get32(runs + (size_t)(j) * NBI_RUNS_RECORD + NBI_RUN_START)
#define BEFORE(j) ((j) < count ? nbi_get32(runs + (size_t)(j) * NBI_RUNS_RECORD + NBI_RUN_BEFORE) : total)
    if (nbi_u32at(first, 0) != 0 || nbi_u32at(first, n) != count || (count && BEFORE(0) != 0)) {
        snprintf(msg, size, "its first run, last run or first count is not where a list starts "
                            "and ends");
        return 1;
    }
    /* Each component's runs, in order: maximal rows of its own cells, each after the last.
     * Distinct maximal runs of the standable cells' labels, as many cells in all as are
     * standable, are every run of every component: the bytes the build writes. */
    for (uint32_t c = 1; c <= n; c++) {
        uint32_t j0 = nbi_u32at(first, c - 1), j1 = nbi_u32at(first, c);
        if (j1 <= j0 || j1 > count) {
            snprintf(msg, size, "component %u's runs are %u to %u of %u", c, j0, j1, count);
            return 1;
        }
        for (uint32_t j = j0; j < j1; j++) {
            uint64_t at = START(j), b0 = BEFORE(j), b1 = BEFORE(j + 1), x = at % width;
            int ok = b1 > b0 && at < cells && x + (b1 - b0) <= width &&
                     (j == j0 || at > START(j - 1)) && (x == 0 || label[at - 1] != c) &&
                     ((at + b1 - b0) % width == 0 || label[at + b1 - b0] != c);
            for (uint64_t i = at; ok && i < at + (b1 - b0); i++)
                ok = label[i] == c;
            if (!ok) {
                snprintf(msg, size,
                         "run %u (component %u) from cell (%llu, %llu), %lld cells, is not the "
                         "next row of that component's cells",
                         j, c, (unsigned long long)x, (unsigned long long)(at / width),
                         (long long)b1 - (long long)b0);
                return 1;
            }
        }
    }
#undef START
#undef BEFORE
    return 0;
}

void nbb_runs_free(nbb_runs *r)
{
    nbb_free(r->payload);
    memset(r, 0, sizeof *r);
}

nb_status nbb_runs_add(nbb_builder *b, nb_capability cap, uint32_t size, const uint32_t *label,
                       uint32_t width, uint32_t height, uint32_t n, unsigned threads, int compress,
                       nb_err *err)
{
    nbb_runs runs;
    nb_status st = nbb_runs_build_threads(label, width, height, n, threads, &runs, err);
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
