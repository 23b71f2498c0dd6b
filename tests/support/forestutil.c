/* forestutil.c: see forestutil.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "forestutil.h"

int ft_bake_open(const nb_circle *c, size_t n, const double *bounds, const double *radii,
                 unsigned nr, const char *path, nb_bundle **bundle, nb_forest **forest)
{
    nbb_forest f = {(nb_circle *)c, n, bounds != NULL, {0, 0, 0, 0}};
    if (bounds)
        memcpy(f.bounds, bounds, sizeof f.bounds);
    nbb_builder *b;
    nb_err err;
    nb_status st = nbb_builder_new(&b, &err);
    if (st == NB_OK)
        st = nbb_put_forest(b, &f, radii, nr, 0, NULL, NULL, NULL, &err);
    if (st == NB_OK)
        st = nbb_builder_write(b, path, &err);
    nbb_builder_free(b);
    *bundle = NULL;
    *forest = NULL;
    if (st == NB_OK)
        st = nb_bundle_open(path, NB_OPEN_VERIFY, NULL, bundle, &err);
    if (st == NB_OK)
        st = nb_forest_open(*bundle, forest, &err);
    if (st != NB_OK) {
        diag("baking %zu circles: %s", n, err.msg);
        nb_bundle_close(*bundle);
        *bundle = NULL;
        return 0;
    }
    return 1;
}

double ft_uniform(tu_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * (double)(tu_rand(r) >> 11) / 9007199254740992.0;
}

int ft_free_point(tu_rng *r, const nb_circle *c, size_t n, double agent_radius, double margin,
                  double lo, double hi, nb_vec2 *p)
{
    for (int tries = 0; tries < 10000; tries++) {
        p->x = ft_uniform(r, lo, hi);
        p->y = ft_uniform(r, lo, hi);
        size_t i = 0;
        while (i < n && hypot(p->x - c[i].x, p->y - c[i].y) > c[i].r + agent_radius + margin)
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

static double angle_diff(double a, double b) { return fabs(remainder(a - b, 2 * M_PI)); }

/* A segment's end and final heading worked out here from its fields (not
 * with the library's sampling, which the caller compares with them). */
static void seg_end(const nb_segment *q, nb_vec2 *end, double *heading)
{
    if (q->kind == NB_SEG_ARC) {
        double a = atan2(q->y - q->cy, q->x - q->cx) + q->turn * q->length / q->radius;
        end->x = q->cx + q->radius * cos(a);
        end->y = q->cy + q->radius * sin(a);
        *heading = a + q->turn * M_PI / 2;
    } else {
        end->x = q->x + q->length * cos(q->heading);
        end->y = q->y + q->length * sin(q->heading);
        *heading = q->heading;
    }
}

int ft_path_ok(const nb_forest_result *p, const nb_circle *c, size_t n, double agent_radius,
               double step, double tol, double *clear)
{
    double sum = 0, worst = INFINITY, h = 0;
    nb_vec2 at = p->start;
    if (p->segment_len == 0) {
        diag("a path found has no segments");
        return 0;
    }
    for (size_t i = 0; i < p->segment_len; i++) {
        const nb_segment *q = &p->segments[i];
        if (hypot(q->x - at.x, q->y - at.y) > 1e-7) {
            diag("segment %zu starts at (%g, %g), the path was at (%g, %g)", i, q->x, q->y, at.x,
                 at.y);
            return 0;
        }
        if (q->gear != 1 || !(q->length >= 0) || (q->length == 0 && p->segment_len > 1)) {
            diag("segment %zu: gear %d, length %g", i, q->gear, q->length);
            return 0;
        }
        if (i > 0 && angle_diff(h, q->heading) > 1e-6) {
            diag("segment %zu turns sharply at (%g, %g): heading %g after %g", i, q->x, q->y,
                 q->heading, h);
            return 0;
        }
        if (q->kind == NB_SEG_ARC) {
            /* On its circle, leaving along the tangent in the sense of its turn. */
            double e0 = hypot(q->x - q->cx, q->y - q->cy) - q->radius;
            double a0 = atan2(q->y - q->cy, q->x - q->cx);
            if ((q->turn != 1 && q->turn != -1) || !(q->radius > agent_radius) || fabs(e0) > 1e-7 ||
                angle_diff(q->heading, a0 + q->turn * M_PI / 2) > 1e-9) {
                diag("arc %zu is not on its circle (turn %d, radius %g, off by %g, heading %g at "
                     "angle %g)",
                     i, q->turn, q->radius, e0, q->heading, a0);
                return 0;
            }
        } else if (q->kind != NB_SEG_LINE || q->turn != 0) {
            diag("segment %zu: kind %d, turn %d", i, q->kind, q->turn);
            return 0;
        }
        nb_vec2 end;
        nb_pose e;
        seg_end(q, &end, &h);
        nb_segment_sample(q, q->length, &e);
        if (hypot(e.x - end.x, e.y - end.y) > 1e-9 * (1 + q->length) || angle_diff(e.heading, h) > 1e-9) {
            diag("segment %zu samples to (%g, %g, %g) at its end, not (%g, %g, %g)", i, e.x, e.y,
                 e.heading, end.x, end.y, h);
            return 0;
        }
        sum += q->length;
        at = end;
    }
    if (hypot(at.x - p->goal.x, at.y - p->goal.y) > 1e-7 || fabs(sum - p->length) > 1e-9 * (1 + sum)) {
        diag("the path ends at (%g, %g), not the goal, or its length %.12g is not the sum %.12g",
             at.x, at.y, p->length, sum);
        return 0;
    }
    size_t ns = (size_t)ceil(p->length / step);
    for (size_t k = 0; k <= ns; k++) {
        nb_pose q;
        nb_segments_sample(p->segments, p->segment_len, k == ns ? p->length : (double)k * step, &q);
        for (size_t i = 0; i < n; i++) {
            double d = hypot(q.x - c[i].x, q.y - c[i].y) - (c[i].r + agent_radius);
            if (d < worst)
                worst = d;
            if (d < -tol) {
                diag("at %g along the path, (%.9g, %.9g) is %g inside circle %zu", (double)k * step,
                     q.x, q.y, -d, i);
                return 0;
            }
        }
    }
    if (clear)
        *clear = worst;
    return 1;
}

nb_status ft_outcome(nb_status st, const nb_forest_result *p)
{
    if (st != NB_OK)
        return st;
    return p->status == NB_PATH_FOUND ? NB_OK
           : p->status == NB_PATH_NONE ? NB_ERR_NOTFOUND
                                       : NB_ERR_ARG;
}
