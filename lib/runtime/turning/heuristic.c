/* heuristic.c: lower bounds of the cost of a unit's path to its goal, for
 * Directional A*.
 *
 * Two bounds, and the search takes the larger:
 *  - the curve table's (curvetable.c): no forward path from a pose to a
 *    point is shorter than the shortest curve; it knows the turning circles
 *    but not the grid, and a unit that reverses gets the straight distance;
 *  - the lattice bound: every move of Directional-N goes from a cell centre
 *    to the centre of one of N neighbours v at a cost no less than the
 *    shortest curve L(v) between them, whatever the headings.  A path's
 *    displacement d is then a sum of moves v_i with costs c_i, and for any
 *    a with a . v <= L(v) for every v, a . d <= sum c_i.  The largest such
 *    a . d is the gauge of the polygon spanned by the points v / L(v): the
 *    cost of d in the cheapest mix of moves, where the straight distance
 *    charges a move (2, 1) as if headings between the eight existed.  It
 *    costs a few products (the polygon has the grid's eight symmetries, so
 *    d is folded into the first octant, which meets a handful of facets). */
#include <math.h>
#include <stdlib.h>

#include "turning/planner.h"

struct pt {
    double x, y;
};

static int by_xy(const void *a, const void *b)
{
    const struct pt *p = a, *q = b;
    return p->x < q->x ? -1 : p->x > q->x ? 1 : p->y < q->y ? -1 : p->y > q->y;
}

static double cross(struct pt o, struct pt a, struct pt b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/* The shortest curve between the centres of a cell and its neighbour o,
 * over every start and end heading. */
static double least_length(const nb_planner *p, unsigned o)
{
    double best = INFINITY;
    const nbi_edges *e = &p->edges;
    for (unsigned h0 = 0; h0 < p->K; h0++)
        for (unsigned h1 = 0; h1 < p->K; h1++) {
            if (o < e->N) {
                size_t ix = ((size_t)h0 * p->K + h1) * e->N + o;
                best = fmin(best, e->len[e->efirst[ix]]); /* the first is the shortest */
                continue;
            }
            nb_pose a = {0.5, 0.5, nbi_heading(h0, p->K)};
            nb_pose b = {0.5 + p->off[o][0], 0.5 + p->off[o][1], nbi_heading(h1, p->K)};
            nb_curve cand[NB_CURVE_MAX_CANDIDATES];
            if (nb_curve_to_pose(&a, &b, p->unit.radius, cand))
                best = fmin(best, cand[0].length);
        }
    return best;
}

int nbi_lattice_need(nb_planner *p, unsigned N)
{
    struct nbi_lattice *l = &p->lattice[N == 8 ? 0 : N == 24 ? 1 : 2];
    if (l->ready)
        return 1;
    struct pt pts[8 * NBI_MAX_NEIGHBOURS], hull[16 * NBI_MAX_NEIGHBOURS + 1];
    size_t n = 0;
    for (unsigned o = 0; o < N; o++) {
        /* A hair short: lengths baked elsewhere may differ in their last
         * bits, and the bound must stay below every one. */
        double L = least_length(p, o) * (1 - 1e-9), x = p->off[o][0] / L, y = p->off[o][1] / L;
        l->least[o] = L;
        /* v / L(v) and its images under the grid's eight symmetries (bit 2 of s swaps x and
         * y, bits 0 and 1 negate them), so the hull has them too. */
        for (int s = 0; s < 8; s++) {
            double u = s & 4 ? y : x, v = s & 4 ? x : y;
            pts[n].x = s & 1 ? -u : u;
            pts[n].y = s & 2 ? -v : v;
            n++;
        }
    }
    /* Andrew's monotone chain, counter-clockwise. */
    nbi_sort(pts, n, sizeof *pts, by_xy);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0)
            k--;
        hull[k++] = pts[i];
    }
    for (size_t i = n - 1, t = k + 1; i-- > 0;) {
        while (k >= t && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0)
            k--;
        hull[k++] = pts[i];
    }
    /* hull[k - 1] is hull[0]: k - 1 edges.  Keep those over the first
     * octant (angles 0 to 45 degrees). */
    l->nf = 0;
    for (size_t i = 0; i + 1 < k && l->nf < 64; i++) {
        struct pt a = hull[i], b = hull[i + 1];
        double aa = atan2(a.y, a.x), ab = atan2(b.y, b.x);
        if (ab < -1e-12 || aa > M_PI / 4 + 1e-12 || aa > ab)
            continue;
        double nx = b.y - a.y, ny = a.x - b.x, c = nx * a.x + ny * a.y; /* outward normal */
        /* The facet lies on n . p = c, that is a . p = 1 with a = n / c: the gauge of d on
         * this facet is a . d. */
        l->a[l->nf][0] = nx / c;
        l->a[l->nf][1] = ny / c;
        l->nf++;
    }
    l->ready = 1;
    return 1;
}

double nbi_lattice_bound(const struct nbi_lattice *l, long dx, long dy)
{
    double x = labs(dx), y = labs(dy), g = 0;
    if (y > x) {
        double t = x;
        x = y;
        y = t;
    }
    for (unsigned i = 0; i < l->nf; i++)
        g = fmax(g, l->a[i][0] * x + l->a[i][1] * y);
    return g;
}

double nbi_heuristic(const nb_planner *p, const nb_pose *from, long gx, long gy, int reverse_ok)
{
    if (reverse_ok)
        return hypot(gx + 0.5 - from->x, gy + 0.5 - from->y);
    return nbi_curvetab_lookup(&p->ct, from, gx + 0.5, gy + 0.5);
}
