/* u32map.h: a map from 32-bit keys to 32-bit values, for sets that are
 * small beside the key space (the cells of one path on a big map).
 * Open addressing with linear probing; every entry carries the generation
 * it was written in, so that emptying the map for the next query is one
 * increment.  It grows (doubling, at half full) and keeps what it grew.
 * Internal. */
#ifndef NB_U32MAP_H
#define NB_U32MAP_H

#include "core/base.h"

typedef struct nbi_u32map_entry {
    uint32_t key, value, gen;
} nbi_u32map_entry;

typedef struct nbi_u32map {
    const nb_allocator *a;
    nbi_u32map_entry *e;
    size_t cap, count; /* cap a power of two, or 0 */
    uint32_t gen;
    unsigned low;      /* low bits of a key kept in its slot (nbi_u32map_keep_low) */
} nbi_u32map;

void nbi_u32map_init(nbi_u32map *m, const nb_allocator *a);
void nbi_u32map_free(nbi_u32map *m);
/* Empties the map. */
void nbi_u32map_clear(nbi_u32map *m);
/* Keys that share all but their low `bits` bits go to one block of 2^bits slots, at the
 * place their low bits say (0 to 6; 0, the default: every key hashed whole).  For keys that
 * name cells by small tiles, so that a path's cells, which come tile by tile, share cache
 * lines.  Only on an empty map. */
void nbi_u32map_keep_low(nbi_u32map *m, unsigned bits);
/* Fibonacci hashing: the top bits of key (without its low bits kept) times 2^32 / phi. */
static inline size_t nbi_u32map_slot_of(const nbi_u32map *m, uint32_t key)
{
    if (!m->low) /* the subgoal search's hot loop: nothing more than it had */
        return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15u) >> 32) & (m->cap - 1);
    size_t h = (size_t)(((uint64_t)(key >> m->low) * 0x9E3779B97F4A7C15u) >> 32);
    return ((h << m->low) | (key & ((1u << m->low) - 1))) & (m->cap - 1);
}
/* The value of key, or 0 (and *found 0) when it has none.  Inline: the
 * searches that use the map look a key up for every edge they relax. */
static inline uint32_t nbi_u32map_get(const nbi_u32map *m, uint32_t key, int *found)
{
    *found = 0;
    if (!m->cap)
        return 0;
    for (size_t i = nbi_u32map_slot_of(m, key);; i = (i + 1) & (m->cap - 1)) {
        const nbi_u32map_entry *e = &m->e[i];
        if (e->gen != m->gen)
            return 0;
        if (e->key == key) {
            *found = 1;
            return e->value;
        }
    }
}
/* Makes room for n keys now; 0 when out of memory. */
int nbi_u32map_reserve(nbi_u32map *m, size_t n);
/* Doubles the map's room (for nbi_u32map_slot); 0 when out of memory. */
int nbi_u32map_grow(nbi_u32map *m);
/* The value of key, made (0, *found 0) when it has none, for a caller that sets it: one probe
 * where a get and a put take two; NULL when out of memory.  Inline: HAA* asks it for every
 * cell of a path. */
static inline uint32_t *nbi_u32map_slot(nbi_u32map *m, uint32_t key, int *found)
{
    if (2 * (m->count + 1) > m->cap && !nbi_u32map_grow(m))
        return NULL;
    for (size_t i = nbi_u32map_slot_of(m, key);; i = (i + 1) & (m->cap - 1)) {
        nbi_u32map_entry *e = &m->e[i];
        if (e->gen != m->gen) {
            e->key = key;
            e->value = 0;
            e->gen = m->gen;
            m->count++;
            *found = 0;
            return &e->value;
        }
        if (e->key == key) {
            *found = 1;
            return &e->value;
        }
    }
}
/* Sets the value of key; 0 when out of memory. */
int nbi_u32map_put(nbi_u32map *m, uint32_t key, uint32_t value);
static inline size_t nbi_u32map_bytes(const nbi_u32map *m) { return m->cap * sizeof *m->e; }

#endif
