/* testutil.c: see testutil.h. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abstract/abstract.h" /* (with clearance.h) */
#include "subgoal/subgoal_build.h"
#include "testutil.h"
#include "brute.h"

static char tmpdir[256];

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

static void cleanup(void)
{
    if (tmpdir[0] && !getenv("NB_KEEP_TMP"))
        nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

const char *tu_tmpdir(void)
{
    if (!tmpdir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(tmpdir, sizeof tmpdir, "%s/nbtest-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(tmpdir)) {
            perror("mkdtemp");
            exit(99);
        }
        atexit(cleanup);
    }
    return tmpdir;
}

const char *tu_path(const char *dir, const char *name)
{
    static char buf[8][1024];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

const char *tu_src(const char *rel)
{
    const char *top = getenv("top_srcdir");
    return tu_path(top && *top ? top : ".", rel);
}

const char *tu_shared(const char *rel)
{
    const char *sh = getenv("NB_SHARED");
    if (!sh || !*sh)
        return NULL;
    const char *p = tu_path(sh, rel);
    return access(p, R_OK) == 0 ? p : NULL;
}

int tu_write(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = fwrite(data, 1, len, f);
    return fclose(f) == 0 && n == len ? 0 : -1;
}

char *tu_read(const char *path, size_t *len)
{
    char *buf;
    size_t n;
    if (nbb_read_file(path, (size_t)1 << 31, &buf, &n, NULL) != NB_OK)
        return NULL;
    if (len)
        *len = n;
    return buf;
}

int tu_system(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    fflush(stdout);
    int st = system(cmd);
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

uint64_t tu_rand(tu_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 2685821657736338717ULL;
}

uint32_t tu_below(tu_rng *r, uint32_t n) { return (uint32_t)((tu_rand(r) >> 32) % n); }

double tu_load_latency_ns(size_t bytes)
{
    size_t n = bytes / sizeof(uint32_t);
    uint32_t *a = n >= 2 && n <= UINT32_MAX ? malloc(n * sizeof *a) : NULL;
    if (!a)
        return -1;
    /* Sattolo's shuffle: one cycle through every slot, so no walk is cut short. */
    tu_rng r = {0x1a7e5c1u};
    for (size_t i = 0; i < n; i++)
        a[i] = (uint32_t)i;
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(tu_rand(&r) % i);
        uint32_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
    const long steps = 4000000;
    struct timespec t0, t1;
    volatile uint32_t sink;
    uint32_t at = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long k = 0; k < steps; k++)
        at = a[at];
    clock_gettime(CLOCK_MONOTONIC, &t1);
    sink = at;
    (void)sink;
    free(a);
    return ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / steps;
}

void tu_random_grid(tu_rng *r, uint32_t w, uint32_t h, unsigned obstacle_pct, unsigned nterrains,
                    nbb_grid *grid)
{
    static const char terrain_char[] = ".SWT";
    grid->width = w;
    grid->height = h;
    grid->cells = malloc((size_t)w * h);
    for (size_t i = 0; i < (size_t)w * h; i++)
        grid->cells[i] = tu_below(r, 100) < obstacle_pct ? '@'
                                                         : (uint8_t)terrain_char[tu_below(r, nterrains)];
}

static nb_status write_level(const char *path, const nbi_legend *legend, const nbi_agentset *agents,
                             const nbb_grid *grid, int compress, int clearance, nb_err *err)
{
    nbb_builder *b;
    nb_status st = nbb_builder_new(&b, err);
    if (st != NB_OK)
        return st;
    st = nbb_put_level(b, legend, agents, grid, compress, err);
    if (st == NB_OK && clearance)
        st = nbb_bake_clearance(b, legend, agents, grid, compress, NULL, err);
    if (st == NB_OK)
        st = nbb_builder_write(b, path, err);
    nbb_builder_free(b);
    return st;
}

nb_status tu_write_level(const char *path, const nbi_legend *legend, const nbi_agentset *agents,
                         const nbb_grid *grid, int compress, nb_err *err)
{
    return write_level(path, legend, agents, grid, compress, 0, err);
}

nb_status tu_write_cleared(const char *path, const nbi_legend *legend, const nbi_agentset *agents,
                           const nbb_grid *grid, int compress, nb_err *err)
{
    return write_level(path, legend, agents, grid, compress, 1, err);
}

void tu_swamp_agents(nbi_agentset *agents, const double *swamp, size_t n)
{
    memset(agents, 0, sizeof *agents);
    for (size_t k = 0; k < n; k++) {
        nb_agent *a = &agents->agent[agents->count++];
        snprintf(a->name, sizeof a->name, "swamp%g", swamp[k]);
        a->capability = 3; /* ground, swamp */
        a->size = 1;
        for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
            a->cost[t] = 1;
        a->cost[1] = swamp[k];
        a->weighted = swamp[k] != 1;
    }
}

nb_status tu_scen_level(const char *rel, const nbi_legend *legend, nbb_grid *g, nbb_scen *scen,
                        nb_err *err)
{
    const char *mapfile = tu_shared(rel);
    if (!mapfile)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: ../shared is not there", rel);
    char scenfile[1024];
    snprintf(scenfile, sizeof scenfile, "%s.scen", mapfile);
    nb_status st = nbb_map_read(mapfile, legend, 1, g, err);
    if (st == NB_OK && (st = nbb_scen_read(scenfile, scen, err)) != NB_OK)
        nbb_grid_free(g);
    return st;
}

nb_status tu_add_abstract(nb_bundle **b, const char *path, unsigned cluster, nb_err *err)
{
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    o.cluster = cluster;
    return tu_add_abstract_opts(b, path, &o, err);
}

nb_status tu_add_abstract_opts(nb_bundle **b, const char *path, const nbb_abstract_opts *o,
                               nb_err *err)
{
    uint8_t *payload = NULL;
    size_t n;
    nbb_builder *w = NULL;
    nb_section_info info;
    nb_status st = nbb_abstract_build(*b, o, &payload, &n, NULL, err);
    if (st == NB_OK)
        st = nbb_builder_new(&w, err);
    if (st == NB_OK) {
        nbb_abstract_info(payload, &info);
        st = nbb_builder_take(w, *b, err);
    }
    if (st == NB_OK)
        st = nbb_builder_add(w, &info, payload, n, 0, err);
    if (st == NB_OK)
        st = nbb_put_abstract_costs(w, *b, payload, n, 0, NULL, err);
    if (st == NB_OK)
        st = nbb_builder_write(w, path, err);
    nbb_builder_free(w);
    free(payload);
    nb_bundle_close(*b);
    *b = NULL;
    return st == NB_OK ? nb_bundle_open(path, 0, NULL, b, err) : st;
}

void tu_tile_grid(const nbb_grid *tile, uint32_t side, int mirror, nbb_grid *out)
{
    out->width = out->height = side;
    out->cells = malloc((size_t)side * side);
    if (!out->cells) {
        printf("Bail out! no memory for a %u x %u level\n", side, side);
        exit(1);
    }
    for (size_t y = 0; y < side; y++) {
        size_t ty = y % tile->height;
        if (mirror && (y / tile->height) % 2)
            ty = tile->height - 1 - ty;
        for (size_t x = 0; x < side; x++) {
            size_t tx = x % tile->width;
            if (mirror && (x / tile->width) % 2)
                tx = tile->width - 1 - tx;
            out->cells[y * side + x] = tile->cells[ty * tile->width + tx];
        }
    }
}

int tu_tiled_shared(const char *rel, uint32_t side, int mirror, nbb_grid *out)
{
    const char *src = tu_shared(rel);
    nbi_legend legend;
    nbb_grid tile;
    nb_err err;
    if (!src)
        return 0;
    nbi_legend_default(&legend);
    if (nbb_map_read(src, &legend, 1, &tile, &err) != NB_OK) {
        printf("Bail out! %s\n", err.msg);
        exit(1);
    }
    tu_tile_grid(&tile, side, mirror, out);
    nbb_grid_free(&tile);
    return 1;
}

void tu_rock_legend(uint8_t *out)
{
    memset(out, 0, TU_ROCK_LEGEND_SIZE);
    out[0] = 1;
    memcpy(out + 8, "rock", 4);
    memset(out + 40, 0xfe, 256);
    out[40 + '.'] = 0;
    out[40 + '#'] = 0xff;
}

void tu_read_sample(nbi_legend *legend, nbi_agentset *agents, nbb_grid *grid)
{
    nb_err err;
    nbi_legend_default(legend);
    if (nbb_map_read(tu_src("data/sample.map"), legend, 1, grid, &err) != NB_OK ||
        nbb_agents_read(tu_src("data/sample-agents.yaml"), legend, agents, &err) != NB_OK) {
        printf("Bail out! %s\n", err.msg);
        exit(1);
    }
}

uint8_t *tu_section_take(const char *path, uint32_t type, size_t *len, nb_section_info *info)
{
    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK)
        return NULL;
    long i = nbi_section_index(b, type, NULL, NULL, 0);
    const void *p;
    uint8_t *copy = NULL;
    if (i >= 0 && nb_bundle_payload(b, (size_t)i, &p, len, &err) == NB_OK && (copy = malloc(*len)))
        memcpy(copy, p, *len);
    if (copy)
        *info = *nb_bundle_section_get(b, (size_t)i);
    nb_bundle_close(b);
    return copy;
}

int tu_section_put(const char *path, const char *out, const nb_section_info *info,
                   const uint8_t *payload, size_t len)
{
    nbb_builder *w;
    nb_err err;
    nb_section_info in = *info;
    in.encoding = (uint16_t)NB_ENC_LAYOUT(in.encoding);
    int ok = nbb_builder_new(&w, &err) == NB_OK && nbb_builder_load(w, path, 0, &err) == NB_OK &&
             nbb_builder_add(w, &in, payload, len, 0, &err) == NB_OK &&
             nbb_builder_write(w, out, &err) == NB_OK;
    if (!ok)
        diag("cannot write %s: %s", out, err.msg);
    nbb_builder_free(w);
    return ok;
}

int tu_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

void tu_check_failed_write(const char *dir, const char *name, const nbi_legend *legend,
                           const nbi_agentset *agents, const nbb_grid *grid)
{
    const char *p = tu_path(dir, name);
    nb_err err;
    tu_system("mkdir -p '%s'", dir);
    tu_write_level(p, legend, agents, grid, 0, &err);
    size_t before_len = 0, after_len = 0;
    char *before = tu_read(p, &before_len);
    nbb_grid big;
    tu_rng r = {42};
    tu_random_grid(&r, 1000, 1000, 20, 4, &big);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit rl = {(rlim_t)before_len + 100000, (rlim_t)before_len + 100000};
        signal(SIGXFSZ, SIG_IGN);
        setrlimit(RLIMIT_FSIZE, &rl);
        nb_status st = tu_write_level(p, legend, agents, &big, 0, &err);
        int good = st == NB_ERR_IO && strstr(err.msg, "write error");
        if (!good)
            printf("# got %s: %s\n", nb_status_str(st), err.msg);
        fflush(stdout);
        _exit(good ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
       "%s: a write that runs out of room fails with a write error", name);
    char *after = tu_read(p, &after_len);
    ok(after && after_len == before_len && memcmp(before, after, before_len) == 0,
       "%s: the previous file is intact", name);
    is_int(tu_count_entries(dir), 1, "%s: and no temporary file is left beside it", name);
    free(before);
    free(after);
    nbb_grid_free(&big);
}

nb_status tu_add_levels(nb_bundle **b, const char *path, const nbb_levels_opts *o, nb_err *err)
{
    const void *graph;
    size_t glen;
    nbb_builder *w = NULL;
    long gi = nbi_section_index(*b, NB_SEC_ABSTRACT, NULL, NULL, 0);
    nb_status st = gi < 0 ? nbi_fail(err, NB_ERR_NOTFOUND, "no abstract graph")
                          : nb_bundle_payload(*b, (size_t)gi, &graph, &glen, err);
    if (st == NB_OK)
        st = nbb_builder_new(&w, err);
    if (st == NB_OK)
        st = nbb_builder_take(w, *b, err);
    if (st == NB_OK)
        st = nbb_levels_put(w, graph, glen, nb_map_width(*b), nb_map_height(*b), o, 0, err);
    if (st == NB_OK)
        st = nbb_builder_write(w, path, err);
    nbb_builder_free(w);
    nb_bundle_close(*b);
    *b = NULL;
    return st == NB_OK ? nb_bundle_open(path, 0, NULL, b, err) : st;
}

nb_status tu_bake_optimal(const char *path, const nbi_legend *legend, const nbi_agentset *agents,
                          const nbb_grid *grid, unsigned corners, nb_err *err)
{
    nbb_builder *b;
    nb_status st = nbb_builder_new(&b, err);
    if (st != NB_OK)
        return st;
    st = nbb_put_level(b, legend, agents, grid, 0, err);
    if (st == NB_OK)
        st = nbb_bake_clearance(b, legend, agents, grid, 0, NULL, err);
    if (st == NB_OK)
        st = nbb_bake_subgoal(b, legend, agents, grid, corners, 0, NULL, err);
    if (st == NB_OK)
        st = nbb_builder_write(b, path, err);
    nbb_builder_free(b);
    return st;
}

int tu_same_cells(const nb_cell *a, size_t na, const nb_cell *b, size_t nb)
{
    if (na != nb)
        return 0;
    for (size_t i = 0; i < na; i++)
        if (a[i].x != b[i].x || a[i].y != b[i].y)
            return 0;
    return 1;
}

void tu_wall(nb_overlay *ov, nbb_grid *e, long x, long y, long w, long h)
{
    long x1 = x + w, y1 = y + h;
    x = x < 0 ? 0 : x;
    y = y < 0 ? 0 : y;
    x1 = x1 > (long)e->width ? (long)e->width : x1;
    y1 = y1 > (long)e->height ? (long)e->height : y1;
    if (x >= x1 || y >= y1)
        return;
    nb_overlay_block(ov, x, y, x1 - x, y1 - y, NULL);
    for (long j = y; j < y1; j++)
        for (long i = x; i < x1; i++)
            e->cells[(size_t)j * e->width + (size_t)i] = '@';
}

void tu_wall_in(nb_overlay *ov, nbb_grid *e, tu_rng *r, long gx, long gy, unsigned extra)
{
    long d = 1 + (long)tu_below(r, 6), k = 1 + (long)tu_below(r, 2);
    tu_wall(ov, e, gx - d - k + 1, gy - d - k + 1, 2 * (d + k) - 1, k); /* above */
    tu_wall(ov, e, gx - d - k + 1, gy + d, 2 * (d + k) - 1, k);         /* below */
    tu_wall(ov, e, gx - d - k + 1, gy - d + 1, k, 2 * d - 1);           /* left */
    tu_wall(ov, e, gx + d, gy - d + 1, k, 2 * d - 1);                   /* right */
    for (unsigned i = extra ? tu_below(r, extra) : 0; i > 0; i--)
        tu_wall(ov, e, (long)tu_below(r, e->width), (long)tu_below(r, e->height),
                1 + (long)tu_below(r, 20), 1 + (long)tu_below(r, 20));
}

int tu_walled_goal(nb_overlay *ov, nbb_grid *e, const nbb_grid *g, const nbi_legend *legend,
                   tu_rng *r, const nb_sg_query *q, unsigned extra, nb_cell *want)
{
    nb_overlay_clear(ov);
    memcpy(e->cells, g->cells, (size_t)g->width * g->height);
    tu_wall_in(ov, e, r, q->goal.x, q->goal.y, extra);
    if (!brute_can_stand(legend, e, q->capability, q->size, q->start.x, q->start.y))
        return 0;
    long x, y;
    brute_nearest_reachable(legend, e, q->capability, q->size,
                            q->corner == NB_CORNER_WEAK ? BRUTE_WEAK : BRUTE_STRICT, q->start.x,
                            q->start.y, q->goal.x, q->goal.y, &x, &y);
    *want = (nb_cell){(int32_t)x, (int32_t)y};
    return 1;
}
