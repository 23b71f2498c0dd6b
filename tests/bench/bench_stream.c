/* bench_stream.c: a walker crossing a world of tiles (issue 31, item 6):
 * the game keeps the 3 x 3 tiles around the walker loaded (nb_world_load
 * and nb_world_unload as it crosses tile borders), asks a short Annotated
 * A* query every frame (to a cell within the window) and a long one every
 * second of frames (far ahead of the walker), which loads the tiles it
 * needs through the game's loader under a byte budget
 * (nb_world_set_budget).  It prints, each second of frames, what the world
 * holds (nb_world_bytes), what of it is resident (nb_world_resident) and
 * the process's resident set; then the times of the queries, loads and
 * unloads, and the largest of each memory figure against the goal (64 MB
 * resident with a 3 x 3 window of 1024^2 tiles).
 *
 *   bench_stream OUT [-s CELLS] [-r CELLS] [-l CELLS] [-b TILES] [-f FPS] [-w] [-H|-O] [-t]
 *
 * OUT is where navbake world link wrote world.nbw (its tiles in
 * OUT/tiles).  -s: the walker's speed in cells a frame (8); -r: the short
 * queries' reach around it (256); -l: how far ahead (along the diagonal,
 * in each axis) the long query's goal lies (1536); -b: the budget in tiles
 * (12: the window's 9 and 3 more; each tile counted at the tile bundles'
 * mean size, plus the world bundle's own bytes); -f: frames a second (60).
 * The world's files are first dropped from the system's page cache
 * (posix_fadvise), as after a reboot, so that the loads read the disk;
 * -w keeps them (warm).  nb_world_resident counts the pages the process
 * maps on Linux (/proc/self/pagemap), so it counts what the walk read
 * either way (elsewhere it is mincore's page cache: cold start then).  The walker goes along the world's diagonal from its first tile's centre
 * to its last's; every query's ends are the standable cells nearest the
 * points chosen (nb_world_nearest_find).  -H: the long query is HAA*
 * across tiles (nb_world_haa_find, straightened) instead of Annotated A*;
 * -O: the world optimal layer (nb_world_sg_find, on a world linked with
 * `optimal: 1`), its workspace counted in the workspace column.
 * -t: after each long query the game calls nb_world_trim (the world
 * bundle's pages of the tiles not loaded given back); the memory figures
 * of that second are then taken after the trim, and the largest before
 * one are printed too (the process's peak, VmHWM, counts both).
 *
 * After the walk: HAA* from the world's first corner to its last, from no
 * tile loaded (the loader maps what it needs, no budget), then 15 times
 * more with those tiles mapped: the median wall and thread CPU time, the
 * tiles it mapped, the nodes its search above the tiles expanded; then
 * the same under an overlay that blocks 8 x 8 cells at the middle of that
 * path (the tile it falls in is "edited": searched through its repaired
 * graph, lib/runtime/stream/tile_repair.c, or cell by cell when the block
 * is at its edges, haa_edit.c), to show what an edit costs: the first
 * query under it and the median of 5 more under the same overlay; then
 * under 8 x 8 cells across the first tile border the path crosses after
 * its middle (cell by cell on both sides: what is left of issue 31's
 * overlays at tile edges). */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "navbake.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The process's resident set, in bytes (Linux: /proc/self/statm). */
static double rss(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long size = 0, res = 0;
    if (f) {
        if (fscanf(f, "%lu %lu", &size, &res) != 2)
            res = 0;
        fclose(f);
    }
    return (double)res * (double)sysconf(_SC_PAGESIZE);
}

/* The process's peak resident set so far, in bytes (Linux: VmHWM). */
static double rss_peak(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %lf kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb * 1024;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Times in seconds, kept to report their median, 95th percentile and largest. */
typedef struct times {
    double *v;
    size_t n, cap;
} times;

static void add(times *t, double s)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->v = realloc(t->v, t->cap * sizeof *t->v);
        if (!t->v)
            exit(1);
    }
    t->v[t->n++] = s;
}

static void report(const char *what, times *t)
{
    if (!t->n) {
        printf("| %s | 0 | - | - | - |\n", what);
        return;
    }
    qsort(t->v, t->n, sizeof *t->v, cmp);
    printf("| %s | %zu | %.3f | %.3f | %.3f |\n", what, t->n, 1e3 * t->v[(t->n - 1) / 2],
           1e3 * t->v[(size_t)(0.95 * (double)(t->n - 1))], 1e3 * t->v[t->n - 1]);
}

typedef struct loader_ctx {
    const char *tiles;
    char path[4096];
    unsigned calls;
} loader_ctx;

/* The game's loader: the tile bundle's file, mapped by the load. */
static nb_status loader(void *opaque, nb_world_tile t, const char **path, const void **data,
                        size_t *len, nb_err *err)
{
    (void)data, (void)len, (void)err;
    loader_ctx *c = opaque;
    c->calls++;
    snprintf(c->path, sizeof c->path, "%s/%u_%u.nbb", c->tiles, t.column, t.row);
    *path = c->path;
    return NB_OK;
}

typedef struct walker {
    nb_world *w;
    nb_world_info in;
    nb_world_aa *ws;
    nb_world_haa *hs;
    nb_world_sg *sg; /* -O */
    const nb_agent *agent;
} walker;

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* HAA* across the world from s to g (straightened), timed: wall and thread CPU seconds. */
static nb_status timed_haa(walker *k, nb_cell s, nb_cell g, const nb_world_overlay *ov,
                           nb_haa_result *r, double *secs, double *cpu, nb_err *err)
{
    nb_haa_query q;
    nb_haa_query_init(&q);
    nb_haa_query_agent(&q, k->agent);
    q.start = s, q.goal = g;
    q.flags = NB_HAA_STRAIGHTEN;
    double t = now(), c = cpu_now();
    nb_status st = nb_world_haa_find(k->hs, &q, ov, r, err);
    *secs = now() - t;
    if (cpu)
        *cpu = cpu_now() - c;
    return st;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp);
    return v[(n - 1) / 2];
}

/* Drops a file's clean pages from the page cache (advice). */
static void drop_cache(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        close(fd);
    }
}

static long clampl(long v, long lo, long hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The standable cell nearest (x, y), clamped to the world; 0 when none
 * within 128 cells. */
static int snap(walker *k, long x, long y, nb_cell *out)
{
    nb_nearest_query q;
    nb_nearest_query_init(&q);
    nb_nearest_query_agent(&q, k->agent);
    q.point.x = (int32_t)clampl(x, 0, (long)k->in.width - 1);
    q.point.y = (int32_t)clampl(y, 0, (long)k->in.height - 1);
    q.radius = 128;
    nb_nearest_result r;
    if (nb_world_nearest_find(k->ws, &q, NULL, &r, NULL) != NB_OK || r.status != NB_PATH_FOUND)
        return 0;
    *out = r.cell;
    return 1;
}

/* The world optimal layer from s to g, timed (seconds in *secs). */
static nb_status timed_sg(walker *k, nb_cell s, nb_cell g, nb_sg_result *r, double *secs,
                          nb_err *err)
{
    nb_sg_query q;
    nb_sg_query_init(&q);
    q.capability = k->agent->capability;
    q.start = s, q.goal = g;
    double t = now();
    nb_status st = nb_world_sg_find(k->sg, &q, NULL, r, err);
    *secs = now() - t;
    return st;
}

/* Annotated A* across the world from s to g, timed (seconds in *secs). */
static nb_status timed_aa(walker *k, nb_cell s, nb_cell g, nb_aa_result *r, double *secs,
                          nb_err *err)
{
    nb_aa_query q;
    nb_aa_query_init(&q);
    nb_aa_query_agent(&q, k->agent);
    q.start = s, q.goal = g;
    double t = now();
    nb_status st = nb_world_aa_find(k->ws, &q, NULL, r, err);
    *secs = now() - t;
    return st;
}

static int in_window(long tx, long ty, long cx, long cy)
{
    return labs(tx - cx) <= 1 && labs(ty - cy) <= 1;
}

/* HAA* corner to corner (s to g, len unblocked) under 8 x 8 cells blocked at (bx, by): the
 * first query under the new overlay and the median of 5 more under it. */
static void edit(walker *k, loader_ctx *lc, nb_cell s, nb_cell g, double len, long bx, long by,
                 const char *where)
{
    nb_err err;
    nb_world_overlay *ov = NULL;
    if (nb_world_overlay_open(k->w, &ov, &err) != NB_OK)
        return;
    nb_world_overlay_block(ov, bx, by, 8, 8, &err);
    nb_haa_result r;
    double wall[5], cpu[5], first_wall, first_cpu;
    unsigned calls0 = lc->calls;
    nb_status st = timed_haa(k, s, g, ov, &r, &first_wall, &first_cpu, &err);
    unsigned mapped2 = lc->calls - calls0;
    for (int i = 0; st == NB_OK && i < 5; i++)
        timed_haa(k, s, g, ov, &r, &wall[i], &cpu[i], &err);
    if (st != NB_OK)
        printf("HAA* corner to corner under 8 x 8 cells blocked at (%ld, %ld), %s: %s\n", bx, by,
               where, err.msg);
    else
        printf("HAA* corner to corner under 8 x 8 cells blocked at (%ld, %ld), %s (tiles (%ld, "
               "%ld) to (%ld, %ld) edited): %s, length %.1f (%+.2f%%), %llu nodes expanded (world "
               "graph and the edited tiles' nodes or cells); first %.1f ms wall (%.1f ms CPU, %u "
               "more tiles mapped), median of 5 after it: %.2f ms wall, %.2f ms thread CPU\n",
               bx, by, where, bx / (long)k->in.tile, by / (long)k->in.tile,
               (bx + 7) / (long)k->in.tile, (by + 7) / (long)k->in.tile,
               r.status == NB_PATH_FOUND ? "found" : "NO PATH", r.length,
               100 * (r.length - len) / len, (unsigned long long)r.expanded, 1e3 * first_wall,
               1e3 * first_cpu, mapped2, 1e3 * median(wall, 5), 1e3 * median(cpu, 5));
    nb_world_overlay_close(ov);
}

/* HAA* corner to corner, from no tile loaded (the loader, no budget), then 15 times with its
 * tiles mapped; then under an overlay blocking 8 x 8 cells at its path's middle. */
static void corners(walker *k, loader_ctx *lc)
{
    nb_err err;
    for (uint32_t i = 0; i < k->in.columns * k->in.rows; i++)
        nb_world_unload(k->w, (nb_world_tile){i % k->in.columns, i / k->in.columns}, NULL);
    nb_world_set_budget(k->w, SIZE_MAX);
    nb_cell s, g;
    if (!snap(k, 0, 0, &s) || !snap(k, (long)k->in.width - 1, (long)k->in.height - 1, &g)) {
        printf("\nHAA* corner to corner: no standable cell near a corner\n");
        return;
    }
    unsigned calls0 = lc->calls;
    nb_haa_result r;
    double wall[16], cpu[16], first_wall, first_cpu;
    nb_status st = timed_haa(k, s, g, NULL, &r, &first_wall, &first_cpu, &err);
    if (st != NB_OK) {
        printf("\nHAA* corner to corner: %s\n", err.msg);
        return;
    }
    unsigned mapped = lc->calls - calls0;
    nb_world_info in;
    nb_world_describe(k->w, &in);
    for (int i = 0; i < 15; i++)
        timed_haa(k, s, g, NULL, &r, &wall[i], &cpu[i], &err);
    double len = r.length;
    uint64_t exp = r.expanded;
    size_t plen = r.path_len;
    nb_cell mid = plen ? r.path[plen / 2] : s;
    printf("\nHAA* corner to corner, (%d, %d) to (%d, %d): %s, length %.1f, %zu cells, %llu nodes "
           "expanded above the tiles; the first from no tile loaded %.1f ms wall (%.1f ms CPU), "
           "mapping %u tiles (%u loaded after it, the ends' nearest-cell queries' included); "
           "then with them mapped, median of 15: %.2f ms wall, %.2f ms thread CPU; "
           "nb_world_resident %.1f MiB\n",
           s.x, s.y, g.x, g.y, r.status == NB_PATH_FOUND ? "found" : "NO PATH", len, plen,
           (unsigned long long)exp, 1e3 * first_wall, 1e3 * first_cpu, mapped, in.loaded,
           1e3 * median(wall, 15), 1e3 * median(cpu, 15), nb_world_resident(k->w) / 1048576.0);
    /* An edit: 8 x 8 cells blocked at the path's middle, in one tile; then 8 x 8 across the
     * first tile border the path crosses after it. */
    if (r.status != NB_PATH_FOUND)
        return;
    /* The first step of the path past its middle from one tile to another (read before
     * the edits' queries reuse the path's memory). */
    long tile = (long)k->in.tile;
    nb_cell cross = {-1, -1};
    for (size_t i = plen / 2; i + 1 < plen && cross.x < 0; i++) {
        nb_cell a = r.path[i], b = r.path[i + 1];
        if (a.x / tile != b.x / tile || a.y / tile != b.y / tile)
            cross = b;
    }
    long bx = mid.x - 4, by = mid.y - 4;
    long t0x = mid.x / (long)k->in.tile * (long)k->in.tile;
    long t0y = mid.y / (long)k->in.tile * (long)k->in.tile;
    bx = clampl(bx, t0x, t0x + (long)k->in.tile - 8);
    by = clampl(by, t0y, t0y + (long)k->in.tile - 8);
    edit(k, lc, s, g, len, bx, by, "in one tile");
    if (cross.x >= 0)
        edit(k, lc, s, g, len, clampl(cross.x - 4, 0, (long)k->in.width - 8),
             clampl(cross.y - 4, 0, (long)k->in.height - 8), "across a tile border on the path");
}

int main(int argc, char **argv)
{
    double speed = 8, reach = 256, ahead = 1536, budget_tiles = 12, fps = 60;
    const char *out = NULL;
    int warm = 0, long_haa = 0, long_opt = 0, trim = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-w"))
            warm = 1;
        else if (!strcmp(argv[i], "-t"))
            trim = 1;
        else if (!strcmp(argv[i], "-H"))
            long_haa = 1;
        else if (!strcmp(argv[i], "-O"))
            long_opt = 1;
        else if (i + 1 < argc && argv[i][0] == '-' && strchr("srlbf", argv[i][1]) && !argv[i][2]) {
            double v = atof(argv[i + 1]);
            switch (argv[i][1]) {
            case 's': speed = v; break;
            case 'r': reach = v; break;
            case 'l': ahead = v; break;
            case 'b': budget_tiles = v; break;
            default: fps = v; break;
            }
            i++;
        } else if (!out && argv[i][0] != '-')
            out = argv[i];
        else {
            fprintf(stderr, "usage: bench_stream OUT [-s CELLS] [-r CELLS] [-l CELLS] [-b TILES] "
                            "[-f FPS] [-w] [-H|-O] [-t]\n");
            return 2;
        }
    }
    if (!out || speed <= 0 || fps <= 0 || (long_haa && long_opt)) {
        fprintf(stderr, "usage: bench_stream OUT [-s CELLS] [-r CELLS] [-l CELLS] [-b TILES] "
                        "[-f FPS] [-w] [-H|-O] [-t]\n");
        return 2;
    }
    double rss0 = rss();
    char path[4096], tiles[4096];
    snprintf(path, sizeof path, "%s/world.nbw", out);
    snprintf(tiles, sizeof tiles, "%s/tiles", out);
    if (!warm)
        drop_cache(path);
    walker k;
    k.sg = NULL;
    nb_err err;
    double t0 = now();
    if (nb_world_open(path, tiles, 0, NULL, &k.w, &err) != NB_OK ||
        nb_world_aa_open(k.w, &k.ws, &err) != NB_OK ||
        nb_world_haa_open(k.w, &k.hs, &err) != NB_OK ||
        (long_opt && nb_world_sg_open(k.w, &k.sg, &err) != NB_OK)) {
        fprintf(stderr, "bench_stream: %s\n", err.msg);
        return 1;
    }
    double open_s = now() - t0;
    nb_world_describe(k.w, &k.in);
    k.agent = nb_agent_get(nb_world_bundle(k.w), 0);
    uint32_t ntiles = k.in.columns * k.in.rows;
    /* The tile bundles' mean size, for the budget. */
    double sum = 0;
    for (uint32_t i = 0; i < ntiles; i++) {
        struct stat sb;
        snprintf(path, sizeof path, "%s/%u_%u.nbb", tiles, i % k.in.columns, i / k.in.columns);
        if (stat(path, &sb) == 0)
            sum += (double)sb.st_size;
        if (!warm)
            drop_cache(path);
    }
    double mean = sum / ntiles;
    size_t own = nb_world_bytes(k.w);
    size_t budget = own + (size_t)(budget_tiles * mean);
    loader_ctx lc = {.tiles = tiles};
    nb_world_set_loader(k.w, loader, NULL, &lc);
    nb_world_set_budget(k.w, budget);
    printf("world %s: %u x %u cells, %u x %u tiles of %u; tile bundles %.1f MiB a tile on "
           "average; the world bundle and handle %.1f MiB (opened in %.1f ms)\n",
           out, k.in.width, k.in.height, k.in.columns, k.in.rows, k.in.tile, mean / 1048576,
           own / 1048576.0, 1e3 * open_s);
    printf("walker: %.0f cells a frame, %.0f frames a second; short queries within %.0f cells, "
           "a long one each second %.0f cells ahead in x and y; budget %.1f MiB (%.0f tiles)\n",
           speed, fps, reach, ahead, budget / 1048576.0, budget_tiles);
    printf("process resident before the world: %.1f MiB; the world's files %s; %s\n\n",
           rss0 / 1048576, warm ? "left in the page cache (-w)" : "dropped from the page cache first",
           trim ? "nb_world_trim after each long query (-t)" : "no trim");
    printf("| second | walker | tiles loaded | nb_world_bytes | nb_world_resident | workspace | "
           "process RSS | long query | its loads | its expansions |\n");
    printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");

    double x0 = k.in.tile / 2.0, y0 = k.in.tile / 2.0;
    double x1 = k.in.width - k.in.tile / 2.0, y1 = k.in.height - k.in.tile / 2.0;
    double dist = hypot(x1 - x0, y1 - y0);
    long frames = (long)(dist / speed) + 1;
    long cx = -10, cy = -10; /* the window's centre tile */
    times tshort = {0}, tlong = {0}, tload = {0}, tunload = {0}, tsnap = {0}, ttrim = {0};
    double trimmed = 0, max_res_pre = 0, max_rss_pre = 0;
    unsigned short_found = 0, short_asked = 0, short_unloaded = 0, long_found = 0;
    double max_ws = 0, max_bytes = 0, max_res = 0, max_rss = 0, max_res_window = 0;
    unsigned seed = 12345;
    for (long f = 0; f < frames; f++) {
        double a = (double)f / (double)(frames - 1 > 0 ? frames - 1 : 1);
        long x = (long)(x0 + a * (x1 - x0)), y = (long)(y0 + a * (y1 - y0));
        long tx = x / k.in.tile, ty = y / k.in.tile;
        if (tx != cx || ty != cy) {
            /* Crossed a border: drop what left the window, load what came in. */
            for (uint32_t i = 0; i < ntiles; i++) {
                long ix = i % k.in.columns, iy = i / k.in.columns;
                nb_world_tile t = {(uint32_t)ix, (uint32_t)iy};
                if (in_window(ix, iy, cx, cy) && !in_window(ix, iy, tx, ty) &&
                    nb_world_loaded(k.w, t)) {
                    double s = now();
                    nb_world_unload(k.w, t, NULL);
                    add(&tunload, now() - s);
                }
            }
            for (long iy = ty - 1; iy <= ty + 1; iy++)
                for (long ix = tx - 1; ix <= tx + 1; ix++) {
                    nb_world_tile t = {(uint32_t)ix, (uint32_t)iy};
                    if (ix < 0 || iy < 0 || ix >= (long)k.in.columns || iy >= (long)k.in.rows ||
                        nb_world_loaded(k.w, t))
                        continue;
                    double s = now();
                    if (nb_world_load(k.w, t, &err) != NB_OK) {
                        fprintf(stderr, "bench_stream: %s\n", err.msg);
                        return 1;
                    }
                    add(&tload, now() - s);
                }
            cx = tx, cy = ty;
        }
        /* The frame's short query: to a cell within reach, inside the window. */
        nb_cell s, g;
        double ts = now();
        int ends = snap(&k, x, y, &s);
        seed = seed * 1103515245u + 12345u;
        long gx = x + (long)((seed >> 8) % (unsigned)(2 * reach + 1)) - (long)reach;
        seed = seed * 1103515245u + 12345u;
        long gy = y + (long)((seed >> 8) % (unsigned)(2 * reach + 1)) - (long)reach;
        ends = ends && snap(&k, gx, gy, &g);
        add(&tsnap, now() - ts);
        if (ends) {
            nb_aa_result r;
            double secs;
            nb_status st = timed_aa(&k, s, g, &r, &secs, &err);
            add(&tshort, secs);
            short_asked++;
            short_found += st == NB_OK && r.status == NB_PATH_FOUND;
            short_unloaded += st == NB_ERR_UNLOADED;
            if (st != NB_OK && st != NB_ERR_UNLOADED) {
                fprintf(stderr, "bench_stream: %s\n", err.msg);
                return 1;
            }
        }
        double res = (double)nb_world_resident(k.w);
        if (res > max_res_window)
            max_res_window = res;
        if (f % (long)fps != 0)
            continue;
        /* Each second: the long query, then what the world and the process hold. */
        double lt = 0;
        unsigned loads = lc.calls;
        uint64_t expanded = 0;
        int found = 0;
        if (snap(&k, x, y, &s) && snap(&k, x + (long)ahead, y + (long)ahead, &g)) {
            nb_aa_result r;
            nb_haa_result hr;
            nb_sg_result sr;
            nb_status st = long_haa ? timed_haa(&k, s, g, NULL, &hr, &lt, NULL, &err)
                           : long_opt ? timed_sg(&k, s, g, &sr, &lt, &err)
                                      : timed_aa(&k, s, g, &r, &lt, &err);
            add(&tlong, lt);
            if (st != NB_OK) {
                fprintf(stderr, "bench_stream: the long query: %s\n", err.msg);
                return 1;
            }
            found = (long_haa ? hr.status : long_opt ? sr.status : r.status) == NB_PATH_FOUND;
            long_found += found;
            expanded = long_haa ? hr.expanded : long_opt ? sr.expanded : r.expanded;
        }
        if (trim) {
            /* The figures before the trim: what the long query left. */
            double r1 = (double)nb_world_resident(k.w), p1 = rss();
            max_res_pre = r1 > max_res_pre ? r1 : max_res_pre;
            max_rss_pre = p1 > max_rss_pre ? p1 : max_rss_pre;
            double t1 = now();
            trimmed += (double)nb_world_trim(k.w);
            add(&ttrim, now() - t1);
        }
        nb_world_info in;
        nb_world_describe(k.w, &in);
        double bytes = (double)nb_world_bytes(k.w), r2 = (double)nb_world_resident(k.w),
               p = rss();
        max_bytes = bytes > max_bytes ? bytes : max_bytes;
        max_res = r2 > max_res ? r2 : max_res;
        max_rss = p > max_rss ? p : max_rss;
        double wsb = (double)nb_world_aa_bytes(k.ws) + (double)nb_world_sg_bytes(k.sg);
        max_ws = wsb > max_ws ? wsb : max_ws;
        printf("| %ld | (%ld, %ld) | %u | %.1f MiB | %.1f MiB | %.1f MiB | %.1f MiB | %.1f ms%s | %u "
               "| %llu |\n",
               f / (long)fps, x, y, in.loaded, bytes / 1048576, r2 / 1048576, wsb / 1048576,
               p / 1048576,
               1e3 * lt, found ? "" : " (none)", lc.calls - loads, (unsigned long long)expanded);
        fflush(stdout);
    }
    printf("\nframes %ld (%.1f s at %.0f a second); short queries %u, found %u, needing a tile "
           "%u; long queries %zu, found %u; the loader called %u times: %zu by the window's loads, %zu "
           "by the queries\n\n",
           frames, frames / fps, fps, short_asked, short_found, short_unloaded, tlong.n,
           long_found, lc.calls, tload.n, lc.calls - tload.n);
    printf("| what | count | median ms | 95th ms | largest ms |\n|---|---:|---:|---:|---:|\n");
    report("short query (world AA*)", &tshort);
    report("its two ends (world nearest)", &tsnap);
    report(long_haa   ? "long query (world HAA*, loading)"
           : long_opt ? "long query (world optimal layer, loading)"
                      : "long query (world AA*, loading)",
           &tlong);
    report("tile load (nb_world_load)", &tload);
    report("tile unload (nb_world_unload)", &tunload);
    if (trim)
        report("trim (nb_world_trim)", &ttrim);
    printf("\nlargest: nb_world_bytes %.1f MiB, nb_world_resident %.1f MiB (after a frame's short "
           "query: %.1f MiB), the query workspace %.1f MiB (nb_world_aa_bytes, and "
           "nb_world_sg_bytes with -O: the long queries' nodes), process RSS %.1f MiB (%.1f MiB above the process before the world)\n",
           max_bytes / 1048576, max_res / 1048576, max_res_window / 1048576, max_ws / 1048576,
           max_rss / 1048576, (max_rss - rss0) / 1048576);
    if (trim)
        printf("trims gave back %.1f MiB in all; largest just before a trim (after the long "
               "query): nb_world_resident %.1f MiB, process RSS %.1f MiB\n",
               trimmed / 1048576, max_res_pre / 1048576, max_rss_pre / 1048576);
    double hwm = rss_peak();
    printf("process peak RSS over the walk (VmHWM): %.1f MiB (%.1f MiB above the process before "
           "the world)\n",
           hwm / 1048576, (hwm - rss0) / 1048576);
    if (trim)
        max_res = max_res_pre > max_res ? max_res_pre : max_res,
        max_rss = max_rss_pre > max_rss ? max_rss_pre : max_rss;
    printf("goal: at most 64 MB resident with a 3 x 3 window: %s (nb_world_resident %.1f MB, "
           "RSS above the start %.1f MB, peak above the start %.1f MB; MB = 10^6 bytes; "
           "largest at any sample, before or after a trim)\n",
           max_res <= 64e6 && max_rss - rss0 <= 64e6 && hwm - rss0 <= 64e6 ? "met" : "NOT met",
           max_res / 1e6, (max_rss - rss0) / 1e6, (hwm - rss0) / 1e6);
    free(tshort.v), free(tlong.v), free(tload.v), free(tunload.v), free(tsnap.v), free(ttrim.v);
    corners(&k, &lc);
    nb_world_sg_close(k.sg);
    nb_world_haa_close(k.hs);
    nb_world_aa_close(k.ws);
    nb_world_close(k.w);
    return 0;
}
