/* test_bake_lib.c: the bake as a library (navbake_bake.h).  A grid of
 * terrain ids bakes to the bytes of the same level given as a map's text
 * and as the files mkclear reads (three readers, one bundle); the runtime
 * reads every cell's terrain back as the id given and its standable cells
 * as brute force finds them; two threads bake at once the bytes each
 * bakes alone; a cancelled bake hands out nothing and writes no file,
 * leaving the one there as it was; the allocator serves the handle and the
 * image and gets everything back, and a failing one is NB_ERR_NOMEM;
 * errors name the cell, the line or the option; the ABI guard refuses a
 * struct of another size.  (tests/cli/bake-lib.sh compares the library's
 * bytes with mkclear's and mkabstract's, and compiles the header as C++.) */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bake_int.h"
#include "brute.h"
#include "countalloc.h"
#include "navbake_bake.h"
#include "tap.h"
#include "testutil.h"

/* A random grid of ids over the default legend's terrains (ground,
 * swamp, water, trees) and obstacles. */
static uint8_t *random_ids(tu_rng *r, uint32_t w, uint32_t h, unsigned obstacle_pct)
{
    uint8_t *ids = malloc((size_t)w * h);
    for (size_t i = 0; i < (size_t)w * h; i++)
        ids[i] = tu_below(r, 100) < obstacle_pct ? NB_BAKE_OBSTACLE : (uint8_t)tu_below(r, 4);
    return ids;
}

/* The same grid as a MovingAI map in the default legend's characters
 * (ground '.', swamp 'S', water 'W', trees 'T', obstacle '@'), written
 * here from the ids alone. */
static char *map_text(const uint8_t *ids, uint32_t w, uint32_t h, size_t *len)
{
    static const char ch[4] = {'.', 'S', 'W', 'T'};
    char *t = malloc(64 + ((size_t)w + 1) * h);
    size_t at = (size_t)sprintf(t, "type octile\nheight %u\nwidth %u\nmap\n", h, w);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint8_t id = ids[(size_t)y * w + x];
            t[at++] = id == NB_BAKE_OBSTACLE ? '@' : ch[id];
        }
        t[at++] = '\n';
    }
    *len = at;
    return t;
}

static int same_bytes(const void *a, size_t la, const void *b, size_t lb)
{
    return la == lb && memcmp(a, b, la) == 0;
}

static void bake_grid_and_text(void)
{
    tu_rng r = {42};
    const uint32_t w = 70, h = 45;
    uint8_t *ids = random_ids(&r, w, h, 25);
    size_t tlen;
    char *text = map_text(ids, w, h, &tlen);
    char *agents = tu_read(tu_src("data/sample-agents.yaml"), NULL);
    nb_bake *bk;
    nb_err err;
    void *a = NULL, *b = NULL, *c = NULL;
    size_t la = 0, lb = 0, lc = 0;
    ok(nb_bake_open(NULL, &bk, &err) == NB_OK, "a handle opens");
    is_int(nb_bake_terrain_count(bk), 4, "the default legend has 4 terrains");
    unsigned id = 99;
    ok(nb_bake_terrain_lookup(bk, "water", &id, &err) == NB_OK && id == 2, "water is id 2");
    ok(nb_bake_terrain_lookup(bk, "lava", &id, &err) == NB_ERR_NOTFOUND &&
           strstr(err.msg, "'lava'") && strstr(err.msg, "ground, swamp, water, trees"),
       "an unknown terrain is refused, naming those there are: %s", err.msg);
    ok(nb_bake_set_agents(bk, agents, strlen(agents), "sample-agents.yaml", &err) == NB_OK,
       "the sample's agents from their text");
    ok(nb_bake_set_grid(bk, w, h, ids, &err) == NB_OK, "a grid of ids");
    nb_bake_options o;
    ok(nb_bake_options_init(&o) == NB_OK, "options init");
    o.flags |= NB_BAKE_OPTIMAL;
    ok(nb_bake_memory(bk, &o, &a, &la, &err) == NB_OK, "baked from ids: %s", err.msg);
    ok(nb_bake_set_map(bk, text, tlen, "grid.map", &err) == NB_OK, "the same grid as a map's text");
    ok(nb_bake_memory(bk, &o, &b, &lb, &err) == NB_OK, "baked from text: %s", err.msg);
    ok(same_bytes(a, la, b, lb), "ids and text give the same bytes (%zu)", la);
    /* The files mkclear reads. */
    const char *mp = tu_path(tu_tmpdir(), "grid.map");
    tu_write(mp, text, tlen);
    ok(nb_bake_read_level(bk, NULL, tu_src("data/sample-agents.yaml"), mp, &err) == NB_OK,
       "the level from its files");
    ok(nb_bake_memory(bk, &o, &c, &lc, &err) == NB_OK, "baked from files: %s", err.msg);
    ok(same_bytes(a, la, c, lc), "files give the same bytes");

    /* What the runtime reads of it, against the ids and brute force. */
    nb_bundle *bun;
    ok(nb_bundle_open_memory(a, la, NB_OPEN_VERIFY, NULL, &bun, &err) == NB_OK,
       "the image opens and verifies: %s", err.msg);
    int terrain_ok = 1, stand_ok = 1;
    nbi_legend legend;
    nbi_legend_default(&legend);
    nbb_grid g = {w, h, (uint8_t *)text + (tlen - ((size_t)w + 1) * h)};
    uint8_t *rows = malloc((size_t)w * h);
    for (uint32_t y = 0; y < h; y++)
        memcpy(rows + (size_t)y * w, g.cells + (size_t)y * (w + 1), w);
    g.cells = rows;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t want = ids[(size_t)y * w + x];
            int got = nb_map_terrain(bun, x, y);
            terrain_ok &= want == NB_BAKE_OBSTACLE ? got == NB_OBSTACLE : got == want;
            for (size_t k = 0; k < nb_agent_count(bun); k++) {
                const nb_agent *ag = nb_agent_get(bun, k);
                stand_ok &= !nb_can_stand(bun, ag->capability, ag->size, x, y) ==
                            !brute_can_stand(&legend, &g, ag->capability, ag->size, x, y);
            }
        }
    ok(terrain_ok, "every cell's terrain reads back as its id");
    ok(stand_ok, "every agent stands where brute force says it can");
    size_t idx;
    ok(nb_bundle_section_lookup(bun, NB_SEC_ABSTRACT, NULL, NULL, 0, &idx, NULL) == NB_OK &&
           nb_bundle_section_lookup(bun, NB_SEC_SUBGOAL, NULL, NULL, 0, &idx, NULL) == NB_OK,
       "the abstract graph and the optimal layers are baked");
    nb_bundle_close(bun);
    free(rows);

    /* Without the abstract flag there is no graph; zlib stores sections compressed. */
    o.flags = NB_BAKE_ZLIB;
    void *d = NULL;
    size_t ld = 0;
    ok(nb_bake_memory(bk, &o, &d, &ld, &err) == NB_OK &&
           nb_bundle_open_memory(d, ld, NB_OPEN_VERIFY, NULL, &bun, &err) == NB_OK,
       "baked with zlib alone");
    int zlib = 0;
    for (size_t i = 0; i < nb_bundle_section_count(bun); i++)
        zlib |= NB_ENC_COMPRESSION(nb_bundle_section_get(bun, i)->encoding) == NB_ENC_ZLIB;
    ok(zlib && nb_bundle_section_lookup(bun, NB_SEC_ABSTRACT, NULL, NULL, 0, &idx, NULL) ==
                   NB_ERR_NOTFOUND,
       "its layers are zlib streams and it has no graph");
    nb_bundle_close(bun);
    nb_bake_free(bk, d);
    nb_bake_free(bk, a);
    nb_bake_free(bk, b);
    nb_bake_free(bk, c);
    nb_bake_close(bk);
    free(agents);
    free(text);
    free(ids);
}

/* ---- two bakes at once ---- */

typedef struct job {
    uint8_t *ids;
    uint32_t w, h, threads;
    void *data;
    size_t len;
    nb_status st;
} job;

static nb_status bake_ids(job *j)
{
    nb_bake *bk;
    nb_err err;
    nb_bake_options o;
    nb_bake_options_init(&o);
    o.threads = j->threads;
    nb_status st = nb_bake_open(NULL, &bk, &err);
    if (st == NB_OK)
        st = nb_bake_set_grid(bk, j->w, j->h, j->ids, &err);
    if (st == NB_OK)
        st = nb_bake_memory(bk, &o, &j->data, &j->len, &err);
    if (st != NB_OK)
        diag("bake: %s", err.msg);
    /* The image is the C library's: kept after the handle closes. */
    nb_bake_close(bk);
    return st;
}

static void *run_job(void *arg)
{
    job *j = arg;
    j->st = bake_ids(j);
    return NULL;
}

static void two_threads(void)
{
    tu_rng r = {7};
    job alone[2] = {{random_ids(&r, 160, 120, 30), 160, 120, 1, NULL, 0, NB_OK},
                    {random_ids(&r, 130, 150, 15), 130, 150, 2, NULL, 0, NB_OK}};
    for (int i = 0; i < 2; i++)
        ok(bake_ids(&alone[i]) == NB_OK, "level %d baked alone", i);
    int same = 1, rounds = 4;
    for (int k = 0; k < rounds; k++) {
        job at[2] = {alone[0], alone[1]};
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            pthread_create(&t[i], NULL, run_job, &at[i]);
        for (int i = 0; i < 2; i++) {
            pthread_join(t[i], NULL);
            same &= at[i].st == NB_OK &&
                    same_bytes(at[i].data, at[i].len, alone[i].data, alone[i].len);
            free(at[i].data);
        }
    }
    ok(same, "two bakes at once on two threads (one of them on two more), %d times: each "
             "gives the bytes it gives alone",
       rounds);
    for (int i = 0; i < 2; i++) {
        free(alone[i].data);
        free(alone[i].ids);
    }
}

/* ---- cancelling ---- */

typedef struct ticks {
    int calls, cancel_at; /* cancels on call number cancel_at (from 1); 0: never */
    double last;
    int backwards, after;
} ticks;

static int tick(void *arg, double f)
{
    ticks *t = arg;
    t->calls++;
    if (t->cancel_at && t->calls > t->cancel_at)
        t->after = 1; /* called again after cancelling */
    if (f < t->last || f < 0 || f > 1)
        t->backwards = 1;
    t->last = f;
    return t->cancel_at && t->calls >= t->cancel_at;
}

static void cancelling(void)
{
    tu_rng r = {3};
    uint8_t *ids = random_ids(&r, 200, 200, 20);
    nb_bake *bk;
    nb_err err;
    nb_bake_open(NULL, &bk, &err);
    nb_bake_set_grid(bk, 200, 200, ids, &err);
    nb_bake_options o;
    nb_bake_options_init(&o);
    o.flags |= NB_BAKE_OPTIMAL;
    o.progress = tick;
    ticks all = {0, 0, 0, 0, 0};
    o.progress_arg = &all;
    void *data;
    size_t len;
    ok(nb_bake_memory(bk, &o, &data, &len, &err) == NB_OK, "a bake told of its progress");
    ok(all.calls >= 4 && !all.backwards && all.last == 1.0,
       "progress goes from 0 to 1 and never back (%d calls)", all.calls);
    nb_bake_free(bk, data);

    const char *dir = tu_path(tu_tmpdir(), "cancel");
    tu_system("mkdir -p '%s'", dir);
    char path[4096];
    snprintf(path, sizeof path, "%s/level.nbb", dir);
    int nothing = 1, quiet = 1, named = 1, no_file = 1;
    for (int at = 1; at <= all.calls - 1; at++) {
        ticks t = {0, at, 0, 0, 0};
        o.progress_arg = &t;
        data = (void *)1;
        len = 1;
        nb_status st = nb_bake_memory(bk, &o, &data, &len, &err);
        nothing &= st == NB_ERR_CANCELLED && data == NULL && len == 0;
        named &= strstr(err.msg, "cancelled") != NULL;
        quiet &= !t.after;
        t.calls = 0;
        t.after = 0;
        no_file &= nb_bake_write(bk, &o, path, &err) == NB_ERR_CANCELLED &&
                   tu_count_entries(dir) == 0;
    }
    ok(nothing, "cancelled at each of its %d reports, a bake hands out nothing", all.calls - 1);
    ok(named, "and says it was cancelled: %s", err.msg);
    ok(quiet, "the callback is not called after it cancels");
    ok(no_file, "a cancelled write leaves no file, not even a temporary one");
    /* A file there already stays as it was. */
    o.progress = NULL;
    ok(nb_bake_write(bk, &o, path, &err) == NB_OK, "written whole: %s", err.msg);
    size_t l0;
    char *before = tu_read(path, &l0);
    uint8_t *other = random_ids(&r, 200, 200, 40);
    nb_bake_set_grid(bk, 200, 200, other, &err);
    ticks t = {0, 2, 0, 0, 0};
    o.progress = tick;
    o.progress_arg = &t;
    size_t l1;
    ok(nb_bake_write(bk, &o, path, &err) == NB_ERR_CANCELLED, "another level's write cancelled");
    char *after = tu_read(path, &l1);
    ok(same_bytes(before, l0, after, l1) && tu_count_entries(dir) == 1,
       "the file there is as it was, and alone");
    free(before);
    free(after);
    free(other);
    free(ids);
    nb_bake_close(bk);
}

/* ---- the allocator ---- */

static int fail_after; /* allocations allowed before failing; -1: never */

static void *fail_alloc(void *opaque, size_t n)
{
    (void)opaque;
    if (fail_after == 0)
        return NULL;
    fail_after -= fail_after > 0;
    return malloc(n);
}

static void *fail_realloc(void *opaque, void *p, size_t n)
{
    (void)opaque;
    return realloc(p, n);
}

static void fail_free(void *opaque, void *p)
{
    (void)opaque;
    free(p);
}

static void allocator(void)
{
    tc_count c;
    nb_allocator a;
    tc_init(&c, &a);
    tu_rng r = {5};
    uint8_t *ids = random_ids(&r, 64, 64, 20);
    nb_bake *bk;
    nb_err err;
    void *data;
    size_t len;
    ok(nb_bake_open(&a, &bk, &err) == NB_OK && c.live > 0, "the handle from the allocator");
    size_t handle = c.live;
    ok(nb_bake_set_grid(bk, 64, 64, ids, &err) == NB_OK &&
           nb_bake_memory(bk, NULL, &data, &len, &err) == NB_OK,
       "baked with the defaults");
    ok(c.live == handle + len, "the image (%zu bytes) from the allocator too", len);
    nb_bake_free(bk, data);
    nb_bake_close(bk);
    is_int(c.live, 0, "everything given back");

    nb_allocator f = {fail_alloc, fail_realloc, fail_free, NULL};
    fail_after = 0;
    bk = (nb_bake *)1;
    ok(nb_bake_open(&f, &bk, &err) == NB_ERR_NOMEM && bk == NULL, "no memory for the handle");
    fail_after = 1;
    ok(nb_bake_open(&f, &bk, &err) == NB_OK && nb_bake_set_grid(bk, 64, 64, ids, &err) == NB_OK,
       "a handle with nothing more to give");
    data = (void *)1;
    ok(nb_bake_memory(bk, NULL, &data, &len, &err) == NB_ERR_NOMEM && data == NULL &&
           strstr(err.msg, "no memory for a bundle"),
       "no memory for the image: %s", err.msg);
    nb_bake_close(bk);
    free(ids);
}

/* ---- errors ---- */

static void errors(void)
{
    nb_bake *bk;
    nb_err err;
    void *data;
    size_t len;
    nb_bake_open(NULL, &bk, &err);
    ok(nb_bake_memory(bk, NULL, &data, &len, &err) == NB_ERR_ARG && strstr(err.msg, "no level"),
       "no grid: %s", err.msg);
    uint8_t ids[6] = {0, 1, 2, 3, NB_BAKE_OBSTACLE, 7};
    ok(nb_bake_set_grid(bk, 3, 2, ids, &err) == NB_ERR_ARG && strstr(err.msg, "(2, 1)") &&
           strstr(err.msg, "id 7"),
       "an id beyond the legend names its cell: %s", err.msg);
    ok(nb_bake_set_grid(bk, 0, 2, ids, &err) == NB_ERR_ARG, "a side of 0");
    ok(nb_bake_set_grid(bk, NB_MAP_MAX_SIDE + 1, 1, ids, &err) == NB_ERR_LIMIT,
       "a side beyond NB_MAP_MAX_SIDE: %s", err.msg);
    const char *bad = "terrains:\n  - name: ground\n    chars: [\".\"\n";
    ok(nb_bake_set_legend(bk, bad, strlen(bad), "my-legend", &err) == NB_ERR_SYNTAX &&
           strstr(err.msg, "my-legend:"),
       "a legend that does not parse names itself and where: %s", err.msg);
    const char *agents = "agents:\n  - name: crab\n    size: 1\n    capability: [sand]\n";
    ok(nb_bake_set_agents(bk, agents, strlen(agents), NULL, &err) != NB_OK &&
           strstr(err.msg, "sand"),
       "an agent of a terrain the legend lacks: %s", err.msg);
    /* A legend of one terrain with no obstacle character: the obstacle claims '@'. */
    const char *one = "terrains:\n  - name: floor\n    chars: \".\"\n";
    ok(nb_bake_set_legend(bk, one, strlen(one), NULL, &err) == NB_OK &&
           nb_bake_terrain_count(bk) == 1,
       "a legend from its text: %s", err.msg);
    uint8_t two[4] = {0, NB_BAKE_OBSTACLE, 0, 0};
    nb_bundle *b = NULL;
    ok(nb_bake_set_grid(bk, 2, 2, two, &err) == NB_OK &&
           nb_bake_memory(bk, NULL, &data, &len, &err) == NB_ERR_ARG &&
           strstr(err.msg, "no agent set"),
       "without ground and swamp there is no default agent set: %s", err.msg);
    const char *walker = "agents:\n  - name: walker\n    size: 1\n    capability: [floor]\n";
    ok(nb_bake_set_agents(bk, walker, strlen(walker), NULL, &err) == NB_OK &&
           nb_bake_memory(bk, NULL, &data, &len, &err) == NB_OK &&
           nb_bundle_open_memory(data, len, 0, NULL, &b, &err) == NB_OK &&
           nb_map_char(b, 1, 0) == '@' && nb_map_terrain(b, 1, 0) == NB_OBSTACLE &&
           nb_map_char(b, 0, 0) == '.',
       "its obstacle is stored as '@': %s", err.msg);
    nb_bundle_close(b);
    nb_bake_free(bk, data);
    nb_bake_options o;
    nb_bake_options_init(&o);
    o.cluster = 0;
    ok(nb_bake_memory(bk, &o, &data, &len, &err) == NB_ERR_ARG && strstr(err.msg, "cluster 0"),
       "a cluster of 0: %s", err.msg);
    nb_bake_options_init(&o);
    o.flags |= 0x100;
    ok(nb_bake_memory(bk, &o, &data, &len, &err) == NB_ERR_ARG && strstr(err.msg, "0x100"),
       "an unknown flag: %s", err.msg);
    ok(nb_bake_set_grid(NULL, 1, 1, two, &err) == NB_ERR_ARG, "a NULL handle");
    nb_bake_close(bk);
    nb_bake_close(NULL);

    /* The ABI guard: a program whose nb_bake_options had another size. */
    uint32_t sizes[] = {(uint32_t)sizeof(nb_bake_options) - 8};
    nb_abi doctored = {NB_VERSION_MAJOR, NB_VERSION_MINOR, 1, sizes};
    bk = (nb_bake *)1;
    ok(nb_bake_open_abi(NULL, &bk, &err, NB_ABI_THIS, &doctored) == NB_ERR_VERSION &&
           bk == NULL && strstr(err.msg, "nb_bake_options"),
       "another header's nb_bake_options is refused, named: %s", err.msg);
    ok(nb_bake_options_init_abi(&o, NB_ABI_THIS, &doctored) == NB_ERR_VERSION,
       "and by nb_bake_options_init");
    is_str(nb_bake_abi_name(0), "nb_bake_options", "struct 0 is nb_bake_options");
    ok(nb_bake_abi_size(0) == sizeof(nb_bake_options) && nb_bake_abi_size(1) == 0 &&
           nb_bake_abi_name(1) == NULL,
       "its size, and nothing beyond the list");
    is_str(nb_status_str(NB_ERR_CANCELLED), "cancelled", "NB_ERR_CANCELLED has its text");
}

/* ---- cancelling inside a step ---- */

#define MAX_REPORTS 100000

/* Each report's fraction and the thread's CPU time then, in ms. */
typedef struct timeline {
    int calls, cancel_at; /* cancels on call number cancel_at (from 1); 0: never */
    double *at, *cpu;
} timeline;

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int note(void *arg, double f)
{
    timeline *t = arg;
    if (t->calls < MAX_REPORTS) {
        t->at[t->calls] = f;
        t->cpu[t->calls] = cpu_ms();
    }
    t->calls++;
    return t->cancel_at && t->calls >= t->cancel_at;
}

/* A cancel in the middle of a long step stops the bake well before the
 * step would end: what it goes on doing after the report that cancelled
 * is less than half of what the same bake uncancelled did there to the
 * step's end (CPU time on the baking thread, so a loaded machine does not
 * count).  Stopping only between steps does the whole rest of the step. */
static void cancel_inside(void)
{
    tu_rng r = {33};
    uint8_t *ids = random_ids(&r, 800, 800, 20);
    nb_bake *bk;
    nb_err err;
    nb_bake_open(NULL, &bk, &err);
    nb_bake_set_grid(bk, 800, 800, ids, &err);
    nb_bake_options o;
    nb_bake_options_init(&o);
    o.flags = NB_BAKE_ABSTRACT | NB_BAKE_OPTIMAL;
    o.progress = note;
    timeline full = {0, 0, calloc(MAX_REPORTS, sizeof(double)), calloc(MAX_REPORTS, sizeof(double))};
    o.progress_arg = &full;
    void *data = NULL;
    size_t len;
    nb_status fst = nb_bake_memory(bk, &o, &data, &len, &err);
    ok(fst == NB_OK && full.calls < MAX_REPORTS, "a bake with the optimal layer and the graph, %d reports", full.calls);
    double t_end = cpu_ms();
    nb_bake_free(bk, data);
    /* bake_run.c's shares: the layers to 0.28, the optimal layers to 0.58, the graph to 1. */
    static const struct {
        const char *name;
        double lo, hi;
    } steps[] = {{"the optimal layers", 0.28, 0.58}, {"the abstract graph", 0.58, 1.0}};
    for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
        double mid = (steps[s].lo + steps[s].hi) / 2;
        int k = 0, e = full.calls - 1;
        while (k < full.calls && full.at[k] < mid)
            k++;
        while (e > k && full.at[e - 1] >= steps[s].hi - 1e-9)
            e--; /* the first report at or past the step's end */
        double rest = (e < full.calls && full.at[e] >= steps[s].hi - 1e-9 ? full.cpu[e] : t_end) -
                      full.cpu[k];
        if (!ok(k < full.calls && full.at[k] < steps[s].hi && rest > 5,
                "%s: a report in its middle (%.3f) with %.1f ms of the step after it", steps[s].name,
                k < full.calls ? full.at[k] : -1.0, rest)) {
            skip(2, "no report inside the step");
            continue;
        }
        timeline t = {0, k + 1, calloc(MAX_REPORTS, sizeof(double)), calloc(MAX_REPORTS, sizeof(double))};
        o.progress_arg = &t;
        data = (void *)1;
        nb_status st = nb_bake_memory(bk, &o, &data, &len, &err);
        double after = cpu_ms() - t.cpu[k];
        char where[64];
        snprintf(where, sizeof where, "at %.0f%%, in %s", 100 * full.at[k], steps[s].name);
        ok(st == NB_ERR_CANCELLED && data == NULL && strstr(err.msg, where),
           "cancelled there, %s: %s", where, err.msg);
        ok(after < rest / 2, "and stopped within %.2f ms, the uncancelled bake going on %.1f ms "
                             "to the step's end", after, rest);
        free(t.at);
        free(t.cpu);
    }
    free(full.at);
    free(full.cpu);
    free(ids);
    nb_bake_close(bk);
}

int main(void)
{
    bake_grid_and_text();
    two_threads();
    cancelling();
    cancel_inside();
    allocator();
    errors();
    return done_testing();
}
