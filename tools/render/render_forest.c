/* render_forest.c: forests of round obstacles (formats/forest.md) in a
 * world view: the circles, the circles inflated by an agent radius, and a
 * baked bitangent graph (its bitangents, the free arcs its hugging arcs
 * run along, its nodes), read through nb_forest_open, which has checked
 * every section before anything here reads it. */
#include <math.h>

#include "render.h"

void nbr_forest_extent(const nb_forest *f, double radius, double ext[4])
{
    double b[4];
    int have = nb_forest_bounds(f, b);
    size_t n = nb_forest_circle_count(f);
    if (!have) {
        b[0] = b[1] = INFINITY;
        b[2] = b[3] = -INFINITY;
    }
    for (size_t i = 0; i < n; i++) {
        const nb_circle *c = nb_forest_circle_get(f, i);
        double r = c->r + radius;
        b[0] = fmin(b[0], c->x - r);
        b[1] = fmin(b[1], c->y - r);
        b[2] = fmax(b[2], c->x + r);
        b[3] = fmax(b[3], c->y + r);
    }
    if (!(b[0] < b[2]) || !(b[1] < b[3])) {
        /* Nothing at all, or a single point: a unit square round it. */
        double x = isfinite(b[0]) ? b[0] : 0, y = isfinite(b[1]) ? b[1] : 0;
        b[0] = x - 0.5;
        b[1] = y - 0.5;
        b[2] = x + 0.5;
        b[3] = y + 0.5;
    }
    memcpy(ext, b, sizeof b);
}

/* 1 when the disc (x, y, r) may show in the window. */
static int visible(const nbr_view *v, double x, double y, double r)
{
    return x + r >= v->wx0 && x - r <= v->wx0 + v->ww && y + r >= v->wy0 && y - r <= v->wy0 + v->wh;
}

nb_status nbr_draw_forest(nbr_view *v, const nb_forest *f, double radius, nb_err *err)
{
    (void)err;
    size_t n = nb_forest_circle_count(f);
    if (!v->canvas) {
        nbr_legend_add(&v->legend, NBR_ITEM_TITLE, 0, "forest:");
        nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, NBR_FOREST_CIRCLE, "%zu circle%s", n,
                       n == 1 ? "" : "s");
        if (radius > 0)
            nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, NBR_FOREST_INFLATED,
                           "inflated by the agent radius %g", radius);
        return NB_OK;
    }
    nbr_canvas *c = v->canvas;
    double clip[4], b[4];
    nbr_view_clip(v, clip);
    nbr_group(c, "forest", "forest", clip);
    nbr_style ground = nbr_paint(NBR_FOREST_GROUND, NBR_NONE, 0);
    nbr_rect(c, clip[0], clip[1], clip[2], clip[3], &ground);
    if (nb_forest_bounds(f, b)) {
        nbr_style frame = nbr_paint(NBR_NONE, NBR_FOREST_BOUNDS, 1);
        nbr_rect(c, nbr_px(v, b[0]), nbr_py(v, b[3]), (b[2] - b[0]) * v->scale,
                 (b[3] - b[1]) * v->scale, &frame);
    }
    if (radius > 0) {
        nbr_style inflated = nbr_paint(NBR_FOREST_INFLATED, NBR_FOREST_INFLATED, 1);
        inflated.opacity = 0.35;
        for (size_t i = 0; i < n; i++) {
            const nb_circle *ci = nb_forest_circle_get(f, i);
            if (visible(v, ci->x, ci->y, ci->r + radius))
                nbr_circle(c, nbr_px(v, ci->x), nbr_py(v, ci->y), (ci->r + radius) * v->scale,
                           &inflated);
        }
    }
    nbr_style tree = nbr_paint(NBR_FOREST_CIRCLE, NBR_NONE, 0);
    for (size_t i = 0; i < n; i++) {
        const nb_circle *ci = nb_forest_circle_get(f, i);
        if (visible(v, ci->x, ci->y, ci->r))
            nbr_circle(c, nbr_px(v, ci->x), nbr_py(v, ci->y), ci->r * v->scale, &tree);
    }
    nbr_group_end(c);
    return NB_OK;
}

nb_status nbr_draw_bitangent(nbr_view *v, const nb_forest *f, unsigned k, nb_err *err)
{
    nb_forest_graph_info gi;
    nb_status st = nb_forest_graph(f, k, &gi, err);
    if (st != NB_OK)
        return st;
    if (!v->canvas) {
        nbr_legend_add(&v->legend, NBR_ITEM_TITLE, 0, "bitangent graph for the agent radius %g:",
                       gi.agent_radius);
        nbr_legend_add(&v->legend, NBR_ITEM_LINE, NBR_FOREST_BITANGENT, "%u bitangents",
                       gi.transitions);
        nbr_legend_add(&v->legend, NBR_ITEM_LINE, NBR_FOREST_ARC,
                       "%u free arcs (%llu hugging arcs)", gi.free_arcs,
                       (unsigned long long)gi.arcs);
        nbr_legend_add(&v->legend, NBR_ITEM_DOT, NBR_FOREST_BITANGENT, "%u nodes", gi.nodes);
        return NB_OK;
    }
    nbr_canvas *c = v->canvas;
    double clip[4];
    nbr_view_clip(v, clip);
    char title[96];
    snprintf(title, sizeof title, "bitangent graph, agent radius %g", gi.agent_radius);
    nbr_group(c, "bitangent", title, clip);
    /* Free arcs first, under the bitangents that leave them. */
    nbr_style arc = nbr_paint(NBR_NONE, NBR_FOREST_ARC, 2);
    size_t n = nb_forest_circle_count(f);
    for (size_t i = 0; i < n; i++) {
        const nb_circle *ci = nb_forest_circle_get(f, i);
        double r = ci->r + gi.agent_radius; /* inflated */
        if (!visible(v, ci->x, ci->y, r))
            continue;
        size_t na = nbb_forest_free_arcs(f, k, i);
        for (size_t a = 0; a < na; a++) {
            double start, span;
            nbb_forest_free_arc(f, k, i, a, &start, &span);
            nbr_arc(c, nbr_px(v, ci->x), nbr_py(v, ci->y), r * v->scale, nbr_pangle(v, start),
                    nbr_pangle(v, start + span), &arc);
        }
    }
    /* Each bitangent once: from the node whose partner comes after it. */
    nbr_style line = nbr_paint(NBR_NONE, NBR_FOREST_BITANGENT, 1);
    line.opacity = 0.6;
    nbr_style dot = nbr_paint(NBR_FOREST_BITANGENT, NBR_NONE, 0);
    uint32_t nodes = nbb_forest_nodes(f, k);
    for (uint32_t i = 0; i < nodes; i++) {
        nb_vec2 p, q;
        uint32_t j, jj;
        nbb_forest_node(f, k, i, &p, &j);
        if (j > i) {
            nbb_forest_node(f, k, j, &q, &jj);
            nbr_line(c, nbr_px(v, p.x), nbr_py(v, p.y), nbr_px(v, q.x), nbr_py(v, q.y), &line);
        }
    }
    for (uint32_t i = 0; i < nodes; i++) {
        nb_vec2 p;
        uint32_t j;
        nbb_forest_node(f, k, i, &p, &j);
        if (visible(v, p.x, p.y, 0))
            nbr_circle(c, nbr_px(v, p.x), nbr_py(v, p.y), 1.5, &dot);
    }
    nbr_group_end(c);
    return NB_OK;
}
