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
    uint32_t *pos;                 /* the heap's positions: one entry a node */
    struct nbi_heap *heap;
    /* When not NULL: the search ends once it has settled `left` nodes
     * marked here (the ones its caller wants). */
    const uint8_t *target;
    uint32_t left;
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

/* HAA* across a world's tiles for one (capability, size): its world
 * graph, and what a query keeps from one to the next. */
typedef struct nbi_whaa nbi_whaa;
typedef struct nbi_whaa_result {
    int found;
    double length;          /* of the cell path, octile steps */
    double abstract_length; /* of the world graph's path */
    size_t path_len;        /* cells, both ends included */
    const nb_cell *path;    /* world cells, in the workspace */
    uint64_t expanded;      /* world graph nodes taken off the open list */
    size_t abstract_len;    /* its path's nodes, start and goal included */
    size_t tiles;           /* tiles its refinement read */
    int start_blocked, goal_blocked; /* the agent cannot stand at that end */
    int limit;              /* the search above the tiles stopped at max_expansions */
    int apart;              /* the ends in different world components: no search ran */
} nbi_whaa_result;

/* NB_ERR_NOTFOUND when the world bundle has no HAA* graph for (cap, size). */
nb_status nbi_whaa_new(const nb_world *w, nb_capability cap, uint32_t size, nbi_whaa **out,
                       nb_err *err);
void nbi_whaa_free(nbi_whaa *q);
/* 0: the queries to come end with the world graph's path (res->found and
 * abstract_length; no cell path, no tile read but the ends'): what the
 * search above the tiles costs alone (bench_world_haa).  1 (the default):
 * refined. */
void nbi_whaa_set_refine(nbi_whaa *q, int refine);
/* The flags of each tile's HAA* refining a stretch (NB_HAA_STRAIGHTEN, the
 * default, or 0), and the most nodes the search above the tiles may
 * expand (0, the default: no limit). */
void nbi_whaa_set_query(nbi_whaa *q, unsigned flags, uint64_t max_expansions);
/* What it holds now. */
size_t nbi_whaa_bytes(const nbi_whaa *q);
/* The path from start to goal (world cells): NB_ERR_UNLOADED, with the tiles
 * needed (as nb_world_reachable), when the ends' tiles or those the path
 * crosses are not loaded; the abstract search reads no tile. */
nb_status nbi_whaa_find(nbi_whaa *q, nb_cell start, nb_cell goal, nbi_whaa_result *res,
                        nb_world_tile *needed, size_t needed_max, size_t *needed_count,
                        nb_err *err);

#endif
