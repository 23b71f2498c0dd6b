/* clearance_build.c: true clearance (Harabor and Botea, CIG 2008, section IV)
 * computed in O(cells) per capability, and the layers mkclear bakes.
 *
 * The paper grows a square at every cell (its Algorithm 1), O(cells x s^2);
 * the largest all-passable square anchored at (x, y) is one more than the
 * smallest of the squares anchored right, below and diagonally below-right,
 * so one sweep from the bottom-right gives every value.  Values are capped
 * at the largest agent size served: a query only ever asks cv >= s, and
 * the cap is what lets a layer pack into a few bits per cell.
 *
 * The cap also makes the sweep local: a capped value depends only on the
 * cap x cap square of cells it anchors.  So a band of rows is computed on
 * its own, starting cap - 1 rows below it as if the map ended there; the
 * bands are the units mkclear's threads share, and the units an
 * incremental bake recomputes (level_rebake.c). */
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "parallel/parallel.h"

void nbb_terrain_mask(const nbi_legend *legend, nb_capability cap, uint8_t in_cap[256])
{
    for (unsigned c = 0; c < 256; c++) {
        uint8_t t = legend->code[c];
        in_cap[c] = t < legend->nterrains && t < 32 && ((cap >> t) & 1u);
    }
}

/* One row of the sweep, right to left, from the row below it (NULL: the
 * map's edge). */
static void sweep_row(const uint8_t *row, const uint8_t *below, uint8_t *o, size_t w,
                      const uint8_t in_cap[256], unsigned cap_size)
{
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

void nbb_clearance_rows(const uint8_t *cells, uint32_t width, uint32_t height,
                        const uint8_t in_cap[256], unsigned cap_size, uint32_t y0, uint32_t y1,
                        uint8_t *out, uint8_t *halo)
{
    size_t w = width;
    uint64_t t = (uint64_t)y1 + (cap_size ? cap_size - 1 : 0);
    if (t > height)
        t = height;
    const uint8_t *below = NULL;
    for (uint64_t y = t; y-- > y1;) {
        uint8_t *o = halo + ((y - y1) & 1) * w;
        sweep_row(cells + y * w, below, o, w, in_cap, cap_size);
        below = o;
    }
    for (uint32_t y = y1; y-- > y0;) {
        uint8_t *o = out + (size_t)(y - y0) * w;
        sweep_row(cells + (size_t)y * w, below, o, w, in_cap, cap_size);
        below = o;
    }
}

void nbb_clearance_compute(const uint8_t *cells, uint32_t width, uint32_t height,
                           const uint8_t in_cap[256], unsigned cap_size, uint8_t *out)
{
    nbb_clearance_rows(cells, width, height, in_cap, cap_size, 0, height, out, NULL);
}

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

/* ---- the whole bake, band by band ---- */

typedef struct clear_job {
    const nbb_grid *grid;
    const uint8_t *in_cap;
    unsigned cap_size, bits;
    uint8_t *cv, *payload;
    uint8_t **halo; /* a worker's two rows below its band */
} clear_job;

static nb_status clear_band(void *ctx, size_t band, unsigned worker, nb_err *err)
{
    clear_job *j = ctx;
    const nbb_grid *g = j->grid;
    uint32_t y0, y1;
    nbb_band_rows((uint32_t)band, g->height, &y0, &y1);
    if (!j->halo[worker] && !(j->halo[worker] = malloc(2 * (size_t)g->width)))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                        g->width, g->height);
    uint8_t *cv = j->cv + (size_t)y0 * g->width;
    nbb_clearance_rows(g->cells, g->width, g->height, j->in_cap, j->cap_size, y0, y1, cv,
                       j->halo[worker]);
    nbb_layer_pack_rows(j->payload, g->width, j->bits, y0, y1, cv, NULL);
    return NB_OK;
}

nb_status nbb_bake_clearance_layer(const nbb_grid *grid, const uint8_t in_cap[256],
                                   unsigned cap_size, unsigned threads, uint8_t *cv,
                                   uint8_t **payload, size_t *len, nb_err *err)
{
    unsigned bits = nbi_bits_for(cap_size);
    uint64_t cells = (uint64_t)grid->width * grid->height;
    *len = (size_t)nbi_layer_bytes(cells, bits);
    *payload = malloc(*len);
    uint8_t *halo[NBB_MAX_THREADS] = {NULL};
    if (!*payload)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                        grid->width, grid->height);
    nbb_layer_header(*payload, grid->width, grid->height, bits, cap_size);
    clear_job j = {grid, in_cap, cap_size, bits, cv, *payload, halo};
    nb_status st = nbb_par_for(threads, nbb_band_count(grid->height), clear_band, &j, err);
    for (unsigned i = 0; i < NBB_MAX_THREADS; i++)
        free(halo[i]);
    if (st != NB_OK) {
        free(*payload);
        *payload = NULL;
    }
    return st;
}

nb_status nbb_bake_clearance_opts(nbb_builder *b, const nbi_legend *legend,
                                  const nbi_agentset *agents, const nbb_grid *grid, int compress,
                                  unsigned threads, nbb_clearance_stats *stats, nb_err *err)
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
    uint8_t *cv = malloc(n ? n : 1);
    uint32_t *label = malloc((n ? n : 1) * sizeof *label);
    nb_status st = NB_OK;
    if (!cv || !label)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                      grid->width, grid->height);
    for (size_t c = 0; c < ncaps && st == NB_OK; c++) {
        uint8_t in_cap[256], *payload;
        size_t len;
        nbb_terrain_mask(legend, caps[c], in_cap);
        st = nbb_bake_clearance_layer(grid, in_cap, cap_size, threads, cv, &payload, &len, err);
        if (st != NB_OK)
            break;
        uint32_t params[3] = {caps[c], cap_size, nbi_bits_for(cap_size)};
        st = nbb_layer_add(b, NB_SEC_CLEARANCE, params, 3, payload, len, compress, err);
        if (stats && st == NB_OK) {
            stats->clearance_layers++;
            stats->packed_bytes += len;
        }
        for (size_t s = 0; s < nsizes && st == NB_OK; s++) {
            st = nbb_bake_components_layer(cv, grid->width, grid->height, sizes[s], threads,
                                           label, &payload, &len, err);
            if (st != NB_OK)
                break;
            uint32_t count = nbi_get32(payload + NBI_LAYER_MAXVAL);
            uint32_t cparams[4] = {caps[c], sizes[s], count, nbi_bits_for(count)};
            st = nbb_layer_add(b, NB_SEC_COMPONENTS, cparams, 4, payload, len, compress, err);
            if (stats && st == NB_OK) {
                stats->component_layers++;
                stats->packed_bytes += len;
            }
        }
    }
    free(cv);
    free(label);
    return st;
}

nb_status nbb_bake_clearance(nbb_builder *b, const nbi_legend *legend, const nbi_agentset *agents,
                             const nbb_grid *grid, int compress, nbb_clearance_stats *stats,
                             nb_err *err)
{
    return nbb_bake_clearance_opts(b, legend, agents, grid, compress, 0, stats, err);
}

nb_status nbb_level_bake_clearance(nbb_builder *b, const nbb_level *level, int compress,
                                   nbb_clearance_stats *stats, nb_err *err)
{
    return nbb_bake_clearance(b, &level->legend, &level->agents, &level->grid, compress, stats, err);
}
