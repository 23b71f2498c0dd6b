/* opt_edit.c: the tiles a world overlay edits for the world optimal query
 * (opt_edit.h says what an edited tile is and why the others stand).
 *
 * Each edited tile keeps the overlay's cells that reach its own cells'
 * squares, an nb_overlay of its bundle holding them (no HAA* repair: the
 * query searches cells, through abstract/cluster_search.c, which reads
 * it), and the rows the query computed under it, so the same overlay's
 * next query reads them again instead of searching the tile; and how far
 * each portal lies from the cells the overlay takes, which says which of
 * its stored distances stand (world_sg.c). */
#include <string.h>

#include "blocked/blocked.h"
#include "stream/opt_edit.h"

int nbi_oedit_init(nbi_oedit *x, const nb_world *w, uint32_t size)
{
    memset(x, 0, sizeof *x);
    x->a = w->index->a;
    x->size = size;
    x->ntiles = (size_t)w->x.columns * w->x.rows;
    x->slot = nbi_zalloc_array(x->a, x->ntiles, sizeof *x->slot);
    return x->slot != NULL;
}

void nbi_oedit_free(nbi_oedit *x)
{
    for (size_t i = 0; i < x->cap; i++) {
        nbi_oedit_tile *e = &x->e[i];
        nbi_free(x->a, e->cell);
        nbi_free(x->a, e->rows);
        nbi_free(x->a, e->have);
        nbi_free(x->a, e->dk);
        nbi_blocked_free(e->ov);
    }
    nbi_free(x->a, x->e);
    nbi_free(x->a, x->slot);
    memset(x, 0, sizeof *x);
}

size_t nbi_oedit_bytes(const nbi_oedit *x)
{
    size_t n = x->ntiles * sizeof *x->slot + x->cap * sizeof *x->e;
    for (size_t i = 0; i < x->cap; i++) {
        const nbi_oedit_tile *e = &x->e[i];
        n += e->ccap * sizeof *e->cell + e->rcap * sizeof *e->rows + e->hcap + e->dcap * sizeof *e->dk +
             (e->ov ? nbi_blocked_bytes(e->ov) : 0);
    }
    return n;
}

/* Forgets every edited tile, keeping their buffers. */
static void reset(nbi_oedit *x)
{
    for (size_t i = 0; i < x->n; i++) {
        x->slot[x->e[i].tile] = 0;
        x->e[i].ncell = 0;
        x->e[i].t = NULL;
    }
    x->n = 0;
    x->version = 0;
}

typedef struct take_ctx {
    nbi_oedit *x;
    const nb_world *w;
} take_ctx;

/* Blocked cell c joins the edits of the tiles whose own cells' squares
 * hold it: those of the cells up to size - 1 left of and above it. */
static void add(nbi_oedit *x, uint32_t ti, nb_cell c)
{
    if (x->nomem)
        return;
    if (!x->slot[ti]) {
        if (x->n == x->cap) {
            size_t cap = x->cap;
            if (!nbi_grow(x->a, (void **)&x->e, &cap, x->n + 1, sizeof *x->e)) {
                x->nomem = 1;
                return;
            }
            memset(x->e + x->cap, 0, (cap - x->cap) * sizeof *x->e);
            x->cap = cap;
        }
        nbi_oedit_tile *e = &x->e[x->n++];
        e->tile = ti, e->ncell = 0, e->t = NULL;
        x->slot[ti] = (uint32_t)x->n;
    }
    nbi_oedit_tile *e = &x->e[x->slot[ti] - 1];
    if (!nbi_grow(x->a, (void **)&e->cell, &e->ccap, e->ncell + 1, sizeof *e->cell)) {
        x->nomem = 1;
        return;
    }
    e->cell[e->ncell++] = c;
}

static void take(void *ctx, uint32_t cx, uint32_t cy)
{
    take_ctx *k = ctx;
    const nbi_windex *wx = &k->w->x;
    uint32_t s = k->x->size - 1;
    uint32_t x0 = cx > s ? cx - s : 0, y0 = cy > s ? cy - s : 0;
    uint32_t c0 = x0 / wx->side, c1 = cx / wx->side, r0 = y0 / wx->side, r1 = cy / wx->side;
    for (uint32_t r = r0; r <= r1; r++)
        for (uint32_t c = c0; c <= c1; c++)
            add(k->x, r * wx->columns + c, (nb_cell){(int32_t)cx, (int32_t)cy});
}

int nbi_oedit_sync(nbi_oedit *x, const nb_world *w, const nb_world_overlay *ov)
{
    if (!ov || !ov->blocked) {
        if (x->n)
            reset(x);
        return 1;
    }
    if (x->version == ov->version)
        return 1;
    reset(x);
    x->nomem = 0;
    take_ctx k = {x, w};
    nbi_wov_each(ov, take, &k);
    if (x->nomem) {
        reset(x);
        return 0;
    }
    x->version = ov->version;
    return 1;
}

const nb_overlay *nbi_oedit_overlay(nbi_oedit *x, nbi_oedit_tile *e, const nbi_stile *t,
                                    uint32_t n)
{
    if (e->t == t && e->ov)
        return e->ov;
    e->t = NULL;
    if (e->ov && e->ov->b != t->b) {
        nbi_blocked_free(e->ov);
        e->ov = NULL;
    }
    if (e->ov)
        nbi_blocked_clear(e->ov);
    else if (!(e->ov = nbi_blocked_new(t->b, x->size)))
        return NULL;
    size_t nn = (size_t)n * n;
    if (!nbi_grow(x->a, (void **)&e->rows, &e->rcap, nn ? nn : 1, sizeof *e->rows) ||
        !nbi_grow(x->a, (void **)&e->have, &e->hcap, n ? n : 1, 1) ||
        !nbi_grow(x->a, (void **)&e->dk, &e->dcap, n ? n : 1, sizeof *e->dk))
        return NULL;
    memset(e->have, 0, n);
    e->dk_ok = 0;
    e->n = n;
    for (size_t i = 0; i < e->ncell; i++) {
        long lx = (long)e->cell[i].x - (long)t->tag.origin_x,
             ly = (long)e->cell[i].y - (long)t->tag.origin_y;
        if (lx < 0 || ly < 0 || lx >= (long)e->ov->width || ly >= (long)e->ov->height)
            continue; /* beyond the tile's map: no square of its own cells holds it */
        if (nb_overlay_block(e->ov, lx, ly, 1, 1, NULL) != NB_OK)
            return NULL;
    }
    e->t = t;
    return e->ov;
}
