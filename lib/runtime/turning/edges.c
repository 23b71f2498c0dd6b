/* edges.c: the edges of a unit's searches, the first free curve between
 * two poses, read from the hit-check table or computed and swept on the
 * spot.
 *
 * The table is decoded once per planner for every start heading (the
 * stored quarter turned four ways).  With a window of at most 32 x 32
 * cells a curve is a bit mask of the window, its destination cell
 * included; a node's expansion reads the blocked cells of its window once
 * (a 64-bit word per row, cells.c), and each curve is then a few ANDs
 * (Pinter: "the majority of time spent in the Directional algorithm is in
 * the inner loop which checks for blocking tiles").  Larger windows keep
 * the cells as a list. */
#include <math.h>

#include "turning/planner.h"
#include "turning/sweep.h"

/* A quarter turn r times: (x, y) to (-y, x). */
static void turn_cell(int *x, int *y, unsigned r)
{
    for (unsigned k = 0; k < r; k++) {
        int t = *x;
        *x = -*y;
        *y = t;
    }
}

static void set_cell(nbi_edges *e, size_t c, int x, int y, size_t *at)
{
    if (e->masks) {
        size_t bit = (size_t)(y + (int)e->half) * e->stride + (size_t)(x + (int)e->half);
        e->mask[c * e->words + bit / 64] |= (uint64_t)1 << (bit % 64);
    } else {
        e->cell[*at][0] = (int8_t)x;
        e->cell[*at][1] = (int8_t)y;
        (*at)++;
    }
}

nb_status nbi_edges_init(nbi_edges *e, const nbi_hitcheck *hc, const nb_allocator *a,
                         unsigned mask_window, nb_err *err)
{
    memset(e, 0, sizeof *e);
    unsigned K = hc->headings, N = hc->neighbourhood, S = hc->window, q = K / 4;
    unsigned stored = nbi_hc_stored_headings(hc), turns = nbi_hc_quarters(hc);
    uint32_t M = hc->ncurves;
    e->K = K;
    e->N = N;
    e->window = S;
    e->half = S / 2;
    e->masks = S <= mask_window && S <= 32;
    /* Mask rows 8, 16 or 32 bits apart: none straddles two 64-bit words. */
    e->stride = S <= 8 ? 8 : S <= 16 ? 16 : 32;
    e->words = (S * e->stride + 63) / 64;
    e->ncurves = turns * (size_t)M;
    size_t nentries = (size_t)K * K * N;
    int half = (int)e->half;
    /* The stored curves' cells, read once from the bitsets. */
    uint64_t cells = 0;
    for (uint32_t i = 0; i < M; i++)
        for (uint64_t c = 0; c < (uint64_t)S * S; c++)
            cells += (uint64_t)nbi_hc_bit(hc, i, c);
    uint32_t *sfirst = nbi_alloc_array(a, (size_t)M + 1, sizeof *sfirst);
    int8_t(*scell)[2] = nbi_alloc_array(a, cells ? cells : 1, sizeof *scell);
    e->efirst = nbi_alloc_array(a, nentries, sizeof *e->efirst);
    e->ecount = nbi_alloc(a, nentries);
    e->least = nbi_alloc_array(a, nentries, sizeof *e->least);
    e->len = nbi_alloc_array(a, e->ncurves, sizeof *e->len);
    e->code = nbi_alloc_array(a, e->ncurves, sizeof *e->code);
    if (e->masks)
        e->mask = nbi_zalloc_array(a, e->ncurves * e->words, sizeof *e->mask);
    else {
        e->cfirst = nbi_alloc_array(a, e->ncurves, sizeof *e->cfirst);
        e->cnum = nbi_alloc_array(a, e->ncurves, sizeof *e->cnum);
        e->cell = nbi_alloc_array(a, turns * (cells + M), sizeof *e->cell);
    }
    if (!sfirst || !scell || !e->efirst || !e->ecount || !e->least || !e->len || !e->code ||
        (e->masks ? !e->mask : !e->cfirst || !e->cnum || !e->cell)) {
        nbi_free(a, sfirst);
        nbi_free(a, scell);
        nbi_edges_free(e, a);
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for the hit-check table");
    }
    size_t at = 0;
    for (uint32_t i = 0; i < M; i++) {
        sfirst[i] = (uint32_t)at;
        for (uint64_t c = 0; c < (uint64_t)S * S; c++)
            if (nbi_hc_bit(hc, i, c)) {
                scell[at][0] = (int8_t)((int)(c % S) - half);
                scell[at][1] = (int8_t)((int)(c / S) - half);
                at++;
            }
    }
    sfirst[M] = (uint32_t)at;
    /* Curve r M + i is stored curve i turned r quarter turns (version 1
     * stores every start heading: no turns). */
    at = 0;
    for (unsigned r = 0; r < turns; r++)
        for (unsigned c0 = 0; c0 < stored; c0++)
            for (unsigned c1 = 0; c1 < K; c1++)
                for (unsigned co = 0; co < N; co++) {
                    uint32_t first;
                    unsigned quarter, n = nbi_hc_entry(hc, c0, c1, co, &first, &quarter);
                    /* r quarter turns add r K / 4 to both headings and turn the neighbour. */
                    unsigned o = co;
                    for (unsigned k = 0; k < r; k++)
                        o = hc->turn[o];
                    size_t ix = ((size_t)(c0 + r * q) * K + (c1 + r * q) % K) * N + o;
                    e->efirst[ix] = (uint32_t)(r * M + first);
                    e->ecount[ix] = (uint8_t)n;
                    for (uint32_t i = first; i < first + n; i++) {
                        size_t c = (size_t)r * M + i;
                        e->len[c] = nbi_hc_length(hc, i);
                        e->code[c] = (uint16_t)(nbi_hc_word(hc, i) | nbi_hc_variant(hc, i) << 3);
                        if (!e->masks)
                            e->cfirst[c] = (uint32_t)at;
                        for (uint32_t k = sfirst[i]; k < sfirst[i + 1]; k++) {
                            int tx = scell[k][0], ty = scell[k][1];
                            turn_cell(&tx, &ty, r);
                            set_cell(e, c, tx, ty, &at);
                        }
                        /* The destination must be free too. */
                        set_cell(e, c, hc->off[o][0], hc->off[o][1], &at);
                        if (!e->masks)
                            e->cnum[c] = (uint16_t)(at - e->cfirst[c]);
                    }
                }
    for (unsigned h0 = 0; h0 < K; h0++)
        for (unsigned o = 0; o < N; o++)
            for (unsigned h1 = 0; h1 < K; h1++) {
                size_t ix = ((size_t)h0 * K + h1) * N + o;
                e->least[((size_t)h0 * N + o) * K + h1] = e->ecount[ix] ? e->len[e->efirst[ix]] : INFINITY;
            }
    nbi_free(a, sfirst);
    nbi_free(a, scell);
    return NB_OK;
}

void nbi_edges_free(nbi_edges *e, const nb_allocator *a)
{
    nbi_free(a, e->efirst);
    nbi_free(a, e->ecount);
    nbi_free(a, e->least);
    nbi_free(a, e->len);
    nbi_free(a, e->code);
    nbi_free(a, e->mask);
    nbi_free(a, e->cfirst);
    nbi_free(a, e->cnum);
    nbi_free(a, e->cell);
    memset(e, 0, sizeof *e);
}

void nbi_window_read(nb_planner *p, long x, long y)
{
    const nbi_edges *e = &p->edges;
    p->winx = x;
    p->winy = y;
    p->win_ok = 1;
    if (!e->masks)
        return;
    long half = (long)e->half;
    uint64_t keep = e->window == 64 ? ~(uint64_t)0 : ((uint64_t)1 << e->window) - 1;
    uint64_t row[32];
    nbi_cells_rows(&p->cells, y - half, e->window, x - half, row);
    memset(p->win, 0, e->words * sizeof *p->win);
    for (unsigned r = 0; r < e->window; r++) {
        size_t bit = (size_t)r * e->stride;
        p->win[bit / 64] |= (row[r] & keep) << (bit % 64);
    }
}

int nbi_list_hits(nb_planner *p, uint32_t c)
{
    const nbi_edges *e = &p->edges;
    for (uint32_t i = e->cfirst[c], end = i + e->cnum[c]; i < end; i++)
        if (nbi_blocked(p, p->winx + e->cell[i][0], p->winy + e->cell[i][1]))
            return 1;
    return 0;
}

/* ---- edges computed and swept on the spot ---- */

struct check {
    nb_planner *p;
    long ox, oy;         /* the origin cell, absolute */
    long dx, dy;         /* the destination, relative: not checked */
    int skip;            /* cells under the disc at (sx, sy) are not checked */
    double sx, sy, lim;
};

static int hit(void *ctx, long x, long y)
{
    const struct check *c = ctx;
    if ((x == 0 && y == 0) || (x == c->dx && y == c->dy))
        return 0;
    if (c->skip && nbi_point_cell_distance(c->sx, c->sy, x, y) < c->lim)
        return 0;
    return nbi_blocked(c->p, c->ox + x, c->oy + y);
}

static unsigned turned(unsigned h, unsigned K, int reverse) { return reverse ? (h + K / 2) % K : h; }

/* The first of m candidates whose sweep meets no blocked cell (the table
 * keeps the shortest alone, or every one). */
static int first_free(nb_planner *p, const nb_curve *cand, size_t m, struct check *ck, unsigned o,
                      unsigned h1, int reverse, double *len, unsigned *code)
{
    if (!p->hc.all && m > 1)
        m = 1;
    for (size_t i = 0; i < m; i++)
        if (!nbi_sweep_cells(cand[i].seg, cand[i].count, p->unit.width, hit, ck)) {
            *len = cand[i].length;
            *code = nbi_move(o, h1, (unsigned)nbi_word_code(cand[i].word), cand[i].variant, reverse);
            return 1;
        }
    return 0;
}

int nbi_edge(nb_planner *p, long x, long y, unsigned h0, unsigned o, unsigned h1, int reverse,
             int onthefly, double *len, unsigned *code)
{
    unsigned K = p->K, a = turned(h0, K, reverse), b = turned(h1, K, reverse);
    int dx = p->off[o][0], dy = p->off[o][1];
    if (!onthefly && o < p->edges.N) {
        if (!p->win_ok || p->winx != x || p->winy != y)
            nbi_window_read(p, x, y);
        return nbi_edge_win(p, h0, o, h1, reverse, len, code);
    }
    if (nbi_blocked(p, x + dx, y + dy))
        return 0;
    /* The same curves, computed as the table's builder does (from the
     * origin cell's centre, so the very same numbers), and swept. */
    nb_pose from = {0.5, 0.5, nbi_heading(a, K)}, to = {0.5 + dx, 0.5 + dy, nbi_heading(b, K)};
    nb_curve cand[NB_CURVE_MAX_CANDIDATES];
    size_t m = nb_curve_to_pose(&from, &to, p->unit.radius, cand);
    struct check ck = {p, x, y, dx, dy, 0, 0, 0, 0};
    return first_free(p, cand, m, &ck, o, h1, reverse, len, code);
}

int nbi_edge_pose(nb_planner *p, const nb_pose *from, long tx, long ty, unsigned h1, int reverse,
                  double *len, unsigned *code)
{
    long fx = (long)floor(from->x), fy = (long)floor(from->y);
    int o = tx == fx && ty == fy ? NBI_MAX_NEIGHBOURS : nbi_offset_index(p, tx - fx, ty - fy);
    if (o < 0 || nbi_blocked(p, tx, ty))
        return 0;
    nb_pose a = {from->x - fx, from->y - fy, from->heading + (reverse ? M_PI : 0)};
    nb_pose b = {tx - fx + 0.5, ty - fy + 0.5, nbi_heading(turned(h1, p->K, reverse), p->K)};
    nb_curve cand[NB_CURVE_MAX_CANDIDATES];
    size_t m = nb_curve_to_pose(&a, &b, p->unit.radius, cand);
    struct check ck = {p, fx, fy, tx - fx, ty - fy, 1, a.x, a.y, p->unit.width / 2 - NBI_TOUCH_EPS};
    /* Off the grid there is no table: every candidate, whatever it keeps. */
    for (size_t i = 0; i < m; i++)
        if (!nbi_sweep_cells(cand[i].seg, cand[i].count, p->unit.width, hit, &ck)) {
            *len = cand[i].length;
            *code = nbi_move((unsigned)o, h1, (unsigned)nbi_word_code(cand[i].word),
                             cand[i].variant, reverse);
            return 1;
        }
    return 0;
}

static void translate(nb_curve *c, double dx, double dy)
{
    for (unsigned i = 0; i < c->count; i++) {
        c->seg[i].x += dx;
        c->seg[i].y += dy;
        c->seg[i].cx += dx;
        c->seg[i].cy += dy;
    }
}

void nbi_edge_curve(const nb_planner *p, const nb_pose *from, const nb_pose *to, unsigned code,
                    nb_curve *out)
{
    int reverse = (code >> 15) & 1; /* nbi_move's bits */
    unsigned word = (code >> 11) & 7, variant = (code >> 14) & 1;
    double fx = floor(from->x), fy = floor(from->y), turn = reverse ? M_PI : 0;
    nb_pose a = {from->x - fx, from->y - fy, from->heading + turn};
    nb_pose b = {to->x - fx, to->y - fy, to->heading + turn};
    nb_curve cand[NB_CURVE_MAX_CANDIDATES];
    size_t m = nb_curve_to_pose(&a, &b, p->unit.radius, cand);
    size_t pick = 0;
    for (size_t i = 0; i < m; i++)
        if (nbi_word_code(cand[i].word) == (int)word && cand[i].variant == variant) {
            pick = i;
            break;
        }
    *out = cand[pick];
    if (reverse)
        nb_curve_set_reverse(out);
    translate(out, fx, fy);
}

/* ---- any path ---- */

struct walk {
    nb_planner *p;
    const nbi_cells *direct; /* read the bundle, not the tiles */
    int skip;
    double sx, sy, lim;
};

static int walk_hit(void *ctx, long x, long y)
{
    const struct walk *w = ctx;
    if (w->skip && nbi_point_cell_distance(w->sx, w->sy, x, y) < w->lim)
        return 0;
    return w->direct ? nbi_cells_blocked_direct(w->direct, x, y) : nbi_blocked(w->p, x, y);
}

/* A segment that leaves the map touches a cell outside, which is blocked;
 * said before the sweep, it also keeps the sweep's loops within the map's
 * cells whatever the caller's numbers. */
static int within(const nb_planner *p, const nb_segment *seg, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!nbi_segment_within(&seg[i], (double)p->W, (double)p->H))
            return 0;
    return 1;
}

int nbi_walkable(nb_planner *p, const nb_segment *seg, size_t n, int skip, double sx, double sy)
{
    if (!within(p, seg, n))
        return 0;
    struct walk w = {p, NULL, skip, sx, sy, p->unit.width / 2 - NBI_TOUCH_EPS};
    return !nbi_sweep_cells(seg, n, p->unit.width, walk_hit, &w);
}

int nb_planner_walkable(const nb_planner *p, const nb_segment *seg, size_t n)
{
    if (!within(p, seg, n))
        return 0;
    struct walk w = {NULL, &p->cells, 0, 0, 0, 0};
    return !nbi_sweep_cells(seg, n, p->unit.width, walk_hit, &w);
}

int nb_planner_blocked(const nb_planner *p, long x, long y)
{
    return nbi_cells_blocked_direct(&p->cells, x, y);
}
