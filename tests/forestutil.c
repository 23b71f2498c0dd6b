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
        st = nb_bundle_open(path, NB_OPEN_VERIFY, bundle, &err);
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

static double piece_heading(const nb_forest_piece *q, int at_end)
{
    if (q->kind == NB_FOREST_LINE)
        return atan2(q->to.y - q->from.y, q->to.x - q->from.x);
    double a = q->start_angle + (at_end ? q->sweep : 0);
    return a + (q->sweep >= 0 ? M_PI / 2 : -M_PI / 2);
}

static double angle_diff(double a, double b) { return fabs(remainder(a - b, 2 * M_PI)); }

int ft_path_ok(const nb_forest_path *p, const nb_circle *c, size_t n, double agent_radius,
               double step, double tol, double *clear)
{
    double sum = 0, worst = INFINITY;
    nb_vec2 at = p->start;
    for (size_t i = 0; i < p->npieces; i++) {
        const nb_forest_piece *q = &p->pieces[i];
        if (hypot(q->from.x - at.x, q->from.y - at.y) > 1e-7) {
            diag("piece %zu starts at (%g, %g), the path was at (%g, %g)", i, q->from.x, q->from.y,
                 at.x, at.y);
            return 0;
        }
        if (i > 0 && angle_diff(piece_heading(&p->pieces[i - 1], 1), piece_heading(q, 0)) > 1e-6) {
            diag("piece %zu turns sharply at (%g, %g): heading %g after %g", i, q->from.x, q->from.y,
                 piece_heading(q, 0), piece_heading(&p->pieces[i - 1], 1));
            return 0;
        }
        if (q->kind == NB_FOREST_ARC) {
            double e0 = hypot(q->from.x - q->centre.x, q->from.y - q->centre.y) - q->radius;
            double e1 = hypot(q->to.x - q->centre.x, q->to.y - q->centre.y) - q->radius;
            double el = q->length - q->radius * fabs(q->sweep);
            nb_vec2 end = {q->centre.x + q->radius * cos(q->start_angle + q->sweep),
                           q->centre.y + q->radius * sin(q->start_angle + q->sweep)};
            if (fabs(e0) > 1e-7 || fabs(e1) > 1e-7 || fabs(el) > 1e-9 ||
                hypot(end.x - q->to.x, end.y - q->to.y) > 1e-7) {
                diag("arc %zu is not on its circle (%g, %g, %g, %g)", i, e0, e1, el,
                     hypot(end.x - q->to.x, end.y - q->to.y));
                return 0;
            }
        } else if (fabs(q->length - hypot(q->to.x - q->from.x, q->to.y - q->from.y)) > 1e-9) {
            diag("line %zu has the wrong length", i);
            return 0;
        }
        sum += q->length;
        at = q->to;
    }
    if (hypot(at.x - p->goal.x, at.y - p->goal.y) > 1e-7 || fabs(sum - p->length) > 1e-9 * (1 + sum)) {
        diag("the path ends at (%g, %g), not the goal, or its length %.12g is not the sum %.12g",
             at.x, at.y, p->length, sum);
        return 0;
    }
    size_t ns = (size_t)ceil(p->length / step);
    for (size_t k = 0; k <= ns; k++) {
        nb_vec2 q;
        double h;
        nb_forest_path_sample(p, k == ns ? p->length : (double)k * step, &q, &h);
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
