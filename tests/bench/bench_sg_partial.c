/* bench_sg_partial: partial paths under an overlay (issue 32 item 5), the
 * optimal layer against Annotated A*.
 *
 *     bench_sg_partial BUNDLE SCEN [RECTANGLES [SEED]]
 *
 * BUNDLE baked with `mkclear --optimal`, its first agent; one overlay of
 * RECTANGLES (30) random rectangles of 1 x 1 to 12 x 12 cells (SEED 1).
 * Every line of SCEN is asked three ways in turn: the layer under the
 * overlay, the layer under it asking a partial path, Annotated A* under it
 * asking a partial path.  Prints, for each way, the mean microseconds of
 * the thread's CPU a query, the statuses (found, partial, none, start or
 * goal blocked) and the lengths' sum; then the partial lines whose length
 * or status differ between the layer and Annotated A* (0 expected) and
 * those the layer handed to Annotated A* (fallback).  Not part of make
 * check (tests/bench/results/optimal-bench.md has its output). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "navbake.h"

static double cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

typedef struct way {
    const char *name;
    double us, length;
    unsigned long n, by[8];
} way;

static void count(way *w, nb_path_status st, double length, double us)
{
    w->us += us;
    w->n++;
    w->by[st == NB_PATH_FOUND     ? 0
          : st == NB_PATH_PARTIAL ? 1
          : st == NB_PATH_NONE    ? 2
                                  : 3]++;
    if (st == NB_PATH_FOUND || st == NB_PATH_PARTIAL)
        w->length += length;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_sg_partial BUNDLE SCEN [RECTANGLES [SEED]]\n");
        return 2;
    }
    int rects = argc > 3 ? atoi(argv[3]) : 30;
    unsigned long seed = argc > 4 ? strtoul(argv[4], NULL, 10) : 1;
    nb_bundle *b;
    nb_sg *sg;
    nb_aa *aa;
    nb_overlay *ov;
    nb_err err;
    if (nb_bundle_open(argv[1], 0, NULL, &b, &err) != NB_OK || nb_sg_open(b, &sg, &err) != NB_OK ||
        nb_aa_open(b, &aa, &err) != NB_OK || nb_overlay_open(b, &ov, &err) != NB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    const nb_agent *ag = nb_agent_get(b, 0);
    uint32_t w = nb_map_width(b), h = nb_map_height(b);
    unsigned long long s = seed * 2654435761ull + 1;
    for (int i = 0; i < rects; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t rw = 1 + (uint32_t)(s >> 60) % 12, rh = 1 + (uint32_t)(s >> 56) % 12;
        uint32_t x = (uint32_t)((s >> 33) % (w > rw ? w - rw : 1));
        uint32_t y = (uint32_t)((s >> 13) % (h > rh ? h - rh : 1));
        if (nb_overlay_block(ov, x, y, rw, rh, &err) != NB_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
    }
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    way ways[3] = {{"layer", 0, 0, 0, {0}}, {"layer, partial", 0, 0, 0, {0}},
                   {"Annotated A*, partial", 0, 0, 0, {0}}};
    unsigned long differ = 0, fallback = 0;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        int bucket, mw, mh, sx, sy, gx, gy;
        char map[512];
        double opt;
        if (sscanf(line, "%d %511s %d %d %d %d %d %d %lf", &bucket, map, &mw, &mh, &sx, &sy, &gx,
                   &gy, &opt) != 9)
            continue;
        nb_sg_query q;
        nb_sg_query_init(&q);
        nb_sg_query_agent(&q, ag);
        q.start = (nb_cell){sx, sy}, q.goal = (nb_cell){gx, gy}, q.overlay = ov;
        nb_aa_query a;
        nb_aa_query_init(&a);
        nb_aa_query_agent(&a, ag);
        a.start = q.start, a.goal = q.goal, a.overlay = ov, a.partial = 1;
        nb_sg_result r[2];
        nb_aa_result ar;
        for (int k = 0; k < 2; k++) {
            q.partial = k;
            double t0 = cpu_us();
            nb_status st = nb_sg_find(sg, &q, &r[k], &err);
            double t = cpu_us() - t0;
            if (st != NB_OK) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
            count(&ways[k], r[k].status, r[k].length, t);
        }
        fallback += r[1].fallback != 0;
        double t0 = cpu_us();
        if (nb_aa_find(aa, &a, &ar, &err) != NB_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        count(&ways[2], ar.status, ar.length, cpu_us() - t0);
        differ += ar.status != r[1].status ||
                  ((ar.status == NB_PATH_FOUND || ar.status == NB_PATH_PARTIAL) &&
                   fabs(ar.length - r[1].length) > 1e-6);
    }
    fclose(f);
    printf("%s, %d rectangles (seed %lu), %lu lines\n", argv[1], rects, seed, ways[0].n);
    printf("| way | us a query | found | partial | none | blocked end | lengths |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (int k = 0; k < 3; k++)
        printf("| %s | %.1f | %lu | %lu | %lu | %lu | %.3f |\n", ways[k].name,
               ways[k].n ? ways[k].us / (double)ways[k].n : 0, ways[k].by[0], ways[k].by[1],
               ways[k].by[2], ways[k].by[3], ways[k].length);
    printf("partial: %lu lines differ from Annotated A*'s, %lu handed to it (fallback)\n", differ,
           fallback);
    nb_overlay_close(ov);
    nb_aa_close(aa);
    nb_sg_close(sg);
    nb_bundle_close(b);
    return 0;
}
