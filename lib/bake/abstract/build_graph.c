/* build_graph.c: the nodes of a cluster (abstract_build.h): every cell its
 * four borders put a transition on, each once.  They are numbered in the
 * order the whole graph's borders are scanned (the cluster above's lower
 * border, the left one's right border, then its own right and lower
 * borders), which is the order its intra-edge searches run in, so that a
 * cluster computed alone gets the same edges and paths as in a whole bake. */
#include <stdlib.h>

#include "abstract/abstract_build.h"

int nbb_ab_room(void **array, size_t *cap, size_t need, size_t size)
{
    return nbi_grow(nbb_mem(), array, cap, need, size);
}

long nbb_ab_node_at(const ab_cluster *c, uint32_t cell)
{
    size_t lo = 0, hi = c->nnodes;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        uint32_t m = c->node[c->bycell[mid]];
        if (m == cell)
            return c->bycell[mid];
        if (m < cell)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Sorts node numbers by their cells (a cluster has at most its cells). */
static void sort_by_cell(const uint32_t *cell, uint16_t *num, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint16_t v = num[i];
        uint32_t j = i;
        while (j > 0 && cell[num[j - 1]] > cell[v]) {
            num[j] = num[j - 1];
            j--;
        }
        num[j] = v;
    }
}

nb_status nbb_ab_cluster_nodes(nbb_ab *ab, uint32_t k, ab_worker *w, nb_err *err)
{
    ab_cluster *c = &ab->cl[k];
    nbi_box box = nbi_cluster_box(k, ab->ncx, ab->opt->cluster, ab->width, ab->height);
    uint32_t bw = (uint32_t)(box.x1 - box.x0), cells = bw * (uint32_t)(box.y1 - box.y0);
    const ab_border *side[4] = {nbb_ab_above(ab, k), nbb_ab_left(ab, k), nbb_ab_right(ab, k),
                                nbb_ab_below(ab, k)};
    /* Nodes are at most the cluster's cells. */
    if (!nbb_ab_room((void **)&w->num, &w->num_cap, cells, sizeof *w->num))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph");
    uint32_t *node = w->num;
    uint32_t n = 0;
    for (int s = 0; s < 4; s++) {
        const ab_border *bd = side[s];
        for (uint32_t i = 0; bd && i < bd->n; i++) {
            uint32_t cell = s < 2 ? bd->e[i].b : bd->e[i].a;
            uint32_t x = cell % ab->width - (uint32_t)box.x0, y = cell / ab->width - (uint32_t)box.y0;
            uint16_t *at = &w->local[y * bw + x];
            if (!*at) {
                node[n] = cell;
                *at = (uint16_t)++n;
            }
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = node[i] % ab->width - (uint32_t)box.x0, y = node[i] / ab->width - (uint32_t)box.y0;
        w->local[y * bw + x] = 0;
    }
    c->node = nbb_arena_copy(&w->arena, node, n * sizeof *node);
    c->nnodes = n;
    c->bycell = nbb_arena_alloc(&w->arena, (n ? n : 1) * sizeof *c->bycell);
    c->alive = nbb_arena_alloc(&w->arena, n ? n : 1);
    if (!c->node || !c->bycell || !c->alive)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph");
    for (uint32_t i = 0; i < n; i++) {
        c->bycell[i] = (uint16_t)i;
        c->alive[i] = 1;
    }
    sort_by_cell(c->node, c->bycell, n);
    return NB_OK;
}
