/* tiled_codes.c: the terrain code of each tile a Tiled map uses
 * (formats/tiled.md).  Codes are made for the distinct gids the layers and
 * objects hold, never for a range of ids up to the largest: a gid is a
 * number in the file, and a tileset that does not say its tile count lets
 * it reach 2^28, so work over the range would follow that number and not
 * the map (the fuzz finding levels-slow-tiled-json-max-id took 273 s).
 * Everything here is bounded by the gids stored times the logarithm of
 * the tilesets' and tiles' counts. */
#include <stdio.h>
#include <stdlib.h>

#include "core/heap.h"
#include "levels.h"

#define OBST ((int)NBI_CELL_OBSTACLE)

/* A tileset (by its firstgid) or a tile (by its id), and where it is in
 * the file: sorted by id, ties in the file's order. */
typedef struct tile_ref {
    uint32_t id;
    uint32_t at;
} tile_ref;

typedef struct tile_index {
    tile_ref *sets;   /* the tilesets by firstgid */
    tile_ref **tiles; /* each tileset's tiles by id */
} tile_index;

static int by_id(const void *a, const void *b)
{
    const tile_ref *x = a, *y = b;
    return x->id != y->id ? (x->id < y->id ? -1 : 1) : (x->at < y->at ? -1 : x->at > y->at);
}

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int index_make(const nbb_tiled_map *m, tile_index *ix)
{
    ix->sets = nbb_malloc((m->ntilesets ? m->ntilesets : 1) * sizeof *ix->sets);
    ix->tiles = nbb_calloc(m->ntilesets ? m->ntilesets : 1, sizeof *ix->tiles);
    if (!ix->sets || !ix->tiles)
        return -1;
    for (size_t i = 0; i < m->ntilesets; i++) {
        const nbb_tiled_tileset *t = &m->tilesets[i];
        ix->sets[i] = (tile_ref){t->firstgid, (uint32_t)i};
        ix->tiles[i] = nbb_malloc((t->ntiles ? t->ntiles : 1) * sizeof **ix->tiles);
        if (!ix->tiles[i])
            return -1;
        for (size_t k = 0; k < t->ntiles; k++)
            ix->tiles[i][k] = (tile_ref){t->tiles[k].id, (uint32_t)k};
    }
    nbi_sort(ix->sets, m->ntilesets, sizeof *ix->sets, by_id);
    for (size_t i = 0; i < m->ntilesets; i++)
        nbi_sort(ix->tiles[i], m->tilesets[i].ntiles, sizeof **ix->tiles, by_id);
    return 0;
}

static void index_free(const nbb_tiled_map *m, tile_index *ix)
{
    for (size_t i = 0; ix->tiles && i < m->ntilesets; i++)
        nbb_free(ix->tiles[i]);
    nbb_free(ix->tiles);
    nbb_free(ix->sets);
}

/* The tileset of gid: the one of the largest firstgid not above it, the
 * first in the file of those; -1 when none. */
static int tileset_of(const nbb_tiled_map *m, const tile_index *ix, uint32_t gid, uint32_t *id)
{
    size_t lo = 0, hi = m->ntilesets; /* the first with firstgid > gid */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix->sets[mid].id <= gid)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    uint32_t first = ix->sets[lo - 1].id;
    while (lo > 1 && ix->sets[lo - 2].id == first)
        lo--;
    *id = gid - first;
    return (int)ix->sets[lo - 1].at;
}

/* The first tile of tileset ts with that id, or NULL. */
static const nbb_tiled_tile *tile_of(const nbb_tiled_map *m, const tile_index *ix, int ts, uint32_t id)
{
    const tile_ref *r = ix->tiles[ts];
    size_t lo = 0, hi = m->tilesets[ts].ntiles;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->tilesets[ts].ntiles && r[lo].id == id ? &m->tilesets[ts].tiles[r[lo].at] : NULL;
}

/* Whether a layer may hold tile id of tileset ts: a collection's listed
 * ids, or any below the tile count when there is one. */
static int allowed(const nbb_tiled_map *m, const tile_index *ix, int ts, uint32_t id)
{
    const nbb_tiled_tileset *t = &m->tilesets[ts];
    if (t->collection)
        return tile_of(m, ix, ts, id) != NULL;
    return !t->count || id < t->count;
}

/* The located error of the layers' first gid (in the file's order) that
 * is not allowed; there is one. */
static nb_status bad_gid(const nbb_tiled_map *m, const tile_index *ix, nb_err *err)
{
    for (size_t l = 0; l < m->nlayers; l++)
        for (size_t c = 0; c < m->layers[l].nchunks; c++) {
            const nbb_tiled_chunk *k = &m->layers[l].chunks[c];
            for (size_t i = 0; i < (size_t)k->w * k->h; i++) {
                uint32_t gid = k->gids[i] & NBB_TILED_GID_MASK, id;
                if (!gid)
                    continue;
                const char *layer = m->layers[l].name;
                long long x = (long long)(k->x + (int64_t)(i % k->w));
                long long y = (long long)(k->y + (int64_t)(i / k->w));
                int ts = tileset_of(m, ix, gid, &id);
                if (ts < 0)
                    return nbi_fail(err, NB_ERR_FORMAT,
                                    "%s: layer '%s', cell (%lld, %lld): gid %u belongs to no tileset",
                                    m->file, layer, x, y, gid);
                if (allowed(m, ix, ts, id))
                    continue;
                const nbb_tiled_tileset *t = &m->tilesets[ts];
                if (t->collection)
                    return nbi_fail(err, NB_ERR_FORMAT,
                                    "%s: layer '%s', cell (%lld, %lld): gid %u is tile %u of tileset '%s', "
                                    "a collection without that tile (firstgid %u)",
                                    m->file, layer, x, y, gid, id, t->name ? t->name : "",
                                    t->firstgid);
                return nbi_fail(err, NB_ERR_FORMAT,
                                "%s: layer '%s', cell (%lld, %lld): gid %u is tile %u of tileset '%s', "
                                "which has %u tiles (firstgid %u)",
                                m->file, layer, x, y, gid, id, t->name ? t->name : "", t->count,
                                t->firstgid);
            }
        }
    return nbi_fail(err, NB_ERR_FORMAT, "%s: a tile id beyond its tileset", m->file);
}

/* What tile id of tileset ts names: "TILESET:ID" in the legend, else its own name. */
static int tile_code(const nbb_tiled_map *m, const tile_index *ix, int ts, uint32_t id,
                     const nbi_legend *legend, const nbb_legend_ext *ext)
{
    const nbb_tiled_tileset *t = &m->tilesets[ts];
    char key[NBB_MATCH_KEY_MAX + 16];
    snprintf(key, sizeof key, "%s:%u", t->name ? t->name : "", id);
    /* No terrain's name holds ':', so only the legend's entry matches. */
    int c = nbb_legend_name_code(legend, ext, NBB_MATCH_TILE, key);
    if (c >= 0)
        return c;
    const nbb_tiled_tile *tile = tile_of(m, ix, ts, id);
    return tile ? nbb_legend_name_code(legend, ext, NBB_MATCH_TILE, tile->name) : -1;
}

/* Every gid the layers and objects hold, once, ascending; the layers' are
 * marked by the low bit of key (gid << 1 | from a layer). */
static nb_status used_gids(const nbb_tiled_map *m, uint32_t **out, size_t *n, nb_err *err)
{
    size_t total = m->nobjects;
    for (size_t l = 0; l < m->nlayers; l++)
        for (size_t c = 0; c < m->layers[l].nchunks; c++)
            total += (size_t)m->layers[l].chunks[c].w * m->layers[l].chunks[c].h;
    uint32_t *key = nbb_malloc((total ? total : 1) * sizeof *key);
    if (!key)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for the map's tiles", m->file);
    size_t k = 0;
    for (size_t l = 0; l < m->nlayers; l++)
        for (size_t c = 0; c < m->layers[l].nchunks; c++) {
            const nbb_tiled_chunk *ch = &m->layers[l].chunks[c];
            for (size_t i = 0; i < (size_t)ch->w * ch->h; i++)
                if (ch->gids[i] & NBB_TILED_GID_MASK)
                    key[k++] = (ch->gids[i] & NBB_TILED_GID_MASK) << 1 | 1;
        }
    for (size_t o = 0; o < m->nobjects; o++)
        if (m->objects[o].gid)
            key[k++] = (m->objects[o].gid & NBB_TILED_GID_MASK) << 1;
    nbi_sort(key, k, sizeof *key, by_u32);
    size_t d = 0;
    for (size_t i = 0; i < k; i++) {
        if (d && key[d - 1] >> 1 == key[i] >> 1)
            key[d - 1] |= key[i] & 1;
        else
            key[d++] = key[i];
    }
    *out = key, *n = d;
    return NB_OK;
}

nb_status nbb_tiled_codes_make(const nbb_tiled_map *m, const nbi_legend *legend,
                               const nbb_legend_ext *ext, nbb_tiled_codes *cs, nb_err *err)
{
    memset(cs, 0, sizeof *cs);
    tile_index ix = {0};
    uint32_t *key = NULL;
    size_t n = 0;
    nb_status st = index_make(m, &ix) == 0
                       ? NB_OK
                       : nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for the tilesets", m->file);
    if (st == NB_OK)
        st = used_gids(m, &key, &n, err);
    for (size_t i = 0; st == NB_OK && i < n; i++) {
        uint32_t id;
        int ts = tileset_of(m, &ix, key[i] >> 1, &id);
        if ((key[i] & 1) && (ts < 0 || !allowed(m, &ix, ts, id)))
            st = bad_gid(m, &ix, err);
    }
    for (size_t o = 0; st == NB_OK && o < m->nobjects; o++) {
        uint32_t id;
        if (m->objects[o].gid && tileset_of(m, &ix, m->objects[o].gid, &id) < 0)
            st = nbi_fail(err, NB_ERR_FORMAT, "%s: object %u of layer '%s': gid %u belongs to no tileset",
                          m->file, m->objects[o].id, m->objects[o].layer, m->objects[o].gid);
    }
    if (st == NB_OK) {
        cs->gid = nbb_malloc((n ? n : 1) * sizeof *cs->gid);
        cs->code = nbb_malloc((n ? n : 1) * sizeof *cs->code);
        if (!cs->gid || !cs->code)
            st = nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for the tiles' codes", m->file);
    }
    /* A tile that names nothing is an obstacle on any layer when the legend
     * says so; otherwise it gives way to a named terrain. */
    int unnamed = ext && ext->unnamed == OBST ? OBST : -1;
    for (size_t i = 0; st == NB_OK && i < n; i++) {
        uint32_t id;
        int ts = tileset_of(m, &ix, key[i] >> 1, &id);
        int c = tile_code(m, &ix, ts, id, legend, ext);
        cs->lookups++;
        cs->gid[i] = key[i] >> 1;
        cs->code[i] = (int16_t)(c >= 0 ? c : unnamed);
    }
    cs->n = n;
    nbb_free(key);
    index_free(m, &ix);
    if (st != NB_OK)
        nbb_tiled_codes_free(cs);
    return st;
}

int nbb_tiled_code(const nbb_tiled_codes *cs, uint32_t gid)
{
    size_t lo = 0, hi = cs->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cs->gid[mid] < gid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < cs->n && cs->gid[lo] == gid ? cs->code[lo] : -1;
}

void nbb_tiled_codes_free(nbb_tiled_codes *cs)
{
    nbb_free(cs->gid);
    nbb_free(cs->code);
    memset(cs, 0, sizeof *cs);
}
