/* comp_runs.c: a component layer stored by runs along rows (version 2,
 * formats/clearance.md).  A tile has few components and long runs of one
 * component, so a record per run costs a few bits where version 1 costs
 * its bits on every cell.  The runtime reads it in place: a cell's value
 * is a binary search of its row's runs, O(log runs in the row), with no
 * decompression at open.  What is checked where: the header, the length
 * and first[]'s two ends on every look-up (O(1), nbi_comp_runs_at); each
 * row's runs by nb_bundle_verify (nbi_comp_runs_check).  A look-up clamps
 * its row's range to the records there are, so a damaged first[] gives a
 * wrong value (a value beyond the count reads as 0) but never a read
 * outside the payload. */
#include "clearance/clearance.h"

uint64_t nbi_comp_runs_bytes(uint32_t height, uint32_t xbits, uint32_t bits, uint64_t runs)
{
    return NBI_CRUNS_HEADER + 4 * ((uint64_t)height + 1) + (runs * (xbits + bits) + 7) / 8 +
           NBI_LAYER_TAIL;
}

/* Run k's record: its first x in the low xbits, its component above. */
static inline uint64_t record(const nbi_layer *l, uint64_t k)
{
    uint64_t bit = k * l->rbits;
    return (nbi_load64le(l->bits_at + (bit >> 3)) >> (bit & 7)) & l->rmask;
}

uint32_t nbi_comp_runs_get(const nbi_layer *l, uint64_t i)
{
    uint64_t y = i / l->width, x = i % l->width;
    uint32_t lo = nbi_u32at(l->rows, y), hi = nbi_u32at(l->rows, y + 1);
    if (hi > l->runs)
        hi = l->runs;
    if (lo >= hi || (record(l, lo) & l->xmask) > x)
        return 0; /* no run, or x before the row's first: component 0 */
    /* The last run whose first x is at most x. */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((record(l, mid) & l->xmask) <= x)
            lo = mid;
        else
            hi = mid;
    }
    return (uint32_t)(record(l, lo) >> l->xbits);
}

void nbi_comp_row(const nbi_layer *l, uint32_t y, uint32_t *out)
{
    uint32_t w = l->width, x = 0;
    if (l->rows) {
        /* The row's runs walked in order: when their first x rise (as
         * verify checks), run k holds the cells from its first x to the
         * next's; any other row is read cell by cell, as a look-up would. */
        uint32_t lo = nbi_u32at(l->rows, y), hi = nbi_u32at(l->rows, y + 1);
        if (hi > l->runs)
            hi = l->runs;
        int sorted = 1;
        for (uint32_t k = lo; k + 1 < hi && sorted; k++)
            sorted = (record(l, k) & l->xmask) < (record(l, k + 1) & l->xmask);
        for (uint32_t k = lo; sorted && k < hi && x < w; k++) {
            uint64_t r = record(l, k), first = r & l->xmask;
            uint64_t end = k + 1 < hi ? record(l, k + 1) & l->xmask : w;
            uint32_t v = (uint32_t)(r >> l->xbits);
            v = v <= l->maxval ? v : l->over;
            while (x < first && x < w)
                out[x++] = 0;
            while (x < end && x < w)
                out[x++] = v;
        }
        if (sorted) {
            while (x < w)
                out[x++] = 0;
            return;
        }
    }
    for (x = 0; x < w; x++)
        out[x] = nbi_comp_value(l, (uint64_t)y * w + x);
}

nb_status nbi_comp_runs_at(const nb_bundle *b, size_t idx, const uint8_t *p, uint64_t len,
                           nbi_layer *out, nb_err *err)
{
    /* Its type's name for a refusal, looked up only then: this runs on
     * every look-up (nb_reachable's too). */
#define what nbi_type_name(b, NB_SEC_COMPONENTS)
    if (len < NBI_CRUNS_HEADER)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (%s): %llu bytes, shorter than its header", b->path, idx,
                        what, (unsigned long long)len);
    uint32_t w = nbi_get32(p + NBI_LAYER_WIDTH), h = nbi_get32(p + NBI_LAYER_HEIGHT),
             bits = nbi_get32(p + NBI_LAYER_BITS), maxval = nbi_get32(p + NBI_LAYER_MAXVAL),
             xbits = nbi_get32(p + NBI_CRUNS_XBITS), runs = nbi_get32(p + NBI_CRUNS_COUNT);
    if (xbits != nbi_bits_for(w - 1))
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (%s): %u bits for a run's start, expected %u for %u "
                        "columns",
                        b->path, idx, what, xbits, nbi_bits_for(w - 1), w);
    if (runs > (uint64_t)w * h)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: section %zu (%s): %u runs, more than its %llu cells",
                        b->path, idx, what, runs, (unsigned long long)w * h);
    uint64_t want = nbi_comp_runs_bytes(h, xbits, bits, runs);
    if (len != want)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (%s): %llu bytes, expected %llu for %u rows and %u runs "
                        "of %u bits",
                        b->path, idx, what, (unsigned long long)len, (unsigned long long)want, h,
                        runs, xbits + bits);
    const uint8_t *rows = p + NBI_CRUNS_HEADER;
    if (nbi_u32at(rows, 0) != 0 || nbi_u32at(rows, h) != runs)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (%s): its rows' runs go from %u to %u, expected 0 to %u",
                        b->path, idx, what, nbi_u32at(rows, 0), nbi_u32at(rows, h), runs);
    out->bits_at = rows + 4 * ((uint64_t)h + 1);
    out->rows = rows;
    out->width = w;
    out->height = h;
    out->bits = bits;
    out->maxval = maxval;
    out->mask = ((uint64_t)1 << bits) - 1;
    out->xbits = xbits;
    out->xmask = ((uint64_t)1 << xbits) - 1;
    out->rbits = xbits + bits;
    out->rmask = ((uint64_t)1 << out->rbits) - 1;
    out->runs = runs;
    out->over = 0;
    out->section = (long)idx;
    return NB_OK;
#undef what
}

nb_status nbi_comp_runs_check(const nb_bundle *b, size_t idx, const nbi_layer *l, nb_err *err)
{
    const char *what = nbi_type_name(b, NB_SEC_COMPONENTS);
    for (uint32_t y = 0; y < l->height; y++) {
        uint32_t lo = nbi_u32at(l->rows, y), hi = nbi_u32at(l->rows, y + 1);
        if (hi < lo || hi > l->runs)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: section %zu (%s): row %u's runs %u to %u are not within 0 to %u "
                            "after the row before's",
                            b->path, idx, what, y, lo, hi, l->runs);
        for (uint32_t k = lo; k < hi; k++) {
            uint64_t r = record(l, k), x = r & l->xmask, c = r >> l->xbits;
            uint64_t px = k > lo ? record(l, k - 1) & l->xmask : 0;
            uint64_t pc = k > lo ? record(l, k - 1) >> l->xbits : 0;
            const char *bad = x >= l->width          ? "starts beyond the row"
                              : k > lo && x <= px    ? "does not start after the run before"
                              : c > l->maxval        ? "has a component beyond the count"
                              : c == pc              ? "has the component of the run before"
                                                     : NULL;
            if (bad)
                return nbi_fail(err, NB_ERR_FORMAT,
                                "%s: section %zu (%s): run %u (row %u, x %llu, component %llu) %s",
                                b->path, idx, what, k, y, (unsigned long long)x,
                                (unsigned long long)c, bad);
        }
    }
    return NB_OK;
}
