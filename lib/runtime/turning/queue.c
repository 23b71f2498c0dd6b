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
 * is heaped when the heap runs dry and it is the lowest left.  A bucket is
 * a list of chunks of entries side by side, not of single entries: read
 * back, a list of entries went from one cache miss to the next.  Every entry
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
    nbi_free(q->alloc, q->chunk);
    nbi_free(q->alloc, q->head);
    memset(q, 0, sizeof *q);
}

void nbi_open_clear(nbi_open *q)
{
    for (size_t b = q->cur + 1; q->waiting && b <= q->top; b++)
        q->head[b] = 0;
    q->n = q->waiting = q->nchunk = 0;
    q->free = 0;
    q->cur = q->top = 0;
    q->based = 0;
}

size_t nbi_open_bytes(const nbi_open *q)
{
    return q->cap * sizeof *q->a + q->capchunk * sizeof *q->chunk + q->caphead * sizeof *q->head;
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
    if (!q->based) {
        /* The first key, when finite (key == key is false for a NaN), is bucket 0's start. */
        q->base = key == key && key > -INFINITY && key < INFINITY ? key : 0;
        q->based = 1;
    }
    size_t b = bucket(q, key);
    if (b <= q->cur) {
        nbi_heap_item it = {key, tie, id};
        return heap_push(q, it);
    }
    if (b >= q->caphead) {
        size_t old = q->caphead;
        if (!nbi_grow(q->alloc, (void **)&q->head, &q->caphead, b + 1, sizeof *q->head))
            return 0;
        memset(q->head + old, 0, (q->caphead - old) * sizeof *q->head);
    }
    uint32_t c = q->head[b];
    if (!c || q->chunk[c - 1].n == NBI_OPEN_CHUNK) {
        /* A new chunk in front of the bucket's others. */
        uint32_t f = q->free;
        if (f)
            q->free = q->chunk[f - 1].next;
        else {
            if (q->nchunk >= UINT32_MAX ||
                !nbi_grow(q->alloc, (void **)&q->chunk, &q->capchunk, q->nchunk + 1, sizeof *q->chunk))
                return 0;
            f = (uint32_t)++q->nchunk;
        }
        q->chunk[f - 1].next = c;
        q->chunk[f - 1].n = 0;
        q->head[b] = c = f;
    }
    struct nbi_open_chunk *k = &q->chunk[c - 1];
    k->key[k->n] = key;
    k->tie[k->n] = tie;
    k->id[k->n++] = id;
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
    for (uint32_t c = q->head[b]; c; c = q->chunk[c - 1].next)
        m += q->chunk[c - 1].n;
    if (m > q->cap && !nbi_grow(q->alloc, (void **)&q->a, &q->cap, m, sizeof *q->a))
        return 0;
    size_t all = m;
    m = 0;
    for (uint32_t c = q->head[b], next; c; c = next) {
        struct nbi_open_chunk *k = &q->chunk[c - 1];
        if (q->nodes)
            for (uint32_t i = 0; i < k->n; i++)
                NBP_PREFETCH(nbi_nodes_at(q->nodes, k->id[i]));
        for (uint32_t i = 0; i < k->n; i++) {
            const nbi_node *nd = q->nodes ? nbi_nodes_at(q->nodes, k->id[i]) : NULL;
            if (nd && (nd->closed || nd->g != -k->tie[i]))
                continue; /* stale: never to be heaped */
            q->a[m].key = k->key[i];
            q->a[m].tie = k->tie[i];
            q->a[m].id = k->id[i];
            m++;
        }
        next = k->next;
        k->next = q->free;
        q->free = c;
    }
    q->head[b] = 0;
    q->waiting -= all;
    q->n = m;
    q->cur = b;
    /* Floyd's heap construction: every parent sifted down, from the last, the parent of
     * entry m - 1 at (m - 2) / 4, to the root. */
    for (size_t i = m > 1 ? (m - 2) / 4 + 1 : 0; i-- > 0;)
        sift_down(q->a, m, i, q->a[i]);
    return 1;
}

int nbi_open_pop(nbi_open *q, nbi_heap_item *out)
{
    while (!q->n) {
        if (!q->waiting)
            return 0;
        if (!refill(q))
            return -1;
    }
    *out = q->a[0];
    nbi_heap_item it = q->a[--q->n];
    if (q->n)
        sift_down(q->a, q->n, 0, it);
    return 1;
}
