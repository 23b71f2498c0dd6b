/* world_aa.c: Annotated A* across a world's tiles (nb_world_aa_find,
 * navbake.h): the search of clearance/aastar.c, each cell answered by the
 * tile that owns it (its clearance, and its map under the agent's square
 * for terrain costs: the tile's halo holds the square), the cells an
 * overlay blocks read in world coordinates.
 *
 * Why a workspace of its own rather than nb_aa on a world: nb_aa reads one
 * bundle's layer by fixed offsets in its hot loop; a world's cells live in
 * as many layers as tiles, each pinned while the query reads it, and a
 * query may end with the tiles it needs instead of an answer.
 *
 * Exact with tiles missing: a cell in a tile not loaded is not entered but
 * remembered with a bound on any path through it (g plus the move at the
 * least multiplier plus the heuristic, which is consistent); a search that
 * finds the goal at a cost no such bound is below has the least cost of
 * the world as if every tile were loaded, and one that does not answers
 * NB_ERR_UNLOADED with the tiles whose bound is below its cost (every
 * tile it met when it found no path).
 *
 * Nodes: pages of 32 x 32 cells of the world (core/pool.h), claimed as the
 * search reaches them, so the workspace follows the searches, not the
 * world; slots stamped with the search's id, so nothing is cleared between
 * queries; an open list with lazy deletion that keeps what it grew. */
#include <string.h>

#include "core/grid.h"
#include "core/heap.h"
#include "clearance/costs.h"
#include "core/pool.h"
#include "stream/world_aa.h"

#define FAMILY "world Annotated A*"
#define CLOSED 8u
#define DIR_MASK 7u
#define SID_SHIFT 4
#define SID_MAX ((1u << (32 - SID_SHIFT)) - 1)
#define PSHIFT (2 * NBI_WB_SHIFT)

struct nb_world_aa {
    const nb_world *w;
    const nb_allocator *a;
    nbi_wpins pins;
    nbi_pool pool;
    uint32_t *stamp;
    double *g;
    nbi_heap open; /* by f, ties the deeper first (tie = -g); duplicates, stale ones skipped */
    nb_cell *path;
    size_t cappath;
    uint32_t bcols, sid;
    nbi_costs costs; /* of_char, least and weighted: the map is each tile's */
    uint64_t max_nodes;
    size_t nneeded;
    /* The searches of world_joined.c (reach under an overlay, for nearest
     * and random): made at the first; helper_needed: the last query's
     * needed tiles are its. */
    nb_world_aa *helper;
    int helper_needed;
    /* The query in progress (begin, step, finish; find is the three). */
    int phase, lazy;
    uint32_t qid;              /* the pins' query it began as: another query on the
                                  workspace abandons it */
    nb_aa_query q;
    const nb_world_overlay *ov;
    nb_aa_result res;          /* the answer, once PH_DONE */
    int end;
    uint32_t at, start_slot;
    double stop, best_h, best_g, bh2;
    uint32_t best_limit, best_exh;
    int32_t bx2, by2;
    uint64_t expanded;
    /* Sliced (lazy): a move into a tile not loaded waits in its own open
     * list by the bound of any path through it, and is made when that
     * bound comes first; then a tile still missing pauses the step
     * (NB_ERR_UNLOADED naming the move's tiles, pneed). */
    nbi_heap wait;
    struct wmove { uint32_t slot, d; } *moves;
    size_t nmoves, capmoves;
    nb_world_tile pneed[3];
    size_t npneed;
};

nb_status nb_world_aa_open(const nb_world *w, nb_world_aa **out, nb_err *err)
{
    if (out)
        *out = NULL;
    if (!w || !out)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_aa_open: a NULL world or out");
    const nb_allocator *a = w->index->a;
    nb_world_aa *ws = nbi_alloc(a, sizeof *ws);
    if (!ws)
        return nbi_fail_nomem(err, "a world search's workspace");
    memset(ws, 0, sizeof *ws);
    ws->w = w;
    ws->a = a;
    ws->bcols = (w->x.width + NBI_WB_MASK) >> NBI_WB_SHIFT;
    size_t brows = (w->x.height + NBI_WB_MASK) >> NBI_WB_SHIFT;
    int okp = nbi_wpins_init(&ws->pins, w);
    int okq = nbi_pool_init(&ws->pool, a, (size_t)ws->bcols * brows, PSHIFT);
    int okh = nbi_heap_init(&ws->open, a, 1024, NULL) && nbi_heap_init(&ws->wait, a, 0, NULL);
    if (okq) {
        nbi_pool_array(&ws->pool, (void **)&ws->stamp, sizeof *ws->stamp, 1);
        nbi_pool_array(&ws->pool, (void **)&ws->g, sizeof *ws->g, 0);
    }
    if (!okp || !okq || !okh) {
        nb_world_aa_close(ws);
        return nbi_fail_nomem(err, "a world search's workspace");
    }
    *out = ws;
    return nbi_done(err, NB_OK);
}

void nb_world_aa_close(nb_world_aa *ws)
{
    if (!ws)
        return;
    if (ws->phase != 0 && ws->pins.qid == ws->qid) /* a sliced query's tiles let go */
        nbi_wpins_end(&ws->pins);
    nbi_wpins_free(&ws->pins);
    nbi_pool_free(&ws->pool);
    if (ws->open.a)
        nbi_heap_free(&ws->open);
    if (ws->wait.a)
        nbi_heap_free(&ws->wait);
    nbi_free(ws->a, ws->moves);
    nbi_free(ws->a, ws->path);
    nb_world_aa_close(ws->helper);
    nbi_free(ws->a, ws);
}

size_t nb_world_aa_bytes(const nb_world_aa *ws)
{
    return ws ? sizeof *ws + nbi_wpins_bytes(&ws->pins) + nbi_pool_bytes(&ws->pool) +
                    nbi_heap_bytes(&ws->open) + nbi_heap_bytes(&ws->wait) +
                    ws->capmoves * sizeof *ws->moves + ws->cappath * sizeof *ws->path +
                    nb_world_aa_bytes(ws->helper)
              : 0;
}

void nb_world_aa_set_max_nodes(nb_world_aa *ws, uint64_t max_nodes)
{
    if (ws)
        ws->max_nodes = max_nodes;
}

size_t nb_world_aa_needed(const nb_world_aa *ws, nb_world_tile *needed, size_t max)
{
    if (!ws)
        return 0;
    if (ws->helper_needed)
        return nb_world_aa_needed(ws->helper, needed, max);
    if (ws->npneed) { /* a sliced step's pause */
        for (size_t i = 0; needed && i < ws->npneed && i < max; i++)
            needed[i] = ws->pneed[i];
        return ws->npneed;
    }
    /* The list of the last query, kept in the pins until the next. */
    size_t n = 0;
    uint32_t c = ws->w->x.columns;
    for (size_t i = 0; i < ws->pins.nmissing && n < ws->nneeded; i++) {
        uint32_t ti = ws->pins.missing[i];
        if (ws->pins.v[ti].miss == -INFINITY) {
            if (needed && n < max)
                needed[n] = (nb_world_tile){ti % c, ti / c};
            n++;
        }
    }
    return n;
}

const nb_world *nbi_world_aa_world(const nb_world_aa *ws) { return ws->w; }

nbi_wpins *nbi_world_aa_pins(nb_world_aa *ws) { return &ws->pins; }

nb_world_aa **nbi_world_aa_helper(nb_world_aa *ws) { return &ws->helper; }

void nbi_world_aa_helper_needed(nb_world_aa *ws) { ws->helper_needed = 1; }

void nbi_world_aa_mark_needed(nb_world_aa *ws, double limit, size_t n)
{
    /* A bound of -INFINITY marks a tile needed, for nb_world_aa_needed. */
    nbi_wpins *p = &ws->pins;
    ws->helper_needed = 0;
    ws->npneed = 0;
    for (size_t i = 0; n && i < p->nmissing; i++)
        if (p->v[p->missing[i]].miss < limit)
            p->v[p->missing[i]].miss = -INFINITY;
    ws->nneeded = n;
}

/* The open list: f first, then the deeper (tie = -g). */
static int push(nb_world_aa *ws, double f, double g, uint32_t slot)
{
    return nbi_heap_push(&ws->open, f, -g, slot);
}

/* ---- slots ---- */

/* The slot of cell (x, y) for this search, claiming its page; NBI_POOL_NONE when none can be
 * had.  *seen: the slot holds this search's node. */
static uint32_t slot_at(nb_world_aa *ws, uint32_t x, uint32_t y, int *seen)
{
    uint32_t key = (y >> NBI_WB_SHIFT) * ws->bcols + (x >> NBI_WB_SHIFT);
    int fresh;
    uint32_t pg = nbi_pool_page(&ws->pool, key, &fresh);
    if (pg == NBI_POOL_NONE)
        return pg;
    uint32_t j = pg << PSHIFT | (y & NBI_WB_MASK) << NBI_WB_SHIFT | (x & NBI_WB_MASK);
    *seen = (ws->stamp[j] >> SID_SHIFT) == ws->sid;
    return j;
}

static void slot_cell(const nb_world_aa *ws, uint32_t j, int32_t *x, int32_t *y)
{
    uint32_t key = ws->pool.owner[j >> PSHIFT];
    *x = (int32_t)((key % ws->bcols) << NBI_WB_SHIFT | (j & NBI_WB_MASK));
    *y = (int32_t)((key / ws->bcols) << NBI_WB_SHIFT | (j >> NBI_WB_SHIFT & NBI_WB_MASK));
}

/* The multiplier of entering (x, y): the largest under the agent's square, read in the tile
 * that owns the cell (its halo holds the square), clipped to the tile bundle's map. */
static double mult(nb_world_aa *ws, int32_t x, int32_t y)
{
    const nbi_wview *v = nbi_wpins_view(&ws->pins, nbi_wtile_index(ws->w, (uint32_t)x, (uint32_t)y));
    const nb_bundle *b = v->t->b;
    uint32_t bx = (uint32_t)x - v->t->tag.origin_x, by = (uint32_t)y - v->t->tag.origin_y;
    uint32_t s = ws->pins.size;
    uint32_t h = b->height - by < s ? b->height - by : s, wd = b->width - bx < s ? b->width - bx : s;
    size_t row = (size_t)by * b->width + bx;
    double m = 1;
    /* Each tile's map has a palette of its own: read characters, not values. */
    for (uint32_t j = 0; j < h; j++, row += b->width)
        for (uint32_t i = 0; i < wd; i++) {
            double k = ws->costs.of_char[nbi_map_char_at(&b->map, row + i)];
            if (k > m)
                m = k;
        }
    return m;
}

/* ---- the query ---- */

/* The costs of the query's agent, from the world bundle's legend (every tile's). */
static nb_status costs(nb_world_aa *ws, const nb_aa_query *q, nb_err *err)
{
    nb_status st = nbi_costs_of_map(&ws->costs, &ws->w->index->legend, NULL, 0, 0, q->capability,
                                    q->size, q->costs, err);
    if (st != NB_OK)
        nbi_err_prefix(err, "%s", FAMILY);
    return st;
}

static double heur(const nb_world_aa *ws, int32_t x, int32_t y, nb_cell goal)
{
    return ws->costs.least * nbi_octile_cells(x, y, goal.x, goal.y);
}

/* The path from the start to slot j, by the directions the cells were reached by. */
static int walk_back(nb_world_aa *ws, uint32_t j, uint32_t start, nb_aa_result *res)
{
    size_t len = 1;
    int32_t x, y;
    slot_cell(ws, j, &x, &y);
    for (uint32_t k = j; k != start;) {
        unsigned d = ws->stamp[k] & DIR_MASK;
        int32_t px, py;
        slot_cell(ws, k, &px, &py);
        px -= nbi_move_dx[d], py -= nbi_move_dy[d];
        int seen;
        k = slot_at(ws, (uint32_t)px, (uint32_t)py, &seen);
        len++;
    }
    if (len > ws->cappath) {
        nb_cell *p = nbi_realloc_array(ws->a, ws->path, len, sizeof *p);
        if (!p)
            return 0;
        ws->path = p;
        ws->cappath = len;
    }
    uint64_t diagonals = 0;
    size_t i = len;
    for (uint32_t k = j;;) {
        slot_cell(ws, k, &x, &y);
        ws->path[--i] = (nb_cell){x, y};
        if (k == start)
            break;
        unsigned d = ws->stamp[k] & DIR_MASK;
        diagonals += NBI_MOVE_IS_DIAGONAL(d);
        int seen;
        k = slot_at(ws, (uint32_t)(x - nbi_move_dx[d]), (uint32_t)(y - nbi_move_dy[d]), &seen);
    }
    res->path = ws->path;
    res->path_len = len;
    res->length = nbi_steps_length(len - 1 - diagonals, diagonals);
    res->cost = ws->costs.weighted ? ws->g[j] : res->length;
    return 1;
}

enum { END_RUNNING = 0, END_FOUND, END_EXHAUSTED, END_LIMIT, END_NOMEM, END_PAUSED };
enum { PH_IDLE = 0, PH_ENDS, PH_SEARCH, PH_DONE };

/* The search's start: the start's node alone in the open list. */
static void search_begin(nb_world_aa *ws)
{
    const nb_aa_query *q = &ws->q;
    if (ws->sid == SID_MAX) {
        size_t n = nbi_pool_slots(&ws->pool);
        for (size_t i = 0; i < n; i++)
            ws->stamp[i] = 0;
        ws->sid = 0;
    }
    ws->sid++;
    nbi_pool_begin(&ws->pool);
    ws->pool.max_pages = ws->max_nodes
                             ? (uint32_t)((ws->max_nodes + (1u << PSHIFT) - 1) >> PSHIFT)
                             : 0;
    nbi_heap_clear(&ws->open);
    nbi_heap_clear(&ws->wait);
    ws->nmoves = 0;
    ws->stop = INFINITY;
    ws->expanded = 0;
    ws->end = END_RUNNING;
    /* The expanded cell nearest the goal: by h, then g (a limit's), or then y and x (an
     * exhausted search's, as aastar.c chooses). */
    ws->best_h = ws->bh2 = INFINITY;
    ws->best_g = 0;
    ws->bx2 = ws->by2 = 0;
    int seen;
    uint32_t s0 = slot_at(ws, (uint32_t)q->start.x, (uint32_t)q->start.y, &seen);
    ws->start_slot = ws->at = ws->best_limit = ws->best_exh = s0;
    if (s0 == NBI_POOL_NONE) {
        ws->end = ws->pool.failed ? END_NOMEM : END_LIMIT;
        return;
    }
    ws->stamp[s0] = ws->sid << SID_SHIFT;
    ws->g[s0] = 0;
    if (!push(ws, heur(ws, q->start.x, q->start.y, q->goal), 0, s0))
        ws->end = END_NOMEM;
}

/* The move d from slot j at cost g to (nx, ny) made: 0, or how the search ends. */
static inline NBP_ALWAYS_INLINE int relax(nb_world_aa *ws, double g, unsigned d, int32_t nx,
                                         int32_t ny, nb_cell goal)
{
    int seen;
    double ng = g + nbi_move_cost(d) * (ws->costs.weighted ? mult(ws, nx, ny) : 1);
    uint32_t k = slot_at(ws, (uint32_t)nx, (uint32_t)ny, &seen);
    if (k == NBI_POOL_NONE)
        return ws->pool.failed ? END_NOMEM : END_LIMIT;
    if (seen && ((ws->stamp[k] & CLOSED) || ng >= ws->g[k]))
        return 0;
    ws->stamp[k] = ws->sid << SID_SHIFT | d;
    ws->g[k] = ng;
    return push(ws, ng + heur(ws, nx, ny, goal), ng, k) ? 0 : END_NOMEM;
}

/* A move that waits for a tile, in the open list of waiting moves by its bound. */
static int wait_move(nb_world_aa *ws, uint32_t j, unsigned d, double bound)
{
    if (ws->nmoves == ws->capmoves) {
        size_t cap = ws->capmoves ? 2 * ws->capmoves : 64;
        struct wmove *m = nbi_realloc_array(ws->a, ws->moves, cap, sizeof *m);
        if (!m)
            return 0;
        ws->moves = m;
        ws->capmoves = cap;
    }
    ws->moves[ws->nmoves] = (struct wmove){j, d};
    return nbi_heap_push(&ws->wait, bound, 0, (uint32_t)ws->nmoves++);
}

/* The first waiting move, whose bound comes before every node's: made when its tiles are
 * loaded now (0, or how the search ends), or END_PAUSED with the missing ones in pneed. */
static int waited(nb_world_aa *ws)
{
    nbi_wpins *p = &ws->pins;
    const nbi_heap_item *top = nbi_heap_top(&ws->wait);
    struct wmove m = ws->moves[top->id];
    double bound = top->key;
    int32_t x, y;
    slot_cell(ws, m.slot, &x, &y);
    unsigned d = m.d;
    int32_t nx = x + nbi_move_dx[d], ny = y + nbi_move_dy[d];
    int here = nbi_wpins_stands(p, ws->ov, nx, ny, bound), ok = here;
    int32_t cx[3] = {nx, 0, 0}, cy[3] = {ny, 0, 0};
    int nc = 1;
    if (d >= 4) {
        int32_t hx = x + nbi_move_dx[nbi_move_horizontal(d)];
        int32_t vy = y + nbi_move_dy[nbi_move_vertical(d)];
        int a = nbi_wpins_stands(p, ws->ov, hx, y, bound);
        int b = nbi_wpins_stands(p, ws->ov, x, vy, bound);
        int strict = ws->q.corner == NB_CORNER_STRICT;
        int sure = here == 1 && (strict ? a == 1 && b == 1 : a == 1 || b == 1);
        int maybe = here != 0 && (strict ? a != 0 && b != 0 : a != 0 || b != 0);
        ok = sure ? 1 : maybe ? -1 : 0;
        cx[1] = hx, cy[1] = y, cx[2] = x, cy[2] = vy;
        nc = 3;
    }
    if (p->st != NB_OK)
        return END_NOMEM; /* the caller reads p->st first */
    if (ok < 0) {
        const nb_world *w = ws->w;
        ws->npneed = 0;
        for (int i = 0; i < nc; i++) {
            if (cx[i] < 0 || cy[i] < 0 || (uint32_t)cx[i] >= w->x.width ||
                (uint32_t)cy[i] >= w->x.height)
                continue;
            uint32_t ti = nbi_wtile_index(w, (uint32_t)cx[i], (uint32_t)cy[i]);
            if (p->v[ti].state == NBI_WV_LOADED)
                continue;
            nb_world_tile t = {ti % w->x.columns, ti / w->x.columns};
            int dup = 0;
            for (size_t k = 0; k < ws->npneed; k++)
                dup |= ws->pneed[k].column == t.column && ws->pneed[k].row == t.row;
            if (!dup)
                ws->pneed[ws->npneed++] = t;
        }
        return END_PAUSED;
    }
    nbi_heap_pop(&ws->wait);
    return ok ? relax(ws, ws->g[m.slot], d, nx, ny, ws->q.goal) : 0;
}

/* Up to budget expansions of the search; ws->end says how it ended (END_RUNNING: the
 * budget ran out first; END_PAUSED: a waiting move needs a tile), ws->at the slot it ended
 * at (the goal, or the expanded cell nearest it), ws->stop the f it stopped below (the
 * goal's cost, or the open list's least f at a limit; INFINITY when exhausted). */
static void run(nb_world_aa *ws, uint64_t budget)
{
    nbi_wpins *p = &ws->pins;
    const nb_aa_query *q = &ws->q;
    const nb_world_overlay *ov = ws->ov;
    nb_cell goal = q->goal;
    const int strict = q->corner == NB_CORNER_STRICT, lazy = ws->lazy;
    double best_h = ws->best_h, best_g = ws->best_g, bh2 = ws->bh2;
    uint32_t best_limit = ws->best_limit, best_exh = ws->best_exh;
    int32_t bx2 = ws->bx2, by2 = ws->by2;
    uint64_t expanded = ws->expanded;
    /* One test a node for both the query's max_expansions and the slice's budget. */
    uint64_t cap = q->max_expansions ? q->max_expansions : UINT64_MAX;
    uint64_t stop_at = budget > UINT64_MAX - expanded ? UINT64_MAX : expanded + budget;
    stop_at = cap < stop_at ? cap : stop_at;
    int end = END_EXHAUSTED;
    if (ws->end != END_RUNNING && ws->end != END_PAUSED)
        return; /* ended at its start (search_begin) */
    for (;;) {
        /* A waiting move whose bound is below every node's comes first (at a tie, the
         * node: find's answer stands when no missing tile's bound is below its cost). */
        while (lazy && ws->wait.n &&
               (nbi_heap_empty(&ws->open) ||
                nbi_heap_top(&ws->wait)->key < nbi_heap_top(&ws->open)->key)) {
            int r = waited(ws);
            if (r) {
                end = r;
                goto out;
            }
        }
        if (nbi_heap_empty(&ws->open))
            break;
        if (expanded >= stop_at) {
            if (expanded >= cap) {
                end = END_LIMIT;
                ws->stop = nbi_heap_top(&ws->open)->key;
            } else
                end = END_RUNNING;
            break;
        }
        nbi_heap_item e = nbi_heap_pop(&ws->open);
        uint32_t j = e.id;
        if ((ws->stamp[j] & CLOSED) || -e.tie > ws->g[j])
            continue;
        ws->stamp[j] |= CLOSED;
        expanded++;
        int32_t x, y;
        slot_cell(ws, j, &x, &y);
        double g = ws->g[j], h = heur(ws, x, y, goal);
        if (h < best_h || (h == best_h && g < best_g)) {
            best_h = h, best_g = g, best_limit = j;
        }
        if (h < bh2 || (h == bh2 && (y < by2 || (y == by2 && x < bx2))))
            bh2 = h, bx2 = x, by2 = y, best_exh = j;
        if (x == goal.x && y == goal.y) {
            end = END_FOUND;
            ws->at = j;
            ws->stop = g;
            goto found;
        }
        int sc[4];
        for (unsigned d = 0; d < 4; d++) {
            int32_t nx = x + nbi_move_dx[d], ny = y + nbi_move_dy[d];
            sc[d] = nbi_wpins_stands(p, ov, nx, ny, g + ws->costs.least + heur(ws, nx, ny, goal));
        }
        for (unsigned d = 0; d < NBI_MOVES; d++) {
            int32_t nx = x + nbi_move_dx[d], ny = y + nbi_move_dy[d];
            double len = nbi_move_cost(d), bound = g + len * ws->costs.least + heur(ws, nx, ny, goal);
            int here;
            if (d < 4)
                here = sc[d];
            else {
                int a = sc[nbi_move_horizontal(d)], b = sc[nbi_move_vertical(d)];
                here = nbi_wpins_stands(p, ov, nx, ny, bound);
                int sure = here == 1 && (strict ? a == 1 && b == 1 : a == 1 || b == 1);
                int maybe = here != 0 && (strict ? a != 0 && b != 0 : a != 0 || b != 0);
                if (!sure) {
                    if (maybe) { /* a corner in a missing tile may allow the move */
                        int32_t hx = x + nbi_move_dx[nbi_move_horizontal(d)];
                        int32_t vy = y + nbi_move_dy[nbi_move_vertical(d)];
                        if (a < 0)
                            nbi_wpins_stands(p, ov, hx, y, bound);
                        if (b < 0)
                            nbi_wpins_stands(p, ov, x, vy, bound);
                        if (lazy && !wait_move(ws, j, d, bound)) {
                            end = END_NOMEM;
                            goto out;
                        }
                    }
                    continue;
                }
            }
            if (here != 1) {
                if (here < 0 && lazy && !wait_move(ws, j, d, bound)) {
                    end = END_NOMEM;
                    goto out;
                }
                continue;
            }
            int r = relax(ws, g, d, nx, ny, goal);
            if (r) {
                end = r;
                if (r == END_LIMIT)
                    ws->stop = e.key;
                goto out;
            }
        }
    }
out:
    ws->at = end == END_EXHAUSTED ? best_exh : best_limit;
found:
    ws->end = end;
    ws->expanded = expanded;
    ws->best_h = best_h, ws->best_g = best_g, ws->bh2 = bh2;
    ws->best_limit = best_limit, ws->best_exh = best_exh;
    ws->bx2 = bx2, ws->by2 = by2;
}

/* The query's checks (find's errors), then its start: the tiles pinned from here to its
 * end. */
static nb_status begin(nb_world_aa *ws, const nb_aa_query *q, const nb_world_overlay *ov,
                       int lazy, nb_err *err)
{
    const nb_world *w = ws->w;
    nb_status st;
    if (ws->phase != PH_IDLE) { /* begin abandons a query in progress */
        nbi_wpins_end(&ws->pins);
        ws->phase = PH_IDLE;
    }
    ws->nneeded = ws->npneed = 0;
    ws->helper_needed = 0;
    if ((st = nbi_query_size(err, FAMILY, q->size)) != NB_OK)
        return st;
    if (q->corner != NB_CORNER_STRICT && q->corner != NB_CORNER_WEAK)
        return nbi_fail(err, NB_ERR_ARG, "%s: unknown corner rule %d", FAMILY, (int)q->corner);
    if (q->overlay)
        return nbi_fail(err, NB_ERR_ARG, "%s: an overlay of one bundle (nb_overlay) cannot block "
                        "a world's cells: give an nb_world_overlay", FAMILY);
    if ((st = costs(ws, q, err)) != NB_OK || (st = nbi_wopv_check(ov, w, FAMILY, err)) != NB_OK ||
        (st = nbi_query_cell(err, FAMILY, "start", q->start, w->x.width, w->x.height)) != NB_OK ||
        (st = nbi_query_cell(err, FAMILY, "goal", q->goal, w->x.width, w->x.height)) != NB_OK)
        return st;
    ws->q = *q;
    ws->ov = ov;
    ws->lazy = lazy;
    memset(&ws->res, 0, sizeof ws->res);
    ws->res.status = NB_PATH_NONE;
    nbi_wpins_begin(&ws->pins, FAMILY, q->capability, q->size);
    ws->qid = ws->pins.qid;
    ws->phase = PH_ENDS;
    return NB_OK;
}

/* The query ends: its answer (NB_OK, in ws->res) or an error; the tiles let go. */
static nb_status conclude(nb_world_aa *ws, nb_status st)
{
    if (st != NB_ERR_UNLOADED)
        ws->nneeded = 0;
    nbi_wpins_end(&ws->pins);
    ws->phase = st == NB_OK ? PH_DONE : PH_IDLE;
    return st;
}

/* NB_ERR_UNLOADED naming the missing tiles whose bound is below limit.  A sliced query
 * keeps its place (the game loads them and steps again); find's ends. */
static nb_status unloaded(nb_world_aa *ws, double limit, nb_err *err)
{
    nbi_wpins *p = &ws->pins;
    size_t n = nbi_wpins_needed(p, limit, NULL, 0);
    nb_status st = nbi_wpins_unloaded(p, limit, n, err);
    nbi_world_aa_mark_needed(ws, limit, n);
    return ws->lazy ? st : conclude(ws, st);
}

/* The ends: read whatever the bound; blocked ends and ends apart answered here. */
static nb_status ends(nb_world_aa *ws, nb_err *err)
{
    const nb_world *w = ws->w;
    const nb_aa_query *q = &ws->q;
    nbi_wpins *p = &ws->pins;
    int s = nbi_wpins_stands(p, ws->ov, q->start.x, q->start.y, -INFINITY);
    int g = nbi_wpins_stands(p, ws->ov, q->goal.x, q->goal.y, -INFINITY);
    if (p->st != NB_OK)
        return p->st; /* the caller ends the query with it */
    if (s < 0 || (g < 0 && !q->partial))
        return unloaded(ws, INFINITY, err);
    if (s == 0) {
        ws->res.status = NB_PATH_START_BLOCKED;
        return conclude(ws, NB_OK);
    }
    if (g == 0 && !q->partial) {
        ws->res.status = NB_PATH_GOAL_BLOCKED;
        return conclude(ws, NB_OK);
    }
    /* Blocks only take cells away: the world's components still prove "no path". */
    size_t ci;
    if (!q->partial && nbi_world_comp_of(w, q->capability, q->size, &ci)) {
        const nbi_stile *ts = p->v[nbi_wtile_index(w, (uint32_t)q->start.x, (uint32_t)q->start.y)].t;
        const nbi_stile *tg = p->v[nbi_wtile_index(w, (uint32_t)q->goal.x, (uint32_t)q->goal.y)].t;
        if (nbi_world_component(w, ts, ci, q->start) != nbi_world_component(w, tg, ci, q->goal))
            return conclude(ws, NB_OK);
    }
    search_begin(ws);
    ws->res.searched = 1;
    ws->phase = PH_SEARCH;
    return NB_OK;
}

/* The search has ended (ws->end): its answer. */
static nb_status answer(nb_world_aa *ws, nb_err *err)
{
    const nb_aa_query *q = &ws->q;
    nb_aa_result *res = &ws->res;
    res->expanded = ws->expanded;
    if (ws->end == END_NOMEM)
        return conclude(ws, nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for the search's nodes",
                                     FAMILY));
    /* The goal's tile missing for a partial query: the search ran out without it. */
    if (!ws->lazy && nbi_wpins_needed(&ws->pins, ws->stop, NULL, 0))
        return unloaded(ws, ws->stop, err);
    if (ws->end == END_EXHAUSTED && !q->partial)
        return conclude(ws, NB_OK);
    if (ws->end == END_LIMIT && (ws->start_slot == NBI_POOL_NONE || ws->expanded == 0)) {
        res->status = NB_PATH_LIMIT;
        return conclude(ws, NB_OK);
    }
    res->status = ws->end == END_FOUND ? NB_PATH_FOUND : ws->end == END_LIMIT ? NB_PATH_LIMIT
                                                                              : NB_PATH_PARTIAL;
    if (!walk_back(ws, ws->at, ws->start_slot, res)) {
        res->status = NB_PATH_NONE;
        return conclude(ws, nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for a path", FAMILY));
    }
    return conclude(ws, NB_OK);
}

static nb_status step(nb_world_aa *ws, uint64_t expansions, int *done, nb_err *err)
{
    nbi_wpins *p = &ws->pins;
    nb_status st = NB_OK;
    *done = 0;
    if (ws->phase == PH_IDLE)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_aa_step: no query begun (nb_world_aa_begin)");
    if (ws->phase != PH_DONE && p->qid != ws->qid) {
        ws->phase = PH_IDLE;
        return nbi_fail(err, NB_ERR_ARG, "nb_world_aa_step: another query on this workspace "
                        "abandoned the one begun");
    }
    /* After a pause the game may have loaded tiles: the missing ones are read again. */
    if (ws->lazy && p->nmissing) {
        for (size_t i = 0; i < p->nmissing; i++)
            p->v[p->missing[i]].qid = 0;
        p->nmissing = 0;
    }
    ws->nneeded = ws->npneed = 0;
    if (ws->phase == PH_ENDS)
        st = ends(ws, err);
    if (st == NB_OK && ws->phase == PH_SEARCH) {
        run(ws, expansions);
        if (p->st == NB_OK && ws->end == END_PAUSED)
            st = nbi_fail(err, NB_ERR_UNLOADED, "%s: %s: %zu tile%s not loaded, (%u, %u) first "
                          "(nb_world_load, then step again)", ws->w->index->path, FAMILY,
                          ws->npneed, ws->npneed == 1 ? " is" : "s are", ws->pneed[0].column,
                          ws->pneed[0].row);
        else if (p->st == NB_OK && ws->end != END_RUNNING)
            st = answer(ws, err);
    }
    if (p->st != NB_OK && ws->phase != PH_IDLE) {
        if (err)
            *err = p->err;
        st = conclude(ws, p->st);
    }
    *done = ws->phase == PH_DONE || ws->phase == PH_IDLE;
    return st;
}

static nb_status finish(nb_world_aa *ws, nb_aa_result *res, nb_err *err)
{
    if (ws->phase == PH_IDLE)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_aa_finish: no query begun (nb_world_aa_begin)");
    if (ws->phase != PH_DONE) {
        /* Before the end: the best partial path so far. */
        ws->res.status = NB_PATH_LIMIT;
        ws->res.expanded = ws->expanded;
        if (ws->phase == PH_SEARCH && ws->expanded > 0 && ws->start_slot != NBI_POOL_NONE &&
            ws->pins.qid == ws->qid && !walk_back(ws, ws->best_limit, ws->start_slot, &ws->res)) {
            conclude(ws, NB_OK);
            ws->phase = PH_IDLE;
            return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for a path", FAMILY);
        }
        if (ws->pins.qid == ws->qid)
            nbi_wpins_end(&ws->pins);
    }
    ws->phase = PH_IDLE;
    *res = ws->res;
    return nbi_done(err, NB_OK);
}

nb_status nb_world_aa_begin(nb_world_aa *ws, const nb_aa_query *q, const nb_world_overlay *ov,
                            nb_err *err)
{
    if (!ws || !q)
        return nbi_fail(err, NB_ERR_ARG, "%s: a NULL workspace or query", FAMILY);
    return nbi_done(err, begin(ws, q, ov, 1, err));
}

nb_status nb_world_aa_step(nb_world_aa *ws, uint64_t expansions, int *done, nb_err *err)
{
    int d;
    if (!done)
        done = &d;
    *done = 0;
    if (!ws)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_aa_step: a NULL workspace");
    return nbi_done(err, step(ws, expansions, done, err));
}

nb_status nb_world_aa_finish(nb_world_aa *ws, nb_aa_result *res, nb_err *err)
{
    if (res) {
        memset(res, 0, sizeof *res);
        res->status = NB_PATH_NONE;
    }
    if (!ws || !res)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_aa_finish: a NULL workspace or result");
    return finish(ws, res, err);
}

nb_status nb_world_aa_find(nb_world_aa *ws, const nb_aa_query *q, const nb_world_overlay *ov,
                           nb_aa_result *res, nb_err *err)
{
    NBI_WQUERY_BEGIN(ws, q, res, FAMILY, err);
    int done;
    nb_status st = begin(ws, q, ov, 0, err);
    if (st == NB_OK)
        st = step(ws, UINT64_MAX, &done, err);
    if (st == NB_OK)
        return finish(ws, res, err);
    return st;
}
