/* opt_wsec.c: the world bundle's world_opt section (NB_SEC_WORLD_OPT,
 * format.h, formats/world.md), which navbake world link writes from the
 * tiles' border_opt sections, read back checked for nb_world_sg_open:
 * the counts against the table and the payload's length, every tile's
 * border as nbi_oborder_read checks it (a tile's shape from the world
 * section), and every move between tiles ending on the node it names;
 * then the landmarks' distances (read_landmarks says what is checked).
 * The query reads the section in place (opt_wview.c, the same checks a
 * tile at a time); this copy is what the tests hold it against. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/format.h"
#include "core/grid.h"
#include "stream/opt_world.h"

#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)

void nbi_wopt_free(nbi_wopt *o)
{
    const nb_allocator *a = o->a;
    for (uint32_t t = 0; o->tile && t < o->tiles; t++)
        nbi_optb_free(&o->tile[t]);
    nbi_free(a, o->tile);
    nbi_free(a, o->first);
    nbi_free(a, o->cell);
    nbi_free(a, o->lfirst);
    nbi_free(a, o->lto);
    nbi_free(a, o->lmove);
    nbi_free(a, o->land);
    nbi_free(a, o->ld);
    memset(o, 0, sizeof *o);
}

static nb_status read_tiles(nbi_wopt *o, const uint8_t *p, const nbi_windex *x,
                            const char *where, nb_err *err)
{
    const uint8_t *off = p + NBI_WOPT_HEADER, *target = off + 4 * ((size_t)o->tiles + 1),
                  *bytes = target + 4 * (size_t)o->links;
    uint32_t b = nbi_get32(p + NBI_WOPT_BYTES);
    if (nbi_u32at(off, 0) != 0 || nbi_u32at(off, o->tiles) != b)
        return FAIL("%s: its tiles span bytes %u to %u of %u", where, nbi_u32at(off, 0),
                    nbi_u32at(off, o->tiles), b);
    uint64_t nodes = 0, links = 0;
    for (uint32_t t = 0; t < o->tiles; t++) {
        uint32_t a = nbi_u32at(off, t), e = nbi_u32at(off, t + 1);
        char tw[192];
        snprintf(tw, sizeof tw, "%s: tile (%u, %u)", where, t % x->columns, t / x->columns);
        if (e < a)
            return FAIL("%s's border ends (byte %u) before it begins (byte %u)", tw, e, a);
        if (e - a < NBI_OBORDER_HEADER)
            return FAIL("%s's border: %u bytes, shorter than its header", tw, e - a);
        nbi_wtile g = nbi_wopt_tag(x, t);
        uint32_t param[4] = {o->capability, o->size, o->corner,
                             nbi_get32(bytes + a + NBI_OBORDER_PORTALS)};
        nb_status st = nbi_oborder_read(bytes + a, e - a, param, &g, tw, o->a, &o->tile[t], err);
        if (st != NB_OK)
            return st;
        o->first[t] = (uint32_t)nodes;
        nodes += o->tile[t].n;
        links += o->tile[t].nlinks;
        o->maxp = o->tile[t].n > o->maxp ? o->tile[t].n : o->maxp;
    }
    if (nodes != o->nodes || links != o->links)
        return FAIL("%s: %u nodes and %u moves between tiles; its tiles hold %llu and %llu", where,
                    o->nodes, o->links, (unsigned long long)nodes, (unsigned long long)links);
    o->first[o->tiles] = o->nodes;
    return NB_OK;
}

/* Every move out of a tile: to a node of the tile it enters, at the cell
 * it ends on. */
static nb_status read_moves(nbi_wopt *o, const uint8_t *target, const nbi_windex *x,
                            const char *where, nb_err *err)
{
    uint32_t k = 0;
    for (uint32_t t = 0; t < o->tiles; t++) {
        const nbi_optb *b = &o->tile[t];
        uint32_t l = 0;
        for (uint32_t i = 0; i < b->n; i++) {
            o->lfirst[o->first[t] + i] = k;
            for (; l < b->nlinks && b->link_from[l] == i; l++, k++) {
                uint32_t v = nbi_u32at(target, k);
                nb_cell c = b->link_to[l];
                int inside = c.x >= 0 && c.y >= 0 && (uint32_t)c.x < x->width &&
                             (uint32_t)c.y < x->height;
                uint32_t u = inside ? nbi_wopt_tile(x, c) : 0;
                if (!inside || v >= o->nodes || v < o->first[u] || v >= o->first[u + 1] ||
                    o->cell[v].x != c.x || o->cell[v].y != c.y)
                    return FAIL("%s: tile (%u, %u)'s move %u, from (%d, %d) to (%d, %d), names "
                                "node %u, not the portal there",
                                where, t % x->columns, t / x->columns, l, b->cell[i].x,
                                b->cell[i].y, c.x, c.y, v);
                o->lto[k] = v;
                o->lmove[k] = b->link_move[l];
            }
        }
    }
    o->lfirst[o->nodes] = k;
    return NB_OK;
}

/* The landmarks after the tiles' bytes (q): each a node, 0 from itself;
 * every distance -1 (not reached) or finite and no less than the octile
 * distance between the cells; both ends of every move between tiles
 * reached or neither, their distances apart by no more than the move's
 * cost.  Not checked: the same against the tiles' rows (as dear as every
 * row unpacked once more a landmark): a distance wrong there can make
 * the bound too large and the path longer than the shortest, never
 * illegal. */
static nb_status read_landmarks(nbi_wopt *o, const uint8_t *q, const char *where, nb_err *err)
{
    const uint32_t k = o->nland;
    if (!k)
        return NB_OK;
    o->land = nbi_alloc_array(o->a, k, sizeof *o->land);
    o->ld = nbi_alloc_array(o->a, (size_t)o->nodes * k + 1, sizeof *o->ld);
    if (!o->land || !o->ld)
        return nbi_fail_nomem(err, "the optimal layer's landmarks");
    for (uint32_t i = 0; i < k; i++)
        if ((o->land[i] = nbi_u32at(q, i)) >= o->nodes)
            return FAIL("%s: landmark %u is node %u of %u", where, i, o->land[i], o->nodes);
    q += 4 * (size_t)k;
    for (size_t v = 0; v < o->nodes; v++)
        for (uint32_t i = 0; i < k; i++) {
            double d = nbi_getf64(q + 8 * (v * k + i));
            nb_cell a = o->cell[o->land[i]], c = o->cell[v];
            if (!(d == -1 || (isfinite(d) && d >= nbi_octile_cells(a.x, a.y, c.x, c.y) - 1e-9)) ||
                (v == o->land[i] && d != 0))
                return FAIL("%s: landmark %u (node %u)'s distance to node %zu (%d, %d) is %g, "
                            "below the octile distance, not finite, or not 0 from itself",
                            where, i, o->land[i], v, c.x, c.y, d);
            o->ld[v * k + i] = d;
        }
    for (uint32_t u = 0; u < o->nodes; u++)
        for (uint32_t l = o->lfirst[u]; l < o->lfirst[u + 1]; l++)
            for (uint32_t i = 0; i < k; i++) {
                double du = o->ld[(size_t)u * k + i], dv = o->ld[(size_t)o->lto[l] * k + i];
                if ((du < 0) != (dv < 0) || fabs(du - dv) > nbi_move_cost(o->lmove[l]) + 1e-9)
                    return FAIL("%s: landmark %u's distances to nodes %u and %u, a move apart, "
                                "are %g and %g",
                                where, i, u, o->lto[l], du, dv);
            }
    return NB_OK;
}

nb_status nbi_wopt_read(const nb_bundle *b, size_t idx, const nbi_windex *x,
                        const nb_allocator *a, nbi_wopt *o, nb_err *err)
{
    memset(o, 0, sizeof *o);
    o->a = a;
    nb_status st = nbi_world_payload(b, idx, NB_SEC_WORLD_OPT, NBI_WOPT_VERSION, NBI_WOPT_HEADER,
                                     "world_opt", err);
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[idx].info;
    char where[160];
    snprintf(where, sizeof where, "%s: section %zu (world_opt)", b->path, idx);
    return nbi_wopt_read_payload(b->sections[idx].payload, (size_t)in->usize, in->param, x, where,
                                 a, o, err);
}

nb_status nbi_wopt_read_payload(const uint8_t *p, size_t len, const uint32_t *param,
                                const nbi_windex *x, const char *where, const nb_allocator *a,
                                nbi_wopt *o, nb_err *err)
{
    memset(o, 0, sizeof *o);
    o->a = a;
    nb_status st;
    if (len < NBI_WOPT_HEADER)
        return FAIL("%s: %zu bytes, shorter than its header of %d", where, len, NBI_WOPT_HEADER);
    o->capability = nbi_get32(p + NBI_WOPT_CAPABILITY);
    o->size = nbi_get32(p + NBI_WOPT_SIZE);
    o->corner = nbi_get32(p + NBI_WOPT_CORNER);
    o->tiles = nbi_get32(p + NBI_WOPT_TILES);
    o->nodes = nbi_get32(p + NBI_WOPT_NODES);
    o->links = nbi_get32(p + NBI_WOPT_LINKS);
    uint32_t bytes = nbi_get32(p + NBI_WOPT_BYTES);
    if (o->capability != param[0] || o->size != param[1] || o->corner != param[2] ||
        o->nodes != param[3])
        return FAIL("%s: the section table and the payload disagree on its capability, size, "
                    "corner rule or nodes",
                    where);
    o->nland = nbi_get32(p + NBI_WOPT_LANDMARKS);
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
    o->tile = nbi_zalloc_array(a, o->tiles, sizeof *o->tile);
    o->first = nbi_alloc_array(a, (size_t)o->tiles + 1, sizeof *o->first);
    if (!o->tile || !o->first) {
        nbi_wopt_free(o);
        return nbi_fail_nomem(err, "the optimal layer across tiles");
    }
    if ((st = read_tiles(o, p, x, where, err)) != NB_OK) {
        nbi_wopt_free(o);
        return st;
    }
    o->cell = nbi_alloc_array(a, (size_t)o->nodes + 1, sizeof *o->cell);
    o->lfirst = nbi_alloc_array(a, (size_t)o->nodes + 1, sizeof *o->lfirst);
    o->lto = nbi_alloc_array(a, (size_t)o->links + 1, sizeof *o->lto);
    o->lmove = nbi_alloc_array(a, (size_t)o->links + 1, 1);
    if (!o->cell || !o->lfirst || !o->lto || !o->lmove) {
        nbi_wopt_free(o);
        return nbi_fail_nomem(err, "the optimal layer across tiles");
    }
    for (uint32_t t = 0; t < o->tiles; t++)
        if (o->tile[t].n)
            memcpy(o->cell + o->first[t], o->tile[t].cell, o->tile[t].n * sizeof *o->cell);
    st = read_moves(o, p + NBI_WOPT_HEADER + 4 * ((size_t)o->tiles + 1), x, where, err);
    if (st == NB_OK)
        st = read_landmarks(o, p + at, where, err);
    if (st != NB_OK)
        nbi_wopt_free(o);
    return st;
}
