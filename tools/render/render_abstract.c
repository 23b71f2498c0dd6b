/* render_abstract.c: the HAA* abstract graph (formats/abstract.md) over
 * the map: cluster borders, the abstract nodes, intra-edges along their
 * stored cell paths (mkabstract --paths) or else as straight lines between
 * their nodes, inter-edges across borders; optionally only
 * the edges that admit one (capability, size).  Read through the checked
 * view of the section (bake.h: nbb_agraph_open). */
#include <stdlib.h>

#include "render.h"

/* Each edge once: from its lower-numbered node, the first of its arcs to
 * that node which the filter admits (edges joining the same two nodes
 * under several annotations are drawn once). */
static void count_edges(const nbb_agraph *g, const nbb_agraph_info *gi, int filter,
                        nb_capability cap, unsigned size, size_t *intra, size_t *inter,
                        uint8_t *used)
{
    *intra = *inter = 0;
    for (uint32_t u = 0; u < gi->nodes; u++) {
        uint32_t a0, a1;
        nbb_agraph_arcs(g, u, &a0, &a1);
        uint32_t drawn = UINT32_MAX; /* arcs are sorted by target */
        for (uint32_t a = a0; a < a1; a++) {
            nbb_agraph_arc_info arc;
            nbb_agraph_arc(g, u, a, &arc);
            if (arc.to <= u || arc.to == drawn || (filter && !nbb_agraph_admits(g, a, cap, size)))
                continue;
            drawn = arc.to;
            used[a] = 1;
            if (arc.inter)
                (*inter)++;
            else
                (*intra)++;
        }
    }
}

nb_status nbr_draw_abstract(nbr_view *v, int filter, nb_capability cap, unsigned size, nb_err *err)
{
    nbb_agraph *g;
    nb_status st = nbb_agraph_open(v->bundle, &g, err);
    if (st != NB_OK)
        return st;
    nbb_agraph_info gi;
    nbb_agraph_describe(g, &gi);
    size_t intra, inter;
    uint8_t *used = calloc(gi.arcs ? gi.arcs : 1, 1);
    if (!used) {
        nbb_agraph_close(g);
        return nbb_fail(err, NB_ERR_NOMEM, "out of memory");
    }
    count_edges(g, &gi, filter, cap, size, &intra, &inter, used);
    if (!v->canvas) {
        nbr_legend_add(&v->legend, NBR_ITEM_TITLE, 0,
                       "abstract graph: clusters of %u, %s quality: %u nodes, %u edges (%u inter)",
                       gi.cluster, gi.quality, gi.nodes, gi.edges, gi.inter_edges);
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
        nbb_agraph_close(g);
        return NB_OK;
    }
    nbr_canvas *c = v->canvas;
    double clip[4], s = v->scale;
    nbr_view_clip(v, clip);
    nbr_group(c, "abstract", "abstract graph", clip);
    /* Borders: the lines x = k N and y = k N inside the window. */
    nbr_style border = nbr_paint(NBR_NONE, NBR_ABSTRACT_BORDER, 1);
    for (uint32_t x = gi.cluster; x < gi.width; x += gi.cluster)
        if ((long)x > v->x0 && (long)x < v->x0 + (long)v->w)
            nbr_line(c, nbr_px(v, x), 0, nbr_px(v, x), clip[3], &border);
    for (uint32_t y = gi.cluster; y < gi.height; y += gi.cluster)
        if ((long)y > v->y0 && (long)y < v->y0 + (long)v->h)
            nbr_line(c, 0, nbr_py(v, y), clip[2], nbr_py(v, y), &border);
    nbr_style intra_st = nbr_paint(NBR_NONE, NBR_ABSTRACT_INTRA, s / 8 < 1 ? 1 : s / 8);
    nbr_style inter_st = nbr_paint(NBR_NONE, NBR_ABSTRACT_INTER, s / 4 < 2 ? 2 : s / 4);
    /* Room for a stored path that visits each cell of its cluster once;
     * a longer one (it cannot be shortest) is drawn as a straight line. */
    size_t room = (size_t)gi.cluster * gi.cluster;
    nb_cell *cells = NULL;
    double *xy = NULL;
    if (gi.paths && (!(cells = malloc(room * sizeof *cells)) || !(xy = malloc(2 * room * sizeof *xy)))) {
        free(cells);
        free(used);
        nbb_agraph_close(g);
        return nbb_fail(err, NB_ERR_NOMEM, "out of memory");
    }
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t u = 0; u < gi.nodes; u++) {
            nb_cell cu = nbb_agraph_node(g, u);
            double ux = cu.x + 0.5, uy = cu.y + 0.5;
            uint32_t a0, a1;
            nbb_agraph_arcs(g, u, &a0, &a1);
            for (uint32_t a = a0; a < a1; a++) {
                nbb_agraph_arc_info arc;
                nbb_agraph_arc(g, u, a, &arc);
                if (!used[a] || arc.inter != pass)
                    continue;
                if (!pass && cells && arc.stored && (size_t)arc.cardinal + arc.diagonal < room) {
                    size_t np = nbb_agraph_arc_cells(g, a, u, cells);
                    for (size_t k = 0; k < np; k++) {
                        xy[2 * k] = nbr_px(v, cells[k].x + 0.5);
                        xy[2 * k + 1] = nbr_py(v, cells[k].y + 0.5);
                    }
                    nbr_polyline(c, xy, np, 0, &intra_st);
                    continue;
                }
                nb_cell cw = nbb_agraph_node(g, arc.to);
                nbr_line(c, nbr_px(v, ux), nbr_py(v, uy), nbr_px(v, cw.x + 0.5),
                         nbr_py(v, cw.y + 0.5), pass ? &inter_st : &intra_st);
            }
        }
    nbr_style dot = nbr_paint(NBR_ABSTRACT_NODE, NBR_NONE, 0);
    double r = s * 0.3 < 1.5 ? 1.5 : s * 0.3;
    for (uint32_t u = 0; u < gi.nodes; u++) {
        nb_cell cu = nbb_agraph_node(g, u);
        if ((long)cu.x >= v->x0 && (long)cu.x < v->x0 + (long)v->w && (long)cu.y >= v->y0 &&
            (long)cu.y < v->y0 + (long)v->h)
            nbr_circle(c, nbr_px(v, cu.x + 0.5), nbr_py(v, cu.y + 0.5), r, &dot);
    }
    nbr_group_end(c);
    free(cells);
    free(xy);
    free(used);
    nbb_agraph_close(g);
    return NB_OK;
}
