/* bench_progress.c: what showing progress costs a long bake.  mkclear's
 * layers and mkabstract's graph are baked for a 4096 x 4096 level (open
 * ground with a long wall every 256 rows, the map of tests/cli/progress.sh;
 * the default agent) with no progress, with the terminal line (drawn to
 * /dev/null) and with --progress=json, in turn, -n times each; the CPU
 * time of each bake is measured and the medians compared, with how often
 * the bake side reported.  Under callgrind (tests/bench/results/progress-bench.md)
 * the instructions spent in reporting are counted exactly.  Run by 'make
 * bench'; writes Markdown on standard output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progress.h"
#include "testutil.h"

#define MAX_REPS 15

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const nb_err *err)
{
    fprintf(stdout, "bench_progress: %s: %s\n", what, err->msg);
    exit(1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *t, int n)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    return t[n / 2];
}

/* The tool's progress, counting what reaches it. */
typedef struct counted {
    nbc_progress p;
    unsigned long calls;
} counted;

static void count_update(void *arg, double fraction)
{
    counted *c = arg;
    c->calls++;
    nbc_progress_update(&c->p, fraction);
}

enum { MODE_NONE, MODE_TTY, MODE_JSON, NMODES };
static const char *const mode_name[NMODES] = {"none", "terminal line", "json"};

/* Starts c as the tool would in that mode, the terminal line forced on
 * (standard error is /dev/null here). */
static uint32_t side = 4096;

static void start(counted *c, int mode, const char *what)
{
    c->calls = 0;
    nbc_progress_start(&c->p, mode == MODE_JSON ? NBC_PROGRESS_JSON : NBC_PROGRESS_NONE, 0, what,
                       (double)side * side, "cells");
    if (mode == MODE_TTY)
        c->p.out = 1;
}

int main(int argc, char **argv)
{
    int reps = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "-n") == 0)
            reps = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "-s") == 0)
            side = (uint32_t)atoi(argv[i + 1]);
    }
    if (reps < 1 || reps > MAX_REPS || side < 256 || side > NB_MAP_MAX_SIDE || argc % 2 == 0) {
        fprintf(stderr, "usage: bench_progress [-n REPS (1-%d)] [-s SIDE (256-%d)]\n", MAX_REPS,
                NB_MAP_MAX_SIDE);
        return 2;
    }
    if (!freopen("/dev/null", "w", stderr))
        return 1;
    nbi_legend legend;
    nbi_legend_default(&legend);
    nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    agents.count = 1;
    snprintf(agents.agent[0].name, sizeof agents.agent[0].name, "a");
    agents.agent[0].size = 1;
    agents.agent[0].capability = 0x3; /* ground and swamp */
    nbb_grid g = {side, side, malloc((size_t)side * side)};
    if (!g.cells)
        return 1;
    for (size_t y = 0; y < side; y++)
        for (size_t x = 0; x < side; x++)
            g.cells[y * side + x] = y % 256 == 128 && x >= 100 && x < side - 100 ? '@' : '.';

    double clear_t[NMODES][MAX_REPS], abs_t[NMODES][MAX_REPS];
    unsigned long clear_calls[NMODES] = {0}, abs_calls[NMODES] = {0};
    nb_bundle *b = NULL;
    nb_err err;
    for (int r = 0; r < reps; r++)
        for (int mode = 0; mode < NMODES; mode++) {
            counted c;
            nbb_builder *w;
            if (nbb_builder_new(&w, &err) != NB_OK)
                die("builder", &err);
            start(&c, mode, "clearance and components");
            double t0 = cpu_now();
            /* One thread: the CPU time is the bake's own, with no waits. */
            if (nbb_bake_clearance_opts(w, &legend, &agents, &g, 0, 1,
                                        mode == MODE_NONE ? NULL : count_update, &c, NULL,
                                        &err) != NB_OK)
                die("clearance", &err);
            clear_t[mode][r] = cpu_now() - t0;
            nbc_progress_end(&c.p);
            clear_calls[mode] = c.calls;
            if (!b) {
                /* The level and its layers once, for the abstract bakes. */
                uint8_t *image;
                size_t len;
                if (nbb_put_level(w, &legend, &agents, &g, 0, &err) != NB_OK ||
                    nbb_builder_image(w, &image, &len, &err) != NB_OK ||
                    nb_bundle_open_memory(image, len, 0, NULL, &b, &err) != NB_OK)
                    die("bundle", &err);
                free(image);
            }
            nbb_builder_free(w);
            nbb_abstract_opts o;
            nbb_abstract_defaults(&o);
            o.threads = 1;
            start(&c, mode, "abstract graph");
            o.progress = mode == MODE_NONE ? NULL : count_update;
            o.progress_arg = &c;
            uint8_t *payload;
            size_t len;
            t0 = cpu_now();
            if (nbb_abstract_build(b, &o, &payload, &len, NULL, &err) != NB_OK)
                die("abstract", &err);
            abs_t[mode][r] = cpu_now() - t0;
            nbc_progress_end(&c.p);
            abs_calls[mode] = c.calls;
            free(payload);
        }
    nb_bundle_close(b);
    free(g.cells);

    printf("| bake (%d x %d, default agent) | progress | reports | CPU s (median of %d) | "
           "against none |\n|---|---|---|---|---|\n",
           side, side, reps);
    const char *bakes[2] = {"mkclear's layers", "mkabstract's graph"};
    for (int k = 0; k < 2; k++) {
        double med[NMODES];
        for (int mode = 0; mode < NMODES; mode++)
            med[mode] = median(k ? abs_t[mode] : clear_t[mode], reps);
        for (int mode = 0; mode < NMODES; mode++)
            printf("| %s | %s | %lu | %.3f | %+.2f%% |\n", bakes[k], mode_name[mode],
                   k ? abs_calls[mode] : clear_calls[mode], med[mode],
                   100 * (med[mode] / med[MODE_NONE] - 1));
    }
    return 0;
}
