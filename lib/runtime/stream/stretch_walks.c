/* stretch_walks.c: the refined cells of a world HAA* query's stretches
 * between two nodes of the world graph (portals of one tile), kept by the
 * query's workspace so that the same stretch met again is a copy.  By the
 * profile (tests/bench/results/world-haa-bench.md) a stretch refined by its
 * tile's HAA* costs about 1.4 M instructions at tiles of 1024, 70 % of it the
 * abstract search inside the tile and 15 % the straightening; a copy costs a
 * few per cell.  A tile's contents are fixed by the world's index (a tile of
 * another digest is refused), so a stretch's walk holds for the workspace's
 * life under the same query flags; the caller keeps out overlays, repaired
 * tiles and the tests' other refiners.  The table grows (doubling) and is
 * kept; past NBI_WALKS_MAX_CELLS cells it is emptied and filled again in
 * the memory it holds, so it never grows past that. */
#include <string.h>

#include "stream/haa_world.h"

enum { EMPTY = 0 };

static uint64_t key_of(uint32_t u, uint32_t v) { return ((uint64_t)u << 32 | v) + 1; }

static size_t slot_of(uint64_t key, size_t mask)
{
    key *= 0x9e3779b97f4a7c15ull; /* Fibonacci hashing: the high bits spread */
    return (size_t)(key >> 32) & mask;
}

void nbi_walks_free(nbi_walks *k)
{
    nbi_free(k->a, k->key);
    nbi_free(k->a, k->off);
    nbi_free(k->a, k->len);
    nbi_free(k->a, k->cell);
    memset(k, 0, sizeof *k);
}

size_t nbi_walks_bytes(const nbi_walks *k)
{
    return k->slots * (sizeof *k->key + sizeof *k->off + sizeof *k->len) +
           k->ccap * sizeof *k->cell;
}

void nbi_walks_clear(nbi_walks *k)
{
    if (k->key)
        memset(k->key, 0, k->slots * sizeof *k->key);
    k->used = 0;
    k->cells = 0;
}

const nb_cell *nbi_walks_find(const nbi_walks *k, uint32_t u, uint32_t v, size_t *n)
{
    if (!k->used)
        return NULL;
    uint64_t key = key_of(u, v);
    for (size_t s = slot_of(key, k->slots - 1);; s = (s + 1) & (k->slots - 1)) {
        if (k->key[s] == EMPTY)
            return NULL;
        if (k->key[s] == key) {
            *n = k->len[s];
            return k->cell + k->off[s];
        }
    }
}

/* The slots doubled (at least 64), every walk placed again; 0 without memory. */
static int grow_slots(nbi_walks *k)
{
    size_t ns = k->slots ? 2 * k->slots : 64;
    uint64_t *key = nbi_zalloc_array(k->a, ns, sizeof *key);
    uint32_t *off = nbi_alloc_array(k->a, ns, sizeof *off);
    uint32_t *len = nbi_alloc_array(k->a, ns, sizeof *len);
    if (!key || !off || !len) {
        nbi_free(k->a, key);
        nbi_free(k->a, off);
        nbi_free(k->a, len);
        return 0;
    }
    for (size_t i = 0; i < k->slots; i++) {
        if (k->key[i] == EMPTY)
            continue;
        size_t s = slot_of(k->key[i], ns - 1);
        while (key[s] != EMPTY)
            s = (s + 1) & (ns - 1);
        key[s] = k->key[i], off[s] = k->off[i], len[s] = k->len[i];
    }
    nbi_free(k->a, k->key);
    nbi_free(k->a, k->off);
    nbi_free(k->a, k->len);
    k->key = key, k->off = off, k->len = len, k->slots = ns;
    return 1;
}

int nbi_walks_put(nbi_walks *k, uint32_t u, uint32_t v, const nb_cell *c, size_t n)
{
    if (n == 0 || n > NBI_WALKS_MAX_CELLS)
        return 1; /* kept out: refined again when met */
    if (k->cells + n > NBI_WALKS_MAX_CELLS)
        nbi_walks_clear(k);
    if (2 * (k->used + 1) > k->slots && !grow_slots(k))
        return 0;
    if (!nbi_grow(k->a, (void **)&k->cell, &k->ccap, k->cells + n, sizeof *k->cell))
        return 0;
    uint64_t key = key_of(u, v);
    size_t s = slot_of(key, k->slots - 1);
    while (k->key[s] != EMPTY && k->key[s] != key)
        s = (s + 1) & (k->slots - 1);
    k->used += k->key[s] == EMPTY;
    k->key[s] = key;
    k->off[s] = (uint32_t)k->cells;
    k->len[s] = (uint32_t)n;
    memcpy(k->cell + k->cells, c, n * sizeof *c);
    k->cells += n;
    return 1;
}
