/* runs.c: the runs section (formats/runs.md), which lists each
 * component's cells as runs along rows with the count of cells before
 * each, so that the k-th cell of a component is one binary search away.
 *
 * Everything a draw relies on is checked here, once, in O(components +
 * runs): the counts agree with the map and the section table, the arrays
 * fit the payload exactly, the component and cell counts only grow, and
 * every run lies within one row of the map.  A draw then reads within the
 * arrays and returns a cell of the map whatever the values say; whether
 * they agree with the component layer is navbake verify --deep's
 * question.  Nothing in the section is followed from one entry to the
 * next: a draw is two binary searches, O(log runs) on any section that
 * passes, and the place queries' other work is their own cells'
 * (nearest.c, walk_line.c). */
#include <stdio.h>

#include "place/place.h"

nb_status nbi_runs_at(const nb_bundle *b, size_t idx, nbi_runs *out, nb_err *err)
{
    if (idx >= b->nsections || b->sections[idx].info.type != NB_SEC_RUNS)
        return nbi_fail(err, NB_ERR_ARG, "%s: section %zu is not a runs section", b->path, idx);
    const struct nbi_section *s = &b->sections[idx];
    const nb_section_info *in = &s->info;
#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)
    if (!b->has_map)
        return FAIL("%s: a runs section but no map", b->path);
    if (in->version != NBI_RUNS_VERSION)
        return nbi_fail(err, NB_ERR_VERSION,
                        "%s: section %zu (runs) has version %u; this reader knows version %u",
                        b->path, idx, in->version, NBI_RUNS_VERSION);
    if (NB_ENC_LAYOUT(in->encoding) != NB_ENC_RAW || s->payload == NULL ||
        (NB_ENC_COMPRESSION(in->encoding) && s->payload == s->stored))
        return FAIL("%s: section %zu (runs): encoding %s, expected raw", b->path, idx,
                    nb_encoding_name(in->encoding));
    const uint8_t *p = s->payload;
    uint64_t len = in->usize, cells = (uint64_t)b->width * b->height;
    if (len < NBI_RUNS_HEADER)
        return FAIL("%s: section %zu (runs): %llu bytes, shorter than its header", b->path, idx,
                    (unsigned long long)len);
    nbi_runs r;
    r.width = nbi_get32(p + NBI_RUNS_WIDTH);
    r.height = nbi_get32(p + NBI_RUNS_HEIGHT);
    r.n = nbi_get32(p + NBI_RUNS_COMPONENTS);
    r.count = nbi_get32(p + NBI_RUNS_COUNT);
    r.cells = nbi_get32(p + NBI_RUNS_CELLS);
    if (r.width != b->width || r.height != b->height)
        return FAIL("%s: section %zu (runs) is for %u x %u cells but the map is %u x %u", b->path,
                    idx, r.width, r.height, b->width, b->height);
    /* Every component has a run and every run a cell; cells without runs
     * could not be drawn. */
    if (r.cells > cells || r.count > r.cells || r.n > r.count || (r.count == 0 && r.cells) ||
        nbi_get32(p + NBI_RUNS_ZERO))
        return FAIL("%s: section %zu (runs): %u components, %u runs and %u cells on a map of "
                    "%llu cells, expected components <= runs <= cells <= the map's and a zero "
                    "word",
                    b->path, idx, r.n, r.count, r.cells, (unsigned long long)cells);
    uint64_t want = NBI_RUNS_HEADER + 4 * ((uint64_t)r.n + 1) + NBI_RUNS_RECORD * (uint64_t)r.count;
    if (len != want)
        return FAIL("%s: section %zu (runs): %llu bytes, expected %llu for %u components and %u "
                    "runs",
                    b->path, idx, (unsigned long long)len, (unsigned long long)want, r.n, r.count);
    if (in->param[2] != r.n || in->param[3] != r.count || in->param[4] != r.cells)
        return FAIL("%s: section %zu (runs): the section table and the payload disagree on its "
                    "counts",
                    b->path, idx);
    r.first = p + NBI_RUNS_HEADER;
    r.runs = r.first + 4 * ((size_t)r.n + 1);
    r.section = (long)idx;
    if (nbi_runs_first(&r, 0) != 0 || nbi_runs_first(&r, r.n) != r.count)
        return FAIL("%s: section %zu (runs): the first component's runs start at %u and the "
                    "last's end at %u, expected 0 and %u",
                    b->path, idx, nbi_runs_first(&r, 0), nbi_runs_first(&r, r.n), r.count);
    for (uint32_t k = 0; k < r.n; k++)
        if (nbi_runs_first(&r, k + 1) <= nbi_runs_first(&r, k))
            return FAIL("%s: section %zu (runs): component %u has no run (its first run %u, the "
                        "next component's %u)",
                        b->path, idx, k + 1, nbi_runs_first(&r, k), nbi_runs_first(&r, k + 1));
    if (r.count && nbi_runs_before(&r, 0) != 0)
        return FAIL("%s: section %zu (runs): the cells before run 0 number %u, expected 0", b->path,
                    idx, nbi_runs_before(&r, 0));
    for (uint32_t j = 0; j < r.count; j++) {
        uint32_t b0 = nbi_runs_before(&r, j), b1 = nbi_runs_before(&r, j + 1), at = nbi_runs_start(&r, j);
        /* b1 > b0: a run of one cell or more, and the counts reach cells. */
        if (b1 <= b0)
            return FAIL("%s: section %zu (runs): run %u is empty (the cells before it number "
                        "%u, before the next %u)",
                        b->path, idx, j, b0, b1);
        if (at >= cells || at % r.width + (uint64_t)(b1 - b0) > r.width)
            return FAIL("%s: section %zu (runs): run %u, %u cells from cell %u, leaves its row "
                        "of the %u x %u map",
                        b->path, idx, j, b1 - b0, at, r.width, r.height);
    }
#undef FAIL
    *out = r;
    return NB_OK;
}

nb_status nbi_runs_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_runs r;
    return nbi_runs_at(b, idx, &r, err);
}

nb_status nbi_runs_find(const nb_bundle *b, nb_capability cap, uint32_t size, nbi_runs *out,
                        nb_err *err)
{
    uint32_t params[2] = {cap, size};
    long idx = nbi_section_index(b, NB_SEC_RUNS, NULL, params, 2);
    if (idx < 0) {
        char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
        nb_capability_format(b, cap, caps, sizeof caps);
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: no runs section for capability {%s} and size %u; bake one with "
                        "mkclear and an agent of that capability and size",
                        b->path, caps, size);
    }
    return nbi_runs_at(b, (size_t)idx, out, err);
}

uint32_t nbi_runs_size(const nbi_runs *r, uint32_t c)
{
    if (c == 0)
        return r->cells;
    return nbi_runs_before(r, nbi_runs_first(r, c)) - nbi_runs_before(r, nbi_runs_first(r, c - 1));
}

uint32_t nbi_runs_cell(const nbi_runs *r, uint32_t c, uint32_t k, uint32_t *comp)
{
    uint32_t lo = c ? nbi_runs_first(r, c - 1) : 0, hi = c ? nbi_runs_first(r, c) : r->count;
    uint32_t target = nbi_runs_before(r, lo) + k;
    /* The last run of [lo, hi) with at most target cells before it. */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (nbi_runs_before(r, mid) <= target)
            lo = mid;
        else
            hi = mid;
    }
    if (comp) {
        if (c)
            *comp = c;
        else { /* the component whose runs hold run lo */
            uint32_t a = 0, z = r->n;
            while (z - a > 1) {
                uint32_t mid = a + (z - a) / 2;
                if (nbi_runs_first(r, mid) <= lo)
                    a = mid;
                else
                    z = mid;
            }
            *comp = a + 1;
        }
    }
    return nbi_runs_start(r, lo) + (target - nbi_runs_before(r, lo));
}
