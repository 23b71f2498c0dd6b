/* cluster_dist.h: the distances between a cluster's abstract nodes, for
 * the whole bake's intra-edges (abstract_build.c).
 *
 * The runtime's cluster search (cluster_search.c) reads the layer at every
 * cell of every search; a cluster's nodes share one box and one (c, s),
 * so here the moves each cell allows are read once per box and then every
 * node's Dijkstra walks them.  The distances are the same (a path's cost
 * is cardinal + diagonal * sqrt 2, and those two counts are what the graph
 * stores), so the bytes are too; the parents may differ among paths of
 * equal cost, so a bake that stores paths keeps the runtime's search. */
#ifndef NBB_CLUSTER_DIST_H
#define NBB_CLUSTER_DIST_H

#include <stddef.h>
#include <stdint.h>

#include "abstract/abstract.h"

typedef struct nbb_cdist_item {
    double key;
    uint32_t id;
} nbb_cdist_item;

/* A worker's search buffers over a box of at most side x side cells with
 * a ring of one cell around it (cells numbered row by row in it). */
typedef struct nbb_cdist {
    uint32_t maxcells, w2, stamp, qcap;
    nbi_box box;
    uint8_t *stand; /* per cell: 1 when the agent stands there (the ring: 0) */
    uint8_t *move;  /* per cell: bit d when move d stays on standable cells of the box */
    double *g;
    uint16_t *diag; /* diagonal moves on the path g is the cost of */
    uint32_t *seen, *closed, *target;
    nbb_cdist_item *open; /* the two queues, qcap entries each */
} nbb_cdist;

/* 1 on success, 0 out of memory (nothing held then). */
int nbb_cdist_init(nbb_cdist *cd, uint32_t side);
void nbb_cdist_free(nbb_cdist *cd);
/* The moves of the box for an agent of size s of layer l (corner: NBI_CORNER_*). */
void nbb_cdist_box(nbb_cdist *cd, const nbi_layer *l, uint32_t size, int corner,
                   const nbi_box *box);
/* Dijkstra from start in the box, until every target is settled. */
void nbb_cdist_run(nbb_cdist *cd, nb_cell start, const nb_cell *targets, size_t ntargets);
/* The cost from the last run's start to c and its diagonal moves; -1
 * when c was not reached. */
double nbb_cdist_cost(const nbb_cdist *cd, nb_cell c, uint32_t *diag);

#endif
