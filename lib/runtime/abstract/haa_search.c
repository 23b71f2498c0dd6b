/* haa_search.c: HAA*'s abstract search (Harabor and Botea, CIG 2008,
 * section VIII): A* from the start to the goal over the abstract graph's
 * nodes, the two ends joined to their clusters' nodes by the insertion
 * searches, taking an edge only when its annotation admits the agent (its
 * capability within the agent's, its clearance at least the agent's
 * size).  The octile distance is consistent on this graph (no edge weighs
 * less than the distance between its ends, which the reader checks), so no
 * node is expanded twice.
 *
 * Its nodes live in pages of a pool (haa_ws.h), claimed as the search
 * reaches them: a query costs what it reaches, and a workspace on a graph
 * of millions of nodes is as small as on one of hundreds. */
#include "abstract/haa_ws.h"

#define AMASK ((1u << NBI_ASEARCH_SHIFT) - 1)

int nbi_asearch_init(nbi_asearch *as, const nb_allocator *a, uint32_t nkeys)
{
    memset(as, 0, sizeof *as);
    int ok = nbi_pool_init(&as->pool, a, ((size_t)nkeys + AMASK) >> NBI_ASEARCH_SHIFT,
                           NBI_ASEARCH_SHIFT);
    nbi_pool_array(&as->pool, (void **)&as->gv, sizeof *as->gv, 0);
    nbi_pool_array(&as->pool, (void **)&as->parent, sizeof *as->parent, 0);
    nbi_pool_array(&as->pool, (void **)&as->via, sizeof *as->via, 0);
    nbi_pool_array(&as->pool, (void **)&as->stamp, sizeof *as->stamp, 1);
    nbi_pool_array(&as->pool, (void **)&as->hpos, sizeof *as->hpos, 0);
    /* A few pages now: the start's, the goal's and a short query's. */
    ok = ok && nbi_pool_reserve(&as->pool, 4) && nbi_heap_init(&as->heap, a, 256, as->hpos);
    return ok;
}

void nbi_asearch_free(nbi_asearch *as)
{
    nbi_pool_free(&as->pool);
    nbi_heap_free(&as->heap);
}

size_t nbi_asearch_bytes(const nbi_asearch *as)
{
    return nbi_pool_bytes(&as->pool) + as->heap.cap * sizeof *as->heap.a;
}

uint32_t nbi_asearch_find(const nbi_asearch *as, uint32_t key)
{
    uint32_t pg = nbi_pool_find(&as->pool, key >> NBI_ASEARCH_SHIFT);
    if (pg == NBI_POOL_NONE)
        return NBI_POOL_NONE;
    uint32_t sl = pg << NBI_ASEARCH_SHIFT | (key & AMASK);
    return (as->stamp[sl] >> 1) == as->sid ? sl : NBI_POOL_NONE;
}

/* The page of key, claimed for this search (it had none there); NBI_POOL_NONE (and the search
 * ended) when no page can be had.  Out of the loop: most keys' pages are claimed already. */
static NBP_NOINLINE uint32_t page_claim(nbi_asearch *as, uint32_t key)
{
    int fresh;
    uint32_t pg = nbi_pool_claim(&as->pool, key >> NBI_ASEARCH_SHIFT, &fresh);
    if (pg == NBI_POOL_NONE) {
        as->end = as->pool.failed ? NBI_AS_NOMEM : NBI_AS_LIMIT;
        return NBI_POOL_NONE;
    }
    as->heap.pos = as->hpos; /* the pool may have moved it */
    return pg;
}

static inline double octile(nb_cell a, nb_cell b) { return nbi_octile_cells(a.x, a.y, b.x, b.y); }

/* Slot sl, of a node this search has not reached (fresh) or has reached at more than ng:
 * opened, or its cost lowered, from key `from` by `how`; NBI_POOL_NONE (the search ended) at
 * the node cap.  capped (a constant in each caller) 0: the search has no cap (max_nodes is
 * UINT64_MAX, which the count never reaches), so the test is left out of the loop. */
static inline NBP_ALWAYS_INLINE uint32_t settle(nbi_asearch *as, uint32_t sl, int fresh, double ng,
                                                uint32_t from, uint32_t how, const int capped)
{
    if (fresh) {
        if (capped && as->nodes == as->max_nodes) {
            as->end = NBI_AS_LIMIT;
            return NBI_POOL_NONE;
        }
        as->nodes++;
        as->stamp[sl] = as->sid << 1;
        as->hpos[sl] = NBI_HEAP_NONE;
    }
    as->gv[sl] = ng;
    as->parent[sl] = from;
    as->via[sl] = how;
    return sl;
}

/* nbi_asearch_reach, inlined into the abstract search's loop, where most arcs lead to a node
 * already closed or reached as cheaply: the page and the stamp tell, with no call.  flat (a
 * constant in each copy): the pool is nbi_pool_flat's, a key is its own slot. */
static inline NBP_ALWAYS_INLINE uint32_t reach(nbi_asearch *as, uint32_t v, double ng,
                                               uint32_t from, uint32_t how, const int flat)
{
    uint32_t sl = v;
    if (!flat) {
        const nbi_pool *p = &as->pool;
        uint32_t pg = p->dir[v >> NBI_ASEARCH_SHIFT];
        if (pg == NBI_POOL_NONE || p->gen[pg] != p->cur) {
            pg = page_claim(as, v);
            if (pg == NBI_POOL_NONE)
                return NBI_POOL_NONE;
        }
        sl = pg << NBI_ASEARCH_SHIFT | (v & AMASK);
    }
    uint32_t sv = as->stamp[sl];
    if ((sv >> 1) == as->sid && ((sv & 1u) || ng >= as->gv[sl]))
        return NBI_POOL_NONE;
    return settle(as, sl, (sv >> 1) != as->sid, ng, from, how, 1);
}

uint32_t nbi_asearch_reach(nbi_asearch *as, uint32_t v, double ng, uint32_t from, uint32_t how)
{
    return as->pool.flat ? reach(as, v, ng, from, how, 1) : reach(as, v, ng, from, how, 0);
}

static inline NBP_ALWAYS_INLINE int queue(nbi_asearch *as, uint32_t sl, double h)
{
    double ng = as->gv[sl];
    if (!nbi_heap_push(&as->heap, ng + h, -ng, sl)) {
        as->end = NBI_AS_NOMEM;
        return 0;
    }
    return 1;
}

int nbi_asearch_queue(nbi_asearch *as, uint32_t sl, double h) { return queue(as, sl, h); }

int nbi_asearch_relax(nbi_asearch *as, uint32_t v, double ng, uint32_t from, uint32_t how,
                      double h)
{
    uint32_t sl = nbi_asearch_reach(as, v, ng, from, how);
    if (sl == NBI_POOL_NONE)
        return as->end == NBI_AS_RUNNING;
    return nbi_asearch_queue(as, sl, h);
}

/* Node v reached at cost ng from key `from` by `how`: opened, or its cost lowered; left alone
 * when closed or no better.  0 when the search has ended (the node cap, or no memory).  The
 * heuristic is worked out only for a node whose cost changes (a third of the arcs a query
 * reads, on brc202d).  node (a constant in each caller): v is a node of the graph (an arc's
 * end: agraph.c checks each) and the query has no cost profile (hmul 1), so the heuristic is
 * the octile distance from its cell, with no test of which kind of key v is. */
static inline NBP_ALWAYS_INLINE int queue_key(nb_haa *ws, uint32_t v, uint32_t sl, const int node)
{
    const uint32_t G = ws->g.nnodes + 1;
    double h = node         ? octile(nbi_agraph_node_cell(&ws->g, v), ws->q.goal)
               : (v == G       ? 0
                  : v == G - 1 ? octile(ws->q.start, ws->q.goal) /* the start */
                               : octile(nbi_haa_key_cell(ws, v), ws->q.goal)) *
                     ws->hmul;
    return queue(&ws->as, sl, h);
}

static inline NBP_ALWAYS_INLINE int relax_as(nb_haa *ws, uint32_t v, double ng, uint32_t from,
                                             uint32_t how, const int flat, const int node)
{
    nbi_asearch *as = &ws->as;
    uint32_t sl = reach(as, v, ng, from, how, flat);
    if (sl == NBI_POOL_NONE)
        return as->end == NBI_AS_RUNNING;
    return queue_key(ws, v, sl, node);
}

static inline NBP_ALWAYS_INLINE int relax(nb_haa *ws, uint32_t v, double ng, uint32_t from,
                                          uint32_t how, const int flat)
{
    return relax_as(ws, v, ng, from, how, flat, 0);
}

/* The keys of a repaired graph (repair.h), past the start and the goal. */
static inline uint32_t repaired_key(const nb_haa *ws, uint32_t v)
{
    return nbi_repair_key(&ws->g, ws->rep, ws->g.nnodes + 2, v);
}
static inline uint32_t key_at(const nb_haa *ws, uint32_t cell)
{
    return nbi_repair_key_at(&ws->g, ws->rep, ws->g.nnodes + 2, cell);
}

/* Under terrain costs, the costs of the intra-arcs of repaired node i of cluster record c
 * (a repair holds lengths alone: repair.h): the agent's own least-cost paths inside the
 * cluster under the overlay, by one Dijkstra from the node to the far ends of its arcs that
 * admit the agent.  They are what refinement's A* in the cluster finds for the same step
 * (step_cells in haa.c: the same layer, size, corner rule, costs and overlay), so the
 * abstract path's cost is the refined path's.  The search is ws->ref, idle while the
 * abstract search runs (refinement begins after it). */
static void weigh_repaired(nb_haa *ws, const nbi_rcluster *c, uint32_t i)
{
    const nbi_agraph *g = &ws->g;
    uint8_t aimed[4 * NBI_CLUSTER_MAX] = {0}; /* arcs of several combos share an end */
    size_t nt = 0;
    for (uint32_t a = c->first[i]; a < c->first[i + 1]; a++) {
        const nbi_rarc *e = &c->arc[a];
        if (!e->inter && ws->capok[e->cap] && e->cv >= ws->q.size && !aimed[e->to]) {
            aimed[e->to] = 1;
            ws->targets[nt++] = (nb_cell){(int32_t)(c->cell[e->to] % g->width),
                                          (int32_t)(c->cell[e->to] / g->width)};
        }
    }
    nb_cell from = {(int32_t)(c->cell[i] % g->width), (int32_t)(c->cell[i] / g->width)};
    nbi_box box = nbi_cluster_box(c->k, g->ncx, g->cluster, g->width, g->height);
    if (nt)
        nbi_csearch_run(&ws->ref, ws->l, ws->q.size, (int)ws->q.corner, &box, from, NULL,
                        ws->targets, nt);
}

/* The arcs of repaired node key u, reached at cost gu; 0 when the search has ended. */
static inline NBP_ALWAYS_INLINE int expand_repaired(nb_haa *ws, uint32_t u, double gu,
                                                    const int flat)
{
    const nbi_repair *rep = ws->rep;
    uint32_t r = u - ws->g.nnodes - 2, base = u - r % rep->per;
    const nbi_rcluster *c = &rep->rec[r / rep->per];
    uint32_t i = r % rep->per;
    const double *pw = ws->rep_prof >= 0 ? c->pcost + (size_t)ws->rep_prof * c->first[c->nn] : NULL;
    if (ws->pc && !pw)
        weigh_repaired(ws, c, i);
    for (uint32_t a = c->first[i]; a < c->first[i + 1]; a++) {
        const nbi_rarc *e = &c->arc[a];
        if (!ws->capok[e->cap] || e->cv < ws->q.size)
            continue;
        uint32_t v = e->inter ? key_at(ws, e->to) : base + e->to;
        if (v == UINT32_MAX)
            continue;
        double w = nbi_steps_length(e->card, e->diag);
        if (pw) { /* the repair's cost for the query's profile */
            if ((w = pw[a]) < 0)
                continue;
        } else if (ws->pc) { /* an inter-arc: one cardinal step into the far cell */
            nb_cell to = e->inter ? (nb_cell){(int32_t)(e->to % ws->g.width), (int32_t)(e->to / ws->g.width)}
                                  : (nb_cell){(int32_t)(c->cell[e->to] % ws->g.width),
                                              (int32_t)(c->cell[e->to] / ws->g.width)};
            w = e->inter ? nbi_costs_cell(&ws->wc, (uint32_t)to.x, (uint32_t)to.y)
                         : nbi_csearch_cost(&ws->ref, to, NULL);
            if (w < 0)
                continue; /* not within the cluster for this agent's corner rule */
        }
        if (!relax(ws, v, gu + w, u, NBI_VIA_REPAIR, flat))
            return 0;
    }
    return 1;
}

void nbi_asearch_begin(nbi_asearch *as, uint64_t max_nodes)
{
    nbi_heap_clear(&as->heap);
    if (++as->sid >= 0x80000000u) { /* once in 2^31 searches: forget every stamp */
        size_t n = nbi_pool_slots(&as->pool);
        for (size_t i = 0; i < n; i++)
            as->stamp[i] = 0;
        as->sid = 1;
    }
    nbi_pool_begin(&as->pool);
    nbi_pool_flat(&as->pool); /* a graph whose keys all fit in the pages held: no look-ups */
    as->nodes = as->expanded = 0;
    as->max_nodes = max_nodes ? max_nodes : UINT64_MAX;
    as->end = NBI_AS_RUNNING;
}

void nbi_haa_abstract_begin(nb_haa *ws)
{
    nbi_asearch *as = &ws->as;
    const nbi_agraph *g = &ws->g;
    for (uint32_t i = 0; i < g->ncaps; i++)
        ws->capok[i] = (nbi_u32at(g->caps, i) & ~ws->q.capability) == 0;
    nbi_asearch_begin(as, ws->max_nodes);
    as->best = g->nnodes;
    as->best_h = octile(ws->q.start, ws->q.goal) * ws->hmul;
    as->best_g = 0;
    relax(ws, g->nnodes, 0, g->nnodes, NBI_VIA_START, as->pool.flat);
}

/* The search's loop; flat (a constant in each copy) as for reach(); plain (another): the
 * query has no repair and no cost profile, so the arc loop tests neither; best (another): the
 * best partial path is followed (not in a find that nothing stops before its end, ws->whole,
 * which has no node cap either: its arcs open nodes without the cap's test). */
static inline NBP_ALWAYS_INLINE uint64_t step(nb_haa *ws, uint64_t budget, const int flat,
                                              const int plain, const int best)
{
    nbi_asearch *as = &ws->as;
    const nbi_agraph *g = &ws->g;
    const uint32_t size = ws->q.size, S = g->nnodes, G = g->nnodes + 1;
    const uint32_t ks = ws->ks, kg = ws->kg;
    const nbi_acosts *pc = ws->pc; /* an arc's cost to the agent, or its weight */
    uint32_t g0, g1 = nbi_haa_cluster_keys(ws, kg, &g0);
    g1 += g0;
    uint64_t done = 0;
    /* Whatever ends the search inside the loop leaves it at once: its state is tested once. */
    if (as->end != NBI_AS_RUNNING)
        return 0;
    while (done < budget) {
        if (nbi_heap_empty(&as->heap)) {
            as->end = NBI_AS_EXHAUSTED;
            break;
        }
        nbi_heap_item top = nbi_heap_pop(&as->heap);
        uint32_t us = top.id;
        uint32_t u = flat ? us
                          : as->pool.owner[us >> NBI_ASEARCH_SHIFT] << NBI_ASEARCH_SHIFT |
                                (us & AMASK);
        as->stamp[us] |= 1u;
        as->expanded++;
        done++;
        double gu = as->gv[us];
        /* The best partial path so far: the node of least heuristic.  Its key less its cost
         * is its heuristic but for rounding, so the heuristic is worked out again (for the
         * exact compare) only for a node that may be as near as the best. */
        if (best && top.key + top.tie <= as->best_h + 1e-9 * (1 + top.key)) {
            double hu = (u == G ? 0 : u == S ? octile(ws->q.start, ws->q.goal)
                                             : octile(nbi_haa_key_cell(ws, u), ws->q.goal)) *
                        ws->hmul;
            if (hu < as->best_h || (hu == as->best_h && gu < as->best_g)) {
                as->best = u;
                as->best_h = hu;
                as->best_g = gu;
            }
        }
        if (u == G) {
            as->end = NBI_AS_FOUND;
            break;
        }
        if (u == S) {
            uint32_t a, z = nbi_haa_cluster_keys(ws, ks, &a);
            z += a;
            for (uint32_t v = a; v < z; v++) {
                double c = nbi_csearch_cost(&ws->ins[0], nbi_haa_key_cell(ws, v), NULL);
                if (c >= 0 && !relax(ws, v, c, S, NBI_VIA_START, flat))
                    return done;
            }
            if (ks == kg) {
                double c = nbi_csearch_cost(&ws->ins[0], ws->q.goal, NULL);
                if (c >= 0 && !relax(ws, G, c, S, NBI_VIA_DIRECT, flat))
                    return done;
            }
            if (ws->near_cost >= 0 && !relax(ws, G, ws->near_cost, S, NBI_VIA_NEAR, flat))
                return done;
            continue;
        }
        if (u > G) { /* a repaired cluster's node */
            if (!expand_repaired(ws, u, gu, flat))
                return done;
        } else {
            uint32_t a0 = nbi_u32at(g->node_first, u), a1 = nbi_u32at(g->node_first, u + 1);
            /* Most arcs lead to a node closed already or reached as cheaply, told by the
             * page directory and the stamp alone.  They are read through locals, which only
             * a relax (claiming a page, growing the heap) can make stale: through ws, every
             * store of the search would have the compiler read them again for each arc. */
            const uint8_t *capok = ws->capok;
            const nbi_repair *rep = plain ? NULL : ws->rep;
            const nbi_acosts *pa = plain ? NULL : pc;
            const uint32_t *dir = as->pool.dir, *stamp = as->stamp;
            const double *gv = as->gv;
            /* A stamp of this search: open, or closed. */
            const uint32_t open = as->sid << 1, closed = open | 1u;
            for (uint32_t a = a0; a < a1; a++) {
                const uint8_t *ann = g->arc_ann + 2 * (size_t)a;
                if (!capok[ann[0]] || ann[1] < size)
                    continue;
                uint32_t v = nbi_u32at(g->arc_to, a);
                if (rep && (v = repaired_key(ws, v)) == UINT32_MAX)
                    continue;
                /* Closed (three arcs in four on brc202d) is told before the arc's weight.  A
                 * page the directory gives holds this search's stamps only if it claimed the
                 * page, so the stamp alone tells (reach() claims it when the node opens). */
                double ng;
                uint32_t pg = flat ? 0 : dir[v >> NBI_ASEARCH_SHIFT];
                if (pg != NBI_POOL_NONE) {
                    uint32_t sl = flat ? v : pg << NBI_ASEARCH_SHIFT | (v & AMASK), sv = stamp[sl];
                    if (sv == closed)
                        continue;
                    ng = gu + (pa ? nbi_acosts_arc(pa, a) : nbi_arc_weight(g, a));
                    if (sv == open && ng >= gv[sl])
                        continue;
                } else {
                    ng = gu + (pa ? nbi_acosts_arc(pa, a) : nbi_arc_weight(g, a));
                }
                if (flat) {
                    /* The stamp read above tells a fresh node from one reached at more. */
                    const uint32_t sv = stamp[v];
                    if (settle(as, v, sv != open, ng, u, a, best) == NBI_POOL_NONE ||
                        !queue_key(ws, v, v, plain))
                        return done;
                } else if (!relax_as(ws, v, ng, u, a, flat, plain)) {
                    return done;
                }
                dir = as->pool.dir;
                stamp = as->stamp;
                gv = as->gv;
            }
        }
        if (u >= g0 && u < g1) {
            double c = nbi_csearch_cost(&ws->ins[1], nbi_haa_key_cell(ws, u), NULL);
            if (c >= 0 && !relax(ws, G, gu + c, u, NBI_VIA_GOAL, flat))
                return done;
        }
    }
    return done;
}

/* Each copy a function of its own, so that each loop has the registers alone. */
static NBP_NOINLINE uint64_t step_flat_plain(nb_haa *ws, uint64_t budget)
{
    return step(ws, budget, 1, 1, 1);
}
static NBP_NOINLINE uint64_t step_flat_whole(nb_haa *ws, uint64_t budget)
{
    return step(ws, budget, 1, 1, 0);
}
static NBP_NOINLINE uint64_t step_flat(nb_haa *ws, uint64_t budget) { return step(ws, budget, 1, 0, 1); }
static NBP_NOINLINE uint64_t step_paged_plain(nb_haa *ws, uint64_t budget)
{
    return step(ws, budget, 0, 1, 1);
}
static NBP_NOINLINE uint64_t step_paged_whole(nb_haa *ws, uint64_t budget)
{
    return step(ws, budget, 0, 1, 0);
}
static NBP_NOINLINE uint64_t step_paged(nb_haa *ws, uint64_t budget)
{
    return step(ws, budget, 0, 0, 1);
}

uint64_t nbi_haa_abstract_step(nb_haa *ws, uint64_t budget)
{
    int plain = !ws->rep && !ws->pc;
    if (ws->as.pool.flat)
        return !plain ? step_flat(ws, budget)
               : ws->whole ? step_flat_whole(ws, budget) : step_flat_plain(ws, budget);
    return !plain ? step_paged(ws, budget)
           : ws->whole ? step_paged_whole(ws, budget) : step_paged_plain(ws, budget);
}
