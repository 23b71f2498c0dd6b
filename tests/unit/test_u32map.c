/* test_u32map.c: the generation-stamped map of lib/runtime/core/u32map.c
 * against a plain array over a small key space: random puts, gets and
 * find-or-make (nbi_u32map_slot) through growth and clears, with every key
 * hashed whole and with low bits kept in the slot (nbi_u32map_keep_low, as
 * HAA*'s path keys its cells by tiles), keys dense and sparse. */
#include <stdlib.h>

#include "core/u32map.h"
#include "testutil.h"

enum { KEYS = 1 << 16 };

static void run(tu_rng *rng, unsigned low, uint32_t stride)
{
    static uint32_t ref[KEYS];
    static uint8_t has[KEYS];
    nbi_u32map m;
    nbi_u32map_init(&m, NULL);
    nbi_u32map_keep_low(&m, low);
    int bad = 0;
    long ops = 0;
    for (int round = 0; round < 6; round++) {
        memset(has, 0, sizeof has);
        nbi_u32map_clear(&m);
        uint32_t span = 64u << (2 * round); /* a few keys to all of them: the map grows */
        if (span > KEYS)
            span = KEYS;
        for (int i = 0; i < 30000; i++, ops++) {
            uint32_t k = (uint32_t)tu_below(rng, span), key = k * stride;
            int found;
            switch (tu_below(rng, 3)) {
            case 0:
                if (!nbi_u32map_put(&m, key, (uint32_t)i))
                    bad++;
                ref[k] = (uint32_t)i, has[k] = 1;
                break;
            case 1: {
                uint32_t v = nbi_u32map_get(&m, key, &found);
                if (found != has[k] || (found && v != ref[k]))
                    bad++;
                break;
            }
            default: {
                uint32_t *v = nbi_u32map_slot(&m, key, &found);
                if (!v || found != has[k] || (found && *v != ref[k]) || (!found && *v != 0))
                    bad++;
                else
                    *v = (uint32_t)i, ref[k] = (uint32_t)i, has[k] = 1;
            }
            }
        }
        size_t n = 0;
        for (uint32_t k = 0; k < KEYS; k++)
            n += has[k];
        if (n != m.count)
            bad++;
    }
    ok(bad == 0, "u32map: %ld operations, keys %u apart, %u low bits kept: as a plain array "
                 "says (%d wrong)",
       ops, stride, low, bad);
    nbi_u32map_free(&m);
}

int main(void)
{
    tu_rng rng = {0x32a9u};
    for (unsigned low = 0; low <= 4; low += 2) {
        run(&rng, low, 1);
        run(&rng, low, 4096);
    }
    return done_testing();
}
