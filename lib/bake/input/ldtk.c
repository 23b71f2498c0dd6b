/* ldtk.c: LDtk projects (.ldtk, their levels inline or in .ldtkl files
 * beside them), read with jansson (formats/ldtk.md).  The IntGrid layers
 * are the grid: their values name terrains.  A project is one level
 * ("project.ldtk#Level") or all its levels together as a world, each at
 * its place in it. */
#include <stdio.h>
#include <stdlib.h>

#include "json_load.h"
#include "levels.h"
#include "core/u32map.h"

#define OBST ((int)NBI_CELL_OBSTACLE)
#define NO_CELL (-2) /* outside every level */
#define LDTK_FILE_MAX ((size_t)512 << 20)

typedef struct ldtk {
    const char *path, *file;
    json_t *root;
    json_t *defs; /* defs.layers */
    const nbi_legend *legend;
    const nbb_legend_ext *ext;
    int unnamed, empty;
    nb_err *err;
} ldtk;

/* One level: its place in cells and its layers (inline or from its file). */
typedef struct level {
    json_t *obj, *own; /* own: the .ldtkl document, when loaded */
    json_t *layers;
    const char *name;
    int64_t x, y;      /* px */
    int64_t pw, ph;    /* px */
} level;

static json_t *layer_def(ldtk *d, int64_t uid)
{
    for (size_t i = 0; i < json_array_size(d->defs); i++) {
        json_t *l = json_array_get(d->defs, i);
        json_t *u = json_object_get(l, "uid");
        if (json_is_integer(u) && json_integer_value(u) == uid)
            return l;
    }
    return NULL;
}

/* The code of value v of an IntGrid layer: the legend's "LAYER:V" or "V",
 * the value's identifier, else the unnamed code (-1: names nothing). */
static int value_code(ldtk *d, const char *layer, json_t *def, int64_t v)
{
    char key[NBB_MATCH_KEY_MAX + 32];
    snprintf(key, sizeof key, "%s:%lld", layer, (long long)v);
    int c = nbb_legend_name_code(d->legend, d->ext, NBB_MATCH_VALUE, key);
    if (c < 0) {
        snprintf(key, sizeof key, "%lld", (long long)v);
        for (size_t k = 0; d->ext && k < d->ext->nmatch; k++)
            if (d->ext->match[k].kind == NBB_MATCH_VALUE && strcmp(d->ext->match[k].key, key) == 0)
                c = d->ext->match[k].code;
    }
    json_t *vals = json_object_get(def, "intGridValues");
    for (size_t i = 0; c < 0 && i < json_array_size(vals); i++) {
        json_t *e = json_array_get(vals, i);
        json_t *ev = json_object_get(e, "value"), *id = json_object_get(e, "identifier");
        if (json_is_integer(ev) && json_integer_value(ev) == v && json_is_string(id))
            c = nbb_legend_name_code(d->legend, d->ext, NBB_MATCH_VALUE, json_string_value(id));
    }
    return c;
}

static nb_status load_level(ldtk *d, json_t *obj, size_t i, level *lv)
{
    char w[64];
    const char *rel;
    nb_status st;
    snprintf(w, sizeof w, "levels[%zu]", i);
    memset(lv, 0, sizeof *lv);
    lv->obj = obj;
    if ((st = nbb_json_str(d->file, w, obj, "identifier", 1, &lv->name, d->err)) ||
        (st = nbb_json_int(d->file, w, obj, "worldX", -(1LL << 40), 1LL << 40, 0, &lv->x, d->err)) ||
        (st = nbb_json_int(d->file, w, obj, "worldY", -(1LL << 40), 1LL << 40, 0, &lv->y, d->err)) ||
        (st = nbb_json_int(d->file, w, obj, "pxWid", 1, 1LL << 30, 1, &lv->pw, d->err)) ||
        (st = nbb_json_int(d->file, w, obj, "pxHei", 1, 1LL << 30, 1, &lv->ph, d->err)) ||
        (st = nbb_json_str(d->file, w, obj, "externalRelPath", 0, &rel, d->err)) ||
        (st = nbb_json_array(d->file, w, obj, "layerInstances", 0, &lv->layers, d->err)))
        return st;
    if (!lv->layers && rel) {
        char *p = nbb_path_beside(d->path, rel);
        if (!p)
            return nbi_fail(d->err, NB_ERR_NOMEM, "no memory");
        st = nbb_json_load(p, LDTK_FILE_MAX, &lv->own, d->err);
        if (st == NB_OK) {
            if (!json_is_object(lv->own))
                st = nbb_json_fail(p, "the document", d->err, NB_ERR_FORMAT, "expected a level object");
            else
                st = nbb_json_array(p, "the level", lv->own, "layerInstances", 1, &lv->layers, d->err);
        }
        nbb_free(p);
    }
    return st;
}

/* The cell size of the world: the smallest IntGrid grid size. */
static nb_status cell_size(ldtk *d, level *lv, size_t n, int64_t *cell)
{
    *cell = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < json_array_size(lv[i].layers); k++) {
            json_t *li = json_array_get(lv[i].layers, k);
            const char *type = json_string_value(json_object_get(li, "__type"));
            json_t *gs = json_object_get(li, "__gridSize");
            if (!type || strcmp(type, "IntGrid") != 0)
                continue;
            if (!json_is_integer(gs) || json_integer_value(gs) < 1 || json_integer_value(gs) > 4096)
                return nbi_fail(d->err, NB_ERR_FORMAT,
                                "%s: level '%s', layer %zu: __gridSize must be 1 to 4096", d->file,
                                lv[i].name, k);
            if (!*cell || json_integer_value(gs) < *cell)
                *cell = json_integer_value(gs);
        }
    if (!*cell) {
        json_t *g = json_object_get(d->root, "defaultGridSize");
        *cell = json_is_integer(g) && json_integer_value(g) >= 1 && json_integer_value(g) <= 4096
                    ? json_integer_value(g) : 16;
    }
    return NB_OK;
}

/* One IntGrid layer instance into the level's codes (lw x lh cells of
 * cell px); named: the cells a named terrain has set. */
static nb_status int_grid(ldtk *d, const level *lv, json_t *li, size_t k, int64_t cell,
                          uint32_t lw, uint32_t lh, int *code, uint8_t *named)
{
    char w[200];
    const char *name;
    int64_t cw = 0, ch = 0, gs = 0, uid = 0;
    json_t *csv;
    nb_status st;
    snprintf(w, sizeof w, "level '%s', layerInstances[%zu]", lv->name, k);
    if ((st = nbb_json_str(d->file, w, li, "__identifier", 1, &name, d->err)))
        return st;
    snprintf(w, sizeof w, "level '%s', layer '%s'", lv->name, name);
    if ((st = nbb_json_int(d->file, w, li, "__cWid", 0, NB_MAP_MAX_SIDE, 1, &cw, d->err)) ||
        (st = nbb_json_int(d->file, w, li, "__cHei", 0, NB_MAP_MAX_SIDE, 1, &ch, d->err)) ||
        (st = nbb_json_int(d->file, w, li, "__gridSize", 1, 4096, 1, &gs, d->err)) ||
        (st = nbb_json_int(d->file, w, li, "layerDefUid", INT32_MIN, INT32_MAX, 0, &uid, d->err)) ||
        (st = nbb_json_array(d->file, w, li, "intGridCsv", 1, &csv, d->err)))
        return st;
    if (gs % cell)
        return nbb_json_fail(d->file, w, d->err, NB_ERR_UNSUPPORTED,
                             "a grid of %lld px, not a multiple of the level's cells of %lld px",
                             (long long)gs, (long long)cell);
    if (json_array_size(csv) != (size_t)(cw * ch))
        return nbb_json_fail(d->file, w, d->err, NB_ERR_FORMAT,
                             "intGridCsv holds %zu values, the layer has %lld x %lld cells",
                             json_array_size(csv), (long long)cw, (long long)ch);
    json_t *def = layer_def(d, uid);
    int64_t f = gs / cell;
    /* Each value named once: a look-up per distinct value, however many
     * (the layer's values are numbers in the file, not bounded by it). */
    nbi_u32map seen;
    nbi_u32map_init(&seen, nbb_mem());
    st = NB_OK;
    for (size_t i = 0; st == NB_OK && i < json_array_size(csv); i++) {
        json_t *e = json_array_get(csv, i);
        if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > INT32_MAX) {
            st = nbb_json_fail(d->file, w, d->err, NB_ERR_FORMAT,
                               "intGridCsv[%zu] is not a value (a whole number from 0)", i);
            break;
        }
        int64_t v = json_integer_value(e);
        if (v == 0)
            continue;
        int found;
        uint32_t *slot = nbi_u32map_slot(&seen, (uint32_t)v, &found);
        if (!slot) {
            st = nbi_fail(d->err, NB_ERR_NOMEM, "%s: %s: no memory for its values", d->file, w);
            break;
        }
        if (!found) {
            int named_c = value_code(d, name, def, v);
            *slot = (uint32_t)(named_c >= 0 ? named_c : d->unnamed >= 0 ? d->unnamed : OBST);
        }
        int c = (int)*slot;
        int64_t x0 = (int64_t)(i % (size_t)cw) * f, y0 = (int64_t)(i / (size_t)cw) * f;
        for (int64_t y = y0; y < y0 + f && y < lh; y++)
            for (int64_t x = x0; x < x0 + f && x < lw; x++) {
                size_t at = (size_t)y * lw + (size_t)x;
                /* Layers are listed top first: the first terrain is the top one. */
                if (c == OBST)
                    code[at] = OBST, named[at] = 1;
                else if (!named[at])
                    code[at] = c, named[at] = 1;
            }
    }
    nbi_u32map_free(&seen);
    return st;
}

static nb_status place_level(ldtk *d, const level *lv, int64_t cell, int64_t ox, int64_t oy,
                             uint32_t w, int *world)
{
    uint32_t lw = (uint32_t)((lv->pw + cell - 1) / cell), lh = (uint32_t)((lv->ph + cell - 1) / cell);
    int *code = nbb_malloc((size_t)lw * lh * sizeof *code);
    uint8_t *named = nbb_calloc((size_t)lw * lh, 1);
    nb_status st = code && named ? NB_OK : nbi_fail(d->err, NB_ERR_NOMEM, "no memory");
    for (size_t i = 0; st == NB_OK && i < (size_t)lw * lh; i++)
        code[i] = d->empty;
    for (size_t k = 0; st == NB_OK && k < json_array_size(lv->layers); k++) {
        json_t *li = json_array_get(lv->layers, k);
        const char *type = json_string_value(json_object_get(li, "__type"));
        if (!json_is_object(li))
            st = nbi_fail(d->err, NB_ERR_FORMAT, "%s: level '%s', layerInstances[%zu]: expected an object",
                          d->file, lv->name, k);
        else if (type && strcmp(type, "IntGrid") == 0)
            st = int_grid(d, lv, li, k, cell, lw, lh, code, named);
    }
    for (uint32_t y = 0; st == NB_OK && y < lh; y++)
        for (uint32_t x = 0; x < lw; x++)
            world[(size_t)(lv->y / cell - oy + y) * w + (size_t)(lv->x / cell - ox + x)] =
                code[(size_t)y * lw + x];
    nbb_free(code);
    nbb_free(named);
    return st;
}

static nb_status read_project(ldtk *d, const char *only, nbi_legend *legend, nbb_grid *grid)
{
    nb_status st;
    json_t *list, *defs, *worlds;
    const char *layout;
    if (!json_is_object(d->root))
        return nbb_json_fail(d->file, "the document", d->err, NB_ERR_FORMAT, "expected a project object");
    defs = json_object_get(d->root, "defs");
    if ((st = nbb_json_array(d->file, "the project", d->root, "levels", 1, &list, d->err)) ||
        (st = nbb_json_array(d->file, "the project", d->root, "worlds", 0, &worlds, d->err)) ||
        (st = nbb_json_str(d->file, "the project", d->root, "worldLayout", 0, &layout, d->err)))
        return st;
    if (!json_is_object(defs) ||
        (st = nbb_json_array(d->file, "defs", defs, "layers", 1, &d->defs, d->err)))
        return st ? st : nbb_json_fail(d->file, "the project", d->err, NB_ERR_FORMAT, "no \"defs\" object");
    /* Projects of several worlds keep their levels there. */
    if (!json_array_size(list) && json_array_size(worlds)) {
        json_t *w0 = json_array_get(worlds, 0);
        if ((st = nbb_json_array(d->file, "worlds[0]", w0, "levels", 1, &list, d->err)) ||
            (st = nbb_json_str(d->file, "worlds[0]", w0, "worldLayout", 0, &layout, d->err)))
            return st;
        if (json_array_size(worlds) > 1 && !only)
            return nbb_json_fail(d->file, "the project", d->err, NB_ERR_UNSUPPORTED,
                                 "%zu worlds: name a level (FILE.ldtk#LEVEL)", json_array_size(worlds));
    }
    size_t n = json_array_size(list);
    level *lv = nbb_calloc(n ? n : 1, sizeof *lv);
    if (!lv)
        return nbi_fail(d->err, NB_ERR_NOMEM, "no memory");
    size_t used = 0;
    int64_t lx = 0, ly = 0;
    for (size_t i = 0; st == NB_OK && i < n; i++) {
        json_t *o;
        const char *id;
        char w[64];
        snprintf(w, sizeof w, "levels[%zu]", i);
        if ((st = nbb_json_object_at(d->file, w, list, i, &o, d->err)) ||
            (st = nbb_json_str(d->file, w, o, "identifier", 1, &id, d->err)))
            break;
        if (only && strcmp(id, only) != 0)
            continue;
        if ((st = load_level(d, o, i, &lv[used])) != NB_OK)
            break;
        level *l = &lv[used++];
        if (only)
            l->x = l->y = 0;
        else if (layout && strcmp(layout, "LinearHorizontal") == 0)
            l->x = lx, l->y = 0, lx += l->pw;
        else if (layout && strcmp(layout, "LinearVertical") == 0)
            l->x = 0, l->y = ly, ly += l->ph;
    }
    if (st == NB_OK && !used)
        st = only ? nbi_fail(d->err, NB_ERR_NOTFOUND, "%s: no level '%s'", d->file, only)
                  : nbi_fail(d->err, NB_ERR_FORMAT, "%s: a project with no level", d->file);
    int64_t cell = 0, x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    if (st == NB_OK)
        st = cell_size(d, lv, used, &cell);
    for (size_t i = 0; st == NB_OK && i < used; i++) {
        if (lv[i].x % cell || lv[i].y % cell)
            st = nbi_fail(d->err, NB_ERR_UNSUPPORTED,
                          "%s: level '%s' is at (%lld, %lld) px, not on the world's cells of %lld px",
                          d->file, lv[i].name, (long long)lv[i].x, (long long)lv[i].y, (long long)cell);
        int64_t ax = lv[i].x / cell, ay = lv[i].y / cell;
        int64_t bx = ax + (lv[i].pw + cell - 1) / cell, by = ay + (lv[i].ph + cell - 1) / cell;
        if (i == 0 || ax < x0)
            x0 = ax;
        if (i == 0 || ay < y0)
            y0 = ay;
        if (i == 0 || bx > x1)
            x1 = bx;
        if (i == 0 || by > y1)
            y1 = by;
    }
    if (st == NB_OK && (x1 - x0 > NB_MAP_MAX_SIDE || y1 - y0 > NB_MAP_MAX_SIDE))
        st = nbi_fail(d->err, NB_ERR_LIMIT, "%s: a world of %lld x %lld cells is beyond the limit of %d",
                      d->file, (long long)(x1 - x0), (long long)(y1 - y0), NB_MAP_MAX_SIDE);
    uint32_t w = (uint32_t)(x1 - x0), h = (uint32_t)(y1 - y0);
    int *world = st == NB_OK ? nbb_malloc((size_t)w * h * sizeof *world) : NULL;
    uint8_t *chars = st == NB_OK ? nbb_malloc((size_t)w * h) : NULL;
    if (st == NB_OK && (!world || !chars))
        st = nbi_fail(d->err, NB_ERR_NOMEM, "%s: no memory for %u x %u cells", d->file, w, h);
    for (size_t i = 0; st == NB_OK && i < (size_t)w * h; i++)
        world[i] = NO_CELL;
    for (size_t i = 0; st == NB_OK && i < used; i++)
        st = place_level(d, &lv[i], cell, x0, y0, w, world);
    for (size_t i = 0; st == NB_OK && i < (size_t)w * h; i++)
        st = nbb_legend_cell_char(legend, world[i] == NO_CELL ? OBST : world[i], &chars[i], d->err);
    for (size_t i = 0; i < used; i++)
        json_decref(lv[i].own);
    nbb_free(lv);
    nbb_free(world);
    if (st != NB_OK) {
        nbb_free(chars);
        return st;
    }
    grid->width = w, grid->height = h, grid->cells = chars;
    return NB_OK;
}

nb_status nbb_ldtk_read(const char *path, nbi_legend *legend, const nbb_legend_ext *ext,
                        nbb_grid *grid, nb_err *err)
{
    memset(grid, 0, sizeof *grid);
    /* "FILE.ldtk#LEVEL": one level of the project. */
    char *file = nbb_strndup(path, strlen(path));
    if (!file)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    char *hash = strstr(file, ".ldtk#");
    const char *only = NULL;
    if (hash) {
        hash[5] = '\0';
        only = hash + 6;
    }
    ldtk d = {file, nbb_input_name(file), NULL, NULL, legend, ext,
              ext && ext->unnamed >= 0 ? ext->unnamed : -1, ext && ext->empty >= 0 ? ext->empty : 0,
              err};
    nb_status st = nbb_json_load(file, LDTK_FILE_MAX, &d.root, err);
    if (st == NB_OK)
        st = read_project(&d, only, legend, grid);
    json_decref(d.root);
    nbb_free(file);
    return st;
}
