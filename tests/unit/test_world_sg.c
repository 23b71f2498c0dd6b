/* test_world_sg.c: the optimal layer across a world's tiles as the bake
 * and the public query make it: the manifest's `optimal: 1`, the tile
 * action's border_opt, the link's world_opt, nb_world_sg_find; against
 * Annotated A* on the same map baked whole (an independent search), on
 * brc202d, maze512-4-0 and AR0042SR cut into 4 x 4 tiles or more
 * (data/sample.map in 4 x 3 tiles of 16 when ../shared is not there).
 *
 * - Every scenario line (NB_WORLD_EVERY=1; else an even choice of at most
 *   600 a map) and random pairs: the whole bake's length, or no path
 *   exactly when it finds none; every path from start to goal, each step a
 *   move the agent may make on the whole bake under the corner rule, its
 *   moves' costs adding up to the length.
 * - From no tile loaded: the first answer is NB_ERR_UNLOADED naming the
 *   ends' tiles; loading what each answer names ends with the path of the
 *   world with every tile loaded, every tile loaded holding a cell of it;
 *   with a loader and a budget the query loads them itself.
 * - The sliced form (nb_world_sg_begin/step/finish): slices of 1, 7 and
 *   no limit give find's answer exactly; finish before the end gives the
 *   start alone; from no tile loaded, loading what each step names (some
 *   pauses after the search began) gives find's path.
 * - The landmarks the link stores: each portal's distance from each is a
 *   plain Dijkstra's over the portal graph (rows unpacked, moves between
 *   tiles).
 * - Under world overlays of 1 to 20 rectangles (1 x 1 to 20 x 20 cells,
 *   each over a tile border or a corner of four tiles): every pair's
 *   status and length those of Annotated A* on the whole bake under an
 *   nb_overlay of the same rectangles, every path legal on the map as that
 *   overlay leaves it; the same query again (the edited tiles' rows kept)
 *   and in slices of 7 give the same answer; every row of every tile the
 *   overlay edits, as the query makes it (the stored distances the
 *   overlay leaves kept, the others searched again), equals a search of
 *   the whole tile under the overlay, and some of each kind are made.
 * - One world overlay edited version after version (rectangles over tile
 *   borders blocked, some of them unblocked again), the same workspace
 *   asked at each: every answer Annotated A*'s under the cells of that
 *   version (nothing of an edited tile kept from the version before).
 * - The world_opt section damaged in crafted ways: each refused naming
 *   what is wrong; a query the layer cannot honour refused by status. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stream/opt_edit.h"
#include "stream/opt_world.h"
#include "worldbake.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct lvl {
    const char *what, *dir;
    tw_world wd;
    nb_bundle *whole;
    nb_world *w; /* every tile loaded */
    nb_world_info in;
    nb_capability cap;
} lvl;

/* Cuts map into tiles with `optimal: 1`, bakes, links, opens with every tile loaded. */
static int lvl_open(lvl *l, const char *what, const char *map_, const char *agents_,
                    uint32_t tile, const char *dir)
{
    nb_err err;
    memset(l, 0, sizeof *l);
    /* tu_path's buffers rotate: the level's own copies. */
    static char map[4096], agents[4096];
    snprintf(map, sizeof map, "%s", map_);
    snprintf(agents, sizeof agents, "%s", agents_);
    l->what = what, l->dir = dir;
    if (!ok(nbb_world_cut(map, NULL, agents, tile, tile >= 64 ? 16 : 8, dir, 2, NULL, NULL, NULL,
                          &err) == NB_OK,
            "%s: cut: %s", what, err.msg))
        return 0;
    FILE *f = fopen(tu_path(dir, "world.yaml"), "a");
    fputs("optimal: 1\n", f);
    fclose(f);
    double t0 = now();
    if (!ok(tw_bake_world(dir, 0, &l->wd, &err), "%s: baked and linked with optimal: 1: %s", what,
            err.msg))
        return 0;
    diag("%s: tiles and link %.2f s", what, now() - t0);
    l->whole = tw_whole_bake(map, NULL, agents);
    if (!ok(l->whole && nb_world_open(tu_path(dir, "world.nbw"), NULL, 0, NULL, &l->w, &err) ==
                            NB_OK,
            "%s: the world opens: %s", what, err.msg))
        return 0;
    nb_world_describe(l->w, &l->in);
    for (uint32_t r = 0; r < l->in.rows; r++)
        for (uint32_t c = 0; c < l->in.columns; c++)
            if (nb_world_load(l->w, (nb_world_tile){c, r}, &err) != NB_OK)
                return ok(0, "%s: tile (%u, %u) loads: %s", what, c, r, err.msg);
    l->cap = nb_agent_get(l->whole, 0)->capability;
    size_t n = 0;
    for (size_t i = 0; i < nb_bundle_section_count(l->wd.index); i++)
        n += nb_bundle_section_get(l->wd.index, i)->type == NB_SEC_WORLD_OPT;
    return ok(n > 0, "%s: the world bundle holds %zu world_opt sections", what, n);
}

static void lvl_close(lvl *l)
{
    nb_world_close(l->w);
    nb_bundle_close(l->whole);
    tw_world_close(&l->wd);
}

static uint32_t tile_no(const lvl *l, nb_cell c)
{
    return (uint32_t)c.y / l->in.tile * l->in.columns + (uint32_t)c.x / l->in.tile;
}

/* Annotated A*'s status on the whole bake under ov (NULL: none), its length in *len. */
static nb_path_status aa_of(nb_aa *aa, nb_capability cap, uint32_t size, nb_cell s, nb_cell g,
                            const nb_overlay *ov, double *len)
{
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.start = s, q.goal = g, q.size = size, q.capability = cap, q.overlay = ov;
    nb_aa_result r;
    nb_err err;
    *len = -1;
    if (nb_aa_find(aa, &q, &r, &err) != NB_OK)
        return (nb_path_status)-3;
    if (r.status == NB_PATH_FOUND)
        *len = r.length;
    return r.status;
}

static double aa_length(nb_aa *aa, nb_capability cap, uint32_t size, nb_cell s, nb_cell g)
{
    double len;
    return aa_of(aa, cap, size, s, g, NULL, &len) == (nb_path_status)-3 ? -3 : len;
}

/* 1 when the agent stands at (x, y) on the whole bake as ov leaves it (NULL: none). */
static int stands(const lvl *l, const nb_overlay *ov, uint32_t size, long x, long y)
{
    return ov ? nb_overlay_can_stand(ov, l->cap, size, x, y) == 1
              : nb_can_stand(l->whole, l->cap, size, x, y) == 1;
}

/* 0 unless path[0..n) walks from s to g by legal strict moves of an agent
 * of size on the whole bake as ov leaves it, costing length. */
static int legal_under(const lvl *l, const nb_overlay *ov, uint32_t size, const nb_cell *p,
                       size_t n, nb_cell s, nb_cell g, double length)
{
    if (!n || p[0].x != s.x || p[0].y != s.y || p[n - 1].x != g.x || p[n - 1].y != g.y)
        return 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (!stands(l, ov, size, p[i].x, p[i].y))
            return 0;
        if (!i)
            continue;
        int dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
        if (abs(dx) > 1 || abs(dy) > 1 || (!dx && !dy))
            return 0;
        if (dx && dy &&
            (!stands(l, ov, size, p[i - 1].x + dx, p[i - 1].y) ||
             !stands(l, ov, size, p[i - 1].x, p[i - 1].y + dy)))
            return 0;
        sum += dx && dy ? M_SQRT2 : 1;
    }
    return fabs(sum - length) < 1e-6;
}

static int legal(const lvl *l, uint32_t size, const nb_cell *p, size_t n, nb_cell s, nb_cell g,
                 double length)
{
    return legal_under(l, NULL, size, p, n, s, g, length);
}

static nb_sg_query query(const lvl *l, uint32_t size, nb_cell s, nb_cell g)
{
    nb_sg_query q;
    nb_sg_query_init(&q);
    q.start = s, q.goal = g, q.size = size, q.capability = l->cap;
    return q;
}

/* One pair: the world's answer against the whole bake's; 0 when wrong. */
static int one(const lvl *l, nb_world_sg *ws, nb_aa *aa, uint32_t size, nb_cell s, nb_cell g,
               double *t_sg, uint64_t *settled)
{
    nb_sg_query q = query(l, size, s, g);
    nb_sg_result r;
    nb_err err;
    double t0 = now();
    nb_status st = nb_world_sg_find(ws, &q, NULL, &r, &err);
    *t_sg += now() - t0;
    *settled += r.expanded;
    double want = aa_length(aa, l->cap, size, s, g);
    if (st != NB_OK) {
        diag("%s: (%d, %d) to (%d, %d): %s", l->what, s.x, s.y, g.x, g.y, err.msg);
        return 0;
    }
    if (want < 0)
        return r.status == NB_PATH_NONE || want == -3;
    return r.status == NB_PATH_FOUND && fabs(r.length - want) < 1e-6 &&
           legal(l, size, r.path, r.path_len, s, g, r.length);
}

static void check_scen(const lvl *l, nb_world_sg *ws, nb_aa *aa, const char *scen_path)
{
    nbb_scen scen;
    nb_err err;
    if (!ok(nbb_scen_read(scen_path, &scen, &err) == NB_OK, "%s: scenarios read: %s", l->what,
            err.msg))
        return;
    const char *e = getenv("NB_WORLD_EVERY");
    size_t step = e && *e && strcmp(e, "0") != 0 ? 1 : scen.count / 600 + 1;
    size_t checked = 0, crossing = 0, wrong = 0;
    double t_sg = 0;
    uint64_t settled = 0;
    for (size_t i = 0; i < scen.count; i += step) {
        const nbb_scen_line *sl = &scen.lines[i];
        checked++;
        crossing += tile_no(l, sl->start) != tile_no(l, sl->goal);
        if (!one(l, ws, aa, 1, sl->start, sl->goal, &t_sg, &settled) && !wrong++)
            diag("%s: scenario line %u, (%d, %d) to (%d, %d): not the whole bake's length or not "
                 "a legal path of it",
                 l->what, sl->line, sl->start.x, sl->start.y, sl->goal.x, sl->goal.y);
    }
    ok(crossing >= checked / 2, "%s: %zu of %zu scenario lines checked (of %zu) cross tile borders",
       l->what, crossing, checked, scen.count);
    is_int(wrong, 0, "%s: every scenario line: the whole bake's AA* length, a legal path of it",
           l->what);
    diag("%s: %.1f us a query, %.0f portals settled", l->what, 1e6 * t_sg / (double)checked,
         (double)settled / (double)checked);
    nbb_scen_free(&scen);
}

static nb_cell standing(tu_rng *r, const lvl *l, uint32_t size)
{
    nb_cell c = {0, 0};
    for (int t = 0; t < 500; t++) {
        c = (nb_cell){(int32_t)tu_below(r, l->in.width), (int32_t)tu_below(r, l->in.height)};
        if (nb_can_stand(l->whole, l->cap, size, c.x, c.y) == 1)
            break;
    }
    return c;
}

static void check_pairs(const lvl *l, nb_world_sg *ws, nb_aa *aa, uint32_t size, int pairs)
{
    tu_rng r = {0x5e9 + size};
    int wrong = 0;
    double t = 0;
    uint64_t settled = 0;
    for (int i = 0; i < pairs; i++) {
        nb_cell s = standing(&r, l, size), g = standing(&r, l, size);
        if (i % 4 == 0) /* in one tile, where the path may leave it */
            for (int k = 0; k < 100; k++) {
                nb_cell c = {(int32_t)(s.x / l->in.tile * l->in.tile + tu_below(&r, l->in.tile)),
                             (int32_t)(s.y / l->in.tile * l->in.tile + tu_below(&r, l->in.tile))};
                if ((uint32_t)c.x < l->in.width && (uint32_t)c.y < l->in.height &&
                    nb_can_stand(l->whole, l->cap, size, c.x, c.y) == 1) {
                    g = c;
                    break;
                }
            }
        if (!one(l, ws, aa, size, s, g, &t, &settled) && !wrong++)
            diag("%s: size %u: (%d, %d) to (%d, %d) wrong", l->what, size, s.x, s.y, g.x, g.y);
    }
    is_int(wrong, 0, "%s: size %u: %d random pairs, each the whole bake's answer and a legal path",
           l->what, size, pairs);
}

/* From no tile loaded: what each answer names, loaded, until the path. */
static void check_unloaded(const lvl *l, nb_world_sg *full, uint64_t seed)
{
    tu_rng r = {seed};
    nb_err err;
    int rounds = 0, first_right = 0, same = 0, loaded_on_path = 0, tried = 0;
    for (int i = 0; i < 12; i++) {
        nb_cell s = standing(&r, l, 1), g = standing(&r, l, 1);
        nb_sg_query q = query(l, 1, s, g);
        nb_sg_result want, got;
        if (nb_world_sg_find(full, &q, NULL, &want, &err) != NB_OK ||
            want.status != NB_PATH_FOUND)
            continue;
        size_t wn = want.path_len;
        nb_cell *wp = malloc(wn * sizeof *wp);
        memcpy(wp, want.path, wn * sizeof *wp);
        tried++;
        nb_world *w;
        nb_world_sg *ws;
        if (nb_world_open(tu_path(l->dir, "world.nbw"), NULL, 0, NULL, &w, &err) != NB_OK ||
            nb_world_sg_open(w, &ws, &err) != NB_OK) {
            free(wp);
            break;
        }
        nb_status st;
        int k = 0;
        while ((st = nb_world_sg_find(ws, &q, NULL, &got, &err)) == NB_ERR_UNLOADED && k++ < 64) {
            nb_world_tile need[64];
            size_t n = nb_world_sg_needed(ws, need, 64);
            if (k == 1) {
                uint32_t a = tile_no(l, s), b = tile_no(l, g);
                size_t want_n = a == b ? 1 : 2;
                int has_a = 0, has_b = 0;
                for (size_t j = 0; j < n; j++) {
                    has_a |= need[j].row * l->in.columns + need[j].column == a;
                    has_b |= need[j].row * l->in.columns + need[j].column == b;
                }
                first_right += n == want_n && has_a && has_b;
            }
            for (size_t j = 0; j < n && j < 64; j++)
                nb_world_load(w, need[j], &err);
        }
        rounds += k;
        if (st == NB_OK && got.status == NB_PATH_FOUND && got.path_len == wn &&
            fabs(got.length - want.length) < 1e-9 && !memcmp(got.path, wp, wn * sizeof *wp))
            same++;
        /* Every tile loaded holds a cell of the path. */
        int all_on = 1;
        for (uint32_t t = 0; t < l->in.columns * l->in.rows; t++) {
            if (!nb_world_loaded(w, (nb_world_tile){t % l->in.columns, t / l->in.columns}))
                continue;
            int on = 0;
            for (size_t j = 0; j < wn && !on; j++)
                on = tile_no(l, wp[j]) == t;
            all_on &= on;
        }
        loaded_on_path += all_on;
        nb_world_sg_close(ws);
        nb_world_close(w);
        free(wp);
    }
    ok(tried >= 6, "%s: %d pairs with paths from no tile loaded", l->what, tried);
    is_int(first_right, tried, "%s: the first answer names the ends' tiles, no more", l->what);
    is_int(same, tried, "%s: loading what each answer names ends with the path of the world "
                        "with every tile loaded (%d rounds)", l->what, rounds);
    is_int(loaded_on_path, tried, "%s: ... every tile it needed holding a cell of the path",
           l->what);
}

/* begin, steps of slice (the game loading what a step names when w is
 * not NULL), finish; *pauses counts NB_ERR_UNLOADED steps, *mid those
 * after the first step (the ends joined, the search begun). */
static nb_status sliced_under(nb_world_sg *ws, nb_world *w, const nb_sg_query *q,
                              const nb_world_overlay *ov, uint64_t slice, nb_sg_result *res,
                              int *pauses, int *mid, nb_err *err)
{
    nb_status st = nb_world_sg_begin(ws, q, ov, err);
    int done = 0, n = 0;
    while (st == NB_OK && !done && n++ < 10000000) {
        st = nb_world_sg_step(ws, slice, &done, err);
        if (st == NB_ERR_UNLOADED && w) {
            nb_world_tile need[64];
            size_t k = nb_world_sg_needed(ws, need, 64);
            for (size_t j = 0; j < k && j < 64; j++)
                if (nb_world_loaded(w, need[j]) || nb_world_load(w, need[j], err) != NB_OK) {
                    snprintf(err->msg, sizeof err->msg, "tile (%u, %u) named, loaded or not "
                             "loading", need[j].column, need[j].row);
                    return NB_ERR_MISMATCH;
                }
            ++*pauses;
            *mid += n > 1;
            st = NB_OK;
        }
    }
    return st == NB_OK ? nb_world_sg_finish(ws, res, err) : st;
}

static nb_status sliced(nb_world_sg *ws, nb_world *w, const nb_sg_query *q, uint64_t slice,
                        nb_sg_result *res, int *pauses, int *mid, nb_err *err)
{
    return sliced_under(ws, w, q, NULL, slice, res, pauses, mid, err);
}

static int same_result(const nb_sg_result *a, const nb_sg_result *b)
{
    return a->status == b->status && a->length == b->length && a->cost == b->cost &&
           a->expanded == b->expanded && a->path_len == b->path_len &&
           a->waypoint_len == b->waypoint_len && a->searched == b->searched &&
           (!a->path_len || !memcmp(a->path, b->path, a->path_len * sizeof *a->path)) &&
           (!a->waypoint_len ||
            !memcmp(a->waypoints, b->waypoints, a->waypoint_len * sizeof *a->waypoints));
}

/* The sliced form against find: slices of 1, 7 and no limit give find's
 * answer exactly; finish before the end the start alone; from no tile
 * loaded, loading what each step names gives find's path; steps with no
 * query begun refused. */
static void check_sliced(const lvl *l, nb_world_sg *ws, int pairs)
{
    tu_rng r = {0x511ced};
    nb_err err;
    static const uint64_t slices[] = {1, 7, UINT64_MAX};
    int wrong[3] = {0, 0, 0}, early = 0, early_ok = 0, tried = 0, same = 0, pauses = 0, mid = 0;
    nb_cell *keep = NULL;
    size_t cap = 0;
    for (int i = 0; i < pairs; i++) {
        nb_cell s = standing(&r, l, 1), g = standing(&r, l, 1);
        if (i % 5 == 0)
            g = s; /* the same cell: answered without a search */
        nb_sg_query q = query(l, 1, s, g);
        if (i % 7 == 3)
            q.max_expansions = 5; /* stopped by the query's own limit */
        nb_sg_result want, got;
        if (nb_world_sg_find(ws, &q, NULL, &want, &err) != NB_OK)
            continue;
        if (want.path_len > cap) {
            cap = want.path_len;
            keep = realloc(keep, cap * sizeof *keep);
        }
        nb_sg_result w0 = want;
        if (want.path_len) {
            memcpy(keep, want.path, want.path_len * sizeof *keep);
            w0.path = keep;
        }
        w0.waypoints = NULL, w0.waypoint_len = 0; /* compared through the path */
        for (int k = 0; k < 3; k++) {
            int p = 0, m = 0;
            nb_status st = sliced(ws, NULL, &q, slices[k], &got, &p, &m, &err);
            got.waypoints = NULL, got.waypoint_len = 0;
            if (st != NB_OK || !same_result(&got, &w0)) {
                if (!wrong[k]++)
                    diag("%s: (%d, %d) to (%d, %d) in slices of %llu: not find's answer (%s)",
                         l->what, s.x, s.y, g.x, g.y, (unsigned long long)slices[k],
                         st != NB_OK ? err.msg : "differs");
            }
        }
        /* Finished after 3 settled portals, before the end. */
        if (want.status == NB_PATH_FOUND && want.expanded > 3) {
            int done = 0;
            early++;
            if (nb_world_sg_begin(ws, &q, NULL, &err) == NB_OK &&
                nb_world_sg_step(ws, 3, &done, &err) == NB_OK && !done &&
                nb_world_sg_finish(ws, &got, &err) == NB_OK && got.status == NB_PATH_LIMIT &&
                got.path_len == 1 && got.path[0].x == s.x && got.path[0].y == s.y &&
                got.expanded == 3)
                early_ok++;
        }
        /* From no tile loaded, in slices of 5. */
        if (want.status == NB_PATH_FOUND && i % 3 == 0 && q.max_expansions == 0) {
            nb_world *w;
            nb_world_sg *fresh;
            if (nb_world_open(tu_path(l->dir, "world.nbw"), NULL, 0, NULL, &w, &err) != NB_OK)
                continue;
            if (nb_world_sg_open(w, &fresh, &err) == NB_OK) {
                tried++;
                if (sliced(fresh, w, &q, 5, &got, &pauses, &mid, &err) == NB_OK &&
                    got.path_len == w0.path_len && got.length == w0.length &&
                    !memcmp(got.path, keep, w0.path_len * sizeof *keep))
                    same++;
                nb_world_sg_close(fresh);
            }
            nb_world_close(w);
        }
    }
    for (int k = 0; k < 3; k++)
        is_int(wrong[k], 0, "%s: %d pairs in slices of %llu: find's answer exactly (status, length, "
               "portals settled, every cell)", l->what, pairs, (unsigned long long)slices[k]);
    ok(early > 0 && early_ok == early, "%s: finished after 3 portals: NB_PATH_LIMIT, the start "
       "alone (%d of %d)", l->what, early_ok, early);
    ok(tried > 0 && same == tried, "%s: from no tile loaded, loading what each step names: "
       "find's path (%d of %d; %d pauses, %d after the search began)", l->what, same, tried,
       pauses, mid);
    ok(mid > 0, "%s: some steps paused for tiles after the search began (%d)", l->what, mid);
    /* No query begun: step and finish refused. */
    int done;
    nb_sg_result res;
    is_int(nb_world_sg_step(ws, 1, &done, &err), NB_ERR_ARG, "%s: a step with no query begun",
           l->what);
    is_int(nb_world_sg_finish(ws, &res, &err), NB_ERR_ARG, "%s: finish with no query begun",
           l->what);
    free(keep);
}

/* A world overlay and its twin on the whole bake, both empty; 0 (a
 * failed check said) when either does not open. */
static int overlays_open(const lvl *l, nb_world_overlay **wov, nb_overlay **ov)
{
    nb_err err;
    *wov = NULL, *ov = NULL;
    if (nb_world_overlay_open(l->w, wov, &err) == NB_OK &&
        nb_overlay_open(l->whole, ov, &err) == NB_OK)
        return 1;
    ok(0, "%s: overlays open: %s", l->what, err.msg);
    nb_world_overlay_close(*wov);
    return 0;
}

/* n rectangles of 1 x 1 to 20 x 20 cells over tile borders (a vertical
 * one, a horizontal one, or a corner of four tiles, in turn), blocked in
 * wov and ov alike; a cell beside each in near[]. */
static void block_rects(const lvl *l, tu_rng *r, int n, nb_world_overlay *wov, nb_overlay *ov,
                        nb_cell *near)
{
    nb_err err;
    long W = l->in.width, H = l->in.height, T = l->in.tile;
    for (int i = 0; i < n; i++) {
        long w = 1 + (long)tu_below(r, 20), h = 1 + (long)tu_below(r, 20);
        long x = (long)tu_below(r, (uint32_t)(W - w)), y = (long)tu_below(r, (uint32_t)(H - h));
        /* Over a border at b: from b - w + 1 to b - 1 (a 1-cell side touches it). */
        if (i % 3 != 1)
            x = T * (1 + (long)tu_below(r, l->in.columns - 1)) - 1 -
                (long)tu_below(r, w > 1 ? (uint32_t)(w - 1) : 1u);
        if (i % 3 != 0)
            y = T * (1 + (long)tu_below(r, l->in.rows - 1)) - 1 -
                (long)tu_below(r, h > 1 ? (uint32_t)(h - 1) : 1u);
        /* Every fourth starts on a border's far side, all in the next tile:
         * only an agent's square from the tile before reaches it. */
        if (i % 4 == 3 && i % 3 != 1)
            x = T * (1 + (long)tu_below(r, l->in.columns - 1));
        if (i % 4 == 3 && i % 3 != 0)
            y = T * (1 + (long)tu_below(r, l->in.rows - 1));
        x = x < 0 ? 0 : x + w > W ? W - w : x;
        y = y < 0 ? 0 : y + h > H ? H - h : y;
        nb_world_overlay_block(wov, x, y, w, h, &err);
        nb_overlay_block(ov, x, y, w, h, &err);
        near[i] = (nb_cell){(int32_t)(x + (long)tu_below(r, (uint32_t)w)),
                            (int32_t)(y + (long)tu_below(r, (uint32_t)h))};
    }
}

/* A cell the agent stands on (without the overlay) within 24 cells of c,
 * or a random one. */
static nb_cell standing_near(tu_rng *r, const lvl *l, uint32_t size, nb_cell c)
{
    for (int k = 0; k < 200; k++) {
        nb_cell d = {c.x - 24 + (int32_t)tu_below(r, 49), c.y - 24 + (int32_t)tu_below(r, 49)};
        if (d.x >= 0 && d.y >= 0 && nb_can_stand(l->whole, l->cap, size, d.x, d.y) == 1)
            return d;
    }
    return standing(r, l, size);
}

/* The world optimal query q under wov against Annotated A* on the whole
 * bake under ov (the same cells): the same status, and when found the same
 * length and a path legal on the map ov leaves.  A*'s status and length,
 * and the query's own status, for the caller's message. */
static int agrees_under(const lvl *l, nb_world_sg *ws, nb_aa *aa, const nb_sg_query *q,
                        const nb_world_overlay *wov, const nb_overlay *ov, nb_sg_result *res,
                        nb_path_status *want_st, double *want, nb_status *st, nb_err *err)
{
    *want_st = aa_of(aa, l->cap, q->size, q->start, q->goal, ov, want);
    *st = nb_world_sg_find(ws, q, wov, res, err);
    return *st == NB_OK && res->status == *want_st &&
           (*want_st != NB_PATH_FOUND ||
            (fabs(res->length - *want) < 1e-6 &&
             legal_under(l, ov, q->size, res->path, res->path_len, q->start, q->goal,
                         res->length)));
}

/* Under world overlays: each pair against Annotated A* on the whole bake
 * under the same cells (status, length, a legal path on the map the overlay
 * leaves), again from the kept rows, and in slices of 7. */
static void check_overlays(const lvl *l, nb_world_sg *ws, nb_aa *aa, uint32_t size, int rounds,
                           int pairs)
{
    tu_rng r = {0x0e5 + size};
    nb_err err;
    int asked = 0, wrong = 0, again_wrong = 0, slice_wrong = 0, longer = 0, blocked_end = 0,
        found = 0, rows_failed = 0, rounded = 0;
    nbi_wsg_rows rows = {0, 0, 0, 0, 0};
    for (int round = 0; round < rounds; round++) {
        nb_world_overlay *wov = NULL;
        nb_overlay *ov = NULL;
        if (!overlays_open(l, &wov, &ov))
            return;
        nb_cell near[20];
        int n = 1 + (int)tu_below(&r, 20);
        block_rects(l, &r, n, wov, ov, near);
        for (int i = 0; i < pairs; i++) {
            nb_cell s, g;
            if (i % 2) {
                s = standing_near(&r, l, size, near[tu_below(&r, (uint32_t)n)]);
                g = i % 4 == 1 ? standing_near(&r, l, size, near[tu_below(&r, (uint32_t)n)])
                               : standing(&r, l, size);
            } else {
                s = standing(&r, l, size), g = standing(&r, l, size);
            }
            nb_sg_query q = query(l, size, s, g);
            nb_sg_result res, again, cut;
            double want, plain;
            nb_path_status ws_;
            nb_status st;
            int right = agrees_under(l, ws, aa, &q, wov, ov, &res, &ws_, &want, &st, &err);
            aa_of(aa, l->cap, size, s, g, NULL, &plain);
            asked++;
            if (!right && !wrong++)
                diag("%s: size %u, %d rectangles: (%d, %d) to (%d, %d): status %d length %g, "
                     "whole AA* status %d length %g (%s)",
                     l->what, size, n, s.x, s.y, g.x, g.y, (int)res.status, res.length, (int)ws_,
                     want, st != NB_OK ? err.msg : "");
            found += ws_ == NB_PATH_FOUND;
            longer += ws_ == NB_PATH_FOUND && plain >= 0 && want > plain + 1e-6;
            longer += ws_ == NB_PATH_NONE && plain >= 0;
            blocked_end += ws_ == NB_PATH_START_BLOCKED || ws_ == NB_PATH_GOAL_BLOCKED;
            double len0 = res.length;
            nb_path_status st0 = res.status;
            /* The same length up to rounding: the lazy rows (world_sg.c)
             * may settle another path of it, summed in another order. */
            if (nb_world_sg_find(ws, &q, wov, &again, &err) != NB_OK || again.status != st0 ||
                fabs(again.length - len0) > 1e-9)
                again_wrong++;
            else if (again.length != len0 && !rounded++)
                diag("%s: size %u: again %.17g, first %.17g", l->what, size, again.length, len0);
            int p = 0, m = 0;
            if (sliced_under(ws, NULL, &q, wov, 7, &cut, &p, &m, &err) != NB_OK ||
                cut.status != st0 || fabs(cut.length - len0) > 1e-9)
                slice_wrong++;
            else if (cut.length != len0 && !rounded++)
                diag("%s: size %u: in slices %.17g, first %.17g", l->what, size, cut.length, len0);
        }
        /* Every row of the edited tiles against a search of the whole tile. */
        nb_sg_query q = query(l, size, near[0], near[0]);
        nbi_wsg_rows one_ = {0, 0, 0, 0, 0};
        if (nbi_wsg_rows_check(ws, &q, wov, &one_, &err) != NB_OK && !rows_failed++)
            diag("%s: size %u: the edited rows: %s", l->what, size, err.msg);
        rows.tiles += one_.tiles, rows.rows += one_.rows, rows.kept += one_.kept;
        rows.searched += one_.searched, rows.wrong += one_.wrong;
        nb_overlay_close(ov);
        nb_world_overlay_close(wov);
    }
    is_int(rows_failed, 0, "%s: size %u: the edited tiles' rows made for each overlay", l->what,
           size);
    is_int((int)rows.wrong, 0, "%s: size %u: every row of the edited tiles (%llu tiles, %llu rows) "
           "as the query makes it equals a search of the whole tile under the overlay", l->what,
           size, (unsigned long long)rows.tiles, (unsigned long long)rows.rows);
    ok(rows.kept > 0 && rows.searched > 0, "%s: size %u: ... %llu distances kept as stored, %llu "
       "searched again", l->what, size, (unsigned long long)rows.kept,
       (unsigned long long)rows.searched);
    is_int(wrong, 0, "%s: size %u, %d overlays of 1-20 rectangles over tile borders: %d pairs, "
           "each Annotated A*'s status and length on the whole bake under the same cells, a legal "
           "path there", l->what, size, rounds, asked);
    ok(found > 0 && longer > 0, "%s: size %u: ... %d paths found, %d made longer or cut "
       "off by the overlay, %d with an end blocked", l->what, size, found, longer, blocked_end);
    is_int(again_wrong, 0, "%s: size %u: the same queries again (the edited rows kept): the same "
           "answers", l->what, size);
    is_int(slice_wrong, 0, "%s: size %u: in slices of 7 under the overlay: find's answers", l->what,
           size);
}

/* One world overlay (and its twin on the whole bake) edited version after
 * version: each adds rectangles over tile borders (every third from the
 * fourth on none) and, from the third on, opens a 5 x 5 square of one of
 * them again; at each version pairs near the rectangles
 * and random ones are asked of the same workspace and compared with
 * Annotated A* under the twin.  What a version's query keeps of its edited
 * tiles must not outlive it. */
static void check_versions(const lvl *l, nb_world_sg *ws, nb_aa *aa, uint32_t size, int versions,
                           int pairs)
{
    tu_rng r = {0x7e55 + size};
    nb_err err;
    nb_world_overlay *wov = NULL;
    nb_overlay *ov = NULL;
    if (!overlays_open(l, &wov, &ov))
        return;
    nb_cell near[64];
    int nn = 0, asked = 0, wrong = 0, found = 0, changed = 0;
    double last = -2;
    nb_cell s0 = standing(&r, l, size), g0 = standing(&r, l, size);
    for (int v = 0; v < versions; v++) {
        /* Every third version from the fourth on only opens cells: a version
         * whose sole change is an unblock must not be read as the last one. */
        int add = v >= 3 && v % 3 == 0 ? 0 : 1 + (int)tu_below(&r, 3);
        if (nn + add > 64)
            nn = 0; /* the oldest stay blocked; only new ones are asked near */
        block_rects(l, &r, add, wov, ov, near + nn);
        nn += add;
        nb_cell opened = {-1, -1};
        if (v >= 2) { /* one rectangle's middle opened again: a version that frees cells */
            nb_cell c = opened = near[tu_below(&r, (uint32_t)nn)];
            nb_world_overlay_unblock(wov, c.x - 2, c.y - 2, 5, 5, &err);
            nb_overlay_unblock(ov, c.x - 2, c.y - 2, 5, 5, &err);
        }
        for (int i = 0; i <= pairs; i++) {
            nb_cell s = s0, g = g0; /* i == 0: one pair asked at every version */
            if (i == 1 && opened.x >= 0) { /* from the cells just opened, if the map has them */
                s = nb_can_stand(l->whole, l->cap, size, opened.x, opened.y) == 1
                        ? opened
                        : standing_near(&r, l, size, opened);
                g = standing_near(&r, l, size, opened);
            } else if (i > 0) {
                s = standing_near(&r, l, size, near[tu_below(&r, (uint32_t)nn)]);
                g = i % 2 ? standing_near(&r, l, size, near[tu_below(&r, (uint32_t)nn)])
                          : standing(&r, l, size);
            }
            nb_sg_query q = query(l, size, s, g);
            nb_sg_result res;
            double want;
            nb_path_status want_st;
            nb_status st;
            int right = agrees_under(l, ws, aa, &q, wov, ov, &res, &want_st, &want, &st, &err);
            asked++;
            found += want_st == NB_PATH_FOUND;
            if (i == 0) {
                double now_ = want_st == NB_PATH_FOUND ? want : -1;
                changed += v > 0 && fabs(now_ - last) > 1e-9;
                last = now_;
            }
            if (!right && !wrong++)
                diag("%s: size %u, version %d: (%d, %d) to (%d, %d): status %d length %g, whole "
                     "AA* status %d length %g (%s)",
                     l->what, size, v, s.x, s.y, g.x, g.y, (int)res.status, res.length,
                     (int)want_st, want, st != NB_OK ? err.msg : "");
        }
    }
    nb_overlay_close(ov);
    nb_world_overlay_close(wov);
    is_int(wrong, 0, "%s: size %u, one overlay over %d versions (rectangles over tile borders "
           "added, some opened again): %d pairs on one workspace, each Annotated A*'s status and "
           "length under that version, a legal path", l->what, size, versions, asked);
    ok(found > 0, "%s: size %u: ... %d found; the pair asked at every version changed its "
       "answer %d times", l->what, size, found, changed);
}

/* An agent's square reaching over a tile border: an unblocked size-2 path
 * that runs along a tile's last column (row) inside the tile, and one cell
 * blocked just over the border beside it, in the next tile alone.  Only
 * the square of the cells before the border covers it, so the tile the
 * path runs in is the one the overlay edits (opt_edit.c's take). */
static void check_square_edge(const lvl *l, nb_world_sg *ws, nb_aa *aa, int pairs)
{
    tu_rng r = {0x5ed9e};
    const uint32_t size = 2;
    long T = l->in.tile;
    nb_err err;
    int made = 0, wrong = 0, longer = 0;
    for (int i = 0; i < pairs * 8 && made < pairs; i++) {
        nb_cell s = standing(&r, l, size), g = standing(&r, l, size);
        nb_sg_query q = query(l, size, s, g);
        nb_sg_result res;
        if (nb_world_sg_find(ws, &q, NULL, &res, &err) != NB_OK || res.status != NB_PATH_FOUND)
            continue;
        nb_cell b = {-1, -1};
        for (size_t k = 1; k + 1 < res.path_len && b.x < 0; k++) {
            nb_cell c = res.path[k], a = res.path[k - 1], d = res.path[k + 1];
            int vert = c.x % T == T - 1 && a.x / T == c.x / T && d.x / T == c.x / T &&
                       c.x + 1 < (int32_t)l->in.width;
            int horiz = c.y % T == T - 1 && a.y / T == c.y / T && d.y / T == c.y / T &&
                        c.y + 1 < (int32_t)l->in.height;
            if (vert)
                b = (nb_cell){c.x + 1, c.y};
            else if (horiz)
                b = (nb_cell){c.x, c.y + 1};
        }
        if (b.x < 0)
            continue;
        nb_world_overlay *wov = NULL;
        nb_overlay *ov = NULL;
        if (!overlays_open(l, &wov, &ov))
            return;
        nb_world_overlay_block(wov, b.x, b.y, 1, 1, &err);
        nb_overlay_block(ov, b.x, b.y, 1, 1, &err);
        double want, plain = res.length;
        nb_path_status st_;
        nb_sg_result under;
        nb_status st;
        int right = agrees_under(l, ws, aa, &q, wov, ov, &under, &st_, &want, &st, &err);
        if (!right && !wrong++)
            diag("%s: size 2, (%d, %d) blocked beside the path: (%d, %d) to (%d, %d): status %d "
                 "length %g, whole AA* status %d length %g (%s)",
                 l->what, b.x, b.y, s.x, s.y, g.x, g.y, (int)under.status, under.length,
                 (int)st_, want, st != NB_OK ? err.msg : "");
        longer += st_ != NB_PATH_FOUND || want > plain + 1e-6;
        made++;
        nb_overlay_close(ov);
        nb_world_overlay_close(wov);
    }
    is_int(wrong, 0, "%s: size 2, one cell blocked over a tile border beside a path along the "
           "tile's edge: %d queries, each Annotated A*'s status and length under it, a legal path "
           "(%d made longer)", l->what, made, longer);
    ok(made > 0, "%s: ... such paths found (%d)", l->what, made);
}

typedef struct tiles_dir {
    const char *dir;
} tiles_dir;

static nb_status loader(void *opaque, nb_world_tile t, const char **path, const void **data,
                        size_t *len, nb_err *err)
{
    (void)err;
    char name[64];
    snprintf(name, sizeof name, "tiles/%u_%u.nbb", t.column, t.row);
    *path = tu_path(((tiles_dir *)opaque)->dir, name);
    *data = NULL;
    *len = 0;
    return NB_OK;
}

static void check_loader(const lvl *l, nb_world_sg *full)
{
    nb_world *w;
    nb_world_sg *ws;
    nb_err err;
    tiles_dir td = {l->dir};
    if (!ok(nb_world_open(tu_path(l->dir, "world.nbw"), NULL, 0, NULL, &w, &err) == NB_OK &&
                nb_world_sg_open(w, &ws, &err) == NB_OK,
            "%s: a world with a loader: %s", l->what, err.msg))
        return;
    nb_world_set_loader(w, loader, NULL, &td);
    nb_world_set_budget(w, SIZE_MAX);
    tu_rng r = {77};
    int same = 0, n = 0;
    for (int i = 0; i < 10; i++) {
        nb_cell s = standing(&r, l, 1), g = standing(&r, l, 1);
        nb_sg_query q = query(l, 1, s, g);
        nb_sg_result a, b;
        if (nb_world_sg_find(full, &q, NULL, &a, &err) != NB_OK)
            continue;
        double la = a.length;
        nb_path_status sa = a.status;
        n++;
        same += nb_world_sg_find(ws, &q, NULL, &b, &err) == NB_OK && b.status == sa &&
                fabs(b.length - la) < 1e-9;
    }
    is_int(same, n, "%s: with a loader and a budget the query loads what it needs", l->what);
    nb_world_sg_close(ws);
    nb_world_close(w);
}

/* Refusals by status, in nb_sg_find's order. */
static void check_statuses(const lvl *l, nb_world_sg *ws)
{
    nb_err err;
    nb_sg_result r;
    nb_cell s = {0, 0};
    tu_rng rng = {5};
    s = standing(&rng, l, 1);
    nb_sg_query q = query(l, 1, s, s);
    q.size = 0;
    is_int(nb_world_sg_find(ws, &q, NULL, &r, &err), NB_ERR_ARG, "%s: size 0: NB_ERR_ARG", l->what);
    q = query(l, 1, s, (nb_cell){(int32_t)l->in.width, 0});
    is_int(nb_world_sg_find(ws, &q, NULL, &r, &err), NB_ERR_OUTSIDE, "%s: off the world",
           l->what);
    q = query(l, 1, s, s);
    q.corner = NB_CORNER_WEAK;
    is_int(nb_world_sg_find(ws, &q, NULL, &r, &err), NB_ERR_NOTFOUND,
           "%s: the weak corner rule, not baked: NB_ERR_NOTFOUND (%s)", l->what, err.msg);
    q = query(l, 1, s, s);
    q.partial = 1;
    is_int(nb_world_sg_find(ws, &q, NULL, &r, &err), NB_ERR_UNSUPPORTED,
           "%s: partial: NB_ERR_UNSUPPORTED", l->what);
    nb_world_overlay *ov;
    if (nb_world_overlay_open(l->w, &ov, &err) == NB_OK) {
        q = query(l, 1, s, s);
        is_int(nb_world_sg_find(ws, &q, ov, &r, &err), NB_OK, "%s: an empty overlay: answered",
               l->what);
        nb_world_overlay_block(ov, s.x, s.y, 1, 1, &err);
        ok(nb_world_sg_find(ws, &q, ov, &r, &err) == NB_OK && r.status == NB_PATH_START_BLOCKED,
           "%s: an overlay that blocks the start: NB_PATH_START_BLOCKED", l->what);
        nb_world_overlay_close(ov);
    }
    /* max_expansions: a far pair stopped after one portal, the start alone. */
    nb_cell far = s;
    for (int i = 0; i < 50 && tile_no(l, far) == tile_no(l, s); i++)
        far = standing(&rng, l, 1);
    q = query(l, 1, s, far);
    nb_status st = nb_world_sg_find(ws, &q, NULL, &r, &err);
    int found = st == NB_OK && r.status == NB_PATH_FOUND && r.expanded > 1;
    q.max_expansions = 1;
    ok(!found || (nb_world_sg_find(ws, &q, NULL, &r, &err) == NB_OK &&
                  r.status == NB_PATH_LIMIT && r.path_len == 1 && r.expanded == 1),
       "%s: max_expansions 1: NB_PATH_LIMIT, the start alone (a search of %s)", l->what,
       found ? "more portals" : "none");
    q = query(l, 1, s, s);
    r.status = NB_PATH_NONE;
    ok(nb_world_sg_find(ws, &q, NULL, &r, &err) == NB_OK && r.status == NB_PATH_FOUND &&
           r.path_len == 1 && r.length == 0,
       "%s: start at the goal: the cell alone", l->what);
}

/* The world bundle's world_opt section damaged: each refused, naming what. */
/* The index of the world bundle's first world_opt section, -1 if none. */
static long world_opt_at(const nb_bundle *b)
{
    for (size_t i = 0; i < nb_bundle_section_count(b); i++)
        if (nb_bundle_section_get(b, i)->type == NB_SEC_WORLD_OPT)
            return (long)i;
    return -1;
}

/* The landmarks the link stored against a plain Dijkstra over the portal
 * graph (an array scanned for the least, each node's row of its tile
 * unpacked, its moves between tiles): every node's distance from each. */
static void check_landmarks(const lvl *l)
{
    const nb_bundle *b = l->wd.index;
    nbi_windex x;
    nb_err err;
    long at = world_opt_at(b);
    nbi_wopt o;
    if (!ok(at >= 0 && nbi_windex_find(b, &x, &err) == NB_OK &&
                nbi_wopt_read(b, (size_t)at, &x, NULL, &o, &err) == NB_OK,
            "%s: the world_opt section reads: %s", l->what, err.msg))
        return;
    uint32_t n = o.nodes, *tile = malloc(((size_t)n + 1) * sizeof *tile);
    double *d = malloc(((size_t)n + 1) * sizeof *d), *row = malloc(((size_t)o.maxp + 1) * sizeof *row);
    char *done = malloc((size_t)n + 1);
    for (uint32_t t = 0; t < o.tiles; t++)
        for (uint32_t v = o.first[t]; v < o.first[t + 1]; v++)
            tile[v] = t;
    int wrong = 0, reached = 0;
    for (uint32_t k = 0; k < o.nland; k++) {
        for (uint32_t v = 0; v < n; v++)
            d[v] = INFINITY, done[v] = 0;
        d[o.land[k]] = 0;
        for (;;) {
            uint32_t u = UINT32_MAX;
            for (uint32_t v = 0; v < n; v++)
                if (!done[v] && !isinf(d[v]) && (u == UINT32_MAX || d[v] < d[u]))
                    u = v;
            if (u == UINT32_MAX)
                break;
            done[u] = 1;
            const nbi_optb *tb = &o.tile[tile[u]];
            uint32_t i = u - o.first[tile[u]];
            nbi_optb_unpack_row(tb->packed + tb->row[i], tb->row[i + 1] - tb->row[i], tb->cell,
                                tb->n, i, row);
            for (uint32_t j = 0; j < tb->n; j++)
                if (row[j] >= 0 && d[u] + row[j] < d[o.first[tile[u]] + j])
                    d[o.first[tile[u]] + j] = d[u] + row[j];
            for (uint32_t m = o.lfirst[u]; m < o.lfirst[u + 1]; m++) {
                double c = d[u] + (o.lmove[m] >= 4 ? M_SQRT2 : 1); /* moves 4-7: diagonal */
                if (c < d[o.lto[m]])
                    d[o.lto[m]] = c;
            }
        }
        for (uint32_t v = 0; v < n; v++) {
            double got = o.ld[(size_t)v * o.nland + k];
            reached += !isinf(d[v]);
            if (isinf(d[v]) ? got != -1 : fabs(got - d[v]) > 1e-9) {
                if (!wrong++)
                    diag("%s: landmark %u (node %u) to node %u: stored %g, Dijkstra %g", l->what,
                         k, o.land[k], v, got, d[v]);
            }
        }
    }
    ok(o.nland == 8 || o.nland == n, "%s: %u landmarks on %u portals", l->what, o.nland, n);
    is_int(wrong, 0, "%s: every portal's distance from each landmark is a plain Dijkstra's over "
           "the portal graph (%d reached of %u)", l->what, reached, o.nland * n);
    free(tile);
    free(d);
    free(row);
    free(done);
    nbi_wopt_free(&o);
}

/* The section read in place (nbi_wopv) against the copy (nbi_wopt_read),
 * field for field: the counts, every tile's first node, every node's
 * cell, moves (the node each reaches and its move), landmark distances
 * and unpacked row; every tile checked without a fault. */
static void check_in_place(const lvl *l)
{
    const nb_bundle *b = l->wd.index;
    nbi_windex x;
    nb_err err;
    long at = world_opt_at(b);
    nbi_wopt o;
    nbi_wopv v;
    if (!ok(at >= 0 && nbi_windex_find(b, &x, &err) == NB_OK &&
                nbi_wopt_read(b, (size_t)at, &x, NULL, &o, &err) == NB_OK,
            "%s: the world_opt section reads: %s", l->what, err.msg))
        return;
    if (!ok(nbi_wopv_open(b, (size_t)at, &x, NULL, &v, &err) == NB_OK,
            "%s: ... and opens in place: %s", l->what, err.msg)) {
        nbi_wopt_free(&o);
        return;
    }
    is_int(v.nodes == o.nodes && v.tiles == o.tiles && v.links == o.links && v.maxp == o.maxp &&
               v.nland == o.nland && v.capability == o.capability && v.size == o.size &&
               v.corner == o.corner,
           1, "%s: the same counts (%u nodes, %u tiles, %u moves, %u landmarks)", l->what, v.nodes,
           v.tiles, v.links, v.nland);
    int wrong = 0, faults = 0;
    uint64_t fields = 0;
    double *r0 = malloc(((size_t)o.maxp + 1) * sizeof *r0), *r1 = malloc(((size_t)o.maxp + 1) * sizeof *r1);
    nb_cell *tc = malloc(((size_t)o.maxp + 1) * sizeof *tc);
    for (uint32_t k = 0; k < o.nland; k++)
        wrong += v.land[k] != o.land[k];
    for (uint32_t t = 0; t < o.tiles && !faults; t++) {
        if (nbi_wopv_tile(&v, t, &err) != NB_OK) {
            faults++;
            diag("%s: tile %u: %s", l->what, t, err.msg);
            break;
        }
        wrong += v.first[t] != o.first[t] || v.first[t + 1] != o.first[t + 1];
        const uint8_t *bp = nbi_wopv_border(&v, t);
        uint32_t n = nbi_wopv_cells(&v, t, tc), nl = nbi_get32(bp + NBI_OBORDER_LINKS);
        const uint8_t *rows = bp + NBI_OBORDER_HEADER + (size_t)n * NBI_OBORDER_PORTAL,
                      *links = rows + 4 * ((size_t)n + 1),
                      *packed = links + (size_t)nl * NBI_OBORDER_LINK;
        const nbi_optb *tb = &o.tile[t];
        for (uint32_t i = 0; i < n; i++) {
            uint32_t u = o.first[t] + i;
            wrong += tc[i].x != o.cell[u].x || tc[i].y != o.cell[u].y;
            for (uint32_t k = 0; k < o.nland; k++)
                wrong += nbi_wopv_ld(&v, u, k) != o.ld[(size_t)u * o.nland + k];
            nbi_optb_unpack_row(tb->packed + tb->row[i], tb->row[i + 1] - tb->row[i], tb->cell,
                                tb->n, i, r0);
            uint32_t a = nbi_u32at(rows, i), e = nbi_u32at(rows, i + 1);
            if (!nbi_optb_unpack_row(packed + a, e - a, tc, n, i, r1))
                wrong++;
            for (uint32_t j = 0; j < n; j++)
                wrong += r0[j] != r1[j];
            fields += 3 + o.nland + n;
        }
        uint32_t m = o.lfirst[o.first[t]];
        for (uint32_t li = 0; li < nl; li++, m++) {
            const uint8_t *q = links + (size_t)li * NBI_OBORDER_LINK;
            uint32_t i = nbi_get16(q + NBI_OBORDER_L_PORTAL), u = o.first[t] + i;
            wrong += m < o.lfirst[u] || m >= o.lfirst[u + 1] ||
                     nbi_u32at(v.target, (size_t)v.lbase[t] + li) != o.lto[m] ||
                     q[NBI_OBORDER_L_MOVE] != o.lmove[m];
            fields += 2;
        }
        wrong += m != o.lfirst[o.first[t + 1]];
    }
    is_int(faults, 0, "%s: every tile checked in place", l->what);
    is_int(wrong, 0, "%s: the view in place equals the copy field for field (%llu fields)",
           l->what, (unsigned long long)fields);
    free(r0);
    free(r1);
    free(tc);
    nbi_wopv_free(&v);
    nbi_wopt_free(&o);
}

/* A damaged payload through the reader in place: opened, then every tile
 * checked as queries would; the first refusal. */
static nb_status view_all(const uint8_t *q, size_t ql, const uint32_t *param, const nbi_windex *x,
                          nb_err *err)
{
    nbi_wopv v;
    nb_status st = nbi_wopv_open_payload(q, ql, param, x, "world_opt", NULL, &v, err);
    for (uint32_t t = 0; st == NB_OK && t < v.tiles; t++)
        st = nbi_wopv_tile(&v, t, err);
    if (v.first)
        nbi_wopv_free(&v);
    return st;
}

static void check_damage(const lvl *l)
{
    const nb_bundle *b = l->wd.index;
    long at = world_opt_at(b);
    nbi_windex x;
    nb_err err;
    if (!ok(at >= 0 && nbi_windex_find(b, &x, &err) == NB_OK, "%s: the world_opt section", l->what))
        return;
    const nb_section_info *in = nb_bundle_section_get(b, (size_t)at);
    const uint8_t *p = b->sections[at].payload;
    size_t len = (size_t)in->usize;
    uint32_t tiles = nbi_get32(p + NBI_WOPT_TILES), links = nbi_get32(p + NBI_WOPT_LINKS);
    size_t off = NBI_WOPT_HEADER, tgt = off + 4 * ((size_t)tiles + 1), bytes = tgt + 4 * (size_t)links;
    nbi_wopt o;
    is_int(nbi_wopt_read_payload(p, len, in->param, &x, "world_opt", NULL, &o, &err), NB_OK,
           "%s: the section as linked reads back: %s", l->what, err.msg);
    nbi_wopt_free(&o);
    static const struct { const char *what, *says; } dmg[] = {
        {"a byte short", "expected"},
        {"the table's nodes one more", "disagree on"},
        {"17 landmarks", "landmarks (at most"},
        {"a tile fewer", "tiles; the world has"},
        {"the tiles' last offset past their bytes", "its tiles span"},
        {"tile 1's border a byte later", "tile ("},
        {"the first move's node one more", "names node"},
        {"the first move's node past the nodes", "names node"},
        {"the header's nodes and the table's one more", "its tiles hold"},
        {"a tile's first portal moved off the edge", "not on the edge"},
        {"the first landmark past the nodes", "landmark 0 is node"},
        {"a landmark 1 from itself", "not 0 from itself"},
        {"a distance below the octile distance", "below the octile"},
        {"a distance infinite", "not finite"},
        {"the first move's ends' distances 5 apart", "a move apart"},
    };
    uint32_t nland = nbi_get32(p + NBI_WOPT_LANDMARKS);
    size_t lat = bytes + nbi_get32(p + NBI_WOPT_BYTES), ltab = lat + 4 * (size_t)nland;
    ok(nland == 8 || nland == in->param[3], "%s: %u landmarks", l->what, nland);
    uint8_t *q = malloc(len + 8 * NBI_WOPT_MAX_LANDMARKS);
    for (size_t d = 0; d < sizeof dmg / sizeof dmg[0]; d++) {
        memcpy(q, p, len);
        memset(q + len, 0, 8 * NBI_WOPT_MAX_LANDMARKS);
        size_t ql = len;
        uint32_t param[4] = {in->param[0], in->param[1], in->param[2], in->param[3]};
        switch (d) {
        case 0: ql--; break;
        case 1: param[3]++; break;
        case 2: nbi_put32(q + NBI_WOPT_LANDMARKS, 17); break;
        case 3: nbi_put32(q + NBI_WOPT_TILES, tiles - 1); break;
        case 4: nbi_put32at(q + off, tiles, nbi_u32at(q + off, tiles) + 1); break;
        case 5: nbi_put32at(q + off, 1, nbi_u32at(q + off, 1) + 1); break;
        case 6: nbi_put32at(q + tgt, 0, nbi_u32at(q + tgt, 0) + 1); break;
        case 7: nbi_put32at(q + tgt, 0, param[3] + 5); break;
        case 8:
            /* The landmarks' table a node longer too: the length holds. */
            param[3]++;
            nbi_put32(q + NBI_WOPT_NODES, param[3]);
            ql += 8 * (size_t)nland;
            break;
        case 9: {
            /* The first tile with a portal. */
            uint32_t t = 0;
            while (t + 1 < tiles && nbi_get32(q + bytes + nbi_u32at(q + off, t) +
                                              NBI_OBORDER_PORTALS) == 0)
                t++;
            const uint8_t *t0 = q + bytes + nbi_u32at(q + off, t);
            uint32_t w = nbi_get32(t0 + NBI_OBORDER_WIDTH), h = nbi_get32(t0 + NBI_OBORDER_HEIGHT);
            nbi_put16((uint8_t *)t0 + NBI_OBORDER_HEADER + NBI_OBORDER_P_X, (uint16_t)(w / 2));
            nbi_put16((uint8_t *)t0 + NBI_OBORDER_HEADER + NBI_OBORDER_P_Y, (uint16_t)(h / 2));
            break;
        }
        case 10: nbi_put32at(q + lat, 0, param[3]); break;
        case 11: nbi_putf64(q + ltab + 8 * ((size_t)nbi_u32at(q + lat, 0) * nland), 1); break;
        case 12: {
            /* A node the first landmark reaches, some way from it. */
            uint32_t v = 0;
            while (v + 1 < param[3] && nbi_getf64(q + ltab + 8 * ((size_t)v * nland)) < 4)
                v++;
            nbi_putf64(q + ltab + 8 * ((size_t)v * nland), 1);
            break;
        }
        case 13: nbi_putf64(q + ltab + 8 * ((size_t)1 * nland), INFINITY); break;
        case 14: {
            /* The node the first move reaches: 5 farther from the first landmark. */
            size_t at2 = ltab + 8 * ((size_t)nbi_u32at(q + tgt, 0) * nland);
            nbi_putf64(q + at2, nbi_getf64(q + at2) + 5);
            break;
        }
        }
        nb_status st = nbi_wopt_read_payload(q, ql, param, &x, "world_opt", NULL, &o, &err);
        if (st == NB_OK)
            nbi_wopt_free(&o);
        is_int(st, NB_ERR_FORMAT, "%s: %s: refused", l->what, dmg[d].what);
        ok(st != NB_OK && strstr(err.msg, dmg[d].says) != NULL, "%s: ... saying \"%s\" (%s)",
           l->what, dmg[d].says, st != NB_OK ? err.msg : "");
        st = view_all(q, ql, param, &x, &err);
        is_int(st, NB_ERR_FORMAT, "%s: %s: refused in place", l->what, dmg[d].what);
        ok(st != NB_OK && strstr(err.msg, dmg[d].says) != NULL, "%s: ... saying \"%s\" (%s)",
           l->what, dmg[d].says, st != NB_OK ? err.msg : "");
    }
    free(q);
}

static void check(const char *what, const char *map, uint32_t tile, const char *agents,
                  const char *dir, const char *scen, int pairs)
{
    lvl l;
    nb_aa *aa = NULL;
    nb_world_sg *ws = NULL;
    nb_err err;
    if (!lvl_open(&l, what, map, agents, tile, dir))
        goto out;
    ok(l.in.columns >= 4 && l.in.rows >= 3, "%s: %u x %u tiles", what, l.in.columns, l.in.rows);
    if (!ok(nb_aa_open(l.whole, &aa, &err) == NB_OK && nb_world_sg_open(l.w, &ws, &err) == NB_OK,
            "%s: AA* on the whole bake and the world's optimal workspace: %s", what, err.msg))
        goto out;
    if (scen)
        check_scen(&l, ws, aa, scen);
    check_pairs(&l, ws, aa, 1, pairs);
    check_pairs(&l, ws, aa, 2, pairs / 2);
    check_unloaded(&l, ws, 0x1u + tile);
    check_sliced(&l, ws, pairs / 4);
    check_loader(&l, ws);
    check_statuses(&l, ws);
    check_overlays(&l, ws, aa, 1, 8, pairs / 4);
    check_overlays(&l, ws, aa, 2, 4, pairs / 8);
    check_square_edge(&l, ws, aa, pairs / 8);
    check_versions(&l, ws, aa, 1, 12, pairs / 16);
    check_versions(&l, ws, aa, 2, 6, pairs / 16);
    check_landmarks(&l);
    check_in_place(&l);
    check_damage(&l);
out:
    nb_world_sg_close(ws);
    nb_aa_close(aa);
    lvl_close(&l);
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
        char *m = strdup(map), scen[4096];
        snprintf(scen, sizeof scen, "%s.scen", m);
        check(maps[i].map, m, maps[i].tile, tu_src("data/haa-agents.yaml"),
              tw_fresh_dir(tmp, "s", &k), scen, 200);
        free(m);
    }
    if (!any)
        check("data/sample.map", tu_src("data/sample.map"), 16, tu_src("data/sample-agents.yaml"),
              tw_fresh_dir(tmp, "s", &k), NULL, 300);
    return done_testing();
}
