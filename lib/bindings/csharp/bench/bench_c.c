/* bench_c.c: the C side of the C# binding's benchmark: the same queries
 * as Bench.cs (each line of a scenario file as Annotated A*, the nearest
 * cell to its start, the straight line from start to goal), made through
 * navbake.h directly, timed as Bench.cs times them: the best of ROUNDS
 * rounds of the whole list, in nanoseconds a query.
 *   bench_c BUNDLE FILE.scen ROUNDS */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "navbake.h"

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 4) { fprintf(stderr, "usage: bench_c BUNDLE FILE.scen ROUNDS\n"); return 2; }
    nb_bundle *b; nb_err err;
    if (nb_bundle_open(argv[1], 0, NULL, &b, &err) != NB_OK) { fprintf(stderr, "%s\n", err.msg); return 1; }
    FILE *f = fopen(argv[2], "r");
    if (!f) { perror(argv[2]); return 1; }
    static nb_cell s[100000], g[100000];
    size_t n = 0; char line[1024];
    while (fgets(line, sizeof line, f) && n < 100000) {
        int sx, sy, gx, gy;
        if (sscanf(line, "%*d %*s %*d %*d %d %d %d %d", &sx, &sy, &gx, &gy) == 4) {
            s[n].x = sx; s[n].y = sy; g[n].x = gx; g[n].y = gy; n++;
        }
    }
    fclose(f);
    int rounds = atoi(argv[3]);
    nb_aa *aa; nb_place *pl;
    if (nb_aa_open(b, &aa, &err) != NB_OK || nb_place_open(b, &pl, &err) != NB_OK) { fprintf(stderr, "%s\n", err.msg); return 1; }
    const nb_agent *a = nb_agent_get(b, 0);
    nb_aa_query q; nb_aa_query_init(&q); nb_aa_query_agent(&q, a);
    nb_nearest_query nq; nb_nearest_query_init(&nq); nb_nearest_query_agent(&nq, a);
    nb_line_query lq; nb_line_query_init(&lq); nb_line_query_agent(&lq, a);
    double best[3] = {1e300, 1e300, 1e300}, sum[3] = {0, 0, 0};
    for (int r = 0; r < rounds; r++) {
        double t0 = now_ns();
        for (size_t i = 0; i < n; i++) {
            nb_aa_result res;
            q.start = s[i]; q.goal = g[i];
            if (nb_aa_find(aa, &q, &res, &err) != NB_OK) return 1;
            sum[0] += res.length;
        }
        double t1 = now_ns();
        for (size_t i = 0; i < n; i++) {
            nb_nearest_result res;
            nq.point = s[i];
            if (nb_nearest_find(pl, &nq, &res, &err) != NB_OK) return 1;
            sum[1] += res.distance;
        }
        double t2 = now_ns();
        for (size_t i = 0; i < n; i++) {
            nb_line_result res;
            lq.start.x = s[i].x; lq.start.y = s[i].y; lq.goal.x = g[i].x; lq.goal.y = g[i].y;
            if (nb_line_find(pl, &lq, &res, &err) != NB_OK) return 1;
            sum[2] += res.t;
        }
        double t3 = now_ns();
        double d[3] = {t1 - t0, t2 - t1, t3 - t2};
        for (int k = 0; k < 3; k++) if (d[k] < best[k]) best[k] = d[k];
    }
    /* The sums, so that Bench.cs can show it made the same queries. */
    printf("aa %.1f %.6f\nnearest %.1f %.6f\nline %.1f %.6f\n", best[0] / n, sum[0] / rounds,
           best[1] / n, sum[1] / rounds, best[2] / n, sum[2] / rounds);
    nb_place_close(pl); nb_aa_close(aa); nb_bundle_close(b);
    return 0;
}
