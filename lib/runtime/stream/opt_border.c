/* opt_border.c: a tile's border data for the optimal layer across tiles
 * as a section (NB_SEC_BORDER_OPT, format.h, formats/world.md): written
 * by the tile action, read back by the link and the runtime.  What it
 * reads is untrusted: every count, cell, offset and link is checked, and
 * every packed row decoded once, so that the overlay built from it reads
 * nothing out of bounds. */
#include <stdio.h>
#include <string.h>

#include "core/format.h"
#include "core/grid.h"
#include "stream/opt_world.h"

#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)

nb_status nbi_oborder_put(const nbi_optb *b, const nbi_wtile *t, nb_capability cap, uint32_t size,
                          int corner, const nb_allocator *a, uint8_t **out, size_t *len,
                          nb_err *err)
{
    size_t n = b->n, cells = NBI_OBORDER_HEADER + n * NBI_OBORDER_PORTAL,
           rows = cells + 4 * (n + 1), links = rows + (size_t)b->nlinks * NBI_OBORDER_LINK;
    if (n > UINT16_MAX + 1u || t->core_w > UINT16_MAX || t->core_h > UINT16_MAX)
        return nbi_fail(err, NB_ERR_LIMIT, "a tile of %u x %u cells with %zu portals: the "
                                           "optimal layer's border holds at most 65536 of "
                                           "65535 x 65535", t->core_w, t->core_h, n);
    uint8_t *p = nbi_alloc_array(a, links + b->packed_len, 1);
    if (!p)
        return nbi_fail_nomem(err, "a tile's optimal border");
    memset(p, 0, links);
    uint32_t hd[8] = {cap, size, (uint32_t)corner, b->n, b->nlinks, (uint32_t)b->packed_len,
                      t->core_w, t->core_h};
    for (int i = 0; i < 8; i++)
        nbi_put32(p + 4 * i, hd[i]);
    int32_t x0 = (int32_t)(t->origin_x + t->core_x), y0 = (int32_t)(t->origin_y + t->core_y);
    for (size_t i = 0; i < n; i++) {
        nbi_put16(p + NBI_OBORDER_HEADER + i * NBI_OBORDER_PORTAL + NBI_OBORDER_P_X,
                  (uint16_t)(b->cell[i].x - x0));
        nbi_put16(p + NBI_OBORDER_HEADER + i * NBI_OBORDER_PORTAL + NBI_OBORDER_P_Y,
                  (uint16_t)(b->cell[i].y - y0));
    }
    for (size_t i = 0; i <= n; i++)
        nbi_put32(p + cells + 4 * i, b->row[i]);
    for (size_t k = 0; k < b->nlinks; k++) {
        uint8_t *q = p + rows + k * NBI_OBORDER_LINK;
        nbi_put16(q + NBI_OBORDER_L_PORTAL, (uint16_t)b->link_from[k]);
        q[NBI_OBORDER_L_MOVE] = b->link_move[k];
    }
    if (b->packed_len)
        memcpy(p + links, b->packed, b->packed_len);
    *out = p;
    *len = links + b->packed_len;
    return NB_OK;
}

/* 1 when local (x, y) is on the edge of a w x h tile. */
static int on_edge(uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    return x < w && y < h && (x == 0 || y == 0 || x == w - 1 || y == h - 1);
}

static nb_status check_header(const uint8_t *p, size_t len, const uint32_t *param,
                              const nbi_wtile *t, const char *where, nb_err *err)
{
    if (len < NBI_OBORDER_HEADER)
        return FAIL("%s: %zu bytes, shorter than its header of %d", where, len,
                    NBI_OBORDER_HEADER);
    uint32_t n = nbi_get32(p + NBI_OBORDER_PORTALS), nl = nbi_get32(p + NBI_OBORDER_LINKS);
    uint32_t bytes = nbi_get32(p + NBI_OBORDER_BYTES), corner = nbi_get32(p + NBI_OBORDER_CORNER);
    if (nbi_get32(p + NBI_OBORDER_CAPABILITY) != param[0] ||
        nbi_get32(p + NBI_OBORDER_SIZE) != param[1] || corner != param[2] || n != param[3])
        return FAIL("%s: the section table and the payload disagree on its capability, size, "
                    "corner rule or portals",
                    where);
    if (corner > 1)
        return FAIL("%s: corner rule %u (0 strict, 1 weak)", where, corner);
    if (nbi_get32(p + NBI_OBORDER_WIDTH) != t->core_w ||
        nbi_get32(p + NBI_OBORDER_HEIGHT) != t->core_h)
        return FAIL("%s: for a tile of %u x %u cells; its tile section says %u x %u", where,
                    nbi_get32(p + NBI_OBORDER_WIDTH), nbi_get32(p + NBI_OBORDER_HEIGHT),
                    t->core_w, t->core_h);
    uint64_t want = NBI_OBORDER_HEADER + (uint64_t)n * NBI_OBORDER_PORTAL + 4 * ((uint64_t)n + 1) +
                    (uint64_t)nl * NBI_OBORDER_LINK + bytes;
    if (n > nbi_ring_inner(t->core_w, t->core_h) || nl > (uint64_t)n * 5 || len != want)
        return FAIL("%s: %zu bytes for %u portals, %u links and %u packed bytes, expected %llu "
                    "(a tile of %u x %u has at most %zu portals, 5 moves out each)",
                    where, len, n, nl, bytes, (unsigned long long)want, t->core_w, t->core_h,
                    (size_t)nbi_ring_inner(t->core_w, t->core_h));
    return NB_OK;
}

nb_status nbi_oborder_check(const uint8_t *p, size_t len, const uint32_t *param,
                            const nbi_wtile *t, const char *where, nb_err *err)
{
    nb_status st = check_header(p, len, param, t, where, err);
    if (st != NB_OK)
        return st;
    uint32_t n = nbi_get32(p + NBI_OBORDER_PORTALS), nl = nbi_get32(p + NBI_OBORDER_LINKS);
    uint32_t bytes = nbi_get32(p + NBI_OBORDER_BYTES), w = t->core_w, h = t->core_h;
    const uint8_t *cells = p + NBI_OBORDER_HEADER, *rows = cells + (size_t)n * NBI_OBORDER_PORTAL,
                  *links = rows + 4 * ((size_t)n + 1);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = nbi_get16(cells + (size_t)i * NBI_OBORDER_PORTAL + NBI_OBORDER_P_X),
                 y = nbi_get16(cells + (size_t)i * NBI_OBORDER_PORTAL + NBI_OBORDER_P_Y);
        if (!on_edge(x, y, w, h))
            return FAIL("%s: portal %u at (%u, %u) is not on the edge of the tile's %u x %u cells",
                        where, i, x, y, w, h);
        if (i) {
            uint32_t px = nbi_get16(cells + (size_t)(i - 1) * NBI_OBORDER_PORTAL + NBI_OBORDER_P_X),
                     py = nbi_get16(cells + (size_t)(i - 1) * NBI_OBORDER_PORTAL + NBI_OBORDER_P_Y);
            if (y < py || (y == py && x <= px))
                return FAIL("%s: portal %u at (%u, %u) does not follow portal %u at (%u, %u) row "
                            "by row",
                            where, i, x, y, i - 1, px, py);
        }
    }
    if (nbi_u32at(rows, 0) != 0 || nbi_u32at(rows, n) != bytes)
        return FAIL("%s: its rows span bytes %u to %u of %u packed", where, nbi_u32at(rows, 0),
                    nbi_u32at(rows, n), bytes);
    for (uint32_t i = 0; i < n; i++)
        if (nbi_u32at(rows, i + 1) < nbi_u32at(rows, i))
            return FAIL("%s: portal %u's row ends (byte %u) before it begins (byte %u)", where, i,
                        nbi_u32at(rows, i + 1), nbi_u32at(rows, i));
    uint32_t last = 0;
    for (uint32_t k = 0; k < nl; k++) {
        const uint8_t *q = links + (size_t)k * NBI_OBORDER_LINK;
        uint32_t i = nbi_get16(q + NBI_OBORDER_L_PORTAL), d = q[NBI_OBORDER_L_MOVE];
        uint32_t key = i * NBI_MOVES + d;
        if (i >= n || d >= NBI_MOVES || q[NBI_OBORDER_L_ZERO])
            return FAIL("%s: link %u (portal %u, move %u) is not a move of a portal", where, k,
                        i, d);
        int64_t x = nbi_get16(cells + (size_t)i * NBI_OBORDER_PORTAL + NBI_OBORDER_P_X) +
                    nbi_move_dx[d],
                y = nbi_get16(cells + (size_t)i * NBI_OBORDER_PORTAL + NBI_OBORDER_P_Y) +
                    nbi_move_dy[d];
        if (x >= 0 && y >= 0 && x < w && y < h)
            return FAIL("%s: link %u (portal %u, move %u) stays in the tile", where, k, i, d);
        if (k && key <= last)
            return FAIL("%s: link %u (portal %u, move %u) does not follow the one before, by "
                        "portal then move",
                        where, k, i, d);
        last = key;
    }
    return NB_OK;
}

nb_status nbi_oborder_read(const uint8_t *p, size_t len, const uint32_t *param,
                           const nbi_wtile *t, const char *where, const nb_allocator *a,
                           nbi_optb *out, nb_err *err)
{
    memset(out, 0, sizeof *out);
    out->a = a;
    nb_status st = nbi_oborder_check(p, len, param, t, where, err);
    if (st != NB_OK)
        return st;
    uint32_t n = nbi_get32(p + NBI_OBORDER_PORTALS), nl = nbi_get32(p + NBI_OBORDER_LINKS);
    uint32_t bytes = nbi_get32(p + NBI_OBORDER_BYTES);
    const uint8_t *cells = p + NBI_OBORDER_HEADER, *rows = cells + (size_t)n * NBI_OBORDER_PORTAL,
                  *links = rows + 4 * ((size_t)n + 1), *packed = links + (size_t)nl * NBI_OBORDER_LINK;
    int32_t x0 = (int32_t)(t->origin_x + t->core_x), y0 = (int32_t)(t->origin_y + t->core_y);
    out->cell = nbi_alloc_array(a, (size_t)n + 1, sizeof *out->cell);
    out->row = nbi_alloc_array(a, (size_t)n + 1, sizeof *out->row);
    out->packed = nbi_alloc_array(a, (size_t)bytes + 1, 1);
    out->link_from = nbi_alloc_array(a, (size_t)nl + 1, sizeof *out->link_from);
    out->link_to = nbi_alloc_array(a, (size_t)nl + 1, sizeof *out->link_to);
    out->link_move = nbi_alloc_array(a, (size_t)nl + 1, 1);
    if (!out->cell || !out->row || !out->packed || !out->link_from || !out->link_to ||
        !out->link_move) {
        nbi_optb_free(out);
        return nbi_fail_nomem(err, "a tile's optimal border");
    }
    out->n = n, out->nlinks = nl, out->packed_len = bytes;
    for (uint32_t i = 0; i < n; i++)
        out->cell[i] = (nb_cell){
            x0 + (int32_t)nbi_get16(cells + (size_t)i * NBI_OBORDER_PORTAL + NBI_OBORDER_P_X),
            y0 + (int32_t)nbi_get16(cells + (size_t)i * NBI_OBORDER_PORTAL + NBI_OBORDER_P_Y)};
    for (uint32_t i = 0; i <= n; i++)
        out->row[i] = nbi_u32at(rows, i);
    if (bytes)
        memcpy(out->packed, packed, bytes);
    for (uint32_t k = 0; k < nl; k++) {
        const uint8_t *q = links + (size_t)k * NBI_OBORDER_LINK;
        uint32_t i = nbi_get16(q + NBI_OBORDER_L_PORTAL), d = q[NBI_OBORDER_L_MOVE];
        out->link_from[k] = i;
        out->link_move[k] = (uint8_t)d;
        out->link_to[k] = (nb_cell){out->cell[i].x + nbi_move_dx[d], out->cell[i].y + nbi_move_dy[d]};
    }
    for (uint32_t i = 0; i < n; i++)
        if (!nbi_optb_unpack_row(out->packed + out->row[i], out->row[i + 1] - out->row[i],
                                 out->cell, n, i, NULL)) {
            nbi_optb_free(out);
            return FAIL("%s: the packed distances of its portal %u are not a row of %u", where, i,
                        n);
        }
    return NB_OK;
}
