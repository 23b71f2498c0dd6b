/* world_handle.c: nb_world, a world of tiles whose tiles the game maps and
 * drops (navbake.h, nb_world_open(3)).  The world bundle is opened and
 * checked once; a tile bundle is opened only when the game loads it, and
 * refused unless it is the one the world was linked from (its digest and
 * its tile section against the index).  Loads and unloads come from one
 * thread; queries from any number (stream.h says how they meet). */
#include <stdio.h>
#include <string.h>

#include "bundle/osfile.h"
#include "sections/sections.h"
#include "stream/stream.h"

/* The loading lock (stream.h): held for a load or an unload and its sweep,
 * so a wait is as long as one tile's mapping. */
static void lock(nb_world *w)
{
    while (atomic_flag_test_and_set_explicit(&w->lock, memory_order_acquire))
        nbi_os_yield();
}

static void unlock(nb_world *w) { atomic_flag_clear_explicit(&w->lock, memory_order_release); }

/* What a bundle holds, for nb_world_bytes: its file (mapped or read) and
 * its section table. */
static size_t bundle_bytes(const nb_bundle *b)
{
    return sizeof *b + (size_t)b->size + b->nsections * sizeof b->sections[0] +
           (b->path ? strlen(b->path) + 1 : 0);
}

static void tile_free(nb_world *w, nbi_stile *t)
{
    nb_bundle_close(t->b);
    nbi_free(w->index->a, t->components);
    nbi_free(w->index->a, t->insert);
    nbi_free(w->index->a, t);
}

/* Unmaps the retired tiles that no query reads any more. */
static void sweep(nb_world *w)
{
    nbi_stile **p = &w->retired;
    while (*p) {
        nbi_stile *t = *p;
        if (atomic_load(&w->slots[t->index].readers) == 0) {
            *p = t->next;
            atomic_fetch_sub(&w->tile_bytes, t->bytes);
            atomic_fetch_sub(&w->nretired, 1);
            tile_free(w, t);
        } else
            p = &t->next;
    }
}

void nb_world_close(nb_world *w)
{
    if (!w)
        return;
    const nb_allocator *a = w->index->a;
    for (uint64_t i = 0; w->slots && i < (uint64_t)w->x.columns * w->x.rows; i++) {
        nbi_stile *t = atomic_load(&w->slots[i].tile);
        if (t)
            tile_free(w, t);
    }
    while (w->retired) {
        nbi_stile *t = w->retired;
        w->retired = t->next;
        tile_free(w, t);
    }
    nbi_free(a, w->slots);
    nbi_free(a, w->comp);
    nbi_free(a, w->folder);
    nb_bundle *b = w->index;
    nbi_free(a, w);
    nb_bundle_close(b);
}

/* The folder "tiles" beside the file at path. */
static char *tiles_beside(const nb_allocator *a, const char *path)
{
    size_t dir = 0;
    for (size_t i = 0; path[i]; i++)
        if (path[i] == '/' || path[i] == '\\')
            dir = i + 1;
    char *s = nbi_alloc(a, dir + sizeof "tiles");
    if (s) {
        memcpy(s, path, dir);
        memcpy(s + dir, "tiles", sizeof "tiles");
    }
    return s;
}

static nb_status open_world(const char *path, const char *tiles, unsigned flags,
                            const nb_allocator *alloc, nb_world **out, nb_err *err)
{
    nb_bundle *b;
    nb_status st = nbi_open_path(&nbi_sections, path, flags, alloc, &b, err);
    if (st != NB_OK)
        return st;
    const nb_allocator *a = b->a;
    nb_world *w = nbi_alloc(a, sizeof *w);
    if (!w) {
        nb_bundle_close(b);
        return nbi_fail_nomem(err, "a world");
    }
    memset(w, 0, sizeof *w);
    w->index = b;
    w->flags = flags;
    atomic_init(&w->loaded, 0);
    atomic_init(&w->nretired, 0);
    atomic_init(&w->tile_bytes, 0);
    atomic_init(&w->budget, 0);
    atomic_init(&w->clock, 0);
    atomic_init(&w->serials, 0);
    atomic_flag_clear(&w->lock);
    if ((st = nbi_windex_find(b, &w->x, err)) != NB_OK) {
        nb_world_close(w);
        return st;
    }
    for (size_t i = 0; i < b->nsections; i++)
        w->ncomp += b->sections[i].info.type == NB_SEC_WORLD_COMPONENTS;
    uint64_t ntiles = (uint64_t)w->x.columns * w->x.rows;
    w->comp = nbi_alloc_array(a, w->ncomp ? w->ncomp : 1, sizeof *w->comp);
    /* Zeroed: a close after a failure below reads every slot. */
    w->slots = nbi_zalloc_array(a, (size_t)ntiles, sizeof *w->slots);
    w->folder = tiles ? nbi_strdup(a, tiles) : tiles_beside(a, path);
    if (!w->comp || !w->slots || !w->folder) {
        nb_world_close(w);
        return nbi_fail_nomem(err, "a world's index");
    }
    for (uint64_t t = 0; t < ntiles; t++) {
        atomic_init(&w->slots[t].tile, NULL);
        atomic_init(&w->slots[t].readers, 0);
        atomic_init(&w->slots[t].used, 0);
    }
    for (size_t i = 0, k = 0; i < b->nsections; i++)
        if (b->sections[i].info.type == NB_SEC_WORLD_COMPONENTS &&
            (st = nbi_wcomp_at(b, i, &w->comp[k++], err)) != NB_OK) {
            nb_world_close(w);
            return st;
        }
    w->own_bytes = sizeof *w + bundle_bytes(b) + w->ncomp * sizeof *w->comp +
                   (size_t)ntiles * sizeof *w->slots + strlen(w->folder) + 1;
    *out = w;
    return NB_OK;
}

nb_status nb_world_open_abi(const char *path, const char *tiles, unsigned flags,
                            const nb_allocator *alloc, nb_world **out, nb_err *err,
                            const nb_abi *abi)
{
    if (out)
        *out = NULL;
    nb_status st = nb_abi_check(abi, err);
    if (st != NB_OK)
        return st;
    if (!path || !out)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_open: a NULL path or out");
    return nbi_done(err, open_world(path, tiles, flags, alloc, out, err));
}

const nb_bundle *nb_world_bundle(const nb_world *w) { return w ? w->index : NULL; }

void nb_world_describe(const nb_world *w, nb_world_info *info)
{
    if (!w || !info)
        return;
    memset(info, 0, sizeof *info);
    info->width = w->x.width, info->height = w->x.height, info->tile = w->x.side;
    info->cluster = w->x.cluster, info->halo = w->x.halo;
    info->columns = w->x.columns, info->rows = w->x.rows;
    info->loaded = atomic_load(&w->loaded);
    info->retired = atomic_load(&w->nretired);
}

void nb_world_set_loader(nb_world *w, nb_world_loader loader, nb_world_release release,
                         void *opaque)
{
    if (!w)
        return;
    w->loader = loader, w->release = release, w->opaque = opaque;
}

size_t nb_world_bytes(const nb_world *w)
{
    return w ? w->own_bytes + atomic_load(&w->tile_bytes) : 0;
}

static nb_status tile_outside(const nb_world *w, nb_world_tile t, nb_err *err)
{
    return nbi_fail(err, NB_ERR_OUTSIDE,
                    "%s: tile (%u, %u) is outside the world's %u x %u tiles", w->index->path,
                    t.column, t.row, w->x.columns, w->x.rows);
}

int nb_world_loaded(const nb_world *w, nb_world_tile t)
{
    return w && t.column < w->x.columns && t.row < w->x.rows &&
           atomic_load(&w->slots[(size_t)t.row * w->x.columns + t.column].tile) != NULL;
}

/* The tile bundle is the one the index names: its digest (the file's size
 * and its header's table CRC, as the link read them from the border file)
 * and its tile section (this tile of a world of this shape). */
static nb_status tile_matches(const nb_world *w, const nb_bundle *b, nb_world_tile tile,
                              nbi_wtile *tag, nb_err *err)
{
    const uint8_t *d = w->x.digests + ((size_t)tile.row * w->x.columns + tile.column) * NBI_DIGEST_SIZE;
    uint64_t bytes = nbi_get64(d + NBI_DIGEST_BYTES);
    uint32_t crc = nbi_get32(d + NBI_DIGEST_TABLE_CRC);
    uint32_t have = nbi_get32(b->data + NBI_HDR_TABLE_CRC);
    if (b->size != bytes || have != crc)
        return nbi_fail(err, NB_ERR_MISMATCH,
                        "%s: a bundle of %llu bytes with table CRC %08x, where the world %s was "
                        "linked from one of %llu bytes with table CRC %08x: bake the tile and "
                        "link the world again, or restore the tile it was linked with",
                        b->path, (unsigned long long)b->size, have,
                        w->index->path, (unsigned long long)bytes, crc);
    nb_status st = nbi_wtile_find(b, tag, err);
    if (st == NB_ERR_NOTFOUND)
        return nbi_fail(err, NB_ERR_MISMATCH, "%s: not a tile bundle (no tile section)",
                        b->path);
    if (st != NB_OK)
        return st;
    if (tag->column != tile.column || tag->row != tile.row || tag->width != w->x.width ||
        tag->height != w->x.height || tag->side != w->x.side || tag->cluster != w->x.cluster ||
        tag->halo != w->x.halo)
        return nbi_fail(err, NB_ERR_MISMATCH,
                        "%s: the bundle is tile (%u, %u) of a world of %u x %u cells in tiles of "
                        "%u (clusters %u, halo %u); the world %s is %u x %u in tiles of %u "
                        "(clusters %u, halo %u)",
                        b->path, tag->column, tag->row, tag->width,
                        tag->height, tag->side, tag->cluster, tag->halo, w->index->path,
                        w->x.width, w->x.height, w->x.side, w->x.cluster, w->x.halo);
    return NB_OK;
}

/* The views the queries read, each checked against the world's numbers. */
static nb_status tile_views(const nb_world *w, nbi_stile *t, nb_err *err)
{
    for (size_t i = 0; i < w->ncomp; i++) {
        const nbi_wcomp *c = &w->comp[i];
        nb_status st = nbi_components_layer(t->b, c->capability, c->size, &t->components[i], err);
        if (st != NB_OK)
            return st;
        uint32_t n = nbi_u32at(c->first, t->index + 1) - nbi_u32at(c->first, t->index);
        if (t->components[i].maxval != n)
            return nbi_fail(err, NB_ERR_MISMATCH,
                            "%s: %u components for capability %#x and size %u, where the world "
                            "numbers %u",
                            t->b->path, t->components[i].maxval,
                            c->capability, c->size, n);
    }
    return NB_OK;
}

/* The tile's tables for inserting an end, each checked whole against its
 * graph once here (world/insert.c): a query reads them unchecked. */
static nb_status tile_inserts(const nb_world *w, nbi_stile *t, nb_err *err)
{
    const nb_bundle *b = t->b;
    size_t n = 0;
    for (size_t i = 0; i < b->nsections; i++)
        n += b->sections[i].info.type == NB_SEC_TILE_INSERT;
    if (!n)
        return NB_OK;
    if (!(t->insert = nbi_alloc_array(w->index->a, n, sizeof *t->insert)))
        return nbi_fail_nomem(err, "a tile's insertion tables");
    for (size_t i = 0; i < b->nsections; i++) {
        if (b->sections[i].info.type != NB_SEC_TILE_INSERT)
            continue;
        nb_status st = nbi_tins_at(b, i, &t->insert[t->ninsert], err);
        if (st != NB_OK)
            return st;
        t->ninsert++;
    }
    return NB_OK;
}

/* Opens tile's bundle, from the loader or the tile folder. */
static nb_status tile_open(nb_world *w, nb_world_tile tile, nb_bundle **b, nb_err *err)
{
    const nb_allocator *a = w->index->a;
    if (!w->loader) {
        char path[4096];
        int n = snprintf(path, sizeof path, "%s/%u_%u.nbb", w->folder, tile.column, tile.row);
        if (n < 0 || (size_t)n >= sizeof path)
            return nbi_fail(err, NB_ERR_LIMIT, "%s: the tile folder's path is too long",
                            w->index->path);
        return nbi_open_path(&nbi_sections, path, w->flags, a, b, err);
    }
    const char *path = NULL;
    const void *data = NULL;
    size_t len = 0;
    nb_status st = w->loader(w->opaque, tile, &path, &data, &len, err);
    if (st != NB_OK)
        return st;
    if (path)
        st = nbi_open_path(&nbi_sections, path, w->flags, a, b, err);
    else if (data)
        st = nbi_open_memory(&nbi_sections, data, len, w->flags, a, b, err);
    else
        st = nbi_fail(err, NB_ERR_ARG, "the loader gave neither a path nor bytes");
    if (data && w->release)
        w->release(w->opaque, tile, data);
    return st;
}

static nb_status load(nb_world *w, nb_world_tile tile, nb_err *err)
{
    if (tile.column >= w->x.columns || tile.row >= w->x.rows)
        return tile_outside(w, tile, err);
    sweep(w);
    uint32_t index = tile.row * w->x.columns + tile.column;
    if (atomic_load(&w->slots[index].tile))
        return NB_OK;
    const nb_allocator *a = w->index->a;
    nbi_stile *t = nbi_alloc(a, sizeof *t);
    nbi_layer *views = nbi_alloc_array(a, w->ncomp ? w->ncomp : 1, sizeof *views);
    if (!t || !views) {
        nbi_free(a, t);
        nbi_free(a, views);
        return nbi_fail_nomem(err, "a tile");
    }
    memset(t, 0, sizeof *t);
    t->components = views;
    t->index = index;
    nb_status st = tile_open(w, tile, &t->b, err);
    if (st == NB_OK && (st = tile_matches(w, t->b, tile, &t->tag, err)) == NB_OK &&
        (st = tile_views(w, t, err)) == NB_OK)
        st = tile_inserts(w, t, err);
    if (st != NB_OK) {
        /* Every refusal names the tile first, then its file. */
        nbi_err_prefix(err, "tile (%u, %u)", tile.column, tile.row);
        if (t->b)
            tile_free(w, t);
        else {
            nbi_free(a, views);
            nbi_free(a, t);
        }
        return st;
    }
    t->bytes = sizeof *t + bundle_bytes(t->b) + w->ncomp * sizeof *views +
               t->ninsert * sizeof *t->insert;
    t->serial = atomic_fetch_add(&w->serials, 1) + 1;
    atomic_fetch_add(&w->tile_bytes, t->bytes);
    atomic_fetch_add(&w->loaded, 1);
    nbi_world_touch(w, index);
    atomic_store(&w->slots[index].tile, t);
    return NB_OK;
}

static nb_status unload(nb_world *w, nb_world_tile tile, nb_err *err)
{
    if (tile.column >= w->x.columns || tile.row >= w->x.rows)
        return tile_outside(w, tile, err);
    nbi_slot *s = &w->slots[(size_t)tile.row * w->x.columns + tile.column];
    /* Out of the queries' sight first: a query that pins the slot after
     * this finds it empty, and one that pinned it before is counted. */
    nbi_stile *t = atomic_exchange(&s->tile, NULL);
    if (t) {
        atomic_fetch_sub(&w->loaded, 1);
        t->next = w->retired;
        w->retired = t;
        atomic_fetch_add(&w->nretired, 1);
    }
    sweep(w);
    return NB_OK;
}

/* Under the budget: unloads the least recently used tiles that no query
 * pins, keep aside, until the world's bytes are within it (or no such tile
 * is left: the tiles pinned hold more).  Under the lock. */
static void evict(nb_world *w, uint32_t keep)
{
    size_t budget = atomic_load(&w->budget);
    if (!budget)
        return;
    sweep(w);
    uint32_t n = w->x.columns * w->x.rows;
    while (w->own_bytes + atomic_load(&w->tile_bytes) > budget) {
        uint32_t best = n;
        uint_fast64_t least = UINT_FAST64_MAX;
        for (uint32_t i = 0; i < n; i++) {
            nbi_slot *s = &w->slots[i];
            uint_fast64_t used = atomic_load_explicit(&s->used, memory_order_relaxed);
            if (i != keep && used < least && atomic_load(&s->tile) &&
                atomic_load(&s->readers) == 0)
                best = i, least = used;
        }
        if (best == n)
            return;
        /* A query that pins it meanwhile keeps it mapped (retired) to its end. */
        unload(w, (nb_world_tile){best % w->x.columns, best / w->x.columns}, NULL);
    }
}

static nb_status load_locked(nb_world *w, nb_world_tile tile, nb_err *err)
{
    lock(w);
    nb_status st = load(w, tile, err);
    if (st == NB_OK)
        evict(w, tile.row * w->x.columns + tile.column);
    unlock(w);
    return st;
}

static nb_status unload_locked(nb_world *w, nb_world_tile tile, nb_err *err)
{
    lock(w);
    nb_status st = unload(w, tile, err);
    unlock(w);
    return st;
}

nb_status nb_world_load(nb_world *w, nb_world_tile tile, nb_err *err)
{
    if (!w)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_load: no world");
    return nbi_done(err, load_locked(w, tile, err));
}

nb_status nb_world_unload(nb_world *w, nb_world_tile tile, nb_err *err)
{
    if (!w)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_unload: no world");
    return nbi_done(err, unload_locked(w, tile, err));
}

nb_status nbi_world_fetch(nb_world *w, uint32_t ti, nb_err *err)
{
    return load_locked(w, (nb_world_tile){ti % w->x.columns, ti / w->x.columns}, err);
}

void nbi_world_trim(nb_world *w)
{
    size_t budget = atomic_load(&w->budget);
    if (!budget || (w->own_bytes + atomic_load(&w->tile_bytes) <= budget &&
                    atomic_load(&w->nretired) == 0))
        return;
    lock(w);
    evict(w, UINT32_MAX);
    sweep(w);
    unlock(w);
}

void nb_world_set_budget(nb_world *w, size_t bytes)
{
    if (!w)
        return;
    atomic_store(&w->budget, bytes);
    lock(w);
    evict(w, UINT32_MAX);
    unlock(w);
}

/* What of a bundle is in memory: a mapped file's pages the system holds
 * (mincore), and whole what was read or copied into the allocator's
 * memory; its table and the handle's views are the allocator's too. */
static size_t bundle_resident(const nb_bundle *b, size_t bytes)
{
    if (!b->mapping)
        return bytes;
    return bytes - (size_t)b->size + nbi_file_resident(b->mapping, b->mapping_len);
}

size_t nb_world_resident(const nb_world *cw)
{
    if (!cw)
        return 0;
    /* The lock keeps every tile mapped while its pages are counted. */
    nb_world *w = (nb_world *)cw;
    lock(w);
    size_t in = bundle_resident(w->index, w->own_bytes);
    for (uint64_t i = 0; i < (uint64_t)w->x.columns * w->x.rows; i++) {
        const nbi_stile *t = atomic_load(&w->slots[i].tile);
        if (t)
            in += bundle_resident(t->b, t->bytes);
    }
    for (const nbi_stile *t = w->retired; t; t = t->next)
        in += bundle_resident(t->b, t->bytes);
    unlock(w);
    return in;
}

/* Each tile the rectangle meets, clipped to the world, through f. */
static nb_status each_tile(nb_world *w, long x, long y, long cw, long ch,
                           nb_status (*f)(nb_world *, nb_world_tile, nb_err *), const char *fn,
                           nb_err *err)
{
    if (!w)
        return nbi_fail(err, NB_ERR_ARG, "%s: no world", fn);
    if (cw < 1 || ch < 1)
        return nbi_fail(err, NB_ERR_ARG, "%s: a rectangle of %ld x %ld cells: it must be 1 x 1 "
                        "or more", fn, cw, ch);
    long x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    long x1 = x > (long)w->x.width - cw ? (long)w->x.width : x + cw;
    long y1 = y > (long)w->x.height - ch ? (long)w->x.height : y + ch;
    for (long ty = y0 / w->x.side; y0 < y1 && ty <= (y1 - 1) / (long)w->x.side; ty++)
        for (long tx = x0 / w->x.side; x0 < x1 && tx <= (x1 - 1) / (long)w->x.side; tx++) {
            nb_world_tile t = {(uint32_t)tx, (uint32_t)ty};
            nb_status st = f(w, t, err);
            if (st != NB_OK)
                return st;
        }
    return nbi_done(err, NB_OK);
}

nb_status nb_world_load_cells(nb_world *w, long x, long y, long cw, long ch, nb_err *err)
{
    return each_tile(w, x, y, cw, ch, load_locked, "nb_world_load_cells", err);
}

nb_status nb_world_unload_cells(nb_world *w, long x, long y, long cw, long ch, nb_err *err)
{
    return each_tile(w, x, y, cw, ch, unload_locked, "nb_world_unload_cells", err);
}
