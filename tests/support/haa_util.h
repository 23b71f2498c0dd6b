/* haa_util.h: what the abstract graph and HAA* tests share: levels baked
 * to bundles, graphs built in memory, maps with rooms and open ground, and
 * independent answers written from the definitions alone (a cell-by-cell
 * path check, a sampled straight-line check; tests/support/brute.c has the plain
 * Dijkstra), sharing no code with the library's searches. */
#ifndef NB_HAA_UTIL_H
#define NB_HAA_UTIL_H

#include "abstract/abstract.h"
#include "brute.h"
#include "testutil.h"

/* Bakes legend, agents, map and mkclear's layers into path and opens it. */
nb_bundle *hu_bake(const char *path, const nbi_legend *legend, const nbi_agentset *agents,
                   const nbb_grid *grid);

/* The same with the optimal-search layers (strict corners) and an abstract graph of clusters
 * of side cluster: every grid search family's sections. */
nb_bundle *hu_bake_all(const char *path, const nbi_legend *legend, const nbi_agentset *agents,
                       const nbb_grid *grid, unsigned cluster);

/* Builds the graph of an open bundle in memory and views it; the payload
 * is *payload (free it).  NB_OK or the builder's error. */
nb_status hu_graph(const nb_bundle *b, const nbb_abstract_opts *o, uint8_t **payload,
                   nbi_agraph *g, nb_err *err);

/* A map of rooms and corridors with patches of the first nterrains
 * terrains ('.', 'S', 'W', 'T') and scattered obstacles. */
void hu_rooms_grid(tu_rng *r, uint32_t w, uint32_t h, unsigned nterrains, nbb_grid *grid);

/* An agent set of n agents over the default legend's first nterrains
 * terrains, sizes 1 to max_size. */
void hu_random_agents(tu_rng *r, size_t n, unsigned nterrains, unsigned max_size,
                      nbi_agentset *set);

/* A random level baked to path and opened: a map of rooms, or of uniform
 * noise with noise_pct % obstacles when noise_pct is not 0, over nt
 * terrains, and 1 to max_agents agents of sizes 1 to max_size. */
nb_bundle *hu_random_level(tu_rng *r, const nbi_legend *legend, uint32_t w, uint32_t h, unsigned nt,
                           unsigned noise_pct, unsigned max_agents, unsigned max_size,
                           const char *path, nbb_grid *grid, nbi_agentset *agents);

/* Checks a cell path for the agent: it runs from start to goal, every
 * cell standable, every step to a neighbour, every diagonal step allowed
 * by the corner rule, and its length is len.  0 and a reason in why when
 * not. */
int hu_path_ok(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, unsigned size,
               enum brute_corner rule, const nb_cell *p, size_t n, nb_cell start, nb_cell goal,
               double len, char *why, size_t whylen);

/* The same for a smoothed path: each straight segment is checked by
 * sliding the agent's square along it in steps of 1/64 cell, but for a
 * single diagonal step the corner rule allows (smoothing leaves those of
 * the weak rule as they are). */
int hu_polyline_ok(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, unsigned size,
                   enum brute_corner rule, const nb_cell *p, size_t n, nb_cell start, nb_cell goal, double len, char *why,
                   size_t whylen);

#endif
