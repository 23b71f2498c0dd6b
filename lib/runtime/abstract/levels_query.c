/* levels_query.c: HAA* over the graph's higher levels (formats/abstract.md,
 * section type 34), after HPA*'s multi-level search (Botea, Mueller and
 * Schaeffer 2004, section 5).
 *
 * A query whose ends lie far apart searches level k, the highest whose
 * clusters are small beside the distance and part the two ends.  The
 * start and the goal join level k as HPA* inserts them: level 1 as HAA*
 * always did (a search over the end's cluster, haa.c), then at each level
 * j up to k a Dijkstra from the end over level j - 1's graph inside its
 * level-j cluster, which gives its edges to that cluster's level-j nodes.
 * An A* over level k (resumable, on a budget) finds the abstract path;
 * then each of its edges becomes a path of the level below, down to level
 * 1: an edge within a cluster by an A* over the level below inside it, an
 * end's edge by its insertion search's tree.  Level 1's path then goes to
 * HAA*'s own refinement into cells (haa.c), stored paths and all.
 *
 * The searches here are small (one cluster of clusters each) and keyed by
 * the nodes' numbers in level 1 through a hash map, so that what they cost
 * follows what they touch, never the graph's size.
 *
 * What bounds the work (formats/abstract.md; the checks are alevels.c's):
 * the search at level k settles at most the budget's B nodes, so its path
 * has at most min(B, N_k + 2) + 2 nodes.  down() makes of each edge of
 * level j at most C_{j-1} + 1 hops of level j - 1 (a stored path never
 * comes back to a node; the insertion trees and inside()'s A* search one
 * cluster), and no more hops than the edge weighs in steps: a level's path
 * never has more nodes than the top path has steps, plus its ends.  The
 * insertions (one cluster of each level from each end) and the descent
 * are not counted against the budget: they happen once a query, in the
 * step that begins the search and the one that ends it. */
#include "abstract/haa_ws.h"

#define AMASK ((1u << NBI_ASEARCH_SHIFT) - 1)
#define NONE UINT32_MAX
#define VIA_SEED (UINT32_MAX - 5) /* a node an insertion search starts from */

/* ---- a search over one cluster of a level ---- */

void nbi_lsearch_init(nbi_lsearch *ls, const nb_allocator *a)
{
    memset(ls, 0, sizeof *ls);
    ls->a = a;
    nbi_u32map_init(&ls->map, a);
    ls->heap_ok = nbi_heap_init(&ls->heap, a, 64, NULL);
}

void nbi_lsearch_free(nbi_lsearch *ls)
{
    nbi_u32map_free(&ls->map);
    if (ls->heap_ok)
        nbi_heap_free(&ls->heap);
    nbi_free(ls->a, ls->id);
    nbi_free(ls->a, ls->at);
    nbi_free(ls->a, ls->g);
    nbi_free(ls->a, ls->parent);
    nbi_free(ls->a, ls->via);
    nbi_free(ls->a, ls->closed);
}

size_t nbi_lsearch_bytes(const nbi_lsearch *ls)
{
    return nbi_u32map_bytes(&ls->map) + ls->heap.cap * sizeof *ls->heap.a +
           ls->cap * (2 * sizeof *ls->id + sizeof *ls->g + sizeof *ls->via + 1);
}

static void ls_clear(nbi_lsearch *ls)
{
    ls->oom = 0;
    nbi_u32map_clear(&ls->map);
    nbi_heap_clear(&ls->heap);
    ls->n = 0;
    ls->expanded = 0;
}

/* The slot of node id (level-1 number), made when new (*fresh 1); NONE
 * without memory. */
static uint32_t ls_slot(nbi_lsearch *ls, uint32_t id, int *fresh)
{
    int found;
    uint32_t s = nbi_u32map_get(&ls->map, id, &found);
    *fresh = !found;
    if (found)
        return s;
    size_t cap = ls->cap;
    if (ls->n == cap) {
        size_t c1 = cap, c2 = cap, c3 = cap, c4 = cap, c5 = cap, c6 = cap;
        if (!nbi_grow(ls->a, (void **)&ls->id, &c1, ls->n + 1, sizeof *ls->id) ||
            !nbi_grow(ls->a, (void **)&ls->at, &c6, ls->n + 1, sizeof *ls->at) ||
            !nbi_grow(ls->a, (void **)&ls->g, &c2, ls->n + 1, sizeof *ls->g) ||
            !nbi_grow(ls->a, (void **)&ls->parent, &c3, ls->n + 1, sizeof *ls->parent) ||
            !nbi_grow(ls->a, (void **)&ls->via, &c4, ls->n + 1, sizeof *ls->via) ||
            !nbi_grow(ls->a, (void **)&ls->closed, &c5, ls->n + 1, 1))
            return NONE;
        ls->cap = c1 < c2 ? c1 : c2;
        ls->cap = ls->cap < c3 ? ls->cap : c3;
        ls->cap = ls->cap < c4 ? ls->cap : c4;
        ls->cap = ls->cap < c5 ? ls->cap : c5;
        ls->cap = ls->cap < c6 ? ls->cap : c6;
    }
    if (!nbi_u32map_put(&ls->map, id, ls->n))
        return NONE;
    s = ls->n++;
    ls->id[s] = id;
    ls->at[s] = NONE;
    ls->closed[s] = 0;
    return s;
}

/* The slot of a node the search settled, or NONE. */
static uint32_t ls_settled(const nbi_lsearch *ls, uint32_t id)
{
    int found;
    uint32_t s = nbi_u32map_get(&ls->map, id, &found);
    return found && ls->closed[s] ? s : NONE;
}

/* Reaches id (at: its number in the level searched, or NONE when not known) at cost g from
 * parent by via (heuristic h); 0 without memory. */
static int ls_relax(nbi_lsearch *ls, uint32_t id, uint32_t at, double g, double h, uint32_t parent,
                    uint32_t via)
{
    int fresh;
    uint32_t s = ls_slot(ls, id, &fresh);
    if (s == NONE)
        return !(ls->oom = 1);
    if (at != NONE)
        ls->at[s] = at;
    if (!fresh && (ls->closed[s] || g >= ls->g[s]))
        return 1;
    ls->g[s] = g;
    ls->parent[s] = parent;
    ls->via[s] = via;
    if (!nbi_heap_push(&ls->heap, g + h, -g, s))
        return !(ls->oom = 1);
    return 1;
}

static inline double octile(nb_cell a, nb_cell b) { return nbi_octile_cells(a.x, a.y, b.x, b.y); }

/* Runs the search seeded already over level j's graph (j = lj) inside box,
 * for the query's agent: A* toward goal (a level-1 number) when goal is not
 * NONE, else Dijkstra until the ntargets nodes of level j + 1's cluster k
 * are settled (or none is left).  Returns 0 without memory. */
static int ls_run(nb_haa *ws, nbi_lsearch *ls, uint32_t lj, const nbi_box *box, uint32_t goal,
                  uint32_t k, uint32_t ntargets)
{
    const nbi_alevels *L = &ws->lv;
    const uint32_t size = ws->q.size;
    nb_cell gc = goal != NONE ? nbi_lv_cell(L, goal) : (nb_cell){0, 0};
    while (!nbi_heap_empty(&ls->heap)) {
        nbi_heap_item it = nbi_heap_pop(&ls->heap);
        uint32_t s = it.id;
        if (ls->closed[s])
            continue;
        ls->closed[s] = 1;
        ls->expanded++;
        uint32_t id = ls->id[s];
        if (goal != NONE && id == goal)
            return 1;
        if (goal == NONE && ntargets && nbi_lv_index(L, lj + 1, id) >= 0) {
            nb_cell c = nbi_lv_cell(L, id);
            if (nbi_lv_cluster(L, lj + 1, (uint32_t)c.x, (uint32_t)c.y) == k && --ntargets == 0)
                return 1;
        }
        long u = ls->at[s] != NONE ? (long)ls->at[s] : nbi_lv_index(L, lj, id);
        if (u < 0)
            continue;
        double gu = ls->g[s];
        /* As at the top (nbi_haa_levels_step): above level 1, a node reached from inside its
         * cluster need not take its edges inside it.  A seed of an insertion is: the seeds are
         * all the nodes of one cluster of this level, each at its least cost from the end there
         * (a single seed, an edge's refinement, is not). */
        uint32_t ku = 0, p = ls->parent[s];
        int from_inside = 0;
        if (lj >= 2 && !ws->every_arc) {
            nb_cell uc = nbi_lv_cell(L, id);
            ku = nbi_lv_cluster(L, lj, (uint32_t)uc.x, (uint32_t)uc.y);
            if (p == NONE) {
                from_inside = goal == NONE;
            } else {
                nb_cell pc = nbi_lv_cell(L, p);
                from_inside = nbi_lv_cluster(L, lj, (uint32_t)pc.x, (uint32_t)pc.y) == ku;
            }
        }
        uint32_t a0, a1 = nbi_lv_arcs(L, lj, (uint32_t)u, &a0);
        for (uint32_t a = a0; a < a1; a++) {
            const uint8_t *ann = nbi_lv_ann(L, lj, a);
            if (!ws->capok[ann[0]] || ann[1] < size)
                continue;
            uint32_t ti = nbi_lv_to(L, lj, a), t = nbi_lv_id(L, lj, ti);
            nb_cell c = nbi_lv_cell(L, t);
            if (c.x < box->x0 || c.y < box->y0 || c.x >= box->x1 || c.y >= box->y1)
                continue;
            if (from_inside && nbi_lv_cluster(L, lj, (uint32_t)c.x, (uint32_t)c.y) == ku)
                continue;
            uint32_t card, diag;
            nbi_lv_w(L, lj, a, &card, &diag);
            double h = goal != NONE ? octile(c, gc) : 0;
            if (!ls_relax(ls, t, ti, gu + nbi_steps_length(card, diag), h, id, a))
                return 0;
        }
    }
    return 1;
}

/* ---- choosing the level, inserting the ends ---- */

static nb_cell end_cell(const nb_haa *ws, int e) { return e ? ws->q.goal : ws->q.start; }

uint32_t nbi_haa_level_for(const nb_haa *ws)
{
    const nbi_alevels *L = &ws->lv;
    if (!ws->has_levels || ws->pc || ws->rep || ws->reach_only)
        return 1;
    uint32_t top = L->nlevels < ws->max_levels ? L->nlevels : ws->max_levels;
    nb_cell s = ws->q.start, g = ws->q.goal;
    double d = octile(s, g);
    for (uint32_t j = top; j >= 2; j--)
        if (d >= 2.0 * L->lv[j].side &&
            nbi_lv_cluster(L, j, (uint32_t)s.x, (uint32_t)s.y) !=
                nbi_lv_cluster(L, j, (uint32_t)g.x, (uint32_t)g.y))
            return j;
    return 1;
}

/* End e's edges at level j: a Dijkstra over level j - 1 inside its level-j
 * cluster from the level j - 1 nodes its insertion there reached. */
static int insert_level(nb_haa *ws, int e, uint32_t j)
{
    nbi_levels_ws *lq = ws->lq;
    const nbi_alevels *L = &ws->lv;
    nbi_lsearch *ls = &lq->ins[e][j];
    nb_cell end = end_cell(ws, e);
    ls_clear(ls);
    uint32_t lo = j - 1;
    uint32_t kb = nbi_lv_cluster(L, lo, (uint32_t)end.x, (uint32_t)end.y), first;
    uint32_t n = nbi_lv_nodes(L, lo, kb, &first);
    for (uint32_t i = first; i < first + n; i++) {
        uint32_t id = nbi_lv_id(L, lo, i);
        double c;
        if (lo == 1) {
            c = nbi_csearch_cost(&ws->ins[e], nbi_lv_cell(L, id), NULL);
        } else {
            uint32_t s = ls_settled(&lq->ins[e][lo], id);
            c = s == NONE ? -1 : lq->ins[e][lo].g[s];
        }
        if (c >= 0 && !ls_relax(ls, id, i, c, 0, NONE,
                                lo == 1 ? (e ? NBI_VIA_GOAL : NBI_VIA_START) : VIA_SEED))
            return 0;
    }
    uint32_t k = nbi_lv_cluster(L, j, (uint32_t)end.x, (uint32_t)end.y), f2;
    uint32_t nt = nbi_lv_nodes(L, j, k, &f2);
    nbi_box box = nbi_lv_box(L, j, k);
    int ok = ls_run(ws, ls, lo, &box, NONE, k, nt);
    ws->res.expanded_insert += ls->expanded;
    return ok;
}

/* ---- the search at level k ---- */

static int top_relax(nb_haa *ws, uint32_t v, double ng, uint32_t from, uint32_t how, double h)
{
    return nbi_asearch_relax(&ws->lq->as, v, ng, from, how, h);
}

/* Level k's cell of key v (S and G: the ends). */
static nb_cell key_cell(const nb_haa *ws, uint32_t v)
{
    const nbi_alevel *t = &ws->lv.lv[ws->lq->k];
    if (v == t->nnodes)
        return ws->q.start;
    if (v == t->nnodes + 1)
        return ws->q.goal;
    return nbi_lv_cell(&ws->lv, nbi_lv_id(&ws->lv, ws->lq->k, v));
}

/* ---- the landmarks' bound at the top level ----
 *
 * Any path from node v to the goal G enters the goal's cluster at a node w
 * and goes on by the goal's insertion, ins(w); the landmarks' distances d
 * satisfy |d(x) - d(y)| <= the distance from x to y (alevels.c checks
 * that no arc contradicts it), so the rest of the way from v is at least
 *     min over w of (d(w) + ins(w)) - d(v)  and  d(v) - max over w of (d(w) - ins(w)),
 * over the w the landmark reaches (a v it reaches joins no other).  The
 * larger of those and the octile distance is consistent, as each is: the
 * search stays optimal at this level and expands each node once. */
static void landmark_bounds(nb_haa *ws)
{
    nbi_levels_ws *lq = ws->lq;
    const nbi_alevels *L = &ws->lv;
    const uint32_t k = lq->k, nl = L->nlandmarks;
    lq->nlm = k == L->nlevels ? nl : 0;
    if (!lq->nlm)
        return;
    memset(lq->lm_has, 0, sizeof lq->lm_has);
    const nb_cell gc = ws->q.goal;
    uint32_t first, n = nbi_lv_nodes(L, k, nbi_lv_cluster(L, k, (uint32_t)gc.x, (uint32_t)gc.y), &first);
    for (uint32_t w = first; w < first + n; w++) {
        uint32_t s = ls_settled(&lq->ins[1][k], nbi_lv_id(L, k, w));
        if (s == NONE)
            continue;
        double ins = lq->ins[1][k].g[s];
        for (uint32_t i = 0; i < nl; i++) {
            double d = nbi_lv_landmark(L, w, i);
            if (d < 0)
                continue;
            if (!lq->lm_has[i] || d + ins < lq->lm_lo[i])
                lq->lm_lo[i] = d + ins;
            if (!lq->lm_has[i] || d - ins > lq->lm_hi[i])
                lq->lm_hi[i] = d - ins;
            lq->lm_has[i] = 1;
        }
    }
}

/* The heuristic of level k's node v toward the goal. */
static double top_h(const nb_haa *ws, uint32_t v, nb_cell gc)
{
    const nbi_levels_ws *lq = ws->lq;
    const nbi_alevels *L = &ws->lv;
    nb_cell c = nbi_lv_cell(L, nbi_lv_id(L, lq->k, v));
    double h = octile(c, gc);
    for (uint32_t i = 0; i < lq->nlm; i++) {
        double d = lq->lm_has[i] ? nbi_lv_landmark(L, v, i) : -1;
        if (d < 0)
            continue;
        double b = lq->lm_lo[i] - d > d - lq->lm_hi[i] ? lq->lm_lo[i] - d : d - lq->lm_hi[i];
        h = b > h ? b : h;
    }
    return h;
}

/* Level k's node v reached at cost ng from `from` by `how`, its heuristic computed only when
 * its cost changes; 0 when the search has ended. */
static int top_reach(nb_haa *ws, uint32_t v, double ng, uint32_t from, uint32_t how, nb_cell gc)
{
    nbi_asearch *as = &ws->lq->as;
    uint32_t sl = nbi_asearch_reach(as, v, ng, from, how);
    if (sl == NBI_POOL_NONE)
        return as->end == NBI_AS_RUNNING;
    return nbi_asearch_queue(as, sl, top_h(ws, v, gc));
}

int nbi_haa_levels_begin(nb_haa *ws, uint32_t k)
{
    nbi_levels_ws *lq = ws->lq;
    lq->k = k;
    for (int e = 0; e < 2; e++)
        for (uint32_t j = 2; j <= k; j++)
            if (!insert_level(ws, e, j))
                return 0;
    landmark_bounds(ws);
    nbi_asearch *as = &lq->as;
    nbi_asearch_begin(as, ws->max_nodes);
    uint32_t S = ws->lv.lv[k].nnodes;
    top_relax(ws, S, 0, S, NBI_VIA_START, octile(ws->q.start, ws->q.goal));
    return as->end == NBI_AS_RUNNING;
}

/* The search at level k expands a node u reached from inside its cluster
 * (its parent a node of the cluster, or the start) by its arcs to other
 * clusters alone.  An edge inside a cluster weighs the shortest path
 * between its ends over the level below inside the cluster among those
 * that admit the agent (formats/abstract.md; the least of a pair's edges
 * that admit an agent weighs exactly that), and the start's insertion
 * gives the same least costs from the start, so that for u's parent p and
 * another node v of the cluster, w(p, v) <= w(p, u) + w(u, v): the path
 * through u is never better than the edge p had already offered v (the
 * graph's own level, whose high-quality edges drop those through another
 * node, has no such property and searches every arc).  A path then
 * alternates: into a cluster, across it, out.  With consistent bounds u
 * is expanded at its least cost, so the search finds the lengths it finds
 * when every arc is tried, with about half the arcs tried. */
uint64_t nbi_haa_levels_step(nb_haa *ws, uint64_t budget)
{
    nbi_levels_ws *lq = ws->lq;
    nbi_asearch *as = &lq->as;
    const nbi_alevels *L = &ws->lv;
    const uint32_t k = lq->k, size = ws->q.size;
    const uint32_t S = L->lv[k].nnodes, G = S + 1;
    const nb_cell sc = ws->q.start, gc = ws->q.goal;
    const uint32_t ks = nbi_lv_cluster(L, k, (uint32_t)sc.x, (uint32_t)sc.y);
    const uint32_t kg = nbi_lv_cluster(L, k, (uint32_t)gc.x, (uint32_t)gc.y);
    uint64_t done = 0;
    while (as->end == NBI_AS_RUNNING && done < budget) {
        if (nbi_heap_empty(&as->heap)) {
            as->end = NBI_AS_EXHAUSTED;
            break;
        }
        uint32_t us = nbi_heap_pop(&as->heap).id;
        uint32_t u = as->pool.owner[us >> NBI_ASEARCH_SHIFT] << NBI_ASEARCH_SHIFT | (us & AMASK);
        as->stamp[us] |= 1u;
        as->expanded++;
        done++;
        double gu = as->gv[us];
        if (u == G) {
            as->end = NBI_AS_FOUND;
            break;
        }
        if (u == S) {
            uint32_t first, n = nbi_lv_nodes(L, k, ks, &first);
            for (uint32_t v = first; v < first + n; v++) {
                uint32_t s = ls_settled(&lq->ins[0][k], nbi_lv_id(L, k, v));
                if (s != NONE && !top_reach(ws, v, lq->ins[0][k].g[s], S, NBI_VIA_START, gc))
                    return done;
            }
            continue;
        }
        /* u's cluster's nodes are [first, first + n).  Reached from inside it (from a node of it,
         * or from the start, whose cluster it is), u need not take its edges inside the cluster:
         * its parent's edge to the same node weighs no more (see the comment above). */
        nb_cell uc = key_cell(ws, u);
        const uint32_t ku = nbi_lv_cluster(L, k, (uint32_t)uc.x, (uint32_t)uc.y);
        uint32_t first, n = nbi_lv_nodes(L, k, ku, &first), p = as->parent[us];
        const int from_inside = !ws->every_arc && (p == S || p - first < n);
        uint32_t a0, a1 = nbi_lv_arcs(L, k, u, &a0);
        for (uint32_t a = a0; a < a1; a++) {
            uint32_t v = nbi_lv_to(L, k, a), card, diag;
            if (from_inside && v - first < n)
                continue;
            const uint8_t *ann = nbi_lv_ann(L, k, a);
            if (!ws->capok[ann[0]] || ann[1] < size)
                continue;
            nbi_lv_w(L, k, a, &card, &diag);
            if (!top_reach(ws, v, gu + nbi_steps_length(card, diag), u, a, gc))
                return done;
        }
        if (ku == kg) {
            uint32_t s = ls_settled(&lq->ins[1][k], nbi_lv_id(L, k, u));
            if (s != NONE && !top_relax(ws, G, gu + lq->ins[1][k].g[s], u, NBI_VIA_GOAL, 0))
                return done;
        }
    }
    return done;
}

/* ---- from level k down to level 1 ---- */

/* A path at one level: nodes (level-1 numbers; the ends as NONE - 1 and
 * NONE - 2), each with its number in that level when known (NONE: looked
 * up when needed), and how each was reached from the one before. */
#define END_S (UINT32_MAX - 1)
#define END_G (UINT32_MAX - 2)

static int hop(nbi_levels_ws *lq, const nb_allocator *a, uint32_t node, uint32_t at, uint32_t how)
{
    if (!nbi_grow(a, (void **)&lq->nxt, &lq->nxt_cap, lq->nnxt + 1, sizeof *lq->nxt))
        return !(lq->oom = 1);
    lq->nxt[lq->nnxt++] = (nbi_lhop){node, at, how};
    return 1;
}

/* Reverses nxt[from ..): the hops collected backwards (each how stays with its node). */
static void reverse_from(nbi_levels_ws *lq, size_t from)
{
    for (size_t i = from, z = lq->nnxt ? lq->nnxt - 1 : 0; i < z; i++, z--) {
        nbi_lhop t = lq->nxt[i];
        lq->nxt[i] = lq->nxt[z];
        lq->nxt[z] = t;
    }
}

/* Appends the start's insertion tree at level j from the end to node id. */
static int start_chain(nb_haa *ws, uint32_t j, uint32_t id)
{
    nbi_levels_ws *lq = ws->lq;
    const nbi_lsearch *ls = &lq->ins[0][j];
    size_t from = lq->nnxt;
    for (uint32_t v = id; v != NONE;) {
        uint32_t s = ls_settled(ls, v);
        if (s == NONE ||
            !hop(lq, ws->a, v, ls->at[s], ls->via[s] == VIA_SEED ? NBI_VIA_START : ls->via[s]))
            return 0;
        v = ls->parent[s];
    }
    reverse_from(lq, from);
    return 1;
}

/* Appends the goal's insertion tree at level j from node id to the goal
 * (id itself already on the path). */
static int goal_chain(nb_haa *ws, uint32_t j, uint32_t id)
{
    nbi_levels_ws *lq = ws->lq;
    const nbi_lsearch *ls = &lq->ins[1][j];
    for (uint32_t v = id;;) {
        uint32_t s = ls_settled(ls, v);
        if (s == NONE)
            return 0;
        uint32_t p = ls->parent[s], how = ls->via[s];
        if (p == NONE) /* a seed: on to the goal by the level below's insertion */
            return hop(ws->lq, ws->a, END_G, NONE, how == VIA_SEED ? NBI_VIA_GOAL : how);
        if (!hop(lq, ws->a, p, NONE, how))
            return 0;
        v = p;
    }
}

/* Appends the path from u to v inside their level-j cluster over level
 * j - 1 (u already on the path). */
static int inside(nb_haa *ws, uint32_t j, uint32_t u, uint32_t v)
{
    nbi_levels_ws *lq = ws->lq;
    const nbi_alevels *L = &ws->lv;
    nbi_lsearch *ls = &lq->ref;
    ls_clear(ls);
    nb_cell cu = nbi_lv_cell(L, u), cv = nbi_lv_cell(L, v);
    nbi_box box = nbi_lv_box(L, j, nbi_lv_cluster(L, j, (uint32_t)cu.x, (uint32_t)cu.y));
    if (!ls_relax(ls, u, NONE, 0, octile(cu, cv), NONE, VIA_SEED) ||
        !ls_run(ws, ls, j - 1, &box, v, 0, 0))
        return 0;
    ws->res.expanded_refine += ls->expanded;
    uint32_t s = ls_settled(ls, v);
    if (s == NONE)
        return 0;
    size_t from = lq->nnxt;
    for (uint32_t x = v; x != u;) {
        uint32_t t = ls_settled(ls, x);
        if (!hop(lq, ws->a, x, ls->at[t], ls->via[t]))
            return 0;
        x = ls->parent[t];
    }
    reverse_from(lq, from);
    return 1;
}

/* The number in level j of a hop's node. */
static long hop_index(const nbi_alevels *L, uint32_t j, const nbi_lhop *h)
{
    return h->at != NONE ? (long)h->at : nbi_lv_index(L, j, h->node);
}

/* Appends the stored path of level j's arc a, which joins hops hu and hv,
 * from hu to hv (hu already on the path): the arcs of level j - 1 the bake
 * stored from the edge's lower-numbered end, read backwards from the
 * higher.  Each arc's target is a number in level j - 1, kept with it. */
static int stored(nb_haa *ws, uint32_t j, const nbi_lhop *hu, const nbi_lhop *hv, uint32_t a)
{
    nbi_levels_ws *lq = ws->lq;
    const nbi_alevels *L = &ws->lv;
    const nbi_alevel *lv = &L->lv[j];
    uint32_t off = nbi_u32at(lv->arc_path, a), v = hv->node;
    long iu = hop_index(L, j, hu), iv = hop_index(L, j, hv);
    if (off == NONE || iu < 0 || iv < 0)
        return 0;
    uint32_t n = nbi_u32at(lv->paths, off);
    if (iu < iv) {
        for (uint32_t k = 1; k <= n; k++) {
            uint32_t e = nbi_u32at(lv->paths, off + k), t = nbi_lv_to(L, j - 1, e);
            if (!hop(lq, ws->a, nbi_lv_id(L, j - 1, t), t, e))
                return 0;
        }
    } else {
        for (uint32_t k = n; k >= 1; k--) {
            uint32_t e = nbi_u32at(lv->paths, off + k);
            uint32_t t = k == 1 ? NONE : nbi_lv_to(L, j - 1, nbi_u32at(lv->paths, off + k - 1));
            if (!hop(lq, ws->a, k == 1 ? v : nbi_lv_id(L, j - 1, t), t, e))
                return 0;
        }
    }
    return lq->nxt[lq->nnxt - 1].node == v;
}

/* The level-1 arc from u to v across a border, or NONE. */
static uint32_t crossing(const nb_haa *ws, uint32_t u, uint32_t v)
{
    uint32_t a0 = nbi_u32at(ws->g.node_first, u), a1 = nbi_u32at(ws->g.node_first, u + 1);
    for (uint32_t a = a0; a < a1; a++)
        if (nbi_u32at(ws->g.arc_to, a) == v && nbi_agraph_admits(&ws->g, a, ws->q.capability, ws->q.size))
            return a;
    return NONE;
}

/* Level j's path (cur) as a path of level j - 1 (into nxt). */
static int down(nb_haa *ws, uint32_t j)
{
    nbi_levels_ws *lq = ws->lq;
    const nbi_alevels *L = &ws->lv;
    lq->nnxt = 0;
    if (!hop(lq, ws->a, END_S, NONE, NONE))
        return 0;
    for (size_t i = 1; i < lq->ncur; i++) {
        const nbi_lhop *hu = &lq->cur[i - 1], *hv = &lq->cur[i];
        uint32_t u = hu->node, v = hv->node, how = hv->how;
        int ok;
        if (how == NBI_VIA_START) {
            ok = start_chain(ws, j, v);
        } else if (how == NBI_VIA_GOAL) {
            ok = goal_chain(ws, j, u);
        } else {
            nb_cell cu = nbi_lv_cell(L, u), cv = nbi_lv_cell(L, v);
            if (nbi_lv_cluster(L, j, (uint32_t)cu.x, (uint32_t)cu.y) !=
                nbi_lv_cluster(L, j, (uint32_t)cv.x, (uint32_t)cv.y)) {
                /* The same crossing at level j - 1 (at level 1, a node's number is its id). */
                uint32_t a = j == 2 ? crossing(ws, u, v) : 0;
                ok = a != NONE && hop(lq, ws->a, v, j == 2 ? v : NONE, a);
            } else if (L->lv[j].arc_path) {
                ok = stored(ws, j, hu, hv, how);
            } else {
                ok = inside(ws, j, u, v);
            }
        }
        if (!ok)
            return 0;
    }
    /* nxt becomes cur. */
    nbi_lhop *t = lq->cur;
    size_t tc = lq->cur_cap;
    lq->cur = lq->nxt, lq->ncur = lq->nnxt, lq->cur_cap = lq->nxt_cap;
    lq->nxt = t, lq->nxt_cap = tc;
    return 1;
}

int nbi_haa_levels_path(nb_haa *ws)
{
    nbi_levels_ws *lq = ws->lq;
    nbi_asearch *as = &lq->as;
    const uint32_t k = lq->k, S = ws->lv.lv[k].nnodes, G = S + 1;
    /* Level k's path, goal first, into nxt; then reversed into cur. */
    lq->nnxt = 0;
    for (uint32_t v = G;;) {
        uint32_t sl = nbi_asearch_find(as, v);
        if (sl == NBI_POOL_NONE)
            return -1;
        uint32_t node = v == G ? END_G : v == S ? END_S : nbi_lv_id(&ws->lv, k, v);
        if (!hop(lq, ws->a, node, v >= S ? NONE : v, v == S ? NONE : as->via[sl]))
            return 0;
        if (lq->nnxt > (size_t)as->nodes + 1)
            return -1; /* parents that loop: cannot be, but never walk for ever */
        if (v == S)
            break;
        v = as->parent[sl];
    }
    reverse_from(lq, 0);
    if (!nbi_grow(ws->a, (void **)&lq->cur, &lq->cur_cap, lq->nnxt, sizeof *lq->cur))
        return 0;
    lq->ncur = lq->nnxt;
    memcpy(lq->cur, lq->nxt, lq->nnxt * sizeof *lq->cur);
    /* The how of a level-k arc is an arc index: down() only needs to know it is
     * neither end's. */
    lq->oom = 0;
    for (uint32_t j = k; j >= 2; j--)
        if (!down(ws, j))
            return lq->oom || lq->ref.oom ? 0 : -1;
    /* Level 1's path into the abstract path HAA* refines (goal first). */
    if (!nbi_grow(ws->a, (void **)&ws->anodes, &ws->acap, lq->ncur, sizeof *ws->anodes) ||
        !nbi_grow(ws->a, (void **)&ws->avia, &ws->avcap, lq->ncur, sizeof *ws->avia))
        return 0;
    ws->na = lq->ncur;
    for (size_t i = 0; i < lq->ncur; i++) {
        uint32_t node = lq->cur[lq->ncur - 1 - i].node;
        ws->anodes[i] = node == END_S ? ws->g.nnodes : node == END_G ? ws->g.nnodes + 1 : node;
        ws->avia[i] = lq->cur[lq->ncur - 1 - i].how;
    }
    ws->res.abstract_length = as->gv[nbi_asearch_find(as, G)];
    return 1;
}

/* ---- the workspace's part ---- */

nbi_levels_ws *nbi_levels_ws_new(const nb_allocator *a, const nbi_alevels *L)
{
    nbi_levels_ws *lq = nbi_zalloc_array(a, 1, sizeof *lq);
    if (!lq)
        return NULL;
    uint32_t most = 0;
    for (uint32_t j = 2; j <= L->nlevels; j++)
        most = L->lv[j].nnodes > most ? L->lv[j].nnodes : most;
    for (int e = 0; e < 2; e++)
        for (uint32_t j = 0; j <= NBI_LEVELS_MAX; j++)
            nbi_lsearch_init(&lq->ins[e][j], a);
    nbi_lsearch_init(&lq->ref, a);
    int ok = nbi_asearch_init(&lq->as, a, most + 2) && lq->ref.heap_ok;
    for (int e = 0; e < 2; e++)
        for (uint32_t j = 0; j <= NBI_LEVELS_MAX; j++)
            ok = ok && lq->ins[e][j].heap_ok;
    lq->a = a;
    if (!ok) {
        nbi_levels_ws_free(lq);
        return NULL;
    }
    return lq;
}

void nbi_levels_ws_free(nbi_levels_ws *lq)
{
    if (!lq)
        return;
    for (int e = 0; e < 2; e++)
        for (uint32_t j = 0; j <= NBI_LEVELS_MAX; j++)
            nbi_lsearch_free(&lq->ins[e][j]);
    nbi_lsearch_free(&lq->ref);
    nbi_asearch_free(&lq->as);
    nbi_free(lq->a, lq->cur);
    nbi_free(lq->a, lq->nxt);
    nbi_free(lq->a, lq);
}

size_t nbi_levels_ws_bytes(const nbi_levels_ws *lq)
{
    if (!lq)
        return 0;
    size_t n = sizeof *lq + nbi_asearch_bytes(&lq->as) + nbi_lsearch_bytes(&lq->ref);
    for (int e = 0; e < 2; e++)
        for (uint32_t j = 0; j <= NBI_LEVELS_MAX; j++)
            n += nbi_lsearch_bytes(&lq->ins[e][j]);
    return n + (lq->cur_cap + lq->nxt_cap) * sizeof *lq->cur;
}
