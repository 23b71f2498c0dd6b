/* countalloc.c: the counting allocator (countalloc.h).  Each block carries
 * its size in a header of its own, so that free and realloc know it. */
#include <stdlib.h>

#include "countalloc.h"

/* The header: room for the size, aligned for anything. */
typedef union head {
    size_t size;
    max_align_t align;
} head;

static void *count_alloc(void *opaque, size_t size)
{
    tc_count *c = opaque;
    if (c->fail_size && size == c->fail_size)
        return NULL;
    head *h = size <= SIZE_MAX - sizeof *h ? malloc(sizeof *h + size) : NULL;
    if (!h)
        return NULL;
    h->size = size;
    c->live += size;
    c->allocs++;
    if (c->live > c->peak)
        c->peak = c->live;
    return h + 1;
}

static void count_free(void *opaque, void *p)
{
    tc_count *c = opaque;
    if (!p)
        return;
    head *h = (head *)p - 1;
    c->live -= h->size;
    free(h);
}

static void *count_realloc(void *opaque, void *p, size_t size)
{
    tc_count *c = opaque;
    if (!p)
        return count_alloc(opaque, size);
    if (c->fail_size && size == c->fail_size)
        return NULL;
    head *h = (head *)p - 1;
    size_t old = h->size;
    head *n = size <= SIZE_MAX - sizeof *n ? realloc(h, sizeof *n + size) : NULL;
    if (!n)
        return NULL;
    n->size = size;
    c->live = c->live - old + size;
    c->allocs++;
    if (c->live > c->peak)
        c->peak = c->live;
    return n + 1;
}

void tc_init(tc_count *c, nb_allocator *a)
{
    c->live = c->peak = c->allocs = c->fail_size = 0;
    a->alloc = count_alloc;
    a->realloc = count_realloc;
    a->free = count_free;
    a->opaque = c;
}

void tc_mark(tc_count *c)
{
    c->peak = c->live;
    c->allocs = 0;
}

size_t tc_grown(const tc_count *c, size_t at_mark) { return c->peak > at_mark ? c->peak - at_mark : 0; }
