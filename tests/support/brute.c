/* brute.c: see brute.h.  Slow on purpose: nothing here shares code or
 * shortcuts with the library (no DP, no 4-connectivity argument, no
 * packed layers, no shared heap). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "brute.h"

int brute_passable(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, long x, long y)
{
    if (x < 0 || y < 0 || x >= (long)g->width || y >= (long)g->height)
        return 0;
    uint8_t code = legend->code[g->cells[(size_t)y * g->width + (size_t)x]];
    return code < legend->nterrains && ((cap >> code) & 1u);
}

unsigned brute_clearance(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, long x,
                         long y, unsigned limit)
{
    unsigned cv = 0;
    for (;;) {
        if (limit && cv == limit)
            return cv;
        /* Try the square of side cv + 1: every one of its cells. */
        unsigned side = cv + 1;
        for (unsigned dy = 0; dy < side; dy++)
            for (unsigned dx = 0; dx < side; dx++)
                if (!brute_passable(legend, g, cap, x + (long)dx, y + (long)dy))
                    return cv;
        cv = side;
    }
}

int brute_can_stand(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, unsigned size,
                    long x, long y)
{
    for (unsigned dy = 0; dy < size; dy++)
        for (unsigned dx = 0; dx < size; dx++)
            if (!brute_passable(legend, g, cap, x + (long)dx, y + (long)dy))
                return 0;
    return 1;
}

static const int DX[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int DY[8] = {0, 0, 1, -1, 1, -1, 1, -1};

/* May the agent step from (x, y) in direction d? */
static int may_move(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, unsigned size,
                    enum brute_corner rule, long x, long y, int d)
{
    long nx = x + DX[d], ny = y + DY[d];
    if (!brute_can_stand(legend, g, cap, size, nx, ny))
        return 0;
    if (d < 4)
        return 1;
    int a = brute_can_stand(legend, g, cap, size, nx, y);
    int b = brute_can_stand(legend, g, cap, size, x, ny);
    return rule == BRUTE_STRICT ? a && b : a || b;
}

uint32_t brute_components(const nbi_legend *legend, const nbb_grid *g, nb_capability cap,
                          unsigned size, enum brute_corner rule, uint32_t *label)
{
    size_t n = (size_t)g->width * g->height;
    long *queue = malloc(n * sizeof *queue);
    uint32_t count = 0;
    for (size_t i = 0; i < n; i++)
        label[i] = 0;
    for (size_t s = 0; s < n; s++) {
        long sx = (long)(s % g->width), sy = (long)(s / g->width);
        if (label[s] || !brute_can_stand(legend, g, cap, size, sx, sy))
            continue;
        count++;
        size_t head = 0, tail = 0;
        label[s] = count;
        queue[tail++] = (long)s;
        while (head < tail) {
            long i = queue[head++], x = i % (long)g->width, y = i / (long)g->width;
            for (int d = 0; d < 8; d++) {
                if (!may_move(legend, g, cap, size, rule, x, y, d))
                    continue;
                long j = (y + DY[d]) * (long)g->width + x + DX[d];
                if (!label[j]) {
                    label[j] = count;
                    queue[tail++] = j;
                }
            }
        }
    }
    free(queue);
    return count;
}

struct item {
    double d;
    long id;
};

static void push(struct item *h, size_t *n, double d, long id)
{
    size_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2].d > d) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i].d = d;
    h[i].id = id;
}

static struct item pop(struct item *h, size_t *n)
{
    struct item top = h[0], last = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1].d < h[c].d)
            c++;
        if (h[c].d >= last.d)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n)
        h[i] = last;
    return top;
}

int brute_step_ok(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, unsigned size,
                  enum brute_corner rule, long x, long y, long nx, long ny)
{
    if (!brute_can_stand(legend, g, cap, size, x, y))
        return 0;
    for (int d = 0; d < 8; d++)
        if (x + DX[d] == nx && y + DY[d] == ny)
            return may_move(legend, g, cap, size, rule, x, y, d);
    return 0;
}

double brute_dijkstra(const nbi_legend *legend, const nbb_grid *g, nb_capability cap, unsigned size,
                      enum brute_corner rule, long sx, long sy, long gx, long gy, const long *win,
                      double *dist_out)
{
    long x0 = win ? win[0] : 0, y0 = win ? win[1] : 0;
    long x1 = win ? win[2] : (long)g->width, y1 = win ? win[3] : (long)g->height;
    size_t n = (size_t)g->width * g->height, hn = 0;
    if (dist_out)
        for (size_t i = 0; i < n; i++)
            dist_out[i] = -1;
    if (!brute_can_stand(legend, g, cap, size, sx, sy) ||
        (gx >= 0 && !brute_can_stand(legend, g, cap, size, gx, gy)))
        return -1;
    double *dist = malloc(n * sizeof *dist);
    char *done = calloc(n, 1);
    struct item *heap = malloc(8 * n * sizeof *heap + sizeof *heap);
    for (size_t i = 0; i < n; i++)
        dist[i] = INFINITY;
    long start = sy * (long)g->width + sx, goal = gx >= 0 ? gy * (long)g->width + gx : -1;
    dist[start] = 0;
    push(heap, &hn, 0, start);
    double result = -1;
    while (hn) {
        struct item it = pop(heap, &hn);
        if (done[it.id])
            continue;
        done[it.id] = 1;
        if (dist_out)
            dist_out[it.id] = it.d;
        if (it.id == goal) {
            result = it.d;
            break;
        }
        long x = it.id % (long)g->width, y = it.id / (long)g->width;
        for (int d = 0; d < 8; d++) {
            long nx = x + DX[d], ny = y + DY[d];
            if (nx < x0 || ny < y0 || nx >= x1 || ny >= y1)
                continue;
            if (!may_move(legend, g, cap, size, rule, x, y, d))
                continue;
            long j = ny * (long)g->width + nx;
            double nd = it.d + (d < 4 ? 1.0 : sqrt(2.0));
            if (nd < dist[j]) {
                dist[j] = nd;
                push(heap, &hn, nd, j);
            }
        }
    }
    free(dist);
    free(done);
    free(heap);
    return result;
}

/* The multiplier of the agent's square at (x, y): the largest of its cells' terrains. */
double brute_square_cost(const nbi_legend *legend, const nbb_grid *g, const double *cost,
                         unsigned size, long x, long y)
{
    double m = 1;
    for (unsigned j = 0; cost && j < size; j++)
        for (unsigned i = 0; i < size; i++) {
            unsigned t = legend->code[g->cells[(size_t)(y + j) * g->width + (size_t)(x + i)]];
            if (t < legend->nterrains && cost[t] > m)
                m = cost[t];
        }
    return m;
}

/* Least cost from (sx, sy) to (gx, gy), -1 when none; an O(n^2) Dijkstra, as plain as it
 * gets (the maps are small). */
double brute_cost_dijkstra(const nbi_legend *legend, const nbb_grid *g, nb_capability cap,
                           unsigned size, enum brute_corner rule, const double *cost, long sx,
                           long sy, long gx, long gy)
{
    size_t n = (size_t)g->width * g->height;
    double *d = malloc(n * sizeof *d);
    char *done = calloc(n, 1);
    for (size_t i = 0; i < n; i++)
        d[i] = INFINITY;
    if (!brute_can_stand(legend, g, cap, size, sx, sy) ||
        !brute_can_stand(legend, g, cap, size, gx, gy)) {
        free(d);
        free(done);
        return -1;
    }
    d[(size_t)sy * g->width + (size_t)sx] = 0;
    double answer = -1;
    for (;;) {
        size_t u = n;
        for (size_t i = 0; i < n; i++)
            if (!done[i] && isfinite(d[i]) && (u == n || d[i] < d[u]))
                u = i;
        if (u == n)
            break;
        done[u] = 1;
        long x = (long)(u % g->width), y = (long)(u / g->width);
        if (x == gx && y == gy) {
            answer = d[u];
            break;
        }
        for (long dy = -1; dy <= 1; dy++)
            for (long dx = -1; dx <= 1; dx++) {
                long nx = x + dx, ny = y + dy;
                if ((!dx && !dy) || !brute_step_ok(legend, g, cap, size, rule, x, y, nx, ny))
                    continue;
                double w = (dx && dy ? sqrt(2.0) : 1.0) * brute_square_cost(legend, g, cost, size, nx, ny);
                size_t v = (size_t)ny * g->width + (size_t)nx;
                if (d[u] + w < d[v])
                    d[v] = d[u] + w;
            }
    }
    free(d);
    free(done);
    return answer;
}

uint32_t brute_components_numbered(const nbi_legend *legend, const nbb_grid *g, nb_capability cap,
                                   unsigned size, uint32_t *label)
{
    size_t n = (size_t)g->width * g->height;
    uint32_t *queue = malloc((n ? n : 1) * sizeof *queue), next = 0;
    memset(label, 0, n * sizeof *label);
    for (size_t i = 0; i < n; i++) {
        if (label[i] || !brute_can_stand(legend, g, cap, size, (long)(i % g->width),
                                         (long)(i / g->width)))
            continue;
        size_t head = 0, tail = 0;
        label[i] = ++next;
        queue[tail++] = (uint32_t)i;
        while (head < tail) {
            uint32_t c = queue[head++];
            long x = (long)(c % g->width), y = (long)(c / g->width);
            for (int k = 0; k < 4; k++) {
                long nx = x + DX[k], ny = y + DY[k];
                if (nx < 0 || ny < 0 || nx >= (long)g->width || ny >= (long)g->height)
                    continue;
                size_t m = (size_t)ny * g->width + (size_t)nx;
                if (!label[m] && brute_can_stand(legend, g, cap, size, nx, ny))
                    label[m] = next, queue[tail++] = (uint32_t)m;
            }
        }
    }
    free(queue);
    return next;
}

static double octile_between(long ax, long ay, long bx, long by)
{
    long dx = labs(ax - bx), dy = labs(ay - by);
    long lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
    return (double)hi + (sqrt(2.0) - 1) * (double)lo;
}

void brute_nearest_reachable(const nbi_legend *legend, const nbb_grid *g, nb_capability cap,
                             unsigned size, enum brute_corner rule, long sx, long sy, long gx,
                             long gy, long *x, long *y)
{
    size_t n = (size_t)g->width * g->height, head = 0, tail = 0;
    uint8_t *seen = calloc(n, 1);
    uint32_t *queue = malloc(n * sizeof *queue);
    long bx = sx, by = sy;
    double bd = octile_between(sx, sy, gx, gy);
    seen[(size_t)sy * g->width + (size_t)sx] = 1;
    queue[tail++] = (uint32_t)sy * g->width + (uint32_t)sx;
    while (head < tail) {
        long cx = (long)(queue[head] % g->width), cy = (long)(queue[head] / g->width);
        head++;
        double d = octile_between(cx, cy, gx, gy);
        if (d < bd || (d == bd && (cy < by || (cy == by && cx < bx)))) {
            bd = d;
            bx = cx;
            by = cy;
        }
        for (long dy = -1; dy <= 1; dy++)
            for (long dx = -1; dx <= 1; dx++) {
                long nx = cx + dx, ny = cy + dy;
                if ((!dx && !dy) || nx < 0 || ny < 0 || nx >= (long)g->width ||
                    ny >= (long)g->height || seen[(size_t)ny * g->width + (size_t)nx] ||
                    !brute_step_ok(legend, g, cap, size, rule, cx, cy, nx, ny))
                    continue;
                seen[(size_t)ny * g->width + (size_t)nx] = 1;
                queue[tail++] = (uint32_t)ny * g->width + (uint32_t)nx;
            }
    }
    free(seen);
    free(queue);
    *x = bx;
    *y = by;
}
