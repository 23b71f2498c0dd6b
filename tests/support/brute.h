/* brute.h: independent answers for the clearance and search tests, written
 * from the definitions alone and as plainly as possible: the paper's
 * square growing (Algorithm 1), breadth-first search over standable cells,
 * and a textbook Dijkstra, each with the move rules spelled out again. */
#ifndef NB_BRUTE_H
#define NB_BRUTE_H

#include <stddef.h>
#include <stdint.h>

#include "bake_int.h"

/* 1 when (x, y) is in the map and its terrain is in cap. */
int brute_passable(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, long x, long y);

/* The paper's Algorithm 1: grow the square anchored at (x, y) down and to
 * the right while every cell of it is passable and inside the map; stop at
 * limit (0: no limit). */
unsigned brute_clearance(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, long x,
                         long y, unsigned limit);

/* Every cell of the s x s square anchored at (x, y) is passable. */
int brute_can_stand(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, unsigned size,
                    long x, long y);

/* Corner rules, as the search options name them. */
enum brute_corner { BRUTE_STRICT, BRUTE_WEAK };

/* Components by breadth-first search with all eight moves, a diagonal
 * allowed when both (strict) or either (weak) cardinal neighbours are
 * standable.  label gets 0 for unstandable cells and an arbitrary id per
 * component; returns the count. */
uint32_t brute_components(const nbi_legend *legend, const nbb_grid *g, nb_capability cap,
                          unsigned size, enum brute_corner rule, uint32_t *label);

/* Textbook Dijkstra over the same moves, the agent's top-left cell kept
 * in the window [x0, x1) x [y0, y1) when win is not NULL ({x0, y0, x1,
 * y1}).  Fills dist (when not NULL) with every cell's distance, -1 where
 * unreached, and returns the distance to (gx, gy), or -1 when there is no
 * path (or an endpoint is not standable); gx < 0: no goal. */
double brute_dijkstra(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, unsigned size,
                      enum brute_corner rule, long sx, long sy, long gx, long gy, const long *win,
                      double *dist);

/* 1 when the agent may step from (x, y) to (nx, ny) in one move. */
int brute_step_ok(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, unsigned size,
                  enum brute_corner rule, long x, long y, long nx, long ny);

/* Terrain costs (issue 18): the multiplier of the agent's square at (x, y),
 * the largest of its cells' terrains' in cost[] (by terrain number; NULL:
 * all 1). */
double brute_square_cost(const nbi_legend *legend, const nbb_grid *g, const double *cost,
                         unsigned size, long x, long y);
/* The least cost from (sx, sy) to (gx, gy), -1 when there is none: an
 * O(n^2) Dijkstra in which a move costs its length times the square's
 * multiplier at the cell it enters. */
double brute_cost_dijkstra(const nbi_legend *legend, const nbb_grid *g, nb_capability cap,
                           unsigned size, enum brute_corner rule, const double *cost, long sx,
                           long sy, long gx, long gy);

/* Partial paths (issue 32): the cell nearest (gx, gy) by octile distance
 * (ties: the least y, then the least x) among those a breadth-first search
 * over the agent's legal steps reaches from (sx, sy), which the caller has
 * checked the agent stands on; in *x, *y. */
void brute_nearest_reachable(const nbi_legend *legend, const nbb_grid *g, nb_capability cap,
                             unsigned size, enum brute_corner rule, long sx, long sy, long gx,
                             long gy, long *x, long *y);

/* The components as formats/clearance.md numbers them: the cells where the
 * agent stands joined 4-connected, numbered 1, 2, ... in the row-major
 * order of each one's first cell (0: cannot stand); returns the count. */
uint32_t brute_components_numbered(const nbi_legend *legend, const nbb_grid *g, nb_capability cap,
                                   unsigned size, uint32_t *label);

#endif
