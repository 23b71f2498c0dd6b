/* test_nearest.c: nb_nearest_find against brute force (brute_place.c:
 * every cell read, octile distances compared exactly), on random levels of
 * several terrains for three capabilities and sizes 1 to 3, 10^4 random
 * queries per level (NB_PLACE_QUERIES), with and without a cell to be
 * reachable from, under radii from 0 to the whole map.
 *
 *  - The status, the cell (ties: least y, then least x) and the distance
 *    are the brute force's; with --reachable-from the brute force runs
 *    with the components of either corner rule (a breadth-first search
 *    with eight moves, diagonals needing both or one cardinal neighbour),
 *    which must agree;
 *  - the search reads at most (2 floor(d) + 1)^2 cells for an answer at
 *    distance d (the square of rings around the point), and at most the
 *    square of the radius when it finds nothing;
 *  - a level where the agent stands nowhere says NONE, a radius too small
 *    LIMIT, and bad queries are argument errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "placeutil.h"

static double radius_of(tu_rng *r, const nbb_grid *g)
{
    switch (tu_below(r, 5)) {
    case 0: return NB_NEAREST_RADIUS;
    case 1: return INFINITY;
    case 2: return tu_below(r, 21) / 2.0; /* 0 to 10 */
    default: return tu_below(r, 2 * (g->width + g->height)) / 2.0;
    }
}

static nb_cell random_cell(tu_rng *r, const nbb_grid *g)
{
    return (nb_cell){(int32_t)tu_below(r, g->width), (int32_t)tu_below(r, g->height)};
}

/* A cell where P's agent stands, if one is found in a few tries. */
static nb_cell standable_cell(tu_rng *r, const nbb_grid *g, const pu_pair *P)
{
    nb_cell c = random_cell(r, g);
    for (int k = 0; k < 50 && !P->stand[(size_t)c.y * g->width + (size_t)c.x]; k++)
        c = random_cell(r, g);
    return c;
}

static void check_level(pu_level *L, tu_rng *r)
{
    const nbb_grid *g = &L->grid;
    unsigned long nq = pu_queries(), bad = 0, rules = 0, cost = 0, errors = 0;
    unsigned long found = 0, none = 0, limit = 0, blocked = 0, reach = 0;
    /* On a large map only some queries may read every cell. */
    int big = (size_t)g->width * g->height > 100000;
    for (unsigned long q = 0; q < nq; q++) {
        pu_pair *P = &L->pair[tu_below(r, (uint32_t)L->npairs)];
        nb_nearest_query nq_;
        nb_nearest_query_init(&nq_);
        nq_.point = random_cell(r, g);
        nq_.radius = radius_of(r, g);
        if (big && (isinf(nq_.radius) || nq_.radius > 64) && q % 50)
            nq_.radius = tu_below(r, 129) / 2.0;
        if (tu_below(r, 2)) {
            nq_.reachable = 1;
            nq_.start = tu_below(r, 4) ? standable_cell(r, g, P) : random_cell(r, g);
        }
        nb_nearest_result res;
        nb_err err;
        if (tu_nearest(P->place, &nq_, &res, &err) != NB_OK) {
            if (errors++ < 3)
                diag("%s: %s", L->name, err.msg);
            continue;
        }
        long bx = -1, by = -1, wx = -1, wy = -1;
        nb_path_status want, weak;
        size_t fi = (size_t)nq_.start.y * g->width + (size_t)nq_.start.x;
        if (nq_.reachable && !P->stand[fi])
            want = weak = NB_PATH_START_BLOCKED;
        else {
            want = brute_nearest(P->stand, nq_.reachable ? P->strict : NULL,
                                 nq_.reachable ? P->strict[fi] : 0, g->width, g->height,
                                 nq_.point.x, nq_.point.y, nq_.radius, &bx, &by);
            weak = brute_nearest(P->stand, nq_.reachable ? P->weak : NULL,
                                 nq_.reachable ? P->weak[fi] : 0, g->width, g->height, nq_.point.x,
                                 nq_.point.y, nq_.radius, &wx, &wy);
        }
        reach += nq_.reachable;
        if (weak != want || wx != bx || wy != by)
            rules++;
        long ax = labs(bx - nq_.point.x), ay = labs(by - nq_.point.y);
        double d = want != NB_PATH_FOUND ? INFINITY
                   : ax > ay             ? ax + (M_SQRT2 - 1) * ay
                                         : ay + (M_SQRT2 - 1) * ax;
        int same = res.status == want &&
                   (want != NB_PATH_FOUND ||
                    (res.cell.x == bx && res.cell.y == by && fabs(res.distance - d) < 1e-9));
        if (!same && bad++ < 5)
            diag("%s: cap %u size %u: point (%d, %d) radius %g%s (%d, %d): got %s (%d, %d) %.6f, "
                 "brute force %s (%ld, %ld) %.6f",
                 L->name, P->cap, P->size, nq_.point.x, nq_.point.y, nq_.radius,
                 nq_.reachable ? " reachable from" : "", nq_.start.x, nq_.start.y,
                 nb_path_status_str(res.status), res.cell.x, res.cell.y, res.distance,
                 nb_path_status_str(want), bx, by, d);
        /* The rings read: the square of the answer's distance, or of the
         * radius (the whole map at most). */
        double span =
            want == NB_PATH_FOUND ? floor(d) : (isinf(nq_.radius) ? 1e9 : floor(nq_.radius));
        double side = 2 * span + 1, mapside = 2.0 * (g->width > g->height ? g->width : g->height);
        if (side > mapside)
            side = mapside;
        if (want != NB_PATH_START_BLOCKED && (double)res.examined > side * side) {
            if (cost++ < 3)
                diag("%s: point (%d, %d): %llu cells read for an answer at %.3f", L->name,
                     nq_.point.x, nq_.point.y, (unsigned long long)res.examined, d);
        }
        found += want == NB_PATH_FOUND;
        none += want == NB_PATH_NONE;
        limit += want == NB_PATH_BEYOND_RADIUS;
        blocked += want == NB_PATH_START_BLOCKED;
    }
    ok(errors == 0, "%s: %lu queries answered without an error", L->name, nq);
    ok(bad == 0,
       "%s: %lu queries (%lu with a cell to reach from) as brute force: %lu found, %lu "
       "none, %lu beyond the radius, %lu from a cell where the agent cannot stand",
       L->name, nq, reach, found, none, limit, blocked);
    ok(rules == 0, "%s: the components of either corner rule give the same answers", L->name);
    ok(cost == 0, "%s: no query reads more than the square of its answer's distance", L->name);
}

/* Hand-made cases: a cell itself, nowhere to stand, too small a radius,
 * and bad queries. */
static void check_cases(void)
{
    pu_level L;
    static const char cells[] = "WWWWWWW"
                                "WWWWWWW"
                                "WWW.WWW"
                                "WWWWWWW"
                                "WWWWWWW";
    if (!pu_level_chars(&L, 7, 5, cells, "a lake")) {
        pu_level_close(&L);
        return;
    }
    const pu_pair *g1 = &L.pair[0], *g2 = &L.pair[1]; /* ground, sizes 1 and 2 */
    nb_nearest_query q;
    nb_nearest_result res;
    nb_err err;
    nb_nearest_query_init(&q);
    ok(q.radius == NB_NEAREST_RADIUS && !q.reachable, "init: the default radius, any cell");
    q.point = (nb_cell){3, 2};
    ok(tu_nearest(g1->place, &q, &res, &err) == NB_OK && res.status == NB_PATH_FOUND &&
           res.distance == 0 && res.examined == 1,
       "the point itself, one cell read");
    q.point = (nb_cell){0, 0};
    ok(tu_nearest(g1->place, &q, &res, &err) == NB_OK && res.status == NB_PATH_FOUND &&
           res.cell.x == 3 && res.cell.y == 2 && fabs(res.distance - (1 + 2 * M_SQRT2)) < 1e-12,
       "the one dry cell from a corner: 1 + 2 sqrt 2");
    q.radius = 3.8;
    ok(tu_nearest(g1->place, &q, &res, &err) == NB_OK && res.status == NB_PATH_BEYOND_RADIUS &&
           res.cell.x == -1,
       "radius 3.8: none within it (BEYOND_RADIUS)");
    q.radius = INFINITY;
    ok(tu_nearest(g2->place, &q, &res, &err) == NB_OK && res.status == NB_PATH_NONE,
       "a size-2 agent stands nowhere: NONE");
    q.radius = 6;
    ok(tu_nearest(g2->place, &q, &res, &err) == NB_OK && res.status == NB_PATH_NONE,
       "... also with a radius that covers the map");
    q.radius = 5;
    ok(tu_nearest(g2->place, &q, &res, &err) == NB_OK && res.status == NB_PATH_BEYOND_RADIUS,
       "... but BEYOND_RADIUS with one that does not");
    q.radius = 64;
    q.reachable = 1;
    q.start = (nb_cell){1, 1};
    ok(tu_nearest(g1->place, &q, &res, &err) == NB_OK &&
           res.status == NB_PATH_START_BLOCKED,
       "reachable from water: START_BLOCKED");
    q.start = (nb_cell){3, 2};
    ok(tu_nearest(g1->place, &q, &res, &err) == NB_OK && res.status == NB_PATH_FOUND &&
           res.cell.x == 3,
       "reachable from the dry cell: itself");
    q.start = (nb_cell){7, 2};
    like(tu_nearest(g1->place, &q, &res, &err) == NB_ERR_OUTSIDE ? err.msg : "",
         "start (7, 2) is off the 7 x 5 map", "start off the map: NB_ERR_OUTSIDE naming it");
    q.reachable = 0;
    q.point = (nb_cell){-1, 0};
    like(tu_nearest(g1->place, &q, &res, &err) == NB_ERR_OUTSIDE ? err.msg : "",
         "point (-1, 0) is off the 7 x 5 map", "a point off the map: NB_ERR_OUTSIDE");
    q.point = (nb_cell){0, 0};
    q.radius = NAN;
    ok(tu_nearest(g1->place, &q, &res, &err) == NB_ERR_ARG, "radius NaN: NB_ERR_ARG");
    q.radius = -1;
    ok(tu_nearest(g1->place, &q, &res, &err) == NB_ERR_ARG, "radius -1: NB_ERR_ARG");
    ok(tu_nearest(NULL, &q, &res, &err) == NB_ERR_ARG &&
           tu_nearest(g1->place, NULL, &res, NULL) == NB_ERR_ARG,
       "NULL arguments: NB_ERR_ARG");
    pu_level_close(&L);
}

int main(void)
{
    check_cases();
    pu_each_level(check_level, 18);
    return done_testing();
}
