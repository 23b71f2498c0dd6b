/* brute_place.c: see brute_place.h.  Slow on purpose; nothing here shares
 * code with lib/runtime/place. */
#include <math.h>
#include <stdlib.h>

#include "brute_place.h"

/* ---- nearest ---- */

/* Sign of (a1 + b1 sqrt 2) - (a2 + b2 sqrt 2), exactly. */
static int octile_cmp(long a1, long b1, long a2, long b2)
{
    long p = a1 - a2, q = b1 - b2;
    if (p >= 0 && q >= 0)
        return p || q;
    if (p <= 0 && q <= 0)
        return -(p || q);
    long long p2 = (long long)p * p, q2 = 2LL * q * q;
    if (p > 0) /* q < 0 */
        return p2 > q2 ? 1 : p2 < q2 ? -1 : 0;
    return q2 > p2 ? 1 : q2 < p2 ? -1 : 0;
}

/* a + b sqrt 2 <= r, exactly for r a multiple of 1/2 (or infinite). */
static int within(long a, long b, double r)
{
    if (isinf(r))
        return 1;
    double rest = r - (double)a; /* exact */
    return rest >= 0 && 2.0 * (double)b * (double)b <= rest * rest;
}

nb_path_status brute_nearest(const uint8_t *stand, const uint32_t *label, uint32_t want, uint32_t w,
                             uint32_t h, long px, long py, double radius, long *x, long *y)
{
    long x0 = 0, x1 = (long)w - 1, y0 = 0, y1 = (long)h - 1;
    if (!isinf(radius)) {
        long k = (long)ceil(radius);
        x0 = px - k > 0 ? px - k : 0;
        y0 = py - k > 0 ? py - k : 0;
        x1 = px + k < (long)w - 1 ? px + k : (long)w - 1;
        y1 = py + k < (long)h - 1 ? py + k : (long)h - 1;
    }
    long ba = -1, bb = -1, bx = -1, by = -1;
    int any = 0;
    for (long cy = y0; cy <= y1; cy++)
        for (long cx = x0; cx <= x1; cx++) {
            size_t i = (size_t)cy * w + (size_t)cx;
            if (!stand[i] || (label && label[i] != want))
                continue;
            any = 1;
            long dx = labs(cx - px), dy = labs(cy - py);
            long mx = dx > dy ? dx : dy, mn = dx > dy ? dy : dx;
            long a = mx - mn, b = mn; /* the distance is a + b sqrt 2 */
            if (!within(a, b, radius))
                continue;
            /* Cells come in row-major order: only a nearer one replaces. */
            if (bx < 0 || octile_cmp(a, b, ba, bb) < 0) {
                ba = a;
                bb = b;
                bx = cx;
                by = cy;
            }
        }
    if (bx >= 0) {
        *x = bx;
        *y = by;
        return NB_PATH_FOUND;
    }
    /* None at all only when the square around the point covers the map. */
    long reach = px;
    if ((long)w - 1 - px > reach)
        reach = (long)w - 1 - px;
    if (py > reach)
        reach = py;
    if ((long)h - 1 - py > reach)
        reach = (long)h - 1 - py;
    return !any && radius >= (double)reach ? NB_PATH_NONE : NB_PATH_BEYOND_RADIUS;
}

/* ---- lines ---- */

int brute_frac_cmp(brute_frac a, brute_frac b)
{
    int64_t l = a.num * b.den, r = b.num * a.den;
    return (l > r) - (l < r);
}

static int64_t fdiv(int64_t a, int64_t b) /* floor, b > 0 */
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Liang and Barsky's clipping against one open slab lo < a + t d < hi:
 * narrows (*t0, *t1); 0 when the segment's line misses the slab. */
static int clip(int64_t a, int64_t d, int64_t lo, int64_t hi, brute_frac *t0, brute_frac *t1,
                int *bounded0, int *bounded1)
{
    if (d == 0)
        return lo < a && a < hi;
    brute_frac e = {d > 0 ? lo - a : a - hi, d > 0 ? d : -d}; /* entering */
    brute_frac x = {d > 0 ? hi - a : a - lo, d > 0 ? d : -d}; /* leaving */
    if (!*bounded0 || brute_frac_cmp(e, *t0) > 0)
        *t0 = e;
    if (!*bounded1 || brute_frac_cmp(x, *t1) < 0)
        *t1 = x;
    *bounded0 = *bounded1 = 1;
    return 1;
}

void brute_line_cells(brute_passable_fn passable, const void *ctx, int64_t unit, unsigned size,
                      int64_t ax, int64_t ay, int64_t bx, int64_t by, brute_line *out)
{
    int64_t S = (int64_t)size * unit;
    int64_t xlo = ax < bx ? ax : bx, xhi = (ax < bx ? bx : ax) + S;
    int64_t ylo = ay < by ? ay : by, yhi = (ay < by ? by : ay) + S;
    const brute_frac zero = {0, 1}, one = {1, 1};
    int start = 0, have = 0;
    brute_frac best = one;
    long cbx = -1, cby = -1;
    for (int64_t cy = fdiv(ylo, unit) - 1; cy <= fdiv(yhi, unit) + 1; cy++)
        for (int64_t cx = fdiv(xlo, unit) - 1; cx <= fdiv(xhi, unit) + 1; cx++) {
            if (passable(ctx, (long)cx, (long)cy))
                continue;
            /* Anchors whose open square overlaps the open cell. */
            brute_frac t0 = zero, t1 = one;
            int b0 = 0, b1 = 0;
            if (!clip(ax, bx - ax, cx * unit - S, (cx + 1) * unit, &t0, &t1, &b0, &b1) ||
                !clip(ay, by - ay, cy * unit - S, (cy + 1) * unit, &t0, &t1, &b0, &b1))
                continue;
            if (!b0) /* never moves: overlapped all the time */
                t0 = (brute_frac){-1, 1}, t1 = (brute_frac){2, 1};
            if (brute_frac_cmp(t0, t1) >= 0 || brute_frac_cmp(t0, one) >= 0 ||
                brute_frac_cmp(t1, zero) <= 0)
                continue;
            if (brute_frac_cmp(t0, zero) < 0) { /* overlapped at the start */
                if (!start) {
                    start = 1;
                    cbx = (long)cx;
                    cby = (long)cy;
                }
                continue;
            }
            if (!start && (!have || brute_frac_cmp(t0, best) < 0)) {
                have = 1;
                best = t0;
                cbx = (long)cx;
                cby = (long)cy;
            }
        }
    out->bx = cbx;
    out->by = cby;
    if (start) {
        out->status = NB_PATH_START_BLOCKED;
        out->t = zero;
    } else {
        out->status = have ? NB_PATH_NONE : NB_PATH_FOUND;
        out->t = best;
    }
}

/* The first cell (row-major) the open square at anchor (nx / den, ny /
 * den) overlaps that the agent may not; 0 when none. */
static int overlapped(brute_passable_fn passable, const void *ctx, int64_t unit, int64_t S,
                      int64_t nx, int64_t ny, int64_t den, long *cx, long *cy)
{
    /* Cell c overlaps when c unit - S < n / den < (c + 1) unit. */
    int64_t du = den * unit;
    int64_t x0 = fdiv(nx, du), x1 = fdiv(nx + S * den - 1, du);
    int64_t y0 = fdiv(ny, du), y1 = fdiv(ny + S * den - 1, du);
    for (int64_t y = y0; y <= y1; y++)
        for (int64_t x = x0; x <= x1; x++)
            if (!passable(ctx, (long)x, (long)y)) {
                *cx = (long)x;
                *cy = (long)y;
                return 1;
            }
    return 0;
}

static int cmp_frac(const void *a, const void *b)
{
    return brute_frac_cmp(*(const brute_frac *)a, *(const brute_frac *)b);
}

void brute_line_events(brute_passable_fn passable, const void *ctx, int64_t unit, unsigned size,
                       int64_t ax, int64_t ay, int64_t bx, int64_t by, brute_line *out)
{
    int64_t S = (int64_t)size * unit, dx = bx - ax, dy = by - ay;
    long cx, cy;
    out->bx = out->by = -1;
    if (overlapped(passable, ctx, unit, S, ax, ay, 1, &cx, &cy)) {
        out->status = NB_PATH_START_BLOCKED;
        out->t = (brute_frac){0, 1};
        out->bx = cx;
        out->by = cy;
        return;
    }
    /* The times the anchor's x or y is a whole number of cells. */
    size_t n = 0, cap = 4 + (size_t)(llabs(dx) + llabs(dy)) / (size_t)unit * 2 + 8;
    brute_frac *ev = malloc(cap * sizeof *ev);
    ev[n++] = (brute_frac){0, 1};
    ev[n++] = (brute_frac){1, 1};
    const int64_t a[2] = {ax, ay}, d[2] = {dx, dy};
    for (int k = 0; k < 2; k++) {
        if (d[k] == 0)
            continue;
        int64_t lo = a[k] < a[k] + d[k] ? a[k] : a[k] + d[k], hi = a[k] + d[k] + a[k] - lo;
        for (int64_t m = fdiv(lo, unit); m * unit <= hi; m++) {
            brute_frac t = {d[k] > 0 ? m * unit - a[k] : a[k] - m * unit, d[k] > 0 ? d[k] : -d[k]};
            if (t.num > 0 && t.num < t.den)
                ev[n++] = t;
        }
    }
    qsort(ev, n, sizeof *ev, cmp_frac);
    out->status = NB_PATH_FOUND;
    out->t = (brute_frac){1, 1};
    for (size_t i = 0; i + 1 < n; i++) {
        if (brute_frac_cmp(ev[i], ev[i + 1]) == 0)
            continue;
        /* The middle of (ev[i], ev[i+1]), and the anchor there. */
        int64_t den = 2 * ev[i].den * ev[i + 1].den;
        int64_t num = ev[i].num * ev[i + 1].den + ev[i + 1].num * ev[i].den;
        if (overlapped(passable, ctx, unit, S, ax * den + dx * num, ay * den + dy * num, den, &cx,
                       &cy)) {
            out->status = NB_PATH_NONE;
            out->t = ev[i];
            out->bx = cx;
            out->by = cy;
            break;
        }
    }
    free(ev);
}

/* ---- random cells ---- */

uint64_t brute_splitmix64(uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ull;
    uint64_t z = *state;
    z ^= z >> 30;
    z *= 0xBF58476D1CE4E5B9ull;
    z ^= z >> 27;
    z *= 0x94D049BB133111EBull;
    z ^= z >> 31;
    return z;
}

uint64_t brute_below(uint64_t *state, uint64_t n)
{
    uint64_t skip = (UINT64_MAX - n + 1) % n; /* 2^64 mod n */
    for (;;) {
        uint64_t r = brute_splitmix64(state);
        if (r >= skip)
            return r % n;
    }
}
