/* test_anchor.c: a game's centre positions and the grid's anchor cells
 * (nb_anchor_of_centre, nb_centre_of_anchor, nb_frame).
 *
 * Against the definition, by brute force: the anchor of a centre is the
 * cell whose size x size square has its centre nearest the point, on each
 * axis (a tie, a point half way between two squares' centres, goes to the
 * larger coordinate in cells); the centre of an anchor is its square's
 * middle.  Points in cells and in world frames of other origins, cell
 * sides and senses of y, random and on every tie. */
#include <math.h>

#include "testutil.h"

/* The anchor on one axis from its definition: the k whose square's middle
 * k + s/2 is nearest v, ties to the larger k, searched among the integers
 * near v. */
static int32_t brute_axis(double v, unsigned s)
{
    double half = s / 2.0;
    int32_t best = 0;
    double bd = INFINITY;
    for (int32_t k = (int32_t)floor(v) - (int32_t)s - 2; k <= (int32_t)floor(v) + 2; k++) {
        double d = fabs(k + half - v);
        if (d < bd || (d == bd && k > best)) {
            bd = d;
            best = k;
        }
    }
    return best;
}

/* World to cells as the frame says, written out for the test. */
static nb_vec2 cells_of(const nb_frame *f, nb_vec2 w)
{
    nb_vec2 c = {(w.x - f->origin_x) / f->cell,
                 f->y_up ? (f->origin_y - w.y) / f->cell : (w.y - f->origin_y) / f->cell};
    return c;
}

int main(void)
{
    tu_rng r = {11};
    nb_frame grid, world;
    nb_frame_init(&grid);
    ok(grid.origin_x == 0 && grid.origin_y == 0 && grid.cell == 1 && grid.y_up == 0,
       "nb_frame_init: the grid's own frame");
    world.origin_x = -250;
    world.origin_y = 120;
    world.cell = 0.5;
    world.y_up = 1;
    const nb_frame *frames[3] = {NULL, &grid, &world};
    long bad = 0, trips = 0, ties = 0;
    for (int fi = 0; fi < 3; fi++)
        for (int i = 0; i < 20000; i++) {
            const nb_frame *f = frames[fi];
            unsigned s = 1 + tu_below(&r, 6);
            nb_vec2 c = {tu_below(&r, 4000) / 16.0, tu_below(&r, 4000) / 16.0};
            if (i % 4 == 0) { /* exactly on a tie: half way between two squares' centres */
                c.x = tu_below(&r, 200) + (s % 2 ? 0 : 0.5);
                c.y = tu_below(&r, 200) + (s % 2 ? 0 : 0.5);
                ties++;
            }
            nb_vec2 w = c;
            if (f == &world) /* the same point in the world's units */
                w = (nb_vec2){world.origin_x + c.x * world.cell, world.origin_y - c.y * world.cell};
            nb_vec2 back = cells_of(f ? f : &grid, w);
            nb_cell a = nb_anchor_of_centre(f, w, s);
            if (a.x != brute_axis(back.x, s) || a.y != brute_axis(back.y, s)) {
                if (bad++ < 5)
                    diag("frame %d size %u centre (%g, %g): anchor (%d, %d), by definition "
                         "(%d, %d)", fi, s, w.x, w.y, a.x, a.y, brute_axis(back.x, s),
                         brute_axis(back.y, s));
            }
            nb_vec2 m = nb_centre_of_anchor(f, a, s);
            nb_cell again = nb_anchor_of_centre(f, m, s);
            nb_vec2 mc = cells_of(f ? f : &grid, m);
            trips += again.x == a.x && again.y == a.y &&
                     fabs(mc.x - (a.x + s / 2.0)) < 1e-9 && fabs(mc.y - (a.y + s / 2.0)) < 1e-9;
        }
    is_int(bad, 0, "the anchor of 60000 centres (%ld on ties) is the definition's", ties);
    is_int(trips, 60000, "the centre of an anchor is its square's middle, and its anchor again");
    nb_cell a = nb_anchor_of_centre(NULL, (nb_vec2){10.0, 7.0}, 2);
    ok(a.x == 9 && a.y == 6, "a 2 x 2 agent centred on the corner (10, 7) stands at (9, 6)");
    nb_vec2 m = nb_centre_of_anchor(&world, (nb_cell){0, 0}, 1);
    ok(m.x == -249.75 && m.y == 119.75,
       "in the world frame (origin (-250, 120), cells of 0.5, y up) cell (0, 0)'s centre is "
       "(-249.75, 119.75)");
    a = nb_anchor_of_centre(NULL, (nb_vec2){NAN, 1e300}, 1);
    ok(a.x == INT32_MIN && a.y == INT32_MAX, "NaN and huge centres give anchors far off the map");
    a = nb_anchor_of_centre(NULL, (nb_vec2){3.2, 3.2}, 0);
    ok(a.x == 3 && a.y == 3, "size 0 counts as 1");
    return done_testing();
}
