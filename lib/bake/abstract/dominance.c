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
 * which a later removal of nodes does not change).
 *
 * Every rule looks within one unit (abstract_build.h): a node pair lies in
 * one cluster or across one border, a node through which an intra-edge is
 * replaced in the same cluster, and the inter-edges the circuit condition
 * compares on one border, with the intra-edges of its two clusters. */
#include <stdlib.h>

#include "abstract/abstract_build.h"

/* a at least as good as b (annotations only). */
static int as_good(const nbb_ab *ab, const ab_ann *a, const ab_ann *b)
{
    return nbb_ab_subset(ab, a->cap, b->cap) && a->cv >= b->cv;
}

static int same_ann(const ab_ann *a, const ab_ann *b) { return a->cap == b->cap && a->cv == b->cv; }

static int lighter(const ab_ann *a, const ab_ann *b)
{
    double wa = a->card + NBI_SQRT2 * a->diag, wb = b->card + NBI_SQRT2 * b->diag;
    return wa < wb;
}

/* Removes the marked edges of group[0..n) (decided all at once, so that
 * no removal changes another's test) and counts them. */
static void drop_marked(ab_ann **group, size_t n, uint32_t *dropped)
{
    for (size_t i = 0; i < n; i++) {
        ab_ann *e = group[i];
        if (e->mark && e->alive) {
            e->alive = 0;
            (*dropped)++;
        }
        e->mark = 0;
    }
}

void nbb_ab_parallel(const nbb_ab *ab, ab_ann **group, size_t n, int weak, uint32_t *dropped)
{
    /* group is in the order the edges were made: the earlier wins a tie. */
    for (size_t i = 0; i < n; i++) {
        ab_ann *eb = group[i];
        if (!eb->alive)
            continue;
        for (size_t j = 0; j < n; j++) {
            const ab_ann *ea = group[j];
            if (i == j || !as_good(ab, ea, eb))
                continue;
            int equal_w = ea->card == eb->card && ea->diag == eb->diag;
            if (!weak && !equal_w)
                continue;
            int wins = !same_ann(ea, eb) || (weak && lighter(ea, eb)) ||
                       ((equal_w || !weak) && j < i);
            if (wins) {
                eb->mark = 1;
                break;
            }
        }
    }
    drop_marked(group, n, dropped);
}

/* Sorts order[0..n) by key, then by itself (small arrays: insertion). */
static void sort_by_key(uint32_t *order, const uint64_t *key, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint32_t v = order[i];
        size_t j = i;
        while (j > 0 && (key[order[j - 1]] > key[v] || (key[order[j - 1]] == key[v] && order[j - 1] > v))) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
}

/* The parallel rule over edges[0..n) (of stride bytes, an ab_ann first),
 * whose node pairs are key[0..n). */
static nb_status parallel_groups(const nbb_ab *ab, ab_worker *w, void *edges, size_t stride,
                                 const uint64_t *key, size_t n, uint32_t *dropped, nb_err *err)
{
    uint32_t q = ab->opt->quality;
    if (q == NBI_QUALITY_INITIAL || n < 2)
        return NB_OK;
    if (!nbb_ab_room((void **)&w->order, &w->order_cap, n, sizeof *w->order) ||
        !nbb_ab_room((void **)&w->slot, &w->slot_cap, n * sizeof(ab_ann *) / sizeof *w->slot + 1,
                     sizeof *w->slot))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to prune the abstract graph");
    for (size_t i = 0; i < n; i++)
        w->order[i] = (uint32_t)i;
    sort_by_key(w->order, key, n);
    ab_ann **group = (ab_ann **)(void *)w->slot;
    for (size_t g0 = 0, g1; g0 < n; g0 = g1) {
        for (g1 = g0 + 1; g1 < n && key[w->order[g1]] == key[w->order[g0]]; g1++)
            ;
        if (g1 - g0 < 2)
            continue;
        for (size_t i = g0; i < g1; i++)
            group[i - g0] = (ab_ann *)(void *)((char *)edges + w->order[i] * stride);
        nbb_ab_parallel(ab, group, g1 - g0, q == NBI_QUALITY_LOW, dropped);
    }
    return NB_OK;
}

nb_status nbb_ab_border_parallel(nbb_ab *ab, ab_border *bd, ab_worker *w, nb_err *err)
{
    bd->strong = bd->weak = 0;
    if (bd->n < 2 || ab->opt->quality == NBI_QUALITY_INITIAL)
        return NB_OK;
    /* A border's node pair is its pair of facing cells: the first cell names it. */
    if (!nbb_ab_room((void **)&w->key, &w->key_cap, bd->n, sizeof *w->key))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to prune the abstract graph");
    for (uint32_t i = 0; i < bd->n; i++)
        w->key[i] = bd->e[i].a;
    uint32_t *count = ab->opt->quality == NBI_QUALITY_LOW ? &bd->weak : &bd->strong;
    return parallel_groups(ab, w, bd->e, sizeof *bd->e, w->key, bd->n, count, err);
}

/* Alive intra-edges by node (CSR), for the circuit condition. */
static nb_status make_adjacency(ab_cluster *c, ab_worker *w, nb_err *err)
{
    c->adj_first = nbb_arena_alloc(&w->arena, ((size_t)c->nnodes + 1) * sizeof *c->adj_first);
    c->adj = nbb_arena_alloc(&w->arena, (2 * (size_t)c->ne + 1) * sizeof *c->adj);
    if (!c->adj_first || !c->adj)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to prune the abstract graph");
    memset(c->adj_first, 0, ((size_t)c->nnodes + 1) * sizeof *c->adj_first);
    for (uint32_t i = 0; i < c->ne; i++)
        if (c->e[i].h.alive) {
            c->adj_first[c->e[i].i + 1]++;
            c->adj_first[c->e[i].j + 1]++;
        }
    for (uint32_t u = 0; u < c->nnodes; u++)
        c->adj_first[u + 1] += c->adj_first[u];
    if (!nbb_ab_room((void **)&w->num, &w->num_cap, c->nnodes + 1, sizeof *w->num))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to prune the abstract graph");
    memcpy(w->num, c->adj_first, ((size_t)c->nnodes + 1) * sizeof *w->num);
    for (uint32_t i = 0; i < c->ne; i++)
        if (c->e[i].h.alive) {
            c->adj[w->num[c->e[i].i]++] = i;
            c->adj[w->num[c->e[i].j]++] = i;
        }
    return NB_OK;
}

nb_status nbb_ab_cluster_dominance(nbb_ab *ab, ab_cluster *c, ab_worker *w, nb_err *err)
{
    uint32_t q = ab->opt->quality;
    if (q == NBI_QUALITY_INITIAL)
        return NB_OK;
    nb_status st = NB_OK;
    if (c->ne >= 2) {
        if (!nbb_ab_room((void **)&w->key, &w->key_cap, c->ne, sizeof *w->key))
            return nbi_fail(err, NB_ERR_NOMEM, "no memory to prune the abstract graph");
        for (uint32_t i = 0; i < c->ne; i++)
            w->key[i] = (uint64_t)c->e[i].i << 16 | c->e[i].j;
        st = parallel_groups(ab, w, c->e, sizeof *c->e, w->key, c->ne,
                             q == NBI_QUALITY_LOW ? &c->weak : &c->strong, err);
    }
    if (st == NB_OK && q == NBI_QUALITY_HIGH && ab->opt->through)
        st = nbb_ab_through(ab, c, w, err);
    return st;
}

nb_status nbb_ab_cluster_adjacency(nbb_ab *ab, ab_cluster *c, ab_worker *w, nb_err *err)
{
    return ab->opt->quality == NBI_QUALITY_LOW ? make_adjacency(c, w, err) : NB_OK;
}

/* p and q (cells of cluster c) are the same node, or joined by an
 * intra-edge at least as good as e. */
static int joined(const nbb_ab *ab, const ab_cluster *c, uint32_t p, uint32_t q, const ab_ann *e)
{
    if (p == q)
        return 1;
    long lp = nbb_ab_node_at(c, p), lq = nbb_ab_node_at(c, q);
    if (lp < 0 || lq < 0)
        return 0;
    for (uint32_t k = c->adj_first[lp]; k < c->adj_first[lp + 1]; k++) {
        const ab_intra *f = &c->e[c->adj[k]];
        if ((f->i == lq || f->j == lq) && as_good(ab, &f->h, e))
            return 1;
    }
    return 0;
}

nb_status nbb_ab_circuit(nbb_ab *ab, uint32_t bi, ab_worker *w, nb_err *err)
{
    ab_border *bd = &ab->border[bi];
    uint32_t ka = bi / 2, kb = bi % 2 ? ka + ab->ncx : ka + 1;
    const ab_cluster *ca = &ab->cl[ka], *cb = &ab->cl[kb];
    bd->circuit = 0;
    if (!nbb_ab_room((void **)&w->slot, &w->slot_cap,
                     (size_t)bd->n * sizeof(ab_ann *) / sizeof *w->slot + 1, sizeof *w->slot))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to prune the abstract graph");
    /* The alive inter-edges between the two clusters, in the order made. */
    ab_ann **group = (ab_ann **)(void *)w->slot;
    ab_inter **ie = (ab_inter **)group;
    size_t n = 0;
    for (uint32_t i = 0; i < bd->n; i++)
        if (bd->e[i].h.alive)
            ie[n++] = &bd->e[i];
    for (size_t i = 0; i < n; i++) {
        ab_inter *eb = ie[i];
        for (size_t j = 0; j < n; j++) {
            const ab_inter *ea = ie[j];
            if (i == j || !as_good(ab, &ea->h, &eb->h))
                continue;
            int wins = !same_ann(&ea->h, &eb->h) || ea->rank < eb->rank ||
                       (ea->rank == eb->rank && j < i);
            if (wins && joined(ab, ca, ea->a, eb->a, &eb->h) && joined(ab, cb, ea->b, eb->b, &eb->h)) {
                eb->h.mark = 1;
                break;
            }
        }
    }
    for (size_t i = 0; i < n; i++)
        group[i] = &ie[i]->h;
    drop_marked(group, n, &bd->circuit);
    return NB_OK;
}

nb_status nbb_ab_free_nodes(nbb_ab *ab, uint32_t k, ab_worker *w, nb_err *err)
{
    ab_cluster *c = &ab->cl[k];
    /* Corollary 8: a node without an inter-edge goes, and its intra-edges
     * with it. */
    for (uint32_t u = 0; u < c->nnodes; u++)
        c->alive[u] = 0;
    const ab_border *side[4] = {nbb_ab_above(ab, k), nbb_ab_left(ab, k), nbb_ab_right(ab, k),
                                nbb_ab_below(ab, k)};
    for (int s = 0; s < 4; s++)
        for (uint32_t i = 0; side[s] && i < side[s]->n; i++)
            if (side[s]->e[i].h.alive) {
                long u = nbb_ab_node_at(c, s < 2 ? side[s]->e[i].b : side[s]->e[i].a);
                if (u >= 0)
                    c->alive[u] = 1;
            }
    c->freed = 0;
    for (uint32_t u = 0; u < c->nnodes; u++)
        c->freed += !c->alive[u];
    for (uint32_t i = 0; i < c->ne; i++) {
        ab_intra *e = &c->e[i];
        if (e->h.alive && (!c->alive[e->i] || !c->alive[e->j]))
            e->h.alive = 0;
    }
    return ab->opt->through ? nbb_ab_through(ab, c, w, err) : NB_OK;
}

/* Intra-edges of one cluster by pair of its alive nodes: the edges joining
 * local nodes i < j are at order[slot[i * x + j] .. slot[i * x + j + 1]). */
static uint32_t pair_slot(uint32_t x, uint32_t i, uint32_t j) { return i < j ? i * x + j : j * x + i; }

/* Theorem 6 through a node: an intra-edge e = (u, w) goes when some node
 * v of its cluster has edges (u, v) and (v, w), each at least as good as
 * e, whose weights add up to e's exactly.  Every agent e admits then has
 * a path of the same cost through v, so no optimal path is lost (in open
 * ground, nodes along one border are joined straight through one another).
 * Both edges are lighter than e, so the removals cannot form a cycle:
 * they are all decided first, then made. */
nb_status nbb_ab_through(nbb_ab *ab, ab_cluster *c, ab_worker *w, nb_err *err)
{
    /* The alive nodes, numbered in order. */
    if (!nbb_ab_room((void **)&w->num, &w->num_cap, c->nnodes + 1, sizeof *w->num))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to prune the abstract graph");
    uint32_t *local = w->num, x = 0, ne = 0;
    for (uint32_t u = 0; u < c->nnodes; u++)
        local[u] = c->alive[u] ? x++ : UINT32_MAX;
    for (uint32_t i = 0; i < c->ne; i++)
        ne += c->e[i].h.alive;
    if (ne == 0)
        return NB_OK;
    size_t slots = (size_t)x * x + 1;
    if (!nbb_ab_room((void **)&w->slot, &w->slot_cap, slots, sizeof *w->slot) ||
        !nbb_ab_room((void **)&w->order, &w->order_cap, ne, sizeof *w->order))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to prune the abstract graph");
    uint32_t *slot = w->slot, *order = w->order;
    memset(slot, 0, slots * sizeof *slot);
    for (uint32_t i = 0; i < c->ne; i++)
        if (c->e[i].h.alive)
            slot[pair_slot(x, local[c->e[i].i], local[c->e[i].j]) + 1]++;
    for (size_t t = 0; t + 1 < slots; t++)
        slot[t + 1] += slot[t];
    for (uint32_t i = 0; i < c->ne; i++)
        if (c->e[i].h.alive)
            order[slot[pair_slot(x, local[c->e[i].i], local[c->e[i].j])]++] = i;
    for (size_t t = slots - 1; t > 0; t--)
        slot[t] = slot[t - 1];
    slot[0] = 0;
    for (uint32_t q = 0; q < ne; q++) {
        ab_intra *e = &c->e[order[q]];
        uint32_t u = local[e->i], wn = local[e->j];
        int found = 0;
        for (uint32_t v = 0; v < x && !found; v++) {
            if (v == u || v == wn)
                continue;
            uint32_t s1 = pair_slot(x, u, v), s2 = pair_slot(x, v, wn);
            for (uint32_t a = slot[s1]; a < slot[s1 + 1] && !found; a++) {
                const ab_intra *e1 = &c->e[order[a]];
                if (!e1->h.alive || !as_good(ab, &e1->h, &e->h))
                    continue;
                for (uint32_t b = slot[s2]; b < slot[s2 + 1] && !found; b++) {
                    const ab_intra *e2 = &c->e[order[b]];
                    if (!e2->h.alive || !as_good(ab, &e2->h, &e->h))
                        continue;
                    found = e1->h.card + e2->h.card == e->h.card &&
                            e1->h.diag + e2->h.diag == e->h.diag;
                }
            }
        }
        if (found) {
            e->h.mark = 1;
            c->through++;
        }
    }
    for (uint32_t i = 0; i < c->ne; i++) {
        ab_intra *e = &c->e[i];
        if (e->h.mark)
            e->h.alive = 0;
        e->h.mark = 0;
    }
    return NB_OK;
}
