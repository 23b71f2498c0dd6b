/* deep_subgoal.c: an optimal-search layer (formats/subgoal.md) against
 * the map, the legend and its own parameters: the layer is baked again as
 * mkclear --optimal bakes it and compared, first where a difference means
 * most (the cells the agent may stand on, then the subgoals, then each
 * node's edges), then byte by byte. */
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "subgoal/subgoal_build.h"
#include "verify/deep.h"

/* The first cell where two row bitmaps differ, or -1. */
static long long first_cell(const nbi_sggrid *g, const uint8_t *a, const uint8_t *b)
{
    for (uint32_t y = 0; y < g->height; y++)
        for (uint32_t x = 0; x < g->width; x++)
            if (nbi_sg_rowbit(g, a, (int32_t)x, (int32_t)y) != nbi_sg_rowbit(g, b, (int32_t)x, (int32_t)y))
                return (long long)y * g->width + x;
    return -1;
}

nb_status nbb_deep_subgoal(nbb_deep *d, nb_err *err)
{
    const nb_bundle *b = d->b;
    nbi_sglayer l;
    nb_status st = nbi_sglayer_at(b, d->index, &l, err); /* its message names the section */
    if (st != NB_OK)
        return st;
    if (l.cap == 0 || (b->legend.nterrains < 32 && l.cap >> b->legend.nterrains))
        return nbb_deep_fail(d, err, "capability %#x names terrains the legend does not have",
                             (unsigned)l.cap);
    uint32_t w = l.grid.width, h = l.grid.height;
    size_t n = (size_t)w * h;
    uint8_t *cv = nbb_malloc(n ? n : 1);
    const uint8_t *cells = nbi_map_bytes(b);
    if (!cv || !cells) {
        nbb_free(cv);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to recompute a %u x %u layer", w, h);
    }
    uint8_t in_cap[256];
    nbb_terrain_mask(&b->legend, l.cap, in_cap);
    nbb_clearance_compute(cells, w, h, in_cap, l.size, cv);
    uint8_t *p = NULL;
    size_t len = 0;
    st = nbb_subgoal_encode(cv, w, h, l.cap, l.size, l.corner, &p, &len, NULL, err);
    nbb_free(cv);
    if (st != NB_OK)
        return nbb_deep_cannot(d, st, err, "the map");
    nbi_sg_layout lay;
    nbi_sg_layout_of(w, h, l.nodes, l.nedges, &lay);
    const uint8_t *mine = b->sections[d->index].payload;
    long long at;
    uint32_t rn = nbi_get32(p + 4 * NBI_SG_NODES), re = nbi_get32(p + 4 * NBI_SG_EDGES);
    if ((at = first_cell(&l.grid, mine + lay.free_rows, p + lay.free_rows)) >= 0)
        st = nbb_deep_fail(d, err, "cell (%lld, %lld): %s, recomputed from the map %s",
                           at % w, at / w,
                           nbi_sg_free(&l.grid, (int32_t)(at % w), (int32_t)(at / w)) ? "free" : "blocked",
                           nbi_sg_free(&l.grid, (int32_t)(at % w), (int32_t)(at / w)) ? "blocked" : "free");
    else if ((at = first_cell(&l.grid, mine + lay.sub_rows, p + lay.sub_rows)) >= 0)
        st = nbb_deep_fail(d, err, "cell (%lld, %lld): %s, recomputed from the map %s",
                           at % w, at / w,
                           nbi_sg_is_subgoal(&l.grid, (int32_t)(at % w), (int32_t)(at / w))
                               ? "a subgoal" : "not a subgoal",
                           nbi_sg_is_subgoal(&l.grid, (int32_t)(at % w), (int32_t)(at / w))
                               ? "not one" : "one");
    else if (rn != l.nodes || re != l.nedges)
        st = nbb_deep_fail(d, err, "%u nodes and %u edges, recomputed from the map %u and %u",
                           l.nodes, l.nedges, rn, re);
    else {
        /* The same counts: the same layout.  The first node whose level
         * or edges differ. */
        for (uint32_t v = 0; st == NB_OK && v < l.nodes; v++) {
            uint32_t e0 = nbi_u32at(l.first, v), e1 = nbi_u32at(l.first, v + 1);
            int same = nbi_u32at(l.level, v) == nbi_get32(p + lay.level + 4 * (size_t)v) &&
                       e0 == nbi_get32(p + lay.first + 4 * (size_t)v) &&
                       e1 == nbi_get32(p + lay.first + 4 * ((size_t)v + 1)) &&
                       memcmp(mine + lay.edges + (size_t)e0 * NBI_SG_EDGE_RECORD,
                              p + lay.edges + (size_t)e0 * NBI_SG_EDGE_RECORD,
                              (size_t)(e1 - e0) * NBI_SG_EDGE_RECORD) == 0;
            if (!same) {
                nb_cell c = nbi_sg_node_cell(&l, v);
                st = nbb_deep_fail(d, err, "node %u at (%d, %d): its level or edges differ from "
                                   "those recomputed from the map", v, c.x, c.y);
            }
        }
        if (st == NB_OK)
            st = nbb_deep_bytes(d, mine, (size_t)b->sections[d->index].info.usize, p, len, err);
    }
    nbb_free(p);
    return st;
}
