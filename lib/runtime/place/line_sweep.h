/* line_sweep.h: the exact sweep of an agent's square along a segment
 * (walk_line.c says how it works), over cells that a caller's test reads:
 * a bundle's clearance layer and overlay (walk_line.c), or a world's tiles
 * (stream/world_line.c), where a cell may also be unknown (its tile is not
 * loaded).  An unknown cell is not a wall: the sweep goes on past it and
 * tells the caller the time the square would first enter it, so that the
 * caller can say whether the answer depends on it.  Internal.
 *
 * The functions are inlined with the test a constant, so that each caller
 * gets the loop compiled for its own cells. */
#ifndef NB_LINE_SWEEP_H
#define NB_LINE_SWEEP_H

#include "place/place.h"

#define NBI_LINE_Q ((int64_t)NB_LINE_RESOLUTION)

/* What a cell is to the sweep. */
enum { NBI_SWEEP_FREE, NBI_SWEEP_WALL, NBI_SWEEP_UNKNOWN };
/* The verdict on cell (x, y) (it may lie off the map). */
typedef int (*nbi_sweep_test)(void *ctx, int64_t x, int64_t y);
/* An unknown cell the square enters at time from (0 for the start's square). */
typedef void (*nbi_sweep_miss)(void *ctx, int64_t x, int64_t y, nbi_frac from);

/* C's division truncates toward zero: a negative quotient that is not whole is one too high. */
static inline int64_t nbi_floor_div(int64_t a, int64_t b) /* b > 0 */
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static inline int64_t nbi_ceil_div(int64_t a, int64_t b) { return -nbi_floor_div(-a, b); }

/* Sign of a - b. */
static inline int nbi_frac_cmp(nbi_frac a, nbi_frac b)
{
    int64_t l = a.num * b.den, r = b.num * a.den;
    return (l > r) - (l < r);
}

static inline nbi_frac nbi_frac_max(nbi_frac a, nbi_frac b) { return nbi_frac_cmp(a, b) >= 0 ? a : b; }
static inline nbi_frac nbi_frac_min(nbi_frac a, nbi_frac b) { return nbi_frac_cmp(a, b) <= 0 ? a : b; }

/* When the square overlaps cell c on one axis: never, always (d = 0), or
 * during the open interval (lo, hi). */
enum { NBI_SPAN_NEVER, NBI_SPAN_ALWAYS, NBI_SPAN_DURING };
typedef struct nbi_span {
    int kind;
    nbi_frac lo, hi;
} nbi_span;

static inline nbi_span nbi_sweep_axis(int64_t a, int64_t d, int64_t c, int64_t S)
{
    nbi_span s;
    int64_t low = c * NBI_LINE_Q - S - a, high = (c + 1) * NBI_LINE_Q - a; /* low < t d < high */
    if (d == 0) {
        s.kind = low < 0 && high > 0 ? NBI_SPAN_ALWAYS : NBI_SPAN_NEVER;
        s.lo = s.hi = (nbi_frac){0, 1};
        return s;
    }
    s.kind = NBI_SPAN_DURING;
    if (d > 0) {
        s.lo = (nbi_frac){low, d};
        s.hi = (nbi_frac){high, d};
    } else {
        s.lo = (nbi_frac){-high, -d};
        s.hi = (nbi_frac){-low, -d};
    }
    return s;
}

/* a + d t, rounded down (up: 1) to a whole unit. */
static inline int64_t nbi_sweep_at(int64_t a, int64_t d, nbi_frac t, int up)
{
    int64_t n = a * t.den + d * t.num;
    return up ? nbi_ceil_div(n, t.den) : nbi_floor_div(n, t.den);
}

/* The time the square first overlaps a row not read yet (walk_line.c). */
nbi_frac nbi_sweep_next_entry(const nbi_line_walk *w);

/* The start's square of an agent of side size and the rows to read. */
static inline NBP_ALWAYS_INLINE void nbi_sweep_begin(nbi_line_walk *w, uint32_t size, void *ctx,
                                                     nbi_sweep_test test, nbi_sweep_miss miss,
                                                     int64_t ax, int64_t ay, int64_t bx,
                                                     int64_t by)
{
    const nbi_frac zero = {0, 1}, one = {1, 1};
    const int64_t Q = NBI_LINE_Q;
    nbi_line *out = &w->out;
    w->ax = ax;
    w->ay = ay;
    w->bx = bx;
    w->by = by;
    w->S = (int64_t)size * Q;
    w->have = w->done = 0;
    w->best = one;
    w->k = 0;
    out->examined = 0;
    out->bx = out->by = -1;
    out->status = NB_PATH_FOUND;
    out->t = one;
    /* Where the agent stands at the start: the cells its interior meets. */
    for (int64_t y = nbi_floor_div(ay, Q); y < nbi_ceil_div(ay + w->S, Q); y++)
        for (int64_t x = nbi_floor_div(ax, Q); x < nbi_ceil_div(ax + w->S, Q); x++) {
            out->examined++;
            int v = test(ctx, x, y);
            if (v == NBI_SWEEP_UNKNOWN) {
                miss(ctx, x, y, zero);
            } else if (v == NBI_SWEEP_WALL) {
                out->status = NB_PATH_START_BLOCKED;
                out->t = zero;
                out->bx = (int32_t)x;
                out->by = (int32_t)y;
                w->done = 1;
                return;
            }
        }
    /* Rows that the square may meet, in the order it enters them. */
    int64_t dy = by - ay;
    int64_t ymin = dy > 0 ? ay : by, ymax = dy > 0 ? by : ay;
    w->r0 = nbi_floor_div(ymin, Q) - 1;
    w->r1 = nbi_floor_div(ymax + w->S, Q);
    if (bx == ax && by == ay)
        w->done = 1;
}

/* Reads rows until w->out.examined reaches stop or the walk ends. */
static inline NBP_ALWAYS_INLINE void nbi_sweep_run(nbi_line_walk *w, void *ctx,
                                                   nbi_sweep_test test, nbi_sweep_miss miss,
                                                   uint64_t stop)
{
    const nbi_frac zero = {0, 1}, one = {1, 1};
    const int64_t Q = NBI_LINE_Q;
    const int64_t S = w->S, ax = w->ax, ay = w->ay, dx = w->bx - ax, dy = w->by - ay;
    nbi_line *out = &w->out;
    for (; !w->done && w->k <= w->r1 - w->r0; w->k++) {
        if (out->examined >= stop) {
            /* Stopped between rows: free until the next row is entered, or
             * the block met so far. */
            nbi_frac next = nbi_sweep_next_entry(w);
            out->status = NB_PATH_LIMIT;
            out->t = w->have ? nbi_frac_min(w->best, next) : next;
            return;
        }
        int64_t r = dy >= 0 ? w->r0 + w->k : w->r1 - w->k;
        nbi_span sy = nbi_sweep_axis(ay, dy, r, S);
        if (sy.kind == NBI_SPAN_NEVER)
            continue;
        nbi_frac ta = zero, tb = one;
        if (sy.kind == NBI_SPAN_DURING) {
            if (nbi_frac_cmp(sy.lo, one) >= 0 || nbi_frac_cmp(sy.hi, zero) <= 0)
                continue;
            ta = nbi_frac_max(sy.lo, zero);
            tb = nbi_frac_min(sy.hi, one);
            /* Later rows are entered later still; a tie goes to the
             * least y, so a row entered at the best time may still
             * win when rows come bottom-up. */
            int c = w->have ? nbi_frac_cmp(ta, w->best) : -1;
            if (c > 0 || (c == 0 && dy > 0))
                break;
        }
        if (w->have)
            tb = nbi_frac_min(tb, w->best);
        /* The columns the square overlaps or touches in [ta, tb]
         * (touching: a cell entered at the best time may tie), from
         * its extent rounded outwards; each is tested exactly. */
        int64_t x0 = nbi_sweep_at(ax, dx, dx >= 0 ? ta : tb, 0);
        int64_t x1 = nbi_sweep_at(ax, dx, dx >= 0 ? tb : ta, 1);
        int64_t c0 = nbi_ceil_div(x0, Q) - 1, c1 = nbi_floor_div(x1 + S, Q);
        for (int64_t j = 0; j <= c1 - c0; j++) {
            int64_t c = dx >= 0 ? c0 + j : c1 - j;
            out->examined++;
            int v = test(ctx, c, r);
            if (v == NBI_SWEEP_FREE)
                continue;
            nbi_span sx = nbi_sweep_axis(ax, dx, c, S);
            if (sx.kind == NBI_SPAN_NEVER)
                continue;
            nbi_frac lo, hi;
            if (sx.kind == NBI_SPAN_ALWAYS) {
                lo = sy.lo;
                hi = sy.hi;
            } else if (sy.kind == NBI_SPAN_ALWAYS) {
                lo = sx.lo;
                hi = sx.hi;
            } else {
                lo = nbi_frac_max(sx.lo, sy.lo);
                hi = nbi_frac_min(sx.hi, sy.hi);
            }
            /* The start was free, so a cell met at all is met from
             * lo >= 0 on. */
            if (nbi_frac_cmp(lo, hi) >= 0 || nbi_frac_cmp(lo, one) >= 0 ||
                nbi_frac_cmp(hi, zero) <= 0)
                continue;
            if (v == NBI_SWEEP_UNKNOWN) {
                miss(ctx, c, r, nbi_frac_max(lo, zero));
                continue;
            }
            int cmp = w->have ? nbi_frac_cmp(lo, w->best) : -1;
            if (cmp < 0 || (cmp == 0 && (r < out->by || (r == out->by && c < out->bx)))) {
                w->have = 1;
                w->best = lo;
                out->bx = (int32_t)c;
                out->by = (int32_t)r;
            }
        }
    }
    if (out->status == NB_PATH_START_BLOCKED)
        return;
    w->done = 1;
    out->status = w->have ? NB_PATH_NONE : NB_PATH_FOUND;
    out->t = w->best;
}

/* a + (b - a) t in cells, a and b in 1 / NB_LINE_RESOLUTION cells: exact
 * when it is a whole number of cells. */
double nbi_sweep_point(int64_t a, int64_t b, nbi_frac t);

/* A line query's checks for family (size 0, points not finite: NB_ERR_ARG;
 * off the w x h map: NB_ERR_OUTSIDE) and its ends in 1 / NB_LINE_RESOLUTION
 * cells: start x, y, goal x, y. */
nb_status nbi_line_ends(const char *family, const nb_line_query *q, uint32_t w, uint32_t h,
                        int64_t end[4], nb_err *err);
/* The result of a walk that has ended (or stopped: LIMIT), as nb_line_finish gives it. */
void nbi_line_answer(const nbi_line_walk *w, const nb_line_query *q, nb_line_result *res);

#endif
