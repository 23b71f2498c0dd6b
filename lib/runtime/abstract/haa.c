/* haa.c: Hierarchical Annotated A* queries (Harabor and Botea, CIG 2008,
 * section VIII) on the graph mkabstract bakes.
 *
 * The paper joins start and goal to their clusters' abstract nodes with
 * one AA* search per node (i + j searches).  One Dijkstra from each end,
 * inside its cluster and for the agent's own capability and size, gives
 * all of those costs at once, and its parent pointers are the refinement
 * of the first and last abstract edges.  The abstract search is A* over
 * the nodes plus the two ends, taking an edge only when its annotation
 * admits the agent; the octile distance is consistent on this graph (no
 * edge weighs less than the distance between its ends, which the reader
 * checks), so no node is expanded twice. */
#include <stdio.h>

#include "abstract/abstract.h"
#include "abstract/haa.h"

#define VIA_START UINT32_MAX        /* start -> node: the start's insertion search */
#define VIA_GOAL (UINT32_MAX - 1)   /* node -> goal: the goal's insertion search */
#define VIA_DIRECT (UINT32_MAX - 2) /* start -> goal inside their one cluster */
#define VIA_NEAR (UINT32_MAX - 3)   /* start -> goal, ends near: the clusters around them */

struct nb_haa {
    const nb_bundle *b;
    const nb_allocator *a;
    nbi_agraph g;
    size_t bytes;
    nbi_layer *layer; /* clearance of each of the graph's capabilities */
    nbi_layer *comp;  /* components of each (capability, size), where baked */
    uint8_t *has_comp;
    uint32_t top;     /* the largest size served */
    nbi_csearch ins[2], ref, near;
    nb_cell *targets, *seg;
    /* the abstract search over nodes 0..nnodes-1, start (nnodes), goal (nnodes + 1) */
    uint32_t n;
    double *gv;
    uint32_t *parent, *via, *seen, *closed, *hpos, *anodes;
    uint32_t stamp;
    nbi_heap heap;
    uint8_t capok[256];
    /* the cell path, with where each cell is in it (to cut loops) */
    nb_cell *path;
    uint32_t *where, *wstamp;
    uint32_t pstamp;
};

void nb_haa_close(nb_haa *ws)
{
    if (!ws)
        return;
    nbi_free(ws->a, ws->layer);
    nbi_free(ws->a, ws->comp);
    nbi_free(ws->a, ws->has_comp);
    for (int i = 0; i < 2; i++)
        nbi_csearch_free(&ws->ins[i]);
    nbi_csearch_free(&ws->ref);
    nbi_csearch_free(&ws->near);
    nbi_free(ws->a, ws->targets);
    nbi_free(ws->a, ws->seg);
    nbi_free(ws->a, ws->gv);
    nbi_free(ws->a, ws->parent);
    nbi_free(ws->a, ws->via);
    nbi_free(ws->a, ws->seen);
    nbi_free(ws->a, ws->closed);
    nbi_free(ws->a, ws->hpos);
    nbi_free(ws->a, ws->anodes);
    nbi_heap_free(&ws->heap);
    nbi_free(ws->a, ws->path);
    nbi_free(ws->a, ws->where);
    nbi_free(ws->a, ws->wstamp);
    nbi_free(ws->a, ws);
}

nb_status nbi_haa_new_graph(const nb_bundle *b, const nbi_agraph *g, size_t bytes, nb_haa **out,
                            nb_err *err)
{
    *out = NULL;
    nb_haa *ws = nbi_zalloc_array(b->a, 1, sizeof *ws);
    if (!ws)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for an HAA* workspace");
    ws->b = b;
    ws->a = b->a;
    ws->g = *g;
    ws->bytes = bytes;
    ws->top = nbi_u32at(g->sizes, g->nsizes - 1);
    size_t ncombo = (size_t)g->ncaps * g->nsizes;
    ws->layer = nbi_zalloc_array(ws->a, g->ncaps, sizeof *ws->layer);
    ws->comp = nbi_zalloc_array(ws->a, ncombo, sizeof *ws->comp);
    ws->has_comp = nbi_zalloc_array(ws->a, ncombo, 1);
    nb_status st = NB_OK;
    if (!ws->layer || !ws->comp || !ws->has_comp)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for an HAA* workspace");
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
    uint32_t nn = g->cluster * g->cluster;
    size_t cells = (size_t)g->width * g->height;
    ws->n = g->nnodes + 2;
    if (st == NB_OK) {
        uint32_t c = g->cluster;
        int ok = nbi_csearch_init(&ws->ins[0], ws->a, c, c) &
                 nbi_csearch_init(&ws->ins[1], ws->a, c, c) &
                 nbi_csearch_init(&ws->ref, ws->a, c, c) &
                 nbi_csearch_init(&ws->near, ws->a, 4 * c, 4 * c);
        ws->near.budget = 2 * (uint64_t)nn;
        ws->targets = nbi_alloc_array(ws->a, ((size_t)4 * g->cluster + 2), sizeof *ws->targets);
        ws->seg = nbi_alloc_array(ws->a, (size_t)16 * nn, sizeof *ws->seg);
        ws->gv = nbi_alloc_array(ws->a, ws->n, sizeof *ws->gv);
        ws->parent = nbi_alloc_array(ws->a, ws->n, sizeof *ws->parent);
        ws->via = nbi_alloc_array(ws->a, ws->n, sizeof *ws->via);
        ws->seen = nbi_zalloc_array(ws->a, ws->n, sizeof *ws->seen);
        ws->closed = nbi_zalloc_array(ws->a, ws->n, sizeof *ws->closed);
        ws->hpos = nbi_alloc_array(ws->a, ws->n, sizeof *ws->hpos);
        ws->anodes = nbi_alloc_array(ws->a, ws->n, sizeof *ws->anodes);
        ws->path = nbi_alloc_array(ws->a, (cells + 1), sizeof *ws->path);
        ws->where = nbi_alloc_array(ws->a, cells, sizeof *ws->where);
        ws->wstamp = nbi_zalloc_array(ws->a, cells, sizeof *ws->wstamp);
        if (!ok || !ws->targets || !ws->seg || !ws->gv || !ws->parent || !ws->via || !ws->seen ||
            !ws->closed || !ws->hpos || !ws->anodes || !ws->path || !ws->where || !ws->wstamp ||
            !nbi_heap_init(&ws->heap, ws->a, ws->n, ws->hpos))
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for an HAA* workspace (%u nodes, %zu cells)",
                          g->nnodes, cells);
        else
            for (uint32_t i = 0; i < ws->n; i++)
                ws->hpos[i] = NBI_HEAP_NONE;
    }
    if (st != NB_OK) {
        nb_haa_close(ws);
        return st;
    }
    *out = ws;
    nbi_ok(err);
    return NB_OK;
}

nb_status nb_haa_open(const nb_bundle *b, nb_haa **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_haa_open: no place for the workspace");
    *out = NULL;
    nbi_agraph g;
    nb_status st = nbi_agraph_find(b, &g, err);
    if (st != NB_OK)
        return st;
    return nbi_haa_new_graph(b, &g, (size_t)b->sections[g.section].info.usize, out, err);
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
}

static inline nb_cell node_cell(const nbi_agraph *g, uint32_t u)
{
    nb_cell c = {nbi_u16at(g->node_xy, 2 * (size_t)u), nbi_u16at(g->node_xy, 2 * (size_t)u + 1)};
    return c;
}

static inline double octile(nb_cell a, nb_cell b) { return nbi_octile_cells(a.x, a.y, b.x, b.y); }

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

uint32_t nbi_haa_nodes(const nb_haa *ws)
{
    return ws->g.nnodes;
}

size_t nbi_haa_waypoints(const nb_haa *ws, const nb_haa_result *res, nb_cell *out)
{
    /* ws->anodes holds the path goal first, start last (only when the
     * abstract search ran: a path of 2 or fewer nodes has no inner ones). */
    size_t n = 0;
    for (size_t k = res->abstract_len >= 3 ? res->abstract_len - 2 : 0; k >= 1; k--) {
        nb_cell c = node_cell(&ws->g, ws->anodes[k]);
        /* Across a border (an inter-edge, one step): keep the end it enters. */
        if (k >= 2 && ws->anodes[k - 1] < ws->g.nnodes) {
            nb_cell d = node_cell(&ws->g, ws->anodes[k - 1]);
            if (nbi_node_cluster(&ws->g, (uint32_t)c.x, (uint32_t)c.y) !=
                nbi_node_cluster(&ws->g, (uint32_t)d.x, (uint32_t)d.y))
                continue;
        }
        out[n++] = c;
    }
    return n;
}

/* Appends c to the path; when c is already on it, the loop back to it
 * is cut instead. */
static void append(nb_haa *ws, size_t *len, nb_cell c)
{
    size_t i = (size_t)c.y * ws->g.width + (size_t)c.x;
    uint32_t at = ws->where[i];
    if (ws->wstamp[i] == ws->pstamp && at < *len && ws->path[at].x == c.x &&
        ws->path[at].y == c.y) {
        *len = (size_t)at + 1;
        return;
    }
    ws->where[i] = (uint32_t)*len;
    ws->wstamp[i] = ws->pstamp;
    ws->path[(*len)++] = c;
}

/* 1 when the agent may walk cells c[0..n), each a step from the one
 * before: every cell standable, every diagonal step allowed by the corner
 * rule.  The cells a graph gives without a search (a stored path, the two
 * ends of an inter-edge) are the agent's only when the graph was baked from
 * the bundle's own clearance layers; in a damaged bundle they may not be,
 * and what is made of the path after (straightening) relies on each step. */
static int cells_walkable(const nbi_layer *l, uint32_t size, nb_corner corner, const nb_cell *c,
                          size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!nbi_standable(l, size, c[i].x, c[i].y))
            return 0;
        if (i && c[i].x != c[i - 1].x && c[i].y != c[i - 1].y) {
            int c1 = nbi_standable(l, size, c[i].x, c[i - 1].y);
            int c2 = nbi_standable(l, size, c[i - 1].x, c[i].y);
            if (corner == NB_CORNER_STRICT ? !(c1 && c2) : !(c1 || c2))
                return 0;
        }
    }
    return 1;
}

/* The cells of intra-edge arc a from u to v, into ws->seg; returns the
 * count, 0 when there is no such path (a damaged graph). */
static size_t refine_arc(nb_haa *ws, const nbi_layer *l, uint32_t size, nb_corner corner,
                         uint32_t u, uint32_t v, size_t a, uint64_t *expanded)
{
    const nbi_agraph *g = &ws->g;
    nb_cell cu = node_cell(g, u), cv = node_cell(g, v);
    /* A stored path follows the graph's corner rule: usable unless the
     * query's rule is stricter. */
    if (g->arc_path && !(g->corner == NBI_CORNER_WEAK && corner == NB_CORNER_STRICT)) {
        size_t n = nbi_agraph_arc_cells(g, a, u, v, ws->seg);
        return cells_walkable(l, size, corner, ws->seg, n) ? n : 0;
    }
    nbi_box box = nbi_cluster_box(nbi_node_cluster(g, (uint32_t)cu.x, (uint32_t)cu.y), g->ncx,
                                  g->cluster, g->width, g->height);
    int found = nbi_csearch_run(&ws->ref, l, size, (int)corner, &box, cu, &cv, NULL, 0);
    *expanded += ws->ref.expanded;
    return found ? nbi_csearch_path(&ws->ref, cv, ws->seg) : 0;
}

/* The path found, ws->path[0..len): straightened and smoothed as asked,
 * measured, and handed over in res. */
static nb_status finish(nb_haa *ws, const nbi_layer *l, const nb_aa_query *q, unsigned flags,
                        size_t len, nb_haa_result *res)
{
    res->status = NB_PATH_FOUND;
    if (flags & NB_HAA_STRAIGHTEN)
        len = nbi_straighten(l, q->size, (int)q->corner, ws->path, len);
    double cl = 0;
    for (size_t i = 1; i < len; i++)
        cl += (ws->path[i].x != ws->path[i - 1].x && ws->path[i].y != ws->path[i - 1].y) ? NBI_SQRT2
                                                                                       : 1.0;
    res->cell_length = cl;
    res->length = cl;
    if (flags & NB_HAA_SMOOTH) {
        len = nbi_square_smooth(l, q->size, ws->path, len);
        res->length = nbi_polyline_length(ws->path, len);
    }
    res->path_len = len;
    res->path = ws->path;
    res->expanded = res->expanded_insert + res->expanded_search + res->expanded_refine;
    return NB_OK;
}

/* The query's own faults, found before anything is read: unknown flags, an end outside the map,
 * size 0, an unknown corner rule. */
static nb_status check_query(const nb_haa *ws, const nb_aa_query *q, unsigned flags, nb_err *err)
{
    const nbi_agraph *g = &ws->g;
    const unsigned known = NB_HAA_SMOOTH | NB_HAA_STRAIGHTEN;
    if (flags & ~known)
        return nbi_fail(err, NB_ERR_ARG, "HAA*: unknown flags %#x", flags & ~known);
    if (q->start.x < 0 || q->start.y < 0 || (uint32_t)q->start.x >= g->width ||
        (uint32_t)q->start.y >= g->height)
        return nbi_fail(err, NB_ERR_ARG, "HAA*: start (%d, %d) is outside the %u x %u map",
                        q->start.x, q->start.y, g->width, g->height);
    if (q->goal.x < 0 || q->goal.y < 0 || (uint32_t)q->goal.x >= g->width ||
        (uint32_t)q->goal.y >= g->height)
        return nbi_fail(err, NB_ERR_ARG, "HAA*: goal (%d, %d) is outside the %u x %u map",
                        q->goal.x, q->goal.y, g->width, g->height);
    if (q->size < 1)
        return nbi_fail(err, NB_ERR_ARG, "HAA*: agent size 0");
    if ((unsigned)q->corner > NB_CORNER_WEAK)
        return nbi_fail(err, NB_ERR_ARG, "HAA*: unknown corner rule %d", (int)q->corner);
    return NB_OK;
}

/* The answers that need no search, in res: an end the agent cannot stand on, ends in different
 * components, start and goal the same cell.  Returns 1 when res is the answer.  Past the
 * components' test a path will be built, so the stamp that marks its cells moves on here. */
static int answered_at_once(nb_haa *ws, const nbi_layer *l, const nb_aa_query *q, uint32_t ci,
                            uint32_t si, nb_haa_result *res)
{
    const nbi_agraph *g = &ws->g;
    if (!nbi_standable(l, q->size, q->start.x, q->start.y)) {
        res->status = NB_PATH_START_BLOCKED;
        return 1;
    }
    if (!nbi_standable(l, q->size, q->goal.x, q->goal.y)) {
        res->status = NB_PATH_GOAL_BLOCKED;
        return 1;
    }
    if (ws->has_comp[(size_t)ci * g->nsizes + si]) {
        const nbi_layer *c = &ws->comp[(size_t)ci * g->nsizes + si];
        if (nbi_layer_get(c, (uint64_t)q->start.y * g->width + (uint32_t)q->start.x) !=
            nbi_layer_get(c, (uint64_t)q->goal.y * g->width + (uint32_t)q->goal.x))
            return 1; /* no path, known without a search */
    }
    if (++ws->pstamp == 0) {
        memset(ws->wstamp, 0, (size_t)g->width * g->height * sizeof *ws->wstamp);
        ws->pstamp = 1;
    }
    if (q->start.x == q->goal.x && q->start.y == q->goal.y) {
        res->status = NB_PATH_FOUND;
        ws->path[0] = q->start;
        res->path_len = 1;
        res->abstract_len = 1;
        res->path = ws->path;
        return 1;
    }
    return 0;
}

/* Ends in the same or neighbouring clusters (ks, kg): the best path may leave and enter their
 * clusters where no transition stands.  An A* over the clusters around both, on a budget of
 * expansions, offers that path as one more edge from start to goal: returns its cost, or -1
 * (ends further apart, or no path within the budget). */
static double search_near(nb_haa *ws, const nbi_layer *l, const nb_aa_query *q, uint32_t ks,
                          uint32_t kg, nb_haa_result *res)
{
    const nbi_agraph *g = &ws->g;
    double near_cost = -1;
    int32_t sx = (int32_t)(ks % g->ncx), sy = (int32_t)(ks / g->ncx);
    int32_t gx = (int32_t)(kg % g->ncx), gy = (int32_t)(kg / g->ncx);
    if (sx - gx <= 1 && gx - sx <= 1 && sy - gy <= 1 && gy - sy <= 1) {
        int32_t cx0 = (sx < gx ? sx : gx) - 1, cx1 = (sx > gx ? sx : gx) + 1;
        int32_t cy0 = (sy < gy ? sy : gy) - 1, cy1 = (sy > gy ? sy : gy) + 1;
        int32_t n = (int32_t)g->cluster;
        nbi_box box = {cx0 < 0 ? 0 : cx0 * n, cy0 < 0 ? 0 : cy0 * n,
                       (cx1 + 1) * n > (int32_t)g->width ? (int32_t)g->width : (cx1 + 1) * n,
                       (cy1 + 1) * n > (int32_t)g->height ? (int32_t)g->height : (cy1 + 1) * n};
        if (nbi_csearch_run(&ws->near, l, q->size, (int)q->corner, &box, q->start, &q->goal, NULL,
                            0))
            near_cost = nbi_csearch_cost(&ws->near, q->goal, NULL);
        res->expanded_insert += ws->near.expanded;
    }
    return near_cost;
}

/* Insertion: one Dijkstra from each end over its own cluster (ks, kg), to every node there the
 * agent may stand on (and to the goal, from a start in its cluster). */
static void insert_ends(nb_haa *ws, const nbi_layer *l, const nb_aa_query *q, uint32_t ks,
                        uint32_t kg, nb_haa_result *res)
{
    const nbi_agraph *g = &ws->g;
    const uint32_t size = q->size;
    const nb_cell ends[2] = {q->start, q->goal};
    const uint32_t kk[2] = {ks, kg};
    for (int e = 0; e < 2; e++) {
        uint32_t a = nbi_u32at(g->cluster_first, kk[e]), z = nbi_u32at(g->cluster_first, kk[e] + 1);
        size_t nt = 0;
        for (uint32_t u = a; u < z; u++) {
            nb_cell c = node_cell(g, u);
            if (nbi_standable(l, size, c.x, c.y))
                ws->targets[nt++] = c;
        }
        if (e == 0 && ks == kg)
            ws->targets[nt++] = q->goal;
        nbi_box box = nbi_cluster_box(kk[e], g->ncx, g->cluster, g->width, g->height);
        if (nt)
            nbi_csearch_run(&ws->ins[e], l, size, (int)q->corner, &box, ends[e], NULL, ws->targets,
                            nt);
        else /* nothing to reach: a search that settles the end alone */
            nbi_csearch_run(&ws->ins[e], l, size, (int)q->corner, &box, ends[e], &ends[e], NULL, 0);
        res->expanded_insert += ws->ins[e].expanded;
    }
}

/* The abstract search: A* from the start node (nnodes) to the goal node (nnodes + 1) over the
 * graph's nodes, taking the edges whose annotation admits the agent, the insertion searches'
 * costs (ks, kg the ends' clusters) and the near search's (near_cost, when not -1).  Returns 1
 * when it reached the goal. */
static int abstract_search(nb_haa *ws, const nb_aa_query *q, uint32_t ks, uint32_t kg,
                           double near_cost, nb_haa_result *res)
{
    const nbi_agraph *g = &ws->g;
    const uint32_t size = q->size;
    for (uint32_t i = 0; i < g->ncaps; i++)
        ws->capok[i] = (nbi_u32at(g->caps, i) & ~q->capability) == 0;
    if (++ws->stamp == 0) {
        memset(ws->seen, 0, ws->n * sizeof *ws->seen);
        memset(ws->closed, 0, ws->n * sizeof *ws->closed);
        ws->stamp = 1;
    }
    nbi_heap_clear(&ws->heap);
    const uint32_t st = ws->stamp, S = g->nnodes, G = g->nnodes + 1;
    const uint32_t g0 = nbi_u32at(g->cluster_first, kg), g1 = nbi_u32at(g->cluster_first, kg + 1);
    ws->gv[S] = 0;
    ws->seen[S] = st;
    ws->parent[S] = S;
    nbi_heap_push(&ws->heap, octile(q->start, q->goal), 0, S);
#define RELAX(v, ng, from, how)                                                                   \
    do {                                                                                          \
        uint32_t v_ = (v);                                                                        \
        double ng_ = (ng);                                                                        \
        if (ws->closed[v_] != st && (ws->seen[v_] != st || ng_ < ws->gv[v_])) {                   \
            ws->seen[v_] = st;                                                                    \
            ws->gv[v_] = ng_;                                                                     \
            ws->parent[v_] = (from);                                                              \
            ws->via[v_] = (how);                                                                  \
            nbi_heap_push(&ws->heap, ng_ + (v_ == G ? 0 : octile(node_cell(g, v_), q->goal)),   \
                          -ng_, v_);                                                              \
        }                                                                                         \
    } while (0)
    int reached = 0;
    while (!nbi_heap_empty(&ws->heap)) {
        uint32_t u = nbi_heap_pop(&ws->heap).id;
        ws->closed[u] = st;
        res->expanded_search++;
        if (u == G) {
            reached = 1;
            break;
        }
        double gu = ws->gv[u];
        if (u == S) {
            uint32_t a = nbi_u32at(g->cluster_first, ks), z = nbi_u32at(g->cluster_first, ks + 1);
            for (uint32_t v = a; v < z; v++) {
                double c = nbi_csearch_cost(&ws->ins[0], node_cell(g, v), NULL);
                if (c >= 0)
                    RELAX(v, c, S, VIA_START);
            }
            if (ks == kg) {
                double c = nbi_csearch_cost(&ws->ins[0], q->goal, NULL);
                if (c >= 0)
                    RELAX(G, c, S, VIA_DIRECT);
            }
            if (near_cost >= 0)
                RELAX(G, near_cost, S, VIA_NEAR);
            continue;
        }
        uint32_t a0 = nbi_u32at(g->node_first, u), a1 = nbi_u32at(g->node_first, u + 1);
        for (uint32_t a = a0; a < a1; a++) {
            const uint8_t *ann = g->arc_ann + 2 * (size_t)a;
            if (!ws->capok[ann[0]] || ann[1] < size)
                continue;
            RELAX(nbi_u32at(g->arc_to, a), gu + nbi_arc_weight(g, a), u, a);
        }
        if (u >= g0 && u < g1) {
            double c = nbi_csearch_cost(&ws->ins[1], node_cell(g, u), NULL);
            if (c >= 0)
                RELAX(G, gu + c, u, VIA_GOAL);
        }
    }
#undef RELAX
    return reached;
}

/* The cells of the abstract path's step from u to v, into ws->seg, in the order they are
 * walked when *reverse is 0, else backwards; returns the count, 0 when an intra-edge has no
 * path (a damaged graph). */
static size_t step_cells(nb_haa *ws, const nbi_layer *l, const nb_aa_query *q, uint32_t u,
                         uint32_t v, int *reverse, uint64_t *expanded)
{
    const nbi_agraph *g = &ws->g;
    const uint32_t how = ws->via[v];
    *reverse = 0;
    if (how == VIA_START)
        return nbi_csearch_path(&ws->ins[0], node_cell(g, v), ws->seg);
    if (how == VIA_DIRECT)
        return nbi_csearch_path(&ws->ins[0], q->goal, ws->seg);
    if (how == VIA_NEAR)
        return nbi_csearch_path(&ws->near, q->goal, ws->seg);
    if (how == VIA_GOAL) {
        *reverse = 1;
        return nbi_csearch_path(&ws->ins[1], node_cell(g, u), ws->seg);
    }
    nb_cell cu = node_cell(g, u), cv = node_cell(g, v);
    if (nbi_node_cluster(g, (uint32_t)cu.x, (uint32_t)cu.y) !=
        nbi_node_cluster(g, (uint32_t)cv.x, (uint32_t)cv.y)) {
        ws->seg[0] = cu; /* an inter-edge: one step across the border */
        ws->seg[1] = cv;
        return cells_walkable(l, q->size, q->corner, ws->seg, 2) ? 2 : 0;
    }
    return refine_arc(ws, l, q->size, q->corner, u, v, how, expanded);
}

/* Refinement, from the start end of the abstract path the search left in ws->parent: each
 * step's cells appended to ws->path, whose length goes in *len. */
static nb_status refine(nb_haa *ws, const nbi_layer *l, const nb_aa_query *q, size_t *len,
                        nb_haa_result *res, nb_err *err)
{
    const uint32_t S = ws->g.nnodes, G = ws->g.nnodes + 1;
    size_t na = 0;
    for (uint32_t v = G;; v = ws->parent[v]) {
        ws->anodes[na++] = v;
        if (v == S)
            break;
    }
    res->abstract_len = na;
    *len = 0;
    for (size_t k = na - 1; k > 0; k--) {
        int reverse;
        size_t n = step_cells(ws, l, q, ws->anodes[k], ws->anodes[k - 1], &reverse,
                              &res->expanded_refine);
        if (n == 0) {
            res->expanded = res->expanded_insert + res->expanded_search + res->expanded_refine;
            return nbi_fail(err, NB_ERR_FORMAT,
                            "HAA*: an abstract edge that admits the agent has no path inside its "
                            "cluster, or cells the agent may not walk: the abstract graph is "
                            "damaged or built for another map");
        }
        for (size_t i = 0; i < n; i++)
            append(ws, len, ws->seg[reverse ? n - 1 - i : i]);
    }
    return NB_OK;
}

/* The query's phases in turn: checks, the answers without a search, the near search, the ends'
 * insertion, the abstract search, refinement, and finish()'s straightening and smoothing. */
static nb_status find(nb_haa *ws, const nb_aa_query *q, unsigned flags, nb_haa_result *res,
                      nb_err *err)
{
    memset(res, 0, sizeof *res);
    res->status = NB_PATH_NONE;
    const nbi_agraph *g = &ws->g;
    nb_status st = check_query(ws, q, flags, err);
    if (st != NB_OK)
        return st;
    uint32_t ci, si;
    st = serves(ws, q->capability, q->size, &ci, &si, err);
    if (st != NB_OK)
        return st;
    const nbi_layer *l = &ws->layer[ci];
    if (answered_at_once(ws, l, q, ci, si, res))
        return NB_OK;
    res->searched = 1;

    uint32_t ks = nbi_node_cluster(g, (uint32_t)q->start.x, (uint32_t)q->start.y);
    uint32_t kg = nbi_node_cluster(g, (uint32_t)q->goal.x, (uint32_t)q->goal.y);
    double near_cost = search_near(ws, l, q, ks, kg, res);
    /* As short as the octile distance: nothing can do better. */
    if (near_cost >= 0 && near_cost <= octile(q->start, q->goal) + 1e-9) {
        res->abstract_len = 2;
        res->abstract_length = near_cost;
        return finish(ws, l, q, flags, nbi_csearch_path(&ws->near, q->goal, ws->path), res);
    }
    insert_ends(ws, l, q, ks, kg, res);
    if (!abstract_search(ws, q, ks, kg, near_cost, res)) {
        res->expanded = res->expanded_insert + res->expanded_search;
        return NB_OK; /* NB_PATH_NONE: the graph is complete, so there is none */
    }
    res->abstract_length = ws->gv[g->nnodes + 1];
    size_t len;
    st = refine(ws, l, q, &len, res, err);
    if (st != NB_OK)
        return st;
    return finish(ws, l, q, flags, len, res);
}

nb_status nb_haa_find(nb_haa *ws, const nb_aa_query *q, unsigned flags, nb_haa_result *res,
                      nb_err *err)
{
    return nbi_done(err, find(ws, q, flags, res, err));
}
