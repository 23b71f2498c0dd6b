/* insert.c: a tile's table for inserting a query's end (NB_SEC_TILE_INSERT,
 * formats/world.md), checked.  The insertion trusts that its portals are
 * the tile's border graph's, that each block lists exactly its border nodes
 * (a path from an end leaving the end's block leaves it at one of them, so
 * a node left out would make a cost too long) and that no distance is
 * shorter than its ends' cells lie apart; all of it is checked here once,
 * against the tile bundle's own graph, when the tile is loaded. */
#include <stdio.h>

#include "abstract/abstract.h"
#include "world/world.h"

#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)

static int in_core(const nbi_wtile *t, uint32_t x, uint32_t y)
{
    return x >= t->core_x && y >= t->core_y && x < t->core_x + t->core_w &&
           y < t->core_y + t->core_h;
}

static uint32_t node_x(const nbi_agraph *g, uint32_t u) { return nbi_u16at(g->node_xy, 2 * (size_t)u); }
static uint32_t node_y(const nbi_agraph *g, uint32_t u) { return nbi_u16at(g->node_xy, 2 * (size_t)u + 1); }

int nbi_tins_is_portal(const nbi_agraph *g, const nbi_wtile *t, uint32_t u, nb_capability cap,
                       uint32_t size)
{
    uint32_t x = node_x(g, u), y = node_y(g, u);
    if (!in_core(t, x, y) || (x != t->core_x && y != t->core_y && x != t->core_x + t->core_w - 1 &&
                              y != t->core_y + t->core_h - 1))
        return 0;
    for (uint32_t a = nbi_u32at(g->node_first, u); a < nbi_u32at(g->node_first, u + 1); a++) {
        uint32_t v = nbi_u32at(g->arc_to, a);
        if (nbi_agraph_admits(g, a, cap, size) && !in_core(t, node_x(g, v), node_y(g, v)))
            return 1;
    }
    return 0;
}

uint32_t nbi_tins_block_of(const nbi_wtile *t, uint32_t side, uint32_t x, uint32_t y)
{
    uint32_t bcols = (t->core_w + side - 1) / side;
    return (y - t->core_y) / side * bcols + (x - t->core_x) / side;
}

/* The block of node u of the tile's cells, or UINT32_MAX outside them. */
static uint32_t node_block(const nbi_agraph *g, const nbi_wtile *t, uint32_t side, uint32_t u)
{
    uint32_t x = node_x(g, u), y = node_y(g, u);
    return in_core(t, x, y) ? nbi_tins_block_of(t, side, x, y) : UINT32_MAX;
}

uint32_t nbi_tins_border_block(const nbi_agraph *g, const nbi_wtile *t, uint32_t side,
                               uint32_t u, nb_capability cap, uint32_t size)
{
    uint32_t bu = node_block(g, t, side, u);
    if (bu == UINT32_MAX)
        return UINT32_MAX;
    for (uint32_t a = nbi_u32at(g->node_first, u); a < nbi_u32at(g->node_first, u + 1); a++) {
        uint32_t bv = node_block(g, t, side, nbi_u32at(g->arc_to, a));
        if (bv != UINT32_MAX && bv != bu && nbi_agraph_admits(g, a, cap, size))
            return bu;
    }
    return UINT32_MAX;
}

/* The portals: increasing nodes, exactly those nbi_tins_is_portal takes. */
static nb_status check_portals(const nb_bundle *b, size_t idx, const nbi_tins *r,
                               const nbi_agraph *g, const nbi_wtile *t, nb_err *err)
{
    uint32_t i = 0;
    for (uint32_t u = 0; u < g->nnodes; u++) {
        if (!nbi_tins_is_portal(g, t, u, r->capability, r->size))
            continue;
        if (i >= r->portals || nbi_u32at(r->portal, i) != u)
            return FAIL("%s: section %zu (tile_insert), offset %zu: portal %u is not node %u, the "
                        "tile's portal there",
                        b->path, idx, (size_t)NBI_TINS_HEADER + 4 * (size_t)i, i, u);
        i++;
    }
    if (i != r->portals)
        return FAIL("%s: section %zu (tile_insert), offset %d: %u portals, the tile's graph has %u",
                    b->path, idx, NBI_TINS_PORTALS, r->portals, i);
    return NB_OK;
}

/* The border nodes: block_first ordered, each block's list exactly its
 * border nodes, increasing (so one pass over the nodes meets them in order
 * within their blocks). */
static nb_status check_borders(const nb_bundle *b, size_t idx, const nbi_tins *r,
                               const nbi_agraph *g, const nbi_wtile *t, nb_err *err)
{
    size_t first_at = NBI_TINS_HEADER + 4 * (size_t)r->portals;
    size_t border_at = first_at + 4 * ((size_t)r->blocks + 1);
    if (nbi_u32at(r->block_first, 0) != 0 || nbi_u32at(r->block_first, r->blocks) != r->borders)
        return FAIL("%s: section %zu (tile_insert), offset %zu: the blocks' border nodes do not "
                    "run from 0 to %u",
                    b->path, idx, first_at, r->borders);
    for (uint32_t k = 0; k < r->blocks; k++)
        if (nbi_u32at(r->block_first, k + 1) < nbi_u32at(r->block_first, k))
            return FAIL("%s: section %zu (tile_insert), offset %zu: block %u's border nodes end "
                        "before they start",
                        b->path, idx, first_at + 4 * ((size_t)k + 1), k);
    for (uint32_t k = 0; k < r->blocks; k++) {
        uint32_t e = nbi_u32at(r->block_first, k), e1 = nbi_u32at(r->block_first, k + 1);
        for (; e < e1; e++) {
            uint32_t u = nbi_u32at(r->border, e);
            if (u >= g->nnodes || (e > nbi_u32at(r->block_first, k) &&
                                   u <= nbi_u32at(r->border, e - 1)) ||
                nbi_tins_border_block(g, t, r->side, u, r->capability, r->size) != k)
                return FAIL("%s: section %zu (tile_insert), offset %zu: border node %u (node %u) "
                            "is not a border node of block %u after the one before",
                            b->path, idx, border_at + 4 * (size_t)e, e, u, k);
        }
    }
    /* Every border node listed: as many listed as the graph has. */
    uint32_t n = 0;
    for (uint32_t u = 0; u < g->nnodes; u++)
        n += nbi_tins_border_block(g, t, r->side, u, r->capability, r->size) != UINT32_MAX;
    if (n != r->borders)
        return FAIL("%s: section %zu (tile_insert), offset %zu: %u border nodes listed, the "
                    "tile's graph has %u in blocks of %u cells",
                    b->path, idx, border_at, r->borders, n, r->side);
    return NB_OK;
}

/* Every distance none, or below 2^30 steps and no shorter than the octile
 * distance between its border node's and its portal's cells. */
static nb_status check_dist(const nb_bundle *b, size_t idx, const nbi_tins *r,
                            const nbi_agraph *g, nb_err *err)
{
    size_t dist_at = NBI_TINS_HEADER + 4 * ((size_t)r->portals + r->blocks + 1 + r->borders);
    for (uint32_t j = 0; j < r->borders; j++) {
        uint32_t u = nbi_u32at(r->border, j);
        int32_t ux = (int32_t)node_x(g, u), uy = (int32_t)node_y(g, u);
        for (uint32_t i = 0; i < r->portals; i++) {
            uint32_t card, diag, p = nbi_u32at(r->portal, i);
            if (!nbi_tins_steps(r, j, i, &card, &diag))
                continue;
            if (card >= (1u << 30) || diag >= (1u << 30) ||
                nbi_steps_length(card, diag) + 1e-9 <
                    nbi_octile_cells(ux, uy, (int32_t)node_x(g, p), (int32_t)node_y(g, p)))
                return FAIL("%s: section %zu (tile_insert), offset %zu: border node %u to portal "
                            "%u (%u and %u steps) is shorter than their cells lie apart",
                            b->path, idx,
                            dist_at + (size_t)r->width * 2 * ((size_t)j * r->portals + i), j, i,
                            card, diag);
        }
    }
    return NB_OK;
}

nb_status nbi_tins_at(const nb_bundle *b, size_t idx, nbi_tins *out, nb_err *err)
{
    nb_status st = nbi_world_payload(b, idx, NB_SEC_TILE_INSERT, NBI_TINS_VERSION,
                                     NBI_TINS_HEADER, "tile_insert", err);
    nbi_wtile t;
    nbi_agraph g;
    if (st == NB_OK && (st = nbi_wtile_find(b, &t, err)) == NB_ERR_NOTFOUND)
        return FAIL("%s: section %zu (tile_insert) without the tile section it is the table of",
                    b->path, idx);
    if (st == NB_OK)
        st = nbi_agraph_under(b, idx, &g, err);
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[idx].info;
    const uint8_t *p = b->sections[idx].payload;
    nbi_tins r;
    r.capability = nbi_get32(p + NBI_TINS_CAPABILITY);
    r.size = nbi_get32(p + NBI_TINS_SIZE);
    uint32_t bsz = nbi_get32(p + NBI_TINS_SIDE), nodes = nbi_get32(p + NBI_TINS_NODES);
    r.portals = nbi_get32(p + NBI_TINS_PORTALS);
    r.borders = nbi_get32(p + NBI_TINS_BORDERS);
    r.blocks = nbi_get32(p + NBI_TINS_BLOCKS);
    r.width = nbi_get32(p + NBI_TINS_WIDTH);
    if (r.capability != in->param[0] || r.size != in->param[1] || bsz != in->param[2] ||
        r.portals != in->param[3] || r.borders != in->param[4])
        return FAIL("%s: section %zu (tile_insert), offset %d: the section table and the payload "
                    "disagree on its capability, size, blocks, portals or border nodes",
                    b->path, idx, NBI_TINS_CAPABILITY);
    if (bsz < 1 || bsz > NBI_TINS_MAX_SIDE || nodes != g.nnodes || (r.width != 2 && r.width != 4) ||
        g.cluster != t.cluster || t.core_w < 1 || t.core_h < 1)
        return FAIL("%s: section %zu (tile_insert), offset 0: blocks of %u clusters (1 to %u), %u "
                    "nodes (the graph's %u), steps of %u bytes (2 or 4): not this tile's table",
                    b->path, idx, bsz, NBI_TINS_MAX_SIDE, nodes, g.nnodes, r.width);
    r.side = bsz * t.cluster;
    r.bcols = (t.core_w + r.side - 1) / r.side;
    uint32_t brows = (t.core_h + r.side - 1) / r.side;
    uint64_t want = NBI_TINS_HEADER +
                    4 * ((uint64_t)r.portals + (uint64_t)r.bcols * brows + 1 + r.borders) +
                    2 * (uint64_t)r.width * r.borders * r.portals;
    if (r.blocks != r.bcols * brows || r.portals > g.nnodes || r.borders > g.nnodes ||
        in->usize != want)
        return FAIL("%s: section %zu (tile_insert), offset %d: %llu bytes for %u portals, %u "
                    "blocks and %u border nodes, expected %u blocks and %llu bytes",
                    b->path, idx, NBI_TINS_BLOCKS, (unsigned long long)in->usize, r.portals,
                    r.blocks, r.borders, r.bcols * brows, (unsigned long long)want);
    r.core_x = t.core_x, r.core_y = t.core_y, r.core_w = t.core_w, r.core_h = t.core_h;
    r.portal = p + NBI_TINS_HEADER;
    r.block_first = r.portal + 4 * (size_t)r.portals;
    r.border = r.block_first + 4 * ((size_t)r.blocks + 1);
    r.dist = r.border + 4 * (size_t)r.borders;
    r.section = (long)idx;
    if ((st = check_portals(b, idx, &r, &g, &t, err)) != NB_OK ||
        (st = check_borders(b, idx, &r, &g, &t, err)) != NB_OK ||
        (st = check_dist(b, idx, &r, &g, err)) != NB_OK)
        return st;
    *out = r;
    return NB_OK;
}

nb_status nbi_tins_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_tins r;
    return nbi_tins_at(b, idx, &r, err);
}
