/* build_graph.c: the abstract graph while it is built (abstract_build.h):
 * a node for each transition cell, found again by its cell, and the edges
 * the entrances and the cluster searches add. */
#include "abstract/abstract_build.h"

uint32_t nbb_ab_node(nbb_agraph_build *ab, int32_t x, int32_t y)
{
    size_t i = (size_t)y * ab->width + (size_t)x;
    if (ab->cell_node[i] >= 0)
        return (uint32_t)ab->cell_node[i];
    if (ab->nnodes >= INT32_MAX ||
        !nbi_grow(NULL, (void **)&ab->node, &ab->node_cap, ab->nnodes + 1, sizeof *ab->node))
        return UINT32_MAX;
    bnode *nd = &ab->node[ab->nnodes];
    nd->x = x;
    nd->y = y;
    nd->cluster = ((uint32_t)y / ab->opt->cluster) * ab->ncx + (uint32_t)x / ab->opt->cluster;
    nd->final = UINT32_MAX;
    nd->alive = 1;
    ab->cell_node[i] = (int32_t)ab->nnodes;
    return (uint32_t)ab->nnodes++;
}

int nbb_ab_edge(nbb_agraph_build *ab, const bedge *e)
{
    if (ab->nedges >= UINT32_MAX / 2 ||
        !nbi_grow(NULL, (void **)&ab->edge, &ab->edge_cap, ab->nedges + 1, sizeof *ab->edge))
        return 0;
    ab->edge[ab->nedges++] = *e;
    return 1;
}
