/* tiled_map.c: a Tiled map as both its forms read it, and the grid made of
 * it (formats/tiled.md): the tile layers combined (an obstacle on any
 * layer blocks the cell; else the topmost tile that names a terrain gives
 * it), then the objects that name a terrain or an obstacle over them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "levels.h"

#define OBST ((int)NBI_CELL_OBSTACLE)

char *nbb_path_beside(const char *from, const char *rel)
{
    const char *slash = strrchr(from, '/');
    size_t dir = rel[0] == '/' || !slash ? 0 : (size_t)(slash - from) + 1;
    char *p = nbb_malloc(dir + strlen(rel) + 1);
    if (p) {
        memcpy(p, from, dir);
        strcpy(p + dir, rel);
    }
    return p;
}

/* One more element of an array of n (zeroed), or NULL. */
static void *grow(void **array, size_t *n, size_t size)
{
    void *p = nbb_realloc(*array, (*n + 1) * size);
    if (!p)
        return NULL;
    *array = p;
    p = (char *)p + *n * size;
    memset(p, 0, size);
    (*n)++;
    return p;
}

nbb_tiled_tileset *nbb_tiled_add_tileset(nbb_tiled_map *m)
{
    return grow((void **)&m->tilesets, &m->ntilesets, sizeof *m->tilesets);
}

nbb_tiled_tile *nbb_tiled_add_tile(nbb_tiled_tileset *ts)
{
    return grow((void **)&ts->tiles, &ts->ntiles, sizeof *ts->tiles);
}

nbb_tiled_layer *nbb_tiled_add_layer(nbb_tiled_map *m, const char *name)
{
    char *copy = nbb_strndup(name, strlen(name));
    nbb_tiled_layer *l = copy ? grow((void **)&m->layers, &m->nlayers, sizeof *m->layers) : NULL;
    if (!l)
        nbb_free(copy);
    else
        l->name = copy;
    return l;
}

nbb_tiled_chunk *nbb_tiled_add_chunk(nbb_tiled_layer *l)
{
    return grow((void **)&l->chunks, &l->nchunks, sizeof *l->chunks);
}

nbb_tiled_object *nbb_tiled_add_object(nbb_tiled_map *m)
{
    return grow((void **)&m->objects, &m->nobjects, sizeof *m->objects);
}

void nbb_tiled_tileset_free(nbb_tiled_tileset *ts)
{
    for (size_t i = 0; i < ts->ntiles; i++)
        nbb_free(ts->tiles[i].name);
    nbb_free(ts->tiles);
    nbb_free(ts->name);
    nbb_free(ts->source);
    memset(ts, 0, sizeof *ts);
}

void nbb_tiled_map_free(nbb_tiled_map *m)
{
    for (size_t i = 0; i < m->ntilesets; i++)
        nbb_tiled_tileset_free(&m->tilesets[i]);
    for (size_t i = 0; i < m->nlayers; i++) {
        for (size_t c = 0; c < m->layers[i].nchunks; c++)
            nbb_free(m->layers[i].chunks[c].gids);
        nbb_free(m->layers[i].chunks);
        nbb_free(m->layers[i].name);
    }
    for (size_t i = 0; i < m->nobjects; i++) {
        nbb_free(m->objects[i].name);
        nbb_free(m->objects[i].layer);
        nbb_free(m->objects[i].points);
    }
    nbb_free(m->tilesets);
    nbb_free(m->layers);
    nbb_free(m->objects);
    memset(m, 0, sizeof *m);
}

/* ---- objects ---- */

static int inside(const nbb_tiled_object *o, double px, double py)
{
    /* Into the object's own frame: unrotated about (x, y). */
    double a = -o->rotation * M_PI / 180.0, dx = px - o->x, dy = py - o->y;
    double lx = dx * cos(a) - dy * sin(a), ly = dx * sin(a) + dy * cos(a);
    if (o->gid)
        ly += o->h; /* a tile object hangs above its (x, y) */
    switch (o->shape) {
    case NBB_SHAPE_RECT: return lx >= 0 && ly >= 0 && lx < o->w && ly < o->h;
    case NBB_SHAPE_ELLIPSE: {
        double rx = o->w / 2, ry = o->h / 2;
        if (rx <= 0 || ry <= 0)
            return 0;
        double ex = (lx - rx) / rx, ey = (ly - ry) / ry;
        return ex * ex + ey * ey < 1;
    }
    case NBB_SHAPE_POLYGON: {
        int in = 0;
        const double *p = o->points;
        for (size_t i = 0, j = o->npoints - 1; i < o->npoints; j = i++) {
            double xi = p[2 * i], yi = p[2 * i + 1], xj = p[2 * j], yj = p[2 * j + 1];
            if ((yi > ly) != (yj > ly) && lx < (xj - xi) * (ly - yi) / (yj - yi) + xi)
                in = !in;
        }
        return in;
    }
    }
    return 0;
}

/* The cells (in the grid, whose top-left cell is (ox, oy) of the map) an
 * object covers: their centres inside it. */
static void cover(const nbb_tiled_map *m, const nbb_tiled_object *o, int64_t ox, int64_t oy,
                  uint32_t w, uint32_t h, int code, int16_t *cell)
{
    double tw = m->tilewidth, th = m->tileheight;
    double r = o->w + o->h;
    for (size_t i = 0; i < o->npoints; i++)
        r += fabs(o->points[2 * i]) + fabs(o->points[2 * i + 1]);
    /* A box around every point the object can reach, however rotated. */
    double x0 = (o->x - r) / tw - (double)ox - 1, x1 = (o->x + r) / tw - (double)ox + 1;
    double y0 = (o->y - r) / th - (double)oy - 1, y1 = (o->y + r) / th - (double)oy + 1;
    if (!(x0 < w) || !(x1 > 0) || !(y0 < h) || !(y1 > 0))
        return;
    uint32_t cx0 = x0 < 0 ? 0 : (uint32_t)x0, cx1 = x1 > w ? w : (uint32_t)x1;
    uint32_t cy0 = y0 < 0 ? 0 : (uint32_t)y0, cy1 = y1 > h ? h : (uint32_t)y1;
    for (uint32_t y = cy0; y < cy1; y++)
        for (uint32_t x = cx0; x < cx1; x++) {
            int16_t *c = &cell[(size_t)y * w + x];
            if (*c != OBST &&
                inside(o, ((double)(x + ox) + 0.5) * tw, ((double)(y + oy) + 0.5) * th))
                *c = (int16_t)code;
        }
}

static nb_status apply_objects(const nbb_tiled_map *m, const nbi_legend *legend,
                               const nbb_legend_ext *ext, const nbb_tiled_codes *cs, int64_t ox,
                               int64_t oy, uint32_t w, uint32_t h, int16_t *cell, nb_err *err)
{
    /* Terrains first, then obstacles, so that an obstacle wins wherever it is. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < m->nobjects; i++) {
            const nbb_tiled_object *o = &m->objects[i];
            int code = nbb_legend_name_code(legend, ext, NBB_MATCH_TILE, o->name);
            if (code < 0 && !o->name && o->gid)
                code = nbb_tiled_code(cs, o->gid);
            if (code < 0 || (pass == 0) != (code != OBST))
                continue;
            if (!isfinite(o->x) || !isfinite(o->y) || !isfinite(o->w) || !isfinite(o->h) ||
                !isfinite(o->rotation) || fabs(o->x) > 1e9 || fabs(o->y) > 1e9 ||
                fabs(o->w) > 1e9 || fabs(o->h) > 1e9)
                return nbi_fail(err, NB_ERR_FORMAT,
                                "%s: object %u of layer '%s': its place or size is out of range",
                                m->file, o->id, o->layer);
            for (size_t k = 0; k < 2 * o->npoints; k++)
                if (!isfinite(o->points[k]) || fabs(o->points[k]) > 1e9)
                    return nbi_fail(err, NB_ERR_FORMAT,
                                    "%s: object %u of layer '%s': polygon point %zu is out of range",
                                    m->file, o->id, o->layer, k / 2 + 1);
            cover(m, o, ox, oy, w, h, code, cell);
        }
    return NB_OK;
}

/* ---- the grid ---- */

nb_status nbb_tiled_build(const nbb_tiled_map *m, nbi_legend *legend, const nbb_legend_ext *ext,
                          nbb_grid *grid, nb_err *err)
{
    memset(grid, 0, sizeof *grid);
    /* The extent: the declared size, or the chunks' bounding box. */
    int64_t x0 = 0, y0 = 0, x1 = m->width, y1 = m->height;
    if (m->infinite) {
        int any = 0;
        for (size_t l = 0; l < m->nlayers; l++)
            for (size_t c = 0; c < m->layers[l].nchunks; c++) {
                const nbb_tiled_chunk *k = &m->layers[l].chunks[c];
                if (!any || k->x < x0)
                    x0 = k->x;
                if (!any || k->y < y0)
                    y0 = k->y;
                if (!any || k->x + k->w > x1)
                    x1 = k->x + k->w;
                if (!any || k->y + k->h > y1)
                    y1 = k->y + k->h;
                any = 1;
            }
        if (!any)
            return nbi_fail(err, NB_ERR_FORMAT, "%s: an infinite map with no chunk of tiles",
                            m->file);
    }
    if (x1 - x0 < 1 || y1 - y0 < 1 || x1 - x0 > NB_MAP_MAX_SIDE || y1 - y0 > NB_MAP_MAX_SIDE)
        return nbi_fail(err, NB_ERR_LIMIT, "%s: a map of %lld x %lld cells is outside the limits 1 to %d",
                        m->file, (long long)(x1 - x0), (long long)(y1 - y0), NB_MAP_MAX_SIDE);
    uint32_t w = (uint32_t)(x1 - x0), h = (uint32_t)(y1 - y0);
    nbb_tiled_codes cs = {0};
    int16_t *cell = nbb_malloc((size_t)w * h * sizeof *cell);
    uint8_t *any = nbb_calloc((size_t)w * h, 1), *chars = nbb_malloc((size_t)w * h);
    nb_status st = cell && any && chars
                       ? NB_OK
                       : nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %u x %u cells", m->file, w, h);
    if (st == NB_OK)
        st = nbb_tiled_codes_make(m, legend, ext, &cs, err);
    if (st == NB_OK) {
        for (size_t i = 0; i < (size_t)w * h; i++)
            cell[i] = -1;
        for (size_t l = 0; l < m->nlayers; l++)
            for (size_t c = 0; c < m->layers[l].nchunks; c++) {
                const nbb_tiled_chunk *k = &m->layers[l].chunks[c];
                for (uint32_t y = 0; y < k->h; y++)
                    for (uint32_t x = 0; x < k->w; x++) {
                        uint32_t gid = k->gids[(size_t)y * k->w + x] & NBB_TILED_GID_MASK;
                        if (!gid)
                            continue;
                        size_t at = (size_t)(k->y + y - y0) * w + (size_t)(k->x + x - x0);
                        int code = nbb_tiled_code(&cs, gid);
                        any[at] = 1;
                        if (code >= 0 && cell[at] != OBST)
                            cell[at] = (int16_t)code;
                    }
            }
        int unnamed = ext && ext->unnamed >= 0 ? ext->unnamed : 0;
        int empty = ext && ext->empty >= 0 ? ext->empty : OBST;
        for (size_t i = 0; i < (size_t)w * h; i++)
            if (cell[i] < 0)
                cell[i] = (int16_t)(any[i] ? unnamed : empty);
        st = apply_objects(m, legend, ext, &cs, x0, y0, w, h, cell, err);
    }
    if (st == NB_OK) {
        /* The character of each code, looked up once. */
        uint8_t ch[256];
        int known[256] = {0};
        for (size_t i = 0; st == NB_OK && i < (size_t)w * h; i++) {
            int code = cell[i];
            if (!known[code])
                st = nbb_legend_cell_char(legend, code, &ch[code], err), known[code] = 1;
            chars[i] = ch[code];
        }
    }
    nbb_tiled_codes_free(&cs);
    nbb_free(cell);
    nbb_free(any);
    if (st != NB_OK) {
        nbb_free(chars);
        return st;
    }
    grid->width = w;
    grid->height = h;
    grid->cells = chars;
    return NB_OK;
}
