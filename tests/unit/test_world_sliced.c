/* test_world_sliced.c: the sliced world queries (nb_world_aa_begin/step/
 * finish, nb_world_haa_begin/step/finish) against the finds, on the world
 * tests' shared maps cut into tiles (data/sample.map in 4 x 3 tiles when
 * ../shared is not there).
 *
 * - Every tile loaded: on many random pairs, steps of 1, 7 and unlimited
 *   expansions give find's answer exactly (status, length, cost,
 *   expansions, every cell of the path), with and without blocks
 *   straddling tile borders; finish before the end gives NB_PATH_LIMIT.
 * - No tile loaded: each step that needs a tile returns NB_ERR_UNLOADED
 *   with a list of tiles that are not loaded; the test loads them and steps
 *   again, and the answer is find's on the world with every tile (length
 *   and status); some of those pauses come mid-search (after expansions),
 *   and a search never needs more tiles than find named across its rounds
 *   plus its path's.
 * - A step with no query begun, or after another query took the workspace,
 *   is NB_ERR_ARG. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worldbake.h"

static nb_cell standable(tu_rng *r, const nb_bundle *whole, nb_capability cap)
{
    nb_cell c = {0, 0};
    for (int tries = 0; tries < 500; tries++) {
        c.x = (int32_t)tu_below(r, nb_map_width(whole));
        c.y = (int32_t)tu_below(r, nb_map_height(whole));
        if (nb_can_stand(whole, cap, 1, c.x, c.y) == 1)
            break;
    }
    return c;
}

static void load_all(nb_world *w, const nb_world_info *in)
{
    for (uint32_t y = 0; y < in->rows; y++)
        for (uint32_t x = 0; x < in->columns; x++)
            nb_world_load(w, (nb_world_tile){x, y}, NULL);
}

static void unload_all(nb_world *w, const nb_world_info *in)
{
    for (uint32_t y = 0; y < in->rows; y++)
        for (uint32_t x = 0; x < in->columns; x++)
            nb_world_unload(w, (nb_world_tile){x, y}, NULL);
}

/* A workspace's steps and needed list, for the one loop below. */
typedef struct stepper {
    void *ws;
    nb_status (*step)(void *ws, uint64_t n, int *done, nb_err *err);
    size_t (*needed)(const void *ws, nb_world_tile *t, size_t max);
} stepper;

static nb_status aa_step(void *ws, uint64_t n, int *done, nb_err *err)
{
    return nb_world_aa_step(ws, n, done, err);
}
static size_t aa_needed(const void *ws, nb_world_tile *t, size_t max)
{
    return nb_world_aa_needed(ws, t, max);
}
static nb_status haa_step(void *ws, uint64_t n, int *done, nb_err *err)
{
    return nb_world_haa_step(ws, n, done, err);
}
static size_t haa_needed(const void *ws, nb_world_tile *t, size_t max)
{
    return nb_world_haa_needed(ws, t, max);
}

/* Steps of `slice` until done, the game loading what a step names when load: its pauses in
 * *pauses (*mid: after the first step). */
static nb_status steps(const stepper *sp, nb_world *w, uint64_t slice, int load, int *pauses,
                       int *mid, nb_err *err)
{
    int done = 0, nsteps = 0;
    *pauses = *mid = 0;
    while (!done) {
        if (++nsteps > 50000000)
            return NB_ERR_LIMIT;
        nb_status st = sp->step(sp->ws, slice, &done, err);
        if (st == NB_ERR_UNLOADED && load) {
            nb_world_tile t[4096];
            size_t n = sp->needed(sp->ws, t, 4096);
            if (n == 0 || n > 4096 || ++*pauses > 10000)
                return NB_ERR_LIMIT;
            for (size_t i = 0; i < n; i++)
                if (nb_world_load(w, t[i], err) != NB_OK)
                    return NB_ERR_LIMIT;
            if (nsteps > 1)
                (*mid)++;
            continue;
        }
        if (st != NB_OK)
            return st;
    }
    return NB_OK;
}

/* The sliced world AA*: its result in *res. */
static nb_status aa_sliced(nb_world_aa *ws, nb_world *w, const nb_aa_query *q,
                           const nb_world_overlay *ov, uint64_t slice, int load, nb_aa_result *res,
                           int *pauses, int *mid, nb_err *err)
{
    stepper sp = {ws, aa_step, aa_needed};
    nb_status st = nb_world_aa_begin(ws, q, ov, err);
    if (st == NB_OK)
        st = steps(&sp, w, slice, load, pauses, mid, err);
    return st == NB_OK ? nb_world_aa_finish(ws, res, err) : st;
}

static nb_status haa_sliced(nb_world_haa *ws, nb_world *w, const nb_haa_query *q,
                            const nb_world_overlay *ov, uint64_t slice, int load,
                            nb_haa_result *res, int *pauses, int *mid, nb_err *err)
{
    stepper sp = {ws, haa_step, haa_needed};
    nb_status st = nb_world_haa_begin(ws, q, ov, err);
    if (st == NB_OK)
        st = steps(&sp, w, slice, load, pauses, mid, err);
    return st == NB_OK ? nb_world_haa_finish(ws, res, err) : st;
}

static int aa_same(const nb_aa_result *a, const nb_aa_result *b)
{
    return a->status == b->status && a->length == b->length && a->cost == b->cost &&
           a->expanded == b->expanded && a->searched == b->searched &&
           tu_same_cells(a->path, a->path_len, b->path, b->path_len);
}

static int haa_same(const nb_haa_result *a, const nb_haa_result *b)
{
    return a->status == b->status && a->length == b->length &&
           a->expanded == b->expanded && a->abstract_length == b->abstract_length &&
           tu_same_cells(a->path, a->path_len, b->path, b->path_len);
}

static void check(tw_level *l, int pairs, uint64_t seed)
{
    nb_err err;
    nb_world *w = l->w;
    nb_world_aa *aa = NULL;
    nb_world_haa *haa = NULL;
    nb_world_overlay *ov = NULL;
    nb_overlay *bov = NULL;
    nb_agent ag = *nb_agent_get(l->whole, 0);
    if (!ok(nb_world_aa_open(w, &aa, &err) == NB_OK && nb_world_haa_open(w, &haa, &err) == NB_OK &&
                nb_world_overlay_open(w, &ov, &err) == NB_OK &&
                nb_overlay_open(l->whole, &bov, &err) == NB_OK,
            "%s: workspaces open: %s", l->what, err.msg))
        goto out;
    tu_rng r = {seed};
    static const uint64_t slices[] = {1, 7, UINT64_MAX};
    /* Every tile loaded: the slices give find's answer, cell for cell. */
    load_all(w, &l->in);
    unsigned aa_bad = 0, haa_bad = 0, found = 0, n = 0, limit_bad = 0;
    for (int i = 0; i < pairs; i++) {
        if (i == pairs / 2)
            tw_straddling_blocks(&r, l, ov, bov, 12);
        const nb_world_overlay *o = i >= pairs / 2 ? ov : NULL;
        nb_aa_query q;
        nb_aa_query_init(&q);
        q.size = 1, q.capability = ag.capability;
        q.corner = i % 2 ? NB_CORNER_WEAK : NB_CORNER_STRICT;
        q.start = standable(&r, l->whole, ag.capability);
        q.goal = standable(&r, l->whole, ag.capability);
        nb_aa_result f, s;
        nb_status sf = nb_world_aa_find(aa, &q, o, &f, &err);
        /* find's path is the workspace's until its next query: copied. */
        nb_cell *fp = malloc((f.path_len + 1) * sizeof *fp);
        if (f.path_len)
            memcpy(fp, f.path, f.path_len * sizeof *fp);
        f.path = fp;
        found += f.status == NB_PATH_FOUND;
        n++;
        for (size_t k = 0; k < 3; k++) {
            int pauses, mid;
            nb_status ss = aa_sliced(aa, w, &q, o, slices[k], 0, &s, &pauses, &mid, &err);
            if (ss != sf || !aa_same(&f, &s)) {
                if (aa_bad++ < 3)
                    diag("%s: AA* (%d,%d)-(%d,%d) slice %llu: find %d %d %.4f %llu, sliced %d "
                         "%d %.4f %llu: %s",
                         l->what, q.start.x, q.start.y, q.goal.x, q.goal.y,
                         (unsigned long long)slices[k], sf, f.status, f.length,
                         (unsigned long long)f.expanded, ss, s.status, s.length,
                         (unsigned long long)s.expanded, err.msg);
            }
        }
        free(fp);
        /* Finished before the end: the best partial path so far. */
        if (f.status == NB_PATH_FOUND && f.expanded > 20) {
            int done;
            nb_world_aa_begin(aa, &q, o, &err);
            nb_world_aa_step(aa, 10, &done, &err);
            nb_world_aa_finish(aa, &s, &err);
            if (done || s.status != NB_PATH_LIMIT || s.expanded != 10 || s.path_len < 1 ||
                s.path[0].x != q.start.x || s.path[0].y != q.start.y)
                limit_bad++;
        }
        nb_haa_query hq;
        nb_haa_query_init(&hq);
        hq.start = q.start, hq.goal = q.goal, hq.size = 1, hq.capability = ag.capability;
        hq.flags = i % 3 ? NB_HAA_STRAIGHTEN : 0;
        nb_haa_result hf, hs;
        nb_status hsf = nb_world_haa_find(haa, &hq, o, &hf, &err);
        nb_cell *hp = malloc((hf.path_len + 1) * sizeof *hp);
        if (hf.path_len)
            memcpy(hp, hf.path, hf.path_len * sizeof *hp);
        hf.path = hp;
        for (size_t k = 0; k < 3; k++) {
            int pauses, mid;
            nb_status ss = haa_sliced(haa, w, &hq, o, slices[k], 0, &hs, &pauses, &mid, &err);
            if (ss != hsf || !haa_same(&hf, &hs)) {
                if (haa_bad++ < 3)
                    diag("%s: HAA* (%d,%d)-(%d,%d) slice %llu: find %d %d %.4f %llu, sliced %d "
                         "%d %.4f %llu: %s",
                         l->what, q.start.x, q.start.y, q.goal.x, q.goal.y,
                         (unsigned long long)slices[k], hsf, hf.status, hf.length,
                         (unsigned long long)hf.expanded, ss, hs.status, hs.length,
                         (unsigned long long)hs.expanded, err.msg);
            }
        }
        free(hp);
    }
    ok(aa_bad == 0, "%s: world AA* in slices of 1, 7 and all: find's answer on %u pairs (%u "
                    "found, half under blocks), %u differ", l->what, n, found, aa_bad);
    ok(haa_bad == 0, "%s: world HAA* in slices of 1, 7 and all: find's answer, %u differ",
       l->what, haa_bad);
    ok(limit_bad == 0, "%s: world AA* finished after 10 expansions: NB_PATH_LIMIT from the "
                       "start, %u not", l->what, limit_bad);

    /* Nothing loaded: the game loads what each step names and steps again. */
    nb_world_overlay_unblock(ov, 0, 0, l->in.width, l->in.height, &err);
    unsigned sliced_loads = 0, find_loads = 0, more = 0;
    unsigned wrong = 0, hwrong = 0, mids = 0, hmids = 0, paused = 0, hpaused = 0, listed_bad = 0;
    int m = pairs / 4 > 10 ? pairs / 4 : 10;
    for (int i = 0; i < m; i++) {
        nb_aa_query q;
        nb_aa_query_init(&q);
        q.size = 1, q.capability = ag.capability;
        q.start = standable(&r, l->whole, ag.capability);
        q.goal = standable(&r, l->whole, ag.capability);
        load_all(w, &l->in);
        nb_aa_result f, s;
        nb_status sf = nb_world_aa_find(aa, &q, NULL, &f, &err);
        double flen = f.length;
        nb_path_status fst = f.status;
        unload_all(w, &l->in);
        /* find in rounds: load what it names, ask again. */
        unsigned frounds_loaded = 0;
        for (int round = 0; round < 1000; round++) {
            if (nb_world_aa_find(aa, &q, NULL, &f, &err) != NB_ERR_UNLOADED)
                break;
            nb_world_tile t[256];
            size_t k = nb_world_aa_needed(aa, t, 256);
            for (size_t j = 0; j < k && j < 256; j++)
                frounds_loaded += nb_world_load(w, t[j], NULL) == NB_OK;
        }
        unload_all(w, &l->in);
        nb_world_info before;
        nb_world_describe(w, &before);
        int pauses, mid;
        nb_status ss = aa_sliced(aa, w, &q, NULL, i % 2 ? 7 : UINT64_MAX, 1, &s, &pauses, &mid,
                                 &err);
        nb_world_info after;
        nb_world_describe(w, &after);
        sliced_loads += after.loaded - before.loaded;
        find_loads += frounds_loaded;
        more += after.loaded - before.loaded > frounds_loaded;
        if (ss != sf || s.status != fst || fabs(s.length - flen) > 1e-9) {
            if (wrong++ < 3)
                diag("%s: AA* loading as asked (%d,%d)-(%d,%d): find %d %d %.4f, sliced %d %d "
                     "%.4f: %s",
                     l->what, q.start.x, q.start.y, q.goal.x, q.goal.y, sf, fst, flen, ss,
                     s.status, s.length, err.msg);
        }
        paused += pauses > 0;
        mids += mid;
        /* A step's list names tiles not loaded. */
        unload_all(w, &l->in);
        nb_world_load(w, (nb_world_tile){(uint32_t)q.start.x / l->in.tile,
                                         (uint32_t)q.start.y / l->in.tile}, NULL);
        nb_world_load(w, (nb_world_tile){(uint32_t)q.goal.x / l->in.tile,
                                         (uint32_t)q.goal.y / l->in.tile}, NULL);
        int done = 0;
        if (nb_world_aa_begin(aa, &q, NULL, &err) == NB_OK) {
            while (!done) {
                nb_status st = nb_world_aa_step(aa, 64, &done, &err);
                if (st == NB_ERR_UNLOADED) {
                    nb_world_tile t[4];
                    size_t k = nb_world_aa_needed(aa, t, 4);
                    for (size_t j = 0; j < k && j < 4; j++)
                        listed_bad += nb_world_loaded(w, t[j]) != 0;
                    listed_bad += k == 0 || k > 3;
                    break;
                }
                if (st != NB_OK)
                    break;
            }
            nb_world_aa_finish(aa, &s, &err);
        }

        nb_haa_query hq;
        nb_haa_query_init(&hq);
        hq.start = q.start, hq.goal = q.goal, hq.size = 1, hq.capability = ag.capability;
        hq.flags = NB_HAA_STRAIGHTEN;
        load_all(w, &l->in);
        nb_haa_result hf, hs;
        nb_status hsf = nb_world_haa_find(haa, &hq, NULL, &hf, &err);
        double hlen = hf.length;
        nb_path_status hst = hf.status;
        unload_all(w, &l->in);
        ss = haa_sliced(haa, w, &hq, NULL, i % 2 ? 7 : UINT64_MAX, 1, &hs, &pauses, &mid, &err);
        hmids += mid;
        if (ss != hsf || hs.status != hst || fabs(hs.length - hlen) > 1e-9) {
            if (hwrong++ < 3)
                diag("%s: HAA* loading as asked (%d,%d)-(%d,%d): find %d %d %.4f, sliced %d %d "
                     "%.4f: %s",
                     l->what, q.start.x, q.start.y, q.goal.x, q.goal.y, hsf, hst, hlen, ss,
                     hs.status, hs.length, err.msg);
        }
        hpaused += pauses > 0;
    }
    ok(wrong == 0 && paused > 0 && mids > 0,
       "%s: world AA* from no tile loaded, loading what each step names: find's length on %d "
       "pairs (%u differ; %u paused, %u pauses mid-search)", l->what, m, wrong, paused, mids);
    ok(more == 0, "%s: the sliced search loads no more tiles than find asked for in rounds "
                  "(%u tiles against %u; more on %u queries)", l->what, sliced_loads, find_loads,
       more);
    ok(listed_bad == 0, "%s: a step's needed tiles are 1 to 3 tiles not loaded (%u not)", l->what,
       listed_bad);
    ok(hwrong == 0 && hpaused > 0 && hmids > 0,
       "%s: world HAA* from no tile loaded, loading what each step names: find's length (%u "
       "differ; %u paused, %u pauses after the first step)", l->what, hwrong, hpaused, hmids);

    /* Misuse. */
    load_all(w, &l->in);
    int done;
    is_int(nb_world_aa_step(aa, 1, &done, &err), NB_ERR_ARG, "%s: a step with no query begun: "
           "NB_ERR_ARG (%s)", l->what, err.msg);
    is_int(nb_world_haa_step(haa, 1, &done, &err), NB_ERR_ARG,
           "%s: a world HAA* step with no query begun: NB_ERR_ARG (%s)", l->what, err.msg);
    {
        nb_aa_query q;
        nb_aa_query_init(&q);
        q.size = 1, q.capability = ag.capability;
        q.start = standable(&r, l->whole, ag.capability);
        q.goal = standable(&r, l->whole, ag.capability);
        nb_world_aa_begin(aa, &q, NULL, &err);
        nb_nearest_query nq;
        nb_nearest_query_init(&nq);
        nq.size = 1, nq.capability = ag.capability, nq.point = q.start;
        nb_nearest_result nr;
        nb_world_nearest_find(aa, &nq, NULL, &nr, &err);
        is_int(nb_world_aa_step(aa, 1, &done, &err), NB_ERR_ARG,
               "%s: a step after a nearest query on the workspace: NB_ERR_ARG (%s)", l->what,
               err.msg);
    }
    /* A workspace closed in the middle of a sliced query lets its tiles go. */
    {
        nb_world_aa *mid_ws = NULL;
        nb_aa_query q;
        nb_aa_query_init(&q);
        q.size = 1, q.capability = ag.capability;
        q.start = standable(&r, l->whole, ag.capability);
        q.goal = standable(&r, l->whole, ag.capability);
        /* Ends a long way apart, joined: the search is still running after 3 nodes. */
        nb_aa_result f;
        for (int tries = 0; tries < 200; tries++) {
            q.start = standable(&r, l->whole, ag.capability);
            q.goal = standable(&r, l->whole, ag.capability);
            if (nb_world_aa_find(aa, &q, NULL, &f, &err) == NB_OK && f.status == NB_PATH_FOUND &&
                f.expanded > 10)
                break;
        }
        done = 1;
        if (nb_world_aa_open(w, &mid_ws, &err) == NB_OK &&
            nb_world_aa_begin(mid_ws, &q, NULL, &err) == NB_OK)
            nb_world_aa_step(mid_ws, 3, &done, &err);
        ok(!done, "%s: a sliced query 3 nodes in (closed then)", l->what);
        nb_world_aa_close(mid_ws);
    }
    /* No tile held once the queries end: every tile unloads and unmaps. */
    unload_all(w, &l->in);
    nb_world_info in;
    nb_world_describe(w, &in);
    ok(in.retired == 0 && in.loaded == 0,
       "%s: no tile held by a query that ended (%llu retired)", l->what,
       (unsigned long long)in.retired);
out:
    nb_overlay_close(bov);
    nb_world_overlay_close(ov);
    nb_world_haa_close(haa);
    nb_world_aa_close(aa);
}

int main(void)
{
    const char *tmp = tu_tmpdir();
    static const struct { const char *map; uint32_t tile; } maps[] = {
        {"maps/dao/brc202d.map", 128}, {"maps/mazes/maze512-4-0.map", 128},
        {"maps/bg/AR0042SR.map", 64}};
    int any = 0, k = 0;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        const char *map = tu_shared(maps[i].map);
        if (!map)
            continue;
        any = 1;
        tw_level l;
        if (tw_level_open(&l, maps[i].map, map, tu_src("data/haa-agents.yaml"), maps[i].tile, 16,
                          tw_fresh_dir(tmp, "s", &k))) {
            check(&l, 50, 0x511ced + i);
            tw_level_close(&l);
        }
    }
    if (!any) {
        tw_level l;
        if (tw_level_open(&l, "data/sample.map", tu_src("data/sample.map"),
                          tu_src("data/sample-agents.yaml"), 16, 8, tw_fresh_dir(tmp, "s", &k))) {
            check(&l, 120, 0x511ced);
            tw_level_close(&l);
        }
    }
    return done_testing();
}
