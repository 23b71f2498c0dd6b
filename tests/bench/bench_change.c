/* bench_change.c: what a small change of a level costs to bake again, for
 * tests/bench/results/change-bench.md (issue 17).
 *
 * For each level, a square of e x e cells at a random place is changed (an
 * obstacle where the square's first cell is ground, else ground), and the
 * edited level is baked twice in the same run, with the tools themselves
 * run as a user runs them (map reading and bundle writing included):
 *   full:        mkclear EDIT.map -o NEW.nbk, then mkabstract NEW.nbk
 *   incremental: mkclear EDIT.map -o OLD.nbk, then mkabstract OLD.nbk,
 *                OLD.nbk being the bundle of the level before the change
 *                (copied into place before the clock starts).
 * The two bundles must be the same bytes (the program fails otherwise).
 * Each figure is the median of --reps edits (different places) of wall
 * time; the ratio is incremental / full over the whole of both commands.
 * The CPU time (user and system, both tools) is given too: on a machine
 * shared with other jobs it moves less than the wall time.
 *
 * Levels: square levels tiled from random512-10-0 of ../shared (sides
 * 1024, 2048 and 4096, or --sides), and the maps named with --map (paths
 * under ../shared/maps, baked at their own size).  Default agents and
 * mkabstract's default options; -j N is passed to both tools (default 1,
 * so that a shared machine's other jobs disturb one core only).
 *
 *   bench_change [--sides 1024,2048,4096] [--edits 1,10,100] [--reps N]
 *                [-j N] [--map maps/dao/orz900d.map]...
 *
 * The tools are taken from $top_builddir/tools (default: ./tools).
 *
 * --old DIR: the incremental bake is run a second time with DIR/tools (a
 * build of another commit, tests/bench/old-build.sh), the three bakes of
 * an edit in turns; the table then gives both incremental bakes and what
 * this tree's costs beside the other's (issue 29: the checks an update
 * makes of what it keeps).  All three bundles must be the same bytes.
 *
 * Then runtime obstacles (nb_overlay_*), on each level baked by mkclear:
 * the time to block and to unblock an e x e rectangle at a random place
 * of an overlay that already holds random blocks of 10 x 10 over about 1%
 * of the map (at most 100; median and largest of 101 places), and
 * Annotated A*'s and HAA*'s time per query on the same 200 random queries
 * (ends joined on the bundle, the goal within 128 cells of the start) with
 * no overlay, with an empty one, and with that overlay, the three taking
 * turns query by query (each query's time the least of 3 passes).  The
 * changes run on two overlays in turns: one of the bundle mkclear baked,
 * and one of the same bundle with mkabstract's graph, whose changes repair
 * HAA*'s clusters too.
 * --overlay-only skips the bakes' table, --bakes-only the obstacles'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "abstract/repair.h"
#include "blocked/blocked.h"

#define MAX_REPS 31
#define MAX_LIST 16

static const char *tools = "tools";
static const char *old_dir, *old_tools; /* --old DIR and its tools, or NULL */
static unsigned threads = 1;

static void die(const char *what, const nb_err *err)
{
    fprintf(stderr, "bench_change: %s%s%s\n", what, err ? ": " : "", err ? err->msg : "");
    exit(1);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The CPU seconds (user and system) of the last run. */
static double last_cpu;

/* Runs tool (mkclear or mkabstract) of the tools in dir with args, quiet,
 * on threads; returns its wall time in seconds (fork and exec included, as
 * a user waits), and its CPU time in last_cpu. */
static double run_in(const char *dir, const char *tool, const char *a1, const char *a2,
                     const char *a3)
{
    char path[1024], j[16];
    snprintf(path, sizeof path, "%s/%s", dir, tool);
    snprintf(j, sizeof j, "%u", threads);
    char *argv[] = {(char *)tool, "-q", "-j", j, (char *)a1, (char *)a2, (char *)a3, NULL};
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0)
        die("fork", NULL);
    if (pid == 0) {
        execv(path, argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_change: %s %s %s %s failed\n", path, a1, a2 ? a2 : "",
                a3 ? a3 : "");
        exit(1);
    }
    double wall = now() - t0;
    last_cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
               (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
    return wall;
}

static double run(const char *tool, const char *a1, const char *a2, const char *a3)
{
    return run_in(tools, tool, a1, a2, a3);
}

static void write_map(const char *path, const nbb_grid *g)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        die(path, NULL);
    fprintf(f, "type octile\nheight %u\nwidth %u\nmap\n", g->height, g->width);
    for (uint32_t y = 0; y < g->height; y++) {
        fwrite(g->cells + (size_t)y * g->width, 1, g->width, f);
        fputc('\n', f);
    }
    if (fclose(f) != 0)
        die(path, NULL);
}

static void copy_file(const char *from, const char *to)
{
    size_t n;
    char *data = tu_read(from, &n);
    if (!data || tu_write(to, data, n) != 0)
        die(to, NULL);
    free(data);
}

static int same_file(const char *a, const char *b)
{
    size_t na, nb;
    char *da = tu_read(a, &na), *db = tu_read(b, &nb);
    int same = da && db && na == nb && memcmp(da, db, na) == 0;
    free(da);
    free(db);
    return same;
}

static int by_value(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b;
}

static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The edits of one level: a row of the table per edit size. */
static void bench_level(const char *label, const nbb_grid *base, const unsigned *edits,
                        size_t nedits, unsigned reps, tu_rng *r)
{
    const char *dir = tu_tmpdir();
    char base_map[1024], base_nbk[1024], edit_map[1024], full_nbk[1024], inc_nbk[1024],
        old_nbk[1024];
    snprintf(base_map, sizeof base_map, "%s", tu_path(dir, "base.map"));
    snprintf(base_nbk, sizeof base_nbk, "%s", tu_path(dir, "base.nbk"));
    snprintf(edit_map, sizeof edit_map, "%s", tu_path(dir, "edit.map"));
    snprintf(full_nbk, sizeof full_nbk, "%s", tu_path(dir, "full.nbk"));
    snprintf(inc_nbk, sizeof inc_nbk, "%s", tu_path(dir, "inc.nbk"));
    snprintf(old_nbk, sizeof old_nbk, "%s", tu_path(dir, "old.nbk"));
    write_map(base_map, base);
    unlink(base_nbk);
    fprintf(stderr, "bench_change: baking %s...\n", label);
    run("mkclear", base_map, "-o", base_nbk);
    run("mkabstract", base_nbk, NULL, NULL);
    nbb_grid g = {base->width, base->height, malloc((size_t)base->width * base->height)};
    if (!g.cells)
        die("no memory", NULL);
    for (size_t k = 0; k < nedits; k++) {
        uint32_t e = edits[k] < base->width && edits[k] < base->height ? edits[k] : 1;
        double fc[MAX_REPS], fa[MAX_REPS], ic[MAX_REPS], ia[MAX_REPS], ft[MAX_REPS],
            it[MAX_REPS], ratio[MAX_REPS], fcpu[MAX_REPS], icpu[MAX_REPS], cratio[MAX_REPS],
            ot[MAX_REPS], ocpu[MAX_REPS], oratio[MAX_REPS], ocratio[MAX_REPS];
        for (unsigned rep = 0; rep < reps; rep++) {
            memcpy(g.cells, base->cells, (size_t)base->width * base->height);
            uint32_t x0 = tu_below(r, base->width - e + 1), y0 = tu_below(r, base->height - e + 1);
            uint8_t c = g.cells[(size_t)y0 * g.width + x0] == '@' ? '.' : '@';
            for (uint32_t y = y0; y < y0 + e; y++)
                memset(g.cells + (size_t)y * g.width + x0, c, e);
            write_map(edit_map, &g);
            /* The bakes in turns, so that none always runs first. */
            int nbakes = old_tools ? 3 : 2;
            for (int pass = 0; pass < nbakes; pass++) {
                int which = (pass + (int)rep) % nbakes;
                if (which == 0) {
                    unlink(full_nbk);
                    fc[rep] = run("mkclear", edit_map, "-o", full_nbk);
                    fcpu[rep] = last_cpu;
                    fa[rep] = run("mkabstract", full_nbk, NULL, NULL);
                    fcpu[rep] += last_cpu;
                } else if (which == 1) {
                    copy_file(base_nbk, inc_nbk);
                    ic[rep] = run("mkclear", edit_map, "-o", inc_nbk);
                    icpu[rep] = last_cpu;
                    ia[rep] = run("mkabstract", inc_nbk, NULL, NULL);
                    icpu[rep] += last_cpu;
                } else {
                    copy_file(base_nbk, old_nbk);
                    ot[rep] = run_in(old_tools, "mkclear", edit_map, "-o", old_nbk);
                    ocpu[rep] = last_cpu;
                    ot[rep] += run_in(old_tools, "mkabstract", old_nbk, NULL, NULL);
                    ocpu[rep] += last_cpu;
                }
            }
            if (!same_file(full_nbk, inc_nbk) || (old_tools && !same_file(full_nbk, old_nbk))) {
                fprintf(stderr,
                        "bench_change: %s, a %u x %u edit at (%u, %u): the %sincremental "
                        "bake's bundle differs from the full bake's\n",
                        label, e, e, x0, y0,
                        same_file(full_nbk, inc_nbk) ? "--old tools' " : "");
                exit(1);
            }
            ft[rep] = fc[rep] + fa[rep];
            it[rep] = ic[rep] + ia[rep];
            ratio[rep] = it[rep] / ft[rep];
            cratio[rep] = icpu[rep] / fcpu[rep];
            if (old_tools) {
                oratio[rep] = it[rep] / ot[rep];
                ocratio[rep] = icpu[rep] / ocpu[rep];
            }
        }
        if (old_tools)
            printf("| %s | %u x %u | %.3f (CPU %.3f) | %.3f / %.3f | %.3f / %.3f | %.1f%% / %.1f%% "
                   "| %.3f / %.3f = %.3f | %.3f / %.3f = %.3f | yes |\n",
                   label, e, e, median(ft, reps), median(fcpu, reps), median(ot, reps),
                   median(it, reps),
                   median(ocpu, reps), median(icpu, reps), 100 * median(ot, reps) / median(ft, reps),
                   100 * median(ratio, reps), median(it, reps), median(ot, reps),
                   median(oratio, reps), median(icpu, reps), median(ocpu, reps),
                   median(ocratio, reps));
        else
            printf("| %s | %u x %u | %.3f + %.3f = %.3f | %.3f + %.3f = %.3f | %.1f%% | %.3f / "
                   "%.3f = %.1f%% | yes |\n",
                   label, e, e, median(fc, reps), median(fa, reps), median(ft, reps),
                   median(ic, reps), median(ia, reps), median(it, reps), 100 * median(ratio, reps),
                   median(icpu, reps), median(fcpu, reps), 100 * median(cratio, reps));
        fflush(stdout);
    }
    free(g.cells);
    unlink(base_nbk);
    unlink(full_nbk);
    unlink(inc_nbk);
    unlink(old_nbk);
}

/* ---- runtime obstacles ---- */

#define OV_PLACES 101
#define OV_QUERIES 200
#define OV_PASSES 3

/* The time to block (or unblock) the e x e cells at (x, y). */
static double timed_change(nb_overlay *ov, long x, long y, uint32_t e, int block)
{
    nb_err err;
    double t0 = now();
    nb_status st = block ? nb_overlay_block(ov, x, y, e, e, &err)
                         : nb_overlay_unblock(ov, x, y, e, e, &err);
    double t = now() - t0;
    if (st != NB_OK)
        die("nb_overlay_block", &err);
    return t;
}

/* Blocks of 10 x 10 at random places, the same in both overlays. */
static void random_blocks(nb_overlay *a, nb_overlay *b, int n, tu_rng *r)
{
    for (int k = 0; k < n; k++) {
        long x = (long)tu_below(r, a->width - 10 + 1), y = (long)tu_below(r, a->height - 10 + 1);
        timed_change(a, x, y, 10, 1);
        timed_change(b, x, y, 10, 1);
    }
}

/* Clusters the overlay's repair of HAA*'s graph holds. */
static size_t repaired(const nb_overlay *ov)
{
    return ov->nrep ? ov->rep[0].held : 0;
}

/* Per-query times (the least of OV_PASSES passes) of Annotated A* (haa NULL) or HAA* on the
 * queries with each of the overlays with[0..3), taking turns query by query; their means in
 * us, with expansions, paths found and (HAA*) paths found by Annotated A* after a block. */
static void time_queries(nb_aa *aa, nb_haa *haa, const nb_aa_query *q, const nb_overlay *const *with,
                         double mean[3], uint64_t expanded[3], size_t found[3], size_t by_aa[3])
{
    static double best[3][OV_QUERIES];
    nb_err err;
    for (int m = 0; m < 3; m++)
        expanded[m] = found[m] = by_aa[m] = 0;
    for (int pass = 0; pass < OV_PASSES; pass++)
        for (int i = 0; i < OV_QUERIES; i++)
            for (int m = 0; m < 3; m++) {
                int mm = (m + i + pass) % 3; /* turns, so that none always runs first */
                nb_aa_query qq = q[i];
                qq.overlay = with[mm];
                nb_aa_result res;
                nb_haa_result hres;
                double t0 = now();
                if (haa ? tu_haa_find(haa, &qq, 0, &hres, &err) != NB_OK
                        : nb_aa_find(aa, &qq, &res, &err) != NB_OK)
                    die(haa ? "nb_haa_find" : "nb_aa_find", &err);
                double t = now() - t0;
                if (pass == 0 || t < best[mm][i])
                    best[mm][i] = t;
                if (pass == 0) {
                    nb_path_status st = haa ? hres.status : res.status;
                    expanded[mm] += haa ? hres.expanded : res.expanded;
                    found[mm] += st == NB_PATH_FOUND;
                    by_aa[mm] += haa && st == NB_PATH_FOUND && hres.abstract_len == 0;
                }
            }
    for (int m = 0; m < 3; m++) {
        mean[m] = 0;
        for (int i = 0; i < OV_QUERIES; i++)
            mean[m] += best[m][i];
        mean[m] = 1e6 * mean[m] / OV_QUERIES;
    }
}

static void bench_overlay(const char *label, const nbb_grid *base, const unsigned *edits,
                          size_t nedits, tu_rng *r)
{
    const char *dir = tu_tmpdir();
    char map[1024], nbk[1024], gbk[1024];
    snprintf(map, sizeof map, "%s", tu_path(dir, "ov.map"));
    snprintf(nbk, sizeof nbk, "%s", tu_path(dir, "ov.nbk"));
    snprintf(gbk, sizeof gbk, "%s", tu_path(dir, "ovg.nbk"));
    write_map(map, base);
    unlink(nbk);
    unlink(gbk);
    run("mkclear", map, "-o", nbk);
    run("mkclear", map, "-o", gbk);
    run("mkabstract", gbk, NULL, NULL);
    nb_bundle *b, *bg;
    nb_err err;
    if (nb_bundle_open(nbk, 0, NULL, &b, &err) != NB_OK ||
        nb_bundle_open(gbk, 0, NULL, &bg, &err) != NB_OK)
        die(nbk, &err);
    nb_agent def;
    if (nbb_default_agent(b, &def, &err) != NB_OK)
        die("the default agent", &err);
    /* ov0 on the bundle without HAA*'s graph: the cells' own cost; ov with its repair. */
    nb_overlay *ov0, *ov, *empty;
    if (nb_overlay_open(b, &ov0, &err) != NB_OK || nb_overlay_open(bg, &ov, &err) != NB_OK ||
        nb_overlay_open(bg, &empty, &err) != NB_OK)
        die("nb_overlay_open", &err);
    /* Blocks of 10 x 10 over about 1% of the map, at most 100. */
    uint64_t cells = (uint64_t)base->width * base->height;
    int nblocks = cells / 10000 > 100 ? 100 : cells / 10000 < 1 ? 1 : (int)(cells / 10000);
    random_blocks(ov0, ov, nblocks, r);
    printf("| level | blocks held | block e x e | block: median, no graph / with HAA*'s repair "
           "(us) | largest with the repair | unblock: median, no graph / repair | largest with "
           "the repair | clusters repaired | overlay bytes: no graph / repair |\n"
           "|---|---|---|---|---|---|---|---|---|\n");
    for (size_t k = 0; k < nedits; k++) {
        uint32_t e = edits[k] < base->width && edits[k] < base->height ? edits[k] : 1;
        double tb0[OV_PLACES], tu0[OV_PLACES], tb[OV_PLACES], tu[OV_PLACES], mb = 0, mu = 0;
        for (unsigned p = 0; p < OV_PLACES; p++) {
            /* Blocked, then unblocked again (which may open cells of the 100 blocks too); the
             * two overlays in turns. */
            long x = (long)tu_below(r, ov->width - e + 1), y = (long)tu_below(r, ov->height - e + 1);
            int first = p & 1;
            nb_overlay *o1 = first ? ov : ov0, *o2 = first ? ov0 : ov;
            double b1 = timed_change(o1, x, y, e, 1), b2 = timed_change(o2, x, y, e, 1);
            double u1 = timed_change(o1, x, y, e, 0), u2 = timed_change(o2, x, y, e, 0);
            tb[p] = first ? b1 : b2;
            tb0[p] = first ? b2 : b1;
            tu[p] = first ? u1 : u2;
            tu0[p] = first ? u2 : u1;
            mb = tb[p] > mb ? tb[p] : mb;
            mu = tu[p] > mu ? tu[p] : mu;
        }
        printf("| %s | %d | %u x %u | %.1f / %.1f | %.1f | %.1f / %.1f | %.1f | %zu | %zu / %zu |\n",
               label, nblocks, e, e, 1e6 * median(tb0, OV_PLACES), 1e6 * median(tb, OV_PLACES),
               1e6 * mb, 1e6 * median(tu0, OV_PLACES), 1e6 * median(tu, OV_PLACES), 1e6 * mu,
               repaired(ov), nb_overlay_bytes(ov0), nb_overlay_bytes(ov));
        fflush(stdout);
    }
    /* The blocks again (unblocking above may have opened some of their cells). */
    nb_overlay_clear(ov0);
    nb_overlay_clear(ov);
    random_blocks(ov0, ov, nblocks, r);
    nb_aa *aa;
    nb_haa *haa;
    if (nb_aa_open(bg, &aa, &err) != NB_OK || nb_haa_open(bg, &haa, &err) != NB_OK)
        die("nb_aa_open", &err);
    nb_aa_query q[OV_QUERIES];
    for (int i = 0; i < OV_QUERIES; i++) {
        nb_aa_query_init(&q[i]);
        q[i].size = def.size;
        q[i].capability = def.capability;
        /* The goal within 128 cells (Chebyshev) of the start, as a unit's next move. */
        do {
            uint32_t sx = tu_below(r, base->width), sy = tu_below(r, base->height);
            int64_t gx = (int64_t)sx + (int64_t)tu_below(r, 257) - 128,
                    gy = (int64_t)sy + (int64_t)tu_below(r, 257) - 128;
            gx = gx < 0 ? 0 : gx >= base->width ? base->width - 1 : gx;
            gy = gy < 0 ? 0 : gy >= base->height ? base->height - 1 : gy;
            q[i].start = (nb_cell){(int32_t)sx, (int32_t)sy};
            q[i].goal = (nb_cell){(int32_t)gx, (int32_t)gy};
        } while (nb_reachable(b, def.capability, def.size, q[i].start, q[i].goal) != 1);
    }
    const nb_overlay *with[3] = {NULL, empty, ov};
    double mean[3];
    uint64_t expanded[3];
    size_t found[3], by_aa[3];
    time_queries(aa, NULL, q, with, mean, expanded, found, by_aa);
    printf("\n| level | search | no overlay: us/query | empty overlay | with the blocks | "
           "ratio blocks / none | ns per expansion: none / blocks | found: none / blocks | "
           "found by AA* after a block |\n|---|---|---|---|---|---|---|---|---|\n");
    printf("| %s | AA* | %.1f | %.1f | %.1f | %.3f | %.1f / %.1f | %zu / %zu of %d | |\n", label,
           mean[0], mean[1], mean[2], mean[2] / mean[0],
           1e3 * mean[0] * OV_QUERIES / (double)expanded[0],
           1e3 * mean[2] * OV_QUERIES / (double)expanded[2], found[0], found[2], OV_QUERIES);
    time_queries(aa, haa, q, with, mean, expanded, found, by_aa);
    printf("| %s | HAA* | %.1f | %.1f | %.1f | %.3f | %.1f / %.1f | %zu / %zu of %d | %zu |\n\n",
           label, mean[0], mean[1], mean[2], mean[2] / mean[0],
           1e3 * mean[0] * OV_QUERIES / (double)expanded[0],
           1e3 * mean[2] * OV_QUERIES / (double)expanded[2], found[0], found[2], OV_QUERIES,
           by_aa[2]);
    fflush(stdout);
    nb_aa_close(aa);
    nb_haa_close(haa);
    nb_overlay_close(ov0);
    nb_overlay_close(ov);
    nb_overlay_close(empty);
    nb_bundle_close(b);
    nb_bundle_close(bg);
    unlink(nbk);
    unlink(gbk);
}

/* A comma-separated list of whole numbers from 1 to max into out. */
static size_t parse_list(const char *s, unsigned long max, unsigned *out)
{
    size_t n = 0;
    while (*s && n < MAX_LIST) {
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || v < 1 || v > max || (*end && *end != ','))
            return 0;
        out[n++] = (unsigned)v;
        s = *end ? end + 1 : end;
    }
    return *s ? 0 : n;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_change [--sides N,...] [--edits N,...] [--reps N] [-j N] "
                    "[--map MAP]... [--old DIR] [--overlay-only | --bakes-only]\n");
    return 2;
}

int main(int argc, char **argv)
{
    unsigned sides[MAX_LIST] = {1024, 2048, 4096}, edits[MAX_LIST] = {1, 10, 100}, reps = 3;
    size_t nsides = 3, nedits = 3, nmaps = 0;
    int overlay_only = 0, bakes_only = 0;
    const char *maps[MAX_LIST];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned one[MAX_LIST];
        if (strcmp(a, "--overlay-only") == 0 || strcmp(a, "--bakes-only") == 0) {
            overlay_only = a[2] == 'o';
            bakes_only = a[2] == 'b';
            continue;
        }
        if (!v)
            return usage();
        if (strcmp(a, "--sides") == 0 && (nsides = parse_list(v, 16384, sides)) > 0)
            i++;
        else if (strcmp(a, "--edits") == 0 && (nedits = parse_list(v, 16384, edits)) > 0)
            i++;
        else if (strcmp(a, "--reps") == 0 && parse_list(v, MAX_REPS, one) == 1)
            reps = one[0], i++;
        else if (strcmp(a, "-j") == 0 && parse_list(v, NBB_MAX_THREADS, one) == 1)
            threads = one[0], i++;
        else if (strcmp(a, "--map") == 0 && nmaps < MAX_LIST)
            maps[nmaps++] = v, i++;
        else if (strcmp(a, "--old") == 0) {
            static char buf[1024];
            snprintf(buf, sizeof buf, "%s/tools", v);
            old_dir = v;
            old_tools = buf;
            i++;
        }
        else
            return usage();
    }
    const char *top = getenv("top_builddir");
    if (top && *top) {
        static char buf[1024];
        snprintf(buf, sizeof buf, "%s/tools", top);
        tools = buf;
    }
    if (!getenv("NB_SHARED") || !*getenv("NB_SHARED"))
        setenv("NB_SHARED", tu_src("../shared"), 1);
    const char *tile = "maps/random/random512-10-0.map";
    if (!tu_shared(tile)) {
        printf("bench_change: %s is absent from ../shared (set NB_SHARED): nothing to measure\n",
               tile);
        return 0;
    }
    tu_rng r = {0x5eedc4a7e17ULL};
    nbi_legend legend;
    nbi_legend_default(&legend);
    for (int phase = overlay_only; phase < 2 - bakes_only; phase++) {
    if (phase == 0) {
        printf("bench_change: %u edits at random places per row, the median of each; -j %u; wall "
               "seconds\n\n",
               reps, threads);
        if (old_tools)
            printf("incremental: the tools of --old %s / these, in turns with the full bake\n\n"
                   "| level | edit | full: mkclear + mkabstract | incremental: old / these | CPU: "
                   "old / these | incremental / full: old / these | these / old | CPU: these / "
                   "old | same bytes |\n|---|---|---|---|---|---|---|---|---|\n",
                   old_dir);
        else
            printf("| level | edit | full: mkclear + mkabstract | incremental: mkclear + "
                   "mkabstract | incremental / full | CPU: incremental / full | same bytes |\n"
                   "|---|---|---|---|---|---|---|\n");
    } else {
        printf("\nbench_change: runtime obstacles: an overlay holding blocks of 10 x 10 over about "
               "1%% of the map (at most 100); %d places per row; microseconds\n\n",
               OV_PLACES);
    }
    for (size_t m = 0; m < nmaps; m++) {
        const char *path = tu_shared(maps[m]);
        nbb_grid g;
        nb_err err;
        if (!path)
            die(maps[m], NULL);
        if (nbb_map_read(path, &legend, 1, &g, &err) != NB_OK)
            die(path, &err);
        char label[300];
        const char *slash = strrchr(maps[m], '/');
        snprintf(label, sizeof label, "%s (%u x %u)", slash ? slash + 1 : maps[m], g.width,
                 g.height);
        if (phase == 0)
            bench_level(label, &g, edits, nedits, reps, &r);
        else
            bench_overlay(label, &g, edits, nedits, &r);
        nbb_grid_free(&g);
    }
    for (size_t s = 0; s < nsides; s++) {
        nbb_grid g;
        char label[100];
        tu_tiled_shared(tile, sides[s], 0, &g);
        snprintf(label, sizeof label, "random512-10-0 tiled to %u^2", sides[s]);
        if (phase == 0)
            bench_level(label, &g, edits, nedits, reps, &r);
        else
            bench_overlay(label, &g, edits, nedits, &r);
        nbb_grid_free(&g);
    }
    }
    return 0;
}
