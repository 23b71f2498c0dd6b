/* clearance_rebake.c: a clearance layer kept up to date when some cells
 * of the map change.
 *
 * A capped clearance value depends on the cap x cap square of cells it
 * anchors, so a changed cell reaches the values up to cap - 1 rows above
 * it (and as far left).  The layer is cut into the bands of rows the whole
 * bake runs on (clearance_build.c): the bands whose rows, or the cap - 1
 * rows below them, hold a changed cell are computed again, on threads, and
 * packed in place of their bytes; every other band keeps its bytes.  What
 * changed is listed cell by cell, in row-major order, for the layers built
 * on this one (components, the abstract graph). */
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "parallel/parallel.h"

typedef struct band_out {
    nbb_cv_change *ch; /* this band's changes */
    size_t n;
} band_out;

typedef struct rebake_job {
    const nbb_grid *grid;
    const uint8_t *in_cap;
    unsigned cap_size, bits;
    const uint8_t *old;   /* the old payload */
    uint8_t *payload;     /* the new one: a copy, bands replaced */
    const uint32_t *dirty;
    band_out *out;
    uint8_t **scratch;    /* a worker's band, old band and halo */
} rebake_job;

static nb_status rebake_band(void *ctx, size_t i, unsigned worker, nb_err *err)
{
    rebake_job *j = ctx;
    const nbb_grid *g = j->grid;
    uint32_t band = j->dirty[i], y0, y1;
    size_t w = g->width, cells = (size_t)NBB_BAND_ROWS * w;
    nbb_band_rows(band, g->height, &y0, &y1);
    uint8_t *s = j->scratch[worker];
    if (!s && !(s = j->scratch[worker] = malloc(2 * cells + 2 * w)))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                        g->width, g->height);
    uint8_t *now = s, *before = s + cells, *halo = s + 2 * cells;
    nbb_clearance_rows(g->cells, g->width, g->height, j->in_cap, j->cap_size, y0, y1, now, halo);
    nbb_layer_unpack_rows(j->old, g->width, j->bits, y0, y1, before, NULL);
    size_t n = (size_t)(y1 - y0) * w, nch = 0;
    for (size_t k = 0; k < n; k++)
        nch += now[k] != before[k];
    band_out *o = &j->out[i];
    o->n = 0;
    o->ch = NULL;
    if (nch == 0)
        return NB_OK;
    if (!(o->ch = malloc(nch * sizeof *o->ch)))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                        g->width, g->height);
    for (size_t k = 0; k < n; k++)
        if (now[k] != before[k])
            o->ch[o->n++] = (nbb_cv_change){(uint32_t)((size_t)y0 * w + k), before[k], now[k]};
    nbb_layer_pack_rows(j->payload, g->width, j->bits, y0, y1, now, NULL);
    return NB_OK;
}

nb_status nbb_clearance_rebake(const nbb_grid *grid, const uint8_t *changed_rows,
                               const uint8_t in_cap[256], unsigned cap_size, unsigned threads,
                               const uint8_t *old, size_t old_len, uint8_t **payload,
                               nbb_cv_change **changes, size_t *nchanges, uint32_t *rebuilt,
                               nb_err *err)
{
    *payload = NULL;
    *changes = NULL;
    *nchanges = 0;
    *rebuilt = 0;
    uint32_t nb = nbb_band_count(grid->height);
    /* A band is dirty when a changed row lies in it or in the cap - 1 rows below. */
    uint32_t *dirty = malloc(((size_t)nb + 1) * sizeof *dirty), ndirty = 0;
    band_out *out = NULL;
    uint8_t *scratch[NBB_MAX_THREADS] = {NULL};
    nb_status st = NB_OK;
    if (!dirty || !(*payload = malloc(old_len))) {
        free(dirty);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                        grid->width, grid->height);
    }
    memcpy(*payload, old, old_len);
    for (uint32_t b = 0; b < nb; b++) {
        uint32_t y0, y1;
        nbb_band_rows(b, grid->height, &y0, &y1);
        uint64_t t = (uint64_t)y1 + cap_size - 1;
        for (uint64_t y = y0; y < t && y < grid->height; y++)
            if (changed_rows[y]) {
                dirty[ndirty++] = b;
                break;
            }
    }
    *rebuilt = ndirty;
    if (ndirty && !(out = calloc(ndirty, sizeof *out)))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                      grid->width, grid->height);
    if (st == NB_OK && ndirty) {
        rebake_job j = {grid,  in_cap, cap_size, nbi_bits_for(cap_size), old, *payload,
                        dirty, out,    scratch};
        st = nbb_par_for(threads, ndirty, rebake_band, &j, err);
    }
    /* The bands' changes, in band order: row-major. */
    size_t total = 0;
    for (uint32_t i = 0; st == NB_OK && i < ndirty; i++)
        total += out[i].n;
    if (st == NB_OK && total && !(*changes = malloc(total * sizeof **changes)))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                      grid->width, grid->height);
    for (uint32_t i = 0; st == NB_OK && i < ndirty; i++) {
        if (out[i].n)
            memcpy(*changes + *nchanges, out[i].ch, out[i].n * sizeof **changes);
        *nchanges += out[i].n;
    }
    for (uint32_t i = 0; out && i < ndirty; i++)
        free(out[i].ch);
    for (unsigned i = 0; i < NBB_MAX_THREADS; i++)
        free(scratch[i]);
    free(out);
    free(dirty);
    if (st != NB_OK) {
        free(*payload);
        free(*changes);
        *payload = NULL;
        *changes = NULL;
        *nchanges = 0;
    }
    return st;
}
