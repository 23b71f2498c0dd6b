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
#include "place/runs_build.h"

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
                                   uint8_t **payload, size_t *len,
                                   const nbb_progress_part *progress, nb_err *err)
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
    nb_status st = nbb_par_for_progress(threads, nbb_band_count(grid->height), clear_band, &j,
                                        progress, err);
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
                                  unsigned threads, nbb_progress_fn progress, void *arg,
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
    uint8_t *cv = malloc(n ? n : 1);
    uint32_t *label = malloc((n ? n : 1) * sizeof *label);
    nb_status st = NB_OK;
    if (!cv || !label)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                      grid->width, grid->height);
    /* Progress by layers, the same share each: a clearance layer, then a
     * component layer per size, for each capability. */
    nbb_progress_part part = {progress, arg, 0, 1.0 / (double)(ncaps * (1 + nsizes)), NULL};
    for (size_t c = 0; c < ncaps && st == NB_OK; c++) {
        uint8_t in_cap[256], *payload;
        size_t len;
        part.base = (double)(c * (1 + nsizes)) * part.span;
        nbb_progress_part_report(&part, 0);
        nbb_terrain_mask(legend, caps[c], in_cap);
        st = nbb_bake_clearance_layer(grid, in_cap, cap_size, threads, cv, &payload, &len, &part,
                                      err);
        if (st != NB_OK)
            break;
        uint32_t params[3] = {caps[c], cap_size, nbi_bits_for(cap_size)};
        st = nbb_layer_add(b, NB_SEC_CLEARANCE, params, 3, payload, len, compress, err);
        if (stats && st == NB_OK) {
            stats->clearance_layers++;
            stats->packed_bytes += len;
        }
        for (size_t s = 0; s < nsizes && st == NB_OK; s++) {
            part.base = (double)(c * (1 + nsizes) + 1 + s) * part.span;
            nbb_progress_part_report(&part, 0);
            st = nbb_bake_components_layer(cv, grid->width, grid->height, sizes[s], threads,
                                           label, &payload, &len, &part, err);
            if (st != NB_OK)
                break;
            uint32_t count = nbi_get32(payload + NBI_LAYER_MAXVAL);
            uint32_t cparams[4] = {caps[c], sizes[s], count, nbi_bits_for(count)};
            st = nbb_layer_add(b, NB_SEC_COMPONENTS, cparams, 4, payload, len, compress, err);
            if (stats && st == NB_OK) {
                stats->component_layers++;
                stats->packed_bytes += len;
            }
            /* The runs of each component, for random cells (formats/runs.md). */
            if (st == NB_OK)
                st = nbb_runs_add(b, caps[c], sizes[s], label, grid->width, grid->height, count,
                                  threads, compress, err);
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
    return nbb_bake_clearance_opts(b, legend, agents, grid, compress, 0, NULL, NULL, stats, err);
}

nb_status nbb_level_bake_clearance(nbb_builder *b, const nbb_level *level, int compress,
                                   nbb_progress_fn progress, void *arg, nbb_clearance_stats *stats,
                                   nb_err *err)
{
    return nbb_bake_clearance_opts(b, &level->legend, &level->agents, &level->grid, compress, 0,
                                   progress, arg, stats, err);
}
