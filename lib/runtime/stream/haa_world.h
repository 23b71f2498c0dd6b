/* haa_world.h: HAA* across a world's tiles (haa_world.c), and the
 * Dijkstra over a tile's abstract graph kept to its own cells that both
 * the tile action and the queries run (tile_dijkstra.c).  Internal. */
#ifndef NB_HAA_WORLD_H
#define NB_HAA_WORLD_H

#include "abstract/abstract.h"
#include "core/heap.h"
#include "stream/stream.h"
#include "world/world.h"
#include "stream/wquery.h"

/* Dijkstra over an abstract graph's nodes inside a rectangle of its map
 * (a tile's own cells: clusters lie whole in it), through the arcs that
 * admit (capability, size), from seeds with their costs in steps.  Its
 * arrays are sized once for the graph. */
typedef struct nbi_tdijk {
    const nb_allocator *a;
    uint32_t n, sid;
    uint32_t *card, *diag, *stamp; /* stamp == sid << 1 | settled */
    uint32_t *pos;                 /* the heap's positions: one entry a node */
    struct nbi_heap *heap;
    /* When not NULL: the search ends once it has settled `left` nodes
     * marked here (the ones its caller wants). */
    const uint8_t *target;
    uint32_t left;
    /* nbi_tdijk_run_buckets' queue: bucket b (head[b], a list through
     * enext) holds the nodes reached at a length in [b, b + 1). */
    uint32_t *bhead, *enode, *enext;
    size_t bcap, ecap;
} nbi_tdijk;

int nbi_tdijk_init(nbi_tdijk *t, const nb_allocator *a, uint32_t nodes);
void nbi_tdijk_free(nbi_tdijk *t);
/* 0 without memory. */
int nbi_tdijk_run(nbi_tdijk *t, const nbi_agraph *g, nb_capability cap, uint32_t size,
                  uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, const uint32_t *seed,
                  const uint32_t *seed_card, const uint32_t *seed_diag, size_t nseed);
/* The same costs by buckets of unit width in place of the heap: an arc
 * spans at least one step, so no node of a bucket improves another of it
 * and a bucket's nodes are settled in any order (queries' insertion; the
 * tile action keeps the heap).  The same return, or -1 (nothing kept)
 * at an arc of no steps, where the rule fails: then nbi_tdijk_run. */
int nbi_tdijk_run_buckets(nbi_tdijk *t, const nbi_agraph *g, nb_capability cap, uint32_t size,
                          uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1,
                          const uint32_t *seed, const uint32_t *seed_card,
                          const uint32_t *seed_diag, size_t nseed);
static inline int nbi_tdijk_reached(const nbi_tdijk *t, uint32_t u)
{
    return (t->stamp[u] >> 1) == t->sid;
}

/* An edited tile whose repaired clusters keep off its edges (tile_repair.c): its repaired
 * graph joined into the search above the tiles.  A pair of its portals whose baked cost the
 * repair may change (nbi_trep_changed) is not taken from the world graph's arc: the search
 * enters the tile's graph at such a portal (join), walks its nodes as keys of its own
 * (kbase + the repair's key) kept to the tile's cells, and leaves it at any portal. */
typedef struct nbi_trep {
    uint32_t tile, first, np;  /* the world tile, its portals in the world graph */
    const nbi_stile *t;        /* pinned by the query's nbi_wpins; between queries only the
                                  tile's identity with serial, never read */
    uint64_t serial;           /* t's serial when made (stream.h) */
    nb_overlay *ov;            /* the tile's own overlay: the world's blocks in its map, kept
                                  between queries under the same version while t is loaded */
    const struct nbi_repair *rep; /* of the tile's graph, in ov */
    uint8_t *join;             /* per portal: 1 when a pair of it may change (enter the graph) */
    double *dk;                /* per portal: baked distance to a repaired cluster, -1 none */
    uint32_t *pkey;            /* per portal: its key in the repaired graph, UINT32_MAX none */
    uint32_t *portal_of;       /* per baked node of the tile graph: its portal, or UINT32_MAX */
    size_t npcap, pkcap, pocap;
    uint32_t nbase, nkeys;     /* the repaired graph's keys: nbase baked nodes, then the repair's */
    uint32_t kbase;            /* the query's search key of its key 0 */
    double hmin;               /* the query's: its portals' least bound to the goal */
    uint32_t clusters;         /* repaired clusters of the tile's own cells */
    int edge;                  /* one of them on the tile's edges: the search crosses to
                                  the neighbour through the repaired graph's arcs out */
    nb_capability cap;
    uint32_t size;
    uint8_t capok[64];         /* per capability index of the graph: cap admits it */
    int live;                  /* made or opened again for the query in progress */
} nbi_trep;

/* 1 when the pair (i, j) of r's portals (the world graph's arc between them of baked cost d)
 * may be changed by the repair: dK(i) + dK(j) <= d. */
static inline int nbi_trep_changed(const nbi_trep *r, uint32_t i, uint32_t j, double d)
{
    return r->dk[i] >= 0 && r->dk[j] >= 0 && r->dk[i] + r->dk[j] <= d + 1e-6;
}

/* The tile's overlay: ov's blocked cells in t's map. */
nb_status nbi_trep_overlay(const nbi_stile *t, const nb_world_overlay *ov, nb_overlay **out,
                           nb_err *err);
/* Tile t (pinned) under ov for (cap, size): 1 made, 0 not handled so (no repair of its
 * graph), -1 without memory. */
int nbi_trep_make(nbi_trep *r, const nb_allocator *a, const nbi_wgraph *wg, const nbi_stile *t,
                  const nb_world_overlay *ov, nb_capability cap, uint32_t size, nbi_tdijk *dj);
/* 1 when r, kept from an earlier query under the same overlay's version, is of tile t
 * (pinned) as loaded now: the same load (serial), its overlay and repair still open. */
static inline int nbi_trep_same(const nbi_trep *r, const nbi_stile *t)
{
    return r->ov && r->t == t && r->serial == t->serial;
}
/* The world cell of r's key k. */
nb_cell nbi_trep_cell(const nbi_trep *r, uint32_t k);
/* Key k's arcs over the repaired graph, kept to the tile's own cells and to the agent:
 * reach(ctx, key, the arc's cost, the key's world cell) for each, and when r->edge each arc
 * out of the tile as reach(ctx, UINT32_MAX, its cost, the far world cell) (a move across the
 * edge: the neighbour's repaired graph holds a node there too, its border seen alike); 0
 * when reach says so (no memory). */
typedef int (*nbi_trep_reach)(void *ctx, uint32_t key, double cost, nb_cell at);
int nbi_trep_arcs(const nbi_trep *r, uint32_t k, nbi_trep_reach reach, void *ctx);
/* The portal (index in r) at key k, or UINT32_MAX. */
static inline uint32_t nbi_trep_portal(const nbi_trep *r, uint32_t k)
{
    return k < r->nkeys ? r->portal_of[k] : UINT32_MAX;
}
/* The key of the node at world cell c of the tile's own cells, or UINT32_MAX. */
uint32_t nbi_trep_key_at(const nbi_trep *r, nb_cell c);
void nbi_trep_release(nbi_trep *r);
void nbi_trep_free(const nb_allocator *a, nbi_trep *r);
size_t nbi_trep_bytes(const nbi_trep *r);

/* Under an overlay that blocks cells (haa_edit.c): the tiles whose
 * standable cells it changes for the query's agent ("edited"), and the
 * cells the search walks there and in the band of one cell around them
 * (R cells), each given a key as the search reaches it. */
typedef struct nbi_wedit {
    const nb_world *w;
    const nb_allocator *a;
    const nb_world_overlay *ov; /* NULL: no cell blocked, nothing edited */
    uint8_t *dirty;             /* per tile: edited */
    size_t ntiles, ndirty;
    nbi_u32map rkey;            /* world cell -> its R key (by blocks of 8 x 8 cells when
                                   bcols, their count in a row; else y * width + x) */
    uint32_t bcols;
    nbi_u32map portal;          /* the cell of an unedited tile's portal in R -> node + 1 */
    nb_cell *rcell;             /* per R key: its cell */
    size_t nr, rcap;
    nbi_wpins pins;             /* the tiles of the R cells read */
    /* Edited tiles searched through their repaired graphs (tile_repair.c), not cell by
     * cell: not marked in dirty. */
    nbi_trep *trep;
    size_t ntrep, trcap, trmade; /* in use, room, made (their arrays kept for the next) */
    uint32_t *tslot;            /* per tile: its trep + 1, or 0 */
    uint64_t *refused;          /* per tile: the serial of its load that nbi_trep_make refused
                                   under cver (walked cell by cell without asking again), or 0 */
    size_t reused;              /* repaired tiles the last query took as kept, for tests */
    nbi_tdijk dj;               /* the dK search */
    size_t repaired;            /* tiles handled so by the last query, for tests */
    uint64_t cver;              /* the overlay version the treps were made for (0: none) */
    nb_capability ccap;
    uint32_t csize;
    int no_repair;              /* 1: every edited tile cell by cell (tests compare the two) */
    int no_join;                /* a planted fault: R cells not joined to the portals there */
    nb_capability cap;
    uint32_t size;
} nbi_wedit;

int nbi_wedit_init(nbi_wedit *e, const nb_world *w);
void nbi_wedit_free(nbi_wedit *e);
size_t nbi_wedit_bytes(const nbi_wedit *e);
/* A query's start: the edited tiles of ov for an agent of (cap, size), no
 * R key, no tile pinned. */
void nbi_wedit_begin(nbi_wedit *e, const nb_world_overlay *ov, nb_capability cap, uint32_t size);
/* Unpins the tiles the query read. */
void nbi_wedit_end(nbi_wedit *e);
/* The edited tiles other than the ends' whose repaired clusters keep off their edges, made
 * repaired tiles and no longer dirty; -1 without memory. */
int nbi_wedit_repair(nbi_wedit *e, const nbi_wgraph *wg, uint32_t ts, uint32_t tg);
/* Tile t's repair, or NULL. */
static inline nbi_trep *nbi_wedit_trep(const nbi_wedit *e, uint32_t t)
{
    return e->ntrep && e->tslot[t] && e->trep[e->tslot[t] - 1].live ? &e->trep[e->tslot[t] - 1]
                                                                     : NULL;
}
static inline int nbi_wedit_dirty(const nbi_wedit *e, uint32_t tile)
{
    return e->ndirty && e->dirty[tile];
}
/* 1 when (x, y) is an R cell: in an edited tile or next to one. */
int nbi_wedit_in(const nbi_wedit *e, int32_t x, int32_t y);
/* The R key of cell c, made at the first ask; -1 without memory. */
long nbi_wedit_key(nbi_wedit *e, nb_cell c);
/* The move d from c on the edited grid under the corner rule: 1 legal, 0
 * not, -1 a cell it needs is in a tile not loaded (remembered as missing
 * with bound). */
int nbi_wedit_step(nbi_wedit *e, nb_cell c, unsigned d, int strict, double bound);

/* HAA* across a world's tiles for one (capability, size): its world
 * graph, and what a query keeps from one to the next. */
typedef struct nbi_whaa nbi_whaa;
/* The refined cells of stretches between two world graph nodes u -> v
 * (stretch_walks.c), kept by a world HAA* workspace: a table of (u, v) to
 * a run of cells.  At most NBI_WALKS_MAX_CELLS cells are held (4 MB); past
 * that the table is emptied and filled again in its memory. */
#define NBI_WALKS_MAX_CELLS ((size_t)1 << 19)
typedef struct nbi_walks {
    const nb_allocator *a;
    uint64_t *key;           /* per slot: (u << 32 | v) + 1, 0 when empty */
    uint32_t *off, *len;     /* per slot: its cells in cell[] */
    size_t slots, used;      /* slots a power of two, at most half used */
    nb_cell *cell;
    size_t cells, ccap;
} nbi_walks;

void nbi_walks_free(nbi_walks *k);
size_t nbi_walks_bytes(const nbi_walks *k);
void nbi_walks_clear(nbi_walks *k);
/* The cells kept for u -> v (*n of them), or NULL. */
const nb_cell *nbi_walks_find(const nbi_walks *k, uint32_t u, uint32_t v, size_t *n);
/* Keeps a copy of c[0..n) for u -> v (replacing one kept); 0 without memory. */
int nbi_walks_put(nbi_walks *k, uint32_t u, uint32_t v, const nb_cell *c, size_t n);

typedef struct nbi_whaa_result {
    int found;
    double length;          /* of the cell path, octile steps */
    double abstract_length; /* of the world graph's path */
    size_t path_len;        /* cells, both ends included */
    const nb_cell *path;    /* world cells, in the workspace */
    uint64_t expanded;      /* world graph nodes taken off the open list */
    size_t abstract_len;    /* its path's nodes, start and goal included */
    size_t tiles;           /* tiles its refinement read */
    int start_blocked, goal_blocked; /* the agent cannot stand at that end */
    int limit;              /* the search above the tiles stopped at max_expansions */
    int apart;              /* the ends in different world components: no search ran */
    size_t repaired;        /* edited tiles searched through their repaired graphs */
    size_t reused;          /* of them: kept from an earlier query, not repaired again */
    uint64_t joined;        /* of expanded: keys of those tiles' graphs (the rest world nodes and R cells) */
    /* The refinement: stretches refined by their tile's HAA*, those it searched above its
     * graph's own level (tiles baked with `levels`), the nodes its abstract searches expanded. */
    size_t stretches, stretches_above;
    uint64_t refine_expanded;
    size_t stretches_copied; /* of stretches: copied from the workspace's kept walks */
} nbi_whaa_result;

/* NB_ERR_NOTFOUND when the world bundle has no HAA* graph for (cap, size). */
nb_status nbi_whaa_new(const nb_world *w, nb_capability cap, uint32_t size, nbi_whaa **out,
                       nb_err *err);
void nbi_whaa_free(nbi_whaa *q);
/* 0: the queries to come end with the world graph's path (res->found and
 * abstract_length; no cell path, no tile read but the ends'): what the
 * search above the tiles costs alone (bench_world_haa).  1 (the default):
 * refined. */
void nbi_whaa_set_refine(nbi_whaa *q, int refine);
/* 1 (the default when the world bundle has them): the search above the
 * tiles bounds its nodes' distance to the goal by the world graph's
 * landmarks as well as by the octile distance; 0: the octile distance
 * alone (bench_world_haa compares the two). */
void nbi_whaa_set_landmarks(nbi_whaa *q, int use);
/* The most landmarks a query's heuristic reads (landmarks_active in
 * haa_world.c), 0 for the default; tests and benchmarks. */
#define NBI_WHAA_ACTIVE_LANDMARKS 8
void nbi_whaa_set_active_landmarks(nbi_whaa *q, uint32_t most);
int nbi_whaa_has_landmarks(const nbi_whaa *q);
/* 1 (the default when the world bundle has one): the search above the
 * tiles runs on the level of tile blocks away from the ends' blocks
 * (world_blocks); 0: on the world graph alone (tests and bench_world_haa
 * compare the two). */
void nbi_whaa_set_blocks(nbi_whaa *q, int use);
int nbi_whaa_has_blocks(const nbi_whaa *q);
/* A planted fault (tests): the level's arcs on the path taken as world
 * graph arcs, not walked again inside their blocks. */
void nbi_whaa_set_block_fault(nbi_whaa *q, int fault);
/* The flags of each tile's HAA* refining a stretch (NB_HAA_STRAIGHTEN, the
 * default, or 0), and the most nodes the search above the tiles may
 * expand (0, the default: no limit). */
void nbi_whaa_set_query(nbi_whaa *q, unsigned flags, uint64_t max_expansions);
/* What it holds now. */
size_t nbi_whaa_bytes(const nbi_whaa *q);
/* The bytes of the world graph and its landmarks that this workspace has
 * checked, so read: its tiles' nodes, and the arcs of those it expanded. */
size_t nbi_whaa_checked_bytes(const nbi_whaa *q);
/* The path from start to goal (world cells): NB_ERR_UNLOADED, with the tiles
 * needed (as nb_world_reachable), when the ends' tiles or those the path
 * crosses are not loaded and the world does not load them itself (a loader
 * and a budget: then they are loaded, and a failed load is the error); the
 * abstract search reads no tile. */
/* ov (NULL: none): cells blocked; the path is one of the edited grid. */
nb_status nbi_whaa_find(nbi_whaa *q, nb_cell start, nb_cell goal, const nb_world_overlay *ov,
                        nbi_whaa_result *res, nb_world_tile *needed, size_t needed_max,
                        size_t *needed_count, nb_err *err);
/* The same in three parts (nb_world_haa_begin/step/finish): begin reads
 * the ends' tiles and inserts the ends (NB_ERR_UNLOADED as find; nothing
 * kept: begin again), and leaves the search running when there is one to
 * run (nbi_whaa_running); search expands at most budget nodes of the
 * search above the tiles (res->expanded counts them all), reading no
 * tile but under an overlay the edited ones; end, once it has ended,
 * refines its path (NB_ERR_UNLOADED as find: end again once they are
 * loaded, or, when *redo, the search needs an edited tile: begin again).
 * abandon lets go of a search begun and not ended. */
nb_status nbi_whaa_begin(nbi_whaa *q, nb_cell start, nb_cell goal, const nb_world_overlay *ov,
                         nbi_whaa_result *res, nb_world_tile *needed, size_t needed_max,
                         size_t *needed_count, nb_err *err);
int nbi_whaa_running(const nbi_whaa *q);
nb_status nbi_whaa_search(nbi_whaa *q, uint64_t budget, nbi_whaa_result *res, nb_err *err);
nb_status nbi_whaa_end(nbi_whaa *q, nbi_whaa_result *res, nb_world_tile *needed,
                       size_t needed_max, size_t *needed_count, int *redo, nb_err *err);
void nbi_whaa_abandon(nbi_whaa *q);
/* Tests: cell_walk 1 walks every edited tile cell by cell (as before the repairs);
 * stale_rows 1 plants a fault, the repaired tiles' graphs not joined (the baked costs used
 * where the repair may change them);
 * no_join 1 another, the R cells of the tiles walked cell by cell (the ends') not joined to
 * the portals of their neighbours nor to the nodes of their repaired graphs. */
void nbi_whaa_set_faults(nbi_whaa *q, int cell_walk, int stale_rows, int no_join);
/* Tests: fresh 1 refines each stretch with a workspace opened for it and closed after (the way
 * before one workspace was re-bound to each tile), the reference the re-bound one is compared
 * with; search_ends 1 inserts a stretch's ends by a search over each one's cluster even where
 * the end is a node of the tile's graph (the way before node_ends, haa_ws.h). */
/* 1 (the default): a stretch between two world graph nodes refined once is
 * kept by the workspace and copied when met again (stretch_walks.c); 0:
 * every stretch refined by its tile's HAA*, the walks kept let go (tests,
 * bench_world_haa's NB_BENCH_WALKS=0). */
void nbi_whaa_set_walks(nbi_whaa *q, int keep);
void nbi_whaa_set_fresh_refiner(nbi_whaa *q, int fresh, int search_ends);
/* Ends inserted by the tiles' tables when they have them (1, the default),
 * or always by a Dijkstra over the tile's graph (0: tests and benchmarks
 * compare the two). */
void nbi_whaa_set_insert_table(nbi_whaa *q, int use);
/* The ends this workspace has inserted by a tile's table (tests). */
size_t nbi_whaa_tabled(const nbi_whaa *q);
/* An end's insertion alone (its tile loaded): the cost from c to each of
 * its tile's portals in the world graph's order into cost[] (-1: none),
 * *count of them.  full: the Dijkstra run to the last node by its heap
 * (nbi_tdijk_run) rather than by buckets and ended at the last portal
 * settled, and never by the tile's table (what the tests compare the
 * queries' against).  NB_ERR_UNLOADED
 * when the tile is not loaded, NB_ERR_NOTFOUND when the agent cannot
 * stand at c. */
nb_status nbi_whaa_insertion(nbi_whaa *q, nb_cell c, int full, double *cost, size_t max,
                             size_t *count, nb_err *err);

#endif
