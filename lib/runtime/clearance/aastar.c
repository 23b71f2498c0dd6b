/* aastar.c: Annotated A* (Harabor and Botea, CIG 2008, section V).
 *
 * The paper's AA* is A* that asks, before opening a cell, whether the
 * agent may stand there: clearance >= size for its capability.  Here that
 * question is one read of the bit-packed clearance layer in the mapped
 * bundle, made for the neighbours at every expansion.
 *
 * What makes it fast (tests/bench/clearance-bench.md measures each against a
 * baseline in the same run; profiled with perf and cachegrind):
 *  - nothing is cleared between queries: each cell's stamp carries the id
 *    of the search that last touched it (a generation counter), so a query
 *    costs what it expands, not the map's size;
 *  - per cell, a 4-byte stamp (search id, closed, the direction it was
 *    reached by: the parent is a direction, not a pointer), g, and a heap
 *    position, in three arrays, so the test that skips most neighbours
 *    (seen by this search and closed) reads 4 bytes;
 *  - neighbours are fixed index offsets; the corner rule is bit logic on
 *    the four cardinal answers;
 *  - a neighbour whose f equals the open list's minimum is expanded next
 *    anyway, so it goes on a stack (the lane) instead of the heap: this
 *    also breaks ties in f deepest-first, so the heap needs no tie rule;
 *  - the heap is binary, of 16-byte entries (f, id) with positions for
 *    decrease-key, so it never holds more entries than cells and a query
 *    never allocates.  It measures faster than lib/runtime/core/heap.h's general one
 *    (nbi_aa_run_generic_heap runs the same search on that, for the
 *    benchmark).  Tried and measured slower here: a 4-ary heap, lazy
 *    deletion instead of decrease-key, reading each row's three cells
 *    with one load, and tie-breaking on g in the heap. */
#include "clearance/aastar.h"
#include "core/grid.h"
#include "core/heap.h"

#define CLOSED 8u
#define DIR_MASK 7u
#define SID_SHIFT 4
#define SID_MAX ((1u << (32 - SID_SHIFT)) - 1)
#define NOT_CELL UINT32_MAX
#define IN_LANE UINT32_MAX

/* Directions are core/grid.h's move codes; a direction's bit in a mask
 * below is its code. */
enum {
    DE = NBI_MOVE_E, DW = NBI_MOVE_W, DS = NBI_MOVE_S, DN = NBI_MOVE_N,
    DSE = NBI_MOVE_SE, DNE = NBI_MOVE_NE, DSW = NBI_MOVE_SW, DNW = NBI_MOVE_NW
};

struct open {
    double f;
    uint32_t id;
};

struct nb_aa {
    const nb_bundle *bundle;
    const nb_allocator *a;
    uint32_t width, height;
    size_t cells;
    uint32_t *stamp; /* per cell: search id << 4 | CLOSED | direction it was reached by */
    double *g;       /* per cell: cost from the start, valid when stamped by this search */
    uint32_t *hpos;  /* per cell: index in the heap while open, or IN_LANE */
    uint32_t *lane;  /* open cells whose f is the open list's minimum */
    struct open *heap;
    size_t hn;
    /* The same search on lib/runtime/core/heap.h, for the benchmark's comparison. */
    nbi_heap gheap;
    uint32_t *gpos;
    nb_cell *path;
    uint32_t sid;
    int32_t off[8];
    /* Layers of the last query's capability and size (the bundle is
     * read-only, so they stay valid). */
    int have_clear;
    nb_capability clear_cap;
    nbi_layer clear;
    int comp_state; /* 0 unknown, 1 present, -1 absent */
    nb_capability comp_cap;
    uint32_t comp_size;
    nbi_layer comp;
};

void nb_aa_query_init(nb_aa_query *q)
{
    memset(q, 0, sizeof *q);
    q->size = 1;
    q->corner = NB_CORNER_STRICT;
}

nb_status nb_aa_open(const nb_bundle *b, nb_aa **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_aa_open: no place for the workspace");
    *out = NULL;
    if (!b || !nb_has_map(b))
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the bundle holds no map to search",
                        b ? b->path : "(null)");
    nb_aa *ws = nbi_zalloc_array(b->a, 1, sizeof *ws);
    if (!ws)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a search workspace");
    ws->a = b->a;
    ws->bundle = b;
    ws->width = b->width;
    ws->height = b->height;
    ws->cells = (size_t)b->width * b->height;
    ws->stamp = nbi_zalloc_array(ws->a, ws->cells, sizeof *ws->stamp);
    ws->g = nbi_alloc_array(ws->a, ws->cells, sizeof *ws->g);
    ws->hpos = nbi_alloc_array(ws->a, ws->cells, sizeof *ws->hpos);
    ws->lane = nbi_alloc_array(ws->a, ws->cells, sizeof *ws->lane);
    ws->heap = nbi_alloc_array(ws->a, ws->cells, sizeof *ws->heap);
    ws->path = nbi_alloc_array(ws->a, ws->cells, sizeof *ws->path);
    if (!ws->stamp || !ws->g || !ws->hpos || !ws->lane || !ws->heap || !ws->path) {
        nb_aa_close(ws);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a search workspace on a %u x %u map",
                        b->width, b->height);
    }
    for (int d = 0; d < 8; d++)
        ws->off[d] = nbi_move_dy[d] * (int32_t)b->width + nbi_move_dx[d];
    *out = ws;
    nbi_ok(err);
    return NB_OK;
}

void nb_aa_close(nb_aa *ws)
{
    if (!ws)
        return;
    nbi_free(ws->a, ws->stamp);
    nbi_free(ws->a, ws->g);
    nbi_free(ws->a, ws->hpos);
    nbi_free(ws->a, ws->lane);
    if (ws->gpos)
        nbi_heap_free(&ws->gheap);
    nbi_free(ws->a, ws->gpos);
    nbi_free(ws->a, ws->heap);
    nbi_free(ws->a, ws->path);
    nbi_free(ws->a, ws);
}

/* ---- the open list ---- */

/* Ties in f need no rule here: the cells that tie with the best are
 * expanded through the lane, deepest first. */
static inline int before(const struct open *a, const struct open *b) { return a->f < b->f; }

static inline void sift_up(nb_aa *ws, size_t i, struct open e)
{
    struct open *h = ws->heap;
    while (i > 0) {
        size_t p = (i - 1) >> 1;
        if (!before(&e, &h[p]))
            break;
        h[i] = h[p];
        ws->hpos[h[i].id] = (uint32_t)i;
        i = p;
    }
    h[i] = e;
    ws->hpos[e.id] = (uint32_t)i;
}

static inline uint32_t pop(nb_aa *ws)
{
    struct open *h = ws->heap;
    uint32_t top = h[0].id;
    size_t n = --ws->hn;
    if (n == 0)
        return top;
    struct open e = h[n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&h[c + 1], &h[c]))
            c++;
        if (!before(&h[c], &e))
            break;
        h[i] = h[c];
        ws->hpos[h[i].id] = (uint32_t)i;
        i = c;
    }
    h[i] = e;
    ws->hpos[e.id] = (uint32_t)i;
    return top;
}

/* ---- the search ---- */

static uint32_t next_sid(nb_aa *ws)
{
    if (ws->sid == SID_MAX) {
        /* Once in 2^28 searches: forget every stamp. */
        for (size_t i = 0; i < ws->cells; i++)
            ws->stamp[i] = 0;
        ws->sid = 0;
    }
    return ++ws->sid;
}

void nbi_aa_force_sid(nb_aa *ws, uint32_t sid) { ws->sid = sid > SID_MAX ? SID_MAX : sid; }

#define octile nbi_octile_cells

/* One search's state, gathered so that each phase below takes it as one argument: what the
 * search reads (the layer's bits, the agent, the window, the goal) and what it moves on (the
 * lane, the f the lane ties with).  The phases are inlined into run() and the struct never
 * leaves its frame, so the compiler keeps its fields in registers as it would plain locals. */
struct search {
    nb_aa *ws;
    uint32_t *stamp, *hpos, *lane;
    double *gv;
    const int32_t *off;
    const uint8_t *cv;
    uint64_t bits, mask;
    uint32_t size, W, sid, open_stamp, goal_id;
    int32_t x0, y0, x1, y1; /* the window */
    int32_t gx, gy;
    int strict, has_goal;
    size_t ln;   /* cells in the lane */
    double fmin; /* the f of the last cell taken from the heap */
    double eps;
};

/* The search's constants, read from the workspace and the layer once rather than per
 * neighbour; a new search id; an empty lane. */
static inline NBP_ALWAYS_INLINE void prepare(struct search *s, nb_aa *ws, const nbi_layer *clear,
                                             uint32_t size, nb_corner corner, const nb_cell *goal,
                                             const nbi_window *win)
{
    const uint32_t W = ws->width;
    s->ws = ws;
    s->W = W;
    s->x0 = win ? win->x0 : 0;
    s->y0 = win ? win->y0 : 0;
    s->x1 = win ? win->x1 : (int32_t)W;
    s->y1 = win ? win->y1 : (int32_t)ws->height;
    s->cv = clear->bits_at;
    s->bits = clear->bits;
    s->mask = clear->mask;
    s->size = size;
    s->strict = corner == NB_CORNER_STRICT;
    s->has_goal = goal != NULL;
    s->gx = s->has_goal ? goal->x : 0;
    s->gy = s->has_goal ? goal->y : 0;
    s->goal_id = s->has_goal ? (uint32_t)s->gy * W + (uint32_t)s->gx : NOT_CELL;
    s->sid = next_sid(ws);
    s->open_stamp = s->sid << SID_SHIFT;
    s->stamp = ws->stamp;
    s->hpos = ws->hpos;
    s->lane = ws->lane;
    s->gv = ws->g;
    s->off = ws->off;
    s->ln = 0;
    s->fmin = 0;
    s->eps = 0;
}

/* The result as for no path, and the start alone on the open list; returns the start's id. */
static inline NBP_ALWAYS_INLINE uint32_t open_start(struct search *s, nb_cell start,
                                                    nb_aa_result *res, const int generic)
{
    nb_aa *ws = s->ws;
    res->status = NB_PATH_NONE;
    res->length = 0;
    res->path_len = 0;
    res->path = NULL;
    res->searched = 1;

    uint32_t sid0 = (uint32_t)start.y * s->W + (uint32_t)start.x;
    s->gv[sid0] = 0;
    s->stamp[sid0] = s->open_stamp;
    const double f0 = s->has_goal ? octile(start.x, start.y, s->gx, s->gy) : 0;
    s->hpos[sid0] = 0;
    if (generic) {
        nbi_heap_clear(&ws->gheap);
        nbi_heap_push(&ws->gheap, f0, 0, sid0);
    } else {
        ws->hn = 1;
        ws->heap[0].f = f0;
        ws->heap[0].id = sid0;
    }
    return sid0;
}

/* The next cell to expand, into *id: the lane's first, for they tie with the best; else the
 * heap's best, whose f the lane then ties with.  0 when the open list is empty. */
static inline NBP_ALWAYS_INLINE int take_next(struct search *s, uint32_t *id, const int generic)
{
    nb_aa *ws = s->ws;
    if (s->ln) {
        *id = s->lane[--s->ln];
        return 1;
    }
    if (generic ? nbi_heap_empty(&ws->gheap) : ws->hn == 0)
        return 0;
    if (generic) {
        nbi_heap_item it = nbi_heap_pop(&ws->gheap);
        s->fmin = it.key;
        *id = it.id;
    } else {
        s->fmin = ws->heap[0].f;
        *id = pop(ws);
    }
    /* True f values differ by far more than this; rounding by less. */
    s->eps = 1e-12 * (1 + s->fmin);
    return 1;
}

/* Whether the agent may stand on cell j: one read of the packed layer. */
static inline NBP_ALWAYS_INLINE int stands(const struct search *s, uint32_t j)
{
    const uint64_t at = (uint64_t)j * s->bits;
    return ((nbi_load64le(s->cv + (at >> 3)) >> (at & 7)) & s->mask) >= s->size;
}

/* The moves the agent may make from cell id at (x, y), as a mask of direction bits. */
static inline NBP_ALWAYS_INLINE unsigned moves(const struct search *s, uint32_t id, int32_t x,
                                               int32_t y)
{
    const uint32_t W = s->W;
    const int hn_ = y > s->y0, hs = y + 1 < s->y1, hw = x > s->x0, he = x + 1 < s->x1;
    unsigned m = 0;
    if (hn_ && stands(s, id - W))
        m |= 1u << DN;
    if (he && stands(s, id + 1))
        m |= 1u << DE;
    if (hs && stands(s, id + W))
        m |= 1u << DS;
    if (hw && stands(s, id - 1))
        m |= 1u << DW;
    /* A diagonal needs its cell, and both (strict) or either (weak)
     * of the cardinal cells beside it. */
    unsigned ne, se, sw, nw;
    if (s->strict) {
        ne = (m >> DN) & (m >> DE) & 1u;
        se = (m >> DS) & (m >> DE) & 1u;
        sw = (m >> DS) & (m >> DW) & 1u;
        nw = (m >> DN) & (m >> DW) & 1u;
    } else {
        ne = hn_ && he && (m & ((1u << DN) | (1u << DE)));
        se = hs && he && (m & ((1u << DS) | (1u << DE)));
        sw = hs && hw && (m & ((1u << DS) | (1u << DW)));
        nw = hn_ && hw && (m & ((1u << DN) | (1u << DW)));
    }
    if (ne && stands(s, id - W + 1))
        m |= 1u << DNE;
    if (se && stands(s, id + W + 1))
        m |= 1u << DSE;
    if (sw && stands(s, id + W - 1))
        m |= 1u << DSW;
    if (nw && stands(s, id - W - 1))
        m |= 1u << DNW;
    return m;
}

/* Cell j, reached by direction d from (x, y) at cost ng: opened, or its cost lowered, and put
 * in the lane or the heap; left alone when closed or no better. */
static inline NBP_ALWAYS_INLINE void reach(struct search *s, uint32_t j, unsigned d, double ng,
                                           int32_t x, int32_t y, const int generic)
{
    nb_aa *ws = s->ws;
    uint32_t sj = s->stamp[j];
    size_t pos;
    if ((sj >> SID_SHIFT) == s->sid) {
        if ((sj & CLOSED) || ng >= s->gv[j])
            return;
        s->gv[j] = ng;
        s->stamp[j] = s->open_stamp | d;
        if (s->hpos[j] == IN_LANE)
            return;                     /* its f was the minimum already */
        pos = generic ? 0 : s->hpos[j]; /* in the heap: a better way in */
    } else {
        s->gv[j] = ng;
        s->stamp[j] = s->open_stamp | d;
        pos = NOT_CELL;
    }
    double f = ng + (s->has_goal ? octile(x + nbi_move_dx[d], y + nbi_move_dy[d], s->gx, s->gy)
                                 : 0);
    if (f <= s->fmin + s->eps && pos == NOT_CELL) {
        /* As good as the best open cell: it is expanded next, so it
         * skips the heap (on open ground most cells do). */
        s->hpos[j] = IN_LANE;
        s->lane[s->ln++] = j;
        return;
    }
    if (generic) {
        s->hpos[j] = 0;
        nbi_heap_push(&ws->gheap, f, 0, j); /* or lowers its key */
        return;
    }
    if (pos == NOT_CELL)
        pos = ws->hn++;
    struct open e = {f, j};
    sift_up(ws, pos, e);
}

/* Cell id's neighbours, each the agent may step to reached from it. */
static inline NBP_ALWAYS_INLINE void expand(struct search *s, uint32_t id, const int generic)
{
    const double g = s->gv[id];
    const int32_t y = (int32_t)(id / s->W), x = (int32_t)(id - (uint32_t)y * s->W);
    unsigned m = moves(s, id, x, y);
    while (m) {
        unsigned d = nbp_ctz32(m);
        m &= m - 1;
        reach(s, (uint32_t)((int32_t)id + s->off[d]), d, g + nbi_move_cost(d), x, y, generic);
    }
}

/* The path from start (sid0) to the goal, walked back by the directions cells were reached
 * by, into ws->path and res. */
static void walk_back(nb_aa *ws, uint32_t sid0, uint32_t goal_id, nb_aa_result *res)
{
    const uint32_t W = ws->width, *stamp = ws->stamp;
    const int32_t *off = ws->off;
    size_t len = 1, diagonals = 0;
    for (uint32_t j = goal_id; j != sid0; j = (uint32_t)((int32_t)j - off[stamp[j] & DIR_MASK]))
        len++;
    nb_cell *p = ws->path + len;
    for (uint32_t j = goal_id;; j = (uint32_t)((int32_t)j - off[stamp[j] & DIR_MASK])) {
        --p;
        p->x = (int32_t)(j % W);
        p->y = (int32_t)(j / W);
        if (j == sid0)
            break;
        diagonals += NBI_MOVE_IS_DIAGONAL(stamp[j] & DIR_MASK);
    }
    res->status = NB_PATH_FOUND;
    res->path = ws->path;
    res->path_len = len;
    /* Exact from the step counts rather than summed along the way. */
    res->length = nbi_steps_length(len - 1 - diagonals, diagonals);
}

/* The search.  generic is a constant in each caller, so the compiler makes
 * two copies: the library's, with the heap above, and one on lib/runtime/core/heap.h
 * that only the benchmark calls, to measure the difference. */
static inline NBP_ALWAYS_INLINE void run(nb_aa *ws, const nbi_layer *clear, uint32_t size,
                                     nb_corner corner, nb_cell start, const nb_cell *goal,
                                     const nbi_window *win, nb_aa_result *res, const int generic)
{
    struct search s;
    prepare(&s, ws, clear, size, corner, goal, win);
    const uint32_t sid0 = open_start(&s, start, res, generic);
    uint64_t expanded = 0;
    uint32_t id;
    while (take_next(&s, &id, generic)) {
        s.stamp[id] |= CLOSED;
        expanded++;
        if (id == s.goal_id)
            break;
        expand(&s, id, generic);
    }
    if (generic)
        nbi_heap_clear(&ws->gheap);
    res->expanded = expanded;
    if (!s.has_goal || (s.stamp[s.goal_id] >> SID_SHIFT) != s.sid || !(s.stamp[s.goal_id] & CLOSED))
        return;
    walk_back(ws, sid0, s.goal_id, res);
}

void nbi_aa_run(nb_aa *ws, const nbi_layer *clear, uint32_t size, nb_corner corner, nb_cell start,
                const nb_cell *goal, const nbi_window *win, nb_aa_result *res)
{
    run(ws, clear, size, corner, start, goal, win, res, 0);
}

int nbi_aa_run_generic_heap(nb_aa *ws, const nbi_layer *clear, uint32_t size, nb_corner corner,
                            nb_cell start, const nb_cell *goal, nb_aa_result *res)
{
    if (!ws->gpos) {
        ws->gpos = nbi_alloc_array(ws->a, ws->cells, sizeof *ws->gpos);
        if (!ws->gpos || !nbi_heap_init(&ws->gheap, ws->a, ws->cells, ws->gpos)) {
            nbi_free(ws->a, ws->gpos);
            ws->gpos = NULL;
            return 0;
        }
        for (size_t i = 0; i < ws->cells; i++)
            ws->gpos[i] = NBI_HEAP_NONE;
    }
    run(ws, clear, size, corner, start, goal, NULL, res, 1);
    return 1;
}

double nbi_aa_cost(const nb_aa *ws, nb_cell c)
{
    if (c.x < 0 || c.y < 0 || (uint32_t)c.x >= ws->width || (uint32_t)c.y >= ws->height)
        return -1;
    size_t i = (size_t)c.y * ws->width + (size_t)c.x;
    if ((ws->stamp[i] >> SID_SHIFT) != ws->sid || !(ws->stamp[i] & CLOSED))
        return -1;
    return ws->g[i];
}

/* ---- the public query ---- */

static int inside(const nb_aa *ws, nb_cell c)
{
    return c.x >= 0 && c.y >= 0 && (uint32_t)c.x < ws->width && (uint32_t)c.y < ws->height;
}

nb_status nb_aa_find(nb_aa *ws, const nb_aa_query *q, nb_aa_result *res, nb_err *err)
{
    const nb_bundle *b = ws->bundle;
    memset(res, 0, sizeof *res);
    res->status = NB_PATH_NONE;
    if (!inside(ws, q->start) || !inside(ws, q->goal))
        return nbi_fail(err, NB_ERR_ARG, "%s (%d,%d) is outside the %u x %u map",
                        inside(ws, q->start) ? "goal" : "start",
                        inside(ws, q->start) ? q->goal.x : q->start.x,
                        inside(ws, q->start) ? q->goal.y : q->start.y, ws->width, ws->height);
    if (q->size < 1)
        return nbi_fail(err, NB_ERR_ARG, "agent size 0: a size is 1 or more cells");
    if (q->corner != NB_CORNER_STRICT && q->corner != NB_CORNER_WEAK)
        return nbi_fail(err, NB_ERR_ARG, "unknown corner rule %d", (int)q->corner);
    if (!ws->have_clear || ws->clear_cap != q->capability) {
        ws->have_clear = 0;
        ws->comp_state = 0;
        nb_status st = nbi_clearance_layer(b, q->capability, &ws->clear, err);
        if (st != NB_OK)
            return st;
        ws->have_clear = 1;
        ws->clear_cap = q->capability;
    }
    if (q->size > ws->clear.maxval) {
        char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
        nb_capability_format(b, q->capability, caps, sizeof caps);
        return nbi_fail(err, NB_ERR_LIMIT,
                        "size %u is beyond the largest size (%u) the bundle's clearance for {%s} "
                        "serves; bake it with an agent set that has the size",
                        q->size, ws->clear.maxval, caps);
    }
    const nbi_layer *cl = &ws->clear;
    uint64_t si = (uint64_t)q->start.y * ws->width + (uint64_t)q->start.x;
    uint64_t gi = (uint64_t)q->goal.y * ws->width + (uint64_t)q->goal.x;
    nbi_ok(err);
    if (nbi_layer_get(cl, si) < q->size) {
        res->status = NB_PATH_START_BLOCKED;
        return NB_OK;
    }
    if (nbi_layer_get(cl, gi) < q->size) {
        res->status = NB_PATH_GOAL_BLOCKED;
        return NB_OK;
    }
    if (ws->comp_state == 0 || ws->comp_cap != q->capability || ws->comp_size != q->size) {
        ws->comp_cap = q->capability;
        ws->comp_size = q->size;
        /* Without the layer (a size or capability not served) the search
         * alone answers; a damaged one is an error. */
        nb_status st = nbi_components_layer(b, q->capability, q->size, &ws->comp, err);
        if (st != NB_OK && st != NB_ERR_NOTFOUND) {
            ws->comp_state = 0;
            return st;
        }
        nbi_ok(err);
        ws->comp_state = st == NB_OK ? 1 : -1;
    }
    if (ws->comp_state == 1 && nbi_layer_get(&ws->comp, si) != nbi_layer_get(&ws->comp, gi))
        return NB_OK; /* no path, and no search */
    nbi_aa_run(ws, cl, q->size, q->corner, q->start, &q->goal, NULL, res);
    return NB_OK;
}
