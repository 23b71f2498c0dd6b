/* bench_hitcheck: what the hit-check tables buy, what keeping every
 * candidate curve in them adds, and what the hybrid search saves, on
 * MovingAI maps from $NB_SHARED/maps (run by 'make bench'; results and the
 * command in tests/bench/results/hitcheck-bench.md).
 *
 *  1. Directional-8, -24 and -48 with the tables (the shortest curve of
 *     each entry, mkhitcheck's default) against the same search computing
 *     and sweeping that curve on the fly (the baseline the article
 *     describes as absurdly slow), on the same queries in the same run:
 *     time, nodes, and the ratio.  Both must find the same costs.
 *  2. The shortest curve of each entry against every candidate
 *     (mkhitcheck --curves all): the table's bytes, and for each
 *     neighbourhood the paths found, how many cost more, time.
 *  3. The hybrid search against full Directional-24, for each table:
 *     time, nodes, how often the hybrid needs its Directional-8 fallback,
 *     how often it fails where the full search finds a path.
 *
 * Queries are the maps' scenarios whose optimal length is 10 to 40 cells
 * (Pinter keeps searches within 40 tiles), spread over the file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "turning/turning_build.h"

#ifndef NB_SHARED_DEFAULT
#define NB_SHARED_DEFAULT "../shared"
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct query {
    long sx, sy, gx, gy;
    double optimal;
};

static size_t read_scen(const char *path, struct query *q, size_t max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[1024];
    static struct query all[20000];
    size_t n = 0;
    while (fgets(line, sizeof line, f) && n < 20000) {
        int bucket, w, h;
        char map[512];
        struct query x;
        if (sscanf(line, "%d %511s %d %d %ld %ld %ld %ld %lf", &bucket, map, &w, &h, &x.sx, &x.sy,
                   &x.gx, &x.gy, &x.optimal) == 9 &&
            x.optimal >= 10 && x.optimal <= 40)
            all[n++] = x;
    }
    fclose(f);
    size_t m = n < max ? n : max;
    for (size_t i = 0; i < m; i++)
        q[i] = all[i * n / m];
    return m;
}

struct tally {
    double time;
    unsigned long long expanded;
    unsigned found, fallback, queries;
    double length;
};

static void add(struct tally *t, const struct tally *a)
{
    t->time += a->time;
    t->expanded += a->expanded;
    t->found += a->found;
    t->fallback += a->fallback;
    t->queries += a->queries;
    t->length += a->length;
}

static void run(nb_planner *p, const struct query *q, size_t n, unsigned method, unsigned nb,
                unsigned flags, struct tally *t, double *costs)
{
    const nb_unit *u = nb_planner_unit(p);
    for (size_t i = 0; i < n; i++) {
        double a = atan2((double)(q[i].gy - q[i].sy), (double)(q[i].gx - q[i].sx));
        long k = lround(a * u->headings / (2 * M_PI));
        nb_planner_query pq;
        nb_planner_query_init(&pq);
        pq.start = (nb_pose){q[i].sx + 0.5, q[i].sy + 0.5, k * 2 * M_PI / u->headings};
        pq.goal.x = q[i].gx;
        pq.goal.y = q[i].gy;
        pq.method = (nb_plan_method)method;
        pq.neighbourhood = nb;
        pq.flags = flags;
        pq.max_expansions = 400000;
        nb_planner_result r;
        nb_err err;
        double t0 = now();
        nb_status st = nb_planner_find(p, &pq, &r, &err);
        t->time += now() - t0;
        t->queries++;
        if (st != NB_OK) {
            fprintf(stderr, "bench_hitcheck: %s\n", err.msg);
            continue;
        }
        t->expanded += r.expanded;
        t->found += (r.status == NB_PATH_FOUND) != 0;
        t->fallback += r.fallback != 0;
        t->length += (r.status == NB_PATH_FOUND) ? r.length : 0;
        if (costs)
            costs[i] = (r.status == NB_PATH_FOUND) ? r.cost : -1;
    }
}

int main(int argc, char **argv)
{
    const char *shared = getenv("NB_SHARED");
    if (!shared || !*shared)
        shared = NB_SHARED_DEFAULT;
    static const char *const maps[] = {"dao/arena.map", "dao/den312d.map", "bg/AR0011SR.map",
                                       "dao/lak303d.map", "wc3/battleground.map"};
    size_t nq = argc > 1 ? (size_t)atol(argv[1]) : 10, nmaps = sizeof maps / sizeof maps[0];
    if (nq < 1 || nq > 5000) {
        fprintf(stderr, "usage: bench_hitcheck [QUERIES_PER_MAP]\n");
        return 2;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/maps/%s", shared, maps[0]);
    if (access(path, R_OK) != 0) {
        printf("bench_hitcheck: SKIP: %s not found (set NB_SHARED to the shared directory)\n", path);
        return 0;
    }
    char cpu[256] = "unknown";
    FILE *ci = fopen("/proc/cpuinfo", "r");
    if (ci) {
        char line[512];
        while (fgets(line, sizeof line, ci))
            if (strncmp(line, "model name", 10) == 0) {
                char *c = strchr(line, ':');
                snprintf(cpu, sizeof cpu, "%s", c ? c + 2 : line);
                cpu[strcspn(cpu, "\n")] = 0;
                break;
            }
        fclose(ci);
    }
    printf("bench_hitcheck: %zu queries per map (scenarios of optimal length 10 to 40)\n", nq);
    printf("machine: %s, %ld cores online\n", cpu, sysconf(_SC_NPROCESSORS_ONLN));
    nb_unit u = {"jeep", 2.0, 1.0, 8, 48, 0, 1, 0}, small = {"runner", 1.0, 0.8, 8, 24, 0, 1, 0};
    nb_unit uall = u;
    snprintf(uall.name, sizeof uall.name, "jeepall");
    printf("units: jeep: radius %g, width %g, %u headings, tables for Directional-48, once with the\n"
           "       shortest curve of each entry (jeep) and once with every candidate (jeepall);\n"
           "       runner (part 3 only): radius %g, width %g, %u headings, tables for "
           "Directional-24; all keep to ground and swamp\n\n",
           u.radius, u.width, u.headings, small.radius, small.width, small.headings);

    nbi_legend legend;
    nbi_legend_default(&legend);
    u.capability = 1u << nbi_legend_find(&legend, "ground", 6) | 1u << nbi_legend_find(&legend, "swamp", 5);
    small.capability = u.capability;
    uall.capability = u.capability;
    static nbi_agentset agents;
    nb_err err;
    if (nbb_agents_default(&legend, &agents, &err) != NB_OK)
        return 1;
    char tmpl[] = "/tmp/bench_hitcheck-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd < 0)
        return 1;
    close(fd);

    struct tally tab[3] = {{0}}, fly[3] = {{0}}, hyb[3] = {{0}}, full[3] = {{0}}, all[3] = {{0}};
    unsigned mismatch = 0, hybrid_lost[3] = {0}, hybrid_only[3] = {0};
    double rounding = 0; /* the largest relative difference within rounding */
    unsigned dearer[3] = {0}, cheaper[3] = {0}, lost[3] = {0}, gained[3] = {0};
    double extra[3] = {0};
    unsigned both[3] = {0};
    nbb_unit_stats st1 = {0}, st2 = {0};
    double bake = 0;
    struct query *q = malloc(nq * sizeof *q);
    double *c1 = malloc(nq * sizeof *c1), *c2 = malloc(nq * sizeof *c2), *c3 = malloc(nq * sizeof *c3);
    printf("%-22s %7s %5s | %-12s %9s %9s %7s\n", "map", "size", "found", "search", "tables s",
           "on-fly s", "ratio");
    for (size_t m = 0; m < nmaps; m++) {
        snprintf(path, sizeof path, "%s/maps/%s", shared, maps[m]);
        nbb_grid g;
        if (nbb_map_read(path, &legend, 1, &g, &err) != NB_OK) {
            fprintf(stderr, "%s\n", err.msg);
            continue;
        }
        nbb_builder *b;
        double t0 = now();
        nbb_builder_new(&b, &err);
        nb_status st = nbb_put_level(b, &legend, &agents, &g, 0, &err);
        if (st == NB_OK)
            st = nbb_put_unit(b, &u, 0, &st1, &err);
        if (st == NB_OK)
            st = nbb_put_unit(b, &uall, NBB_UNIT_ALL_CURVES, &st2, &err);
        if (st == NB_OK)
            st = nbb_put_unit(b, &small, 0, NULL, &err);
        if (st == NB_OK)
            st = nbb_builder_write(b, tmpl, &err);
        nbb_builder_free(b);
        bake += now() - t0;
        unsigned w = g.width, h = g.height;
        nbb_grid_free(&g);
        nb_bundle *bd;
        nb_planner *p, *pa;
        if (st != NB_OK || nb_bundle_open(tmpl, 0, NULL, &bd, &err) != NB_OK ||
            nb_planner_open(bd, "jeep", &p, &err) != NB_OK ||
            nb_planner_open(bd, "jeepall", &pa, &err) != NB_OK) {
            fprintf(stderr, "bench_hitcheck: %s\n", err.msg);
            return 1;
        }
        snprintf(path, sizeof path, "%s/maps/%s.scen", shared, maps[m]);
        size_t n = read_scen(path, q, nq);
        static const unsigned nbs[3] = {8, 24, 48};
        for (int k = 0; k < 3; k++) {
            struct tally a = {0}, f = {0};
            run(p, q, n, NB_PLAN_DIRECTIONAL, nbs[k], 0, &a, c1);
            run(p, q, n, NB_PLAN_DIRECTIONAL, nbs[k], NB_PLAN_ONTHEFLY, &f, c2);
            /* The same up to rounding: a turned entry's length is its
             * stored quarter's, which may differ from the same curve
             * computed facing the other way in the last bits. */
            for (size_t i = 0; i < n; i++) {
                double d = fabs(c1[i] - c2[i]);
                if ((c1[i] < 0) != (c2[i] < 0) || d > 1e-9 * fabs(c2[i])) {
                    mismatch++;
                    fprintf(stderr, "bench_hitcheck: %s, Directional-%u, (%ld, %ld) to (%ld, %ld): "
                            "cost %.17g with the tables, %.17g on the fly\n", maps[m], nbs[k],
                            q[i].sx, q[i].sy, q[i].gx, q[i].gy, c1[i], c2[i]);
                } else if (c1[i] >= 0 && d / c2[i] > rounding) {
                    rounding = d / c2[i];
                }
            }
            char sz[32], name[16];
            snprintf(sz, sizeof sz, "%ux%u", w, h);
            snprintf(name, sizeof name, "Directional-%u", nbs[k]);
            printf("%-22s %7s %2u/%-2zu | %-12s %9.3f %9.3f %6.1fx\n", k ? "" : maps[m], k ? "" : sz,
                   a.found, n, name, a.time, f.time, f.time / a.time);
            add(&tab[k], &a);
            add(&fly[k], &f);
            struct tally al = {0};
            run(pa, q, n, NB_PLAN_DIRECTIONAL, nbs[k], 0, &al, c3);
            add(&all[k], &al);
            for (size_t i = 0; i < n; i++) {
                lost[k] += c1[i] < 0 && c3[i] >= 0;
                gained[k] += c1[i] >= 0 && c3[i] < 0;
                if (c1[i] >= 0 && c3[i] >= 0) {
                    both[k]++;
                    dearer[k] += c1[i] > c3[i] + 1e-9;
                    cheaper[k] += c1[i] < c3[i] - 1e-9;
                    extra[k] += (c1[i] - c3[i]) / c3[i];
                }
            }
        }
        for (int v = 0; v < 3; v++) {
            nb_planner *pv = v == 0 ? p : pa;
            if (v == 2 && nb_planner_open(bd, "runner", &pv, &err) != NB_OK) {
                fprintf(stderr, "bench_hitcheck: %s\n", err.msg);
                return 1;
            }
            struct tally hy = {0}, fu = {0};
            run(pv, q, n, NB_PLAN_HYBRID, 8, 0, &hy, c1);
            run(pv, q, n, NB_PLAN_DIRECTIONAL, 24, 0, &fu, c2);
            for (size_t i = 0; i < n; i++) {
                hybrid_lost[v] += c1[i] < 0 && c2[i] >= 0;
                hybrid_only[v] += c1[i] >= 0 && c2[i] < 0;
            }
            add(&hyb[v], &hy);
            add(&full[v], &fu);
            if (v == 2)
                nb_planner_close(pv);
        }
        nb_planner_close(p);
        nb_planner_close(pa);
        nb_bundle_close(bd);
    }
    unlink(tmpl);
    printf("\n1. Tables against curves computed and swept on the fly (all maps, %u queries)\n",
           tab[0].queries);
    printf("%-15s %6s %10s %10s %10s %10s %8s\n", "search", "found", "nodes", "tables s",
           "on-fly s", "us/node", "ratio");
    for (int k = 0; k < 3; k++)
        printf("Directional-%-3u %6u %10llu %10.3f %10.3f %10.1f %7.1fx\n", k == 0 ? 8 : k == 1 ? 24 : 48,
               tab[k].found, tab[k].expanded, tab[k].time, fly[k].time,
               tab[k].expanded ? tab[k].time * 1e6 / tab[k].expanded : 0, fly[k].time / tab[k].time);
    printf("same costs with and without tables: %s (%u differences beyond 1e-9 of the cost; the "
           "largest within it %.1e)\n", mismatch ? "NO" : "yes", mismatch, rounding);
    printf("\n2. The shortest curve of each entry against every candidate (jeep, all maps, %u "
           "queries)\n", tab[0].queries);
    printf("tables for Directional-48: shortest %u curves in a %u x %u window, %zu bytes; every "
           "candidate %u curves in %u x %u, %zu bytes\n",
           st1.curves, st1.window, st1.window, st1.hitcheck_bytes, st2.curves, st2.window,
           st2.window, st2.hitcheck_bytes);
    printf("%-15s %8s %8s %9s %9s %10s %10s %10s\n", "search", "found", "found", "only all",
           "dearer", "mean extra", "shortest s", "all s");
    printf("%-15s %8s %8s %9s %9s %10s %10s %10s\n", "", "shortest", "all", "finds", "", "cost", "", "");
    for (int k = 0; k < 3; k++)
        printf("Directional-%-3u %8u %8u %9u %9u %9.2f%% %10.3f %10.3f\n", k == 0 ? 8 : k == 1 ? 24 : 48,
               tab[k].found, all[k].found, lost[k], dearer[k],
               both[k] ? 100 * extra[k] / both[k] : 0, tab[k].time, all[k].time);
    unsigned odd = 0;
    for (int k = 0; k < 3; k++)
        odd += cheaper[k] + gained[k];
    printf("(dearer: found by both, cheaper with every candidate; mean extra over the paths both "
           "found.  A path the shortest curves find that every candidate misses, or finds "
           "dearer, would be a bug: %u)\n", odd);
    mismatch += odd;
    for (int v = 0; v < 3; v++) {
        printf("\n3%c. The hybrid against full Directional-24, unit %s (%u queries)\n",
               "abc"[v], v == 2 ? "runner" : v ? "jeepall (every candidate)" : "jeep (shortest curves)",
               hyb[v].queries);
        printf("%-18s %6s %10s %10s %12s %10s\n", "search", "found", "nodes", "time s",
               "mean length", "fallbacks");
        printf("%-18s %6u %10llu %10.3f %12.2f %10s\n", "Directional-24", full[v].found,
               full[v].expanded, full[v].time, full[v].found ? full[v].length / full[v].found : 0, "-");
        printf("%-18s %6u %10llu %10.3f %12.2f %10u\n", "hybrid", hyb[v].found, hyb[v].expanded,
               hyb[v].time, hyb[v].found ? hyb[v].length / hyb[v].found : 0, hyb[v].fallback);
        printf("hybrid/full: time %.2fx, nodes %.2fx; the hybrid fell back to Directional-8 in %u "
               "of %u queries (%.0f%%) and failed in %u where the full search found a path (%u the "
               "other way)\n",
               hyb[v].time / full[v].time, (double)hyb[v].expanded / (double)full[v].expanded,
               hyb[v].fallback, hyb[v].queries, 100.0 * hyb[v].fallback / hyb[v].queries,
               hybrid_lost[v], hybrid_only[v]);
    }
    printf("baking both units into %zu maps took %.2f s in all\n", nmaps, bake);
    free(q);
    free(c1);
    free(c2);
    free(c3);
    return mismatch ? 1 : 0;
}
