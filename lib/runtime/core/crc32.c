/* crc32.c: CRC-32 by folding with carry-less multiplication (Gopal et
 * al., "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ
 * Instruction", Intel 2009), where the processor has PCLMULQDQ; zlib's
 * crc32 elsewhere and for short buffers.
 *
 * Why: opening a bundle with NB_OPEN_VERIFY, `navbake verify` and every
 * bake check or write the CRC of every section, and zlib 1.2's table
 * method runs at about 1 GB/s: a third of the CPU time of an incremental
 * rebake of a 4096^2 level (150 MB read and 135 MB written).  Folding runs
 * at several times that.
 *
 * The method, in the reflected bit order of this CRC: the message is kept
 * as four 128-bit lanes; each 64 bytes, every lane is multiplied forward
 * by 512 bits (its two halves times x^(512+32) and x^(512-32) modulo the
 * polynomial, bit-reflected) and the next 64 bytes are added.  This keeps
 * the CRC of "lanes followed by the rest of the message" equal to the
 * message's, so the lanes are folded into one (by 128 bits at a time) and
 * the last 16 bytes of the fold and the tail go through zlib, which avoids
 * the final Barrett reduction.  The constants are x^n mod P for n = 544,
 * 480, 160 and 96, reflected to 32 bits and shifted left by one; the unit
 * test (tests/unit/test_crc32.c) checks them against zlib on every length
 * and alignment up to a few hundred bytes and on big random buffers. */
#include <zlib.h>

#include "core/crc32.h"

/* Below this, zlib's table is as fast as setting up (and CPUID, which a
 * virtual machine may trap, costs a microsecond or two). */
#define NBI_CRC_FOLD_MIN 16384

static uint32_t crc_zlib(uint32_t crc, const uint8_t *p, size_t len)
{
    uLong c = crc;
    while (len > 0) {
        uInt n = (uInt)(len > 0x40000000u ? 0x40000000u : len);
        c = crc32(c, p, n);
        p += n;
        len -= n;
    }
    return (uint32_t)c;
}

#if NBP_CLMUL
#include <emmintrin.h>
#include <wmmintrin.h>

/* lane * x^D: low half times k_lo, high half times k_hi, plus next. */
NBP_TARGET_CLMUL static inline __m128i fold(__m128i lane, __m128i k, __m128i next)
{
    __m128i lo = _mm_clmulepi64_si128(lane, k, 0x00), hi = _mm_clmulepi64_si128(lane, k, 0x11);
    return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}

/* len >= 64. */
NBP_TARGET_CLMUL static uint32_t crc_fold(uint32_t crc, const uint8_t *p, size_t len)
{
    const __m128i k512 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4),
                  k128 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
    __m128i x0 = _mm_loadu_si128((const __m128i *)p), x1 = _mm_loadu_si128((const __m128i *)(p + 16)),
            x2 = _mm_loadu_si128((const __m128i *)(p + 32)), x3 = _mm_loadu_si128((const __m128i *)(p + 48));
    /* The pre-inverted register enters as the message's first 32 bits. */
    x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)~crc));
    p += 64;
    len -= 64;
    for (; len >= 64; p += 64, len -= 64) {
        x0 = fold(x0, k512, _mm_loadu_si128((const __m128i *)p));
        x1 = fold(x1, k512, _mm_loadu_si128((const __m128i *)(p + 16)));
        x2 = fold(x2, k512, _mm_loadu_si128((const __m128i *)(p + 32)));
        x3 = fold(x3, k512, _mm_loadu_si128((const __m128i *)(p + 48)));
    }
    x0 = fold(x0, k128, x1);
    x0 = fold(x0, k128, x2);
    x0 = fold(x0, k128, x3);
    for (; len >= 16; p += 16, len -= 16)
        x0 = fold(x0, k128, _mm_loadu_si128((const __m128i *)p));
    /* The fold's 16 bytes and the tail, from a zero register: zlib's
     * crc32 from ~0 is that, inverted. */
    uint8_t last[16];
    _mm_storeu_si128((__m128i *)last, x0);
    uint32_t c = crc_zlib(0xffffffffu, last, 16);
    return crc_zlib(c, p, len);
}
#endif

int nbi_crc32_folds(void)
{
#if NBP_CLMUL
    return nbp_has_clmul();
#else
    return 0;
#endif
}

uint32_t nbi_crc32_from(uint32_t crc, const void *p, size_t len, size_t fold_min)
{
#if NBP_CLMUL
    if (len >= fold_min && len >= 64 && nbp_has_clmul())
        return crc_fold(crc, p, len);
#else
    (void)fold_min;
#endif
    return crc_zlib(crc, p, len);
}

uint32_t nbi_crc32(uint32_t crc, const void *p, size_t len)
{
    return nbi_crc32_from(crc, p, len, NBI_CRC_FOLD_MIN);
}
