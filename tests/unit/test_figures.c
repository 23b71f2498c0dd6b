/* test_figures.c: hand-made maps after Pinter's Figures 8, 12 and 19,
 * where his article says only a directional search finds the way
 * (tests/data/pinter-fig*.map).
 *
 *  Figure 8: the grid path turns where the unit cannot (pre-smoothing,
 *    which may only stop on that path, fails); Directional A* finds a
 *    path, making a right-hand loop where the left turn is impossible.
 *  Figure 12: Directional-8 finds nothing; Directional-24 finds the curve
 *    that skips the intermediate cells (and agrees with an independent
 *    Dijkstra, which finds nothing for 8 neighbours either).
 *  Figure 19: pre-smoothing and the hybrid (whose Directional-8 step stays
 *    near the failure) fail; Directional A* finds the only legal way, a
 *    completely different route that never enters the door the grid path
 *    takes.
 * Every path found is checked free by sampling every 1/20 of a cell. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "unitmap.h"

static nb_bundle *bake(const char *map, const nb_unit *u)
{
    nbi_legend legend;
    nbb_grid g;
    nb_err err;
    nb_bundle *b = NULL;
    nbi_legend_default(&legend);
    const char *path = tu_path(tu_tmpdir(), map);
    if (nbb_map_read(tu_src(tu_path("tests/data", map)), &legend, 1, &g, &err) != NB_OK) {
        diag("%s", err.msg);
        return NULL;
    }
    int ok = um_bundle_grid(path, &g, u);
    nbb_grid_free(&g);
    if (ok && nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK)
        diag("%s", err.msg);
    return b;
}

/* The heading change along a path, signed: right turns count positive. */
static double net_turn(const nb_planner_result *r)
{
    double t = 0;
    for (size_t i = 0; i < r->segment_len; i++)
        if (r->segments[i].kind == NB_SEG_ARC)
            t += r->segments[i].turn * r->segments[i].length / r->segments[i].radius;
    return t;
}

int main(void)
{
    nb_err err;
    char why[256];

    /* Figure 8. */
    {
        nb_unit u = {"ship", 2.0, 1.0, 8, 24, 0, 1, 0};
        nb_bundle *b = bake("pinter-fig8.map", &u);
        nb_planner *p;
        if (ok(b && nb_planner_open(b, "ship", &p, &err) == NB_OK, "Figure 8: map and unit (radius 2, width 1)")) {
            nb_pose s = {9.5, 11.5, 3 * M_PI / 2}; /* facing north */
            nb_planner_result r = um_plan(p, &s, 1, 6, -1, NB_PLAN_PRESMOOTH, 0, 0);
            ok(!(r.status == NB_PATH_FOUND), "  the grid path cannot be driven: pre-smoothing along it fails");
            r = um_plan(p, &s, 1, 6, -1, NB_PLAN_DIRECTIONAL, 24, 0);
            ok((r.status == NB_PATH_FOUND), "  Directional-24 finds a path (%.2f cells)", r.length);
            ok((r.status == NB_PATH_FOUND) && um_path_free(b, &u, &r, &s, 1, 6, why, sizeof why), "  which is free");
            double t = net_turn(&r);
            ok(fabs(t - 3 * M_PI / 2) < 1e-6,
               "  turning right through 270 degrees, a loop, instead of left through 90 (%g degrees)",
               t * 180 / M_PI);
            nb_planner_close(p);
        }
        nb_bundle_close(b);
    }

    /* Figure 12. */
    {
        nb_unit u = {"ship", 1.2, 0.6, 8, 24, 0, 1, 0};
        nb_bundle *b = bake("pinter-fig12.map", &u);
        nb_planner *p;
        if (ok(b && nb_planner_open(b, "ship", &p, &err) == NB_OK, "Figure 12: map and unit (radius 1.2, width 0.6)")) {
            nb_pose s = {1.5, 1.5, 0};
            nb_planner_result r = um_plan(p, &s, 12, 2, -1, NB_PLAN_DIRECTIONAL, 8, 0);
            ok(!(r.status == NB_PATH_FOUND), "  Directional-8 finds no path (%s)", (r.status == NB_PATH_FOUND) ? "found one" : r.reason);
            ok(isinf(um_dijkstra(b, &u, &s, 12, 2, -1, 8, 0, 0)),
               "  nor does an independent Dijkstra over 8 neighbours");
            r = um_plan(p, &s, 12, 2, -1, NB_PLAN_DIRECTIONAL, 24, 0);
            ok((r.status == NB_PATH_FOUND), "  Directional-24 finds one (%.3f cells)", r.length);
            ok((r.status == NB_PATH_FOUND) && um_path_free(b, &u, &r, &s, 12, 2, why, sizeof why), "  which is free");
            double want = um_dijkstra(b, &u, &s, 12, 2, -1, 24, 0, 0);
            ok((r.status == NB_PATH_FOUND) && fabs(r.cost - want) < 1e-6, "  and as short as the independent Dijkstra's (%g)", want);
            int hop = 0;
            for (size_t i = 0; i + 1 < r.waypoint_len; i++) {
                long dx = labs((long)floor(r.waypoints[i + 1].x) - (long)floor(r.waypoints[i].x));
                long dy = labs((long)floor(r.waypoints[i + 1].y) - (long)floor(r.waypoints[i].y));
                hop |= dx == 2 && dy == 1;
            }
            ok(hop, "  through the jog in one curve two cells long and one across");
            nb_planner_close(p);
        }
        nb_bundle_close(b);
    }

    /* Figure 19. */
    {
        nb_unit u = {"ship", 2.0, 1.0, 8, 24, 0, 1, 0};
        nb_bundle *b = bake("pinter-fig19.map", &u);
        nb_planner *p;
        if (ok(b && nb_planner_open(b, "ship", &p, &err) == NB_OK, "Figure 19: map and unit (radius 2, width 1)")) {
            nb_pose s = {2.5, 9.5, 0};
            nb_planner_result r = um_plan(p, &s, 10, 2, -1, NB_PLAN_LINES, 0, 0);
            ok((r.status == NB_PATH_FOUND) && r.length < 16, "  the grid path goes through the door (%.0f cells)", r.length);
            r = um_plan(p, &s, 10, 2, -1, NB_PLAN_PRESMOOTH, 0, 0);
            ok(!(r.status == NB_PATH_FOUND), "  pre-smoothing cannot follow it");
            r = um_plan(p, &s, 10, 2, -1, NB_PLAN_HYBRID, 0, 0);
            ok(!(r.status == NB_PATH_FOUND) && r.fallback, "  nor can the hybrid: its Directional-8 step finds nothing near "
                                       "the failure points");
            r = um_plan(p, &s, 10, 2, -1, NB_PLAN_DIRECTIONAL, 24, 0);
            ok((r.status == NB_PATH_FOUND), "  Directional-24 finds the way (%.2f cells)", r.length);
            ok((r.status == NB_PATH_FOUND) && um_path_free(b, &u, &r, &s, 10, 2, why, sizeof why), "  which is free");
            int door = 0, east = 0;
            double len = nb_segments_length(r.segments, r.segment_len);
            for (double d = 0; d <= len; d += 0.05) {
                nb_pose q;
                nb_segments_sample(r.segments, r.segment_len, d, &q);
                door |= floor(q.x) == 10 && q.y >= 6 && q.y < 9;
                east |= q.x >= 23;
            }
            ok((r.status == NB_PATH_FOUND) && !door && east, "  by a completely different route: round the east end of "
                                         "the wall, never through the door");
            nb_planner_close(p);
        }
        nb_bundle_close(b);
    }
    return done_testing();
}
