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

#include "core/grid.h"
#include "turning/planner.h"

/* ---- grid A* ---- */

static int grid_step_ok(nb_planner *p, long x, long y, long nx, long ny)
{
    if (nx < 0 || ny < 0 || nx >= p->W || ny >= p->H || !nbi_cells_stand(&p->cells, nx, ny))
        return 0;
    if (p->has_box && (nx < p->box[0] || ny < p->box[1] || nx > p->box[2] || ny > p->box[3]))
        return 0;
    if (nx != x && ny != y && (!nbi_cells_stand(&p->cells, nx, y) || !nbi_cells_stand(&p->cells, x, ny)))
        return 0; /* no corner cutting */
    if (p->unit.width > 1) {
        nb_segment s = nb_segment_line(x + 0.5, y + 0.5, nx + 0.5, ny + 0.5);
        return nbi_walkable(p, &s, 1, 0, 0, 0);
    }
    return 1;
}

static double grid_h(const struct nbi_grid *s, long x, long y)
{
    long ax = labs(s->gx - x), ay = labs(s->gy - y);
    return s->eight ? nbi_octile((uint32_t)ax, (uint32_t)ay) : (double)(ax + ay);
}

int nbi_grid_begin(nb_planner *p, long sx, long sy, long gx, long gy, int eight)
{
    struct nbi_grid *s = &p->grid;
    s->gx = gx;
    s->gy = gy;
    s->eight = eight;
    s->best = s->goal = 0;
    nbi_nodes_clear(&p->nodes);
    nbi_open_clear(&p->heap);
    int fresh;
    uint32_t id = nbi_nodes_get(&p->nodes, sx, sy, 0, 1, &fresh);
    if (!id)
        return 0;
    nbi_node *n = nbi_nodes_at(&p->nodes, id);
    n->g = 0;
    n->h = grid_h(s, sx, sy);
    return nbi_queue(p, id);
}

enum nbi_run nbi_grid_run(nb_planner *p, uint64_t budget)
{
    struct nbi_grid *s = &p->grid;
    for (uint64_t done = 0; done < budget; done++) {
        uint32_t id = nbi_next_open(p);
        if (!id)
            return p->nodes.nomem ? NBI_RUN_NOMEM : NBI_RUN_NONE;
        nbi_node *n = nbi_nodes_at(&p->nodes, id);
        n->closed = 1;
        p->expanded++;
        const nbi_node *b = s->best ? nbi_nodes_at(&p->nodes, s->best) : NULL;
        if (!b || n->h < b->h || (n->h == b->h && n->g < b->g))
            s->best = id;
        long x = n->x, y = n->y;
        double g = n->g;
        if (x == s->gx && y == s->gy) {
            s->goal = id;
            return NBI_RUN_FOUND;
        }
        for (unsigned k = 0; k < (s->eight ? NBI_MOVES : 4u); k++) { /* the cardinal moves first */
            long nx = x + nbi_move_dx[k], ny = y + nbi_move_dy[k];
            if (!grid_step_ok(p, x, y, nx, ny))
                continue;
            p->generated++;
            double ng = g + nbi_move_cost(k);
            int fresh;
            uint32_t cid = nbi_nodes_get(&p->nodes, nx, ny, 0, 1, &fresh);
            if (!cid)
                return p->nodes.nomem ? NBI_RUN_NOMEM : NBI_RUN_FULL;
            nbi_node *c = nbi_nodes_at(&p->nodes, cid);
            if (ng >= c->g)
                continue;
            c->g = ng;
            c->h = grid_h(s, nx, ny);
            c->parent = id;
            c->closed = 0;
            if (!nbi_queue(p, cid))
                return NBI_RUN_NOMEM;
        }
        if (p->cells.nomem)
            return NBI_RUN_NOMEM;
    }
    return NBI_RUN_MORE;
}

int nbi_grid_path(nb_planner *p, int partial)
{
    uint32_t end = partial ? p->grid.best : p->grid.goal;
    size_t n = 0;
    for (uint32_t k = end; k; k = nbi_nodes_at(&p->nodes, k)->parent)
        n++;
    if (!nbi_grow(p->a, (void **)&p->path, &p->cappath, n ? n : 1, sizeof *p->path))
        return 0;
    p->npath = n;
    for (uint32_t k = end; k; k = nbi_nodes_at(&p->nodes, k)->parent) {
        const nbi_node *c = nbi_nodes_at(&p->nodes, k);
        p->path[--n] = (uint32_t)((size_t)c->y * (size_t)p->W + (size_t)c->x);
    }
    return 1;
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

int nbi_hybrid_bridge(nb_planner *p, const char **reason)
{
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
    p->fa = ia;
    p->fb = ib;
    const nb_pose *a = &p->fwd.wp[ia], *b = &p->bwd.wp[ib];
    long bx = (long)floor(b->x), by = (long)floor(b->y);
    long ax = (long)floor(a->x), ay = (long)floor(a->y);
    long box[4] = {(ax < bx ? ax : bx) - HYBRID_MARGIN, (ay < by ? ay : by) - HYBRID_MARGIN,
                   (ax > bx ? ax : bx) + HYBRID_MARGIN, (ay > by ? ay : by) + HYBRID_MARGIN};
    for (int i = 0; i < 2 && p->has_box; i++) { /* and within the query's window */
        box[i] = box[i] > p->box[i] ? box[i] : p->box[i];
        box[i + 2] = box[i + 2] < p->box[i + 2] ? box[i + 2] : p->box[i + 2];
    }
    struct nbi_dir_opts o = {8, p->onthefly, 0, box};
    if (!nbi_dir_begin(p, a, bx, by, (int)heading_index(p, b->heading), &o)) {
        *reason = nbi_reason_nomem;
        return 0;
    }
    return 1;
}

int nbi_hybrid_join(nb_planner *p, int backward_too)
{
    /* fwd[0..ia] + route + bwd[ib..] (without it: a partial route) */
    size_t ia = p->fa, ib = p->fb;
    nbi_route *t = &p->tmp;
    t->n = 0;
    if (!nbi_route_push(t, &p->fwd.wp[0], NULL) || !nbi_route_reserve(t, ia + p->route.n + p->bwd.n))
        return 0;
    for (size_t i = 1; i <= ia; i++)
        nbi_route_push(t, &p->fwd.wp[i], &p->fwd.edge[i - 1]);
    nbi_route_append(t, &p->route, 0);
    if (backward_too)
        nbi_route_append(t, &p->bwd, ib);
    nbi_route s = p->route;
    p->route = *t;
    *t = s;
    return 1;
}

/* ---- lines ---- */

int nbi_lines(nb_planner *p, const nb_pose *start, const char **reason)
{
    nbi_route *t = &p->route;
    t->n = 0;
    if (!nbi_route_reserve(t, p->npath + 1) || !nbi_route_push(t, start, NULL))
        goto nomem;
    for (size_t i = 0; i < p->npath; i++) {
        nb_pose q = {(double)(p->path[i] % (uint32_t)p->W) + 0.5,
                     (double)(p->path[i] / (uint32_t)p->W) + 0.5, 0};
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
