/* test_planner.c: the unit planner's workspace and its queries' limits
 * (lib/runtime/turning/plan.c, nodes.c, cells.c): memory that follows what
 * a query touches, not the map; the sliced form against the whole query;
 * expansion budgets and the node cap with their partial paths; Pinter's
 * window.  Every path is checked free by tests/support/unitmap.c's
 * sampling, and costs against find's or an independent Dijkstra's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "unitmap.h"

static nb_planner_query query(const nb_pose *s, long gx, long gy, nb_plan_method method)
{
    nb_planner_query q;
    nb_planner_query_init(&q);
    q.start = *s;
    q.goal.x = gx;
    q.goal.y = gy;
    q.method = method;
    return q;
}

static int same_path(const nb_planner_result *a, const nb_planner_result *b)
{
    if (a->status != b->status || a->segment_len != b->segment_len || a->waypoint_len != b->waypoint_len ||
        a->cost != b->cost || a->expanded != b->expanded || a->fallback != b->fallback)
        return 0;
    for (size_t i = 0; i < a->waypoint_len; i++)
        if (a->waypoints[i].x != b->waypoints[i].x || a->waypoints[i].y != b->waypoints[i].y ||
            a->waypoints[i].heading != b->waypoints[i].heading)
            return 0;
    return 1;
}

/* A copy of a result whose arrays outlive the planner's next query. */
struct kept {
    nb_planner_result r;
    nb_pose wp[4096];
};

static void keep(struct kept *k, const nb_planner_result *r)
{
    k->r = *r;
    size_t n = r->waypoint_len < 4096 ? r->waypoint_len : 4096;
    if (n)
        memcpy(k->wp, r->waypoints, n * sizeof *k->wp);
    k->r.waypoints = k->wp;
}

/* Sliced in steps of every size, each method: the same path as find. */
static void slices(tu_rng *rng)
{
    const char *path = tu_path(tu_tmpdir(), "slices.nbk");
    nb_unit u = {"s", 1.5, 0.9, 8, 24, 0, 1, 0};
    static const uint64_t sizes[] = {1, 7, 100, 1000};
    int n = 0, same = 0, free_ = 0, done = 0;
    for (int m = 0; m < 3; m++) {
        nbb_grid g;
        tu_random_grid(rng, 40, 40, 12, 1, &g);
        um_bundle_grid(path, &g, &u);
        nbb_grid_free(&g);
        nb_bundle *b;
        nb_planner *p;
        nb_err err;
        if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK || nb_planner_open(b, "s", &p, &err) != NB_OK)
            continue;
        for (int k = 0; k < 8; k++) {
            long sx, sy, gx, gy;
            um_free_cell(rng, p, 40, 40, &sx, &sy);
            um_free_cell(rng, p, 40, 40, &gx, &gy);
            nb_pose s = {sx + 0.5, sy + 0.5, tu_below(rng, 8) * M_PI / 4};
            if (k % 2) {
                s.x = sx + 0.3;
                s.heading = 1;
            }
            nb_planner_query q = query(&s, gx, gy, (nb_plan_method)(k % 4));
            if (k % 4 == 0)
                q.flags = NB_PLAN_SMOOTH;
            nb_planner_result whole, part;
            static struct kept w;
            if (nb_planner_find(p, &q, &whole, &err) != NB_OK)
                continue;
            keep(&w, &whole);
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                int fin = 0;
                uint64_t steps = 0;
                nb_status st = nb_planner_begin(p, &q, &err);
                while (st == NB_OK && !fin) {
                    st = nb_planner_step(p, sizes[z], &fin, &err);
                    steps++;
                }
                if (st == NB_OK)
                    st = nb_planner_finish(p, &part, &err);
                n++;
                done += st == NB_OK && steps >= (w.r.expanded + sizes[z] - 1) / sizes[z];
                if (st == NB_OK && same_path(&w.r, &part))
                    same++;
                else
                    diag("method %d, steps of %llu: %s", k % 4, (unsigned long long)sizes[z],
                         st == NB_OK ? "another path" : err.msg);
                char why[256];
                if (part.status != NB_PATH_FOUND ||
                    um_path_free(b, &u, &part, &s, gx, gy, why, sizeof why))
                    free_++;
                else
                    diag("sliced: %s", why);
            }
        }
        nb_planner_close(p);
        nb_bundle_close(b);
    }
    is_int(same, n, "a query run in slices of 1, 7, 100 and 1000 expansions finds find's path, "
                    "every method (%d runs)", n);
    is_int(done, n, "  in as many slices as its expansions need");
    is_int(free_, n, "  and the paths are free");
}

/* A random side x side level (pct % obstacles) with unit u, opened; 0
 * (reported) when it cannot be. */
static int random_level(tu_rng *rng, const char *name, long side, unsigned pct, const nb_unit *u,
                        nb_bundle **b, nb_planner **p)
{
    const char *path = tu_path(tu_tmpdir(), name);
    nbb_grid g;
    nb_err err;
    tu_random_grid(rng, (uint32_t)side, (uint32_t)side, pct, 1, &g);
    int baked = um_bundle_grid(path, &g, u);
    nbb_grid_free(&g);
    *p = NULL;
    if (baked && nb_bundle_open(path, 0, NULL, b, &err) == NB_OK) {
        if (nb_planner_open(*b, u->name, p, &err) == NB_OK)
            return 1;
        nb_bundle_close(*b);
    }
    ok(0, "a %ld x %ld level for unit %s: %s", side, side, u->name, baked ? err.msg : "not baked");
    return 0;
}

/* Budgets: max_expansions, the node cap, a finish before the end. */
static void budgets(tu_rng *rng)
{
    nb_unit u = {"b", 2.0, 1.0, 8, 24, 0, 1, 0};
    nb_bundle *b;
    nb_planner *p;
    nb_err err;
    if (!random_level(rng, "budget.nbk", 60, 10, &u, &b, &p))
        return;
    int limited = 0, partial_free = 0, toward = 0, queries = 0, capped = 0, early = 0, args = 0;
    int edge = 0, edge_less = 0, sliced_partial = 0, roomy = 0;
    for (int k = 0; k < 10; k++) {
        long sx, sy, gx, gy;
        um_free_cell(rng, p, 60, 60, &sx, &sy);
        do
            um_free_cell(rng, p, 60, 60, &gx, &gy);
        while (labs(gx - sx) + labs(gy - sy) < 30);
        nb_pose s = {sx + 0.5, sy + 0.5, 0};
        nb_planner_query q = query(&s, gx, gy, NB_PLAN_DIRECTIONAL);
        nb_planner_result full, r;
        if (nb_planner_find(p, &q, &full, &err) != NB_OK || full.status != NB_PATH_FOUND ||
            full.expanded < 20)
            continue;
        queries++;
        /* Kept: the planner's next query reuses its arrays. */
        static struct kept fk;
        keep(&fk, &full);
        q.max_expansions = full.expanded / 2;
        char why[256];
        if (nb_planner_find(p, &q, &r, &err) == NB_OK && r.status == NB_PATH_LIMIT &&
            r.expanded == q.max_expansions && r.reason)
            limited++;
        if (r.status == NB_PATH_LIMIT && um_path_free(b, &u, &r, &s, -1, -1, why, sizeof why))
            partial_free++;
        else
            diag("partial: %s", why);
        /* The best partial path ends at the expanded node nearest the goal
         * by the heuristic: no farther than the start by the grid's bound. */
        nb_pose end = r.waypoint_len ? r.waypoints[r.waypoint_len - 1] : s;
        if (hypot(end.x - gx - 0.5, end.y - gy - 0.5) <= hypot(s.x - gx - 0.5, s.y - gy - 0.5) + 1e-9)
            toward++;
        /* The budget's edge, find's own count the answer: exactly the
         * expansions find needed finds its path, one fewer does not. */
        q.max_expansions = fk.r.expanded;
        edge += nb_planner_find(p, &q, &r, &err) == NB_OK && same_path(&fk.r, &r);
        q.max_expansions = fk.r.expanded - 1;
        edge_less += nb_planner_find(p, &q, &r, &err) == NB_OK && r.status == NB_PATH_LIMIT &&
                     r.expanded == fk.r.expanded - 1;
        /* The budget's partial path is the one a sliced query stopped after
         * as many expansions gives. */
        static struct kept lk;
        q.max_expansions = fk.r.expanded / 3;
        if (nb_planner_find(p, &q, &r, &err) == NB_OK) {
            keep(&lk, &r);
            int fin = 0;
            q.max_expansions = 0;
            nb_status st = nb_planner_begin(p, &q, &err);
            for (uint64_t e = 0; st == NB_OK && e < fk.r.expanded / 3; e += 4)
                st = nb_planner_step(p, e + 4 <= fk.r.expanded / 3 ? 4 : fk.r.expanded / 3 - e,
                                     &fin, &err);
            if (st == NB_OK && !fin && nb_planner_finish(p, &r, &err) == NB_OK &&
                same_path(&lk.r, &r))
                sliced_partial++;
        }
        /* A cap the search never reaches changes nothing. */
        q.max_expansions = 0;
        nb_planner_set_max_nodes(p, 4000000);
        roomy += nb_planner_find(p, &q, &r, &err) == NB_OK && same_path(&fk.r, &r);
        nb_planner_set_max_nodes(p, 200);
        if (nb_planner_find(p, &q, &r, &err) == NB_OK && r.status == NB_PATH_LIMIT &&
            um_path_free(b, &u, &r, &s, -1, -1, why, sizeof why))
            capped++;
        nb_planner_set_max_nodes(p, 0);
        int fin;
        if (nb_planner_begin(p, &q, &err) == NB_OK && nb_planner_step(p, 5, &fin, &err) == NB_OK &&
            !fin && nb_planner_finish(p, &r, &err) == NB_OK && r.status == NB_PATH_LIMIT &&
            r.expanded == 5 && um_path_free(b, &u, &r, &s, -1, -1, why, sizeof why))
            early++;
        args += nb_planner_step(p, 5, &fin, &err) == NB_ERR_ARG &&
                nb_planner_finish(p, &r, &err) == NB_ERR_ARG;
    }
    ok(queries >= 5, "%d long queries", queries);
    is_int(limited, queries, "half the expansions find needs: NB_PATH_LIMIT after exactly that many");
    is_int(partial_free, queries, "  with a partial path from the start that is free");
    is_int(toward, queries, "  that ends no farther from the goal than it began");
    is_int(edge, queries, "a budget of exactly find's expansions: find's path");
    is_int(edge_less, queries, "  one fewer: NB_PATH_LIMIT after that many");
    is_int(sliced_partial, queries, "a third of the expansions: the partial path of a sliced query "
                                    "finished after as many");
    is_int(roomy, queries, "a cap of 4,000,000 nodes the search never reaches: find's path");
    is_int(capped, queries, "a cap of 200 nodes: NB_PATH_LIMIT and a free partial path");
    is_int(early, queries, "finish after a step of 5 expansions: NB_PATH_LIMIT, a free partial path");
    is_int(args, queries, "step and finish with no query begun: NB_ERR_ARG");
    nb_planner_close(p);
    nb_bundle_close(b);
}

/* Pinter's window: the path keeps to it; a window that cannot hold start
 * and goal is refused. */
static void windows(void)
{
    static const char *const rows[] = {
        "........................................",
        "........................................",
        "..@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@..",
        "..@..................................@..",
        "..@..................................@..",
        "..@..................................@..",
        "..@..................................@..",
        "..@..................................@..",
        "..@@@@@@@@@@@@@@@@@.@@@@@@@@@@@@@@@@@@..",
        "........................................",
        "........................................",
        "........................................",
        NULL};
    const char *path = tu_path(tu_tmpdir(), "window.nbk");
    nb_unit u = {"w", 1.0, 0.8, 8, 24, 0, 1, 0};
    nb_bundle *b;
    nb_planner *p;
    nb_err err;
    if (!ok(um_bundle(path, rows, &u) && nb_bundle_open(path, 0, NULL, &b, &err) == NB_OK &&
                nb_planner_open(b, "w", &p, &err) == NB_OK,
            "a walled room with one door"))
        return;
    nb_pose s = {19.5, 5.5, M_PI / 2};
    nb_planner_query q = query(&s, 19, 10, NB_PLAN_DIRECTIONAL);
    nb_planner_result r;
    ok(nb_planner_find(p, &q, &r, &err) == NB_OK && r.status == NB_PATH_FOUND,
       "out of the room through its door");
    q.start.x = 5.5;
    q.start.y = 5.5;
    q.goal.x = 5;
    nb_status st = nb_planner_find(p, &q, &r, &err);
    ok(st == NB_OK && r.status == NB_PATH_FOUND,
       "from the room's west end to the cell below, the long way round (%.1f cells)", r.length);
    double far = 0;
    for (size_t i = 0; i < r.segment_len; i++)
        far = fmax(far, r.segments[i].x);
    q.window = 12;
    ok(nb_planner_find(p, &q, &r, &err) == NB_OK && r.status == NB_PATH_NONE,
       "a window of 12 cells leaves the door out: no path (the first went to x = %.1f)", far);
    q.window = 40;
    ok(nb_planner_find(p, &q, &r, &err) == NB_OK && r.status == NB_PATH_FOUND,
       "a window of 40 holds the door again");
    q.window = 3;
    ok(nb_planner_find(p, &q, &r, &err) == NB_ERR_ARG, "a window smaller than start to goal: NB_ERR_ARG");
    like(err.msg, "does not hold the start and the goal", "  saying so");
    nb_planner_close(p);
    nb_bundle_close(b);
}

/* A big map: the planner costs what its queries touch.  The old planner
 * allocated about 200 bytes a cell here (840 MB). */
static void big_map(void)
{
    const char *path = tu_path(tu_tmpdir(), "big.nbk");
    nb_unit u = {"j", 2.0, 1.0, 8, 24, 0, 1, 0};
    nbb_grid g;
    g.width = g.height = 2048;
    g.cells = malloc((size_t)g.width * g.height);
    memset(g.cells, '.', (size_t)g.width * g.height);
    for (uint32_t y = 900; y < 1100; y++)
        g.cells[(size_t)y * g.width + 1000] = '@';
    int baked = um_bundle_grid(path, &g, &u);
    free(g.cells);
    nb_bundle *b;
    nb_planner *p;
    nb_err err;
    if (!ok(baked && nb_bundle_open(path, 0, NULL, &b, &err) == NB_OK &&
                nb_planner_open(b, "j", &p, &err) == NB_OK,
            "a 2048 x 2048 level"))
        return;
    size_t made = nb_planner_bytes(p);
    ok(made < 1024 * 1024, "a planner on it holds %zu bytes before its first query", made);
    nb_pose s = {960.5, 1000.5, 0};
    nb_planner_query q = query(&s, 1040, 1000, NB_PLAN_DIRECTIONAL);
    nb_planner_result r;
    char why[256];
    nb_status st = nb_planner_find(p, &q, &r, &err);
    ok(st == NB_OK && r.status == NB_PATH_FOUND &&
           um_path_free(b, &u, &r, &s, 1040, 1000, why, sizeof why),
       "around a wall 200 cells long: a free path of %.1f cells (%llu nodes expanded)", r.length,
       (unsigned long long)r.expanded);
    size_t after = nb_planner_bytes(p);
    ok(after < 16 * 1024 * 1024, "  the planner then holds %zu bytes (%.2f a cell of the map)", after,
       (double)after / (2048.0 * 2048.0));
    nb_planner_close(p);
    nb_bundle_close(b);
}

/* A query finished after every number of expansions short of its end,
 * each method: NB_OK, NB_PATH_LIMIT and a free partial path from the
 * start, whichever stage it stopped in (a smoothing pass stopped before
 * its first expansion read a node that did not exist: fuzz_queries,
 * corpus/queries/finding-planner-s48-partial). */
static void every_stop(tu_rng *rng)
{
    nb_unit u = {"e", 1.5, 0.9, 8, 24, 0, 1, 0};
    nb_bundle *b;
    nb_planner *p;
    nb_err err;
    if (!random_level(rng, "stops.nbk", 30, 10, &u, &b, &p))
        return;
    int stops = 0, good = 0;
    for (int k = 0; k < 8; k++) {
        long sx, sy, gx, gy;
        um_free_cell(rng, p, 30, 30, &sx, &sy);
        um_free_cell(rng, p, 30, 30, &gx, &gy);
        nb_pose s = {sx + 0.5, sy + 0.5, tu_below(rng, 8) * M_PI / 4};
        nb_planner_query q = query(&s, gx, gy, (nb_plan_method)(k % 4));
        nb_planner_result whole, r;
        if (nb_planner_find(p, &q, &whole, &err) != NB_OK)
            continue;
        uint64_t total = whole.expanded;
        for (uint64_t e = 0; e < total && e < 400; e++) {
            int fin = 0;
            char why[256] = "";
            nb_status st = nb_planner_begin(p, &q, &err);
            if (st == NB_OK && e)
                st = nb_planner_step(p, e, &fin, &err);
            if (st == NB_OK)
                st = nb_planner_finish(p, &r, &err);
            stops++;
            int fine = st == NB_OK && (fin || r.status == NB_PATH_LIMIT) &&
                       (r.waypoint_len == 0 ||
                        (r.waypoints[0].x == s.x && r.waypoints[0].y == s.y)) &&
                       (r.segment_len == 0 || um_path_free(b, &u, &r, &s, -1, -1, why, sizeof why));
            good += fine;
            if (!fine)
                diag("method %d stopped after %llu of %llu: %s", k % 4, (unsigned long long)e,
                     (unsigned long long)total, st != NB_OK ? err.msg : why);
        }
    }
    is_int(good, stops, "finished after every number of expansions, every method: NB_PATH_LIMIT "
                        "and a free partial path from the start (%d stops)", stops);
    nb_planner_close(p);
    nb_bundle_close(b);
}

int main(void)
{
    tu_rng rng = {0x51ce5ULL};
    slices(&rng);
    budgets(&rng);
    windows();
    big_map();
    every_stop(&rng);
    return done_testing();
}
