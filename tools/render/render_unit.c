/* render_unit.c: a unit's hit-check table (formats/hitcheck.md) for one
 * start heading, in the table's own window of cells around the origin:
 * how many stored curves (to every neighbour, every end heading) touch
 * each cell, and the curves themselves.  The table is read through the
 * checked view of the unit's sections (bake.h: nbb_hitcheck_open); the
 * curves are rebuilt from each record's word and variant with
 * nb_curve_to_pose. */
#include <math.h>
#include <stdlib.h>

#include "render.h"

/* The ring of cells the unit stands on and may reach. */
#define UNIT_ORIGIN NBR_START
#define UNIT_ENDS 0x404040u

nb_status nbr_unit_window(const nb_bundle *b, const char *unit, unsigned *side, nb_err *err)
{
    nbb_hitcheck *h;
    nb_status st = nbb_hitcheck_open(b, unit, NULL, &h, err);
    if (st == NB_OK) {
        nbb_hitcheck_info hi;
        nbb_hitcheck_describe(h, &hi);
        *side = hi.window;
        nbb_hitcheck_close(h);
    }
    return st;
}

static nb_status open_table(const nbr_view *v, const char *unit, unsigned h0, nb_unit *u,
                            nbb_hitcheck **h, nbb_hitcheck_info *hi, nb_err *err)
{
    nb_status st = nbb_hitcheck_open(v->bundle, unit, u, h, err);
    if (st != NB_OK)
        return st;
    nbb_hitcheck_describe(*h, hi);
    if (h0 >= hi->headings) {
        nbb_hitcheck_close(*h);
        *h = NULL;
        st = nbb_fail(err, NB_ERR_ARG, "unit '%s' has %u headings: --heading %u is not one of them",
                      unit, hi->headings, h0);
    }
    return st;
}

nb_status nbr_draw_hitcheck(nbr_view *v, const char *unit, unsigned h0, nb_err *err)
{
    nb_unit u;
    nbb_hitcheck *h;
    nbb_hitcheck_info hc;
    nb_status st = open_table(v, unit, h0, &u, &h, &hc, err);
    if (st != NB_OK)
        return st;
    unsigned S = hc.window;
    uint32_t *count = calloc((size_t)S * S, sizeof *count), max = 0, curves = 0;
    if (!count) {
        nbb_hitcheck_close(h);
        return nbb_fail(err, NB_ERR_NOMEM, "out of memory");
    }
    for (unsigned h1 = 0; h1 < hc.headings; h1++)
        for (unsigned o = 0; o < hc.neighbourhood; o++) {
            unsigned n = nbb_hitcheck_entry(h, h0, h1, o);
            for (unsigned k = 0; k < n; k++, curves++)
                for (unsigned y = 0; y < S; y++)
                    for (unsigned x = 0; x < S; x++)
                        if (nbb_hitcheck_touches(h, h0, h1, o, k, x, y)) {
                            size_t b = (size_t)y * S + x;
                            max = ++count[b] > max ? count[b] : max;
                        }
        }
    if (!v->canvas) {
        nbr_legend_add(&v->legend, NBR_ITEM_TITLE, 0,
                       "hit-check table of %s (turning radius %g, width %g), start heading %u "
                       "(%g degrees):",
                       u.name, u.radius, u.width, h0, h0 * 360.0 / hc.headings);
        nbr_legend_add(&v->legend, NBR_ITEM_TEXT, 0,
                       "%u curves to %u neighbours x %u end headings; cells touched by", curves,
                       hc.neighbourhood, hc.headings);
        uint32_t shown[5] = {1, (max + 3) / 4, (max + 1) / 2, (3 * max + 3) / 4, max};
        for (int i = 0; i < 5 && max; i++)
            if (i == 0 || shown[i] > shown[i - 1])
                nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, nbr_heat_colour(shown[i], max),
                               "%u curve%s", shown[i], shown[i] == 1 ? "" : "s");
        nbr_legend_add(&v->legend, NBR_ITEM_SWATCH, NBR_UNTOUCHED, "none");
        nbr_legend_add(&v->legend, NBR_ITEM_LINE, UNIT_ORIGIN, "the origin");
        nbr_legend_add(&v->legend, NBR_ITEM_LINE, UNIT_ENDS, "its %u neighbours", hc.neighbourhood);
        free(count);
        nbb_hitcheck_close(h);
        return NB_OK;
    }
    nbr_canvas *c = v->canvas;
    char title[96];
    snprintf(title, sizeof title, "hit-check footprints of %s from heading %u", u.name, h0);
    nbr_group(c, "hitcheck", title, NULL);
    nbr_cells_begin(c, 0, 0, v->scale, S, S, 1);
    for (unsigned y = 0; y < S; y++) {
        for (unsigned x = 0; x < S; x++) {
            uint32_t k = count[(size_t)y * S + x];
            v->row[x] = k ? nbr_heat_colour(k, max) : NBR_UNTOUCHED;
        }
        nbr_cells_row(c, v->row);
    }
    nbr_cells_end(c);
    /* The neighbours' cells framed, the origin's in the start colour. */
    nbr_style ends = nbr_paint(NBR_NONE, UNIT_ENDS, 1), origin = nbr_paint(NBR_NONE, UNIT_ORIGIN, 2);
    double s = v->scale;
    for (unsigned o = 0; o < hc.neighbourhood; o++) {
        int dx, dy;
        nbb_hitcheck_offset(h, o, &dx, &dy);
        nbr_rect(c, nbr_px(v, dx) + 0.5, nbr_py(v, dy) + 0.5, s - 1, s - 1, &ends);
    }
    nbr_rect(c, nbr_px(v, 0) + 1, nbr_py(v, 0) + 1, s - 2, s - 2, &origin);
    nbr_group_end(c);
    free(count);
    nbb_hitcheck_close(h);
    return NB_OK;
}

nb_status nbr_draw_curves(nbr_view *v, const char *unit, unsigned h0, nb_err *err)
{
    nb_unit u;
    nbb_hitcheck *h;
    nbb_hitcheck_info hc;
    nb_status st = open_table(v, unit, h0, &u, &h, &hc, err);
    if (st != NB_OK)
        return st;
    if (!v->canvas) {
        nbr_legend_add(&v->legend, NBR_ITEM_LINE, NBR_BLACK,
                       "the stored curves (arcs of radius %g and lines)", u.radius);
        nbb_hitcheck_close(h);
        return NB_OK;
    }
    nbr_canvas *c = v->canvas;
    nbr_style line = nbr_paint(NBR_NONE, NBR_BLACK, 1);
    line.opacity = 0.25;
    nbr_group(c, "curves", "curves", NULL);
    nb_pose from = {0.5, 0.5, nbb_heading_angle(h0, hc.headings)};
    nb_curve cand[NB_CURVE_MAX_CANDIDATES];
    for (unsigned h1 = 0; h1 < hc.headings; h1++)
        for (unsigned o = 0; o < hc.neighbourhood; o++) {
            unsigned n = nbb_hitcheck_entry(h, h0, h1, o);
            int dx, dy;
            nbb_hitcheck_offset(h, o, &dx, &dy);
            nb_pose to = {dx + 0.5, dy + 0.5, nbb_heading_angle(h1, hc.headings)};
            size_t nc = nb_curve_to_pose(&from, &to, u.radius, cand);
            for (unsigned r = 0; r < n; r++) {
                nbb_hitcheck_curve rec;
                nbb_hitcheck_curve_get(h, h0, h1, o, r, &rec);
                for (size_t k = 0; k < nc; k++) {
                    if (strcmp(cand[k].word, rec.word) != 0 || cand[k].variant != rec.variant)
                        continue;
                    for (unsigned g = 0; g < cand[k].count; g++) {
                        const nb_segment *sg = &cand[k].seg[g];
                        if (sg->kind == NB_SEG_ARC) {
                            double a0 = atan2(sg->y - sg->cy, sg->x - sg->cx);
                            nbr_arc(c, nbr_px(v, sg->cx), nbr_py(v, sg->cy), sg->radius * v->scale,
                                    a0, a0 + sg->turn * sg->length / sg->radius, &line);
                        } else {
                            nbr_line(c, nbr_px(v, sg->x), nbr_py(v, sg->y),
                                     nbr_px(v, sg->x + sg->length * cos(sg->heading)),
                                     nbr_py(v, sg->y + sg->length * sin(sg->heading)), &line);
                        }
                    }
                    break;
                }
            }
        }
    nbr_group_end(c);
    nbb_hitcheck_close(h);
    return NB_OK;
}
