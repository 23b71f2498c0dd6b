/* cut.c: one large map cut into a world of tiles (navbake world cut).
 * Each tile's map holds the tile's own characters, as the large map had
 * them; every file is written only when its bytes change, so that cutting
 * again after an edit leaves the build graph one changed tile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"

/* A copy of the input file src as dir/name (the legend, the agent set), so
 * that a world's folder holds everything its tiles are baked from. */
static nb_status copy_input(const char *src, const char *dir, const char *name, nbb_world_file_fn fn,
                            void *arg, size_t *written, nb_err *err)
{
    char *buf;
    size_t len;
    nb_status st = nbb_read_file(src, (size_t)16 << 20, &buf, &len, err);
    if (st == NB_OK) {
        st = nbb_world_put(dir, name, buf, len, fn, arg, written, err);
        nbb_free(buf);
    }
    return st;
}

nb_status nbb_world_cut(const char *map_path, const char *legend_path, const char *agents_path,
                        uint32_t tile, uint32_t cluster, const char *dir, unsigned threads,
                        nbb_world_file_fn fn, void *arg, size_t *written, nb_err *err)
{
    size_t count = 0;
    if (written)
        *written = 0;
    nbi_legend legend;
    nbi_agentset agents;
    nbb_grid grid = {0, 0, NULL};
    nbb_world w;
    memset(&w, 0, sizeof w);
    char *text = NULL;
    nb_status st = nbb_read_level(legend_path, agents_path, map_path, threads, &legend, &agents,
                                  &grid, err);
    if (st != NB_OK)
        return st;
    w.width = grid.width;
    w.height = grid.height;
    w.tile = tile;
    w.cluster = cluster;
    w.maps = NBB_WORLD_TILE_MAPS;
    w.legend = legend_path ? "legend.yaml" : NULL;
    w.agents = agents_path ? "agents.yaml" : NULL;
    if ((st = nbb_world_shape(&w, nbb_input_name(map_path), err)) || (st = nbb_world_folders(dir, err)))
        goto done;
    if (legend_path && (st = copy_input(legend_path, dir, w.legend, fn, arg, &count, err)))
        goto done;
    if (agents_path && (st = copy_input(agents_path, dir, w.agents, fn, arg, &count, err)))
        goto done;
    /* One buffer for every tile's text: the header, then rows of at most
     * tile characters and their LF. */
    size_t cap = 64 + (size_t)tile * (tile + 1);
    if (!(text = nbb_malloc(cap))) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a tile of %u x %u cells", tile, tile);
        goto done;
    }
    for (uint32_t ty = 0; ty < w.rows && st == NB_OK; ty++)
        for (uint32_t tx = 0; tx < w.columns && st == NB_OK; tx++) {
            uint32_t x0, y0, tw, th;
            nbb_world_tile_rect(&w, tx, ty, &x0, &y0, &tw, &th);
            size_t len = nbb_world_map_text(grid.cells, grid.width, x0, y0, tw, th, text);
            char name[64];
            snprintf(name, sizeof name, "tiles/%u_%u.map", tx, ty);
            st = nbb_world_put(dir, name, text, len, fn, arg, &count, err);
        }
    if (st == NB_OK) {
        /* The manifest last: a cut stopped before it leaves the old one,
         * which a check then finds at odds with the new tiles. */
        nbb_free(text);
        size_t len;
        if ((st = nbb_world_text(&w, &text, &len, err)) == NB_OK)
            st = nbb_world_put(dir, NBB_WORLD_MANIFEST, text, len, fn, arg, &count, err);
    }
done:
    nbb_free(text);
    nbb_grid_free(&grid);
    if (written)
        *written = count;
    if (st == NB_OK)
        nbi_ok(err);
    return st;
}
