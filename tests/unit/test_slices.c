/* test_slices.c: budgets, slices and workspaces sized by the search
 * (navbake.h: budgets and slices), for Annotated A* and HAA*:
 *  - on the MovingAI maps of ../shared/maps: the paged search's length is
 *    the scenario's optimum, its path and expansions are those of the
 *    search on per-cell arrays the size of the map (the workspace before
 *    issue 16), and a query sliced in steps of 1,000 expansions, or of a
 *    random few, returns the unsliced path (make check runs every 80th
 *    line; make check-slices, NB_SLICES_EVERY=1, runs them all);
 *  - a budget of max_expansions, a node cap, or a query finished before
 *    its end gives NB_PATH_LIMIT and the best partial path: from the
 *    start, legal step by step, as short as a textbook Dijkstra says the
 *    way to its end is, and ending at a cell no further from the goal (in
 *    octile distance) than any other cell of the path;
 *  - HAA* sliced in steps of 1, 13 and 1000 expansions gives find's
 *    answer to the last field; its partial paths are valid for the agent;
 *  - the sliced form's misuse: step or finish with no query begun;
 *  - the abstract graph is checked once per bundle (nbi_section_checked);
 *  - a workspace on a 2048 x 2048 level holds far less than a byte per
 *    cell before and after a short query. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"
#include "bundle/bundle.h"
#include "clearance/aastar.h"
#include "haa_util.h"

static nbi_legend legend;

static enum brute_corner rule_of(nb_corner c) { return c == NB_CORNER_STRICT ? BRUTE_STRICT : BRUTE_WEAK; }

/* An AA* answer kept, since the workspace's path changes with its next query. */
typedef struct kept {
    nb_status st;
    nb_path_status status;
    double length;
    uint64_t expanded;
    size_t len;
    nb_cell *path;
} kept;

static void keep(kept *k, nb_status st, const nb_aa_result *r)
{
    k->st = st;
    k->status = r->status;
    k->length = r->length;
    k->expanded = r->expanded;
    k->len = r->path_len;
    k->path = realloc(k->path, (r->path_len ? r->path_len : 1) * sizeof *k->path);
    if (r->path_len)
        memcpy(k->path, r->path, r->path_len * sizeof *k->path);
}

static int same_kept(const kept *k, nb_status st, const nb_aa_result *r)
{
    return k->st == st && k->status == r->status && k->expanded == r->expanded &&
           fabs(k->length - r->length) < 1e-9 && tu_same_cells(k->path, k->len, r->path, r->path_len);
}

/* The query in slices of `step` expansions (0: a random few each time); the steps taken in
 * *steps. */
static nb_status aa_sliced(nb_aa *ws, const nb_aa_query *q, uint64_t step, tu_rng *r,
                           nb_aa_result *res, unsigned long *steps)
{
    nb_err err;
    nb_status st = nb_aa_begin(ws, q, &err);
    *steps = 0;
    int done = 0;
    while (st == NB_OK && !done) {
        st = nb_aa_step(ws, step ? step : 1 + tu_below(r, 97), &done, &err);
        ++*steps;
    }
    if (st == NB_OK)
        return nb_aa_finish(ws, res, &err);
    memset(res, 0, sizeof *res);
    return st;
}

/* A partial path (NB_PATH_LIMIT) checked against the definitions: it starts at the start,
 * every step is legal and its length is what it says; for AA* (aa), no cell of it is
 * nearer the goal than its end (every cell on the way to an expanded cell was expanded, and
 * the end is the expanded cell nearest the goal), and with aa == 2 its length is what a
 * textbook Dijkstra gives from the start to its end.  0 and a reason when not. */
static int partial_ok(const nbb_grid *g, const nb_aa_query *q, const nb_cell *p, size_t n,
                      double length, int aa, char *why, size_t whylen)
{
    if (n == 0) {
        snprintf(why, whylen, "no cells");
        return 0;
    }
    nb_cell end = p[n - 1];
    if (!hu_path_ok(&legend, g, q->capability, q->size, rule_of(q->corner), p, n, q->start, end,
                    length, why, whylen))
        return 0;
    if (!aa)
        return 1;
    double hend = nbi_octile_cells(end.x, end.y, q->goal.x, q->goal.y);
    for (size_t i = 0; i < n; i++)
        if (nbi_octile_cells(p[i].x, p[i].y, q->goal.x, q->goal.y) < hend - 1e-9) {
            snprintf(why, whylen, "cell %zu (%d,%d) is nearer the goal than the end (%d,%d)", i,
                     p[i].x, p[i].y, end.x, end.y);
            return 0;
        }
    if (aa == 2) {
        double d = brute_dijkstra(&legend, g, q->capability, q->size, rule_of(q->corner),
                                  q->start.x, q->start.y, end.x, end.y, NULL, NULL);
        if (fabs(d - length) > 1e-6) {
            snprintf(why, whylen, "length %.6f to (%d,%d), Dijkstra says %.6f", length, end.x,
                     end.y, d);
            return 0;
        }
    }
    return 1;
}

/* ---- AA* on the shared maps ---- */

typedef struct aa_tally {
    long queries, off_optimal, flat_differs, sliced_differs, random_differs, limit_bad,
        limit_checked;
} aa_tally;

/* Budgets on one query whose full search expanded e nodes: half of them, e - 1 and e; and the
 * same query finished after a slice of a third. */
static void aa_budgets(nb_aa *ws, const nbb_grid *g, nb_aa_query q, uint64_t e, aa_tally *t,
                       const char *where)
{
    nb_err err;
    nb_aa_result r;
    char why[256];
    uint64_t budgets[2] = {e / 2 ? e / 2 : 1, e - 1};
    for (int k = 0; k < 2; k++) {
        if (budgets[k] == 0)
            continue;
        q.max_expansions = budgets[k];
        t->limit_checked++;
        if (nb_aa_find(ws, &q, &r, &err) != NB_OK || r.status != NB_PATH_LIMIT ||
            r.expanded != budgets[k] ||
            !partial_ok(g, &q, r.path, r.path_len, r.length, k == 0 ? 2 : 1, why, sizeof why)) {
            if (t->limit_bad++ < 3)
                diag("%s: budget %llu of %llu: status %s, expanded %llu: %s", where,
                     (unsigned long long)budgets[k], (unsigned long long)e,
                     nb_path_status_str(r.status), (unsigned long long)r.expanded, why);
        }
    }
    q.max_expansions = e;
    t->limit_checked++;
    if (nb_aa_find(ws, &q, &r, &err) != NB_OK || r.status != NB_PATH_FOUND) {
        if (t->limit_bad++ < 3)
            diag("%s: a budget of exactly the search's %llu expansions: %s", where,
                 (unsigned long long)e, nb_path_status_str(r.status));
    }
    /* Finished before its end: the best partial path so far, the same as a budget gives. */
    q.max_expansions = 0;
    uint64_t third = e / 3 ? e / 3 : 1;
    int done = 0;
    t->limit_checked++;
    if (nb_aa_begin(ws, &q, &err) != NB_OK || nb_aa_step(ws, third, &done, &err) != NB_OK ||
        nb_aa_finish(ws, &r, &err) != NB_OK || done || r.status != NB_PATH_LIMIT ||
        r.expanded != third ||
        !partial_ok(g, &q, r.path, r.path_len, r.length, 1, why, sizeof why)) {
        if (t->limit_bad++ < 3)
            diag("%s: finished after %llu of %llu: %s, %s", where, (unsigned long long)third,
                 (unsigned long long)e, nb_path_status_str(r.status), why);
    }
}

static void aa_map(const char *mapfile, long every, tu_rng *rng, aa_tally *t)
{
    char scenfile[1024];
    snprintf(scenfile, sizeof scenfile, "%s.scen", mapfile);
    nbb_grid grid;
    nbi_agentset agents;
    nbb_scen scen = {NULL, 0};
    nb_err err;
    nb_bundle *b = NULL;
    nb_aa *ws = NULL;
    const char *name = strrchr(mapfile, '/') ? strrchr(mapfile, '/') + 1 : mapfile;
    const char *bpath = tu_path(tu_tmpdir(), "scen.nbk");
    if (nbb_map_read(mapfile, &legend, 1, &grid, &err) != NB_OK ||
        nbb_agents_default(&legend, &agents, &err) != NB_OK ||
        nbb_scen_read(scenfile, &scen, &err) != NB_OK ||
        tu_write_cleared(bpath, &legend, &agents, &grid, 0, &err) != NB_OK ||
        nb_bundle_open(bpath, 0, NULL, &b, &err) != NB_OK || nb_aa_open(b, &ws, &err) != NB_OK) {
        ok(0, "%s reads, bakes and opens: %s", name, err.msg);
        return;
    }
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.size = agents.agent[0].size;
    q.capability = agents.agent[0].capability;
    kept want = {0};
    long before_bad = t->off_optimal + t->flat_differs + t->sliced_differs + t->random_differs;
    for (size_t i = 0; i < scen.count; i++) {
        if (i % (size_t)every && i + 1 != scen.count)
            continue; /* a sample, and the file's last (longest) line */
        const nbb_scen_line *l = &scen.lines[i];
        char where[600];
        snprintf(where, sizeof where, "%s:%u", name, l->line);
        q.start = l->start;
        q.goal = l->goal;
        nb_aa_result r;
        t->queries++;
        nb_status st = nb_aa_find(ws, &q, &r, &err);
        keep(&want, st, &r);
        /* Within a unit of the last decimal the file gives (older files give fewer than 4), as
         * navbake scen allows. */
        double tol = l->decimals >= 4 ? 1e-4 : pow(10, -(double)l->decimals);
        if (st != NB_OK || r.status != NB_PATH_FOUND || fabs(r.length - l->optimal) > tol) {
            if (t->off_optimal++ < 3)
                diag("%s: %s, length %.6f, the file says %.6f", where,
                     st == NB_OK ? nb_path_status_str(r.status) : err.msg, r.length, l->optimal);
            continue;
        }
        /* The old workspace's answer: per-cell arrays the size of the map. */
        nbi_layer cl;
        if (nbi_clearance_layer(b, q.capability, &cl, &err) != NB_OK ||
            !nbi_aa_run_flat(ws, &cl, q.size, q.corner, q.start, &q.goal, &r) ||
            !same_kept(&want, NB_OK, &r)) {
            if (t->flat_differs++ < 3)
                diag("%s: the flat arrays' search differs: %zu cells, %llu expanded against %zu, "
                     "%llu",
                     where, r.path_len, (unsigned long long)r.expanded, want.len,
                     (unsigned long long)want.expanded);
        }
        unsigned long steps;
        st = aa_sliced(ws, &q, 1000, rng, &r, &steps);
        if (!same_kept(&want, st, &r) || steps != (unsigned long)((want.expanded + 999) / 1000)) {
            if (t->sliced_differs++ < 3)
                diag("%s: in steps of 1000: %zu cells, %llu expanded, %lu steps; find: %zu, %llu",
                     where, r.path_len, (unsigned long long)r.expanded, steps, want.len,
                     (unsigned long long)want.expanded);
        }
        if (t->queries % 4 == 0) {
            st = aa_sliced(ws, &q, 0, rng, &r, &steps);
            if (!same_kept(&want, st, &r)) {
                if (t->random_differs++ < 3)
                    diag("%s: in random steps: %zu cells, %llu expanded; find: %zu, %llu", where,
                         r.path_len, (unsigned long long)r.expanded, want.len,
                         (unsigned long long)want.expanded);
            }
        }
        /* Budgets, on maps small enough for the textbook Dijkstra to check them often. */
        if (want.expanded > 2 && (size_t)grid.width * grid.height <= 300000 && t->queries % 3 == 0)
            aa_budgets(ws, &grid, q, want.expanded, t, where);
    }
    long bad = t->off_optimal + t->flat_differs + t->sliced_differs + t->random_differs - before_bad;
    if (bad)
        diag("%s: %ld queries differ", name, bad);
    free(want.path);
    nb_aa_close(ws);
    nb_bundle_close(b);
    nbb_scen_free(&scen);
    nbb_grid_free(&grid);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void test_aa_maps(tu_rng *rng)
{
    const char *root = tu_shared("maps/SOURCES.md");
    if (!root) {
        skip(6, "../shared/maps absent (NB_SHARED): the benchmark maps are not run");
        return;
    }
    const char *env = getenv("NB_SLICES_EVERY");
    long every = env && atol(env) > 0 ? atol(env) : 200;
    char *list = NULL;
    size_t listlen = 0;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "ls %s/*/*.map > %s", tu_shared("maps"),
             tu_path(tu_tmpdir(), "maps.txt"));
    char *text = tu_system("%s", cmd) == 0 ? tu_read(tu_path(tu_tmpdir(), "maps.txt"), &listlen)
                                            : NULL;
    list = text;
    char *maps[64];
    size_t nmaps = 0;
    for (char *save = NULL, *l = list ? strtok_r(list, "\n", &save) : NULL; l && nmaps < 64;
         l = strtok_r(NULL, "\n", &save))
        maps[nmaps++] = l;
    qsort(maps, nmaps, sizeof *maps, by_name);
    aa_tally t = {0, 0, 0, 0, 0, 0, 0};
    for (size_t m = 0; m < nmaps; m++)
        aa_map(maps[m], every, rng, &t);
    free(text);
    diag("AA* on %zu shared maps: %ld queries (every %ldth line), %ld budgets checked", nmaps,
         t.queries, every, t.limit_checked);
    ok(nmaps >= 20 && t.queries >= 200, "the shared maps' scenarios ran (%zu maps)", nmaps);
    is_int(t.off_optimal, 0, "AA* (paged nodes): every length is the scenario's optimum");
    is_int(t.flat_differs, 0, "the same path and expansions as on per-cell arrays the map's size");
    is_int(t.sliced_differs, 0, "sliced in steps of 1000 expansions: find's path, in E/1000 steps rounded up");
    is_int(t.random_differs, 0, "sliced in random steps of 1 to 97: find's path");
    ok(t.limit_checked >= 100 && t.limit_bad == 0,
       "budgets: NB_PATH_LIMIT with the best partial path, nearest the goal and optimal to its "
       "end (%ld checked)",
       t.limit_checked);
}

/* ---- AA*: node cap, misuse, abandoning ---- */

static void test_aa_cap_and_misuse(tu_rng *rng)
{
    nbb_grid grid;
    nbi_agentset agents;
    nb_err err;
    tu_random_grid(rng, 200, 150, 25, 1, &grid);
    nbb_agents_default(&legend, &agents, &err);
    const char *path = tu_path(tu_tmpdir(), "cap.nbk");
    nb_bundle *b = NULL;
    nb_aa *ws = NULL;
    if (tu_write_cleared(path, &legend, &agents, &grid, 0, &err) != NB_OK ||
        nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK || nb_aa_open(b, &ws, &err) != NB_OK) {
        ok(0, "a random level bakes: %s", err.msg);
        nbb_grid_free(&grid);
        return;
    }
    nb_aa_result r;
    int done;
    is_int(nb_aa_step(ws, 10, &done, &err), NB_ERR_ARG, "step with no query begun: NB_ERR_ARG");
    like(err.msg, "no query begun", "named");
    is_int(nb_aa_finish(ws, &r, &err), NB_ERR_ARG, "finish with no query begun: NB_ERR_ARG");
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.capability = agents.agent[0].capability;
    q.corner = NB_CORNER_WEAK;
    int capped = 0, capped_bad = 0, abandoned_bad = 0, sliced_bad = 0, runs = 0;
    kept want = {0};
    char why[256];
    for (int k = 0; k < 60; k++) {
        do
            q.start = (nb_cell){(int32_t)tu_below(rng, 200), (int32_t)tu_below(rng, 150)};
        while (!brute_can_stand(&legend, &grid, q.capability, 1, q.start.x, q.start.y));
        do
            q.goal = (nb_cell){(int32_t)tu_below(rng, 200), (int32_t)tu_below(rng, 150)};
        while (!brute_can_stand(&legend, &grid, q.capability, 1, q.goal.x, q.goal.y));
        nb_aa_set_max_nodes(ws, 0);
        nb_status st = nb_aa_find(ws, &q, &r, &err);
        keep(&want, st, &r);
        if (st != NB_OK || r.status == NB_PATH_LIMIT)
            continue;
        runs++;
        /* A query begun and abandoned for another leaves nothing behind. */
        nb_aa_query other = q;
        other.goal = q.start;
        other.start = q.goal;
        unsigned long steps;
        if (nb_aa_begin(ws, &other, &err) != NB_OK || nb_aa_step(ws, 50, &done, &err) != NB_OK ||
            aa_sliced(ws, &q, 0, rng, &r, &steps) != NB_OK || !same_kept(&want, NB_OK, &r))
            abandoned_bad++;
        if (aa_sliced(ws, &q, 1, rng, &r, &steps) != NB_OK || !same_kept(&want, NB_OK, &r))
            sliced_bad++;
        /* A cap of a few nodes: the best partial path among what they allowed. */
        if (want.status != NB_PATH_FOUND || want.len < 20)
            continue;
        nb_aa_set_max_nodes(ws, 1 + tu_below(rng, 40));
        capped++;
        st = nb_aa_find(ws, &q, &r, &err);
        if (st != NB_OK || r.status != NB_PATH_LIMIT ||
            !partial_ok(&grid, &q, r.path, r.path_len, r.length, 1, why, sizeof why)) {
            if (capped_bad++ < 3)
                diag("cap: %s, %s", st == NB_OK ? nb_path_status_str(r.status) : err.msg, why);
        }
    }
    nb_aa_set_max_nodes(ws, 0);
    /* A step of 0 expansions, at the start and later, changes nothing. */
    int zero_bad = 0;
    if (want.status == NB_PATH_FOUND && want.expanded > 1) {
        nb_status st = nb_aa_begin(ws, &q, &err);
        int d0 = 1, d1 = 1;
        st = st == NB_OK ? nb_aa_step(ws, 0, &d0, &err) : st;
        st = st == NB_OK ? nb_aa_step(ws, 1, &done, &err) : st;
        st = st == NB_OK ? nb_aa_step(ws, 0, &d1, &err) : st;
        done = 0;
        while (st == NB_OK && !done)
            st = nb_aa_step(ws, 5, &done, &err);
        st = st == NB_OK ? nb_aa_finish(ws, &r, &err) : st;
        zero_bad = d0 || d1 || !same_kept(&want, st, &r);
    }
    ok(want.status == NB_PATH_FOUND && !zero_bad,
       "steps of 0 expansions: not done, and find's path after");
    ok(runs >= 30 && abandoned_bad == 0, "a query begun and abandoned for another: the other's "
                                         "answer is find's (%d)", runs);
    is_int(sliced_bad, 0, "sliced one expansion at a time: find's path");
    ok(capped >= 10 && capped_bad == 0,
       "a node cap: NB_PATH_LIMIT and an optimal partial path (%d queries)", capped);
    /* A cap of 0 nodes past the start: the start alone. */
    nb_aa_set_max_nodes(ws, 1);
    ok(nb_aa_find(ws, &q, &r, &err) == NB_OK && r.status == NB_PATH_LIMIT && r.path_len == 1 &&
           r.path[0].x == q.start.x && r.path[0].y == q.start.y,
       "a cap of one node: NB_PATH_LIMIT and the start alone");
    nb_aa_set_max_nodes(ws, 0);
    free(want.path);
    nb_aa_close(ws);
    nb_bundle_close(b);
    nbb_grid_free(&grid);
}

/* ---- HAA* ---- */

typedef struct haa_kept {
    nb_status st;
    nb_haa_result r;
    nb_cell *path;
} haa_kept;

static void haa_keep(haa_kept *k, nb_status st, const nb_haa_result *r)
{
    k->st = st;
    k->r = *r;
    k->path = realloc(k->path, (r->path_len ? r->path_len : 1) * sizeof *k->path);
    if (r->path_len)
        memcpy(k->path, r->path, r->path_len * sizeof *k->path);
}

static int haa_same(const haa_kept *k, nb_status st, const nb_haa_result *r)
{
    const nb_haa_result *w = &k->r;
    return k->st == st && w->status == r->status && w->expanded == r->expanded &&
           w->expanded_insert == r->expanded_insert && w->expanded_search == r->expanded_search &&
           w->expanded_refine == r->expanded_refine && w->abstract_len == r->abstract_len &&
           w->searched == r->searched && fabs(w->length - r->length) < 1e-9 &&
           fabs(w->cell_length - r->cell_length) < 1e-9 &&
           fabs(w->abstract_length - r->abstract_length) < 1e-9 &&
           tu_same_cells(k->path, w->path_len, r->path, r->path_len);
}

/* The query begun, stepped to its end and finished. */
static nb_status haa_sliced_on(nb_haa *ws, uint64_t step, nb_haa_result *res)
{
    nb_err err;
    int done = 0;
    nb_status st = NB_OK;
    while (st == NB_OK && !done)
        st = nb_haa_step(ws, step, &done, &err);
    if (st == NB_OK)
        return nb_haa_finish(ws, res, &err);
    memset(res, 0, sizeof *res);
    return st;
}

static nb_status haa_sliced(nb_haa *ws, const nb_aa_query *q, unsigned flags, uint64_t step,
                            nb_haa_result *res)
{
    nb_err err;
    nb_status st = tu_haa_begin(ws, q, flags, &err);
    if (st == NB_OK)
        return haa_sliced_on(ws, step, res);
    memset(res, 0, sizeof *res);
    return st;
}

typedef struct haa_tally {
    long queries, found, none, blocked, sliced_bad, limit, limit_bad, early_bad, capped, cap_bad;
} haa_tally;

static void haa_queries(nb_haa *ws, const nbb_grid *g, const nbi_agentset *agents, tu_rng *rng,
                        int count, haa_tally *t)
{
    nb_err err;
    haa_kept want = {0}, limited = {0};
    char why[256];
    for (int k = 0; k < count; k++) {
        const nb_agent *a = &agents->agent[tu_below(rng, (uint32_t)agents->count)];
        nb_aa_query q;
        nb_aa_query_init(&q);
        q.size = a->size;
        q.capability = a->capability;
        q.corner = tu_below(rng, 2) ? NB_CORNER_WEAK : NB_CORNER_STRICT;
        for (int e = 0; e < 2; e++) {
            nb_cell c;
            int tries = 0;
            do
                c = (nb_cell){(int32_t)tu_below(rng, g->width), (int32_t)tu_below(rng, g->height)};
            while (tries++ < 50 && !brute_can_stand(&legend, g, q.capability, q.size, c.x, c.y));
            if (e)
                q.goal = c;
            else
                q.start = c;
        }
        unsigned flags = tu_below(rng, 3) == 0 ? NB_HAA_STRAIGHTEN : 0;
        nb_haa_result r;
        nb_status st = tu_haa_find(ws, &q, flags, &r, &err);
        haa_keep(&want, st, &r);
        t->queries++;
        t->found += st == NB_OK && r.status == NB_PATH_FOUND;
        t->none += st == NB_OK && r.status == NB_PATH_NONE;
        t->blocked += st == NB_OK && (r.status == NB_PATH_START_BLOCKED || r.status == NB_PATH_GOAL_BLOCKED);
        if (st != NB_OK)
            diag("HAA*: %s", err.msg);
        static const uint64_t steps[3] = {1, 13, 1000};
        for (int s = 0; s < 3; s++) {
            if (s == 0 && k % 4)
                continue; /* one expansion at a time, on a quarter of them */
            nb_status ss = haa_sliced(ws, &q, flags, steps[s], &r);
            if (!haa_same(&want, ss, &r) && t->sliced_bad++ < 3)
                diag("HAA* in steps of %llu: %s, %zu cells, %llu expanded; find: %s, %zu, %llu",
                     (unsigned long long)steps[s], nb_path_status_str(r.status), r.path_len,
                     (unsigned long long)r.expanded, nb_path_status_str(want.r.status),
                     want.r.path_len, (unsigned long long)want.r.expanded);
        }
        if (st != NB_OK || want.r.status != NB_PATH_FOUND || want.r.expanded < 4)
            continue;
        /* A budget below what the query needs: NB_PATH_LIMIT, a valid partial path from the
         * start that has spent no more than its budget before its last cluster A*. */
        nb_aa_query lq = q;
        lq.max_expansions = 1 + tu_below(rng, (uint32_t)(want.r.expanded - 1));
        t->limit++;
        st = tu_haa_find(ws, &lq, 0, &r, &err);
        if (st != NB_OK || r.status != NB_PATH_LIMIT ||
            !partial_ok(g, &q, r.path, r.path_len, r.cell_length, 0, why, sizeof why)) {
            if (t->limit_bad++ < 3)
                diag("HAA* budget %llu of %llu: %s: %s", (unsigned long long)lq.max_expansions,
                     (unsigned long long)want.r.expanded,
                     st == NB_OK ? nb_path_status_str(r.status) : err.msg, why);
        }
        /* The same budget in slices: find's partial path to every field (find follows the
         * best partial path only when something may stop it, haa.c's ws->whole). */
        haa_keep(&limited, st, &r);
        if (!haa_same(&limited, haa_sliced(ws, &lq, 0, 13, &r), &r) && t->limit_bad++ < 3)
            diag("HAA* budget %llu in steps of 13: %s, %zu cells; find: %s, %zu cells",
                 (unsigned long long)lq.max_expansions, nb_path_status_str(r.status), r.path_len,
                 nb_path_status_str(limited.r.status), limited.r.path_len);
        /* The whole budget: the same answer as without. */
        lq.max_expansions = want.r.expanded;
        st = tu_haa_find(ws, &lq, flags, &r, &err);
        if (!haa_same(&want, st, &r) && t->limit_bad++ < 3)
            diag("HAA* with a budget of its own expansions: %s", nb_path_status_str(r.status));
        /* A cap of 3 abstract nodes (the start, the goal and one more): NB_PATH_LIMIT and a
         * valid partial path, unless the path needed no more. */
        nb_haa_set_max_nodes(ws, 3);
        st = tu_haa_find(ws, &q, 0, &r, &err);
        haa_keep(&limited, st, &r);
        if (!haa_same(&limited, haa_sliced(ws, &q, 0, 13, &r), &r) && t->cap_bad++ < 3)
            diag("HAA* capped at 3 nodes in steps of 13: not find's answer");
        r = limited.r;
        r.path = limited.path;
        nb_haa_set_max_nodes(ws, 0);
        if (st == NB_OK && r.status == NB_PATH_LIMIT) {
            t->capped++;
            if (!partial_ok(g, &q, r.path, r.path_len, r.cell_length, 0, why, sizeof why) &&
                t->cap_bad++ < 3)
                diag("HAA* capped: %s", why);
        } else if (st != NB_OK || r.status != NB_PATH_FOUND || r.abstract_len > 3) {
            if (t->cap_bad++ < 3)
                diag("HAA* capped at 3 nodes: %s, %zu abstract nodes",
                     st == NB_OK ? nb_path_status_str(r.status) : err.msg, r.abstract_len);
        }
        /* A step of 0 expansions at the start: not done (the first search has not run). */
        int done;
        if (tu_haa_begin(ws, &q, flags, &err) != NB_OK || nb_haa_step(ws, 0, &done, &err) != NB_OK ||
            done || haa_sliced_on(ws, 1000, &r) != NB_OK || !haa_same(&want, NB_OK, &r)) {
            if (t->early_bad++ < 3)
                diag("HAA*: a step of 0 at the start ended the query, or changed its answer");
        }
        /* Finished early: a partial path too. */
        if (tu_haa_begin(ws, &q, 0, &err) != NB_OK ||
            nb_haa_step(ws, want.r.expanded / 2, &done, &err) != NB_OK ||
            nb_haa_finish(ws, &r, &err) != NB_OK ||
            (!done && (r.status != NB_PATH_LIMIT ||
                       !partial_ok(g, &q, r.path, r.path_len, r.cell_length, 0, why, sizeof why)))) {
            if (t->early_bad++ < 3)
                diag("HAA* finished early: %s: %s", nb_path_status_str(r.status), why);
        }
    }
    free(want.path);
    free(limited.path);
}

static void test_haa(tu_rng *rng)
{
    haa_tally t = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int level = 0; level < 4; level++) {
        nbb_grid grid;
        nbi_agentset agents;
        const char *path = tu_path(tu_tmpdir(), "haa.nbk");
        nb_bundle *b = hu_random_level(rng, &legend, 90 + tu_below(rng, 60), 70 + tu_below(rng, 60),
                                       1 + tu_below(rng, 3), level == 3 ? 30 : 0, 3, 3, path,
                                       &grid, &agents);
        nb_err err;
        nb_haa *ws = NULL;
        if (!b || tu_add_abstract(&b, path, 6 + tu_below(rng, 10), &err) != NB_OK ||
            nb_haa_open(b, &ws, &err) != NB_OK) {
            ok(0, "a random level with its abstract graph: %s", err.msg);
            nb_bundle_close(b);
            nbb_grid_free(&grid);
            continue;
        }
        haa_queries(ws, &grid, &agents, rng, 200, &t);
        int done;
        nb_haa_result r;
        if (level == 0) {
            is_int(nb_haa_step(ws, 10, &done, &err), NB_ERR_ARG,
                   "HAA*: step with no query begun: NB_ERR_ARG");
            is_int(nb_haa_finish(ws, &r, &err), NB_ERR_ARG,
                   "HAA*: finish with no query begun: NB_ERR_ARG");
        }
        nb_haa_close(ws);
        nb_bundle_close(b);
        nbb_grid_free(&grid);
    }
    diag("HAA*: %ld queries, %ld found, %ld none, %ld blocked, %ld budgets", t.queries, t.found,
         t.none, t.blocked, t.limit);
    ok(t.found >= 200, "HAA* found paths (%ld of %ld)", t.found, t.queries);
    is_int(t.sliced_bad, 0, "HAA* sliced in steps of 1, 13 and 1000: find's answer, to every field");
    ok(t.limit >= 180 && t.limit_bad == 0,
       "HAA* budgets: NB_PATH_LIMIT and a valid partial path from the start, find's in slices "
       "too (%ld)", t.limit);
    is_int(t.early_bad, 0, "HAA* finished before its end: a valid partial path; a step of 0 "
                           "at the start: not done");
    ok(t.capped >= 50 && t.cap_bad == 0,
       "HAA* capped at 3 abstract nodes: NB_PATH_LIMIT and a valid partial path (%ld)", t.capped);
}

/* ---- checked once per bundle ---- */

static int calls;
static nb_status count_ok(const nb_bundle *b, size_t i, nb_err *err)
{
    (void)b;
    (void)i;
    __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
    return nbi_ok(err), NB_OK;
}
static nb_status count_bad(const nb_bundle *b, size_t i, nb_err *err)
{
    (void)b;
    __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
    return nbi_fail(err, NB_ERR_FORMAT, "section %zu is bad in a way only a whole check sees", i);
}

typedef struct job {
    const nb_bundle *b;
    nb_status st;
} job;
static void *check_job(void *arg)
{
    job *j = arg;
    nb_err err;
    j->st = nbi_section_checked(j->b, 0, count_bad, &err);
    return NULL;
}

static void test_checked_once(tu_rng *rng)
{
    nbb_grid grid;
    nbi_agentset agents;
    nb_err err;
    tu_random_grid(rng, 40, 30, 20, 1, &grid);
    nbb_agents_default(&legend, &agents, &err);
    const char *path = tu_path(tu_tmpdir(), "once.nbk");
    nb_bundle *b = NULL;
    if (tu_write_cleared(path, &legend, &agents, &grid, 0, &err) != NB_OK ||
        nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK || nb_bundle_section_count(b) < 2) {
        ok(0, "a level for the checks: %s", err.msg);
        nbb_grid_free(&grid);
        return;
    }
    calls = 0;
    int good = 1;
    for (int k = 0; k < 5; k++)
        good &= nbi_section_checked(b, 1, count_ok, &err) == NB_OK;
    ok(good && calls == 1, "a section's check runs once however often it is asked (%d)", calls);
    /* A failing check: its status and message kept, for every caller and thread. */
    calls = 0;
    nb_err e1, e2;
    nb_status s1 = nbi_section_checked(b, 0, count_bad, &e1);
    nb_status s2 = nbi_section_checked(b, 0, count_bad, &e2);
    ok(s1 == NB_ERR_FORMAT && s2 == NB_ERR_FORMAT && e2.code == NB_ERR_FORMAT &&
           strcmp(e1.msg, e2.msg) == 0 && calls == 1,
       "a failed check is failed again with its message, not run again");
    like(e2.msg, "section 0 is bad", "the message kept");
    job jobs[4];
    pthread_t th[4];
    for (int k = 0; k < 4; k++) {
        jobs[k] = (job){b, NB_OK};
        pthread_create(&th[k], NULL, check_job, &jobs[k]);
    }
    for (int k = 0; k < 4; k++)
        pthread_join(th[k], NULL);
    ok(jobs[0].st == NB_ERR_FORMAT && jobs[1].st == NB_ERR_FORMAT && jobs[2].st == NB_ERR_FORMAT &&
           jobs[3].st == NB_ERR_FORMAT && calls == 1,
       "four threads asking after it: the kept answer");
    nb_bundle_close(b);
    /* Four threads racing a fresh bundle's check: one answer for all, the check made at least
     * once and at most once per thread. */
    if (nb_bundle_open(path, 0, NULL, &b, &err) == NB_OK) {
        calls = 0;
        for (int k = 0; k < 4; k++) {
            jobs[k] = (job){b, NB_OK};
            pthread_create(&th[k], NULL, check_job, &jobs[k]);
        }
        for (int k = 0; k < 4; k++)
            pthread_join(th[k], NULL);
        ok(jobs[0].st == NB_ERR_FORMAT && jobs[1].st == NB_ERR_FORMAT &&
               jobs[2].st == NB_ERR_FORMAT && jobs[3].st == NB_ERR_FORMAT && calls >= 1 &&
               calls <= 4,
           "four threads racing the first check: the same answer (%d checks)", calls);
        nb_bundle_close(b);
    }
    nbb_grid_free(&grid);
}

/* ---- sized by the search ---- */

static void test_big_workspace(tu_rng *rng)
{
    const uint32_t side = 2048;
    nbb_grid grid;
    nbi_agentset agents;
    nb_err err;
    tu_random_grid(rng, side, side, 10, 1, &grid);
    nbb_agents_default(&legend, &agents, &err);
    const char *path = tu_path(tu_tmpdir(), "big.nbk");
    nb_bundle *b = NULL;
    nb_aa *ws = NULL;
    if (tu_write_cleared(path, &legend, &agents, &grid, 0, &err) != NB_OK ||
        nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK || nb_aa_open(b, &ws, &err) != NB_OK) {
        ok(0, "a 2048 x 2048 level: %s", err.msg);
        nbb_grid_free(&grid);
        return;
    }
    const size_t cells = (size_t)side * side;
    size_t fresh = nb_aa_bytes(ws);
    ok(fresh < cells / 8, "a new AA* workspace on 2048 x 2048 holds %zu bytes (%.3f a cell)", fresh,
       (double)fresh / (double)cells);
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.capability = agents.agent[0].capability;
    int found = 0, right = 0;
    for (int k = 0; k < 20; k++) {
        nb_cell s = {(int32_t)tu_below(rng, side - 40), (int32_t)tu_below(rng, side - 40)};
        q.start = s;
        q.goal = (nb_cell){s.x + 30, s.y + 25};
        if (!brute_can_stand(&legend, &grid, q.capability, 1, s.x, s.y) ||
            !brute_can_stand(&legend, &grid, q.capability, 1, q.goal.x, q.goal.y))
            continue;
        long win[4] = {s.x - 200 < 0 ? 0 : s.x - 200, s.y - 200 < 0 ? 0 : s.y - 200,
                       s.x + 240 > (long)side ? (long)side : s.x + 240,
                       s.y + 240 > (long)side ? (long)side : s.y + 240};
        nb_aa_result r;
        if (nb_aa_find(ws, &q, &r, &err) != NB_OK || r.status != NB_PATH_FOUND)
            continue;
        found++;
        double d = brute_dijkstra(&legend, &grid, q.capability, 1, BRUTE_STRICT, s.x, s.y,
                                  q.goal.x, q.goal.y, win, NULL);
        right += fabs(d - r.length) < 1e-6;
    }
    size_t after = nb_aa_bytes(ws);
    ok(found >= 10 && right == found, "short queries on it: optimal (%d of %d)", right, found);
    ok(after < cells / 8, "and after them it holds %zu bytes (%.3f a cell)", after,
       (double)after / (double)cells);
    nb_aa_close(ws);
    nb_bundle_close(b);
    nbb_grid_free(&grid);
}

/* ---- AA*: the count of reached nodes when memory runs out ---- */

/* An allocator that fails every call once armed. */
typedef struct {
    int armed;
} failing;
static void *fail_alloc(void *o, size_t n) { return ((failing *)o)->armed ? NULL : malloc(n); }
static void *fail_realloc(void *o, void *p, size_t n)
{
    return ((failing *)o)->armed ? NULL : realloc(p, n);
}
static void fail_free(void *o, void *p)
{
    (void)o;
    free(p);
}

/* The nodes a failed query's message says it reached, or -1 when it names none. */
static long long reached_of(const char *msg)
{
    const char *at = strrchr(msg, '(');
    char *end;
    long long n = at ? strtoll(at + 1, &end, 10) : -1;
    return at && end != at + 1 && strncmp(end, " reached)", 9) == 0 ? n : -1;
}

/* A find that runs out of memory for its nodes (the workspace's first pages filled, no more to
 * be had) names the nodes it reached: the find's loop, which does not count them, works the
 * count out from its stamps; the same query in steps of 100, whose loop counts each node as it
 * opens it, is the answer it must give. */
static void test_aa_nomem_count(tu_rng *rng)
{
    nbb_grid grid;
    nbi_agentset agents;
    nb_err err;
    tu_random_grid(rng, 600, 400, 0, 1, &grid); /* open ground: the search crosses every tile */
    nbb_agents_default(&legend, &agents, &err);
    const char *path = tu_path(tu_tmpdir(), "nomem.nbk");
    failing f = {0};
    nb_allocator a = {fail_alloc, fail_realloc, fail_free, &f};
    nb_bundle *b = NULL;
    if (tu_write_cleared(path, &legend, &agents, &grid, 0, &err) != NB_OK ||
        nb_bundle_open(path, 0, &a, &b, &err) != NB_OK) {
        ok(0, "an open level bakes: %s", err.msg);
        nbb_grid_free(&grid);
        return;
    }
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.capability = agents.agent[0].capability;
    q.size = 1;
    q.start = (nb_cell){0, 0};
    q.goal = (nb_cell){599, 399};
    long long n[2] = {-1, -1};
    nb_status st[2] = {NB_OK, NB_OK};
    for (int k = 0; k < 2; k++) {
        nb_aa *ws = NULL;
        f.armed = 0;
        if (nb_aa_open(b, &ws, &err) != NB_OK)
            break;
        f.armed = 1;
        nb_aa_result r;
        if (k == 0) {
            st[k] = nb_aa_find(ws, &q, &r, &err);
        } else if ((st[k] = nb_aa_begin(ws, &q, &err)) == NB_OK) {
            int done = 0;
            while (!done && (st[k] = nb_aa_step(ws, 100, &done, &err)) == NB_OK)
                ;
        }
        n[k] = st[k] == NB_ERR_NOMEM ? reached_of(err.msg) : -1;
        f.armed = 0;
        nb_aa_close(ws);
    }
    ok(st[0] == NB_ERR_NOMEM && st[1] == NB_ERR_NOMEM && n[0] > 1 && n[0] == n[1],
       "out of memory for nodes: the find names the nodes reached as the stepped query does "
       "(%lld, %lld)", n[0], n[1]);
    nb_bundle_close(b);
    nbb_grid_free(&grid);
}

int main(void)
{
    nbi_legend_default(&legend);
    tu_rng r = {16160016};
    const char *only = getenv("NB_SLICES_ONLY");
    if (!only || strstr(only, "cap"))
        test_aa_cap_and_misuse(&r);
    if (!only || strstr(only, "once"))
        test_checked_once(&r);
    if (!only || strstr(only, "haa"))
        test_haa(&r);
    if (!only || strstr(only, "big"))
        test_big_workspace(&r);
    if (!only || strstr(only, "maps"))
        test_aa_maps(&r);
    if (!only || strstr(only, "nomem"))
        test_aa_nomem_count(&r); /* last: the maps above keep the random numbers they had */
    return done_testing();
}
