/* bench_sqlite.c: what the SQLite form costs against the binary form, for
 * formats/sqlite.md: file sizes, the time to open (nb_bundle_open, then
 * one cell read, so that a mapped page is touched), and the time to convert
 * each way.  Each bundle is what mkclear bakes: the level and its
 * clearance and component layers for data/sample-agents.yaml.  The baseline is the binary form, measured in the same run;
 * ratios are printed beside the times.  Levels: data/sample.map and, when
 * ../shared is there, the largest benchmark maps.  Run by 'make bench'. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "clearance/clearance.h"
#include "testutil.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

/* Median seconds of reps opens of path. */
static double time_open(const char *path, int reps)
{
    double t[64];
    for (int i = 0; i < reps; i++) {
        nb_bundle *b;
        nb_err err;
        double t0 = now();
        if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK) {
            fprintf(stderr, "bench_sqlite: %s\n", err.msg);
            exit(1);
        }
        volatile int terrain = nb_map_terrain(b, (long)nb_map_width(b) / 2, (long)nb_map_height(b) / 2);
        (void)terrain;
        nb_bundle_close(b);
        t[i] = now() - t0;
    }
    for (int i = 1; i < reps; i++) /* insertion sort: a handful of values */
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    return t[reps / 2];
}

static double time_convert(const char *in, const char *out)
{
    nb_bundle *b;
    nbb_builder *w;
    nb_err err;
    double t0 = now();
    if (nb_bundle_open(in, NB_OPEN_VERIFY, NULL, &b, &err) != NB_OK || nbb_builder_new(&w, &err) != NB_OK ||
        nbb_builder_take(w, b, &err) != NB_OK) {
        fprintf(stderr, "bench_sqlite: %s\n", err.msg);
        exit(1);
    }
    nb_bundle_close(b);
    if (nbb_builder_write(w, out, &err) != NB_OK) {
        fprintf(stderr, "bench_sqlite: %s\n", err.msg);
        exit(1);
    }
    nbb_builder_free(w);
    return now() - t0;
}

static void bench(const char *label, const char *map, int zlib)
{
    nbi_legend legend;
    static nbi_agentset agents;
    nbb_grid grid;
    nb_err err;
    nbi_legend_default(&legend);
    if (nbb_map_read(map, &legend, 1, &grid, &err) != NB_OK ||
        nbb_agents_read(tu_src("data/sample-agents.yaml"), &legend, &agents, &err) != NB_OK) {
        fprintf(stderr, "bench_sqlite: %s\n", err.msg);
        exit(1);
    }
    const char *dir = tu_tmpdir();
    const char *bin = tu_path(dir, "b.nbk"), *db = tu_path(dir, "b.sqlite");
    const char *back = tu_path(dir, "back.nbk");
    nbb_builder *w;
    if (nbb_builder_new(&w, &err) != NB_OK ||
        nbb_put_level(w, &legend, &agents, &grid, zlib, &err) != NB_OK ||
        nbb_bake_clearance(w, &legend, &agents, &grid, zlib, NULL, &err) != NB_OK ||
        nbb_builder_write(w, bin, &err) != NB_OK) {
        fprintf(stderr, "bench_sqlite: %s\n", err.msg);
        exit(1);
    }
    nbb_builder_free(w);
    double to_sql = time_convert(bin, db), to_bin = time_convert(db, back);
    double ob = time_open(bin, 15), os = time_open(db, 15);
    char name[64];
    snprintf(name, sizeof name, "%s%s", label, zlib ? " (zlib)" : "");
    printf("%-24s %5ux%-5u %9lld %9lld %5.2f | %9.1f %9.1f %7.1f | %8.1f %8.1f\n", name, grid.width,
           grid.height, file_size(bin), file_size(db), (double)file_size(db) / (double)file_size(bin),
           ob * 1e6, os * 1e6, os / ob, to_sql * 1e3, to_bin * 1e3);
    nbb_grid_free(&grid);
}

int main(void)
{
    printf("# SQLite form against the binary form (median of 15 opens; one convert each way)\n");
    printf("%-24s %11s %9s %9s %5s | %9s %9s %7s | %8s %8s\n", "level", "cells", "binary B",
           "sqlite B", "ratio", "open bin", "open sql", "ratio", "->sql ms", "->bin ms");
    printf("%-24s %11s %9s %9s %5s | %9s %9s %7s |\n", "", "", "", "", "", "us", "us", "");
    bench("data/sample.map", tu_src("data/sample.map"), 0);
    static const char *const maps[][2] = {{"maps/dao/arena.map", "dao/arena"},
                                          {"maps/bg/AR0011SR.map", "bg/AR0011SR"},
                                          {"maps/random/random512-10-0.map", "random512-10-0"},
                                          {"maps/sc1/AcrosstheCape.map", "sc1/AcrosstheCape"},
                                          {"maps/dao/orz900d.map", "dao/orz900d"}};
    int shared = 0;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        const char *p = tu_shared(maps[i][0]);
        if (!p)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s", p);
        bench(maps[i][1], path, 0);
        bench(maps[i][1], path, 1);
        shared++;
    }
    if (!shared)
        printf("# ../shared is absent: only the sample level was measured\n");
    return 0;
}
