/* forest_view.c: a forest's baked bitangent graphs for the tools that
 * draw them (navbake render), read from the graphs nb_forest_open checked. */
#include "bake_int.h"
#include "forest/forest.h"

uint32_t nbb_forest_nodes(const nb_forest *f, unsigned ri)
{
    return ri < f->ngraphs ? f->graph[ri].nodes : 0;
}

void nbb_forest_node(const nb_forest *f, unsigned ri, uint32_t i, nb_vec2 *at, uint32_t *partner)
{
    const uint8_t *p = f->graph[ri].node + (size_t)i * NBI_BITANGENT_NODE;
    at->x = nbi_getf64(p + NBI_BT_N_X);
    at->y = nbi_getf64(p + NBI_BT_N_Y);
    *partner = nbi_get32(p + NBI_BT_N_PARTNER);
}

size_t nbb_forest_free_arcs(const nb_forest *f, unsigned ri, size_t circle)
{
    if (ri >= f->ngraphs || circle >= f->n)
        return 0;
    const nbi_fgraph *g = &f->graph[ri];
    return nbi_u32at(g->afirst, circle + 1) - nbi_u32at(g->afirst, circle);
}

void nbb_forest_free_arc(const nb_forest *f, unsigned ri, size_t circle, size_t k, double *start,
                         double *span)
{
    const nbi_fgraph *g = &f->graph[ri];
    const uint8_t *p = g->arc + (nbi_u32at(g->afirst, circle) + k) * NBI_BITANGENT_ARC;
    *start = nbi_getf64(p + NBI_BT_A_START);
    *span = nbi_getf64(p + NBI_BT_A_SPAN);
    if (*span == NBI_WHOLE_SPAN)
        *span = NBI_TWO_PI;
}
