/* world.h: the sections of a world of tiles (formats/world.md): a tile's
 * tag (tile.c), its border for one (capability, size) (border.c), and the
 * world bundle's index and world-wide components (index.c).  Each view is
 * made by a check of everything its reader relies on.  Internal. */
#ifndef NB_WORLD_H
#define NB_WORLD_H

#include "bundle/bundle.h"
#include "core/grid.h"

/* The payload of section idx, which must be of type and version, raw and
 * at least head bytes long; name names the type in messages. */
nb_status nbi_world_payload(const nb_bundle *b, size_t idx, uint32_t type, uint32_t version,
                            uint64_t head, const char *name, nb_err *err);

/* ---- a tile section, checked ---- */
typedef struct nbi_wtile {
    uint32_t width, height, side, cluster; /* the world's */
    uint32_t column, row;
    uint32_t origin_x, origin_y;           /* the world cell of the bundle map's (0, 0) */
    uint32_t core_x, core_y, core_w, core_h; /* the tile's own cells in the bundle's map */
    uint32_t halo;
    uint32_t ninputs;
    const uint8_t *inputs; /* ninputs records of NBI_TILE_INPUT bytes */
    int has_digest;        /* a border file's: the tile bundle's digest */
    uint64_t bundle_bytes;
    uint32_t table_crc;
    long section;
} nbi_wtile;

nb_status nbi_wtile_at(const nb_bundle *b, size_t idx, nbi_wtile *out, nb_err *err);
nb_status nbi_wtile_section_check(const nb_bundle *b, size_t idx, nb_err *err);
/* The bundle's one tile section; NB_ERR_NOTFOUND without one. */
nb_status nbi_wtile_find(const nb_bundle *b, nbi_wtile *out, nb_err *err);
/* The cells of a tile's rings (formats/world.md): its own cells along its
 * edges, and the cells just outside them. */
static inline uint32_t nbi_ring_inner(uint32_t w, uint32_t h) { return 2 * w + 2 * h; }
static inline uint32_t nbi_ring_outer(uint32_t w, uint32_t h) { return 2 * (w + 2) + 2 * h; }
/* Cell k of the ring of the w x h rectangle at (x0, y0) (inner) or around
 * it (outer), as signed coordinates in the same frame. */
void nbi_ring_cell(int outer, long x0, long y0, uint32_t w, uint32_t h, uint32_t k, long *x,
                   long *y);

/* ---- a border section, checked (with the bundle's tile section) ---- */
typedef struct nbi_border {
    uint32_t capability, size, n, inner_count, outer_count;
    const uint8_t *inner, *outer; /* u32 component numbers */
    const uint8_t *core;          /* a bit per component 0..n: has a cell of the tile's own */
    long section;
} nbi_border;

nb_status nbi_border_at(const nb_bundle *b, size_t idx, nbi_border *out, nb_err *err);
nb_status nbi_border_section_check(const nb_bundle *b, size_t idx, nb_err *err);
static inline int nbi_border_in_core(const nbi_border *r, uint32_t k)
{
    return (nbi_get32(r->core + 4 * (k / 32)) >> (k % 32)) & 1;
}

/* ---- a world's index and its components, checked ---- */
typedef struct nbi_windex {
    uint32_t width, height, side, cluster, columns, rows, halo;
    const uint8_t *digests; /* NBI_DIGEST_SIZE bytes a tile, row by row */
    long section;
} nbi_windex;

nb_status nbi_windex_at(const nb_bundle *b, size_t idx, nbi_windex *out, nb_err *err);
nb_status nbi_windex_section_check(const nb_bundle *b, size_t idx, nb_err *err);
nb_status nbi_windex_find(const nb_bundle *b, nbi_windex *out, nb_err *err);

typedef struct nbi_wcomp {
    uint32_t capability, size, n, tiles;
    const uint8_t *first, *ids;
    long section;
} nbi_wcomp;

nb_status nbi_wcomp_at(const nb_bundle *b, size_t idx, nbi_wcomp *out, nb_err *err);
nb_status nbi_wcomp_section_check(const nb_bundle *b, size_t idx, nb_err *err);
/* The world's component of tile t's component k: 0 when k is 0, beyond the
 * tile's, or has no cell of the tile's own. */
static inline uint32_t nbi_wcomp_of(const nbi_wcomp *c, uint32_t t, uint32_t k)
{
    uint32_t a = nbi_u32at(c->first, t), e = nbi_u32at(c->first, t + 1);
    return k && k <= e - a ? nbi_u32at(c->ids, a + k - 1) : 0;
}

/* ---- HAA* across tiles (haa_border.c, haa_world.c; formats/world.md) ---- */

/* A tile's edge nodes for one (capability, size) with their distances
 * inside it (NB_SEC_BORDER_GRAPH), checked with the bundle's tile section:
 * every portal on the tile's inner ring, every link to a cell just outside
 * it, every distance at least the octile distance of its ends. */
typedef struct nbi_bgraph {
    uint32_t capability, size, portals, links;
    const uint8_t *portal; /* NBI_BGRAPH_PORTAL bytes each */
    const uint8_t *link;   /* NBI_BGRAPH_LINK bytes each */
    const uint8_t *dist;   /* portals^2 pairs of u32 */
    long section;
} nbi_bgraph;

nb_status nbi_bgraph_at(const nb_bundle *b, size_t idx, nbi_bgraph *out, nb_err *err);
nb_status nbi_bgraph_section_check(const nb_bundle *b, size_t idx, nb_err *err);

/* The HAA* graph above a world's tiles for one (capability, size)
 * (NB_SEC_WORLD_GRAPH), checked with the bundle's world section: nodes in
 * their tiles' cells, arcs to the same tile or a neighbour, no arc
 * shorter than the octile distance of its ends (so the search's heuristic
 * holds).  nbi_wgraph_at checks the counts and the tiles' index only; a
 * reader checks a tile's nodes and arcs with nbi_wgraph_tile_check before
 * it reads them (the section's check: every tile). */
typedef struct nbi_wgraph {
    uint32_t capability, size, nodes, arcs, tiles;
    const uint8_t *tile_first, *node, *arc_first, *arc;
    long section;
    uint32_t columns, side, width, height; /* the world's, from its index */
} nbi_wgraph;

nb_status nbi_wgraph_at(const nb_bundle *b, size_t idx, nbi_wgraph *out, nb_err *err);
nb_status nbi_wgraph_section_check(const nb_bundle *b, size_t idx, nb_err *err);

/* 1 when (card, diag) steps cannot join cells a and b: a distance the
 * search's octile heuristic would overestimate. */
static inline int nbi_wsteps_too_short(uint32_t card, uint32_t diag, uint32_t ax, uint32_t ay,
                                       uint32_t bx, uint32_t by)
{
    return nbi_steps_length(card, diag) + 1e-9 <
           nbi_octile_cells((int32_t)ax, (int32_t)ay, (int32_t)bx, (int32_t)by);
}

/* The level of tile blocks above a world's HAA* graph for one (capability,
 * size) (NB_SEC_WORLD_BLOCKS, blocks.c), checked whole with that graph's
 * counts: each block's entries (its border nodes) nodes of its own tiles,
 * increasing; each arc to another entry of the same block, its steps
 * below 2^30 and no shorter than the entries' cells lie apart (so a
 * search over it keeps the octile heuristic). */
typedef struct nbi_wblocks {
    uint32_t capability, size, nodes, side, columns, rows, entries, arcs; /* columns, rows: blocks */
    const uint8_t *block_first, *entry, *arc_first, *arc;
    long section;
} nbi_wblocks;

nb_status nbi_wblocks_at(const nb_bundle *b, size_t idx, nbi_wblocks *out, nb_err *err);
nb_status nbi_wblocks_section_check(const nb_bundle *b, size_t idx, nb_err *err);
/* The world blocks section of (capability, size), or -1. */
long nbi_wblocks_index(const nb_bundle *b, uint32_t capability, uint32_t size);

/* A tile's table for inserting a query's end, one (capability, size)
 * (NB_SEC_TILE_INSERT, insert.c), checked whole against the tile bundle's
 * own graph: its portals exactly the border graph's (nbi_tins_is_portal),
 * each block's border nodes exactly those nbi_tins_border_block gives,
 * every distance below 2^30 steps and no shorter than its ends' cells lie
 * apart. */
struct nbi_agraph;
typedef struct nbi_tins {
    uint32_t capability, size;
    uint32_t side;          /* cells a block's side (B clusters) */
    uint32_t portals, borders, blocks, bcols;
    uint32_t width;         /* bytes a step count: 2 or 4 */
    uint32_t core_x, core_y, core_w, core_h; /* the tile's own cells, from its tag */
    const uint8_t *portal, *block_first, *border, *dist;
    long section;
} nbi_tins;

nb_status nbi_tins_at(const nb_bundle *b, size_t idx, nbi_tins *out, nb_err *err);
nb_status nbi_tins_section_check(const nb_bundle *b, size_t idx, nb_err *err);
/* 1 when node u of the tile's graph g is a portal for (cap, size): on the
 * edge of the tile's own cells, with an arc out of them. */
int nbi_tins_is_portal(const struct nbi_agraph *g, const nbi_wtile *t, uint32_t u,
                       nb_capability cap, uint32_t size);
/* The block (of side cells) of the tile's cell (x, y), row by row. */
uint32_t nbi_tins_block_of(const nbi_wtile *t, uint32_t side, uint32_t x, uint32_t y);
/* Node u's block when it is a border node there (a node of the tile's cells
 * with an arc for (cap, size) to a node of another block's), else
 * UINT32_MAX. */
uint32_t nbi_tins_border_block(const struct nbi_agraph *g, const nbi_wtile *t, uint32_t side,
                               uint32_t u, nb_capability cap, uint32_t size);
/* Border node j's steps to portal i: 0 when it has no path there. */
static inline int nbi_tins_steps(const nbi_tins *r, uint32_t j, uint32_t i, uint32_t *card,
                                 uint32_t *diag)
{
    size_t k = (size_t)j * r->portals + i;
    if (r->width == 2) {
        *card = nbi_u16at(r->dist, 2 * k), *diag = nbi_u16at(r->dist, 2 * k + 1);
        return *card != UINT16_MAX;
    }
    *card = nbi_u32at(r->dist, 2 * k), *diag = nbi_u32at(r->dist, 2 * k + 1);
    return *card != UINT32_MAX;
}

/* Landmarks on a world's HAA* graph for one (capability, size)
 * (NB_SEC_WORLD_LANDMARKS, landmarks.c), checked with that graph: one
 * distance a node and landmark, and on every arc u -> v of cost c,
 * |d(u) - d(v)| <= c, with d(u) and d(v) both joined or both not. */
typedef struct nbi_wlmk {
    uint32_t capability, size, nodes, count;
    const uint8_t *landmark; /* u32 nodes[count] */
    const uint8_t *dist;     /* nodes x count of NBI_WLMK_DIST bytes */
    long section;
} nbi_wlmk;

nb_status nbi_wlmk_at(const nb_bundle *b, size_t idx, nbi_wlmk *out, nb_err *err);
nb_status nbi_wlmk_section_check(const nb_bundle *b, size_t idx, nb_err *err);
/* The tile whose nodes hold node u (< g->nodes) by the graph's index. */
uint32_t nbi_wgraph_node_tile(const nbi_wgraph *g, uint32_t u);
/* Tile t's part of graph g: its nodes in its cells with their arcs' ranges
 * and (lm not NULL) their landmark distances within the format's bound;
 * with arcs, also each arc of theirs (to a node of t or a neighbour, whose
 * own record is checked the same way, no shorter than its cells lie apart,
 * and no landmark's difference across it above its length).  Messages
 * name the tile. */
nb_status nbi_wgraph_tile_check(const nb_bundle *b, const nbi_wgraph *g, const nbi_wlmk *lm,
                                uint32_t t, int arcs, nb_err *err);
/* Every tile's part, arcs included. */
nb_status nbi_wgraph_tiles_check(const nb_bundle *b, const nbi_wgraph *g, const nbi_wlmk *lm,
                                 nb_err *err);
/* The world graph section of (capability, size), or -1. */
long nbi_wgraph_index(const nb_bundle *b, uint32_t capability, uint32_t size);
/* Node u's distance to landmark k in steps, or -1 when not joined. */
static inline double nbi_wlmk_dist(const nbi_wlmk *m, uint32_t u, uint32_t k)
{
    const uint8_t *d = m->dist + NBI_WLMK_DIST * ((size_t)u * m->count + k);
    uint32_t card = nbi_get32(d + NBI_WLMK_D_CARD);
    return card == NBI_WLMK_NONE ? -1 : nbi_steps_length(card, nbi_get32(d + NBI_WLMK_D_DIAG));
}

#endif
