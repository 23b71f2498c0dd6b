/* test_runs_patch.c: runs patched in the changed rows (runs_patch.c)
 * against runs built from the whole labelling (runs_build.c), on random
 * levels whose cells change in a band of rows (components split, merge,
 * appear, vanish and are numbered again), given the exact changed rows and
 * wider ones; an old section out of row order refused; runs built on
 * 2 to 8 threads (bands of rows apart) the bytes of those built on one;
 * and nbb_runs_check, which mkclear's update checks runs with, saying
 * "the runs of this labelling" exactly when the bytes are the built ones
 * (the built runs, mutants of them, another level's). */
#include <stdlib.h>
#include <string.h>

#include "clearance/clearance_build.h"
#include "place/runs_build.h"
#include "tap.h"
#include "testutil.h"

/* The labels of a level: 1 where a size-1 agent stands. */
static uint32_t label_of(const uint8_t *stand, uint32_t w, uint32_t h, uint32_t *label,
                         uint32_t *queue)
{
    return nbb_components_compute(stand, w, h, 1, label, queue, NULL);
}

static nbi_runs view_of(const nbb_runs *r, uint32_t w, uint32_t h)
{
    nbi_runs v;
    memset(&v, 0, sizeof v);
    v.first = r->payload + NBI_RUNS_HEADER;
    v.runs = v.first + 4 * ((size_t)r->n + 1);
    v.width = w;
    v.height = h;
    v.n = r->n;
    v.count = r->count;
    v.cells = r->cells;
    return v;
}

int main(void)
{
    tu_rng r = {0x2545f4914f6cdd1dull};
    int cases = 0, bad = 0, renumbered = 0, refused = 0, threaded = 0, threaded_bad = 0,
        checked = 0, mutants = 0, check_bad = 0;
    for (int t = 0; t < 400; t++) {
        uint32_t w = 1 + tu_below(&r, 48), h = 1 + tu_below(&r, 48), cells = w * h;
        unsigned pct = 10 + tu_below(&r, 50);
        uint8_t *s0 = malloc(cells), *s1 = malloc(cells);
        uint32_t *l0 = malloc(cells * sizeof *l0), *l1 = malloc(cells * sizeof *l1),
                 *q = malloc(cells * sizeof *q);
        for (uint32_t i = 0; i < cells; i++)
            s0[i] = tu_below(&r, 100) >= pct;
        memcpy(s1, s0, cells);
        uint32_t b0 = tu_below(&r, h), b1 = b0 + 1 + tu_below(&r, h - b0);
        for (uint32_t i = b0 * w; i < b1 * w; i++)
            if (tu_below(&r, 4) == 0)
                s1[i] = !s1[i];
        uint32_t n0 = label_of(s0, w, h, l0, q), n1 = label_of(s1, w, h, l1, q);
        /* The rows where the labels differ. */
        uint32_t y0 = h, y1 = 0;
        for (uint32_t y = 0; y < h; y++)
            if (memcmp(l0 + (size_t)y * w, l1 + (size_t)y * w, w * sizeof *l0) != 0) {
                y0 = y0 < y ? y0 : y;
                y1 = y + 1;
            }
        if (y0 > y1)
            y0 = y1 = 0;
        renumbered += y0 < b0 || y1 > b1;
        nbb_runs old, want, got;
        nb_err err;
        if (nbb_runs_build(l0, w, h, n0, &old, &err) != NB_OK ||
            nbb_runs_build(l1, w, h, n1, &want, &err) != NB_OK)
        {
            ok(0, "nbb_runs_build: %s", err.msg);
            return done_testing();
        }
        for (unsigned th = 2; th <= 8; th += 3) {
            nbb_runs par;
            threaded++;
            if (nbb_runs_build_threads(l1, w, h, n1, th, &par, &err) != NB_OK) {
                threaded_bad++;
                continue;
            }
            threaded_bad += par.len != want.len || memcmp(par.payload, want.payload, par.len) != 0;
            nbb_runs_free(&par);
        }
        uint8_t *pay = malloc(nbi_layer_bytes(cells, nbi_bits_for(n1)));
        nbb_layer_pack(w, h, n1, NULL, l1, pay);
        nbi_layer lay;
        nbb_layer_of_payload(pay, &lay);
        nbi_runs ov = view_of(&old, w, h);
        /* The exact rows, then rows widened at random. */
        for (int wide = 0; wide < 2; wide++) {
            uint32_t a = y0, z = y1;
            if (wide) {
                a = tu_below(&r, a + 1);
                z = z + tu_below(&r, h - z + 1);
            }
            cases++;
            if (nbb_runs_patch(&ov, &lay, a, z, &got, &err) != NB_OK) {
                if (!bad)
                    diag("%u x %u, rows %u to %u: %s", w, h, a, z, err.msg);
                bad++;
                continue;
            }
            if (got.len != want.len || memcmp(got.payload, want.payload, want.len) != 0 ||
                got.n != want.n || got.count != want.count || got.cells != want.cells) {
                if (!bad)
                    diag("%u x %u, rows %u to %u (edited %u to %u): not the built runs", w, h, a,
                         z, b0, b1);
                bad++;
            }
            nbb_runs_free(&got);
        }
        /* nbb_runs_check against the built bytes: it accepts them, and refuses every
         * other payload: a word changed (by one, or at random), the old level's runs (unless
         * the same bytes), or a word fewer. */
        uint64_t stand = 0;
        for (uint32_t i = 0; i < cells; i++)
            stand += l1[i] != 0;
        char msg[200];
        checked++;
        check_bad += nbb_runs_check(want.payload, want.len, l1, w, h, n1, stand, msg, sizeof msg);
        uint8_t *m = malloc(want.len);
        for (int k = 0; k < 8; k++) {
            memcpy(m, want.payload, want.len);
            size_t at = 4 * (size_t)tu_below(&r, (uint32_t)(want.len / 4));
            uint32_t v = nbi_get32(m + at);
            nbi_put32(m + at, k % 2 ? v + (k % 4 == 1 ? 1u : UINT32_MAX) : (uint32_t)tu_rand(&r));
            int same = memcmp(m, want.payload, want.len) == 0;
            mutants++;
            check_bad += nbb_runs_check(m, want.len, l1, w, h, n1, stand, msg, sizeof msg) != !same;
        }
        check_bad += nbb_runs_check(want.payload, want.len - 4, l1, w, h, n1, stand, msg,
                                    sizeof msg) != 1;
        check_bad += nbb_runs_check(old.payload, old.len, l1, w, h, n1, stand, msg, sizeof msg) !=
                     (old.len != want.len || memcmp(old.payload, want.payload, old.len) != 0);
        free(m);
        /* Two runs of one component swapped: refused, not patched. */
        for (uint32_t c = 1; c <= old.n; c++) {
            uint32_t j0 = nbi_get32(ov.first + 4 * (size_t)(c - 1)), j1 = nbi_get32(ov.first + 4 * (size_t)c);
            if (j1 - j0 < 2)
                continue;
            uint8_t *ra = old.payload + (ov.runs - old.payload) + (size_t)j0 * NBI_RUNS_RECORD;
            uint8_t tmp[NBI_RUNS_RECORD];
            memcpy(tmp, ra, sizeof tmp);
            memcpy(ra, ra + NBI_RUNS_RECORD, sizeof tmp);
            memcpy(ra + NBI_RUNS_RECORD, tmp, sizeof tmp);
            if (nbb_runs_patch(&ov, &lay, 0, 0, &got, &err) == NB_ERR_FORMAT)
                refused++;
            else
                bad++, nbb_runs_free(&got);
            break;
        }
        nbb_runs_free(&old);
        nbb_runs_free(&want);
        free(pay);
        free(s0);
        free(s1);
        free(l0);
        free(l1);
        free(q);
    }
    ok(bad == 0, "%d patches of random levels edited in a band of rows: the bytes of runs built "
       "from the whole labelling (%d with components numbered again outside the band)",
       cases, renumbered);
    ok(threaded_bad == 0, "%d runs sections built on 2, 5 and 8 threads: the bytes of those built "
       "on one", threaded);
    ok(check_bad == 0, "nbb_runs_check accepts the %d built runs sections and refuses %d "
       "mutants of them (a word changed), the words cut short and the level's runs before the "
       "edit, where their bytes differ", checked, mutants);
    /* A lie each of whose runs starts and ends where its component does, with the cells
     * counted right: component 1's two runs of row 0 listed as one across the wall between,
     * and one of component 2's three runs left out.
     *     1 1 # 1 1 # 2
     *     1 # # # 1 # 2
     *     1 1 1 1 1 # 2   */
    static const uint32_t lab[21] = {1, 1, 0, 1, 1, 0, 2, 1, 0, 0, 0, 1, 0, 2,
                                     1, 1, 1, 1, 1, 0, 2};
    static const uint32_t lie[] = {7, 3, 2, 6, 14, 0, /* first: */ 0, 4, 6,
                                   /* runs (start, before): */ 0, 0, 7, 5, 11, 6, 14, 7, 6, 12,
                                   13, 13};
    uint8_t lb[sizeof lie];
    for (size_t i = 0; i < sizeof lie / 4; i++)
        nbi_put32(lb + 4 * i, lie[i]);
    char why[200];
    ok(nbb_runs_check(lb, sizeof lb, lab, 7, 3, 2, 14, why, sizeof why) == 1 &&
           strstr(why, "run 0 (component 1) from cell (0, 0), 5 cells"),
       "nbb_runs_check refuses a run across a wall whose ends are its component's, the cells "
       "made up elsewhere (%s)", why);
    ok(renumbered > 0, "some edits numbered components again outside their band");
    ok(refused > 0, "old runs out of row order are refused (%d)", refused);
    return done_testing();
}
