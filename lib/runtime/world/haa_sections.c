/* haa_sections.c: the sections HAA* across tiles reads (formats/world.md):
 * a tile's border graph (NB_SEC_BORDER_GRAPH, in its border file: the
 * abstract nodes on the tile's edges with their distances inside it) and
 * the world's graph above the tiles (NB_SEC_WORLD_GRAPH, in the world
 * bundle: those nodes joined across the tiles' edges).  Both are untrusted
 * input: every count, index and cell is checked, and every distance is at
 * least the octile distance of its ends, which the world search's
 * heuristic needs. */
#include <stdio.h>

#include "core/grid.h"
#include "world/world.h"

#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)

/* 1 when (card, diag) steps cannot join cells a and b. */
static int too_short(uint32_t card, uint32_t diag, uint32_t ax, uint32_t ay, uint32_t bx,
                     uint32_t by)
{
    return nbi_steps_length(card, diag) + 1e-9 <
           nbi_octile_cells((int32_t)ax, (int32_t)ay, (int32_t)bx, (int32_t)by);
}

nb_status nbi_bgraph_at(const nb_bundle *b, size_t idx, nbi_bgraph *out, nb_err *err)
{
    nb_status st = nbi_world_payload(b, idx, NB_SEC_BORDER_GRAPH, NBI_BGRAPH_VERSION,
                                     NBI_BGRAPH_HEADER, "border_graph", err);
    nbi_wtile t;
    if (st == NB_OK && (st = nbi_wtile_find(b, &t, err)) == NB_ERR_NOTFOUND)
        return FAIL("%s: section %zu (border_graph) without the tile section it is the border of",
                    b->path, idx);
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[idx].info;
    const uint8_t *p = b->sections[idx].payload;
    nbi_bgraph r;
    r.capability = nbi_get32(p + NBI_BGRAPH_CAPABILITY);
    r.size = nbi_get32(p + NBI_BGRAPH_SIZE);
    r.portals = nbi_get32(p + NBI_BGRAPH_PORTALS);
    r.links = nbi_get32(p + NBI_BGRAPH_LINKS);
    if (r.capability != in->param[0] || r.size != in->param[1] || r.portals != in->param[2] ||
        r.links != in->param[3])
        return FAIL("%s: section %zu (border_graph): the section table and the payload disagree on "
                    "its capability, size, portals or links",
                    b->path, idx);
    uint64_t want = NBI_BGRAPH_HEADER + (uint64_t)r.portals * NBI_BGRAPH_PORTAL +
                    (uint64_t)r.links * NBI_BGRAPH_LINK + NBI_BGRAPH_DIST * (uint64_t)r.portals * r.portals;
    if (r.portals > nbi_ring_inner(t.core_w, t.core_h) * 4u || in->usize != want)
        return FAIL("%s: section %zu (border_graph): %llu bytes for %u portals and %u links, "
                    "expected %llu",
                    b->path, idx, (unsigned long long)in->usize, r.portals, r.links,
                    (unsigned long long)want);
    r.portal = p + NBI_BGRAPH_HEADER;
    r.link = r.portal + (size_t)r.portals * NBI_BGRAPH_PORTAL;
    r.dist = r.link + (size_t)r.links * NBI_BGRAPH_LINK;
    uint32_t x0 = t.origin_x + t.core_x, y0 = t.origin_y + t.core_y, x1 = x0 + t.core_w,
             y1 = y0 + t.core_h;
    for (uint32_t i = 0; i < r.portals; i++) {
        const uint8_t *q = r.portal + (size_t)i * NBI_BGRAPH_PORTAL;
        uint32_t node = nbi_get32(q + NBI_BGRAPH_P_NODE), x = nbi_get32(q + NBI_BGRAPH_P_X),
                 y = nbi_get32(q + NBI_BGRAPH_P_Y);
        if (i && node <= nbi_get32(q - NBI_BGRAPH_PORTAL + NBI_BGRAPH_P_NODE))
            return FAIL("%s: section %zu (border_graph): portal %u's node %u does not follow the "
                        "one before",
                        b->path, idx, i, node);
        if (x < x0 || y < y0 || x >= x1 || y >= y1 ||
            (x != x0 && y != y0 && x != x1 - 1 && y != y1 - 1))
            return FAIL("%s: section %zu (border_graph): portal %u at (%u, %u) is not on the edge "
                        "of the tile's cells (%u, %u) to (%u, %u)",
                        b->path, idx, i, x, y, x0, y0, x1 - 1, y1 - 1);
    }
    for (uint32_t k = 0; k < r.links; k++) {
        const uint8_t *q = r.link + (size_t)k * NBI_BGRAPH_LINK;
        uint32_t i = nbi_get32(q + NBI_BGRAPH_L_PORTAL), x = nbi_get32(q + NBI_BGRAPH_L_X),
                 y = nbi_get32(q + NBI_BGRAPH_L_Y);
        uint32_t card = nbi_get32(q + NBI_BGRAPH_L_CARD), diag = nbi_get32(q + NBI_BGRAPH_L_DIAG);
        const uint8_t *pi = r.portal + (size_t)(i < r.portals ? i : 0) * NBI_BGRAPH_PORTAL;
        if (i >= r.portals || (x >= x0 && y >= y0 && x < x1 && y < y1) || x >= t.width ||
            y >= t.height || card > t.side || diag > t.side ||
            too_short(card, diag, nbi_get32(pi + NBI_BGRAPH_P_X), nbi_get32(pi + NBI_BGRAPH_P_Y), x, y))
            return FAIL("%s: section %zu (border_graph): link %u (portal %u to (%u, %u), %u and "
                        "%u steps) does not leave the tile from a portal",
                        b->path, idx, k, i, x, y, card, diag);
    }
    for (uint32_t i = 0; i < r.portals; i++)
        for (uint32_t j = 0; j < r.portals; j++) {
            const uint8_t *d = r.dist + NBI_BGRAPH_DIST * ((size_t)i * r.portals + j);
            uint32_t card = nbi_get32(d + NBI_BGRAPH_D_CARD), diag = nbi_get32(d + NBI_BGRAPH_D_DIAG);
            const uint8_t *pi = r.portal + (size_t)i * NBI_BGRAPH_PORTAL;
            const uint8_t *pj = r.portal + (size_t)j * NBI_BGRAPH_PORTAL;
            int none = card == NBI_BGRAPH_NONE && diag == NBI_BGRAPH_NONE;
            if (i == j ? card || diag
                       : !none && (card == NBI_BGRAPH_NONE || diag == NBI_BGRAPH_NONE ||
                                   too_short(card, diag, nbi_get32(pi + NBI_BGRAPH_P_X),
                                             nbi_get32(pi + NBI_BGRAPH_P_Y), nbi_get32(pj + NBI_BGRAPH_P_X),
                                             nbi_get32(pj + NBI_BGRAPH_P_Y))))
                return FAIL("%s: section %zu (border_graph): the distance from portal %u to %u "
                            "(%u and %u steps) is shorter than the cells lie apart",
                            b->path, idx, i, j, card, diag);
        }
    r.section = (long)idx;
    *out = r;
    return NB_OK;
}

nb_status nbi_bgraph_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_bgraph r;
    return nbi_bgraph_at(b, idx, &r, err);
}

nb_status nbi_wgraph_at(const nb_bundle *b, size_t idx, nbi_wgraph *out, nb_err *err)
{
    nb_status st = nbi_world_payload(b, idx, NB_SEC_WORLD_GRAPH, NBI_WGRAPH_VERSION,
                                     NBI_WGRAPH_HEADER, "world_graph", err);
    nbi_windex x;
    if (st == NB_OK && (st = nbi_windex_find(b, &x, err)) == NB_ERR_NOTFOUND)
        return FAIL("%s: section %zu (world_graph) without the world section of its tiles",
                    b->path, idx);
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[idx].info;
    const uint8_t *p = b->sections[idx].payload;
    nbi_wgraph r;
    r.capability = nbi_get32(p + NBI_WGRAPH_CAPABILITY);
    r.size = nbi_get32(p + NBI_WGRAPH_SIZE);
    r.nodes = nbi_get32(p + NBI_WGRAPH_NODES);
    r.arcs = nbi_get32(p + NBI_WGRAPH_ARCS);
    r.tiles = nbi_get32(p + NBI_WGRAPH_TILES);
    if (r.capability != in->param[0] || r.size != in->param[1] || r.nodes != in->param[2] ||
        r.arcs != in->param[3] || nbi_get32(p + NBI_WGRAPH_ZERO))
        return FAIL("%s: section %zu (world_graph): the section table and the payload disagree on "
                    "its capability, size, nodes or arcs",
                    b->path, idx);
    uint64_t want = NBI_WGRAPH_HEADER + 4 * ((uint64_t)r.tiles + 1) +
                    (uint64_t)r.nodes * NBI_WGRAPH_NODE + 4 * ((uint64_t)r.nodes + 1) +
                    (uint64_t)r.arcs * NBI_WGRAPH_ARC;
    if (r.tiles != x.columns * x.rows || r.nodes >= UINT32_MAX - 2 || in->usize != want)
        return FAIL("%s: section %zu (world_graph): %llu bytes for %u tiles, %u nodes and %u arcs, "
                    "expected %llu for the world's %u tiles",
                    b->path, idx, (unsigned long long)in->usize, r.tiles, r.nodes, r.arcs,
                    (unsigned long long)want, x.columns * x.rows);
    r.tile_first = p + NBI_WGRAPH_HEADER;
    r.node = r.tile_first + 4 * ((size_t)r.tiles + 1);
    r.arc_first = r.node + (size_t)r.nodes * NBI_WGRAPH_NODE;
    r.arc = r.arc_first + 4 * ((size_t)r.nodes + 1);
    if (nbi_u32at(r.tile_first, 0) || nbi_u32at(r.tile_first, r.tiles) != r.nodes ||
        nbi_u32at(r.arc_first, 0) || nbi_u32at(r.arc_first, r.nodes) != r.arcs)
        return FAIL("%s: section %zu (world_graph): its indexes do not start at 0 and end at its "
                    "counts",
                    b->path, idx);
    for (uint32_t t = 0; t < r.tiles; t++) {
        uint32_t a = nbi_u32at(r.tile_first, t), e = nbi_u32at(r.tile_first, t + 1);
        if (e < a || e > r.nodes)
            return FAIL("%s: section %zu (world_graph): tile %u's nodes %u to %u are out of order",
                        b->path, idx, t, a, e);
        uint32_t tx0 = (t % x.columns) * x.side, ty0 = (t / x.columns) * x.side;
        for (uint32_t u = a; u < e; u++) {
            const uint8_t *q = r.node + (size_t)u * NBI_WGRAPH_NODE;
            uint32_t cx = nbi_get32(q + NBI_WGRAPH_N_X), cy = nbi_get32(q + NBI_WGRAPH_N_Y);
            if (cx < tx0 || cy < ty0 || cx - tx0 >= x.side || cy - ty0 >= x.side ||
                cx >= x.width || cy >= x.height)
                return FAIL("%s: section %zu (world_graph): node %u at (%u, %u) is not in its tile "
                            "(%u, %u)",
                            b->path, idx, u, cx, cy, t % x.columns, t / x.columns);
        }
    }
    for (uint32_t u = 0; u < r.nodes; u++) {
        uint32_t a = nbi_u32at(r.arc_first, u), e = nbi_u32at(r.arc_first, u + 1);
        if (e < a || e > r.arcs)
            return FAIL("%s: section %zu (world_graph): node %u's arcs %u to %u are out of order",
                        b->path, idx, u, a, e);
        const uint8_t *qu = r.node + (size_t)u * NBI_WGRAPH_NODE;
        uint32_t ux = nbi_get32(qu + NBI_WGRAPH_N_X), uy = nbi_get32(qu + NBI_WGRAPH_N_Y);
        for (uint32_t k = a; k < e; k++) {
            const uint8_t *q = r.arc + (size_t)k * NBI_WGRAPH_ARC;
            uint32_t v = nbi_get32(q + NBI_WGRAPH_A_TO), card = nbi_get32(q + NBI_WGRAPH_A_CARD),
                     diag = nbi_get32(q + NBI_WGRAPH_A_DIAG);
            const uint8_t *qv = r.node + (size_t)(v < r.nodes ? v : u) * NBI_WGRAPH_NODE;
            uint32_t vx = nbi_get32(qv + NBI_WGRAPH_N_X), vy = nbi_get32(qv + NBI_WGRAPH_N_Y);
            long dtx = (long)(vx / x.side) - (long)(ux / x.side),
                 dty = (long)(vy / x.side) - (long)(uy / x.side);
            if (v >= r.nodes || v == u || dtx < -1 || dtx > 1 || dty < -1 || dty > 1 ||
                card >= (1u << 30) || diag >= (1u << 30) || too_short(card, diag, ux, uy, vx, vy))
                return FAIL("%s: section %zu (world_graph): arc %u from node %u to %u (%u and %u "
                            "steps) leaves its tile's neighbours or is shorter than the cells lie "
                            "apart",
                            b->path, idx, k, u, v, card, diag);
        }
    }
    r.section = (long)idx;
    *out = r;
    return NB_OK;
}

nb_status nbi_wgraph_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_wgraph r;
    return nbi_wgraph_at(b, idx, &r, err);
}
