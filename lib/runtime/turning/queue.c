/* queue.c: the open lists of the planner's searches, a 4-ary min-heap of
 * (key, tie, node) without decrease-key: a node found cheaper is pushed
 * again and its stale entries skipped when they come out (the searches
 * compare the tie, -g, with the node's).  Four children to a parent halve
 * the depth of core/heap.c's binary heap, and the children of a parent lie
 * side by side: Directional A* pushes about ten entries a node expanded,
 * and popping them was a fifth of its time. */
#include "turning/planner.h"

int nbi_open_init(nbi_open *q, const nb_allocator *a, size_t cap)
{
    q->n = 0;
    q->cap = cap;
    q->alloc = a;
    q->a = nbi_alloc_array(a, cap, sizeof *q->a);
    return q->a != NULL;
}

void nbi_open_free(nbi_open *q)
{
    nbi_free(q->alloc, q->a);
    q->a = NULL;
    q->n = q->cap = 0;
}

static inline int less(const nbi_heap_item *a, const nbi_heap_item *b)
{
    return a->key < b->key || (a->key == b->key && a->tie < b->tie);
}

int nbi_open_push(nbi_open *q, double key, double tie, uint32_t id)
{
    if (q->n == q->cap && !nbi_grow(q->alloc, (void **)&q->a, &q->cap, q->n + 1, sizeof *q->a))
        return 0;
    nbi_heap_item it = {key, tie, id};
    size_t i = q->n++;
    while (i > 0) {
        size_t p = (i - 1) / 4;
        if (!less(&it, &q->a[p]))
            break;
        q->a[i] = q->a[p];
        i = p;
    }
    q->a[i] = it;
    return 1;
}

nbi_heap_item nbi_open_pop(nbi_open *q)
{
    nbi_heap_item top = q->a[0], it = q->a[--q->n];
    size_t n = q->n, i = 0;
    for (;;) {
        size_t c = 4 * i + 1, best = c;
        if (c >= n)
            break;
        size_t end = c + 4 < n ? c + 4 : n;
        for (size_t k = c + 1; k < end; k++)
            if (less(&q->a[k], &q->a[best]))
                best = k;
        if (!less(&q->a[best], &it))
            break;
        q->a[i] = q->a[best];
        i = best;
    }
    if (n)
        q->a[i] = it;
    return top;
}
