/* test_partial.c: partial paths (a query's field partial, NB_PATH_PARTIAL)
 * in every grid search family, against the brute force on the edited map.
 *
 * On random levels (rooms, and random obstacles) of two terrains with
 * agents of sizes 1 to 3, without an overlay and under overlays of 1 to 8
 * rectangles, half the time with a closed square wall (the fortress a unit
 * is ordered into, which the component layer cannot see), queries from a
 * cell where the agent stands on the bundle to any cell, both corner rules.
 * The brute force is a textbook Dijkstra from the start on the map with the
 * overlay's cells made walls (brute.c, which shares nothing with the
 * runtime).  With partial set:
 *  - a start the edited map does not let the agent stand on: START_BLOCKED;
 *  - a goal Dijkstra reaches: FOUND, as without partial;
 *  - else PARTIAL, the path ending at the reachable cell nearest the goal
 *    by octile distance (ties: the least y, then the least x), chosen here
 *    from Dijkstra's distances; the path valid cell by cell on the edited
 *    map; Annotated A*'s and the optimal layer's of Dijkstra's length to
 *    that cell (the least), HAA*'s valid.
 * Each agent has a twin with terrain costs (the graph's costs baked for
 * it): the same ends, the path costing what a textbook Dijkstra with those
 * costs gives to that cell (Annotated A*, the optimal layer), HAA*'s legal
 * and costing what it says, recomputed here.
 * Annotated A* in slices of a few expansions gives find's partial path; a
 * query without partial keeps its NONE and GOAL_BLOCKED. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "haa_util.h"
#include "shapes.h"

static nbi_legend legend;

/* Blocks rectangles, and half the time a closed square wall; marks them in blk. */
static void random_overlay(tu_rng *r, nb_overlay *ov, uint8_t *blk, uint32_t w, uint32_t h)
{
    int n = 1 + (int)tu_below(r, 8);
    for (int k = 0; k < n; k++) {
        long rw = 1 + (long)tu_below(r, 6), rh = 1 + (long)tu_below(r, 6);
        long x = (long)tu_below(r, w - (uint32_t)rw + 1), y = (long)tu_below(r, h - (uint32_t)rh + 1);
        nb_overlay_block(ov, x, y, rw, rh, NULL);
        for (long j = y; j < y + rh; j++)
            for (long i = x; i < x + rw; i++)
                blk[(size_t)j * w + (size_t)i] = 1;
    }
    if (tu_below(r, 2)) {
        long s = 7 + (long)tu_below(r, 8);
        long x = (long)tu_below(r, w - (uint32_t)s + 1), y = (long)tu_below(r, h - (uint32_t)s + 1);
        for (long j = y; j < y + s; j++)
            for (long i = x; i < x + s; i++)
                if (j == y || j == y + s - 1 || i == x || i == x + s - 1) {
                    nb_overlay_block(ov, i, j, 1, 1, NULL);
                    blk[(size_t)j * w + (size_t)i] = 1;
                }
    }
}

typedef struct tally {
    long queries, found, partial, start_blocked, bad[4], slices_bad, plain_bad;
} tally;

static const char *family[4] = {"status", "Annotated A*", "HAA*", "the optimal layer"};

static void bad(tally *t, int f, const char *tag, const char *what, const nb_aa_query *q)
{
    if (t->bad[f]++ < 4)
        diag("%s (%d,%d)->(%d,%d) size %u %s%s: %s %s", family[f], q->start.x, q->start.y,
             q->goal.x, q->goal.y, q->size, q->corner ? "weak" : "strict",
             q->overlay ? " overlay" : "", tag ? tag : "", what);
}

/* 1 when a path of the given length and cost is the least to its end: without costs its length
 * is want_len; with costs (q->costs) its cost, recomputed cell by cell on eg, is what it says
 * and is want_cost (want_cost < 0: any cost it truly has, HAA*'s). */
static int least(const nb_aa_query *q, double length, double cost, double want_len,
                 double want_cost, const nb_cell *p, size_t n, const nbb_grid *eg,
                 const nb_agent *a, char *why, size_t cap)
{
    if (!q->costs) {
        if (want_len < 0 || fabs(length - want_len) <= 1e-9)
            return 1;
        snprintf(why, cap, "length %.9g, Dijkstra's %.9g", length, want_len);
        return 0;
    }
    double c = 0;
    for (size_t i = 1; i < n; i++)
        c += (p[i].x != p[i - 1].x && p[i].y != p[i - 1].y ? sqrt(2.0) : 1.0) *
             brute_square_cost(&legend, eg, q->costs, a->size, p[i].x, p[i].y);
    double tol = 1e-9 * (1 + c);
    if (fabs(c - cost) <= tol && (want_cost < 0 || fabs(cost - want_cost) <= tol))
        return 1;
    snprintf(why, cap, "cost %.9g (recomputed %.9g), Dijkstra's %.9g", cost, c, want_cost);
    return 0;
}

/* One query in every family, against Dijkstra's distances dist on the edited map eg. */
static void check_query(nb_aa *aa, nb_haa *haa, nb_sg *sg, const nbb_grid *eg, const nb_agent *a,
                        const nb_aa_query *q, const double *dist, tally *t)
{
    uint32_t w = eg->width, h = eg->height;
    enum brute_corner rule = q->corner ? BRUTE_WEAK : BRUTE_STRICT;
    nb_path_status want;
    nb_cell end = q->goal;
    if (!brute_can_stand(&legend, eg, a->capability, a->size, q->start.x, q->start.y)) {
        want = NB_PATH_START_BLOCKED;
    } else if (dist[(size_t)q->goal.y * w + (size_t)q->goal.x] >= 0) {
        want = NB_PATH_FOUND;
    } else {
        want = NB_PATH_PARTIAL;
        double best = INFINITY;
        for (uint32_t y = 0; y < h; y++) /* row-major: the first of equals is the least y, x */
            for (uint32_t x = 0; x < w; x++) {
                if (dist[(size_t)y * w + x] < 0)
                    continue;
                double dx = fabs((double)x - q->goal.x), dy = fabs((double)y - q->goal.y);
                double d = fmax(dx, dy) + (sqrt(2.0) - 1) * fmin(dx, dy);
                if (d < best - 1e-9) {
                    best = d;
                    end = (nb_cell){(int32_t)x, (int32_t)y};
                }
            }
    }
    double want_len = want == NB_PATH_START_BLOCKED ? 0 : dist[(size_t)end.y * w + (size_t)end.x];
    /* With costs the same cells are reached: the same end, at the least cost there. */
    double want_cost = want == NB_PATH_START_BLOCKED || !q->costs
                           ? want_len
                           : brute_cost_dijkstra(&legend, eg, a->capability, a->size, rule,
                                                 q->costs, q->start.x, q->start.y, end.x, end.y);
    t->queries++;
    t->found += want == NB_PATH_FOUND;
    t->partial += want == NB_PATH_PARTIAL;
    t->start_blocked += want == NB_PATH_START_BLOCKED;
    char why[160];
    nb_err err;
    /* Annotated A*. */
    nb_aa_query pq = *q;
    pq.partial = 1;
    nb_aa_result r;
    memset(&r, 0, sizeof r);
    if (nb_aa_find(aa, &pq, &r, &err) != NB_OK)
        bad(t, 1, NULL, err.msg, q);
    else if (r.status != want)
        bad(t, 1, "status", nb_path_status_str(r.status), q);
    else if (want != NB_PATH_START_BLOCKED &&
             (!hu_path_ok(&legend, eg, a->capability, a->size, rule, r.path, r.path_len, q->start,
                          end, r.length, why, sizeof why) ||
              !least(q, r.length, r.cost, want_len, want_cost, r.path, r.path_len, eg, a, why,
                     sizeof why)))
        bad(t, 1, "path", why, q);
    if (r.status == NB_PATH_PARTIAL) { /* in slices: find's path */
        size_t n = r.path_len;
        nb_cell *keep = malloc(n * sizeof *keep);
        memcpy(keep, r.path, n * sizeof *keep);
        int done = 0;
        nb_status st = nb_aa_begin(aa, &pq, &err);
        while (st == NB_OK && !done)
            st = nb_aa_step(aa, 1 + (uint64_t)(t->queries % 9), &done, &err);
        if (st == NB_OK)
            st = nb_aa_finish(aa, &r, &err);
        if ((st != NB_OK || r.status != NB_PATH_PARTIAL || r.path_len != n ||
             memcmp(r.path, keep, n * sizeof *keep) != 0) &&
            t->slices_bad++ < 3)
            diag("Annotated A* in slices: %s, %zu cells (find: %zu)",
                 nb_path_status_str(r.status), r.path_len, n);
        free(keep);
        /* Without partial: what 1.0 answers. */
        if (nb_aa_find(aa, q, &r, &err) != NB_OK ||
            (r.status != NB_PATH_NONE && r.status != NB_PATH_GOAL_BLOCKED) || r.path_len) {
            if (t->plain_bad++ < 3)
                diag("without partial: %s", nb_path_status_str(r.status));
        }
    }
    /* HAA*, straightened half the time. */
    nb_haa_query hq = tu_haa_query(&pq, t->queries % 2 ? NB_HAA_STRAIGHTEN : 0);
    nb_haa_result hr;
    if (nb_haa_find(haa, &hq, &hr, &err) != NB_OK)
        bad(t, 2, NULL, err.msg, q);
    else if (hr.status != want)
        bad(t, 2, "status", nb_path_status_str(hr.status), q);
    else if (want != NB_PATH_START_BLOCKED &&
             (!hu_path_ok(&legend, eg, a->capability, a->size, rule, hr.path, hr.path_len,
                          q->start, end, hr.length, why, sizeof why) ||
              !least(q, hr.length, hr.cost, -1, -1, hr.path, hr.path_len, eg, a, why, sizeof why)))
        bad(t, 2, "path", why, q);
    /* The optimal layer (baked for the strict rule). */
    if (q->corner != NB_CORNER_STRICT)
        return;
    nb_sg_query sq;
    nb_sg_query_init(&sq);
    sq.start = q->start;
    sq.goal = q->goal;
    sq.size = q->size;
    sq.capability = q->capability;
    sq.overlay = q->overlay;
    sq.costs = q->costs;
    sq.partial = 1;
    nb_sg_result sr;
    if (nb_sg_find(sg, &sq, &sr, &err) != NB_OK)
        bad(t, 3, NULL, err.msg, q);
    else if (sr.status != want)
        bad(t, 3, "status", nb_path_status_str(sr.status), q);
    else if (want != NB_PATH_START_BLOCKED &&
             (!hu_path_ok(&legend, eg, a->capability, a->size, rule, sr.path, sr.path_len,
                          q->start, end, sr.length, why, sizeof why) ||
              !least(q, sr.length, sr.cost, want_len, want_cost, sr.path, sr.path_len, eg, a, why,
                     sizeof why)))
        bad(t, 3, "path", why, q);
}

static void check_level(const char *name, const nbb_grid *grid, const nbi_agentset *agents,
                        int rounds, int nq, uint64_t seed)
{
    nb_bundle *b = hu_bake_all(tu_path(tu_tmpdir(), "partial.nbk"), &legend, agents, grid, 8);
    if (!ok(b != NULL, "%s: baked", name))
        return;
    nb_aa *aa = NULL;
    nb_haa *haa = NULL;
    nb_sg *sg = NULL;
    nb_err err;
    uint32_t w = grid->width, h = grid->height;
    size_t n = (size_t)w * h;
    if (!ok(nb_aa_open(b, &aa, &err) == NB_OK && nb_haa_open(b, &haa, &err) == NB_OK &&
                tu_sg_open(b, 0, &sg, &err) == NB_OK,
            "%s: workspaces", name)) {
        diag("%s", err.msg);
        goto out;
    }
    tu_rng r = {seed};
    tally t;
    memset(&t, 0, sizeof t);
    uint8_t *blk = malloc(n);
    double *dist = malloc(n * sizeof *dist);
    nbb_grid eg = {w, h, malloc(n)};
    for (int round = 0; round < rounds; round++) {
        nb_overlay *ov = NULL;
        memset(blk, 0, n);
        if (round > 0) { /* round 0: the bundle's own map */
            nb_overlay_open(b, &ov, NULL);
            random_overlay(&r, ov, blk, w, h);
        }
        for (size_t i = 0; i < n; i++)
            eg.cells[i] = blk[i] ? '@' : grid->cells[i];
        for (size_t ai = 0; ai < agents->count; ai++) {
            const nb_agent *a = &agents->agent[ai];
            for (int k = 0; k < nq; k++) {
                nb_aa_query q;
                nb_aa_query_init(&q);
                q.size = a->size;
                q.capability = a->capability;
                q.corner = k & 1 ? NB_CORNER_WEAK : NB_CORNER_STRICT;
                q.overlay = ov;
                q.costs = a->weighted ? a->cost : NULL;
                q.start = (nb_cell){(int32_t)tu_below(&r, w), (int32_t)tu_below(&r, h)};
                for (int tries = 0; tries < 30 && nb_can_stand(b, a->capability, a->size,
                                                               q.start.x, q.start.y) != 1;
                     tries++)
                    q.start = (nb_cell){(int32_t)tu_below(&r, w), (int32_t)tu_below(&r, h)};
                q.goal = (nb_cell){(int32_t)tu_below(&r, w), (int32_t)tu_below(&r, h)};
                brute_dijkstra(&legend, &eg, a->capability, a->size,
                               q.corner ? BRUTE_WEAK : BRUTE_STRICT, q.start.x, q.start.y, -1, -1,
                               NULL, dist);
                check_query(aa, haa, sg, &eg, a, &q, dist, &t);
            }
        }
        nb_overlay_close(ov);
    }
    ok(t.bad[1] == 0 && t.bad[2] == 0 && t.bad[3] == 0,
       "%s: %ld queries asking for partial paths (%ld found, %ld partial, %ld start blocked): "
       "every family ends at the brute force's nearest reachable cell, Annotated A* and the "
       "optimal layer by the least length",
       name, t.queries, t.found, t.partial, t.start_blocked);
    ok(t.slices_bad == 0 && t.plain_bad == 0,
       "%s: Annotated A*'s partial paths in slices are find's; without partial, no path", name);
    free(eg.cells);
    free(blk);
    free(dist);
out:
    nb_aa_close(aa);
    nb_haa_close(haa);
    nb_sg_close(sg);
    nb_bundle_close(b);
}

int main(void)
{
    nbi_legend_default(&legend);
    tu_rng r = {20261128};
    for (int lv = 0; lv < 4; lv++) {
        nbb_grid grid;
        nbi_agentset agents;
        uint32_t w = 24 + tu_below(&r, 24), h = 20 + tu_below(&r, 24);
        if (lv % 2)
            tu_random_grid(&r, w, h, 10 + tu_below(&r, 20), 2, &grid);
        else
            hu_rooms_grid(&r, w, h, 2, &grid);
        hu_random_agents(&r, 1 + tu_below(&r, 3), 2, 3, &agents);
        /* Each agent's twin with terrain costs (the graph's costs are baked for its profile). */
        for (size_t i = 0, n = agents.count; i < n; i++) {
            nb_agent *c = &agents.agent[agents.count++];
            *c = agents.agent[i];
            snprintf(c->name, sizeof c->name, "agent%zuw", i);
            c->weighted = 1;
            for (unsigned k = 0; k < NB_MAX_TERRAINS; k++)
                c->cost[k] = c->capability >> k & 1u ? 1.25 + 1.5 * k : 1;
        }
        char name[64];
        snprintf(name, sizeof name, "random level %d (%u x %u)", lv, w, h);
        check_level(name, &grid, &agents, 6, 40, tu_rand(&r));
        nbb_grid_free(&grid);
    }
    return done_testing();
}
