/* opt_landmarks.c: landmarks on the optimal layer's portal graph, for the
 * world_opt section (formats/world.md): a few portals chosen far apart and
 * every portal's exact distance from each over the whole portal graph (the
 * tiles' cliques and the moves between tiles), so that a query bounds a
 * portal's distance to its goal by the triangle inequality (ALT, Goldberg
 * and Harrelson) besides the octile distance.
 *
 * Each landmark's distances are a plain Dijkstra over the graph, a row of
 * a tile's clique unpacked as its portal is settled.  The first landmark
 * is the portal farthest from node 0; each next one the portal whose
 * least distance to those chosen is largest (ties: the lowest node), among
 * the portals node 0's search reached or a landmark's did; fewer when no
 * portal lies apart from the chosen ones.  Deterministic: the bytes depend
 * on the graph alone. */
#include <math.h>
#include <string.h>

#include "bake_int.h"
#include "core/grid.h"
#include "core/heap.h"
#include "world/opt_landmarks.h"

typedef struct lgraph {
    const nbbo_graph *g;
    double *row;   /* most portals of a tile */
    uint8_t *done; /* per node */
    uint32_t *pos; /* per node, the heap's */
    nbi_heap heap;
} lgraph;

static uint32_t tile_of_node(const nbbo_graph *g, uint32_t u)
{
    uint32_t lo = 0, hi = g->tiles;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (g->first[mid] <= u)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Distances from src into d[nodes] (-1: not reached); 0 without memory. */
static int dijkstra(lgraph *lg, uint32_t src, double *d)
{
    const nbbo_graph *g = lg->g;
    for (uint32_t v = 0; v < g->nodes; v++)
        d[v] = -1;
    memset(lg->done, 0, g->nodes);
    nbi_heap_clear(&lg->heap);
    d[src] = 0;
    if (!nbi_heap_push(&lg->heap, 0, 0, src))
        return 0;
    while (!nbi_heap_empty(&lg->heap)) {
        nbi_heap_item it = nbi_heap_pop(&lg->heap);
        uint32_t u = it.id;
        lg->done[u] = 1;
        uint32_t t = tile_of_node(g, u), base = g->first[t], i = u - base;
        const nbi_optb *b = &g->tile[t];
        nbi_optb_unpack_row(b->packed + b->row[i], b->row[i + 1] - b->row[i], b->cell, b->n, i,
                            lg->row);
        for (uint32_t j = 0; j < b->n; j++) {
            uint32_t v = base + j;
            double nd = d[u] + lg->row[j];
            if (j == i || lg->row[j] < 0 || lg->done[v] || (d[v] >= 0 && nd >= d[v]))
                continue;
            d[v] = nd;
            if (!nbi_heap_push(&lg->heap, nd, 0, v))
                return 0;
        }
        for (uint32_t l = g->lfirst[u]; l < g->lfirst[u + 1]; l++) {
            uint32_t v = g->lto[l];
            double nd = d[u] + nbi_move_cost(g->lmove[l]);
            if (lg->done[v] || (d[v] >= 0 && nd >= d[v]))
                continue;
            d[v] = nd;
            if (!nbi_heap_push(&lg->heap, nd, 0, v))
                return 0;
        }
    }
    return 1;
}

/* The node of d's largest value (score: its least distance to the chosen
 * landmarks), the lowest on ties; UINT32_MAX when every value is <= 0. */
static uint32_t farthest(const double *score, uint32_t n)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t v = 0; v < n; v++)
        if (score[v] > 0 && (best == UINT32_MAX || score[v] > score[best]))
            best = v;
    return best;
}

nb_status nbb_world_opt_landmarks(const nbbo_graph *g, uint32_t want, uint32_t *landmark,
                                  double *dist, uint32_t *count, nb_err *err)
{
    lgraph lg;
    memset(&lg, 0, sizeof lg);
    lg.g = g;
    *count = 0;
    if (!g->nodes || !want)
        return NB_OK;
    uint32_t most = 0;
    for (uint32_t t = 0; t < g->tiles; t++)
        most = g->tile[t].n > most ? g->tile[t].n : most;
    double *d = nbb_malloc((size_t)g->nodes * sizeof *d),
           *score = nbb_malloc((size_t)g->nodes * sizeof *score);
    lg.row = nbb_malloc(((size_t)most + 1) * sizeof *lg.row);
    lg.done = nbb_malloc(g->nodes);
    lg.pos = nbb_malloc((size_t)g->nodes * sizeof *lg.pos);
    nb_status st = NB_OK;
    if (!d || !score || !lg.row || !lg.done || !lg.pos ||
        !nbi_heap_init(&lg.heap, nbb_mem(), 1024, lg.pos)) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the optimal layer's landmarks");
        goto done;
    }
    for (uint32_t v = 0; v < g->nodes; v++)
        lg.pos[v] = NBI_HEAP_NONE;
    if (!dijkstra(&lg, 0, score)) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the optimal layer's landmarks");
        goto done;
    }
    score[0] = score[0] < 0 ? -1 : 1e-300; /* node 0 itself, if nothing else is reached */
    for (uint32_t k = 0; k < want; k++) {
        uint32_t next = farthest(score, g->nodes);
        if (next == UINT32_MAX)
            break;
        if (!dijkstra(&lg, next, d)) {
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the optimal layer's landmarks");
            goto done;
        }
        landmark[k] = next;
        for (uint32_t v = 0; v < g->nodes; v++) {
            dist[(size_t)v * want + k] = d[v];
            /* After the first landmark the score is the least distance to
             * those chosen (node 0's search only picked the first). */
            if (d[v] >= 0 && (k == 0 || d[v] < score[v]))
                score[v] = d[v];
            else if (k == 0)
                score[v] = -1;
        }
        *count = k + 1;
    }
done:
    nbi_heap_free(&lg.heap);
    nbb_free(d);
    nbb_free(score);
    nbb_free(lg.row);
    nbb_free(lg.done);
    nbb_free(lg.pos);
    return st;
}
