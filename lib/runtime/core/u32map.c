/* u32map.c: a generation-stamped open-addressing map (u32map.h). */
#include "core/u32map.h"

void nbi_u32map_init(nbi_u32map *m, const nb_allocator *a)
{
    memset(m, 0, sizeof *m);
    m->a = a;
    m->gen = 1;
}

void nbi_u32map_keep_low(nbi_u32map *m, unsigned bits) { m->low = bits <= 6 ? bits : 6; }

void nbi_u32map_free(nbi_u32map *m)
{
    nbi_free(m->a, m->e);
    m->e = NULL;
    m->cap = m->count = 0;
}

void nbi_u32map_clear(nbi_u32map *m)
{
    m->count = 0;
    if (++m->gen == 0) { /* once in 2^32 clears: no entry is of any generation */
        for (size_t i = 0; i < m->cap; i++)
            m->e[i].gen = 0;
        m->gen = 1;
    }
}

/* Puts key without a check of room. */
static void place(nbi_u32map *m, uint32_t key, uint32_t value)
{
    for (size_t i = nbi_u32map_slot_of(m, key);; i = (i + 1) & (m->cap - 1)) {
        nbi_u32map_entry *e = &m->e[i];
        if (e->gen != m->gen) {
            e->key = key;
            e->value = value;
            e->gen = m->gen;
            m->count++;
            return;
        }
        if (e->key == key) {
            e->value = value;
            return;
        }
    }
}

/* Room for cap entries (a power of two), the entries of this generation kept; 0 without
 * memory. */
static int resize(nbi_u32map *m, size_t cap)
{
    nbi_u32map_entry *e = nbi_zalloc_array(m->a, cap, sizeof *e);
    if (!e)
        return 0;
    nbi_u32map_entry *old = m->e;
    size_t ocap = m->cap;
    uint32_t gen = m->gen;
    m->e = e;
    m->cap = cap;
    m->count = 0;
    m->gen = 1;
    for (size_t i = 0; i < ocap; i++)
        if (old[i].gen == gen)
            place(m, old[i].key, old[i].value);
    nbi_free(m->a, old);
    return 1;
}

int nbi_u32map_reserve(nbi_u32map *m, size_t n)
{
    size_t cap = m->cap ? m->cap : 1024;
    while (cap < 2 * n)
        cap *= 2;
    return cap == m->cap || resize(m, cap);
}

int nbi_u32map_put(nbi_u32map *m, uint32_t key, uint32_t value)
{
    if (2 * (m->count + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1024;
        if (!resize(m, cap))
            return 0;
    }
    place(m, key, value);
    return 1;
}

int nbi_u32map_grow(nbi_u32map *m) { return resize(m, m->cap ? 2 * m->cap : 1024); }
