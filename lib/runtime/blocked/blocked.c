/* overlay.c: runtime obstacles (navbake.h, nb_overlay_open(3)): cells
 * blocked and unblocked at run time, kept beside a read-only bundle.
 *
 * A change at a rectangle R = [x0, x1) x [y0, y1) sets or clears the
 * cells' blocks, then recomputes min(cap, D) (overlay.h) over the band
 * [x0 - cap + 1, x1) x [y0 - cap + 1, y1), right to left and bottom to top,
 * from the values right of and below each cell: the cells beyond the band
 * cannot see R (their squares of side cap do not reach it), so they keep
 * their values.  A change costs (w + cap - 1) (h + cap - 1) cells, whatever
 * the map's size.  Every tile a block may write is made before the first
 * cell changes, so a change that runs out of memory changes nothing. */
#include "blocked/blocked.h"
#include "abstract/repair.h"
#include "clearance/clearance.h"

nb_status nbi_overlay_check(const nb_overlay *ov, const nb_bundle *b, const char *who, nb_err *err)
{
    if (ov && ov->b != b)
        return nbi_fail(err, NB_ERR_ARG,
                        "%s: the overlay was made from another bundle (%s) than the query's (%s)",
                        who, ov->b->path, b->path);
    return NB_OK;
}

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

static nb_overlay *make(const nb_bundle *b, uint32_t cap)
{
    nb_overlay *ov = nbi_zalloc_array(b->a, 1, sizeof *ov);
    if (!ov)
        return NULL;
    ov->b = b;
    ov->a = b->a;
    ov->width = b->width;
    ov->height = b->height;
    ov->tw = (b->width + NBI_OV_MASK) >> NBI_OV_SHIFT;
    ov->th = (b->height + NBI_OV_MASK) >> NBI_OV_SHIFT;
    ov->cap = cap;
    size_t n = (size_t)ov->tw * ov->th;
    ov->tile = nbi_alloc_array(ov->a, n, sizeof *ov->tile);
    ov->low = nbi_zalloc_array(ov->a, n, sizeof *ov->low);
    ov->full = nbi_alloc(ov->a, NBI_OV_TILE);
    if (!ov->tile || !ov->low || !ov->full) {
        nbi_free(ov->a, ov->tile);
        ov->tile = NULL;
        nb_overlay_close(ov);
        return NULL;
    }
    memset(ov->full, (int)cap, NBI_OV_TILE);
    for (size_t k = 0; k < n; k++)
        ov->tile[k] = ov->full;
    return ov;
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
    nb_overlay *ov = make(b, bundle_cap(b));
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
    if (ov->tile) {
        size_t n = (size_t)ov->tw * ov->th;
        for (size_t k = 0; k < n; k++)
            if (ov->tile[k] != ov->full)
                nbi_free(ov->a, ov->tile[k]);
    }
    for (size_t i = 0; i < ov->nrep; i++)
        nbi_repair_free(&ov->rep[i]);
    nbi_free(ov->a, ov->rep);
    nbi_free(ov->a, ov->tile);
    nbi_free(ov->a, ov->low);
    nbi_free(ov->a, ov->full);
    nbi_free(ov->a, ov);
}

nb_status nb_overlay_clone(const nb_overlay *src, nb_overlay **out, nb_err *err)
{
    if (!src || !out)
        return nbi_fail(err, NB_ERR_ARG, "nb_overlay_clone: no overlay to copy or no place for it");
    *out = NULL;
    nb_overlay *ov = make(src->b, src->cap);
    if (!ov)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a copy of an overlay");
    size_t n = (size_t)ov->tw * ov->th;
    for (size_t k = 0; k < n; k++) {
        if (src->tile[k] == src->full)
            continue;
        uint8_t *t = nbi_alloc(ov->a, NBI_OV_TILE);
        if (!t) {
            nb_overlay_close(ov);
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for a copy of an overlay");
        }
        memcpy(t, src->tile[k], NBI_OV_TILE);
        ov->tile[k] = t;
        ov->held++;
    }
    memcpy(ov->low, src->low, n * sizeof *ov->low);
    ov->blocked = src->blocked;
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

/* ---- changes ---- */

/* A rectangle of cells, x0 <= x < x1, y0 <= y < y1. */
typedef struct rect {
    uint32_t x0, y0, x1, y1;
} rect;

/* The band whose values a change at r may move. */
static rect band_of(const nb_overlay *ov, rect r)
{
    rect k = r;
    k.x0 = r.x0 >= ov->cap - 1 ? r.x0 - (ov->cap - 1) : 0;
    k.y0 = r.y0 >= ov->cap - 1 ? r.y0 - (ov->cap - 1) : 0;
    return k;
}

/* Gives each tile over r a copy of its own; 0 without memory (the tiles made then stay, empty,
 * for release to take back). */
static int claim(nb_overlay *ov, rect r)
{
    for (uint32_t ty = r.y0 >> NBI_OV_SHIFT; ty <= (r.y1 - 1) >> NBI_OV_SHIFT; ty++)
        for (uint32_t tx = r.x0 >> NBI_OV_SHIFT; tx <= (r.x1 - 1) >> NBI_OV_SHIFT; tx++) {
            size_t k = (size_t)ty * ov->tw + tx;
            if (ov->tile[k] != ov->full)
                continue;
            uint8_t *t = nbi_alloc(ov->a, NBI_OV_TILE);
            if (!t)
                return 0;
            memcpy(t, ov->full, NBI_OV_TILE);
            ov->tile[k] = t;
            ov->held++;
        }
    return 1;
}

/* Frees the tiles over r whose cells all read the cap again. */
static void release(nb_overlay *ov, rect r)
{
    for (uint32_t ty = r.y0 >> NBI_OV_SHIFT; ty <= (r.y1 - 1) >> NBI_OV_SHIFT; ty++)
        for (uint32_t tx = r.x0 >> NBI_OV_SHIFT; tx <= (r.x1 - 1) >> NBI_OV_SHIFT; tx++) {
            size_t k = (size_t)ty * ov->tw + tx;
            if (ov->tile[k] == ov->full || ov->low[k])
                continue;
            nbi_free(ov->a, ov->tile[k]);
            ov->tile[k] = ov->full;
            ov->held--;
        }
}

/* min(cap, D) right of or below the map's cells: no block there. */
static inline uint32_t lim_at(const nb_overlay *ov, uint32_t x, uint32_t y)
{
    return x < ov->width && y < ov->height ? nbi_overlay_lim(ov, x, y) : ov->cap;
}

/* Blocks (block 1) or unblocks the cells of r, and brings the band up to date.  With block,
 * the band's tiles are the overlay's own (claim). */
static void change(nb_overlay *ov, rect r, int block)
{
    rect k = band_of(ov, r);
    const uint32_t cap = ov->cap;
    for (uint32_t y = k.y1; y-- > k.y0;) {
        for (uint32_t x = k.x1; x-- > k.x0;) {
            size_t t = (size_t)(y >> NBI_OV_SHIFT) * ov->tw + (x >> NBI_OV_SHIFT);
            uint8_t *c = &ov->tile[t][(y & NBI_OV_MASK) << NBI_OV_SHIFT | (x & NBI_OV_MASK)];
            uint32_t old = *c, v;
            int in = x >= r.x0 && y >= r.y0; /* x < r.x1 and y < r.y1 in any band */
            if (in ? block : old == 0) {
                v = 0;
            } else {
                uint32_t m = lim_at(ov, x + 1, y), d = lim_at(ov, x, y + 1),
                         e = lim_at(ov, x + 1, y + 1);
                m = d < m ? d : m;
                m = e < m ? e : m;
                v = m + 1 < cap ? m + 1 : cap;
            }
            if (v == old)
                continue;
            /* Only a block lowers values, and it has claimed its tiles. */
            *c = (uint8_t)v;
            ov->low[t] = (uint16_t)(ov->low[t] + (v < cap) - (old < cap));
            ov->blocked += (uint64_t)(v == 0) - (uint64_t)(old == 0);
        }
    }
}

static nb_status rect_of(const nb_overlay *ov, const char *who, long x, long y, long w, long h,
                         rect *r, nb_err *err)
{
    if (!ov)
        return nbi_fail(err, NB_ERR_ARG, "%s: no overlay", who);
    if (w < 1 || h < 1)
        return nbi_fail(err, NB_ERR_ARG, "%s: a rectangle of %ld x %ld cells; its sides are 1 or "
                        "more", who, w, h);
    if (x < 0 || y < 0 || x >= (long)ov->width || y >= (long)ov->height ||
        w > (long)ov->width - x || h > (long)ov->height - y)
        return nbi_fail(err, NB_ERR_ARG,
                        "%s: the rectangle %ld,%ld,%ld,%ld (x, y, width, height) is not inside "
                        "the %u x %u map",
                        who, x, y, w, h, ov->width, ov->height);
    r->x0 = (uint32_t)x;
    r->y0 = (uint32_t)y;
    r->x1 = (uint32_t)(x + w);
    r->y1 = (uint32_t)(y + h);
    return NB_OK;
}

static nb_status rect_change(nb_overlay *ov, long x, long y, long w, long h, int block,
                             nb_err *err)
{
    rect r;
    nb_status st = rect_of(ov, block ? "nb_overlay_block" : "nb_overlay_unblock", x, y, w, h, &r,
                           err);
    if (st != NB_OK)
        return st;
    rect k = band_of(ov, r);
    if (block && !claim(ov, k)) {
        release(ov, k);
        return nbi_fail(err, NB_ERR_NOMEM, "nb_overlay_block: no memory for the overlay's tiles "
                        "(nothing changed)");
    }
    change(ov, r, block);
    release(ov, k);
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
    rect r;
    for (size_t i = 0; i < n; i++) {
        nb_status st = rect_of(ov, who, cells[i].x, cells[i].y, 1, 1, &r, err);
        if (st != NB_OK) {
            nbi_err_prefix(err, "cell %zu of %zu", i, n);
            return st;
        }
    }
    /* Every tile any cell may write first, so that a failure changes nothing. */
    int ok = 1;
    for (size_t i = 0; block && ok && i < n; i++) {
        rect_of(ov, who, cells[i].x, cells[i].y, 1, 1, &r, NULL);
        ok = claim(ov, band_of(ov, r));
    }
    for (size_t i = 0; i < n; i++) {
        rect_of(ov, who, cells[i].x, cells[i].y, 1, 1, &r, NULL);
        if (ok)
            change(ov, r, block);
    }
    for (size_t i = 0; i < n; i++) {
        rect_of(ov, who, cells[i].x, cells[i].y, 1, 1, &r, NULL);
        rect k = band_of(ov, r);
        release(ov, k);
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
    size_t n = (size_t)ov->tw * ov->th;
    for (size_t k = 0; k < n; k++) {
        if (ov->tile[k] != ov->full)
            nbi_free(ov->a, ov->tile[k]);
        ov->tile[k] = ov->full;
        ov->low[k] = 0;
    }
    ov->held = 0;
    ov->blocked = 0;
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
    size_t n = (size_t)ov->tw * ov->th, rep = ov->nrep * sizeof *ov->rep;
    for (size_t i = 0; i < ov->nrep; i++)
        rep += nbi_repair_bytes(&ov->rep[i]);
    return sizeof *ov + n * (sizeof *ov->tile + sizeof *ov->low) + (ov->held + 1) * NBI_OV_TILE +
           rep;
}

int nb_overlay_can_stand(const nb_overlay *ov, nb_capability cap, unsigned size, long x, long y)
{
    if (!ov)
        return -1;
    int r = nb_can_stand(ov->b, cap, size, x, y);
    if (r != 1)
        return r;
    return nbi_overlay_room(ov, size, (uint32_t)x, (uint32_t)y);
}

int nb_overlay_reachable(const nb_overlay *ov, nb_capability cap, unsigned size, nb_cell from,
                         nb_cell to)
{
    if (!ov)
        return -1;
    int r = nb_reachable(ov->b, cap, size, from, to);
    if (r != 1)
        return r;
    /* Blocks only take cells away: the bundle's "apart" stands, and its "joined" holds while
     * both ends stand and nothing is blocked. */
    if (nb_overlay_can_stand(ov, cap, size, from.x, from.y) != 1 ||
        nb_overlay_can_stand(ov, cap, size, to.x, to.y) != 1)
        return 0;
    return ov->blocked ? NB_REACH_UNKNOWN : 1;
}
