/* test_world_link_cache.c: the link with its cache (link_cache.c) against
 * the link from the border files alone.  The sample level tiled to 128 x
 * 128 in tiles of 32 (4 x 4 tiles) is baked and linked; then a series of
 * edits, each cut, baked over the old tiles and linked twice: with the
 * previous link's cache, and from scratch (nbb_world_link).  After every
 * edit the two world bundles are byte for byte the same, and so are the
 * caches they leave; the cached link read exactly the border files whose
 * bytes the edit changed.  The edits: a block across the corner of four
 * tiles, a wall across the world (the world's components split) and its
 * removal (joined again), a wall in the open (the landmarks' distances
 * change).  A cache stale (of an older state), damaged, cut short, of
 * another version or of another world is ignored with the same bytes; a
 * border file damaged in place is refused as without the cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/crc32.h"
#include "world/link_tile.h"
#include "worldbake.h"

#define SIDE 128
#define TILE 32
#define TILES ((SIDE / TILE) * (SIDE / TILE))

typedef struct state {
    const char *dir, *map, *agents;
    nbb_grid big;
    char *border[TILES]; /* each border file's bytes at the last link */
    size_t blen[TILES];
} state;

static char *read_file(const char *path, size_t *len)
{
    return tu_read(path, len);
}

/* How many border files differ from those of the last link (and keeps
 * the new ones). */
static int changed_borders(state *s)
{
    int n = 0;
    for (uint32_t t = 0; t < TILES; t++) {
        char name[64];
        snprintf(name, sizeof name, "tiles/%u_%u.border", t % (SIDE / TILE), t / (SIDE / TILE));
        size_t len;
        char *b = read_file(tu_path(s->dir, name), &len);
        n += !s->border[t] || len != s->blen[t] || memcmp(b, s->border[t], len) != 0;
        free(s->border[t]);
        s->border[t] = b;
        s->blen[t] = len;
    }
    return n;
}

/* Links dir's world with the cache there and from scratch: 1 when both
 * world bundles and both caches are the same bytes; the cached link's
 * stats in *ls.  The cache made is written for the next link when keep. */
static int both_links(const state *s, const char *what, nbb_world_link_stats *ls, int keep)
{
    nbb_world w;
    nb_err err;
    uint8_t *a = NULL, *b = NULL, *ca = NULL, *cb = NULL;
    size_t la = 0, lb = 0, lca = 0, lcb = 0;
    int same = 0;
    if (nbb_world_read(tu_path(s->dir, "world.yaml"), &w, &err) != NB_OK) {
        diag("%s: %s", what, err.msg);
        return 0;
    }
    if (nbb_world_link_cached(&w, s->dir, 1, NULL, NULL, &a, &la, &ca, &lca, ls, &err) != NB_OK)
        diag("%s: the link with the cache: %s", what, err.msg);
    else if (nbb_world_link_cached(&w, s->dir, 0, NULL, NULL, &b, &lb, &cb, &lcb, NULL, &err) !=
             NB_OK)
        diag("%s: the link from scratch: %s", what, err.msg);
    else {
        same = la == lb && memcmp(a, b, la) == 0;
        if (!same)
            diag("%s: world bundles of %zu and %zu bytes differ", what, la, lb);
        else if (lca != lcb || memcmp(ca, cb, lca) != 0) {
            diag("%s: the caches differ", what);
            same = 0;
        }
        if (same && keep)
            same = nbb_world_put(s->dir, NBB_WORLD_LINK_CACHE, ca, lca, NULL, NULL, NULL, &err) ==
                   NB_OK;
        /* What a link without the cache at all writes, too. */
        uint8_t *c = NULL;
        size_t lc = 0;
        if (same && nbb_world_link(&w, s->dir, NULL, NULL, &c, &lc, NULL, &err) == NB_OK)
            same = lc == la && memcmp(c, a, la) == 0;
        free(c);
        if (same)
            same = nbb_world_put(s->dir, "world.nbw", a, la, NULL, NULL, NULL, &err) == NB_OK;
    }
    free(a), free(b), free(ca), free(cb);
    nbb_world_free(&w);
    return same;
}

/* The cells of the rectangle set to c, the map cut again and every tile
 * baked over the old ones. */
static int edit(state *s, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h, char c)
{
    for (uint32_t y = y0; y < y0 + h; y++)
        for (uint32_t x = x0; x < x0 + w; x++)
            s->big.cells[y * SIDE + x] = c;
    tw_write_map(s->map, &s->big);
    nb_err err;
    tw_world wd;
    if (nbb_world_cut(s->map, NULL, s->agents, TILE, 8, s->dir, 1, NULL, NULL, NULL, &err) !=
            NB_OK ||
        !tw_bake_world(s->dir, 1, &wd, &err)) {
        diag("the edit's bake: %s", err.msg);
        return 0;
    }
    tw_world_close(&wd);
    return 1;
}

/* One edit and the checks after it; the cached link's stats in *ls. */
static void check_edit(state *s, const char *what, uint32_t x0, uint32_t y0, uint32_t w,
                       uint32_t h, char c, nbb_world_link_stats *ls)
{
    if (!ok(edit(s, x0, y0, w, h, c), "%s: cut and baked", what))
        return;
    int n = changed_borders(s);
    int same = both_links(s, what, ls, 1);
    ok(same, "%s: the link with the cache writes the bytes of one without", what);
    ok(ls->borders_read == (uint32_t)n && n > 0 && n < TILES && !ls->cache_ignored,
       "%s: it read the %d border files the edit changed (read %u of %u)", what, n,
       ls->borders_read, ls->tiles);
}

static uint8_t *landmarks(const state *s, size_t *len)
{
    nb_section_info info;
    return tu_section_take(tu_path(s->dir, "world.nbw"), NB_SEC_WORLD_LANDMARKS, len, &info);
}

/* The cache at dir replaced by bytes, then both links: ignored (every
 * border read, why said), the same bytes. */
static void check_ignored(state *s, const char *what, const uint8_t *bytes, size_t len,
                          const char *why)
{
    tu_write(tu_path(s->dir, NBB_WORLD_LINK_CACHE), bytes, len);
    nbb_world_link_stats ls;
    int same = both_links(s, what, &ls, 0);
    ok(same, "%s: the same bytes as a link from scratch", what);
    ok(ls.borders_read == TILES && ls.cache_ignored && strstr(ls.cache_ignored, why),
       "%s: ignored, every border read (%u): %s", what, ls.borders_read,
       ls.cache_ignored ? ls.cache_ignored : "(not ignored)");
}

int main(void)
{
    const char *tmp = tu_tmpdir();
    int k = 0;
    nb_err err;
    nbi_legend legend;
    nbi_agentset agents;
    nbb_grid tile;
    state s;
    memset(&s, 0, sizeof s);
    tu_read_sample(&legend, &agents, &tile);
    tu_tile_grid(&tile, SIDE, 1, &s.big);
    s.dir = tw_fresh_dir(tmp, "lc", &k);
    s.map = strdup(tu_path(tmp, "lc.map"));
    s.agents = strdup(tu_src("data/sample-agents.yaml"));
    tw_write_map(s.map, &s.big);
    tw_world wd;
    if (!ok(nbb_world_cut(s.map, NULL, s.agents, TILE, 8, s.dir, 1, NULL, NULL, NULL, &err) ==
                    NB_OK &&
                tw_bake_world(s.dir, 0, &wd, &err),
            "the world baked: %s", err.msg))
        return done_testing();
    tw_world_close(&wd);
    changed_borders(&s);
    nbb_world_link_stats ls;
    int same = both_links(&s, "first link", &ls, 1);
    ok(same && ls.borders_read == TILES && ls.cache_ignored,
       "no cache yet: every border read, the same bytes (%s)",
       ls.cache_ignored ? ls.cache_ignored : "?");
    ok(ls.haa_nodes > 0 && ls.haa_arcs > 0, "the world has a HAA* graph (%llu nodes, %llu arcs)",
       (unsigned long long)ls.haa_nodes, (unsigned long long)ls.haa_arcs);
    same = both_links(&s, "again", &ls, 1);
    ok(same && ls.borders_read == 0,
       "nothing changed: no border read (%u), the same bytes", ls.borders_read);

    /* Across the corner of tiles (0, 0), (1, 0), (0, 1), (1, 1). */
    check_edit(&s, "corner", TILE - 3, TILE - 3, 6, 6, '@', &ls);

    /* A wall across the world: its components split, then joined. */
    uint64_t before = ls.world_components;
    check_edit(&s, "wall", 0, 2 * TILE + 5, SIDE, 1, '@', &ls);
    uint64_t split = ls.world_components;
    ok(split > before, "wall: the world's components split (%llu -> %llu)",
       (unsigned long long)before, (unsigned long long)split);
    check_edit(&s, "wall removed", 0, 2 * TILE + 5, SIDE, 1, '.', &ls);
    ok(ls.world_components < split, "wall removed: joined again (%llu -> %llu)",
       (unsigned long long)split, (unsigned long long)ls.world_components);

    /* A block in the middle of tile (2, 2): the landmarks' distances. */
    size_t l0 = 0, l1 = 0;
    uint8_t *lm0 = landmarks(&s, &l0);
    size_t old_len = 0;
    char *old_cache = read_file(tu_path(s.dir, NBB_WORLD_LINK_CACHE), &old_len);
    check_edit(&s, "landmarks", 2 * TILE + 4, 2 * TILE + 2, 20, 20, '@', &ls);
    uint8_t *lm1 = landmarks(&s, &l1);
    ok(lm0 && lm1 && (l0 != l1 || memcmp(lm0, lm1, l0) != 0),
       "landmarks: the edit changed the landmarks' distances");
    free(lm0), free(lm1);

    /* Caches that must not be used. */
    size_t len = 0;
    char *good = read_file(tu_path(s.dir, NBB_WORLD_LINK_CACHE), &len);
    {
        /* Stale: the cache of the link before the last edit. */
        uint32_t n = ls.borders_read;
        tu_write(tu_path(s.dir, NBB_WORLD_LINK_CACHE), old_cache, old_len);
        ok(both_links(&s, "stale", &ls, 0), "stale cache: the same bytes as a link from scratch");
        ok(ls.borders_read == n && !ls.cache_ignored,
           "stale cache: the records of the %u tiles the edit changed not used (%u read)", n,
           ls.borders_read);
    }
    uint8_t *bad = malloc(len);
    memcpy(bad, good, len);
    bad[len / 2] ^= 0x10;
    check_ignored(&s, "damaged", bad, len, "damaged");
    check_ignored(&s, "cut short", (const uint8_t *)good, len / 2, "damaged");
    check_ignored(&s, "empty", (const uint8_t *)good, 0, "");
    memcpy(bad, good, len);
    nbi_put32(bad + 8, 99);
    nbi_put32(bad + len - 4, nbi_crc32(0, bad, len - 4));
    check_ignored(&s, "another version", bad, len, "version");
    memcpy(bad, good, len);
    nbi_put32(bad + 12, TILES + 1);
    nbi_put32(bad + len - 4, nbi_crc32(0, bad, len - 4));
    check_ignored(&s, "another world", bad, len, "another world");
    /* A record's offset pointing past the end, CRC right: that tile read. */
    memcpy(bad, good, len);
    nbi_put64(bad + 20 + 8 * 5, (uint64_t)len * 2);
    nbi_put32(bad + len - 4, nbi_crc32(0, bad, len - 4));
    tu_write(tu_path(s.dir, NBB_WORLD_LINK_CACHE), bad, len);
    same = both_links(&s, "bad offset", &ls, 0);
    ok(same && ls.borders_read == 1,
       "a record out of the cache: that tile's border read (%u), the same bytes", ls.borders_read);
    /* A record of another tile under tile 5's offset: not used. */
    memcpy(bad, good, len);
    memcpy(bad + 20 + 8 * 5, bad + 20 + 8 * 6, 8);
    nbi_put32(bad + len - 4, nbi_crc32(0, bad, len - 4));
    tu_write(tu_path(s.dir, NBB_WORLD_LINK_CACHE), bad, len);
    same = both_links(&s, "another tile's record", &ls, 0);
    ok(same && ls.borders_read == 1,
       "another tile's record: that tile's border read (%u), the same bytes", ls.borders_read);
    tu_write(tu_path(s.dir, NBB_WORLD_LINK_CACHE), good, len);
    same = both_links(&s, "good again", &ls, 0);
    ok(same && ls.borders_read == 0,
       "the good cache back: no border read (%u)", ls.borders_read);
    {
        /* A border file damaged in place, its table as it was: read again
         * (its time changed) and refused, as by a link without the cache. */
        size_t bl;
        char *b = read_file(tu_path(s.dir, "tiles/1_1.border"), &bl), *b2 = malloc(bl);
        memcpy(b2, b, bl);
        b2[bl / 2] ^= 0x01;
        tu_write(tu_path(s.dir, "tiles/1_1.border"), b2, bl);
        nbb_world w;
        uint8_t *img = NULL, *cache = NULL;
        size_t il, cl;
        nb_err e1, e2;
        nbb_world_read(tu_path(s.dir, "world.yaml"), &w, &err);
        nb_status s1 = nbb_world_link_cached(&w, s.dir, 1, NULL, NULL, &img, &il, &cache, &cl,
                                             NULL, &e1);
        nb_status s2 = nbb_world_link(&w, s.dir, NULL, NULL, &img, &il, NULL, &e2);
        ok(s1 != NB_OK && s1 == s2 && strcmp(e1.msg, e2.msg) == 0 && strstr(e1.msg, "1_1.border"),
           "a border file damaged in place: refused as without the cache (%s)", e1.msg);
        tu_write(tu_path(s.dir, "tiles/1_1.border"), b, bl);
        nbb_world_free(&w);
        free(b), free(b2);
    }
    same = both_links(&s, "border restored", &ls, 0);
    ok(same && ls.borders_read == 1,
       "the border file restored (a new time): read again (%u), the same bytes", ls.borders_read);
    free(bad), free(good), free(old_cache);
    for (uint32_t t = 0; t < TILES; t++)
        free(s.border[t]);
    nbb_grid_free(&tile);
    nbb_grid_free(&s.big);
    free((char *)s.map), free((char *)s.agents);
    return done_testing();
}
