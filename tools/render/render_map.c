/* render_map.c: the layers that colour every cell: the terrains, a
 * clearance layer as a heat map, the reachability components.  The layers
 * are read in place through the checked layer view (bake.h), one row of
 * the window at a time. */
#include <math.h>
#include <stdlib.h>

#include "render.h"

void nbr_view_clip(const nbr_view *v, double clip[4])
{
    clip[0] = 0;
    clip[1] = 0;
    clip[2] = v->world ? v->ww * v->scale : v->w * v->scale;
    clip[3] = v->world ? v->wh * v->scale : v->h * v->scale;
}

/* What a cell shows where a layer has nothing for it. */
static uint32_t excluded(const nb_bundle *b, long x, long y)
{
    return nb_map_terrain(b, x, y) == NB_OBSTACLE ? NBR_OBSTACLE : NBR_EXCLUDED;
}

/* A layer's cells, value v coloured table[v] (values up to the layer's
 * largest) or by colour(v); 0 or NBR_NONE shows the cell's exclusion. */
static void draw_layer(nbr_view *v, const nbb_layer *l, const char *id, const char *title,
                       const uint32_t *table, uint32_t (*colour)(unsigned long))
{
    nbb_layer_info li;
    nbb_layer_describe(l, &li);
    nbr_group(v->canvas, id, title, NULL);
    nbr_cells_begin(v->canvas, v->ox, v->oy, v->scale, v->w, v->h, 1);
    for (uint32_t y = 0; y < v->h; y++) {
        long my = v->y0 + y;
        for (uint32_t x = 0; x < v->w; x++) {
            long mx = v->x0 + x;
            uint32_t k = nbb_layer_value(l, (uint32_t)mx, (uint32_t)my), rgb = NBR_NONE;
            if (k && table)
                rgb = k <= li.maxval ? table[k] : NBR_NONE;
            else if (k)
                rgb = colour(k);
            v->row[x] = rgb == NBR_NONE ? excluded(v->bundle, mx, my) : rgb;
        }
        nbr_cells_row(v->canvas, v->row);
    }
    nbr_cells_end(v->canvas);
    nbr_group_end(v->canvas);
}

nb_status nbr_draw_terrain(nbr_view *v, nb_err *err)
{
    const nb_bundle *b = v->bundle;
    unsigned nt = nb_terrain_count(b);
    uint32_t colour[NB_MAX_TERRAINS];
    for (unsigned t = 0; t < nt; t++)
        colour[t] = nbr_terrain_colour(nb_terrain_name(b, t), t);
    if (!v->canvas) {
        nbr_legend_add(&v->legend, NBR_ITEM_TITLE, 0, "terrain:");
        for (unsigned t = 0; t < nt; t++)
            nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, colour[t], "%s", nb_terrain_name(b, t));
        nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, NBR_OBSTACLE, "obstacle");
        return NB_OK;
    }
    (void)err;
    nbr_group(v->canvas, "terrain", "terrain", NULL);
    nbr_cells_begin(v->canvas, v->ox, v->oy, v->scale, v->w, v->h, 1);
    for (uint32_t y = 0; y < v->h; y++) {
        for (uint32_t x = 0; x < v->w; x++) {
            int t = nb_map_terrain(b, v->x0 + x, v->y0 + y);
            v->row[x] = t == NB_OBSTACLE ? NBR_OBSTACLE : colour[t];
        }
        nbr_cells_row(v->canvas, v->row);
    }
    nbr_cells_end(v->canvas);
    nbr_group_end(v->canvas);
    return NB_OK;
}

nb_status nbr_draw_clearance(nbr_view *v, nb_capability cap, nb_err *err)
{
    const nb_bundle *b = v->bundle;
    nbb_layer *lv;
    nb_status st = nbb_layer_open_clearance(b, cap, &lv, err);
    if (st != NB_OK)
        return st;
    nbb_layer_info l;
    nbb_layer_describe(lv, &l);
    char capname[256];
    nb_capability_format(b, cap, capname, sizeof capname);
    if (!v->canvas) {
        nbr_legend_add(&v->legend, NBR_ITEM_TITLE, 0, "clearance for %s:", capname);
        for (unsigned c = 1; c <= l.maxval; c++)
            nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, nbr_heat_colour(c, l.maxval),
                           c == l.maxval ? "%u+" : "%u", c);
        nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, NBR_EXCLUDED, "other terrain");
        nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, NBR_OBSTACLE, "obstacle");
        nbb_layer_close(lv);
        return NB_OK;
    }
    uint32_t heat[NB_MAX_AGENT_SIZE + 1];
    heat[0] = NBR_NONE;
    for (unsigned c = 1; c <= l.maxval && c <= NB_MAX_AGENT_SIZE; c++)
        heat[c] = nbr_heat_colour(c, l.maxval);
    char title[300];
    snprintf(title, sizeof title, "clearance %s", capname);
    draw_layer(v, lv, "clearance", title, heat, NULL);
    nbb_layer_close(lv);
    return NB_OK;
}

static int by_count_desc(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    /* count in the high 32 bits, the component's complement in the low:
     * larger first, then the lower number. */
    return (*x < *y) - (*x > *y);
}

nb_status nbr_draw_components(nbr_view *v, nb_capability cap, unsigned size, nb_err *err)
{
    const nb_bundle *b = v->bundle;
    nbb_layer *lv;
    nb_status st = nbb_layer_open_components(b, cap, size, &lv, err);
    if (st != NB_OK)
        return st;
    nbb_layer_info l;
    nbb_layer_describe(lv, &l);
    char capname[256];
    nb_capability_format(b, cap, capname, sizeof capname);
    if (!v->canvas) {
        nbr_legend_add(&v->legend, NBR_ITEM_TITLE, 0, "components for %s, size %u: %u", capname,
                       size, l.maxval);
        /* The largest few, with their sizes, so that a picture of many
         * components still says which is which. */
        uint64_t *count = calloc((size_t)l.maxval + 1, sizeof *count);
        if (!count) {
            nbb_layer_close(lv);
            return nbb_fail(err, NB_ERR_NOMEM, "out of memory");
        }
        for (uint32_t y = 0; y < l.height; y++)
            for (uint32_t x = 0; x < l.width; x++)
                count[nbb_layer_value(lv, x, y)]++;
        for (uint32_t k = 1; k <= l.maxval; k++)
            count[k] = (count[k] << 32) | (0xffffffffu - k);
        qsort(count + 1, l.maxval, sizeof *count, by_count_desc);
        for (uint32_t i = 1; i <= l.maxval && i <= 6; i++) {
            uint32_t k = 0xffffffffu - (uint32_t)count[i];
            nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, nbr_component_colour(k), "#%u: %llu cell%s",
                           k, (unsigned long long)(count[i] >> 32), (count[i] >> 32) == 1 ? "" : "s");
        }
        if (l.maxval > 6)
            nbr_legend_add(&v->legend, NBR_ITEM_TEXT, 0, "(%u more)", l.maxval - 6);
        nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, NBR_EXCLUDED, "cannot stand");
        nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, NBR_OBSTACLE, "obstacle");
        free(count);
        nbb_layer_close(lv);
        return NB_OK;
    }
    char title[300];
    snprintf(title, sizeof title, "components %s size %u", capname, size);
    draw_layer(v, lv, "components", title, NULL, nbr_component_colour);
    nbb_layer_close(lv);
    return NB_OK;
}

void nbr_draw_grid(nbr_view *v)
{
    if (!v->canvas)
        return;
    nbr_style s = nbr_paint(NBR_NONE, NBR_BLACK, 1);
    s.opacity = 0.15;
    double clip[4];
    nbr_view_clip(v, clip);
    nbr_group(v->canvas, "grid", v->world ? "unit grid" : "cell grid", clip);
    if (v->world) {
        /* Lines at whole world units, when they are at least 4 pixels apart. */
        if (v->scale < 4)
            goto end;
        for (double x = ceil(v->wx0); x <= v->wx0 + v->ww; x++)
            nbr_line(v->canvas, nbr_px(v, x), 0, nbr_px(v, x), clip[3], &s);
        for (double y = ceil(v->wy0); y <= v->wy0 + v->wh; y++)
            nbr_line(v->canvas, 0, nbr_py(v, y), clip[2], nbr_py(v, y), &s);
        goto end;
    }
    for (uint32_t x = 1; x < v->w; x++)
        nbr_line(v->canvas, x * v->scale, 0, x * v->scale, v->h * v->scale, &s);
    for (uint32_t y = 1; y < v->h; y++)
        nbr_line(v->canvas, 0, y * v->scale, v->w * v->scale, y * v->scale, &s);
end:
    nbr_group_end(v->canvas);
}
