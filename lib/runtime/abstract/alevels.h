/* alevels.h: the abstract graph's higher levels (formats/abstract.md,
 * section type 34), clusters of clusters after HPA* (Botea, Mueller and
 * Schaeffer 2004, section 5): the checked view of the section
 * (alevels.c), and how a search reads any level, the graph's own (level
 * 1) included, through one set of accessors.  Nodes of every level are
 * named by their node number in level 1, so that a path moves between
 * levels without translation.  Internal. */
#ifndef NB_ALEVELS_H
#define NB_ALEVELS_H

#include "abstract/abstract.h"
#include "core/format.h"

typedef struct nbi_alevel {
    uint32_t side;                /* a cluster's side in cells */
    uint32_t ncx, ncy, nnodes, narcs, ninter;
    const uint8_t *cluster_first; /* u32[ncx * ncy + 1] */
    const uint8_t *node_id;       /* u32[nnodes]: the node's number in level 1 */
    const uint8_t *node_first;    /* u32[nnodes + 1] */
    const uint8_t *arc_to;        /* u32[narcs]: a node of this level */
    const uint8_t *arc_card;      /* u32[narcs] */
    const uint8_t *arc_diag;      /* u32[narcs] */
    const uint8_t *arc_ann;       /* u8[2 * narcs]: capability index, clearance */
    uint32_t path_words;          /* with paths: */
    const uint8_t *arc_path;      /* u32[narcs]: where the edge's path starts in paths, or
                                     UINT32_MAX (an arc between clusters) */
    const uint8_t *paths;         /* u32[path_words]: per path its count n, then n arcs of the
                                     level below, from the edge's lower-numbered node */
} nbi_alevel;

typedef struct nbi_alevels {
    const nbi_agraph *g;          /* level 1 */
    uint32_t nlevels, factor, spacing, flags, share;
    nbi_alevel lv[NBI_LEVELS_MAX + 1]; /* [2 .. nlevels]; [1] describes g's clusters */
    /* Landmarks of the top level (ALT: Goldberg and Harrelson 2005): nodes,
     * and each node's distance from each of them over the top level's arcs
     * (every arc, whatever it admits), as cardinal and diagonal steps. */
    uint32_t nlandmarks;
    const uint8_t *lm_node;       /* u32[nlandmarks]: nodes of the top level */
    const uint8_t *lm_dist;       /* u32[nnodes][nlandmarks][2]: card, diag; NBI_LANDMARK_NONE
                                     twice where the landmark does not reach */
    long section;
} nbi_alevels;

/* Offsets of level l's arrays (cluster index, node ids, adjacency index,
 * targets, cardinal steps, diagonal steps, annotations, and with paths
 * the arcs' path offsets and the paths) from at, which is where they
 * start; off[9] is where the next level's start. */
void nbi_alevel_layout(uint64_t nclusters, uint64_t nnodes, uint64_t narcs, int paths,
                       uint64_t path_words, uint64_t at, uint64_t off[10]);
/* Offsets of the landmarks' arrays (nodes, distances) from at, where the
 * top level's arrays end; off[2] is the payload's end. */
void nbi_landmarks_layout(uint64_t nlandmarks, uint64_t nnodes, uint64_t at, uint64_t off[3]);
/* Points level v's arrays into payload p at the offsets nbi_alevel_layout gave. */
void nbi_alevel_place(nbi_alevel *v, const uint8_t *p, const uint64_t off[10], int paths);
/* Checks a payload against formats/abstract.md and the graph g it was
 * baked for (every count, index and annotation) and fills lv; crc is g's
 * payload's CRC-32. */
nb_status nbi_alevels_view(const uint8_t *p, size_t len, const nbi_agraph *g, uint32_t crc,
                           nbi_alevels *lv, nb_err *err);
/* The bundle's levels section for its graph g (checked once per bundle);
 * NB_ERR_NOTFOUND when it has none. */
nb_status nbi_alevels_find(const nb_bundle *b, const nbi_agraph *g, nbi_alevels *lv, nb_err *err);
/* The registry's structural check of the levels section at index: the
 * same checks, against the bundle's graph. */
nb_status nbi_alevels_section_check(const nb_bundle *b, size_t index, nb_err *err);
/* Level 1's description in lv->lv[1] from g (what the views fill). */
void nbi_alevels_base(nbi_alevels *lv, const nbi_agraph *g);

/* The cells of a share of level j's borders: its side / spacing, at most
 * share (when not 0), at least 1 (formats/abstract.md). */
static inline uint32_t nbi_alevel_share(const nbi_alevels *L, uint32_t j)
{
    uint32_t s = L->lv[j].side / L->spacing;
    if (L->share && s > L->share)
        s = L->share;
    return s ? s : 1;
}

/* ---- reading any level ---- */

static inline uint32_t nbi_lv_cluster(const nbi_alevels *L, uint32_t j, uint32_t x, uint32_t y)
{
    const nbi_alevel *v = &L->lv[j];
    return (y / v->side) * v->ncx + x / v->side;
}
/* The nodes of level j's cluster k: [*first, *first + count). */
static inline uint32_t nbi_lv_nodes(const nbi_alevels *L, uint32_t j, uint32_t k, uint32_t *first)
{
    const uint8_t *cf = j == 1 ? L->g->cluster_first : L->lv[j].cluster_first;
    *first = nbi_u32at(cf, k);
    return nbi_u32at(cf, k + 1) - *first;
}
/* Level j's node u, numbered in level 1. */
static inline uint32_t nbi_lv_id(const nbi_alevels *L, uint32_t j, uint32_t u)
{
    return j == 1 ? u : nbi_u32at(L->lv[j].node_id, u);
}
static inline nb_cell nbi_lv_cell(const nbi_alevels *L, uint32_t id)
{
    nb_cell c = {nbi_u16at(L->g->node_xy, 2 * (size_t)id), nbi_u16at(L->g->node_xy, 2 * (size_t)id + 1)};
    return c;
}
static inline uint32_t nbi_lv_arcs(const nbi_alevels *L, uint32_t j, uint32_t u, uint32_t *a0)
{
    const uint8_t *nf = j == 1 ? L->g->node_first : L->lv[j].node_first;
    *a0 = nbi_u32at(nf, u);
    return nbi_u32at(nf, u + 1);
}
static inline uint32_t nbi_lv_to(const nbi_alevels *L, uint32_t j, uint32_t a)
{
    return nbi_u32at(j == 1 ? L->g->arc_to : L->lv[j].arc_to, a);
}
static inline void nbi_lv_w(const nbi_alevels *L, uint32_t j, uint32_t a, uint32_t *card,
                            uint32_t *diag)
{
    if (j == 1) {
        *card = nbi_u16at(L->g->arc_w, 2 * (size_t)a);
        *diag = nbi_u16at(L->g->arc_w, 2 * (size_t)a + 1);
    } else {
        *card = nbi_u32at(L->lv[j].arc_card, a);
        *diag = nbi_u32at(L->lv[j].arc_diag, a);
    }
}
static inline const uint8_t *nbi_lv_ann(const nbi_alevels *L, uint32_t j, uint32_t a)
{
    return (j == 1 ? L->g->arc_ann : L->lv[j].arc_ann) + 2 * (size_t)a;
}
/* The distance from landmark i to node v of the top level, or -1 when it does not reach v. */
static inline double nbi_lv_landmark(const nbi_alevels *L, uint32_t v, uint32_t i)
{
    size_t at = 2 * ((size_t)v * L->nlandmarks + i);
    uint32_t card = nbi_u32at(L->lm_dist, at), diag = nbi_u32at(L->lm_dist, at + 1);
    if (card == NBI_LANDMARK_NONE && diag == NBI_LANDMARK_NONE)
        return -1;
    return nbi_steps_length(card, diag);
}
/* Level j's number of the node numbered id in level 1, or -1 when it is
 * not a node of level j (node ids ascend within a cluster). */
long nbi_lv_index(const nbi_alevels *L, uint32_t j, uint32_t id);
/* The box of level j's cluster k. */
static inline nbi_box nbi_lv_box(const nbi_alevels *L, uint32_t j, uint32_t k)
{
    return nbi_cluster_box(k, L->lv[j].ncx, L->lv[j].side, L->g->width, L->g->height);
}

#endif
