/* bench_private.c: what NB_OPEN_PRIVATE costs against a mapped open, for
 * formats/bundle.md: the time of nb_bundle_open, of a first Annotated A*
 * query in a corner (nb_aa_open included), of nb_haa_open (which checks
 * the whole abstract graph) and of the first and second HAA* query across
 * the map, and the resident memory the open, then the queries, added
 * (anonymous: the process's own; file: pages of the mapped file, the
 * kernel's page cache, shared and reclaimable).  Each open is made in a
 * fresh process, with the file in the page cache (warm) or evicted from it
 * first (cold, by posix_fadvise: only this file's pages).  The bundle is
 * what mkclear and mkabstract bake (default agents, clusters of 10) for a
 * level tiled from random512-10-0 of ../shared (side 4096, or --side N),
 * or the bundles named on the command line.  Run by 'make bench'. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

#define REPS 5

typedef struct sample {
    double open_s, aa_s, ws_s, q1_s, q2_s;
    double anon_open, file_open, anon_q, file_q; /* MiB more than before the open */
} sample;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* RssAnon and RssFile of this process, in MiB. */
static void rss(double *anon, double *file)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    *anon = *file = -1;
    while (f && fgets(line, sizeof line, f)) {
        long kb;
        if (sscanf(line, "RssAnon: %ld", &kb) == 1)
            *anon = (double)kb / 1024;
        else if (sscanf(line, "RssFile: %ld", &kb) == 1)
            *file = (double)kb / 1024;
    }
    if (f)
        fclose(f);
}

static void die(const char *what, const nb_err *err)
{
    fprintf(stderr, "bench_private: %s: %s\n", what, err ? err->msg : "failed");
    exit(1);
}

/* A passable cell near (x, y), searching outwards along the row, then the
 * next rows. */
static nb_cell passable_near(const nb_bundle *b, nb_capability cap, long x, long y, int dy)
{
    long w = (long)nb_map_width(b);
    for (long yy = y; yy >= 0 && yy < (long)nb_map_height(b); yy += dy)
        for (long xx = 0; xx < w; xx++) {
            long cx = dy > 0 ? xx : w - 1 - xx;
            if (nb_clearance(b, cap, cx, yy) > 0)
                return (nb_cell){(int32_t)cx, (int32_t)yy};
        }
    return (nb_cell){(int32_t)x, (int32_t)y};
}

/* One open and its queries, in this process (a fresh child). */
static sample measure(const char *path, unsigned flags)
{
    sample s;
    nb_err err;
    nb_bundle *b;
    nb_haa *haa;
    double anon0, file0;
    rss(&anon0, &file0);
    double t0 = now();
    if (nb_bundle_open(path, flags, NULL, &b, &err) != NB_OK)
        die(path, &err);
    s.open_s = now() - t0;
    rss(&s.anon_open, &s.file_open);
    s.anon_open -= anon0;
    s.file_open -= file0;
    nb_aa_query q;
    nb_aa_query_init(&q);
    const nb_agent *a = nb_agent_get(b, 0);
    if (!a)
        die("no agent", NULL);
    q.capability = a->capability;
    /* Annotated A* in one corner (its first pages of the map and the
     * clearance layer), then HAA* across the map. */
    q.start = passable_near(b, q.capability, 0, 0, 1);
    q.goal = passable_near(b, q.capability, 300, 300, 1);
    nb_aa *aa;
    nb_aa_result ar;
    t0 = now();
    if (nb_aa_open(b, &aa, &err) != NB_OK || nb_aa_find(aa, &q, &ar, &err) != NB_OK ||
        ar.status != NB_PATH_FOUND)
        die("Annotated A*", &err);
    s.aa_s = now() - t0;
    nb_aa_close(aa);
    t0 = now();
    if (nb_haa_open(b, &haa, &err) != NB_OK)
        die("nb_haa_open", &err);
    s.ws_s = now() - t0;
    q.goal = passable_near(b, q.capability, (long)nb_map_width(b) - 1, (long)nb_map_height(b) - 1, -1);
    nb_haa_result r;
    t0 = now();
    if (tu_haa_find(haa, &q, 0, &r, &err) != NB_OK || r.status != NB_PATH_FOUND)
        die("the first query", &err);
    s.q1_s = now() - t0;
    t0 = now();
    if (tu_haa_find(haa, &q, 0, &r, &err) != NB_OK)
        die("the second query", &err);
    s.q2_s = now() - t0;
    rss(&s.anon_q, &s.file_q);
    s.anon_q -= anon0;
    s.file_q -= file0;
    nb_haa_close(haa);
    nb_bundle_close(b);
    return s;
}

static void evict(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        close(fd);
    }
}

static sample in_child(const char *path, unsigned flags, int cold)
{
    int p[2];
    sample s;
    if (pipe(p) != 0)
        die("pipe", NULL);
    if (cold)
        evict(path);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        s = measure(path, flags);
        _exit(write(p[1], &s, sizeof s) == (ssize_t)sizeof s ? 0 : 1);
    }
    close(p[1]);
    ssize_t n = read(p[0], &s, sizeof s);
    close(p[0]);
    int status;
    waitpid(pid, &status, 0);
    if (n != (ssize_t)sizeof s || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        die("a measuring process failed", NULL);
    return s;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of field off over the samples. */
static double median(const sample *s, size_t off)
{
    double v[REPS];
    for (int i = 0; i < REPS; i++)
        memcpy(&v[i], (const char *)&s[i] + off, sizeof v[i]);
    qsort(v, REPS, sizeof v[0], cmp_double);
    return v[REPS / 2];
}

#define MED(s, f) median(s, offsetof(sample, f))

static void bench(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        die(path, NULL);
    printf("\n%s: %.1f MiB; median of %d opens, each in a fresh process\n", path,
           (double)sb.st_size / (1 << 20), REPS);
    printf("| open | cache | nb_bundle_open | RSS added: anon / file | first AA* | nb_haa_open | "
           "first HAA* | second HAA* | RSS added at the end |\n"
           "|---|---|---|---|---|---|---|---|---|\n");
    for (int cold = 1; cold >= 0; cold--)
        for (int priv = 0; priv < 2; priv++) {
            sample s[REPS];
            for (int i = 0; i < REPS; i++)
                s[i] = in_child(path, priv ? NB_OPEN_PRIVATE : 0, cold);
            printf("| %s | %s | %.3f ms | %.1f / %.1f MiB | %.2f ms | %.1f ms | %.1f ms | %.1f ms | "
                   "%.1f / %.1f MiB |\n",
                   priv ? "private" : "mapped", cold ? "cold" : "warm", MED(s, open_s) * 1e3,
                   MED(s, anon_open), MED(s, file_open), MED(s, aa_s) * 1e3, MED(s, ws_s) * 1e3,
                   MED(s, q1_s) * 1e3,
                   MED(s, q2_s) * 1e3, MED(s, anon_q), MED(s, file_q));
        }
}

/* The tiled level, baked into dir/tiled.nbk; returns its path. */
static const char *bake_tiled(unsigned side)
{
    const char *src = "maps/random/random512-10-0.map";
    nbi_legend legend;
    nbi_agentset agents;
    nbb_grid grid;
    nb_err err;
    nbi_legend_default(&legend);
    if (!tu_tiled_shared(src, side, 0, &grid))
        return NULL;
    if (nbb_agents_default(&legend, &agents, &err) != NB_OK)
        die(src, &err);
    const char *path = tu_path(tu_tmpdir(), "tiled.nbk");
    nb_bundle *b = NULL;
    fprintf(stderr, "bench_private: baking a %u x %u level tiled from %s...\n", side, side, src);
    if (tu_write_cleared(path, &legend, &agents, &grid, 0, &err) != NB_OK ||
        nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK ||
        tu_add_abstract(&b, path, 10, &err) != NB_OK)
        die(path, &err);
    nb_bundle_close(b);
    nbb_grid_free(&grid);
    return path;
}

int main(int argc, char **argv)
{
    unsigned side = 4096;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--side") == 0) {
        side = (unsigned)strtoul(argv[2], NULL, 10);
        first = 3;
    }
    printf("# NB_OPEN_PRIVATE against a mapped open\n");
    if (first < argc) {
        for (int i = first; i < argc; i++)
            bench(argv[i]);
        return 0;
    }
    const char *path = bake_tiled(side);
    if (!path) {
        printf("# ../shared is absent (NB_SHARED): name a bundle to measure\n");
        return 0;
    }
    bench(path);
    return 0;
}
