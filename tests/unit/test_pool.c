/* test_pool.c: the node pool's count of the pages a search claimed
 * (core/pool.c), which its cap (max_pages) reads, against the pages the
 * test itself saw taken; with an allocator that hands out memory already
 * holding the search number the pool is about to use, so that a page's
 * generation left uninitialised when the pool grows would pass for the
 * current search's and not be counted. */
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "testutil.h"

/* Fresh bytes hold the u32 1 (the first search's number) in every word. */
static void fill(unsigned char *b, size_t from, size_t to)
{
    const uint32_t one = 1;
    for (size_t i = from; i < to; i++)
        b[i] = ((const unsigned char *)&one)[i % 4];
}

typedef struct hdr {
    size_t size;
    size_t pad;
} hdr;

static void *dirty_alloc(void *opaque, size_t size)
{
    (void)opaque;
    hdr *h = malloc(sizeof *h + size);
    if (!h)
        return NULL;
    h->size = size;
    fill((unsigned char *)(h + 1), 0, size);
    return h + 1;
}

static void *dirty_realloc(void *opaque, void *ptr, size_t size)
{
    if (!ptr)
        return dirty_alloc(opaque, size);
    hdr *old = (hdr *)ptr - 1;
    size_t had = old->size;
    hdr *h = realloc(old, sizeof *h + size);
    if (!h)
        return NULL;
    h->size = size;
    if (size > had)
        fill((unsigned char *)(h + 1), had, size);
    return h + 1;
}

static void dirty_free(void *opaque, void *ptr)
{
    (void)opaque;
    if (ptr)
        free((hdr *)ptr - 1);
}

int main(void)
{
    nb_allocator a = {dirty_alloc, dirty_realloc, dirty_free, NULL};
    enum { KEYS = 64 };
    nbi_pool p;
    uint32_t *cost = NULL;
    ok(nbi_pool_init(&p, &a, KEYS, 4), "a pool of %d page keys", KEYS);
    nbi_pool_array(&p, (void **)&cost, sizeof *cost, 1);
    /* Search 1 claims 40 keys (the pool grows from nothing several times),
     * search 2 claims 10 of them again and 10 new ones. */
    const unsigned want[2] = {40, 20};
    for (int s = 0; s < 2; s++) {
        nbi_pool_begin(&p);
        unsigned taken = 0, none = 0;
        for (uint32_t k = 0; k < (s ? 20u : 40u); k++) {
            uint32_t key = s ? (k < 10 ? k : 40 + k) : k;
            int fresh = 0;
            uint32_t pg = nbi_pool_claim(&p, key, &fresh);
            if (pg == NBI_POOL_NONE)
                none++;
            else
                taken++;
        }
        is_int(none, 0, "search %d: every key had a page", s + 1);
        is_int(p.claimed, want[s], "search %d: the pool counts the %u pages it claimed", s + 1,
               taken);
    }
    /* The cap: a third search may claim 8 pages and no more. */
    nbi_pool_begin(&p);
    p.max_pages = 8;
    unsigned got = 0;
    for (uint32_t k = 0; k < KEYS; k++) {
        int fresh = 0;
        got += nbi_pool_claim(&p, k, &fresh) != NBI_POOL_NONE;
    }
    is_int(got, 8, "under a cap of 8 pages, 8 keys get one");
    nbi_pool_free(&p);
    return done_testing();
}
