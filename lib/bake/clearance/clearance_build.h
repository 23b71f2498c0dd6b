/* clearance_build.h: what mkclear computes (clearance_build.c,
 * components_build.c), for the bake side and the tests.  The layout is
 * specified in formats/clearance.md; the runtime reads it through
 * clearance/clearance.h. */
#ifndef NB_CLEARANCE_BUILD_H
#define NB_CLEARANCE_BUILD_H

#include "bake_int.h"
#include "clearance/clearance.h"

/* Per map character, 1 when its terrain is in cap. */
void nbb_terrain_mask(const nbi_legend *legend, nb_capability cap, uint8_t in_cap[256]);

/* True clearance of every cell for capability cap, capped at cap_size,
 * by the dynamic programme from the bottom-right:
 *   cv(x, y) = 0 when the cell's terrain is not in cap, else
 *   min(cap_size, 1 + min(cv(x+1, y), cv(x, y+1), cv(x+1, y+1))),
 * with cells outside the map at 0.  out holds width * height bytes. */
void nbb_clearance_compute(const uint8_t *cells, uint32_t width, uint32_t height,
                           const uint8_t in_cap[256], unsigned cap_size, uint8_t *out);

/* Connected components of the cells whose clearance is >= size, numbered
 * 1, 2, ... in the row-major order of their first cell; 0 where an agent
 * cannot stand.  Returns the number of components.  Under octile moves
 * with either corner rule a diagonal step needs a standable cardinal
 * neighbour, so it never joins what cardinal steps do not: the components
 * are the 4-connected ones.  queue is scratch of width * height u32.
 * progress (may be NULL) is told the share of cells labelled. */
uint32_t nbb_components_compute(const uint8_t *clearance, uint32_t width, uint32_t height,
                                unsigned size, uint32_t *label, uint32_t *queue,
                                const nbb_progress_part *progress);

/* Packs width * height values (each <= maxval) into a layer payload of
 * nbi_layer_bytes(cells, nbi_bits_for(maxval)) bytes.  Exactly one of
 * v8 and v32 is non-NULL. */
void nbb_layer_pack(uint32_t width, uint32_t height, uint32_t maxval, const uint8_t *v8,
                    const uint32_t *v32, uint8_t *out);

/* What mkclear bakes, added to a builder (nbb_level_bake_clearance for a
 * level read from files). */
nb_status nbb_bake_clearance(nbb_builder *b, const nbi_legend *legend, const nbi_agentset *agents,
                             const nbb_grid *grid, int compress, nbb_clearance_stats *stats,
                             nb_err *err);
/* The same, telling progress the fraction done (by layers, and cells within
 * a component layer). */
nb_status nbb_bake_clearance_progress(nbb_builder *b, const nbi_legend *legend,
                                      const nbi_agentset *agents, const nbb_grid *grid,
                                      int compress, nbb_progress_fn progress, void *arg,
                                      nbb_clearance_stats *stats, nb_err *err);

#endif
