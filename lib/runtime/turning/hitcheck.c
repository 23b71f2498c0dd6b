/* hitcheck.c: reading a hit-check table (formats/hitcheck.md): for each
 * start heading, end heading and neighbour, the candidate curves shortest
 * first, each with its length and the bitset of the cells a unit touches
 * on its way over a window around the origin cell. */
#include <math.h>

#include "turning/turning.h"

nb_status nbi_hitcheck_view(const uint8_t *p, size_t len, nbi_hitcheck *h, nb_err *err)
{
    memset(h, 0, sizeof *h);
    if (len < NBI_HC_HEADER)
        return nbi_fail(err, NB_ERR_FORMAT, "%zu bytes: shorter than its header", len);
    h->headings = nbi_get32(p + NBI_HC_HEADINGS);
    h->neighbourhood = nbi_get32(p + NBI_HC_NEIGHBOURHOOD);
    h->window = nbi_get32(p + NBI_HC_WINDOW);
    h->words = nbi_get32(p + NBI_HC_WORDS);
    h->ncurves = nbi_get32(p + NBI_HC_CURVES);
    h->recsize = nbi_get32(p + NBI_HC_RECSIZE);
    h->radius = nbi_getf64(p + NBI_HC_RADIUS);
    h->width = nbi_getf64(p + NBI_HC_WIDTH);
    if (h->headings != 8 && h->headings != 16)
        return nbi_fail(err, NB_ERR_FORMAT, "%u headings; expected 8 or 16", h->headings);
    unsigned n = nbi_neighbourhood(h->neighbourhood, h->off);
    if (n == 0)
        return nbi_fail(err, NB_ERR_FORMAT, "neighbourhood %u; expected 8, 24 or 48",
                        h->neighbourhood);
    if (h->window % 2 == 0 || h->window > NBI_HC_MAX_WINDOW)
        return nbi_fail(err, NB_ERR_FORMAT, "window %u: not an odd side up to %d", h->window,
                        NBI_HC_MAX_WINDOW);
    if ((uint64_t)h->words * 64 < (uint64_t)h->window * h->window ||
        (uint64_t)(h->words - 1) * 64 >= (uint64_t)h->window * h->window)
        return nbi_fail(err, NB_ERR_FORMAT, "%u words do not fit a %u x %u window", h->words,
                        h->window, h->window);
    if (h->recsize != NBI_HC_RECORD_HEAD + 8 * (size_t)h->words)
        return nbi_fail(err, NB_ERR_FORMAT, "record size %zu; expected %zu", h->recsize,
                        NBI_HC_RECORD_HEAD + 8 * (size_t)h->words);
    if (!(h->radius > 0) || !(h->width > 0))
        return nbi_fail(err, NB_ERR_FORMAT, "radius %g, width %g: not positive", h->radius,
                        h->width);
    size_t offs = ((size_t)2 * n + 7) / 8 * 8;
    size_t nindex = (size_t)h->headings * h->headings * n;
    size_t need = NBI_HC_HEADER + offs + nindex * 8;
    if (len < need || (len - need) / h->recsize < h->ncurves ||
        len != need + (size_t)h->ncurves * h->recsize)
        return nbi_fail(err, NB_ERR_FORMAT, "%zu bytes; %u curves need %zu", len, h->ncurves,
                        need + (size_t)h->ncurves * h->recsize);
    const uint8_t *o = p + NBI_HC_HEADER;
    for (unsigned i = 0; i < n; i++)
        if ((int8_t)o[2 * i] != h->off[i][0] || (int8_t)o[2 * i + 1] != h->off[i][1])
            return nbi_fail(err, NB_ERR_FORMAT, "offset %u is (%d, %d); expected (%d, %d)", i,
                            (int8_t)o[2 * i], (int8_t)o[2 * i + 1], h->off[i][0], h->off[i][1]);
    h->index = o + offs;
    h->records = h->index + nindex * 8;
    for (size_t i = 0; i < nindex; i++) {
        uint32_t first = nbi_get32(h->index + NBI_HC_INDEX_ENTRY * i), count = nbi_get32(h->index + NBI_HC_INDEX_ENTRY * i + 4);
        if (first > h->ncurves || count > h->ncurves - first || count > NB_CURVE_MAX_CANDIDATES)
            return nbi_fail(err, NB_ERR_FORMAT, "index entry %zu: curves %u+%u out of range", i,
                            first, count);
    }
    size_t bits = (size_t)h->window * h->window;
    for (uint32_t i = 0; i < h->ncurves; i++) {
        const uint8_t *r = h->records + (size_t)i * h->recsize;
        double l = nbi_hc_length(h, i);
        if (!(l >= 0 && l < 1e6) || r[8] >= NBI_NWORDS || r[9] > 1)
            return nbi_fail(err, NB_ERR_FORMAT, "curve %u: bad length or word", i);
        unsigned count = 0;
        for (unsigned w = 0; w < h->words; w++) {
            uint64_t v = nbi_get64(r + NBI_HC_RECORD_HEAD + 8 * w);
            if (w == h->words - 1 && bits % 64 && (v >> (bits % 64)))
                return nbi_fail(err, NB_ERR_FORMAT, "curve %u: a bit outside the window", i);
            for (; v; v &= v - 1)
                count++;
        }
        if (count != nbi_get16(r + NBI_HC_R_CELLS))
            return nbi_fail(err, NB_ERR_FORMAT, "curve %u: %u cells marked, the record says %u", i,
                            count, nbi_get16(r + NBI_HC_R_CELLS));
    }
    return NB_OK;
}
