/* deep_runs.c: a runs section against the map, legend and its own
 * parameters (formats/runs.md): the components of its capability and size
 * are computed again from the map as mkclear computes them, and so are
 * their runs; the counts, each component's first run and every run are
 * compared, the first difference named by component, run and cell. */
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "place/place.h"
#include "place/runs_build.h"
#include "verify/deep.h"

static nb_status compare(nbb_deep *d, const nbi_runs *r, const nbb_runs *want, nb_err *err)
{
    if (r->n != want->n || r->count != want->count || r->cells != want->cells)
        return nbb_deep_fail(d, err,
                             "%u components, %u runs, %u cells; recomputed from the map %u, %u, "
                             "%u",
                             r->n, r->count, r->cells, want->n, want->count, want->cells);
    const uint8_t *wfirst = want->payload + NBI_RUNS_HEADER;
    const uint8_t *wruns = wfirst + 4 * ((size_t)want->n + 1);
    for (uint32_t k = 0; k < r->n; k++)
        if (nbi_u32at(r->first, k) != nbi_u32at(wfirst, k))
            return nbb_deep_fail(d, err, "component %u starts at run %u, recomputed %u", k + 1,
                                 nbi_u32at(r->first, k), nbi_u32at(wfirst, k));
    uint32_t comp = 0;
    for (uint32_t j = 0; j < r->count; j++) {
        while (comp < r->n && nbi_u32at(wfirst, comp + 1) <= j)
            comp++;
        const uint8_t *a = r->runs + (size_t)j * NBI_RUNS_RECORD,
                      *b = wruns + (size_t)j * NBI_RUNS_RECORD;
        uint32_t as = nbi_get32(a + NBI_RUN_START), bs = nbi_get32(b + NBI_RUN_START);
        uint32_t ab = nbi_get32(a + NBI_RUN_BEFORE), bb = nbi_get32(b + NBI_RUN_BEFORE);
        if (as != bs || ab != bb)
            return nbb_deep_fail(d, err,
                                 "run %u (component %u) starts at cell (%u, %u) with %u cells "
                                 "before it; recomputed from the map (%u, %u) with %u",
                                 j, comp + 1, as % r->width, as / r->width, ab, bs % r->width,
                                 bs / r->width, bb);
    }
    return NB_OK;
}

nb_status nbb_deep_runs(nbb_deep *d, nb_err *err)
{
    const nb_bundle *b = d->b;
    nbi_runs r;
    nb_status st = nbi_runs_at(b, d->index, &r, err); /* its message names the section */
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[d->index].info;
    nb_capability cap = in->param[0];
    uint32_t size = in->param[1];
    if ((st = nbb_deep_agent(d, cap, 1, size, err)) != NB_OK)
        return st;
    size_t n = (size_t)r.width * r.height;
    uint8_t *cv = malloc(n);
    uint32_t *label = malloc(n * sizeof *label), *queue = malloc(n * sizeof *queue);
    nbb_runs want = {0};
    if (!cv || !label || !queue)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to recompute the runs of a %u x %u map",
                      r.width, r.height);
    if (st == NB_OK) {
        uint8_t in_cap[256];
        nbb_terrain_mask(&b->legend, cap, in_cap);
        nbb_clearance_compute(b->cells, r.width, r.height, in_cap, size, cv);
        uint32_t count = nbb_components_compute(cv, r.width, r.height, size, label, queue, NULL);
        st = nbb_runs_build(label, r.width, r.height, count, &want, err);
        if (st != NB_OK)
            st = nbb_deep_cannot(d, st, err, "from the map");
    }
    if (st == NB_OK)
        st = compare(d, &r, &want, err);
    if (st == NB_OK) {
        const void *data;
        size_t len;
        if ((st = nb_bundle_payload(b, d->index, &data, &len, err)) == NB_OK)
            st = nbb_deep_bytes(d, data, len, want.payload, want.len, err);
    }
    nbb_runs_free(&want);
    free(cv);
    free(label);
    free(queue);
    return st;
}
