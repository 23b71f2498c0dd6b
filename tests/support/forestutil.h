/* forestutil.h: forests for the tests: baking one into a bundle and
 * opening it, random forests, random free points. */
#ifndef NB_FORESTUTIL_H
#define NB_FORESTUTIL_H

#include "testutil.h"

/* Bakes n circles (and bounds, may be NULL) for nr agent radii into the
 * bundle file path, then opens the bundle and its forest; 0 on failure
 * (with a diagnostic). */
int ft_bake_open(const nb_circle *c, size_t n, const double *bounds, const double *radii,
                 unsigned nr, const char *path, nb_bundle **bundle, nb_forest **forest);

/* A uniform real in [lo, hi). */
double ft_uniform(tu_rng *r, double lo, double hi);

/* A point in [lo, hi)^2 at least margin outside every circle inflated by
 * agent_radius (tries 10000 times; 0 when none was found). */
int ft_free_point(tu_rng *r, const nb_circle *c, size_t n, double agent_radius, double margin,
                  double lo, double hi, nb_vec2 *p);

/* Checks a path as the tests need it: it has segments, starts and ends
 * where asked, each segment joins the next, headings agree at every join
 * (no cusp), arcs lie on their circles and leave them along the tangent,
 * each segment's end worked out from its fields is where sampling it
 * arrives, the length is the segments' sum, and sampled every step (with
 * nb_segments_sample) it keeps out of every circle inflated by
 * agent_radius (to within tol).  Returns the smallest clearance seen through *clear (may be NULL);
 * 1 when all holds, else 0 and a diagnostic. */
int ft_path_ok(const nb_forest_result *p, const nb_circle *c, size_t n, double agent_radius,
               double step, double tol, double *clear);

/* A query's outcome as one code: NB_OK when found, NB_ERR_NOTFOUND when
 * there is no path, NB_ERR_ARG when an end is inside a circle, else the
 * query's own error. */
nb_status ft_outcome(nb_status st, const nb_forest_result *p);

#endif
