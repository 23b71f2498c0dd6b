/* pool.h: node storage that grows with what a search touches, not with
 * the map or graph it searches (Detour's node pool, in pages).  Internal.
 *
 * Keys (the cells of a map, the nodes of a graph) are grouped in pages of
 * 2^shift by a page key the caller chooses: a tile of 32 x 32 cells, or
 * 1024 consecutive node ids.  A directory (4 bytes per page key) gives the
 * page holding a page key's storage; storage is the caller's parallel
 * arrays (stamps, costs, heap positions...), registered here and indexed
 * by slot = page << shift | offset, which the pool grows together.
 *
 * Each search claims the pages it touches (nbi_pool_begin starts one).  A
 * page claimed by an earlier search keeps its data and its place in the
 * directory, so a later search over the same ground reuses it as it is; a
 * page key without one takes a page no earlier search claimed yet, else
 * one the current search has not claimed (stolen from its old key), and
 * only when every page is the current search's does the pool grow.  So
 * the pool holds about what the largest single search touched, whatever
 * the map's size, and a search never clears storage it does not touch.
 * Data a stolen or reused page held belongs to another search: callers
 * that stamp their nodes with a search id ignore it, others reset a page
 * when it is claimed fresh. */
#ifndef NB_POOL_H
#define NB_POOL_H

#include "core/base.h"

#define NBI_POOL_NONE UINT32_MAX
#define NBI_POOL_MAX_ARRAYS 8

typedef struct nbi_pool {
    const nb_allocator *a;
    unsigned shift;       /* slots per page: 1 << shift */
    uint32_t *dir;        /* per page key: its page, or NBI_POOL_NONE */
    size_t ndir;
    uint32_t *owner;      /* per page: its page key */
    uint32_t *gen;        /* per page: the search that claimed it last */
    uint32_t npages;      /* pages in use (0 .. npages-1 have an owner) */
    uint32_t cap;         /* pages the arrays have room for */
    uint32_t max_pages;   /* 0: no cap; else the pages one search may claim */
    uint32_t cur;         /* the current search */
    uint32_t cursor;      /* where the search looks for a page to steal next */
    int failed;           /* the last claim ran out of memory (not the cap) */
    int flat;             /* page k is page key k's, for every key (nbi_pool_flat) */
    int no_flat;          /* tests: nbi_pool_flat declines, so that the paged code runs */
    unsigned narrays;
    void **array[NBI_POOL_MAX_ARRAYS];
    size_t esize[NBI_POOL_MAX_ARRAYS];
    int zero[NBI_POOL_MAX_ARRAYS];
    uint32_t claimed;     /* pages the current search holds (the cap counts these, not the
                             pages earlier searches left in the pool) */
} nbi_pool;

/* An empty pool for ndir page keys, pages of 2^shift slots, allocating
 * with a; returns 0 when out of memory (nbi_pool_free is then safe). */
int nbi_pool_init(nbi_pool *p, const nb_allocator *a, size_t ndir, unsigned shift);
/* Registers the caller's array *arr (NULL until the pool grows it) of
 * esize-byte elements per slot; with zero, a page's elements are zeroed
 * when the page is first used (stamps that must match no search). */
void nbi_pool_array(nbi_pool *p, void **arr, size_t esize, int zero);
/* Makes room for pages pages now, touching the memory so that a first
 * search does not pay for it; 0 when out of memory. */
int nbi_pool_reserve(nbi_pool *p, uint32_t pages);
/* Frees the directory, the page tables and every registered array. */
void nbi_pool_free(nbi_pool *p);

/* Starts a search: no page is claimed by it yet. */
void nbi_pool_begin(nbi_pool *p);

/* The page of page key k for the current search, claiming one when it
 * must; *fresh is 1 when the page holds nothing of this search (newly
 * claimed).  NBI_POOL_NONE when no page can be had: the cap (max_pages)
 * is reached, or memory ran out (p->failed).  Registered arrays may move
 * when the pool grows: reload them after a claim. */
uint32_t nbi_pool_claim(nbi_pool *p, uint32_t k, int *fresh);
static inline uint32_t nbi_pool_page(nbi_pool *p, uint32_t k, int *fresh)
{
    uint32_t pg = p->dir[k];
    if (pg != NBI_POOL_NONE && p->gen[pg] == p->cur) {
        *fresh = 0;
        return pg;
    }
    return nbi_pool_claim(p, k, fresh);
}
/* The page of k if the current search claimed one, else NBI_POOL_NONE;
 * claims nothing. */
static inline uint32_t nbi_pool_find(const nbi_pool *p, uint32_t k)
{
    uint32_t pg = k < p->ndir ? p->dir[k] : NBI_POOL_NONE;
    return pg != NBI_POOL_NONE && p->gen[pg] == p->cur ? pg : NBI_POOL_NONE;
}

/* When the pool already has room for every page key's page (cap >= ndir: a small graph),
 * gives page k to page key k, for every key, claimed for the current search, and returns 1:
 * slot and key are then the same number, and the caller may index its arrays by key with no
 * look-up (the pool never claims or steals again).  Else 0, nothing done.  It takes no memory
 * the pool did not hold already.  Call it after nbi_pool_begin. */
int nbi_pool_flat(nbi_pool *p);

/* Bytes held: the directory, the page tables and the arrays. */
size_t nbi_pool_bytes(const nbi_pool *p);
/* Slots in use: npages << shift (for clearing stamps on a wrap). */
static inline size_t nbi_pool_slots(const nbi_pool *p) { return (size_t)p->npages << p->shift; }

#endif
