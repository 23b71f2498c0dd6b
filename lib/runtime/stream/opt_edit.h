/* opt_edit.h: the tiles a world overlay edits, as the world optimal query
 * (world_sg.c) reads them (opt_edit.c).  Internal.
 *
 * A tile is edited for an agent of size s when a blocked cell lies in the
 * s x s square of one of its own cells: then where the agent stands
 * inside it may differ from the bake, so some of its stored rows' entries
 * (the distances between its portals inside it) may be too short: the
 * query keeps those whose shortest paths keep clear of the cells the
 * overlay takes (dk below) and searches the others under the overlay,
 * lazily, when the search needs them (world_sg.c).  Every other tile
 * keeps the bake's cells, portals and rows exactly: blocks only take
 * cells away, so bounds made without the overlay stay admissible. */
#ifndef NB_OPT_EDIT_H
#define NB_OPT_EDIT_H

#include "stream/wquery.h"

/* One edited tile. */
typedef struct nbi_oedit_tile {
    uint32_t tile;        /* its index, row * columns + column */
    nb_cell *cell;        /* the overlay's cells in its cells' squares, in world cells */
    size_t ncell, ccap;
    nb_overlay *ov;       /* those cells on the tile's map (no repairs), once read */
    const nbi_stile *t;   /* the tile ov was made on; NULL: not made for this overlay */
    uint32_t n;           /* the tile's portals */
    double *rows;         /* n x n: the row of portal i under the overlay, once have[i]
                           * (an entry still to search: world_sg.c's PENDING) */
    uint8_t *have;
    size_t rcap, hcap;
    /* Each portal's baked distance inside the tile to the nearest cell the
     * overlay takes from the agent (-1: none reached), once dk_ok: a
     * stored distance d(p, q) stands unless dk[p] + dk[q] <= d(p, q)
     * (plus a diagonal's corner; world_sg.c's edited_row). */
    double *dk;
    size_t dcap;
    int dk_ok;
} nbi_oedit_tile;

/* The edited tiles of one overlay version for one agent size; kept from
 * query to query (a repeated query under the same overlay reuses its rows)
 * and grown, never shrunk, so queries do not allocate once it has grown. */
typedef struct nbi_oedit {
    const nb_allocator *a;
    uint64_t version;     /* the overlay's cells it holds; 0: none */
    uint32_t size;
    uint32_t *slot;       /* per world tile: its edited tile + 1; 0: untouched */
    size_t ntiles;
    nbi_oedit_tile *e;
    size_t n, cap;
    int nomem;            /* set by a sync that ran out of memory */
} nbi_oedit;

int nbi_oedit_init(nbi_oedit *x, const nb_world *w, uint32_t size);
void nbi_oedit_free(nbi_oedit *x);
size_t nbi_oedit_bytes(const nbi_oedit *x);
/* The edited tiles of ov (NULL or blocking nothing: none), made again only
 * when its version changed; 0 without memory (then none). */
int nbi_oedit_sync(nbi_oedit *x, const nb_world *w, const nb_world_overlay *ov);
/* Tile ti's edit, NULL when the overlay leaves it as baked. */
static inline nbi_oedit_tile *nbi_oedit_of(const nbi_oedit *x, uint32_t ti)
{
    return x->slot[ti] ? &x->e[x->slot[ti] - 1] : NULL;
}
/* The overlay on tile t's map of edit e (made at its first read on this
 * tile), for a search inside it; n its portals (sizes the row cache).
 * NULL without memory. */
const nb_overlay *nbi_oedit_overlay(nbi_oedit *x, nbi_oedit_tile *e, const nbi_stile *t,
                                    uint32_t n);

/* For the tests: every row of every edited tile of overlay ov for q's
 * agent, each made from its stored row as the query makes it
 * (world_sg.c's edited_row) and compared with a search of the whole tile
 * under the overlay: the tiles and rows made, the distances kept and
 * searched again, and those unlike the whole search (0 when exact). */
typedef struct nbi_wsg_rows {
    uint64_t tiles, rows, kept, searched, wrong;
} nbi_wsg_rows;
nb_status nbi_wsg_rows_check(nb_world_sg *ws, const nb_sg_query *q, const nb_world_overlay *ov,
                             nbi_wsg_rows *out, nb_err *err);

#endif
