/* test_world_runtime.c: nb_world, a world whose tiles the game loads and
 * drops (lib/runtime/stream/), on data/sample.map cut into 4 x 3 tiles of
 * 16 cells, against the same map baked whole.
 *
 * - With every tile loaded, nb_world_reachable answers as nb_reachable on
 *   the whole bake, for random pairs of cells and every (capability,
 *   size) the world has components for.
 * - A query whose cells' tiles are not loaded returns NB_ERR_UNLOADED and
 *   exactly those tiles, from's first; no query ever loads one.
 * - An unload while a query holds the tile keeps it mapped (retired) and
 *   the next load or unload unmaps it; nb_world_bytes follows the tiles.
 * - The loader is called by loads alone, once a tile; bytes it gives are
 *   released once copied.
 * - A tile swapped for another tile's, rebaked after the link, or
 *   truncated is refused, naming the tile and its file.
 * - An allocation that fails, each in turn, is NB_ERR_NOMEM from the open
 *   or the load, and leaks nothing; a query allocates nothing.
 * - One thread loads and unloads while two query (make check-tsan runs
 *   this under ThreadSanitizer): every answer is the whole bake's or the
 *   needed-tiles status naming tiles of the query's cells. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "stream/stream.h"
#include "worldbake.h"

static tw_world wd;
static nb_bundle *whole;
static const char *dir;

static nb_cell random_cell(tu_rng *r, const nb_world_info *in)
{
    nb_cell c = {(int32_t)tu_below(r, in->width), (int32_t)tu_below(r, in->height)};
    return c;
}

static nb_world_tile tile_of(const nb_world_info *in, nb_cell c)
{
    nb_world_tile t = {(uint32_t)c.x / in->tile, (uint32_t)c.y / in->tile};
    return t;
}

/* The tiles of from and to that are not in loaded[] (row by row). */
static size_t want_needed(const nb_world_info *in, const int *loaded, nb_cell from, nb_cell to,
                          nb_world_tile out[2])
{
    nb_world_tile a = tile_of(in, from), b = tile_of(in, to);
    size_t n = 0;
    if (!loaded[a.row * in->columns + a.column])
        out[n++] = a;
    if ((b.column != a.column || b.row != a.row) && !loaded[b.row * in->columns + b.column])
        out[n++] = b;
    return n;
}

/* Random pairs, every (capability, size) of the world's components,
 * against the whole bake; loaded[] says which tiles are loaded.  Returns
 * the pairs found joined. */
static unsigned compare_pairs(const char *what, const nb_world *w, const int *loaded, int pairs,
                              uint64_t seed)
{
    nb_world_info in;
    nb_world_describe(w, &in);
    tu_rng r = {seed};
    unsigned wrong = 0, joined = 0, unloaded_wrong = 0;
    char first[600] = "";
    for (size_t k = 0; k < w->ncomp; k++)
        for (int i = 0; i < pairs; i++) {
            nb_capability cap = w->comp[k].capability;
            unsigned size = w->comp[k].size;
            nb_cell a = random_cell(&r, &in), b = random_cell(&r, &in);
            /* Half the pairs from a standable cell to another, so that many
             * are joined across tiles. */
            for (int tries = 0; i % 2 && tries < 200 && nb_can_stand(whole, cap, size, a.x, a.y) != 1;
                 tries++)
                a = random_cell(&r, &in);
            for (int tries = 0; i % 2 && tries < 200 && nb_can_stand(whole, cap, size, b.x, b.y) != 1;
                 tries++)
                b = random_cell(&r, &in);
            nb_world_tile need[2], got[3] = {{9, 9}, {9, 9}, {9, 9}};
            size_t nwant = want_needed(&in, loaded, a, b, need), ngot = 99;
            int reach = -1;
            nb_err err;
            nb_status st = nb_world_reachable(w, cap, size, a, b, &reach, got, 2, &ngot, &err);
            if (nwant) {
                int same = st == NB_ERR_UNLOADED && ngot == nwant;
                for (size_t j = 0; same && j < nwant; j++)
                    same = got[j].column == need[j].column && got[j].row == need[j].row;
                if (!same && !unloaded_wrong++)
                    diag("%s: (%d, %d) to (%d, %d): status %d, %zu tiles needed (%s), expected "
                         "NB_ERR_UNLOADED and %zu",
                         what, a.x, a.y, b.x, b.y, st, ngot, err.msg, nwant);
                continue;
            }
            int want = nb_reachable(whole, cap, size, a, b);
            joined += want == 1;
            if ((st != NB_OK || reach != want || ngot != 0) && !wrong++)
                snprintf(first, sizeof first,
                         "cap %#x size %u (%d, %d) to (%d, %d): status %d (%s), reachable %d, "
                         "whole %d",
                         cap, size, a.x, a.y, b.x, b.y, st, err.msg, reach, want);
        }
    ok(wrong == 0, "%s: every answer is the whole bake's%s%s", what, wrong ? ": " : "", first);
    ok(unloaded_wrong == 0, "%s: every query on a tile not loaded names exactly its tiles", what);
    return joined;
}

static void all_loaded(const nb_world_info *in, int *loaded, int v)
{
    for (uint32_t t = 0; t < in->columns * in->rows; t++)
        loaded[t] = v;
}

static void check_answers(nb_world *w)
{
    nb_world_info in;
    nb_world_describe(w, &in);
    int *loaded = calloc(in.columns * in.rows, sizeof *loaded);
    compare_pairs("none loaded", w, loaded, 40, 11);
    nb_err err;
    ok(nb_world_load_cells(w, 0, 0, in.width, in.height, &err) == NB_OK,
       "every tile loads by the world's rectangle: %s", err.msg);
    nb_world_describe(w, &in);
    is_int(in.loaded, in.columns * in.rows, "every tile is loaded");
    all_loaded(&in, loaded, 1);
    unsigned joined = compare_pairs("all loaded", w, loaded, 400, 12);
    ok(joined > 100, "many pairs are joined (%u)", joined);
    /* A checkerboard of tiles. */
    for (uint32_t ty = 0; ty < in.rows; ty++)
        for (uint32_t tx = 0; tx < in.columns; tx++)
            if ((tx + ty) % 2) {
                nb_world_tile t = {tx, ty};
                nb_world_unload(w, t, NULL);
                loaded[ty * in.columns + tx] = 0;
            }
    compare_pairs("a checkerboard loaded", w, loaded, 200, 13);
    /* A query needing two tiles writes no more than needed_max, and still
     * counts both. */
    nb_cell a = {16, 0}, b = {0, 16}; /* tiles (1, 0) and (0, 1) */
    nb_world_tile one[1] = {{7, 7}};
    size_t n = 0;
    int reach;
    ok(nb_world_reachable(w, w->comp[0].capability, w->comp[0].size, a, b, &reach, one, 1, &n,
                          &err) == NB_ERR_UNLOADED &&
           n == 2 && one[0].column == 1 && one[0].row == 0 && strstr(err.msg, "(1, 0) and (0, 1)"),
       "two tiles needed, one slot given: the first written, both counted and named: %s", err.msg);
    ok(nb_world_reachable(w, w->comp[0].capability, w->comp[0].size, a, b, &reach, NULL, 0, &n,
                          NULL) == NB_ERR_UNLOADED && n == 2,
       "no array given: the count alone");
    nb_world_unload_cells(w, 0, 0, in.width, in.height, NULL);
    nb_world_describe(w, &in);
    is_int(in.loaded, 0, "every tile unloaded by the world's rectangle");
    /* A rectangle that reaches past the world is clipped to it. */
    ok(nb_world_load_cells(w, -5, -5, 10, 10, &err) == NB_OK, "a rectangle past the corner: %s",
       err.msg);
    nb_world_tile t00 = {0, 0}, t10 = {1, 0};
    nb_world_describe(w, &in);
    ok(in.loaded == 1 && nb_world_loaded(w, t00), "it loads the corner's tile alone");
    ok(nb_world_load_cells(w, 15, 0, 2, 1, &err) == NB_OK && nb_world_loaded(w, t10),
       "two cells across a border load both tiles");
    nb_world_unload_cells(w, 0, 0, in.width, in.height, NULL);
    free(loaded);
}

/* Errors, each with its one status. */
static void check_errors(nb_world *w)
{
    nb_world_info in;
    nb_world_describe(w, &in);
    nb_err err;
    int reach;
    nb_cell in_world = {1, 1}, off = {(int32_t)in.width, 0}, neg = {-1, 3};
    nb_capability cap = w->comp[0].capability;
    unsigned size = w->comp[0].size;
    is_int(nb_world_reachable(w, cap, 0, in_world, in_world, &reach, NULL, 0, NULL, &err),
           NB_ERR_ARG, "size 0: NB_ERR_ARG (%s)", err.msg);
    is_int(nb_world_reachable(w, cap, size, off, in_world, &reach, NULL, 0, NULL, &err),
           NB_ERR_OUTSIDE, "a start past the world's width: NB_ERR_OUTSIDE (%s)", err.msg);
    is_int(nb_world_reachable(w, cap, size, in_world, neg, &reach, NULL, 0, NULL, &err),
           NB_ERR_OUTSIDE, "a goal at x -1: NB_ERR_OUTSIDE (%s)", err.msg);
    is_int(nb_world_reachable(w, cap, 60, in_world, in_world, &reach, NULL, 0, NULL, &err),
           NB_ERR_NOTFOUND, "a size the world has no components for: NB_ERR_NOTFOUND (%s)",
           err.msg);
    is_int(nb_world_reachable(NULL, cap, size, in_world, in_world, &reach, NULL, 0, NULL, &err),
           NB_ERR_ARG, "no world: NB_ERR_ARG");
    nb_world_tile past = {in.columns, 0};
    is_int(nb_world_load(w, past, &err), NB_ERR_OUTSIDE, "a tile past the grid: NB_ERR_OUTSIDE (%s)",
           err.msg);
    is_int(nb_world_unload(w, past, &err), NB_ERR_OUTSIDE, "unloading it too");
    is_int(nb_world_load_cells(w, 0, 0, 0, 5, &err), NB_ERR_ARG,
           "a rectangle 0 cells wide: NB_ERR_ARG (%s)", err.msg);
    ok(nb_world_loaded(w, past) == 0, "a tile past the grid is not loaded");
    nb_world *none;
    is_int(nb_world_open(tu_src("data/sample.map"), NULL, 0, NULL, &none, &err), NB_ERR_FORMAT,
           "a map is not a world bundle (%s)", err.msg);
    is_int(nb_world_open(tu_path(dir, "tiles/0_0.nbb"), NULL, 0, NULL, &none, &err),
           NB_ERR_NOTFOUND, "a tile bundle is not a world bundle (%s)", err.msg);
    ok(none == NULL, "*out is NULL after a failure");
}

/* Deferred unmap: a tile a query holds stays mapped after its unload. */
static void check_retire(nb_world *w)
{
    nb_err err;
    size_t own = nb_world_bytes(w);
    nb_world_tile t = {1, 1}, u = {2, 1};
    ok(nb_world_load(w, t, &err) == NB_OK, "tile (1, 1) loads: %s", err.msg);
    size_t file = (size_t)nb_bundle_file_size(wd.tiles[1 * wd.w.columns + 1]);
    size_t with = nb_world_bytes(w);
    ok(with >= own + file, "nb_world_bytes counts the tile's file (%zu >= %zu + %zu)", with, own,
       file);
    nbi_slot *s = &w->slots[1 * wd.w.columns + 1];
    nbi_stile *held = atomic_load(&s->tile);
    atomic_fetch_add(&s->readers, 1); /* a query holds the tile */
    nb_world_unload(w, t, NULL);
    nb_world_info in;
    nb_world_describe(w, &in);
    ok(in.loaded == 0 && in.retired == 1 && !nb_world_loaded(w, t),
       "unloaded while a query reads it: out of sight, kept mapped (loaded %u, retired %llu)",
       in.loaded, (unsigned long long)in.retired);
    is_int((long)nb_world_bytes(w), (long)with, "its bytes still counted");
    ok(held->b->data != NULL && nbi_layer_value(&held->components[0], 0) <= held->components[0].maxval,
       "the held tile still reads");
    nb_world_load(w, u, NULL);
    nb_world_describe(w, &in);
    is_int((long)in.retired, 1, "a later load leaves it while the query holds it");
    atomic_fetch_sub(&s->readers, 1); /* the query returns */
    nb_world_unload(w, u, NULL);
    nb_world_describe(w, &in);
    ok(in.retired == 0 && in.loaded == 0, "the next unload unmaps both");
    is_int((long)nb_world_bytes(w), (long)own, "nb_world_bytes is the world's own again");
}

typedef struct loader_log {
    int calls, releases, by_path;
    char *bytes[64];
    int fail;
} loader_log;

static nb_status loader(void *opaque, nb_world_tile tile, const char **path, const void **data,
                        size_t *len, nb_err *err)
{
    loader_log *l = opaque;
    l->calls++;
    if (l->fail)
        return nbi_fail(err, NB_ERR_IO, "the archive has no tile (%u, %u)", tile.column, tile.row);
    static char name[64];
    snprintf(name, sizeof name, "tiles/%u_%u.nbb", tile.column, tile.row);
    if ((tile.column + tile.row) % 2) {
        *path = tu_path(dir, name);
        l->by_path++;
        return NB_OK;
    }
    char *b = tu_read(tu_path(dir, name), len);
    l->bytes[tile.row * 8 + tile.column] = b;
    *data = b;
    return NB_OK;
}

static void release(void *opaque, nb_world_tile tile, const void *data)
{
    loader_log *l = opaque;
    if (l->bytes[tile.row * 8 + tile.column] == data) {
        free(l->bytes[tile.row * 8 + tile.column]);
        l->bytes[tile.row * 8 + tile.column] = NULL;
        l->releases++;
    }
}

static void check_loader(nb_world *w)
{
    loader_log log = {0};
    nb_world_set_loader(w, loader, release, &log);
    nb_world_info in;
    nb_world_describe(w, &in);
    int *loaded = calloc(in.columns * in.rows, sizeof *loaded);
    compare_pairs("loader set, none loaded", w, loaded, 20, 21);
    is_int(log.calls, 0, "queries never call the loader");
    nb_err err;
    ok(nb_world_load_cells(w, 0, 0, in.width, in.height, &err) == NB_OK,
       "every tile loads through the loader: %s", err.msg);
    is_int(log.calls, (int)(in.columns * in.rows), "the loader is called once a tile");
    is_int(log.releases, log.calls - log.by_path, "the bytes it gave are released, once each");
    all_loaded(&in, loaded, 1);
    compare_pairs("loaded by the loader", w, loaded, 100, 22);
    ok(nb_world_load_cells(w, 0, 0, in.width, in.height, &err) == NB_OK &&
           log.calls == (int)(in.columns * in.rows),
       "loading tiles already loaded calls nothing");
    nb_world_unload_cells(w, 0, 0, in.width, in.height, NULL);
    log.fail = 1;
    nb_world_tile t = {2, 0};
    ok(nb_world_load(w, t, &err) == NB_ERR_IO && strstr(err.msg, "tile (2, 0)") &&
           strstr(err.msg, "archive"),
       "the loader's error fails the load, with its message: %s", err.msg);
    ok(!nb_world_loaded(w, t), "and nothing is loaded");
    nb_world_set_loader(w, NULL, NULL, NULL);
    free(loaded);
}

/* A folder of tiles for a world whose tile (0, 0) is the bytes given. */
static const char *tiles_with(const char *name, const void *data, size_t len)
{
    char *d = strdup(tu_path(dir, name));
    mkdir(d, 0777);
    tu_write(tu_path(d, "0_0.nbb"), data, len);
    return d;
}

static void refused(const char *what, const char *tiles, nb_status want)
{
    nb_world *w;
    nb_err err;
    if (!ok(nb_world_open(tu_path(dir, "world.nbw"), tiles, 0, NULL, &w, &err) == NB_OK,
            "%s: the world opens: %s", what, err.msg))
        return;
    nb_world_tile t = {0, 0};
    size_t before = nb_world_bytes(w);
    nb_status st = nb_world_load(w, t, &err);
    ok(st == want && strstr(err.msg, "tile (0, 0)") && strstr(err.msg, tiles),
       "%s: refused with %s, naming the tile and its file: %s", what, nb_status_str(want),
       err.msg);
    ok(!nb_world_loaded(w, t) && nb_world_bytes(w) == before, "%s: nothing is held", what);
    nb_world_close(w);
}

static void check_refused(void)
{
    size_t len;
    char *other = tu_read(tu_path(dir, "tiles/1_0.nbb"), &len);
    const char *swapped = tiles_with("swapped", other, len);
    refused("tile (1, 0)'s bundle as tile (0, 0)", swapped, NB_ERR_MISMATCH);
    free(other);
    /* The same with an index that gives tile (0, 0) tile (1, 0)'s digest:
     * the tile section tells them apart. */
    nb_world *w;
    nb_err err;
    if (nb_world_open(tu_path(dir, "world.nbw"), swapped, 0, NULL, &w, &err) == NB_OK) {
        size_t bytes = (size_t)w->x.columns * w->x.rows * NBI_DIGEST_SIZE;
        uint8_t *d = malloc(bytes);
        memcpy(d, w->x.digests, bytes);
        memcpy(d, d + NBI_DIGEST_SIZE, NBI_DIGEST_SIZE);
        w->x.digests = d;
        nb_world_tile t = {0, 0};
        ok(nb_world_load(w, t, &err) == NB_ERR_MISMATCH && strstr(err.msg, "is tile (1, 0)") &&
               !nb_world_loaded(w, t),
           "a tile bundle of the digest the index gives, but another tile's: refused by its tile "
           "section: %s",
           err.msg);
        nb_world_close(w);
        free(d);
    }
    /* Tile (0, 0) baked again from an edited map after the link. */
    char *map = tu_read(tu_path(dir, "tiles/0_0.map"), &len);
    char *edit = malloc(len);
    memcpy(edit, map, len);
    char *row = strstr(edit, "map\n") + 4 + 17 * 3 + 5; /* a cell of row 3 */
    *row = *row == '@' ? '.' : '@';
    tu_write(tu_path(dir, "tiles/0_0.map"), edit, len);
    nbb_world_tile_out o;
    const char *rebaked = NULL;
    if (ok(nbb_world_tile_bake(&wd.w, 0, 0, NULL, 1, &o, &err) == NB_OK, "tile (0, 0) rebaked: %s",
           err.msg)) {
        rebaked = tiles_with("rebaked", o.tile, o.tile_len);
        nbb_world_tile_out_free(&o);
        refused("tile (0, 0) rebaked after the link", rebaked, NB_ERR_MISMATCH);
    }
    tu_write(tu_path(dir, "tiles/0_0.map"), map, len);
    free(map);
    free(edit);
    char *mine = tu_read(tu_path(dir, "tiles/0_0.nbb"), &len);
    const char *cut = tiles_with("truncated", mine, len / 2);
    nb_world_tile t = {0, 0};
    if (nb_world_open(tu_path(dir, "world.nbw"), cut, 0, NULL, &w, &err) == NB_OK) {
        nb_status st = nb_world_load(w, t, &err);
        ok(st != NB_OK && strstr(err.msg, "tile (0, 0)") && strstr(err.msg, cut),
           "a truncated tile is refused (%s), naming the tile and its file: %s", nb_status_str(st),
           err.msg);
        nb_world_close(w);
    }
    free(mine);
    free((char *)swapped);
    free((char *)rebaked);
    free((char *)cut);
}

/* ---- memory: every allocation failed in turn, none per query ---- */

typedef struct failer {
    size_t calls, fail_at; /* the fail_at-th allocation fails (0: none) */
    long live;             /* blocks not freed */
} failer;

static void *f_alloc(void *opaque, size_t size)
{
    failer *f = opaque;
    if (++f->calls == f->fail_at)
        return NULL;
    void *p = malloc(size);
    f->live += p != NULL;
    return p;
}

static void *f_realloc(void *opaque, void *ptr, size_t size)
{
    failer *f = opaque;
    if (++f->calls == f->fail_at)
        return NULL;
    void *p = realloc(ptr, size);
    f->live += p && !ptr;
    return p;
}

static void f_free(void *opaque, void *ptr)
{
    ((failer *)opaque)->live--;
    free(ptr);
}

static void check_memory(void)
{
    failer f = {0, 0, 0};
    nb_allocator a = {f_alloc, f_realloc, f_free, &f};
    size_t n = 0;
    int bad = 0;
    for (size_t k = 1;; k++) {
        f.calls = 0, f.fail_at = k, f.live = 0;
        nb_world *w;
        nb_err err;
        nb_world_tile t = {1, 1};
        nb_status st = nb_world_open(tu_path(dir, "world.nbw"), NULL, 0, &a, &w, &err);
        if (st == NB_OK)
            st = nb_world_load(w, t, &err);
        if (st != NB_OK && st != NB_ERR_NOMEM && !bad++)
            diag("allocation %zu failed: status %d (%s)", k, st, err.msg);
        int loaded = st == NB_OK && nb_world_loaded(w, t);
        nb_world_close(w); /* NULL after a failed open */
        if (f.live != 0 && !bad++)
            diag("allocation %zu failed: %ld blocks left after the close", k, f.live);
        if (loaded && f.calls < k) {
            n = k - 1;
            break;
        }
    }
    ok(n > 3 && !bad, "each of the %zu allocations of an open and a load failed in turn: "
                      "NB_ERR_NOMEM, nothing left behind",
       n);
    /* Queries allocate nothing. */
    f.fail_at = 0;
    nb_world *w;
    if (nb_world_open(tu_path(dir, "world.nbw"), NULL, 0, &a, &w, NULL) != NB_OK)
        return;
    nb_world_info in;
    nb_world_describe(w, &in);
    nb_world_load_cells(w, 0, 0, 20, 20, NULL);
    size_t before = f.calls;
    tu_rng r = {5};
    for (int i = 0; i < 2000; i++) {
        int reach;
        size_t need;
        nb_world_tile got[2];
        nb_world_reachable(w, w->comp[i % w->ncomp].capability, w->comp[i % w->ncomp].size,
                           random_cell(&r, &in), random_cell(&r, &in), &reach, got, 2, &need, NULL);
    }
    is_int((long)(f.calls - before), 0, "2000 queries, answered or needing tiles, allocate nothing");
    nb_world_close(w);
    is_int(f.live, 0, "the world's allocator gets back every block");
}

/* ---- threads: one loads and unloads, two query ---- */

typedef struct shared {
    nb_world *w;
    atomic_int stop;
    atomic_uint wrong, answered, unloaded;
} shared;

typedef struct querier_arg {
    shared *sh;
    uint64_t seed;
} querier_arg;

static void *querier(void *arg)
{
    shared *sh = ((querier_arg *)arg)->sh;
    nb_world_info in;
    nb_world_describe(sh->w, &in);
    tu_rng r = {((querier_arg *)arg)->seed};
    while (!atomic_load(&sh->stop)) {
        const nbi_wcomp *c = &sh->w->comp[tu_below(&r, (uint32_t)sh->w->ncomp)];
        nb_cell a = random_cell(&r, &in), b = random_cell(&r, &in);
        nb_world_tile got[2];
        size_t n = 0;
        int reach = -1;
        nb_status st = nb_world_reachable(sh->w, c->capability, c->size, a, b, &reach, got, 2, &n,
                                          NULL);
        nb_world_tile ta = tile_of(&in, a), tb = tile_of(&in, b);
        int bad;
        if (st == NB_OK) {
            bad = reach != nb_reachable(whole, c->capability, c->size, a, b) || n != 0;
            atomic_fetch_add(&sh->answered, 1);
        } else {
            bad = st != NB_ERR_UNLOADED || n < 1 || n > 2;
            for (size_t j = 0; !bad && j < n; j++)
                bad = !((got[j].column == ta.column && got[j].row == ta.row) ||
                        (got[j].column == tb.column && got[j].row == tb.row));
            atomic_fetch_add(&sh->unloaded, 1);
        }
        if (bad)
            atomic_fetch_add(&sh->wrong, 1);
    }
    return NULL;
}

static void check_threads(nb_world *w)
{
    shared sh;
    sh.w = w;
    atomic_init(&sh.stop, 0);
    atomic_init(&sh.wrong, 0);
    atomic_init(&sh.answered, 0);
    atomic_init(&sh.unloaded, 0);
    pthread_t q[2];
    querier_arg qa[2] = {{&sh, 100}, {&sh, 101}};
    for (int i = 0; i < 2; i++)
        pthread_create(&q[i], NULL, querier, &qa[i]);
    nb_world_info in;
    nb_world_describe(w, &in);
    tu_rng r = {77};
    int failed = 0;
    for (int i = 0; i < 3000; i++) {
        nb_world_tile t = {tu_below(&r, in.columns), tu_below(&r, in.rows)};
        nb_err err;
        if (tu_below(&r, 2)) {
            if (nb_world_load(w, t, &err) != NB_OK && !failed++)
                diag("load (%u, %u): %s", t.column, t.row, err.msg);
        } else
            nb_world_unload(w, t, NULL);
    }
    atomic_store(&sh.stop, 1);
    for (int i = 0; i < 2; i++)
        pthread_join(q[i], NULL);
    ok(failed == 0, "3000 loads and unloads on one thread succeed");
    is_int(atomic_load(&sh.wrong), 0,
           "two threads querying meanwhile: every answer right (%u answered, %u needing tiles)",
           atomic_load(&sh.answered), atomic_load(&sh.unloaded));
    nb_world_unload_cells(w, 0, 0, in.width, in.height, NULL);
    nb_world_describe(w, &in);
    ok(in.loaded == 0 && in.retired == 0, "all unloaded and unmapped once the queries are done");
}

int main(void)
{
    const char *tmp = tu_tmpdir();
    dir = strdup(tu_path(tmp, "w"));
    mkdir(dir, 0777);
    nb_err err;
    const char *agents = tu_src("data/sample-agents.yaml");
    char *map = strdup(tu_src("data/sample.map"));
    if (!ok(nbb_world_cut(map, NULL, agents, 16, 8, dir, 2, NULL, NULL, NULL, &err) == NB_OK &&
                tw_bake_world(dir, 0, &wd, &err),
            "data/sample.map baked as a world of tiles of 16: %s", err.msg))
        return done_testing();
    whole = tw_whole_bake(map, NULL, tu_src("data/sample-agents.yaml"));
    nb_world *w;
    if (!ok(whole && nb_world_open(tu_path(dir, "world.nbw"), NULL, 0, NULL, &w, &err) == NB_OK,
            "the world opens: %s", err.msg))
        return done_testing();
    nb_world_info in;
    nb_world_describe(w, &in);
    ok(in.width == 64 && in.height == 40 && in.tile == 16 && in.columns == 4 && in.rows == 3 &&
           in.loaded == 0 && w->ncomp >= 4,
       "4 x 3 tiles of 16, none loaded, %zu (capability, size) pairs", w->ncomp);
    ok(nb_world_bundle(w) && nb_agent_count(nb_world_bundle(w)) == 4,
       "the world bundle's agent set: the sample's four");
    check_answers(w);
    check_errors(w);
    check_retire(w);
    check_loader(w);
    check_threads(w);
    nb_world_close(w);
    check_memory();
    nb_world_close(NULL);
    check_refused();
    nb_bundle_close(whole);
    tw_world_close(&wd);
    free(map);
    return done_testing();
}
