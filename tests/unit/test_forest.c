/* test_forest.c: round obstacles piece by piece: the forest YAML reader
 * and its errors; the geometry (bitangents, tangents, line of sight,
 * covered arcs) against direct computations; the sections and their
 * damage; searches with answers worked out by hand; the API's errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "forest/forest.h"
#include "forestutil.h"

/* ---- the YAML reader ---- */

static nb_status parse(const char *text, nbb_forest *f, nb_err *err)
{
    return nbb_forest_parse(text, strlen(text), "forest.yaml", f, err);
}

static void bad(const char *text, const char *want, const char *what)
{
    nbb_forest f;
    nb_err err;
    nb_status st = parse(text, &f, &err);
    if (!ok(st != NB_OK, "forest YAML, %s: refused", what))
        nbb_forest_free(&f);
    else
        like(err.msg, want, "forest YAML, %s: says where and what", what);
}

static void test_yaml(void)
{
    nbb_forest f;
    nb_err err;
    nb_status st = nbb_forest_read(tu_src("data/forest.yaml"), &f, &err);
    if (!ok(st == NB_OK, "data/forest.yaml reads"))
        diag("%s", err.msg);
    else {
        is_int(f.n, 19, "it has 19 circles");
        ok(f.has_bounds && f.bounds[2] == 100 && f.bounds[3] == 60, "and bounds [0, 0, 100, 60]");
        ok(f.circles[8].x == 62 && f.circles[8].y == 22 && f.circles[8].r == 7,
           "a circle written as a mapping");
        ok(f.circles[0].x == 12 && f.circles[0].y == 10 && f.circles[0].r == 3,
           "a circle written as a list");
        nbb_forest_free(&f);
    }
    st = parse("circles: []\n", &f, &err);
    ok(st == NB_OK && f.n == 0 && !f.has_bounds, "an empty forest without bounds is a forest");
    nbb_forest_free(&f);
    st = parse("circles:\n  - [1.5e1, -2, 0.25]\n", &f, &err);
    ok(st == NB_OK && f.circles[0].x == 15 && f.circles[0].y == -2 && f.circles[0].r == 0.25,
       "exponents and negative coordinates");
    nbb_forest_free(&f);

    bad("circles:\n  - [1, 2, 3]\n  - [4, 5, 0]\n", "forest.yaml:3:12: circle 2: the radius must be greater than 0",
        "a zero radius");
    bad("circles:\n  - [1, 2, -3]\n", "forest.yaml:2:12: circle 1: the radius must be greater than 0, found -3",
        "a negative radius");
    bad("circles:\n  - [.nan, 2, 3]\n", "forest.yaml:2:6: circle 1: x: expected a finite number, found '.nan'",
        "NaN");
    bad("circles:\n  - {x: 1, y: nan, radius: 3}\n", "circle 1: y: expected a finite number, found 'nan'",
        "nan in a mapping");
    bad("circles:\n  - [1, inf, 3]\n", "circle 1: y: expected a finite number", "infinity");
    bad("circles:\n  - [1e10, 2, 3]\n", "circle 1: x: 1e+10 is outside", "a coordinate too large");
    bad("circles:\n  - [1, 2]\n", "forest.yaml:2:5: circle 1: expected [x, y, radius], found a list of 2",
        "two numbers");
    bad("circles:\n  - [1, 2, 3, 4]\n", "circle 1: expected [x, y, radius], found a list of more than 3",
        "four numbers");
    bad("circles:\n  - {x: 1, y: 2, r: 3}\n", "forest.yaml:2:18: circle 1: unknown key 'r'",
        "an unknown key");
    bad("circles:\n  - {x: 1, y: 2}\n", "circle 1: missing key 'radius'", "a missing radius");
    bad("circles:\n  - 7\n", "forest.yaml:2:5: circle 1: expected [x, y, radius] or", "a scalar");
    bad("circles:\n  - ['1', 2, 3]\n", "circle 1: x: expected a finite number", "a quoted number");
    bad("bounds: [0, 0, 10, 10]\n", "forest: missing key 'circles'", "no circles");
    bad("circles: 3\n", "circles: expected a list", "circles not a list");
    bad("circles: []\ntrees: []\n", "forest.yaml:2:1: forest: unknown key 'trees'", "an unknown key at the top");
    bad("circles: []\nbounds: [0, 0, 10]\n", "forest.yaml:2:9: bounds: expected [xmin, ymin, xmax, ymax]",
        "three bounds");
    bad("circles: []\nbounds: [10, 0, 0, 10]\n", "bounds: expected xmin < xmax and ymin < ymax",
        "bounds the wrong way round");
    bad("circles: [\n", "forest.yaml:2:1: YAML:", "broken YAML");
    bad("- [1, 2, 3]\n", "expected a forest with 'circles'", "a list at the top");
    nb_err e2;
    st = nbb_forest_read(tu_path(tu_tmpdir(), "none.yaml"), &f, &e2);
    ok(st == NB_ERR_IO, "a missing file is an I/O error");
    like(e2.msg, "none.yaml: cannot open", "naming the file");
}

/* ---- geometry ---- */

static double rel_err(double a, double b) { return fabs(a - b) / (1 + fabs(b)); }

/* The sense of travel along dir at angle a of a circle, from the circle's
 * counter-clockwise tangent direction (-sin a, cos a). */
static unsigned sense_of(nb_vec2 dir, double a)
{
    return dir.x * -sin(a) + dir.y * cos(a) > 0 ? NBI_CCW : NBI_CW;
}

static void test_tangents(void)
{
    tu_rng r = {0x5eed1};
    int bad_count = 0, count_ok = 1, tested = 0, point_bad = 0;
    for (int t = 0; t < 3000; t++) {
        nb_circle a = {ft_uniform(&r, -10, 10), ft_uniform(&r, -10, 10), ft_uniform(&r, 0.1, 6)};
        nb_circle b = {ft_uniform(&r, -10, 10), ft_uniform(&r, -10, 10), ft_uniform(&r, 0.1, 6)};
        double d = hypot(b.x - a.x, b.y - a.y);
        nbi_bitangent bt[4];
        int k = nbi_bitangents(&a, &b, 1e-9, bt);
        int want = (d > a.r + b.r ? 2 : 0) + (d > fabs(a.r - b.r) ? 2 : 0);
        if (fabs(d - a.r - b.r) < 1e-6 || fabs(d - fabs(a.r - b.r)) < 1e-6)
            continue;
        tested++;
        count_ok &= k == want;
        for (int i = 0; i < k; i++) {
            nb_vec2 dir = {bt[i].pb.x - bt[i].pa.x, bt[i].pb.y - bt[i].pa.y};
            double len = hypot(dir.x, dir.y);
            /* On both circles, perpendicular to both radii, senses as the
             * tangent directions say, angles where the points are. */
            double ea = hypot(bt[i].pa.x - a.x, bt[i].pa.y - a.y) - a.r;
            double eb = hypot(bt[i].pb.x - b.x, bt[i].pb.y - b.y) - b.r;
            double pa = ((bt[i].pa.x - a.x) * dir.x + (bt[i].pa.y - a.y) * dir.y) / (len * a.r);
            double pb = ((bt[i].pb.x - b.x) * dir.x + (bt[i].pb.y - b.y) * dir.y) / (len * b.r);
            double aa = hypot(a.x + a.r * cos(bt[i].angle_a) - bt[i].pa.x,
                              a.y + a.r * sin(bt[i].angle_a) - bt[i].pa.y);
            double ab = hypot(b.x + b.r * cos(bt[i].angle_b) - bt[i].pb.x,
                              b.y + b.r * sin(bt[i].angle_b) - bt[i].pb.y);
            if (fabs(ea) > 1e-9 || fabs(eb) > 1e-9 || fabs(pa) > 1e-9 || fabs(pb) > 1e-9 ||
                aa > 1e-9 || ab > 1e-9 || bt[i].sense_a != sense_of(dir, bt[i].angle_a) ||
                bt[i].sense_b != sense_of(dir, bt[i].angle_b))
                bad_count++;
        }
        /* The four are distinct lines. */
        for (int i = 0; i < k; i++)
            for (int j = i + 1; j < k; j++)
                if (hypot(bt[i].pa.x - bt[j].pa.x, bt[i].pa.y - bt[j].pa.y) < 1e-9)
                    bad_count++;
        nb_vec2 p = {ft_uniform(&r, -20, 20), ft_uniform(&r, -20, 20)};
        nbi_ptangent pt[2];
        int np = nbi_point_tangents(p, &a, 1e-9, pt);
        double dp = hypot(p.x - a.x, p.y - a.y);
        if (np != (dp >= a.r ? 2 : 0))
            point_bad++;
        for (int i = 0; i < np; i++) {
            nb_vec2 dir = {pt[i].p.x - p.x, pt[i].p.y - p.y};
            double e = hypot(pt[i].p.x - a.x, pt[i].p.y - a.y) - a.r;
            double perp = ((pt[i].p.x - a.x) * dir.x + (pt[i].p.y - a.y) * dir.y) /
                          (hypot(dir.x, dir.y) * a.r);
            if (fabs(e) > 1e-9 || fabs(perp) > 1e-9 || pt[i].sense != sense_of(dir, pt[i].angle))
                point_bad++;
        }
        if (np == 2 && pt[0].sense == pt[1].sense)
            point_bad++;
    }
    ok(count_ok, "bitangents: 4 for circles apart, 2 for overlapping ones, none when one holds the "
                 "other (%d pairs)", tested);
    is_int(bad_count, 0, "every bitangent touches both circles, and its senses are right");
    is_int(point_bad, 0, "tangents from a point: two, touching, in opposite senses; none from inside");

    /* Touching circles: no internal tangents (the article's warning about
     * acos outside [-1, 1]); nested ones touching inside: none at all. */
    nb_circle a = {0, 0, 2}, b = {3, 4, 3}, c = {1, 0, 1}, big = {0, 0, 2};
    nbi_bitangent bt[4];
    is_int(nbi_bitangents(&a, &b, 1e-10, bt), 2, "circles that touch: the two external bitangents");
    is_int(nbi_bitangents(&big, &c, 1e-10, bt), 0, "a circle inside another, touching it: none");
    is_int(nbi_bitangents(&a, &a, 1e-10, bt), 0, "a circle and itself: none");
    nbi_ptangent pt[2];
    is_int(nbi_point_tangents((nb_vec2){2, 0}, &a, 1e-10, pt), 2, "a point on a circle");
    ok(pt[0].p.x == 2 && pt[0].p.y == 0 && pt[0].sense != pt[1].sense,
       "is its own tangent point, both ways");
}

static void test_los(void)
{
    tu_rng r = {0x105};
    int differ = 0, blocked = 0, total = 0;
    nbi_cgrid g = {0};
    for (int f = 0; f < 40; f++) {
        size_t n = 1 + tu_below(&r, 60);
        nb_circle c[64];
        double spread = ft_uniform(&r, 5, 200);
        for (size_t i = 0; i < n; i++)
            c[i] = (nb_circle){ft_uniform(&r, 0, spread), ft_uniform(&r, 0, spread),
                               ft_uniform(&r, 0.05, spread / 6)};
        if (f % 5 == 0)
            c[0].r = spread; /* one circle much larger than the cells */
        double eps = nbi_forest_eps(c, n);
        if (!nbi_cgrid_build(&g, c, n, eps)) {
            ok(0, "grid built");
            return;
        }
        for (int q = 0; q < 400; q++) {
            nb_vec2 a = {ft_uniform(&r, -spread / 2, 1.5 * spread), ft_uniform(&r, -spread / 2, 1.5 * spread)};
            nb_vec2 b = {ft_uniform(&r, -spread / 2, 1.5 * spread), ft_uniform(&r, -spread / 2, 1.5 * spread)};
            if (q % 7 == 0)
                b = a; /* a point */
            if (q % 11 == 0)
                b.y = a.y; /* axis-parallel */
            uint32_t s1 = q % 3 ? tu_below(&r, (uint32_t)n) : UINT32_MAX;
            int x = nbi_los(&g, c, a, b, s1, UINT32_MAX, eps);
            int y = nbi_los_brute(c, n, a, b, s1, UINT32_MAX, eps);
            differ += x != y;
            blocked += !y;
            total++;
            long in = nbi_inside(&g, c, a, eps);
            long want = -1;
            for (size_t i = 0; i < n && want < 0; i++)
                if (hypot(a.x - c[i].x, a.y - c[i].y) < c[i].r - eps)
                    want = (long)i;
            differ += in != want;
        }
    }
    nbi_cgrid_free(&g);
    is_int(differ, 0, "line of sight through the grid = testing every circle (%d segments, %d blocked)",
           total, blocked);
    /* u clamped: a circle beyond the segment's end that covers the end. */
    nb_circle c[2] = {{5, 0, 1}, {0, 0, 0.5}};
    ok(!nbi_los_brute(c, 1, (nb_vec2){0, 0}, (nb_vec2){4.5, 0}, UINT32_MAX, UINT32_MAX, 1e-10),
       "a circle over the end of a segment blocks it (u clamped to [0, 1])");
    ok(nbi_los_brute(c, 1, (nb_vec2){0, 1}, (nb_vec2){10, 1}, UINT32_MAX, UINT32_MAX, 1e-10),
       "a segment grazing a circle is in sight");
    ok(!nbi_los_brute(c, 1, (nb_vec2){0, 0.999}, (nb_vec2){10, 0.999}, UINT32_MAX, UINT32_MAX, 1e-10),
       "one that cuts it is not");
    ok(nbi_los_brute(c, 2, (nb_vec2){0, 0}, (nb_vec2){10, 3}, 1, UINT32_MAX, 1e-10),
       "the circles a segment is tangent to are skipped");
}

/* Whether angle a of circle i is covered by another circle, sampled. */
static int covered(const nb_circle *c, size_t n, size_t i, double a)
{
    nb_vec2 p = {c[i].x + c[i].r * cos(a), c[i].y + c[i].r * sin(a)};
    for (size_t j = 0; j < n; j++)
        if (j != i && hypot(p.x - c[j].x, p.y - c[j].y) <= c[j].r)
            return 1;
    return 0;
}

static void test_free_arcs(void)
{
    tu_rng r = {0xa5c};
    int wrong = 0, samples = 0;
    nbi_cgrid g = {0};
    double iv[2 * 32];
    uint32_t near[32];
    uint8_t seen[32] = {0};
    nbi_free_arc arcs[33];
    for (int f = 0; f < 300; f++) {
        size_t n = 2 + tu_below(&r, 12);
        nb_circle c[16];
        for (size_t i = 0; i < n; i++)
            c[i] = (nb_circle){ft_uniform(&r, 0, 20), ft_uniform(&r, 0, 20), ft_uniform(&r, 1, 6)};
        double eps = nbi_forest_eps(c, n);
        nbi_cgrid_build(&g, c, n, eps);
        for (size_t i = 0; i < n; i++) {
            size_t k = nbi_circle_free_arcs(&g, c, n, i, eps, iv, near, seen, arcs);
            for (int s = 0; s < 720; s++) {
                double a = (s + 0.5) * NBI_TWO_PI / 720, o;
                long in = nbi_free_arc_find(arcs, k, a, 1e-12, &o);
                /* Skip angles within 1e-6 of an arc's ends. */
                if (in >= 0 && arcs[in].span <= NBI_TWO_PI &&
                    (o < 1e-6 || o > arcs[in].span - 1e-6))
                    continue;
                samples++;
                wrong += (in >= 0) == covered(c, n, i, a);
            }
        }
    }
    nbi_cgrid_free(&g);
    is_int(wrong, 0, "free arcs are exactly the uncovered angles (%d sampled)", samples);

    /* Hand cases: a circle touched at one point keeps the rest, but no
     * hugging arc may pass the point; one covered whole has none. */
    nb_circle c[3] = {{0, 0, 2}, {5, 0, 3}, {0, 0, 10}};
    double from, span;
    is_int(nbi_cover(&c[0], &c[1], 1e-10, &from, &span), 1, "touching circles cover a point");
    ok(fabs(from) < 1e-9 && fabs(span) < 1e-6, "at the touching point (%g, %g)", from, span);
    is_int(nbi_cover(&c[0], &c[2], 1e-10, &from, &span), 2, "a circle inside another is covered whole");
    is_int(nbi_cover(&c[2], &c[0], 1e-10, &from, &span), 0, "and does not touch the larger one's rim");
    iv[0] = 0;
    iv[1] = 0;
    size_t k = nbi_free_arcs(iv, 1, 0, 1e-12, arcs);
    ok(k == 1 && fabs(arcs[0].span - NBI_TWO_PI) < 1e-12, "one point taken leaves one arc of 2 pi");
    double o;
    nbi_free_arc_find(arcs, k, 0.5, 1e-12, &o);
    ok(nbi_arc_fits(&arcs[0], o, 1.0, NBI_CCW, 1e-12) && !nbi_arc_fits(&arcs[0], o, 6.0, NBI_CCW, 1e-12) &&
           !nbi_arc_fits(&arcs[0], o, 0.6, NBI_CW, 1e-12) && nbi_arc_fits(&arcs[0], o, 0.4, NBI_CW, 1e-12),
       "arcs from 0.5 fit unless they pass the point at 0");
    /* Intervals that overlap, one across angle 0: free are [0.5, 3] and
     * [3.6, 2 pi - 0.5]. */
    double w[8] = {-0.5, 1.0, 6.0, 0.4, 3.0, 0.5, 3.4, 0.2};
    k = nbi_free_arcs(w, 4, 0, 1e-12, arcs);
    int first = k == 2 && fabs(arcs[0].start - 0.5) > 1e-12;
    ok(k == 2 && fabs(arcs[first].start - 0.5) < 1e-12 && fabs(arcs[first].span - 2.5) < 1e-12 &&
           fabs(arcs[!first].start - 3.6) < 1e-12 &&
           fabs(arcs[!first].span - (NBI_TWO_PI - 0.5 - 3.6)) < 1e-12,
       "covered intervals merge");
    /* [6, 7] reaches round past 0 into [0.5, 1]: one free arc [1, 6]. */
    double w2[4] = {0.5, 0.5, 6.0, 1.0};
    k = nbi_free_arcs(w2, 2, 0, 1e-12, arcs);
    ok(k == 1 && fabs(arcs[0].start - 1.0) < 1e-12 && fabs(arcs[0].span - 5.0) < 1e-12,
       "covered intervals merge across angle 0 (%zu: %g %g)", k, arcs[0].start, arcs[0].span);
    ok(nbi_segments_cross((nb_vec2){0, 0}, (nb_vec2){2, 2}, (nb_vec2){0, 2}, (nb_vec2){2, 0}, 1e-12) &&
           !nbi_segments_cross((nb_vec2){0, 0}, (nb_vec2){2, 2}, (nb_vec2){2, 2}, (nb_vec2){3, 0}, 1e-12) &&
           !nbi_segments_cross((nb_vec2){0, 0}, (nb_vec2){1, 1}, (nb_vec2){2, 0}, (nb_vec2){0, 4}, 1e-12),
       "segments cross only inside both");
}

/* ---- searches with known answers ---- */

/* From (-d, 0) to (d, 0) round one circle of radius R at the origin: two
 * tangents and the arc between them. */
static double round_one(double d, double R)
{
    return 2 * sqrt(d * d - R * R) + R * (M_PI - 2 * acos(R / d));
}

static void test_known(void)
{
    const char *dir = tu_tmpdir();
    nb_circle one[1] = {{0, 0, 2.5}};
    double radii[3] = {0.5, 0, 1.25};
    nb_bundle *b;
    nb_forest *f;
    if (!ft_bake_open(one, 1, NULL, radii, 3, tu_path(dir, "one.nbk"), &b, &f)) {
        ok(0, "one circle baked");
        return;
    }
    nb_forest_ws *ws;
    nb_err err;
    nb_forest_result p;
    ok(nb_forest_ws_open(f, &ws, &err) == NB_OK, "a workspace");
    is_int(nb_forest_radius_count(f), 3, "three radii baked");
    ok(nb_forest_radius_get(f, 2) == 1.25 && tu_forest_radius(f, 0) == 1 &&
           tu_forest_radius(f, 0.7) == -1,
       "radii by index, indices by radius");
    for (unsigned k = 0; k < 3; k++) {
        double R = 2.5 + radii[k];
        nb_status st = tu_forest_find(f, nb_forest_radius_get(f, k), (nb_vec2){-10, 0}, (nb_vec2){10, 0}, 0, ws, &p, &err);
        ok(st == NB_OK && rel_err(p.length, round_one(10, R)) < 1e-12,
           "round one circle, agent radius %g: %.12f (by hand %.12f)", radii[k], p.length,
           round_one(10, R));
        ok(p.segment_len == 3 && p.segments[0].kind == NB_SEG_LINE &&
               p.segments[1].kind == NB_SEG_ARC && p.segments[1].radius == R &&
               p.segments[1].cx == 0 && p.segments[1].cy == 0 && p.segments[2].kind == NB_SEG_LINE,
           "a line, an arc on the inflated circle, a line");
        ok(ft_path_ok(&p, one, 1, radii[k], 0.01, 1e-9, NULL), "and the path keeps out of the circle");
        st = tu_forest_find(f, radii[k], (nb_vec2){-10, 0}, (nb_vec2){10, 0}, NB_FOREST_DEFERRED, ws, &p, &err);
        ok(st == NB_OK && rel_err(p.length, round_one(10, R)) < 1e-12,
           "the deferred search agrees: %.12f", p.length);
    }
    /* Clear of the circle: straight.  The same point: nothing. */
    tu_forest_find(f, nb_forest_radius_get(f, 0), (nb_vec2){-10, 5}, (nb_vec2){10, 5}, 0, ws, &p, &err);
    ok(p.length == 20 && p.segment_len == 1 && p.segments[0].kind == NB_SEG_LINE &&
           p.segments[0].length == 20 && p.segments[0].heading == 0,
       "a straight line when nothing is in the way");
    tu_forest_find(f, nb_forest_radius_get(f, 0), (nb_vec2){4, 4}, (nb_vec2){4, 4}, 0, ws, &p, &err);
    ok(p.length == 0 && p.segment_len == 1 && p.segments[0].kind == NB_SEG_LINE &&
           p.segments[0].length == 0,
       "from a point to itself: length 0, one empty line");
    nb_pose pos;
    nb_segments_sample(p.segments, p.segment_len, 1, &pos);
    ok(pos.x == 4 && pos.y == 4, "which samples to the point");
    /* Starting on the inflated circle itself. */
    nb_status st = tu_forest_find(f, nb_forest_radius_get(f, 1), (nb_vec2){0, 2.5}, (nb_vec2){0, -2.5}, 0, ws, &p, &err);
    ok(st == NB_OK && rel_err(p.length, M_PI * 2.5) < 1e-12,
       "from a point of the circle to the opposite one: half the circle (%g)", p.length);
    /* Sampling: positions and headings along the arc. */
    tu_forest_find(f, nb_forest_radius_get(f, 1), (nb_vec2){-10, 0}, (nb_vec2){10, 0}, 0, ws, &p, &err);
    double total = nb_segments_sample(p.segments, p.segment_len, p.length / 2, &pos);
    ok(total == p.length && fabs(pos.x) < 1e-9 && fabs(fabs(pos.y) - 2.5) < 1e-9 &&
           fabs(remainder(pos.heading, 2 * M_PI)) < 1e-9,
       "half way: the top (or bottom) of the circle, heading along +x (%g, %g, %g)", pos.x, pos.y,
       pos.heading);
    /* Over the top (y > 0) from -x to +x is clockwise: angles shrink. */
    double from, sweep;
    nb_segment_angles(&p.segments[1], &from, &sweep);
    ok(p.segments[1].turn == (pos.y > 0 ? -1 : 1) && (sweep < 0) == (pos.y > 0) &&
           fabs(fabs(sweep) - p.segments[1].length / 2.5) < 1e-12,
       "the arc turns the way it goes round (turn %d, sweep %g)", p.segments[1].turn, sweep);
    nb_segments_sample(p.segments, p.segment_len, -1, &pos);
    ok(pos.x == -10 && pos.y == 0, "sampling before the start gives the start");
    nb_segments_sample(p.segments, p.segment_len, 1e9, &pos);
    const nb_segment *last = &p.segments[p.segment_len - 1];
    ok(fabs(pos.x - 10) < 1e-9 && fabs(pos.y) < 1e-9 &&
           fabs(remainder(pos.heading - atan2(-last->y, 10 - last->x), 2 * M_PI)) < 1e-9,
       "and past the end the goal, heading from the last tangent point to it");

    /* An end inside an inflated circle: no path, and which circle; errors:
     * outside the bounds, NaN, a bad radius. */
    snprintf(err.msg, sizeof err.msg, "stale");
    st = tu_forest_find(f, nb_forest_radius_get(f, 0), (nb_vec2){2.9, 0}, (nb_vec2){10, 0}, 0, ws, &p, &err);
    ok(st == NB_OK && p.status == NB_PATH_START_BLOCKED, "a start inside an inflated circle: blocked");
    ok(p.blocked_by == 0 && err.code == NB_OK && err.msg[0] == '\0',
       "saying which circle, with no error left behind");
    st = tu_forest_find(f, nb_forest_radius_get(f, 0), (nb_vec2){-10, 0}, (nb_vec2){0, 1}, 0, ws, &p, &err);
    ok(st == NB_OK && p.status == NB_PATH_GOAL_BLOCKED && p.blocked_by == 0, "a goal inside too");
    ok(p.length == INFINITY && p.segment_len == 0, "and the path is empty, of infinite length");
    /* A radius without a baked graph is searched deferred. */
    nb_forest_result pd;
    st = tu_forest_find(f, 0.7, (nb_vec2){-10, 0}, (nb_vec2){10, 0}, 0, ws, &p, &err);
    double unbaked = p.length;
    tu_forest_find(f, 0.7, (nb_vec2){-10, 0}, (nb_vec2){10, 0}, NB_FOREST_DEFERRED, ws, &pd, &err);
    ok(st == NB_OK && p.status == NB_PATH_FOUND && p.circles_opened > 0 && unbaked == pd.length,
       "a radius with no baked graph: the deferred search (%g)", unbaked);
    st = tu_forest_find(f, NAN, (nb_vec2){-10, 0}, (nb_vec2){10, 0}, 0, ws, &p, &err);
    ok(st == NB_ERR_ARG && strstr(err.msg, "agent radius nan"), "a NaN agent radius");
    st = tu_forest_find(f, nb_forest_radius_get(f, 0), (nb_vec2){NAN, 0}, (nb_vec2){10, 0}, 0, ws, &p, &err);
    ok(st == NB_ERR_ARG && strstr(err.msg, "not a finite point"), "a NaN start");
    st = tu_forest_find(f, -1, (nb_vec2){-10, 0}, (nb_vec2){10, 0}, NB_FOREST_DEFERRED, ws, &p, &err);
    ok(st == NB_ERR_ARG && strstr(err.msg, "agent radius -1"), "a negative agent radius");
    nb_circle changed = {1, 1, 1};
    ok(nb_forest_set_circle(f, 0, changed, &err) == NB_ERR_ARG && strstr(err.msg, "read-only"),
       "a bundle's forest cannot be changed");
    nb_forest_close(f);
    nb_bundle_close(b);

    /* A forest made by the program, with bounds, changed between queries. */
    double bounds[4] = {-20, -20, 20, 20};
    nb_forest *g;
    ok(nb_forest_open_circles(one, 1, bounds, NULL, &g, &err) == NB_OK, "a forest made in memory");
    st = tu_forest_find(g, 0, (nb_vec2){-30, 0}, (nb_vec2){10, 0}, NB_FOREST_DEFERRED, ws, &p, &err);
    ok(st == NB_ERR_OUTSIDE && strstr(err.msg, "outside the forest's bounds [-20, 20] x [-20, 20]"),
       "a start outside the bounds is refused");
    tu_forest_find(g, 0, (nb_vec2){-10, 0}, (nb_vec2){10, 0}, NB_FOREST_DEFERRED, ws, &p, &err);
    ok(rel_err(p.length, round_one(10, 2.5)) < 1e-12, "the deferred search on it");
    nb_forest_add_circle(g, (nb_circle){0, 0, 4}, &err);
    tu_forest_find(g, 0, (nb_vec2){-10, 0}, (nb_vec2){10, 0}, NB_FOREST_DEFERRED, ws, &p, &err);
    ok(rel_err(p.length, round_one(10, 4)) < 1e-12, "after adding a larger circle round the first");
    nb_forest_remove_circle(g, 0, &err);
    nb_forest_set_circle(g, 0, (nb_circle){0, 1, 3}, &err);
    tu_forest_find(g, 0, (nb_vec2){-10, 1}, (nb_vec2){10, 1}, NB_FOREST_DEFERRED, ws, &p, &err);
    ok(rel_err(p.length, round_one(10, 3)) < 1e-12 && nb_forest_circle_count(g) == 1,
       "after removing one and moving the other");
    ok(nb_forest_set_circle(g, 0, (nb_circle){0, 0, 0}, &err) == NB_ERR_ARG &&
           strstr(err.msg, "radius greater than 0"),
       "a circle of radius 0 is refused");
    ok(nb_forest_add_circle(g, (nb_circle){NAN, 0, 1}, &err) == NB_ERR_ARG, "and one at NaN");
    nb_forest *bad_forest;
    ok(nb_forest_open_circles(&(nb_circle){0, 0, -1}, 1, NULL, NULL, &bad_forest, &err) == NB_ERR_ARG &&
           bad_forest == NULL,
       "a forest with a negative radius is refused");
    nb_forest_close(g);

    /* A goal walled in by overlapping circles: no path, said so. */
    nb_circle ring[8];
    for (int i = 0; i < 8; i++)
        ring[i] = (nb_circle){10 * cos(i * M_PI / 4), 10 * sin(i * M_PI / 4), 4.5};
    nb_forest_open_circles(ring, 8, NULL, NULL, &g, &err);
    st = tu_forest_find(g, 0, (nb_vec2){-20, 0}, (nb_vec2){0, 0}, NB_FOREST_DEFERRED, ws, &p, &err);
    ok(st == NB_OK && p.status == NB_PATH_NONE && p.length == INFINITY,
       "a goal inside a closed ring: no path");
    ok(err.code == NB_OK && p.segment_len == 0, "said by the status, not as an error");
    st = tu_forest_find(g, 0, (nb_vec2){-1, 0}, (nb_vec2){1, 0}, NB_FOREST_DEFERRED, ws, &p, &err);
    ok(st == NB_OK && p.length == 2, "inside the ring, a path");
    /* With touching stones (radius 10 sin(pi/8)) the ring is closed too:
     * a touching point is closed. */
    for (int i = 0; i < 8; i++)
        nb_forest_set_circle(g, (size_t)i, (nb_circle){ring[i].x, ring[i].y, 10 * sin(M_PI / 8)}, &err);
    st = tu_forest_find(g, 0, (nb_vec2){-20, 0}, (nb_vec2){0.5, 0.3}, NB_FOREST_DEFERRED, ws, &p, &err);
    ok(st == NB_OK && p.status == NB_PATH_NONE, "a ring of touching stones is closed");
    /* Even from its centre, whose tangents to the stones pass exactly
     * through the points where they touch. */
    st = tu_forest_find(g, 0, (nb_vec2){-20, 0}, (nb_vec2){0, 0}, NB_FOREST_DEFERRED, ws, &p, &err);
    ok(st == NB_OK && p.status == NB_PATH_NONE, "no path squeezes through a touching point to the centre");
    /* Nor a straight line along the common tangent of two that touch. */
    nb_vec2 td = {cos(M_PI / 8), sin(M_PI / 8)};
    nb_vec2 touch = {10 * cos(M_PI / 8) * td.x, 10 * cos(M_PI / 8) * td.y};
    st = tu_forest_find(g, 0, (nb_vec2){touch.x + 5 * td.x, touch.y + 5 * td.y}, (nb_vec2){touch.x - 3 * td.x, touch.y - 3 * td.y}, NB_FOREST_DEFERRED, ws, &p, &err);
    ok(st == NB_OK && p.status == NB_PATH_NONE, "nor a straight line through a touching point");
    nb_forest_close(g);
    nb_forest_ws_close(ws);
}

/* ---- sections ---- */

static void test_sections(void)
{
    const char *dir = tu_tmpdir();
    char path[1024]; /* tu_path's buffers are reused */
    snprintf(path, sizeof path, "%s", tu_path(dir, "s.nbk"));
    nbb_forest f;
    nb_err err;
    if (nbb_forest_read(tu_src("data/forest.yaml"), &f, &err) != NB_OK) {
        ok(0, "data/forest.yaml: %s", err.msg);
        return;
    }
    double radii[2] = {1, 0};
    nb_bundle *b;
    nb_forest *fo;
    if (!ft_bake_open(f.circles, f.n, f.bounds, radii, 2, path, &b, &fo)) {
        ok(0, "sample baked");
        nbb_forest_free(&f);
        return;
    }
    nb_forest_graph_info gi;
    ok(nb_forest_graph(fo, 0, &gi, &err) == NB_OK && gi.agent_radius == 1 &&
           gi.nodes == 2 * gi.transitions && gi.transitions <= gi.candidates && gi.arcs > 0,
       "graph info: %u nodes, %u of %u bitangents, %llu arcs", gi.nodes, gi.transitions,
       gi.candidates, (unsigned long long)gi.arcs);
    long si = nbi_section_index(b, NB_SEC_BITANGENT, NULL, (uint32_t[]){0}, 1);
    const nb_section_info *in = si >= 0 ? nb_bundle_section_get(b, (size_t)si) : NULL;
    ok(in && in->param[1] == gi.nodes && in->param[2] == gi.transitions &&
           in->param[3] == gi.candidates && in->param[4] == gi.arcs,
       "the section's parameters say the same (navbake info shows them)");
    /* The same inputs, the same bytes. */
    nb_bundle *b2;
    nb_forest *fo2;
    ft_bake_open(f.circles, f.n, f.bounds, radii, 2, tu_path(dir, "s2.nbk"), &b2, &fo2);
    size_t l1, l2;
    char *x1 = tu_read(path, &l1), *x2 = tu_read(tu_path(dir, "s2.nbk"), &l2);
    ok(x1 && x2 && l1 == l2 && memcmp(x1, x2, l1) == 0, "baking twice gives the same bytes");
    free(x1);
    free(x2);
    /* The grid is only a shortcut: the article's plain line of sight
     * (every bitangent against every circle) bakes the same bytes. */
    int same = 1;
    tu_rng r = {0x91d};
    for (int t = 0; t < 30 && same; t++) {
        nb_circle c[40];
        size_t n = 1 + tu_below(&r, 40);
        for (size_t i = 0; i < n; i++)
            c[i] = (nb_circle){tu_below(&r, 30), tu_below(&r, 30), 0.5 * (1 + tu_below(&r, 8))};
        nbb_forest g = {c, n, 0, {0, 0, 0, 0}};
        uint8_t *p1 = NULL, *p2 = NULL;
        size_t n1, n2;
        double ar = 0.25 * tu_below(&r, 4);
        if (nbb_bitangent_bake(&g, ar, 7, 0, &p1, &n1, NULL, NULL, NULL, &err) != NB_OK ||
            nbb_bitangent_bake(&g, ar, 7, NBB_BAKE_PLAIN_LOS, &p2, &n2, NULL, NULL, NULL, &err) != NB_OK)
            same = 0;
        else
            same = n1 == n2 && memcmp(p1, p2, n1) == 0;
        free(p1);
        free(p2);
    }
    ok(same, "the grid's bake = the article's plain bake, byte for byte (30 random forests)");
    nb_forest_close(fo2);
    nb_bundle_close(b2);
    nb_forest_close(fo);
    nb_bundle_close(b);

    /* Damage that a CRC cannot see: a section rewritten with its CRC
     * fixed.  Each must be refused at open, never crash a query. */
    struct {
        long at; /* offset into the bitangent payload of radius 0 */
        uint32_t value;
        const char *want;
    } damage[] = {
        {8, 5, "baked for 5 circles"},
        {12, 7, "do not make"},
        {20, 1, "baked for another forest"},
        {NBI_BITANGENT_HEADER + 24, 0xffffff, "other end"},
        {NBI_BITANGENT_HEADER + 28, 0xfff0, "is not a point of circle"},
        /* Circle 0's nodes ending at m (first[1]): every node on one circle, more than the
         * bitangents to the other 18 can make (an expansion there would hug to each). */
        {-1, UINT32_MAX, "more than the 4 bitangents to each of the 18"},
    };
    for (size_t d = 0; d < sizeof damage / sizeof damage[0]; d++) {
        nbb_builder *bb;
        nbb_builder_new(&bb, &err);
        nb_bundle *ob;
        nb_bundle_open(path, 0, NULL, &ob, &err);
        long k = nbi_section_index(ob, NB_SEC_BITANGENT, NULL, (uint32_t[]){0}, 1);
        const void *pl;
        size_t len;
        nb_bundle_payload(ob, (size_t)k, &pl, &len, &err);
        uint8_t *copy = malloc(len);
        memcpy(copy, pl, len);
        if (damage[d].at >= 0) {
            nbi_put32(copy + damage[d].at, damage[d].value);
        } else { /* first[-at] set to the node count m */
            uint32_t m = nbi_get32(copy + NBI_BT_NODES), na = nbi_get32(copy + NBI_BT_ARCS);
            nbi_put32(copy + NBI_BITANGENT_HEADER + (size_t)m * NBI_BITANGENT_NODE +
                          (size_t)na * NBI_BITANGENT_ARC + 4 * (size_t)-damage[d].at,
                      m);
        }
        nb_section_info info = *nb_bundle_section_get(ob, (size_t)k);
        nbb_builder_load(bb, path, 0, &err);
        info.encoding = NB_ENC_RAW;
        nbb_builder_add(bb, &info, copy, len, 0, &err);
        const char *dpath = tu_path(dir, "d.nbk");
        nbb_builder_write(bb, dpath, &err);
        nbb_builder_free(bb);
        nb_bundle_close(ob);
        free(copy);
        nb_bundle *db;
        nb_forest *df = NULL;
        nb_bundle_open(dpath, 0, NULL, &db, &err);
        nb_status st = nb_forest_open(db, &df, &err);
        ok(st == NB_ERR_FORMAT && df == NULL, "damaged graph (%s) refused at open", damage[d].want);
        like(err.msg, damage[d].want, "with a message");
        st = nb_bundle_verify(db, &err);
        ok(st == NB_ERR_FORMAT, "and by nb_bundle_verify");
        nb_bundle_close(db);
    }
    /* Any single byte changed (the CRC made good): refused at open, or
     * searched without reading outside the section (ASan watches). */
    {
        tu_rng fr = {0xdead};
        int refused = 0, searched = 0;
        nb_bundle *ob;
        nb_bundle_open(path, 0, NULL, &ob, &err);
        long k = nbi_section_index(ob, NB_SEC_BITANGENT, NULL, (uint32_t[]){1}, 1);
        const void *pl;
        size_t len;
        nb_bundle_payload(ob, (size_t)k, &pl, &len, &err);
        nb_section_info info = *nb_bundle_section_get(ob, (size_t)k);
        uint8_t *copy = malloc(len);
        nb_forest_ws *ws;
        nb_forest_ws_open(NULL, &ws, &err);
        for (int t = 0; t < 120; t++) {
            memcpy(copy, pl, len);
            /* Mostly the small tables at the end, where indices live. */
            size_t at = t % 2 ? len - 1 - tu_below(&fr, (uint32_t)(8 * (f.n + 1))) : tu_below(&fr, (uint32_t)len);
            copy[at] ^= (uint8_t)(1u << tu_below(&fr, 8));
            nbb_builder *bb;
            nbb_builder_new(&bb, &err);
            nbb_builder_load(bb, path, 0, &err);
            nbb_builder_add(bb, &info, copy, len, 0, &err);
            nb_bundle *db = NULL;
            nb_forest *df = NULL;
            const char *dpath = tu_path(dir, "flip.nbk");
            if (nbb_builder_write(bb, dpath, &err) == NB_OK && nb_bundle_open(dpath, 0, NULL, &db, &err) == NB_OK &&
                nb_forest_open(db, &df, &err) == NB_OK) {
                nb_forest_result p;
                for (int q = 0; q < 4; q++)
                    tu_forest_find(df, nb_forest_radius_get(df, 1), (nb_vec2){1 + 30 * q, 2}, (nb_vec2){99 - 20 * q, 58}, 0, ws, &p, &err);
                searched++;
            } else {
                refused++;
            }
            nb_forest_close(df);
            nb_bundle_close(db);
            nbb_builder_free(bb);
        }
        ok(refused > 0 && searched > 0 && refused + searched == 120,
           "120 damaged graphs: %d refused at open, %d searched without harm", refused, searched);
        nb_forest_ws_close(ws);
        free(copy);
        nb_bundle_close(ob);
    }
    /* A forest without graphs still searches (deferred). */
    nb_bundle *nb2;
    nb_forest *nf;
    ft_bake_open(f.circles, f.n, NULL, NULL, 0, tu_path(dir, "n.nbk"), &nb2, &nf);
    nb_forest_ws *ws;
    nb_forest_ws_open(nf, &ws, &err);
    nb_forest_result p;
    ok(nb_forest_radius_count(nf) == 0 &&
           tu_forest_find(nf, 0.5, (nb_vec2){1, 1}, (nb_vec2){99, 59}, NB_FOREST_DEFERRED, ws, &p, &err) == NB_OK,
       "a forest baked without graphs is searched deferred (%g)", p.length);
    double deferred = p.length;
    ok(tu_forest_find(nf, 0.5, (nb_vec2){1, 1}, (nb_vec2){99, 59}, 0, ws, &p, &err) == NB_OK &&
           p.length == deferred && p.circles_opened > 0,
       "and without the flag too: it has no graph to query");
    nb_forest_ws_close(ws);
    nb_forest_close(nf);
    nb_bundle_close(nb2);
    /* A bundle without a forest. */
    nbb_builder *eb;
    nbb_builder_new(&eb, &err);
    nbi_legend leg;
    nbi_legend_default(&leg);
    nbb_put_level(eb, &leg, NULL, NULL, 0, &err);
    nbb_builder_write(eb, tu_path(dir, "e.nbk"), &err);
    nbb_builder_free(eb);
    nb_bundle_open(tu_path(dir, "e.nbk"), 0, NULL, &nb2, &err);
    nf = NULL;
    ok(nb_forest_open(nb2, &nf, &err) == NB_ERR_NOTFOUND && strstr(err.msg, "has no forest"),
       "a bundle without a forest says so");
    nb_bundle_close(nb2);
    nbb_forest_free(&f);
}

int main(void)
{
    test_yaml();
    test_tangents();
    test_los();
    test_free_arcs();
    test_known();
    test_sections();
    return done_testing();
}
