/* deep_layers.c: a clearance or component layer against the map, legend
 * and its own parameters (formats/clearance.md): the values are computed
 * again as mkclear computes them and compared cell by cell, so a layer
 * stored with more bits per cell, or compressed, still passes when its
 * values are right. */
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "verify/deep.h"

/* The first cell whose value differs, or -1. */
static long long first_difference(const nbi_layer *l, const uint8_t *v8, const uint32_t *v32)
{
    uint64_t n = (uint64_t)l->width * l->height;
    for (uint64_t i = 0; i < n; i++)
        if (nbi_comp_get(l, i) != (v8 ? v8[i] : v32[i])) /* a clearance layer's rows are NULL */
            return (long long)i;
    return -1;
}

nb_status nbb_deep_layer(nbb_deep *d, nb_err *err)
{
    const nb_bundle *b = d->b;
    nbi_layer l;
    nb_status st = nbi_layer_at(b, d->index, &l, err); /* its message names the section */
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[d->index].info;
    int comp = in->type == NB_SEC_COMPONENTS;
    nb_capability cap = in->param[0];
    uint32_t size = comp ? in->param[1] : 0;
    if ((st = nbb_deep_agent(d, cap, comp, size, err)) != NB_OK)
        return st;
    size_t n = (size_t)l.width * l.height;
    uint8_t *cv = nbb_malloc(n ? n : 1);
    uint32_t *label = comp ? nbb_malloc((n ? n : 1) * sizeof *label) : NULL;
    uint32_t *queue = comp ? nbb_malloc((n ? n : 1) * sizeof *queue) : NULL;
    const uint8_t *cells = nbi_map_bytes(b);
    if (!cv || !cells || (comp && (!label || !queue))) {
        nbb_free(cv);
        nbb_free(label);
        nbb_free(queue);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to recompute a %u x %u layer", l.width,
                        l.height);
    }
    uint8_t in_cap[256];
    nbb_terrain_mask(&b->legend, cap, in_cap);
    /* Components need only whether clearance reaches the size. */
    nbb_clearance_compute(cells, l.width, l.height, in_cap, comp ? size : l.maxval, cv);
    uint32_t count = comp ? nbb_components_compute(cv, l.width, l.height, size, label, queue, NULL) : 0;
    long long at = first_difference(&l, comp ? NULL : cv, label);
    if (at >= 0) {
        uint32_t x = (uint32_t)((uint64_t)at % l.width), y = (uint32_t)((uint64_t)at / l.width);
        st = nbb_deep_fail(d, err, "cell (%u, %u): %s %u, recomputed from the map %u", x, y,
                           comp ? "component" : "clearance", nbi_comp_get(&l, (uint64_t)at),
                           comp ? label[at] : cv[at]);
    } else if (comp && count != l.maxval)
        st = nbb_deep_fail(d, err, "%u components, recomputed from the map %u", l.maxval, count);
    nbb_free(cv);
    nbb_free(label);
    nbb_free(queue);
    return st;
}
