/* queue.c: the open lists of the planner's searches, without decrease-key:
 * a node found cheaper is pushed again and its stale entries skipped when
 * they come out (the searches compare the tie, -g, with the node's).
 *
 * Directional A* pushes about seven entries a node it expands, and most
 * are never popped: their f lies above the path's cost.  Keeping them all
 * in one heap made every pop walk a heap of hundreds of thousands of
 * entries, far out of cache (a fifth of the search's time).  So only the
 * entries of the lowest band of keys are in the heap, a 4-ary min-heap of
 * (key, tie, node) whose children of a parent lie side by side; the others
 * wait unsorted in buckets of NBI_OPEN_WIDTH of a key each, and a bucket
 * is heaped when the heap runs dry and it is the lowest left.  Every entry
 * in the heap has a key below every waiting one, so the order is the one
 * heap's: the least (key, tie) first, whatever order the keys come in. */
#include <math.h>

#include "turning/planner.h"

#define MAX_BUCKETS 65536 /* keys past the last bucket's start wait in it */

int nbi_open_init(nbi_open *q, const nb_allocator *a, size_t cap)
{
    memset(q, 0, sizeof *q);
    q->cap = cap;
    q->alloc = a;
    q->a = nbi_alloc_array(a, cap, sizeof *q->a);
    return q->a != NULL;
}

void nbi_open_free(nbi_open *q)
{
    nbi_free(q->alloc, q->a);
    nbi_free(q->alloc, q->pool);
    nbi_free(q->alloc, q->head);
    memset(q, 0, sizeof *q);
}

void nbi_open_clear(nbi_open *q)
{
    for (size_t b = q->cur + 1; q->waiting && b <= q->top; b++)
        q->head[b] = 0;
    q->n = q->waiting = q->npool = 0;
    q->free = 0;
    q->cur = q->top = 0;
    q->based = 0;
}

size_t nbi_open_bytes(const nbi_open *q)
{
    return q->cap * sizeof *q->a + q->cappool * sizeof *q->pool + q->caphead * sizeof *q->head;
}

static inline int less(const nbi_heap_item *a, const nbi_heap_item *b)
{
    return a->key < b->key || (a->key == b->key && a->tie < b->tie);
}

static void sift_down(nbi_heap_item *h, size_t n, size_t i, nbi_heap_item it)
{
    for (;;) {
        size_t c = 4 * i + 1, best = c;
        if (c >= n)
            break;
        size_t end = c + 4 < n ? c + 4 : n;
        for (size_t k = c + 1; k < end; k++)
            if (less(&h[k], &h[best]))
                best = k;
        if (!less(&h[best], &it))
            break;
        h[i] = h[best];
        i = best;
    }
    h[i] = it;
}

static int heap_push(nbi_open *q, nbi_heap_item it)
{
    if (q->n == q->cap && !nbi_grow(q->alloc, (void **)&q->a, &q->cap, q->n + 1, sizeof *q->a))
        return 0;
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

/* The bucket of a key: 0 for the first key pushed since the clear. */
static inline size_t bucket(const nbi_open *q, double key)
{
    double t = (key - q->base) * (1.0 / NBI_OPEN_WIDTH);
    return t < 0 ? 0 : t < MAX_BUCKETS - 1 ? (size_t)t : MAX_BUCKETS - 1;
}

int nbi_open_push(nbi_open *q, double key, double tie, uint32_t id)
{
    nbi_heap_item it = {key, tie, id};
    if (!q->based) {
        q->base = key == key && key > -INFINITY && key < INFINITY ? key : 0;
        q->based = 1;
    }
    size_t b = bucket(q, key);
    if (b <= q->cur)
        return heap_push(q, it);
    if (b >= q->caphead) {
        size_t old = q->caphead;
        if (!nbi_grow(q->alloc, (void **)&q->head, &q->caphead, b + 1, sizeof *q->head))
            return 0;
        memset(q->head + old, 0, (q->caphead - old) * sizeof *q->head);
    }
    uint32_t e = q->free;
    if (e)
        q->free = q->pool[e - 1].next;
    else {
        if (q->npool >= UINT32_MAX ||
            !nbi_grow(q->alloc, (void **)&q->pool, &q->cappool, q->npool + 1, sizeof *q->pool))
            return 0;
        e = (uint32_t)++q->npool;
    }
    struct nbi_open_wait *w = &q->pool[e - 1];
    w->key = key;
    w->tie = tie;
    w->id = id;
    w->next = q->head[b];
    q->head[b] = e;
    q->waiting++;
    if (b > q->top)
        q->top = b;
    return 1;
}

/* Heaps the lowest waiting bucket (the heap is empty); 0 when out of
 * memory, the entries still waiting. */
static int refill(nbi_open *q)
{
    size_t b = q->cur + 1;
    while (!q->head[b])
        b++;
    size_t m = 0;
    for (uint32_t e = q->head[b]; e; e = q->pool[e - 1].next)
        m++;
    if (m > q->cap && !nbi_grow(q->alloc, (void **)&q->a, &q->cap, m, sizeof *q->a))
        return 0;
    m = 0;
    for (uint32_t e = q->head[b], next; e; e = next) {
        struct nbi_open_wait *w = &q->pool[e - 1];
        nbi_heap_item it = {w->key, w->tie, w->id};
        q->a[m++] = it;
        next = w->next;
        w->next = q->free;
        q->free = e;
    }
    q->head[b] = 0;
    q->waiting -= m;
    q->n = m;
    q->cur = b;
    for (size_t i = m > 1 ? (m - 2) / 4 + 1 : 0; i-- > 0;)
        sift_down(q->a, m, i, q->a[i]);
    return 1;
}

int nbi_open_pop(nbi_open *q, nbi_heap_item *out)
{
    if (!q->n && !refill(q))
        return 0;
    *out = q->a[0];
    nbi_heap_item it = q->a[--q->n];
    if (q->n)
        sift_down(q->a, q->n, 0, it);
    return 1;
}
