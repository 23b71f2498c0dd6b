/* tile.c: a world tile's tag (NB_SEC_TILE, formats/world.md): where the
 * bundle's map lies in the world, which of its cells are the tile's own
 * (the rest is the halo its neighbours lent the bake), and the digests of
 * the files it was baked from.  Everything a reader of a tile relies on is
 * checked here: the world's shape, the tile's rectangle as the world cuts
 * it, the halo around it clipped to the world, and the map's size. */
#include <stdio.h>

#include "world/world.h"

#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)

nb_status nbi_world_payload(const nb_bundle *b, size_t idx, uint32_t type, uint32_t version,
                            uint64_t head, const char *name, nb_err *err)
{
    if (idx >= b->nsections || b->sections[idx].info.type != type)
        return nbi_fail(err, NB_ERR_ARG, "%s: section %zu is not a %s section", b->path, idx, name);
    const struct nbi_section *s = &b->sections[idx];
    if (s->info.version != version)
        return nbi_fail(err, NB_ERR_VERSION,
                        "%s: section %zu (%s) has version %u; this reader knows version %u", b->path,
                        idx, name, s->info.version, version);
    if (NB_ENC_LAYOUT(s->info.encoding) != NB_ENC_RAW || s->payload == NULL)
        return FAIL("%s: section %zu (%s): encoding %s, expected raw", b->path, idx, name,
                    nb_encoding_name(s->info.encoding));
    if (s->info.usize < head)
        return FAIL("%s: section %zu (%s): %llu bytes, shorter than its header", b->path, idx, name,
                    (unsigned long long)s->info.usize);
    return NB_OK;
}

nb_status nbi_wtile_at(const nb_bundle *b, size_t idx, nbi_wtile *out, nb_err *err)
{
    nb_status st = nbi_world_payload(b, idx, NB_SEC_TILE, NBI_TILE_VERSION, NBI_TILE_HEADER, "tile", err);
    if (st != NB_OK)
        return st;
    const nb_section_info *in = &b->sections[idx].info;
    const uint8_t *p = b->sections[idx].payload;
    nbi_wtile t;
    uint32_t v[16];
    for (int i = 0; i < 16; i++)
        v[i] = nbi_get32(p + 4 * i);
    t.width = v[0], t.height = v[1], t.side = v[2], t.cluster = v[3];
    t.column = v[4], t.row = v[5], t.origin_x = v[6], t.origin_y = v[7];
    t.core_x = v[8], t.core_y = v[9], t.core_w = v[10], t.core_h = v[11];
    t.halo = v[12], t.ninputs = v[13];
    uint32_t flags = v[14];
    const char *f = b->path;
    if (t.width < 1 || t.height < 1 || t.width > (1u << 20) || t.height > (1u << 20) ||
        t.cluster < 1 || t.cluster > NB_ABSTRACT_MAX_CLUSTER || t.side < 16 ||
        t.side > NB_MAP_MAX_SIDE || t.side % t.cluster)
        return FAIL("%s: section %zu (tile): a world of %u x %u cells in tiles of %u and clusters "
                    "of %u, outside what a world may be (formats/world.md)",
                    f, idx, t.width, t.height, t.side, t.cluster);
    uint32_t columns = (t.width - 1) / t.side + 1, rows = (t.height - 1) / t.side + 1;
    if (t.column >= columns || t.row >= rows || in->param[0] != t.column || in->param[1] != t.row)
        return FAIL("%s: section %zu (tile): tile (%u, %u) (the table says (%u, %u)) of a world of "
                    "%u x %u tiles",
                    f, idx, t.column, t.row, in->param[0], in->param[1], columns, rows);
    if ((flags & ~NBI_TILE_DIGEST) || v[15])
        return FAIL("%s: section %zu (tile): flags %#x and a reserved word %u, expected flags of "
                    "at most %#x and 0",
                    f, idx, flags, v[15], NBI_TILE_DIGEST);
    /* The tile's cells, as the world cuts it, and the halo around them. */
    uint64_t x0 = (uint64_t)t.column * t.side, y0 = (uint64_t)t.row * t.side;
    uint64_t w = t.width - x0 < t.side ? t.width - x0 : t.side;
    uint64_t h = t.height - y0 < t.side ? t.height - y0 : t.side;
    uint64_t ex0 = x0 > t.halo ? x0 - t.halo : 0, ey0 = y0 > t.halo ? y0 - t.halo : 0;
    uint64_t ex1 = x0 + w + t.halo < t.width ? x0 + w + t.halo : t.width;
    uint64_t ey1 = y0 + h + t.halo < t.height ? y0 + h + t.halo : t.height;
    if (t.halo < 1 || t.halo > t.side || t.origin_x != ex0 || t.origin_y != ey0 ||
        t.core_x != x0 - ex0 || t.core_y != y0 - ey0 || t.core_w != w || t.core_h != h)
        return FAIL("%s: section %zu (tile): its cells from (%u, %u) in the map, %u x %u, and "
                    "the map from world cell (%u, %u) with a halo of %u are not tile (%u, %u) of "
                    "the world",
                    f, idx, t.core_x, t.core_y, t.core_w, t.core_h, t.origin_x, t.origin_y, t.halo,
                    t.column, t.row);
    if (b->has_map && (b->width != ex1 - ex0 || b->height != ey1 - ey0))
        return FAIL("%s: section %zu (tile): the map is %u x %u cells; the tile with its halo is "
                    "%llu x %llu",
                    f, idx, b->width, b->height, (unsigned long long)(ex1 - ex0),
                    (unsigned long long)(ey1 - ey0));
    uint64_t want = NBI_TILE_HEADER + (flags & NBI_TILE_DIGEST ? NBI_DIGEST_SIZE : 0) +
                    (uint64_t)t.ninputs * NBI_TILE_INPUT;
    if (t.ninputs > NBI_TILE_MAX_INPUTS || in->usize != want)
        return FAIL("%s: section %zu (tile): %llu bytes for %u inputs, expected %llu (at most %d "
                    "inputs)",
                    f, idx, (unsigned long long)in->usize, t.ninputs, (unsigned long long)want,
                    NBI_TILE_MAX_INPUTS);
    const uint8_t *q = p + NBI_TILE_HEADER;
    t.has_digest = (flags & NBI_TILE_DIGEST) != 0;
    t.bundle_bytes = t.has_digest ? nbi_get64(q + NBI_DIGEST_BYTES) : 0;
    t.table_crc = t.has_digest ? nbi_get32(q + NBI_DIGEST_TABLE_CRC) : 0;
    if (t.has_digest && nbi_get32(q + NBI_DIGEST_ZERO))
        return FAIL("%s: section %zu (tile): a nonzero reserved word in its digest", f, idx);
    t.inputs = q + (t.has_digest ? NBI_DIGEST_SIZE : 0);
    /* Roles in increasing order, each once: the digests are comparable
     * byte for byte between two bakes of one tile. */
    for (uint32_t i = 0, last = 0; i < t.ninputs; i++) {
        uint32_t role = nbi_get32(t.inputs + (size_t)i * NBI_TILE_INPUT + NBI_TILE_INPUT_ROLE);
        int known = role == NBI_ROLE_LEGEND || role == NBI_ROLE_AGENTS ||
                    (role >= NBI_ROLE_MAP && role < NBI_ROLE_MAP + 9) ||
                    (role >= NBI_ROLE_LENT && role < NBI_ROLE_LENT + 9 && role != NBI_ROLE_LENT + 4);
        if (!known || role <= last)
            return FAIL("%s: section %zu (tile): input %u has role %u, %s", f, idx, i, role,
                        known ? "not after the one before" : "not a role formats/world.md names");
        last = role;
    }
    t.section = (long)idx;
    *out = t;
    return NB_OK;
}

nb_status nbi_wtile_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_wtile t;
    return nbi_wtile_at(b, idx, &t, err);
}

nb_status nbi_wtile_find(const nb_bundle *b, nbi_wtile *out, nb_err *err)
{
    long idx = nbi_section_index(b, NB_SEC_TILE, NULL, NULL, 0);
    if (idx < 0)
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: no tile section: not a tile of a world (navbake world tile bakes one)",
                        b->path);
    return nbi_wtile_at(b, (size_t)idx, out, err);
}

void nbi_ring_cell(int outer, long x0, long y0, uint32_t w, uint32_t h, uint32_t k, long *x, long *y)
{
    /* The top row, the bottom row, then the left and right columns
     * between them; the outer ring's rows reach one cell further each
     * way, so its corners are in the rows. */
    long rw = (long)w + (outer ? 2 : 0), left = x0 - (outer ? 1 : 0);
    long top = y0 - (outer ? 1 : 0), bottom = outer ? y0 + (long)h : y0 + (long)h - 1;
    if (k < (uint32_t)rw) {
        *x = left + (long)k, *y = top;
        return;
    }
    k -= (uint32_t)rw;
    if (k < (uint32_t)rw) {
        *x = left + (long)k, *y = bottom;
        return;
    }
    k -= (uint32_t)rw;
    *y = y0 + (long)(k % h);
    *x = k < h ? (outer ? x0 - 1 : x0) : (outer ? x0 + (long)w : x0 + (long)w - 1);
}
