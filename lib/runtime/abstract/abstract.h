/* abstract.h: the HAA* abstract graph (Harabor and Botea, CIG 2008,
 * sections VI-VIII) in the runtime: the checked view of its section
 * (agraph.c), searches inside one cluster (cluster_search.c), HAA*'s
 * queries (haa.c) and smoothing (square_smooth.c).  The bake side
 * (bake/abstract) builds the graph with the same cluster searches.
 * Internal; the section layout is specified in formats/abstract.md. */
#ifndef NB_ABSTRACT_H
#define NB_ABSTRACT_H

#include "clearance/clearance.h"
#include "core/grid.h"
#include "core/heap.h"

/* Corner rules, numbered as nb_corner (the section's header word). */
#define NBI_CORNER_STRICT 0
#define NBI_CORNER_WEAK 1

/* A rectangle of cells x0 <= x < x1, y0 <= y < y1 (a cluster). */
typedef struct nbi_box {
    int32_t x0, y0, x1, y1;
} nbi_box;

/* ---- the section, decoded in place (agraph.c) ---- */

typedef struct nbi_agraph {
    uint32_t width, height, cluster, quality, corner, placement, spread;
    uint32_t ncaps, nsizes, ncx, ncy, nnodes, nedges, ninter, flags;
    uint32_t path_bytes;
    const uint8_t *caps;          /* u32[ncaps] capability masks */
    const uint8_t *sizes;         /* u32[nsizes], ascending */
    const uint8_t *cluster_first; /* u32[ncx * ncy + 1]: nodes of cluster k */
    const uint8_t *node_xy;       /* u16[2 * nnodes] */
    const uint8_t *node_first;    /* u32[nnodes + 1]: arcs of node u */
    const uint8_t *arc_to;        /* u32[narcs] */
    const uint8_t *arc_w;         /* u16[2 * narcs]: cardinal and diagonal steps */
    const uint8_t *arc_ann;       /* u8[2 * narcs]: capability index, clearance */
    const uint8_t *arc_path;      /* u32[narcs] or NULL: nibble offset of the stored path */
    const uint8_t *moves;         /* path_bytes of 4-bit move codes */
    long section;                 /* its index in the bundle, or -1 */
} nbi_agraph;

/* The steps of arc a: cardinal plus diagonal. */
static inline uint32_t nbi_agraph_arc_steps(const nbi_agraph *g, size_t a)
{
    return (uint32_t)nbi_u16at(g->arc_w, 2 * a) + nbi_u16at(g->arc_w, 2 * a + 1);
}

/* Checks a payload against formats/abstract.md (every count, offset,
 * index and annotation) and fills g.  The map size must be the bundle's. */
nb_status nbi_agraph_view(const uint8_t *p, size_t len, uint32_t width, uint32_t height,
                          nbi_agraph *g, nb_err *err);
/* The same for the bundle's abstract section (the first one), or for the
 * one at index. */
nb_status nbi_agraph_find(const nb_bundle *b, nbi_agraph *g, nb_err *err);
nb_status nbi_agraph_at(const nb_bundle *b, size_t index, nbi_agraph *g, nb_err *err);
/* nbi_agraph_at's checks alone: the registry's structural check. */
nb_status nbi_abstract_section_check(const nb_bundle *b, size_t index, nb_err *err);
/* The graph that section index (its costs or levels) was baked on, checked;
 * NB_ERR_FORMAT when the bundle has none. */
nb_status nbi_agraph_under(const nb_bundle *b, size_t index, nbi_agraph *g, nb_err *err);
/* The cells of intra-edge arc a's stored path from its node u to its
 * other end v (g->arc_path set), into out (room for the arc's steps + 1);
 * returns the count.  Paths are stored from the lower node id: read
 * backwards, each move reversed, when u is the higher. */
size_t nbi_agraph_arc_cells(const nbi_agraph *g, size_t a, uint32_t u, uint32_t v, nb_cell *out);
/* Offsets of the arrays of a payload with these counts, in the order of
 * formats/abstract.md (caps, sizes, cluster index, node cells, adjacency
 * index, arc targets, weights, annotations, path offsets, moves); off[10]
 * is the payload's length. */
void nbi_agraph_layout(uint32_t ncaps, uint32_t nsizes, uint64_t nclusters, uint64_t nnodes,
                       uint64_t nedges, int paths, uint64_t path_bytes, uint64_t off[11]);
/* Bytes of a payload with these counts. */
uint64_t nbi_agraph_bytes(uint32_t ncaps, uint32_t nsizes, uint64_t nclusters, uint64_t nnodes,
                          uint64_t nedges, int paths, uint64_t path_bytes);
/* "high", "low", "initial"; "first", "middle", "spread", "ends"; NULL for
 * another code. */
const char *nbi_quality_name(uint32_t q);
const char *nbi_placement_name(uint32_t p);

static inline double nbi_arc_weight(const nbi_agraph *g, size_t a)
{
    return nbi_steps_length(nbi_u16at(g->arc_w, 2 * a), nbi_u16at(g->arc_w, 2 * a + 1));
}
static inline uint32_t nbi_node_cluster(const nbi_agraph *g, uint32_t x, uint32_t y)
{
    return (y / g->cluster) * g->ncx + x / g->cluster;
}
static inline nbi_box nbi_cluster_box(uint32_t k, uint32_t ncx, uint32_t n, uint32_t w, uint32_t h)
{
    nbi_box b;
    b.x0 = (int32_t)((k % ncx) * n);
    b.y0 = (int32_t)((k / ncx) * n);
    b.x1 = (int32_t)(b.x0 + n > w ? w : b.x0 + n);
    b.y1 = (int32_t)(b.y0 + n > h ? h : b.y0 + n);
    return b;
}

/* 1 when arc a admits an agent of capability cap and size: the arc's
 * capability within cap, its clearance at least size. */
static inline int nbi_agraph_admits(const nbi_agraph *g, size_t a, nb_capability cap, uint32_t size)
{
    const uint8_t *ann = g->arc_ann + 2 * a;
    return (nbi_u32at(g->caps, ann[0]) & ~cap) == 0 && ann[1] >= size;
}
/* The index of capability cap among the graph's, or -1. */
long nbi_agraph_cap_index(const nbi_agraph *g, nb_capability cap);
/* CRC-32 of the graph's payload (g made by nbi_agraph_at): what a costs
 * section names its graph by. */
uint32_t nbi_agraph_crc(const nb_bundle *b, const nbi_agraph *g);

/* ---- the graph's costs for one terrain-cost profile (acosts.c) ---- */

/* A cost may lie below the octile distance times the least multiplier by
 * this share: the two are sums of the same terms in other orders. */
#define NBI_ACOSTS_SLACK 1e-9

typedef struct nbi_acosts {
    nb_capability cap;          /* the profile: capability, size, multipliers */
    uint32_t size;
    double cost[NB_MAX_TERRAINS]; /* per terrain; 1 for those outside cap */
    double least;               /* the least multiplier of cap's terrains */
    uint32_t graph_crc, index;
    const uint8_t *arc_cost;    /* f64 per arc of the graph; 0 where it does not admit the agent */
    long section;
} nbi_acosts;

/* Checks section index against formats/abstract.md and the bundle's
 * graph g (once per bundle: the graph it names, every arc's cost) and
 * fills c. */
nb_status nbi_acosts_at(const nb_bundle *b, size_t index, const nbi_agraph *g, nbi_acosts *c,
                        nb_err *err);
/* The registry's structural check of the costs at index: the same checks,
 * against the bundle's graph. */
nb_status nbi_acosts_section_check(const nb_bundle *b, size_t index, nb_err *err);
/* Bytes of a payload for these counts. */
uint64_t nbi_acosts_bytes(uint32_t nterrains, uint64_t narcs);
static inline double nbi_acosts_arc(const nbi_acosts *c, size_t a)
{
    return nbi_getf64(c->arc_cost + 8 * a);
}

/* ---- search inside one cluster (cluster_search.c) ---- */

/* Dijkstra or A* over the cells of a box where an agent of size s may
 * stand (clearance >= s in a layer), the agent's top-left cell kept in the
 * box: the searches that build intra-edges, insert start and goal, and
 * refine abstract edges.  Arrays are sized once for the largest box;
 * searches reuse them through a stamp, so a search never allocates. */
typedef struct nbi_csearch {
    const nb_allocator *a;
    uint32_t maxcells;   /* (width + 2) x (height + 2) of the largest box */
    double *g;
    uint32_t *parent;    /* number of the predecessor */
    uint16_t *diag;      /* diagonal steps on the best path found */
    uint32_t *seen;      /* == stamp: g, parent, diag are this search's */
    uint32_t *closed;    /* == stamp: settled */
    uint32_t *target;    /* == stamp: a cell the search must settle */
    uint32_t *memo;      /* stamp * 2 + 1 when standable, stamp * 2 when not */
    uint32_t *hpos;      /* place in the open list, or NBI_HEAP_NONE */
    struct nbi_cs_item *open; /* the open list: a binary heap */
    uint32_t nopen;
    uint32_t stamp;
    nbi_box box;
    uint32_t w2;         /* box width + 2 */
    uint64_t expanded;   /* of the last search */
    uint64_t budget;     /* a search gives up after this many expansions (0: never) */
    const struct nb_overlay *ov; /* cells blocked at run time too (NULL: none); kept by start */
    /* The search under way (start, step). */
    const nbi_layer *layer;
    uint32_t size, goal_i;
    int strict, has_goal, all;
    nb_cell goal;
    size_t left;         /* goal or targets not settled yet */
    int end;             /* NBI_CS_* */
    /* Terrain costs (NULL: none), kept from search to search: a move costs
     * its length times the multiplier of the cell it enters, or with
     * cost_rev (a search from the goal, whose g is the cost to it) of the
     * cell it leaves toward the search's start. */
    const struct nbi_costs *costs;
    int cost_rev;
} nbi_csearch;

enum { NBI_CS_RUNNING = 0, NBI_CS_FOUND, NBI_CS_FAILED };

/* Sets the terrain costs of the searches to come (NULL: none; or costs
 * whose weighted is 1). */
void nbi_csearch_costs(nbi_csearch *cs, const struct nbi_costs *costs, int reverse);

/* For boxes of up to maxw x maxh cells, allocating with a (NULL: the C
 * library's). */
int nbi_csearch_init(nbi_csearch *cs, const nb_allocator *a, uint32_t maxw, uint32_t maxh);
void nbi_csearch_free(nbi_csearch *cs);

/* Searches from start (which must be standable and in the box).  With
 * goal, A* with the octile heuristic, stopping when goal is settled.
 * Without, Dijkstra, stopping once every one of the ntargets cells is
 * settled (all of the reachable box when ntargets is 0).  Returns 1 when
 * the goal (or every target) was settled. */
int nbi_csearch_run(nbi_csearch *cs, const nbi_layer *l, uint32_t size, int corner,
                    const nbi_box *box, nb_cell start, const nb_cell *goal, const nb_cell *targets,
                    size_t ntargets);
/* The same in slices: start sets the search up (targets are read here, not
 * kept); step expands at most budget cells and returns 1 once the search
 * has ended, cs->end then saying how (NBI_CS_FOUND: the goal or every
 * target settled). */
void nbi_csearch_start(nbi_csearch *cs, const nbi_layer *l, uint32_t size, int corner,
                       const nbi_box *box, nb_cell start, const nb_cell *goal,
                       const nb_cell *targets, size_t ntargets);
int nbi_csearch_step(nbi_csearch *cs, uint64_t budget);
/* Another start at cost 0 for a search begun without a goal (a Dijkstra
 * from several cells: the distance to the nearest of them), before its
 * first step; c standable and in the box. */
void nbi_csearch_also(nbi_csearch *cs, nb_cell c);
/* The bytes of its arrays. */
size_t nbi_csearch_bytes(const nbi_csearch *cs);
/* The cost from start to c (in the box), or -1 when the last search did
 * not settle it; *diag gets its diagonal steps when not NULL. */
double nbi_csearch_cost(const nbi_csearch *cs, nb_cell c, uint32_t *diag);
/* The path from start to c, start first, into out (room for the box's
 * cells); returns its cell count (0 when c was not settled). */
size_t nbi_csearch_path(const nbi_csearch *cs, nb_cell c, nb_cell *out);

/* 1 when the agent may stand at (x, y): in the layer's map, clearance >= size. */
static inline int nbi_standable(const nbi_layer *l, uint32_t size, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && (uint32_t)x < l->width && (uint32_t)y < l->height &&
           nbi_layer_get(l, (uint64_t)y * l->width + (uint32_t)x) >= size;
}

/* ---- queries (haa.c) ---- */

/* nb_haa_new for a graph already viewed (tests and benchmarks build one
 * in memory); bytes is its payload's length. */
nb_status nbi_haa_new_graph(const nb_bundle *b, const nbi_agraph *g, size_t bytes, nb_haa **out,
                            nb_err *err);
/* nb_haa_open allocating with a, which outlives the workspace (b's own may not: a world's
 * tile, haa_rebind.c). */
nb_status nbi_haa_open_alloc(const nb_bundle *b, const nb_allocator *a, nb_haa **out, nb_err *err);
/* The workspace moved to bundle b (haa_rebind.c), keeping what it holds for queries: NB_OK
 * (nothing done when it is bound to b already); NB_ERR_ARG, the workspace left as it was, when
 * b's graph differs in shape (clusters, capabilities, sizes: open another); b's own
 * errors as nb_haa_open gives them, after which the workspace serves no query until re-bound
 * (close it).  A bundle freed and another made at its address is another bundle: a caller that
 * cannot tell re-binds to NULL first (nbi_haa_unbind). */
nb_status nbi_haa_rebind(nb_haa *ws, const nb_bundle *b, nb_err *err);
/* What the workspace borrowed from its bundle given back (while the bundle still lives), and
 * the workspace bound to none: the next nbi_haa_rebind reads its bundle whatever its address. */
void nbi_haa_unbind(nb_haa *ws);

/* ---- smoothing for a square agent (square_smooth.c) ---- */

/* 1 when an agent of this size whose top-left corner slides straight
 * from a to b overlaps only cells of clearance >= 1 in l (terrains of its
 * capability, inside the map) that the overlay ov (NULL: none) does not
 * block; the same overlay argument in the two below. */
int nbi_square_walkable(const nbi_layer *l, const nb_overlay *ov, uint32_t size, nb_cell a,
                        nb_cell b);
/* Seed 004's simple smoothing of p[0..n) in place; returns the count of
 * waypoints kept (the ends always are). */
size_t nbi_square_smooth(const nbi_layer *l, const nb_overlay *ov, uint32_t size, nb_cell *p,
                         size_t n);
/* Straightens the cell path p[0..n) in place: from each anchor, the
 * farthest cell of p found by galloping then halving to which the octile
 * walk nearest the straight line is valid for the agent (standable cells,
 * corner rule) replaces the run of cells up to it, and becomes the next
 * anchor.  The result is a cell path no longer than p; returns its count. */
size_t nbi_straighten(const nbi_layer *l, const nb_overlay *ov, uint32_t size, int corner,
                      nb_cell *p, size_t n);
/* Sum of the straight segments' lengths. */
double nbi_polyline_length(const nb_cell *p, size_t n);

#endif
