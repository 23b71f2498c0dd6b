/* contract.c: a contraction hierarchy over the subgoal graph (Geisberger,
 * Sanders, Schultes and Delling, WEA 2008), so that a query searches only
 * upward from both ends.
 *
 * Nodes are contracted one by one, the cheapest first by a priority that
 * is the shortcuts its contraction would add, less the edges it removes,
 * plus its neighbours already contracted (to spread contractions over the
 * map), plus its depth: the longest chain of contracted nodes below it, so
 * that the hierarchy stays shallow and an upward search climbs few levels.
 * Contracting v joins each two of its remaining neighbours u and w by a
 * shortcut through v unless a witness search from u that avoids v
 * finds a path no longer than u-v-w.  A witness search that gives up (its
 * limit of settled nodes) counts as none found: an extra shortcut costs
 * space, never a wrong length.  Lengths are counts of cardinal and
 * diagonal steps compared exactly (nbb_steps_le), so a witness of exactly
 * the same length is recognised as one. */
#include <stdlib.h>

#include "core/heap.h"
#include "subgoal/subgoal_build.h"

/* Nodes a witness search settles before it gives up.  30 left a third
 * more shortcuts on street and open maps (Paris_0_512 46,351 upward edges
 * against 28,979), each relaxed by every query that climbs past it: 200
 * costs about twice the bake there and saves a third of a query's
 * instructions (tests/bench/results/optimal-bench.md, "Street maps, round
 * 6"). */
#define WITNESS_SETTLE 200
/* Past 7/10 of the budget, witness searches settle this many: maps that
 * cannot contract whole within it (many subgoals close together, such as
 * random512-10-0) then contract more nodes before it runs out; at 200 to the
 * end they left a larger core and queried 8% slower than at 30.  Street and
 * open maps finish before it (about 200 pushes a cell of 320). */
#define WITNESS_SETTLE_LATE 30
/* A node with more edges than this when its turn comes is left in the
 * core: contracting it would cost its degree squared witness searches and
 * add about as many shortcuts, and on maps with many subgoals close
 * together (random obstacles) the degrees then grow without end. */
#define CORE_DEGREE 100
/* The depth's weight in the order's key: 1 saved 3% of Paris_0_512's query
 * instructions, 4 another 2% for 14% more witness pushes. */
#define DEPTH_W 1.0

struct arc {
    uint32_t to, mid, card, diag;
};

struct adj {
    struct arc *a;
    uint32_t n, cap;
};

struct ch {
    uint32_t n;
    struct adj *adj;
    uint8_t *gone;       /* contracted */
    uint32_t *deleted;   /* neighbours contracted */
    uint32_t *depth;     /* the longest chain of contracted nodes below */
    /* the witness search */
    nbi_heap heap;
    uint32_t *stamp, sid;
    unsigned settle; /* WITNESS_SETTLE, or WITNESS_SETTLE_LATE late in the budget */
    uint64_t *dcard, *ddiag;
    uint32_t *touched;
    nbb_ch_stats stats;
};

static double len_of(uint64_t card, uint64_t diag) { return nbi_steps_length(card, diag); }

static int arc_put(struct adj *d, struct arc a)
{
    if (d->n == d->cap) {
        uint32_t nc = d->cap ? 2 * d->cap : 8;
        struct arc *na = nbb_realloc(d->a, nc * sizeof *na);
        if (!na)
            return 0;
        d->a = na;
        d->cap = nc;
    }
    d->a[d->n++] = a;
    return 1;
}

static void arc_remove(struct adj *d, uint32_t to)
{
    for (uint32_t i = 0; i < d->n; i++)
        if (d->a[i].to == to) {
            d->a[i] = d->a[--d->n];
            return;
        }
}

/* Adds or shortens the edge u-w (both directions); 0 out of memory. */
static int link(struct ch *c, uint32_t u, uint32_t w, uint32_t mid, uint64_t card, uint64_t diag)
{
    struct adj *du = &c->adj[u];
    for (uint32_t i = 0; i < du->n; i++)
        if (du->a[i].to == w) {
            if (nbb_steps_le(du->a[i].card, du->a[i].diag, card, diag))
                return 1;
            du->a[i].mid = mid;
            du->a[i].card = (uint32_t)card;
            du->a[i].diag = (uint32_t)diag;
            struct adj *dw = &c->adj[w];
            for (uint32_t k = 0; k < dw->n; k++)
                if (dw->a[k].to == u) {
                    dw->a[k] = du->a[i];
                    dw->a[k].to = u;
                }
            return 1;
        }
    struct arc a = {w, mid, (uint32_t)card, (uint32_t)diag}, b = {u, mid, (uint32_t)card, (uint32_t)diag};
    return arc_put(du, a) && arc_put(&c->adj[w], b);
}

/* Dijkstra from u among the remaining nodes but skip, settling at most
 * WITNESS_SETTLE nodes and none beyond the limit (max_card, max_diag);
 * the distances it finds are read with dist_of. */
static void witness(struct ch *c, uint32_t u, uint32_t skip, uint64_t max_card, uint64_t max_diag)
{
    c->stats.witness_searches++;
    if (++c->sid == 0) {
        for (uint32_t i = 0; i < c->n; i++)
            c->stamp[i] = 0;
        c->sid = 1;
    }
    nbi_heap_clear(&c->heap);
    c->stamp[u] = c->sid;
    c->dcard[u] = c->ddiag[u] = 0;
    nbi_heap_push(&c->heap, 0, 0, u);
    double limit = len_of(max_card, max_diag) + 1e-9;
    unsigned settled = 0;
    while (!nbi_heap_empty(&c->heap) && settled < c->settle) {
        nbi_heap_item it = nbi_heap_pop(&c->heap);
        uint32_t v = it.id;
        if (it.key > len_of(c->dcard[v], c->ddiag[v]) + 1e-9)
            continue; /* a stale entry */
        if (it.key > limit)
            break;
        settled++;
        c->stats.settled++;
        const struct adj *d = &c->adj[v];
        c->stats.arcs += d->n;
        for (uint32_t i = 0; i < d->n; i++) {
            uint32_t t = d->a[i].to;
            if (t == skip || c->gone[t])
                continue;
            uint64_t nc = c->dcard[v] + d->a[i].card, nd = c->ddiag[v] + d->a[i].diag;
            if (c->stamp[t] == c->sid && nbb_steps_le(c->dcard[t], c->ddiag[t], nc, nd))
                continue;
            c->stamp[t] = c->sid;
            c->dcard[t] = nc;
            c->ddiag[t] = nd;
            nbi_heap_push(&c->heap, len_of(nc, nd), 0, t);
            c->stats.pushes++;
        }
    }
}

/* 1 when the last witness search reached t no longer than (card, diag). */
static int witnessed(const struct ch *c, uint32_t t, uint64_t card, uint64_t diag)
{
    return c->stamp[t] == c->sid && nbb_steps_le(c->dcard[t], c->ddiag[t], card, diag);
}

/* The shortcuts contracting v needs: counted, or (apply) added.  -1 out of
 * memory. */
static long shortcuts(struct ch *c, uint32_t v, int apply)
{
    long count = 0;
    const struct adj *d = &c->adj[v];
    uint32_t n = d->n;
    for (uint32_t i = 0; i < n; i++) {
        struct arc ui = c->adj[v].a[i];
        uint64_t mc = 0, md = 0;
        for (uint32_t k = i + 1; k < n; k++) {
            const struct arc *wk = &c->adj[v].a[k];
            uint64_t tc = (uint64_t)ui.card + wk->card, td = (uint64_t)ui.diag + wk->diag;
            if (!nbb_steps_le(tc, td, mc, md))
                mc = tc, md = td;
        }
        if (i + 1 >= n)
            break;
        witness(c, ui.to, v, mc, md);
        for (uint32_t k = i + 1; k < n; k++) {
            struct arc wk = c->adj[v].a[k];
            uint64_t tc = (uint64_t)ui.card + wk.card, td = (uint64_t)ui.diag + wk.diag;
            if (witnessed(c, wk.to, tc, td))
                continue;
            count++;
            if (apply && !link(c, ui.to, wk.to, v, tc, td))
                return -1;
        }
    }
    return count;
}

/* The order's key: the edge difference (shortcuts added less edges
 * removed) plus the neighbours already contracted, which spreads the
 * contractions over the map. */
static double priority(struct ch *c, uint32_t v, long *out)
{
    long s = shortcuts(c, v, 0);
    *out = s;
    return ((double)s - (double)c->adj[v].n) + (double)c->deleted[v] +
           DEPTH_W * (double)c->depth[v];
}

/* Appends v's edges in d to the hierarchy's; 0 out of memory. */
static int emit(nbb_sg_edge **out, size_t *nout, size_t *capout, uint32_t v, const struct adj *d)
{
    if (*nout + d->n > *capout) {
        size_t nc = *capout ? 2 * *capout : 1024;
        while (nc < *nout + d->n)
            nc *= 2;
        nbb_sg_edge *no = nbb_realloc(*out, nc * sizeof *no);
        if (!no)
            return 0;
        *out = no;
        *capout = nc;
    }
    for (uint32_t i = 0; i < d->n; i++) {
        nbb_sg_edge e = {v, d->a[i].to, d->a[i].card, d->a[i].diag, d->a[i].mid};
        (*out)[(*nout)++] = e;
    }
    return 1;
}

static int up_cmp(const void *a, const void *b)
{
    const nbb_sg_edge *x = a, *y = b;
    if (x->u != y->u)
        return x->u < y->u ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

nb_status nbb_contract(uint32_t n, const nbb_sg_edge *edges, size_t nedges, uint64_t budget,
                       uint32_t *level, uint32_t *first, nbb_sg_edge **up, size_t *nup,
                       nbb_ch_stats *stats, const nbb_progress_part *progress, nb_err *err)
{
    *up = NULL;
    *nup = 0;
    struct ch c;
    memset(&c, 0, sizeof c);
    c.n = n;
    c.settle = WITNESS_SETTLE;
    size_t m = n ? n : 1;
    c.adj = nbb_calloc(m, sizeof *c.adj);
    c.gone = nbb_calloc(m, 1);
    c.deleted = nbb_calloc(m, sizeof *c.deleted);
    c.depth = nbb_calloc(m, sizeof *c.depth);
    c.stamp = nbb_calloc(m, sizeof *c.stamp);
    c.dcard = nbb_malloc(m * sizeof *c.dcard);
    c.ddiag = nbb_malloc(m * sizeof *c.ddiag);
    double *prio = nbb_malloc(m * sizeof *prio);
    nbb_sg_edge *out = NULL;
    size_t nout = 0, capout = 0;
    nbi_heap order;
    int have_order = 0;
    nb_status st = NB_OK;
    if (!c.adj || !c.gone || !c.deleted || !c.depth || !c.stamp || !c.dcard || !c.ddiag ||
        !prio ||
        !nbi_heap_init(&c.heap, nbb_mem(), 64, NULL) || !(have_order = nbi_heap_init(&order, nbb_mem(), m, NULL)))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to contract a graph of %u nodes", n);
    for (size_t i = 0; st == NB_OK && i < nedges; i++) {
        struct arc a = {edges[i].v, NBI_SG_NO_MID, edges[i].card, edges[i].diag};
        struct arc b = {edges[i].u, NBI_SG_NO_MID, edges[i].card, edges[i].diag};
        if (!arc_put(&c.adj[edges[i].u], a) || !arc_put(&c.adj[edges[i].v], b))
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory to contract a graph of %u nodes", n);
    }
    for (uint32_t v = 0; st == NB_OK && v < n; v++) {
        long s;
        /* Past half the budget, or for a node of many edges, its degree
         * squared stands in for the shortcuts it would need. */
        double dn = (double)c.adj[v].n;
        prio[v] = c.adj[v].n > CORE_DEGREE || (budget && c.stats.pushes > budget / 2)
                      ? dn * dn - dn
                      : priority(&c, v, &s);
        nbi_heap_push(&order, prio[v], v, v);
    }
    uint32_t next = 0;
    for (uint64_t pops = 0; st == NB_OK && !nbi_heap_empty(&order); pops++) {
        if (progress && (pops & 1023) == 0) {
            nbb_progress_part_report(progress, n ? (double)next / n : 1);
            if (nbb_progress_stopped(progress)) {
                st = nbb_progress_cancelled(err);
                break;
            }
        }
        nbi_heap_item it = nbi_heap_pop(&order);
        uint32_t v = it.id;
        if (c.gone[v] || it.key != prio[v])
            continue; /* contracted, or a stale entry */
        if (c.adj[v].n > CORE_DEGREE)
            continue; /* left in the core */
        if (budget && c.stats.pushes > budget)
            break; /* the work is spent: every node left is the core */
        if (budget && c.stats.pushes > budget / 10 * 7)
            c.settle = WITNESS_SETTLE_LATE;
        /* Lazy update: contract v only if it is still the cheapest. */
        long s;
        double p = priority(&c, v, &s);
        if (p > prio[v] && !nbi_heap_empty(&order) && p > nbi_heap_top(&order)->key) {
            prio[v] = p;
            nbi_heap_push(&order, p, v, v);
            continue;
        }
        if (shortcuts(&c, v, 1) < 0) {
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory to contract a graph of %u nodes", n);
            break;
        }
        /* v's remaining edges lead up: they are its edges in the hierarchy. */
        struct adj *d = &c.adj[v];
        if (!emit(&out, &nout, &capout, v, d)) {
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory to contract a graph of %u nodes", n);
            break;
        }
        for (uint32_t i = 0; i < d->n; i++)
            c.stats.shortcuts += d->a[i].mid != NBI_SG_NO_MID;
        c.gone[v] = 1;
        level[v] = next++;
        for (uint32_t i = 0; i < d->n; i++) {
            uint32_t u = d->a[i].to;
            arc_remove(&c.adj[u], v);
            c.deleted[u]++;
            if (c.depth[u] < c.depth[v] + 1)
                c.depth[u] = c.depth[v] + 1;
        }
        nbb_free(d->a);
        d->a = NULL;
        d->n = d->cap = 0;
    }
    /* The core: the nodes left, all at the top level, with their edges
     * among themselves (each both ways), which a query searches as a
     * plain graph once it has climbed there. */
    for (uint32_t v = 0; st == NB_OK && v < n; v++) {
        if (c.gone[v])
            continue;
        level[v] = next;
        struct adj *d = &c.adj[v];
        if (!emit(&out, &nout, &capout, v, d)) {
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory to contract a graph of %u nodes", n);
            break;
        }
        c.stats.core++;
    }
    if (st == NB_OK && !nbb_sort(out, nout, sizeof *out, up_cmp))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to contract a graph of %u nodes", n);
    if (st == NB_OK) {
        size_t k = 0;
        for (uint32_t v = 0; v < n; v++) {
            first[v] = (uint32_t)k;
            while (k < nout && out[k].u == v)
                k++;
        }
        first[n] = (uint32_t)k;
        *up = out;
        *nup = nout;
        out = NULL;
        if (stats)
            *stats = c.stats;
    }
    for (uint32_t v = 0; c.adj && v < n; v++)
        nbb_free(c.adj[v].a);
    nbb_free(c.adj);
    nbb_free(c.gone);
    nbb_free(c.deleted);
    nbb_free(c.depth);
    nbb_free(c.stamp);
    nbb_free(c.dcard);
    nbb_free(c.ddiag);
    nbb_free(prio);
    nbb_free(out);
    if (c.heap.a)
        nbi_heap_free(&c.heap);
    if (have_order)
        nbi_heap_free(&order);
    return st;
}
