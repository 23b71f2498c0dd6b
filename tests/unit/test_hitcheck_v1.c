/* test_hitcheck_v1.c: hit-check tables of section version 1 (navbake 0.2:
 * every start heading, every candidate, a record per curve) are still
 * read.  tests/data/unit-v1.nbb was baked by the tools of that version
 * (tests/data/unit-v1.md).
 *
 * Against independent answers: every entry's first curve is the shortest
 * candidate nb_curve_to_pose gives for the move now, and the table baked
 * now with every candidate holds the same least length; on random maps
 * Directional A* with the old table finds the least cost of the
 * independent Dijkstra of tests/support/unitmap.c (every candidate), the
 * same cost as with today's table of every candidate and as computing the
 * curves on the fly; a damaged old table is refused naming what is wrong,
 * and one whose damage its own checks cannot see fails verify --deep. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "turning/planner.h"
#include "unitmap.h"

static const char *fixture(void) { return tu_src("tests/data/unit-v1.nbb"); }

/* The fixture's hit-check payload (inflated, a copy), its section version
 * and index. */
static size_t hc_index;
static uint8_t *old_table(const nb_bundle *b, size_t *len, uint32_t *version)
{
    for (size_t i = 0; i < nb_bundle_section_count(b); i++) {
        const nb_section_info *in = nb_bundle_section_get(b, i);
        const void *data;
        nb_err err;
        if (in->type != NB_SEC_HITCHECK || nb_bundle_payload(b, i, &data, len, &err) != NB_OK)
            continue;
        *version = in->version;
        hc_index = i;
        uint8_t *copy = malloc(*len);
        memcpy(copy, data, *len);
        return copy;
    }
    return NULL;
}

static void read_and_compare(const nb_bundle *b, const nb_unit *u)
{
    size_t len = 0;
    uint32_t version = 0;
    uint8_t *p = old_table(b, &len, &version);
    nbi_hitcheck h;
    nb_err err;
    if (!ok(p && version == 1 && nbi_hitcheck_view(p, len, version, &h, &err) == NB_OK,
            "the version 1 table of unit-v1.nbb reads (%zu bytes)", len)) {
        diag("%s", p ? err.msg : "no hitcheck section");
        free(p);
        return;
    }
    unsigned K = h.headings, N = h.neighbourhood;
    ok(h.version == 1 && h.all && h.nstored == K * K * N && nbi_hc_stored_headings(&h) == K &&
           nbi_hc_quarters(&h) == 1,
       "  every start heading stored, every candidate (%u entries, %u curves)", h.nstored,
       h.ncurves);
    uint8_t *np;
    size_t nlen;
    nbi_hitcheck now;
    if (!ok(nbb_hitcheck_build(u, N, 1, &np, &nlen, NULL, &err) == NB_OK &&
                nbi_hitcheck_view(np, nlen, NBI_HITCHECK_VERSION, &now, &err) == NB_OK,
            "today's table of every candidate for the same unit builds")) {
        diag("%s", err.msg);
        free(p);
        return;
    }
    unsigned entries = 0, shortest = 0, least = 0, cells = 0, ncells = 0;
    for (unsigned h0 = 0; h0 < K; h0++)
        for (unsigned h1 = 0; h1 < K; h1++)
            for (unsigned o = 0; o < N; o++) {
                uint32_t f1, f2;
                unsigned q1, q2, c1 = nbi_hc_entry(&h, h0, h1, o, &f1, &q1);
                unsigned c2 = nbi_hc_entry(&now, h0, h1, o, &f2, &q2);
                nb_pose a = {0.5, 0.5, nbi_heading(h0, K)};
                nb_pose bp = {0.5 + h.off[o][0], 0.5 + h.off[o][1], nbi_heading(h1, K)};
                nb_curve cand[NB_CURVE_MAX_CANDIDATES];
                size_t m = nb_curve_to_pose(&a, &bp, u->radius, cand);
                entries++;
                shortest += q1 == 0 && c1 >= 1 && m >= 1 &&
                            fabs(nbi_hc_length(&h, f1) - cand[0].length) < 1e-9;
                least += c1 >= 1 && c2 >= 1 &&
                         fabs(nbi_hc_length(&h, f1) - nbi_hc_length(&now, f2)) < 1e-9;
                /* Where the first curves are the same word, the same cells
                 * (today's turned from its stored quarter). */
                if (c1 && c2 && nbi_hc_word(&h, f1) == nbi_hc_word(&now, f2) &&
                    nbi_hc_variant(&h, f1) == nbi_hc_variant(&now, f2)) {
                    ncells++;
                    int half = (int)h.window / 2, same = h.window == now.window;
                    for (int y = -half; y <= half && same; y++)
                        for (int x = -half; x <= half && same; x++)
                            same = nbi_hc_touches(&h, f1, q1, x, y) ==
                                   nbi_hc_touches(&now, f2, q2, x, y);
                    cells += (unsigned)same;
                }
            }
    is_int(shortest, entries, "  every entry's first curve is the shortest candidate of its move");
    is_int(least, entries, "  and as short as the first curve of today's table");
    ok(ncells > entries / 2 && cells == ncells,
       "  the same cells where the two first curves are the same word (%u of %u entries)", cells,
       ncells);
    free(np);

    /* Damage the table's own checks see. */
    struct {
        size_t at;
        uint32_t value;
        const char *what, *says;
    } lies[] = {
        {NBI_HC_WINDOW, 8, "an even window", "window 8"},
        {NBI_HC1_WORDS, 7, "a bitset of the wrong size", "words do not fit"},
        {NBI_HC1_RECSIZE, 24, "a wrong record size", "record size"},
        {NBI_HC1_CURVES, 3000, "more curves than the payload holds", "curves in a"},
        {NBI_HC_HEADER + 16, 0x7fffffff, "an index entry out of range", "index entry 0"},
        {NBI_HC_HEADER + 16 + 8 * 3 + 4, 9, "an entry of 9 curves", "index entry 3"},
        {48, 1, "a reserved header byte", "header byte 48"},
    };
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        uint8_t *q = malloc(len);
        memcpy(q, p, len);
        nbi_put32(q + lies[i].at, lies[i].value);
        ok(nbi_hitcheck_view(q, len, 1, &h, &err) == NB_ERR_FORMAT, "%s is refused", lies[i].what);
        like(err.msg, lies[i].says, "  naming it");
        free(q);
    }
    ok(nbi_hitcheck_view(p, len - 1, 1, &h, &err) == NB_ERR_FORMAT, "a truncated table is refused");
    ok(nbi_hitcheck_view(p, len, 3, &h, &err) == NB_ERR_FORMAT, "version 3 is refused");
    like(err.msg, "versions 1 and 2", "  saying which it reads");
    nbi_hitcheck_view(p, len, 1, &h, &err);
    size_t rec0 = (size_t)(h.records - p);
    uint8_t saved = p[rec0 + NBI_HC1_R_WORD];
    p[rec0 + NBI_HC1_R_WORD] = 6;
    ok(nbi_hitcheck_view(p, len, 1, &h, &err) == NB_ERR_FORMAT, "a word past RLR is refused");
    p[rec0 + NBI_HC1_R_WORD] = saved;
    p[rec0 + NBI_HC1_RECORD_HEAD] ^= 1;
    ok(nbi_hitcheck_view(p, len, 1, &h, &err) == NB_ERR_FORMAT,
       "a bit whose record's cell count disagrees is refused");
    like(err.msg, "cells marked", "  naming the count");
    p[rec0 + NBI_HC1_RECORD_HEAD] ^= 1;
    free(p);
}

static void plan_with_old(const nb_unit *u)
{
    tu_rng rng = {19};
    const char *oldp = tu_path(tu_tmpdir(), "old.nbk"), *newp = tu_path(tu_tmpdir(), "new.nbk");
    int total = 0, found = 0, dijkstra = 0, today = 0, fly = 0, frees = 0;
    for (unsigned m = 0; m < 6; m++) {
        nbb_grid g;
        tu_random_grid(&rng, 20, 20, 12, 1, &g);
        int built = um_bundle_grid_units(oldp, &g, fixture()) && um_bundle_grid_with(newp, &g, u, NBB_UNIT_ALL_CURVES);
        nbb_grid_free(&g);
        nb_bundle *ob = NULL, *nbd = NULL;
        nb_planner *op = NULL, *np = NULL;
        nb_err err;
        if (!built || nb_bundle_open(oldp, 0, NULL, &ob, &err) != NB_OK ||
            nb_planner_open(ob, u->name, &op, &err) != NB_OK ||
            nb_bundle_open(newp, 0, NULL, &nbd, &err) != NB_OK ||
            nb_planner_open(nbd, u->name, &np, &err) != NB_OK) {
            ok(0, "map %u: the bundles open (%s)", m, built ? err.msg : "not built");
            nb_planner_close(op);
            nb_bundle_close(ob);
            nb_planner_close(np);
            nb_bundle_close(nbd);
            continue;
        }
        for (unsigned k = 0; k < 12; k++) {
            long sx, sy, gx, gy;
            um_free_cell(&rng, op, 20, 20, &sx, &sy);
            um_free_cell(&rng, op, 20, 20, &gx, &gy);
            nb_pose s = {sx + 0.5, sy + 0.5, tu_below(&rng, u->headings) * 2 * M_PI / u->headings};
            nb_planner_result r = um_plan(op, &s, gx, gy, -1, NB_PLAN_DIRECTIONAL, 8, 0);
            double cost = r.status == NB_PATH_FOUND ? r.cost : INFINITY;
            char why[256];
            total++;
            found += r.status == NB_PATH_FOUND;
            if (r.status != NB_PATH_FOUND || um_path_free(ob, u, &r, &s, gx, gy, why, sizeof why))
                frees++;
            else
                diag("(%g,%g) to (%ld,%ld): %s", s.x, s.y, gx, gy, why);
            double want = um_dijkstra(ob, u, &s, gx, gy, -1, 8, 0, 1);
            if ((isinf(want) && isinf(cost)) || fabs(want - cost) < 1e-6)
                dijkstra++;
            else
                diag("(%g,%g,%g) to (%ld,%ld): old table %g, Dijkstra %g", s.x, s.y, s.heading,
                     gx, gy, cost, want);
            nb_planner_result n = um_plan(np, &s, gx, gy, -1, NB_PLAN_DIRECTIONAL, 8, 0);
            double ncost = n.status == NB_PATH_FOUND ? n.cost : INFINITY;
            today += (isinf(ncost) && isinf(cost)) || fabs(ncost - cost) < 1e-9;
            nb_planner_result f = um_plan(op, &s, gx, gy, -1, NB_PLAN_DIRECTIONAL, 8, NB_PLAN_ONTHEFLY);
            double fcost = f.status == NB_PATH_FOUND ? f.cost : INFINITY;
            fly += (isinf(fcost) && isinf(cost)) || fabs(fcost - cost) < 1e-9;
        }
        nb_planner_close(op);
        nb_bundle_close(ob);
        nb_planner_close(np);
        nb_bundle_close(nbd);
    }
    ok(found > total / 3, "random maps: %d of %d queries found a path with the old table", found,
       total);
    is_int(dijkstra, total, "  the least cost of the independent Dijkstra over every candidate");
    is_int(today, total, "  the cost found with today's table of every candidate");
    is_int(fly, total, "  the cost found computing the curves on the fly");
    is_int(frees, total, "  every path free, sampled every 1/20 of a cell");
}

/* A bit flipped with its record's count mended: only verify --deep sees. */
static void deep(void)
{
    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open(fixture(), 0, NULL, &b, &err) != NB_OK) {
        ok(0, "unit-v1.nbb opens: %s", err.msg);
        return;
    }
    ok(nbb_verify_deep(b, NULL, NULL, &err) == NB_OK, "verify --deep passes the old table");
    size_t len = 0;
    uint32_t version = 0;
    uint8_t *p = old_table(b, &len, &version);
    nbi_hitcheck h;
    nbi_hitcheck_view(p, len, 1, &h, &err);
    /* A cell of the first curve of entry 5 that it does not touch, marked. */
    uint32_t first;
    unsigned q;
    nbi_hc_entry(&h, 0, 0, 5, &first, &q);
    size_t rec = (size_t)(h.records - p) + (size_t)first * h.recsize;
    uint64_t bit = 0;
    while (nbi_hc_bit(&h, first, bit))
        bit++;
    p[rec + NBI_HC1_RECORD_HEAD + bit / 8] |= (uint8_t)(1u << (bit % 8));
    nbi_put16(p + rec + NBI_HC1_R_CELLS, (uint16_t)(nbi_get16(p + rec + NBI_HC1_R_CELLS) + 1));
    ok(nbi_hitcheck_view(p, len, 1, &h, &err) == NB_OK, "a cell marked, its count mended, reads");
    nbb_builder *w;
    const char *path = tu_path(tu_tmpdir(), "damaged.nbk");
    nb_section_info in = *nb_bundle_section_get(b, hc_index);
    in.encoding = NB_ENC_RAW; /* compressed again by the writer */
    nb_status st = nbb_builder_new(&w, &err);
    if (st == NB_OK)
        st = nbb_builder_load(w, fixture(), 0, &err);
    if (st == NB_OK)
        st = nbb_builder_add(w, &in, p, len, 1, &err);
    if (st == NB_OK)
        st = nbb_builder_write(w, path, &err);
    nbb_builder_free(w);
    nb_bundle *d;
    if (ok(st == NB_OK && in.type == NB_SEC_HITCHECK &&
               nb_bundle_open(path, 0, NULL, &d, &err) == NB_OK,
           "the damaged table written back as version %u", in.version)) {
        ok(nbb_verify_deep(d, NULL, NULL, &err) == NB_ERR_FORMAT, "verify --deep refuses it");
        like(err.msg, "from heading 0 to heading 0, neighbour 5", "  naming the entry");
        like(err.msg, "does not touch", "  and the cell");
        nb_bundle_close(d);
    } else {
        diag("%s", err.msg);
    }
    free(p);
    nb_bundle_close(b);
}

int main(void)
{
    nb_bundle *b;
    nb_err err;
    nb_unit u;
    if (!ok(nb_bundle_open(fixture(), 0, NULL, &b, &err) == NB_OK &&
                tu_unit(b, "v1car", &u, &err) == NB_OK,
            "unit-v1.nbb opens and holds unit v1car")) {
        diag("%s", err.msg);
        return done_testing();
    }
    read_and_compare(b, &u);
    nb_bundle_close(b);
    plan_with_old(&u);
    deep();
    return done_testing();
}
