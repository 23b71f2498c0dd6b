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
static int walkable(const nb_planner *p, const nb_pose *a, const nb_pose *b, int lines, int skip,
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

static inline long cell_x(const nb_planner *p, size_t i) { return (long)(p->cells[i] % (uint32_t)p->W); }
static inline long cell_y(const nb_planner *p, size_t i) { return (long)(p->cells[i] / (uint32_t)p->W); }

/* Favour the path's direction: the curve bound to the waypoint three
 * ahead, then one per remaining step of the grid path. */
static double h48(const nb_planner *p, const nb_pose *q, size_t i, int backward)
{
    size_t n = p->ncells;
    size_t t = backward ? (i >= 3 ? i - 3 : 0) : (i + 3 < n ? i + 3 : n - 1);
    nb_pose f = *q;
    if (backward)
        f.heading += M_PI;
    double rest = backward ? (double)t : (double)(n - 1 - t);
    return nbi_curvetab_lookup(&p->ct, &f, cell_x(p, t) + 0.5, cell_y(p, t) + 0.5) + rest;
}

static nb_pose pose_of(const nb_planner *p, const nb_pose *start, uint32_t k)
{
    if (k == NBI_START_ID(p))
        return *start;
    return nbi_centre_pose(p, cell_x(p, k / p->K), cell_y(p, k / p->K), k % p->K);
}

/* The route from node id through its parents: forward, the parents lead
 * back to the start; backward, on to the goal.  A node's move is the curve
 * that joins it to its parent. */
static int route_of(nb_planner *p, const nb_pose *start, uint32_t id, int backward, nbi_route *out)
{
    size_t n = 1;
    for (uint32_t k = id; p->parent[k] != NBI_NO_PARENT; k = p->parent[k])
        n++;
    if (!nbi_route_reserve(out, n))
        return 0;
    out->n = n;
    size_t i = backward ? 0 : n - 1;
    out->wp[i] = pose_of(p, start, id);
    for (uint32_t k = id; p->parent[k] != NBI_NO_PARENT; k = p->parent[k]) {
        size_t j = backward ? i + 1 : i - 1, e = backward ? i : j;
        out->wp[j] = pose_of(p, start, p->parent[k]);
        nbi_edge_curve(p, &out->wp[e], &out->wp[e + 1], p->move[k], &out->edge[e]);
        i = j;
    }
    return 1;
}

int nbi_smooth48(nb_planner *p, const nb_pose *start, int backward, int goal_heading, int onthefly,
                 nbi_route *out, size_t *far_out)
{
    const unsigned K = p->K;
    const size_t n = p->ncells;
    nbi_search_begin(p);
    size_t far = backward ? n - 1 : 0;
    uint32_t far_id = 0;
    int have_far = 0;
    if (!backward) {
        long sx = (long)floor(start->x), sy = (long)floor(start->y);
        uint32_t sid = NBI_START_ID(p);
        for (unsigned k = 0; k < K; k++)
            if (start->x == sx + 0.5 && start->y == sy + 0.5 &&
                fabs(remainder(start->heading - nbi_heading(k, K), 2 * M_PI)) < 1e-12)
                sid = k; /* waypoint 0, heading k */
        p->g[sid] = 0;
        p->parent[sid] = NBI_NO_PARENT;
        p->stamp[sid] = p->gen;
        if (!nbi_heap_push(&p->heap, h48(p, start, 0, 0), 0, sid))
            return -1;
    } else {
        for (unsigned k = 0; k < K; k++) {
            if (goal_heading >= 0 && k != (unsigned)goal_heading)
                continue;
            uint32_t id = (uint32_t)((n - 1) * K + k);
            nb_pose q = nbi_centre_pose(p, cell_x(p, n - 1), cell_y(p, n - 1), k);
            p->g[id] = 0;
            p->parent[id] = NBI_NO_PARENT;
            p->stamp[id] = p->gen;
            if (!nbi_heap_push(&p->heap, h48(p, &q, n - 1, 1), 0, id))
                return -1;
        }
    }
    int done = 0;
    while (!nbi_heap_empty(&p->heap)) {
        uint32_t id = nbi_heap_pop(&p->heap).id;
        p->expanded++;
        size_t i = id == NBI_START_ID(p) ? 0 : id / K;
        unsigned k = id == NBI_START_ID(p) ? 0 : id % K;
        int further = !have_far || (backward ? i < far : i > far);
        if (further) {
            far = i;
            far_id = id;
            have_far = 1;
        } else if (backward ? i >= far + 6 : i + 6 <= far) {
            break; /* searching back six waypoints: give up */
        }
        if (backward ? i == 0 : i == n - 1 && (goal_heading < 0 || k == (unsigned)goal_heading)) {
            far_id = id;
            far = i;
            done = 1;
            break;
        }
        double g = p->g[id];
        long x = cell_x(p, i), y = cell_y(p, i);
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
                    ok = nbi_edge(p, tx, ty, k2, (unsigned)o, k, 0, onthefly, &len, &code);
                else if (id == NBI_START_ID(p))
                    ok = nbi_edge_pose(p, start, tx, ty, k2, 0, &len, &code);
                else
                    ok = nbi_edge(p, x, y, k, (unsigned)o, k2, 0, onthefly, &len, &code);
                if (!ok)
                    continue;
                p->generated++;
                uint32_t nid = (uint32_t)(t * K + k2);
                double ng = g + len;
                if (nbi_seen(p, nid) && ng >= p->g[nid])
                    continue;
                nb_pose q = nbi_centre_pose(p, tx, ty, k2);
                if (nbi_relax(p, nid, id, code, ng, h48(p, &q, t, backward)) < 0)
                    return -1;
            }
        }
    }
    *far_out = far;
    if (!route_of(p, start, far_id, backward, out))
        return -1;
    return done;
}
