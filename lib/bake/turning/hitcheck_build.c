/* hitcheck_build.c: baking a unit's hit-check table (formats/hitcheck.md).
 *
 * For every start heading of the first quarter, end heading and neighbour,
 * the shortest Dubins curve from the centre of the origin cell to the
 * centre of the neighbour (or, with all, every candidate, shortest first),
 * with the cells a unit of its width touches on the way (origin and
 * destination left out: the search knows those).  A candidate that touches
 * every cell a shorter one touches can never be the first free one, so it
 * is left out.  The other start headings are the same curves turned by
 * quarter turns, which the runtime does.  The window is sized to the cells
 * touched, so none falls outside it. */
#include <stdlib.h>

#include "turning/turning_build.h"
#include "turning/sweep.h"

#define HALF 127 /* cells either side of the origin that the marks can hold */
#define SIDE (2 * HALF + 1)

/* Makes room for need elements of size in *ptr (doubling); 0 when out of
 * memory. */
static int grow(void *ptr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 1;
    size_t n = *cap ? *cap : 256;
    while (n < need)
        n *= 2;
    void *q = realloc(*(void **)ptr, n * size);
    if (!q)
        return 0;
    *(void **)ptr = q;
    *cap = n;
    return 1;
}

struct touched {
    uint8_t *mark; /* SIDE x SIDE, the cells of the current curve */
    int16_t (*cell)[2];
    size_t n, cap;
    int dx, dy;    /* the destination, left out */
    int overflow;
};

static int collect(void *ctx, long x, long y)
{
    struct touched *t = ctx;
    if ((x == 0 && y == 0) || (x == t->dx && y == t->dy))
        return 0;
    if (labs(x) > HALF || labs(y) > HALF) {
        t->overflow = 1;
        return 1;
    }
    uint8_t *m = &t->mark[(size_t)(y + HALF) * SIDE + (size_t)(x + HALF)];
    if (*m)
        return 0;
    if (!grow(&t->cell, &t->cap, t->n + 1, sizeof *t->cell))
        return 2;
    *m = 1;
    t->cell[t->n][0] = (int16_t)x;
    t->cell[t->n][1] = (int16_t)y;
    t->n++;
    return 0;
}

/* One kept curve, its cells in the big cell array. */
struct kept {
    double length;
    uint8_t word, variant;
    size_t first, n;
};

struct table {
    struct kept *curve;
    size_t ncurves, capcurves;
    int16_t (*cell)[2];
    size_t ncells, capcells;
};

static int subset(const struct table *t, const struct kept *k, const uint8_t *mark)
{
    for (size_t i = 0; i < k->n; i++) {
        const int16_t *c = t->cell[k->first + i];
        if (!mark[(size_t)(c[1] + HALF) * SIDE + (size_t)(c[0] + HALF)])
            return 0;
    }
    return 1;
}

static int keep(struct table *t, const nb_curve *c, const struct touched *tc)
{
    if (!grow(&t->curve, &t->capcurves, t->ncurves + 1, sizeof *t->curve) ||
        !grow(&t->cell, &t->capcells, t->ncells + tc->n, sizeof *t->cell))
        return 0;
    struct kept *k = &t->curve[t->ncurves++];
    k->length = c->length;
    k->word = (uint8_t)nbi_word_code(c->word);
    k->variant = (uint8_t)c->variant;
    k->first = t->ncells;
    k->n = tc->n;
    memcpy(t->cell + t->ncells, tc->cell, tc->n * sizeof *tc->cell);
    t->ncells += tc->n;
    return 1;
}

static size_t pad8(size_t n) { return (n + 7) / 8 * 8; }

nb_status nbb_hitcheck_build(const nb_unit *u, unsigned neighbourhood, int all, uint8_t **payload,
                             size_t *len, const nbb_progress_part *progress, nb_err *err)
{
    int off[NBI_MAX_NEIGHBOURS][2];
    unsigned n = nbi_neighbourhood(neighbourhood, off), K = u->headings;
    *payload = NULL;
    *len = 0;
    if (n == 0)
        return nbi_fail(err, NB_ERR_ARG, "neighbourhood %u; expected 8, 24 or 48", neighbourhood);
    nb_status st = nbi_unit_check(u, err);
    if (st != NB_OK)
        return st;
    /* The first quarter of the start headings; the runtime turns them. */
    size_t nstored = (size_t)K / 4 * K * n;
    uint32_t *first = calloc(nstored + 1, sizeof *first);
    struct touched tc = {0};
    struct table t = {0};
    tc.mark = calloc((size_t)SIDE * SIDE, 1);
    if (!first || !tc.mark) {
        st = nbi_fail(err, NB_ERR_NOMEM, "out of memory for the hit-check table");
        goto done;
    }
    int reach = 0; /* the farthest cell touched, in x or y */
    for (unsigned h0 = 0; h0 < K / 4; h0++)
        for (unsigned h1 = 0; h1 < K; h1++) {
            nbb_progress_part_report(progress, (double)(h0 * K + h1) / ((double)(K / 4) * K));
            for (unsigned o = 0; o < n; o++) {
                nb_pose a = {0.5, 0.5, nbi_heading(h0, K)};
                nb_pose b = {0.5 + off[o][0], 0.5 + off[o][1], nbi_heading(h1, K)};
                nb_curve cand[NB_CURVE_MAX_CANDIDATES];
                size_t m = nb_curve_to_pose(&a, &b, u->radius, cand);
                size_t ix = ((size_t)h0 * K + h1) * n + o, before = t.ncurves;
                first[ix] = (uint32_t)t.ncurves;
                if (!all && m > 1)
                    m = 1; /* the shortest alone */
                for (size_t c = 0; c < m; c++) {
                    tc.n = 0;
                    tc.dx = off[o][0];
                    tc.dy = off[o][1];
                    int r = nbi_sweep_cells(cand[c].seg, cand[c].count, u->width, collect, &tc);
                    if (r == NBI_SWEEP_FAR)
                        tc.overflow = 1;
                    if (r == 2 || tc.overflow) {
                        st = r == 2 ? nbi_fail(err, NB_ERR_NOMEM, "out of memory")
                                    : nbi_fail(err, NB_ERR_LIMIT,
                                               "unit '%s': a curve leaves the largest window "
                                               "(%d cells)", u->name, SIDE);
                        for (size_t i = 0; i < tc.n; i++)
                            tc.mark[(size_t)(tc.cell[i][1] + HALF) * SIDE + (size_t)(tc.cell[i][0] + HALF)] = 0;
                        goto done;
                    }
                    int dominated = 0;
                    for (size_t k = before; k < t.ncurves && !dominated; k++)
                        dominated = subset(&t, &t.curve[k], tc.mark);
                    if (!dominated && !keep(&t, &cand[c], &tc)) {
                        st = nbi_fail(err, NB_ERR_NOMEM, "out of memory for the hit-check table");
                        goto done;
                    }
                    for (size_t i = 0; i < tc.n; i++) {
                        int ax = abs(tc.cell[i][0]), ay = abs(tc.cell[i][1]);
                        if (!dominated && (ax > reach || ay > reach))
                            reach = ax > ay ? ax : ay;
                        tc.mark[(size_t)(tc.cell[i][1] + HALF) * SIDE + (size_t)(tc.cell[i][0] + HALF)] = 0;
                    }
                }
            }
        }
    first[nstored] = (uint32_t)t.ncurves;
    /* The window also holds the neighbourhood itself. */
    int ring = neighbourhood == 8 ? 1 : neighbourhood == 24 ? 2 : 3;
    if (reach < ring)
        reach = ring;
    unsigned window = 2 * (unsigned)reach + 1;
    if (window > NBI_HC_MAX_WINDOW) {
        st = nbi_fail(err, NB_ERR_LIMIT, "unit '%s': a %u-cell window is more than %d", u->name,
                      window, NBI_HC_MAX_WINDOW);
        goto done;
    }
    size_t cells = (size_t)window * window, m = t.ncurves;
    size_t offs = pad8(2 * (size_t)n), index = all ? pad8(4 * (nstored + 1)) : 0;
    size_t total = NBI_HC_HEADER + offs + index + 8 * m + pad8(m) + pad8((m * cells + 7) / 8);
    uint8_t *p = calloc(total, 1);
    if (!p) {
        st = nbi_fail(err, NB_ERR_NOMEM, "out of memory for a %zu-byte hit-check table", total);
        goto done;
    }
    nbi_put32(p + NBI_HC_HEADINGS, K);
    nbi_put32(p + NBI_HC_NEIGHBOURHOOD, neighbourhood);
    nbi_put32(p + NBI_HC_WINDOW, window);
    nbi_put32(p + NBI_HC_FLAGS, all ? NBI_HC_ALL : 0);
    nbi_put32(p + NBI_HC_ENTRIES, (uint32_t)nstored);
    nbi_put32(p + NBI_HC_CURVES, (uint32_t)m);
    nbi_putf64(p + NBI_HC_RADIUS, u->radius);
    nbi_putf64(p + NBI_HC_WIDTH, u->width);
    uint8_t *q = p + NBI_HC_HEADER;
    for (unsigned i = 0; i < n; i++) {
        q[2 * i] = (uint8_t)(int8_t)off[i][0];
        q[2 * i + 1] = (uint8_t)(int8_t)off[i][1];
    }
    q += offs;
    for (size_t i = 0; all && i <= nstored; i++)
        nbi_put32(q + 4 * i, first[i]);
    q += index;
    uint8_t *codes = q + 8 * m, *bits = codes + pad8(m);
    for (size_t i = 0; i < m; i++) {
        nbi_putf64(q + 8 * i, t.curve[i].length);
        codes[i] = (uint8_t)(t.curve[i].word | (t.curve[i].variant ? NBI_HC_CODE_VARIANT : 0));
        for (size_t j = 0; j < t.curve[i].n; j++) {
            const int16_t *c = t.cell[t.curve[i].first + j];
            size_t b = i * cells + (size_t)(c[1] + reach) * window + (size_t)(c[0] + reach);
            bits[b / 8] |= (uint8_t)(1u << (b % 8));
        }
    }
    *payload = p;
    *len = total;
done:
    free(first);
    free(tc.mark);
    free(tc.cell);
    free(t.curve);
    free(t.cell);
    return st;
}

nb_status nbb_put_unit(nbb_builder *b, const nb_unit *u, unsigned flags, nbb_unit_stats *stats,
                       nb_err *err)
{
    return nbb_put_unit_progress(b, u, flags, NULL, NULL, stats, err);
}

nb_status nbb_put_unit_progress(nbb_builder *b, const nb_unit *u, unsigned flags,
                                nbb_progress_fn progress, void *arg, nbb_unit_stats *stats,
                                nb_err *err)
{
    /* The hit-check table is nearly all the work; the curve table follows. */
    nbb_progress_part part = {progress, arg, 0, 0.95, NULL};
    uint8_t rec[NBI_UNIT_SIZE], *hc = NULL, *ct = NULL;
    size_t hclen, ctlen;
    nb_status st = nbi_unit_check(u, err);
    if (st != NB_OK)
        return st;
    nbi_unit_encode(u, rec);
    /* A unit's tables made for another neighbourhood go with it. */
    nbb_builder_remove_named(b, NB_SEC_UNIT, u->name);
    nbb_builder_remove_named(b, NB_SEC_HITCHECK, u->name);
    nbb_builder_remove_named(b, NB_SEC_CURVES, u->name);
    nb_section_info in;
    memset(&in, 0, sizeof in);
    snprintf(in.name, sizeof in.name, "%s", u->name);
    in.type = NB_SEC_UNIT;
    in.version = NBI_UNIT_VERSION;
    in.param[0] = u->headings;
    in.param[1] = u->neighbourhood;
    if ((st = nbb_builder_add(b, &in, rec, sizeof rec, 0, err)) ||
        (st = nbb_hitcheck_build(u, u->neighbourhood, (flags & NBB_UNIT_ALL_CURVES) != 0, &hc,
                                 &hclen, &part, err)))
        goto done;
    in.type = NB_SEC_HITCHECK;
    in.version = NBI_HITCHECK_VERSION;
    in.param[0] = u->neighbourhood;
    in.param[1] = nbi_get32(hc + NBI_HC_WINDOW);
    in.param[2] = (flags & NBB_UNIT_ALL_CURVES) != 0;
    if ((st = nbb_builder_add(b, &in, hc, hclen, (flags & NBB_UNIT_ZLIB) != 0, err)) ||
        (st = nbb_curvetab_build(u->radius, NBB_CT_DISTANCE, NBB_CT_STEPS, NBB_CT_ANGLES, &ct,
                                 &ctlen, err)))
        goto done;
    nbb_progress_part_report(&part, 1);
    in.type = NB_SEC_CURVES;
    in.version = NBI_CURVES_VERSION;
    in.param[0] = NBB_CT_DISTANCE;
    in.param[1] = NBB_CT_STEPS;
    in.param[2] = NBB_CT_ANGLES;
    st = nbb_builder_add(b, &in, ct, ctlen, (flags & NBB_UNIT_ZLIB) != 0, err);
    if (stats) {
        stats->curves = nbi_get32(hc + NBI_HC_CURVES);
        stats->window = nbi_get32(hc + NBI_HC_WINDOW);
        stats->hitcheck_bytes = hclen;
        stats->curves_bytes = ctlen;
    }
done:
    free(hc);
    free(ct);
    return st;
}
