/* overlay.h: runtime obstacles (overlay.c): the cells an nb_overlay
 * blocks, and what they take from each cell's clearance.  Internal; the
 * contract is navbake.h's and nb_overlay_open(3)'s.
 *
 * Blocking a cell makes it a wall for every capability, so the true
 * clearance of a cell t on the edited map is min(cv(t, c), D(t)), where
 * D(t) is the side of the largest square at t that holds no blocked cell
 * (the map's edges aside): a square fits under both bounds exactly when
 * it fits under each.  D has clearance's recurrence with the blocked cells
 * as the only walls, so a change at a rectangle moves D only in the band
 * above and left of it, up to the cap.  The overlay keeps min(cap, D) in
 * tiles of 64 x 64 bytes, made when a cell of the tile first reads less
 * than the cap (copy-on-write of an all-cap tile every other tile points
 * at) and freed when all its cells read the cap again, so a search asks
 * for it with two loads and no branch. */
#ifndef NB_OVERLAY_H
#define NB_OVERLAY_H

#include "bundle/bundle.h"

#define NBI_OV_SHIFT 6
#define NBI_OV_SIDE (1u << NBI_OV_SHIFT)
#define NBI_OV_MASK (NBI_OV_SIDE - 1)
#define NBI_OV_TILE (NBI_OV_SIDE * NBI_OV_SIDE)

struct nb_overlay {
    const nb_bundle *b;
    const nb_allocator *a;
    uint32_t width, height;
    uint32_t tw, th;   /* tiles per row and column */
    uint32_t cap;      /* D is kept up to this: the largest cap of the bundle's clearance layers */
    uint8_t **tile;    /* tw * th: a tile of its own, or full */
    uint8_t *full;     /* NBI_OV_TILE bytes of cap, shared by every tile with no block near */
    uint16_t *low;     /* per tile: its cells that read less than cap */
    size_t held;       /* tiles of its own */
    uint64_t blocked;  /* cells blocked */
    /* HAA*'s graphs repaired under the overlay (abstract/repair.h): one per abstract section
     * of the bundle that checks out, brought up to date by every change. */
    struct nbi_repair *rep;
    size_t nrep;
};

/* min(cap, D) at (x, y), a cell of the map: 0 where the overlay blocks it. */
static inline uint32_t nbi_overlay_lim(const nb_overlay *ov, uint32_t x, uint32_t y)
{
    return ov->tile[(y >> NBI_OV_SHIFT) * ov->tw + (x >> NBI_OV_SHIFT)]
                   [(y & NBI_OV_MASK) << NBI_OV_SHIFT | (x & NBI_OV_MASK)];
}

/* 1 when the overlay leaves room for an agent of this size (at most its
 * cap) at (x, y), a cell of the map: no blocked cell in its square.  NULL
 * blocks nothing. */
static inline int nbi_overlay_room(const nb_overlay *ov, uint32_t size, uint32_t x, uint32_t y)
{
    return !ov || nbi_overlay_lim(ov, x, y) >= size;
}

/* NB_ERR_ARG naming who when ov was made from another bundle than b. */
nb_status nbi_overlay_check(const nb_overlay *ov, const nb_bundle *b, const char *who,
                            nb_err *err);

#endif
