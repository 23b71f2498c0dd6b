/* curvetable_build.c: baking the curve heuristic table (formats/hitcheck.md).
 *
 * An entry is the least curve length over its bin (a ring 1/steps cell
 * deep, a sector of bearings), found by sampling the bin densely and
 * taking one table unit off for what falls between samples: the length to
 * a point changes no faster than the point moves (its gradient is the
 * curve's final direction), and samples are less than half a unit apart.
 * Past the table's distance, the far row holds the least excess of the
 * curve over the straight line for each bearing sector; that excess only
 * shrinks with distance, so its value far away is the bound. */
#include <math.h>
#include <stdlib.h>

#include "turning/turning_build.h"

static uint16_t units(double v, unsigned steps)
{
    double u = floor(v * steps - 1);
    return (uint16_t)(u < 0 ? 0 : u > 65535 ? 65535 : u);
}

/* Sample q of m per sector (bearing q sector / m) lies in the sectors
 * centred on bearings j sector within half a sector: one, or two on a
 * boundary. */
static void bins_min(double *bin, unsigned cols, unsigned q, unsigned m, double v)
{
    unsigned h = m / 2, j0 = q <= h ? 0 : (q - h + m - 1) / m, j1 = (q + h) / m;
    for (unsigned j = j0; j <= j1 && j < cols; j++)
        if (v < bin[j])
            bin[j] = v;
}

nb_status nbb_curvetab_build(double r, unsigned distance, unsigned steps, unsigned angles,
                             uint8_t **payload, size_t *len, nb_err *err)
{
    *payload = NULL;
    *len = 0;
    if (!(r > 0) || distance < 1 || distance > 256 || steps < 1 || steps > 1024 || angles < 4 ||
        angles > 1024 || angles % 2)
        return nbi_fail(err, NB_ERR_ARG, "curve table: radius %g, distance %u, steps %u, angles %u",
                        r, distance, steps, angles);
    unsigned cols = angles / 2 + 1;
    size_t rows = (size_t)distance * steps;
    size_t total = NBI_CT_HEADER + (rows + 1) * cols * 2;
    uint8_t *p = nbb_calloc(total, 1);
    double *ring = nbb_malloc(2 * cols * sizeof *ring); /* bin minima at two ring radii */
    if (!p || !ring) {
        nbb_free(p);
        nbb_free(ring);
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for the curve table");
    }
    nbi_put32(p + NBI_CT_DISTANCE, distance);
    nbi_put32(p + NBI_CT_STEPS, steps);
    nbi_put32(p + NBI_CT_ANGLES, angles);
    nbi_put32(p + NBI_CT_COLS, cols);
    nbi_putf64(p + NBI_CT_RADIUS, r);
    uint8_t *out = p + NBI_CT_HEADER;
    const double sector = NBI_TWO_PI / angles;

    /* Bin minima on each ring of radius k / (2 steps): bearings every
     * sector/m, m even and large enough that neighbouring samples are less
     * than 1/steps apart.  Row i spans rings 2i, 2i+1 and 2i+2. */
    double *acc = ring, *cur = ring + cols;
    for (size_t k = 0; k <= 2 * rows; k++) {
        double rho = k / (2.0 * steps);
        unsigned m = (unsigned)ceil(rho * sector * steps);
        m = m < 4 ? 4 : m + (m & 1);
        for (unsigned j = 0; j < cols; j++)
            cur[j] = INFINITY;
        for (unsigned q = 0; q <= (cols - 1) * m; q++) {
            double a = q * sector / m;
            double l = rho == 0 ? 0 : nbi_curve_point_length(r, rho * cos(a), rho * sin(a));
            bins_min(cur, cols, q, m, l);
        }
        if (k > 0 && k % 2 == 0)
            for (unsigned j = 0; j < cols; j++)
                nbi_put16(out + ((k / 2 - 1) * cols + j) * 2, units(fmin(acc[j], cur[j]), steps));
        for (unsigned j = 0; j < cols; j++)
            acc[j] = k % 2 == 0 ? cur[j] : fmin(acc[j], cur[j]);
    }

    /* The far row. */
    uint8_t *far = out + rows * cols * 2;
    double da = 1.0 / (4.0 * steps * (r > 1 ? r : 1));
    unsigned m = (unsigned)ceil(sector / da);
    m = m < 4 ? 4 : m + (m & 1);
    for (unsigned j = 0; j < cols; j++)
        ring[j] = INFINITY;
    for (double rho = distance;; rho = rho < distance + 4 * r + 4 ? rho + 0.5 : rho * 2) {
        for (unsigned q = 0; q <= (cols - 1) * m; q++) {
            double a = q * sector / m;
            double e = nbi_curve_point_length(r, rho * cos(a), rho * sin(a)) - rho;
            bins_min(ring, cols, q, m, e);
        }
        if (rho > 1e6)
            break;
    }
    for (unsigned j = 0; j < cols; j++)
        nbi_put16(far + 2 * j, units(fmax(ring[j], 0), steps));
    nbb_free(ring);
    *payload = p;
    *len = total;
    return NB_OK;
}
