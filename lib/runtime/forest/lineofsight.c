/* lineofsight.c: line of sight among circles.  The article tests a
 * segment against every circle (point-to-segment distance with u clamped
 * to [0, 1]); with n circles and O(n^2) bitangents that is the O(n^3) of
 * the bake.  A uniform grid keeps the same test but offers each segment
 * only the circles of the cells it crosses (Amanatides and Woo's walk). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/heap.h"
#include "forest/forest.h"

/* Cells at most 4 per circle (and 64 for tiny forests): the grid stays
 * O(n) in memory whatever the circles' spread. */
#define CELLS_PER_CIRCLE 4
#define MIN_CELLS 64
#define MAX_SIDE 65536

static void cell_range(const nbi_cgrid *g, double lo, double hi, double origin, uint32_t side,
                       uint32_t *a, uint32_t *b)
{
    /* Clamped as doubles, NaN included, before the conversion. */
    double fa = floor((lo - origin) / g->cell), fb = floor((hi - origin) / g->cell);
    *a = !(fa >= 0) ? 0 : fa >= side ? side - 1 : (uint32_t)fa;
    *b = !(fb >= 0) ? 0 : fb >= side ? side - 1 : (uint32_t)fb;
}

/* The cells a circle is listed in: its bounding box, widened a little so
 * that rounding in the walk never misses it. */
static void circle_cells(const nbi_cgrid *g, const nb_circle *c, double margin, uint32_t *x0,
                         uint32_t *x1, uint32_t *y0, uint32_t *y1)
{
    cell_range(g, c->x - c->r - margin, c->x + c->r + margin, g->x0, g->w, x0, x1);
    cell_range(g, c->y - c->r - margin, c->y + c->r + margin, g->y0, g->h, y0, y1);
}

static double margin_of(const nbi_cgrid *g, double eps) { return 4 * eps + g->cell * 1e-9; }

int nbi_cgrid_build(nbi_cgrid *g, const nb_circle *c, size_t n, double eps)
{
    double xmin = 0, xmax = 1, ymin = 0, ymax = 1, rsum = 0;
    for (size_t i = 0; i < n; i++) {
        double a = c[i].x - c[i].r, b = c[i].x + c[i].r, d = c[i].y - c[i].r, e = c[i].y + c[i].r;
        if (i == 0 || a < xmin)
            xmin = a;
        if (i == 0 || b > xmax)
            xmax = b;
        if (i == 0 || d < ymin)
            ymin = d;
        if (i == 0 || e > ymax)
            ymax = e;
        rsum += c[i].r;
    }
    double wx = xmax - xmin, wy = ymax - ymin;
    if (wx <= 0)
        wx = 1;
    if (wy <= 0)
        wy = 1;
    /* About one circle per cell, cells no smaller than the mean radius. */
    double cells = (double)(n ? n : 1);
    double cell = sqrt(wx * wy / cells);
    if (n && cell < rsum / (double)n)
        cell = rsum / (double)n;
    double limit = (double)(n * CELLS_PER_CIRCLE + MIN_CELLS);
    while (ceil(wx / cell) * ceil(wy / cell) > limit || ceil(wx / cell) > MAX_SIDE ||
           ceil(wy / cell) > MAX_SIDE)
        cell *= 1.25;
    g->x0 = xmin;
    g->y0 = ymin;
    g->cell = cell;
    g->w = (uint32_t)ceil(wx / cell);
    g->h = (uint32_t)ceil(wy / cell);
    if (g->w == 0)
        g->w = 1;
    if (g->h == 0)
        g->h = 1;
    size_t ncells = (size_t)g->w * g->h;
    if (ncells + 1 > g->start_cap) {
        uint32_t *s = nbi_realloc_array(g->a, g->start, (ncells + 1), sizeof *s);
        if (!s)
            return 0;
        g->start = s;
        g->start_cap = ncells + 1;
    }
    memset(g->start, 0, (ncells + 1) * sizeof *g->start);
    double margin = margin_of(g, eps);
    /* A counting sort into cells: each cell's count one place up, so that after the sums
     * start[k] is where cell k's circles begin. */
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t x0, x1, y0, y1;
        circle_cells(g, &c[i], margin, &x0, &x1, &y0, &y1);
        for (uint32_t y = y0; y <= y1; y++)
            for (uint32_t x = x0; x <= x1; x++)
                g->start[(size_t)y * g->w + x + 1]++;
        total += (size_t)(x1 - x0 + 1) * (y1 - y0 + 1);
    }
    if (total > UINT32_MAX)
        return 0;
    for (size_t k = 0; k < ncells; k++)
        g->start[k + 1] += g->start[k];
    if (total > g->items_cap) {
        uint32_t *it = nbi_realloc_array(g->a, g->items, (total ? total : 1), sizeof *it);
        if (!it)
            return 0;
        g->items = it;
        g->items_cap = total ? total : 1;
    }
    /* Fill in circle order, so each cell lists its circles ascending. */
    for (size_t i = 0; i < n; i++) {
        uint32_t x0, x1, y0, y1;
        circle_cells(g, &c[i], margin, &x0, &x1, &y0, &y1);
        for (uint32_t y = y0; y <= y1; y++)
            for (uint32_t x = x0; x <= x1; x++)
                g->items[g->start[(size_t)y * g->w + x]++] = (uint32_t)i;
    }
    /* The fill moved each start[k] on to cell k + 1's: one place back. */
    for (size_t k = ncells; k > 0; k--)
        g->start[k] = g->start[k - 1];
    g->start[0] = 0;
    return 1;
}

void nbi_cgrid_free(nbi_cgrid *g)
{
    nbi_free(g->a, g->start);
    nbi_free(g->a, g->items);
    memset(g, 0, sizeof *g);
}

long nbi_inside(const nbi_cgrid *g, const nb_circle *c, nb_vec2 p, double eps)
{
    double fx = floor((p.x - g->x0) / g->cell), fy = floor((p.y - g->y0) / g->cell);
    if (!(fx >= 0 && fy >= 0 && fx < g->w && fy < g->h))
        return -1;
    size_t cell = (size_t)fy * g->w + (size_t)fx;
    for (uint32_t k = g->start[cell]; k < g->start[cell + 1]; k++) {
        const nb_circle *ci = &c[g->items[k]];
        double r = ci->r - eps;
        double dx = p.x - ci->x, dy = p.y - ci->y;
        if (r > 0 && dx * dx + dy * dy < r * r)
            return g->items[k];
    }
    return -1;
}

/* Circles a segment grazes (its distance to them within eps of their
 * radius): two that graze it at one point from opposite sides touch
 * there, and the segment would pass between them through a gap of width
 * zero. */
#define MAX_GRAZES 8
typedef struct grazes {
    int n;
    uint32_t id[MAX_GRAZES];
    nb_vec2 at[MAX_GRAZES];
    int side[MAX_GRAZES];
} grazes;

/* The article's test: the distance from the centre to the segment, u
 * clamped to [0, 1], against the radius (less eps: grazing is allowed,
 * except through a point where two circles touch). */
static int blocks(const nb_circle *ci, uint32_t id, nb_vec2 a, nb_vec2 d, double dd, double eps,
                  grazes *gr)
{
    double cx = ci->x - a.x, cy = ci->y - a.y;
    double u = dd > 0 ? (cx * d.x + cy * d.y) / dd : 0;
    if (u < 0)
        u = 0;
    else if (u > 1)
        u = 1;
    double ex = u * d.x - cx, ey = u * d.y - cy, e2 = ex * ex + ey * ey;
    double r = ci->r - eps, out = ci->r + eps;
    if (r > 0 && e2 < r * r)
        return 1;
    if (e2 > out * out)
        return 0;
    nb_vec2 at = {a.x + u * d.x, a.y + u * d.y};
    int side = d.x * cy - d.y * cx > 0;
    for (int k = 0; k < gr->n; k++) {
        if (gr->id[k] == id)
            return 0;
        if (gr->side[k] != side && hypot(gr->at[k].x - at.x, gr->at[k].y - at.y) <= 8 * eps)
            return 1;
    }
    if (gr->n < MAX_GRAZES) {
        gr->id[gr->n] = id;
        gr->at[gr->n] = at;
        gr->side[gr->n++] = side;
    }
    return 0;
}

static int cell_blocks(const nbi_cgrid *g, const nb_circle *c, uint32_t x, uint32_t y, nb_vec2 a,
                       nb_vec2 d, double dd, uint32_t skip1, uint32_t skip2, double eps, grazes *gr)
{
    size_t cell = (size_t)y * g->w + x;
    for (uint32_t k = g->start[cell]; k < g->start[cell + 1]; k++) {
        uint32_t id = g->items[k];
        if (id != skip1 && id != skip2 && blocks(&c[id], id, a, d, dd, eps, gr))
            return 1;
    }
    return 0;
}

int nbi_los(const nbi_cgrid *g, const nb_circle *c, nb_vec2 a, nb_vec2 b, uint32_t skip1,
            uint32_t skip2, double eps)
{
    nb_vec2 d = {b.x - a.x, b.y - a.y};
    double dd = d.x * d.x + d.y * d.y;
    grazes gr = {0};
    /* Clip to the grid (Liang and Barsky): no circle lies outside it. */
    double t0 = 0, t1 = 1;
    double lo[2] = {g->x0, g->y0}, hi[2] = {g->x0 + g->w * g->cell, g->y0 + g->h * g->cell};
    double pa[2] = {a.x, a.y}, pd[2] = {d.x, d.y};
    for (int k = 0; k < 2; k++) {
        if (pd[k] == 0) {
            if (pa[k] < lo[k] || pa[k] > hi[k])
                return 1;
            continue;
        }
        double ta = (lo[k] - pa[k]) / pd[k], tb = (hi[k] - pa[k]) / pd[k];
        if (ta > tb) {
            double t = ta;
            ta = tb;
            tb = t;
        }
        if (ta > t0)
            t0 = ta;
        if (tb < t1)
            t1 = tb;
    }
    if (t0 > t1)
        return 1;
    uint32_t ix, iy, ex, ey, dummy;
    cell_range(g, a.x + t0 * d.x, a.x + t0 * d.x, g->x0, g->w, &ix, &dummy);
    cell_range(g, a.y + t0 * d.y, a.y + t0 * d.y, g->y0, g->h, &iy, &dummy);
    cell_range(g, a.x + t1 * d.x, a.x + t1 * d.x, g->x0, g->w, &ex, &dummy);
    cell_range(g, a.y + t1 * d.y, a.y + t1 * d.y, g->y0, g->h, &ey, &dummy);
    int sx = d.x > 0 ? 1 : d.x < 0 ? -1 : 0, sy = d.y > 0 ? 1 : d.y < 0 ? -1 : 0;
    /* tmx (tmy): the t where the segment crosses into the next column (row); tdx (tdy): the
     * t a whole cell's width takes.  Each step goes across the nearer of the two. */
    double tmx = INFINITY, tmy = INFINITY, tdx = INFINITY, tdy = INFINITY;
    if (sx) {
        double edge = g->x0 + (double)(sx > 0 ? ix + 1 : ix) * g->cell;
        tmx = (edge - a.x) / d.x;
        tdx = g->cell / fabs(d.x);
    }
    if (sy) {
        double edge = g->y0 + (double)(sy > 0 ? iy + 1 : iy) * g->cell;
        tmy = (edge - a.y) / d.y;
        tdy = g->cell / fabs(d.y);
    }
    for (uint64_t steps = 0; steps <= (uint64_t)g->w + g->h; steps++) {
        if (cell_blocks(g, c, ix, iy, a, d, dd, skip1, skip2, eps, &gr))
            return 0;
        if (ix == ex && iy == ey)
            return 1;
        if (tmx < tmy) {
            if (tmx > t1 || (sx < 0 && ix == 0) || (sx > 0 && ix + 1 >= g->w))
                break;
            ix = (uint32_t)((int64_t)ix + sx);
            tmx += tdx;
        } else {
            if (tmy > t1 || (sy < 0 && iy == 0) || (sy > 0 && iy + 1 >= g->h))
                break;
            iy = (uint32_t)((int64_t)iy + sy);
            tmy += tdy;
        }
    }
    /* Rounding stopped the walk short of the end's cell: test it too. */
    return !cell_blocks(g, c, ex, ey, a, d, dd, skip1, skip2, eps, &gr);
}

int nbi_los_brute(const nb_circle *c, size_t n, nb_vec2 a, nb_vec2 b, uint32_t skip1, uint32_t skip2,
                  double eps)
{
    nb_vec2 d = {b.x - a.x, b.y - a.y};
    double dd = d.x * d.x + d.y * d.y;
    grazes gr = {0};
    for (size_t i = 0; i < n; i++)
        if (i != skip1 && i != skip2 && blocks(&c[i], (uint32_t)i, a, d, dd, eps, &gr))
            return 0;
    return 1;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

size_t nbi_cgrid_near(const nbi_cgrid *g, const nb_circle *c, size_t n, size_t i, uint32_t *out,
                      uint8_t *seen)
{
    (void)n;
    uint32_t x0, x1, y0, y1;
    size_t k = 0;
    circle_cells(g, &c[i], margin_of(g, 0), &x0, &x1, &y0, &y1);
    for (uint32_t y = y0; y <= y1; y++)
        for (uint32_t x = x0; x <= x1; x++) {
            size_t cell = (size_t)y * g->w + x;
            for (uint32_t j = g->start[cell]; j < g->start[cell + 1]; j++) {
                uint32_t id = g->items[j];
                if (id != i && !seen[id]) {
                    seen[id] = 1;
                    out[k++] = id;
                }
            }
        }
    for (size_t j = 0; j < k; j++)
        seen[out[j]] = 0;
    nbi_sort(out, k, sizeof *out, cmp_u32);
    return k;
}

size_t nbi_circle_free_arcs(const nbi_cgrid *g, const nb_circle *c, size_t n, size_t i, double eps,
                            double *intervals, uint32_t *near, uint8_t *seen, nbi_free_arc *out)
{
    size_t k = nbi_cgrid_near(g, c, n, i, near, seen), m = 0;
    int whole = 0;
    for (size_t j = 0; j < k && !whole; j++) {
        double from, span;
        int r = nbi_cover(&c[i], &c[near[j]], eps, &from, &span);
        if (r == 2)
            whole = 1;
        else if (r == 1) {
            intervals[2 * m] = from;
            intervals[2 * m + 1] = span;
            m++;
        }
    }
    return nbi_free_arcs(intervals, m, whole, eps / c[i].r, out);
}
