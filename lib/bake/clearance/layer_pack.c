/* layer_pack.c: layers as bytes, and the bands of rows they are made in.
 *
 * A layer (formats/clearance.md) packs a value per cell in a few bits, row
 * after row.  Bands of NBB_BAND_ROWS rows start on a byte whatever the
 * bits per cell, so that a band is packed, unpacked or kept on its own:
 * the unit of mkclear's threads and of its incremental bakes. */
#include <stdlib.h>

#include "clearance/clearance_build.h"

void nbb_layer_header(uint8_t *out, uint32_t width, uint32_t height, unsigned bits,
                      uint32_t maxval)
{
    uint64_t len = nbi_layer_bytes((uint64_t)width * height, bits);
    memset(out, 0, NBI_LAYER_HEADER);
    memset(out + len - NBI_LAYER_TAIL - 1, 0, NBI_LAYER_TAIL + 1);
    nbi_put32(out + NBI_LAYER_WIDTH, width);
    nbi_put32(out + NBI_LAYER_HEIGHT, height);
    nbi_put32(out + NBI_LAYER_BITS, bits);
    nbi_put32(out + NBI_LAYER_MAXVAL, maxval);
}

void nbb_layer_pack_rows(uint8_t *payload, uint32_t width, unsigned bits, uint32_t y0,
                         uint32_t y1, const uint8_t *v8, const uint32_t *v32)
{
    uint64_t n = (uint64_t)(y1 - y0) * width;
    uint8_t *p = payload + NBI_LAYER_HEADER + (uint64_t)y0 * width * bits / 8;
    /* Values go in LSB first; a 64-bit accumulator flushes whole bytes. */
    uint64_t acc = 0;
    unsigned have = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t v = v8 ? v8[i] : v32[i];
        acc |= v << have;
        have += bits;
        while (have >= 8) {
            *p++ = (uint8_t)acc;
            acc >>= 8;
            have -= 8;
        }
    }
    if (have)
        *p = (uint8_t)acc;
}

void nbb_layer_unpack_rows(const uint8_t *payload, uint32_t width, unsigned bits, uint32_t y0,
                           uint32_t y1, uint8_t *v8, uint32_t *v32)
{
    nbi_layer l;
    memset(&l, 0, sizeof l);
    l.bits_at = payload + NBI_LAYER_HEADER;
    l.bits = bits;
    l.mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t first = (uint64_t)y0 * width, n = (uint64_t)(y1 - y0) * width;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t v = nbi_layer_get(&l, first + i);
        if (v8)
            v8[i] = (uint8_t)v;
        else
            v32[i] = v;
    }
}

void nbb_layer_pack(uint32_t width, uint32_t height, uint32_t maxval, const uint8_t *v8,
                    const uint32_t *v32, uint8_t *out)
{
    unsigned bits = nbi_bits_for(maxval);
    nbb_layer_header(out, width, height, bits, maxval);
    nbb_layer_pack_rows(out, width, bits, 0, height, v8, v32);
}

void nbb_layer_of_payload(const uint8_t *payload, nbi_layer *l)
{
    memset(l, 0, sizeof *l);
    l->width = nbi_get32(payload + NBI_LAYER_WIDTH);
    l->height = nbi_get32(payload + NBI_LAYER_HEIGHT);
    l->bits = nbi_get32(payload + NBI_LAYER_BITS);
    l->maxval = nbi_get32(payload + NBI_LAYER_MAXVAL);
    l->mask = (1ull << l->bits) - 1;
    l->bits_at = payload + NBI_LAYER_HEADER;
    l->over = l->maxval;
    l->section = -1;
}

uint32_t nbb_band_count(uint32_t height)
{
    return (height + NBB_BAND_ROWS - 1) / NBB_BAND_ROWS;
}

void nbb_band_rows(uint32_t band, uint32_t height, uint32_t *y0, uint32_t *y1)
{
    *y0 = band * NBB_BAND_ROWS;
    *y1 = *y0 + NBB_BAND_ROWS < height ? *y0 + NBB_BAND_ROWS : height;
}

nb_status nbb_layer_add(nbb_builder *b, uint32_t type, const uint32_t *params, size_t nparams,
                        uint8_t *payload, size_t len, int compress, nb_err *err)
{
    nb_section_info in;
    memset(&in, 0, sizeof in);
    in.type = type;
    in.version = type == NB_SEC_CLEARANCE ? NBI_CLEARANCE_VERSION : NBI_COMPONENTS_VERSION;
    in.encoding = NB_ENC_PACKED;
    memcpy(in.param, params, nparams * sizeof *params);
    return nbb_builder_add_owned(b, &in, payload, len, compress, err);
}
