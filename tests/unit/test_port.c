/* test_port.c: lib/port/port.h's bit operations against a bit-by-bit
 * count, on edge values and a million xorshift values.  (They once
 * called libgcc's __popcountdi2, which made the Windows DLL need
 * libgcc_s_seh-1.dll: make check-windows runs the DLL.) */
#include <stdint.h>

#include "port.h"
#include "tap.h"

static unsigned bits(uint64_t v)
{
    unsigned n = 0;
    for (int i = 0; i < 64; i++)
        n += (unsigned)(v >> i & 1);
    return n;
}

static unsigned low(uint64_t v)
{
    unsigned i = 0;
    while (!(v >> i & 1))
        i++;
    return i;
}

static unsigned high(uint64_t v)
{
    unsigned i = 63;
    while (!(v >> i & 1))
        i--;
    return i;
}

int main(void)
{
    static const uint64_t edge[] = {0, 1, 2, 3, 0x80000000u, 0xffffffffu, 0x100000000u,
                                    0x8000000000000000u, 0xffffffffffffffffu,
                                    0x5555555555555555u, 0xaaaaaaaaaaaaaaaau};
    int pc = 1, pc32 = 1, tz = 1, ms = 1;
    uint64_t x = 88172645463325252u;
    for (long i = -(long)(sizeof edge / sizeof edge[0]); i < 1000000; i++) {
        uint64_t v = i < 0 ? edge[-i - 1] : x;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        pc &= nbp_popcount64(v) == bits(v);
        pc32 &= nbp_popcount32((uint32_t)v) == bits((uint32_t)v);
        if (v) {
            tz &= nbp_ctz64(v) == low(v);
            ms &= nbp_msb64(v) == high(v);
        }
    }
    ok(pc, "nbp_popcount64 counts every bit");
    ok(pc32, "nbp_popcount32 counts every bit");
    ok(tz, "nbp_ctz64 finds the lowest set bit");
    ok(ms, "nbp_msb64 finds the highest set bit");
    return done_testing();
}
