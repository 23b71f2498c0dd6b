/* brute_place.h: independent answers for the place queries (nearest
 * standable cell, straight lines, random cells), written from their
 * definitions in navbake.h alone, as plainly as possible: every cell is
 * looked at, octile distances are compared exactly (a + b sqrt 2 as the
 * integer pair (a, b)), and a line is tested either cell by cell (the
 * open box of anchor positions that overlap the cell, cut by the
 * segment) or by sampling the square's position at exact rational times
 * between the moments its edges cross grid lines. */
#ifndef NB_BRUTE_PLACE_H
#define NB_BRUTE_PLACE_H

#include <stddef.h>
#include <stdint.h>

#include "navbake.h"

/* ---- nearest ---- */

/* The answer of nb_nearest_find over a w x h map: stand[i] says
 * whether the agent may stand at cell i = y w + x; with label not NULL,
 * only cells with label[i] == want count (want != 0).  Cells are read in
 * the window [x0, x1] x [y0, y1] (clipped to the map; the whole map when
 * the radius is infinite), which must hold every cell within the radius.
 * Returns the status; *x, *y the cell when found. */
nb_path_status brute_nearest(const uint8_t *stand, const uint32_t *label, uint32_t want, uint32_t w,
                             uint32_t h, long px, long py, double radius, long *x, long *y);

/* ---- lines ---- */

/* A time num / den (den > 0). */
typedef struct brute_frac {
    int64_t num, den;
} brute_frac;
int brute_frac_cmp(brute_frac a, brute_frac b);

typedef struct brute_line {
    nb_path_status status;
    brute_frac t;
    long bx, by; /* the blocking cell */
} brute_line;

/* passable(ctx, x, y): 1 when the agent may overlap cell (x, y) (0
 * outside the map). */
typedef int (*brute_passable_fn)(const void *ctx, long x, long y);

/* The segment (ax, ay) -> (bx, by) in units of 1 / unit cell, for an
 * agent of side size cells: every cell of the bounding box of the sweep
 * (and one more around it) gets its open interval of times from the box
 * of anchor positions (cx - size, cx + 1) x (cy - size, cy + 1), cut by
 * the segment on each axis. */
void brute_line_cells(brute_passable_fn passable, const void *ctx, int64_t unit, unsigned size,
                      int64_t ax, int64_t ay, int64_t bx, int64_t by, brute_line *out);
/* The same answer another way: the square's edges cross grid lines when
 * the anchor's x or y is a whole number of cells; between two such times
 * the cells it overlaps do not change.  The square is placed at the start
 * and at the middle of each interval, in order, and the cells it overlaps
 * there are read.  Exact while unit x (map side) stays below 2^15. */
void brute_line_events(brute_passable_fn passable, const void *ctx, int64_t unit, unsigned size,
                       int64_t ax, int64_t ay, int64_t bx, int64_t by, brute_line *out);

/* ---- random cells ---- */

/* SplitMix64 written again from its definition (Steele, Lea and Flood,
 * OOPSLA 2014; Vigna's splitmix64.c). */
uint64_t brute_splitmix64(uint64_t *state);
/* The index tu_random(3) documents: r drawn until r >= 2^64 mod
 * n, then r mod n. */
uint64_t brute_below(uint64_t *state, uint64_t n);

#endif
