/* tile_map.c: a world's files as its tile actions and its checks read
 * them: the legend and agent set the manifest names, and a tile's map, each
 * with the CRC-32 and length of its bytes, which a tile bundle keeps as the
 * digests of what it was baked from. */
#include <stdlib.h>
#include <zlib.h>

#include "bake_int.h"

/* A YAML file is a few kilobytes; 16 MiB is far beyond any. */
#define DEFS_MAX ((size_t)16 << 20)

static nb_status digest_of(const char *path, size_t limit, char **buf, size_t *len,
                           nbb_world_input *in, nb_err *err)
{
    nb_status st = nbb_read_file(path, limit, buf, len, err);
    if (st == NB_OK && in) {
        /* zlib's crc32 takes at most UINT_MAX bytes a call. */
        uLong c = 0;
        for (size_t at = 0; at < *len;) {
            size_t n = *len - at > (1u << 30) ? (1u << 30) : *len - at;
            c = crc32(c, (const Bytef *)*buf + at, (uInt)n);
            at += n;
        }
        in->crc = (uint32_t)c;
        in->length = *len;
    }
    return st;
}

nb_status nbb_world_read_defs(const nbb_world *w, nbi_legend *legend, nbi_agentset *agents,
                              nbb_world_input *lin, nbb_world_input *ain, nb_err *err)
{
    char *path = NULL, *buf = NULL;
    size_t len;
    nb_status st = NB_OK;
    if (lin)
        lin->role = 0;
    if (ain)
        ain->role = 0;
    if (!w->legend)
        nbi_legend_default(legend);
    else if ((st = nbb_world_path(w, w->legend, &path, err)) == NB_OK &&
             (st = digest_of(path, DEFS_MAX, &buf, &len, lin, err)) == NB_OK) {
        st = nbb_legend_parse(buf, len, nbb_input_name(path), legend, err);
        if (lin)
            lin->role = NBI_ROLE_LEGEND;
    }
    nbb_free(buf), nbb_free(path);
    buf = path = NULL;
    if (st != NB_OK)
        return st;
    if (!w->agents)
        st = nbb_agents_default(legend, agents, err);
    else if ((st = nbb_world_path(w, w->agents, &path, err)) == NB_OK &&
             (st = digest_of(path, DEFS_MAX, &buf, &len, ain, err)) == NB_OK) {
        st = nbb_agents_parse(buf, len, nbb_input_name(path), legend, agents, err);
        if (ain)
            ain->role = NBI_ROLE_AGENTS;
    }
    nbb_free(buf), nbb_free(path);
    return st;
}

nb_status nbb_world_read_tile(const nbb_world *w, const nbi_legend *legend, uint32_t tx, uint32_t ty,
                              unsigned threads, nbb_grid *grid, nbb_world_input *in, char **path_out,
                              nb_err *err)
{
    uint32_t x0, y0, tw, th;
    char *path = NULL, *buf = NULL;
    size_t len = 0;
    grid->cells = NULL;
    nbb_world_tile_rect(w, tx, ty, &x0, &y0, &tw, &th);
    nb_status st = nbb_world_tile_map(w, tx, ty, &path, err);
    if (st == NB_OK)
        st = digest_of(path, NBB_MAP_FILE_MAX, &buf, &len, in, err);
    if (st == NB_OK)
        st = nbb_map_parse(buf, len, nbb_input_name(path), legend, threads, grid, err);
    if (st == NB_OK && (grid->width != tw || grid->height != th))
        st = nbi_fail(err, NB_ERR_FORMAT, "%s: a map of %u x %u cells, where the world's tile is %u x %u",
                      path, grid->width, grid->height, tw, th);
    if (st != NB_OK) {
        nbb_grid_free(grid);
        nbi_err_prefix(err, "tile (%u, %u), cells (%u, %u) to (%u, %u)", tx, ty, x0, y0,
                       x0 + tw - 1, y0 + th - 1);
    }
    nbb_free(buf);
    if (st == NB_OK && path_out)
        *path_out = path;
    else
        nbb_free(path);
    return st;
}
