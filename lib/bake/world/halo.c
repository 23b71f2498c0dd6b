/* halo.c: where a tile's halo lies (formats/world.md "The halo"): its
 * width for an agent set, the cells a tile and its halo cover, a tile's
 * neighbours and the cells of a tile each neighbour's halo holds.  The
 * tile action (tile_bake.c) and the strips (strips.c) both read them, so
 * the cells a strip holds are the cells the tile reading it expects. */
#include "bake_int.h"

uint32_t nbb_world_halo(const nbb_world *w, const nbi_agentset *agents)
{
    uint32_t size = 1;
    for (unsigned i = 0; i < agents->count; i++)
        size = agents->agent[i].size > size ? agents->agent[i].size : size;
    return (size + w->cluster - 1) / w->cluster * w->cluster;
}

void nbb_world_extent(const nbb_world *w, uint32_t tx, uint32_t ty, uint32_t halo, uint32_t *ex0,
                      uint32_t *ey0, uint32_t *ew, uint32_t *eh)
{
    uint32_t x0, y0, tw, th;
    nbb_world_tile_rect(w, tx, ty, &x0, &y0, &tw, &th);
    *ex0 = x0 > halo ? x0 - halo : 0;
    *ey0 = y0 > halo ? y0 - halo : 0;
    uint64_t x1 = (uint64_t)x0 + tw + halo, y1 = (uint64_t)y0 + th + halo;
    *ew = (uint32_t)((x1 < w->width ? x1 : w->width) - *ex0);
    *eh = (uint32_t)((y1 < w->height ? y1 : w->height) - *ey0);
}

int nbb_world_neighbour(const nbb_world *w, uint32_t tx, uint32_t ty, int dx, int dy, uint32_t *nx,
                        uint32_t *ny)
{
    long x = (long)tx + dx, y = (long)ty + dy;
    if ((!dx && !dy) || x < 0 || y < 0 || x >= (long)w->columns || y >= (long)w->rows)
        return 0;
    *nx = (uint32_t)x;
    *ny = (uint32_t)y;
    return 1;
}

int nbb_world_lent(const nbb_world *w, uint32_t tx, uint32_t ty, int dx, int dy, uint32_t halo,
                   uint32_t *x, uint32_t *y, uint32_t *rw, uint32_t *rh)
{
    uint32_t nx, ny, x0, y0, tw, th, ex0, ey0, ew, eh;
    if (!nbb_world_neighbour(w, tx, ty, dx, dy, &nx, &ny))
        return 0;
    nbb_world_tile_rect(w, tx, ty, &x0, &y0, &tw, &th);
    nbb_world_extent(w, nx, ny, halo, &ex0, &ey0, &ew, &eh);
    uint32_t ax = x0 > ex0 ? x0 : ex0, ay = y0 > ey0 ? y0 : ey0;
    uint32_t bx = x0 + tw < ex0 + ew ? x0 + tw : ex0 + ew;
    uint32_t by = y0 + th < ey0 + eh ? y0 + th : ey0 + eh;
    if (ax >= bx || ay >= by)
        return 0;
    *x = ax, *y = ay, *rw = bx - ax, *rh = by - ay;
    return 1;
}
