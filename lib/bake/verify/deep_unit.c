/* deep_unit.c: a unit's hit-check and curve tables against the unit
 * section they were made for (formats/hitcheck.md).  Both are baked again
 * as mkhitcheck bakes them, from the unit's radius, width, headings and
 * neighbourhood (whether the hit-check table keeps every candidate, and
 * the curve table's distance, steps and bearings, are the tables' own
 * parameters), and compared entry by entry, curve by curve, cell by
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

/* Stored curve gi of g against ri of r, the j-th of its entry. */
static nb_status compare_curve(nbb_deep *d, const nbi_hitcheck *g, const nbi_hitcheck *r,
                               const char *entry, unsigned j, uint32_t gi, uint32_t ri, nb_err *err)
{
    char curve[160];
    snprintf(curve, sizeof curve, "%s: curve %u (stored curve %u, %s, length %.6g)", entry, j, gi,
             word_name(nbi_hc_word(g, gi)), nbi_hc_length(g, gi));
    if (!nbb_deep_same(nbi_hc_length(g, gi), nbi_hc_length(r, ri)) || g->codes[gi] != r->codes[ri])
        return nbb_deep_fail(d, err, "%s: recomputed %s variant %u, length %.17g", curve,
                             word_name(nbi_hc_word(r, ri)), nbi_hc_variant(r, ri),
                             nbi_hc_length(r, ri));
    int half = (int)g->window / 2;
    for (int y = -half; y <= half; y++)
        for (int x = -half; x <= half; x++) {
            int marked = nbi_hc_touches(g, gi, 0, x, y);
            if (marked != nbi_hc_touches(r, ri, 0, x, y))
                return nbb_deep_fail(d, err, "%s: cell (%d, %d) is %s, but the unit's sweep %s it",
                                     curve, x, y, marked ? "marked" : "not marked",
                                     marked ? "does not touch" : "touches");
        }
    return NB_OK;
}

/* The stored entries (start headings of the first quarter), entry by
 * entry; the others are turned from them by the reader. */
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
    for (unsigned h0 = 0; h0 < K / 4; h0++)
        for (unsigned h1 = 0; h1 < K; h1++)
            for (unsigned o = 0; o < N; o++) {
                uint32_t gf, rf;
                unsigned q, gc = nbi_hc_entry(g, h0, h1, o, &gf, &q);
                unsigned rc = nbi_hc_entry(r, h0, h1, o, &rf, &q);
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
                    return nbb_deep_fail(d, err, "%s: its curves start at stored curve %u, "
                                         "recomputed %u", entry, gf, rf);
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
    uint32_t version = d->b->sections[d->index].info.version;
    nb_status st = unit_and_payload(d, &u, &p, &len, err);
    if (st == NB_OK && (st = nbi_hitcheck_view(p, len, version, &g, err)) != NB_OK)
        st = nbb_deep_prefix(d, st, err);
    if (st == NB_OK &&
        ((st = nbb_hitcheck_build(&u, u.neighbourhood, g.all, &rp, &rlen, err)) != NB_OK ||
         (st = nbi_hitcheck_view(rp, rlen, NBI_HITCHECK_VERSION, &r, err)) != NB_OK))
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
