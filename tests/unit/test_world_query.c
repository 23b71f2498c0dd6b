/* test_world_query.c: queries across a world's tiles (lib/runtime/stream/
 * world_aa.c, world_overlay.c) against the same level baked whole.
 *
 * - Annotated A* across tile borders (nb_world_aa_find) gets the status
 *   and the cost of nb_aa_find on the whole bake, for every agent of the
 *   world (terrain costs too), both corner rules, with and without cells
 *   blocked in rectangles that straddle tile borders (an nb_world_overlay
 *   against an nb_overlay of the whole bake blocking the same cells); its
 *   path is a walk of the agent from start to goal of that cost.
 * - Every scenario line of three shared maps cut into 4 x 4 tiles or more
 *   whose ends lie in different tiles (a sample in make check, every line
 *   with NB_WORLD_EVERY=1) gets the length of the whole bake and of the
 *   file; without ../shared, random levels and data/sample.map stand in.
 * - With tiles missing, a query answers as the whole bake or says
 *   NB_ERR_UNLOADED with tiles that are all missing; loading those and
 *   asking again ends at the whole bake's answer.  A query whose start
 *   tile is missing names exactly that tile.
 * - Four threads query while another loads and unloads (make check-tsan
 *   runs this under ThreadSanitizer): every answer is the whole bake's or
 *   the needed-tiles status naming missing tiles; a query allocates
 *   nothing once its workspace has grown. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "stream/wquery.h"
#include "worldbake.h"

static int every;

typedef tw_level level;

static int open_level(level *l, const char *what, const char *map, const char *agents,
                      uint32_t tile, uint32_t cluster, const char *dir, uint32_t least)
{
    int good = tw_level_open(l, what, map, agents, tile, cluster, dir);
    if (good)
        ok(l->in.columns * l->in.rows >= least, "%s: %u x %u tiles", what, l->in.columns,
           l->in.rows);
    return good;
}

/* 1 when path is a walk of the query's agent from start to goal on the
 * whole bake (each step to a neighbour where it stands, the corner rule
 * kept, no blocked cell under it) of the result's length. */
static int walk_ok(const nb_bundle *whole, const nb_overlay *ov, const nb_aa_query *q,
                   const nb_aa_result *r)
{
    if (r->path_len < 1 || r->path[0].x != q->start.x || r->path[0].y != q->start.y ||
        r->path[r->path_len - 1].x != q->goal.x || r->path[r->path_len - 1].y != q->goal.y)
        return 0;
    uint64_t diag = 0;
    for (size_t i = 0; i < r->path_len; i++) {
        nb_cell c = r->path[i];
        if (nb_can_stand(whole, q->capability, q->size, c.x, c.y) != 1)
            return 0;
        for (uint32_t dy = 0; ov && dy < q->size; dy++)
            for (uint32_t dx = 0; dx < q->size; dx++)
                if (nb_overlay_blocked(ov, c.x + (long)dx, c.y + (long)dy))
                    return 0;
        if (!i)
            continue;
        nb_cell p = r->path[i - 1];
        int dx = c.x - p.x, dy = c.y - p.y;
        if (abs(dx) > 1 || abs(dy) > 1 || (!dx && !dy))
            return 0;
        diag += dx && dy;
    }
    double len = (double)(r->path_len - 1 - diag) + sqrt(2.0) * (double)diag;
    return fabs(len - r->length) < 1e-6;
}

/* The world's answer against the whole bake's; 0 with a diagnostic when they differ. */
static int same_answer(const char *what, nb_world_aa *ws, nb_aa *aa, const level *l,
                       const nb_aa_query *q, const nb_world_overlay *wov, const nb_overlay *ov)
{
    nb_aa_query wq = *q;
    wq.overlay = ov;
    nb_aa_result a, b;
    nb_err e1, e2;
    nb_status s1 = nb_world_aa_find(ws, q, wov, &a, &e1);
    nb_status s2 = nb_aa_find(aa, &wq, &b, &e2);
    int good = s1 == s2 && a.status == b.status;
    if (good && a.status == NB_PATH_FOUND)
        good = fabs(a.cost - b.cost) <= 1e-9 * (1 + b.cost) &&
               (q->costs || fabs(a.length - b.length) <= 1e-9 * (1 + b.length)) &&
               walk_ok(l->whole, ov, q, &a);
    if (!good)
        diag("%s: %s size %u cap %#x corner %d (%d, %d) to (%d, %d): world %d/%d cost %.9f (%s), "
             "whole %d/%d cost %.9f",
             l->what, what, q->size, q->capability, q->corner, q->start.x, q->start.y, q->goal.x,
             q->goal.y, s1, a.status, a.cost, e1.msg, s2, b.status, b.cost);
    return good;
}

static nb_cell standable_cell(tu_rng *r, const nb_bundle *whole, const nb_aa_query *q)
{
    nb_cell c = {0, 0};
    for (int tries = 0; tries < 500; tries++) {
        c.x = (int32_t)tu_below(r, nb_map_width(whole));
        c.y = (int32_t)tu_below(r, nb_map_height(whole));
        if (nb_can_stand(whole, q->capability, q->size, c.x, c.y) == 1)
            break;
    }
    return c;
}

/* Random pairs for every agent, both corner rules, with and without blocks. */
static void check_pairs(level *l, int pairs, uint64_t seed)
{
    nb_err err;
    nb_world_aa *ws;
    nb_aa *aa;
    nb_world_overlay *wov;
    nb_overlay *ov;
    if (!ok(nb_world_aa_open(l->w, &ws, &err) == NB_OK && nb_aa_open(l->whole, &aa, &err) == NB_OK &&
                nb_world_overlay_open(l->w, &wov, &err) == NB_OK &&
                nb_overlay_open(l->whole, &ov, &err) == NB_OK,
            "%s: workspaces and overlays open: %s", l->what, err.msg))
        return;
    nb_world_load_cells(l->w, 0, 0, nb_map_width(l->whole), nb_map_height(l->whole), NULL);
    tu_rng r = {seed};
    size_t nagents = nb_agent_count(l->whole);
    for (int blocked = 0; blocked < 2; blocked++) {
        if (blocked)
            tw_straddling_blocks(&r, l, wov, ov, 60);
        unsigned wrong = 0, found = 0, n = 0;
        for (size_t k = 0; k < nagents; k++)
            for (int i = 0; i < pairs; i++) {
                nb_aa_query q;
                nb_aa_query_init(&q);
                nb_aa_query_agent(&q, nb_agent_get(l->whole, k));
                q.corner = i % 2 ? NB_CORNER_WEAK : NB_CORNER_STRICT;
                q.start = standable_cell(&r, l->whole, &q);
                q.goal = standable_cell(&r, l->whole, &q);
                if (i % 7 == 3) /* a cell of any kind */
                    q.goal.x = (int32_t)tu_below(&r, nb_map_width(l->whole));
                wrong += !same_answer(blocked ? "blocked" : "clear", ws, aa, l, &q,
                                      blocked ? wov : NULL, blocked ? ov : NULL);
                nb_aa_result res;
                found += nb_world_aa_find(ws, &q, blocked ? wov : NULL, &res, NULL) == NB_OK &&
                         res.status == NB_PATH_FOUND;
                n++;
            }
        is_int(wrong, 0, "%s: %u pairs %s: world AA* gets the whole bake's status and cost "
                         "(%u found)",
               l->what, n, blocked ? "with blocks straddling tile borders" : "without blocks",
               found);
        ok(found > n / 4, "%s: many of them found (%u)", l->what, found);
    }
    /* An overlay of another world, and an nb_overlay, are refused. */
    nb_aa_query q;
    nb_aa_query_init(&q);
    nb_aa_query_agent(&q, nb_agent_get(l->whole, 0));
    nb_aa_result res;
    q.overlay = ov;
    is_int(nb_world_aa_find(ws, &q, NULL, &res, &err), NB_ERR_ARG,
           "%s: an nb_overlay in the query: NB_ERR_ARG (%s)", l->what, err.msg);
    q.overlay = NULL;
    q.goal.x = -1;
    is_int(nb_world_aa_find(ws, &q, NULL, &res, &err), NB_ERR_OUTSIDE,
           "%s: a goal off the world: NB_ERR_OUTSIDE (%s)", l->what, err.msg);
    /* The node cap on a workspace the searches above grew: a cap of one page
     * (1024 nodes) stops a path whose ends are in two pages of 32 x 32 cells
     * (the pages a search claims are counted, not those the pool holds). */
    nb_aa_query_init(&q);
    nb_aa_query_agent(&q, nb_agent_get(l->whole, 0));
    int capped = 0;
    for (int i = 0; i < 400 && !capped; i++) {
        q.start = standable_cell(&r, l->whole, &q);
        q.goal = standable_cell(&r, l->whole, &q);
        if (q.start.x / 32 == q.goal.x / 32 ||
            nb_world_aa_find(ws, &q, NULL, &res, NULL) != NB_OK || res.status != NB_PATH_FOUND)
            continue;
        capped = 1;
        nb_world_aa_set_max_nodes(ws, 1);
        nb_status st = nb_world_aa_find(ws, &q, NULL, &res, &err);
        is_int(st == NB_OK ? (int)res.status : -(int)st, NB_PATH_LIMIT,
               "%s: a node cap of one page on a grown workspace: NB_PATH_LIMIT", l->what);
        nb_world_aa_set_max_nodes(ws, 0);
        is_int(nb_world_aa_find(ws, &q, NULL, &res, &err) == NB_OK ? (int)res.status : -1,
               NB_PATH_FOUND, "%s: no cap: found again", l->what);
    }
    ok(capped, "%s: a path across two pages found to cap", l->what);
    nb_world_overlay_close(wov);
    nb_overlay_close(ov);
    nb_aa_close(aa);
    nb_world_aa_close(ws);
}

/* The scenario lines whose ends are in different tiles, against the whole
 * bake and the file. */
static void check_scen(level *l, const char *scen_path)
{
    nbb_scen scen;
    nb_err err;
    if (!ok(nbb_scen_read(scen_path, &scen, &err) == NB_OK, "%s: scenarios read", l->what))
        return;
    nb_world_aa *ws;
    nb_aa *aa;
    nb_world_aa_open(l->w, &ws, NULL);
    nb_aa_open(l->whole, &aa, NULL);
    nb_world_load_cells(l->w, 0, 0, nb_map_width(l->whole), nb_map_height(l->whole), NULL);
    nb_world_info in;
    nb_world_describe(l->w, &in);
    size_t step = every ? 1 : scen.count / 60 + 1, checked = 0, wrong = 0, off = 0;
    for (size_t i = 0; i < scen.count; i++) {
        const nbb_scen_line *s = &scen.lines[i];
        if ((uint32_t)s->start.x / in.tile == (uint32_t)s->goal.x / in.tile &&
            (uint32_t)s->start.y / in.tile == (uint32_t)s->goal.y / in.tile)
            continue;
        if (off++ % step)
            continue;
        nb_aa_query q;
        nb_aa_query_init(&q);
        nb_aa_query_agent(&q, nb_agent_get(l->whole, 0));
        q.start = s->start, q.goal = s->goal;
        double tol = s->decimals < 4 ? pow(10, -(double)s->decimals) : 1e-4;
        nb_aa_result res;
        int good = same_answer("scenario", ws, aa, l, &q, NULL, NULL) &&
                   nb_world_aa_find(ws, &q, NULL, &res, NULL) == NB_OK &&
                   res.status == NB_PATH_FOUND && fabs(res.length - s->optimal) <= tol;
        if (!good && !wrong++)
            diag("%s: scenario line %u: %.6f, the file says %.6f", l->what, s->line, res.length,
                 s->optimal);
        checked++;
    }
    ok(checked >= 20, "%s: %zu scenario lines cross tile borders, %zu checked", l->what, off,
       checked);
    is_int(wrong, 0, "%s: every one checked gets the whole bake's and the file's length", l->what);
    nb_aa_close(aa);
    nb_world_aa_close(ws);
    nbb_scen_free(&scen);
}

/* Tiles missing: the whole bake's answer, or the tiles needed, all missing;
 * loading them converges on the whole bake's answer. */
static void check_unloaded(level *l, uint64_t seed)
{
    nb_world_info in;
    nb_world_describe(l->w, &in);
    nb_world_aa *ws;
    nb_aa *aa;
    nb_world_aa_open(l->w, &ws, NULL);
    nb_aa_open(l->whole, &aa, NULL);
    size_t ntiles = (size_t)in.columns * in.rows;
    nb_world_tile *need = calloc(ntiles, sizeof *need);
    tu_rng r = {seed};
    unsigned wrong = 0, asked = 0, exact_missing = 0, rounds_max = 0;
    for (int i = 0; i < 60; i++) {
        nb_world_unload_cells(l->w, 0, 0, in.width, in.height, NULL);
        nb_aa_query q;
        nb_aa_query_init(&q);
        nb_aa_query_agent(&q, nb_agent_get(l->whole, (size_t)i % nb_agent_count(l->whole)));
        q.start = standable_cell(&r, l->whole, &q);
        q.goal = standable_cell(&r, l->whole, &q);
        /* The start's tile alone is named when nothing is loaded. */
        nb_aa_result res;
        nb_err err;
        nb_status st = nb_world_aa_find(ws, &q, NULL, &res, &err);
        size_t n = nb_world_aa_needed(ws, need, ntiles);
        nb_world_tile ts = {(uint32_t)q.start.x / in.tile, (uint32_t)q.start.y / in.tile};
        nb_world_tile tg = {(uint32_t)q.goal.x / in.tile, (uint32_t)q.goal.y / in.tile};
        size_t want = 1 + (ts.column != tg.column || ts.row != tg.row);
        if (st != NB_ERR_UNLOADED || n != want || need[0].column != ts.column ||
            need[0].row != ts.row || (want == 2 && (need[1].column != tg.column || need[1].row != tg.row))) {
            if (!wrong++)
                diag("%s: nothing loaded: status %d, %zu tiles (%s)", l->what, st, n, err.msg);
        }
        /* Load a random half, then what each answer asks for. */
        for (size_t t = 0; t < ntiles; t++)
            if (tu_below(&r, 2))
                nb_world_load(l->w, (nb_world_tile){(uint32_t)(t % in.columns), (uint32_t)(t / in.columns)}, NULL);
        unsigned rounds = 0;
        for (;;) {
            asked++;
            st = nb_world_aa_find(ws, &q, NULL, &res, &err);
            if (st != NB_ERR_UNLOADED)
                break;
            n = nb_world_aa_needed(ws, need, ntiles);
            int bad = n == 0;
            for (size_t j = 0; j < n; j++)
                bad |= nb_world_loaded(l->w, need[j]);
            if (bad) {
                if (!wrong++)
                    diag("%s: %zu tiles needed, some loaded: %s", l->what, n, err.msg);
                break;
            }
            for (size_t j = 0; j < n; j++)
                nb_world_load(l->w, need[j], NULL);
            rounds++;
        }
        if (rounds > rounds_max)
            rounds_max = rounds;
        nb_world_describe(l->w, &in);
        exact_missing += st == NB_OK && in.loaded < ntiles;
        wrong += !same_answer("tiles missing", ws, aa, l, &q, NULL, NULL);
    }
    is_int(wrong, 0, "%s: with tiles missing, %u queries: each answer the whole bake's or the "
                     "missing tiles it needs; loading them ends at the whole bake's (at most %u "
                     "rounds)", l->what, asked, rounds_max);
    ok(exact_missing > 0, "%s: %u queries answered exactly with tiles still missing", l->what,
       exact_missing);
    free(need);
    nb_aa_close(aa);
    nb_world_aa_close(ws);
}

/* ---- four threads query while one loads and unloads ---- */

typedef struct shared {
    level *l;
    atomic_int stop;
    atomic_uint wrong, answered, unloaded;
} shared;

typedef struct qarg {
    shared *sh;
    uint64_t seed;
} qarg;

static void *querier(void *arg)
{
    shared *sh = ((qarg *)arg)->sh;
    level *l = sh->l;
    tu_rng r = {((qarg *)arg)->seed};
    nb_world_aa *ws;
    nb_aa *aa;
    nb_world_aa_open(l->w, &ws, NULL);
    nb_aa_open(l->whole, &aa, NULL);
    nb_world_info in;
    nb_world_describe(l->w, &in);
    nb_world_tile need[64];
    while (!atomic_load(&sh->stop)) {
        nb_aa_query q;
        nb_aa_query_init(&q);
        nb_aa_query_agent(&q, nb_agent_get(l->whole, tu_below(&r, (uint32_t)nb_agent_count(l->whole))));
        q.start = standable_cell(&r, l->whole, &q);
        q.goal = standable_cell(&r, l->whole, &q);
        nb_aa_result a, b;
        nb_status st = nb_world_aa_find(ws, &q, NULL, &a, NULL);
        int bad;
        if (st == NB_OK) {
            bad = nb_aa_find(aa, &q, &b, NULL) != NB_OK || a.status != b.status ||
                  (a.status == NB_PATH_FOUND && fabs(a.cost - b.cost) > 1e-9 * (1 + b.cost));
            atomic_fetch_add(&sh->answered, 1);
        } else {
            size_t n = nb_world_aa_needed(ws, need, 64);
            bad = st != NB_ERR_UNLOADED || n < 1;
            atomic_fetch_add(&sh->unloaded, 1);
        }
        if (bad)
            atomic_fetch_add(&sh->wrong, 1);
    }
    nb_aa_close(aa);
    nb_world_aa_close(ws);
    return NULL;
}

static void check_threads(level *l)
{
    shared sh;
    sh.l = l;
    atomic_init(&sh.stop, 0);
    atomic_init(&sh.wrong, 0);
    atomic_init(&sh.answered, 0);
    atomic_init(&sh.unloaded, 0);
    pthread_t th[4];
    qarg qa[4] = {{&sh, 200}, {&sh, 201}, {&sh, 202}, {&sh, 203}};
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, querier, &qa[i]);
    nb_world_info in;
    nb_world_describe(l->w, &in);
    tu_rng r = {78};
    int failed = 0;
    for (int i = 0; i < 1500; i++) {
        nb_world_tile t = {tu_below(&r, in.columns), tu_below(&r, in.rows)};
        if (tu_below(&r, 3)) {
            if (nb_world_load(l->w, t, NULL) != NB_OK)
                failed++;
        } else
            nb_world_unload(l->w, t, NULL);
    }
    atomic_store(&sh.stop, 1);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    ok(failed == 0, "%s: 1500 loads and unloads on one thread", l->what);
    is_int(atomic_load(&sh.wrong), 0,
           "%s: four threads querying meanwhile: every answer right (%u answered, %u needing "
           "tiles)",
           l->what, atomic_load(&sh.answered), atomic_load(&sh.unloaded));
    nb_world_unload_cells(l->w, 0, 0, in.width, in.height, NULL);
    nb_world_describe(l->w, &in);
    ok(in.loaded == 0 && in.retired == 0, "%s: all unmapped once the queries are done", l->what);
}

/* A query allocates nothing once the workspace has grown. */
static size_t allocs;
static void *count_alloc(void *o, size_t n) { (void)o; allocs++; return malloc(n); }
static void *count_realloc(void *o, void *p, size_t n) { (void)o; allocs++; return realloc(p, n); }
static void count_free(void *o, void *p) { (void)o; free(p); }

static void check_no_alloc(const char *dir)
{
    nb_allocator al = {count_alloc, count_realloc, count_free, NULL};
    nb_world *w;
    nb_err err;
    if (!ok(nb_world_open(tu_path(dir, "world.nbw"), NULL, 0, &al, &w, &err) == NB_OK,
            "the world opens with a counting allocator: %s", err.msg))
        return;
    nb_world_info in;
    nb_world_describe(w, &in);
    nb_world_load_cells(w, 0, 0, in.width, in.height, NULL);
    nb_world_aa *ws;
    nb_world_aa_open(w, &ws, NULL);
    nb_aa_query q;
    nb_aa_query_init(&q);
    nb_aa_query_agent(&q, nb_agent_get(nb_world_bundle(w), 0));
    q.start = (nb_cell){0, 0};
    q.goal = (nb_cell){(int32_t)in.width - 1, (int32_t)in.height - 1};
    nb_aa_result res;
    /* 500 queries, then the same 500 again: the second round allocates nothing. */
    size_t before = 0;
    for (int round = 0; round < 2; round++) {
        tu_rng r = {5};
        before = allocs;
        for (int i = 0; i < 500; i++) {
            q.start = (nb_cell){(int32_t)tu_below(&r, in.width), (int32_t)tu_below(&r, in.height)};
            q.goal = (nb_cell){(int32_t)tu_below(&r, in.width), (int32_t)tu_below(&r, in.height)};
            nb_world_aa_find(ws, &q, NULL, &res, NULL);
        }
    }
    is_int(allocs - before, 0, "500 queries again allocate nothing (the workspace holds %zu "
           "bytes)", nb_world_aa_bytes(ws));
    nb_world_aa_close(ws);
    nb_world_close(w);
}

/* ---- nearest: the whole bake's nb_nearest_find and a brute force ---- */

/* The nearest cell by a scan of the whole map (nearer, then row-major). */
static int brute_nearest(const level *l, const nb_nearest_query *q, const nb_overlay *ov,
                         nb_cell *out)
{
    const nb_bundle *b = l->whole;
    double best = INFINITY;
    int found = 0;
    for (int32_t y = 0; y < (int32_t)nb_map_height(b); y++)
        for (int32_t x = 0; x < (int32_t)nb_map_width(b); x++) {
            double dx = fabs((double)x - q->point.x), dy = fabs((double)y - q->point.y);
            double d = dx > dy ? dx + (sqrt(2.0) - 1) * dy : dy + (sqrt(2.0) - 1) * dx;
            if (d > q->radius || d >= best - 1e-12)
                continue;
            int s = ov ? nb_overlay_can_stand(ov, q->capability, q->size, x, y)
                       : nb_can_stand(b, q->capability, q->size, x, y);
            if (s == 1 && q->reachable)
                s = nb_reachable(b, q->capability, q->size, q->start, (nb_cell){x, y});
            if (s == 1)
                best = d, *out = (nb_cell){x, y}, found = 1;
        }
    return found;
}

static void check_nearest(level *l, uint64_t seed)
{
    nb_world_aa *ws;
    nb_place *pl;
    nb_world_overlay *wov;
    nb_overlay *ov;
    nb_err err;
    if (!ok(nb_world_aa_open(l->w, &ws, &err) == NB_OK && nb_place_open(l->whole, &pl, &err) == NB_OK &&
                nb_world_overlay_open(l->w, &wov, &err) == NB_OK &&
                nb_overlay_open(l->whole, &ov, &err) == NB_OK,
            "%s: nearest: workspaces open: %s", l->what, err.msg))
        return;
    nb_world_info in;
    nb_world_describe(l->w, &in);
    size_t ntiles = (size_t)in.columns * in.rows;
    nb_world_tile *need = calloc(ntiles, sizeof *need);
    tu_rng r = {seed};
    for (int blocked = 0; blocked < 2; blocked++) {
        if (blocked)
            tw_straddling_blocks(&r, l, wov, ov, 80);
        unsigned wrong = 0, n = 0, found = 0, missing_ok = 0;
        for (int i = 0; i < 120; i++) {
            nb_nearest_query q;
            nb_nearest_query_init(&q);
            const nb_agent *ag = nb_agent_get(l->whole, (size_t)i % nb_agent_count(l->whole));
            nb_nearest_query_agent(&q, ag);
            q.point = (nb_cell){(int32_t)tu_below(&r, in.width), (int32_t)tu_below(&r, in.height)};
            q.radius = i % 3 == 0 ? INFINITY : (double)(1 + tu_below(&r, 24));
            q.reachable = !blocked && i % 2;
            if (q.reachable) {
                nb_aa_query aq;
                nb_aa_query_init(&aq);
                nb_aa_query_agent(&aq, ag);
                q.start = standable_cell(&r, l->whole, &aq);
            }
            /* Half the queries with a random half of the tiles loaded. */
            nb_world_unload_cells(l->w, 0, 0, in.width, in.height, NULL);
            for (size_t t = 0; t < ntiles; t++)
                if (i % 2 == 0 || tu_below(&r, 2))
                    nb_world_load(l->w, (nb_world_tile){(uint32_t)(t % in.columns), (uint32_t)(t / in.columns)}, NULL);
            nb_nearest_result a, b;
            nb_status s1;
            int rounds = 0, bad = 0;
            while ((s1 = nb_world_nearest_find(ws, &q, blocked ? wov : NULL, &a, &err)) ==
                       NB_ERR_UNLOADED && rounds++ < 64) {
                size_t k = nb_world_aa_needed(ws, need, ntiles);
                bad |= k == 0;
                for (size_t j = 0; j < k; j++) {
                    bad |= nb_world_loaded(l->w, need[j]);
                    nb_world_load(l->w, need[j], NULL);
                }
            }
            nb_world_describe(l->w, &in);
            missing_ok += s1 == NB_OK && in.loaded < ntiles;
            nb_nearest_query wq = q;
            wq.overlay = blocked ? ov : NULL;
            nb_status s2 = nb_nearest_find(pl, &wq, &b, NULL);
            nb_cell bc = {-1, -1};
            int bf = brute_nearest(l, &q, blocked ? ov : NULL, &bc);
            bad |= s1 != s2 || a.status != b.status ||
                   (a.status == NB_PATH_FOUND &&
                    (a.cell.x != b.cell.x || a.cell.y != b.cell.y || a.cell.x != bc.x ||
                     a.cell.y != bc.y || fabs(a.distance - b.distance) > 1e-12)) ||
                   (a.status != NB_PATH_FOUND && bf);
            if (bad && !wrong++)
                diag("%s: nearest (%d, %d) radius %g size %u reachable %d: world %d/%d (%d, %d) "
                     "(%s), whole %d/%d (%d, %d), brute %d (%d, %d)",
                     l->what, q.point.x, q.point.y, q.radius, q.size, q.reachable, s1, a.status,
                     a.cell.x, a.cell.y, err.msg, s2, b.status, b.cell.x, b.cell.y, bf, bc.x, bc.y);
            found += a.status == NB_PATH_FOUND;
            n++;
        }
        is_int(wrong, 0, "%s: %u nearest queries %s, tiles missing or not: the whole bake's "
                         "answer and the brute force's (%u found, %u exact with tiles missing)",
               l->what, n, blocked ? "with blocks straddling borders" : "(half reachable)", found,
               missing_ok);
    }
    nb_world_unload_cells(l->w, 0, 0, in.width, in.height, NULL);
    free(need);
    nb_world_overlay_close(wov);
    nb_overlay_close(ov);
    nb_place_close(pl);
    nb_world_aa_close(ws);
}

int main(void)
{
    const char *e = getenv("NB_WORLD_EVERY");
    every = e && *e && strcmp(e, "0") != 0;
    const char *tmp = tu_tmpdir();
    int k = 0;
    level l;
    /* The sample level with terrain costs, in tiles of 16 (4 x 3 tiles). */
    const char *d0 = tw_fresh_dir(tmp, "q", &k);
    if (open_level(&l, "sample, costs", tu_src("data/sample.map"), tu_src("data/cost-agents.yaml"), 16, 8,
                   d0, 12)) {
        check_pairs(&l, 150, 1);
        check_unloaded(&l, 2);
        check_nearest(&l, 6);
        check_threads(&l);
        tw_level_close(&l);
        check_no_alloc(d0);
    }
    /* A random level of four terrains, 120 x 100 in tiles of 16. */
    tu_rng r = {0x31aaULL};
    nbb_grid g;
    tu_random_grid(&r, 120, 100, 10, 2, &g);
    const char *map = tu_path(tmp, "random.map");
    tw_write_map(map, &g);
    nbb_grid_free(&g);
    if (open_level(&l, "random 120 x 100", map, tu_src("data/sample-agents.yaml"), 16, 8,
                   tw_fresh_dir(tmp, "q", &k), 16)) {
        check_pairs(&l, 80, 3);
        check_unloaded(&l, 4);
        check_nearest(&l, 7);
        tw_level_close(&l);
    }
    /* Three shared maps, their scenario lines across tile borders. */
    static const struct { const char *map; uint32_t tile; } maps[] = {
        {"maps/dao/brc202d.map", 128}, {"maps/mazes/maze512-4-0.map", 128},
        {"maps/bg/AR0042SR.map", 64}};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        const char *m = tu_shared(maps[i].map);
        if (!m) {
            ok(1, "# SKIP %s: ../shared is not there (the levels above stand in)", maps[i].map);
            continue;
        }
        char scen[512];
        snprintf(scen, sizeof scen, "%s.scen", m);
        if (open_level(&l, maps[i].map, m, tu_src("data/haa-agents.yaml"), maps[i].tile, 16,
                       tw_fresh_dir(tmp, "q", &k), 16)) {
            check_scen(&l, scen);
            check_pairs(&l, 20, 10 + i);
            check_unloaded(&l, 20 + i);
            check_nearest(&l, 30 + i);
            tw_level_close(&l);
        }
    }
    return done_testing();
}
