/* motion.h: the motion-constrained search's workspace and its parts
 * (motion.c, motion_route.c, standable.c, griddist.c, sectors.c).  Internal. */
#ifndef NB_MOTION_H
#define NB_MOTION_H

#include "clearance/clearance.h"
#include "core/grid.h"
#include "core/heap.h"
#include "core/pool.h"
#include "motion/model.h"

/* ---- where an agent may stand (standable.c) ---- */

/* Where an agent of size cells a side, anchored at its top-left cell,
 * with capability cap may stand: every cell of its square is inside the
 * map and has a terrain in cap.  Read from the clearance layer when one
 * serves the size, else from the map. */
typedef struct nbi_stand {
    nbi_layer layer;
    int layered;
    const nb_bundle *b;
    nb_capability cap;
    unsigned size;
    uint32_t w, h;
} nbi_stand;

nb_status nbi_stand_init(nbi_stand *s, const nb_bundle *b, nb_capability cap, unsigned size,
                         nb_err *err);
/* The map's answer (no layer serves the size). */
int nbi_stand_square(const nbi_stand *s, long x, long y);
static inline int nbi_stand_at(const nbi_stand *s, long x, long y)
{
    if (x < 0 || y < 0 || x >= (long)s->w || y >= (long)s->h)
        return 0;
    if (s->layered)
        return nbi_layer_value(&s->layer, (uint64_t)y * s->w + (uint64_t)x) >= s->size;
    return nbi_stand_square(s, x, y);
}

/* Per-cell storage of one search in pages of 32 x 32 cells (core/pool.h),
 * so that a workspace holds what its searches touch, not the map: the
 * page key of a cell and its slot in a page. */
#define NBI_MTILE 5
static inline uint32_t nbi_mtile_key(unsigned tbits, long x, long y)
{
    return ((uint32_t)y >> NBI_MTILE) << tbits | (uint32_t)x >> NBI_MTILE;
}
static inline uint32_t nbi_mtile_slot(uint32_t page, long x, long y)
{
    return page << (2 * NBI_MTILE) | ((uint32_t)y & ((1u << NBI_MTILE) - 1)) << NBI_MTILE |
           ((uint32_t)x & ((1u << NBI_MTILE) - 1));
}
/* A pool for a w x h map's tiles; *tbits gets the tiles per row's bits. */
int nbi_mtile_pool(nbi_pool *p, const nb_allocator *a, uint32_t w, uint32_t h, unsigned *tbits);

/* Which block of states (a search's nodes for every heading and speed of a
 * cell) each cell a search touched has: blocks are made on first touch and
 * numbered per search. */
typedef struct nbi_cellblocks {
    nbi_pool pool;
    unsigned tbits;
    uint32_t *block; /* per slot: the cell's block, or NBI_HEAP_NONE */
} nbi_cellblocks;

/* 0 when out of memory (nbi_cellblocks_free is then safe). */
int nbi_cellblocks_init(nbi_cellblocks *c, const nb_allocator *a, uint32_t w, uint32_t h);
void nbi_cellblocks_free(nbi_cellblocks *c);
/* A new search: no cell has a block. */
static inline void nbi_cellblocks_begin(nbi_cellblocks *c) { nbi_pool_begin(&c->pool); }
/* The block of (x, y), in the map, or NBI_HEAP_NONE. */
static inline uint32_t nbi_cellblocks_get(const nbi_cellblocks *c, long x, long y)
{
    uint32_t pg = nbi_pool_find(&c->pool, nbi_mtile_key(c->tbits, x, y));
    return pg == NBI_POOL_NONE ? NBI_HEAP_NONE : c->block[nbi_mtile_slot(pg, x, y)];
}
/* Where the block of (x, y), in the map, is kept (NBI_HEAP_NONE until the
 * caller sets it); NULL when out of memory.  Valid until the next call. */
uint32_t *nbi_cellblocks_entry(nbi_cellblocks *c, long x, long y);

/* ---- obstacle-aware distance to the goal (griddist.c) ----
 * The cost of the cheapest way from a cell to the goal's cell using the
 * model's steps (forward, and backward when it has reverse speeds) with
 * their sweeps, ignoring heading and speed: a relaxation of the motion
 * problem, so distance / top speed never overestimates.  Computed on
 * demand by a reverse resumable A* (Silver 2005) from the goal toward the
 * search's start. */
typedef struct nbi_griddist {
    const nb_allocator *a;
    uint32_t w, h;
    const nbi_stand *stand;
    /* Per cell, in pages of tiles (one search per query): */
    nbi_pool pool;
    unsigned tbits;
    double *dist;
    uint32_t *stamp; /* 2 gen: reached this query; 2 gen + 1: closed */
    uint32_t gen;
    nbi_heap heap;
    long gx, gy, tx, ty;
    int exhausted;
    uint64_t expanded;
    /* Which steps are legal from each cell, worked out on first use and
     * kept while its page keeps its tile (the map does not change): mwords
     * 64-bit words per cell, move k at bit k; known once worked out.  The
     * motion search asks it too: move_of[backward][h] is the move of a
     * step of heading h. */
    uint8_t *known;
    uint64_t *legal;
    unsigned mwords;
    int back;
    uint8_t move_of[2][NB_MODEL_MAX_HEADINGS];
    unsigned nmoves;
    int mdx[2 * NB_MODEL_MAX_HEADINGS], mdy[2 * NB_MODEL_MAX_HEADINGS];
    double mlen[2 * NB_MODEL_MAX_HEADINGS];
    const int8_t *msweep[2 * NB_MODEL_MAX_HEADINGS];
    unsigned mnsweep[2 * NB_MODEL_MAX_HEADINGS];
    int msign[2 * NB_MODEL_MAX_HEADINGS];
} nbi_griddist;

nb_status nbi_griddist_init(nbi_griddist *d, const nb_allocator *a, const nb_model *m,
                            const nbi_stand *stand, nb_err *err);
void nbi_griddist_free(nbi_griddist *d);
/* The bytes it holds. */
size_t nbi_griddist_bytes(const nbi_griddist *d);
/* Starts a query: distances to (gx, gy), steering toward (tx, ty). */
void nbi_griddist_reset(nbi_griddist *d, long gx, long gy, long tx, long ty);
/* The distance from (x, y) (in cells of path length), INFINITY when the
 * goal cannot be reached from there. */
double nbi_griddist_get(nbi_griddist *d, long x, long y);
/* 1 when move k is legal from the standable cell (x, y). */
int nbi_move_legal(nbi_griddist *d, long x, long y, unsigned k);

/* ---- obstacle- and heading-aware time to the goal (headdist.c) ----
 * The least time from (cell, heading) to the goal with the speed relaxed:
 * each step costs its length over the fastest speed allowed to make its
 * turn; headings may be grouped into classes (weaker, cheaper).
 * Admissible.  A reverse resumable A* over (cell, class) from the goal
 * toward the search's start; uses grid's legality cache. */
typedef struct nbi_hedge {
    uint16_t k;  /* the class it comes from */
    double cost;
} nbi_hedge;

typedef struct nbi_hstate {
    double dist;
    uint8_t mark; /* unseen, open, closed */
} nbi_hstate;

typedef struct nbi_headdist {
    const nb_allocator *a;
    const nb_model *m;
    nbi_griddist *grid;
    double vbest[2][NB_MODEL_MAX_HEADINGS / 2 + 1];  /* [backward][turn]: fastest speed, 0 none */
    uint8_t in_place[NB_MODEL_MAX_HEADINGS / 2 + 1]; /* a turn allowed while stopped */
    unsigned nclasses, auto_classes;                 /* in use; by default */
    uint8_t hclass[NB_MODEL_MAX_HEADINGS];           /* each heading's class */
    /* Relaxed actions backwards: into (cell, class of h2) by a step along
     * h2 ([0] forward, [1] backward); into (cell, k2) by a turn in place. */
    nbi_hedge *edges;
    nbi_hedge *step_edges[2][NB_MODEL_MAX_HEADINGS], *turn_edges[NB_MODEL_MAX_HEADINGS];
    unsigned nstep_edges[2][NB_MODEL_MAX_HEADINGS], nturn_edges[NB_MODEL_MAX_HEADINGS];
    /* States: blocks of one class per heading for each cell touched. */
    nbi_cellblocks blocks;
    uint32_t *block_cell; /* per block: its cell, y w + x */
    nbi_hstate *st;
    uint32_t *pos; /* the heap's position array (decrease-key) */
    size_t nblocks, cap_blocks;
    nbi_heap heap;
    long tx, ty;
    int failed; /* out of memory: values not known are 0 */
    uint64_t expanded;
} nbi_headdist;

nb_status nbi_headdist_init(nbi_headdist *d, const nb_allocator *a, const nb_model *m,
                            nbi_griddist *grid, nb_err *err);
void nbi_headdist_free(nbi_headdist *d);
/* The bytes it holds. */
size_t nbi_headdist_bytes(const nbi_headdist *d);
/* Starts a query with `classes` classes of headings (0, or one that does
 * not divide the heading count: the default): the goal (gx, gy)
 * facing gheading (NB_HEADING_ANY: any), or any standable cell within box
 * cells of it (Chebyshev), steering toward (tx, ty). */
void nbi_headdist_reset(nbi_headdist *d, unsigned classes, long gx, long gy, unsigned gheading,
                        unsigned box, long tx, long ty);
/* The relaxed time from (x, y) facing heading; INFINITY when the goal
 * cannot be reached from there. */
double nbi_headdist_get(nbi_headdist *d, long x, long y, unsigned heading);
/* Without searching further: the value when known (*exact 1), else a
 * lower bound from the search's frontier (*exact 0). */
double nbi_headdist_bound(nbi_headdist *d, long x, long y, unsigned heading, int *exact);
/* Searches until the value is known (*exact 1) or the bound reaches need. */
double nbi_headdist_raise(nbi_headdist *d, long x, long y, unsigned heading, double need, int *exact);

/* ---- the sector abstraction (sectors.c) ---- */
typedef struct nbi_sectors {
    const nb_allocator *a;
    unsigned size, sw, sh;
    uint32_t w, h;
    uint32_t *region; /* per cell: its region, or NBI_HEAP_NONE */
    uint32_t nregions;
    int32_t *rx, *ry; /* each region's representative cell */
    uint32_t *adj_start, *adj;
    float *adj_cost;
    /* abstract A* */
    double *g;
    uint32_t *parent, *stamp, gen;
    nbi_heap heap;
    uint32_t *apath;
    size_t apath_len;
} nbi_sectors;

nb_status nbi_sectors_build(nbi_sectors *s, const nb_allocator *a, const nbi_stand *stand,
                            unsigned size, nb_err *err);
void nbi_sectors_free(nbi_sectors *s);
/* The bytes it holds. */
size_t nbi_sectors_bytes(const nbi_sectors *s);
/* The regions from a's region to b's, in s->apath; 0 when none joins them. */
int nbi_sectors_path(nbi_sectors *s, long ax, long ay, long bx, long by);

/* ---- the workspace (motion.c) ---- */
typedef struct nbi_mnode {
    double g;
    double h;         /* cached heuristic; NAN until computed */
    uint32_t parent;  /* node id, NBI_HEAP_NONE at the start */
    uint8_t closed;
    uint8_t bound;    /* h is only a lower bound so far (worked out when popped) */
} nbi_mnode;

struct nb_motion {
    const nb_bundle *bundle;
    const nb_allocator *a;
    const nb_model *m;
    const nb_perimeter *p;
    nb_capability cap;
    unsigned size;
    uint32_t w, h;
    unsigned sh; /* states per cell */
    nbi_stand stand;
    nbi_cellblocks blocks;  /* each cell's block of nodes */
    uint32_t *block_cell;   /* per block: its cell */
    nbi_mnode *nodes;       /* blocks of sh nodes */
    size_t nblocks, cap_blocks;
    nbi_heap open;
    nbi_griddist grid;
    nbi_headdist turns;
    nbi_sectors sectors;
    int has_sectors;
    uint64_t max_nodes; /* nb_motion_set_max_nodes: states a search may reach; 0 none */
    int capped;         /* the search under way reached max_nodes */
    nb_haa *haa; /* routes over the HAA* graph (nb_motion_use_haa), or NULL */
    /* A route's intermediate goals, from either abstraction: goals[0] the
     * start's place, goals[ngoals - 1] the goal's. */
    nb_cell *goals;
    size_t ngoals, goals_cap;
    nb_motion_state *path, *route;
    size_t path_len, path_cap, route_len, route_cap;
    /* Truncated searches: 1 makes the heading heuristic aim at the whole
     * box of cells where the search may stop (an experiment for
     * bench_motion_maps --box; measured weaker, so 0). */
    int heading_box;
    /* the running query */
    nb_motion_state goal;
    nb_motion_state hgoal; /* the goal the heuristic aims at */
    int heuristic;
    /* The query begun (nb_motion_begin), between slices: its phase
     * (NBI_MQ_*), the query, its result so far, the state that ended it
     * and the expanded state nearest the goal (least h, then least g). */
    int phase;
    nb_motion_query q;
    int reopen;
    nb_motion_result res;
    uint32_t end, best;
};

enum { NBI_MQ_IDLE = 0, NBI_MQ_RUNNING, NBI_MQ_DONE };

/* The state a node id stands for. */
void nbi_motion_decode(const nb_motion *ws, uint32_t id, nb_motion_state *s);
/* The model's heading nearest the direction (dx, dy); fallback when (0, 0). */
unsigned nbi_motion_heading_toward(const nb_model *m, long dx, long dy, unsigned fallback);
/* Makes room for need states in *buf (of *cap). */
nb_status nbi_motion_room(const nb_allocator *a, nb_motion_state **buf, size_t *cap, size_t need,
                          nb_err *err);
/* Makes room for need intermediate goals. */
nb_status nbi_motion_goals_room(nb_motion *ws, size_t need, nb_err *err);
/* Checks a query's states and options against the workspace. */
nb_status nbi_motion_check(const nb_motion *ws, const nb_motion_query *q, nb_err *err);
/* NB_PATH_START_BLOCKED or _GOAL_BLOCKED when the agent may not stand at
 * that end of a checked query; else NB_PATH_NONE. */
nb_path_status nbi_motion_blocked(const nb_motion *ws, const nb_motion_query *q);

#endif
