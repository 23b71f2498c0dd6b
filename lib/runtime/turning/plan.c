/* plan.c: a unit's query, whole (nb_planner_find) or in slices
 * (nb_planner_begin, _step, _finish; the convention of every search
 * family).  begin checks the query and starts the first stage; step runs
 * the stages, each a resumable search, for a number of expansions; finish
 * hands back the route as segments and waypoints, or, when the query
 * stopped short (its expansion budget, the planner's node cap, or a
 * finish before the end), the best partial route: toward the goal as far
 * as the search got. */
#include <math.h>
#include <stdlib.h>

#include "blocked/blocked.h"
#include "turning/planner.h"

enum stage { ST_DIR, ST_GRID, ST_S48F, ST_S48B, ST_BRIDGE };

nb_status nb_planner_query_init_abi(nb_planner_query *q, const nb_abi *abi)
{
    if (nbi_abi_ok(abi, NBI_ABI_nb_planner_query) != NB_OK)
        return NB_ERR_VERSION;
    memset(q, 0, sizeof *q);
    q->goal_heading = -1;
    q->method = NB_PLAN_DIRECTIONAL;
    q->overlay = NULL;
    return NB_OK;
}

void nb_planner_set_max_nodes(nb_planner *p, uint64_t max_nodes)
{
    if (max_nodes > SIZE_MAX)
        max_nodes = SIZE_MAX;
    p->max_nodes = (size_t)max_nodes;
    p->nodes.max = max_nodes;
    p->rra.nodes.max = max_nodes;
}

static nb_status check(nb_planner *p, const nb_planner_query *q, nb_err *err)
{
    static const char family[] = "unit planner";
    const nb_pose *s = &q->start;
    nb_status st;
    /* The order every family keeps (core/query.c): malformed, off the
     * map, not baked, not honoured. */
    if (!isfinite(s->x) || !isfinite(s->y) || !isfinite(s->heading))
        return nbi_fail(err, NB_ERR_ARG, "%s: the start (%g, %g) facing %g is not a finite pose",
                        family, s->x, s->y, s->heading);
    if (q->goal_heading < -1 || q->goal_heading >= (int)p->K)
        return nbi_fail(err, NB_ERR_ARG, "%s: goal heading %d: expected -1 (any) or 0 to %u",
                        family, q->goal_heading, p->K - 1);
    const unsigned known = NB_PLAN_ONTHEFLY | NB_PLAN_SMOOTH | NB_PLAN_FORWARD | NB_PLAN_LOCAL_BOUND;
    if (q->flags & ~known)
        return nbi_fail(err, NB_ERR_ARG, "%s: unknown flags %#x", family, q->flags & ~known);
    if ((unsigned)q->method > NB_PLAN_LINES)
        return nbi_fail(err, NB_ERR_ARG, "%s: unknown method %d", family, (int)q->method);
    unsigned N = q->neighbourhood ? q->neighbourhood : p->unit.neighbourhood;
    if (N != 8 && N != 24 && N != 48)
        return nbi_fail(err, NB_ERR_ARG, "%s: neighbourhood %u: expected 8, 24 or 48", family, N);
    if (q->window) {
        long sx = (long)floor(s->x), sy = (long)floor(s->y), W = (long)q->window;
        long dx = labs(q->goal.x - sx) + 1, dy = labs(q->goal.y - sy) + 1;
        if (q->window > NB_MAP_MAX_SIDE || dx > W || dy > W)
            return nbi_fail(err, NB_ERR_ARG, "%s: a window of %u cells does not hold the start and "
                            "the goal (%ld x %ld cells)", family, q->window, dx, dy);
    }
    if ((st = nbi_overlay_check(q->overlay, p->bundle, family, err)) != NB_OK)
        return st;
    if (s->x < 0 || s->y < 0 || s->x >= p->W || s->y >= p->H)
        return nbi_fail(err, NB_ERR_OUTSIDE,
                        "%s: start (%g, %g) is off the %ld x %ld map (x 0 to %ld, y 0 to %ld)",
                        family, s->x, s->y, p->W, p->H, p->W, p->H);
    if ((st = nbi_query_cell(err, family, "goal", q->goal, (uint32_t)p->W, (uint32_t)p->H)) !=
        NB_OK)
        return st;
    /* Tables for fewer offsets than asked: not baked for the query. */
    if (q->method == NB_PLAN_DIRECTIONAL && !(q->flags & NB_PLAN_ONTHEFLY) && N > p->hc.neighbourhood)
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: unit '%s' was baked for Directional-%u; bake it with --neighbourhood "
                        "%u or plan on the fly",
                        family, p->unit.name, p->hc.neighbourhood, N);
    if (q->overlay)
        return nbi_query_unsupported(err, family, "read overlays yet");
    p->N = N;
    p->onthefly = (q->flags & NB_PLAN_ONTHEFLY) != 0;
    p->reverse = p->unit.reverse && !(q->flags & NB_PLAN_FORWARD);
    p->local_bound = (q->flags & NB_PLAN_LOCAL_BOUND) != 0;
    return NB_OK;
}

/* The query ends here, with this status and reason. */
static void end(nb_planner *p, nb_path_status status, const char *reason)
{
    p->done = 1;
    p->res.status = status;
    p->res.reason = reason;
}

/* The query's window, when it has one: a square of its side centred
 * between start and goal (Pinter's 60 x 60), clipped to nothing. */
static const long *query_box(nb_planner *p, long box[4])
{
    const nb_planner_query *q = &p->q;
    if (!q->window)
        return NULL;
    long W = (long)q->window, sx = (long)floor(q->start.x), sy = (long)floor(q->start.y);
    long mx = sx + q->goal.x, my = sy + q->goal.y; /* twice the middle */
    box[0] = (mx - (W - 1)) >= 0 ? (mx - (W - 1)) / 2 : -((W - 1 - mx + 1) / 2);
    box[1] = (my - (W - 1)) >= 0 ? (my - (W - 1)) / 2 : -((W - 1 - my + 1) / 2);
    /* Both ends inside: slide the square when the rounding left one out. */
    long lo[2] = {sx < q->goal.x ? sx : q->goal.x, sy < q->goal.y ? sy : q->goal.y};
    long hi[2] = {sx > q->goal.x ? sx : q->goal.x, sy > q->goal.y ? sy : q->goal.y};
    for (int i = 0; i < 2; i++) {
        if (box[i] > lo[i])
            box[i] = lo[i];
        if (box[i] + W - 1 < hi[i])
            box[i] = hi[i] - (W - 1);
        box[i + 2] = box[i] + W - 1;
    }
    return box;
}

nb_status nb_planner_begin(nb_planner *p, const nb_planner_query *q, nb_err *err)
{
    p->active = 0;
    nb_status st = check(p, q, err);
    if (st != NB_OK)
        return st;
    p->q = *q;
    memset(&p->res, 0, sizeof p->res);
    p->res.status = NB_PATH_NONE;
    p->expanded = p->generated = 0;
    p->active = 1;
    p->done = 0;
    p->found = 0;
    p->route.n = p->fwd.n = p->bwd.n = 0;
    const nb_pose *s = &q->start;
    long sx = (long)floor(s->x), sy = (long)floor(s->y);
    p->cells.nomem = 0;
    int sb = nbi_blocked(p, sx, sy), gb = nbi_blocked(p, q->goal.x, q->goal.y);
    if (p->cells.nomem) {
        p->active = 0;
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for unit '%s''s search", p->unit.name);
    }
    if (sb) {
        end(p, NB_PATH_START_BLOCKED, "the start cell is blocked for the unit");
        return nbi_done(err, NB_OK);
    }
    if (gb) {
        end(p, NB_PATH_GOAL_BLOCKED, "the goal cell is blocked for the unit");
        return nbi_done(err, NB_OK);
    }
    /* Pinter's cure for slow failures: when the bundle's reachability
     * components (mkclear) say no size-1 agent of these terrains gets from
     * the start cell to the goal, no unit does either. */
    nb_cell from = {(int32_t)sx, (int32_t)sy}, to = {(int32_t)q->goal.x, (int32_t)q->goal.y};
    if (nb_reachable(p->bundle, p->cap, 1, from, to) == 0) {
        end(p, NB_PATH_NONE, "the goal is not reachable from the start (reachability components)");
        return nbi_done(err, NB_OK);
    }
    long box[4];
    const long *b = query_box(p, box);
    if (b)
        memcpy(p->box, b, sizeof p->box);
    p->has_box = b != NULL;
    int ok;
    if (q->method == NB_PLAN_DIRECTIONAL) {
        struct nbi_dir_opts o = {p->N, p->onthefly, p->reverse, b};
        p->stage = ST_DIR;
        ok = nbi_dir_begin(p, s, q->goal.x, q->goal.y, q->goal_heading, &o);
    } else {
        p->stage = ST_GRID;
        ok = nbi_grid_begin(p, sx, sy, q->goal.x, q->goal.y, q->method == NB_PLAN_LINES);
    }
    if (!ok) {
        p->active = 0;
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for unit '%s''s search", p->unit.name);
    }
    return nbi_done(err, NB_OK);
}

static enum nbi_run run(nb_planner *p, uint64_t budget)
{
    switch (p->stage) {
    case ST_GRID: return nbi_grid_run(p, budget);
    case ST_S48F:
    case ST_S48B: return nbi_s48_run(p, budget);
    default: return nbi_dir_run(p, budget);
    }
}

static void swap(nbi_route *a, nbi_route *b)
{
    nbi_route t = *a;
    *a = *b;
    *b = t;
}

/* The stage that ended with r hands over to the next, or ends the query.
 * Returns 0 when memory ran out. */
static int next(nb_planner *p, enum nbi_run r)
{
    const nb_planner_query *q = &p->q;
    const char *reason = NULL;
    size_t far;
    switch (p->stage) {
    case ST_DIR:
        if (r == NBI_RUN_NONE) {
            end(p, NB_PATH_NONE, "no path for the unit");
            return 1;
        }
        if (!nbi_dir_route(p, 0) || ((q->flags & NB_PLAN_SMOOTH) && !nbi_smooth_simple(p, &p->route, 0)))
            return 0;
        break;
    case ST_GRID:
        if (r == NBI_RUN_NONE) {
            end(p, NB_PATH_NONE, q->method == NB_PLAN_LINES ? "no 8-connected grid path"
                                                            : "no 4-connected grid path");
            return 1;
        }
        if (!nbi_grid_path(p, 0))
            return 0;
        if (q->method == NB_PLAN_LINES) {
            if (!nbi_lines(p, &q->start, &reason)) {
                if (reason == nbi_reason_nomem)
                    return 0;
                end(p, NB_PATH_NONE, reason);
                return 1;
            }
            if (!nbi_smooth_simple(p, &p->route, 1))
                return 0;
            break;
        }
        p->stage = ST_S48F;
        return nbi_s48_begin(p, &q->start, 0, q->goal_heading, p->onthefly);
    case ST_S48F:
        if (!nbi_s48_route(p, &p->fwd, &far))
            return 0;
        if (r == NBI_RUN_FOUND) {
            swap(&p->route, &p->fwd);
            if (!nbi_smooth_simple(p, &p->route, 0))
                return 0;
            break;
        }
        if (q->method != NB_PLAN_HYBRID) {
            end(p, NB_PATH_NONE, "Smoothing-48 found no legal way along the grid path");
            return 1;
        }
        p->res.fallback = 1;
        p->stage = ST_S48B;
        return nbi_s48_begin(p, &q->start, 1, q->goal_heading, p->onthefly);
    case ST_S48B:
        if (!nbi_s48_route(p, &p->bwd, &far))
            return 0;
        p->stage = ST_BRIDGE;
        if (!nbi_hybrid_bridge(p, &reason)) {
            if (reason == nbi_reason_nomem)
                return 0;
            p->fwd.n = 0; /* no partial route beyond the start */
            end(p, NB_PATH_NONE, reason);
            return 1;
        }
        return 1;
    case ST_BRIDGE:
        if (r == NBI_RUN_NONE) {
            end(p, NB_PATH_NONE, "Directional-8 found no path between the failure points");
            return 1;
        }
        if (!nbi_dir_route(p, 0) || !nbi_hybrid_join(p, 1) || !nbi_smooth_simple(p, &p->route, 0))
            return 0;
        break;
    }
    p->found = 1;
    end(p, NB_PATH_FOUND, NULL);
    return 1;
}

static nb_status nomem(nb_planner *p, nb_err *err)
{
    p->active = 0;
    return nbi_fail(err, NB_ERR_NOMEM, "out of memory for unit '%s''s search", p->unit.name);
}

nb_status nb_planner_step(nb_planner *p, uint64_t expansions, int *done, nb_err *err)
{
    if (done)
        *done = 0;
    if (!p->active)
        return nbi_fail(err, NB_ERR_ARG, "nb_planner_step: no query begun");
    uint64_t max = p->q.max_expansions;
    while (!p->done && expansions > 0) {
        if (max && p->expanded >= max) {
            end(p, NB_PATH_LIMIT, nbi_reason_limit);
            break;
        }
        uint64_t budget = expansions, before = p->expanded;
        if (max && max - p->expanded < budget)
            budget = max - p->expanded;
        enum nbi_run r = run(p, budget);
        expansions -= p->expanded - before < expansions ? p->expanded - before : expansions;
        if (r == NBI_RUN_NOMEM)
            return nomem(p, err);
        if (r == NBI_RUN_FULL)
            end(p, NB_PATH_LIMIT, "the search reached the planner's node cap");
        else if (r != NBI_RUN_MORE && !next(p, r))
            return nomem(p, err);
        if (p->cells.nomem) /* a tile the smoothing read */
            return nomem(p, err);
    }
    if (done)
        *done = p->done;
    return nbi_done(err, NB_OK);
}

/* What a query stopped short has: the route toward the goal as far as the
 * stage under way got. */
static int partial(nb_planner *p)
{
    const nb_planner_query *q = &p->q;
    const char *reason;
    size_t far;
    p->route.n = 0;
    switch (p->stage) {
    case ST_DIR: return nbi_dir_route(p, 1);
    case ST_GRID:
        if (q->method == NB_PLAN_LINES) {
            if (!nbi_grid_path(p, 1))
                return 0;
            if (nbi_lines(p, &q->start, &reason) || reason != nbi_reason_nomem)
                return 1;
            return 0;
        }
        return 1;
    case ST_S48F:
        if (!nbi_s48_route(p, &p->fwd, &far))
            return 0;
        swap(&p->route, &p->fwd);
        return 1;
    case ST_S48B:
        swap(&p->route, &p->fwd);
        return 1;
    default: /* the bridge: the forward pass, then the bridge's best */
        return nbi_dir_route(p, 1) && nbi_hybrid_join(p, 0);
    }
}

nb_status nb_planner_finish(nb_planner *p, nb_planner_result *out, nb_err *err)
{
    memset(out, 0, sizeof *out);
    if (!p->active)
        return nbi_fail(err, NB_ERR_ARG, "nb_planner_finish: no query begun");
    p->active = 0;
    if (!p->done)
        end(p, NB_PATH_LIMIT, nbi_reason_limit);
    int limited = p->res.status == NB_PATH_LIMIT;
    if ((limited && !partial(p)) || p->cells.nomem)
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for unit '%s''s path", p->unit.name);
    *out = p->res;
    out->expanded = p->expanded;
    out->generated = p->generated;
    if (!p->found && !limited)
        return nbi_done(err, NB_OK);
    if (p->route.n == 0 && !nbi_route_push(&p->route, &p->q.start, NULL))
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for the path");
    if (!nbi_route_segments(p, &p->route))
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for the path");
    out->segments = p->seg;
    out->segment_len = p->nseg;
    out->waypoints = p->route.wp;
    out->waypoint_len = p->route.n;
    for (size_t i = 0; i + 1 < p->route.n; i++) {
        const nb_curve *c = &p->route.edge[i];
        out->length += c->length;
        out->cost += c->count && c->seg[0].gear < 0 ? c->length * p->unit.reverse_penalty : c->length;
    }
    return nbi_done(err, NB_OK);
}

nb_status nb_planner_find(nb_planner *p, const nb_planner_query *q, nb_planner_result *out,
                          nb_err *err)
{
    nb_status st = nb_planner_begin(p, q, err);
    if (st == NB_OK)
        st = nb_planner_step(p, UINT64_MAX, NULL, err);
    if (st == NB_OK)
        return nb_planner_finish(p, out, err);
    memset(out, 0, sizeof *out);
    out->status = NB_PATH_NONE;
    return st;
}
