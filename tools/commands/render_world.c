/* render_world.c: a world's layers of cells drawn tile by tile (render_world.h). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "render_world.h"

/* The tile section's fields (formats/world.md): origin x and y, the world
 * cell of the bundle map's cell (0, 0). */
#define TILE_ORIGIN_X 24
#define TILE_ORIGIN_Y 28

int nbc_render_world_open(nbc_render_world *rw, const char *path)
{
    nb_err err;
    memset(rw, 0, sizeof *rw);
    if (nb_world_open(path, NULL, 0, NULL, &rw->world, &err) != NB_OK)
        return nbc_fail_err(&err);
    nb_world_describe(rw->world, &rw->in);
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    if (!(rw->folder = malloc(dir + sizeof "tiles")))
        return nbc_fail("out of memory");
    memcpy(rw->folder, path, dir);
    memcpy(rw->folder + dir, "tiles", sizeof "tiles");
    return NBC_EXIT_OK;
}

void nbc_render_world_close(nbc_render_world *rw)
{
    nb_world_close(rw->world);
    free(rw->folder);
    memset(rw, 0, sizeof *rw);
}

/* Where tile bundle b's map lies in the world: its cell (0, 0)'s world cell. */
static nb_status origin(const nb_bundle *b, const char *path, long *x, long *y, nb_err *err)
{
    size_t at, len;
    const void *data;
    nb_status st = nb_bundle_section_lookup(b, NB_SEC_TILE, NULL, NULL, 0, &at, err);
    if (st == NB_OK)
        st = nb_bundle_payload(b, at, &data, &len, err);
    if (st != NB_OK)
        return st;
    if (len < TILE_ORIGIN_Y + 4)
        return nbb_fail(err, NB_ERR_FORMAT, "%s: its tile section is %zu bytes", path, len);
    const uint8_t *p = data;
    *x = (long)((uint32_t)p[TILE_ORIGIN_X] | (uint32_t)p[TILE_ORIGIN_X + 1] << 8 |
                (uint32_t)p[TILE_ORIGIN_X + 2] << 16 | (uint32_t)p[TILE_ORIGIN_X + 3] << 24);
    *y = (long)((uint32_t)p[TILE_ORIGIN_Y] | (uint32_t)p[TILE_ORIGIN_Y + 1] << 8 |
                (uint32_t)p[TILE_ORIGIN_Y + 2] << 16 | (uint32_t)p[TILE_ORIGIN_Y + 3] << 24);
    return NB_OK;
}

/* One tile: loaded (checked), its bundle opened, drawn in its part of the window, closed. */
static nb_status one_tile(nbc_render_world *rw, nbr_view *v, uint32_t tx, uint32_t ty,
                          nb_status (*draw)(nbr_view *, void *, nb_err *), void *ctx, nb_err *err)
{
    nb_world_tile t = {tx, ty};
    nb_status st = nb_world_load(rw->world, t, err);
    if (st != NB_OK)
        return st;
    char path[4096];
    snprintf(path, sizeof path, "%s/%u_%u.nbb", rw->folder, tx, ty);
    nb_bundle *b = NULL;
    long ox = 0, oy = 0;
    st = nb_bundle_open(path, 0, NULL, &b, err);
    if (st == NB_OK)
        st = origin(b, path, &ox, &oy, err);
    if (st == NB_OK) {
        /* The tile's own cells inside the window, in world cells. */
        long side = (long)rw->in.tile;
        long x0 = (long)tx * side, y0 = (long)ty * side;
        long x1 = x0 + side < (long)rw->in.width ? x0 + side : (long)rw->in.width;
        long y1 = y0 + side < (long)rw->in.height ? y0 + side : (long)rw->in.height;
        x0 = x0 > v->x0 ? x0 : v->x0, y0 = y0 > v->y0 ? y0 : v->y0;
        x1 = x1 < v->x0 + (long)v->w ? x1 : v->x0 + (long)v->w;
        y1 = y1 < v->y0 + (long)v->h ? y1 : v->y0 + (long)v->h;
        nbr_view tv = *v;
        tv.bundle = b;
        tv.x0 = x0 - ox, tv.y0 = y0 - oy;
        tv.w = (uint32_t)(x1 - x0), tv.h = (uint32_t)(y1 - y0);
        tv.ox = v->ox + (double)(x0 - v->x0) * v->scale;
        tv.oy = v->oy + (double)(y0 - v->y0) * v->scale;
        st = draw(&tv, ctx, err);
        v->legend = tv.legend; /* the first pass gathers it */
    }
    if (st != NB_OK && strstr(err->msg, path) == NULL) { /* name the tile's file */
        char m[sizeof err->msg];
        snprintf(m, sizeof m, "%s: %s", path, err->msg);
        memcpy(err->msg, m, sizeof m);
    }
    nb_bundle_close(b);
    nb_world_unload(rw->world, t, NULL);
    return st;
}

nb_status nbc_render_world_tiles(nbc_render_world *rw, nbr_view *v,
                                 nb_status (*draw)(nbr_view *, void *, nb_err *), void *ctx,
                                 nb_err *err)
{
    uint32_t side = rw->in.tile;
    uint32_t c0 = (uint32_t)v->x0 / side, r0 = (uint32_t)v->y0 / side;
    uint32_t c1 = (uint32_t)(v->x0 + (long)v->w - 1) / side;
    uint32_t r1 = (uint32_t)(v->y0 + (long)v->h - 1) / side;
    if (!v->canvas)
        c1 = c0, r1 = r0;
    for (uint32_t ty = r0; ty <= r1; ty++)
        for (uint32_t tx = c0; tx <= c1; tx++) {
            nb_status st = one_tile(rw, v, tx, ty, draw, ctx, err);
            if (st != NB_OK)
                return st;
        }
    return NB_OK;
}
