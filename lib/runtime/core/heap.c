/* heap.c: see heap.h. */
#include "core/heap.h"

static inline int less(const nbi_heap_item *a, const nbi_heap_item *b)
{
    return a->key < b->key || (a->key == b->key && a->tie < b->tie);
}

int nbi_heap_init(nbi_heap *h, const nb_allocator *alloc, size_t cap, uint32_t *pos)
{
    h->n = 0;
    h->cap = cap ? cap : 16;
    h->pos = pos;
    h->alloc = alloc;
    h->a = nbi_alloc_array(alloc, h->cap, sizeof *h->a);
    return h->a != NULL;
}

void nbi_heap_free(nbi_heap *h)
{
    nbi_free(h->alloc, h->a);
    h->a = NULL;
    h->n = h->cap = 0;
}

void nbi_heap_clear(nbi_heap *h)
{
    if (h->pos)
        for (size_t i = 0; i < h->n; i++)
            h->pos[h->a[i].id] = NBI_HEAP_NONE;
    h->n = 0;
}

static void place(nbi_heap *h, size_t i, nbi_heap_item it)
{
    h->a[i] = it;
    if (h->pos)
        h->pos[it.id] = (uint32_t)i;
}

static void sift_up(nbi_heap *h, size_t i, nbi_heap_item it)
{
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!less(&it, &h->a[p]))
            break;
        place(h, i, h->a[p]);
        i = p;
    }
    place(h, i, it);
}

static void sift_down(nbi_heap *h, size_t i, nbi_heap_item it)
{
    size_t n = h->n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && less(&h->a[c + 1], &h->a[c]))
            c++;
        if (!less(&h->a[c], &it))
            break;
        place(h, i, h->a[c]);
        i = c;
    }
    place(h, i, it);
}

int nbi_heap_push(nbi_heap *h, double key, double tie, uint32_t id)
{
    nbi_heap_item it = {key, tie, id};
    if (h->pos && h->pos[id] != NBI_HEAP_NONE) {
        size_t i = h->pos[id];
        if (less(&it, &h->a[i]))
            sift_up(h, i, it);
        return 1;
    }
    if (h->n == h->cap) {
        size_t ncap = h->cap * 2;
        nbi_heap_item *a = nbi_realloc_array(h->alloc, h->a, ncap, sizeof *a);
        if (!a)
            return 0;
        h->a = a;
        h->cap = ncap;
    }
    sift_up(h, h->n++, it);
    return 1;
}

nbi_heap_item nbi_heap_pop(nbi_heap *h)
{
    nbi_heap_item top = h->a[0];
    if (h->pos)
        h->pos[top.id] = NBI_HEAP_NONE;
    if (--h->n > 0)
        sift_down(h, 0, h->a[h->n]);
    return top;
}

static void swap_bytes(unsigned char *a, unsigned char *b, size_t size)
{
    while (size--) {
        unsigned char t = *a;
        *a++ = *b;
        *b++ = t;
    }
}

/* Moves element root of the n-element heap at base down to its place: a max-heap, unlike the
 * one above, so that the sort can move its top to the end. */
static void sift_down_bytes(unsigned char *base, size_t root, size_t n, size_t size,
                            int (*cmp)(const void *, const void *))
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size) < 0)
            child++;
        if (cmp(base + root * size, base + child * size) >= 0)
            return;
        swap_bytes(base + root * size, base + child * size, size);
        root = child;
    }
}

void nbi_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    unsigned char *p = base;
    if (n < 2)
        return;
    for (size_t i = n / 2; i-- > 0;)
        sift_down_bytes(p, i, n, size, cmp);
    for (size_t end = n - 1; end > 0; end--) {
        swap_bytes(p, p + end * size, size);
        sift_down_bytes(p, 0, end, size, cmp);
    }
}
