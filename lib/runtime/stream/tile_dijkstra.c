/* tile_dijkstra.c: Dijkstra over a tile bundle's abstract graph kept to
 * the tile's own cells.  The tile action runs it from each node on the
 * tile's edges (the distances its border graph stores), and HAA* across
 * tiles from a query's end inserted in its cluster (haa_world.c): the
 * same search on both sides, so that what the link joined and what a
 * query adds are costs of one kind.  Costs are counted in cardinal and
 * diagonal steps, so the border graph's bytes hold no rounding. */
#include "core/heap.h"
#include "stream/haa_world.h"

int nbi_tdijk_init(nbi_tdijk *t, const nb_allocator *a, uint32_t nodes)
{
    t->a = a;
    t->n = nodes;
    t->sid = 0;
    t->target = NULL;
    t->left = 0;
    t->bhead = t->enode = t->enext = NULL;
    t->bcap = t->ecap = 0;
    t->card = nbi_alloc_array(a, nodes ? nodes : 1, sizeof *t->card);
    t->diag = nbi_alloc_array(a, nodes ? nodes : 1, sizeof *t->diag);
    t->stamp = nbi_zalloc_array(a, nodes ? nodes : 1, sizeof *t->stamp);
    t->heap = nbi_zalloc_array(a, 1, sizeof *t->heap);
    t->pos = nbi_alloc_array(a, nodes ? nodes : 1, sizeof *t->pos);
    for (uint32_t u = 0; t->pos && u < nodes; u++)
        t->pos[u] = NBI_HEAP_NONE;
    if (!t->card || !t->diag || !t->stamp || !t->heap || !t->pos ||
        !nbi_heap_init(t->heap, a, 64, t->pos)) {
        nbi_tdijk_free(t);
        return 0;
    }
    return 1;
}

void nbi_tdijk_free(nbi_tdijk *t)
{
    if (t->heap && t->heap->a)
        nbi_heap_free(t->heap);
    nbi_free(t->a, t->heap);
    nbi_free(t->a, t->card);
    nbi_free(t->a, t->diag);
    nbi_free(t->a, t->stamp);
    nbi_free(t->a, t->pos);
    nbi_free(t->a, t->bhead);
    nbi_free(t->a, t->enode);
    nbi_free(t->a, t->enext);
    t->bhead = t->enode = t->enext = NULL;
    t->bcap = t->ecap = 0;
    t->pos = NULL;
    t->heap = NULL;
    t->card = t->diag = t->stamp = NULL;
}

static int inside(const nbi_agraph *g, uint32_t u, uint32_t x0, uint32_t y0, uint32_t x1,
                  uint32_t y1)
{
    uint32_t x = nbi_u16at(g->node_xy, 2 * (size_t)u), y = nbi_u16at(g->node_xy, 2 * (size_t)u + 1);
    return x >= x0 && x < x1 && y >= y0 && y < y1;
}

/* Reaches u at (card, diag) when that is better; 0 without memory. */
static int reach(nbi_tdijk *t, uint32_t u, uint32_t card, uint32_t diag)
{
    double c = nbi_steps_length(card, diag);
    if ((t->stamp[u] >> 1) == t->sid) {
        if (t->stamp[u] & 1 || nbi_steps_length(t->card[u], t->diag[u]) <= c)
            return 1;
    }
    t->stamp[u] = t->sid << 1;
    t->card[u] = card;
    t->diag[u] = diag;
    /* Ties by node number: the same order, so the same steps, on any machine;
     * a node in the heap has its key lowered (one entry a node). */
    return nbi_heap_push(t->heap, c, (double)u, u);
}

int nbi_tdijk_run(nbi_tdijk *t, const nbi_agraph *g, nb_capability cap, uint32_t size,
                  uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, const uint32_t *seed,
                  const uint32_t *seed_card, const uint32_t *seed_diag, size_t nseed)
{
    if (++t->sid >= (1u << 31)) { /* stamps wrap: start them again */
        for (uint32_t u = 0; u < t->n; u++)
            t->stamp[u] = 0;
        t->sid = 1;
    }
    nbi_heap_clear(t->heap);
    for (size_t i = 0; i < nseed; i++)
        if (seed[i] < t->n && inside(g, seed[i], x0, y0, x1, y1) &&
            !reach(t, seed[i], seed_card[i], seed_diag[i]))
            return 0;
    while (!nbi_heap_empty(t->heap)) {
        nbi_heap_item it = nbi_heap_pop(t->heap);
        uint32_t u = it.id;
        if (t->stamp[u] & 1)
            continue; /* settled (a seed given twice) */
        t->stamp[u] |= 1;
        if (t->target && t->target[u] && --t->left == 0)
            break;
        for (uint32_t a = nbi_u32at(g->node_first, u); a < nbi_u32at(g->node_first, u + 1); a++) {
            uint32_t v = nbi_u32at(g->arc_to, a);
            if (!nbi_agraph_admits(g, a, cap, size) || !inside(g, v, x0, y0, x1, y1))
                continue;
            if (!reach(t, v, t->card[u] + nbi_u16at(g->arc_w, 2 * (size_t)a),
                       t->diag[u] + nbi_u16at(g->arc_w, 2 * (size_t)a + 1)))
                return 0;
        }
    }
    return 1;
}

/* ---- by buckets ---- */

#define NO_ENTRY UINT32_MAX

/* Reaches u at (card, diag) when that is better, an entry in its bucket
 * (the older ones left behind and skipped); 0 without memory. */
static inline int reach_b(nbi_tdijk *t, uint32_t u, uint32_t card, uint32_t diag, size_t *top)
{
    double c = nbi_steps_length(card, diag);
    if ((t->stamp[u] >> 1) == t->sid &&
        (t->stamp[u] & 1 || nbi_steps_length(t->card[u], t->diag[u]) <= c))
        return 1;
    t->stamp[u] = t->sid << 1;
    t->card[u] = card;
    t->diag[u] = diag;
    size_t b = (size_t)c, e = *top;
    if (b >= t->bcap) {
        size_t old = t->bcap;
        if (!nbi_grow(t->a, (void **)&t->bhead, &t->bcap, b + 1, sizeof *t->bhead))
            return 0;
        for (size_t i = old; i < t->bcap; i++)
            t->bhead[i] = NO_ENTRY;
    }
    if (e >= t->ecap) {
        size_t cap = t->ecap;
        if (!nbi_grow(t->a, (void **)&t->enode, &cap, e + 1, sizeof *t->enode))
            return 0;
        if (!nbi_grow(t->a, (void **)&t->enext, &t->ecap, cap, sizeof *t->enext))
            return 0;
    }
    t->enode[e] = u;
    t->enext[e] = t->bhead[b];
    t->bhead[b] = (uint32_t)e;
    *top = e + 1;
    return 1;
}

int nbi_tdijk_run_buckets(nbi_tdijk *t, const nbi_agraph *g, nb_capability cap, uint32_t size,
                          uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
                          const uint32_t *seed, const uint32_t *seed_card,
                          const uint32_t *seed_diag, size_t nseed)
{
    if (++t->sid >= (1u << 31)) {
        for (uint32_t u = 0; u < t->n; u++)
            t->stamp[u] = 0;
        t->sid = 1;
    }
    for (size_t i = 0; i < t->bcap; i++)
        t->bhead[i] = NO_ENTRY;
    size_t top = 0; /* entries made */
    for (size_t i = 0; i < nseed; i++)
        if (seed[i] < t->n && inside(g, seed[i], x0, y0, x1, y1) &&
            !reach_b(t, seed[i], seed_card[i], seed_diag[i], &top))
            return 0;
    int done = 0;
    for (size_t b = 0; !done && b < t->bcap; b++) {
        /* Nodes reached from this bucket go to later ones (an arc spans a
         * step or more), so its list only shrinks while it is read. */
        while (t->bhead[b] != NO_ENTRY) {
            uint32_t e = t->bhead[b], u = t->enode[e];
            t->bhead[b] = t->enext[e];
            if (t->stamp[u] & 1 || (size_t)nbi_steps_length(t->card[u], t->diag[u]) != b)
                continue; /* settled, or an entry its node has left for a lower bucket */
            t->stamp[u] |= 1;
            if (t->target && t->target[u] && --t->left == 0) {
                done = 1;
                break;
            }
            for (uint32_t a = nbi_u32at(g->node_first, u); a < nbi_u32at(g->node_first, u + 1);
                 a++) {
                uint32_t v = nbi_u32at(g->arc_to, a), sv = t->stamp[v];
                if (sv == (t->sid << 1 | 1))
                    continue; /* settled: no arc improves it (its checks spared) */
                uint32_t dc = nbi_u16at(g->arc_w, 2 * (size_t)a),
                         dd = nbi_u16at(g->arc_w, 2 * (size_t)a + 1);
                /* Reached already no longer: nothing to do, whether the arc admits the agent
                 * or not (reach_b's own test, made before the arc's checks). */
                if ((sv >> 1) == t->sid && (dc || dd) &&
                    nbi_steps_length(t->card[v], t->diag[v]) <=
                        nbi_steps_length(t->card[u] + dc, t->diag[u] + dd))
                    continue;
                if (!nbi_agraph_admits(g, a, cap, size) || !inside(g, v, x0, y0, x1, y1))
                    continue;
                if (!dc && !dd)
                    return -1; /* an arc of no steps: the buckets' rule does not hold */
                if (!reach_b(t, v, t->card[u] + dc, t->diag[u] + dd, &top))
                    return 0;
            }
        }
    }
    return 1;
}
