/* haa_edit.c: what world HAA* (haa_world.c) searches instead of the
 * world graph where an overlay changes the cells (haa_world.h).
 *
 * The repair is at the tile level, as the bundle's HAA* repairs its
 * clusters (abstract/repair.c) but without building a graph: a tile in
 * which the overlay changes where the agent stands (a blocked cell, or
 * one within size - 1 cells right of or below it) is "edited"; its world
 * graph nodes and distances are not used, and the search walks its cells
 * on the edited grid instead, together with the cells of the other tiles
 * that touch it (a band of one cell), where it meets the portals of the
 * tiles the overlay leaves alone.  So a path that crosses an edited tile
 * anywhere is found (every cell of its border is an entrance), and every
 * untouched tile is searched through the baked graph as before.  What it
 * costs is the edited tiles' cells the search reaches, held by a map from
 * cell to key, not by arrays the size of the world.  An edited tile other
 * than the ends' is not walked so: the search walks its graph as the
 * overlay repairs it where the repair may change a distance, and where
 * the repair reaches the tile's edges it crosses to the neighbour's
 * repaired graph by the repaired arcs out of the tile (tile_repair.c). */
#include <string.h>

#include "blocked/blocked.h"
#include "core/grid.h"
#include "stream/haa_world.h"

int nbi_wedit_init(nbi_wedit *e, const nb_world *w)
{
    memset(e, 0, sizeof *e);
    e->w = w;
    e->a = w->index->a;
    e->ntiles = (size_t)w->x.columns * w->x.rows;
    nbi_u32map_init(&e->rkey, e->a);
    /* R keys by blocks of 8 x 8 cells, each block's 64 in one run of the map's slots: a cell's
     * neighbours, which the search asks for together, share cache lines (the map outgrows
     * the caches on a tile walked whole).  Where the blocks' numbers would not fit 32 bits,
     * the cells' row-major numbers, hashed whole. */
    e->bcols = (w->x.width + 7) >> 3;
    if ((((uint64_t)e->bcols * ((w->x.height + 7) >> 3)) << 6) <= (uint64_t)UINT32_MAX + 1)
        nbi_u32map_keep_low(&e->rkey, 6);
    else
        e->bcols = 0;
    nbi_u32map_init(&e->portal, e->a);
    e->dirty = nbi_zalloc_array(e->a, e->ntiles, 1);
    return e->dirty && nbi_wpins_init(&e->pins, w);
}

void nbi_wedit_free(nbi_wedit *e)
{
    if (!e->w)
        return;
    nbi_u32map_free(&e->rkey);
    nbi_u32map_free(&e->portal);
    nbi_free(e->a, e->dirty);
    nbi_free(e->a, e->rcell);
    for (size_t i = 0; i < e->trmade; i++)
        nbi_trep_free(e->a, &e->trep[i]);
    nbi_free(e->a, e->trep);
    nbi_free(e->a, e->tslot);
    nbi_free(e->a, e->refused);
    if (e->dj.card)
        nbi_tdijk_free(&e->dj);
    if (e->pins.v)
        nbi_wpins_free(&e->pins);
    memset(e, 0, sizeof *e);
}

static size_t trep_bytes(const nbi_wedit *e)
{
    size_t n = e->trcap * sizeof *e->trep + (e->tslot ? e->ntiles * sizeof *e->tslot : 0) +
               (e->refused ? e->ntiles * sizeof *e->refused : 0) +
               (e->dj.card ? (size_t)e->dj.n * 16 : 0);
    for (size_t i = 0; i < e->trmade; i++)
        n += nbi_trep_bytes(&e->trep[i]) + (e->trep[i].ov ? nbi_blocked_bytes(e->trep[i].ov) : 0);
    return n;
}

size_t nbi_wedit_bytes(const nbi_wedit *e)
{
    return e->ntiles + nbi_u32map_bytes(&e->rkey) + nbi_u32map_bytes(&e->portal) +
           e->rcap * sizeof *e->rcell + nbi_wpins_bytes(&e->pins) + trep_bytes(e);
}

/* Marks the tiles of the cells whose agent's square holds (x, y), and of the cells beside
 * them: a tile whose edge cell faces a changed one sees its border's crossings change, and
 * is repaired with its neighbour (both repairs see the border alike). */
static void mark(nbi_wedit *e, uint32_t x, uint32_t y, uint32_t size)
{
    const nbi_windex *wx = &e->w->x;
    uint32_t x0 = x >= size ? x - size : 0, y0 = y >= size ? y - size : 0;
    uint32_t x1 = x + 1 < wx->width ? x + 1 : x, y1 = y + 1 < wx->height ? y + 1 : y;
    for (uint32_t ty = y0 / wx->side; ty <= y1 / wx->side; ty++)
        for (uint32_t tx = x0 / wx->side; tx <= x1 / wx->side; tx++)
            if (!e->dirty[(size_t)ty * wx->columns + tx]) {
                e->dirty[(size_t)ty * wx->columns + tx] = 1;
                e->ndirty++;
            }
}

typedef struct marking {
    nbi_wedit *e;
    uint32_t size;
} marking;

static void mark_cell(void *ctx, uint32_t x, uint32_t y)
{
    marking *m = ctx;
    mark(m->e, x, y, m->size);
}

void nbi_wedit_begin(nbi_wedit *e, const nb_world_overlay *ov, nb_capability cap, uint32_t size)
{
    for (size_t i = 0; i < e->ntrep; i++)
        if (e->trep[i].live) { /* a query not ended: its repaired tiles let go */
            nbi_wedit_end(e);
            break;
        }
    if (e->ndirty)
        memset(e->dirty, 0, e->ntiles);
    e->ndirty = 0;
    e->nr = 0;
    e->ov = ov && ov->blocked ? ov : NULL;
    nbi_u32map_clear(&e->rkey);
    nbi_u32map_clear(&e->portal);
    nbi_wpins_begin(&e->pins, "world HAA*", cap, size);
    /* The repaired tiles and their rows kept only under the same cells blocked, for the
     * same agent. */
    if (!e->ov || !e->ov->version || e->ov->version != e->cver || cap != e->ccap ||
        size != e->csize || e->no_repair) {
        for (size_t i = 0; i < e->ntrep; i++) {
            e->tslot[e->trep[i].tile] = 0;
            nbi_trep_release(&e->trep[i]); /* its overlay, kept from the last version */
        }
        e->ntrep = 0;
        if (e->refused)
            memset(e->refused, 0, e->ntiles * sizeof *e->refused);
    }
    e->reused = 0;
    e->cver = e->ov ? e->ov->version : 0;
    e->ccap = cap;
    e->csize = size;
    e->cap = cap;
    e->size = size;
    e->repaired = 0;
    if (!e->ov)
        return;
    marking m = {e, size};
    nbi_wov_each(ov, mark_cell, &m);
}

int nbi_wedit_repair(nbi_wedit *e, const nbi_wgraph *wg, uint32_t ts, uint32_t tg)
{
    if (!e->ndirty || e->no_repair)
        return 0;
    if (!e->tslot && !(e->tslot = nbi_zalloc_array(e->a, e->ntiles, sizeof *e->tslot)))
        return -1;
    if (!e->refused && !(e->refused = nbi_zalloc_array(e->a, e->ntiles, sizeof *e->refused)))
        return -1;
    for (uint32_t t = 0; t < e->ntiles && e->ndirty; t++) {
        if (!e->dirty[t] || t == ts || t == tg)
            continue;
        /* A tile not loaded stays edited cell by cell: the search names it only if it goes
         * there.  What was kept of it is of a load gone: freed. */
        nbi_wview *v = atomic_load(&e->w->slots[t].tile) ? nbi_wpins_view(&e->pins, t) : NULL;
        if (!v || v->state != NBI_WV_LOADED) {
            if (e->tslot[t])
                nbi_trep_release(&e->trep[e->tslot[t] - 1]);
            continue;
        }
        if (e->refused[t] == v->t->serial) /* refused under this version: cell by cell */
            continue;
        nbi_trep *r;
        if (e->tslot[t]) { /* kept from a query under the same overlay */
            r = &e->trep[e->tslot[t] - 1];
            if (nbi_trep_same(r, v->t)) {
                r->t = v->t;
                r->live = 1;
                e->dirty[t] = 0;
                e->ndirty--;
                e->repaired++;
                e->reused++;
                continue;
            }
            /* Unloaded and loaded again since: another bundle, made anew in its place. */
        } else {
            if (!nbi_grow(e->a, (void **)&e->trep, &e->trcap, e->ntrep + 1, sizeof *e->trep))
                return -1;
            if (e->ntrep == e->trmade) {
                memset(&e->trep[e->ntrep], 0, sizeof *e->trep);
                e->trmade++;
            }
            r = &e->trep[e->ntrep];
        }
        int made = nbi_trep_make(r, e->a, wg, v->t, e->ov, e->cap, e->size, &e->dj);
        if (made < 0)
            return -1;
        if (made == 0) {
            e->refused[t] = v->t->serial;
            if (e->tslot[t])
                r->t = NULL; /* its slot kept, never taken: refused rows */
            continue;
        }
        r->live = 1;
        if (!e->tslot[t])
            e->tslot[t] = (uint32_t)++e->ntrep;
        e->dirty[t] = 0;
        e->ndirty--;
        e->repaired++;
    }
    return 0;
}

void nbi_wedit_end(nbi_wedit *e)
{
    /* Kept for the next query under the same version, overlays and repairs too, their
     * tiles let go: t stays only as the load's identity (nbi_trep_same). */
    for (size_t i = 0; i < e->ntrep; i++)
        e->trep[i].live = 0;
    nbi_wpins_end(&e->pins);
}

int nbi_wedit_in(const nbi_wedit *e, int32_t x, int32_t y)
{
    const nbi_windex *wx = &e->w->x;
    if (!e->ndirty || x < 0 || y < 0 || (uint32_t)x >= wx->width || (uint32_t)y >= wx->height)
        return 0;
    for (int32_t dy = -1; dy <= 1; dy++)
        for (int32_t dx = -1; dx <= 1; dx++) {
            int32_t nx = x + dx, ny = y + dy;
            if (nx >= 0 && ny >= 0 && (uint32_t)nx < wx->width && (uint32_t)ny < wx->height &&
                e->dirty[nbi_wtile_index(e->w, (uint32_t)nx, (uint32_t)ny)])
                return 1;
        }
    return 0;
}

long nbi_wedit_key(nbi_wedit *e, nb_cell c)
{
    int found;
    uint32_t x = (uint32_t)c.x, y = (uint32_t)c.y;
    uint32_t key = e->bcols ? ((y >> 3) * e->bcols + (x >> 3)) << 6 | (y & 7) << 3 | (x & 7)
                            : y * e->w->x.width + x;
    uint32_t *v = nbi_u32map_slot(&e->rkey, key, &found);
    if (!v)
        return -1;
    if (found)
        return (long)*v;
    if (!nbi_grow(e->a, (void **)&e->rcell, &e->rcap, e->nr + 1, sizeof *e->rcell))
        return -1;
    e->rcell[e->nr] = c;
    *v = (uint32_t)e->nr;
    return (long)e->nr++;
}

int nbi_wedit_step(nbi_wedit *e, nb_cell c, unsigned d, int strict, double bound)
{
    int32_t nx = c.x + nbi_move_dx[d], ny = c.y + nbi_move_dy[d];
    int here = nbi_wpins_stands(&e->pins, e->ov, nx, ny, bound);
    if (here != 1 || d < 4)
        return here;
    int32_t hx = c.x + nbi_move_dx[nbi_move_horizontal(d)];
    int32_t vy = c.y + nbi_move_dy[nbi_move_vertical(d)];
    int a = nbi_wpins_stands(&e->pins, e->ov, hx, c.y, bound);
    int b = nbi_wpins_stands(&e->pins, e->ov, c.x, vy, bound);
    if (strict ? a == 1 && b == 1 : a == 1 || b == 1)
        return 1;
    return (strict ? a != 0 && b != 0 : a != 0 || b != 0) ? -1 : 0;
}
