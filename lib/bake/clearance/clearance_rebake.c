/* clearance_rebake.c: a clearance layer kept up to date when some cells
 * of the map change, and checked against the map where they did not.
 *
 * A capped clearance value depends on the cap x cap square of cells it
 * anchors, so a changed cell reaches the values up to cap - 1 rows above
 * it (and as far left).  The layer is cut into the bands of rows the whole
 * bake runs on (clearance_build.c).  Every band is computed from the map,
 * on threads: the bands whose rows, or the cap - 1 rows below them, hold a
 * changed cell are packed in place of their bytes, and what changed there
 * is listed cell by cell, in row-major order, for the layers built on this
 * one (components, the abstract graph); every other band must hold the
 * values stored, since none of the cells they depend on changed.  A
 * difference there is a layer that is not its map's (a bundle changed
 * after it was baked): an update that kept it would carry the lie forward,
 * and the graph built from it could not be trusted either, so the caller
 * refuses the bundle (nbb_clearance_lie).  The check costs a whole bake's
 * computation of the values, not its packing or writing
 * (tests/bench/results/change-bench.md). */
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "parallel/parallel.h"

typedef struct band_out {
    nbb_cv_change *ch; /* this band's changes */
    size_t n;
    uint64_t lies;     /* an unchanged band: cells whose stored value is not the map's */
    nbb_cv_change lie; /* the first */
} band_out;

typedef struct rebake_job {
    const nbb_grid *grid;
    const uint8_t *in_cap;
    unsigned cap_size, bits;
    const uint8_t *old;   /* the old payload */
    uint8_t *payload;     /* the new one: a copy, bands replaced; NULL: check only */
    uint8_t *cv;          /* NULL, or every cell's new value */
    const uint8_t *dirty; /* per band: 1 when a changed row reaches it */
    band_out *out;
    uint8_t **scratch;    /* a worker's band, old band and halo */
} rebake_job;

static nb_status rebake_band(void *ctx, size_t band, unsigned worker, nb_err *err)
{
    rebake_job *j = ctx;
    const nbb_grid *g = j->grid;
    uint32_t y0, y1;
    size_t w = g->width, cells = (size_t)NBB_BAND_ROWS * w;
    nbb_band_rows((uint32_t)band, g->height, &y0, &y1);
    uint8_t *s = j->scratch[worker];
    if (!s && !(s = j->scratch[worker] = nbb_malloc(2 * cells + 2 * w)))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                        g->width, g->height);
    uint8_t *now = j->cv ? j->cv + (size_t)y0 * w : s, *before = s + cells, *halo = s + 2 * cells;
    nbb_clearance_rows(g->cells, g->width, g->height, j->in_cap, j->cap_size, y0, y1, now, halo);
    nbb_layer_unpack_rows(j->old, g->width, j->bits, y0, y1, before, NULL);
    size_t n = (size_t)(y1 - y0) * w, nch = 0, first = n;
    for (size_t k = 0; k < n; k++)
        if (now[k] != before[k] && nch++ == 0)
            first = k;
    band_out *o = &j->out[band];
    memset(o, 0, sizeof *o);
    if (nch == 0)
        return NB_OK;
    if (!j->dirty[band]) {
        o->lies = nch;
        o->lie = (nbb_cv_change){(uint32_t)((size_t)y0 * w + first), before[first], now[first]};
        return NB_OK;
    }
    if (!(o->ch = nbb_malloc(nch * sizeof *o->ch)))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                        g->width, g->height);
    for (size_t k = first; k < n; k++)
        if (now[k] != before[k])
            o->ch[o->n++] = (nbb_cv_change){(uint32_t)((size_t)y0 * w + k), before[k], now[k]};
    if (j->payload)
        nbb_layer_pack_rows(j->payload, g->width, j->bits, y0, y1, now, NULL);
    return NB_OK;
}

nb_status nbb_clearance_rebake(const nbb_grid *grid, const uint8_t *changed_rows,
                               const uint8_t in_cap[256], unsigned cap_size, unsigned bits,
                               unsigned threads, const uint8_t *old, size_t old_len, uint8_t *cv,
                               int write, nbb_cv_rebake *r, nb_err *err)
{
    memset(r, 0, sizeof *r);
    uint32_t nb = nbb_band_count(grid->height);
    /* A band is dirty when a changed row lies in it or in the cap - 1 rows below. */
    uint8_t *dirty = nbb_calloc((size_t)nb + 1, 1);
    band_out *out = nbb_calloc((size_t)nb + 1, sizeof *out);
    uint8_t *scratch[NBB_MAX_THREADS] = {NULL};
    nb_status st = NB_OK;
    if (!dirty || !out || (write && !(r->payload = nbb_malloc(old_len)))) {
        nbb_free(dirty);
        nbb_free(out);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                        grid->width, grid->height);
    }
    if (write)
        memcpy(r->payload, old, old_len);
    for (uint32_t b = 0; changed_rows && b < nb; b++) {
        uint32_t y0, y1;
        nbb_band_rows(b, grid->height, &y0, &y1);
        uint64_t t = (uint64_t)y1 + cap_size - 1;
        for (uint64_t y = y0; y < t && y < grid->height && !dirty[b]; y++)
            dirty[b] = changed_rows[y] != 0;
        r->rebuilt += dirty[b];
    }
    rebake_job j = {grid, in_cap, cap_size, bits, old, r->payload, cv, dirty, out, scratch};
    st = nbb_par_for(threads, nb, rebake_band, &j, err);
    /* The bands' changes, in band order: row-major; the first lie. */
    size_t total = 0;
    for (uint32_t i = 0; st == NB_OK && i < nb; i++) {
        total += out[i].n;
        if (out[i].lies && r->lies == 0)
            r->lie = out[i].lie;
        r->lies += out[i].lies;
    }
    if (st == NB_OK && total && !(r->changes = nbb_malloc(total * sizeof *r->changes)))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                      grid->width, grid->height);
    for (uint32_t i = 0; st == NB_OK && i < nb; i++) {
        if (out[i].n)
            memcpy(r->changes + r->nchanges, out[i].ch, out[i].n * sizeof *r->changes);
        r->nchanges += out[i].n;
    }
    for (uint32_t i = 0; i < nb; i++)
        nbb_free(out[i].ch);
    for (unsigned i = 0; i < NBB_MAX_THREADS; i++)
        nbb_free(scratch[i]);
    nbb_free(out);
    nbb_free(dirty);
    if (st != NB_OK) {
        nbb_free(r->payload);
        nbb_free(r->changes);
        memset(r, 0, sizeof *r);
    }
    return st;
}

nb_status nbb_clearance_lie(const nb_bundle *b, const nbi_layer *l, nb_capability cap,
                            const nbb_cv_rebake *r, const char *then, nb_err *err)
{
    char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
    nb_capability_format(b, cap, caps, sizeof caps);
    return nbi_fail(err, NB_ERR_FORMAT,
                    "%s: section %ld (the clearance of {%s}) is not its map's: cell (%u, %u) "
                    "holds %u where the map gives %u (%llu cell%s differ%s)%s",
                    b->path, l->section, caps, r->lie.cell % l->width, r->lie.cell / l->width,
                    r->lie.before, r->lie.after, (unsigned long long)r->lies,
                    r->lies == 1 ? "" : "s", r->lies == 1 ? "s" : "", then);
}

nb_status nbb_clearance_check(const nb_bundle *b, unsigned threads, const char *then,
                              nb_err *err)
{
    nb_capability caps[NB_MAX_AGENTS];
    size_t ncaps = b->agents ? nbi_agents_capabilities(b->agents, caps) : 0;
    nbb_grid g = {b->width, b->height, (uint8_t *)nbi_map_bytes(b)};
    if (b->has_map && !g.cells)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for the map's cells", b->path);
    for (size_t c = 0; b->has_map && c < ncaps; c++) {
        nbi_layer l;
        const void *p;
        size_t len;
        if (nbi_clearance_layer(b, caps[c], &l, NULL) != NB_OK || l.maxval > 255)
            continue; /* no layer to trust (a bake that needs one says so) */
        nb_status st = nb_bundle_payload(b, (size_t)l.section, &p, &len, err);
        if (st != NB_OK)
            return st;
        uint8_t in_cap[256];
        nbb_terrain_mask(&b->legend, caps[c], in_cap);
        nbb_cv_rebake r;
        if ((st = nbb_clearance_rebake(&g, NULL, in_cap, l.maxval, l.bits, threads, p, len, NULL,
                                       0, &r, err)) != NB_OK)
            return st;
        if (r.lies)
            return nbb_clearance_lie(b, &l, caps[c], &r, then, err);
    }
    return NB_OK;
}
