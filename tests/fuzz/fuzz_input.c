/* fuzz_input.c: libFuzzer target for the text inputs: the first byte picks
 * the reader (map, legend, agent set), the rest is the file.  Built by
 * 'make fuzz'. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "bake_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    nb_err err;
    nbi_legend legend;
    nbi_legend_default(&legend);
    const char *text = (const char *)data + 1;
    size--;
    switch (data[0] % 3) {
    case 0: {
        nbb_grid g;
        if (nbb_map_parse(text, size, "fuzz.map", &legend, 1, &g, &err) == NB_OK)
            nbb_grid_free(&g);
        break;
    }
    case 1: {
        nbi_legend l;
        (void)nbb_legend_parse(text, size, "fuzz.yaml", &l, &err);
        break;
    }
    default: {
        static nbi_agentset set;
        (void)nbb_agents_parse(text, size, "fuzz.yaml", &legend, &set, &err);
        break;
    }
    }
    return 0;
}
