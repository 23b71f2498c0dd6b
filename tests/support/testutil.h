/* testutil.h: files, paths and random levels for the tests. */
#ifndef NB_TESTUTIL_H
#define NB_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "bake_int.h"
#include "clearance/clearance_build.h"
#include "shapes.h"
#include "tap.h"

/* A fresh temporary directory, removed with everything in it at exit. */
const char *tu_tmpdir(void);
/* dir/name in a static rotating buffer (8 slots). */
const char *tu_path(const char *dir, const char *name);
/* $top_srcdir/rel. */
const char *tu_src(const char *rel);
/* $NB_SHARED/rel when that file exists, else NULL (tests skip, saying so). */
const char *tu_shared(const char *rel);

/* 1 when the two paths hold the same cells in the same order. */
int tu_same_cells(const nb_cell *a, size_t na, const nb_cell *b, size_t nb);
int tu_write(const char *path, const void *data, size_t len);
/* Whole file, NUL-terminated; NULL if it cannot be read. */
char *tu_read(const char *path, size_t *len);
/* Runs a shell command, returns its exit status (-1 if it did not exit). */
int tu_system(const char *fmt, ...) TAP_PRINTF(1, 2);

/* A small deterministic PRNG (xorshift64*). */
typedef struct tu_rng { uint64_t s; } tu_rng;
uint64_t tu_rand(tu_rng *r);
/* Uniform in [0, n). */
uint32_t tu_below(tu_rng *r, uint32_t n);

/* Nanoseconds a dependent load takes on average, walking a random cycle
 * through an array of the given bytes (64 MB: main memory; a few MB: the
 * last-level cache where the machine gives it): benchmarks print it beside
 * their figures, since a VM's memory slows and speeds up from one hour to
 * the next.  -1 without memory. */
double tu_load_latency_ns(size_t bytes);

/* A random map over the default legend: each cell an obstacle with
 * probability obstacle_pct, else one of the first nterrains terrains. */
void tu_random_grid(tu_rng *r, uint32_t w, uint32_t h, unsigned obstacle_pct, unsigned nterrains,
                    nbb_grid *grid);

/* Blocks the rectangle x, y, w, h (clipped to the map) in ov and makes its cells walls
 * ('@') in e, a copy of the bundle's map: the edited map a brute force reads. */
void tu_wall(nb_overlay *ov, nbb_grid *e, long x, long y, long w, long h);
/* Partial paths under an overlay: walls (gx, gy) in with a square ring of blocks (1 to 6
 * cells out, 1 or 2 thick, tu_wall) and then blocks 0 to extra - 1 random rectangles of 1 x 1
 * to 20 x 20 anywhere. */
void tu_wall_in(nb_overlay *ov, nbb_grid *e, tu_rng *r, long gx, long gy, unsigned extra);
/* A partial query q under ov with its goal walled in: ov cleared, e made g again, tu_wall_in
 * round q's goal; the cell a breadth-first search over e finds reachable nearest the goal
 * (brute_nearest_reachable) in *want.  0 when the agent cannot stand at q's start on e. */
int tu_walled_goal(nb_overlay *ov, nbb_grid *e, const nbb_grid *g, const nbi_legend *legend,
                   tu_rng *r, const nb_sg_query *q, unsigned extra, nb_cell *want);

/* Bakes legend, agents and map into a bundle file with the writer. */
nb_status tu_write_level(const char *path, const nbi_legend *legend, const nbi_agentset *agents,
                         const nbb_grid *grid, int compress, nb_err *err);
/* The same with mkclear's layers (clearance and components). */
nb_status tu_write_cleared(const char *path, const nbi_legend *legend, const nbi_agentset *agents,
                           const nbb_grid *grid, int compress, nb_err *err);
/* Adds mkabstract's graph (clusters of side cluster, the other options
 * mkabstract's defaults) to the open bundle *b, which needs mkclear's
 * layers: written with its sections to path and opened in its place
 * (*b NULL on failure). */
nb_status tu_add_abstract(nb_bundle **b, const char *path, unsigned cluster, nb_err *err);
/* The same with options o, and the graph's costs for each cost profile of
 * the agent set (its agents with terrain costs). */
nb_status tu_add_abstract_opts(nb_bundle **b, const char *path, const nbb_abstract_opts *o,
                               nb_err *err);
/* Adds the graph's higher levels (nbb_levels_put with o) to the open bundle
 * *b, which holds a graph: written to path and opened in its place. */
nb_status tu_add_levels(nb_bundle **b, const char *path, const nbb_levels_opts *o, nb_err *err);
/* Agents "swamp<cost>" of {ground, swamp} (the default legend), size 1, whose swamp
 * costs swamp[k] (1: no costs), k < n: what the tests and benchmarks of terrain costs
 * on the maps with swamp use. */
void tu_swamp_agents(nbi_agentset *agents, const double *swamp, size_t n);
/* The map rel of ../shared (tu_shared) and its scenario file (rel + ".scen"), read with
 * legend; NB_ERR_NOTFOUND when ../shared is not there. */
nb_status tu_scen_level(const char *rel, const nbi_legend *legend, nbb_grid *g, nbb_scen *scen,
                        nb_err *err);
/* The sample level of data/: the default legend, data/sample-agents.yaml
 * and data/sample.map.  On failure prints "Bail out!" and exits. */
void tu_read_sample(nbi_legend *legend, nbi_agentset *agents, nbb_grid *grid);

/* A side x side level tiled from tile: copies side by side, each copy
 * mirrored when mirror (so that the tiles meet edge to same edge, as a
 * studio's large world of repeated streets would), else repeated as is. */
void tu_tile_grid(const nbb_grid *tile, uint32_t side, int mirror, nbb_grid *out);
/* The same from a map of ../shared (rel, as tu_shared), read with the
 * default legend; 0 (nothing read) when it is absent. */
int tu_tiled_shared(const char *rel, uint32_t side, int mirror, nbb_grid *out);

/* A legend section's payload from formats/bundle.md alone, for bundles
 * made by hand: one terrain, "rock", on '.'; '#' a hard obstacle. */
#define TU_ROCK_LEGEND_SIZE (8 + 32 + 256)
void tu_rock_legend(uint8_t *out);

/* Crafting bundles as an attacker would, every CRC right: the payload of
 * the first section of a type, copied (free() it), and its table entry;
 * NULL when there is none. */
uint8_t *tu_section_take(const char *path, uint32_t type, size_t *len, nb_section_info *info);
/* Writes path's bundle to out with the section of info's type, name and
 * parameters replaced by payload, through the bake API: the CRCs are the
 * writer's.  1 on success. */
int tu_section_put(const char *path, const char *out, const nb_section_info *info,
                   const uint8_t *payload, size_t len);

/* Files in a directory, not counting those whose name starts with '.'. */
int tu_count_entries(const char *dir);
/* Tests an interrupted write (3 assertions): bakes the level into dir/name
 * (a fresh directory), then a 1000 x 1000 level over it in a child process
 * whose files may not grow much (RLIMIT_FSIZE).  That write must fail
 * with a write error, leave the first file as it was and nothing beside
 * it.  The name's extension chooses the form. */
void tu_check_failed_write(const char *dir, const char *name, const nbi_legend *legend,
                           const nbi_agentset *agents, const nbb_grid *grid);

/* A bundle at path of the level and agents with their clearance layers and the optimal
 * layers for corners (NBB_CORNERS_STRICT, _WEAK or both), written and closed. */
nb_status tu_bake_optimal(const char *path, const nbi_legend *legend, const nbi_agentset *agents,
                          const nbb_grid *grid, unsigned corners, nb_err *err);

#endif
