/* repair.h: HAA*'s abstract graph repaired under an overlay (repair.c):
 * the clusters whose cells, or the facing lines of whose borders, the
 * overlay changes get their nodes, transitions and intra-edges again,
 * held by the overlay beside the read-only bundle.  Internal.
 *
 * A repair is the graph of quality "initial" for the clusters it holds
 * (every edge the construction finds; no dominance), which is what a fresh
 * bake of that quality gives there; a high-quality graph's repaired
 * clusters hold the edges its dominance would drop as well.  A low-quality
 * graph's repair holds the clusters beside the touched ones too (repair.c,
 * ring()): its circuit condition dropped inter-edges of their borders on
 * the strength of the touched clusters' insides.  Every other
 * cluster is the baked one: its cells and its borders' facing lines are
 * unchanged, so its nodes and edges are what a fresh bake would make.
 * A repaired cluster's arcs hold lengths, and costs for each of the
 * graph's cost profiles (the agent's least-cost paths in the cluster), so
 * that HAA* for an agent with terrain costs searches it as it searches the
 * baked graph with that profile's costs. */
#ifndef NB_REPAIR_H
#define NB_REPAIR_H

#include "abstract/abstract.h"
#include "clearance/costs.h"

struct nb_overlay;

/* An arc out of a repaired node. */
typedef struct nbi_rarc {
    uint32_t to; /* intra: the far node's number in the cluster; inter: the far cell, y * w + x */
    uint16_t card, diag;
    uint8_t cap, cv; /* the capability's index in the graph, the clearance */
    uint8_t inter;
} nbi_rarc;

/* A repaired cluster. */
typedef struct nbi_rcluster {
    uint32_t k;     /* the cluster; UINT32_MAX: a free record */
    uint32_t nn;    /* nodes */
    uint32_t *cell; /* their cells (y * width + x), ascending */
    uint32_t *first; /* nn + 1: the arcs of node i */
    nbi_rarc *arc;
    /* Per cost profile of the repair (nbi_repair's prof), per arc: its cost to the profile's
     * agent under the graph's corner rule, or -1 where it does not admit the agent. */
    double *pcost;
} nbi_rcluster;

/* A cost profile of the graph (an abstract_costs section), as the repair weighs arcs for it. */
typedef struct nbi_rprof {
    long section;   /* the costs section: how a query names its profile */
    uint32_t ci;    /* the profile's capability, as an index of the graph's */
    uint32_t size;
    nbi_costs costs;
} nbi_rprof;

typedef struct nbi_repair {
    const nb_allocator *a;
    nbi_agraph g;       /* the baked graph (a section of the bundle) */
    nbi_layer *layer;   /* clearance of each of its capabilities */
    uint32_t *sizes;    /* its served sizes */
    uint32_t top;       /* the largest: clearances are seen capped there */
    uint32_t per;       /* room for a repaired cluster's nodes: search keys per record */
    uint32_t ncl;       /* clusters */
    nbi_rprof *prof;    /* the graph's cost profiles whose capability it serves */
    size_t nprof;
    int serves;         /* 0: a graph it does not repair (layers missing) */
    int ring;           /* low quality: the clusters beside a touched one are repaired too */
    int ok;             /* 0: HAA* may not use it (it does not serve, or memory ran out) */
    uint32_t *slot;     /* per cluster: its record, or UINT32_MAX (NULL until a change) */
    uint8_t *pending;   /* per cluster: marked for the next flush */
    uint32_t *todo;
    size_t ntodo, todo_cap;
    nbi_rcluster *rec;  /* records; a free one has k == UINT32_MAX */
    size_t nrec, rcap, held;
    /* Scratch of a flush. */
    nbi_csearch cs;
    int cs_ok;
    uint8_t *lines;
    void *runs, *tr;
    uint32_t *node;
    uint16_t *local;
    void *arcs;         /* arcs found, each with its node */
    size_t arcs_cap;
    nb_cell *targets;
    uint8_t *stand; /* per combo and cell of the cluster: standable */
    uint32_t *group; /* per combo: the first with the same standable cells */
} nbi_repair;

/* A repair of graph g (viewed from the bundle), holding nothing yet;
 * 0 when out of memory.  r->ok is 0 for a graph it does not serve. */
int nbi_repair_init(nbi_repair *r, const nb_bundle *b, const nbi_agraph *g);
void nbi_repair_free(nbi_repair *r);
/* Holds nothing again. */
void nbi_repair_reset(nbi_repair *r);
/* A copy of src into dst (its scratch its own); 0 when out of memory. */
int nbi_repair_copy(nbi_repair *dst, const nbi_repair *src);
/* The overlay's limits may have changed in the cells x0 <= x < x1,
 * y0 <= y < y1: marks the clusters that may see it. */
void nbi_repair_mark(nbi_repair *r, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1);
/* Repairs the marked clusters under ov (or gives them back to the graph).
 * Out of memory: r->ok becomes 0 (HAA* then answers without it). */
void nbi_repair_flush(nbi_repair *r, const struct nb_overlay *ov);

/* The bytes it holds (beyond the struct). */
size_t nbi_repair_bytes(const nbi_repair *r);

/* Cluster k's repair, or NULL when the graph's own stands. */
static inline const nbi_rcluster *nbi_repair_at(const nbi_repair *r, uint32_t k)
{
    if (!r->slot || r->slot[k] == UINT32_MAX)
        return NULL;
    return &r->rec[r->slot[k]];
}
/* The number of the node at cell in c, or -1. */
long nbi_rcluster_node(const nbi_rcluster *c, uint32_t cell);
/* The baked graph's node at cell in cluster k, or -1. */
long nbi_agraph_node_at(const nbi_agraph *g, uint32_t k, uint32_t cell);

/* Search keys over a repaired graph: a baked node is its number, repaired node i of record
 * s is base + s * per + i (base: the baked nodes and whatever keys a search puts between).
 * Baked node v, or the node at its cell in its cluster's repair when the overlay repaired
 * that cluster (an inter-edge into it: the border stands as baked, so its cell is a node
 * there too); UINT32_MAX when there is none. */
static inline uint32_t nbi_repair_key(const nbi_agraph *g, const nbi_repair *rep, uint32_t base,
                                      uint32_t v)
{
    uint32_t x = nbi_u16at(g->node_xy, 2 * (size_t)v), y = nbi_u16at(g->node_xy, 2 * (size_t)v + 1);
    const nbi_rcluster *rc = nbi_repair_at(rep, nbi_node_cluster(g, x, y));
    if (!rc)
        return v;
    long i = nbi_rcluster_node(rc, y * g->width + x);
    return i < 0 ? UINT32_MAX : base + (uint32_t)(rc - rep->rec) * rep->per + (uint32_t)i;
}
/* The key of the node at cell (y * width + x), of the repair when it holds the cell's
 * cluster, else of the graph; UINT32_MAX when there is none. */
static inline uint32_t nbi_repair_key_at(const nbi_agraph *g, const nbi_repair *rep,
                                         uint32_t base, uint32_t cell)
{
    uint32_t k = nbi_node_cluster(g, cell % g->width, cell / g->width);
    const nbi_rcluster *rc = nbi_repair_at(rep, k);
    long i = rc ? nbi_rcluster_node(rc, cell) : nbi_agraph_node_at(g, k, cell);
    if (i < 0)
        return UINT32_MAX;
    return rc ? base + rep->slot[k] * rep->per + (uint32_t)i : (uint32_t)i;
}

#endif
