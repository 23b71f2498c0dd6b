/* costs.c: an agent's terrain costs on the grid (costs.h). */
#include <math.h>
#include <string.h>

#include "clearance/costs.h"

/* The largest multiplier among the n values packed in t from its bit 0. */
static double largest(const nbi_costs *c, uint32_t t, uint32_t n)
{
    double m = 1;
    for (uint32_t k = 0; k < n; k++) {
        double v = c->of_value[(t >> (k * c->map.bits)) & c->map.mask];
        m = v > m ? v : m;
    }
    return m;
}

/* The tables and limits of nbi_costs_cell's one load a row, from of_value. */
static void row_tables(nbi_costs *c)
{
    const uint32_t bits = c->map.bits, s = c->size, rb = s * bits;
    c->rowbits = (uint64_t)c->width * bits;
    c->full = rb / 8;
    c->tailmask = (1u << (rb % 8)) - 1;
    for (uint32_t t = 0; t < 256; t++) {
        c->of_byte[t] = largest(c, t, 8 / bits);
        c->of_tail[t] = t <= c->tailmask ? largest(c, t, rb % 8 / bits) : 1;
    }
    /* A square's last load starts at byte (its last row's first bit >> 3) + loads - 1 and
     * reads 8 bytes: ilim is the largest top-left cell whose last load ends in the values. */
    int64_t bytes = (int64_t)(((uint64_t)c->width * c->height * bits + 7) / 8);
    int64_t loads = c->full + (c->tailmask != 0);
    int64_t last = bytes - 8 - (loads - 1); /* the last row's first byte at most */
    c->xlim = (int64_t)c->width - s;
    c->ilim = last < 0 ? -1 : (8 * last + 7) / bits - (int64_t)(s - 1) * c->width;
}

double nbi_costs_clipped(const nbi_costs *c, uint32_t x, uint32_t y)
{
    size_t row = (size_t)y * c->width + x;
    uint32_t h = c->height - y < c->size ? c->height - y : c->size,
             w = c->width - x < c->size ? c->width - x : c->size;
    double m = 1;
    for (uint32_t j = 0; j < h; j++, row += c->width)
        for (uint32_t i = 0; i < w; i++) {
            double v = c->of_value[nbi_map_value(&c->map, row + i)];
            if (v > m)
                m = v;
        }
    return m;
}

nb_status nbi_costs_make(nbi_costs *c, const nb_bundle *b, nb_capability cap, uint32_t size,
                         const double *costs, nb_err *err)
{
    nb_status st = nbi_costs_of_map(c, &b->legend, NULL, b->width, b->height, cap, size, costs, err);
    c->map = b->map;
    if (st != NB_OK || !c->weighted)
        return st;
    for (unsigned v = 0; v < 256; v++)
        c->of_value[v] = c->of_char[b->map.palette[v]];
    row_tables(c);
    return NB_OK;
}

nb_status nbi_costs_keep(nbi_costs *c, const nb_bundle *b, nb_capability cap, uint32_t size,
                         const double *costs, nb_err *err)
{
    if (c->kept && c->kept_map == b->map.values && c->kept_cap == cap && c->kept_size == size &&
        nbi_costs_equal(c->kept_cost, costs, cap))
        return NB_OK;
    c->kept = 0;
    nb_status st = nbi_costs_make(c, b, cap, size, costs, err);
    if (st != NB_OK)
        return st;
    for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
        c->kept_cost[t] = costs ? costs[t] : 1;
    c->kept_map = b->map.values;
    c->kept_cap = cap;
    c->kept_size = size;
    c->kept = 1;
    return NB_OK;
}

nb_status nbi_costs_of_map(nbi_costs *c, const nbi_legend *lg, const uint8_t *cells,
                           uint32_t width, uint32_t height, nb_capability cap, uint32_t size,
                           const double *costs, nb_err *err)
{
    c->weighted = 0;
    c->least = 1;
    nbi_map_of_chars(&c->map, cells);
    c->width = width;
    c->height = height;
    c->size = size;
    if (!costs)
        return NB_OK;
    double least = NB_MAX_COST;
    for (unsigned t = 0; t < lg->nterrains; t++) {
        if (!(cap >> t & 1u))
            continue;
        double v = costs[t];
        if (!(v >= 1 && v <= NB_MAX_COST))
            return nbi_fail(err, NB_ERR_ARG,
                            "cost %g for terrain '%s': a multiplier is a number from 1 to 1e6", v,
                            lg->names[t]);
        c->weighted |= v != 1;
        if (v < least)
            least = v;
    }
    if (!c->weighted)
        return NB_OK;
    c->least = least;
    for (unsigned ch = 0; ch < 256; ch++) {
        unsigned t = lg->code[ch];
        c->of_char[ch] = t < lg->nterrains && (cap >> t & 1u) ? costs[t] : 1;
        c->of_value[ch] = c->of_char[ch]; /* the identity palette; the bundle's own replaces it */
    }
    if (cells)
        row_tables(c); /* (the bundle's own map has its own palette: nbi_costs_make) */
    return NB_OK;
}

int nbi_costs_equal(const double *a, const double *b, nb_capability cap)
{
    for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
        if ((cap >> t & 1u) && (a ? a[t] : 1) != (b ? b[t] : 1))
            return 0;
    return 1;
}
