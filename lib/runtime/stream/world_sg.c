/* world_sg.c: the optimal layer across a world's tiles as the public query
 * (nb_world_sg_find, navbake.h): nb_sg_find's query and result on world
 * cells, exact.  The world bundle's world_opt section (navbake world link,
 * opt_wsec.c) holds every tile's portals, their distances inside the tile
 * and the moves between tiles (opt_world.h says why their overlay is
 * exact).  A query joins its ends to their tiles' portals by a Dijkstra
 * inside each end's tile, runs A* over the overlay reading no tile (a
 * portal's row of distances unpacked as it is expanded), and walks the
 * path back into cells: a stretch between two portals of one tile by an A*
 * inside that tile, which finds a path of the stored distance, a move
 * between tiles as it is.  So it reads the ends' tiles and those its path
 * crosses, and names them when they are not loaded (NB_ERR_UNLOADED,
 * nb_world_sg_needed) unless the game set a loader and a budget.
 *
 * Under a world overlay that blocks cells the answer stays exact: the
 * tiles it edits (opt_edit.h) are searched cell by cell under it where
 * the query reads them (its ends joined, the path walked), and of a
 * portal's row when it is expanded only the distances the overlay may
 * change (edited_row; the others as stored), and those lazily: pushed at
 * their stored length, a bound, and searched (with the rest of their row
 * still pending) only when one comes first; every other tile keeps its
 * stored rows, a move between tiles
 * is taken only where the overlay leaves it legal, and the bounds, made
 * without the overlay, stay admissible (blocks only lengthen paths).
 *
 * Refused rather than answered wrongly: partial paths, terrain costs
 * (NB_ERR_NOTFOUND: the layer holds plain distances).
 *
 * The section is read in place from the world bundle's mapping
 * (opt_wview.c): the workspace holds a word or two per tile and the
 * search's per-node records, the pages of world_opt a query reads stay
 * in the mapping (nb_world_trim gives the borders back). */
#include <math.h>
#include <string.h>

#include "blocked/blocked.h"
#include "core/grid.h"
#include "stream/opt_edit.h"
#include "stream/opt_world.h"
#include "stream/wquery.h"

#define FAMILY "world optimal layer"
#define NONE UINT32_MAX

/* A query's place (the sliced form): its ends joined, the search over the
 * portals, the path walked into cells. */
enum { PH_IDLE, PH_ENDS, PH_SEARCH, PH_WALK, PH_DONE };

typedef struct search_out {
    double best;      /* INFINITY: none */
    uint32_t last;    /* the goal tile's portal the path leaves by; NONE: start to goal inside */
    uint64_t expanded;
    int limit, ended;
} search_out;

/* Portal j of tile t reached from node u (portal i there, g its cost). */
struct pend {
    double g;
    uint32_t u, t, i, j;
};

/* A node's record in this workspace's search. */
typedef struct node_rec {
    double g, h;  /* h: its bound to the goal, set when first seen */
    uint32_t parent, seen, closed, pad; /* seen, closed: == stamp this query */
} node_rec;

/* Node records by pages of 1 << REC_BITS ids, each zeroed at its first
 * touch and kept: the records follow the nodes searches reach, not the
 * world's portals (32 bytes a portal over the world: tens of MB at
 * 32768^2, past a walker's 64 MB). */
enum { REC_BITS = 10, REC_PAGE = 1 << REC_BITS };

/* One (capability, size, corner rule) the queries asked for. */
typedef struct agent_ws {
    nbi_wopv o;       /* the section read in place */
    nb_cell *tc;     /* maxp + 1: tile tc_tile's portals' cells */
    uint32_t tc_tile;
    node_rec **page; /* (nodes >> REC_BITS) + 1 pages, NULL until touched */
    size_t npages, touched;
    uint32_t stamp;
    double *row, *to_goal; /* maxp + 1 each */
    /* This query's landmark bounds (ALT): from landmark k the goal lies at
     * least lo[k] - d(k, v) and d(k, v) - hi[k] from node v; use[k] 0
     * when the goal's tile has no portal the landmark reaches. */
    double lo[NBI_WOPT_MAX_LANDMARKS], hi[NBI_WOPT_MAX_LANDMARKS];
    uint8_t use[NBI_WOPT_MAX_LANDMARKS];
    nbi_heap heap; /* no positions: a node pushed again, its stale items skipped */
    nbi_oedit ed; /* the tiles the query's overlay edits, with the rows read under it */
    /* Distances inside an edited tile the overlay may lengthen, each met at
     * its stored length (a bound: blocks only lengthen paths) and pushed so,
     * as heap id nodes + k: searched only when it comes first (lazy). */
    struct pend *pend;
    size_t npend, pendcap;
} agent_ws;

/* Node v's record, known touched. */
#define REC(g, v) (&(g)->page[(v) >> REC_BITS][(v) & (REC_PAGE - 1)])

struct nb_world_sg {
    const nb_world *w;
    const nb_allocator *a;
    agent_ws *ag;
    size_t nag;
    nb_world_tile *needed;
    size_t nneeded, ntiles;
    nbi_wpins pins;
    nbi_csearch cs;     /* a tile's box; made at the first query */
    int has_cs;
    nb_cell *seg;       /* a stretch inside a tile (the box's cells) */
    nb_cell *path, *way;
    size_t pcap, wcap;
    uint32_t *chain;    /* the overlay path's nodes, goal first */
    size_t ccap;
    /* The query begun (nb_world_sg_begin) and how far it went. */
    int phase, corner;
    nb_sg_query q;
    const nb_world_overlay *ov;
    agent_ws *g;
    search_out r;
    nb_sg_result res;
    uint64_t kept, searched; /* edited tiles' distances kept as stored, searched again */
};

nb_status nb_world_sg_open(const nb_world *w, nb_world_sg **out, nb_err *err)
{
    if (out)
        *out = NULL;
    if (!w || !out)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_sg_open: a NULL world or out");
    const nb_allocator *a = w->index->a;
    nb_world_sg *ws = nbi_zalloc_array(a, 1, sizeof *ws);
    if (!ws)
        return nbi_fail_nomem(err, "a world optimal workspace");
    ws->w = w;
    ws->a = a;
    ws->ntiles = (size_t)w->x.columns * w->x.rows;
    if (!(ws->needed = nbi_alloc_array(a, ws->ntiles, sizeof *ws->needed)) ||
        !nbi_wpins_init(&ws->pins, w)) {
        nb_world_sg_close(ws);
        return nbi_fail_nomem(err, "a world optimal workspace");
    }
    *out = ws;
    return nbi_done(err, NB_OK);
}

static void agent_free(const nb_allocator *a, agent_ws *g)
{
    nbi_wopv_free(&g->o);
    nbi_free(a, g->tc);
    for (size_t i = 0; g->page && i < g->npages; i++)
        nbi_free(a, g->page[i]);
    nbi_free(a, g->page);
    nbi_free(a, g->row);
    nbi_free(a, g->to_goal);
    nbi_heap_free(&g->heap);
    nbi_oedit_free(&g->ed);
    nbi_free(a, g->pend);
}

void nb_world_sg_close(nb_world_sg *ws)
{
    if (!ws)
        return;
    nbi_wpins_end(&ws->pins);
    for (size_t i = 0; i < ws->nag; i++)
        agent_free(ws->a, &ws->ag[i]);
    nbi_free(ws->a, ws->ag);
    nbi_free(ws->a, ws->needed);
    if (ws->pins.v)
        nbi_wpins_free(&ws->pins);
    if (ws->has_cs)
        nbi_csearch_free(&ws->cs);
    nbi_free(ws->a, ws->seg);
    nbi_free(ws->a, ws->path);
    nbi_free(ws->a, ws->way);
    nbi_free(ws->a, ws->chain);
    nbi_free(ws->a, ws);
}

size_t nb_world_sg_bytes(const nb_world_sg *ws)
{
    if (!ws)
        return 0;
    size_t n = sizeof *ws + ws->ntiles * sizeof *ws->needed + nbi_wpins_bytes(&ws->pins) +
               (ws->has_cs ? nbi_csearch_bytes(&ws->cs) : 0) +
               (ws->seg ? (size_t)ws->w->x.side * ws->w->x.side * sizeof *ws->seg : 0) +
               (ws->pcap + ws->wcap) * sizeof *ws->path + ws->ccap * sizeof *ws->chain;
    for (size_t i = 0; i < ws->nag; i++) {
        const agent_ws *g = &ws->ag[i];
        size_t m = (size_t)g->o.maxp + 1;
        /* The section itself is the mapping's (nb_world_bytes). */
        n += sizeof *g + g->npages * sizeof *g->page + g->touched * REC_PAGE * sizeof(node_rec) +
             ((size_t)g->o.tiles + 1) * (sizeof *g->o.first + sizeof *g->o.lbase + 1) +
             m * (2 * sizeof *g->row + sizeof *g->tc) + nbi_heap_bytes(&g->heap) +
             nbi_oedit_bytes(&g->ed) + g->pendcap * sizeof *g->pend;
    }
    return n;
}

size_t nb_world_sg_needed(const nb_world_sg *ws, nb_world_tile *needed, size_t max)
{
    if (!ws)
        return 0;
    for (size_t i = 0; needed && i < ws->nneeded && i < max; i++)
        needed[i] = ws->needed[i];
    return ws->nneeded;
}

/* The layer for (cap, size, corner), read and checked at its first query. */
static nb_status agent_of(nb_world_sg *ws, nb_capability cap, uint32_t size, int corner,
                          agent_ws **out, nb_err *err)
{
    for (size_t i = 0; i < ws->nag; i++)
        if (ws->ag[i].o.capability == cap && ws->ag[i].o.size == size &&
            ws->ag[i].o.corner == (uint32_t)corner) {
            *out = &ws->ag[i];
            return NB_OK;
        }
    const nb_bundle *b = ws->w->index;
    long at = -1;
    for (size_t i = 0; i < b->nsections && at < 0; i++)
        if (b->sections[i].info.type == NB_SEC_WORLD_OPT && b->sections[i].info.param[0] == cap &&
            b->sections[i].info.param[1] == size && b->sections[i].info.param[2] == (uint32_t)corner)
            at = (long)i;
    if (at < 0)
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: %s: no optimal layer across tiles for capability %#x, size %u and "
                        "the %s corner rule (the manifest's `optimal: 1` bakes the strict one)",
                        b->path, FAMILY, cap, size, corner ? "weak" : "strict");
    agent_ws *grown = nbi_realloc_array(ws->a, ws->ag, ws->nag + 1, sizeof *grown);
    if (!grown)
        return nbi_fail_nomem(err, "a world optimal workspace");
    ws->ag = grown;
    agent_ws *g = &ws->ag[ws->nag];
    memset(g, 0, sizeof *g);
    nb_status st = nbi_wopv_open(b, (size_t)at, &ws->w->x, ws->a, &g->o, err);
    if (st != NB_OK)
        return st;
    size_t n = (size_t)g->o.nodes + 1, m = (size_t)g->o.maxp + 1;
    g->npages = (n >> REC_BITS) + 1;
    g->page = nbi_zalloc_array(ws->a, g->npages, sizeof *g->page);
    g->row = nbi_alloc_array(ws->a, m, sizeof *g->row);
    g->to_goal = nbi_alloc_array(ws->a, m, sizeof *g->to_goal);
    g->tc = nbi_alloc_array(ws->a, m, sizeof *g->tc);
    g->tc_tile = NONE;
    if (!g->page || !g->row || !g->to_goal || !g->tc ||
        !nbi_heap_init(&g->heap, ws->a, 1024, NULL) || !nbi_oedit_init(&g->ed, ws->w, size)) {
        agent_free(ws->a, g);
        return nbi_fail_nomem(err, "a world optimal workspace");
    }
    ws->nag++;
    *out = g;
    return NB_OK;
}

/* The query's own faults, in the order of nb_sg_find's, then what is not
 * answered across tiles. */
static nb_status check(const nb_world_sg *ws, const nb_sg_query *q, const nb_world_overlay *ov,
                       nb_err *err)
{
    nb_status st;
    if ((st = nbi_query_size(err, FAMILY, q->size)) != NB_OK)
        return st;
    if ((unsigned)q->corner > NB_CORNER_WEAK)
        return nbi_fail(err, NB_ERR_ARG, "%s: unknown corner rule %d", FAMILY, (int)q->corner);
    if (q->overlay)
        return nbi_fail(err, NB_ERR_ARG, "%s: an overlay of one bundle (nb_overlay) cannot block "
                        "a world's cells", FAMILY);
    if ((st = nbi_wopv_check(ov, ws->w, FAMILY, err)) != NB_OK)
        return st;
    if ((st = nbi_query_cell(err, FAMILY, "start", q->start, ws->w->x.width, ws->w->x.height)) !=
            NB_OK ||
        (st = nbi_query_cell(err, FAMILY, "goal", q->goal, ws->w->x.width, ws->w->x.height)) !=
            NB_OK)
        return st;
    if (q->costs)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the layer across tiles holds no terrain "
                        "costs (nb_world_aa_find answers agents with costs)", FAMILY);
    return NB_OK;
}

/* What the layer cannot honour, once it is known to be baked. */
static nb_status check_unsupported(const nb_sg_query *q, nb_err *err)
{
    if (q->partial)
        return nbi_query_unsupported(err, FAMILY, "partial paths (nb_world_aa_find answers them)");
    return NB_OK;
}

/* The view of tile ti, pinned; missing ones are remembered as needed. */
static nbi_wview *view(nb_world_sg *ws, uint32_t ti)
{
    nbi_wview *v = nbi_wpins_view(&ws->pins, ti);
    if (v->state == NBI_WV_MISSING)
        v->miss = 0;
    return v;
}

/* NB_ERR_UNLOADED with the needed list, or the error a tile's view met. */
static nb_status missing(nb_world_sg *ws, nb_err *err)
{
    if (ws->pins.st != NB_OK) {
        if (err)
            *err = ws->pins.err;
        return ws->pins.st;
    }
    ws->nneeded = nbi_wpins_needed(&ws->pins, INFINITY, ws->needed, ws->ntiles);
    return nbi_wpins_unloaded(&ws->pins, INFINITY, ws->nneeded, err);
}

/* An edited tile the search reads is not loaded: NB_ERR_UNLOADED naming
 * it, and the query begins again from its ends once it is. */
static nb_status restart(nb_world_sg *ws, nb_err *err)
{
    ws->phase = PH_ENDS;
    return missing(ws, err);
}

static nbi_box core_box(const nbi_wtile *t)
{
    nbi_box b = {(int32_t)t->core_x, (int32_t)t->core_y, (int32_t)(t->core_x + t->core_w),
                 (int32_t)(t->core_y + t->core_h)};
    return b;
}

/* Distances inside tile v from world cell c to the n portals (world cells
 * cell[]) into out (-1: not reached), and to other when not NULL. */
static double from_cell(nb_world_sg *ws, const nbi_wview *v, uint32_t size, int corner, nb_cell c,
                        const nb_cell *cell, uint32_t n, double *out, const nb_cell *other)
{
    const nbi_wtile *t = &v->t->tag;
    nb_cell o = {(int32_t)t->origin_x, (int32_t)t->origin_y};
    for (uint32_t i = 0; i < n; i++)
        ws->seg[i] = (nb_cell){cell[i].x - o.x, cell[i].y - o.y};
    uint32_t nt = n;
    if (other)
        ws->seg[nt++] = (nb_cell){other->x - o.x, other->y - o.y};
    nbi_box box = core_box(t);
    nbi_csearch_run(&ws->cs, &v->clear, size, corner, &box, (nb_cell){c.x - o.x, c.y - o.y}, NULL,
                    ws->seg, nt);
    for (uint32_t i = 0; i < n; i++)
        out[i] = nbi_csearch_cost(&ws->cs, ws->seg[i], NULL);
    return other ? nbi_csearch_cost(&ws->cs, ws->seg[n], NULL) : -1;
}

/* Sets the search inside tile v to read the overlay's cells there when the
 * overlay edits it (none else); 0 without memory. */
static int tile_overlay(nb_world_sg *ws, const nbi_wview *v)
{
    agent_ws *g = ws->g;
    uint32_t ti = v->t->index;
    nbi_oedit_tile *e = nbi_oedit_of(&g->ed, ti);
    ws->cs.ov = NULL;
    if (!e)
        return 1;
    ws->cs.ov = nbi_oedit_overlay(&g->ed, e, v->t, g->o.first[ti + 1] - g->o.first[ti]);
    return ws->cs.ov != NULL;
}

static void tile_cells(agent_ws *g, uint32_t t);

/* A stored distance d(p, q) of an edited tile stands under the overlay
 * unless a shortest path between them meets a cell the overlay takes from
 * the agent (then dk(p) + dk(q) <= d, dk the baked distance to the
 * nearest such cell) or a diagonal whose corner it takes (that corner is a
 * cardinal step from both ends: dk(p) + dk(q) <= d + 2 - sqrt 2).  Blocks
 * only take cells away, so a path the overlay leaves whole is still a
 * shortest one.  The margin rounds toward a search. */
#define KEEP_MARGIN (2.0 - NBI_SQRT2 + 1e-6)

/* e->dk for the tile of view v (n portals, cells in g->tc): one Dijkstra
 * inside it, without the overlay, from every cell where the agent stood
 * at the bake and the overlay's cells now leave no room. */
static void block_distances(nb_world_sg *ws, nbi_oedit_tile *e, const nbi_wview *v, uint32_t n)
{
    agent_ws *g = ws->g;
    const nbi_wtile *t = &v->t->tag;
    uint32_t s = g->o.size;
    nbi_box box = core_box(t);
    int seeded = 0;
    const nb_overlay *ov = ws->cs.ov;
    for (uint32_t j = 0; j < n; j++)
        ws->seg[j] = (nb_cell){g->tc[j].x - (int32_t)t->origin_x, g->tc[j].y - (int32_t)t->origin_y};
    ws->cs.ov = NULL;
    for (size_t k = 0; k < e->ncell; k++) {
        int32_t bx = e->cell[k].x - (int32_t)t->origin_x, by = e->cell[k].y - (int32_t)t->origin_y;
        /* The cells whose square holds it, in the box, standing at the bake. */
        for (int32_t y = by - (int32_t)s + 1; y <= by; y++)
            for (int32_t x = bx - (int32_t)s + 1; x <= bx; x++) {
                if (x < box.x0 || y < box.y0 || x >= box.x1 || y >= box.y1 ||
                    !nbi_standable(&v->clear, s, x, y))
                    continue;
                if (!seeded++)
                    nbi_csearch_start(&ws->cs, &v->clear, s, ws->corner, &box, (nb_cell){x, y},
                                      NULL, ws->seg, n);
                else
                    nbi_csearch_also(&ws->cs, (nb_cell){x, y});
            }
    }
    if (seeded)
        nbi_csearch_step(&ws->cs, UINT64_MAX);
    for (uint32_t j = 0; j < n; j++)
        e->dk[j] = seeded ? nbi_csearch_cost(&ws->cs, ws->seg[j], NULL) : -1;
    ws->cs.ov = ov;
    e->dk_ok = 1;
}

/* Row i of edited tile ti under the overlay, from its stored row (in
 * g->row): each distance the overlay may change marked PENDING (searched
 * by pair_distance when the search needs it), the others kept; made at its
 * first read under this overlay and kept.  NULL without memory, or when
 * the tile is not loaded (its view says). */
#define PENDING (-2.0)
static const double *edited_row(nb_world_sg *ws, nbi_oedit_tile *e, uint32_t ti, uint32_t i)
{
    agent_ws *g = ws->g;
    uint32_t n = g->o.first[ti + 1] - g->o.first[ti];
    nbi_wview *v = view(ws, ti);
    if (v->state != NBI_WV_LOADED || !tile_overlay(ws, v))
        return NULL;
    double *row = e->rows + (size_t)i * n;
    if (e->have[i])
        return row;
    tile_cells(g, ti);
    if (!e->dk_ok)
        block_distances(ws, e, v, n);
    const double *dk = e->dk;
    uint32_t m = 0;
    for (uint32_t j = 0; j < n; j++) {
        double d = g->row[j];
        row[j] = d;
        if (j == i || d < 0 || dk[i] < 0 || dk[j] < 0 || dk[i] + dk[j] > d + KEEP_MARGIN)
            continue;
        row[j] = PENDING;
        m++;
    }
    ws->kept += n - 1 - m;
    e->have[i] = 1;
    return row;
}

/* The distance inside edited tile ti under the overlay from its portal i
 * to its portal j: its row's entry, or when PENDING every pending entry of
 * the row searched now (one Dijkstra toward them) and kept; an A* to j
 * alone when the row was dropped since (the tile loaded again).  -1 when
 * not joined, -3 when the tile is not loaded or without memory. */
static double pair_distance(nb_world_sg *ws, nbi_oedit_tile *e, uint32_t ti, uint32_t i,
                            uint32_t j)
{
    agent_ws *g = ws->g;
    uint32_t n = g->o.first[ti + 1] - g->o.first[ti];
    double *row = e->rows + (size_t)i * n;
    if (e->have[i] && row[j] != PENDING)
        return row[j];
    nbi_wview *v = view(ws, ti);
    if (v->state != NBI_WV_LOADED || !tile_overlay(ws, v))
        return -3;
    const nbi_wtile *t = &v->t->tag;
    nbi_box box = core_box(t);
    tile_cells(g, ti);
    nb_cell a = {g->tc[i].x - (int32_t)t->origin_x, g->tc[i].y - (int32_t)t->origin_y};
    if (!e->have[i]) {
        nb_cell b = {g->tc[j].x - (int32_t)t->origin_x, g->tc[j].y - (int32_t)t->origin_y};
        ws->searched++;
        return nbi_csearch_run(&ws->cs, &v->clear, g->o.size, ws->corner, &box, a, &b, NULL, 0)
                   ? nbi_csearch_cost(&ws->cs, b, NULL)
                   : -1;
    }
    /* Every distance of the row still pending, by one search toward them. */
    uint32_t m = 0;
    for (uint32_t k = 0; k < n; k++)
        if (row[k] == PENDING)
            ws->seg[m++] = (nb_cell){g->tc[k].x - (int32_t)t->origin_x,
                                     g->tc[k].y - (int32_t)t->origin_y};
    nbi_csearch_run(&ws->cs, &v->clear, g->o.size, ws->corner, &box, a, NULL, ws->seg, m);
    for (uint32_t k = 0; k < n; k++)
        if (row[k] == PENDING)
            row[k] = nbi_csearch_cost(&ws->cs,
                                      (nb_cell){g->tc[k].x - (int32_t)t->origin_x,
                                                g->tc[k].y - (int32_t)t->origin_y},
                                      NULL);
    ws->searched += m;
    return row[j];
}

/* 1 when the overlay leaves the baked move m from world cell c legal: the
 * cell it enters has room, and a diagonal's corner cells as the rule needs
 * them (the bake found both standable under the strict rule; under the
 * weak one the other may be a wall, so a corner left alone is read); -1
 * when that needs a tile that is not loaded. */
static int move_open(nb_world_sg *ws, nb_cell c, unsigned m)
{
    const nb_world_overlay *ov = ws->ov;
    uint32_t s = ws->q.size;
    int32_t dx = nbi_move_dx[m], dy = nbi_move_dy[m];
    if (!nbi_wov_room(ov, s, (uint32_t)(c.x + dx), (uint32_t)(c.y + dy)))
        return 0;
    if (!NBI_MOVE_IS_DIAGONAL(m))
        return 1;
    int a = nbi_wov_room(ov, s, (uint32_t)(c.x + dx), (uint32_t)c.y),
        b = nbi_wov_room(ov, s, (uint32_t)c.x, (uint32_t)(c.y + dy));
    if (a && b)
        return 1;
    if (ws->corner == NBI_CORNER_STRICT || (!a && !b))
        return 0;
    return a ? nbi_wpins_stands(&ws->pins, NULL, c.x + dx, c.y, 0)
             : nbi_wpins_stands(&ws->pins, NULL, c.x, c.y + dy, 0);
}

static int grow(nb_world_sg *ws, nb_cell **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 1;
    size_t n = *cap * 2 > need ? *cap * 2 : need + 64;
    nb_cell *p = nbi_realloc_array(ws->a, *buf, n, sizeof *p);
    if (!p)
        return 0;
    *buf = p;
    *cap = n;
    return 1;
}

/* Appends the path inside tile v from a to b (world cells; a is the last
 * cell of the path so far). */
static nb_status stretch(nb_world_sg *ws, const nbi_wview *v, uint32_t size, int corner, nb_cell a,
                         nb_cell b, size_t *len, nb_err *err)
{
    const nbi_wtile *t = &v->t->tag;
    nb_cell o = {(int32_t)t->origin_x, (int32_t)t->origin_y};
    nb_cell la = {a.x - o.x, a.y - o.y}, lb = {b.x - o.x, b.y - o.y};
    nbi_box box = core_box(t);
    if (!tile_overlay(ws, v))
        return nbi_fail_nomem(err, "a world overlay's cells in a tile");
    if (!nbi_csearch_run(&ws->cs, &v->clear, size, corner, &box, la, &lb, NULL, 0))
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: tile (%u, %u): no path inside it from (%d, %d) to (%d, %d), which "
                        "the world bundle's optimal layer joins: a tile of another bake",
                        FAMILY, t->column, t->row, a.x, a.y, b.x, b.y);
    size_t n = nbi_csearch_path(&ws->cs, lb, ws->seg);
    if (!grow(ws, &ws->path, &ws->pcap, *len + n))
        return nbi_fail_nomem(err, "a world optimal path");
    for (size_t i = 1; i < n; i++)
        ws->path[(*len)++] = (nb_cell){ws->seg[i].x + o.x, ws->seg[i].y + o.y};
    return NB_OK;
}

/* The turning points of the cell path: where its move changes. */
static nb_status turning_points(nb_world_sg *ws, size_t len, size_t *out, nb_err *err)
{
    size_t n = 0;
    if (!grow(ws, &ws->way, &ws->wcap, len + 1))
        return nbi_fail_nomem(err, "a world optimal path");
    for (size_t i = 0; i < len; i++) {
        if (i > 0 && i + 1 < len) {
            int dx0 = ws->path[i].x - ws->path[i - 1].x, dy0 = ws->path[i].y - ws->path[i - 1].y;
            int dx1 = ws->path[i + 1].x - ws->path[i].x, dy1 = ws->path[i + 1].y - ws->path[i].y;
            if (dx0 == dx1 && dy0 == dy1)
                continue;
        }
        ws->way[n++] = ws->path[i];
    }
    *out = n;
    return NB_OK;
}

/* Node v's bound to the goal: the octile distance, or a landmark's
 * triangle inequality (each a distance over the portal graph, so
 * consistent; their maximum too). */
static double bound(const agent_ws *g, uint32_t v, nb_cell c, nb_cell goal)
{
    double b = nbi_octile_cells(c.x, c.y, goal.x, goal.y);
    const uint32_t k = g->o.nland;
    for (uint32_t i = 0; i < k; i++) {
        if (!g->use[i])
            continue;
        double d = nbi_wopv_ld(&g->o, v, i);
        if (d < 0)
            continue;
        double x = g->lo[i] - d, y = d - g->hi[i];
        x = x > y ? x : y;
        b = x > b ? x : b;
    }
    return b;
}

/* The landmark bounds of a goal whose tile's portals from g0 lie to_goal
 * from it: the goal is a path from some portal q away, so from landmark k
 * at least min_q (d(k, q) + to_goal(q)) - d(k, v) and
 * d(k, v) - max_q (d(k, q) - to_goal(q)) from v. */
static void goal_bounds(agent_ws *g, uint32_t g0, uint32_t n)
{
    const uint32_t k = g->o.nland;
    for (uint32_t i = 0; i < k; i++) {
        double lo = INFINITY, hi = -INFINITY;
        for (uint32_t q = 0; q < n; q++) {
            double d = nbi_wopv_ld(&g->o, g0 + q, i), t = g->to_goal[q];
            if (d < 0 || t < 0)
                continue;
            lo = d + t < lo ? d + t : lo;
            hi = d - t > hi ? d - t : hi;
        }
        g->use[i] = !isinf(lo);
        g->lo[i] = lo, g->hi[i] = hi;
    }
}

/* Node v's record, its page zeroed at its first touch; NULL without
 * memory. */
static node_rec *rec_of(agent_ws *g, uint32_t v)
{
    node_rec **p = &g->page[v >> REC_BITS];
    if (!*p) {
        if (!(*p = nbi_zalloc_array(g->o.a, REC_PAGE, sizeof **p)))
            return NULL;
        g->touched++;
    }
    return &(*p)[v & (REC_PAGE - 1)];
}

/* Node v (at cell c, its tile checked) reached from u at cost ng; 0
 * without memory. */
static int relax(agent_ws *g, uint32_t u, uint32_t v, nb_cell c, double ng, nb_cell goal)
{
    const uint32_t st = g->stamp;
    node_rec *r = rec_of(g, v);
    if (!r)
        return 0;
    if (r->seen != st)
        r->seen = st, r->h = bound(g, v, c, goal);
    else if (r->closed == st || ng >= r->g)
        return 1;
    r->g = ng, r->parent = u;
    return nbi_heap_push(&g->heap, ng + r->h, 0, v);
}

/* Tile t's portals' cells in g->tc (t checked). */
static void tile_cells(agent_ws *g, uint32_t t)
{
    if (g->tc_tile != t)
        nbi_wopv_cells(&g->o, t, g->tc), g->tc_tile = t;
}

/* Portal i's stored row of tile t (n portals, bp its border) into g->row,
 * its portals' cells in g->tc; 0 when it does not decode. */
static int stored_row(agent_ws *g, uint32_t t, const uint8_t *bp, uint32_t n, uint32_t i)
{
    const uint8_t *rows = bp + NBI_OBORDER_HEADER + (size_t)n * NBI_OBORDER_PORTAL,
                  *packed = rows + 4 * ((size_t)n + 1) +
                            (size_t)nbi_get32(bp + NBI_OBORDER_LINKS) * NBI_OBORDER_LINK;
    uint32_t r0 = nbi_u32at(rows, i), r1 = nbi_u32at(rows, i + 1);
    tile_cells(g, t);
    return nbi_optb_unpack_row(packed + r0, r1 - r0, g->tc, n, i, g->row);
}

static nb_status bad_row(const agent_ws *g, uint32_t t, uint32_t i, uint32_t n, nb_err *err)
{
    const nbi_wopv *o = &g->o;
    return nbi_fail(err, NB_ERR_FORMAT,
                    "%s: tile (%u, %u): the packed distances of its portal %u (%d, %d) are not a "
                    "row of %u",
                    o->where, t % o->x->columns, t / o->x->columns, i, g->tc[i].x, g->tc[i].y, n);
}

/* u's moves to other tiles (u portal i of tile t at cell c, bp its
 * border): links are by portal, so its own are found by halving; each
 * move's tile checked before its node is read. */
static nb_status moves_out(nb_world_sg *ws, uint32_t u, uint32_t t, const uint8_t *bp,
                           uint32_t n, uint32_t i, nb_cell c, double gu, nb_cell goal, nb_err *err)
{
    agent_ws *g = ws->g;
    nbi_wopv *o = &g->o;
    const int edits = ws->ov && ws->ov->blocked;
    uint32_t nl = nbi_get32(bp + NBI_OBORDER_LINKS), lo = 0, hi = nl;
    const uint8_t *links =
        bp + NBI_OBORDER_HEADER + (size_t)n * NBI_OBORDER_PORTAL + 4 * ((size_t)n + 1);
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (nbi_get16(links + (size_t)mid * NBI_OBORDER_LINK + NBI_OBORDER_L_PORTAL) < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint32_t l = lo; l < nl; l++) {
        const uint8_t *q = links + (size_t)l * NBI_OBORDER_LINK;
        if (nbi_get16(q + NBI_OBORDER_L_PORTAL) != i)
            break;
        unsigned m = q[NBI_OBORDER_L_MOVE];
        nb_cell to = {c.x + nbi_move_dx[m], c.y + nbi_move_dy[m]};
        nb_status st = nbi_wopv_tile(o, nbi_wopt_tile(o->x, to), err);
        if (st != NB_OK)
            return st;
        int open = edits ? move_open(ws, c, m) : 1;
        if (open < 0)
            return restart(ws, err);
        if (open && !relax(g, u, nbi_u32at(o->target, (size_t)o->lbase[t] + l), to,
                   gu + nbi_move_cost(m), goal))
            return nbi_fail_nomem(err, "a world optimal search");
    }
    return NB_OK;
}

/* Portal j of edited tile t (cell g->tc[j]) met from u (its portal i, at
 * cost gu) at the stored distance d, which the overlay may lengthen:
 * pushed at gu + d as a pending item, searched only if it comes first
 * (settle_pending); 0 without memory. */
static int later(agent_ws *g, uint32_t u, double gu, uint32_t t, uint32_t i, uint32_t j, double d,
                 nb_cell goal)
{
    const double lb = gu + d;
    const uint32_t st = g->stamp, v = g->o.first[t] + j;
    node_rec *r = rec_of(g, v);
    if (!r)
        return 0;
    if (r->seen != st) /* seen with no path yet: its bound set */
        r->seen = st, r->h = bound(g, v, g->tc[j], goal), r->g = INFINITY, r->parent = NONE;
    else if (r->closed == st || lb >= r->g)
        return 1;
    if (g->npend == g->pendcap) {
        size_t cap = g->pendcap;
        if ((uint64_t)g->o.nodes + cap * 2 + 64 >= UINT32_MAX ||
            !nbi_grow(g->o.a, (void **)&g->pend, &cap, g->npend + 1, sizeof *g->pend))
            return 0;
        g->pendcap = cap;
    }
    g->pend[g->npend] = (struct pend){gu, u, t, i, j};
    return nbi_heap_push(&g->heap, lb + r->h, 0, g->o.nodes + (uint32_t)g->npend++);
}

/* Pending item k come first: its distance searched, then its portal
 * relaxed as any other (pushed at its true length, never less than the
 * bound it came at). */
static nb_status settle_pending(nb_world_sg *ws, size_t k, nb_cell goal, nb_err *err)
{
    agent_ws *g = ws->g;
    const struct pend p = g->pend[k];
    uint32_t v = g->o.first[p.t] + p.j;
    node_rec *r = REC(g, v);
    if (r->closed == g->stamp)
        return NB_OK;
    double d = pair_distance(ws, nbi_oedit_of(&g->ed, p.t), p.t, p.i, p.j);
    if (d < -2)
        return ws->pins.nmissing || ws->pins.st != NB_OK
                   ? restart(ws, err)
                   : nbi_fail_nomem(err, "a world optimal search");
    if (d < 0)
        return NB_OK;
    tile_cells(g, p.t);
    return relax(g, p.u, v, g->tc[p.j], p.g + d, goal) ? NB_OK
                                                      : nbi_fail_nomem(err, "a world optimal search");
}

/* A* over the overlay from the start's tile's portals (g set, seen
 * stamped) to the goal (to_goal over its tile's portals from g0), at most
 * budget portals settled now; r->ended once it has ended.  Every node
 * seen has its tile checked (nbi_wopv_tile); a row that does not decode is
 * refused. */
static nb_status search(nb_world_sg *ws, nb_cell goal, uint32_t g0, uint64_t max,
                        uint64_t budget, search_out *r, nb_err *err)
{
    agent_ws *g = ws->g;
    const int edits = ws->ov && ws->ov->blocked;
    nbi_wopv *o = &g->o;
    const uint32_t st = g->stamp;
    for (uint64_t done = 0; !nbi_heap_empty(&g->heap); done++) {
        if (done >= budget)
            return NB_OK;
        nbi_heap_item it = nbi_heap_pop(&g->heap);
        if (it.key >= r->best - 1e-9)
            break;
        if (max && r->expanded >= max) {
            r->limit = 1;
            break;
        }
        uint32_t u = it.id;
        if (u >= o->nodes) { /* a distance met at its stored length */
            nb_status s = settle_pending(ws, u - o->nodes, goal, err);
            if (s != NB_OK)
                return s;
            continue;
        }
        node_rec *ru = REC(g, u);
        if (ru->closed == st)
            continue; /* a stale item: u was pushed again with less */
        double gu = ru->g;
        ru->closed = st;
        r->expanded++;
        uint32_t t = nbi_wopv_tile_of(o, u), base = o->first[t], i = u - base,
                 n = o->first[t + 1] - base;
        const uint8_t *bp = nbi_wopv_border(o, t);
        if (base == g0 && g->to_goal[i] >= 0 && gu + g->to_goal[i] < r->best) {
            r->best = gu + g->to_goal[i];
            r->last = u;
        }
        /* Its row only when u entered its tile by a move from another:
         * reached from the start or by its tile's row from p, every
         * portal v of the tile already has g(v) <= g(p) + d(p, v) <=
         * g(u) + d(u, v), the rows being distances inside the tile (a
         * walk p to u to v is one). */
        uint32_t p = ru->parent;
        if (p != NONE && (p < base || p - base >= n)) {
            if (!stored_row(g, t, bp, n, i))
                return bad_row(g, t, i, n, err);
            const double *row = g->row;
            nbi_oedit_tile *ed = edits ? nbi_oedit_of(&g->ed, t) : NULL;
            if (ed && !(row = edited_row(ws, ed, t, i)))
                return ws->pins.nmissing || ws->pins.st != NB_OK
                           ? restart(ws, err)
                           : nbi_fail_nomem(err, "a world optimal search");
            tile_cells(g, t);
            for (uint32_t j = 0; j < n; j++) {
                if (j == i)
                    continue;
                int ok = row[j] == PENDING
                             ? later(g, u, gu, t, i, j, g->row[j], goal)
                             : row[j] < 0 || relax(g, u, base + j, g->tc[j], gu + row[j], goal);
                if (!ok)
                    return nbi_fail_nomem(err, "a world optimal search");
            }
        }
        nb_status s = moves_out(ws, u, t, bp, n, i, nbi_wopv_cell(o, t, i), gu, goal, err);
        if (s != NB_OK)
            return s;
    }
    r->ended = 1;
    return NB_OK;
}

/* The path as it is before the search's end: the start alone, as a search
 * stopped at its limit. */
static nb_status start_alone(nb_world_sg *ws, nb_sg_result *res, nb_err *err)
{
    if (!grow(ws, &ws->path, &ws->pcap, 1))
        return nbi_fail_nomem(err, "a world optimal path");
    ws->path[0] = ws->q.start;
    res->status = NB_PATH_LIMIT;
    res->path = ws->path, res->path_len = 1;
    return NB_OK;
}

/* The query's ends: each joined to its tile's portals (their tiles
 * pinned), the search seeded; or the answer when no search is needed. */
static nb_status ends(nb_world_sg *ws, nb_err *err)
{
    agent_ws *g = ws->g;
    const nb_sg_query *q = &ws->q;
    nb_sg_result *res = &ws->res;
    int corner = ws->corner;
    nbi_wopv *o = &g->o;
    const nbi_windex *x = &ws->w->x;
    nb_cell s = q->start, e = q->goal;
    uint32_t ks = nbi_wopt_tile(x, s), kg = nbi_wopt_tile(x, e), size = q->size;
    nbi_wview *vs = view(ws, ks), *vg = view(ws, kg);
    if (vs->state != NBI_WV_LOADED || vg->state != NBI_WV_LOADED)
        return missing(ws, err);
    const nbi_wtile *ts = &vs->t->tag, *tg = &vg->t->tag;
    if (!nbi_standable(&vs->clear, size, s.x - (int32_t)ts->origin_x, s.y - (int32_t)ts->origin_y) ||
        !nbi_wov_room(ws->ov, size, (uint32_t)s.x, (uint32_t)s.y)) {
        res->status = NB_PATH_START_BLOCKED;
        ws->phase = PH_DONE;
        return NB_OK;
    }
    if (!nbi_standable(&vg->clear, size, e.x - (int32_t)tg->origin_x, e.y - (int32_t)tg->origin_y) ||
        !nbi_wov_room(ws->ov, size, (uint32_t)e.x, (uint32_t)e.y)) {
        res->status = NB_PATH_GOAL_BLOCKED;
        ws->phase = PH_DONE;
        return NB_OK;
    }
    if (s.x == e.x && s.y == e.y) {
        if (!grow(ws, &ws->path, &ws->pcap, 1))
            return nbi_fail_nomem(err, "a world optimal path");
        ws->path[0] = s;
        res->status = NB_PATH_FOUND;
        res->path = ws->path, res->path_len = 1;
        ws->phase = PH_DONE;
        return NB_OK;
    }
    /* Different world components: no path, without a search. */
    size_t ci;
    if (nbi_world_comp_of(ws->w, q->capability, size, &ci) &&
        nbi_world_component(ws->w, vs->t, ci, s) != nbi_world_component(ws->w, vg->t, ci, e)) {
        ws->phase = PH_DONE;
        return NB_OK;
    }
    res->searched = 1;
    if (++g->stamp == UINT32_MAX) {
        for (size_t i = 0; i < g->npages; i++)
            if (g->page[i])
                memset(g->page[i], 0, REC_PAGE * sizeof *g->page[i]);
        g->stamp = 1;
    }
    nbi_heap_clear(&g->heap);
    g->npend = 0;
    nb_status st;
    if ((st = nbi_wopv_tile(o, kg, err)) != NB_OK || (st = nbi_wopv_tile(o, ks, err)) != NB_OK)
        return st;
    tile_cells(g, kg);
    uint32_t ng = o->first[kg + 1] - o->first[kg], ns = o->first[ks + 1] - o->first[ks];
    if (!tile_overlay(ws, vg))
        return nbi_fail_nomem(err, "a world overlay's cells in a tile");
    from_cell(ws, vg, size, corner, e, g->tc, ng, g->to_goal, NULL);
    goal_bounds(g, o->first[kg], ng);
    double *first = g->row; /* free until the search */
    tile_cells(g, ks);
    if (!tile_overlay(ws, vs))
        return nbi_fail_nomem(err, "a world overlay's cells in a tile");
    double direct = from_cell(ws, vs, size, corner, s, g->tc, ns, first, ks == kg ? &e : NULL);
    search_out r = {direct < 0 ? INFINITY : direct, NONE, 0, 0, 0};
    ws->r = r;
    for (uint32_t u = o->first[ks]; u < o->first[ks + 1]; u++)
        if (first[u - o->first[ks]] >= 0) {
            node_rec *ru = rec_of(g, u);
            if (!ru)
                return nbi_fail_nomem(err, "a world optimal search");
            ru->seen = g->stamp;
            ru->g = first[u - o->first[ks]];
            ru->parent = NONE;
            ru->h = bound(g, u, g->tc[u - o->first[ks]], e);
            if (!nbi_heap_push(&g->heap, ru->g + ru->h, 0, u))
                return nbi_fail_nomem(err, "a world optimal search");
        }
    ws->phase = PH_SEARCH;
    return NB_OK;
}

/* At most budget portals settled; at the search's end, the answer when
 * there is no path to walk. */
static nb_status search_some(nb_world_sg *ws, uint64_t budget, nb_err *err)
{
    agent_ws *g = ws->g;
    nb_status st = search(ws, ws->q.goal, g->o.first[nbi_wopt_tile(&ws->w->x, ws->q.goal)],
                          ws->q.max_expansions, budget, &ws->r, err);
    if (st != NB_OK)
        return st;
    ws->res.expanded = ws->r.expanded;
    if (!ws->r.ended)
        return NB_OK;
    ws->phase = isinf(ws->r.best) ? PH_DONE : PH_WALK;
    if (ws->r.limit) {
        ws->phase = PH_DONE;
        return start_alone(ws, &ws->res, err);
    }
    return NB_OK;
}

/* Node v's world cell (its tile checked when it was seen). */
static nb_cell node_cell(const nbi_wopv *o, uint32_t v)
{
    uint32_t t = nbi_wopv_tile_of(o, v);
    return nbi_wopv_cell(o, t, v - o->first[t]);
}

/* The search's path walked into cells: every tile it crosses pinned (the
 * ends' too), else NB_ERR_UNLOADED naming them. */
static nb_status walk(nb_world_sg *ws, nb_err *err)
{
    agent_ws *g = ws->g;
    const nb_sg_query *q = &ws->q;
    nb_sg_result *res = &ws->res;
    const search_out r = ws->r;
    int corner = ws->corner;
    const nbi_wopv *o = &g->o;
    const nbi_windex *x = &ws->w->x;
    nb_cell s = q->start, e = q->goal;
    uint32_t ks = nbi_wopt_tile(x, s), kg = nbi_wopt_tile(x, e), size = q->size;
    nbi_wview *vs = view(ws, ks), *vg = view(ws, kg);
    /* The overlay's path, goal first, then every tile it crosses pinned. */
    size_t nc = 0;
    for (uint32_t u = r.last; u != NONE; u = REC(g, u)->parent) {
        if (nc == ws->ccap) {
            size_t cap = ws->ccap ? 2 * ws->ccap : 256;
            uint32_t *c = nbi_realloc_array(ws->a, ws->chain, cap, sizeof *c);
            if (!c)
                return nbi_fail_nomem(err, "a world optimal path");
            ws->chain = c, ws->ccap = cap;
        }
        ws->chain[nc++] = u;
    }
    for (size_t i = 0; i + 1 < nc; i++) {
        uint32_t ta = nbi_wopt_tile(x, node_cell(o, ws->chain[i])),
                 tb = nbi_wopt_tile(x, node_cell(o, ws->chain[i + 1]));
        if (ta == tb)
            view(ws, ta);
    }
    if (ws->pins.nmissing || ws->pins.st != NB_OK)
        return missing(ws, err);
    size_t len = 1;
    if (!grow(ws, &ws->path, &ws->pcap, 1))
        return nbi_fail_nomem(err, "a world optimal path");
    ws->path[0] = s;
    nb_status st = NB_OK;
    if (r.last == NONE)
        st = stretch(ws, vs, size, corner, s, e, &len, err);
    else {
        st = stretch(ws, vs, size, corner, s, node_cell(o, ws->chain[nc - 1]), &len, err);
        for (size_t i = nc - 1; st == NB_OK && i > 0; i--) {
            nb_cell a = node_cell(o, ws->chain[i]), b = node_cell(o, ws->chain[i - 1]);
            uint32_t ta = nbi_wopt_tile(x, a), tb = nbi_wopt_tile(x, b);
            if (ta == tb)
                st = stretch(ws, view(ws, ta), size, corner, a, b, &len, err);
            else if (!grow(ws, &ws->path, &ws->pcap, len + 1))
                st = nbi_fail_nomem(err, "a world optimal path");
            else
                ws->path[len++] = b;
        }
        if (st == NB_OK)
            st = stretch(ws, vg, size, corner, node_cell(o, ws->chain[0]), e, &len, err);
    }
    if (st != NB_OK)
        return st;
    size_t nw = 0;
    if ((st = turning_points(ws, len, &nw, err)) != NB_OK)
        return st;
    res->status = NB_PATH_FOUND;
    res->length = res->cost = r.best;
    res->waypoints = ws->way, res->waypoint_len = nw;
    if (!q->waypoints_only)
        res->path = ws->path, res->path_len = len;
    ws->phase = PH_DONE;
    return NB_OK;
}

static nb_status begin(nb_world_sg *ws, const nb_sg_query *q, const nb_world_overlay *ov,
                       nb_err *err)
{
    ws->phase = PH_IDLE; /* begin abandons a query in progress */
    ws->nneeded = 0;
    agent_ws *g = NULL;
    int corner = q->corner == NB_CORNER_WEAK ? NBI_CORNER_WEAK : NBI_CORNER_STRICT;
    nb_status st = check(ws, q, ov, err);
    if (st == NB_OK)
        st = agent_of(ws, q->capability, q->size, corner, &g, err);
    if (st == NB_OK)
        st = check_unsupported(q, err);
    if (st == NB_OK && !nbi_oedit_sync(&g->ed, ws->w, ov))
        st = nbi_fail_nomem(err, "the tiles a world overlay edits");
    if (st != NB_OK)
        return st;
    if (!ws->has_cs) {
        uint32_t side = ws->w->x.side;
        if (!nbi_csearch_init(&ws->cs, ws->a, side, side))
            return nbi_fail_nomem(err, "a world optimal workspace");
        ws->has_cs = 1;
    }
    /* A tile's cells: a stretch inside it, or its portals (at most 4 x side). */
    size_t room = (size_t)ws->w->x.side * ws->w->x.side + 1;
    if (!ws->seg && !(ws->seg = nbi_alloc_array(ws->a, room, sizeof *ws->seg)))
        return nbi_fail_nomem(err, "a world optimal workspace");
    ws->q = *q;
    ws->ov = ov;
    ws->g = g;
    ws->corner = corner;
    memset(&ws->res, 0, sizeof ws->res);
    ws->res.status = NB_PATH_NONE;
    ws->phase = PH_ENDS;
    return NB_OK;
}

/* An error ends the query; NB_ERR_UNLOADED keeps its place (the ends to
 * join, or the path to walk). */
static nb_status step(nb_world_sg *ws, uint64_t expansions, int *done, nb_err *err)
{
    *done = 0;
    if (ws->phase == PH_IDLE)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_sg_step: no query begun (nb_world_sg_begin)");
    ws->nneeded = 0;
    nbi_wpins_begin(&ws->pins, FAMILY, ws->q.capability, ws->q.size);
    nb_status st = NB_OK;
    if (ws->phase == PH_ENDS)
        st = ends(ws, err);
    if (st == NB_OK && ws->phase == PH_SEARCH)
        st = search_some(ws, expansions, err);
    if (st == NB_OK && ws->phase == PH_WALK)
        st = walk(ws, err);
    nbi_wpins_end(&ws->pins);
    if (st != NB_OK && st != NB_ERR_UNLOADED)
        ws->phase = PH_IDLE;
    *done = ws->phase == PH_DONE || ws->phase == PH_IDLE;
    return st;
}

static nb_status finish(nb_world_sg *ws, nb_sg_result *res, nb_err *err)
{
    if (ws->phase == PH_IDLE)
        return nbi_fail(err, NB_ERR_ARG,
                        "nb_world_sg_finish: no query begun (nb_world_sg_begin)");
    nb_status st = NB_OK;
    if (ws->phase != PH_DONE) {
        /* Before the end: as a search stopped at its limit. */
        memset(&ws->res, 0, sizeof ws->res);
        ws->res.searched = ws->phase != PH_ENDS;
        ws->res.expanded = ws->phase != PH_ENDS ? ws->r.expanded : 0;
        st = start_alone(ws, &ws->res, err);
    }
    ws->phase = PH_IDLE;
    if (st != NB_OK)
        return st;
    *res = ws->res;
    return nbi_done(err, NB_OK);
}

nb_status nb_world_sg_begin(nb_world_sg *ws, const nb_sg_query *q, const nb_world_overlay *ov,
                            nb_err *err)
{
    if (!ws || !q)
        return nbi_fail(err, NB_ERR_ARG, "%s: a NULL workspace or query", FAMILY);
    return nbi_done(err, begin(ws, q, ov, err));
}

nb_status nb_world_sg_step(nb_world_sg *ws, uint64_t expansions, int *done, nb_err *err)
{
    int d;
    if (!done)
        done = &d;
    *done = 0;
    if (!ws)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_sg_step: a NULL workspace");
    return nbi_done(err, step(ws, expansions, done, err));
}

nb_status nb_world_sg_finish(nb_world_sg *ws, nb_sg_result *res, nb_err *err)
{
    if (res) {
        memset(res, 0, sizeof *res);
        res->status = NB_PATH_NONE;
    }
    if (!ws || !res)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_sg_finish: a NULL workspace or result");
    return finish(ws, res, err);
}

nb_status nb_world_sg_find(nb_world_sg *ws, const nb_sg_query *q, const nb_world_overlay *ov,
                           nb_sg_result *res, nb_err *err)
{
    NBI_WQUERY_BEGIN(ws, q, res, FAMILY, err);
    int done;
    nb_status st = begin(ws, q, ov, err);
    if (st == NB_OK)
        st = step(ws, UINT64_MAX, &done, err);
    if (st == NB_OK)
        return finish(ws, res, err);
    ws->phase = PH_IDLE; /* find's NB_ERR_UNLOADED ends it: the game asks again */
    return st;
}

nb_status nbi_wsg_rows_check(nb_world_sg *ws, const nb_sg_query *q, const nb_world_overlay *ov,
                             nbi_wsg_rows *out, nb_err *err)
{
    memset(out, 0, sizeof *out);
    nb_status st = begin(ws, q, ov, err);
    if (st != NB_OK)
        return st;
    ws->phase = PH_IDLE;
    agent_ws *g = ws->g;
    nbi_wopv *o = &g->o;
    nbi_wpins_begin(&ws->pins, FAMILY, q->capability, q->size);
    for (size_t k = 0; k < g->ed.n && st == NB_OK; k++) {
        nbi_oedit_tile *e = &g->ed.e[k];
        uint32_t ti = e->tile;
        nbi_wview *v = view(ws, ti);
        if (v->state != NBI_WV_LOADED || (st = nbi_wopv_tile(o, ti, err)) != NB_OK)
            continue;
        uint32_t n = o->first[ti + 1] - o->first[ti];
        const uint8_t *bp = nbi_wopv_border(o, ti);
        if (!tile_overlay(ws, v)) {
            st = nbi_fail_nomem(err, "a world overlay's cells in a tile");
            break;
        }
        memset(e->have, 0, n); /* each row made again from the stored one */
        out->tiles++;
        const nbi_wtile *t = &v->t->tag;
        for (uint32_t i = 0; i < n && st == NB_OK; i++) {
            if (!stored_row(g, ti, bp, n, i)) {
                st = bad_row(g, ti, i, n, err);
                break;
            }
            int32_t lx = g->tc[i].x - (int32_t)t->origin_x, ly = g->tc[i].y - (int32_t)t->origin_y;
            if (!nbi_overlay_room(ws->cs.ov, q->size, (uint32_t)lx, (uint32_t)ly))
                continue; /* never reached under the overlay */
            uint64_t kept = ws->kept, searched = ws->searched;
            const double *row = edited_row(ws, e, ti, i);
            if (!row) {
                st = nbi_fail_nomem(err, "a world optimal search");
                break;
            }
            for (uint32_t j = 0; j < n; j++)
                if (j != i && row[j] == PENDING && pair_distance(ws, e, ti, i, j) < -2) {
                    st = nbi_fail_nomem(err, "a world optimal search");
                    break;
                }
            out->kept += ws->kept - kept;
            out->searched += ws->searched - searched;
            tile_cells(g, ti);
            from_cell(ws, v, q->size, ws->corner, g->tc[i], g->tc, n, g->to_goal, NULL);
            for (uint32_t j = 0; j < n; j++)
                if (j != i && fabs(row[j] - g->to_goal[j]) > 1e-9)
                    out->wrong++;
            out->rows++;
        }
    }
    nbi_wpins_end(&ws->pins);
    return st;
}
