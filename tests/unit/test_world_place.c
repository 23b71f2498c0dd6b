/* test_world_place.c: line of walk and random cells across a world's tiles
 * (lib/runtime/stream/world_line.c, world_random.c) against the same level
 * baked whole and a brute force over the whole map.
 *
 * - nb_world_line_find gets nb_line_find's status, t, last point and
 *   blocking cell on the whole bake, and a brute force's (the exact entry
 *   time of the agent's square into every wall cell near the segment),
 *   for every agent, with and without cells blocked in rectangles that
 *   straddle tile borders (an nb_world_overlay against an nb_overlay of the
 *   whole bake blocking the same cells).  With tiles missing it answers as
 *   the whole bake or says NB_ERR_UNLOADED naming the missing tiles whose
 *   cells the square enters before where it gets (the brute force's set;
 *   one entered just at a block's time may be named too), and loading
 *   them ends at the whole bake's answer.
 * - nb_world_random_find draws only cells of its rectangle where the agent
 *   stands (and joined to start, by the whole bake's nb_reachable), counts
 *   the brute force's cells (nb_random_find's over the whole world), gives
 *   the same cell for the same seed, draws each cell about equally often
 *   (a chi-square bound), under an overlay too; a rectangle meeting tiles
 *   not loaded names exactly those tiles. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "countalloc.h"
#include "worldbake.h"

typedef tw_level level;

static void load_all(level *l) { nb_world_load_cells(l->w, 0, 0, l->in.width, l->in.height, NULL); }
static void unload_all(level *l) { nb_world_unload_cells(l->w, 0, 0, l->in.width, l->in.height, NULL); }

static void load_half(level *l, tu_rng *r)
{
    unload_all(l);
    for (uint32_t t = 0; t < l->in.columns * l->in.rows; t++)
        if (tu_below(r, 2))
            nb_world_load(l->w, (nb_world_tile){t % l->in.columns, t / l->in.columns}, NULL);
}

/* A world workspace and overlay, and a place and overlay of the whole bake. */
static int open_both(const level *l, const char *what, nb_world_aa **ws, nb_place **pl,
                     nb_world_overlay **wov, nb_overlay **ov)
{
    nb_err err;
    return ok(nb_world_aa_open(l->w, ws, &err) == NB_OK &&
                  nb_place_open(l->whole, pl, &err) == NB_OK &&
                  nb_world_overlay_open(l->w, wov, &err) == NB_OK &&
                  nb_overlay_open(l->whole, ov, &err) == NB_OK,
              "%s: %s: workspaces open: %s", l->what, what, err.msg);
}

/* ---- lines: a brute force over the cells near the segment ---- */

#define Q ((int64_t)NB_LINE_RESOLUTION)

typedef struct bline {
    nb_path_status status;
    int64_t tn, td;   /* t = tn / td */
    nb_cell blocking;
} bline;

/* The open interval of times in which the square's interior meets cell c's on one axis:
 * c Q - S < a + t d < (c + 1) Q, as lo and hi over den (den > 0); 0 when never. */
static int axis_times(int64_t a, int64_t d, int64_t c, int64_t S, int64_t *lo, int64_t *hi,
                      int64_t *den, int *always)
{
    int64_t low = c * Q - S - a, high = (c + 1) * Q - a;
    *always = 0;
    if (d == 0) {
        *always = low < 0 && high > 0;
        return *always;
    }
    if (d > 0)
        *lo = low, *hi = high, *den = d;
    else
        *lo = -high, *hi = -low, *den = -d;
    return 1;
}

/* 1 when the cell is a wall for the agent: off the map, outside the capability, blocked. */
static int wall(const level *l, const nb_overlay *ov, nb_capability cap, int64_t x, int64_t y)
{
    if (x < 0 || y < 0 || x >= l->in.width || y >= l->in.height)
        return 1;
    if (nb_can_stand(l->whole, cap, 1, (long)x, (long)y) != 1)
        return 1;
    return ov && nb_overlay_blocked(ov, (long)x, (long)y);
}

static int tile_missing(const level *l, int64_t x, int64_t y, int missing)
{
    if (!missing || x < 0 || y < 0 || x >= l->in.width || y >= l->in.height)
        return 0;
    return !nb_world_loaded(l->w, (nb_world_tile){(uint32_t)x / l->in.tile, (uint32_t)y / l->in.tile});
}

/* The entry time of cell (x, y) as n / d in [0, 1), 0 when the square never meets it. */
static int entry(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t S, int64_t x, int64_t y,
                 int64_t *n, int64_t *d)
{
    int64_t lx = 0, hx = 0, dx = 1, ly = 0, hy = 0, dy = 1;
    int ax_always, ay_always;
    if (!axis_times(ax, bx - ax, x, S, &lx, &hx, &dx, &ax_always) ||
        !axis_times(ay, by - ay, y, S, &ly, &hy, &dy, &ay_always))
        return 0;
    /* The interval: the later of the starts, the earlier of the ends, clipped to [0, 1]. */
    int64_t sn = 0, sd = 1, en = 1, ed = 1; /* [0, 1] */
    if (!ax_always) {
        if (lx * sd > sn * dx)
            sn = lx, sd = dx;
        if (hx * ed < en * dx)
            en = hx, ed = dx;
    }
    if (!ay_always) {
        if (ly * sd > sn * dy)
            sn = ly, sd = dy;
        if (hy * ed < en * dy)
            en = hy, ed = dy;
    }
    /* Met when start < end, start < 1 (the end is at most 1 and above 0 then). */
    if (!(sn * ed < en * sd) || !(sn < sd))
        return 0;
    *n = sn, *d = sd;
    return 1;
}

/* The brute force: the start's square first (row-major), then the least entry time over the
 * wall cells (ties: row-major).  With missing: the missing tiles' cells count as free, and
 * strict / loose get the missing tiles entered before (at or before, for a block) the
 * answer's time (bit t of a mask a tile). */
static bline brute_line(const level *l, const nb_overlay *ov, const nb_line_query *q,
                        unsigned char *strict, unsigned char *loose)
{
    int64_t ax = llround(q->start.x * Q), ay = llround(q->start.y * Q);
    int64_t bx = llround(q->goal.x * Q), by = llround(q->goal.y * Q);
    int64_t S = (int64_t)q->size * Q;
    size_t ntiles = (size_t)l->in.columns * l->in.rows;
    if (strict)
        memset(strict, 0, ntiles), memset(loose, 0, ntiles);
    bline b = {NB_PATH_FOUND, 1, 1, {-1, -1}};
    /* The start: cells whose inside the square at the start meets. */
    int64_t sx0 = ax / Q - 1, sy0 = ay / Q - 1;
    for (int64_t y = sy0; y <= sy0 + q->size + 2 && b.status == NB_PATH_FOUND; y++)
        for (int64_t x = sx0; x <= sx0 + q->size + 2; x++) {
            if (!(x * Q < ax + S && ax < (x + 1) * Q && y * Q < ay + S && ay < (y + 1) * Q))
                continue;
            if (tile_missing(l, x, y, strict != NULL)) {
                if (strict) {
                    size_t t = (size_t)(y / l->in.tile) * l->in.columns + (size_t)(x / l->in.tile);
                    strict[t] = loose[t] = 1;
                }
                continue;
            }
            if (wall(l, ov, q->capability, x, y)) {
                b.status = NB_PATH_START_BLOCKED, b.tn = 0, b.td = 1, b.blocking = (nb_cell){(int32_t)x, (int32_t)y};
                break;
            }
        }
    if (b.status == NB_PATH_START_BLOCKED)
        return b;
    int64_t x0 = (ax < bx ? ax : bx) / Q - 2, x1 = ((ax > bx ? ax : bx) + S) / Q + 2;
    int64_t y0 = (ay < by ? ay : by) / Q - 2, y1 = ((ay > by ? ay : by) + S) / Q + 2;
    for (int64_t y = y0; y <= y1; y++)
        for (int64_t x = x0; x <= x1; x++) {
            int64_t n, d;
            if (tile_missing(l, x, y, strict != NULL) || !wall(l, ov, q->capability, x, y) ||
                !entry(ax, ay, bx, by, S, x, y, &n, &d))
                continue;
            int64_t c = n * b.td - b.tn * d;
            if (c < 0 || (c == 0 && b.status == NB_PATH_NONE &&
                          (y < b.blocking.y || (y == b.blocking.y && x < b.blocking.x))) ||
                (c == 0 && b.status == NB_PATH_FOUND && n < d)) {
                b.status = NB_PATH_NONE, b.tn = n, b.td = d, b.blocking = (nb_cell){(int32_t)x, (int32_t)y};
            }
        }
    if (b.status == NB_PATH_FOUND && ax == bx && ay == by)
        return b;
    if (strict)
        for (int64_t y = y0; y <= y1; y++)
            for (int64_t x = x0; x <= x1; x++) {
                int64_t n, d;
                if (!tile_missing(l, x, y, strict != NULL) || !entry(ax, ay, bx, by, S, x, y, &n, &d))
                    continue;
                size_t t = (size_t)(y / l->in.tile) * l->in.columns + (size_t)(x / l->in.tile);
                int64_t c = n * b.td - b.tn * d;
                if (c < 0)
                    strict[t] = loose[t] = 1;
                else if (c == 0 && b.status == NB_PATH_NONE)
                    loose[t] = 1;
            }
    return b;
}

/* A point of the world on a grid of quarter cells, the agent's square inside. */
static nb_vec2 quarter_point(tu_rng *r, const level *l, uint32_t size)
{
    return (nb_vec2){tu_below(r, 4 * (l->in.width - size) + 1) / 4.0,
                     tu_below(r, 4 * (l->in.height - size) + 1) / 4.0};
}

/* A segment from a standable cell: short ones (within 40 cells), some axis-aligned. */
static void random_segment(tu_rng *r, const level *l, nb_line_query *q, int i)
{
    for (int tries = 0; tries < 200; tries++) {
        q->start = quarter_point(r, l, q->size);
        if (nb_can_stand(l->whole, q->capability, q->size, (long)q->start.x, (long)q->start.y) == 1)
            break;
    }
    q->goal = quarter_point(r, l, q->size);
    double span = 4 + tu_below(r, 36);
    double dx = q->goal.x - q->start.x, dy = q->goal.y - q->start.y, len = hypot(dx, dy);
    if (len > span) {
        q->goal.x = floor((q->start.x + dx * span / len) * 4) / 4;
        q->goal.y = floor((q->start.y + dy * span / len) * 4) / 4;
    }
    if (i % 5 == 1)
        q->goal.y = q->start.y;
    if (i % 5 == 2)
        q->goal.x = q->start.x;
    if (i % 5 == 3) { /* a diagonal through grid points */
        double k = fmin(fmin(l->in.width - q->size - q->start.x, l->in.height - q->size - q->start.y), span);
        q->goal.x = q->start.x + floor(k), q->goal.y = q->start.y + floor(k);
    }
}

static int same_line(const nb_line_result *a, const nb_line_result *b, const bline *bf)
{
    int good = a->status == b->status && a->t == b->t && a->last.x == b->last.x &&
               a->last.y == b->last.y && a->blocking.x == b->blocking.x &&
               a->blocking.y == b->blocking.y && a->status == bf->status &&
               a->blocking.x == bf->blocking.x && a->blocking.y == bf->blocking.y;
    if (good && (a->status == NB_PATH_NONE || a->status == NB_PATH_START_BLOCKED))
        good = a->t == (double)bf->tn / (double)bf->td;
    return good;
}

static void check_lines(level *l, int n, uint64_t seed)
{
    nb_world_aa *ws;
    nb_place *pl;
    nb_world_overlay *wov;
    nb_overlay *ov;
    nb_err err;
    if (!open_both(l, "lines", &ws, &pl, &wov, &ov))
        return;
    size_t ntiles = (size_t)l->in.columns * l->in.rows;
    unsigned char *strict = malloc(ntiles), *loose = malloc(ntiles);
    nb_world_tile *need = calloc(ntiles, sizeof *need);
    tu_rng r = {seed};
    for (int blocked = 0; blocked < 2; blocked++) {
        if (blocked)
            tw_straddling_blocks(&r, l, wov, ov, 8 * (int)ntiles);
        const nb_world_overlay *wo = blocked ? wov : NULL;
        const nb_overlay *bo = blocked ? ov : NULL;
        unsigned wrong = 0, wrong_needed = 0, count[4] = {0, 0, 0, 0}, unloaded = 0, exact_missing = 0;
        for (int i = 0; i < n; i++) {
            nb_line_query q;
            nb_line_query_init(&q);
            nb_line_query_agent(&q, nb_agent_get(l->whole, (size_t)i % nb_agent_count(l->whole)));
            random_segment(&r, l, &q, i);
            nb_line_result a, b;
            nb_line_query bq = q;
            bq.overlay = bo;
            nb_status s2 = nb_line_find(pl, &bq, &b, &err);
            bline bf = brute_line(l, bo, &q, NULL, NULL);
            /* Every tile loaded. */
            load_all(l);
            nb_status s1 = nb_world_line_find(ws, &q, wo, &a, &err);
            int bad = s1 != NB_OK || s2 != NB_OK || !same_line(&a, &b, &bf);
            /* A random half loaded: the needed tiles are the brute force's, then loading them
             * converges. */
            load_half(l, &r);
            int rounds = 0;
            while ((s1 = nb_world_line_find(ws, &q, wo, &a, &err)) == NB_ERR_UNLOADED && rounds++ < 64) {
                bline h = brute_line(l, bo, &q, strict, loose);
                (void)h;
                size_t k = nb_world_aa_needed(ws, need, ntiles);
                unsigned char *named = calloc(ntiles, 1);
                int nbad = k == 0;
                for (size_t j = 0; j < k; j++) {
                    size_t t = need[j].row * l->in.columns + need[j].column;
                    nbad |= named[t] || nb_world_loaded(l->w, need[j]) || !loose[t];
                    named[t] = 1;
                }
                for (size_t t = 0; t < ntiles; t++)
                    nbad |= strict[t] && !named[t];
                free(named);
                if (nbad && !wrong_needed++)
                    diag("%s: line (%g, %g) to (%g, %g) size %u: %zu tiles named, not the brute "
                         "force's (%s)", l->what, q.start.x, q.start.y, q.goal.x, q.goal.y, q.size,
                         k, err.msg);
                for (size_t j = 0; j < k; j++)
                    nb_world_load(l->w, need[j], NULL);
                unloaded++;
            }
            nb_world_info in;
            nb_world_describe(l->w, &in);
            exact_missing += s1 == NB_OK && in.loaded < ntiles && rounds == 0;
            bad |= s1 != NB_OK || !same_line(&a, &b, &bf);
            if (bad && !wrong++)
                diag("%s: line (%g, %g) to (%g, %g) size %u cap %#x: world %d/%d t %.9g "
                     "blocking (%d, %d) (%s), whole %d/%d t %.9g blocking (%d, %d), brute %d t "
                     "%.9g (%d, %d)",
                     l->what, q.start.x, q.start.y, q.goal.x, q.goal.y, q.size, q.capability, s1,
                     a.status, a.t, a.blocking.x, a.blocking.y, err.msg, s2, b.status, b.t,
                     b.blocking.x, b.blocking.y, bf.status, (double)bf.tn / (double)bf.td,
                     bf.blocking.x, bf.blocking.y);
            count[b.status < 4 ? b.status : 3]++;
        }
        is_int(wrong, 0, "%s: %d lines %s: nb_line_find's answer on the whole bake and the brute "
                         "force's, every tile loaded and half of them (found %u, blocked %u, "
                         "start blocked %u)",
               l->what, n, blocked ? "with blocks straddling tile borders" : "without blocks",
               count[NB_PATH_FOUND], count[NB_PATH_NONE], count[NB_PATH_START_BLOCKED]);
        is_int(wrong_needed, 0, "%s: %u answers needing tiles name the brute force's missing "
                                "tiles (%u exact with tiles missing)",
               l->what, unloaded, exact_missing);
        ok(count[NB_PATH_FOUND] > 0 && count[NB_PATH_NONE] > 0 && unloaded > 0,
           "%s: some found, some blocked, some needing tiles", l->what);
    }
    /* Nothing loaded: the start's tile alone is named for a segment inside one tile. */
    unload_all(l);
    nb_line_query q;
    nb_line_query_init(&q);
    nb_line_query_agent(&q, nb_agent_get(l->whole, 0));
    q.start = (nb_vec2){l->in.tile + 1.5, 1.25};
    q.goal = (nb_vec2){l->in.tile + 3.5, 2.75};
    nb_line_result a;
    nb_status st = nb_world_line_find(ws, &q, NULL, &a, &err);
    size_t k = nb_world_aa_needed(ws, need, ntiles);
    ok(st == NB_ERR_UNLOADED && k == 1 && need[0].column == 1 && need[0].row == 0,
       "%s: nothing loaded, a segment inside tile (1, 0): NB_ERR_UNLOADED naming that tile "
       "alone (%s)", l->what, err.msg);
    q.overlay = ov;
    is_int(nb_world_line_find(ws, &q, NULL, &a, &err), NB_ERR_ARG,
           "%s: an nb_overlay in the query: NB_ERR_ARG (%s)", l->what, err.msg);
    q.overlay = NULL;
    q.goal.x = l->in.width + 1.0;
    is_int(nb_world_line_find(ws, &q, NULL, &a, &err), NB_ERR_OUTSIDE,
           "%s: a goal off the world: NB_ERR_OUTSIDE (%s)", l->what, err.msg);
    free(strict), free(loose), free(need);
    nb_world_overlay_close(wov);
    nb_overlay_close(ov);
    nb_place_close(pl);
    nb_world_aa_close(ws);
}

/* ---- random cells ---- */

/* 1 when world cell (x, y) is one a draw may give: the agent stands there (under ov), and
 * with reachable a path joins it to start on the whole bake. */
static int drawable(const level *l, const nb_overlay *ov, const nb_random_query *q, long x, long y)
{
    if (nb_can_stand(l->whole, q->capability, q->size, x, y) != 1)
        return 0;
    if (q->reachable && nb_reachable(l->whole, q->capability, q->size, q->start, (nb_cell){(int32_t)x, (int32_t)y}) != 1)
        return 0;
    return !ov || nb_overlay_can_stand(ov, q->capability, q->size, x, y) == 1;
}

static void check_random(level *l, uint64_t seed)
{
    nb_world_aa *ws;
    nb_place *pl;
    nb_world_overlay *wov;
    nb_overlay *ov;
    nb_err err;
    if (!open_both(l, "random", &ws, &pl, &wov, &ov))
        return;
    size_t ntiles = (size_t)l->in.columns * l->in.rows;
    nb_world_tile *need = calloc(ntiles, sizeof *need);
    tu_rng r = {seed};
    /* The whole world against nb_random_find's count, for every agent, reachable or not. */
    load_all(l);
    unsigned wrong = 0, n = 0;
    for (size_t k = 0; k < nb_agent_count(l->whole); k++)
        for (int reach = 0; reach < 2; reach++) {
            nb_random_query q;
            nb_random_query_init(&q);
            nb_random_query_agent(&q, nb_agent_get(l->whole, k));
            q.reachable = reach;
            q.seed = tu_below(&r, 1000000);
            if (reach) {
                nb_line_query lq;
                nb_line_query_init(&lq);
                lq.size = q.size, lq.capability = q.capability;
                random_segment(&r, l, &lq, 0);
                q.start = (nb_cell){(int32_t)lq.start.x, (int32_t)lq.start.y};
            }
            nb_random_result a, a2, b;
            nb_status s1 = nb_world_random_find(ws, &q, NULL, 0, 0, l->in.width, l->in.height, &a, &err);
            nb_status s3 = nb_world_random_find(ws, &q, NULL, 0, 0, l->in.width, l->in.height, &a2, NULL);
            nb_status s2 = nb_random_find(pl, &q, &b, NULL);
            uint64_t cells = 0;
            for (long y = 0; y < (long)l->in.height; y++)
                for (long x = 0; x < (long)l->in.width; x++)
                    cells += drawable(l, NULL, &q, x, y);
            int bad = s1 != NB_OK || s2 != NB_OK || s3 != NB_OK || a.status != b.status ||
                      a.cells != b.cells || a.cells != cells ||
                      (a.status == NB_PATH_FOUND &&
                       (!drawable(l, NULL, &q, a.cell.x, a.cell.y) || a.draws != 1 ||
                        a2.cell.x != a.cell.x || a2.cell.y != a.cell.y || a2.state != a.state ||
                        a.state == q.seed));
            if (bad && !wrong++)
                diag("%s: random over the world, size %u reachable %d: world %d/%d (%d, %d) "
                     "of %llu (%s), whole %d/%d of %llu, brute %llu",
                     l->what, q.size, reach, s1, a.status, a.cell.x, a.cell.y,
                     (unsigned long long)a.cells, err.msg, s2, b.status,
                     (unsigned long long)b.cells, (unsigned long long)cells);
            n++;
        }
    is_int(wrong, 0, "%s: %u draws over the whole world: nb_random_find's status and count and "
                     "the brute force's, a drawable cell, the same one again for the same seed",
           l->what, n);
    /* Rectangles straddling tile borders, without and with blocks: every cell drawable,
     * drawn about equally often. */
    for (int blocked = 0; blocked < 2; blocked++) {
        if (blocked)
            tw_straddling_blocks(&r, l, wov, ov, 6 * (int)ntiles);
        unsigned wrong_cells = 0, wrong_chi = 0, rects = 0;
        for (int i = 0; i < 12; i++) {
            nb_random_query q;
            nb_random_query_init(&q);
            nb_random_query_agent(&q, nb_agent_get(l->whole, (size_t)i % nb_agent_count(l->whole)));
            q.reachable = !blocked && i % 2;
            q.seed = seed + (uint64_t)i;
            long side = 4 + tu_below(&r, 9);
            long x = (long)((1 + tu_below(&r, l->in.columns - 1)) * l->in.tile) - side / 2;
            long y = (long)((tu_below(&r, l->in.rows)) * l->in.tile) + tu_below(&r, l->in.tile) - side / 2;
            if (y < 0)
                y = 0;
            if (q.reachable) {
                long sx = x + side / 2, sy = y + side / 2;
                q.start = (nb_cell){(int32_t)(sx < (long)l->in.width ? sx : (long)l->in.width - 1),
                                    (int32_t)(sy < (long)l->in.height ? sy : (long)l->in.height - 1)};
            }
            const nb_overlay *bo = blocked ? ov : NULL;
            uint64_t domain = 0, drawn_from = 0;
            unsigned *hits = calloc((size_t)(side * side), sizeof *hits);
            for (long yy = y; yy < y + side; yy++)
                for (long xx = x; xx < x + side; xx++) {
                    if (xx >= (long)l->in.width || yy >= (long)l->in.height)
                        continue;
                    domain += drawable(l, bo, &q, xx, yy);
                    drawn_from += drawable(l, NULL, &q, xx, yy);
                }
            nb_random_result a;
            uint64_t draws = 60 * (domain ? domain : 1);
            int bad = 0;
            for (uint64_t d = 0; d < draws; d++) {
                nb_status st = nb_world_random_find(ws, &q, blocked ? wov : NULL, x, y, side, side, &a, &err);
                if (st != NB_OK || (domain && a.status != NB_PATH_FOUND) ||
                    (!domain && a.status == NB_PATH_FOUND) || a.cells != drawn_from) {
                    bad = 1;
                    break;
                }
                if (!domain)
                    break;
                q.seed = a.state;
                long cx = a.cell.x - x, cy = a.cell.y - y;
                if (cx < 0 || cy < 0 || cx >= side || cy >= side ||
                    !drawable(l, bo, &q, a.cell.x, a.cell.y)) {
                    bad = 1;
                    break;
                }
                hits[cy * side + cx]++;
            }
            if (bad && !wrong_cells++)
                diag("%s: random in %ld x %ld at (%ld, %ld), size %u reachable %d: %d (%d, %d) "
                     "of %llu, the brute force %llu of %llu (%s)", l->what, side, side, x, y,
                     q.size, q.reachable, a.status, a.cell.x, a.cell.y,
                     (unsigned long long)a.cells, (unsigned long long)domain,
                     (unsigned long long)drawn_from, err.msg);
            /* Chi-square over the domain's cells: expected 60 each. */
            if (!bad && domain > 1) {
                double chi = 0;
                for (long yy = y; yy < y + side; yy++)
                    for (long xx = x; xx < x + side; xx++)
                        if (xx < (long)l->in.width && yy < (long)l->in.height && drawable(l, bo, &q, xx, yy)) {
                            double o = hits[(yy - y) * side + (xx - x)];
                            chi += (o - 60) * (o - 60) / 60;
                        }
                double df = (double)domain - 1;
                if (chi > df + 6 * sqrt(2 * df) + 10 && !wrong_chi++)
                    diag("%s: rectangle %ld x %ld at (%ld, %ld): chi-square %.1f on %.0f degrees",
                         l->what, side, side, x, y, chi, df);
            }
            free(hits);
            rects++;
        }
        is_int(wrong_cells, 0, "%s: %u rectangles across tile borders %s: every cell drawn is "
                               "the brute force's, of its count", l->what, rects,
               blocked ? "under blocks straddling borders" : "(half reachable)");
        is_int(wrong_chi, 0, "%s: ... each cell drawn about equally often (chi-square)", l->what);
    }
    /* Tiles missing: exactly those the rectangle meets (and the start's) are named. */
    unsigned wrong_named = 0;
    for (int i = 0; i < 30; i++) {
        load_half(l, &r);
        nb_random_query q;
        nb_random_query_init(&q);
        nb_random_query_agent(&q, nb_agent_get(l->whole, 0));
        long x = tu_below(&r, l->in.width), y = tu_below(&r, l->in.height);
        long w = 1 + tu_below(&r, 2 * l->in.tile), h = 1 + tu_below(&r, 2 * l->in.tile);
        q.reachable = i % 2;
        q.start = (nb_cell){(int32_t)tu_below(&r, l->in.width), (int32_t)tu_below(&r, l->in.height)};
        unsigned char *want = calloc(ntiles, 1);
        size_t nwant = 0;
        for (size_t t = 0; t < ntiles; t++) {
            uint32_t c = (uint32_t)(t % l->in.columns), rw = (uint32_t)(t / l->in.columns);
            long tx0 = (long)(c * l->in.tile), ty0 = (long)(rw * l->in.tile);
            int meets = tx0 < x + w && x < tx0 + (long)l->in.tile && ty0 < y + h && y < ty0 + (long)l->in.tile;
            meets |= q.reachable && (uint32_t)q.start.x / l->in.tile == c && (uint32_t)q.start.y / l->in.tile == rw;
            if (meets && !nb_world_loaded(l->w, (nb_world_tile){c, rw}))
                want[t] = 1, nwant++;
        }
        nb_random_result a;
        nb_status st = nb_world_random_find(ws, &q, NULL, x, y, w, h, &a, &err);
        size_t k = nb_world_aa_needed(ws, need, ntiles);
        int bad = nwant ? st != NB_ERR_UNLOADED || k != nwant : st != NB_OK || k != 0;
        for (size_t j = 0; j < k && !bad; j++)
            bad |= !want[need[j].row * l->in.columns + need[j].column];
        if (bad && !wrong_named++)
            diag("%s: random in %ld x %ld at (%ld, %ld) reachable %d: %d naming %zu tiles, %zu "
                 "missing (%s)", l->what, w, h, x, y, q.reachable, st, k, nwant, err.msg);
        free(want);
    }
    is_int(wrong_named, 0, "%s: 30 draws with half the tiles loaded: NB_ERR_UNLOADED naming "
                           "exactly the missing tiles the rectangle (and the start) meet",
           l->what);
    /* Refusals. */
    load_all(l);
    nb_random_query q;
    nb_random_query_init(&q);
    nb_random_query_agent(&q, nb_agent_get(l->whole, 0));
    nb_random_result a;
    is_int(nb_world_random_find(ws, &q, NULL, 0, 0, 0, 5, &a, &err), NB_ERR_ARG,
           "%s: a rectangle of width 0: NB_ERR_ARG (%s)", l->what, err.msg);
    q.reachable = 1;
    is_int(nb_world_random_find(ws, &q, wov, 0, 0, 5, 5, &a, &err), NB_ERR_ARG,
           "%s: reachable under blocks: NB_ERR_ARG (%s)", l->what, err.msg);
    q.start.x = -1;
    is_int(nb_world_random_find(ws, &q, NULL, 0, 0, 5, 5, &a, &err), NB_ERR_OUTSIDE,
           "%s: a start off the world: NB_ERR_OUTSIDE (%s)", l->what, err.msg);
    unload_all(l);
    free(need);
    nb_world_overlay_close(wov);
    nb_overlay_close(ov);
    nb_place_close(pl);
    nb_world_aa_close(ws);
}


/* Lines and draws allocate nothing: a counting allocator sees no call after the first round. */
static void check_no_alloc(const char *dir)
{
    tc_count count;
    nb_allocator al;
    tc_init(&count, &al);
    nb_world *w;
    nb_world_aa *ws;
    nb_world_overlay *ov;
    nb_err err;
    if (!ok(nb_world_open(tu_path(dir, "world.nbw"), NULL, 0, &al, &w, &err) == NB_OK &&
                nb_world_aa_open(w, &ws, &err) == NB_OK && nb_world_overlay_open(w, &ov, &err) == NB_OK,
            "the world opens with a counting allocator: %s", err.msg))
        return;
    nb_world_info in;
    nb_world_describe(w, &in);
    nb_world_overlay_block(ov, in.tile - 2, 0, 4, in.height, NULL);
    for (int round = 0; round < 2; round++) {
        tu_rng r = {9};
        tc_mark(&count);
        for (int i = 0; i < 200; i++) {
            if (i % 50 == 0) { /* tiles come and go between queries, not within them */
                nb_world_unload_cells(w, 0, 0, in.width, in.height, NULL);
                nb_world_load_cells(w, 0, 0, in.width, in.height, NULL);
            }
            nb_line_query lq;
            nb_line_query_init(&lq);
            nb_line_query_agent(&lq, nb_agent_get(nb_world_bundle(w), (size_t)i % 2));
            lq.start = (nb_vec2){tu_below(&r, in.width - 2), tu_below(&r, in.height - 2)};
            lq.goal = (nb_vec2){tu_below(&r, in.width - 2) + 0.5, tu_below(&r, in.height - 2)};
            nb_line_result lr;
            nb_world_line_find(ws, &lq, i % 3 ? ov : NULL, &lr, NULL);
            nb_random_query rq;
            nb_random_query_init(&rq);
            nb_random_query_agent(&rq, nb_agent_get(nb_world_bundle(w), (size_t)i % 2));
            rq.seed = (uint64_t)i;
            nb_random_result rr;
            nb_world_random_find(ws, &rq, i % 3 ? ov : NULL, 0, 0, in.width, in.height, &rr, NULL);
        }
    }
    /* Loading maps tiles (the loader's allocations); what is counted here is the queries'. */
    size_t loads = count.allocs;
    tc_mark(&count);
    nb_world_unload_cells(w, 0, 0, in.width, in.height, NULL);
    nb_world_load_cells(w, 0, 0, in.width, in.height, NULL);
    size_t one_load = count.allocs;
    is_int(loads, 4 * one_load, "200 lines and 200 draws again allocate nothing but the 4 reloads' "
           "%zu calls", one_load);
    nb_world_overlay_close(ov);
    nb_world_aa_close(ws);
    nb_world_close(w);
}

int main(void)
{
    const char *tmp = tu_tmpdir();
    int k = 0;
    level l;
    /* The sample level with terrain-cost agents, in tiles of 16 (4 x 3 tiles). */
    const char *d0 = tw_fresh_dir(tmp, "p", &k);
    if (tw_level_open(&l, "sample", tu_src("data/sample.map"), tu_src("data/sample-agents.yaml"), 16, 8,
                   d0)) {
        check_lines(&l, 300, 1);
        check_random(&l, 2);
        tw_level_close(&l);
        check_no_alloc(d0);
    }
    /* A random level of four terrains, 120 x 100 in tiles of 16. */
    tu_rng r = {0x31bbULL};
    nbb_grid g;
    tu_random_grid(&r, 120, 100, 10, 2, &g);
    const char *map = tu_path(tmp, "random.map");
    tw_write_map(map, &g);
    nbb_grid_free(&g);
    if (tw_level_open(&l, "random 120 x 100", map, tu_src("data/sample-agents.yaml"), 16, 8,
                   tw_fresh_dir(tmp, "p", &k))) {
        check_lines(&l, 200, 3);
        check_random(&l, 4);
        tw_level_close(&l);
    }
    /* Two shared maps; without ../shared, the sample level in tiles of 32 stands in. */
    static const struct { const char *map; uint32_t tile; } maps[] = {
        {"maps/dao/brc202d.map", 128}, {"maps/bg/AR0042SR.map", 64}};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        const char *m = tu_shared(maps[i].map);
        uint32_t tile = maps[i].tile;
        const char *what = maps[i].map;
        if (!m) {
            what = "sample in 32";
            diag("%s: ../shared is not there: data/sample.map in tiles of 32 stands in", maps[i].map);
            m = tu_src("data/sample.map"), tile = 32;
        }
        if (tw_level_open(&l, what, m,
                       tu_src("data/haa-agents.yaml"), tile, 16, tw_fresh_dir(tmp, "p", &k))) {
            check_lines(&l, 120, 10 + i);
            check_random(&l, 20 + i);
            tw_level_close(&l);
        }
    }
    return done_testing();
}
