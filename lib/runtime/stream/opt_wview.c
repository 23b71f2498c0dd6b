/* opt_wview.c: the world bundle's world_opt section read in place for
 * nb_world_sg_find (issue 31: memory follows the tiles held).  The copy
 * (opt_wsec.c) held every tile's border and every portal's landmark
 * distances in memory, about 630 MB at 32768^2; here a query reads the
 * mapping, so only the pages of the tiles it touches are resident, and
 * nb_world_trim can give them back.
 *
 * Still untrusted: the header, every tile's extent and its counts, and
 * the landmarks' nodes are checked at open (a word per tile); a tile's
 * border (nbi_oborder_check), the nodes its moves reach and its nodes'
 * landmark distances the first time a query reads it, as opt_wsec.c
 * checks them all at once; a packed row each time it is unpacked (the
 * query refuses a row that does not decode).  A tile is marked in the
 * view, so its checks run once a workspace. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/format.h"
#include "core/grid.h"
#include "stream/opt_world.h"

#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)

void nbi_wopv_free(nbi_wopv *o)
{
    nbi_free(o->a, o->first);
    nbi_free(o->a, o->lbase);
    nbi_free(o->a, o->checked);
    memset(o, 0, sizeof *o);
}

nb_cell nbi_wopv_cell(const nbi_wopv *o, uint32_t t, uint32_t i)
{
    const uint8_t *c = nbi_wopv_border(o, t) + NBI_OBORDER_HEADER + (size_t)i * NBI_OBORDER_PORTAL;
    return (nb_cell){(int32_t)(t % o->x->columns * o->x->side + nbi_get16(c + NBI_OBORDER_P_X)),
                     (int32_t)(t / o->x->columns * o->x->side + nbi_get16(c + NBI_OBORDER_P_Y))};
}

uint32_t nbi_wopv_cells(const nbi_wopv *o, uint32_t t, nb_cell *out)
{
    uint32_t n = o->first[t + 1] - o->first[t];
    for (uint32_t i = 0; i < n; i++)
        out[i] = nbi_wopv_cell(o, t, i);
    return n;
}

uint32_t nbi_wopv_tile_of(const nbi_wopv *o, uint32_t v)
{
    uint32_t lo = 0, hi = o->tiles;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (o->first[mid] <= v)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static nb_status check_border(nbi_wopv *o, uint32_t t, nb_err *err)
{
    if (o->checked[t])
        return NB_OK;
    char tw[192];
    snprintf(tw, sizeof tw, "%s: tile (%u, %u)", o->where, t % o->x->columns, t / o->x->columns);
    nbi_wtile g = nbi_wopt_tag(o->x, t);
    uint32_t a = nbi_u32at(o->off, t), e = nbi_u32at(o->off, t + 1);
    uint32_t param[4] = {o->capability, o->size, o->corner, o->first[t + 1] - o->first[t]};
    nb_status st = nbi_oborder_check(o->bytes + a, e - a, param, &g, tw, err);
    if (st == NB_OK)
        o->checked[t] = NBI_WOV_BORDER;
    return st;
}

/* Tile t's moves out: each to the node of the tile it enters at the cell
 * it ends on (that tile's border checked for it); each of its nodes'
 * landmark distances -1 or finite, no less than the octile distance, 0
 * at the landmark; the two ends of each move both reached or neither, no
 * farther apart than the move's cost. */
static nb_status check_moves(nbi_wopv *o, uint32_t t, nb_err *err)
{
    const nbi_windex *x = o->x;
    const uint8_t *p = nbi_wopv_border(o, t);
    uint32_t n = nbi_get32(p + NBI_OBORDER_PORTALS), nl = nbi_get32(p + NBI_OBORDER_LINKS);
    const uint8_t *links = p + NBI_OBORDER_HEADER + (size_t)n * NBI_OBORDER_PORTAL + 4 * ((size_t)n + 1);
    const uint32_t k = o->nland;
    nb_cell lc[NBI_WOPT_MAX_LANDMARKS];
    for (uint32_t i = 0; i < k; i++)
        lc[i] = nbi_wopv_cell(o, nbi_wopv_tile_of(o, o->land[i]), o->land[i] - o->first[nbi_wopv_tile_of(o, o->land[i])]);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = o->first[t] + i;
        nb_cell c = nbi_wopv_cell(o, t, i);
        for (uint32_t j = 0; j < k; j++) {
            double d = nbi_wopv_ld(o, v, j);
            if (!(d == -1 || (isfinite(d) && d >= nbi_octile_cells(lc[j].x, lc[j].y, c.x, c.y) - 1e-9)) ||
                (v == o->land[j] && d != 0))
                return FAIL("%s: landmark %u (node %u)'s distance to node %u (%d, %d) is %g, "
                            "below the octile distance, not finite, or not 0 from itself",
                            o->where, j, o->land[j], v, c.x, c.y, d);
        }
    }
    for (uint32_t l = 0; l < nl; l++) {
        const uint8_t *q = links + (size_t)l * NBI_OBORDER_LINK;
        uint32_t i = nbi_get16(q + NBI_OBORDER_L_PORTAL), m = q[NBI_OBORDER_L_MOVE];
        nb_cell from = nbi_wopv_cell(o, t, i),
                c = {from.x + nbi_move_dx[m], from.y + nbi_move_dy[m]};
        uint32_t v = nbi_u32at(o->target, (size_t)o->lbase[t] + l);
        int inside = c.x >= 0 && c.y >= 0 && (uint32_t)c.x < x->width && (uint32_t)c.y < x->height;
        uint32_t u = inside ? nbi_wopt_tile(x, c) : 0;
        nb_status st = inside ? check_border(o, u, err) : NB_OK;
        if (st != NB_OK)
            return st;
        nb_cell at = inside && v >= o->first[u] && v < o->first[u + 1]
                         ? nbi_wopv_cell(o, u, v - o->first[u])
                         : (nb_cell){-1, -1};
        if (!inside || at.x != c.x || at.y != c.y)
            return FAIL("%s: tile (%u, %u)'s move %u, from (%d, %d) to (%d, %d), names node %u, "
                        "not the portal there",
                        o->where, t % x->columns, t / x->columns, l, from.x, from.y, c.x, c.y, v);
        uint32_t w = o->first[t] + i;
        for (uint32_t j = 0; j < k; j++) {
            double du = nbi_wopv_ld(o, w, j), dv = nbi_wopv_ld(o, v, j);
            if ((du < 0) != (dv < 0) || fabs(du - dv) > nbi_move_cost(m) + 1e-9)
                return FAIL("%s: landmark %u's distances to nodes %u and %u, a move apart, "
                            "are %g and %g",
                            o->where, j, w, v, du, dv);
        }
    }
    return NB_OK;
}

nb_status nbi_wopv_tile_slow(nbi_wopv *o, uint32_t t, nb_err *err)
{
    nb_status st = check_border(o, t, err);
    if (st == NB_OK && (st = check_moves(o, t, err)) == NB_OK)
        o->checked[t] = NBI_WOV_ALL;
    return st;
}

nb_status nbi_wopv_open(const nb_bundle *b, size_t idx, const nbi_windex *x, const nb_allocator *a,
                       nbi_wopv *o, nb_err *err)
{
    memset(o, 0, sizeof *o);
    nb_status st = nbi_world_payload(b, idx, NB_SEC_WORLD_OPT, NBI_WOPT_VERSION, NBI_WOPT_HEADER,
                                     "world_opt", err);
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[idx].info;
    char where[160];
    snprintf(where, sizeof where, "%s: section %zu (world_opt)", b->path, idx);
    return nbi_wopv_open_payload(b->sections[idx].payload, (size_t)in->usize, in->param, x, where,
                                a, o, err);
}

/* The tiles' extents and counts: each tile's bytes inside the borders,
 * after the one before, as long as its header's counts say; its portals
 * and moves adding up to the header's N and L. */
static nb_status read_extents(nbi_wopv *o, uint32_t b, nb_err *err)
{
    if (nbi_u32at(o->off, 0) != 0 || nbi_u32at(o->off, o->tiles) != b)
        return FAIL("%s: its tiles span bytes %u to %u of %u", o->where, nbi_u32at(o->off, 0),
                    nbi_u32at(o->off, o->tiles), b);
    uint64_t nodes = 0, links = 0;
    for (uint32_t t = 0; t < o->tiles; t++) {
        uint32_t s = nbi_u32at(o->off, t), e = nbi_u32at(o->off, t + 1);
        if (e < s || e - s < NBI_OBORDER_HEADER)
            return FAIL("%s: tile (%u, %u)'s border: bytes %u to %u, shorter than its header",
                        o->where, t % o->x->columns, t / o->x->columns, s, e);
        const uint8_t *p = o->bytes + s;
        uint32_t n = nbi_get32(p + NBI_OBORDER_PORTALS), nl = nbi_get32(p + NBI_OBORDER_LINKS),
                 nb = nbi_get32(p + NBI_OBORDER_BYTES);
        uint64_t want = NBI_OBORDER_HEADER + (uint64_t)n * NBI_OBORDER_PORTAL +
                        4 * ((uint64_t)n + 1) + (uint64_t)nl * NBI_OBORDER_LINK + nb;
        if (e - s != want)
            return FAIL("%s: tile (%u, %u)'s border: %u bytes for %u portals, %u links and %u "
                        "packed bytes, expected %llu",
                        o->where, t % o->x->columns, t / o->x->columns, e - s, n, nl, nb,
                        (unsigned long long)want);
        o->first[t] = (uint32_t)(nodes < UINT32_MAX ? nodes : UINT32_MAX);
        o->lbase[t] = (uint32_t)(links < UINT32_MAX ? links : UINT32_MAX);
        nodes += n;
        links += nl;
        o->maxp = n > o->maxp ? n : o->maxp;
    }
    if (nodes != o->nodes || links != o->links)
        return FAIL("%s: %u nodes and %u moves between tiles; its tiles hold %llu and %llu",
                    o->where, o->nodes, o->links, (unsigned long long)nodes,
                    (unsigned long long)links);
    o->first[o->tiles] = o->nodes;
    o->lbase[o->tiles] = o->links;
    return NB_OK;
}

nb_status nbi_wopv_open_payload(const uint8_t *p, size_t len, const uint32_t *param,
                               const nbi_windex *x, const char *where, const nb_allocator *a,
                               nbi_wopv *o, nb_err *err)
{
    memset(o, 0, sizeof *o);
    o->a = a, o->x = x;
    snprintf(o->where, sizeof o->where, "%s", where);
    if (len < NBI_WOPT_HEADER)
        return FAIL("%s: %zu bytes, shorter than its header of %d", where, len, NBI_WOPT_HEADER);
    o->capability = nbi_get32(p + NBI_WOPT_CAPABILITY);
    o->size = nbi_get32(p + NBI_WOPT_SIZE);
    o->corner = nbi_get32(p + NBI_WOPT_CORNER);
    o->tiles = nbi_get32(p + NBI_WOPT_TILES);
    o->nodes = nbi_get32(p + NBI_WOPT_NODES);
    o->links = nbi_get32(p + NBI_WOPT_LINKS);
    o->nland = nbi_get32(p + NBI_WOPT_LANDMARKS);
    uint32_t bytes = nbi_get32(p + NBI_WOPT_BYTES);
    if (o->capability != param[0] || o->size != param[1] || o->corner != param[2] ||
        o->nodes != param[3])
        return FAIL("%s: the section table and the payload disagree on its capability, size, "
                    "corner rule or nodes",
                    where);
    if (o->corner > 1 || o->nland > NBI_WOPT_MAX_LANDMARKS || o->nland > o->nodes)
        return FAIL("%s: corner rule %u (0 strict, 1 weak), %u landmarks (at most %d and the "
                    "nodes)", where, o->corner, o->nland, NBI_WOPT_MAX_LANDMARKS);
    if (o->tiles != x->columns * x->rows)
        return FAIL("%s: %u tiles; the world has %u x %u", where, o->tiles, x->columns, x->rows);
    uint64_t at = NBI_WOPT_HEADER + 4 * ((uint64_t)o->tiles + 1) + 4 * (uint64_t)o->links + bytes,
             want = at + 4 * (uint64_t)o->nland + 8 * (uint64_t)o->nland * o->nodes;
    if (len != want)
        return FAIL("%s: %zu bytes for %u tiles, %u moves between them, %u bytes of borders and "
                    "%u landmarks, expected %llu",
                    where, len, o->tiles, o->links, bytes, o->nland, (unsigned long long)want);
    o->off = p + NBI_WOPT_HEADER;
    o->target = o->off + 4 * ((size_t)o->tiles + 1);
    o->bytes = o->target + 4 * (size_t)o->links;
    o->ld = p + at + 4 * (size_t)o->nland;
    o->first = nbi_alloc_array(a, (size_t)o->tiles + 1, sizeof *o->first);
    o->lbase = nbi_alloc_array(a, (size_t)o->tiles + 1, sizeof *o->lbase);
    o->checked = nbi_zalloc_array(a, (size_t)o->tiles + 1, 1);
    if (!o->first || !o->lbase || !o->checked) {
        nbi_wopv_free(o);
        return nbi_fail_nomem(err, "the optimal layer across tiles");
    }
    nb_status st = read_extents(o, bytes, err);
    /* The landmarks: nodes, their tiles' borders checked (their cells
     * bound every tile's distances). */
    for (uint32_t i = 0; st == NB_OK && i < o->nland; i++)
        if ((o->land[i] = nbi_u32at(p + at, i)) >= o->nodes)
            st = FAIL("%s: landmark %u is node %u of %u", where, i, o->land[i], o->nodes);
        else
            st = check_border(o, nbi_wopv_tile_of(o, o->land[i]), err);
    if (st != NB_OK)
        nbi_wopv_free(o);
    return st;
}
