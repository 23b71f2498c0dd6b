/* test_hitcheck.c: the hit-check table, the curve heuristic table and the
 * unit sections (lib/hitcheck*.c, lib/curvetable*.c, lib/unit*.c).
 *
 * Each bitset is checked against the swept footprint computed another
 * way: the curve is sampled every 1/500 of a cell with nb_curve_sample and
 * every cell within half the width of a sample is marked.  Each table
 * entry is checked to be a lower bound of the exact curve length at
 * random points. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "turning/turning_build.h"
#include "testutil.h"

static double urand(tu_rng *r) { return (double)(tu_rand(r) >> 11) / 9007199254740992.0; }

static double point_cell(double px, double py, long x, long y)
{
    double dx = fmax(fmax(x - px, px - (x + 1)), 0), dy = fmax(fmax(y - py, py - (y + 1)), 0);
    return hypot(dx, dy);
}

#define SW 40 /* the sampled sweep's window: cells -SW..SW */
#define STEP 0.02 /* cells between samples */
/* Sampling overestimates a distance near w/2 by at most STEP^2 / (4 w). */
#define GRAZE 4e-4
#define TOUCH_EPS 1e-9 /* the library's rule: touched when nearer than w/2 - 1e-9 */

struct box {
    long x0, y0, x1, y1;
};

/* The least distance from the sampled curve to each cell of the window
 * near it (cells farther than w/2 stay infinite), and the box of those. */
static void sampled_sweep(const nb_curve *c, double width, double *dist, struct box *bx)
{
    for (int i = 0; i < (2 * SW + 1) * (2 * SW + 1); i++)
        dist[i] = INFINITY;
    int steps = (int)ceil(c->length / STEP) + 1;
    double reach = width / 2;
    bx->x0 = bx->y0 = SW;
    bx->x1 = bx->y1 = -SW;
    for (int k = 0; k <= steps; k++) {
        nb_pose q;
        nb_curve_sample(c, c->length * k / steps, &q);
        for (long y = (long)floor(q.y - reach); y <= (long)floor(q.y + reach); y++)
            for (long x = (long)floor(q.x - reach); x <= (long)floor(q.x + reach); x++) {
                bx->x0 = x < bx->x0 ? x : bx->x0;
                bx->y0 = y < bx->y0 ? y : bx->y0;
                bx->x1 = x > bx->x1 ? x : bx->x1;
                bx->y1 = y > bx->y1 ? y : bx->y1;
                double d = point_cell(q.x, q.y, x, y);
                double *slot = &dist[(y + SW) * (2 * SW + 1) + (x + SW)];
                if (d < *slot)
                    *slot = d;
            }
    }
}

static int bit(const nbi_hitcheck *h, uint32_t rec, long x, long y)
{
    long half = (long)h->window / 2;
    if (labs(x) > half || labs(y) > half)
        return 0;
    size_t b = (size_t)(y + half) * h->window + (size_t)(x + half);
    const uint8_t *r = h->records + (size_t)rec * h->recsize + NBI_HC_RECORD_HEAD;
    return (int)(nbi_get64(r + 8 * (b / 64)) >> (b % 64) & 1);
}

/* Checks a whole table for one unit against the sampled sweep. */
static void check_table(double radius, double width, unsigned headings, unsigned nb, unsigned h0step)
{
    nb_unit u = {"t", radius, width, headings, nb, 0, 1, 0};
    uint8_t *payload;
    size_t len;
    nb_err err;
    nbi_hitcheck h;
    if (!ok(nbb_hitcheck_build(&u, nb, &payload, &len, NULL, &err) == NB_OK &&
                nbi_hitcheck_view(payload, len, &h, &err) == NB_OK,
            "radius %g width %g, %u headings, Directional-%u: the table builds and reads back",
            radius, width, headings, nb)) {
        diag("%s", err.msg);
        return;
    }
    double *dist = malloc(sizeof *dist * (2 * SW + 1) * (2 * SW + 1));
    double hw = width / 2;
    long mismatches = 0, grazing = 0, outside = 0, order = 0, undominated = 0, lengths = 0;
    size_t stored = 0;
    for (unsigned h0 = 0; h0 < headings; h0 += h0step)
        for (unsigned h1 = 0; h1 < headings; h1++)
            for (unsigned o = 0; o < nb; o++) {
                size_t e = ((size_t)h0 * headings + h1) * nb + o;
                uint32_t first = nbi_get32(h.index + 8 * e), count = nbi_get32(h.index + 8 * e + 4);
                long dx = h.off[o][0], dy = h.off[o][1];
                nb_pose a = {0.5, 0.5, nbi_heading(h0, headings)};
                nb_pose b = {0.5 + dx, 0.5 + dy, nbi_heading(h1, headings)};
                nb_curve cand[NB_CURVE_MAX_CANDIDATES];
                size_t m = nb_curve_to_pose(&a, &b, radius, cand);
                uint32_t next = first;
                for (size_t c = 0; c < m; c++) {
                    struct box bx;
                    sampled_sweep(&cand[c], width, dist, &bx);
                    const uint8_t *rec = h.records + (size_t)next * h.recsize;
                    int is_stored = next < first + count && rec[8] == nbi_word_code(cand[c].word) &&
                                    rec[9] == cand[c].variant;
                    if (!is_stored) {
                        /* Left out: some stored shorter curve touches only
                         * cells this one touches. */
                        int dominated = 0;
                        for (uint32_t k = first; k < next && !dominated; k++) {
                            dominated = 1;
                            for (long y = bx.y0 - 1; y <= bx.y1 + 1 && dominated; y++)
                                for (long x = bx.x0 - 1; x <= bx.x1 + 1; x++)
                                    if (bit(&h, k, x, y) &&
                                        !(dist[(y + SW) * (2 * SW + 1) + (x + SW)] < hw) &&
                                        !((x == 0 && y == 0) || (x == dx && y == dy))) {
                                        dominated = 0;
                                        break;
                                    }
                        }
                        undominated += !dominated;
                        continue;
                    }
                    stored++;
                    if (fabs(nbi_hc_length(&h, next) - cand[c].length) > 1e-12)
                        lengths++;
                    if (next > first && nbi_hc_length(&h, next) < nbi_hc_length(&h, next - 1))
                        order++;
                    long seen = 0;
                    for (long y = bx.y0; y <= bx.y1; y++)
                        for (long x = bx.x0; x <= bx.x1; x++) {
                            if ((x == 0 && y == 0) || (x == dx && y == dy))
                                continue;
                            double d = dist[(y + SW) * (2 * SW + 1) + (x + SW)];
                            int want = d < hw - TOUCH_EPS, got = bit(&h, next, x, y);
                            seen += got;
                            if (want != got) {
                                /* Sampling only ever overestimates. */
                                if (got && d < hw - TOUCH_EPS + GRAZE)
                                    grazing++;
                                else if (mismatches++ < 3)
                                    diag("h0 %u h1 %u (%ld,%ld) %s: cell (%ld,%ld) sampled %g, bit %d",
                                         h0, h1, dx, dy, cand[c].word, x, y, d, got);
                            }
                            if (want && (labs(x) > (long)h.window / 2 || labs(y) > (long)h.window / 2))
                                outside++;
                        }
                    if (seen != nbi_get16(rec + 10) && mismatches++ < 3)
                        diag("a bit set away from the sampled curve");
                    next++;
                }
                if (next != first + count)
                    mismatches++;
            }
    is_int(mismatches, 0, "  every stored bitset equals the sampled sweep of its curve (%zu curves, "
                          "%ld cells grazed within 4e-4 of the width, decided exactly)", stored, grazing);
    is_int(lengths, 0, "  stored lengths are the curves' lengths");
    is_int(order, 0, "  candidates are stored shortest first");
    is_int(undominated, 0, "  a curve is left out only when a shorter stored one touches no other cell");
    is_int(outside, 0, "  no touched cell falls outside the %u x %u window", h.window, h.window);
    free(dist);
    free(payload);
}

int main(void)
{
    tu_rng rng = {0xc0ffee11ULL};
    nb_err err;

    /* Hit-check tables against the sampled sweep, several radii and widths. */
    check_table(2, 1, 8, 8, 1);
    check_table(1, 0.6, 8, 24, 1);
    check_table(3, 1.7, 8, 8, 3);
    check_table(1.5, 1, 16, 8, 5); /* start headings 0, 5, 10, 15 */

    /* Pinter's example: a unit of one cell turning on a circle of about
     * two: an 11 x 11 window would lose cells; ours holds them all. */
    {
        nb_unit u = {"p", 1.0, 1.0, 8, 8, 0, 1, 0};
        uint8_t *pl;
        size_t len;
        nbi_hitcheck h;
        nbb_hitcheck_build(&u, 8, &pl, &len, NULL, &err);
        nbi_hitcheck_view(pl, len, &h, &err);
        ok(h.window % 2 == 1 && h.window >= 3, "radius 1, width 1, Directional-8: a %u x %u window",
           h.window, h.window);
        /* The straight move east facing east touches nothing but its ends. */
        size_t e = (0 * 8 + 0) * 8 + 4; /* h0 east, h1 east, o = 4: (1, 0) */
        uint32_t first = nbi_get32(h.index + 8 * e);
        ok(h.off[4][0] == 1 && h.off[4][1] == 0 && nbi_get16(h.records + (size_t)first * h.recsize + 10) == 0,
           "the straight move to the east neighbour marks no cell");
        free(pl);
    }

    /* The curve heuristic table: a lower bound everywhere, close, small. */
    double radii[] = {0.5, 2, 5};
    for (size_t i = 0; i < sizeof radii / sizeof radii[0]; i++) {
        double r = radii[i];
        uint8_t *pl;
        size_t len;
        nbi_curvetab t;
        if (!ok(nbb_curvetab_build(r, NBB_CT_DISTANCE, NBB_CT_STEPS, NBB_CT_ANGLES, &pl, &len, &err) ==
                        NB_OK &&
                    nbi_curvetab_view(pl, len, &t, &err) == NB_OK,
                "curve table for radius %g builds", r)) {
            diag("%s", err.msg);
            continue;
        }
        long over = 0;
        double gap = 0, worst = 0;
        int n = 30000;
        for (int k = 0; k < n; k++) {
            double rho = k < n / 2 ? 12 * urand(&rng) : 12 + 200 * urand(&rng) * urand(&rng);
            double a = 2 * M_PI * urand(&rng);
            nb_pose from = {100 * urand(&rng), 100 * urand(&rng), 2 * M_PI * urand(&rng)};
            double px = from.x + rho * cos(from.heading + a), py = from.y + rho * sin(from.heading + a);
            double exact = nbi_curve_point_length(r, rho * cos(a), rho * sin(a));
            double h = nbi_curvetab_lookup(&t, &from, px, py);
            if (h > exact + 1e-9) {
                if (over++ < 3)
                    diag("r %g: rho %g bearing %g: table %g > exact %g", r, rho, a, h, exact);
            }
            gap += exact - h;
            if (exact - h > worst && rho < 10)
                worst = exact - h;
        }
        is_int(over, 0, "  radius %g: the table never exceeds the exact length (30000 points; mean "
                        "gap %.3f cells)", r, gap / n);
        ok(len < 20 * 1024 && t.steps >= 64 && t.angles >= 8,
           "  %zu bytes, 1/%u cell and %u bearings: finer and smaller than Pinter's 20 KB of 1/64 "
           "cell and 8 bearings", len, t.steps, t.angles);
        free(pl);
    }

    /* Unit sections in a bundle: several units, each named. */
    const char *dir = tu_tmpdir();
    const char *path = tu_path(dir, "units.nbk");
    nbi_legend legend;
    nbi_legend_default(&legend);
    nb_unit a, b;
    const char *ya = "name: jeep\nradius: 2\nwidth: 1\nneighbourhood: 8\ncapability: [ground, swamp]\n";
    const char *yb = "name: tank\nradius: 1.5\nwidth: 1.4\nheadings: 16\nneighbourhood: 8\n"
                     "reverse: true\nreverse_penalty: 3\n";
    ok(nbb_unit_parse(ya, strlen(ya), "a.yaml", &legend, &a, &err) == NB_OK &&
           nbb_unit_parse(yb, strlen(yb), "b.yaml", &legend, &b, &err) == NB_OK,
       "two unit definitions parse");
    ok(a.capability == 3 && a.headings == 8 && !a.reverse && b.reverse && b.reverse_penalty == 3 &&
           b.headings == 16 && b.capability == 0,
       "with their capability, headings and reverse penalty");
    nbb_builder *bl;
    nbb_builder_new(&bl, &err);
    ok(nbb_put_unit(bl, &a, 0, NULL, &err) == NB_OK && nbb_put_unit(bl, &b, 1, NULL, &err) == NB_OK &&
           nbb_builder_write(bl, path, &err) == NB_OK,
       "both are baked into one bundle (one of them zlib-compressed)");
    nbb_builder_free(bl);
    nb_bundle *bd;
    if (ok(nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &bd, &err) == NB_OK, "the bundle opens and verifies")) {
        nb_unit got;
        nbi_hitcheck h;
        nbi_curvetab t;
        is_int(nb_unit_count(bd), 2, "it holds two units");
        ok(nbi_unit_sections(bd, "tank", &got, &h, &t, &err) == NB_OK && got.radius == 1.5 &&
               got.width == 1.4 && got.reverse_penalty == 3 && h.headings == 16 && t.radius == 1.5,
           "the tank and its tables are found by name");
        ok(nb_unit_find(bd, "jeep", &got, &err) == NB_OK && got.capability == 3, "and the jeep");
        ok(nb_unit_find(bd, "boat", &got, &err) == NB_ERR_NOTFOUND, "an absent unit is not found");
        like(err.msg, "no unit 'boat' (the bundle has jeep, tank)", "naming the ones there");
        nb_bundle_close(bd);
    }

    /* Bad definitions: located errors. */
    struct {
        const char *yaml, *want;
    } bad[] = {
        {"name: x\nradius: 0\nwidth: 1\n", "bad.yaml:2:9: radius (turning radius, cells)"},
        {"name: x\nradius: 2\n", "bad.yaml:1:1: unit 'x': missing key 'width'"},
        {"name: x\nradius: 2\nwidth: 1\nheadings: 12\n", "bad.yaml:4:11: headings must be 8 or 16"},
        {"name: x\nradius: 2\nwidth: 1\nneighbourhood: 9\n", "neighbourhood must be 8, 24 or 48"},
        {"name: x\nradius: 2\nwidth: 1\nspeed: 3\n", "bad.yaml:4:1: unit: unknown key 'speed'"},
        {"name: x\nradius: 2\nwidth: 1\nreverse_penalty: 2\n", "add 'reverse: true'"},
        {"name: x\nradius: 2\nwidth: 1\ncapability: [lava]\n", "unknown terrain 'lava'"},
        {"name: x y\nradius: 2\nwidth: 1\n", "unit name 'x y' must be"},
        {"name: x\nradius: 2\nwidth: 100\n", "bad.yaml:3:8: width (cells)"},
        {"name: x\nradius: [2\n", "bad.yaml:3:1: YAML"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        nb_unit u;
        nb_status st = nbb_unit_parse(bad[i].yaml, strlen(bad[i].yaml), "bad.yaml", &legend, &u, &err);
        ok(st != NB_OK, "bad unit %zu is refused", i + 1);
        like(st != NB_OK ? err.msg : "", bad[i].want, "  with a located message");
    }

    /* Damaged tables are refused when read, not trusted. */
    {
        nb_unit u = {"d", 2, 1, 8, 8, 0, 1, 0};
        uint8_t *pl;
        size_t len;
        nbi_hitcheck h;
        nbb_hitcheck_build(&u, 8, &pl, &len, NULL, &err);
        nbi_put32(pl + 8, 4); /* an even window */
        ok(nbi_hitcheck_view(pl, len, &h, &err) == NB_ERR_FORMAT, "a hit-check table with an even window is refused");
        nbi_put32(pl + 8, 17);
        size_t idx = NBI_HC_HEADER + 16 + 8 * 5;
        nbi_put32(pl + idx, 0xffffff);
        ok(nbi_hitcheck_view(pl, len, &h, &err) == NB_ERR_FORMAT, "an index entry out of range is refused");
        like(err.msg, "out of range", "  saying so");
        ok(nbi_hitcheck_view(pl, len - 1, &h, &err) == NB_ERR_FORMAT, "a truncated table is refused");
        free(pl);
        nbi_curvetab t;
        nbb_curvetab_build(2, 10, 64, 24, &pl, &len, &err);
        ok(nbi_curvetab_view(pl, len - 2, &t, &err) == NB_ERR_FORMAT, "a truncated curve table is refused");
        free(pl);
    }
    return done_testing();
}
