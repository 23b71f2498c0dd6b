/* plan.c: nb_planner_find, a unit's query: checks it, runs the method
 * asked for, and hands back the route as segments and waypoints. */
#include <math.h>

#include "turning/planner.h"

static int nomem(const char **reason)
{
    *reason = nbi_reason_nomem;
    return 0;
}

void nb_planner_query_init(nb_planner_query *q)
{
    memset(q, 0, sizeof *q);
    q->goal_heading = -1;
    q->method = NB_PLAN_DIRECTIONAL;
}

static nb_status find(nb_planner *p, const nb_planner_query *q, nb_planner_result *out, nb_err *err)
{
    memset(out, 0, sizeof *out);
    out->status = NB_PATH_NONE;
    p->expanded = p->generated = 0;
    const nb_pose *s = &q->start;
    if (!isfinite(s->x) || !isfinite(s->y) || !isfinite(s->heading) || s->x < 0 || s->y < 0 ||
        s->x >= p->W || s->y >= p->H)
        return nbi_fail(err, NB_ERR_ARG, "the start (%g, %g) is not inside the %ld x %ld map", s->x,
                        s->y, p->W, p->H);
    long sx = (long)floor(s->x), sy = (long)floor(s->y);
    if (q->goal_x < 0 || q->goal_y < 0 || q->goal_x >= p->W || q->goal_y >= p->H)
        return nbi_fail(err, NB_ERR_ARG, "the goal (%ld, %ld) is not inside the %ld x %ld map",
                        q->goal_x, q->goal_y, p->W, p->H);
    if (q->goal_heading < -1 || q->goal_heading >= (int)p->K)
        return nbi_fail(err, NB_ERR_ARG, "goal heading %d: expected -1 (any) or 0 to %u",
                        q->goal_heading, p->K - 1);
    const unsigned known = NB_PLAN_ONTHEFLY | NB_PLAN_SMOOTH | NB_PLAN_FORWARD;
    if (q->flags & ~known)
        return nbi_fail(err, NB_ERR_ARG, "unknown flags %#x", q->flags & ~known);
    if ((unsigned)q->method > NB_PLAN_LINES)
        return nbi_fail(err, NB_ERR_ARG, "unknown method %d", (int)q->method);
    unsigned N = q->neighbourhood ? q->neighbourhood : p->unit.neighbourhood;
    int onthefly = (q->flags & NB_PLAN_ONTHEFLY) != 0;
    if (N != 8 && N != 24 && N != 48)
        return nbi_fail(err, NB_ERR_ARG, "neighbourhood %u: expected 8, 24 or 48", N);
    if (q->method == NB_PLAN_DIRECTIONAL && !onthefly && N > p->hc.neighbourhood)
        return nbi_fail(err, NB_ERR_ARG,
                        "unit '%s' was baked for Directional-%u; bake it with --neighbourhood %u "
                        "or plan on the fly",
                        p->unit.name, p->hc.neighbourhood, N);
    int reverse = p->unit.reverse && !(q->flags & NB_PLAN_FORWARD);
    if (nbi_blocked(p, sx, sy)) {
        out->status = NB_PATH_START_BLOCKED;
        out->reason = "the start cell is blocked for the unit";
        return NB_OK;
    }
    if (nbi_blocked(p, q->goal_x, q->goal_y)) {
        out->status = NB_PATH_GOAL_BLOCKED;
        out->reason = "the goal cell is blocked for the unit";
        return NB_OK;
    }
    /* Pinter's cure for slow failures: when the bundle's reachability
     * components (mkclear) say no size-1 agent of these terrains gets from
     * the start cell to the goal, no unit does either. */
    nb_cell from = {(int32_t)sx, (int32_t)sy}, to = {(int32_t)q->goal_x, (int32_t)q->goal_y};
    if (nb_reachable(p->bundle, p->cap, 1, from, to) == 0) {
        out->reason = "the goal is not reachable from the start (reachability components)";
        return NB_OK;
    }
    const char *reason = "no path";
    int found = 0;
    switch (q->method) {
    case NB_PLAN_DIRECTIONAL: {
        struct nbi_dir_opts o = {N, onthefly, reverse, q->max_expansions, NULL};
        found = nbi_directional(p, s, q->goal_x, q->goal_y, q->goal_heading, &o, &reason);
        if (found && (q->flags & NB_PLAN_SMOOTH) && !nbi_smooth_simple(p, &p->route, 0))
            found = nomem(&reason);
        break;
    }
    case NB_PLAN_HYBRID:
    case NB_PLAN_PRESMOOTH:
        found = nbi_hybrid(p, s, q->goal_x, q->goal_y, q->goal_heading, onthefly,
                           q->method == NB_PLAN_HYBRID, &out->fallback, &reason);
        if (found && !nbi_smooth_simple(p, &p->route, 0))
            found = nomem(&reason);
        break;
    case NB_PLAN_LINES:
        found = nbi_lines(p, s, q->goal_x, q->goal_y, &reason);
        if (found && !nbi_smooth_simple(p, &p->route, 1))
            found = nomem(&reason);
        break;
    }
    out->expanded = p->expanded;
    out->generated = p->generated;
    if (!found && reason == nbi_reason_nomem)
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for unit '%s''s search", p->unit.name);
    if (!found) {
        out->status = reason == nbi_reason_limit ? NB_PATH_LIMIT : NB_PATH_NONE;
        out->reason = reason;
        return NB_OK;
    }
    if (!nbi_route_segments(p, &p->route))
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for the path");
    out->status = NB_PATH_FOUND;
    out->segments = p->seg;
    out->nsegments = p->nseg;
    out->waypoints = p->route.wp;
    out->nwaypoints = p->route.n;
    for (size_t i = 0; i + 1 < p->route.n; i++) {
        const nb_curve *c = &p->route.edge[i];
        out->length += c->length;
        out->cost += c->count && c->seg[0].gear < 0 ? c->length * p->unit.reverse_penalty : c->length;
    }
    return NB_OK;
}

nb_status nb_planner_find(nb_planner *p, const nb_planner_query *q, nb_planner_result *out,
                          nb_err *err)
{
    return nbi_done(err, find(p, q, out, err));
}
