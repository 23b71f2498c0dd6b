/* motion_route.c: long motion-constrained paths (Sturtevant 2009): an
 * abstract path first, over sectors (sectors.c) or over HAA*'s abstract
 * graph (haa.c), whose places become intermediate goals; the motion search
 * then refines it a few places at a time, with truncation.  Both
 * abstractions only fill the list of intermediate goals: one refinement
 * loop serves them. */
#include "abstract/haa.h"
#include "motion/motion.h"

static const char *const abstraction_names[] = {"sectors", "haa"};
#define NABSTRACTIONS (sizeof abstraction_names / sizeof *abstraction_names)

const char *nb_route_abstraction_name(nb_route_abstraction abstraction)
{
    return (size_t)abstraction < NABSTRACTIONS ? abstraction_names[abstraction] : NULL;
}

nb_status nb_route_abstraction_parse(const char *name, nb_route_abstraction *abstraction,
                                     nb_err *err)
{
    for (size_t i = 0; name && i < NABSTRACTIONS; i++)
        if (strcmp(name, abstraction_names[i]) == 0) {
            *abstraction = (nb_route_abstraction)i;
            return nbi_done(err, NB_OK);
        }
    return nbi_fail(err, NB_ERR_NOTFOUND, "no route abstraction '%s': sectors or haa",
                    name ? name : "(null)");
}

nb_status nb_motion_use_haa(nb_motion *ws, nb_err *err)
{
    if (ws->haa) {
        nbi_ok(err);
        return NB_OK;
    }
    nb_haa *haa;
    nb_status st = nb_haa_open(ws->bundle, &haa, err);
    if (st != NB_OK)
        return st;
    st = nbi_haa_serves(haa, ws->cap, ws->size, err);
    if (st != NB_OK) {
        nb_haa_close(haa);
        return st;
    }
    ws->haa = haa;
    nbi_ok(err);
    return NB_OK;
}

/* The regions' nodes from the start's region to the goal's; ngoals 0
 * when no path of regions joins them. */
static void sector_goals(nb_motion *ws, const nb_motion_query *q)
{
    nbi_sectors *sec = &ws->sectors;
    ws->ngoals = 0;
    if (!nbi_sectors_path(sec, q->start.x, q->start.y, q->goal.x, q->goal.y))
        return;
    for (size_t k = 0; k < sec->apath_len; k++) {
        ws->goals[k].x = sec->rx[sec->apath[k]];
        ws->goals[k].y = sec->ry[sec->apath[k]];
    }
    ws->ngoals = sec->apath_len;
}

/* The start, the inner nodes of HAA*'s abstract path for the agent, the
 * goal; ngoals 0 when HAA* finds no path. */
static nb_status haa_goals(nb_motion *ws, const nb_motion_query *q, nb_err *err)
{
    nb_haa_query aq;
    nb_haa_query_init(&aq);
    aq.start = (nb_cell){q->start.x, q->start.y};
    aq.goal = (nb_cell){q->goal.x, q->goal.y};
    aq.size = ws->size;
    aq.capability = ws->cap;
    aq.corner = NB_CORNER_STRICT; /* a motion step's sweep covers both cells beside a corner */
    nb_haa_result hr;
    ws->ngoals = 0;
    nb_status st = nb_haa_find(ws->haa, &aq, &hr, err);
    if (st != NB_OK || hr.status != NB_PATH_FOUND)
        return st;
    /* The start, the goal and at most every node between. */
    if ((st = nbi_motion_goals_room(ws, hr.abstract_len + 2, err)) != NB_OK)
        return st;
    ws->goals[0] = aq.start;
    ws->ngoals = 1 + nbi_haa_waypoints(ws->haa, &hr, ws->goals + 1);
    ws->goals[ws->ngoals++] = aq.goal;
    return NB_OK;
}

/* Intermediate goal j of the route: its place, stopped, at any heading or
 * facing the way the abstract path enters it. */
static nb_motion_state waypoint(const nb_motion *ws, const nb_motion_query *q, size_t j)
{
    nb_motion_state s;
    const nb_cell *g = ws->goals;
    s.x = g[j].x;
    s.y = g[j].y;
    /* Any heading by default: the abstract path does not say which, and a
     * narrow place may allow few. */
    s.heading = q->waypoint_heading ? (uint16_t)nbi_motion_heading_toward(
                                          ws->m, g[j].x - g[j - 1].x, g[j].y - g[j - 1].y, 0)
                                    : NB_HEADING_ANY;
    s.speed = (uint16_t)ws->m->stop;
    return s;
}

/* Adds a segment's path (ws->path) to the route, its first state once. */
static nb_status append_segment(nb_motion *ws, const nb_motion_result *res, nb_err *err)
{
    size_t skip = ws->route_len > 0;
    nb_status st =
        nbi_motion_room(ws->a, &ws->route, &ws->route_cap, ws->route_len + res->path_len, err);
    if (st != NB_OK)
        return st;
    memcpy(ws->route + ws->route_len, ws->path + skip, (res->path_len - skip) * sizeof *ws->path);
    ws->route_len += res->path_len - skip;
    return NB_OK;
}

/* Refines ws->goals segment by segment into ws->route. */
static nb_status refine(nb_motion *ws, const nb_motion_query *q, unsigned segment,
                        nb_motion_segment_fn stepfn, void *ctx, nb_motion_result *r,
                        size_t *segments, nb_err *err)
{
    size_t last = ws->ngoals - 1, i = 0;
    nb_motion_state cur = q->start;
    for (;;) {
        size_t j = i + segment < last ? i + segment : last;
        nb_motion_query sub = *q;
        nb_motion_result res;
        sub.start = cur;
        if (j == last)
            sub.truncate = 0;
        else
            sub.goal = waypoint(ws, q, j);
        nb_status st = nb_motion_find(ws, &sub, &res, err);
        if (st != NB_OK)
            return st;
        if (stepfn)
            stepfn(ctx, &res);
        if (segments)
            (*segments)++;
        r->expanded += res.expanded;
        r->generated += res.generated;
        r->reopened += res.reopened;
        r->grid_expanded += res.grid_expanded;
        if (res.status != NB_PATH_FOUND) {
            r->status = res.status == NB_PATH_LIMIT ? NB_PATH_LIMIT : NB_PATH_NONE;
            break;
        }
        if ((st = append_segment(ws, &res, err)) != NB_OK)
            return st;
        r->cost += res.cost;
        cur = res.end;
        if (j == last) {
            r->status = NB_PATH_FOUND;
            break;
        }
        i = j;
    }
    r->end = cur;
    return NB_OK;
}

static nb_status find_route(nb_motion *ws, const nb_motion_query *q, unsigned segment,
                            nb_motion_segment_fn stepfn, void *ctx, nb_motion_result *r,
                            size_t *segments, nb_err *err)
{
    memset(r, 0, sizeof *r);
    r->status = NB_PATH_NONE;
    if (segments)
        *segments = 0;
    nb_status st = nbi_motion_check(ws, q, err);
    if (st != NB_OK)
        return st;
    if (q->abstraction == NB_ROUTE_SECTORS && !ws->has_sectors)
        return nbi_fail(err, NB_ERR_ARG,
                        "a route over sectors needs the workspace prepared for it "
                        "(nb_motion_use_sectors)");
    if (q->abstraction == NB_ROUTE_HAA && !ws->haa)
        return nbi_fail(err, NB_ERR_ARG,
                        "a route over the HAA* graph needs the workspace prepared for it "
                        "(nb_motion_use_haa)");
    if (segment < 1)
        return nbi_fail(err, NB_ERR_ARG, "segments of %u places, expected at least 1", segment);
    ws->route_len = 0;
    if ((r->status = nbi_motion_blocked(ws, q)) != NB_PATH_NONE)
        return NB_OK;
    if (q->abstraction == NB_ROUTE_HAA)
        st = haa_goals(ws, q, err);
    else
        sector_goals(ws, q);
    if (st == NB_OK && ws->ngoals > 0)
        st = refine(ws, q, segment, stepfn, ctx, r, segments, err);
    r->path_len = ws->route_len;
    r->path = ws->route_len ? ws->route : NULL;
    return st;
}

nb_status nb_motion_route_find(nb_motion *ws, const nb_motion_query *q, unsigned segment,
                               nb_motion_segment_fn stepfn, void *ctx, nb_motion_result *r,
                               size_t *segments, nb_err *err)
{
    return nbi_done(err, find_route(ws, q, segment, stepfn, ctx, r, segments, err));
}
