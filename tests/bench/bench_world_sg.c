/* bench_world_sg.c: the optimal layer across a world's tiles
 * (nb_world_sg_find) against world HAA* (nb_world_haa_find) from one cell
 * to another, on a world linked with `optimal: 1` (issue 31: the optimal
 * layer within 10 times HAA*'s time).
 *
 *   bench_world_sg OUT SX,SY GX,GY [RUNS [RECTS]]
 *
 * OUT is where navbake world link wrote world.nbw (its tiles in
 * OUT/tiles).  Every tile is loaded first; each method's first query (its
 * layer read and checked) is timed apart, then RUNS (default 15) more,
 * CPU time of the process, the median printed with the length, nodes and
 * the workspace's bytes; then world Annotated A* once (an independent
 * search over the cells: the exact length the optimal layer must give),
 * and the process's peak resident set.
 *
 * With RECTS (1 or more), then in the same run under a world overlay of
 * RECTS rectangles of 20 x 20 cells, centred where the optimal path found
 * without the overlay crosses a tile border (RECTS of its crossings, spaced
 * evenly), so that the overlay cuts that path: each method's first
 * query under an overlay (the overlay's version changed before each of
 * RUNS queries by unblocking and blocking one of its cells again, so
 * nothing is kept from the last) and the same query repeated under one
 * overlay (what the workspace keeps, reused), medians of RUNS. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "worldbake.h"

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    nb_cell s, g;
    if (argc < 4 || sscanf(argv[2], "%d,%d", &s.x, &s.y) != 2 ||
        sscanf(argv[3], "%d,%d", &g.x, &g.y) != 2) {
        fprintf(stderr, "usage: bench_world_sg OUT SX,SY GX,GY [RUNS]\n");
        return 2;
    }
    int runs = argc > 4 ? atoi(argv[4]) : 15;
    if (runs < 1 || runs > 1000)
        runs = 15;
    int rects = argc > 5 ? atoi(argv[5]) : 0;
    if (rects < 0 || rects > 1000)
        rects = 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/world.nbw", argv[1]);
    nb_world *w;
    nb_err err;
    nb_world_info in;
    if (nb_world_open(path, NULL, 0, NULL, &w, &err) != NB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    nb_world_describe(w, &in);
    for (uint32_t r = 0; r < in.rows; r++)
        for (uint32_t c = 0; c < in.columns; c++)
            if (nb_world_load(w, (nb_world_tile){c, r}, &err) != NB_OK) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
    nb_world_sg *sg;
    nb_world_haa *haa;
    nb_world_aa *aa;
    if (nb_world_sg_open(w, &sg, &err) != NB_OK || nb_world_haa_open(w, &haa, &err) != NB_OK ||
        nb_world_aa_open(w, &aa, &err) != NB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    nb_sg_query sq;
    nb_sg_query_init(&sq);
    nb_haa_query hq;
    nb_haa_query_init(&hq);
    const nb_agent *ag = nb_agent_get(nb_world_bundle(w), 0);
    sq.start = hq.start = s, sq.goal = hq.goal = g;
    sq.capability = hq.capability = ag->capability;
    hq.flags = NB_HAA_STRAIGHTEN;
    double *t = malloc((size_t)runs * sizeof *t), opt_length = 0;
    nb_world_overlay *ov = NULL;
    long rx = 0, ry = 0; /* the first rectangle's corner: its version toggled by it */
    if (rects) {
        if (nb_world_overlay_open(w, &ov, &err) != NB_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        long T = in.tile;
        nb_sg_result r0;
        if (nb_world_sg_find(sg, &sq, NULL, &r0, &err) != NB_OK || r0.status != NB_PATH_FOUND) {
            fprintf(stderr, "no path without the overlay: %s\n", err.msg);
            return 1;
        }
        size_t ncross = 0;
        for (size_t i = 1; i < r0.path_len; i++)
            ncross += r0.path[i].x / T != r0.path[i - 1].x / T ||
                      r0.path[i].y / T != r0.path[i - 1].y / T;
        for (int k = 1; k <= rects && ncross; k++) {
            /* The crossing k * ncross / (rects + 1), 10 cells each side of it. */
            size_t want = (size_t)k * ncross / (size_t)(rects + 1), c = 0, at = 0;
            for (size_t i = 1; i < r0.path_len && !at; i++)
                if ((r0.path[i].x / T != r0.path[i - 1].x / T ||
                     r0.path[i].y / T != r0.path[i - 1].y / T) &&
                    c++ == want)
                    at = i;
            long x = r0.path[at].x - 10, y = r0.path[at].y - 10;
            x = x < 0 ? 0 : x + 20 > (long)in.width ? (long)in.width - 20 : x;
            y = y < 0 ? 0 : y + 20 > (long)in.height ? (long)in.height - 20 : y;
            if (k == 1)
                rx = x, ry = y;
            if (nb_world_overlay_block(ov, x, y, 20, 20, &err) != NB_OK) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
        }
    }
    for (int m = 0; m < (rects ? 6 : 2); m++) {
        /* m 0, 1: no overlay; 2, 3: first query under an overlay; 4, 5: the same again. */
        const nb_world_overlay *o = m < 2 ? NULL : ov;
        double first = 0, length = 0;
        uint64_t nodes = 0;
        size_t cells = 0, bytes = 0;
        for (int i = -1; i < runs; i++) {
            if (m == 2 || m == 3) { /* a new version: nothing kept from the last query */
                nb_world_overlay_unblock(ov, rx, ry, 1, 1, &err);
                nb_world_overlay_block(ov, rx, ry, 1, 1, &err);
            }
            double t0 = cpu();
            nb_status st;
            nb_path_status ps;
            if (m % 2 == 0) {
                nb_sg_result r;
                st = nb_world_sg_find(sg, &sq, o, &r, &err);
                length = r.length, nodes = r.expanded, cells = r.path_len, ps = r.status;
            } else {
                nb_haa_result r;
                st = nb_world_haa_find(haa, &hq, o, &r, &err);
                length = r.length, nodes = r.expanded, cells = r.path_len, ps = r.status;
            }
            if (st == NB_OK && ps != NB_PATH_FOUND)
                length = -1;
            double dt = cpu() - t0;
            if (st != NB_OK) {
                fprintf(stderr, "%s\n", err.msg);
                return 1;
            }
            if (i < 0)
                first = dt;
            else
                t[i] = dt;
        }
        if (m == 0)
            opt_length = length;
        qsort(t, (size_t)runs, sizeof *t, cmp);
        bytes = m % 2 == 0 ? nb_world_sg_bytes(sg) : nb_world_haa_bytes(haa);
        static const char *name[] = {"optimal", "haa", "optimal, first under the overlay",
                                     "haa, first under the overlay",
                                     "optimal, again under the overlay",
                                     "haa, again under the overlay"};
        printf("%-8s length %.6f, %zu cells, %llu nodes; first %.1f ms, median of %d %.2f ms; "
               "workspace %zu bytes\n",
               name[m], length, cells, (unsigned long long)nodes, 1e3 * first, runs,
               1e3 * t[runs / 2], bytes);
    }
    nb_aa_query aq;
    nb_aa_query_init(&aq);
    nb_aa_query_agent(&aq, ag);
    aq.start = s, aq.goal = g;
    nb_aa_result ar;
    double t0 = cpu();
    if (nb_world_aa_find(aa, &aq, NULL, &ar, &err) != NB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    printf("aa       length %.6f, %zu cells, %llu nodes; once %.1f ms; the optimal layer's "
           "length %s\n",
           ar.length, ar.path_len, (unsigned long long)ar.expanded, 1e3 * (cpu() - t0),
           ar.status == NB_PATH_FOUND && fabs(ar.length - opt_length) <= 1e-6 * ar.length
               ? "the same"
               : "DIFFERS");
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6))
            printf("process peak RSS %s", line + 6);
    if (f)
        fclose(f);
    free(t);
    nb_world_aa_close(aa);
    nb_world_overlay_close(ov);
    nb_world_sg_close(sg);
    nb_world_haa_close(haa);
    nb_world_close(w);
    return 0;
}
