/* tiled_tmj.c: Tiled's JSON forms, maps (.tmj) and tilesets (.tsj), read
 * with jansson (formats/tiled.md).  Errors name the file and the value's
 * place: the layer, chunk, tileset or object. */
#include <stdio.h>
#include <stdlib.h>

#include "json_load.h"
#include "levels.h"

#define MAX_GROUP_DEPTH 64

typedef struct tmj {
    const char *path, *file;
    nbb_tiled_map *m;
    nb_err *err;
} tmj;

static char *dup_str(const char *s) { return s ? nbb_strndup(s, strlen(s)) : NULL; }

/* The value of a "terrain" property in a properties array, or NULL. */
static nb_status terrain_property(const char *file, const char *where, const json_t *obj,
                                  const char **out, nb_err *err)
{
    json_t *props;
    *out = NULL;
    nb_status st = nbb_json_array(file, where, obj, "properties", 0, &props, err);
    for (size_t i = 0; st == NB_OK && props && i < json_array_size(props); i++) {
        json_t *p;
        const char *name, *v;
        if ((st = nbb_json_object_at(file, where, props, i, &p, err)) ||
            (st = nbb_json_str(file, where, p, "name", 1, &name, err)))
            break;
        if (strcmp(name, "terrain") == 0 && json_is_string(json_object_get(p, "value")) &&
            (st = nbb_json_str(file, where, p, "value", 1, &v, err)) == NB_OK)
            *out = v;
    }
    return st;
}

/* Its terrain property, else its class ("type" before Tiled 1.9). */
static nb_status name_of(const char *file, const char *where, const json_t *obj, char **out,
                         nb_err *err)
{
    const char *terrain, *cls;
    nb_status st = terrain_property(file, where, obj, &terrain, err);
    if (st == NB_OK && !terrain && (st = nbb_json_str(file, where, obj, "class", 0, &cls, err)) == NB_OK &&
        !cls)
        st = nbb_json_str(file, where, obj, "type", 0, &cls, err);
    *out = NULL;
    if (st == NB_OK)
        *out = dup_str(terrain ? terrain : cls && *cls ? cls : NULL);
    return st;
}

/* A tileset's own fields (embedded in a map, or a .tsj file). */
static nb_status tileset_fields(const char *file, const char *where, const json_t *o,
                                nbb_tiled_tileset *ts, nb_err *err)
{
    const char *name;
    int64_t count = 0;
    json_t *tiles;
    nb_status st;
    if ((st = nbb_json_str(file, where, o, "name", 0, &name, err)) ||
        (st = nbb_json_int(file, where, o, "tilecount", 0, NBB_TILED_GID_MASK, 0, &count, err)) ||
        (st = nbb_json_array(file, where, o, "tiles", 0, &tiles, err)))
        return st;
    int64_t columns = -1;
    if ((st = nbb_json_int(file, where, o, "columns", 0, NBB_TILED_GID_MASK, 0, &columns, err)))
        return st;
    ts->name = dup_str(name);
    ts->count = (uint32_t)count;
    ts->collection = columns == 0;
    for (size_t i = 0; tiles && i < json_array_size(tiles); i++) {
        json_t *t;
        int64_t id = 0;
        char w[160];
        snprintf(w, sizeof w, "%s, tiles[%zu]", where, i);
        nbb_tiled_tile *tile = nbb_tiled_add_tile(ts);
        if (!tile)
            return nbi_fail(err, NB_ERR_NOMEM, "no memory");
        if ((st = nbb_json_object_at(file, w, tiles, i, &t, err)) ||
            (st = nbb_json_int(file, w, t, "id", 0, NBB_TILED_GID_MASK, 1, &id, err)) ||
            (st = name_of(file, w, t, &tile->name, err)))
            return st;
        if (!ts->collection && ts->count && id >= ts->count)
            return nbb_json_fail(file, w, err, NB_ERR_FORMAT, "tile %lld of a tileset of %u tiles",
                                 (long long)id, ts->count);
        tile->id = (uint32_t)id;
    }
    return NB_OK;
}

nb_status nbb_tsj_read(const char *path, nbb_tiled_tileset *ts, nb_err *err)
{
    json_t *root;
    nb_status st = nbb_json_load(path, NBB_TILED_FILE_MAX, &root, err);
    if (st != NB_OK)
        return st;
    const char *file = nbb_input_name(path);
    if (!json_is_object(root))
        st = nbb_json_fail(file, "the document", err, NB_ERR_FORMAT, "expected a tileset object");
    else
        st = tileset_fields(file, "the tileset", root, ts, err);
    json_decref(root);
    return st;
}

static nb_status tilesets(tmj *j, const json_t *root)
{
    json_t *list;
    nb_status st = nbb_json_array(j->file, "the map", root, "tilesets", 0, &list, j->err);
    for (size_t i = 0; st == NB_OK && list && i < json_array_size(list); i++) {
        char w[64];
        json_t *o;
        const char *src;
        int64_t first = 0;
        snprintf(w, sizeof w, "tilesets[%zu]", i);
        nbb_tiled_tileset *ts = nbb_tiled_add_tileset(j->m);
        if (!ts)
            return nbi_fail(j->err, NB_ERR_NOMEM, "no memory");
        if ((st = nbb_json_object_at(j->file, w, list, i, &o, j->err)) ||
            (st = nbb_json_int(j->file, w, o, "firstgid", 1, NBB_TILED_GID_MASK, 1, &first, j->err)) ||
            (st = nbb_json_str(j->file, w, o, "source", 0, &src, j->err)))
            return st;
        if (src && !(ts->source = dup_str(src)))
            return nbi_fail(j->err, NB_ERR_NOMEM, "no memory");
        if (!src)
            st = tileset_fields(j->file, w, o, ts, j->err);
        ts->firstgid = (uint32_t)first;
    }
    return st;
}

/* A layer's (or chunk's) data: an array of gids or an encoded string. */
static nb_status gids(tmj *j, const char *where, const json_t *o, const json_t *layer,
                      nbb_tiled_chunk *k)
{
    const char *enc, *comp;
    nb_status st;
    size_t n = (size_t)k->w * k->h;
    json_t *data = json_object_get(o, "data");
    if ((st = nbb_json_str(j->file, where, layer, "encoding", 0, &enc, j->err)) ||
        (st = nbb_json_str(j->file, where, layer, "compression", 0, &comp, j->err)))
        return st;
    k->gids = nbb_calloc(n, sizeof *k->gids);
    if (!k->gids)
        return nbi_fail(j->err, NB_ERR_NOMEM, "%s: no memory for %s", j->file, where);
    if (json_is_array(data)) {
        if (json_array_size(data) != n)
            return nbb_json_fail(j->file, where, j->err, NB_ERR_FORMAT,
                                 "its data holds %zu gids, the layer has %u x %u cells",
                                 json_array_size(data), k->w, k->h);
        for (size_t i = 0; i < n; i++) {
            json_t *g = json_array_get(data, i);
            if (!json_is_integer(g) || json_integer_value(g) < 0 ||
                json_integer_value(g) > (json_int_t)UINT32_MAX)
                return nbb_json_fail(j->file, where, j->err, NB_ERR_FORMAT,
                                     "data[%zu] is not a gid (a whole number of 32 bits)", i);
            k->gids[i] = (uint32_t)json_integer_value(g);
        }
        return NB_OK;
    }
    if (!json_is_string(data))
        return nbb_json_fail(j->file, where, j->err, NB_ERR_FORMAT,
                             "\"data\" must be an array of gids or a base64 string");
    if (!enc)
        enc = "base64";
    char w[200];
    snprintf(w, sizeof w, "%s: %s", j->file, where);
    return nbb_tiled_decode(json_string_value(data), json_string_length(data), enc, comp, k->gids,
                            n, w, j->err);
}

static nb_status tile_layer(tmj *j, const char *where, const json_t *o)
{
    const char *name;
    int64_t w = j->m->width, h = j->m->height;
    json_t *chunks;
    nb_status st;
    if ((st = nbb_json_str(j->file, where, o, "name", 0, &name, j->err)) ||
        (st = nbb_json_int(j->file, where, o, "width", 1, NB_MAP_MAX_SIDE, 0, &w, j->err)) ||
        (st = nbb_json_int(j->file, where, o, "height", 1, NB_MAP_MAX_SIDE, 0, &h, j->err)) ||
        (st = nbb_json_array(j->file, where, o, "chunks", 0, &chunks, j->err)))
        return st;
    nbb_tiled_layer *l = nbb_tiled_add_layer(j->m, name ? name : "");
    if (!l)
        return nbi_fail(j->err, NB_ERR_NOMEM, "no memory");
    char lw[160];
    snprintf(lw, sizeof lw, "%s '%s'", where, l->name);
    if (!j->m->infinite) {
        if (w != j->m->width || h != j->m->height)
            return nbb_json_fail(j->file, lw, j->err, NB_ERR_FORMAT, "the layer is %lld x %lld, the map %u x %u",
                                 (long long)w, (long long)h, j->m->width, j->m->height);
        nbb_tiled_chunk *k = nbb_tiled_add_chunk(l);
        if (!k)
            return nbi_fail(j->err, NB_ERR_NOMEM, "no memory");
        k->w = (uint32_t)w, k->h = (uint32_t)h;
        return gids(j, lw, o, o, k);
    }
    if (!chunks)
        return nbb_json_fail(j->file, lw, j->err, NB_ERR_FORMAT, "a layer of an infinite map without \"chunks\"");
    for (size_t i = 0; i < json_array_size(chunks); i++) {
        json_t *c;
        int64_t x = 0, y = 0, cw = 0, ch = 0;
        char cwhere[200];
        snprintf(cwhere, sizeof cwhere, "%s, chunks[%zu]", lw, i);
        nbb_tiled_chunk *k = nbb_tiled_add_chunk(l);
        if (!k)
            return nbi_fail(j->err, NB_ERR_NOMEM, "no memory");
        if ((st = nbb_json_object_at(j->file, cwhere, chunks, i, &c, j->err)) ||
            (st = nbb_json_int(j->file, cwhere, c, "x", -(1 << 30), 1 << 30, 1, &x, j->err)) ||
            (st = nbb_json_int(j->file, cwhere, c, "y", -(1 << 30), 1 << 30, 1, &y, j->err)) ||
            (st = nbb_json_int(j->file, cwhere, c, "width", 1, 4096, 1, &cw, j->err)) ||
            (st = nbb_json_int(j->file, cwhere, c, "height", 1, 4096, 1, &ch, j->err)))
            return st;
        k->x = x, k->y = y, k->w = (uint32_t)cw, k->h = (uint32_t)ch;
        if ((st = gids(j, cwhere, c, o, k)) != NB_OK)
            return st;
    }
    return NB_OK;
}

static nb_status object_layer(tmj *j, const char *where, const json_t *o)
{
    const char *name;
    char *group;
    json_t *objects;
    nb_status st;
    if ((st = nbb_json_str(j->file, where, o, "name", 0, &name, j->err)) ||
        (st = nbb_json_array(j->file, where, o, "objects", 0, &objects, j->err)) ||
        (st = name_of(j->file, where, o, &group, j->err)))
        return st;
    for (size_t i = 0; st == NB_OK && objects && i < json_array_size(objects); i++) {
        json_t *b, *poly;
        char w[200];
        int64_t id = 0, gid = 0;
        snprintf(w, sizeof w, "%s '%s', objects[%zu]", where, name ? name : "", i);
        nbb_tiled_object *ob = nbb_tiled_add_object(j->m);
        if (!ob) {
            st = nbi_fail(j->err, NB_ERR_NOMEM, "no memory");
            break;
        }
        ob->layer = dup_str(name ? name : "");
        if ((st = nbb_json_object_at(j->file, w, objects, i, &b, j->err)) ||
            (st = nbb_json_int(j->file, w, b, "id", 0, UINT32_MAX, 0, &id, j->err)) ||
            (st = nbb_json_int(j->file, w, b, "gid", 0, UINT32_MAX, 0, &gid, j->err)) ||
            (st = nbb_json_real(j->file, w, b, "x", &ob->x, j->err)) ||
            (st = nbb_json_real(j->file, w, b, "y", &ob->y, j->err)) ||
            (st = nbb_json_real(j->file, w, b, "width", &ob->w, j->err)) ||
            (st = nbb_json_real(j->file, w, b, "height", &ob->h, j->err)) ||
            (st = nbb_json_real(j->file, w, b, "rotation", &ob->rotation, j->err)) ||
            (st = nbb_json_array(j->file, w, b, "polygon", 0, &poly, j->err)) ||
            (st = name_of(j->file, w, b, &ob->name, j->err)))
            break;
        ob->id = (uint32_t)id;
        ob->gid = (uint32_t)gid & NBB_TILED_GID_MASK;
        if (!ob->name && group)
            ob->name = dup_str(group);
        ob->shape = json_is_true(json_object_get(b, "ellipse")) ? NBB_SHAPE_ELLIPSE : NBB_SHAPE_RECT;
        if (json_object_get(b, "polyline") || json_is_true(json_object_get(b, "point")) ||
            json_object_get(b, "text"))
            ob->w = ob->h = 0; /* none of these covers a cell */
        if (poly) {
            size_t n = json_array_size(poly);
            if (n < 3) {
                st = nbb_json_fail(j->file, w, j->err, NB_ERR_FORMAT, "a polygon of %zu points", n);
                break;
            }
            ob->points = nbb_malloc(2 * n * sizeof *ob->points);
            if (!ob->points) {
                st = nbi_fail(j->err, NB_ERR_NOMEM, "no memory");
                break;
            }
            for (size_t k = 0; st == NB_OK && k < n; k++) {
                json_t *pt;
                char pw[240];
                snprintf(pw, sizeof pw, "%s, polygon[%zu]", w, k);
                if ((st = nbb_json_object_at(j->file, pw, poly, k, &pt, j->err)) == NB_OK &&
                    (!json_is_number(json_object_get(pt, "x")) ||
                     !json_is_number(json_object_get(pt, "y"))))
                    st = nbb_json_fail(j->file, pw, j->err, NB_ERR_FORMAT, "expected x and y");
                if (st == NB_OK) {
                    ob->points[2 * k] = json_number_value(json_object_get(pt, "x"));
                    ob->points[2 * k + 1] = json_number_value(json_object_get(pt, "y"));
                }
            }
            ob->npoints = n;
            ob->shape = NBB_SHAPE_POLYGON;
        }
    }
    nbb_free(group);
    return st;
}

static nb_status layers(tmj *j, const json_t *parent, const char *pwhere, int depth)
{
    json_t *list;
    nb_status st = nbb_json_array(j->file, pwhere, parent, "layers", depth == 0, &list, j->err);
    if (depth > MAX_GROUP_DEPTH)
        return nbb_json_fail(j->file, pwhere, j->err, NB_ERR_LIMIT,
                             "groups nested deeper than %d", MAX_GROUP_DEPTH);
    for (size_t i = 0; st == NB_OK && list && i < json_array_size(list); i++) {
        char w[160];
        json_t *o;
        const char *type;
        snprintf(w, sizeof w, "%s%slayers[%zu]", depth ? pwhere : "", depth ? "." : "", i);
        if ((st = nbb_json_object_at(j->file, w, list, i, &o, j->err)) ||
            (st = nbb_json_str(j->file, w, o, "type", 1, &type, j->err)))
            break;
        if (strcmp(type, "tilelayer") == 0)
            st = tile_layer(j, w, o);
        else if (strcmp(type, "objectgroup") == 0)
            st = object_layer(j, w, o);
        else if (strcmp(type, "group") == 0)
            st = layers(j, o, w, depth + 1);
        /* Image layers hold no cells. */
    }
    return st;
}

nb_status nbb_tmj_read(const char *path, nbb_tiled_map *m, nb_err *err)
{
    memset(m, 0, sizeof *m);
    m->file = nbb_input_name(path);
    json_t *root;
    nb_status st = nbb_json_load(path, NBB_TILED_FILE_MAX, &root, err);
    if (st != NB_OK)
        return st;
    tmj j = {path, m->file, m, err};
    const char *orient, *type;
    int64_t w = 0, h = 0, tw = 0, th = 0;
    if (!json_is_object(root)) {
        st = nbb_json_fail(m->file, "the document", err, NB_ERR_FORMAT, "expected a map object");
        goto done;
    }
    if ((st = nbb_json_str(m->file, "the map", root, "type", 0, &type, err)) ||
        (st = nbb_json_str(m->file, "the map", root, "orientation", 0, &orient, err)))
        goto done;
    if (type && strcmp(type, "map") != 0) {
        st = nbb_json_fail(m->file, "the map", err, NB_ERR_FORMAT, "a document of type '%s', not a map", type);
        goto done;
    }
    if (orient && strcmp(orient, "orthogonal") != 0) {
        st = nbb_json_fail(m->file, "the map", err, NB_ERR_UNSUPPORTED,
                           "an %s map: only orthogonal maps are read", orient);
        goto done;
    }
    m->infinite = json_is_true(json_object_get(root, "infinite"));
    if ((st = nbb_json_int(m->file, "the map", root, "width", 1, NB_MAP_MAX_SIDE, !m->infinite, &w, err)) ||
        (st = nbb_json_int(m->file, "the map", root, "height", 1, NB_MAP_MAX_SIDE, !m->infinite, &h, err)) ||
        (st = nbb_json_int(m->file, "the map", root, "tilewidth", 1, 1 << 20, 1, &tw, err)) ||
        (st = nbb_json_int(m->file, "the map", root, "tileheight", 1, 1 << 20, 1, &th, err)))
        goto done;
    m->width = (uint32_t)w, m->height = (uint32_t)h;
    m->tilewidth = (uint32_t)tw, m->tileheight = (uint32_t)th;
    if ((st = tilesets(&j, root)) == NB_OK)
        st = layers(&j, root, "the map", 0);
    if (st == NB_OK && !m->nlayers)
        st = nbi_fail(err, NB_ERR_FORMAT, "%s: a map with no tile layer", m->file);
done:
    json_decref(root);
    return st;
}
