/* sgmono.c: is any octile-shortest walk free between two cells (subgoal.h, nbi_sg_mono)?
 *
 * A query whose ends such a walk joins needs no scan and no search: no path is shorter than
 * the octile distance.  The two walks nbi_sg_walk tries (all diagonal moves first, or all
 * cardinal moves first) miss the walks that weave round an obstacle inside the rectangle the
 * ends span, and those queries paid both ends' scans (a hundred subgoals and more each on open
 * maps) to find the same length.  Every such walk keeps to the parallelogram of i cardinal and
 * j diagonal moves from a (0 <= i <= card, 0 <= j <= diag); its cells after j diagonal moves lie
 * on one line, a word of bits, so a row costs a few word operations after its cells are read. */
#include "subgoal/subgoal.h"

static const int8_t mono_dx[NBI_MOVES] = NBI_MOVE_DX_INIT;
static const int8_t mono_dy[NBI_MOVES] = NBI_MOVE_DY_INIT;

/* The cells of row j, bit i + 1 for i = -1 .. card + 1 (the two outside the parallelogram are
 * the side cells of its edge's diagonal moves); cells off the map read as blocked. */
static uint64_t row_cells(const nbi_sggrid *g, const nbi_sgmono *m, uint32_t j)
{
    int32_t cx = mono_dx[m->c], cy = mono_dy[m->c];
    int32_t x = m->a.x + (int32_t)j * mono_dx[m->d] - cx;
    int32_t y = m->a.y + (int32_t)j * mono_dy[m->d] - cy;
    uint64_t w = 0;
    for (uint32_t b = 0; b < m->card + 3; b++, x += cx, y += cy)
        w |= (uint64_t)nbi_sg_free(g, x, y) << b;
    return w;
}

/* The bits of g that a run of p's bits joins to from below: each bit of g carried up through
 * the set bits of p above it (shifts of 1, 2, 4 .. 32 cover a word). */
static uint64_t fill_up(uint64_t g, uint64_t p)
{
    for (unsigned s = 1; s < 64; s <<= 1) {
        g |= p & (g << s);
        p &= p << s;
    }
    return g;
}

int nbi_sg_mono(const nbi_sggrid *g, nb_cell a, nb_cell b, nbi_sgmono *m)
{
    int32_t dx = b.x - a.x, dy = b.y - a.y;
    uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
    m->diag = ax < ay ? ax : ay;
    m->card = (ax > ay ? ax : ay) - m->diag;
    if (m->diag > NBI_SG_MONO_DIAG || m->card > NBI_SG_MONO_CARD || !nbi_sg_inside(g, a.x, a.y) ||
        !nbi_sg_inside(g, b.x, b.y))
        return 0;
    m->a = a;
    m->d = dx >= 0 ? (dy >= 0 ? NBI_MOVE_SE : NBI_MOVE_NE) : (dy >= 0 ? NBI_MOVE_SW : NBI_MOVE_NW);
    m->c = ax > ay ? (dx > 0 ? NBI_MOVE_E : NBI_MOVE_W) : (dy > 0 ? NBI_MOVE_S : NBI_MOVE_N);
    /* The parallelogram's own cells: bits 1 .. card + 1. */
    const uint64_t inner = ((((uint64_t)1 << (m->card + 1)) - 1) << 1);
    uint64_t cells = row_cells(g, m, 0);
    m->in_diag[0] = 0;
    m->reach[0] = fill_up(cells & 2u, cells & inner);
    for (uint32_t j = 1; j <= m->diag; j++) {
        uint64_t prev = cells;
        cells = row_cells(g, m, j);
        /* The diagonal move into row j at i, from (i, j - 1): its target free, and beside it
         * (i + 1, j - 1) and (i - 1, j), both under the strict rule, one under the weak. */
        uint64_t beside1 = prev >> 1, beside2 = cells << 1;
        uint64_t ok = cells & (g->strict ? beside1 & beside2 : beside1 | beside2);
        m->in_diag[j] = m->reach[j - 1] & ok & inner;
        m->reach[j] = fill_up(m->in_diag[j], cells & inner);
        if (!m->reach[j])
            return 0;
    }
    return (int)((m->reach[m->diag] >> (m->card + 1)) & 1u);
}

size_t nbi_sg_mono_turns(const nbi_sgmono *m, nb_cell *out)
{
    /* Back from b: the same move as the last one where the sweep allows it, so that the walk
     * turns as little as it can; each cell it passes has a predecessor the sweep reached. */
    uint32_t i = m->card, j = m->diag;
    int last = -1; /* 0 cardinal, 1 diagonal, -1 none yet */
    size_t n = 0;
    while (i || j) {
        int by_diag = j && ((m->in_diag[j] >> (i + 1)) & 1u);
        int by_card = i && ((m->reach[j] >> i) & 1u);
        int move = by_diag && (last == 1 || !by_card) ? 1 : 0;
        if (last >= 0 && move != last) {
            out[n].x = m->a.x + (int32_t)i * mono_dx[m->c] + (int32_t)j * mono_dx[m->d];
            out[n].y = m->a.y + (int32_t)i * mono_dy[m->c] + (int32_t)j * mono_dy[m->d];
            n++;
        }
        last = move;
        if (move)
            j--;
        else
            i--;
    }
    for (size_t k = 0; k < n / 2; k++) {
        nb_cell t = out[k];
        out[k] = out[n - 1 - k];
        out[n - 1 - k] = t;
    }
    return n;
}
