/* sources_check.c: a baked world against its manifest (navbake verify,
 * info and convert given a world's manifest): the world bundle is of the
 * manifest's world, and each tile bundle, checked against the index, was
 * baked from the legend, agent set and tile map the manifest names now
 * (the digests its tile section records).  So a world whose sources were
 * edited, or whose manifest was pointed at another legend or agent set,
 * after the bake is named, with the tile to bake again. */
#include <stdlib.h>

#include "bake_int.h"
#include "world/world.h"

/* The record of role in tile t's section, or NULL. */
static const uint8_t *record(const nbi_wtile *t, uint32_t role)
{
    for (uint32_t i = 0; i < t->ninputs; i++) {
        const uint8_t *r = t->inputs + (size_t)i * NBI_TILE_INPUT;
        if (nbi_get32(r + NBI_TILE_INPUT_ROLE) == role)
            return r;
    }
    return NULL;
}

/* 1 when the record r (NULL: none) is the input in (role 0: none). */
static int same(const uint8_t *r, const nbb_world_input *in)
{
    if (!r || !in->role)
        return !r && !in->role;
    return nbi_get32(r + NBI_TILE_INPUT_CRC) == in->crc &&
           nbi_get64(r + NBI_TILE_INPUT_LENGTH) == in->length;
}

/* Tile (tx, ty) at path against the manifest's files. */
static nb_status tile_sources(const nbb_world *w, const nbi_legend *lg, const nbb_world_input *lin,
                              const nbb_world_input *ain, uint32_t tx, uint32_t ty,
                              const char *path, unsigned threads, nbb_world_file_fn fn, void *arg,
                              nb_err *err)
{
    nb_bundle *tb;
    nbi_wtile t;
    nb_status st = nb_bundle_open(path, 0, nbb_mem(), &tb, err);
    if (st != NB_OK)
        return st;
    if ((st = nbi_wtile_find(tb, &t, err)) != NB_OK)
        goto done;
    static const char *const what[2] = {"legend", "agent set"};
    const nbb_world_input *want[2] = {lin, ain};
    for (int i = 0; i < 2; i++)
        if (!same(record(&t, i ? NBI_ROLE_AGENTS : NBI_ROLE_LEGEND), want[i])) {
            st = nbi_fail(err, NB_ERR_FORMAT,
                          "%s: tile (%u, %u) was baked with another %s than the manifest names: "
                          "bake the world again",
                          path, tx, ty, what[i]);
            goto done;
        }
    nbb_grid g;
    nbb_world_input min;
    char *map = NULL;
    if ((st = nbb_world_read_tile(w, lg, tx, ty, threads, &g, &min, &map, err)) != NB_OK)
        goto done;
    min.role = NBI_ROLE_MAP + 4;
    nbb_grid_free(&g);
    if (fn)
        fn(arg, map, 0);
    if (!same(record(&t, NBI_ROLE_MAP + 4), &min))
        st = nbi_fail(err, NB_ERR_FORMAT,
                      "%s: tile (%u, %u) was baked from another version of its map %s: bake it "
                      "again and link",
                      path, tx, ty, map);
    nbb_free(map);
done:
    nb_bundle_close(tb);
    return st;
}

nb_status nbb_world_sources_check(const nbb_world *w, const nb_bundle *world, const char *dir,
                                  unsigned threads, nbb_world_file_fn fn, void *arg, nb_err *err)
{
    nbi_windex x;
    nb_status st = nbi_windex_find(world, &x, err);
    if (st != NB_OK)
        return st;
    if (x.width != w->width || x.height != w->height || x.side != w->tile ||
        x.cluster != w->cluster)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "the world bundle is of a world of %u x %u cells in tiles of %u (clusters "
                        "of %u), the manifest's of %u x %u in tiles of %u (clusters of %u): link "
                        "the manifest's world",
                        x.width, x.height, x.side, x.cluster, w->width, w->height, w->tile,
                        w->cluster);
    nbi_legend lg;
    nbi_agentset as;
    nbb_world_input lin, ain;
    if ((st = nbb_world_read_defs(w, &lg, &as, &lin, &ain, err)) != NB_OK)
        return st;
    for (uint32_t k = 0; k < x.columns * x.rows && st == NB_OK; k++) {
        char *path = NULL;
        if ((st = nbb_world_index_tile(world, dir, k, &path, err)) == NB_OK)
            st = tile_sources(w, &lg, &lin, &ain, k % x.columns, k / x.columns, path, threads, fn,
                              arg, err);
        nbb_free(path);
    }
    if (st == NB_OK)
        nbi_ok(err);
    return st;
}
