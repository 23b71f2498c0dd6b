/* bench_scale.c: what the runtime costs on big levels (issue 16): levels
 * of side 1024 to 8192 (or the sides given) made by tiling a shared map
 * (rooms/64room_005) with mirroring, baked here with the bake API (mkclear's layers for the
 * default agent, mkabstract's graph with its defaults: clusters of 10,
 * high quality, and the levels mkabstract --levels auto bakes above it), then for each:
 *  - bake time and the process's peak RSS after it (getrusage: it only
 *    grows, and sides run smallest first);
 *  - nb_bundle_open; nb_aa_open and nb_haa_open (the first HAA* workspace,
 *    which checks the graph for the bundle, and a second one) with the
 *    bytes each holds when made and after the queries;
 *  - AA* and HAA* queries at several lengths (short, a quarter of the way,
 *    corner to corner): the first on a fresh workspace and the median of
 *    the same query repeated (steady), with the expansions; HAA* on the
 *    levels and on the graph's own level alone (nb_haa_set_levels 1);
 *  - the same AA* queries on per-cell arrays the size of the map, as the
 *    workspace was before issue 16 (nbi_aa_run_flat: first call, which
 *    allocates and faults them in, and steady), in the same run.
 * Prints a Markdown table; run by 'make bench-scale' (not by 'make
 * bench': the 8192 level takes minutes and about 2 GB).  Usage:
 * bench_scale [-r REPEATS] [-R HAA_REPEATS] [--no-flat] [--paths] [--levels L] [--factor M]
 * [--spacing K] [--share S] [--landmarks N] [SIDE]...
 * (-R: HAA*'s queries repeated more than AA*'s, whose corner to corner takes a minute and a
 * half at 16384^2; --no-flat leaves the per-cell arrays out: they take 36 bytes a cell, 9.7 GB
 * at 16384^2; --levels, --factor, --spacing, --share and --landmarks bake the levels with those
 * options instead of mkabstract's defaults). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "bake_int.h"
#include "clearance/aastar.h"
#include "clearance/clearance.h"
#include "core/grid.h"
#include "testutil.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const nb_err *err)
{
    fprintf(stderr, "bench_scale: %s: %s\n", what, err ? err->msg : "");
    exit(1);
}

static double peak_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The base map tiled to side x side, every other tile mirrored so that the tiles join. */
static void tile(const nbb_grid *base, uint32_t side, nbb_grid *out)
{
    out->width = out->height = side;
    out->cells = malloc((size_t)side * side);
    if (!out->cells)
        die("no memory for the level", NULL);
    for (uint32_t y = 0; y < side; y++) {
        uint32_t ty = y / base->height, by = y % base->height;
        if (ty & 1)
            by = base->height - 1 - by;
        for (uint32_t x = 0; x < side; x++) {
            uint32_t tx = x / base->width, bx = x % base->width;
            if (tx & 1)
                bx = base->width - 1 - bx;
            out->cells[(size_t)y * side + x] = base->cells[(size_t)by * base->width + bx];
        }
    }
}

/* The standable cell nearest (x, y) along the diagonal toward the map's centre, in component
 * comp when comp >= 0. */
static nb_cell near_cell(const nb_bundle *b, nb_capability cap, long x, long y, long dx, long dy,
                         long comp)
{
    long side = (long)nb_map_width(b);
    for (long r = 0; r < side; r++)
        for (long k = 0; k <= r; k++) {
            long cx = x + dx * k, cy = y + dy * (r - k);
            if (cx < 0 || cy < 0 || cx >= side || cy >= side || !nb_can_stand(b, cap, 1, cx, cy))
                continue;
            if (comp >= 0 && nb_component(b, cap, 1, cx, cy) != comp)
                continue;
            return (nb_cell){(int32_t)cx, (int32_t)cy};
        }
    die("no standable cell", NULL);
    return (nb_cell){0, 0};
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* The component with the most cells in the first tile (base map's size): the level's main
 * one, since the tiles join. */
static long main_component(const nb_bundle *b, nb_capability cap, uint32_t w, uint32_t h)
{
    long *ids = malloc((size_t)w * h * sizeof *ids);
    size_t n = 0;
    if (!ids)
        die("no memory", NULL);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            long c = nb_component(b, cap, 1, x, y);
            if (c > 0)
                ids[n++] = c;
        }
    qsort(ids, n, sizeof *ids, cmp_long);
    long best = -1;
    size_t run = 0, best_run = 0;
    for (size_t i = 0; i < n; i++) {
        run = i && ids[i] == ids[i - 1] ? run + 1 : 1;
        if (run > best_run) {
            best_run = run;
            best = ids[i];
        }
    }
    free(ids);
    if (best < 0)
        die("no standable cell in the first tile", NULL);
    return best;
}

typedef struct timing {
    double first_us, steady_us;
    uint64_t expanded;
    double length;
    nb_path_status status;
    unsigned level; /* HAA*'s */
} timing;

static int reps = 3, haa_reps = 0; /* -R: HAA*'s repeats (0: reps) */
static unsigned opt_levels, opt_factor = NBB_LEVEL_FACTOR, opt_spacing = NBB_LEVEL_SPACING,
                opt_share = NBB_LEVEL_SHARE, opt_landmarks = NBB_LEVEL_LANDMARKS;
static int opt_paths; /* --paths: mkabstract --paths (the graph's and the levels' paths stored) */
static int no_flat; /* --no-flat: no per-cell arrays (36 bytes a cell: 9.7 GB at 16384^2) */

enum { AA, FLAT, HAA, HAA1 };

/* One query by one method: its answer into *t, its time in us as the result. */
static double run_once(int method, nb_aa *aa, nb_haa *haa, const nbi_layer *cl,
                       const nb_aa_query *q, timing *t)
{
    nb_err err;
    double t0 = now();
    if (method == HAA || method == HAA1) {
        nb_haa_result r;
        nb_haa_set_levels(haa, method == HAA1 ? 1 : 0);
        if (tu_haa_find(haa, q, NB_HAA_STRAIGHTEN, &r, &err) != NB_OK)
            die("nb_haa_find", &err);
        t->expanded = r.expanded, t->length = r.length, t->status = r.status, t->level = r.level;
    } else {
        nb_aa_result r;
        if (method == AA && nb_aa_find(aa, q, &r, &err) != NB_OK)
            die("nb_aa_find", &err);
        if (method == FLAT && !nbi_aa_run_flat(aa, cl, q->size, q->corner, q->start, &q->goal, &r))
            die("no memory for the per-cell arrays", NULL);
        t->expanded = r.expanded, t->length = r.length, t->status = r.status;
    }
    return (now() - t0) * 1e6;
}

/* HAA*'s error against AA*'s length, or the two statuses. */
static void print_error(const timing *a, const timing *h)
{
    if (a->status == NB_PATH_FOUND && h->status == NB_PATH_FOUND)
        printf("%.2f %%", fabs(h->length - a->length) < 1e-9 ? 0.0
                                                            : 100.0 * (h->length - a->length) / a->length);
    else
        printf("%s / %s", nb_path_status_str(a->status), nb_path_status_str(h->status));
}

/* The query's first run and the median of reps more. */
static timing timed(int method, nb_aa *aa, nb_haa *haa, const nbi_layer *cl, const nb_aa_query *q)
{
    timing t = {0, 0, 0, 0, NB_PATH_NONE, 0}, again;
    double ts[64];
    int n = (method == HAA || method == HAA1) && haa_reps ? haa_reps : reps;
    t.first_us = run_once(method, aa, haa, cl, q, &t);
    for (int i = 0; i < n; i++)
        ts[i] = run_once(method, aa, haa, cl, q, &again);
    qsort(ts, (size_t)n, sizeof *ts, cmp_double);
    t.steady_us = ts[n / 2];
    return t;
}

static void run_side(const nbb_grid *base, const char *basename, uint32_t side)
{
    nbi_legend legend;
    nbi_legend_default(&legend);
    nbi_agentset agents;
    nb_err err;
    if (nbb_agents_default(&legend, &agents, &err) != NB_OK)
        die("the default agents", &err);
    nbb_grid grid;
    tile(base, side, &grid);
    char name[64];
    snprintf(name, sizeof name, "scale%u.nbk", side);
    const char *path = tu_path(tu_tmpdir(), name);
    double t0 = now();
    if (tu_write_cleared(path, &legend, &agents, &grid, 0, &err) != NB_OK)
        die("mkclear's layers", &err);
    double t_clear = now() - t0;
    free(grid.cells);
    nb_bundle *b = NULL;
    if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK)
        die("open", &err);
    t0 = now();
    nbb_abstract_opts ao;
    nbb_abstract_defaults(&ao);
    ao.paths = opt_paths;
    if (tu_add_abstract_opts(&b, path, &ao, &err) != NB_OK)
        die("mkabstract's graph", &err);
    double t_abs = now() - t0;
    nbb_levels_opts lo = {opt_levels ? opt_levels : nbb_levels_default(side, side, 10, opt_factor),
                          opt_factor, opt_spacing, 0, opt_share, opt_landmarks};
    t0 = now();
    if (lo.levels >= 2 && tu_add_levels(&b, path, &lo, &err) != NB_OK)
        die("mkabstract's levels", &err);
    double t_lev = now() - t0;
    double rss = peak_mb();
    nb_bundle_close(b);

    t0 = now();
    if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK)
        die("open", &err);
    double t_open = (now() - t0) * 1e6;
    nb_aa *aa;
    t0 = now();
    if (nb_aa_open(b, &aa, &err) != NB_OK)
        die("nb_aa_open", &err);
    double t_aa = (now() - t0) * 1e6;
    size_t aa_bytes0 = nb_aa_bytes(aa);
    nb_haa *haa, *haa2;
    t0 = now();
    if (nb_haa_open(b, &haa, &err) != NB_OK)
        die("nb_haa_open", &err);
    double t_haa1 = (now() - t0) * 1e6;
    t0 = now();
    if (nb_haa_open(b, &haa2, &err) != NB_OK)
        die("nb_haa_open", &err);
    double t_haa2 = (now() - t0) * 1e6;
    size_t haa_bytes0 = nb_haa_bytes(haa2);
    nb_haa_close(haa2);

    nb_aa_query q;
    nb_aa_query_init(&q);
    q.capability = agents.agent[0].capability;
    q.size = agents.agent[0].size;
    nbi_layer cl;
    if (nbi_clearance_layer(b, q.capability, &cl, &err) != NB_OK)
        die("the clearance layer", &err);
    long comp = main_component(b, q.capability, base->width, base->height);
    nb_cell c0 = near_cell(b, q.capability, 0, 0, 1, 1, comp);
    long S = (long)side;
    struct {
        const char *what;
        nb_cell from, to;
    } qs[3] = {
        {"short", near_cell(b, q.capability, S / 2, S / 2, 1, 1, comp),
         near_cell(b, q.capability, S / 2 + 60, S / 2 + 40, 1, 1, comp)},
        {"quarter", c0, near_cell(b, q.capability, S / 4, S / 4, 1, 1, comp)},
        {"corner to corner", c0, near_cell(b, q.capability, S - 1, S - 1, -1, -1, comp)},
    };
    printf("\n### %u x %u (%s tiled, %.1f M cells)\n\n", side, side, basename,
           (double)side * side / 1e6);
    printf("bake: mkclear's layers %.2f s, mkabstract's graph%s %.2f s and its %u levels (factor %u, "
           "spacing %u, shares of at most %u cells, %u landmarks) %.2f s, peak RSS so far %.0f MB  \n",
           t_clear, opt_paths ? " with stored paths" : "", t_abs, lo.levels, lo.factor, lo.spacing,
           lo.share, lo.landmarks, t_lev, rss);
    printf("open: nb_bundle_open %.0f us; nb_aa_open %.0f us (%zu bytes); nb_haa_open %.0f us "
           "the bundle's first (checks the graph), %.0f us the next (%zu bytes)\n\n",
           t_open, t_aa, aa_bytes0, t_haa1, t_haa2, haa_bytes0);
    printf("| query | cells apart | AA* first | AA* steady | AA* expanded | per-cell arrays first | "
           "per-cell steady | HAA* one level steady | its error | HAA* first | HAA* steady | "
           "level searched | HAA* error |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    timing h3 = {0, 0, 0, 0, NB_PATH_NONE, 0};
    size_t h3_bytes = 0;
    for (int k = 0; k < 3; k++) {
        q.start = qs[k].from;
        q.goal = qs[k].to;
        timing a = timed(AA, aa, haa, &cl, &q);
        timing h = timed(HAA, aa, haa, &cl, &q);
        if (k == 2) { /* a fresh workspace's first query, nothing else run in between */
            if (nb_haa_open(b, &haa2, &err) != NB_OK)
                die("a second workspace", &err);
            h3 = timed(HAA, aa, haa2, &cl, &q);
            h3_bytes = nb_haa_bytes(haa2);
            nb_haa_close(haa2);
        }
        timing h1 = timed(HAA1, aa, haa, &cl, &q);
        timing f = {NAN, NAN, a.expanded, a.length, a.status, 0};
        if (!no_flat)
            f = timed(FLAT, aa, haa, &cl, &q);
        if (f.expanded != a.expanded || fabs(f.length - a.length) > 1e-9)
            die("the per-cell arrays' search differs from the paged one", NULL);
        double octile = nbi_octile_cells(q.start.x, q.start.y, q.goal.x, q.goal.y);
        printf("| %s | %.0f | %.0f us | %.0f us | %llu | %.0f us | %.0f us | %.0f us | ",
               qs[k].what, octile, a.first_us, a.steady_us, (unsigned long long)a.expanded,
               f.first_us, f.steady_us, h1.steady_us);
        print_error(&a, &h1);
        printf(" | %.0f us | %.0f us | %u | ", h.first_us, h.steady_us, h.level);
        print_error(&a, &h);
        printf(" |\n");
        fflush(stdout);
    }
    /* The per-cell arrays were the benchmark's, in the same workspace: count the pages alone.
     * And the first short query on a workspace made after the bundle's pages were touched:
     * what a fresh workspace costs apart from the mapped file's first reads. */
    nb_aa_close(aa);
    if (nb_aa_open(b, &aa, &err) != NB_OK || nb_haa_open(b, &haa2, &err) != NB_OK)
        die("a second workspace", &err);
    q.start = qs[0].from;
    q.goal = qs[0].to;
    timing a2 = timed(AA, aa, haa2, &cl, &q), h2 = timed(HAA, aa, haa2, &cl, &q);
    nb_haa_close(haa2);
    printf("\nthe short query on a second fresh workspace (the bundle's pages touched): AA* first "
           "%.0f us, steady %.0f us; HAA* first %.0f us, steady %.0f us\n",
           a2.first_us, a2.steady_us, h2.first_us, h2.steady_us);
    printf("\nHAA* corner to corner on a fresh workspace right after the first one's (the mapped "
           "file's pages read already): first %.0f us, steady %.0f us (workspace %zu bytes "
           "after)\n",
           h3.first_us, h3.steady_us, h3_bytes);
    for (int k = 0; k < 3; k++) {
        q.start = qs[k].from;
        q.goal = qs[k].to;
        nb_aa_result r;
        nb_aa_find(aa, &q, &r, &err);
    }
    printf("\nworkspaces after the queries: AA* %zu bytes (%.2f a cell; per-cell arrays: %zu), "
           "HAA* %zu bytes\n",
           nb_aa_bytes(aa), (double)nb_aa_bytes(aa) / ((double)side * side),
           (size_t)side * side * (4 + 8 + 4 + 4 + 16), nb_haa_bytes(haa));
    nb_aa_close(aa);
    nb_haa_close(haa);
    nb_bundle_close(b);
    remove(path);
}

int main(int argc, char **argv)
{
    uint32_t sides[8];
    int nsides = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--no-flat") == 0) {
            no_flat = 1;
        } else if (strcmp(argv[i], "--paths") == 0) {
            opt_paths = 1;
        } else if (strcmp(argv[i], "--levels") == 0 && i + 1 < argc) {
            opt_levels = (unsigned)atoi(argv[++i]);
        } else if (strcmp(argv[i], "--factor") == 0 && i + 1 < argc) {
            opt_factor = (unsigned)atoi(argv[++i]);
        } else if (strcmp(argv[i], "--landmarks") == 0 && i + 1 < argc) {
            opt_landmarks = (unsigned)atoi(argv[++i]);
        } else if (strcmp(argv[i], "--share") == 0 && i + 1 < argc) {
            opt_share = (unsigned)atoi(argv[++i]);
        } else if (strcmp(argv[i], "--spacing") == 0 && i + 1 < argc) {
            opt_spacing = (unsigned)atoi(argv[++i]);
        } else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
            reps = atoi(argv[++i]);
            if (reps < 1 || reps > 15)
                die("-r: 1 to 15 repeats", NULL);
        } else if (strcmp(argv[i], "-R") == 0 && i + 1 < argc) {
            haa_reps = atoi(argv[++i]);
            if (haa_reps < 1 || haa_reps > 63)
                die("-R: 1 to 63 repeats", NULL);
        } else if (nsides < 8) {
            long s = atol(argv[i]);
            if (s < 512 || s > 16384)
                die("a side is 512 to 16384", NULL);
            sides[nsides++] = (uint32_t)s;
        }
    }
    if (nsides == 0) {
        static const uint32_t def[] = {1024, 2048, 4096, 8192};
        for (int i = 0; i < 4; i++)
            sides[nsides++] = def[i];
    }
    /* Its border is half open, so that the tiles join (the other collections' maps are walled
     * in): rooms of 64 x 64 with doors, as city blocks and streets. */
    const char *rel = "maps/rooms/64room_005.map";
    const char *mp = tu_shared(rel);
    if (!mp) {
        fprintf(stderr, "bench_scale: ../shared/%s is absent (set NB_SHARED)\n", rel);
        return 1;
    }
    char basename[1024];
    snprintf(basename, sizeof basename, "%s", mp);
    nbi_legend legend;
    nbi_legend_default(&legend);
    nbb_grid base;
    nb_err err;
    if (nbb_map_read(basename, &legend, 1, &base, &err) != NB_OK)
        die(basename, &err);
    printf("## bench_scale: %s (%u x %u) tiled with mirroring; median of %d repeats (HAA*: %d) for "
           "steady figures\n\n",
           rel, base.width, base.height, reps, haa_reps ? haa_reps : reps);
    printf("A dependent load from main memory (a random walk over 64 MB) takes %.0f ns here now, "
           "one from a 4 MB array %.0f ns: this VM's memory slows and speeds up by the hour, and "
           "the big levels' queries with it.\n\n",
           tu_load_latency_ns((size_t)64 << 20), tu_load_latency_ns((size_t)4 << 20));
    for (int i = 0; i < nsides; i++)
        run_side(&base, "rooms/64room_005", sides[i]);
    printf("After the runs: %.0f ns from main memory, %.0f ns from 4 MB.\n",
           tu_load_latency_ns((size_t)64 << 20), tu_load_latency_ns((size_t)4 << 20));
    nbb_grid_free(&base);
    return 0;
}
