/* render_blocked.c: the cells an overlay blocks (navbake render --block),
 * drawn over the layers as one rectangle per run of blocked cells in a
 * row of the window. */
#include "render.h"

nb_status nbr_draw_blocked(nbr_view *v, const nb_overlay *ov, nb_err *err)
{
    (void)err;
    if (!v->canvas) {
        nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, NBR_BLOCKED, "blocked (--block)");
        return NB_OK;
    }
    nbr_style s = nbr_paint(NBR_BLOCKED, NBR_BLOCKED, 0);
    nbr_group(v->canvas, "blocked", "cells blocked by --block", NULL);
    for (uint32_t y = 0; y < v->h; y++)
        for (uint32_t x = 0; x < v->w;) {
            if (!nb_overlay_blocked(ov, v->x0 + (long)x, v->y0 + (long)y)) {
                x++;
                continue;
            }
            uint32_t x1 = x + 1;
            while (x1 < v->w && nb_overlay_blocked(ov, v->x0 + (long)x1, v->y0 + (long)y))
                x1++;
            nbr_rect(v->canvas, x * v->scale, y * v->scale, (x1 - x) * v->scale, v->scale, &s);
            x = x1;
        }
    nbr_group_end(v->canvas);
    return NB_OK;
}
