/* blocked.c: the cells an overlay blocks and what they take from each
 * cell's clearance (blocked.h): the tiles of min(cap, D) and their
 * changes.  The public handle (nb_overlay_*, navbake.h) is overlay/
 * overlay.c's, which also keeps HAA*'s repaired clusters up to date above
 * the abstract graph; this layer sits below every search that reads it.
 *
 * A change at a rectangle R = [x0, x1) x [y0, y1) sets or clears the
 * cells' blocks, then recomputes min(cap, D) (blocked.h) over the band
 * [x0 - cap + 1, x1) x [y0 - cap + 1, y1), right to left and bottom to top,
 * from the values right of and below each cell: the cells beyond the band
 * cannot see R (their squares of side cap do not reach it), so they keep
 * their values.  A change costs (w + cap - 1) (h + cap - 1) cells, whatever
 * the map's size.  Every tile a block may write is made before the first
 * cell changes, so a change that runs out of memory changes nothing. */
#include <stdatomic.h>

#include "blocked/blocked.h"

/* The one count shared by every overlay of the process: versions never repeat, even for an
 * overlay made where a closed one was (an address and a count of changes could). */
static _Atomic uint64_t versions;

uint64_t nbi_blocked_next_version(void)
{
    return atomic_fetch_add(&versions, 1) + 1;
}

nb_status nbi_overlay_check_fail(const nb_overlay *ov, const nb_bundle *b, const char *who,
                                 nb_err *err)
{
    return nbi_fail(err, NB_ERR_ARG,
                    "%s: the overlay was made from another bundle (%s) than the query's (%s)", who,
                    ov->b->path, b->path);
}

nb_overlay *nbi_blocked_new(const nb_bundle *b, uint32_t cap)
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
    ov->version = nbi_blocked_next_version();
    size_t n = (size_t)ov->tw * ov->th;
    ov->tile = nbi_alloc_array(ov->a, n, sizeof *ov->tile);
    ov->low = nbi_zalloc_array(ov->a, n, sizeof *ov->low);
    ov->full = nbi_alloc(ov->a, NBI_OV_TILE);
    if (!ov->tile || !ov->low || !ov->full) {
        nbi_free(ov->a, ov->tile);
        ov->tile = NULL;
        nbi_blocked_free(ov);
        return NULL;
    }
    memset(ov->full, (int)cap, NBI_OV_TILE);
    for (size_t k = 0; k < n; k++)
        ov->tile[k] = ov->full;
    return ov;
}

void nbi_blocked_free(nb_overlay *ov)
{
    if (!ov)
        return;
    if (ov->tile) {
        size_t n = (size_t)ov->tw * ov->th;
        for (size_t k = 0; k < n; k++)
            if (ov->tile[k] != ov->full)
                nbi_free(ov->a, ov->tile[k]);
    }
    nbi_free(ov->a, ov->tile);
    nbi_free(ov->a, ov->low);
    nbi_free(ov->a, ov->full);
    nbi_free(ov->a, ov);
}

nb_overlay *nbi_blocked_copy(const nb_overlay *src)
{
    nb_overlay *ov = nbi_blocked_new(src->b, src->cap);
    if (!ov)
        return NULL;
    size_t n = (size_t)ov->tw * ov->th;
    for (size_t k = 0; k < n; k++) {
        if (src->tile[k] == src->full)
            continue;
        uint8_t *t = nbi_alloc(ov->a, NBI_OV_TILE);
        if (!t) {
            nbi_blocked_free(ov);
            return NULL;
        }
        memcpy(t, src->tile[k], NBI_OV_TILE);
        ov->tile[k] = t;
        ov->held++;
    }
    memcpy(ov->low, src->low, n * sizeof *ov->low);
    ov->blocked = src->blocked;
    return ov;
}

/* ---- changes ---- */

/* The band whose values a change at r may move. */
nbi_rect nbi_blocked_band(const nb_overlay *ov, nbi_rect r)
{
    nbi_rect k = r;
    k.x0 = r.x0 >= ov->cap - 1 ? r.x0 - (ov->cap - 1) : 0;
    k.y0 = r.y0 >= ov->cap - 1 ? r.y0 - (ov->cap - 1) : 0;
    return k;
}

/* Gives each tile over r a copy of its own; 0 without memory (the tiles made then stay, empty,
 * for nbi_blocked_release to take back). */
int nbi_blocked_claim(nb_overlay *ov, nbi_rect r)
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
void nbi_blocked_release(nb_overlay *ov, nbi_rect r)
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
 * the band's tiles are the overlay's own (nbi_blocked_claim). */
void nbi_blocked_change(nb_overlay *ov, nbi_rect r, int block)
{
    nbi_rect k = nbi_blocked_band(ov, r);
    const uint32_t cap = ov->cap;
    ov->version = nbi_blocked_next_version();
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

nb_status nbi_blocked_rect(const nb_overlay *ov, const char *who, long x, long y, long w, long h,
                         nbi_rect *r, nb_err *err)
{
    if (!ov)
        return nbi_fail(err, NB_ERR_ARG, "%s: no overlay", who);
    if (w < 1 || h < 1)
        return nbi_fail(err, NB_ERR_ARG, "%s: a rectangle of %ld x %ld cells; its sides are 1 or "
                        "more", who, w, h);
    if (x < 0 || y < 0 || x >= (long)ov->width || y >= (long)ov->height ||
        w > (long)ov->width - x || h > (long)ov->height - y)
        return nbi_fail(err, NB_ERR_OUTSIDE,
                        "%s: the rectangle %ld,%ld,%ld,%ld (x, y, width, height) is off "
                        "the %u x %u map",
                        who, x, y, w, h, ov->width, ov->height);
    r->x0 = (uint32_t)x;
    r->y0 = (uint32_t)y;
    r->x1 = (uint32_t)(x + w);
    r->y1 = (uint32_t)(y + h);
    return NB_OK;
}

void nbi_blocked_clear(nb_overlay *ov)
{
    size_t n = (size_t)ov->tw * ov->th;
    for (size_t k = 0; k < n; k++) {
        if (ov->tile[k] != ov->full)
            nbi_free(ov->a, ov->tile[k]);
        ov->tile[k] = ov->full;
        ov->low[k] = 0;
    }
    ov->held = 0;
    ov->blocked = 0;
    ov->version = nbi_blocked_next_version();
}

size_t nbi_blocked_bytes(const nb_overlay *ov)
{
    size_t n = (size_t)ov->tw * ov->th;
    return sizeof *ov + n * (sizeof *ov->tile + sizeof *ov->low) + (ov->held + 1) * NBI_OV_TILE;
}
