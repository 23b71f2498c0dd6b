/* world_nearest.c: the standable cell nearest a point across a world's
 * tiles (nb_world_nearest_find, navbake.h): nb_nearest_find's rings around
 * the point, each cell read in the tile that owns it and the overlay in
 * world coordinates; reach from the world's components, and under an
 * overlay that blocks cells by a search on the edited grid (world_joined.c)
 * for each cell that would be the answer.  It runs in an
 * nb_world_aa workspace, whose pins it uses: a cell of a tile not loaded
 * is remembered with its distance, and the answer stands when no such
 * cell is nearer than it (or as near and first in row-major order), else
 * the tiles of those are needed (nb_world_aa_needed). */
#include <string.h>

#include "core/grid.h"
#include "stream/wquery.h"
#include "stream/world_aa.h"

#define FAMILY "world nearest"

/* 1 when (d, y, x) comes before (bd, by, bx): nearer, then row-major. */
static int nearer(double d, int32_t x, int32_t y, double bd, int32_t bx, int32_t by)
{
    return d < bd || (d == bd && (y < by || (y == by && x < bx)));
}

static nb_status nearest(nb_world_aa *ws, const nb_nearest_query *q, const nb_world_overlay *ov,
                         nb_nearest_result *res, nb_err *err)
{
    const nb_world *w = nbi_world_aa_world(ws);
    nbi_wpins *p = nbi_world_aa_pins(ws);
    nb_status st;
    if ((st = nbi_query_size(err, FAMILY, q->size)) != NB_OK)
        return st;
    if (!(q->radius >= 0))
        return nbi_fail(err, NB_ERR_ARG, "%s: radius %g: it must be 0 or more", FAMILY, q->radius);
    if (q->overlay)
        return nbi_fail(err, NB_ERR_ARG, "%s: an overlay of one bundle (nb_overlay) cannot block "
                        "a world's cells: give an nb_world_overlay", FAMILY);
    if ((st = nbi_wopv_check(ov, w, FAMILY, err)) != NB_OK ||
        (st = nbi_query_cell(err, FAMILY, "point", q->point, w->x.width, w->x.height)) != NB_OK)
        return st;
    if (q->reachable &&
        (st = nbi_query_cell(err, FAMILY, "start", q->start, w->x.width, w->x.height)) != NB_OK)
        return st;
    size_t ci = 0;
    if (q->reachable && !nbi_world_comp_of(w, q->capability, q->size, &ci))
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the world has no components for capability "
                        "%#x and size %u, which reachable needs", FAMILY, q->capability, q->size);
    nbi_wpins_begin(p, FAMILY, q->capability, q->size);
    uint32_t want = 0;
    const nbi_stile *ts = NULL;
    if (q->reachable) {
        int s = nbi_wpins_stands(p, ov, q->start.x, q->start.y, -INFINITY);
        if (p->st != NB_OK)
            goto failed;
        if (s < 0) {
            size_t n = nbi_wpins_needed(p, INFINITY, NULL, 0);
            st = nbi_wpins_unloaded(p, INFINITY, n, err);
            nbi_world_aa_mark_needed(ws, INFINITY, n);
            nbi_wpins_end(p);
            return st;
        }
        if (s == 0) {
            res->status = NB_PATH_START_BLOCKED;
            nbi_wpins_end(p);
            return NB_OK;
        }
        ts = p->v[nbi_wtile_index(w, (uint32_t)q->start.x, (uint32_t)q->start.y)].t;
        want = nbi_world_component(w, ts, ci, q->start);
    }
    const int32_t px = q->point.x, py = q->point.y;
    const int32_t W = (int32_t)w->x.width, H = (int32_t)w->x.height;
    double best = INFINITY;
    int32_t bx = -1, by = -1;
    uint64_t examined = 0;
    int limited = 0;
    /* The ring at Chebyshev distance r holds cells at octile distance r or more. */
    int32_t rmax = px > W - 1 - px ? px : W - 1 - px;
    int32_t ry = py > H - 1 - py ? py : H - 1 - py;
    rmax = ry > rmax ? ry : rmax;
    int covers = 1; /* the rings looked at cover the world */
    for (int32_t r = 0; r <= rmax; r++) {
        if ((double)r > best || (double)r > q->radius) {
            covers = r > rmax;
            break;
        }
        for (int32_t y = py - r; y <= py + r && !limited; y++) {
            if (y < 0 || y >= H)
                continue;
            int edge = y == py - r || y == py + r;
            for (int32_t x = px - r; x <= px + r; x += edge ? 1 : 2 * r) {
                if (x >= 0 && x < W) {
                    double d = nbi_octile_cells(x, y, px, py);
                    if (d <= q->radius && nearer(d, x, y, best, bx, by)) {
                        if (q->max_expansions && examined >= q->max_expansions) {
                            limited = 1;
                            break;
                        }
                        examined++;
                        int s = nbi_wpins_stands(p, ov, x, y, d);
                        if (s == 1 && q->reachable) {
                            const nbi_stile *t = p->v[nbi_wtile_index(w, (uint32_t)x, (uint32_t)y)].t;
                            s = nbi_world_component(w, t, ci, (nb_cell){x, y}) == want && want;
                        }
                        if (s == 1 && q->reachable && ov && ov->blocked) {
                            /* The blocks may cut the component: a search tells. */
                            st = nbi_world_joined(ws, q->capability, q->size, q->start,
                                                  (nb_cell){x, y}, ov, &s, NULL, err);
                            if (st != NB_OK) {
                                nbi_wpins_end(p);
                                return st;
                            }
                        }
                        if (s == 1)
                            best = d, bx = x, by = y;
                    }
                }
                if (r == 0)
                    break;
            }
        }
        if (limited) {
            covers = 0;
            break;
        }
    }
    if (p->st != NB_OK)
        goto failed;
    /* A missing cell as near as the answer and before it in row-major order could be it: a
     * bound just above the answer's distance names those. */
    double limit = bx >= 0 ? nextafter(best, INFINITY) : INFINITY;
    size_t n = nbi_wpins_needed(p, limit, NULL, 0);
    if (n && !limited) {
        /* A cell at exactly best that comes after the answer cannot win: kept (conservative). */
        st = nbi_wpins_unloaded(p, limit, n, err);
        nbi_world_aa_mark_needed(ws, limit, n);
        nbi_wpins_end(p);
        return st;
    }
    res->examined = examined;
    if (bx >= 0) {
        res->cell = (nb_cell){bx, by};
        res->distance = best;
        res->status = limited ? NB_PATH_LIMIT : NB_PATH_FOUND;
    } else
        res->status = limited ? NB_PATH_LIMIT : covers ? NB_PATH_NONE : NB_PATH_BEYOND_RADIUS;
    nbi_wpins_end(p);
    return NB_OK;
failed:
    nbi_wpins_end(p);
    if (err)
        *err = p->err;
    return p->st;
}

nb_status nb_world_nearest_find(nb_world_aa *ws, const nb_nearest_query *q,
                                const nb_world_overlay *ov, nb_nearest_result *res, nb_err *err)
{
    if (res) {
        memset(res, 0, sizeof *res);
        res->status = NB_PATH_NONE;
        res->cell = (nb_cell){-1, -1};
    }
    if (!ws || !q || !res)
        return nbi_fail(err, NB_ERR_ARG, "%s: a NULL workspace, query or result", FAMILY);
    nbi_world_aa_mark_needed(ws, 0, 0);
    return nbi_done(err, nearest(ws, q, ov, res, err));
}
