/* bench_first.c: what the first queries on a fresh workspace cost against
 * the same queries again (issue 16: "on orz900d the first 20 short queries
 * average 181 us against 7.3 us for the same queries again", when a
 * workspace was per-cell arrays the size of the map).
 *
 * For each map (default: dao/orz900d, dao/brc202d and wc3/battleground of
 * $NB_SHARED/maps), baked here with the default agents (mkclear's layers
 * and mkabstract's graph with its defaults), the queries are the first N
 * scenario lines (default 20) of optimal length 32 to 63 cells.  Then, for
 * ROUNDS rounds (default 5), three fresh workspaces each run the N queries
 * twice, and the bench prints the mean time a query of each pass:
 *   - AA* on today's workspace (nb_aa_open: node pages claimed as the
 *     search reaches them);
 *   - the same AA* on per-cell arrays the size of the map (nbi_aa_run_flat:
 *     the workspace before issue 16; its first call allocates them), on a
 *     workspace of its own;
 *   - HAA* (nb_haa_open), with straightening.
 * Round 1 runs right after the bundle is opened: its first pass also pays
 * the first reads of the mapped file, which later rounds find in memory.
 * The last rows give the median over the rounds of each pass's mean.
 * Every query's length must agree between AA* and the per-cell arrays (the
 * bench stops otherwise).  Usage: bench_first [-n N] [-r ROUNDS] [MAP...]
 * (MAP relative to $NB_SHARED/maps).  Results: tests/bench/results/scale-bench.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bake_int.h"
#include "clearance/aastar.h"
#include "clearance/clearance.h"
#include "testutil.h"

#ifndef NB_SHARED_DEFAULT
#define NB_SHARED_DEFAULT "../shared"
#endif

#define MAXQ 256

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

static void die(const char *what, const nb_err *err)
{
    fprintf(stderr, "bench_first: %s%s%s\n", what, err ? ": " : "", err ? err->msg : "");
    exit(1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

enum { AA, FLAT, HAA, METHODS };
static const char *method_name[METHODS] = {"AA*", "AA* on per-cell arrays", "HAA*"};

/* One pass of the queries on a workspace: the mean microseconds a query;
 * each query's length in len[]. */
static double pass(int method, nb_aa *aa, nb_haa *haa, const nbi_layer *cl, nb_aa_query *q,
                   const nbb_scen_line *const *lines, size_t nq, double *len)
{
    nb_err err;
    double total = 0;
    for (size_t k = 0; k < nq; k++) {
        q->start = lines[k]->start;
        q->goal = lines[k]->goal;
        double t0 = now_us();
        if (method == HAA) {
            nb_haa_result r;
            if (tu_haa_find(haa, q, NB_HAA_STRAIGHTEN, &r, &err) != NB_OK)
                die("nb_haa_find", &err);
            len[k] = r.status == NB_PATH_FOUND ? r.length : -1;
        } else {
            nb_aa_result r;
            if (method == AA && nb_aa_find(aa, q, &r, &err) != NB_OK)
                die("nb_aa_find", &err);
            if (method == FLAT &&
                !nbi_aa_run_flat(aa, cl, q->size, q->corner, q->start, &q->goal, &r))
                die("no memory for the per-cell arrays", NULL);
            len[k] = r.status == NB_PATH_FOUND ? r.length : -1;
        }
        total += now_us() - t0;
    }
    return total / (double)nq;
}

static void bench_map(const char *shared, const char *rel, size_t want, int rounds)
{
    char map[2048], scen_path[2100];
    snprintf(map, sizeof map, "%s/maps/%s", shared, rel);
    snprintf(scen_path, sizeof scen_path, "%s.scen", map);
    nbi_legend legend;
    nbi_legend_default(&legend);
    nbi_agentset agents;
    nb_err err;
    nbb_grid g;
    nbb_scen scen;
    if (nbb_agents_default(&legend, &agents, &err) != NB_OK)
        die("the default agents", &err);
    if (nbb_map_read(map, &legend, 1, &g, &err) != NB_OK || nbb_scen_read(scen_path, &scen, &err))
        die(rel, &err);
    const nbb_scen_line *lines[MAXQ];
    size_t nq = 0;
    for (size_t i = 0; i < scen.count && nq < want; i++)
        if (scen.lines[i].optimal >= 32 && scen.lines[i].optimal < 64)
            lines[nq++] = &scen.lines[i];
    if (nq == 0)
        die("no scenario line of 32 to 63 cells", NULL);
    const char *path = tu_path(tu_tmpdir(), "first.nbk");
    nb_bundle *b = NULL;
    if (tu_write_cleared(path, &legend, &agents, &g, 0, &err) != NB_OK ||
        nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK || tu_add_abstract(&b, path, 10, &err))
        die(rel, &err);
    nb_bundle_close(b);
    free(g.cells);
    /* Opened again: round 1's first pass reads the mapped file first. */
    if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK)
        die(rel, &err);
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.capability = agents.agent[0].capability;
    q.size = agents.agent[0].size;
    nbi_layer cl;
    if (nbi_clearance_layer(b, q.capability, &cl, &err) != NB_OK)
        die("the clearance layer", &err);
    printf("\n### %s (%u x %u): the first %zu scenario lines of 32 to 63 cells\n\n", rel, g.width,
           g.height, nq);
    printf("| round | method | first pass us/query | second pass us/query | first / second |\n");
    printf("|---:|---|---:|---:|---:|\n");
    double len[METHODS][MAXQ];
    double t1[METHODS][100], t2[METHODS][100];
    for (int r = 0; r < rounds; r++)
        for (int m = 0; m < METHODS; m++) {
            nb_aa *aa = NULL;
            nb_haa *haa = NULL;
            if (m == HAA ? nb_haa_open(b, &haa, &err) : nb_aa_open(b, &aa, &err))
                die("a workspace", &err);
            double first = pass(m, aa, haa, &cl, &q, lines, nq, len[m]);
            double second = pass(m, aa, haa, &cl, &q, lines, nq, len[m]);
            nb_aa_close(aa);
            nb_haa_close(haa);
            t1[m][r] = first;
            t2[m][r] = second;
            printf("| %d | %s | %.1f | %.1f | %.2f |\n", r + 1, method_name[m], first, second,
                   first / second);
            if (m == FLAT)
                for (size_t k = 0; k < nq; k++)
                    if (fabs(len[AA][k] - len[FLAT][k]) > 1e-9)
                        die("AA* on pages and on per-cell arrays disagree", NULL);
        }
    /* The median over the rounds: another job's interruption makes a
     * pass longer, never shorter. */
    for (int m = 0; m < METHODS; m++) {
        double a = median(t1[m], rounds), c = median(t2[m], rounds);
        printf("| median | %s | %.1f | %.1f | %.2f |\n", method_name[m], a, c, a / c);
    }
    nb_bundle_close(b);
    nbb_scen_free(&scen);
    remove(path);
}

int main(int argc, char **argv)
{
    const char *shared = getenv("NB_SHARED") ? getenv("NB_SHARED") : NB_SHARED_DEFAULT;
    long n = 20, rounds = 5;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i += 2) {
        char *end;
        long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : 0;
        if (i + 1 >= argc || *end || v < 1 ||
            (strcmp(argv[i], "-n") == 0 ? v > MAXQ : strcmp(argv[i], "-r") == 0 ? v > 100 : 1)) {
            fprintf(stderr, "usage: bench_first [-n 1..%d] [-r 1..100] [MAP...]\n", MAXQ);
            return 2;
        }
        *(strcmp(argv[i], "-n") == 0 ? &n : &rounds) = v;
    }
    static const char *defaults[] = {"dao/orz900d.map", "dao/brc202d.map", "wc3/battleground.map"};
    printf("bench_first: the first short queries on fresh workspaces (mean us a query)\n");
    if (i < argc)
        for (; i < argc; i++)
            bench_map(shared, argv[i], (size_t)n, (int)rounds);
    else
        for (size_t k = 0; k < sizeof defaults / sizeof *defaults; k++)
            bench_map(shared, defaults[k], (size_t)n, (int)rounds);
    return 0;
}
