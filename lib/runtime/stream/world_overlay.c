/* world_overlay.c: cells blocked at run time in a world's coordinates
 * (nb_world_overlay, navbake.h), whatever tiles they fall in: a page of a
 * bit a cell for each block of 32 x 32 cells that holds a block, found by
 * a hash of the block (so it costs what is blocked, not the world). */
#include <string.h>

#include "stream/wquery.h"

#define FAMILY "world overlay"

static _Atomic uint64_t versions;

uint64_t nbi_wov_next_version(void)
{
    return atomic_fetch_add(&versions, 1) + 1;
}

nb_status nb_world_overlay_open(const nb_world *w, nb_world_overlay **out, nb_err *err)
{
    if (out)
        *out = NULL;
    if (!w || !out)
        return nbi_fail(err, NB_ERR_ARG, "nb_world_overlay_open: a NULL world or out");
    const nb_allocator *a = w->index->a;
    nb_world_overlay *ov = nbi_alloc(a, sizeof *ov);
    if (!ov)
        return nbi_fail_nomem(err, "a world overlay");
    memset(ov, 0, sizeof *ov);
    ov->w = w;
    ov->a = a;
    ov->bcols = (w->x.width + NBI_WB_MASK) >> NBI_WB_SHIFT;
    nbi_u32map_init(&ov->dir, a);
    ov->version = nbi_wov_next_version();
    *out = ov;
    return nbi_done(err, NB_OK);
}

void nb_world_overlay_close(nb_world_overlay *ov)
{
    if (!ov)
        return;
    nbi_u32map_free(&ov->dir);
    nbi_free(ov->a, ov->pages);
    nbi_free(ov->a, ov);
}

/* The page of the block of (x, y), made when make; NULL without one. */
static uint64_t *page_of(nb_world_overlay *ov, uint32_t x, uint32_t y, int make)
{
    uint32_t key = (y >> NBI_WB_SHIFT) * ov->bcols + (x >> NBI_WB_SHIFT);
    int found;
    uint32_t p = nbi_u32map_get(&ov->dir, key, &found);
    if (found)
        return ov->pages + (size_t)(p - 1) * 16;
    if (!make)
        return NULL;
    if (ov->npages == ov->cap) {
        uint32_t cap = ov->cap ? 2 * ov->cap : 16;
        uint64_t *pg = nbi_realloc_array(ov->a, ov->pages, (size_t)cap * 16, sizeof *pg);
        if (!pg)
            return NULL;
        ov->pages = pg;
        ov->cap = cap;
    }
    if (!nbi_u32map_put(&ov->dir, key, ov->npages + 1))
        return NULL;
    uint64_t *pg = ov->pages + (size_t)ov->npages++ * 16;
    memset(pg, 0, 16 * sizeof *pg);
    return pg;
}

static nb_status change(nb_world_overlay *ov, long x, long y, long cw, long ch, int block,
                        const char *fn, nb_err *err)
{
    if (!ov)
        return nbi_fail(err, NB_ERR_ARG, "%s: no overlay", fn);
    long W = ov->w->x.width, H = ov->w->x.height;
    if (cw < 1 || ch < 1 || x < 0 || y < 0 || x > W - cw || y > H - ch)
        return nbi_fail(err, NB_ERR_ARG, "%s: the %ld x %ld cells from (%ld, %ld) are not a "
                        "rectangle inside the world's %ld x %ld", fn, cw, ch, x, y, W, H);
    long x0 = x, y0 = y, x1 = x + cw, y1 = y + ch;
    for (long cy = y0; cy < y1; cy++)
        for (long cx = x0; cx < x1; cx++) {
            uint64_t *pg = page_of(ov, (uint32_t)cx, (uint32_t)cy, block);
            if (!pg) {
                if (block)
                    return nbi_fail_nomem(err, "a world overlay's cells");
                cx |= NBI_WB_MASK; /* no block in this one */
                continue;
            }
            uint32_t bit = ((uint32_t)cy & NBI_WB_MASK) << NBI_WB_SHIFT | ((uint32_t)cx & NBI_WB_MASK);
            uint64_t m = (uint64_t)1 << (bit % 64), was = pg[bit / 64] & m;
            if (block && !was)
                pg[bit / 64] |= m, ov->blocked++;
            else if (!block && was)
                pg[bit / 64] &= ~m, ov->blocked--;
            if (!was != !block)
                ov->version = 0;
        }
    if (!ov->version)
        ov->version = nbi_wov_next_version();
    return nbi_done(err, NB_OK);
}

nb_status nb_world_overlay_block(nb_world_overlay *ov, long x, long y, long w, long h, nb_err *err)
{
    return change(ov, x, y, w, h, 1, "nb_world_overlay_block", err);
}

nb_status nb_world_overlay_unblock(nb_world_overlay *ov, long x, long y, long w, long h,
                                   nb_err *err)
{
    return change(ov, x, y, w, h, 0, "nb_world_overlay_unblock", err);
}

int nb_world_overlay_blocked(const nb_world_overlay *ov, long x, long y)
{
    return ov && x >= 0 && y >= 0 && x < (long)ov->w->x.width && y < (long)ov->w->x.height &&
           nbi_wov_blocked(ov, (uint32_t)x, (uint32_t)y);
}

int nbi_wov_room(const nb_world_overlay *ov, uint32_t size, uint32_t x, uint32_t y)
{
    if (!ov || !ov->blocked)
        return 1;
    uint32_t x1 = ov->w->x.width - x < size ? ov->w->x.width : x + size;
    uint32_t y1 = ov->w->x.height - y < size ? ov->w->x.height : y + size;
    for (uint32_t cy = y; cy < y1; cy++)
        for (uint32_t cx = x; cx < x1; cx++)
            if (nbi_wov_blocked(ov, cx, cy))
                return 0;
    return 1;
}

nb_status nbi_wopv_check(const nb_world_overlay *ov, const nb_world *w, const char *family,
                        nb_err *err)
{
    if (ov && ov->w != w)
        return nbi_fail(err, NB_ERR_ARG, "%s: an overlay of another world", family);
    return NB_OK;
}

void nbi_wov_each(const nb_world_overlay *ov, void (*fn)(void *, uint32_t, uint32_t), void *ctx)
{
    /* The overlay's map's live entries, a page of 32 x 32 cells each. */
    const nbi_u32map *m = &ov->dir;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->e[i].gen != m->gen)
            continue;
        uint32_t bx = m->e[i].key % ov->bcols, by = m->e[i].key / ov->bcols;
        const uint64_t *pg = ov->pages + (size_t)(m->e[i].value - 1) * 16;
        for (uint32_t wd = 0; wd < 16; wd++)
            for (uint64_t bits = pg[wd]; bits; bits &= bits - 1) {
                uint32_t bit = wd * 64 + nbp_ctz64(bits);
                fn(ctx, (bx << NBI_WB_SHIFT) + (bit & NBI_WB_MASK),
                   (by << NBI_WB_SHIFT) + (bit >> NBI_WB_SHIFT));
            }
    }
}
