/* test_heap.c: the heap pops in order against a sorted array, with and
 * without decrease-key, and never allocates within its reserve. */
#include <stdlib.h>

#include "core/heap.h"
#include "testutil.h"

static int cmp(const void *a, const void *b)
{
    const nbi_heap_item *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->tie != y->tie)
        return x->tie < y->tie ? -1 : 1;
    return 0;
}

int main(void)
{
    tu_rng r = {99};
    enum { N = 5000 };
    static nbi_heap_item ref[N];
    static uint32_t pos[N];
    nbi_heap h;
    for (int round = 0; round < 2; round++) {
        for (uint32_t i = 0; i < N; i++)
            pos[i] = NBI_HEAP_NONE;
        ok(nbi_heap_init(&h, NULL, N, round ? pos : NULL), "init (%s)", round ? "indexed" : "plain");
        nbi_heap_item *before = h.a;
        for (uint32_t i = 0; i < N; i++) {
            ref[i].key = (double)tu_below(&r, 100);
            ref[i].tie = (double)tu_below(&r, 10);
            ref[i].id = i;
            nbi_heap_push(&h, ref[i].key + (round ? 50 : 0), ref[i].tie, i);
        }
        if (round) /* decrease every key to its final value */
            for (uint32_t i = 0; i < N; i++)
                nbi_heap_push(&h, ref[i].key, ref[i].tie, i);
        ok(h.a == before && h.n == N, "%d pushes within the reserve do not reallocate", N);
        qsort(ref, N, sizeof ref[0], cmp);
        int sorted = 1;
        for (int i = 0; i < N; i++) {
            nbi_heap_item it = nbi_heap_pop(&h);
            sorted &= it.key == ref[i].key && it.tie == ref[i].tie;
            if (round)
                sorted &= pos[it.id] == NBI_HEAP_NONE;
        }
        ok(sorted && nbi_heap_empty(&h), "pops come in (key, tie) order%s", round ? " after decrease-key" : "");
        nbi_heap_free(&h);
    }
    /* Growth past the reserve. */
    nbi_heap_init(&h, NULL, 2, NULL);
    for (int i = 0; i < 100; i++)
        nbi_heap_push(&h, 100 - i, 0, (uint32_t)i);
    ok(h.n == 100 && nbi_heap_pop(&h).id == 99, "grows past its reserve when it must");
    nbi_heap_free(&h);
    return done_testing();
}
