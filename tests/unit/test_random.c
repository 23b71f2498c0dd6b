/* test_random.c: nb_random_standable and the runs section it draws from.
 *
 *  - The generator is SplitMix64: from state 0 it gives the three values
 *    published with its reference implementation, and it and the bounded
 *    draw equal their brute_place.c rewrites from any state, also for
 *    sizes where half the draws are rejected;
 *  - on random levels of several terrains, for three capabilities and
 *    sizes 1 to 3: the runs list every component exactly: the k-th cell of
 *    component c is the k-th cell in row-major order of the brute-force
 *    component (breadth-first search with eight moves, either corner
 *    rule), for every k, and over the whole map the components follow one
 *    another;
 *  - 10^4 random draws per level (NB_PLACE_QUERIES), from a cell, from a
 *    cell where the agent cannot stand, or from the whole map, give the
 *    cell the brute force picks with the same seed: a standable cell of
 *    the start's component under either corner rule, and the generator's
 *    state advanced the same;
 *  - uniformity: Pearson's chi-square of 20 draws a cell over the largest
 *    component of a level, with a fixed seed, stays below the 1 - 10^-6
 *    quantile of its distribution (Wilson and Hilferty's approximation),
 *    and the same test refuses a draw that picks a run first and then a
 *    cell in it (so it can fail);
 *  - bad queries and missing sections are errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "place/place.h"
#include "placeutil.h"

static void check_generator(void)
{
    uint64_t s = 0;
    uint64_t a = nbi_splitmix64(&s), b = nbi_splitmix64(&s), c = nbi_splitmix64(&s);
    ok(a == 0xe220a8397b1dcdafull && b == 0x6e789e6aa1b965f4ull && c == 0x06c45d188009454full,
       "SplitMix64 from state 0: e220a8397b1dcdaf 6e789e6aa1b965f4 06c45d188009454f, as "
       "published");
    tu_rng r = {77};
    unsigned long bad = 0, badb = 0;
    static const uint64_t sizes[] = {
        1, 2, 3, 7, 1000, 65537, 0x8000000000000001ull, 0xfffffffffffffffful};
    for (int k = 0; k < 1000; k++) {
        uint64_t s1 = tu_rand(&r), s2 = s1;
        bad += nbi_splitmix64(&s1) != brute_splitmix64(&s2) || s1 != s2;
        uint64_t n = k % 2 ? sizes[k % 8] : 1 + tu_rand(&r) % 5000;
        uint64_t v1 = nbi_random_below(&s1, n), v2 = brute_below(&s2, n);
        badb += v1 != v2 || s1 != s2 || v1 >= n;
    }
    ok(bad == 0, "the generator equals its rewrite from 1000 states");
    ok(badb == 0, "the bounded draw too, for sizes up to 2^64 - 1 (rejections included)");
}

/* The cells of a pair's components in the order nb_random_standable
 * documents: component 1's in row-major order, then component 2's... */
typedef struct order {
    uint32_t *cell; /* n cells */
    uint32_t *first; /* ncomp + 2 entries: component c's cells are first[c] .. first[c+1]-1 */
    size_t n;
} order;

static void order_make(const pu_level *L, const pu_pair *P, order *o)
{
    size_t cells = (size_t)L->grid.width * L->grid.height;
    o->first = calloc((size_t)P->ncomp + 2, sizeof *o->first);
    o->cell = malloc((cells ? cells : 1) * sizeof *o->cell);
    for (size_t i = 0; i < cells; i++)
        if (P->strict[i])
            o->first[P->rank[P->strict[i]] + 1]++;
    for (uint32_t c = 1; c <= P->ncomp + 1; c++)
        o->first[c] += o->first[c - 1];
    uint32_t *at = calloc((size_t)P->ncomp + 2, sizeof *at);
    memcpy(at, o->first, ((size_t)P->ncomp + 2) * sizeof *at);
    for (size_t i = 0; i < cells; i++)
        if (P->strict[i])
            o->cell[at[P->rank[P->strict[i]]]++] = (uint32_t)i;
    o->n = o->first[P->ncomp + 1];
    free(at);
}

/* Where component c's cells begin in o->cell (c = ncomp + 1: the end). */
static uint32_t comp_begin(const order *o, uint32_t c) { return o->first[c]; }

static void check_runs(const pu_level *L, const pu_pair *P, const order *o, unsigned long *bad)
{
    const nbi_runs *r = &P->place->runs;
    if (r->n != P->ncomp || r->cells != o->n) {
        (*bad)++;
        return;
    }
    for (uint32_t c = 1; c <= P->ncomp; c++) {
        uint32_t b0 = comp_begin(o, c), b1 = comp_begin(o, c + 1);
        if (nbi_runs_size(r, c) != b1 - b0) {
            (*bad)++;
            continue;
        }
        for (uint32_t k = 0; k < b1 - b0; k++) {
            uint32_t comp;
            if (nbi_runs_cell(r, c, k, &comp) != o->cell[b0 + k] || comp != c)
                (*bad)++;
        }
    }
    for (uint32_t k = 0; k < o->n; k++) {
        uint32_t comp;
        uint32_t i = nbi_runs_cell(r, 0, k, &comp);
        if (i != o->cell[k] || P->rank[P->strict[i]] != comp)
            (*bad)++;
    }
    (void)L;
}

/* Wilson and Hilferty: the 1 - p quantile of chi-square with df degrees
 * of freedom, z the normal quantile (4.753 for p = 10^-6). */
static double chi2_quantile(double df, double z)
{
    double v = 2.0 / (9.0 * df);
    return df * pow(1 - v + z * sqrt(v), 3);
}

static double chi2(const uint32_t *count, size_t k, double expect)
{
    double x = 0;
    for (size_t i = 0; i < k; i++)
        x += (count[i] - expect) * (count[i] - expect) / expect;
    return x;
}

/* How far drawing a run first, then a cell of it, is from uniform over
 * component c: the chi-square's expected excess (its non-centrality) for
 * each draw a cell, k sum over cells (p - 1/k)^2. */
static double run_bias(const pu_pair *P, uint32_t c)
{
    const nbi_runs *r = &P->place->runs;
    uint32_t lo = nbi_u32at(r->first, c - 1), hi = nbi_u32at(r->first, c);
    double k = nbi_runs_size(r, c), runs = hi - lo, sum = 0;
    for (uint32_t j = lo; j < hi; j++) {
        const uint8_t *rec = r->runs + (size_t)j * NBI_RUNS_RECORD;
        uint32_t next =
            j + 1 < r->count ? nbi_get32(rec + NBI_RUNS_RECORD + NBI_RUN_BEFORE) : r->cells;
        double m = next - nbi_get32(rec + NBI_RUN_BEFORE), p = 1 / (runs * m) - 1 / k;
        sum += m * p * p;
    }
    return k * sum;
}

static void check_uniform(const pu_level *L, const pu_pair *P, const order *o, uint32_t c)
{
    uint32_t b0 = comp_begin(o, c), k = comp_begin(o, c + 1) - b0;
    const uint32_t w = L->grid.width;
    uint32_t *count = calloc(k, sizeof *count), *biased = calloc(k, sizeof *biased);
    uint32_t *index = malloc((size_t)L->grid.width * L->grid.height * sizeof *index);
    for (uint32_t j = 0; j < k; j++)
        index[o->cell[b0 + j]] = j;
    nb_cell from = {(int32_t)(o->cell[b0] % w), (int32_t)(o->cell[b0] / w)};
    uint64_t state = 12345, bstate = 12345;
    const nbi_runs *r = &P->place->runs;
    uint32_t lo = nbi_u32at(r->first, c - 1), hi = nbi_u32at(r->first, c);
    unsigned long draws = 20ul * k, errors = 0;
    for (unsigned long d = 0; d < draws; d++) {
        nb_random_result res;
        if (tu_random(P->place, &from, &state, &res, NULL) != NB_OK ||
            res.status != NB_PATH_FOUND) {
            errors++;
            continue;
        }
        count[index[(uint32_t)res.cell.y * w + (uint32_t)res.cell.x]]++;
        /* A run, then a cell of it: not uniform where runs differ. */
        uint32_t j = lo + (uint32_t)brute_below(&bstate, hi - lo);
        const uint8_t *rec = r->runs + (size_t)j * NBI_RUNS_RECORD;
        uint32_t before = nbi_get32(rec + NBI_RUN_BEFORE);
        uint32_t next =
            j + 1 < r->count ? nbi_get32(rec + NBI_RUNS_RECORD + NBI_RUN_BEFORE) : r->cells;
        uint32_t cell =
            nbi_get32(rec + NBI_RUN_START) + (uint32_t)brute_below(&bstate, next - before);
        biased[index[cell]]++;
    }
    double limit = chi2_quantile(k - 1, 4.753), x = chi2(count, k, 20), xb = chi2(biased, k, 20);
    ok(errors == 0 && x < limit,
       "%s: cap %u size %u: %lu draws over a component of %u cells (%u runs): chi-square %.1f "
       "below %.1f, the 1 - 10^-6 quantile for %u degrees of freedom",
       L->name, P->cap, P->size, draws, k, hi - lo, x, limit, k - 1);
    /* The biased draw's chi-square averages k - 1 plus its excess: far
     * above the limit when the excess is. */
    double excess = run_bias(P, c) * (double)draws;
    if (excess > 10 * sqrt(2.0 * (k - 1)))
        ok(xb > limit, "%s: ... and a run drawn first, then a cell of it, fails it: %.1f", L->name,
           xb);
    else
        skip(1, "%s: its runs are too alike for a run-first draw to stand out", L->name);
    free(count);
    free(biased);
    free(index);
}

static void check_level(pu_level *L, tu_rng *r)
{
    const nbb_grid *g = &L->grid;
    order ord[PU_PAIRS];
    unsigned long badruns = 0, bad = 0, errors = 0, drawn = 0, blocked = 0, whole = 0;
    size_t cells = 0;
    const pu_pair *big = NULL;
    uint32_t bigc = 0;
    double bias = -1;
    for (size_t k = 0; k < L->npairs; k++) {
        order_make(L, &L->pair[k], &ord[k]);
        check_runs(L, &L->pair[k], &ord[k], &badruns);
        cells += ord[k].n;
        /* The component of 50 to 4000 cells where a run-first draw is
         * farthest from uniform: the one test that catches it too. */
        for (uint32_t c = 1; c <= L->pair[k].ncomp; c++) {
            uint32_t n = comp_begin(&ord[k], c + 1) - comp_begin(&ord[k], c);
            double b = n >= 50 && n <= 4000 ? run_bias(&L->pair[k], c) * n : -1;
            if (b > bias) {
                big = &L->pair[k];
                bigc = c;
                bias = b;
            }
        }
    }
    ok(badruns == 0,
       "%s: the runs give every cell of every component in row-major order (%zu "
       "cells, 9 pairs)",
       L->name, cells);
    unsigned long nq = pu_queries();
    for (unsigned long q = 0; q < nq; q++) {
        size_t k = tu_below(r, (uint32_t)L->npairs);
        const pu_pair *P = &L->pair[k];
        const order *o = &ord[k];
        nb_cell from = {(int32_t)tu_below(r, g->width), (int32_t)tu_below(r, g->height)};
        int kind = (int)tu_below(r, 4);
        for (int t = 0;
             kind && kind < 3 && t < 30 && !P->stand[(size_t)from.y * g->width + (size_t)from.x];
             t++)
            from = (nb_cell){(int32_t)tu_below(r, g->width), (int32_t)tu_below(r, g->height)};
        const nb_cell *fp = kind == 0 ? NULL : &from;
        uint64_t seed = tu_rand(r), state = seed, bstate = seed;
        nb_random_result res;
        nb_err err;
        if (tu_random(P->place, fp, &state, &res, &err) != NB_OK) {
            if (errors++ < 3)
                diag("%s: %s", L->name, err.msg);
            continue;
        }
        size_t fi = (size_t)from.y * g->width + (size_t)from.x;
        nb_path_status want;
        uint32_t wcell = 0, wcomp = 0, wcells = 0;
        if (fp && !P->stand[fi])
            want = NB_PATH_START_BLOCKED;
        else {
            uint32_t b0 = 0, n = (uint32_t)o->n;
            if (fp) {
                wcomp = P->rank[P->strict[fi]];
                b0 = comp_begin(o, wcomp);
                n = comp_begin(o, wcomp + 1) - b0;
            }
            wcells = n;
            want = n ? NB_PATH_FOUND : NB_PATH_NONE;
            if (n) {
                wcell = o->cell[b0 + brute_below(&bstate, n)];
                if (!fp)
                    wcomp = P->rank[P->strict[wcell]];
            }
        }
        int same = res.status == want;
        if (want == NB_PATH_FOUND) {
            size_t ci = (size_t)res.cell.y * g->width + (size_t)res.cell.x;
            same = same && ci == wcell && res.component == wcomp && res.cells == wcells &&
                   state == bstate && P->stand[ci] &&
                   (!fp || (P->strict[ci] == P->strict[fi] && P->weak[ci] == P->weak[fi]));
            drawn++;
        }
        blocked += want == NB_PATH_START_BLOCKED;
        whole += !fp;
        if (!same && bad++ < 5)
            diag("%s: cap %u size %u from %s (%d, %d) seed %llu: got %s (%d, %d) component %u of "
                 "%llu, brute force %s (%u, %u) component %u of %u",
                 L->name, P->cap, P->size, fp ? "" : "anywhere, not", from.x, from.y,
                 (unsigned long long)seed, nb_path_status_str(res.status), res.cell.x, res.cell.y,
                 res.component, (unsigned long long)res.cells, nb_path_status_str(want),
                 wcell % g->width, wcell / g->width, wcomp, wcells);
    }
    ok(errors == 0, "%s: %lu draws without an error", L->name, nq);
    ok(bad == 0,
       "%s: %lu draws as brute force with the same seed: %lu cells (%lu over the whole "
       "map), %lu from a cell where the agent cannot stand",
       L->name, nq, drawn, whole, blocked);
    if (big && bias >= 0)
        check_uniform(L, big, &ord[big - L->pair], bigc);
    else
        skip(2, "%s: no component of 50 to 4000 cells", L->name);
    for (size_t k = 0; k < L->npairs; k++) {
        free(ord[k].cell);
        free(ord[k].first);
    }
}

/* ---- a runs section that lies (CRCs right, every check at open passed) ---- */

/* rows (w x h characters, '@' a wall) baked with mkclear's sections for the default agent,
 * with runs a and b starting at sa and sb instead; the place on it (NULL on failure). */
static nb_place *lying(const char *rows, uint32_t w, uint32_t h, uint32_t a, uint32_t sa,
                       uint32_t b, uint32_t sb, nb_bundle **bundle)
{
    nbi_legend legend;
    nbi_agentset agents;
    nbi_legend_default(&legend);
    nbb_agents_default(&legend, &agents, NULL);
    nbb_grid g = {w, h, (uint8_t *)rows};
    const char *good = tu_path(tu_tmpdir(), "runs-good.nbk"),
               *bad = tu_path(tu_tmpdir(), "runs-lie.nbk");
    nb_section_info info;
    size_t len;
    uint8_t *p = NULL;
    nb_place *pl = NULL;
    *bundle = NULL;
    if (tu_write_cleared(good, &legend, &agents, &g, 0, NULL) == NB_OK &&
        (p = tu_section_take(good, NB_SEC_RUNS, &len, &info)) != NULL) {
        uint8_t *runs = p + NBI_RUNS_HEADER + 4 * ((size_t)nbi_get32(p + NBI_RUNS_COMPONENTS) + 1);
        nbi_put32(runs + (size_t)a * NBI_RUNS_RECORD + NBI_RUN_START, sa);
        nbi_put32(runs + (size_t)b * NBI_RUNS_RECORD + NBI_RUN_START, sb);
        if (tu_section_put(good, bad, &info, p, len) &&
            nb_bundle_open(bad, NB_OPEN_VERIFY, NULL, bundle, NULL) == NB_OK)
            nb_place_open(*bundle, &pl, NULL);
    }
    free(p);
    return pl;
}

/* 300 draws (from start when given, else anywhere): a cell drawn must be a standable cell of
 * its component (split by a wall in column 3 when there is one); a refusal must be
 * NB_ERR_FORMAT with a message holding want and no cell.  Returns the draws that break this,
 * and the refusals in *refused. */
static unsigned long lying_draws(nb_place *pl, const nb_cell *start, const char *rows, uint32_t w,
                                 const char *want, unsigned long *refused)
{
    unsigned long bad = 0;
    *refused = 0;
    for (uint64_t seed = 0; seed < 300; seed++) {
        nb_random_query q;
        nb_random_result res;
        nb_err err;
        nb_random_query_init(&q);
        q.capability = 3u; /* the default agent's: ground, swamp */
        q.seed = seed;
        q.reachable = start != NULL;
        if (start)
            q.start = *start;
        nb_status st = nb_random_find(pl, &q, &res, &err);
        if (st != NB_OK) {
            *refused += 1;
            if ((st != NB_ERR_FORMAT || !strstr(err.msg, want) || res.status == NB_PATH_FOUND) &&
                bad++ < 3)
                diag("seed %llu: %s, %s", (unsigned long long)seed, nb_status_str(st), err.msg);
            continue;
        }
        size_t i = (size_t)res.cell.y * w + (size_t)res.cell.x;
        uint32_t comp = rows[3] == '@' ? 1 + (res.cell.x > 3) : 1;
        if ((res.status != NB_PATH_FOUND || rows[i] == '@' || res.component != comp) && bad++ < 3)
            diag("seed %llu: %s cell (%d, %d) component %u", (unsigned long long)seed,
                 nb_path_status_str(res.status), res.cell.x, res.cell.y, res.component);
    }
    return bad;
}

/* What the runs give, the layers must allow: a draw that lands on a wall, or on a cell of
 * another component, is an error naming the sections (the layers are read at the cell drawn,
 * nothing more). */
static void lying_runs(void)
{
    /* Runs in order: row 0 (from cell 0), row 1's two (from 8 and 13), row 2.  Run 1 moved
     * from (0, 1) to (2, 1): its 3 cells cover the two walls. */
    static const char walls[] = "........"
                                "...@@..."
                                "........";
    nb_bundle *b;
    unsigned long refused = 0;
    nb_place *pl = lying(walls, 8, 3, 1, 10, 2, 13, &b);
    if (!ok(pl != NULL, "a runs section whose run 1 covers two walls opens (the checks at open "
                        "pass it)")) {
        skip(2, "no bundle");
    } else {
        unsigned long wrong = lying_draws(pl, NULL, walls, 8,
                                          "where the clearance layer (section 3) says an agent "
                                          "of size 1 cannot stand (clearance 0)",
                                          &refused);
        ok(wrong == 0 && refused > 0,
           "  300 draws: never a wall; the %lu that land on one are NB_ERR_FORMAT naming the "
           "sections and the cell", refused);
        nb_random_query q;
        nb_random_result res;
        nb_err err;
        nb_random_query_init(&q);
        q.capability = 3u;
        int done = 0;
        nb_status st = NB_OK;
        for (uint64_t seed = 0; seed < 300 && st == NB_OK; seed++) {
            q.seed = seed;
            st = nb_random_begin(pl, &q, &err);
            if (st == NB_OK)
                st = nb_random_step(pl, 1, &done, &err);
        }
        ok(st == NB_ERR_FORMAT && strstr(err.msg, "section 5 (runs) gives cell (") &&
               nb_random_finish(pl, &res, NULL) == NB_ERR_ARG,
           "  sliced: the step that lands on a wall is the error, and ends the draw (%s)",
           err.msg);
        nb_place_close(pl);
        nb_bundle_close(b);
    }
    /* Two components either side of a wall, runs from cells 0, 7 (the first) and 4, 11 (the
     * second): the middle two swapped, standable cells of the other component. */
    static const char halves[] = "...@..."
                                 "...@...";
    pl = lying(halves, 7, 2, 1, 4, 2, 7, &b);
    if (!ok(pl != NULL, "a runs section that gives component 2's cells to component 1 opens")) {
        skip(2, "no bundle");
        return;
    }
    nb_cell from = {0, 0};
    unsigned long wrong = lying_draws(pl, &from, halves, 7,
                                      "to component 1, which the component layer (section 4) "
                                      "puts in component 2",
                                      &refused);
    ok(wrong == 0 && refused > 0,
       "  300 draws from (0, 0): never a cell of component 2; the %lu that land on one are "
       "NB_ERR_FORMAT naming both sections", refused);
    wrong = lying_draws(pl, NULL, halves, 7, "the runs are not that layer's", &refused);
    ok(wrong == 0 && refused > 0,
       "  300 draws anywhere: the same (%lu refused)", refused);
    nb_place_close(pl);
    nb_bundle_close(b);
}

int main(void)
{
    check_generator();
    pu_each_level(check_level, 20);
    lying_runs();
    return done_testing();
}
