/* test_haa.c: HAA* queries against independent answers.
 *
 *  - Completeness: on random maps (rooms and open ground, uniform noise,
 *    several terrains) with random agent sets, for initial, high- and
 *    low-quality graphs of several cluster sizes, placements and corner
 *    rules, with and without stored paths, HAA* finds a path exactly when
 *    a plain Dijkstra does, for every agent of the set; on every other map
 *    with the abstract search's storage in pages, as on a large graph, and
 *    on the others flat, as on a small one.
 *  - Every path found is valid for the agent cell by cell, runs from
 *    start to goal, is as long as reported and no shorter than the
 *    Dijkstra's, also when straightened; smoothed paths are checked by
 *    sliding the agent's square along each segment.
 *  - Start and goal in one cluster, start == goal, blocked ends, no path.
 *  - A reused workspace answers as a fresh one; threads querying one
 *    bundle, each with its own workspace, answer as one thread does.
 *  - Bad queries get clear errors.
 *  - A sample of the paper's own query set (../shared/haa-bg): every
 *    query, with sizes 1 and 2, is solved by HAA* as by the Dijkstra.
 *  - A graph with stored paths opened on another map's bundle (walls added
 *    where its paths run): every query is refused as a damaged graph or
 *    answered with a path valid on the bundle's map, cell by cell. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abstract/haa_ws.h"
#include "haa_util.h"

static nbi_legend legend;

typedef struct tally {
    long queries, found, none, bad, shorter, mismatch;
} tally;

/* One query on every workspace of ws[0..nws) against the Dijkstra. */
static void check_query(nb_haa **ws, size_t nws, const char *const *names, const nbb_grid *g,
                        const nb_agent *a, nb_corner corner, nb_cell s, nb_cell t, unsigned flags,
                        int graph_weak, tally *tl)
{
    enum brute_corner rule = corner == NB_CORNER_STRICT ? BRUTE_STRICT : BRUTE_WEAK;
    double opt = brute_dijkstra(&legend, g, a->capability, a->size, rule, s.x, s.y, t.x, t.y, NULL,
                                NULL);
    nb_aa_query q = {s, t, a->size, a->capability, corner, 0, NULL, NULL, 0};
    for (size_t k = 0; k < nws; k++) {
        nb_haa_result res;
        nb_err err;
        tl->queries++;
        if (tu_haa_find(ws[k], &q, flags, &res, &err) != NB_OK) {
            if (tl->bad++ < 5)
                diag("%s: query failed: %s", names[k], err.msg);
            continue;
        }
        int found = res.status == NB_PATH_FOUND;
        if (found != (opt >= 0)) {
            if (tl->mismatch++ < 5)
                diag("%s: %s (%d,%d)->(%d,%d) size %u cap %#x: HAA* says %d, Dijkstra %.3f",
                     names[k], a->name, s.x, s.y, t.x, t.y, a->size, a->capability, res.status,
                     opt);
            continue;
        }
        if (!found) {
            tl->none++;
            int want = !brute_can_stand(&legend, g, a->capability, a->size, s.x, s.y)
                           ? NB_PATH_START_BLOCKED
                           : !brute_can_stand(&legend, g, a->capability, a->size, t.x, t.y)
                                 ? NB_PATH_GOAL_BLOCKED
                                 : NB_PATH_NONE;
            if ((int)res.status != want && tl->bad++ < 5)
                diag("%s: status %d, expected %d", names[k], res.status, want);
            continue;
        }
        tl->found++;
        char why[160];
        int ok = (flags & NB_HAA_SMOOTH)
                     ? hu_polyline_ok(&legend, g, a->capability, a->size, rule, res.path,
                                      res.path_len, s, t, res.length, why, sizeof why) &&
                           res.length <= res.cell_length + 1e-9
                     : hu_path_ok(&legend, g, a->capability, a->size, rule, res.path, res.path_len,
                                  s, t, res.length, why, sizeof why);
        if (!ok) {
            if (tl->bad++ < 5)
                diag("%s: (%d,%d)->(%d,%d) size %u: bad path: %s", names[k], s.x, s.y, t.x, t.y,
                     a->size, why);
            continue;
        }
        /* A smoothed path may beat the grid's optimum; a cell path never. */
        double floor_len = (flags & NB_HAA_SMOOTH)
                               ? sqrt((double)(t.x - s.x) * (t.x - s.x) + (double)(t.y - s.y) * (t.y - s.y))
                               : opt;
        /* Refinement never lengthens an abstract edge, unless the edges'
         * costs followed the weak rule and the query the strict one. */
        int refine_ok = (graph_weak && corner == NB_CORNER_STRICT) ||
                        res.abstract_length >= res.cell_length - 1e-9;
        if (res.length < floor_len - 1e-9 || res.cell_length < opt - 1e-9 || !refine_ok) {
            if (tl->shorter++ < 5)
                diag("%s: length %.6f (cells %.6f, abstract %.6f) against the optimum %.6f",
                     names[k], res.length, res.cell_length, res.abstract_length, opt);
        }
        if (res.expanded != res.expanded_insert + res.expanded_search + res.expanded_refine &&
            tl->bad++ < 5)
            diag("%s: effort counts do not add up", names[k]);
    }
}

static nb_cell random_cell(tu_rng *r, const nbb_grid *g)
{
    nb_cell c = {(int32_t)tu_below(r, g->width), (int32_t)tu_below(r, g->height)};
    return c;
}

/* A random cell where agent a may stand, or any cell after some tries. */
static nb_cell standable_cell(tu_rng *r, const nbb_grid *g, const nb_agent *a)
{
    nb_cell c = random_cell(r, g);
    for (int k = 0; k < 50 && !brute_can_stand(&legend, g, a->capability, a->size, c.x, c.y); k++)
        c = random_cell(r, g);
    return c;
}

static void test_completeness(tu_rng *r)
{
    tally tl = {0, 0, 0, 0, 0, 0};
    const char *dir = tu_tmpdir();
    unsigned nmaps = 28, reuse_bad = 0;
    for (unsigned m = 0; m < nmaps; m++) {
        uint32_t w = 12 + tu_below(r, 30), h = 12 + tu_below(r, 30);
        unsigned nt = 1 + tu_below(r, 4);
        nbb_grid grid;
        nbi_agentset agents;
        nb_bundle *b = hu_random_level(r, &legend, w, h, nt, m % 3 == 2 ? 8 + tu_below(r, 25) : 0, 4,
                                       1 + tu_below(r, 3), tu_path(dir, "c.nbk"), &grid, &agents);
        if (!b) {
            ok(0, "map %u bakes", m);
            nbb_grid_free(&grid);
            continue;
        }
        /* Three graphs of one configuration each: initial, high, low. */
        nbb_abstract_opts o;
        nbb_abstract_defaults(&o);
        o.cluster = 2 + tu_below(r, 8);
        o.placement = tu_below(r, 4);
        o.spread = 1 + tu_below(r, 6);
        o.corner = tu_below(r, 2);
        o.paths = (int)tu_below(r, 2);
        nb_haa *ws[3] = {NULL, NULL, NULL};
        uint8_t *pl[3] = {NULL, NULL, NULL};
        static const char *const names[3] = {"initial", "high", "low"};
        int built = 1;
        for (int q = 0; q < 3; q++) {
            o.quality = (uint32_t)q;
            nbi_agraph g;
            nb_err err;
            if (hu_graph(b, &o, &pl[q], &g, &err) != NB_OK ||
                nbi_haa_new_graph(b, &g, 0, &ws[q], &err) != NB_OK) {
                diag("map %u: %s", m, err.msg);
                built = 0;
            } else if (m % 2) {
                /* These graphs are small enough for the abstract search's storage to be flat
                 * (nbi_pool_flat): every other map's searches keep it paged, so both run. */
                ws[q]->as.pool.no_flat = 1;
            }
        }
        if (!ok(built, "map %u (%ux%u, %u terrains, %zu agents, clusters of %u, %s placement, "
                       "%s corners%s): graphs built",
                m, w, h, nt, agents.count, o.cluster, nbi_placement_name(o.placement),
                o.corner ? "weak" : "strict", o.paths ? ", paths" : "")) {
            for (int q = 0; q < 3; q++) {
                nb_haa_close(ws[q]);
                free(pl[q]);
            }
            nb_bundle_close(b);
            nbb_grid_free(&grid);
            continue;
        }
        for (unsigned k = 0; k < 24; k++) {
            const nb_agent *a = &agents.agent[tu_below(r, (uint32_t)agents.count)];
            nb_corner corner = tu_below(r, 2) ? NB_CORNER_STRICT : NB_CORNER_WEAK;
            nb_cell s = k % 4 == 0 ? random_cell(r, &grid) : standable_cell(r, &grid, a);
            nb_cell t = standable_cell(r, &grid, a);
            if (k % 3 == 1) { /* often in the start's cluster */
                t.x = s.x - (s.x % (int32_t)o.cluster) + (int32_t)tu_below(r, o.cluster);
                t.y = s.y - (s.y % (int32_t)o.cluster) + (int32_t)tu_below(r, o.cluster);
                if (t.x >= (int32_t)w)
                    t.x = (int32_t)w - 1;
                if (t.y >= (int32_t)h)
                    t.y = (int32_t)h - 1;
            }
            if (k == 5)
                t = s;
            check_query(ws, 3, names, &grid, a, corner, s, t,
                        k % 5 == 4 ? NB_HAA_SMOOTH : k % 5 == 3 ? NB_HAA_STRAIGHTEN : 0,
                        o.corner == NBI_CORNER_WEAK, &tl);
        }
        /* A fresh workspace answers the last query as the reused one did. */
        {
            nb_haa *fresh = NULL;
            nbi_agraph g;
            nb_err err;
            size_t len = 0;
            o.quality = NBI_QUALITY_HIGH;
            uint8_t *p2 = NULL;
            if (nbb_abstract_build(b, &o, &p2, &len, NULL, &err) == NB_OK &&
                nbi_agraph_view(p2, len, w, h, &g, &err) == NB_OK &&
                nbi_haa_new_graph(b, &g, len, &fresh, &err) == NB_OK) {
                const nb_agent *a = &agents.agent[0];
                for (int k = 0; k < 8; k++) {
                    nb_cell s = standable_cell(r, &grid, a), t = standable_cell(r, &grid, a);
                    nb_aa_query q = {s, t, a->size, a->capability, NB_CORNER_STRICT, 0, NULL, NULL, 0};
                    nb_haa_result r1, r2;
                    tu_haa_find(ws[1], &q, 0, &r1, NULL);
                    tu_haa_find(fresh, &q, 0, &r2, NULL);
                    reuse_bad += r1.status != r2.status || r1.path_len != r2.path_len ||
                                 r1.length != r2.length || r1.expanded != r2.expanded ||
                                 (r1.path_len &&
                                  memcmp(r1.path, r2.path, r1.path_len * sizeof *r1.path) != 0);
                }
            } else {
                reuse_bad++;
            }
            nb_haa_close(fresh);
            free(p2);
        }
        for (int q = 0; q < 3; q++) {
            nb_haa_close(ws[q]);
            free(pl[q]);
        }
        nb_bundle_close(b);
        nbb_grid_free(&grid);
    }
    diag("%ld queries: %ld paths, %ld without", tl.queries, tl.found, tl.none);
    is_int(tl.mismatch, 0, "HAA* finds a path exactly when the Dijkstra does (completeness)");
    is_int(tl.bad, 0, "every path is valid for its agent, cell by cell, with the length reported");
    is_int(tl.shorter, 0, "no path is shorter than the optimum");
    ok(tl.found > tl.queries / 3 && tl.none > 20, "the queries mix paths and no paths");
    is_int(reuse_bad, 0, "a reused workspace answers as a fresh one, path for path");
}

/* The small hand-made level of the errors and edge cases. */
static const char *const tiny_map = "type octile\nheight 6\nwidth 8\nmap\n"
                                    "........\n"
                                    "...@....\n"
                                    "...@.TT.\n"
                                    "...@.TT.\n"
                                    "...@....\n"
                                    "...@....\n";

static void test_edges(void)
{
    nbb_grid grid;
    nb_err err;
    if (!ok(nbb_map_parse(tiny_map, strlen(tiny_map), "tiny", &legend, 1, &grid, &err) == NB_OK,
            "the tiny map parses"))
        return;
    nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    agents.count = 2;
    agents.agent[0] = (nb_agent){"small", 1, 1u << 0, 0, {0}};
    agents.agent[1] = (nb_agent){"big", 2, (1u << 0) | (1u << 3), 0, {0}};
    nb_bundle *b = hu_bake(tu_path(tu_tmpdir(), "tiny.nbk"), &legend, &agents, &grid);
    uint8_t *pl = NULL;
    nbi_agraph g;
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    o.cluster = 4;
    nb_haa *ws = NULL;
    if (!ok(b && hu_graph(b, &o, &pl, &g, &err) == NB_OK &&
                nbi_haa_new_graph(b, &g, 0, &ws, &err) == NB_OK,
            "a graph of the tiny level")) {
        nb_bundle_close(b);
        free(pl);
        nbb_grid_free(&grid);
        return;
    }
    nb_haa_result res;
    nb_aa_query q = {{0, 0}, {7, 5}, 1, 1u, NB_CORNER_STRICT, 0, NULL, NULL, 0};
    ok(tu_haa_find(ws, &q, 0, &res, &err) == NB_OK && res.status == NB_PATH_FOUND,
       "a path around the wall");
    is_int(res.searched, 1, "found by a search");
    ok(res.expanded_insert > 0 && res.expanded_search > 0, "with insertion and search effort");
    q.goal = (nb_cell){1, 1};
    ok(tu_haa_find(ws, &q, 0, &res, &err) == NB_OK && res.status == NB_PATH_FOUND &&
           fabs(res.length - sqrt(2.0)) < 1e-12,
       "start and goal in one cluster: one diagonal step");
    q.goal = q.start;
    ok(tu_haa_find(ws, &q, 0, &res, &err) == NB_OK && res.status == NB_PATH_FOUND &&
           res.path_len == 1 && res.length == 0,
       "start == goal: a path of one cell");
    q.goal = (nb_cell){5, 2};
    ok(tu_haa_find(ws, &q, 0, &res, &err) == NB_OK && res.status == NB_PATH_GOAL_BLOCKED,
       "a goal in the trees is blocked for {ground}");
    q.start = (nb_cell){3, 1};
    ok(tu_haa_find(ws, &q, 0, &res, &err) == NB_OK && res.status == NB_PATH_START_BLOCKED,
       "a start on the wall is blocked");
    /* Size 2, {ground, trees}: the gap above the wall is one cell high. */
    nb_aa_query big = {{0, 2}, {6, 3}, 2, (1u << 0) | (1u << 3), NB_CORNER_STRICT, 0, NULL, NULL, 0};
    ok(tu_haa_find(ws, &big, 0, &res, &err) == NB_OK && res.status == NB_PATH_NONE &&
           res.searched == 0,
       "no path for the big agent, known from the components without a search");
    big.goal = (nb_cell){1, 3};
    ok(tu_haa_find(ws, &big, NB_HAA_SMOOTH, &res, &err) == NB_OK &&
           res.status == NB_PATH_FOUND && res.path_len == 2 && fabs(res.length - sqrt(2.0)) < 1e-12,
       "smoothing: the big agent goes straight down the open side");

    /* Errors. */
    q = (nb_aa_query){{0, 0}, {7, 5}, 1, 1u, NB_CORNER_STRICT, 0, NULL, NULL, 0};
    q.start.x = 8;
    is_int(tu_haa_find(ws, &q, 0, &res, &err), NB_ERR_OUTSIDE, "a start outside the map");
    like(err.msg, "start (8, 0) is off the 8 x 6 map", "named");
    q.start.x = 0;
    q.goal.y = -1;
    is_int(tu_haa_find(ws, &q, 0, &res, &err), NB_ERR_OUTSIDE, "a goal outside the map");
    q.goal.y = 5;
    q.size = 0;
    is_int(tu_haa_find(ws, &q, 0, &res, &err), NB_ERR_ARG, "size 0");
    q.size = 3;
    is_int(tu_haa_find(ws, &q, 0, &res, &err), NB_ERR_NOTFOUND, "a size the graph does not serve");
    like(err.msg, "does not serve size 3; it serves sizes 1, 2", "says which it serves");
    q.size = 1;
    q.capability = 1u << 1;
    is_int(tu_haa_find(ws, &q, 0, &res, &err), NB_ERR_NOTFOUND, "a capability it does not serve");
    like(err.msg, "does not serve capability {swamp}; it serves {ground}, {ground,trees}",
         "says which it serves");
    q.capability = 1u;
    is_int(tu_haa_find(ws, &q, 0x80, &res, &err), NB_ERR_ARG, "unknown flags");
    nb_haa_graph d;
    nb_haa_describe(ws, &d);
    ok(d.cluster == 4 && strcmp(d.quality, "high") == 0 && d.nodes == g.nnodes &&
           d.edges == g.nedges && d.paths == 0,
       "nb_haa_describe: cluster, quality and counts");
    nb_haa_close(ws);
    free(pl);

    /* A bundle without an abstract graph. */
    is_int(nb_haa_open(b, &ws, &err), NB_ERR_NOTFOUND, "nb_haa_open without an abstract graph");
    like(err.msg, "no abstract graph; bake one with mkabstract", "says how to make one");
    nb_bundle_close(b);
    nbb_grid_free(&grid);
}

/* Threads: each its own workspace on one bundle. */
#define TQ 300
typedef struct tjob {
    const nb_bundle *b;
    const nbi_agraph *g;
    const nb_aa_query *q;
    double len[TQ];
    uint64_t hash[TQ];
    int bad;
} tjob;

static uint64_t path_hash(const nb_haa_result *r)
{
    uint64_t h = 1469598103934665603u ^ (uint64_t)r->status;
    for (size_t i = 0; i < r->path_len; i++)
        h = (h ^ (uint64_t)(uint32_t)r->path[i].x << 32 ^ (uint32_t)r->path[i].y) * 1099511628211u;
    return h;
}

static void *run_job(void *arg)
{
    tjob *j = arg;
    nb_haa *ws;
    if (nbi_haa_new_graph(j->b, j->g, 0, &ws, NULL) != NB_OK) {
        j->bad = 1;
        return NULL;
    }
    for (int k = 0; k < TQ; k++) {
        nb_haa_result r;
        if (tu_haa_find(ws, &j->q[k], k % 2 ? NB_HAA_STRAIGHTEN : 0, &r, NULL) != NB_OK)
            j->bad = 1;
        j->len[k] = r.length;
        j->hash[k] = path_hash(&r);
    }
    nb_haa_close(ws);
    return NULL;
}

static void test_threads(tu_rng *r)
{
    nbb_grid grid;
    nbi_agentset agents;
    nb_bundle *b = hu_random_level(r, &legend, 80, 60, 3, 0, 3, 2, tu_path(tu_tmpdir(), "t.nbk"),
                                   &grid, &agents);
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    uint8_t *p = NULL;
    nbi_agraph g;
    nb_err err;
    if (!ok(b && hu_graph(b, &o, &p, &g, &err) == NB_OK, "a graph for the threads")) {
        nb_bundle_close(b);
        nbb_grid_free(&grid);
        return;
    }
    static nb_aa_query q[TQ];
    for (int k = 0; k < TQ; k++) {
        const nb_agent *a = &agents.agent[tu_below(r, (uint32_t)agents.count)];
        q[k] = (nb_aa_query){standable_cell(r, &grid, a), standable_cell(r, &grid, a), a->size,
                             a->capability, NB_CORNER_STRICT, 0, NULL, NULL, 0};
    }
    static tjob one, par[4];
    one = (tjob){b, &g, q, {0}, {0}, 0};
    run_job(&one);
    pthread_t th[4];
    int started = 0;
    for (int t = 0; t < 4; t++) {
        par[t] = one;
        par[t].bad = 0;
        memset(par[t].hash, 0, sizeof par[t].hash);
        started += pthread_create(&th[t], NULL, run_job, &par[t]) == 0;
    }
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    int same = started == 4 && !one.bad;
    for (int t = 0; t < 4; t++)
        same = same && !par[t].bad && memcmp(par[t].hash, one.hash, sizeof one.hash) == 0 &&
               memcmp(par[t].len, one.len, sizeof one.len) == 0;
    ok(same, "four threads, one bundle, a workspace each: %d queries each, answered as by one "
             "thread",
       TQ);
    free(p);
    nb_bundle_close(b);
    nbb_grid_free(&grid);
}

/* The paper's data: a few maps of the 20% set, every query of their
 * files with sizes 1 and 2, HQ and LQ graphs of clusters of 10. */
static void test_paper_sample(void)
{
    static const char *const maps[] = {"AR0011SR", "AR0302SR", "AR0516SR"};
    const char *probe = tu_shared("haa-bg/SOURCES.md");
    if (!probe) {
        skip(3, "../shared/haa-bg is absent (set NB_SHARED)");
        return;
    }
    nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    static const nb_capability caps[3] = {1u << 0, 1u << 3, (1u << 0) | (1u << 3)};
    for (int c = 0; c < 3; c++)
        for (int s = 1; s <= 2; s++) {
            nb_agent *a = &agents.agent[agents.count++];
            snprintf(a->name, sizeof a->name, "a%d%d", c, s);
            a->size = (uint32_t)s;
            a->capability = caps[c];
        }
    tally tl = {0, 0, 0, 0, 0, 0};
    long lines = 0, unsolved = 0;
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
        char rel[128];
        snprintf(rel, sizeof rel, "haa-bg/maps/bgmaps/softobs_20pct/new%s.map", maps[m]);
        const char *mp = tu_shared(rel);
        snprintf(rel, sizeof rel, "haa-bg/experiments/scenarios/softobs_20pct/new%s.map.scenario",
                 maps[m]);
        const char *sp = tu_shared(rel);
        nbb_grid grid;
        nb_err err;
        if (!mp || !sp || nbb_map_read(mp, &legend, 1, &grid, &err) != NB_OK) {
            ok(0, "%s is there and reads", maps[m]);
            continue;
        }
        nb_bundle *b = hu_bake(tu_path(tu_tmpdir(), "bg.nbk"), &legend, &agents, &grid);
        nb_haa *ws[2] = {NULL, NULL};
        uint8_t *pl[2] = {NULL, NULL};
        static const char *const names[2] = {"high", "low"};
        for (int q = 0; q < 2 && b; q++) {
            nbb_abstract_opts o;
            nbb_abstract_defaults(&o);
            o.quality = q ? NBI_QUALITY_LOW : NBI_QUALITY_HIGH;
            nbi_agraph g;
            if (hu_graph(b, &o, &pl[q], &g, &err) != NB_OK ||
                nbi_haa_new_graph(b, &g, 0, &ws[q], &err) != NB_OK)
                diag("%s: %s", maps[m], err.msg);
        }
        size_t len;
        char *text = tu_read(sp, &len);
        if (b && ws[0] && ws[1] && text) {
            /* Every fourth line: the Dijkstra is the slow part. */
            char *save = NULL;
            long k = 0;
            for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                char path[256];
                int sx, sy, gx, gy, cap, size, steps;
                if (sscanf(line, "%255s %d %d %d %d %d %d %d", path, &sx, &sy, &gx, &gy, &cap, &size,
                           &steps) != 8 || k++ % 4)
                    continue;
                lines++;
                /* The authors' masks: 4 = {ground}, 64 = {trees}, 68 = both. */
                nb_capability c = (cap & 4 ? 1u << 0 : 0) | (cap & 64 ? 1u << 3 : 0);
                for (uint32_t s = 1; s <= 2; s++) {
                    nb_agent a = {"q", s, c, 0, {0}};
                    long before = tl.found;
                    check_query(ws, 2, names, &grid, &a, NB_CORNER_STRICT, (nb_cell){sx, sy},
                                (nb_cell){gx, gy}, s == 2 ? NB_HAA_STRAIGHTEN : 0, 0, &tl);
                    unsolved += tl.found - before != 2;
                }
            }
        }
        free(text);
        for (int q = 0; q < 2; q++) {
            nb_haa_close(ws[q]);
            free(pl[q]);
        }
        nb_bundle_close(b);
        nbb_grid_free(&grid);
    }
    diag("paper sample: %ld query lines, %ld HAA* queries", lines, tl.queries);
    ok(lines >= 60 && tl.mismatch == 0 && unsolved == 0,
       "the paper's queries: solved by HAA* on HQ and LQ graphs, sizes 1 and 2");
    is_int(tl.bad, 0, "and every path is valid for its agent");
    is_int(tl.shorter, 0, "and none shorter than the optimum");
}

/* The cells a graph hands over without a search (stored paths, inter-edges) are checked as the
 * path is made (haa.c's cells_walkable): a graph baked for one map and opened on the bundle of
 * the same map with walls added across it must not lead an agent through them. */
static void test_other_map(tu_rng *r)
{
    const char *dir = tu_tmpdir();
    long queries = 0, found = 0, refused = 0, bad = 0, other = 0;
    for (unsigned m = 0; m < 12; m++) {
        uint32_t w = 16 + tu_below(r, 24), h = 16 + tu_below(r, 24);
        nbb_grid grid;
        nbi_agentset agents;
        hu_rooms_grid(r, w, h, 2, &grid);
        hu_random_agents(r, 1 + tu_below(r, 3), 2, 2, &agents);
        nb_bundle *ba = hu_bake(tu_path(dir, "oa.nbk"), &legend, &agents, &grid);
        /* The other map: a wall on about one cell in eight. */
        for (size_t i = 0; i < (size_t)w * h; i++)
            if (tu_below(r, 8) == 0)
                grid.cells[i] = '@';
        nb_bundle *bb = hu_bake(tu_path(dir, "ob.nbk"), &legend, &agents, &grid);
        nbb_abstract_opts o;
        nbb_abstract_defaults(&o);
        o.cluster = 4 + tu_below(r, 6);
        o.corner = tu_below(r, 2);
        o.paths = 1;
        o.quality = NBI_QUALITY_HIGH;
        uint8_t *pl = NULL;
        nbi_agraph g;
        nb_haa *ws = NULL;
        nb_err err;
        if (!ok(ba && bb && hu_graph(ba, &o, &pl, &g, &err) == NB_OK &&
                    nbi_haa_new_graph(bb, &g, 0, &ws, &err) == NB_OK,
                "map %u: the graph of one map opened on the other's bundle", m)) {
            nb_haa_close(ws);
            free(pl);
            nb_bundle_close(ba);
            nb_bundle_close(bb);
            nbb_grid_free(&grid);
            continue;
        }
        for (unsigned k = 0; k < 40; k++) {
            const nb_agent *a = &agents.agent[tu_below(r, (uint32_t)agents.count)];
            nb_corner corner = k % 2 ? NB_CORNER_STRICT : NB_CORNER_WEAK;
            nb_cell s = standable_cell(r, &grid, a), t = standable_cell(r, &grid, a);
            nb_aa_query q = {s, t, a->size, a->capability, corner, 0, NULL, NULL, 0};
            nb_haa_result res;
            nb_status st = tu_haa_find(ws, &q, 0, &res, &err);
            queries++;
            if (st == NB_ERR_FORMAT && strstr(err.msg, "damaged")) {
                refused++;
            } else if (st != NB_OK) {
                other++;
            } else if (res.status == NB_PATH_FOUND) {
                char why[160];
                found++;
                if (!hu_path_ok(&legend, &grid, a->capability, a->size,
                                corner == NB_CORNER_STRICT ? BRUTE_STRICT : BRUTE_WEAK, res.path,
                                res.path_len, s, t, res.cell_length, why, sizeof why)) {
                    if (bad++ < 3)
                        diag("map %u, (%d, %d) to (%d, %d), size %u: %s", m, s.x, s.y, t.x, t.y,
                             a->size, why);
                }
            }
        }
        nb_haa_close(ws);
        free(pl);
        nb_bundle_close(ba);
        nb_bundle_close(bb);
        nbb_grid_free(&grid);
    }
    diag("another map's graph: %ld queries, %ld refused as damaged, %ld paths", queries, refused,
         found);
    is_int(bad, 0, "no path through the walls the graph did not know");
    is_int(other, 0, "no other error");
    ok(refused > 0 && found > 0, "the queries mix refusals and paths");
}

int main(void)
{
    nbi_legend_default(&legend);
    tu_rng r = {20080818};
    test_edges();
    test_completeness(&r);
    test_threads(&r);
    test_paper_sample();
    test_other_map(&r);
    return done_testing();
}
