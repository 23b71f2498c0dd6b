/* nearest.c: the standable cell nearest a point, by octile distance
 * (nb_nearest_find): the search in rings around the point of
 * clearance/ring.c, on the place's layers for the query's agent, under its
 * overlay, in slices.  An answer at distance d is found after
 * (2 floor(d) + 1)^2 cells at most, with no memory but a few integers; a
 * step of B cells looks at B cells (without an overlay, each one read of
 * the clearance layer and with reachable one of the component layer): the
 * work is the budget's, on any bundle. */
#include <math.h>

#include "core/grid.h"
#include "place/place.h"

static const char family[] = "nearest";

nb_status nb_nearest_query_init_abi(nb_nearest_query *q, const nb_abi *abi)
{
    if (nbi_abi_ok(abi, NBI_ABI_nb_nearest_query) != NB_OK)
        return NB_ERR_VERSION;
    memset(q, 0, sizeof *q); /* any cell, no overlay, no limit */
    q->radius = NB_NEAREST_RADIUS;
    q->size = 1;
    return NB_OK;
}

void nb_nearest_query_agent(nb_nearest_query *q, const nb_agent *agent)
{
    q->size = agent->size;
    q->capability = agent->capability;
}

nb_status nb_nearest_begin(nb_place *p, const nb_nearest_query *q, nb_err *err)
{
    if (!p || !q)
        return nbi_fail(err, NB_ERR_ARG, "nb_nearest_begin: NULL argument");
    p->kind = NBI_PLACE_IDLE;
    nbi_nearest *s = &p->near;
    nbi_ring *g = &s->ring;
    s->res.status = NB_PATH_NONE;
    s->res.cell.x = s->res.cell.y = -1;
    s->res.distance = INFINITY;
    s->res.examined = 0;
    s->res.expanded = 0;
    nb_status st = nbi_place_check(p, family, q->size, q->overlay, err);
    if (st != NB_OK)
        return st;
    if (!(q->radius >= 0))
        return nbi_fail(err, NB_ERR_ARG, "%s: radius %g, expected 0 or more", family, q->radius);
    const nb_bundle *b = p->b;
    if ((st = nbi_query_cell(err, family, "point", q->point, b->width, b->height)) != NB_OK ||
        (q->reachable &&
         (st = nbi_query_cell(err, family, "start", q->start, b->width, b->height)) != NB_OK) ||
        (st = nbi_place_bind(p, family, q->capability, q->size, q->overlay, err)) != NB_OK)
        return st;
    memset(g, 0, sizeof *g);
    g->clear = &p->clear;
    g->size = p->size;
    g->ov = p->ov;
    g->reach = &p->reach;
    s->max = q->max_expansions;
    p->kind = NBI_PLACE_NEAREST;
    p->done = 1;
    if (q->reachable) {
        if (!p->has_comp) {
            char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
            nb_capability_format(b, p->cap, caps, sizeof caps);
            p->kind = NBI_PLACE_IDLE;
            return nbi_fail(err, NB_ERR_NOTFOUND,
                            "%s: %s: no component layer for capability {%s} and size %u, which a "
                            "search within the reach of a cell needs; bake one with mkclear",
                            family, b->path, caps, p->size);
        }
        g->comp = &p->comp;
        g->comp_want = nbi_comp_value(&p->comp, (uint64_t)q->start.y * b->width + (uint64_t)q->start.x);
        g->start = q->start;
        g->tell = p->ov != NULL;
        if (g->comp_want == 0 || !nbi_place_stands(p, (uint32_t)q->start.x, (uint32_t)q->start.y)) {
            s->res.status = NB_PATH_START_BLOCKED;
            return nbi_done(err, NB_OK);
        }
    }
    nbi_ring_begin(g, q->point.x, q->point.y, q->radius);
    p->done = 0;
    return nbi_done(err, NB_OK);
}

nb_status nb_nearest_step(nb_place *p, uint64_t expansions, int *done, nb_err *err)
{
    if (!p || p->kind != NBI_PLACE_NEAREST)
        return nbi_fail(err, NB_ERR_ARG, "nb_nearest_step: no nearest search begun");
    nbi_nearest *s = &p->near;
    nbi_ring *g = &s->ring;
    if (!p->done) {
        uint64_t stop = g->examined + expansions < g->examined ? UINT64_MAX
                                                               : g->examined + expansions;
        int limited = s->max && s->max < stop;
        int ended = nbi_ring_run(g, limited ? s->max : stop);
        s->res.examined = g->examined;
        s->res.expanded = p->reach.expanded;
        if (g->fail) {
            p->kind = NBI_PLACE_IDLE;
            return nbi_fail(err, g->fail, "nearest: no memory for the searches that tell reach "
                            "under the overlay");
        }
        if (ended)
            p->done = 1;
        else if (limited && g->examined >= s->max) {
            s->res.status = NB_PATH_LIMIT;
            p->done = 2; /* stopped by the budget */
        }
    }
    if (done)
        *done = p->done != 0;
    return nbi_done(err, NB_OK);
}

nb_status nb_nearest_finish(nb_place *p, nb_nearest_result *res, nb_err *err)
{
    if (!res)
        return nbi_fail(err, NB_ERR_ARG, "nb_nearest_finish: res is NULL");
    if (!p || p->kind != NBI_PLACE_NEAREST) {
        if (res) {
            memset(res, 0, sizeof *res);
            res->cell.x = res->cell.y = -1;
        }
        return nbi_fail(err, NB_ERR_ARG, "nb_nearest_finish: no nearest search begun");
    }
    nbi_nearest *s = &p->near;
    const nbi_ring *g = &s->ring;
    p->kind = NBI_PLACE_IDLE;
    if (s->res.status != NB_PATH_START_BLOCKED) {
        if (!p->done || p->done == 2)
            s->res.status = NB_PATH_LIMIT; /* cell: the nearest so far, if any */
        else if (g->best < INFINITY)
            s->res.status = NB_PATH_FOUND;
        else /* none at all only when the whole map was read */
            s->res.status = nbi_ring_whole(g) && !g->seen ? NB_PATH_NONE : NB_PATH_BEYOND_RADIUS;
        if (g->best < INFINITY) {
            s->res.distance = g->best;
            s->res.cell = g->cell;
        }
    }
    *res = s->res;
    return nbi_done(err, NB_OK);
}

nb_status nb_nearest_find(nb_place *p, const nb_nearest_query *q, nb_nearest_result *res,
                          nb_err *err)
{
    if (!res)
        return nbi_fail(err, NB_ERR_ARG, "nb_nearest_find: res is NULL");
    nb_status st = nb_nearest_begin(p, q, err);
    if (st == NB_OK)
        st = nb_nearest_step(p, UINT64_MAX, NULL, err);
    if (st == NB_OK)
        return nb_nearest_finish(p, res, err);
    if (res) {
        memset(res, 0, sizeof *res);
        res->cell.x = res->cell.y = -1;
        res->distance = INFINITY;
    }
    return st;
}
