/* clearance_build.h: what mkclear computes (clearance_build.c, layer_pack.c,
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

/* Rows per band: the unit of work of clearance and components, on
 * threads and in incremental bakes.  A multiple of 8, so that every band's
 * packed values start on a byte whatever the bits per cell. */
#define NBB_BAND_ROWS 64

/* The bands of a map of this height, and the rows [*y0, *y1) of one. */
uint32_t nbb_band_count(uint32_t height);
void nbb_band_rows(uint32_t band, uint32_t height, uint32_t *y0, uint32_t *y1);

/* Rows [y0, y1) of the capped clearance (nbb_clearance_compute) into out,
 * row y0 first, whatever the rows below: the sweep starts cap_size - 1
 * rows below y1 (the capped values of a row depend on no more), in halo
 * (2 x width bytes; unused when y1 is the height). */
void nbb_clearance_rows(const uint8_t *cells, uint32_t width, uint32_t height,
                        const uint8_t in_cap[256], unsigned cap_size, uint32_t y0, uint32_t y1,
                        uint8_t *out, uint8_t *halo);

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

/* A layer's header (width, height, bits, maxval) and zero tail, for a
 * payload of nbi_layer_bytes(cells, bits) bytes. */
void nbb_layer_header(uint8_t *out, uint32_t width, uint32_t height, unsigned bits,
                      uint32_t maxval);
/* Packs the values of rows [y0, y1) (v8 or v32 from row y0) into their
 * place in a payload; y0 x width x bits must be a multiple of 8 (a band's
 * first row is), and the rows' bytes are written whole. */
void nbb_layer_pack_rows(uint8_t *payload, uint32_t width, unsigned bits, uint32_t y0,
                         uint32_t y1, const uint8_t *v8, const uint32_t *v32);
/* The reverse: the values of rows [y0, y1) into v8 or v32. */
void nbb_layer_unpack_rows(const uint8_t *payload, uint32_t width, unsigned bits, uint32_t y0,
                           uint32_t y1, uint8_t *v8, uint32_t *v32);
/* A layer to read from a payload this library packed (no checks). */
void nbb_layer_of_payload(const uint8_t *payload, nbi_layer *l);
/* Adds a clearance (3 parameters) or component (4) layer, taking the
 * payload (malloc'ed) over. */
nb_status nbb_layer_add(nbb_builder *b, uint32_t type, const uint32_t *params, size_t nparams,
                        uint8_t *payload, size_t len, int compress, nb_err *err);

/* The clearance layer of one capability, band by band on threads (0: the
 * online CPUs): the values into cv (width x height bytes) and the packed
 * payload (malloc'ed); progress (may be NULL) is told the share done. */
nb_status nbb_bake_clearance_layer(const nbb_grid *grid, const uint8_t in_cap[256],
                                   unsigned cap_size, unsigned threads, uint8_t *cv,
                                   uint8_t **payload, size_t *len,
                                   const nbb_progress_part *progress, nb_err *err);
/* The component layer of size from clearance cv, as nbb_components_compute
 * numbers it, band by band on threads: label (width x height u32) gets the
 * numbers, *payload (malloc'ed) the packed layer. */
nb_status nbb_bake_components_layer(const uint8_t *cv, uint32_t width, uint32_t height,
                                    unsigned size, unsigned threads, uint32_t *label,
                                    uint8_t **payload, size_t *len,
                                    const nbb_progress_part *progress, nb_err *err);

/* ---- incremental bakes (clearance_rebake.c, components_repair.c) ---- */

/* A cell whose capped clearance changed, with its values before and after. */
typedef struct nbb_cv_change {
    uint32_t cell;
    uint8_t before, after;
} nbb_cv_change;

/* What nbb_clearance_rebake found. */
typedef struct nbb_cv_rebake {
    uint8_t *payload;       /* the new layer (malloc'ed); NULL when only checked */
    nbb_cv_change *changes; /* the cells whose value changed in the bands the changed rows
                               reach, row-major (malloc'ed) */
    size_t nchanges;
    uint32_t rebuilt;       /* the bands the changed rows reach */
    uint64_t lies;          /* cells of the other bands whose stored value is not the map's */
    nbb_cv_change lie;      /* the first of them (before: stored, after: the map's) */
} nbb_cv_rebake;

/* The clearance layer of a map some of whose rows changed (changed_rows:
 * height flags; NULL: none) from the old layer's payload (old_len bytes,
 * the same size and cap, bits a cell): every band is computed again on
 * threads; those the changed rows reach are written anew (into a copy of
 * old when write) and their differences listed, and the others compared
 * with the stored values, each difference a lie.  cv (NULL, or width x
 * height bytes) gets every cell's new value. */
nb_status nbb_clearance_rebake(const nbb_grid *grid, const uint8_t *changed_rows,
                               const uint8_t in_cap[256], unsigned cap_size, unsigned bits,
                               unsigned threads, const uint8_t *old, size_t old_len, uint8_t *cv,
                               int write, nbb_cv_rebake *r, nb_err *err);
/* NB_ERR_FORMAT naming bundle b's clearance layer l of capability cap, the
 * first of r's lies and how many, then the text then. */
nb_status nbb_clearance_lie(const nb_bundle *b, const nbi_layer *l, nb_capability cap,
                            const nbb_cv_rebake *r, const char *then, nb_err *err);

typedef struct nbb_repair_stats {
    uint64_t changed;  /* cells whose standing changed */
    uint64_t searched; /* cells the search reached */
    uint64_t patched;  /* cells written in place (the numbers stood) */
    int renumbered;    /* the layer was numbered again */
} nbb_repair_stats;

/* The component layer of size for the new clearance cv, from the old
 * layer's payload (the same map size) and the clearance changes ch[0..n)
 * (row-major): *payload (malloc'ed) gets the new layer, the same bytes as
 * nbb_bake_components_layer gives; NULL when no cell's standing changed,
 * and the old layer stands. */
nb_status nbb_components_repair(const nbi_layer *cv, const uint8_t *old, size_t old_len,
                                unsigned size, const nbb_cv_change *ch, size_t n,
                                unsigned threads, uint8_t **payload, size_t *len,
                                nbb_repair_stats *stats, nb_err *err);

/* What mkclear bakes, added to a builder (nbb_level_bake_clearance for a
 * level read from files). */
nb_status nbb_bake_clearance(nbb_builder *b, const nbi_legend *legend, const nbi_agentset *agents,
                             const nbb_grid *grid, int compress, nbb_clearance_stats *stats,
                             nb_err *err);
/* The same on threads (0: the online CPUs; the bytes do not depend on it),
 * telling progress (may be NULL) the fraction done, by layers. */
nb_status nbb_bake_clearance_opts(nbb_builder *b, const nbi_legend *legend,
                                  const nbi_agentset *agents, const nbb_grid *grid, int compress,
                                  unsigned threads, nbb_progress_fn progress, void *arg,
                                  nbb_clearance_stats *stats, nb_err *err);

#endif
