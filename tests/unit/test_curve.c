/* test_curve.c: curves with a turning radius (lib/runtime/turning/curve.c).
 *
 * Independent answers: every candidate is driven with nb_curve_sample and
 * must end on the target pose, move continuously, turn no tighter than
 * the radius and be as long as its pieces; the shortest candidate must be
 * no longer than thousands of random legal paths to the same target (a
 * Dubins path is the shortest of all of them), and closed-form cases (a
 * straight line, a quarter and a half circle) give their known lengths. */
#include <math.h>
#include <stdio.h>

#include "turning/turning.h"
#include "testutil.h"

static double urand(tu_rng *r) { return (double)(tu_rand(r) >> 11) / 9007199254740992.0; }

static double angdiff(double a, double b) { return fabs(remainder(a - b, 2 * M_PI)); }

/* Drives a curve in small steps: continuous, bounded turning, right end. */
static int drive_ok(const nb_curve *c, double r, const nb_pose *from, const nb_pose *to,
                    char *why, size_t whylen)
{
    nb_pose prev, cur;
    nb_curve_sample(c, 0, &prev);
    if (hypot(prev.x - from->x, prev.y - from->y) > 1e-9 || angdiff(prev.heading, from->heading) > 1e-9) {
        snprintf(why, whylen, "%s does not start at the start pose", c->word);
        return 0;
    }
    double sum = 0;
    for (unsigned i = 0; i < c->count; i++) {
        sum += c->seg[i].length;
        if (c->seg[i].kind == NB_SEG_ARC && fabs(c->seg[i].radius - r) > 1e-12) {
            snprintf(why, whylen, "%s: an arc of radius %g", c->word, c->seg[i].radius);
            return 0;
        }
    }
    if (fabs(sum - c->length) > 1e-9) {
        snprintf(why, whylen, "%s: length %g but pieces sum to %g", c->word, c->length, sum);
        return 0;
    }
    int steps = 400;
    double ds = c->length / steps;
    for (int k = 1; k <= steps; k++) {
        nb_curve_sample(c, k * ds, &cur);
        double moved = hypot(cur.x - prev.x, cur.y - prev.y);
        double turned = angdiff(cur.heading, prev.heading);
        if (moved > ds + 1e-9 || turned > ds / r + 1e-9) {
            snprintf(why, whylen, "%s jumps at %g: moved %g, turned %g over %g", c->word, k * ds,
                     moved, turned, ds);
            return 0;
        }
        /* The heading is the direction of travel. */
        if (moved > 1e-6 && angdiff(atan2(cur.y - prev.y, cur.x - prev.x), cur.heading) > ds / r + 1e-6) {
            snprintf(why, whylen, "%s: heading is not the direction of travel at %g", c->word, k * ds);
            return 0;
        }
        prev = cur;
    }
    if (to && (hypot(cur.x - to->x, cur.y - to->y) > 1e-8 || angdiff(cur.heading, to->heading) > 1e-8)) {
        snprintf(why, whylen, "%s ends at (%g, %g, %g), not (%g, %g, %g)", c->word, cur.x, cur.y,
                 cur.heading, to->x, to->y, to->heading);
        return 0;
    }
    return 1;
}

/* A random legal path: a few arcs (either way, radius r or more) and lines. */
static double random_path(tu_rng *rng, const nb_pose *from, double r, nb_pose *end)
{
    nb_pose p = *from;
    double len = 0;
    int n = 1 + (int)tu_below(rng, 4);
    for (int i = 0; i < n; i++) {
        nb_segment s;
        if (tu_below(rng, 2)) {
            double l = 4 * urand(rng);
            s = nb_segment_line(p.x, p.y, p.x + l * cos(p.heading), p.y + l * sin(p.heading));
            s.heading = p.heading;
        } else {
            double rr = r * (1 + 2 * urand(rng) * urand(rng));
            int t = tu_below(rng, 2) ? 1 : -1;
            double cx = p.x + rr * cos(p.heading + t * M_PI / 2), cy = p.y + rr * sin(p.heading + t * M_PI / 2);
            s = nb_segment_arc(cx, cy, rr, p.heading - t * M_PI / 2, t * 2 * M_PI * urand(rng));
        }
        nb_segment_sample(&s, s.length, &p);
        len += s.length;
    }
    *end = p;
    return len;
}

int main(void)
{
    tu_rng rng = {0x5eed1234abcdULL};
    char why[256];

    /* Closed forms. */
    nb_curve c[NB_CURVE_MAX_CANDIDATES];
    nb_pose o = {0, 0, 0}, ahead = {5, 0, 0};
    size_t n = nb_curve_to_pose(&o, &ahead, 1, c);
    ok(n >= 1 && fabs(c[0].length - 5) < 1e-12, "straight ahead: length 5 (got %g)", c[0].length);
    is_int(c[0].count, 1, "straight ahead: one segment");
    nb_pose quarter = {2, 2, M_PI / 2}; /* right turn of radius 2: y grows downwards */
    n = nb_curve_to_pose(&o, &quarter, 2, c);
    ok(fabs(c[0].length - M_PI) < 1e-12 && c[0].count == 1 && c[0].seg[0].turn == 1,
       "quarter circle right, radius 2: length pi, one arc turning right (%s %g)", c[0].word, c[0].length);
    nb_pose half = {0, -2, M_PI};
    n = nb_curve_to_pose(&o, &half, 1, c);
    ok(fabs(c[0].length - M_PI) < 1e-12 && c[0].seg[0].turn == -1,
       "half circle left, radius 1: length pi (%s %g)", c[0].word, c[0].length);
    n = nb_curve_to_point(&o, 1, 10, 0, c);
    ok(n >= 1 && fabs(c[0].length - 10) < 1e-12, "a point straight ahead: its distance");
    n = nb_curve_to_point(&o, 1, 1, 1, c);
    ok(fabs(c[0].length - M_PI / 2) < 1e-9, "a point on the right turning circle: a quarter arc (%g)",
       c[0].length);
    /* A point just behind: turn around. */
    n = nb_curve_to_point(&o, 1, -1e-3, 0, c);
    ok(c[0].length > M_PI, "a point just behind needs more than a half turn (%g)", c[0].length);
    /* Pinter's arc-line is not the shortest into a turning circle: an arc
     * the other way then back is. */
    n = nb_curve_to_point(&o, 1, 0.2, 0.5, c);
    ok(n >= 2 && strlen(c[0].word) == 2 && c[0].word[1] != 'S',
       "a point inside the right circle: the shortest is a CC curve (%s)", c[0].word);

    /* Every Dubins candidate, driven. */
    int bad = 0, order = 0, words = 0, beaten = 0, count6 = 0;
    for (int t = 0; t < 3000 && bad < 5; t++) {
        double r = 0.25 + 4 * urand(&rng);
        nb_pose a = {20 * urand(&rng) - 10, 20 * urand(&rng) - 10, 2 * M_PI * urand(&rng) - M_PI};
        nb_pose b = {a.x + 8 * r * (urand(&rng) - 0.5), a.y + 8 * r * (urand(&rng) - 0.5),
                     2 * M_PI * urand(&rng)};
        n = nb_curve_to_pose(&a, &b, r, c);
        if (n == 0) {
            bad++;
            diag("no curve from (%g %g %g) to (%g %g %g)", a.x, a.y, a.heading, b.x, b.y, b.heading);
        }
        count6 += n >= 6;
        for (size_t i = 0; i < n; i++) {
            if (!drive_ok(&c[i], r, &a, &b, why, sizeof why)) {
                bad++;
                diag("%s", why);
            }
            if (i && c[i].length < c[i - 1].length)
                order++;
            words += nbi_word_code(c[i].word) >= 0 ? 0 : 1;
        }
    }
    is_int(bad, 0, "3000 random pose pairs: every candidate starts and ends on its poses, is "
                   "continuous and turns no tighter than the radius");
    is_int(order, 0, "candidates come shortest first");
    is_int(words, 0, "every candidate is one of the six Dubins words");
    ok(count6 > 100, "arc-arc-arc words appear among the candidates (%d pairs with six or more)", count6);

    /* Optimality: no random legal path to the same pose is shorter. */
    for (int t = 0; t < 20000; t++) {
        double r = 0.5 + 2 * urand(&rng);
        nb_pose a = {0, 0, 2 * M_PI * urand(&rng)}, b;
        double len = random_path(&rng, &a, r, &b);
        n = nb_curve_to_pose(&a, &b, r, c);
        if (n == 0 || c[0].length > len + 1e-7) {
            if (beaten++ < 3)
                diag("a legal path of %g beats %s of %g", len, n ? c[0].word : "-", n ? c[0].length : 0);
        }
    }
    is_int(beaten, 0, "20000 random legal paths: the shortest Dubins curve is never longer");

    /* Pose to point: every candidate ends on the point; the shortest is no
     * longer than any random legal path there, nor than the Dubins curve to
     * the point at any of 360 headings. */
    bad = beaten = 0;
    int loose = 0, lenfast = 0;
    for (int t = 0; t < 1000; t++) {
        double r = 0.5 + 2 * urand(&rng);
        nb_pose a = {0, 0, 2 * M_PI * urand(&rng)}, b;
        double len = random_path(&rng, &a, r, &b);
        n = nb_curve_to_point(&a, r, b.x, b.y, c);
        for (size_t i = 0; i < n; i++) {
            nb_pose e;
            nb_curve_sample(&c[i], c[i].length, &e);
            if (!drive_ok(&c[i], r, &a, NULL, why, sizeof why) || hypot(e.x - b.x, e.y - b.y) > 1e-8) {
                if (bad++ < 3)
                    diag("pose to point: %s, or ends at (%g, %g) for (%g, %g)", why, e.x, e.y, b.x, b.y);
            }
        }
        if (n == 0 || c[0].length > len + 1e-7)
            beaten++;
        double best = INFINITY;
        for (int h = 0; h < 360; h++) {
            nb_pose q = {b.x, b.y, h * M_PI / 180};
            nb_curve d[NB_CURVE_MAX_CANDIDATES];
            if (nb_curve_to_pose(&a, &q, r, d))
                best = fmin(best, d[0].length);
        }
        /* ... and equal to the Dubins curve to its own final heading. */
        nb_pose fin;
        nb_curve d[NB_CURVE_MAX_CANDIDATES];
        nb_curve_sample(&c[0], c[0].length, &fin);
        fin.x = b.x;
        fin.y = b.y;
        double own = nb_curve_to_pose(&a, &fin, r, d) ? d[0].length : INFINITY;
        if (c[0].length > best + 1e-9 || fabs(own - c[0].length) > 1e-7) {
            if (loose++ < 3)
                diag("to (%g, %g) from heading %g, r %g: %s %g; best of 360 headings %g, Dubins to "
                     "its own final heading %g", b.x, b.y, a.heading, r, c[0].word, c[0].length, best, own);
        }
        /* The length-only version agrees (from the pose turned to 0). */
        double ca = cos(-a.heading), sa = sin(-a.heading);
        if (fabs(nbi_curve_point_length(r, b.x * ca - b.y * sa, b.x * sa + b.y * ca) - c[0].length) > 1e-9)
            lenfast++;
    }
    is_int(bad, 0, "1000 points: every candidate ends on its point, continuous and legal");
    is_int(beaten, 0, "no random legal path to the point is shorter than the shortest candidate");
    is_int(loose, 0, "the shortest to a point is no longer than the Dubins curve to any of 360 "
                     "headings, and equal to the one to its own final heading");
    is_int(lenfast, 0, "nbi_curve_point_length equals the first candidate's length");

    /* Reverse: the same movement with the unit facing backwards. */
    nb_pose ra = {0, 0, M_PI}, rb = {-3, 0, M_PI}; /* facing west, moving east: turned poses */
    nb_pose fa = {0, 0, 0}, fb = {3, 0, 0};
    n = nb_curve_to_pose(&fa, &fb, 1, c);
    nb_curve_set_reverse(&c[0]);
    nb_pose mid;
    nb_curve_sample(&c[0], 1.5, &mid);
    ok(fabs(mid.x - 1.5) < 1e-12 && angdiff(mid.heading, M_PI) < 1e-12,
       "a reversed curve moves the same way with the unit facing back");
    (void)ra, (void)rb;

    /* Segments as a path of their own (lines and arcs of any radius). */
    nb_segment path[3];
    path[0] = nb_segment_line(0, 0, 2, 0);
    path[1] = nb_segment_arc(2, 1, 1, -M_PI / 2, M_PI / 2);
    path[2] = nb_segment_line(3, 1, 3, 4);
    nb_pose e;
    double total = nb_segments_sample(path, 3, 2 + M_PI / 4, &e);
    ok(fabs(total - (5 + M_PI / 2)) < 1e-12, "a path of three segments: its length");
    ok(fabs(e.x - (2 + cos(-M_PI / 4))) < 1e-12 && fabs(e.y - (1 + sin(-M_PI / 4))) < 1e-12 &&
           angdiff(e.heading, M_PI / 4) < 1e-12,
       "sampled halfway round its arc");
    nb_segments_sample(path, 3, 100, &e);
    ok(fabs(e.x - 3) < 1e-12 && fabs(e.y - 4) < 1e-12, "sampling past the end gives the end");

    /* nb_segment_angles undoes nb_segment_arc, either way round; the end
     * it implies is where sampling the whole arc arrives. */
    int angles_ok = 1;
    for (int i = 0; i < 1000 && angles_ok; i++) {
        double cx = 20 * urand(&rng) - 10, cy = 20 * urand(&rng) - 10, r = 0.1 + 5 * urand(&rng);
        double from = 4 * M_PI * urand(&rng) - 2 * M_PI, sweep = 4 * M_PI * urand(&rng) - 2 * M_PI;
        nb_segment s = nb_segment_arc(cx, cy, r, from, sweep);
        double f2, s2;
        nb_segment_angles(&s, &f2, &s2);
        nb_segment_sample(&s, s.length, &e);
        double ex = cx + r * cos(from + sweep), ey = cy + r * sin(from + sweep);
        if (s.turn != (sweep < 0 ? -1 : 1) || fabs(f2 - from) > 1e-12 || fabs(s2 - sweep) > 1e-12 ||
            hypot(e.x - ex, e.y - ey) > 1e-9 * (1 + r) ||
            angdiff(e.heading, from + sweep + s.turn * M_PI / 2) > 1e-9) {
            diag("arc (%g, %g, %g) from %g sweep %g: angles %g %g, end (%g, %g) not (%g, %g)", cx, cy,
                 r, from, sweep, f2, s2, e.x, e.y, ex, ey);
            angles_ok = 0;
        }
    }
    ok(angles_ok, "nb_segment_angles gives back an arc's start angle and signed sweep (1000 arcs)");
    double lf, ls;
    nb_segment_angles(&path[2], &lf, &ls);
    ok(angdiff(lf, M_PI / 2) < 1e-12 && ls == 0, "and a line its heading and no sweep");
    return done_testing();
}
