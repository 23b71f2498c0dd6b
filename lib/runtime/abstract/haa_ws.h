/* haa_ws.h: HAA*'s workspace, shared by its query phases (haa.c) and its
 * abstract search (haa_search.c).  Internal.
 *
 * What a workspace holds is sized by the graph's cluster and by what
 * queries touch, never by the map or the graph's node count: the searches
 * inside a cluster (ins, ref, near) by the cluster's side; the abstract
 * search's nodes in pages of a pool (core/pool.h) claimed as it reaches
 * them; the path and the set of its cells (to cut loops) by the longest
 * path found.  The graph is checked once per bundle (agraph.c), so making
 * a workspace costs its own arrays only.
 *
 * The abstract search is one object per level of abstraction (struct
 * nbi_asearch): a hierarchy of several levels adds one per level, each
 * over its own graph's node keys, with the same storage and open list. */
#ifndef NB_HAA_WS_H
#define NB_HAA_WS_H

#include "abstract/abstract.h"
#include "abstract/alevels.h"
#include "abstract/repair.h"
#include "clearance/costs.h"
#include "clearance/reach.h"
#include "core/pool.h"
#include "core/u32map.h"

/* How the abstract path reached a node (its via), besides an arc index. */
#define NBI_VIA_START UINT32_MAX        /* start -> node: the start's insertion search */
#define NBI_VIA_GOAL (UINT32_MAX - 1)   /* node -> goal: the goal's insertion search */
#define NBI_VIA_DIRECT (UINT32_MAX - 2) /* start -> goal inside their one cluster */
#define NBI_VIA_NEAR (UINT32_MAX - 3)   /* start -> goal, ends near: the clusters around them */
#define NBI_VIA_REPAIR (UINT32_MAX - 4) /* an arc of a cluster repaired under the overlay */

/* Node keys of one level: its graph's nodes 0 .. nnodes-1, then the start
 * (nnodes) and the goal (nnodes + 1) inserted for the query, then under an
 * overlay the nodes of repaired clusters: nnodes + 2 + record * per + i,
 * node i of a record of the repair (abstract/repair.h). */
#define NBI_ASEARCH_SHIFT 10 /* keys per page: 1024 */

enum { NBI_AS_RUNNING = 0, NBI_AS_FOUND, NBI_AS_EXHAUSTED, NBI_AS_LIMIT, NBI_AS_NOMEM };

typedef struct nbi_asearch {
    nbi_pool pool;
    double *gv;
    uint32_t *parent;  /* a key */
    uint32_t *via;     /* an arc, or NBI_VIA_* */
    uint32_t *stamp;   /* search id << 1 | closed */
    uint32_t *hpos;    /* the heap's positions (decrease-key) */
    nbi_heap heap;     /* items: slots */
    uint32_t sid;
    uint64_t nodes, max_nodes, expanded;
    int end;           /* NBI_AS_* */
    uint32_t best;     /* the expanded key with the least heuristic (ties: least g) */
    double best_h, best_g;
} nbi_asearch;

/* A search over one cluster of a level (levels_query.c): nodes keyed by
 * their level-1 numbers through a hash map, so that it costs what it
 * touches. */
typedef struct nbi_lsearch {
    const nb_allocator *a;
    nbi_u32map map;     /* level-1 number -> slot */
    uint32_t *id, *parent, *via;
    uint32_t *at;       /* the node's number in the level searched, or UINT32_MAX */
    double *g;
    uint8_t *closed;
    size_t n, cap;
    nbi_heap heap;      /* slots; stale entries skipped */
    int heap_ok, oom;
    uint64_t expanded;
} nbi_lsearch;

/* A node of a level's path (levels_query.c): its level-1 number, its number in the level
 * (UINT32_MAX when not known), how it was reached from the one before. */
typedef struct nbi_lhop {
    uint32_t node, at, how;
} nbi_lhop;

/* What queries over the graph's higher levels use (levels_query.c), made
 * by the first such query. */
typedef struct nbi_levels_ws {
    const nb_allocator *a;
    nbi_lsearch ins[2][NBI_LEVELS_MAX + 1]; /* [end][level]: the ends' insertion */
    nbi_lsearch ref;                        /* refining an edge inside its cluster */
    nbi_asearch as;                         /* the search at level k */
    uint32_t k;
    /* The landmarks' bounds for the query at the top level (levels_query.c): for landmark i
     * with lm_has[i], the least of d(i, w) + ins(w) and the most of d(i, w) - ins(w) over the
     * goal's nodes w there (ins(w): the goal's insertion cost). */
    uint32_t nlm;
    uint8_t lm_has[NBI_LANDMARKS_MAX];
    double lm_lo[NBI_LANDMARKS_MAX], lm_hi[NBI_LANDMARKS_MAX];
    nbi_lhop *cur, *nxt; /* a level's path while it goes down */
    size_t ncur, nnxt, cur_cap, nxt_cap;
    int oom;
} nbi_levels_ws;

/* The phases of a query (begin, step, finish). */
enum { NBI_HAA_IDLE = 0, NBI_HAA_NEAR, NBI_HAA_INSERT, NBI_HAA_ABSTRACT, NBI_HAA_LEVELS,
       NBI_HAA_REFINE,
       NBI_HAA_DONE, NBI_HAA_OVERLAID /* Annotated A* under an overlay (haa.c) */ };

struct nb_haa {
    const nb_bundle *b;
    const nb_allocator *a;
    nbi_agraph g;
    size_t bytes;
    nbi_layer *layer; /* clearance of each of the graph's capabilities */
    nbi_layer *comp;  /* components of each (capability, size), where baked */
    uint8_t *has_comp;
    uint32_t top;     /* the largest size served */
    nbi_csearch ins[2], ref, near;
    nb_cell *targets, *seg;
    nbi_asearch as;   /* the abstract search over the graph's one level */
    uint8_t capok[256];
    uint64_t max_nodes;
    /* Set by a caller whose ends are the graph's nodes (a world's refinement, stream/haa_world.c):
     * an end on a node's cell is joined to that node alone, at cost 0, not by a Dijkstra over its
     * cluster; the node's arcs inside the cluster stand for the Dijkstra's costs (the same on a
     * graph whose arcs are its clusters' shortest paths for each annotation, as mkabstract's
     * are at quality high). */
    int node_ends;
    /* The cell path, and where each of its cells is in it (to cut loops): per 16 x 16 tile of
     * cells the path enters, a page of the pool (haa.c's append), wat[slot] the cell's place. */
    nb_cell *path;
    size_t pcap;
    nbi_pool where;
    uint32_t *wat;
    uint32_t wtw; /* tiles per row */
    /* The tile append_run() found last, by its first cell (wx0, wy0), and its page's first
     * slot in wat (wbase): a path's cells come a tile at a time, so most need no look in the
     * directory, only a test of their offsets from (wx0, wy0).  wx0 is NBI_HAA_NO_TILE, which
     * no cell's column is 16 or fewer past, when the pool begins anew. */
    uint32_t wx0, wy0, wbase;
    /* The abstract path's keys, goal first, start last (anodes[0 .. na)), and how each
     * was reached from the next (an arc, or NBI_VIA_*). */
    uint32_t *anodes, *avia;
    size_t acap, avcap, na;
    /* The graph's higher levels (checked at open), when the bundle has them. */
    nbi_alevels lv;
    int has_levels;
    uint32_t max_levels; /* nb_haa_set_levels */
    int every_arc;       /* tests: the search above level 1 tries every arc (levels_query.c) */
    nbi_levels_ws *lq;
    /* Queries handed to Annotated A* after the graph's path met a block (tests and benches:
     * nbi_haa_fallbacks). */
    uint64_t fallbacks;
    /* The query under way. */
    int phase;
    int stopped;      /* the budget or the node cap ended it in this phase */
    nb_haa_query q;
    unsigned flags;
    const nbi_layer *l;
    uint32_t ks, kg;  /* the ends' clusters */
    int ins_e;        /* the insertion search under way: 0 start, 1 goal */
    double near_cost; /* the near search's path, or -1 */
    size_t len;       /* cells of the path so far */
    size_t refine_k;  /* the abstract step being refined (anodes[k] -> anodes[k - 1]) */
    int ref_started;  /* its cluster A* is under way */
    nb_haa_result res;
    nb_aa *aa;        /* queries under an overlay that blocks cells; opened by the first */
    nbi_partial part; /* the goals of partial paths (clearance/partial.c) */
    int part_on;      /* the query searches to the reachable cell nearest its goal */
    const nbi_repair *rep; /* the query's graph repaired under its overlay, or NULL */
    long rep_prof;     /* under costs: the repair's profile of the query's costs and corner
                          rule, whose arc costs it holds (-1: the search weighs them) */
    uint64_t as_keys;  /* keys the abstract search has room for */
    int reach_only;    /* nb_haa_reachable: the query ends when the abstract search does */
    int whole;         /* nb_haa_find with no expansion budget and no node cap: the search runs
                          to its end, so no partial path is asked of it, and the abstract search
                          keeps no best node (as.best is then not kept up to date) */
    /* Terrain costs: the graph's cost profiles (checked at open), the one
     * the query under way uses (NULL: the graph's own weights) and its
     * multipliers on the map; hmul is the heuristic's factor (the least
     * multiplier, or 1). */
    nbi_acosts *prof;
    size_t nprof, prof_cap;
    const nbi_acosts *pc;
    nbi_costs wc;
    double hmul;
};

/* The parts of a workspace read from its bundle (haa.c), each checked once per bundle: the
 * clearance and components layers of the graph's capabilities and sizes (into arrays already
 * sized for them), its cost profiles (ws->prof kept when it has room), its higher levels. */
nb_status nbi_haa_bind_layers(nb_haa *ws, nb_err *err);
nb_status nbi_haa_load_profiles(nb_haa *ws, nb_err *err);
nb_status nbi_haa_find_levels(nb_haa *ws, nb_err *err);
/* Room in the set of the path's cells (append) for ws->g's map, made again only when it needs
 * more page keys than the set has; 0 without memory. */
int nbi_haa_room_cells(nb_haa *ws);
/* Room in the abstract search for keys 0 .. keys-1 (grown, never shrunk). */
nb_status nbi_haa_room_keys(nb_haa *ws, uint64_t keys, nb_err *err);

/* The abstract search (haa_search.c). */
int nbi_asearch_init(nbi_asearch *as, const nb_allocator *a, uint32_t nkeys);
void nbi_asearch_free(nbi_asearch *as);
size_t nbi_asearch_bytes(const nbi_asearch *as);
/* Starts a search: no node reached, at most max_nodes (0: no cap). */
void nbi_asearch_begin(nbi_asearch *as, uint64_t max_nodes);
/* Key v reached at cost ng from key `from` by `how` (heuristic h): opened, or its cost
 * lowered; left alone when closed or no better.  0 when the search has ended (the node
 * cap, or no memory: as->end says). */
int nbi_asearch_relax(nbi_asearch *as, uint32_t v, double ng, uint32_t from, uint32_t how,
                      double h);
/* The same in two halves, for a caller whose heuristic costs more than the test: the slot of
 * key v when reaching it so changes it (its cost, parent and way set), else NBI_POOL_NONE (and
 * as->end set when the search has ended); then the slot queued with heuristic h (0 without
 * memory). */
uint32_t nbi_asearch_reach(nbi_asearch *as, uint32_t v, double ng, uint32_t from, uint32_t how);
int nbi_asearch_queue(nbi_asearch *as, uint32_t sl, double h);
/* The slot of key when this search reached it, else NBI_POOL_NONE. */
uint32_t nbi_asearch_find(const nbi_asearch *as, uint32_t key);
/* Starts the query's abstract search with the start alone on the open list. */
void nbi_haa_abstract_begin(nb_haa *ws);
/* Expands at most budget nodes; returns how many.  ws->as.end says when
 * the search has ended. */
uint64_t nbi_haa_abstract_step(nb_haa *ws, uint64_t budget);

/* levels_query.c */
void nbi_lsearch_init(nbi_lsearch *ls, const nb_allocator *a);
void nbi_lsearch_free(nbi_lsearch *ls);
size_t nbi_lsearch_bytes(const nbi_lsearch *ls);
nbi_levels_ws *nbi_levels_ws_new(const nb_allocator *a, const nbi_alevels *L);
void nbi_levels_ws_free(nbi_levels_ws *lq);
size_t nbi_levels_ws_bytes(const nbi_levels_ws *lq);
/* The level the query under way searches: 1 (the graph's own) unless the
 * bundle has levels the query may use and its ends lie far apart. */
uint32_t nbi_haa_level_for(const nb_haa *ws);
/* Inserts the ends up to level k and starts the search there; 0 without
 * memory. */
int nbi_haa_levels_begin(nb_haa *ws, uint32_t k);
/* Expands at most budget nodes of level k; returns how many (ws->lq->as.end
 * says when the search has ended). */
uint64_t nbi_haa_levels_step(nb_haa *ws, uint64_t budget);
/* The path found, down to level 1, into ws->anodes and ws->avia: 1, 0
 * without memory, -1 when an edge has no path below it (a damaged graph). */
int nbi_haa_levels_path(nb_haa *ws);

static inline nb_cell nbi_agraph_node_cell(const nbi_agraph *g, uint32_t u)
{
    nb_cell c = {nbi_u16at(g->node_xy, 2 * (size_t)u), nbi_u16at(g->node_xy, 2 * (size_t)u + 1)};
    return c;
}

/* The cell of a node's key (not the start's or the goal's). */
static inline nb_cell nbi_haa_key_cell(const nb_haa *ws, uint32_t key)
{
    if (key < ws->g.nnodes)
        return nbi_agraph_node_cell(&ws->g, key);
    uint32_t r = key - ws->g.nnodes - 2;
    uint32_t cell = ws->rep->rec[r / ws->rep->per].cell[r % ws->rep->per];
    nb_cell c = {(int32_t)(cell % ws->g.width), (int32_t)(cell / ws->g.width)};
    return c;
}
/* 1 for the key of a node, 0 for the start's and the goal's. */
static inline int nbi_haa_is_node(const nb_haa *ws, uint32_t key)
{
    return key < ws->g.nnodes || key >= ws->g.nnodes + 2;
}
/* The keys of cluster k's nodes, [*first, *first + count): the repair's when it holds the
 * cluster, else the graph's. */
static inline uint32_t nbi_haa_cluster_keys(const nb_haa *ws, uint32_t k, uint32_t *first)
{
    const nbi_rcluster *c = ws->rep ? nbi_repair_at(ws->rep, k) : NULL;
    if (c) {
        *first = ws->g.nnodes + 2 + ws->rep->slot[k] * ws->rep->per;
        return c->nn;
    }
    *first = nbi_u32at(ws->g.cluster_first, k);
    return nbi_u32at(ws->g.cluster_first, k + 1) - *first;
}

#endif
