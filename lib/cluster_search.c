/* cluster_search.c: Dijkstra and A* confined to one cluster, the small
 * searches HAA* is made of: one Dijkstra per abstract node and (c, s)
 * builds all of a node's intra-edges at once, one per end inserts start
 * and goal, and A* refines an abstract edge into cells.
 *
 * The agent's top-left cell stays in the box (Theorem 2 maps the agent
 * to that one cell); its other cells may lie beyond, which the clearance
 * read at each cell already accounts for.  A diagonal step needs both
 * cardinal neighbours standable (strict) or one (weak); either neighbour
 * lies in the box whenever both ends do. */
#include <math.h>
#include <stdlib.h>

#include "abstract.h"

const int8_t nbi_move_dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
const int8_t nbi_move_dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};

int nbi_move_code(nb_cell a, nb_cell b)
{
    for (int d = 0; d < 8; d++)
        if (a.x + nbi_move_dx[d] == b.x && a.y + nbi_move_dy[d] == b.y)
            return d;
    return -1;
}

int nbi_csearch_init(nbi_csearch *cs, uint32_t maxcells)
{
    memset(cs, 0, sizeof *cs);
    size_t n = maxcells ? maxcells : 1;
    cs->maxcells = (uint32_t)n;
    cs->g = malloc(n * sizeof *cs->g);
    cs->parent = malloc(n * sizeof *cs->parent);
    cs->diag = malloc(n * sizeof *cs->diag);
    cs->seen = calloc(n, sizeof *cs->seen);
    cs->closed = calloc(n, sizeof *cs->closed);
    cs->target = calloc(n, sizeof *cs->target);
    cs->hpos = malloc(n * sizeof *cs->hpos);
    if (!cs->g || !cs->parent || !cs->diag || !cs->seen || !cs->closed || !cs->target ||
        !cs->hpos || !nbi_heap_init(&cs->heap, n, cs->hpos)) {
        nbi_csearch_free(cs);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        cs->hpos[i] = NBI_HEAP_NONE;
    return 1;
}

void nbi_csearch_free(nbi_csearch *cs)
{
    free(cs->g);
    free(cs->parent);
    free(cs->diag);
    free(cs->seen);
    free(cs->closed);
    free(cs->target);
    free(cs->hpos);
    nbi_heap_free(&cs->heap);
    memset(cs, 0, sizeof *cs);
}

/* A new stamp; on wrap-around every array is cleared once. */
static void next_stamp(nbi_csearch *cs)
{
    if (++cs->stamp == 0) {
        memset(cs->seen, 0, cs->maxcells * sizeof *cs->seen);
        memset(cs->closed, 0, cs->maxcells * sizeof *cs->closed);
        memset(cs->target, 0, cs->maxcells * sizeof *cs->target);
        cs->stamp = 1;
    }
}

static inline double octile(int32_t dx, int32_t dy)
{
    uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
    uint32_t lo = ax < ay ? ax : ay, hi = ax < ay ? ay : ax;
    return (double)(hi - lo) + NBI_SQRT2 * lo;
}

int nbi_csearch_run(nbi_csearch *cs, const nbi_layer *l, uint32_t size, int corner,
                    const nbi_box *box, nb_cell start, const nb_cell *goal, const nb_cell *targets,
                    size_t ntargets)
{
    next_stamp(cs);
    nbi_heap_clear(&cs->heap);
    cs->box = *box;
    cs->bw = (uint32_t)(box->x1 - box->x0);
    cs->expanded = 0;
    const uint32_t st = cs->stamp, bw = cs->bw;
    const int32_t x0 = box->x0, y0 = box->y0, x1 = box->x1, y1 = box->y1;
    size_t left = 0;
    uint32_t goal_i = UINT32_MAX;
    if (goal) {
        goal_i = (uint32_t)(goal->y - y0) * bw + (uint32_t)(goal->x - x0);
        left = 1;
    } else {
        for (size_t k = 0; k < ntargets; k++) {
            uint32_t t = (uint32_t)(targets[k].y - y0) * bw + (uint32_t)(targets[k].x - x0);
            if (cs->target[t] != st) {
                cs->target[t] = st;
                left++;
            }
        }
    }
    int all = !goal && ntargets == 0;
    uint32_t s = (uint32_t)(start.y - y0) * bw + (uint32_t)(start.x - x0);
    cs->g[s] = 0;
    cs->parent[s] = s;
    cs->diag[s] = 0;
    cs->seen[s] = st;
    nbi_heap_push(&cs->heap, goal ? octile(goal->x - start.x, goal->y - start.y) : 0, 0, s);
    while (!nbi_heap_empty(&cs->heap)) {
        nbi_heap_item it = nbi_heap_pop(&cs->heap);
        uint32_t i = it.id;
        cs->closed[i] = st;
        if (cs->budget && cs->expanded == cs->budget)
            return 0;
        cs->expanded++;
        if (goal ? i == goal_i : (!all && cs->target[i] == st)) {
            if (--left == 0)
                return 1;
        }
        int32_t x = x0 + (int32_t)(i % bw), y = y0 + (int32_t)(i / bw);
        double gi = cs->g[i];
        /* Cardinal neighbours first: the diagonal ones need them. */
        int free_[4];
        for (int d = 0; d < 4; d++) {
            int32_t nx = x + nbi_move_dx[d], ny = y + nbi_move_dy[d];
            free_[d] = nx >= x0 && ny >= y0 && nx < x1 && ny < y1 && nbi_standable(l, size, nx, ny);
        }
        for (int d = 0; d < 8; d++) {
            int32_t nx = x + nbi_move_dx[d], ny = y + nbi_move_dy[d];
            double step = 1.0;
            if (d < 4) {
                if (!free_[d])
                    continue;
            } else {
                /* d 4..7: (+1,+1) (+1,-1) (-1,+1) (-1,-1); cardinals 0 +x, 1 -x, 2 +y, 3 -y */
                int cx = nbi_move_dx[d] > 0 ? free_[0] : free_[1];
                int cy = nbi_move_dy[d] > 0 ? free_[2] : free_[3];
                if (corner == NBI_CORNER_STRICT ? !(cx && cy) : !(cx || cy))
                    continue;
                if (nx < x0 || ny < y0 || nx >= x1 || ny >= y1 || !nbi_standable(l, size, nx, ny))
                    continue;
                step = NBI_SQRT2;
            }
            uint32_t j = (uint32_t)(ny - y0) * bw + (uint32_t)(nx - x0);
            if (cs->closed[j] == st)
                continue;
            double ng = gi + step;
            if (cs->seen[j] != st || ng < cs->g[j]) {
                cs->seen[j] = st;
                cs->g[j] = ng;
                cs->parent[j] = i;
                cs->diag[j] = (uint16_t)(cs->diag[i] + (d >= 4));
                double h = goal ? octile(goal->x - nx, goal->y - ny) : 0;
                nbi_heap_push(&cs->heap, ng + h, -ng, j);
            }
        }
    }
    return all;
}

static int in_box(const nbi_csearch *cs, nb_cell c)
{
    return c.x >= cs->box.x0 && c.y >= cs->box.y0 && c.x < cs->box.x1 && c.y < cs->box.y1;
}

double nbi_csearch_cost(const nbi_csearch *cs, nb_cell c, uint32_t *diag)
{
    if (!in_box(cs, c))
        return -1;
    uint32_t i = (uint32_t)(c.y - cs->box.y0) * cs->bw + (uint32_t)(c.x - cs->box.x0);
    if (cs->closed[i] != cs->stamp)
        return -1;
    if (diag)
        *diag = cs->diag[i];
    return cs->g[i];
}

size_t nbi_csearch_path(const nbi_csearch *cs, nb_cell c, nb_cell *out)
{
    if (nbi_csearch_cost(cs, c, NULL) < 0)
        return 0;
    uint32_t i = (uint32_t)(c.y - cs->box.y0) * cs->bw + (uint32_t)(c.x - cs->box.x0);
    size_t n = 0;
    for (;;) {
        out[n].x = cs->box.x0 + (int32_t)(i % cs->bw);
        out[n].y = cs->box.y0 + (int32_t)(i / cs->bw);
        n++;
        if (cs->parent[i] == i)
            break;
        i = cs->parent[i];
    }
    for (size_t a = 0, b = n - 1; a < b; a++, b--) {
        nb_cell t = out[a];
        out[a] = out[b];
        out[b] = t;
    }
    return n;
}
