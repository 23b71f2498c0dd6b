/* map_pack.c: the map section as the bake writes it (version 2,
 * formats/bundle.md): each cell packed to the fewest of 1, 2, 4 or 8 bits
 * that number the characters the map uses, through a palette of them in
 * increasing order, so one map has one encoding whatever baked it. */
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"

uint8_t *nbb_map_pack(const nbb_grid *g, size_t *len, uint32_t *bits_out)
{
    size_t n = (size_t)g->width * g->height;
    uint8_t used[256] = {0}, value[256];
    for (size_t i = 0; i < n; i++)
        used[g->cells[i]] = 1;
    uint32_t k = 0;
    uint8_t palette[NBI_MAP_PALETTE_SIZE] = {0};
    for (unsigned c = 0; c < 256; c++)
        if (used[c]) {
            value[c] = (uint8_t)k;
            palette[k++] = (uint8_t)c;
        }
    uint32_t bits = k <= 2 ? 1 : k <= 4 ? 2 : k <= 16 ? 4 : 8;
    uint64_t size = nbi_map_packed_size(g->width, g->height, bits);
    uint8_t *p = nbb_calloc(1, (size_t)size);
    if (!p)
        return NULL;
    nbi_put32(p + NBI_MAP_WIDTH, g->width);
    nbi_put32(p + NBI_MAP_HEIGHT, g->height);
    nbi_put32(p + NBI_MAP_BITS, bits);
    nbi_put32(p + NBI_MAP_CHARS, k);
    memcpy(p + NBI_MAP_PALETTE, palette, sizeof palette);
    uint8_t *out = p + NBI_MAP_PACKED_HEADER;
    unsigned per = 8 / bits;
    for (size_t i = 0; i < n; i++)
        out[i / per] |= (uint8_t)(value[g->cells[i]] << (i % per * bits));
    *len = (size_t)size;
    *bits_out = bits;
    return p;
}
