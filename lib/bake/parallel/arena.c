/* arena.c: blocks carved from large chunks, freed all at once (parallel.h). */
#include <stdlib.h>

#include "parallel/parallel.h"

struct nbb_chunk {
    struct nbb_chunk *prev;
    size_t size;
    max_align_t data[]; /* size bytes */
};

#define CHUNK ((size_t)1 << 20)

void *nbb_arena_alloc(nbb_arena *a, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    if (n > a->room - a->used || !a->chunk) {
        size_t size = n > CHUNK / 4 ? n : CHUNK;
        struct nbb_chunk *c = nbb_malloc(sizeof *c + size);
        if (!c)
            return NULL;
        c->prev = a->chunk;
        c->size = size;
        a->chunk = c;
        a->used = 0;
        a->room = size;
    }
    void *p = (char *)a->chunk->data + a->used;
    a->used += n;
    return p;
}

void *nbb_arena_copy(nbb_arena *a, const void *src, size_t n)
{
    void *p = nbb_arena_alloc(a, n ? n : 1);
    if (p && n)
        memcpy(p, src, n);
    return p;
}

void nbb_arena_free(nbb_arena *a)
{
    while (a->chunk) {
        struct nbb_chunk *c = a->chunk;
        a->chunk = c->prev;
        nbb_free(c);
    }
    a->used = a->room = 0;
}
