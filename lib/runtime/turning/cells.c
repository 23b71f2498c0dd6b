/* cells.c: the cells blocked for a unit, read from the bundle by tiles of
 * 64 x 64 cells when a search first reaches them and kept for the next
 * query, so that a planner on a huge map costs what its searches touch.
 * A tile row is one 64-bit word: a search reads the window of cells
 * around a node a row at a time (edges.c). */
#include "turning/planner.h"
#include "turning/sweep.h"

nb_status nbi_cells_init(nbi_cells *c, const nb_bundle *b, nb_capability cap, double width,
                         nb_err *err)
{
    memset(c, 0, sizeof *c);
    c->b = b;
    c->a = b->a;
    c->cap = cap;
    c->width = width;
    c->W = nb_map_width(b);
    c->H = nb_map_height(b);
    /* The clearance layer of the unit's terrains (mkclear) says the same as
     * the map and the legend, faster. */
    c->layered = nb_clearance_cap(b, cap) >= 1 && nbi_clearance_layer(b, cap, &c->layer, NULL) == NB_OK;
    c->tw = (c->W + NBI_TILE - 1) / NBI_TILE;
    c->th = (c->H + NBI_TILE - 1) / NBI_TILE;
    c->dir = nbi_zalloc_array(c->a, (size_t)(c->tw * c->th), sizeof *c->dir);
    if (!c->dir)
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory for the planner's tile directory");
    memset(c->outside.blocked, 0xff, sizeof c->outside.blocked);
    c->outside.stand_done = 1;
    return NB_OK;
}

void nbi_cells_free(nbi_cells *c)
{
    for (size_t i = 0; i < c->n; i++)
        nbi_free(c->a, c->pool[i]);
    nbi_free(c->a, c->pool);
    nbi_free(c->a, c->dir);
    c->pool = NULL;
    c->dir = NULL;
    c->n = c->capn = 0;
}

int nbi_cells_blocked_direct(const nbi_cells *c, long x, long y)
{
    if (x < 0 || y < 0 || x >= c->W || y >= c->H)
        return 1;
    if (c->layered)
        return nbi_layer_get(&c->layer, (uint64_t)y * (uint64_t)c->W + (uint64_t)x) < 1;
    int t = nb_map_terrain(c->b, x, y);
    return t == NB_OBSTACLE || !(c->cap >> t & 1);
}

const nbi_tile *nbi_cells_tile(nbi_cells *c, long tx, long ty)
{
    if (tx < 0 || ty < 0 || tx >= c->tw || ty >= c->th)
        return &c->outside;
    uint32_t *d = &c->dir[ty * c->tw + tx]; /* 0: not read yet; else its place in pool, + 1 */
    if (*d)
        return c->pool[*d - 1];
    nbi_tile *t;
    if (!nbi_grow(c->a, (void **)&c->pool, &c->capn, c->n + 1, sizeof *c->pool) ||
        !(t = nbi_alloc(c->a, sizeof *t))) {
        c->nomem = 1;
        return &c->outside;
    }
    memset(t, 0, sizeof *t);
    for (long r = 0; r < NBI_TILE; r++)
        for (long k = 0; k < NBI_TILE; k++)
            t->blocked[r] |= (uint64_t)nbi_cells_blocked_direct(c, tx * NBI_TILE + k, ty * NBI_TILE + r) << k;
    c->pool[c->n++] = t;
    *d = (uint32_t)c->n;
    return t;
}

void nbi_cells_rows(nbi_cells *c, long y0, unsigned n, long x, uint64_t *out)
{
    long tx = nbi_tile_of(x), ty = -1;
    unsigned b = (unsigned)(x - tx * NBI_TILE);
    const nbi_tile *left = NULL, *right = NULL;
    for (unsigned i = 0; i < n; i++) {
        long y = y0 + (long)i, t = nbi_tile_of(y);
        if (!left || t != ty) { /* each tile looked up once, not once a row */
            ty = t;
            left = nbi_cells_tile(c, tx, ty);
            right = b ? nbi_cells_tile(c, tx + 1, ty) : left;
        }
        unsigned r = (unsigned)(y - ty * NBI_TILE);
        /* The 64 cells from x: the left tile's row from its bit b, then the right tile's first
         * b cells above them (none when b is 0: a shift by 64 is undefined). */
        out[i] = left->blocked[r] >> b | (b ? right->blocked[r] << (NBI_TILE - b) : 0);
    }
}

static int disc_hit(void *ctx, long x, long y) { return nbi_cells_blocked(ctx, x, y); }

int nbi_cells_stand(nbi_cells *c, long x, long y)
{
    long tx = nbi_tile_of(x), ty = nbi_tile_of(y);
    nbi_tile *t = (nbi_tile *)nbi_cells_tile(c, tx, ty);
    if (!t->stand_done) {
        /* The tile's pointer stays valid while others are read: each is
         * its own allocation. */
        for (long r = 0; r < NBI_TILE; r++)
            for (long k = 0; k < NBI_TILE; k++) {
                long cx = tx * NBI_TILE + k, cy = ty * NBI_TILE + r;
                if (!(t->blocked[r] >> k & 1) && !nbi_disc_cells(cx + 0.5, cy + 0.5, c->width, disc_hit, c))
                    t->stand[r] |= (uint64_t)1 << k;
            }
        t->stand_done = 1;
    }
    return (int)(t->stand[y - ty * NBI_TILE] >> (x - tx * NBI_TILE) & 1);
}
