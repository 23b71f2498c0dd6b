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

#include "place/line_sweep.h"

#define Q NBI_LINE_Q

/* The time the square first overlaps a row not read yet: rows are read in
 * the order the square enters them, so the first one it meets at all is
 * the earliest (0 when the square always overlaps it; 1 when it meets no
 * row left before the end).  Until then the agent is known free. */
nbi_frac nbi_sweep_next_entry(const nbi_line_walk *w)
{
    const nbi_frac zero = {0, 1}, one = {1, 1};
    int64_t dy = w->by - w->ay;
    for (int64_t k = w->k; k <= w->r1 - w->r0; k++) {
        nbi_span sy = nbi_sweep_axis(w->ay, dy, dy >= 0 ? w->r0 + k : w->r1 - k, w->S);
        if (sy.kind == NBI_SPAN_ALWAYS)
            return zero;
        if (sy.kind == NBI_SPAN_DURING && nbi_frac_cmp(sy.lo, one) < 0 && nbi_frac_cmp(sy.hi, zero) > 0)
            return nbi_frac_max(sy.lo, zero);
    }
    return one;
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

/* The sweep's verdict on a cell of the place's map: its clearance layer alone (bare), or with
 * the overlay (under); never unknown. */
typedef struct bundle_cells {
    nbi_layer clear;
    const nb_overlay *ov;
} bundle_cells;

static inline NBP_ALWAYS_INLINE int bare_test(void *ctx, int64_t x, int64_t y)
{
    return blocked(&((const bundle_cells *)ctx)->clear, NULL, x, y);
}

static inline NBP_ALWAYS_INLINE int under_test(void *ctx, int64_t x, int64_t y)
{
    const bundle_cells *c = ctx;
    return blocked(&c->clear, c->ov, x, y);
}

static inline NBP_ALWAYS_INLINE void no_miss(void *ctx, int64_t x, int64_t y, nbi_frac from)
{
    (void)ctx, (void)x, (void)y, (void)from;
}

void nbi_line_begin(const nb_place *p, nbi_line_walk *w, int64_t ax, int64_t ay, int64_t bx,
                    int64_t by)
{
    bundle_cells c = {p->clear, p->ov};
    if (p->ov)
        nbi_sweep_begin(w, p->size, &c, under_test, no_miss, ax, ay, bx, by);
    else
        nbi_sweep_begin(w, p->size, &c, bare_test, no_miss, ax, ay, bx, by);
}

/* The loop twice, each a function of its own, so that the one without an overlay is compiled
 * without the overlay's test (in one function the two spilled more). */
static NBP_NOINLINE void line_run_bare(const nb_place *p, nbi_line_walk *w, uint64_t stop)
{
    bundle_cells c = {p->clear, NULL};
    nbi_sweep_run(w, &c, bare_test, no_miss, stop);
}

static NBP_NOINLINE void line_run_under(const nb_place *p, nbi_line_walk *w, uint64_t stop)
{
    bundle_cells c = {p->clear, p->ov};
    nbi_sweep_run(w, &c, under_test, no_miss, stop);
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
double nbi_sweep_point(int64_t a, int64_t b, nbi_frac t)
{
    int64_t n = a * t.den + (b - a) * t.num, d = t.den * Q;
    int64_t q = nbi_floor_div(n, d);
    return (double)q + (double)(n - q * d) / (double)d;
}

static const char family[] = "line";

static nb_status point_finite(const char *fam, const char *what, nb_vec2 v, nb_err *err)
{
    if (isfinite(v.x) && isfinite(v.y))
        return NB_OK;
    return nbi_fail(err, NB_ERR_ARG, "%s: %s (%g, %g) is not a finite point", fam, what, v.x,
                    v.y);
}

static nb_status to_fixed(const char *fam, const char *what, nb_vec2 v, uint32_t w, uint32_t h,
                          int64_t *x, int64_t *y, nb_err *err)
{
    if (!(v.x >= 0 && v.y >= 0 && v.x <= w && v.y <= h))
        return nbi_fail(err, NB_ERR_OUTSIDE,
                        "%s: %s (%g, %g) is off the %u x %u map (0 to %u, 0 to %u)", fam, what,
                        v.x, v.y, w, h, w, h);
    *x = llround(v.x * (double)Q);
    *y = llround(v.y * (double)Q);
    return NB_OK;
}

nb_status nbi_line_ends(const char *fam, const nb_line_query *q, uint32_t w, uint32_t h,
                        int64_t end[4], nb_err *err)
{
    nb_status st = nbi_query_size(err, fam, q->size);
    if (st == NB_OK && (st = point_finite(fam, "start", q->start, err)) == NB_OK)
        st = point_finite(fam, "goal", q->goal, err);
    if (st == NB_OK)
        st = to_fixed(fam, "start", q->start, w, h, &end[0], &end[1], err);
    if (st == NB_OK)
        st = to_fixed(fam, "goal", q->goal, w, h, &end[2], &end[3], err);
    return st;
}

void nbi_line_answer(const nbi_line_walk *w, const nb_line_query *q, nb_line_result *res)
{
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
        res->last = q->goal;
        break;
    case NB_PATH_START_BLOCKED:
        res->t = 0;
        res->last = q->start;
        break;
    default:
        res->t = (double)l->t.num / (double)l->t.den;
        res->last.x = nbi_sweep_point(w->ax, w->bx, l->t);
        res->last.y = nbi_sweep_point(w->ay, w->by, l->t);
        break;
    }
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
    int64_t e[4];
    if (st == NB_OK)
        st = nbi_line_ends(family, q, p->b->width, p->b->height, e, err);
    if (st == NB_OK)
        st = nbi_place_bind(p, family, q->capability, q->size, q->overlay, err);
    if (st != NB_OK)
        return st;
    p->lq = *q;
    nbi_line_begin(p, &p->line, e[0], e[1], e[2], e[3]);
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
    nbi_line_answer(w, &p->lq, res);
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
