/* test_aastar.c: Annotated A* against a textbook Dijkstra (tests/support/brute.c)
 * over the same moves, on random maps with 1 to 4 terrains, sizes 1 to 3
 * and several capabilities, under both corner rules:
 *  - the same length, or no path exactly when Dijkstra finds none;
 *  - no path exactly when the components say so, answered without search;
 *  - every returned path starts and ends right, takes only legal steps and
 *    is as long as it says;
 *  - blocked ends, and errors for bad queries;
 *  - the library-internal Dijkstra mode and window restriction (what HAA*
 *    builds on) against the same Dijkstra;
 *  - one workspace serves thousands of queries, and search ids that wrap;
 *  - layers of 3 and 4 bits a value (the row tables' widest, and the cell-by-cell reads). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clearance/aastar.h"
#include "brute.h"
#include "testutil.h"

static nbi_legend legend;

static nb_status bake(const char *path, const nbi_agentset *agents, const nbb_grid *grid,
                      nb_err *err)
{
    return tu_write_cleared(path, &legend, agents, grid, 0, err);
}

/* Checks a found path step by step; returns 1 when it is sound. */
static int path_ok(const nbb_grid *g, nb_capability cap, unsigned size, enum brute_corner rule,
                   const nb_aa_query *q, const nb_aa_result *r)
{
    if (r->path_len < 1 || r->path[0].x != q->start.x || r->path[0].y != q->start.y ||
        r->path[r->path_len - 1].x != q->goal.x || r->path[r->path_len - 1].y != q->goal.y)
        return 0;
    double len = 0;
    for (size_t i = 1; i < r->path_len; i++) {
        const nb_cell *a = &r->path[i - 1], *b = &r->path[i];
        if (!brute_step_ok(&legend, g, cap, size, rule, a->x, a->y, b->x, b->y))
            return 0;
        len += a->x != b->x && a->y != b->y ? sqrt(2.0) : 1.0;
    }
    return fabs(len - r->length) < 1e-9;
}

struct tally {
    int queries, found, none, by_components, bad_len, bad_path, bad_status, bad_comp;
};

static void run_queries(tu_rng *rng, nb_aa *ws, const nb_bundle *nb, const nbb_grid *g,
                        nb_capability cap, unsigned size, enum brute_corner rule, int count,
                        struct tally *t)
{
    nb_err err;
    for (int k = 0; k < count; k++) {
        nb_aa_query q = {{(int32_t)tu_below(rng, g->width), (int32_t)tu_below(rng, g->height)},
                         {(int32_t)tu_below(rng, g->width), (int32_t)tu_below(rng, g->height)},
                         size,
                         cap,
                         rule == BRUTE_STRICT ? NB_CORNER_STRICT : NB_CORNER_WEAK, 0, NULL, NULL, 0};
        /* Mostly standable ends: draw again a few times. */
        for (int tries = 0;
             tries < 20 && !brute_can_stand(&legend, g, cap, size, q.start.x, q.start.y); tries++)
            q.start.x = (int32_t)tu_below(rng, g->width),
            q.start.y = (int32_t)tu_below(rng, g->height);
        for (int tries = 0;
             tries < 20 && !brute_can_stand(&legend, g, cap, size, q.goal.x, q.goal.y); tries++)
            q.goal.x = (int32_t)tu_below(rng, g->width),
            q.goal.y = (int32_t)tu_below(rng, g->height);
        nb_aa_result r;
        t->queries++;
        if (nb_aa_find(ws, &q, &r, &err) != NB_OK) {
            t->bad_status++;
            diag("query failed: %s", err.msg);
            continue;
        }
        double want = brute_dijkstra(&legend, g, cap, size, rule, q.start.x, q.start.y, q.goal.x,
                                     q.goal.y, NULL, NULL);
        int s_ok = brute_can_stand(&legend, g, cap, size, q.start.x, q.start.y);
        int g_ok = brute_can_stand(&legend, g, cap, size, q.goal.x, q.goal.y);
        nb_path_status ws_ = !s_ok      ? NB_PATH_START_BLOCKED
                             : !g_ok    ? NB_PATH_GOAL_BLOCKED
                             : want < 0 ? NB_PATH_NONE
                                        : NB_PATH_FOUND;
        if (r.status != ws_) {
            t->bad_status++;
            if (t->bad_status < 4)
                diag("(%d,%d)->(%d,%d) size %u: %s, Dijkstra says %s", q.start.x, q.start.y,
                     q.goal.x, q.goal.y, size, nb_path_status_str(r.status),
                     nb_path_status_str(ws_));
            continue;
        }
        if (r.status == NB_PATH_FOUND) {
            t->found++;
            if (fabs(r.length - want) > 1e-9) {
                if (t->bad_len++ < 4)
                    diag("(%d,%d)->(%d,%d) size %u: length %.9f, Dijkstra %.9f", q.start.x,
                         q.start.y, q.goal.x, q.goal.y, size, r.length, want);
            }
            t->bad_path += !path_ok(g, cap, size, rule, &q, &r);
            t->bad_comp += nb_reachable(nb, cap, size, q.start, q.goal) != 1 || !r.searched;
        } else if (r.status == NB_PATH_NONE) {
            t->none++;
            /* Components decide it, without a search. */
            t->bad_comp +=
                nb_reachable(nb, cap, size, q.start, q.goal) != 0 || r.searched || r.expanded != 0;
            t->by_components += !r.searched;
        }
    }
}

static void test_random(tu_rng *rng)
{
    static const uint32_t shapes[][2] = {{1, 1}, {5, 7}, {30, 30}, {64, 48}, {97, 13}};
    static nbi_agentset agents;
    const char *path = tu_path(tu_tmpdir(), "aa.nbk");
    int k = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        for (unsigned nt = 1; nt <= 4; nt++, k++) {
            nbb_grid g;
            unsigned pct = 10u + (unsigned)(k % 4) * 10u;
            tu_random_grid(rng, shapes[sh][0], shapes[sh][1], pct, nt, &g);
            /* Sizes 1-3, several capabilities: all terrains, the first one,
             * and a random subset. */
            memset(&agents, 0, sizeof agents);
            nb_capability caps[3] = {(1u << nt) - 1, 1u, 1u + tu_below(rng, (1u << nt) - 1)};
            for (unsigned c = 0; c < 3; c++)
                for (unsigned s = 1; s <= 3; s++) {
                    nb_agent *a = &agents.agent[agents.count++];
                    snprintf(a->name, sizeof a->name, "c%us%u", c, s);
                    a->capability = caps[c];
                    a->size = s;
                }
            nb_err err;
            nb_bundle *nb = NULL;
            nb_aa *ws = NULL;
            nb_status st = bake(path, &agents, &g, &err);
            if (st == NB_OK)
                st = nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &nb, &err);
            if (st == NB_OK)
                st = nb_aa_open(nb, &ws, &err);
            if (!ok(st == NB_OK, "%ux%u, %u terrains: baked, workspace made", g.width, g.height,
                    nt)) {
                diag("%s", err.msg);
                nbb_grid_free(&g);
                continue;
            }
            for (int rule = 0; rule < 2; rule++) {
                struct tally t = {0};
                for (unsigned c = 0; c < 3; c++)
                    for (unsigned s = 1; s <= 3; s++)
                        run_queries(rng, ws, nb, &g, caps[c], s, (enum brute_corner)rule, 12, &t);
                ok(t.bad_status == 0 && t.bad_len == 0,
                   "%ux%u, %u terrains, %s corners: %d queries, %d found, %d none, all as "
                   "Dijkstra says",
                   g.width, g.height, nt, rule ? "weak" : "strict", t.queries, t.found, t.none);
                ok(t.bad_path == 0,
                   "%ux%u, %u terrains, %s corners: every path legal and as long "
                   "as it says",
                   g.width, g.height, nt, rule ? "weak" : "strict");
                ok(t.bad_comp == 0 && t.by_components == t.none,
                   "%ux%u, %u terrains, %s corners: no path exactly when components say so, "
                   "without a search",
                   g.width, g.height, nt, rule ? "weak" : "strict");
            }
            nb_aa_close(ws);
            nb_bundle_close(nb);
            nbb_grid_free(&g);
        }
}

/* Dijkstra mode and windows, on one map. */
static void test_internal(tu_rng *rng)
{
    static nbi_agentset agents;
    nbb_grid g;
    tu_random_grid(rng, 40, 30, 25, 2, &g);
    memset(&agents, 0, sizeof agents);
    agents.count = 2;
    strcpy(agents.agent[0].name, "a");
    agents.agent[0].size = 1;
    agents.agent[0].capability = 3;
    strcpy(agents.agent[1].name, "b");
    agents.agent[1].size = 2;
    agents.agent[1].capability = 3;
    const char *path = tu_path(tu_tmpdir(), "internal.nbk");
    nb_err err;
    nb_bundle *nb = NULL;
    nb_aa *ws = NULL;
    nbi_layer l;
    if (bake(path, &agents, &g, &err) != NB_OK || nb_bundle_open(path, 0, NULL, &nb, &err) != NB_OK ||
        nb_aa_open(nb, &ws, &err) != NB_OK || nbi_clearance_layer(nb, 3, &l, &err) != NB_OK) {
        ok(0, "internal: setup (%s)", err.msg);
        return;
    }
    size_t n = (size_t)g.width * g.height;
    double *dist = malloc(n * sizeof *dist);
    for (int k = 0; k < 12; k++) {
        unsigned size = 1 + (unsigned)(k % 2);
        enum brute_corner rule = (enum brute_corner)((k / 2) % 2);
        long win[4] = {0, 0, (long)g.width, (long)g.height};
        nb_cell s;
        int tries = 0;
        do { /* a window (as a cluster) with a standable start in it */
            if (k >= 4) {
                win[0] = tu_below(rng, g.width / 2);
                win[1] = tu_below(rng, g.height / 2);
                win[2] = win[0] + 3 + tu_below(rng, g.width / 2);
                win[3] = win[1] + 3 + tu_below(rng, g.height / 2);
            }
            s.x = (int32_t)(win[0] + tu_below(rng, (uint32_t)(win[2] - win[0])));
            s.y = (int32_t)(win[1] + tu_below(rng, (uint32_t)(win[3] - win[1])));
        } while (!brute_can_stand(&legend, &g, 3, size, s.x, s.y) && ++tries < 10000);
        nbi_window w = {(int32_t)win[0], (int32_t)win[1], (int32_t)win[2], (int32_t)win[3]};
        nb_aa_result r;
        nbi_aa_run(ws, &l, size, rule ? NB_CORNER_WEAK : NB_CORNER_STRICT, s, NULL, &w, NULL, &r);
        brute_dijkstra(&legend, &g, 3, size, rule, s.x, s.y, -1, -1, win, dist);
        size_t bad = 0, reached = 0;
        for (size_t i = 0; i < n; i++) {
            nb_cell c = {(int32_t)(i % g.width), (int32_t)(i / g.width)};
            double got = nbi_aa_cost(ws, c);
            reached += dist[i] >= 0;
            bad += (got < 0) != (dist[i] < 0) || (got >= 0 && fabs(got - dist[i]) > 1e-9);
        }
        ok(bad == 0 && r.status == NB_PATH_NONE && r.expanded == reached,
           "Dijkstra mode from (%d,%d), size %u, %s corners, window [%ld,%ld)x[%ld,%ld): %zu "
           "cells settled at Dijkstra's costs",
           s.x, s.y, size, rule ? "weak" : "strict", win[0], win[2], win[1], win[3], reached);
        /* And a goal inside the window: A* restricted to it. */
        nb_cell t;
        tries = 0;
        do {
            t.x = (int32_t)(win[0] + tu_below(rng, (uint32_t)(win[2] - win[0])));
            t.y = (int32_t)(win[1] + tu_below(rng, (uint32_t)(win[3] - win[1])));
        } while (dist[(size_t)t.y * g.width + (size_t)t.x] < 0 && ++tries < 200);
        nbi_aa_run(ws, &l, size, rule ? NB_CORNER_WEAK : NB_CORNER_STRICT, s, &t, &w, NULL, &r);
        double want = dist[(size_t)t.y * g.width + (size_t)t.x];
        ok(want < 0 ? r.status == NB_PATH_NONE
                    : r.status == NB_PATH_FOUND && fabs(r.length - want) < 1e-9,
           "windowed A* to (%d,%d): %s %.4f, Dijkstra %.4f", t.x, t.y, nb_path_status_str(r.status),
           r.length, want);
    }
    free(dist);
    nb_aa_close(ws);
    nb_bundle_close(nb);
    nbb_grid_free(&g);
}

/* Errors, blocked ends, and reuse. */
static void test_errors(void)
{
    static nbi_agentset agents;
    nb_err err;
    nb_bundle *nb = NULL;
    nb_aa *ws = NULL;
    nbb_grid g;
    const char *path = tu_path(tu_tmpdir(), "sample.nbk");
    if (nbb_read_level(NULL, tu_src("data/sample-agents.yaml"), tu_src("data/sample.map"), 1,
                       &legend, &agents, &g, &err) != NB_OK ||
        bake(path, &agents, &g, &err) != NB_OK || nb_bundle_open(path, 0, NULL, &nb, &err) != NB_OK ||
        nb_aa_open(nb, &ws, &err) != NB_OK) {
        ok(0, "sample: setup (%s)", err.msg);
        return;
    }
    nb_aa_result r;
    nb_aa_query q = {{1, 1}, {62, 38}, 1, 3, NB_CORNER_STRICT, 0, NULL, NULL, 0};
    q.start.x = 64;
    is_int(nb_aa_find(ws, &q, &r, &err), NB_ERR_OUTSIDE, "start outside the map: NB_ERR_OUTSIDE");
    like(err.msg, "start (64, 1) is off the 64 x 40 map", "named");
    q.start.x = 1;
    q.goal.y = -1;
    is_int(nb_aa_find(ws, &q, &r, &err), NB_ERR_OUTSIDE, "goal outside the map");
    like(err.msg, "goal (62, -1) is off", "named");
    q.goal.y = 38;
    q.size = 0;
    is_int(nb_aa_find(ws, &q, &r, &err), NB_ERR_ARG, "size 0");
    q.size = 4;
    is_int(nb_aa_find(ws, &q, &r, &err), NB_ERR_NOTFOUND, "size beyond the cap: not baked");
    like(err.msg, "size 4 is beyond the largest size (3)", "named");
    q.size = 1;
    q.capability = 4; /* water alone: no agent has it */
    is_int(nb_aa_find(ws, &q, &r, &err), NB_ERR_NOTFOUND, "no layer for the capability");
    like(err.msg, "no clearance layer for capability {water}", "named");
    q.capability = 3;
    q.start.x = q.start.y = 0; /* the border is wall */
    ok(nb_aa_find(ws, &q, &r, &err) == NB_OK && r.status == NB_PATH_START_BLOCKED &&
           r.path_len == 0,
       "a blocked start is a status, not an error");
    q.start = q.goal;
    q.goal.x = q.goal.y = 0;
    ok(nb_aa_find(ws, &q, &r, &err) == NB_OK && r.status == NB_PATH_GOAL_BLOCKED,
       "so is a blocked goal");
    /* Start equals goal. */
    q.goal = q.start;
    ok(nb_aa_find(ws, &q, &r, &err) == NB_OK && r.status == NB_PATH_FOUND && r.length == 0 &&
           r.path_len == 1,
       "start = goal: a path of one cell, length 0");
    /* Reuse: thousands of queries on one workspace, and search ids that
     * wrap around (every stamp is forgotten then). */
    tu_rng rr = {99};
    size_t bad = 0;
    for (int k = 0; k < 3000; k++) {
        if (k == 1500)
            nbi_aa_force_sid(ws, UINT32_MAX);
        nb_aa_query qq = {{(int32_t)tu_below(&rr, 64), (int32_t)tu_below(&rr, 40)},
                          {(int32_t)tu_below(&rr, 64), (int32_t)tu_below(&rr, 40)},
                          1 + tu_below(&rr, 3),
                          agents.agent[tu_below(&rr, (uint32_t)agents.count)].capability,
                          NB_CORNER_STRICT, 0, NULL, NULL, 0};
        if (k % 100 != 0 && k != 1500 && k != 1501)
            continue; /* Dijkstra is slow: check one query in a hundred, and those around the wrap
                       */
        if (nb_aa_find(ws, &qq, &r, &err) != NB_OK) {
            bad++;
            continue;
        }
        double w = brute_dijkstra(&legend, &g, qq.capability, qq.size, BRUTE_STRICT, qq.start.x,
                                  qq.start.y, qq.goal.x, qq.goal.y, NULL, NULL);
        bad += r.status == NB_PATH_FOUND ? fabs(r.length - w) > 1e-9 : w >= 0;
        /* The benchmark's variant on lib/runtime/core/heap.h answers the same. */
        nbi_layer l;
        nb_aa_result r2;
        if (r.status == NB_PATH_FOUND || r.status == NB_PATH_NONE) {
            bad += nbi_clearance_layer(nb, qq.capability, &l, &err) != NB_OK ||
                   !nbi_aa_run_generic_heap(ws, &l, qq.size, NB_CORNER_STRICT, qq.start, &qq.goal,
                                            &r2);
            bad +=
                (r2.status == NB_PATH_FOUND) != (w >= 0) || (w >= 0 && fabs(r2.length - w) > 1e-9);
        }
    }
    ok(bad == 0, "one workspace, many queries, search ids wrapping, either heap: the same answers");
    nb_aa_close(ws);
    nb_bundle_close(nb);
    nbb_grid_free(&g);
}

/* A size within the cap that no agent has: no component layer, the
 * search alone answers. */
static void test_unserved(void)
{
    static nbi_agentset agents;
    static const char yaml[] = "agents:\n"
                               "  - {name: a, size: 1, capability: [ground, swamp]}\n"
                               "  - {name: b, size: 3, capability: [ground, swamp]}\n";
    nb_err err;
    nb_bundle *nb = NULL;
    nb_aa *ws = NULL;
    nbb_grid g;
    const char *path = tu_path(tu_tmpdir(), "unserved.nbk");
    if (nbb_agents_parse(yaml, strlen(yaml), "agents", &legend, &agents, &err) != NB_OK ||
        nbb_map_read(tu_src("data/sample.map"), &legend, 1, &g, &err) != NB_OK ||
        bake(path, &agents, &g, &err) != NB_OK || nb_bundle_open(path, 0, NULL, &nb, &err) != NB_OK ||
        nb_aa_open(nb, &ws, &err) != NB_OK) {
        ok(0, "unserved: setup (%s)", err.msg);
        return;
    }
    nb_cell a = {2, 2};
    ok(nb_reachable(nb, 3, 2, a, a) == -1, "size 2 is not served: no component layer");
    tu_rng rr = {5};
    int bad = 0, found = 0, none = 0;
    for (int k = 0; k < 40; k++) {
        nb_aa_query q = {{(int32_t)tu_below(&rr, 64), (int32_t)tu_below(&rr, 40)},
                         {(int32_t)tu_below(&rr, 64), (int32_t)tu_below(&rr, 40)},
                         2,
                         3,
                         NB_CORNER_STRICT, 0, NULL, NULL, 0};
        nb_aa_result r;
        if (nb_aa_find(ws, &q, &r, &err) != NB_OK) {
            bad++;
            continue;
        }
        double w = brute_dijkstra(&legend, &g, 3, 2, BRUTE_STRICT, q.start.x, q.start.y, q.goal.x,
                                  q.goal.y, NULL, NULL);
        found += r.status == NB_PATH_FOUND;
        none += r.status == NB_PATH_NONE;
        bad += r.status == NB_PATH_FOUND ? fabs(r.length - w) > 1e-9 : w >= 0;
        bad += r.status == NB_PATH_NONE && !r.searched;
    }
    ok(bad == 0, "40 queries at size 2: %d found, %d by exhausting the search, as Dijkstra", found,
       none);
    nb_aa_close(ws);
    nb_bundle_close(nb);
    nbb_grid_free(&g);
}

/* Layers of 3 and 4 bits a value (agents up to sizes 7 and 9 in the bundle): the search reads a
 * narrow layer's rows of three cells with one load and a table (aastar.c, moves()), and a wider
 * one cell by cell; both against Dijkstra, under both corner rules, on open maps (few blocked
 * cells, so that the values run high) whose edges the windows' tests above leave out. */
static void test_wide_values(tu_rng *rng)
{
    static nbi_agentset agents;
    static const unsigned biggest[2] = {7, 9}, want_bits[2] = {3, 4};
    const char *path = tu_path(tu_tmpdir(), "aa-wide.nbk");
    for (int w = 0; w < 2; w++)
        for (unsigned pct = 2; pct <= 8; pct += 6) {
            nbb_grid g;
            tu_random_grid(rng, 61, 47, pct, 2, &g);
            memset(&agents, 0, sizeof agents);
            const unsigned sizes[4] = {1, 2, 4, biggest[w]};
            for (unsigned k = 0; k < 4; k++) {
                nb_agent *a = &agents.agent[agents.count++];
                snprintf(a->name, sizeof a->name, "s%u", sizes[k]);
                a->capability = 3;
                a->size = sizes[k];
            }
            nb_err err;
            nb_bundle *nb = NULL;
            nb_aa *ws = NULL;
            nbi_layer l;
            nb_status st = bake(path, &agents, &g, &err);
            if (st == NB_OK)
                st = nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &nb, &err);
            if (st == NB_OK)
                st = nbi_agent_layer(nb, "test", 3, 1, &l, &err);
            if (st == NB_OK)
                st = nb_aa_open(nb, &ws, &err);
            if (!ok(st == NB_OK && l.bits == want_bits[w],
                    "agents up to size %u, %u%% blocked: baked, %u bits a value", biggest[w], pct,
                    st == NB_OK ? (unsigned)l.bits : 0)) {
                diag("%s", st == NB_OK ? "unexpected bits" : err.msg);
                nb_aa_close(ws);
                nb_bundle_close(nb);
                nbb_grid_free(&g);
                continue;
            }
            for (int rule = 0; rule < 2; rule++) {
                struct tally t = {0};
                for (unsigned k = 0; k < 4; k++)
                    run_queries(rng, ws, nb, &g, 3, sizes[k], (enum brute_corner)rule, 25, &t);
                ok(t.bad_status == 0 && t.bad_len == 0 && t.bad_path == 0 && t.found > 0,
                   "agents up to size %u, %u%% blocked, %s corners: %d queries, %d found, %d none, "
                   "all as Dijkstra says, every path legal",
                   biggest[w], pct, rule ? "weak" : "strict", t.queries, t.found, t.none);
            }
            nb_aa_close(ws);
            nb_bundle_close(nb);
            nbb_grid_free(&g);
        }
}

int main(void)
{
    tu_rng rng = {0xa57a12ULL};
    nbi_legend_default(&legend);
    test_random(&rng);
    test_wide_values(&rng);
    test_internal(&rng);
    test_errors();
    test_unserved();
    return done_testing();
}
