/* clearance_build.c: true clearance (Harabor and Botea, CIG 2008, section IV)
 * computed in O(cells) per capability, and the layers mkclear bakes.
 *
 * The paper grows a square at every cell (its Algorithm 1), O(cells x s^2);
 * the largest all-passable square anchored at (x, y) is one more than the
 * smallest of the squares anchored right, below and diagonally below-right,
 * so one sweep from the bottom-right gives every value.  Values are capped
 * at the largest agent size served: a query only ever asks cv >= s, and
 * the cap is what lets a layer pack into a few bits per cell. */
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "place/runs_build.h"

void nbb_terrain_mask(const nbi_legend *legend, nb_capability cap, uint8_t in_cap[256])
{
    for (unsigned c = 0; c < 256; c++) {
        uint8_t t = legend->code[c];
        in_cap[c] = t < legend->nterrains && t < 32 && ((cap >> t) & 1u);
    }
}

void nbb_clearance_compute(const uint8_t *cells, uint32_t width, uint32_t height,
                           const uint8_t in_cap[256], unsigned cap_size, uint8_t *out)
{
    size_t w = width;
    for (size_t y = height; y-- > 0;) {
        const uint8_t *row = cells + y * w;
        uint8_t *o = out + y * w;
        const uint8_t *below = y + 1 < height ? out + (y + 1) * w : NULL;
        uint8_t right = 0, right_below = 0; /* cv(x+1, y), cv(x+1, y+1) */
        for (size_t x = w; x-- > 0;) {
            uint8_t b = below ? below[x] : 0, v = 0;
            if (in_cap[row[x]]) {
                uint8_t m = right < b ? right : b;
                if (right_below < m)
                    m = right_below;
                v = (uint8_t)(m + 1u > cap_size ? cap_size : m + 1u);
            }
            o[x] = v;
            right = v;
            right_below = b;
        }
    }
}

void nbb_layer_pack(uint32_t width, uint32_t height, uint32_t maxval, const uint8_t *v8,
                    const uint32_t *v32, uint8_t *out)
{
    uint64_t cells = (uint64_t)width * height;
    unsigned bits = nbi_bits_for(maxval);
    size_t len = (size_t)nbi_layer_bytes(cells, bits);
    memset(out, 0, len);
    nbi_put32(out + NBI_LAYER_WIDTH, width);
    nbi_put32(out + NBI_LAYER_HEIGHT, height);
    nbi_put32(out + NBI_LAYER_BITS, bits);
    nbi_put32(out + NBI_LAYER_MAXVAL, maxval);
    uint8_t *p = out + NBI_LAYER_HEADER;
    /* Values go in LSB first; a 64-bit accumulator flushes whole bytes. */
    uint64_t acc = 0;
    unsigned have = 0;
    for (uint64_t i = 0; i < cells; i++) {
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

static nb_status add_layer(struct nbb_builder *b, uint32_t type, uint16_t version,
                           const uint32_t *params, size_t nparams, const uint8_t *payload,
                           size_t len, int compress, nbb_clearance_stats *stats, nb_err *err)
{
    nb_section_info in;
    memset(&in, 0, sizeof in);
    in.type = type;
    in.version = version;
    in.encoding = type == NB_SEC_RUNS ? NB_ENC_RAW : NB_ENC_PACKED;
    memcpy(in.param, params, nparams * sizeof *params);
    nb_status st = nbb_builder_add(b, &in, payload, len, compress, err);
    if (st == NB_OK && stats)
        stats->packed_bytes += len;
    return st;
}

nb_status nbb_bake_clearance(nbb_builder *b, const nbi_legend *legend, const nbi_agentset *agents,
                             const nbb_grid *grid, int compress, nbb_clearance_stats *stats,
                             nb_err *err)
{
    return nbb_bake_clearance_progress(b, legend, agents, grid, compress, NULL, NULL, stats, err);
}

nb_status nbb_bake_clearance_progress(nbb_builder *b, const nbi_legend *legend,
                                      const nbi_agentset *agents, const nbb_grid *grid,
                                      int compress, nbb_progress_fn progress, void *arg,
                                      nbb_clearance_stats *stats, nb_err *err)
{
    nb_capability caps[NB_MAX_AGENTS];
    uint32_t sizes[NB_MAX_AGENTS];
    size_t ncaps = nbi_agents_capabilities(agents, caps);
    size_t nsizes = nbi_agents_sizes(agents, sizes);
    uint32_t cap_size = nbi_agents_max_size(agents);
    uint64_t cells = (uint64_t)grid->width * grid->height;
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (ncaps == 0)
        return NB_OK;
    if (cells > (uint64_t)SIZE_MAX / 16)
        return nbi_fail(err, NB_ERR_LIMIT, "a %u x %u map is too large for this machine",
                        grid->width, grid->height);
    size_t n = (size_t)cells;
    uint8_t *cv = malloc(n);
    uint32_t *label = malloc(n * sizeof *label), *queue = malloc(n * sizeof *queue);
    /* The largest payload: component ids of at most n / 2 + 1 components. */
    uint8_t *payload = malloc((size_t)nbi_layer_bytes(cells, 32));
    nb_status st = NB_OK;
    if (!cv || !label || !queue || !payload)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                      grid->width, grid->height);
    /* Progress by layers, the same share each: a clearance layer, then a
     * component layer per size, for each capability. */
    nbb_progress_part part = {progress, arg, 0, 1.0 / (double)(ncaps * (1 + nsizes))};
    for (size_t c = 0; c < ncaps && st == NB_OK; c++) {
        uint8_t in_cap[256];
        part.base = (double)(c * (1 + nsizes)) * part.span;
        nbb_progress_part_report(&part, 0);
        nbb_terrain_mask(legend, caps[c], in_cap);
        nbb_clearance_compute(grid->cells, grid->width, grid->height, in_cap, cap_size, cv);
        unsigned bits = nbi_bits_for(cap_size);
        nbb_layer_pack(grid->width, grid->height, cap_size, cv, NULL, payload);
        uint32_t params[3] = {caps[c], cap_size, bits};
        st = add_layer(b, NB_SEC_CLEARANCE, NBI_CLEARANCE_VERSION, params, 3, payload,
                       (size_t)nbi_layer_bytes(cells, bits), compress, stats, err);
        if (stats && st == NB_OK)
            stats->clearance_layers++;
        for (size_t s = 0; s < nsizes && st == NB_OK; s++) {
            part.base = (double)(c * (1 + nsizes) + 1 + s) * part.span;
            nbb_progress_part_report(&part, 0);
            uint32_t count = nbb_components_compute(cv, grid->width, grid->height, sizes[s], label,
                                                    queue, &part);
            unsigned cbits = nbi_bits_for(count);
            nbb_layer_pack(grid->width, grid->height, count, NULL, label, payload);
            uint32_t cparams[4] = {caps[c], sizes[s], count, cbits};
            st = add_layer(b, NB_SEC_COMPONENTS, NBI_COMPONENTS_VERSION, cparams, 4, payload,
                           (size_t)nbi_layer_bytes(cells, cbits), compress, stats, err);
            if (stats && st == NB_OK)
                stats->component_layers++;
            /* The runs of each component, for random cells (formats/runs.md). */
            nbb_runs runs;
            if (st == NB_OK)
                st = nbb_runs_build(label, grid->width, grid->height, count, &runs, err);
            if (st == NB_OK) {
                uint32_t rparams[5] = {caps[c], sizes[s], count, runs.count, runs.cells};
                st = add_layer(b, NB_SEC_RUNS, NBI_RUNS_VERSION, rparams, 5, runs.payload,
                               runs.len, compress, stats, err);
                nbb_runs_free(&runs);
            }
        }
    }
    free(cv);
    free(label);
    free(queue);
    free(payload);
    return st;
}

nb_status nbb_level_bake_clearance(nbb_builder *b, const nbb_level *level, int compress,
                                   nbb_progress_fn progress, void *arg, nbb_clearance_stats *stats,
                                   nb_err *err)
{
    return nbb_bake_clearance_progress(b, &level->legend, &level->agents, &level->grid, compress,
                                       progress, arg, stats, err);
}
