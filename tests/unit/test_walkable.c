/* test_walkable.c: a caller's numbers in the unit planner and the forest
 * search.  nb_planner_walkable says no to a segment that leaves the map,
 * however far (1e19, once converted to a cell, overflowed a long and went
 * through walls), and to one with a number that is not finite; each
 * answer comes at once, and without undefined behaviour (make
 * check-sanitize runs this under UBSan).  Queries with huge headings and
 * far points are answered or refused, never converted out of range. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "unitmap.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void not_walkable(const nb_planner *p, nb_segment s, const char *what)
{
    double t0 = now();
    int w = nb_planner_walkable(p, &s, 1);
    double dt = now() - t0;
    ok(w == 0, "%s: not walkable", what);
    ok(dt < 2.0, "%s: answered at once (%.3f s)", what, dt);
}

static void planner_cases(void)
{
    /* A room with a wall down its middle (x = 5). */
    static const char *const rows[] = {
        "@@@@@@@@@@", "@...@....@", "@...@....@", "@...@....@", "@@@@@@@@@@", NULL,
    };
    const char *path = tu_path(tu_tmpdir(), "room.nbk");
    nb_unit u = {"jeep", 1.5, 1.0, 8, 8, 1, 2.0, 0};
    nb_bundle *b = NULL;
    nb_planner *p = NULL;
    nb_err err;
    if (!um_bundle(path, rows, &u) || nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK ||
        nb_planner_open(b, "jeep", &p, &err) != NB_OK) {
        ok(0, "a planner on the room: %s", err.msg);
        nb_bundle_close(b);
        return;
    }
    nb_segment inside = nb_segment_line(1.5, 2.5, 2.5, 2.5);
    ok(nb_planner_walkable(p, &inside, 1) == 1, "a segment in the room's free cells is walkable");
    nb_segment across = nb_segment_line(2.5, 2.5, 6.5, 2.5);
    ok(nb_planner_walkable(p, &across, 1) == 0, "one through the wall is not");

    not_walkable(p, nb_segment_line(1.5, 2.5, 1e19, 2.5), "a line to (1e19, 2.5), through the wall");
    not_walkable(p, nb_segment_line(1.5, 2.5, -1e19, 2.5), "a line to (-1e19, 2.5)");
    not_walkable(p, nb_segment_line(1.5, 2.5, 1.5, INFINITY), "a line to (1.5, inf)");
    not_walkable(p, nb_segment_line(1.5, 2.5, NAN, 2.5), "a line to (NaN, 2.5)");
    not_walkable(p, nb_segment_line(1.5, 2.5, 1e6, 1e6), "a line to (1e6, 1e6), far off the map");
    not_walkable(p, nb_segment_line(1.5, 2.5, DBL_MAX, -DBL_MAX), "a line to (DBL_MAX, -DBL_MAX)");
    not_walkable(p, nb_segment_line(2.5, 2.5, 2.5, 22.5), "a line leaving the room downwards");
    {
        nb_segment s = inside;
        s.heading = NAN;
        not_walkable(p, s, "a line with a NaN heading");
        s = inside;
        s.length = INFINITY;
        not_walkable(p, s, "a line of infinite length");
        s = inside;
        s.length = 1e300;
        not_walkable(p, s, "a line of length 1e300");
    }
    not_walkable(p, nb_segment_arc(2.5, 2.5, 1e300, 0, 1), "an arc of radius 1e300");
    not_walkable(p, nb_segment_arc(1e19, 2.5, 1, 0, 1), "an arc centred at x = 1e19");
    not_walkable(p, nb_segment_arc(2.5, 2.5, 1, 0, INFINITY), "an arc of infinite sweep");
    not_walkable(p, nb_segment_arc(2.5, 2.5, NAN, 0, 1), "an arc of NaN radius");
    {
        nb_segment two[2] = {inside, nb_segment_line(2.5, 2.5, 2.5, -1e19)};
        ok(nb_planner_walkable(p, two, 2) == 0, "a path whose second segment leaves: not walkable");
    }
    ok(nb_planner_blocked(p, 1L << 40, 2) == 1 && nb_planner_blocked(p, -(1L << 40), 2) == 1,
       "cells far outside the map are blocked");

    /* A huge but finite start heading, by every method: answered. */
    for (unsigned m = NB_PLAN_DIRECTIONAL; m <= NB_PLAN_LINES; m++) {
        nb_planner_query q;
        nb_planner_query_init(&q);
        q.start = (nb_pose){1.5, 2.5, 1e300};
        q.goal.x = 3;
        q.goal.y = 1;
        q.method = m;
        nb_planner_result r;
        nb_status st = nb_planner_find(p, &q, &r, &err);
        ok(st == NB_OK, "method %u, a start heading of 1e300: answered (%s)", m,
           st == NB_OK ? nb_path_status_str(r.status) : err.msg);
    }
    nb_planner_close(p);
    nb_bundle_close(b);
}

static void forest_cases(void)
{
    nb_circle c[2] = {{0, 0, 1}, {5, 0, 1}};
    nb_forest *f = NULL;
    nb_forest_ws *ws = NULL;
    nb_err err;
    if (nb_forest_open_circles(c, 2, NULL, NULL, &f, &err) != NB_OK ||
        nb_forest_ws_open(f, &ws, &err) != NB_OK) {
        ok(0, "a forest: %s", err.msg);
        nb_forest_close(f);
        return;
    }
    static const nb_vec2 far[] = {{-1e308, 0}, {1e308, 0}, {DBL_MAX, DBL_MAX}, {2e9, 0}};
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
        nb_forest_result r;
        nb_status st = tu_forest_find(f, 0, far[i], (nb_vec2){2.5, 0}, NB_FOREST_DEFERRED, ws, &r,
                                      &err);
        ok(st == NB_ERR_OUTSIDE && strstr(err.msg, "beyond 1e+09"),
           "forest: a start at (%g, %g) is refused (%s)", far[i].x, far[i].y,
           st ? err.msg : "accepted");
    }
    nb_forest_result r;
    nb_status st = tu_forest_find(f, 0, (nb_vec2){-1e9, 0}, (nb_vec2){1e9, 0}, NB_FOREST_DEFERRED,
                                  ws, &r, &err);
    ok(st == NB_OK && r.status == NB_PATH_FOUND, "forest: from -1e9 to 1e9, a path");
    nb_forest_ws_close(ws);
    nb_forest_close(f);
}

int main(void)
{
    planner_cases();
    forest_cases();
    return done_testing();
}
