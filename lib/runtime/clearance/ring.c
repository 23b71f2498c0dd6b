/* ring.c: the standable cell nearest a point, by octile distance
 * (reach.h), for nb_nearest_find (place/nearest.c) and the goals of
 * partial paths (partial.c).
 *
 * A cell at Chebyshev distance r from the point (on the square ring of
 * radius r around it) is at octile distance r + (sqrt 2 - 1) m, m its
 * offset along the other axis, so between r and r sqrt 2.  Rings are read
 * outwards; once the ring's radius exceeds the best distance found, no
 * farther cell can be nearer or tie, and the search ends.  An answer at
 * distance d is found after (2 floor(d) + 1)^2 cells at most, on any map,
 * with no memory but a few integers: what Recast's findNearestPoly is to
 * a navmesh, on a grid.  The state between slices is the ring, its side
 * (top row, bottom row, left column, right column, each clipped to the
 * map) and the next cell of that side. */
#include <math.h>

#include "clearance/reach.h"
#include "core/grid.h"

/* A cell that stands, where the test of its component and distance begins: kept out of the
 * loops, which call it for a few cells of a ring. */
static NBP_NOINLINE void consider(nbi_ring *s, long x, long y)
{
    if (s->comp && nbi_comp_get(s->comp, (uint64_t)y * s->comp->width + (uint64_t)x) != s->comp_want)
        return;
    /* Under an overlay a cell of the start's component may be cut off from it; the start
     * itself qualifies, so one that qualifies but for the radius is there all the same. */
    s->seen = 1;
    double d = nbi_octile_cells((int32_t)x, (int32_t)y, (int32_t)s->px, (int32_t)s->py);
    nb_cell *c = &s->cell;
    /* Distinct octile distances on a map differ by far more than a
     * rounding error, so equal doubles are equal distances. */
    if (d > s->radius || d > s->best || (d == s->best && (y > c->y || (y == c->y && x > c->x))))
        return;
    if (s->tell) { /* reach is told only of a cell that would be the answer */
        int joined = 0;
        if (s->fail || nbi_reach_joined(s->reach, s->start, (nb_cell){(int32_t)x, (int32_t)y},
                                        &joined, NULL) != NB_OK)
            s->fail = NB_ERR_NOMEM;
        if (!joined)
            return;
    }
    s->best = d;
    c->x = (int32_t)x;
    c->y = (int32_t)y;
}

/* A cell of the ring: counted, and considered where the agent stands. */
static inline NBP_ALWAYS_INLINE void look(nbi_ring *s, long x, long y)
{
    s->examined++;
    if (nbi_stands_under(s->clear, s->size, s->ov, (uint32_t)x, (uint32_t)y))
        consider(s, x, y);
}

/* The four sides of ring r that lie on the map, as ranges lo..hi of x
 * (rows) or y (columns); a side off the map is empty (lo > hi). */
static inline NBP_ALWAYS_INLINE void ring(nbi_ring *s, long r)
{
    long x0 = s->px - r, x1 = s->px + r, y0 = s->py - r, y1 = s->py + r;
    long xa = x0 < 0 ? 0 : x0, xb = x1 >= s->w ? s->w - 1 : x1;
    long ya = y0 + 1 < 0 ? 0 : y0 + 1, yb = y1 - 1 >= s->h ? s->h - 1 : y1 - 1;
    int top = y0 >= 0, bottom = r > 0 && y1 < s->h, left = r > 0 && x0 >= 0,
        right = r > 0 && x1 < s->w;
    s->r = r;
    s->side = 0;
    s->lo[0] = top ? xa : 1, s->hi[0] = top ? xb : 0;
    s->lo[1] = bottom ? xa : 1, s->hi[1] = bottom ? xb : 0;
    s->lo[2] = left ? ya : 1, s->hi[2] = left ? yb : 0;
    s->lo[3] = right ? ya : 1, s->hi[3] = right ? yb : 0;
    s->i = s->lo[0];
}

void nbi_ring_begin(nbi_ring *s, long px, long py, double radius)
{
    s->w = s->clear->width;
    s->h = s->clear->height;
    s->px = px;
    s->py = py;
    s->radius = radius;
    s->best = INFINITY;
    s->seen = 0;
    s->fail = NB_OK;
    s->cell.x = s->cell.y = -1;
    s->examined = 0;
    /* The ring beyond which the map ends, and the last one the radius
     * lets the search read. */
    s->reach_r = s->px;
    if (s->w - 1 - s->px > s->reach_r)
        s->reach_r = s->w - 1 - s->px;
    if (s->py > s->reach_r)
        s->reach_r = s->py;
    if (s->h - 1 - s->py > s->reach_r)
        s->reach_r = s->h - 1 - s->py;
    s->last = radius < (double)s->reach_r ? (long)floor(radius) : s->reach_r;
    ring(s, 0);
}

/* A side at a time, in a loop of its own, as far as the budget allows. */
int nbi_ring_run(nbi_ring *s, uint64_t stop)
{
    for (;;) {
        if (s->side == 4) {
            if (s->r + 1 > s->last || (double)(s->r + 1) > s->best)
                return 1;
            ring(s, s->r + 1);
        }
        long end = s->hi[s->side];
        if (end >= s->i) {
            if (s->examined >= stop)
                return 0;
            uint64_t room = stop - s->examined;
            if ((uint64_t)(end - s->i) >= room)
                end = s->i + (long)room - 1;
            long r = s->r;
            switch (s->side) {
            case 0:
                for (long v = s->i; v <= end; v++)
                    look(s, v, s->py - r);
                break;
            case 1:
                for (long v = s->i; v <= end; v++)
                    look(s, v, s->py + r);
                break;
            case 2:
                for (long v = s->i; v <= end; v++)
                    look(s, s->px - r, v);
                break;
            default:
                for (long v = s->i; v <= end; v++)
                    look(s, s->px + r, v);
                break;
            }
            s->i = end + 1;
            if (s->fail)
                return 1;
            if (s->i <= s->hi[s->side])
                return 0; /* the budget ended inside the side */
        }
        if (++s->side < 4)
            s->i = s->lo[s->side];
    }
}
