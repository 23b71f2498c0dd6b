/* border.c: a tile's border for one (capability, size) (NB_SEC_BORDER,
 * formats/world.md): the component of each cell on both sides of the
 * tile's edges, which is all the link step needs to join the tiles'
 * components into the world's.  Checked against the tile section of the
 * same bundle: the rings' lengths are the tile's, every number is one of
 * the tile's components, and the component bits end where the count does. */
#include <stdio.h>

#include "world/world.h"

#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)

nb_status nbi_border_at(const nb_bundle *b, size_t idx, nbi_border *out, nb_err *err)
{
    nb_status st = nbi_world_payload(b, idx, NB_SEC_BORDER, NBI_BORDER_VERSION, NBI_BORDER_HEADER,
                                     "border", err);
    nbi_wtile t;
    if (st == NB_OK && (st = nbi_wtile_find(b, &t, err)) == NB_ERR_NOTFOUND)
        return FAIL("%s: section %zu (border) without the tile section it is the border of",
                    b->path, idx);
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[idx].info;
    const uint8_t *p = b->sections[idx].payload;
    nbi_border r;
    r.capability = nbi_get32(p + NBI_BORDER_CAPABILITY);
    r.size = nbi_get32(p + NBI_BORDER_SIZE);
    r.n = nbi_get32(p + NBI_BORDER_COMPONENTS);
    r.inner_count = nbi_get32(p + NBI_BORDER_INNER);
    r.outer_count = nbi_get32(p + NBI_BORDER_OUTER);
    if (r.capability != in->param[0] || r.size != in->param[1] || r.n != in->param[2] ||
        nbi_get32(p + NBI_BORDER_ZERO))
        return FAIL("%s: section %zu (border): the section table and the payload disagree on its "
                    "capability, size or components",
                    b->path, idx);
    if (r.inner_count != nbi_ring_inner(t.core_w, t.core_h) ||
        r.outer_count != nbi_ring_outer(t.core_w, t.core_h) || r.n == UINT32_MAX)
        return FAIL("%s: section %zu (border): rings of %u and %u cells; a tile of %u x %u cells "
                    "has %u and %u",
                    b->path, idx, r.inner_count, r.outer_count, t.core_w, t.core_h,
                    nbi_ring_inner(t.core_w, t.core_h), nbi_ring_outer(t.core_w, t.core_h));
    uint64_t words = ((uint64_t)r.n + 1 + 31) / 32;
    uint64_t want = NBI_BORDER_HEADER + 4 * ((uint64_t)r.inner_count + r.outer_count + words);
    if (in->usize != want)
        return FAIL("%s: section %zu (border): %llu bytes, expected %llu for its rings and %u "
                    "components",
                    b->path, idx, (unsigned long long)in->usize, (unsigned long long)want, r.n);
    r.inner = p + NBI_BORDER_HEADER;
    r.outer = r.inner + 4 * (size_t)r.inner_count;
    r.core = r.outer + 4 * (size_t)r.outer_count;
    for (uint32_t k = 0; k < r.inner_count + r.outer_count; k++)
        if (nbi_u32at(r.inner, k) > r.n)
            return FAIL("%s: section %zu (border): cell %u of its %s ring is in component %u of %u",
                        b->path, idx, k < r.inner_count ? k : k - r.inner_count,
                        k < r.inner_count ? "inner" : "outer", nbi_u32at(r.inner, k), r.n);
    /* Bit 0 (no component) and the bits past n are 0: one set of bits for
     * one set of components. */
    uint32_t last = nbi_u32at(r.core, (size_t)words - 1), used = (r.n + 1) % 32;
    if ((nbi_get32(r.core) & 1) || (used && (last >> used)))
        return FAIL("%s: section %zu (border): bits set for components that are not there",
                    b->path, idx);
    /* A component holding a cell of the inner ring has a cell of the
     * tile's own. */
    for (uint32_t k = 0; k < r.inner_count; k++) {
        uint32_t c = nbi_u32at(r.inner, k);
        if (c && !nbi_border_in_core(&r, c))
            return FAIL("%s: section %zu (border): component %u holds cell %u of the inner ring "
                        "but is marked as having none of the tile's cells",
                        b->path, idx, c, k);
    }
    r.section = (long)idx;
    *out = r;
    return NB_OK;
}

nb_status nbi_border_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_border r;
    return nbi_border_at(b, idx, &r, err);
}
