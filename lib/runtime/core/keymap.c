/* keymap.c: the hash of keymap.h. */
#include "core/keymap.h"

void nbi_keymap_init(nbi_keymap *m, const nb_allocator *a)
{
    memset(m, 0, sizeof *m);
    m->a = a;
    m->gen = 1;
}

void nbi_keymap_free(nbi_keymap *m)
{
    nbi_free(m->a, m->e);
    m->e = NULL;
    m->cap = m->count = 0;
}

void nbi_keymap_clear(nbi_keymap *m)
{
    m->count = 0;
    if (++m->gen == 0) {
        /* Once in 2^32 clears: no entry may look current. */
        for (size_t i = 0; i < m->cap; i++)
            m->e[i].gen = 0;
        m->gen = 1;
    }
}

/* Fibonacci hashing: consecutive ids spread over the table. */
static inline size_t home(const nbi_keymap *m, uint32_t key)
{
    return (size_t)((key * 2654435769u) & (uint32_t)(m->cap - 1));
}

uint32_t nbi_keymap_get(const nbi_keymap *m, uint32_t key)
{
    if (!m->cap)
        return NBI_KEYMAP_NONE;
    for (size_t i = home(m, key);; i = (i + 1) & (m->cap - 1)) {
        const nbi_keymap_entry *e = &m->e[i];
        if (e->gen != m->gen)
            return NBI_KEYMAP_NONE;
        if (e->key == key)
            return e->slot;
    }
}

static void insert(nbi_keymap *m, uint32_t key, uint32_t slot)
{
    size_t i = home(m, key);
    while (m->e[i].gen == m->gen)
        i = (i + 1) & (m->cap - 1);
    m->e[i].key = key;
    m->e[i].slot = slot;
    m->e[i].gen = m->gen;
    m->count++;
}

int nbi_keymap_put(nbi_keymap *m, uint32_t key, uint32_t slot)
{
    if (2 * (m->count + 1) > m->cap) {
        size_t ncap = m->cap ? 2 * m->cap : 64;
        if (ncap > (size_t)UINT32_MAX + 1 || ncap > SIZE_MAX / sizeof *m->e)
            return 0;
        nbi_keymap_entry *ne = nbi_zalloc_array(m->a, ncap, sizeof *ne);
        if (!ne)
            return 0;
        nbi_keymap_entry *old = m->e;
        size_t ocap = m->cap;
        m->e = ne;
        m->cap = ncap;
        m->count = 0;
        uint32_t g = m->gen;
        m->gen = 1;
        for (size_t i = 0; i < ocap; i++)
            if (old[i].gen == g)
                insert(m, old[i].key, old[i].slot);
        nbi_free(m->a, old);
    }
    insert(m, key, slot);
    return 1;
}
