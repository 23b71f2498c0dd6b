/* sgscan.c: the scan for direct-h-reachable subgoals and the walk of an
 * h-path, on the grid's bitmaps (subgoal.h).  Both the bake (every
 * subgoal's edges) and a query (its two ends) run the same scan.
 *
 * A line along a row or a column is read 64 cells at a time: the length
 * of a run of free cells that are not subgoals is a count of trailing (or
 * leading) ones, so a scan costs about one word per line however long the
 * line, and the diagonal rays set the cost. */
#include <math.h>

#include "subgoal/subgoal.h"

/* nbi_move_dx and _dy (core/grid.h) where this file can see them: a scan's moves are constants
 * once its rays are inlined (ray, below), and their steps then fold into the code. */
static const int8_t move_dx[NBI_MOVES] = NBI_MOVE_DX_INIT;
static const int8_t move_dy[NBI_MOVES] = NBI_MOVE_DY_INIT;

/* The free bit of (x, y), which must be inside the map: no bounds test. */
static inline int free_in(const nbi_sggrid *g, int32_t x, int32_t y)
{
    uint64_t w = nbi_sg_word(g->free_rows, (size_t)y * g->row_words + ((uint32_t)x >> 6));
    return (int)((w >> (x & 63)) & 1u);
}

/* The step rule for a step whose target is inside the map, and with it the two cells beside a
 * diagonal: read without the bounds tests.  Inline in the scan's diagonal rays and the walk,
 * whose move is the same for a whole loop (a call a step was a tenth of a street map's
 * query).  A walk between two cells of the map reads only cells of the rectangle its ends
 * span (walking was a seventh of a street map's query); a diagonal ray counts the steps it
 * has before the map's edge. */
static inline int in_step_ok(const nbi_sggrid *g, int32_t x, int32_t y, unsigned d)
{
    int32_t dx = move_dx[d], dy = move_dy[d];
    if (!free_in(g, x + dx, y + dy))
        return 0;
    if (!NBI_MOVE_IS_DIAGONAL(d))
        return 1;
    int h = free_in(g, x + dx, y), v = free_in(g, x, y + dy);
    return g->strict ? h && v : h || v;
}

/* With (x, y) and the target inside the map, so are the cells beside a diagonal. */
int nbi_sg_step_ok(const nbi_sggrid *g, int32_t x, int32_t y, unsigned d)
{
    return nbi_sg_inside(g, x, y) && nbi_sg_inside(g, x + move_dx[d], y + move_dy[d]) &&
           in_step_ok(g, x, y, d);
}

/* The subgoal bit of (x, y), inside the map, as free_in. */
static inline int subgoal_in(const nbi_sggrid *g, int32_t x, int32_t y)
{
    uint64_t w = nbi_sg_word(g->sub_rows, (size_t)y * g->row_words + ((uint32_t)x >> 6));
    return (int)((w >> (x & 63)) & 1u);
}

/* Ones of a line from bit pos upwards (pos, pos + 1, ... < n), at most
 * limit.  The line's words start at word base of a (masked by ~s when s
 * is not NULL: free and not a subgoal). */
static inline NBP_ALWAYS_INLINE uint32_t ones_up(const uint8_t *a, const uint8_t *s, size_t base, uint32_t pos,
                        uint32_t n, uint32_t limit)
{
    uint32_t count = 0;
    while (count < limit && pos < n) {
        size_t k = base + (pos >> 6);
        uint64_t w = nbi_sg_word(a, k);
        if (s)
            w &= ~nbi_sg_word(s, k);
        unsigned sh = pos & 63, avail = 64 - sh;
        w >>= sh; /* the bits shifted in are 0: a run stops at the word's end */
        /* The run's ones at the bottom of w: the zeros at the bottom of ~w. */
        unsigned t = ~w ? nbp_ctz64(~w) : 64;
        if (t > avail)
            t = avail;
        count += t;
        pos += t;
        if (t < avail)
            break;
    }
    return count < limit ? count : limit;
}

/* The same from bit pos downwards (pos, pos - 1, ... >= 0). */
static inline NBP_ALWAYS_INLINE uint32_t ones_down(const uint8_t *a, const uint8_t *s, size_t base, int64_t pos,
                          uint32_t limit)
{
    uint32_t count = 0;
    while (count < limit && pos >= 0) {
        size_t k = base + (size_t)(pos >> 6);
        uint64_t w = nbi_sg_word(a, k);
        if (s)
            w &= ~nbi_sg_word(s, k);
        unsigned sh = 63 - (unsigned)(pos & 63), avail = (unsigned)(pos & 63) + 1;
        w <<= sh; /* bit pos on top; the bits shifted in are 0 */
        /* The run's ones at the top of w: those above ~w's highest one. */
        unsigned t = ~w ? 63 - nbp_msb64(~w) : 64;
        if (t > avail)
            t = avail;
        count += t;
        pos -= t;
        if (t < avail)
            break;
    }
    return count < limit ? count : limit;
}

/* Free cells that are not subgoals from (x, y) by cardinal move c, not
 * counting (x, y), at most limit. */
static inline NBP_ALWAYS_INLINE uint32_t run(const nbi_sggrid *g, int32_t x, int32_t y, unsigned c, uint32_t limit)
{
    /* A row is free_rows masked by its subgoals (sub_rows, which nbi_sg_is_subgoal reads as
     * well); a column has the two already combined in pass_cols, the only use of columns. */
    switch (c) {
    case NBI_MOVE_E:
        return ones_up(g->free_rows, g->sub_rows, (size_t)y * g->row_words, (uint32_t)x + 1,
                       g->width, limit);
    case NBI_MOVE_W:
        return ones_down(g->free_rows, g->sub_rows, (size_t)y * g->row_words, (int64_t)x - 1,
                         limit);
    case NBI_MOVE_S:
        return ones_up(g->pass_cols, NULL, (size_t)x * g->col_words, (uint32_t)y + 1, g->height,
                       limit);
    default: /* N */
        return ones_down(g->pass_cols, NULL, (size_t)x * g->col_words, (int64_t)y - 1, limit);
    }
}

uint32_t nbi_sg_run(const nbi_sggrid *g, int32_t x, int32_t y, unsigned c, uint32_t limit)
{
    return run(g, x, y, c, limit);
}

/* How far the target lies from (x, y) along cardinal move c: 0 when it
 * is not on that ray. */
static uint32_t target_on(int32_t x, int32_t y, unsigned c, int32_t tx, int32_t ty)
{
    int32_t dx = move_dx[c], dy = move_dy[c];
    int64_t m = dx ? (int64_t)(tx - x) * dx : (int64_t)(ty - y) * dy;
    if (m <= 0 || (dx ? ty != y : tx != x))
        return 0;
    return (uint32_t)m;
}

/* The line from (x, y) along c after k diagonal steps, at most *limit
 * cells: reports the subgoal (or target) that stops it within the limit,
 * and lowers the limit to the line's length.  Returns 0 when visit stops
 * the scan. */
static inline NBP_ALWAYS_INLINE int line(const nbi_sggrid *g, int32_t x, int32_t y, unsigned c,
                                         uint32_t k, uint32_t *limit, int32_t tx, int32_t ty,
                                         nbi_sg_visit visit, void *ctx)
{
    if (*limit == 0)
        return 1; /* nothing to read: a line no longer than an earlier one ended at its start */
    uint32_t e = run(g, x, y, c, *limit);
    int32_t dx = move_dx[c], dy = move_dy[c];
    uint32_t m = tx >= 0 ? target_on(x, y, c, tx, ty) : 0;
    if (m && m <= e + 1 && m <= *limit) {
        /* The target stops the line as a subgoal would. */
        if (!visit(ctx, tx, ty, m, k))
            return 0;
        e = m - 1;
    } else if (e < *limit) {
        int32_t zx = x + dx * (int32_t)(e + 1), zy = y + dy * (int32_t)(e + 1);
        if (nbi_sg_is_subgoal(g, zx, zy) && !visit(ctx, zx, zy, e + 1, k))
            return 0;
    }
    if (e < *limit)
        *limit = e;
    return 1;
}

/* A bounded scan's visit: the hits whose h-path length plus octile distance to the target
 * pass the bound are left out.  The lines themselves are read whole, so each line's length
 * bounds the next as in the whole scan, and the hits kept are the whole scan's within the
 * bound. */
struct within {
    int32_t tx, ty;
    double r;
    nbi_sg_visit visit;
    void *ctx;
};

static int visit_within(void *ctx, int32_t x, int32_t y, uint32_t card, uint32_t diag)
{
    const struct within *w = ctx;
    if (nbi_steps_length(card, diag) + nbi_octile_cells(x, y, w->tx, w->ty) > w->r)
        return 1;
    return w->visit(w->ctx, x, y, card, diag);
}

/* One diagonal ray of the scan (d, made of h and v), with the lines from each of its cells.
 * Inlined with d, h and v constant, so that each line's direction is known where it is read
 * (a row's words, or a column's) with no dispatch a line: the lines are most of a scan's
 * work, about 200 of them a query's end on a street map. */
static inline NBP_ALWAYS_INLINE int ray(const nbi_sggrid *g, int32_t x, int32_t y, unsigned d,
                                        unsigned h, unsigned v, const uint32_t *ext, int32_t tx,
                                        int32_t ty, double r, nbi_sg_visit visit, void *ctx)
{
    uint32_t lim_h = ext[h], lim_v = ext[v];
    int32_t cx = x, cy = y;
    /* The steps before the map's edge: each of them reads cells inside it only. */
    uint32_t ex = move_dx[d] > 0 ? g->width - 1 - (uint32_t)x : (uint32_t)x;
    uint32_t ey = move_dy[d] > 0 ? g->height - 1 - (uint32_t)y : (uint32_t)y;
    uint32_t kmax = ex < ey ? ex : ey;
    for (uint32_t k = 1; k <= kmax && in_step_ok(g, cx, cy, d); k++) {
        cx += move_dx[d];
        cy += move_dy[d];
        if (r < INFINITY && NBI_SQRT2 * k + nbi_octile_cells(cx, cy, tx, ty) > r)
            break;
        if (subgoal_in(g, cx, cy) || (cx == tx && cy == ty))
            return visit(ctx, cx, cy, 0, k) ? 0 : -1;
        if (!line(g, cx, cy, h, k, &lim_h, tx, ty, visit, ctx) ||
            !line(g, cx, cy, v, k, &lim_v, tx, ty, visit, ctx))
            return -1;
    }
    return 0;
}

/* The scan; with a bound (r < INFINITY, its visit visit_within's) each diagonal ray stops
 * where a cell's sum passes it: the sum never falls along the ray nor along the lines from
 * it (an octile distance drops by at most a step's length a step), so nothing past there is
 * kept.  Inlined into each caller, so that the whole scan (r constant INFINITY) is the bake's
 * and a long query's scan as it was, with no test of the bound a step. */
static inline NBP_ALWAYS_INLINE int scan(const nbi_sggrid *g, int32_t x, int32_t y, int32_t tx,
                                         int32_t ty, double r, nbi_sg_visit visit, void *ctx)
{
    uint32_t ext[4] = {UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX};
    if (!line(g, x, y, NBI_MOVE_E, 0, &ext[NBI_MOVE_E], tx, ty, visit, ctx) ||
        !line(g, x, y, NBI_MOVE_W, 0, &ext[NBI_MOVE_W], tx, ty, visit, ctx) ||
        !line(g, x, y, NBI_MOVE_S, 0, &ext[NBI_MOVE_S], tx, ty, visit, ctx) ||
        !line(g, x, y, NBI_MOVE_N, 0, &ext[NBI_MOVE_N], tx, ty, visit, ctx))
        return -1;
    /* The four rays in nbi_move's order (d = 4 .. 7), each with its two lines' moves. */
    if (ray(g, x, y, 4, nbi_move_horizontal(4), nbi_move_vertical(4), ext, tx, ty, r, visit, ctx) ||
        ray(g, x, y, 5, nbi_move_horizontal(5), nbi_move_vertical(5), ext, tx, ty, r, visit, ctx) ||
        ray(g, x, y, 6, nbi_move_horizontal(6), nbi_move_vertical(6), ext, tx, ty, r, visit, ctx) ||
        ray(g, x, y, 7, nbi_move_horizontal(7), nbi_move_vertical(7), ext, tx, ty, r, visit, ctx))
        return -1;
    return 0;
}

int nbi_sg_scan(const nbi_sggrid *g, int32_t x, int32_t y, int32_t tx, int32_t ty,
                nbi_sg_visit visit, void *ctx)
{
    return scan(g, x, y, tx, ty, INFINITY, visit, ctx);
}

int nbi_sg_scan_within(const nbi_sggrid *g, int32_t x, int32_t y, int32_t tx, int32_t ty,
                       double bound, nbi_sg_visit visit, void *ctx)
{
    /* A margin: a hit whose sum is the bound in exact arithmetic is kept. */
    struct within w = {tx, ty, bound + 1e-9 * (1.0 + bound), visit, ctx};
    return scan(g, x, y, tx, ty, w.r, visit_within, &w);
}

/* Widens box (x0, y0, x1, y1) to hold (x, y). */
static inline void box_add(int32_t *box, int32_t x, int32_t y)
{
    box[0] = x < box[0] ? x : box[0];
    box[1] = y < box[1] ? y : box[1];
    box[2] = x > box[2] ? x : box[2];
    box[3] = y > box[3] ? y : box[3];
}

/* line with no target, widening box to the last cell it read: the limit before (lim0) and
 * after say how far it looked (to the cell that stopped it, or to the limit). */
static int line_box(const nbi_sggrid *g, int32_t x, int32_t y, unsigned c, uint32_t k,
                    uint32_t *limit, nbi_sg_visit visit, void *ctx, int32_t *box)
{
    uint32_t lim0 = *limit;
    if (!line(g, x, y, c, k, limit, -1, -1, visit, ctx))
        return 0;
    int32_t n = (int32_t)(*limit < lim0 ? *limit + 1 : lim0);
    box_add(box, x + move_dx[c] * n, y + move_dy[c] * n);
    return 1;
}

/* nbi_sg_scan's walk again, kept apart so that the query's scan (above) stays as it was: the
 * lines through line_box, and each diagonal step's 2 x 2 block added to the box. */
int nbi_sg_scan_box(const nbi_sggrid *g, int32_t x, int32_t y, nbi_sg_visit visit, void *ctx,
                    int32_t box[4])
{
    box[0] = box[2] = x;
    box[1] = box[3] = y;
    uint32_t ext[4];
    for (unsigned c = 0; c < 4; c++) {
        ext[c] = UINT32_MAX;
        if (!line_box(g, x, y, c, 0, &ext[c], visit, ctx, box))
            return -1;
    }
    for (unsigned d = 4; d < 8; d++) {
        int32_t dx = move_dx[d], dy = move_dy[d], cx = x, cy = y;
        uint32_t lim_h = ext[nbi_move_horizontal(d)], lim_v = ext[nbi_move_vertical(d)];
        for (uint32_t k = 1;; k++) {
            box_add(box, cx + dx, cy + dy);
            if (!nbi_sg_step_ok(g, cx, cy, d))
                break;
            cx += dx;
            cy += dy;
            if (nbi_sg_is_subgoal(g, cx, cy)) {
                if (!visit(ctx, cx, cy, 0, k))
                    return -1;
                break;
            }
            if (!line_box(g, cx, cy, nbi_move_horizontal(d), k, &lim_h, visit, ctx, box) ||
                !line_box(g, cx, cy, nbi_move_vertical(d), k, &lim_v, visit, ctx, box))
                return -1;
        }
    }
    return 0;
}

/* n moves d from (*x, *y) (its end in the map), into out; 0 when a step is not allowed.  Made
 * once for each move (walk_moves), whose steps then fold into the loop as the scan's rays'. */
static inline NBP_ALWAYS_INLINE int walk_line(const nbi_sggrid *g, int32_t *x, int32_t *y,
                                              unsigned d, uint32_t n, nb_cell *out)
{
    int32_t cx = *x, cy = *y;
    for (uint32_t i = 0; i < n; i++) {
        if (!in_step_ok(g, cx, cy, d))
            return 0;
        cx += move_dx[d];
        cy += move_dy[d];
        out[i].x = cx;
        out[i].y = cy;
    }
    *x = cx;
    *y = cy;
    return 1;
}

static int walk_moves(const nbi_sggrid *g, int32_t *x, int32_t *y, unsigned d, uint32_t n,
                      nb_cell *out)
{
    switch (d) {
    case 0: return walk_line(g, x, y, 0, n, out);
    case 1: return walk_line(g, x, y, 1, n, out);
    case 2: return walk_line(g, x, y, 2, n, out);
    case 3: return walk_line(g, x, y, 3, n, out);
    case 4: return walk_line(g, x, y, 4, n, out);
    case 5: return walk_line(g, x, y, 5, n, out);
    case 6: return walk_line(g, x, y, 6, n, out);
    default: return walk_line(g, x, y, 7, n, out);
    }
}

/* The h-path from a of n1 moves d1 then n2 moves d2 (a and its end both in the map), into
 * out; 0 when a step is not allowed. */
static int walk_shape(const nbi_sggrid *g, nb_cell a, unsigned d1, uint32_t n1, unsigned d2,
                      uint32_t n2, nb_cell *out)
{
    int32_t x = a.x, y = a.y;
    return (!n1 || walk_moves(g, &x, &y, d1, n1, out)) &&
           (!n2 || walk_moves(g, &x, &y, d2, n2, out + n1));
}

size_t nbi_sg_walk(const nbi_sggrid *g, nb_cell a, nb_cell b, nb_cell *out)
{
    int32_t dx = b.x - a.x, dy = b.y - a.y;
    uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
    uint32_t diag = ax < ay ? ax : ay, card = (ax > ay ? ax : ay) - diag;
    /* The diagonal move toward b, and the cardinal one along its longer side. */
    unsigned d = dx >= 0 ? (dy >= 0 ? NBI_MOVE_SE : NBI_MOVE_NE)
                         : (dy >= 0 ? NBI_MOVE_SW : NBI_MOVE_NW);
    unsigned c = ax > ay ? (dx > 0 ? NBI_MOVE_E : NBI_MOVE_W) : (dy > 0 ? NBI_MOVE_S : NBI_MOVE_N);
    if (!nbi_sg_free(g, a.x, a.y) || !nbi_sg_inside(g, b.x, b.y))
        return 0;
    if (walk_shape(g, a, d, diag, c, card, out) || walk_shape(g, a, c, card, d, diag, out))
        return diag + card;
    return 0;
}
