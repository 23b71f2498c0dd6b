/* parallel.h: the bakes' units of work on threads (parallel.c), the
 * arenas their results live in (arena.c), and CRC-32 on threads
 * (crc32_threads.c).
 *
 * mkclear and mkabstract cut a bake into units whose results do not
 * depend on one another: bands of rows for clearance and components,
 * borders and clusters for the abstract graph.  Units are handed to the
 * threads in increasing order, each writes only its own result, and the
 * results are put together in unit order, so the bytes a bake writes do
 * not depend on the number of threads nor on which thread ran which unit.
 * An incremental bake runs the same units, only the dirty ones. */
#ifndef NB_PARALLEL_H
#define NB_PARALLEL_H

#include "bake_int.h"

/* The number of online CPUs (at least 1). */
unsigned nbb_threads_online(void);
/* threads, or the online CPUs when 0, at most NBB_MAX_THREADS. */
unsigned nbb_threads_resolve(unsigned threads);

/* One unit of work, run by worker (0 .. threads - 1: per-worker scratch
 * is indexed by it).  It fills err and returns its status on failure. */
typedef nb_status (*nbb_unit_fn)(void *ctx, size_t unit, unsigned worker, nb_err *err);

/* Runs fn on every unit of [0, n) with up to threads threads (the caller's
 * own included; 1 runs them all in the caller's thread, in order).  Once a
 * unit fails no unit above it starts; the failure of the lowest failing
 * unit is returned, with its message, as on one thread. */
nb_status nbb_par_for(unsigned threads, size_t n, nbb_unit_fn fn, void *ctx, nb_err *err);
/* The same, telling progress (may be NULL) the share of units begun, from
 * the caller's thread alone (a callback need not be thread-safe). */
nb_status nbb_par_for_progress(unsigned threads, size_t n, nbb_unit_fn fn, void *ctx,
                               const nbb_progress_part *progress, nb_err *err);

/* zlib's crc32(crc, p, len), chunks of the buffer on up to threads threads
 * (crc32_threads.c). */
uint32_t nbb_crc32_threads(uint32_t crc, const void *p, size_t len, unsigned threads);

/* An arena: many small blocks that live as long as the arena, carved from
 * large chunks, so that a unit's results (a cluster's nodes and edges) cost
 * no malloc each and are freed at once.  One arena per worker: it is not
 * shared between threads. */
typedef struct nbb_arena {
    struct nbb_chunk *chunk;
    size_t used, room; /* in the current chunk */
} nbb_arena;

/* n bytes aligned to 8, or NULL when out of memory. */
void *nbb_arena_alloc(nbb_arena *a, size_t n);
/* A copy of n bytes of src (NULL when out of memory; n may be 0). */
void *nbb_arena_copy(nbb_arena *a, const void *src, size_t n);
void nbb_arena_free(nbb_arena *a);

#endif
