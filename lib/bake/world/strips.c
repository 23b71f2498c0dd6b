/* strips.c: a tile's halo strips (navbake world strips).  The halo of a
 * tile holds a strip of each neighbour's cells along their shared edge or
 * corner; written as small map files of their own, one a neighbour and
 * each only when its bytes change, they let a build graph make a tile
 * depend on the cells its halo holds rather than on its neighbours' whole
 * maps: an edit away from a tile's edges changes no strip, so Ninja runs
 * that tile's action alone (formats/world.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"

/* The compass names of the eight neighbours, by 3 (dy + 1) + (dx + 1)
 * (rows grow downwards: north is dy = -1). */
static const char *const compass[9] = {"nw", "n", "ne", "w", "", "e", "sw", "s", "se"};

void nbb_world_strip_name(char *buf, size_t len, uint32_t tx, uint32_t ty, int dx, int dy)
{
    snprintf(buf, len, NBB_WORLD_STRIPS "/%u_%u.%s.map", tx, ty, compass[3 * (dy + 1) + (dx + 1)]);
}

size_t nbb_world_map_text(const uint8_t *cells, uint32_t stride, uint32_t x, uint32_t y, uint32_t w,
                          uint32_t h, char *text)
{
    size_t len = (size_t)sprintf(text, "type octile\nheight %u\nwidth %u\nmap\n", h, w);
    for (uint32_t r = 0; r < h; r++) {
        memcpy(text + len, cells + (size_t)(y + r) * stride + x, w);
        len += w;
        text[len++] = '\n';
    }
    return len;
}

nb_status nbb_world_strips(const nbb_world *w, uint32_t tx, uint32_t ty, const char *dir,
                           unsigned threads, nbb_world_file_fn fn, void *arg, size_t *written,
                           nb_err *err)
{
    if (written)
        *written = 0;
    if (tx >= w->columns || ty >= w->rows)
        return nbi_fail(err, NB_ERR_ARG, "tile (%u, %u) is not in the world's %u x %u tiles", tx,
                        ty, w->columns, w->rows);
    nbi_legend legend;
    nbi_agentset agents;
    nbb_grid g = {0, 0, NULL};
    char *text = NULL;
    uint32_t x0, y0, tw, th;
    nbb_world_tile_rect(w, tx, ty, &x0, &y0, &tw, &th);
    nb_status st = nbb_world_read_defs(w, &legend, &agents, NULL, NULL, err);
    if (st == NB_OK)
        st = nbb_world_read_tile(w, &legend, tx, ty, threads, &g, NULL, NULL, err);
    if (st == NB_OK)
        st = nbb_world_subfolder(dir, NBB_WORLD_STRIPS, err);
    /* The largest strip: a whole side of the tile, a halo deep. */
    uint32_t halo = nbb_world_halo(w, &agents);
    size_t side = tw > th ? tw : th;
    if (st == NB_OK && !(text = nbb_malloc(64 + side * ((size_t)(halo < side ? halo : side) + 1))))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the strips of a tile of %u x %u cells",
                      tw, th);
    for (int dy = -1; dy <= 1 && st == NB_OK; dy++)
        for (int dx = -1; dx <= 1 && st == NB_OK; dx++) {
            uint32_t x, y, sw, sh;
            if (!nbb_world_lent(w, tx, ty, dx, dy, halo, &x, &y, &sw, &sh))
                continue;
            char name[64];
            nbb_world_strip_name(name, sizeof name, tx, ty, dx, dy);
            size_t len = nbb_world_map_text(g.cells, tw, x - x0, y - y0, sw, sh, text);
            st = nbb_world_put(dir, name, text, len, fn, arg, written, err);
        }
    nbb_free(text);
    nbb_grid_free(&g);
    if (st != NB_OK)
        nbi_err_prefix(err, "the strips of tile (%u, %u)", tx, ty);
    else
        nbi_ok(err);
    return st;
}

nb_status nbb_world_read_strip(const nbb_world *w, const nbi_legend *legend, const char *dir,
                               uint32_t nx, uint32_t ny, int dx, int dy, uint32_t halo,
                               unsigned threads, nbb_grid *g, nb_err *err)
{
    char name[64], *path = NULL, *buf = NULL;
    size_t len = 0;
    uint32_t x, y, sw = 0, sh = 0;
    g->cells = NULL;
    nbb_world_lent(w, nx, ny, dx, dy, halo, &x, &y, &sw, &sh);
    nbb_world_strip_name(name, sizeof name, nx, ny, dx, dy);
    nb_status st = nbb_world_join(dir, name, &path, err);
    if (st == NB_OK)
        st = nbb_read_file(path, NBB_MAP_FILE_MAX, &buf, &len, err);
    if (st == NB_OK)
        st = nbb_map_parse(buf, len, nbb_input_name(path), legend, threads, g, err);
    if (st == NB_OK && (g->width != sw || g->height != sh))
        st = nbi_fail(err, NB_ERR_FORMAT,
                      "%s: a strip of %u x %u cells, where the halo of tile (%u, %u) holds %u x "
                      "%u of tile (%u, %u): make the strips again (navbake world strips)",
                      path, g->width, g->height, nx + dx, ny + dy, sw, sh, nx, ny);
    if (st != NB_OK)
        nbb_grid_free(g);
    nbb_free(buf);
    nbb_free(path);
    return st;
}
