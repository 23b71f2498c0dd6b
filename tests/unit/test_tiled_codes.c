/* test_tiled_codes.c: a Tiled map's tiles are looked up in the legend once
 * per distinct gid its layers and objects hold, never once per id up to
 * the largest (the fuzz finding slow-tiled-json-max-id, now in
 * tests/fuzz/corpus/levels, took 273 s that way).  The count is the work:
 * it is checked against the distinct gids the test finds itself, which the
 * map's cells bound, on the finding and on maps whose largest ids are far
 * above their cell counts. */
#include <stdio.h>
#include <stdlib.h>

#include "input/levels.h"
#include "testutil.h"

static const char legend_yaml[] =
    "terrains:\n"
    "  - name: ground\n    chars: \".\"\n    tiles: [floor]\n"
    "  - name: water\n    chars: \"W\"\n"
    "obstacles: \"@\"\nobstacle_tiles: [wall]\n";

static int by_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The distinct non-zero gids (flags cleared) of the map's layers and
 * objects, counted here from the map as read. */
static size_t distinct_gids(const nbb_tiled_map *m, size_t *cells)
{
    size_t n = 0, cap = m->nobjects;
    for (size_t l = 0; l < m->nlayers; l++)
        for (size_t c = 0; c < m->layers[l].nchunks; c++)
            cap += (size_t)m->layers[l].chunks[c].w * m->layers[l].chunks[c].h;
    uint32_t *g = malloc((cap ? cap : 1) * sizeof *g);
    for (size_t l = 0; l < m->nlayers; l++)
        for (size_t c = 0; c < m->layers[l].nchunks; c++) {
            const nbb_tiled_chunk *k = &m->layers[l].chunks[c];
            for (size_t i = 0; i < (size_t)k->w * k->h; i++)
                if (k->gids[i] & NBB_TILED_GID_MASK)
                    g[n++] = k->gids[i] & NBB_TILED_GID_MASK;
        }
    for (size_t o = 0; o < m->nobjects; o++)
        if (m->objects[o].gid)
            g[n++] = m->objects[o].gid;
    qsort(g, n, sizeof *g, by_u32);
    size_t d = 0;
    for (size_t i = 0; i < n; i++)
        d += i == 0 || g[i] != g[i - 1];
    free(g);
    *cells = cap;
    return d;
}

/* Reads the Tiled JSON map at path, makes its codes (refused when bad is
 * set) and its grid; the lookups against the distinct gids.  Returns the
 * grid's status. */
static nb_status check_map(const char *path, const char *what, int bad, nbb_grid *grid, nb_err *err)
{
    nbi_legend legend;
    nbb_legend_ext ext;
    nbb_tiled_map m;
    nbb_tiled_codes cs;
    nb_status st = nbb_legend_parse_ext(legend_yaml, sizeof legend_yaml - 1, "legend.yaml", &legend,
                                        &ext, err);
    ok(st == NB_OK, "%s: the legend parses", what);
    st = nbb_tmj_read(path, &m, err);
    if (st == NB_OK)
        st = nbb_tiled_read_tilesets(path, &m, err);
    ok(st == NB_OK, "%s: reads%s%s", what, st == NB_OK ? "" : ": ", st == NB_OK ? "" : err->msg);
    if (st != NB_OK) {
        nbb_legend_ext_free(&ext);
        return st;
    }
    size_t cells, d = distinct_gids(&m, &cells);
    st = nbb_tiled_codes_make(&m, &legend, &ext, &cs, err);
    ok((st == NB_OK) == !bad, "%s: its codes are %s", what, bad ? "refused" : "made");
    if (!bad)
        is_int(cs.lookups, d, "%s: one legend look-up per distinct gid (%zu gids in %zu cells and objects)",
           what, d, cells);
    ok(cs.lookups <= cells && cs.lookups <= d, "%s: look-ups bounded by the cells and objects", what);
    nbb_tiled_codes_free(&cs);
    st = nbb_tiled_build(&m, &legend, &ext, grid, err);
    nbb_tiled_map_free(&m);
    nbb_legend_ext_free(&ext);
    return st;
}

static const char *write_map(const char *name, const char *tileset, const char *data, int w, int h)
{
    char text[4096];
    snprintf(text, sizeof text,
             "{\"type\": \"map\", \"orientation\": \"orthogonal\", \"width\": %d, \"height\": %d,"
             " \"tilewidth\": 16, \"tileheight\": 16, \"infinite\": false,"
             " \"tilesets\": [%s],"
             " \"layers\": [{\"name\": \"ground\", \"type\": \"tilelayer\", \"width\": %d,"
             " \"height\": %d, \"x\": 0, \"y\": 0, \"data\": [%s]}]}\n",
             w, h, tileset, w, h, data);
    const char *path = tu_path(tu_tmpdir(), name);
    tu_write(path, text, strlen(text));
    return path;
}

int main(void)
{
    nb_err err;
    nbb_grid g;

    /* The finding itself: its first byte picked the Tiled JSON reader. */
    size_t len;
    char *bytes = tu_read(tu_src("tests/fuzz/corpus/levels/slow-tiled-json-max-id"), &len);
    ok(bytes && len > 1 && bytes[0] % 6 == 1, "the finding is a Tiled JSON input");
    if (bytes && len > 1) {
        const char *path = tu_path(tu_tmpdir(), "finding.tmj");
        tu_write(path, bytes + 1, len - 1);
        nb_status st = check_map(path, "the finding", 0, &g, &err);
        ok(st == NB_OK, "the finding reads as a level%s%s", st == NB_OK ? "" : ": ", st == NB_OK ? "" : err.msg);
        if (st == NB_OK) {
            /* Its gid 268335463 is tile 268335456 of 'props', which names
             * nothing: the ground below it shows (row 3, column 10). */
            is_int(g.cells[3 * 12 + 10], '.', "the finding: the unnamed tile gives way");
            nbb_grid_free(&g);
        }
    }
    free(bytes);

    /* A tileset without tilecount: ids in the millions and the largest gid
     * a layer can hold, two cells each, one named by the legend. */
    const char *ts = "{\"firstgid\": 1, \"name\": \"room\", \"tiles\": [{\"id\": 0, \"type\": \"floor\"},"
                     " {\"id\": 5000000, \"type\": \"wall\"}, {\"id\": 268435454, \"type\": \"floor\"}]}";
    const char *path = write_map("far.tmj", ts, "1, 5000001, 268435455, 1, 0, 5000001", 3, 2);
    nb_status st = check_map(path, "ids far above the cells", 0, &g, &err);
    ok(st == NB_OK, "ids far above the cells: a grid%s%s", st == NB_OK ? "" : ": ", st == NB_OK ? "" : err.msg);
    if (st == NB_OK) {
        char cells[7] = {0};
        memcpy(cells, g.cells, 6);
        is_str(cells, ".@..@@", "ids far above the cells: floor, wall, floor; floor, empty, wall");
        nbb_grid_free(&g);
    }

    /* Each of 300 cells a different id below a million: 300 look-ups. */
    char data[4096];
    size_t at = 0;
    for (int i = 0; i < 300; i++)
        at += (size_t)snprintf(data + at, sizeof data - at, "%s%d", i ? "," : "", 1 + i * 3331);
    path = write_map("spread.tmj", "{\"firstgid\": 1, \"name\": \"room\"}", data, 20, 15);
    st = check_map(path, "300 ids spread to a million", 0, &g, &err);
    if (st == NB_OK)
        nbb_grid_free(&g);

    /* The checks stay: a gid beyond a tileset that says its count, and in a
     * collection without it, named by cell as before. */
    path = write_map("beyond.tmj", "{\"firstgid\": 1, \"name\": \"room\", \"tilecount\": 4}",
                     "1, 2, 3, 9000000", 2, 2);
    st = check_map(path, "beyond the count", 1, &g, &err);
    like(err.msg, "beyond.tmj: layer 'ground', cell (1, 1): gid 9000000 is tile 8999999 of tileset 'room', which has 4 tiles (firstgid 1)",
         "a gid beyond the tile count is named by its cell");
    return done_testing();
}
