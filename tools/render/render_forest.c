/* render_forest.c: forests of round obstacles (formats/forest.md) in a
 * world view: the circles, the circles inflated by an agent radius, and a
 * baked bitangent graph (its bitangents, the free arcs its hugging arcs
 * run along, its nodes), read through nb_forest_open, which has checked
 * every section before anything here reads it. */
#include <math.h>

#include "forest/forest.h"
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
        const nb_circle *c = nb_forest_circle(f, i);
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
            const nb_circle *ci = nb_forest_circle(f, i);
            if (visible(v, ci->x, ci->y, ci->r + radius))
                nbr_circle(c, nbr_px(v, ci->x), nbr_py(v, ci->y), (ci->r + radius) * v->scale,
                           &inflated);
        }
    }
    nbr_style tree = nbr_paint(NBR_FOREST_CIRCLE, NBR_NONE, 0);
    for (size_t i = 0; i < n; i++) {
        const nb_circle *ci = nb_forest_circle(f, i);
        if (visible(v, ci->x, ci->y, ci->r))
            nbr_circle(c, nbr_px(v, ci->x), nbr_py(v, ci->y), ci->r * v->scale, &tree);
    }
    nbr_group_end(c);
    return NB_OK;
}

nb_status nbr_draw_bitangent(nbr_view *v, const nb_forest *f, unsigned k, nb_err *err)
{
    if (k >= f->ngraphs)
        return nbi_fail(err, NB_ERR_NOTFOUND, "no bitangent graph %u: the forest has %u", k,
                        f->ngraphs);
    const nbi_fgraph *g = &f->graph[k];
    if (!v->canvas) {
        nbr_legend_add(&v->legend, NBR_ITEM_TITLE, 0, "bitangent graph for the agent radius %g:",
                       g->info.agent_radius);
        nbr_legend_add(&v->legend, NBR_ITEM_LINE, NBR_FOREST_BITANGENT, "%u bitangents",
                       g->info.transitions);
        nbr_legend_add(&v->legend, NBR_ITEM_LINE, NBR_FOREST_ARC,
                       "%u free arcs (%llu hugging arcs)", g->info.free_arcs,
                       (unsigned long long)g->info.arcs);
        nbr_legend_add(&v->legend, NBR_ITEM_DOT, NBR_FOREST_BITANGENT, "%u nodes", g->info.nodes);
        return NB_OK;
    }
    nbr_canvas *c = v->canvas;
    double clip[4];
    nbr_view_clip(v, clip);
    char title[96];
    snprintf(title, sizeof title, "bitangent graph, agent radius %g", g->info.agent_radius);
    nbr_group(c, "bitangent", title, clip);
    /* Free arcs first, under the bitangents that leave them. */
    nbr_style arc = nbr_paint(NBR_NONE, NBR_FOREST_ARC, 2);
    size_t n = nb_forest_circle_count(f);
    for (size_t i = 0; i < n; i++) {
        const nb_circle *ci = &g->infl[i];
        if (!visible(v, ci->x, ci->y, ci->r))
            continue;
        uint32_t a0 = nbi_get32(g->afirst + 4 * i), a1 = nbi_get32(g->afirst + 4 * (i + 1));
        for (uint32_t a = a0; a < a1; a++) {
            double start = nbi_getf64(g->arc + (size_t)a * NBI_BITANGENT_ARC);
            double span = nbi_getf64(g->arc + (size_t)a * NBI_BITANGENT_ARC + 8);
            if (span == NBI_WHOLE_SPAN)
                span = NBI_TWO_PI;
            nbr_arc(c, nbr_px(v, ci->x), nbr_py(v, ci->y), ci->r * v->scale,
                    nbr_pangle(v, start), nbr_pangle(v, start + span), &arc);
        }
    }
    /* Each bitangent once: from the node whose partner comes after it. */
    nbr_style line = nbr_paint(NBR_NONE, NBR_FOREST_BITANGENT, 1);
    line.opacity = 0.6;
    nbr_style dot = nbr_paint(NBR_FOREST_BITANGENT, NBR_NONE, 0);
    for (uint32_t i = 0; i < g->nodes; i++) {
        const uint8_t *p = g->node + (size_t)i * NBI_BITANGENT_NODE;
        uint32_t j = nbi_get32(p + 24);
        double x = nbi_getf64(p), y = nbi_getf64(p + 8);
        if (j > i) {
            const uint8_t *q = g->node + (size_t)j * NBI_BITANGENT_NODE;
            nbr_line(c, nbr_px(v, x), nbr_py(v, y), nbr_px(v, nbi_getf64(q)),
                     nbr_py(v, nbi_getf64(q + 8)), &line);
        }
    }
    for (uint32_t i = 0; i < g->nodes; i++) {
        const uint8_t *p = g->node + (size_t)i * NBI_BITANGENT_NODE;
        double x = nbi_getf64(p), y = nbi_getf64(p + 8);
        if (visible(v, x, y, 0))
            nbr_circle(c, nbr_px(v, x), nbr_py(v, y), 1.5, &dot);
    }
    nbr_group_end(c);
    return NB_OK;
}
