/* abstract_build.h: the abstract graph while it is being built, shared by
 * abstract.c (the driver and intra-edges), entrances.c, dominance.c and
 * abstract_write.c.  Internal to the builder. */
#ifndef NB_ABSTRACT_BUILD_H
#define NB_ABSTRACT_BUILD_H

#include "abstract/abstract.h"
#include "bake_int.h"

typedef struct bnode {
    int32_t x, y;
    uint32_t cluster;
    uint32_t final; /* id in the written graph, or UINT32_MAX when dropped */
    int alive;
} bnode;

typedef struct bedge {
    uint32_t u, v;     /* inter-edges: u on the left or top side */
    uint8_t cap, cv;   /* capability index, clearance */
    uint16_t card, diag;
    uint8_t inter, alive;
    uint8_t mark;      /* scratch for dominance.c */
    uint32_t path;     /* stored path id, or UINT32_MAX */
    uint32_t rank;     /* inter-edges: lower is kept first among equals */
} bedge;

typedef struct bpath {
    uint64_t off;  /* into moves */
    uint32_t len;  /* steps, from the edge's u to its v */
} bpath;

typedef struct nbb_agraph_build {
    const nbb_abstract_opts *opt;
    uint32_t width, height, ncx, ncy;
    uint32_t ncaps, nsizes;
    nb_capability caps[NB_MAX_AGENTS];
    uint32_t sizes[NB_MAX_AGENTS];
    nbi_layer layer[NB_MAX_AGENTS]; /* clearance of each capability */
    int32_t *cell_node;             /* width * height: node id, or -1 */
    bnode *node;
    size_t nnodes, node_cap;
    bedge *edge;
    size_t nedges, edge_cap;
    bpath *path;
    size_t npaths, path_cap;
    uint8_t *moves; /* one move code a byte while building */
    uint64_t nmoves, moves_cap;
    nbb_abstract_stats *stats;
} nbb_agraph_build;

/* The node at (x, y), made if new; UINT32_MAX when out of memory. */
uint32_t nbb_ab_node(nbb_agraph_build *ab, int32_t x, int32_t y);
/* Appends an edge; 0 when out of memory. */
int nbb_ab_edge(nbb_agraph_build *ab, const bedge *e);
/* 1 when capability index a is a subset of capability index b. */
static inline int nbb_ab_subset(const nbb_agraph_build *ab, unsigned a, unsigned b)
{
    return (ab->caps[a] & ~ab->caps[b]) == 0;
}

/* entrances.c: every entrance of every capability on every border
 * between neighbouring clusters, with its transition points. */
nb_status nbb_ab_entrances(nbb_agraph_build *ab, nb_err *err);
/* dominance.c: drops what the quality asks (Theorem 6, or Theorem 7 and
 * Corollary 8). */
nb_status nbb_ab_dominance(nbb_agraph_build *ab, nb_err *err);
/* abstract_write.c: the payload of formats/abstract.md. */
nb_status nbb_ab_write(nbb_agraph_build *ab, uint8_t **payload, size_t *len, nb_err *err);

#endif
