/* test_crc32.c: lib/runtime/core/crc32.c's folding CRC against a CRC-32
 * computed here bit by bit (and zlib's table), on every length up to 600
 * bytes at every alignment of a 16-byte line, with random starting CRCs,
 * and on a few megabytes in pieces of random sizes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/crc32.h"
#include "tap.h"

/* ISO 3309 CRC-32, reflected, a bit at a time. */
static uint32_t crc_bits(uint32_t crc, const uint8_t *p, size_t len)
{
    crc = ~crc;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++)
            crc = crc & 1 ? crc >> 1 ^ 0xedb88320u : crc >> 1;
    }
    return ~crc;
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int main(void)
{
    diag("this processor %s", nbi_crc32_folds() ? "folds with PCLMULQDQ" : "has no PCLMULQDQ: zlib only");
    uint64_t s = 88172645463325252u;
    enum { BIG = 5 << 20 };
    uint8_t *buf = malloc(BIG);
    if (!buf)
        return 1;
    for (size_t i = 0; i < BIG; i++)
        buf[i] = (uint8_t)rnd(&s);
    int short_ok = 1, zero_ok = 1;
    for (size_t len = 0; len <= 600; len++)
        for (size_t at = 0; at < 16; at++) {
            uint32_t c0 = (uint32_t)rnd(&s);
            uint32_t want = crc_bits(c0, buf + at, len);
            if (nbi_crc32_from(c0, buf + at, len, 64) != want ||
                nbi_crc32(c0, buf + at, len) != want) {
                if (short_ok)
                    diag("length %zu at %zu from 0x%08x: 0x%08x, want 0x%08x", len, at, c0,
                         nbi_crc32_from(c0, buf + at, len, 64), want);
                short_ok = 0;
            }
            if (nbi_crc32_from(0, buf + at, len, 64) != crc_bits(0, buf + at, len))
                zero_ok = 0;
        }
    ok(short_ok, "every length to 600 at every alignment, from random CRCs, folding from 64 bytes");
    ok(zero_ok, "the same from 0");
    /* Zeros and ones: lanes that fold to nothing or to everything. */
    uint8_t *flat = calloc(1, 70000);
    int flat_ok = flat != NULL;
    for (int v = 0; flat && v < 2; v++) {
        memset(flat, v ? 0xff : 0, 70000);
        flat_ok &= nbi_crc32(0, flat, 70000) == crc_bits(0, flat, 70000);
    }
    free(flat);
    ok(flat_ok, "70,000 zero bytes and 70,000 0xff bytes");
    uint32_t whole = nbi_crc32(0, buf, BIG);
    is_int(whole, (uint32_t)crc32(0, buf, BIG), "%d MB in one call, as zlib", BIG >> 20);
    is_int(whole, crc_bits(0, buf, BIG), "%d MB in one call, as the bitwise CRC", BIG >> 20);
    uint32_t c = 0;
    for (size_t at = 0; at < BIG;) {
        size_t n = (size_t)(rnd(&s) % 100000);
        if (n > BIG - at)
            n = BIG - at;
        c = nbi_crc32(c, buf + at, n);
        at += n;
    }
    is_int(c, whole, "the same in pieces of 0 to 100,000 bytes");
    free(buf);
    return done_testing();
}
