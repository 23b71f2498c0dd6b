/* test_world.c: a world baked as tiles (navbake world tile, link) against
 * the same map baked whole, and against the scenario files' optimal lengths.
 *
 * - Every cell's clearance, read from the tile that owns it, is the whole
 *   bake's, for every capability: the halo is wide enough, so Annotated A*
 *   over the tiles answers as over the whole map.
 * - The world's components (each tile's numbers mapped by the world
 *   bundle) are the whole bake's, for every (capability, size): two cells
 *   are joined in one exactly when they are in the other.
 * - A plain Dijkstra over the tiles' clearance, crossing tile borders,
 *   gets the optimal lengths of the scenario files of three shared maps
 *   (every line with NB_WORLD_EVERY=1, a sample in make check).
 * - Each tile bundle opens alone and passes navbake verify --deep's checks.
 * - An edit: the tiles it reaches baked again (updating the old tile
 *   bundles) are the bytes of a whole bake of each; the link then gives
 *   the edited map's components.  A tile left stale is refused by the link,
 *   naming it, and so is a tile baked with another agent set. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "brute.h"
#include "worldbake.h"

static int every;

/* The tile of world cell (x, y), and the cell in its bundle's map. */
static uint32_t owner(const tw_world *wd, uint32_t x, uint32_t y, uint32_t *bx, uint32_t *by)
{
    uint32_t t = (y / wd->w.tile) * wd->w.columns + x / wd->w.tile;
    *bx = x - wd->tag[t].origin_x;
    *by = y - wd->tag[t].origin_y;
    return t;
}

/* Every cell's clearance from its tile against the whole bake's, every
 * capability; and the world's components against the whole bake's. */
static void compare_layers(const char *what, const tw_world *wd, const nb_bundle *whole)
{
    uint32_t W = wd->w.width, H = wd->w.height, tiles = wd->w.columns * wd->w.rows;
    for (size_t i = 0; i < nb_bundle_section_count(whole); i++) {
        const nb_section_info *si = nb_bundle_section_get(whole, i);
        if (si->type != NB_SEC_CLEARANCE && si->type != NB_SEC_COMPONENTS)
            continue;
        nbb_layer *wl, **tl = calloc(tiles, sizeof *tl);
        nb_err err;
        int opened = nbb_layer_open(whole, i, &wl, &err) == NB_OK;
        for (uint32_t t = 0; opened && t < tiles; t++)
            opened = (si->type == NB_SEC_CLEARANCE
                          ? nbb_layer_open_clearance(wd->tiles[t], si->param[0], &tl[t], &err)
                          : nbb_layer_open_components(wd->tiles[t], si->param[0], si->param[1],
                                                      &tl[t], &err)) == NB_OK;
        if (!ok(opened, "%s: layers of section %zu open: %s", what, i, opened ? "" : err.msg))
            continue;
        nbi_wcomp wc;
        uint32_t params[2] = {si->param[0], si->param[1]};
        long wi = nbi_section_index(wd->index, NB_SEC_WORLD_COMPONENTS, NULL, params, 2);
        if (si->type == NB_SEC_COMPONENTS &&
            !ok(wi >= 0 && nbi_wcomp_at(wd->index, (size_t)wi, &wc, &err) == NB_OK,
                "%s: the world has components for capability %#x size %u", what, params[0],
                params[1]))
            continue;
        uint32_t n = si->type == NB_SEC_COMPONENTS ? si->param[2] : 0;
        uint32_t *to_world = calloc(n + 1, sizeof *to_world), *to_whole = NULL;
        if (si->type == NB_SEC_COMPONENTS)
            to_whole = calloc((size_t)wc.n + 1, sizeof *to_whole);
        uint64_t bad = 0;
        uint32_t fx = 0, fy = 0;
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++) {
                uint32_t bx, by, t = owner(wd, x, y, &bx, &by);
                uint32_t a = nbb_layer_value(wl, x, y), v = nbb_layer_value(tl[t], bx, by);
                int wrong;
                if (si->type == NB_SEC_CLEARANCE)
                    wrong = a != v;
                else {
                    uint32_t g = nbi_wcomp_of(&wc, t, v);
                    /* A bijection between the whole bake's numbers and the world's. */
                    wrong = (a == 0) != (g == 0) || (a && ((to_world[a] && to_world[a] != g) ||
                                                           (to_whole[g] && to_whole[g] != a)));
                    if (!wrong && a)
                        to_world[a] = g, to_whole[g] = a;
                }
                if (wrong && !bad++)
                    fx = x, fy = y;
            }
        is_int(bad, 0, "%s: %s of capability %#x%s%.0u: every cell as the whole bake's (first "
                       "difference at (%u, %u))",
               what, si->type == NB_SEC_CLEARANCE ? "clearance" : "components", si->param[0],
               si->type == NB_SEC_CLEARANCE ? "" : ", size ", si->type == NB_SEC_CLEARANCE ? 0 : si->param[1],
               fx, fy);
        if (si->type == NB_SEC_COMPONENTS)
            is_int(wc.n, n, "%s: as many world components as the whole bake's (%u)", what, n);
        free(to_world);
        free(to_whole);
        nbb_layer_close(wl);
        for (uint32_t t = 0; t < tiles; t++)
            nbb_layer_close(tl[t]);
        free(tl);
    }
}

/* The scenario file's lengths by a textbook Dijkstra (brute.c) over the
 * standable cells of the first agent's capability at size 1, read from the
 * tiles: a map of '.' where a tile says the agent stands, '@' elsewhere. */
static void check_scen(const char *what, const tw_world *wd, const char *scen_path)
{
    nbb_scen scen;
    nb_err err;
    if (!ok(nbb_scen_read(scen_path, &scen, &err) == NB_OK, "%s: scenarios read", what))
        return;
    uint32_t W = wd->w.width, H = wd->w.height;
    nb_agent a = *nb_agent_get(wd->tiles[0], 0);
    nbi_legend legend;
    nbi_legend_default(&legend);
    nbb_grid free_ = {W, H, malloc((size_t)W * H)};
    nbb_layer **tl = calloc((size_t)wd->w.columns * wd->w.rows, sizeof *tl);
    for (uint32_t t = 0; t < wd->w.columns * wd->w.rows; t++)
        nbb_layer_open_clearance(wd->tiles[t], a.capability, &tl[t], &err);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint32_t bx, by, t = owner(wd, x, y, &bx, &by);
            free_.cells[(size_t)y * W + x] = nbb_layer_value(tl[t], bx, by) >= 1 ? '.' : '@';
        }
    nb_capability ground = 1u << 0;
    size_t step = every ? 1 : scen.count / 40 + 1, checked = 0, wrong = 0, first = 0;
    for (size_t i = 0; i < scen.count; i += step) {
        const nbb_scen_line *q = &scen.lines[i];
        double d = brute_dijkstra(&legend, &free_, ground, 1, BRUTE_STRICT, q->start.x,
                                  q->start.y, q->goal.x, q->goal.y, NULL, NULL);
        /* navbake scen's default tolerance, or a unit of the last decimal of
         * a length written with fewer than 4. */
        double tol = q->decimals < 4 ? pow(10, -(double)q->decimals) : 1e-4;
        if (d < 0 || fabs(d - q->optimal) > tol)
            if (!wrong++) {
                first = i;
                diag("line %u: %.8f, the file says %.8f", q->line, d, q->optimal);
            }
        checked++;
    }
    is_int(wrong, 0, "%s: %zu scenarios of %zu: Dijkstra across the tiles' borders gets every "
                     "optimal length (first wrong: line %zu)",
           what, checked, scen.count, first);
    for (uint32_t t = 0; t < wd->w.columns * wd->w.rows; t++)
        nbb_layer_close(tl[t]);
    free(tl);
    nbb_grid_free(&free_);
    nbb_scen_free(&scen);
}

/* Cuts map (read with legend and agents, NULL: the defaults) into tiles
 * of side tile in a fresh folder, bakes and links it, and compares. */
static void check_world(const char *what, const char *map_, const char *legend, const char *agents_,
                        uint32_t tile, uint32_t cluster, const char *scen_, const char *dir)
{
    nb_err err;
    /* Copies: tu_path's and tu_src's buffers rotate under the calls below. */
    char *map = strdup(map_), *agents = agents_ ? strdup(agents_) : NULL;
    char *scen = scen_ ? strdup(scen_) : NULL;
    tw_world wd;
    if (!ok(nbb_world_cut(map, legend, agents, tile, cluster, dir, 2, NULL, NULL, NULL, &err) ==
                NB_OK,
            "%s: cut into tiles of %u", what, tile) ||
        !ok(tw_bake_world(dir, 0, &wd, &err), "%s: every tile baked and linked: %s", what,
            err.msg)) {
        free(map), free(agents), free(scen);
        return;
    }
    nb_bundle *whole = tw_whole_bake(map, legend, agents);
    if (whole)
        compare_layers(what, &wd, whole);
    if (scen)
        check_scen(what, &wd, scen);
    /* A tile of the middle (or the last) opens alone and passes the deep
     * checks: it is an ordinary bundle of its level. */
    uint32_t t = (wd.w.rows / 2) * wd.w.columns + wd.w.columns / 2;
    nbb_deep_opts o;
    nbb_deep_defaults(&o);
    ok(nbb_verify_deep(wd.tiles[t], &o, NULL, &err) == NB_OK, "%s: tile %u passes verify --deep%s%s",
       what, t, err.msg[0] ? ": " : "", err.msg);
    nb_bundle_close(whole);
    tw_world_close(&wd);
    free(map), free(agents), free(scen);
}

/* 1 when the files are the same bytes. */
static int same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *x = tu_read(a, &la), *y = tu_read(b, &lb);
    int same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

/* An edit of the sample level tiled to 96 x 96 in tiles of 32: a block
 * of walls across the corner of four tiles, and a wall cutting a corridor
 * at a tile border.  The tiles it reaches (with their halo neighbours),
 * baked again over the old ones, are byte for byte the whole bake of each
 * from the edited maps; the link gives the edited whole map's components;
 * a stale neighbour and a changed agent set are refused. */
static void check_edit(const char *dir, const char *fresh)
{
    nb_err err;
    nbi_legend legend;
    nbi_agentset agents;
    nbb_grid tile, big;
    tu_read_sample(&legend, &agents, &tile);
    tu_tile_grid(&tile, 96, 1, &big);
    char *map = strdup(tu_path(dir, "big.map")), *agents_path = strdup(tu_src("data/sample-agents.yaml"));
    tw_write_map(map, &big);
    tw_world wd;
    if (!ok(nbb_world_cut(map, NULL, agents_path, 32, 8, dir, 1, NULL, NULL, NULL, &err) == NB_OK &&
                tw_bake_world(dir, 0, &wd, &err),
            "edit: the world before the edit baked: %s", err.msg))
        return;
    tw_world_close(&wd);
    /* The edit, across the corner of tiles (0, 0), (1, 0), (0, 1), (1, 1). */
    for (uint32_t y = 28; y < 38; y++)
        for (uint32_t x = 28; x < 38; x++)
            big.cells[y * 96 + x] = '@';
    tw_write_map(map, &big);
    size_t written = 0;
    ok(nbb_world_cut(map, NULL, agents_path, 32, 8, dir, 1, NULL, NULL, &written, &err) == NB_OK,
       "edit: cut again");
    is_int(written, 4, "edit: the cut rewrote the maps of the 4 tiles the edit touched");
    /* A tile baked again alone, its neighbours left stale: the link
     * refuses, naming a tile to bake again. */
    {
        nbb_world w;
        nbb_world_tile_out o;
        uint8_t *img;
        size_t len;
        nbb_world_read(tu_path(dir, "world.yaml"), &w, &err);
        ok(nbb_world_tile_bake(&w, 0, 0, tu_path(dir, "tiles/0_0.nbb"), 1, &o, &err) == NB_OK &&
               nbb_world_put(dir, "tiles/0_0.nbb", o.tile, o.tile_len, NULL, NULL, NULL, &err) == NB_OK &&
               nbb_world_put(dir, "tiles/0_0.border", o.border, o.border_len, NULL, NULL, NULL, &err) == NB_OK,
           "edit: tile (0, 0) baked again alone");
        nbb_world_tile_out_free(&o);
        nb_status st = nbb_world_link(&w, dir, NULL, NULL, &img, &len, NULL, &err);
        ok(st == NB_ERR_FORMAT && strstr(err.msg, "another version of tile"),
           "edit: the link refuses tiles baked from other versions of a neighbour's map: %s",
           err.msg);
        nbb_world_free(&w);
    }
    /* Every tile again, over the old bundles: the tiles the edit did not
     * reach come out the same bytes; each is a whole bake's bytes (a
     * fresh world from the same maps, baked from nothing). */
    ok(tw_bake_world(dir, 1, &wd, &err), "edit: the edited world baked over the old one: %s", err.msg);
    nb_bundle *whole = tw_whole_bake(map, NULL, agents_path);
    if (whole)
        compare_layers("edit", &wd, whole);
    nb_bundle_close(whole);
    tw_world_close(&wd);
    tw_world fw;
    ok(nbb_world_cut(map, NULL, agents_path, 32, 8, fresh, 1, NULL, NULL, NULL, &err) == NB_OK &&
           tw_bake_world(fresh, 0, &fw, &err),
       "edit: the edited map baked from nothing: %s", err.msg);
    int same = 1;
    for (uint32_t ty = 0; ty < fw.w.rows; ty++)
        for (uint32_t tx = 0; tx < fw.w.columns; tx++) {
            char n1[64], n2[64];
            snprintf(n1, sizeof n1, "tiles/%u_%u.nbb", tx, ty);
            snprintf(n2, sizeof n2, "tiles/%u_%u.border", tx, ty);
            same &= same_file(tu_path(dir, n1), tu_path(fresh, n1)) &&
                    same_file(tu_path(dir, n2), tu_path(fresh, n2));
        }
    ok(same, "edit: every tile bundle and border updated over the old ones is the bytes of a bake "
             "from nothing");
    ok(same_file(tu_path(dir, "world.nbw"), tu_path(fresh, "world.nbw")),
       "edit: and so is the world bundle");
    tw_world_close(&fw);
    /* Another agent set than the tiles were baked with. */
    {
        nbb_world w;
        uint8_t *img;
        size_t len;
        const char *two = "agents:\n  - {name: one, size: 1, capability: [ground]}\n";
        tu_write(tu_path(dir, "agents.yaml"), two, strlen(two));
        nbb_world_read(tu_path(dir, "world.yaml"), &w, &err);
        nb_status st = nbb_world_link(&w, dir, NULL, NULL, &img, &len, NULL, &err);
        ok(st == NB_ERR_FORMAT && strstr(err.msg, "another agent set") &&
               strstr(err.msg, "0_0.border"),
           "edit: the link refuses tiles baked with another agent set, naming the file: %s",
           err.msg);
        nbb_world_free(&w);
    }
    nbb_grid_free(&tile);
    nbb_grid_free(&big);
    free(map);
    free(agents_path);
}

int main(void)
{
    const char *e = getenv("NB_WORLD_EVERY");
    every = e && *e && strcmp(e, "0") != 0;
    const char *tmp = tu_tmpdir();
    int k = 0;
#define DIR() tw_fresh_dir(tmp, "w", &k)
    /* The sample level: four capabilities, sizes 1 to 3, tiles of 16 in
     * clusters of 8 (halo 8), the last column and row narrower. */
    check_world("sample", tu_src("data/sample.map"), NULL, tu_src("data/sample-agents.yaml"), 16, 8,
                NULL, DIR());
    /* Random levels of four terrains, tiles of 16 to 48. */
    tu_rng r = {0x3017dULL};
    for (int i = 0; i < 3; i++) {
        nbb_grid g;
        uint32_t w = 40 + tu_below(&r, 90), h = 40 + tu_below(&r, 90);
        tu_random_grid(&r, w, h, 10 + 10 * (unsigned)i, 4, &g);
        const char *d = DIR(), *map = tu_path(tmp, "random.map");
        char what[64];
        snprintf(what, sizeof what, "random %u x %u", w, h);
        tw_write_map(map, &g);
        check_world(what, map, NULL, tu_src("data/sample-agents.yaml"), 16u << i, 8, NULL, d);
        nbb_grid_free(&g);
    }
    check_edit(DIR(), DIR());
    /* Three shared maps, every scenario's length across the borders. */
    static const struct { const char *map; uint32_t tile; } maps[] = {
        {"maps/dao/brc202d.map", 128}, {"maps/mazes/maze512-4-0.map", 128},
        {"maps/bg/AR0042SR.map", 64}};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        const char *map = tu_shared(maps[i].map);
        if (!map) {
            ok(1, "# SKIP %s: ../shared is not there", maps[i].map);
            continue;
        }
        char scen[512];
        snprintf(scen, sizeof scen, "%s.scen", map);
        check_world(maps[i].map, map, NULL, tu_src("data/haa-agents.yaml"), maps[i].tile, 16, scen,
                    DIR());
    }
    return done_testing();
}
