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

nb_status nbi_griddist_init(nbi_griddist *d, const nb_allocator *a, const nb_model *m, uint32_t w,
                            uint32_t h, const uint8_t *stand, nb_err *err)
{
    memset(d, 0, sizeof *d);
    d->a = a;
    d->w = w;
    d->h = h;
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
    size_t n = (size_t)w * h;
    d->mwords = (d->nmoves + 63) / 64;
    d->dist = nbi_alloc_array(d->a, n, sizeof *d->dist);
    d->stamp = nbi_zalloc_array(d->a, n, sizeof *d->stamp);
    d->known = nbi_zalloc_array(d->a, n, 1);
    d->legal = nbi_alloc_array(d->a, n * d->mwords, sizeof *d->legal);
    if (!d->dist || !d->stamp || !d->known || !d->legal || !nbi_heap_init(&d->heap, a, 4096, NULL)) {
        nbi_griddist_free(d);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the grid heuristic of a %u x %u map", w, h);
    }
    return NB_OK;
}

void nbi_griddist_free(nbi_griddist *d)
{
    nbi_free(d->a, d->dist);
    nbi_free(d->a, d->stamp);
    nbi_free(d->a, d->known);
    nbi_free(d->a, d->legal);
    nbi_heap_free(&d->heap);
    d->dist = NULL;
    d->stamp = NULL;
    d->known = NULL;
    d->legal = NULL;
}

static int open_cell(const nbi_griddist *d, long x, long y)
{
    return x >= 0 && y >= 0 && x < (long)d->w && y < (long)d->h && d->stand[(size_t)y * d->w + x];
}

static double toward(const nbi_griddist *d, long x, long y)
{
    double dx = (double)(x - d->tx), dy = (double)(y - d->ty);
    return sqrt(dx * dx + dy * dy);
}

void nbi_griddist_reset(nbi_griddist *d, long gx, long gy, long tx, long ty)
{
    if (d->gen >= UINT32_MAX / 2 - 1) {
        memset(d->stamp, 0, (size_t)d->w * d->h * sizeof *d->stamp);
        d->gen = 0;
    }
    d->gen++;
    nbi_heap_clear(&d->heap);
    d->gx = gx;
    d->gy = gy;
    d->tx = tx;
    d->ty = ty;
    d->exhausted = 0;
    d->expanded = 0;
    size_t id = (size_t)gy * d->w + (size_t)gx;
    d->dist[id] = 0;
    d->stamp[id] = 2 * d->gen;
    if (!nbi_heap_push(&d->heap, toward(d, gx, gy), 0, (uint32_t)id))
        d->exhausted = 1;
}


int nbi_move_legal(nbi_griddist *d, long x, long y, unsigned k)
{
    size_t cell = (size_t)y * d->w + (size_t)x;
    uint64_t *bits = d->legal + cell * d->mwords;
    if (!d->known[cell]) {
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
        d->known[cell] = 1;
    }
    return (int)(bits[k / 64] >> (k % 64) & 1);
}

double nbi_griddist_get(nbi_griddist *d, long x, long y)
{
    if (x < 0 || y < 0 || x >= (long)d->w || y >= (long)d->h)
        return INFINITY;
    size_t want = (size_t)y * d->w + (size_t)x;
    if (d->stamp[want] == 2 * d->gen + 1)
        return d->dist[want];
    while (!d->exhausted) {
        if (nbi_heap_empty(&d->heap)) {
            d->exhausted = 1;
            break;
        }
        nbi_heap_item it = nbi_heap_pop(&d->heap);
        size_t id = it.id;
        if (d->stamp[id] == 2 * d->gen + 1)
            continue;
        d->stamp[id] = 2 * d->gen + 1;
        d->expanded++;
        long cx = (long)(id % d->w), cy = (long)(id / d->w);
        double g = d->dist[id];
        /* Cells p from which a step lands here: p = c - move, legal from p. */
        for (unsigned k = 0; k < d->nmoves; k++) {
            long px = cx - d->mdx[k], py = cy - d->mdy[k];
            if (!open_cell(d, px, py))
                continue;
            size_t pid = (size_t)py * d->w + (size_t)px;
            if (d->stamp[pid] == 2 * d->gen + 1)
                continue;
            if (!nbi_move_legal(d, px, py, k))
                continue;
            double ng = g + d->mlen[k];
            if (d->stamp[pid] != 2 * d->gen || ng < d->dist[pid]) {
                d->stamp[pid] = 2 * d->gen;
                d->dist[pid] = ng;
                if (!nbi_heap_push(&d->heap, d->dist[pid] + toward(d, px, py), 0, (uint32_t)pid)) {
                    d->exhausted = 1;
                    break;
                }
            }
        }
        if (id == want)
            return d->dist[want];
    }
    return d->stamp[want] == 2 * d->gen + 1 ? d->dist[want] : INFINITY;
}
