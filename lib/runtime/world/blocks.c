/* blocks.c: the level of tile blocks above a world's HAA* graph
 * (NB_SEC_WORLD_BLOCKS, formats/world.md), checked.  A search over it
 * trusts that each block's entries are nodes of the block's own tiles and
 * each arc joins two entries of one block no shorter than their cells lie
 * apart; every count, index and arc is checked here once, with the world
 * graph's counts, whatever the bytes (the entries' cells are the world
 * graph's, checked with their tile as a search reaches it). */
#include <stdio.h>

#include "world/world.h"

#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)

long nbi_wblocks_index(const nb_bundle *b, uint32_t capability, uint32_t size)
{
    for (size_t i = 0; i < b->nsections; i++)
        if (b->sections[i].info.type == NB_SEC_WORLD_BLOCKS &&
            b->sections[i].info.param[0] == capability && b->sections[i].info.param[1] == size)
            return (long)i;
    return -1;
}

/* Block k's entries: ordered nodes of its own tiles, and their arcs. */
static nb_status block_ok(const nb_bundle *b, size_t idx, const nbi_wblocks *r,
                          const nbi_wgraph *g, uint32_t k, nb_err *err)
{
    uint32_t e0 = nbi_u32at(r->block_first, k), e1 = nbi_u32at(r->block_first, k + 1);
    uint32_t bx = k % r->columns, by = k / r->columns;
    for (uint32_t e = e0; e < e1; e++) {
        uint32_t u = nbi_u32at(r->entry, e), t = u < g->nodes ? nbi_wgraph_node_tile(g, u) : 0;
        if (u >= g->nodes || (t % g->columns) / r->side != bx || (t / g->columns) / r->side != by ||
            (e > e0 && u <= nbi_u32at(r->entry, e - 1)))
            return FAIL("%s: section %zu (world_blocks), block (%u, %u): entry %u (node %u) is not "
                        "a node of the block's tiles after the entry before",
                        b->path, idx, bx, by, e, u);
    }
    for (uint32_t e = e0; e < e1; e++) {
        uint32_t a0 = nbi_u32at(r->arc_first, e), a1 = nbi_u32at(r->arc_first, e + 1);
        if (a1 < a0 || a1 > r->arcs)
            return FAIL("%s: section %zu (world_blocks), block (%u, %u): entry %u's arcs %u to %u "
                        "are out of order",
                        b->path, idx, bx, by, e, a0, a1);
        const uint8_t *qu = g->node + (size_t)nbi_u32at(r->entry, e) * NBI_WGRAPH_NODE;
        for (uint32_t a = a0; a < a1; a++) {
            const uint8_t *q = r->arc + (size_t)a * NBI_WBLK_ARC;
            uint32_t f = nbi_get32(q + NBI_WBLK_A_TO), card = nbi_get32(q + NBI_WBLK_A_CARD),
                     diag = nbi_get32(q + NBI_WBLK_A_DIAG);
            if (f < e0 || f >= e1 || f == e)
                return FAIL("%s: section %zu (world_blocks), block (%u, %u): arc %u from entry %u "
                            "to %u leaves the block's entries %u to %u",
                            b->path, idx, bx, by, a, e, f, e0, e1);
            const uint8_t *qv = g->node + (size_t)nbi_u32at(r->entry, f) * NBI_WGRAPH_NODE;
            if (card >= (1u << 30) || diag >= (1u << 30) ||
                nbi_wsteps_too_short(card, diag, nbi_get32(qu + NBI_WGRAPH_N_X),
                                     nbi_get32(qu + NBI_WGRAPH_N_Y), nbi_get32(qv + NBI_WGRAPH_N_X),
                                     nbi_get32(qv + NBI_WGRAPH_N_Y)))
                return FAIL("%s: section %zu (world_blocks), block (%u, %u): arc %u from entry %u "
                            "to %u (%u and %u steps) is shorter than the cells lie apart",
                            b->path, idx, bx, by, a, e, f, card, diag);
        }
    }
    return NB_OK;
}

nb_status nbi_wblocks_at(const nb_bundle *b, size_t idx, nbi_wblocks *out, nb_err *err)
{
    nb_status st = nbi_world_payload(b, idx, NB_SEC_WORLD_BLOCKS, NBI_WBLK_VERSION,
                                     NBI_WBLK_HEADER, "world_blocks", err);
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[idx].info;
    const uint8_t *p = b->sections[idx].payload;
    nbi_wblocks r;
    r.capability = nbi_get32(p + NBI_WBLK_CAPABILITY);
    r.size = nbi_get32(p + NBI_WBLK_SIZE);
    r.nodes = nbi_get32(p + NBI_WBLK_NODES);
    r.side = nbi_get32(p + NBI_WBLK_SIDE);
    r.columns = nbi_get32(p + NBI_WBLK_COLUMNS);
    r.rows = nbi_get32(p + NBI_WBLK_ROWS);
    r.entries = nbi_get32(p + NBI_WBLK_ENTRIES);
    r.arcs = nbi_get32(p + NBI_WBLK_ARCS);
    if (r.capability != in->param[0] || r.size != in->param[1] || r.side != in->param[2] ||
        r.entries != in->param[3])
        return FAIL("%s: section %zu (world_blocks): the section table and the payload disagree on "
                    "its capability, size, side or entries",
                    b->path, idx);
    long gi = nbi_wgraph_index(b, r.capability, r.size);
    nbi_wgraph g;
    if (gi < 0)
        return FAIL("%s: section %zu (world_blocks) without the world graph of capability %#x and "
                    "size %u it is above",
                    b->path, idx, r.capability, r.size);
    if ((st = nbi_wgraph_at(b, (size_t)gi, &g, err)) != NB_OK)
        return st;
    uint32_t trows = g.tiles / g.columns;
    if (r.side < 1 || r.side > NBI_WBLK_MAX_SIDE || r.nodes != g.nodes ||
        r.columns != (g.columns + r.side - 1) / r.side || r.rows != (trows + r.side - 1) / r.side)
        return FAIL("%s: section %zu (world_blocks): blocks of %u tiles, %u x %u of them over %u "
                    "nodes, expected 1 to %u tiles a side tiling the world graph's %u x %u tiles "
                    "of %u nodes",
                    b->path, idx, r.side, r.columns, r.rows, r.nodes, NBI_WBLK_MAX_SIDE,
                    g.columns, trows, g.nodes);
    uint64_t K = (uint64_t)r.columns * r.rows;
    uint64_t want = NBI_WBLK_HEADER + 4 * (K + 1) + 4 * (uint64_t)r.entries +
                    4 * ((uint64_t)r.entries + 1) + NBI_WBLK_ARC * (uint64_t)r.arcs;
    if (r.entries > g.nodes || in->usize != want)
        return FAIL("%s: section %zu (world_blocks): %llu bytes for %llu blocks, %u entries and "
                    "%u arcs, expected %llu (at most the world graph's %u nodes as entries)",
                    b->path, idx, (unsigned long long)in->usize, (unsigned long long)K,
                    r.entries, r.arcs, (unsigned long long)want, g.nodes);
    r.block_first = p + NBI_WBLK_HEADER;
    r.entry = r.block_first + 4 * ((size_t)K + 1);
    r.arc_first = r.entry + 4 * (size_t)r.entries;
    r.arc = r.arc_first + 4 * ((size_t)r.entries + 1);
    if (nbi_u32at(r.block_first, 0) || nbi_u32at(r.block_first, (size_t)K) != r.entries ||
        nbi_u32at(r.arc_first, 0) || nbi_u32at(r.arc_first, r.entries) != r.arcs)
        return FAIL("%s: section %zu (world_blocks): its indexes do not start at 0 and end at its "
                    "counts",
                    b->path, idx);
    for (uint32_t k = 0; k < K; k++) {
        uint32_t a = nbi_u32at(r.block_first, k), e = nbi_u32at(r.block_first, k + 1);
        if (e < a || e > r.entries)
            return FAIL("%s: section %zu (world_blocks): block %u's entries %u to %u are out of "
                        "order",
                        b->path, idx, k, a, e);
    }
    for (uint32_t k = 0; k < K; k++)
        if ((st = block_ok(b, idx, &r, &g, k, err)) != NB_OK)
            return st;
    r.section = (long)idx;
    *out = r;
    return NB_OK;
}

nb_status nbi_wblocks_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_wblocks r;
    return nbi_wblocks_at(b, idx, &r, err);
}
