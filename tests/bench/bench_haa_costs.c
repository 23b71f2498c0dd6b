/* bench_haa_costs: HAA* for agents with terrain costs (issue 18) against
 * Annotated A*'s least cost, on the two maps of ../shared/maps with swamp
 * (wc3/bloodvenomfalls and wc3/battleground) and their scenario files.
 *
 * Agents of {ground, swamp}, size 1, whose swamp costs 1, 2 and 5 (the
 * first has no costs: the graph's own weights; the others plan on the
 * graph's costs for their profile, formats/abstract.md).  For each map,
 * graph quality (high, low; clusters of 10) and agent, every scenario line
 * runs through Annotated A* (least cost) and HAA* (the refined path) in
 * the same run; it prints, per profile, how often both agree on whether
 * there is a path, HAA*'s error against the least cost (mean, 95th
 * percentile, largest) and the share of exact answers, the microseconds
 * per query of each, and what the profile's costs add to the bundle.
 * Each row is run twice: without an overlay, and under one that blocks
 * BLOCKS random rectangles of 1 x 1 to 20 x 20 cells (issue 32 item 3),
 * where it also counts HAA*'s paths that Annotated A* over the overlay
 * found after the graph's path met a block (the workspace's fallback
 * counter, nbi_haa_fallbacks): none where the overlay repairs the graph's
 * clusters (every quality; low with the ring beside the touched clusters,
 * abstract/repair.c).  NB_BENCH_QUALITY=high or low runs that quality
 * alone.
 * Not part of make check: 'make bench-haa-costs' (tests/bench/results/haa-bench.md
 * has its output). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "abstract/haa.h"
#include "testutil.h"

#define BLOCKS 100 /* rectangles blocked by the overlay */

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void die(const char *what, const nb_err *err)
{
    fprintf(stderr, "bench_haa_costs: %s: %s\n", what, err ? err->msg : "");
    exit(1);
}

/* One table row: every scenario line through Annotated A* and HAA* for agent a under
 * overlay ov (NULL: none). */
typedef struct row {
    size_t n, same, by_aa;
    double exact_pct, mean, p95, max, us_haa, us_aa;
    char by_aa_s[32];
} row;

static row run(nb_aa *aw, nb_haa *hw, const nb_agent *a, const nbb_scen *scen,
               const nb_overlay *ov, double *err_pct)
{
    row r;
    memset(&r, 0, sizeof r);
    nb_err err;
    nb_aa_query q;
    nb_aa_query_init(&q);
    nb_aa_query_agent(&q, a);
    q.overlay = ov;
    size_t exact = 0, both = 0, found = 0;
    uint64_t fell = nbi_haa_fallbacks(hw);
    double sum = 0;
    for (size_t i = 0; i < scen->count; i++) {
        q.start = scen->lines[i].start;
        q.goal = scen->lines[i].goal;
        nb_aa_result ar;
        nb_haa_result hr;
        double t0 = now_us();
        if (nb_aa_find(aw, &q, &ar, &err) != NB_OK)
            die("nb_aa_find", &err);
        double t1 = now_us();
        if (tu_haa_find(hw, &q, 0, &hr, &err) != NB_OK)
            die("nb_haa_find", &err);
        double t2 = now_us();
        r.us_aa += t1 - t0;
        r.us_haa += t2 - t1;
        r.n++;
        int af = ar.status == NB_PATH_FOUND, hf = hr.status == NB_PATH_FOUND;
        r.same += af == hf;
        found += hf;

        if (af && hf && ar.cost > 0) {
            double e = (hr.cost - ar.cost) / ar.cost * 100;
            err_pct[both++] = e;
            sum += e;
            exact += fabs(hr.cost - ar.cost) <= 1e-9 * ar.cost;
        }
    }
    /* Annotated A* over the overlay answered for HAA* (haa.c: the path met a block). */
    r.by_aa = (size_t)(nbi_haa_fallbacks(hw) - fell);
    qsort(err_pct, both, sizeof *err_pct, by_value);
    r.exact_pct = both ? 100.0 * (double)exact / (double)both : 0;
    r.mean = both ? sum / (double)both : 0;
    r.p95 = both ? err_pct[(size_t)(0.95 * (double)(both - 1))] : 0;
    r.max = both ? err_pct[both - 1] : 0;
    r.us_haa = r.n ? r.us_haa / (double)r.n : 0;
    r.us_aa = r.n ? r.us_aa / (double)r.n : 0;
    snprintf(r.by_aa_s, sizeof r.by_aa_s, "%zu of %zu", r.by_aa, found);
    return r;
}

/* Blocks n rectangles of 1 x 1 to 20 x 20 cells at random places of a w x h map. */
static void random_blocks(nb_overlay *ov, uint32_t w, uint32_t h, int n, tu_rng *rng)
{
    for (int i = 0; i < n; i++) {
        long bw = 1 + (long)tu_below(rng, 20), bh = 1 + (long)tu_below(rng, 20);
        long x = (long)tu_below(rng, w), y = (long)tu_below(rng, h);
        if (x + bw > (long)w)
            bw = (long)w - x;
        if (y + bh > (long)h)
            bh = (long)h - y;
        nb_err err;
        if (nb_overlay_block(ov, x, y, bw, bh, &err) != NB_OK)
            die("nb_overlay_block", &err);
    }
}

int main(void)
{
    static const char *const maps[] = {"maps/wc3/bloodvenomfalls.map", "maps/wc3/battleground.map"};
    static const double swamp[] = {1, 2, 5};
    static const uint32_t qualities[] = {NBI_QUALITY_HIGH, NBI_QUALITY_LOW};
    nbi_legend legend;
    nbi_legend_default(&legend);
    if (!tu_shared(maps[0])) {
        printf("bench_haa_costs: SKIP: ../shared/maps is absent (set NB_SHARED)\n");
        return 0;
    }
    printf("### bench_haa_costs: HAA* with terrain costs against Annotated A*'s least cost\n\n");
    printf("Agents of {ground, swamp}, size 1; clusters of 10, strict corners; every scenario "
           "line, HAA*'s refined path (flags 0). Error: (HAA*'s cost - AA*'s) / AA*'s, in %%. "
           "\"same\": both find a path, or neither. Microseconds per query, AA* and HAA* in the "
           "same run, each query once.\n\n");
    printf("Overlay \"blocks\": %d rectangles of 1 x 1 to 20 x 20 cells at random places "
           "(the same for every agent and quality of a map), asked of both; \"by AA*\": HAA*'s "
           "paths that came from Annotated A* over the overlay after the graph's path met a "
           "block (the fallback a repair of the clusters makes unneeded).\n\n",
           BLOCKS);
    printf("| map | quality | swamp | overlay | lines | same | exact | mean error %% | p95 %% | "
           "max %% | HAA* us | AA* us | by AA* | graph bytes | costs bytes |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
        static nbi_agentset agents;
        nbb_grid g;
        nbb_scen scen = {NULL, 0};
        nb_err err;
        if (tu_scen_level(maps[m], &legend, &g, &scen, &err) != NB_OK)
            die(maps[m], &err);
        tu_swamp_agents(&agents, swamp, 3);
        double *err_pct = malloc((scen.count + 1) * sizeof *err_pct);
        for (size_t qi = 0; qi < sizeof qualities / sizeof qualities[0]; qi++) {
            const char *only = getenv("NB_BENCH_QUALITY");
            if (only && strcmp(only, nbi_quality_name(qualities[qi])) != 0)
                continue;
            const char *path = tu_path(tu_tmpdir(), "costs.nbk");
            nb_bundle *b = NULL;
            nb_haa *hw = NULL;
            nb_aa *aw = NULL;
            nbb_abstract_opts o;
            nbb_abstract_defaults(&o);
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
            if (st != NB_OK)
                die("bake", &err);
            uint64_t graph_bytes = 0, costs_bytes = 0;
            for (size_t i = 0; i < nb_bundle_section_count(b); i++) {
                const nb_section_info *in = nb_bundle_section_get(b, i);
                if (in->type == NB_SEC_ABSTRACT)
                    graph_bytes += in->usize;
            }
            /* The same random blocks for every agent and quality of a map. */
            nb_overlay *ov = NULL;
            tu_rng rng = {0x5eed0032u + m};
            if (nb_overlay_open(b, &ov, &err) != NB_OK)
                die("nb_overlay_open", &err);
            random_blocks(ov, g.width, g.height, BLOCKS, &rng);
            for (size_t k = 0; k < 3; k++) {
                costs_bytes = 0;
                for (size_t i = 0; i < nb_bundle_section_count(b); i++) {
                    const nb_section_info *in = nb_bundle_section_get(b, i);
                    if (in->type == NB_SEC_ABSTRACT_COSTS && in->param[4] + 1 == k)
                        costs_bytes = in->usize; /* profiles 0, 1: swamp 2 and 5 */
                }
                for (int with = 0; with < 2; with++) {
                    row r = run(aw, hw, &agents.agent[k], &scen, with ? ov : NULL, err_pct);
                    printf("| %s | %s | %g | %s | %zu | %zu | %.1f%% | %.2f | %.2f | %.2f | "
                           "%.0f | %.0f | %s | %llu | %llu |\n",
                           strrchr(maps[m], '/') + 1, nbi_quality_name(qualities[qi]), swamp[k],
                           with ? "blocks" : "none", r.n, r.same, r.exact_pct, r.mean, r.p95,
                           r.max, r.us_haa, r.us_aa, with ? r.by_aa_s : "",
                           (unsigned long long)graph_bytes, (unsigned long long)costs_bytes);
                    fflush(stdout);
                }
            }
            nb_overlay_close(ov);
            nb_aa_close(aw);
            nb_haa_close(hw);
            nb_bundle_close(b);
        }
        free(err_pct);
        nbb_scen_free(&scen);
        nbb_grid_free(&g);
    }
    return 0;
}
