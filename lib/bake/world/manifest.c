/* manifest.c: a world's manifest (formats/world.md): the world's size, its
 * tile size, where the tiles' maps are, the legend and the agent set.  It
 * names no digest and lists no tile one by one: its bytes do not change when
 * a tile is edited, and its size does not grow with the world. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"

static char *copy(const char *s, size_t len)
{
    char *c = nbb_malloc(len + 1);
    if (c) {
        memcpy(c, s, len);
        c[len] = '\0';
    }
    return c;
}

/* The maps' pattern: {x} and {y} once each, no other brace (a brace in a
 * file name would be read as a mistyped field). */
static const char *pattern_problem(const char *p)
{
    int x = 0, y = 0;
    for (const char *s = p; *s; s++) {
        if (strncmp(s, "{x}", 3) == 0)
            x++, s += 2;
        else if (strncmp(s, "{y}", 3) == 0)
            y++, s += 2;
        else if (*s == '{' || *s == '}')
            return "a brace other than in {x} and {y}";
    }
    if (x != 1 || y != 1)
        return "it must hold {x} and {y} once each";
    return NULL;
}

nb_status nbb_world_shape(nbb_world *w, const char *what, nb_err *err)
{
    if (w->width < 1 || w->width > NBB_WORLD_MAX_SIDE || w->height < 1 || w->height > NBB_WORLD_MAX_SIDE)
        return nbi_fail(err, NB_ERR_LIMIT, "%s: a world of %u x %u cells: each side must be 1 to %u",
                        what, w->width, w->height, NBB_WORLD_MAX_SIDE);
    if (w->cluster < 1 || w->cluster > NB_ABSTRACT_MAX_CLUSTER)
        return nbi_fail(err, NB_ERR_LIMIT, "%s: cluster %u is not 1 to %d", what, w->cluster,
                        NB_ABSTRACT_MAX_CLUSTER);
    if (w->tile < NBB_WORLD_MIN_TILE || w->tile > NB_MAP_MAX_SIDE || w->tile % w->cluster)
        return nbi_fail(err, NB_ERR_LIMIT,
                        "%s: tile %u must be %d to %d cells and a multiple of the cluster (%u)",
                        what, w->tile, NBB_WORLD_MIN_TILE, NB_MAP_MAX_SIDE, w->cluster);
    w->columns = (w->width + w->tile - 1) / w->tile;
    w->rows = (w->height + w->tile - 1) / w->tile;
    if ((uint64_t)w->columns * w->rows > NBB_WORLD_MAX_TILES)
        return nbi_fail(err, NB_ERR_LIMIT, "%s: %u x %u tiles, more than the %u a world may have",
                        what, w->columns, w->rows, NBB_WORLD_MAX_TILES);
    return NB_OK;
}

/* An optional path: a non-empty string without NUL. */
static nb_status path_field(nbb_yaml *y, yaml_node_t *root, const char *key, char **out, nb_err *err)
{
    yaml_node_t *n = nbb_yaml_get(y, root, key);
    const char *s;
    size_t len;
    if (!n)
        return NB_OK;
    nb_status st = nbb_yaml_string(y, n, key, &s, &len, err);
    if (st != NB_OK)
        return st;
    if (len == 0)
        return nbb_yaml_fail(y, n, err, NB_ERR_SYNTAX, "%s: an empty path", key);
    if (!(*out = copy(s, len)))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    return NB_OK;
}

nb_status nbb_world_read(const char *path, nbb_world *w, nb_err *err)
{
    static const char *const keys[] = {"world", "width", "height", "tile", "cluster", "maps",
                                       "legend", "agents", "paths", "optimal", "levels", "blocks",
                                       "landmarks", "insert", NULL};
    memset(w, 0, sizeof *w);
    char *buf = NULL;
    size_t len = 0;
    /* A manifest is a few lines; 1 MiB is far beyond any. */
    nb_status st = nbb_read_file(path, (size_t)1 << 20, &buf, &len, err);
    if (st != NB_OK)
        return st;
    const char *name = nbb_input_name(path);
    nbb_yaml y;
    st = nbb_yaml_load(&y, buf, len, name, 64, err);
    nbb_free(buf);
    if (st != NB_OK)
        return st;
    yaml_node_t *root, *n;
    uint64_t v[11] = {0, 0, 0, 0, NBB_WORLD_DEFAULT_CLUSTER, 0, 0, 1, 0, 0, 0};
    static const char *const nums[] = {"world", "width", "height", "tile", "cluster", "paths",
                                       "optimal", "levels", "blocks", "landmarks", "insert"};
    static const uint64_t lo[] = {1, 1, 1, NBB_WORLD_MIN_TILE, 1, 0, 0, 1, 0, 1, 1},
                          hi[] = {1, NBB_WORLD_MAX_SIDE, NBB_WORLD_MAX_SIDE, NB_MAP_MAX_SIDE,
                                  NB_ABSTRACT_MAX_CLUSTER, 1, 1, NBB_LEVELS_MAX, NBI_WBLK_MAX_SIDE,
                                  NBI_WLMK_MAX, NBI_TINS_MAX_SIDE};
    if ((st = nbb_yaml_root(&y, "a world manifest with 'world', 'width', 'height', 'tile' and 'maps'",
                            &root, err)) ||
        (st = nbb_yaml_mapping(&y, root, "world manifest", keys, err)))
        goto done;
    for (int i = 0; i < 11; i++) {
        if (i >= 4 && !nbb_yaml_get(&y, root, nums[i]))
            continue;
        if ((st = nbb_yaml_need(&y, root, nums[i], "world manifest", &n, err)) ||
            (st = nbb_yaml_uint(&y, n, nums[i], lo[i], hi[i], &v[i], err)))
            goto done;
    }
    w->width = (uint32_t)v[1];
    w->height = (uint32_t)v[2];
    w->tile = (uint32_t)v[3];
    w->cluster = (uint32_t)v[4];
    w->paths = (uint32_t)v[5];
    w->optimal = (uint32_t)v[6];
    w->levels = (uint32_t)v[7];
    w->blocks = (uint32_t)v[8];
    w->landmarks = (uint32_t)v[9];
    w->insert = (uint32_t)v[10];
    if ((st = nbb_yaml_need(&y, root, "maps", "world manifest", &n, err)) ||
        (st = path_field(&y, root, "maps", &w->maps, err)) ||
        (st = path_field(&y, root, "legend", &w->legend, err)) ||
        (st = path_field(&y, root, "agents", &w->agents, err)))
        goto done;
    const char *why = pattern_problem(w->maps);
    if (why) {
        st = nbb_yaml_fail(&y, n, err, NB_ERR_SYNTAX, "maps: '%s': %s", w->maps, why);
        goto done;
    }
    st = nbb_world_shape(w, name, err);
    if (st == NB_OK) {
        /* The folder the manifest's paths start from. */
        const char *slash = strrchr(path, '/');
        w->dir = copy(path, slash && strcmp(path, "-") ? (size_t)(slash - path + 1) : 0);
        if (!w->dir)
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory");
    }
done:
    nbb_yaml_free(&y);
    if (st != NB_OK)
        nbb_world_free(w);
    else
        nbi_ok(err);
    return st;
}

void nbb_world_free(nbb_world *w)
{
    nbb_free(w->dir);
    nbb_free(w->maps);
    nbb_free(w->legend);
    nbb_free(w->agents);
    memset(w, 0, sizeof *w);
}

/* Appends "key: "value"" (YAML double-quoted) at t + *at; t has room. */
static void quoted(char *t, size_t *at, const char *key, const char *s)
{
    *at += (size_t)sprintf(t + *at, "%s: \"", key);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            t[(*at)++] = '\\';
        t[(*at)++] = *s;
    }
    *at += (size_t)sprintf(t + *at, "\"\n");
}

nb_status nbb_world_text(const nbb_world *w, char **text, size_t *len, nb_err *err)
{
    const char *paths[3] = {w->maps, w->legend, w->agents}, *keys[3] = {"maps", "legend", "agents"};
    size_t cap = 256;
    for (int i = 0; i < 3; i++)
        cap += paths[i] ? 2 * strlen(paths[i]) + 16 : 0;
    char *t = nbb_malloc(cap);
    if (!t)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the manifest");
    size_t at = (size_t)sprintf(t,
                                "# A navbake world (formats/world.md).\n"
                                "world: 1\nwidth: %u\nheight: %u\ntile: %u\ncluster: %u\n",
                                w->width, w->height, w->tile, w->cluster);
    if (w->paths)
        at += (size_t)sprintf(t + at, "paths: 1\n");
    if (w->optimal)
        at += (size_t)sprintf(t + at, "optimal: 1\n");
    if (w->levels > 1)
        at += (size_t)sprintf(t + at, "levels: %u\n", w->levels);
    if (w->blocks)
        at += (size_t)sprintf(t + at, "blocks: %u\n", w->blocks);
    if (w->landmarks)
        at += (size_t)sprintf(t + at, "landmarks: %u\n", w->landmarks);
    if (w->insert)
        at += (size_t)sprintf(t + at, "insert: %u\n", w->insert);
    for (int i = 0; i < 3; i++)
        if (paths[i])
            quoted(t, &at, keys[i], paths[i]);
    *text = t;
    *len = at;
    return NB_OK;
}

nb_status nbb_world_path(const nbb_world *w, const char *rel, char **out, nb_err *err)
{
    const char *dir = rel[0] == '/' || !w->dir ? "" : w->dir;
    size_t dl = strlen(dir), rl = strlen(rel);
    if (!(*out = nbb_malloc(dl + rl + 1)))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    memcpy(*out, dir, dl);
    memcpy(*out + dl, rel, rl + 1);
    return NB_OK;
}

nb_status nbb_world_tile_map(const nbb_world *w, uint32_t tx, uint32_t ty, char **out, nb_err *err)
{
    size_t cap = strlen(w->maps) + 2 * 10 + 1, k = 0;
    char *rel = nbb_malloc(cap);
    if (!rel)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    for (const char *s = w->maps; *s;) {
        if (strncmp(s, "{x}", 3) == 0 || strncmp(s, "{y}", 3) == 0) {
            k += (size_t)snprintf(rel + k, cap - k, "%u", s[1] == 'x' ? tx : ty);
            s += 3;
        } else
            rel[k++] = *s++;
    }
    rel[k] = '\0';
    nb_status st = nbb_world_path(w, rel, out, err);
    nbb_free(rel);
    return st;
}

void nbb_world_tile_rect(const nbb_world *w, uint32_t tx, uint32_t ty, uint32_t *x0, uint32_t *y0,
                         uint32_t *tw, uint32_t *th)
{
    *x0 = tx * w->tile;
    *y0 = ty * w->tile;
    *tw = w->width - *x0 < w->tile ? w->width - *x0 : w->tile;
    *th = w->height - *y0 < w->tile ? w->height - *y0 : w->tile;
}
