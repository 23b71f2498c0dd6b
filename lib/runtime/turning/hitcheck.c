/* hitcheck.c: reading a hit-check table (formats/hitcheck.md): for each
 * start heading, end heading and neighbour, the shortest curve (or every
 * candidate, shortest first), each with its length, its word and the
 * bitset of the cells a unit touches on its way over a window around the
 * origin cell.  Only the first quarter of the start headings is stored;
 * the rest are the same curves turned by quarter turns.  Version 1 (every
 * start heading, every candidate, a record each) is read as it is: a
 * bundle baked by an older navbake keeps working. */
#include <math.h>

#include "turning/turning.h"

static size_t pad8(uint64_t n) { return (size_t)((n + 7) / 8 * 8); }

/* The index of offset (x, y) in the list, or -1. */
static int offset_index(const nbi_hitcheck *h, int x, int y)
{
    for (unsigned i = 0; i < h->neighbourhood; i++)
        if (h->off[i][0] == x && h->off[i][1] == y)
            return (int)i;
    return -1;
}

/* What both versions share: headings, neighbourhood, window, radius and
 * width (read into h by the caller). */
static nb_status check_common(nbi_hitcheck *h, nb_err *err)
{
    if (h->headings != 8 && h->headings != 16)
        return nbi_fail(err, NB_ERR_FORMAT, "%u headings; expected 8 or 16", h->headings);
    unsigned n = nbi_neighbourhood(h->neighbourhood, h->off);
    if (n == 0)
        return nbi_fail(err, NB_ERR_FORMAT, "neighbourhood %u; expected 8, 24 or 48",
                        h->neighbourhood);
    unsigned ring = n == 8 ? 1 : n == 24 ? 2 : 3;
    if (h->window % 2 == 0 || h->window < 2 * ring + 1 || h->window > NBI_HC_MAX_WINDOW)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "window %u: not an odd side from %u (the neighbourhood) to %d", h->window,
                        2 * ring + 1, NBI_HC_MAX_WINDOW);
    if (!(h->radius > 0 && h->radius < 1e6) || !(h->width > 0 && h->width < 1e6))
        return nbi_fail(err, NB_ERR_FORMAT, "radius %g, width %g: not positive", h->radius,
                        h->width);
    return NB_OK;
}

/* The offsets as stored, against the canonical order, and the offset a
 * quarter turn makes of each. */
static nb_status check_offsets(nbi_hitcheck *h, const uint8_t *o, nb_err *err)
{
    unsigned n = h->neighbourhood;
    for (unsigned i = 0; i < n; i++)
        if ((int8_t)o[2 * i] != h->off[i][0] || (int8_t)o[2 * i + 1] != h->off[i][1])
            return nbi_fail(err, NB_ERR_FORMAT, "offset %u is (%d, %d); expected (%d, %d)", i,
                            (int8_t)o[2 * i], (int8_t)o[2 * i + 1], h->off[i][0], h->off[i][1]);
    for (unsigned i = 0; i < n; i++)
        h->turn[i] = (uint8_t)offset_index(h, -h->off[i][1], h->off[i][0]);
    return NB_OK;
}

static nb_status check_reserved(const uint8_t *p, nb_err *err)
{
    for (size_t i = NBI_HC_WIDTH + 8; i < NBI_HC_HEADER; i++)
        if (p[i])
            return nbi_fail(err, NB_ERR_FORMAT, "header byte %zu is %u; expected 0", i, p[i]);
    return NB_OK;
}

/* Version 1: every start heading's entries, a record per curve. */
static nb_status view_v1(const uint8_t *p, size_t len, nbi_hitcheck *h, nb_err *err)
{
    h->headings = nbi_get32(p + NBI_HC_HEADINGS);
    h->neighbourhood = nbi_get32(p + NBI_HC_NEIGHBOURHOOD);
    h->window = nbi_get32(p + NBI_HC_WINDOW);
    uint32_t words = nbi_get32(p + NBI_HC1_WORDS);
    h->ncurves = nbi_get32(p + NBI_HC1_CURVES);
    h->recsize = nbi_get32(p + NBI_HC1_RECSIZE);
    h->radius = nbi_getf64(p + NBI_HC_RADIUS);
    h->width = nbi_getf64(p + NBI_HC_WIDTH);
    h->all = 1;
    nb_status st = check_common(h, err);
    if (st != NB_OK || (st = check_reserved(p, err)) != NB_OK)
        return st;
    uint64_t cells = (uint64_t)h->window * h->window;
    if ((uint64_t)words * 64 < cells || (uint64_t)words * 64 >= cells + 64)
        return nbi_fail(err, NB_ERR_FORMAT, "%u words do not fit a %u x %u window", words,
                        h->window, h->window);
    if (h->recsize != NBI_HC1_RECORD_HEAD + 8 * (size_t)words)
        return nbi_fail(err, NB_ERR_FORMAT, "record size %zu; expected %zu", h->recsize,
                        NBI_HC1_RECORD_HEAD + 8 * (size_t)words);
    unsigned n = h->neighbourhood;
    h->nstored = h->headings * h->headings * n;
    size_t need = NBI_HC_HEADER + pad8(2 * (uint64_t)n) + (size_t)h->nstored * NBI_HC1_INDEX_ENTRY;
    if (len < need || (len - need) / h->recsize < h->ncurves ||
        len != need + (size_t)h->ncurves * h->recsize)
        return nbi_fail(err, NB_ERR_FORMAT, "%zu bytes; %u curves in a %u x %u window need %zu",
                        len, h->ncurves, h->window, h->window,
                        need + (size_t)h->ncurves * h->recsize);
    const uint8_t *o = p + NBI_HC_HEADER;
    if ((st = check_offsets(h, o, err)) != NB_OK)
        return st;
    h->index = o + pad8(2 * (uint64_t)n);
    h->records = h->index + (size_t)h->nstored * NBI_HC1_INDEX_ENTRY;
    for (uint32_t e = 0; e < h->nstored; e++) {
        const uint8_t *x = h->index + (size_t)NBI_HC1_INDEX_ENTRY * e;
        uint32_t first = nbi_get32(x + NBI_HC1_I_FIRST), count = nbi_get32(x + NBI_HC1_I_COUNT);
        if (first > h->ncurves || count > h->ncurves - first || count > NB_CURVE_MAX_CANDIDATES)
            return nbi_fail(err, NB_ERR_FORMAT, "index entry %u: curves %u+%u out of range (%u "
                            "curves, at most %d an entry)", e, first, count, h->ncurves,
                            NB_CURVE_MAX_CANDIDATES);
    }
    for (uint32_t i = 0; i < h->ncurves; i++) {
        const uint8_t *r = nbi_hc1_record(h, i);
        double l = nbi_hc_length(h, i);
        if (!(l >= 0 && l < 1e6) || r[NBI_HC1_R_WORD] >= NBI_NWORDS || r[NBI_HC1_R_VARIANT] > 1 ||
            nbi_get32(r + NBI_HC1_R_ZERO) != 0)
            return nbi_fail(err, NB_ERR_FORMAT, "curve %u: length %g, word %u, variant %u: not a "
                            "curve", i, l, r[NBI_HC1_R_WORD], r[NBI_HC1_R_VARIANT]);
        unsigned count = 0;
        for (unsigned w = 0; w < words; w++) {
            uint64_t v = nbi_get64(r + NBI_HC1_RECORD_HEAD + 8 * w);
            if (w == words - 1 && cells % 64 && (v >> (cells % 64)))
                return nbi_fail(err, NB_ERR_FORMAT, "curve %u: a bit outside the window", i);
            for (; v; v &= v - 1)
                count++;
        }
        if (count != nbi_get16(r + NBI_HC1_R_CELLS))
            return nbi_fail(err, NB_ERR_FORMAT, "curve %u: %u cells marked, the record says %u", i,
                            count, nbi_get16(r + NBI_HC1_R_CELLS));
    }
    return NB_OK;
}

static nb_status check_header(const uint8_t *p, nbi_hitcheck *h, nb_err *err)
{
    h->headings = nbi_get32(p + NBI_HC_HEADINGS);
    h->neighbourhood = nbi_get32(p + NBI_HC_NEIGHBOURHOOD);
    h->window = nbi_get32(p + NBI_HC_WINDOW);
    uint32_t flags = nbi_get32(p + NBI_HC_FLAGS);
    h->all = (flags & NBI_HC_ALL) != 0;
    h->nstored = nbi_get32(p + NBI_HC_ENTRIES);
    h->ncurves = nbi_get32(p + NBI_HC_CURVES);
    h->radius = nbi_getf64(p + NBI_HC_RADIUS);
    h->width = nbi_getf64(p + NBI_HC_WIDTH);
    nb_status st = check_common(h, err);
    if (st != NB_OK)
        return st;
    unsigned n = h->neighbourhood;
    if (flags & ~NBI_HC_ALL)
        return nbi_fail(err, NB_ERR_FORMAT, "unknown flags %#x", flags & ~NBI_HC_ALL);
    uint32_t entries = h->headings / 4 * h->headings * n;
    if (h->nstored != entries)
        return nbi_fail(err, NB_ERR_FORMAT, "%u stored entries; %u headings and %u neighbours "
                        "make %u", h->nstored, h->headings, n, entries);
    if (h->all ? h->ncurves < entries || h->ncurves > (uint64_t)entries * NB_CURVE_MAX_CANDIDATES
               : h->ncurves != entries)
        return nbi_fail(err, NB_ERR_FORMAT, "%u curves for %u entries of %s", h->ncurves, entries,
                        h->all ? "1 to 8 curves" : "one curve");
    return NB_OK;
}

nb_status nbi_hitcheck_view(const uint8_t *p, size_t len, uint32_t version, nbi_hitcheck *h,
                            nb_err *err)
{
    memset(h, 0, sizeof *h);
    h->version = version;
    if (version != 1 && version != NBI_HITCHECK_VERSION)
        return nbi_fail(err, NB_ERR_FORMAT, "version %u; this navbake reads versions 1 and %d",
                        version, NBI_HITCHECK_VERSION);
    if (len < NBI_HC_HEADER)
        return nbi_fail(err, NB_ERR_FORMAT, "%zu bytes: shorter than its header", len);
    if (version == 1)
        return view_v1(p, len, h, err);
    nb_status st = check_header(p, h, err);
    if (st == NB_OK)
        st = check_reserved(p, err);
    if (st != NB_OK)
        return st;
    unsigned n = h->neighbourhood;
    uint64_t m = h->ncurves, cells = (uint64_t)h->window * h->window;
    size_t offs = pad8(2 * (uint64_t)n), index = h->all ? pad8(4 * ((uint64_t)h->nstored + 1)) : 0;
    size_t lengths = 8 * (size_t)m, codes = pad8(m), bits = pad8((m * cells + 7) / 8);
    size_t need = NBI_HC_HEADER + offs + index + lengths + codes + bits;
    if (len != need)
        return nbi_fail(err, NB_ERR_FORMAT, "%zu bytes; %u curves in a %u x %u window need %zu",
                        len, h->ncurves, h->window, h->window, need);
    const uint8_t *o = p + NBI_HC_HEADER;
    if ((st = check_offsets(h, o, err)) != NB_OK)
        return st;
    h->index = h->all ? o + offs : NULL;
    h->lengths = o + offs + index;
    h->codes = h->lengths + lengths;
    h->bits = h->codes + codes;
    for (uint32_t e = 0; h->all && e < h->nstored; e++) {
        uint32_t a = nbi_u32at(h->index, e), b = nbi_u32at(h->index, e + 1);
        if ((e == 0 && a != 0) || b <= a || b - a > NB_CURVE_MAX_CANDIDATES ||
            (e + 1 == h->nstored && b != h->ncurves))
            return nbi_fail(err, NB_ERR_FORMAT, "index entry %u: curves %u to %u out of order or "
                            "range (1 to %d of %u)", e, a, b, NB_CURVE_MAX_CANDIDATES, h->ncurves);
    }
    for (uint32_t i = 0; i < h->ncurves; i++) {
        double l = nbi_hc_length(h, i);
        if (!(l >= 0 && l < 1e6) || h->codes[i] & ~(7u | NBI_HC_CODE_VARIANT) ||
            nbi_hc_word(h, i) >= NBI_NWORDS)
            return nbi_fail(err, NB_ERR_FORMAT, "curve %u: length %g, code %#x: not a curve", i,
                            l, h->codes[i]);
    }
    /* The bits past the last bitset, up to the padding's end, are 0. */
    for (uint64_t b = m * cells; b < 8 * (uint64_t)bits; b++)
        if (h->bits[b / 8] >> (b % 8) & 1)
            return nbi_fail(err, NB_ERR_FORMAT, "bit %llu past the last bitset is set",
                            (unsigned long long)b);
    return NB_OK;
}

unsigned nbi_hc_entry(const nbi_hitcheck *h, unsigned h0, unsigned h1, unsigned o,
                      uint32_t *first, unsigned *quarter)
{
    unsigned K = h->headings, q = K / 4, r = h0 / q, o0 = o;
    /* Back to the stored quarter: r quarter turns the other way (3r forward). */
    for (unsigned k = 0; k < (4 - r) % 4; k++)
        o = h->turn[o];
    size_t e = ((size_t)(h0 % q) * K + (h1 + K - r * q) % K) * h->neighbourhood + o;
    *quarter = r;
    if (h->records) {
        size_t e1 = ((size_t)h0 * K + h1) * h->neighbourhood + o0;
        *quarter = 0;
        const uint8_t *x = h->index + NBI_HC1_INDEX_ENTRY * e1;
        *first = nbi_get32(x + NBI_HC1_I_FIRST);
        return nbi_get32(x + NBI_HC1_I_COUNT);
    }
    if (!h->all) {
        *first = (uint32_t)e;
        return 1;
    }
    *first = nbi_u32at(h->index, e);
    return nbi_u32at(h->index, e + 1) - *first;
}

int nbi_hc_touches(const nbi_hitcheck *h, uint32_t i, unsigned quarter, int dx, int dy)
{
    /* Turn the cell back: a quarter turn the other way takes (x, y) to (y, -x). */
    for (unsigned k = 0; k < quarter % 4; k++) {
        int t = dx;
        dx = dy;
        dy = -t;
    }
    int half = (int)h->window / 2;
    if (dx < -half || dx > half || dy < -half || dy > half)
        return 0;
    return nbi_hc_bit(h, i, (uint64_t)(dy + half) * h->window + (uint64_t)(dx + half));
}
