/* bench_far.c: HAA*'s longest queries on a bundle the tools baked (issue
 * 16): from the standable cell nearest one corner of the map to the one
 * nearest the opposite corner (both diagonals), for the bundle's first
 * agent, each query repeated; prints for each the level searched, the
 * expansions, the path's length and cells, and the first, least, median
 * and mean microseconds, straightened (NB_HAA_STRAIGHTEN, navbake query's
 * default) and as refined.  For profiling a big level without baking it
 * in the benchmark (bench_scale bakes its own), e.g. under perf record.
 * Usage: bench_far [-n REPEATS] BUNDLE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "navbake.h"
#include "shapes.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The standable cell nearest (x, y), searched along anti-diagonals toward (x + dx r, y + dy r). */
static int nearest(const nb_bundle *b, const nb_agent *a, long x, long y, long dx, long dy,
                   nb_cell *out)
{
    long w = (long)nb_map_width(b), h = (long)nb_map_height(b);
    for (long r = 0; r < w + h; r++)
        for (long k = 0; k <= r; k++) {
            long cx = x + dx * k, cy = y + dy * (r - k);
            if (cx >= 0 && cy >= 0 && cx < w && cy < h &&
                nb_can_stand(b, a->capability, a->size, cx, cy)) {
                *out = (nb_cell){(int32_t)cx, (int32_t)cy};
                return 1;
            }
        }
    return 0;
}

int main(int argc, char **argv)
{
    int n = 50;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            n = atoi(argv[++i]);
        else
            path = argv[i];
    }
    if (!path || n < 1 || n > 100000) {
        fprintf(stderr, "usage: bench_far [-n REPEATS (1 to 100000)] BUNDLE\n");
        return 2;
    }
    nb_bundle *b;
    nb_haa *ws;
    nb_err err;
    double t0 = now();
    if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK) {
        fprintf(stderr, "bench_far: %s\n", err.msg);
        return 1;
    }
    double t1 = now();
    if (nb_haa_open(b, &ws, &err) != NB_OK || nb_agent_count(b) == 0) {
        fprintf(stderr, "bench_far: %s\n", nb_agent_count(b) ? err.msg : "no agent set");
        return 1;
    }
    double t2 = now();
    const nb_agent *a = nb_agent_get(b, 0);
    long w = (long)nb_map_width(b), h = (long)nb_map_height(b);
    printf("%s: %ld x %ld, agent %s; nb_bundle_open %.0f us, the first nb_haa_open %.0f us "
           "(checks the graph and its levels); %d repeats\n\n",
           path, w, h, a->name, (t1 - t0) * 1e6, (t2 - t1) * 1e6, n);
    printf("| query | flags | level | expanded: insert / search / refine | abstract nodes | length "
           "| cells | first us | least us | median us | mean us |\n"
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    double *ts = malloc((size_t)n * sizeof *ts);
    struct {
        const char *what;
        long x, y, dx, dy, gx, gy, gdx, gdy;
    } qs[2] = {{"top left to bottom right", 0, 0, 1, 1, w - 1, h - 1, -1, -1},
               {"top right to bottom left", w - 1, 0, -1, 1, 0, h - 1, 1, -1}};
    for (int k = 0; k < 2; k++)
        for (int f = 0; f < 2; f++) {
            nb_aa_query q;
            nb_aa_query_init(&q);
            nb_aa_query_agent(&q, a);
            if (!ts || !nearest(b, a, qs[k].x, qs[k].y, qs[k].dx, qs[k].dy, &q.start) ||
                !nearest(b, a, qs[k].gx, qs[k].gy, qs[k].gdx, qs[k].gdy, &q.goal)) {
                fprintf(stderr, "bench_far: no standable cell for the agent\n");
                return 1;
            }
            unsigned flags = f == 0 ? NB_HAA_STRAIGHTEN : 0;
            nb_haa_result r;
            double first = 0, sum = 0;
            for (int i = 0; i <= n; i++) {
                double s = now();
                if (tu_haa_find(ws, &q, flags, &r, &err) != NB_OK) {
                    fprintf(stderr, "bench_far: %s\n", err.msg);
                    return 1;
                }
                double us = (now() - s) * 1e6;
                if (i == 0)
                    first = us;
                else
                    ts[i - 1] = us, sum += us;
            }
            qsort(ts, (size_t)n, sizeof *ts, cmp_double);
            printf("| %s | %s | %u | %llu / %llu / %llu | %zu | %.2f | %zu | %.0f | %.0f | %.0f | "
                   "%.0f |\n",
                   qs[k].what, flags ? "straightened" : "refined", r.level,
                   (unsigned long long)r.expanded_insert, (unsigned long long)r.expanded_search,
                   (unsigned long long)r.expanded_refine, r.abstract_len, r.length, r.path_len,
                   first, ts[0], ts[n / 2], sum / n);
        }
    free(ts);
    nb_haa_close(ws);
    nb_bundle_close(b);
    return 0;
}
