/* bench_bake.c: a chunk of 256 x 256 cells baked in memory through the
 * bake library (navbake_bake.h), as a game that makes terrain as the
 * player explores bakes each chunk as it appears (issue 33 item 5: at
 * most 20 ms with clearance, components and the HAA* graph).  The chunks:
 * a cave made by a cellular automaton (walls, with swamp and water), and
 * 256 x 256 crops of real maps from $NB_SHARED/maps where present.  Each
 * bake goes from the grid of terrain ids to the bundle's bytes: the
 * layers alone (mkclear's clearance, components and runs), with the HAA*
 * graph (mkabstract's defaults: the goal), with the optimal layer as
 * well, on 1 and 2 threads, and with the sample's four agent types.
 * Prints the minimum and median of --runs bakes (default 30), in ms.
 *   bench_bake [--runs N] [--config I] [--chunk cave|MAP]
 * (--config: only the I-th bake of the list, from 0; --chunk: only that
 * chunk: for a profiler).
 * make bench-bake runs it; results: tests/bench/results/bake-bench.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bake_int.h"
#include "navbake_bake.h"
#include "testutil.h"

#ifndef NB_SHARED_DEFAULT
#define NB_SHARED_DEFAULT "../shared"
#endif

#define SIDE 256

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void die(const char *what, const nb_err *err)
{
    fprintf(stderr, "bench_bake: %s%s%s\n", what, err ? ": " : "", err ? err->msg : "");
    exit(1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A cave: 45% walls smoothed four times by the 4-5 rule, then swamp and
 * water in blobs of the open cells (ids of the default legend). */
static void cave(uint8_t *ids, uint64_t seed)
{
    tu_rng r = {seed};
    uint8_t *a = malloc(SIDE * SIDE), *b = malloc(SIDE * SIDE);
    for (int i = 0; i < SIDE * SIDE; i++)
        a[i] = tu_below(&r, 100) < 45;
    for (int it = 0; it < 4; it++) {
        for (int y = 0; y < SIDE; y++)
            for (int x = 0; x < SIDE; x++) {
                int walls = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++) {
                        int nx = x + dx, ny = y + dy;
                        walls += nx < 0 || ny < 0 || nx >= SIDE || ny >= SIDE || a[ny * SIDE + nx];
                    }
                b[y * SIDE + x] = walls >= 5;
            }
        memcpy(a, b, SIDE * SIDE);
    }
    for (int i = 0; i < SIDE * SIDE; i++)
        ids[i] = a[i] ? NB_BAKE_OBSTACLE : 0;
    for (int k = 0; k < 40; k++) { /* blobs of swamp (1) and water (2) */
        int cx = (int)tu_below(&r, SIDE), cy = (int)tu_below(&r, SIDE), rad = 3 + (int)tu_below(&r, 8);
        uint8_t t = (uint8_t)(1 + k % 2);
        for (int y = cy - rad; y <= cy + rad; y++)
            for (int x = cx - rad; x <= cx + rad; x++)
                if (x >= 0 && y >= 0 && x < SIDE && y < SIDE &&
                    (x - cx) * (x - cx) + (y - cy) * (y - cy) <= rad * rad &&
                    ids[y * SIDE + x] != NB_BAKE_OBSTACLE)
                    ids[y * SIDE + x] = t;
    }
    free(a);
    free(b);
}

/* The SIDE x SIDE cells at the middle of a shared map as ids; 0 when the
 * map is not there. */
static int crop(const char *shared, const char *rel, uint8_t *ids)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/maps/%s", shared, rel);
    nbi_legend legend;
    nbi_legend_default(&legend);
    nbb_grid g;
    nb_err err;
    if (nbb_map_read(path, &legend, 1, &g, &err) != NB_OK)
        return 0;
    uint32_t x0 = g.width > SIDE ? (g.width - SIDE) / 2 : 0;
    uint32_t y0 = g.height > SIDE ? (g.height - SIDE) / 2 : 0;
    for (uint32_t y = 0; y < SIDE; y++)
        for (uint32_t x = 0; x < SIDE; x++) {
            uint8_t code = x0 + x < g.width && y0 + y < g.height
                               ? legend.code[g.cells[(size_t)(y0 + y) * g.width + x0 + x]]
                               : NBI_CELL_OBSTACLE;
            ids[y * SIDE + x] = code < NB_MAX_TERRAINS ? code : NB_BAKE_OBSTACLE;
        }
    nbb_grid_free(&g);
    return 1;
}

typedef struct config {
    const char *name;
    uint32_t flags, threads;
    int agents; /* 1: the sample's four agent types */
    int low;    /* 1: a low-quality graph, the first placement */
} config;

static void bench(const char *chunk, const uint8_t *ids, const config *c, const char *agents,
                  int runs)
{
    nb_bake *bk;
    nb_err err;
    nb_bake_options o;
    if (nb_bake_open(NULL, &bk, &err) != NB_OK)
        die("open", &err);
    if (c->agents && nb_bake_set_agents(bk, agents, strlen(agents), "sample-agents.yaml",
                                        &err) != NB_OK)
        die("agents", &err);
    if (nb_bake_set_grid(bk, SIDE, SIDE, ids, &err) != NB_OK)
        die("grid", &err);
    nb_bake_options_init(&o);
    o.flags = c->flags;
    o.threads = c->threads;
    if (c->low) {
        o.quality = NB_BAKE_QUALITY_LOW;
        o.placement = NB_BAKE_PLACE_FIRST;
    }
    double *t = malloc(sizeof *t * (size_t)runs);
    size_t len = 0;
    for (int i = 0; i < runs; i++) {
        void *data;
        double t0 = now_ms();
        if (nb_bake_memory(bk, &o, &data, &len, &err) != NB_OK)
            die("bake", &err);
        t[i] = now_ms() - t0;
        nb_bake_free(bk, data);
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_double);
    printf("| %s | %s | %u | %.2f | %.2f | %zu |\n", chunk, c->name, (unsigned)c->threads, t[0],
           t[runs / 2], len);
    fflush(stdout);
    free(t);
    nb_bake_close(bk);
}

int main(int argc, char **argv)
{
    int runs = 30, only = -1;
    const char *chunk = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
            only = atoi(argv[++i]);
        else if (strcmp(argv[i], "--chunk") == 0 && i + 1 < argc)
            chunk = argv[++i];
        else {
            fprintf(stderr, "usage: bench_bake [--runs N] [--config I] [--chunk cave|MAP]\n");
            return 2;
        }
    }
    if (runs < 1)
        runs = 1;
    const char *shared = getenv("NB_SHARED") ? getenv("NB_SHARED") : NB_SHARED_DEFAULT;
    char *agents = tu_read(tu_src("data/sample-agents.yaml"), NULL);
    if (!agents)
        die("cannot read data/sample-agents.yaml", NULL);
    static const config configs[] = {
        {"layers (clearance, components, runs)", 0, 1, 0, 0},
        {"layers + HAA* graph", NB_BAKE_ABSTRACT, 1, 0, 0},
        {"layers + HAA* graph", NB_BAKE_ABSTRACT, 2, 0, 0},
        {"layers + HAA* graph + optimal layer", NB_BAKE_ABSTRACT | NB_BAKE_OPTIMAL, 1, 0, 0},
        {"layers + HAA* graph, 4 agent types", NB_BAKE_ABSTRACT, 1, 1, 0},
        {"layers + HAA* graph + optimal, 4 agent types", NB_BAKE_ABSTRACT | NB_BAKE_OPTIMAL, 1, 1,
         0},
        {"layers + low-quality HAA* graph, first placement", NB_BAKE_ABSTRACT, 1, 0, 1},
    };
    static const char *const maps[] = {"dao/brc202d.map", "sc1/AcrosstheCape.map",
                                       "street/Paris_0_512.map"};
    printf("%d bakes each of a %d x %d chunk in memory (nb_bake_memory), ms\n\n", runs, SIDE,
           SIDE);
    printf("| chunk | bake | threads | min | median | bytes |\n|---|---|---:|---:|---:|---:|\n");
    uint8_t *ids = malloc(SIDE * SIDE);
    cave(ids, 1);
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++)
        if ((only < 0 || (size_t)only == c) && (!chunk || strcmp(chunk, "cave") == 0))
            bench("cave", ids, &configs[c], agents, runs);
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
        if (chunk && strcmp(chunk, maps[m]) != 0)
            continue;
        if (!crop(shared, maps[m], ids)) {
            printf("| %s | (not in %s/maps) | | | | |\n", maps[m], shared);
            continue;
        }
        for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++)
            if (configs[c].threads == 1 && (only < 0 || (size_t)only == c))
                bench(maps[m], ids, &configs[c], agents, runs);
    }
    free(ids);
    free(agents);
    return 0;
}
