/* costs.h: an agent's terrain costs on the grid (navbake(3): nb_aa_query's
 * costs), as every grid search of the runtime reads them: a move costs its
 * length times the largest multiplier among the terrains under the agent's
 * size x size square at the cell it enters.  Internal. */
#ifndef NB_COSTS_H
#define NB_COSTS_H

#include "bundle/bundle.h"

typedef struct nbi_costs {
    int weighted;       /* 0: every terrain the agent may enter costs 1 */
    double least;       /* the least multiplier among the capability's terrains */
    double of_char[256]; /* per map character: its terrain's multiplier (1 for the others) */
    double of_value[256]; /* per stored value of map: its character's multiplier */
    nbi_map map;          /* the map's cells, read in place */
    uint32_t width, height, size;
} nbi_costs;

/* The costs of an agent of this capability and size on the bundle's map
 * (which it must hold), from a query's multipliers (NULL: all 1).
 * NB_ERR_ARG, naming the terrain, when a multiplier of the capability's
 * terrains is not finite or not from 1 to NB_MAX_COST. */
nb_status nbi_costs_make(nbi_costs *c, const nb_bundle *b, nb_capability cap, uint32_t size,
                         const double *costs, nb_err *err);

/* The same on a map of characters and a legend of the bake's (the bundle's
 * own above). */
nb_status nbi_costs_of_map(nbi_costs *c, const nbi_legend *lg, const uint8_t *cells,
                           uint32_t width, uint32_t height, nb_capability cap, uint32_t size,
                           const double *costs, nb_err *err);

/* The multiplier of entering (x, y), a cell of the map and the agent's
 * top-left cell: the largest under its square.  The square is clipped to
 * the map: a clearance layer that says the agent stands where its square
 * leaves the map lies (a bundle is untrusted input), and the answer need
 * only be safe then. */
static inline double nbi_costs_cell(const nbi_costs *c, uint32_t x, uint32_t y)
{
    size_t row = (size_t)y * c->width + x;
    if (c->size == 1)
        return c->of_value[nbi_map_value(&c->map, row)];
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

/* 1 when a and b cost the same for the agent (every terrain of cap). */
int nbi_costs_equal(const double *a, const double *b, nb_capability cap);

#endif
