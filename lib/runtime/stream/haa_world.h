/* haa_world.h: HAA* across a world's tiles (haa_world.c), and the
 * Dijkstra over a tile's abstract graph kept to its own cells that both
 * the tile action and the queries run (tile_dijkstra.c).  Internal. */
#ifndef NB_HAA_WORLD_H
#define NB_HAA_WORLD_H

#include "abstract/abstract.h"
#include "stream/stream.h"

/* Dijkstra over an abstract graph's nodes inside a rectangle of its map
 * (a tile's own cells: clusters lie whole in it), through the arcs that
 * admit (capability, size), from seeds with their costs in steps.  Its
 * arrays are sized once for the graph. */
typedef struct nbi_tdijk {
    const nb_allocator *a;
    uint32_t n, sid;
    uint32_t *card, *diag, *stamp; /* stamp == sid << 1 | settled */
    struct nbi_heap *heap;
} nbi_tdijk;

int nbi_tdijk_init(nbi_tdijk *t, const nb_allocator *a, uint32_t nodes);
void nbi_tdijk_free(nbi_tdijk *t);
/* 0 without memory. */
int nbi_tdijk_run(nbi_tdijk *t, const nbi_agraph *g, nb_capability cap, uint32_t size,
                  uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, const uint32_t *seed,
                  const uint32_t *seed_card, const uint32_t *seed_diag, size_t nseed);
static inline int nbi_tdijk_reached(const nbi_tdijk *t, uint32_t u)
{
    return (t->stamp[u] >> 1) == t->sid;
}

#endif
