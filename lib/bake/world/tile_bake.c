/* tile_bake.c: a world's tile action (navbake world tile).  A tile is
 * baked as an ordinary level, the tile's cells with a halo of its
 * neighbours' around them, by mkclear's and mkabstract's own code; so its
 * bundle opens alone, verifies (--deep too) and answers as any other.  The
 * halo is what makes the tile's own cells exact: clearance reads the
 * cells up to the largest agent's size to the right and below, a border
 * between clusters both sides, and the cells just outside the tile are
 * what the link step joins components through.  So it is the smallest
 * multiple of the cluster at least the largest agent's size.
 *
 * The action reads only the manifest's legend and agents, the tile's map
 * and the cells of its eight neighbours that the halo holds (from their
 * maps, or from the strips they lend it, strips.c), so its bytes depend on
 * those alone: whatever machine bakes it, in whatever order. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "bake_int.h"
#include "world/world.h"

/* The CRC-32 of the w x h cells at (x, y) of a grid of the given width,
 * row by row: the digest of a halo's part of a neighbour, which the
 * neighbour works out from its own cells too. */
static void crc_rect(const uint8_t *cells, uint32_t width, uint32_t x, uint32_t y, uint32_t w,
                     uint32_t h, nbb_world_input *rec)
{
    uLong c = crc32(0, Z_NULL, 0);
    for (uint32_t r = 0; r < h; r++)
        c = crc32(c, cells + (size_t)(y + r) * width + x, w);
    rec->crc = (uint32_t)c;
    rec->length = (uint64_t)w * h;
}

/* The tile's level: the cells of the tile and its halo, read from the
 * tile's map and from its neighbours' maps, or from their strips in
 * strips/ of the folder dir when dir is not NULL (the same cells); in[]
 * gets the digests in role order after those of the legend and agents:
 * its own map file's, those of the cells its halo holds of each
 * neighbour, and those of its own cells each neighbour's halo holds.  A
 * tile's bytes so depend on the cells of a neighbour that its halo holds,
 * not on the rest of the neighbour's map: an edit away from a tile's edges
 * leaves its neighbours' bytes as they were, and the link still finds a
 * neighbour baked from other cells. */
static nb_status tile_level(const nbb_world *w, uint32_t tx, uint32_t ty, const char *dir,
                            unsigned threads, nbb_level *l, uint32_t *halo, nbb_world_input *in,
                            uint32_t *nin, nb_err *err)
{
    nbb_world_input lin, ain;
    nb_status st = nbb_world_read_defs(w, &l->legend, &l->agents, &lin, &ain, err);
    if (st != NB_OK)
        return st;
    *nin = 0;
    if (lin.role)
        in[(*nin)++] = lin;
    if (ain.role)
        in[(*nin)++] = ain;
    *halo = nbb_world_halo(w, &l->agents);
    if (*halo > w->tile)
        return nbi_fail(err, NB_ERR_LIMIT,
                        "the largest agent needs a halo of %u cells around each tile, more than "
                        "the tile's %u: use larger tiles",
                        *halo, w->tile);
    uint32_t ex0, ey0, ew, eh;
    nbb_world_extent(w, tx, ty, *halo, &ex0, &ey0, &ew, &eh);
    l->grid.width = ew;
    l->grid.height = eh;
    if (!(l->grid.cells = nbb_malloc((size_t)ew * eh)))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a tile of %u x %u cells with its halo",
                        ew, eh);
    for (int dy = -1; dy <= 1 && st == NB_OK; dy++)
        for (int dx = -1; dx <= 1 && st == NB_OK; dx++) {
            /* The cells of tile (nx, ny) inside the extent: from (ax, ay),
             * rw x rh, at (sx, sy) of the grid read. */
            uint32_t nx = tx, ny = ty, ax, ay, rw, rh, sx = 0, sy = 0;
            int own = !dx && !dy, strip = dir && !own;
            if (own)
                nbb_world_tile_rect(w, tx, ty, &ax, &ay, &rw, &rh);
            else if (!nbb_world_neighbour(w, tx, ty, dx, dy, &nx, &ny) ||
                     !nbb_world_lent(w, nx, ny, -dx, -dy, *halo, &ax, &ay, &rw, &rh))
                continue;
            nbb_grid g;
            nbb_world_input *rec = &in[*nin];
            if (strip)
                st = nbb_world_read_strip(w, &l->legend, dir, nx, ny, -dx, -dy, *halo, threads, &g,
                                          err);
            else {
                uint32_t x0, y0, nw, nh;
                nbb_world_tile_rect(w, nx, ny, &x0, &y0, &nw, &nh);
                st = nbb_world_read_tile(w, &l->legend, nx, ny, threads, &g, rec, NULL, err);
                sx = ax - x0, sy = ay - y0;
            }
            if (st != NB_OK)
                break;
            rec->role = NBI_ROLE_MAP + (uint32_t)(3 * (dy + 1) + (dx + 1));
            (*nin)++;
            for (uint32_t y = 0; y < rh; y++)
                memcpy(l->grid.cells + (size_t)(ay - ey0 + y) * ew + (ax - ex0),
                       g.cells + (size_t)(sy + y) * g.width + sx, rw);
            if (!own)
                crc_rect(g.cells, g.width, sx, sy, rw, rh, rec);
            nbb_grid_free(&g);
        }
    /* The tile's own cells each neighbour's halo holds. */
    for (int dy = -1; dy <= 1 && st == NB_OK; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            uint32_t ax, ay, rw, rh;
            if (!nbb_world_lent(w, tx, ty, dx, dy, *halo, &ax, &ay, &rw, &rh))
                continue;
            nbb_world_input *rec = &in[(*nin)++];
            rec->role = NBI_ROLE_LENT + (uint32_t)(3 * (dy + 1) + (dx + 1));
            crc_rect(l->grid.cells, ew, ax - ex0, ay - ey0, rw, rh, rec);
        }
    return st;
}

/* The tile section's payload (digest: the tile bundle's, for its border
 * file; NULL in the tile bundle itself). */
static uint8_t *tile_payload(const nbb_world *w, uint32_t tx, uint32_t ty, uint32_t halo,
                             const nbb_world_input *in, uint32_t nin, const uint8_t *digest,
                             size_t *len)
{
    *len = NBI_TILE_HEADER + (digest ? NBI_DIGEST_SIZE : 0) + (size_t)nin * NBI_TILE_INPUT;
    uint8_t *p = nbb_calloc(1, *len);
    if (!p)
        return NULL;
    uint32_t x0, y0, tw, th, ex0, ey0, ew, eh;
    nbb_world_tile_rect(w, tx, ty, &x0, &y0, &tw, &th);
    nbb_world_extent(w, tx, ty, halo, &ex0, &ey0, &ew, &eh);
    uint32_t v[16] = {w->width, w->height, w->tile, w->cluster, tx, ty, ex0, ey0,
                      x0 - ex0, y0 - ey0, tw, th, halo, nin, digest ? NBI_TILE_DIGEST : 0, 0};
    for (int i = 0; i < 16; i++)
        nbi_put32(p + 4 * i, v[i]);
    uint8_t *q = p + NBI_TILE_HEADER;
    if (digest) {
        memcpy(q, digest, NBI_DIGEST_SIZE);
        q += NBI_DIGEST_SIZE;
    }
    for (uint32_t i = 0; i < nin; i++, q += NBI_TILE_INPUT) {
        nbi_put32(q + NBI_TILE_INPUT_ROLE, in[i].role);
        nbi_put32(q + NBI_TILE_INPUT_CRC, in[i].crc);
        nbi_put64(q + NBI_TILE_INPUT_LENGTH, in[i].length);
    }
    return p;
}

static nb_status put_tile(nbb_builder *b, const nbb_world *w, uint32_t tx, uint32_t ty,
                          uint32_t halo, const nbb_world_input *in, uint32_t nin,
                          const uint8_t *digest, nb_err *err)
{
    size_t len;
    uint8_t *p = tile_payload(w, tx, ty, halo, in, nin, digest, &len);
    if (!p)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    nb_section_info info;
    memset(&info, 0, sizeof info);
    info.type = NB_SEC_TILE;
    info.version = NBI_TILE_VERSION;
    info.param[0] = tx;
    info.param[1] = ty;
    nbb_builder_remove(b, NB_SEC_TILE);
    return nbb_builder_add_owned(b, &info, p, len, 0, err);
}

/* The border of the component layer l (section info cin) of the tile
 * bundle t: its numbers on both rings and which have cells of the tile's
 * own. */
static nb_status put_border(nbb_builder *out, const nbb_layer *l, const nb_section_info *cin,
                            const nbi_wtile *t, nb_err *err)
{
    uint32_t n = cin->param[2], ni = nbi_ring_inner(t->core_w, t->core_h);
    uint32_t no = nbi_ring_outer(t->core_w, t->core_h);
    size_t words = ((size_t)n + 1 + 31) / 32;
    size_t len = NBI_BORDER_HEADER + 4 * ((size_t)ni + no + words);
    uint8_t *p = nbb_calloc(1, len);
    if (!p)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a border");
    uint32_t head[6] = {cin->param[0], cin->param[1], n, ni, no, 0};
    for (int i = 0; i < 6; i++)
        nbi_put32(p + 4 * i, head[i]);
    uint8_t *ring = p + NBI_BORDER_HEADER, *core = ring + 4 * ((size_t)ni + no);
    nbb_layer_info li;
    nbb_layer_describe(l, &li);
    for (uint32_t k = 0; k < ni + no; k++) {
        long x, y;
        int outer = k >= ni;
        nbi_ring_cell(outer, t->core_x, t->core_y, t->core_w, t->core_h, outer ? k - ni : k, &x, &y);
        uint32_t c = x >= 0 && y >= 0 && x < (long)li.width && y < (long)li.height
                         ? nbb_layer_value(l, (uint32_t)x, (uint32_t)y)
                         : 0;
        nbi_put32at(ring, k, c);
    }
    /* The core's cells a row at a time (a look-up a cell is a search of
     * the row's runs). */
    uint32_t *row = nbb_malloc(((size_t)li.width + 1) * sizeof *row);
    if (!row) {
        nbb_free(p);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a border");
    }
    for (uint32_t y = 0; y < t->core_h; y++) {
        nbb_layer_row(l, t->core_y + y, row);
        for (uint32_t x = 0; x < t->core_w; x++) {
            uint32_t c = row[t->core_x + x];
            if (c)
                nbi_put32at(core, c / 32, nbi_u32at(core, c / 32) | 1u << (c % 32));
        }
    }
    nbb_free(row);
    nb_section_info info;
    memset(&info, 0, sizeof info);
    info.type = NB_SEC_BORDER;
    info.version = NBI_BORDER_VERSION;
    info.param[0] = cin->param[0];
    info.param[1] = cin->param[1];
    info.param[2] = n;
    return nbb_builder_add_owned(out, &info, p, len, 0, err);
}

/* The digest a border file holds of the tile bundle image (len bytes). */
static void image_digest(const uint8_t *image, size_t len, uint8_t *digest)
{
    memset(digest, 0, NBI_DIGEST_SIZE);
    nbi_put64(digest + NBI_DIGEST_BYTES, len);
    nbi_put32(digest + NBI_DIGEST_TABLE_CRC, nbi_get32(image + NBI_HDR_TABLE_CRC));
}

/* The border file of the tile bundle image (len bytes): its legend and
 * agents, its tile section with the image's digest, and a border for each
 * component layer. */
static nb_status border_file(const nbi_legend *legend, const nbi_agentset *agents,
                             const nbb_world *w, uint32_t tx, uint32_t ty, uint32_t halo,
                             const nbb_world_input *in, uint32_t nin, const uint8_t *image,
                             size_t len, uint8_t **out, size_t *out_len, nb_err *err)
{
    uint8_t digest[NBI_DIGEST_SIZE];
    image_digest(image, len, digest);
    nb_bundle *tb = NULL;
    nbb_builder *bb = NULL;
    nbi_wtile t;
    nb_status st = nb_bundle_open_memory(image, len, 0, nbb_mem(), &tb, err);
    if (st == NB_OK)
        st = nbi_wtile_find(tb, &t, err);
    if (st == NB_OK)
        st = nbb_builder_new(&bb, err);
    if (st == NB_OK)
        st = nbb_put_level(bb, legend, agents, NULL, 0, err);
    if (st == NB_OK)
        st = put_tile(bb, w, tx, ty, halo, in, nin, digest, err);
    for (size_t i = 0; st == NB_OK && i < nb_bundle_section_count(tb); i++) {
        const nb_section_info *si = nb_bundle_section_get(tb, i);
        nbb_layer *l;
        if (si->type != NB_SEC_COMPONENTS)
            continue;
        if ((st = nbb_layer_open(tb, i, &l, err)) == NB_OK) {
            st = put_border(bb, l, si, &t, err);
            nbb_layer_close(l);
        }
    }
    /* HAA*'s border graphs, in the same order, after the components'. */
    nbi_agraph g;
    int has_graph = st == NB_OK && nbi_agraph_find(tb, &g, NULL) == NB_OK;
    for (size_t i = 0; has_graph && st == NB_OK && i < nb_bundle_section_count(tb); i++) {
        const nb_section_info *si = nb_bundle_section_get(tb, i);
        if (si->type == NB_SEC_COMPONENTS)
            st = nbb_world_border_graph(bb, &g, &t, si->param[0], si->param[1], err);
    }
    /* The optimal layer's borders (manifest `optimal: 1`), strict corners,
     * in the same order. */
    for (size_t i = 0; w->optimal && st == NB_OK && i < nb_bundle_section_count(tb); i++) {
        const nb_section_info *si = nb_bundle_section_get(tb, i);
        if (si->type == NB_SEC_COMPONENTS)
            st = nbb_world_border_opt(bb, tb, &t, si->param[0], si->param[1], NBI_CORNER_STRICT,
                                      err);
    }
    if (st == NB_OK)
        st = nbb_builder_image(bb, out, out_len, err);
    nbb_builder_free(bb);
    nb_bundle_close(tb);
    return st;
}

/* The border graph section idx of the twin's border file ob, moved by
 * (dx, dy) cells into b: its portals and the nodes its links reach are
 * world cells (formats/world.md), everything else is in the bundle's own
 * frame.  0 when the section is not as its header says (then the border
 * file is built whole). */
static int moved_graph(nbb_builder *b, const nb_bundle *ob, size_t idx, uint32_t dx, uint32_t dy,
                       nb_status *st, nb_err *err)
{
    const void *src;
    size_t len;
    if (nb_bundle_payload(ob, idx, &src, &len, NULL) != NB_OK || len < NBI_BGRAPH_HEADER)
        return 0;
    const uint8_t *q = src;
    uint64_t np = nbi_get32(q + NBI_BGRAPH_PORTALS), nl = nbi_get32(q + NBI_BGRAPH_LINKS);
    if (len < NBI_BGRAPH_HEADER + np * NBI_BGRAPH_PORTAL + nl * NBI_BGRAPH_LINK)
        return 0;
    uint8_t *p = nbb_malloc(len);
    if (!p) {
        *st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a border graph");
        return 1;
    }
    memcpy(p, src, len);
    uint8_t *pp = p + NBI_BGRAPH_HEADER, *pl = pp + np * NBI_BGRAPH_PORTAL;
    for (uint64_t i = 0; i < np; i++) {
        uint8_t *c = pp + i * NBI_BGRAPH_PORTAL;
        nbi_put32(c + NBI_BGRAPH_P_X, nbi_get32(c + NBI_BGRAPH_P_X) + dx);
        nbi_put32(c + NBI_BGRAPH_P_Y, nbi_get32(c + NBI_BGRAPH_P_Y) + dy);
    }
    for (uint64_t k = 0; k < nl; k++) {
        uint8_t *c = pl + k * NBI_BGRAPH_LINK;
        nbi_put32(c + NBI_BGRAPH_L_X, nbi_get32(c + NBI_BGRAPH_L_X) + dx);
        nbi_put32(c + NBI_BGRAPH_L_Y, nbi_get32(c + NBI_BGRAPH_L_Y) + dy);
    }
    nb_section_info info = *nb_bundle_section_get(ob, idx);
    *st = nbb_builder_add_owned(b, &info, p, len, 0, err);
    return 1;
}

/* A twin's border file: the twin's own, whose borders, border graphs and
 * optimal borders depend on the bundle's cells alone (in the bundle's
 * frame, but for the border graphs' world cells, moved), its tile section
 * replaced by this tile's with the digest of the new tile bundle image
 * (len bytes).  The border graphs are most of a
 * tile action's time (a Dijkstra a portal), so this is what makes a twin
 * cheap.  0 when the twin's border file is not there or is not the one of
 * the twin bundle twin (then it is built whole); 1 when out holds it, or
 * on an error (in *st). */
static int twin_border(const char *twin_path, const nb_bundle *twin, const nbb_world *w,
                       uint32_t tx, uint32_t ty, uint32_t halo, const nbb_world_input *in,
                       uint32_t nin, const uint8_t *image, size_t len, uint8_t **out,
                       size_t *out_len, nb_status *st, nb_err *err)
{
    size_t n = strlen(twin_path);
    static const char ext[] = ".nbb";
    if (n < sizeof ext - 1 || strcmp(twin_path + n - (sizeof ext - 1), ext) != 0)
        return 0;
    char *path = nbb_malloc(n + 8);
    if (!path)
        return 0;
    memcpy(path, twin_path, n - (sizeof ext - 1));
    strcpy(path + n - (sizeof ext - 1), ".border");
    nb_bundle *ob = NULL;
    nbi_wtile t;
    int usable = nb_bundle_open(path, 0, nbb_mem(), &ob, NULL) == NB_OK &&
                 nbi_wtile_find(ob, &t, NULL) == NB_OK && t.has_digest &&
                 t.bundle_bytes == twin->size &&
                 t.table_crc == nbi_get32(twin->data + NBI_HDR_TABLE_CRC);
    nbb_free(path);
    /* The border file of the twin's manifest as it is now: the optimal
     * layer's borders when it says `optimal: 1`, and none otherwise. */
    size_t opt = 0;
    for (size_t i = 0; usable && i < nb_bundle_section_count(ob); i++)
        opt += nb_bundle_section_get(ob, i)->type == NB_SEC_BORDER_OPT;
    usable = usable && (opt > 0) == (w->optimal != 0);
    if (usable) {
        uint8_t digest[NBI_DIGEST_SIZE];
        image_digest(image, len, digest);
        nbb_builder *bb = NULL;
        *st = nbb_builder_new(&bb, err);
        if (*st == NB_OK)
            *st = nbb_builder_take(bb, ob, err);
        /* The border graphs' world cells moved from the twin's place to
         * this tile's (unsigned: the move wraps as a difference should). */
        uint32_t ex0, ey0, ew, eh;
        nbb_world_extent(w, tx, ty, halo, &ex0, &ey0, &ew, &eh);
        for (size_t i = 0; usable && *st == NB_OK && i < nb_bundle_section_count(ob); i++)
            if (nb_bundle_section_get(ob, i)->type == NB_SEC_BORDER_GRAPH)
                usable = moved_graph(bb, ob, i, ex0 - t.origin_x, ey0 - t.origin_y, st, err);
        if (*st == NB_OK)
            *st = put_tile(bb, w, tx, ty, halo, in, nin, digest, err);
        if (*st == NB_OK && usable)
            *st = nbb_builder_image(bb, out, out_len, err);
        nbb_builder_free(bb);
    }
    nb_bundle_close(ob);
    return usable;
}

/* A level's border cut into shares of side / 8 cells (mkabstract's default cuts it in two):
 * on a DAO world of 8192^2 (tests/bench/results/world-haa-bench.md) 2 kept the corner to corner
 * error at 2.3 %, 8 at 0.93 %, for 2 times the nodes a stretch expands. */
#define TILE_LEVEL_SPACING 8

/* The levels a tile's graph gets: the manifest's (`levels`), else none. */
static nbb_levels_opts tile_levels(const nbb_world *w)
{
    nbb_levels_opts lo = {w->levels > 1 ? w->levels : 1, NBB_LEVEL_FACTOR, TILE_LEVEL_SPACING, 0,
                          NBB_LEVEL_SHARE, NBB_LEVEL_LANDMARKS};
    return lo;
}

/* The abstract graph of the tile's level (and its costs), built whole
 * into b when b has none: a tile bundle's graph is mkabstract's default
 * with the world's cluster (and its intra-edges' paths when the manifest
 * says `paths: 1`), and levels of clusters inside the tile only when the
 * manifest says `levels` (world HAA*'s refinement searches them, so a
 * stretch across a tile expands a few hundred nodes, not thousands). */
static nb_status put_abstract(nbb_builder *b, const nbb_world *w, unsigned threads, nb_err *err)
{
    if (nbb_builder_has(b, NB_SEC_ABSTRACT))
        return NB_OK;
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    o.cluster = w->cluster;
    o.threads = threads;
    o.paths = w->paths != 0; /* world HAA*'s refinement copies them (manifest `paths`) */
    nbb_levels_opts lo = tile_levels(w);
    lo.threads = threads;
    return nbb_abstract_put_built(b, &o, w->levels > 1 ? &lo : NULL, 0, err);
}

/* The tables for inserting a query's end (manifest `insert: B`), one a
 * component layer (as the border graphs), made from b's sections so far:
 * the abstract graph they read is the bundle's as written (a checked view
 * of b's image).  Any table b holds (an old bundle's) goes first, so a
 * manifest without the key bakes today's bytes. */
static nb_status put_insert(nbb_builder *b, const nbb_world *w, nb_err *err)
{
    nbb_builder_remove(b, NB_SEC_TILE_INSERT);
    if (!w->insert)
        return NB_OK;
    uint8_t *img = NULL;
    size_t len = 0;
    nb_bundle *tb = NULL;
    nbi_wtile t;
    nbi_agraph g;
    nb_status st = nbb_builder_image(b, &img, &len, err);
    if (st == NB_OK)
        st = nb_bundle_open_memory(img, len, 0, nbb_mem(), &tb, err);
    if (st == NB_OK && (st = nbi_wtile_find(tb, &t, err)) == NB_OK)
        st = nbi_agraph_find(tb, &g, err);
    for (size_t i = 0; st == NB_OK && i < nb_bundle_section_count(tb); i++) {
        const nb_section_info *si = nb_bundle_section_get(tb, i);
        if (si->type == NB_SEC_COMPONENTS)
            st = nbb_world_insert_table(b, &g, &t, si->param[0], si->param[1], w->insert, err);
    }
    nb_bundle_close(tb);
    nbb_free(img);
    return st;
}

/* The header words a twin may differ in: the tile's column and row and
 * the world cell its map starts at.  Every other word (the world's and
 * the tile's shape, the halo, the inputs' count) and every input record
 * (the CRCs of the tile's map and of the cells its halo holds) must be
 * the same, or the tile is not a twin. */
static int placed_word(size_t at)
{
    return at == NBI_TILE_COLUMN || at == NBI_TILE_ROW || at == NBI_TILE_ORIGIN_X ||
           at == NBI_TILE_ORIGIN_Y;
}

/* 1 when the tile section payload have (of have_len bytes) is want's
 * (want_len bytes): the same tile when twin is 0; a twin, the same but
 * for where it lies (placed_word), when twin is 1. */
static int same_tile(const uint8_t *have, size_t have_len, const uint8_t *want, size_t want_len,
                     int twin)
{
    if (!twin)
        return have_len >= NBI_TILE_INPUTS && memcmp(have, want, NBI_TILE_INPUTS) == 0;
    if (have_len != want_len)
        return 0;
    for (size_t at = 0; at < NBI_TILE_HEADER; at += 4)
        if (!placed_word(at) && memcmp(have + at, want + at, 4) != 0)
            return 0;
    return memcmp(have + NBI_TILE_HEADER, want + NBI_TILE_HEADER, want_len - NBI_TILE_HEADER) == 0;
}

/* 1 when the bundle at path is this tile of this world (twin 0), or a
 * twin of it (twin 1: another tile baked from the same cells, same_tile),
 * baked with this halo, cluster and levels: then updating it gives a
 * whole bake's bytes.  Any other (another world's tile, damaged, missing,
 * levels the manifest no longer asks for) is baked over whole. */
static int old_usable(const char *path, const uint8_t *want, size_t want_len, const nbb_world *w,
                      int twin)
{
    nb_bundle *ob;
    if (nb_bundle_open(path, 0, nbb_mem(), &ob, NULL) != NB_OK)
        return 0;
    nbi_wtile t;
    long a = nbi_section_index(ob, NB_SEC_ABSTRACT, NULL, NULL, 0);
    long lv = nbi_section_index(ob, NB_SEC_ABSTRACT_LEVELS, NULL, NULL, 0);
    nbb_levels_opts lo = tile_levels(w);
    int ok = nbi_wtile_find(ob, &t, NULL) == NB_OK && !t.has_digest &&
             same_tile(ob->sections[t.section].payload, (size_t)ob->sections[t.section].info.usize,
                       want, want_len, twin) &&
             (a < 0 || ob->sections[a].info.param[0] == w->cluster) &&
             (w->levels > 1 ? a < 0 || (lv >= 0 && nbb_levels_baked_with(
                                                      ob->sections[lv].payload,
                                                      (size_t)ob->sections[lv].info.usize, &lo))
                            : lv < 0);
    nb_bundle_close(ob);
    return ok;
}

nb_status nbb_world_tile_bake(const nbb_world *w, uint32_t tx, uint32_t ty, const char *old_path,
                              unsigned threads, nbb_world_tile_out *out, nb_err *err)
{
    return nbb_world_tile_bake_strips(w, tx, ty, NULL, old_path, threads, out, err);
}

nb_status nbb_world_tile_bake_strips(const nbb_world *w, uint32_t tx, uint32_t ty, const char *dir,
                                     const char *old_path, unsigned threads,
                                     nbb_world_tile_out *out, nb_err *err)
{
    return nbb_world_tile_bake_twin(w, tx, ty, dir, old_path, NULL, threads, out, err);
}

nb_status nbb_world_tile_bake_twin(const nbb_world *w, uint32_t tx, uint32_t ty, const char *dir,
                                   const char *old_path, const char *twin_path, unsigned threads,
                                   nbb_world_tile_out *out, nb_err *err)
{
    memset(out, 0, sizeof *out);
    if (tx >= w->columns || ty >= w->rows)
        return nbi_fail(err, NB_ERR_ARG, "tile (%u, %u) is not in the world's %u x %u tiles", tx,
                        ty, w->columns, w->rows);
    nbb_level l;
    memset(&l, 0, sizeof l);
    nbb_world_input in[NBI_TILE_MAX_INPUTS];
    uint32_t nin = 0, halo = 0;
    nbb_builder *b = NULL;
    nb_bundle *old = NULL;
    nb_status st = tile_level(w, tx, ty, dir, threads, &l, &halo, in, &nin, err);
    /* A twin's bundle, when it is one, stands for the old one: updating
     * it changes no cell, so only the tile section is written anew (the
     * rest kept as stored, the bytes a whole bake's). */
    if (st == NB_OK && (old_path || twin_path)) {
        size_t len;
        uint8_t *want = tile_payload(w, tx, ty, halo, in, nin, NULL, &len);
        if (!want)
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
        else if (twin_path && old_usable(twin_path, want, len, w, 1))
            old_path = twin_path, out->twin = 1;
        else if (old_path && !old_usable(old_path, want, len, w, 0))
            old_path = NULL;
        nbb_free(want);
    }
    if (st == NB_OK)
        st = nbb_builder_new(&b, err);
    if (st == NB_OK) {
        nbb_builder_threads(b, threads);
        /* The tile bundle there is brought up to date (the bytes are a
         * whole bake's); one that cannot be read is baked again whole. */
        if (old_path && nbb_builder_open_update(b, old_path, &old, NULL) != NB_OK) {
            nbb_builder_free(b);
            old = NULL;
            out->twin = 0;
            if ((st = nbb_builder_new(&b, err)) == NB_OK)
                nbb_builder_threads(b, threads);
        }
    }
    nbb_rebake_opts ro = {0, threads, 0, NULL, NULL};
    if (st == NB_OK)
        st = nbb_level_rebake(b, &l, old, &ro, &out->stats, err);
    if (st == NB_OK)
        st = put_abstract(b, w, threads, err);
    if (st == NB_OK)
        st = put_tile(b, w, tx, ty, halo, in, nin, NULL, err);
    /* A tile has few components: stored by runs, a few bits a run (when
     * that is smaller, as on any tile but a maze's or noise's). */
    if (st == NB_OK)
        st = nbb_builder_comp_runs(b, 0, err);
    if (st == NB_OK)
        st = put_insert(b, w, err);
    if (st == NB_OK)
        st = nbb_builder_image(b, &out->tile, &out->tile_len, err);
    if (st == NB_OK &&
        !(out->twin && old && twin_border(twin_path, old, w, tx, ty, halo, in, nin, out->tile,
                                   out->tile_len, &out->border, &out->border_len, &st, err)))
        st = border_file(&l.legend, &l.agents, w, tx, ty, halo, in, nin, out->tile, out->tile_len,
                         &out->border, &out->border_len, err);
    nbb_builder_free(b);
    nb_bundle_close(old);
    nbb_grid_free(&l.grid);
    if (st != NB_OK) {
        nbb_world_tile_out_free(out);
        nbi_err_prefix(err, "tile (%u, %u)", tx, ty);
    } else
        nbi_ok(err);
    return st;
}

void nbb_world_tile_out_free(nbb_world_tile_out *out)
{
    nbb_free(out->tile);
    nbb_free(out->border);
    out->tile = out->border = NULL;
}
