/* test_sg_bound.c: the optimal layer's first try within a bound on the
 * path's length (sgsearch.c, join_ends; sgscan.c, nbi_sg_scan_within):
 *  - the bounded scan against the whole scan on random maps: it finds
 *    exactly the whole scan's subgoals whose h-path length plus octile
 *    distance to the other end is within the bound, with the same steps,
 *    each reached by the h-path its steps say;
 *  - every line of six scenario files (a street map, two open maps, a
 *    dungeon, a maze, rooms): found, at the file's optimal length (an
 *    answer computed outside navbake), and on three some lines searched
 *    again without the bound;
 *  - short paths (octile distance under 64) between random cells of the
 *    open maps: Annotated A*'s status and length, legal paths;
 *  - a detour far longer than the bound: Annotated A*'s length through the
 *    retry, and the sliced form giving find's path.
 * Real maps are skipped without ../shared (NB_SHARED). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "subgoal/subgoal.h"
#include "subgoal/subgoal_build.h"
#include "shapes.h"
#include "testutil.h"

static nbi_legend legend;

static void one_agent(nbi_agentset *agents)
{
    memset(agents, 0, sizeof *agents);
    nb_agent *a = &agents->agent[agents->count++];
    snprintf(a->name, sizeof a->name, "a0");
    a->capability = 3; /* ground and swamp, size 1: the scenario files' agent */
    a->size = 1;
}

/* ---- the scan ---- */

struct hit {
    int32_t x, y;
    uint32_t card, diag;
};

struct hits {
    struct hit h[4096];
    size_t n;
};

static int collect(void *ctx, int32_t x, int32_t y, uint32_t card, uint32_t diag)
{
    struct hits *hs = ctx;
    if (hs->n < sizeof hs->h / sizeof *hs->h) {
        struct hit h = {x, y, card, diag};
        hs->h[hs->n++] = h;
    }
    return 1;
}

/* A hit's h-path length from the scan's start plus its octile distance to t. */
static double sum_of(nb_cell t, const struct hit *h)
{
    return nbi_steps_length(h->card, h->diag) + nbi_octile_cells(h->x, h->y, t.x, t.y);
}

/* The cells the scenario files' agent (ground and swamp) may stand on. */
static int passable(const nbb_grid *g, int32_t x, int32_t y)
{
    uint8_t c = g->cells[(size_t)y * g->width + (size_t)x];
    return c == '.' || c == 'G' || c == 'S';
}

static void test_scan(tu_rng *rng)
{
    static nbi_agentset agents;
    static struct hits whole, within;
    one_agent(&agents);
    long pairs = 0, missing = 0, wrong_steps = 0, outside = 0, extra = 0, cut = 0;
    for (int map = 0; map < 6; map++) {
        nbb_grid g;
        tu_random_grid(rng, 90, 70, map < 3 ? 8 : 25, 1, &g);
        nb_err err;
        nb_bundle *nb = NULL;
        const char *path = tu_path(tu_tmpdir(), "sgb-scan.nbk");
        nbi_sglayer L;
        size_t idx = 0;
        if (!ok(tu_bake_optimal(path, &legend, &agents, &g, NBB_CORNERS_STRICT, &err) == NB_OK &&
                    nb_bundle_open(path, 0, NULL, &nb, &err) == NB_OK,
                "random map %d baked", map)) {
            diag("%s", err.msg);
            nbb_grid_free(&g);
            continue;
        }
        while (nb->sections[idx].info.type != NB_SEC_SUBGOAL)
            idx++;
        if (!ok(nbi_sglayer_at(nb, idx, &L, &err) == NB_OK, "random map %d: layer read", map)) {
            nb_bundle_close(nb);
            nbb_grid_free(&g);
            continue;
        }
        for (int q = 0; q < 300; q++) {
            nb_cell s = {(int32_t)tu_below(rng, g.width), (int32_t)tu_below(rng, g.height)};
            nb_cell t = {(int32_t)tu_below(rng, g.width), (int32_t)tu_below(rng, g.height)};
            if (!nbi_sg_free(&L.grid, s.x, s.y) || (s.x == t.x && s.y == t.y))
                continue;
            double h = nbi_octile_cells(s.x, s.y, t.x, t.y);
            double bound = h + (double)tu_below(rng, 4000) / 100.0;
            whole.n = within.n = 0;
            nbi_sg_scan(&L.grid, s.x, s.y, t.x, t.y, collect, &whole);
            nbi_sg_scan_within(&L.grid, s.x, s.y, t.x, t.y, bound, collect, &within);
            pairs++;
            for (size_t i = 0; i < whole.n; i++) {
                const struct hit *w = &whole.h[i];
                if (sum_of(t, w) > bound) {
                    cut++;
                    continue;
                }
                size_t j = 0;
                while (j < within.n && (within.h[j].x != w->x || within.h[j].y != w->y))
                    j++;
                if (j == within.n) {
                    if (missing++ < 4)
                        diag("map %d, %d,%d -> %d,%d within %.3f: %d,%d (sum %.3f) missing", map,
                             s.x, s.y, t.x, t.y, bound, w->x, w->y, sum_of(t, w));
                } else if (within.h[j].card != w->card || within.h[j].diag != w->diag) {
                    wrong_steps++;
                }
            }
            for (size_t j = 0; j < within.n; j++) {
                const struct hit *w = &within.h[j];
                uint32_t ax = (uint32_t)abs(w->x - s.x), ay = (uint32_t)abs(w->y - s.y);
                uint32_t d = ax < ay ? ax : ay, c = (ax > ay ? ax : ay) - d;
                nb_cell a = s, b = {w->x, w->y};
                static nb_cell walk[4096];
                if (w->card != c || w->diag != d || !nbi_sg_walk(&L.grid, a, b, walk))
                    wrong_steps++;
                if (sum_of(t, w) > bound + 1e-6)
                    outside++;
                size_t i = 0;
                while (i < whole.n && (whole.h[i].x != w->x || whole.h[i].y != w->y))
                    i++;
                extra += i == whole.n;
            }
        }
        nb_bundle_close(nb);
        nbb_grid_free(&g);
    }
    ok(pairs > 1000 && cut > 0 && missing == 0 && wrong_steps == 0 && outside == 0 && extra == 0,
       "bounded scans of %ld pairs on 6 random maps: the whole scan's subgoals within the bound "
       "and no others, with their steps (%ld missing, %ld wrong steps, %ld outside, %ld not the "
       "whole scan's), %ld cut", pairs, missing, wrong_steps, outside, extra, cut);
}

/* ---- real maps ---- */

static int bake_open(const nbb_grid *g, const char *name, nb_bundle **nb, nb_aa **aa, nb_sg **sg)
{
    static nbi_agentset agents;
    one_agent(&agents);
    nb_err err;
    const char *path = tu_path(tu_tmpdir(), "sgb-real.nbk");
    if (ok(tu_bake_optimal(path, &legend, &agents, g, NBB_CORNERS_STRICT, &err) == NB_OK &&
               nb_bundle_open(path, 0, NULL, nb, &err) == NB_OK &&
               nb_aa_open(*nb, aa, &err) == NB_OK && tu_sg_open(*nb, 0, sg, &err) == NB_OK,
           "%s: layer baked and opened", name))
        return 1;
    diag("%s", err.msg);
    return 0;
}

/* 1 when path p runs from q's start to its goal by single legal moves (free cells, no corner
 * cut) and is as long as length. */
static int legal(const nbb_grid *g, const nb_sg_query *q, const nb_cell *p, size_t n,
                 double length)
{
    if (n < 1 || p[0].x != q->start.x || p[0].y != q->start.y || p[n - 1].x != q->goal.x ||
        p[n - 1].y != q->goal.y)
        return 0;
    double len = 0;
    for (size_t i = 0; i < n; i++) {
        if (!passable(g, p[i].x, p[i].y))
            return 0;
        if (i == 0)
            continue;
        int dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
        if (abs(dx) > 1 || abs(dy) > 1 || (dx == 0 && dy == 0))
            return 0;
        if (dx && dy &&
            (!passable(g, p[i].x, p[i - 1].y) || !passable(g, p[i - 1].x, p[i].y)))
            return 0;
        len += dx && dy ? NBI_SQRT2 : 1.0;
    }
    return fabs(len - length) < 1e-6;
}

/* want_retries: the map has lines whose paths are longer than their bound. */
static void scenario_lines(const char *rel, int shorts, int want_retries, tu_rng *rng)
{
    nbb_grid g;
    nbb_scen scen;
    nb_err err;
    nb_status st = tu_scen_level(rel, &legend, &g, &scen, &err);
    if (st == NB_ERR_NOTFOUND) {
        skip(shorts ? 2 : 1, "../shared/%s is absent (set NB_SHARED)", rel);
        return;
    }
    if (!ok(st == NB_OK, "%s: read", rel)) {
        diag("%s", err.msg);
        return;
    }
    nb_bundle *nb = NULL;
    nb_aa *aa = NULL;
    nb_sg *sg = NULL;
    if (!bake_open(&g, rel, &nb, &aa, &sg))
        goto out;
    long bad = 0, retried = 0;
    for (size_t i = 0; i < scen.count; i++) {
        const nbb_scen_line *l = &scen.lines[i];
        nb_sg_query q;
        nb_sg_query_init(&q);
        q.capability = 3;
        q.start = l->start;
        q.goal = l->goal;
        nb_sg_result r;
        /* A unit of the file's last decimal (some lines give four), 1e-5 at least. */
        double tol = fmax(1e-5, pow(10, -(double)l->decimals));
        if (nb_sg_find(sg, &q, &r, &err) != NB_OK || r.status != NB_PATH_FOUND ||
            fabs(r.length - l->optimal) > tol) {
            if (bad++ < 4)
                diag("%s line %u: %s %.6f, the file says %.6f", rel, l->line,
                     nb_path_status_str(r.status), r.length, l->optimal);
            continue;
        }
        retried += nbi_sg_retried(sg);
    }
    ok(bad == 0 && (retried > 0 || !want_retries),
       "%s: every one of %zu scenario lines at the file's length (%ld differ); %ld searched "
       "again without the bound", rel, scen.count, bad, retried);
    if (shorts) {
        /* Short paths between random free cells in one component. */
        long runs = 0, wrong = 0;
        for (int k = 0; k < 200000 && runs < 1500; k++) {
            nb_sg_query q;
            nb_sg_query_init(&q);
            q.capability = 3;
            q.start.x = (int32_t)tu_below(rng, g.width);
            q.start.y = (int32_t)tu_below(rng, g.height);
            q.goal.x = q.start.x + (int32_t)tu_below(rng, 91) - 45;
            q.goal.y = q.start.y + (int32_t)tu_below(rng, 91) - 45;
            if (q.goal.x < 0 || q.goal.y < 0 || (uint32_t)q.goal.x >= g.width ||
                (uint32_t)q.goal.y >= g.height ||
                nbi_octile_cells(q.start.x, q.start.y, q.goal.x, q.goal.y) >= 64 ||
                !passable(&g, q.start.x, q.start.y) || !passable(&g, q.goal.x, q.goal.y))
                continue;
            nb_aa_query aq;
            nb_aa_query_init(&aq);
            aq.capability = 3;
            aq.start = q.start;
            aq.goal = q.goal;
            nb_aa_result ar;
            nb_sg_result r;
            runs++;
            if (nb_aa_find(aa, &aq, &ar, &err) != NB_OK || nb_sg_find(sg, &q, &r, &err) != NB_OK ||
                ar.status != r.status ||
                (r.status == NB_PATH_FOUND &&
                 (fabs(ar.length - r.length) > 1e-9 || !legal(&g, &q, r.path, r.path_len, r.length)))) {
                if (wrong++ < 4)
                    diag("%s: %d,%d -> %d,%d: AA* %s %.6f, layer %s %.6f", rel, q.start.x,
                         q.start.y, q.goal.x, q.goal.y, nb_path_status_str(ar.status), ar.length,
                         nb_path_status_str(r.status), r.length);
            }
        }
        ok(runs >= 1500 && wrong == 0,
           "%s: %ld short paths (octile distance under 64): Annotated A*'s status and length, "
           "legal paths (%ld wrong)", rel, runs, wrong);
    }
out:
    nb_sg_close(sg);
    nb_aa_close(aa);
    nb_bundle_close(nb);
    nbb_scen_free(&scen);
    nbb_grid_free(&g);
}

/* A wall across a room with its one gap at the far end: the path from one side to the other
 * beside the wall's near end is far longer than the bound, so the first try finds nothing. */
static void test_detour(void)
{
    nbb_grid g;
    const uint32_t w = 120, h = 40;
    memset(&g, 0, sizeof g);
    g.width = w;
    g.height = h;
    g.cells = calloc((size_t)w * h, 1);
    if (!g.cells)
        exit(99);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            g.cells[(size_t)y * w + x] = (y == 20 && x < w - 3) ? '@' : '.';
    nb_bundle *nb = NULL;
    nb_aa *aa = NULL;
    nb_sg *sg = NULL;
    if (!bake_open(&g, "the wall", &nb, &aa, &sg)) {
        free(g.cells);
        return;
    }
    nb_sg_query q;
    nb_sg_query_init(&q);
    q.capability = 3;
    q.start.x = 4;
    q.start.y = 15;
    q.goal.x = 6;
    q.goal.y = 26;
    nb_aa_query aq;
    nb_aa_query_init(&aq);
    aq.capability = 3;
    aq.start = q.start;
    aq.goal = q.goal;
    nb_aa_result ar;
    nb_sg_result r;
    nb_err err;
    int found = nb_aa_find(aa, &aq, &ar, &err) == NB_OK && nb_sg_find(sg, &q, &r, &err) == NB_OK &&
                ar.status == NB_PATH_FOUND && r.status == NB_PATH_FOUND;
    ok(found && fabs(ar.length - r.length) < 1e-9 && nbi_sg_retried(sg) &&
           legal(&g, &q, r.path, r.path_len, r.length),
       "a detour of %.3f past a wall (octile distance %.3f): Annotated A*'s length %.3f, "
       "searched again without the bound", found ? r.length : -1.0,
       nbi_octile_cells(q.start.x, q.start.y, q.goal.x, q.goal.y), found ? ar.length : -1.0);
    /* The same query sliced, a node at a time: find's path through the retry. */
    size_t n = found ? r.path_len : 0;
    nb_cell *copy = n ? malloc(n * sizeof *copy) : NULL;
    if (copy)
        memcpy(copy, r.path, n * sizeof *copy);
    int d = 0, steps = 0, same = 0;
    if (copy && nb_sg_begin(sg, &q, &err) == NB_OK) {
        while (!d && steps < 100000 && nb_sg_step(sg, 1, &d, &err) == NB_OK)
            steps++;
        same = d && nb_sg_finish(sg, &r, &err) == NB_OK && r.status == NB_PATH_FOUND &&
               tu_same_cells(copy, n, r.path, r.path_len);
    }
    ok(same, "... sliced a node at a time (%d steps): find's path", steps);
    free(copy);
    nb_sg_close(sg);
    nb_aa_close(aa);
    nb_bundle_close(nb);
    free(g.cells);
}

int main(void)
{
    tu_rng rng = {0xb0a7d5};
    nbi_legend_default(&legend);
    test_scan(&rng);
    test_detour();
    scenario_lines("maps/street/Paris_0_512.map", 1, 1, &rng);
    scenario_lines("maps/bg/AR0042SR.map", 1, 0, &rng);
    scenario_lines("maps/dao/brc202d.map", 0, 1, &rng);
    scenario_lines("maps/sc1/AcrosstheCape.map", 0, 0, &rng);
    scenario_lines("maps/mazes/maze512-4-0.map", 0, 0, &rng);
    scenario_lines("maps/rooms/8room_000.map", 0, 0, &rng);
    return done_testing();
}
