/* sgsearch.c: optimal paths from a subgoal layer (navbake.h: nb_sg_*).
 *
 * A query joins each end to the graph (the end itself when it is a
 * subgoal, else the subgoals its scan reaches; the start's scan also
 * looks for the goal, which ends the query when a straight octile walk
 * joins them), then searches the contraction hierarchy from both ends at
 * once, each side taking only edges to higher levels (Geisberger et al.,
 * 2008), until neither side's smallest key is below the best meeting
 * found.  The subgoal path is unpacked (each shortcut into the two edges
 * it replaces) and walked into cells.  A short query tries first within a
 * bound on its length (join_ends), and again without one when that finds
 * nothing.  Ends that a free octile walk joins need neither scans nor
 * search: the two straight shapes are tried first (direct_walk), then, for
 * ends less than SG_MONO_SHORT apart, every shape (sgmono.c).
 *
 * Node records grow with the nodes a query touches; a node id finds its
 * record through pages of SG_PAGE ids (each a u32 slot per id, made zeroed
 * when a query first touches an id of the page, and kept), a slot that
 * counts only when it is below the query's records in use and its record
 * holds that id: no clearing between queries, no hashing (a u32map cost
 * 8% of a Paris query).  The directory is a pointer per page of the
 * largest layer's ids; the pages, 4 bytes per id at most, hold what the
 * queries touched.  Two binary heaps with positions in the records give
 * decrease-key.
 *
 * With an overlay that blocks cells, the query runs on the layer as
 * without it and its path is walked on the grid the blocks leave: a path
 * they leave free is still shortest (blocks only lengthen paths) and is
 * the answer.  One a block cuts is answered by the search of the grid the
 * blocks leave (sgoverlay.c), A* over its subgoals with the hierarchy's
 * distances as heuristic.  A partial path goes to the reachable cell
 * nearest the goal, found first under the overlay, as to a goal.
 * Annotated A* answers only where the search round the blocks is switched
 * off (a workspace of its own, opened by the first such query).
 *
 * What bounds the work (formats/subgoal.md): a step of B settles at most B
 * nodes, each reading its own edges; the ends' scans read the bitmaps
 * around them; the path is refused before it is unpacked when it weighs as
 * many steps as the map has cells (path_steps), so unpacking and walking
 * cost at most the map's cells, never the number of nodes times that. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clearance/clearance.h"
#include "clearance/costs.h"
#include "clearance/reach.h"
#include "blocked/blocked.h"
#include "subgoal/subgoal.h"

#define NONE UINT32_MAX
/* A query whose hierarchy's path the blocks cut is answered by the search of the grid they
 * leave (sgoverlay.c), which may expand this many nodes before Annotated A* over the overlay
 * answers instead: none (UINT64_MAX), as measured (tests/bench/results/optimal-bench.md,
 * "Under overlays": faster than Annotated A* where the blocks leave a path, 4 to 11 times on
 * mazes, slower where they cut the goal off, which both learn by reading all the start
 * reaches; a budget pays both there). */
#ifndef SGOV_BUDGET
#define SGOV_BUDGET UINT64_MAX
#endif
#ifndef SGOV_REACH
#define SGOV_REACH 1.5
#endif
#ifndef SGOV_REACH_MIN
#define SGOV_REACH_MIN 32.0
#endif
#define FWD 0
#define BWD 1
/* Node ids a page of the id-to-slot index: 4 KiB a page. */
#define SG_PAGE_SHIFT 10
#define SG_PAGE ((uint32_t)1 << SG_PAGE_SHIFT)

struct sgnode {
    uint32_t id;
    int32_t x, y;       /* its cell, read once when the node is made */
    uint32_t parent[2]; /* slot reached from, or NONE: joined to the query's own end */
    uint32_t edge[2];   /* the edge of the parent's list that was taken */
    uint32_t heap[2];   /* position in each direction's heap, or NONE */
    double g[2];        /* INFINITY until reached from that side */
    uint8_t closed[2];
};

struct open {
    double key;
    uint32_t slot;
};

enum { IDLE, RUNNING, DONE, OVERLAID, OVSEARCH, COSTED };

struct nb_sg {
    const nb_bundle *bundle;
    const nb_allocator *a;
    size_t max_nodes;
    nbi_sglayer *layers;
    size_t nlayers;
    /* The components layer of the last (capability, size), as AA* keeps it. */
    int comp_state; /* 0 unknown, 1 present, -1 absent */
    nb_capability comp_cap;
    uint32_t comp_size;
    nbi_layer comp;

    /* The query in progress. */
    int state;
    nb_sg_query q;
    const nbi_sglayer *L;
    nb_path_status status;
    int searched, direct, limit;
    int mono_on;       /* direct, by a walk of another shape: mono holds it */
    nbi_sgmono mono;
    uint64_t expanded, scanned, stalled;
    double best;   /* the shortest meeting so far (or the bound, before one) */
    double bound;  /* the first try's bound on the path's length; INFINITY: none */
    int retried;   /* the query was searched again without its bound */
    uint32_t meet; /* its node's slot */
    uint32_t partial;        /* the forward-settled slot nearest the goal */
    double partial_h, partial_g;

    struct sgnode *node;
    size_t nused, ncap;
    uint32_t **page;    /* per SG_PAGE node ids: their slots, or NULL until touched */
    size_t npages;
    struct open *heap[2];
    size_t hn[2], hcap[2];
    nb_status oom; /* NB_ERR_NOMEM once growth failed mid-query */

    /* Results. */
    uint32_t *ids;   /* node ids of the subgoal path */
    size_t ids_cap;
    uint32_t *stack; /* unpacking: (edge, from, to) triples */
    size_t stack_cap;
    uint32_t *chain; /* the forward chain's slots, root first */
    size_t chain_cap;
    nb_cell *way;
    size_t way_cap, way_len;
    nb_aa *aa; /* partial queries with an overlay that blocks cells */
    const nb_overlay *ov; /* the query's overlay when it blocks cells, else NULL */
    nbi_sgov *sgov;       /* the search under it (sgoverlay.c), made by the first that needs it */
    int built;            /* the answer's path is built (under an overlay, when checked) */
    int walk_blocked;     /* under ov, a hop of the path has no walk the overlay leaves */
    int sgov_capped;      /* the search under it stops at sgov_budget, not the query's budget */
    uint64_t sgov_budget; /* SGOV_BUDGET, or nbi_sg_set_overlay_budget's */
    nbi_partial part; /* the goals of partial paths (clearance/partial.c) */
    int part_on;      /* the query searches to the reachable cell nearest its goal */
    int weighted;     /* the query's terrain costs are not all 1: costs holds them */
    nbi_costs costs;
    nbi_sgc *sgc;     /* the layer customized to terrain costs (sgcsearch.c), made by the first */
    nb_cell *path;
    size_t path_cap, path_len;
    double length;
};

nb_status nb_sg_query_init_abi(nb_sg_query *q, const nb_abi *abi)
{
    if (nbi_abi_ok(abi, NBI_ABI_nb_sg_query) != NB_OK)
        return NB_ERR_VERSION;
    memset(q, 0, sizeof *q); /* the strict corner rule, no costs, overlay or limit */
    q->size = 1;
    return NB_OK;
}

void nb_sg_query_agent(nb_sg_query *q, const nb_agent *agent)
{
    q->size = agent->size;
    q->capability = agent->capability;
    q->costs = agent->weighted ? agent->cost : NULL;
}

int nbi_sg_retried(const nb_sg *ws)
{
    return ws->retried;
}

void nbi_sg_overlay_kept(const nb_sg *ws, uint64_t *made, uint64_t *kept)
{
    uint64_t m = 0, k = 0;
    *made = *kept = 0;
    if (ws->sgov)
        nbi_sgov_kept(ws->sgov, made, kept);
    if (ws->sgc) {
        nbi_sgc_kept(ws->sgc, &m, &k);
        *made += m;
        *kept += k;
    }
}

void nbi_sg_set_overlay_budget(nb_sg *ws, uint64_t nodes)
{
    ws->sgov_budget = nodes;
}

void nb_sg_set_max_nodes(nb_sg *ws, uint64_t max_nodes)
{
    ws->max_nodes = max_nodes > SIZE_MAX ? SIZE_MAX : (size_t)max_nodes;
}

nb_status nb_sg_open(const nb_bundle *b, nb_sg **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_sg_open: no place for the workspace");
    *out = NULL;
    if (!b)
        return nbi_fail(err, NB_ERR_ARG, "nb_sg_open: bundle is NULL");
    if (!nb_has_map(b))
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the bundle holds no map to search", b->path);
    size_t n = 0;
    for (size_t i = 0; i < b->nsections; i++)
        n += b->sections[i].info.type == NB_SEC_SUBGOAL;
    if (n == 0)
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: the bundle holds no subgoal layer; bake one with mkclear --optimal",
                        b->path);
    nb_sg *ws = nbi_zalloc_array(b->a, 1, sizeof *ws);
    if (!ws)
        return nbi_fail_nomem(err, "a subgoal search workspace");
    ws->bundle = b;
    ws->a = b->a;
    ws->sgov_budget = SGOV_BUDGET;
    nbi_partial_init(&ws->part, b);
    ws->layers = nbi_alloc_array(ws->a, n, sizeof *ws->layers);
    if (!ws->layers) {
        nb_sg_close(ws);
        return nbi_fail_nomem(err, "a subgoal search workspace");
    }
    for (size_t i = 0; i < b->nsections; i++) {
        if (b->sections[i].info.type != NB_SEC_SUBGOAL)
            continue;
        nb_status st = nbi_sglayer_at(b, i, &ws->layers[ws->nlayers], err);
        if (st != NB_OK) {
            nb_sg_close(ws);
            return st;
        }
        ws->nlayers++;
    }
    /* The directory of the index's pages, for the largest layer's node ids. */
    uint32_t most = 0;
    for (size_t i = 0; i < ws->nlayers; i++)
        most = ws->layers[i].nodes > most ? ws->layers[i].nodes : most;
    ws->npages = ((size_t)most + SG_PAGE - 1) >> SG_PAGE_SHIFT;
    if (ws->npages && !(ws->page = nbi_zalloc_array(ws->a, ws->npages, sizeof *ws->page))) {
        nb_sg_close(ws);
        return nbi_fail_nomem(err, "a subgoal search workspace");
    }
    *out = ws;
    nbi_ok(err);
    return NB_OK;
}

void nb_sg_close(nb_sg *ws)
{
    if (!ws)
        return;
    const nb_allocator *a = ws->a;
    nbi_free(a, ws->layers);
    nbi_free(a, ws->node);
    for (size_t i = 0; ws->page && i < ws->npages; i++)
        nbi_free(a, ws->page[i]);
    nbi_free(a, ws->page);
    nbi_free(a, ws->heap[0]);
    nbi_free(a, ws->heap[1]);
    nbi_free(a, ws->ids);
    nbi_free(a, ws->stack);
    nbi_free(a, ws->chain);
    nbi_free(a, ws->way);
    nbi_free(a, ws->path);
    nb_aa_close(ws->aa);
    nbi_sgov_free(ws->sgov);
    nbi_sgc_free(ws->sgc);
    nbi_partial_free(&ws->part);
    nbi_free(a, ws);
}

static size_t page_bytes(const nb_sg *ws)
{
    size_t n = ws->npages * sizeof *ws->page;
    for (size_t i = 0; i < ws->npages; i++)
        n += ws->page[i] ? SG_PAGE * sizeof **ws->page : 0;
    return n;
}

size_t nb_sg_bytes(const nb_sg *ws)
{
    return sizeof *ws + ws->nlayers * sizeof *ws->layers + ws->ncap * sizeof *ws->node +
           page_bytes(ws) + (ws->hcap[0] + ws->hcap[1]) * sizeof(struct open) +
           ws->ids_cap * sizeof *ws->ids + ws->stack_cap * sizeof *ws->stack + ws->chain_cap * sizeof *ws->chain +
           ws->way_cap * sizeof *ws->way + ws->path_cap * sizeof *ws->path +
           (ws->aa ? nb_aa_bytes(ws->aa) : 0) + nbi_partial_bytes(&ws->part) +
           nbi_sgov_bytes(ws->sgov) + nbi_sgc_bytes(ws->sgc);
}

/* ---- the heaps ---- */

static inline void sift_up(nb_sg *ws, int dir, size_t i, struct open e)
{
    struct open *h = ws->heap[dir];
    while (i > 0) {
        size_t p = (i - 1) >> 1;
        if (h[p].key <= e.key)
            break;
        h[i] = h[p];
        ws->node[h[i].slot].heap[dir] = (uint32_t)i;
        i = p;
    }
    h[i] = e;
    ws->node[e.slot].heap[dir] = (uint32_t)i;
}

static uint32_t pop(nb_sg *ws, int dir)
{
    struct open *h = ws->heap[dir];
    uint32_t top = h[0].slot;
    ws->node[top].heap[dir] = NONE;
    size_t n = --ws->hn[dir];
    if (n == 0)
        return top;
    struct open e = h[n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && h[c + 1].key < h[c].key)
            c++;
        if (h[c].key >= e.key)
            break;
        h[i] = h[c];
        ws->node[h[i].slot].heap[dir] = (uint32_t)i;
        i = c;
    }
    h[i] = e;
    ws->node[e.slot].heap[dir] = (uint32_t)i;
    return top;
}

/* ---- nodes ---- */

/* The slot of node id (below the layer's nodes) in this query, or NONE: what its page says,
 * when that names a record of this query holding id (else it is an earlier query's, or
 * another layer's). */
static inline uint32_t slot_of(const nb_sg *ws, uint32_t id)
{
    const uint32_t *pg = ws->page[id >> SG_PAGE_SHIFT];
    if (!pg)
        return NONE;
    uint32_t s = pg[id & (SG_PAGE - 1)];
    return s < ws->nused && ws->node[s].id == id ? s : NONE;
}

/* A record for node id at cell c, which this query has none for; NONE at the node cap or out
 * of memory (ws->limit or ws->oom says which). */
static uint32_t node_new(nb_sg *ws, uint32_t id, nb_cell c)
{
    uint32_t s;
    if (ws->max_nodes && ws->nused >= ws->max_nodes) {
        ws->limit = 1;
        return NONE;
    }
    /* The records and both heaps grow together (a call only when full). */
    if ((ws->nused >= ws->ncap &&
         (!nbi_grow(ws->a, (void **)&ws->node, &ws->ncap, ws->nused + 1, sizeof *ws->node) ||
          !nbi_grow(ws->a, (void **)&ws->heap[0], &ws->hcap[0], ws->ncap, sizeof(struct open)) ||
          !nbi_grow(ws->a, (void **)&ws->heap[1], &ws->hcap[1], ws->ncap, sizeof(struct open)))) ||
        (!ws->page[id >> SG_PAGE_SHIFT] &&
         !(ws->page[id >> SG_PAGE_SHIFT] = nbi_zalloc_array(ws->a, SG_PAGE, sizeof **ws->page)))) {
        ws->oom = NB_ERR_NOMEM;
        return NONE;
    }
    s = (uint32_t)ws->nused++;
    ws->page[id >> SG_PAGE_SHIFT][id & (SG_PAGE - 1)] = s;
    struct sgnode *n = &ws->node[s];
    n->id = id;
    n->parent[0] = n->parent[1] = NONE;
    n->edge[0] = n->edge[1] = NONE;
    n->heap[0] = n->heap[1] = NONE;
    n->g[0] = n->g[1] = INFINITY;
    n->closed[0] = n->closed[1] = 0;
    n->x = c.x;
    n->y = c.y;
    return s;
}

/* The slot of node id, made when new, as node_new. */
static uint32_t node_slot(nb_sg *ws, uint32_t id)
{
    uint32_t s = slot_of(ws, id);
    return s != NONE ? s : node_new(ws, id, nbi_sg_node_cell(ws->L, id));
}

/* Node slot s reached from side dir at cost g (from parent slot p by edge
 * e, or from the end itself when p is NONE): its label lowered and its
 * place in the heap with it; a meeting with the other side noted. */
static inline NBP_ALWAYS_INLINE void reach_side(nb_sg *ws, const int dir, uint32_t s, double g,
                                                uint32_t p, uint32_t e)
{
    struct sgnode *n = &ws->node[s];
    if (n->closed[dir] || g >= n->g[dir])
        return;
    /* A* toward the other end: the octile distance never overestimates
     * what is left, and never drops by more than an edge's length.  A
     * key no shorter than the best meeting is never expanded, and its g
     * cannot make a shorter meeting (the other side's g is at least the
     * octile distance), so such a label is not kept. */
    const nb_cell *to = dir == FWD ? &ws->q.goal : &ws->q.start;
    struct open o = {g + nbi_octile_cells(n->x, n->y, to->x, to->y), s};
    if (o.key >= ws->best)
        return;
    n->g[dir] = g;
    n->parent[dir] = p;
    n->edge[dir] = e;
    size_t pos = n->heap[dir] == NONE ? ws->hn[dir]++ : n->heap[dir];
    sift_up(ws, dir, pos, o);
    double other = ws->node[s].g[1 - dir];
    if (other < INFINITY && g + other < ws->best) {
        ws->best = g + other;
        ws->meet = s;
    }
}

static void reach(nb_sg *ws, int dir, uint32_t s, double g, uint32_t p, uint32_t e)
{
    if (dir == FWD)
        reach_side(ws, FWD, s, g, p, e);
    else
        reach_side(ws, BWD, s, g, p, e);
}

/* ---- joining the ends ---- */

struct join {
    nb_sg *ws;
    int dir;
    int32_t tx, ty; /* the other end */
    int hit_target;
    int only_target; /* the end is a subgoal: its node holds its edges */
    uint32_t tcard, tdiag;
};

static int join_visit(void *ctx, int32_t x, int32_t y, uint32_t card, uint32_t diag)
{
    struct join *j = ctx;
    nb_sg *ws = j->ws;
    if (x == j->tx && y == j->ty) {
        j->hit_target = 1;
        j->tcard = card;
        j->tdiag = diag;
        return 1;
    }
    if (j->only_target)
        return 1;
    ws->scanned++;
    uint32_t s = node_slot(ws, nbi_sg_node_at(ws->L, x, y));
    if (s == NONE)
        return !ws->oom; /* at the node cap, the others are left out: the query ends anyway */
    reach(ws, j->dir, s, nbi_steps_length(card, diag), NONE, NONE);
    return 1;
}

/* Joins end c (start for FWD) to the graph; 1 when the scan found the
 * other end on a straight octile walk.  An end that is a subgoal is its
 * own node, and it is scanned too: the scan follows the walks that take
 * their diagonal moves first from where it starts, and under the weak
 * rule a walk of the other shape may be free when this one is not, so a
 * direct hop between the ends is looked for from both. */
static int join(nb_sg *ws, int dir, nb_cell c, const nb_cell *other)
{
    const nbi_sglayer *L = ws->L;
    int subgoal = nbi_sg_is_subgoal(&L->grid, c.x, c.y);
    if (subgoal) {
        uint32_t s = node_slot(ws, nbi_sg_node_at(L, c.x, c.y));
        if (s == NONE)
            return 0;
        reach(ws, dir, s, 0, NONE, NONE);
    }
    struct join j = {ws, dir, other->x, other->y, 0, subgoal, 0, 0};
    if (ws->bound < INFINITY)
        nbi_sg_scan_within(&L->grid, c.x, c.y, j.tx, j.ty, ws->bound, join_visit, &j);
    else
        nbi_sg_scan(&L->grid, c.x, c.y, j.tx, j.ty, join_visit, &j);
    return j.hit_target;
}

/* Both ends joined (ws->bound set): 1 when a scan found the other end on a straight walk. */
static int join_ends(nb_sg *ws)
{
    ws->best = ws->bound;
    ws->meet = ws->partial = NONE;
    ws->partial_h = ws->partial_g = INFINITY;
    ws->nused = 0;
    ws->hn[0] = ws->hn[1] = 0;
    return join(ws, FWD, ws->q.start, &ws->q.goal) ||
           (!ws->oom && join(ws, BWD, ws->q.goal, &ws->q.start));
}

/* A short query's first try within a bound: a path at most this long needs only the subgoals
 * whose h-path from one end plus octile distance to the other sum to no more, an ellipse
 * round the ends in place of everything in sight of them (on open maps, hundreds of subgoals
 * for a path of a few dozen cells).  A shortest path no longer than the bound goes through
 * such subgoals alone (each of its cells is within its length of both ends), so the
 * hierarchy's search from them, its keys below the bound too, finds it; when that search
 * ends with no meeting, the query is searched again without a bound.  Only queries whose
 * ends are less than SG_BOUND_SHORT apart try: on longer ones the ends' scans are a smaller
 * share and a miss (a detour longer than the bound, most lines of mazes and dungeons) costs
 * more than the try saves (optimal-bench.md, round 7: Paris's whole scenario file no
 * cheaper, brc202d's 43% dearer, with every query trying).  Nor do layers with a subgoal
 * every SG_BOUND_OPEN cells or fewer (mazes, rooms), where short queries mostly go round
 * walls longer than the bound: their short lines measured 21-33% dearer with the try. */
#ifndef SG_BOUND_SHORT
#define SG_BOUND_SHORT 64.0
#endif
#ifndef SG_BOUND_OPEN
#define SG_BOUND_OPEN 64.0
#endif
#ifndef SG_BOUND_RATIO
#define SG_BOUND_RATIO 1.1
#endif
#ifndef SG_BOUND_ADD
#define SG_BOUND_ADD 6.0
#endif

/* Ends less than this apart that neither of nbi_sg_walk's two shapes joins are tried with
 * every shape of octile walk (nbi_sg_mono) before the scans: such a walk is a shortest path. */
#ifndef SG_MONO_SHORT
#define SG_MONO_SHORT 64.0
#endif

/* 1 when a free octile walk joins a and b (either shape, as nbi_sg_walk); the walk is
 * written into the path's room, which the answer's walk reuses. */
static int direct_walk(nb_sg *ws, nb_cell a, nb_cell b)
{
    uint32_t ax = (uint32_t)abs(b.x - a.x), ay = (uint32_t)abs(b.y - a.y);
    size_t n = (size_t)(ax > ay ? ax : ay) + 1;
    if (!nbi_grow(ws->a, (void **)&ws->path, &ws->path_cap, n, sizeof *ws->path))
        return 0; /* the scans decide; the answer's walk reports the memory */
    return nbi_sg_walk(&ws->L->grid, a, b, ws->path + 1) != 0;
}

/* ---- the query ---- */


static const nbi_sglayer *layer_for(const nb_sg *ws, const nb_sg_query *q)
{
    for (size_t i = 0; i < ws->nlayers; i++) {
        const nbi_sglayer *l = &ws->layers[i];
        if (l->cap == q->capability && l->size == q->size && l->corner == q->corner)
            return l;
    }
    return NULL;
}

static nb_status no_layer(const nb_sg *ws, const nb_sg_query *q, nb_err *err)
{
    const nb_bundle *b = ws->bundle;
    char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1], have[512];
    size_t at = 0;
    have[0] = '\0';
    for (size_t i = 0; i < ws->nlayers && at + 1 < sizeof have; i++) {
        const nbi_sglayer *l = &ws->layers[i];
        nb_capability_format(b, l->cap, caps, sizeof caps);
        int k = snprintf(have + at, sizeof have - at, "%s{%s} size %u %s", at ? ", " : "", caps,
                         l->size, l->corner == NB_CORNER_WEAK ? "weak" : "strict");
        at += k > 0 ? (size_t)k : 0;
    }
    nb_capability_format(b, q->capability, caps, sizeof caps);
    return nbi_fail(err, NB_ERR_NOTFOUND,
                    "%s: no subgoal layer for capability {%s}, size %u and %s corners (it has %s); "
                    "bake one with mkclear --optimal and an agent of that size and capability, "
                    "or use Annotated A* (nb_aa_find)",
                    b->path, caps, q->size, q->corner == NB_CORNER_WEAK ? "weak" : "strict", have);
}

/* An answer known before any search: the query is done. */
static void answer(nb_sg *ws, nb_path_status st)
{
    ws->status = st;
    ws->state = DONE;
}

/* The components of (capability, size) say whether the ends are joined;
 * -1 when the bundle has no such layer, or an error. */
static nb_status same_component(nb_sg *ws, const nb_sg_query *q, int *same, nb_err *err)
{
    const nb_bundle *b = ws->bundle;
    if (ws->comp_state == 0 || ws->comp_cap != q->capability || ws->comp_size != q->size) {
        ws->comp_cap = q->capability;
        ws->comp_size = q->size;
        nb_status st = nbi_components_layer(b, q->capability, q->size, &ws->comp, err);
        if (st != NB_OK && st != NB_ERR_NOTFOUND) {
            ws->comp_state = 0;
            return st;
        }
        ws->comp_state = st == NB_OK ? 1 : -1;
    }
    *same = 1;
    if (ws->comp_state == 1)
        *same = nbi_comp_get(&ws->comp, (uint64_t)q->start.y * b->width + (uint64_t)q->start.x) ==
                nbi_comp_get(&ws->comp, (uint64_t)q->goal.y * b->width + (uint64_t)q->goal.x);
    return NB_OK;
}

/* The steps of the subgoal path to slot m (and on from m to the goal side, with bwd): what its
 * edges weigh, known before any is unpacked.  Every original edge is at least a step, so
 * unpacking gives no more nodes than this (the work bound of the file's comment). */
static uint64_t path_steps(const nb_sg *ws, uint32_t m, int bwd)
{
    uint64_t steps = 0;
    for (int d = 0; d <= bwd; d++)
        for (uint32_t s = m; ws->node[s].parent[d] != NONE; s = ws->node[s].parent[d]) {
            const uint8_t *r = ws->L->edges + (size_t)ws->node[s].edge[d] * NBI_SG_EDGE_RECORD;
            steps += (uint64_t)nbi_get32(r + NBI_SG_E_CARDINAL) + nbi_get32(r + NBI_SG_E_DIAGONAL);
        }
    return steps;
}

static int push_way(nb_sg *ws, nb_cell c);
static nb_status settle_overlay(nb_sg *ws, nb_err *err);

/* A query for turning points alone answers without the cells, however they were found. */
static void drop_cells(nb_sg_result *res)
{
    res->path_len = 0;
    res->path = NULL;
}

/* The search under an overlay (sgoverlay.c) is made by the first query that needs it (a
 * partial path's target, or a path the blocks cut) and kept for the workspace's life. */
static nb_status sgov_made(nb_sg *ws, nb_err *err)
{
    if (ws->sgov || (ws->sgov = nbi_sgov_new(ws->a)))
        return NB_OK;
    ws->state = IDLE;
    return nbi_fail_nomem(err, "a subgoal search under an overlay");
}

/* The query under an overlay that blocks cells, as Annotated A*. */
static nb_status begin_overlaid(nb_sg *ws, const nb_sg_query *q, nb_err *err)
{
    if (!ws->aa) {
        nb_status st = nb_aa_open(ws->bundle, &ws->aa, err);
        if (st != NB_OK)
            return st;
    }
    nb_aa_set_max_nodes(ws->aa, ws->max_nodes);
    nb_aa_query aq;
    NBI_AA_QUERY_OF(&aq, q);
    aq.partial = q->partial; /* the goal is then the reachable cell found: the same path */
    ws->q = *q;
    nb_status st = nb_aa_begin(ws->aa, &aq, err);
    if (st != NB_OK)
        nbi_err_prefix(err, "optimal layer under an overlay");
    if (st == NB_OK)
        ws->state = OVERLAID;
    return st;
}

/* The result of the Annotated A* query begun by begin_overlaid: its path, and the cells where
 * the path turns as the waypoints (each run of one move between them is a straight walk). */
static nb_status finish_overlaid(nb_sg *ws, nb_sg_result *res, nb_err *err)
{
    nb_aa_result r;
    ws->state = IDLE;
    nb_status st = nb_aa_finish(ws->aa, &r, err);
    if (st != NB_OK)
        return st;
    res->status = r.status == NB_PATH_FOUND && ws->part_on ? NB_PATH_PARTIAL : r.status;
    res->fallback = 1;
    res->expanded = r.expanded;
    res->searched = r.searched;
    res->length = r.length;
    res->cost = r.cost;
    res->path_len = r.path_len;
    res->path = r.path;
    ws->way_len = 0;
    for (size_t i = 0; i < r.path_len; i++) {
        int turn = i == 0 || i + 1 == r.path_len ||
                   r.path[i].x - r.path[i - 1].x != r.path[i + 1].x - r.path[i].x ||
                   r.path[i].y - r.path[i - 1].y != r.path[i + 1].y - r.path[i].y;
        if (turn && !push_way(ws, r.path[i]))
            return nbi_fail_nomem(err, "a path's waypoints");
    }
    res->waypoint_len = ws->way_len;
    res->waypoints = ws->way_len ? ws->way : NULL;
    if (ws->q.waypoints_only)
        drop_cells(res);
    return nbi_done(err, NB_OK);
}

/* A query with terrain costs: the least-cost search of the layer customized to its profile,
 * under the query's blocks (to a partial path's end as to a goal). */
static nb_status begin_costed(nb_sg *ws, nb_err *err)
{
    if (!ws->sgc && !(ws->sgc = nbi_sgc_new(ws->a))) {
        ws->state = IDLE;
        return nbi_fail_nomem(err, "a least-cost search of the optimal layer");
    }
    ws->searched = 1;
    nb_status st = nbi_sgc_begin(ws->sgc, ws->L, &ws->costs, ws->q.costs, ws->ov, ws->q.start,
                                 ws->q.goal, ws->max_nodes, ws->q.max_expansions, err);
    if (st != NB_OK) {
        ws->state = IDLE;
        nbi_err_prefix(err, "optimal layer with terrain costs: %s", ws->bundle->path);
        return st;
    }
    ws->state = COSTED;
    return NB_OK;
}

nb_status nb_sg_begin(nb_sg *ws, const nb_sg_query *q, nb_err *err)
{
    static const char family[] = "optimal layer";
    const nb_bundle *b = ws->bundle;
    ws->state = IDLE;
    ws->part_on = 0;
    ws->path_len = ws->way_len = 0;
    nb_status qst;
    if ((qst = nbi_query_size(err, family, q->size)) != NB_OK)
        return qst;
    if (q->corner != NB_CORNER_STRICT && q->corner != NB_CORNER_WEAK)
        return nbi_fail(err, NB_ERR_ARG, "%s: unknown corner rule %d", family, (int)q->corner);
    if ((qst = nbi_costs_keep(&ws->costs, b, q->capability, q->size, q->costs, err)) != NB_OK) {
        nbi_err_prefix(err, "%s", family);
        return qst;
    }
    if ((qst = nbi_overlay_check(q->overlay, b, family, err)) != NB_OK ||
        (qst = nbi_query_cell(err, family, "start", q->start, b->width, b->height)) != NB_OK ||
        (qst = nbi_query_cell(err, family, "goal", q->goal, b->width, b->height)) != NB_OK)
        return qst;
    const nbi_sglayer *L = layer_for(ws, q);
    if (!L)
        return no_layer(ws, q, err);
    /* Terrain costs: the layer customized to the profile answers (sgcsearch.c), under an
     * overlay that blocks cells too (its graph changed where the blocks are), and a partial
     * path without one (to the reachable cell nearest the goal). */
    ws->weighted = ws->costs.weighted;
    ws->ov = q->overlay && q->overlay->blocked ? q->overlay : NULL;
    ws->built = 0;
    ws->q = *q;
    /* A partial path is the path to the reachable cell nearest the goal: searched as a goal.
     * Under an overlay that cell is found by the rings under it (clearance/partial.c), so it
     * is reachable there, and the layer's exact search under the blocks goes to it, with
     * costs or without (the same cell either way). */
    if (q->partial && ws->ov && (qst = sgov_made(ws, err)) != NB_OK)
        return qst;
    /* The goal joined to the start under the blocks (the regions the overlay's version keeps,
     * on maps up to 2048 x 2048) is its own target: the rings' searches are not needed. */
    int joined = q->partial && ws->ov ? nbi_sgov_joined(ws->sgov, L, ws->ov, q->start, q->goal)
                                      : -1;
    if (joined == 1)
        ws->part_on = 0;
    else if (q->partial &&
             (qst = nbi_partial_target(&ws->part, family, q->capability, q->size, ws->ov,
                                       q->start, q->goal, &ws->q.goal, &ws->part_on, err)) !=
                 NB_OK)
        return qst;
    q = &ws->q;
    ws->L = L;
    ws->searched = ws->direct = ws->limit = ws->mono_on = 0;
    ws->oom = NB_OK;
    ws->expanded = ws->scanned = 0;
    ws->best = ws->bound = INFINITY;
    ws->retried = 0;
    ws->meet = ws->partial = NONE;
    ws->partial_h = ws->partial_g = INFINITY;
    ws->nused = 0;
    ws->hn[0] = ws->hn[1] = 0;
    ws->length = 0;
    ws->state = RUNNING;
    if (!nbi_sg_free(&L->grid, q->start.x, q->start.y) ||
        (ws->ov && !nbi_sgov_free_at(L, ws->ov, q->start.x, q->start.y))) {
        answer(ws, NB_PATH_START_BLOCKED);
        return nbi_done(err, NB_OK);
    }
    if (!nbi_sg_free(&L->grid, q->goal.x, q->goal.y) ||
        (ws->ov && !nbi_sgov_free_at(L, ws->ov, q->goal.x, q->goal.y))) {
        answer(ws, NB_PATH_GOAL_BLOCKED);
        return nbi_done(err, NB_OK);
    }
    int same;
    nb_status st = same_component(ws, q, &same, err);
    if (st != NB_OK) {
        ws->state = IDLE;
        return st;
    }
    if (!same) {
        answer(ws, NB_PATH_NONE);
        return nbi_done(err, NB_OK);
    }
    if (q->start.x == q->goal.x && q->start.y == q->goal.y) {
        ws->direct = 1;
        answer(ws, NB_PATH_FOUND);
        return nbi_done(err, NB_OK);
    }
    if (ws->weighted)
        return begin_costed(ws, err);
    /* Ends joined by a free octile walk need no scan: no path is shorter than the octile
     * distance.  The scans would find the same walk after reaching every subgoal in sight of
     * either end (a hundred and more on open maps), which is most of a short query's time.
     * Under an overlay the walk is then checked against the blocks, as a scan's would be. */
    double h = nbi_octile_cells(q->start.x, q->start.y, q->goal.x, q->goal.y);
    if (direct_walk(ws, q->start, q->goal) ||
        (h < SG_MONO_SHORT &&
         (ws->mono_on = nbi_sg_mono(&L->grid, q->start, q->goal, &ws->mono)))) {
        ws->direct = 1;
        answer(ws, NB_PATH_FOUND);
        return settle_overlay(ws, err);
    }
    ws->searched = 1;
    /* Under an overlay the unblocked path is walked on the blocks' grid, and the search
     * under the overlay reads the unbounded search's distances: no bound there. */
    int open = (double)L->grid.width * L->grid.height >= SG_BOUND_OPEN * L->nodes;
    ws->bound = ws->ov || h >= SG_BOUND_SHORT || !open ? INFINITY
                                                       : SG_BOUND_RATIO * h + SG_BOUND_ADD;
    if (join_ends(ws)) {
        ws->searched = 0;
        ws->direct = 1;
        answer(ws, NB_PATH_FOUND);
        return settle_overlay(ws, err);
    }
    if (ws->oom) {
        ws->state = IDLE;
        return nbi_fail_nomem(err, "a subgoal search's nodes");
    }
    return nbi_done(err, NB_OK);
}

/* The side to expand next: the one whose smallest key is smaller, among
 * those still below the best meeting; -1 when neither is. */
static int next_side(const nb_sg *ws)
{
    int f = ws->hn[FWD] && ws->heap[FWD][0].key < ws->best;
    int bk = ws->hn[BWD] && ws->heap[BWD][0].key < ws->best;
    if (f && bk)
        return ws->heap[FWD][0].key <= ws->heap[BWD][0].key ? FWD : BWD;
    return f ? FWD : bk ? BWD : -1;
}

/* Settles slot s on side dir and relaxes its upward edges.  Made once a side (dir a constant
 * in each copy), with reach inlined: the relaxations are most of a dense layer's search (Paris:
 * 938,567 reach calls for 83,283 expansions over its scenario file). */
static inline NBP_ALWAYS_INLINE void expand_side(nb_sg *ws, const int dir, uint32_t s)
{
    const nbi_sglayer *L = ws->L;
    struct sgnode *n = &ws->node[s];
    n->closed[dir] = 1;
    ws->expanded++;
    const double g = n->g[dir];
    const uint32_t id = n->id;
    if (dir == FWD) {
        /* The partial path's end, should the budget run out. */
        double h = nbi_octile_cells(n->x, n->y, ws->q.goal.x, ws->q.goal.y);
        if (h < ws->partial_h || (h == ws->partial_h && g < ws->partial_g)) {
            ws->partial = s;
            ws->partial_h = h;
            ws->partial_g = g;
        }
    }
    const uint32_t e0 = nbi_u32at(L->first, id), e1 = nbi_u32at(L->first, id + 1);
    /* Stall on demand: the graph is undirected, so an edge up from this
     * node is also an edge down into it; when a node above already reached
     * from this side offers it a shorter way, its label is not a shortest
     * upward distance and no shortest up-down path goes on from here.
     * Shorter by a margin: two ways of the same length summed in another
     * order may differ in the last bits, and stalling a node on a shortest
     * path for that loses the path (skipping a stall only costs time).
     * The test is made as the edges are relaxed, in one pass: the edges
     * relaxed before a stall is found give labels of real paths, only
     * longer than need be, which no answer can take for shorter ones.
     * Those labels are the one pass's 2.5-7% more expansions (the stall
     * rule itself is the same); two passes, testing every edge before
     * relaxing any, cost more all the same, by instructions, simulated
     * cache misses and mispredicted branches (optimal-bench.md, rounds 10
     * and 11). */
    const double stall_below = g - 1e-9 * (1.0 + g);
    const nb_cell to = dir == FWD ? ws->q.goal : ws->q.start;
    for (uint32_t e = e0; e < e1; e++) {
        const uint8_t *r = L->edges + (size_t)e * NBI_SG_EDGE_RECORD;
        const uint32_t tid = nbi_get32(r + NBI_SG_E_TARGET);
        const double c = nbi_steps_length(nbi_get32(r + NBI_SG_E_CARDINAL), nbi_get32(r + NBI_SG_E_DIAGONAL));
        uint32_t t = slot_of(ws, tid);
        if (t == NONE) {
            /* A target not reached yet whose key is no shorter than the best meeting would be
             * dropped by reach: it gets no record (the same sum as reach's key). */
            nb_cell tc = nbi_sg_node_cell(L, tid);
            if (g + c + nbi_octile_cells(tc.x, tc.y, to.x, to.y) >= ws->best)
                continue;
            t = node_new(ws, tid, tc);
            if (t == NONE)
                return; /* ws->limit or ws->oom */
        } else if (ws->node[t].g[dir] + c < stall_below) {
            ws->stalled++;
            return;
        }
        reach_side(ws, dir, t, g + c, s, e);
    }
}

static void expand(nb_sg *ws, int dir, uint32_t s)
{
    if (dir == FWD)
        expand_side(ws, FWD, s);
    else
        expand_side(ws, BWD, s);
}

nb_status nb_sg_step(nb_sg *ws, uint64_t expansions, int *done, nb_err *err)
{
    if (ws->state == IDLE) {
        if (done)
            *done = 1;
        return nbi_fail(err, NB_ERR_ARG, "nb_sg_step: no query in progress (call nb_sg_begin)");
    }
    if (ws->state == OVERLAID) {
        int d = 1;
        nb_status st = nb_aa_step(ws->aa, expansions, &d, err);
        if (st != NB_OK)
            ws->state = IDLE;
        if (done)
            *done = d;
        return st;
    }
    if (ws->state == COSTED) {
        int d = nbi_sgc_step(ws->sgc, expansions);
        if (done)
            *done = d;
        return nbi_done(err, NB_OK);
    }
    uint64_t k = 0;
    for (; ws->state == RUNNING && !ws->limit && k < expansions; k++) {
        if (ws->q.max_expansions && ws->expanded >= ws->q.max_expansions) {
            ws->limit = 1;
            break;
        }
        int dir = next_side(ws);
        if (dir < 0 && ws->meet == NONE && ws->bound < INFINITY) {
            /* No path within the bound: the query again without one. */
            ws->bound = INFINITY;
            ws->retried = 1;
            if (join_ends(ws)) {
                ws->searched = 0;
                ws->direct = 1;
                answer(ws, NB_PATH_FOUND);
                break;
            }
            if (ws->oom) {
                ws->state = IDLE;
                if (done)
                    *done = 1;
                return nbi_fail_nomem(err, "a subgoal search's nodes");
            }
            dir = next_side(ws);
        }
        if (dir < 0) {
            answer(ws, ws->meet != NONE ? NB_PATH_FOUND : NB_PATH_NONE);
            break;
        }
        expand(ws, dir, pop(ws, dir));
        if (ws->oom) {
            ws->state = IDLE;
            if (done)
                *done = 1;
            return nbi_fail_nomem(err, "a subgoal search's nodes");
        }
    }
    if (ws->state == RUNNING && ws->limit)
        answer(ws, NB_PATH_LIMIT);
    if (ws->state == DONE && ws->ov && !ws->built) {
        nb_status st = settle_overlay(ws, err);
        if (st != NB_OK) {
            if (done)
                *done = 1;
            return st;
        }
        if (ws->state == OVERLAID) {
            int d = 1;
            st = nb_aa_step(ws->aa, expansions - k, &d, err);
            if (st != NB_OK)
                ws->state = IDLE;
            if (done)
                *done = d;
            return st;
        }
    }
    if (ws->state == OVSEARCH) {
        nb_status st;
        int ended = nbi_sgov_step(ws->sgov, expansions - k, &st);
        if (st != NB_OK) {
            ws->state = IDLE;
            if (done)
                *done = 1;
            return nbi_fail_nomem(err, "a subgoal search's nodes under an overlay");
        }
        if (ended && ws->sgov_capped && nbi_sgov_status(ws->sgov) == NB_PATH_LIMIT) {
            nb_sg_query q = ws->q;
            st = begin_overlaid(ws, &q, err);
            int d = 1;
            if (st == NB_OK)
                st = nb_aa_step(ws->aa, expansions - k, &d, err);
            if (st != NB_OK)
                ws->state = IDLE;
            if (done)
                *done = d;
            return st;
        }
        if (done)
            *done = ended;
        return nbi_done(err, NB_OK);
    }
    if (done)
        *done = ws->state == DONE;
    return nbi_done(err, NB_OK);
}

/* ---- the answer: unpacking and walking ---- */

static int push_id(nb_sg *ws, size_t *n, uint32_t id)
{
    if (!nbi_grow(ws->a, (void **)&ws->ids, &ws->ids_cap, *n + 1, sizeof *ws->ids))
        return 0;
    ws->ids[(*n)++] = id;
    return 1;
}

/* Appends the nodes after `from` on the original edges that edge e (from
 * its lower end) stands for, from node `from` to node `to`. */
static int unpack(nb_sg *ws, uint32_t e, uint32_t from, uint32_t to, size_t *n)
{
    const nbi_sglayer *L = ws->L;
    size_t sp = 0;
    if (!nbi_grow(ws->a, (void **)&ws->stack, &ws->stack_cap, 3, sizeof *ws->stack))
        return 0;
    ws->stack[sp++] = e;
    ws->stack[sp++] = from;
    ws->stack[sp++] = to;
    while (sp) {
        uint32_t t = ws->stack[--sp], f = ws->stack[--sp], ed = ws->stack[--sp];
        uint32_t mid = nbi_get32(L->edges + (size_t)ed * NBI_SG_EDGE_RECORD + NBI_SG_E_MID);
        if (mid == NBI_SG_NO_MID) {
            if (!push_id(ws, n, t))
                return 0;
            continue;
        }
        /* Checked at open: both halves exist, at lower levels, so this ends.  The second half
         * goes on the stack first, so that the first is unpacked first: nodes in walking
         * order. */
        if (!nbi_grow(ws->a, (void **)&ws->stack, &ws->stack_cap, sp + 6, sizeof *ws->stack))
            return 0;
        ws->stack[sp++] = nbi_sg_edge_to(L, mid, t);
        ws->stack[sp++] = mid;
        ws->stack[sp++] = t;
        ws->stack[sp++] = nbi_sg_edge_to(L, mid, f);
        ws->stack[sp++] = f;
        ws->stack[sp++] = mid;
    }
    return 1;
}

/* The subgoal path to slot m (the meeting, or the partial path's end) and,
 * with bwd, on from m to the goal side, as node ids in ws->ids. */
static int subgoal_path(nb_sg *ws, uint32_t m, int bwd, size_t *n)
{
    *n = 0;
    /* The forward chain, root first: count it, then fill it backwards. */
    size_t len = 0;
    for (uint32_t s = m; s != NONE; s = ws->node[s].parent[FWD])
        len++;
    if (!nbi_grow(ws->a, (void **)&ws->chain, &ws->chain_cap, len, sizeof *ws->chain))
        return 0;
    size_t k = len;
    for (uint32_t s = m; s != NONE; s = ws->node[s].parent[FWD])
        ws->chain[--k] = s;
    const uint32_t *chain = ws->chain;
    int ok = push_id(ws, n, ws->node[chain[0]].id);
    for (size_t i = 1; ok && i < len; i++) {
        const struct sgnode *c = &ws->node[chain[i]];
        ok = unpack(ws, c->edge[FWD], ws->node[chain[i - 1]].id, c->id, n);
    }
    if (!ok || !bwd)
        return ok;
    for (uint32_t s = m; ws->node[s].parent[BWD] != NONE; s = ws->node[s].parent[BWD]) {
        uint32_t p = ws->node[s].parent[BWD];
        if (!unpack(ws, ws->node[s].edge[BWD], ws->node[s].id, ws->node[p].id, n))
            return 0;
    }
    return 1;
}

static int push_way(nb_sg *ws, nb_cell c)
{
    if (ws->way_len && ws->way[ws->way_len - 1].x == c.x && ws->way[ws->way_len - 1].y == c.y)
        return 1;
    if (!nbi_grow(ws->a, (void **)&ws->way, &ws->way_cap, ws->way_len + 1, sizeof *ws->way))
        return 0;
    ws->way[ws->way_len++] = c;
    return 1;
}

/* The waypoints' cells, walked; NB_ERR_FORMAT when a hop cannot be walked
 * (a layer whose graph and bitmaps disagree). */
static nb_status walk_path(nb_sg *ws, nb_err *err)
{
    uint64_t total = nbi_sg_way_cells(ws->way, ws->way_len);
    if (total > (uint64_t)ws->bundle->width * ws->bundle->height + 1 ||
        !nbi_grow(ws->a, (void **)&ws->path, &ws->path_cap, (size_t)total, sizeof *ws->path))
        return total > (uint64_t)ws->bundle->width * ws->bundle->height + 1
                   ? nbi_fail(err, NB_ERR_FORMAT, "%s: section %ld (subgoal): a path of %llu "
                              "cells, more than the map has", ws->bundle->path, ws->L->section,
                              (unsigned long long)total)
                   : nbi_fail_nomem(err, "a path");
    ws->path[0] = ws->way[0];
    ws->walk_blocked = 0;
    size_t at = 1;
    uint64_t diag = 0;
    for (size_t i = 1; i < ws->way_len; i++) {
        nb_cell a = ws->way[i - 1], b = ws->way[i];
        size_t k = ws->ov ? nbi_sgov_walk(ws->L, ws->ov, a, b, ws->path + at)
                          : nbi_sg_walk(&ws->L->grid, a, b, ws->path + at);
        if (k == 0 && ws->ov) {
            ws->walk_blocked = 1; /* the blocks cut this hop: the caller searches around them */
            return NB_OK;
        }
        if (k == 0)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: section %ld (subgoal): no free octile walk from (%d, %d) to (%d, "
                            "%d), which its graph joins", ws->bundle->path, ws->L->section, a.x,
                            a.y, b.x, b.y);
        uint32_t ax = (uint32_t)abs(b.x - a.x), ay = (uint32_t)abs(b.y - a.y);
        diag += ax < ay ? ax : ay;
        at += k;
    }
    ws->path_len = at;
    ws->length = nbi_steps_length(at - 1 - diag, diag);
    return NB_OK;
}

/* The length of the waypoints' octile walks, without walking them: no cells. */
static nb_status waypoints_length(nb_sg *ws)
{
    uint64_t card = 0, diag = 0;
    for (size_t i = 1; i < ws->way_len; i++) {
        uint32_t ax = (uint32_t)abs(ws->way[i].x - ws->way[i - 1].x);
        uint32_t ay = (uint32_t)abs(ws->way[i].y - ws->way[i - 1].y);
        uint32_t d = ax < ay ? ax : ay;
        diag += d;
        card += (ax > ay ? ax : ay) - d;
    }
    ws->walk_blocked = 0;
    ws->path_len = 0;
    ws->length = nbi_steps_length(card, diag);
    return NB_OK;
}

static nb_status build_answer(nb_sg *ws, nb_err *err)
{
    const nbi_sglayer *L = ws->L;
    ws->way_len = 0;
    if (!push_way(ws, ws->q.start))
        return nbi_fail_nomem(err, "a path");
    if (ws->mono_on) {
        /* The weaving walk's turning points: each hop between them is straight. */
        if (!nbi_grow(ws->a, (void **)&ws->way, &ws->way_cap,
                      (size_t)ws->mono.diag + ws->mono.card + 2, sizeof *ws->way))
            return nbi_fail_nomem(err, "a path");
        ws->way_len += nbi_sg_mono_turns(&ws->mono, ws->way + 1);
    }
    uint32_t m = ws->status == NB_PATH_FOUND ? ws->meet : ws->partial;
    if (!ws->direct && m != NONE) {
        /* A path longer than the map has cells is no path (walk_path refuses it): refused before
         * its shortcuts are unpacked, whose nodes would be as many as its steps. */
        uint64_t steps = path_steps(ws, m, ws->status == NB_PATH_FOUND);
        if (steps >= (uint64_t)ws->bundle->width * ws->bundle->height)
            return nbi_fail(err, NB_ERR_FORMAT, "%s: section %ld (subgoal): a path of %llu steps, "
                            "more than the map has cells", ws->bundle->path, L->section,
                            (unsigned long long)steps);
        size_t n;
        if (!subgoal_path(ws, m, ws->status == NB_PATH_FOUND, &n))
            return nbi_fail_nomem(err, "a path");
        for (size_t i = 0; i < n; i++)
            if (!push_way(ws, nbi_sg_node_cell(L, ws->ids[i])))
                return nbi_fail_nomem(err, "a path");
    }
    if (ws->status == NB_PATH_FOUND && !push_way(ws, ws->q.goal))
        return nbi_fail_nomem(err, "a path");
    /* Turning points alone: the length is the hops' octile distances.  Under blocks (each hop
     * checked by its walk) or terrain costs (priced cell by cell) the cells are walked still. */
    if (ws->q.waypoints_only && !ws->ov && !ws->weighted)
        return waypoints_length(ws);
    return walk_path(ws, err);
}

/* The partial path of a query under an overlay whose hierarchy's partial path meets a block:
 * the start alone. */
static nb_status limit_at_start(nb_sg *ws)
{
    ws->walk_blocked = 0;
    ws->way_len = ws->path_len = 1;
    ws->way[0] = ws->path[0] = ws->q.start;
    ws->length = 0;
    return NB_OK;
}

/* Under an overlay, once the hierarchy has answered on the layer: its path, walked on the
 * grid the blocks leave, is the answer when every hop can be walked there (blocks only
 * lengthen paths, so a shortest path they leave free stays shortest); otherwise the search
 * around the blocks (sgoverlay.c) answers.  A partial path that meets a block is cut to the
 * start. */
static nb_status settle_overlay(nb_sg *ws, nb_err *err)
{
    if (!ws->ov || (ws->status != NB_PATH_FOUND && ws->status != NB_PATH_LIMIT))
        return nbi_done(err, NB_OK);
    nb_status st = build_answer(ws, err);
    if (st != NB_OK) {
        ws->state = IDLE;
        ws->path_len = ws->way_len = 0;
        return st;
    }
    ws->built = 1;
    if (!ws->walk_blocked)
        return nbi_done(err, NB_OK);
    if (ws->status == NB_PATH_LIMIT || (ws->q.max_expansions && ws->expanded >= ws->q.max_expansions)) {
        ws->status = NB_PATH_LIMIT;
        return limit_at_start(ws);
    }
    /* The blocks cut the path: Annotated A* over the overlay answers (fallback 1).  The search
     * of the grid the blocks leave (sgoverlay.c) is exact too, but measured slower than it
     * (tests/bench/results/optimal-bench.md, "Under overlays"). */
    nb_sg_query q = ws->q;
    if (ws->sgov_budget) {
        if ((st = sgov_made(ws, err)) != NB_OK)
            return st;
        ws->built = 0;
        uint64_t left = ws->q.max_expansions ? ws->q.max_expansions - ws->expanded : UINT64_MAX;
        ws->sgov_capped = left > ws->sgov_budget;
        /* The goal's upward search reads as far as detours half as long again as the
         * unblocked path (and a little more for short ones): its distances there make the
         * search's heuristic, and beyond only a bound, which keeps it admissible. */
        double d0 = ws->direct ? nbi_octile_cells(ws->q.start.x, ws->q.start.y, ws->q.goal.x,
                                                  ws->q.goal.y)
                               : ws->best;
        nbi_sgov_begin(ws->sgov, ws->L, ws->ov, ws->q.start, ws->q.goal,
                       SGOV_REACH * d0 + SGOV_REACH_MIN, ws->max_nodes,
                       left > ws->sgov_budget ? ws->sgov_budget : left);
        ws->state = OVSEARCH;
        return nbi_done(err, NB_OK);
    }
    ws->built = 0;
    return begin_overlaid(ws, &q, err);
}

/* The path's cost under the query's terrain costs (a path of one cell, or a partial path at a
 * limit, found here: the least-cost search answers every other). */
static nb_status put_cost(nb_sg *ws, nb_sg_result *res, nb_err *err)
{
    res->cost = nbi_sg_path_cost(&ws->costs, ws->path, ws->path_len);
    return nbi_done(err, NB_OK);
}

/* The path built (st: how that went) into the result. */
static nb_status put_path(nb_sg *ws, nb_status st, nb_sg_result *res, nb_err *err)
{
    if (st != NB_OK) {
        ws->path_len = ws->way_len = 0;
        return st;
    }
    res->length = ws->length;
    res->cost = ws->length;
    res->path_len = ws->path_len;
    res->path = ws->path;
    res->waypoint_len = ws->way_len;
    res->waypoints = ws->way;
    st = ws->weighted ? put_cost(ws, res, err) : nbi_done(err, NB_OK);
    if (ws->q.waypoints_only)
        drop_cells(res);
    return st;
}


/* The result of the search around the blocks: its waypoints walked on the grid they leave. */
static nb_status finish_ovsearch(nb_sg *ws, nb_sg_result *res, nb_err *err)
{
    nbi_sgov_result r;
    ws->state = IDLE;
    ws->path_len = ws->way_len = 0;
    if (!nbi_sgov_finish(ws->sgov, &r))
        return nbi_fail_nomem(err, "a path");
    res->status = r.status == NB_PATH_FOUND && ws->part_on ? NB_PATH_PARTIAL : r.status;
    res->expanded = ws->expanded + r.expanded;
    res->scanned = ws->scanned + r.scanned;
    res->searched = 1;
    if (r.status != NB_PATH_FOUND && r.status != NB_PATH_LIMIT)
        return nbi_done(err, NB_OK);
    for (size_t i = 0; i < r.way_len; i++)
        if (!push_way(ws, r.way[i]))
            return nbi_fail_nomem(err, "a path");
    nb_status st = walk_path(ws, err);
    if (st == NB_OK && ws->walk_blocked)
        st = nbi_fail(err, NB_ERR_FORMAT, "%s: section %ld (subgoal): a hop of the search under "
                      "an overlay cannot be walked", ws->bundle->path, ws->L->section);
    return put_path(ws, st, res, err);
}

/* The result of the least-cost search: its path (copied, as the workspace owns the answer's)
 * and what it costs, priced cell by cell as Annotated A* prices it. */
static nb_status finish_costed(nb_sg *ws, nb_sg_result *res, nb_err *err)
{
    nbi_sgc_result r;
    ws->state = IDLE;
    ws->path_len = ws->way_len = 0;
    nb_status st = nbi_sgc_finish(ws->sgc, &r, err);
    if (st != NB_OK)
        return st;
    res->status = r.status == NB_PATH_FOUND && ws->part_on ? NB_PATH_PARTIAL : r.status;
    res->expanded = r.expanded;
    res->scanned = r.scanned;
    res->searched = 1;
    if (r.status != NB_PATH_FOUND && r.status != NB_PATH_LIMIT)
        return nbi_done(err, NB_OK);
    if (!nbi_grow(ws->a, (void **)&ws->path, &ws->path_cap, r.path_len, sizeof *ws->path) ||
        !nbi_grow(ws->a, (void **)&ws->way, &ws->way_cap, r.way_len, sizeof *ws->way))
        return nbi_fail_nomem(err, "a path");
    memcpy(ws->path, r.path, r.path_len * sizeof *ws->path);
    memcpy(ws->way, r.way, r.way_len * sizeof *ws->way);
    ws->path_len = r.path_len;
    ws->way_len = r.way_len;
    uint64_t diag = 0;
    for (size_t i = 1; i < r.path_len; i++)
        diag += r.path[i].x != r.path[i - 1].x && r.path[i].y != r.path[i - 1].y;
    res->length = nbi_steps_length(r.path_len - 1 - diag, diag);
    res->cost = nbi_sg_path_cost(&ws->costs, ws->path, ws->path_len);
    res->path_len = ws->path_len;
    res->path = ws->path;
    res->waypoint_len = ws->way_len;
    res->waypoints = ws->way;
    if (ws->q.waypoints_only)
        drop_cells(res);
    return nbi_done(err, NB_OK);
}

nb_status nb_sg_finish(nb_sg *ws, nb_sg_result *res, nb_err *err)
{
    memset(res, 0, sizeof *res);
    res->status = NB_PATH_NONE;
    if (ws->state == IDLE)
        return nbi_fail(err, NB_ERR_ARG, "nb_sg_finish: no query in progress (call nb_sg_begin)");
    if (ws->state == OVERLAID)
        return finish_overlaid(ws, res, err);
    if (ws->state == OVSEARCH)
        return finish_ovsearch(ws, res, err);
    if (ws->state == COSTED)
        return finish_costed(ws, res, err);
    if (ws->state == RUNNING)
        ws->status = NB_PATH_LIMIT; /* ended early: the partial path */
    ws->state = IDLE;
    res->status = ws->status == NB_PATH_FOUND && ws->part_on ? NB_PATH_PARTIAL : ws->status;
    res->expanded = ws->expanded;
    res->scanned = ws->scanned;
    res->searched = ws->searched;
    if (!ws->built)
        ws->path_len = ws->way_len = 0;
    if (ws->status == NB_PATH_FOUND || ws->status == NB_PATH_LIMIT) {
        nb_status st = ws->built ? NB_OK : build_answer(ws, err);
        if (st == NB_OK && ws->walk_blocked)
            st = limit_at_start(ws); /* a partial path the blocks cut: the start alone */
        return put_path(ws, st, res, err);
    }
    return nbi_done(err, NB_OK);
}

nb_status nb_sg_find(nb_sg *ws, const nb_sg_query *q, nb_sg_result *res, nb_err *err)
{
    memset(res, 0, sizeof *res);
    res->status = NB_PATH_NONE;
    nb_status st = nb_sg_begin(ws, q, err);
    if (st == NB_OK)
        st = nb_sg_step(ws, UINT64_MAX, NULL, err);
    if (st == NB_OK)
        st = nb_sg_finish(ws, res, err);
    return st;
}
