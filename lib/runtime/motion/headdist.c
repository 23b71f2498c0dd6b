/* headdist.c: an obstacle-aware heuristic that also knows turning: the
 * least time from (cell, heading) to the goal in the motion problem with
 * the speed forgotten.  Relaxed, an action from (c, h) turns by t and
 * steps the offset of h + t forward or backward, or turns in place, at
 * the cost of the fastest speed level that allows that turn in that
 * direction; which speed the agent has, and which it may change to, are
 * not tracked.  Every action of the real model is such an action at no
 * lower cost (its own speed allows its turn, so the fastest such speed is
 * at least as fast), so every motion path maps onto a relaxed path that
 * costs no more: the value is admissible.  It is the grid distance over
 * the top speed made to see that a sharp turn must be taken slowly and
 * that a vehicle facing a wall must back out first.
 *
 * Headings may be grouped into classes of consecutive headings (class 0
 * centred on heading 0) to make the search smaller: a relaxed state is
 * then (cell, class), and an action from class k costs what the smallest
 * turn from any heading of k allows, so the value is a lower bound of the
 * per-heading one (still admissible, weaker).  By default a class holds
 * the headings that the top speed may turn across in one action (t + 1
 * of them for a turn limit of t, down to a divisor of the count): the
 * humanoid and the tank, which turn by 3 at full speed, get 4 a class and
 * lose little; the vehicle, which cannot turn at top speed, one.
 *
 * Computed on demand by a reverse resumable A* over (cell, class) from
 * the goal states toward the search's start (Silver 2005), as the grid
 * distance is, with the straight-line time to the start at top speed as
 * its consistent heuristic.  States live in blocks of one cell's classes,
 * made as the search touches cells, so memory follows the search, not the
 * map.  nbi_headdist_bound answers without searching further: a state not
 * closed yet costs at least the smallest key still open minus its own
 * heuristic, which lets the motion search work out exact values only for
 * the states it is about to expand (motion.c). */
#include <math.h>
#include <stdlib.h>

#include "motion/motion.h"

enum { UNSEEN = 0, OPEN = 1, CLOSED = 2 };

/* Rebuilds the classes and the relaxed actions for `classes` classes (a
 * divisor of the heading count). */
static void build(nbi_headdist *d, unsigned classes)
{
    const nb_model *m = d->m;
    unsigned H = m->nheadings, per = H / classes;
    d->nclasses = classes;
    for (unsigned h = 0; h < H; h++)
        d->hclass[h] = (uint8_t)(((h + per / 2) % H) / per);
    /* The least turn from a heading of class k to heading h2, and between
     * classes. */
    uint8_t mturn[NB_MODEL_MAX_HEADINGS][NB_MODEL_MAX_HEADINGS], cturn[NB_MODEL_MAX_HEADINGS];
    memset(mturn, 0xff, sizeof mturn);
    for (unsigned h = 0; h < H; h++)
        for (unsigned h2 = 0; h2 < H; h2++) {
            unsigned t = (h2 + H - h) % H, k = d->hclass[h];
            if (H - t < t)
                t = H - t;
            if (t < mturn[k][h2])
                mturn[k][h2] = (uint8_t)t;
        }
    /* Backwards: a step along h2 (forward or backward) comes from each
     * class whose headings may turn to h2 at a speed of that direction; a
     * turn in place into class k2 from each class that an allowed turn
     * joins to it. */
    nbi_hedge *e = d->edges;
    for (unsigned back = 0; back < 2; back++)
        for (unsigned h2 = 0; h2 < H; h2++) {
            d->step_edges[back][h2] = e;
            for (unsigned k = 0; k < classes; k++) {
                unsigned t = mturn[k][h2];
                if (d->vbest[back][t] > 0)
                    *e++ = (nbi_hedge){(uint16_t)k, m->len[h2] / d->vbest[back][t] + m->turn_cost * t};
            }
            d->nstep_edges[back][h2] = (unsigned)(e - d->step_edges[back][h2]);
        }
    for (unsigned k2 = 0; k2 < classes; k2++) {
        d->turn_edges[k2] = e;
        memset(cturn, 0xff, sizeof cturn);
        for (unsigned h2 = 0; h2 < H; h2++) {
            if (d->hclass[h2] != k2)
                continue;
            for (unsigned k = 0; k < classes; k++)
                if (mturn[k][h2] < cturn[k])
                    cturn[k] = mturn[k][h2];
        }
        for (unsigned k = 0; k < classes; k++)
            if (k != k2 && d->in_place[cturn[k]])
                *e++ = (nbi_hedge){(uint16_t)k, m->still_cost + m->turn_cost * cturn[k]};
        d->nturn_edges[k2] = (unsigned)(e - d->turn_edges[k2]);
    }
}

nb_status nbi_headdist_init(nbi_headdist *d, const nb_allocator *a, const nb_model *m,
                            nbi_griddist *grid, nb_err *err)
{
    memset(d, 0, sizeof *d);
    d->a = a;
    d->m = m;
    d->grid = grid;
    unsigned H = m->nheadings;
    /* The fastest speed for each direction and turn size (0: none; a speed
     * that may turn by t may also turn less), and the turns allowed in
     * place. */
    for (unsigned l = 0; l < m->nspeeds; l++) {
        double v = fabs(m->speed[l]);
        int dir = nbi_model_dir(m, l);
        for (unsigned t = 0; t <= m->turn[l] && t <= H / 2; t++) {
            if (dir == 0)
                d->in_place[t] = t > 0;
            else if (v > d->vbest[dir < 0][t])
                d->vbest[dir < 0][t] = v;
        }
    }
    d->cap_blocks = 64;
    d->edges = nbi_alloc_array(d->a, 3 * H * H, sizeof *d->edges);
    int ok = nbi_cellblocks_init(&d->blocks, d->a, grid->w, grid->h);
    d->block_cell = nbi_alloc_array(d->a, d->cap_blocks, sizeof *d->block_cell);
    d->st = nbi_alloc_array(d->a, d->cap_blocks * H, sizeof *d->st);
    d->pos = nbi_alloc_array(d->a, d->cap_blocks * H, sizeof *d->pos);
    if (!d->edges || !ok || !d->block_cell || !d->st || !d->pos ||
        !nbi_heap_init(&d->heap, a, 4096, d->pos)) {
        nbi_headdist_free(d);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the heading-aware heuristic of a %u x %u map",
                        grid->w, grid->h);
    }
    /* The default classes: the headings the top speed turns across. */
    unsigned top = 0;
    for (unsigned l = 0; l < m->nspeeds; l++)
        if (fabs(m->speed[l]) > fabs(m->speed[top]) ||
            (fabs(m->speed[l]) == fabs(m->speed[top]) && m->speed[l] > m->speed[top]))
            top = l;
    unsigned per = m->turn[top] + 1;
    while (H % per)
        per--;
    d->auto_classes = H / per;
    build(d, d->auto_classes);
    return NB_OK;
}

void nbi_headdist_free(nbi_headdist *d)
{
    nbi_free(d->a, d->edges);
    nbi_cellblocks_free(&d->blocks);
    nbi_free(d->a, d->block_cell);
    nbi_free(d->a, d->st);
    nbi_free(d->a, d->pos);
    nbi_heap_free(&d->heap);
    d->edges = NULL;
    d->block_cell = d->pos = NULL;
    d->st = NULL;
}

size_t nbi_headdist_bytes(const nbi_headdist *d)
{
    size_t H = d->m ? d->m->nheadings : 0;
    return 3 * H * H * sizeof *d->edges + nbi_pool_bytes(&d->blocks.pool) +
           d->cap_blocks * (sizeof *d->block_cell + H * (sizeof *d->st + sizeof *d->pos)) +
           nbi_heap_bytes(&d->heap);
}

/* The id of (cell, class k), the cell's block made when new (all unseen);
 * NBI_HEAP_NONE when out of memory.  Blocks hold room for one class per
 * heading whatever the classes, so ids do not depend on them. */
static uint32_t state_of(nbi_headdist *d, size_t cell, unsigned k)
{
    unsigned H = d->m->nheadings;
    uint32_t w = d->grid->w, *entry = nbi_cellblocks_entry(&d->blocks, (long)(cell % w), (long)(cell / w));
    if (!entry)
        return NBI_HEAP_NONE;
    uint32_t b = *entry;
    if (b == NBI_HEAP_NONE) {
        if (d->nblocks == d->cap_blocks) {
            size_t cap = 2 * d->cap_blocks;
            if ((uint64_t)cap * H >= UINT32_MAX)
                return NBI_HEAP_NONE;
            uint32_t *bc = nbi_realloc_array(d->a, d->block_cell, cap, sizeof *bc);
            if (bc)
                d->block_cell = bc;
            nbi_hstate *st = bc ? nbi_realloc_array(d->a, d->st, cap * H, sizeof *st) : NULL;
            if (st)
                d->st = st;
            uint32_t *ps = st ? nbi_realloc_array(d->a, d->pos, cap * H, sizeof *ps) : NULL;
            if (!ps)
                return NBI_HEAP_NONE;
            d->pos = d->heap.pos = ps;
            d->cap_blocks = cap;
        }
        b = (uint32_t)d->nblocks++;
        *entry = b;
        d->block_cell[b] = (uint32_t)cell;
        for (size_t i = (size_t)b * H; i < (size_t)(b + 1) * H; i++) {
            d->st[i].mark = UNSEEN;
            d->pos[i] = NBI_HEAP_NONE;
        }
    }
    return b * H + k;
}

/* The reverse search's heuristic: the straight-line time to the start at
 * top speed (consistent: no action covers ground faster). */
static double toward(const nbi_headdist *d, size_t cell)
{
    double dx = (double)((long)(cell % d->grid->w) - d->tx), dy = (double)((long)(cell / d->grid->w) - d->ty);
    return sqrt(dx * dx + dy * dy) / d->m->vmax;
}

/* Offers time g to (cell, class k): opens it or lowers its value. */
static void relax(nbi_headdist *d, size_t cell, unsigned k, double g)
{
    uint32_t id = state_of(d, cell, k);
    if (id == NBI_HEAP_NONE) {
        d->failed = 1;
        return;
    }
    if (d->st[id].mark == CLOSED || (d->st[id].mark == OPEN && g >= d->st[id].dist))
        return;
    d->st[id].mark = OPEN;
    d->st[id].dist = g;
    if (!nbi_heap_push(&d->heap, g + toward(d, cell), -g, id))
        d->failed = 1;
}

void nbi_headdist_reset(nbi_headdist *d, unsigned classes, long gx, long gy, unsigned gheading,
                        unsigned box, long tx, long ty)
{
    unsigned H = d->m->nheadings;
    if (classes == 0 || classes > H || H % classes)
        classes = d->auto_classes;
    if (classes != d->nclasses)
        build(d, classes);
    nbi_cellblocks_begin(&d->blocks);
    d->nblocks = 0;
    nbi_heap_clear(&d->heap);
    d->tx = tx;
    d->ty = ty;
    d->failed = 0;
    d->expanded = 0;
    long r = (long)box;
    for (long y = gy - r; y <= gy + r; y++)
        for (long x = gx - r; x <= gx + r; x++) {
            if (!nbi_stand_at(d->grid->stand, x, y))
                continue;
            size_t cell = (size_t)y * d->grid->w + (size_t)x;
            for (unsigned k = 0; k < classes; k++)
                if (gheading == NB_HEADING_ANY || k == d->hclass[gheading])
                    relax(d, cell, k, 0);
        }
}

double nbi_headdist_bound(nbi_headdist *d, long x, long y, unsigned heading, int *exact)
{
    nbi_griddist *grid = d->grid;
    *exact = 1;
    if (x < 0 || y < 0 || x >= (long)grid->w || y >= (long)grid->h)
        return INFINITY;
    size_t cell = (size_t)y * grid->w + (size_t)x;
    uint32_t b = nbi_cellblocks_get(&d->blocks, x, y);
    if (b != NBI_HEAP_NONE) {
        uint32_t id = b * d->m->nheadings + d->hclass[heading];
        if (d->st[id].mark == CLOSED)
            return d->st[id].dist;
    }
    if (d->failed)
        return 0;
    if (nbi_heap_empty(&d->heap))
        return INFINITY; /* the search is complete and never reached it */
    /* Not closed yet: its value plus its heuristic is at least the least
     * key still open (the heuristic being consistent). */
    *exact = 0;
    double v = nbi_heap_top(&d->heap)->key - toward(d, cell);
    return v > 0 ? v : 0;
}

double nbi_headdist_get(nbi_headdist *d, long x, long y, unsigned heading)
{
    int exact;
    return nbi_headdist_raise(d, x, y, heading, INFINITY, &exact);
}

double nbi_headdist_raise(nbi_headdist *d, long x, long y, unsigned heading, double need, int *exact)
{
    const nb_model *m = d->m;
    nbi_griddist *grid = d->grid;
    unsigned H = m->nheadings;
    if (x < 0 || y < 0 || x >= (long)grid->w || y >= (long)grid->h)
        return INFINITY;
    *exact = 1;
    size_t want_cell = (size_t)y * grid->w + (size_t)x;
    uint32_t want = state_of(d, want_cell, d->hclass[heading]);
    if (want == NBI_HEAP_NONE)
        return 0; /* out of memory: no information, still a lower bound */
    double away = toward(d, want_cell);
    while (d->st[want].mark != CLOSED && !nbi_heap_empty(&d->heap) && !d->failed) {
        if (nbi_heap_top(&d->heap)->key - away >= need) {
            *exact = 0;
            return nbi_heap_top(&d->heap)->key - away;
        }
        uint32_t id = nbi_heap_pop(&d->heap).id;
        d->st[id].mark = CLOSED;
        d->expanded++;
        size_t cell = d->block_cell[id / H];
        unsigned k2 = id % H;
        long cx = (long)(cell % grid->w), cy = (long)(cell / grid->w);
        double g = d->st[id].dist;
        /* Actions ending at (cell, k2): a step along a heading h2 of class
         * k2, forward from the cell behind or backward from the cell
         * ahead; or a turn in place. */
        for (unsigned h2 = 0; h2 < H; h2++) {
            if (d->hclass[h2] != k2)
                continue;
            for (int back = 0; back <= 1; back++) {
                if (!d->nstep_edges[back][h2])
                    continue;
                int sign = back ? -1 : 1;
                long px = cx - sign * m->dx[h2], py = cy - sign * m->dy[h2];
                if (!nbi_stand_at(grid->stand, px, py) ||
                    !nbi_move_legal(grid, px, py, grid->move_of[back][h2]))
                    continue;
                size_t pcell = (size_t)py * grid->w + (size_t)px;
                const nbi_hedge *e = d->step_edges[back][h2];
                for (unsigned i = 0; i < d->nstep_edges[back][h2]; i++)
                    relax(d, pcell, e[i].k, g + e[i].cost);
            }
        }
        for (unsigned i = 0; i < d->nturn_edges[k2]; i++)
            relax(d, cell, d->turn_edges[k2][i].k, g + d->turn_edges[k2][i].cost);
    }
    if (d->st[want].mark == CLOSED)
        return d->st[want].dist;
    return d->failed ? 0 : INFINITY;
}
