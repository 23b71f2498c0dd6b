/* bake_handle.c: the bake library's handle (navbake_bake.h): the level it
 * holds, set from memory or read from files, its allocator and the ABI
 * guard. */
#include <stdlib.h>
#include <string.h>

#include "api/bake_api.h"
#include "input/levels.h"

#define NAME_(t) #t,
static const char *const names[] = {NB_BAKE_ABI_STRUCTS(NAME_)};
#undef NAME_
#define SIZE_(t) (uint32_t) sizeof(t),
static const uint32_t sizes[] = {NB_BAKE_ABI_STRUCTS(SIZE_)};
#undef SIZE_
#define NSTRUCTS (sizeof sizes / sizeof sizes[0])

uint32_t nb_bake_abi_size(unsigned i) { return i < NSTRUCTS ? sizes[i] : 0; }

const char *nb_bake_abi_name(unsigned i) { return i < NSTRUCTS ? names[i] : NULL; }

nb_status nb_bake_abi_check(const nb_abi *abi, nb_err *err)
{
    nb_status st = nbi_abi_check_list(abi, "navbake_bake.h", names, sizes, NSTRUCTS, err);
    if (st == NB_OK)
        nbi_ok(err);
    return st;
}

/* Both headers' guards: navbake.h's (nb_err, nb_allocator) and this one's. */
static nb_status abi_both(const nb_abi *abi, const nb_abi *bake_abi, nb_err *err)
{
    nb_status st = nb_abi_check(abi, err);
    return st == NB_OK ? nb_bake_abi_check(bake_abi, err) : st;
}

nb_status nb_bake_options_init_abi(nb_bake_options *o, const nb_abi *abi, const nb_abi *bake_abi)
{
    if (!o || abi_both(abi, bake_abi, NULL) != NB_OK)
        return o ? NB_ERR_VERSION : NB_ERR_ARG;
    memset(o, 0, sizeof *o);
    o->flags = NB_BAKE_ABSTRACT;
    o->cluster = 10;
    o->landmarks = NBB_LEVEL_LANDMARKS;
    o->threads = 1;
    o->quality = NB_BAKE_QUALITY_HIGH;
    o->placement = NB_BAKE_PLACE_AUTO;
    return NB_OK;
}

/* The C library's allocator, for a handle opened without one: these are
 * what nbb_malloc and the rest call in its bakes. */
static void *c_alloc(void *opaque, size_t size)
{
    (void)opaque;
    return malloc(size ? size : 1);
}

static void *c_realloc(void *opaque, void *p, size_t size)
{
    (void)opaque;
    return realloc(p, size ? size : 1);
}

static void c_free(void *opaque, void *p)
{
    (void)opaque;
    free(p);
}

void *nbb_bake_alloc(const nb_bake *bake, size_t size)
{
    return bake->alloc.alloc(bake->alloc.opaque, size);
}

void nbb_bake_dealloc(const nb_bake *bake, void *p)
{
    if (p)
        bake->alloc.free(bake->alloc.opaque, p);
}

nb_status nb_bake_open_abi(const nb_allocator *alloc, nb_bake **out, nb_err *err,
                           const nb_abi *abi, const nb_abi *bake_abi)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_open: no place for the handle (out is NULL)");
    *out = NULL;
    nb_status st = abi_both(abi, bake_abi, err);
    if (st != NB_OK)
        return st;
    if (alloc && (!alloc->alloc || !alloc->realloc || !alloc->free))
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_open: the allocator lacks a function");
    nb_allocator a = {c_alloc, c_realloc, c_free, NULL};
    if (alloc)
        a = *alloc;
    nb_bake *b = a.alloc(a.opaque, sizeof *b);
    if (!b)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a bake handle");
    memset(b, 0, sizeof *b);
    b->alloc = a;
    nbi_legend_default(&b->level.legend);
    const nb_allocator *prev = nbb_mem_enter(&b->alloc);
    st = nbb_agents_default(&b->level.legend, &b->level.agents, err);
    nbb_mem_leave(prev);
    if (st != NB_OK) {
        nbb_bake_dealloc(b, b);
        return st;
    }
    *out = b;
    nbi_ok(err);
    return NB_OK;
}

void nb_bake_close(nb_bake *b)
{
    if (!b)
        return;
    const nb_allocator *prev = nbb_mem_enter(&b->alloc);
    nbb_grid_free(&b->level.grid);
    nbb_mem_leave(prev);
    nbb_bake_dealloc(b, b);
}

const nbb_level *nbb_bake_level(const nb_bake *b)
{
    return b && b->level.grid.cells ? &b->level : NULL;
}

#define NEED_HANDLE(b, fn)                                                              \
    do {                                                                                 \
        if (!(b))                                                                        \
            return nbi_fail(err, NB_ERR_ARG, "%s: no bake handle (NULL)", fn);           \
    } while (0)

/* An agent set is some 80 KB: made on the heap, not on a game thread's
 * small stack. */
static nbi_agentset *new_agents(nb_err *err)
{
    nbi_agentset *a = nbb_malloc(sizeof *a);
    if (!a)
        nbi_fail(err, NB_ERR_NOMEM, "no memory for an agent set");
    return a;
}

static nb_status nb_bake_set_legend_in(nb_bake *b, const char *yaml, size_t len, const char *name,
                             nb_err *err)
{
    NEED_HANDLE(b, "nb_bake_set_legend");
    nbi_legend legend;
    nb_status st = yaml ? nbb_legend_parse(yaml, len, name ? name : "legend", &legend, err)
                        : (nbi_legend_default(&legend), NB_OK);
    if (st != NB_OK)
        return st;
    nbi_agentset *agents = new_agents(err);
    if (!agents)
        return NB_ERR_NOMEM;
    /* The default agent set needs ground and swamp: a legend without them
     * leaves none, until nb_bake_set_agents gives one. */
    if (nbb_agents_default(&legend, agents, NULL) != NB_OK)
        agents->count = 0;
    b->level.legend = legend;
    memcpy(&b->level.agents, agents, sizeof *agents);
    nbb_free(agents);
    nbb_grid_free(&b->level.grid);
    nbi_ok(err);
    return NB_OK;
}

static nb_status nb_bake_set_agents_in(nb_bake *b, const char *yaml, size_t len, const char *name,
                             nb_err *err)
{
    NEED_HANDLE(b, "nb_bake_set_agents");
    nbi_agentset *agents = new_agents(err);
    if (!agents)
        return NB_ERR_NOMEM;
    nb_status st = yaml ? nbb_agents_parse(yaml, len, name ? name : "agents", &b->level.legend,
                                           agents, err)
                        : nbb_agents_default(&b->level.legend, agents, err);
    if (st == NB_OK) {
        memcpy(&b->level.agents, agents, sizeof *agents);
        nbi_ok(err);
    }
    nbb_free(agents);
    return st;
}

static nb_status nb_bake_set_grid_in(nb_bake *b, uint32_t width, uint32_t height, const uint8_t *terrain,
                           nb_err *err)
{
    NEED_HANDLE(b, "nb_bake_set_grid");
    if (!terrain)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_set_grid: no cells (terrain is NULL)");
    if (width == 0 || height == 0 || width > NB_MAP_MAX_SIDE || height > NB_MAP_MAX_SIDE)
        return nbi_fail(err, width && height ? NB_ERR_LIMIT : NB_ERR_ARG,
                        "nb_bake_set_grid: a grid of %u x %u cells: each side must be 1 to %u",
                        width, height, (unsigned)NB_MAP_MAX_SIDE);
    nbi_legend *legend = &b->level.legend;
    /* Each id's map character, the obstacle's claimed only when used. */
    uint8_t chars[256];
    int have[256] = {0};
    size_t n = (size_t)width * height;
    uint8_t *cells = nbb_malloc(n);
    if (!cells)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a grid of %u x %u cells", width,
                        height);
    for (size_t i = 0; i < n; i++) {
        uint8_t id = terrain[i];
        if (!have[id]) {
            nb_status st = NB_OK;
            if (id != NB_BAKE_OBSTACLE && id >= legend->nterrains)
                st = nbi_fail(err, NB_ERR_ARG,
                              "nb_bake_set_grid: cell (%zu, %zu) has terrain id %u; the legend "
                              "has %u terrains (0 to %u) and NB_BAKE_OBSTACLE (%u)",
                              i % width, i / width, id, legend->nterrains,
                              legend->nterrains - 1, NB_BAKE_OBSTACLE);
            else if (id != NB_BAKE_OBSTACLE && !legend->chars[id][0])
                st = nbi_fail(err, NB_ERR_ARG,
                              "nb_bake_set_grid: cell (%zu, %zu) is terrain '%s', which has no "
                              "map character in the legend",
                              i % width, i / width, legend->names[id]);
            else
                st = nbb_legend_cell_char(legend, id == NB_BAKE_OBSTACLE ? NBI_CELL_OBSTACLE : id,
                                          &chars[id], err);
            if (st != NB_OK) {
                nbb_free(cells);
                return st;
            }
            have[id] = 1;
        }
        cells[i] = chars[id];
    }
    nbb_grid_free(&b->level.grid);
    b->level.grid.width = width;
    b->level.grid.height = height;
    b->level.grid.cells = cells;
    nbi_ok(err);
    return NB_OK;
}

static nb_status nb_bake_set_map_in(nb_bake *b, const char *text, size_t len, const char *name, nb_err *err)
{
    NEED_HANDLE(b, "nb_bake_set_map");
    if (!text)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_set_map: no text (NULL)");
    nbb_grid grid;
    nb_status st = nbb_map_parse(text, len, name ? name : "map", &b->level.legend, 1, &grid, err);
    if (st != NB_OK)
        return st;
    nbb_grid_free(&b->level.grid);
    b->level.grid = grid;
    nbi_ok(err);
    return NB_OK;
}

static nb_status nbb_bake_read_in(nb_bake *b, const char *legend_path, const char *agents_path,
                        const char *level_path, unsigned threads, nb_err *err)
{
    NEED_HANDLE(b, "nb_bake_read_level");
    if (!level_path)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_read_level: no level file (NULL)");
    nbb_level *l = nbb_calloc(1, sizeof *l);
    if (!l)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a level");
    nb_status st = nbb_read_level(legend_path, agents_path, level_path, threads, &l->legend,
                                  &l->agents, &l->grid, err);
    if (st == NB_OK) {
        nbb_grid_free(&b->level.grid);
        memcpy(&b->level, l, sizeof *l);
        nbi_ok(err);
    } else
        nbb_grid_free(&l->grid);
    nbb_free(l);
    return st;
}

/* The calls below run with the handle's allocator as the bake side's
 * (mem.c), so everything they make is the caller's. */
#define IN_SCOPE(b, call)                                                       \
    do {                                                                         \
        if (!(b))                                                                \
            return call;                                                         \
        const nb_allocator *prev_ = nbb_mem_enter(&(b)->alloc);                  \
        nb_status st_ = call;                                                    \
        nbb_mem_leave(prev_);                                                    \
        return st_;                                                              \
    } while (0)

nb_status nb_bake_set_legend(nb_bake *b, const char *yaml, size_t len, const char *name,
                             nb_err *err)
{
    IN_SCOPE(b, nb_bake_set_legend_in(b, yaml, len, name, err));
}

nb_status nb_bake_set_agents(nb_bake *b, const char *yaml, size_t len, const char *name,
                             nb_err *err)
{
    IN_SCOPE(b, nb_bake_set_agents_in(b, yaml, len, name, err));
}

nb_status nb_bake_set_grid(nb_bake *b, uint32_t width, uint32_t height, const uint8_t *terrain,
                           nb_err *err)
{
    IN_SCOPE(b, nb_bake_set_grid_in(b, width, height, terrain, err));
}

nb_status nb_bake_set_map(nb_bake *b, const char *text, size_t len, const char *name, nb_err *err)
{
    IN_SCOPE(b, nb_bake_set_map_in(b, text, len, name, err));
}

nb_status nbb_bake_read(nb_bake *b, const char *legend_path, const char *agents_path,
                        const char *level_path, unsigned threads, nb_err *err)
{
    IN_SCOPE(b, nbb_bake_read_in(b, legend_path, agents_path, level_path, threads, err));
}

nb_status nb_bake_read_level(nb_bake *b, const char *legend_path, const char *agents_path,
                             const char *level_path, nb_err *err)
{
    return nbb_bake_read(b, legend_path, agents_path, level_path, 1, err);
}

unsigned nb_bake_terrain_count(const nb_bake *b) { return b ? b->level.legend.nterrains : 0; }

nb_status nb_bake_terrain_lookup(const nb_bake *b, const char *name, unsigned *id, nb_err *err)
{
    NEED_HANDLE(b, "nb_bake_terrain_lookup");
    if (!name || !id)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_terrain_lookup: name or id is NULL");
    const nbi_legend *l = &b->level.legend;
    char there[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1] = "";
    for (unsigned t = 0; t < l->nterrains; t++) {
        if (strcmp(l->names[t], name) == 0) {
            *id = t;
            nbi_ok(err);
            return NB_OK;
        }
        strcat(there, t ? ", " : "");
        strcat(there, l->names[t]);
    }
    return nbi_fail(err, NB_ERR_NOTFOUND, "no terrain '%s' in the legend (it has %s)", name,
                    there);
}
