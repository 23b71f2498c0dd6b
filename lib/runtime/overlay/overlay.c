/* overlay.c: runtime obstacles (navbake.h, nb_overlay_open(3)): cells
 * blocked and unblocked at run time, kept beside a read-only bundle.
 *
 * The handle holds two things: the blocked cells and what they take from
 * each cell's clearance (blocked/blocked.c, below every search that reads
 * them), and a repair of each HAA* abstract graph of the bundle
 * (abstract/repair.c), whose clusters every change brings up to date.
 * This file sits above both and keeps them in step. */
#include "abstract/repair.h"
#include "blocked/blocked.h"
#include "clearance/clearance.h"

/* The largest cap of the bundle's clearance layers that check out (1 when none does: no query
 * can then run). */
static uint32_t bundle_cap(const nb_bundle *b)
{
    uint32_t cap = 1;
    for (size_t i = 0; i < b->nsections; i++) {
        nbi_layer l;
        if (b->sections[i].info.type == NB_SEC_CLEARANCE && nbi_layer_at(b, i, &l, NULL) == NB_OK &&
            l.maxval > cap)
            cap = l.maxval;
    }
    return cap;
}

/* A repair for each abstract graph of the bundle that checks out; 0 without memory. */
static int make_repairs(nb_overlay *ov)
{
    const nb_bundle *b = ov->b;
    size_t n = 0;
    for (size_t i = 0; i < b->nsections; i++)
        n += b->sections[i].info.type == NB_SEC_ABSTRACT;
    if (n == 0)
        return 1;
    ov->rep = nbi_zalloc_array(ov->a, n, sizeof *ov->rep);
    if (!ov->rep)
        return 0;
    for (size_t i = 0; i < b->nsections; i++) {
        nbi_agraph g;
        if (b->sections[i].info.type != NB_SEC_ABSTRACT || nbi_agraph_at(b, i, &g, NULL) != NB_OK)
            continue;
        if (!nbi_repair_init(&ov->rep[ov->nrep++], b, &g))
            return 0;
    }
    return 1;
}

nb_status nb_overlay_open(const nb_bundle *b, nb_overlay **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_overlay_open: no place for the overlay");
    *out = NULL;
    if (!b || !b->has_map)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the bundle holds no map to block cells of",
                        b ? b->path : "(null)");
    nb_overlay *ov = nbi_blocked_new(b, bundle_cap(b));
    if (!ov || !make_repairs(ov)) {
        nb_overlay_close(ov);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for an overlay of a %u x %u map", b->width,
                        b->height);
    }
    *out = ov;
    nbi_ok(err);
    return NB_OK;
}

void nb_overlay_close(nb_overlay *ov)
{
    if (!ov)
        return;
    for (size_t i = 0; i < ov->nrep; i++)
        nbi_repair_free(&ov->rep[i]);
    nbi_free(ov->a, ov->rep);
    nbi_blocked_free(ov);
}

nb_status nb_overlay_clone(const nb_overlay *src, nb_overlay **out, nb_err *err)
{
    if (!src || !out)
        return nbi_fail(err, NB_ERR_ARG, "nb_overlay_clone: no overlay to copy or no place for it");
    *out = NULL;
    nb_overlay *ov = nbi_blocked_copy(src);
    if (!ov)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a copy of an overlay");
    if (src->nrep) {
        ov->rep = nbi_zalloc_array(ov->a, src->nrep, sizeof *ov->rep);
        int ok = ov->rep != NULL;
        for (size_t i = 0; ok && i < src->nrep; i++) {
            ok = nbi_repair_copy(&ov->rep[i], &src->rep[i]);
            ov->nrep = i + 1;
        }
        if (!ok) {
            nb_overlay_close(ov);
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for a copy of an overlay");
        }
    }
    *out = ov;
    nbi_ok(err);
    return NB_OK;
}

static nb_status rect_change(nb_overlay *ov, long x, long y, long w, long h, int block,
                             nb_err *err)
{
    nbi_rect r;
    nb_status st = nbi_blocked_rect(ov, block ? "nb_overlay_block" : "nb_overlay_unblock", x, y, w,
                                    h, &r, err);
    if (st != NB_OK)
        return st;
    nbi_rect k = nbi_blocked_band(ov, r);
    if (block && !nbi_blocked_claim(ov, k)) {
        nbi_blocked_release(ov, k);
        return nbi_fail(err, NB_ERR_NOMEM, "nb_overlay_block: no memory for the overlay's tiles "
                        "(nothing changed)");
    }
    nbi_blocked_change(ov, r, block);
    nbi_blocked_release(ov, k);
    for (size_t i = 0; i < ov->nrep; i++) {
        nbi_repair_mark(&ov->rep[i], k.x0, k.y0, k.x1, k.y1);
        nbi_repair_flush(&ov->rep[i], ov);
    }
    nbi_ok(err);
    return NB_OK;
}

nb_status nb_overlay_block(nb_overlay *ov, long x, long y, long w, long h, nb_err *err)
{
    return rect_change(ov, x, y, w, h, 1, err);
}

nb_status nb_overlay_unblock(nb_overlay *ov, long x, long y, long w, long h, nb_err *err)
{
    return rect_change(ov, x, y, w, h, 0, err);
}

static nb_status cells_change(nb_overlay *ov, const nb_cell *cells, size_t n, int block,
                              nb_err *err)
{
    const char *who = block ? "nb_overlay_block_cells" : "nb_overlay_unblock_cells";
    if (!ov || (n && !cells))
        return nbi_fail(err, NB_ERR_ARG, "%s: no overlay or no cells", who);
    nbi_rect r;
    for (size_t i = 0; i < n; i++) {
        nb_status st = nbi_blocked_rect(ov, who, cells[i].x, cells[i].y, 1, 1, &r, err);
        if (st != NB_OK) {
            nbi_err_prefix(err, "cell %zu of %zu", i, n);
            return st;
        }
    }
    /* Every tile any cell may write first, so that a failure changes nothing. */
    int ok = 1;
    for (size_t i = 0; block && ok && i < n; i++) {
        nbi_blocked_rect(ov, who, cells[i].x, cells[i].y, 1, 1, &r, NULL);
        ok = nbi_blocked_claim(ov, nbi_blocked_band(ov, r));
    }
    for (size_t i = 0; i < n; i++) {
        nbi_blocked_rect(ov, who, cells[i].x, cells[i].y, 1, 1, &r, NULL);
        if (ok)
            nbi_blocked_change(ov, r, block);
    }
    for (size_t i = 0; i < n; i++) {
        nbi_blocked_rect(ov, who, cells[i].x, cells[i].y, 1, 1, &r, NULL);
        nbi_rect k = nbi_blocked_band(ov, r);
        nbi_blocked_release(ov, k);
        for (size_t j = 0; ok && j < ov->nrep; j++)
            nbi_repair_mark(&ov->rep[j], k.x0, k.y0, k.x1, k.y1);
    }
    for (size_t j = 0; ok && j < ov->nrep; j++)
        nbi_repair_flush(&ov->rep[j], ov);
    if (!ok)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for the overlay's tiles (nothing "
                        "changed)", who);
    nbi_ok(err);
    return NB_OK;
}

nb_status nb_overlay_block_cells(nb_overlay *ov, const nb_cell *cells, size_t n, nb_err *err)
{
    return cells_change(ov, cells, n, 1, err);
}

nb_status nb_overlay_unblock_cells(nb_overlay *ov, const nb_cell *cells, size_t n, nb_err *err)
{
    return cells_change(ov, cells, n, 0, err);
}

void nb_overlay_clear(nb_overlay *ov)
{
    if (!ov)
        return;
    nbi_blocked_clear(ov);
    for (size_t i = 0; i < ov->nrep; i++)
        nbi_repair_reset(&ov->rep[i]);
}

/* ---- questions ---- */

int nb_overlay_blocked(const nb_overlay *ov, long x, long y)
{
    if (!ov || x < 0 || y < 0 || x >= (long)ov->width || y >= (long)ov->height)
        return 0;
    return nbi_overlay_lim(ov, (uint32_t)x, (uint32_t)y) == 0;
}

uint64_t nb_overlay_blocked_count(const nb_overlay *ov) { return ov ? ov->blocked : 0; }

size_t nb_overlay_bytes(const nb_overlay *ov)
{
    if (!ov)
        return 0;
    size_t rep = ov->nrep * sizeof *ov->rep;
    for (size_t i = 0; i < ov->nrep; i++)
        rep += nbi_repair_bytes(&ov->rep[i]);
    return nbi_blocked_bytes(ov) + rep;
}
