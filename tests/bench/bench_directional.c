/* bench_directional: how long Directional A* takes for a jeep (radius 2,
 * width 1, 8 headings, Directional-24: data/units/jeep.yaml) on the maps of
 * $NB_SHARED/maps, and, with --old, against the planner of an older build
 * in the same run (results and commands in tests/bench/results/directional-bench.md).
 *
 * Queries: long ones, every WC3 map's scenarios of optimal length 300 to
 * 400 cells spread over the file, and tests/bench/bench_hitcheck's, the
 * scenarios of 10 to 40 cells on its five maps.  Each query starts at the
 * start cell's centre facing the heading nearest the goal and ends at the
 * goal cell's centre facing any way.
 *
 * --old DIR names a build tree of an older navbake 1.x (its tools/mkclear,
 * tools/mkhitcheck and lib/.libs/libnavbake.so; 'make bench-directional'
 * makes one of the commit before the planner changed).  Its library is
 * loaded beside this program's own (dlopen, its symbols kept to itself),
 * each map is baked by each build's own tools, and every query runs on the
 * old planner and then on the new one, one after the other, so that both
 * see the same machine.  The costs must agree: the program fails
 * otherwise.  Times are per query, the planner made beforehand: wall
 * clock, and the thread's CPU time (the machine is shared; CPU time is
 * what the query itself took). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "navbake.h"

#ifndef NB_SHARED_DEFAULT
#define NB_SHARED_DEFAULT "../shared"
#endif
#ifndef NB_TOP_BUILDDIR
#define NB_TOP_BUILDDIR "."
#endif
#ifndef NB_TOP_SRCDIR
#define NB_TOP_SRCDIR "."
#endif

/* The planner API, from this build or the old one. */
struct api {
    const char *name;
    /* The ABI-guarded forms the macros of navbake.h call: an old library
     * whose structs differ refuses this program's with NB_ERR_VERSION. */
    nb_status (*bundle_open)(const char *, unsigned, const nb_allocator *, nb_bundle **, nb_err *,
                             const nb_abi *);
    void (*bundle_close)(nb_bundle *);
    nb_status (*planner_open)(const nb_bundle *, const char *, nb_planner **, nb_err *);
    void (*planner_close)(nb_planner *);
    nb_status (*query_init)(nb_planner_query *, const nb_abi *);
    nb_status (*find)(nb_planner *, const nb_planner_query *, nb_planner_result *, nb_err *);
};

static int load_old(struct api *a, const char *dir)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/lib/.libs/libnavbake.so", dir);
#ifdef RTLD_DEEPBIND
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
#else
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
#endif
    if (!h) {
        fprintf(stderr, "bench_directional: %s\n", dlerror());
        return 0;
    }
    a->name = "old";
    *(void **)&a->bundle_open = dlsym(h, "nb_bundle_open_abi");
    *(void **)&a->bundle_close = dlsym(h, "nb_bundle_close");
    *(void **)&a->planner_open = dlsym(h, "nb_planner_open");
    *(void **)&a->planner_close = dlsym(h, "nb_planner_close");
    *(void **)&a->query_init = dlsym(h, "nb_planner_query_init_abi");
    *(void **)&a->find = dlsym(h, "nb_planner_find");
    if (!a->bundle_open || !a->query_init)
        fprintf(stderr, "bench_directional: %s is older than navbake 1.0 (no ABI-guarded calls)\n",
                path);
    return a->bundle_open && a->bundle_close && a->planner_open && a->planner_close &&
           a->query_init && a->find;
}

static const struct api new_api = {"new", nb_bundle_open_abi, nb_bundle_close, nb_planner_open,
                                   nb_planner_close, nb_planner_query_init_abi, nb_planner_find};

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct query {
    long sx, sy, gx, gy;
    double optimal;
};

/* Up to max scenarios of optimal length lo to hi, spread over the file. */
static size_t read_scen(const char *path, double lo, double hi, struct query *q, size_t max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[1024];
    static struct query all[20000];
    size_t n = 0;
    while (fgets(line, sizeof line, f) && n < 20000) {
        int bucket, w, h;
        char map[512];
        struct query x;
        if (sscanf(line, "%d %511s %d %d %ld %ld %ld %ld %lf", &bucket, map, &w, &h, &x.sx, &x.sy,
                   &x.gx, &x.gy, &x.optimal) == 9 &&
            x.optimal >= lo && x.optimal <= hi)
            all[n++] = x;
    }
    fclose(f);
    size_t m = n < max ? n : max;
    for (size_t i = 0; i < m; i++)
        q[i] = all[i * n / m];
    return m;
}

/* Bakes map into bundle with the tools of build dir top. */
static int bake(const char *top, const char *map, const char *bundle)
{
    char cmd[8192];
    unlink(bundle);
    snprintf(cmd, sizeof cmd,
             "'%s/tools/mkclear' -q '%s' -o '%s' && '%s/tools/mkhitcheck' -q -u '%s/data/units/jeep.yaml' "
             "-o '%s'",
             top, map, bundle, top, NB_TOP_SRCDIR, bundle);
    return system(cmd) == 0;
}

struct run {
    const struct api *api;
    nb_bundle *b;
    nb_planner *p;
    double open_ms;
};

static int run_open(struct run *r, const struct api *a, const char *bundle)
{
    nb_err err;
    r->api = a;
    double t0 = wall();
    if (a->bundle_open(bundle, 0, NULL, &r->b, &err, NB_ABI_THIS) != NB_OK ||
        a->planner_open(r->b, "jeep", &r->p, &err) != NB_OK) {
        fprintf(stderr, "bench_directional: %s planner: %s\n", a->name, err.msg);
        return 0;
    }
    r->open_ms = (wall() - t0) * 1e3;
    return 1;
}

struct answer {
    double cost, wall_ms, cpu_ms;
    uint64_t expanded;
    int found;
};

static struct answer ask(const struct run *r, const struct query *q, unsigned flags)
{
    nb_planner_query pq;
    if (r->api->query_init(&pq, NB_ABI_THIS) != NB_OK) {
        fprintf(stderr, "bench_directional: the %s library's nb_planner_query is not this header's\n",
                r->api->name);
        exit(1);
    }
    double a = atan2((double)(q->gy - q->sy), (double)(q->gx - q->sx));
    long k = lround(a * 8 / (2 * M_PI));
    pq.start.x = q->sx + 0.5;
    pq.start.y = q->sy + 0.5;
    pq.start.heading = k * 2 * M_PI / 8;
    pq.goal.x = q->gx;
    pq.goal.y = q->gy;
    pq.neighbourhood = 24;
    pq.flags = flags;
    nb_planner_result res;
    nb_err err;
    struct answer an = {0};
    double w0 = wall(), c0 = cpu();
    nb_status st = r->api->find(r->p, &pq, &res, &err);
    an.cpu_ms = (cpu() - c0) * 1e3;
    an.wall_ms = (wall() - w0) * 1e3;
    if (st != NB_OK) {
        fprintf(stderr, "bench_directional: %s: %s\n", r->api->name, err.msg);
        an.cost = NAN;
        return an;
    }
    an.found = res.status == NB_PATH_FOUND;
    an.cost = an.found ? res.cost : INFINITY;
    an.expanded = res.expanded;
    return an;
}

static void run_close(struct run *r)
{
    if (r->api) {
        r->api->planner_close(r->p);
        r->api->bundle_close(r->b);
    }
    r->api = NULL;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

struct series {
    double *v;
    size_t n;
};

static void put(struct series *s, double x)
{
    s->v = realloc(s->v, (s->n + 1) * sizeof *s->v);
    s->v[s->n++] = x;
}

static double quantile(struct series *s, double q)
{
    if (!s->n)
        return NAN;
    qsort(s->v, s->n, sizeof *s->v, by_double);
    return s->v[(size_t)floor(q * (double)(s->n - 1) + 0.5)];
}

static double total(const struct series *s)
{
    double t = 0;
    for (size_t i = 0; i < s->n; i++)
        t += s->v[i];
    return t;
}

struct tally {
    struct series cpu[2], wall[2], exp[2], ratio;
    unsigned queries, found, differ;
};

static void summary(const char *title, struct tally *t, int old)
{
    if (!t->queries)
        return; /* a set asked away (--long 0, --short 0): no rows of nan */
    printf("\n%s: %u queries, %u found%s\n", title, t->queries, t->found,
           old ? (t->differ ? "; COSTS DIFFER" : "; the same cost from both on every query") : "");
    printf("%-26s %10s %10s %10s %10s %12s\n", "", "median", "90th", "max", "total", "expansions");
    for (int k = old ? 0 : 1; k < 2; k++) {
        const char *who = k ? "new" : "old";
        double e = total(&t->exp[k]);
        printf("%-4s CPU ms a query        %10.2f %10.2f %10.2f %10.1f %12.0f\n", who,
               quantile(&t->cpu[k], 0.5), quantile(&t->cpu[k], 0.9), quantile(&t->cpu[k], 1),
               total(&t->cpu[k]), e);
        printf("%-4s wall ms a query       %10.2f %10.2f %10.2f %10.1f\n", who,
               quantile(&t->wall[k], 0.5), quantile(&t->wall[k], 0.9), quantile(&t->wall[k], 1),
               total(&t->wall[k]));
    }
    if (old)
        printf("old/new CPU time a query: median %.1fx, smallest %.1fx; in all %.1fx; expansions "
               "%.1fx\n",
               quantile(&t->ratio, 0.5), quantile(&t->ratio, 0), total(&t->cpu[0]) / total(&t->cpu[1]),
               total(&t->exp[0]) / total(&t->exp[1]));
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_directional [--old BUILD_DIR] [--long N] [--short N] [-v]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *shared = getenv("NB_SHARED"), *olddir = NULL;
    size_t nlong = 10, nshort = 10;
    int verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--old") && i + 1 < argc)
            olddir = argv[++i];
        else if (!strcmp(argv[i], "--long") && i + 1 < argc)
            nlong = (size_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--short") && i + 1 < argc)
            nshort = (size_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "-v"))
            verbose = 1;
        else
            return usage();
    }
    if (nlong > 1000 || nshort > 1000)
        return usage();
    if (!shared || !*shared)
        shared = NB_SHARED_DEFAULT;
    char path[2048], bnew[64], bold[64];
    snprintf(path, sizeof path, "%s/maps/wc3/battleground.map", shared);
    if (access(path, R_OK) != 0) {
        printf("bench_directional: SKIP: %s not found (set NB_SHARED to the shared directory)\n", path);
        return 0;
    }
    struct api old_api;
    if (olddir && !load_old(&old_api, olddir))
        return 1;
    char cpuname[256] = "unknown";
    FILE *ci = fopen("/proc/cpuinfo", "r");
    if (ci) {
        char line[512];
        while (fgets(line, sizeof line, ci))
            if (strncmp(line, "model name", 10) == 0) {
                char *c = strchr(line, ':');
                snprintf(cpuname, sizeof cpuname, "%s", c ? c + 2 : line);
                cpuname[strcspn(cpuname, "\n")] = 0;
                break;
            }
        fclose(ci);
    }
    double load[3] = {0};
    FILE *lf = fopen("/proc/loadavg", "r");
    if (lf) {
        if (fscanf(lf, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
            load[0] = load[1] = load[2] = 0;
        fclose(lf);
    }
    printf("bench_directional: jeep (radius 2, width 1, 8 headings), Directional-24, the planner "
           "made beforehand\n");
    printf("machine: %s, %ld cores online, load average %.2f %.2f %.2f at the start\n", cpuname,
           sysconf(_SC_NPROCESSORS_ONLN), load[0], load[1], load[2]);
    if (olddir)
        printf("old: %s (its own tools baked its bundles)\n", olddir);
    snprintf(bnew, sizeof bnew, "/tmp/bench_directional-%ld-new.nbk", (long)getpid());
    snprintf(bold, sizeof bold, "/tmp/bench_directional-%ld-old.nbk", (long)getpid());

    static const struct {
        const char *map;
        double lo, hi;
        int lng;
    } sets[] = {
        {"wc3/battleground.map", 300, 400, 1},  {"wc3/blastedlands.map", 300, 400, 1},
        {"wc3/bloodvenomfalls.map", 300, 400, 1}, {"wc3/darkforest.map", 300, 400, 1},
        {"dao/arena.map", 10, 40, 0},           {"dao/den312d.map", 10, 40, 0},
        {"bg/AR0011SR.map", 10, 40, 0},         {"dao/lak303d.map", 10, 40, 0},
        {"wc3/battleground.map", 10, 40, 0},
    };
    struct tally tl[2];
    memset(tl, 0, sizeof tl);
    int failed = 0;
    struct query *q = malloc(1000 * sizeof *q);
    if (verbose)
        printf("\n%-24s %-19s %7s %10s %10s %8s %8s %9s %9s\n", "map", "query", "optimal", "old cost",
               "new cost", "old exp", "new exp", "old ms", "new ms");
    for (size_t m = 0; m < sizeof sets / sizeof sets[0]; m++) {
        struct tally *t = &tl[sets[m].lng ? 0 : 1];
        size_t want = sets[m].lng ? nlong : nshort;
        snprintf(path, sizeof path, "%s/maps/%s.scen", shared, sets[m].map);
        if (!want)
            continue;
        size_t n = read_scen(path, sets[m].lo, sets[m].hi, q, want);
        snprintf(path, sizeof path, "%s/maps/%s", shared, sets[m].map);
        struct run r[2] = {{0}, {0}};
        if (!n || !bake(NB_TOP_BUILDDIR, path, bnew) || (olddir && !bake(olddir, path, bold)) ||
            (olddir && !run_open(&r[0], &old_api, bold)) || !run_open(&r[1], &new_api, bnew)) {
            fprintf(stderr, "bench_directional: %s: cannot bake or open it\n", sets[m].map);
            failed = 1;
            run_close(&r[0]);
            run_close(&r[1]);
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            struct answer a[2] = {{0}};
            if (olddir)
                a[0] = ask(&r[0], &q[i], 0);
            a[1] = ask(&r[1], &q[i], 0);
            t->queries++;
            t->found += a[1].found;
            for (int k = olddir ? 0 : 1; k < 2; k++) {
                put(&t->cpu[k], a[k].cpu_ms);
                put(&t->wall[k], a[k].wall_ms);
                put(&t->exp[k], (double)a[k].expanded);
            }
            int differ = olddir && !(a[0].cost == a[1].cost || fabs(a[0].cost - a[1].cost) < 1e-6);
            t->differ += differ;
            failed |= differ || isnan(a[1].cost);
            if (olddir)
                put(&t->ratio, a[0].cpu_ms / a[1].cpu_ms);
            if (verbose || differ) {
                char qs[64];
                snprintf(qs, sizeof qs, "%ld,%ld-%ld,%ld", q[i].sx, q[i].sy, q[i].gx, q[i].gy);
                printf("%-24s %-19s %7.1f %10.3f %10.3f %8llu %8llu %9.2f %9.2f%s\n", sets[m].map,
                       qs, q[i].optimal, a[0].cost, a[1].cost, (unsigned long long)a[0].expanded,
                       (unsigned long long)a[1].expanded, a[0].cpu_ms, a[1].cpu_ms,
                       differ ? "  DIFFERENT COSTS" : "");
            }
        }
        if (verbose)
            printf("%-24s planner made in %.1f ms (old) and %.1f ms (new)\n", sets[m].map,
                   r[0].open_ms, r[1].open_ms);
        run_close(&r[0]);
        run_close(&r[1]);
    }
    unlink(bnew);
    unlink(bold);
    summary("Long queries: every WC3 map, optimal length 300 to 400 cells", &tl[0], olddir != NULL);
    summary("bench_hitcheck's queries: five maps, optimal length 10 to 40 cells", &tl[1],
            olddir != NULL);
    free(q);
    return failed;
}
