/* test_world_budget.c: queries that load their tiles through the game's
 * loader under a byte budget (nb_world_set_budget, lib/runtime/stream/
 * world_handle.c and world_pins.c), and the resident bytes
 * (nb_world_resident).
 *
 * - With a loader and a budget, Annotated A*, nearest and reachability
 *   across many tiles from a world with nothing loaded get the answers of
 *   a second handle of the same world with every tile loaded by hand;
 *   after each query returns the world holds at most its budget, and the
 *   loader was called again for tiles the budget had unloaded.
 * - The budget unloads the least recently used tile no query pins.
 * - Without a loader, or without a budget, queries never call the loader:
 *   NB_ERR_UNLOADED and the tiles needed, as before.
 * - A loader that fails, a tile of another digest and a truncated tile are
 *   the query's error, naming the tile; nothing stays loaded for it.
 * - nb_world_resident: the whole of what was copied from the loader's
 *   bytes, at most nb_world_bytes for mapped files, and the world's own
 *   when nothing is loaded.
 * - Four threads query with a budget that holds a few tiles, each loading
 *   what it needs (make check-tsan runs this under ThreadSanitizer): every
 *   answer is the fully loaded handle's. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/stream.h"
#include "worldbake.h"

typedef struct loader_log {
    const char *tiles;    /* the folder of the tile bundles */
    atomic_int calls;
    int from_bytes;       /* hand the bundle's bytes, not its path */
    long fail;            /* the tile (row * columns + column) to fail, or -1 */
    long wrong;           /* the tile to hand another tile's bundle for, or -1 */
    long truncated;       /* the tile to hand the first half of its bytes for, or -1 */
    uint32_t columns;
} loader_log;

static nb_status loader(void *opaque, nb_world_tile t, const char **path, const void **data,
                        size_t *len, nb_err *err)
{
    loader_log *l = opaque;
    atomic_fetch_add(&l->calls, 1);
    long i = (long)(t.row * l->columns + t.column);
    if (i == l->fail)
        return nbi_fail(err, NB_ERR_IO, "the archive has no tile (%u, %u)", t.column, t.row);
    char name[64];
    /* Another tile's bundle: the neighbour's (its digest is not this tile's). */
    snprintf(name, sizeof name, "%u_%u.nbb", i == l->wrong ? (t.column + 1) % l->columns : t.column,
             t.row);
    const char *p = tu_path(l->tiles, name);
    if (!l->from_bytes && i != l->truncated) {
        *path = p; /* tu_path's buffers live long enough for the load */
        return NB_OK;
    }
    size_t n;
    char *b = tu_read(p, &n);
    if (!b)
        return nbi_fail(err, NB_ERR_IO, "cannot read %s", p);
    *data = b;
    *len = i == l->truncated ? n / 2 : n;
    return NB_OK;
}

static void release(void *opaque, nb_world_tile t, const void *data)
{
    (void)opaque, (void)t;
    free((void *)data);
}

typedef struct level {
    tw_world wd;
    nb_bundle *whole;
    nb_world *ref; /* every tile loaded by hand */
    const char *dir;
    char *tiles;   /* dir/tiles */
    nb_world_info in;
} level;

/* A loader's log that hands every tile as it is, and the world opened
 * again with nothing loaded; 0 when it does not open. */
static int open_logged(const level *l, loader_log *log, nb_world **w)
{
    *log = (loader_log){.tiles = l->tiles, .fail = -1, .wrong = -1, .truncated = -1,
                        .columns = l->in.columns};
    atomic_init(&log->calls, 0);
    nb_err err;
    return ok(nb_world_open(tu_path(l->dir, "world.nbw"), NULL, 0, NULL, w, &err) == NB_OK,
              "the world opens again: %s", err.msg);
}

static nb_cell standable(tu_rng *r, const level *l, const nb_aa_query *q)
{
    nb_cell c = {0, 0};
    for (int tries = 0; tries < 500; tries++) {
        c.x = (int32_t)tu_below(r, l->in.width);
        c.y = (int32_t)tu_below(r, l->in.height);
        if (nb_can_stand(l->whole, q->capability, q->size, c.x, c.y) == 1)
            break;
    }
    return c;
}

/* A query between cells at least half the world apart. */
static void far_query(tu_rng *r, const level *l, size_t agent, nb_aa_query *q)
{
    nb_aa_query_init(q);
    nb_aa_query_agent(q, nb_agent_get(l->whole, agent));
    q->corner = tu_below(r, 2) ? NB_CORNER_WEAK : NB_CORNER_STRICT;
    for (int tries = 0; tries < 50; tries++) {
        q->start = standable(r, l, q);
        q->goal = standable(r, l, q);
        if (abs(q->start.x - q->goal.x) + abs(q->start.y - q->goal.y) >
            (int)(l->in.width + l->in.height) / 2)
            break;
    }
}

static int same_aa(nb_world_aa *a, nb_world_aa *b, const nb_aa_query *q, nb_err *err)
{
    nb_aa_result x, y;
    nb_err e2;
    nb_status s1 = nb_world_aa_find(a, q, NULL, &x, err);
    nb_status s2 = nb_world_aa_find(b, q, NULL, &y, &e2);
    int good = s1 == NB_OK && s2 == NB_OK && x.status == y.status &&
               x.path_len == y.path_len && fabs(x.cost - y.cost) <= 1e-9 * (1 + y.cost);
    for (size_t i = 0; good && i < x.path_len; i++)
        good = x.path[i].x == y.path[i].x && x.path[i].y == y.path[i].y;
    if (!good)
        diag("(%d, %d) to (%d, %d) size %u: loading %d/%d cost %.9f len %zu (%s), loaded by "
             "hand %d/%d cost %.9f len %zu",
             q->start.x, q->start.y, q->goal.x, q->goal.y, q->size, s1, x.status, x.cost,
             x.path_len, err->msg, s2, y.status, y.cost, y.path_len);
    return good;
}

static int same_nearest(nb_world_aa *a, nb_world_aa *b, const nb_nearest_query *q)
{
    nb_nearest_result x, y;
    nb_err e1, e2;
    nb_status s1 = nb_world_nearest_find(a, q, NULL, &x, &e1);
    nb_status s2 = nb_world_nearest_find(b, q, NULL, &y, &e2);
    int good = s1 == NB_OK && s2 == NB_OK && x.status == y.status &&
               (x.status != NB_PATH_FOUND || (x.cell.x == y.cell.x && x.cell.y == y.cell.y));
    if (!good)
        diag("nearest to (%d, %d) r %g: loading %d/%d (%s), by hand %d/%d", q->point.x,
             q->point.y, q->radius, s1, x.status, e1.msg, s2, y.status);
    return good;
}

/* Answers through the loader under a budget against the handle with every
 * tile loaded; the budget held after each query. */
static void check_budget(level *l, int from_bytes, uint64_t seed)
{
    nb_err err;
    nb_world *w;
    loader_log log;
    if (!open_logged(l, &log, &w))
        return;
    log.from_bytes = from_bytes;
    const char *how = from_bytes ? "tiles from the loader's bytes" : "tiles from the loader's paths";
    size_t own = nb_world_bytes(w), largest = 0;
    /* The largest tile, for a budget of a few tiles. */
    for (uint32_t i = 0; i < l->in.columns * l->in.rows; i++) {
        nb_world_tile t = {i % l->in.columns, i / l->in.columns};
        nb_world_load(w, t, NULL);
        size_t b = nb_world_bytes(w) - own;
        largest = b > largest ? b : largest;
        nb_world_unload(w, t, NULL);
    }
    size_t budget = own + 6 * largest;
    nb_world_set_loader(w, loader, release, &log);
    nb_world_set_budget(w, budget);
    nb_world_aa *ws, *wr;
    if (!ok(nb_world_aa_open(w, &ws, &err) == NB_OK && nb_world_aa_open(l->ref, &wr, &err) == NB_OK,
            "workspaces open: %s", err.msg))
        return;
    tu_rng r = {seed};
    unsigned wrong = 0, over = 0, found = 0, n = 0, unl = 0;
    size_t most = 0;
    uint32_t ntiles = l->in.columns * l->in.rows;
    for (size_t k = 0; k < nb_agent_count(l->whole); k++)
        for (int i = 0; i < 40; i++) {
            nb_aa_query q;
            far_query(&r, l, k, &q);
            wrong += !same_aa(ws, wr, &q, &err);
            nb_aa_result res;
            found += nb_world_aa_find(ws, &q, NULL, &res, NULL) == NB_OK &&
                     res.status == NB_PATH_FOUND;
            over += nb_world_bytes(w) > budget;
            nb_world_info in;
            nb_world_describe(w, &in);
            unl += in.loaded < ntiles;
            most = nb_world_bytes(w) > most ? nb_world_bytes(w) : most;
            n++;
        }
    is_int(wrong, 0, "%s, budget of 6 tiles: %u far queries (%u found) get the answers of every "
                     "tile loaded by hand",
           how, n, found);
    ok(found > n / 4, "%s: many found (%u of %u)", how, found, n);
    is_int(over, 0, "%s: after every query the world holds at most its budget (at most %zu of "
                    "%zu bytes)",
           how, most, budget);
    ok(unl == n && atomic_load(&log.calls) > (int)ntiles,
       "%s: tiles were unloaded for the budget and loaded again (%d loads of %u tiles)", how,
       atomic_load(&log.calls), ntiles);
    /* Nearest and reachability load what they need too. */
    unsigned nwrong = 0, rwrong = 0;
    for (int i = 0; i < 60; i++) {
        nb_nearest_query q;
        nb_nearest_query_init(&q);
        nb_nearest_query_agent(&q, nb_agent_get(l->whole, (size_t)i % nb_agent_count(l->whole)));
        q.point.x = (int32_t)tu_below(&r, l->in.width);
        q.point.y = (int32_t)tu_below(&r, l->in.height);
        q.radius = (double)tu_below(&r, 3 * l->in.tile);
        nwrong += !same_nearest(ws, wr, &q);
        over += nb_world_bytes(w) > budget;
        nb_aa_query a;
        far_query(&r, l, (size_t)i % nb_agent_count(l->whole), &a);
        int j1 = -1, j2 = -2;
        nb_status s1 = nb_world_reachable(w, a.capability, a.size, a.start, a.goal, &j1, NULL, 0,
                                          NULL, &err);
        nb_status s2 = nb_world_reachable(l->ref, a.capability, a.size, a.start, a.goal, &j2,
                                          NULL, 0, NULL, NULL);
        rwrong += !(s1 == NB_OK && s2 == NB_OK && j1 == j2);
        over += nb_world_bytes(w) > budget;
    }
    is_int(nwrong, 0, "%s: 60 nearest queries load what they need and answer as by hand", how);
    is_int(rwrong, 0, "%s: 60 reachability queries load their ends' tiles and answer as by hand",
           how);
    is_int(over, 0, "%s: and the budget holds after each", how);
    if (from_bytes)
        is_int((long)nb_world_resident(w), (long)nb_world_bytes(w),
               "%s: resident is all of it (copies in the allocator's memory)", how);
    else
        ok(nb_world_resident(w) <= nb_world_bytes(w) && nb_world_resident(w) > own / 2,
           "%s: resident %zu of %zu bytes mapped", how, nb_world_resident(w), nb_world_bytes(w));
    /* A budget below one tile: a query still answers, holding its tiles
     * while it runs, and returns within the budget (the world's own). */
    nb_world_set_budget(w, own);
    nb_aa_query q;
    far_query(&r, l, 0, &q);
    ok(same_aa(ws, wr, &q, &err) && nb_world_bytes(w) == own,
       "%s: a budget of no tile: the query answers, and nothing stays loaded (%zu bytes)", how,
       nb_world_bytes(w));
    nb_world_aa_close(wr);
    nb_world_aa_close(ws);
    nb_world_close(w);
}

/* Without a loader, or without a budget, no query loads. */
static void check_no_loader(level *l)
{
    nb_err err;
    nb_world *w;
    loader_log log;
    if (!open_logged(l, &log, &w))
        return;
    nb_world_aa *ws;
    nb_world_aa_open(w, &ws, &err);
    tu_rng r = {77};
    nb_aa_query q;
    far_query(&r, l, 0, &q);
    nb_aa_result res;
    nb_world_tile need[4];
    nb_world_set_budget(w, SIZE_MAX);
    ok(nb_world_aa_find(ws, &q, NULL, &res, &err) == NB_ERR_UNLOADED &&
           nb_world_aa_needed(ws, need, 4) >= 1,
       "a budget and no loader: NB_ERR_UNLOADED with the tiles needed (%s)", err.msg);
    nb_world_set_loader(w, loader, release, &log);
    nb_world_set_budget(w, 0);
    ok(nb_world_aa_find(ws, &q, NULL, &res, &err) == NB_ERR_UNLOADED,
       "a loader and no budget: NB_ERR_UNLOADED (%s)", err.msg);
    int j;
    ok(nb_world_reachable(w, q.capability, q.size, q.start, q.goal, &j, NULL, 0, NULL, &err) ==
           NB_ERR_UNLOADED,
       "reachability too (%s)", err.msg);
    is_int(atomic_load(&log.calls), 0, "the loader was never called by a query");
    nb_world_info in;
    nb_world_describe(w, &in);
    is_int(in.loaded, 0, "and no tile is loaded");
    nb_world_aa_close(ws);
    nb_world_close(w);
}

/* The budget unloads the least recently used tile first. */
static void check_lru(level *l)
{
    nb_err err;
    nb_world *w;
    if (nb_world_open(tu_path(l->dir, "world.nbw"), NULL, 0, NULL, &w, &err) != NB_OK)
        return;
    nb_world_tile t[4] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}};
    size_t own = nb_world_bytes(w), sum = 0;
    for (int i = 0; i < 4; i++) {
        size_t b = nb_world_bytes(w);
        nb_world_load(w, t[i], NULL);
        sum += nb_world_bytes(w) - b;
    }
    for (int i = 0; i < 4; i++)
        nb_world_unload(w, t[i], NULL);
    nb_world_set_budget(w, own + sum - 1);
    for (int i = 0; i < 3; i++)
        nb_world_load(w, t[i], NULL);
    /* A query reads tile (0, 0) last: (1, 0) is then the least recent. */
    nb_world_aa *ws;
    nb_world_aa_open(w, &ws, &err);
    nb_aa_query q;
    nb_aa_query_init(&q);
    nb_aa_query_agent(&q, nb_agent_get(l->whole, 0));
    tu_rng r = {5};
    for (int k = 0; k < 200; k++) {
        q.start = standable(&r, l, &q);
        if ((uint32_t)q.start.x < l->in.tile && (uint32_t)q.start.y < l->in.tile)
            break;
    }
    q.goal = q.start;
    nb_aa_result res;
    nb_world_aa_find(ws, &q, NULL, &res, NULL);
    nb_world_load(w, t[3], NULL);
    ok(nb_world_loaded(w, t[0]) && !nb_world_loaded(w, t[1]) && nb_world_loaded(w, t[2]) &&
           nb_world_loaded(w, t[3]),
       "a load over the budget unloads the least recently used tile, (1, 0), alone");
    nb_world_aa_close(ws);
    nb_world_close(w);
}

/* A loader that fails, a tile of another digest, a truncated tile: the
 * query's error, naming the tile. */
static void check_refusals(level *l)
{
    static const struct {
        const char *what;
        nb_status st;
        int field; /* 0 fail, 1 wrong, 2 truncated */
        const char *says;
    } cases[] = {{"the loader's error", NB_ERR_IO, 0, "archive"},
                 {"a tile of another digest", NB_ERR_MISMATCH, 1, "linked from"},
                 {"a truncated tile", NB_ERR_FORMAT, 2, ""}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        nb_err err;
        nb_world *w;
        loader_log log;
        if (!open_logged(l, &log, &w))
            return;
        /* A tile in the middle of the world: the query starts in it. */
        nb_world_tile bad = {l->in.columns / 2, l->in.rows / 2};
        long bi = (long)(bad.row * l->in.columns + bad.column);
        if (cases[c].field == 0)
            log.fail = bi;
        else if (cases[c].field == 1)
            log.wrong = bi;
        else
            log.truncated = bi;
        nb_world_set_loader(w, loader, release, &log);
        nb_world_set_budget(w, SIZE_MAX);
        nb_world_aa *ws;
        nb_world_aa_open(w, &ws, &err);
        nb_aa_query q;
        nb_aa_query_init(&q);
        nb_aa_query_agent(&q, nb_agent_get(l->whole, 0));
        tu_rng r = {9 + c};
        for (int k = 0; k < 2000; k++) {
            q.start = standable(&r, l, &q);
            if ((uint32_t)q.start.x / l->in.tile == bad.column &&
                (uint32_t)q.start.y / l->in.tile == bad.row)
                break;
        }
        q.goal = standable(&r, l, &q);
        char tile[32];
        snprintf(tile, sizeof tile, "tile (%u, %u)", bad.column, bad.row);
        nb_aa_result res;
        nb_status st = nb_world_aa_find(ws, &q, NULL, &res, &err);
        ok(st == cases[c].st && strstr(err.msg, tile) && strstr(err.msg, cases[c].says) &&
               res.status == NB_PATH_NONE,
           "%s: the query's error is %s, naming %s: %d %s", cases[c].what,
           nb_status_str(cases[c].st), tile, st, err.msg);
        ok(!nb_world_loaded(w, bad), "%s: the tile is not loaded", cases[c].what);
        nb_nearest_query nq;
        nb_nearest_query_init(&nq);
        nb_nearest_query_agent(&nq, nb_agent_get(l->whole, 0));
        nq.point = q.start;
        nb_nearest_result nr;
        st = nb_world_nearest_find(ws, &nq, NULL, &nr, &err);
        ok(st == cases[c].st && strstr(err.msg, tile), "%s: nearest's error too: %s",
           cases[c].what, err.msg);
        int j;
        st = nb_world_reachable(w, q.capability, q.size, q.goal, q.start, &j, NULL, 0, NULL, &err);
        ok(st == cases[c].st && strstr(err.msg, tile), "%s: reachability's too: %s",
           cases[c].what, err.msg);
        nb_world_aa_close(ws);
        nb_world_close(w);
    }
}

typedef struct job {
    level *l;
    nb_world *w;
    size_t budget;
    uint64_t seed;
    unsigned wrong;
} job;

static void *querier(void *arg)
{
    job *j = arg;
    nb_world_aa *ws, *wr;
    nb_err err;
    if (nb_world_aa_open(j->w, &ws, &err) != NB_OK ||
        nb_world_aa_open(j->l->ref, &wr, &err) != NB_OK) {
        j->wrong = 1000;
        return NULL;
    }
    tu_rng r = {j->seed};
    for (int i = 0; i < 25; i++) {
        nb_aa_query q;
        far_query(&r, j->l, (size_t)i % nb_agent_count(j->l->whole), &q);
        j->wrong += !same_aa(ws, wr, &q, &err);
    }
    nb_world_aa_close(wr);
    nb_world_aa_close(ws);
    return NULL;
}

static void check_threads(level *l)
{
    nb_world *w;
    loader_log log;
    if (!open_logged(l, &log, &w))
        return;
    size_t own = nb_world_bytes(w);
    nb_world_load(w, (nb_world_tile){0, 0}, NULL);
    size_t one = nb_world_bytes(w) - own;
    nb_world_set_loader(w, loader, release, &log);
    nb_world_set_budget(w, own + 4 * one);
    job jobs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (job){l, w, own + 4 * one, 100 + (uint64_t)i, 0};
        pthread_create(&th[i], NULL, querier, &jobs[i]);
    }
    unsigned wrong = 0;
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        wrong += jobs[i].wrong;
    }
    is_int(wrong, 0, "four threads, each loading what it needs under a budget of 4 tiles: 100 "
                     "answers as by hand (%d loads)",
           atomic_load(&log.calls));
    ok(nb_world_bytes(w) <= own + 4 * one, "after the last query the budget holds");
    nb_world_close(w);
}

int main(void)
{
    const char *tmp = tu_tmpdir();
    int k = 0;
    level l;
    memset(&l, 0, sizeof l);
    /* A random level of two terrains, 160 x 120 in tiles of 16 (10 x 8). */
    tu_rng r = {0xb0d9ULL};
    nbb_grid g;
    tu_random_grid(&r, 160, 120, 12, 2, &g);
    const char *map = tu_path(tmp, "budget.map");
    tw_write_map(map, &g);
    nbb_grid_free(&g);
    l.dir = tw_fresh_dir(tmp, "b", &k);
    nb_err err;
    char *agents = strdup(tu_src("data/sample-agents.yaml")), *m = strdup(map);
    if (!ok(nbb_world_cut(m, NULL, agents, 16, 8, l.dir, 2, NULL, NULL, NULL, &err) == NB_OK &&
                tw_bake_world(l.dir, 0, &l.wd, &err),
            "a random level cut into tiles of 16, baked and linked: %s", err.msg))
        return done_testing();
    l.whole = tw_whole_bake(m, NULL, agents);
    free(m), free(agents);
    if (!ok(l.whole && nb_world_open(tu_path(l.dir, "world.nbw"), NULL, 0, NULL, &l.ref, &err) ==
                           NB_OK &&
                nb_world_load_cells(l.ref, 0, 0, 160, 120, &err) == NB_OK,
            "the world opens, every tile loaded by hand: %s", err.msg))
        return done_testing();
    nb_world_describe(l.ref, &l.in);
    l.tiles = strdup(tu_path(l.dir, "tiles"));
    check_no_loader(&l);
    check_budget(&l, 0, 1);
    check_budget(&l, 1, 2);
    check_lru(&l);
    check_refusals(&l);
    check_threads(&l);
    nb_world_close(l.ref);
    nb_bundle_close(l.whole);
    tw_world_close(&l.wd);
    free(l.tiles);
    return done_testing();
}
