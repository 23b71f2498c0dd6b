/* alloc.c: the runtime's memory, through the caller's allocator or the C
 * library's (navbake.h: nb_allocator). */
#include <stdlib.h>

#include "core/base.h"

void *nbi_alloc(const nb_allocator *a, size_t size)
{
    if (size == 0)
        size = 1;
    return a ? a->alloc(a->opaque, size) : malloc(size);
}

void *nbi_alloc_array(const nb_allocator *a, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return nbi_alloc(a, count * size);
}

void *nbi_zalloc_array(const nb_allocator *a, size_t count, size_t size)
{
    void *p = nbi_alloc_array(a, count, size);
    size_t n = count * size;
    if (p)
        memset(p, 0, n ? n : 1);
    return p;
}

void *nbi_realloc_array(const nb_allocator *a, void *p, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    size_t n = count * size;
    if (n == 0)
        n = 1;
    return a ? a->realloc(a->opaque, p, n) : realloc(p, n);
}

void nbi_free(const nb_allocator *a, void *p)
{
    if (!p)
        return;
    if (a)
        a->free(a->opaque, p);
    else
        free(p);
}

char *nbi_strdup(const nb_allocator *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = nbi_alloc(a, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

int nbi_grow(const nb_allocator *a, void **array, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return 0;
        ncap *= 2;
    }
    void *q = nbi_realloc_array(a, *array, ncap, size);
    if (!q)
        return 0;
    *array = q;
    *cap = ncap;
    return 1;
}

nb_status nbi_allocator_check(const nb_allocator *a, const char *fn, nb_err *err)
{
    if (a && (!a->alloc || !a->realloc || !a->free))
        return nbi_fail(err, NB_ERR_ARG, "%s: the allocator lacks its %s function", fn,
                        !a->alloc ? "alloc" : !a->realloc ? "realloc" : "free");
    return NB_OK;
}
