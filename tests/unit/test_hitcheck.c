/* test_hitcheck.c: the hit-check table, the curve heuristic table and the
 * unit sections (lib/runtime/turning/hitcheck.c, curvetable.c, unit*.c;
 * lib/bake/turning/hitcheck_build.c).
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

/* Checks a whole table for one unit against the sampled sweep: every
 * entry of the start headings h0step apart, the turned ones too (read
 * through nbi_hc_entry and nbi_hc_touches, as the planner reads them),
 * against the curves computed from scratch in that entry's own
 * orientation. */
static void check_table(double radius, double width, unsigned headings, unsigned nb, unsigned h0step,
                        int all)
{
    nb_unit u = {"t", radius, width, headings, nb, 0, 1, 0};
    uint8_t *payload = NULL;
    size_t len = 0;
    nb_err err;
    nbi_hitcheck h;
    if (!ok(nbb_hitcheck_build(&u, nb, all, &payload, &len, NULL, &err) == NB_OK &&
                nbi_hitcheck_view(payload, len, NBI_HITCHECK_VERSION, &h, &err) == NB_OK,
            "radius %g width %g, %u headings, Directional-%u, %s: the table builds and reads back "
            "(%zu bytes)", radius, width, headings, nb, all ? "every candidate" : "the shortest curve",
            len)) {
        diag("%s", err.msg);
        return;
    }
    double *dist = malloc(sizeof *dist * (2 * SW + 1) * (2 * SW + 1));
    double hw = width / 2;
    long mismatches = 0, grazing = 0, outside = 0, order = 0, undominated = 0, lengths = 0;
    long counts = 0, turned = 0;
    size_t stored = 0;
    for (unsigned h0 = 0; h0 < headings; h0 += h0step)
        for (unsigned h1 = 0; h1 < headings; h1++)
            for (unsigned o = 0; o < nb; o++) {
                uint32_t first;
                unsigned quarter, count = nbi_hc_entry(&h, h0, h1, o, &first, &quarter);
                turned += quarter > 0;
                long dx = h.off[o][0], dy = h.off[o][1];
                nb_pose a = {0.5, 0.5, nbi_heading(h0, headings)};
                nb_pose b = {0.5 + dx, 0.5 + dy, nbi_heading(h1, headings)};
                nb_curve cand[NB_CURVE_MAX_CANDIDATES];
                size_t m = nb_curve_to_pose(&a, &b, radius, cand);
                if (!all && m > 1)
                    m = 1;
                counts += !all && count != 1;
                uint32_t next = first;
                for (size_t c = 0; c < m; c++) {
                    struct box bx;
                    sampled_sweep(&cand[c], width, dist, &bx);
                    int is_stored = next < first + count &&
                                    nbi_hc_word(&h, next) == (unsigned)nbi_word_code(cand[c].word) &&
                                    nbi_hc_variant(&h, next) == cand[c].variant;
                    if (!is_stored) {
                        /* Left out: some stored shorter curve touches only
                         * cells this one touches. */
                        int dominated = 0;
                        for (uint32_t k = first; k < next && !dominated; k++) {
                            dominated = 1;
                            for (long y = bx.y0 - 1; y <= bx.y1 + 1 && dominated; y++)
                                for (long x = bx.x0 - 1; x <= bx.x1 + 1; x++)
                                    if (nbi_hc_touches(&h, k, quarter, (int)x, (int)y) &&
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
                    if (next > first && nbi_hc_length(&h, next) < nbi_hc_length(&h, next - 1) - 1e-9)
                        order++;
                    long seen = 0, marked = 0;
                    for (long y = bx.y0; y <= bx.y1; y++)
                        for (long x = bx.x0; x <= bx.x1; x++) {
                            if ((x == 0 && y == 0) || (x == dx && y == dy))
                                continue;
                            double d = dist[(y + SW) * (2 * SW + 1) + (x + SW)];
                            int want = d < hw - TOUCH_EPS;
                            int got = nbi_hc_touches(&h, next, quarter, (int)x, (int)y);
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
                    int half = (int)h.window / 2;
                    for (int y = -half; y <= half; y++)
                        for (int x = -half; x <= half; x++)
                            marked += nbi_hc_touches(&h, next, quarter, x, y);
                    if (seen != marked && mismatches++ < 3)
                        diag("a bit set away from the sampled curve");
                    next++;
                }
                if (next != first + count)
                    mismatches++;
            }
    is_int(mismatches, 0, "  every bitset, turned to its entry, equals the sampled sweep of its curve "
                          "(%zu curves, %ld of turned entries; %ld cells grazed within 4e-4 of the "
                          "width, decided exactly)", stored, turned, grazing);
    is_int(lengths, 0, "  stored lengths are the curves' lengths");
    is_int(order, 0, "  candidates are stored shortest first");
    if (all)
        is_int(undominated, 0, "  a curve is left out only when a shorter stored one touches no other cell");
    else
        is_int(counts, 0, "  every entry holds exactly one curve, the shortest");
    is_int(outside, 0, "  no touched cell falls outside the %u x %u window", h.window, h.window);
    free(dist);
    free(payload);
}

int main(void)
{
    tu_rng rng = {0xc0ffee11ULL};
    nb_err err;

    /* Hit-check tables against the sampled sweep, several radii and widths. */
    check_table(2, 1, 8, 8, 1, 0);
    check_table(2, 1, 8, 8, 1, 1);
    check_table(2, 1, 8, 24, 1, 0);
    check_table(1, 0.6, 8, 24, 1, 1);
    check_table(3, 1.7, 8, 8, 3, 0);
    check_table(1.5, 1, 16, 8, 5, 1); /* start headings 0, 5, 10, 15 */
    check_table(1.5, 1.5, 16, 48, 5, 0);

    /* The jeep's table for Directional-24 at Pinter's size or below: his
     * 8 x 8 x 24 entries of a 15 x 15 bitset are 43,200 bytes. */
    {
        nb_unit u = {"jeep", 2, 1, 8, 24, 0, 1, 0};
        uint8_t *pl;
        size_t len;
        nbi_hitcheck h;
        if (nbb_hitcheck_build(&u, 24, 0, &pl, &len, NULL, &err) == NB_OK &&
            nbi_hitcheck_view(pl, len, NBI_HITCHECK_VERSION, &h, &err) == NB_OK) {
            ok(h.window == 15 && len <= 43200 + 64 + 48,
               "the jeep's Directional-24 table: a %u x %u window, %zu bytes (Pinter's: 43,200 and "
               "a header)", h.window, h.window, len);
            free(pl);
        }
    }

    /* Pinter's example: a unit of one cell turning on a circle of about
     * two: an 11 x 11 window would lose cells; ours holds them all. */
    {
        nb_unit u = {"p", 1.0, 1.0, 8, 8, 0, 1, 0};
        uint8_t *pl;
        size_t len;
        nbi_hitcheck h;
        nbb_hitcheck_build(&u, 8, 1, &pl, &len, NULL, &err);
        nbi_hitcheck_view(pl, len, NBI_HITCHECK_VERSION, &h, &err);
        ok(h.window % 2 == 1 && h.window >= 3, "radius 1, width 1, Directional-8: a %u x %u window",
           h.window, h.window);
        /* The straight move east facing east touches nothing but its ends,
         * nor does the move south facing south (a turned entry). */
        uint32_t first;
        unsigned quarter, marked = 0;
        nbi_hc_entry(&h, 0, 0, 4, &first, &quarter); /* h0 east, h1 east, o = 4: (1, 0) */
        for (int y = -1; y <= 1; y++)
            for (int x = -1; x <= 1; x++)
                marked += (unsigned)nbi_hc_touches(&h, first, quarter, x, y);
        nbi_hc_entry(&h, 2, 2, 6, &first, &quarter); /* south, south, o = 6: (0, 1) */
        for (int y = -1; y <= 1; y++)
            for (int x = -1; x <= 1; x++)
                marked += (unsigned)nbi_hc_touches(&h, first, quarter, x, y);
        ok(h.off[4][0] == 1 && h.off[4][1] == 0 && h.off[6][0] == 0 && h.off[6][1] == 1 &&
               quarter == 1 && marked == 0,
           "the straight moves to the east and south neighbours mark no cell");
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
    ok(nbb_put_unit(bl, &a, 0, NULL, &err) == NB_OK && nbb_put_unit(bl, &b, NBB_UNIT_ZLIB, NULL, &err) == NB_OK &&
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
        ok(tu_unit(bd, "jeep", &got, &err) == NB_OK && got.capability == 3, "and the jeep");
        ok(tu_unit(bd, "boat", &got, &err) == NB_ERR_NOTFOUND, "an absent unit is not found");
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

    /* Damaged tables are refused when read, not trusted: every count,
     * index and code, and the old layout with its reason. */
    {
        nb_unit u = {"d", 2, 1, 8, 8, 0, 1, 0};
        uint8_t *pl;
        size_t len;
        nbi_hitcheck h;
        nbb_hitcheck_build(&u, 8, 1, &pl, &len, NULL, &err);
        ok(nbi_hitcheck_view(pl, len, NBI_HITCHECK_VERSION, &h, &err) == NB_OK && h.all,
           "an undamaged table of every candidate reads");
        size_t m = h.ncurves, e = h.nstored, S = h.window;
        ok(nbi_hitcheck_view(pl, len, 1, &h, &err) == NB_ERR_FORMAT,
           "a version 2 payload in a section that says version 1 is refused");
        like(err.msg, "words do not fit", "  by the version 1 layout's checks");
        struct {
            size_t at;
            uint32_t value;
            const char *what, *says;
        } lies[] = {
            {NBI_HC_WINDOW, 4, "an even window", "window 4"},
            {NBI_HC_WINDOW, 1, "a window smaller than the neighbourhood", "window 1"},
            {NBI_HC_HEADINGS, 12, "12 headings", "12 headings"},
            {NBI_HC_NEIGHBOURHOOD, 9, "a neighbourhood of 9", "neighbourhood 9"},
            {NBI_HC_FLAGS, 2, "an unknown flag", "unknown flags"},
            {NBI_HC_ENTRIES, 127, "a stored entry count that is not K/4 x K x N", "stored entries"},
            {NBI_HC_CURVES, 0, "no curves", "curves for"},
            {NBI_HC_CURVES, 8 * 128 + 1, "more curves than 8 an entry", "curves for"},
            {NBI_HC_HEADER + 16 + 4 * 5, 0xffffff, "an index entry out of range", "index entry 4"},
            {NBI_HC_HEADER + 16 + 4 * 5, 0, "an index entry going back", "index entry 4"},
            {NBI_HC_HEADER, 0x0101, "a wrong offset", "offset 0"},
            {48, 1, "a reserved header byte", "header byte 48"},
        };
        for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
            uint8_t *q = malloc(len);
            memcpy(q, pl, len);
            if (lies[i].at == NBI_HC_HEADER)
                q[lies[i].at] = 3;
            else
                nbi_put32(q + lies[i].at, lies[i].value);
            ok(nbi_hitcheck_view(q, len, NBI_HITCHECK_VERSION, &h, &err) == NB_ERR_FORMAT,
               "%s is refused", lies[i].what);
            like(err.msg, lies[i].says, "  naming it");
            free(q);
        }
        ok(nbi_hitcheck_view(pl, len - 1, NBI_HITCHECK_VERSION, &h, &err) == NB_ERR_FORMAT,
           "a truncated table is refused");
        uint8_t *lengths = pl + NBI_HC_HEADER + 16 + (4 * (e + 1) + 7) / 8 * 8;
        uint8_t *codes = lengths + 8 * m, *bits = codes + (m + 7) / 8 * 8;
        nbi_putf64(lengths + 8, NAN);
        ok(nbi_hitcheck_view(pl, len, NBI_HITCHECK_VERSION, &h, &err) == NB_ERR_FORMAT,
           "a curve length that is not a number is refused");
        nbi_putf64(lengths + 8, 3);
        codes[2] = 6;
        ok(nbi_hitcheck_view(pl, len, NBI_HITCHECK_VERSION, &h, &err) == NB_ERR_FORMAT,
           "a word past RLR is refused");
        codes[2] = 0x10;
        ok(nbi_hitcheck_view(pl, len, NBI_HITCHECK_VERSION, &h, &err) == NB_ERR_FORMAT,
           "a code with an unknown bit is refused");
        codes[2] = 0;
        size_t used = m * S * S;
        if (used % 64) {
            bits[used / 8] |= (uint8_t)(1u << (used % 8));
            ok(nbi_hitcheck_view(pl, len, NBI_HITCHECK_VERSION, &h, &err) == NB_ERR_FORMAT,
               "a bit past the last bitset is refused");
        }
        free(pl);
        nbi_curvetab t;
        nbb_curvetab_build(2, 10, 64, 24, &pl, &len, &err);
        ok(nbi_curvetab_view(pl, len - 2, &t, &err) == NB_ERR_FORMAT, "a truncated curve table is refused");
        free(pl);
    }
    return done_testing();
}
