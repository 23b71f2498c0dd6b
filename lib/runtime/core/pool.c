/* pool.c: pages of node storage claimed by the searches that touch them
 * (pool.h). */
#include "core/pool.h"

int nbi_pool_init(nbi_pool *p, const nb_allocator *a, size_t ndir, unsigned shift)
{
    memset(p, 0, sizeof *p);
    p->a = a;
    p->shift = shift;
    p->ndir = ndir;
    p->dir = nbi_alloc_array(a, ndir ? ndir : 1, sizeof *p->dir);
    if (!p->dir)
        return 0;
    memset(p->dir, 0xff, ndir * sizeof *p->dir); /* NBI_POOL_NONE */
    return 1;
}

void nbi_pool_array(nbi_pool *p, void **arr, size_t esize, int zero)
{
    p->array[p->narrays] = arr;
    p->esize[p->narrays] = esize;
    p->zero[p->narrays] = zero;
    p->narrays++;
}

void nbi_pool_free(nbi_pool *p)
{
    nbi_free(p->a, p->dir);
    nbi_free(p->a, p->owner);
    nbi_free(p->a, p->gen);
    for (unsigned i = 0; i < p->narrays; i++) {
        nbi_free(p->a, *p->array[i]);
        *p->array[i] = NULL;
    }
    p->dir = p->owner = p->gen = NULL;
    p->npages = p->cap = 0;
}

/* Room for cap pages in every array; 0 when out of memory (each array is
 * then valid at its old size or larger, and p->cap unchanged). */
static int grow(nbi_pool *p, uint32_t cap)
{
    uint32_t *o = nbi_realloc_array(p->a, p->owner, cap, sizeof *o);
    if (o)
        p->owner = o;
    uint32_t *g = o ? nbi_realloc_array(p->a, p->gen, cap, sizeof *g) : NULL;
    if (g) {
        /* A page not handed out yet is no search's: take() reads its gen. */
        memset(g + p->cap, 0, (size_t)(cap - p->cap) * sizeof *g);
        p->gen = g;
    }
    int ok = g != NULL;
    for (unsigned i = 0; ok && i < p->narrays; i++) {
        void *q = nbi_realloc_array(p->a, *p->array[i], (size_t)cap << p->shift, p->esize[i]);
        if (q)
            *p->array[i] = q;
        else
            ok = 0;
    }
    if (ok)
        p->cap = cap;
    return ok;
}

int nbi_pool_reserve(nbi_pool *p, uint32_t pages)
{
    if (pages <= p->cap)
        return 1;
    uint32_t old = p->cap;
    if (!grow(p, pages))
        return 0;
    /* Touched now, so that the first search finds the memory mapped. */
    for (unsigned i = 0; i < p->narrays; i++)
        memset((char *)*p->array[i] + ((size_t)old << p->shift) * p->esize[i], 0,
               ((size_t)(pages - old) << p->shift) * p->esize[i]);
    return 1;
}

void nbi_pool_begin(nbi_pool *p)
{
    if (++p->cur == 0) {
        /* Once in 2^32 searches: no page is any search's. */
        for (uint32_t i = 0; i < p->npages; i++)
            p->gen[i] = 0;
        p->cur = 1;
    }
    p->cursor = 0;
    p->failed = 0;
    p->claimed = 0;
}

/* Page pg, taken for page key k by the current search. */
static uint32_t take(nbi_pool *p, uint32_t pg, uint32_t k, int *fresh)
{
    if (p->gen[pg] != p->cur)
        p->claimed++;
    p->dir[k] = pg;
    p->owner[pg] = k;
    p->gen[pg] = p->cur;
    *fresh = 1;
    return pg;
}

uint32_t nbi_pool_claim(nbi_pool *p, uint32_t k, int *fresh)
{
    uint32_t pg = p->dir[k];
    if (p->max_pages && p->claimed >= p->max_pages &&
        (pg == NBI_POOL_NONE || p->gen[pg] != p->cur))
        return NBI_POOL_NONE;
    if (pg != NBI_POOL_NONE) /* an earlier search's page for the same key */
        return take(p, pg, k, fresh);
    if (p->npages == p->cap) {
        /* Steal a page the current search has not claimed.  The cursor only
         * moves on, past pages this search holds (which it keeps), so a
         * search scans each page at most once. */
        while (p->cursor < p->npages) {
            pg = p->cursor++;
            if (p->gen[pg] != p->cur) {
                p->dir[p->owner[pg]] = NBI_POOL_NONE;
                return take(p, pg, k, fresh);
            }
        }
        if (p->max_pages && p->cap >= p->max_pages)
            return NBI_POOL_NONE;
        uint32_t cap = p->cap < 16 ? 16 : p->cap + p->cap / 2;
        if (p->max_pages && cap > p->max_pages)
            cap = p->max_pages;
        if (cap <= p->cap || !grow(p, cap)) {
            p->failed = 1;
            return NBI_POOL_NONE;
        }
    }
    pg = p->npages++;
    for (unsigned i = 0; i < p->narrays; i++)
        if (p->zero[i])
            memset((char *)*p->array[i] + ((size_t)pg << p->shift) * p->esize[i], 0,
                   ((size_t)1 << p->shift) * p->esize[i]);
    return take(p, pg, k, fresh);
}

int nbi_pool_flat(nbi_pool *p)
{
    if (p->ndir == 0 || p->cap < p->ndir || p->no_flat)
        return 0;
    if (!p->flat) {
        /* Pages no search used yet start zeroed, as a claim would have them; the others keep
         * what they held, which callers that stamp their slots with a search id ignore (the
         * contract of a reused or stolen page). */
        for (uint32_t pg = p->npages; pg < p->ndir; pg++)
            for (unsigned i = 0; i < p->narrays; i++)
                if (p->zero[i])
                    memset((char *)*p->array[i] + ((size_t)pg << p->shift) * p->esize[i], 0,
                           ((size_t)1 << p->shift) * p->esize[i]);
        for (uint32_t k = 0; k < p->ndir; k++)
            p->dir[k] = p->owner[k] = k;
        if (p->npages < p->ndir)
            p->npages = (uint32_t)p->ndir;
        p->flat = 1;
    }
    for (uint32_t k = 0; k < p->ndir; k++)
        p->gen[k] = p->cur;
    return 1;
}

size_t nbi_pool_bytes(const nbi_pool *p)
{
    size_t n = p->ndir * sizeof *p->dir + (size_t)p->cap * (sizeof *p->owner + sizeof *p->gen);
    for (unsigned i = 0; i < p->narrays; i++)
        n += ((size_t)p->cap << p->shift) * p->esize[i];
    return n;
}
