/* level_file.c: which reader reads a level file, by its name: MovingAI
 * maps (formats/map.md), Tiled maps (.tmx, .tmj; formats/tiled.md), LDtk
 * projects (.ldtk; formats/ldtk.md), images and heightmaps (.png, .pgm;
 * formats/image.md); all give the same grid. */
#include <stdio.h>
#include <stdlib.h>

#include "levels.h"

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), k = strlen(tail);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++) {
        char c = s[n - k + i];
        if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) != tail[i])
            return 0;
    }
    return 1;
}

nbb_level_kind nbb_level_kind_of(const char *path)
{
    if (ends_with(path, ".tmx"))
        return NBB_LEVEL_TMX;
    if (ends_with(path, ".tmj") || ends_with(path, ".json"))
        return NBB_LEVEL_TMJ;
    if (ends_with(path, ".ldtk") || strstr(path, ".ldtk#"))
        return NBB_LEVEL_LDTK;
    if (ends_with(path, ".png"))
        return NBB_LEVEL_PNG;
    if (ends_with(path, ".pgm"))
        return NBB_LEVEL_PGM;
    return NBB_LEVEL_MOVINGAI;
}

int nbb_level_path(const char *path)
{
    return nbb_level_kind_of(path) != NBB_LEVEL_MOVINGAI || ends_with(path, ".map");
}

/* One external tileset, by its extension. */
static nb_status tileset_read(const char *map_path, const char *source, nbb_tiled_tileset *ts,
                              nb_err *err)
{
    char *path = nbb_path_beside(map_path, source);
    if (!path)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    nb_status st;
    if (ends_with(source, ".tsx"))
        st = nbb_tsx_read(path, ts, err);
    else if (ends_with(source, ".tsj") || ends_with(source, ".json"))
        st = nbb_tsj_read(path, ts, err);
    else
        st = nbi_fail(err, NB_ERR_UNSUPPORTED, "expected a .tsx or .tsj file");
    nbb_free(path);
    return st;
}

nb_status nbb_tiled_read_tilesets(const char *map_path, nbb_tiled_map *m, nb_err *err)
{
    for (size_t i = 0; i < m->ntilesets; i++) {
        nbb_tiled_tileset *ts = &m->tilesets[i], ext;
        if (!ts->source)
            continue;
        memset(&ext, 0, sizeof ext);
        nb_status st = tileset_read(map_path, ts->source, &ext, err);
        if (st != NB_OK) {
            char msg[NB_ERR_MSG_MAX];
            snprintf(msg, sizeof msg, "%s", err ? err->msg : "");
            nbb_tiled_tileset_free(&ext);
            return nbi_fail(err, st, "%s: external tileset '%s': %s", m->file, ts->source, msg);
        }
        ext.firstgid = ts->firstgid;
        nbb_tiled_tileset_free(ts);
        *ts = ext;
    }
    return NB_OK;
}

static nb_status tiled_read(const char *path, int json, nbi_legend *legend,
                            const nbb_legend_ext *ext, nbb_grid *grid, nb_err *err)
{
    nbb_tiled_map m;
    nb_status st = json ? nbb_tmj_read(path, &m, err) : nbb_tmx_read(path, &m, err);
    if (st == NB_OK)
        st = nbb_tiled_read_tilesets(path, &m, err);
    if (st == NB_OK)
        st = nbb_tiled_build(&m, legend, ext, grid, err);
    nbb_tiled_map_free(&m);
    return st;
}

/* A PNG of colours, or heights (a PGM, or a PNG read with a legend of heights). */
static nb_status image_read(const char *path, nbi_legend *legend, const nbb_legend_ext *ext,
                            nbb_grid *grid, nb_err *err)
{
    nbb_heights hm;
    int heights = nbb_level_kind_of(path) == NBB_LEVEL_PGM || (ext && ext->heightmap);
    nb_status st = nbb_level_kind_of(path) == NBB_LEVEL_PGM
                       ? nbb_pgm_read(path, &hm, err)
                       : nbb_png_read(path, heights, legend, ext, grid, &hm, err);
    if (st == NB_OK && heights)
        st = nbb_heightmap_grid(nbb_input_name(path), &hm, legend, ext, grid, err);
    nbb_free(hm.v);
    return st;
}

nb_status nbb_level_file_read(const char *path, nbi_legend *legend, const nbb_legend_ext *ext,
                              unsigned threads, nbb_grid *grid, nb_err *err)
{
    switch (nbb_level_kind_of(path)) {
    case NBB_LEVEL_TMX: return tiled_read(path, 0, legend, ext, grid, err);
    case NBB_LEVEL_TMJ: return tiled_read(path, 1, legend, ext, grid, err);
    case NBB_LEVEL_LDTK: return nbb_ldtk_read(path, legend, ext, grid, err);
    case NBB_LEVEL_PNG:
    case NBB_LEVEL_PGM: return image_read(path, legend, ext, grid, err);
    case NBB_LEVEL_MOVINGAI: break;
    }
    return nbb_map_read(path, legend, threads, grid, err);
}
