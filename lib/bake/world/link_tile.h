/* link_tile.h: what the link keeps of one tile's border file (link.c),
 * and the cache of it that lets a link after an edit read only the border
 * files that changed (link_cache.c).  A record is a function of the border
 * file's bytes alone: the checks against the manifest and the other tiles
 * run on every record, read or cached, so a link with the cache writes the
 * bytes of one without it. */
#ifndef NBB_LINK_TILE_H
#define NBB_LINK_TILE_H

#include "bake_int.h"
#include "world/world.h"

/* The key of a border file's cached record: its digest (its size and its
 * header's table CRC, which holds every section's CRC) and its file's
 * identity and time (a file damaged in place keeps its table but not its
 * time: it is then read, and refused, as a link without the cache would). */
#define NBB_LINK_KEY 36
#define NBB_LINK_KEY_BYTES 0  /* u64 */
#define NBB_LINK_KEY_CRC 8    /* u32, then u32 0 */
#define NBB_LINK_KEY_MTIME 16 /* u64 seconds, u32 nanoseconds */
#define NBB_LINK_KEY_NSEC 24
#define NBB_LINK_KEY_INODE 28 /* u64 */

/* One (capability, size) pair of a tile. */
typedef struct nbb_link_class {
    uint32_t n, inner_count, outer_count;
    uint32_t *inner, *outer, *core; /* rings, and a bit per component 0..n */
    uint32_t has_graph;             /* a border graph for this pair */
    uint32_t portals, links, arcs;
    uint8_t *node;   /* portals x NBI_WGRAPH_NODE: the portals as world graph nodes */
    uint32_t *first; /* portals + 1: each portal's first arc */
    uint32_t *arc;   /* 3 an arc the spanner keeps: the portal it ends on, card, diag */
    uint8_t *link;   /* links x NBI_BGRAPH_LINK, as in the border graph */
    uint32_t *order; /* portals: the portals in the order of their cells (y, x, number) */
    /* Its border_opt section (the manifest's `optimal: 1`): the payload as
     * the border file holds it, checked by opt_link.c when joined. */
    uint32_t has_opt, ocap, osize, ocorner, olen;
    uint8_t *obytes;
} nbb_link_class;

typedef struct nbb_link_tile {
    uint8_t key[NBB_LINK_KEY];
    nbi_wtile t;                     /* its tile section (inputs not kept) */
    uint8_t digest[NBI_DIGEST_SIZE]; /* the tile bundle's */
    nbb_world_input in[NBI_TILE_MAX_INPUTS];
    uint32_t classes, graphs;        /* its border and border graph sections */
    uint32_t opts;                   /* its border_opt sections (at most classes kept) */
    uint32_t (*cls)[2];              /* each border's (capability, size) */
    uint32_t (*gcls)[2];             /* each border graph's */
    nbb_link_class *c;               /* per border */
} nbb_link_tile;

void nbb_link_tile_free(nbb_link_tile *tb);
/* The digest of the border file at path into key (NB_ERR_IO when it
 * cannot be read: the caller then reads the file for its message). */
nb_status nbb_link_key(const char *path, uint8_t key[NBB_LINK_KEY], nb_err *err);

/* The cache: the records of a previous link, by tile. */
typedef struct nbb_link_cache {
    uint8_t *buf;
    size_t len;
    uint32_t tiles;
    const char *why; /* when ignored: the reason, for --verbose */
} nbb_link_cache;

/* Reads the cache at path for a world of tiles tiles; a cache missing,
 * damaged, of another version or of another tile count is left empty
 * (why says which), never an error. */
void nbb_link_cache_read(const char *path, uint32_t tiles, nbb_link_cache *c);
/* Tile t's record into tb when the cache holds one with this key; 1 when
 * it did. */
int nbb_link_cache_get(const nbb_link_cache *c, uint32_t t, const uint8_t key[NBB_LINK_KEY],
                       nbb_link_tile *tb);
void nbb_link_cache_free(nbb_link_cache *c);
/* The cache of the records tiles[0..n) as a file image. */
nb_status nbb_link_cache_image(const nbb_link_tile *tiles, uint32_t n, uint8_t **out, size_t *len,
                               nb_err *err);

#endif
