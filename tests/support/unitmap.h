/* unitmap.h: what the unit planner's tests share: bundles with a map and
 * a unit, an independent check that a path is free, and an independent
 * Directional search (Dijkstra over curves swept by sampling). */
#ifndef NB_TEST_UNITMAP_H
#define NB_TEST_UNITMAP_H

#include "turning/turning_build.h"
#include "testutil.h"

/* Bakes a map given as rows of MovingAI characters and a unit into path. */
int um_bundle(const char *path, const char *const *rows, const nb_unit *u);
/* The same from a grid; _with passes nbb_put_unit's flags
 * (NBB_UNIT_ALL_CURVES: hit-check entries of every candidate). */
int um_bundle_grid(const char *path, const nbb_grid *grid, const nb_unit *u);
int um_bundle_grid_with(const char *path, const nbb_grid *grid, const nb_unit *u, unsigned flags);
/* The grid's level with every section of the bundle at units (as they
 * are: an old bundle's unit keeps its sections' versions). */
int um_bundle_grid_units(const char *path, const nbb_grid *grid, const char *units);
/* A random cell of the w x h map that is free for the planner's unit. */
void um_free_cell(tu_rng *rng, const nb_planner *p, long w, long h, long *x, long *y);

/* nb_plan with the query's fields; a failed call is reported and counts
 * as no path. */
nb_planner_result um_plan(nb_planner *p, const nb_pose *s, long gx, long gy, int goal_heading,
                       unsigned method, unsigned neighbourhood, unsigned flags);

/* Samples the path every 1/20 of a cell and checks the unit's disc
 * against the map (hard obstacles, the unit's terrains); also that it
 * starts at start, ends at the goal cell's centre (not checked when gx is
 * negative: a partial path) and is continuous.
 * Returns 1 when free; else 0 with why. */
int um_path_free(const nb_bundle *b, const nb_unit *u, const nb_planner_result *res,
                 const nb_pose *start, long gx, long gy, char *why, size_t whylen);

/* An independent Directional search: Dijkstra over (x, y, heading), each
 * edge between cell centres the shortest of nb_curve_to_pose's curves when
 * its sampled sweep meets no blocked cell (with all: the first of them
 * that does), from the start any of them.  Returns the least cost to the
 * goal cell (any heading when goal_heading < 0), or INFINITY. */
double um_dijkstra(const nb_bundle *b, const nb_unit *u, const nb_pose *start, long gx, long gy,
                   int goal_heading, unsigned neighbourhood, int reverse, int all);

#endif
