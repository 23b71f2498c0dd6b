/* curve.c: paths made of lines and arcs, and the curves of a unit with a
 * turning radius between poses and points (Pinter, "Toward More Realistic
 * Pathfinding", 2001, Figures 6 and 9-11), completed into every Dubins word.
 *
 * A turning circle for turn s (+1 right, -1 left) at a pose (p, h) has its
 * centre at p + r n(h + s pi/2), n(a) = (cos a, sin a); a point at angle a
 * on it, travelled with turn s, heads h = a + s pi/2. */
#include <math.h>

#include "turning/turning.h"

/* Sweeps this close to a full turn are an empty arc that rounding made
 * 2 pi: a curve never needs a full loop. */
#define SWEEP_EPS 1e-9
/* Pieces shorter than this (rounding's leftovers) are left out. */
#define SEG_EPS 1e-9

static double mod2pi(double a)
{
    double m = nbi_angle_mod(a);
    return m >= NBI_TWO_PI - SWEEP_EPS ? 0 : m;
}

nb_segment nb_segment_line(double x0, double y0, double x1, double y1)
{
    nb_segment s;
    memset(&s, 0, sizeof s);
    s.kind = NB_SEG_LINE;
    s.gear = 1;
    s.x = x0;
    s.y = y0;
    s.length = hypot(x1 - x0, y1 - y0);
    s.heading = s.length > 0 ? atan2(y1 - y0, x1 - x0) : 0;
    return s;
}

nb_segment nb_segment_arc(double cx, double cy, double radius, double from, double sweep)
{
    nb_segment s;
    memset(&s, 0, sizeof s);
    s.kind = NB_SEG_ARC;
    s.gear = 1;
    s.turn = sweep < 0 ? -1 : 1;
    s.cx = cx;
    s.cy = cy;
    s.radius = radius;
    s.x = cx + radius * cos(from);
    s.y = cy + radius * sin(from);
    s.heading = from + s.turn * NBI_HALF_PI;
    s.length = fabs(sweep) * radius;
    return s;
}

void nb_segment_angles(const nb_segment *s, double *from, double *sweep)
{
    if (s->kind == NB_SEG_ARC && s->radius > 0) {
        *from = s->heading - s->turn * NBI_HALF_PI;
        *sweep = s->turn * s->length / s->radius;
    } else {
        *from = s->heading;
        *sweep = 0;
    }
}

void nb_segment_sample(const nb_segment *s, double at, nb_pose *out)
{
    if (!(at > 0))
        at = 0;
    if (at > s->length)
        at = s->length;
    double travel;
    if (s->kind == NB_SEG_ARC && s->radius > 0) {
        double a0 = s->heading - s->turn * NBI_HALF_PI;
        double a = a0 + s->turn * at / s->radius;
        out->x = s->cx + s->radius * cos(a);
        out->y = s->cy + s->radius * sin(a);
        travel = a + s->turn * NBI_HALF_PI;
    } else {
        out->x = s->x + at * cos(s->heading);
        out->y = s->y + at * sin(s->heading);
        travel = s->heading;
    }
    out->heading = s->gear < 0 ? travel + M_PI : travel;
}

double nb_segments_length(const nb_segment *seg, size_t n)
{
    double len = 0;
    for (size_t i = 0; i < n; i++)
        len += seg[i].length;
    return len;
}

double nb_segments_sample(const nb_segment *seg, size_t n, double at, nb_pose *out)
{
    double total = nb_segments_length(seg, n);
    if (n == 0) {
        out->x = out->y = out->heading = 0;
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (at < seg[i].length || i == n - 1) {
            nb_segment_sample(&seg[i], at, out);
            return total;
        }
        at -= seg[i].length;
    }
    return total;
}

void nb_curve_sample(const nb_curve *c, double at, nb_pose *out)
{
    nb_segments_sample(c->seg, c->count, at, out);
}

/* ---- building curves ---- */

static void centre(const nb_pose *p, double r, int turn, double *cx, double *cy)
{
    *cx = p->x + r * cos(p->heading + turn * NBI_HALF_PI);
    *cy = p->y + r * sin(p->heading + turn * NBI_HALF_PI);
}

static void curve_init(nb_curve *c, const char *word, unsigned variant)
{
    memset(c, 0, sizeof *c);
    memcpy(c->word, word, strlen(word) < 3 ? strlen(word) + 1 : 4);
    c->word[3] = '\0';
    c->variant = variant;
}

/* Appends an arc of the circle (cx, cy) starting at heading h (on that
 * circle) and turning sweep >= 0 radians in direction turn. */
static void add_arc(nb_curve *c, double cx, double cy, double r, int turn, double h, double sweep)
{
    if (sweep * r > SEG_EPS) {
        nb_segment s = nb_segment_arc(cx, cy, r, h - turn * NBI_HALF_PI, turn * sweep);
        c->seg[c->count++] = s;
    }
}

static void add_line(nb_curve *c, double x, double y, double h, double len)
{
    if (len > SEG_EPS) {
        nb_segment s = nb_segment_line(x, y, x + len * cos(h), y + len * sin(h));
        s.heading = h;
        c->seg[c->count++] = s;
    }
}

static void curve_finish(nb_curve *c)
{
    c->length = nb_segments_length(c->seg, c->count);
}

/* Arc-line-arc: around circle 1 (turn t1) then a tangent then around circle
 * 2 (turn t2).  Equal turns use the outer tangent (Pinter's Figure 10),
 * opposite turns the inner one (Figure 11). */
static int csc(const nb_pose *a, const nb_pose *b, double r, int t1, int t2, nb_curve *c)
{
    double c1x, c1y, c2x, c2y;
    centre(a, r, t1, &c1x, &c1y);
    centre(b, r, t2, &c2x, &c2y);
    double vx = c2x - c1x, vy = c2y - c1y, d = hypot(vx, vy);
    double psi, len;
    if (t1 == t2) {
        len = d;
        /* Circles that coincide up to rounding: the line's heading is
         * noise, so one arc (not a loop around the circle). */
        psi = d > 1e-9 ? atan2(vy, vx) : a->heading;
    } else {
        if (d < 2 * r * (1 - 1e-12))
            return 0; /* touching circles (d = 2r up to rounding) still have their tangent */
        /* The inner tangent and the two radii across it make a right triangle on the centre
         * line d: the tangent is sqrt(d^2 - (2r)^2) long and leaves atan2(2r, len) off it. */
        len = sqrt(fmax(d * d - 4 * r * r, 0));
        psi = atan2(vy, vx) + t1 * atan2(2 * r, len);
    }
    char word[4] = {t1 > 0 ? 'R' : 'L', 'S', t2 > 0 ? 'R' : 'L', 0};
    curve_init(c, word, 0);
    double s1 = mod2pi(t1 * (psi - a->heading));
    double s2 = mod2pi(t2 * (b->heading - psi));
    add_arc(c, c1x, c1y, r, t1, a->heading, s1);
    /* The tangent point on circle 1 and the line from it. */
    double tx = c1x + r * cos(psi - t1 * NBI_HALF_PI), ty = c1y + r * sin(psi - t1 * NBI_HALF_PI);
    add_line(c, tx, ty, psi, len);
    add_arc(c, c2x, c2y, r, t2, psi, s2);
    curve_finish(c);
    return 1;
}

/* Arc-arc-arc (turns t, -t, t): the middle circle touches both end
 * circles; there are two such circles when the end circles are less than
 * 4r apart, variant 0 and 1. */
static int ccc(const nb_pose *a, const nb_pose *b, double r, int t, unsigned variant, nb_curve *c)
{
    double c1x, c1y, c2x, c2y;
    centre(a, r, t, &c1x, &c1y);
    centre(b, r, t, &c2x, &c2y);
    double vx = c2x - c1x, vy = c2y - c1y, d = hypot(vx, vy);
    if (d >= 4 * r || d < 1e-12)
        return 0;
    /* The centres make an isosceles triangle, sides 2r, 2r and d: the middle centre lies
     * acos((d / 2) / 2r) off the line of the end centres, on either side. */
    double gamma = acos(d / (4 * r));
    double phi = atan2(vy, vx) + (variant ? -gamma : gamma);
    double c3x = c1x + 2 * r * cos(phi), c3y = c1y + 2 * r * sin(phi);
    double h1 = phi + t * NBI_HALF_PI;                        /* heading at the first switch */
    double h2 = atan2(c2y - c3y, c2x - c3x) - t * NBI_HALF_PI; /* heading at the second */
    char word[4] = {t > 0 ? 'R' : 'L', t > 0 ? 'L' : 'R', t > 0 ? 'R' : 'L', 0};
    curve_init(c, word, variant);
    add_arc(c, c1x, c1y, r, t, a->heading, mod2pi(t * (h1 - a->heading)));
    add_arc(c, c3x, c3y, r, -t, h1, mod2pi(-t * (h2 - h1)));
    add_arc(c, c2x, c2y, r, t, h2, mod2pi(t * (b->heading - h2)));
    curve_finish(c);
    return 1;
}

/* Arc then line to a point (Pinter's Figure 6): the line leaves the circle
 * where it points at the target. */
static int cs_point(const nb_pose *a, double r, int t, double px, double py, nb_curve *c)
{
    double cx, cy;
    centre(a, r, t, &cx, &cy);
    double vx = px - cx, vy = py - cy, h = hypot(vx, vy);
    if (h < r * (1 - 1e-12))
        return 0; /* the point is inside this turning circle */
    /* The tangent from the point: d long, atan2(r, d) off the line from the centre. */
    double d = sqrt(fmax(h * h - r * r, 0));
    double psi = atan2(vy, vx) + t * atan2(r, d);
    char word[3] = {t > 0 ? 'R' : 'L', 'S', 0};
    curve_init(c, word, 0);
    add_arc(c, cx, cy, r, t, a->heading, mod2pi(t * (psi - a->heading)));
    double tx = cx + r * cos(psi - t * NBI_HALF_PI), ty = cy + r * sin(psi - t * NBI_HALF_PI);
    add_line(c, tx, ty, psi, d);
    curve_finish(c);
    return 1;
}

/* Arc then arc the other way, ending on the point: the second circle's
 * centre is 2r from the first's and r from the point. */
static int cc_point(const nb_pose *a, double r, int t, unsigned variant, double px, double py,
                    nb_curve *c)
{
    double c1x, c1y;
    centre(a, r, t, &c1x, &c1y);
    double vx = px - c1x, vy = py - c1y, h = hypot(vx, vy);
    if (h < r || h > 3 * r || h < 1e-12)
        return 0;
    /* The law of cosines in the triangle of the centres and the point (sides 2r, r, h):
     * cos gamma = ((2r)^2 + h^2 - r^2) / (2 2r h), the angle at the first centre. */
    double cg = (3 * r * r + h * h) / (4 * r * h);
    double gamma = acos(fmin(1, fmax(-1, cg)));
    double phi = atan2(vy, vx) + (variant ? -gamma : gamma);
    double c2x = c1x + 2 * r * cos(phi), c2y = c1y + 2 * r * sin(phi);
    double h1 = phi + t * NBI_HALF_PI;
    double hp = atan2(py - c2y, px - c2x) - t * NBI_HALF_PI; /* heading at the point */
    char word[3] = {t > 0 ? 'R' : 'L', t > 0 ? 'L' : 'R', 0};
    curve_init(c, word, variant);
    add_arc(c, c1x, c1y, r, t, a->heading, mod2pi(t * (h1 - a->heading)));
    add_arc(c, c2x, c2y, r, -t, h1, mod2pi(-t * (hp - h1)));
    curve_finish(c);
    return 1;
}

/* Two candidates are the same movement when they have the same length and
 * the same sequence of non-empty pieces (a straight line is LSL and RSR). */
static int same_curve(const nb_curve *a, const nb_curve *b)
{
    if (fabs(a->length - b->length) > 1e-9 || a->count != b->count)
        return 0;
    for (unsigned i = 0; i < a->count; i++)
        if (a->seg[i].kind != b->seg[i].kind || a->seg[i].turn != b->seg[i].turn ||
            fabs(a->seg[i].length - b->seg[i].length) > 1e-9)
            return 0;
    return 1;
}

/* Lengths within 1e-9 are equal: mirror images (LSL and RSR around a
 * U-turn) differ by rounding, and which comes first must not depend on it,
 * or the same movement turned by a quarter turn would pick another word. */
static int shorter(const nb_curve *a, const nb_curve *b)
{
    return a->length < b->length - 1e-9;
}

/* Keeps cand[] shortest first (stable: word order breaks ties) without
 * repeats; returns the new count. */
static size_t sort_unique(nb_curve *cand, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        nb_curve t = cand[i];
        size_t j = i;
        while (j > 0 && shorter(&t, &cand[j - 1])) {
            cand[j] = cand[j - 1];
            j--;
        }
        cand[j] = t;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        int dup = 0;
        for (size_t k = 0; k < m && !dup; k++)
            dup = same_curve(&cand[k], &cand[i]);
        if (!dup)
            cand[m++] = cand[i];
    }
    return m;
}

size_t nb_curve_to_point(const nb_pose *from, double radius, double x, double y, nb_curve *out)
{
    size_t n = 0;
    if (!(radius > 0)) {
        curve_init(&out[0], "S", 0);
        add_line(&out[0], from->x, from->y, atan2(y - from->y, x - from->x),
                 hypot(x - from->x, y - from->y));
        curve_finish(&out[0]);
        return 1;
    }
    for (int t = 1; t >= -1; t -= 2) {
        n += (size_t)cs_point(from, radius, t, x, y, &out[n]);
        for (unsigned v = 0; v < 2; v++)
            n += (size_t)cc_point(from, radius, t, v, x, y, &out[n]);
    }
    return sort_unique(out, n);
}

size_t nb_curve_to_pose(const nb_pose *from, const nb_pose *to, double radius, nb_curve *out)
{
    size_t n = 0;
    if (!(radius > 0))
        return 0;
    /* LSL, RSR, LSR, RSL, then LRL and RLR: the order breaks ties in length (sort_unique
     * is stable), so it chooses which of two equal curves a hit-check table keeps. */
    static const int turns[4][2] = {{-1, -1}, {1, 1}, {-1, 1}, {1, -1}};
    for (int i = 0; i < 4; i++)
        n += (size_t)csc(from, to, radius, turns[i][0], turns[i][1], &out[n]);
    for (int t = -1; t <= 1; t += 2)
        for (unsigned v = 0; v < 2; v++)
            n += (size_t)ccc(from, to, radius, t, v, &out[n]);
    return sort_unique(out, n);
}

void nb_curve_set_reverse(nb_curve *c)
{
    for (unsigned i = 0; i < c->count; i++)
        c->seg[i].gear = -1;
}

double nbi_curve_point_length(double r, double px, double py)
{
    /* nb_curve_to_point from the pose (0, 0, 0), lengths only. */
    double best = INFINITY;
    for (int t = 1; t >= -1; t -= 2) {
        double cx = 0, cy = t * r; /* centre(): heading 0 + t pi/2 */
        double vx = px - cx, vy = py - cy, h = hypot(vx, vy);
        if (h >= r * (1 - 1e-12)) {
            double d = sqrt(fmax(h * h - r * r, 0));
            double psi = atan2(vy, vx) + t * atan2(r, d);
            best = fmin(best, r * mod2pi(t * psi) + d);
        }
        if (h >= r && h <= 3 * r && h >= 1e-12) {
            double cg = (3 * r * r + h * h) / (4 * r * h);
            double gamma = acos(fmin(1, fmax(-1, cg)));
            for (int v = 0; v < 2; v++) {
                double phi = atan2(vy, vx) + (v ? -gamma : gamma);
                double c2x = cx + 2 * r * cos(phi), c2y = cy + 2 * r * sin(phi);
                double h1 = phi + t * NBI_HALF_PI;
                double hp = atan2(py - c2y, px - c2x) - t * NBI_HALF_PI;
                best = fmin(best, r * (mod2pi(t * h1) + mod2pi(-t * (hp - h1))));
            }
        }
    }
    return best;
}
