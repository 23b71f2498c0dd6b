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
 * - What is not answered across tiles yet refused (an overlay that blocks
 *   cells, smoothing, partial, terrain costs), an end the agent cannot
 *   stand at answered as nb_haa_find does, a budget stopping the search.
 * - The world graph and a tile's border graph refused when damaged: an arc
 *   or a distance shorter than its cells lie apart (the search's heuristic
 *   relies on it), an arc to no node, a node outside its tile, a portal
 *   off the tile's edge, a link from no portal, counts the table does not
 *   say. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    /* Blocked cells: refused, however few; an overlay that blocks none is no overlay. */
    is_int(nb_world_haa_find(q, &hq, ov, &res, &err), NB_OK,
           "%s: an overlay that blocks nothing is answered (%s)", what, err.msg);
    nb_world_overlay_block(ov, 1, 1, 1, 1, NULL);
    is_int(nb_world_haa_find(q, &hq, ov, &res, &err), NB_ERR_ARG,
           "%s: an overlay that blocks cells: NB_ERR_ARG", what);
    ok(strstr(err.msg, "not answered across tiles") != NULL, "%s: ... saying so (%s)", what,
       err.msg);
    nb_world_overlay_unblock(ov, 1, 1, 1, 1, NULL);
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

static void check(const char *what, const char *map_, uint32_t tile, uint32_t cluster,
                  const char *agents_, const char *dir, int pairs)
{
    nb_err err;
    /* Copies: tu_path's and tu_src's buffers rotate under the calls below. */
    char *map = strdup(map_), *agents = strdup(agents_);
    tw_world wd;
    if (!ok(nbb_world_cut(map, NULL, agents, tile, cluster, dir, 2, NULL, NULL, NULL, &err) ==
                    NB_OK &&
                tw_bake_world(dir, 0, &wd, &err),
            "%s: cut into tiles of %u, baked and linked: %s", what, tile, err.msg)) {
        free(map), free(agents);
        return;
    }
    ok(wd.w.columns * wd.w.rows >= 12, "%s: %u x %u tiles", what, wd.w.columns, wd.w.rows);
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
    /* A node moved out of its tile. */
    refuses(world, out, NB_SEC_WORLD_GRAPH, NBI_WGRAPH_HEADER + 4 * ((size_t)tiles + 1) + 4,
            1u << 19, 0, "is not in its tile", "world graph: a node outside its tile");
    refuses(world, out, NB_SEC_WORLD_GRAPH, NBI_WGRAPH_NODES, n + 1, 0, "disagree",
            "world graph: a node count the table does not say");
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

int main(void)
{
    const char *tmp = tu_tmpdir();
    static const struct { const char *map; uint32_t tile; } maps[] = {
        {"maps/dao/brc202d.map", 128}, {"maps/mazes/maze512-4-0.map", 128},
        {"maps/bg/AR0042SR.map", 64}};
    int any = 0;
    char dir[4096];
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        const char *map = tu_shared(maps[i].map);
        if (!map)
            continue;
        any = 1;
        snprintf(dir, sizeof dir, "%s/w%zu", tmp, i);
        check(maps[i].map, map, maps[i].tile, 16, tu_src("data/haa-agents.yaml"), dir, 200);
    }
    if (!any) {
        snprintf(dir, sizeof dir, "%s/sample", tmp);
        check("data/sample.map", tu_src("data/sample.map"), 16, 8,
              tu_src("data/sample-agents.yaml"), dir, 200);
    }
    damaged(dir);
    return done_testing();
}
