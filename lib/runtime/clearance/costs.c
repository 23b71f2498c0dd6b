/* costs.c: an agent's terrain costs on the grid (costs.h). */
#include <math.h>
#include <string.h>

#include "clearance/costs.h"

nb_status nbi_costs_make(nbi_costs *c, const nb_bundle *b, nb_capability cap, uint32_t size,
                         const double *costs, nb_err *err)
{
    nb_status st = nbi_costs_of_map(c, &b->legend, NULL, b->width, b->height, cap, size, costs, err);
    c->map = b->map;
    for (unsigned v = 0; st == NB_OK && c->weighted && v < 256; v++)
        c->of_value[v] = c->of_char[b->map.palette[v]];
    return st;
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
    return NB_OK;
}

int nbi_costs_equal(const double *a, const double *b, nb_capability cap)
{
    for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
        if ((cap >> t & 1u) && (a ? a[t] : 1) != (b ? b[t] : 1))
            return 0;
    return 1;
}
