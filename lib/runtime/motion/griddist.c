/* griddist.c: the obstacle-aware part of the motion heuristics: the
 * length of the shortest way from a cell to the goal's cell with the
 * model's steps and their sweeps on the real map, heading and speed
 * ignored.  Every motion path is such a way, and moves at most at the top
 * speed, so this length over the top speed is admissible; unlike the
 * perimeter table it knows the walls.  Computed lazily by a reverse
 * resumable A* (Silver, "Cooperative pathfinding", 2005): a backward A*
 * from the goal toward the search's start, resumed whenever the motion
 * search asks about a cell it has not closed yet. */
#include <math.h>

#include "motion/motion.h"

nb_status nbi_griddist_init(nbi_griddist *d, const nb_allocator *a, const nb_model *m,
                            const nbi_stand *stand, nb_err *err)
{
    memset(d, 0, sizeof *d);
    d->a = a;
    d->w = stand->w;
    d->h = stand->h;
    d->stand = stand;
    /* The distinct steps: a backward step of heading h is the forward step
     * of the opposite offset when the model has one (same cells swept). */
    int back = m->speed[0] < 0;
    d->back = back;
    for (unsigned k = 0; k < m->nheadings; k++)
        for (int sign = 1; sign >= (back ? -1 : 1); sign -= 2) {
            int dx = sign * m->dx[k], dy = sign * m->dy[k];
            unsigned i = 0;
            while (i < d->nmoves && !(d->mdx[i] == dx && d->mdy[i] == dy))
                i++;
            if (i == d->nmoves) {
                d->nmoves++;
                d->mdx[i] = dx;
                d->mdy[i] = dy;
                d->mlen[i] = m->len[k];
                d->msweep[i] = &m->sweep[k][0][0];
                d->mnsweep[i] = m->nsweep[k];
                d->msign[i] = sign;
            }
            d->move_of[sign < 0][k] = (uint8_t)i;
        }
    d->mwords = (d->nmoves + 63) / 64;
    int ok = nbi_mtile_pool(&d->pool, a, d->w, d->h, &d->tbits);
    nbi_pool_array(&d->pool, (void **)&d->dist, sizeof *d->dist, 0);
    nbi_pool_array(&d->pool, (void **)&d->stamp, sizeof *d->stamp, 1);
    nbi_pool_array(&d->pool, (void **)&d->known, 1, 1);
    nbi_pool_array(&d->pool, (void **)&d->legal, d->mwords * sizeof *d->legal, 0);
    if (!ok || !nbi_pool_reserve(&d->pool, 4) || !nbi_heap_init(&d->heap, a, 4096, NULL)) {
        nbi_griddist_free(d);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the grid heuristic of a %u x %u map",
                        d->w, d->h);
    }
    nbi_pool_begin(&d->pool);
    return NB_OK;
}

void nbi_griddist_free(nbi_griddist *d)
{
    nbi_pool_free(&d->pool);
    nbi_heap_free(&d->heap);
    d->dist = NULL;
    d->stamp = NULL;
    d->known = NULL;
    d->legal = NULL;
}

size_t nbi_griddist_bytes(const nbi_griddist *d)
{
    return nbi_pool_bytes(&d->pool) + nbi_heap_bytes(&d->heap);
}

/* The slot of (x, y) in the map, its tile's page claimed for this query
 * when it has none (a page taken from another tile forgets that tile's
 * legal moves); NBI_POOL_NONE when out of memory. */
static uint32_t slot_of(nbi_griddist *d, long x, long y)
{
    int fresh;
    uint32_t k = nbi_mtile_key(d->tbits, x, y), had = d->pool.dir[k];
    uint32_t pg = nbi_pool_page(&d->pool, k, &fresh);
    if (pg == NBI_POOL_NONE)
        return NBI_POOL_NONE;
    if (fresh && had != pg)
        memset(d->known + ((size_t)pg << (2 * NBI_MTILE)), 0, (size_t)1 << (2 * NBI_MTILE));
    return nbi_mtile_slot(pg, x, y);
}

static int open_cell(const nbi_griddist *d, long x, long y)
{
    return nbi_stand_at(d->stand, x, y);
}

static double toward(const nbi_griddist *d, long x, long y)
{
    double dx = (double)(x - d->tx), dy = (double)(y - d->ty);
    return sqrt(dx * dx + dy * dy);
}

void nbi_griddist_reset(nbi_griddist *d, long gx, long gy, long tx, long ty)
{
    if (d->gen >= UINT32_MAX / 2 - 1) {
        memset(d->stamp, 0, nbi_pool_slots(&d->pool) * sizeof *d->stamp);
        d->gen = 0;
    }
    d->gen++;
    nbi_pool_begin(&d->pool);
    nbi_heap_clear(&d->heap);
    d->gx = gx;
    d->gy = gy;
    d->tx = tx;
    d->ty = ty;
    d->exhausted = 0;
    d->expanded = 0;
    uint32_t sl = slot_of(d, gx, gy);
    if (sl == NBI_POOL_NONE) {
        d->exhausted = 1;
        return;
    }
    d->dist[sl] = 0;
    d->stamp[sl] = 2 * d->gen;
    if (!nbi_heap_push(&d->heap, toward(d, gx, gy), 0, (uint32_t)((size_t)gy * d->w + (size_t)gx)))
        d->exhausted = 1;
}

int nbi_move_legal(nbi_griddist *d, long x, long y, unsigned k)
{
    uint32_t sl = slot_of(d, x, y);
    if (sl == NBI_POOL_NONE)
        return 0; /* out of memory: the step is not taken */
    uint64_t *bits = d->legal + (size_t)sl * d->mwords;
    if (!d->known[sl]) {
        for (unsigned w = 0; w < d->mwords; w++)
            bits[w] = 0;
        for (unsigned j = 0; j < d->nmoves; j++) {
            int ok = 1;
            const int8_t *sw = d->msweep[j];
            for (unsigned c = 0; c < d->mnsweep[j] && ok; c++)
                ok = open_cell(d, x + d->msign[j] * sw[2 * c], y + d->msign[j] * sw[2 * c + 1]);
            if (ok)
                bits[j / 64] |= (uint64_t)1 << (j % 64);
        }
        d->known[sl] = 1;
    }
    return (int)(bits[k / 64] >> (k % 64) & 1);
}

double nbi_griddist_get(nbi_griddist *d, long x, long y)
{
    if (x < 0 || y < 0 || x >= (long)d->w || y >= (long)d->h)
        return INFINITY;
    uint32_t closed = 2 * d->gen + 1, pg = nbi_pool_find(&d->pool, nbi_mtile_key(d->tbits, x, y));
    if (pg != NBI_POOL_NONE && d->stamp[nbi_mtile_slot(pg, x, y)] == closed)
        return d->dist[nbi_mtile_slot(pg, x, y)];
    while (!d->exhausted) {
        if (nbi_heap_empty(&d->heap)) {
            d->exhausted = 1;
            break;
        }
        nbi_heap_item it = nbi_heap_pop(&d->heap);
        long cx = (long)(it.id % d->w), cy = (long)(it.id / d->w);
        uint32_t cs = slot_of(d, cx, cy); /* claimed when pushed: found */
        if (cs == NBI_POOL_NONE || d->stamp[cs] == closed)
            continue;
        d->stamp[cs] = closed;
        d->expanded++;
        double g = d->dist[cs];
        /* Cells p from which a step lands here: p = c - move, legal from p. */
        for (unsigned k = 0; k < d->nmoves; k++) {
            long px = cx - d->mdx[k], py = cy - d->mdy[k];
            if (!open_cell(d, px, py))
                continue;
            uint32_t ps = slot_of(d, px, py);
            if (ps == NBI_POOL_NONE) {
                d->exhausted = 1;
                break;
            }
            if (d->stamp[ps] == closed)
                continue;
            if (!nbi_move_legal(d, px, py, k))
                continue;
            double ng = g + d->mlen[k];
            if (d->stamp[ps] != 2 * d->gen || ng < d->dist[ps]) {
                d->stamp[ps] = 2 * d->gen;
                d->dist[ps] = ng;
                if (!nbi_heap_push(&d->heap, ng + toward(d, px, py), 0,
                                   (uint32_t)((size_t)py * d->w + (size_t)px))) {
                    d->exhausted = 1;
                    break;
                }
            }
        }
        if (cx == x && cy == y)
            return g;
    }
    pg = nbi_pool_find(&d->pool, nbi_mtile_key(d->tbits, x, y));
    return pg != NBI_POOL_NONE && d->stamp[nbi_mtile_slot(pg, x, y)] == closed
               ? d->dist[nbi_mtile_slot(pg, x, y)]
               : INFINITY;
}
