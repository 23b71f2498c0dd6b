/* test_comp_runs.c: component layers stored by runs along rows (version
 * 2, formats/clearance.md), as a world's tile action writes them.  Every
 * cell of several maps reads the same component from the runs as from the
 * packed layer and as a flood of the map numbers it, for every
 * (capability, size) of an agent set with several; crafted sections are
 * refused naming what is wrong, those a look-up checks at once and those
 * nb_bundle_verify finds in the runs; a damaged row index never reads
 * outside the section. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brute.h"
#include "testutil.h"

static const char *dir;

/* path's bundle with its component layers stored by runs, written to out. */
static int write_runs(const char *path, const char *out)
{
    nbb_builder *w;
    nb_err err;
    remove(out);
    int r = nbb_builder_new(&w, &err) == NB_OK && nbb_builder_load(w, path, 0, &err) == NB_OK &&
            nbb_builder_comp_runs(w, 1, &err) == NB_OK && nbb_builder_write(w, out, &err) == NB_OK;
    if (!r)
        diag("cannot write %s: %s", out, err.msg);
    nbb_builder_free(w);
    return r;
}

/* One level: baked packed, then by runs; every cell's component from both
 * equal to the flood's, for every (capability, size); reachability of
 * random pairs as the flood says; the runs smaller. */
static void check_level(const char *name, const nbi_legend *lg, const nbi_agentset *agents,
                        const nbb_grid *g, tu_rng *r)
{
    const char *packed = tu_path(dir, "packed.nbb"), *runs = tu_path(dir, "runs.nbb");
    nb_bundle *b1 = NULL, *b2 = NULL;
    nb_err err;
    if (!ok(tu_write_cleared(packed, lg, agents, g, 0, &err) == NB_OK && write_runs(packed, runs) &&
                nb_bundle_open(packed, NB_OPEN_VERIFY, NULL, &b1, &err) == NB_OK &&
                nb_bundle_open(runs, NB_OPEN_VERIFY, NULL, &b2, &err) == NB_OK,
            "%s: packed and by runs (%s)", name, b2 ? "" : err.msg)) {
        nb_bundle_close(b1);
        return;
    }
    size_t n = (size_t)g->width * g->height, layers = 0, wrong = 0, pairs = 0, bad_pairs = 0,
           row_wrong = 0;
    uint64_t bytes1 = 0, bytes2 = 0;
    uint32_t *label = malloc(n * sizeof *label);
    for (size_t i = 0; i < nb_bundle_section_count(b2); i++) {
        const nb_section_info *in = nb_bundle_section_get(b2, i);
        if (in->type != NB_SEC_COMPONENTS)
            continue;
        layers++;
        wrong += in->version != 2;
        bytes2 += in->usize;
        nb_capability cap = in->param[0];
        uint32_t size = in->param[1];
        brute_components_numbered(lg, g, cap, size, label); /* a flood, without the bake's code */
        for (uint32_t y = 0; y < g->height; y++)
            for (uint32_t x = 0; x < g->width; x++) {
                long want = label[(size_t)y * g->width + x];
                wrong += nb_component(b2, cap, size, x, y) != want ||
                         nb_component(b1, cap, size, x, y) != want;
            }
        /* A row at a time (nbi_comp_row, as the tile action reads a layer
         * it updates), both forms, against the flood. */
        nbi_layer l1, l2;
        uint32_t *row = malloc(((size_t)g->width + 1) * sizeof *row);
        if (nbi_components_layer(b1, cap, size, &l1, &err) != NB_OK ||
            nbi_components_layer(b2, cap, size, &l2, &err) != NB_OK)
            row_wrong++;
        else
            for (uint32_t y = 0; y < g->height; y++)
                for (int f = 0; f < 2; f++) {
                    nbi_comp_row(f ? &l2 : &l1, y, row);
                    for (uint32_t x = 0; x < g->width; x++)
                        row_wrong += row[x] != label[(size_t)y * g->width + x];
                }
        free(row);
        for (int k = 0; k < 2000; k++, pairs++) {
            nb_cell f = {(int32_t)tu_below(r, g->width), (int32_t)tu_below(r, g->height)},
                    t = {(int32_t)tu_below(r, g->width), (int32_t)tu_below(r, g->height)};
            if (k & 1) /* half the pairs in one row, where runs lie side by side */
                t.y = f.y;
            uint32_t lf = label[(size_t)f.y * g->width + (size_t)f.x],
                     lt = label[(size_t)t.y * g->width + (size_t)t.x];
            bad_pairs += nb_reachable(b2, cap, size, f, t) != (lf && lf == lt);
        }
    }
    for (size_t i = 0; i < nb_bundle_section_count(b1); i++)
        if (nb_bundle_section_get(b1, i)->type == NB_SEC_COMPONENTS)
            bytes1 += nb_bundle_section_get(b1, i)->usize;
    size_t ncaps = 0, nsizes = 0;
    for (size_t a = 0; a < agents->count; a++) {
        int newcap = 1, newsize = 1;
        for (size_t k = 0; k < a; k++) {
            newcap &= agents->agent[k].capability != agents->agent[a].capability;
            newsize &= agents->agent[k].size != agents->agent[a].size;
        }
        ncaps += newcap, nsizes += newsize;
    }
    ok(layers == ncaps * nsizes, "%s: %zu component layers by runs, one a (capability, size)",
       name, layers);
    ok(wrong == 0, "%s: every cell of %zu layers: the runs' component = the packed layer's = the "
                   "flood's (%zu wrong)",
       name, layers, wrong);
    ok(bad_pairs == 0, "%s: reachability of %zu pairs from the runs as the flood says (%zu wrong)",
       name, pairs, bad_pairs);
    ok(row_wrong == 0, "%s: every row read at once, by runs and packed, as the flood says (%zu "
                       "wrong)",
       name, row_wrong);
    if (g->width >= 64 && g->height >= 40 && lg->code['.'] == 0) /* not the random thin ones */
        ok(bytes2 < bytes1, "%s: %llu bytes by runs against %llu packed", name,
           (unsigned long long)bytes2, (unsigned long long)bytes1);
    free(label);
    nb_bundle_close(b1);
    nb_bundle_close(b2);
}

/* The sample agents (4 capabilities, sizes 1 to 3) on the sample map,
 * three maps of ../shared and random maps, thin and empty ones too. */
static void test_same_answers(void)
{
    nbi_legend lg;
    static nbi_agentset agents;
    nbb_grid g;
    tu_rng r = {7};
    tu_read_sample(&lg, &agents, &g);
    check_level("sample", &lg, &agents, &g, &r);
    nbb_grid_free(&g);
    const char *maps[] = {"maps/dao/brc202d.map", "maps/mazes/maze512-4-0.map",
                          "maps/bg/AR0042SR.map"};
    for (size_t m = 0; m < sizeof maps / sizeof *maps; m++) {
        const char *path = tu_shared(maps[m]);
        nb_err err;
        if (!path) {
            skip(1, "%s: ../shared is not there", maps[m]);
            continue;
        }
        if (!ok(nbb_map_read(path, &lg, 1, &g, &err) == NB_OK, "%s read", maps[m]))
            continue;
        check_level(maps[m], &lg, &agents, &g, &r);
        nbb_grid_free(&g);
    }
    const struct { uint32_t w, h, pct; } rnd[] = {{97, 61, 30}, {200, 3, 45}, {1, 50, 20},
                                                   {33, 1, 10}, {17, 13, 100}, {64, 64, 0}};
    for (size_t k = 0; k < sizeof rnd / sizeof *rnd; k++) {
        char name[64];
        snprintf(name, sizeof name, "random %u x %u, %u%% obstacles", rnd[k].w, rnd[k].h,
                 rnd[k].pct);
        tu_random_grid(&r, rnd[k].w, rnd[k].h, rnd[k].pct, 4, &g);
        check_level(name, &lg, &agents, &g, &r);
        nbb_grid_free(&g);
    }
}

/* A crafted component section: refused by the look-up (nb_component -1,
 * the search's message) when lookup, else by nb_bundle_verify; want in the
 * message. */
static void refused(const char *path, const nb_section_info *info, const uint8_t *p, size_t len,
                    const char *what, int lookup, const char *want)
{
    const char *out = tu_path(dir, "crafted.nbb");
    nb_bundle *b = NULL;
    nb_err err;
    err.msg[0] = 0;
    remove(out);
    nbb_builder *w = NULL;
    /* The crafted layer alone among the component layers (its parameters
     * may differ from the one it replaces). */
    int put = nbb_builder_new(&w, &err) == NB_OK && nbb_builder_load(w, path, 0, &err) == NB_OK;
    if (put) {
        nbb_builder_remove(w, NB_SEC_COMPONENTS);
        nbb_builder_remove(w, NB_SEC_RUNS);
    }
    put = put && nbb_builder_add(w, info, p, len, 0, &err) == NB_OK &&
          nbb_builder_write(w, out, &err) == NB_OK;
    nbb_builder_free(w);
    if (!put || nb_bundle_open(out, 0, NULL, &b, &err) != NB_OK) {
        ok(0, "%s: the crafted bundle does not open (%s)", what, err.msg);
        return;
    }
    nb_status st;
    if (lookup) {
        nbi_layer l;
        st = nbi_components_layer(b, info->param[0], info->param[1], &l, &err);
        st = st != NB_OK && nb_component(b, info->param[0], info->param[1], 0, 0) == -1 &&
                     nb_reachable(b, info->param[0], info->param[1], (nb_cell){0, 0},
                                  (nb_cell){0, 0}) == -1
                 ? st
                 : NB_OK;
    } else {
        /* Opened and read (a look-up checks no run), refused by verify. */
        long v = 0;
        for (uint32_t y = 0; y < b->height; y++)
            for (uint32_t x = 0; x < b->width; x++) {
                long c = nb_component(b, info->param[0], info->param[1], x, y);
                v = c < 0 || c > (long)info->param[2] ? -1 : v;
            }
        st = v == 0 ? nb_bundle_verify(b, &err) : NB_OK;
    }
    ok(st != NB_OK && strstr(err.msg, want) != NULL, "%s: refused by %s (%s)", what,
       lookup ? "the look-up" : "verify", err.msg);
    nb_bundle_close(b);
}

/* Run k's record in a payload by runs of h rows. */
static uint64_t run_of(const uint8_t *p, uint32_t h, uint32_t xbits, uint32_t rb, uint32_t k)
{
    const uint8_t *rec = p + 24 + 4 * ((size_t)h + 1);
    uint64_t bit = (uint64_t)k * rb, v = 0;
    for (uint32_t j = 0; j < rb; j++, bit++)
        v |= (uint64_t)(rec[bit / 8] >> (bit % 8) & 1) << j;
    (void)xbits;
    return v;
}

/* The payload of the first component layer of the bundle at path whose
 * count has room above it in its bits (malloc'd), and its table entry. */
static uint8_t *take_layer(const char *path, size_t *len, nb_section_info *info)
{
    nb_bundle *b = NULL;
    uint8_t *p = NULL;
    if (nb_bundle_open(path, 0, NULL, &b, NULL) != NB_OK)
        return NULL;
    for (size_t i = 0; i < nb_bundle_section_count(b) && !p; i++) {
        const nb_section_info *in = nb_bundle_section_get(b, i);
        if (in->type != NB_SEC_COMPONENTS || in->param[2] + 1 >= 1u << in->param[3])
            continue;
        *info = *in;
        *len = (size_t)in->usize;
        if ((p = malloc(*len)) != NULL)
            memcpy(p, b->sections[i].payload, *len);
    }
    nb_bundle_close(b);
    return p;
}

static void test_crafted(void)
{
    nbi_legend lg;
    static nbi_agentset agents;
    nbb_grid g;
    nb_err err;
    tu_rng r = {3};
    tu_read_sample(&lg, &agents, &g);
    nbb_grid_free(&g);
    tu_random_grid(&r, 97, 61, 30, 4, &g); /* 7 bits of a run's x, to 127: past the row */
    const char *packed = tu_path(dir, "c-packed.nbb");
    char runs[1024];
    snprintf(runs, sizeof runs, "%s", tu_path(dir, "c-runs.nbb"));
    nb_section_info info;
    size_t len = 0;
    uint8_t *orig = NULL;
    if (tu_write_cleared(packed, &lg, &agents, &g, 0, &err) == NB_OK && write_runs(packed, runs))
        orig = take_layer(runs, &len, &info);
    nbb_grid_free(&g);
    uint32_t h = orig ? nbi_get32(orig + 4) : 0, xbits = orig ? nbi_get32(orig + 16) : 0,
             bits = orig ? nbi_get32(orig + 8) : 0, nruns = orig ? nbi_get32(orig + 20) : 0;
    if (!ok(orig && info.version == 2 && xbits == 7 && h == 61 &&
                len == 24 + 4 * 62 + (nruns * (xbits + bits) + 7) / 8 + 8,
            "a 97 x 61 layer by runs: %u runs of %u + %u bits, %zu bytes", nruns, xbits, bits,
            len)) {
        free(orig);
        return;
    }
    uint8_t *p = malloc(len + 8), *rec = NULL;
    uint32_t rb = xbits + bits;
    /* Run k's record rewritten (x, c) in the crafted copy p. */
#define SET_RUN(k, x, c)                                                           \
    do {                                                                           \
        uint64_t v_ = (uint64_t)(x) | (uint64_t)(c) << xbits, b_ = (uint64_t)(k) * rb; \
        for (uint32_t j_ = 0; j_ < rb; j_++, b_++)                                 \
            rec[b_ / 8] = (uint8_t)((rec[b_ / 8] & ~(1u << (b_ % 8))) |           \
                                    ((unsigned)(v_ >> j_ & 1) << (b_ % 8)));       \
    } while (0)
#define CRAFT(what, lookup, edit, want)                                            \
    do {                                                                           \
        memcpy(p, orig, len);                                                      \
        size_t n_ = len;                                                           \
        nb_section_info i_ = info;                                                 \
        rec = p + 24 + 4 * (h + 1);                                                \
        edit;                                                                      \
        refused(runs, &i_, p, n_, what, lookup, want);                             \
    } while (0)
    /* The first row after the first that has two runs, and its first run. */
    uint32_t row = 0;
    for (uint32_t y = 1; y < h && !row; y++)
        if (nbi_u32at(orig + 24, y + 1) - nbi_u32at(orig + 24, y) >= 2)
            row = y;
    uint32_t k0 = nbi_u32at(orig + 24, row);
    CRAFT("8 bits of x", 1, nbi_put32(p + 16, 8), "8 bits for a run's start, expected 7");
    CRAFT("more runs than cells", 1, nbi_put32(p + 20, 97 * 61 + 1), "more than its 5917 cells");
    CRAFT("a byte short", 1, n_ = len - 1, "bytes, expected");
    CRAFT("a byte over", 1, (n_ = len + 1, p[len] = 0), "bytes, expected");
    CRAFT("one run more than the rows say", 1, nbi_put32(p + 20, nruns + 1), "bytes, expected");
    CRAFT("the rows' runs not from 0", 1, nbi_put32(p + 24, 1), "go from 1 to");
    CRAFT("the rows' runs ending short", 1, nbi_put32(p + 24 + 4 * h, nruns - 1), "expected 0 to");
    CRAFT("a count unlike the table's", 1, i_.param[2]++, "disagree on its component count");
    CRAFT("bits unlike the table's", 1, i_.param[3]++, "disagree on its component count and bits");
    CRAFT("version 3", 1, i_.version = 3, "knows version 1 and 2");
    CRAFT("a row's runs before the last row's", 0, nbi_put32(p + 24 + 4 * (row + 1), k0 - 1),
          "are not within");
    CRAFT("a row's runs past the count", 0, nbi_put32(p + 24 + 4 * (row + 1), nruns + 5),
          "are not within");
    CRAFT("a run starting past the row", 0, SET_RUN(k0 + 1, 100, 1), "starts beyond the row");
    CRAFT("runs out of order", 0, SET_RUN(k0 + 1, 0, 2), "does not start after the run before");
    CRAFT("a component past the count", 0, SET_RUN(k0, 0, info.param[2] + 1),
          "has a component beyond the count");
    /* A row whose first run starts past x 0 and whose third (if any) is
     * of another component than the first: its cells from 0 made a run of
     * component 0 ahead of the first, which a bake never writes. */
    uint32_t lead = 0, lx = 0, lc = 0;
    for (uint32_t y = 0; y < h && !lead; y++) {
        uint32_t a = nbi_u32at(orig + 24, y), z = nbi_u32at(orig + 24, y + 1);
        if (z - a < 2)
            continue;
        uint64_t r0 = run_of(orig, h, xbits, rb, a);
        lx = (uint32_t)(r0 & ((1u << xbits) - 1)), lc = (uint32_t)(r0 >> xbits);
        if (lx > 0 && (z - a < 3 || run_of(orig, h, xbits, rb, a + 2) >> xbits != lc))
            lead = a + 1;
    }
    ok(lead > 0, "a row to give a leading run of component 0");
    CRAFT("a row's leading run of component 0", 0,
          {
              SET_RUN(lead - 1, 0, 0);
              SET_RUN(lead, lx, lc);
          },
          "x 0, component 0) has the component of the run before");
#undef CRAFT
#undef SET_RUN
    free(p);
    free(orig);
}

int main(void)
{
    dir = tu_tmpdir();
    test_same_answers();
    test_crafted();
    return done_testing();
}
