/* reach.h: which cells a path joins, and the standable cell nearest a
 * point, on the map as an overlay leaves it (reach.c, ring.c, partial.c).
 * Internal.
 *
 * The component layer was baked without the overlay: blocks only take
 * cells away, so it proves cells apart, never joined.  Reach's searches
 * tell the rest exactly.  The ring search reads the cells around a point
 * outwards: nearest_find is it (place/nearest.c), and so is the goal of a
 * query that asks for a partial path (the reachable cell nearest its goal,
 * partial.c), in HAA* and the optimal layer. */
#ifndef NB_REACH_H
#define NB_REACH_H

#include "blocked/blocked.h"
#include "clearance/clearance.h"

/* ---- reach (reach.c) ---- */

/* Whether cells are joined to one start on the edited map: a flood from
 * the start kept from test to test, and an A* from the cell tested, two
 * Annotated A* workspaces opened by the first test that needs them. */
typedef struct nbi_reach {
    const nb_bundle *b;
    nb_aa *flood, *probe;
    /* The agent and the map of the tests to come (nbi_reach_use). */
    const nbi_layer *clear;
    uint32_t size;
    const nb_overlay *ov;
    int on, done;  /* the flood has begun; it has run out of cells */
    nb_cell from;  /* its start */
    uint64_t counted; /* the flood's expansions already in expanded */
    uint64_t expanded; /* the searches' expansions since nbi_reach_use */
} nbi_reach;

void nbi_reach_init(nbi_reach *r, const nb_bundle *b);
void nbi_reach_free(nbi_reach *r);
size_t nbi_reach_bytes(const nbi_reach *r);
/* The tests to come are for this agent (clear its layer, which must outlive them) on the map
 * as ov leaves it (NULL: the bundle's); what was learnt before is forgotten. */
void nbi_reach_use(nbi_reach *r, const nbi_layer *clear, uint32_t size, const nb_overlay *ov);
/* Whether cell c, where the agent stands, is joined to start (where it stands too) by a path
 * on that map, exactly, in *joined; NB_ERR_NOMEM when the searches cannot grow.  A query's
 * tests from one start cost at most twice the cells joined to it, plus twice an A* from each
 * cell found joined, plus 64 expansions a test. */
nb_status nbi_reach_joined(nbi_reach *r, nb_cell start, nb_cell c, int *joined, nb_err *err);

/* ---- the nearest standable cell (ring.c) ---- */

/* A search under way: the cells in square rings around a point.  What it
 * reads is set by the caller before nbi_ring_begin: the agent's clearance
 * layer and size, the overlay (NULL: none), with comp the component layer
 * whose comp_want alone counts, and with tell reach's test of each cell
 * that would be the answer (cells cut off from start do not count). */
typedef struct nbi_ring {
    const nbi_layer *clear, *comp; /* comp NULL: any component */
    uint32_t size;
    const nb_overlay *ov;
    uint32_t comp_want;
    int tell;         /* reach tells whether a cell is joined to start */
    nbi_reach *reach;
    nb_cell start;
    /* The state: the ring read now, its side and the next cell of that side. */
    long px, py, w, h;
    double radius;
    long r, last, reach_r;
    int side;
    long i, lo[4], hi[4];
    double best;
    int seen;       /* a cell that qualifies but for the radius */
    nb_status fail; /* an error met while reading (no memory for reach's searches) */
    nb_cell cell;   /* the nearest so far, or (-1, -1) */
    uint64_t examined;
} nbi_ring;

/* Starts the search from (px, py), a cell of the map, looking no farther than radius (>= 0,
 * or INFINITY). */
void nbi_ring_begin(nbi_ring *s, long px, long py, double radius);
/* Reads cells until the search ends (1) or stop cells have been read (0); s->fail says
 * whether it ended on an error. */
int nbi_ring_run(nbi_ring *s, uint64_t stop);
/* 1 when the search read every ring of the map (so nothing found means nothing there). */
static inline int nbi_ring_whole(const nbi_ring *s) { return s->last == s->reach_r; }

/* 1 when the agent may stand at (x, y), a cell of the map, under the overlay too. */
static inline int nbi_stands_under(const nbi_layer *clear, uint32_t size, const nb_overlay *ov,
                                   uint32_t x, uint32_t y)
{
    return nbi_layer_get(clear, (uint64_t)y * clear->width + x) >= size &&
           (!ov || nbi_overlay_room(ov, size, x, y));
}

/* ---- partial paths (partial.c) ---- */

/* The goal of a query that asks for a partial path: goal itself when a path joins it to start
 * on the map as ov leaves it, else the cell nearest goal (octile distance; ties: the least y,
 * then the least x) that a path joins to start, in *target; *partial says which (1: the
 * nearest).  The agent must stand at start.  comp (NULL: none) is the agent's component
 * layer, which proves cells apart; reach (set to the agent and ov by nbi_reach_use) tells the
 * rest.  Costs the rings around goal out to the answer's distance, and reach's tests. */
nb_status nbi_partial_goal(nbi_reach *reach, const nbi_layer *comp, nb_cell start, nb_cell goal,
                           nb_cell *target, int *partial, nb_err *err);

/* What a family's workspace keeps for partial paths: reach's searches and the agent's layers
 * of the last query. */
typedef struct nbi_partial {
    nbi_reach reach;
    nbi_layer clear, comp;
} nbi_partial;

void nbi_partial_init(nbi_partial *pp, const nb_bundle *b);
void nbi_partial_free(nbi_partial *pp);
size_t nbi_partial_bytes(const nbi_partial *pp);
/* For the begin of a query that asks for a partial path, once its checks have passed: the
 * cell to search to (nbi_partial_goal's *target and *partial) for the agent (cap, size) on the
 * map as ov leaves it; goal itself, *partial 0, when the agent cannot stand at start (the
 * family then answers NB_PATH_START_BLOCKED).  Errors: a layer the bundle lacks or is
 * damaged, NB_ERR_NOMEM for reach's searches, prefixed with family. */
nb_status nbi_partial_target(nbi_partial *pp, const char *family, nb_capability cap,
                             uint32_t size, const nb_overlay *ov, nb_cell start, nb_cell goal,
                             nb_cell *target, int *partial, nb_err *err);

#endif
