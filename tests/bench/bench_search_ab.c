/* bench_search_ab.c: Annotated A* and HAA* queries, written once for the
 * 0.1, 0.2 and 1.0 APIs, so that tests/bench/search-ab.sh can build it
 * against the library of any commit since 8fc537e and compare them in
 * one run (a ratio between builds means something only within one run).
 *
 *   bench_search_ab [-f aa|haa] [-s SIZE] [-m CAPABILITY] [-t TERRAIN=COST]...
 *                   [-q QUERIES] [-n REPEATS] BUNDLE SCEN
 *
 * The queries are QUERIES scenario lines of SCEN (all when 0, the
 * default), spread evenly over the file (its lines go from short paths to
 * long ones), among those whose two ends an agent of SIZE (1) and
 * CAPABILITY (a mask of terrain numbers, 3: ground and swamp) stands on
 * and are joined (nb_reachable): the same queries on every build.  -t
 * gives terrain number TERRAIN a cost multiplier (0.2 from c24e279, and
 * 1.0; HAA* needs the graph's costs baked for the same profile).  One pass
 * over the queries warms the workspace (its node storage grows to what
 * they need, as in a game that has run a while), then REPEATS (1) timed
 * passes, in functions of their own so that valgrind --tool=callgrind
 * --toggle-collect=timed_pass counts their instructions alone.  Prints
 * the queries, the sum of the lengths and of the expansions (the same on
 * every build that searches the same way), and the least mean
 * microseconds of thread CPU time a query over the repeats. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "navbake.h"
#include "scen_pairs.h"

#if NB_VERSION_MAJOR >= 1
#define API 10
#elif NB_VERSION_MINOR >= 2
#define API 2
#else
#define API 1
#endif

/* The query fields a build may not have: search-ab.sh defines HAVE_COSTS
 * when its navbake.h has terrain costs. */
#if API == 10
#define HAVE_COSTS 1
#endif


typedef struct bench {
    const nb_bundle *b;
    int haa;
    uint32_t size;
    nb_capability cap;
    double costs[NB_MAX_TERRAINS];
    int weighted;
    nb_aa *aa;
    nb_haa *hw;
    const pair *p;
    size_t n;
} bench;

/* The thread's CPU time, not the wall clock: on a machine shared with other work the wall
 * clock counts the time this thread waits for a core, which moves by tens of per cent from
 * minute to minute, and a comparison of builds in turns means something only without it. */
static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* A scenario line both of whose ends stand and are joined for the agent (read_scen_pairs). */
static int joined(const void *ctx, const pair *p)
{
    const bench *k = ctx;
    return nb_can_stand(k->b, k->cap, k->size, p->s.x, p->s.y) == 1 &&
           nb_can_stand(k->b, k->cap, k->size, p->g.x, p->g.y) == 1 &&
           nb_reachable(k->b, k->cap, k->size, p->s, p->g) == 1;
}

/* The fields both families' queries have. */
#ifdef HAVE_COSTS
#define SET_QUERY(q, k, p)                                                                      \
    ((q).start = (p)->s, (q).goal = (p)->g, (q).size = (k)->size, (q).capability = (k)->cap,     \
     (q).costs = (k)->weighted ? (k)->costs : NULL)
#else
#define SET_QUERY(q, k, p)                                                                      \
    ((q).start = (p)->s, (q).goal = (p)->g, (q).size = (k)->size, (q).capability = (k)->cap)
#endif

/* One query: its length into *len and its expansions into *exp; 0 when it found no path. */
static int query(const bench *k, const pair *p, double *len, uint64_t *exp)
{
    nb_err err;
    nb_status st;
    if (!k->haa) {
        nb_aa_query q;
        nb_aa_result r;
#if API >= 2
        nb_aa_query_init(&q);
#else
        memset(&q, 0, sizeof q);
#endif
        SET_QUERY(q, k, p);
        st = nb_aa_find(k->aa, &q, &r, &err);
        *len = r.length;
        *exp = r.expanded;
        return st == NB_OK && r.status == NB_PATH_FOUND;
    }
    nb_haa_result r;
#if API == 10
    nb_haa_query q;
    nb_haa_query_init(&q);
#elif API == 2
    nb_aa_query q;
    nb_aa_query_init(&q);
#else
    nb_aa_query q;
    memset(&q, 0, sizeof q);
#endif
    SET_QUERY(q, k, p);
#if API == 10
    st = nb_haa_find(k->hw, &q, &r, &err);
#elif API == 2
    st = nb_haa_find(k->hw, &q, 0, &r, &err);
#else
    st = nb_haa_query(k->hw, &q, 0, &r, &err);
#endif
    *len = r.length;
    *exp = r.expanded;
    return st == NB_OK && r.status == NB_PATH_FOUND;
}

static void pass(const bench *k, double *sum, uint64_t *exps, size_t *found)
{
    *sum = 0;
    *exps = 0;
    *found = 0;
    for (size_t i = 0; i < k->n; i++) {
        double len;
        uint64_t e;
        if (query(k, &k->p[i], &len, &e)) {
            *sum += len;
            *exps += e;
            ++*found;
        }
    }
}

/* The pass that warms the workspace, and the measured ones (callgrind's --toggle-collect):
 * REPEATS passes, the least mean microseconds a query into *us. */
static void warm_pass(const bench *k, double *sum, uint64_t *exps, size_t *found)
{
    pass(k, sum, exps, found);
}

static void timed_pass(const bench *k, int repeats, double *sum, uint64_t *exps,
                                size_t *found, double *us)
{
    *us = INFINITY;
    for (int r = 0; r < repeats; r++) {
        double t0 = now_us();
        pass(k, sum, exps, found);
        double t = (now_us() - t0) / (double)k->n;
        if (t < *us)
            *us = t;
    }
}

int main(int argc, char **argv)
{
    bench k;
    memset(&k, 0, sizeof k);
    k.size = 1;
    k.cap = 3u;
    for (int t = 0; t < NB_MAX_TERRAINS; t++)
        k.costs[t] = 1;
    int repeats = 1, a = 1;
    size_t limit = 0;
    for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
        const char *v = argv[a + 1];
        unsigned t;
        double c;
        if (strcmp(argv[a], "-n") == 0)
            repeats = atoi(v);
        else if (strcmp(argv[a], "-q") == 0)
            limit = (size_t)atol(v);
        else if (strcmp(argv[a], "-s") == 0)
            k.size = (uint32_t)atoi(v);
        else if (strcmp(argv[a], "-m") == 0)
            k.cap = (nb_capability)strtoul(v, NULL, 0);
        else if (strcmp(argv[a], "-f") == 0 && (!strcmp(v, "aa") || !strcmp(v, "haa")))
            k.haa = strcmp(v, "haa") == 0;
        else if (strcmp(argv[a], "-t") == 0 && sscanf(v, "%u=%lf", &t, &c) == 2 &&
                 t < NB_MAX_TERRAINS)
            k.costs[t] = c, k.weighted = 1;
        else
            break;
    }
    if (argc - a != 2 || repeats < 1 || k.size < 1) {
        fprintf(stderr, "usage: bench_search_ab [-f aa|haa] [-s SIZE] [-m CAPABILITY] "
                        "[-t TERRAIN=COST]... [-q QUERIES] [-n REPEATS] BUNDLE SCEN\n");
        return 2;
    }
#ifndef HAVE_COSTS
    if (k.weighted) {
        fprintf(stderr, "bench_search_ab: this build's API has no terrain costs\n");
        return 2;
    }
#endif
    nb_bundle *b;
    nb_err err;
#if API >= 2
    nb_status st = nb_bundle_open(argv[a], 0, NULL, &b, &err);
#else
    nb_status st = nb_bundle_open(argv[a], 0, &b, &err);
#endif
    if (st != NB_OK) {
        fprintf(stderr, "bench_search_ab: %s\n", err.msg);
        return 1;
    }
    pair *all;
    k.b = b;
    size_t n = read_scen_pairs(argv[a + 1], joined, &k, &all);
    if (n == 0) {
        fprintf(stderr, "bench_search_ab: no scenario line of %s joins two cells this agent "
                        "stands on\n", argv[a + 1]);
        return 1;
    }
    /* QUERIES lines spread evenly over those. */
    if (limit && limit < n) {
        for (size_t i = 0; i < limit; i++)
            all[i] = all[i * n / limit];
        n = limit;
    }
    k.p = all;
    k.n = n;
#if API >= 2
    st = k.haa ? nb_haa_open(b, &k.hw, &err) : nb_aa_open(b, &k.aa, &err);
#else
    st = k.haa ? nb_haa_new(b, &k.hw, &err) : nb_aa_new(b, &k.aa, &err);
#endif
    if (st != NB_OK) {
        fprintf(stderr, "bench_search_ab: %s\n", err.msg);
        return 1;
    }
    double sum;
    uint64_t exps;
    size_t found;
    /* Called through volatile pointers, so that neither is inlined into main: callgrind
     * toggles its count on entering timed_pass (no compiler extension needed, which
     * tests/cli/portable.sh keeps to lib/port/port.h, absent from old builds). */
    void (*volatile warm)(const bench *, double *, uint64_t *, size_t *) = warm_pass;
    void (*volatile timed)(const bench *, int, double *, uint64_t *, size_t *, double *) =
        timed_pass;
    warm(&k, &sum, &exps, &found);
    double best;
    timed(&k, repeats, &sum, &exps, &found, &best);
    printf("%s size %u cap %u%s: %zu queries, %zu found, length %.6f, expanded %llu, %.3f us\n",
           k.haa ? "haa" : "aa", k.size, (unsigned)k.cap, k.weighted ? " costs" : "", n, found,
           sum, (unsigned long long)exps, best);
#if API >= 2
    if (k.haa)
        nb_haa_close(k.hw);
    else
        nb_aa_close(k.aa);
#else
    if (k.haa)
        nb_haa_free(k.hw);
    else
        nb_aa_free(k.aa);
#endif
    nb_bundle_close(b);
    free(all);
    return 0;
}
