/* test_world_insert.c: the tiles' tables for inserting a query's end
 * (NB_SEC_TILE_INSERT; lib/bake/world/insert_table.c, the manifest's
 * `insert: B`; lib/runtime/world/insert.c, checked when a tile is loaded;
 * lib/runtime/stream/haa_world.c, the insertion that reads them).
 *
 * Worlds cut from shared maps into 4 x 4 tiles or more (and the sample
 * map, 4 x 3) are baked with `insert: B` for a few B (one leaving narrower
 * blocks at the tiles' edges): every tile bundle holds a table a component
 * layer and verifies; an end anywhere inserted by its tile's table gets, to
 * every portal, the cost the Dijkstra over the whole tile graph gives (the
 * insertion without a table, which test_world_haa checks against a plain
 * Dijkstra), the table read for every end; world HAA*'s paths with and
 * without the tables are the same cells.  A manifest without the key bakes
 * the bytes of one that never had it (a tile baked with the key, then
 * again without).  Crafted tables, each CRC and the world's digest right,
 * are refused when the tile is loaded, naming the tile, its file, the
 * section and the offset. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream/haa_world.h"
#include "worldbake.h"

static int with_insert(const char *dir, uint32_t bsz)
{
    FILE *f = fopen(tu_path(dir, "world.yaml"), "a");
    return f && fprintf(f, "insert: %u\n", bsz) > 0 && fclose(f) == 0;
}

/* Every tile bundle's tables: one a component layer, blocks of bsz. */
static void tables(const char *what, const tw_world *wd, uint32_t bsz)
{
    size_t n = (size_t)wd->w.columns * wd->w.rows, good = 0;
    for (size_t t = 0; t < n; t++) {
        const nb_bundle *b = wd->tiles[t];
        size_t comps = 0, tabs = 0, right = 0;
        for (size_t i = 0; i < b->nsections; i++) {
            const nb_section_info *in = &b->sections[i].info;
            comps += in->type == NB_SEC_COMPONENTS;
            if (in->type != NB_SEC_TILE_INSERT)
                continue;
            tabs++;
            nbi_tins r;
            right += nbi_tins_at(b, i, &r, NULL) == NB_OK && in->param[2] == bsz &&
                     r.side == bsz * wd->tag[t].cluster;
        }
        good += comps && tabs == comps && right == tabs;
    }
    is_int((int)good, (int)n, "%s: every tile holds a checked table a component layer, blocks of %u",
           what, bsz);
}

/* Ends anywhere: by the table as queries insert them, against the Dijkstra
 * run over the tile graph to its last node (never by the table). */
static void ends_equal(const char *what, nb_world *w, const nb_bundle *whole, const nb_agent *ag,
                       tu_rng *r, nb_world_info in, int ends)
{
    static double c0[1 << 14], c1[1 << 14];
    nb_err err;
    nbi_whaa *q = NULL;
    unsigned asked = 0, differ = 0;
    size_t costs = 0, before;
    if (!ok(nbi_whaa_new(w, ag->capability, 1, &q, &err) == NB_OK, "%s: a workspace (%s)", what,
            err.msg))
        return;
    for (int i = 0; i < ends; i++) {
        nb_cell e = tw_standable(r, whole, ag->capability, in.width, in.height);
        size_t n0 = 0, n1 = 0;
        before = nbi_whaa_tabled(q);
        nb_status s0 = nbi_whaa_insertion(q, e, 0, c0, 1 << 14, &n0, &err);
        int by_table = nbi_whaa_tabled(q) == before + 1;
        nb_status s1 = nbi_whaa_insertion(q, e, 1, c1, 1 << 14, &n1, &err);
        if (s0 != s1 || n0 != n1 || n0 > 1 << 14 || (s0 == NB_OK && n0 && !by_table)) {
            if (!differ++)
                diag("(%d, %d): by the table %d (%zu portals, table read: %d), full %d (%zu)", e.x,
                     e.y, s0, n0, by_table, s1, n1);
            continue;
        }
        if (s0 != NB_OK)
            continue;
        asked++;
        for (size_t k = 0; k < n0; k++) {
            costs += c1[k] >= 0;
            if (((c0[k] < 0) != (c1[k] < 0) || fabs(c0[k] - c1[k]) > 1e-9) && !differ++)
                diag("(%d, %d): portal %zu: by the table %.4f, the tile graph's Dijkstra %.4f",
                     e.x, e.y, k, c0[k], c1[k]);
        }
    }
    nbi_whaa_free(q);
    is_int((int)differ, 0, "%s: every end's portal costs by the table equal the tile graph's "
           "Dijkstra (%u ends, %zu costs)", what, asked, costs);
    ok(asked >= (unsigned)ends / 2 && costs >= asked, "%s: %u ends inserted by tables", what,
       asked);
}

/* World HAA* with and without the tables: the same answer, cell for cell. */
static void paths_same(const char *what, nb_world *w, const nb_bundle *whole, const nb_agent *ag,
                       tu_rng *r, nb_world_info in, int pairs)
{
    nb_err err;
    nbi_whaa *qt = NULL, *qd = NULL;
    if (!ok(nbi_whaa_new(w, ag->capability, 1, &qt, &err) == NB_OK &&
                nbi_whaa_new(w, ag->capability, 1, &qd, &err) == NB_OK,
            "%s: two workspaces (%s)", what, err.msg)) {
        nbi_whaa_free(qt);
        return;
    }
    nbi_whaa_set_insert_table(qd, 0);
    unsigned differ = 0, found = 0;
    for (int i = 0; i < pairs; i++) {
        nb_cell e[2];
        for (int k = 0; k < 2; k++)
            e[k] = tw_standable(r, whole, ag->capability, in.width, in.height);
        nbi_whaa_result a, b;
        size_t na = 0, nb = 0;
        nb_status sa = nbi_whaa_find(qt, e[0], e[1], NULL, &a, NULL, 0, &na, &err);
        nb_status sb = nbi_whaa_find(qd, e[0], e[1], NULL, &b, NULL, 0, &nb, &err);
        int same = sa == sb && (sa != NB_OK || (a.found == b.found && a.length == b.length &&
                                                a.expanded == b.expanded &&
                                                tu_same_cells(a.path, a.path_len, b.path,
                                                              b.path_len)));
        found += sa == NB_OK && a.found;
        if (!same && !differ++)
            diag("(%d, %d) to (%d, %d): with tables %d, found %d, %.4f; without %d, %d, %.4f",
                 e[0].x, e[0].y, e[1].x, e[1].y, sa, a.found, a.length, sb, b.found, b.length);
    }
    is_int((int)differ, 0, "%s: world HAA* with and without the tables: the same paths (%u found)",
           what, found);
    ok(found >= (unsigned)pairs / 2 && nbi_whaa_tabled(qt) >= 2 * found &&
           nbi_whaa_tabled(qd) == 0,
       "%s: the tables read by one workspace only (%zu ends)", what, nbi_whaa_tabled(qt));
    nbi_whaa_free(qt);
    nbi_whaa_free(qd);
}

static int check(const char *what, const char *map_, uint32_t tile, uint32_t cluster,
                 const char *agents_, const char *dir, uint32_t bsz, uint32_t rows, int ends)
{
    char *map = strdup(map_), *agents = strdup(agents_);
    char name[256];
    snprintf(name, sizeof name, "%s, insert: %u", what, bsz);
    nb_err err;
    tw_world wd;
    snprintf(err.msg, sizeof err.msg, "the manifest not written");
    int baked = nbb_world_cut(map, NULL, agents, tile, cluster, dir, 2, NULL, NULL, NULL, &err) ==
                    NB_OK &&
                with_insert(dir, bsz) && tw_bake_world(dir, 0, &wd, &err);
    if (!ok(baked, "%s: cut into tiles of %u, baked and linked: %s", name, tile, err.msg)) {
        free(map), free(agents);
        return 0;
    }
    ok(wd.w.columns >= 4 && wd.w.rows >= rows, "%s: %u x %u tiles", name, wd.w.columns, wd.w.rows);
    tables(name, &wd, bsz);
    nb_bundle *whole = tw_whole_bake(map, NULL, agents);
    nb_world *w = NULL;
    if (ok(whole && nb_world_open(tu_path(dir, "world.nbw"), NULL, 0, NULL, &w, &err) == NB_OK,
           "%s: the world opens (%s)", name, err.msg)) {
        nb_world_info in;
        nb_world_describe(w, &in);
        for (uint32_t y = 0; y < in.rows; y++)
            for (uint32_t x = 0; x < in.columns; x++)
                nb_world_load(w, (nb_world_tile){x, y}, NULL);
        nb_agent ag = *nb_agent_get(whole, 0);
        tu_rng r = {0x1115e47 + bsz};
        ends_equal(name, w, whole, &ag, &r, in, ends);
        paths_same(name, w, whole, &ag, &r, in, ends / 3);
    }
    nb_world_close(w);
    nb_bundle_close(whole);
    tw_world_close(&wd);
    free(map), free(agents);
    return 1;
}

/* 1 when the files dir/tiles/X_Y.EXT of a and b hold the same bytes, every tile. */
static int same_files(const char *a, const char *b, uint32_t columns, uint32_t rows,
                      const char *ext)
{
    int same = 1;
    for (uint32_t t = 0; t < columns * rows && same; t++) {
        char name[64];
        snprintf(name, sizeof name, "tiles/%u_%u.%s", t % columns, t / columns, ext);
        size_t la = 0, lb = 0;
        char *pa = tu_read(tu_path(a, name), &la), *pb = tu_read(tu_path(b, name), &lb);
        same = pa && pb && la == lb && memcmp(pa, pb, la) == 0;
        free(pa), free(pb);
    }
    return same;
}

/* A world baked without the key; another baked with it, then again without
 * over the first (the update of a tile bundle with a table): the same bytes
 * as the first, tile bundles and border files.  With the key, an update
 * gives a whole bake's bytes. */
static void bytes(const char *map_, const char *agents_, uint32_t tile, uint32_t cluster)
{
    /* Copies: tu_path's and tu_src's buffers rotate under the calls below. */
    char *map = strdup(map_), *agents = strdup(agents_);
    int k = 0;
    const char *tmp = tu_tmpdir();
    const char *plain = tw_fresh_dir(tmp, "bytes", &k), *keyed = tw_fresh_dir(tmp, "bytes", &k),
               *again = tw_fresh_dir(tmp, "bytes", &k);
    nb_err err;
    tw_world a, b, c;
    memset(&a, 0, sizeof a), memset(&b, 0, sizeof b), memset(&c, 0, sizeof c);
    int baked = nbb_world_cut(map, NULL, agents, tile, cluster, plain, 2, NULL, NULL, NULL, &err) ==
                    NB_OK &&
                tw_bake_world(plain, 0, &a, &err) &&
                nbb_world_cut(map, NULL, agents, tile, cluster, keyed, 2, NULL, NULL, NULL, &err) ==
                    NB_OK &&
                with_insert(keyed, 2) && tw_bake_world(keyed, 0, &b, &err);
    if (ok(baked, "bytes: baked without and with the key (%s)", err.msg)) {
        uint32_t cols = a.w.columns, rows = a.w.rows;
        ok(!same_files(plain, keyed, cols, rows, "nbb"), "bytes: the key changes the tile bundles");
        /* The keyed world's tiles baked again over themselves: the same bytes. */
        tw_world_close(&b);
        ok(tu_system("cp -r '%s/.' '%s/'", keyed, again) == 0 &&
               tw_bake_world(again, 1, &c, &err) && same_files(keyed, again, cols, rows, "nbb") &&
               same_files(keyed, again, cols, rows, "border"),
           "bytes: with the key, an update of the tiles gives a whole bake's bytes (%s)", err.msg);
        tw_world_close(&c);
        /* Then the key dropped from the manifest: the update removes the tables. */
        memset(&c, 0, sizeof c);
        ok(tu_system("cp '%s/world.yaml' '%s/'", plain, again) == 0 &&
               tw_bake_world(again, 1, &c, &err) && same_files(plain, again, cols, rows, "nbb") &&
               same_files(plain, again, cols, rows, "border"),
           "bytes: the key dropped, an update gives the bytes of a world that never had it (%s)",
           err.msg);
    }
    tw_world_close(&a);
    tw_world_close(&b);
    tw_world_close(&c);
    free(map), free(agents);
}

/* ---- crafted tables ---- */

typedef struct crafted {
    const char *dir, *path; /* the world's folder; the crafted tile bundle */
    nb_world_tile tile;
} crafted;

/* The world's tiles from its folder, the crafted one in place of one. */
static nb_status loader(void *opaque, nb_world_tile tile, const char **path, const void **data,
                        size_t *len, nb_err *err)
{
    static char buf[4096];
    const crafted *c = opaque;
    (void)data, (void)len, (void)err;
    if (tile.column == c->tile.column && tile.row == c->tile.row)
        *path = c->path;
    else {
        snprintf(buf, sizeof buf, "%s/tiles/%u_%u.nbb", c->dir, tile.column, tile.row);
        *path = buf;
    }
    return NB_OK;
}

/* Tile (tx, ty)'s table with the u32 at offset set to v (and the next too
 * when both), written as a tile
 * bundle; the world bundle's digest of the tile set to it: 1 when loading
 * the tile is refused with a message naming the tile, the file, the
 * section, an offset and holding want. */
static int refuses(const char *dir, uint32_t tx, uint32_t ty, size_t offset, uint32_t v, int both,
                   const char *want, const char *what)
{
    char tilep[4096], out[4096], wout[4096];
    snprintf(tilep, sizeof tilep, "%s/tiles/%u_%u.nbb", dir, tx, ty);
    snprintf(out, sizeof out, "%s/crafted.nbb", tu_tmpdir());
    snprintf(wout, sizeof wout, "%s/crafted.nbw", tu_tmpdir());
    size_t len, wlen;
    nb_section_info info, winfo;
    uint8_t *p = tu_section_take(tilep, NB_SEC_TILE_INSERT, &len, &info);
    uint8_t *wp = tu_section_take(tu_path(dir, "world.nbw"), NB_SEC_WORLD, &wlen, &winfo);
    int r = 0;
    if (!ok(p && wp && offset + 4 + 4 * (both != 0) <= len, "crafted: %s: the sections are there",
            what))
        goto out;
    nbi_put32(p + offset, v);
    if (both)
        nbi_put32(p + offset + 4, v);
    nb_bundle *cb = NULL;
    nb_err err;
    if (!ok(tu_section_put(tilep, out, &info, p, len) &&
                nb_bundle_open(out, 0, NULL, &cb, &err) == NB_OK,
            "crafted: %s: written", what))
        goto out;
    uint32_t columns = nbi_get32(wp + NBI_WORLD_COLUMNS);
    uint8_t *d = wp + NBI_WORLD_HEADER + ((size_t)ty * columns + tx) * NBI_DIGEST_SIZE;
    nbi_put64(d + NBI_DIGEST_BYTES, cb->size);
    nbi_put32(d + NBI_DIGEST_TABLE_CRC, nbi_get32(cb->data + NBI_HDR_TABLE_CRC));
    nb_bundle_close(cb);
    nb_world *w = NULL;
    crafted c = {dir, out, {tx, ty}};
    char tname[64];
    snprintf(tname, sizeof tname, "tile (%u, %u)", tx, ty);
    if (tu_section_put(tu_path(dir, "world.nbw"), wout, &winfo, wp, wlen) &&
        nb_world_open(wout, NULL, 0, NULL, &w, &err) == NB_OK) {
        nb_world_set_loader(w, loader, NULL, &c);
        nb_status st = nb_world_load(w, (nb_world_tile){tx, ty}, &err);
        r = st == NB_ERR_FORMAT && strstr(err.msg, tname) && strstr(err.msg, out) &&
            strstr(err.msg, "(tile_insert)") && strstr(err.msg, "offset") &&
            strstr(err.msg, want);
        ok(r, "crafted: %s: the tile's load refused by name (%d: %s)", what, st,
           st == NB_OK ? "loaded" : err.msg);
        /* The tiles around it still load and the crafted one is not there. */
        ok(nb_world_load(w, (nb_world_tile){tx ? tx - 1 : tx + 1, ty}, &err) == NB_OK &&
               !nb_world_loaded(w, (nb_world_tile){tx, ty}),
           "crafted: %s: its neighbour loads (%s)", what, err.msg);
    } else
        ok(0, "crafted: %s: the world opens (%s)", what, err.msg);
    nb_world_close(w);
out:
    free(p), free(wp);
    return r;
}

static void damaged(const char *dir, uint32_t columns, uint32_t rows)
{
    /* A tile whose table has border nodes, and a block with two of them. */
    uint32_t tx = 0, ty = 0, P = 0, M = 0, K = 0, W = 0, k2 = 0;
    uint8_t *p = NULL;
    size_t len = 0;
    nb_section_info info;
    for (uint32_t t = 0; t < columns * rows; t++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/tiles/%u_%u.nbb", dir, t % columns, t / columns);
        free(p);
        p = tu_section_take(path, NB_SEC_TILE_INSERT, &len, &info);
        if (!p)
            continue;
        P = nbi_get32(p + NBI_TINS_PORTALS), M = nbi_get32(p + NBI_TINS_BORDERS),
        K = nbi_get32(p + NBI_TINS_BLOCKS), W = nbi_get32(p + NBI_TINS_WIDTH);
        for (k2 = 0; k2 < K; k2++)
            if (nbi_u32at(p + NBI_TINS_HEADER + 4 * (size_t)P, k2 + 1) -
                    nbi_u32at(p + NBI_TINS_HEADER + 4 * (size_t)P, k2) >= 2)
                break;
        if (P >= 2 && k2 < K && t % columns) {
            tx = t % columns, ty = t / columns;
            break;
        }
    }
    if (!ok(p && P >= 2 && k2 < K, "crafted: tile (%u, %u): %u portals, %u border nodes, %u blocks",
            tx, ty, P, M, K)) {
        free(p);
        return;
    }
    size_t bf = NBI_TINS_HEADER + 4 * (size_t)P, bn = bf + 4 * ((size_t)K + 1),
           dist = bn + 4 * (size_t)M;
    uint32_t e0 = nbi_u32at(p + bf, k2), b0 = nbi_u32at(p + bn, e0), b1 = nbi_u32at(p + bn, e0 + 1);
    uint32_t p0 = nbi_u32at(p + NBI_TINS_HEADER, 0);
    /* A distance of border node e0 to a portal at another cell: none is at its own. */
    uint32_t i0 = nbi_u32at(p + NBI_TINS_HEADER, 0) == b0 ? 1 : 0;
    free(p);
    refuses(dir, tx, ty, NBI_TINS_PORTALS, P + 1, 0, "disagree", "a portal count the table does not say");
    refuses(dir, tx, ty, NBI_TINS_SIDE, 0, 0, "disagree", "blocks of no clusters");
    refuses(dir, tx, ty, NBI_TINS_WIDTH, 3, 0, "steps of 3 bytes", "steps of 3 bytes");
    refuses(dir, tx, ty, NBI_TINS_NODES, 7, 0, "not this tile's table", "another graph's node count");
    refuses(dir, tx, ty, NBI_TINS_BLOCKS, K + 1, 0, "expected", "a block count past the tile's");
    refuses(dir, tx, ty, NBI_TINS_HEADER, p0 + 1, 0, "is not node", "a portal moved to another node");
    refuses(dir, tx, ty, bf + 4 * (size_t)K, M - 1, 0, "do not run from 0",
            "block_first not ending at M");
    refuses(dir, tx, ty, bf + 4 * ((size_t)k2 + 1), e0 ? e0 - 1 : UINT32_MAX, 0, "border nodes",
            "a block's border nodes ending before they start");
    refuses(dir, tx, ty, bn + 4 * (size_t)e0, b1, 0, "is not a border node",
            "a border node dropped (the next one twice)");
    refuses(dir, tx, ty, bn + 4 * (size_t)e0, UINT32_MAX, 0, "is not a border node",
            "a border node that is no node");
    /* Zero steps both ways: one u32 holds both u16 counts. */
    refuses(dir, tx, ty, dist + (size_t)W * 2 * ((size_t)e0 * P + i0), 0, W == 4,
            "shorter than their cells lie apart", "a distance shorter than its ends lie apart");
}

int main(void)
{
    const char *tmp = tu_tmpdir();
    char dir[4096], last[4096] = "";
    static const struct {
        const char *map;
        uint32_t tile, bsz[3];
    } maps[] = {{"maps/dao/brc202d.map", 128, {1, 3, 16}},
                {"maps/street/Paris_0_512.map", 128, {2, 4, 0}}};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        const char *shared = tu_shared(maps[i].map);
        if (!shared)
            continue;
        char *map = strdup(shared);
        for (int j = 0; j < 3 && maps[i].bsz[j]; j++) {
            snprintf(dir, sizeof dir, "%s/w%zu_%u", tmp, i, maps[i].bsz[j]);
            if (check(maps[i].map, map, maps[i].tile, 16, tu_src("data/haa-agents.yaml"), dir,
                      maps[i].bsz[j], 4, 300))
                snprintf(last, sizeof last, "%s", dir);
        }
        free(map);
    }
    /* The sample map, always: tiles of 16, clusters of 8, blocks of 1 and 3 clusters (the
     * latter wider than a tile: one block a tile). */
    const uint32_t sb[] = {1, 3};
    for (int j = 0; j < 2; j++) {
        snprintf(dir, sizeof dir, "%s/sample_%u", tmp, sb[j]);
        if (check("data/sample.map", tu_src("data/sample.map"), 16, 8,
                  tu_src("data/sample-agents.yaml"), dir, sb[j], 3, 200) &&
            !*last)
            snprintf(last, sizeof last, "%s", dir);
    }
    bytes(tu_src("data/sample.map"), tu_src("data/sample-agents.yaml"), 16, 8);
    nbb_world mw;
    nb_err err;
    if (*last && ok(nbb_world_read(tu_path(last, "world.yaml"), &mw, &err) == NB_OK,
                    "crafted: the manifest (%s)", err.msg)) {
        damaged(last, mw.columns, mw.rows);
        nbb_world_free(&mw);
    }
    return done_testing();
}
