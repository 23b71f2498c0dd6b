/* render_motion.c: a slice of a perimeter heuristic table (formats/
 * motion.md) over the map: the cost-to-goal the table gives each cell for
 * one start heading and speed, read through nb_perimeter_lookup. */
#include <math.h>
#include <stdlib.h>

#include "render.h"

/* The cost of every cell of the window (NAN outside the table); returns
 * the largest and counts the approximate look-ups. */
static double slice(const nbr_view *v, const nb_perimeter *t, unsigned heading, unsigned speed,
                    const nb_motion_state *goal, double *cost, size_t *approx)
{
    double max = 0;
    *approx = 0;
    for (uint32_t y = 0; y < v->h; y++)
        for (uint32_t x = 0; x < v->w; x++) {
            nb_motion_state s = {(int32_t)(v->x0 + x), (int32_t)(v->y0 + y), (uint16_t)heading,
                                 (uint16_t)speed};
            double c = NAN;
            int r = nb_perimeter_lookup(t, &s, goal, &c);
            if (r == NB_PERIM_OUTSIDE || !isfinite(c))
                c = NAN;
            else if (c > max)
                max = c;
            *approx += r == NB_PERIM_APPROX;
            cost[(size_t)y * v->w + x] = c;
        }
    return max;
}

nb_status nbr_draw_perimeter(nbr_view *v, const nb_model *m, const nb_perimeter *t,
                             unsigned heading, unsigned speed, const nb_motion_state *goal,
                             nb_err *err)
{
    double *cost = malloc((size_t)v->w * v->h * sizeof *cost);
    if (!cost)
        return nbb_fail(err, NB_ERR_NOMEM, "out of memory");
    size_t approx;
    double max = slice(v, t, heading, speed, goal, cost, &approx);
    if (!v->canvas) {
        char gh[32];
        if (goal->heading == NB_HEADING_ANY)
            snprintf(gh, sizeof gh, "any heading");
        else
            snprintf(gh, sizeof gh, "heading %u", goal->heading);
        nbr_legend_add(&v->legend, NBR_ITEM_TITLE, 0,
                       "perimeter table of %s (%s, radius %u): the cost to the goal (%d, %d), "
                       "stopped at %s, from heading %u at speed %s:",
                       nb_model_name(m), nb_perimeter_layout_name(nb_perimeter_layout_of(t)),
                       nb_perimeter_radius(t), (int)goal->x, (int)goal->y, gh, heading,
                       nb_model_speed_name(m, speed));
        for (int i = 0; i <= 4; i++)
            nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, nbr_heat_fraction(1 - i / 4.0), "%.2f",
                           max * i / 4);
        if (approx)
            nbr_legend_add(&v->legend, NBR_ITEM_TEXT, 0,
                           "(%zu cells approximate: a rotated table between quarter turns)", approx);
        free(cost);
        return NB_OK;
    }
    nbr_canvas *c = v->canvas;
    nbr_group(c, "perimeter", "perimeter table slice", NULL);
    nbr_cells_begin(c, 0, 0, v->scale, v->w, v->h, 1);
    for (uint32_t y = 0; y < v->h; y++) {
        for (uint32_t x = 0; x < v->w; x++) {
            double k = cost[(size_t)y * v->w + x];
            v->row[x] = isnan(k) ? NBR_NONE : nbr_heat_fraction(max > 0 ? 1 - k / max : 1);
        }
        nbr_cells_row(c, v->row);
    }
    nbr_cells_end(c);
    double r = v->scale * 0.35 < 3 ? 3 : v->scale * 0.35;
    nbr_style ring = nbr_paint(NBR_NONE, NBR_GOAL, 2);
    nbr_circle(c, nbr_px(v, goal->x + 0.5), nbr_py(v, goal->y + 0.5), r, &ring);
    nbr_group_end(c);
    free(cost);
    return NB_OK;
}
