/* test_directional.c: Directional A* and the smoothing methods
 * (lib/runtime/turning/directional.c, lib/runtime/turning/smooth.c, lib/runtime/turning/hybrid.c).
 *
 * On random maps, the cost Directional A* finds with the tables equals the
 * least cost of an independent Dijkstra over the same (cell, heading)
 * graph whose curves are swept by sampling (tests/support/unitmap.c), and equals
 * the cost found computing every curve on the fly; every path found, by
 * any method, is checked free by sampling it every 1/20 of a cell. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "turning/planner.h"
#include "unitmap.h"

static double urand(tu_rng *r) { return (double)(tu_rand(r) >> 11) / 9007199254740992.0; }

/* Random maps: tables against the independent Dijkstra and against the
 * same search on the fly. */
static void against_dijkstra(tu_rng *rng, const nb_unit *u, unsigned nmaps, unsigned queries,
                             unsigned flags, long side)
{
    int all = (flags & NBB_UNIT_ALL_CURVES) != 0;
    const char *path = tu_path(tu_tmpdir(), "random.nbk");
    long W = side, H = side;
    int agree = 0, found = 0, fly = 0, frees = 0, total = 0, offstart = 0, offagree = 0;
    for (unsigned m = 0; m < nmaps; m++) {
        nbb_grid g;
        tu_random_grid(rng, (uint32_t)W, (uint32_t)H, side > 14 ? 3 : 7, 1, &g);
        um_bundle_grid_with(path, &g, u, flags);
        nbb_grid_free(&g);
        nb_bundle *b;
        nb_planner *p;
        nb_err err;
        if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK || nb_planner_open(b, u->name, &p, &err) != NB_OK) {
            diag("%s", err.msg);
            continue;
        }
        for (unsigned k = 0; k < queries; k++) {
            long sx, sy, gx, gy;
            um_free_cell(rng, p, W, H, &sx, &sy);
            um_free_cell(rng, p, W, H, &gx, &gy);
            nb_pose s = {sx + 0.5, sy + 0.5, tu_below(rng, u->headings) * 2 * M_PI / u->headings};
            int off = k % 3 == 2;
            if (off) {
                /* Anywhere in the cell, facing any way, where its disc
                 * touches nothing blocked. */
                s.x = sx + 0.2 + 0.6 * urand(rng);
                s.y = sy + 0.2 + 0.6 * urand(rng);
                s.heading = 2 * M_PI * urand(rng);
                nb_segment dot = nb_segment_line(s.x, s.y, s.x, s.y);
                if (!nb_planner_walkable(p, &dot, 1))
                    continue;
                offstart++;
            }
            unsigned nb = k % 2 || u->reverse ? 8 : 24;
            int rev = u->reverse;
            nb_planner_result r = um_plan(p, &s, gx, gy, -1, NB_PLAN_DIRECTIONAL, nb, 0);
            double cost = (r.status == NB_PATH_FOUND) ? r.cost : INFINITY;
            uint64_t exp = r.expanded;
            char why[256];
            total++;
            if ((r.status == NB_PATH_FOUND)) {
                found++;
                if (um_path_free(b, u, &r, &s, gx, gy, why, sizeof why))
                    frees++;
                else
                    diag("(%g,%g,%g) to (%ld,%ld) D-%u: %s", s.x, s.y, s.heading, gx, gy, nb, why);
            } else {
                frees++;
            }
            double want = um_dijkstra(b, u, &s, gx, gy, -1, nb, rev, all);
            if ((isinf(want) && !(r.status == NB_PATH_FOUND)) || fabs(want - cost) < 1e-6) {
                agree++;
                offagree += off;
            } else {
                diag("(%g,%g,%g) to (%ld,%ld) D-%u: A* %g, Dijkstra %g", s.x, s.y, s.heading, gx,
                     gy, nb, cost, want);
                if (getenv("UM_KEEP"))
                    tu_system("cp %s %s.%d", path, getenv("UM_KEEP"), total);
            }
            nb_planner_result f = um_plan(p, &s, gx, gy, -1, NB_PLAN_DIRECTIONAL, nb, NB_PLAN_ONTHEFLY);
            if ((f.status == NB_PATH_FOUND) == (r.status == NB_PATH_FOUND) && (!(r.status == NB_PATH_FOUND) || (f.cost == cost && f.expanded == exp)))
                fly++;
        }
        nb_planner_close(p);
        nb_bundle_close(b);
    }
    is_int(agree, total, "r %g w %g%s, %s: Directional A* with the tables finds the least cost of "
                         "an independent Dijkstra (%d queries, %d found, %d from off-grid starts)",
           u->radius, u->width, u->reverse ? " reversing" : "",
           all ? "every candidate" : "shortest curves", total, found, offstart);
    is_int(fly, total, "  the same cost and the same node count computing the curves on the fly");
    is_int(frees, total, "  every path is free, sampled every 1/20 of a cell");
}

/* Windows past 32 cells keep the curves' cells as lists instead of bit
 * masks: on a random map, both find the same first free curve of every
 * entry from every cell (the lists forced for a unit whose window is
 * small). */
static void masks_and_lists(tu_rng *rng)
{
    const char *path = tu_path(tu_tmpdir(), "lists.nbk");
    nb_unit u = {"l", 2.0, 1.0, 8, 24, 0, 1, 0};
    nbb_grid g;
    tu_random_grid(rng, 30, 30, 15, 1, &g);
    um_bundle_grid_with(path, &g, &u, NBB_UNIT_ALL_CURVES);
    nbb_grid_free(&g);
    nb_bundle *b;
    nb_planner *p;
    nb_err err;
    if (!ok(nb_bundle_open(path, 0, NULL, &b, &err) == NB_OK && nb_planner_open(b, "l", &p, &err) == NB_OK,
            "a planner to compare masks and lists"))
        return;
    nbi_edges masks = p->edges, lists;
    long same = 0, total = 0, free_ = 0;
    if (ok(nbi_edges_init(&lists, &p->hc, NULL, 0, &err) == NB_OK && !lists.masks && masks.masks,
           "the table decoded as cell lists too")) {
        for (long y = 0; y < 30; y++)
            for (long x = 0; x < 30; x++) {
                static double len[2][8 * 24 * 8];
                static unsigned code[2][8 * 24 * 8];
                static int found[2][8 * 24 * 8];
                for (int k = 0; k < 2; k++) {
                    p->edges = k ? lists : masks;
                    nbi_window_read(p, x, y);
                    for (unsigned e = 0; e < 8 * 24 * 8; e++)
                        found[k][e] = nbi_edge_win(p, e / 192, e / 8 % 24, e % 8, 0, &len[k][e], &code[k][e]);
                }
                for (unsigned e = 0; e < 8 * 24 * 8; e++) {
                    total++;
                    free_ += found[0][e];
                    same += found[0][e] == found[1][e] &&
                            (!found[0][e] || (len[0][e] == len[1][e] && code[0][e] == code[1][e]));
                }
            }
        p->edges = masks;
        nbi_edges_free(&lists, NULL);
    }
    is_int(same, total, "bit masks and cell lists agree on every entry from every cell (%ld of %ld "
                        "free)", free_, total);
    nb_planner_close(p);
    nb_bundle_close(b);
}

int main(void)
{
    tu_rng rng = {0xd1e5e1ULL};
    nb_err err;

    nb_unit jeep = {"jeep", 1.5, 1.0, 8, 24, 0, 1, 0};
    nb_unit wide = {"wide", 1.0, 1.6, 8, 24, 0, 1, 0};
    nb_unit back = {"back", 2.0, 0.8, 8, 24, 1, 1.5, 0};
    against_dijkstra(&rng, &jeep, 4, 6, 0, 14);
    against_dijkstra(&rng, &jeep, 2, 6, NBB_UNIT_ALL_CURVES, 14);
    against_dijkstra(&rng, &wide, 3, 4, 0, 14);
    against_dijkstra(&rng, &back, 2, 3, 0, 14);
    against_dijkstra(&rng, &back, 1, 3, NBB_UNIT_ALL_CURVES, 14);
    masks_and_lists(&rng);

    /* Reverse: facing into a dead end with the goal behind, the unit backs
     * out; without reverse it cannot turn. */
    {
        static const char *const rows[] = {
            "@@@@@@@@@@@@", "@..........@", "@@@@@@@@@@@@", NULL,
        };
        const char *path = tu_path(tu_tmpdir(), "corridor.nbk");
        nb_unit u = {"car", 2.0, 0.8, 8, 8, 1, 2.0, 0};
        um_bundle(path, rows, &u);
        nb_bundle *b;
        nb_planner *p;
        if (ok(nb_bundle_open(path, 0, NULL, &b, &err) == NB_OK && nb_planner_open(b, "car", &p, &err) == NB_OK,
               "a one-cell corridor")) {
            nb_pose s = {8.5, 1.5, 0}; /* facing east, the goal to the west */
            nb_planner_result r = um_plan(p, &s, 2, 1, -1, NB_PLAN_DIRECTIONAL, 8, 0);
            int reversed = 0;
            for (size_t i = 0; i < r.segment_len; i++)
                reversed += r.segments[i].gear < 0;
            ok((r.status == NB_PATH_FOUND) && reversed > 0, "a unit that may reverse backs down the corridor");
            ok(fabs(r.length - 6) < 1e-9 && fabs(r.cost - 12) < 1e-9,
               "  6 cells driven, costing 12 at the reverse penalty 2 (%g, %g)", r.length, r.cost);
            char why[256];
            ok(um_path_free(b, &u, &r, &s, 2, 1, why, sizeof why), "  and the path is free");
            nb_pose w;
            nb_segments_sample(r.segments, r.segment_len, 3, &w);
            ok(fabs(remainder(w.heading, 2 * M_PI)) < 1e-9, "  facing east all the way (%g)", w.heading);
            r = um_plan(p, &s, 2, 1, -1, NB_PLAN_DIRECTIONAL, 8, NB_PLAN_FORWARD);
            ok(!(r.status == NB_PATH_FOUND) && r.reason, "forward only, there is no path (%s)", r.reason ? r.reason : "");
            nb_planner_close(p);
            nb_bundle_close(b);
        }
    }

    /* Smoothing methods on random maps: every path free, smoothing never
     * longer. */
    {
        const char *path = tu_path(tu_tmpdir(), "smooth.nbk");
        nb_unit u = {"s", 1.0, 0.9, 8, 24, 0, 1, 0};
        int n = 0, freed = 0, shorter = 0, hyb = 0, lines = 0, pres = 0;
        for (int m = 0; m < 4; m++) {
            nbb_grid g;
            tu_random_grid(&rng, 30, 30, 12, 1, &g);
            um_bundle_grid(path, &g, &u);
            nbb_grid_free(&g);
            nb_bundle *b;
            nb_planner *p;
            if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK || nb_planner_open(b, "s", &p, &err) != NB_OK)
                continue;
            for (int k = 0; k < 8; k++) {
                long sx, sy, gx, gy;
                um_free_cell(&rng, p, 30, 30, &sx, &sy);
                um_free_cell(&rng, p, 30, 30, &gx, &gy);
                nb_pose s = {sx + 0.5, sy + 0.5, tu_below(&rng, 8) * M_PI / 4};
                char why[256];
                nb_planner_result d = um_plan(p, &s, gx, gy, -1, NB_PLAN_DIRECTIONAL, 24, 0);
                double dlen = (d.status == NB_PATH_FOUND) ? d.length : 0;
                nb_planner_result sm = um_plan(p, &s, gx, gy, -1, NB_PLAN_DIRECTIONAL, 24, NB_PLAN_SMOOTH);
                n++;
                if ((d.status == NB_PATH_FOUND) != (sm.status == NB_PATH_FOUND) || ((d.status == NB_PATH_FOUND) && sm.length > dlen + 1e-9))
                    diag("smoothing made a path longer: %g -> %g", dlen, sm.length);
                else
                    shorter++;
                if (!(sm.status == NB_PATH_FOUND) || um_path_free(b, &u, &sm, &s, gx, gy, why, sizeof why))
                    freed++;
                else
                    diag("smoothed: %s", why);
                nb_planner_result h = um_plan(p, &s, gx, gy, -1, NB_PLAN_HYBRID, 0, 0);
                if (!(h.status == NB_PATH_FOUND) || um_path_free(b, &u, &h, &s, gx, gy, why, sizeof why))
                    hyb++;
                else
                    diag("hybrid: %s", why);
                nb_planner_result ps = um_plan(p, &s, gx, gy, -1, NB_PLAN_PRESMOOTH, 0, 0);
                if (!(ps.status == NB_PATH_FOUND) || um_path_free(b, &u, &ps, &s, gx, gy, why, sizeof why))
                    pres++;
                else
                    diag("pre-smoothing: %s", why);
                nb_planner_result l = um_plan(p, &s, gx, gy, -1, NB_PLAN_LINES, 0, 0);
                if (!(l.status == NB_PATH_FOUND) || um_path_free(b, &u, &l, &s, gx, gy, why, sizeof why))
                    lines++;
                else
                    diag("lines: %s", why);
            }
            nb_planner_close(p);
            nb_bundle_close(b);
        }
        is_int(shorter, n, "a final smoothing pass never makes a Directional path longer (%d queries)", n);
        is_int(freed, n, "  and its paths are free");
        is_int(hyb, n, "hybrid paths are free");
        is_int(pres, n, "pre-smoothed paths are free");
        is_int(lines, n, "line-smoothed paths are free");
    }
    return done_testing();
}
