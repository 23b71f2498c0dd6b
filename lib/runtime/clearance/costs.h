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
    nbi_map map;        /* the map's cells, read in place */
    uint32_t width, height, size;
    /* A square's row is read a load at a time (the map is packed: a cell
     * by shift and mask was a third of a costed search at size 2): its
     * values, up to 8 bits at once, index a table of their largest
     * multiplier.  The tables are built when the profile changes, not at
     * each query (nbi_costs_keep). */
    uint64_t rowbits;   /* a map row's bits, width x bits */
    int64_t xlim, ilim; /* the one-load-a-row read's largest x and top-left cell index */
    uint32_t full;      /* whole bytes of values in a square's row */
    uint32_t tailmask;  /* the rest of the row's bits (0: none) */
    double of_value[256]; /* per stored value: its character's multiplier */
    double of_byte[256];  /* per byte of values: the largest of its values' */
    double of_tail[256];  /* per tail of a row (tailmask's bits): the same */
    double of_char[256];  /* per map character: its terrain's multiplier (1 for the others) */
    /* What nbi_costs_keep built the tables for. */
    int kept;
    const uint8_t *kept_map;
    nb_capability kept_cap;
    uint32_t kept_size;
    double kept_cost[NB_MAX_TERRAINS];
} nbi_costs;

/* The costs of an agent of this capability and size on the bundle's map
 * (which it must hold), from a query's multipliers (NULL: all 1).
 * NB_ERR_ARG, naming the terrain, when a multiplier of the capability's
 * terrains is not finite or not from 1 to NB_MAX_COST. */
nb_status nbi_costs_make(nbi_costs *c, const nb_bundle *b, nb_capability cap, uint32_t size,
                         const double *costs, nb_err *err);

/* nbi_costs_make for a workspace's c (zeroed when the workspace was made),
 * which keeps the last profile's tables: nothing is rebuilt while a
 * query's map, capability, size and multipliers are the last query's. */
nb_status nbi_costs_keep(nbi_costs *c, const nb_bundle *b, nb_capability cap, uint32_t size,
                         const double *costs, nb_err *err);

/* The same on a map of characters and a legend of the bake's (the bundle's
 * own above). */
nb_status nbi_costs_of_map(nbi_costs *c, const nbi_legend *lg, const uint8_t *cells,
                           uint32_t width, uint32_t height, nb_capability cap, uint32_t size,
                           const double *costs, nb_err *err);

/* nbi_costs_cell's square cell by cell, clipped to the map: a clearance
 * layer that says the agent stands where its square leaves the map lies (a
 * bundle is untrusted input), and the answer need only be safe then. */
double nbi_costs_clipped(const nbi_costs *c, uint32_t x, uint32_t y);

/* The multiplier of entering (x, y), a cell of the map and the agent's
 * top-left cell: the largest under its square. */
static inline double nbi_costs_cell(const nbi_costs *c, uint32_t x, uint32_t y)
{
    const size_t i = (size_t)y * c->width + x;
    if (c->size == 1)
        return c->of_value[nbi_map_value(&c->map, i)];
    if ((int64_t)x > c->xlim || (int64_t)i > c->ilim)
        return nbi_costs_clipped(c, x, y);
    /* Each row's values from one 8-byte load a byte of them (ilim keeps the loads inside the
     * section): the row's first bit is at bit p & 7 of byte p >> 3. */
    const uint8_t *v = c->map.values;
    uint64_t p = (uint64_t)i << c->map.lg;
    double m = 1;
    for (uint32_t j = 0; j < c->size; j++, p += c->rowbits) {
        uint64_t q = p;
        for (uint32_t k = 0; k < c->full; k++, q += 8) {
            double t = c->of_byte[(nbi_load64le(v + (q >> 3)) >> (q & 7)) & 0xff];
            m = t > m ? t : m;
        }
        if (c->tailmask) {
            double t = c->of_tail[(nbi_load64le(v + (q >> 3)) >> (q & 7)) & c->tailmask];
            m = t > m ? t : m;
        }
    }
    return m;
}

/* 1 when a and b cost the same for the agent (every terrain of cap). */
int nbi_costs_equal(const double *a, const double *b, nb_capability cap);

#endif
