/* tiled_tmx.c: Tiled's XML forms, maps (.tmx) and tilesets (.tsx), read
 * with expat (formats/tiled.md).  Errors name the file, line and column.
 * A document type declaration is refused (Tiled writes none), so no
 * entity is ever expanded. */
#include <errno.h>
#include <expat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "levels.h"

#define MAX_DEPTH 64

typedef enum ctx { C_OTHER, C_MAP, C_TILESET, C_TILE, C_LAYER, C_DATA, C_CHUNK, C_GROUP,
                   C_OBJECTS, C_OBJECT, C_PROPERTY } ctx;

typedef struct tmx {
    XML_Parser p;
    const char *path, *file;
    nbb_tiled_map *m;        /* NULL when reading a tileset alone */
    nbb_tiled_tileset *ts;   /* the tileset being read */
    nb_status st;
    nb_err *err;
    ctx stack[MAX_DEPTH];
    int depth;
    int saw_root;
    /* The tile layer being read. */
    nbb_tiled_layer *layer;
    uint32_t lw, lh;
    char *encoding, *compression;
    nbb_tiled_chunk *chunk;  /* the chunk whose text is gathered */
    size_t xml_tiles;        /* <tile gid> children of <data> so far */
    /* Text of <data>, <chunk> or <property>. */
    char *text;
    size_t tlen, tcap;
    int gather;
    /* The object layer being read, and its terrain (property, else class). */
    char *group_name, *group_class, *group_terrain;
    nbb_tiled_object *object;
    char *object_class, *object_terrain;
    /* A <property> named "terrain" of the element below it. */
    ctx prop_of;
    int prop_terrain;
    char *tile_class, *tile_terrain;
    nbb_tiled_tile *tile;
} tmx;

static void stop(tmx *t, nb_status code, const char *fmt, ...) NBP_PRINTF(3, 4);
static void stop(tmx *t, nb_status code, const char *fmt, ...)
{
    if (t->st != NB_OK)
        return;
    char what[NB_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    t->st = nbi_fail(t->err, code, "%s:%lu:%lu: %s", t->file,
                     (unsigned long)XML_GetCurrentLineNumber(t->p),
                     (unsigned long)XML_GetCurrentColumnNumber(t->p) + 1, what);
    XML_StopParser(t->p, XML_FALSE);
}

/* An error from a helper that filled err itself: add the place. */
static void stop_err(tmx *t, nb_status st)
{
    char msg[NB_ERR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", t->err ? t->err->msg : "");
    stop(t, st, "%s", msg);
}

static const char *attr(const char **a, const char *name)
{
    for (; a[0]; a += 2)
        if (strcmp(a[0], name) == 0)
            return a[1];
    return NULL;
}

/* Whole numbers and reals of attributes; 0 and an error when bad. */
static int64_t num(tmx *t, const char **a, const char *name, int64_t min, int64_t max, int64_t def)
{
    const char *v = attr(a, name);
    if (!v)
        return def;
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end || errno || x < min || x > max) {
        stop(t, NB_ERR_FORMAT, "attribute %s=\"%.40s\": expected a whole number from %lld to %lld",
             name, v, (long long)min, (long long)max);
        return min;
    }
    return x;
}

static double real(tmx *t, const char **a, const char *name)
{
    const char *v = attr(a, name);
    if (!v)
        return 0;
    char *end;
    double x = strtod(v, &end);
    if (end == v || *end) {
        stop(t, NB_ERR_FORMAT, "attribute %s=\"%.40s\": expected a number", name, v);
        return 0;
    }
    return x;
}

static char *dup_attr(tmx *t, const char **a, const char *name)
{
    const char *v = attr(a, name);
    if (!v)
        return NULL;
    char *p = nbb_strndup(v, strlen(v));
    if (!p)
        stop(t, NB_ERR_NOMEM, "no memory");
    return p;
}

/* Tiled 1.9 renamed a tile's and an object's "type" to "class". */
static char *class_attr(tmx *t, const char **a)
{
    return attr(a, "class") ? dup_attr(t, a, "class") : dup_attr(t, a, "type");
}

static void tileset_start(tmx *t, const char **a)
{
    nbb_tiled_tileset *ts = t->ts;
    if (t->m) {
        ts = t->ts = nbb_tiled_add_tileset(t->m);
        if (!ts)
            return stop(t, NB_ERR_NOMEM, "no memory");
        ts->firstgid = (uint32_t)num(t, a, "firstgid", 1, NBB_TILED_GID_MASK, 0);
        if (!attr(a, "firstgid"))
            return stop(t, NB_ERR_FORMAT, "a <tileset> of a map without firstgid");
        if (attr(a, "source")) {
            ts->source = dup_attr(t, a, "source"); /* read once the map is */
            return;
        }
    }
    ts->name = dup_attr(t, a, "name");
    ts->count = (uint32_t)num(t, a, "tilecount", 0, NBB_TILED_GID_MASK, 0);
    ts->collection = attr(a, "columns") && num(t, a, "columns", 0, NBB_TILED_GID_MASK, 0) == 0;
}

static void tile_start(tmx *t, const char **a)
{
    t->tile = nbb_tiled_add_tile(t->ts);
    if (!t->tile)
        return stop(t, NB_ERR_NOMEM, "no memory");
    t->tile->id = (uint32_t)num(t, a, "id", 0, NBB_TILED_GID_MASK, 0);
    if (!t->ts->collection && t->ts->count && t->tile->id >= t->ts->count)
        stop(t, NB_ERR_FORMAT, "tile %u of tileset '%s', which has %u tiles", t->tile->id,
             t->ts->name ? t->ts->name : "", t->ts->count);
    t->tile_class = class_attr(t, a);
}

static void layer_start(tmx *t, const char **a)
{
    const char *name = attr(a, "name");
    t->layer = nbb_tiled_add_layer(t->m, name ? name : "");
    if (!t->layer)
        return stop(t, NB_ERR_NOMEM, "no memory");
    t->lw = (uint32_t)num(t, a, "width", 1, NB_MAP_MAX_SIDE, t->m->width);
    t->lh = (uint32_t)num(t, a, "height", 1, NB_MAP_MAX_SIDE, t->m->height);
    if (t->st == NB_OK && !t->m->infinite && (t->lw != t->m->width || t->lh != t->m->height))
        stop(t, NB_ERR_FORMAT, "layer '%s' is %u x %u, the map %u x %u", t->layer->name, t->lw,
             t->lh, t->m->width, t->m->height);
}

/* A chunk of w x h gids at (x, y). */
static nbb_tiled_chunk *new_chunk(tmx *t, int64_t x, int64_t y, uint32_t w, uint32_t h)
{
    nbb_tiled_chunk *k = nbb_tiled_add_chunk(t->layer);
    if (k) {
        k->x = x, k->y = y, k->w = w, k->h = h;
        k->gids = nbb_calloc((size_t)w * h, sizeof *k->gids);
    }
    if (!k || !k->gids)
        stop(t, NB_ERR_NOMEM, "no memory for layer '%s'", t->layer->name);
    return k;
}

static void data_start(tmx *t, const char **a)
{
    nbb_free(t->encoding);
    nbb_free(t->compression);
    t->encoding = dup_attr(t, a, "encoding");
    t->compression = dup_attr(t, a, "compression");
    t->xml_tiles = 0;
    t->chunk = NULL;
    if (!t->m->infinite && t->st == NB_OK) {
        t->chunk = new_chunk(t, 0, 0, t->lw, t->lh);
        t->gather = 1, t->tlen = 0;
    }
}

static void chunk_start(tmx *t, const char **a)
{
    if (!t->m->infinite)
        return stop(t, NB_ERR_FORMAT, "a <chunk> in a map that is not infinite");
    int64_t x = num(t, a, "x", -(1 << 30), 1 << 30, 0), y = num(t, a, "y", -(1 << 30), 1 << 30, 0);
    uint32_t w = (uint32_t)num(t, a, "width", 1, 4096, 1), h = (uint32_t)num(t, a, "height", 1, 4096, 1);
    if (t->st == NB_OK) {
        t->chunk = new_chunk(t, x, y, w, h);
        t->xml_tiles = 0;
        t->gather = 1, t->tlen = 0;
    }
}

/* <tile gid="..."/> inside <data> or <chunk>: the layer given without encoding. */
static void xml_tile(tmx *t, const char **a)
{
    if (!t->chunk)
        return stop(t, NB_ERR_FORMAT, "a <tile> outside a chunk of an infinite map");
    if (t->encoding)
        return stop(t, NB_ERR_FORMAT, "a <tile> in data encoded as '%s'", t->encoding);
    if (t->xml_tiles == (size_t)t->chunk->w * t->chunk->h)
        return stop(t, NB_ERR_FORMAT, "layer '%s': more <tile> elements than its %u x %u cells",
                    t->layer->name, t->chunk->w, t->chunk->h);
    t->chunk->gids[t->xml_tiles++] = (uint32_t)num(t, a, "gid", 0, UINT32_MAX, 0);
}

/* The end of <data> or <chunk>: its text decoded. */
static void gids_end(tmx *t)
{
    t->gather = 0;
    nbb_tiled_chunk *k = t->chunk;
    if (!k)
        return;
    t->chunk = NULL;
    char where[200];
    if (t->m->infinite)
        snprintf(where, sizeof where, "layer '%s', chunk (%lld, %lld)", t->layer->name,
                 (long long)k->x, (long long)k->y);
    else
        snprintf(where, sizeof where, "layer '%s'", t->layer->name);
    if (!t->encoding) {
        if (t->xml_tiles != (size_t)k->w * k->h)
            stop(t, NB_ERR_FORMAT, "%s: %zu <tile> elements, the layer has %u x %u cells", where,
                 t->xml_tiles, k->w, k->h);
        return;
    }
    nb_status st = nbb_tiled_decode(t->text ? t->text : "", t->tlen, t->encoding, t->compression,
                                    k->gids, (size_t)k->w * k->h, where, t->err);
    if (st != NB_OK)
        stop_err(t, st);
}

static void objects_start(tmx *t, const char **a)
{
    nbb_free(t->group_name);
    nbb_free(t->group_class);
    nbb_free(t->group_terrain);
    t->group_terrain = NULL;
    const char *name = attr(a, "name");
    t->group_name = nbb_strndup(name ? name : "", name ? strlen(name) : 0);
    t->group_class = dup_attr(t, a, "class");
}

static void object_start(tmx *t, const char **a)
{
    nbb_tiled_object *o = t->object = nbb_tiled_add_object(t->m);
    if (!o)
        return stop(t, NB_ERR_NOMEM, "no memory");
    o->id = (uint32_t)num(t, a, "id", 0, UINT32_MAX, 0);
    o->layer = nbb_strndup(t->group_name, strlen(t->group_name));
    o->x = real(t, a, "x"), o->y = real(t, a, "y");
    o->w = real(t, a, "width"), o->h = real(t, a, "height");
    o->rotation = real(t, a, "rotation");
    o->gid = (uint32_t)num(t, a, "gid", 0, UINT32_MAX, 0) & NBB_TILED_GID_MASK;
    o->shape = NBB_SHAPE_RECT;
    t->object_class = class_attr(t, a);
}

/* "x1,y1 x2,y2 ..." of a polygon. */
static void polygon(tmx *t, const char **a)
{
    nbb_tiled_object *o = t->object;
    const char *s = attr(a, "points");
    if (!s)
        return stop(t, NB_ERR_FORMAT, "a <polygon> without points");
    /* Tiled writes one; a second would drop the first's points. */
    if (o->points)
        return stop(t, NB_ERR_FORMAT, "object %u: a second <polygon>", o->id);
    size_t n = 1;
    for (const char *q = s; *q; q++)
        n += *q == ' ';
    o->points = nbb_malloc(2 * n * sizeof *o->points);
    if (!o->points)
        return stop(t, NB_ERR_NOMEM, "no memory");
    o->npoints = 0;
    const char *q = s;
    while (*q) {
        char *end;
        double x = strtod(q, &end);
        if (end == q || *end != ',')
            return stop(t, NB_ERR_FORMAT, "polygon point %zu: expected 'x,y'", o->npoints + 1);
        q = end + 1;
        double y = strtod(q, &end);
        if (end == q || (*end && *end != ' '))
            return stop(t, NB_ERR_FORMAT, "polygon point %zu: expected 'x,y'", o->npoints + 1);
        o->points[2 * o->npoints] = x, o->points[2 * o->npoints + 1] = y;
        o->npoints++;
        q = *end ? end + 1 : end;
    }
    if (o->npoints < 3)
        return stop(t, NB_ERR_FORMAT, "a polygon of %zu points", o->npoints);
    o->shape = NBB_SHAPE_POLYGON;
}

static void property_start(tmx *t, const char **a)
{
    const char *name = attr(a, "name");
    t->prop_terrain = name && strcmp(name, "terrain") == 0;
    t->prop_of = t->depth >= 2 ? t->stack[t->depth - 2] : C_OTHER; /* above <properties> */
    t->gather = 1, t->tlen = 0;
    const char *v = attr(a, "value");
    if (v) {
        t->gather = 0;
        t->tlen = 0;
        size_t n = strlen(v);
        if (n + 1 > t->tcap) {
            char *p = nbb_realloc(t->text, n + 1);
            if (!p)
                return stop(t, NB_ERR_NOMEM, "no memory");
            t->text = p, t->tcap = n + 1;
        }
        memcpy(t->text, v, n);
        t->tlen = n;
    }
}

static void property_end(tmx *t)
{
    t->gather = 0;
    if (!t->prop_terrain)
        return;
    char *v = nbb_strndup(t->text ? t->text : "", t->tlen);
    char **slot = t->prop_of == C_TILE ? &t->tile_terrain
                  : t->prop_of == C_OBJECT ? &t->object_terrain
                  : t->prop_of == C_OBJECTS ? &t->group_terrain : NULL;
    if (slot) {
        nbb_free(*slot);
        *slot = v;
    } else
        nbb_free(v);
}

/* A tile's or an object's name: its terrain property, else its class. */
static char *pick(char **terrain, char **cls)
{
    char *n = *terrain ? *terrain : *cls;
    if (n == *terrain)
        nbb_free(*cls);
    else
        nbb_free(*terrain);
    *terrain = *cls = NULL;
    return n;
}

static void XMLCALL on_start(void *ud, const char *el, const char **a)
{
    tmx *t = ud;
    if (t->st != NB_OK)
        return;
    if (t->depth == MAX_DEPTH)
        return stop(t, NB_ERR_LIMIT, "elements nested deeper than %d", MAX_DEPTH);
    ctx parent = t->depth ? t->stack[t->depth - 1] : C_OTHER, me = C_OTHER;
    if (t->depth == 0) {
        if (t->m && strcmp(el, "map") == 0) {
            me = C_MAP;
            const char *o = attr(a, "orientation");
            if (o && strcmp(o, "orthogonal") != 0)
                stop(t, NB_ERR_UNSUPPORTED, "an %s map: only orthogonal maps are read", o);
            t->m->width = (uint32_t)num(t, a, "width", 1, NB_MAP_MAX_SIDE, 0);
            t->m->height = (uint32_t)num(t, a, "height", 1, NB_MAP_MAX_SIDE, 0);
            t->m->tilewidth = (uint32_t)num(t, a, "tilewidth", 1, 1 << 20, 0);
            t->m->tileheight = (uint32_t)num(t, a, "tileheight", 1, 1 << 20, 0);
            t->m->infinite = (int)num(t, a, "infinite", 0, 1, 0);
            if (t->st == NB_OK && (!attr(a, "tilewidth") || !attr(a, "tileheight") ||
                                   (!t->m->infinite && (!attr(a, "width") || !attr(a, "height")))))
                stop(t, NB_ERR_FORMAT, "<map> needs width, height, tilewidth and tileheight");
        } else if (!t->m && strcmp(el, "tileset") == 0) {
            me = C_TILESET;
            tileset_start(t, a);
        } else
            stop(t, NB_ERR_FORMAT, "the document is a <%.40s>, not a Tiled %s", el,
                 t->m ? "<map>" : "<tileset>");
        t->saw_root = 1;
    } else if (parent == C_MAP && strcmp(el, "tileset") == 0) {
        me = C_TILESET;
        tileset_start(t, a);
    } else if (parent == C_TILESET && strcmp(el, "tile") == 0) {
        me = C_TILE;
        tile_start(t, a);
    } else if ((parent == C_MAP || parent == C_GROUP) && strcmp(el, "layer") == 0) {
        me = C_LAYER;
        layer_start(t, a);
    } else if ((parent == C_MAP || parent == C_GROUP) && strcmp(el, "group") == 0) {
        me = C_GROUP;
    } else if ((parent == C_MAP || parent == C_GROUP) && strcmp(el, "objectgroup") == 0) {
        me = C_OBJECTS;
        objects_start(t, a);
    } else if (parent == C_OBJECTS && strcmp(el, "object") == 0) {
        me = C_OBJECT;
        object_start(t, a);
    } else if (parent == C_OBJECT && strcmp(el, "ellipse") == 0) {
        t->object->shape = NBB_SHAPE_ELLIPSE;
    } else if (parent == C_OBJECT && strcmp(el, "polygon") == 0) {
        polygon(t, a);
    } else if (parent == C_OBJECT && (strcmp(el, "polyline") == 0 || strcmp(el, "point") == 0 ||
                                      strcmp(el, "text") == 0)) {
        t->object->w = t->object->h = 0; /* neither covers a cell */
        t->object->shape = NBB_SHAPE_RECT;
    } else if (parent == C_LAYER && strcmp(el, "data") == 0) {
        me = C_DATA;
        data_start(t, a);
    } else if (parent == C_DATA && strcmp(el, "chunk") == 0) {
        me = C_CHUNK;
        chunk_start(t, a);
    } else if ((parent == C_DATA || parent == C_CHUNK) && strcmp(el, "tile") == 0) {
        xml_tile(t, a);
    } else if (strcmp(el, "property") == 0) {
        me = C_PROPERTY;
        property_start(t, a);
    }
    t->stack[t->depth++] = me;
}

static void XMLCALL on_end(void *ud, const char *el)
{
    tmx *t = ud;
    (void)el;
    if (t->st != NB_OK || t->depth == 0)
        return;
    ctx me = t->stack[--t->depth];
    switch (me) {
    case C_DATA:
    case C_CHUNK:
        if (t->chunk)
            gids_end(t);
        break;
    case C_PROPERTY: property_end(t); break;
    case C_TILE:
        if (t->tile)
            t->tile->name = pick(&t->tile_terrain, &t->tile_class);
        t->tile = NULL;
        break;
    case C_OBJECT:
        if (t->object) {
            char *n = pick(&t->object_terrain, &t->object_class);
            if (!n && t->group_terrain)
                n = nbb_strndup(t->group_terrain, strlen(t->group_terrain));
            else if (!n && t->group_class)
                n = nbb_strndup(t->group_class, strlen(t->group_class));
            t->object->name = n;
        }
        t->object = NULL;
        break;
    case C_TILESET:
        if (t->m)
            t->ts = NULL;
        break;
    default: break;
    }
}

static void XMLCALL on_text(void *ud, const char *s, int len)
{
    tmx *t = ud;
    if (!t->gather || t->st != NB_OK || len <= 0)
        return;
    if (t->tlen + (size_t)len + 1 > t->tcap) {
        size_t cap = (t->tlen + (size_t)len + 1) * 2;
        char *p = nbb_realloc(t->text, cap);
        if (!p)
            return stop(t, NB_ERR_NOMEM, "no memory for a layer's data");
        t->text = p, t->tcap = cap;
    }
    memcpy(t->text + t->tlen, s, (size_t)len);
    t->tlen += (size_t)len;
}

static void XMLCALL on_doctype(void *ud, const char *name, const char *sys, const char *pub,
                               int internal)
{
    (void)name, (void)sys, (void)pub, (void)internal;
    stop(ud, NB_ERR_UNSUPPORTED, "a document type declaration (Tiled writes none)");
}

static nb_status parse(const char *path, nbb_tiled_map *m, nbb_tiled_tileset *ts, nb_err *err)
{
    char *buf;
    size_t len;
    nb_status st = nbb_read_file(path, NBB_TILED_FILE_MAX, &buf, &len, err);
    if (st != NB_OK)
        return st;
    tmx t;
    memset(&t, 0, sizeof t);
    t.path = path, t.file = nbb_input_name(path), t.m = m, t.ts = ts, t.err = err;
    t.p = XML_ParserCreate(NULL);
    if (!t.p) {
        nbb_free(buf);
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for the XML parser", t.file);
    }
    XML_SetUserData(t.p, &t);
    XML_SetElementHandler(t.p, on_start, on_end);
    XML_SetCharacterDataHandler(t.p, on_text);
    XML_SetStartDoctypeDeclHandler(t.p, on_doctype);
    if (len > INT32_MAX)
        t.st = nbi_fail(err, NB_ERR_LIMIT, "%s: too large", t.file);
    else if (XML_Parse(t.p, buf, (int)len, XML_TRUE) == XML_STATUS_ERROR && t.st == NB_OK)
        t.st = nbi_fail(err, NB_ERR_SYNTAX, "%s:%lu:%lu: %s", t.file,
                        (unsigned long)XML_GetCurrentLineNumber(t.p),
                        (unsigned long)XML_GetCurrentColumnNumber(t.p) + 1,
                        XML_ErrorString(XML_GetErrorCode(t.p)));
    if (t.st == NB_OK && m && !m->nlayers)
        t.st = nbi_fail(err, NB_ERR_FORMAT, "%s: a map with no tile layer", t.file);
    XML_ParserFree(t.p);
    nbb_free(buf);
    nbb_free(t.text);
    nbb_free(t.encoding);
    nbb_free(t.compression);
    nbb_free(t.group_name);
    nbb_free(t.group_class);
    nbb_free(t.group_terrain);
    nbb_free(t.object_class);
    nbb_free(t.object_terrain);
    nbb_free(t.tile_class);
    nbb_free(t.tile_terrain);
    return t.st;
}

nb_status nbb_tmx_read(const char *path, nbb_tiled_map *m, nb_err *err)
{
    memset(m, 0, sizeof *m);
    m->file = nbb_input_name(path);
    return parse(path, m, NULL, err);
}

nb_status nbb_tsx_read(const char *path, nbb_tiled_tileset *ts, nb_err *err)
{
    return parse(path, NULL, ts, err);
}
