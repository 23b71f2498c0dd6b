/* headdist.c: an obstacle-aware heuristic that also knows turning: the
 * cheapest time from (cell, heading) to the goal in the motion problem
 * with the speed forgotten.  Relaxed, an action from (c, h) turns by t
 * and steps the offset of h + t forward or backward, or turns in place,
 * at the cost of the fastest speed level that allows that turn in that
 * direction; the speed the agent has and the levels it may change to are
 * not tracked.  Every action of the real model is such an action at no
 * lower cost (its speed allows its turn, so the fastest such speed is at
 * least its own), so every motion path maps onto a relaxed one costing
 * no more: the value is admissible.  It is the grid distance over the top
 * speed made to see that a sharp turn must be taken slowly, and that a
 * vehicle facing a wall must back out first.
 *
 * Computed on demand by a reverse resumable A* over (cell, heading) from
 * the goal states toward the search's start (Silver 2005), as the grid
 * distance is, with the straight-line time to the start as its (consistent)
 * heuristic; states live in blocks of one cell's headings, made as the
 * search touches cells, so memory follows the search, not the map. */
#include <math.h>
#include <stdlib.h>

#include "motion.h"

enum { UNSEEN = 0, OPEN = 1, CLOSED = 2 };

nb_status nbi_headdist_init(nbi_headdist *d, const nb_model *m, nbi_griddist *grid, nb_err *err)
{
    memset(d, 0, sizeof *d);
    d->m = m;
    d->grid = grid;
    d->nh = m->nheadings;
    /* The fastest speed for each direction and turn size (a speed that
     * may turn by t may also go straight, so vbest[.][0] is the fastest
     * of its direction, 0 when there is none). */
    for (unsigned l = 0; l < m->nspeeds; l++) {
        double v = fabs(m->speed[l]);
        int dir = nbi_model_dir(m, l);
        for (unsigned t = 0; t <= m->turn[l] && t <= m->nheadings / 2; t++) {
            if (dir == 0)
                d->in_place[t] = t > 0;
            else if (v > d->vbest[dir < 0][t])
                d->vbest[dir < 0][t] = v;
        }
    }
    size_t cells = (size_t)grid->w * grid->h;
    d->cap_blocks = 64;
    d->cell_block = malloc(cells * sizeof *d->cell_block);
    d->block_cell = malloc(d->cap_blocks * sizeof *d->block_cell);
    d->dist = malloc(d->cap_blocks * d->nh * sizeof *d->dist);
    d->mark = malloc(d->cap_blocks * d->nh);
    if (!d->cell_block || !d->block_cell || !d->dist || !d->mark || !nbi_heap_init(&d->heap, 4096, NULL)) {
        nbi_headdist_free(d);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the heading-aware heuristic of a %u x %u map",
                        grid->w, grid->h);
    }
    for (size_t i = 0; i < cells; i++)
        d->cell_block[i] = NBI_HEAP_NONE;
    return NB_OK;
}

void nbi_headdist_free(nbi_headdist *d)
{
    free(d->cell_block);
    free(d->block_cell);
    free(d->dist);
    free(d->mark);
    nbi_heap_free(&d->heap);
    d->cell_block = d->block_cell = NULL;
    d->dist = NULL;
    d->mark = NULL;
}

/* The id of (cell, heading), its cell's block made when new (unseen);
 * NBI_HEAP_NONE when out of memory. */
static uint32_t state_of(nbi_headdist *d, size_t cell, unsigned h)
{
    uint32_t b = d->cell_block[cell];
    if (b == NBI_HEAP_NONE) {
        if (d->nblocks == d->cap_blocks) {
            size_t cap = 2 * d->cap_blocks;
            if ((uint64_t)cap * d->nh >= UINT32_MAX)
                return NBI_HEAP_NONE;
            uint32_t *bc = realloc(d->block_cell, cap * sizeof *bc);
            if (!bc)
                return NBI_HEAP_NONE;
            d->block_cell = bc;
            double *dd = realloc(d->dist, cap * d->nh * sizeof *dd);
            if (!dd)
                return NBI_HEAP_NONE;
            d->dist = dd;
            uint8_t *mk = realloc(d->mark, cap * d->nh);
            if (!mk)
                return NBI_HEAP_NONE;
            d->mark = mk;
            d->cap_blocks = cap;
        }
        b = (uint32_t)d->nblocks++;
        d->cell_block[cell] = b;
        d->block_cell[b] = (uint32_t)cell;
        memset(d->mark + (size_t)b * d->nh, UNSEEN, d->nh);
    }
    return b * d->nh + h;
}

static double toward(const nbi_headdist *d, size_t cell)
{
    double dx = (double)((long)(cell % d->grid->w) - d->tx), dy = (double)((long)(cell / d->grid->w) - d->ty);
    return sqrt(dx * dx + dy * dy) / d->m->vmax;
}

/* Offers cost g to (cell, heading): opens it or lowers its value. */
static void relax(nbi_headdist *d, size_t cell, unsigned h, double g)
{
    uint32_t id = state_of(d, cell, h);
    if (id == NBI_HEAP_NONE) {
        d->failed = 1;
        return;
    }
    if (d->mark[id] == CLOSED || (d->mark[id] == OPEN && g >= d->dist[id]))
        return;
    d->mark[id] = OPEN;
    d->dist[id] = g;
    if (!nbi_heap_push(&d->heap, g + toward(d, cell), -g, id))
        d->failed = 1;
}

void nbi_headdist_reset(nbi_headdist *d, long gx, long gy, unsigned gheading, long tx, long ty)
{
    for (size_t b = 0; b < d->nblocks; b++)
        d->cell_block[d->block_cell[b]] = NBI_HEAP_NONE;
    d->nblocks = 0;
    nbi_heap_clear(&d->heap);
    d->tx = tx;
    d->ty = ty;
    d->failed = 0;
    d->expanded = 0;
    size_t cell = (size_t)gy * d->grid->w + (size_t)gx;
    for (unsigned h = 0; h < d->nh; h++)
        if (gheading == NB_HEADING_ANY || h == gheading)
            relax(d, cell, h, 0);
}

double nbi_headdist_bound(nbi_headdist *d, long x, long y, unsigned heading, int *exact)
{
    nbi_griddist *grid = d->grid;
    *exact = 1;
    if (x < 0 || y < 0 || x >= (long)grid->w || y >= (long)grid->h)
        return INFINITY;
    size_t cell = (size_t)y * grid->w + (size_t)x;
    uint32_t b = d->cell_block[cell];
    if (b != NBI_HEAP_NONE && d->mark[b * d->nh + heading] == CLOSED)
        return d->dist[b * d->nh + heading];
    if (d->failed)
        return 0;
    if (nbi_heap_empty(&d->heap))
        return INFINITY; /* the search is complete and never reached it */
    /* Not closed yet: its value plus its straight-line time to the start
     * is at least the least key still open (the heap's top may be stale,
     * hence lower: still a bound). */
    *exact = 0;
    double v = nbi_heap_top(&d->heap)->key - toward(d, cell);
    return v > 0 ? v : 0;
}

double nbi_headdist_get(nbi_headdist *d, long x, long y, unsigned heading)
{
    const nb_model *m = d->m;
    nbi_griddist *grid = d->grid;
    long W = (long)grid->w;
    if (x < 0 || y < 0 || x >= W || y >= (long)grid->h)
        return INFINITY;
    size_t want_cell = (size_t)y * grid->w + (size_t)x;
    uint32_t want = state_of(d, want_cell, heading);
    if (want == NBI_HEAP_NONE)
        return 0; /* out of memory: no information, still a lower bound */
    int H = (int)d->nh;
    while (d->mark[want] != CLOSED && !nbi_heap_empty(&d->heap) && !d->failed) {
        nbi_heap_item it = nbi_heap_pop(&d->heap);
        if (d->mark[it.id] != OPEN || it.key > d->dist[it.id] + toward(d, d->block_cell[it.id / H]) + 1e-9)
            continue; /* a stale entry */
        d->mark[it.id] = CLOSED;
        d->expanded++;
        size_t cell = d->block_cell[it.id / H];
        int h2 = (int)(it.id % H);
        long cx = (long)(cell % grid->w), cy = (long)(cell / grid->w);
        double g = d->dist[it.id];
        /* Actions ending at (cell, h2): a step along h2 forward (from the
         * cell behind) or backward (from the cell ahead), having turned by
         * t from h2 - t; or a turn in place. */
        for (int back = 0; back <= 1; back++) {
            if (d->vbest[back][0] == 0)
                continue; /* no speed steps this way */
            int sign = back ? -1 : 1;
            long px = cx - sign * m->dx[h2], py = cy - sign * m->dy[h2];
            if (px < 0 || py < 0 || px >= W || py >= (long)grid->h || !grid->stand[(size_t)py * grid->w + px] ||
                !nbi_move_legal(grid, px, py, grid->move_of[back][h2]))
                continue;
            size_t pcell = (size_t)py * grid->w + (size_t)px;
            for (int t = 0; t <= H / 2; t++) {
                double v = d->vbest[back][t];
                if (v == 0)
                    continue;
                double c = g + m->len[h2] / v + m->turn_cost * t;
                relax(d, pcell, (unsigned)((h2 - t + H) % H), c);
                if (t > 0 && 2 * t != H)
                    relax(d, pcell, (unsigned)((h2 + t) % H), c);
            }
        }
        for (int t = 1; t <= H / 2; t++) {
            if (!d->in_place[t])
                continue;
            double c = g + m->still_cost + m->turn_cost * t;
            relax(d, cell, (unsigned)((h2 - t + H) % H), c);
            if (2 * t != H)
                relax(d, cell, (unsigned)((h2 + t) % H), c);
        }
    }
    if (d->mark[want] == CLOSED)
        return d->dist[want];
    return d->failed ? 0 : INFINITY;
}
