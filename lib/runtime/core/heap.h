/* heap.h: the binary min-heap every search uses (A*, Dijkstra, HAA*,
 * motion search, Directional A*, bitangent search).  Internal.
 *
 * Items are (key, tie, id): smallest key first, then smallest tie (give
 * tie = -g to prefer deeper nodes among equal f).  With a position array
 * (one uint32_t per id, all NBI_HEAP_NONE to start) the heap supports
 * decrease-key; without one, callers push duplicates and skip stale pops.
 * Memory is reserved up front: pushing within the reserve never allocates,
 * so a workspace made once serves every query. */
#ifndef NB_HEAP_H
#define NB_HEAP_H

#include "core/base.h"

#define NBI_HEAP_NONE UINT32_MAX

typedef struct nbi_heap_item {
    double key, tie;
    uint32_t id;
} nbi_heap_item;

typedef struct nbi_heap {
    nbi_heap_item *a;
    size_t n, cap;
    uint32_t *pos; /* pos[id] = index in a, or NBI_HEAP_NONE; may be NULL */
    const nb_allocator *alloc;
} nbi_heap;

/* Reserves room for cap items (0 is allowed), allocating with alloc (NULL:
 * the C library's); pos may be NULL.  Returns 0 when out of memory. */
int nbi_heap_init(nbi_heap *h, const nb_allocator *alloc, size_t cap, uint32_t *pos);
void nbi_heap_free(nbi_heap *h);
/* The bytes of the items it has room for (not the position array, which is
 * its owner's). */
static inline size_t nbi_heap_bytes(const nbi_heap *h) { return h->cap * sizeof *h->a; }
/* Empties the heap (resetting pos[] for the ids still in it). */
void nbi_heap_clear(nbi_heap *h);
static inline int nbi_heap_empty(const nbi_heap *h) { return h->n == 0; }
static inline const nbi_heap_item *nbi_heap_top(const nbi_heap *h) { return &h->a[0]; }
/* Inserts id, or with a position array lowers its key when id is already
 * in the heap with a larger one.  Grows past the reserve only when it
 * must; returns 0 when out of memory. */
int nbi_heap_push(nbi_heap *h, double key, double tie, uint32_t id);
/* Removes and returns the smallest item. The heap must not be empty. */
nbi_heap_item nbi_heap_pop(nbi_heap *h);
/* 1 when id is in the heap (position array required). */
static inline int nbi_heap_contains(const nbi_heap *h, uint32_t id) { return h->pos[id] != NBI_HEAP_NONE; }

/* Sorts n elements of size bytes in place, as qsort does, but allocating
 * nothing (glibc's qsort takes a buffer from malloc, past the caller's
 * allocator).  A heapsort: not stable. */
void nbi_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
