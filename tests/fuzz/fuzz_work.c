/* fuzz_work.c: libFuzzer target that measures work, not just crashes
 * (issue 29): a bundle from the structure-aware mutator (mutate_bundle.c,
 * which knows the abstract graph and the levels above it, stored paths
 * that bounce included), opened from memory with a counting allocator
 * (tests/support/countalloc.c); when an HAA* workspace opens on it, HAA*
 * queries with budgets of 1, 7 and 64 expansions and none, whole and in
 * slices, for its agents between cells the input picks, at every level
 * and at level 1 alone.  Each query must report no more expansions, and
 * take no more bytes from the allocator, than the bounds of
 * work_bound.c computed from its budget and the bundle's checked sizes
 * (a sliced query: from the expansions before each step and the step's
 * own); otherwise the target aborts, as a crash does.  A query must also
 * answer NB_OK or a clean error.  Built by 'make fuzz' (FUZZ_TARGETS);
 * make check replays corpus/work, which holds bundles whose stored paths
 * bounce (tests/support/fuzz-bounce.sh made them): refused when the first
 * handle is made, and far beyond the bounds if they were not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "countalloc.h"
#include "navbake.h"
#include "work_bound.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int verbose = -1;

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_work: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

static nb_status checked(nb_status st, const nb_err *err, const char *call)
{
    if ((unsigned)st > NB_ERR_OUTSIDE || err->code != st || !memchr(err->msg, 0, sizeof err->msg) ||
        (st == NB_OK) != (err->msg[0] == '\0'))
        fail("a status or message that breaks the API's promise", call);
    return st;
}

typedef struct pick {
    uint64_t s;
} pick;

static uint64_t below(pick *p, uint64_t n)
{
    p->s = p->s * 6364136223846793005ull + 1442695040888963407ull;
    return n ? (p->s >> 33) % n : 0;
}

/* A cell where the agent may stand (the first of 32 tries), or any. */
static nb_cell cell_for(const nb_bundle *b, const nb_agent *a, pick *p)
{
    int32_t w = (int32_t)nb_map_width(b), h = (int32_t)nb_map_height(b);
    nb_cell c = {0, 0};
    for (int k = 0; k < 32; k++) {
        c.x = (int32_t)below(p, (uint64_t)w);
        c.y = (int32_t)below(p, (uint64_t)h);
        if (nb_can_stand(b, a->capability, a->size, c.x, c.y) == 1)
            break;
    }
    return c;
}

/* The cell nearest corner (cx, cy) of the map where the agent may stand, searched along
 * anti-diagonals from it (the corner itself when there is none within 64 of it). */
static nb_cell near_corner(const nb_bundle *b, const nb_agent *a, int cx, int cy)
{
    int32_t w = (int32_t)nb_map_width(b), h = (int32_t)nb_map_height(b);
    nb_cell c0 = {cx ? w - 1 : 0, cy ? h - 1 : 0};
    for (int32_t r = 0; r < 64; r++)
        for (int32_t k = 0; k <= r; k++) {
            nb_cell c = {cx ? w - 1 - k : k, cy ? h - 1 - (r - k) : r - k};
            if (c.x >= 0 && c.y >= 0 && c.x < w && c.y < h &&
                nb_can_stand(b, a->capability, a->size, c.x, c.y) == 1)
                return c;
        }
    return c0;
}

/* What one query took against its bounds; aborts beyond them. */
static void measured(const wb_haa *s, uint64_t budget, uint64_t expanded, size_t bytes,
                     const char *how)
{
    uint64_t we = wb_haa_expansions(s, budget), wbytes = wb_haa_bytes(s, budget);
    char msg[256];
    if (verbose)
        fprintf(stderr, "%s, budget %llu: %llu expansions (bound %llu), %zu bytes (bound %llu)\n",
                how, (unsigned long long)budget, (unsigned long long)expanded,
                (unsigned long long)we, bytes, (unsigned long long)wbytes);
    if (expanded > we || bytes > wbytes) {
        snprintf(msg, sizeof msg, "%s, budget %llu: %llu expansions (bound %llu), %zu bytes (bound %llu)",
                 how, (unsigned long long)budget, (unsigned long long)expanded,
                 (unsigned long long)we, bytes, (unsigned long long)wbytes);
        fail("a query beyond its bounds", msg);
    }
}

/* One query whole (max_expansions = budget) and sliced (steps of `step`, the bound after each
 * step taken from the expansions before it and the step's own). */
static void query(nb_haa *ws, tc_count *c, const wb_haa *s, const nb_haa_query *q, uint64_t budget,
                  uint64_t step)
{
    nb_err err;
    nb_haa_result r;
    nb_haa_query qb = *q;
    qb.max_expansions = budget;
    size_t live = c->live;
    tc_mark(c);
    if (checked(nb_haa_find(ws, &qb, &r, &err), &err, "nb_haa_find") == NB_OK) {
        if (verbose)
            fprintf(stderr, "(%d, %d) -> (%d, %d) size %u: level %u, %s, %zu cells\n", q->start.x,
                    q->start.y, q->goal.x, q->goal.y, q->size, r.level,
                    nb_path_status_str(r.status), r.path_len);
        measured(s, budget, r.expanded, tc_grown(c, live), "nb_haa_find");
    }
    live = c->live;
    tc_mark(c);
    int done = 0;
    uint64_t before = 0;
    nb_status st = checked(nb_haa_begin(ws, &qb, &err), &err, "nb_haa_begin");
    while (st == NB_OK && !done) {
        st = checked(nb_haa_step(ws, step, &done, &err), &err, "nb_haa_step");
        /* The expansions so far, as finish would say them, bound this step's. */
        nb_haa_result part;
        if (st == NB_OK && done && checked(nb_haa_finish(ws, &part, &err), &err, "nb_haa_finish") == NB_OK) {
            uint64_t cum = before + step;
            measured(s, budget && budget < cum ? budget : cum, part.expanded, tc_grown(c, live),
                     "nb_haa_step");
            return;
        }
        before += step;
        if (before > wb_haa_expansions(s, budget) + step)
            fail("a sliced query that does not end within its bound of expansions", NULL);
        measured(s, budget && budget < before ? budget : before, 0, tc_grown(c, live),
                 "nb_haa_step");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (verbose < 0)
        verbose = getenv("NB_FUZZ_VERBOSE") != NULL;
    tc_count c;
    nb_allocator a;
    tc_init(&c, &a);
    nb_bundle *b = NULL;
    nb_haa *ws = NULL;
    nb_err err;
    if (checked(nb_bundle_open_memory(data, size, 0, &a, &b, &err), &err, "nb_bundle_open_memory") !=
        NB_OK)
        return 0;
    wb_haa s;
    if (checked(nb_haa_open(b, &ws, &err), &err, "nb_haa_open") == NB_OK && wb_haa_sizes(b, &s)) {
        pick p = {2166136261u};
        for (size_t i = 0; i < size; i += size / 256 + 1)
            p.s = (p.s ^ data[i]) * 1099511628211ull;
        static const uint64_t budgets[] = {1, 7, 64, 0};
        size_t na = nb_agent_count(b);
        for (size_t i = 0; i < na && i < 4; i++) {
            const nb_agent *ag = nb_agent_get(b, i);
            nb_haa_query q;
            nb_haa_query_init(&q);
            nb_haa_query_agent(&q, ag);
            /* Far ends (corners across the map: the top level's searches) for every other
             * agent, ends the input picks for the rest. */
            if (i % 2 == 0) {
                int cx = (int)below(&p, 2), cy = (int)below(&p, 2);
                q.start = near_corner(b, ag, cx, cy);
                q.goal = near_corner(b, ag, !cx, !cy);
            } else {
                q.start = cell_for(b, ag, &p);
                q.goal = cell_for(b, ag, &p);
            }
            q.flags = (unsigned)below(&p, 4);
            nb_haa_set_levels(ws, below(&p, 4) == 0 ? 1 : 0);
            for (size_t k = 0; k < sizeof budgets / sizeof *budgets; k++)
                query(ws, &c, &s, &q, budgets[k], 1 + below(&p, 8));
        }
    }
    nb_haa_close(ws);
    nb_bundle_close(b);
    if (c.live != 0)
        fail("bytes left with the allocator after every handle is closed", NULL);
    return 0;
}

#ifdef NB_FUZZ_LIBFUZZER
#include "bundle_hooks.h"
#endif
