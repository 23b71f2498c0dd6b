/* test_haa_costs.c: HAA* for agents with terrain costs (issue 18, part 1):
 * the abstract graph's costs per cost profile (formats/abstract.md,
 * section type 33).
 *  - random maps of 1 to 4 terrains, agents of two capabilities and sizes
 *    1 to 3, each with random costs, graphs of several cluster sizes and
 *    qualities under both corner rules: HAA* finds a path exactly when a
 *    plain Dijkstra with the same costs (tests/support/brute.c) does; the
 *    path is legal step by step, ends where asked, and costs what the
 *    result says when its cost is recomputed here, and no more than its
 *    abstract path weighs; the cost is never below Dijkstra's and at most
 *    BOUND times it; with one cluster over the
 *    whole map (a graph that is exact) it is Dijkstra's;
 *  - the same under an overlay that blocks random rectangles, against
 *    Dijkstra on the map with the blocks as walls; on every quality (a
 *    low-quality graph's repair with the ring of clusters beside the
 *    touched ones, repair.c) every path comes from the repaired clusters
 *    weighed with the agent's costs, none from Annotated A* after meeting
 *    a block (the workspace's fallback counter stays 0);
 *  - slices of any size give the unsliced path; multipliers of 1 give the
 *    answers of no costs; an agent whose costs no profile has is refused
 *    naming why; a costs section that lies (a cost below the heuristic,
 *    another graph's CRC, a profile the graph does not serve) is refused
 *    at open;
 *  - wc3/bloodvenomfalls and wc3/battleground of ../shared/maps with swamp
 *    at 1, 2 and 5: on every 50th scenario line HAA* finds a path exactly
 *    when Annotated A* does, never of less cost;
 *  - the same two maps under random overlays of 1 to 100 rectangles of
 *    1 x 1 to 20 x 20 cells, graphs of high and low quality, swamp at 2 and
 *    5: HAA* finds a path exactly when Annotated A* under the same overlay
 *    does, by a path legal on the map with the blocks as walls that costs
 *    what it says (recomputed here), never below Annotated A*'s cost and at
 *    most BOUND times it, with a mean within MEAN_BOUND; fallback counter 0. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abstract/haa.h"
#include "brute.h"
#include "testutil.h"

/* The most HAA*'s cost is allowed above the least on the random maps here
 * (clusters of 3 to 8 cells, in which most queries cross a few): what
 * was seen, with room (tests/bench/results/haa-bench.md has the error
 * on real maps). */
#define BOUND 3.0
/* The most the mean cost over Annotated A*'s may be on the shared maps under blocks: the
 * worst mean of tests/bench/results/haa-bench.md's cost rows (18.4 %, low quality, no
 * overlay), with room. */
#define MEAN_BOUND 1.25

static nbi_legend legend;

struct tally {
    int queries, found, none, bad, exact, by_aa;
    double worst; /* the largest cost / Dijkstra's */
};

/* 1 when res's path is the agent's from q's start to its goal, each step legal, and costs
 * res->cost. */
static int path_ok(const nbb_grid *g, const nb_aa_query *q, enum brute_corner rule,
                   const double *cost, const nb_haa_result *r)
{
    if (r->path_len < 1 || r->path[0].x != q->start.x || r->path[0].y != q->start.y ||
        r->path[r->path_len - 1].x != q->goal.x || r->path[r->path_len - 1].y != q->goal.y)
        return 0;
    double c = 0;
    for (size_t i = 1; i < r->path_len; i++) {
        const nb_cell *a = &r->path[i - 1], *b = &r->path[i];
        if (!brute_step_ok(&legend, g, q->capability, q->size, rule, a->x, a->y, b->x, b->y))
            return 0;
        c += (a->x != b->x && a->y != b->y ? sqrt(2.0) : 1.0) *
             brute_square_cost(&legend, g, cost, q->size, b->x, b->y);
    }
    return fabs(c - r->cost) <= 1e-9 * (1 + c);
}

static void random_ends(tu_rng *rng, const nbb_grid *g, nb_aa_query *q)
{
    nb_cell *e[2] = {&q->start, &q->goal};
    for (int k = 0; k < 2; k++) {
        e[k]->x = (int32_t)tu_below(rng, g->width), e[k]->y = (int32_t)tu_below(rng, g->height);
        for (int t = 0; t < 20 && !brute_can_stand(&legend, g, q->capability, q->size, e[k]->x,
                                                    e[k]->y);
             t++)
            e[k]->x = (int32_t)tu_below(rng, g->width), e[k]->y = (int32_t)tu_below(rng, g->height);
    }
}

/* bound: the path costs no more than its abstract path, as when the query's corner rule is
 * the graph's or looser (refinement under a stricter rule may cost more than a baked arc). */
static void one_query(nb_haa *ws, const nbb_grid *g, const nb_aa_query *q, enum brute_corner rule,
                      int exact, int bound, struct tally *t)
{
    nb_err err;
    nb_haa_result r;
    t->queries++;
    if (tu_haa_find(ws, q, 0, &r, &err) != NB_OK) {
        if (t->bad++ < 4)
            diag("query failed: %s", err.msg);
        return;
    }
    double want = brute_cost_dijkstra(&legend, g, q->capability, q->size, rule, q->costs,
                                      q->start.x, q->start.y, q->goal.x, q->goal.y);
    int found = r.status == NB_PATH_FOUND;
    double tol = 1e-9 * (1 + want);
    int right = found == (want >= 0) &&
                (!found || (path_ok(g, q, rule, q->costs, &r) && r.cost >= want - tol &&
                            /* each abstract step weighs what its refinement costs, or more */
                            (!bound || r.abstract_len < 2 || r.cost <= r.abstract_length + tol) &&
                            r.cost <= BOUND * want + tol &&
                            (!exact || fabs(r.cost - want) <= tol)));
    if (!right && t->bad++ < 4)
        diag("(%d,%d)->(%d,%d) size %u cap %#x: %s cost %.9f (abstract path %.9f), Dijkstra "
             "%.9f", q->start.x, q->start.y, q->goal.x, q->goal.y, q->size, q->capability,
             nb_path_status_str(r.status), r.cost, r.abstract_length, want);
    if (found && want > 0 && r.cost / want > t->worst)
        t->worst = r.cost / want;
    t->exact += found && fabs(r.cost - want) <= tol;
    t->by_aa += found && r.abstract_len == 0; /* Annotated A* over the overlay answered */
    t->found += found;
    t->none += !found;
}

/* A bundle of g with agents of capabilities caps[0..2) and sizes 1-3, each twice: with random
 * costs, and without; its graph baked with o; opened, with an HAA* workspace. */
static nb_status bake(tu_rng *rng, const nbb_grid *g, const nb_capability *caps,
                      const nbb_abstract_opts *o, nbi_agentset *agents, nb_bundle **b,
                      nb_haa **ws, nb_err *err)
{
    const char *path = tu_path(tu_tmpdir(), "hc.nbk");
    memset(agents, 0, sizeof *agents);
    for (unsigned c = 0; c < 2; c++)
        for (unsigned s = 1; s <= 3; s++)
            for (int w = 0; w < 2; w++) {
                nb_agent *a = &agents->agent[agents->count++];
                snprintf(a->name, sizeof a->name, "c%us%u%s", c, s, w ? "w" : "");
                a->capability = caps[c];
                a->size = s;
                for (unsigned i = 0; i < NB_MAX_TERRAINS; i++)
                    a->cost[i] = w && (caps[c] >> i & 1u) && tu_below(rng, 3)
                                     ? 1 + tu_below(rng, 4000) / 1000.0
                                     : 1;
                for (unsigned i = 0; i < NB_MAX_TERRAINS; i++)
                    a->weighted |= a->cost[i] != 1;
            }
    *b = NULL;
    nb_status st = tu_write_cleared(path, &legend, agents, g, 0, err);
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, b, err);
    if (st == NB_OK)
        st = tu_add_abstract_opts(b, path, o, err);
    *ws = NULL;
    if (st == NB_OK)
        st = nb_haa_open(*b, ws, err);
    return st;
}

/* Under an overlay that blocks random rectangles: HAA* with costs against a plain Dijkstra with
 * the same costs on the map with the blocks as walls ('@'), which the path never enters. */
static void overlaid(tu_rng *rng, nb_bundle *b, nb_haa *ws, const nbb_grid *g,
                     const nbi_agentset *agents, const nbb_abstract_opts *o, int rule, int found)
{
    nb_err err;
    nb_overlay *ov;
    nbb_grid e = *g;
    e.cells = malloc((size_t)g->width * g->height);
    if (!ok(e.cells && nb_overlay_open(b, &ov, &err) == NB_OK, "overlaid: an overlay")) {
        free(e.cells);
        return;
    }
    memcpy(e.cells, g->cells, (size_t)g->width * g->height);
    for (int k = 0; k < 3; k++) {
        long w = 1 + (long)tu_below(rng, 4), h = 1 + (long)tu_below(rng, 4);
        long x = (long)tu_below(rng, g->width), y = (long)tu_below(rng, g->height);
        if (x + w > (long)g->width)
            w = (long)g->width - x;
        if (y + h > (long)g->height)
            h = (long)g->height - y;
        nb_overlay_block(ov, x, y, w, h, NULL);
        for (long j = y; j < y + h; j++)
            for (long i = x; i < x + w; i++)
                e.cells[(size_t)j * g->width + (size_t)i] = '@';
    }
    struct tally t = {0};
    uint64_t fell = nbi_haa_fallbacks(ws);
    /* Every 4th query under the other corner rule, whose repaired arcs' costs the search
     * weighs itself (the repair holds them for the graph's rule). */
    for (int k = 0; k < 40; k++) {
        nb_aa_query q;
        nb_aa_query_init(&q);
        nb_aa_query_agent(&q, &agents->agent[2 * (k % 6) + 1]);
        int r = k % 4 == 3 ? !rule : rule;
        q.corner = r ? NB_CORNER_WEAK : NB_CORNER_STRICT;
        q.overlay = ov;
        random_ends(rng, &e, &q);
        one_query(ws, &e, &q, (enum brute_corner)r, 0, r >= rule, &t);
    }
    ok(t.bad == 0,
       "overlaid: %ux%u, %s corners, clusters of %u: %d queries with costs under 3 blocks (%d "
       "found, %d none; %d found before the blocks)",
       g->width, g->height, rule ? "weak" : "strict", o->cluster, t.queries, t.found, t.none,
       found);
    /* The overlay repairs every quality's graph (low: with the ring beside the touched
     * clusters), costs included: no path by Annotated A* after meeting a block. */
    fell = nbi_haa_fallbacks(ws) - fell;
    ok(t.by_aa == 0 && fell == 0,
       "overlaid: %ux%u, %s corners, clusters of %u, %s quality: %d of %d paths by Annotated A* "
       "after a block, fallback counter %llu (the repair serves: none)",
       g->width, g->height, rule ? "weak" : "strict", o->cluster,
       nbb_abstract_quality_name(o->quality), t.by_aa, t.found, (unsigned long long)fell);
    nb_overlay_close(ov);
    free(e.cells);
}

static void test_random(tu_rng *rng)
{
    static const uint32_t shapes[][2] = {{6, 9}, {24, 24}, {40, 31}};
    static const uint32_t clusters[] = {3, 5, 8};
    static nbi_agentset agents;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        for (unsigned nt = 1; nt <= 4; nt++) {
            nbb_grid g;
            tu_random_grid(rng, shapes[sh][0], shapes[sh][1], 10 + 5 * nt, nt, &g);
            nb_capability caps[2] = {(1u << nt) - 1, 1u + tu_below(rng, (1u << nt) - 1)};
            for (int rule = 0; rule < 2; rule++) {
                nbb_abstract_opts o;
                nbb_abstract_defaults(&o);
                o.corner = rule ? NB_CORNER_WEAK : NB_CORNER_STRICT;
                /* One cluster over the whole map last: the exact graph. */
                for (size_t ck = 0; ck <= sizeof clusters / sizeof clusters[0]; ck++) {
                    int exact = ck == sizeof clusters / sizeof clusters[0];
                    o.cluster = exact ? (g.width > g.height ? g.width : g.height) : clusters[ck];
                    o.quality = (uint32_t)((ck + nt + sh) % 3);
                    o.paths = (int)((ck + nt) % 2);
                    nb_err err;
                    nb_bundle *b;
                    nb_haa *ws;
                    nb_status st = bake(rng, &g, caps, &o, &agents, &b, &ws, &err);
                    if (!ok(st == NB_OK, "random: %ux%u, %u terrains: baked with costs",
                            g.width, g.height, nt)) {
                        diag("%s", err.msg);
                        nb_bundle_close(b);
                        continue;
                    }
                    struct tally t = {0};
                    for (int k = 0; k < 40; k++) {
                        nb_aa_query q;
                        nb_aa_query_init(&q);
                        nb_aa_query_agent(&q, &agents.agent[2 * (k % 6) + 1]);
                        q.corner = o.corner;
                        random_ends(rng, &g, &q);
                        one_query(ws, &g, &q, (enum brute_corner)rule, exact, 1, &t);
                    }
                    ok(t.bad == 0,
                       "random: %ux%u, %u terrains, %s corners, clusters of %u, %s quality%s: %d "
                       "queries with costs (%d found, %d none, %d of least cost; worst %.3f x "
                       "Dijkstra's)%s",
                       g.width, g.height, nt, rule ? "weak" : "strict", o.cluster,
                       nbb_abstract_quality_name(o.quality), o.paths ? ", paths" : "", t.queries,
                       t.found, t.none, t.exact, t.worst, exact ? ": every one exact" : "");
                    overlaid(rng, b, ws, &g, &agents, &o, rule, t.found);
                    nb_haa_close(ws);
                    nb_bundle_close(b);
                }
            }
            nbb_grid_free(&g);
        }
}

/* Slices, multipliers of 1, an agent without a profile, lying sections. */
static void test_edges(tu_rng *rng)
{
    static nbi_agentset agents;
    nbb_grid g;
    tu_random_grid(rng, 48, 40, 18, 3, &g);
    nb_capability caps[2] = {7, 3};
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    o.cluster = 8;
    nb_err err;
    nb_bundle *b;
    nb_haa *ws;
    nb_status st = bake(rng, &g, caps, &o, &agents, &b, &ws, &err);
    if (!ok(st == NB_OK, "edges: baked")) {
        diag("%s", err.msg);
        nb_bundle_close(b);
        nbb_grid_free(&g);
        return;
    }
    /* Slices. */
    static nb_cell whole[48 * 40];
    int same = 1, n = 0;
    for (int k = 0; k < 30; k++) {
        nb_aa_query q;
        nb_aa_query_init(&q);
        nb_aa_query_agent(&q, &agents.agent[2 * (k % 6) + 1]);
        random_ends(rng, &g, &q);
        nb_haa_result r, s;
        if (tu_haa_find(ws, &q, 0, &r, &err) != NB_OK) {
            same = 0;
            continue;
        }
        size_t len = r.path_len;
        double cost = r.cost;
        if (len) /* no path: r.path is NULL */
            memcpy(whole, r.path, len * sizeof *whole);
        uint64_t slice = 1 + tu_below(rng, 20);
        int done = 0;
        st = tu_haa_begin(ws, &q, 0, &err);
        while (st == NB_OK && !done)
            st = nb_haa_step(ws, slice, &done, &err);
        if (st == NB_OK)
            st = nb_haa_finish(ws, &s, &err);
        n++;
        same &= st == NB_OK && s.status == r.status && s.path_len == len && s.cost == cost &&
                (len == 0 || memcmp(s.path, whole, len * sizeof *whole) == 0);
    }
    ok(same, "edges: %d queries with costs in slices of 1 to 20 give the unsliced paths", n);
    /* Multipliers of 1: the answers of no costs. */
    static const double ones[NB_MAX_TERRAINS] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    same = 1;
    for (int k = 0; k < 30; k++) {
        nb_aa_query q;
        nb_aa_query_init(&q);
        nb_aa_query_agent(&q, &agents.agent[2 * (k % 6)]);
        random_ends(rng, &g, &q);
        nb_haa_result r, s;
        st = tu_haa_find(ws, &q, 0, &r, &err);
        size_t len = r.path_len;
        if (len) /* no path: r.path is NULL */
            memcpy(whole, r.path, len * sizeof *whole);
        uint64_t expanded = r.expanded;
        q.costs = ones;
        if (st == NB_OK)
            st = tu_haa_find(ws, &q, 0, &s, &err);
        same &= st == NB_OK && s.status == r.status && s.path_len == len &&
                s.expanded == expanded && s.cost == s.cell_length &&
                (len == 0 || memcmp(s.path, whole, len * sizeof *whole) == 0);
    }
    ok(same, "edges: multipliers of 1 give the cells and expansions of no costs");
    /* Costs no profile has. */
    nb_aa_query q;
    nb_aa_query_init(&q);
    nb_aa_query_agent(&q, &agents.agent[1]);
    double other[NB_MAX_TERRAINS];
    memcpy(other, agents.agent[1].cost, sizeof other);
    other[0] += 0.5;
    q.costs = other;
    random_ends(rng, &g, &q);
    nb_haa_result r;
    st = tu_haa_find(ws, &q, 0, &r, &err);
    ok(st == NB_ERR_NOTFOUND && strstr(err.msg, "no abstract graph costs for {") &&
           strstr(err.msg, "mkabstract bakes one"),
       "edges: costs of no profile: %s", err.msg);
    nb_haa_close(ws);
    /* Lies: each refused when a workspace is made. */
    const char *path = tu_path(tu_tmpdir(), "hc.nbk"), *lie = tu_path(tu_tmpdir(), "lie.nbk");
    nb_bundle_close(b);
    nb_section_info info;
    size_t len;
    uint8_t *p = tu_section_take(path, NB_SEC_ABSTRACT_COSTS, &len, &info);
    if (!ok(p != NULL, "edges: a costs section to damage")) {
        nbb_grid_free(&g);
        return;
    }
    unsigned nt = legend.nterrains;
    /* The first arc that admits the profile's agent: its cost halved. */
    size_t first = 0;
    const uint8_t *arcs = p + NBI_ACOSTS_HEADER + 8 * (size_t)nt;
    while (first < info.param[2] && nbi_getf64(arcs + 8 * first) == 0)
        first++;
    static const struct {
        int what;
        const char *msg;
    } lies[] = {{0, "below the octile distance times the least multiplier"},
                {1, "baked for another abstract graph"},
                {2, "which the abstract graph does not serve"},
                {3, "does not admit the profile's agent but costs"}};
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        uint8_t *x = malloc(len);
        memcpy(x, p, len);
        nb_section_info in = info;
        if (lies[i].what == 0 && first < info.param[2])
            nbi_putf64(x + NBI_ACOSTS_HEADER + 8 * ((size_t)nt + first),
                       nbi_getf64(arcs + 8 * first) / 2);
        if (lies[i].what == 1) {
            nbi_put32(x + 4 * NBI_AC_GRAPH_CRC, info.param[3] ^ 1);
            in.param[3] ^= 1;
        }
        if (lies[i].what == 2) {
            nbi_put32(x + 4 * NBI_AC_SIZE, 9);
            in.param[1] = 9;
        }
        if (lies[i].what == 3) {
            size_t z = 0;
            while (z < info.param[2] && nbi_getf64(arcs + 8 * z) != 0)
                z++;
            if (z < info.param[2])
                nbi_putf64(x + NBI_ACOSTS_HEADER + 8 * ((size_t)nt + z), 3);
        }
        nb_bundle *lb = NULL;
        nb_haa *lw = NULL;
        st = tu_section_put(path, lie, &in, x, len) ? nb_bundle_open(lie, 0, NULL, &lb, &err)
                                                    : NB_ERR_IO;
        if (st == NB_OK)
            st = nb_haa_open(lb, &lw, &err);
        if (!ok(st == NB_ERR_FORMAT && strstr(err.msg, lies[i].msg), "edges: a lie refused: %s",
                err.msg))
            diag("status %d", (int)st);
        nb_haa_close(lw);
        nb_bundle_close(lb);
        free(x);
    }
    free(p);
    nbb_grid_free(&g);
}

/* A map of ../shared and its scenario lines, into g and scen: 1 when read (skipped when
 * ../shared is not there). */
static int read_scen(const char *rel, const char *what, nbb_grid *g, nbb_scen *scen)
{
    nb_err err;
    nb_status rd = tu_scen_level(rel, &legend, g, scen, &err);
    if (rd == NB_ERR_NOTFOUND) {
        skip(1, "%s", err.msg);
        return 0;
    }
    if (!ok(rd == NB_OK, "%s: %s read", what, rel)) {
        diag("%s", err.msg);
        return 0;
    }
    return 1;
}

/* Swamp at 1, 2 and 5 on two maps of ../shared/maps: HAA* against Annotated A*. */
static void test_scenarios(void)
{
    static const char *const maps[] = {"maps/wc3/bloodvenomfalls.map", "maps/wc3/battleground.map"};
    static const double swamp[] = {1, 2, 5};
    const char *every = getenv("NB_HAA_COSTS_EVERY");
    size_t step = every && atoi(every) > 0 ? (size_t)atoi(every) : 50;
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
        static nbi_agentset agents;
        nbb_grid g;
        nbb_scen scen = {NULL, 0};
        nb_err err;
        if (!read_scen(maps[m], "scenarios", &g, &scen))
            continue;
        tu_swamp_agents(&agents, swamp, 3);
        const char *path = tu_path(tu_tmpdir(), "scen.nbk");
        nb_bundle *b = NULL;
        nb_haa *hw = NULL;
        nb_aa *aw = NULL;
        nb_status st = tu_write_cleared(path, &legend, &agents, &g, 0, &err);
        if (st == NB_OK)
            st = nb_bundle_open(path, 0, NULL, &b, &err);
        if (st == NB_OK)
            st = tu_add_abstract(&b, path, 10, &err);
        if (st == NB_OK)
            st = nb_haa_open(b, &hw, &err);
        if (st == NB_OK)
            st = nb_aa_open(b, &aw, &err);
        if (ok(st == NB_OK, "scenarios: %s baked with its costs", maps[m])) {
            for (size_t k = 0; k < 3; k++) {
                int n = 0, bad = 0;
                double sum = 0, worst = 1;
                for (size_t i = 0; i < scen.count; i += step) {
                    const nbb_scen_line *l = &scen.lines[i];
                    nb_aa_query q;
                    nb_aa_query_init(&q);
                    nb_aa_query_agent(&q, &agents.agent[k]);
                    q.start = l->start;
                    q.goal = l->goal;
                    nb_aa_result ar;
                    nb_haa_result hr;
                    if (nb_aa_find(aw, &q, &ar, &err) != NB_OK ||
                        tu_haa_find(hw, &q, 0, &hr, &err) != NB_OK) {
                        if (bad++ < 3)
                            diag("line %u: %s", l->line, err.msg);
                        continue;
                    }
                    n++;
                    int right = (ar.status == NB_PATH_FOUND) == (hr.status == NB_PATH_FOUND) &&
                                (ar.status != NB_PATH_FOUND || hr.cost >= ar.cost - 1e-9 * ar.cost);
                    if (!right && bad++ < 3)
                        diag("line %u: AA* %s %.6f, HAA* %s %.6f", l->line,
                             nb_path_status_str(ar.status), ar.cost,
                             nb_path_status_str(hr.status), hr.cost);
                    if (ar.status == NB_PATH_FOUND && ar.cost > 0) {
                        sum += hr.cost / ar.cost;
                        if (hr.cost / ar.cost > worst)
                            worst = hr.cost / ar.cost;
                    }
                }
                ok(bad == 0,
                   "scenarios: %s, swamp %g: %d lines (every %zu-th): HAA* finds a path exactly "
                   "when AA* does, of no less cost (mean %.3f, worst %.3f x AA*'s)",
                   maps[m], swamp[k], n, step, n ? sum / n : 0, worst);
            }
        } else {
            diag("%s", err.msg);
        }
        nb_aa_close(aw);
        nb_haa_close(hw);
        nb_bundle_close(b);
        nbb_scen_free(&scen);
        nbb_grid_free(&g);
    }
}

/* Five clusters of 8 in a row; the last two joined by two entrances of their border (rows 1
 * and 6), which a low-quality graph's circuit condition makes one (the other's nodes go).
 * Walls split the first three into a top and a bottom corridor; a block that cuts the fourth
 * in two, leaving the fifth as baked, makes the only path from the first's bottom to the
 * third's top run through both entrances.  Without the ring of the repair (the fifth made
 * again beside the touched fourth) HAA* finds no path there. */
static void test_ring(void)
{
    static const char rows[] = "...............................@........"
                               "........................................"
                               "...............................@........"
                               "@@@@@@@@@@@@@@@@@@@@@@@@.......@........"
                               "@@@@@@@@@@@@@@@@@@@@@@@@.......@........"
                               "...............................@........"
                               "........................................"
                               "...............................@........";
    static const double swamp[] = {2};
    static nbi_agentset agents;
    nbb_grid g = {40, 8, (uint8_t *)rows};
    tu_swamp_agents(&agents, swamp, 1);
    const char *path = tu_path(tu_tmpdir(), "ring.nbk");
    nb_bundle *b = NULL;
    nb_haa *hw = NULL;
    nb_overlay *ov = NULL;
    nb_err err;
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    o.cluster = 8;
    o.quality = NBI_QUALITY_LOW;
    nb_status st = tu_write_cleared(path, &legend, &agents, &g, 0, &err);
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, &b, &err);
    if (st == NB_OK)
        st = tu_add_abstract_opts(&b, path, &o, &err);
    if (st == NB_OK)
        st = nb_haa_open(b, &hw, &err);
    if (st == NB_OK)
        st = nb_overlay_open(b, &ov, &err);
    if (st == NB_OK)
        st = nb_overlay_block(ov, 24, 3, 7, 2, &err);
    if (!ok(st == NB_OK, "ring: five clusters, low quality, a block across the fourth")) {
        diag("%s", err.msg);
    } else {
        /* Dijkstra on the map with the block as walls is the answer. */
        static char cut[sizeof rows];
        memcpy(cut, rows, sizeof rows);
        memset(cut + 3 * 40 + 24, '@', 7);
        memset(cut + 4 * 40 + 24, '@', 7);
        nbb_grid e = {40, 8, (uint8_t *)cut};
        for (int costs = 0; costs < 2; costs++) {
            nb_aa_query q;
            nb_aa_query_init(&q);
            nb_aa_query_agent(&q, &agents.agent[0]);
            if (!costs)
                q.costs = NULL;
            q.start = (nb_cell){0, 7};
            q.goal = (nb_cell){16, 0};
            q.overlay = ov;
            uint64_t fell = nbi_haa_fallbacks(hw);
            nb_haa_result r;
            double want = brute_cost_dijkstra(&legend, &e, q.capability, q.size, BRUTE_STRICT,
                                              q.costs, 0, 7, 16, 0);
            st = tu_haa_find(hw, &q, 0, &r, &err);
            ok(st == NB_OK && want > 0 && r.status == NB_PATH_FOUND &&
                   path_ok(&e, &q, BRUTE_STRICT, agents.agent[0].cost, &r) &&
                   r.cost >= want - 1e-9 * want && nbi_haa_fallbacks(hw) == fell,
               "ring: %s: HAA* goes round by the fifth cluster through both entrances (%s, cost "
               "%.3f, Dijkstra %.3f), fallback counter unchanged",
               costs ? "swamp 2" : "no costs", nb_path_status_str(r.status), r.cost, want);
        }
    }
    nb_overlay_close(ov);
    nb_haa_close(hw);
    nb_bundle_close(b);
}

/* n rectangles of 1 x 1 to 20 x 20 cells at random places, blocked by ov and made walls ('@')
 * in the edited copy e of the map. */
static void random_walls(tu_rng *rng, nb_overlay *ov, nbb_grid *e, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        long w = 1 + (long)tu_below(rng, 20), h = 1 + (long)tu_below(rng, 20);
        long x = (long)tu_below(rng, e->width), y = (long)tu_below(rng, e->height);
        w = x + w > (long)e->width ? (long)e->width - x : w;
        h = y + h > (long)e->height ? (long)e->height - y : h;
        nb_overlay_block(ov, x, y, w, h, NULL);
        for (long j = y; j < y + h; j++)
            for (long k = x; k < x + w; k++)
                e->cells[(size_t)j * e->width + (size_t)k] = '@';
    }
}

/* Swamp at 2 and 5 on the same maps under random overlays, high and low quality: HAA* against
 * Annotated A* under the same overlay (the file's comment). */
static void test_scen_blocks(tu_rng *rng)
{
    static const char *const maps[] = {"maps/wc3/bloodvenomfalls.map", "maps/wc3/battleground.map"};
    static const double swamp[] = {2, 5};
    static const uint32_t qualities[] = {NBI_QUALITY_HIGH, NBI_QUALITY_LOW};
    const char *every = getenv("NB_HAA_COSTS_EVERY");
    size_t step = every && atoi(every) > 0 ? (size_t)atoi(every) : 40;
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
        static nbi_agentset agents;
        nbb_grid g;
        nbb_scen scen = {NULL, 0};
        nb_err err;
        if (!read_scen(maps[m], "blocks", &g, &scen))
            continue;
        tu_swamp_agents(&agents, swamp, 2);
        nbb_grid e = g;
        e.cells = malloc((size_t)g.width * g.height);
        for (size_t qi = 0; qi < sizeof qualities / sizeof qualities[0]; qi++) {
            const char *path = tu_path(tu_tmpdir(), "blocks.nbk");
            nb_bundle *b = NULL;
            nb_haa *hw = NULL;
            nb_aa *aw = NULL;
            nb_overlay *ov = NULL;
            nbb_abstract_opts o;
            nbb_abstract_defaults(&o);
            o.cluster = 10;
            o.quality = qualities[qi];
            nb_status st = tu_write_cleared(path, &legend, &agents, &g, 0, &err);
            if (st == NB_OK)
                st = nb_bundle_open(path, 0, NULL, &b, &err);
            if (st == NB_OK)
                st = tu_add_abstract_opts(&b, path, &o, &err);
            if (st == NB_OK)
                st = nb_haa_open(b, &hw, &err);
            if (st == NB_OK)
                st = nb_aa_open(b, &aw, &err);
            if (st == NB_OK)
                st = nb_overlay_open(b, &ov, &err);
            if (!ok(st == NB_OK, "blocks: %s, %s quality: baked with its costs", maps[m],
                    nbi_quality_name(o.quality)))
                diag("%s", err.msg);
            for (size_t k = 0; st == NB_OK && k < 2; k++) {
                int n = 0, found = 0, bad = 0, illegal = 0;
                double sum = 0, worst = 1;
                uint64_t fell = nbi_haa_fallbacks(hw);
                for (size_t i = k; i < scen.count; i += step) {
                    /* A fresh overlay every fourth line, of 1 to 100 rectangles. */
                    if ((i / step) % 4 == 0) {
                        nb_overlay_clear(ov);
                        memcpy(e.cells, g.cells, (size_t)g.width * g.height);
                        random_walls(rng, ov, &e, 1 + tu_below(rng, 100));
                    }
                    nb_aa_query q;
                    nb_aa_query_init(&q);
                    nb_aa_query_agent(&q, &agents.agent[k]);
                    q.start = scen.lines[i].start;
                    q.goal = scen.lines[i].goal;
                    q.overlay = ov;
                    nb_aa_result ar;
                    nb_haa_result hr;
                    if (nb_aa_find(aw, &q, &ar, &err) != NB_OK ||
                        tu_haa_find(hw, &q, 0, &hr, &err) != NB_OK) {
                        if (bad++ < 3)
                            diag("line %u: %s", scen.lines[i].line, err.msg);
                        continue;
                    }
                    n++;
                    int af = ar.status == NB_PATH_FOUND, hf = hr.status == NB_PATH_FOUND;
                    double ratio = af && ar.cost > 0 ? hr.cost / ar.cost : 1;
                    int right = af == hf && (!hf || (ratio >= 1 - 1e-9 && ratio <= BOUND + 1e-9));
                    if (!right && bad++ < 3)
                        diag("line %u: AA* %s %.6f, HAA* %s %.6f", scen.lines[i].line,
                             nb_path_status_str(ar.status), ar.cost,
                             nb_path_status_str(hr.status), hr.cost);
                    if (hf && !path_ok(&e, &q, BRUTE_STRICT, agents.agent[k].cost, &hr) &&
                        illegal++ < 3)
                        diag("line %u: HAA*'s path of %zu cells is not legal on the edited map "
                             "or does not cost %.6f", scen.lines[i].line, hr.path_len, hr.cost);
                    if (af && hf) {
                        found++;
                        sum += ratio;
                        worst = ratio > worst ? ratio : worst;
                    }
                }
                fell = nbi_haa_fallbacks(hw) - fell;
                double mean = found ? sum / found : 1;
                ok(bad == 0 && illegal == 0 && found > 0 && mean <= MEAN_BOUND,
                   "blocks: %s, %s quality, swamp %g: %d lines (every %zu-th) under random "
                   "overlays, %d found: HAA* finds a path exactly when AA* does, legal on the "
                   "edited map, cost %.3f mean (<= %.2f), %.3f worst (<= %.1f) x AA*'s",
                   maps[m], nbi_quality_name(o.quality), swamp[k], n, step, found, mean,
                   MEAN_BOUND, worst, BOUND);
                ok(fell == 0, "blocks: %s, %s quality, swamp %g: fallback counter %llu (want 0)",
                   maps[m], nbi_quality_name(o.quality), swamp[k], (unsigned long long)fell);
            }
            nb_overlay_close(ov);
            nb_aa_close(aw);
            nb_haa_close(hw);
            nb_bundle_close(b);
        }
        free(e.cells);
        nbb_scen_free(&scen);
        nbb_grid_free(&g);
    }
}

int main(void)
{
    tu_rng rng = {0x4aac057ULL};
    nbi_legend_default(&legend);
    test_random(&rng);
    test_edges(&rng);
    test_scenarios();
    test_ring();
    test_scen_blocks(&rng);
    return done_testing();
}
