/* clearance.h: clearance and component layers as the runtime reads them
 * (clearance.c; aastar.c and the HAA* and motion code stand on them); the
 * bake side writes them (bake/clearance).  Internal; the layout is
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

#include "bundle/bundle.h"

/* A validated layer, ready to read. */
typedef struct nbi_layer {
    const uint8_t *bits_at; /* the packed values */
    uint32_t width, height;
    uint32_t bits;   /* bits per cell, 1 to 32 */
    uint32_t maxval; /* clearance: the cap; components: the component count */
    uint64_t mask;   /* (1 << bits) - 1 */
    uint32_t over;   /* what a stored value beyond maxval reads as: the cap, or 0
                        (no component) */
    long section;    /* its index in the bundle */
    /* Components by runs (version 2): rows is first[H + 1], bits_at the
     * records of rbits bits (xbits of start, then bits of component);
     * NULL for a packed layer, whose cells nbi_layer_get reads. */
    const uint8_t *rows;
    uint32_t xbits, rbits, runs;
    uint64_t xmask, rmask;
} nbi_layer;

/* The value of cell i (no bounds check: the caller checks i < cells). */
static inline uint32_t nbi_layer_get(const nbi_layer *l, uint64_t i)
{
    uint64_t bit = i * l->bits;
    return (uint32_t)((nbi_load64le(l->bits_at + (bit >> 3)) >> (bit & 7)) & l->mask);
}

/* The value of cell i within the layer's range: a stored value beyond
 * maxval (the packing has room for one) reads as over.  What a caller
 * hands on or indexes by goes through here; the searches, which only
 * compare values, read nbi_layer_get. */
static inline uint32_t nbi_layer_value(const nbi_layer *l, uint64_t i)
{
    uint32_t v = nbi_layer_get(l, i);
    return v <= l->maxval ? v : l->over;
}

/* A component layer's cell i in either form: the packed layer's value, or
 * the runs' (comp_runs.c: a binary search of the cell's row).  Only the
 * component layers' readers call these; clearance stays nbi_layer_get. */
uint32_t nbi_comp_runs_get(const nbi_layer *l, uint64_t i);
static inline uint32_t nbi_comp_get(const nbi_layer *l, uint64_t i)
{
    return l->rows ? nbi_comp_runs_get(l, i) : nbi_layer_get(l, i);
}
static inline uint32_t nbi_comp_value(const nbi_layer *l, uint64_t i)
{
    uint32_t v = nbi_comp_get(l, i);
    return v <= l->maxval ? v : l->over;
}

/* nbi_comp_value of every cell of row y into out[width], in one pass of
 * the row's runs (comp_runs.c). */
void nbi_comp_row(const nbi_layer *l, uint32_t y, uint32_t *out);

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

/* ---- finding and checking a layer (clearance.c) ---- */

/* Finds the clearance layer of capability cap, or the component layer of
 * (cap, size), and checks it against the bundle's map before any read.
 * NB_ERR_NOTFOUND when the bundle holds none (the message says what it
 * does hold); NB_ERR_FORMAT when the section is malformed. */
/* The clearance layer an agent of (cap, size) needs, for a query of family:
 * NB_ERR_NOTFOUND, naming what the bundle has, when there is none for cap
 * or its cap is below size; NB_ERR_FORMAT when it is damaged. */
nb_status nbi_agent_layer(const nb_bundle *b, const char *family, nb_capability cap, uint32_t size,
                          nbi_layer *out, nb_err *err);
nb_status nbi_clearance_layer(const nb_bundle *b, nb_capability cap, nbi_layer *out, nb_err *err);
nb_status nbi_components_layer(const nb_bundle *b, nb_capability cap, uint32_t size, nbi_layer *out,
                               nb_err *err);
/* The same for the layer in section idx. */
nb_status nbi_layer_at(const nb_bundle *b, size_t idx, nbi_layer *out, nb_err *err);
/* nbi_layer_at's checks alone: the registry's structural check of both
 * types (sections/sections.c); for components by runs, every run too. */
nb_status nbi_layer_section_check(const nb_bundle *b, size_t idx, nb_err *err);

/* ---- components by runs (comp_runs.c) ---- */
/* Bytes of a version 2 payload of R runs. */
uint64_t nbi_comp_runs_bytes(uint32_t height, uint32_t xbits, uint32_t bits, uint64_t runs);
/* Checks the version 2 payload p (len bytes) of section idx against the
 * map w x h, in O(1): its header, length and the ends of first[]; fills
 * out.  A run read later never leaves the payload whatever first[] holds. */
nb_status nbi_comp_runs_at(const nb_bundle *b, size_t idx, const uint8_t *p, uint64_t len,
                           nbi_layer *out, nb_err *err);
/* Every row's runs: in order, inside the row, no two alike side by side,
 * none beyond the count; O(runs + rows), for nb_bundle_verify. */
nb_status nbi_comp_runs_check(const nb_bundle *b, size_t idx, const nbi_layer *l, nb_err *err);

#endif
