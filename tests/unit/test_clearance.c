/* test_clearance.c: mkclear's layers against independent answers.
 *
 *  - Bit packing round-trips every width from 1 to 32 bits.
 *  - Clearance read from baked bundles (packed and zlib) equals the
 *    paper's square growing (Algorithm 1) capped at the largest size, on
 *    random maps of several shapes with 1 to 4 terrains and several agent
 *    sets, on the sample level, and on a real multi-terrain map.
 *  - nb_can_stand agrees with the square's cells checked one by one.
 *  - Components: two cells share a component iff a breadth-first search
 *    with all eight moves (either corner rule) joins them.
 *  - A damaged or inconsistent layer is refused with a message. */
#include <stdio.h>
#include <stdlib.h>

#include "brute.h"
#include "clearance/clearance.h"
#include "testutil.h"

static nbi_legend legend;
static tu_rng pair_rng = {12345};

static nb_status bake(const char *path, const nbi_agentset *agents, const nbb_grid *grid,
                      int compress, nb_err *err)
{
    return tu_write_cleared(path, &legend, agents, grid, compress, err);
}

static void test_packing(tu_rng *r)
{
    for (unsigned bits = 1; bits <= 32; bits++) {
        uint32_t w = 1 + tu_below(r, 37), h = 1 + tu_below(r, 9);
        size_t n = (size_t)w * h;
        uint32_t maxval = bits == 32 ? UINT32_MAX : ((uint32_t)1 << bits) - 1;
        uint32_t *v = malloc(n * sizeof *v);
        for (size_t i = 0; i < n; i++)
            v[i] = (uint32_t)(tu_rand(r) >> 32) & maxval;
        v[n - 1] = maxval;
        uint8_t *out = malloc((size_t)nbi_layer_bytes(n, bits));
        nbb_layer_pack(w, h, maxval, NULL, v, out);
        nbi_layer l = {out + NBI_LAYER_HEADER,
                       w,
                       h,
                       bits,
                       maxval,
                       bits == 32 ? 0xffffffffu : ((uint64_t)1 << bits) - 1,
                       maxval,
                       0,
                       NULL,
                       0,
                       0,
                       0,
                       0,
                       0};
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += nbi_layer_get(&l, i) != v[i];
        int tail_zero = 1;
        for (size_t k = 0; k < NBI_LAYER_TAIL; k++)
            tail_zero &= out[nbi_layer_bytes(n, bits) - 1 - k] == 0;
        ok(bad == 0 && nbi_get32(out + 8) == bits && tail_zero,
           "packing %2u bits, %u x %u values: all read back, header and zero tail", bits, w, h);
        free(v);
        free(out);
    }
}

/* Checks every cell of every layer of an open bundle against brute force. */
static void check_bundle(const nb_bundle *nb, const nbb_grid *g, const nbi_agentset *agents,
                         const char *what)
{
    nb_capability caps[NB_MAX_AGENTS];
    uint32_t sizes[NB_MAX_AGENTS];
    size_t ncaps = nbi_agents_capabilities(agents, caps), nsizes = nbi_agents_sizes(agents, sizes);
    unsigned cap_size = nbi_agents_max_size(agents);
    size_t n = (size_t)g->width * g->height;
    uint32_t *lab_strict = malloc(n * sizeof *lab_strict), *lab_weak = malloc(n * sizeof *lab_weak);
    uint32_t *to_ours = malloc((n + 1) * sizeof *to_ours),
             *to_brute = malloc((n + 1) * sizeof *to_brute);
    for (size_t c = 0; c < ncaps; c++) {
        char cs[256];
        nb_capability_format(nb, caps[c], cs, sizeof cs);
        size_t bad = 0, badstand = 0;
        for (long y = 0; y < (long)g->height; y++)
            for (long x = 0; x < (long)g->width; x++) {
                unsigned want = brute_clearance(&legend, g, caps[c], x, y, 0);
                if (want > cap_size)
                    want = cap_size;
                if (nb_clearance(nb, caps[c], x, y) != (int)want) {
                    if (bad++ < 3)
                        diag("(%ld,%ld): clearance %d, brute force %u", x, y,
                             nb_clearance(nb, caps[c], x, y), want);
                }
                for (unsigned s = 1; s <= cap_size; s++)
                    badstand += nb_can_stand(nb, caps[c], s, x, y) !=
                                brute_can_stand(&legend, g, caps[c], s, x, y);
            }
        ok(bad == 0, "%s: {%s} clearance equals square growing at all %zu cells (cap %u)", what, cs,
           n, cap_size);
        ok(badstand == 0, "%s: {%s} nb_can_stand agrees for sizes 1 to %u", what, cs, cap_size);
        ok(nb_clearance_cap(nb, caps[c]) == (int)cap_size &&
               nb_clearance(nb, caps[c], -1, 0) == 0 &&
               nb_clearance(nb, caps[c], 0, (long)g->height) == 0 &&
               nb_can_stand(nb, caps[c], cap_size + 1, 0, 0) == -1 &&
               nb_can_stand(nb, caps[c], 0, 0, 0) == -1,
           "%s: {%s} cap, outside the map, sizes beyond the cap", what, cs);
        for (size_t s = 0; s < nsizes; s++) {
            uint32_t nb1 =
                brute_components(&legend, g, caps[c], sizes[s], BRUTE_STRICT, lab_strict);
            uint32_t nb2 = brute_components(&legend, g, caps[c], sizes[s], BRUTE_WEAK, lab_weak);
            /* Same partition: a bijection between our ids and the BFS's. */
            for (size_t i = 0; i <= n; i++)
                to_ours[i] = to_brute[i] = UINT32_MAX;
            size_t mism = 0;
            long ours_max = 0;
            for (size_t i = 0; i < n; i++) {
                long ours =
                    nb_component(nb, caps[c], sizes[s], (long)(i % g->width), (long)(i / g->width));
                uint32_t theirs = lab_strict[i];
                if (ours < 0 || (ours == 0) != (theirs == 0) ||
                    (lab_weak[i] == 0) != (theirs == 0)) {
                    mism++;
                    continue;
                }
                if (ours > ours_max)
                    ours_max = ours;
                if (!ours)
                    continue;
                if (to_ours[theirs] == UINT32_MAX)
                    to_ours[theirs] = (uint32_t)ours;
                if (to_brute[ours] == UINT32_MAX)
                    to_brute[ours] = theirs;
                mism += to_ours[theirs] != (uint32_t)ours || to_brute[ours] != theirs;
            }
            /* Weak and strict BFS must give the same partition too. */
            size_t wm = 0;
            for (size_t i = 0; i <= n; i++)
                to_ours[i] = UINT32_MAX;
            for (size_t i = 0; i < n; i++)
                if (lab_strict[i]) {
                    if (to_ours[lab_strict[i]] == UINT32_MAX)
                        to_ours[lab_strict[i]] = lab_weak[i];
                    wm += to_ours[lab_strict[i]] != lab_weak[i];
                }
            /* nb_reachable on random pairs of cells. */
            size_t rbad = 0;
            for (int q = 0; q < 200; q++) {
                size_t i = tu_below(&pair_rng, (uint32_t)n), j = tu_below(&pair_rng, (uint32_t)n);
                nb_cell a = {(int32_t)(i % g->width), (int32_t)(i / g->width)};
                nb_cell b = {(int32_t)(j % g->width), (int32_t)(j / g->width)};
                int want = lab_strict[i] && lab_strict[i] == lab_strict[j];
                rbad += nb_reachable(nb, caps[c], sizes[s], a, b) != want;
            }
            ok(rbad == 0, "%s: {%s} size %u: nb_reachable agrees with BFS on 200 pairs", what, cs,
               sizes[s]);
            ok(mism == 0 && wm == 0 && nb1 == nb2 && (uint32_t)ours_max == nb1,
               "%s: {%s} size %u: %u components, the same partition as BFS (strict and weak)", what,
               cs, sizes[s], nb1);
        }
    }
    free(lab_strict);
    free(lab_weak);
    free(to_ours);
    free(to_brute);
}

/* A random agent set: ncaps capabilities over the first nterrains
 * terrains, sizes up to max_size. */
static void random_agents(tu_rng *r, unsigned nterrains, unsigned ncaps, unsigned max_size,
                          nbi_agentset *set)
{
    memset(set, 0, sizeof *set);
    unsigned all = (1u << nterrains) - 1;
    for (unsigned i = 0; i < ncaps + 1; i++) {
        nb_agent *a = &set->agent[set->count++];
        snprintf(a->name, sizeof a->name, "a%u", i);
        a->capability = i == 0 ? 1u : 1u + tu_below(r, all);
        a->size = i == ncaps ? max_size : 1 + tu_below(r, max_size);
    }
}

static void test_random(tu_rng *r)
{
    static const uint32_t shapes[][2] = {{1, 1},   {2, 3},   {9, 1},  {7, 5},
                                         {23, 17}, {40, 40}, {64, 21}};
    static nbi_agentset agents;
    const char *dir = tu_tmpdir();
    int k = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        for (unsigned nt = 1; nt <= 4; nt++) {
            unsigned pct = (unsigned)(k % 4) * 15, max_size = 1 + (unsigned)(k % 5);
            nbb_grid g;
            tu_random_grid(r, shapes[sh][0], shapes[sh][1], pct, nt, &g);
            random_agents(r, nt, 1 + (unsigned)(k % 3), max_size, &agents);
            const char *path = tu_path(dir, "random.nbk");
            nb_err err;
            char what[96];
            int zlib = k % 2;
            snprintf(what, sizeof what, "%ux%u, %u terrains, %u%% obstacles, %s", g.width, g.height,
                     nt, pct, zlib ? "zlib" : "packed");
            nb_bundle *nb = NULL;
            nb_status st = bake(path, &agents, &g, zlib, &err);
            if (st == NB_OK)
                st = nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &nb, &err);
            if (ok(st == NB_OK, "%s: baked and verified", what))
                check_bundle(nb, &g, &agents, what);
            else
                diag("%s", err.msg);
            nb_bundle_close(nb);
            nbb_grid_free(&g);
            k++;
        }
}

/* Reads a map, bakes it with an agent set, checks every layer. */
static void bake_and_check(const char *map, const nbi_agentset *agents, int zlib, const char *what)
{
    nbb_grid g;
    nb_err err;
    nb_bundle *nb = NULL;
    const char *path = tu_path(tu_tmpdir(), "level.nbk");
    nb_status st = nbb_map_read(map, &legend, 1, &g, &err);
    if (st == NB_OK) {
        st = bake(path, agents, &g, zlib, &err);
        if (st == NB_OK)
            st = nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &nb, &err);
        if (ok(st == NB_OK, "%s baked (%s)", what, zlib ? "zlib" : "packed"))
            check_bundle(nb, &g, agents, what);
        nb_bundle_close(nb);
        nbb_grid_free(&g);
    }
    if (st != NB_OK)
        diag("%s", err.msg);
}

static void test_sample(void)
{
    static nbi_agentset agents;
    nb_err err;
    if (ok(nbb_agents_read(tu_src("data/sample-agents.yaml"), &legend, &agents, &err) == NB_OK,
           "sample agents read"))
        bake_and_check(tu_src("data/sample.map"), &agents, 0, "sample.map");
}

/* A real map with several terrains, when ../shared is there. */
static void test_shared(void)
{
    const char *map = tu_shared("maps/wc3/bloodvenomfalls.map");
    if (!map) {
        skip(1, "../shared/maps/wc3/bloodvenomfalls.map absent (NB_SHARED)");
        return;
    }
    static nbi_agentset agents;
    static const char yaml[] = "agents:\n"
                               "  - {name: a, size: 1, capability: [ground, swamp]}\n"
                               "  - {name: b, size: 3, capability: [ground, water]}\n"
                               "  - {name: c, size: 2, capability: [water]}\n";
    nb_err err;
    if (ok(nbb_agents_parse(yaml, strlen(yaml), "agents", &legend, &agents, &err) == NB_OK,
           "agents for bloodvenomfalls"))
        bake_and_check(map, &agents, 1, "bloodvenomfalls");
}

/* Layers whose payload does not fit the map or its own parameters. */
static void test_damaged(void)
{
    static nbi_agentset agents;
    nb_err err;
    nbb_grid g;
    tu_rng r = {7};
    tu_random_grid(&r, 10, 6, 20, 2, &g);
    agents.count = 1;
    strcpy(agents.agent[0].name, "x");
    agents.agent[0].size = 2;
    agents.agent[0].capability = 3;
    const char *path = tu_path(tu_tmpdir(), "bad.nbk");
    struct {
        const char *what, *msg;
        uint32_t w, bits, maxval, pcap, pbits;
        long cut;
        uint16_t version;
    } cases[] = {
        {"a layer for another map size", "is 11 x 6 cells but the map is 10 x 6", 11, 2, 2, 2, 2, 0,
         1},
        {"a truncated payload", "expected", 10, 2, 2, 2, 2, 3, 1},
        {"too few bits for its values", "bits per cell cannot hold", 10, 1, 2, 2, 1, 0, 1},
        {"table and payload disagree", "disagree", 10, 2, 2, 3, 2, 0, 1},
        {"a future section version", "version 2", 10, 2, 2, 2, 2, 0, 2},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint64_t n = (uint64_t)cases[k].w * g.height;
        size_t len = (size_t)nbi_layer_bytes(n, cases[k].bits);
        uint8_t *p = calloc(1, len);
        nbi_put32(p, cases[k].w);
        nbi_put32(p + 4, g.height);
        nbi_put32(p + 8, cases[k].bits);
        nbi_put32(p + 12, cases[k].maxval);
        nbb_builder *b;
        nbb_builder_new(&b, &err);
        nbb_put_level(b, &legend, &agents, &g, 0, &err);
        nb_section_info in;
        memset(&in, 0, sizeof in);
        in.type = NB_SEC_CLEARANCE;
        in.version = cases[k].version;
        in.encoding = NB_ENC_PACKED;
        in.param[0] = 3;
        in.param[1] = cases[k].pcap;
        in.param[2] = cases[k].pbits;
        nbb_builder_add(b, &in, p, len - (size_t)cases[k].cut, 0, &err);
        nb_status st = nbb_builder_write(b, path, &err);
        nbb_builder_free(b);
        free(p);
        nb_bundle *nb = NULL;
        if (st == NB_OK)
            st = nb_bundle_open(path, 0, NULL, &nb, &err);
        if (!ok(st == NB_OK, "%s: the bundle opens (its table and checksums are right)",
                cases[k].what)) {
            diag("%s", err.msg);
            continue;
        }
        /* Verification makes the layer's own check, as a query would: what it refuses, no
         * query accepts. */
        st = nb_bundle_verify(nb, &err);
        ok(st != NB_OK, "%s: nb_bundle_verify refuses it", cases[k].what);
        like(err.msg, cases[k].msg, "%s: ... saying why", cases[k].what);
        nbi_layer l;
        st = nbi_clearance_layer(nb, 3, &l, &err);
        ok(st != NB_OK && nb_clearance(nb, 3, 0, 0) == -1 && nb_can_stand(nb, 3, 1, 0, 0) == -1,
           "%s: refused", cases[k].what);
        like(err.msg, cases[k].msg, "%s: the message says so", cases[k].what);
        nb_bundle_close(nb);
    }
    /* No layer at all: the message lists what there is. */
    if (tu_write_level(path, &legend, &agents, &g, 0, &err) == NB_OK) {
        nb_bundle *nb = NULL;
        nb_bundle_open(path, 0, NULL, &nb, &err);
        nbi_layer l;
        ok(nb && nbi_clearance_layer(nb, 1, &l, &err) == NB_ERR_NOTFOUND, "no layer: not found");
        like(err.msg, "no clearance layer for capability {ground} (it has none)", "and says so");
        nb_cell a = {0, 0};
        ok(nb && nb_reachable(nb, 1, 1, a, a) == -1 && nb_component(nb, 1, 1, 0, 0) == -1,
           "nb_reachable and nb_component: -1 without a component layer");
        nb_bundle_close(nb);
    }
    nbb_grid_free(&g);
}

/* A bundle with sections of other tools, baked by them: one derived from
 * the level (mkabstract's graph) and one that is not (mkperim's motion
 * model, with its perimeter table).  (Real sections: mkclear opens the
 * bundle it updates with NB_OPEN_VERIFY, which refuses a section whose
 * structure no query would accept.) */
static void other_sections(const char *top, const char *path, const char *map_path,
                           const char *agents_path)
{
    int rc = tu_system("'%s/tools/mkclear' -q --agents '%s' '%s' -o '%s' && "
                       "'%s/tools/mkabstract' -q '%s' && '%s/tools/mkperim' -q --model '%s' "
                       "--radius 2 -o '%s'",
                       top, agents_path, map_path, path, top, path, top,
                       tu_src("data/models/tank.yaml"), path);
    if (rc != 0)
        diag("baking the sample with mkclear, mkabstract and mkperim: exit %d", rc);
}

static int count_type(const char *path, uint32_t type)
{
    nb_bundle *nb;
    nb_err err;
    if (nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &nb, &err) != NB_OK)
        return -1;
    int n = 0;
    for (size_t i = 0; i < nb_bundle_section_count(nb); i++)
        n += nb_bundle_section_get(nb, i)->type == type;
    nb_bundle_close(nb);
    return n;
}

/* mkclear keeps what is not its own, and drops what an old level made. */
static void test_level_change(void)
{
    const char *top = getenv("top_builddir");
    if (!top || !*top) {
        skip(6, "top_builddir not set: mkclear not found");
        return;
    }
    const char *dir = tu_tmpdir(), *path = tu_path(dir, "lv.nbk"), *msg = tu_path(dir, "lv.err");
    const char *map = tu_src("data/sample.map"), *agents = tu_src("data/sample-agents.yaml");
    other_sections(top, path, map, agents);
    int rc = tu_system("'%s/tools/mkclear' --agents '%s' '%s' -o '%s' 2>'%s'", top, agents, map,
                       path, msg);
    char *text = tu_read(msg, NULL);
    ok(rc == 0 && count_type(path, NB_SEC_ABSTRACT) == 1 && count_type(path, NB_SEC_MODEL) == 1 &&
           count_type(path, NB_SEC_CLEARANCE) == 4 && text && !*text,
       "the same level: other tools' sections kept, silently");
    free(text);
    rc = tu_system("'%s/tools/mkclear' '%s' -o '%s' 2>'%s'", top, map, path, msg);
    text = tu_read(msg, NULL);
    ok(rc == 0 && count_type(path, NB_SEC_ABSTRACT) == 0 && count_type(path, NB_SEC_MODEL) == 1 &&
           count_type(path, NB_SEC_CLEARANCE) == 1 && count_type(path, NB_SEC_COMPONENTS) == 1 &&
               count_type(path, NB_SEC_RUNS) == 1,
       "another agent set: the abstract graph goes, the motion model stays");
    like(text ? text : "",
         "held the same map with a different agent set: its 29 sections derived "
         "from the old level are removed (1 abstract; rebuild them",
         "and mkclear says what went and why");
    free(text);
    other_sections(top, path, map, agents);
    rc = tu_system("'%s/tools/mkclear' --agents '%s' '%s' -o '%s' 2>'%s'", top, agents,
                   tu_src("tests/data/clearance-tiny.map"), path, msg);
    text = tu_read(msg, NULL);
    ok(rc == 0 && count_type(path, NB_SEC_ABSTRACT) == 0 && count_type(path, NB_SEC_MODEL) == 1,
       "another map: the same");
    like(text ? text : "", "held a 64 x 40 map, not this 6 x 4 one", "named by its size");
    free(text);
    other_sections(top, path, map, agents);
    rc = tu_system("'%s/tools/mkclear' -q '%s' -o '%s' 2>'%s'", top, map, path, msg);
    text = tu_read(msg, NULL);
    ok(rc == 0 && text && !*text && count_type(path, NB_SEC_ABSTRACT) == 0, "-q: silent");
    free(text);
}

int main(void)
{
    tu_rng r = {0x5eed5eedULL};
    nbi_legend_default(&legend);
    test_packing(&r);
    test_random(&r);
    test_sample();
    test_shared();
    test_damaged();
    test_level_change();
    return done_testing();
}
