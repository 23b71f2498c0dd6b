/* nearest.c: the standable cell nearest a point, by octile distance.
 *
 * A cell at Chebyshev distance r from the point (on the square ring of
 * radius r around it) is at octile distance r + (sqrt 2 - 1) m, m its
 * offset along the other axis, so between r and r sqrt 2.  Rings are read
 * outwards; once the ring's radius exceeds the best distance found, no
 * farther cell can be nearer or tie, and the search ends.  An answer at
 * distance d is found after (2 floor(d) + 1)^2 cells at most, on any map,
 * with no memory but a few integers: what Recast's findNearestPoly is to
 * a navmesh, on a grid.  The state between slices is the ring, its side
 * (top row, bottom row, left column, right column, each clipped to the
 * map) and the next cell of that side.  A step of B cells looks at B cells
 * (each one read of the clearance layer, and with reachable one of the
 * component layer) and ends: the work is the budget's, on any bundle. */
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

static void look(const nb_place *p, nbi_nearest *s, long x, long y)
{
    s->res.examined++;
    if (!nbi_place_stands(p, (uint32_t)x, (uint32_t)y))
        return;
    if (s->comp && nbi_layer_get(&p->comp, (uint64_t)y * p->comp.width + (uint64_t)x) != s->comp)
        return;
    s->seen = 1;
    double d = nbi_octile_cells((int32_t)x, (int32_t)y, (int32_t)s->px, (int32_t)s->py);
    nb_cell *c = &s->res.cell;
    /* Distinct octile distances on a map differ by far more than a
     * rounding error, so equal doubles are equal distances. */
    if (d > s->radius || d > s->best || (d == s->best && (y > c->y || (y == c->y && x > c->x))))
        return;
    s->best = d;
    c->x = (int32_t)x;
    c->y = (int32_t)y;
}

/* The four sides of ring r that lie on the map, as ranges lo..hi of x
 * (rows) or y (columns); a side off the map is empty (lo > hi). */
static inline NBP_ALWAYS_INLINE void ring(nbi_nearest *s, long r)
{
    long x0 = s->px - r, x1 = s->px + r, y0 = s->py - r, y1 = s->py + r;
    long xa = x0 < 0 ? 0 : x0, xb = x1 >= s->w ? s->w - 1 : x1;
    long ya = y0 + 1 < 0 ? 0 : y0 + 1, yb = y1 - 1 >= s->h ? s->h - 1 : y1 - 1;
    int top = y0 >= 0, bottom = r > 0 && y1 < s->h, left = r > 0 && x0 >= 0,
        right = r > 0 && x1 < s->w;
    s->r = r;
    s->side = 0;
    s->lo[0] = top ? xa : 1, s->hi[0] = top ? xb : 0;
    s->lo[1] = bottom ? xa : 1, s->hi[1] = bottom ? xb : 0;
    s->lo[2] = left ? ya : 1, s->hi[2] = left ? yb : 0;
    s->lo[3] = right ? ya : 1, s->hi[3] = right ? yb : 0;
    s->i = s->lo[0];
}

/* Reads cells until the search ends (1) or stop cells have been read (0):
 * a side at a time, in a loop of its own, as far as the budget allows. */
static int run(const nb_place *p, nbi_nearest *s, uint64_t stop)
{
    for (;;) {
        if (s->side == 4) {
            if (s->r + 1 > s->last || (double)(s->r + 1) > s->best)
                return 1;
            ring(s, s->r + 1);
        }
        long end = s->hi[s->side];
        if (end >= s->i) {
            if (s->res.examined >= stop)
                return 0;
            uint64_t room = stop - s->res.examined;
            if ((uint64_t)(end - s->i) >= room)
                end = s->i + (long)room - 1;
            long r = s->r;
            switch (s->side) {
            case 0:
                for (long v = s->i; v <= end; v++)
                    look(p, s, v, s->py - r);
                break;
            case 1:
                for (long v = s->i; v <= end; v++)
                    look(p, s, v, s->py + r);
                break;
            case 2:
                for (long v = s->i; v <= end; v++)
                    look(p, s, s->px - r, v);
                break;
            default:
                for (long v = s->i; v <= end; v++)
                    look(p, s, s->px + r, v);
                break;
            }
            s->i = end + 1;
            if (s->i <= s->hi[s->side])
                return 0; /* the budget ended inside the side */
        }
        if (++s->side < 4)
            s->i = s->lo[s->side];
    }
}

nb_status nb_nearest_begin(nb_place *p, const nb_nearest_query *q, nb_err *err)
{
    if (!p || !q)
        return nbi_fail(err, NB_ERR_ARG, "nb_nearest_begin: NULL argument");
    p->kind = NBI_PLACE_IDLE;
    nbi_nearest *s = &p->near;
    s->res.status = NB_PATH_NONE;
    s->res.cell.x = s->res.cell.y = -1;
    s->res.distance = INFINITY;
    s->res.examined = 0;
    s->comp = 0;
    s->seen = 0;
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
    s->w = b->width;
    s->h = b->height;
    s->px = q->point.x;
    s->py = q->point.y;
    s->radius = q->radius;
    s->best = INFINITY;
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
        s->comp = nbi_layer_value(&p->comp, (uint64_t)q->start.y * b->width + (uint64_t)q->start.x);
        if (s->comp == 0) {
            s->res.status = NB_PATH_START_BLOCKED;
            return nbi_done(err, NB_OK);
        }
    }
    /* The ring beyond which the map ends, and the last one the radius
     * lets the search read. */
    s->reach = s->px;
    if (s->w - 1 - s->px > s->reach)
        s->reach = s->w - 1 - s->px;
    if (s->py > s->reach)
        s->reach = s->py;
    if (s->h - 1 - s->py > s->reach)
        s->reach = s->h - 1 - s->py;
    s->last = q->radius < (double)s->reach ? (long)floor(q->radius) : s->reach;
    ring(s, 0);
    p->done = 0;
    return nbi_done(err, NB_OK);
}

nb_status nb_nearest_step(nb_place *p, uint64_t expansions, int *done, nb_err *err)
{
    if (!p || p->kind != NBI_PLACE_NEAREST)
        return nbi_fail(err, NB_ERR_ARG, "nb_nearest_step: no nearest search begun");
    nbi_nearest *s = &p->near;
    if (!p->done) {
        uint64_t stop = s->res.examined + expansions < s->res.examined
                            ? UINT64_MAX
                            : s->res.examined + expansions;
        int limited = s->max && s->max < stop;
        if (run(p, s, limited ? s->max : stop))
            p->done = 1;
        else if (limited && s->res.examined >= s->max) {
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
    p->kind = NBI_PLACE_IDLE;
    if (s->res.status != NB_PATH_START_BLOCKED) {
        if (!p->done || p->done == 2)
            s->res.status = NB_PATH_LIMIT; /* cell: the nearest so far, if any */
        else if (s->best < INFINITY)
            s->res.status = NB_PATH_FOUND;
        else /* none at all only when the whole map was read */
            s->res.status = s->last == s->reach && !s->seen ? NB_PATH_NONE : NB_PATH_BEYOND_RADIUS;
        if (s->best < INFINITY)
            s->res.distance = s->best;
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
