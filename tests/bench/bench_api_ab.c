/* bench_api_ab.c: the query families' time per query, written once for the
 * 0.2 API and the 1.0 one, so that tests/bench/api-ab.sh can build it
 * against an old commit's library and this tree's and run both in turns
 * (a ratio between builds means something only within one run).
 *
 *   bench_api_ab [-n REPEATS] [-f FAMILY] [-q QUERIES] BUNDLE SCEN FOREST_BUNDLE
 *
 * BUNDLE is a level baked with mkclear --optimal and mkabstract, SCEN its
 * MovingAI scenario file (every line is a query: Annotated A*, HAA* with
 * and without straightening, the optimal layer); nearest, line and random
 * queries come from the scenario's cells; FOREST_BUNDLE holds a forest
 * with a graph baked for agent radius 0.5; "aa overlay", "haa overlay" and
 * "optimal overlay" ask the scenario's queries again under an overlay of
 * 4 x 4 blocks on the midpoints of every 16th line (the API has had
 * overlays since 0.2).  Prints, per family, the total
 * of the path lengths (the same on both builds) and the least over the
 * repeats of the mean microseconds per query.  -f runs one family alone and
 * -q the first QUERIES queries of each (for valgrind --tool=callgrind,
 * whose instruction counts do not move with the machine's load). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "navbake.h"
#include "scen_pairs.h"

#if NB_VERSION_MAJOR >= 1
#define API_1 1
#else
#define API_1 0
#endif

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

enum { AA, HAA, HAA_STRAIGHT, SG, NEAREST, LINE, RANDOM, FOREST, AA_OV, HAA_OV, SG_OV, NFAM };
static const char *const names[NFAM] = {"aa", "haa", "haa straightened", "optimal",
                                        "nearest", "line", "random", "forest",
                                        "aa overlay", "haa overlay", "optimal overlay"};

/* The overlay of the "... overlay" families: 4 x 4 blocks on the midpoints of every 16th
 * scenario line (so on or near many paths), the same cells on both builds. */
#define OV_EVERY 16
#define OV_SIDE 4

/* One pass of family f over the pairs: the sum of what it found. */
static double pass(int f, const nb_bundle *b, const pair *p, size_t n, nb_aa *aa, nb_haa *haa,
                   nb_sg *sg, nb_place *pl, const nb_forest *fo, nb_forest_ws *fw,
                   const nb_overlay *ov)
{
    nb_err err;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        switch (f) {
        case AA:
        case AA_OV: {
            nb_aa_query q;
            nb_aa_result r;
            nb_aa_query_init(&q);
            q.start = p[i].s, q.goal = p[i].g, q.capability = 3u, q.size = 1;
            q.overlay = f == AA_OV ? ov : NULL;
            if (nb_aa_find(aa, &q, &r, &err) == NB_OK && r.status == NB_PATH_FOUND)
                sum += r.length;
            break;
        }
        case HAA:
        case HAA_STRAIGHT:
        case HAA_OV: {
            unsigned flags = f == HAA_STRAIGHT ? NB_HAA_STRAIGHTEN : 0;
            nb_haa_result r;
#if API_1
            nb_haa_query q;
            nb_haa_query_init(&q);
            q.flags = flags;
#else
            nb_aa_query q;
            nb_aa_query_init(&q);
#endif
            q.start = p[i].s, q.goal = p[i].g, q.capability = 3u, q.size = 1;
            q.overlay = f == HAA_OV ? ov : NULL;
#if API_1
            nb_status st = nb_haa_find(haa, &q, &r, &err);
#else
            nb_status st = nb_haa_find(haa, &q, flags, &r, &err);
#endif
            if (st == NB_OK && r.status == NB_PATH_FOUND)
                sum += r.length;
            break;
        }
        case SG:
        case SG_OV: {
            nb_sg_query q;
            nb_sg_result r;
            nb_sg_query_init(&q);
            q.start = p[i].s, q.goal = p[i].g, q.capability = 3u, q.size = 1;
            q.overlay = f == SG_OV ? ov : NULL;
            if (nb_sg_find(sg, &q, &r, &err) == NB_OK && r.status == NB_PATH_FOUND)
                sum += r.length;
            break;
        }
        case NEAREST: {
            nb_nearest_query q;
            nb_nearest_result r;
            nb_nearest_query_init(&q);
            q.point = (nb_cell){(p[i].s.x + p[i].g.x) / 2, (p[i].s.y + p[i].g.y) / 2};
            q.radius = 32;
#if API_1
            q.capability = 3u, q.size = 1;
            nb_status st = nb_nearest_find(pl, &q, &r, &err);
#else
            nb_status st = nb_nearest_standable(pl, &q, &r, &err);
#endif
            if (st == NB_OK && r.status == NB_PATH_FOUND)
                sum += r.distance;
            break;
        }
        case LINE: {
            nb_line_result r;
            nb_vec2 a = {p[i].s.x, p[i].s.y}, c = {p[i].g.x, p[i].g.y};
#if API_1
            nb_line_query q;
            nb_line_query_init(&q);
            q.start = a, q.goal = c, q.capability = 3u, q.size = 1;
            nb_status st = nb_line_find(pl, &q, &r, &err);
#else
            nb_status st = nb_walk_line(pl, a, c, &r, &err);
#endif
            if (st == NB_OK)
                sum += r.t;
            break;
        }
        case RANDOM: {
            nb_random_result r;
            uint64_t seed = i;
#if API_1
            nb_random_query q;
            nb_random_query_init(&q);
            q.reachable = 1, q.start = p[i].s, q.seed = seed, q.capability = 3u, q.size = 1;
            nb_status st = nb_random_find(pl, &q, &r, &err);
#else
            nb_status st = nb_random_standable(pl, &p[i].s, &seed, &r, &err);
#endif
            if (st == NB_OK && r.status == NB_PATH_FOUND)
                sum += r.cell.x + r.cell.y;
            break;
        }
        case FOREST: {
            nb_forest_result r;
            nb_vec2 a = {1 + (double)(i * 37 % 98), 1 + (double)(i * 11 % 58)};
            nb_vec2 c = {1 + (double)(i * 53 % 98), 1 + (double)(i * 29 % 58)};
#if API_1
            nb_forest_query q;
            nb_forest_query_init(&q);
            q.start = a, q.goal = c, q.agent_radius = 0.5;
            nb_status st = nb_forest_find(fw, &q, &r, &err);
#else
            nb_status st = nb_forest_find(fo, 0.5, a, c, 0, fw, &r, &err);
#endif
            if (st == NB_OK && r.status == NB_PATH_FOUND)
                sum += r.length;
            break;
        }
        }
    }
    (void)b;
    (void)fo;
    return sum;
}

int main(int argc, char **argv)
{
    int repeats = 3, a = 1, only = -1;
    size_t limit = 0;
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        if (strcmp(argv[a], "-n") == 0)
            repeats = atoi(argv[a + 1]);
        else if (strcmp(argv[a], "-q") == 0)
            limit = (size_t)atol(argv[a + 1]);
        else if (strcmp(argv[a], "-f") == 0)
            for (int f = 0; f < NFAM; f++)
                if (strcmp(argv[a + 1], names[f]) == 0)
                    only = f;
    }
    if (argc - a != 3 || repeats < 1) {
        fprintf(stderr, "usage: bench_api_ab [-n REPEATS] [-f FAMILY] [-q QUERIES] BUNDLE SCEN "
                        "FOREST_BUNDLE\n");
        return 2;
    }
    nb_bundle *b, *fb;
    nb_err err;
    if (nb_bundle_open(argv[a], 0, NULL, &b, &err) != NB_OK ||
        nb_bundle_open(argv[a + 2], 0, NULL, &fb, &err) != NB_OK) {
        fprintf(stderr, "bench_api_ab: %s\n", err.msg);
        return 1;
    }
    pair *p;
    size_t n = read_scen_pairs(argv[a + 1], NULL, NULL, &p);
    if (limit && limit < n)
        n = limit;
    nb_aa *aa;
    nb_haa *haa;
    nb_sg *sg;
    nb_place *pl;
    nb_forest *fo;
    nb_forest_ws *fw;
    if (n == 0 || nb_aa_open(b, &aa, &err) != NB_OK || nb_haa_open(b, &haa, &err) != NB_OK ||
#if API_1
        nb_sg_open(b, &sg, &err) != NB_OK || nb_place_open(b, &pl, &err) != NB_OK ||
#else
        nb_sg_open(b, 0, &sg, &err) != NB_OK || nb_place_open(b, 3u, 1, &pl, &err) != NB_OK ||
#endif
        nb_forest_open(fb, &fo, &err) != NB_OK || nb_forest_ws_open(fo, &fw, &err) != NB_OK) {
        fprintf(stderr, "bench_api_ab: %s\n", n ? err.msg : "no scenario lines");
        return 1;
    }
    nb_overlay *ov;
    if (nb_overlay_open(b, &ov, &err) != NB_OK) {
        fprintf(stderr, "bench_api_ab: %s\n", err.msg);
        return 1;
    }
    for (size_t i = 0; i < n; i += OV_EVERY) {
        long x = (p[i].s.x + p[i].g.x) / 2, y = (p[i].s.y + p[i].g.y) / 2;
        if (nb_overlay_block(ov, x, y, OV_SIDE, OV_SIDE, &err) != NB_OK) {
            fprintf(stderr, "bench_api_ab: %s\n", err.msg);
            return 1;
        }
    }
    printf("| family | queries | sum of answers | least mean us |\n|---|---:|---:|---:|\n");
    for (int f = 0; f < NFAM; f++) {
        if (only >= 0 && f != only)
            continue;
        size_t m = f == FOREST ? (limit ? limit : 2000) : n;
        double best = INFINITY, sum = 0;
        for (int r = 0; r < repeats; r++) {
            double t0 = now_us();
            sum = pass(f, b, p, m, aa, haa, sg, pl, fo, fw, ov);
            double us = (now_us() - t0) / (double)m;
            if (us < best)
                best = us;
        }
        printf("| %s | %zu | %.6f | %.3f |\n", names[f], m, sum, best);
    }
    nb_overlay_close(ov);
    nb_forest_ws_close(fw);
    nb_forest_close(fo);
    nb_place_close(pl);
    nb_sg_close(sg);
    nb_haa_close(haa);
    nb_aa_close(aa);
    nb_bundle_close(fb);
    nb_bundle_close(b);
    free(p);
    return 0;
}
