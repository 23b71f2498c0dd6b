/* blocked.h: runtime obstacles (blocked.c): the cells an nb_overlay
 * blocks, and what they take from each cell's clearance.  Internal; the
 * contract is navbake.h's and nb_overlay_open(3)'s, kept by
 * overlay/overlay.c, which holds HAA*'s repairs beside these cells.  Every
 * search that honours an overlay reads it through this header, which
 * sits below them all.
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
#ifndef NB_BLOCKED_H
#define NB_BLOCKED_H

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
    /* Its cells' version: unique in the process (every overlay's handle and every change of its
     * cells takes the next), so a workspace keeps what it prepared for one overlay's cells
     * (subgoal/sgoverlay.c) while this stays the same. */
    uint64_t version;
    /* HAA*'s graphs repaired under the overlay (abstract/repair.h): one per abstract section
     * of the bundle that checks out, brought up to date by every change (overlay/overlay.c);
     * this layer only carries them. */
    struct nbi_repair *rep;
    size_t nrep;
};

/* min(cap, D) at (x, y), a cell of the map: 0 where the overlay blocks it. */
static inline uint32_t nbi_overlay_lim(const nb_overlay *ov, uint32_t x, uint32_t y)
{
    return ov->tile[(y >> NBI_OV_SHIFT) * ov->tw + (x >> NBI_OV_SHIFT)]
                   [(y & NBI_OV_MASK) << NBI_OV_SHIFT | (x & NBI_OV_MASK)];
}

/* Bit c: byte c of the 64 at row is below size (1 to 128), eight bytes at a time: a byte's high
 * bit is clear in (x | 0x80) - size exactly when x < size (x < 128; no borrow between bytes), and
 * the eight high bits are gathered by one multiply.  The optimal layer's searches
 * under an overlay read a tile's rows so (cell by cell cost as much as their scans). */
static inline uint64_t nbi_overlay_row_low(const uint8_t *row, uint32_t size)
{
    const uint64_t hi = 0x8080808080808080u, lo = 0x0101010101010101u;
    uint64_t m = 0;
    for (unsigned j = 0; j < 8; j++) {
        uint64_t x = nbi_load64le(row + 8 * j);
        uint64_t lt = ~(((x | hi) - size * lo) | x) & hi;
        m |= (((lt >> 7) * 0x0102040810204080u) >> 56) << (8 * j);
    }
    return m;
}

/* 1 when the overlay leaves room for an agent of this size (at most its
 * cap) at (x, y), a cell of the map: no blocked cell in its square.  NULL
 * blocks nothing. */
static inline int nbi_overlay_room(const nb_overlay *ov, uint32_t size, uint32_t x, uint32_t y)
{
    return !ov || nbi_overlay_lim(ov, x, y) >= size;
}

/* NB_ERR_ARG naming who when ov was made from another bundle than b (on
 * every query's path: the test inline, the message out of line). */
nb_status nbi_overlay_check_fail(const nb_overlay *ov, const nb_bundle *b, const char *who,
                                 nb_err *err);
static inline nb_status nbi_overlay_check(const nb_overlay *ov, const nb_bundle *b,
                                          const char *who, nb_err *err)
{
    return ov && ov->b != b ? nbi_overlay_check_fail(ov, b, who, err) : NB_OK;
}

/* ---- the cells and their tiles (blocked.c), for overlay/overlay.c ---- */

/* An overlay of b blocking nothing, D kept up to cap, with no repairs;
 * NULL without memory.  Freed (its tiles and itself: the repairs go
 * first) by nbi_blocked_free, which accepts NULL. */
nb_overlay *nbi_blocked_new(const nb_bundle *b, uint32_t cap);
/* The next cells' version (nb_overlay.version). */
uint64_t nbi_blocked_next_version(void);
void nbi_blocked_free(nb_overlay *ov);
/* A copy of src's cells (no repairs); NULL without memory. */
nb_overlay *nbi_blocked_copy(const nb_overlay *src);
/* Unblocks every cell. */
void nbi_blocked_clear(nb_overlay *ov);
/* The bytes it holds, itself and its tiles. */
size_t nbi_blocked_bytes(const nb_overlay *ov);

/* A rectangle of cells, x0 <= x < x1, y0 <= y < y1. */
typedef struct nbi_rect {
    uint32_t x0, y0, x1, y1;
} nbi_rect;

/* The rectangle (x, y, w, h) of the map, or NB_ERR_ARG naming who. */
nb_status nbi_blocked_rect(const nb_overlay *ov, const char *who, long x, long y, long w, long h,
                           nbi_rect *r, nb_err *err);
/* The band whose values a change at r may move. */
nbi_rect nbi_blocked_band(const nb_overlay *ov, nbi_rect r);
/* Gives each tile over r a copy of its own, before a block writes there;
 * 0 without memory (the tiles made then stay, empty, for
 * nbi_blocked_release to take back). */
int nbi_blocked_claim(nb_overlay *ov, nbi_rect r);
/* Frees the tiles over r whose cells all read the cap again. */
void nbi_blocked_release(nb_overlay *ov, nbi_rect r);
/* Blocks (block 1) or unblocks the cells of r, and brings its band up to
 * date; a block's band must have been claimed. */
void nbi_blocked_change(nb_overlay *ov, nbi_rect r, int block);

#endif
