/* landmarks_link.c: the landmarks the link writes on a world's HAA* graph
 * (NB_SEC_WORLD_LANDMARKS, formats/world.md).  The search above the tiles
 * has only the octile distance as its heuristic; on a street world that
 * lets it expand thousands of nodes of a few hundred arcs each between
 * two far corners.  With each node's distance to a few landmarks, the
 * triangle inequality bounds its distance to the goal far closer (ALT,
 * Goldberg and Harrelson 2005).  The landmarks are the graph's nodes
 * nearest to the world's corners and the middles of its edges, in its
 * largest component, where far queries start and end; the distances run
 * over the arcs taken both ways, so that |d(u) - d(v)| <= c holds on every
 * arc whatever the graph's symmetry (the reader checks it).  Work and
 * memory grow with the world graph's nodes and arcs, not with cells. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"
#include "core/grid.h"
#include "core/heap.h"
#include "world/world.h"

/* The landmarks at the world's corners and the middles of its edges. */
#define ANCHORS 8

typedef struct edge {
    uint32_t to, card, diag;
} edge;

static nb_cell cell_of(const uint8_t *node, uint32_t u)
{
    const uint8_t *q = node + (size_t)u * NBI_WGRAPH_NODE;
    return (nb_cell){(int32_t)nbi_get32(q + NBI_WGRAPH_N_X), (int32_t)nbi_get32(q + NBI_WGRAPH_N_Y)};
}

/* Dijkstra from src over the edges, in (card, diag) steps: ties by node
 * number, so the same bytes on any machine. */
static int dijkstra(uint32_t n, const uint32_t *first, const edge *e, uint32_t src, uint32_t *card,
                    uint32_t *diag, uint8_t *done, uint32_t *pos, nbi_heap *h)
{
    for (uint32_t u = 0; u < n; u++)
        card[u] = diag[u] = NBI_WLMK_NONE, done[u] = 0, pos[u] = NBI_HEAP_NONE;
    nbi_heap_clear(h);
    card[src] = diag[src] = 0;
    if (!nbi_heap_push(h, 0, src, src))
        return 0;
    while (!nbi_heap_empty(h)) {
        uint32_t u = nbi_heap_pop(h).id;
        done[u] = 1;
        for (uint32_t k = first[u]; k < first[u + 1]; k++) {
            uint32_t v = e[k].to, c = card[u] + e[k].card, d = diag[u] + e[k].diag;
            if (done[v])
                continue;
            double l = nbi_steps_length(c, d);
            if (card[v] != NBI_WLMK_NONE && nbi_steps_length(card[v], diag[v]) <= l)
                continue;
            card[v] = c, diag[v] = d;
            if (!nbi_heap_push(h, l, v, v))
                return 0;
        }
    }
    return 1;
}

nb_status nbb_world_landmarks(const uint8_t *wg, uint32_t width, uint32_t height, uint32_t want,
                              uint8_t **out, size_t *len, uint32_t *count, nb_err *err)
{
    *out = NULL;
    uint32_t n = nbi_get32(wg + NBI_WGRAPH_NODES), arcs = nbi_get32(wg + NBI_WGRAPH_ARCS),
             tiles = nbi_get32(wg + NBI_WGRAPH_TILES);
    const uint8_t *node = wg + NBI_WGRAPH_HEADER + 4 * ((size_t)tiles + 1);
    const uint8_t *af = node + (size_t)n * NBI_WGRAPH_NODE, *arc = af + 4 * ((size_t)n + 1);
    uint32_t *first = nbb_calloc((size_t)n + 2, sizeof *first), *card = nbb_malloc((n + 1) * sizeof *card),
             *diag = nbb_malloc((n + 1) * sizeof *diag), *pos = nbb_malloc((n + 1) * sizeof *pos),
             *comp = nbb_malloc((n + 1) * sizeof *comp);
    edge *e = nbb_malloc(2 * ((size_t)arcs + 1) * sizeof *e);
    uint8_t *done = nbb_malloc(n + 1), *p = NULL;
    double *least = NULL; /* per node: its distance to the nearest landmark chosen */
    nbi_heap h;
    memset(&h, 0, sizeof h);
    nb_status st = NB_OK;
    if (!first || !card || !diag || !pos || !comp || !e || !done ||
        !nbi_heap_init(&h, NULL, 1024, pos)) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the landmarks of %u nodes", n);
        goto out;
    }
    /* The arcs both ways, grouped by node. */
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t k = nbi_u32at(af, u); k < nbi_u32at(af, u + 1); k++) {
            first[u + 2]++;
            first[nbi_get32(arc + (size_t)k * NBI_WGRAPH_ARC + NBI_WGRAPH_A_TO) + 2]++;
        }
    for (uint32_t u = 0; u < n; u++)
        first[u + 2] += first[u + 1];
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t k = nbi_u32at(af, u); k < nbi_u32at(af, u + 1); k++) {
            const uint8_t *q = arc + (size_t)k * NBI_WGRAPH_ARC;
            uint32_t v = nbi_get32(q + NBI_WGRAPH_A_TO), c = nbi_get32(q + NBI_WGRAPH_A_CARD),
                     d = nbi_get32(q + NBI_WGRAPH_A_DIAG);
            e[first[u + 1]++] = (edge){v, c, d};
            e[first[v + 1]++] = (edge){u, c, d};
        }
    /* The largest component (by a search from each node not yet reached). */
    uint32_t best = 0, bestn = 0, ncomp = 0;
    for (uint32_t u = 0; u < n; u++)
        comp[u] = UINT32_MAX;
    for (uint32_t s = 0; s < n; s++) {
        if (comp[s] != UINT32_MAX)
            continue;
        uint32_t *stack = pos, top = 0, size = 0; /* pos is free until the searches */
        stack[top++] = s;
        comp[s] = ncomp;
        while (top) {
            uint32_t u = stack[--top];
            size++;
            for (uint32_t k = first[u]; k < first[u + 1]; k++)
                if (comp[e[k].to] == UINT32_MAX)
                    comp[e[k].to] = ncomp, stack[top++] = e[k].to;
        }
        if (size > bestn)
            best = ncomp, bestn = size;
        ncomp++;
    }
    /* The landmarks: the nodes of that component nearest the corners and
     * the middles of the world's edges, each once (the first want of them
     * when the manifest asks for fewer); past those, farthest first: each
     * next one the node of that component whose least distance to the
     * landmarks chosen is largest (ties: the lowest node), so that the
     * landmarks spread over the graph as its distances, not its cells, lay
     * it out.  Each landmark's Dijkstra serves the choice of the next. */
    uint32_t lm[NBI_WLMK_MAX], L = 0, K = want ? want : ANCHORS;
    int32_t W = (int32_t)width - 1, H = (int32_t)height - 1;
    const nb_cell anchor[ANCHORS] = {{0, 0}, {W, H}, {W, 0}, {0, H},
                                     {W / 2, 0}, {W / 2, H}, {0, H / 2}, {W, H / 2}};
    for (uint32_t a = 0; a < ANCHORS && L < K && bestn; a++) {
        uint32_t pick = UINT32_MAX;
        double pd = 0;
        for (uint32_t u = 0; u < n; u++) {
            if (comp[u] != best)
                continue;
            nb_cell c = cell_of(node, u);
            double d = nbi_octile_cells(c.x, c.y, anchor[a].x, anchor[a].y);
            if (pick == UINT32_MAX || d < pd)
                pick = u, pd = d;
        }
        int dup = 0;
        for (uint32_t k = 0; k < L; k++)
            dup |= lm[k] == pick;
        if (!dup)
            lm[L++] = pick;
    }
    /* Room for the landmarks asked for (the anchors alone when none are: the bytes of a
     * world linked before the key); those past the anchors found as the Dijkstras run. */
    uint32_t cap = !want ? L : K < bestn ? K : bestn;
    *len = NBI_WLMK_HEADER + 4 * (size_t)cap + NBI_WLMK_DIST * (size_t)n * cap;
    if (!L || !(p = nbb_calloc(1, *len)) || (cap > L && !(least = nbb_malloc((n + 1) * sizeof *least)))) {
        st = L ? nbi_fail(err, NB_ERR_NOMEM, "no memory for the landmarks of %u nodes", n)
               : NB_ERR_NOTFOUND; /* a graph without nodes: no landmarks */
        goto out;
    }
    for (uint32_t u = 0; least && u < n; u++)
        least[u] = INFINITY;
    nbi_put32(p + NBI_WLMK_CAPABILITY, nbi_get32(wg + NBI_WGRAPH_CAPABILITY));
    nbi_put32(p + NBI_WLMK_SIZE, nbi_get32(wg + NBI_WGRAPH_SIZE));
    nbi_put32(p + NBI_WLMK_NODES, n);
    nbi_put32(p + NBI_WLMK_COUNT, cap);
    uint8_t *dist = p + NBI_WLMK_HEADER + 4 * (size_t)cap;
    for (uint32_t k = 0; k < cap; k++) {
        if (k == L) { /* the next, farthest from those chosen */
            uint32_t pick = UINT32_MAX;
            for (uint32_t u = 0; u < n; u++)
                if (comp[u] == best && (pick == UINT32_MAX || least[u] > least[pick]))
                    pick = u;
            lm[L++] = pick;
        }
        nbi_put32at(p + NBI_WLMK_HEADER, k, lm[k]);
        if (!dijkstra(n, first, e, lm[k], card, diag, done, pos, &h)) {
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the landmarks of %u nodes", n);
            goto out;
        }
        for (uint32_t u = 0; u < n; u++) {
            uint8_t *d = dist + NBI_WLMK_DIST * ((size_t)u * cap + k);
            nbi_put32(d + NBI_WLMK_D_CARD, card[u]);
            nbi_put32(d + NBI_WLMK_D_DIAG, diag[u]);
            if (least && card[u] != NBI_WLMK_NONE) {
                double l = nbi_steps_length(card[u], diag[u]);
                least[u] = l < least[u] ? l : least[u];
            }
        }
    }
    L = cap;
    *out = p;
    *count = L;
    p = NULL;
out:
    if (h.a)
        nbi_heap_free(&h);
    nbb_free(first), nbb_free(card), nbb_free(diag), nbb_free(pos), nbb_free(comp), nbb_free(e), nbb_free(done), nbb_free(p);
    nbb_free(least);
    return st;
}
