/* world_random.c: a standable cell drawn uniformly from a rectangle of a
 * world's cells (nb_world_random_find, navbake.h), with nb_random_find's
 * generator (place/random.c).
 *
 * The cells drawn from are those of the rectangle that the tiles it meets
 * own where the agent stands (and with reachable, those of the start's
 * world component), listed tile after tile in row-major order of the
 * tiles, and in each tile as its runs section lists them (component after
 * component, each in row-major order), keeping the cells inside the
 * rectangle and the tile's own cells (not its halo).  The k-th of them is
 * found by reading those runs, so a draw costs the runs of the tiles the
 * rectangle meets, a tile's runs section is checked each time it is read
 * (nbi_runs_find), and nothing is allocated.  Under an overlay that blocks
 * cells a cell so drawn is kept when the agent has room there (and with
 * reachable, when a search on the edited grid joins it to the start:
 * world_joined.c), else drawn again (uniform among those kept), as on one
 * bundle. */
#include <string.h>

#include "place/place.h"
#include "stream/world_aa.h"

#define FAMILY "world random"

/* A draw under way: the query's agent and components, the rectangle (world cells, [x0, x1) x
 * [y0, y1)) and the tiles it meets. */
typedef struct draw {
    const nb_world *w;
    nbi_wpins *p;
    const nb_random_query *q;
    size_t ci;         /* the world components of the agent, when has_comp */
    int has_comp;
    uint32_t want;     /* reachable: the start's world component */
    uint32_t x0, y0, x1, y1;
    uint32_t c0, r0, c1, r1; /* tiles, inclusive */
} draw;

/* The cells of run j of r inside the rectangle and tile t's own cells: [*a, *b) on row *y of
 * the bundle's map (empty: *a == *b). */
static void run_inside(const draw *d, const nbi_stile *t, const nbi_runs *r, uint32_t j,
                       uint32_t *y, uint32_t *a, uint32_t *b)
{
    uint32_t s = nbi_runs_start(r, j), len = nbi_runs_before(r, j + 1) - nbi_runs_before(r, j);
    uint32_t ry = s / r->width, rx = s % r->width;
    /* The tile's own cells in the rectangle, in the bundle's coordinates. */
    uint32_t ox = t->tag.origin_x, oy = t->tag.origin_y;
    uint32_t cx0 = ox + t->tag.core_x, cy0 = oy + t->tag.core_y;
    uint32_t cx1 = cx0 + t->tag.core_w, cy1 = cy0 + t->tag.core_h;
    uint32_t lx0 = (d->x0 > cx0 ? d->x0 : cx0) - ox, lx1 = (d->x1 < cx1 ? d->x1 : cx1) - ox;
    uint32_t ly0 = (d->y0 > cy0 ? d->y0 : cy0) - oy, ly1 = (d->y1 < cy1 ? d->y1 : cy1) - oy;
    *y = ry;
    *a = *b = 0;
    if (ry < ly0 || ry >= ly1)
        return;
    uint32_t lo = rx > lx0 ? rx : lx0, hi = rx + len < lx1 ? rx + len : lx1;
    if (lo < hi)
        *a = lo, *b = hi;
}

/* 1 when local component k of tile t is one the draw is from. */
static int comp_wanted(const draw *d, const nbi_stile *t, uint32_t k)
{
    return !d->q->reachable || nbi_wcomp_of(&d->w->comp[d->ci], t->index, k) == d->want;
}

/* Reads the cells drawn from in tile t, adding them to *count; with k, stops at the *k-th of
 * them (*hit 1, the cell in *cell) or takes the tile's from *k. */
static nb_status tile_walk(const draw *d, const nbi_stile *t, uint64_t *k, int *hit, nb_cell *cell,
                           uint64_t *count, nb_err *err)
{
    nbi_runs r;
    nb_status st = nbi_runs_find(t->b, d->q->capability, d->q->size, &r, err);
    if (st != NB_OK) {
        nbi_err_prefix(err, "%s: tile (%u, %u)", FAMILY, t->tag.column, t->tag.row);
        return st;
    }
    for (uint32_t c = 1; c <= r.n; c++) {
        if (!comp_wanted(d, t, c))
            continue;
        for (uint32_t j = nbi_runs_first(&r, c - 1); j < nbi_runs_first(&r, c); j++) {
            uint32_t y, a, b;
            run_inside(d, t, &r, j, &y, &a, &b);
            if (a == b)
                continue;
            if (k && *k < b - a) {
                *cell = (nb_cell){(int32_t)(t->tag.origin_x + a + *k),
                                  (int32_t)(t->tag.origin_y + y)};
                *hit = 1;
                return NB_OK;
            }
            if (k)
                *k -= b - a;
            *count += b - a;
        }
    }
    return NB_OK;
}

/* Over the tiles of the rectangle: the count of the cells drawn from (k NULL), or the k-th. */
static nb_status walk(const draw *d, uint64_t *k, nb_cell *cell, uint64_t *count, nb_err *err)
{
    int hit = 0;
    *count = 0;
    for (uint32_t row = d->r0; row <= d->r1; row++)
        for (uint32_t col = d->c0; col <= d->c1; col++) {
            const nbi_stile *t = nbi_wpins_view(d->p, row * d->w->x.columns + col)->t;
            nb_status st = tile_walk(d, t, k, &hit, cell, count, err);
            if (st != NB_OK || hit)
                return st;
        }
    return NB_OK;
}

/* The layers under a cell the runs gave: the agent must stand there (else the tile's runs lie). */
static nb_status check_cell(const draw *d, nb_cell c, nb_err *err)
{
    nbi_wview *v = nbi_wpins_view(d->p, nbi_wtile_index(d->w, (uint32_t)c.x, (uint32_t)c.y));
    uint64_t bx = (uint64_t)c.x - v->t->tag.origin_x, by = (uint64_t)c.y - v->t->tag.origin_y;
    uint32_t cl = nbi_layer_value(&v->clear, by * v->clear.width + bx);
    if (cl >= d->q->size)
        return NB_OK;
    return nbi_fail(err, NB_ERR_FORMAT, "%s: tile (%u, %u): its runs give world cell (%d, %d), "
                    "where its clearance layer says an agent of size %u cannot stand: the runs "
                    "are not that layer's", FAMILY, v->t->tag.column, v->t->tag.row, c.x, c.y,
                    d->q->size);
}

/* Whether the overlay leaves the agent room on any of the n cells drawn from: a block takes
 * at most size^2 of them, so only an overlay of n / size^2 cells or more may take them all,
 * and then they are read one by one. */
static nb_status any_left(const draw *d, const nb_world_overlay *ov, uint64_t n, int *left,
                          nb_err *err)
{
    uint64_t sq = (uint64_t)d->q->size * d->q->size, count;
    *left = n > 0;
    if (!ov || n / sq > ov->blocked)
        return NB_OK;
    *left = 0;
    for (uint64_t i = 0; i < n && !*left; i++) {
        uint64_t k = i;
        nb_cell c;
        nb_status st = walk(d, &k, &c, &count, err);
        if (st != NB_OK)
            return st;
        *left = nbi_wov_room(ov, d->q->size, (uint32_t)c.x, (uint32_t)c.y);
    }
    return NB_OK;
}

/* Whether any of the n cells drawn from is left to the agent and joined to
 * the start on the edited grid, each asked in turn. */
static nb_status any_joined(nb_world_aa *ws, const draw *d, const nb_world_overlay *ov,
                            uint64_t n, int *left, nb_random_result *res, nb_err *err)
{
    *left = 0;
    for (uint64_t i = 0; i < n && !*left; i++) {
        uint64_t k = i, count;
        nb_cell c;
        nb_status st = walk(d, &k, &c, &count, err);
        if (st == NB_OK && nbi_wov_room(ov, d->q->size, (uint32_t)c.x, (uint32_t)c.y))
            st = nbi_world_joined(ws, d->q->capability, d->q->size, d->q->start, c, ov, left,
                                  &res->expanded, err);
        if (st != NB_OK)
            return st;
    }
    return NB_OK;
}

/* The tiles the draw reads that are not loaded: NB_ERR_UNLOADED naming them all. */
static nb_status needed(nb_world_aa *ws, const draw *d, nb_err *err)
{
    nbi_wpins *p = d->p;
    int missing = 0;
    for (uint32_t row = d->r0; row <= d->r1; row++)
        for (uint32_t col = d->c0; col <= d->c1; col++) {
            nbi_wview *v = nbi_wpins_view(p, row * d->w->x.columns + col);
            if (v->state == NBI_WV_MISSING)
                v->miss = 0, missing = 1;
        }
    if (d->q->reachable) {
        nbi_wview *v = nbi_wpins_view(p, nbi_wtile_index(d->w, (uint32_t)d->q->start.x,
                                                          (uint32_t)d->q->start.y));
        if (v->state == NBI_WV_MISSING)
            v->miss = 0, missing = 1;
    }
    if (p->st != NB_OK) {
        if (err)
            *err = p->err;
        return p->st;
    }
    if (!missing)
        return NB_OK;
    size_t n = nbi_wpins_needed(p, INFINITY, NULL, 0);
    nb_status st = nbi_wpins_unloaded(p, INFINITY, n, err);
    nbi_world_aa_mark_needed(ws, INFINITY, n);
    return st;
}

static nb_status random_draw(nb_world_aa *ws, draw *d, const nb_world_overlay *ov,
                             nb_random_result *res, nb_err *err)
{
    const nb_world *w = d->w;
    const nb_random_query *q = d->q;
    nb_status st = needed(ws, d, err);
    if (st != NB_OK)
        return st;
    if (q->reachable) {
        int s = nbi_wpins_stands(d->p, ov, q->start.x, q->start.y, 0);
        const nbi_stile *ts =
            d->p->v[nbi_wtile_index(w, (uint32_t)q->start.x, (uint32_t)q->start.y)].t;
        d->want = s == 1 ? nbi_world_component(w, ts, d->ci, q->start) : 0;
        if (!d->want) {
            res->status = NB_PATH_START_BLOCKED;
            return NB_OK;
        }
    }
    uint64_t cells;
    nb_cell c;
    if ((st = walk(d, NULL, &c, &cells, err)) != NB_OK)
        return st;
    res->cells = cells;
    int left;
    if ((st = any_left(d, ov, cells, &left, err)) != NB_OK)
        return st;
    if (!left)
        return NB_OK; /* NONE */
    res->status = NB_PATH_LIMIT; /* until a cell is kept */
    unsigned cut = 0;
    for (;;) {
        if (q->max_expansions && res->draws >= q->max_expansions)
            return NB_OK;
        uint64_t k = nbi_random_below(&res->state, cells), count;
        if ((st = walk(d, &k, &c, &count, err)) != NB_OK || (st = check_cell(d, c, err)) != NB_OK)
            return st;
        res->draws++;
        if (ov && !nbi_wov_room(ov, q->size, (uint32_t)c.x, (uint32_t)c.y))
            continue;
        if (ov && q->reachable) {
            int joined;
            if ((st = nbi_world_joined(ws, q->capability, q->size, q->start, c, ov, &joined,
                                       &res->expanded, err)) != NB_OK)
                return st;
            if (!joined) {
                /* Cut off by the blocks; after many such draws in a row, whether any cell is
                 * left is told by asking every one (the draw goes on if one is). */
                if (++cut == 64) {
                    if ((st = any_joined(ws, d, ov, cells, &left, res, err)) != NB_OK)
                        return st;
                    if (!left) {
                        res->status = NB_PATH_NONE;
                        return NB_OK;
                    }
                }
                continue;
            }
        }
        res->cell = c;
        res->status = NB_PATH_FOUND;
        if (d->has_comp) {
            nbi_wview *v = nbi_wpins_view(d->p, nbi_wtile_index(w, (uint32_t)c.x, (uint32_t)c.y));
            res->component = nbi_world_component(w, v->t, d->ci, c);
        }
        return NB_OK;
    }
}

static nb_status checked(nb_world_aa *ws, const nb_random_query *q, const nb_world_overlay *ov,
                         long x, long y, long wd, long ht, nb_random_result *res, nb_err *err)
{
    const nb_world *w = nbi_world_aa_world(ws);
    nb_status st;
    if ((st = nbi_query_size(err, FAMILY, q->size)) != NB_OK)
        return st;
    if (q->overlay)
        return nbi_fail(err, NB_ERR_ARG, "%s: an overlay of one bundle (nb_overlay) cannot block "
                        "a world's cells: give an nb_world_overlay", FAMILY);
    if ((st = nbi_wopv_check(ov, w, FAMILY, err)) != NB_OK)
        return st;
    if (wd < 1 || ht < 1)
        return nbi_fail(err, NB_ERR_ARG, "%s: a rectangle of %ld x %ld cells: each side must be "
                        "1 or more", FAMILY, wd, ht);
    /* Clipped to the world, in 64 bits (x + wd cannot overflow a long's range then). */
    int64_t X0 = x < 0 ? 0 : x, Y0 = y < 0 ? 0 : y;
    int64_t X1 = (int64_t)x + wd, Y1 = (int64_t)y + ht;
    X1 = X1 > (int64_t)w->x.width ? (int64_t)w->x.width : X1;
    Y1 = Y1 > (int64_t)w->x.height ? (int64_t)w->x.height : Y1;
    if (q->reachable &&
        (st = nbi_query_cell(err, FAMILY, "start", q->start, w->x.width, w->x.height)) != NB_OK)
        return st;
    draw d = {.w = w, .p = nbi_world_aa_pins(ws), .q = q};
    d.has_comp = nbi_world_comp_of(w, q->capability, q->size, &d.ci) != NULL;
    if (q->reachable && !d.has_comp)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the world has no components for capability "
                        "%#x and size %u, which reachable needs", FAMILY, q->capability, q->size);
    if (X0 >= X1 || Y0 >= Y1)
        return NB_OK; /* off the world: no cell, NONE */
    d.x0 = (uint32_t)X0, d.y0 = (uint32_t)Y0, d.x1 = (uint32_t)X1, d.y1 = (uint32_t)Y1;
    d.c0 = d.x0 / w->x.side, d.r0 = d.y0 / w->x.side;
    d.c1 = (d.x1 - 1) / w->x.side, d.r1 = (d.y1 - 1) / w->x.side;
    nbi_wpins_begin(d.p, FAMILY, q->capability, q->size);
    st = random_draw(ws, &d, ov, res, err);
    nbi_wpins_end(d.p);
    return st;
}

nb_status nb_world_random_find(nb_world_aa *ws, const nb_random_query *q,
                               const nb_world_overlay *ov, long x, long y, long w, long h,
                               nb_random_result *res, nb_err *err)
{
    if (res) {
        memset(res, 0, sizeof *res);
        res->status = NB_PATH_NONE;
        res->cell = (nb_cell){-1, -1};
        res->state = q ? q->seed : 0;
    }
    if (!ws || !q || !res)
        return nbi_fail(err, NB_ERR_ARG, "%s: a NULL workspace, query or result", FAMILY);
    nbi_world_aa_mark_needed(ws, 0, 0);
    nb_status st = checked(ws, q, ov && ov->blocked ? ov : NULL, x, y, w, h, res, err);
    if (st != NB_OK) {
        memset(res, 0, sizeof *res);
        res->status = NB_PATH_NONE;
        res->cell = (nb_cell){-1, -1};
        res->state = q->seed;
    }
    return nbi_done(err, st);
}
