/* render_abstract.c: the HAA* abstract graph (formats/abstract.md) over
 * the map: cluster borders, the abstract nodes, intra-edges along their
 * stored cell paths (mkabstract --paths) or else as straight lines between
 * their nodes, inter-edges across borders; optionally only
 * the edges that admit one (capability, size).  Read through the
 * runtime's checked in-place view of the section (nbi_agraph_find). */
#include <stdlib.h>

#include "abstract/abstract.h"
#include "render.h"

/* 1 when arc a's annotation admits the agent: its capability within cap,
 * its clearance at least size. */
static int admits(const nbi_agraph *g, size_t a, nb_capability cap, unsigned size)
{
    unsigned ci = g->arc_ann[2 * a], cv = g->arc_ann[2 * a + 1];
    nb_capability ce = nbi_u32at(g->caps, ci);
    return (ce & ~cap) == 0 && cv >= size;
}

static int is_inter(const nbi_agraph *g, uint32_t u, uint32_t w)
{
    return nbi_node_cluster(g, nbi_u16at(g->node_xy, 2 * u), nbi_u16at(g->node_xy, 2 * u + 1)) !=
           nbi_node_cluster(g, nbi_u16at(g->node_xy, 2 * w), nbi_u16at(g->node_xy, 2 * w + 1));
}

/* Each edge once: from its lower-numbered node, the first of its arcs to
 * that node which the filter admits (edges joining the same two nodes
 * under several annotations are drawn once). */
static void count_edges(const nbi_agraph *g, int filter, nb_capability cap, unsigned size,
                        size_t *intra, size_t *inter, uint8_t *used)
{
    *intra = *inter = 0;
    for (uint32_t u = 0; u < g->nnodes; u++) {
        uint32_t a0 = nbi_u32at(g->node_first, u), a1 = nbi_u32at(g->node_first, u + 1);
        uint32_t drawn = UINT32_MAX; /* arcs are sorted by target */
        for (uint32_t a = a0; a < a1; a++) {
            uint32_t w = nbi_u32at(g->arc_to, a);
            if (w <= u || w == drawn || (filter && !admits(g, a, cap, size)))
                continue;
            drawn = w;
            used[a] = 1;
            if (is_inter(g, u, w))
                (*inter)++;
            else
                (*intra)++;
        }
    }
}

nb_status nbr_draw_abstract(nbr_view *v, int filter, nb_capability cap, unsigned size, nb_err *err)
{
    nbi_agraph g;
    nb_status st = nbi_agraph_find(v->bundle, &g, err);
    if (st != NB_OK)
        return st;
    size_t narcs = nbi_u32at(g.node_first, g.nnodes), intra, inter;
    uint8_t *used = calloc(narcs ? narcs : 1, 1);
    if (!used)
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory");
    count_edges(&g, filter, cap, size, &intra, &inter, used);
    if (!v->canvas) {
        nbr_legend_add(&v->legend, NBR_ITEM_TITLE, 0,
                       "abstract graph: clusters of %u, %s quality: %u nodes, %u edges (%u inter)",
                       g.cluster, nbi_quality_name(g.quality), g.nnodes, g.nedges, g.ninter);
        if (filter) {
            char capname[256];
            nb_capability_format(v->bundle, cap, capname, sizeof capname);
            nbr_legend_add(&v->legend, NBR_ITEM_TEXT, 0, "the edges an agent of %s, size %u may use:",
                           capname, size);
        }
        nbr_legend_add(&v->legend, NBR_ITEM_LINE, NBR_ABSTRACT_INTRA, "%zu intra-edges", intra);
        nbr_legend_add(&v->legend, NBR_ITEM_LINE, NBR_ABSTRACT_INTER, "%zu inter-edges", inter);
        nbr_legend_add(&v->legend, NBR_ITEM_DOT, NBR_ABSTRACT_NODE, "nodes");
        nbr_legend_add(&v->legend, NBR_ITEM_LINE, NBR_ABSTRACT_BORDER, "cluster borders");
        free(used);
        return NB_OK;
    }
    nbr_canvas *c = v->canvas;
    double clip[4], s = v->scale;
    nbr_view_clip(v, clip);
    nbr_group(c, "abstract", "abstract graph", clip);
    /* Borders: the lines x = k N and y = k N inside the window. */
    nbr_style border = nbr_paint(NBR_NONE, NBR_ABSTRACT_BORDER, 1);
    for (uint32_t x = g.cluster; x < g.width; x += g.cluster)
        if ((long)x > v->x0 && (long)x < v->x0 + (long)v->w)
            nbr_line(c, nbr_px(v, x), 0, nbr_px(v, x), clip[3], &border);
    for (uint32_t y = g.cluster; y < g.height; y += g.cluster)
        if ((long)y > v->y0 && (long)y < v->y0 + (long)v->h)
            nbr_line(c, 0, nbr_py(v, y), clip[2], nbr_py(v, y), &border);
    nbr_style intra_st = nbr_paint(NBR_NONE, NBR_ABSTRACT_INTRA, s / 8 < 1 ? 1 : s / 8);
    nbr_style inter_st = nbr_paint(NBR_NONE, NBR_ABSTRACT_INTER, s / 4 < 2 ? 2 : s / 4);
    /* Room for a stored path that visits each cell of its cluster once;
     * a longer one (it cannot be shortest) is drawn as a straight line. */
    size_t room = (size_t)g.cluster * g.cluster;
    nb_cell *cells = NULL;
    double *xy = NULL;
    if (g.arc_path && (!(cells = malloc(room * sizeof *cells)) || !(xy = malloc(2 * room * sizeof *xy)))) {
        free(cells);
        free(used);
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory");
    }
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t u = 0; u < g.nnodes; u++) {
            double ux = nbi_u16at(g.node_xy, 2 * u) + 0.5, uy = nbi_u16at(g.node_xy, 2 * u + 1) + 0.5;
            uint32_t a0 = nbi_u32at(g.node_first, u), a1 = nbi_u32at(g.node_first, u + 1);
            for (uint32_t a = a0; a < a1; a++) {
                uint32_t w = nbi_u32at(g.arc_to, a);
                if (!used[a] || is_inter(&g, u, w) != pass)
                    continue;
                if (!pass && cells && nbi_u32at(g.arc_path, a) != NBI_NO_PATH &&
                    nbi_agraph_arc_steps(&g, a) < room) {
                    size_t np = nbi_agraph_arc_cells(&g, a, u, w, cells);
                    for (size_t k = 0; k < np; k++) {
                        xy[2 * k] = nbr_px(v, cells[k].x + 0.5);
                        xy[2 * k + 1] = nbr_py(v, cells[k].y + 0.5);
                    }
                    nbr_polyline(c, xy, np, 0, &intra_st);
                    continue;
                }
                double wx = nbi_u16at(g.node_xy, 2 * w) + 0.5, wy = nbi_u16at(g.node_xy, 2 * w + 1) + 0.5;
                nbr_line(c, nbr_px(v, ux), nbr_py(v, uy), nbr_px(v, wx), nbr_py(v, wy),
                         pass ? &inter_st : &intra_st);
            }
        }
    nbr_style dot = nbr_paint(NBR_ABSTRACT_NODE, NBR_NONE, 0);
    double r = s * 0.3 < 1.5 ? 1.5 : s * 0.3;
    for (uint32_t u = 0; u < g.nnodes; u++) {
        uint32_t x = nbi_u16at(g.node_xy, 2 * u), y = nbi_u16at(g.node_xy, 2 * u + 1);
        if ((long)x >= v->x0 && (long)x < v->x0 + (long)v->w && (long)y >= v->y0 &&
            (long)y < v->y0 + (long)v->h)
            nbr_circle(c, nbr_px(v, x + 0.5), nbr_py(v, y + 0.5), r, &dot);
    }
    nbr_group_end(c);
    free(cells);
    free(xy);
    free(used);
    return NB_OK;
}
