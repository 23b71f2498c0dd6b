/* fuzz_bundle.c: libFuzzer target: any bytes opened as a bundle, verified,
 * and everything the runtime reads touched.  Built by 'make fuzz'. */
#include <stddef.h>
#include <stdint.h>

#include "navbake.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open_memory(data, size, 0, NULL, &b, &err) != NB_OK)
        return 0;
    (void)nb_bundle_verify(b, &err);
    for (size_t i = 0; i < nb_bundle_section_count(b); i++) {
        const void *p;
        size_t len;
        if (nb_bundle_payload(b, i, &p, &len, &err) == NB_OK && len)
            (void)((const volatile uint8_t *)p)[len - 1];
    }
    for (size_t i = 0; i < nb_agent_count(b); i++) {
        char buf[64];
        nb_capability_format(b, nb_agent_get(b, i)->capability, buf, sizeof buf);
    }
    for (uint32_t y = 0; y < nb_map_height(b); y += 7)
        for (uint32_t x = 0; x < nb_map_width(b); x += 7)
            (void)nb_map_terrain(b, x, y);
    nb_bundle_close(b);
    return 0;
}
