/* The C library's allocation calls seen by a test: the test links with
 * -Wl,--wrap for each (Makefile.am), so a statically linked library's calls
 * come here first.  NB_TEST_WRAP_LIBC(SEEN) defines the six wrappers, each
 * running the statement SEEN (where the wrapper runs, so that
 * NBP_RETURN_ADDRESS() in it names the caller) before the real call. */
#ifndef NB_TEST_WRAP_LIBC_H
#define NB_TEST_WRAP_LIBC_H

#include <stddef.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
char *__real_strdup(const char *s);
void __real_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
char *__wrap_strdup(const char *s);
void __wrap_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* glibc's qsort takes a buffer from malloc for arrays of 1 KiB or more:
 * memory the caller's allocator never sees, hence its wrapper too. */
#define NB_TEST_WRAP_LIBC(SEEN)                                                                    \
    void *__wrap_malloc(size_t n)                                                                  \
    {                                                                                              \
        SEEN;                                                                                      \
        return __real_malloc(n);                                                                   \
    }                                                                                              \
    void *__wrap_calloc(size_t n, size_t size)                                                     \
    {                                                                                              \
        SEEN;                                                                                      \
        return __real_calloc(n, size);                                                             \
    }                                                                                              \
    void *__wrap_realloc(void *p, size_t n)                                                        \
    {                                                                                              \
        SEEN;                                                                                      \
        return __real_realloc(p, n);                                                               \
    }                                                                                              \
    void __wrap_free(void *p)                                                                      \
    {                                                                                              \
        SEEN;                                                                                      \
        __real_free(p);                                                                            \
    }                                                                                              \
    char *__wrap_strdup(const char *s)                                                             \
    {                                                                                              \
        SEEN;                                                                                      \
        return __real_strdup(s);                                                                   \
    }                                                                                              \
    void __wrap_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))   \
    {                                                                                              \
        SEEN;                                                                                      \
        __real_qsort(base, n, size, cmp);                                                          \
    }

#endif
