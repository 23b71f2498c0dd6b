/* bitangent.c: the geometry of Amit Patel's "circular obstacle
 * pathfinding": the four bitangents of a pair of circles (the belt and
 * pulley problems), the tangents from a point, and the hugging arcs that
 * another circle cuts (circle-circle intersection through the radical
 * axis).  All circles are inflated by the agent radius already. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/heap.h"
#include "forest/forest.h"

double nbi_forest_eps(const nb_circle *c, size_t n)
{
    double scale = 1.0;
    for (size_t i = 0; i < n; i++) {
        double s = fabs(c[i].x) + fabs(c[i].y) + c[i].r;
        if (s > scale)
            scale = s;
    }
    return 1e-10 * scale;
}

static double cross(nb_vec2 u, nb_vec2 v) { return u.x * v.y - u.y * v.x; }

/* The sense of a path moving along dir at point p of the circle with
 * centre (cx, cy): counter-clockwise when the centre is on its left. */
static unsigned sense_at(nb_vec2 dir, nb_vec2 p, double cx, double cy)
{
    nb_vec2 to_c = {cx - p.x, cy - p.y};
    return cross(dir, to_c) > 0 ? NBI_CCW : NBI_CW;
}

/* An angle in (-pi, pi]. */
static double wrap(double a)
{
    while (a > NBI_PI)
        a -= NBI_TWO_PI;
    while (a <= -NBI_PI)
        a += NBI_TWO_PI;
    return a;
}

/* The tangent whose normal at A is at angle base + s theta, (ux, uy) the
 * unit vector at angle base and (c, sn) the cosine and sine of theta: the
 * normal is turned by rotation, without calling cos and sin. */
static void put_tangent(nbi_bitangent *t, const nb_circle *a, const nb_circle *b, double base,
                        double ux, double uy, double c, double sn, double theta, int s, int internal)
{
    double ang = base + s * theta;
    double nx = ux * c - s * uy * sn, ny = uy * c + s * ux * sn;
    t->pa = (nb_vec2){a->x + a->r * nx, a->y + a->r * ny};
    t->angle_a = wrap(ang);
    /* An external tangent touches B on the same side as A (the same
     * normal), an internal one on the opposite side. */
    double bx = internal ? -nx : nx, by = internal ? -ny : ny;
    t->pb = (nb_vec2){b->x + b->r * bx, b->y + b->r * by};
    t->angle_b = internal ? wrap(ang + NBI_PI) : t->angle_a;
    nb_vec2 dir = {t->pb.x - t->pa.x, t->pb.y - t->pa.y};
    t->sense_a = sense_at(dir, t->pa, a->x, a->y);
    t->sense_b = sense_at(dir, t->pb, b->x, b->y);
}

int nbi_bitangents(const nb_circle *a, const nb_circle *b, double eps, nbi_bitangent out[4])
{
    double dx = b->x - a->x, dy = b->y - a->y;
    double d = sqrt(dx * dx + dy * dy);
    int k = 0;
    if (d <= eps)
        return 0; /* concentric: one holds the other */
    double phi = atan2(dy, dx), ux = dx / d, uy = dy / d;
    /* External (pulley) tangents: theta = acos(|rA - rB| / d), laid off
     * from the direction A -> B on the side of A nearer B when A is the
     * larger circle, from the far side otherwise.  None when one circle
     * holds the other (the ratio leaves [-1, 1]). */
    double diff = fabs(a->r - b->r);
    if (d > diff + eps) {
        double c = diff / d, sn = sqrt(1 - c * c);
        int near = a->r >= b->r;
        double base = near ? phi : phi + NBI_PI, vx = near ? ux : -ux, vy = near ? uy : -uy;
        double theta = acos(c);
        put_tangent(&out[k++], a, b, base, vx, vy, c, sn, theta, 1, 0);
        put_tangent(&out[k++], a, b, base, vx, vy, c, sn, theta, -1, 0);
    }
    /* Internal (belt) tangents: theta = acos((rA + rB) / d); none when
     * the circles touch or overlap. */
    double sum = a->r + b->r;
    if (d > sum + eps) {
        double c = sum / d, sn = sqrt(1 - c * c);
        double theta = acos(c);
        put_tangent(&out[k++], a, b, phi, ux, uy, c, sn, theta, 1, 1);
        put_tangent(&out[k++], a, b, phi, ux, uy, c, sn, theta, -1, 1);
    }
    return k;
}

int nbi_point_tangents(nb_vec2 p, const nb_circle *c, double eps, nbi_ptangent out[2])
{
    double dx = p.x - c->x, dy = p.y - c->y;
    double d = sqrt(dx * dx + dy * dy);
    if (d < c->r - eps)
        return 0;
    double phi = atan2(dy, dx);
    if (d <= c->r + eps) {
        /* On the circle: the point is its own tangent point, and the path
         * may go round either way. */
        out[0] = (nbi_ptangent){p, phi, NBI_CCW};
        out[1] = (nbi_ptangent){p, phi, NBI_CW};
        return 2;
    }
    /* The radius to a tangent point is square to the tangent: the right triangle with
     * hypotenuse d puts the point theta = acos(r / d) off the direction to p. */
    double cs = c->r / d, sn = sqrt(1 - cs * cs), theta = acos(cs), ux = dx / d, uy = dy / d;
    for (int s = 0; s < 2; s++) {
        double ang = s ? phi - theta : phi + theta, sg = s ? -1 : 1;
        double nx = ux * cs - sg * uy * sn, ny = uy * cs + sg * ux * sn;
        nb_vec2 t = {c->x + c->r * nx, c->y + c->r * ny};
        out[s].p = t;
        out[s].angle = wrap(ang);
        out[s].sense = sense_at((nb_vec2){t.x - p.x, t.y - p.y}, t, c->x, c->y);
    }
    return 2;
}

int nbi_cover(const nb_circle *a, const nb_circle *b, double eps, double *from, double *span)
{
    double dx = b->x - a->x, dy = b->y - a->y;
    double d = hypot(dx, dy);
    if (d + b->r <= a->r + eps)
        return 0; /* b inside a (or the same circle): a's boundary is untouched */
    if (d + a->r <= b->r + eps)
        return 2; /* a inside b */
    if (d >= a->r + b->r + eps)
        return 0; /* apart */
    /* The radical axis meets the line of centres at distance
     * a = (rA^2 - rB^2 + d^2) / 2d from A; the intersections are at
     * +-theta = acos(a / rA) about the direction to B.  Circles that touch
     * (within eps) give theta = 0: one closed point. */
    double ax = (a->r * a->r - b->r * b->r + d * d) / (2 * d);
    double cth = ax / a->r;
    if (cth > 1)
        cth = 1;
    if (cth < -1)
        cth = -1;
    double theta = acos(cth);
    /* Where they touch, a little more than the free arcs' tolerance is
     * closed, so that no node sits on the touching point: a path would
     * squeeze through a gap of width zero there. */
    if (theta < 4 * eps / a->r)
        theta = 4 * eps / a->r;
    *from = atan2(dy, dx) - theta;
    *span = 2 * theta;
    return 1;
}

static int cmp_interval(const void *pa, const void *pb)
{
    const double *a = pa, *b = pb;
    if (a[0] != b[0])
        return a[0] < b[0] ? -1 : 1;
    if (a[1] != b[1])
        return a[1] < b[1] ? -1 : 1;
    return 0;
}

size_t nbi_free_arcs(double *iv, size_t n, int covered_whole, double eps_angle, nbi_free_arc *out)
{
    if (covered_whole)
        return 0;
    if (n == 0) {
        out[0] = (nbi_free_arc){0, NBI_WHOLE_SPAN};
        return 1;
    }
    /* Intervals as (start in [0, 2 pi), end = start + span), sorted. */
    for (size_t i = 0; i < n; i++) {
        if (iv[2 * i + 1] >= NBI_TWO_PI - eps_angle)
            return 0;
        iv[2 * i] = nbi_angle_mod(iv[2 * i]);
        iv[2 * i + 1] = iv[2 * i] + iv[2 * i + 1];
    }
    nbi_sort(iv, n, 2 * sizeof *iv, cmp_interval);
    size_t m = 0;
    for (size_t i = 1; i < n; i++) {
        if (iv[2 * i] <= iv[2 * m + 1] + eps_angle) {
            if (iv[2 * i + 1] > iv[2 * m + 1])
                iv[2 * m + 1] = iv[2 * i + 1];
        } else {
            m++;
            iv[2 * m] = iv[2 * i];
            iv[2 * m + 1] = iv[2 * i + 1];
        }
    }
    m++;
    /* Across angle 0: the last interval may reach round to the first ones
     * (the intervals are disjoint now, so once is enough). */
    if (m > 1 && iv[2 * (m - 1) + 1] + eps_angle >= iv[0] + NBI_TWO_PI) {
        double s = iv[2 * (m - 1)] - NBI_TWO_PI, e = iv[2 * (m - 1) + 1] - NBI_TWO_PI;
        m--;
        iv[0] = s;
        if (e > iv[1])
            iv[1] = e;
        size_t k = 1;
        while (k < m && iv[2 * k] <= iv[1] + eps_angle) {
            if (iv[2 * k + 1] > iv[1])
                iv[1] = iv[2 * k + 1];
            k++;
        }
        if (k > 1) {
            memmove(iv + 2, iv + 2 * k, (m - k) * 2 * sizeof *iv);
            m -= k - 1;
        }
    }
    if (m == 1 && iv[1] - iv[0] >= NBI_TWO_PI - eps_angle)
        return 0;
    /* The free arcs are the gaps between consecutive covered intervals. */
    for (size_t i = 0; i < m; i++) {
        double end = iv[2 * i + 1];
        double next = i + 1 < m ? iv[2 * (i + 1)] : iv[0] + NBI_TWO_PI;
        out[i].start = nbi_angle_mod(end);
        out[i].span = next - end;
        if (out[i].span < 0)
            out[i].span = 0;
    }
    return m;
}

long nbi_free_arc_find(const nbi_free_arc *arcs, size_t n, double a, double eps_angle, double *offset)
{
    for (size_t k = 0; k < n; k++) {
        if (arcs[k].span > NBI_TWO_PI) { /* NBI_WHOLE_SPAN: the whole circle is free */
            *offset = 0;
            return (long)k;
        }
        double o = nbi_angle_mod(a - arcs[k].start);
        if (o <= arcs[k].span + eps_angle) {
            *offset = o < arcs[k].span ? o : arcs[k].span;
            return (long)k;
        }
        if (o >= NBI_TWO_PI - eps_angle) {
            *offset = 0;
            return (long)k;
        }
    }
    return -1;
}

double nbi_sweep(double a, double b, unsigned sense, double eps_angle)
{
    double s = nbi_angle_mod(sense == NBI_CCW ? b - a : a - b);
    return s >= NBI_TWO_PI - eps_angle ? 0 : s;
}

int nbi_arc_fits(const nbi_free_arc *arc, double o, double sweep, unsigned sense, double eps_angle)
{
    if (arc->span > NBI_TWO_PI)
        return 1;
    return sense == NBI_CCW ? sweep <= arc->span - o + eps_angle : sweep <= o + eps_angle;
}

int nbi_segments_cross(nb_vec2 a, nb_vec2 b, nb_vec2 c, nb_vec2 d, double eps)
{
    nb_vec2 ab = {b.x - a.x, b.y - a.y}, cd = {d.x - c.x, d.y - c.y};
    double lab = hypot(ab.x, ab.y), lcd = hypot(cd.x, cd.y);
    if (lab <= eps || lcd <= eps)
        return 0;
    /* Each segment's ends' signed distances from the other's line: a crossing puts them on
     * opposite sides by more than eps (ends that touch the other segment do not cross it). */
    double o1 = cross(ab, (nb_vec2){c.x - a.x, c.y - a.y}) / lab;
    double o2 = cross(ab, (nb_vec2){d.x - a.x, d.y - a.y}) / lab;
    double o3 = cross(cd, (nb_vec2){a.x - c.x, a.y - c.y}) / lcd;
    double o4 = cross(cd, (nb_vec2){b.x - c.x, b.y - c.y}) / lcd;
    return ((o1 > eps && o2 < -eps) || (o1 < -eps && o2 > eps)) &&
           ((o3 > eps && o4 < -eps) || (o3 < -eps && o4 > eps));
}
