/* sort.c: a stable merge sort whose buffer comes from nbb_malloc (bake.h:
 * nbb_sort).  glibc's qsort is a merge sort too, with a buffer from the C
 * library's malloc; this one gives the same order (a stable sort has one
 * answer) from the bake's allocator, and says when there is no memory. */
#include <string.h>

#include "bake.h"

typedef int (*cmp_fn)(const void *, const void *);

static void msort(unsigned char *b, size_t n, size_t s, cmp_fn cmp, unsigned char *tmp)
{
    if (n <= 1)
        return;
    size_t n1 = n / 2, n2 = n - n1;
    unsigned char *b1 = b, *b2 = b + n1 * s, *t = tmp;
    msort(b1, n1, s, cmp, tmp);
    msort(b2, n2, s, cmp, tmp);
    while (n1 > 0 && n2 > 0) {
        if (cmp(b1, b2) <= 0) {
            memcpy(t, b1, s);
            b1 += s;
            n1--;
        } else {
            memcpy(t, b2, s);
            b2 += s;
            n2--;
        }
        t += s;
    }
    if (n1 > 0)
        memcpy(t, b1, n1 * s);
    memcpy(b, tmp, (n - n2) * s);
}

int nbb_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n < 2 || size == 0)
        return 1;
    unsigned char small[1024];
    unsigned char *tmp = small;
    if (n > sizeof small / size) {
        if (n > SIZE_MAX / size || !(tmp = nbb_malloc(n * size)))
            return 0;
    }
    msort(base, n, size, cmp, tmp);
    if (tmp != small)
        nbb_free(tmp);
    return 1;
}
