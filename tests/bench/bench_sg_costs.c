/* bench_sg_costs: the optimal layer with terrain costs (issue 32 item 2)
 * against Annotated A* with the same costs, on the three maps of
 * ../shared/maps that test_sg_costs uses (wc3 battleground,
 * bloodvenomfalls, blastedlands) and every line of their scenario files.
 *
 * An agent of {ground, swamp, water}, size 1, strict corners, two profiles
 * (swamp 2.5 and water 3; swamp 5 and water 1.5).  Per map: the layer's
 * bake time and bytes (the subgoal section, without costs); per profile:
 * the time and bytes of customizing the layer to it (the first query,
 * sgcsearch.c; bytes as nb_sg_bytes grows), the customized graph's nodes
 * and edges, and the mean microseconds per query of each over every line
 * (the thread's CPU time, so that a loaded machine's waits do not count),
 * with the lines whose costs differ (0 expected).
 *
 * Under an overlay (issue 32 items 1 and 2; -o N, default 100, 0: none):
 * one overlay a map of N random rectangles of 1 x 1 to 20 x 20 cells (a
 * fixed seed), and each line asked in turn of the layer without it, the
 * layer under it and Annotated A* under it (thread CPU time each): the
 * mean microseconds of each, the layer's time under the overlay over its
 * time without, the lines whose least cost the blocks raised, those whose
 * costs differ from Annotated A*'s under the overlay (0 expected) and
 * those the layer handed to Annotated A* (fallback, 0 expected).  Not part
 * of make check: 'make bench-sg-costs' (tests/bench/results/optimal-bench.md
 * has its output). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "subgoal/subgoal.h"
#include "testutil.h"

#define CAP 7u

static double cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void die(const char *what, const nb_err *err)
{
    fprintf(stderr, "bench_sg_costs: %s: %s\n", what, err ? err->msg : "");
    exit(1);
}

/* Each line in turn: the layer without the overlay, under it, and Annotated A* under it. */
static void under_overlay(nb_bundle *b, nb_aa *aa, const nbb_grid *g, const nbb_scen *scen,
                          const double *profile, int p, int blocks)
{
    nb_err err;
    nb_overlay *ov;
    nb_sg *sg;
    if (nb_overlay_open(b, &ov, &err) != NB_OK || nb_sg_open(b, &sg, &err) != NB_OK)
        die("open", &err);
    tu_rng rng = {0xb10c5u + (uint64_t)p};
    for (int i = 0; i < blocks; i++) {
        long bw = 1 + (long)tu_below(&rng, 20), bh = 1 + (long)tu_below(&rng, 20);
        long x = (long)tu_below(&rng, g->width), y = (long)tu_below(&rng, g->height);
        bw = x + bw > (long)g->width ? (long)g->width - x : bw;
        bh = y + bh > (long)g->height ? (long)g->height - y : bh;
        if (nb_overlay_block(ov, x, y, bw, bh, &err) != NB_OK)
            die("nb_overlay_block", &err);
    }
    nb_sg_query q;
    nb_sg_query_init(&q);
    q.capability = CAP;
    q.costs = profile;
    nb_aa_query aq;
    nb_aa_query_init(&aq);
    aq.capability = CAP;
    aq.costs = profile;
    aq.overlay = ov;
    double us_free = 0, us_ov = 0, us_aa = 0;
    size_t raised = 0, differ = 0, fallback = 0;
    for (size_t i = 0; i < scen->count; i++) {
        q.start = aq.start = scen->lines[i].start;
        q.goal = aq.goal = scen->lines[i].goal;
        nb_sg_result r0, r1;
        nb_aa_result ar;
        q.overlay = NULL;
        double t0 = cpu_us();
        nb_status s0 = nb_sg_find(sg, &q, &r0, &err);
        double t1 = cpu_us();
        q.overlay = ov;
        nb_status s1 = nb_sg_find(sg, &q, &r1, &err);
        double t2 = cpu_us();
        nb_status s2 = nb_aa_find(aa, &aq, &ar, &err);
        double t3 = cpu_us();
        us_free += t1 - t0;
        us_ov += t2 - t1;
        us_aa += t3 - t2;
        fallback += s1 == NB_OK && r1.fallback;
        differ += s1 != NB_OK || s2 != NB_OK || r1.status != ar.status ||
                  fabs(r1.cost - ar.cost) > 1e-9 * (1 + ar.cost);
        raised += s0 == NB_OK && r0.status == NB_PATH_FOUND &&
                  (r1.status != NB_PATH_FOUND || r1.cost > r0.cost + 1e-9 * (1 + r0.cost));
    }
    double n = (double)scen->count;
    printf("  profile %d under %d rectangles: layer %.1f us without the overlay, %.1f us under "
           "it (%.2fx), Annotated A* under it %.1f us (%.1fx the layer); lines raised %zu, "
           "differing %zu, fallback %zu\n",
           p + 1, blocks, us_free / n, us_ov / n, us_ov / us_free, us_aa / n, us_aa / us_ov, raised,
           differ, fallback);
    nb_sg_close(sg);
    nb_overlay_close(ov);
}

static void run_map(const char *rel, const double profile[2][NB_MAX_TERRAINS], int blocks)
{
    nbi_legend legend;
    nbb_grid g;
    nbb_scen scen;
    nb_err err;
    nbi_legend_default(&legend);
    if (tu_scen_level(rel, &legend, &g, &scen, &err) != NB_OK)
        die(rel, &err);
    nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    nb_agent *ag = &agents.agent[agents.count++];
    snprintf(ag->name, sizeof ag->name, "a");
    ag->capability = CAP;
    ag->size = 1;
    const char *path = tu_path(tu_tmpdir(), "bench-sgc.nbk");
    double t0 = cpu_us();
    if (tu_bake_optimal(path, &legend, &agents, &g, NBB_CORNERS_STRICT, &err) != NB_OK)
        die("bake", &err);
    double bake_ms = (cpu_us() - t0) / 1e3;
    nb_bundle *b;
    nb_aa *aa;
    if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK || nb_aa_open(b, &aa, &err) != NB_OK)
        die("open", &err);
    uint64_t layer_bytes = 0;
    for (size_t i = 0; i < nb_bundle_section_count(b); i++)
        if (nb_bundle_section_get(b, i)->type == NB_SEC_SUBGOAL)
            layer_bytes += nb_bundle_section_get(b, i)->usize;
    printf("%s (%ux%u, %zu lines): layer bake %.0f ms (CPU, with the clearance), %llu bytes\n",
           rel, g.width, g.height, scen.count, bake_ms, (unsigned long long)layer_bytes);
    for (int p = 0; p < 2; p++) {
        /* The customized graph alone, for its nodes and edges and the time to make it. */
        uint32_t nodes = 0;
        size_t edges = 0;
        double build_ms = 0;
        for (size_t i = 0; i < nb_bundle_section_count(b); i++) {
            nbi_sglayer L;
            nbi_costs c;
            memset(&c, 0, sizeof c);
            if (nb_bundle_section_get(b, i)->type != NB_SEC_SUBGOAL)
                continue;
            nbi_sgc *sgc = nbi_sgc_new(NULL);
            if (!sgc || nbi_sglayer_at(b, i, &L, &err) != NB_OK ||
                nbi_costs_make(&c, b, CAP, 1, profile[p], &err) != NB_OK)
                die("the layer", &err);
            t0 = cpu_us();
            if (nbi_sgc_begin(sgc, &L, &c, profile[p], NULL, scen.lines[0].start, scen.lines[0].goal, 0,
                              0, &err) != NB_OK)
                die("customizing", &err);
            build_ms = (cpu_us() - t0) / 1e3;
            nodes = nbi_sgc_nodes(sgc, &edges);
            nbi_sgc_free(sgc);
        }
        nb_sg *sg; /* a workspace of its own: its bytes are the profile's */
        if (nb_sg_open(b, &sg, &err) != NB_OK)
            die("open", &err);
        nb_sg_query q;
        nb_sg_query_init(&q);
        q.capability = CAP;
        q.costs = profile[p];
        q.start = scen.lines[0].start;
        q.goal = scen.lines[0].goal;
        nb_sg_result r;
        size_t before = nb_sg_bytes(sg);
        t0 = cpu_us();
        if (nb_sg_find(sg, &q, &r, &err) != NB_OK)
            die("first query", &err);
        double custom_ms = (cpu_us() - t0) / 1e3;
        size_t custom_bytes = nb_sg_bytes(sg) - before;
        double us_sg = 0, us_aa = 0;
        size_t differ = 0;
        uint64_t exp_sg = 0, exp_aa = 0;
        for (size_t i = 0; i < scen.count; i++) {
            q.start = scen.lines[i].start;
            q.goal = scen.lines[i].goal;
            nb_aa_query aq;
            nb_aa_query_init(&aq);
            aq.start = q.start;
            aq.goal = q.goal;
            aq.capability = CAP;
            aq.costs = profile[p];
            nb_aa_result ar;
            double a = cpu_us();
            nb_status s1 = nb_sg_find(sg, &q, &r, &err);
            double m = cpu_us();
            nb_status s2 = nb_aa_find(aa, &aq, &ar, &err);
            double e = cpu_us();
            us_sg += m - a;
            us_aa += e - m;
            exp_sg += r.expanded;
            exp_aa += ar.expanded;
            differ += s1 != NB_OK || s2 != NB_OK || r.status != ar.status ||
                      fabs(r.cost - ar.cost) > 1e-9 * (1 + ar.cost);
        }
        printf("  profile %d: customized graph %u nodes, %zu edges, %.1f ms (CPU)\n", p + 1, nodes,
               edges, build_ms);
        printf("  profile %d: first query %.1f ms (CPU), %zu bytes; query %.1f us, "
               "Annotated A* %.1f us (%.1fx); expanded %.1f vs %.1f; lines differing %zu\n",
               p + 1, custom_ms, custom_bytes, us_sg / (double)scen.count,
               us_aa / (double)scen.count, us_aa / us_sg, (double)exp_sg / (double)scen.count,
               (double)exp_aa / (double)scen.count, differ);
        nb_sg_close(sg);
        if (blocks > 0)
            under_overlay(b, aa, &g, &scen, profile[p], p, blocks);
    }
    nb_aa_close(aa);
    nb_bundle_close(b);
    nbb_scen_free(&scen);
    nbb_grid_free(&g);
}

int main(int argc, char **argv)
{
    int blocks = 100;
    if (argc == 3 && strcmp(argv[1], "-o") == 0)
        blocks = atoi(argv[2]);
    else if (argc != 1) {
        fprintf(stderr, "usage: bench_sg_costs [-o RECTANGLES]\n");
        return 2;
    }
    static const char *const maps[] = {"maps/wc3/battleground.map", "maps/wc3/bloodvenomfalls.map",
                                       "maps/wc3/blastedlands.map"};
    double profile[2][NB_MAX_TERRAINS];
    for (int p = 0; p < 2; p++)
        for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
            profile[p][t] = 1;
    profile[0][1] = 2.5, profile[0][2] = 3; /* swamp, water: test_sg_costs's profiles */
    profile[1][1] = 5, profile[1][2] = 1.5;
    if (!tu_shared("maps")) {
        fprintf(stderr, "bench_sg_costs: needs ../shared/maps (NB_SHARED)\n");
        return 77;
    }
    /* Each line as it is made: on a machine shared by many, a run of about two minutes of CPU
     * takes half an hour and more of wall time, and one stopped by a timeout (round 9's, at
     * 900 s) should keep the maps it finished. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (size_t m = 0; m < sizeof maps / sizeof *maps; m++)
        run_map(maps[m], profile, blocks);
    return 0;
}
