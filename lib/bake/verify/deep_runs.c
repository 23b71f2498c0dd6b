/* deep_runs.c: a runs section against the map, legend and its own
 * parameters (formats/runs.md): the components of its capability and size
 * are computed again from the map as mkclear computes them, and so are
 * their runs; the counts, each component's first run and every run are
 * compared (nbb_runs_differ), the first difference named by component, run
 * and cell. */
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "place/place.h"
#include "place/runs_build.h"
#include "verify/deep.h"

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
    uint8_t *cv = nbb_malloc(n);
    uint32_t *label = nbb_malloc(n * sizeof *label), *queue = nbb_malloc(n * sizeof *queue);
    nbb_runs want = {0};
    const uint8_t *cells = nbi_map_bytes(b);
    if (!cv || !label || !queue || !cells)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to recompute the runs of a %u x %u map",
                      r.width, r.height);
    if (st == NB_OK) {
        uint8_t in_cap[256];
        nbb_terrain_mask(&b->legend, cap, in_cap);
        nbb_clearance_compute(cells, r.width, r.height, in_cap, size, cv);
        uint32_t count = nbb_components_compute(cv, r.width, r.height, size, label, queue, NULL);
        st = nbb_runs_build(label, r.width, r.height, count, &want, err);
        if (st != NB_OK)
            st = nbb_deep_cannot(d, st, err, "from the map");
    }
    const void *data;
    size_t len;
    char msg[200];
    if (st == NB_OK && (st = nb_bundle_payload(b, d->index, &data, &len, err)) == NB_OK &&
        nbb_runs_differ(data, len, &want, r.width, msg, sizeof msg))
        st = nbb_deep_fail(d, err, "%s", msg);
    nbb_runs_free(&want);
    nbb_free(cv);
    nbb_free(label);
    nbb_free(queue);
    return st;
}
