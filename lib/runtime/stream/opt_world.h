/* opt_world.h: exact shortest paths across a world's tiles through an
 * overlay of the tiles' border cells (issues 30 and 31: "the optimal layer
 * across tiles, exact"), after the multi-level overlays of road planners
 * (CRP/MLD: each cell's boundary vertices joined by a clique of their
 * distances inside the cell).  Internal; not in a format yet (the border
 * data is built in memory from each tile's bundle, as the tile action
 * would write it; BUGS says so).
 *
 * Why it is exact: cut any world path where it changes tiles.  Each piece
 * stays in one tile, so it is no shorter than the distance inside that tile
 * between its first and last cells, and those are portals (a tile's own
 * cells with a legal move out of the tile), except the start and goal.  A
 * move between tiles is one step from a portal to a portal (the move
 * reversed is legal under either corner rule).  So the overlay of the
 * portals, each tile's clique of distances inside it (Dijkstra kept to the
 * tile's own cells) and the moves between tiles, with the start and goal
 * joined to their tiles' portals by the same in-tile distances, holds a
 * path of every world path's length or less, and each of its arcs is a
 * real walk: its shortest path is the world's.
 *
 * Why the portals cannot be fewer (measured and argued on branch wopt,
 * tests/bench/results/world-opt-bench.md): on an open run of a tile's
 * edge every cell is some shortest path's only crossing.  From (x, y0) to
 * (x, y1) on open ground the straight line is the only path of octile
 * length (any sideways step costs a diagonal more), and likewise a 45
 * degree line; so dropping cell x of the run lengthens that query, and an
 * overlay whose nodes are cells joined by real walks must keep every edge
 * cell with a move out.  What does shrink is the clique: most pairs of an
 * open tile's portals are joined by the octile distance, and neighbouring
 * portals' rows differ by a step: opt_pack.c stores each pair as its
 * excess over the octile distance, row by row (bytes a cell 0.02-0.5
 * where the u32 a pair took 0.4-14). */
#ifndef NB_OPT_WORLD_H
#define NB_OPT_WORLD_H

#include <string.h>

#include "abstract/abstract.h"
#include "core/format.h"
#include "core/heap.h"
#include "world/world.h"

/* A tile's border data for one (capability, size, corner rule). */
typedef struct nbi_optb {
    const nb_allocator *a; /* its arrays' (NULL: the C library's) */
    uint32_t n;        /* portals, in row-major order of their cells */
    nb_cell *cell;     /* their world cells */
    double *dist;      /* n x n distances inside the tile, -1: not joined there */
    uint32_t *card, *diag; /* n x n: their cardinal and diagonal steps */
    uint32_t *row;     /* n + 1: row i's first byte in packed */
    uint8_t *packed;   /* the rows packed (opt_pack.c), what the overlay reads */
    size_t packed_len;
    uint32_t nlinks;   /* moves out of the tile */
    uint32_t *link_from; /* portal */
    nb_cell *link_to;    /* world cell in a neighbour tile */
    uint8_t *link_move;  /* the move (core/grid.h's numbering) */
} nbi_optb;

/* The border data of tile t from its bundle's layer l (the tile's cells and
 * its halo).  The halo says which moves leave the tile; the distances are
 * kept to the tile's cells. */
nb_status nbi_optb_build(const nbi_layer *l, const nbi_wtile *t, uint32_t size, int corner,
                         const nb_allocator *a, nbi_optb *out, nb_err *err);
/* Fills b's dist, card and diag (n x n, allocated) for its n portals, whose
 * cells in l's frame are local[0..n), by a Dijkstra a portal kept to box
 * (opt_clique.c: the cluster search's answers, faster). */
nb_status nbi_optb_clique(nbi_optb *b, const nbi_layer *l, const nbi_box *box,
                          const nb_cell *local, uint32_t size, int corner, nb_err *err);
void nbi_optb_free(nbi_optb *b);
/* The bytes of its section (NB_SEC_BORDER_OPT, nbi_oborder_put). */
uint64_t nbi_optb_stored_bytes(const nbi_optb *b);
/* The bytes the clique took as a u32 a pair, each pair once (cardinal and
 * diagonal steps of 16 bits): the figure before packing. */
uint64_t nbi_optb_plain_bytes(const nbi_optb *b);

/* Packs the clique (card, diag, dist) into row and packed (opt_pack.c). */
nb_status nbi_optb_pack(nbi_optb *b, nb_err *err);
/* Row i of a packed clique (len bytes at p; cell: the n portals' cells)
 * into out[0..n) (NULL: only checked): distances, -1 not joined.  0 when the bytes are not a
 * row of n pairs (ended early, a run past the row, bytes left over, fewer
 * than no steps). */
int nbi_optb_unpack_row(const uint8_t *p, size_t len, const nb_cell *cell, uint32_t n, uint32_t i,
                        double *out);

/* A tile's NB_SEC_BORDER_OPT section (format.h, formats/world.md) of
 * the border data b of tile t, allocated with a into *out. */
nb_status nbi_oborder_put(const nbi_optb *b, const nbi_wtile *t, nb_capability cap, uint32_t size,
                          int corner, const nb_allocator *a, uint8_t **out, size_t *len,
                          nb_err *err);
/* That section's counts, portals, row offsets and links checked in place
 * (not its packed rows: each is checked as it is unpacked), NB_ERR_FORMAT
 * naming what is wrong; what nbi_oborder_read checks before it copies. */
nb_status nbi_oborder_check(const uint8_t *p, size_t len, const uint32_t *param,
                            const nbi_wtile *t, const char *where, nb_err *err);
/* That section read back (payload p of len bytes, the section table's
 * params param[4], tile t; where names it in messages) into a tile's
 * border data allocated with a: every count, cell, offset, link and
 * packed row checked, NB_ERR_FORMAT naming what is wrong. */
nb_status nbi_oborder_read(const uint8_t *p, size_t len, const uint32_t *param,
                           const nbi_wtile *t, const char *where, const nb_allocator *a,
                           nbi_optb *out, nb_err *err);

/* The world overlay: every tile's portals, joined. */
typedef struct nbi_optw {
    uint32_t columns, rows, side, width, height;
    uint32_t nodes;
    uint32_t *tile_first;   /* columns * rows + 1: a tile's nodes */
    nb_cell *cell;          /* per node */
    uint32_t *arc_first;    /* nodes + 1 */
    uint32_t *arc_to;
    double *arc_w;
    /* The search's state, sized once. */
    double *g;
    uint32_t *seen, *closed, stamp; /* == stamp: g is this search's; settled */
    uint32_t *pos;
    nb_cell *scratch;  /* a tile's portals in its bundle's frame, and the goal */
    nbi_heap heap;
    double *to_goal; /* per node of the goal's tile: its distance to the goal, -1 none */
} nbi_optw;

/* Joins the tiles' border data (columns x rows, row by row); side is the
 * tile's side in cells. */
nb_status nbi_optw_link(nbi_optw *w, const nbi_optb *tiles, uint32_t columns, uint32_t rows,
                        uint32_t side, uint32_t width, uint32_t height, nb_err *err);
void nbi_optw_free(nbi_optw *w);

/* The shortest length from s to g (world cells, both standable) through
 * the overlay; ls and lg are the layers of the start's and goal's tile
 * bundles (ts, tg their tags; the same when the ends share a tile), cs a
 * search with room for a tile.  -1 when no path joins them; -2 out of
 * memory.  *expanded gets the overlay nodes settled. */
double nbi_optw_length(nbi_optw *w, const nbi_optb *tiles, const nbi_layer *ls,
                       const nbi_wtile *ts, const nbi_layer *lg, const nbi_wtile *tg,
                       uint32_t size, int corner, nbi_csearch *cs, nb_cell s, nb_cell g,
                       uint64_t *expanded);

/* A world bundle's world_opt section (opt_wsec.c; NB_SEC_WORLD_OPT,
 * formats/world.md), read back checked: every tile's border as
 * nbi_oborder_read checks it, every move between tiles reaching the node
 * at the cell the move ends on. */
typedef struct nbi_wopt {
    const nb_allocator *a;
    uint32_t capability, size, corner, tiles, nodes, links, maxp;
    nbi_optb *tile;    /* per tile */
    uint32_t *first;   /* tiles + 1: a tile's first node */
    nb_cell *cell;     /* per node: its world cell */
    uint32_t *lfirst;  /* nodes + 1: a node's moves out in lto, lmove */
    uint32_t *lto;     /* per move out: the node it reaches */
    uint8_t *lmove;
    uint32_t nland;    /* landmarks (opt_landmarks.c in the bake) */
    uint32_t *land;    /* their nodes */
    double *ld;        /* nodes x nland: node v's distance from landmark k at
                        * v * nland + k over the portal graph; -1 not reached */
} nbi_wopt;

/* Section idx of the world bundle b (its world section x) into out,
 * allocated with a; NB_ERR_FORMAT naming what is wrong. */
nb_status nbi_wopt_read(const nb_bundle *b, size_t idx, const nbi_windex *x,
                        const nb_allocator *a, nbi_wopt *out, nb_err *err);
/* The same from a payload p of len bytes, the section table's params
 * param[4]; where names it in messages. */
nb_status nbi_wopt_read_payload(const uint8_t *p, size_t len, const uint32_t *param,
                                const nbi_windex *x, const char *where, const nb_allocator *a,
                                nbi_wopt *out, nb_err *err);
void nbi_wopt_free(nbi_wopt *o);
/* The same section read in place (opt_wview.c): nothing copied but a
 * tile's first node and first move (so memory follows the tiles a query
 * touches in the mapping), the header, the tiles' extents and the
 * landmarks checked at open, each tile's border, its moves between tiles
 * and its nodes' landmark distances the first time a query reads the tile
 * (nbi_wopv_tile), each packed row as it is unpacked. */
typedef struct nbi_wopv {
    const nb_allocator *a;
    const nbi_windex *x;
    uint32_t capability, size, corner, tiles, nodes, links, maxp, nland;
    const uint8_t *off, *target, *bytes, *ld; /* in the payload */
    uint32_t land[NBI_WOPT_MAX_LANDMARKS];
    uint32_t *first;  /* tiles + 1: a tile's first node */
    uint32_t *lbase;  /* tiles + 1: a tile's first move in target */
    uint8_t *checked; /* per tile: NBI_WOV_BORDER, then NBI_WOV_ALL */
    char where[160];
} nbi_wopv;
enum { NBI_WOV_BORDER = 1, NBI_WOV_ALL = 2 };

/* Section idx of the world bundle b read in place (its world section x,
 * which must outlive it); the arrays allocated with a. */
nb_status nbi_wopv_open(const nb_bundle *b, size_t idx, const nbi_windex *x, const nb_allocator *a,
                       nbi_wopv *out, nb_err *err);
/* The same from a payload p of len bytes (which must outlive it). */
nb_status nbi_wopv_open_payload(const uint8_t *p, size_t len, const uint32_t *param,
                               const nbi_windex *x, const char *where, const nb_allocator *a,
                               nbi_wopv *out, nb_err *err);
void nbi_wopv_free(nbi_wopv *o);
/* Tile t checked (its border, its moves' nodes, its nodes' landmark
 * distances), once; before any of its bytes is read. */
nb_status nbi_wopv_tile_slow(nbi_wopv *o, uint32_t t, nb_err *err);
static inline nb_status nbi_wopv_tile(nbi_wopv *o, uint32_t t, nb_err *err)
{
    return o->checked[t] == NBI_WOV_ALL ? NB_OK : nbi_wopv_tile_slow(o, t, err);
}
/* Tile t's border payload (checked: nbi_wopv_tile), its portals P and moves L. */
static inline const uint8_t *nbi_wopv_border(const nbi_wopv *o, uint32_t t)
{
    return o->bytes + nbi_u32at(o->off, t);
}
/* Portal i of a checked tile t as a world cell. */
nb_cell nbi_wopv_cell(const nbi_wopv *o, uint32_t t, uint32_t i);
/* The tile whose nodes hold node v. */
uint32_t nbi_wopv_tile_of(const nbi_wopv *o, uint32_t v);
/* Checked tile t's portals as world cells into out[0..P); returns P. */
uint32_t nbi_wopv_cells(const nbi_wopv *o, uint32_t t, nb_cell *out);
/* Node v's distance from landmark k (its tile checked). */
static inline double nbi_wopv_ld(const nbi_wopv *o, uint32_t v, uint32_t k)
{
    return nbi_getf64(o->ld + 8 * ((size_t)v * o->nland + k));
}

/* Tile t's tag as its bundle would have it: its own cells from (0, 0). */
static inline nbi_wtile nbi_wopt_tag(const nbi_windex *x, uint32_t t)
{
    nbi_wtile g;
    memset(&g, 0, sizeof g);
    g.column = t % x->columns, g.row = t / x->columns;
    g.origin_x = g.column * x->side, g.origin_y = g.row * x->side;
    g.core_w = x->width - g.origin_x < x->side ? x->width - g.origin_x : x->side;
    g.core_h = x->height - g.origin_y < x->side ? x->height - g.origin_y : x->side;
    g.width = x->width, g.height = x->height, g.side = x->side;
    return g;
}

/* The tile of world cell c. */
static inline uint32_t nbi_wopt_tile(const nbi_windex *x, nb_cell c)
{
    return (uint32_t)c.y / x->side * x->columns + (uint32_t)c.x / x->side;
}

#endif
