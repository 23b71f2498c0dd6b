/* check.c: a world's files against its manifest: the legend and agent set
 * read, every tile's map there, read with them and of its tile's size. */
#include <stdlib.h>

#include "bake_int.h"

nb_status nbb_world_check(const nbb_world *w, unsigned threads, nbb_world_file_fn fn, void *arg,
                          nb_err *err)
{
    char *path = NULL;
    nbi_legend lg;
    nbi_agentset as;
    nb_status st = nbb_world_read_defs(w, &lg, &as, NULL, NULL, err);
    if (st == NB_OK && fn) {
        const char *rel[2] = {w->legend, w->agents};
        for (int i = 0; i < 2 && st == NB_OK; i++)
            if (rel[i] && (st = nbb_world_path(w, rel[i], &path, err)) == NB_OK) {
                fn(arg, path, 0);
                nbb_free(path);
            }
    }
    for (uint32_t ty = 0; ty < w->rows && st == NB_OK; ty++)
        for (uint32_t tx = 0; tx < w->columns && st == NB_OK; tx++) {
            nbb_grid grid;
            st = nbb_world_read_tile(w, &lg, tx, ty, threads, &grid, NULL, &path, err);
            if (st == NB_OK) {
                if (fn)
                    fn(arg, path, 0);
                nbb_grid_free(&grid);
                nbb_free(path);
            }
        }
    if (st == NB_OK)
        nbi_ok(err);
    return st;
}
