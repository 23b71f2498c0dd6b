/* placeutil.c: see placeutil.h. */
#include <stdio.h>
#include <stdlib.h>

#include "placeutil.h"

void pu_random_grid(tu_rng *r, uint32_t w, uint32_t h, nbb_grid *g)
{
    static const char fill[] = "SSWWTT@@@.";
    g->width = w;
    g->height = h;
    g->cells = malloc((size_t)w * h);
    memset(g->cells, '.', (size_t)w * h);
    unsigned rects = 1 + w * h / 60;
    for (unsigned k = 0; k < rects; k++) {
        uint32_t rw = 1 + tu_below(r, 10), rh = 1 + tu_below(r, 10);
        uint32_t x0 = tu_below(r, w), y0 = tu_below(r, h);
        char c = fill[tu_below(r, sizeof fill - 1)];
        for (uint32_t y = y0; y < y0 + rh && y < h; y++)
            for (uint32_t x = x0; x < x0 + rw && x < w; x++)
                g->cells[(size_t)y * w + x] = (uint8_t)c;
    }
    for (size_t i = 0; i < (size_t)w * h; i++)
        if (tu_below(r, 100) < 3)
            g->cells[i] = '@';
}

static const nb_capability caps[3] = {1, 3, 13}; /* ground; +swamp; +water+trees */

int pu_level_open(pu_level *L, nbb_grid *g, const char *name)
{
    memset(L, 0, sizeof *L);
    snprintf(L->name, sizeof L->name, "%s", name);
    L->grid = *g;
    g->cells = NULL;
    nbi_legend_default(&L->legend);
    for (unsigned c = 0; c < 3; c++)
        for (unsigned s = 1; s <= 3; s++) {
            nb_agent *a = &L->agents.agent[L->agents.count++];
            snprintf(a->name, sizeof a->name, "c%us%u", c, s);
            a->size = s;
            a->capability = caps[c];
        }
    nb_err err;
    static unsigned serial;
    char file[64];
    snprintf(file, sizeof file, "place%u.nbk", serial++);
    const char *path = tu_path(tu_tmpdir(), file);
    nb_status st = tu_write_cleared(path, &L->legend, &L->agents, &L->grid, serial % 2, &err);
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, &L->b, &err);
    if (!ok(st == NB_OK, "%s: %u x %u, baked and opened", name, L->grid.width, L->grid.height)) {
        diag("%s", err.msg);
        return 0;
    }
    size_t n = (size_t)L->grid.width * L->grid.height;
    int good = 1;
    for (unsigned c = 0; c < 3; c++)
        for (unsigned s = 1; s <= 3; s++) {
            pu_pair *P = &L->pair[L->npairs++];
            P->cap = caps[c];
            P->size = s;
            P->stand = malloc(n);
            P->pass = malloc(n);
            P->strict = malloc(n * sizeof *P->strict);
            P->weak = malloc(n * sizeof *P->weak);
            for (size_t i = 0; i < n; i++) {
                long x = (long)(i % L->grid.width), y = (long)(i / L->grid.width);
                P->stand[i] = (uint8_t)brute_can_stand(&L->legend, &L->grid, P->cap, s, x, y);
                P->pass[i] = (uint8_t)brute_passable(&L->legend, &L->grid, P->cap, x, y);
            }
            uint32_t k = brute_components(&L->legend, &L->grid, P->cap, s, BRUTE_STRICT, P->strict);
            brute_components(&L->legend, &L->grid, P->cap, s, BRUTE_WEAK, P->weak);
            P->ncomp = k;
            P->rank = calloc((size_t)k + 1, sizeof *P->rank);
            uint32_t next = 0;
            for (size_t i = 0; i < n; i++)
                if (P->strict[i] && !P->rank[P->strict[i]])
                    P->rank[P->strict[i]] = ++next;
            if (tu_place_open(L->b, P->cap, s, &P->place, &err) != NB_OK) {
                diag("%s: cap %u size %u: %s", name, P->cap, s, err.msg);
                good = 0;
            }
        }
    return ok(good, "%s: a place for each of the %zu (capability, size) pairs", name, L->npairs);
}

int pu_level_chars(pu_level *L, uint32_t w, uint32_t h, const char *cells, const char *name)
{
    nbb_grid g = {w, h, malloc((size_t)w * h)};
    memcpy(g.cells, cells, (size_t)w * h);
    return pu_level_open(L, &g, name);
}

int pu_level_read(pu_level *L, const char *map, const char *name)
{
    nbi_legend legend;
    nbb_grid g;
    nb_err err;
    nbi_legend_default(&legend);
    if (!ok(nbb_map_read(map, &legend, 1, &g, &err) == NB_OK, "%s read", name)) {
        diag("%s", err.msg);
        memset(L, 0, sizeof *L);
        return 0;
    }
    return pu_level_open(L, &g, name);
}

void pu_level_close(pu_level *L)
{
    for (size_t k = 0; k < L->npairs; k++) {
        pu_pair *P = &L->pair[k];
        nb_place_close(P->place);
        free(P->stand);
        free(P->pass);
        free(P->strict);
        free(P->weak);
        free(P->rank);
    }
    nb_bundle_close(L->b);
    free(L->grid.cells);
    memset(L, 0, sizeof *L);
}

int pu_passable(const void *ctx, long x, long y)
{
    const pu_ctx *c = ctx;
    const nbb_grid *g = &c->L->grid;
    if (x < 0 || y < 0 || x >= (long)g->width || y >= (long)g->height)
        return 0;
    return c->P->pass[(size_t)y * g->width + (size_t)x];
}

unsigned long pu_queries(void)
{
    const char *e = getenv("NB_PLACE_QUERIES");
    unsigned long n = e ? strtoul(e, NULL, 10) : 0;
    return n ? n : 10000;
}

void pu_each_level(void (*check)(pu_level *L, tu_rng *r), uint64_t seed)
{
    static const uint32_t shapes[][2] = {{48, 40}, {64, 31}, {23, 64}, {60, 60},
                                         {1, 37},  {37, 1},  {17, 9},  {64, 64}};
    const char *e = getenv("NB_PLACE_LEVELS");
    unsigned long levels = e ? strtoul(e, NULL, 10) : 3;
    tu_rng r = {seed};
    for (unsigned long k = 0; k < levels; k++) {
        const uint32_t *sh = shapes[k % (sizeof shapes / sizeof shapes[0])];
        pu_level L;
        nbb_grid g;
        char name[64];
        pu_random_grid(&r, sh[0], sh[1], &g);
        snprintf(name, sizeof name, "random level %lu", k + 1);
        if (pu_level_open(&L, &g, name))
            check(&L, &r);
        pu_level_close(&L);
    }
    if (!getenv("NB_PLACE_SHARED"))
        return;
    static const char *const maps[] = {"maps/wc3/bloodvenomfalls.map", "maps/wc3/battleground.map"};
    for (size_t k = 0; k < sizeof maps / sizeof maps[0]; k++) {
        const char *m = tu_shared(maps[k]);
        if (!m) {
            skip(1, "%s is not in ../shared", maps[k]);
            continue;
        }
        pu_level L;
        if (pu_level_read(&L, m, maps[k]))
            check(&L, &r);
        pu_level_close(&L);
    }
}
