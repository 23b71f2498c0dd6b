/* index.c: a world bundle's index of tiles (NB_SEC_WORLD) and its
 * world-wide components (NB_SEC_WORLD_COMPONENTS), formats/world.md.  The
 * index holds each tile bundle's digest (its size and table CRC, which a
 * bundle's header carries and its open checks), so that a tile baked
 * from other inputs than the world was linked from is refused when
 * loaded.  The components map each tile's component numbers to the
 * world's, so that reachability across tiles stays two lookups. */
#include <stdio.h>

#include "world/world.h"

#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)

nb_status nbi_windex_at(const nb_bundle *b, size_t idx, nbi_windex *out, nb_err *err)
{
    nb_status st = nbi_world_payload(b, idx, NB_SEC_WORLD, NBI_WORLD_VERSION, NBI_WORLD_HEADER,
                                     "world", err);
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[idx].info;
    const uint8_t *p = b->sections[idx].payload;
    nbi_windex x;
    x.width = nbi_get32(p + NBI_WORLD_WIDTH);
    x.height = nbi_get32(p + NBI_WORLD_HEIGHT);
    x.side = nbi_get32(p + NBI_WORLD_SIDE);
    x.cluster = nbi_get32(p + NBI_WORLD_CLUSTER);
    x.columns = nbi_get32(p + NBI_WORLD_COLUMNS);
    x.rows = nbi_get32(p + NBI_WORLD_ROWS);
    x.halo = nbi_get32(p + NBI_WORLD_HALO);
    if (x.width < 1 || x.height < 1 || x.width > (1u << 20) || x.height > (1u << 20) ||
        x.cluster < 1 || x.cluster > NB_ABSTRACT_MAX_CLUSTER || x.side < 16 ||
        x.side > NB_MAP_MAX_SIDE || x.side % x.cluster || x.halo < 1 || x.halo > x.side ||
        nbi_get32(p + NBI_WORLD_ZERO))
        return FAIL("%s: section %zu (world): a world of %u x %u cells in tiles of %u, clusters of "
                    "%u and a halo of %u, outside what a world may be (formats/world.md)",
                    b->path, idx, x.width, x.height, x.side, x.cluster, x.halo);
    if (x.columns != (x.width - 1) / x.side + 1 || x.rows != (x.height - 1) / x.side + 1 ||
        in->param[0] != x.columns || in->param[1] != x.rows)
        return FAIL("%s: section %zu (world): %u x %u tiles (the table says %u x %u); a world of "
                    "%u x %u cells in tiles of %u has %u x %u",
                    b->path, idx, x.columns, x.rows, in->param[0], in->param[1], x.width, x.height,
                    x.side, (x.width - 1) / x.side + 1, (x.height - 1) / x.side + 1);
    uint64_t want = NBI_WORLD_HEADER + (uint64_t)x.columns * x.rows * NBI_DIGEST_SIZE;
    if (in->usize != want)
        return FAIL("%s: section %zu (world): %llu bytes, expected %llu for %u x %u tiles", b->path,
                    idx, (unsigned long long)in->usize, (unsigned long long)want, x.columns, x.rows);
    x.digests = p + NBI_WORLD_HEADER;
    for (uint64_t t = 0; t < (uint64_t)x.columns * x.rows; t++)
        if (nbi_get32(x.digests + t * NBI_DIGEST_SIZE + NBI_DIGEST_ZERO))
            return FAIL("%s: section %zu (world): a nonzero reserved word in tile %llu's digest",
                        b->path, idx, (unsigned long long)t);
    x.section = (long)idx;
    *out = x;
    return NB_OK;
}

nb_status nbi_windex_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_windex x;
    return nbi_windex_at(b, idx, &x, err);
}

nb_status nbi_windex_find(const nb_bundle *b, nbi_windex *out, nb_err *err)
{
    long idx = nbi_section_index(b, NB_SEC_WORLD, NULL, NULL, 0);
    if (idx < 0)
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: no world section: not a world bundle (navbake world link writes one)",
                        b->path);
    return nbi_windex_at(b, (size_t)idx, out, err);
}

nb_status nbi_wcomp_at(const nb_bundle *b, size_t idx, nbi_wcomp *out, nb_err *err)
{
    nbi_windex x;
    nb_status st = nbi_world_payload(b, idx, NB_SEC_WORLD_COMPONENTS, NBI_WCOMP_VERSION,
                                     NBI_WCOMP_HEADER, "world_components", err);
    if (st == NB_OK && (st = nbi_windex_find(b, &x, err)) == NB_ERR_NOTFOUND)
        return FAIL("%s: section %zu (world_components) without the world section it numbers "
                    "the tiles of",
                    b->path, idx);
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[idx].info;
    const uint8_t *p = b->sections[idx].payload;
    nbi_wcomp c;
    c.capability = nbi_get32(p + NBI_WCOMP_CAPABILITY);
    c.size = nbi_get32(p + NBI_WCOMP_SIZE);
    c.n = nbi_get32(p + NBI_WCOMP_COMPONENTS);
    c.tiles = nbi_get32(p + NBI_WCOMP_TILES);
    if (c.capability != in->param[0] || c.size != in->param[1] || c.n != in->param[2])
        return FAIL("%s: section %zu (world_components): the section table and the payload "
                    "disagree on its capability, size or components",
                    b->path, idx);
    if ((uint64_t)c.tiles != (uint64_t)x.columns * x.rows)
        return FAIL("%s: section %zu (world_components): %u tiles, where the world has %u x %u",
                    b->path, idx, c.tiles, x.columns, x.rows);
    uint64_t head = NBI_WCOMP_HEADER + 4 * ((uint64_t)c.tiles + 1);
    if (in->usize < head)
        return FAIL("%s: section %zu (world_components): %llu bytes, shorter than its %u tiles' "
                    "offsets",
                    b->path, idx, (unsigned long long)in->usize, c.tiles);
    c.first = p + NBI_WCOMP_HEADER;
    c.ids = c.first + 4 * ((size_t)c.tiles + 1);
    if (nbi_u32at(c.first, 0) != 0)
        return FAIL("%s: section %zu (world_components): tile 0's numbers start at %u, not 0",
                    b->path, idx, nbi_u32at(c.first, 0));
    for (uint32_t t = 0; t < c.tiles; t++)
        if (nbi_u32at(c.first, t + 1) < nbi_u32at(c.first, t))
            return FAIL("%s: section %zu (world_components): tile %u's numbers end before they "
                        "start",
                        b->path, idx, t);
    uint64_t total = nbi_u32at(c.first, c.tiles);
    if (in->usize != head + 4 * total)
        return FAIL("%s: section %zu (world_components): %llu bytes, expected %llu for %llu "
                    "numbers",
                    b->path, idx, (unsigned long long)in->usize,
                    (unsigned long long)(head + 4 * total), (unsigned long long)total);
    for (uint64_t k = 0; k < total; k++)
        if (nbi_u32at(c.ids, k) > c.n)
            return FAIL("%s: section %zu (world_components): number %llu is world component %u "
                        "of %u",
                        b->path, idx, (unsigned long long)k, nbi_u32at(c.ids, k), c.n);
    c.section = (long)idx;
    *out = c;
    return NB_OK;
}

nb_status nbi_wcomp_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_wcomp c;
    return nbi_wcomp_at(b, idx, &c, err);
}
