/* test_damage.c: a damaged bundle is refused, never read out of bounds.
 *  - every truncation (each length from 0 to the size) is refused or
 *    verifies cleanly;
 *  - every single-bit flip anywhere in the file is caught by open or by
 *    verify, reported per region (header, table, each section, padding);
 *  - random multi-byte damage never crashes.
 * The buffers are exactly sized copies, so AddressSanitizer (make
 * check-sanitize) catches any read past the end. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

/* 1 when the bytes open and verify. */
static int accepted(const uint8_t *data, size_t len)
{
    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open_memory(data, len, NB_OPEN_VERIFY, NULL, &b, &err) != NB_OK)
        return 0;
    /* Touch what the runtime reads, in case damage got through. */
    for (size_t i = 0; i < nb_agent_count(b); i++)
        (void)nb_agent_get(b, i)->size;
    (void)nb_map_terrain(b, (long)nb_map_width(b) - 1, (long)nb_map_height(b) - 1);
    nb_bundle_close(b);
    return 1;
}

static void damage_bundle(const char *label, const uint8_t *orig, size_t len)
{
    uint8_t *copy;
    ok(accepted(orig, len), "%s: the intact bundle is accepted", label);

    /* Truncations. */
    size_t bad = 0;
    for (size_t n = 0; n < len; n++) {
        copy = malloc(n ? n : 1);
        memcpy(copy, orig, n);
        if (accepted(copy, n))
            bad++;
        free(copy);
    }
    is_int(bad, 0, "%s: all %zu truncations are refused", label, len);

    /* Single-bit flips, grouped by region. */
    nb_bundle *b;
    nb_err err;
    nb_bundle_open_memory(orig, len, 0, NULL, &b, &err);
    size_t nsec = nb_bundle_section_count(b);
    struct { uint64_t from, to; char name[48]; } region[64];
    size_t nreg = 0;
    region[nreg].from = 0, region[nreg].to = 64, strcpy(region[nreg++].name, "header");
    region[nreg].from = 64, region[nreg].to = 64 + 128 * nsec, strcpy(region[nreg++].name, "section table");
    uint64_t at = 64 + 128 * nsec;
    for (size_t i = 0; i < nsec && nreg + 2 < 64; i++) {
        const nb_section_info *in = nb_bundle_section_get(b, i);
        if (in->offset > at) {
            region[nreg].from = at, region[nreg].to = in->offset;
            snprintf(region[nreg++].name, 48, "padding before section %zu", i);
        }
        region[nreg].from = in->offset, region[nreg].to = in->offset + in->size;
        snprintf(region[nreg++].name, 48, "section %zu (%s)", i, nb_section_type_name(in->type));
        at = in->offset + in->size;
    }
    nb_bundle_close(b);
    copy = malloc(len);
    memcpy(copy, orig, len);
    for (size_t r = 0; r < nreg; r++) {
        size_t flips = 0, missed = 0;
        for (uint64_t i = region[r].from; i < region[r].to; i++)
            for (int bit = 0; bit < 8; bit++) {
                copy[i] ^= (uint8_t)(1 << bit);
                missed += accepted(copy, len);
                copy[i] ^= (uint8_t)(1 << bit);
                flips++;
            }
        is_int(missed, 0, "%s: all %zu bit flips in the %s are caught", label, flips, region[r].name);
    }

    /* Random damage: several bytes at once, anywhere. */
    tu_rng rng = {0x5eed};
    size_t passed = 0;
    for (int k = 0; k < 3000; k++) {
        memcpy(copy, orig, len);
        int nb = 1 + (int)tu_below(&rng, 8);
        for (int j = 0; j < nb; j++)
            copy[tu_below(&rng, (uint32_t)len)] = (uint8_t)tu_rand(&rng);
        passed += accepted(copy, len) && memcmp(copy, orig, len) != 0;
    }
    is_int(passed, 0, "%s: 3000 random multi-byte damages are refused", label);
    free(copy);
}

int main(void)
{
    nbi_legend legend;
    static nbi_agentset agents;
    nbb_grid grid;
    nb_err err;
    nbi_legend_default(&legend);
    if (nbb_agents_read(tu_src("data/sample-agents.yaml"), &legend, &agents, &err) != NB_OK) {
        printf("Bail out! %s\n", err.msg);
        return 1;
    }
    /* A small level keeps the exhaustive loops quick. */
    tu_rng r = {7};
    tu_random_grid(&r, 23, 17, 25, 4, &grid);
    for (int z = 0; z < 2; z++) {
        const char *p = tu_path(tu_tmpdir(), z ? "z.nbk" : "r.nbk");
        if (tu_write_level(p, &legend, &agents, &grid, z, &err) != NB_OK) {
            printf("Bail out! %s\n", err.msg);
            return 1;
        }
        size_t len;
        uint8_t *bytes = (uint8_t *)tu_read(p, &len);
        /* tu_read adds a NUL; copy to an exact-size buffer. */
        uint8_t *exact = malloc(len);
        memcpy(exact, bytes, len);
        free(bytes);
        damage_bundle(z ? "zlib map" : "raw map", exact, len);
        free(exact);
    }
    nbb_grid_free(&grid);
    return done_testing();
}
