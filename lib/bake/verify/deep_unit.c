/* deep_unit.c: a unit's hit-check and curve tables against the unit
 * section they were made for (formats/hitcheck.md).  Both are baked again
 * as mkhitcheck bakes them, from the unit's radius, width, headings and
 * neighbourhood (the curve table's distance, steps and bearings are its
 * own parameters), and compared entry by entry, curve by curve, cell by
 * cell. */
#include <stdlib.h>

#include "turning/turning_build.h"
#include "verify/deep.h"

/* The unit the section at d->index is named for, and its payload viewed
 * by view (the runtime's structure check). */
static nb_status unit_and_payload(nbb_deep *d, nb_unit *u, const uint8_t **p, size_t *len,
                                  nb_err *err)
{
    const void *data;
    nb_status st = nb_unit_find(d->b, d->b->sections[d->index].info.name, u, err);
    if (st == NB_OK)
        st = nb_bundle_payload(d->b, d->index, &data, len, err);
    *p = st == NB_OK ? data : NULL;
    return nbb_deep_prefix(d, st, err);
}

static const char *word_name(unsigned code) { return code < NBI_NWORDS ? nbi_words[code] : "?"; }

/* Curve record gr of g against rr of r, the j-th of entry (h0, h1, o). */
static nb_status compare_curve(nbb_deep *d, const nbi_hitcheck *g, const nbi_hitcheck *r,
                               const char *entry, unsigned j, uint32_t gr, uint32_t rr, nb_err *err)
{
    const uint8_t *a = g->records + (size_t)gr * g->recsize, *b = r->records + (size_t)rr * r->recsize;
    char curve[160];
    snprintf(curve, sizeof curve, "%s: curve %u (record %u, %s, length %.6g)", entry, j, gr,
             word_name(a[NBI_HC_R_WORD]), nbi_hc_length(g, gr));
    if (!nbb_deep_same(nbi_hc_length(g, gr), nbi_hc_length(r, rr)) ||
        a[NBI_HC_R_WORD] != b[NBI_HC_R_WORD] || a[NBI_HC_R_VARIANT] != b[NBI_HC_R_VARIANT])
        return nbb_deep_fail(d, err, "%s: recomputed %s variant %u, length %.17g", curve,
                             word_name(b[NBI_HC_R_WORD]), b[NBI_HC_R_VARIANT], nbi_hc_length(r, rr));
    int half = (int)(g->window - 1) / 2;
    for (unsigned w = 0; w < g->words; w++) {
        uint64_t x = nbi_get64(a + NBI_HC_RECORD_HEAD + 8 * w) ^ nbi_get64(b + NBI_HC_RECORD_HEAD + 8 * w);
        if (!x)
            continue;
        unsigned bit = 64 * w + (unsigned)nbp_ctz64(x);
        int marked = (nbi_get64(a + NBI_HC_RECORD_HEAD + 8 * w) >> (bit % 64)) & 1;
        return nbb_deep_fail(d, err, "%s: cell (%d, %d) is %s, but the unit's sweep %s it", curve,
                             (int)(bit % g->window) - half, (int)(bit / g->window) - half,
                             marked ? "marked" : "not marked", marked ? "does not touch" : "touches");
    }
    return NB_OK;
}

static nb_status compare_hitcheck(nbb_deep *d, const nbi_hitcheck *g, const nbi_hitcheck *r,
                                  nb_err *err)
{
    if (g->headings != r->headings || g->neighbourhood != r->neighbourhood)
        return nbb_deep_fail(d, err, "%u headings, neighbourhood %u; the unit has %u and %u",
                             g->headings, g->neighbourhood, r->headings, r->neighbourhood);
    if (g->radius != r->radius || g->width != r->width)
        return nbb_deep_fail(d, err, "made for turning radius %g and width %g; the unit has %g "
                             "and %g", g->radius, g->width, r->radius, r->width);
    if (g->window != r->window)
        return nbb_deep_fail(d, err, "window %u, recomputed %u", g->window, r->window);
    unsigned K = g->headings, N = g->neighbourhood;
    for (unsigned h0 = 0; h0 < K; h0++)
        for (unsigned h1 = 0; h1 < K; h1++)
            for (unsigned o = 0; o < N; o++) {
                size_t ix = ((size_t)h0 * K + h1) * N + o;
                const uint8_t *ge = g->index + NBI_HC_INDEX_ENTRY * ix, *re = r->index + NBI_HC_INDEX_ENTRY * ix;
                uint32_t gf = nbi_get32(ge), gc = nbi_get32(ge + 4);
                uint32_t rf = nbi_get32(re), rc = nbi_get32(re + 4);
                char entry[120];
                snprintf(entry, sizeof entry, "from heading %u to heading %u, neighbour %u (%d, %d)",
                         h0, h1, o, g->off[o][0], g->off[o][1]);
                for (uint32_t j = 0; j < gc && j < rc; j++) {
                    nb_status st = compare_curve(d, g, r, entry, j, gf + j, rf + j, err);
                    if (st != NB_OK)
                        return st;
                }
                if (gc != rc)
                    return nbb_deep_fail(d, err, "%s: %u curves, recomputed %u", entry, gc, rc);
                if (gf != rf)
                    return nbb_deep_fail(d, err, "%s: its curves start at record %u, recomputed "
                                         "%u", entry, gf, rf);
            }
    if (g->ncurves != r->ncurves)
        return nbb_deep_fail(d, err, "%u curves, recomputed %u", g->ncurves, r->ncurves);
    return NB_OK;
}

nb_status nbb_deep_hitcheck(nbb_deep *d, nb_err *err)
{
    nb_unit u;
    const uint8_t *p;
    size_t len, rlen = 0;
    nbi_hitcheck g, r;
    uint8_t *rp = NULL;
    nb_status st = unit_and_payload(d, &u, &p, &len, err);
    if (st == NB_OK && (st = nbi_hitcheck_view(p, len, &g, err)) != NB_OK)
        st = nbb_deep_prefix(d, st, err);
    if (st == NB_OK && ((st = nbb_hitcheck_build(&u, u.neighbourhood, &rp, &rlen, NULL, err)) != NB_OK ||
                        (st = nbi_hitcheck_view(rp, rlen, &r, err)) != NB_OK))
        st = nbb_deep_cannot(d, st, err, "from its unit");
    if (st == NB_OK)
        st = compare_hitcheck(d, &g, &r, err);
    if (st == NB_OK)
        st = nbb_deep_bytes(d, p, len, rp, rlen, err);
    free(rp);
    return st;
}

/* Same parameters, so the same shape: entry by entry. */
static nb_status compare_curves(nbb_deep *d, const nbi_curvetab *g, const nbi_curvetab *r,
                                nb_err *err)
{
    size_t rows = (size_t)g->distance * g->steps;
    for (size_t i = 0; i <= rows; i++)
        for (unsigned j = 0; j < g->cols; j++) {
            size_t k = i * g->cols + j;
            unsigned a = nbi_get16(g->rows + 2 * k), b = nbi_get16(r->rows + 2 * k);
            if (a == b)
                continue;
            char where[96];
            if (i < rows)
                snprintf(where, sizeof where, "row %zu (distance %g to %g cells)", i,
                         (double)i / g->steps, (double)(i + 1) / g->steps);
            else
                snprintf(where, sizeof where, "the far row (distance %u cells and more)",
                         g->distance);
            return nbb_deep_fail(d, err, "%s, bearing +-%g degrees: %u, recomputed %u (in 1/%u of "
                                 "a cell)", where, 360.0 * j / g->angles, a, b, g->steps);
        }
    return NB_OK;
}

nb_status nbb_deep_curves(nbb_deep *d, nb_err *err)
{
    nb_unit u;
    const uint8_t *p;
    size_t len, rlen = 0;
    nbi_curvetab g, r;
    uint8_t *rp = NULL;
    nb_status st = unit_and_payload(d, &u, &p, &len, err);
    if (st == NB_OK && (st = nbi_curvetab_view(p, len, &g, err)) != NB_OK)
        st = nbb_deep_prefix(d, st, err);
    if (st == NB_OK && g.radius != u.radius)
        st = nbb_deep_fail(d, err, "made for turning radius %g; the unit has %g", g.radius,
                           u.radius);
    if (st == NB_OK &&
        ((st = nbb_curvetab_build(u.radius, g.distance, g.steps, g.angles, &rp, &rlen, err)) !=
             NB_OK ||
         (st = nbi_curvetab_view(rp, rlen, &r, err)) != NB_OK))
        st = nbb_deep_cannot(d, st, err, "from its unit");
    if (st == NB_OK)
        st = compare_curves(d, &g, &r, err);
    if (st == NB_OK)
        st = nbb_deep_bytes(d, p, len, rp, rlen, err);
    free(rp);
    return st;
}
