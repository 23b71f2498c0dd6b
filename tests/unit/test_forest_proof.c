/* test_forest_proof.c: the proofs that the forest searches return
 * shortest paths that keep clear.
 *
 *  1. On random forests (circles apart, overlapping, nested, and pairs
 *     made to touch exactly), the baked search and the deferred search
 *     agree on every query (found or not, and the length), with and
 *     without pruning crossing transitions, and after a program changes
 *     its forest; every path joins up with no cusp, and sampled finely it
 *     keeps out of every inflated circle.
 *  2. Lengths are optimal: an independent search on polygons (a
 *     visibility graph over the polygons' corners, then Dijkstra) brackets
 *     them.  Polygons inscribed in the inflated circles are smaller
 *     obstacles, so their shortest path is a lower bound; circumscribed
 *     ones are larger, so theirs is an upper bound; with many corners the
 *     bracket closes on the exact length. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "forestutil.h"

#define MAXC 40

/* ---- random forests ---- */

/* n circles with integer centres in [0, 40] and radii in halves; with
 * touch, some are placed to touch another exactly once inflated by
 * agent (3-4-5 triangles keep every number exact).  With ring, eight
 * more close a hollow round *ring (whose centre is free). */
static size_t random_forest(tu_rng *r, nb_circle *c, int touch, double agent, nb_vec2 *ring)
{
    static const int dirs[][2] = {{3, 4}, {4, 3}, {-3, 4}, {-4, -3}, {5, 0}, {0, -5}, {4, -3}, {-3, -4}};
    size_t n = 6 + tu_below(r, 14);
    for (size_t i = 0; i < n; i++) {
        c[i].x = tu_below(r, 41);
        c[i].y = tu_below(r, 41);
        c[i].r = 0.5 * (2 + tu_below(r, 9));
        if (touch && i > 0 && tu_below(r, 2)) {
            const nb_circle *a = &c[tu_below(r, (uint32_t)i)];
            const int *d = dirs[tu_below(r, 8)];
            double s = 1 + tu_below(r, 2), dist = 5 * s;
            c[i].x = a->x + s * d[0];
            c[i].y = a->y + s * d[1];
            double ra = a->r + agent;
            /* Outside touching (rA + rB = d), or inside (|rA - rB| = d). */
            double rb = tu_below(r, 3) ? dist - ra : ra + dist;
            if (tu_below(r, 5) == 0 && ra - dist > 0)
                rb = ra - dist;
            c[i].r = rb - agent;
            if (!(c[i].r > 0))
                c[i].r = 0.5 * (2 + tu_below(r, 9));
        }
    }
    if (ring) {
        *ring = (nb_vec2){5 + tu_below(r, 31), 5 + tu_below(r, 31)};
        for (int i = 0; i < 8; i++)
            c[n++] = (nb_circle){ring->x + 5 * cos(i * M_PI / 4), ring->y + 5 * sin(i * M_PI / 4), 2.5};
    }
    return n;
}

static int same_length(double a, double b) { return fabs(a - b) <= 1e-9 * (1 + fabs(b)); }


struct tally {
    int touching, overlapping, nested;
    int queries, found, none, disagree, bad_paths, prune_differs, plain_differs;
    size_t pruned, expanded_baked, expanded_deferred;
    size_t most_segments; /* the longest path found, in segments */
    double worst_clear;
};

/* Baked and deferred on one forest, nq random queries. */
static void compare(tu_rng *r, const nb_circle *c, size_t n, const double *radii, unsigned nr,
                    int nq, double lo, double hi, const nb_vec2 *from, struct tally *t,
                    nb_forest_ws *ws)
{
    nb_bundle *b;
    nb_forest *f, *g;
    nb_err err;
    if (!ft_bake_open(c, n, NULL, radii, nr, tu_path(tu_tmpdir(), "r.nbk"), &b, &f)) {
        t->disagree++;
        return;
    }
    nb_forest_open_circles(c, n, NULL, NULL, &g, &err);
    for (int q = 0; q < nq; q++) {
        unsigned k = tu_below(r, nr);
        double a = radii[k];
        nb_vec2 s, e;
        if (!ft_free_point(r, c, n, a, 1e-3, lo, hi, &s) || !ft_free_point(r, c, n, a, 1e-3, lo, hi, &e))
            continue;
        if (from && q == 0)
            s = *from; /* the hollow of a ring */
        nb_forest_result pb, pd;
        nb_status sb = ft_outcome(tu_forest_find(f, nb_forest_radius_get(f, k), s, e, 0, ws, &pb, &err), &pb);
        double lb = pb.length;
        size_t eb = pb.expanded;
        t->pruned += pb.pruned;
        int path_ok = sb != NB_OK || ft_path_ok(&pb, c, n, a, 0.02, 1e-7, NULL);
        tu_forest_find(f, nb_forest_radius_get(f, k), s, e, NB_FOREST_NO_PRUNE, ws, &pb, &err);
        double lnp = pb.length;
        /* The article's scheme as it stands gives the same lengths too. */
        tu_forest_find(f, nb_forest_radius_get(f, k), s, e, NB_FOREST_PLAIN, ws, &pb, &err);
        if (sb == NB_OK && !same_length(lb, pb.length))
            t->plain_differs++;
        tu_forest_find(g, a, s, e, (NB_FOREST_PLAIN | NB_FOREST_NO_PRUNE) | NB_FOREST_DEFERRED, ws, &pb, &err);
        if (sb == NB_OK && !same_length(lb, pb.length))
            t->plain_differs++;
        nb_status sd = ft_outcome(tu_forest_find(g, a, s, e, NB_FOREST_DEFERRED, ws, &pd, &err), &pd);
        double clear = INFINITY;
        path_ok &= sd != NB_OK || ft_path_ok(&pd, c, n, a, 0.02, 1e-7, &clear);
        t->queries++;
        if (sb != sd || (sb == NB_OK && !same_length(lb, pd.length))) {
            if (t->disagree++ < 5)
                diag("radius %g, (%.17g, %.17g) -> (%.17g, %.17g): baked %s %.12f, deferred %s %.12f", a,
                     s.x, s.y, e.x, e.y, nb_status_str(sb), lb, nb_status_str(sd), pd.length);
        }
        if (sb == NB_OK && !same_length(lb, lnp))
            t->prune_differs++;
        if (!path_ok)
            t->bad_paths++;
        if (sb == NB_OK) {
            t->found++;
            t->expanded_baked += eb;
            t->expanded_deferred += pd.expanded;
            if (pd.segment_len > t->most_segments)
                t->most_segments = pd.segment_len;
            if (clear < t->worst_clear)
                t->worst_clear = clear;
        } else {
            t->none += sb == NB_ERR_NOTFOUND;
        }
    }
    nb_forest_close(g);
    nb_forest_close(f);
    nb_bundle_close(b);
}

static void test_baked_equals_deferred(nb_forest_ws *ws)
{
    tu_rng r = {0xf0e57};
    for (int touch = 0; touch < 2; touch++) {
        struct tally t = {0};
        t.worst_clear = INFINITY;
        for (int i = 0; i < 40; i++) {
            nb_circle c[MAXC];
            nb_vec2 ring;
            int with_ring = i % 4 == 0;
            double agent = touch ? 0.5 * tu_below(&r, 3) : 0;
            size_t n = random_forest(&r, c, touch, agent, with_ring ? &ring : NULL);
            for (size_t j = 0; j < n - (with_ring ? 8 : 0) && with_ring; j++)
                if (hypot(ring.x - c[j].x, ring.y - c[j].y) < c[j].r + 2.5)
                    with_ring = 0; /* the hollow is not free */
            double radii[3] = {agent, 0.75, 2};
            if (radii[1] == agent)
                radii[1] = 1.25;
            if (radii[2] == agent)
                radii[2] = 2.5;
            for (size_t a = 0; a < n; a++)
                for (size_t b2 = a + 1; b2 < n; b2++) {
                    double d = hypot(c[a].x - c[b2].x, c[a].y - c[b2].y);
                    double ra = c[a].r + agent, rb = c[b2].r + agent;
                    t.touching += d == ra + rb || (d > 0 && d == fabs(ra - rb));
                    t.overlapping += d < ra + rb && d > fabs(ra - rb);
                    t.nested += d < fabs(ra - rb);
                }
            compare(&r, c, n, radii, touch ? 1 : 3, 15, -5, 45, with_ring ? &ring : NULL, &t, ws);
        }
        const char *what = touch ? "forests with touching and nested pairs" : "random forests";
        is_int(t.disagree, 0, "%s: baked = deferred on %d queries (%d found, %d without a path)", what,
               t.queries, t.found, t.none);
        ok(t.found > t.queries / 2 && t.none > 0, "%s: most queries have a path, some none", what);
        ok(!touch || (t.touching > 20 && t.nested > 5),
           "%s: %d pairs touch exactly, %d overlap, %d nest", what, t.touching, t.overlapping, t.nested);
        is_int(t.bad_paths, 0, "%s: every path joins up without a cusp and keeps clear (closest %.2g)",
               what, t.worst_clear);
        ok(t.most_segments > 2 * NB_CURVE_MAX_SEGMENTS,
           "%s: paths of up to %zu segments, sampled through nb_segments_sample", what,
           t.most_segments);
        is_int(t.prune_differs, 0, "%s: pruning crossing transitions changes no length (%zu pruned)",
               what, t.pruned);
        is_int(t.plain_differs, 0, "%s: nor does the article's plain scheme", what);
        diag("%s: states expanded, baked %zu, deferred %zu", what, t.expanded_baked,
             t.expanded_deferred);
    }

    /* The sample forest, both baked radii. */
    nbb_forest f;
    nb_err err;
    if (nbb_forest_read(tu_src("data/forest.yaml"), &f, &err) == NB_OK) {
        struct tally t = {0};
        t.worst_clear = INFINITY;
        double radii[2] = {0, 1};
        compare(&r, f.circles, f.n, radii, 2, 200, 0, 100, NULL, &t, ws);
        is_int(t.disagree + t.bad_paths + t.prune_differs, 0,
               "data/forest.yaml: baked = deferred, clear paths, on %d queries", t.queries);
        nbb_forest_free(&f);
    } else {
        ok(0, "data/forest.yaml: %s", err.msg);
    }

    /* A forest the program changes: the deferred search on it equals a
     * bake of the changed forest. */
    nb_circle c[MAXC];
    size_t n = random_forest(&r, c, 0, 0, NULL);
    nb_forest *g;
    nb_forest_open_circles(c, n, NULL, NULL, &g, &err);
    nb_forest_set_circle(g, 0, (nb_circle){20, 20, 6}, &err);
    nb_forest_add_circle(g, (nb_circle){10, 30, 3}, &err);
    nb_forest_remove_circle(g, 1, &err);
    size_t m = nb_forest_circle_count(g);
    nb_circle d[MAXC];
    for (size_t i = 0; i < m; i++)
        d[i] = *nb_forest_circle_get(g, i);
    nb_bundle *b;
    nb_forest *baked;
    int same = 1, tried = 0;
    double radius[1] = {0.5};
    if (ft_bake_open(d, m, NULL, radius, 1, tu_path(tu_tmpdir(), "c.nbk"), &b, &baked)) {
        for (int q = 0; q < 50; q++) {
            nb_vec2 s, e;
            if (!ft_free_point(&r, d, m, 0.5, 1e-3, -5, 45, &s) || !ft_free_point(&r, d, m, 0.5, 1e-3, -5, 45, &e))
                continue;
            nb_forest_result p1, p2;
            nb_status s1 = ft_outcome(tu_forest_find(g, 0.5, s, e, NB_FOREST_DEFERRED, ws, &p1, &err), &p1);
            double l1 = p1.length;
            nb_status s2 = ft_outcome(tu_forest_find(baked, nb_forest_radius_get(baked, 0), s, e, 0, ws, &p2, &err), &p2);
            same &= s1 == s2 && (s1 != NB_OK || same_length(l1, p2.length));
            tried++;
        }
        nb_forest_close(baked);
        nb_bundle_close(b);
    }
    ok(same && tried > 40, "a forest changed at run time: deferred = a fresh bake (%d queries)", tried);
    nb_forest_close(g);
}

/* ---- the polygon bracket ---- */

typedef struct poly {
    nb_vec2 centre;
    double rad; /* of its corners */
    int k;
    nb_vec2 *v; /* k corners, counter-clockwise */
} poly;

static double cross3(nb_vec2 o, nb_vec2 a, nb_vec2 b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/* Whether segment pq passes through the interior of the convex polygon
 * (clipped by Cyrus and Beck; the middle of the part inside is in the
 * interior exactly when any point of the segment is). */
static int through(const poly *P, nb_vec2 p, nb_vec2 q)
{
    nb_vec2 d = {q.x - p.x, q.y - p.y};
    /* Far from the polygon: no. */
    double dd = d.x * d.x + d.y * d.y;
    double u = dd > 0 ? ((P->centre.x - p.x) * d.x + (P->centre.y - p.y) * d.y) / dd : 0;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    if (hypot(p.x + u * d.x - P->centre.x, p.y + u * d.y - P->centre.y) >= P->rad)
        return 0;
    double te = 0, tl = 1;
    for (int j = 0; j < P->k; j++) {
        nb_vec2 a = P->v[j], b = P->v[(j + 1) % P->k];
        nb_vec2 nrm = {b.y - a.y, -(b.x - a.x)}; /* outward */
        double num = nrm.x * (p.x - a.x) + nrm.y * (p.y - a.y), den = nrm.x * d.x + nrm.y * d.y;
        if (den == 0) {
            if (num >= 0)
                return 0;
            continue;
        }
        double t = -num / den;
        if (den < 0)
            te = t > te ? t : te;
        else
            tl = t < tl ? t : tl;
        if (te >= tl)
            return 0;
    }
    nb_vec2 m = {p.x + 0.5 * (te + tl) * d.x, p.y + 0.5 * (te + tl) * d.y};
    for (int j = 0; j < P->k; j++) {
        nb_vec2 a = P->v[j], b = P->v[(j + 1) % P->k];
        double side = cross3(a, b, m) / hypot(b.x - a.x, b.y - a.y);
        if (side <= 1e-9)
            return 0; /* on (or outside) an edge */
    }
    return 1;
}

static int strictly_inside(const poly *P, nb_vec2 p)
{
    for (int j = 0; j < P->k; j++)
        if (cross3(P->v[j], P->v[(j + 1) % P->k], p) <= 1e-9)
            return 0;
    return 1;
}

/* The shortest path among the polygons: Dijkstra over start, goal and
 * the corners that no other polygon holds, joining two points when the
 * segment enters no polygon's interior and, at a corner, leaves the
 * corner's polygon to one side (a shortest path only bends round a
 * corner it is tangent to).  INFINITY when there is none. */
static double polygon_path(const nb_circle *c, size_t n, double agent, int k, int outer, nb_vec2 s,
                           nb_vec2 t)
{
    poly P[MAXC];
    size_t nv = 2 + n * (size_t)k;
    nb_vec2 *v = malloc(nv * sizeof *v);
    int *owner = malloc(nv * sizeof *owner), *alive = malloc(nv * sizeof *alive), *done = calloc(nv, sizeof *done);
    double *dist = malloc(nv * sizeof *dist);
    v[0] = s;
    v[1] = t;
    owner[0] = owner[1] = -1;
    for (size_t i = 0; i < n; i++) {
        double R = c[i].r + agent, rad = outer ? R / cos(M_PI / k) : R, phase = 0.37 * (double)i;
        P[i] = (poly){{c[i].x, c[i].y}, rad, k, v + 2 + i * (size_t)k};
        for (int j = 0; j < k; j++) {
            double a = phase + 2 * M_PI * j / k;
            P[i].v[j] = (nb_vec2){c[i].x + rad * cos(a), c[i].y + rad * sin(a)};
            owner[2 + i * (size_t)k + (size_t)j] = (int)i;
        }
    }
    for (size_t a = 0; a < nv; a++) {
        alive[a] = 1;
        dist[a] = INFINITY;
        for (size_t i = 0; i < n && alive[a]; i++)
            if ((int)i != owner[a] && strictly_inside(&P[i], v[a]))
                alive[a] = 0;
    }
    dist[0] = 0;
    for (;;) {
        size_t u = nv;
        for (size_t a = 0; a < nv; a++)
            if (alive[a] && !done[a] && dist[a] < INFINITY && (u == nv || dist[a] < dist[u]))
                u = a;
        if (u == nv || u == 1)
            break;
        done[u] = 1;
        for (size_t w = 0; w < nv; w++) {
            if (!alive[w] || done[w])
                continue;
            double nd = dist[u] + hypot(v[w].x - v[u].x, v[w].y - v[u].y);
            if (nd >= dist[w])
                continue;
            /* Tangent at each corner end: both neighbours on one side. */
            int tangent = 1;
            size_t ends[2] = {u, w};
            for (int e = 0; e < 2 && tangent; e++) {
                size_t x = ends[e], y = ends[1 - e];
                if (owner[x] < 0)
                    continue;
                const poly *Q = &P[owner[x]];
                size_t j = x - 2 - (size_t)owner[x] * (size_t)k;
                double o1 = cross3(v[x], v[y], Q->v[(j + 1) % (size_t)k]);
                double o2 = cross3(v[x], v[y], Q->v[(j + (size_t)k - 1) % (size_t)k]);
                tangent = !(o1 > 1e-12 && o2 < -1e-12) && !(o1 < -1e-12 && o2 > 1e-12);
            }
            for (size_t i = 0; i < n && tangent; i++)
                if (through(&P[i], v[u], v[w]))
                    tangent = 0;
            if (tangent)
                dist[w] = nd;
        }
    }
    double out = dist[1];
    free(v);
    free(owner);
    free(alive);
    free(done);
    free(dist);
    return out;
}

static void test_bracket(nb_forest_ws *ws)
{
    tu_rng r = {0xb4ac};
    static const int ks[3] = {12, 48, 192};
    int bracketed = 1, tight = 1, closing = 1, queries = 0;
    double worst_gap = 0;
    for (int f = 0; f < 8; f++) {
        /* A generic forest: no two inflated circles nearly touch. */
        nb_circle c[MAXC];
        const double agent = 0.5;
        size_t n = 0;
        while (n < 8) {
            nb_circle x = {ft_uniform(&r, 0, 30), ft_uniform(&r, 0, 30), ft_uniform(&r, 1.5, 4)};
            size_t i = 0;
            for (; i < n; i++) {
                double d = hypot(x.x - c[i].x, x.y - c[i].y), ra = x.r + agent, rb = c[i].r + agent;
                if (fabs(d - ra - rb) < 0.4 || fabs(d - fabs(ra - rb)) < 0.4)
                    break;
            }
            if (i == n)
                c[n++] = x;
        }
        nb_bundle *b;
        nb_forest *fo;
        double radius[1] = {agent};
        if (!ft_bake_open(c, n, NULL, radius, 1, tu_path(tu_tmpdir(), "b.nbk"), &b, &fo)) {
            bracketed = 0;
            continue;
        }
        for (int q = 0; q < 3; q++) {
            nb_vec2 s, t;
            /* Outside even the coarsest circumscribed polygon. */
            if (!ft_free_point(&r, c, n, agent, 0.4, -3, 33, &s) || !ft_free_point(&r, c, n, agent, 0.4, -3, 33, &t))
                continue;
            nb_forest_result p;
            nb_err err;
            if (ft_outcome(tu_forest_find(fo, nb_forest_radius_get(fo, 0), s, t, 0, ws, &p, &err), &p) != NB_OK)
                continue;
            queries++;
            double gap_prev = INFINITY;
            for (int i = 0; i < 3; i++) {
                double lo = polygon_path(c, n, agent, ks[i], 0, s, t);
                double hi = polygon_path(c, n, agent, ks[i], 1, s, t);
                if (!(lo <= p.length + 1e-9 && p.length <= hi + 1e-9)) {
                    bracketed = 0;
                    diag("k = %d: %.9f <= %.9f <= %.9f fails", ks[i], lo, p.length, hi);
                }
                if (!(hi - lo < gap_prev + 1e-12))
                    closing = 0;
                gap_prev = hi - lo;
                if (i == 2) {
                    if ((hi - lo) / p.length > worst_gap)
                        worst_gap = (hi - lo) / p.length;
                    if ((hi - lo) / p.length > 1e-3)
                        tight = 0;
                }
            }
        }
        nb_forest_close(fo);
        nb_bundle_close(b);
    }
    ok(bracketed && queries >= 15,
       "inscribed polygons <= exact length <= circumscribed polygons (%d queries, 12, 48, 192 corners)",
       queries);
    ok(closing, "the bracket narrows as the corners multiply");
    ok(tight, "with 192 corners it is within 0.1%% of the length (widest %.2g)", worst_gap);
}

int main(void)
{
    /* The forests differ from query to query: each search opens a
     * workspace on its own forest (tu_forest_find with none given). */
    test_baked_equals_deferred(NULL);
    test_bracket(NULL);
    return done_testing();
}
