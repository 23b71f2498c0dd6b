/* abstract_build.h: the abstract graph while it is built, unit by unit.
 * Internal to the builder.
 *
 * The graph is made of units whose results depend only on a few others:
 * a border between two neighbouring clusters holds its entrances and
 * inter-edges (entrances.c), which depend on the clearance of its two
 * facing lines of cells; a cluster holds its nodes, the transition cells
 * its four borders made (build_graph.c), and its intra-edges, which depend
 * on its own cells (abstract_build.c).  Dominance works within a unit too
 * (dominance.c): on a node pair (which lies in one cluster or across one
 * border), through a third node of a cluster, and (low quality) on the
 * inter-edges of one border with the intra-edges of its two clusters.  So
 * the units run on threads (parallel/parallel.h), and an incremental bake
 * recomputes the units the changed cells reach and takes the others from
 * the old graph as they are (abstract_plan.c); abstract_write.c puts
 * the payload together cluster by cluster from either. */
#ifndef NB_ABSTRACT_BUILD_H
#define NB_ABSTRACT_BUILD_H

#include "abstract/abstract.h"
#include "abstract/alevels.h"
#include "abstract/cluster_dist.h"
#include "bake_int.h"
#include "parallel/parallel.h"

/* What dominance compares, shared by both kinds of edge. */
typedef struct ab_ann {
    uint8_t cap, cv;     /* capability index, clearance */
    uint8_t alive, mark; /* mark: scratch for dominance.c */
    uint16_t card, diag; /* weight: cardinal and diagonal steps */
} ab_ann;

/* An inter-edge: a transition of one capability on a border. */
typedef struct ab_inter {
    ab_ann h;
    uint32_t a, b; /* cells (y * width + x): a left of or above the border, b across it */
    uint32_t rank; /* lower is kept first among equals (low quality) */
} ab_inter;

/* An intra-edge between nodes i < j of a cluster (numbered in the order
 * its borders made them: the search runs from i). */
typedef struct ab_intra {
    ab_ann h;
    uint16_t i, j;
    uint32_t path; /* the cluster's stored path, or UINT32_MAX */
} ab_intra;

typedef struct ab_path {
    uint32_t off, len; /* steps, in the cluster's moves, from i to j */
} ab_path;

/* A unit is computed here (AB_NEW) or, in an incremental bake, kept from
 * the old graph (AB_KEEP: nothing in it is filled). */
enum { AB_KEEP = 0, AB_NEW = 1 };

typedef struct ab_border {
    ab_inter *e; /* in the order the scan made them */
    uint32_t n;
    uint8_t state;
    uint8_t final; /* dominance is computed here; else the alive flags are the old graph's */
    uint32_t entrances, strong, weak, circuit;
} ab_border;

typedef struct ab_cluster {
    uint8_t state;
    uint32_t nnodes;
    uint32_t *node;    /* cells, in the order the borders made them */
    uint16_t *bycell;  /* node numbers in increasing order of their cells */
    uint8_t *alive;    /* per node */
    ab_intra *e;       /* intra-edges */
    uint32_t ne;
    ab_path *path;
    uint32_t npaths;
    uint8_t *moves;    /* one move code a byte */
    uint32_t *adj_first, *adj; /* low quality: alive intra-edges by node (CSR) */
    /* Written: the alive nodes' cells in increasing order, and where the
     * cluster's nodes, arcs and path moves start in the payload. */
    uint32_t *cells;
    uint32_t nalive;
    uint64_t narcs, ninter_arcs, nnibbles;
    uint64_t first_node, first_arc, first_nibble;
    uint64_t old_nibble; /* AB_KEEP: the first nibble of its block in the old graph */
    uint8_t lead, trail; /* the halves of bytes shared with neighbouring blocks */
    /* What was done, for nbb_abstract_stats. */
    uint32_t searches, initial_edges, strong, weak, through, freed;
} ab_cluster;

/* One worker's scratch, reused from unit to unit. */
typedef struct ab_worker {
    nbb_arena arena; /* the units it computes live here */
    nbi_csearch cs;
    int cs_ok;
    nbb_cdist cd; /* the intra-edges' searches when no path is kept */
    int cd_ok;
    struct ab_combo *cb;
    struct ab_found *found;
    size_t nfound_cap;
    nb_cell *cells, *targets;
    uint16_t *local;   /* cell of the cluster box -> node number + 1, 0 for none */
    uint32_t *num;     /* a cluster's nodes, or their numbers, while they are made */
    size_t num_cap;
    ab_intra *e;
    size_t ecap;
    ab_path *path;
    size_t pcap;
    uint8_t *moves;
    size_t mcap;
    uint32_t *slot, *order; /* dominance.c */
    size_t slot_cap, order_cap;
    uint64_t *key;
    size_t key_cap;
    struct nbi_tr_run *runs; /* entrances.c */
    size_t runs_cap;
    struct nbi_transition *tr;
    size_t tr_cap;
    uint8_t *lines;         /* the facing lines' clearances */
    size_t lines_cap;
    struct ab_warc *arcs;   /* abstract_write.c */
    size_t arcs_cap;
    uint32_t *pmap;         /* abstract_write.c: a path's place in the block */
    size_t pmap_cap;
} ab_worker;

typedef struct nbb_ab {
    const nbb_abstract_opts *opt; /* resolved */
    uint32_t width, height, ncx, ncy, ncl;
    uint32_t ncaps, nsizes;
    nb_capability caps[NB_MAX_AGENTS];
    uint32_t sizes[NB_MAX_AGENTS];
    const nbi_layer *layer; /* clearance of each capability */
    unsigned threads;
    ab_border *border;      /* 2 x ncl: [2k] right of cluster k, [2k + 1] below it */
    ab_cluster *cl;
    ab_worker *w;           /* threads */
    const nbi_agraph *old;  /* an incremental bake's old graph, or NULL */
    nbb_abstract_stats *stats;
} nbb_ab;

/* The borders of cluster k: right, below, left (the right border of the
 * cluster on its left), above; NULL where the map ends. */
static inline ab_border *nbb_ab_right(const nbb_ab *ab, uint32_t k)
{
    return k % ab->ncx + 1 < ab->ncx ? &ab->border[2 * (size_t)k] : NULL;
}
static inline ab_border *nbb_ab_below(const nbb_ab *ab, uint32_t k)
{
    return k / ab->ncx + 1 < ab->ncy ? &ab->border[2 * (size_t)k + 1] : NULL;
}
static inline ab_border *nbb_ab_left(const nbb_ab *ab, uint32_t k)
{
    return k % ab->ncx ? &ab->border[2 * (size_t)(k - 1)] : NULL;
}
static inline ab_border *nbb_ab_above(const nbb_ab *ab, uint32_t k)
{
    return k >= ab->ncx ? &ab->border[2 * (size_t)(k - ab->ncx) + 1] : NULL;
}
/* The cluster of a cell. */
static inline uint32_t nbb_ab_cluster_of(const nbb_ab *ab, uint32_t cell)
{
    uint32_t x = cell % ab->width, y = cell / ab->width, n = ab->opt->cluster;
    return (y / n) * ab->ncx + x / n;
}
/* 1 when capability index a is a subset of capability index b. */
static inline int nbb_ab_subset(const nbb_ab *ab, unsigned a, unsigned b)
{
    return (ab->caps[a] & ~ab->caps[b]) == 0;
}
/* The number of the node at cell in cluster c, or -1. */
long nbb_ab_node_at(const ab_cluster *c, uint32_t cell);

/* entrances.c: the entrances and transitions of border bi (and its
 * parallel dominance), into the worker's arena. */
nb_status nbb_ab_scan_border(nbb_ab *ab, uint32_t bi, ab_worker *w, nb_err *err);
/* build_graph.c: the nodes of cluster k from its borders, into the
 * worker's arena (its borders scanned). */
nb_status nbb_ab_cluster_nodes(nbb_ab *ab, uint32_t k, ab_worker *w, nb_err *err);
/* abstract_build.c: the intra-edges of cluster k (its nodes made), with
 * their dominance as far as the cluster alone decides it. */
nb_status nbb_ab_cluster_edges(nbb_ab *ab, uint32_t k, ab_worker *w, nb_err *err);

/* dominance.c */
/* Parallel edges (one node pair): Theorem 6, or its weak form. */
void nbb_ab_parallel(const nbb_ab *ab, ab_ann **group, size_t n, int weak, uint32_t *dropped);
/* The parallel rule over a border's inter-edges. */
nb_status nbb_ab_border_parallel(nbb_ab *ab, ab_border *bd, ab_worker *w, nb_err *err);
/* A cluster's intra-edges (in w->e, w->... before they are kept): the
 * parallel rule, and through a node when the cluster decides it alone
 * (high quality); low quality: the adjacency the circuit condition needs. */
nb_status nbb_ab_cluster_dominance(nbb_ab *ab, ab_cluster *c, ab_worker *w, nb_err *err);
/* Low quality: the alive intra-edges of a cluster by node, which the
 * circuit condition looks through (after the cluster's edges are kept). */
nb_status nbb_ab_cluster_adjacency(nbb_ab *ab, ab_cluster *c, ab_worker *w, nb_err *err);
/* Low quality: Theorem 7 on the inter-edges of border bi (between
 * clusters whose intra-edges are made). */
nb_status nbb_ab_circuit(nbb_ab *ab, uint32_t bi, ab_worker *w, nb_err *err);
/* Low quality: Corollary 8 for cluster k (its borders final), then the
 * through-node rule. */
nb_status nbb_ab_free_nodes(nbb_ab *ab, uint32_t k, ab_worker *w, nb_err *err);
/* Theorem 6 through a node over a cluster's alive intra-edges. */
nb_status nbb_ab_through(nbb_ab *ab, ab_cluster *c, ab_worker *w, nb_err *err);

/* Which units a bake computes: borders to scan, clusters to build, and
 * (low quality) borders whose circuit condition is decided here. */
typedef struct nbb_ab_plan {
    uint32_t *scan, *build, *circuit;
    size_t nscan, nbuild, ncircuit;
} nbb_ab_plan;
/* abstract_plan.c: every unit (a whole bake). */
nb_status nbb_ab_plan_all(nbb_ab *ab, nbb_ab_plan *plan, nb_err *err);
/* abstract_plan.c: the units that cells whose clearance changed reach
 * (changed[0..n) in any order); the others are kept from ab->old. */
nb_status nbb_ab_plan_changes(nbb_ab *ab, const uint32_t *changed, size_t n, nbb_ab_plan *plan,
                              nb_err *err);
void nbb_ab_plan_free(nbb_ab_plan *plan);
/* abstract_plan.c: a scanned border whose dominance the old graph
 * decided (low quality, beyond the clusters that changed): each
 * inter-edge is alive when the old graph has it. */
nb_status nbb_ab_old_alive(nbb_ab *ab, uint32_t bi, nb_err *err);
/* abstract_build.c: o with its placement resolved, or NB_ERR_ARG naming
 * what is wrong with it. */
nb_status nbb_ab_check_opts(const nbb_abstract_opts *o, nbb_abstract_opts *resolved, nb_err *err);
/* abstract_build.c: runs a plan and writes the payload. */
nb_status nbb_ab_run(nbb_ab *ab, const nbb_ab_plan *plan, uint8_t **payload, size_t *len,
                     nb_err *err);

/* abstract_write.c: the payload of formats/abstract.md, cluster by cluster
 * (AB_KEEP clusters copied from ab->old). */
nb_status nbb_ab_write(nbb_ab *ab, uint8_t **payload, size_t *len, nb_err *err);

/* Room for need elements of size bytes in a worker's scratch array. */
int nbb_ab_room(void **array, size_t *cap, size_t need, size_t size);

/* ---- the levels' landmarks (landmarks_build.c) ---- */

/* Chooses nl landmarks on L's top level (built: its arrays readable) as
 * section version `version` of formats/abstract.md chooses them (2, the
 * bake's: the map's corners first; 1: every one a node, farthest first, as
 * the bake chose before; verify --deep bakes a version-1 section's again)
 * and writes their nodes (u32[nl]) to node and every node's distances from
 * them (u32[nnodes][nl][2]: card, diag) to dist, as that page lays them
 * out. */
nb_status nbb_landmarks_build(const nbi_alevels *L, uint32_t nl, unsigned version, uint8_t *node,
                              uint8_t *dist, nb_err *err);

#endif
