/* agraph_view.c: the HAA* abstract graph for the tools that draw it
 * (navbake render), through the runtime's checked view of the section. */
#include <stdlib.h>

#include "abstract/abstract.h"
#include "bake_int.h"

struct nbb_agraph {
    nbi_agraph g;
};

nb_status nbb_agraph_open(const nb_bundle *b, nbb_agraph **out, nb_err *err)
{
    *out = NULL;
    nbi_agraph g;
    nb_status st = nbi_agraph_find(b, &g, err);
    if (st != NB_OK)
        return st;
    nbb_agraph *v = nbb_malloc(sizeof *v);
    if (!v)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for an abstract graph view");
    v->g = g;
    *out = v;
    return NB_OK;
}

void nbb_agraph_close(nbb_agraph *v) { nbb_free(v); }

void nbb_agraph_describe(const nbb_agraph *v, nbb_agraph_info *info)
{
    const nbi_agraph *g = &v->g;
    info->width = g->width;
    info->height = g->height;
    info->cluster = g->cluster;
    info->ncx = g->ncx;
    info->ncy = g->ncy;
    info->nodes = g->nnodes;
    info->edges = g->nedges;
    info->inter_edges = g->ninter;
    info->arcs = nbi_u32at(g->node_first, g->nnodes);
    info->quality = nbi_quality_name(g->quality);
    info->placement = nbi_placement_name(g->placement);
    info->corner = (nb_corner)g->corner;
    info->paths = (g->flags & NBI_AGRAPH_PATHS) != 0;
}

nb_cell nbb_agraph_node(const nbb_agraph *v, uint32_t u)
{
    nb_cell c = {nbi_u16at(v->g.node_xy, 2 * (size_t)u), nbi_u16at(v->g.node_xy, 2 * (size_t)u + 1)};
    return c;
}

void nbb_agraph_arcs(const nbb_agraph *v, uint32_t u, uint32_t *first, uint32_t *end)
{
    *first = nbi_u32at(v->g.node_first, u);
    *end = nbi_u32at(v->g.node_first, (size_t)u + 1);
}

static uint32_t cluster_of(const nbi_agraph *g, nb_cell c)
{
    return nbi_node_cluster(g, (uint32_t)c.x, (uint32_t)c.y);
}

void nbb_agraph_arc(const nbb_agraph *v, uint32_t u, uint32_t a, nbb_agraph_arc_info *out)
{
    const nbi_agraph *g = &v->g;
    out->to = nbi_u32at(g->arc_to, a);
    out->cardinal = nbi_u16at(g->arc_w, 2 * (size_t)a);
    out->diagonal = nbi_u16at(g->arc_w, 2 * (size_t)a + 1);
    out->capability = nbi_u32at(g->caps, g->arc_ann[2 * (size_t)a]);
    out->clearance = g->arc_ann[2 * (size_t)a + 1];
    out->stored = g->arc_path && nbi_u32at(g->arc_path, a) != NBI_NO_PATH;
    out->inter = cluster_of(g, nbb_agraph_node(v, u)) != cluster_of(g, nbb_agraph_node(v, out->to));
}

int nbb_agraph_admits(const nbb_agraph *v, uint32_t a, nb_capability cap, unsigned size)
{
    const nbi_agraph *g = &v->g;
    nb_capability need = nbi_u32at(g->caps, g->arc_ann[2 * (size_t)a]);
    return (need & ~cap) == 0 && g->arc_ann[2 * (size_t)a + 1] >= size;
}

size_t nbb_agraph_arc_cells(const nbb_agraph *v, uint32_t a, uint32_t u, nb_cell *out)
{
    const nbi_agraph *g = &v->g;
    if (!g->arc_path || nbi_u32at(g->arc_path, a) == NBI_NO_PATH)
        return 0;
    return nbi_agraph_arc_cells(g, a, u, nbi_u32at(g->arc_to, a), out);
}
