/* test_place.c: the place handle and the runs section as untrusted input.
 *
 *  - nb_place_open's errors: NULL arguments, a capability without a
 *    clearance layer, sizes 0 and beyond the cap (*out NULL after each);
 *  - the component layer and the runs are optional: without them the place
 *    opens, and only the queries that need them say so (NB_ERR_NOTFOUND);
 *  - a runs section crafted as an attacker would, every CRC right, is
 *    refused when a place is made and by nb_bundle_verify, naming what is
 *    wrong: each count, length and array the draws rely on; one that is
 *    consistent in itself but not with its component layer is refused by
 *    nb_place_open, and one that lies about the map only by verify --deep
 *    (nbb_verify_deep), naming the run. */
#include <stdio.h>
#include <stdlib.h>

#include "place/place.h"
#include "testutil.h"

static nbi_legend legend;
static nbi_agentset agents;
static const char *dir;

static const char *bake(void)
{
    tu_rng r = {5};
    nbb_grid g;
    nb_err err;
    tu_random_grid(&r, 30, 20, 15, 3, &g);
    nbi_legend_default(&legend);
    agents.count = 2;
    strcpy(agents.agent[0].name, "small");
    agents.agent[0].size = 1;
    agents.agent[0].capability = 3;
    strcpy(agents.agent[1].name, "big");
    agents.agent[1].size = 2;
    agents.agent[1].capability = 3;
    static char path[1024]; /* tu_path's buffers are reused */
    snprintf(path, sizeof path, "%s", tu_path(dir, "level.nbk"));
    nb_status st = tu_write_cleared(path, &legend, &agents, &g, 0, &err);
    free(g.cells);
    return ok(st == NB_OK, "a 30 x 20 level with agents of sizes 1 and 2") ? path : NULL;
}

/* path without the sections of these types, written to out. */
static int without(const char *path, const char *out, uint32_t t1, uint32_t t2)
{
    nbb_builder *w;
    nb_err err;
    int good = nbb_builder_new(&w, &err) == NB_OK && nbb_builder_load(w, path, 0, &err) == NB_OK;
    if (good) {
        nbb_builder_remove(w, t1);
        if (t2)
            nbb_builder_remove(w, t2);
        good = nbb_builder_write(w, out, &err) == NB_OK;
    }
    nbb_builder_free(w);
    return good;
}

static void test_open(const char *path)
{
    nb_bundle *b;
    nb_place *p = (nb_place *)&p;
    nb_err err;
    if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK)
        return;
    ok(tu_place_open(b, 3, 1, NULL, &err) == NB_ERR_ARG, "out NULL: NB_ERR_ARG");
    ok(tu_place_open(NULL, 3, 1, &p, &err) == NB_ERR_ARG && p == NULL,
       "bundle NULL: NB_ERR_ARG, *out NULL");
    p = (nb_place *)&p;
    like(tu_place_open(b, 1, 1, &p, &err) == NB_ERR_NOTFOUND && !p ? err.msg : "",
         "no clearance layer for capability {ground}", "a capability without a layer: NOTFOUND");
    ok(tu_place_open(b, 3, 0, &p, &err) == NB_ERR_ARG && !p, "size 0: NB_ERR_ARG");
    like(tu_place_open(b, 3, 3, &p, &err) == NB_ERR_NOTFOUND && !p ? err.msg : "",
         "size 3 is beyond the largest size (2)", "a size beyond the cap: NB_ERR_NOTFOUND");
    ok(tu_place_open(b, 3, 2, &p, &err) == NB_OK && p && err.code == NB_OK && !err.msg[0],
       "size 2: a place, the error cleared");
    nb_place_close(p);
    nb_place_close(NULL);
    nb_bundle_close(b);
}

/* Which queries a place answers on path: nearest within reach, random
 * from a cell, random anywhere. */
static void answers(const char *path, nb_status want_reach, nb_status want_from, nb_status want_any,
                    const char *what)
{
    nb_bundle *b;
    nb_place *p;
    nb_err err;
    if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK ||
        !ok(tu_place_open(b, 3, 1, &p, &err) == NB_OK, "%s: the place opens", what)) {
        nb_bundle_close(b);
        return;
    }
    nb_nearest_query q;
    nb_nearest_result nr;
    nb_nearest_query_init(&q);
    nb_status plain = tu_nearest(p, &q, &nr, &err);
    q.reachable = 1;
    nb_status reach = tu_nearest(p, &q, &nr, &err);
    nb_line_result lr;
    nb_status line = tu_walk_line(p, (nb_vec2){0, 0}, (nb_vec2){3, 3}, &lr, &err);
    nb_random_result rr;
    uint64_t s = 1;
    nb_cell c = {0, 0};
    nb_status from = tu_random(p, &c, &s, &rr, &err);
    nb_status any = tu_random(p, NULL, &s, &rr, &err);
    ok(plain == NB_OK && line == NB_OK && reach == want_reach && from == want_from &&
           any == want_any,
       "%s: nearest %s, within reach %s, lines %s, random from a cell %s, anywhere %s", what,
       nb_status_str(plain), nb_status_str(reach), nb_status_str(line), nb_status_str(from),
       nb_status_str(any));
    nb_place_close(p);
    nb_bundle_close(b);
}

static void test_optional(const char *path)
{
    const char *none = tu_path(dir, "none.nbk"), *noruns = tu_path(dir, "noruns.nbk"),
               *nocomp = tu_path(dir, "nocomp.nbk");
    if (!ok(without(path, none, NB_SEC_COMPONENTS, NB_SEC_RUNS) &&
                without(path, noruns, NB_SEC_RUNS, 0) &&
                without(path, nocomp, NB_SEC_COMPONENTS, 0),
            "bundles without components and runs, without runs, without components"))
        return;
    answers(path, NB_OK, NB_OK, NB_OK, "every section");
    answers(none, NB_ERR_NOTFOUND, NB_ERR_NOTFOUND, NB_ERR_NOTFOUND, "no components, no runs");
    answers(noruns, NB_OK, NB_ERR_NOTFOUND, NB_ERR_NOTFOUND, "no runs");
    answers(nocomp, NB_ERR_NOTFOUND, NB_ERR_NOTFOUND, NB_OK, "no components");
}

/* A crafted copy of the first runs section: change() edits it (its payload
 * of *len bytes, which it may shorten or lengthen within 16 bytes, and its
 * table entry); nb_place_open must then refuse it with want and a message
 * holding msg, and nb_bundle_verify too (it opens the place on every runs
 * section, as a query would: a bundle that verifies is one every place
 * accepts, even where the runs are consistent in themselves). */
typedef void (*change_fn)(uint8_t *p, size_t *len, nb_section_info *in);

static uint32_t u32(const uint8_t *p, size_t at) { return nbi_get32(p + at); }
#define N(p) u32(p, NBI_RUNS_COMPONENTS)
#define RUN(p, j) (NBI_RUNS_HEADER + 4 * ((size_t)N(p) + 1) + NBI_RUNS_RECORD * (size_t)(j))

static void v2(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)p, (void)len, in->version = 2;
}
static void packed(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)p, (void)len, in->encoding = NB_ENC_PACKED;
}
static void shortp(uint8_t *p, size_t *len, nb_section_info *in) { (void)p, (void)in, *len = 20; }
static void wide(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)len, (void)in, nbi_put32(p + NBI_RUNS_WIDTH, 31);
}
static void many(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)len, nbi_put32(p + NBI_RUNS_CELLS, 601), in->param[4] = 601;
}
static void zero(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)len, (void)in, nbi_put32(p + NBI_RUNS_ZERO, 1);
}
static void longer(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)in, memset(p + *len, 0, 8), *len += 8;
}
static void params(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)p, (void)len, in->param[3]++;
}
static void first0(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)len, (void)in, nbi_put32(p + NBI_RUNS_HEADER, 1);
}
static void empty_comp(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)len, (void)in, nbi_put32(p + NBI_RUNS_HEADER + 4, 0);
}
static void before0(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)len, (void)in, nbi_put32(p + RUN(p, 0) + NBI_RUN_BEFORE, 1);
}
static void past_map(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)len, (void)in, nbi_put32(p + RUN(p, 0) + NBI_RUN_START, 600);
}
static void empty_run(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)len, (void)in;
    nbi_put32(p + RUN(p, 1) + NBI_RUN_BEFORE, u32(p, RUN(p, 0) + NBI_RUN_BEFORE));
}
/* The first run with two cells or more moved to end at the row's end and
 * one cell further. */
static void off_row(uint8_t *p, size_t *len, nb_section_info *in)
{
    (void)len, (void)in;
    for (uint32_t j = 0; j + 1 < u32(p, NBI_RUNS_COUNT); j++) {
        uint32_t n = u32(p, RUN(p, j + 1) + NBI_RUN_BEFORE) - u32(p, RUN(p, j) + NBI_RUN_BEFORE);
        if (n >= 2) {
            uint32_t at = u32(p, RUN(p, j) + NBI_RUN_START);
            nbi_put32(p + RUN(p, j) + NBI_RUN_START, at - at % 30 + 30 - n + 1);
            return;
        }
    }
}
/* Components n - 1 and n merged into one: consistent in itself, one
 * component fewer than its layer. */
static void merged(uint8_t *p, size_t *len, nb_section_info *in)
{
    uint32_t n = N(p);
    size_t at = NBI_RUNS_HEADER + 4 * ((size_t)n - 1);
    memmove(p + at, p + at + 4, *len - at - 4);
    *len -= 4;
    nbi_put32(p + NBI_RUNS_COMPONENTS, n - 1);
    in->param[2] = n - 1;
}

static void crafted(const char *path, const char *name, change_fn change, nb_status want,
                    const char *msg)
{
    size_t len;
    nb_section_info in;
    uint8_t *p = tu_section_take(path, NB_SEC_RUNS, &len, &in);
    uint8_t *q = p ? malloc(len + 16) : NULL;
    if (!q) {
        ok(0, "%s: the runs section taken", name);
        free(p);
        return;
    }
    memcpy(q, p, len);
    change(q, &len, &in);
    const char *out = tu_path(dir, "crafted.nbk");
    remove(out); /* the last one, which the writer would refuse to update */
    /* A new version goes in beside the old section: drop the old one. */
    int good = without(path, out, NB_SEC_RUNS, 0) && tu_section_put(out, out, &in, q, len);
    nb_bundle *b = NULL;
    nb_place *pl = (nb_place *)&pl;
    nb_err err, verr;
    nb_status st = NB_ERR_IO, vst = NB_ERR_IO;
    if (good && nb_bundle_open(out, 0, NULL, &b, &err) == NB_OK) {
        st = tu_place_open(b, in.param[0], in.param[1], &pl, &err);
        vst = nb_bundle_verify(b, &verr);
    }
    ok(st == want && !pl && strstr(err.msg, msg) && strstr(err.msg, "runs"),
       "%s: nb_place_open says %s: %s", name, nb_status_str(st), st == NB_OK ? "" : err.msg);
    ok(vst == want && strstr(verr.msg, msg), "%s: and so does nb_bundle_verify", name);
    if (st == NB_OK)
        nb_place_close(pl);
    nb_bundle_close(b);
    free(p);
    free(q);
}

/* Two runs of one component swapped, counts kept: only the map can tell. */
static void test_deep(const char *path)
{
    size_t len;
    nb_section_info in;
    uint8_t *p = tu_section_take(path, NB_SEC_RUNS, &len, &in);
    if (!p)
        return;
    uint32_t j = 0;
    /* Two neighbouring runs of one component and one length. */
    for (; j + 2 < u32(p, NBI_RUNS_COUNT); j++) {
        uint32_t a = u32(p, RUN(p, j + 1) + NBI_RUN_BEFORE) - u32(p, RUN(p, j) + NBI_RUN_BEFORE);
        uint32_t b =
            u32(p, RUN(p, j + 2) + NBI_RUN_BEFORE) - u32(p, RUN(p, j + 1) + NBI_RUN_BEFORE);
        if (a == b)
            break;
    }
    uint32_t s0 = u32(p, RUN(p, j) + NBI_RUN_START), s1 = u32(p, RUN(p, j + 1) + NBI_RUN_START);
    nbi_put32(p + RUN(p, j) + NBI_RUN_START, s1);
    nbi_put32(p + RUN(p, j + 1) + NBI_RUN_START, s0);
    const char *out = tu_path(dir, "lie.nbk");
    remove(out);
    nb_bundle *b = NULL;
    nb_place *pl = NULL;
    nb_err err;
    char want[64];
    snprintf(want, sizeof want, "run %u (component ", j);
    if (tu_section_put(path, out, &in, p, len) && nb_bundle_open(out, 0, NULL, &b, &err) == NB_OK) {
        ok(tu_place_open(b, in.param[0], in.param[1], &pl, &err) == NB_OK &&
               nb_bundle_verify(b, &err) == NB_OK,
           "runs %u and %u swapped: the place opens and nb_bundle_verify accepts it", j, j + 1);
        like(nbb_verify_deep(b, NULL, NULL, &err) == NB_ERR_FORMAT ? err.msg : "", want,
             "... but verify --deep names run %u", j);
    }
    nb_place_close(pl);
    nb_bundle_close(b);
    free(p);
}

int main(void)
{
    dir = tu_tmpdir();
    const char *path = bake();
    if (!path)
        return done_testing();
    test_open(path);
    test_optional(path);
    crafted(path, "version 2", v2, NB_ERR_VERSION, "version 2");
    crafted(path, "packed", packed, NB_ERR_FORMAT, "expected raw");
    crafted(path, "20 bytes", shortp, NB_ERR_FORMAT, "shorter than its header");
    crafted(path, "31 cells wide", wide, NB_ERR_FORMAT, "for 31 x 20 cells but the map is 30 x 20");
    crafted(path, "601 cells", many, NB_ERR_FORMAT, "601 cells on a map of 600");
    crafted(path, "a word not zero", zero, NB_ERR_FORMAT, "a zero word");
    crafted(path, "8 bytes more", longer, NB_ERR_FORMAT, "bytes, expected");
    crafted(path, "a run count in the table", params, NB_ERR_FORMAT, "disagree on its counts");
    crafted(path, "first run 1", first0, NB_ERR_FORMAT, "runs start at 1");
    crafted(path, "component 1 without runs", empty_comp, NB_ERR_FORMAT, "component 1 has no run");
    crafted(path, "1 cell before run 0", before0, NB_ERR_FORMAT, "the cells before run 0 number 1");
    crafted(path, "a run past the map", past_map, NB_ERR_FORMAT, "leaves its row");
    crafted(path, "an empty run", empty_run, NB_ERR_FORMAT, "run 0 is empty");
    crafted(path, "a run over a row's end", off_row, NB_ERR_FORMAT, "leaves its row");
    crafted(path, "two components merged", merged, NB_ERR_FORMAT, "its component layer");
    test_deep(path);
    return done_testing();
}
