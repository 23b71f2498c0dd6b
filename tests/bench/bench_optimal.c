/* bench_optimal: the optimal-search layer (subgoal graphs, nb_sg_find)
 * against Annotated A* (nb_aa_find) in the same run, on the same queries:
 * the MovingAI scenario lines of ../shared/maps (an even sample of each
 * file), for agents of sizes 1, 2 and 3 that walk on ground and swamp
 * (MovingAI's assumption) and one of size 1 that walks on ground and
 * trees (a second capability, which opens the DAO maps' forests).  For
 * sizes above 1 and the other capability the same pairs are run where the
 * agent can stand at both ends.  With -w, also the weak corner rule
 * (sizes 1 and 2 on ground and swamp, layers baked for both rules, against
 * AA* with weak corners).  Every length is checked: the layer's against
 * AA*'s, and for size 1 on ground and swamp, strict, against the file's.
 *
 * Prints, for each map, the layer's bake time (all four layers) and bytes
 * per cell, then per agent the mean microseconds and expansions per query
 * of each method and their ratio, by path length bucket (<64, 64-127,
 * 128-255, 256-511, 512+) and overall, and the layer's time for the
 * turning points alone (waypoints_only, no cells); each query's time is the fastest
 * of three runs.  With -o, also the layer under random overlays against
 * itself without them, on the same lines in the same run (run_overlays);
 * -O, that alone; -P, an overlay kept over groups of lines instead
 * (run_prepared: the first pass under it and the queries after).  -c times by the thread's CPU time, not the wall clock.
 * Not part of make check:
 * 'make bench-optimal' (tests/bench/results/optimal-bench.md). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bake_int.h"
#include "clearance/clearance_build.h"
#include "subgoal/subgoal_build.h"
#include "subgoal/subgoal.h"
#include "testutil.h"

#define NB_BUCKETS 6 /* five length buckets, then all */
static const char *const bucket_name[NB_BUCKETS] = {"<64", "64-127", "128-255", "256-511", "512+",
                                                    "all"};

static int cpu_time; /* -c: the thread's CPU time, not the wall clock (a loaded machine) */

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(cpu_time ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int bucket_of(double len)
{
    return len < 64 ? 0 : len < 128 ? 1 : len < 256 ? 2 : len < 512 ? 3 : 4;
}

typedef struct tally {
    double n[NB_BUCKETS], aa_us[NB_BUCKETS], sg_us[NB_BUCKETS], tp_us[NB_BUCKETS],
        aa_exp[NB_BUCKETS], sg_exp[NB_BUCKETS];
} tally;

static const char *const default_maps[] = {
    "dao/brc202d", "dao/orz900d", "dao/ost003d", "mazes/maze512-4-0", "rooms/8room_000",
    "random/random512-40-5", "bg/AR0042SR", "sc1/AcrosstheCape", "wc3/battleground",
    "random/random512-10-0", "street/Paris_0_512"};

struct agent {
    const char *name;
    nb_capability cap;
    uint32_t size;
    nb_corner corner;
};
/* ground 1, swamp 2, water 4, trees 8 in the default legend.  The first
 * NAGENTS make the agent set (its capability x size pairs); with -w the
 * weak-corner ones run too, on layers baked for both rules. */
static const struct agent agents_run[] = {
    {"ground+swamp, size 1", 3, 1, NB_CORNER_STRICT},
    {"ground+swamp, size 2", 3, 2, NB_CORNER_STRICT},
    {"ground+swamp, size 3", 3, 3, NB_CORNER_STRICT},
    {"ground+trees, size 1", 9, 1, NB_CORNER_STRICT},
    {"ground+swamp, size 1, weak corners", 3, 1, NB_CORNER_WEAK},
    {"ground+swamp, size 2, weak corners", 3, 2, NB_CORNER_WEAK},
};
#define NAGENTS 4
#define NRUN (sizeof agents_run / sizeof agents_run[0])
static int weak_too; /* -w */

static long wrong; /* lengths that disagree, over the run */
static int overlays; /* -o; -O: only that */
#define SGOV_DEFAULT UINT64_MAX /* sgsearch.c's SGOV_BUDGET */
#define NVARIANT 3
static const uint64_t variant_budget[NVARIANT] = {0, 256, SGOV_DEFAULT};

/* A rectangle of 1 x 1 to 20 x 20 cells round (cx, cy), clipped to the map. */
static void block_near(nb_overlay *ov, tu_rng *r, uint32_t w, uint32_t h, long cx, long cy)
{
    long bw = 1 + (long)tu_below(r, 20), bh = 1 + (long)tu_below(r, 20);
    long x = cx - (long)tu_below(r, (uint32_t)bw), y = cy - (long)tu_below(r, (uint32_t)bh);
    x = x < 0 ? 0 : x;
    y = y < 0 ? 0 : y;
    bw = x + bw > (long)w ? (long)w - x : bw;
    bh = y + bh > (long)h ? (long)h - y : bh;
    nb_overlay_block(ov, x, y, bw, bh, NULL);
}

/* -o: the layer on the same lines without an overlay and under one of its own per query (1
 * to 100 rectangles of 1 x 1 to 20 x 20 cells, none to three over the unblocked path's cells
 * away from its ends, the rest anywhere), size 1 on ground and swamp, strict corners: with
 * its search round the blocks given no node (Annotated A* answers where a block cuts the
 * layer's path), 256 nodes, or no budget (the default), and Annotated A* alone; each time the
 * fastest of three, lengths checked against Annotated A*'s under the same overlay, queries
 * counted by what the blocks did to their answer. */
static void run_overlays(const char *name, const nb_bundle *nb, nb_aa *aa, nb_sg *sg,
                         const nbb_scen *scen, size_t stride)
{
    nb_overlay *ov = NULL;
    nb_err err;
    if (nb_overlay_open(nb, &ov, &err) != NB_OK) {
        printf("%s: no overlay: %s\n\n", name, err.msg);
        return;
    }
    tu_rng r = {0x0ff1ce};
    double cnt[3] = {0}, plain[3] = {0}, aa_t[3] = {0}, vt[3][NVARIANT] = {{0}}, vfall[NVARIANT] = {0};
    for (size_t li = 0; li < scen->count; li += stride) {
        const nbb_scen_line *l = &scen->lines[li];
        nb_sg_query sq;
        nb_sg_query_init(&sq);
        sq.size = 1;
        sq.capability = 3;
        sq.start = l->start;
        sq.goal = l->goal;
        nb_sg_result sr;
        double t_plain = INFINITY, t_aa = INFINITY;
        for (int rep = 0; rep < 3; rep++) {
            double a0 = now_us();
            nb_sg_find(sg, &sq, &sr, &err);
            t_plain = fmin(t_plain, now_us() - a0);
        }
        if (sr.status != NB_PATH_FOUND || sr.path_len < 3)
            continue;
        double base_len = sr.length;
        nb_overlay_clear(ov);
        unsigned rects = 1 + tu_below(&r, 100), on = tu_below(&r, 4);
        for (unsigned i = 0; i < rects; i++) {
            if (i < on) {
                const nb_cell *c = &sr.path[1 + tu_below(&r, (uint32_t)(sr.path_len - 2))];
                block_near(ov, &r, nb_map_width(nb), nb_map_height(nb), c->x, c->y);
            } else {
                block_near(ov, &r, nb_map_width(nb), nb_map_height(nb), (long)tu_below(&r, nb_map_width(nb)),
                           (long)tu_below(&r, nb_map_height(nb)));
            }
        }
        sq.overlay = ov;
        nb_aa_query aq;
        nb_aa_query_init(&aq);
        aq.size = 1;
        aq.capability = 3;
        aq.start = l->start;
        aq.goal = l->goal;
        aq.overlay = ov;
        nb_aa_result ar;
        /* The layer with each budget of its search round the blocks, then Annotated A*. */
        double tv[NVARIANT];
        int bad = 0;
        for (int v = 0; v < NVARIANT; v++) {
            nbi_sg_set_overlay_budget(sg, variant_budget[v]);
            tv[v] = INFINITY;
            for (int rep = 0; rep < 3; rep++) {
                double a0 = now_us();
                bad |= nb_sg_find(sg, &sq, &sr, &err) != NB_OK;
                tv[v] = fmin(tv[v], now_us() - a0);
            }
            vfall[v] += sr.fallback != 0;
            if (v < NVARIANT - 1)
                continue;
            for (int rep = 0; rep < 3; rep++) {
                double a0 = now_us();
                bad |= nb_aa_find(aa, &aq, &ar, &err) != NB_OK;
                t_aa = fmin(t_aa, now_us() - a0);
            }
        }
        nbi_sg_set_overlay_budget(sg, SGOV_DEFAULT);
        if (bad || ar.status != sr.status ||
            (ar.status == NB_PATH_FOUND && fabs(ar.length - sr.length) > 1e-6)) {
            if (wrong++ < 10)
                fprintf(stderr, "%s line %u under an overlay: AA* %s %.6f, optimal %s %.6f\n",
                        name, l->line, nb_path_status_str(ar.status), ar.length,
                        nb_path_status_str(sr.status), sr.length);
            continue;
        }
        int kind = sr.status != NB_PATH_FOUND ? 2 : sr.length > base_len + 1e-9 ? 1 : 0;
        cnt[kind]++;
        plain[kind] += t_plain;
        aa_t[kind] += t_aa;
        for (int v = 0; v < NVARIANT; v++)
            vt[kind][v] += tv[v];
    }
    double n = cnt[0] + cnt[1] + cnt[2];
    if (!n) {
        nb_overlay_close(ov);
        return;
    }
    printf("Under overlays (size 1, ground and swamp, strict; mean us per query, each the fastest "
           "of three; the budget is the nodes the search round the blocks may expand before "
           "Annotated A* answers):\n\n"
           "| queries | n | without overlay | budget 0 | budget 256 | no budget (default) | "
           "Annotated A* |\n|---|---:|---:|---:|---:|---:|---:|\n");
    static const char *const kname[3] = {"the same length", "made longer", "cut off"};
    for (int k = 0; k < 4; k++) {
        double c = k < 3 ? cnt[k] : n;
        if (!c)
            continue;
        double p = k < 3 ? plain[k] : plain[0] + plain[1] + plain[2];
        double a = k < 3 ? aa_t[k] : aa_t[0] + aa_t[1] + aa_t[2];
        printf("| %s | %.0f | %.1f |", k < 3 ? kname[k] : "**all**", c, p / c);
        for (int v = 0; v < NVARIANT; v++)
            printf(" %.1f (%.2fx) |", (k < 3 ? vt[k][v] : vt[0][v] + vt[1][v] + vt[2][v]) / c,
                   (k < 3 ? vt[k][v] : vt[0][v] + vt[1][v] + vt[2][v]) / p);
        printf(" %.1f |\n", a / c);
    }
    printf("\nAnswered by Annotated A*: %.0f, %.0f and %.0f of %.0f.\n\n", vfall[0], vfall[1],
           vfall[2], n);
    nb_overlay_close(ov);
}

/* -P: an overlay kept over a group of GROUP lines, as a game asks many queries between two
 * changes: 1 to 100 rectangles of 1 x 1 to 20 x 20 cells, none to three over each line's
 * unblocked path away from its ends, the rest anywhere (size 1, ground and swamp, strict).
 * Each line is timed without the overlay (the fastest of three), then the group's lines once
 * in order under the new overlay (the first pass: what the workspace keeps for the overlay is
 * made as the queries need it, sgoverlay.c's keep_prep), then twice more (each line's faster
 * of the two: the queries under an overlay already prepared).  The preparation an overlay is
 * the group's first pass less its prepared time.  Lengths checked against Annotated A*'s under
 * the same overlay; queries handed to Annotated A* counted. */
#define GROUP 8
static void run_prepared(const char *name, const nb_bundle *nb, nb_aa *aa, nb_sg *sg,
                         const nbb_scen *scen, size_t stride)
{
    nb_overlay *ov = NULL;
    nb_err err;
    if (nb_overlay_open(nb, &ov, &err) != NB_OK) {
        printf("%s: no overlay: %s\n\n", name, err.msg);
        return;
    }
    tu_rng r = {0x0ff1ce};
    double n = 0, groups = 0, plain = 0, first = 0, prepared = 0, aa_t = 0, fall = 0;
    uint64_t made0, kept0, made1, kept1;
    nbi_sg_overlay_kept(sg, &made0, &kept0);
    size_t li = 0;
    while (li < scen->count) {
        nb_sg_query q[GROUP];
        double t_plain[GROUP], len0[GROUP];
        nb_cell on[GROUP][3];
        unsigned non[GROUP];
        int m = 0;
        nb_sg_result sr;
        for (; m < GROUP && li < scen->count; li += stride) {
            nb_sg_query_init(&q[m]);
            q[m].size = 1;
            q[m].capability = 3;
            q[m].start = scen->lines[li].start;
            q[m].goal = scen->lines[li].goal;
            t_plain[m] = INFINITY;
            for (int rep = 0; rep < 3; rep++) {
                double a0 = now_us();
                nb_sg_find(sg, &q[m], &sr, &err);
                t_plain[m] = fmin(t_plain[m], now_us() - a0);
            }
            if (sr.status != NB_PATH_FOUND || sr.path_len < 3)
                continue;
            len0[m] = sr.length;
            non[m] = tu_below(&r, 4);
            for (unsigned i = 0; i < non[m]; i++)
                on[m][i] = sr.path[1 + tu_below(&r, (uint32_t)(sr.path_len - 2))];
            m++;
        }
        if (!m)
            break;
        (void)len0;
        nb_overlay_clear(ov);
        unsigned rects = 1 + tu_below(&r, 100);
        for (int k = 0; k < m; k++)
            for (unsigned i = 0; i < non[k]; i++)
                block_near(ov, &r, nb_map_width(nb), nb_map_height(nb), on[k][i].x, on[k][i].y);
        for (unsigned i = 0; i < rects; i++)
            block_near(ov, &r, nb_map_width(nb), nb_map_height(nb),
                       (long)tu_below(&r, nb_map_width(nb)), (long)tu_below(&r, nb_map_height(nb)));
        double t1[GROUP], t2[GROUP];
        for (int k = 0; k < m; k++) {
            q[k].overlay = ov;
            double a0 = now_us();
            nb_sg_find(sg, &q[k], &sr, &err);
            t1[k] = now_us() - a0;
            t2[k] = INFINITY;
        }
        for (int rep = 0; rep < 2; rep++)
            for (int k = 0; k < m; k++) {
                double a0 = now_us();
                nb_sg_find(sg, &q[k], &sr, &err);
                t2[k] = fmin(t2[k], now_us() - a0);
            }
        int gbad = 0;
        double gaa = 0;
        for (int k = 0; k < m; k++) {
            nb_aa_query aq;
            nb_aa_query_init(&aq);
            aq.size = 1;
            aq.capability = 3;
            aq.start = q[k].start;
            aq.goal = q[k].goal;
            aq.overlay = ov;
            nb_aa_result ar;
            double a0 = now_us();
            nb_status sa = nb_aa_find(aa, &aq, &ar, &err);
            gaa += now_us() - a0;
            nb_status ss = nb_sg_find(sg, &q[k], &sr, &err);
            fall += sr.fallback != 0;
            if (sa != NB_OK || ss != NB_OK || ar.status != sr.status ||
                (ar.status == NB_PATH_FOUND && fabs(ar.length - sr.length) > 1e-6)) {
                gbad = 1;
                if (wrong++ < 10)
                    fprintf(stderr, "%s (%d,%d)->(%d,%d) under a kept overlay: AA* %s %.6f, "
                            "optimal %s %.6f\n", name, q[k].start.x, q[k].start.y, q[k].goal.x,
                            q[k].goal.y, nb_path_status_str(ar.status), ar.length,
                            nb_path_status_str(sr.status), sr.length);
            }
        }
        if (gbad)
            continue;
        groups++;
        aa_t += gaa;
        for (int k = 0; k < m; k++) {
            n++;
            plain += t_plain[k];
            first += t1[k];
            prepared += t2[k];
        }
    }
    nbi_sg_overlay_kept(sg, &made1, &kept1);
    if (n) {
        printf("Under an overlay kept for %d queries (size 1, ground and swamp, strict; mean us "
               "a query; one overlay of 1 to 100 rectangles a group, up to 3 on each line's "
               "path):\n\n| queries | overlays | without overlay | first pass under a new "
               "overlay | prepared (fastest of 2) | prepared / without | first / without | "
               "preparation an overlay (us) | Annotated A* | scans kept | read back | handed "
               "to Annotated A* |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
               "\n| %.0f | %.0f | %.1f | %.1f | %.1f | %.2fx | %.2fx | %.0f | %.1f | %llu | %llu "
               "| %.0f |\n\n", GROUP, n, groups, plain / n, first / n, prepared / n,
               prepared / plain, first / plain, (first - prepared) / groups, aa_t / n,
               (unsigned long long)(made1 - made0), (unsigned long long)(kept1 - kept0), fall);
    }
    nb_overlay_close(ov);
}

static void run_map(const char *shared, const char *name, size_t max_lines)
{
    char map_path[4096], scen_path[4200];
    snprintf(map_path, sizeof map_path, "%s/maps/%s.map", shared, name);
    snprintf(scen_path, sizeof scen_path, "%s.scen", map_path);
    nbi_legend legend;
    nbi_legend_default(&legend);
    nbb_grid grid;
    nbb_scen scen;
    nb_err err;
    if (nbb_map_read(map_path, &legend, 1, &grid, &err) != NB_OK ||
        nbb_scen_read(scen_path, &scen, &err) != NB_OK) {
        printf("%s: skipped: %s\n\n", name, err.msg);
        return;
    }
    static nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    for (size_t i = 0; i < NAGENTS; i++) {
        nb_agent *a = &agents.agent[agents.count++];
        snprintf(a->name, sizeof a->name, "a%zu", i);
        a->capability = agents_run[i].cap;
        a->size = agents_run[i].size;
    }
    const char *path = tu_path(tu_tmpdir(), "optimal.nbk");
    nbb_builder *b = NULL;
    nbb_optimal_stats os;
    double t0 = 0, t1 = 0;
    nb_status st = nbb_builder_new(&b, &err);
    if (st == NB_OK)
        st = nbb_put_level(b, &legend, &agents, &grid, 0, &err);
    if (st == NB_OK)
        st = nbb_bake_clearance(b, &legend, &agents, &grid, 0, NULL, &err);
    if (st == NB_OK) {
        t0 = now_us();
        st = nbb_bake_subgoal(b, &legend, &agents, &grid,
                              NBB_CORNERS_STRICT | (weak_too ? NBB_CORNERS_WEAK : 0), 0, &os,
                              &err);
        t1 = now_us();
    }
    if (st == NB_OK)
        st = nbb_builder_write(b, path, &err);
    nbb_builder_free(b);
    nb_bundle *nb = NULL;
    nb_aa *aa = NULL;
    nb_sg *sg = NULL;
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, &nb, &err);
    if (st == NB_OK)
        st = nb_aa_open(nb, &aa, &err);
    if (st == NB_OK)
        st = tu_sg_open(nb, 0, &sg, &err);
    if (st != NB_OK) {
        printf("%s: failed: %s\n\n", name, err.msg);
        goto out;
    }
    double cells = (double)grid.width * grid.height;
    printf("### %s (%u x %u)\n\n", name, grid.width, grid.height);
    printf("Layers: %zu (one per capability and size of the agent set), baked in %.0f ms (%.0f ms per layer), %.2f bytes per "
           "cell per layer, %.0f subgoals and %.0f stored edges per layer on average.\n\n",
           os.layers, (t1 - t0) / 1e3, (t1 - t0) / 1e3 / (double)os.layers,
           (double)os.bytes / cells / (double)os.layers, (double)os.nodes / (double)os.layers,
           (double)os.edges / (double)os.layers);
    size_t stride = scen.count > max_lines ? (scen.count + max_lines - 1) / max_lines : 1;
    if (overlays > 1)
        goto overlaid;
    printf("| agent | bucket | queries | AA* us/query | optimal us/query | AA* / optimal | "
           "turning points us/query | AA* / turning points | AA* expanded | optimal expanded "
           "|\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t ai = 0; ai < (weak_too ? NRUN : NAGENTS); ai++) {
        const struct agent *ag = &agents_run[ai];
        tally t;
        memset(&t, 0, sizeof t);
        nb_aa_query aq;
        nb_aa_query_init(&aq);
        aq.size = ag->size;
        aq.capability = ag->cap;
        aq.corner = ag->corner;
        nb_sg_query sq;
        nb_sg_query_init(&sq);
        sq.size = ag->size;
        sq.capability = ag->cap;
        sq.corner = ag->corner;
        for (size_t li = 0; li < scen.count; li += stride) {
            const nbb_scen_line *l = &scen.lines[li];
            if (nb_can_stand(nb, ag->cap, ag->size, l->start.x, l->start.y) != 1 ||
                nb_can_stand(nb, ag->cap, ag->size, l->goal.x, l->goal.y) != 1)
                continue;
            aq.start = sq.start = l->start;
            aq.goal = sq.goal = l->goal;
            nb_aa_result ar;
            nb_sg_result sr;
            /* Each query three times, the fastest kept: the machine is
             * shared, and the other jobs' interruptions are not the
             * query's cost. */
            double aa_us = INFINITY, sg_us = INFINITY, tp_us = INFINITY;
            nb_status s1 = NB_OK, s2 = NB_OK, s3 = NB_OK;
            nb_sg_query tq = sq;
            tq.waypoints_only = 1; /* the turning points alone */
            nb_sg_result tr;
            for (int rep = 0; rep < 3; rep++) {
                double a0 = now_us();
                s1 = nb_aa_find(aa, &aq, &ar, &err);
                double a1 = now_us();
                s2 = nb_sg_find(sg, &sq, &sr, &err);
                double a2 = now_us();
                s3 = nb_sg_find(sg, &tq, &tr, &err);
                double a3 = now_us();
                aa_us = fmin(aa_us, a1 - a0);
                sg_us = fmin(sg_us, a2 - a1);
                tp_us = fmin(tp_us, a3 - a2);
            }
            s2 = s3 != NB_OK ? s3 : s2;
            /* The turning points' query overwrote the workspace: the full one again. */
            if (s2 == NB_OK)
                s2 = nb_sg_find(sg, &sq, &sr, &err);
            if (s2 == NB_OK && (tr.status != sr.status || fabs(tr.length - sr.length) > 1e-9))
                s2 = NB_ERR_ARG; /* counted as a disagreement below */
            if (s1 != NB_OK || s2 != NB_OK || ar.status != sr.status ||
                (ar.status == NB_PATH_FOUND && fabs(ar.length - sr.length) > 1e-6) ||
                (ai == 0 && ar.status == NB_PATH_FOUND &&
                 fabs(ar.length - l->optimal) > 1e-4 + 0.5 * pow(10.0, -(double)l->decimals))) {
                if (wrong++ < 10)
                    fprintf(stderr, "%s line %u, %s: AA* %s %.6f, optimal %s %.6f, file %.6f\n",
                            name, l->line, ag->name, nb_path_status_str(ar.status), ar.length,
                            nb_path_status_str(sr.status), sr.length, l->optimal);
                continue;
            }
            if (ar.status != NB_PATH_FOUND)
                continue;
            int k = bucket_of(ar.length);
            for (int j = 0; j < 2; j++, k = NB_BUCKETS - 1) {
                t.n[k]++;
                t.aa_us[k] += aa_us;
                t.sg_us[k] += sg_us;
                t.tp_us[k] += tp_us;
                t.aa_exp[k] += (double)ar.expanded;
                t.sg_exp[k] += (double)sr.expanded;
            }
        }
        for (int k = 0; k < NB_BUCKETS; k++) {
            if (!t.n[k])
                continue;
            double n = t.n[k];
            printf("| %s | %s | %.0f | %.1f | %.1f | %.1fx | %.1f | %.1fx | %.0f | %.0f |\n",
                   k == NB_BUCKETS - 1 ? ag->name : "", k == NB_BUCKETS - 1 ? "**all**" : bucket_name[k], n,
                   t.aa_us[k] / n, t.sg_us[k] / n, t.aa_us[k] / t.sg_us[k], t.tp_us[k] / n,
                   t.aa_us[k] / t.tp_us[k], t.aa_exp[k] / n, t.sg_exp[k] / n);
        }
        fflush(stdout);
    }
    printf("\n");
overlaid:
    if (overlays == 3)
        run_prepared(name, nb, aa, sg, &scen, stride);
    else if (overlays)
        run_overlays(name, nb, aa, sg, &scen, stride);
out:
    nb_sg_close(sg);
    nb_aa_close(aa);
    nb_bundle_close(nb);
    nbb_scen_free(&scen);
    nbb_grid_free(&grid);
}

int main(int argc, char **argv)
{
    size_t max_lines = 150;
    const char *only = NULL;
    int c;
    while ((c = getopt(argc, argv, "n:m:woOPc")) != -1) {
        if (c == 'w')
            weak_too = 1;
        else if (c == 'o')
            overlays = 1;
        else if (c == 'O')
            overlays = 2;
        else if (c == 'P')
            overlays = 3;
        else if (c == 'c')
            cpu_time = 1;
        else if (c == 'n')
            max_lines = (size_t)strtoul(optarg, NULL, 10);
        else if (c == 'm')
            only = optarg;
        else {
            fprintf(stderr, "usage: bench_optimal [-n LINES] [-m MAP] [-w] [-o | -O | -P] [-c]\n");
            return 2;
        }
    }
    const char *shared = getenv("NB_SHARED") ? getenv("NB_SHARED") : tu_src("../shared");
    printf("## bench_optimal: subgoal layers against Annotated A*, one run\n\n"
           "At most %zu scenario lines a map (an even sample), every length checked (AA* against "
           "the layer, and the file's for size 1 on ground and swamp). Times are means over the "
           "queries of each query's fastest of three runs (%s, microseconds).\n\n",
           max_lines, cpu_time ? "the thread's CPU time" : "wall clock");
    if (only)
        run_map(shared, only, max_lines);
    else
        for (size_t i = 0; i < sizeof default_maps / sizeof *default_maps; i++)
            run_map(shared, default_maps[i], max_lines);
    printf("Lengths that disagreed: %ld.\n", wrong);
    return wrong ? 1 : 0;
}
