/* opt_pack.c: a tile's clique of portal distances packed row by row as
 * their excess over the octile distance (opt_world.h says why the portals
 * cannot be fewer and why this is what shrinks).
 *
 * A row is portal i's distances to every other portal j (j != i, in
 * order), each a count of cardinal and diagonal steps; stored as the
 * excess (ea, eb) over the octile steps between the two cells, which is
 * (0, 0) wherever a straight or diagonal line joins them in the tile.
 * Tokens, a header byte each (kind in the top 2 bits, count - 1 below):
 *   SAME  count pairs whose excess is the previous one's (a row starts
 *         at (0, 0)),
 *   NONE  count pairs not joined inside the tile (the previous kept),
 *   NEAR  count bytes, each the change from the previous excess
 *         ((dea + 8) << 4 | (deb + 8), each in -8..7),
 *   FAR   count pairs, each ea and eb as zigzag LEB128 varints.
 * Neighbouring portals lie one step apart, so their distances to i differ
 * little: a maze's rows are mostly NEAR bytes, an open tile's SAME runs.
 * The encoder takes the first kind that fits a pair, in that order, so
 * the bytes depend on the distances only. */
#include <string.h>

#include "core/grid.h"
#include "stream/opt_world.h"

enum { K_SAME = 0, K_NONE = 1, K_NEAR = 2, K_FAR = 3, RUN_MAX = 64 };

/* The octile steps between two cells: cardinal, diagonal. */
static void octile_steps(nb_cell a, nb_cell b, int64_t *card, int64_t *diag)
{
    int64_t dx = a.x > b.x ? (int64_t)a.x - b.x : (int64_t)b.x - a.x;
    int64_t dy = a.y > b.y ? (int64_t)a.y - b.y : (int64_t)b.y - a.y;
    *diag = dx < dy ? dx : dy;
    *card = (dx > dy ? dx : dy) - *diag;
}

typedef struct pair_code {
    int kind;
    int64_t ea, eb;
} pair_code;

static pair_code classify(const nbi_optb *b, uint32_t i, uint32_t j, int64_t pa, int64_t pb)
{
    pair_code c = {K_NONE, pa, pb};
    size_t k = (size_t)i * b->n + j;
    if (b->dist[k] < 0)
        return c;
    int64_t oc, od;
    octile_steps(b->cell[i], b->cell[j], &oc, &od);
    c.eb = (int64_t)b->diag[k] - od;
    c.ea = (int64_t)b->card[k] - oc;
    int64_t da = c.ea - pa, db = c.eb - pb;
    c.kind = !da && !db ? K_SAME : da >= -8 && da < 8 && db >= -8 && db < 8 ? K_NEAR : K_FAR;
    return c;
}

static size_t put_varint(uint8_t *out, int64_t v)
{
    uint64_t z = v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 : (uint64_t)v << 1;
    size_t n = 0;
    do {
        uint8_t byte = z & 0x7f;
        z >>= 7;
        if (out)
            out[n] = byte | (z ? 0x80 : 0);
        n++;
    } while (z);
    return n;
}

/* Packs row i into out (NULL: counts); returns its bytes. */
static size_t pack_row(const nbi_optb *b, uint32_t i, uint8_t *out)
{
    size_t at = 0;
    int64_t pa = 0, pb = 0;
    uint32_t j = i == 0 ? 1 : 0;
    while (j < b->n) {
        pair_code first = classify(b, i, j, pa, pb);
        size_t head = at++;
        unsigned count = 0;
        while (j < b->n && count < RUN_MAX) {
            pair_code c = classify(b, i, j, pa, pb);
            if (c.kind != first.kind)
                break;
            if (c.kind == K_NEAR && out)
                out[at] = (uint8_t)(((c.ea - pa + 8) << 4) | (c.eb - pb + 8));
            at += c.kind == K_NEAR;
            if (c.kind == K_FAR) {
                at += put_varint(out ? out + at : NULL, c.ea);
                at += put_varint(out ? out + at : NULL, c.eb);
            }
            pa = c.ea, pb = c.eb;
            count++;
            j += 1 + (j + 1 == i);
        }
        if (out)
            out[head] = (uint8_t)(first.kind << 6 | (count - 1));
    }
    return at;
}

nb_status nbi_optb_pack(nbi_optb *b, nb_err *err)
{
    nbi_free(b->a, b->row);
    nbi_free(b->a, b->packed);
    b->row = nbi_alloc_array(b->a, (size_t)b->n + 1, sizeof *b->row);
    size_t total = 0;
    for (uint32_t i = 0; b->row && i < b->n; i++) {
        b->row[i] = (uint32_t)total;
        total += pack_row(b, i, NULL);
        if (total > UINT32_MAX)
            return nbi_fail(err, NB_ERR_LIMIT, "a tile's packed border distances: %zu bytes, "
                                               "above 4 GiB", total);
    }
    b->packed = nbi_alloc_array(b->a, total ? total : 1, 1);
    if (!b->row || !b->packed)
        return nbi_fail_nomem(err, "a tile's packed border distances");
    b->row[b->n] = (uint32_t)total;
    for (uint32_t i = 0; i < b->n; i++)
        pack_row(b, i, b->packed + b->row[i]);
    b->packed_len = total;
    return NB_OK;
}

static int get_varint(const uint8_t *p, const uint8_t *end, const uint8_t **next, int64_t *v)
{
    uint64_t z = 0;
    for (unsigned shift = 0; p < end && shift < 64; shift += 7) {
        uint8_t byte = *p++;
        z |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *next = p;
            *v = z & 1 ? -(int64_t)(z >> 1) - 1 : (int64_t)(z >> 1);
            return 1;
        }
    }
    return 0;
}

int nbi_optb_unpack_row(const uint8_t *p, size_t len, const nb_cell *cell, uint32_t n, uint32_t i,
                        double *out)
{
    const uint8_t *end = p + len;
    int64_t pa = 0, pb = 0;
    uint32_t j = i == 0 ? 1 : 0;
    if (out)
        out[i] = 0;
    while (j < n) {
        if (p >= end)
            return 0; /* the row ends before its last pair */
        unsigned kind = *p >> 6, count = (*p & 63u) + 1;
        p++;
        for (; count; count--) {
            if (j >= n)
                return 0; /* a run past the row's last pair */
            if (kind == K_NONE) {
                if (out)
                    out[j] = -1;
            } else {
                if (kind == K_NEAR) {
                    if (p >= end)
                        return 0;
                    pa += (*p >> 4) - 8;
                    pb += (*p & 15) - 8;
                    p++;
                } else if (kind == K_FAR &&
                           (!get_varint(p, end, &p, &pa) || !get_varint(p, end, &p, &pb))) {
                    return 0;
                }
                int64_t oc, od;
                octile_steps(cell[i], cell[j], &oc, &od);
                if (oc + pa < 0 || od + pb < 0)
                    return 0; /* fewer than no steps */
                if (out)
                    out[j] = nbi_steps_length((uint64_t)(oc + pa), (uint64_t)(od + pb));
            }
            j += 1 + (j + 1 == i);
        }
    }
    return p == end;
}
