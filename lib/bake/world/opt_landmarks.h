/* opt_landmarks.h: the link's landmarks on the optimal layer's portal
 * graph (opt_landmarks.c), between the join of the tiles' borders
 * (opt_link.c) and their distances. */
#ifndef NBB_OPT_LANDMARKS_H
#define NBB_OPT_LANDMARKS_H

#include "stream/opt_world.h"

/* The portal graph as the link has joined it: nodes numbered tile by
 * tile, each tile's clique in its packed rows, the moves between tiles. */
typedef struct nbbo_graph {
    uint32_t tiles, nodes;
    const nbi_optb *tile;   /* per tile */
    const uint32_t *first;  /* tiles + 1: a tile's first node */
    const uint32_t *lfirst; /* nodes + 1: a node's moves out in lto, lmove */
    const uint32_t *lto;
    const uint8_t *lmove;
} nbbo_graph;

/* The landmarks the layer stores: up to want of them into landmark[],
 * their count into *count, and each node v's distance from landmark k
 * over the graph into dist[v * want + k] (-1: not reached). */
nb_status nbb_world_opt_landmarks(const nbbo_graph *g, uint32_t want, uint32_t *landmark,
                                  double *dist, uint32_t *count, nb_err *err);

#endif
