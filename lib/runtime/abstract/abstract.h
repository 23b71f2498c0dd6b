/* abstract.h: the HAA* abstract graph (Harabor and Botea, CIG 2008,
 * sections VI-VIII), shared by the builder (abstract.c, entrances.c,
 * dominance.c, abstract_write.c) and the runtime (abstract_view.c,
 * cluster_search.c, haa.c).  Internal; the section layout is specified in
 * formats/abstract.md. */
#ifndef NB_ABSTRACT_H
#define NB_ABSTRACT_H

#include "clearance/clearance.h"
#include "core/heap.h"

#define NBI_ABSTRACT_VERSION 1
#define NBI_ABSTRACT_HEADER 64
#define NBI_CLUSTER_MAX 255   /* cluster side: a path inside one fits u16 step counts */
#define NBI_NO_PATH UINT32_MAX /* arc_path of an inter-edge */

/* Graph qualities (param[1] of the section). */
enum nbi_quality {
    NBI_QUALITY_INITIAL = 0, /* every edge the construction finds */
    NBI_QUALITY_HIGH = 1,    /* strongly dominated edges dropped (Theorem 6) */
    NBI_QUALITY_LOW = 2      /* weak dominance, circuit condition, node removal (Thm 7, Cor 8) */
};

/* Where an entrance gets its transition points. */
enum nbi_placement {
    NBI_PLACE_FIRST = 0,  /* the paper's: the first pair of maximal clearance */
    NBI_PLACE_MIDDLE = 1, /* the middle of the run each served size may use */
    NBI_PLACE_SPREAD = 2, /* evenly spread over that run, one per `spread` cells */
    NBI_PLACE_ENDS = 3,   /* long runs: both ends and evenly between (after HPA*) */
    NBI_PLACE_AUTO = 255  /* options only: ends for high quality, first for low */
};
#define NBI_SPREAD_DEFAULT 8

/* Corner rules, numbered as nb_corner. */
#define NBI_CORNER_STRICT 0
#define NBI_CORNER_WEAK 1

/* The eight moves: cardinal first.  A stored path is one 4-bit move code
 * per step. */
extern const int8_t nbi_move_dx[8], nbi_move_dy[8];
extern const uint8_t nbi_move_opposite[8]; /* the move back */
#define NBI_SQRT2 1.41421356237309504880

/* A rectangle of cells x0 <= x < x1, y0 <= y < y1 (a cluster). */
typedef struct nbi_box {
    int32_t x0, y0, x1, y1;
} nbi_box;

/* ---- the section, decoded in place (abstract_view.c) ---- */

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

#define NBI_AGRAPH_PATHS 0x1u /* flags: refined paths stored */

static inline uint32_t nbi_u32at(const uint8_t *a, size_t i) { return nbi_get32(a + 4 * i); }
static inline uint16_t nbi_u16at(const uint8_t *a, size_t i) { return nbi_get16(a + 2 * i); }
/* The steps of arc a: cardinal plus diagonal. */
static inline uint32_t nbi_agraph_arc_steps(const nbi_agraph *g, size_t a)
{
    return (uint32_t)nbi_u16at(g->arc_w, 2 * a) + nbi_u16at(g->arc_w, 2 * a + 1);
}

/* Checks a payload against formats/abstract.md (every count, offset,
 * index and annotation) and fills g.  The map size must be the bundle's. */
nb_status nbi_agraph_view(const uint8_t *p, size_t len, uint32_t width, uint32_t height,
                          nbi_agraph *g, nb_err *err);
/* The same for the bundle's abstract section (the first one). */
nb_status nbi_agraph_find(const nb_bundle *b, nbi_agraph *g, nb_err *err);
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
/* "high", "low", "initial"; "first", "middle", "spread". */
const char *nbi_quality_name(uint32_t q);
const char *nbi_placement_name(uint32_t p);

static inline double nbi_arc_weight(const nbi_agraph *g, size_t a)
{
    return nbi_u16at(g->arc_w, 2 * a) + NBI_SQRT2 * nbi_u16at(g->arc_w, 2 * a + 1);
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

/* ---- search inside one cluster (cluster_search.c) ---- */

/* Dijkstra or A* over the cells of a box where an agent of size s may
 * stand (clearance >= s in a layer), the agent's top-left cell kept in the
 * box: the searches that build intra-edges, insert start and goal, and
 * refine abstract edges.  Arrays are sized once for the largest box;
 * searches reuse them through a stamp, so a search never allocates. */
typedef struct nbi_csearch {
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
} nbi_csearch;

/* For boxes of up to maxw x maxh cells. */
int nbi_csearch_init(nbi_csearch *cs, uint32_t maxw, uint32_t maxh);
void nbi_csearch_free(nbi_csearch *cs);

/* Searches from start (which must be standable and in the box).  With
 * goal, A* with the octile heuristic, stopping when goal is settled.
 * Without, Dijkstra, stopping once every one of the ntargets cells is
 * settled (all of the reachable box when ntargets is 0).  Returns 1 when
 * the goal (or every target) was settled. */
int nbi_csearch_run(nbi_csearch *cs, const nbi_layer *l, uint32_t size, int corner,
                    const nbi_box *box, nb_cell start, const nb_cell *goal, const nb_cell *targets,
                    size_t ntargets);
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

/* The move code from a to b, neighbours; -1 otherwise. */
int nbi_move_code(nb_cell a, nb_cell b);

/* ---- queries (haa.c) ---- */

/* nb_haa_new for a graph already viewed (tests and benchmarks build one
 * in memory); bytes is its payload's length. */
nb_status nbi_haa_new_graph(const nb_bundle *b, const nbi_agraph *g, size_t bytes, nb_haa **out,
                            nb_err *err);

/* ---- smoothing for a square agent (square_smooth.c) ---- */

/* 1 when an agent of this size whose top-left corner slides straight
 * from a to b overlaps only cells of clearance >= 1 in l (terrains of its
 * capability, inside the map). */
int nbi_square_walkable(const nbi_layer *l, uint32_t size, nb_cell a, nb_cell b);
/* Seed 004's simple smoothing of p[0..n) in place; returns the count of
 * waypoints kept (the ends always are). */
size_t nbi_square_smooth(const nbi_layer *l, uint32_t size, nb_cell *p, size_t n);
/* Straightens the cell path p[0..n) in place: greedily, as the smoothing
 * does, each run of cells is replaced by the octile walk nearest the
 * straight line between its ends wherever that walk is valid for the
 * agent (standable cells, corner rule).  The result is a cell path no
 * longer than p; returns its count. */
size_t nbi_straighten(const nbi_layer *l, uint32_t size, int corner, nb_cell *p, size_t n);
/* Sum of the straight segments' lengths. */
double nbi_polyline_length(const nb_cell *p, size_t n);

/* ---- building (abstract.c, entrances.c, dominance.c, abstract_write.c) ---- */

typedef struct nbb_abstract_opts {
    uint32_t cluster;   /* side of a cluster, 1 to NBI_CLUSTER_MAX */
    uint32_t quality;   /* enum nbi_quality */
    uint32_t placement; /* enum nbi_placement */
    uint32_t spread;    /* cells per transition with NBI_PLACE_SPREAD */
    uint32_t corner;    /* NBI_CORNER_*: the rule the intra-edge weights follow */
    int paths;          /* store each intra-edge's cell path */
    int through;        /* also drop intra-edges two others replace through a node,
                           at the same cost (Theorem 6 through a node) */
} nbb_abstract_opts;

/* The defaults mkabstract uses. */
void nbb_abstract_defaults(nbb_abstract_opts *o);
/* Replaces NBI_PLACE_AUTO by the placement it stands for at o's quality. */
void nbb_abstract_resolve(nbb_abstract_opts *o);

typedef struct nbb_abstract_stats {
    uint64_t entrances, searches;
    uint64_t nodes, edges, inter, intra;   /* in the graph written */
    uint64_t initial_nodes, initial_edges; /* before any dominance */
    uint64_t strong, weak, circuit;        /* edges dropped by each rule */
    uint64_t through;                      /* intra-edges replaced through a node */
    uint64_t freed_nodes;                  /* nodes dropped by Corollary 8 */
    uint64_t path_bytes;                   /* what the stored paths add to the payload */
    uint64_t bytes;                        /* the payload */
} nbb_abstract_stats;

/* Builds the abstract graph of the bundle's map for every (capability,
 * size) of its agent set, from its clearance layers, as a section payload
 * (malloc'ed, *len bytes).  stats may be NULL. */
nb_status nbb_abstract_build(const nb_bundle *b, const nbb_abstract_opts *o, uint8_t **payload,
                             size_t *len, nbb_abstract_stats *stats, nb_err *err);

/* The section table entry for such a payload (type, version, parameters). */
void nbb_abstract_info(const uint8_t *payload, nb_section_info *info);

#endif
