/* test_sg_mono.c: the optimal layer's test for an octile-shortest walk of any shape between a
 * query's ends (sgmono.c, nbi_sg_mono; sgsearch.c answers such queries without a scan):
 *  - on random maps with both corner rules, nbi_sg_mono against a brute force of this file's
 *    own (every cell of the parallelogram the two moves span, step by step, with its own
 *    reading of the map and of the corner rule): the same answer on every pair;
 *  - the turning points it gives: straight hops, each step legal by this file's rule, the
 *    whole as long as the octile distance;
 *  - nb_sg_find on the same pairs: Annotated A*'s status and length, a legal path through its
 *    waypoints, and no search and no scan where the brute force finds such a walk. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "subgoal/subgoal.h"
#include "subgoal/subgoal_build.h"
#include "shapes.h"
#include "testutil.h"

static nbi_legend legend;

/* The cells the agent (ground and swamp, size 1) may stand on; off the map: none. */
static int passable(const nbb_grid *g, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || (uint32_t)x >= g->width || (uint32_t)y >= g->height)
        return 0;
    uint8_t c = g->cells[(size_t)y * g->width + (size_t)x];
    return c == '.' || c == 'G' || c == 'S';
}

/* One move from (x, y) by (dx, dy), each -1, 0 or 1: its target free and, for a diagonal, the
 * two cells beside it both free (strict) or one of them (weak). */
static int step_ok(const nbb_grid *g, int weak, int32_t x, int32_t y, int dx, int dy)
{
    if (!passable(g, x + dx, y + dy))
        return 0;
    if (!dx || !dy)
        return 1;
    int h = passable(g, x + dx, y), v = passable(g, x, y + dy);
    return weak ? h || v : h && v;
}

static int sgn(int v)
{
    return (v > 0) - (v < 0);
}

/* The brute force: cell (i, j) of the parallelogram, after i cardinal and j diagonal moves
 * toward b, is reached when a legal move from a reached (i - 1, j) or (i, j - 1) enters it. */
static int brute_mono(const nbb_grid *g, int weak, nb_cell a, nb_cell b)
{
    int ax = abs(b.x - a.x), ay = abs(b.y - a.y);
    int diag = ax < ay ? ax : ay, card = (ax > ay ? ax : ay) - diag;
    int ddx = sgn(b.x - a.x), ddy = sgn(b.y - a.y);
    int cdx = ax > ay ? ddx : 0, cdy = ax > ay ? 0 : ddy;
    static unsigned char r[200][200];
    if (!passable(g, a.x, a.y))
        return 0;
    for (int j = 0; j <= diag; j++)
        for (int i = 0; i <= card; i++) {
            int32_t x = a.x + i * cdx + j * ddx, y = a.y + i * cdy + j * ddy;
            r[j][i] = (i == 0 && j == 0) ||
                      (i > 0 && r[j][i - 1] && step_ok(g, weak, x - cdx, y - cdy, cdx, cdy)) ||
                      (j > 0 && r[j - 1][i] && step_ok(g, weak, x - ddx, y - ddy, ddx, ddy));
        }
    return r[diag][card];
}

/* 1 when the cells from a through the turning points to b are straight hops of legal steps
 * whose length is the octile distance from a to b. */
static int turns_walk(const nbb_grid *g, int weak, nb_cell a, nb_cell b, const nb_cell *t,
                      size_t n)
{
    double len = 0;
    nb_cell at = a;
    for (size_t k = 0; k <= n; k++) {
        nb_cell to = k < n ? t[k] : b;
        int dx = to.x - at.x, dy = to.y - at.y;
        if ((dx && dy && abs(dx) != abs(dy)) || (!dx && !dy))
            return 0;
        while (at.x != to.x || at.y != to.y) {
            if (!step_ok(g, weak, at.x, at.y, sgn(dx), sgn(dy)))
                return 0;
            at.x += sgn(dx);
            at.y += sgn(dy);
            len += dx && dy ? NBI_SQRT2 : 1.0;
        }
    }
    return fabs(len - nbi_octile_cells(a.x, a.y, b.x, b.y)) < 1e-9;
}

/* A path of the layer: from start to goal by legal moves, as long as length. */
static int legal(const nbb_grid *g, int weak, nb_cell s, nb_cell t, const nb_cell *p, size_t n,
                 double length)
{
    if (n < 1 || p[0].x != s.x || p[0].y != s.y || p[n - 1].x != t.x || p[n - 1].y != t.y)
        return 0;
    double len = 0;
    for (size_t i = 1; i < n; i++) {
        int dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
        if (abs(dx) > 1 || abs(dy) > 1 || (!dx && !dy) ||
            !step_ok(g, weak, p[i - 1].x, p[i - 1].y, dx, dy))
            return 0;
        len += dx && dy ? NBI_SQRT2 : 1.0;
    }
    return fabs(len - length) < 1e-6;
}

/* Random rectangles of wall on an open map: obstacles a walk weaves round. */
static void add_blocks(tu_rng *rng, nbb_grid *g, int count)
{
    for (int k = 0; k < count; k++) {
        uint32_t x0 = tu_below(rng, g->width), y0 = tu_below(rng, g->height);
        uint32_t w = 1 + tu_below(rng, 6), h = 1 + tu_below(rng, 6);
        for (uint32_t y = y0; y < y0 + h && y < g->height; y++)
            for (uint32_t x = x0; x < x0 + w && x < g->width; x++)
                g->cells[(size_t)y * g->width + x] = '@';
    }
}

static void test_map(tu_rng *rng, int map)
{
    static nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    nb_agent *ag = &agents.agent[agents.count++];
    snprintf(ag->name, sizeof ag->name, "a0");
    ag->capability = 3;
    ag->size = 1;
    int weak = map & 1;
    nbb_grid g;
    tu_random_grid(rng, 120, 90, map < 4 ? 2 : 6, 1, &g);
    add_blocks(rng, &g, map < 4 ? 60 : 20);
    nb_err err;
    nb_bundle *nb = NULL;
    nb_aa *aa = NULL;
    nb_sg *sg = NULL;
    const char *path = tu_path(tu_tmpdir(), "sg-mono.nbk");
    size_t idx = 0;
    nbi_sglayer L;
    if (!ok(tu_bake_optimal(path, &legend, &agents, &g, weak ? NBB_CORNERS_WEAK
                                                             : NBB_CORNERS_STRICT, &err) == NB_OK &&
                nb_bundle_open(path, 0, NULL, &nb, &err) == NB_OK &&
                nb_aa_open(nb, &aa, &err) == NB_OK && tu_sg_open(nb, 0, &sg, &err) == NB_OK,
            "random map %d (%s corners): baked and opened", map, weak ? "weak" : "strict")) {
        diag("%s", err.msg);
        goto out;
    }
    while (nb->sections[idx].info.type != NB_SEC_SUBGOAL)
        idx++;
    if (!ok(nbi_sglayer_at(nb, idx, &L, &err) == NB_OK, "random map %d: layer read", map))
        goto out;
    long pairs = 0, differ = 0, found = 0, beyond_two = 0, bad_turns = 0;
    long queries = 0, wrong = 0, searched = 0, off_limits = 0;
    static nbi_sgmono m;
    static nb_cell turns[512], walk[512];
    for (int k = 0; k < 20000 && pairs < 1500; k++) {
        nb_cell s = {(int32_t)tu_below(rng, g.width), (int32_t)tu_below(rng, g.height)};
        nb_cell t = {s.x + (int32_t)tu_below(rng, 141) - 70,
                     s.y + (int32_t)tu_below(rng, 141) - 70};
        if (t.x < 0 || t.y < 0 || (uint32_t)t.x >= g.width || (uint32_t)t.y >= g.height ||
            !passable(&g, s.x, s.y) || !passable(&g, t.x, t.y) || (s.x == t.x && s.y == t.y))
            continue;
        pairs++;
        int want = brute_mono(&g, weak, s, t);
        int ax = abs(t.x - s.x), ay = abs(t.y - s.y);
        int dg = ax < ay ? ax : ay, cd = (ax > ay ? ax : ay) - dg;
        int got = nbi_sg_mono(&L.grid, s, t, &m);
        if (dg > (int)NBI_SG_MONO_DIAG || cd > (int)NBI_SG_MONO_CARD) {
            off_limits++;
            differ += got != 0;
        } else if (got != want) {
            if (differ++ < 4)
                diag("map %d: %d,%d -> %d,%d: nbi_sg_mono %d, brute force %d", map, s.x, s.y,
                     t.x, t.y, got, want);
        }
        if (got) {
            found++;
            size_t n = nbi_sg_mono_turns(&m, turns);
            beyond_two += !nbi_sg_walk(&L.grid, s, t, walk);
            if (n > (size_t)(dg + cd) || !turns_walk(&g, weak, s, t, turns, n))
                bad_turns++;
        }
        /* The layer's query against Annotated A*. */
        nb_sg_query q;
        nb_sg_query_init(&q);
        q.capability = 3;
        q.corner = weak ? NB_CORNER_WEAK : NB_CORNER_STRICT;
        q.start = s;
        q.goal = t;
        nb_aa_query aq;
        nb_aa_query_init(&aq);
        aq.capability = 3;
        aq.corner = q.corner;
        aq.start = s;
        aq.goal = t;
        nb_sg_result r;
        nb_aa_result ar;
        if (nb_sg_find(sg, &q, &r, &err) != NB_OK || nb_aa_find(aa, &aq, &ar, &err) != NB_OK) {
            wrong++;
            continue;
        }
        queries++;
        if (r.status != ar.status ||
            (r.status == NB_PATH_FOUND &&
             (fabs(r.length - ar.length) > 1e-6 || !legal(&g, weak, s, t, r.path, r.path_len,
                                                          r.length)))) {
            if (wrong++ < 4)
                diag("map %d: %d,%d -> %d,%d: layer %s %.6f, Annotated A* %s %.6f", map, s.x,
                     s.y, t.x, t.y, nb_path_status_str(r.status), r.length,
                     nb_path_status_str(ar.status), ar.length);
        }
        /* Under 64 apart (sgsearch.c, SG_MONO_SHORT) a walk of any shape ends the query. */
        if (want && nbi_octile_cells(s.x, s.y, t.x, t.y) < 64 && (r.searched || r.scanned))
            searched++;
    }
    ok(pairs >= 1000 && differ == 0 && found > 0 && beyond_two > 0 && bad_turns == 0,
       "random map %d (%s corners): nbi_sg_mono as the brute force on %ld pairs (%ld differ, %ld "
       "beyond the limits), %ld walks found, %ld of them neither of nbi_sg_walk's shapes, turning "
       "points a legal octile walk (%ld not)", map, weak ? "weak" : "strict", pairs, differ,
       off_limits, found, beyond_two, bad_turns);
    ok(queries == pairs && wrong == 0 && searched == 0,
       "random map %d: nb_sg_find as Annotated A* on %ld pairs (%ld wrong), legal paths; %ld with "
       "a walk under 64 searched or scanned", map, queries, wrong, searched);
out:
    nb_sg_close(sg);
    nb_aa_close(aa);
    nb_bundle_close(nb);
    nbb_grid_free(&g);
}

int main(void)
{
    tu_rng rng = {0x5e9d0c};
    nbi_legend_default(&legend);
    for (int map = 0; map < 6; map++)
        test_map(&rng, map);
    return done_testing();
}
