/* base.h: what every file of the runtime (and the bake side above it)
 * shares: status messages, little-endian fields, memory.  Internal; not
 * installed.
 *
 * Internal functions are named nbi_ so that libnavbake exports only the
 * public nb_ API (the link uses -export-symbols-regex '^nb_'). */
#ifndef NB_BASE_H
#define NB_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "navbake.h"
#include "port.h"

/* ---- errors (error.c) ----
 * Every public call that can fail returns a status and fills the caller's
 * nb_err (when given) with the same code and a message; on success it
 * clears it (nbi_ok), so that no old message is left behind. */

/* Fills err (when not NULL) and returns code. */
nb_status nbi_fail(nb_err *err, nb_status code, const char *fmt, ...) NBP_PRINTF(3, 4);
nb_status nbi_vfail(nb_err *err, nb_status code, const char *fmt, va_list ap);
/* Marks err as success. */
void nbi_ok(nb_err *err);
/* nbi_ok when st is NB_OK; returns st.  For the last line of a call. */
static inline nb_status nbi_done(nb_err *err, nb_status st)
{
    if (st == NB_OK)
        nbi_ok(err);
    return st;
}
/* Prepends "prefix: " to an error message already in err. */
void nbi_err_prefix(nb_err *err, const char *fmt, ...) NBP_PRINTF(2, 3);
/* The message of errno for a failed system call on path. */
nb_status nbi_fail_errno(nb_err *err, const char *what, const char *path);
/* "out of memory" for what, with NB_ERR_NOMEM. */
nb_status nbi_fail_nomem(nb_err *err, const char *what);

/* ---- the ABI guard (abi.c) ----
 * The public structs' numbers in nb_abi's list. */
#define NBI_ABI_ENUM_(t) NBI_ABI_##t,
enum { NB_ABI_STRUCTS(NBI_ABI_ENUM_) NBI_ABI_COUNT };
#undef NBI_ABI_ENUM_
/* NB_OK when the caller's header has the library's major version and
 * struct number i of the library's size: what a query _init must know
 * before it writes one (it has no nb_err to fill; the calls that open a
 * handle check every struct, with a message). */
nb_status nbi_abi_ok(const nb_abi *abi, unsigned i);
/* nb_abi_check of the n structs of a header's list (lnames, lsizes): the
 * bake library's guard (navbake_bake.h) is this one. */
nb_status nbi_abi_check_list(const nb_abi *abi, const char *header, const char *const *lnames,
                             const uint32_t *lsizes, size_t n, nb_err *err);

/* ---- what every query checks (query.c) ----
 * The same cause gets the same status from every family (navbake(3),
 * "Statuses"): each family checks in this order, with these calls.
 * family names the family in messages ("Annotated A*"); what the end
 * ("start", "goal", "point"). */
/* NB_ERR_ARG for size 0.  (These two are on every query's path: the test
 * inline, the message out of line.) */
nb_status nbi_query_size_fail(nb_err *err, const char *family);
static inline nb_status nbi_query_size(nb_err *err, const char *family, uint32_t size)
{
    return size >= 1 ? NB_OK : nbi_query_size_fail(err, family);
}
/* NB_ERR_OUTSIDE for a cell off a w x h map. */
nb_status nbi_query_cell_fail(nb_err *err, const char *family, const char *what, nb_cell c,
                              uint32_t w, uint32_t h);
static inline nb_status nbi_query_cell(nb_err *err, const char *family, const char *what,
                                       nb_cell c, uint32_t w, uint32_t h)
{
    return c.x >= 0 && c.y >= 0 && (uint32_t)c.x < w && (uint32_t)c.y < h
               ? NB_OK
               : nbi_query_cell_fail(err, family, what, c, w, h);
}
/* The grid families' queries (nb_aa_query, nb_haa_query, nb_sg_query) name
 * their common fields alike: the Annotated A* query of another's, for the
 * families that hand a query to Annotated A* (HAA* when a block cuts its
 * path, the optimal layer under an overlay, reachability). */
#define NBI_AA_QUERY_OF(aq, q)                                                                   \
    do {                                                                                         \
        nb_aa_query_init(aq);                                                                    \
        (aq)->start = (q)->start, (aq)->goal = (q)->goal, (aq)->size = (q)->size;                \
        (aq)->capability = (q)->capability, (aq)->corner = (q)->corner;                          \
        (aq)->max_expansions = (q)->max_expansions, (aq)->costs = (q)->costs;                    \
        (aq)->overlay = (q)->overlay;                                                            \
    } while (0)
/* NB_ERR_UNSUPPORTED: the family cannot honour what the query asks. */
nb_status nbi_query_unsupported(nb_err *err, const char *family, const char *what);

/* ---- memory (alloc.c) ----
 * Everything the runtime allocates goes through an nb_allocator; a NULL
 * allocator is the C library's.  The array forms refuse a count whose
 * byte size overflows (NULL, as when memory runs out). */
void *nbi_alloc(const nb_allocator *a, size_t size);
void *nbi_alloc_array(const nb_allocator *a, size_t count, size_t size);
/* Zeroed. */
void *nbi_zalloc_array(const nb_allocator *a, size_t count, size_t size);
void *nbi_realloc_array(const nb_allocator *a, void *p, size_t count, size_t size);
/* NULL is allowed. */
void nbi_free(const nb_allocator *a, void *p);
char *nbi_strdup(const nb_allocator *a, const char *s);
/* NB_ERR_ARG (naming fn) when a caller's allocator lacks a function. */
nb_status nbi_allocator_check(const nb_allocator *a, const char *fn, nb_err *err);
/* Grows an array of elements of size bytes to hold need of them
 * (doubling from 16); 0 when out of memory, the array as it was. */
int nbi_grow(const nb_allocator *a, void **array, size_t *cap, size_t need, size_t size);

/* ---- little-endian fields (every integer in a bundle; core/format.h) ---- */

static inline uint16_t nbi_get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t nbi_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t nbi_get64(const uint8_t *p)
{
    return (uint64_t)nbi_get32(p) | ((uint64_t)nbi_get32(p + 4) << 32);
}
static inline void nbi_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void nbi_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void nbi_put64(uint8_t *p, uint64_t v)
{
    nbi_put32(p, (uint32_t)v);
    nbi_put32(p + 4, (uint32_t)(v >> 32));
}
/* A real: IEEE 754 binary64, little-endian. */
static inline double nbi_getf64(const uint8_t *p)
{
    uint64_t v = nbi_get64(p);
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}
static inline void nbi_putf64(uint8_t *p, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    nbi_put64(p, v);
}
/* The i-th u32 or u16 of an array of them, read and written. */
static inline uint32_t nbi_u32at(const uint8_t *a, size_t i) { return nbi_get32(a + 4 * i); }
static inline uint16_t nbi_u16at(const uint8_t *a, size_t i) { return nbi_get16(a + 2 * i); }
static inline void nbi_put32at(uint8_t *a, size_t i, uint32_t v) { nbi_put32(a + 4 * i, v); }
static inline void nbi_put16at(uint8_t *a, size_t i, uint16_t v) { nbi_put16(a + 2 * i, v); }
/* The 8 bytes at p as a little-endian integer, in one load. */
static inline uint64_t nbi_load64le(const uint8_t *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
#if NBP_BIG_ENDIAN
    w = nbp_bswap64(w);
#endif
    return w;
}

#endif /* NB_BASE_H */
