/* world_map.c: a world's map whole, as one MovingAI map (navbake convert
 * of a world): from its manifest, the tile maps put side by side (what
 * navbake world cut was given back); from its world bundle, each tile
 * bundle's own cells, every tile checked against the index first. */
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"
#include "world/world.h"

/* The cells of a w x h map (a world's: neither is 0), filled by the caller. */
static nb_status map_buffer(uint32_t w, uint32_t h, uint8_t **cells, nb_err *err)
{
    if (!(*cells = nbb_malloc((size_t)w * h)))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a map of %u x %u cells", w, h);
    return NB_OK;
}

static nb_status to_text(const uint8_t *cells, uint32_t w, uint32_t h, char **text, size_t *len,
                         nb_err *err)
{
    if (!(*text = nbb_malloc(64 + (size_t)h * ((size_t)w + 1))))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a map of %u x %u cells", w, h);
    *len = nbb_world_map_text(cells, w, 0, 0, w, h, *text);
    return NB_OK;
}

nb_status nbb_world_map_from_maps(const nbb_world *w, unsigned threads, char **text, size_t *len,
                                  nb_err *err)
{
    nbi_legend lg;
    nbi_agentset as;
    uint8_t *cells = NULL;
    *text = NULL;
    nb_status st = nbb_world_read_defs(w, &lg, &as, NULL, NULL, err);
    if (st == NB_OK)
        st = map_buffer(w->width, w->height, &cells, err);
    for (uint32_t ty = 0; ty < w->rows && st == NB_OK; ty++)
        for (uint32_t tx = 0; tx < w->columns && st == NB_OK; tx++) {
            nbb_grid g;
            uint32_t x0, y0, tw, th;
            nbb_world_tile_rect(w, tx, ty, &x0, &y0, &tw, &th);
            if ((st = nbb_world_read_tile(w, &lg, tx, ty, threads, &g, NULL, NULL, err)) != NB_OK)
                break;
            for (uint32_t y = 0; y < th; y++)
                memcpy(cells + (size_t)(y0 + y) * w->width + x0, g.cells + (size_t)y * tw, tw);
            nbb_grid_free(&g);
        }
    if (st == NB_OK)
        st = to_text(cells, w->width, w->height, text, len, err);
    nbb_free(cells);
    return st;
}

nb_status nbb_world_map_from_tiles(const nb_bundle *world, const char *dir, char **text,
                                   size_t *len, nb_err *err)
{
    nbi_windex x;
    uint8_t *cells = NULL;
    *text = NULL;
    nb_status st = nbi_windex_find(world, &x, err);
    if (st == NB_OK)
        st = map_buffer(x.width, x.height, &cells, err);
    for (uint32_t k = 0; k < x.columns * x.rows && st == NB_OK; k++) {
        char *path = NULL;
        nb_bundle *tb = NULL;
        nbi_wtile t;
        if ((st = nbb_world_index_tile(world, dir, k, &path, err)) == NB_OK &&
            (st = nb_bundle_open(path, 0, nbb_mem(), &tb, err)) == NB_OK &&
            (st = nbi_wtile_find(tb, &t, err)) == NB_OK) {
            uint32_t x0 = t.origin_x + t.core_x, y0 = t.origin_y + t.core_y;
            for (uint32_t y = 0; y < t.core_h; y++)
                for (uint32_t c = 0; c < t.core_w; c++)
                    cells[(size_t)(y0 + y) * x.width + x0 + c] =
                        (uint8_t)nb_map_char(tb, t.core_x + c, t.core_y + y);
        }
        nb_bundle_close(tb);
        nbb_free(path);
    }
    if (st == NB_OK)
        st = to_text(cells, x.width, x.height, text, len, err);
    nbb_free(cells);
    return st;
}
