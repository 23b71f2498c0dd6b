/* walk_line.c: whether an agent can walk a straight segment, exactly.
 *
 * The agent at point P covers the square [P, P + s] (in cells), and it may
 * overlap no cell it cannot enter: one outside the map or of a terrain
 * outside its capability.  Slid from A to B, its interior meets cell c
 * during an open interval of times: on each axis, c Q - S < a + t d <
 * (c + 1) Q (Q the resolution, S = s Q), the intersection of the two
 * axes' intervals.  The agent gets as far as the least entry time over
 * the blocked cells it meets; touching a cell (an edge or a corner) is no
 * overlap.  Coordinates are whole multiples of 1 / Q, so every time is a
 * fraction of two integers below 2^31 and every comparison is exact in
 * 64 bits (points lie within the map: at most 16384 Q = 2^30).
 *
 * The cells are read row by row in the order the square enters them, and
 * once a blocked cell is found a row is read only as far as the square
 * gets before it, and no row entered later is read: the work is at most
 * the cells the whole sweep meets, and mostly those met before the
 * block.  Seed 004's smoothing samples
 * the unit's outline; square_smooth.c tests whole cells the same way as
 * here, for the waypoints of a path. */
#include <math.h>

#include "place/place.h"

#define Q ((int64_t)NB_LINE_RESOLUTION)

/* C's division truncates toward zero: a negative quotient that is not whole is one too high. */
static int64_t floor_div(int64_t a, int64_t b) /* b > 0 */
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

/* Sign of a - b. */
static int frac_cmp(nbi_frac a, nbi_frac b)
{
    int64_t l = a.num * b.den, r = b.num * a.den;
    return (l > r) - (l < r);
}

static nbi_frac frac_max(nbi_frac a, nbi_frac b) { return frac_cmp(a, b) >= 0 ? a : b; }
static nbi_frac frac_min(nbi_frac a, nbi_frac b) { return frac_cmp(a, b) <= 0 ? a : b; }

/* When the square overlaps cell c on one axis: never, always (d = 0), or
 * during the open interval (lo, hi). */
enum { NEVER, ALWAYS, DURING };
typedef struct span {
    int kind;
    nbi_frac lo, hi;
} span;

static span axis(int64_t a, int64_t d, int64_t c, int64_t S)
{
    span s;
    int64_t low = c * Q - S - a, high = (c + 1) * Q - a; /* low < t d < high */
    if (d == 0) {
        s.kind = low < 0 && high > 0 ? ALWAYS : NEVER;
        s.lo = s.hi = (nbi_frac){0, 1};
        return s;
    }
    s.kind = DURING;
    if (d > 0) {
        s.lo = (nbi_frac){low, d};
        s.hi = (nbi_frac){high, d};
    } else {
        s.lo = (nbi_frac){-high, -d};
        s.hi = (nbi_frac){-low, -d};
    }
    return s;
}

static int blocked(const nb_place *p, int64_t x, int64_t y)
{
    if (x < 0 || y < 0 || x >= p->clear.width || y >= p->clear.height)
        return 1;
    return nbi_layer_get(&p->clear, (uint64_t)y * p->clear.width + (uint64_t)x) < 1;
}

/* a + d t, rounded down (up: 1) to a whole unit. */
static int64_t at_time(int64_t a, int64_t d, nbi_frac t, int up)
{
    int64_t n = a * t.den + d * t.num;
    return up ? ceil_div(n, t.den) : floor_div(n, t.den);
}

void nbi_walk_line(const nb_place *p, int64_t ax, int64_t ay, int64_t bx, int64_t by, nbi_line *out)
{
    const int64_t S = (int64_t)p->size * Q, dx = bx - ax, dy = by - ay;
    const nbi_frac zero = {0, 1}, one = {1, 1};
    out->examined = 0;
    out->bx = out->by = -1;
    /* Where the agent stands at the start: the cells its interior meets. */
    for (int64_t y = floor_div(ay, Q); y < ceil_div(ay + S, Q); y++)
        for (int64_t x = floor_div(ax, Q); x < ceil_div(ax + S, Q); x++) {
            out->examined++;
            if (blocked(p, x, y)) {
                out->status = NB_PATH_START_BLOCKED;
                out->t = zero;
                out->bx = (int32_t)x;
                out->by = (int32_t)y;
                return;
            }
        }
    int have = 0;
    nbi_frac best = one;
    if (dx != 0 || dy != 0) {
        /* Rows that the square may meet, in the order it enters them. */
        int64_t ymin = dy > 0 ? ay : by, ymax = dy > 0 ? by : ay;
        int64_t r0 = floor_div(ymin, Q) - 1, r1 = floor_div(ymax + S, Q);
        for (int64_t k = 0; k <= r1 - r0; k++) {
            int64_t r = dy >= 0 ? r0 + k : r1 - k;
            span sy = axis(ay, dy, r, S);
            if (sy.kind == NEVER)
                continue;
            nbi_frac ta = zero, tb = one;
            if (sy.kind == DURING) {
                if (frac_cmp(sy.lo, one) >= 0 || frac_cmp(sy.hi, zero) <= 0)
                    continue;
                ta = frac_max(sy.lo, zero);
                tb = frac_min(sy.hi, one);
                /* Later rows are entered later still; a tie goes to the
                 * least y, so a row entered at the best time may still
                 * win when rows come bottom-up. */
                int c = have ? frac_cmp(ta, best) : -1;
                if (c > 0 || (c == 0 && dy > 0))
                    break;
            }
            if (have)
                tb = frac_min(tb, best);
            /* The columns the square overlaps or touches in [ta, tb]
             * (touching: a cell entered at the best time may tie), from
             * its extent rounded outwards; each is tested exactly. */
            int64_t x0 = at_time(ax, dx, dx >= 0 ? ta : tb, 0);
            int64_t x1 = at_time(ax, dx, dx >= 0 ? tb : ta, 1);
            int64_t c0 = ceil_div(x0, Q) - 1, c1 = floor_div(x1 + S, Q);
            for (int64_t j = 0; j <= c1 - c0; j++) {
                int64_t c = dx >= 0 ? c0 + j : c1 - j;
                out->examined++;
                if (!blocked(p, c, r))
                    continue;
                span sx = axis(ax, dx, c, S);
                if (sx.kind == NEVER)
                    continue;
                nbi_frac lo, hi;
                if (sx.kind == ALWAYS) {
                    lo = sy.lo;
                    hi = sy.hi;
                } else if (sy.kind == ALWAYS) {
                    lo = sx.lo;
                    hi = sx.hi;
                } else {
                    lo = frac_max(sx.lo, sy.lo);
                    hi = frac_min(sx.hi, sy.hi);
                }
                /* The start was free, so a cell met at all is met from
                 * lo >= 0 on. */
                if (frac_cmp(lo, hi) >= 0 || frac_cmp(lo, one) >= 0 || frac_cmp(hi, zero) <= 0)
                    continue;
                int cmp = have ? frac_cmp(lo, best) : -1;
                if (cmp < 0 || (cmp == 0 && (r < out->by || (r == out->by && c < out->bx)))) {
                    have = 1;
                    best = lo;
                    out->bx = (int32_t)c;
                    out->by = (int32_t)r;
                }
            }
        }
    }
    out->status = have ? NB_PATH_NONE : NB_PATH_FOUND;
    out->t = best;
}

/* a + (b - a) t in cells: exact when it is a whole number of cells (the
 * side the agent touches the blocking cell by). */
static double point_at(int64_t a, int64_t b, nbi_frac t)
{
    int64_t n = a * t.den + (b - a) * t.num, d = t.den * Q;
    int64_t q = floor_div(n, d);
    return (double)q + (double)(n - q * d) / (double)d;
}

static nb_status to_fixed(const char *what, nb_vec2 v, uint32_t w, uint32_t h, int64_t *x,
                          int64_t *y, nb_err *err)
{
    if (!(isfinite(v.x) && isfinite(v.y) && v.x >= 0 && v.y >= 0 && v.x <= w && v.y <= h))
        return nbi_fail(err, NB_ERR_ARG,
                        "nb_walk_line: %s (%g, %g) is not a point of the %u x %u map (0 to %u, 0 "
                        "to %u)",
                        what, v.x, v.y, w, h, w, h);
    *x = llround(v.x * (double)Q);
    *y = llround(v.y * (double)Q);
    return NB_OK;
}

nb_status nb_walk_line(const nb_place *p, nb_vec2 from, nb_vec2 to, nb_line_result *res,
                       nb_err *err)
{
    if (!p || !res)
        return nbi_fail(err, NB_ERR_ARG, "nb_walk_line: NULL argument");
    memset(res, 0, sizeof *res);
    int64_t ax, ay, bx, by;
    nb_status st = to_fixed("from", from, p->clear.width, p->clear.height, &ax, &ay, err);
    if (st == NB_OK)
        st = to_fixed("to", to, p->clear.width, p->clear.height, &bx, &by, err);
    if (st != NB_OK)
        return st;
    nbi_line l;
    nbi_walk_line(p, ax, ay, bx, by, &l);
    res->status = l.status;
    res->examined = l.examined;
    res->blocking = (nb_cell){l.bx, l.by};
    switch (l.status) {
    case NB_PATH_FOUND:
        res->t = 1;
        res->last = to;
        break;
    case NB_PATH_START_BLOCKED:
        res->t = 0;
        res->last = from;
        break;
    default:
        res->t = (double)l.t.num / (double)l.t.den;
        res->last.x = point_at(ax, bx, l.t);
        res->last.y = point_at(ay, by, l.t);
        break;
    }
    return nbi_done(err, NB_OK);
}
