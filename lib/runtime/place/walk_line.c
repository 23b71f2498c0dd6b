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
 * block.  A budget of B cells is checked between rows, so a step looks at
 * most at B cells, the start's size^2 and one row's (the sweep's width in
 * it: at most the map's width, the size and two) more.  Seed 004's
 * smoothing samples the unit's outline; square_smooth.c tests whole cells
 * the same way as here, for the waypoints of a path. */
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

/* A cell the square may not overlap: off the map, of a terrain outside the capability (clear,
 * the place's clearance layer), or blocked by ov, the query's overlay (its limit there is 0).
 * The loops are inlined with ov a constant NULL or the place's, and read a copy of the layer
 * that no store to the walk can change, so that without an overlay they read the clearance
 * alone, as before places read overlays. */
static inline NBP_ALWAYS_INLINE int blocked(const nbi_layer *clear, const nb_overlay *ov,
                                            int64_t x, int64_t y)
{
    if (x < 0 || y < 0 || x >= clear->width || y >= clear->height)
        return 1;
    return nbi_layer_get(clear, (uint64_t)y * clear->width + (uint64_t)x) < 1 ||
           (ov && nbi_overlay_lim(ov, (uint32_t)x, (uint32_t)y) == 0);
}

/* a + d t, rounded down (up: 1) to a whole unit. */
static int64_t at_time(int64_t a, int64_t d, nbi_frac t, int up)
{
    int64_t n = a * t.den + d * t.num;
    return up ? ceil_div(n, t.den) : floor_div(n, t.den);
}

/* The start's square and the rows to read, under ov (see blocked). */
static inline NBP_ALWAYS_INLINE void line_begin(const nb_place *p, const nb_overlay *ov,
                                                nbi_line_walk *w, int64_t ax, int64_t ay,
                                                int64_t bx, int64_t by)
{
    const nbi_layer clear = p->clear;
    const nbi_frac zero = {0, 1}, one = {1, 1};
    nbi_line *out = &w->out;
    w->ax = ax;
    w->ay = ay;
    w->bx = bx;
    w->by = by;
    w->S = (int64_t)p->size * Q;
    w->have = w->done = 0;
    w->best = one;
    w->k = 0;
    out->examined = 0;
    out->bx = out->by = -1;
    out->status = NB_PATH_FOUND;
    out->t = one;
    /* Where the agent stands at the start: the cells its interior meets. */
    for (int64_t y = floor_div(ay, Q); y < ceil_div(ay + w->S, Q); y++)
        for (int64_t x = floor_div(ax, Q); x < ceil_div(ax + w->S, Q); x++) {
            out->examined++;
            if (blocked(&clear, ov, x, y)) {
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
    w->r0 = floor_div(ymin, Q) - 1;
    w->r1 = floor_div(ymax + w->S, Q);
    if (bx == ax && by == ay)
        w->done = 1;
}

/* The time the square first overlaps a row not read yet: rows are read in
 * the order the square enters them, so the first one it meets at all is
 * the earliest (0 when the square always overlaps it; 1 when it meets no
 * row left before the end).  Until then the agent is known free. */
static nbi_frac next_entry(const nbi_line_walk *w)
{
    const nbi_frac zero = {0, 1}, one = {1, 1};
    int64_t dy = w->by - w->ay;
    for (int64_t k = w->k; k <= w->r1 - w->r0; k++) {
        span sy = axis(w->ay, dy, dy >= 0 ? w->r0 + k : w->r1 - k, w->S);
        if (sy.kind == ALWAYS)
            return zero;
        if (sy.kind == DURING && frac_cmp(sy.lo, one) < 0 && frac_cmp(sy.hi, zero) > 0)
            return frac_max(sy.lo, zero);
    }
    return one;
}

/* Reads rows until stop, under ov (see blocked). */
static inline NBP_ALWAYS_INLINE void line_run(const nb_place *p, const nb_overlay *ov,
                                              nbi_line_walk *w, uint64_t stop)
{
    const nbi_layer clear = p->clear;
    const nbi_frac zero = {0, 1}, one = {1, 1};
    const int64_t S = w->S, ax = w->ax, ay = w->ay, dx = w->bx - ax, dy = w->by - ay;
    nbi_line *out = &w->out;
    for (; !w->done && w->k <= w->r1 - w->r0; w->k++) {
        if (out->examined >= stop) {
            /* Stopped between rows: free until the next row is entered, or
             * the block met so far. */
            nbi_frac next = next_entry(w);
            out->status = NB_PATH_LIMIT;
            out->t = w->have ? frac_min(w->best, next) : next;
            return;
        }
        int64_t r = dy >= 0 ? w->r0 + w->k : w->r1 - w->k;
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
            int c = w->have ? frac_cmp(ta, w->best) : -1;
            if (c > 0 || (c == 0 && dy > 0))
                break;
        }
        if (w->have)
            tb = frac_min(tb, w->best);
        /* The columns the square overlaps or touches in [ta, tb]
         * (touching: a cell entered at the best time may tie), from
         * its extent rounded outwards; each is tested exactly. */
        int64_t x0 = at_time(ax, dx, dx >= 0 ? ta : tb, 0);
        int64_t x1 = at_time(ax, dx, dx >= 0 ? tb : ta, 1);
        int64_t c0 = ceil_div(x0, Q) - 1, c1 = floor_div(x1 + S, Q);
        for (int64_t j = 0; j <= c1 - c0; j++) {
            int64_t c = dx >= 0 ? c0 + j : c1 - j;
            out->examined++;
            if (!blocked(&clear, ov, c, r))
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
            int cmp = w->have ? frac_cmp(lo, w->best) : -1;
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

void nbi_line_begin(const nb_place *p, nbi_line_walk *w, int64_t ax, int64_t ay, int64_t bx,
                    int64_t by)
{
    if (p->ov)
        line_begin(p, p->ov, w, ax, ay, bx, by);
    else
        line_begin(p, NULL, w, ax, ay, bx, by);
}

/* The loop twice, each a function of its own, so that the one without an overlay is compiled
 * without the overlay's test (in one function the two spilled more). */
static NBP_NOINLINE void line_run_bare(const nb_place *p, nbi_line_walk *w, uint64_t stop)
{
    line_run(p, NULL, w, stop);
}

static NBP_NOINLINE void line_run_under(const nb_place *p, nbi_line_walk *w, uint64_t stop)
{
    line_run(p, p->ov, w, stop);
}

void nbi_line_run(const nb_place *p, nbi_line_walk *w, uint64_t stop)
{
    if (p->ov)
        line_run_under(p, w, stop);
    else
        line_run_bare(p, w, stop);
}

void nbi_walk_line(const nb_place *p, int64_t ax, int64_t ay, int64_t bx, int64_t by, nbi_line *out)
{
    nbi_line_walk w;
    nbi_line_begin(p, &w, ax, ay, bx, by);
    nbi_line_run(p, &w, UINT64_MAX);
    *out = w.out;
}

/* a + (b - a) t in cells: exact when it is a whole number of cells (the
 * side the agent touches the blocking cell by). */
static double point_at(int64_t a, int64_t b, nbi_frac t)
{
    int64_t n = a * t.den + (b - a) * t.num, d = t.den * Q;
    int64_t q = floor_div(n, d);
    return (double)q + (double)(n - q * d) / (double)d;
}

static const char family[] = "line";

static nb_status point_finite(const char *what, nb_vec2 v, nb_err *err)
{
    if (isfinite(v.x) && isfinite(v.y))
        return NB_OK;
    return nbi_fail(err, NB_ERR_ARG, "%s: %s (%g, %g) is not a finite point", family, what, v.x,
                    v.y);
}

static nb_status to_fixed(const char *what, nb_vec2 v, uint32_t w, uint32_t h, int64_t *x,
                          int64_t *y, nb_err *err)
{
    if (!(v.x >= 0 && v.y >= 0 && v.x <= w && v.y <= h))
        return nbi_fail(err, NB_ERR_OUTSIDE,
                        "%s: %s (%g, %g) is off the %u x %u map (0 to %u, 0 to %u)", family, what,
                        v.x, v.y, w, h, w, h);
    *x = llround(v.x * (double)Q);
    *y = llround(v.y * (double)Q);
    return NB_OK;
}

nb_status nb_line_query_init_abi(nb_line_query *q, const nb_abi *abi)
{
    if (nbi_abi_ok(abi, NBI_ABI_nb_line_query) != NB_OK)
        return NB_ERR_VERSION;
    memset(q, 0, sizeof *q); /* no overlay, no limit */
    q->size = 1;
    return NB_OK;
}

void nb_line_query_agent(nb_line_query *q, const nb_agent *agent)
{
    q->size = agent->size;
    q->capability = agent->capability;
}

nb_status nb_line_begin(nb_place *p, const nb_line_query *q, nb_err *err)
{
    if (!p || !q)
        return nbi_fail(err, NB_ERR_ARG, "nb_line_begin: NULL argument");
    p->kind = NBI_PLACE_IDLE;
    nb_status st = nbi_place_check(p, family, q->size, q->overlay, err);
    int64_t ax, ay, bx, by;
    if (st == NB_OK && (st = point_finite("start", q->start, err)) == NB_OK)
        st = point_finite("goal", q->goal, err);
    if (st == NB_OK)
        st = to_fixed("start", q->start, p->b->width, p->b->height, &ax, &ay, err);
    if (st == NB_OK)
        st = to_fixed("goal", q->goal, p->b->width, p->b->height, &bx, &by, err);
    if (st == NB_OK)
        st = nbi_place_bind(p, family, q->capability, q->size, q->overlay, err);
    if (st != NB_OK)
        return st;
    p->lq = *q;
    nbi_line_begin(p, &p->line, ax, ay, bx, by);
    p->kind = NBI_PLACE_LINE;
    return nbi_done(err, NB_OK);
}

nb_status nb_line_step(nb_place *p, uint64_t expansions, int *done, nb_err *err)
{
    if (!p || p->kind != NBI_PLACE_LINE)
        return nbi_fail(err, NB_ERR_ARG, "nb_line_step: no line walk begun");
    nbi_line_walk *w = &p->line;
    uint64_t at = w->out.examined;
    uint64_t stop = at + expansions < at ? UINT64_MAX : at + expansions;
    uint64_t max = p->lq.max_expansions;
    if (!w->done) {
        nbi_line_run(p, w, max && max < stop ? max : stop);
        if (!w->done && !(max && w->out.examined >= max))
            w->out.status = NB_PATH_FOUND; /* a slice's end, not the budget's */
    }
    if (done)
        *done = w->done || (max && w->out.examined >= max);
    return nbi_done(err, NB_OK);
}

nb_status nb_line_finish(nb_place *p, nb_line_result *res, nb_err *err)
{
    if (!res)
        return nbi_fail(err, NB_ERR_ARG, "nb_line_finish: res is NULL");
    if (!p || p->kind != NBI_PLACE_LINE) {
        if (res) {
            memset(res, 0, sizeof *res);
            res->blocking.x = res->blocking.y = -1;
        }
        return nbi_fail(err, NB_ERR_ARG, "nb_line_finish: no line walk begun");
    }
    nbi_line_walk *w = &p->line;
    p->kind = NBI_PLACE_IDLE;
    if (!w->done) {
        /* Before the end (a slice or the budget): known free so far. */
        nbi_line_run(p, w, w->out.examined);
        w->out.status = NB_PATH_LIMIT;
    }
    const nbi_line *l = &w->out;
    memset(res, 0, sizeof *res);
    res->status = l->status;
    res->examined = l->examined;
    res->blocking = (nb_cell){-1, -1};
    if (l->status == NB_PATH_NONE || l->status == NB_PATH_START_BLOCKED)
        res->blocking = (nb_cell){l->bx, l->by};
    switch (l->status) {
    case NB_PATH_FOUND:
        res->t = 1;
        res->last = p->lq.goal;
        break;
    case NB_PATH_START_BLOCKED:
        res->t = 0;
        res->last = p->lq.start;
        break;
    default:
        res->t = (double)l->t.num / (double)l->t.den;
        res->last.x = point_at(w->ax, w->bx, l->t);
        res->last.y = point_at(w->ay, w->by, l->t);
        break;
    }
    return nbi_done(err, NB_OK);
}

nb_status nb_line_find(nb_place *p, const nb_line_query *q, nb_line_result *res, nb_err *err)
{
    if (!res)
        return nbi_fail(err, NB_ERR_ARG, "nb_line_find: res is NULL");
    nb_status st = nb_line_begin(p, q, err);
    if (st == NB_OK)
        st = nb_line_step(p, UINT64_MAX, NULL, err);
    if (st == NB_OK)
        return nb_line_finish(p, res, err);
    if (res) {
        memset(res, 0, sizeof *res);
        res->blocking.x = res->blocking.y = -1;
    }
    return st;
}
