/* landmarks.c: the landmarks on a world's HAA* graph (NB_SEC_WORLD_LANDMARKS,
 * formats/world.md), checked.  The search above the tiles takes a lower
 * bound on a node's distance to the goal from them (ALT: Goldberg and
 * Harrelson 2005), which is only sound when no arc is shorter than the
 * difference of its ends' distances to a landmark: that is checked on
 * every arc of the world graph, a tile at a time as a search first reaches
 * it (haa_sections.c), so a damaged or crafted section can make the search
 * slower, never its bound too high. */
#include <stdio.h>

#include "world/world.h"

#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)

long nbi_wgraph_index(const nb_bundle *b, uint32_t capability, uint32_t size)
{
    for (size_t i = 0; i < b->nsections; i++)
        if (b->sections[i].info.type == NB_SEC_WORLD_GRAPH &&
            b->sections[i].info.param[0] == capability && b->sections[i].info.param[1] == size)
            return (long)i;
    return -1;
}

nb_status nbi_wlmk_at(const nb_bundle *b, size_t idx, nbi_wlmk *out, nb_err *err)
{
    nb_status st = nbi_world_payload(b, idx, NB_SEC_WORLD_LANDMARKS, NBI_WLMK_VERSION,
                                     NBI_WLMK_HEADER, "world_landmarks", err);
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[idx].info;
    const uint8_t *p = b->sections[idx].payload;
    nbi_wlmk r;
    r.capability = nbi_get32(p + NBI_WLMK_CAPABILITY);
    r.size = nbi_get32(p + NBI_WLMK_SIZE);
    r.nodes = nbi_get32(p + NBI_WLMK_NODES);
    r.count = nbi_get32(p + NBI_WLMK_COUNT);
    if (r.capability != in->param[0] || r.size != in->param[1] || r.count != in->param[2] ||
        nbi_get32(p + NBI_WLMK_ZERO) || nbi_get32(p + NBI_WLMK_ZERO_2))
        return FAIL("%s: section %zu (world_landmarks): the section table and the payload "
                    "disagree on its capability, size or landmarks",
                    b->path, idx);
    long gi = nbi_wgraph_index(b, r.capability, r.size);
    nbi_wgraph g;
    if (gi < 0)
        return FAIL("%s: section %zu (world_landmarks) without the world graph of capability %#x "
                    "and size %u it is on",
                    b->path, idx, r.capability, r.size);
    if ((st = nbi_wgraph_at(b, (size_t)gi, &g, err)) != NB_OK)
        return st;
    uint64_t want = NBI_WLMK_HEADER + 4 * (uint64_t)r.count +
                    NBI_WLMK_DIST * (uint64_t)r.nodes * r.count;
    if (r.nodes != g.nodes || r.count < 1 || r.count > NBI_WLMK_MAX || in->usize != want)
        return FAIL("%s: section %zu (world_landmarks): %llu bytes for %u landmarks on %u nodes, "
                    "expected %llu for 1 to %u landmarks on the world graph's %u nodes",
                    b->path, idx, (unsigned long long)in->usize, r.count, r.nodes,
                    (unsigned long long)want, NBI_WLMK_MAX, g.nodes);
    r.landmark = p + NBI_WLMK_HEADER;
    r.dist = r.landmark + 4 * (size_t)r.count;
    for (uint32_t k = 0; k < r.count; k++) {
        uint32_t u = nbi_u32at(r.landmark, k);
        const uint8_t *d = u < r.nodes ? r.dist + NBI_WLMK_DIST * ((size_t)u * r.count + k) : NULL;
        if (!d || nbi_get32(d + NBI_WLMK_D_CARD) || nbi_get32(d + NBI_WLMK_D_DIAG))
            return FAIL("%s: section %zu (world_landmarks): landmark %u (node %u) is not a node "
                        "at distance 0 from itself",
                        b->path, idx, k, u);
    }
    /* Each node's distances, and on every arc that the bound never overestimates, are
     * checked with the graph's tile (nbi_wgraph_tile_check) before a search reads them. */
    r.section = (long)idx;
    *out = r;
    return NB_OK;
}

nb_status nbi_wlmk_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_wlmk r;
    nbi_wgraph g;
    nb_status st = nbi_wlmk_at(b, idx, &r, err);
    if (st == NB_OK)
        st = nbi_wgraph_at(b, (size_t)nbi_wgraph_index(b, r.capability, r.size), &g, err);
    return st == NB_OK ? nbi_wgraph_tiles_check(b, &g, &r, err) : st;
}
