/* bench_forest.c: round obstacles, forests of 10, 100 and 1000 circles
 * (run by 'make bench'; results in tests/bench/results/forest-bench.md).
 *
 * Bake: mkabstract's bake (bitangents tested for line of sight through a
 * uniform grid) against the article's plain bake in the same run (every
 * bitangent tested against every circle), with the bundle's size.
 * Query: the baked search against the deferred search, which builds the
 * edges as it goes, on the same random queries; mean time per query and
 * states expanded.  The lengths must agree, or the benchmark fails.
 * Times are the process's CPU time.
 *
 *   tests/bench/bench_forest [-q QUERIES] [-s SEED] [-P] [N...]   (default 10 100 1000)
 * -P skips the plain bake (to profile the queries). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "forest/forest.h"
#include "forestutil.h"

/* CPU time of this process: steadier than wall time on a shared machine. */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* A markdown table: a title, the header, a right-aligned rule, the rows. */
static void table(const char *title, const char *header, char rows[][256], int n)
{
    printf("%s\n\n%s\n|", title, header);
    for (const char *p = header + 1; *p; p++)
        if (*p == '|')
            printf("---:|");
    printf("\n");
    for (int i = 0; i < n; i++)
        printf("%s\n", rows[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    size_t sizes[16] = {10, 100, 1000};
    int nsizes = 3, queries = 200, given = 0, plain_too = 1;
    uint64_t seed = 0xf0e5;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-q") == 0 && i + 1 < argc)
            queries = atoi(argv[++i]);
        else if (strcmp(argv[i], "-P") == 0)
            plain_too = 0;
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (given < 16)
            sizes[given++] = (size_t)strtoul(argv[i], NULL, 10);
    }
    if (given)
        nsizes = given;
    const double agent = 0.5, density = 0.15;
    printf("Forests of random circles (radius 0.5 to 2, %.0f%% of the area covered before\n"
           "inflation), agent radius %g; %d random queries between free points.\n\n",
           density * 100, agent, queries);
    if (nsizes > 16)
        nsizes = 16;
    char bake_rows[16][256], query_rows[16][256], plain_rows[16][256];
    nb_forest_ws *ws;
    nb_err err;
    if (nb_forest_ws_open(NULL, &ws, &err) != NB_OK)
        return fprintf(stderr, "%s\n", err.msg), 1;
    int rc = 0;
    for (int si = 0; si < nsizes; si++) {
        size_t n = sizes[si];
        tu_rng r = {seed + n};
        nb_circle *c = malloc((n + 1) * sizeof *c);
        double area = 0;
        for (size_t i = 0; i < n; i++) {
            c[i].r = ft_uniform(&r, 0.5, 2);
            area += M_PI * c[i].r * c[i].r;
        }
        double side = sqrt(area / density);
        for (size_t i = 0; i < n; i++) {
            c[i].x = ft_uniform(&r, 0, side);
            c[i].y = ft_uniform(&r, 0, side);
        }
        /* The bake as mkabstract does it (to a bundle on disk), then the
         * graph alone, with the grid and with the article's plain line
         * of sight: the same bytes. */
        const char *path = tu_path(tu_tmpdir(), "bench.nbk");
        double t0 = now();
        nbb_forest f = {c, n, 0, {0, 0, 0, 0}};
        nbb_builder *b;
        nb_forest_graph_info gi;
        nb_status st = nbb_builder_new(&b, &err);
        if (st == NB_OK)
            st = nbb_put_forest(b, &f, &agent, 1, 0, &gi, NULL, NULL, &err);
        if (st == NB_OK)
            st = nbb_builder_write(b, path, &err);
        nbb_builder_free(b);
        double whole = now() - t0;
        uint8_t *p1 = NULL, *p2 = NULL;
        size_t l1 = 0, l2 = 0;
        t0 = now();
        if (st == NB_OK)
            st = nbb_bitangent_bake(&f, agent, 0, 0, &p1, &l1, NULL, NULL, NULL, &err);
        double bake = now() - t0;
        t0 = now();
        if (st == NB_OK && plain_too)
            st = nbb_bitangent_bake(&f, agent, 0, NBB_BAKE_PLAIN_LOS, &p2, &l2, NULL, NULL, NULL, &err);
        double plain = now() - t0;
        if (plain_too && st == NB_OK && (l1 != l2 || memcmp(p1, p2, l1) != 0)) {
            fprintf(stderr, "bench_forest: %zu circles: the plain bake differs from the grid's\n", n);
            rc = 1;
        }
        free(p1);
        free(p2);
        nb_bundle *bundle = NULL;
        nb_forest *fo = NULL, *fd = NULL;
        if (st == NB_OK)
            st = nb_bundle_open(path, 0, NULL, &bundle, &err);
        if (st == NB_OK)
            st = nb_forest_open(bundle, &fo, &err);
        if (st == NB_OK)
            st = nb_forest_open_circles(c, n, NULL, NULL, &fd, &err);
        if (st != NB_OK) {
            fprintf(stderr, "bench_forest: %s\n", err.msg);
            return 1;
        }
        nb_forest_ws *bws;
        nb_forest_ws_open(fo, &bws, &err);
        /* The same queries for both searches; one untimed round first. */
        nb_vec2 *q = malloc(2 * (size_t)queries * sizeof *q);
        for (int i = 0; i < 2 * queries; i++)
            ft_free_point(&r, c, n, agent, 1e-6, 0, side, &q[i]);
        double tb = 0, td = 0, tpb = 0, tpd = 0;
        size_t epb = 0, epd = 0, lpd = 0;
        size_t eb = 0, ed = 0, opened = 0, gb = 0, gd = 0, lb = 0, ld = 0;
        int found = 0, differ = 0;
        for (int round = 0; round < 2; round++)
            for (int i = 0; i < queries; i++) {
                nb_forest_result pb, pd;
                t0 = now();
                nb_status sb = ft_outcome(tu_forest_find(fo, nb_forest_radius_get(fo, 0), q[2 * i], q[2 * i + 1], 0, bws, &pb, &err), &pb);
                double t1 = now();
                nb_status sd = ft_outcome(tu_forest_find(fd, agent, q[2 * i], q[2 * i + 1], NB_FOREST_DEFERRED, ws, &pd, &err), &pd);
                double t2 = now();
                nb_forest_result pp, pq;
                nb_status sp = ft_outcome(tu_forest_find(fo, nb_forest_radius_get(fo, 0), q[2 * i], q[2 * i + 1], NB_FOREST_PLAIN, bws, &pp, &err), &pp);
                double t3 = now();
                nb_status sq = ft_outcome(tu_forest_find(fd, agent, q[2 * i], q[2 * i + 1], (NB_FOREST_PLAIN) | NB_FOREST_DEFERRED, ws, &pq, &err), &pq);
                double t4 = now();
                if (round == 0)
                    continue;
                tpb += t3 - t2;
                tpd += t4 - t3;
                epb += pp.expanded;
                epd += pq.expanded;
                lpd += pq.los_tests;
                differ += sp != sb || sq != sb ||
                          (sb == NB_OK && (fabs(pp.length - pb.length) > 1e-9 * (1 + pb.length) ||
                                           fabs(pq.length - pb.length) > 1e-9 * (1 + pb.length)));
                tb += t1 - t0;
                td += t2 - t1;
                eb += pb.expanded;
                ed += pd.expanded;
                gb += pb.generated;
                gd += pd.generated;
                lb += pb.los_tests;
                ld += pd.los_tests;
                opened += pd.circles_opened;
                found += sb == NB_OK;
                differ += sb != sd || (sb == NB_OK && fabs(pb.length - pd.length) > 1e-9 * (1 + pb.length));
            }
        if (differ) {
            fprintf(stderr, "bench_forest: %zu circles: baked and deferred differ on %d queries\n", n,
                    differ);
            rc = 1;
        }
        snprintf(bake_rows[si], sizeof bake_rows[si],
                 "| %zu | %.2f | %.2f | %.2f | %.1f | %llu | %u | %u of %u | %llu |", n, whole * 1e3,
                 bake * 1e3, plain * 1e3, plain / bake, (unsigned long long)nb_bundle_file_size(bundle),
                 gi.nodes, gi.transitions, gi.candidates, (unsigned long long)gi.arcs);
        snprintf(query_rows[si], sizeof query_rows[si],
                 "| %zu | %d | %.1f | %.0f | %.0f | %.1f | %.0f | %.0f | %.1f | %.1f |", n, found,
                 tb / queries * 1e6, (double)eb / queries, (double)lb / queries,
                 td / queries * 1e6, (double)ed / queries, (double)ld / queries,
                 (double)opened / queries, td / tb);
        snprintf(plain_rows[si], sizeof plain_rows[si],
                 "| %zu | %.1f | %.0f | %.1f | %.1f | %.0f | %.0f | %.1f |", n, tpb / queries * 1e6,
                 (double)epb / queries, tpb / tb, tpd / queries * 1e6, (double)epd / queries,
                 (double)lpd / queries, tpd / td);
        fprintf(stderr, "%zu circles done\n", n);
        fflush(stdout);
        if (found < queries / 2)
            fprintf(stderr, "bench_forest: only %d of %d queries found a path\n", found, queries);
        free(q);
        nb_forest_ws_close(bws);
        nb_forest_close(fo);
        nb_forest_close(fd);
        nb_bundle_close(bundle);
        free(c);
    }
    table("Bake: the whole of it as mkabstract --forest does it (sections made, bundle\n"
          "written), and the graph alone, line of sight through the grid against the\n"
          "article's plain test of every bitangent against every circle (the same bytes):",
          "| circles | mkabstract ms | graph ms | plain graph ms | plain / grid | bundle bytes | "
          "nodes | bitangents kept | hugging arcs |",
          bake_rows, nsizes);
    table("Queries, the same ones for both searches (mean per query; lengths equal):",
          "| circles | paths found | baked us | expanded | line-of-sight tests | deferred us | "
          "expanded | line-of-sight tests | circles opened | deferred / baked |",
          query_rows, nsizes);
    table("The same queries with the article's scheme as it stands (NB_FOREST_PLAIN: the\n"
          "straight-line heuristic on every state, the start's tangents all made at once),\n"
          "and its cost against the searches above:",
          "| circles | baked us | expanded | / baked above | deferred us | expanded | "
          "line-of-sight tests | / deferred above |",
          plain_rows, nsizes);
    nb_forest_ws_close(ws);
    return rc;
}
