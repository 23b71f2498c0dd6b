/* haa_world.c: HAA* across a world's tiles.  The world bundle's graph
 * above the tiles (formats/world.md: each tile's abstract nodes on its
 * edges, their distances inside it, their arcs across its edges) is
 * searched with A* between the query's ends, each inserted into its own
 * tile: a Dijkstra in its cluster to the cluster's nodes, then over the
 * tile's abstract graph kept to its cells (tile_dijkstra.c, as the tile
 * action measured the distances) to its tile's portals.  So the search
 * itself reads no tile; the ends' tiles are read for the insertion, and
 * the tiles the path crosses for its refinement, each stretch inside a
 * tile refined by that tile bundle's own HAA*.  A tile that is not
 * loaded is named (NB_ERR_UNLOADED), never loaded. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "abstract/haa_ws.h"
#include "core/heap.h"
#include "stream/haa_world.h"
#include "stream/wquery.h"

#define FAMILY "world HAA*"

struct nbi_whaa {
    const nb_world *w;
    const nb_allocator *a;
    nbi_wgraph g;
    nb_capability cap;
    uint32_t size, maxp;     /* the most portals a tile has */
    double *gv;              /* per key: nodes, then start, goal */
    uint32_t *parent, *stamp, sid;
    uint32_t *pos;           /* the heap's positions: one entry a key */
    double *gcost;           /* per portal of the goal's tile: its cost to the goal, or -1 */
    nbi_heap heap;
    uint32_t *keys;          /* the path's keys, goal first */
    nb_cell *path;
    size_t pcap;
    int abstract_only;
    unsigned flags;          /* of each tile's HAA* refining a stretch */
    uint64_t max_expansions; /* of the search above the tiles; 0: none */
};

void nbi_whaa_set_refine(nbi_whaa *q, int refine) { q->abstract_only = !refine; }

void nbi_whaa_set_query(nbi_whaa *q, unsigned flags, uint64_t max_expansions)
{
    q->flags = flags;
    q->max_expansions = max_expansions;
}

size_t nbi_whaa_bytes(const nbi_whaa *q)
{
    size_t nk = (size_t)q->g.nodes + 2;
    return sizeof *q + nk * (sizeof *q->gv + sizeof *q->parent + sizeof *q->stamp +
                             sizeof *q->keys + sizeof *q->pos) +
           ((size_t)q->maxp + 1) * sizeof *q->gcost + q->pcap * sizeof *q->path +
           nbi_heap_bytes(&q->heap);
}

static uint32_t node_local(const nbi_wgraph *g, uint32_t u)
{
    return nbi_get32(g->node + (size_t)u * NBI_WGRAPH_NODE + NBI_WGRAPH_N_LOCAL);
}
static nb_cell node_cell(const nbi_wgraph *g, uint32_t u)
{
    const uint8_t *q = g->node + (size_t)u * NBI_WGRAPH_NODE;
    nb_cell c = {(int32_t)nbi_get32(q + NBI_WGRAPH_N_X), (int32_t)nbi_get32(q + NBI_WGRAPH_N_Y)};
    return c;
}

void nbi_whaa_free(nbi_whaa *q)
{
    if (!q)
        return;
    nbi_heap_free(&q->heap);
    nbi_free(q->a, q->gv);
    nbi_free(q->a, q->parent);
    nbi_free(q->a, q->stamp);
    nbi_free(q->a, q->pos);
    nbi_free(q->a, q->gcost);
    nbi_free(q->a, q->keys);
    nbi_free(q->a, q->path);
    nbi_free(q->a, q);
}

nb_status nbi_whaa_new(const nb_world *w, nb_capability cap, uint32_t size, nbi_whaa **out,
                       nb_err *err)
{
    *out = NULL;
    const nb_bundle *b = w->index;
    long at = -1;
    for (size_t i = 0; i < b->nsections; i++)
        if (b->sections[i].info.type == NB_SEC_WORLD_GRAPH &&
            b->sections[i].info.param[0] == cap && b->sections[i].info.param[1] == size)
            at = (long)i;
    if (at < 0)
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: %s: no world HAA* graph for capability %#x and size %u", b->path,
                        FAMILY, cap, size);
    nbi_whaa *q = nbi_zalloc_array(b->a, 1, sizeof *q);
    if (!q)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a %s workspace", FAMILY);
    q->w = w;
    q->a = b->a;
    q->cap = cap;
    q->size = size;
    q->flags = NB_HAA_STRAIGHTEN; /* each stretch inside a tile as straight as the tile allows */
    nb_status st = nbi_wgraph_at(b, (size_t)at, &q->g, err);
    if (st != NB_OK) {
        nbi_free(q->a, q);
        return st;
    }
    for (uint32_t t = 0; t < q->g.tiles; t++) {
        uint32_t n = nbi_u32at(q->g.tile_first, t + 1) - nbi_u32at(q->g.tile_first, t);
        q->maxp = n > q->maxp ? n : q->maxp;
    }
    size_t nk = (size_t)q->g.nodes + 2;
    q->gv = nbi_alloc_array(q->a, nk, sizeof *q->gv);
    q->parent = nbi_alloc_array(q->a, nk, sizeof *q->parent);
    q->stamp = nbi_zalloc_array(q->a, nk, sizeof *q->stamp);
    q->keys = nbi_alloc_array(q->a, nk, sizeof *q->keys);
    q->gcost = nbi_alloc_array(q->a, (size_t)q->maxp + 1, sizeof *q->gcost);
    q->pos = nbi_alloc_array(q->a, nk, sizeof *q->pos);
    for (size_t k = 0; q->pos && k < nk; k++)
        q->pos[k] = NBI_HEAP_NONE;
    if (!q->gv || !q->parent || !q->stamp || !q->keys || !q->gcost || !q->pos ||
        !nbi_heap_init(&q->heap, q->a, 1024, q->pos)) {
        nbi_whaa_free(q);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a %s workspace", FAMILY);
    }
    *out = q;
    return NB_OK;
}

/* ---- the tiles a query reads, pinned (stream.h) ---- */

typedef struct pins {
    uint32_t slot[512];
    const nbi_stile *tile[512];
    size_t n, missing;
} pins;

static const nbi_stile *pin(const nb_world *w, pins *p, uint32_t slot, nb_world_tile *needed,
                            size_t needed_max)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->slot[i] == slot)
            return p->tile[i];
    if (p->n == 512)
        return NULL;
    nbi_slot *s = &w->slots[slot];
    atomic_fetch_add(&s->readers, 1);
    const nbi_stile *t = atomic_load(&s->tile);
    p->slot[p->n] = slot;
    p->tile[p->n++] = t;
    if (!t) {
        if (needed && p->missing < needed_max)
            needed[p->missing] = (nb_world_tile){slot % w->x.columns, slot / w->x.columns};
        p->missing++;
    }
    return t;
}

static void unpin(const nb_world *w, pins *p)
{
    for (size_t i = 0; i < p->n; i++)
        atomic_fetch_sub(&w->slots[p->slot[i]].readers, 1);
    p->n = 0;
}

/* ---- an end inserted into its tile ---- */

/* The cost from end c (world cell, in tile t whose HAA* workspace is h) to
 * each portal of t in the world graph, into cost[] (-1: none).  0 without
 * memory, 2 when the agent cannot stand at c. */
static int insert(nbi_whaa *q, nb_haa *h, const nbi_stile *t, uint32_t slot, nb_cell c,
                  double *cost)
{
    const nbi_agraph *g = &h->g;
    uint32_t first = nbi_u32at(q->g.tile_first, slot), np = nbi_u32at(q->g.tile_first, slot + 1) - first;
    for (uint32_t i = 0; i < np; i++)
        cost[i] = -1;
    long ci = nbi_agraph_cap_index(g, q->cap);
    nb_cell lc = {c.x - (int32_t)t->tag.origin_x, c.y - (int32_t)t->tag.origin_y};
    if (ci < 0 || !nbi_standable(&h->layer[ci], q->size, lc.x, lc.y))
        return 2;
    uint32_t k = nbi_node_cluster(g, (uint32_t)lc.x, (uint32_t)lc.y);
    nbi_box box = nbi_cluster_box(k, g->ncx, g->cluster, g->width, g->height);
    uint32_t a = nbi_u32at(g->cluster_first, k), z = nbi_u32at(g->cluster_first, k + 1);
    uint32_t seed[4 * 256 + 8], sc[4 * 256 + 8], sd[4 * 256 + 8];
    size_t nt = 0;
    for (uint32_t u = a; u < z && nt < sizeof seed / sizeof *seed; u++) {
        nb_cell nc = nbi_agraph_node_cell(g, u);
        if (nbi_standable(&h->layer[ci], q->size, nc.x, nc.y))
            h->targets[nt++] = nc, seed[nt - 1] = u;
    }
    if (!nt)
        return 1;
    nbi_csearch_costs(&h->ins[0], NULL, 0);
    nbi_csearch_run(&h->ins[0], &h->layer[ci], q->size, (int)g->corner, &box, lc, NULL, h->targets,
                    nt);
    size_t ns = 0;
    for (size_t i = 0; i < nt; i++) {
        uint32_t diag;
        double cc = nbi_csearch_cost(&h->ins[0], h->targets[i], &diag);
        if (cc < 0)
            continue;
        seed[ns] = seed[i];
        sd[ns] = diag;
        sc[ns++] = (uint32_t)llround(cc - NBI_SQRT2 * diag);
    }
    nbi_tdijk dj;
    if (!nbi_tdijk_init(&dj, q->a, g->nnodes))
        return 0;
    const nbi_wtile *tg = &t->tag;
    int ok = nbi_tdijk_run(&dj, g, q->cap, q->size, tg->core_x, tg->core_y,
                           tg->core_x + tg->core_w, tg->core_y + tg->core_h, seed, sc, sd, ns);
    for (uint32_t i = 0; ok && i < np; i++) {
        uint32_t u = node_local(&q->g, first + i);
        if (u < g->nnodes && nbi_tdijk_reached(&dj, u))
            cost[i] = nbi_steps_length(dj.card[u], dj.diag[u]);
    }
    nbi_tdijk_free(&dj);
    return ok;
}

/* ---- the search above the tiles ---- */

static void relax(nbi_whaa *q, uint32_t v, double gv, uint32_t from, nb_cell goal, nb_cell at)
{
    if (q->stamp[v] >> 1 == q->sid && (q->stamp[v] & 1 || q->gv[v] <= gv))
        return;
    q->stamp[v] = q->sid << 1;
    q->gv[v] = gv;
    q->parent[v] = from;
    nbi_heap_push(&q->heap, gv + nbi_octile_cells(at.x, at.y, goal.x, goal.y), -gv, v);
}

static int grow_path(nbi_whaa *q, size_t need)
{
    return nbi_grow(q->a, (void **)&q->path, &q->pcap, need, sizeof *q->path);
}

static int append(nbi_whaa *q, size_t *len, nb_cell c)
{
    if (*len && q->path[*len - 1].x == c.x && q->path[*len - 1].y == c.y)
        return 1;
    if (!grow_path(q, *len + 1))
        return 0;
    q->path[(*len)++] = c;
    return 1;
}

static uint32_t tile_of(const nb_world *w, nb_cell c)
{
    return ((uint32_t)c.y / w->x.side) * w->x.columns + (uint32_t)c.x / w->x.side;
}

/* The tile's HAA* from a to b (world cells, both in tile t), appended. */
static nb_status refine(nbi_whaa *q, const nbi_stile *t, nb_cell a, nb_cell b, size_t *len,
                        nb_err *err)
{
    nb_haa *h;
    nb_status st = nb_haa_open(t->b, &h, err);
    if (st != NB_OK)
        return st;
    nb_haa_query hq;
    nb_haa_query_init(&hq);
    hq.start = (nb_cell){a.x - (int32_t)t->tag.origin_x, a.y - (int32_t)t->tag.origin_y};
    hq.goal = (nb_cell){b.x - (int32_t)t->tag.origin_x, b.y - (int32_t)t->tag.origin_y};
    hq.size = q->size;
    hq.capability = q->cap;
    hq.corner = (nb_corner)h->g.corner;
    hq.flags = q->flags;
    nb_haa_result r;
    st = nb_haa_find(h, &hq, &r, err);
    if (st == NB_OK && r.status != NB_PATH_FOUND)
        st = nbi_fail(err, NB_ERR_FORMAT,
                      "%s: %s: tile (%u, %u) finds no path from (%d, %d) to (%d, %d), which the "
                      "world graph joins: the tile and the world bundle disagree",
                      t->b->path, FAMILY, t->tag.column, t->tag.row, a.x, a.y, b.x, b.y);
    for (size_t i = 0; st == NB_OK && i < r.path_len; i++) {
        nb_cell c = {r.path[i].x + (int32_t)t->tag.origin_x, r.path[i].y + (int32_t)t->tag.origin_y};
        if (!append(q, len, c))
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a path");
    }
    nb_haa_close(h);
    return st;
}

static nb_status unloaded(const nbi_whaa *q, const pins *p, nb_world_tile *needed,
                          size_t needed_max, nb_err *err)
{
    (void)needed_max;
    nb_world_tile t = needed && needed_max ? needed[0] : (nb_world_tile){0, 0};
    return nbi_fail(err, NB_ERR_UNLOADED,
                    "%s: %s: %zu tiles are not loaded (the first (%u, %u); nb_world_load, then "
                    "ask again)",
                    q->w->index->path, FAMILY, p->missing, t.column, t.row);
}

nb_status nbi_whaa_find(nbi_whaa *q, nb_cell start, nb_cell goal, nbi_whaa_result *res,
                        nb_world_tile *needed, size_t needed_max, size_t *needed_count,
                        nb_err *err)
{
    const nb_world *w = q->w;
    memset(res, 0, sizeof *res);
    if (needed_count)
        *needed_count = 0;
    nb_cell ends[2] = {start, goal};
    for (int e = 0; e < 2; e++)
        if (ends[e].x < 0 || ends[e].y < 0 || (uint32_t)ends[e].x >= w->x.width ||
            (uint32_t)ends[e].y >= w->x.height)
            return nbi_query_cell_fail(err, FAMILY, e ? "goal" : "start", ends[e], w->x.width,
                                       w->x.height);
    uint32_t ts = tile_of(w, start), tg = tile_of(w, goal);
    uint32_t N = q->g.nodes, S = N, G = N + 1;
    pins p = {{0}, {0}, 0, 0};
    const nbi_stile *st_s = pin(w, &p, ts, needed, needed_max);
    const nbi_stile *st_g = pin(w, &p, tg, needed, needed_max);
    nb_status st = NB_OK;
    if (p.missing) {
        if (needed_count)
            *needed_count = p.missing;
        st = unloaded(q, &p, needed, needed_max, err);
        unpin(w, &p);
        return st;
    }
    /* The ends inserted, and the path inside one tile when they share it. */
    nb_haa *hs = NULL, *hg = NULL;
    double *scost = NULL;
    if ((st = nb_haa_open(st_s->b, &hs, err)) == NB_OK)
        st = nb_haa_open(st_g->b, &hg, err);
    if (st == NB_OK && !(scost = nbi_alloc_array(q->a, (size_t)q->maxp + 1, sizeof *scost)))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
    int ins = st == NB_OK ? insert(q, hs, st_s, ts, start, scost) : 1;
    int ing = st == NB_OK && ins ? insert(q, hg, st_g, tg, goal, q->gcost) : 1;
    if (!ins || !ing)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
    res->start_blocked = ins == 2;
    res->goal_blocked = ing == 2;
    /* Ends in different world components: no path, and no search above the tiles. */
    size_t ci;
    int apart = st == NB_OK && ins == 1 && ing == 1 &&
                nbi_world_comp_of(w, q->cap, q->size, &ci) &&
                nbi_world_component(w, st_s, ci, start) != nbi_world_component(w, st_g, ci, goal);
    res->apart = apart;
    if (++q->sid >= (1u << 31)) {
        memset(q->stamp, 0, ((size_t)N + 2) * sizeof *q->stamp);
        q->sid = 1;
    }
    nbi_heap_clear(&q->heap);
    q->stamp[S] = q->sid << 1;
    q->gv[S] = 0;
    if (st == NB_OK && ts == tg && !apart) {
        /* Inside the one tile: its own HAA*, as a candidate. */
        nb_haa_query hq;
        nb_haa_query_init(&hq);
        hq.start = (nb_cell){start.x - (int32_t)st_s->tag.origin_x,
                             start.y - (int32_t)st_s->tag.origin_y};
        hq.goal = (nb_cell){goal.x - (int32_t)st_s->tag.origin_x, goal.y - (int32_t)st_s->tag.origin_y};
        hq.size = q->size;
        hq.capability = q->cap;
        hq.corner = (nb_corner)hs->g.corner;
        hq.flags = q->flags;
        nb_haa_result r;
        if (nb_haa_find(hs, &hq, &r, NULL) == NB_OK && r.status == NB_PATH_FOUND)
            relax(q, G, r.cell_length, S, goal, goal);
    }
    uint32_t fs = nbi_u32at(q->g.tile_first, ts), fg = nbi_u32at(q->g.tile_first, tg);
    uint32_t ns = nbi_u32at(q->g.tile_first, ts + 1) - fs, ng = nbi_u32at(q->g.tile_first, tg + 1) - fg;
    for (uint32_t i = 0; st == NB_OK && i < ns; i++)
        if (scost[i] >= 0)
            relax(q, fs + i, scost[i], S, goal, node_cell(&q->g, fs + i));
    nb_haa_close(hs);
    nb_haa_close(hg);
    nbi_free(q->a, scost);
    unpin(w, &p);
    if (st != NB_OK || apart)
        return st == NB_OK ? nbi_done(err, NB_OK) : st;
    /* A* over the world graph: no tile read. */
    int found = 0;
    while (!nbi_heap_empty(&q->heap)) {
        nbi_heap_item it = nbi_heap_pop(&q->heap);
        uint32_t u = it.id;
        if (q->stamp[u] & 1)
            continue;
        q->stamp[u] |= 1;
        res->expanded++;
        if (u == G) {
            found = 1;
            break;
        }
        if (q->max_expansions && res->expanded >= q->max_expansions) {
            res->limit = 1;
            break;
        }
        for (uint32_t k = nbi_u32at(q->g.arc_first, u); k < nbi_u32at(q->g.arc_first, u + 1); k++) {
            const uint8_t *a = q->g.arc + (size_t)k * NBI_WGRAPH_ARC;
            uint32_t v = nbi_get32(a + NBI_WGRAPH_A_TO);
            relax(q, v, q->gv[u] + nbi_steps_length(nbi_get32(a + NBI_WGRAPH_A_CARD),
                                                     nbi_get32(a + NBI_WGRAPH_A_DIAG)), u, goal,
                  node_cell(&q->g, v));
        }
        if (u >= fg && u < fg + ng && q->gcost[u - fg] >= 0)
            relax(q, G, q->gv[u] + q->gcost[u - fg], u, goal, goal);
    }
    if (!found)
        return nbi_done(err, NB_OK);
    res->found = 1;
    res->abstract_length = q->gv[G];
    size_t na = 0;
    for (uint32_t u = G;; u = q->parent[u]) {
        q->keys[na++] = u;
        if (u == S)
            break;
    }
    res->abstract_len = na;
    if (q->abstract_only)
        return nbi_done(err, NB_OK);
    /* Refinement: the tiles of every stretch inside one, pinned first. */
    for (size_t i = na - 1; i > 0; i--) {
        uint32_t u = q->keys[i], v = q->keys[i - 1];
        nb_cell a = u == S ? start : node_cell(&q->g, u), b = v == G ? goal : node_cell(&q->g, v);
        if (tile_of(w, a) == tile_of(w, b) && !pin(w, &p, tile_of(w, a), needed, needed_max) &&
            p.n == sizeof p.slot / sizeof *p.slot) {
            unpin(w, &p);
            res->found = 0;
            return nbi_fail(err, NB_ERR_NOMEM, "%s: %s: the path crosses more than %zu tiles",
                            w->index->path, FAMILY, sizeof p.slot / sizeof *p.slot);
        }
    }
    res->tiles = p.n;
    if (p.missing) {
        if (needed_count)
            *needed_count = p.missing;
        st = unloaded(q, &p, needed, needed_max, err);
        unpin(w, &p);
        res->found = 0;
        return st;
    }
    size_t len = 0;
    if (!append(q, &len, start))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a path");
    for (size_t i = na - 1; st == NB_OK && i > 0; i--) {
        uint32_t u = q->keys[i], v = q->keys[i - 1];
        nb_cell a = u == S ? start : node_cell(&q->g, u), b = v == G ? goal : node_cell(&q->g, v);
        uint32_t ta = tile_of(w, a);
        if (ta != tile_of(w, b)) {
            if (!append(q, &len, b))
                st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a path");
            continue;
        }
        st = refine(q, pin(w, &p, ta, NULL, 0), a, b, &len, err);
    }
    unpin(w, &p);
    if (st != NB_OK) {
        res->found = 0;
        return st;
    }
    double l = 0;
    for (size_t i = 1; i < len; i++)
        l += nbi_octile_cells(q->path[i - 1].x, q->path[i - 1].y, q->path[i].x, q->path[i].y);
    res->length = l;
    res->path = q->path;
    res->path_len = len;
    return nbi_done(err, NB_OK);
}
