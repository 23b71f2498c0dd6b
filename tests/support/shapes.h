/* shapes.h: the call shapes many tests were written in, on navbake 1.0's
 * query shapes.  A test that compares families (HAA* against Annotated A*
 * on one query, a place for one agent) keeps its one query and its
 * independent answers; these helpers only carry the fields across.  The
 * 1.0 shapes themselves are tested in test_shapes.c and test_api.c. */
#ifndef NB_SHAPES_H
#define NB_SHAPES_H

#include "navbake.h"

/* HAA* on an Annotated A* query (the same fields) with flags. */
nb_haa_query tu_haa_query(const nb_aa_query *q, unsigned flags);
nb_status tu_haa_find(nb_haa *ws, const nb_aa_query *q, unsigned flags, nb_haa_result *res,
                      nb_err *err);
nb_status tu_haa_begin(nb_haa *ws, const nb_aa_query *q, unsigned flags, nb_err *err);
/* nb_haa_reachable's answer as an int: 1, 0, or -1 on an error. */
int tu_haa_reachable(nb_haa *ws, const nb_overlay *ov, nb_capability cap, unsigned size,
                     nb_cell from, nb_cell to);

/* An optimal-layer workspace with a node cap (0: none). */
nb_status tu_sg_open(const nb_bundle *b, uint64_t max_nodes, nb_sg **out, nb_err *err);
/* Annotated A* on an optimal-layer query: its ends, agent, corner rule and overlay. */
nb_aa_query tu_aa_of_sg(const nb_sg_query *q);

/* The agent called name, or NULL. */
const nb_agent *tu_agent(const nb_bundle *b, const char *name);
/* The unit called name. */
nb_status tu_unit(const nb_bundle *b, const char *name, nb_unit *out, nb_err *err);
/* The index of the graph baked for radius, or -1. */
int tu_forest_radius(const nb_forest *f, double radius);
/* The level of the speed called name, or -1. */
int tu_speed(const nb_model *m, const char *name);
/* The heuristic or abstraction called name, or -1. */
int tu_heuristic(const char *name);
int tu_abstraction(const char *name);
/* The section type called name, or 0. */
uint32_t tu_section_type(const char *name);

/* A forest search: in ws when it was opened on f, else in a workspace of
 * its own for this query. */
nb_status tu_forest_find(const nb_forest *f, double radius, nb_vec2 start, nb_vec2 goal,
                         unsigned flags, nb_forest_ws *ws, nb_forest_result *res, nb_err *err);

/* A motion workspace with the sector abstraction of side sector (0: none). */
nb_status tu_motion_open(const nb_bundle *b, const nb_model *m, const nb_perimeter *p,
                         nb_capability cap, unsigned size, unsigned sector, nb_motion **out,
                         nb_err *err);

/* A place whose queries are for one agent (checked here, as the place of
 * 0.2 was), and the three queries with that agent. */
nb_status tu_place_open(const nb_bundle *b, nb_capability cap, unsigned size, nb_place **out,
                        nb_err *err);
nb_status tu_nearest(nb_place *p, const nb_nearest_query *q, nb_nearest_result *res, nb_err *err);
nb_status tu_walk_line(nb_place *p, nb_vec2 from, nb_vec2 to, nb_line_result *res, nb_err *err);
nb_status tu_random(nb_place *p, const nb_cell *from, uint64_t *state, nb_random_result *res,
                    nb_err *err);

#endif
