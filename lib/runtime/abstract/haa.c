/* haa.c: Hierarchical Annotated A* queries (Harabor and Botea, CIG 2008,
 * section VIII) on the graph mkabstract bakes.
 *
 * The paper joins start and goal to their clusters' abstract nodes with
 * one AA* search per node (i + j searches).  One Dijkstra from each end,
 * inside its cluster and for the agent's own capability and size, gives
 * all of those costs at once, and its parent pointers are the refinement
 * of the first and last abstract edges.  The abstract search
 * (haa_search.c) is A* over the nodes plus the two ends; each abstract
 * edge of its path is then refined into cells (a step across a border, a
 * stored path, or an A* inside the cluster), and the cell path is cut
 * wherever it comes back to a cell it has passed.
 *
 * A query runs in phases that a step may stop anywhere within (navbake.h:
 * budgets and slices): the near search (ends in neighbouring clusters),
 * the two insertions, the abstract search, refinement.  Each counts its
 * expansions against the query's budget.
 *
 * Under an overlay that blocks cells the baked graph may hold transitions
 * and edges through them, and miss the transitions of an entrance whose
 * baked one is blocked.  The overlay repairs the graph (repair.c): the
 * clusters the blocks touch, with their borders, are made again on the
 * edited map and held by the overlay, and the query searches them in place
 * of the baked ones (haa_search.c), its searches inside clusters reading
 * the overlay too.  So it answers as HAA* on a graph baked from the edited
 * map (quality initial in the repaired clusters; a low-quality graph's
 * repair holds the clusters beside them too, repair.h).  Where the overlay
 * holds no repair of the query's graph (a graph built in memory; an
 * overlay that ran out of memory while repairing),
 * the query runs on the baked graph and its cell path is checked against
 * the overlay once refined: blocks only take cells away, so "no path"
 * stays true, and only when the path meets a block does the query go on
 * as Annotated A* over the overlay, in a workspace of its own opened by
 * the first such query, within the same budget.  Either way the path
 * exists exactly when Annotated A*'s does and never enters a blocked
 * cell; straightening and smoothing respect the overlay.
 *
 * What bounds the work on any bundle that opens (formats/abstract.md): a
 * step with a budget of B expands at most B nodes over the phases; the
 * abstract path is the search's own (at most min(B, V + 2) nodes, or what
 * levels_query.c makes of the top level's); each of its edges appends a
 * stored path (fewer than N^2 cells, agraph.c) or is refined by an A* in
 * its cluster, counted against the budget, except in finish's refinement
 * of a partial path (partial(): N^2 cells an edge, not counted).  append_run()
 * cuts a loop as soon as a cell comes back, so the path holds each cell
 * once. */
#include <stdio.h>
#include <string.h>

#include "abstract/haa.h"
#include "abstract/haa_ws.h"
#include "clearance/costs.h"
#include "blocked/blocked.h"
#include "abstract/repair.h"

/* Room made at open for a path's cells (grown by a longer one). */
#define FIRST_PATH 4096
/* Where a path's cells are (append_run): tiles of 16 x 16 cells, and pages made at open. */
#define WSHIFT 4
#define WMASK ((1u << WSHIFT) - 1)
#define FIRST_WPAGES 64
/* No tile: 2^31 is more than 16 columns past any cell's (int32_t, at least 0). */
#define NBI_HAA_NO_TILE 0x80000000u
_Static_assert(sizeof(nb_cell) == sizeof(uint64_t), "same_cell compares a cell as one word");

void nb_haa_close(nb_haa *ws)
{
    if (!ws)
        return;
    nbi_partial_free(&ws->part);
    nbi_free(ws->a, ws->layer);
    nbi_free(ws->a, ws->comp);
    nbi_free(ws->a, ws->has_comp);
    for (int i = 0; i < 2; i++)
        nbi_csearch_free(&ws->ins[i]);
    nbi_csearch_free(&ws->ref);
    nbi_csearch_free(&ws->near);
    nbi_free(ws->a, ws->targets);
    nbi_free(ws->a, ws->seg);
    nbi_asearch_free(&ws->as);
    nbi_free(ws->a, ws->path);
    nbi_pool_free(&ws->where);
    nbi_free(ws->a, ws->anodes);
    nbi_free(ws->a, ws->avia);
    nbi_levels_ws_free(ws->lq);
    nb_aa_close(ws->aa);
    nbi_free(ws->a, ws->prof);
    nbi_free(ws->a, ws);
}

int nbi_haa_room_cells(nb_haa *ws)
{
    const nbi_agraph *g = &ws->g;
    ws->wtw = (g->width + WMASK) >> WSHIFT;
    size_t ndir = (size_t)ws->wtw * ((g->height + WMASK) >> WSHIFT);
    if (ws->where.dir && ndir <= ws->where.ndir)
        return 1;
    nbi_pool_free(&ws->where);
    /* A page is zeroed once, when made, and never cleared again: append_run trusts a place only
     * where the path holds the cell (so a page may serve another map's cells). */
    int ok = nbi_pool_init(&ws->where, ws->a, ndir, 2 * WSHIFT);
    nbi_pool_array(&ws->where, (void **)&ws->wat, sizeof *ws->wat, 1);
    return ok && nbi_pool_reserve(&ws->where, FIRST_WPAGES);
}

static nb_status new_graph(const nb_bundle *b, const nb_allocator *a, const nbi_agraph *g,
                           size_t bytes, nb_haa **out, nb_err *err);

nb_status nbi_haa_bind_layers(nb_haa *ws, nb_err *err)
{
    const nb_bundle *b = ws->b;
    const nbi_agraph *g = &ws->g;
    nb_status st = NB_OK;
    for (uint32_t i = 0; i < g->ncaps && st == NB_OK; i++) {
        nb_capability cap = nbi_u32at(g->caps, i);
        st = nbi_clearance_layer(b, cap, &ws->layer[i], err);
        if (st == NB_OK && ws->layer[i].maxval < ws->top) {
            char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
            nb_capability_format(b, cap, caps, sizeof caps);
            st = nbi_fail(err, NB_ERR_FORMAT,
                          "%s: the clearance layer of {%s} is capped at %u, below the abstract "
                          "graph's largest size %u",
                          b->path, caps, ws->layer[i].maxval, ws->top);
        }
        for (uint32_t s = 0; s < g->nsizes && st == NB_OK; s++) {
            size_t k = (size_t)i * g->nsizes + s;
            nb_status cs = nbi_components_layer(b, cap, nbi_u32at(g->sizes, s), &ws->comp[k], NULL);
            ws->has_comp[k] = cs == NB_OK;
        }
    }
    return st;
}

nb_status nbi_haa_new_graph(const nb_bundle *b, const nbi_agraph *g, size_t bytes, nb_haa **out,
                            nb_err *err)
{
    return new_graph(b, b->a, g, bytes, out, err);
}

/* The same allocating with a (which outlives the workspace). */
static nb_status new_graph(const nb_bundle *b, const nb_allocator *a, const nbi_agraph *g,
                           size_t bytes, nb_haa **out, nb_err *err)
{
    *out = NULL;
    nb_haa *ws = nbi_zalloc_array(a, 1, sizeof *ws);
    if (!ws)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for an HAA* workspace");
    ws->b = b;
    ws->a = a;
    nbi_partial_init(&ws->part, b);
    ws->g = *g;
    ws->bytes = bytes;
    ws->top = nbi_u32at(g->sizes, g->nsizes - 1);
    ws->max_levels = NBI_LEVELS_MAX;
    int wok = nbi_haa_room_cells(ws);
    size_t ncombo = (size_t)g->ncaps * g->nsizes;
    ws->layer = nbi_zalloc_array(ws->a, g->ncaps, sizeof *ws->layer);
    ws->comp = nbi_zalloc_array(ws->a, ncombo, sizeof *ws->comp);
    ws->has_comp = nbi_zalloc_array(ws->a, ncombo, 1);
    nb_status st = NB_OK;
    if (!wok || !ws->layer || !ws->comp || !ws->has_comp)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for an HAA* workspace");
    if (st == NB_OK)
        st = nbi_haa_bind_layers(ws, err);
    uint32_t c = g->cluster, nn = c * c;
    if (st == NB_OK) {
        int ok = nbi_csearch_init(&ws->ins[0], ws->a, c, c) &
                 nbi_csearch_init(&ws->ins[1], ws->a, c, c) &
                 nbi_csearch_init(&ws->ref, ws->a, c, c) &
                 nbi_csearch_init(&ws->near, ws->a, 4 * c, 4 * c) &
                 nbi_asearch_init(&ws->as, ws->a, g->nnodes + 2);
        ws->as_keys = (uint64_t)g->nnodes + 2;
        ws->near.budget = 2 * (uint64_t)nn;
        /* A step's cells (seg) are at most the near search's box: the ends' clusters (the
         * same or neighbours: two across at most) and one more on each side, 4 x 4 clusters. */
        ws->targets = nbi_alloc_array(ws->a, ((size_t)4 * c + 2), sizeof *ws->targets);
        ws->seg = nbi_alloc_array(ws->a, (size_t)16 * nn, sizeof *ws->seg);
        if (!ok || !ws->targets || !ws->seg ||
            !nbi_grow(ws->a, (void **)&ws->path, &ws->pcap, FIRST_PATH, sizeof *ws->path) ||
            !nbi_grow(ws->a, (void **)&ws->anodes, &ws->acap, 256, sizeof *ws->anodes) ||
            !nbi_grow(ws->a, (void **)&ws->avia, &ws->avcap, 256, sizeof *ws->avia))
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for an HAA* workspace (clusters of %u)",
                          c);
    }
    if (st != NB_OK) {
        nb_haa_close(ws);
        return st;
    }
    *out = ws;
    nbi_ok(err);
    return NB_OK;
}

/* The graph's cost profiles, each checked against it (once per bundle), into ws->prof (kept
 * when it has room: a workspace re-bound to another bundle, haa_rebind.c). */
nb_status nbi_haa_load_profiles(nb_haa *ws, nb_err *err)
{
    const nb_bundle *b = ws->b;
    size_t n = 0;
    ws->nprof = 0;
    for (size_t i = 0; i < b->nsections; i++)
        n += b->sections[i].info.type == NB_SEC_ABSTRACT_COSTS;
    if (n == 0)
        return NB_OK;
    if (n > ws->prof_cap) {
        nbi_free(ws->a, ws->prof);
        ws->prof_cap = 0;
        if (!(ws->prof = nbi_alloc_array(ws->a, n, sizeof *ws->prof)))
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for an HAA* workspace");
        ws->prof_cap = n;
    }
    for (size_t i = 0; i < b->nsections; i++) {
        if (b->sections[i].info.type != NB_SEC_ABSTRACT_COSTS)
            continue;
        nb_status st = nbi_acosts_at(b, i, &ws->g, &ws->prof[ws->nprof], err);
        if (st != NB_OK)
            return st;
        ws->nprof++;
    }
    return NB_OK;
}

nb_status nb_haa_query_init_abi(nb_haa_query *q, const nb_abi *abi)
{
    if (nbi_abi_ok(abi, NBI_ABI_nb_haa_query) != NB_OK)
        return NB_ERR_VERSION;
    memset(q, 0, sizeof *q); /* the strict corner rule, no costs, overlay or limit */
    q->size = 1;
    return NB_OK;
}

void nb_haa_query_agent(nb_haa_query *q, const nb_agent *agent)
{
    q->size = agent->size;
    q->capability = agent->capability;
    q->costs = agent->weighted ? agent->cost : NULL;
}

nb_status nbi_haa_find_levels(nb_haa *ws, nb_err *err)
{
    /* the levels above the graph, checked once per bundle */
    nb_status st = nbi_alevels_find(ws->b, &ws->g, &ws->lv, err);
    ws->has_levels = st == NB_OK;
    if (st == NB_ERR_NOTFOUND) {
        nbi_ok(err);
        st = NB_OK;
    }
    return st;
}

nb_status nb_haa_open(const nb_bundle *b, nb_haa **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_haa_open: no place for the workspace");
    return nbi_haa_open_alloc(b, b->a, out, err);
}

nb_status nbi_haa_open_alloc(const nb_bundle *b, const nb_allocator *a, nb_haa **out, nb_err *err)
{
    *out = NULL;
    nbi_agraph g;
    nb_status st = nbi_agraph_find(b, &g, err); /* checked once per bundle */
    if (st == NB_OK)
        st = new_graph(b, a, &g, (size_t)b->sections[g.section].info.usize, out, err);
    if (st == NB_OK)
        st = nbi_haa_load_profiles(*out, err);
    if (st == NB_OK)
        st = nbi_haa_find_levels(*out, err);
    if (st != NB_OK) {
        nb_haa_close(*out);
        *out = NULL;
    }
    return st;
}

void nb_haa_set_max_nodes(nb_haa *ws, uint64_t max_nodes) { ws->max_nodes = max_nodes; }

void nb_haa_set_levels(nb_haa *ws, unsigned levels)
{
    ws->max_levels = levels == 0 || levels > NBI_LEVELS_MAX ? NBI_LEVELS_MAX : levels;
}

size_t nb_haa_bytes(const nb_haa *ws)
{
    const nbi_agraph *g = &ws->g;
    size_t ncombo = (size_t)g->ncaps * g->nsizes, nn = (size_t)g->cluster * g->cluster;
    return sizeof *ws + g->ncaps * sizeof *ws->layer + ncombo * (sizeof *ws->comp + 1) +
           nbi_csearch_bytes(&ws->ins[0]) + nbi_csearch_bytes(&ws->ins[1]) +
           nbi_csearch_bytes(&ws->ref) + nbi_csearch_bytes(&ws->near) +
           ((size_t)4 * g->cluster + 2) * sizeof *ws->targets + 16 * nn * sizeof *ws->seg +
           nbi_asearch_bytes(&ws->as) + ws->pcap * sizeof *ws->path +
           nbi_partial_bytes(&ws->part) +
           (ws->aa ? nb_aa_bytes(ws->aa) : 0) +
           nbi_pool_bytes(&ws->where) + ws->acap * sizeof *ws->anodes +
           ws->avcap * sizeof *ws->avia + ws->prof_cap * sizeof *ws->prof +
           nbi_levels_ws_bytes(ws->lq);
}

void nb_haa_describe(const nb_haa *ws, nb_haa_graph *out)
{
    memset(out, 0, sizeof *out);
    out->cluster = ws->g.cluster;
    out->quality = nbi_quality_name(ws->g.quality);
    out->placement = nbi_placement_name(ws->g.placement);
    out->nodes = ws->g.nnodes;
    out->edges = ws->g.nedges;
    out->inter_edges = ws->g.ninter;
    out->paths = (ws->g.flags & NBI_AGRAPH_PATHS) != 0;
    out->bytes = ws->bytes;
    out->levels = ws->has_levels ? ws->lv.nlevels : 1;
    out->level_factor = ws->has_levels ? ws->lv.factor : 0;
}

#define node_cell nbi_agraph_node_cell

static inline double octile(nb_cell a, nb_cell b) { return nbi_octile_cells(a.x, a.y, b.x, b.y); }

/* 1 when the agent may stand at c on the layer and under the overlay. */
static int stands_under(const nb_haa *ws, int32_t x, int32_t y)
{
    return nbi_standable(ws->l, ws->q.size, x, y) &&
           nbi_overlay_room(ws->q.overlay, ws->q.size, (uint32_t)x, (uint32_t)y);
}

/* The same for the graph's own cells: under the overlay when the graph was repaired for it;
 * without a repair the baked graph is walked as baked and its path checked afterwards
 * (clear_prefix). */
static int on_graph(const nb_haa *ws, int32_t x, int32_t y)
{
    return ws->rep ? stands_under(ws, x, y) : nbi_standable(ws->l, ws->q.size, x, y);
}

/* "{ground}, {ground,trees}" or "1, 2": what the graph serves. */
static void served(const nb_haa *ws, int caps, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    uint32_t n = caps ? ws->g.ncaps : ws->g.nsizes;
    for (uint32_t i = 0; i < n && at + 1 < len; i++) {
        int k;
        if (caps) {
            char c[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
            nb_capability_format(ws->b, nbi_u32at(ws->g.caps, i), c, sizeof c);
            k = snprintf(buf + at, len - at, "%s{%s}", i ? ", " : "", c);
        } else {
            k = snprintf(buf + at, len - at, "%s%u", i ? ", " : "", nbi_u32at(ws->g.sizes, i));
        }
        at += k > 0 ? (size_t)k : 0;
    }
}

/* The graph's indices of cap and size in *ci and *si; NB_ERR_NOTFOUND,
 * naming what it serves, when it serves either not. */
static nb_status serves(const nb_haa *ws, nb_capability cap, uint32_t size, uint32_t *ci,
                        uint32_t *si, nb_err *err)
{
    const nbi_agraph *g = &ws->g;
    *ci = *si = 0;
    while (*ci < g->ncaps && nbi_u32at(g->caps, *ci) != cap)
        ++*ci;
    while (*si < g->nsizes && nbi_u32at(g->sizes, *si) != size)
        ++*si;
    if (*ci < g->ncaps && *si < g->nsizes)
        return NB_OK;
    char have[1024], want[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
    served(ws, *ci == g->ncaps, have, sizeof have);
    if (*ci == g->ncaps) {
        nb_capability_format(ws->b, cap, want, sizeof want);
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "HAA*: the abstract graph does not serve capability {%s}; it serves "
                        "%s (the agent set's)",
                        want, have);
    }
    return nbi_fail(err, NB_ERR_NOTFOUND,
                    "HAA*: the abstract graph does not serve size %u; it serves sizes %s", size,
                    have);
}

nb_status nbi_haa_serves(const nb_haa *ws, nb_capability cap, uint32_t size, nb_err *err)
{
    uint32_t ci, si;
    return serves(ws, cap, size, &ci, &si, err);
}

size_t nbi_haa_waypoints(const nb_haa *ws, const nb_haa_result *res, nb_cell *out)
{
    /* ws->anodes holds the path goal first, start last (only when the
     * abstract search ran: a path of 2 or fewer nodes has no inner ones). */
    size_t n = 0;
    for (size_t k = res->abstract_len >= 3 ? res->abstract_len - 2 : 0; k >= 1; k--) {
        nb_cell c = nbi_haa_key_cell(ws, ws->anodes[k]);
        /* Across a border (an inter-edge, one step): keep the end it enters. */
        if (k >= 2 && nbi_haa_is_node(ws, ws->anodes[k - 1])) {
            nb_cell d = nbi_haa_key_cell(ws, ws->anodes[k - 1]);
            if (nbi_node_cluster(&ws->g, (uint32_t)c.x, (uint32_t)c.y) !=
                nbi_node_cluster(&ws->g, (uint32_t)d.x, (uint32_t)d.y))
                continue;
        }
        out[n++] = c;
    }
    return n;
}

/* 1 when a and b are one cell: the two coordinates compared as one word. */
static inline int same_cell(nb_cell a, nb_cell b)
{
    uint64_t u, v;
    memcpy(&u, &a, sizeof u);
    memcpy(&v, &b, sizeof v);
    return u == v;
}

/* Appends the n cells at c (a walk: they come a tile at a time) to the path, which has room for
 * them (path_room), from c[n - 1] back to c[0] when reverse is 1; a cell already on it cuts the
 * loop back to it instead.  0 without memory. */
static inline NBP_ALWAYS_INLINE int append_run(nb_haa *ws, const nb_cell *c, size_t n,
                                                int reverse)
{
    /* The cell's place from its tile's page: a page claimed by this query, or one an earlier
     * query or tile left, holds stale places, which the test against the path itself tells
     * (the path holds each cell once).  Where a hash of the cells took three times the
     * instructions (tests/bench/results/search-bench.md).  The tile is resolved once per run
     * of cells in it: the others cost two subtractions and a compare. */
    const ptrdiff_t step = reverse ? -1 : 1;
    const nb_cell *p = reverse ? c + n - 1 : c, *const end = p + (ptrdiff_t)n * step;
    nb_cell *path = ws->path;
    size_t len = ws->len;
    uint32_t x0 = ws->wx0, y0 = ws->wy0;
    uint32_t *page = ws->wat + ws->wbase;
    /* A step's run begins where the last one ended: that cell is on the path already. */
    if (len && p != end && same_cell(path[len - 1], *p))
        p += step;
    for (; p != end; p += step) {
        const uint32_t ux = (uint32_t)p->x, uy = (uint32_t)p->y;
        uint32_t dx = ux - x0, dy = uy - y0;
        if ((dx | dy) > WMASK) {
            /* A page this query claimed stays its own until the pool begins anew. */
            int fresh;
            uint32_t pg = nbi_pool_page(&ws->where, (uy >> WSHIFT) * ws->wtw + (ux >> WSHIFT),
                                        &fresh);
            if (pg == NBI_POOL_NONE) {
                ws->len = len;
                ws->wx0 = NBI_HAA_NO_TILE;
                return 0;
            }
            x0 = ux & ~WMASK;
            y0 = uy & ~WMASK;
            dx = ux & WMASK;
            dy = uy & WMASK;
            ws->wbase = pg << (2 * WSHIFT);
            page = ws->wat + ws->wbase; /* the pool's arrays may have moved */
        }
        uint32_t *at = &page[dy << WSHIFT | dx];
        const uint32_t i = *at;
        if (i < len && same_cell(path[i], *p)) {
            len = (size_t)i + 1;
            continue;
        }
        *at = (uint32_t)len;
        path[len++] = *p;
    }
    ws->len = len;
    ws->wx0 = x0;
    ws->wy0 = y0;
    return 1;
}

/* Room on the path for n more cells, once for a segment rather than for each cell; 0 without
 * memory. */
static inline int path_room(nb_haa *ws, size_t n)
{
    return ws->len + n <= ws->pcap ||
           nbi_grow(ws->a, (void **)&ws->path, &ws->pcap, ws->len + n, sizeof *ws->path);
}

/* The path found, ws->path[0..len): straightened and smoothed as asked,
 * measured, and handed over in res. */
static void finish_path(nb_haa *ws, nb_haa_result *res)
{
    const nb_haa_query *q = &ws->q;
    const nbi_layer *l = ws->l;
    size_t len = ws->len;
    /* Under terrain costs a straighter walk may cost more: the refined path stays. */
    if ((ws->flags & NB_HAA_STRAIGHTEN) && !ws->pc)
        len = nbi_straighten(l, q->overlay, q->size, (int)q->corner, ws->path, len);
    /* The steps summed in the path's order either way (the same length to the last bit); the
     * costs' loop apart, so that a walk without them tests nothing else a step. */
    const nb_cell *p = ws->path;
    double cl = 0, cost = 0;
    if (ws->pc) {
        for (size_t i = 1; i < len; i++) {
            double step = (p[i].x != p[i - 1].x && p[i].y != p[i - 1].y) ? NBI_SQRT2 : 1.0;
            cl += step;
            cost += step * nbi_costs_cell(&ws->wc, (uint32_t)p[i].x, (uint32_t)p[i].y);
        }
    } else {
        for (size_t i = 1; i < len; i++)
            cl += (p[i].x != p[i - 1].x && p[i].y != p[i - 1].y) ? NBI_SQRT2 : 1.0;
        cost = cl;
    }
    res->cell_length = cl;
    res->length = cl;
    res->cost = cost;
    if (ws->flags & NB_HAA_SMOOTH) {
        len = nbi_square_smooth(l, q->overlay, q->size, ws->path, len);
        res->length = nbi_polyline_length(ws->path, len);
    }
    res->path_len = len;
    res->path = ws->path;
}

/* The query's own faults, found before anything is read: unknown flags, an end outside the map,
 * size 0, an unknown corner rule. */
static nb_status check_query(const nb_haa *ws, const nb_haa_query *q, nbi_costs *c, nb_err *err)
{
    static const char family[] = "HAA*";
    const nbi_agraph *g = &ws->g;
    const unsigned known = NB_HAA_SMOOTH | NB_HAA_STRAIGHTEN;
    nb_status st;
    /* The order every family keeps (core/query.c). */
    if ((st = nbi_query_size(err, family, q->size)) != NB_OK)
        return st;
    if (q->flags & ~known)
        return nbi_fail(err, NB_ERR_ARG, "%s: unknown flags %#x", family, q->flags & ~known);
    if ((unsigned)q->corner > NB_CORNER_WEAK)
        return nbi_fail(err, NB_ERR_ARG, "%s: unknown corner rule %d", family, (int)q->corner);
    if ((st = nbi_costs_keep(c, ws->b, q->capability, q->size, q->costs, err)) != NB_OK) {
        nbi_err_prefix(err, "%s", family);
        return st;
    }
    if ((st = nbi_overlay_check(q->overlay, ws->b, family, err)) != NB_OK ||
        (st = nbi_query_cell(err, family, "start", q->start, g->width, g->height)) != NB_OK ||
        (st = nbi_query_cell(err, family, "goal", q->goal, g->width, g->height)) != NB_OK)
        return st;
    return NB_OK;
}

/* The same query for Annotated A*, which HAA* hands a query to when its
 * graph cannot serve it (reachability for an agent it does not serve) or
 * a block cuts the path it found. */
static void aa_of(const nb_haa_query *q, nb_aa_query *aq) { NBI_AA_QUERY_OF(aq, q); }

/* The cost profile of an agent with terrain costs (c weighted): the graph's costs baked for its
 * capability, size and multipliers, in *pc; NB_ERR_NOTFOUND when the bundle has none. */
static nb_status pick_profile(const nb_haa *ws, const nb_haa_query *q, const nbi_acosts **pc,
                              nb_err *err)
{
    for (size_t i = 0; i < ws->nprof; i++) {
        const nbi_acosts *p = &ws->prof[i];
        if (p->cap == q->capability && p->size == q->size &&
            nbi_costs_equal(p->cost, q->costs, q->capability)) {
            *pc = p;
            return NB_OK;
        }
    }
    char want[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
    nb_capability_format(ws->b, q->capability, want, sizeof want);
    return nbi_fail(err, NB_ERR_NOTFOUND,
                    "HAA*: no abstract graph costs for {%s}, size %u, with these terrain costs "
                    "(the bundle has %zu cost profiles); mkabstract bakes one for each agent of "
                    "the set with costs",
                    want, q->size, ws->nprof);
}

/* The answers that need no search: an end the agent cannot stand on, ends in different
 * components, start and goal the same cell.  Returns 1 when ws->res is the answer. */
static int answered_at_once(nb_haa *ws, uint32_t ci, uint32_t si)
{
    const nbi_agraph *g = &ws->g;
    const nb_haa_query *q = &ws->q;
    nb_haa_result *res = &ws->res;
    if (!nbi_standable(ws->l, q->size, q->start.x, q->start.y) ||
        !nbi_overlay_room(q->overlay, q->size, (uint32_t)q->start.x, (uint32_t)q->start.y)) {
        res->status = NB_PATH_START_BLOCKED;
        return 1;
    }
    if (!nbi_standable(ws->l, q->size, q->goal.x, q->goal.y) ||
        !nbi_overlay_room(q->overlay, q->size, (uint32_t)q->goal.x, (uint32_t)q->goal.y)) {
        res->status = NB_PATH_GOAL_BLOCKED;
        return 1;
    }
    if (ws->has_comp[(size_t)ci * g->nsizes + si]) {
        const nbi_layer *c = &ws->comp[(size_t)ci * g->nsizes + si];
        if (nbi_comp_get(c, (uint64_t)q->start.y * g->width + (uint32_t)q->start.x) !=
            nbi_comp_get(c, (uint64_t)q->goal.y * g->width + (uint32_t)q->goal.x))
            return 1; /* no path, known without a search */
    }
    if (q->start.x == q->goal.x && q->start.y == q->goal.y) {
        res->status = NB_PATH_FOUND;
        ws->path[0] = q->start;
        ws->len = 1;
        res->abstract_len = 1;
        return 1;
    }
    return 0;
}

/* Starts the near search when the ends lie in the same or neighbouring clusters: the best path
 * may leave and enter their clusters where no transition stands.  An A* over the clusters
 * around both, on a budget of expansions, offers that path as one more edge from start to
 * goal.  Returns 0 when the ends are further apart. */
static int start_near(nb_haa *ws)
{
    const nbi_agraph *g = &ws->g;
    const nb_haa_query *q = &ws->q;
    int32_t sx = (int32_t)(ws->ks % g->ncx), sy = (int32_t)(ws->ks / g->ncx);
    int32_t gx = (int32_t)(ws->kg % g->ncx), gy = (int32_t)(ws->kg / g->ncx);
    if (!(sx - gx <= 1 && gx - sx <= 1 && sy - gy <= 1 && gy - sy <= 1))
        return 0;
    int32_t cx0 = (sx < gx ? sx : gx) - 1, cx1 = (sx > gx ? sx : gx) + 1;
    int32_t cy0 = (sy < gy ? sy : gy) - 1, cy1 = (sy > gy ? sy : gy) + 1;
    int32_t n = (int32_t)g->cluster;
    nbi_box box = {cx0 < 0 ? 0 : cx0 * n, cy0 < 0 ? 0 : cy0 * n,
                   (cx1 + 1) * n > (int32_t)g->width ? (int32_t)g->width : (cx1 + 1) * n,
                   (cy1 + 1) * n > (int32_t)g->height ? (int32_t)g->height : (cy1 + 1) * n};
    nbi_csearch_start(&ws->near, ws->l, q->size, (int)q->corner, &box, q->start, &q->goal, NULL, 0);
    return 1;
}

/* Starts insertion e: a Dijkstra from that end over its own cluster to every node there the
 * agent may stand on (and to the goal, from a start in its cluster). */
static void start_insert(nb_haa *ws, int e)
{
    const nbi_agraph *g = &ws->g;
    const nb_haa_query *q = &ws->q;
    const nb_cell end = e ? q->goal : q->start;
    const uint32_t k = e ? ws->kg : ws->ks;
    uint32_t a, z = nbi_haa_cluster_keys(ws, k, &a);
    z += a;
    size_t nt = 0;
    int at_node = 0; /* the end is a node's cell */
    for (uint32_t u = a; u < z; u++) {
        nb_cell c = nbi_haa_key_cell(ws, u);
        if (on_graph(ws, c.x, c.y)) {
            ws->targets[nt++] = c;
            at_node |= c.x == end.x && c.y == end.y;
        }
    }
    if (e == 0 && ws->ks == ws->kg)
        ws->targets[nt++] = q->goal, at_node = 0;
    nbi_box box = nbi_cluster_box(k, g->ncx, g->cluster, g->width, g->height);
    ws->ins_e = e;
    /* With node_ends an end on a node joins the graph there alone, at no cost: the node's own
     * arcs reach its cluster's other nodes (haa_ws.h). */
    if (nt && !(at_node && ws->node_ends))
        nbi_csearch_start(&ws->ins[e], ws->l, q->size, (int)q->corner, &box, end, NULL,
                          ws->targets, nt);
    else /* nothing to reach: a search that settles the end alone */
        nbi_csearch_start(&ws->ins[e], ws->l, q->size, (int)q->corner, &box, end, &end, NULL, 0);
}

/* The abstract path from the start to key `to`, walked back by the search's parents, into
 * ws->anodes (to first, the start last); 0 without memory. */
static int abstract_path(nb_haa *ws, uint32_t to)
{
    const uint32_t S = ws->g.nnodes;
    ws->na = 0;
    for (uint32_t v = to;;) {
        /* Grown when full only: a call for each node cost as much as the rest of the walk. */
        if ((ws->na == ws->acap &&
             !nbi_grow(ws->a, (void **)&ws->anodes, &ws->acap, ws->na + 1, sizeof *ws->anodes)) ||
            (ws->na == ws->avcap &&
             !nbi_grow(ws->a, (void **)&ws->avia, &ws->avcap, ws->na + 1, sizeof *ws->avia)))
            return 0;
        /* On a flat pool a key is its own slot (nbi_pool_flat), and every key the walk meets
         * was reached by this search: no look-up. */
        uint32_t sl = ws->as.pool.flat ? v : nbi_asearch_find(&ws->as, v);
        ws->avia[ws->na] = ws->as.via[sl];
        ws->anodes[ws->na++] = v;
        if (v == S)
            return 1;
        v = ws->as.parent[sl];
    }
}

/* 1 when the agent may walk cells c[0..n), each a step from the one
 * before: every cell standable (under the overlay too), every diagonal step
 * allowed by the corner rule.  The cells a graph gives without a search (a
 * stored path, the two ends of an inter-edge) are the agent's only when the
 * graph was baked from the bundle's own clearance layers; in a damaged
 * bundle they may not be, and what is made of the path after
 * (straightening) relies on each step. */
static inline NBP_ALWAYS_INLINE int cells_walkable(const nb_haa *ws, const nb_cell *c,
                                                    size_t n)
{
    const int strict = ws->q.corner == NB_CORNER_STRICT;
    if (ws->rep) { /* under the overlay: each cell asked of it too */
        for (size_t i = 0; i < n; i++) {
            if (!stands_under(ws, c[i].x, c[i].y))
                return 0;
            if (i && c[i].x != c[i - 1].x && c[i].y != c[i - 1].y) {
                int c1 = stands_under(ws, c[i].x, c[i - 1].y);
                int c2 = stands_under(ws, c[i - 1].x, c[i].y);
                if (strict ? !(c1 && c2) : !(c1 || c2))
                    return 0;
            }
        }
        return 1;
    }
    /* The layer alone, the overlay's test and the rule's branch out of the loop; a diagonal's
     * corners are inside the map, as the cell and the one before it are. */
    const nbi_layer *l = ws->l;
    const uint32_t w = l->width, h = l->height, size = ws->q.size;
    for (size_t i = 0; i < n; i++) {
        const uint32_t x = (uint32_t)c[i].x, y = (uint32_t)c[i].y;
        if (x >= w || y >= h)
            return 0;
        const uint64_t at = (uint64_t)y * w + x;
        if (nbi_layer_get(l, at) < size)
            return 0;
        const uint32_t px = i ? (uint32_t)c[i - 1].x : x, py = i ? (uint32_t)c[i - 1].y : y;
        if (x != px && y != py) {
            int c1 = nbi_layer_get(l, (uint64_t)py * w + x) >= size;
            int c2 = nbi_layer_get(l, at - x + px) >= size;
            if (strict ? !(c1 && c2) : !(c1 || c2))
                return 0;
        }
    }
    return 1;
}

/* cells_walkable for an inter-edge's two cells, which the graph's view found inside the map
 * and neighbours in a row or a column (agraph.c): two reads of the layer, no corner. */
static inline int inter_walkable(const nb_haa *ws, nb_cell a, nb_cell b)
{
    if (ws->rep)
        return stands_under(ws, a.x, a.y) && stands_under(ws, b.x, b.y);
    const nbi_layer *l = ws->l;
    const uint64_t w = l->width;
    return nbi_layer_get(l, (uint64_t)a.y * w + (uint32_t)a.x) >= ws->q.size &&
           nbi_layer_get(l, (uint64_t)b.y * w + (uint32_t)b.x) >= ws->q.size;
}

/* The cells of the abstract path's step from u to v (keys), into ws->seg, in the order they
 * are walked when *reverse is 0, else backwards; returns the count.  An intra-edge without a
 * stored path the query may use is refined by an A* in its cluster (ws->ref), which a step
 * begins and may leave under way: then 0 and *pending 1. */
static size_t step_cells(nb_haa *ws, uint32_t u, uint32_t v, uint32_t how, int *reverse,
                         int *pending)
{
    const nbi_agraph *g = &ws->g;
    const nb_haa_query *q = &ws->q;
    *reverse = *pending = 0;
    if (how >= NBI_VIA_NEAR) { /* the ends' steps (haa_ws.h's codes above the arcs) */
        if (how == NBI_VIA_START)
            return nbi_csearch_path(&ws->ins[0], nbi_haa_key_cell(ws, v), ws->seg);
        if (how == NBI_VIA_DIRECT)
            return nbi_csearch_path(&ws->ins[0], q->goal, ws->seg);
        if (how == NBI_VIA_NEAR)
            return nbi_csearch_path(&ws->near, q->goal, ws->seg);
        *reverse = 1;
        return nbi_csearch_path(&ws->ins[1], nbi_haa_key_cell(ws, u), ws->seg);
    }
    nb_cell cu = nbi_haa_key_cell(ws, u), cv = nbi_haa_key_cell(ws, v);
    if (nbi_node_cluster(g, (uint32_t)cu.x, (uint32_t)cu.y) !=
        nbi_node_cluster(g, (uint32_t)cv.x, (uint32_t)cv.y)) {
        ws->seg[0] = cu; /* an inter-edge: one step across the border */
        ws->seg[1] = cv;
        return inter_walkable(ws, cu, cv) ? 2 : 0;
    }
    /* A stored path follows the graph's corner rule: usable unless the query's rule is
     * stricter (a repaired arc has none).  It is a shortest path, not one of least cost: an
     * agent with terrain costs refines by its own A*, whose cost is at most the arc's. */
    if (how != NBI_VIA_REPAIR && g->arc_path && !ws->pc &&
        !(g->corner == NBI_CORNER_WEAK && q->corner == NB_CORNER_STRICT)) {
        size_t n = nbi_agraph_arc_cells(g, how, u, v, ws->seg);
        return cells_walkable(ws, ws->seg, n) ? n : 0;
    }
    if (!ws->ref_started) {
        nbi_box box = nbi_cluster_box(nbi_node_cluster(g, (uint32_t)cu.x, (uint32_t)cu.y), g->ncx,
                                      g->cluster, g->width, g->height);
        nbi_csearch_start(&ws->ref, ws->l, q->size, (int)q->corner, &box, cu, &cv, NULL, 0);
        ws->ref_started = 1;
    }
    if (ws->ref.end == NBI_CS_RUNNING) {
        *pending = 1;
        return 0;
    }
    ws->ref_started = 0;
    return ws->ref.end == NBI_CS_FOUND ? nbi_csearch_path(&ws->ref, cv, ws->seg) : 0;
}

static nb_status damaged(nb_haa *ws, nb_err *err)
{
    ws->phase = NBI_HAA_IDLE;
    return nbi_fail(err, NB_ERR_FORMAT,
                    "HAA*: an abstract edge that admits the agent has no path inside its "
                    "cluster, or cells the agent may not walk: the abstract graph is "
                    "damaged or built for another map");
}

static nb_status no_memory(nb_haa *ws, nb_err *err)
{
    ws->phase = NBI_HAA_IDLE;
    return nbi_fail(err, NB_ERR_NOMEM, "HAA*: no memory for the search (%llu abstract nodes reached)",
                    (unsigned long long)ws->as.nodes);
}

/* Asks for what refining the abstract step anodes[k] -> anodes[k - 1] will
 * read of a stored path: when near is 0 the arc's path offset and its first
 * node's cell, when 1 the moves themselves (whose place is that offset).
 * Each lies far from the last step's in a big graph; asked for some steps
 * ahead, they are there when the step comes. */
static inline NBP_ALWAYS_INLINE void prefetch_step(const nb_haa *ws, size_t k, int near)
{
    const nbi_agraph *g = &ws->g;
    uint32_t u = ws->anodes[k], a = ws->avia[k - 1];
    if (!g->arc_path || u >= g->nnodes || a >= 2 * (size_t)g->nedges)
        return;
    if (!near) {
        NBP_PREFETCH(g->arc_path + 4 * (size_t)a);
        NBP_PREFETCH(g->node_xy + 4 * (size_t)u);
        return;
    }
    uint32_t off = nbi_u32at(g->arc_path, a);
    /* The offset counts moves, 4 bits each: two to a byte. */
    if (off / 2 < g->path_bytes)
        NBP_PREFETCH(g->moves + off / 2);
}

/* Refines abstract steps anodes[k] -> anodes[k - 1] from k = ws->refine_k down to `until`,
 * appending their cells to the path; a cluster A* takes at most *budget expansions (charged to
 * res and *budget; budget NULL: no limit).  Returns NB_OK with ws->refine_k at the step left
 * under way (== until when all are done). */
static nb_status refine(nb_haa *ws, size_t until, uint64_t *budget, nb_err *err)
{
    nb_haa_result *res = &ws->res;
    enum { AHEAD = 8 };
    const int stored = ws->g.arc_path != NULL; /* else nothing to ask for ahead */
    while (ws->refine_k > until) {
        size_t k = ws->refine_k;
        if (stored && k > 2 * AHEAD)
            prefetch_step(ws, k - 2 * AHEAD, 0);
        if (stored && k > AHEAD)
            prefetch_step(ws, k - AHEAD, 1);
        int reverse, pending;
        size_t n = step_cells(ws, ws->anodes[k], ws->anodes[k - 1], ws->avia[k - 1], &reverse,
                              &pending);
        if (pending) {
            uint64_t lim = budget ? *budget : UINT64_MAX, before = ws->ref.expanded;
            if (lim == 0)
                return NB_OK;
            nbi_csearch_step(&ws->ref, lim);
            res->expanded_refine += ws->ref.expanded - before;
            if (budget)
                *budget -= ws->ref.expanded - before;
            continue; /* step_cells again: the path, or still under way */
        }
        if (n == 0)
            return damaged(ws, err);
        if (!path_room(ws, n))
            return no_memory(ws, err);
        if (!append_run(ws, ws->seg, n, reverse))
            return no_memory(ws, err);
        ws->refine_k = k - 1;
    }
    return NB_OK;
}

/* ---- begin, step, finish ---- */

/* The query's graph as its overlay repaired it (abstract/repair.h), when the overlay holds a
 * repair of the workspace's graph it may use; the searches inside clusters read the overlay
 * too.  Without one, a path the graph gives is checked against the overlay (check_overlay). */
static nb_status use_repair(nb_haa *ws, nb_err *err)
{
    const nb_overlay *ov = ws->q.overlay;
    ws->rep = NULL;
    for (size_t i = 0; ov && i < ov->nrep; i++)
        if (ov->rep[i].ok && ws->g.section >= 0 && ov->rep[i].g.section == ws->g.section)
            ws->rep = &ov->rep[i];
    /* Under terrain costs, the repaired arcs' costs for the query's profile, when the repair
     * holds them for its corner rule (the graph's); else the abstract search weighs them by
     * the agent's own searches in the cluster (haa_search.c). */
    ws->rep_prof = -1;
    for (size_t i = 0; ws->rep && ws->pc && i < ws->rep->nprof; i++)
        if (ws->rep->prof[i].section == ws->pc->section &&
            (int)ws->q.corner == (int)ws->g.corner)
            ws->rep_prof = (long)i;
    /* Without a repair the searches in clusters follow the baked graph, whose arcs they refine
     * (an arc the overlay cuts would find no path): the refined path is checked instead. */
    const nb_overlay *cov = ws->rep ? ov : NULL;
    ws->ins[0].ov = ws->ins[1].ov = ws->ref.ov = ws->near.ov = cov;
    if (!ws->rep)
        return NB_OK;
    /* Room in the abstract search for the repaired nodes' keys (haa_ws.h). */
    return nbi_haa_room_keys(ws, (uint64_t)ws->g.nnodes + 2 + (uint64_t)ws->rep->nrec * ws->rep->per,
                             err);
}

nb_status nbi_haa_room_keys(nb_haa *ws, uint64_t keys, nb_err *err)
{
    if (keys <= ws->as_keys)
        return NB_OK;
    nbi_asearch_free(&ws->as);
    if (!nbi_asearch_init(&ws->as, ws->a, (uint32_t)keys)) {
        nbi_asearch_free(&ws->as);
        nbi_asearch_init(&ws->as, ws->a, 0);
        ws->as_keys = 0;
        return nbi_fail(err, NB_ERR_NOMEM, "HAA*: no memory for the abstract search (%llu keys)",
                        (unsigned long long)keys);
    }
    ws->as_keys = keys;
    return NB_OK;
}

nb_status nb_haa_begin(nb_haa *ws, const nb_haa_query *q, nb_err *err)
{
    ws->phase = NBI_HAA_IDLE;
    ws->part_on = 0;
    ws->whole = 0;
    memset(&ws->res, 0, sizeof ws->res);
    ws->res.status = NB_PATH_NONE;
    nb_status st = check_query(ws, q, &ws->wc, err);
    if (st != NB_OK)
        return st;
    uint32_t ci, si;
    st = serves(ws, q->capability, q->size, &ci, &si, err);
    if (st != NB_OK)
        return st;
    ws->pc = NULL;
    if (ws->wc.weighted) {
        st = pick_profile(ws, q, &ws->pc, err);
        if (st != NB_OK)
            return st;
    }
    /* The searches in clusters under the same costs; the goal's runs from the goal. */
    const nbi_costs *cc = ws->pc ? &ws->wc : NULL;
    nbi_csearch_costs(&ws->ins[0], cc, 0);
    nbi_csearch_costs(&ws->ins[1], cc, 1);
    nbi_csearch_costs(&ws->near, cc, 0);
    nbi_csearch_costs(&ws->ref, cc, 0);
    ws->hmul = ws->pc ? ws->wc.least : 1;
    ws->q = *q;
    if (q->overlay && !q->overlay->blocked)
        ws->q.overlay = NULL; /* nothing to check the path against */
    st = use_repair(ws, err);
    if (st != NB_OK)
        return st;
    /* A partial path is the path to the reachable cell nearest the goal: searched as a goal. */
    if (q->partial &&
        (st = nbi_partial_target(&ws->part, "HAA*", q->capability, q->size, ws->q.overlay,
                                 q->start, q->goal, &ws->q.goal, &ws->part_on, err)) != NB_OK)
        return st;
    q = &ws->q;
    ws->flags = q->flags;
    ws->stopped = 0;
    ws->l = &ws->layer[ci];
    ws->len = 0;
    ws->na = 0;
    ws->ref_started = 0;
    ws->near_cost = -1;
    nbi_pool_begin(&ws->where);
    ws->wx0 = NBI_HAA_NO_TILE;
    if (answered_at_once(ws, ci, si)) {
        ws->phase = NBI_HAA_DONE;
        return nbi_done(err, NB_OK);
    }
    ws->res.searched = 1;
    ws->res.level = 1;
    const nbi_agraph *g = &ws->g;
    ws->ks = nbi_node_cluster(g, (uint32_t)q->start.x, (uint32_t)q->start.y);
    ws->kg = nbi_node_cluster(g, (uint32_t)q->goal.x, (uint32_t)q->goal.y);
    if (start_near(ws)) {
        ws->phase = NBI_HAA_NEAR;
    } else {
        ws->phase = NBI_HAA_INSERT;
        start_insert(ws, 0);
    }
    return nbi_done(err, NB_OK);
}

/* Expansions the query has made. */
static uint64_t spent(const nb_haa *ws)
{
    return ws->res.expanded_insert + ws->res.expanded_search + ws->res.expanded_refine;
}

/* The phases in turn, for at most budget expansions. */
static nb_status run(nb_haa *ws, uint64_t budget, nb_err *err)
{
    nb_haa_result *res = &ws->res;
    const nb_haa_query *q = &ws->q;
    while (ws->phase < NBI_HAA_DONE && !ws->stopped) {
        uint64_t lim = budget;
        if (q->max_expansions) {
            uint64_t left = q->max_expansions > spent(ws) ? q->max_expansions - spent(ws) : 0;
            if (left < lim)
                lim = left;
            if (left == 0 && ws->phase != NBI_HAA_REFINE) {
                ws->stopped = 1;
                break;
            }
        }
        if (lim == 0 && ws->phase != NBI_HAA_REFINE)
            break;
        uint64_t used = 0;
        switch (ws->phase) {
        case NBI_HAA_NEAR: {
            uint64_t before = ws->near.expanded;
            nbi_csearch_step(&ws->near, lim);
            used = ws->near.expanded - before;
            res->expanded_insert += used;
            if (ws->near.end == NBI_CS_RUNNING)
                break;
            if (ws->near.end == NBI_CS_FOUND)
                ws->near_cost = nbi_csearch_cost(&ws->near, q->goal, NULL);
            if (ws->reach_only && ws->near_cost >= 0) { /* joined: nothing more to know */
                res->status = NB_PATH_FOUND;
                ws->phase = NBI_HAA_DONE;
                break;
            }
            /* As short as the octile distance: nothing can do better. */
            if (ws->near_cost >= 0 &&
                ws->near_cost <= octile(q->start, q->goal) * ws->hmul + 1e-9) {
                res->abstract_len = 2;
                res->abstract_length = ws->near_cost;
                size_t n = nbi_csearch_path(&ws->near, q->goal, ws->seg);
                if (!path_room(ws, n))
                    return no_memory(ws, err);
                if (!append_run(ws, ws->seg, n, 0))
                    return no_memory(ws, err);
                res->status = NB_PATH_FOUND;
                ws->phase = NBI_HAA_DONE;
                break;
            }
            ws->phase = NBI_HAA_INSERT;
            start_insert(ws, 0);
            break;
        }
        case NBI_HAA_INSERT: {
            nbi_csearch *cs = &ws->ins[ws->ins_e];
            uint64_t before = cs->expanded;
            nbi_csearch_step(cs, lim);
            used = cs->expanded - before;
            res->expanded_insert += used;
            if (cs->end == NBI_CS_RUNNING)
                break;
            if (ws->ins_e == 0) {
                start_insert(ws, 1);
                break;
            }
            uint32_t k = nbi_haa_level_for(ws);
            res->level = k;
            if (k >= 2) {
                if (!ws->lq && !(ws->lq = nbi_levels_ws_new(ws->a, &ws->lv)))
                    return no_memory(ws, err);
                /* An arc annotated with capability c is the agent's when c's terrains are
                 * all the agent's: c a subset of its capability. */
                for (uint32_t i = 0; i < ws->g.ncaps; i++)
                    ws->capok[i] = (nbi_u32at(ws->g.caps, i) & ~q->capability) == 0;
                if (!nbi_haa_levels_begin(ws, k) && ws->lq->as.end != NBI_AS_LIMIT)
                    return no_memory(ws, err);
                ws->phase = NBI_HAA_LEVELS;
            } else {
                ws->phase = NBI_HAA_ABSTRACT;
                nbi_haa_abstract_begin(ws);
            }
            break;
        }
        case NBI_HAA_LEVELS: {
            nbi_asearch *as = &ws->lq->as;
            used = as->end == NBI_AS_RUNNING ? nbi_haa_levels_step(ws, lim) : 0;
            res->expanded_search += used;
            if (as->end == NBI_AS_RUNNING)
                break;
            if (as->end == NBI_AS_NOMEM)
                return no_memory(ws, err);
            if (as->end == NBI_AS_LIMIT) {
                ws->stopped = 1;
                break;
            }
            if (as->end == NBI_AS_EXHAUSTED) {
                ws->phase = NBI_HAA_DONE; /* complete at every level: there is none */
                break;
            }
            int got = nbi_haa_levels_path(ws);
            if (got == 0)
                return no_memory(ws, err);
            if (got < 0)
                return damaged(ws, err);
            res->abstract_len = ws->na;
            ws->refine_k = ws->na - 1;
            ws->phase = NBI_HAA_REFINE;
            break;
        }
        case NBI_HAA_ABSTRACT:
            used = nbi_haa_abstract_step(ws, lim);
            res->expanded_search += used;
            if (ws->as.end == NBI_AS_RUNNING)
                break;
            if (ws->as.end == NBI_AS_NOMEM)
                return no_memory(ws, err);
            if (ws->as.end == NBI_AS_LIMIT) {
                ws->stopped = 1;
                break;
            }
            if (ws->as.end == NBI_AS_EXHAUSTED) {
                ws->phase = NBI_HAA_DONE; /* NB_PATH_NONE: the graph is complete, so there is none */
                break;
            }
            if (ws->reach_only) { /* joined: no cells wanted */
                res->status = NB_PATH_FOUND;
                ws->phase = NBI_HAA_DONE;
                break;
            }
            res->abstract_length = ws->as.gv[nbi_asearch_find(&ws->as, ws->g.nnodes + 1)];
            if (!abstract_path(ws, ws->g.nnodes + 1))
                return no_memory(ws, err);
            res->abstract_len = ws->na;
            ws->refine_k = ws->na - 1;
            ws->phase = NBI_HAA_REFINE;
            break;
        case NBI_HAA_REFINE: {
            uint64_t left = lim;
            nb_status st = refine(ws, 0, &left, err);
            if (st != NB_OK)
                return st;
            used = lim - left;
            if (ws->refine_k == 0) {
                res->status = NB_PATH_FOUND;
                ws->phase = NBI_HAA_DONE;
            } else if (left == 0 && q->max_expansions && spent(ws) >= q->max_expansions) {
                ws->stopped = 1;
            }
            break;
        }
        }
        budget -= used;
        if (ws->phase < NBI_HAA_DONE && !ws->stopped && used == 0 && lim == 0)
            break;
    }
    return NB_OK;
}

/* The cells of ws->path, from the start, that make a path under the query's overlay (the
 * path is one on the graph's layer): up to the first cell the overlay blocks, or the first
 * diagonal step whose corner it blocks. */
static size_t clear_prefix(const nb_haa *ws)
{
    const nb_haa_query *q = &ws->q;
    for (size_t i = 0; i < ws->len; i++) {
        nb_cell c = ws->path[i];
        if (!nbi_overlay_room(q->overlay, q->size, (uint32_t)c.x, (uint32_t)c.y))
            return i;
        nb_cell p = i ? ws->path[i - 1] : c;
        if (c.x != p.x && c.y != p.y) {
            int c1 = stands_under(ws, c.x, p.y), c2 = stands_under(ws, p.x, c.y);
            if (q->corner == NB_CORNER_STRICT ? !(c1 && c2) : !(c1 || c2))
                return i;
        }
    }
    return ws->len;
}

/* A path the graph gave under an overlay that blocks cells: kept when the overlay blocks none
 * of its cells, else the query goes on as Annotated A* over the overlay with what is left of
 * its budget (none left: the clear part of the path, NB_PATH_LIMIT). */
static nb_status check_overlay(nb_haa *ws, nb_err *err)
{
    const nb_haa_query *q = &ws->q;
    if (!q->overlay || ws->phase != NBI_HAA_DONE || ws->res.status != NB_PATH_FOUND)
        return NB_OK;
    size_t clear = clear_prefix(ws);
    if (clear == ws->len)
        return NB_OK;
    nb_aa_query aq;
    aa_of(q, &aq);
    if (q->max_expansions) {
        if (spent(ws) >= q->max_expansions) {
            ws->len = clear;
            ws->res.status = NB_PATH_LIMIT;
            return NB_OK;
        }
        aq.max_expansions = q->max_expansions - spent(ws);
    }
    nb_status st = NB_OK;
    if (!ws->aa)
        st = nb_aa_open(ws->b, &ws->aa, err);
    if (st == NB_OK) {
        nb_aa_set_max_nodes(ws->aa, ws->max_nodes);
        st = nb_aa_begin(ws->aa, &aq, err);
    }
    if (st != NB_OK) {
        ws->phase = NBI_HAA_IDLE;
        return st;
    }
    ws->phase = NBI_HAA_OVERLAID;
    ws->fallbacks++;
    return NB_OK;
}

uint64_t nbi_haa_fallbacks(const nb_haa *ws) { return ws->fallbacks; }

nb_status nb_haa_step(nb_haa *ws, uint64_t expansions, int *done, nb_err *err)
{
    if (ws->phase == NBI_HAA_IDLE)
        return nbi_fail(err, NB_ERR_ARG, "nb_haa_step: no query begun (nb_haa_begin)");
    uint64_t before = spent(ws);
    if (ws->phase != NBI_HAA_OVERLAID) {
        nb_status st = ws->stopped ? NB_OK : run(ws, expansions, err);
        if (st == NB_OK)
            st = check_overlay(ws, err);
        if (st != NB_OK || ws->phase != NBI_HAA_OVERLAID) {
            *done = st != NB_OK || ws->phase >= NBI_HAA_DONE || ws->stopped;
            return nbi_done(err, st);
        }
    }
    /* Annotated A* over the overlay, for what is left of this step. */
    uint64_t used = spent(ws) - before;
    nb_status ast = nb_aa_step(ws->aa, expansions > used ? expansions - used : 0, done, err);
    if (ast != NB_OK)
        ws->phase = NBI_HAA_IDLE;
    return ast;
}

/* The best partial path of a query stopped before its end, into ws->path: during refinement,
 * the steps refined so far; during the abstract search, the path to the expanded node nearest
 * the goal, refined (a cluster A* for a step without a stored path runs whole here); before,
 * the start alone. */
static nb_status partial(nb_haa *ws, nb_err *err)
{
    nb_haa_result *res = &ws->res;
    if (ws->phase == NBI_HAA_REFINE) {
        if (ws->len == 0 && (!path_room(ws, 1) || !append_run(ws, &ws->q.start, 1, 0)))
            return no_memory(ws, err);
        return NB_OK;
    }
    ws->len = 0;
    nbi_pool_begin(&ws->where);
    ws->wx0 = NBI_HAA_NO_TILE;
    if (ws->phase == NBI_HAA_ABSTRACT && ws->as.best != ws->g.nnodes) {
        if (!abstract_path(ws, ws->as.best))
            return no_memory(ws, err);
        res->abstract_len = ws->na;
        res->abstract_length = ws->as.best_g;
        ws->refine_k = ws->na - 1;
        ws->ref_started = 0;
        nb_status st = refine(ws, 0, NULL, err);
        if (st != NB_OK)
            return st;
    }
    if (ws->len == 0 && (!path_room(ws, 1) || !append_run(ws, &ws->q.start, 1, 0)))
        return no_memory(ws, err);
    return NB_OK;
}

/* The answer of the Annotated A* query begun under an overlay: its path, straightened and
 * smoothed as asked. */
static nb_status finish_overlaid(nb_haa *ws, nb_haa_result *res, nb_err *err)
{
    nb_aa_result r;
    ws->phase = NBI_HAA_IDLE;
    nb_status st = nb_aa_finish(ws->aa, &r, err);
    if (st != NB_OK)
        return st;
    if (!nbi_grow(ws->a, (void **)&ws->path, &ws->pcap, r.path_len, sizeof *ws->path))
        return nbi_fail_nomem(err, "HAA*'s path");
    if (r.path_len)
        memcpy(ws->path, r.path, r.path_len * sizeof *ws->path);
    ws->len = r.path_len;
    *res = ws->res;
    res->status = r.status;
    res->expanded_search += r.expanded; /* the graph's search, then Annotated A*'s */
    res->expanded = spent(ws) + r.expanded;
    res->abstract_len = 0;
    res->abstract_length = 0;
    if (r.path_len)
        finish_path(ws, res);
    if (ws->part_on && res->status == NB_PATH_FOUND)
        res->status = NB_PATH_PARTIAL;
    return nbi_done(err, NB_OK);
}

nb_status nb_haa_finish(nb_haa *ws, nb_haa_result *res, nb_err *err)
{
    memset(res, 0, sizeof *res);
    res->status = NB_PATH_NONE;
    if (ws->phase == NBI_HAA_IDLE)
        return nbi_fail(err, NB_ERR_ARG, "nb_haa_finish: no query begun (nb_haa_begin)");
    if (ws->phase == NBI_HAA_OVERLAID)
        return finish_overlaid(ws, res, err);
    if (ws->phase != NBI_HAA_DONE) {
        nb_status st = partial(ws, err);
        if (st != NB_OK)
            return st;
        if (ws->q.overlay && clear_prefix(ws) > 0)
            ws->len = clear_prefix(ws); /* the part no block cuts */
        ws->res.status = NB_PATH_LIMIT;
    }
    ws->phase = NBI_HAA_IDLE;
    *res = ws->res;
    res->expanded = spent(ws);
    if (res->status == NB_PATH_FOUND || res->status == NB_PATH_LIMIT)
        finish_path(ws, res);
    if (ws->part_on && res->status == NB_PATH_FOUND)
        res->status = NB_PATH_PARTIAL;
    nbi_ok(err);
    return NB_OK;
}

nb_status nb_haa_find(nb_haa *ws, const nb_haa_query *q, nb_haa_result *res, nb_err *err)
{
    int done;
    nb_status st = nb_haa_begin(ws, q, err);
    /* Nothing can stop this search before its end (only an error, which returns no path): the
     * best partial path need not be followed. */
    ws->whole = st == NB_OK && !q->max_expansions && !ws->max_nodes;
    if (st == NB_OK)
        st = nb_haa_step(ws, UINT64_MAX, &done, err);
    if (st == NB_OK)
        return nb_haa_finish(ws, res, err);
    memset(res, 0, sizeof *res);
    res->status = NB_PATH_NONE;
    return st;
}

nb_status nb_haa_reachable(nb_haa *ws, const nb_haa_query *q, int *reachable, nb_err *err)
{
    if (!ws || !q || !reachable)
        return nbi_fail(err, NB_ERR_ARG, "nb_haa_reachable: NULL argument");
    *reachable = 0;
    /* Reachability is the same under either corner rule and any costs: the
     * query's corner rule, costs, flags and budget are not read. */
    nb_haa_query hq = *q;
    hq.corner = NB_CORNER_STRICT;
    hq.costs = NULL;
    hq.flags = 0;
    hq.max_expansions = 0;
    hq.partial = 0;
    q = &hq;
    nb_status st = check_query(ws, q, &ws->wc, err); /* nb_haa_begin below makes it again */
    if (st != NB_OK)
        return st;
    nbi_layer clear;
    if ((st = nbi_agent_layer(ws->b, "HAA*", q->capability, q->size, &clear, err)) != NB_OK)
        return st;
    int r = q->overlay ? nb_overlay_reachable(q->overlay, q->capability, q->size, q->start, q->goal)
                       : nb_reachable(ws->b, q->capability, q->size, q->start, q->goal);
    if (r == 0 || r == 1) {
        *reachable = r;
        return nbi_done(err, NB_OK);
    }
    /* Joined on the bundle, both ends standable under the overlay, cells blocked (or no
     * component layer).  Connectivity is the same under either corner rule (a diagonal step
     * the weak rule allows goes round by its free corner) and under any costs, so the strict
     * rule without costs answers for all. */
    uint32_t ci, si;
    st = NB_ERR_NOTFOUND;
    if (serves(ws, q->capability, q->size, &ci, &si, NULL) == NB_OK) {
        ws->reach_only = 1;
        st = nb_haa_begin(ws, &hq, NULL);
        if (st == NB_OK && ws->phase != NBI_HAA_DONE && q->overlay && !ws->rep)
            st = NB_ERR_NOTFOUND; /* the baked graph alone might pass through blocks */
        nb_haa_result res;
        int done;
        if (st == NB_OK)
            st = nb_haa_step(ws, UINT64_MAX, &done, NULL);
        if (st == NB_OK)
            st = nb_haa_finish(ws, &res, NULL);
        ws->reach_only = 0;
        ws->phase = NBI_HAA_IDLE;
        if (st == NB_OK && (res.status == NB_PATH_FOUND || res.status == NB_PATH_NONE)) {
            *reachable = res.status == NB_PATH_FOUND;
            return nbi_done(err, NB_OK);
        }
        if (st == NB_ERR_NOMEM)
            return nbi_fail_nomem(err, "HAA*'s reachability search");
    }
    /* An agent the graph does not serve, or a graph the overlay does not repair: Annotated A*
     * over the map answers, exactly (nb_haa_reachable(3) says so). */
    nb_aa_query aq;
    nb_aa_result ar;
    aa_of(&hq, &aq);
    if (!ws->aa && (st = nb_aa_open(ws->b, &ws->aa, err)) != NB_OK)
        return st;
    nb_aa_set_max_nodes(ws->aa, 0);
    if ((st = nb_aa_find(ws->aa, &aq, &ar, err)) != NB_OK)
        return st;
    *reachable = ar.status == NB_PATH_FOUND;
    return nbi_done(err, NB_OK);
}
