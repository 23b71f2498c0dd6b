/* anchor.c: a game's positions and the grid's anchors.  An agent of size s
 * anchored at cell (x, y) covers [x, x + s) x [y, y + s) in cells, so its
 * centre is (x + s/2, y + s/2); the anchor of a centre c is the cell whose
 * square is centred nearest c, floor(c - s/2 + 1/2) on each axis.  A frame
 * maps world units onto cells (an origin, a cell side, the sense of y). */
#include <math.h>

#include "core/base.h"

void nb_frame_init(nb_frame *f)
{
    f->origin_x = f->origin_y = 0;
    f->cell = 1;
    f->y_up = 0;
}

/* World to cells and back; a NULL frame, or one whose cell side is not a
 * positive number, is the grid's own. */
static int usable(const nb_frame *f) { return f && f->cell > 0 && isfinite(f->cell); }

static nb_vec2 to_cells(const nb_frame *f, nb_vec2 w)
{
    if (!usable(f))
        return w;
    nb_vec2 c = {(w.x - f->origin_x) / f->cell,
                 (f->y_up ? f->origin_y - w.y : w.y - f->origin_y) / f->cell};
    return c;
}

static nb_vec2 to_world(const nb_frame *f, nb_vec2 c)
{
    if (!usable(f))
        return c;
    nb_vec2 w = {f->origin_x + c.x * f->cell,
                 f->y_up ? f->origin_y - c.y * f->cell : f->origin_y + c.y * f->cell};
    return w;
}

/* floor(v), clamped to int32_t (NaN to INT32_MIN): an anchor far off the
 * map stays off it. */
static int32_t anchor_axis(double v)
{
    double f = floor(v);
    if (!(f >= (double)INT32_MIN))
        return INT32_MIN;
    return f > (double)INT32_MAX ? INT32_MAX : (int32_t)f;
}

nb_cell nb_anchor_of_centre(const nb_frame *frame, nb_vec2 centre, unsigned size)
{
    double half = (size ? size : 1) / 2.0;
    nb_vec2 c = to_cells(frame, centre);
    nb_cell a = {anchor_axis(c.x - half + 0.5), anchor_axis(c.y - half + 0.5)};
    return a;
}

nb_vec2 nb_centre_of_anchor(const nb_frame *frame, nb_cell anchor, unsigned size)
{
    double half = (size ? size : 1) / 2.0;
    nb_vec2 c = {anchor.x + half, anchor.y + half};
    return to_world(frame, c);
}
