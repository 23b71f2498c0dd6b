/* curvetable.c: the curve heuristic table (formats/hitcheck.md), the
 * length of the shortest curve from a pose to a point by distance and
 * relative bearing, as Directional A* reads it.
 *
 * Pinter's table holds the curve length at sampled distances and angles;
 * here each entry is the least length over its whole bin (rounded down),
 * and beyond the table's distance the far row gives the least excess over
 * the straight distance, so every value read is a lower bound: A* with it
 * still finds the shortest path of its graph. */
#include <math.h>

#include "turning/turning.h"

nb_status nbi_curvetab_view(const uint8_t *p, size_t len, nbi_curvetab *t, nb_err *err)
{
    memset(t, 0, sizeof *t);
    if (len < NBI_CT_HEADER)
        return nbi_fail(err, NB_ERR_FORMAT, "%zu bytes: shorter than its header", len);
    t->distance = nbi_get32(p + NBI_CT_DISTANCE);
    t->steps = nbi_get32(p + NBI_CT_STEPS);
    t->angles = nbi_get32(p + NBI_CT_ANGLES);
    t->cols = nbi_get32(p + NBI_CT_COLS);
    t->radius = nbi_getf64(p + NBI_CT_RADIUS);
    if (t->distance < 1 || t->distance > 256 || t->steps < 1 || t->steps > 1024 ||
        t->angles < 4 || t->angles > 1024 || t->angles % 2 || t->cols != t->angles / 2 + 1)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "distance %u, steps %u, angles %u, columns %u: out of range", t->distance,
                        t->steps, t->angles, t->cols);
    if (!(t->radius > 0))
        return nbi_fail(err, NB_ERR_FORMAT, "radius %g: not positive", t->radius);
    size_t rows = (size_t)t->distance * t->steps;
    size_t need = NBI_CT_HEADER + (rows + 1) * t->cols * 2;
    if (len != need)
        return nbi_fail(err, NB_ERR_FORMAT, "%zu bytes; expected %zu", len, need);
    t->rows = p + NBI_CT_HEADER;
    t->far = t->rows + rows * t->cols * 2;
    for (unsigned c = 0; c < t->cols; c++)
        t->far_max = fmax(t->far_max, nbi_get16(t->far + (size_t)c * 2) / (double)t->steps);
    return NB_OK;
}

void nbi_curvetab_cell(const nbi_curvetab *t, double rho, double alpha, long *row, unsigned *col)
{
    /* A bearing and its mirror image need curves as long: |alpha| in [0, pi], which the
     * table's angles / 2 + 1 columns sample. */
    alpha = fabs(remainder(alpha, NBI_TWO_PI));
    long c = lround(alpha * t->angles / NBI_TWO_PI);
    *col = (unsigned)(c < 0 ? 0 : c >= (long)t->cols ? (long)t->cols - 1 : c);
    double r = floor(rho * t->steps);
    /* NaN and distances beyond the table go to its far row, never through
     * a conversion that overflows (long may be 32 bits). */
    *row = !(r < (double)t->distance * t->steps) ? (long)t->distance * (long)t->steps
           : r < 0                                ? 0
                                                  : (long)r;
}

double nbi_curvetab_lookup(const nbi_curvetab *t, const nb_pose *from, double x, double y)
{
    double dx = x - from->x, dy = y - from->y, rho = hypot(dx, dy);
    if (rho == 0)
        return 0;
    long row;
    unsigned col;
    nbi_curvetab_cell(t, rho, atan2(dy, dx) - from->heading, &row, &col);
    double v;
    if (row < (long)t->distance * (long)t->steps)
        v = nbi_get16(t->rows + ((size_t)row * t->cols + col) * 2) / (double)t->steps;
    else
        v = rho + nbi_get16(t->far + (size_t)col * 2) / (double)t->steps;
    return v > rho ? v : rho;
}
