/* link_cache.c: the link's cache (FOLDER/link.cache, formats/world.md):
 * what the link made of each tile's border file (its rings, its portals,
 * the arcs the spanner keeps, its links), keyed by the file's digest.
 * After an edit the link reads only the border files whose digest is not
 * the one cached for their tile; the others cost a header each.  The
 * cache is checked whole (its own CRC-32, its version, its tile count)
 * and bounds-checked as it is read: anything wrong and it is ignored, the
 * link reading every border file, so it can only save time, never change
 * the world bundle's bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/crc32.h"
#include "world/link_tile.h"

#define MAGIC "NBLCACHE"
/* Bumped whenever what a record holds, or how the link derives it from a
 * border file (the spanner's stretch), changes. */
#define CACHE_VERSION 5
#define CACHE_HEADER 20 /* magic, version, tiles, 0; then an offset a tile: */
#define CACHE_VERSION_AT 8 /* u32 */
#define CACHE_TILES_AT 12  /* u32 */

void nbb_link_tile_free(nbb_link_tile *tb)
{
    for (uint32_t k = 0; tb->c && k < tb->classes; k++) {
        nbb_link_class *c = &tb->c[k];
        nbb_free(c->inner), nbb_free(c->outer), nbb_free(c->core);
        nbb_free(c->node), nbb_free(c->first), nbb_free(c->arc), nbb_free(c->link);
        nbb_free(c->order), nbb_free(c->obytes);
    }
    nbb_free(tb->c), nbb_free(tb->cls), nbb_free(tb->gcls);
    tb->c = NULL, tb->cls = tb->gcls = NULL;
}

nb_status nbb_link_key(const char *path, uint8_t key[NBB_LINK_KEY], nb_err *err)
{
    uint8_t h[NBI_HEADER_SIZE];
    struct stat sb;
    FILE *f = fopen(path, "rb");
    int ok = f && fstat(fileno(f), &sb) == 0 && fread(h, 1, sizeof h, f) == sizeof h;
    if (f)
        fclose(f);
    if (!ok)
        return nbi_fail(err, NB_ERR_IO, "%s: cannot read its header", path);
    memset(key, 0, NBB_LINK_KEY);
    nbi_put64(key + NBB_LINK_KEY_BYTES, (uint64_t)sb.st_size);
    nbi_put32(key + NBB_LINK_KEY_CRC, nbi_get32(h + NBI_HDR_TABLE_CRC));
    nbi_put64(key + NBB_LINK_KEY_MTIME, (uint64_t)sb.st_mtim.tv_sec);
    nbi_put32(key + NBB_LINK_KEY_NSEC, (uint32_t)sb.st_mtim.tv_nsec);
    nbi_put64(key + NBB_LINK_KEY_INODE, (uint64_t)sb.st_ino);
    return NB_OK;
}

/* ---- writing ---- */

typedef struct out {
    uint8_t *p;
    size_t len, cap;
    int ok;
} out;

static uint8_t *room(out *o, size_t n)
{
    if (!o->ok)
        return NULL;
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap : 65536;
        while (cap < o->len + n)
            cap *= 2;
        uint8_t *p = nbb_realloc(o->p, cap);
        if (!p) {
            o->ok = 0;
            return NULL;
        }
        o->p = p, o->cap = cap;
    }
    uint8_t *q = o->p + o->len;
    o->len += n;
    return q;
}

static void put32(out *o, uint32_t v)
{
    uint8_t *q = room(o, 4);
    if (q)
        nbi_put32(q, v);
}

static void put_u32s(out *o, const uint32_t *a, size_t n)
{
    uint8_t *q = room(o, 4 * n);
    for (size_t i = 0; q && i < n; i++)
        nbi_put32at(q, i, a[i]);
}

static void put_bytes(out *o, const void *a, size_t n)
{
    uint8_t *q = room(o, n);
    if (q && n)
        memcpy(q, a, n);
}

/* A ring as runs (value, length) after their count: a ring's cells are
 * long stretches of one component, so this keeps the cache small. */
static void put_runs(out *o, const uint32_t *a, uint32_t n)
{
    size_t at = o->len;
    uint32_t runs = 0;
    put32(o, 0);
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i + 1;
        while (j < n && a[j] == a[i])
            j++;
        uint32_t r[2] = {a[i], j - i};
        put_u32s(o, r, 2);
        runs++;
        i = j;
    }
    if (o->ok)
        nbi_put32(o->p + at, runs);
}

static void put_tile(out *o, const nbb_link_tile *tb)
{
    const nbi_wtile *t = &tb->t;
    put_bytes(o, tb->key, NBB_LINK_KEY);
    put_bytes(o, tb->digest, NBI_DIGEST_SIZE);
    uint32_t v[15] = {t->width,  t->height, t->side,   t->cluster, t->column,
                      t->row,    t->origin_x, t->origin_y, t->core_x, t->core_y,
                      t->core_w, t->core_h, t->halo,   t->ninputs, (uint32_t)t->has_digest};
    put_u32s(o, v, 15);
    for (uint32_t i = 0; i < t->ninputs; i++) {
        uint32_t r[4] = {tb->in[i].role, tb->in[i].crc, (uint32_t)tb->in[i].length,
                         (uint32_t)(tb->in[i].length >> 32)};
        put_u32s(o, r, 4);
    }
    put32(o, tb->classes), put32(o, tb->graphs), put32(o, tb->opts);
    put_u32s(o, &tb->cls[0][0], 2 * (size_t)tb->classes);
    put_u32s(o, &tb->gcls[0][0], 2 * (size_t)tb->graphs);
    for (uint32_t k = 0; k < tb->classes; k++) {
        const nbb_link_class *c = &tb->c[k];
        uint32_t h[7] = {c->n, c->inner_count, c->outer_count, c->has_graph,
                         c->portals, c->links, c->arcs};
        put_u32s(o, h, 7);
        put_runs(o, c->inner, c->inner_count);
        put_runs(o, c->outer, c->outer_count);
        put_u32s(o, c->core, ((size_t)c->n + 1 + 31) / 32);
        uint32_t oh[5] = {c->has_opt, c->ocap, c->osize, c->ocorner, c->olen};
        put_u32s(o, oh, 5);
        if (c->has_opt)
            put_bytes(o, c->obytes, c->olen);
        if (!c->has_graph)
            continue;
        put_bytes(o, c->node, (size_t)c->portals * NBI_WGRAPH_NODE);
        put_u32s(o, c->first, (size_t)c->portals + 1);
        put_u32s(o, c->arc, 3 * (size_t)c->arcs);
        put_bytes(o, c->link, (size_t)c->links * NBI_BGRAPH_LINK);
        put_u32s(o, c->order, c->portals);
    }
}

nb_status nbb_link_cache_image(const nbb_link_tile *tiles, uint32_t n, uint8_t **image,
                               size_t *len, nb_err *err)
{
    out o = {NULL, 0, 0, 1};
    put_bytes(&o, MAGIC, 8);
    put32(&o, CACHE_VERSION), put32(&o, n), put32(&o, 0);
    size_t offsets = o.len;
    room(&o, 8 * (size_t)n);
    for (uint32_t t = 0; t < n && o.ok; t++) {
        nbi_put64(o.p + offsets + 8 * (size_t)t, o.len);
        put_tile(&o, &tiles[t]);
    }
    if (o.ok)
        put32(&o, nbi_crc32(0, o.p, o.len));
    if (!o.ok) {
        nbb_free(o.p);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the link's cache");
    }
    *image = o.p;
    *len = o.len;
    return NB_OK;
}

/* ---- reading ---- */

typedef struct in {
    const uint8_t *p;
    size_t at, end;
    int ok;
} in;

static const uint8_t *take(in *r, size_t n)
{
    if (!r->ok || n > r->end - r->at) {
        r->ok = 0;
        return NULL;
    }
    const uint8_t *q = r->p + r->at;
    r->at += n;
    return q;
}

static uint32_t get32(in *r)
{
    const uint8_t *q = take(r, 4);
    return q ? nbi_get32(q) : 0;
}

/* n u32 into a new array (n counts, so bounded by the bytes left). */
static uint32_t *get_u32s(in *r, uint64_t n)
{
    if (n > (r->end - r->at) / 4) {
        r->ok = 0;
        return NULL;
    }
    const uint8_t *q = take(r, 4 * (size_t)n);
    uint32_t *a = q ? nbb_malloc(n ? 4 * (size_t)n : 1) : NULL;
    for (size_t i = 0; a && i < n; i++)
        a[i] = nbi_u32at(q, i);
    if (q && !a)
        r->ok = 0;
    return a;
}

static uint8_t *get_bytes(in *r, uint64_t n)
{
    const uint8_t *q = n <= r->end - r->at ? take(r, (size_t)n) : (r->ok = 0, NULL);
    uint8_t *a = q ? nbb_malloc(n ? (size_t)n : 1) : NULL;
    if (a && n)
        memcpy(a, q, (size_t)n);
    if (q && !a)
        r->ok = 0;
    return a;
}

/* n values from their runs (put_runs), into a new array. */
static uint32_t *get_runs(in *r, uint32_t n)
{
    uint32_t runs = get32(r), *a = r->ok ? nbb_malloc(n ? 4 * (size_t)n : 1) : NULL;
    uint32_t at = 0;
    if (r->ok && !a)
        r->ok = 0;
    for (uint32_t i = 0; r->ok && i < runs; i++) {
        uint32_t v = get32(r), len = get32(r);
        if (!r->ok || len == 0 || len > n - at) {
            r->ok = 0;
            break;
        }
        for (uint32_t k = 0; k < len; k++)
            a[at++] = v;
    }
    if (r->ok && at != n)
        r->ok = 0;
    return a;
}

static void get_tile(in *r, nbb_link_tile *tb)
{
    const uint8_t *q = take(r, NBB_LINK_KEY + NBI_DIGEST_SIZE);
    if (q)
        memcpy(tb->key, q, NBB_LINK_KEY), memcpy(tb->digest, q + NBB_LINK_KEY, NBI_DIGEST_SIZE);
    uint32_t v[15];
    for (int i = 0; i < 15; i++)
        v[i] = get32(r);
    nbi_wtile *t = &tb->t;
    memset(t, 0, sizeof *t);
    t->width = v[0], t->height = v[1], t->side = v[2], t->cluster = v[3], t->column = v[4];
    t->row = v[5], t->origin_x = v[6], t->origin_y = v[7], t->core_x = v[8], t->core_y = v[9];
    t->core_w = v[10], t->core_h = v[11], t->halo = v[12], t->ninputs = v[13];
    t->has_digest = (int)v[14];
    t->bundle_bytes = nbi_get64(tb->digest + NBI_DIGEST_BYTES);
    t->table_crc = nbi_get32(tb->digest + NBI_DIGEST_TABLE_CRC);
    t->section = -1;
    if (t->ninputs > NBI_TILE_MAX_INPUTS)
        r->ok = 0;
    for (uint32_t i = 0; r->ok && i < t->ninputs; i++) {
        tb->in[i].role = get32(r);
        tb->in[i].crc = get32(r);
        uint64_t lo = get32(r);
        tb->in[i].length = lo | (uint64_t)get32(r) << 32;
    }
    tb->classes = get32(r);
    tb->graphs = get32(r);
    tb->opts = get32(r);
    if (!r->ok)
        return;
    tb->cls = (uint32_t(*)[2])get_u32s(r, 2 * (uint64_t)tb->classes);
    tb->gcls = (uint32_t(*)[2])get_u32s(r, 2 * (uint64_t)tb->graphs);
    if (r->ok && !(tb->c = nbb_calloc(tb->classes + 1, sizeof *tb->c)))
        r->ok = 0;
    for (uint32_t k = 0; r->ok && k < tb->classes; k++) {
        nbb_link_class *c = &tb->c[k];
        c->n = get32(r), c->inner_count = get32(r), c->outer_count = get32(r);
        c->has_graph = get32(r), c->portals = get32(r), c->links = get32(r), c->arcs = get32(r);
        c->inner = get_runs(r, c->inner_count);
        c->outer = get_runs(r, c->outer_count);
        c->core = get_u32s(r, ((uint64_t)c->n + 1 + 31) / 32);
        c->has_opt = get32(r), c->ocap = get32(r), c->osize = get32(r);
        c->ocorner = get32(r), c->olen = get32(r);
        if (r->ok && c->has_opt)
            c->obytes = get_bytes(r, c->olen);
        if (!c->has_graph || !r->ok)
            continue;
        c->node = get_bytes(r, (uint64_t)c->portals * NBI_WGRAPH_NODE);
        c->first = get_u32s(r, (uint64_t)c->portals + 1);
        c->arc = get_u32s(r, 3 * (uint64_t)c->arcs);
        c->link = get_bytes(r, (uint64_t)c->links * NBI_BGRAPH_LINK);
        c->order = get_u32s(r, c->portals);
        /* What the world graph's assembly relies on: arcs in order, each
         * ending on a portal of the tile; links leaving from one. */
        for (uint32_t i = 0; r->ok && i < c->portals; i++)
            r->ok = c->first[i] <= c->first[i + 1];
        r->ok = r->ok && c->first[0] == 0 && c->first[c->portals] == c->arcs;
        for (uint32_t a = 0; r->ok && a < c->arcs; a++)
            r->ok = c->arc[3 * a] < c->portals;
        /* The order a binary search relies on: by cell, then number. */
        uint64_t last = 0;
        for (uint32_t i = 0; r->ok && i < c->portals; i++) {
            const uint8_t *nq = c->order[i] < c->portals
                                    ? c->node + (size_t)c->order[i] * NBI_WGRAPH_NODE
                                    : NULL;
            uint64_t key = nq ? (uint64_t)nbi_get32(nq + NBI_WGRAPH_N_Y) << 32 |
                                    nbi_get32(nq + NBI_WGRAPH_N_X)
                              : 0;
            r->ok = nq && (i == 0 || key > last || (key == last && c->order[i] > c->order[i - 1]));
            last = key;
        }
        for (uint32_t l = 0; r->ok && l < c->links; l++)
            r->ok = nbi_get32(c->link + (size_t)l * NBI_BGRAPH_LINK + NBI_BGRAPH_L_PORTAL) <
                    c->portals;
    }
    /* A border_opt section for each of the first opts classes, none after. */
    r->ok = r->ok && tb->opts <= tb->classes;
    for (uint32_t k = 0; r->ok && k < tb->classes; k++)
        r->ok = tb->c[k].has_opt == (k < tb->opts);
    /* The rings' lengths are the tile's (link.c indexes them by its core). */
    for (uint32_t k = 0; r->ok && k < tb->classes; k++)
        r->ok = tb->c[k].inner_count == nbi_ring_inner(t->core_w, t->core_h) &&
                tb->c[k].outer_count == nbi_ring_outer(t->core_w, t->core_h);
}

void nbb_link_cache_read(const char *path, uint32_t tiles, nbb_link_cache *c)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f) {
        c->why = "no cache";
        return;
    }
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    uint8_t *buf = size > 0 && fseek(f, 0, SEEK_SET) == 0 ? nbb_malloc((size_t)size) : NULL;
    int ok = buf && fread(buf, 1, (size_t)size, f) == (size_t)size;
    fclose(f);
    size_t len = ok ? (size_t)size : 0;
    if (!ok)
        c->why = "the cache cannot be read";
    else if (len < CACHE_HEADER + 4 || memcmp(buf, MAGIC, 8) != 0)
        c->why = "not a link cache";
    else if (nbi_crc32(0, buf, len - 4) != nbi_get32(buf + len - 4))
        c->why = "the cache is damaged (its CRC-32 does not match)";
    else if (nbi_get32(buf + CACHE_VERSION_AT) != CACHE_VERSION)
        c->why = "the cache is of another version";
    else if (nbi_get32(buf + CACHE_TILES_AT) != tiles || (len - 4 - CACHE_HEADER) / 8 < tiles)
        c->why = "the cache is of another world";
    if (c->why) {
        nbb_free(buf);
        return;
    }
    c->buf = buf;
    c->len = len - 4;
    c->tiles = tiles;
}

int nbb_link_cache_get(const nbb_link_cache *c, uint32_t t, const uint8_t key[NBB_LINK_KEY],
                       nbb_link_tile *tb)
{
    if (!c->buf || t >= c->tiles)
        return 0;
    uint64_t at = nbi_get64(c->buf + CACHE_HEADER + 8 * (size_t)t);
    if (at < CACHE_HEADER + 8 * (uint64_t)c->tiles || at + NBB_LINK_KEY > c->len ||
        memcmp(c->buf + at, key, NBB_LINK_KEY) != 0)
        return 0;
    in r = {c->buf, (size_t)at, c->len, 1};
    memset(tb, 0, sizeof *tb);
    get_tile(&r, tb);
    if (!r.ok)
        nbb_link_tile_free(tb);
    return r.ok;
}

void nbb_link_cache_free(nbb_link_cache *c)
{
    nbb_free(c->buf);
    memset(c, 0, sizeof *c);
}
