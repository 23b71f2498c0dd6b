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

#endif
