/* landmarks_build.c: landmarks of the levels' top level (formats/abstract.md,
 * section type 34), for the ALT bounds of Goldberg and Harrelson ("Computing
 * the shortest path: A* search meets graph theory", SODA 2005).
 *
 * A long query searches the top level, whose octile bound is weak where
 * walls make paths wind: corner to corner on a big level it expanded half
 * the level's nodes.  The distance from a landmark L bounds any distance:
 * d(x, y) >= |d(L, y) - d(L, x)|, and the bound is tight when L lies
 * behind one end.  The landmarks are chosen farthest first (each the node
 * farthest from those chosen, one not reached by any of them first), from
 * the node farthest from node 0; the distances are over every arc of the
 * level whatever it admits, so they bound the distances of every agent,
 * whose arcs are some of them.  Everything here is sequential and
 * deterministic: the bytes do not depend on the bake's threads. */
#include <stdlib.h>

#include "abstract/abstract_build.h"
#include "core/heap.h"

/* The map's corner k (NBI_LANDMARK_CORNER's order). */
static nb_cell corner_cell(const nbi_alevels *L, uint32_t k)
{
    nb_cell c = {k & 1 ? (int32_t)L->g->width - 1 : 0, k & 2 ? (int32_t)L->g->height - 1 : 0};
    return c;
}

/* Dijkstra over level top's arcs from src, a node, or when src is NBI_LANDMARK_CORNER + k
 * from the nodes of the top level's cluster at corner k, each at its octile distance from
 * the corner: card[v], diag[v] (NBI_LANDMARK_NONE when not reached) and dist[v] (-1 then).
 * 0 without memory, -1 when a count of steps would not fit 32 bits. */
static int dijkstra(const nbi_alevels *L, uint32_t src, nbi_heap *h, uint32_t *card,
                    uint32_t *diag, double *dist)
{
    const uint32_t top = L->nlevels, n = L->lv[top].nnodes;
    for (uint32_t v = 0; v < n; v++) {
        dist[v] = -1;
        card[v] = diag[v] = NBI_LANDMARK_NONE;
    }
    nbi_heap_clear(h);
    uint32_t first = src, count = 1;
    nb_cell corner = {0, 0};
    if (src >= NBI_LANDMARK_CORNER) {
        corner = corner_cell(L, src - NBI_LANDMARK_CORNER);
        count = nbi_lv_nodes(L, top, nbi_lv_cluster(L, top, (uint32_t)corner.x, (uint32_t)corner.y),
                             &first);
    }
    for (uint32_t v = first; v < first + count; v++) {
        uint32_t c = 0, d = 0;
        if (src >= NBI_LANDMARK_CORNER) {
            nb_cell p = nbi_lv_cell(L, nbi_lv_id(L, top, v));
            uint32_t dx = (uint32_t)abs(p.x - corner.x), dy = (uint32_t)abs(p.y - corner.y);
            c = dx > dy ? dx - dy : dy - dx;
            d = dx < dy ? dx : dy;
        }
        card[v] = c;
        diag[v] = d;
        dist[v] = nbi_steps_length(c, d);
        if (!nbi_heap_push(h, dist[v], v, v))
            return 0;
    }
    while (!nbi_heap_empty(h)) {
        nbi_heap_item it = nbi_heap_pop(h);
        uint32_t u = it.id;
        uint32_t a0, a1 = nbi_lv_arcs(L, top, u, &a0);
        for (uint32_t a = a0; a < a1; a++) {
            uint32_t t = nbi_lv_to(L, top, a), wc, wd;
            nbi_lv_w(L, top, a, &wc, &wd);
            double d = dist[u] + nbi_steps_length(wc, wd);
            if (dist[t] >= 0 && d >= dist[t])
                continue;
            if ((uint64_t)card[u] + wc >= NBI_LANDMARK_NONE ||
                (uint64_t)diag[u] + wd >= NBI_LANDMARK_NONE)
                return -1;
            dist[t] = d;
            card[t] = card[u] + wc;
            diag[t] = diag[u] + wd;
            if (!nbi_heap_push(h, d, t, t))
                return 0;
        }
    }
    return 1;
}

/* The node at the largest min[] (a negative one: reached by no landmark yet, first),
 * the lowest numbered among equals. */
static uint32_t farthest(const double *min, uint32_t n)
{
    uint32_t best = 0;
    for (uint32_t v = 1; v < n; v++) {
        double a = min[v], b = min[best];
        if (b >= 0 && (a < 0 || a > b))
            best = v;
    }
    return best;
}

nb_status nbb_landmarks_build(const nbi_alevels *L, uint32_t nl, unsigned version, uint8_t *node,
                              uint8_t *dist, nb_err *err)
{
    const uint32_t n = L->lv[L->nlevels].nnodes;
    if (nl == 0 || n == 0)
        return NB_OK;
    uint32_t *pos = nbb_malloc((size_t)n * sizeof *pos), *card = nbb_malloc((size_t)n * sizeof *card),
             *diag = nbb_malloc((size_t)n * sizeof *diag);
    double *d = nbb_malloc((size_t)n * sizeof *d), *min = nbb_malloc((size_t)n * sizeof *min);
    nbi_heap h;
    int heap = 0, ok = pos && card && diag && d && min;
    if (ok) {
        for (uint32_t v = 0; v < n; v++)
            pos[v] = NBI_HEAP_NONE;
        ok = heap = nbi_heap_init(&h, nbb_mem(), 64, pos);
    }
    /* The map's four corners first (a long query's ends are often near one, where the top
     * level has no node), then each next node farthest from those chosen; with fewer than
     * four, as many corners.  (Version 1 had no corners: its first landmark was the node
     * farthest from node 0.)  min[] starts from node 0's distances, which the first
     * landmark's replace. */
    const uint32_t corners = version >= 2 ? 4 : 0;
    ok = ok ? dijkstra(L, 0, &h, card, diag, min) : 0;
    for (uint32_t i = 0; ok == 1 && i < nl; i++) {
        uint32_t s = i < corners ? NBI_LANDMARK_CORNER + i : farthest(min, n);
        ok = dijkstra(L, s, &h, card, diag, d);
        nbi_put32(node + 4 * (size_t)i, s);
        for (uint32_t v = 0; ok == 1 && v < n; v++) {
            nbi_put32at(dist, 2 * ((size_t)v * nl + i), card[v]);
            nbi_put32at(dist, 2 * ((size_t)v * nl + i) + 1, diag[v]);
            /* min[]: the distance to the landmarks chosen (-1: reached by none); the first
             * pass held node 0's distances, which the first landmark replaces. */
            if (d[v] >= 0 && (i == 0 || min[v] < 0 || d[v] < min[v]))
                min[v] = d[v];
            else if (i == 0)
                min[v] = d[v];
        }
    }
    if (heap)
        nbi_heap_free(&h);
    nbb_free(pos);
    nbb_free(card);
    nbb_free(diag);
    nbb_free(d);
    nbb_free(min);
    if (ok < 0)
        return nbi_fail(err, NB_ERR_LIMIT,
                        "abstract levels: a landmark's distance on level %u has more than 2^32 - 2 "
                        "steps",
                        L->nlevels);
    return ok ? NB_OK : nbi_fail(err, NB_ERR_NOMEM, "no memory for the landmarks");
}
