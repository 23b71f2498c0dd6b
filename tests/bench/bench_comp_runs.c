/* bench_comp_runs.c: the queries that read a component layer, on one tile
 * bundle whose layers are stored by runs (version 2) and on the same bundle
 * with them packed (version 1), made here from the runs: reachability,
 * Annotated A*, HAA* and nearest with reachable, the same queries on each.
 * Each (form, kind) runs in a function of its own, so that callgrind tells
 * their instructions apart in one run (tests/bench/comp-runs-bench.sh):
 *   bench_comp_runs TILE.nbb [QUERIES] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"
#include "testutil.h"

/* Distinct bodies, so that no two are folded into one. */
#define NOINLINE NBP_NOINLINE

static nb_cell *from, *to;
static size_t nq;
static nb_capability cap;
static uint32_t size;
static volatile long sink;

static void reach(const nb_bundle *b)
{
    for (int rep = 0; rep < 100; rep++)
        for (size_t i = 0; i < nq; i++)
            sink += nb_reachable(b, cap, size, from[i], to[i]);
}

static void aa(const nb_bundle *b)
{
    nb_aa *w = NULL;
    if (nb_aa_open(b, &w, NULL) != NB_OK)
        return;
    for (size_t i = 0; i < nq; i++) {
        nb_aa_query q;
        nb_aa_result r;
        nb_aa_query_init(&q);
        q.capability = cap, q.size = size, q.start = from[i], q.goal = to[i];
        if (nb_aa_find(w, &q, &r, NULL) == NB_OK)
            sink += r.status;
    }
    nb_aa_close(w);
}

static void haa(const nb_bundle *b)
{
    nb_haa *w = NULL;
    if (nb_haa_open(b, &w, NULL) != NB_OK)
        return;
    for (size_t i = 0; i < nq; i++) {
        nb_haa_query q;
        nb_haa_result r;
        nb_haa_query_init(&q);
        q.capability = cap, q.size = size, q.start = from[i], q.goal = to[i];
        if (nb_haa_find(w, &q, &r, NULL) == NB_OK)
            sink += r.status;
    }
    nb_haa_close(w);
}

static void nearest(const nb_bundle *b)
{
    nb_place *p = NULL;
    if (nb_place_open(b, &p, NULL) != NB_OK)
        return;
    for (size_t i = 0; i < nq; i++) {
        nb_nearest_query q;
        nb_nearest_result r;
        nb_nearest_query_init(&q);
        q.capability = cap, q.size = size, q.point = to[i], q.reachable = 1, q.start = from[i];
        if (nb_nearest_find(p, &q, &r, NULL) == NB_OK)
            sink += r.status;
    }
    nb_place_close(p);
}

NOINLINE static void packed_reach(const nb_bundle *b) { sink ^= 1; reach(b); }
NOINLINE static void runs_reach(const nb_bundle *b) { sink ^= 2; reach(b); }
NOINLINE static void packed_aa(const nb_bundle *b) { sink ^= 1; aa(b); }
NOINLINE static void runs_aa(const nb_bundle *b) { sink ^= 2; aa(b); }
NOINLINE static void packed_haa(const nb_bundle *b) { sink ^= 1; haa(b); }
NOINLINE static void runs_haa(const nb_bundle *b) { sink ^= 2; haa(b); }
NOINLINE static void packed_nearest(const nb_bundle *b) { sink ^= 1; nearest(b); }
NOINLINE static void runs_nearest(const nb_bundle *b) { sink ^= 2; nearest(b); }

/* The bundle at path with its component layers packed, written to out. */
static int write_packed(const nb_bundle *b, const char *path, const char *out)
{
    nbb_builder *w;
    nb_err err;
    int okk = nbb_builder_new(&w, &err) == NB_OK && nbb_builder_load(w, path, 0, &err) == NB_OK;
    for (size_t i = 0; okk && i < nb_bundle_section_count(b); i++) {
        nb_section_info in = *nb_bundle_section_get(b, i);
        nbi_layer l;
        size_t len;
        uint8_t *p;
        if (in.type != NB_SEC_COMPONENTS || in.version != NBI_COMPONENTS_VERSION_RUNS)
            continue;
        okk = nbi_layer_at(b, i, &l, &err) == NB_OK && (p = nbb_comp_runs_unpack(&l, &len));
        in.version = NBI_COMPONENTS_VERSION;
        in.encoding = NB_ENC_PACKED;
        okk = okk && nbb_builder_add_owned(w, &in, p, len, 0, &err) == NB_OK;
    }
    okk = okk && nbb_builder_write(w, out, &err) == NB_OK;
    if (!okk)
        fprintf(stderr, "bench_comp_runs: %s\n", err.msg);
    nbb_builder_free(w);
    return okk;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_comp_runs TILE.nbb [QUERIES]\n");
        return 2;
    }
    nq = argc > 2 ? (size_t)atol(argv[2]) : 200;
    nb_bundle *b2 = NULL, *b1 = NULL;
    nb_err err;
    char out[4096];
    snprintf(out, sizeof out, "%s/packed.nbb", tu_tmpdir());
    if (nb_bundle_open(argv[1], 0, NULL, &b2, &err) != NB_OK || !write_packed(b2, argv[1], out) ||
        nb_bundle_open(out, 0, NULL, &b1, &err) != NB_OK) {
        fprintf(stderr, "bench_comp_runs: %s\n", err.msg);
        return 1;
    }
    const nb_agent *ag = nb_agent_get(b2, 0);
    cap = ag->capability, size = ag->size;
    from = malloc(nq * sizeof *from), to = malloc(nq * sizeof *to);
    tu_rng r = {42};
    /* Ends where the agent stands, half of them in one component. */
    for (size_t i = 0; i < nq;) {
        nb_cell a = {(int32_t)tu_below(&r, b2->width), (int32_t)tu_below(&r, b2->height)},
                c = {(int32_t)tu_below(&r, b2->width), (int32_t)tu_below(&r, b2->height)};
        if (nb_can_stand(b2, cap, size, a.x, a.y) != 1 || nb_can_stand(b2, cap, size, c.x, c.y) != 1)
            continue;
        if ((i & 1) == (size_t)nb_reachable(b2, cap, size, a, c))
            continue; /* odd: joined, even: apart */
        from[i] = a, to[i] = c, i++;
    }
    packed_reach(b1), runs_reach(b2);
    packed_aa(b1), runs_aa(b2);
    packed_haa(b1), runs_haa(b2);
    packed_nearest(b1), runs_nearest(b2);
    printf("%zu queries of each kind on %s (%u x %u), size %u\n", nq, argv[1], b2->width,
           b2->height, size);
    nb_bundle_close(b1);
    nb_bundle_close(b2);
    remove(out);
    free(from);
    free(to);
    return 0;
}
