/* clearance.h: clearance and component layers, shared by the runtime
 * (layers.c, aastar.c, and the HAA* and motion code that stand on them)
 * and the builders (clearance.c, components.c).  Internal; the layout is
 * specified in formats/clearance.md.
 *
 * Both layers are a grid of small unsigned values, bit-packed: cell i =
 * y * width + x holds its value in bits [i * bits, (i + 1) * bits) of the
 * little-endian bit string that starts after a 16-byte header, and 8 zero
 * bytes follow the last value so that a reader may load 8 bytes at the
 * byte of any cell.  So any cell is read in O(1) straight from the mapped
 * file: one unaligned 64-bit load, a shift and a mask. */
#ifndef NB_CLEARANCE_H
#define NB_CLEARANCE_H

#include <string.h>

#include "core/base.h"

#define NBI_LAYER_HEADER 16 /* u32 width, u32 height, u32 bits, u32 max value */
#define NBI_LAYER_TAIL 8    /* zero bytes after the packed values */
#define NBI_LAYER_MAX_BITS 32
#define NBI_CLEARANCE_VERSION 1
#define NBI_COMPONENTS_VERSION 1

/* A validated layer, ready to read. */
typedef struct nbi_layer {
    const uint8_t *bits_at; /* the packed values */
    uint32_t width, height;
    uint32_t bits;   /* bits per cell, 1 to 32 */
    uint32_t maxval; /* clearance: the cap; components: the component count */
    uint64_t mask;   /* (1 << bits) - 1 */
    long section;    /* its index in the bundle */
} nbi_layer;

/* The 8 bytes at p as a little-endian integer. */
static inline uint64_t nbi_load64le(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

/* The value of cell i (no bounds check: the caller checks i < cells). */
static inline uint32_t nbi_layer_get(const nbi_layer *l, uint64_t i)
{
    uint64_t bit = i * l->bits;
    return (uint32_t)((nbi_load64le(l->bits_at + (bit >> 3)) >> (bit & 7)) & l->mask);
}

/* Bits needed for values 0..maxval (at least 1). */
static inline unsigned nbi_bits_for(uint64_t maxval)
{
    unsigned b = 1;
    while (b < 64 && (maxval >> b) != 0)
        b++;
    return b;
}

/* Bytes of a layer's payload for this many cells at this width. */
static inline uint64_t nbi_layer_bytes(uint64_t cells, unsigned bits)
{
    return NBI_LAYER_HEADER + (cells * bits + 7) / 8 + NBI_LAYER_TAIL;
}

/* ---- runtime (layers.c) ---- */

/* Finds the clearance layer of capability cap, or the component layer of
 * (cap, size), and checks it against the bundle's map before any read.
 * NB_ERR_NOTFOUND when the bundle holds none (the message says what it
 * does hold); NB_ERR_FORMAT when the section is malformed. */
nb_status nbi_clearance_layer(const nb_bundle *b, nb_capability cap, nbi_layer *out, nb_err *err);
nb_status nbi_components_layer(const nb_bundle *b, nb_capability cap, uint32_t size, nbi_layer *out,
                               nb_err *err);
/* The same for the layer in section idx. */
nb_status nbi_layer_at(const nb_bundle *b, size_t idx, nbi_layer *out, nb_err *err);

/* ---- builders (clearance.c, components.c) ---- */

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
 * are the 4-connected ones.  queue is scratch of width * height u32. */
uint32_t nbb_components_compute(const uint8_t *clearance, uint32_t width, uint32_t height,
                                unsigned size, uint32_t *label, uint32_t *queue);

/* Packs width * height values (each <= maxval) into a layer payload of
 * nbi_layer_bytes(cells, nbi_bits_for(maxval)) bytes.  Exactly one of
 * v8 and v32 is non-NULL. */
void nbb_layer_pack(uint32_t width, uint32_t height, uint32_t maxval, const uint8_t *v8,
                    const uint32_t *v32, uint8_t *out);

/* What mkclear bakes, added to a builder: a clearance layer for every
 * capability of the agent set, capped at its largest size, and a
 * component layer for every (capability, size) of C x S.  compress
 * stores them as zlib streams. */
typedef struct nbb_clearance_stats {
    size_t clearance_layers, component_layers;
    uint64_t packed_bytes; /* payload bytes before any zlib */
} nbb_clearance_stats;
struct nbb_builder;
struct nbb_grid;
nb_status nbb_bake_clearance(struct nbb_builder *b, const nbi_legend *legend,
                             const nbi_agentset *agents, const struct nbb_grid *grid, int compress,
                             nbb_clearance_stats *stats, nb_err *err);

#endif
