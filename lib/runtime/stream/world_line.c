/* world_line.c: whether an agent can walk a straight segment across a
 * world's tiles (nb_world_line_find, navbake.h): the bundle's exact sweep
 * (place/line_sweep.h), each cell read in the tile that owns it and the
 * overlay in world coordinates.  It runs in an nb_world_aa workspace and
 * uses its pins: a cell of a tile not loaded is not a wall to the sweep,
 * which goes on past it and remembers in the tile's view the earliest
 * time the square would enter one of its cells.  The answer stands when
 * no such time comes before the point the answer says the agent gets to
 * (or at it, for a block: a cell entered at the same time may come first
 * in row-major order); else those tiles are needed (nb_world_aa_needed). */
#include <string.h>

#include "place/line_sweep.h"
#include "stream/world_aa.h"

#define FAMILY "world line"

/* The sweep's largest side: every product of two of its times fits in 63 bits (line_sweep.h). */
#define MAX_SIDE 32768u

typedef struct world_cells {
    nbi_wpins *p;
    const nb_world_overlay *ov;
} world_cells;

/* A wall off the world, outside the capability or blocked by the overlay; unknown in a tile
 * not loaded (a tile that cannot be read fails the query at its end: a wall meanwhile). */
static inline NBP_ALWAYS_INLINE int world_test(void *ctx, int64_t x, int64_t y)
{
    const world_cells *c = ctx;
    const nb_world *w = c->p->w;
    if (x < 0 || y < 0 || x >= w->x.width || y >= w->x.height)
        return NBI_SWEEP_WALL;
    nbi_wview *v = nbi_wpins_view(c->p, nbi_wtile_index(w, (uint32_t)x, (uint32_t)y));
    if (v->state != NBI_WV_LOADED)
        return v->state == NBI_WV_MISSING ? NBI_SWEEP_UNKNOWN : NBI_SWEEP_WALL;
    uint64_t bx = (uint64_t)x - v->t->tag.origin_x, by = (uint64_t)y - v->t->tag.origin_y;
    if (nbi_layer_get(&v->clear, by * v->clear.width + bx) < 1)
        return NBI_SWEEP_WALL;
    return c->ov && nbi_wov_blocked(c->ov, (uint32_t)x, (uint32_t)y) ? NBI_SWEEP_WALL
                                                                     : NBI_SWEEP_FREE;
}

static inline NBP_ALWAYS_INLINE void world_miss(void *ctx, int64_t x, int64_t y, nbi_frac from)
{
    const world_cells *c = ctx;
    nbi_wview *v = &c->p->v[nbi_wtile_index(c->p->w, (uint32_t)x, (uint32_t)y)];
    double t = (double)from.num / (double)from.den;
    if (t < v->miss)
        v->miss = t;
}

static nb_status line(nb_world_aa *ws, const nb_line_query *q, const nb_world_overlay *ov,
                      nb_line_result *res, nb_err *err)
{
    const nb_world *w = nbi_world_aa_world(ws);
    nbi_wpins *p = nbi_world_aa_pins(ws);
    nb_status st;
    int64_t e[4];
    if (q->overlay)
        return nbi_fail(err, NB_ERR_ARG, "%s: an overlay of one bundle (nb_overlay) cannot block "
                        "a world's cells: give an nb_world_overlay", FAMILY);
    if ((st = nbi_wopv_check(ov, w, FAMILY, err)) != NB_OK ||
        (st = nbi_line_ends(FAMILY, q, w->x.width, w->x.height, e, err)) != NB_OK)
        return st;
    if (w->x.width > MAX_SIDE || w->x.height > MAX_SIDE)
        return nbi_fail(err, NB_ERR_LIMIT, "%s: a world of %u x %u cells: lines are walked on "
                        "worlds of at most %u cells a side", FAMILY, w->x.width, w->x.height,
                        MAX_SIDE);
    nbi_wpins_begin(p, FAMILY, q->capability, q->size);
    world_cells c = {p, ov && ov->blocked ? ov : NULL};
    nbi_line_walk walk;
    nbi_sweep_begin(&walk, q->size, &c, world_test, world_miss, e[0], e[1], e[2], e[3]);
    uint64_t stop = q->max_expansions ? q->max_expansions : UINT64_MAX;
    if (!walk.done)
        nbi_sweep_run(&walk, &c, world_test, world_miss, stop);
    if (p->st != NB_OK) {
        nbi_wpins_end(p);
        if (err)
            *err = p->err;
        return p->st;
    }
    /* Where the answer says the agent gets: a tile entered before it is needed, and one
     * entered just there too when a cell there blocks (it could hold the first in order). */
    const nbi_line *l = &walk.out;
    double t = (double)l->t.num / (double)l->t.den;
    double limit = l->status == NB_PATH_NONE || l->status == NB_PATH_START_BLOCKED
                       ? nextafter(t, INFINITY)
                       : t;
    size_t n = nbi_wpins_needed(p, limit, NULL, 0);
    if (n) {
        st = nbi_wpins_unloaded(p, limit, n, err);
        nbi_world_aa_mark_needed(ws, limit, n);
        nbi_wpins_end(p);
        return st;
    }
    nbi_line_answer(&walk, q, res);
    nbi_wpins_end(p);
    return NB_OK;
}

nb_status nb_world_line_find(nb_world_aa *ws, const nb_line_query *q, const nb_world_overlay *ov,
                             nb_line_result *res, nb_err *err)
{
    if (res) {
        memset(res, 0, sizeof *res);
        res->status = NB_PATH_NONE;
        res->blocking = (nb_cell){-1, -1};
    }
    if (!ws || !q || !res)
        return nbi_fail(err, NB_ERR_ARG, "%s: a NULL workspace, query or result", FAMILY);
    nbi_world_aa_mark_needed(ws, 0, 0);
    return nbi_done(err, line(ws, q, ov, res, err));
}
