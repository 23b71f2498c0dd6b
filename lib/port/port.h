/* port.h: the compiler's extensions navbake uses, behind portable names,
 * with plain C fallbacks, so that the sources themselves are ISO C11.
 * Below every layer (runtime, bake side, tools, tests): it depends on
 * nothing but <stdint.h>.  Not installed.  Names are NBP_ / nbp_. */
#ifndef NB_PORT_H
#define NB_PORT_H

#include <stdint.h>

#if defined(__MINGW32__)
/* mingw-w64 with __USE_MINGW_ANSI_STDIO (configure sets it) formats as C99
 * says (%zu, %lld), not as msvcrt does. */
#define NBP_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#define NBP_ALWAYS_INLINE __attribute__((always_inline))
#define NBP_NOINLINE __attribute__((noinline))
#elif defined(__GNUC__) || defined(__clang__)
#define NBP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define NBP_ALWAYS_INLINE __attribute__((always_inline))
#define NBP_NOINLINE __attribute__((noinline))
#else
#define NBP_PRINTF(f, a)
#define NBP_ALWAYS_INLINE
#define NBP_NOINLINE
#endif

/* The address the current function will return to, or NULL where the
 * compiler cannot tell (tests name the caller of an allocation with it). */
#if defined(__GNUC__) || defined(__clang__)
#define NBP_RETURN_ADDRESS() __builtin_return_address(0)
#else
#define NBP_RETURN_ADDRESS() ((void *)0)
#endif

/* Asks for the cache line at p ahead of its use; nothing where the
 * compiler has no way to. */
#if defined(__GNUC__) || defined(__clang__)
#define NBP_PREFETCH(p) __builtin_prefetch(p)
#else
#define NBP_PREFETCH(p) ((void)(p))
#endif

/* The index of the lowest set bit of v, which must not be 0. */
static inline unsigned nbp_ctz64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(v);
#else
    unsigned n = 0;
    while (!(v & 1u)) {
        v >>= 1;
        n++;
    }
    return n;
#endif
}
static inline unsigned nbp_ctz32(uint32_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctz(v);
#else
    return nbp_ctz64(v);
#endif
}

/* The number of set bits of v.  The builtins only where the target has the
 * instruction: elsewhere they call libgcc's __popcount*, which a Windows DLL
 * would then need as libgcc_s_seh-1.dll; the SWAR count below is inline and
 * as fast. */
static inline unsigned nbp_popcount32(uint32_t v)
{
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    return (unsigned)__builtin_popcount(v);
#else
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (unsigned)((((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
#endif
}

/* The index of the highest set bit of v, which must not be 0 (63 for the
 * top bit). */
static inline unsigned nbp_msb64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return 63u - (unsigned)__builtin_clzll(v);
#else
    unsigned n = 0;
    while (v >>= 1)
        n++;
    return n;
#endif
}

/* The number of set bits of v. */
static inline unsigned nbp_popcount64(uint64_t v)
{
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    return (unsigned)__builtin_popcountll(v);
#else
    v = v - ((v >> 1) & 0x5555555555555555u);
    v = (v & 0x3333333333333333u) + ((v >> 2) & 0x3333333333333333u);
    return (unsigned)((((v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fu) * 0x0101010101010101u) >> 56);
#endif
}

/* Carry-less multiplication for the CRC (core/crc32.c): NBP_CLMUL is 1
 * where the compiler can build x86-64 PCLMULQDQ code for one function
 * (NBP_TARGET_CLMUL) and ask the processor at run time whether it has the
 * instruction (nbp_has_clmul: CPUID leaf 1, ECX bit 1; <cpuid.h> is
 * inline, so no libgcc is needed). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define NBP_CLMUL 1
#define NBP_TARGET_CLMUL __attribute__((target("pclmul,sse2")))
static inline int nbp_has_clmul(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 1)) != 0;
}
#else
#define NBP_CLMUL 0
#endif

/* 1 on a big-endian machine (bundles are little-endian). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NBP_BIG_ENDIAN 1
#else
#define NBP_BIG_ENDIAN 0
#endif

static inline uint64_t nbp_bswap64(uint64_t v)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_bswap64(v);
#else
    v = (v >> 32) | (v << 32);
    v = ((v & 0xffff0000ffff0000u) >> 16) | ((v & 0x0000ffff0000ffffu) << 16);
    return ((v & 0xff00ff00ff00ff00u) >> 8) | ((v & 0x00ff00ff00ff00ffu) << 8);
#endif
}

#endif
