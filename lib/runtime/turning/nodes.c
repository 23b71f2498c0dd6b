/* nodes.c: the nodes of a planner's searches, made as a search reaches
 * them.  A block holds the node indices of 8 x 8 cells (every heading);
 * blocks are found through an open-addressing hash of their position, and
 * a node's children fall in one to four blocks, which the search looks up
 * once an expansion (nbi_nodes_block).  Clearing is a new generation: entries of older
 * ones read as empty, blocks and nodes are reused.  What grew is kept for
 * the next search, up to the cap the caller set. */
#include <math.h>

#include "turning/planner.h"

#define BSHIFT 3
#define BSIDE (1 << BSHIFT)

void nbi_nodes_init(nbi_nodes *s, const nb_allocator *a, unsigned K)
{
    memset(s, 0, sizeof *s);
    s->a = a;
    s->K = K;
    s->gen = 1;
    s->n = 1; /* node 0 is none: a block's slot of no node reads 0 */
    s->last_key = UINT64_MAX;
}

void nbi_nodes_free(nbi_nodes *s)
{
    nbi_free(s->a, s->node);
    for (size_t i = 0; i < s->capblocks; i++)
        nbi_free(s->a, s->blocks[i]);
    nbi_free(s->a, s->blocks);
    nbi_free(s->a, s->hash);
    nbi_nodes_init(s, s->a, s->K);
}

void nbi_nodes_clear(nbi_nodes *s)
{
    if (++s->gen == 0) {
        for (size_t i = 0; i < s->hcap; i++)
            s->hash[i].gen = 0;
        s->gen = 1;
    }
    s->n = 1;
    s->nblocks = 0;
    s->last_key = UINT64_MAX;
    s->full = s->nomem = 0;
}

size_t nbi_nodes_bytes(const nbi_nodes *s)
{
    return s->cap * sizeof *s->node + s->capb * sizeof *s->blocks +
           s->capblocks * (size_t)BSIDE * BSIDE * s->K * (sizeof **s->blocks + sizeof(double)) +
           s->hcap * sizeof *s->hash;
}

/* Fibonacci hashing: multiplied by 2^64 / phi, keys that differ in a few bits (neighbouring
 * blocks) land far apart; the product's bits from 32 up index the table. */
static inline size_t hash_of(uint64_t key, size_t hcap)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (hcap - 1);
}

static int rehash(nbi_nodes *s, size_t hcap)
{
    struct nbi_hslot *h = nbi_zalloc_array(s->a, hcap, sizeof *h);
    if (!h)
        return 0;
    for (size_t i = 0; i < s->hcap; i++)
        if (s->hash[i].gen == s->gen) {
            size_t j = hash_of(s->hash[i].key, hcap);
            while (h[j].gen)
                j = (j + 1) & (hcap - 1);
            h[j] = s->hash[i];
        }
    nbi_free(s->a, s->hash);
    s->hash = h;
    s->hcap = hcap;
    return 1;
}

static int fail(nbi_nodes *s, int nomem)
{
    s->full = 1;
    s->nomem |= nomem;
    return 0;
}

/* The block of key, made when create; UINT32_MAX when none. */
static uint32_t block_of(nbi_nodes *s, uint64_t key, int create)
{
    if (key == s->last_key)
        return s->last_block;
    size_t i = s->hcap ? hash_of(key, s->hcap) : 0;
    for (; s->hcap && s->hash[i].gen == s->gen; i = (i + 1) & (s->hcap - 1))
        if (s->hash[i].key == key) {
            s->last_key = key;
            return s->last_block = s->hash[i].block;
        }
    if (!create)
        return UINT32_MAX;
    size_t per = (size_t)BSIDE * BSIDE * s->K;
    if (s->nblocks == s->capblocks) {
        /* Each block its own allocation, so that pointers to blocks stay
         * valid while others are made; kept for the next search. */
        uint32_t *blk;
        if (!nbi_grow(s->a, (void **)&s->blocks, &s->capb, s->capblocks + 1, sizeof *s->blocks) ||
            !(blk = nbi_alloc_array(s->a, per, sizeof *blk + sizeof(double))))
            return fail(s, 1), UINT32_MAX;
        s->blocks[s->capblocks++] = blk;
    }
    if ((s->nblocks + 1) * 2 > s->hcap) { /* at most half full: linear probing stays short */
        if (!rehash(s, s->hcap ? 2 * s->hcap : 256))
            return fail(s, 1), UINT32_MAX;
        i = hash_of(key, s->hcap);
        while (s->hash[i].gen == s->gen)
            i = (i + 1) & (s->hcap - 1);
    }
    uint32_t b = (uint32_t)s->nblocks++;
    memset(s->blocks[b], 0, per * sizeof **s->blocks);
    double *g = nbi_block_g(s, s->blocks[b]);
    for (size_t k = 0; k < per; k++)
        g[k] = INFINITY;
    s->hash[i].key = key;
    s->hash[i].block = b;
    s->hash[i].gen = s->gen;
    s->last_key = key;
    return s->last_block = b;
}

static uint32_t make(nbi_nodes *s, long x, long y, unsigned k)
{
    if (s->max && s->n > s->max)
        return (uint32_t)fail(s, 0);
    if (s->n >= UINT32_MAX || !nbi_grow(s->a, (void **)&s->node, &s->cap, s->n + 1, sizeof *s->node))
        return (uint32_t)fail(s, 1);
    nbi_node *n = &s->node[s->n];
    n->g = INFINITY;
    n->h = 0;
    n->parent = 0;
    n->x = (int32_t)x;
    n->y = (int32_t)y;
    n->move = 0;
    n->k = (uint8_t)k;
    n->closed = 0;
    return (uint32_t)s->n++;
}

uint32_t nbi_nodes_get(nbi_nodes *s, long x, long y, unsigned k, int create, int *fresh)
{
    *fresh = 0;
    uint64_t key = (uint64_t)(y >> BSHIFT) << 32 | (uint64_t)(x >> BSHIFT);
    uint32_t b = block_of(s, key, create);
    if (b == UINT32_MAX)
        return 0;
    uint32_t *slot = s->blocks[b] + ((size_t)(y & (BSIDE - 1)) * BSIDE + (size_t)(x & (BSIDE - 1))) * s->K + k;
    if (*slot || !create)
        return *slot;
    uint32_t id = make(s, x, y, k);
    *slot = id;
    *fresh = id != 0;
    return id;
}

uint32_t nbi_nodes_extra(nbi_nodes *s, long x, long y) { return make(s, x, y, 0); }

uint32_t *nbi_nodes_block(nbi_nodes *s, long bx, long by, int create)
{
    uint32_t b = block_of(s, (uint64_t)by << 32 | (uint64_t)bx, create);
    return b == UINT32_MAX ? NULL : s->blocks[b];
}

uint32_t nbi_nodes_make(nbi_nodes *s, uint32_t *slot, long x, long y, unsigned k)
{
    return *slot = make(s, x, y, k);
}
