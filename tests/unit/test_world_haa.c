/* test_world_haa.c: HAA* across a world's tiles (nb_world_haa_find,
 * lib/runtime/stream/world_haa.c over haa_world.c) against Annotated A* on the same map baked whole, on three
 * shared maps cut into 4 x 4 tiles or more (data/sample.map in 4 x 3
 * tiles of 16 when ../shared is not there: the same checks).
 *
 * - Complete: a path exactly when Annotated A* finds one.
 * - Every path a walk of the whole bake: each cell standable, each step to
 *   a neighbour, from the start to the goal, never shorter than AA*'s.
 * - Its mean error within tests/bench/results/haa-bench.md's range (at
 *   most 10 %, the low-quality graphs' worst), most pairs crossing tiles.
 * - A query whose tiles are not loaded: NB_ERR_UNLOADED naming them; the
 *   world graph's search needs none but the ends'.
 * - Under overlays that block rectangles (many straddling tile borders):
 *   complete against the world's Annotated A* under the same overlay, every
 *   path a walk of the edited map (checked against the rectangles, not the
 *   overlay), never shorter, the mean error in the same range.
 * - Edited tiles searched through their repaired graphs (tile_repair.c),
 *   repaired(): 1 to 20 rectangles of 1 to 20 cells a side, some across
 *   borders, some on the path, the same checks against world AA*, no
 *   refined path above the world graph's, the same answer asked twice,
 *   the repaired graph's keys walked by the search above the tiles;
 *   a small block on the path holds the expansions above the tiles
 *   (the repaired graphs' keys apart) to 3x + 64 the unblocked query's;
 *   planted faults (cell by cell, the repaired graphs not
 *   joined, the border's portals not joined) each seen failing.
 * - What is not answered across tiles yet refused (smoothing, partial,
 *   terrain costs), an end the agent cannot
 *   stand at answered as nb_haa_find does, a budget stopping the search.
 * - The world graph and a tile's border graph refused when damaged: an arc
 *   or a distance shorter than its cells lie apart (the search's heuristic
 *   relies on it), an arc to no node, a node outside its tile, a portal
 *   off the tile's edge, a link from no portal, counts the table does not
 *   say.
 * - The world graph's landmarks (world_landmarks, the link's): the search
 *   above the tiles finds the same world graph length with them as with
 *   the octile distance alone (both A* with bounds that never overestimate,
 *   so both optimal on that graph), expanding fewer nodes in all; the
 *   section refused when damaged: a distance that some arc cannot span, a
 *   landmark that is no node, a count the table does not say, a distance
 *   past the format's bound.  Every stored distance equal to a plain
 *   Dijkstra made here from each landmark over the world graph; with the
 *   manifest's `landmarks: 12` (and blocks), 12 of them, each past the 8th
 *   the node farthest from those before it, and the same world graph
 *   lengths with them as without.
 * - An end's insertion (its costs to its tile's portals, as queries make
 *   them on the re-bound workspace) equal to a plain Dijkstra made here
 *   over the end's cluster's cells, then over the tile graph's nodes in the
 *   tile; the same queries asked again, nbi_whaa_begin allocates nothing. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "countalloc.h"
#include "stream/haa_world.h"
#include "worldbake.h"

static int adjacent(nb_cell a, nb_cell b)
{
    return abs(a.x - b.x) <= 1 && abs(a.y - b.y) <= 1 && (a.x != b.x || a.y != b.y);
}

/* What nb_world_haa_find refuses or answers without a path, all tiles loaded; hq's ends are
 * the world's corners. */
static void refused(const char *what, const nb_world *w, nb_world_haa *q, const nb_haa_query *hq0,
                    nb_world_overlay *ov, const nb_bundle *whole, const nb_agent *ag)
{
    nb_err err;
    nb_haa_result res;
    nb_haa_query hq = *hq0;
    /* An overlay that blocks none is no overlay (those that block cells: edited()). */
    is_int(nb_world_haa_find(q, &hq, ov, &res, &err), NB_OK,
           "%s: an overlay that blocks nothing is answered (%s)", what, err.msg);
    hq.flags = NB_HAA_SMOOTH;
    is_int(nb_world_haa_find(q, &hq, NULL, &res, &err), NB_ERR_ARG, "%s: smoothing: NB_ERR_ARG",
           what);
    hq.flags = NB_HAA_STRAIGHTEN;
    hq.partial = 1;
    is_int(nb_world_haa_find(q, &hq, NULL, &res, &err), NB_ERR_ARG, "%s: partial: NB_ERR_ARG",
           what);
    hq.partial = 0;
    double costs[NB_MAX_TERRAINS];
    for (int k = 0; k < NB_MAX_TERRAINS; k++)
        costs[k] = 1;
    hq.costs = costs;
    is_int(nb_world_haa_find(q, &hq, NULL, &res, &err), NB_ERR_NOTFOUND,
           "%s: terrain costs: NB_ERR_NOTFOUND", what);
    hq.costs = NULL;
    hq.size = 0;
    is_int(nb_world_haa_find(q, &hq, NULL, &res, &err), NB_ERR_ARG, "%s: size 0: NB_ERR_ARG",
           what);
    hq.size = 1;
    hq.goal.x = -1;
    is_int(nb_world_haa_find(q, &hq, NULL, &res, &err), NB_ERR_OUTSIDE,
           "%s: an end off the world: NB_ERR_OUTSIDE", what);
    /* A blocked start and goal, as nb_haa_find answers them. */
    nb_cell wall = {-1, -1}, open = {-1, -1};
    for (int32_t y = 0; y < (int32_t)nb_map_height(whole) && (wall.x < 0 || open.x < 0); y++)
        for (int32_t x = 0; x < (int32_t)nb_map_width(whole); x++) {
            int st = nb_can_stand(whole, ag->capability, 1, x, y);
            if (st == 0 && wall.x < 0)
                wall = (nb_cell){x, y};
            if (st == 1 && open.x < 0)
                open = (nb_cell){x, y};
        }
    hq.start = wall, hq.goal = open;
    is_int(nb_world_haa_find(q, &hq, NULL, &res, &err), NB_OK, "%s: a blocked start: NB_OK", what);
    is_int(res.status, NB_PATH_START_BLOCKED, "%s: ... NB_PATH_START_BLOCKED", what);
    hq.start = open, hq.goal = wall;
    nb_world_haa_find(q, &hq, NULL, &res, &err);
    is_int(res.status, NB_PATH_GOAL_BLOCKED, "%s: a blocked goal: NB_PATH_GOAL_BLOCKED", what);
    /* A budget of one node stops a search across the world, with the start alone; ends in
     * different components are answered without a search. */
    hq = *hq0;
    hq.start = hq.goal = open;
    nb_cell apart = {-1, -1};
    for (int32_t y = 0; y < (int32_t)nb_map_height(whole); y++)
        for (int32_t x = 0; x < (int32_t)nb_map_width(whole); x++) {
            int joined = 0;
            if (nb_can_stand(whole, ag->capability, 1, x, y) != 1 ||
                nb_world_reachable(w, ag->capability, 1, open, (nb_cell){x, y}, &joined,
                                   NULL, 0, NULL, NULL) != NB_OK)
                continue;
            if (joined)
                hq.goal = (nb_cell){x, y}; /* the last in row order: far from the first */
            else if (apart.x < 0)
                apart = (nb_cell){x, y};
        }
    if (apart.x < 0) {
        diag("%s: one component: no ends apart to ask", what);
    } else {
        nb_haa_query hn = hq;
        hn.goal = apart;
        is_int(nb_world_haa_find(q, &hn, NULL, &res, &err), NB_OK, "%s: ends apart: NB_OK", what);
        ok(res.status == NB_PATH_NONE && !res.searched && res.expanded == 0,
           "%s: ... no path, answered without a search (%s, %llu expanded)", what,
           nb_path_status_str(res.status), (unsigned long long)res.expanded);
    }
    hq.max_expansions = 1;
    is_int(nb_world_haa_find(q, &hq, NULL, &res, &err), NB_OK, "%s: a budget of one node: NB_OK",
           what);
    ok(res.status == NB_PATH_LIMIT && res.path_len == 1 && res.path[0].x == open.x &&
           res.path[0].y == open.y,
       "%s: ... NB_PATH_LIMIT, the start alone (%s, %zu cells)", what,
       nb_path_status_str(res.status), res.path_len);
    ok(nb_world_haa_bytes(q) > 0, "%s: the workspace says what it holds (%zu bytes)", what,
       nb_world_haa_bytes(q));
}

/* A rectangle of blocked cells. */
typedef struct rect {
    int32_t x, y, w, h;
} rect;

static int in_rects(const rect *rs, int n, int32_t x, int32_t y)
{
    for (int i = 0; i < n; i++)
        if (x >= rs[i].x && x < rs[i].x + rs[i].w && y >= rs[i].y && y < rs[i].y + rs[i].h)
            return 1;
    return 0;
}

/* The agent (size 1) stands at c on the edited map: the whole bake's clearance, no rectangle. */
static int stands_edited(const nb_bundle *whole, nb_capability cap, const rect *rs, int n,
                         nb_cell c)
{
    return nb_can_stand(whole, cap, 1, c.x, c.y) == 1 && !in_rects(rs, n, c.x, c.y);
}

/* 1 when path[0..len) walks the edited map from a to b: each cell standable, each step to a
 * neighbour, a diagonal's corner cells standable (strict corners). */
static int is_walk(const nb_bundle *whole, nb_capability cap, const rect *rs, int n,
                   const nb_cell *path, size_t len, nb_cell a, nb_cell b)
{
    int walk = len >= 1 && path[0].x == a.x && path[0].y == a.y && path[len - 1].x == b.x &&
               path[len - 1].y == b.y;
    for (size_t k = 0; walk && k < len; k++) {
        nb_cell c = path[k];
        walk = stands_edited(whole, cap, rs, n, c) && (k == 0 || adjacent(path[k - 1], c));
        if (walk && k > 0 && path[k - 1].x != c.x && path[k - 1].y != c.y)
            walk = stands_edited(whole, cap, rs, n, (nb_cell){c.x, path[k - 1].y}) &&
                   stands_edited(whole, cap, rs, n, (nb_cell){path[k - 1].x, c.y});
    }
    return walk;
}

/* World HAA* under overlays of random rectangles, most across tile borders, against the
 * world's Annotated A* under the same overlay. */
static void edited(const char *what, nb_world *w, nb_world_haa *q, const nb_bundle *whole,
                   const nb_agent *ag, uint32_t tile, int rounds, int pairs)
{
    nb_err err;
    nb_world_info in;
    nb_world_describe(w, &in);
    nb_world_aa *wa = NULL;
    nb_world_overlay *ov = NULL;
    if (!ok(nb_world_aa_open(w, &wa, &err) == NB_OK && nb_world_overlay_open(w, &ov, &err) == NB_OK,
            "%s: world AA* and an overlay open: %s", what, err.msg))
        return;
    tu_rng r = {0xed17 + tile};
    unsigned wrong_found = 0, bad_walk = 0, shorter = 0, found = 0, asked = 0, fails = 0;
    unsigned straddle = 0, through = 0;
    double err_sum = 0;
    for (int round = 0; round < rounds; round++) {
        rect rs[12];
        int n = 2 + (int)tu_below(&r, 10);
        for (int i = 0; i < n; i++) {
            /* Most on a tile border (a vertical or a horizontal one), some anywhere. */
            int32_t side = 1 + (int32_t)tu_below(&r, tile);
            rect b = {(int32_t)tu_below(&r, in.width), (int32_t)tu_below(&r, in.height),
                      side, 1 + (int32_t)tu_below(&r, tile / 4)};
            if (tu_below(&r, 2))
                b = (rect){b.x, b.y, b.h, b.w};
            if (tu_below(&r, 4)) {
                b.x = (int32_t)(tu_below(&r, in.columns) * tile) - b.w / 2;
                b.y = (int32_t)(tu_below(&r, in.rows) * tile) - b.h / 2;
            }
            /* Clipped to the world (the overlay refuses cells off it). */
            if (b.x < 0)
                b.w += b.x, b.x = 0;
            if (b.y < 0)
                b.h += b.y, b.y = 0;
            b.w = b.x + b.w > (int32_t)in.width ? (int32_t)in.width - b.x : b.w;
            b.h = b.y + b.h > (int32_t)in.height ? (int32_t)in.height - b.y : b.h;
            if (b.w < 1 || b.h < 1)
                b = (rect){0, 0, 1, 1};
            straddle += b.x / (int32_t)tile != (b.x + b.w - 1) / (int32_t)tile ||
                        b.y / (int32_t)tile != (b.y + b.h - 1) / (int32_t)tile;
            rs[i] = b;
            if (nb_world_overlay_block(ov, b.x, b.y, b.w, b.h, &err) != NB_OK)
                diag("%s: a block (%d, %d) %d x %d: %s", what, b.x, b.y, b.w, b.h, err.msg);
        }
        for (int i = 0; i < pairs; i++) {
            nb_cell e[2] = {{0, 0}, {0, 0}};
            for (int k = 0; k < 2; k++)
                for (int tries = 0; tries < 500; tries++) {
                    e[k] = (nb_cell){(int32_t)tu_below(&r, in.width), (int32_t)tu_below(&r, in.height)};
                    if (stands_edited(whole, ag->capability, rs, n, e[k]))
                        break;
                }
            nb_aa_query aq;
            nb_aa_query_init(&aq);
            aq.start = e[0], aq.goal = e[1], aq.size = 1, aq.capability = ag->capability;
            aq.corner = NB_CORNER_STRICT;
            nb_haa_query hq;
            nb_haa_query_init(&hq);
            hq.start = e[0], hq.goal = e[1], hq.size = 1, hq.capability = ag->capability;
            hq.flags = NB_HAA_STRAIGHTEN;
            nb_aa_result ar;
            nb_haa_result res;
            asked++;
            if (nb_world_aa_find(wa, &aq, ov, &ar, &err) != NB_OK ||
                nb_world_haa_find(q, &hq, ov, &res, &err) != NB_OK) {
                if (!fails++)
                    diag("%s: (%d, %d) to (%d, %d): %s", what, e[0].x, e[0].y, e[1].x, e[1].y,
                         err.msg);
                continue;
            }
            int want = ar.status == NB_PATH_FOUND, got = res.status == NB_PATH_FOUND;
            if (want != got || (!want && ar.status != res.status)) {
                if (!wrong_found++)
                    diag("%s: (%d, %d) to (%d, %d): world AA* %s, world HAA* %s", what, e[0].x,
                         e[0].y, e[1].x, e[1].y, nb_path_status_str(ar.status),
                         nb_path_status_str(res.status));
                continue;
            }
            if (!want)
                continue;
            found++;
            int walk = is_walk(whole, ag->capability, rs, n, res.path, res.path_len, e[0], e[1]);
            int crosses = 0;
            for (size_t k = 0; walk && k < res.path_len; k++) {
                nb_cell c = res.path[k];
                for (int j = 0; j < n && !crosses; j++)
                    crosses = abs(c.x - (rs[j].x + rs[j].w / 2)) <= rs[j].w / 2 + 2 &&
                              abs(c.y - (rs[j].y + rs[j].h / 2)) <= rs[j].h / 2 + 2;
            }
            through += crosses;
            if (!walk && !bad_walk++) {
                diag("%s: (%d, %d) to (%d, %d): the path is not a walk of the edited map", what,
                     e[0].x, e[0].y, e[1].x, e[1].y);
                for (size_t k = 0; k < res.path_len && getenv("TWH_DEBUG"); k++)
                    diag("  (%d, %d) %d", res.path[k].x, res.path[k].y,
                         stands_edited(whole, ag->capability, rs, n, res.path[k]));
            }
            if (res.length < ar.length - 1e-6 && !shorter++)
                diag("%s: (%d, %d) to (%d, %d): %.4f, shorter than AA*'s %.4f", what, e[0].x,
                     e[0].y, e[1].x, e[1].y, res.length, ar.length);
            if (ar.length > 0)
                err_sum += (res.length - ar.length) / ar.length;
        }
        for (int i = 0; i < n; i++)
            nb_world_overlay_unblock(ov, rs[i].x, rs[i].y, rs[i].w, rs[i].h, NULL);
    }
    is_int(fails, 0, "%s, edited: every query answers", what);
    is_int(wrong_found, 0, "%s, edited: complete: a path exactly when world AA* under the same "
                           "overlay finds one (%u pairs, %u rectangles across tile borders)",
           what, asked, straddle);
    is_int(bad_walk, 0, "%s, edited: every path a walk of the edited map", what);
    is_int(shorter, 0, "%s, edited: no path shorter than AA*'s", what);
    double mean = found ? 100 * err_sum / found : 0;
    ok(found >= asked / 4 && through > 0 && straddle >= (unsigned)rounds,
       "%s, edited: %u paths found, %u passing by a block", what, found, through);
    ok(mean <= 10.0, "%s, edited: mean error %.2f %% (at most 10 %%)", what, mean);
    diag("%s, edited: %u paths, mean error %.2f %%", what, found, mean);
    nb_world_overlay_close(ov);
    nb_world_aa_close(wa);
}

/* What repaired() counts over its queries. */
typedef struct rstats {
    unsigned asked, fails, wrong_found, bad_walk, shorter, above_abstract, found, repaired;
    unsigned small, blowup, again;
    unsigned joined;      /* queries that walked a repaired tile's graph */
    uint64_t joined_keys; /* its keys they expanded */
    double err_sum, worst_factor;
    double worst_joined; /* the same factor with the repaired graphs' keys counted */
} rstats;

/* A block of side k on a cell of path[] at least margin cells inside its tile, away from the
 * ends' tiles: 0 when there is none. */
static int block_on_path(const nb_cell *path, size_t len, uint32_t tile, int32_t margin, int32_t k,
                         uint32_t ts, uint32_t tg, uint32_t columns, rect *out)
{
    for (size_t i = len / 3; i < len; i++) {
        nb_cell c = path[(i * 7) % len];
        int32_t lx = c.x % (int32_t)tile, ly = c.y % (int32_t)tile;
        uint32_t t = (uint32_t)(c.y / (int32_t)tile) * columns + (uint32_t)(c.x / (int32_t)tile);
        if (t == ts || t == tg || lx < margin || ly < margin || lx + k > (int32_t)tile - margin ||
            ly + k > (int32_t)tile - margin)
            continue;
        *out = (rect){c.x - k / 2, c.y - k / 2, k, k};
        return 1;
    }
    return 0;
}

/* Two random cells the agent stands on in the map without blocks (the last tried when 500
 * tries find none). */
static void random_ends(tu_rng *r, const nb_world_info *in, const nb_bundle *whole,
                        const nb_agent *ag, nb_cell *e)
{
    for (int k = 0; k < 2; k++)
        for (int tries = 0; tries < 500; tries++) {
            e[k] = (nb_cell){(int32_t)tu_below(r, in->width), (int32_t)tu_below(r, in->height)};
            if (nb_can_stand(whole, ag->capability, 1, e[k].x, e[k].y) == 1)
                break;
        }
}

/* The three handles a query under a world overlay needs (world AA* for the reference, the overlay,
 * HAA*'s workspace): 0, with a diagnostic, when one does not open. */
static int overlay_handles(nb_world *w, const nb_agent *ag, nb_world_aa **wa, nb_world_overlay **ov,
                           nbi_whaa **q, const char *what)
{
    nb_err err;
    if (nb_world_aa_open(w, wa, &err) != NB_OK || nb_world_overlay_open(w, ov, &err) != NB_OK ||
        nbi_whaa_new(w, ag->capability, 1, q, &err) != NB_OK) {
        diag("%s: open: %s", what, err.msg);
        return 0;
    }
    return 1;
}

static void overlay_handles_close(nb_world_aa *wa, nb_world_overlay *ov, nbi_whaa *q)
{
    nbi_whaa_free(q);
    nb_world_overlay_close(ov);
    nb_world_aa_close(wa);
}

/* World AA* (strict corners, size 1: the reference) and world HAA* from e[0] to e[1] under
 * ov: 0, with a diagnostic, when either fails. */
static int ask_both(nb_world_aa *wa, nbi_whaa *q, const nb_world_overlay *ov, const nb_agent *ag,
                    const nb_cell *e, nb_aa_query *aq, nb_aa_result *ar, nbi_whaa_result *res,
                    const char *what)
{
    nb_err err;
    nb_aa_query_init(aq);
    aq->start = e[0], aq->goal = e[1], aq->size = 1, aq->capability = ag->capability;
    aq->corner = NB_CORNER_STRICT;
    if (nb_world_aa_find(wa, aq, ov, ar, &err) != NB_OK ||
        nbi_whaa_find(q, e[0], e[1], ov, res, NULL, 0, NULL, &err) != NB_OK) {
        diag("%s: (%d, %d) to (%d, %d): %s", what, e[0].x, e[0].y, e[1].x, e[1].y, err.msg);
        return 0;
    }
    return 1;
}

/* World HAA* with an overlay's edited tiles searched through their repaired graphs
 * (tile_repair.c), faults planted as asked (nbi_whaa_set_faults), against world AA* under
 * the same overlay: rounds of 1 to 20 rectangles of 1 x 1 to 20 x 20, a quarter across tile
 * borders, some on the unblocked path of a pair; then one small block on the unblocked path
 * of each pair, whose expansions are held to a small factor of the unblocked query's. */
static void repaired_run(nb_world *w, const nb_bundle *whole, const nb_agent *ag, uint32_t tile,
                         uint32_t cluster, int rounds, int pairs, int stale, int no_join,
                         int cell_walk, rstats *rs_)
{
    nb_err err;
    nb_world_info in;
    nb_world_describe(w, &in);
    memset(rs_, 0, sizeof *rs_);
    nb_world_aa *wa = NULL;
    nb_world_overlay *ov = NULL;
    nbi_whaa *q = NULL;
    if (!overlay_handles(w, ag, &wa, &ov, &q, "repaired")) {
        rs_->fails++;
        goto out;
    }
    nbi_whaa_set_faults(q, cell_walk, stale, no_join);
    tu_rng r = {0x7e9a + tile};
    for (int round = 0; round < rounds + pairs; round++) {
        /* The ends, standable on the map without blocks, in different tiles. */
        nb_cell e[2];
        random_ends(&r, &in, whole, ag, e);
        uint32_t ts = (uint32_t)(e[0].y / (int32_t)tile) * in.columns + (uint32_t)(e[0].x / (int32_t)tile);
        uint32_t tg = (uint32_t)(e[1].y / (int32_t)tile) * in.columns + (uint32_t)(e[1].x / (int32_t)tile);
        nbi_whaa_result base;
        nb_cell *bpath = NULL;
        size_t blen = 0;
        uint64_t e0 = 0;
        if (nbi_whaa_find(q, e[0], e[1], NULL, &base, NULL, 0, NULL, &err) == NB_OK && base.found) {
            bpath = malloc(base.path_len * sizeof *bpath);
            memcpy(bpath, base.path, base.path_len * sizeof *bpath);
            blen = base.path_len;
            e0 = base.expanded;
        }
        rect rs[24];
        int n = 0;
        if (round < rounds) {
            n = 1 + (int)tu_below(&r, 20);
            for (int i = 0; i < n; i++) {
                int32_t bw = 1 + (int32_t)tu_below(&r, 20), bh = 1 + (int32_t)tu_below(&r, 20);
                rect b = {(int32_t)tu_below(&r, in.width), (int32_t)tu_below(&r, in.height), bw, bh};
                if (tu_below(&r, 4) == 0) { /* across a tile border */
                    b.x = (int32_t)(tu_below(&r, in.columns) * tile) - bw / 2;
                    b.y = (int32_t)(tu_below(&r, in.rows) * tile) - bh / 2;
                } else if (tu_below(&r, 3) == 0 && blen) { /* on the unblocked path */
                    nb_cell c = bpath[tu_below(&r, blen)];
                    b.x = c.x - bw / 2, b.y = c.y - bh / 2;
                }
                if (b.x < 0)
                    b.w += b.x, b.x = 0;
                if (b.y < 0)
                    b.h += b.y, b.y = 0;
                b.w = b.x + b.w > (int32_t)in.width ? (int32_t)in.width - b.x : b.w;
                b.h = b.y + b.h > (int32_t)in.height ? (int32_t)in.height - b.y : b.h;
                if (b.w < 1 || b.h < 1)
                    b = (rect){0, 0, 1, 1};
                rs[i] = b;
            }
        } else if (blen && ts != tg &&
                   block_on_path(bpath, blen, tile, 2 * (int32_t)cluster + 1,
                                 1 + (int32_t)tu_below(&r, 8), ts, tg, in.columns, &rs[0])) {
            n = 1; /* one small block on the path, inside a tile */
        } else {
            free(bpath);
            continue;
        }
        /* An end a block takes stays an end: the query is still asked (and must say so). */
        for (int i = 0; i < n; i++)
            if (nb_world_overlay_block(ov, rs[i].x, rs[i].y, rs[i].w, rs[i].h, &err) != NB_OK)
                diag("repaired: a block (%d, %d) %d x %d: %s", rs[i].x, rs[i].y, rs[i].w, rs[i].h,
                     err.msg);
        nb_aa_query aq;
        nb_aa_result ar;
        nbi_whaa_result res;
        rs_->asked++;
        if (!ask_both(wa, q, ov, ag, e, &aq, &ar, &res, "repaired")) {
            rs_->fails++;
            goto next;
        }
        rs_->repaired += res.repaired > 0;
        rs_->joined += res.joined > 0;
        rs_->joined_keys += res.joined;
        /* Asked again under the same overlay (its repaired tiles and rows kept): the same. */
        nbi_whaa_result res2;
        int found1 = res.found;
        double len1 = res.length;
        uint64_t exp1 = res.expanded;
        if (nbi_whaa_find(q, e[0], e[1], ov, &res2, NULL, 0, NULL, &err) != NB_OK ||
            res2.found != found1 || fabs(res2.length - len1) > 1e-9 || res2.expanded != exp1) {
            if (!rs_->again++)
                diag("repaired: (%d, %d) to (%d, %d) asked again: %s, %.3f, %llu nodes against "
                     "%s, %.3f, %llu", e[0].x, e[0].y, e[1].x, e[1].y, res2.found ? "found" : "none",
                     res2.length, (unsigned long long)res2.expanded, found1 ? "found" : "none",
                     len1, (unsigned long long)exp1);
        }
        res = res2;
        if ((ar.status == NB_PATH_FOUND) != res.found) {
            if (!rs_->wrong_found++)
                diag("repaired: (%d, %d) to (%d, %d): world AA* %s, world HAA* %s", e[0].x,
                     e[0].y, e[1].x, e[1].y, nb_path_status_str(ar.status),
                     res.found ? "found" : "none");
            goto next;
        }
        if (!res.found)
            goto next;
        rs_->found++;
        if (!is_walk(whole, ag->capability, rs, n, res.path, res.path_len, e[0], e[1]) &&
            !rs_->bad_walk++)
            diag("repaired: (%d, %d) to (%d, %d): not a walk of the edited map", e[0].x, e[0].y,
                 e[1].x, e[1].y);
        if (res.length < ar.length - 1e-6)
            rs_->shorter++;
        /* The refinement follows the world graph's path and only straightens it: a refined
         * path longer than the path it refines priced that path below what it costs. */
        if (res.length > res.abstract_length + 1e-6 && !rs_->above_abstract++)
            diag("repaired: (%d, %d) to (%d, %d): refined %.3f above the world graph's %.3f",
                 e[0].x, e[0].y, e[1].x, e[1].y, res.length, res.abstract_length);
        if (ar.length > 0)
            rs_->err_sum += (res.length - ar.length) / ar.length;
        if (round >= rounds) {
            /* The search above the tiles: world nodes and cells walked (a repaired tile's
             * graph keys, which stand for its cells, counted apart). */
            uint64_t above = res.expanded - res.joined;
            double f = (double)above / (double)(e0 ? e0 : 1);
            double fj = (double)res.expanded / (double)(e0 ? e0 : 1);
            rs_->worst_joined = fj > rs_->worst_joined ? fj : rs_->worst_joined;
            rs_->small++;
            rs_->worst_factor = f > rs_->worst_factor ? f : rs_->worst_factor;
            if (above > 3 * e0 + 64)
                rs_->blowup++;
        }
    next:
        for (int i = 0; i < n; i++)
            nb_world_overlay_unblock(ov, rs[i].x, rs[i].y, rs[i].w, rs[i].h, NULL);
        free(bpath);
    }
out:
    overlay_handles_close(wa, ov, q);
}

static void repaired(const char *what, nb_world *w, const nb_bundle *whole, const nb_agent *ag,
                     uint32_t tile, uint32_t cluster, int rounds, int pairs)
{
    rstats s, walk, stale, edges;
    repaired_run(w, whole, ag, tile, cluster, rounds, pairs, 0, 0, 0, &s);
    is_int(s.fails, 0, "%s, repaired: every query answers", what);
    is_int(s.wrong_found, 0, "%s, repaired: complete against world AA* under the same overlay "
                             "(%u queries)", what, s.asked);
    is_int(s.bad_walk, 0, "%s, repaired: every path a walk of the edited map", what);
    is_int(s.shorter, 0, "%s, repaired: none shorter than AA*'s", what);
    is_int(s.above_abstract, 0, "%s, repaired: no refined path above the world graph's path", what);
    is_int(s.again, 0, "%s, repaired: asked again under the same overlay, the same answer", what);
    double mean = s.found ? 100 * s.err_sum / s.found : 0;
    ok(mean <= 10.0, "%s, repaired: mean error %.2f %% over %u paths (at most 10 %%)", what, mean,
       s.found);
    ok(s.repaired >= s.asked / 4, "%s, repaired: %u of %u queries searched a repaired tile", what,
       s.repaired, s.asked);
    /* A pair the repair may change is walked through the repaired graph joined into the
     * search above the tiles, not by a search a portal. */
    ok(s.joined > 0, "%s, repaired: %u queries walked a repaired tile's graph (%llu of its keys)",
       what, s.joined, (unsigned long long)s.joined_keys);
    ok(s.small >= 5 && s.blowup == 0,
       "%s, repaired: a small block on the path: expansions above the tiles at most 3x + 64 "
       "the unblocked query's (%u queries, worst %.2fx; %.2fx with the repaired graphs' keys)",
       what, s.small, s.worst_factor, s.worst_joined);
    /* The same with every edited tile walked cell by cell (what the repairs replace): the
     * expansions check is one that can fail. */
    repaired_run(w, whole, ag, tile, cluster, 0, pairs, 0, 0, 1, &walk);
    diag("%s, cell by cell: a small block on the path: worst %.2fx the unblocked expansions, "
         "%u of %u above 3x + 64", what, walk.worst_factor, walk.blowup, walk.small);
    ok(walk.blowup > 0, "%s, planted (cell by cell): the expansions check fails (%u of %u)", what,
       walk.blowup, walk.small);
    repaired_run(w, whole, ag, tile, cluster, rounds, pairs, 1, 0, 0, &stale);
    ok(stale.above_abstract + stale.bad_walk + stale.wrong_found + stale.fails > 0 &&
           stale.joined == 0,
       "%s, planted (the repaired graphs not joined, baked costs used): seen failing (%u above "
       "the world graph's path, %u errors)", what, stale.above_abstract, stale.fails);
    /* Only the ends' tiles are walked cell by cell now (a block at a tile's edges repairs
     * both tiles): random rectangles meet an end's tile by chance, so this plant may pass
     * here; straddle() plants it where it must fail (a block across the goal's tile's
     * border). */
    repaired_run(w, whole, ag, tile, cluster, rounds, pairs, 0, 1, 0, &edges);
    diag("%s, planted (R cells not joined to the neighbours' portals and graphs): %u not "
         "walks, %u incomplete, %u errors", what, edges.bad_walk, edges.wrong_found, edges.fails);
}

/* Appends `paths: 1` to dir's manifest: each tile's graph stores its
 * intra-edges' cell paths, which the refinement copies. */
/* The manifest's paths: 1, and blocks: 2 (the search above the tiles on
 * the level of tile blocks, world_blocks: every check below holds there
 * too). */
/* A copy of a result's path, to compare byte for byte. */
static nb_cell *path_copy(const nbi_whaa_result *r)
{
    nb_cell *c = malloc((r->path_len ? r->path_len : 1) * sizeof *c);
    if (r->path_len)
        memcpy(c, r->path, r->path_len * sizeof *c);
    return c;
}

static int same_answer(const nbi_whaa_result *r, const nb_cell *path, size_t len, int found,
                       double length)
{
    return r->found == found && fabs(r->length - length) <= 1e-9 && r->path_len == len &&
           (!len || memcmp(r->path, path, len * sizeof *path) == 0);
}

/* What straddle() counts over its pairs. */
typedef struct sstats {
    unsigned asked, fails, wrong_found, bad_walk, shorter, found, fresh, both, blowup, cut,
        cut_wrong, near, near_wrong;
    double err_sum, worst;
} sstats;

/* Blocks across tile borders, the root case of issue 31's item 2: for each pair in different
 * tiles (away from the ends' tiles), k x k cells centred on the first tile border its
 * unblocked path crosses after its middle, on an edge or, every other pair, on the tile
 * corner nearest that crossing; against world Annotated A* under the same overlay (status,
 * a walk of the edited map, never shorter, the error summed), asked again on a fresh
 * workspace (byte-identical), the two tiles beside the crossing searched through their
 * repaired graphs (res.repaired >= 2), and the search above the tiles held to 3x + 64 the
 * unblocked query's expansions (as repaired() for a block inside a tile).  The same block
 * across the border into the goal's tile (walked cell by cell, an end's, joined to its
 * repaired neighbour); the goal walled in by a ring: NB_PATH_NONE exactly when AA* says so. */
static void straddle_run(nb_world *w, const nb_bundle *whole, const nb_agent *ag, uint32_t tile,
                         int pairs, int cell_walk, int no_join, sstats *ss)
{
    nb_err err;
    nb_world_info in;
    nb_world_describe(w, &in);
    memset(ss, 0, sizeof *ss);
    nb_world_aa *wa = NULL;
    nb_world_overlay *ov = NULL;
    nbi_whaa *q = NULL, *fresh = NULL;
    if (!overlay_handles(w, ag, &wa, &ov, &q, "straddle") ||
        nbi_whaa_new(w, ag->capability, 1, &fresh, &err) != NB_OK) {
        ss->fails++;
        goto out;
    }
    nbi_whaa_set_faults(q, cell_walk, 0, no_join);
    nbi_whaa_set_faults(fresh, cell_walk, 0, no_join);
    tu_rng r = {0x57ad + tile};
    int32_t T = (int32_t)tile;
    for (int round = 0; round < 10 * pairs && ss->asked < (unsigned)pairs; round++) {
        nb_cell e[2];
        random_ends(&r, &in, whole, ag, e);
        nbi_whaa_result base;
        if (nbi_whaa_find(q, e[0], e[1], NULL, &base, NULL, 0, NULL, &err) != NB_OK || !base.found)
            continue;
        nb_cell *bpath = path_copy(&base);
        uint64_t e0 = base.expanded;
        /* The crossing: both its cells at least two tiles' cells from the ends' tiles. */
        rect b = {0, 0, 0, 0};
        int32_t k = 2 + (int32_t)tu_below(&r, 7), corner = (int32_t)(ss->asked & 1);
        for (size_t i = base.path_len / 2; i + 1 < base.path_len && !b.w; i++) {
            nb_cell c = bpath[i], d = bpath[i + 1];
            if (c.x / T == d.x / T && c.y / T == d.y / T)
                continue;
            int far = 1;
            for (int j = 0; j < 2; j++)
                far &= labs((long)(c.x / T - e[j].x / T)) + labs((long)(c.y / T - e[j].y / T)) >= 2 &&
                       labs((long)(d.x / T - e[j].x / T)) + labs((long)(d.y / T - e[j].y / T)) >= 2;
            if (!far)
                break;
            /* Centred on the border between c and d (or on the nearest tile corner). */
            int32_t bx = c.x / T != d.x / T ? (c.x > d.x ? c.x : d.x) / T * T : d.x;
            int32_t by = c.y / T != d.y / T ? (c.y > d.y ? c.y : d.y) / T * T : d.y;
            if (corner) {
                bx = (bx + T / 2) / T * T;
                by = (by + T / 2) / T * T;
            }
            b = (rect){bx - k / 2, by - k / 2, k, k};
        }
        if (!b.w || b.x < 0 || b.y < 0 || b.x + b.w > (int32_t)in.width ||
            b.y + b.h > (int32_t)in.height ||
            in_rects(&b, 1, e[0].x, e[0].y) || in_rects(&b, 1, e[1].x, e[1].y)) {
            free(bpath);
            continue;
        }
        nb_world_overlay_block(ov, b.x, b.y, b.w, b.h, NULL);
        nb_aa_query aq;
        nb_aa_result ar;
        nbi_whaa_result res;
        ss->asked++;
        if (!ask_both(wa, q, ov, ag, e, &aq, &ar, &res, "straddle")) {
            ss->fails++;
            goto next;
        }
        if ((ar.status == NB_PATH_FOUND) != res.found) {
            if (!ss->wrong_found++)
                diag("straddle: (%d, %d) to (%d, %d), block (%d, %d) %d: AA* %s, HAA* %s", e[0].x,
                     e[0].y, e[1].x, e[1].y, b.x, b.y, k, nb_path_status_str(ar.status),
                     res.found ? "found" : "none");
            goto next;
        }
        if (!res.found)
            goto next;
        ss->found++;
        ss->both += res.repaired >= 2;
        if (!is_walk(whole, ag->capability, &b, 1, res.path, res.path_len, e[0], e[1]) &&
            !ss->bad_walk++)
            diag("straddle: (%d, %d) to (%d, %d), block (%d, %d) %d: not a walk of the edited map",
                 e[0].x, e[0].y, e[1].x, e[1].y, b.x, b.y, k);
        ss->shorter += res.length < ar.length - 1e-6;
        double er = ar.length > 0 ? (res.length - ar.length) / ar.length : 0;
        ss->err_sum += er;
        ss->worst = er > ss->worst ? er : ss->worst;
        uint64_t above = res.expanded - res.joined;
        ss->blowup += above > 3 * e0 + 64;
        nb_cell *p1 = path_copy(&res);
        size_t l1 = res.path_len;
        double len1 = res.length;
        nbi_whaa_result rf;
        if (nbi_whaa_find(fresh, e[0], e[1], ov, &rf, NULL, 0, NULL, &err) != NB_OK ||
            !same_answer(&rf, p1, l1, 1, len1))
            ss->fresh++;
        /* The fresh workspace's next query under another overlay version starts clean. */
        nbi_whaa_free(fresh);
        fresh = NULL;
        if (nbi_whaa_new(w, ag->capability, 1, &fresh, &err) != NB_OK)
            ss->fails++;
        else
            nbi_whaa_set_faults(fresh, cell_walk, 0, no_join);
        free(p1);
    next:
        nb_world_overlay_unblock(ov, b.x, b.y, b.w, b.h, NULL);
        /* The same block across the border the unblocked path crosses into the goal's tile:
         * that tile (an end's) walked cell by cell, joined to the neighbour's repaired graph. */
        for (size_t i = base.path_len - 1; i > 0; i--) {
            nb_cell c = bpath[i - 1], d = bpath[i];
            if (c.x / T == d.x / T && c.y / T == d.y / T)
                continue;
            int32_t bx = c.x / T != d.x / T ? (c.x > d.x ? c.x : d.x) / T * T : d.x;
            int32_t by = c.y / T != d.y / T ? (c.y > d.y ? c.y : d.y) / T * T : d.y;
            rect gb = {bx - k / 2, by - k / 2, k, k};
            if (gb.x < 0 || gb.y < 0 || gb.x + k > (int32_t)in.width || gb.y + k > (int32_t)in.height ||
                in_rects(&gb, 1, e[0].x, e[0].y) || in_rects(&gb, 1, e[1].x, e[1].y))
                break;
            nb_world_overlay_block(ov, gb.x, gb.y, gb.w, gb.h, NULL);
            nb_aa_result ag2;
            nbi_whaa_result g2;
            ss->near++;
            if (nb_world_aa_find(wa, &aq, ov, &ag2, &err) != NB_OK ||
                nbi_whaa_find(q, e[0], e[1], ov, &g2, NULL, 0, NULL, &err) != NB_OK ||
                (ag2.status == NB_PATH_FOUND) != g2.found ||
                (g2.found && (!is_walk(whole, ag->capability, &gb, 1, g2.path, g2.path_len, e[0],
                                       e[1]) ||
                              g2.length < ag2.length - 1e-6)))
                ss->near_wrong++;
            nb_world_overlay_unblock(ov, gb.x, gb.y, gb.w, gb.h, NULL);
            break;
        }
        /* The goal walled in: a ring two cells out around it, across its tile's border when
         * the goal lies near one (the ring cut to the world). */
        if (ss->asked % 2 == 0 && e[1].x >= 3 && e[1].y >= 3 &&
            e[1].x + 3 < (int32_t)in.width && e[1].y + 3 < (int32_t)in.height) {
            rect ring[4] = {{e[1].x - 2, e[1].y - 2, 5, 1}, {e[1].x - 2, e[1].y + 2, 5, 1},
                            {e[1].x - 2, e[1].y - 1, 1, 3}, {e[1].x + 2, e[1].y - 1, 1, 3}};
            for (int i = 0; i < 4; i++)
                nb_world_overlay_block(ov, ring[i].x, ring[i].y, ring[i].w, ring[i].h, NULL);
            ss->cut++;
            nb_aa_result ar2;
            nbi_whaa_result r2;
            if (nb_world_aa_find(wa, &aq, ov, &ar2, &err) != NB_OK ||
                nbi_whaa_find(q, e[0], e[1], ov, &r2, NULL, 0, NULL, &err) != NB_OK ||
                (ar2.status == NB_PATH_FOUND) != r2.found ||
                (r2.found && !is_walk(whole, ag->capability, ring, 4, r2.path, r2.path_len, e[0],
                                      e[1])))
                ss->cut_wrong++;
            for (int i = 0; i < 4; i++)
                nb_world_overlay_unblock(ov, ring[i].x, ring[i].y, ring[i].w, ring[i].h, NULL);
        }
        free(bpath);
    }
out:
    nbi_whaa_free(fresh);
    overlay_handles_close(wa, ov, q);
}

static void straddle(const char *what, nb_world *w, const nb_bundle *whole, const nb_agent *ag,
                     uint32_t tile, int pairs)
{
    sstats s, walk, nj;
    straddle_run(w, whole, ag, tile, pairs, 0, 0, &s);
    is_int(s.fails, 0, "%s, across borders: every query answers", what);
    is_int(s.wrong_found, 0, "%s, across borders: complete against world AA* under the same "
                             "overlay (%u blocks on edges and corners of tiles)", what, s.asked);
    is_int(s.bad_walk, 0, "%s, across borders: every path a walk of the edited map", what);
    is_int(s.shorter, 0, "%s, across borders: none shorter than AA*'s", what);
    double mean = s.found ? 100 * s.err_sum / s.found : 0;
    ok(s.found >= 3 && mean <= 10.0,
       "%s, across borders: mean error %.2f %% over %u paths, worst %.2f %% (at most 10 %%)",
       what, mean, s.found, 100 * s.worst);
    is_int(s.fresh, 0, "%s, across borders: a fresh workspace's answer byte-identical", what);
    ok(s.both == s.found, "%s, across borders: both tiles beside the block searched through "
                          "their repaired graphs (%u of %u)", what, s.both, s.found);
    is_int(s.blowup, 0, "%s, across borders: expansions above the tiles at most 3x + 64 the "
                        "unblocked query's (%u queries)", what, s.found);
    ok(s.cut > 0 && s.cut_wrong == 0, "%s, the goal walled in (%u): AA*'s status, a walk when "
                                      "found", what, s.cut);
    /* Planted: every edited tile walked cell by cell (the cost this replaces). */
    straddle_run(w, whole, ag, tile, pairs, 1, 0, &walk);
    ok(walk.blowup > 0 || walk.both < walk.found,
       "%s, planted (cell by cell): the repaired or expansions check fails (%u blow-ups, %u of "
       "%u repaired)", what, walk.blowup, walk.both, walk.found);
    ok(s.near > 0 && s.near_wrong == 0,
       "%s, across the border into the goal's tile (%u): AA*'s status, a walk, never shorter",
       what, s.near);
    straddle_run(w, whole, ag, tile, pairs, 0, 1, &nj);
    ok(nj.near_wrong > 0, "%s, planted (R cells not joined to the neighbours' graphs and "
                          "portals): the goal's tile check fails (%u of %u)",
       what, nj.near_wrong, nj.near);
}

/* What kept() counts over its pairs. */
typedef struct kstats {
    unsigned asked, fails, again, fresh, wrong_found, bad_walk, shorter, found;
    unsigned repaired, reused_again, reloaded, reload_reused, reload_differs, straddling;
    unsigned changed, changed_differs;
    double err_sum;
} kstats;

/* The repaired tiles kept between queries under one overlay version (haa_edit.c): for each
 * pair, a block on its unblocked path inside a tile (repaired) and one across the first tile
 * border the path crosses (cell by cell); asked three times on one workspace, then once on a
 * fresh one, then (every other pair) after every tile was unloaded and loaded again; against
 * world AA* under the same overlay. */
static void kept_run(nb_world *w, const nb_bundle *whole, const nb_agent *ag, uint32_t tile,
                     uint32_t cluster, int pairs, kstats *ks)
{
    nb_err err;
    nb_world_info in;
    nb_world_describe(w, &in);
    memset(ks, 0, sizeof *ks);
    nb_world_aa *wa = NULL;
    nb_world_overlay *ov = NULL;
    nbi_whaa *q = NULL;
    if (!overlay_handles(w, ag, &wa, &ov, &q, "kept")) {
        ks->fails++;
        goto out;
    }
    tu_rng r = {0x6e97 + tile};
    for (int round = 0; round < 8 * pairs && ks->asked < (unsigned)pairs; round++) {
        nb_cell e[2];
        random_ends(&r, &in, whole, ag, e);
        uint32_t ts = (uint32_t)(e[0].y / (int32_t)tile) * in.columns + (uint32_t)(e[0].x / (int32_t)tile);
        uint32_t tg = (uint32_t)(e[1].y / (int32_t)tile) * in.columns + (uint32_t)(e[1].x / (int32_t)tile);
        nbi_whaa_result base;
        if (ts == tg || nbi_whaa_find(q, e[0], e[1], NULL, &base, NULL, 0, NULL, &err) != NB_OK ||
            !base.found)
            continue;
        nb_cell *bpath = path_copy(&base);
        rect rs[3];
        int n = 0;
        if (block_on_path(bpath, base.path_len, tile, 2 * (int32_t)cluster + 1,
                          1 + (int32_t)tu_below(&r, 6), ts, tg, in.columns, &rs[0]))
            n = 1;
        /* The block across a border keeps off the tile of the one inside (repaired): its two
         * tiles are walked cell by cell. */
        int32_t itx = n ? (rs[0].x + rs[0].w / 2) / (int32_t)tile : -1;
        int32_t ity = n ? (rs[0].y + rs[0].h / 2) / (int32_t)tile : -1;
        for (size_t i = 0; n == 1 && i + 1 < base.path_len; i++) {
            nb_cell a = bpath[i], b = bpath[i + 1];
            int32_t ax = a.x / (int32_t)tile, ay = a.y / (int32_t)tile;
            int32_t bx = b.x / (int32_t)tile, by = b.y / (int32_t)tile;
            if ((ax == bx && ay == by) || (labs((long)(ax - itx)) <= 1 && labs((long)(ay - ity)) <= 1) ||
                (labs((long)(bx - itx)) <= 1 && labs((long)(by - ity)) <= 1))
                continue;
            rect x = {b.x - 2, b.y - 2, 4, 4};
            if (x.x >= 0 && x.y >= 0 && x.x + 4 <= (int32_t)in.width &&
                x.y + 4 <= (int32_t)in.height && !in_rects(rs, 1, e[0].x, e[0].y) &&
                !in_rects(&x, 1, e[0].x, e[0].y) && !in_rects(&x, 1, e[1].x, e[1].y)) {
                rs[n++] = x;
                ks->straddling++;
            }
            break;
        }
        free(bpath);
        if (!n)
            continue;
        int n0 = n;
        for (int i = 0; i < n; i++)
            nb_world_overlay_block(ov, rs[i].x, rs[i].y, rs[i].w, rs[i].h, NULL);
        ks->asked++;
        nbi_whaa_result r1, rr;
        nb_cell *p1 = NULL;
        nbi_whaa *f = NULL;
        if (nbi_whaa_find(q, e[0], e[1], ov, &r1, NULL, 0, NULL, &err) != NB_OK) {
            if (!ks->fails++)
                diag("kept: (%d, %d) to (%d, %d): %s", e[0].x, e[0].y, e[1].x, e[1].y, err.msg);
            goto next;
        }
        p1 = path_copy(&r1);
        size_t len1 = r1.path_len, rep1 = r1.repaired;
        int found1 = r1.found;
        double length1 = r1.length;
        ks->repaired += rep1 > 0;
        /* Asked twice more: the repaired tiles kept, the same path byte for byte. */
        for (int k = 0; k < 2; k++) {
            if (nbi_whaa_find(q, e[0], e[1], ov, &rr, NULL, 0, NULL, &err) != NB_OK ||
                !same_answer(&rr, p1, len1, found1, length1)) {
                if (!ks->again++)
                    diag("kept: (%d, %d) to (%d, %d) asked again: another answer", e[0].x,
                         e[0].y, e[1].x, e[1].y);
            } else if (rep1 && rr.reused == rep1 && rr.repaired == rep1)
                ks->reused_again++;
        }
        /* A fresh workspace: the same path. */
        if (nbi_whaa_new(w, ag->capability, 1, &f, &err) != NB_OK ||
            nbi_whaa_find(f, e[0], e[1], ov, &rr, NULL, 0, NULL, &err) != NB_OK ||
            !same_answer(&rr, p1, len1, found1, length1)) {
            if (!ks->fresh++)
                diag("kept: (%d, %d) to (%d, %d): a fresh workspace answers otherwise", e[0].x,
                     e[0].y, e[1].x, e[1].y);
        }
        nbi_whaa_free(f);
        /* Every tile unloaded and loaded again (other loads of the same files): nothing kept
         * of the old loads is taken, and the answer stands. */
        if (ks->asked % 2 == 0 && rep1) {
            for (uint32_t t = 0; t < in.columns * in.rows; t++)
                nb_world_unload(w, (nb_world_tile){t % in.columns, t / in.columns}, NULL);
            for (uint32_t t = 0; t < in.columns * in.rows; t++)
                nb_world_load(w, (nb_world_tile){t % in.columns, t / in.columns}, NULL);
            ks->reloaded++;
            if (nbi_whaa_find(q, e[0], e[1], ov, &rr, NULL, 0, NULL, &err) != NB_OK ||
                !same_answer(&rr, p1, len1, found1, length1)) {
                if (!ks->reload_differs++)
                    diag("kept: (%d, %d) to (%d, %d) after a reload: another answer", e[0].x,
                         e[0].y, e[1].x, e[1].y);
            } else if (rr.reused != 0 || rr.repaired != rep1) {
                if (!ks->reload_reused++)
                    diag("kept: after a reload: %zu of %zu repaired tiles taken as kept",
                         rr.reused, rr.repaired);
            }
        }
        /* One more block on the path in the repaired tile (another version of the overlay):
         * what was kept is not taken, the same answer as a fresh workspace's. */
        if (rep1) {
            int32_t tx = rs[0].x / (int32_t)tile, ty = rs[0].y / (int32_t)tile, m = 2 * (int32_t)cluster + 1;
            for (size_t i = 0; i < len1; i++) {
                nb_cell c = p1[i];
                int32_t lx = c.x - tx * (int32_t)tile, ly = c.y - ty * (int32_t)tile;
                if (lx < m || ly < m || lx + 2 > (int32_t)tile - m || ly + 2 > (int32_t)tile - m ||
                    in_rects(rs, 1, c.x, c.y) || in_rects(rs, 1, c.x + 1, c.y + 1) ||
                    (c.x == e[0].x && c.y == e[0].y) || (c.x == e[1].x && c.y == e[1].y))
                    continue;
                rs[n++] = (rect){c.x, c.y, 2, 2};
                break;
            }
        }
        if (n > n0) {
            nb_world_overlay_block(ov, rs[n0].x, rs[n0].y, rs[n0].w, rs[n0].h, NULL);
            ks->changed++;
            nbi_whaa_result rc;
            nb_cell *pc = NULL;
            f = NULL;
            int differs = nbi_whaa_find(q, e[0], e[1], ov, &rc, NULL, 0, NULL, &err) != NB_OK;
            if (!differs) {
                pc = path_copy(&rc);
                differs = rc.found && !is_walk(whole, ag->capability, rs, n, pc, rc.path_len, e[0], e[1]);
                size_t lc = rc.path_len;
                int fc = rc.found;
                double dc = rc.length;
                differs = differs || nbi_whaa_new(w, ag->capability, 1, &f, &err) != NB_OK ||
                          nbi_whaa_find(f, e[0], e[1], ov, &rr, NULL, 0, NULL, &err) != NB_OK ||
                          !same_answer(&rr, pc, lc, fc, dc);
            }
            if (differs && !ks->changed_differs++)
                diag("kept: (%d, %d) to (%d, %d) under one block more: another answer than a "
                     "fresh workspace's, or not a walk", e[0].x, e[0].y, e[1].x, e[1].y);
            nbi_whaa_free(f);
            free(pc);
            nb_world_overlay_unblock(ov, rs[n0].x, rs[n0].y, rs[n0].w, rs[n0].h, NULL);
            n = n0;
        }
        /* Against world AA* under the same overlay: the same status, a walk, never shorter. */
        nb_aa_query aq;
        nb_aa_query_init(&aq);
        aq.start = e[0], aq.goal = e[1], aq.size = 1, aq.capability = ag->capability;
        aq.corner = NB_CORNER_STRICT;
        nb_aa_result ar;
        if (nb_world_aa_find(wa, &aq, ov, &ar, &err) != NB_OK) {
            ks->fails++;
            goto next;
        }
        if ((ar.status == NB_PATH_FOUND) != found1) {
            ks->wrong_found++;
            goto next;
        }
        if (!found1)
            goto next;
        ks->found++;
        if (!is_walk(whole, ag->capability, rs, n, p1, len1, e[0], e[1]))
            ks->bad_walk++;
        if (length1 < ar.length - 1e-6)
            ks->shorter++;
        if (ar.length > 0)
            ks->err_sum += (length1 - ar.length) / ar.length;
    next:
        free(p1);
        for (int i = 0; i < n; i++)
            nb_world_overlay_unblock(ov, rs[i].x, rs[i].y, rs[i].w, rs[i].h, NULL);
    }
out:
    overlay_handles_close(wa, ov, q);
}

static void kept(const char *what, nb_world *w, const nb_bundle *whole, const nb_agent *ag,
                 uint32_t tile, uint32_t cluster, int pairs)
{
    kstats s;
    kept_run(w, whole, ag, tile, cluster, pairs, &s);
    is_int(s.fails, 0, "%s, kept: every query answers", what);
    ok(s.asked >= (unsigned)pairs / 2 && s.straddling >= s.asked / 4 && s.straddling > 0,
       "%s, kept: %u pairs, %u with a block across a tile border", what, s.asked, s.straddling);
    is_int(s.again, 0, "%s, kept: asked again under the same overlay, the same path byte for byte",
           what);
    is_int(s.fresh, 0, "%s, kept: a fresh workspace gives the same path byte for byte", what);
    ok(s.repaired > 0 && s.reused_again == 2 * s.repaired,
       "%s, kept: every repaired tile taken as kept when asked again (%u of %u queries)", what,
       s.reused_again, 2 * s.repaired);
    ok(s.reloaded > 0, "%s, kept: %u reloads of every tile between queries", what, s.reloaded);
    is_int(s.reload_differs, 0, "%s, kept: after a reload, the same path byte for byte", what);
    is_int(s.reload_reused, 0, "%s, kept: after a reload, no repaired tile of the old loads taken",
           what);
    ok(s.changed > 0 && s.changed_differs == 0,
       "%s, kept: one block more in a repaired tile (%u pairs): the answer of a fresh workspace, "
       "a walk (%u not)", what, s.changed, s.changed_differs);
    is_int(s.wrong_found, 0, "%s, kept: complete against world AA* under the same overlay", what);
    is_int(s.bad_walk, 0, "%s, kept: every path a walk of the edited map", what);
    is_int(s.shorter, 0, "%s, kept: none shorter than AA*'s", what);
    double mean = s.found ? 100 * s.err_sum / s.found : 0;
    ok(mean <= 10.0, "%s, kept: mean error %.2f %% over %u paths (at most 10 %%)", what, mean,
       s.found);
}

static int with_paths(const char *dir)
{
    FILE *f = fopen(tu_path(dir, "world.yaml"), "a");
    return f && fputs("paths: 1\nblocks: 2\n", f) >= 0 && fclose(f) == 0;
}

/* Appends `levels: 2` to dir's manifest: each tile's graph gets a level of
 * clusters above it, which the refinement searches. */
static int with_levels(const char *dir)
{
    FILE *f = fopen(tu_path(dir, "world.yaml"), "a");
    return f && fputs("levels: 2\n", f) >= 0 && fclose(f) == 0;
}

/* Appends `landmarks: K` to dir's manifest: K landmarks on the world graph,
 * the corner and edge ones then farthest first. */
static int with_landmarks(const char *dir, uint32_t k)
{
    FILE *f = fopen(tu_path(dir, "world.yaml"), "a");
    return f && fprintf(f, "landmarks: %u\n", k) > 0 && fclose(f) == 0;
}

/* The world graph's landmarks (want asked for, 0: the default) against a
 * plain Dijkstra made here from each landmark over the graph's arcs taken
 * both ways (an O(n^2) scan for the nearest unsettled node, no heap): every
 * node's stored distance, joined exactly when reached; the count asked
 * for; and each landmark past the 8 corner and edge ones the node whose
 * least distance to those before it is largest (farthest first). */
static void landmarks_plain(const char *what, const nb_world *w, const nb_agent *ag, uint32_t want)
{
    nb_err err;
    err.msg[0] = 0;
    nbi_wgraph g;
    nbi_wlmk lm;
    long gi = nbi_wgraph_index(w->index, ag->capability, 1), li = -1;
    for (size_t i = 0; i < w->index->nsections; i++)
        if (w->index->sections[i].info.type == NB_SEC_WORLD_LANDMARKS &&
            w->index->sections[i].info.param[0] == ag->capability &&
            w->index->sections[i].info.param[1] == 1)
            li = (long)i;
    if (!ok(gi >= 0 && li >= 0 && nbi_wgraph_at(w->index, (size_t)gi, &g, &err) == NB_OK &&
                nbi_wlmk_at(w->index, (size_t)li, &lm, &err) == NB_OK,
            "%s: landmarks: the world graph and its landmarks read (%s)", what, err.msg))
        return;
    uint32_t n = g.nodes, K = lm.count;
    /* Arcs both ways, as an n x n matrix of the shortest (n is small here). */
    double *m = malloc((size_t)n * n * sizeof *m), *d = malloc((size_t)K * n * sizeof *d);
    uint8_t *done = malloc(n);
    if (!ok(m && d && done, "%s: landmarks: %u nodes", what, n)) {
        free(m), free(d), free(done);
        return;
    }
    for (size_t i = 0; i < (size_t)n * n; i++)
        m[i] = INFINITY;
    for (uint32_t u = 0; u < n; u++)
        for (uint32_t a = nbi_u32at(g.arc_first, u); a < nbi_u32at(g.arc_first, u + 1); a++) {
            const uint8_t *r = g.arc + (size_t)a * NBI_WGRAPH_ARC;
            uint32_t v = nbi_get32(r + NBI_WGRAPH_A_TO);
            double c = nbi_get32(r + NBI_WGRAPH_A_CARD) + M_SQRT2 * nbi_get32(r + NBI_WGRAPH_A_DIAG);
            if (v < n && c < m[(size_t)u * n + v])
                m[(size_t)u * n + v] = m[(size_t)v * n + u] = c;
        }
    unsigned wrong = 0, compared = 0;
    for (uint32_t k = 0; k < K; k++) {
        double *dk = d + (size_t)k * n;
        uint32_t src = nbi_u32at(lm.landmark, k);
        for (uint32_t u = 0; u < n; u++)
            dk[u] = INFINITY, done[u] = 0;
        dk[src] = 0;
        for (;;) {
            uint32_t u = UINT32_MAX;
            for (uint32_t v = 0; v < n; v++)
                if (!done[v] && dk[v] < INFINITY && (u == UINT32_MAX || dk[v] < dk[u]))
                    u = v;
            if (u == UINT32_MAX)
                break;
            done[u] = 1;
            for (uint32_t v = 0; v < n; v++)
                if (dk[u] + m[(size_t)u * n + v] < dk[v])
                    dk[v] = dk[u] + m[(size_t)u * n + v];
        }
        for (uint32_t u = 0; u < n; u++) {
            double s = nbi_wlmk_dist(&lm, u, k);
            int bad = dk[u] == INFINITY ? s != -1 : fabs(s - dk[u]) > 1e-9 * (1 + dk[u]);
            if (bad && !wrong++)
                diag("%s: landmark %u (node %u) to node %u: stored %.6f, Dijkstra %.6f", what, k,
                     src, u, s, dk[u]);
            compared++;
        }
    }
    is_int(wrong, 0, "%s: landmarks: %u distances of %u landmarks equal a plain Dijkstra's", what,
           compared, K);
    /* The largest component: the nodes landmark 0 reaches. */
    uint32_t comp = 0;
    for (uint32_t u = 0; u < n; u++)
        comp += d[u] < INFINITY;
    uint32_t expect = want ? (want < comp ? want : comp) : K;
    ok(K == expect && (want || K <= 8), "%s: landmarks: %u of them (%u asked, %u nodes joined)",
       what, K, want, comp);
    unsigned far_wrong = 0;
    for (uint32_t k = 8; k < K; k++) {
        double best = -1, at = INFINITY;
        uint32_t lk = nbi_u32at(lm.landmark, k);
        for (uint32_t u = 0; u < n; u++) {
            if (d[u] == INFINITY)
                continue;
            double least = INFINITY;
            for (uint32_t j = 0; j < k; j++)
                least = d[(size_t)j * n + u] < least ? d[(size_t)j * n + u] : least;
            best = least > best ? least : best;
            if (u == lk)
                at = least;
        }
        if (fabs(at - best) > 1e-9 * (1 + best) && !far_wrong++)
            diag("%s: landmark %u (node %u) lies %.4f from those before it, node farthest %.4f",
                 what, k, lk, at, best);
    }
    is_int(far_wrong, 0, "%s: landmarks: each past the 8th the farthest from those before it (%u)",
           what, K > 8 ? K - 8 : 0);
    free(m), free(d), free(done);
}

/* An end's insertion into its tile, as queries make it (its Dijkstra
 * ended once the tile's portals are settled, on one workspace whose arrays
 * serve every tile in turn), gives the costs to every portal that the
 * Dijkstra run to its last node gives, ends drawn anywhere on the map
 * (each tile loaded). */
static void insertion(const char *what, nb_world *w, const nb_bundle *whole, const nb_agent *ag,
                      tu_rng *r, nb_world_info in, int pairs)
{
    static double c0[1 << 14], c1[1 << 14];
    nb_err err;
    nbi_whaa *q = NULL;
    unsigned ends = 0, differ = 0;
    size_t costs = 0;
    if (!ok(nbi_whaa_new(w, ag->capability, 1, &q, &err) == NB_OK,
            "%s: insertion: a workspace (%s)", what, err.msg))
        return;
    for (int i = 0; i < pairs; i++) {
        nb_cell e = tw_standable(r, whole, ag->capability, in.width, in.height);
        size_t n0 = 0, n1 = 0;
        nb_status s0 = nbi_whaa_insertion(q, e, 0, c0, 1 << 14, &n0, &err);
        nb_status s1 = nbi_whaa_insertion(q, e, 1, c1, 1 << 14, &n1, &err);
        if (s0 != s1 || n0 != n1 || n0 > 1 << 14) {
            if (!differ++)
                diag("(%d, %d): insertion %d (%zu portals), full %d (%zu)", e.x, e.y, s0, n0, s1,
                     n1);
            continue;
        }
        if (s0 != NB_OK)
            continue;
        ends++;
        for (size_t k = 0; k < n0; k++) {
            costs += c1[k] >= 0;
            if (fabs(c0[k] - c1[k]) > 1e-9 && !differ++)
                diag("(%d, %d): portal %zu of its tile: %.4f, the full Dijkstra %.4f", e.x, e.y,
                     k, c0[k], c1[k]);
        }
    }
    nbi_whaa_free(q);
    is_int(differ, 0, "%s: insertion: the costs of the Dijkstra run to its last node (%u ends, "
           "%zu costs)", what, ends, costs);
    ok(ends >= (unsigned)pairs / 2 && costs >= ends, "%s: insertion: %u ends inserted", what, ends);
}

/* The cell steps' length from (x, y) inside box [x0, x1) x [y0, y1) of tile bundle b to every
 * cell of the box (d, row by row; INFINITY: not reached): a plain O(m^2) Dijkstra over the
 * cells the agent stands at, a diagonal step by the graph's corner rule. */
static void box_dijkstra(const nb_bundle *b, nb_capability cap, int strict, int32_t x, int32_t y,
                         int32_t x0, int32_t y0, int32_t x1, int32_t y1, double *d, uint8_t *done)
{
    int32_t bw = x1 - x0, m = bw * (y1 - y0);
    for (int32_t i = 0; i < m; i++)
        d[i] = INFINITY, done[i] = 0;
    d[(y - y0) * bw + (x - x0)] = 0;
    for (;;) {
        int32_t u = -1;
        for (int32_t i = 0; i < m; i++)
            if (!done[i] && d[i] < INFINITY && (u < 0 || d[i] < d[u]))
                u = i;
        if (u < 0)
            return;
        done[u] = 1;
        int32_t ux = x0 + u % bw, uy = y0 + u / bw;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int32_t vx = ux + dx, vy = uy + dy;
                if ((!dx && !dy) || vx < x0 || vy < y0 || vx >= x1 || vy >= y1 ||
                    nb_can_stand(b, cap, 1, vx, vy) != 1)
                    continue;
                if (dx && dy) {
                    int a = nb_can_stand(b, cap, 1, ux + dx, uy) == 1,
                        c = nb_can_stand(b, cap, 1, ux, uy + dy) == 1;
                    if (strict ? !(a && c) : !(a || c))
                        continue;
                }
                double len = d[u] + (dx && dy ? sqrt(2.0) : 1.0);
                int32_t v = (vy - y0) * bw + (vx - x0);
                if (len < d[v])
                    d[v] = len;
            }
    }
}

/* An end's costs to its tile's portals as queries make them (nbi_whaa_insertion: its
 * cluster's search, then the tile graph's Dijkstra by buckets, ended once the portals are
 * settled, on the workspace re-bound to each tile) against an answer made here from the tile
 * bundle alone: a plain Dijkstra over its cluster's cells to the cluster's nodes, then a plain
 * O(n^2) Dijkstra over the tile graph's nodes in the tile's own cells, by the arcs the agent
 * may take, to each portal the world graph lists for the tile. */
static void insertion_plain(const char *what, nb_world *w, const tw_world *wd, const nb_agent *ag,
                            tu_rng *r, nb_world_info in, int ends)
{
    static double got[1 << 14];
    nb_err err;
    nbi_whaa *q = NULL;
    nbi_wgraph wg;
    long gi = nbi_wgraph_index(w->index, ag->capability, 1);
    if (!ok(gi >= 0 && nbi_wgraph_at(w->index, (size_t)gi, &wg, &err) == NB_OK &&
                nbi_whaa_new(w, ag->capability, 1, &q, &err) == NB_OK,
            "%s: insertion against a plain Dijkstra: a workspace (%s)", what, err.msg)) {
        nbi_whaa_free(q);
        return;
    }
    unsigned asked = 0, differ = 0, failed = 0;
    size_t costs = 0, dcap = 0, ccap = 0;
    double *d = NULL, *cd = NULL;
    uint8_t *done = NULL, *cdone = NULL;
    for (int i = 0; i < ends; i++) {
        uint32_t t = tu_below(r, in.columns * in.rows);
        const nb_bundle *b = wd->tiles[t];
        nbi_wtile tag;
        nbi_agraph g;
        if (nbi_wtile_find(b, &tag, &err) != NB_OK || nbi_agraph_find(b, &g, &err) != NB_OK ||
            tag.row * in.columns + tag.column != t) {
            failed++;
            continue;
        }
        int32_t lx = 0, ly = 0;
        int stands = 0;
        for (int tries = 0; tries < 500 && !stands; tries++) {
            lx = (int32_t)(tag.core_x + tu_below(r, tag.core_w));
            ly = (int32_t)(tag.core_y + tu_below(r, tag.core_h));
            stands = nb_can_stand(b, ag->capability, 1, lx, ly) == 1;
        }
        if (!stands)
            continue;
        nb_cell e = {lx + (int32_t)tag.origin_x, ly + (int32_t)tag.origin_y};
        size_t n = 0;
        if (nbi_whaa_insertion(q, e, 0, got, 1 << 14, &n, &err) != NB_OK) {
            if (!failed++)
                diag("(%d, %d): %s", e.x, e.y, err.msg);
            continue;
        }
        asked++;
        /* The end's cluster, by its cells. */
        uint32_t c = g.cluster;
        int32_t x0 = lx / (int32_t)c * (int32_t)c, y0 = ly / (int32_t)c * (int32_t)c;
        int32_t x1 = x0 + (int32_t)c > (int32_t)g.width ? (int32_t)g.width : x0 + (int32_t)c;
        int32_t y1 = y0 + (int32_t)c > (int32_t)g.height ? (int32_t)g.height : y0 + (int32_t)c;
        if ((size_t)c * c > ccap) {
            ccap = (size_t)c * c;
            cd = realloc(cd, ccap * sizeof *cd);
            cdone = realloc(cdone, ccap);
        }
        if (g.nnodes > dcap) {
            dcap = g.nnodes;
            d = realloc(d, dcap * sizeof *d);
            done = realloc(done, dcap);
        }
        if (!cd || !cdone || !d || !done)
            break;
        box_dijkstra(b, ag->capability, g.corner == NB_CORNER_STRICT, lx, ly, x0, y0, x1, y1, cd,
                     cdone);
        /* The tile graph from the cluster's nodes, kept to the tile's own cells. */
        uint32_t cx1 = tag.core_x + tag.core_w, cy1 = tag.core_y + tag.core_h;
#define IN_CORE(u)                                                                                 \
    (nbi_u16at(g.node_xy, 2 * (size_t)(u)) >= tag.core_x &&                                        \
     nbi_u16at(g.node_xy, 2 * (size_t)(u)) < cx1 &&                                                \
     nbi_u16at(g.node_xy, 2 * (size_t)(u) + 1) >= tag.core_y &&                                    \
     nbi_u16at(g.node_xy, 2 * (size_t)(u) + 1) < cy1)
        for (uint32_t u = 0; u < g.nnodes; u++)
            d[u] = INFINITY, done[u] = 0;
        uint32_t k = (uint32_t)(ly / (int32_t)c) * g.ncx + (uint32_t)(lx / (int32_t)c);
        for (uint32_t u = nbi_u32at(g.cluster_first, k); u < nbi_u32at(g.cluster_first, k + 1); u++) {
            int32_t ux = nbi_u16at(g.node_xy, 2 * (size_t)u), uy = nbi_u16at(g.node_xy, 2 * (size_t)u + 1);
            if (IN_CORE(u) && ux >= x0 && ux < x1 && uy >= y0 && uy < y1)
                d[u] = cd[(uy - y0) * (x1 - x0) + (ux - x0)];
        }
        for (;;) {
            uint32_t u = g.nnodes;
            for (uint32_t v = 0; v < g.nnodes; v++)
                if (!done[v] && d[v] < INFINITY && (u == g.nnodes || d[v] < d[u]))
                    u = v;
            if (u == g.nnodes)
                break;
            done[u] = 1;
            for (uint32_t a = nbi_u32at(g.node_first, u); a < nbi_u32at(g.node_first, u + 1); a++) {
                uint32_t v = nbi_u32at(g.arc_to, a);
                if (!nbi_agraph_admits(&g, a, ag->capability, 1) || !IN_CORE(v))
                    continue;
                double len = d[u] + nbi_steps_length(nbi_u16at(g.arc_w, 2 * (size_t)a),
                                                     nbi_u16at(g.arc_w, 2 * (size_t)a + 1));
                if (len < d[v])
                    d[v] = len;
            }
        }
#undef IN_CORE
        uint32_t first = nbi_u32at(wg.tile_first, t), np = nbi_u32at(wg.tile_first, t + 1) - first;
        if (n != np) {
            if (!differ++)
                diag("(%d, %d): %zu costs for the %u portals of tile %u", e.x, e.y, n, np, t);
            continue;
        }
        for (uint32_t j = 0; j < np; j++) {
            uint32_t u = nbi_get32(wg.node + (size_t)(first + j) * NBI_WGRAPH_NODE + NBI_WGRAPH_N_LOCAL);
            double want = u < g.nnodes && d[u] < INFINITY ? d[u] : -1;
            costs += want >= 0;
            if ((want < 0) != (got[j] < 0) || fabs(want - got[j]) > 1e-6 * (1 + want)) {
                if (!differ++)
                    diag("(%d, %d): portal %u of tile %u: inserted %.4f, the plain Dijkstra %.4f",
                         e.x, e.y, j, t, got[j], want);
            }
        }
    }
    free(d), free(done), free(cd), free(cdone);
    nbi_whaa_free(q);
    is_int(differ, 0, "%s: insertion: the costs to the portals of a plain Dijkstra over the "
           "cluster's cells and the tile graph (%u ends, %zu costs)", what, asked, costs);
    ok(failed == 0 && asked >= (unsigned)ends / 2 && costs >= asked,
       "%s: insertion: %u ends inserted, none failed (%u)", what, asked, failed);
}

/* What check's manifest says besides the cut's: `paths: 1` (with_paths), `levels: 2`
 * (with_levels), `landmarks: 12` (with_landmarks). */
enum { WITH_PATHS = 1, WITH_LEVELS = 2, WITH_LANDMARKS = 4 };
#define TEST_LANDMARKS 12 /* what WITH_LANDMARKS asks for */

/* The refinement, over pairs of ends drawn on the map (every tile loaded): the stretches
 * refined, those searched above their tile graph's own level, the nodes expanded. */
static void stretches(nb_world *w, const nb_bundle *whole, const nb_agent *ag, tu_rng *r,
                      nb_world_info in, int pairs, size_t *n, size_t *above, uint64_t *expanded)
{
    nbi_whaa *q = NULL;
    *n = *above = 0;
    *expanded = 0;
    if (nbi_whaa_new(w, ag->capability, 1, &q, NULL) != NB_OK)
        return;
    for (int i = 0; i < pairs; i++) {
        nb_cell e[2];
        for (int k = 0; k < 2; k++)
            for (int tries = 0; tries < 500; tries++) {
                e[k] = (nb_cell){(int32_t)tu_below(r, in.width), (int32_t)tu_below(r, in.height)};
                if (nb_can_stand(whole, ag->capability, 1, e[k].x, e[k].y) == 1)
                    break;
            }
        nbi_whaa_result res;
        if (nbi_whaa_find(q, e[0], e[1], NULL, &res, NULL, 0, NULL, NULL) != NB_OK || !res.found)
            continue;
        *n += res.stretches, *above += res.stretches_above, *expanded += res.refine_expanded;
    }
    nbi_whaa_free(q);
}

/* 1 when path[0 .. n) is a walk of the whole map from s to g: every cell one the agent stands
 * on, every step to a neighbour, a diagonal step only past two cells it stands on (strict). */
static int legal_walk(const nb_bundle *whole, nb_capability cap, const nb_cell *path, size_t n,
                      nb_cell s, nb_cell g)
{
    if (n == 0 || path[0].x != s.x || path[0].y != s.y || path[n - 1].x != g.x ||
        path[n - 1].y != g.y)
        return 0;
    for (size_t k = 0; k < n; k++) {
        if (nb_can_stand(whole, cap, 1, path[k].x, path[k].y) != 1)
            return 0;
        if (k == 0)
            continue;
        nb_cell a = path[k - 1], b = path[k];
        if (!adjacent(a, b))
            return 0;
        if (a.x != b.x && a.y != b.y &&
            (nb_can_stand(whole, cap, 1, b.x, a.y) != 1 || nb_can_stand(whole, cap, 1, a.x, b.y) != 1))
            return 0;
    }
    return 1;
}

/* Ends far apart: the start in the top left third, the goal in the bottom right, joined on
 * the whole map (the last tried when none is). */
static void far_pair(tu_rng *r, nb_world_info in, const nb_bundle *whole, const nb_agent *ag,
                     nb_cell e[2])
{
    for (int k = 0; k < 2; k++)
        for (int tries = 0; tries < 500; tries++) {
            uint32_t x = tu_below(r, in.width / 3), y = tu_below(r, in.height / 3);
            e[k] = k ? (nb_cell){(int32_t)(in.width - 1 - x), (int32_t)(in.height - 1 - y)}
                     : (nb_cell){(int32_t)x, (int32_t)y};
            if (nb_can_stand(whole, ag->capability, 1, e[k].x, e[k].y) == 1 &&
                (!k || nb_reachable(whole, ag->capability, 1, e[0], e[1]) == 1))
                break;
        }
}

/* The refinement's one HAA* workspace, re-bound to each stretch's tile: over pairs of ends
 * far apart (the corners' thirds, joined, every tile loaded), its cell paths are those of a
 * workspace opened for each stretch (the way before, nbi_whaa_set_fresh_refiner), each a legal
 * walk of the whole map, none shorter than Annotated A*'s on the whole map and their mean
 * error within max_err %; the same queries asked again, the refinement (nbi_whaa_end)
 * allocates nothing, and every stretch between two world graph nodes is copied from the walks
 * the workspace kept (stretch_walks.c), the paths byte for byte those of the first round (so
 * again those of a workspace opened for each stretch, which keeps none). */
static void refined(const char *what, const char *dir, const nb_bundle *whole, const nb_agent *ag,
                    nb_aa *aa, int pairs, double max_err)
{
    tc_count cnt;
    nb_allocator al;
    tc_init(&cnt, &al);
    nb_world *w = NULL;
    nbi_whaa *q = NULL, *f = NULL, *se = NULL;
    nb_err err;
    uint64_t *hash = calloc((size_t)pairs, sizeof *hash);
    if (!ok(hash && nb_world_open(tu_path(dir, "world.nbw"), NULL, 0, &al, &w, &err) == NB_OK &&
                nbi_whaa_new(w, ag->capability, 1, &q, &err) == NB_OK &&
                nbi_whaa_new(w, ag->capability, 1, &f, &err) == NB_OK &&
                nbi_whaa_new(w, ag->capability, 1, &se, &err) == NB_OK,
            "%s: refiner: the world with a counting allocator and three workspaces: %s", what,
            err.msg))
        goto out;
    nbi_whaa_set_fresh_refiner(f, 1, 0);
    nbi_whaa_set_fresh_refiner(se, 0, 1);
    nb_world_info in;
    nb_world_describe(w, &in);
    nb_world_load_cells(w, 0, 0, in.width, in.height, NULL);
    unsigned found = 0, joined = 0, differ = 0, bad = 0, shorter = 0, failed = 0;
    size_t stretches = 0, grown = 0, copied[2] = {0, 0}, again = 0, ends = 0,
           grown_begin = 0;
    unsigned again_differ = 0, again_bad = 0;
    double err_sum = 0, worst = 0, se_sum = 0;
    for (int round = 0; round < 2; round++) {
        tu_rng r = {0xc0de};
        for (int i = 0; i < pairs; i++) {
            nb_cell e[2];
            far_pair(&r, in, whole, ag, e);
            joined += round == 0 && nb_reachable(whole, ag->capability, 1, e[0], e[1]) == 1;
            nbi_whaa_result res, ref, rse;
            int redo;
            tc_mark(&cnt);
            nb_status st = nbi_whaa_begin(q, e[0], e[1], NULL, &res, NULL, 0, NULL, &err);
            size_t begun = cnt.allocs;
            if (st == NB_OK)
                st = nbi_whaa_search(q, UINT64_MAX, &res, &err);
            tc_mark(&cnt);
            if (st == NB_OK)
                st = nbi_whaa_end(q, &res, NULL, 0, NULL, &redo, &err);
            /* The path's cells and length, hashed (FNV-1a over the bytes). */
            uint64_t hv = 1469598103934665603ull;
            for (size_t j = 0; st == NB_OK && res.found && j < res.path_len * sizeof *res.path; j++)
                hv = (hv ^ ((const unsigned char *)res.path)[j]) * 1099511628211ull;
            hv ^= st == NB_OK && res.found ? res.path_len : 0;
            copied[round] += st == NB_OK ? res.stretches_copied : 0;
            if (round == 1) {
                grown += cnt.allocs;
                grown_begin += begun;
                if (st != NB_OK || !res.found)
                    continue;
                again += res.stretches;
                ends += 2; /* the stretches from the start and to the goal: refined each time */
                if (hv != hash[i] && !again_differ++)
                    diag("(%d, %d) to (%d, %d): asked again, %zu cells (%zu stretches copied), "
                         "not the first round's path", e[0].x, e[0].y, e[1].x, e[1].y,
                         res.path_len, res.stretches_copied);
                if (!legal_walk(whole, ag->capability, res.path, res.path_len, e[0], e[1]) &&
                    !again_bad++)
                    diag("(%d, %d) to (%d, %d): asked again, not a legal walk", e[0].x, e[0].y,
                         e[1].x, e[1].y);
                continue;
            }
            hash[i] = hv;
            if (st != NB_OK ||
                nbi_whaa_find(f, e[0], e[1], NULL, &ref, NULL, 0, NULL, &err) != NB_OK ||
                nbi_whaa_find(se, e[0], e[1], NULL, &rse, NULL, 0, NULL, &err) != NB_OK ||
                rse.found != ref.found) {
                if (!failed++)
                    diag("(%d, %d) to (%d, %d): %s", e[0].x, e[0].y, e[1].x, e[1].y, err.msg);
                continue;
            }
            if (res.found != ref.found || res.path_len != ref.path_len ||
                (res.found && memcmp(res.path, ref.path, res.path_len * sizeof *res.path))) {
                if (!differ++)
                    diag("(%d, %d) to (%d, %d): re-bound %d, %zu cells; opened a stretch %d, %zu "
                         "cells", e[0].x, e[0].y, e[1].x, e[1].y, res.found, res.path_len,
                         ref.found, ref.path_len);
                continue;
            }
            if (!res.found)
                continue;
            found++;
            stretches += res.stretches;
            if (!legal_walk(whole, ag->capability, res.path, res.path_len, e[0], e[1]) && !bad++)
                diag("(%d, %d) to (%d, %d): not a legal walk", e[0].x, e[0].y, e[1].x, e[1].y);
            nb_aa_query aq;
            nb_aa_query_init(&aq);
            aq.start = e[0], aq.goal = e[1], aq.size = 1, aq.capability = ag->capability;
            aq.corner = NB_CORNER_STRICT;
            nb_aa_result ar;
            if (nb_aa_find(aa, &aq, &ar, &err) != NB_OK || ar.status != NB_PATH_FOUND) {
                failed++;
                continue;
            }
            if (res.length < ar.length - 1e-6 && !shorter++)
                diag("(%d, %d) to (%d, %d): %.4f, shorter than AA*'s %.4f", e[0].x, e[0].y,
                     e[1].x, e[1].y, res.length, ar.length);
            double e1 = ar.length > 0 ? 100 * (res.length - ar.length) / ar.length : 0;
            err_sum += e1;
            se_sum += 100 * (rse.length - ar.length) / ar.length;
            worst = e1 > worst ? e1 : worst;
        }
    }
    double mean = found ? err_sum / found : 0;
    /* (AR0042SR's corners' thirds are never joined: none there.) */
    ok(found == joined && failed == 0,
       "%s: refiner: %u far paths found, one for each pair joined on the whole map (%u; %zu "
       "stretches refined), none failed", what, found, joined, stretches);
    is_int(differ, 0, "%s: refiner: the paths of a workspace opened for each stretch", what);
    is_int(bad, 0, "%s: refiner: every path a legal walk of the whole map", what);
    is_int(shorter, 0, "%s: refiner: none shorter than Annotated A* on the whole map", what);
    ok(mean <= max_err, "%s: refiner: mean error %.3f %% (at most %.1f %%), worst %.3f %%", what,
       mean, max_err, worst);
    /* Ends on nodes joined there alone: no worse than their clusters' searches by more than a
     * tenth of a point. */
    double se_mean = found ? se_sum / found : 0;
    ok(mean <= se_mean + 0.1, "%s: refiner: mean error %.3f %% with the ends joined at their "
       "nodes, %.3f %% with their clusters searched", what, mean, se_mean);
    is_int(grown, 0, "%s: refiner: asked again, the refinement allocates nothing (%zu bytes held)",
           what, nbi_whaa_bytes(q));
    /* Kept walks: the second round copies every stretch but the ends' (the first copies those
     * an earlier pair refined); its paths are the first round's, byte for byte, and legal. */
    ok(found == 0 || (copied[1] > 0 && copied[1] + ends >= again && copied[1] >= copied[0]),
       "%s: walks: asked again, %zu of %zu stretches copied (the ends' %zu refined; %zu copied "
       "the first time)", what, copied[1], again, ends, copied[0]);
    is_int(again_differ, 0, "%s: walks: asked again, the paths of the first round byte for byte",
           what);
    is_int(again_bad, 0, "%s: walks: asked again, every path a legal walk of the whole map", what);
    /* Other flags (not straightened): the walks kept under the old ones are not copied. */
    nbi_whaa_set_query(q, 0, 0);
    nbi_whaa_set_query(f, 0, 0);
    unsigned flag_differ = 0, flag_asked = 0;
    tu_rng r2 = {0xc0de};
    for (int i = 0; i < pairs && flag_asked < 5; i++) {
        nb_cell e[2];
        far_pair(&r2, in, whole, ag, e);
        nbi_whaa_result res, ref;
        if (nbi_whaa_find(q, e[0], e[1], NULL, &res, NULL, 0, NULL, &err) != NB_OK ||
            nbi_whaa_find(f, e[0], e[1], NULL, &ref, NULL, 0, NULL, &err) != NB_OK || !ref.found)
            continue;
        flag_asked++;
        flag_differ += res.found != ref.found || res.path_len != ref.path_len ||
                       memcmp(res.path, ref.path, res.path_len * sizeof *res.path) != 0;
    }
    ok(found == 0 || (flag_asked > 0 && flag_differ == 0),
       "%s: walks: not straightened, %u of %u paths those of a workspace opened for each "
       "stretch (nothing kept under the other flags copied)", what, flag_asked - flag_differ,
       flag_asked);
    is_int(grown_begin, 0, "%s: asked again, the ends' insertion (nbi_whaa_begin) allocates nothing",
           what);
out:
    free(hash);
    nbi_whaa_free(q);
    nbi_whaa_free(f);
    nbi_whaa_free(se);
    nb_world_close(w);
}

static void check(const char *what, const char *map_, uint32_t tile, uint32_t cluster,
                  const char *agents_, const char *dir, int pairs, unsigned opts)
{
    int paths = (opts & WITH_PATHS) != 0, levels = (opts & WITH_LEVELS) != 0;
    nb_err err;
    /* Copies: tu_path's and tu_src's buffers rotate under the calls below. */
    char *map = strdup(map_), *agents = strdup(agents_);
    tw_world wd;
    snprintf(err.msg, sizeof err.msg, "the manifest not written");
    if (!ok(nbb_world_cut(map, NULL, agents, tile, cluster, dir, 2, NULL, NULL, NULL, &err) ==
                    NB_OK &&
                (!paths || with_paths(dir)) && (!levels || with_levels(dir)) &&
                (!(opts & WITH_LANDMARKS) || with_landmarks(dir, TEST_LANDMARKS)) &&
                tw_bake_world(dir, 0, &wd, &err),
            "%s: cut into tiles of %u, baked and linked: %s", what, tile, err.msg)) {
        free(map), free(agents);
        return;
    }
    ok(wd.w.columns * wd.w.rows >= 12, "%s: %u x %u tiles", what, wd.w.columns, wd.w.rows);
    /* Each tile's graph stores its intra-edges' paths exactly when the manifest asks. */
    size_t stored = 0, ntiles = (size_t)wd.w.columns * wd.w.rows;
    for (size_t t = 0; t < ntiles; t++) {
        nbi_agraph tg;
        stored += nbi_agraph_find(wd.tiles[t], &tg, NULL) == NB_OK &&
                  (tg.flags & NBI_AGRAPH_PATHS) && tg.arc_path;
    }
    ok(stored == (paths ? ntiles : 0), "%s: %zu of %zu tiles' graphs store their paths (%s)", what,
       stored, ntiles, paths ? "paths: 1" : "the default");
    /* ... and a level of clusters above it exactly when the manifest asks. */
    size_t leveled = 0;
    for (size_t t = 0; t < ntiles; t++) {
        nb_haa *h = NULL;
        nb_haa_graph hg;
        if (nb_haa_open(wd.tiles[t], &h, NULL) == NB_OK) {
            nb_haa_describe(h, &hg);
            leveled += hg.levels == 2;
        }
        nb_haa_close(h);
    }
    ok(leveled == (levels ? ntiles : 0), "%s: %zu of %zu tiles' graphs have 2 levels (%s)", what,
       leveled, ntiles, levels ? "levels: 2" : "the default");
    nb_bundle *whole = tw_whole_bake(map, NULL, agents);
    nb_world *w = NULL;
    nb_world_haa *q = NULL;
    nb_world_overlay *ov = NULL;
    nb_aa *aa = NULL;
    nb_agent ag = *nb_agent_get(whole, 0);
    if (!ok(nb_world_open(tu_path(dir, "world.nbw"), NULL, 0, NULL, &w, &err) == NB_OK &&
                nb_world_haa_open(w, &q, &err) == NB_OK &&
                nb_world_overlay_open(w, &ov, &err) == NB_OK &&
                nb_aa_open(whole, &aa, &err) == NB_OK,
            "%s: the world, its HAA* graph and AA* on the whole bake open: %s", what, err.msg))
        goto out;
    /* Nothing loaded: the ends' tiles are named. */
    nb_world_info in;
    nb_world_describe(w, &in);
    tu_rng r = {0x5eed + tile};
    nb_cell a = {0, 0}, b = {(int32_t)in.width - 1, (int32_t)in.height - 1};
    nb_world_tile need[4];
    nb_haa_query hq;
    nb_haa_query_init(&hq);
    hq.start = a, hq.goal = b, hq.size = 1, hq.capability = ag.capability;
    hq.flags = NB_HAA_STRAIGHTEN;
    nb_haa_result res;
    is_int(nb_world_haa_find(q, &hq, NULL, &res, &err), NB_ERR_UNLOADED,
           "%s: nothing loaded: NB_ERR_UNLOADED (%s)", what, err.msg);
    size_t nneed = nb_world_haa_needed(q, need, 4);
    ok(nneed == 2 && need[0].column == 0 && need[0].row == 0 &&
           need[1].column == in.columns - 1 && need[1].row == in.rows - 1,
       "%s: ... naming the two corner tiles (%zu)", what, nneed);
    for (uint32_t y = 0; y < in.rows; y++)
        for (uint32_t x = 0; x < in.columns; x++)
            nb_world_load(w, (nb_world_tile){x, y}, NULL);
    refused(what, w, q, &hq, ov, whole, &ag);
    edited(what, w, q, whole, &ag, tile, 12, pairs / 6);
    /* A tile with clusters off its edges (the sample map's tiles of 16 in clusters of 8 have
     * none: every edited tile there is walked cell by cell, as edited() checks). */
    if (tile >= 6 * cluster)
        repaired(what, w, whole, &ag, tile, cluster, 12, pairs / 5);
    if (tile >= 6 * cluster)
        kept(what, w, whole, &ag, tile, cluster, pairs / 10);
    if (tile >= 6 * cluster)
        straddle(what, w, whole, &ag, tile, pairs / 10);
    unsigned wrong_found = 0, bad_walk = 0, shorter = 0, found = 0, crossing = 0;
    double err_sum = 0;
    for (int i = 0; i < pairs; i++) {
        nb_cell s = {0, 0}, g = {0, 0};
        for (int tries = 0; tries < 500; tries++) {
            s = (nb_cell){(int32_t)tu_below(&r, in.width), (int32_t)tu_below(&r, in.height)};
            if (nb_can_stand(whole, ag.capability, 1, s.x, s.y) == 1)
                break;
        }
        for (int tries = 0; tries < 500; tries++) {
            g = (nb_cell){(int32_t)tu_below(&r, in.width), (int32_t)tu_below(&r, in.height)};
            if (nb_can_stand(whole, ag.capability, 1, g.x, g.y) == 1)
                break;
        }
        nb_aa_query aq;
        nb_aa_query_init(&aq);
        aq.start = s, aq.goal = g, aq.size = 1, aq.capability = ag.capability;
        aq.corner = NB_CORNER_STRICT;
        nb_aa_result ar;
        hq.start = s, hq.goal = g;
        if (nb_aa_find(aa, &aq, &ar, &err) != NB_OK ||
            nb_world_haa_find(q, &hq, NULL, &res, &err) != NB_OK) {
            ok(0, "%s: (%d, %d) to (%d, %d): %s", what, s.x, s.y, g.x, g.y, err.msg);
            break;
        }
        int want = ar.status == NB_PATH_FOUND, got = res.status == NB_PATH_FOUND;
        if (want != got) {
            if (!wrong_found++)
                diag("(%d, %d) to (%d, %d): AA* %s, world HAA* %s", s.x, s.y, g.x, g.y,
                     want ? "found" : "none", nb_path_status_str(res.status));
            continue;
        }
        if (!want)
            continue;
        found++;
        crossing += (s.x / (int32_t)tile != g.x / (int32_t)tile ||
                     s.y / (int32_t)tile != g.y / (int32_t)tile);
        int walk = res.path_len >= 1 && res.path[0].x == s.x && res.path[0].y == s.y &&
                   res.path[res.path_len - 1].x == g.x && res.path[res.path_len - 1].y == g.y;
        for (size_t k = 0; walk && k < res.path_len; k++)
            walk = nb_can_stand(whole, ag.capability, 1, res.path[k].x, res.path[k].y) == 1 &&
                   (k == 0 || adjacent(res.path[k - 1], res.path[k]));
        if (!walk && !bad_walk++)
            diag("(%d, %d) to (%d, %d): the path is not a walk of the whole map", s.x, s.y, g.x,
                 g.y);
        if (res.length < ar.length - 1e-6 && !shorter++)
            diag("(%d, %d) to (%d, %d): %.4f, shorter than AA*'s %.4f", s.x, s.y, g.x, g.y,
                 res.length, ar.length);
        if (ar.length > 0)
            err_sum += (res.length - ar.length) / ar.length;
    }
    /* The landmarks: the same optimum over the world graph, found by expanding less. */
    nbi_whaa *iq = NULL;
    if (ok(nbi_whaa_new(w, ag.capability, 1, &iq, &err) == NB_OK && nbi_whaa_has_landmarks(iq),
           "%s: the world bundle has landmarks on its HAA* graph (%s)", what, err.msg)) {
        nbi_whaa_set_refine(iq, 0);
        unsigned differ = 0, asked = 0;
        uint64_t with = 0, without = 0;
        for (int i = 0; i < pairs; i++) {
            nb_cell e[2];
            for (int k = 0; k < 2; k++)
                for (int tries = 0; tries < 500; tries++) {
                    e[k] = (nb_cell){(int32_t)tu_below(&r, in.width), (int32_t)tu_below(&r, in.height)};
                    if (nb_can_stand(whole, ag.capability, 1, e[k].x, e[k].y) == 1)
                        break;
                }
            nbi_whaa_result ra, rb;
            nbi_whaa_set_landmarks(iq, 1);
            nb_status sa = nbi_whaa_find(iq, e[0], e[1], NULL, &ra, NULL, 0, NULL, &err);
            nbi_whaa_set_landmarks(iq, 0);
            nb_status sb = nbi_whaa_find(iq, e[0], e[1], NULL, &rb, NULL, 0, NULL, &err);
            if (sa != NB_OK || sb != NB_OK || ra.found != rb.found ||
                fabs(ra.abstract_length - rb.abstract_length) > 1e-6 * (1 + rb.abstract_length)) {
                if (!differ++)
                    diag("(%d, %d) to (%d, %d): with landmarks %d %.4f, without %d %.4f", e[0].x,
                         e[0].y, e[1].x, e[1].y, ra.found, ra.abstract_length, rb.found,
                         rb.abstract_length);
                continue;
            }
            asked += ra.found;
            with += ra.expanded, without += rb.expanded;
        }
        is_int(differ, 0, "%s: landmarks: the same world graph length as the octile bound alone "
               "(%u paths)", what, asked);
        ok(with < without, "%s: landmarks: %llu nodes expanded against %llu", what,
           (unsigned long long)with, (unsigned long long)without);
    }
    nbi_whaa_free(iq);
    landmarks_plain(what, w, &ag, opts & WITH_LANDMARKS ? TEST_LANDMARKS : 0);
    /* The refinement searches the tiles' levels exactly when they have them. */
    size_t nst, above;
    uint64_t rexp;
    stretches(w, whole, &ag, &r, in, pairs / 4, &nst, &above, &rexp);
    ok(nst > 0 && (levels ? above > 0 : above == 0),
       "%s: refinement: %zu of %zu stretches searched above the tile graph's level (%s); %llu "
       "nodes expanded", what, above, nst, levels ? "levels: 2" : "none baked",
       (unsigned long long)rexp);
    insertion(what, w, whole, &ag, &r, in, pairs);
    insertion_plain(what, w, &wd, &ag, &r, in, pairs / 5);
    refined(what, dir, whole, &ag, aa, pairs / 4, 5.0);
    is_int(wrong_found, 0, "%s: complete: a path exactly when AA* finds one (%d pairs)", what,
           pairs);
    is_int(bad_walk, 0, "%s: every path is a walk of the whole map from start to goal", what);
    is_int(shorter, 0, "%s: no path shorter than AA*'s", what);
    double mean = found ? 100 * err_sum / found : 0;
    ok(found >= (unsigned)pairs / 4 && crossing >= found / 2,
       "%s: %u paths found, %u across tiles", what, found, crossing);
    ok(mean <= 10.0, "%s: mean error %.2f %% (haa-bench.md's range: at most 10 %%)", what, mean);
    diag("%s: %u paths, mean error %.2f %%", what, found, mean);
out:
    nb_aa_close(aa);
    nb_world_haa_close(q);
    nb_world_overlay_close(ov);
    nb_world_close(w);
    nb_bundle_close(whole);
    tw_world_close(&wd);
    free(map), free(agents);
}

/* A section of type from the bundle at path, with the u32 at offset set
 * to v (and the next u32 too when both), written to out: 1 when nb_bundle_open with NB_OPEN_VERIFY refuses
 * it with a message holding want. */
static int refuses(const char *path, const char *out, uint32_t type, size_t offset, uint32_t v,
                   int both, const char *want, const char *what)
{
    size_t len;
    nb_section_info info;
    uint8_t *p = tu_section_take(path, type, &len, &info);
    if (!ok(p && offset + 4 + 4 * (both != 0) <= len, "%s: the section is there", what))
        return free(p), 0;
    nbi_put32(p + offset, v);
    if (both)
        nbi_put32(p + offset + 4, v);
    nb_bundle *b = NULL;
    nb_err err;
    int r = tu_section_put(path, out, &info, p, len) &&
            nb_bundle_open(out, NB_OPEN_VERIFY, NULL, &b, &err) == NB_ERR_FORMAT &&
            strstr(err.msg, want) != NULL;
    ok(r, "%s: refused (%s)", what, b ? "opened" : err.msg);
    nb_bundle_close(b);
    free(p);
    return r;
}

/* The checks the world search relies on, each planted in a baked world. */
static void damaged(const char *dir)
{
    const char *tmp = tu_tmpdir();
    char world[4096], border[4096], out[4096];
    snprintf(world, sizeof world, "%s/world.nbw", dir);
    /* The first border file of a tile with portals to damage. */
    for (int k = 0; k < 16; k++) {
        snprintf(border, sizeof border, "%s/tiles/%d_%d.border", dir, k % 4, k / 4);
        nb_section_info bi;
        size_t bl;
        uint8_t *bp = tu_section_take(border, NB_SEC_BORDER_GRAPH, &bl, &bi);
        int enough = bp && nbi_get32(bp + NBI_BGRAPH_PORTALS) >= 2;
        free(bp);
        if (enough)
            break;
    }
    snprintf(out, sizeof out, "%s/damaged.nbb", tmp);
    size_t len;
    nb_section_info info;
    uint8_t *p = tu_section_take(world, NB_SEC_WORLD_GRAPH, &len, &info);
    uint32_t tiles = p ? nbi_get32(p + NBI_WGRAPH_TILES) : 0, n = p ? nbi_get32(p + NBI_WGRAPH_NODES) : 0;
    free(p);
    size_t arcs = NBI_WGRAPH_HEADER + 4 * ((size_t)tiles + 1) + (size_t)n * NBI_WGRAPH_NODE +
                  4 * ((size_t)n + 1);
    /* The first arc made 0 steps long, then sent to a node that is not there. */
    refuses(world, out, NB_SEC_WORLD_GRAPH, arcs + 4, 0, 1, "shorter than the cells lie apart",
            "world graph: an arc of no steps");
    refuses(world, out, NB_SEC_WORLD_GRAPH, arcs + 4, UINT32_MAX, 1, "shorter than the cells",
            "world graph: an arc of steps past the format's bound");
    refuses(world, out, NB_SEC_WORLD_GRAPH, arcs, n, 0, "leaves its tile's neighbours",
            "world graph: an arc to a node that is not there");
    /* A node's arcs out of the format's order (its own tile's first): the first of a node
     * with both kinds swapped with its last, an arc to another tile. */
    p = tu_section_take(world, NB_SEC_WORLD_GRAPH, &len, &info);
    const uint8_t *tf = p ? p + NBI_WGRAPH_HEADER : NULL;
    size_t af = arcs - 4 * ((size_t)n + 1);
    int swapped = 0;
    for (uint32_t t = 0; p && t < tiles && !swapped; t++)
        for (uint32_t u = nbi_u32at(tf, t); u < nbi_u32at(tf, t + 1) && !swapped; u++) {
            uint32_t a0 = nbi_get32(p + af + 4 * (size_t)u), a1 = nbi_get32(p + af + 4 * (size_t)u + 4);
            if (a1 < a0 + 2)
                continue;
            uint8_t *x = p + arcs + (size_t)a0 * NBI_WGRAPH_ARC, *y = p + arcs + (size_t)(a1 - 1) * NBI_WGRAPH_ARC;
            uint32_t vx = nbi_get32(x + NBI_WGRAPH_A_TO), vy = nbi_get32(y + NBI_WGRAPH_A_TO);
            if (vx < nbi_u32at(tf, t) || vx >= nbi_u32at(tf, t + 1) ||
                (vy >= nbi_u32at(tf, t) && vy < nbi_u32at(tf, t + 1)))
                continue;
            uint8_t tmp_[NBI_WGRAPH_ARC];
            memcpy(tmp_, x, NBI_WGRAPH_ARC), memcpy(x, y, NBI_WGRAPH_ARC), memcpy(y, tmp_, NBI_WGRAPH_ARC);
            swapped = 1;
        }
    nb_bundle *ob = NULL;
    nb_err oerr;
    ok(swapped && tu_section_put(world, out, &info, p, len) &&
           nb_bundle_open(out, NB_OPEN_VERIFY, NULL, &ob, &oerr) == NB_ERR_FORMAT &&
           strstr(oerr.msg, "comes after an arc to another tile") != NULL,
       "world graph: a node's arc to its own tile after one to another tile: refused (%s)",
       !swapped ? "no node with both" : ob ? "opened" : oerr.msg);
    nb_bundle_close(ob);
    free(p);
    /* A node moved out of its tile. */
    refuses(world, out, NB_SEC_WORLD_GRAPH, NBI_WGRAPH_HEADER + 4 * ((size_t)tiles + 1) + 4,
            1u << 19, 0, "is not in its tile", "world graph: a node outside its tile");
    refuses(world, out, NB_SEC_WORLD_GRAPH, NBI_WGRAPH_NODES, n + 1, 0, "disagree",
            "world graph: a node count the table does not say");
    /* The landmarks: a distance no arc allows, a landmark that is no node, counts. */
    p = tu_section_take(world, NB_SEC_WORLD_LANDMARKS, &len, &info);
    uint32_t nlm = p ? nbi_get32(p + NBI_WLMK_COUNT) : 0, lm0 = p ? nbi_get32(p + NBI_WLMK_HEADER) : 0;
    free(p);
    if (ok(nlm >= 1 && lm0 < n, "world landmarks: %u of them", nlm)) {
        size_t dist = NBI_WLMK_HEADER + 4 * (size_t)nlm;
        /* Landmark 0's node's distance to the last landmark (all lie in one component, so
         * joined, and a landmark has arcs) made far too long, then landmark 0's own distance
         * made not 0. */
        size_t far = dist + NBI_WLMK_DIST * ((size_t)lm0 * nlm + nlm - 1);
        if (nlm >= 2)
            refuses(world, out, NB_SEC_WORLD_LANDMARKS, far, 100000, 1,
                    "which no arc of that length allows",
                    "world landmarks: a distance that an arc cannot span");
        refuses(world, out, NB_SEC_WORLD_LANDMARKS, NBI_WLMK_HEADER, n, 0, "is not a node",
                "world landmarks: a landmark that is no node");
        refuses(world, out, NB_SEC_WORLD_LANDMARKS, dist + NBI_WLMK_DIST * (size_t)lm0 * nlm, 3,
                0, "at distance 0 from itself", "world landmarks: a landmark away from itself");
        refuses(world, out, NB_SEC_WORLD_LANDMARKS, NBI_WLMK_COUNT, nlm + 1, 0, "disagree",
                "world landmarks: a count the table does not say");
        refuses(world, out, NB_SEC_WORLD_LANDMARKS, NBI_WLMK_NODES, n + 1, 0, "expected",
                "world landmarks: a node count that is not the graph's");
        refuses(world, out, NB_SEC_WORLD_LANDMARKS, far, 1u << 30, 0, "past the format's bound",
                "world landmarks: a distance past the bound");
    }
    /* A portal moved off the tile's edge, and a distance made too short. */
    p = tu_section_take(border, NB_SEC_BORDER_GRAPH, &len, &info);
    uint32_t np = p ? nbi_get32(p + NBI_BGRAPH_PORTALS) : 0, nl = p ? nbi_get32(p + NBI_BGRAPH_LINKS) : 0;
    free(p);
    if (!ok(np >= 2, "border graph: %s has %u portals", border, np))
        return;
    refuses(border, out, NB_SEC_BORDER_GRAPH, NBI_BGRAPH_HEADER + 4, 1u << 19, 0,
            "is not on the edge", "border graph: a portal off the tile's edge");
    size_t d01 = NBI_BGRAPH_HEADER + (size_t)np * NBI_BGRAPH_PORTAL + (size_t)nl * NBI_BGRAPH_LINK + 8;
    refuses(border, out, NB_SEC_BORDER_GRAPH, d01, 0, 1, "shorter than the cells lie apart",
            "border graph: a distance shorter than its portals lie apart");
    refuses(border, out, NB_SEC_BORDER_GRAPH, NBI_BGRAPH_HEADER + (size_t)np * NBI_BGRAPH_PORTAL,
            np, 0, "does not leave the tile", "border graph: a link from a portal that is not there");
}

/* A copy of the world bundle with the u32 at offset of its world graph set to v (and the next
 * too when both), written to out. */
static int world_damaged(const char *world, const char *out, size_t offset, uint32_t v, int both)
{
    size_t len;
    nb_section_info info;
    uint8_t *p = tu_section_take(world, NB_SEC_WORLD_GRAPH, &len, &info);
    int r = p && offset + 4 + 4 * (both != 0) <= len;
    if (r) {
        nbi_put32(p + offset, v);
        if (both)
            nbi_put32(p + offset + 4, v);
        r = tu_section_put(world, out, &info, p, len);
    }
    free(p);
    return r;
}

/* The world graph checked a tile at a time as a search reaches it (haa_world.c's
 * tile_checked): a world bundle damaged in one tile's part opens, answers a query that does
 * not reach that tile as the sound bundle does, and refuses one that does, naming the tile;
 * the first query reads only the pages of the tiles it reaches. */
static void lazy(const char *dir)
{
    const char *tmp = tu_tmpdir();
    char world[4096], tiles[4096], out[4096], want[64];
    snprintf(world, sizeof world, "%s/world.nbw", dir);
    snprintf(tiles, sizeof tiles, "%s/tiles", dir);
    snprintf(out, sizeof out, "%s/lazy.nbw", tmp);
    size_t len;
    nb_section_info info;
    uint8_t *p = tu_section_take(world, NB_SEC_WORLD_GRAPH, &len, &info);
    if (!ok(p != NULL, "lazy: the world graph is there"))
        return;
    uint32_t tiles_n = nbi_get32(p + NBI_WGRAPH_TILES), n = nbi_get32(p + NBI_WGRAPH_NODES);
    const uint8_t *tf = p + NBI_WGRAPH_HEADER, *node = tf + 4 * ((size_t)tiles_n + 1),
                  *af = node + (size_t)n * NBI_WGRAPH_NODE;
    size_t arcs_at = (size_t)(af - p) + 4 * ((size_t)n + 1);
    nb_world *w = NULL;
    nb_world_haa *q = NULL;
    nb_err err;
    if (!ok(nb_world_open(world, NULL, 0, NULL, &w, &err) == NB_OK &&
                nb_world_haa_open(w, &q, &err) == NB_OK,
            "lazy: the sound world opens: %s", err.msg)) {
        nb_world_close(w);
        free(p);
        return;
    }
    nb_world_info in;
    nb_world_describe(w, &in);
    for (uint32_t y = 0; y < in.rows; y++)
        for (uint32_t x = 0; x < in.columns; x++)
            nb_world_load(w, (nb_world_tile){x, y}, NULL);
    /* The graph taken (the first of its type) is the one of this (capability, size). */
    nb_haa_query hq;
    nb_haa_query_init(&hq);
    hq.size = nbi_get32(p + NBI_WGRAPH_SIZE);
    hq.capability = (nb_capability)nbi_get32(p + NBI_WGRAPH_CAPABILITY);
    hq.flags = NB_HAA_STRAIGHTEN;
    nb_haa_result res, sound_near, sound_far;
    /* The short query: two nodes of one tile (the first that has them) at most a quarter of
     * a tile apart that the sound world joins. */
    nb_cell near[2] = {{0, 0}, {0, 0}};
    int nnear = 0;
    uint32_t nt = 0;
    for (uint32_t t = 0; t < tiles_n && nnear < 2; t++)
        for (uint32_t u = nbi_u32at(tf, t); u < nbi_u32at(tf, t + 1) && nnear < 2; u++)
            for (uint32_t v = u + 1; v < nbi_u32at(tf, t + 1) && nnear < 2; v++) {
                const uint8_t *nu = node + (size_t)u * NBI_WGRAPH_NODE,
                              *nv = node + (size_t)v * NBI_WGRAPH_NODE;
                hq.start = (nb_cell){(int32_t)nbi_get32(nu + NBI_WGRAPH_N_X),
                                     (int32_t)nbi_get32(nu + NBI_WGRAPH_N_Y)};
                hq.goal = (nb_cell){(int32_t)nbi_get32(nv + NBI_WGRAPH_N_X),
                                    (int32_t)nbi_get32(nv + NBI_WGRAPH_N_Y)};
                if (abs(hq.start.x - hq.goal.x) + abs(hq.start.y - hq.goal.y) > (int)in.tile / 4)
                    continue;
                if (nb_world_haa_find(q, &hq, NULL, &sound_near, &err) == NB_OK &&
                    sound_near.status == NB_PATH_FOUND)
                    near[0] = hq.start, near[1] = hq.goal, nnear = 2, nt = t;
            }
    /* The tile to damage: the last at least two tiles away from it with a node that has an
     * arc and that the sound world joins to the short query's start. */
    uint32_t dt = tiles_n, du = 0;
    nb_cell far = {0, 0};
    for (uint32_t t = tiles_n; nnear == 2 && t-- > 0 && dt == tiles_n;) {
        long dx = (long)(t % in.columns) - (long)(nt % in.columns),
             dy = (long)(t / in.columns) - (long)(nt / in.columns);
        if (labs(dx) < 2 && labs(dy) < 2)
            continue;
        for (uint32_t u = nbi_u32at(tf, t); u < nbi_u32at(tf, t + 1) && dt == tiles_n; u++) {
            if (nbi_u32at(af, u + 1) == nbi_u32at(af, u))
                continue;
            hq.start = near[0];
            hq.goal = far = (nb_cell){(int32_t)nbi_get32(node + (size_t)u * NBI_WGRAPH_NODE + NBI_WGRAPH_N_X),
                                      (int32_t)nbi_get32(node + (size_t)u * NBI_WGRAPH_NODE + NBI_WGRAPH_N_Y)};
            if (nb_world_haa_find(q, &hq, NULL, &sound_far, &err) == NB_OK &&
                sound_far.status == NB_PATH_FOUND)
                dt = t, du = u;
        }
    }
    nb_world_haa_close(q);
    nb_world_close(w);
    w = NULL, q = NULL;
    if (!ok(dt < tiles_n && nnear == 2,
            "lazy: (%d, %d) to (%d, %d) in tile %u, and to tile %u's node %u at (%d, %d), found "
            "on the sound world",
            near[0].x, near[0].y, near[1].x, near[1].y, nt, dt, du, far.x, far.y)) {
        free(p);
        return;
    }
    snprintf(want, sizeof want, "tile (%u, %u)", dt % in.columns, dt / in.columns);
    /* Damaged: the tile's first arc made 0 steps long, then its node moved out of it. */
    static const char *what[] = {"an arc of no steps", "a node outside its tile"};
    size_t at[] = {arcs_at + (size_t)nbi_u32at(af, du) * NBI_WGRAPH_ARC + NBI_WGRAPH_A_CARD,
                   (size_t)(node - p) + (size_t)du * NBI_WGRAPH_NODE + NBI_WGRAPH_N_X};
    for (int k = 0; k < 2; k++) {
        if (!ok(world_damaged(world, out, at[k], k ? 1u << 30 : 0, !k) &&
                    nb_world_open(out, tiles, 0, NULL, &w, &err) == NB_OK &&
                    nb_world_haa_open(w, &q, &err) == NB_OK,
                "lazy, %s in %s: the world opens (its check waits for a search): %s", what[k],
                want, err.msg)) {
            nb_world_close(w);
            w = NULL;
            continue;
        }
        for (uint32_t y = 0; y < in.rows; y++)
            for (uint32_t x = 0; x < in.columns; x++)
                nb_world_load(w, (nb_world_tile){x, y}, NULL);
        hq.start = near[0], hq.goal = near[1];
        ok(nb_world_haa_find(q, &hq, NULL, &res, &err) == NB_OK &&
               res.status == NB_PATH_FOUND && fabs(res.length - sound_near.length) < 1e-9,
           "lazy, %s: a query inside tile %u is answered as on the sound world (%s)", what[k], nt,
           err.msg);
        hq.goal = far;
        nb_status st = nb_world_haa_find(q, &hq, NULL, &res, &err);
        ok(st == NB_ERR_FORMAT && strstr(err.msg, want),
           "lazy, %s: a query into %s is refused naming it (%s)", what[k], want,
           st == NB_OK ? "answered" : err.msg);
        /* Refused again by the next query (nothing cached as checked). */
        st = nb_world_haa_find(q, &hq, NULL, &res, &err);
        ok(st == NB_ERR_FORMAT && strstr(err.msg, want), "lazy, %s: ... and again", what[k]);
        hq.goal = near[1];
        ok(nb_world_haa_find(q, &hq, NULL, &res, &err) == NB_OK && res.status == NB_PATH_FOUND,
           "lazy, %s: ... and the short query still answered after it", what[k]);
        nb_world_haa_close(q);
        nb_world_close(w);
        w = NULL, q = NULL;
    }
    /* What a short query reads of the sound graph: the parts of the tiles it reaches
     * (nbi_whaa_checked_bytes), far below the whole graph; and a long one more. */
    nbi_whaa *iq = NULL;
    size_t shortb = 0, longb = 0;
    if (nb_world_open(world, NULL, 0, NULL, &w, &err) == NB_OK &&
        nbi_whaa_new(w, hq.capability, hq.size, &iq, &err) == NB_OK) {
        for (uint32_t y = 0; y < in.rows; y++)
            for (uint32_t x = 0; x < in.columns; x++)
                nb_world_load(w, (nb_world_tile){x, y}, NULL);
        nbi_whaa_result wr;
        if (nbi_whaa_find(iq, near[0], near[1], NULL, &wr, NULL, 0, NULL, &err) == NB_OK)
            shortb = nbi_whaa_checked_bytes(iq);
        if (nbi_whaa_find(iq, near[0], far, NULL, &wr, NULL, 0, NULL, &err) == NB_OK)
            longb = nbi_whaa_checked_bytes(iq);
    }
    ok(shortb > 0 && shortb * 4 < len && longb > shortb,
       "lazy: a short query read %zu bytes of the world graph's %zu, a long one %zu", shortb, len,
       longb);
    nbi_whaa_free(iq);
    nb_world_haa_close(q);
    nb_world_close(w);
    free(p);
}

int main(void)
{
    const char *tmp = tu_tmpdir();
    static const struct { const char *map; uint32_t tile; } maps[] = {
        {"maps/dao/brc202d.map", 128}, {"maps/mazes/maze512-4-0.map", 128},
        {"maps/bg/AR0042SR.map", 64}};
    int any = 0;
    char dir[4096], pdir[4096];
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        const char *map = tu_shared(maps[i].map);
        if (!map)
            continue;
        any = 1;
        snprintf(dir, sizeof dir, "%s/w%zu", tmp, i);
        check(maps[i].map, map, maps[i].tile, 16, tu_src("data/haa-agents.yaml"), dir, 200, 0);
    }
    /* The same queries with each tile's intra-edges' paths stored (the
     * refinement copies them, each checked against the map and the
     * overlay as it is used). */
    char *pmap = tu_shared(maps[0].map) ? strdup(tu_shared(maps[0].map)) : NULL;
    if (pmap) {
        snprintf(pdir, sizeof pdir, "%s/wpaths", tmp);
        check("brc202d, paths: 1", pmap, maps[0].tile, 16, tu_src("data/haa-agents.yaml"), pdir,
              200, WITH_PATHS);
        /* A level of clusters in each tile (clusters of 8, so that a stretch across a tile of
         * 128 lies far enough apart for the tile's HAA* to search it), with and without. */
        snprintf(pdir, sizeof pdir, "%s/wlevels", tmp);
        check("brc202d, clusters of 8, levels: 2", pmap, maps[0].tile, 8,
              tu_src("data/haa-agents.yaml"), pdir, 200, WITH_PATHS | WITH_LEVELS);
        /* Landmarks past the corner and edge ones, farthest first, with the level of blocks. */
        snprintf(pdir, sizeof pdir, "%s/wlandmarks", tmp);
        check("brc202d, paths: 1, landmarks: 12", pmap, maps[0].tile, 16,
              tu_src("data/haa-agents.yaml"), pdir, 200, WITH_PATHS | WITH_LANDMARKS);
        snprintf(pdir, sizeof pdir, "%s/wlevels0", tmp);
        check("brc202d, clusters of 8", pmap, maps[0].tile, 8, tu_src("data/haa-agents.yaml"),
              pdir, 200, WITH_PATHS);
        free(pmap);
    }
    if (!any) {
        snprintf(dir, sizeof dir, "%s/sample", tmp);
        check("data/sample.map", tu_src("data/sample.map"), 16, 8,
              tu_src("data/sample-agents.yaml"), dir, 200, 0);
        snprintf(pdir, sizeof pdir, "%s/sample-paths", tmp);
        check("data/sample.map, paths: 1", tu_src("data/sample.map"), 16, 8,
              tu_src("data/sample-agents.yaml"), pdir, 200, WITH_PATHS);
    }
    damaged(dir);
    lazy(dir);
    return done_testing();
}
