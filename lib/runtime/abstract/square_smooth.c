/* square_smooth.c: the simple smoothing of seed 004 (Pinter, "Toward More
 * Realistic Pathfinding", listing 1) for an s x s agent.
 *
 * Walking the path, a waypoint is dropped whenever the agent can go
 * straight from the last kept waypoint to the one after it.  Pinter
 * samples the unit's outline every fifth of a tile; here the test is
 * exact: the square [x, x+s] x [y, y+s] slid along the segment sweeps a
 * convex hexagon, and every cell whose interior that hexagon meets must
 * be of a terrain in the agent's capability (clearance >= 1).  Row by row
 * the hexagon's extent is a ratio of integers, so the test is done in
 * integers.  A cardinal or diagonal step that the strict corner rule
 * allows passes this test, so a smoothed path is never worse than the
 * cell path. */
#include <math.h>

#include "abstract/abstract.h"
#include "blocked/blocked.h"

/* Standable for the agent, on the layer and under the overlay (NULL: none). */
static inline int stands(const nbi_layer *l, const nb_overlay *ov, uint32_t size, int32_t x, int32_t y)
{
    return nbi_standable(l, size, x, y) && nbi_overlay_room(ov, size, (uint32_t)x, (uint32_t)y);
}

static int64_t floor_div(int64_t a, int64_t b) /* b > 0 */
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

static int passable_row(const nbi_layer *l, const nb_overlay *ov, int64_t r, int64_t k0, int64_t k1)
{
    if (r < 0 || r >= l->height || k0 < 0 || k1 >= l->width)
        return 0;
    for (int64_t k = k0; k <= k1; k++)
        if (nbi_layer_get(l, (uint64_t)r * l->width + (uint64_t)k) < 1 ||
            !nbi_overlay_room(ov, 1, (uint32_t)k, (uint32_t)r))
            return 0;
    return 1;
}

int nbi_square_walkable(const nbi_layer *l, const nb_overlay *ov, uint32_t size, nb_cell a,
                        nb_cell b)
{
    int64_t s = size;
    if (b.y < a.y) {
        nb_cell t = a;
        a = b;
        b = t;
    }
    int64_t dx = (int64_t)b.x - a.x, dy = (int64_t)b.y - a.y;
    if (dy == 0) {
        int64_t k0 = a.x < b.x ? a.x : b.x, k1 = (a.x < b.x ? b.x : a.x) + s - 1;
        for (int64_t r = a.y; r < a.y + s; r++)
            if (!passable_row(l, ov, r, k0, k1))
                return 0;
        return 1;
    }
    /* Row r (the open band r < y < r + 1) meets the square at the times
     * t in (r - s - ay, r + 1 - ay) / dy, within [0, 1]. */
    for (int64_t r = a.y; r < b.y + s; r++) {
        int64_t lo = r - s - a.y > 0 ? r - s - a.y : 0;
        int64_t hi = r + 1 - a.y < dy ? r + 1 - a.y : dy;
        int64_t t_inf = dx >= 0 ? lo : hi, t_sup = dx >= 0 ? hi : lo;
        int64_t k0 = floor_div(a.x * dy + dx * t_inf, dy);
        int64_t k1 = ceil_div(a.x * dy + dx * t_sup, dy) + s - 1;
        if (!passable_row(l, ov, r, k0, k1))
            return 0;
    }
    return 1;
}

size_t nbi_square_smooth(const nbi_layer *l, const nb_overlay *ov, uint32_t size, nb_cell *p,
                         size_t n)
{
    if (n <= 2)
        return n;
    size_t out = 1, check = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        if (nbi_square_walkable(l, ov, size, p[check], p[i + 1]))
            continue; /* p[i] is skipped */
        p[out] = p[i];
        check = out++;
    }
    p[out++] = p[n - 1];
    return out;
}

/* The octile walk from a to b that keeps nearest the straight line
 * between them: T steps, of which nstraight cardinal, spread evenly: step
 * k is cardinal when floor(((k + 1) * nstraight + T / 2) / T) differs from
 * floor((k * nstraight + T / 2) / T).  The walk keeps that numerator modulo
 * T as it goes (a carry is a cardinal step), so a step costs an addition,
 * not two divisions: the straightening re-walks lines many times. */
typedef struct walk {
    nb_cell a;
    int32_t sx, sy;        /* signs of the displacement */
    uint32_t T, nstraight; /* steps, of which cardinal */
    int major_x;           /* the cardinal steps go along x */
} walk;

static walk walk_make(nb_cell a, nb_cell b)
{
    walk w;
    int32_t dx = b.x - a.x, dy = b.y - a.y;
    uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
    w.a = a;
    w.sx = dx > 0 ? 1 : dx < 0 ? -1 : 0;
    w.sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    w.major_x = ax >= ay;
    w.T = ax > ay ? ax : ay;
    w.nstraight = w.T - (ax < ay ? ax : ay);
    return w;
}

/* Follows the walk, checking every step for the agent; writes its cells
 * after a (not a itself) to out when out is not NULL.  1 when valid.  Every
 * cell it reads (a step's, and a diagonal's two corners) lies in the box of
 * its two ends, so with both ends on the map no cell needs a bounds check,
 * and its index in the layer moves by a fixed amount a step.  Inlined twice,
 * with and without an overlay, so that the loop without one tests nothing
 * more. */
static inline NBP_ALWAYS_INLINE int walk_cells(const walk *w, const nbi_layer *l,
                                               const nb_overlay *ov, uint32_t size, int corner,
                                               nb_cell *out, int overlaid)
{
    nb_cell c = w->a;
    const uint32_t T = w->T, ns = w->nstraight;
    const int64_t W = l->width, card = w->major_x ? w->sx : w->sy * W, dx = w->sx,
                  dy = w->sy * W;
    int64_t i = (int64_t)c.y * W + c.x;
#define NB_OK_AT(idx, x, y)                                                                        \
    (nbi_layer_get(l, (uint64_t)(idx)) >= size &&                                                  \
     (!overlaid || nbi_overlay_room(ov, size, (uint32_t)(x), (uint32_t)(y))))
    uint32_t acc = T / 2; /* (k * nstraight + T / 2) mod T, below T */
    for (uint32_t k = 0; k < T; k++) {
        nb_cell n = c;
        acc += ns;
        if (acc >= T) { /* cardinal */
            acc -= T;
            if (w->major_x)
                n.x += w->sx;
            else
                n.y += w->sy;
            i += card;
            if (!NB_OK_AT(i, n.x, n.y))
                return 0;
        } else {
            int64_t from = i;
            n.x += w->sx;
            n.y += w->sy;
            i += dx + dy;
            if (!NB_OK_AT(i, n.x, n.y))
                return 0;
            int c1 = NB_OK_AT(from + dx, n.x, c.y), c2 = NB_OK_AT(from + dy, c.x, n.y);
            if (corner == NBI_CORNER_STRICT ? !(c1 && c2) : !(c1 || c2))
                return 0;
        }
        if (out)
            out[k] = n;
        c = n;
    }
    return 1;
#undef NB_OK_AT
}

static int walk_follow(const walk *w, const nbi_layer *l, const nb_overlay *ov, uint32_t size,
                       int corner, nb_cell *out)
{
    nb_cell a = w->a; /* and the far end: */
    int64_t fx = (int64_t)a.x + (int64_t)w->sx * (w->major_x ? w->T : w->T - w->nstraight);
    int64_t fy = (int64_t)a.y + (int64_t)w->sy * (w->major_x ? w->T - w->nstraight : w->T);
    if (a.x < 0 || a.y < 0 || (uint32_t)a.x >= l->width || (uint32_t)a.y >= l->height || fx < 0 ||
        fy < 0 || fx >= l->width || fy >= l->height)
        return 0;
    return ov ? walk_cells(w, l, ov, size, corner, out, 1)
              : walk_cells(w, l, NULL, size, corner, out, 0);
}

/* 1 when the octile walk from a to b is valid for the agent. */
static int walk_ok(const nbi_layer *l, const nb_overlay *ov, uint32_t size, int corner, nb_cell a,
                   nb_cell b)
{
    walk w = walk_make(a, b);
    return walk_follow(&w, l, ov, size, corner, NULL);
}

size_t nbi_straighten(const nbi_layer *l, const nb_overlay *ov, uint32_t size, int corner,
                      nb_cell *p, size_t n)
{
    if (n <= 2)
        return n;
    /* From each anchor p[i], the farthest cell found by galloping: the
     * walks to p[i + 2], p[i + 3], p[i + 5], p[i + 9] ... while valid, then
     * halving between the last valid and the first invalid.  Where the cells
     * the walks may reach form a prefix, that is the greedy's cell (skip
     * while the walk to the next cell is valid) found in O(L log L) steps
     * for a run of L cells, against the greedy's O(L^2); elsewhere it is a
     * valid cell at least as far.  The walk to p[i + 1] is the path's own
     * step.  Each walk is written over the path as soon as it is final: it
     * is never longer (in cells) than the part of the path it replaces, so
     * the writing never overtakes the reading. */
    size_t out = 1, i = 0;
    while (i + 1 < n) {
        nb_cell anchor = p[i];
        size_t lo = i + 1, hi = n; /* the walk to p[lo] is valid; to p[hi] not (n: unknown) */
        for (size_t step = 1; hi == n && lo + 1 < n; step *= 2) {
            size_t c = lo + step < n - 1 ? lo + step : n - 1;
            if (walk_ok(l, ov, size, corner, anchor, p[c]))
                lo = c;
            else
                hi = c;
        }
        while (hi < n && hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (walk_ok(l, ov, size, corner, anchor, p[mid]))
                lo = mid;
            else
                hi = mid;
        }
        walk w = walk_make(anchor, p[lo]);
        walk_follow(&w, l, ov, size, corner, p + out);
        out += w.T;
        i = lo;
    }
    return out;
}

double nbi_polyline_length(const nb_cell *p, size_t n)
{
    double len = 0;
    for (size_t i = 1; i < n; i++) {
        double dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
        len += sqrt(dx * dx + dy * dy);
    }
    return len;
}
