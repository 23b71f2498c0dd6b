/* map_cells.c: the map section's cells, checked once and read in place
 * (bundle.h; formats/bundle.md, the map section). */
#include <string.h>

#include "bundle/bundle.h"

const uint8_t nbi_map_identity[256] = {
#define R16(b) b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7, b + 8, b + 9, b + 10, b + 11, \
               b + 12, b + 13, b + 14, b + 15
    R16(0),   R16(16),  R16(32),  R16(48),  R16(64),  R16(80),  R16(96),  R16(112),
    R16(128), R16(144), R16(160), R16(176), R16(192), R16(208), R16(224), R16(240)
#undef R16
};

void nbi_map_of_chars(nbi_map *m, const uint8_t *cells)
{
    m->values = cells;
    m->palette = nbi_map_identity;
    m->bits = 8;
    m->shift = 0;
    m->low = 0;
    m->lg = 3;
    m->mask = 0xff;
    m->chars = 256;
}

void nbi_map_chars(const nbi_map *m, size_t first, size_t n, uint8_t *out)
{
    if (m->bits == 8 && m->palette == nbi_map_identity) {
        memcpy(out, m->values + first, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        out[i] = nbi_map_char_at(m, first + i);
}

uint64_t nbi_map_packed_size(uint32_t w, uint32_t h, uint32_t bits)
{
    return NBI_MAP_PACKED_HEADER + ((uint64_t)w * h * bits + 7) / 8;
}

/* The palette of a version 2 map: 1 to 2^bits characters, strictly
 * increasing (so each value names one character, and one map has one
 * encoding), and zeros after them. */
static nb_status check_palette(const uint8_t *pal, uint32_t k, uint32_t bits, nb_err *err)
{
    if (k < 1 || k > (1u << bits))
        return nbi_fail(err, NB_ERR_FORMAT,
                        "map section: %u characters in the palette, expected 1 to %u for %u bits "
                        "a cell",
                        k, 1u << bits, bits);
    for (uint32_t v = 1; v < k; v++)
        if (pal[v] <= pal[v - 1])
            return nbi_fail(err, NB_ERR_FORMAT,
                            "map section: palette entry %u (0x%02x) is not above entry %u (0x%02x): "
                            "the characters must increase",
                            v, pal[v], v - 1, pal[v - 1]);
    for (uint32_t v = k; v < NBI_MAP_PALETTE_SIZE; v++)
        if (pal[v])
            return nbi_fail(err, NB_ERR_FORMAT,
                            "map section: palette entry %u is 0x%02x past the palette's %u "
                            "characters, expected 0",
                            v, pal[v], k);
    return NB_OK;
}

nb_status nbi_map_decode(const uint8_t *p, uint64_t len, uint16_t version, uint32_t *width,
                         uint32_t *height, nbi_map *m, nb_err *err)
{
    uint64_t head = version == NBI_MAP_VERSION_PACKED ? NBI_MAP_PACKED_HEADER : NBI_MAP_HEADER;
    if (len < head)
        return nbi_fail(err, NB_ERR_FORMAT, "map section: %llu bytes, expected at least %llu",
                        (unsigned long long)len, (unsigned long long)head);
    uint32_t w = nbi_get32(p + NBI_MAP_WIDTH), h = nbi_get32(p + NBI_MAP_HEIGHT);
    if (w < 1 || h < 1 || w > NB_MAP_MAX_SIDE || h > NB_MAP_MAX_SIDE)
        return nbi_fail(err, NB_ERR_FORMAT, "map section: %u x %u cells, expected 1 to %d a side", w,
                        h, NB_MAP_MAX_SIDE);
    uint32_t bits = 8;
    uint64_t want = NBI_MAP_HEADER + (uint64_t)w * h;
    if (version == NBI_MAP_VERSION_PACKED) {
        bits = nbi_get32(p + NBI_MAP_BITS);
        if (bits != 1 && bits != 2 && bits != 4 && bits != 8)
            return nbi_fail(err, NB_ERR_FORMAT, "map section: %u bits a cell, expected 1, 2, 4 or 8",
                            bits);
        nb_status st = check_palette(p + NBI_MAP_PALETTE, nbi_get32(p + NBI_MAP_CHARS), bits, err);
        if (st != NB_OK)
            return st;
        want = nbi_map_packed_size(w, h, bits);
    }
    if (len != want)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "map section: %llu bytes, expected %llu for %u x %u cells at %u bits a cell",
                        (unsigned long long)len, (unsigned long long)want, w, h, bits);
    if (version == NBI_MAP_VERSION_PACKED) {
        unsigned used = (unsigned)((uint64_t)w * h * bits % 8);
        if (used && p[len - 1] >> used)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "map section: the last byte's %u unused bits are not zero", 8 - used);
        m->values = p + NBI_MAP_PACKED_HEADER;
        m->palette = p + NBI_MAP_PALETTE;
        m->bits = bits;
        m->shift = bits == 1 ? 3 : bits == 2 ? 2 : bits == 4 ? 1 : 0;
        m->low = (1u << m->shift) - 1;
        m->lg = 3 - m->shift;
        m->mask = (1u << bits) - 1;
        m->chars = nbi_get32(p + NBI_MAP_CHARS);
    } else {
        nbi_map_of_chars(m, p + NBI_MAP_HEADER);
    }
    *width = w;
    *height = h;
    return NB_OK;
}

const uint8_t *nbi_map_bytes(const nb_bundle *b)
{
    if (!b->has_map)
        return NULL;
    if (b->map.bits == 8 && b->map.palette == nbi_map_identity)
        return b->map.values;
    if (!b->map_bytes) {
        size_t n = (size_t)b->width * b->height;
        uint8_t *out = nbi_alloc(b->a, n);
        if (!out)
            return NULL;
        nbi_map_chars(&b->map, 0, n, out);
        /* A cache of what the bundle holds, not a change to it. */
        ((nb_bundle *)b)->map_bytes = out;
    }
    return b->map_bytes;
}
