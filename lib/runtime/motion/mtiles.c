/* mtiles.c: the pool of 32 x 32 tiles that the motion searches keep their
 * per-cell data in (motion.h: nbi_mtile_*), so that a workspace costs
 * what its searches touch, not the map (issue 16). */
#include "motion/motion.h"

int nbi_mtile_pool(nbi_pool *p, const nb_allocator *a, uint32_t w, uint32_t h, unsigned *tbits)
{
    uint32_t tx = (w + (1u << NBI_MTILE) - 1) >> NBI_MTILE, ty = (h + (1u << NBI_MTILE) - 1) >> NBI_MTILE;
    unsigned tb = 0;
    while ((1u << tb) < tx)
        tb++;
    *tbits = tb;
    return nbi_pool_init(p, a, (size_t)(ty ? ty : 1) << tb, 2 * NBI_MTILE);
}

int nbi_cellblocks_init(nbi_cellblocks *c, const nb_allocator *a, uint32_t w, uint32_t h)
{
    memset(c, 0, sizeof *c);
    int ok = nbi_mtile_pool(&c->pool, a, w, h, &c->tbits);
    nbi_pool_array(&c->pool, (void **)&c->block, sizeof *c->block, 0);
    ok = ok && nbi_pool_reserve(&c->pool, 4);
    nbi_pool_begin(&c->pool);
    return ok;
}

void nbi_cellblocks_free(nbi_cellblocks *c)
{
    nbi_pool_free(&c->pool);
    c->block = NULL;
}

uint32_t *nbi_cellblocks_entry(nbi_cellblocks *c, long x, long y)
{
    int fresh;
    uint32_t pg = nbi_pool_page(&c->pool, nbi_mtile_key(c->tbits, x, y), &fresh);
    if (pg == NBI_POOL_NONE)
        return NULL;
    if (fresh) /* blocks are numbered per search: nothing of an earlier one holds */
        for (size_t i = (size_t)pg << (2 * NBI_MTILE); i < (size_t)(pg + 1) << (2 * NBI_MTILE); i++)
            c->block[i] = NBI_HEAP_NONE;
    return &c->block[nbi_mtile_slot(pg, x, y)];
}
