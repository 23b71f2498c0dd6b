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
#include <stdlib.h>
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
    double *hv;              /* per key reached this query: its bound to the goal, made once */
    uint32_t *parent, *stamp, sid;
    uint32_t *pos;           /* the heap's positions: one entry a key */
    double *gcost;           /* per portal of the goal's tile: its cost to the goal, or -1 */
    double *scost;           /* per portal of the start's tile: its cost from the start, or -1 */
    nbi_heap heap;
    uint32_t *keys;          /* the path's keys, goal first */
    nb_cell *path;
    size_t pcap;
    int abstract_only;
    unsigned flags;          /* of each tile's HAA* refining a stretch */
    uint64_t max_expansions; /* of the search above the tiles; 0: none */
    /* The world graph's landmarks (world/landmarks.c), when it has them:
     * per query, each landmark's bound terms at the goal (lt: the largest
     * d(p) - cost(p, goal), lf: the smallest d(p) + cost(p, goal) over the
     * goal tile's portals p), and which landmarks bound this query. */
    nbi_wlmk lm;
    int has_lm, use_lm;
    /* Per tile: how much of its part of the world graph (and landmarks) this
     * workspace has checked (nbi_wgraph_tile_check): 0 none, 1 its nodes, 2
     * their arcs too.  Checked as the search first reaches the tile, so a
     * search reads the pages of the tiles it reaches, never the whole graph. */
    uint8_t *tchk;
    uint32_t nlm, active;    /* active: the most landmarks a query keeps (landmarks_active) */
    uint32_t lmk[NBI_WLMK_MAX];
    double lt[NBI_WLMK_MAX], lf[NBI_WLMK_MAX];
    /* Under an overlay that blocks cells (haa_edit.c): keys past N + 1 are
     * the repaired tiles' graphs' (tk of them, each tile's from its kbase),
     * then R cells, the arrays above grown to kcap keys as the search meets
     * them. */
    nbi_wedit ed;
    size_t kcap;
    uint32_t tk;
    int strict;              /* the graph's corner rule, for the R cells' moves */
    nb_world_aa *fix;        /* a tile's stretch that the overlay breaks, walked again */
    /* The ends' insertion: one Dijkstra kept for every query, its arrays
     * sized for the largest tile graph met, and the tile's portals marked
     * (want) so that it ends once they are settled. */
    nbi_tdijk dj;
    uint8_t *want;
    uint32_t djcap;
    /* The query in progress between nbi_whaa_begin and nbi_whaa_end. */
    nb_cell qs, qg;
    uint32_t fg, ng;         /* the goal's tile's first node and its count */
    int dg, running, found;
    int stale_rows;          /* a planted fault (tests): repaired graphs not joined */
    /* The level of tile blocks above the world graph (world/blocks.c), when
     * the world bundle has one: away from the blocks of the query's ends the
     * search moves only along the level's arcs between a block's entries
     * (their exact distances inside it) and the world graph's arcs between
     * blocks, and each of the level's arcs its path takes is walked again
     * over the world graph inside its block (block_walk) before the
     * refinement.  Not under an overlay that blocks a cell (the level's
     * distances are the unedited world's). */
    nbi_wblocks bl;
    int has_bl, use_bl, qbl; /* qbl: the query in progress uses it */
    uint32_t bs, bgoal;      /* the blocks of the query's start and goal */
    uint8_t *viab;           /* per node key: reached last by one of the level's arcs */
    /* Per node: its block, and its entry in the level or UINT32_MAX, made
     * once from the checked sections (no search over tile_first or a
     * block's entries an arc); per block: its tiles' nodes checked (the
     * level's arcs read their targets' cells). */
    uint32_t *nblk, *nent;
    uint8_t *bchk;
    uint32_t *ekeys;         /* the path's keys, the level's arcs walked again */
    int bl_fault;            /* a planted fault (tests): the level's arcs taken as world arcs */
    size_t walked;           /* the path's keys once its level arcs are walked (their walks
                                overwrite the parents: an end made again reuses keys), or 0 */
    /* The refinement's HAA*: one workspace re-bound to each stretch's tile (refiner), given
     * back its tile's loans at the end of each query's refinement, while the tiles are pinned. */
    nb_haa *rh;
    int fresh_rh;            /* tests: rh closed after each stretch (nbi_whaa_set_fresh_refiner) */
    int search_ends;         /* tests: the stretches' ends inserted by their clusters' searches */
    /* The stretches between two world graph nodes already refined, kept (stretch_walks.c)
     * under the refinement flags walks_flags: the same stretch met again is a copy. */
    nbi_walks walks;
    unsigned walks_flags;
    int no_walks;            /* tests and bench: every stretch refined by its tile's HAA* */
    int no_table;            /* tests and bench: ends inserted without the tiles' tables */
    size_t tabled;           /* ends inserted by a table so far, for tests */
};

void nbi_whaa_set_refine(nbi_whaa *q, int refine) { q->abstract_only = !refine; }

void nbi_whaa_set_landmarks(nbi_whaa *q, int use) { q->use_lm = use; }

void nbi_whaa_set_active_landmarks(nbi_whaa *q, uint32_t most)
{
    q->active = most ? most : NBI_WHAA_ACTIVE_LANDMARKS;
}

int nbi_whaa_has_landmarks(const nbi_whaa *q) { return q->has_lm; }

void nbi_whaa_set_blocks(nbi_whaa *q, int use) { q->use_bl = use; }

void nbi_whaa_set_insert_table(nbi_whaa *q, int use) { q->no_table = !use; }

size_t nbi_whaa_tabled(const nbi_whaa *q) { return q->tabled; }

int nbi_whaa_has_blocks(const nbi_whaa *q) { return q->has_bl; }

void nbi_whaa_set_block_fault(nbi_whaa *q, int fault) { q->bl_fault = fault; }

void nbi_whaa_set_walks(nbi_whaa *q, int keep)
{
    q->no_walks = !keep;
    nbi_walks_clear(&q->walks);
}

void nbi_whaa_set_query(nbi_whaa *q, unsigned flags, uint64_t max_expansions)
{
    q->flags = flags;
    q->max_expansions = max_expansions;
}

size_t nbi_whaa_bytes(const nbi_whaa *q)
{
    size_t nk = q->kcap;
    return sizeof *q + q->g.tiles + nbi_wedit_bytes(&q->ed) + nb_world_aa_bytes(q->fix) +
           (q->rh ? nb_haa_bytes(q->rh) : 0) + nbi_walks_bytes(&q->walks) +
           nk * (sizeof *q->gv + sizeof *q->hv + sizeof *q->parent + sizeof *q->stamp +
                 sizeof *q->keys + sizeof *q->pos) +
           (q->viab ? ((size_t)q->g.nodes + 2) * (1 + sizeof *q->ekeys + 2 * sizeof *q->nblk) +
                          (size_t)q->bl.columns * q->bl.rows
                    : 0) +
           ((size_t)q->maxp + 1) * (sizeof *q->gcost + sizeof *q->scost) + q->pcap * sizeof *q->path +
           nbi_heap_bytes(&q->heap) +
           (q->djcap ? (size_t)q->djcap * (4 * sizeof(uint32_t) + 1) + nbi_heap_bytes(q->dj.heap) +
                           q->dj.bcap * sizeof(uint32_t) + 2 * q->dj.ecap * sizeof(uint32_t)
                     : 0);
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
    nbi_free(q->a, q->hv);
    nbi_free(q->a, q->parent);
    nbi_free(q->a, q->stamp);
    nbi_free(q->a, q->pos);
    nbi_free(q->a, q->gcost);
    nbi_free(q->a, q->scost);
    nbi_free(q->a, q->keys);
    nbi_free(q->a, q->viab);
    nbi_free(q->a, q->nblk);
    nbi_free(q->a, q->nent);
    nbi_free(q->a, q->bchk);
    nbi_free(q->a, q->ekeys);
    nbi_free(q->a, q->path);
    nbi_free(q->a, q->tchk);
    nbi_wedit_free(&q->ed);
    nb_world_aa_close(q->fix);
    if (q->djcap)
        nbi_tdijk_free(&q->dj);
    nbi_free(q->a, q->want);
    nb_haa_close(q->rh);
    nbi_walks_free(&q->walks);
    nbi_free(q->a, q);
}

/* Room for nk keys (the R cells' past N + 1); 0 without memory. */
static int grow_keys(nbi_whaa *q, size_t nk)
{
    if (nk <= q->kcap)
        return 1;
    size_t cap = 2 * q->kcap > nk ? 2 * q->kcap : nk;
    double *gv = nbi_realloc_array(q->a, q->gv, cap, sizeof *gv);
    if (gv)
        q->gv = gv;
    double *hv = gv ? nbi_realloc_array(q->a, q->hv, cap, sizeof *hv) : NULL;
    if (hv)
        q->hv = hv;
    uint32_t *pa = hv ? nbi_realloc_array(q->a, q->parent, cap, sizeof *pa) : NULL;
    if (pa)
        q->parent = pa;
    uint32_t *sp = pa ? nbi_realloc_array(q->a, q->stamp, cap, sizeof *sp) : NULL;
    if (sp)
        q->stamp = sp;
    uint32_t *ps = sp ? nbi_realloc_array(q->a, q->pos, cap, sizeof *ps) : NULL;
    if (ps)
        q->pos = q->heap.pos = ps;
    uint32_t *ks = ps ? nbi_realloc_array(q->a, q->keys, cap, sizeof *ks) : NULL;
    if (!ks)
        return 0;
    q->keys = ks;
    for (size_t k = q->kcap; k < cap; k++)
        q->stamp[k] = 0, q->pos[k] = NBI_HEAP_NONE;
    q->kcap = cap;
    return 1;
}

/* The block of tile t. */
static uint32_t block_of(const nbi_whaa *q, uint32_t t)
{
    uint32_t c = t % q->g.columns, r = t / q->g.columns;
    return (r / q->bl.side) * q->bl.columns + c / q->bl.side;
}

/* nblk and nent from the world graph's tile_first and the level's entries
 * (both checked at open: tile_first increasing to the node count, each
 * block's entries increasing nodes of its own tiles). */
static void block_index(nbi_whaa *q)
{
    for (uint32_t t = 0; t < q->g.tiles; t++) {
        uint32_t k = block_of(q, t);
        for (uint32_t u = nbi_u32at(q->g.tile_first, t); u < nbi_u32at(q->g.tile_first, t + 1); u++)
            q->nblk[u] = k, q->nent[u] = UINT32_MAX;
    }
    for (uint32_t k = 0; k < 2; k++)
        q->nblk[q->g.nodes + k] = UINT32_MAX, q->nent[q->g.nodes + k] = UINT32_MAX;
    for (uint32_t e = 0; e < q->bl.entries; e++)
        q->nent[nbi_u32at(q->bl.entry, e)] = e;
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
    q->walks.a = q->a;
    q->walks_flags = q->flags;
    nb_status st = nbi_wgraph_at(b, (size_t)at, &q->g, err);
    for (size_t i = 0; st == NB_OK && i < b->nsections; i++)
        if (b->sections[i].info.type == NB_SEC_WORLD_LANDMARKS &&
            b->sections[i].info.param[0] == cap && b->sections[i].info.param[1] == size &&
            (st = nbi_wlmk_at(b, i, &q->lm, err)) == NB_OK)
            q->has_lm = q->use_lm = 1, q->active = NBI_WHAA_ACTIVE_LANDMARKS;
    long bi = st == NB_OK ? nbi_wblocks_index(b, cap, size) : -1;
    if (bi >= 0 && (st = nbi_wblocks_at(b, (size_t)bi, &q->bl, err)) == NB_OK)
        q->has_bl = q->use_bl = 1;
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
    q->hv = nbi_alloc_array(q->a, nk, sizeof *q->hv);
    q->parent = nbi_alloc_array(q->a, nk, sizeof *q->parent);
    q->stamp = nbi_zalloc_array(q->a, nk, sizeof *q->stamp);
    q->keys = nbi_alloc_array(q->a, nk, sizeof *q->keys);
    q->gcost = nbi_alloc_array(q->a, (size_t)q->maxp + 1, sizeof *q->gcost);
    q->scost = nbi_alloc_array(q->a, (size_t)q->maxp + 1, sizeof *q->scost);
    q->tchk = nbi_zalloc_array(q->a, (size_t)q->g.tiles + 1, 1);
    q->pos = nbi_alloc_array(q->a, nk, sizeof *q->pos);
    for (size_t k = 0; q->pos && k < nk; k++)
        q->pos[k] = NBI_HEAP_NONE;
    q->kcap = nk;
    if (q->has_bl) {
        q->viab = nbi_zalloc_array(q->a, nk, 1);
        q->ekeys = nbi_alloc_array(q->a, nk, sizeof *q->ekeys);
        q->nblk = nbi_alloc_array(q->a, nk, sizeof *q->nblk);
        q->nent = nbi_alloc_array(q->a, nk, sizeof *q->nent);
        q->bchk = nbi_zalloc_array(q->a, (size_t)q->bl.columns * q->bl.rows, 1);
    }
    int edok = nbi_wedit_init(&q->ed, w) &&
               (!q->has_bl || (q->viab && q->ekeys && q->nblk && q->nent && q->bchk));
    if (edok && q->has_bl)
        block_index(q);
    if (!q->gv || !q->hv || !q->parent || !q->stamp || !q->keys || !q->gcost || !q->scost || !q->pos ||
        !q->tchk || !edok || !nbi_heap_init(&q->heap, q->a, 1024, q->pos)) {
        nbi_whaa_free(q);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a %s workspace", FAMILY);
    }
    *out = q;
    return NB_OK;
}

/* Tile t's part of the world graph checked to level (1: its nodes, 2: their
 * arcs too) before the search reads it; a damaged part is refused, naming
 * the tile, by every query that reaches it. */
static nb_status tile_checked(nbi_whaa *q, uint32_t t, uint8_t level, nb_err *err)
{
    if (q->tchk[t] >= level)
        return NB_OK;
    nb_status st = nbi_wgraph_tile_check(q->w->index, &q->g, q->has_lm ? &q->lm : NULL, t,
                                         level >= 2, err);
    if (st == NB_OK)
        q->tchk[t] = level;
    return st;
}

size_t nbi_whaa_checked_bytes(const nbi_whaa *q)
{
    size_t sum = 0;
    for (uint32_t t = 0; t < q->g.tiles; t++) {
        if (!q->tchk[t])
            continue;
        uint32_t a = nbi_u32at(q->g.tile_first, t), e = nbi_u32at(q->g.tile_first, t + 1);
        sum += (size_t)(e - a) * (NBI_WGRAPH_NODE + 4 + (q->has_lm ? NBI_WLMK_DIST * q->lm.count : 0));
        if (q->tchk[t] >= 2)
            sum += (size_t)(nbi_u32at(q->g.arc_first, e) - nbi_u32at(q->g.arc_first, a)) * NBI_WGRAPH_ARC;
    }
    return sum;
}

/* ---- the tiles a query reads, pinned (stream.h) ---- */

typedef struct pins {
    uint32_t slot[512];
    const nbi_stile *tile[512];
    size_t n, missing;
    nb_status st; /* the loader's error or a tile's refusal (nb_world_set_budget) */
    nb_err err;
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
    /* The world's own, made non-const by nb_world_open: the game asked the
     * queries to load (nb_world_set_budget), as world_pins.c does. */
    nb_world *mw = (nb_world *)w;
    if (!t && nbi_world_autoload(mw) && p->st == NB_OK) {
        nb_status st = nbi_world_fetch(mw, slot, &p->err);
        if (st != NB_OK)
            p->st = st;
        else
            t = atomic_load(&s->tile);
    }
    if (t && atomic_load_explicit(&mw->budget, memory_order_relaxed))
        nbi_world_touch(mw, slot);
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
    if (nbi_world_autoload(w))
        nbi_world_trim((nb_world *)w);
}

/* ---- an end inserted into its tile ---- */

/* The insertion's Dijkstra for a tile graph of n nodes: kept from one
 * query to the next, grown only for a larger graph.  0 without memory. */
static int fit_dijk(nbi_whaa *q, uint32_t n)
{
    if (q->djcap && n <= q->djcap)
        return 1;
    uint8_t *want = nbi_zalloc_array(q->a, n ? n : 1, 1);
    nbi_tdijk dj;
    if (!want || !nbi_tdijk_init(&dj, q->a, n)) {
        nbi_free(q->a, want);
        return 0;
    }
    if (q->djcap)
        nbi_tdijk_free(&q->dj);
    nbi_free(q->a, q->want);
    q->dj = dj;
    q->want = want;
    q->djcap = n;
    return 1;
}

/* The table's portals are the world graph's nodes of tile slot, in order
 * (both the border graph's portals): else it is not used (O(P) an end). */
static int table_fits(const nbi_whaa *q, const nbi_tins *r, uint32_t first, uint32_t np)
{
    if (r->portals != np)
        return 0;
    for (uint32_t i = 0; i < np; i++)
        if (nbi_u32at(r->portal, i) != node_local(&q->g, first + i))
            return 0;
    return 1;
}

/* The portals' costs by the tile's table r (formats/world.md): the graph
 * searched from the seeds inside the end's block (lc's) only, then for
 * each portal the least of its cost inside the block and, over the block's
 * border nodes b reached, the end's steps to b plus the table's b to it.
 * A path leaving the block leaves it at a border node, so it is exact. */
static int insert_by_table(nbi_whaa *q, const nbi_agraph *g, const nbi_wtile *tg,
                           const nbi_tins *r, nb_cell lc, const uint32_t *seed, const uint32_t *sc,
                           const uint32_t *sd, size_t ns, double *cost)
{
    nbi_tdijk *dj = &q->dj;
    uint32_t k = nbi_tins_block_of(tg, r->side, (uint32_t)lc.x, (uint32_t)lc.y);
    uint32_t x0 = tg->core_x + k % r->bcols * r->side, y0 = tg->core_y + k / r->bcols * r->side;
    uint32_t x1 = x0 + r->side, y1 = y0 + r->side;
    x1 = x1 < tg->core_x + tg->core_w ? x1 : tg->core_x + tg->core_w;
    y1 = y1 < tg->core_y + tg->core_h ? y1 : tg->core_y + tg->core_h;
    dj->target = NULL;
    int ok = nbi_tdijk_run_buckets(dj, g, q->cap, q->size, x0, y0, x1, y1, seed, sc, sd, ns);
    if (ok < 0)
        ok = nbi_tdijk_run(dj, g, q->cap, q->size, x0, y0, x1, y1, seed, sc, sd, ns);
    if (!ok)
        return 0;
    for (uint32_t i = 0; i < r->portals; i++) {
        uint32_t u = nbi_u32at(r->portal, i);
        if (nbi_tdijk_reached(dj, u) && dj->stamp[u] & 1)
            cost[i] = nbi_steps_length(dj->card[u], dj->diag[u]);
    }
    for (uint32_t j = nbi_u32at(r->block_first, k); j < nbi_u32at(r->block_first, k + 1); j++) {
        uint32_t b = nbi_u32at(r->border, j);
        if (!nbi_tdijk_reached(dj, b) || !(dj->stamp[b] & 1))
            continue;
        uint32_t bc = dj->card[b], bd = dj->diag[b], card, diag;
        for (uint32_t i = 0; i < r->portals; i++) {
            if (!nbi_tins_steps(r, j, i, &card, &diag))
                continue;
            double c = nbi_steps_length(bc + card, bd + diag);
            if (cost[i] < 0 || c < cost[i])
                cost[i] = c;
        }
    }
    return 1;
}

/* The cost from end c (world cell, in tile t whose HAA* workspace is h) to
 * each portal of t in the world graph, into cost[] (-1: none): by the
 * tile's table when it has one for the agent (and the workspace uses it),
 * else by a Dijkstra over the tile's graph.  0 without memory, 2 when the
 * agent cannot stand at c. */
static int insert_to(nbi_whaa *q, nb_haa *h, const nbi_stile *t, uint32_t slot, nb_cell c,
                     double *cost, int full)
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
    h->ins[0].ov = NULL; /* the workspace is re-bound: its last query's overlay may be gone */
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
    if (!fit_dijk(q, g->nnodes))
        return 0;
    const nbi_tins *tab = full || q->no_table ? NULL : nbi_stile_insert(t, q->cap, q->size);
    if (tab && table_fits(q, tab, first, np)) {
        q->tabled++;
        return insert_by_table(q, g, &t->tag, tab, lc, seed, sc, sd, ns, cost);
    }
    /* Ended once the tile's portals are settled: the nodes past the last
     * of them are no portal's way (a settled node's cost is final). */
    nbi_tdijk *dj = &q->dj;
    uint32_t left = 0;
    for (uint32_t i = 0; i < np; i++) {
        uint32_t u = node_local(&q->g, first + i);
        if (u < g->nnodes && !q->want[u])
            q->want[u] = 1, left++;
    }
    dj->target = full ? NULL : q->want;
    dj->left = left;
    const nbi_wtile *tg = &t->tag;
    uint32_t x1 = tg->core_x + tg->core_w, y1 = tg->core_y + tg->core_h;
    int ok = 1;
    if (left && !full)
        ok = nbi_tdijk_run_buckets(dj, g, q->cap, q->size, tg->core_x, tg->core_y, x1, y1, seed,
                                   sc, sd, ns);
    if (left && (full || ok < 0)) {
        dj->left = left;
        ok = nbi_tdijk_run(dj, g, q->cap, q->size, tg->core_x, tg->core_y, x1, y1, seed, sc, sd,
                           ns);
    }
    for (uint32_t i = 0; i < np; i++) {
        uint32_t u = node_local(&q->g, first + i);
        if (u >= g->nnodes)
            continue;
        q->want[u] = 0;
        if (ok && left && nbi_tdijk_reached(dj, u) && dj->stamp[u] & 1)
            cost[i] = nbi_steps_length(dj->card[u], dj->diag[u]);
    }
    dj->target = NULL;
    return ok;
}

static int insert(nbi_whaa *q, nb_haa *h, const nbi_stile *t, uint32_t slot, nb_cell c,
                  double *cost)
{
    return insert_to(q, h, t, slot, c, cost, 0);
}

/* ---- the search above the tiles ---- */

/* The landmarks that bound this query, with their terms at the goal: the
 * path from a node u to the goal leaves through some portal p of the goal's
 * tile, and |d(u) - d(p)| <= the distance from u to p for landmark
 * distances d (the section's check), so the rest from u costs at least
 * d(u) - max_p (d(p) - cost(p)) and min_p (d(p) + cost(p)) - d(u).  A
 * landmark not joined to one of those portals bounds nothing. */
static void landmarks_at_goal(nbi_whaa *q, uint32_t fg, uint32_t ng)
{
    q->nlm = 0;
    if (!q->has_lm || !q->use_lm)
        return;
    for (uint32_t k = 0; k < q->lm.count; k++) {
        double t = -1e300, f = 1e300;
        int any = 0, joined = 1;
        for (uint32_t i = 0; i < ng && joined; i++) {
            if (q->gcost[i] < 0)
                continue;
            double d = nbi_wlmk_dist(&q->lm, fg + i, k);
            joined = d >= 0;
            any = 1;
            t = d - q->gcost[i] > t ? d - q->gcost[i] : t;
            f = d + q->gcost[i] < f ? d + q->gcost[i] : f;
        }
        if (!any || !joined)
            continue;
        q->lmk[q->nlm] = k;
        q->lt[q->nlm] = t;
        q->lf[q->nlm++] = f;
    }
}

/* The landmarks this query keeps: the heuristic reads each one at every
 * node the search reaches, so past a few they cost more than the nodes
 * they save (the world's `landmarks: K` may hold up to 32).  Kept: the
 * q->active whose bound on the whole path is largest at the start's
 * portals (ALT's active landmarks, Goldberg and Harrelson 2005), each
 * scored by the least over those portals p of cost(start, p) + its bound
 * at p; ties by the landmark's number.  Any subset keeps the heuristic a
 * lower bound, so the search stays exact. */
static void landmarks_active(nbi_whaa *q, uint32_t fs, uint32_t ns)
{
    if (q->nlm <= q->active)
        return;
    double score[NBI_WLMK_MAX];
    uint32_t order[NBI_WLMK_MAX];
    for (uint32_t i = 0; i < q->nlm; i++) {
        double sc = INFINITY;
        for (uint32_t j = 0; j < ns; j++) {
            if (q->scost[j] < 0)
                continue;
            double d = nbi_wlmk_dist(&q->lm, fs + j, q->lmk[i]), b = 0;
            if (d >= 0)
                b = d - q->lt[i] > q->lf[i] - d ? d - q->lt[i] : q->lf[i] - d;
            b = b > 0 ? b : 0;
            sc = q->scost[j] + b < sc ? q->scost[j] + b : sc;
        }
        score[i] = sc;
        /* Insertion by score, largest first, the earlier landmark first on ties. */
        uint32_t k = i;
        for (; k > 0 && score[order[k - 1]] < sc; k--)
            order[k] = order[k - 1];
        order[k] = i;
    }
    uint32_t lmk[NBI_WLMK_MAX];
    double lt[NBI_WLMK_MAX], lf[NBI_WLMK_MAX];
    for (uint32_t i = 0; i < q->active; i++)
        lmk[i] = q->lmk[order[i]], lt[i] = q->lt[order[i]], lf[i] = q->lf[order[i]];
    for (uint32_t i = 0; i < q->active; i++)
        q->lmk[i] = lmk[i], q->lt[i] = lt[i], q->lf[i] = lf[i];
    q->nlm = q->active;
}

static const nbi_trep *key_trep(const nbi_whaa *q, uint32_t u);

/* A lower bound on the cost from key v (at cell at) to the goal.  A repaired tile's key
 * reaches the goal (in another tile) only through one of the tile's portals, so the least
 * of their bounds is one too: without it the tile's keys, bound by the octile distance
 * alone, would be settled ahead of the world nodes the landmarks bound, by worse ways. */
static double heuristic(const nbi_whaa *q, uint32_t v, nb_cell at, nb_cell goal)
{
    double h = nbi_octile_cells(at.x, at.y, goal.x, goal.y);
    if (v > q->g.nodes + 1 && v < q->g.nodes + 2 + q->tk) {
        double m = key_trep(q, v)->hmin;
        return m > h ? m : h;
    }
    if (v >= q->g.nodes)
        return h;
    for (uint32_t i = 0; i < q->nlm; i++) {
        double d = nbi_wlmk_dist(&q->lm, v, q->lmk[i]);
        if (d < 0)
            continue;
        double b = d - q->lt[i] > q->lf[i] - d ? d - q->lt[i] : q->lf[i] - d;
        h = b > h ? b : h;
    }
    return h;
}

/* 1 when v is reached better than before. */
static int relax(nbi_whaa *q, uint32_t v, double gv, uint32_t from, nb_cell goal, nb_cell at)
{
    int seen = q->stamp[v] >> 1 == q->sid;
    /* A repaired tile's key settled by a worse way is opened again: its bound is weaker than
     * the world nodes' (the landmarks), so the first portal the search enters the tile by
     * may settle much of its graph before a better portal is reached. */
    if (seen && q->stamp[v] & 1 && q->gv[v] > gv + 1e-9 && v > q->g.nodes + 1 &&
        v < q->g.nodes + 2 + q->tk)
        q->stamp[v] &= ~1u;
    if (seen && (q->stamp[v] & 1 || q->gv[v] <= gv))
        return 0;
    /* A node's bound depends on it and the goal alone: made at its first
     * reach this query (the landmarks' terms), kept for the later ones. */
    if (!seen)
        q->hv[v] = heuristic(q, v, at, goal);
    q->stamp[v] = q->sid << 1;
    q->gv[v] = gv;
    q->parent[v] = from;
    if (q->viab && v < q->g.nodes + 2)
        q->viab[v] = 0;
    nbi_heap_push(&q->heap, gv + q->hv[v], -gv, v);
    return 1;
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
/* 1 when the cells path[from..len) (and the steps into them) are a walk of
 * the edited grid: a tile's HAA* may walk its halo, the cells of a
 * neighbour the overlay edits. */
static int walk_stands(const nbi_whaa *q, size_t from, size_t len)
{
    const nb_world_overlay *ov = q->ed.ov;
    for (size_t i = from; i < len; i++) {
        nb_cell c = q->path[i];
        if (!nbi_wov_room(ov, q->size, (uint32_t)c.x, (uint32_t)c.y))
            return 0;
        if (i == 0 || (c.x == q->path[i - 1].x || c.y == q->path[i - 1].y))
            continue;
        /* A diagonal step: its corner cells, by the corner rule. */
        nb_cell p = q->path[i - 1];
        int a = nbi_wov_room(ov, q->size, (uint32_t)c.x, (uint32_t)p.y);
        int b = nbi_wov_room(ov, q->size, (uint32_t)p.x, (uint32_t)c.y);
        if (q->strict ? !(a && b) : !(a || b))
            return 0;
    }
    return 1;
}

/* The world's Annotated A* from a to b on the edited grid, appended: a
 * stretch of an unedited tile whose HAA* path crossed its halo into an
 * edited tile.  A stretch of the world graph joins a and b inside the
 * tile's own cells, which the overlay leaves alone, so a path is there;
 * the same-tile candidate's may not be (NB_ERR_NOTFOUND). */
static nb_status walk_again(nbi_whaa *q, nb_cell a, nb_cell b, size_t *len, nb_err *err)
{
    nb_status st = NB_OK;
    if (!q->fix && (st = nb_world_aa_open(q->w, &q->fix, err)) != NB_OK)
        return st;
    nb_aa_query aq;
    nb_aa_query_init(&aq);
    aq.start = a, aq.goal = b, aq.size = q->size, aq.capability = q->cap;
    aq.corner = q->strict ? NB_CORNER_STRICT : NB_CORNER_WEAK;
    nb_aa_result r;
    if ((st = nb_world_aa_find(q->fix, &aq, q->ed.ov, &r, err)) != NB_OK)
        return st;
    if (r.status != NB_PATH_FOUND) /* only the same-tile candidate may meet this */
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: %s: no path from (%d, %d) to (%d, %d) on the "
                        "edited grid", q->w->index->path, FAMILY, a.x, a.y, b.x, b.y);
    for (size_t i = 0; i < r.path_len; i++)
        if (!append(q, len, r.path[i]))
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for a path");
    return NB_OK;
}

/* The tile's HAA* from a to b (world cells, both in tile t), appended; counted in res. */
/* The refinement's workspace bound to tile bundle b: re-bound (no allocation), or opened when
 * there is none yet or b's graph has another shape. */
static nb_status refiner(nbi_whaa *q, const nb_bundle *b, nb_err *err)
{
    if (q->rh) {
        nb_status st = nbi_haa_rebind(q->rh, b, err);
        if (st != NB_ERR_ARG)
            return st;
        nb_haa_close(q->rh);
        q->rh = NULL;
    }
    return nbi_haa_open_alloc(b, q->a, &q->rh, err); /* the world's allocator: b's goes with b */
}

/* The stretch u -> v (keys) from the kept walks, appended: 1 when one was kept. */
static int copied(nbi_whaa *q, uint32_t u, uint32_t v, size_t *len, int *nomem)
{
    size_t n;
    const nb_cell *c = nbi_walks_find(&q->walks, u, v, &n);
    if (!c)
        return 0;
    if (!grow_path(q, *len + n)) {
        *nomem = 1;
        return 1;
    }
    /* Kept as append wrote them (no cell twice in a row), so append's test is for the first
     * alone, against the path's last. */
    size_t i = *len && q->path[*len - 1].x == c[0].x && q->path[*len - 1].y == c[0].y;
    memcpy(q->path + *len, c + i, (n - i) * sizeof *c);
    *len += n - i;
    return 1;
}

/* The cells path[from..len) just appended for the stretch from a (u -> v), kept with a
 * first (where append found it on the path already). */
static int keep_walk(nbi_whaa *q, uint32_t u, uint32_t v, nb_cell a, size_t from, size_t len)
{
    const nb_cell *p = q->path;
    if (from < len && p[from].x == a.x && p[from].y == a.y)
        return nbi_walks_put(&q->walks, u, v, p + from, len - from);
    if (from > 0 && p[from - 1].x == a.x && p[from - 1].y == a.y)
        return nbi_walks_put(&q->walks, u, v, p + from - 1, len - from + 1);
    return 1; /* not a walk from a: left to the tile's HAA* every time */
}

static nb_status refine(nbi_whaa *q, const nbi_stile *t, uint32_t u, uint32_t v, nb_cell a,
                        nb_cell b, size_t *len, nbi_whaa_result *res, nb_err *err)
{
    /* A stretch between two world graph nodes, no overlay: its walk is the tile's, fixed by
     * the world's index, refined once and then copied.  The tests' other refiners refine
     * every time (their paths are the reference). */
    int keep = !q->no_walks && !q->fresh_rh && !q->search_ends && !q->ed.ov &&
               u < q->g.nodes && v < q->g.nodes && !nbi_wedit_trep(&q->ed, t->index);
    if (keep && q->walks_flags != q->flags) {
        nbi_walks_clear(&q->walks);
        q->walks_flags = q->flags;
    }
    int nomem = 0;
    if (keep && copied(q, u, v, len, &nomem)) {
        res->stretches++;
        res->stretches_copied++;
        return nomem ? nbi_fail(err, NB_ERR_NOMEM, "no memory for a path") : NB_OK;
    }
    nb_status st = refiner(q, t->b, err);
    if (st != NB_OK)
        return st;
    nb_haa *h = q->rh;
    /* A stretch's ends are its tile graph's nodes (portals, or an end inserted into the tile):
     * joined to them alone, not by a search over their clusters. */
    h->node_ends = !q->search_ends;
    nb_haa_query hq;
    nb_haa_query_init(&hq);
    hq.start = (nb_cell){a.x - (int32_t)t->tag.origin_x, a.y - (int32_t)t->tag.origin_y};
    hq.goal = (nb_cell){b.x - (int32_t)t->tag.origin_x, b.y - (int32_t)t->tag.origin_y};
    hq.size = q->size;
    hq.capability = q->cap;
    hq.corner = (nb_corner)h->g.corner;
    hq.flags = q->flags;
    /* A repaired tile: its own HAA* under the tile's overlay, on the graph the search used. */
    const nbi_trep *tr = nbi_wedit_trep(&q->ed, t->index);
    if (tr && tr->ov && tr->t == t)
        hq.overlay = tr->ov;
    nb_haa_result r;
    size_t from = *len;
    st = nb_haa_find(h, &hq, &r, err);
    res->stretches++;
    res->stretches_above += st == NB_OK && r.level >= 2;
    res->refine_expanded += r.expanded_search;
    if (st == NB_OK && r.status != NB_PATH_FOUND && hq.overlay)
        return walk_again(q, a, b, len, err);
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
    if (q->fresh_rh) {
        nb_haa_close(q->rh);
        q->rh = NULL;
    }
    if (st == NB_OK && q->ed.ov && !walk_stands(q, from ? from - 1 : 0, *len)) {
        *len = from;
        st = walk_again(q, a, b, len, err);
    }
    /* Without memory to keep it the stretch is refined again when met: the query stands. */
    if (st == NB_OK && keep)
        (void)keep_walk(q, u, v, a, from, *len);
    return st;
}

static nb_status unloaded(const nbi_whaa *q, const pins *p, nb_world_tile *needed,
                          size_t needed_max, nb_err *err)
{
    if (p->st != NB_OK) { /* a load the query made failed: its error is the query's */
        if (err)
            *err = p->err;
        return p->st;
    }
    nb_world_tile t = needed && needed_max ? needed[0] : (nb_world_tile){0, 0};
    return nbi_fail(err, NB_ERR_UNLOADED,
                    "%s: %s: %zu tiles are not loaded (the first (%u, %u); nb_world_load, then "
                    "ask again)",
                    q->w->index->path, FAMILY, p->missing, t.column, t.row);
}

/* The key of R cell c (the search's), -1 without memory. */
static long r_key(nbi_whaa *q, nb_cell c)
{
    long r = nbi_wedit_key(&q->ed, c);
    if (r < 0 || !grow_keys(q, (size_t)q->g.nodes + 2 + q->tk + (size_t)r + 1))
        return -1;
    return (long)q->g.nodes + 2 + q->tk + r;
}

/* The portals of unedited tiles that lie in R cells, for the search to
 * step between the two (a portal and its cell are one place). */
static nb_status map_portals(nbi_whaa *q, nb_err *err)
{
    const nb_world *w = q->w;
    if (q->ed.no_join)
        return NB_OK;
    uint32_t cols = w->x.columns, rows = w->x.rows;
    for (uint32_t t = 0; t < q->g.tiles; t++) {
        if (nbi_wedit_dirty(&q->ed, t))
            continue;
        /* R cells lie in edited tiles and one cell around them: only an edited tile's
         * neighbours can hold a portal in one (and only their nodes are read). */
        uint32_t tc = t % cols, tr = t / cols;
        int near = 0;
        for (uint32_t y = tr ? tr - 1 : 0; y <= tr + 1 && y < rows && !near; y++)
            for (uint32_t x = tc ? tc - 1 : 0; x <= tc + 1 && x < cols && !near; x++)
                near = nbi_wedit_dirty(&q->ed, y * cols + x);
        if (!near)
            continue;
        nb_status st = tile_checked(q, t, 1, err);
        if (st != NB_OK)
            return st;
        uint32_t f = nbi_u32at(q->g.tile_first, t), z = nbi_u32at(q->g.tile_first, t + 1);
        for (uint32_t u = f; u < z; u++) {
            nb_cell c = node_cell(&q->g, u);
            if (nbi_wedit_in(&q->ed, c.x, c.y) &&
                !nbi_u32map_put(&q->ed.portal, (uint32_t)c.y * w->x.width + (uint32_t)c.x, u + 1))
                return nbi_fail(err, NB_ERR_NOMEM, "no memory");
        }
    }
    return NB_OK;
}

/* 1 when the world graph's arc from cell a to cell b (nodes of unedited
 * tiles) may be used: a diagonal step between tiles whose corner cells are
 * in an edited tile is left to the R cells. */
static int arc_clean(const nbi_whaa *q, nb_cell a, nb_cell b)
{
    const nb_world *w = q->w;
    if (a.x == b.x || a.y == b.y || abs(a.x - b.x) > 1 || abs(a.y - b.y) > 1)
        return 1;
    return !nbi_wedit_dirty(&q->ed, tile_of(w, (nb_cell){a.x, b.y})) &&
           !nbi_wedit_dirty(&q->ed, tile_of(w, (nb_cell){b.x, a.y}));
}

/* The search's expansion of R cell key u: the goal, the portal at its cell, the R cells it
 * steps to on the edited grid.  0 without memory. */
static int expand_r(nbi_whaa *q, uint32_t u, nb_cell goal)
{
    uint32_t N = q->g.nodes, G = N + 1;
    nb_cell c = q->ed.rcell[u - N - 2 - q->tk];
    double g = q->gv[u];
    if (c.x == goal.x && c.y == goal.y)
        relax(q, G, g, u, goal, goal);
    int found;
    uint32_t pn = nbi_u32map_get(&q->ed.portal, (uint32_t)c.y * q->w->x.width + (uint32_t)c.x,
                                 &found);
    if (found)
        relax(q, pn - 1, g, u, goal, c);
    /* In a tile repaired at its edges: the node of its graph here (the same place). */
    const nbi_trep *tr = q->ed.ntrep && !q->ed.no_join && !q->stale_rows
                             ? nbi_wedit_trep(&q->ed, tile_of(q->w, c))
                             : NULL;
    uint32_t tk = tr && tr->edge ? nbi_trep_key_at(tr, c) : UINT32_MAX;
    if (tk != UINT32_MAX)
        relax(q, tr->kbase + tk, g, u, goal, c);
    for (unsigned d = 0; d < NBI_MOVES; d++) {
        nb_cell n = {c.x + nbi_move_dx[d], c.y + nbi_move_dy[d]};
        if (!nbi_wedit_in(&q->ed, n.x, n.y) ||
            nbi_wedit_step(&q->ed, c, d, q->strict, g + nbi_octile_cells(n.x, n.y, goal.x, goal.y)) != 1)
            continue;
        long k = r_key(q, n);
        if (k < 0)
            return 0;
        relax(q, (uint32_t)k, g + nbi_move_cost(d), u, goal, n);
    }
    return 1;
}

/* The tile's own path from start to goal (r, in tile t) as a way to the goal.  Under an
 * overlay it may walk the tile's halo into an edited tile and out again: then the world's
 * Annotated A* on the edited grid prices the way instead (or none is there), and the
 * refinement's walk_again gives the same path. */
static nb_status candidate(nbi_whaa *q, const nbi_stile *t, const nb_haa_result *r,
                           nb_cell start, nb_cell goal, nb_err *err)
{
    uint32_t G = q->g.nodes + 1, S = q->g.nodes;
    size_t len = 0;
    int legal = 1;
    if (q->ed.ov) {
        for (size_t i = 0; i < r->path_len; i++) {
            nb_cell c = {r->path[i].x + (int32_t)t->tag.origin_x,
                         r->path[i].y + (int32_t)t->tag.origin_y};
            if (!append(q, &len, c))
                return nbi_fail(err, NB_ERR_NOMEM, "no memory for a path");
        }
        legal = walk_stands(q, 0, len);
    }
    if (legal) {
        relax(q, G, r->cell_length, S, goal, goal);
        return NB_OK;
    }
    len = 0;
    nb_status st = walk_again(q, start, goal, &len, err);
    if (st == NB_ERR_NOTFOUND)
        return NB_OK; /* no way inside: the search above the tiles decides */
    if (st != NB_OK)
        return st;
    double l = 0;
    for (size_t i = 1; i < len; i++)
        l += nbi_octile_cells(q->path[i - 1].x, q->path[i - 1].y, q->path[i].x, q->path[i].y);
    relax(q, G, l, S, goal, goal);
    return NB_OK;
}

/* The repaired tile whose graph holds search key u (N + 1 < u < N + 2 + tk). */
static const nbi_trep *key_trep(const nbi_whaa *q, uint32_t u)
{
    for (size_t i = 0; i < q->ed.ntrep; i++) {
        const nbi_trep *r = &q->ed.trep[i];
        if (r->live && u >= r->kbase && u - r->kbase < r->nkeys)
            return r;
    }
    return NULL;
}

/* The search's expansion of a repaired tile's key u: its arcs in the tile's repaired graph,
 * and the portal at its node (the same place), by which the search leaves the tile. */
typedef struct texp {
    nbi_whaa *q;
    const nbi_trep *r;
    uint32_t u;
    double g;
    nb_cell goal;
} texp;

static int reach_t(void *ctx, uint32_t k, double cost, nb_cell at)
{
    texp *x = ctx;
    if (k != UINT32_MAX) {
        relax(x->q, x->r->kbase + k, x->g + cost, x->u, x->goal, at);
        return 1;
    }
    /* A move out of the tile: to the node at its far cell in the neighbour's repaired
     * graph (a tile not repaired keeps its border as baked: the world graph's arcs cross
     * there, and R cells where it is walked cell by cell). */
    const nbi_trep *f = nbi_wedit_trep(&x->q->ed, tile_of(x->q->w, at));
    uint32_t fk = f && f != x->r ? nbi_trep_key_at(f, at) : UINT32_MAX;
    if (fk != UINT32_MAX)
        relax(x->q, f->kbase + fk, x->g + cost, x->u, x->goal, at);
    return 1;
}

/* 0 without memory. */
static int expand_t(nbi_whaa *q, uint32_t u, nb_cell goal)
{
    const nbi_trep *r = key_trep(q, u);
    texp x = {q, r, u, q->gv[u], goal};
    uint32_t k = u - r->kbase, p = nbi_trep_portal(r, k);
    if (p != UINT32_MAX)
        relax(q, r->first + p, x.g, u, goal, node_cell(&q->g, r->first + p));
    nbi_trep_arcs(r, k, reach_t, &x);
    /* Beside a tile walked cell by cell: the R cell here (the same place). */
    nb_cell c = nbi_trep_cell(r, k);
    if (r->edge && q->ed.ndirty && !q->ed.no_join && nbi_wedit_in(&q->ed, c.x, c.y)) {
        long rk = r_key(q, c);
        if (rk < 0)
            return 0;
        relax(q, (uint32_t)rk, x.g, u, goal, c);
    }
    return 1;
}

/* 1 when the world graph's arc from cell a to cell b, in another tile, may be used: where a
 * repaired tile holds one of its cells or a diagonal's corner cells, its move stands on the
 * edited grid (the tiles beside a changed cell are repaired, so no other tile needs the
 * test, nor to be loaded for it). */
static int cross_ok(nbi_whaa *q, nb_cell a, nb_cell b, double bound)
{
    const nbi_wedit *e = &q->ed;
    const nb_world *w = q->w;
    if (!nbi_wedit_trep(e, tile_of(w, a)) && !nbi_wedit_trep(e, tile_of(w, b)) &&
        (a.x == b.x || a.y == b.y ||
         (!nbi_wedit_trep(e, tile_of(w, (nb_cell){a.x, b.y})) &&
          !nbi_wedit_trep(e, tile_of(w, (nb_cell){b.x, a.y})))))
        return 1;
    for (unsigned d = 0; d < NBI_MOVES; d++)
        if (a.x + nbi_move_dx[d] == b.x && a.y + nbi_move_dy[d] == b.y)
            return nbi_wedit_step(&q->ed, a, d, q->strict, bound) == 1;
    return 1;
}

static nb_cell key_cell(const nbi_whaa *q, uint32_t u, nb_cell start, nb_cell goal)
{
    uint32_t N = q->g.nodes;
    if (u > N + 1 && u < N + 2 + q->tk) {
        const nbi_trep *r = key_trep(q, u);
        return nbi_trep_cell(r, u - r->kbase);
    }
    return u == N ? start : u == N + 1 ? goal : u > N + 1 ? q->ed.rcell[u - N - 2 - q->tk]
                                                          : node_cell(&q->g, u);
}

/* ---- the level of tile blocks ---- */

/* Block k's tiles' nodes checked, once a workspace: the level's arcs from
 * an entry reach entries all over its block, whose cells they read. */
static nb_status block_checked(nbi_whaa *q, uint32_t k, nb_err *err)
{
    if (q->bchk[k])
        return NB_OK;
    uint32_t bx = k % q->bl.columns * q->bl.side, by = k / q->bl.columns * q->bl.side;
    uint32_t rows = q->g.tiles / q->g.columns;
    for (uint32_t y = by; y < by + q->bl.side && y < rows; y++)
        for (uint32_t x = bx; x < bx + q->bl.side && x < q->g.columns; x++) {
            nb_status st = tile_checked(q, y * q->g.columns + x, 1, err);
            if (st != NB_OK)
                return st;
        }
    q->bchk[k] = 1;
    return NB_OK;
}

/* The level's arcs from entry e of node u (gu from the start), the
 * block's tiles' nodes checked before their cells are read. */
static nb_status level_arcs(nbi_whaa *q, uint32_t u, uint32_t e, double gu, nb_cell goal,
                            nb_err *err)
{
    uint32_t seen = q->sid << 1;
    nb_status st = block_checked(q, q->nblk[u], err);
    if (st != NB_OK)
        return st;
    for (uint32_t k = nbi_u32at(q->bl.arc_first, e); k < nbi_u32at(q->bl.arc_first, e + 1); k++) {
        const uint8_t *a = q->bl.arc + (size_t)k * NBI_WBLK_ARC;
        uint32_t v = nbi_u32at(q->bl.entry, nbi_get32(a + NBI_WBLK_A_TO));
        /* Most of a block's entries are settled by the time another of
         * them is: their arcs' lengths are not worth making. */
        if (q->stamp[v] == (seen | 1))
            continue;
        double gn = gu + nbi_steps_length(nbi_get32(a + NBI_WBLK_A_CARD),
                                          nbi_get32(a + NBI_WBLK_A_DIAG));
        if (q->stamp[v] == seen && q->gv[v] <= gn)
            continue;
        if (relax(q, v, gn, u, goal, node_cell(&q->g, v)) && !q->bl_fault)
            q->viab[v] = 1;
    }
    return NB_OK;
}

/* A lower bound on the world graph's distance from node y (at yc) to v (at
 * vc; dv its landmark distances): the octile distance, and with the
 * landmarks |d(y) - d(v)| for each landmark joined to both (the section's
 * check keeps each arc no shorter than its ends' differences, so the bound
 * is consistent and an A* by it settles nodes at their distances). */
static double walk_bound(const nbi_whaa *q, uint32_t y, nb_cell yc, nb_cell vc, const double *dv,
                         uint32_t nl)
{
    double h = nbi_octile_cells(yc.x, yc.y, vc.x, vc.y);
    for (uint32_t i = 0; i < nl; i++) {
        double d = nbi_wlmk_dist(&q->lm, y, i);
        if (d < 0 || dv[i] < 0)
            continue;
        double b = d > dv[i] ? d - dv[i] : dv[i] - d;
        h = b > h ? b : h;
    }
    return h;
}

/* The shortest path from u to v over the world graph's arcs kept to block
 * k (an A* by walk_bound to v), its nodes after u appended to
 * ekeys[*n...]: what the level's arc u -> v of length len stands for.  The
 * main search's arrays serve it (its path is kept in keys; its bounds in
 * hv, made at a node's first reach).  A level whose arc no such path
 * matches is refused, naming the block. */
static nb_status block_walk(nbi_whaa *q, uint32_t u, uint32_t v, uint32_t k, double len,
                            size_t *n, nb_err *err)
{
    const nb_world *w = q->w;
    if (++q->sid >= (1u << 31)) {
        memset(q->stamp, 0, q->kcap * sizeof *q->stamp);
        q->sid = 1;
    }
    uint32_t seen = q->sid << 1;
    nb_cell vc = node_cell(&q->g, v);
    double dv[NBI_WLMK_MAX];
    uint32_t nl = q->has_lm && q->use_lm ? q->lm.count : 0;
    for (uint32_t i = 0; i < nl; i++)
        dv[i] = nbi_wlmk_dist(&q->lm, v, i);
    nbi_heap_clear(&q->heap);
    q->stamp[u] = seen;
    q->gv[u] = 0;
    nb_status st = NB_OK;
    nbi_heap_push(&q->heap, 0, 0, u);
    while (!nbi_heap_empty(&q->heap)) {
        uint32_t x = nbi_heap_pop(&q->heap).id;
        if (q->stamp[x] & 1)
            continue;
        q->stamp[x] |= 1;
        if (x == v)
            break;
        nb_cell xc = node_cell(&q->g, x);
        if ((st = tile_checked(q, tile_of(w, xc), 2, err)) != NB_OK)
            return st;
        for (uint32_t a = nbi_u32at(q->g.arc_first, x); a < nbi_u32at(q->g.arc_first, x + 1); a++) {
            const uint8_t *r = q->g.arc + (size_t)a * NBI_WGRAPH_ARC;
            uint32_t y = nbi_get32(r + NBI_WGRAPH_A_TO);
            double gn = q->gv[x] + nbi_steps_length(nbi_get32(r + NBI_WGRAPH_A_CARD),
                                                    nbi_get32(r + NBI_WGRAPH_A_DIAG));
            int reached = (q->stamp[y] | 1) == (seen | 1);
            if (reached && (q->stamp[y] & 1 || q->gv[y] <= gn))
                continue;
            if (q->nblk[y] != k)
                continue;
            if (!reached)
                q->hv[y] = walk_bound(q, y, node_cell(&q->g, y), vc, dv, nl);
            q->stamp[y] = seen;
            q->gv[y] = gn;
            q->parent[y] = x;
            if (!nbi_heap_push(&q->heap, gn + q->hv[y], -gn, y))
                return nbi_fail(err, NB_ERR_NOMEM, "no memory for a %s search", FAMILY);
        }
    }
    if (q->stamp[v] != (seen | 1) || fabs(q->gv[v] - len) > 1e-6 * (1 + len))
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %ld (world_blocks), block (%u, %u): the arc from node %u to "
                        "%u (%.3f steps) is not the length of a path inside the block (%.3f)",
                        w->index->path, q->bl.section, k % q->bl.columns, k / q->bl.columns, u,
                        v, len, q->stamp[v] == (seen | 1) ? q->gv[v] : -1.0);
    size_t steps = 0;
    for (uint32_t x = v; x != u; x = q->parent[x])
        steps++;
    if (*n + steps > (size_t)q->g.nodes + 2)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: section %ld (world_blocks): a path of more "
                        "nodes than the world graph has", w->index->path, q->bl.section);
    size_t j = *n + steps;
    for (uint32_t x = v; x != u; x = q->parent[x])
        q->ekeys[--j] = x;
    *n += steps;
    return NB_OK;
}

/* The path's keys (goal first, na of them) with each of the level's arcs
 * walked again inside its block, back into keys; *na their count. */
static nb_status level_path(nbi_whaa *q, size_t *na, nb_err *err)
{
    size_t n = 0;
    q->ekeys[n++] = q->keys[*na - 1];
    for (size_t i = *na - 1; i > 0; i--) {
        uint32_t u = q->keys[i], v = q->keys[i - 1];
        if (v < q->g.nodes && q->viab[v]) {
            /* The arc's length from the level (the search's g-values are the walks' now). */
            uint32_t k = q->nblk[v];
            long e = q->nent[u] == UINT32_MAX || q->nblk[u] != k ? -1 : (long)q->nent[u];
            long f = q->nent[v] == UINT32_MAX ? -1 : (long)q->nent[v];
            double len = -1;
            for (uint32_t a = e < 0 ? 0 : nbi_u32at(q->bl.arc_first, (size_t)e);
                 e >= 0 && f >= 0 && a < nbi_u32at(q->bl.arc_first, (size_t)e + 1); a++) {
                const uint8_t *r = q->bl.arc + (size_t)a * NBI_WBLK_ARC;
                if (nbi_get32(r + NBI_WBLK_A_TO) == (uint32_t)f)
                    len = nbi_steps_length(nbi_get32(r + NBI_WBLK_A_CARD),
                                           nbi_get32(r + NBI_WBLK_A_DIAG));
            }
            nb_status st = block_walk(q, u, v, k, len, &n, err);
            if (st != NB_OK)
                return st;
        } else if (n < (size_t)q->g.nodes + 2)
            q->ekeys[n++] = v;
    }
    for (size_t i = 0; i < n; i++)
        q->keys[i] = q->ekeys[n - 1 - i];
    *na = n;
    return NB_OK;
}

nb_status nbi_whaa_begin(nbi_whaa *q, nb_cell start, nb_cell goal, const nb_world_overlay *ov,
                         nbi_whaa_result *res, nb_world_tile *needed, size_t needed_max,
                         size_t *needed_count, nb_err *err)
{
    const nb_world *w = q->w;
    memset(res, 0, sizeof *res);
    q->running = 0;
    if (needed_count)
        *needed_count = 0;
    nb_cell ends[2] = {start, goal};
    for (int e = 0; e < 2; e++)
        if (ends[e].x < 0 || ends[e].y < 0 || (uint32_t)ends[e].x >= w->x.width ||
            (uint32_t)ends[e].y >= w->x.height)
            return nbi_query_cell_fail(err, FAMILY, e ? "goal" : "start", ends[e], w->x.width,
                                       w->x.height);
    uint32_t ts = tile_of(w, start), tg = tile_of(w, goal);
    uint32_t N = q->g.nodes, S = N;
    nbi_wedit *ed = &q->ed;
    nbi_wedit_begin(ed, ov, q->cap, q->size);
    int ds = nbi_wedit_dirty(ed, ts), dg = nbi_wedit_dirty(ed, tg);
    pins p = {{0}, {0}, 0, 0, NB_OK, {0}};
    const nbi_stile *st_s = pin(w, &p, ts, needed, needed_max);
    const nbi_stile *st_g = pin(w, &p, tg, needed, needed_max);
    nb_status st = NB_OK;
    if (p.missing) {
        if (needed_count)
            *needed_count = p.missing;
        st = unloaded(q, &p, needed, needed_max, err);
        unpin(w, &p);
        nbi_wedit_end(ed);
        return st;
    }
    /* The ends' tiles' nodes, which the insertion and the search's start read. */
    if ((st = tile_checked(q, ts, 1, err)) != NB_OK || (st = tile_checked(q, tg, 1, err)) != NB_OK) {
        unpin(w, &p);
        nbi_wedit_end(ed);
        return st;
    }
    /* Edited tiles away from the ends searched through their repaired graphs
     * (tile_repair.c reads their nodes and arcs: checked first). */
    for (uint32_t t = 0; t < ed->ntiles && ed->ndirty && !ed->no_repair; t++)
        if (ed->dirty[t] && t != ts && t != tg && (st = tile_checked(q, t, 2, err)) != NB_OK) {
            unpin(w, &p);
            nbi_wedit_end(ed);
            return st;
        }
    /* The repaired tiles' graphs: keys of the search, after the ends'. */
    q->tk = 0;
    int rok = nbi_wedit_repair(ed, &q->g, ts, tg) == 0;
    for (size_t i = 0; rok && i < ed->ntrep; i++)
        if (ed->trep[i].live) {
            ed->trep[i].kbase = N + 2 + q->tk;
            q->tk += ed->trep[i].nkeys;
        }
    if (!rok || !grow_keys(q, (size_t)N + 2 + q->tk)) {
        unpin(w, &p);
        nbi_wedit_end(ed);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a %s search", FAMILY);
    }
    /* The ends inserted, and the path inside one tile when they share it: the refinement's
     * workspace re-bound to the start's tile, then the goal's (no workspace opened a query),
     * and given back before the tiles are unpinned below. */
    double *scost = q->scost;
    int ins = 1, ing = 1;
    if ((st = refiner(q, st_s->b, err)) == NB_OK) {
        q->strict = q->rh->g.corner == NB_CORNER_STRICT;
        ins = insert(q, q->rh, st_s, ts, start, scost);
    }
    if (st == NB_OK && ins && (st = refiner(q, st_g->b, err)) == NB_OK)
        ing = insert(q, q->rh, st_g, tg, goal, q->gcost);
    if (st == NB_OK && (!ins || !ing))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
    /* An end in an edited tile stands by the edited grid (its tile is loaded: pinned above). */
    if (st == NB_OK && ins == 1 && ds &&
        nbi_wpins_stands(&ed->pins, ed->ov, start.x, start.y, 0) != 1)
        ins = 2;
    if (st == NB_OK && ing == 1 && dg && nbi_wpins_stands(&ed->pins, ed->ov, goal.x, goal.y, 0) != 1)
        ing = 2;
    res->start_blocked = ins == 2;
    res->goal_blocked = ing == 2;
    /* Ends in different world components: no path, and no search above the tiles. */
    size_t ci;
    int apart = st == NB_OK && ins == 1 && ing == 1 &&
                nbi_world_comp_of(w, q->cap, q->size, &ci) &&
                nbi_world_component(w, st_s, ci, start) != nbi_world_component(w, st_g, ci, goal);
    res->apart = apart;
    if (++q->sid >= (1u << 31)) {
        memset(q->stamp, 0, q->kcap * sizeof *q->stamp);
        q->sid = 1;
    }
    nbi_heap_clear(&q->heap);
    q->stamp[S] = q->sid << 1;
    q->gv[S] = 0;
    if (st == NB_OK && ts == tg && !ds && !apart) {
        /* Inside the one tile: its own HAA*, as a candidate. */
        nb_haa *hs = q->rh; /* bound to the goal's tile, which is the start's */
        hs->node_ends = 0;  /* the query's own ends: searched in their clusters */
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
            st = candidate(q, st_s, &r, start, goal, err);
    }
    uint32_t fs = nbi_u32at(q->g.tile_first, ts), fg = nbi_u32at(q->g.tile_first, tg);
    uint32_t ns = nbi_u32at(q->g.tile_first, ts + 1) - fs, ng = nbi_u32at(q->g.tile_first, tg + 1) - fg;
    /* Under blocks a path may reach the goal through R cells, past every
     * portal of its tile, so the landmarks' terms there bound nothing. */
    q->nlm = 0;
    if (st == NB_OK && !apart && !ed->ndirty) {
        landmarks_at_goal(q, fg, ng);
        if (!ds)
            landmarks_active(q, fs, ns);
    }
    for (size_t i = 0; st == NB_OK && i < ed->ntrep; i++) {
        nbi_trep *r = &ed->trep[i];
        if (!r->live)
            continue;
        r->hmin = r->edge ? 0 : INFINITY; /* left by its edges' cells too: octile alone */
        for (uint32_t j = 0; !r->edge && j < r->np; j++) {
            double h = heuristic(q, r->first + j, node_cell(&q->g, r->first + j), goal);
            r->hmin = h < r->hmin ? h : r->hmin;
        }
        if (!r->np)
            r->hmin = 0;
    }
    for (uint32_t i = 0; st == NB_OK && !ds && i < ns; i++)
        if (scost[i] >= 0)
            relax(q, fs + i, scost[i], S, goal, node_cell(&q->g, fs + i));
    if (st == NB_OK && ed->ndirty && !apart && ins == 1 && ing == 1) {
        long k = nbi_wedit_in(ed, start.x, start.y) ? r_key(q, start) : 0;
        if (k < 0)
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
        else if ((st = map_portals(q, err)) == NB_OK && k > 0)
            relax(q, (uint32_t)k, 0, S, goal, start);
    }
    if (q->rh) /* before the tiles may go */
        nbi_haa_unbind(q->rh);
    unpin(w, &p);
    if (st != NB_OK || apart || ins != 1 || ing != 1) {
        nbi_wedit_end(ed);
        return st == NB_OK ? nbi_done(err, NB_OK) : st;
    }
    q->qs = start, q->qg = goal;
    q->qbl = q->has_bl && q->use_bl && !ed->ov; /* no cell blocked (repaired tiles are not dirty) */
    q->walked = 0;
    if (q->qbl)
        q->bs = block_of(q, ts), q->bgoal = block_of(q, tg);
    q->found = 0;
    q->fg = fg, q->ng = ng, q->dg = dg;
    q->running = 1;
    res->found = 0;
    return nbi_done(err, NB_OK);
}

int nbi_whaa_running(const nbi_whaa *q) { return q->running; }

void nbi_whaa_abandon(nbi_whaa *q)
{
    if (q->running)
        nbi_wedit_end(&q->ed);
    q->running = 0;
}

nb_status nbi_whaa_search(nbi_whaa *q, uint64_t budget, nbi_whaa_result *res, nb_err *err)
{
    const nb_world *w = q->w;
    nbi_wedit *ed = &q->ed;
    nb_cell goal = q->qg;
    uint32_t N = q->g.nodes, G = N + 1, fg = q->fg, ng = q->ng;
    int dg = q->dg;
    nb_status st = NB_OK;
    /* A* over the world graph (no tile read), and over the R cells when an overlay edits tiles. */
    while (st == NB_OK && q->running && !nbi_heap_empty(&q->heap)) {
        if (!budget--)
            return nbi_done(err, NB_OK);
        nbi_heap_item it = nbi_heap_pop(&q->heap);
        uint32_t u = it.id;
        if (q->stamp[u] & 1)
            continue;
        q->stamp[u] |= 1;
        res->expanded++;
        if (u == G) {
            q->found = 1;
            break;
        }
        if (q->max_expansions && res->expanded >= q->max_expansions) {
            res->limit = 1;
            break;
        }
        if (u > G && u < G + 1 + q->tk) {
            res->joined++;
            if (!expand_t(q, u, goal))
                st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a %s search", FAMILY);
            continue;
        }
        if (u > G) {
            if (!expand_r(q, u, goal))
                st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a %s search", FAMILY);
            continue;
        }
        /* u's record was checked before it was reached (its tile's nodes, or as an arc's
         * target), so its cell names its tile. */
        nb_cell uc = node_cell(&q->g, u);
        if ((st = tile_checked(q, tile_of(w, uc), 2, err)) != NB_OK)
            break;
        /* In a repaired tile, a portal of a pair whose cost the repair may change: that
         * pair's arc left to the tile's repaired graph, which the search enters here. */
        nbi_trep *tr = ed->ntrep ? nbi_wedit_trep(ed, tile_of(w, uc)) : NULL;
        if (tr && (u < tr->first || u >= tr->first + tr->np || !tr->join[u - tr->first] ||
                   q->stale_rows))
            tr = NULL;
        double gu = q->gv[u];
        uint32_t seen = q->sid << 1;
        /* With the level of blocks: an entry's arcs of the level, and away from the ends'
         * blocks no world graph arc inside the block (the level's stand for them). */
        uint32_t ub = q->qbl ? q->nblk[u] : 0;
        int coarse = q->qbl && ub != q->bs && ub != q->bgoal;
        uint32_t ue = q->qbl ? q->nent[u] : UINT32_MAX;
        if (ue != UINT32_MAX && (st = level_arcs(q, u, ue, gu, goal, err)) != NB_OK)
            break;
        uint32_t k0 = nbi_u32at(q->g.arc_first, u), k1 = nbi_u32at(q->g.arc_first, u + 1);
        if (coarse) {
            /* Only the arcs to other tiles may leave the block: they come last (the
             * format's order, checked with the tile's arcs). */
            uint32_t t = tile_of(w, uc), t0 = nbi_u32at(q->g.tile_first, t),
                     t1 = nbi_u32at(q->g.tile_first, t + 1);
            while (k0 < k1) {
                uint32_t v = nbi_get32(q->g.arc + (size_t)(k1 - 1) * NBI_WGRAPH_ARC + NBI_WGRAPH_A_TO);
                if (v >= t0 && v < t1)
                    break;
                k1--;
            }
            k0 = k1;
            k1 = nbi_u32at(q->g.arc_first, u + 1);
        }
        for (uint32_t k = k0; k < k1; k++) {
            const uint8_t *a = q->g.arc + (size_t)k * NBI_WGRAPH_ARC;
            uint32_t v = nbi_get32(a + NBI_WGRAPH_A_TO);
            if ((coarse && q->nblk[v] == ub) || q->stamp[v] == (seen | 1))
                continue;
            double d = nbi_steps_length(nbi_get32(a + NBI_WGRAPH_A_CARD),
                                        nbi_get32(a + NBI_WGRAPH_A_DIAG));
            double gn = gu + d;
            if (tr && v >= tr->first && v < tr->first + tr->np &&
                nbi_trep_changed(tr, u - tr->first, v - tr->first, d))
                continue;
            /* relax's own test first: most arcs reach a node no better,
             * and its cell (another record) is read only when one does. */
            if ((q->stamp[v] | 1) == (seen | 1) && (q->stamp[v] & 1 || q->gv[v] <= gn))
                continue;
            nb_cell vc = node_cell(&q->g, v);
            if (ed->ndirty && (nbi_wedit_dirty(ed, tile_of(w, vc)) || !arc_clean(q, uc, vc)))
                continue;
            if (ed->ntrep && tile_of(w, uc) != tile_of(w, vc) &&
                !cross_ok(q, uc, vc, gn + nbi_octile_cells(vc.x, vc.y, goal.x, goal.y)))
                continue;
            relax(q, v, gn, u, goal, vc);
        }
        if (tr && tr->pkey[u - tr->first] != UINT32_MAX)
            relax(q, tr->kbase + tr->pkey[u - tr->first], gu, u, goal, uc);
        if (u >= fg && u < fg + ng && !dg && q->gcost[u - fg] >= 0)
            relax(q, G, q->gv[u] + q->gcost[u - fg], u, goal, goal);
        if (ed->ndirty && nbi_wedit_in(ed, uc.x, uc.y)) {
            long r = r_key(q, uc);
            if (r < 0)
                st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a %s search", FAMILY);
            else
                relax(q, (uint32_t)r, q->gv[u], u, goal, uc);
        }
    }
    q->running = 0;
    if (st != NB_OK)
        nbi_wedit_end(ed);
    return st;
}

/* Key u is an R cell's (a step to or from it is one of the edited grid, or the same cell). */
static int rkey(const nbi_whaa *q, uint32_t u)
{
    return u >= q->g.nodes + 2 + q->tk;
}

/* A repaired tile's key u on the path (next after it, prev before) kept as a stretch's end:
 * where the path crosses to another repaired tile's graph or to an R cell.  The others are
 * left out: the stretch between two of the tile's kept ends is refined by its HAA*. */
static int tkey_kept(const nbi_whaa *q, uint32_t u, uint32_t next, uint32_t prev)
{
    const nbi_trep *r = key_trep(q, u);
    uint32_t N = q->g.nodes;
    for (int i = 0; i < 2; i++) {
        uint32_t v = i ? prev : next;
        if (v > N + 1 && v < N + 2 + q->tk ? key_trep(q, v) != r : v > N + 1)
            return 1;
    }
    return 0;
}

/* The query's end, refinement included: the edited tiles let go after (nbi_whaa_end). */
static nb_status end_query(nbi_whaa *q, nbi_whaa_result *res, nb_world_tile *needed,
                           size_t needed_max, size_t *needed_count, int *redo, nb_err *err)
{
    const nb_world *w = q->w;
    nbi_wedit *ed = &q->ed;
    nb_cell start = q->qs, goal = q->qg;
    uint32_t N = q->g.nodes, S = N, G = N + 1;
    pins p = {{0}, {0}, 0, 0, NB_OK, {0}};
    nb_status st = NB_OK;
    int found = q->found;
    if (needed_count)
        *needed_count = 0;
    /* An R cell in a tile not loaded: the answer may lie through it (the search runs
     * again once it is loaded). */
    int redo_ = 0;
    if (st == NB_OK && ed->pins.st != NB_OK) {
        st = ed->pins.st;
        if (err)
            *err = ed->pins.err;
    }
    if (st == NB_OK && ed->pins.nmissing) {
        size_t n = nbi_wpins_needed(&ed->pins, INFINITY, needed, needed_max);
        if (needed_count)
            *needed_count = n;
        st = nbi_wpins_unloaded(&ed->pins, INFINITY, n, err);
        redo_ = 1;
    }
    ed->pins.nmissing = 0;
    *redo = redo_;
    if (st != NB_OK) {
        res->limit = 0;
        res->found = 0;
        return st;
    }
    if (!found)
        return nbi_done(err, NB_OK);
    res->found = 1;
    res->abstract_length = q->gv[G];
    /* A stretch through a repaired tile's graph is one portal to another in that tile,
     * refined by the tile's HAA* under its overlay: its keys are left out.  With the level
     * of blocks the keys are kept once walked (q->walked). */
    size_t na = q->walked;
    for (uint32_t u = G, next = G; !q->walked; next = u, u = q->parent[u]) {
        if (u <= G || u >= G + 1 + q->tk || tkey_kept(q, u, next, u == S ? S : q->parent[u]))
            q->keys[na++] = u;
        if (u == S)
            break;
    }
    if (q->qbl && !q->walked && (st = level_path(q, &na, err)) != NB_OK) {
        res->found = 0;
        return st;
    }
    q->walked = q->qbl ? na : 0;
    res->abstract_len = na;
    if (q->abstract_only)
        return nbi_done(err, NB_OK);
    /* Refinement: the tiles of every stretch inside one, pinned first; a step to or from
     * an R cell is a move of the edited grid (or the same cell). */
    for (size_t i = na - 1; i > 0; i--) {
        uint32_t u = q->keys[i], v = q->keys[i - 1];
        if (rkey(q, u) || rkey(q, v))
            continue;
        nb_cell a = key_cell(q, u, start, goal), b = key_cell(q, v, start, goal);
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
        nb_cell a = key_cell(q, u, start, goal), b = key_cell(q, v, start, goal);
        uint32_t ta = tile_of(w, a);
        if (rkey(q, u) || rkey(q, v) || ta != tile_of(w, b)) {
            if (!append(q, &len, b))
                st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a path");
            continue;
        }
        st = refine(q, pin(w, &p, ta, NULL, 0), u, v, a, b, &len, res, err);
    }
    if (q->rh) /* before the tiles may go */
        nbi_haa_unbind(q->rh);
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

nb_status nbi_whaa_end(nbi_whaa *q, nbi_whaa_result *res, nb_world_tile *needed,
                       size_t needed_max, size_t *needed_count, int *redo, nb_err *err)
{
    nb_status st = end_query(q, res, needed, needed_max, needed_count, redo, err);
    res->repaired = q->ed.repaired;
    res->reused = q->ed.reused;
    nbi_wedit_end(&q->ed);
    return st;
}

void nbi_whaa_set_fresh_refiner(nbi_whaa *q, int fresh, int search_ends)
{
    q->fresh_rh = fresh;
    q->search_ends = search_ends;
}

void nbi_whaa_set_faults(nbi_whaa *q, int cell_walk, int stale_rows, int no_join)
{
    q->ed.no_join = no_join;
    q->ed.no_repair = cell_walk;
    q->stale_rows = stale_rows;
}

nb_status nbi_whaa_find(nbi_whaa *q, nb_cell start, nb_cell goal, const nb_world_overlay *ov,
                        nbi_whaa_result *res, nb_world_tile *needed, size_t needed_max,
                        size_t *needed_count, nb_err *err)
{
    nb_status st = nbi_whaa_begin(q, start, goal, ov, res, needed, needed_max, needed_count, err);
    if (st != NB_OK || !q->running)
        return st;
    if ((st = nbi_whaa_search(q, UINT64_MAX, res, err)) != NB_OK)
        return st;
    int redo;
    return nbi_whaa_end(q, res, needed, needed_max, needed_count, &redo, err);
}

nb_status nbi_whaa_insertion(nbi_whaa *q, nb_cell c, int full, double *cost, size_t max,
                             size_t *count, nb_err *err)
{
    const nb_world *w = q->w;
    *count = 0;
    if (c.x < 0 || c.y < 0 || (uint32_t)c.x >= w->x.width || (uint32_t)c.y >= w->x.height)
        return nbi_query_cell_fail(err, FAMILY, "end", c, w->x.width, w->x.height);
    uint32_t slot = tile_of(w, c);
    uint32_t np = nbi_u32at(q->g.tile_first, slot + 1) - nbi_u32at(q->g.tile_first, slot);
    pins p = {{0}, {0}, 0, 0, NB_OK, {0}};
    const nbi_stile *t = pin(w, &p, slot, NULL, 0);
    nb_status st = NB_OK;
    double *all = q->scost; /* np <= maxp: room for every tile's portals */
    if (!t)
        st = unloaded(q, &p, NULL, 0, err);
    else
        st = refiner(q, t->b, err);
    int r = st == NB_OK ? insert_to(q, q->rh, t, slot, c, all, full) : 1;
    if (st == NB_OK && !r)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
    else if (st == NB_OK && r == 2)
        st = nbi_fail(err, NB_ERR_NOTFOUND, "%s: the agent cannot stand at (%d, %d)", FAMILY,
                      c.x, c.y);
    for (uint32_t i = 0; st == NB_OK && i < np && i < max; i++)
        cost[i] = all[i];
    if (st == NB_OK)
        *count = np;
    if (q->rh)
        nbi_haa_unbind(q->rh);
    unpin(w, &p);
    return st == NB_OK ? nbi_done(err, NB_OK) : st;
}
