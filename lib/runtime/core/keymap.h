/* keymap.h: a hash from 32-bit keys (a node's id) to 32-bit slots, for a
 * search whose node storage grows with what a query touches rather than
 * with the map (the subgoal search; formats/subgoal.md).  Internal.
 *
 * Open addressing with linear probing.  Every entry carries the
 * generation it was written in, so emptying the map for the next query is
 * one increment, not a clear of the table; the table doubles when it is
 * half full and keeps its size for the next query.  Memory comes from the
 * allocator given at init. */
#ifndef NB_KEYMAP_H
#define NB_KEYMAP_H

#include "core/base.h"

#define NBI_KEYMAP_NONE UINT32_MAX

typedef struct nbi_keymap_entry {
    uint32_t key, slot, gen;
} nbi_keymap_entry;

typedef struct nbi_keymap {
    const nb_allocator *a;
    nbi_keymap_entry *e;
    size_t cap;   /* a power of two, or 0 */
    size_t count; /* entries of this generation */
    uint32_t gen;
} nbi_keymap;

void nbi_keymap_init(nbi_keymap *m, const nb_allocator *a);
void nbi_keymap_free(nbi_keymap *m);
/* Forgets every entry, in O(1) (O(table) once in 2^32 calls). */
void nbi_keymap_clear(nbi_keymap *m);
/* The slot of key, or NBI_KEYMAP_NONE. */
uint32_t nbi_keymap_get(const nbi_keymap *m, uint32_t key);
/* Maps key (absent) to slot; 0 when out of memory (the map as it was). */
int nbi_keymap_put(nbi_keymap *m, uint32_t key, uint32_t slot);
/* Bytes it holds. */
static inline size_t nbi_keymap_bytes(const nbi_keymap *m) { return m->cap * sizeof *m->e; }

#endif
