/* test_budget.c: for every search family, a query with a budget of N
 * expansions on any bundle that opens returns within a bound computed from
 * N and the bundle's sizes (issue 29).
 *
 * The bundles are the fuzz corpus's (corpus/queries and corpus/work: every
 * kind of section, levels above the graph, stored paths that bounce) and
 * MUTANTS mutants of each from the structure-aware mutator (mutate_bundle.c,
 * mutate_levels.c), each opened from memory with a counting allocator
 * (tests/support/countalloc.c).  On each, every family whose handle opens
 * is asked for a few queries with budgets of 1, 16 and 256 (enough for
 * HAA*'s far queries to reach its top level and go down), as a find with
 * max_expansions N and as begin, one step of N and finish: the expansions
 * the result reports, and the bytes the workspace takes from the allocator
 * during the query, must stay within the family's bound:
 *   - HAA*: tests/fuzz/work_bound.c (the levels' descent from the checked
 *     sizes, not their product);
 *   - the others: N expansions (draws for random cells; a line's cells
 *     are counted between rows, and may go one row and the start's square
 *     beyond), and bytes of
 *     BASE + (N + 1) x what one expansion may claim (its fan-out, each
 *     new node in a fresh page or block of the family's storage) + what a
 *     query makes once whatever its budget, bounded by the map or graph
 *     (a path no longer than the map has cells, the reverse searches of
 *     the motion heuristics, the optimal layer's nodes, a forest's
 *     tangents);
 *   - motion routes over the HAA* graph: HAA*'s bound with no budget,
 *     then N expansions a segment, for no more segments than the graph
 *     has nodes and two.
 * A family beyond its bound fails the test, naming the bundle and query. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "countalloc.h"
#include "haa_of.h"
#include "mutate.h"
#include "tap.h"
#include "testutil.h"
#include "work_bound.h"

#define MUTANTS 12
#define MAX_SIZE (1u << 21)
#define BASE ((uint64_t)1 << 20)

enum { AA, HAA, SG, MOTION, ROUTE, PLANNER, FOREST, NEAREST, LINE, RANDOM, NFAM };
static const char *const family_name[NFAM] = {
    "AA*",     "HAA*",   "the optimal layer", "motion", "motion routes over HAA*",
    "planner", "forest", "nearest",           "line",   "random"};

typedef struct tally {
    unsigned queries, beyond;
    double most_exp, most_bytes; /* the largest share of a bound taken */
    char first[320];             /* the first query beyond */
} tally;

static tally fam[NFAM];
static const char *bundle_name;

/* One query's expansions and bytes against its bounds. */
static void account(int f, const char *how, uint64_t budget, uint64_t expanded, uint64_t exp_bound,
                    size_t bytes, uint64_t byte_bound)
{
    tally *t = &fam[f];
    t->queries++;
    double e = exp_bound ? (double)expanded / (double)exp_bound : 0;
    double b = (double)bytes / (double)byte_bound;
    if (e > t->most_exp)
        t->most_exp = e;
    if (b > t->most_bytes)
        t->most_bytes = b;
    if (expanded > exp_bound || bytes > byte_bound) {
        if (!t->beyond++)
            snprintf(t->first, sizeof t->first,
                     "%s: %s budget %llu: %llu expansions (bound %llu), %zu bytes (bound %llu)",
                     bundle_name, how, (unsigned long long)budget, (unsigned long long)expanded,
                     (unsigned long long)exp_bound, bytes, (unsigned long long)byte_bound);
    }
}

/* A cell where agent a may stand near (x, y) (searched outward), or (x, y). */
static nb_cell near_cell(const nb_bundle *b, const nb_agent *a, int32_t x, int32_t y)
{
    int32_t w = (int32_t)nb_map_width(b), h = (int32_t)nb_map_height(b);
    for (int32_t r = 0; r < 48; r++)
        for (int32_t dy = -r; dy <= r; dy++)
            for (int32_t dx = -r; dx <= r; dx++) {
                nb_cell c = {x + dx, y + dy};
                if ((dx == -r || dx == r || dy == -r || dy == r) && c.x >= 0 && c.y >= 0 && c.x < w &&
                    c.y < h && nb_can_stand(b, a->capability, a->size, c.x, c.y) == 1)
                    return c;
            }
    return (nb_cell){x, y};
}

static uint64_t cells_of(const nb_bundle *b) { return (uint64_t)nb_map_width(b) * nb_map_height(b); }

/* ---- the grid families ---- */

static void grid(const nb_bundle *b, tc_count *c, uint64_t N)
{
    nb_err err;
    nb_aa *aa = NULL;
    nb_haa *haa = NULL;
    nb_sg *sg = NULL;
    nb_place *pl = NULL;
    wb_haa ws;
    int has_haa = nb_haa_open(b, &haa, &err) == NB_OK && wb_haa_sizes(b, &ws);
    nb_aa_open(b, &aa, &err);
    nb_sg_open(b, &sg, &err);
    nb_place_open(b, &pl, &err);
    const uint64_t cells = cells_of(b);
    /* AA*: 8 neighbours an expansion, each in a fresh tile of 32 x 32 cells of 24 bytes. */
    const uint64_t aa_bytes = BASE + (N + 1) * 8 * (2 * 32 * 32 * 24 + 48) + 16 * (N + 2);
    /* The optimal layer: nodes of about 64 bytes with their map entry and heap item, as many as
     * the layer has subgoals, its scans' too; the path no longer than the map has cells. */
    uint64_t subgoals = 0;
    for (size_t i = 0; i < nb_bundle_section_count(b); i++)
        if (nb_bundle_section_get(b, i)->type == NB_SEC_SUBGOAL &&
            nb_bundle_section_get(b, i)->param[3] > subgoals)
            subgoals = nb_bundle_section_get(b, i)->param[3];
    const uint64_t sg_bytes = BASE + 4 * 256 * (subgoals + 2) + 64 * (cells + 1);
    size_t na = nb_agent_count(b);
    for (size_t i = 0; i < na && i < 2; i++) {
        const nb_agent *a = nb_agent_get(b, i);
        int32_t w = (int32_t)nb_map_width(b), h = (int32_t)nb_map_height(b);
        nb_cell s = near_cell(b, a, 0, 0), g = near_cell(b, a, w - 1, h - 1);
        for (int sliced = 0; sliced < 2; sliced++) {
            nb_aa_query q;
            nb_aa_query_init(&q);
            nb_aa_query_agent(&q, a);
            q.start = s;
            q.goal = g;
            q.max_expansions = sliced ? 0 : N;
            int done;
            size_t live;
            if (aa) {
                nb_aa_result r;
                live = c->live;
                tc_mark(c);
                nb_status st = sliced ? nb_aa_begin(aa, &q, &err) : nb_aa_find(aa, &q, &r, &err);
                if (st == NB_OK && sliced && (st = nb_aa_step(aa, N, &done, &err)) == NB_OK)
                    st = nb_aa_finish(aa, &r, &err);
                if (st == NB_OK)
                    account(AA, sliced ? "a step" : "find", N, r.expanded, N, tc_grown(c, live),
                            aa_bytes);
            }
            if (has_haa) {
                nb_haa_result r;
                nb_haa_query hq = haa_of(&q, 0);
                live = c->live;
                tc_mark(c);
                nb_status st = sliced ? nb_haa_begin(haa, &hq, &err) : nb_haa_find(haa, &hq, &r, &err);
                if (st == NB_OK && sliced && (st = nb_haa_step(haa, N, &done, &err)) == NB_OK)
                    st = nb_haa_finish(haa, &r, &err);
                if (st == NB_OK)
                    account(HAA, sliced ? "a step" : "find", N, r.expanded,
                            wb_haa_expansions(&ws, N), tc_grown(c, live), wb_haa_bytes(&ws, N));
            }
            if (sg) {
                nb_sg_query sq;
                nb_sg_result r;
                nb_sg_query_init(&sq);
                sq.start = s;
                sq.goal = g;
                sq.size = a->size;
                sq.capability = a->capability;
                sq.max_expansions = sliced ? 0 : N;
                live = c->live;
                tc_mark(c);
                nb_status st = sliced ? nb_sg_begin(sg, &sq, &err) : nb_sg_find(sg, &sq, &r, &err);
                if (st == NB_OK && sliced && (st = nb_sg_step(sg, N, &done, &err)) == NB_OK)
                    st = nb_sg_finish(sg, &r, &err);
                if (st == NB_OK)
                    account(SG, sliced ? "a step" : "find", N, r.expanded, N, tc_grown(c, live),
                            sg_bytes);
            }
            if (pl) {
                /* Places: cells looked at (draws) are the budget; a ring or a line at a time. */
                const uint64_t place_bytes = BASE + 64 * (N + 1);
                nb_nearest_query nq;
                nb_nearest_result nr;
                nb_nearest_query_init(&nq);
                nb_nearest_query_agent(&nq, a);
                nq.point = g;
                nq.reachable = (int)i;
                nq.start = s;
                nq.max_expansions = sliced ? 0 : N;
                live = c->live;
                tc_mark(c);
                nb_status st = sliced ? nb_nearest_begin(pl, &nq, &err)
                                      : nb_nearest_find(pl, &nq, &nr, &err);
                if (st == NB_OK && sliced && (st = nb_nearest_step(pl, N, &done, &err)) == NB_OK)
                    st = nb_nearest_finish(pl, &nr, &err);
                if (st == NB_OK)
                    account(NEAREST, sliced ? "a step" : "find", N, nr.examined, N,
                            tc_grown(c, live), place_bytes);
                nb_line_query lq;
                nb_line_result lr;
                nb_line_query_init(&lq);
                nb_line_query_agent(&lq, a);
                lq.start = (nb_vec2){s.x + 0.5, s.y + 0.5};
                lq.goal = (nb_vec2){g.x + 0.5, g.y + 0.5};
                lq.max_expansions = sliced ? 0 : N;
                live = c->live;
                tc_mark(c);
                st = sliced ? nb_line_begin(pl, &lq, &err) : nb_line_find(pl, &lq, &lr, &err);
                if (st == NB_OK && sliced && (st = nb_line_step(pl, N, &done, &err)) == NB_OK)
                    st = nb_line_finish(pl, &lr, &err);
                /* A line's budget is checked between rows: the start's square and one row of
                 * the sweep (its columns: the map's width and the square's side, and one either
                 * side) may come on top. */
                uint64_t row = nb_map_width(b) + 2 * (uint64_t)a->size + 2;
                if (st == NB_OK)
                    account(LINE, sliced ? "a step" : "find", N, lr.examined,
                            N + (uint64_t)a->size * a->size + row, tc_grown(c, live), place_bytes);
                nb_random_query rq;
                nb_random_result rr;
                nb_random_query_init(&rq);
                nb_random_query_agent(&rq, a);
                rq.reachable = (int)i;
                rq.start = s;
                rq.seed = N;
                rq.max_expansions = sliced ? 0 : N;
                live = c->live;
                tc_mark(c);
                st = sliced ? nb_random_begin(pl, &rq, &err) : nb_random_find(pl, &rq, &rr, &err);
                if (st == NB_OK && sliced && (st = nb_random_step(pl, N, &done, &err)) == NB_OK)
                    st = nb_random_finish(pl, &rr, &err);
                if (st == NB_OK)
                    account(RANDOM, sliced ? "a step" : "find", N, 0, 1, tc_grown(c, live),
                            place_bytes);
            }
        }
    }
    nb_place_close(pl);
    nb_sg_close(sg);
    nb_haa_close(haa);
    nb_aa_close(aa);
}

/* ---- motion ---- */

static void motion(const nb_bundle *b, tc_count *c, uint64_t N)
{
    nb_err err;
    const uint64_t cells = cells_of(b);
    for (size_t i = 0, models = 0; i < nb_bundle_section_count(b) && models < 2; i++) {
        const nb_section_info *in = nb_bundle_section_get(b, i);
        if (in->type != NB_SEC_MODEL)
            continue;
        models++;
        nb_model *m = NULL;
        nb_perimeter *per = NULL;
        nb_motion *ws = NULL;
        if (nb_model_open(b, in->name, &m, &err) != NB_OK)
            continue;
        nb_perimeter_open(b, m, &per, &err);
        const nb_agent *a = nb_agent_count(b) ? nb_agent_get(b, 0) : NULL;
        if (nb_motion_open(b, m, per, a ? a->capability : 0xffffffffu, a ? a->size : 1, &ws,
                           &err) == NB_OK) {
            uint64_t H = nb_model_headings(m), S = nb_model_speeds(m);
            /* An expansion's successors (a turn and a speed each), each in a fresh block of its
             * cell's states and a fresh tile of 32 x 32 cells' entries; the heuristics' reverse
             * searches over (cell, heading) states, the map's at most; a path of N + 1 states. */
            uint64_t bytes = BASE + (N + 1) * H * S * (H * S * 64 + 32 * 32 * 8 + 64) +
                             4 * cells * (H + 1) * 48 + 32 * (N + 2);
            int32_t w = (int32_t)nb_map_width(b), h = (int32_t)nb_map_height(b);
            for (int k = 0; k < 2 * NB_MH_COUNT; k++) {
                nb_motion_query q;
                nb_motion_query_init(&q);
                nb_cell s = a ? near_cell(b, a, 1, 1) : (nb_cell){1, 1};
                nb_cell g = a ? near_cell(b, a, w - 2, h - 2) : (nb_cell){w - 2, h - 2};
                q.start = (nb_motion_state){s.x, s.y, 0, (uint16_t)nb_model_stop(m)};
                q.goal = (nb_motion_state){g.x, g.y, NB_HEADING_ANY, (uint16_t)nb_model_stop(m)};
                q.heuristic = (nb_motion_heuristic)(k % NB_MH_COUNT);
                int sliced = k >= NB_MH_COUNT, done;
                q.max_expansions = sliced ? 0 : N;
                nb_motion_result r;
                size_t live = c->live;
                tc_mark(c);
                nb_status st = sliced ? nb_motion_begin(ws, &q, &err) : nb_motion_find(ws, &q, &r, &err);
                if (st == NB_OK && sliced && (st = nb_motion_step(ws, N, &done, &err)) == NB_OK)
                    st = nb_motion_finish(ws, &r, &err);
                if (st == NB_OK)
                    account(MOTION, nb_motion_heuristic_name(q.heuristic), N, r.expanded, N,
                            tc_grown(c, live), bytes);
            }
            /* A route over the HAA* graph: one HAA* query with no budget (its bound), then a
             * motion search of N expansions for each segment of two places, as many segments
             * as the abstract path has places at most (the graph's nodes and the two ends). */
            wb_haa hs;
            if (a && nb_motion_use_haa(ws, &err) == NB_OK && wb_haa_sizes(b, &hs)) {
                nb_motion_query q;
                nb_motion_query_init(&q);
                nb_cell s = near_cell(b, a, 1, 1), g = near_cell(b, a, w - 2, h - 2);
                q.start = (nb_motion_state){s.x, s.y, 0, (uint16_t)nb_model_stop(m)};
                q.goal = (nb_motion_state){g.x, g.y, NB_HEADING_ANY, (uint16_t)nb_model_stop(m)};
                q.abstraction = NB_ROUTE_HAA;
                q.truncate = 2;
                q.max_expansions = N;
                nb_motion_result r;
                size_t segs = 0, live = c->live;
                tc_mark(c);
                if (nb_motion_route_find(ws, &q, 2, NULL, NULL, &r, &segs, &err) == NB_OK) {
                    uint64_t most = hs.nodes[1] + 2; /* more segments: beyond, whatever else */
                    account(ROUTE, "a route", N, segs > most ? UINT64_MAX : r.expanded, most * N,
                            tc_grown(c, live),
                            bytes + wb_haa_bytes(&hs, 0) + 64 * (most + 2) + most * 32 * (N + 2));
                }
            }
            nb_motion_close(ws);
        }
        nb_perimeter_close(per);
        nb_model_close(m);
    }
}

/* ---- the unit planner ---- */

static void planner(const nb_bundle *b, tc_count *c, uint64_t N)
{
    nb_err err;
    const uint64_t cells = cells_of(b);
    for (size_t i = 0; i < nb_unit_count(b) && i < 2; i++) {
        nb_unit u;
        nb_planner *pl = NULL;
        if (nb_unit_get(b, i, &u, &err) != NB_OK || nb_planner_open(b, u.name, &pl, &err) != NB_OK)
            continue;
        /* An expansion's children (a neighbour and a heading each, up to 48 x 16), each in a fresh
         * block of 8 x 8 cells' headings; the curves the hybrid search computes and the path,
         * the map's cells' worth at most. */
        uint64_t K = u.headings ? u.headings : 16;
        uint64_t bytes = BASE + (N + 1) * 48 * K * (64 * K * 4 + 128) + 64 * (cells + 1) * K;
        int32_t w = (int32_t)nb_map_width(b), h = (int32_t)nb_map_height(b);
        for (int k = 0; k < 8; k++) {
            nb_planner_query q;
            nb_planner_query_init(&q);
            q.start = (nb_pose){1.5, 1.5, 0};
            q.goal = (nb_cell){w - 2, h - 2};
            q.method = (nb_plan_method)(k % 4);
            int sliced = k >= 4, done;
            q.max_expansions = sliced ? 0 : N;
            nb_planner_result r;
            size_t live = c->live;
            tc_mark(c);
            nb_status st = sliced ? nb_planner_begin(pl, &q, &err) : nb_planner_find(pl, &q, &r, &err);
            if (st == NB_OK && sliced && (st = nb_planner_step(pl, N, &done, &err)) == NB_OK)
                st = nb_planner_finish(pl, &r, &err);
            if (st == NB_OK)
                account(PLANNER, sliced ? "a step" : "find", N, r.expanded, N, tc_grown(c, live),
                        bytes);
        }
        nb_planner_close(pl);
    }
}

/* ---- forests ---- */

static void forest(const nb_bundle *b, tc_count *c, uint64_t N)
{
    nb_err err;
    nb_forest *f = NULL;
    nb_forest_ws *ws = NULL;
    if (nb_forest_open(b, &f, &err) != NB_OK)
        return;
    if (nb_forest_ws_open(f, &ws, &err) == NB_OK) {
        uint64_t n = nb_forest_circle_count(f);
        /* An expansion opens at most one circle (its bitangents to every other: 4 n tangent
         * points) or follows its circle's arcs and points; each point two states. The ends'
         * tangents (4 n), the per-circle states and the path, once. */
        uint64_t bytes = BASE + (N + 1) * (4 * n + 8) * 3 * 96 + (8 * n + 8) * 3 * 96;
        double bd[4] = {0, 0, 100, 60};
        nb_forest_bounds(f, bd);
        unsigned nr = nb_forest_radius_count(f);
        for (unsigned k = 0; k < 2 * (nr + 1); k++) {
            nb_forest_query q;
            nb_forest_result r;
            nb_forest_query_init(&q);
            q.start = (nb_vec2){bd[0], bd[1]};
            q.goal = (nb_vec2){bd[2], bd[3]};
            q.agent_radius = k % (nr + 1) < nr ? nb_forest_radius_get(f, k % (nr + 1)) : 0.25;
            int sliced = k >= nr + 1, done;
            q.max_expansions = sliced ? 0 : N;
            size_t live = c->live;
            tc_mark(c);
            nb_status st = sliced ? nb_forest_begin(ws, &q, &err) : nb_forest_find(ws, &q, &r, &err);
            if (st == NB_OK && sliced && (st = nb_forest_step(ws, N, &done, &err)) == NB_OK)
                st = nb_forest_finish(ws, &r, &err);
            if (st == NB_OK)
                account(FOREST, sliced ? "a step" : "find", N, r.expanded, N, tc_grown(c, live),
                        bytes);
        }
        nb_forest_ws_close(ws);
    }
    nb_forest_close(f);
}

/* ---- the corpus and its mutants ---- */

static size_t flip(uint8_t *data, size_t size, size_t max_size)
{
    (void)max_size;
    static unsigned k;
    k = k * 1103515245u + 12345u;
    if (size)
        data[(k >> 8) % size] ^= (uint8_t)(1u << (k >> 4) % 8);
    return size;
}

static unsigned bundles, opened, leaks;

static void run_bundle(const uint8_t *data, size_t size)
{
    tc_count c;
    nb_allocator a;
    tc_init(&c, &a);
    nb_bundle *b = NULL;
    nb_err err;
    bundles++;
    if (nb_bundle_open_memory(data, size, 0, &a, &b, &err) == NB_OK) {
        opened++;
        for (uint64_t N = 1; N <= 256; N *= 16) {
            grid(b, &c, N);
            motion(b, &c, N);
            planner(b, &c, N);
            forest(b, &c, N);
        }
    }
    nb_bundle_close(b);
    if (c.live && !leaks++)
        diag("%s: %zu bytes left with the allocator", bundle_name, c.live);
}

static void run_dir(const char *rel)
{
    const char *dir = tu_src(rel);
    DIR *d = opendir(dir);
    char *names[256];
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d)) && n < 256;)
        if (e->d_name[0] != '.')
            names[n++] = strdup(e->d_name);
    if (d)
        closedir(d);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(names[j], names[i]) < 0) {
                char *t = names[i];
                names[i] = names[j];
                names[j] = t;
            }
    uint8_t *buf = malloc(MAX_SIZE);
    for (size_t i = 0; buf && i < n; i++) {
        char path[1024], name[600];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len;
        char *seed = tu_read(path, &len);
        if (!seed || len > MAX_SIZE)
            continue;
        snprintf(name, sizeof name, "%s/%s", rel, names[i]);
        bundle_name = name;
        run_bundle((const uint8_t *)seed, len);
        for (unsigned m = 1; m <= MUTANTS; m++) {
            memcpy(buf, seed, len);
            size_t ml = nbf_mutate_bundle(buf, len, MAX_SIZE, m * 7919u + (unsigned)i, flip);
            char mname[640];
            snprintf(mname, sizeof mname, "%s (mutant %u)", name, m);
            bundle_name = mname;
            run_bundle(buf, ml);
        }
        free(seed);
    }
    free(buf);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
}

int main(void)
{
    run_dir("tests/fuzz/corpus/queries");
    run_dir("tests/fuzz/corpus/work");
    ok(bundles >= 200 && opened >= bundles / 3, "%u bundles, seeds and mutants (%u open)", bundles,
       opened);
    ok(leaks == 0, "every byte given back when the handles are closed (%u bundles left some)", leaks);
    for (int f = 0; f < NFAM; f++) {
        const tally *t = &fam[f];
        ok(t->queries > 0 && t->beyond == 0,
           "%s: %u queries with budgets of 1, 16 and 256, each within its bounds (the most of a bound: "
           "%.0f%% of the expansions, %.0f%% of the bytes)%s%s",
           family_name[f], t->queries, 100 * t->most_exp, 100 * t->most_bytes,
           t->beyond ? "; beyond: " : "", t->beyond ? t->first : "");
    }
    return done_testing();
}
