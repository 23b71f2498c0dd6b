/* level.c: a level as the level-baking tools read it (a map, its terrain
 * legend and agent set), and what they ask of the level a bundle holds. */
#include <stdio.h>
#include <stdlib.h>

#include "levels.h"

nb_status nbb_read_level(const char *legend_path, const char *agents_path, const char *map_path,
                         unsigned threads, nbi_legend *legend, nbi_agentset *agents, nbb_grid *grid,
                         nb_err *err)
{
    /* The legend's names for editors' things, which the level's reader uses. */
    nbb_legend_ext ext;
    memset(&ext, 0, sizeof ext);
    ext.empty = ext.unnamed = -1;
    ext.max_step = UINT32_MAX;
    nb_status st = legend_path ? nbb_legend_read_ext(legend_path, legend, &ext, err)
                               : (nbi_legend_default(legend), NB_OK);
    if (st == NB_OK && agents)
        st = agents_path ? nbb_agents_read(agents_path, legend, agents, err)
                         : nbb_agents_default(legend, agents, err);
    ext.agents = agents; /* a heightmap's step limits per agent */
    if (st == NB_OK && map_path)
        st = nbb_level_file_read(map_path, legend, &ext, threads, grid, err);
    nbb_legend_ext_free(&ext);
    return st;
}

nb_status nbb_level_read(const char *legend_path, const char *agents_path, const char *map_path,
                         unsigned threads, nbb_level **out, nb_err *err)
{
    *out = NULL;
    nbb_level *l = nbb_calloc(1, sizeof *l);
    if (!l)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a level");
    nb_status st = nbb_read_level(legend_path, agents_path, map_path, threads, &l->legend,
                                  &l->agents, &l->grid, err);
    if (st != NB_OK) {
        nbb_level_free(l);
        return st;
    }
    *out = l;
    nbi_ok(err);
    return NB_OK;
}

nb_status nbb_level_map_text(const nbb_level *l, char **text, size_t *len, nb_err *err)
{
    const nbb_grid *g = &l->grid;
    size_t n = 64 + ((size_t)g->width + 1) * g->height;
    char *t = nbb_malloc(n);
    if (!t)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a %u x %u map", g->width, g->height);
    size_t at = (size_t)snprintf(t, 64, "type octile\nheight %u\nwidth %u\nmap\n", g->height, g->width);
    for (uint32_t y = 0; y < g->height; y++) {
        memcpy(t + at, g->cells + (size_t)y * g->width, g->width);
        at += g->width;
        t[at++] = '\n';
    }
    *text = t;
    *len = at;
    nbi_ok(err);
    return NB_OK;
}

nb_status nbb_level_read_map(const char *legend_path, const char *map_path, nbb_level **out,
                             nb_err *err)
{
    *out = NULL;
    nbb_level *l = nbb_calloc(1, sizeof *l);
    if (!l)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a level");
    nb_status st = nbb_read_level(legend_path, NULL, map_path, 1, &l->legend, NULL, &l->grid, err);
    if (st != NB_OK) {
        nbb_level_free(l);
        return st;
    }
    *out = l;
    nbi_ok(err);
    return NB_OK;
}

uint64_t nbb_level_cells(const nbb_level *l) { return (uint64_t)l->grid.width * l->grid.height; }

void nbb_level_free(nbb_level *l)
{
    if (!l)
        return;
    nbb_grid_free(&l->grid);
    nbb_free(l);
}

/* buf, holding the message. */
static const char *say(char *buf, size_t len, const char *fmt, ...) NBP_PRINTF(3, 4);
static const char *say(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    return buf;
}

/* 1 when two encodings are the same bytes. */
static int same_encoding(size_t la, size_t lb, const uint8_t *a, const uint8_t *b)
{
    return la == lb && memcmp(a, b, la) == 0;
}

/* 1 when the bundle's map holds the grid's characters (the same size). */
static int same_cells(const nb_bundle *old, const nbb_grid *grid)
{
    uint8_t row[NB_MAP_MAX_SIDE];
    for (uint32_t y = 0; y < grid->height; y++) {
        nbi_map_chars(&old->map, (size_t)y * grid->width, grid->width, row);
        if (memcmp(row, grid->cells + (size_t)y * grid->width, grid->width) != 0)
            return 0;
    }
    return 1;
}

nbb_level_change nbb_level_compare(const nbb_level *l, const nb_bundle *old, char *buf,
                                   size_t len)
{
    const nbb_grid *grid = &l->grid;
    if (!old->has_map)
        return say(buf, len, "no map"), NBB_LEVEL_OTHER;
    if (old->width != grid->width || old->height != grid->height)
        return say(buf, len, "a %u x %u map, not this %u x %u one", old->width, old->height,
                   grid->width, grid->height),
               NBB_LEVEL_OTHER;
    uint8_t a[NBI_LEGEND_HEADER + NBI_LEGEND_NAME * NB_MAX_TERRAINS + NBI_LEGEND_CODES];
    uint8_t b[sizeof a];
    if (old->has_legend) {
        nbi_legend_encode(&old->legend, a);
        nbi_legend_encode(&l->legend, b);
    }
    if (!old->has_legend ||
        !same_encoding(nbi_legend_encoded_size(&old->legend), nbi_legend_encoded_size(&l->legend),
                       a, b))
        return say(buf, len, "%s with a different terrain legend",
                   !same_cells(old, grid)
                       ? "a map of the same size"
                       : "the same map"),
               NBB_LEVEL_OTHER;
    int same = 0;
    if (old->agents) {
        unsigned nt = l->legend.nterrains;
        size_t na = nbi_agents_encoded_size(old->agents, nt), nb = nbi_agents_encoded_size(&l->agents, nt);
        uint8_t *x = nbb_malloc(na ? na : 1), *y = nbb_malloc(nb ? nb : 1);
        if (x && y) {
            nbi_agents_encode(old->agents, nt, x);
            nbi_agents_encode(&l->agents, nt, y);
            same = same_encoding(na, nb, x, y);
        }
        nbb_free(x);
        nbb_free(y);
    }
    if (!same)
        return say(buf, len, "%s with a different agent set",
                   !same_cells(old, grid)
                       ? "a map of the same size"
                       : "the same map"),
               NBB_LEVEL_OTHER;
    if (!same_cells(old, grid))
        return say(buf, len, "a different map of the same size"), NBB_LEVEL_CELLS;
    return say(buf, len, "this level"), NBB_LEVEL_SAME;
}

const char *nbb_level_differs(const nbb_level *l, const nb_bundle *old, char *buf, size_t len)
{
    return nbb_level_compare(l, old, buf, len) == NBB_LEVEL_SAME ? NULL : buf;
}

nb_status nbb_level_put(nbb_builder *b, const nbb_level *l, int compress, nb_err *err)
{
    return nbb_put_level(b, &l->legend, &l->agents, &l->grid, compress, err);
}

nb_status nbb_print_legend(const nb_bundle *b, FILE *file, nb_err *err)
{
    if (!b->has_legend)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no legend section", b->path);
    nbb_legend_print(&b->legend, file);
    nbi_ok(err);
    return NB_OK;
}

nb_status nbb_print_agents(const nb_bundle *b, FILE *file, nb_err *err)
{
    if (!b->agents)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no agents section", b->path);
    nbb_agents_print(b->agents, &b->legend, file);
    nbi_ok(err);
    return NB_OK;
}

nb_status nbb_default_agent(const nb_bundle *b, nb_agent *out, nb_err *err)
{
    nbi_agentset def;
    if (!b->has_legend)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no legend to name the default agent's terrains",
                        b->path);
    nb_status st = nbb_agents_default(&b->legend, &def, err);
    if (st == NB_OK)
        *out = def.agent[0];
    return st;
}
