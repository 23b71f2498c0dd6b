/* placeutil.h: levels for the place tests (nearest, lines, random cells):
 * a map (random rooms of several terrains, or a file), baked with three
 * capabilities and sizes 1 to 3, opened, with a place and the brute-force
 * facts of each (capability, size): where the agent may stand and enter,
 * and its components under both corner rules. */
#ifndef NB_PLACEUTIL_H
#define NB_PLACEUTIL_H

#include "brute.h"
#include "brute_place.h"
#include "testutil.h"

#define PU_PAIRS 9

typedef struct pu_pair {
    nb_capability cap;
    unsigned size;
    nb_place *place;
    uint8_t *stand; /* the agent may stand at the cell (brute_can_stand) */
    uint8_t *pass; /* its terrain is in cap (brute_passable) */
    uint32_t *strict, *weak; /* brute_components under each corner rule */
    uint32_t *rank; /* strict id -> 1, 2, ... in the row-major order of first cells */
    uint32_t ncomp;
} pu_pair;

typedef struct pu_level {
    char name[64];
    nbi_legend legend;
    nbi_agentset agents;
    nbb_grid grid;
    nb_bundle *b;
    size_t npairs;
    pu_pair pair[PU_PAIRS];
} pu_level;

/* Rooms, lakes, swamps and woods on ground with a little noise. */
void pu_random_grid(tu_rng *r, uint32_t w, uint32_t h, nbb_grid *g);
/* Bakes the grid (taken over) with mkclear's sections, opens it and the
 * places; 1 on success, else a failed assertion and 0. */
int pu_level_open(pu_level *L, nbb_grid *g, const char *name);
/* The same from w x h characters, row by row. */
int pu_level_chars(pu_level *L, uint32_t w, uint32_t h, const char *cells, const char *name);
/* The same from a map file; 0 when it cannot be read. */
int pu_level_read(pu_level *L, const char *map, const char *name);
void pu_level_close(pu_level *L);

/* brute_place.h's passable() for a pair of a level (ctx: a pu_ctx). */
typedef struct pu_ctx {
    const pu_level *L;
    const pu_pair *P;
} pu_ctx;
int pu_passable(const void *ctx, long x, long y);

/* How many queries of each kind per level: NB_PLACE_QUERIES, else 10000. */
unsigned long pu_queries(void);

/* Runs check(level, rng) on the levels of a place test: NB_PLACE_LEVELS
 * random ones (default 3, of several shapes), and with NB_PLACE_SHARED
 * set (make check-place) the multi-terrain maps of ../shared too. */
void pu_each_level(void (*check)(pu_level *L, tu_rng *r), uint64_t seed);

#endif
