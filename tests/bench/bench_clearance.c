/* bench_clearance: mkclear's layers and Annotated A* on every map of
 * ../shared/maps, each against a baseline measured in the same run.
 *
 *   bench_clearance [--every K] [--map NAME]...
 *
 * For each map it prints, as Markdown tables (tests/bench/results/clearance-bench.md):
 *  1. clearance build throughput (cells x capabilities per second) for the
 *     dynamic programme and for square growing (the paper's Algorithm 1,
 *     written as fast as growing allows: each step checks only the new row
 *     and column), with the agents of data/sample-agents.yaml (4
 *     capabilities, sizes 1 to 3), and their ratio;
 *  2. bytes per cell of the clearance layer as a raw byte per cell, that
 *     byte layer through `gzip -9`, packed, and zlib+packed (mkclear
 *     --zlib), and of the component layers packed and zlib+packed;
 *  3. AA* on every K-th line (default 5) of the map's scenario file, with
 *     the default agent (size 1, {ground, swamp}): mean and median
 *     microseconds per query and expansions per second, beside a plain
 *     textbook A* on the same queries (arrays cleared per query, the
 *     library's generic heap, the same packed layer read per neighbour),
 *     and the ratio; beside the same AA* on per-cell arrays the size of
 *     the map (the workspace before issue 16: nbi_aa_run_flat) and on
 *     lib/runtime/core/heap.h (nbi_aa_run_generic_heap); the methods take
 *     turns query by query, in 3 passes, and each query's time is its
 *     least over the passes.  Every length is checked against the file's.
 *
 * --search-only skips 1 and 2. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "clearance/aastar.h"
#include "core/heap.h"
#include "bake_int.h"
#include "testutil.h"

#define PASSES 3

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the baselines ---- */

/* Square growing: while the square of side s + 1 anchored at the cell
 * fits and is passable, s grows; the new square differs from the old by
 * its last row and column only, so only those are checked. */
static void grow_squares(const uint8_t *pass, uint32_t w, uint32_t h, unsigned cap, uint8_t *out)
{
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            unsigned s = 0;
            while (s < cap && x + s < w && y + s < h) {
                int okk = 1;
                for (unsigned k = 0; k <= s && okk; k++)
                    okk = pass[(size_t)(y + s) * w + x + k] && pass[(size_t)(y + k) * w + x + s];
                if (!okk)
                    break;
                s++;
            }
            out[(size_t)y * w + x] = (uint8_t)s;
        }
}

/* Textbook A*: g, parent, closed and heap positions cleared for every
 * query; lib/runtime/core/heap.h; standability by reading the packed layer. */
struct plain {
    size_t n;
    double *g;
    uint32_t *parent, *pos;
    uint8_t *closed;
    nbi_heap heap;
};

static double plain_astar(struct plain *p, const nbi_layer *l, uint32_t size, nb_cell s, nb_cell t,
                          uint64_t *expanded)
{
    uint32_t w = l->width, hgt = l->height;
    for (size_t i = 0; i < p->n; i++) {
        p->g[i] = INFINITY;
        p->closed[i] = 0;
        p->pos[i] = NBI_HEAP_NONE;
    }
    nbi_heap_clear(&p->heap);
    uint32_t start = (uint32_t)s.y * w + (uint32_t)s.x, goal = (uint32_t)t.y * w + (uint32_t)t.x;
    p->g[start] = 0;
    nbi_heap_push(&p->heap, 0, 0, start);
    uint64_t n = 0;
    while (!nbi_heap_empty(&p->heap)) {
        nbi_heap_item it = nbi_heap_pop(&p->heap);
        uint32_t id = it.id;
        p->closed[id] = 1;
        n++;
        if (id == goal)
            break;
        int x = (int)(id % w), y = (int)(id / w);
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                if (!dx && !dy)
                    continue;
                int nx = x + dx, ny = y + dy;
                if (nx < 0 || ny < 0 || nx >= (int)w || ny >= (int)hgt)
                    continue;
                uint32_t j = (uint32_t)ny * w + (uint32_t)nx;
                if (nbi_layer_get(l, j) < size || p->closed[j])
                    continue;
                if (dx && dy &&
                    (nbi_layer_get(l, (uint32_t)y * w + (uint32_t)nx) < size ||
                     nbi_layer_get(l, (uint32_t)ny * w + (uint32_t)x) < size))
                    continue;
                double ng = p->g[id] + (dx && dy ? sqrt(2.0) : 1.0);
                if (ng >= p->g[j])
                    continue;
                p->g[j] = ng;
                p->parent[j] = id;
                double ddx = fabs((double)nx - t.x), ddy = fabs((double)ny - t.y);
                double hh = ddx > ddy ? ddx + (sqrt(2.0) - 1) * ddy : ddy + (sqrt(2.0) - 1) * ddx;
                nbi_heap_push(&p->heap, ng + hh, -ng, j);
            }
    }
    *expanded += n;
    return p->closed[goal] ? p->g[goal] : -1;
}

/* ---- helpers ---- */

static size_t gzip9_bytes(const uint8_t *data, size_t len)
{
    char path[512], cmd[1100];
    snprintf(path, sizeof path, "%s/layer.raw", tu_tmpdir());
    if (tu_write(path, data, len) != 0)
        return 0;
    snprintf(cmd, sizeof cmd, "gzip -9 -c '%s' | wc -c", path);
    FILE *f = popen(cmd, "r");
    unsigned long n = 0;
    if (!f || fscanf(f, "%lu", &n) != 1)
        n = 0;
    if (f)
        pclose(f);
    return n;
}

static size_t zlib9_bytes(const uint8_t *data, size_t len)
{
    uLongf zlen = compressBound((uLong)len);
    uint8_t *z = malloc(zlen);
    if (!z || compress2(z, &zlen, data, (uLong)len, Z_BEST_COMPRESSION) != Z_OK)
        zlen = 0;
    free(z);
    return zlen;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The maps under dir/<collection>/, sorted. */
static size_t list_maps(const char *dir, char ***out)
{
    size_t n = 0, cap = 64;
    char **v = malloc(cap * sizeof *v);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        DIR *d2 = opendir(sub);
        struct dirent *f;
        while (d2 && (f = readdir(d2))) {
            size_t l = strlen(f->d_name);
            if (l > 4 && strcmp(f->d_name + l - 4, ".map") == 0) {
                if (n == cap)
                    v = realloc(v, (cap *= 2) * sizeof *v);
                v[n] = malloc(strlen(e->d_name) + l + 2);
                sprintf(v[n++], "%s/%s", e->d_name, f->d_name);
            }
        }
        if (d2)
            closedir(d2);
    }
    if (d)
        closedir(d);
    qsort(v, n, sizeof *v, cmp_str);
    *out = v;
    return n;
}

struct row {
    char name[64];
    uint32_t w, h;
    double dp_rate, brute_rate, dp16_rate, brute16_rate;
    double raw, gz, packed, zpacked, comp_packed, comp_z;
    size_t queries, aa_bad, plain_bad;
    double aa_mean, aa_median, aa_rate, gh_mean, gh_rate, pl_mean, pl_median, pl_rate;
    double fl_mean, fl_rate;
};

/* Cells x capabilities per second of the DP and of square growing, each
 * repeated for at least 0.3 s. */
static void throughput(const nbb_grid *g, uint8_t in_cap[][256], const uint8_t *pass, size_t ncaps,
                       unsigned cap, uint8_t *dp, uint8_t *br, double *dp_rate, double *grow_rate)
{
    size_t n = (size_t)g->width * g->height;
    double t0 = now_s(), t;
    long reps = 0;
    do {
        for (size_t c = 0; c < ncaps; c++)
            nbb_clearance_compute(g->cells, g->width, g->height, in_cap[c], cap, dp);
        reps++;
    } while ((t = now_s() - t0) < 0.3);
    *dp_rate = (double)n * (double)ncaps * (double)reps / t;
    t0 = now_s();
    reps = 0;
    do {
        for (size_t c = 0; c < ncaps; c++)
            grow_squares(pass + c * n, g->width, g->height, cap, br);
        reps++;
    } while ((t = now_s() - t0) < 0.3);
    *grow_rate = (double)n * (double)ncaps * (double)reps / t;
}

static int search_only;

static void bench_map(const char *dir, const char *rel, int every, const nbi_legend *legend,
                      const nbi_agentset *sample, struct row *r)
{
    char map[1024], scen_path[1100];
    snprintf(map, sizeof map, "%s/%s", dir, rel);
    snprintf(scen_path, sizeof scen_path, "%s.scen", map);
    snprintf(r->name, sizeof r->name, "%.*s", (int)(strlen(rel) - 4), rel);
    nbb_grid g;
    nb_err err;
    if (nbb_map_read(map, legend, 1, &g, &err) != NB_OK) {
        fprintf(stderr, "bench_clearance: %s\n", err.msg);
        exit(1);
    }
    r->w = g.width;
    r->h = g.height;
    size_t n = (size_t)g.width * g.height;
    nb_capability caps[NB_MAX_AGENTS];
    uint32_t sizes[NB_MAX_AGENTS];
    size_t ncaps = nbi_agents_capabilities(sample, caps), nsizes = nbi_agents_sizes(sample, sizes);
    unsigned cap = nbi_agents_max_size(sample);
    uint8_t *dp = calloc(n, 1), *br = calloc(n, 1), *pass = calloc(ncaps ? ncaps * n : 1, 1);
    uint8_t *packed = malloc((size_t)nbi_layer_bytes(n, 32));
    uint32_t *label = malloc(n * sizeof *label), *queue = malloc(n * sizeof *queue);
    uint8_t in_cap[NB_MAX_AGENTS][256];
    for (size_t c = 0; c < ncaps; c++) {
        nbb_terrain_mask(legend, caps[c], in_cap[c]);
        for (size_t i = 0; i < n; i++)
            pass[c * n + i] = in_cap[c][g.cells[i]];
    }

    /* 1. Throughput at the sample's cap and at 16. */
    if (!search_only) {
        throughput(&g, in_cap, pass, ncaps, cap, dp, br, &r->dp_rate, &r->brute_rate);
        throughput(&g, in_cap, pass, ncaps, 16, dp, br, &r->dp16_rate, &r->brute16_rate);
    }

    /* 2. Encodings, averaged over the capabilities (and sizes), checking
     *    the DP against growing on the way. */
    for (size_t c = 0; c < ncaps && !search_only; c++) {
        nbb_clearance_compute(g.cells, g.width, g.height, in_cap[c], cap, dp);
        grow_squares(pass + c * n, g.width, g.height, cap, br);
        if (memcmp(dp, br, n) != 0) {
            fprintf(stderr, "bench_clearance: %s: the DP and square growing disagree\n", rel);
            exit(1);
        }
        size_t plen = (size_t)nbi_layer_bytes(n, nbi_bits_for(cap));
        nbb_layer_pack(g.width, g.height, cap, dp, NULL, packed);
        r->raw += (double)n / (double)n;
        r->gz += (double)gzip9_bytes(dp, n) / (double)n;
        r->packed += (double)plen / (double)n;
        r->zpacked += (double)zlib9_bytes(packed, plen) / (double)n;
        for (size_t s = 0; s < nsizes; s++) {
            uint32_t count = nbb_components_compute(dp, g.width, g.height, sizes[s], label, queue, NULL);
            size_t clen = (size_t)nbi_layer_bytes(n, nbi_bits_for(count));
            nbb_layer_pack(g.width, g.height, count, NULL, label, packed);
            r->comp_packed += (double)clen / (double)n / (double)nsizes;
            r->comp_z += (double)zlib9_bytes(packed, clen) / (double)n / (double)nsizes;
        }
    }
    r->raw /= (double)ncaps;
    r->gz /= (double)ncaps;
    r->packed /= (double)ncaps;
    r->zpacked /= (double)ncaps;
    r->comp_packed /= (double)ncaps;
    r->comp_z /= (double)ncaps;

    /* 3. AA* and plain A* on the scenarios, default agent. */
    static nbi_agentset def;
    nbb_scen scen;
    const char *bpath = tu_path(tu_tmpdir(), "bench.nbk");
    nbb_builder *b;
    nb_bundle *nb = NULL;
    nb_aa *ws = NULL;
    nbi_layer layer;
    if (nbb_agents_default(legend, &def, &err) != NB_OK || nbb_scen_read(scen_path, &scen, &err) ||
        nbb_builder_new(&b, &err) != NB_OK || nbb_put_level(b, legend, &def, &g, 0, &err) ||
        nbb_bake_clearance(b, legend, &def, &g, 0, NULL, &err) ||
        nbb_builder_write(b, bpath, &err) || nb_bundle_open(bpath, 0, NULL, &nb, &err) ||
        nb_aa_open(nb, &ws, &err) ||
        nbi_clearance_layer(nb, def.agent[0].capability, &layer, &err)) {
        fprintf(stderr, "bench_clearance: %s: %s\n", rel, err.msg);
        exit(1);
    }
    nbb_builder_free(b);
    size_t nq = (scen.count + (size_t)every - 1) / (size_t)every;
    double *aa_us = malloc((nq + 1) * sizeof *aa_us), *gh_us = malloc((nq + 1) * sizeof *gh_us);
    double *pl_us = malloc((nq + 1) * sizeof *pl_us), *fl_us = malloc((nq + 1) * sizeof *fl_us);
    struct plain p = {n, malloc(n * sizeof(double)), malloc(n * 4), malloc(n * 4), malloc(n), {0}};
    nbi_heap_init(&p.heap, NULL, n, p.pos);
    uint64_t aa_exp = 0, pl_exp = 0, gh_exp = 0, fl_exp = 0;
    double aa_total = 0, pl_total = 0, gh_total = 0, fl_total = 0;
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.capability = def.agent[0].capability;
    /* PASSES passes over the queries, the four methods taking turns on
     * each; a query's time is its least over the passes (another job's
     * interruption makes a run longer, never shorter), and between two
     * runs of a query all the others ran, so none finds a warm cache. */
    for (size_t k = 0; k < nq; k++)
        aa_us[k] = gh_us[k] = pl_us[k] = fl_us[k] = INFINITY;
    for (int round = 0; round < PASSES; round++)
        for (size_t k = 0; k < nq; k++) {
            const nbb_scen_line *l = &scen.lines[k * (size_t)every];
            double tol = l->decimals < 4 ? pow(10, -(double)l->decimals) : 1e-4, t0, t;
            nb_aa_result res;
            q.start = l->start;
            q.goal = l->goal;
            t0 = now_s();
            nb_aa_find(ws, &q, &res, &err);
            t = (now_s() - t0) * 1e6;
            aa_us[k] = t < aa_us[k] ? t : aa_us[k];
            aa_exp += round ? 0 : res.expanded;
            r->aa_bad += res.status != NB_PATH_FOUND || fabs(res.length - l->optimal) > tol;
            t0 = now_s();
            nbi_aa_run_flat(ws, &layer, 1, NB_CORNER_STRICT, l->start, &l->goal, &res);
            t = (now_s() - t0) * 1e6;
            fl_us[k] = t < fl_us[k] ? t : fl_us[k];
            fl_exp += round ? 0 : res.expanded;
            r->aa_bad += res.status != NB_PATH_FOUND || fabs(res.length - l->optimal) > tol;
            t0 = now_s();
            nbi_aa_run_generic_heap(ws, &layer, 1, NB_CORNER_STRICT, l->start, &l->goal, &res);
            t = (now_s() - t0) * 1e6;
            gh_us[k] = t < gh_us[k] ? t : gh_us[k];
            gh_exp += round ? 0 : res.expanded;
            r->aa_bad += res.status != NB_PATH_FOUND || fabs(res.length - l->optimal) > tol;
            uint64_t e = 0;
            t0 = now_s();
            double len = plain_astar(&p, &layer, 1, l->start, l->goal, &e);
            t = (now_s() - t0) * 1e6;
            pl_us[k] = t < pl_us[k] ? t : pl_us[k];
            pl_exp += round ? 0 : e;
            r->plain_bad += len < 0 || fabs(len - l->optimal) > tol;
        }
    for (size_t k = 0; k < nq; k++) {
        aa_total += aa_us[k];
        gh_total += gh_us[k];
        fl_total += fl_us[k];
        pl_total += pl_us[k];
    }
    qsort(aa_us, nq, sizeof *aa_us, cmp_double);
    qsort(pl_us, nq, sizeof *pl_us, cmp_double);
    r->queries = nq;
    r->aa_mean = aa_total / (double)nq;
    r->pl_mean = pl_total / (double)nq;
    r->aa_median = nq % 2 ? aa_us[nq / 2] : (aa_us[nq / 2 - 1] + aa_us[nq / 2]) / 2;
    r->pl_median = nq % 2 ? pl_us[nq / 2] : (pl_us[nq / 2 - 1] + pl_us[nq / 2]) / 2;
    r->aa_rate = (double)aa_exp / (aa_total / 1e6);
    r->gh_mean = gh_total / (double)nq;
    r->gh_rate = (double)gh_exp / (gh_total / 1e6);
    r->fl_mean = fl_total / (double)nq;
    r->fl_rate = (double)fl_exp / (fl_total / 1e6);
    r->pl_rate = (double)pl_exp / (pl_total / 1e6);
    nbi_heap_free(&p.heap);
    free(p.g);
    free(p.parent);
    free(p.pos);
    free(p.closed);
    free(aa_us);
    free(gh_us);
    free(pl_us);
    free(fl_us);
    nb_aa_close(ws);
    nb_bundle_close(nb);
    nbb_scen_free(&scen);
    free(dp);
    free(br);
    free(pass);
    free(packed);
    free(label);
    free(queue);
    nbb_grid_free(&g);
}

static void machine(void)
{
    char line[256] = "unknown";
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0)
            break;
    if (f)
        fclose(f);
    char *colon = strchr(line, ':');
    char *m = colon ? colon + 2 : line;
    m[strcspn(m, "\n")] = '\0';
    double load[3] = {0, 0, 0};
    f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
        load[0] = -1;
    if (f)
        fclose(f);
    printf("machine: %s, %ld cores; load average %.2f %.2f %.2f\n", m,
           sysconf(_SC_NPROCESSORS_ONLN), load[0], load[1], load[2]);
}

int main(int argc, char **argv)
{
    int every = 5;
    const char *only[64];
    size_t nonly = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--every") == 0 && i + 1 < argc)
            every = atoi(argv[++i]);
        else if (strcmp(argv[i], "--map") == 0 && i + 1 < argc && nonly < 64)
            only[nonly++] = argv[++i];
        else if (strcmp(argv[i], "--search-only") == 0)
            search_only = 1;
        else {
            fprintf(stderr, "usage: bench_clearance [--every K] [--search-only] [--map NAME]...\n");
            return 2;
        }
    }
    if (every < 1)
        every = 1;
    /* 'make bench' runs from the build tree; the maps are beside the source. */
    if (!getenv("NB_SHARED") || !*getenv("NB_SHARED"))
        setenv("NB_SHARED", tu_src("../shared"), 1);
    const char *maps = tu_shared("maps");
    if (!maps) {
        printf("bench_clearance: ../shared/maps absent (set NB_SHARED): nothing to measure\n");
        return 0;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", maps);
    nbi_legend legend;
    static nbi_agentset sample;
    nb_err err;
    nbi_legend_default(&legend);
    if (nbb_agents_read(tu_src("data/sample-agents.yaml"), &legend, &sample, &err) != NB_OK) {
        fprintf(stderr, "bench_clearance: %s\n", err.msg);
        return 1;
    }
    char **names;
    size_t nmaps = list_maps(dir, &names);
    struct row *rows = calloc(nmaps, sizeof *rows);
    size_t nr = 0;
    machine();
    for (size_t i = 0; i < nmaps; i++) {
        int take = nonly == 0;
        for (size_t k = 0; k < nonly; k++)
            take |= strstr(names[i], only[k]) != NULL;
        if (!take)
            continue;
        fprintf(stderr, "bench_clearance: %s\n", names[i]);
        bench_map(dir, names[i], every, &legend, &sample, &rows[nr++]);
    }
    if (search_only)
        goto search;
    printf("\nClearance build: million cells x capabilities per second, the 4 capabilities of "
           "data/sample-agents.yaml, capped at its largest size (3) and at 16\n\n");
    printf("| map | cells | DP, cap 3 | growing, cap 3 | ratio | DP, cap 16 | growing, cap 16 | "
           "ratio |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < nr; i++)
        printf("| %s | %u x %u | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", rows[i].name,
               rows[i].w, rows[i].h, rows[i].dp_rate / 1e6, rows[i].brute_rate / 1e6,
               rows[i].dp_rate / rows[i].brute_rate, rows[i].dp16_rate / 1e6,
               rows[i].brute16_rate / 1e6, rows[i].dp16_rate / rows[i].brute16_rate);
    printf("\nBytes per cell, mean over the 4 clearance layers (cap 3) and the 12 component "
           "layers\n\n");
    printf("| map | clearance raw byte | gzip -9 of it | packed | zlib+packed | components "
           "packed | components zlib+packed |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < nr; i++)
        printf("| %s | %.3f | %.4f | %.4f | %.4f | %.4f | %.4f |\n", rows[i].name, rows[i].raw,
               rows[i].gz, rows[i].packed, rows[i].zpacked, rows[i].comp_packed, rows[i].comp_z);
search:
    printf("\nAA* and plain A* on every %d%s scenario line, size 1, {ground, swamp}, strict "
           "corners (us per query; million expansions per second)\n\n",
           every,
           every == 1   ? ""
           : every == 2 ? "nd"
           : every == 3 ? "rd"
                        : "th");
    printf("| map | queries | AA* mean | AA* median | AA* Mexp/s | AA* on per-cell arrays Mexp/s | "
           "pages / per-cell arrays | per-cell arrays on lib/runtime/core/heap.h Mexp/s | "
           "plain mean | plain median | plain Mexp/s | AA* / plain (mean time) | lengths off "
           "|\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    double sa = 0, sg = 0, sp = 0, sf = 0, worst = INFINITY;
    for (size_t i = 0; i < nr; i++) {
        printf("| %s | %zu | %.1f | %.1f | %.2f | %.2f | %.3f | %.2f | %.1f | %.1f | %.2f | %.2f | "
               "%zu |\n",
               rows[i].name, rows[i].queries, rows[i].aa_mean, rows[i].aa_median,
               rows[i].aa_rate / 1e6, rows[i].fl_rate / 1e6, rows[i].aa_rate / rows[i].fl_rate,
               rows[i].gh_rate / 1e6, rows[i].pl_mean, rows[i].pl_median,
               rows[i].pl_rate / 1e6, rows[i].pl_mean / rows[i].aa_mean,
               rows[i].aa_bad + rows[i].plain_bad);
        sa += log(rows[i].aa_rate);
        sg += log(rows[i].gh_rate);
        sp += log(rows[i].pl_rate);
        sf += log(rows[i].fl_rate);
        if (rows[i].aa_rate / rows[i].fl_rate < worst)
            worst = rows[i].aa_rate / rows[i].fl_rate;
    }
    if (nr)
        printf("\nGeometric mean over the maps, million expansions per second: AA* %.2f; the same "
               "AA* on per-cell arrays the size of the map %.2f (pages %.3f x, least %.3f x); on "
               "those arrays with lib/runtime/core/heap.h %.2f (specialised heap %.2f x); plain A* "
               "%.2f (AA* %.2f x).\n",
               exp(sa / (double)nr) / 1e6, exp(sf / (double)nr) / 1e6, exp((sa - sf) / (double)nr),
               worst, exp(sg / (double)nr) / 1e6, exp((sf - sg) / (double)nr),
               exp(sp / (double)nr) / 1e6, exp((sa - sp) / (double)nr));
    machine();
    int bad = 0;
    for (size_t i = 0; i < nr; i++)
        bad |= rows[i].aa_bad || rows[i].plain_bad;
    for (size_t i = 0; i < nmaps; i++)
        free(names[i]);
    free(names);
    free(rows);
    return bad;
}
