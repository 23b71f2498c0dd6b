/* smooth.c: smoothing a path for a unit (Pinter, "Smoothing the A* Path"
 * and "A Better Smoothing Pass").
 *
 * The simple pass is his Listing 1: from a check point, skip waypoints as
 * long as the unit can go straight (or along a curve between the poses)
 * to the next one.  Walkable() here is the exact sweep of the unit's disc,
 * not four points sampled every fifth of a cell, so a corner is never cut
 * between samples.
 *
 * Smoothing-48 is a Directional-48 search that may only stop on the
 * waypoints of the grid path, hopping one, two or three waypoints at a
 * time, any heading at each; its heuristic favours the path's direction.
 * It gives up when it falls back six waypoints behind the farthest one it
 * reached, and then reports that farthest point. */
#include <math.h>

#include "turning/planner.h"

/* The curve from a pose to a pose (or the line, for lines) that the unit
 * can drive, no longer than limit; 0 when none. */
static int walkable(nb_planner *p, const nb_pose *a, const nb_pose *b, int lines, int skip,
                    double limit, nb_curve *out)
{
    if (lines) {
        memset(out, 0, sizeof *out);
        out->seg[0] = nb_segment_line(a->x, a->y, b->x, b->y);
        out->count = 1;
        out->length = out->seg[0].length;
        strcpy(out->word, "S");
        return out->length <= limit + 1e-9 &&
               nbi_walkable(p, out->seg, 1, skip, a->x, a->y);
    }
    nb_curve cand[NB_CURVE_MAX_CANDIDATES];
    size_t m = nb_curve_to_pose(a, b, p->unit.radius, cand);
    for (size_t i = 0; i < m && cand[i].length <= limit + 1e-9; i++)
        if (nbi_walkable(p, cand[i].seg, cand[i].count, skip, a->x, a->y)) {
            *out = cand[i];
            return 1;
        }
    return 0;
}

static int reverse_edge(const nb_curve *c) { return c->count > 0 && c->seg[0].gear < 0; }

int nbi_smooth_simple(nb_planner *p, nbi_route *r, int lines)
{
    if (r->n < 3)
        return 1;
    nbi_route *out = &p->tmp;
    out->n = 0;
    if (!nbi_route_push(out, &r->wp[0], NULL))
        return 0;
    size_t check = 0, cur = 1;
    nb_curve best = r->edge[0]; /* what joins check to cur */
    while (cur + 1 < r->n) {
        nb_curve c;
        const nb_curve *next = &r->edge[cur];
        if (!reverse_edge(&best) && !reverse_edge(next) &&
            walkable(p, &r->wp[check], &r->wp[cur + 1], lines, check == 0,
                     best.length + next->length, &c)) {
            best = c; /* cur is dropped */
        } else {
            if (!nbi_route_push(out, &r->wp[cur], &best))
                return 0;
            check = cur;
            best = *next;
        }
        cur++;
    }
    if (!nbi_route_push(out, &r->wp[cur], &best))
        return 0;
    /* Swap the smoothed route in. */
    nbi_route t = *r;
    *r = *out;
    *out = t;
    return 1;
}

/* ---- Smoothing-48 ---- */

static inline long cell_x(const nb_planner *p, size_t i) { return (long)(p->path[i] % (uint32_t)p->W); }
static inline long cell_y(const nb_planner *p, size_t i) { return (long)(p->path[i] / (uint32_t)p->W); }

/* Favour the path's direction: the curve bound to the waypoint three
 * ahead, then one per remaining step of the grid path. */
static double h48(const nb_planner *p, const nb_pose *q, size_t i, int backward)
{
    size_t n = p->npath;
    size_t t = backward ? (i >= 3 ? i - 3 : 0) : (i + 3 < n ? i + 3 : n - 1);
    nb_pose f = *q;
    if (backward)
        f.heading += M_PI;
    double rest = backward ? (double)t : (double)(n - 1 - t);
    return nbi_curvetab_lookup(&p->ct, &f, cell_x(p, t) + 0.5, cell_y(p, t) + 0.5) + rest;
}

/* A node of this search is waypoint x of the grid path facing k (y is 0);
 * the off-grid start is a node of its own. */
static nb_pose pose_of(const nb_planner *p, uint32_t id)
{
    const nbi_node *n = nbi_nodes_at(&p->nodes, id);
    if (id == p->s48.sid)
        return p->s48.start;
    return nbi_centre_pose(p, cell_x(p, (size_t)n->x), cell_y(p, (size_t)n->x), n->k);
}

/* The route from node id through its parents: forward, the parents lead
 * back to the start; backward, on to the goal.  A node's move is the curve
 * that joins it to its parent. */
int nbi_s48_route(nb_planner *p, nbi_route *out, size_t *far_out)
{
    struct nbi_s48 *s = &p->s48;
    uint32_t id = s->far_id;
    int backward = s->backward;
    *far_out = s->far;
    if (!id) {
        /* Stopped before its first expansion: the start alone. */
        if (!nbi_route_reserve(out, 1))
            return 0;
        out->n = 1;
        out->wp[0] = s->start;
        *far_out = 0;
        return 1;
    }
    size_t n = 1;
    for (uint32_t k = id; nbi_nodes_at(&p->nodes, k)->parent; k = nbi_nodes_at(&p->nodes, k)->parent)
        n++;
    if (!nbi_route_reserve(out, n))
        return 0;
    out->n = n;
    size_t i = backward ? 0 : n - 1;
    out->wp[i] = pose_of(p, id);
    for (uint32_t k = id; nbi_nodes_at(&p->nodes, k)->parent; k = nbi_nodes_at(&p->nodes, k)->parent) {
        size_t j = backward ? i + 1 : i - 1, e = backward ? i : j;
        out->wp[j] = pose_of(p, nbi_nodes_at(&p->nodes, k)->parent);
        nbi_edge_curve(p, &out->wp[e], &out->wp[e + 1], nbi_nodes_at(&p->nodes, k)->move, &out->edge[e]);
        i = j;
    }
    return 1;
}

static int push(nb_planner *p, size_t i, unsigned k, const nb_pose *q, int extra)
{
    struct nbi_s48 *s = &p->s48;
    int fresh;
    uint32_t id = extra ? nbi_nodes_extra(&p->nodes, 0, 0) : nbi_nodes_get(&p->nodes, (long)i, 0, k, 1, &fresh);
    if (!id)
        return 0;
    nbi_node *n = nbi_nodes_at(&p->nodes, id);
    n->g = 0;
    n->h = h48(p, q, i, s->backward);
    if (extra)
        s->sid = id;
    return nbi_queue(p, id);
}

int nbi_s48_begin(nb_planner *p, const nb_pose *start, int backward, int goal_heading,
                  int onthefly)
{
    struct nbi_s48 *s = &p->s48;
    const unsigned K = p->K;
    const size_t n = p->npath;
    s->start = *start;
    s->backward = backward;
    s->goal_heading = goal_heading;
    s->onthefly = onthefly;
    s->far = backward ? n - 1 : 0;
    s->far_id = 0;
    s->have_far = 0;
    s->sid = 0;
    nbi_nodes_clear(&p->nodes);
    nbi_open_clear(&p->heap);
    if (!backward) {
        long sx = (long)floor(start->x), sy = (long)floor(start->y);
        for (unsigned k = 0; k < K; k++)
            if (start->x == sx + 0.5 && start->y == sy + 0.5 &&
                fabs(remainder(start->heading - nbi_heading(k, K), 2 * M_PI)) < 1e-12)
                return push(p, 0, k, start, 0); /* waypoint 0, heading k */
        return push(p, 0, 0, start, 1);
    }
    for (unsigned k = 0; k < K; k++) {
        if (goal_heading >= 0 && k != (unsigned)goal_heading)
            continue;
        nb_pose q = nbi_centre_pose(p, cell_x(p, n - 1), cell_y(p, n - 1), k);
        if (!push(p, n - 1, k, &q, 0))
            return 0;
    }
    return 1;
}

enum nbi_run nbi_s48_run(nb_planner *p, uint64_t budget)
{
    struct nbi_s48 *s = &p->s48;
    const unsigned K = p->K;
    const size_t n = p->npath;
    const int backward = s->backward;
    for (uint64_t done = 0; done < budget; done++) {
        uint32_t id = nbi_next_open(p);
        if (!id)
            return p->nodes.nomem ? NBI_RUN_NOMEM : NBI_RUN_NONE;
        nbi_node *nd = nbi_nodes_at(&p->nodes, id);
        nd->closed = 1;
        p->expanded++;
        size_t i = id == s->sid ? 0 : (size_t)nd->x;
        unsigned k = id == s->sid ? 0 : nd->k;
        int further = !s->have_far || (backward ? i < s->far : i > s->far);
        if (further) {
            s->far = i;
            s->far_id = id;
            s->have_far = 1;
        } else if (backward ? i >= s->far + 6 : i + 6 <= s->far) {
            return NBI_RUN_NONE; /* searching back six waypoints: give up */
        }
        if (backward ? i == 0 : i == n - 1 && (s->goal_heading < 0 || k == (unsigned)s->goal_heading)) {
            s->far_id = id;
            s->far = i;
            return NBI_RUN_FOUND;
        }
        double g = nd->g;
        long x = cell_x(p, i), y = cell_y(p, i);
        /* Hops of one to three waypoints: three steps of the grid path stay inside the 7 x 7
         * square of the 48-neighbourhood. */
        for (size_t j = 1; j <= 3; j++) {
            if (backward ? i < j : i + j >= n)
                break;
            size_t t = backward ? i - j : i + j;
            long tx = cell_x(p, t), ty = cell_y(p, t);
            int o = backward ? nbi_offset_index(p, x - tx, y - ty) : nbi_offset_index(p, tx - x, ty - y);
            if (o < 0)
                continue;
            for (unsigned k2 = 0; k2 < K; k2++) {
                double len;
                unsigned code;
                int ok;
                if (backward)
                    ok = nbi_edge(p, tx, ty, k2, (unsigned)o, k, 0, s->onthefly, &len, &code);
                else if (id == s->sid)
                    ok = nbi_edge_pose(p, &s->start, tx, ty, k2, 0, &len, &code);
                else
                    ok = nbi_edge(p, x, y, k, (unsigned)o, k2, 0, s->onthefly, &len, &code);
                if (!ok)
                    continue;
                p->generated++;
                int fresh;
                uint32_t cid = nbi_nodes_get(&p->nodes, (long)t, 0, k2, 1, &fresh);
                if (!cid)
                    return p->nodes.nomem ? NBI_RUN_NOMEM : NBI_RUN_FULL;
                nbi_node *c = nbi_nodes_at(&p->nodes, cid);
                double ng = g + len;
                if (ng >= c->g)
                    continue;
                nb_pose q = nbi_centre_pose(p, tx, ty, k2);
                c->g = ng;
                c->h = h48(p, &q, t, backward);
                c->parent = id;
                c->move = (uint16_t)code;
                c->closed = 0;
                if (!nbi_queue(p, cid))
                    return NBI_RUN_NOMEM;
            }
        }
        if (p->cells.nomem)
            return NBI_RUN_NOMEM;
    }
    return NBI_RUN_MORE;
}
