/* raster.c: the raster backend, what PNG pictures are made of.  A pixel
 * belongs to a shape when its centre does: no antialiasing, so colours
 * stay exact.  A stroke is the set of pixels within half its width (at
 * least half a pixel) of the line, with round ends and joins; a
 * translucent stroke is gathered in the mask first so that it is blended
 * once where its segments overlap. */
#include <math.h>
#include <stdlib.h>

#include "canvasint.h"

static inline void blend(uint8_t *p, uint32_t rgb, double a)
{
    uint8_t r = (uint8_t)(rgb >> 16), g = (uint8_t)(rgb >> 8), b = (uint8_t)rgb;
    if (a >= 1) {
        p[0] = r;
        p[1] = g;
        p[2] = b;
        return;
    }
    if (a <= 0)
        return;
    p[0] = (uint8_t)lround(p[0] * (1 - a) + r * a);
    p[1] = (uint8_t)lround(p[1] * (1 - a) + g * a);
    p[2] = (uint8_t)lround(p[2] * (1 - a) + b * a);
}

/* The pixels [*lo, *hi) whose centres lie in [a, b), within [min, max). */
static int span(double a, double b, long min, long max, long *lo, long *hi)
{
    if (!(a < b) || !isfinite(a) || !isfinite(b))
        return 0;
    double l = ceil(a - 0.5), h = ceil(b - 0.5);
    *lo = l < (double)min ? min : (long)l;
    *hi = h > (double)max ? max : (long)h;
    return *lo < *hi;
}

static const long *clip_of(const nbr_canvas *c) { return c->clip[c->depth]; }

static void fill_rect(nbr_canvas *c, double x, double y, double w, double h, uint32_t rgb, double a)
{
    const long *cl = clip_of(c);
    long x0, x1, y0, y1;
    if (rgb == NBR_NONE || !span(x, x + w, cl[0], cl[2], &x0, &x1) ||
        !span(y, y + h, cl[1], cl[3], &y0, &y1))
        return;
    for (long py = y0; py < y1; py++) {
        uint8_t *p = c->rgb + ((size_t)py * c->width + (size_t)x0) * 3;
        for (long px = x0; px < x1; px++, p += 3)
            blend(p, rgb, a);
    }
}

void nbr_raster_cells_row(nbr_canvas *c, const uint32_t *rgb)
{
    const nbr_cells_state *cs = &c->cells;
    double y = cs->oy + cs->row * cs->scale;
    for (uint32_t x = 0; x < cs->w;) {
        uint32_t x1 = x + 1;
        while (x1 < cs->w && rgb[x1] == rgb[x])
            x1++;
        fill_rect(c, cs->ox + x * cs->scale, y, (x1 - x) * cs->scale, cs->scale, rgb[x],
                  cs->opacity);
        x = x1;
    }
}

/* ---- the mask: a shape's pixels, blended once ---- */

typedef struct bbox {
    long x0, y0, x1, y1;
} bbox;

static void mask_segment(nbr_canvas *c, double ax, double ay, double bx, double by, double r,
                         bbox *box)
{
    const long *cl = clip_of(c);
    long x0, x1, y0, y1;
    if (!span(fmin(ax, bx) - r, fmax(ax, bx) + r + 1e-9, cl[0], cl[2], &x0, &x1) ||
        !span(fmin(ay, by) - r, fmax(ay, by) + r + 1e-9, cl[1], cl[3], &y0, &y1))
        return;
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy, r2 = r * r + 1e-9;
    for (long py = y0; py < y1; py++) {
        double cy = py + 0.5;
        for (long px = x0; px < x1; px++) {
            double cx = px + 0.5, t = 0;
            if (len2 > 0) {
                t = ((cx - ax) * dx + (cy - ay) * dy) / len2;
                t = t < 0 ? 0 : t > 1 ? 1 : t;
            }
            double ex = ax + t * dx - cx, ey = ay + t * dy - cy;
            if (ex * ex + ey * ey <= r2)
                c->mask[(size_t)py * c->width + (size_t)px] = 1;
        }
    }
    if (x0 < box->x0)
        box->x0 = x0;
    if (y0 < box->y0)
        box->y0 = y0;
    if (x1 > box->x1)
        box->x1 = x1;
    if (y1 > box->y1)
        box->y1 = y1;
}

static void mask_flush(nbr_canvas *c, const bbox *box, uint32_t rgb, double a)
{
    for (long py = box->y0; py < box->y1; py++)
        for (long px = box->x0; px < box->x1; px++) {
            size_t i = (size_t)py * c->width + (size_t)px;
            if (c->mask[i]) {
                c->mask[i] = 0;
                blend(c->rgb + i * 3, rgb, a);
            }
        }
}

static void stroke(nbr_canvas *c, const double *xy, size_t n, int closed, const nbr_style *s)
{
    if (s->stroke == NBR_NONE)
        return;
    double r = s->width / 2 < 0.5 ? 0.5 : s->width / 2;
    bbox box = {(long)c->width, (long)c->height, 0, 0};
    if (n == 1)
        mask_segment(c, xy[0], xy[1], xy[0], xy[1], r, &box);
    for (size_t i = 0; i + 1 < n; i++)
        mask_segment(c, xy[2 * i], xy[2 * i + 1], xy[2 * i + 2], xy[2 * i + 3], r, &box);
    if (closed && n > 2)
        mask_segment(c, xy[2 * n - 2], xy[2 * n - 1], xy[0], xy[1], r, &box);
    if (c->blending) {
        /* Gathered until nbr_blend_end. */
        c->blend_colour = s->stroke;
        long *bb = c->blend_box;
        bb[0] = box.x0 < bb[0] ? box.x0 : bb[0];
        bb[1] = box.y0 < bb[1] ? box.y0 : bb[1];
        bb[2] = box.x1 > bb[2] ? box.x1 : bb[2];
        bb[3] = box.y1 > bb[3] ? box.y1 : bb[3];
        return;
    }
    mask_flush(c, &box, s->stroke, s->opacity);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Even-odd fill: on each pixel row, the spans between pairs of crossings
 * of the row's centre line. */
static void fill_polygon(nbr_canvas *c, const double *xy, size_t n, uint32_t rgb, double a)
{
    if (rgb == NBR_NONE || n < 3)
        return;
    const long *cl = clip_of(c);
    double ymin = xy[1], ymax = xy[1];
    for (size_t i = 1; i < n; i++) {
        ymin = fmin(ymin, xy[2 * i + 1]);
        ymax = fmax(ymax, xy[2 * i + 1]);
    }
    long y0, y1;
    double *xs = malloc(n * sizeof *xs);
    if (!xs || !span(ymin, ymax, cl[1], cl[3], &y0, &y1)) {
        free(xs);
        return;
    }
    for (long py = y0; py < y1; py++) {
        double cy = py + 0.5;
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            size_t j = (i + 1) % n;
            double ay = xy[2 * i + 1], by = xy[2 * j + 1];
            if ((ay <= cy && cy < by) || (by <= cy && cy < ay))
                xs[k++] = xy[2 * i] + (cy - ay) * (xy[2 * j] - xy[2 * i]) / (by - ay);
        }
        qsort(xs, k, sizeof *xs, cmp_double);
        for (size_t i = 0; i + 1 < k; i += 2) {
            long x0, x1;
            if (!span(xs[i], xs[i + 1], cl[0], cl[2], &x0, &x1))
                continue;
            uint8_t *p = c->rgb + ((size_t)py * c->width + (size_t)x0) * 3;
            for (long px = x0; px < x1; px++, p += 3)
                blend(p, rgb, a);
        }
    }
    free(xs);
}

void nbr_raster_blend_end(nbr_canvas *c)
{
    bbox box = {c->blend_box[0], c->blend_box[1], c->blend_box[2], c->blend_box[3]};
    if (c->blend_colour != NBR_NONE)
        mask_flush(c, &box, c->blend_colour, c->blend_opacity);
}

void nbr_raster_rect(nbr_canvas *c, double x, double y, double w, double h, const nbr_style *s)
{
    fill_rect(c, x, y, w, h, s->fill, s->opacity);
    double xy[8] = {x, y, x + w, y, x + w, y + h, x, y + h};
    stroke(c, xy, 4, 1, s);
}

void nbr_raster_polyline(nbr_canvas *c, const double *xy, size_t n, int closed, const nbr_style *s)
{
    if (closed)
        fill_polygon(c, xy, n, s->fill, s->opacity);
    stroke(c, xy, n, closed, s);
}

void nbr_raster_circle(nbr_canvas *c, double cx, double cy, double r, const nbr_style *s)
{
    const long *cl = clip_of(c);
    double hw = s->stroke == NBR_NONE ? 0 : (s->width / 2 < 0.5 ? 0.5 : s->width / 2);
    long x0, x1, y0, y1;
    if (!span(cx - r - hw, cx + r + hw + 1e-9, cl[0], cl[2], &x0, &x1) ||
        !span(cy - r - hw, cy + r + hw + 1e-9, cl[1], cl[3], &y0, &y1))
        return;
    for (long py = y0; py < y1; py++)
        for (long px = x0; px < x1; px++) {
            double dx = px + 0.5 - cx, dy = py + 0.5 - cy, d = sqrt(dx * dx + dy * dy);
            uint8_t *p = c->rgb + ((size_t)py * c->width + (size_t)px) * 3;
            if (s->fill != NBR_NONE && d <= r + 1e-9)
                blend(p, s->fill, s->opacity);
            if (hw > 0 && fabs(d - r) <= hw + 1e-9)
                blend(p, s->stroke, s->opacity);
        }
}

void nbr_raster_text(nbr_canvas *c, double x, double y, double px, uint32_t colour,
                     enum nbr_anchor anchor, const char *text)
{
    unsigned k = nbr_font_scale(px);
    double w = nbr_text_width(px, text);
    double left = anchor == NBR_LEFT ? x : anchor == NBR_MIDDLE ? x - w / 2 : x - w;
    double top = y - 7.0 * k;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++, left += 6.0 * k) {
        uint8_t g[9];
        nbr_glyph(*p, g);
        for (unsigned row = 0; row < 9; row++)
            for (unsigned col = 0; col < 5; col++)
                if (g[row] & (0x10u >> col))
                    fill_rect(c, left + col * k, top + row * k, k, k, colour, 1);
    }
}
