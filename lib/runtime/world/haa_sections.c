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

#define too_short nbi_wsteps_too_short

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

/* What opening the graph checks: its counts and the index of its tiles'
 * nodes (4 bytes a tile).  Its nodes and arcs are checked a tile at a time
 * (nbi_wgraph_tile_check) before anything reads them, so that a search
 * reads the pages of the tiles it reaches and no others. */
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
    }
    r.columns = x.columns;
    r.side = x.side;
    r.width = x.width;
    r.height = x.height;
    r.section = (long)idx;
    *out = r;
    return NB_OK;
}

uint32_t nbi_wgraph_node_tile(const nbi_wgraph *g, uint32_t u)
{
    uint32_t lo = 0, hi = g->tiles; /* the tile t with tile_first[t] <= u < tile_first[t + 1] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (nbi_u32at(g->tile_first, mid) <= u)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

#define TFAIL(t, ...)                                                                             \
    nbi_fail(err, NB_ERR_FORMAT, "%s: section %ld (world_graph), tile (%u, %u): " __VA_ARGS__)

/* Node u (of tile t by the index) lies in t's cells, and its landmark
 * distances within the format's bound. */
static nb_status node_ok(const nb_bundle *b, const nbi_wgraph *g, const nbi_wlmk *lm, uint32_t t,
                         uint32_t u, nb_err *err)
{
    const uint8_t *q = g->node + (size_t)u * NBI_WGRAPH_NODE;
    uint32_t cx = nbi_get32(q + NBI_WGRAPH_N_X), cy = nbi_get32(q + NBI_WGRAPH_N_Y);
    uint32_t tc = t % g->columns, tr = t / g->columns, tx0 = tc * g->side, ty0 = tr * g->side;
    if (cx < tx0 || cy < ty0 || cx - tx0 >= g->side || cy - ty0 >= g->side || cx >= g->width ||
        cy >= g->height)
        return TFAIL(t, "node %u at (%u, %u) is not in its tile", b->path, g->section, tc, tr, u,
                     cx, cy);
    for (uint32_t k = 0; lm && k < lm->count; k++) {
        const uint8_t *d = lm->dist + NBI_WLMK_DIST * ((size_t)u * lm->count + k);
        uint32_t card = nbi_get32(d + NBI_WLMK_D_CARD), diag = nbi_get32(d + NBI_WLMK_D_DIAG);
        if ((card == NBI_WLMK_NONE) != (diag == NBI_WLMK_NONE) ||
            (card != NBI_WLMK_NONE && (card >= (1u << 30) || diag >= (1u << 30))))
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: section %ld (world_landmarks), tile (%u, %u): node %u's distance "
                            "to landmark %u (%u and %u steps) is past the format's bound",
                            b->path, lm->section, tc, tr, u, k, card, diag);
    }
    return NB_OK;
}

nb_status nbi_wgraph_tile_check(const nb_bundle *b, const nbi_wgraph *g, const nbi_wlmk *lm,
                                uint32_t t, int arcs, nb_err *err)
{
    uint32_t a = nbi_u32at(g->tile_first, t), e = nbi_u32at(g->tile_first, t + 1);
    uint32_t tc = t % g->columns, tr = t / g->columns;
    nb_status st;
    for (uint32_t u = a; u < e; u++) {
        uint32_t f = nbi_u32at(g->arc_first, u), z = nbi_u32at(g->arc_first, u + 1);
        if (z < f || z > g->arcs)
            return TFAIL(t, "node %u's arcs %u to %u are out of order", b->path, g->section, tc,
                         tr, u, f, z);
        if ((st = node_ok(b, g, lm, t, u, err)) != NB_OK)
            return st;
    }
    for (uint32_t u = a; arcs && u < e; u++) {
        const uint8_t *qu = g->node + (size_t)u * NBI_WGRAPH_NODE;
        uint32_t ux = nbi_get32(qu + NBI_WGRAPH_N_X), uy = nbi_get32(qu + NBI_WGRAPH_N_Y);
        int out = 0; /* an arc to another tile seen: the own tile's come first (the format) */
        for (uint32_t k = nbi_u32at(g->arc_first, u); k < nbi_u32at(g->arc_first, u + 1); k++) {
            const uint8_t *q = g->arc + (size_t)k * NBI_WGRAPH_ARC;
            uint32_t v = nbi_get32(q + NBI_WGRAPH_A_TO), card = nbi_get32(q + NBI_WGRAPH_A_CARD),
                     diag = nbi_get32(q + NBI_WGRAPH_A_DIAG);
            uint32_t vt = v < g->nodes ? nbi_wgraph_node_tile(g, v) : t;
            long dtx = (long)(vt % g->columns) - (long)tc, dty = (long)(vt / g->columns) - (long)tr;
            if (v >= g->nodes || v == u || dtx < -1 || dtx > 1 || dty < -1 || dty > 1)
                return TFAIL(t, "arc %u from node %u to %u leaves its tile's neighbours", b->path,
                             g->section, tc, tr, k, u, v);
            if (out && vt == t)
                return TFAIL(t, "arc %u from node %u to %u, in its own tile, comes after an arc "
                             "to another tile",
                             b->path, g->section, tc, tr, k, u, v);
            out |= vt != t;
            /* The target's own record, which the search reads when it reaches it. */
            if ((st = node_ok(b, g, lm, vt, v, err)) != NB_OK)
                return st;
            const uint8_t *qv = g->node + (size_t)v * NBI_WGRAPH_NODE;
            uint32_t vx = nbi_get32(qv + NBI_WGRAPH_N_X), vy = nbi_get32(qv + NBI_WGRAPH_N_Y);
            if (card >= (1u << 30) || diag >= (1u << 30) || too_short(card, diag, ux, uy, vx, vy))
                return TFAIL(t, "arc %u from node %u to %u (%u and %u steps) is shorter than the "
                             "cells lie apart",
                             b->path, g->section, tc, tr, k, u, v, card, diag);
            /* The landmarks' bound never overestimates across this arc. */
            double c = nbi_steps_length(card, diag);
            for (uint32_t m = 0; lm && m < lm->count; m++) {
                double du = nbi_wlmk_dist(lm, u, m), dv = nbi_wlmk_dist(lm, v, m);
                if ((du < 0) != (dv < 0) || du - dv > c + 1e-6 || dv - du > c + 1e-6)
                    return nbi_fail(err, NB_ERR_FORMAT,
                                    "%s: section %ld (world_landmarks), tile (%u, %u): arc %u from "
                                    "node %u to %u (%.3f steps) and landmark %u: the nodes lie "
                                    "%.3f and %.3f from it, which no arc of that length allows",
                                    b->path, lm->section, tc, tr, k, u, v, c, m, du, dv);
            }
        }
    }
    return NB_OK;
}

nb_status nbi_wgraph_tiles_check(const nb_bundle *b, const nbi_wgraph *g, const nbi_wlmk *lm,
                                 nb_err *err)
{
    nb_status st = NB_OK;
    for (uint32_t t = 0; st == NB_OK && t < g->tiles; t++)
        st = nbi_wgraph_tile_check(b, g, lm, t, 1, err);
    return st;
}

nb_status nbi_wgraph_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_wgraph r;
    nb_status st = nbi_wgraph_at(b, idx, &r, err);
    return st == NB_OK ? nbi_wgraph_tiles_check(b, &r, NULL, err) : st;
}
