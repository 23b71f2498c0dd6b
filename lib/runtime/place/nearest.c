/* nearest.c: the standable cell nearest a point, by octile distance.
 *
 * A cell at Chebyshev distance r from the point (on the square ring of
 * radius r around it) is at octile distance r + (sqrt 2 - 1) m, m its
 * offset along the other axis, so between r and r sqrt 2.  Rings are read
 * outwards; once the ring's radius exceeds the best distance found, no
 * farther cell can be nearer or tie, and the search ends.  An answer at
 * distance d is found after (2 floor(d) + 1)^2 cells at most, on any map,
 * with no memory but a few integers: what Recast's findNearestPoly is to
 * a navmesh, on a grid. */
#include <math.h>

#include "core/grid.h"
#include "place/place.h"

void nb_nearest_query_init(nb_nearest_query *q)
{
    memset(q, 0, sizeof *q);
    q->radius = NB_NEAREST_RADIUS;
}

typedef struct search {
    const nb_place *p;
    long px, py;
    double radius;
    uint32_t comp; /* 0: any component */
    nb_nearest_result *res;
    double best;
    int seen; /* a cell that qualifies but for the radius */
} search;

static void look(search *s, long x, long y)
{
    const nb_place *p = s->p;
    s->res->examined++;
    if (!nbi_place_stands(p, (uint32_t)x, (uint32_t)y))
        return;
    if (s->comp && nbi_layer_get(&p->comp, (uint64_t)y * p->comp.width + (uint64_t)x) != s->comp)
        return;
    s->seen = 1;
    double d = nbi_octile_cells((int32_t)x, (int32_t)y, (int32_t)s->px, (int32_t)s->py);
    nb_cell *c = &s->res->cell;
    /* Distinct octile distances on a map differ by far more than a
     * rounding error, so equal doubles are equal distances. */
    if (d > s->radius || d > s->best || (d == s->best && (y > c->y || (y == c->y && x > c->x))))
        return;
    s->best = d;
    c->x = (int32_t)x;
    c->y = (int32_t)y;
}

/* The cells of the ring of radius r that lie on the map. */
static void ring(search *s, long r, long w, long h)
{
    long x0 = s->px - r, x1 = s->px + r, y0 = s->py - r, y1 = s->py + r;
    long xa = x0 < 0 ? 0 : x0, xb = x1 >= w ? w - 1 : x1;
    if (r == 0) {
        look(s, s->px, s->py);
        return;
    }
    if (y0 >= 0)
        for (long x = xa; x <= xb; x++)
            look(s, x, y0);
    if (y1 < h)
        for (long x = xa; x <= xb; x++)
            look(s, x, y1);
    long ya = y0 + 1 < 0 ? 0 : y0 + 1, yb = y1 - 1 >= h ? h - 1 : y1 - 1;
    if (x0 >= 0)
        for (long y = ya; y <= yb; y++)
            look(s, x0, y);
    if (x1 < w)
        for (long y = ya; y <= yb; y++)
            look(s, x1, y);
}

static int on_map(const nb_place *p, nb_cell c)
{
    return c.x >= 0 && c.y >= 0 && (uint32_t)c.x < p->clear.width &&
           (uint32_t)c.y < p->clear.height;
}

nb_status nb_nearest_standable(const nb_place *p, const nb_nearest_query *q, nb_nearest_result *res,
                               nb_err *err)
{
    if (!p || !q || !res)
        return nbi_fail(err, NB_ERR_ARG, "nb_nearest_standable: NULL argument");
    memset(res, 0, sizeof *res);
    res->cell.x = res->cell.y = -1;
    res->distance = INFINITY;
    long w = p->clear.width, h = p->clear.height;
    if (!on_map(p, q->point))
        return nbi_fail(err, NB_ERR_ARG,
                        "nb_nearest_standable: point (%d, %d) is outside the "
                        "%ld x %ld map",
                        q->point.x, q->point.y, w, h);
    if (!(q->radius >= 0))
        return nbi_fail(err, NB_ERR_ARG, "nb_nearest_standable: radius %g, expected 0 or more",
                        q->radius);
    search s = {p, q->point.x, q->point.y, q->radius, 0, res, INFINITY, 0};
    if (q->reachable) {
        if (!p->has_comp) {
            char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
            nb_capability_format(p->b, p->cap, caps, sizeof caps);
            return nbi_fail(err, NB_ERR_NOTFOUND,
                            "%s: no component layer for capability {%s} and size %u, which a "
                            "search within the reach of a cell needs; bake one with mkclear",
                            p->b->path, caps, p->size);
        }
        if (!on_map(p, q->from))
            return nbi_fail(err, NB_ERR_ARG,
                            "nb_nearest_standable: from (%d, %d) is outside "
                            "the %ld x %ld map",
                            q->from.x, q->from.y, w, h);
        s.comp = nbi_layer_value(&p->comp, (uint64_t)q->from.y * (uint64_t)w + (uint64_t)q->from.x);
        if (s.comp == 0) {
            res->status = NB_PATH_START_BLOCKED;
            return nbi_done(err, NB_OK);
        }
    }
    /* The ring beyond which the map ends, and the last one the radius
     * lets the search read. */
    long reach = s.px;
    if (w - 1 - s.px > reach)
        reach = w - 1 - s.px;
    if (s.py > reach)
        reach = s.py;
    if (h - 1 - s.py > reach)
        reach = h - 1 - s.py;
    long last = q->radius < (double)reach ? (long)floor(q->radius) : reach;
    long r = 0;
    for (; r <= last && (double)r <= s.best; r++)
        ring(&s, r, w, h);
    if (s.best < INFINITY) {
        res->status = NB_PATH_FOUND;
        res->distance = s.best;
    } else /* none at all only when the whole map was read */
        res->status = last == reach && !s.seen ? NB_PATH_NONE : NB_PATH_LIMIT;
    return nbi_done(err, NB_OK);
}
