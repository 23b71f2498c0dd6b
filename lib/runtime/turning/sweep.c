/* sweep.c: the cells a unit touches on its way along a path, exactly.
 *
 * A unit is a disc of diameter width; driving along a segment it sweeps
 * the points within width/2 of it, and touches a cell when the cell's
 * square comes nearer than that: the distance between a square and a line
 * or an arc is computed in closed form, not by sampling, so a corner
 * clipped between two samples is never missed. */
#include <math.h>

#include "turning/sweep.h"

static double point_box(double px, double py, double x0, double y0)
{
    double dx = fmax(fmax(x0 - px, px - (x0 + 1)), 0);
    double dy = fmax(fmax(y0 - py, py - (y0 + 1)), 0);
    return sqrt(dx * dx + dy * dy);
}

static double point_line(double px, double py, double ax, double ay, double bx, double by)
{
    double vx = bx - ax, vy = by - ay, l2 = vx * vx + vy * vy;
    double t = l2 > 0 ? ((px - ax) * vx + (py - ay) * vy) / l2 : 0;
    t = fmin(1, fmax(0, t));
    double ex = px - (ax + t * vx), ey = py - (ay + t * vy);
    return sqrt(ex * ex + ey * ey);
}

/* Liang-Barsky: does the segment meet the closed box? */
static int line_meets_box(double ax, double ay, double bx, double by, double x0, double y0)
{
    double t0 = 0, t1 = 1, dx = bx - ax, dy = by - ay;
    /* a + t (b - a) is inside the box where p[i] t <= q[i] for its left, right, top and
     * bottom edges: each one clips [t0, t1] from below (p < 0) or above (p > 0). */
    double p[4] = {-dx, dx, -dy, dy};
    double q[4] = {ax - x0, x0 + 1 - ax, ay - y0, y0 + 1 - ay};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return 0;
        } else {
            double t = q[i] / p[i];
            if (p[i] < 0) {
                if (t > t1)
                    return 0;
                if (t > t0)
                    t0 = t;
            } else {
                if (t < t0)
                    return 0;
                if (t < t1)
                    t1 = t;
            }
        }
    }
    return 1;
}

static double line_box(const nb_segment *s, double x0, double y0)
{
    double ax = s->x, ay = s->y;
    double bx = ax + s->length * cos(s->heading), by = ay + s->length * sin(s->heading);
    if (line_meets_box(ax, ay, bx, by, x0, y0))
        return 0;
    double d = fmin(point_box(ax, ay, x0, y0), point_box(bx, by, x0, y0));
    for (int i = 0; i < 4; i++)
        d = fmin(d, point_line(x0 + (i & 1), y0 + (i >> 1), ax, ay, bx, by));
    return d;
}

/* An arc as its circle, start angle (seen from the centre), sweep >= 0 and
 * direction. */
struct arc {
    double cx, cy, r, a0, sweep;
    int turn;
};

static void arc_of(const nb_segment *s, struct arc *a)
{
    a->cx = s->cx;
    a->cy = s->cy;
    a->r = s->radius;
    a->turn = s->turn;
    nb_segment_angles(s, &a->a0, &a->sweep);
    a->sweep = fabs(a->sweep);
}

static int in_arc(const struct arc *a, double phi)
{
    double m = nbi_angle_mod(a->turn * (phi - a->a0));
    return m <= a->sweep + 1e-12 || m >= NBI_TWO_PI - 1e-12;
}

static void arc_point(const struct arc *a, double sweep, double *x, double *y)
{
    double phi = a->a0 + a->turn * sweep;
    *x = a->cx + a->r * cos(phi);
    *y = a->cy + a->r * sin(phi);
}

static double point_arc(const struct arc *a, double px, double py, double ex0, double ey0,
                        double ex1, double ey1)
{
    double dx = px - a->cx, dy = py - a->cy, h = sqrt(dx * dx + dy * dy);
    if (h > 0 && in_arc(a, atan2(dy, dx)))
        return fabs(h - a->r);
    double d0 = (px - ex0) * (px - ex0) + (py - ey0) * (py - ey0);
    double d1 = (px - ex1) * (px - ex1) + (py - ey1) * (py - ey1);
    return sqrt(fmin(d0, d1));
}

static double arc_box(const nb_segment *s, double x0, double y0)
{
    struct arc a;
    arc_of(s, &a);
    double ex0, ey0, ex1, ey1;
    arc_point(&a, 0, &ex0, &ey0);
    arc_point(&a, a.sweep, &ex1, &ey1);
    double d = fmin(point_box(ex0, ey0, x0, y0), point_box(ex1, ey1, x0, y0));
    if (d == 0)
        return 0;
    /* Where the circle crosses an edge of the square, inside the arc. */
    for (int e = 0; e < 4; e++) {
        int vertical = e < 2;
        double c = vertical ? x0 + (e & 1) : y0 + (e & 1);
        double off = c - (vertical ? a.cx : a.cy);
        double q = a.r * a.r - off * off;
        if (q < 0)
            continue;
        double w = sqrt(q);
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            double u = (vertical ? a.cy : a.cx) + sgn * w;
            double lo = vertical ? y0 : x0;
            if (u < lo || u > lo + 1)
                continue;
            double px = vertical ? c : u, py = vertical ? u : c;
            if (in_arc(&a, atan2(py - a.cy, px - a.cx)))
                return 0;
        }
    }
    /* Otherwise the nearest pair is a corner and the arc, or an extreme
     * point of the circle (where its tangent is parallel to an edge) and
     * the square. */
    for (int i = 0; i < 4; i++)
        d = fmin(d, point_arc(&a, x0 + (i & 1), y0 + (i >> 1), ex0, ey0, ex1, ey1));
    for (int k = 0; k < 4; k++) {
        double phi = k * NBI_HALF_PI;
        if (in_arc(&a, phi))
            d = fmin(d, point_box(a.cx + a.r * cos(phi), a.cy + a.r * sin(phi), x0, y0));
    }
    return d;
}

double nbi_segment_cell_distance(const nb_segment *s, long x, long y)
{
    if (s->kind == NB_SEG_ARC && s->radius > 0)
        return arc_box(s, (double)x, (double)y);
    return line_box(s, (double)x, (double)y);
}

double nbi_point_cell_distance(double px, double py, long x, long y)
{
    return point_box(px, py, (double)x, (double)y);
}

void nbi_segment_bounds(const nb_segment *s, double *x0, double *y0, double *x1, double *y1)
{
    nb_pose e;
    nb_segment_sample(s, s->length, &e);
    *x0 = fmin(s->x, e.x);
    *x1 = fmax(s->x, e.x);
    *y0 = fmin(s->y, e.y);
    *y1 = fmax(s->y, e.y);
    if (s->kind == NB_SEG_ARC && s->radius > 0) {
        struct arc a;
        arc_of(s, &a);
        for (int k = 0; k < 4; k++)
            if (in_arc(&a, k * NBI_HALF_PI)) {
                double px = a.cx + a.r * cos(k * NBI_HALF_PI), py = a.cy + a.r * sin(k * NBI_HALF_PI);
                *x0 = fmin(*x0, px);
                *x1 = fmax(*x1, px);
                *y0 = fmin(*y0, py);
                *y1 = fmax(*y1, py);
            }
    }
}

/* The segment's bounds, when all its numbers are finite (fmin and fmax
 * would hide a NaN) and the bounds widened by margin lie within
 * +-NBI_SWEEP_MAX_COORD; else 0. */
static int bounded(const nb_segment *s, double margin, double *x0, double *y0, double *x1,
                   double *y1)
{
    if (!isfinite(s->x) || !isfinite(s->y) || !isfinite(s->heading) || !isfinite(s->length) ||
        !isfinite(margin))
        return 0;
    if (s->kind == NB_SEG_ARC && (!isfinite(s->cx) || !isfinite(s->cy) || !isfinite(s->radius)))
        return 0;
    nbi_segment_bounds(s, x0, y0, x1, y1);
    const double m = NBI_SWEEP_MAX_COORD - fabs(margin);
    return *x0 >= -m && *y0 >= -m && *x1 <= m && *y1 <= m;
}

int nbi_segment_within(const nb_segment *s, double w, double h)
{
    double x0, y0, x1, y1;
    return bounded(s, 0, &x0, &y0, &x1, &y1) && x0 >= 0 && y0 >= 0 && x1 < w && y1 < h;
}

int nbi_sweep_cells(const nb_segment *seg, size_t n, double width, nbi_cell_fn fn, void *ctx)
{
    double hw = width / 2, lim = hw - NBI_TOUCH_EPS;
    for (size_t i = 0; i < n; i++) {
        double x0, y0, x1, y1;
        if (!bounded(&seg[i], hw + 1, &x0, &y0, &x1, &y1))
            return NBI_SWEEP_FAR;
        long cx0 = (long)floor(x0 - hw), cx1 = (long)floor(x1 + hw);
        long cy0 = (long)floor(y0 - hw), cy1 = (long)floor(y1 + hw);
        for (long y = cy0; y <= cy1; y++)
            for (long x = cx0; x <= cx1; x++)
                if (nbi_segment_cell_distance(&seg[i], x, y) < lim) {
                    int r = fn(ctx, x, y);
                    if (r)
                        return r;
                }
    }
    return 0;
}

int nbi_disc_cells(double px, double py, double width, nbi_cell_fn fn, void *ctx)
{
    double hw = width / 2, lim = hw - NBI_TOUCH_EPS;
    if (!(fabs(px) + hw + 1 <= NBI_SWEEP_MAX_COORD && fabs(py) + hw + 1 <= NBI_SWEEP_MAX_COORD))
        return NBI_SWEEP_FAR;
    for (long y = (long)floor(py - hw); y <= (long)floor(py + hw); y++)
        for (long x = (long)floor(px - hw); x <= (long)floor(px + hw); x++)
            if (point_box(px, py, (double)x, (double)y) < lim) {
                int r = fn(ctx, x, y);
                if (r)
                    return r;
            }
    return 0;
}
