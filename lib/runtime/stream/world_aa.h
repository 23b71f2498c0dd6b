/* world_aa.h: the world workspace (world_aa.c) as the other queries across
 * a world use it (world_nearest.c).  Internal. */
#ifndef NB_WORLD_AA_H
#define NB_WORLD_AA_H

#include "stream/wquery.h"

const nb_world *nbi_world_aa_world(const nb_world_aa *ws);
nbi_wpins *nbi_world_aa_pins(nb_world_aa *ws);
/* Marks the n missing tiles whose bound is below limit as the last
 * query's needed tiles (nb_world_aa_needed); n 0: none. */
void nbi_world_aa_mark_needed(nb_world_aa *ws, double limit, size_t n);

/* The workspace's own second search (world_joined.c), NULL until made. */
nb_world_aa **nbi_world_aa_helper(nb_world_aa *ws);
/* The last query's needed tiles are its helper's. */
void nbi_world_aa_helper_needed(nb_world_aa *ws);
/* Whether the agent of (cap, size) walks from a to b (both standable) on
 * the grid the overlay edits (ov NULL: the world's own), into *joined, by
 * the workspace's helper search: from b first, with a bound on the cells
 * it may reach (a cell the blocks shut in is told at once), then from a
 * with none.  NB_ERR_UNLOADED names the tiles (nb_world_aa_needed of ws). */
nb_status nbi_world_joined(nb_world_aa *ws, nb_capability cap, uint32_t size, nb_cell a, nb_cell b,
                           const nb_world_overlay *ov, int *joined, uint64_t *expanded,
                           nb_err *err);

#endif
