/* check.c: a world's files against its manifest: the legend and agent set
 * read, every tile's map there, read with them and of its tile's size. */
#include <stdlib.h>

#include "bake_int.h"

nb_status nbb_world_check(const nbb_world *w, unsigned threads, nbb_world_file_fn fn, void *arg,
                          nb_err *err)
{
    char *legend = NULL, *agents = NULL;
    nbi_legend lg;
    nbi_agentset as;
    nb_status st = NB_OK;
    if (w->legend)
        st = nbb_world_path(w, w->legend, &legend, err);
    if (st == NB_OK && w->agents)
        st = nbb_world_path(w, w->agents, &agents, err);
    if (st == NB_OK)
        st = nbb_read_level(legend, agents, NULL, threads, &lg, &as, NULL, err);
    if (st == NB_OK && fn) {
        if (legend)
            fn(arg, legend, 0);
        if (agents)
            fn(arg, agents, 0);
    }
    free(legend);
    free(agents);
    for (uint32_t ty = 0; ty < w->rows && st == NB_OK; ty++)
        for (uint32_t tx = 0; tx < w->columns && st == NB_OK; tx++) {
            uint32_t x0, y0, tw, th;
            char *path;
            nbb_grid grid = {0, 0, NULL};
            nbb_world_tile_rect(w, tx, ty, &x0, &y0, &tw, &th);
            if ((st = nbb_world_tile_map(w, tx, ty, &path, err)) != NB_OK)
                break;
            st = nbb_map_read(path, &lg, threads, &grid, err);
            if (st == NB_OK && (grid.width != tw || grid.height != th))
                st = nbi_fail(err, NB_ERR_FORMAT,
                              "%s: a map of %u x %u cells, where the world's tile is %u x %u",
                              path, grid.width, grid.height, tw, th);
            if (st != NB_OK)
                nbi_err_prefix(err, "tile (%u, %u), cells (%u, %u) to (%u, %u)", tx, ty, x0, y0,
                               x0 + tw - 1, y0 + th - 1);
            else if (fn)
                fn(arg, path, 0);
            nbb_grid_free(&grid);
            free(path);
        }
    if (st == NB_OK)
        nbi_ok(err);
    return st;
}
