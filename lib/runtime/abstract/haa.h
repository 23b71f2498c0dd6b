/* haa.h: what HAA*'s queries (haa.c) give routes through its abstract
 * graph (motion_route.c) beyond the public API.  Internal. */
#ifndef NB_HAA_H
#define NB_HAA_H

#include "navbake.h"

/* NB_OK when the graph serves (cap, size); NB_ERR_NOTFOUND naming what it
 * serves when not. */
nb_status nbi_haa_serves(const nb_haa *ws, nb_capability cap, uint32_t size, nb_err *err);
/* The inner nodes of the last query's abstract path (res is its result),
 * start to goal, into out; returns how many.  Of an inter-edge's two ends
 * (one step apart, across a border) only the one it enters is given, so
 * each cell given lies in the next cluster along the path.  Routes use
 * them as intermediate goals (motion_route.c). */
size_t nbi_haa_waypoints(const nb_haa *ws, const nb_haa_result *res, nb_cell *out);

/* How many of the workspace's queries went on as Annotated A* over their overlay after
 * the graph's path met a block (haa.c, check_overlay): 0 wherever the overlay's repair
 * serves the graph.  For tests and benchmarks. */
uint64_t nbi_haa_fallbacks(const nb_haa *ws);

#endif
