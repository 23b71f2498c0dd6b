/* bench_world_haa.c: HAA* across a world's tiles, corner to corner
 * (issue 31's goal: at most 5 ms, median of 15 after the first, error at
 * most 1 %, mapping only the tiles the refined path crosses).
 *
 *   bench_world_haa OUT [WORLD]
 *
 * NB_BENCH_WALKS=0: no stretch copied from the walks the workspace keeps.
 * NB_BENCH_ACTIVE=A: a query's heuristic reads at most A landmarks (default 8).
 * NB_BENCH_TABLE=0: the ends inserted by a Dijkstra over their tile's graph
 * even where the tile bundle holds a table for it (manifest `insert: B`).
 *
 * OUT is where navbake world link wrote world.nbw (its tiles in
 * OUT/tiles); with WORLD, the folder of the world's manifest and tile maps,
 * the world's map is put together from its tiles, baked whole (clearance
 * only) and Annotated A* on it gives the optimal length the error is
 * measured against (sizes up to 8192^2 or so: the whole bake is held in
 * memory).  The ends: the standable cells nearest the world's top-left and
 * bottom-right corners along the diagonal, joined.  Tiles are loaded only
 * as queries name them (NB_ERR_UNLOADED).
 *
 * NB_BENCH_PAIRS="X0,Y0,X1,Y1 ...": those pairs instead, each end moved
 * along the diagonal towards the other to a standable cell, the two
 * joined; for each, every tile unloaded first, the query's length, the
 * tiles it loaded and the tiles its refined path crosses (the exact
 * lengths to compare with: bench_world_exact on the same ends).
 *
 * NB_BENCH_BLOCK="X,Y,W,H ...": the corner-to-corner query under a world
 * overlay blocking those rectangles ("border": 8 x 8 across the first tile
 * border its unblocked path crosses after its middle; "inside": 8 x 8 at
 * that path's middle, inside its tile) (one across a tile border repairs
 * both tiles, lib/runtime/stream/tile_repair.c): the query
 * without it first (its tiles loaded), then the first under the overlay
 * and 15 more under it (NB_BENCH_AFTER of them), thread CPU times; with NB_BENCH_ONCE=1 only the
 * first under it (callgrind: --toggle-collect=nbi_whaa_find counts the
 * unblocked query and that one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stream/haa_world.h"
#include "worldbake.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

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

/* The world's map, from its tile maps, written to path. */
static int whole_map(const char *world, const nb_world_info *in, const char *path)
{
    FILE *o = fopen(path, "w");
    if (!o)
        return 0;
    fprintf(o, "type octile\nheight %u\nwidth %u\nmap\n", in->height, in->width);
    char *line = malloc((size_t)in->tile + 16), name[4096];
    FILE **f = calloc(in->columns, sizeof *f);
    for (uint32_t ty = 0; ty < in->rows; ty++) {
        for (uint32_t tx = 0; tx < in->columns; tx++) {
            snprintf(name, sizeof name, "%s/tiles/%u_%u.map", world, tx, ty);
            if (!(f[tx] = fopen(name, "r")))
                return 0;
            for (int k = 0; k < 4; k++)
                if (!fgets(line, (int)in->tile + 16, f[tx]))
                    return 0;
        }
        uint32_t h = ty + 1 < in->rows ? in->tile : in->height - ty * in->tile;
        for (uint32_t y = 0; y < h; y++) {
            for (uint32_t tx = 0; tx < in->columns; tx++) {
                if (!fgets(line, (int)in->tile + 16, f[tx]))
                    return 0;
                line[strcspn(line, "\r\n")] = 0;
                fputs(line, o);
            }
            fputc('\n', o);
        }
        for (uint32_t tx = 0; tx < in->columns; tx++)
            fclose(f[tx]);
    }
    free(line);
    free(f);
    return fclose(o) == 0;
}

/* Runs the query until it needs no tile more, loading those it names. */
static nb_status query(nb_world *w, nbi_whaa *q, nb_cell s, nb_cell g, nbi_whaa_result *res,
                       nb_err *err)
{
    static nb_world_tile need[4096];
    for (;;) {
        size_t n = 0;
        nb_status st = nbi_whaa_find(q, s, g, NULL, res, need, 4096, &n, err);
        if (st != NB_ERR_UNLOADED)
            return st;
        for (size_t i = 0; i < n && i < 4096; i++)
            if ((st = nb_world_load(w, need[i], err)) != NB_OK)
                return st;
    }
}

/* 15 queries: their wall and CPU times, sorted (t[7] and c[7] the medians). */
static void fifteen(nb_world *w, nbi_whaa *q, nb_cell s, nb_cell g, nbi_whaa_result *res,
                    double *t, double *c)
{
    nb_err err;
    for (int i = 0; i < 15; i++) {
        double a = now(), b = cpu();
        query(w, q, s, g, res, &err);
        t[i] = now() - a;
        c[i] = cpu() - b;
    }
    qsort(t, 15, sizeof *t, cmp);
    qsort(c, 15, sizeof *c, cmp);
}

/* The tiles the cell path crosses (each counted once); those of them not
 * loaded are printed with the path's first cell in each (a path may step
 * on a border cell of a tile its refinement never read: a world node),
 * and *off is set to the loaded tiles the path does not cross. */
static unsigned crossed(const nb_world *w, const nb_world_info *in, const nb_cell *p, size_t n,
                        unsigned *off)
{
    unsigned char *seen = calloc((size_t)in->columns * in->rows, 1);
    unsigned k = 0;
    for (size_t i = 0; seen && i < n; i++) {
        nb_world_tile c = {(uint32_t)p[i].x / in->tile, (uint32_t)p[i].y / in->tile};
        size_t t = (size_t)c.row * in->columns + c.column;
        if (!seen[t] && !nb_world_loaded(w, c))
            printf("  the path's cell %zu (%d, %d) is in tile (%u, %u), not loaded\n", i, p[i].x,
                   p[i].y, c.column, c.row);
        k += !seen[t];
        seen[t] = 1;
    }
    *off = 0;
    for (uint32_t ty = 0; seen && ty < in->rows; ty++)
        for (uint32_t tx = 0; tx < in->columns; tx++)
            *off += nb_world_loaded(w, (nb_world_tile){tx, ty}) && !seen[(size_t)ty * in->columns + tx];
    free(seen);
    return k;
}

static unsigned loaded_now(nb_world *w, const nb_world_info *in)
{
    unsigned n = 0;
    for (uint32_t ty = 0; ty < in->rows; ty++)
        for (uint32_t tx = 0; tx < in->columns; tx++)
            n += nb_world_loaded(w, (nb_world_tile){tx, ty});
    return n;
}

/* The standable cells nearest a and b along the diagonal from each towards
 * the other (up to 2000 steps), joined: 0 when none is found. */
static int joined_ends(nb_world *w, const nb_world_info *in, nb_capability cap, nb_cell *a,
                       nb_cell *b)
{
    nb_world_tile ta = {(uint32_t)a->x / in->tile, (uint32_t)a->y / in->tile};
    nb_world_tile tb = {(uint32_t)b->x / in->tile, (uint32_t)b->y / in->tile};
    nb_world_load(w, ta, NULL);
    nb_world_load(w, tb, NULL);
    int32_t sx = b->x >= a->x ? 1 : -1, sy = b->y >= a->y ? 1 : -1, joined = 0;
    nb_cell s = *a, g = *b;
    for (int32_t k = 0; k < 2000 && !joined; k++) {
        s = (nb_cell){a->x + sx * k, a->y + sy * k};
        int r = 0;
        nb_world_reachable(w, cap, 1, s, s, &r, NULL, 0, NULL, NULL);
        if (!r)
            continue;
        for (int32_t m = 0; m < 2000 && !joined; m++) {
            g = (nb_cell){b->x - sx * m, b->y - sy * m};
            nb_world_reachable(w, cap, 1, s, g, &joined, NULL, 0, NULL, NULL);
        }
    }
    nb_world_unload(w, ta, NULL);
    nb_world_unload(w, tb, NULL);
    *a = s, *b = g;
    return joined;
}

/* NB_BENCH_PAIRS: each pair's length, tiles loaded and crossed, and CPU. */
static int pairs(nb_world *w, const nb_world_info *in, nbi_whaa *q, nb_capability cap,
                 const char *list)
{
    nb_err err;
    for (const char *p = list; *p;) {
        long v[4];
        int used = 0;
        if (sscanf(p, " %ld,%ld,%ld,%ld%n", &v[0], &v[1], &v[2], &v[3], &used) != 4) {
            fprintf(stderr, "NB_BENCH_PAIRS: expected X0,Y0,X1,Y1 at \"%s\"\n", p);
            return 2;
        }
        p += used;
        p += strspn(p, " ;");
        nb_cell s = {(int32_t)v[0], (int32_t)v[1]}, g = {(int32_t)v[2], (int32_t)v[3]};
        for (uint32_t ty = 0; ty < in->rows; ty++)
            for (uint32_t tx = 0; tx < in->columns; tx++)
                nb_world_unload(w, (nb_world_tile){tx, ty}, NULL);
        if (!joined_ends(w, in, cap, &s, &g)) {
            printf("pair %ld,%ld,%ld,%ld: no joined ends near them\n", v[0], v[1], v[2], v[3]);
            continue;
        }
        nbi_whaa_result res;
        if (query(w, q, s, g, &res, &err) != NB_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        unsigned loaded = loaded_now(w, in), off, cross = crossed(w, in, res.path, res.path_len, &off);
        double t[15], c[15];
        fifteen(w, q, s, g, &res, t, c);
        printf("pair %d,%d,%d,%d: found %d, length %.4f; tiles loaded %u, crossed by the refined "
               "path %u, loaded but not crossed %u; %llu world nodes expanded; CPU median of 15 "
               "after the first %.2f ms\n",
               s.x, s.y, g.x, g.y, res.found, res.length, loaded, cross, off,
               (unsigned long long)res.expanded, 1e3 * c[7]);
        fflush(stdout);
    }
    return 0;
}

static double thread_cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* NB_BENCH_BLOCK: the query from s to g under the rectangles of spec. */
static int overlaid(nb_world *w, nbi_whaa *q, nb_capability cap, nb_cell s, nb_cell g,
                    const char *spec)
{
    nb_err err;
    nbi_whaa_result r;
    nb_world_overlay *ov = NULL;
    if (query(w, q, s, g, &r, &err) != NB_OK ||
        nb_world_overlay_open(w, &ov, &err) != NB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    double plain = r.length;
    /* "border": 8 x 8 cells across the first tile border the unblocked path crosses after
     * its middle (bench_stream's edit); "inside": 8 x 8 at its middle, kept in that tile. */
    nb_world_info in;
    nb_world_describe(w, &in);
    long side = (long)in.tile, bx = -1, by = -1, ix = -1, iy = -1;
    if (r.found && r.path_len) {
        nb_cell mid = r.path[r.path_len / 2];
        ix = mid.x - 4 < mid.x / side * side ? mid.x / side * side : mid.x - 4;
        iy = mid.y - 4 < mid.y / side * side ? mid.y / side * side : mid.y - 4;
        ix = ix > mid.x / side * side + side - 8 ? mid.x / side * side + side - 8 : ix;
        iy = iy > mid.y / side * side + side - 8 ? mid.y / side * side + side - 8 : iy;
        for (size_t i = r.path_len / 2; i + 1 < r.path_len && bx < 0; i++) {
            nb_cell a = r.path[i], b = r.path[i + 1];
            if (a.x / side != b.x / side || a.y / side != b.y / side)
                bx = b.x - 4, by = b.y - 4;
        }
    }
    for (const char *p = spec; *p;) {
        long v[4] = {0, 0, 8, 8};
        int used = 0;
        if (!strncmp(p, "border", 6) && bx >= 0)
            v[0] = bx, v[1] = by, used = 6;
        else if (!strncmp(p, "inside", 6) && ix >= 0)
            v[0] = ix, v[1] = iy, used = 6;
        else if (sscanf(p, "%ld,%ld,%ld,%ld%n", &v[0], &v[1], &v[2], &v[3], &used) != 4)
            break;
        if (nb_world_overlay_block(ov, v[0], v[1], v[2], v[3], &err) != NB_OK) {
            fprintf(stderr, "%s\n", err.msg);
            nb_world_overlay_close(ov);
            return 1;
        }
        printf("blocked %ld x %ld cells at (%ld, %ld)\n", v[2], v[3], v[0], v[1]);
        p += used;
        p += strspn(p, " ;");
    }
    static nb_world_tile need[4096];
    /* The tiles the query under the overlay needs, loaded by another workspace's query: q's
     * first under it then repairs what it edits without a load between. */
    nbi_whaa *warm = NULL;
    nb_status st = nbi_whaa_new(w, cap, 1, &warm, &err);
    size_t nn = 0;
    while (st == NB_OK &&
           (st = nbi_whaa_find(warm, s, g, ov, &r, need, 4096, &nn, &err)) == NB_ERR_UNLOADED)
        for (size_t k = 0; k < nn && k < 4096; k++)
            st = nb_world_load(w, need[k], &err);
    nbi_whaa_free(warm);
    const char *once = getenv("NB_BENCH_ONCE");
    const char *after = getenv("NB_BENCH_AFTER"); /* queries after the first (15) */
    int n = once && *once == '1' ? 1 : 1 + (after && atoi(after) > 0 && atoi(after) < 16 ? atoi(after) : 15);
    double c[16];
    for (int i = 0; i < n && st == NB_OK; i++) {
        double b = thread_cpu();
        st = nbi_whaa_find(q, s, g, ov, &r, NULL, 0, NULL, &err);
        c[i] = thread_cpu() - b;
        if (st == NB_OK && (i == 0 || i == n - 1))
            printf("query %d under the overlay: found %d, length %.2f (%+.3f%% the unblocked), "
                   "%llu nodes expanded, %zu tiles repaired (%zu kept from the query before); "
                   "%.1f ms thread CPU\n",
                   i + 1, r.found, r.length, 100 * (r.length - plain) / plain,
                   (unsigned long long)r.expanded, r.repaired, r.reused, 1e3 * c[i]);
    }
    nb_world_overlay_close(ov);
    if (st != NB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    if (n > 1) {
        qsort(c + 1, (size_t)n - 1, sizeof *c, cmp);
        printf("under the overlay: first %.1f ms, median of %d after it %.2f ms thread CPU\n",
               1e3 * c[0], n - 1, 1e3 * c[n / 2]);
    }
    return 0;
}

/* NB_BENCH_ABOVE=1: the ends' insertion and the search above the tiles
 * alone (no refinement), 16 queries after a first, with the level of
 * blocks unless NB_BENCH_BLOCKS=0: what callgrind counts with
 * --toggle-collect=nbi_whaa_find (a query: the count's sixteenth). */
static int above(nb_world *w, nbi_whaa *q, nb_cell s, nb_cell g)
{
    const char *bl = getenv("NB_BENCH_BLOCKS");
    nbi_whaa_set_refine(q, 0);
    nbi_whaa_set_blocks(q, !(bl && *bl == '0'));
    nbi_whaa_result r;
    nb_err err;
    double c[16];
    /* The first query by begin, search and end (not nbi_whaa_find, which
     * callgrind counts): it loads the ends' tiles and checks the graph's
     * parts it reads, once. */
    static nb_world_tile need[64];
    size_t n = 0;
    int redo = 0;
    nb_status st;
    while ((st = nbi_whaa_begin(q, s, g, NULL, &r, need, 64, &n, &err)) == NB_ERR_UNLOADED)
        for (size_t i = 0; i < n && i < 64; i++)
            nb_world_load(w, need[i], NULL);
    if (st == NB_OK && nbi_whaa_running(q))
        st = nbi_whaa_search(q, UINT64_MAX, &r, &err);
    if (st == NB_OK)
        st = nbi_whaa_end(q, &r, need, 64, &n, &redo, &err);
    if (st != NB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    for (int i = 0; i < 16; i++) {
        double b = cpu();
        if (query(w, q, s, g, &r, &err) != NB_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        c[i] = cpu() - b;
    }
    qsort(c, 16, sizeof *c, cmp);
    printf("above the tiles (%s): CPU median %.3f ms (min %.3f) of 16 after the first; %llu "
           "world nodes expanded; length above the tiles %.2f\n",
           nbi_whaa_has_blocks(q) && !(bl && *bl == '0') ? "level of blocks" : "world graph",
           1e3 * c[8], 1e3 * c[0], (unsigned long long)r.expanded, r.abstract_length);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_world_haa OUT [WORLD]\n");
        return 2;
    }
    char path[4096];
    nb_err err;
    nb_world *w;
    snprintf(path, sizeof path, "%s/world.nbw", argv[1]);
    if (nb_world_open(path, NULL, 0, NULL, &w, &err) != NB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    nb_world_info in;
    nb_world_describe(w, &in);
    nb_agent ag = *nb_agent_get(nb_world_bundle(w), 0);
    nbi_whaa *q;
    if (nbi_whaa_new(w, ag.capability, 1, &q, &err) != NB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    /* NB_BENCH_WALKS=0: every stretch refined by its tile's HAA*, none copied from the walks
     * the workspace keeps (the way before stretch_walks.c). */
    const char *wk = getenv("NB_BENCH_WALKS");
    if (wk && *wk == '0')
        nbi_whaa_set_walks(q, 0);
    const char *tab = getenv("NB_BENCH_TABLE");
    if (tab && *tab == '0')
        nbi_whaa_set_insert_table(q, 0);
    /* NB_BENCH_ACTIVE=A: the most landmarks a query keeps (haa_world.c's landmarks_active). */
    const char *act = getenv("NB_BENCH_ACTIVE");
    if (act && *act)
        nbi_whaa_set_active_landmarks(q, (uint32_t)strtoul(act, NULL, 10));
    const char *pl = getenv("NB_BENCH_PAIRS");
    if (pl && *pl) {
        int rc = pairs(w, &in, q, ag.capability, pl);
        nbi_whaa_free(q);
        nb_world_close(w);
        return rc;
    }
    /* The ends: standable along the diagonal from each corner, and joined. */
    nb_cell s = {0, 0}, g = {(int32_t)in.width - 1, (int32_t)in.height - 1};
    joined_ends(w, &in, ag.capability, &s, &g);
    printf("world %u x %u, tiles of %u (%u x %u); from (%d, %d) to (%d, %d)\n", in.width,
           in.height, in.tile, in.columns, in.rows, s.x, s.y, g.x, g.y);
    const char *blk = getenv("NB_BENCH_BLOCK");
    if (blk && *blk) {
        int rc = overlaid(w, q, ag.capability, s, g, blk);
        nbi_whaa_free(q);
        nb_world_close(w);
        return rc;
    }
    const char *ab = getenv("NB_BENCH_ABOVE");
    if (ab && *ab == '1') {
        int rc = above(w, q, s, g);
        nbi_whaa_free(q);
        nb_world_close(w);
        return rc;
    }
    nbi_whaa_result res;
    double t0 = now();
    if (query(w, q, s, g, &res, &err) != NB_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    double first = now() - t0;
    unsigned loaded = loaded_now(w, &in), off,
             cross = crossed(w, &in, res.path, res.path_len, &off);
    double t[15], c[15];
    fifteen(w, q, s, g, &res, t, c);
    /* The CPU time too: on a loaded machine the wall time is mostly waiting. */
    printf("first query (loading %u tiles as named) %.1f ms; median of 15 after it %.2f ms "
           "(min %.2f, max %.2f), CPU %.2f ms (min %.2f)\n",
           loaded, 1e3 * first, 1e3 * t[7], 1e3 * t[0], 1e3 * t[14], 1e3 * c[7], 1e3 * c[0]);
    /* The search above the tiles alone: the ends inserted, no refinement;
     * then the insertion alone (a budget of one node), each with and
     * without the world graph's landmarks. */
    nbi_whaa_result ra;
    nbi_whaa_set_refine(q, 0);
    /* NB_BENCH_REFINED_ONLY=1: the refined queries alone (16: what
     * callgrind counts a query from). */
    const char *only = getenv("NB_BENCH_REFINED_ONLY");
    int modes = only && *only == '1' ? -1 : nbi_whaa_has_landmarks(q);
    for (int lm = modes; lm >= 0; lm--) {
        nbi_whaa_set_landmarks(q, lm);
        /* With the level of tile blocks and without it, in turns. */
        for (int mode = 0; mode < 3; mode++)
            for (int bl = nbi_whaa_has_blocks(q); bl >= 0; bl--) {
                uint64_t cap = mode == 2;
                nbi_whaa_set_blocks(q, bl);
                nbi_whaa_set_refine(q, mode == 0);
                nbi_whaa_set_query(q, NB_HAA_STRAIGHTEN, cap);
                fifteen(w, q, s, g, &ra, t, c);
                printf("%s, %s%s: median %.2f ms, CPU %.2f ms; %llu world nodes expanded; "
                       "length %.2f\n",
                       mode == 0 ? "the whole query, refined"
                       : cap     ? "the ends' insertion alone"
                                 : "without refinement (the ends' insertion and the search "
                                   "above the tiles)",
                       lm ? "landmarks" : "octile heuristic alone",
                       bl ? ", level of blocks" : nbi_whaa_has_blocks(q) ? ", world graph alone" : "",
                       1e3 * t[7], 1e3 * c[7], (unsigned long long)ra.expanded,
                       mode == 0 ? ra.length : ra.abstract_length);
            }
        nbi_whaa_set_blocks(q, 1);
    }
    nbi_whaa_set_query(q, NB_HAA_STRAIGHTEN, 0);
    nbi_whaa_set_landmarks(q, 1);
    nbi_whaa_set_refine(q, 1);
    /* What the link's landmarks cost (landmarks_link.c), from the graph alone. */
    long gi = nbi_wgraph_index(w->index, ag.capability, 1);
    if (gi >= 0 && modes >= 0) {
        uint8_t *lp = NULL;
        size_t ll = 0;
        uint32_t nl = 0;
        /* As many as the world bundle holds (the manifest's `landmarks: K`). */
        uint32_t want = 0;
        for (size_t i = 0; i < w->index->nsections; i++)
            if (w->index->sections[i].info.type == NB_SEC_WORLD_LANDMARKS &&
                w->index->sections[i].info.param[0] == ag.capability &&
                w->index->sections[i].info.param[1] == 1)
                want = w->index->sections[i].info.param[2];
        double b = cpu();
        nb_status ls = nbb_world_landmarks(w->index->sections[gi].payload, in.width, in.height, want,
                                           &lp, &ll, &nl, &err);
        printf("the link's landmarks: %u, %zu bytes (%.3f bytes a cell), %.0f ms CPU (%s)\n", nl,
               ll, (double)ll / ((double)in.width * in.height), 1e3 * (cpu() - b),
               ls == NB_OK ? "ok" : err.msg);
        free(lp);
    }
    printf("landmarks: %s\n", nbi_whaa_has_landmarks(q) ? "used" : "none in the world bundle");
    printf("level of blocks: %s\n", nbi_whaa_has_blocks(q) ? "used" : "none in the world bundle");
    printf("found %d: length %.2f, abstract %.2f; %zu world nodes on the path, %llu expanded; "
           "%zu tiles refined, %u loaded of %u, %u crossed by the refined path (%u loaded and "
           "not crossed); %zu cells\n",
           res.found, res.length, res.abstract_length, res.abstract_len,
           (unsigned long long)res.expanded, res.tiles, loaded, in.columns * in.rows, cross,
           off, res.path_len);
    printf("refinement: %zu stretches (%zu copied from the walks kept), %zu searched above their "
           "tile graph's own level (levels), %llu nodes expanded by the tiles' searches\n",
           res.stretches, res.stretches_copied, res.stretches_above,
           (unsigned long long)res.refine_expanded);
    if (argc > 2) {
        snprintf(path, sizeof path, "%s/whole.map", argv[1]);
        if (!whole_map(argv[2], &in, path)) {
            fprintf(stderr, "cannot put the world's map together\n");
            return 1;
        }
        nb_bundle *whole = tw_whole_bake(path, NULL, NULL);
        nb_aa *aa;
        nb_aa_query aq;
        nb_aa_result ar;
        nb_aa_query_init(&aq);
        aq.start = s, aq.goal = g, aq.size = 1, aq.capability = ag.capability;
        if (!whole || nb_aa_open(whole, &aa, &err) != NB_OK || nb_aa_find(aa, &aq, &ar, &err) != NB_OK) {
            fprintf(stderr, "whole bake: %s\n", err.msg);
            return 1;
        }
        printf("Annotated A* on the whole map: %.2f; error %.3f %%\n", ar.length,
               100 * (res.length - ar.length) / ar.length);
        nb_aa_close(aa);
        nb_bundle_close(whole);
        remove(path);
    }
    nbi_whaa_free(q);
    nb_world_close(w);
    return 0;
}
