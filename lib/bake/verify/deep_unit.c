/* deep_unit.c: a unit's hit-check and curve tables against the unit
 * section they were made for (formats/hitcheck.md).  Both are baked again
 * as mkhitcheck bakes them, from the unit's radius, width, headings and
 * neighbourhood (whether the hit-check table keeps every candidate, and
 * the curve table's distance, steps and bearings, are the tables' own
 * parameters), and compared entry by entry, curve by curve, cell by
 * cell.  A table of version 1 (navbake 0.2: every start heading, every
 * candidate, ties of length in another order) is checked curve by curve
 * against the candidate of the same word and variant, computed and swept
 * again. */
#include <stdlib.h>

#include "turning/sweep.h"
#include "turning/turning_build.h"
#include "verify/deep.h"

/* The unit the section at d->index is named for, and its payload viewed
 * by view (the runtime's structure check). */
static nb_status unit_and_payload(nbb_deep *d, nb_unit *u, const uint8_t **p, size_t *len,
                                  nb_err *err)
{
    const void *data;
    nb_status st = nbi_unit_named(d->b, d->b->sections[d->index].info.name, u, err);
    if (st == NB_OK)
        st = nb_bundle_payload(d->b, d->index, &data, len, err);
    *p = st == NB_OK ? data : NULL;
    return nbb_deep_prefix(d, st, err);
}

static const char *word_name(unsigned code) { return code < NBI_NWORDS ? nbi_words[code] : "?"; }

/* Stored curve gi of g turned gq quarter turns against ri of r turned
 * rq, the j-th of its entry. */
static nb_status compare_curve(nbb_deep *d, const nbi_hitcheck *g, const nbi_hitcheck *r,
                               const char *entry, unsigned j, uint32_t gi, unsigned gq, uint32_t ri,
                               unsigned rq, nb_err *err)
{
    char curve[160];
    snprintf(curve, sizeof curve, "%s: curve %u (stored curve %u, %s, length %.6g)", entry, j, gi,
             word_name(nbi_hc_word(g, gi)), nbi_hc_length(g, gi));
    if (!nbb_deep_same(nbi_hc_length(g, gi), nbi_hc_length(r, ri)) ||
        nbi_hc_word(g, gi) != nbi_hc_word(r, ri) || nbi_hc_variant(g, gi) != nbi_hc_variant(r, ri))
        return nbb_deep_fail(d, err, "%s: recomputed %s variant %u, length %.17g", curve,
                             word_name(nbi_hc_word(r, ri)), nbi_hc_variant(r, ri),
                             nbi_hc_length(r, ri));
    int half = (int)g->window / 2;
    for (int y = -half; y <= half; y++)
        for (int x = -half; x <= half; x++) {
            int marked = nbi_hc_touches(g, gi, gq, x, y);
            if (marked != nbi_hc_touches(r, ri, rq, x, y))
                return nbb_deep_fail(d, err, "%s: cell (%d, %d) is %s, but the unit's sweep %s it",
                                     curve, x, y, marked ? "marked" : "not marked",
                                     marked ? "does not touch" : "touches");
        }
    return NB_OK;
}

/* The stored entries (start headings of the first quarter, or every one
 * in version 1), entry by entry; the others are turned from them by the
 * reader. */
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
    for (unsigned h0 = 0; h0 < nbi_hc_stored_headings(g); h0++)
        for (unsigned h1 = 0; h1 < K; h1++)
            for (unsigned o = 0; o < N; o++) {
                uint32_t gf, rf;
                unsigned gq, rq, gc = nbi_hc_entry(g, h0, h1, o, &gf, &gq);
                unsigned rc = nbi_hc_entry(r, h0, h1, o, &rf, &rq);
                char entry[120];
                snprintf(entry, sizeof entry, "from heading %u to heading %u, neighbour %u (%d, %d)",
                         h0, h1, o, g->off[o][0], g->off[o][1]);
                for (uint32_t j = 0; j < gc && j < rc; j++) {
                    nb_status st = compare_curve(d, g, r, entry, j, gf + j, gq, rf + j, rq, err);
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

struct marks {
    uint8_t *cell; /* window x window */
    int half, dx, dy, outside;
};

static int mark(void *ctx, long x, long y)
{
    struct marks *m = ctx;
    if ((x == 0 && y == 0) || (x == m->dx && y == m->dy))
        return 0;
    if (labs(x) > m->half || labs(y) > m->half) {
        m->outside = 1;
        return 0;
    }
    m->cell[(size_t)(y + m->half) * (2 * (size_t)m->half + 1) + (size_t)(x + m->half)] = 1;
    return 0;
}

/* The cells of candidate c swept, into m; 0 when one is outside the window. */
static int sweep_marks(struct marks *m, const nb_curve *c, double width, unsigned S)
{
    memset(m->cell, 0, (size_t)S * S);
    m->outside = 0;
    nbi_sweep_cells(c->seg, c->count, width, mark, m);
    return !m->outside;
}

static int same_marks(const nbi_hitcheck *g, uint32_t i, const struct marks *m, uint64_t *differ)
{
    uint64_t S2 = (uint64_t)g->window * g->window;
    for (uint64_t bit = 0; bit < S2; bit++)
        if (nbi_hc_bit(g, i, bit) != m->cell[bit]) {
            *differ = bit;
            return 0;
        }
    return 1;
}

/* Stored curve i, the j-th of its entry: the candidate of its word and
 * variant, or (a degenerate curve: an arc or a line of length 0 makes
 * words alike, and the curve code has named them otherwise since) one of
 * the same length; with exactly the cells its sweep touches. */
static nb_status check_v1_curve(nbb_deep *d, const nbi_hitcheck *g, const nb_unit *u,
                                struct marks *m, const char *entry, unsigned j, uint32_t i,
                                unsigned o, const nb_curve *cand, size_t nc, nb_err *err)
{
    unsigned S = g->window;
    double len = nbi_hc_length(g, i);
    size_t c = 0;
    while (c < nc && (nbi_word_code(cand[c].word) != (int)nbi_hc_word(g, i) ||
                      cand[c].variant != nbi_hc_variant(g, i)))
        c++;
    m->dx = g->off[o][0];
    m->dy = g->off[o][1];
    uint64_t bit = 0;
    if (c < nc && nbb_deep_same(len, cand[c].length)) {
        if (!sweep_marks(m, &cand[c], u->width, S))
            return nbb_deep_fail(d, err, "%s: curve %u touches a cell outside the %u x %u window",
                                 entry, j, S, S);
        if (same_marks(g, i, m, &bit))
            return NB_OK;
        return nbb_deep_fail(d, err, "%s: curve %u: cell (%d, %d) is %s, but the unit's sweep %s it",
                             entry, j, (int)(bit % S) - m->half, (int)(bit / S) - m->half,
                             m->cell[bit] ? "not marked" : "marked",
                             m->cell[bit] ? "touches" : "does not touch");
    }
    for (c = 0; c < nc; c++)
        if (nbb_deep_same(len, cand[c].length) && sweep_marks(m, &cand[c], u->width, S) &&
            same_marks(g, i, m, &bit))
            return NB_OK;
    return nbb_deep_fail(d, err, "%s: curve %u (%s variant %u, length %.17g) is not a candidate "
                         "of the move with those cells", entry, j, word_name(nbi_hc_word(g, i)),
                         nbi_hc_variant(g, i), len);
}

/* Version 1: each entry of every start heading holds candidates of its
 * move, the shortest first; each stored curve is the candidate of its word
 * and variant, with its length and exactly the cells its sweep touches. */
static nb_status check_v1(nbb_deep *d, const nbi_hitcheck *g, const nb_unit *u, nb_err *err)
{
    if (g->headings != u->headings || g->neighbourhood != u->neighbourhood)
        return nbb_deep_fail(d, err, "%u headings, neighbourhood %u; the unit has %u and %u",
                             g->headings, g->neighbourhood, u->headings, u->neighbourhood);
    if (g->radius != u->radius || g->width != u->width)
        return nbb_deep_fail(d, err, "made for turning radius %g and width %g; the unit has %g "
                             "and %g", g->radius, g->width, u->radius, u->width);
    unsigned K = g->headings, N = g->neighbourhood, S = g->window;
    struct marks m = {nbb_malloc((size_t)S * S), (int)S / 2, 0, 0, 0};
    if (!m.cell)
        return nbi_fail(err, NB_ERR_NOMEM, "out of memory");
    nb_status st = NB_OK;
    for (unsigned h0 = 0; h0 < K && st == NB_OK; h0++)
        for (unsigned h1 = 0; h1 < K && st == NB_OK; h1++)
            for (unsigned o = 0; o < N && st == NB_OK; o++) {
                uint32_t first;
                unsigned q, count = nbi_hc_entry(g, h0, h1, o, &first, &q);
                nb_pose a = {0.5, 0.5, nbi_heading(h0, K)};
                nb_pose b = {0.5 + g->off[o][0], 0.5 + g->off[o][1], nbi_heading(h1, K)};
                nb_curve cand[NB_CURVE_MAX_CANDIDATES];
                size_t nc = nb_curve_to_pose(&a, &b, u->radius, cand);
                char entry[120];
                snprintf(entry, sizeof entry, "from heading %u to heading %u, neighbour %u (%d, %d)",
                         h0, h1, o, g->off[o][0], g->off[o][1]);
                if ((count == 0) != (nc == 0)) {
                    st = nbb_deep_fail(d, err, "%s: %u curves, recomputed %zu candidates", entry,
                                       count, nc);
                    break;
                }
                if (count && !nbb_deep_same(nbi_hc_length(g, first), cand[0].length)) {
                    st = nbb_deep_fail(d, err, "%s: its first curve has length %.17g, the "
                                       "shortest candidate %.17g", entry,
                                       nbi_hc_length(g, first), cand[0].length);
                    break;
                }
                for (uint32_t j = 0; j < count && st == NB_OK; j++)
                    st = check_v1_curve(d, g, u, &m, entry, j, first + j, o, cand, nc, err);
            }
    nbb_free(m.cell);
    return st;
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
    if (st == NB_OK && g.version == 1)
        return check_v1(d, &g, &u, err);
    if (st == NB_OK &&
        ((st = nbb_hitcheck_build(&u, u.neighbourhood, g.all, &rp, &rlen, NULL, err)) != NB_OK ||
         (st = nbi_hitcheck_view(rp, rlen, NBI_HITCHECK_VERSION, &r, err)) != NB_OK))
        st = nbb_deep_cannot(d, st, err, "from its unit");
    if (st == NB_OK)
        st = compare_hitcheck(d, &g, &r, err);
    if (st == NB_OK)
        st = nbb_deep_bytes(d, p, len, rp, rlen, err);
    nbb_free(rp);
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
    nbb_free(rp);
    return st;
}
