/* hybrid.c: the searches that start from a plain grid path (Pinter,
 * "Performance and Hybrid Solutions"): a grid A* over the cells the unit
 * may stand on, then
 *  - the hybrid: Smoothing-48 along the path; when it fails, Smoothing-48
 *    back from the goal, a Directional-8 search between the two failure
 *    points (at most 12 cells apart), the three pieces joined; and a final
 *    simple smoothing;
 *  - pre-smoothing alone: Smoothing-48 and the final smoothing;
 *  - lines: an 8-connected path smoothed with straight lines (the unit's
 *    width, no turning radius: his Figure 2c). */
#include <math.h>
#include <stdlib.h>

#include "turning/planner.h"

/* ---- grid A* ---- */

static int grid_step_ok(const nb_planner *p, long x, long y, long nx, long ny)
{
    if (nx < 0 || ny < 0 || nx >= p->W || ny >= p->H || !p->stand[(size_t)ny * p->W + nx])
        return 0;
    if (nx != x && ny != y && (!p->stand[(size_t)y * p->W + nx] || !p->stand[(size_t)ny * p->W + x]))
        return 0; /* no corner cutting */
    if (p->unit.width > 1) {
        nb_segment s = nb_segment_line(x + 0.5, y + 0.5, nx + 0.5, ny + 0.5);
        return nbi_walkable(p, &s, 1, 0, 0, 0);
    }
    return 1;
}

int nbi_grid_astar(nb_planner *p, long sx, long sy, long gx, long gy, int eight)
{
    static const int dir[8][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
    const unsigned K = p->K;
    nbi_search_begin(p);
    uint32_t sid = (uint32_t)(((size_t)sy * p->W + sx) * K);
    p->g[sid] = 0;
    p->parent[sid] = NBI_NO_PARENT;
    p->stamp[sid] = p->gen;
    if (!nbi_heap_push(&p->heap, 0, 0, sid))
        return -1;
    while (!nbi_heap_empty(&p->heap)) {
        uint32_t id = nbi_heap_pop(&p->heap).id;
        p->expanded++;
        long x = (long)(id / K % (uint32_t)p->W), y = (long)(id / K / (uint32_t)p->W);
        if (x == gx && y == gy) {
            size_t n = 0;
            for (uint32_t k = id; k != NBI_NO_PARENT; k = p->parent[k])
                n++;
            p->ncells = n;
            for (uint32_t k = id; k != NBI_NO_PARENT; k = p->parent[k])
                p->cells[--n] = k / K;
            return 1;
        }
        for (int d = 0; d < (eight ? 8 : 4); d++) {
            long nx = x + dir[d][0], ny = y + dir[d][1];
            if (!grid_step_ok(p, x, y, nx, ny))
                continue;
            p->generated++;
            double ng = p->g[id] + (d < 4 ? 1 : M_SQRT2);
            uint32_t nid = (uint32_t)(((size_t)ny * p->W + nx) * K);
            if (nbi_seen(p, nid) && ng >= p->g[nid])
                continue;
            p->g[nid] = ng;
            p->parent[nid] = id;
            p->stamp[nid] = p->gen;
            long ax = labs(gx - nx), ay = labs(gy - ny);
            double h = eight ? (double)(ax > ay ? ax - ay : ay - ax) + M_SQRT2 * (double)(ax < ay ? ax : ay)
                             : (double)(ax + ay);
            if (!nbi_heap_push(&p->heap, ng + h, -ng, nid))
                return -1;
        }
    }
    return 0;
}

/* ---- the hybrid ---- */

static long cheb(const nb_pose *a, const nb_pose *b)
{
    long dx = labs((long)floor(a->x) - (long)floor(b->x)), dy = labs((long)floor(a->y) - (long)floor(b->y));
    return dx > dy ? dx : dy;
}

static unsigned heading_index(const nb_planner *p, double h)
{
    /* Reduced first: lround of a huge heading would overflow. */
    long k = lround(nbi_angle_mod(h) * p->K / (2 * M_PI)) % (long)p->K;
    return (unsigned)(k < 0 ? k + (long)p->K : k);
}

#define HYBRID_SPAN 12   /* failure points at most this far apart (cells) */
#define HYBRID_MARGIN 10 /* the Directional-8 search's room around them */

int nbi_hybrid(nb_planner *p, const nb_pose *start, long gx, long gy, int goal_heading,
               int onthefly, int fallback_ok, int *fell_back, const char **reason)
{
    long sx = (long)floor(start->x), sy = (long)floor(start->y);
    *fell_back = 0;
    int r = nbi_grid_astar(p, sx, sy, gx, gy, 0);
    if (r <= 0) {
        *reason = r < 0 ? nbi_reason_nomem : "no 4-connected grid path";
        return 0;
    }
    size_t fa, fb;
    r = nbi_smooth48(p, start, 0, goal_heading, onthefly, &p->fwd, &fa);
    if (r < 0) {
        *reason = nbi_reason_nomem;
        return 0;
    }
    if (r == 1) {
        nbi_route t = p->route;
        p->route = p->fwd;
        p->fwd = t;
        return 1;
    }
    if (!fallback_ok) {
        *reason = "Smoothing-48 found no legal way along the grid path";
        return 0;
    }
    *fell_back = 1;
    if (nbi_smooth48(p, start, 1, goal_heading, onthefly, &p->bwd, &fb) < 0) {
        *reason = nbi_reason_nomem;
        return 0;
    }
    /* a ends the forward list, b starts the backward one; step each away
     * from the other while they stay within the span. */
    size_t ia = p->fwd.n - 1, ib = 0;
    if (cheb(&p->fwd.wp[ia], &p->bwd.wp[ib]) > HYBRID_SPAN) {
        *reason = "the two smoothing passes failed more than 12 cells apart";
        return 0;
    }
    for (int moved = 1; moved;) {
        moved = 0;
        if (ia > 0 && cheb(&p->fwd.wp[ia - 1], &p->bwd.wp[ib]) <= HYBRID_SPAN) {
            ia--;
            moved = 1;
        }
        if (ib + 1 < p->bwd.n && cheb(&p->fwd.wp[ia], &p->bwd.wp[ib + 1]) <= HYBRID_SPAN) {
            ib++;
            moved = 1;
        }
    }
    const nb_pose *a = &p->fwd.wp[ia], *b = &p->bwd.wp[ib];
    long bx = (long)floor(b->x), by = (long)floor(b->y);
    long ax = (long)floor(a->x), ay = (long)floor(a->y);
    long box[4] = {(ax < bx ? ax : bx) - HYBRID_MARGIN, (ay < by ? ay : by) - HYBRID_MARGIN,
                   (ax > bx ? ax : bx) + HYBRID_MARGIN, (ay > by ? ay : by) + HYBRID_MARGIN};
    struct nbi_dir_opts o = {8, onthefly, 0, 0, box};
    nb_pose from = *a;
    if (!nbi_directional(p, &from, bx, by, (int)heading_index(p, b->heading), &o, reason)) {
        *reason = "Directional-8 found no path between the failure points";
        return 0;
    }
    /* fwd[0..ia] + route + bwd[ib..] */
    nbi_route *t = &p->tmp;
    t->n = 0;
    if (!nbi_route_push(t, &p->fwd.wp[0], NULL) || !nbi_route_reserve(t, ia + p->route.n + p->bwd.n))
        goto nomem;
    for (size_t i = 1; i <= ia; i++)
        nbi_route_push(t, &p->fwd.wp[i], &p->fwd.edge[i - 1]);
    nbi_route_append(t, &p->route, 0);
    nbi_route_append(t, &p->bwd, ib);
    nbi_route s = p->route;
    p->route = *t;
    *t = s;
    return 1;
nomem:
    *reason = nbi_reason_nomem;
    return 0;
}

/* ---- lines ---- */

int nbi_lines(nb_planner *p, const nb_pose *start, long gx, long gy, const char **reason)
{
    long sx = (long)floor(start->x), sy = (long)floor(start->y);
    int r = nbi_grid_astar(p, sx, sy, gx, gy, 1);
    if (r <= 0) {
        *reason = r < 0 ? nbi_reason_nomem : "no 8-connected grid path";
        return 0;
    }
    nbi_route *t = &p->route;
    t->n = 0;
    if (!nbi_route_reserve(t, p->ncells + 1) || !nbi_route_push(t, start, NULL))
        goto nomem;
    for (size_t i = 0; i < p->ncells; i++) {
        nb_pose q = {(double)(p->cells[i] % (uint32_t)p->W) + 0.5,
                     (double)(p->cells[i] / (uint32_t)p->W) + 0.5, 0};
        const nb_pose *prev = &t->wp[t->n - 1];
        if (q.x == prev->x && q.y == prev->y)
            continue;
        nb_curve c;
        memset(&c, 0, sizeof c);
        c.seg[0] = nb_segment_line(prev->x, prev->y, q.x, q.y);
        c.count = 1;
        c.length = c.seg[0].length;
        strcpy(c.word, "S");
        q.heading = c.seg[0].heading;
        if (i == 0 && !nbi_walkable(p, c.seg, 1, 1, start->x, start->y)) {
            *reason = "the unit cannot reach the centre of its cell";
            return 0;
        }
        nbi_route_push(t, &q, &c);
    }
    return 1;
nomem:
    *reason = nbi_reason_nomem;
    return 0;
}
