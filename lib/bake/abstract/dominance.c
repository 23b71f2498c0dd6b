/* dominance.c: making the abstract graph small (Harabor and Botea, CIG
 * 2008, section VII).
 *
 * Annotations are compared as the paper does: an edge (ca, cva) is at
 * least as good as (cb, cvb) when ca is a subset of cb and cva >= cvb,
 * for then every agent that may take the second may take the first.
 *
 * High quality (Theorem 6): of two edges joining the same two nodes with
 * the same weight, the one at least as good stays.  Weights are compared
 * exactly, as their counts of cardinal and diagonal steps.
 *
 * Low quality: clearances are already capped at the largest served size
 * (the clearance layers are), which is the paper's truncation.  Then of
 * two edges joining the same two nodes, the one at least as good stays
 * whatever the weights (the figure's E1 and E2); of two inter-edges
 * between the same two clusters, e_wx removes e_yz when it is at least as
 * good and the circuit condition holds: w and y are joined inside their
 * cluster by an edge at least as good as e_yz, and so are x and z
 * (Theorem 7).  Nodes left without an inter-edge go, with their
 * intra-edges (Corollary 8).
 *
 * Among equally good edges one must survive, so the relation used is made
 * a strict order: a better annotation, else (low quality) a lower weight,
 * else a lower rank (inter-edges: the longer entrance, then the one
 * nearer the middle of the border), else the earlier edge.  Each edge is
 * tested against all the others before any is removed; as the order is
 * strict, every removed edge has a chain of removers ending at one that
 * stays, and both the annotations and the circuit condition carry along
 * that chain (the circuit stands for connectivity inside the cluster,
 * which a later removal of nodes does not change). */
#include <stdlib.h>

#include "abstract/abstract_build.h"

/* Edges are put in order by a key of two numbers, then their index: no
 * comparator needs the graph, so building stays free of global state. */
typedef struct skey {
    uint32_t k0, k1, idx;
} skey;

static int by_key(const void *pa, const void *pb)
{
    const skey *a = pa, *b = pb;
    if (a->k0 != b->k0)
        return a->k0 < b->k0 ? -1 : 1;
    if (a->k1 != b->k1)
        return a->k1 < b->k1 ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* a at least as good as b (annotations only). */
static int as_good(const nbb_agraph_build *ab, const bedge *a, const bedge *b)
{
    return nbb_ab_subset(ab, a->cap, b->cap) && a->cv >= b->cv;
}

static int same_ann(const bedge *a, const bedge *b) { return a->cap == b->cap && a->cv == b->cv; }

static int lighter(const bedge *a, const bedge *b)
{
    double wa = a->card + NBI_SQRT2 * a->diag, wb = b->card + NBI_SQRT2 * b->diag;
    return wa < wb;
}

/* Removes the marked edges of order[0..n) (decided all at once, so that
 * no removal changes another's test) and counts them. */
static void drop_marked(nbb_agraph_build *ab, const uint32_t *order, size_t n, uint64_t *dropped)
{
    for (size_t i = 0; i < n; i++) {
        bedge *e = &ab->edge[order[i]];
        if (e->mark && e->alive) {
            e->alive = 0;
            (*dropped)++;
        }
        e->mark = 0;
    }
}

/* Parallel edges (the same two nodes): Theorem 6, or the weak form. */
static void parallel(nbb_agraph_build *ab, const uint32_t *order, int weak, uint64_t *dropped)
{
    size_t n = ab->nedges;
    for (size_t g0 = 0, g1; g0 < n; g0 = g1) {
        const bedge *e0 = &ab->edge[order[g0]];
        for (g1 = g0 + 1; g1 < n; g1++) {
            const bedge *e = &ab->edge[order[g1]];
            if (!((e->u == e0->u && e->v == e0->v) || (e->u == e0->v && e->v == e0->u)))
                break;
        }
        for (size_t i = g0; i < g1; i++) {
            bedge *eb = &ab->edge[order[i]];
            if (!eb->alive)
                continue;
            for (size_t j = g0; j < g1; j++) {
                const bedge *ea = &ab->edge[order[j]];
                if (i == j || !as_good(ab, ea, eb))
                    continue;
                int equal_w = ea->card == eb->card && ea->diag == eb->diag;
                if (!weak && !equal_w)
                    continue;
                int wins = !same_ann(ea, eb) || (weak && lighter(ea, eb)) ||
                           ((equal_w || !weak) && order[j] < order[i]);
                if (wins) {
                    eb->mark = 1;
                    break;
                }
            }
        }
        drop_marked(ab, order + g0, g1 - g0, dropped);
    }
}

/* Alive intra-edges by node, to test the circuit condition. */
typedef struct adj {
    uint32_t *first, *edge;
} adj;

static int adj_make(const nbb_agraph_build *ab, adj *a)
{
    a->first = calloc(ab->nnodes + 1, sizeof *a->first);
    a->edge = malloc((2 * ab->nedges + 1) * sizeof *a->edge);
    if (!a->first || !a->edge)
        return 0;
    for (size_t i = 0; i < ab->nedges; i++) {
        const bedge *e = &ab->edge[i];
        if (e->alive && !e->inter) {
            a->first[e->u + 1]++;
            a->first[e->v + 1]++;
        }
    }
    for (size_t u = 0; u < ab->nnodes; u++)
        a->first[u + 1] += a->first[u];
    uint32_t *at = malloc((ab->nnodes + 1) * sizeof *at);
    if (!at)
        return 0;
    memcpy(at, a->first, (ab->nnodes + 1) * sizeof *at);
    for (size_t i = 0; i < ab->nedges; i++) {
        const bedge *e = &ab->edge[i];
        if (e->alive && !e->inter) {
            a->edge[at[e->u]++] = (uint32_t)i;
            a->edge[at[e->v]++] = (uint32_t)i;
        }
    }
    free(at);
    return 1;
}

/* p and q are the same node, or joined by an intra-edge at least as good
 * as e. */
static int joined(const nbb_agraph_build *ab, const adj *a, uint32_t p, uint32_t q, const bedge *e)
{
    if (p == q)
        return 1;
    for (uint32_t k = a->first[p]; k < a->first[p + 1]; k++) {
        const bedge *f = &ab->edge[a->edge[k]];
        if ((f->u == q || f->v == q) && as_good(ab, f, e))
            return 1;
    }
    return 0;
}

/* Theorem 7 over the inter-edges order[0..n), sorted by cluster pair. */
static void circuit(nbb_agraph_build *ab, const uint32_t *order, size_t n, const adj *a,
                    uint64_t *dropped)
{
    for (size_t g0 = 0, g1; g0 < n; g0 = g1) {
        const bedge *e0 = &ab->edge[order[g0]];
        uint32_t ku = ab->node[e0->u].cluster, kv = ab->node[e0->v].cluster;
        for (g1 = g0 + 1; g1 < n; g1++) {
            const bedge *e = &ab->edge[order[g1]];
            if (ab->node[e->u].cluster != ku || ab->node[e->v].cluster != kv)
                break;
        }
        for (size_t i = g0; i < g1; i++) {
            bedge *eb = &ab->edge[order[i]];
            for (size_t j = g0; j < g1; j++) {
                const bedge *ea = &ab->edge[order[j]];
                if (i == j || !as_good(ab, ea, eb))
                    continue;
                int wins = !same_ann(ea, eb) || ea->rank < eb->rank ||
                           (ea->rank == eb->rank && order[j] < order[i]);
                if (wins && joined(ab, a, ea->u, eb->u, eb) && joined(ab, a, ea->v, eb->v, eb)) {
                    eb->mark = 1;
                    break;
                }
            }
        }
        drop_marked(ab, order + g0, g1 - g0, dropped);
    }
}

/* Intra-edges of one cluster by pair of its nodes: the edges joining
 * local nodes i < j are edge[first[i * x + j] .. first[i * x + j + 1]). */
typedef struct pairs {
    uint32_t x;
    uint32_t *first, *edge;
} pairs;

static uint32_t pair_slot(const pairs *pm, uint32_t i, uint32_t j)
{
    return i < j ? i * pm->x + j : j * pm->x + i;
}

/* Theorem 6 through a node: an intra-edge e = (u, w) goes when some node
 * v of its cluster has edges (u, v) and (v, w), each at least as good as
 * e, whose weights add up to e's exactly.  Every agent e admits then has
 * a path of the same cost through v, so no optimal path is lost (in open
 * ground, nodes along one border are joined straight through one another).
 * Both edges are lighter than e, so the removals cannot form a cycle:
 * they are all decided first, then made. */
static nb_status through_nodes(nbb_agraph_build *ab, uint64_t *dropped, nb_err *err)
{
    uint32_t ncl = ab->ncx * ab->ncy;
    /* Alive nodes by cluster, and a local number for each. */
    uint32_t *cfirst = calloc((size_t)ncl + 1, sizeof *cfirst);
    uint32_t *local = malloc((ab->nnodes + 1) * sizeof *local);
    skey *key = malloc((ab->nedges + 1) * sizeof *key);
    uint32_t *slot = NULL, *order = NULL;
    size_t ne = 0;
    nb_status st = NB_OK;
    if (!cfirst || !local || !key) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to prune the abstract graph");
        goto done;
    }
    for (size_t u = 0; u < ab->nnodes; u++)
        if (ab->node[u].alive)
            local[u] = cfirst[ab->node[u].cluster + 1]++;
    uint32_t xmax = 0;
    for (uint32_t k = 0; k < ncl; k++) {
        xmax = cfirst[k + 1] > xmax ? cfirst[k + 1] : xmax;
        cfirst[k + 1] += cfirst[k];
    }
    /* Alive intra-edges by cluster, then pair. */
    for (size_t i = 0; i < ab->nedges; i++) {
        const bedge *e = &ab->edge[i];
        if (!e->alive || e->inter)
            continue;
        uint32_t a = local[e->u], b = local[e->v];
        key[ne].k0 = ab->node[e->u].cluster;
        key[ne].k1 = a < b ? a * xmax + b : b * xmax + a;
        key[ne++].idx = (uint32_t)i;
    }
    qsort(key, ne, sizeof *key, by_key);
    slot = malloc(((size_t)xmax * xmax + 1) * sizeof *slot);
    order = malloc((ne + 1) * sizeof *order);
    if (!slot || !order) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to prune the abstract graph");
        goto done;
    }
    for (size_t g0 = 0, g1; g0 < ne; g0 = g1) {
        uint32_t k = key[g0].k0, x = cfirst[k + 1] - cfirst[k];
        for (g1 = g0; g1 < ne && key[g1].k0 == k; g1++)
            ;
        /* Re-key the pairs by this cluster's own x. */
        pairs pm = {x, slot, order + g0};
        for (size_t t = 0; t <= (size_t)x * x; t++)
            slot[t] = 0;
        for (size_t t = g0; t < g1; t++) {
            const bedge *e = &ab->edge[key[t].idx];
            slot[pair_slot(&pm, local[e->u], local[e->v]) + 1]++;
        }
        for (size_t t = 0; t < (size_t)x * x; t++)
            slot[t + 1] += slot[t];
        for (size_t t = g0; t < g1; t++) {
            const bedge *e = &ab->edge[key[t].idx];
            order[g0 + slot[pair_slot(&pm, local[e->u], local[e->v])]++] = key[t].idx;
        }
        for (size_t t = (size_t)x * x; t > 0; t--)
            slot[t] = slot[t - 1];
        slot[0] = 0;
        size_t n = g1 - g0;
        for (size_t q = 0; q < n; q++) {
            bedge *e = &ab->edge[order[g0 + q]];
            uint32_t u = local[e->u], w = local[e->v];
            int found = 0;
            for (uint32_t v = 0; v < x && !found; v++) {
                if (v == u || v == w)
                    continue;
                uint32_t s1 = pair_slot(&pm, u, v), s2 = pair_slot(&pm, v, w);
                for (uint32_t a = slot[s1]; a < slot[s1 + 1] && !found; a++) {
                    const bedge *e1 = &ab->edge[pm.edge[a]];
                    if (!e1->alive || !as_good(ab, e1, e))
                        continue;
                    for (uint32_t b = slot[s2]; b < slot[s2 + 1] && !found; b++) {
                        const bedge *e2 = &ab->edge[pm.edge[b]];
                        if (!e2->alive || !as_good(ab, e2, e))
                            continue;
                        found = e1->card + e2->card == e->card && e1->diag + e2->diag == e->diag;
                    }
                }
            }
            if (found) {
                e->mark = 1;
                (*dropped)++;
            }
        }
        for (size_t q = 0; q < n; q++) {
            bedge *e = &ab->edge[order[g0 + q]];
            if (e->mark)
                e->alive = 0;
            e->mark = 0;
        }
    }
done:
    free(cfirst);
    free(local);
    free(key);
    free(slot);
    free(order);
    return st;
}

nb_status nbb_ab_dominance(nbb_agraph_build *ab, nb_err *err)
{
    uint32_t q = ab->opt->quality;
    if (q == NBI_QUALITY_INITIAL || ab->nedges == 0)
        return NB_OK;
    uint64_t strong = 0, weak = 0, circ = 0, freed = 0, through = 0;
    uint32_t *order = malloc(ab->nedges * sizeof *order);
    skey *key = malloc(ab->nedges * sizeof *key);
    if (!order || !key) {
        free(order);
        free(key);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to prune the abstract graph");
    }
    for (size_t i = 0; i < ab->nedges; i++) {
        const bedge *e = &ab->edge[i];
        key[i].k0 = e->u < e->v ? e->u : e->v;
        key[i].k1 = e->u < e->v ? e->v : e->u;
        key[i].idx = (uint32_t)i;
    }
    qsort(key, ab->nedges, sizeof *key, by_key);
    for (size_t i = 0; i < ab->nedges; i++)
        order[i] = key[i].idx;
    parallel(ab, order, q == NBI_QUALITY_LOW, q == NBI_QUALITY_LOW ? &weak : &strong);
    nb_status st = NB_OK;
    if (q == NBI_QUALITY_HIGH && ab->opt->through)
        st = through_nodes(ab, &through, err);
    if (q == NBI_QUALITY_LOW && st == NB_OK) {
        adj a = {NULL, NULL};
        if (!adj_make(ab, &a)) {
            free(a.first);
            free(a.edge);
            free(order);
            free(key);
            return nbi_fail(err, NB_ERR_NOMEM, "no memory to prune the abstract graph");
        }
        size_t n = 0;
        for (size_t i = 0; i < ab->nedges; i++) {
            const bedge *e = &ab->edge[i];
            if (e->alive && e->inter) {
                key[n].k0 = ab->node[e->u].cluster;
                key[n].k1 = ab->node[e->v].cluster;
                key[n++].idx = (uint32_t)i;
            }
        }
        qsort(key, n, sizeof *key, by_key);
        for (size_t i = 0; i < n; i++)
            order[i] = key[i].idx;
        circuit(ab, order, n, &a, &circ);
        free(a.first);
        free(a.edge);
        /* Corollary 8: a node without an inter-edge goes, and its
         * intra-edges with it. */
        for (size_t u = 0; u < ab->nnodes; u++)
            ab->node[u].alive = 0;
        for (size_t i = 0; i < ab->nedges; i++)
            if (ab->edge[i].alive && ab->edge[i].inter)
                ab->node[ab->edge[i].u].alive = ab->node[ab->edge[i].v].alive = 1;
        for (size_t u = 0; u < ab->nnodes; u++)
            freed += !ab->node[u].alive;
        for (size_t i = 0; i < ab->nedges; i++) {
            bedge *e = &ab->edge[i];
            if (e->alive && (!ab->node[e->u].alive || !ab->node[e->v].alive))
                e->alive = 0;
        }
        if (st == NB_OK && ab->opt->through)
            st = through_nodes(ab, &through, err);
    }
    free(order);
    free(key);
    if (ab->stats) {
        ab->stats->strong = strong;
        ab->stats->weak = weak;
        ab->stats->circuit = circ;
        ab->stats->freed_nodes = freed;
        ab->stats->through = through;
    }
    return st;
}
