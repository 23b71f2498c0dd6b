/* queries.c: what fuzz_queries and fuzz_sqlite do with a bundle: open it
 * from memory and, when it passes what `navbake verify` checks
 * (nb_bundle_verify: every checksum and every section's structure), run
 * every query family on it with a few start and goal pairs derived from
 * the input: the level's accessors, Annotated A* (each corner rule, each
 * agent), HAA* (each flag, and on level 1 alone), the forest (each baked
 * radius and one that is not, baked and deferred), the unit planner (each
 * unit, each method), motion planning (each model, each heuristic, and
 * routes over sectors and over HAA*) and the places (nearest, line,
 * random), with small expansion limits so that an input takes
 * milliseconds.  A call must return NB_OK or a clean error (its status in
 * range, its message filled and terminated) and a result that keeps the
 * API's promises (a path inside the map, from the start to the goal);
 * anything else aborts, as a crash or a sanitizer's report does.
 *
 * The same run folds every answer into a digest (nbf_answers), so that a
 * test can ask two bundles the same questions and compare (test_convert.c),
 * and counts the calls an error of structure refused (nbf_refusals), which
 * on a bundle that verifies should be none (test_verified.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "navbake.h"
#include "queries.h"
#include "haa_of.h"

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_queries: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

/* A status from a call given err: NB_OK with the message cleared, or an
 * error with its code in err and a terminated message. */
/* NB_FUZZ_VERBOSE=1: each call's status and each family's time on
 * standard error (to see what an input reaches). */
static int verbose = -1;

/* The answers, folded into *answers (FNV-1a) when nbf_answers asks: every status and message,
 * every path cell, length and cost, every value the level's accessors give. */
static uint64_t *answers;

static void note_bytes(const void *data, size_t n)
{
    const uint8_t *p = data;
    for (size_t i = 0; answers && i < n; i++)
        *answers = (*answers ^ p[i]) * 1099511628211ull;
}
static void note(int64_t v) { note_bytes(&v, sizeof v); }
static void note_f(double v) { note_bytes(&v, sizeof v); }

/* The calls an error of structure refused (NB_ERR_FORMAT, NB_ERR_VERSION, NB_ERR_CRC) since
 * nbf_answers began, and the first of them: on a bundle that verifies, none should be. */
static unsigned refused;
void (*nbf_on_refusal)(const char *call, const nb_err *err);
static char first_refusal[NB_ERR_MSG_MAX + 64];

static nb_status check_status(nb_status st, const nb_err *err, const char *call)
{
    note_bytes(call, strlen(call));
    note(st);
    note_bytes(err->msg, strnlen(err->msg, sizeof err->msg));
    if (answers && (st == NB_ERR_FORMAT || st == NB_ERR_VERSION || st == NB_ERR_CRC)) {
        if (!refused++)
            snprintf(first_refusal, sizeof first_refusal, "%s: %s", call, err->msg);
        if (nbf_on_refusal)
            nbf_on_refusal(call, err);
    }
    if (verbose < 0)
        verbose = getenv("NB_FUZZ_VERBOSE") != NULL;
    if (verbose)
        fprintf(stderr, "%s: %s%s%s\n", call, nb_status_str(st), st ? ": " : "", st ? err->msg : "");
    if ((unsigned)st > NB_ERR_OUTSIDE)
        fail("status out of range", call);
    if (err->code != st)
        fail("err->code differs from the status returned", call);
    if (!memchr(err->msg, 0, sizeof err->msg))
        fail("unterminated message", call);
    if (st == NB_OK && err->msg[0])
        fail("a message left after NB_OK", call);
    if (st != NB_OK && !err->msg[0])
        fail("an error without a message", call);
    return st;
}

static void check_path_status(nb_path_status s, const char *call)
{
    note(s);
    if ((unsigned)s > NB_PATH_PARTIAL)
        fail("path status out of range", call);
}

/* A little state from the input, for start and goal cells. */
typedef struct pick {
    uint64_t s;
} pick;

static uint64_t next(pick *p)
{
    p->s = p->s * 6364136223846793005ull + 1442695040888963407ull;
    return p->s >> 33;
}

static long below(pick *p, long n) { return n > 0 ? (long)(next(p) % (uint64_t)n) : 0; }

/* ---------------------------------------------------------------- the level */

static void level(const nb_bundle *b, pick *p)
{
    char buf[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
    unsigned nt = nb_terrain_count(b);
    for (unsigned t = 0; t < nt + 1; t++) {
        const char *n = nb_terrain_name(b, t), *c = nb_terrain_chars(b, t);
        if (t < nt && (!n || !c))
            fail("a terrain without a name or characters", NULL);
    }
    (void)nb_obstacle_chars(b);
    nb_err err;
    nb_capability cap;
    (void)check_status(nb_capability_parse(b, "ground,swamp", &cap, &err), &err, "nb_capability_parse");
    size_t na = nb_agent_count(b);
    for (size_t i = 0; i < na; i++) {
        const nb_agent *a = nb_agent_get(b, i);
        if (!a || !memchr(a->name, 0, sizeof a->name))
            fail("an agent without a terminated name", NULL);
        (void)nb_capability_format(b, a->capability, buf, sizeof buf);
        size_t ai;
        if (nb_agent_lookup(b, a->name, &ai, NULL) != NB_OK || nb_agent_get(b, ai) != a)
            fail("nb_agent_lookup does not find an agent by its name", a->name);
    }
    uint32_t w = nb_map_width(b), h = nb_map_height(b);
    for (int k = 0; k < 8; k++) {
        long x = below(p, (long)w + 2) - 1, y = below(p, (long)h + 2) - 1;
        note(nb_map_terrain(b, x, y));
        note(nb_map_char(b, x, y));
    }
    /* Every cell of one agent's layers (the sample is 64 x 40) one time in
     * four, some cells of each agent's otherwise. */
    size_t all = below(p, 4) == 0 ? (size_t)below(p, (long)na) : SIZE_MAX;
    for (size_t i = 0; i < na && i < 8; i++) {
        const nb_agent *a = nb_agent_get(b, i);
        int cv = nb_clearance_cap(b, a->capability);
        for (int k = 0; w && h && k < (i == all ? 65536 : 64); k++) {
            uint32_t x = i == all ? (uint32_t)k % w : (uint32_t)below(p, w);
            uint32_t y = i == all ? (uint32_t)k / w : (uint32_t)below(p, h);
            if (y >= h)
                break;
            int c = nb_clearance(b, a->capability, x, y);
            if (cv >= 0 && (c < 0 || c > cv))
                fail("nb_clearance beyond its layer's cap", NULL);
            note(c);
            note(nb_can_stand(b, a->capability, a->size, x, y));
            note(nb_component(b, a->capability, a->size, x, y));
        }
        for (int k = 0; k < 4; k++) {
            nb_cell from = {(int32_t)(below(p, (long)w + 2) - 1), (int32_t)(below(p, (long)h + 2) - 1)};
            nb_cell to = {(int32_t)below(p, w), (int32_t)below(p, h)};
            note(nb_reachable(b, a->capability, a->size, from, to));
            note(nb_can_stand(b, a->capability, (unsigned)below(p, 70), from.x, from.y));
        }
    }
}

/* Start and goal cells: cells where the agent may stand (the first of up
 * to 32 tries from the input), cells from the input, corners. */
#define NPAIRS 3
static nb_cell standable(const nb_bundle *b, const nb_agent *a, pick *p, nb_cell fallback)
{
    int32_t w = (int32_t)nb_map_width(b), h = (int32_t)nb_map_height(b);
    for (int k = 0; k < 32; k++) {
        nb_cell c = {(int32_t)below(p, w), (int32_t)below(p, h)};
        if (nb_can_stand(b, a->capability, a->size, c.x, c.y) == 1)
            return c;
    }
    return fallback;
}

static void pairs(const nb_bundle *b, const nb_agent *a, pick *p, nb_cell from[NPAIRS], nb_cell to[NPAIRS])
{
    int32_t w = (int32_t)nb_map_width(b), h = (int32_t)nb_map_height(b);
    nb_cell first = {0, 0}, last = {w - 1, h - 1};
    from[0] = standable(b, a, p, first);
    to[0] = standable(b, a, p, last);
    from[1].x = (int32_t)below(p, w);
    from[1].y = (int32_t)below(p, h);
    to[1] = standable(b, a, p, first);
    from[2] = last;
    to[2].x = (int32_t)below(p, w);
    to[2].y = (int32_t)below(p, h);
}

static void check_cells(const nb_bundle *b, const nb_cell *path, size_t n, nb_cell from, nb_cell to,
                        int steps, const char *call)
{
    note((int64_t)n);
    if (path)
        note_bytes(path, n * sizeof *path);
    if (n == 0 || !path)
        fail("a path found without cells", call);
    if (path[0].x != from.x || path[0].y != from.y || path[n - 1].x != to.x || path[n - 1].y != to.y)
        fail("a path that does not join the start to the goal", call);
    for (size_t i = 0; i < n; i++) {
        if (path[i].x < 0 || path[i].y < 0 || (uint32_t)path[i].x >= nb_map_width(b) ||
            (uint32_t)path[i].y >= nb_map_height(b))
            fail("a path cell outside the map", call);
        if (steps && i && (abs(path[i].x - path[i - 1].x) > 1 || abs(path[i].y - path[i - 1].y) > 1)) {
            if (verbose)
                for (size_t k = 0; k < n; k++)
                    fprintf(stderr, "%s(%d,%d)", k ? " " : "path ", path[k].x, path[k].y);
            fail("a cell path that jumps", call);
        }
    }
}

/* ---------------------------------------------------------------- AA*, HAA* */

/* The first pair's queries again, sliced (steps of a size the query gives, so that no choice is
 * drawn from the input) and on half the expansions find took: the sliced answer must be find's,
 * the budget's NB_PATH_LIMIT with a partial path from the start that never jumps. */

static void aa_slices(const nb_bundle *b, nb_aa *aa, nb_haa *haa, nb_aa_query q, unsigned f,
                      const nb_aa_result *ar, const nb_haa_result *hr)
{
    nb_err err;
    int done = 0;
    uint64_t step = 1 + (uint64_t)(q.start.x + q.goal.y) % 64;
    nb_aa_result r;
    if (aa && ar) {
        nb_status st = nb_aa_begin(aa, &q, &err);
        while (st == NB_OK && !done)
            st = nb_aa_step(aa, step, &done, &err);
        if (st == NB_OK)
            st = nb_aa_finish(aa, &r, &err);
        if (check_status(st, &err, "nb_aa_begin/step/finish") != NB_OK || r.status != ar->status ||
            r.expanded != ar->expanded || r.path_len != ar->path_len)
            fail("a sliced AA* query that is not find's", "nb_aa_step");
        if (ar->status == NB_PATH_FOUND && ar->expanded >= 2) {
            q.max_expansions = ar->expanded / 2;
            if (check_status(nb_aa_find(aa, &q, &r, &err), &err, "nb_aa_find budget") == NB_OK) {
                if (r.status != NB_PATH_LIMIT)
                    fail("a budget below find's expansions that is not NB_PATH_LIMIT", "nb_aa_find");
                check_cells(b, r.path, r.path_len, q.start, r.path[r.path_len ? r.path_len - 1 : 0],
                            1, "nb_aa_find budget");
            }
            q.max_expansions = 0;
        }
    }
    if (haa && hr) {
        nb_haa_result h;
        done = 0;
        nb_status st = nb_haa_begin(haa, (nb_haa_query[]){haa_of(&q, f)}, &err);
        while (st == NB_OK && !done)
            st = nb_haa_step(haa, step, &done, &err);
        if (st == NB_OK)
            st = nb_haa_finish(haa, &h, &err);
        if (check_status(st, &err, "nb_haa_begin/step/finish") == NB_OK &&
            (h.status != hr->status || h.expanded != hr->expanded || h.path_len != hr->path_len))
            fail("a sliced HAA* query that is not find's", "nb_haa_step");
        if (hr->status == NB_PATH_FOUND && hr->expanded >= 2) {
            q.max_expansions = hr->expanded / 2;
            if (check_status(nb_haa_find(haa, (nb_haa_query[]){haa_of(&q, 0)}, &h, &err), &err, "nb_haa_find budget") ==
                    NB_OK &&
                h.status == NB_PATH_LIMIT)
                check_cells(b, h.path, h.path_len, q.start, h.path[h.path_len ? h.path_len - 1 : 0],
                            1, "nb_haa_find budget");
        }
    }
}

/* Runtime obstacles: an overlay of a few rectangles (from a pick of its own, so that the
 * queries the input picks stay those of the corpus), and the queries of pairs again under it:
 * answers in range, and no path cell where the overlay leaves the agent no room. */
static void overlay_searches(const nb_bundle *b, nb_aa *aa, nb_haa *haa, const pick *from)
{
    nb_err err;
    nb_overlay *ov = NULL;
    if (check_status(nb_overlay_open(b, &ov, &err), &err, "nb_overlay_open") != NB_OK)
        return;
    pick p = {from->s ^ 0x0e71a9ULL};
    long w = (long)nb_map_width(b), h = (long)nb_map_height(b);
    for (int k = 0; k < 4; k++) {
        long x = (long)below(&p, (uint32_t)w + 2) - 1, y = (long)below(&p, (uint32_t)h + 2) - 1;
        (void)check_status(nb_overlay_block(ov, x, y, 1 + (long)below(&p, 4),
                                            1 + (long)below(&p, 4), &err),
                           &err, "nb_overlay_block");
    }
    size_t na = nb_agent_count(b);
    for (size_t i = 0; i < na && i < 6; i++) {
        const nb_agent *a = nb_agent_get(b, i);
        nb_cell s[NPAIRS], t[NPAIRS];
        pairs(b, a, &p, s, t);
        for (int k = 0; k < NPAIRS; k++) {
            nb_aa_query q;
            nb_aa_query_init(&q);
            q.start = s[k];
            q.goal = t[k];
            q.size = a->size;
            q.capability = a->capability;
            q.overlay = ov;
            nb_aa_result ar;
            nb_haa_result hr;
            const nb_cell *path[2] = {NULL, NULL};
            size_t n[2] = {0, 0};
            if (aa && check_status(nb_aa_find(aa, &q, &ar, &err), &err, "nb_aa_find overlay") ==
                          NB_OK) {
                check_path_status(ar.status, "nb_aa_find overlay");
                path[0] = ar.path;
                n[0] = ar.path_len;
                for (size_t j = 0; j < n[0]; j++)
                    if (nb_overlay_can_stand(ov, a->capability, a->size, path[0][j].x,
                                             path[0][j].y) == 0)
                        fail("a path through a cell the overlay blocks", "nb_aa_find overlay");
            }
            if (haa && check_status(nb_haa_find(haa, (nb_haa_query[]){haa_of(&q, 0)}, &hr, &err), &err,
                                    "nb_haa_find overlay") == NB_OK) {
                check_path_status(hr.status, "nb_haa_find overlay");
                path[1] = hr.path;
                n[1] = hr.path_len;
                for (size_t j = 0; j < n[1]; j++)
                    if (nb_overlay_can_stand(ov, a->capability, a->size, path[1][j].x,
                                             path[1][j].y) == 0)
                        fail("a path through a cell the overlay blocks", "nb_haa_find overlay");
            }
            /* Reachability under the overlay: the repaired graph's search, whatever the bundle
             * holds, answers in range. */
            int r = 0;
            nb_haa_query hq = haa_of(&q, 0);
            if (haa && check_status(nb_haa_reachable(haa, &hq, &r, &err), &err,
                                    "nb_haa_reachable") == NB_OK &&
                r != 0 && r != 1)
                fail("an answer out of range", "nb_haa_reachable");
        }
    }
    nb_overlay_close(ov);
}

static void grid_searches(const nb_bundle *b, pick *p)
{
    nb_err err;
    nb_aa *aa = NULL;
    nb_haa *haa = NULL;
    if (check_status(nb_aa_open(b, &aa, &err), &err, "nb_aa_open") != NB_OK)
        aa = NULL;
    if (check_status(nb_haa_open(b, &haa, &err), &err, "nb_haa_open") != NB_OK)
        haa = NULL;
    if (haa) {
        nb_haa_graph g;
        nb_haa_describe(haa, &g);
        if (!g.quality || !g.placement)
            fail("nb_haa_describe without a quality or placement", NULL);
    }
    size_t na = nb_agent_count(b);
    for (size_t i = 0; i < na && i < 6; i++) {
        const nb_agent *a = nb_agent_get(b, i);
        nb_cell from[NPAIRS], to[NPAIRS];
        pairs(b, a, p, from, to);
        for (int k = 0; k < NPAIRS; k++) {
            nb_aa_query q;
            nb_aa_query_init(&q);
            q.start = from[k];
            q.goal = to[k];
            nb_aa_query_agent(&q, a); /* the agent's terrain costs, when it has any */
            /* The second pair with costs of its own (taking nothing from the input, so that
             * the corpus keeps its course). */
            static const double costs[NB_MAX_TERRAINS] = {1, 2.5, 7, 1.25, 3, 1e6};
            if (k == 1 && !q.costs)
                q.costs = costs;
            /* A corner rule and an HAA* flag each, from the input: every
             * one of them over the inputs. */
            q.corner = (nb_corner)below(p, 2);
            nb_aa_result ar;
            int haa_ok = 0;
            if (aa && check_status(nb_aa_find(aa, &q, &ar, &err), &err, "nb_aa_find") == NB_OK) {
                check_path_status(ar.status, "nb_aa_find");
                if (ar.status == NB_PATH_FOUND)
                    check_cells(b, ar.path, ar.path_len, q.start, q.goal, 1, "nb_aa_find");
                /* Every multiplier is at least 1: a path costs at least its length. */
                note_f(ar.length);
                note_f(ar.cost);
                note((int64_t)ar.expanded);
                if (ar.status == NB_PATH_FOUND && !(ar.cost >= ar.length * (1 - 1e-12)))
                    fail("nb_aa_find: a path that costs less than its length", NULL);
                if (k == 0) /* after: its path is the workspace's until the next query */
                    aa_slices(b, aa, NULL, q, 0, &ar, NULL);
            }
            static const unsigned flags[] = {0, NB_HAA_SMOOTH, NB_HAA_STRAIGHTEN,
                                             NB_HAA_SMOOTH | NB_HAA_STRAIGHTEN};
            unsigned f = flags[below(p, 4)];
            q.corner = NB_CORNER_STRICT;
            nb_haa_result r;
            if (verbose)
                fprintf(stderr, "haa: agent %s (%d,%d) -> (%d,%d) flags %u\n", a->name, q.start.x,
                        q.start.y, q.goal.x, q.goal.y, f);
            if (haa && check_status(nb_haa_find(haa, (nb_haa_query[]){haa_of(&q, f)}, &r, &err), &err, "nb_haa_find") == NB_OK) {
                haa_ok = 1;
                check_path_status(r.status, "nb_haa_find");
                if (r.status == NB_PATH_FOUND)
                    check_cells(b, r.path, r.path_len, q.start, q.goal, !(f & NB_HAA_SMOOTH), "nb_haa_find");
                /* Under terrain costs (the graph's costs for the agent's profile) too. */
                note_f(r.cell_length);
                note_f(r.cost);
                note((int64_t)r.expanded);
                if (r.status == NB_PATH_FOUND && !(r.cost >= r.cell_length * (1 - 1e-12)))
                    fail("nb_haa_find: a path that costs less than its length", NULL);
            }
            if (k == 0 && haa_ok)
                aa_slices(b, NULL, haa, q, f, NULL, &r);
        }
    }
    /* A query off the map and one of size 0: clean errors. */
    if (aa) {
        nb_aa_query q;
        nb_aa_query_init(&q);
        q.capability = na ? nb_agent_get(b, 0)->capability : 1;
        q.start.x = -1;
        q.goal.x = (int32_t)nb_map_width(b);
        nb_aa_result r;
        (void)check_status(nb_aa_find(aa, &q, &r, &err), &err, "nb_aa_find off the map");
        q.start.x = q.goal.x = 0;
        q.size = 0;
        (void)check_status(nb_aa_find(aa, &q, &r, &err), &err, "nb_aa_find size 0");
    }
    /* HAA* on level 1 alone (the levels above the graph are checked when the workspace is
     * made, whatever a query searches). */
    if (haa && na) {
        nb_aa_query q;
        nb_aa_query_init(&q);
        nb_aa_query_agent(&q, nb_agent_get(b, 0));
        q.goal.x = (int32_t)nb_map_width(b) - 1;
        q.goal.y = (int32_t)nb_map_height(b) - 1;
        nb_haa_set_levels(haa, 1);
        nb_haa_result r;
        if (check_status(nb_haa_find(haa, (nb_haa_query[]){haa_of(&q, 0)}, &r, &err), &err,
                         "nb_haa_find levels 1") == NB_OK)
            check_path_status(r.status, "nb_haa_find levels 1");
        nb_haa_set_levels(haa, 0);
    }
    overlay_searches(b, aa, haa, p);
    nb_haa_close(haa);
    nb_aa_close(aa);
}

/* ---------------------------------------------------------------- optimal layers */

static void optimal(const nb_bundle *b, pick *p)
{
    nb_err err;
    nb_sg *sg = NULL;
    /* A node cap now and then, so that the limit's partial paths are run. */
    size_t cap = below(p, 4) == 0 ? 1 + (size_t)below(p, 16) : 0;
    if (check_status(nb_sg_open(b, &sg, &err), &err, "nb_sg_open") != NB_OK)
        return;
    nb_sg_set_max_nodes(sg, cap);
    size_t na = nb_agent_count(b);
    for (size_t i = 0; i < na && i < 6; i++) {
        const nb_agent *a = nb_agent_get(b, i);
        nb_cell from[NPAIRS], to[NPAIRS];
        pairs(b, a, p, from, to);
        for (int k = 0; k < NPAIRS; k++) {
            nb_sg_query q;
            nb_sg_query_init(&q);
            q.start = from[k];
            q.goal = to[k];
            q.size = a->size;
            q.capability = a->capability;
            q.corner = (nb_corner)below(p, 2);
            q.max_expansions = below(p, 4) == 0 ? (uint64_t)below(p, 8) : 0;
            nb_sg_result r;
            if (below(p, 2)) {
                if (check_status(nb_sg_find(sg, &q, &r, &err), &err, "nb_sg_find") != NB_OK)
                    continue;
            } else { /* sliced */
                int done = 0;
                nb_status st = check_status(nb_sg_begin(sg, &q, &err), &err, "nb_sg_begin");
                while (st == NB_OK && !done)
                    st = check_status(nb_sg_step(sg, 1 + (uint64_t)below(p, 3), &done, &err), &err,
                                      "nb_sg_step");
                if (st != NB_OK ||
                    check_status(nb_sg_finish(sg, &r, &err), &err, "nb_sg_finish") != NB_OK)
                    continue;
            }
            check_path_status(r.status, "nb_sg_find");
            note_f(r.length);
            if (r.status == NB_PATH_FOUND)
                check_cells(b, r.path, r.path_len, q.start, q.goal, 1, "nb_sg_find");
        }
    }
    nb_sg_close(sg);
}

/* ---------------------------------------------------------------- forests */

static void forests(const nb_bundle *b, pick *p)
{
    nb_err err;
    nb_forest *f;
    if (check_status(nb_forest_open(b, &f, &err), &err, "nb_forest_open") != NB_OK)
        return;
    nb_forest_ws *ws;
    if (check_status(nb_forest_ws_open(f, &ws, &err), &err, "nb_forest_ws_open") != NB_OK) {
        nb_forest_close(f);
        return;
    }
    double bounds[4] = {-10, -10, 110, 70};
    int has_bounds = nb_forest_bounds(f, bounds);
    size_t n = nb_forest_circle_count(f);
    for (size_t i = 0; i < n && i < 4; i++)
        if (!nb_forest_circle_get(f, i))
            fail("nb_forest_circle NULL before the end", NULL);
    unsigned nr = nb_forest_radius_count(f);
    double radii[8];
    unsigned k = 0;
    for (unsigned i = 0; i < nr && k < 4; i++) {
        radii[k++] = nb_forest_radius_get(f, i);
        nb_forest_graph_info gi;
        (void)check_status(nb_forest_graph(f, i, &gi, &err), &err, "nb_forest_graph");
        size_t ri;
        (void)check_status(nb_forest_radius_lookup(f, radii[k - 1], &ri, &err), &err,
                           "nb_forest_radius_lookup");
    }
    radii[k++] = 0.25; /* not baked: the deferred search */
    for (int q = 0; q < 2; q++) {
        nb_vec2 s, g;
        double bw = bounds[2] - bounds[0], bh = bounds[3] - bounds[1];
        s.x = bounds[0] + bw * (double)below(p, 1001) / 1000;
        s.y = bounds[1] + bh * (double)below(p, 1001) / 1000;
        g.x = bounds[0] + bw * (double)below(p, 1001) / 1000;
        g.y = bounds[1] + bh * (double)below(p, 1001) / 1000;
        if (!has_bounds || !(isfinite(bw) && isfinite(bh))) {
            s.x = (double)below(p, 100);
            s.y = (double)below(p, 60);
            g.x = (double)below(p, 100);
            g.y = (double)below(p, 60);
        }
        for (unsigned i = 0; i < k; i++)
            for (int deferred = 0; deferred < 2; deferred++) {
                unsigned flags = deferred ? NB_FOREST_DEFERRED : 0;
                if (below(p, 8) == 0)
                    flags |= below(p, 2) ? NB_FOREST_NO_PRUNE : NB_FOREST_PLAIN;
                nb_forest_query fq;
                nb_forest_result r;
                nb_forest_query_init(&fq);
                fq.start = s;
                fq.goal = g;
                fq.agent_radius = radii[i];
                fq.flags = flags;
                if (check_status(nb_forest_find(ws, &fq, &r, &err), &err, "nb_forest_find") ==
                    NB_OK) {
                    check_path_status(r.status, "nb_forest_find");
                    note_f(r.length);
                    if (r.status == NB_PATH_FOUND) {
                        if (!r.segments || r.segment_len == 0)
                            fail("a forest path without segments", NULL);
                        nb_pose pose;
                        (void)nb_segments_sample(r.segments, r.segment_len, r.length / 2, &pose);
                    }
                }
            }
    }
    nb_forest_ws_close(ws);
    nb_forest_close(f);
}

/* ---------------------------------------------------------------- units */

static void units(const nb_bundle *b, pick *p)
{
    nb_err err;
    size_t nu = nb_unit_count(b);
    long w = nb_map_width(b), h = nb_map_height(b);
    for (size_t i = 0; i < nu && i < 3; i++) {
        nb_unit u;
        if (check_status(nb_unit_get(b, i, &u, &err), &err, "nb_unit_get") != NB_OK)
            continue;
        size_t ui;
        nb_unit again;
        /* The first unit of the name (a crafted bundle may name two alike). */
        if (check_status(nb_unit_lookup(b, u.name, &ui, &err), &err, "nb_unit_lookup") == NB_OK &&
            (ui > i || (nb_unit_get(b, ui, &again, &err) == NB_OK && strcmp(again.name, u.name))))
            fail("nb_unit_lookup gives a unit of another name", u.name);
        nb_planner *pl;
        if (check_status(nb_planner_open(b, u.name, &pl, &err), &err, "nb_planner_open") != NB_OK)
            continue;
        /* Two methods each time, from the input; the curves computed
         * instead of read one time in sixteen (it is slow). */
        int m0 = (int)below(p, 4), m1 = (m0 + 1 + (int)below(p, 3)) % 4;
        for (int k = 0; k < 2; k++) {
            int m = k ? m1 : m0;
            nb_planner_query q;
            nb_planner_query_init(&q);
            q.start.x = (double)below(p, w) + 0.5;
            q.start.y = (double)below(p, h) + 0.5;
            q.start.heading = (double)below(p, 8) * (M_PI / 4);
            q.goal.x = below(p, w);
            q.goal.y = below(p, h);
            q.goal_heading = below(p, 3) == 0 ? (int)below(p, (long)u.headings) : -1;
            q.method = (nb_plan_method)m;
            q.flags = (unsigned)below(p, 8) & ~(below(p, 16) ? NB_PLAN_ONTHEFLY : 0u);
            q.max_expansions = q.flags & NB_PLAN_ONTHEFLY ? 6 : 100;
            if (below(p, 4) == 0)
                q.neighbourhood = below(p, 2) ? 8 : 24;
            nb_planner_result r;
            if (check_status(nb_planner_find(pl, &q, &r, &err), &err, "nb_planner_find") == NB_OK) {
                check_path_status(r.status, "nb_planner_find");
                note_f(r.length);
                if (r.status == NB_PATH_FOUND) {
                    if (r.segment_len && !r.segments)
                        fail("planner segments missing", NULL);
                    (void)nb_planner_walkable(pl, r.segments, r.segment_len);
                    nb_pose pose;
                    (void)nb_segments_sample(r.segments, r.segment_len, r.length / 2, &pose);
                } else if (!r.reason) {
                    fail("a planner result without a reason", NULL);
                }
            }
        }
        (void)nb_planner_blocked(pl, below(p, w + 2) - 1, below(p, h + 2) - 1);
        if (!nb_planner_unit(pl))
            fail("nb_planner_unit NULL", NULL);
        nb_planner_close(pl);
    }
}

/* ---------------------------------------------------------------- motion */

static void route_step(void *ctx, const nb_motion_result *segment)
{
    (void)ctx;
    check_path_status(segment->status, "nb_motion_route_find segment");
}

static void motion(const nb_bundle *b, pick *p)
{
    nb_err err;
    long w = nb_map_width(b), h = nb_map_height(b);
    /* One model (from the input) has its workspace built for routes. */
    size_t routes = (size_t)below(p, 3);
    for (size_t i = 0, models = 0; i < nb_bundle_section_count(b) && models < 3; i++) {
        const nb_section_info *in = nb_bundle_section_get(b, i);
        if (in->type != NB_SEC_MODEL)
            continue;
        int route = models++ == routes;
        nb_model *m;
        if (check_status(nb_model_open(b, in->name, &m, &err), &err, "nb_model_open") != NB_OK)
            continue;
        unsigned H = nb_model_headings(m), S = nb_model_speeds(m);
        for (unsigned hd = 0; hd < H; hd++) {
            int dx, dy;
            const int8_t *cells;
            nb_model_offset(m, hd, &dx, &dy);
            (void)nb_model_sweep(m, hd, &cells);
        }
        for (unsigned l = 0; l < S; l++) {
            size_t lv;
            if (!nb_model_speed_name(m, l) ||
                nb_model_speed_lookup(m, nb_model_speed_name(m, l), &lv, NULL) != NB_OK || lv != l)
                fail("a speed not found by its name", NULL);
        }
        nb_perimeter *per = NULL;
        if (check_status(nb_perimeter_open(b, m, &per, &err), &err, "nb_perimeter_open") != NB_OK)
            per = NULL;
        nb_motion_state g = {(int32_t)below(p, w), (int32_t)below(p, h), NB_HEADING_ANY,
                             (uint16_t)nb_model_stop(m)};
        if (per)
            for (int k = 0; k < 16; k++) {
                nb_motion_state s = {g.x + (int32_t)below(p, 41) - 20, g.y + (int32_t)below(p, 41) - 20,
                                     (uint16_t)below(p, H), (uint16_t)below(p, S)};
                nb_motion_state gg = g;
                if (below(p, 2))
                    gg.heading = (uint16_t)below(p, H);
                if (below(p, 4) == 0)
                    gg.speed = below(p, 2) ? NB_SPEED_ANY : (uint16_t)below(p, S);
                double v;
                note(nb_perimeter_lookup(per, &s, &gg, &v));
                note_f(v);
                note(nb_perimeter_extended(per, &s, &gg, &v));
                note_f(v);
            }
        nb_capability cap = 0xffffffffu;
        unsigned size = 1;
        if (nb_agent_count(b)) {
            const nb_agent *a = nb_agent_get(b, (size_t)below(p, (long)nb_agent_count(b)));
            cap = a->capability;
            size = a->size;
        }
        nb_motion *ws = NULL;
        int opened = check_status(nb_motion_open(b, m, per, cap, size, &ws, &err), &err,
                                  "nb_motion_open") == NB_OK;
        if (opened && route &&
            check_status(nb_motion_use_sectors(ws, 6, &err), &err, "nb_motion_use_sectors") !=
                NB_OK) {
            nb_motion_close(ws);
            opened = 0;
        }
        if (opened) {
            for (int k = 0; k < 2; k++) {
                nb_motion_query q;
                nb_motion_query_init(&q);
                q.start.x = (int32_t)below(p, w);
                q.start.y = (int32_t)below(p, h);
                q.start.heading = (uint16_t)below(p, H);
                q.start.speed = (uint16_t)nb_model_stop(m);
                q.goal.x = (int32_t)below(p, w);
                q.goal.y = (int32_t)below(p, h);
                q.goal.heading = below(p, 2) ? NB_HEADING_ANY : (uint16_t)below(p, H);
                q.goal.speed = (uint16_t)nb_model_stop(m);
                if (q.goal.heading == NB_HEADING_ANY && below(p, 3) == 0)
                    q.goal.speed = NB_SPEED_ANY;
                q.heuristic = (nb_motion_heuristic)below(p, NB_MH_COUNT);
                q.max_expansions = 200;
                q.weight = below(p, 3) == 0 ? 1.5 : 1;
                q.truncate = below(p, 4) == 0 ? 2 : 0;
                q.heading_classes = below(p, 4) == 0 ? 1 : 0;
                nb_motion_result r;
                if (check_status(nb_motion_find(ws, &q, &r, &err), &err, "nb_motion_find") == NB_OK) {
                    check_path_status(r.status, "nb_motion_find");
                    note_f(r.cost);
                    note((int64_t)r.path_len);
                    size_t len;
                    const nb_motion_state *path = (len = r.path_len, r.path);
                    for (size_t j = 0; path && j < len; j++)
                        if (path[j].x < 0 || path[j].y < 0 || path[j].x >= w || path[j].y >= h)
                            fail("a motion path state outside the map", NULL);
                    /* The same search in slices of a size the query gives: find's answer. */
                    nb_motion_result rs;
                    int done = 0;
                    nb_status st = nb_motion_begin(ws, &q, &err);
                    while (st == NB_OK && !done)
                        st = nb_motion_step(ws, 1 + (uint64_t)q.start.x % 16, &done, &err);
                    st = st == NB_OK ? nb_motion_finish(ws, &rs, &err) : st;
                    if (check_status(st, &err, "nb_motion_begin/advance/finish") != NB_OK ||
                        rs.status != r.status || rs.expanded != r.expanded || rs.path_len != r.path_len)
                        fail("a sliced motion search that is not find's", "nb_motion_step");
                }
                (void)nb_motion_standable(ws, q.start.x, q.start.y);
                nb_motion_state to;
                double cost;
                (void)nb_motion_action(ws, &q.start, (int)below(p, 5) - 2, (unsigned)below(p, S), &to, &cost);
                q.max_expansions = 100;
                for (int kind = 0; route && k == 0 && kind < 2; kind++) {
                    q.abstraction = (nb_route_abstraction)kind;
                    if (kind && check_status(nb_motion_use_haa(ws, &err), &err, "nb_motion_use_haa") != NB_OK)
                        continue;
                    size_t segs;
                    if (check_status(nb_motion_route_find(ws, &q, 3, route_step, NULL, &r, &segs, &err),
                                     &err, "nb_motion_route_find") == NB_OK)
                        check_path_status(r.status, "nb_motion_route_find");
                }
            }
            nb_motion_close(ws);
        }
        nb_perimeter_close(per);
        nb_model_close(m);
    }
}

/* ---------------------------------------------------------------- places */

static void places(const nb_bundle *b, pick *p)
{
    nb_err err;
    nb_place *pl;
    if (check_status(nb_place_open(b, &pl, &err), &err, "nb_place_open") != NB_OK)
        return;
    int32_t w = (int32_t)nb_map_width(b), h = (int32_t)nb_map_height(b);
    size_t na = nb_agent_count(b);
    for (size_t i = 0; i < na && i < 6; i++) {
        const nb_agent *a = nb_agent_get(b, i);
        nb_cell from[NPAIRS], to[NPAIRS];
        pairs(b, a, p, from, to);
        nb_nearest_query nq;
        nb_nearest_query_init(&nq);
        nb_nearest_query_agent(&nq, a);
        nq.point = from[1];
        nq.reachable = (int)below(p, 2);
        nq.start = from[0];
        nq.radius = below(p, 4) == 0 ? INFINITY : (double)below(p, 16);
        nb_nearest_result nr;
        if (check_status(nb_nearest_find(pl, &nq, &nr, &err), &err, "nb_nearest_find") == NB_OK) {
            check_path_status(nr.status, "nb_nearest_find");
            note(nr.cell.x);
            note(nr.cell.y);
            if (nr.status == NB_PATH_FOUND && (nr.cell.x < 0 || nr.cell.y < 0 || nr.cell.x >= w ||
                                               nr.cell.y >= h))
                fail("a nearest cell outside the map", "nb_nearest_find");
        }
        nb_line_query lq;
        nb_line_query_init(&lq);
        nb_line_query_agent(&lq, a);
        lq.start.x = from[0].x;
        lq.start.y = from[0].y;
        lq.goal.x = to[0].x + (double)below(p, 2) / 2;
        lq.goal.y = to[0].y;
        nb_line_result lr;
        if (check_status(nb_line_find(pl, &lq, &lr, &err), &err, "nb_line_find") == NB_OK) {
            check_path_status(lr.status, "nb_line_find");
            note_f(lr.t);
            note(lr.blocking.x);
            note(lr.blocking.y);
        }
        nb_random_query rq;
        nb_random_query_init(&rq);
        nb_random_query_agent(&rq, a);
        rq.reachable = (int)below(p, 2);
        rq.start = from[0];
        rq.seed = (uint64_t)below(p, 1 << 30);
        nb_random_result rr;
        if (check_status(nb_random_find(pl, &rq, &rr, &err), &err, "nb_random_find") == NB_OK) {
            check_path_status(rr.status, "nb_random_find");
            note(rr.cell.x);
            note(rr.cell.y);
            note((int64_t)rr.cells);
            if (rr.status == NB_PATH_FOUND && (rr.cell.x < 0 || rr.cell.y < 0 || rr.cell.x >= w ||
                                               rr.cell.y >= h))
                fail("a random cell outside the map", "nb_random_find");
        }
    }
    nb_place_close(pl);
}

/* ---------------------------------------------------------------- all */

int nbf_verified(const nb_bundle *b)
{
    nb_err err;
    return check_status(nb_bundle_verify(b, &err), &err, "nb_bundle_verify") == NB_OK;
}

/* Every family on b, the choices drawn from seed. */
static void run_families(const nb_bundle *b, uint64_t seed)
{
    pick p = {seed};
    void (*family[])(const nb_bundle *, pick *) = {level, grid_searches, optimal, forests, units,
                                                   motion, places};
    static const char *const names[] = {"level", "grid searches", "optimal", "forests", "units",
                                        "motion", "places"};
    for (size_t i = 0; i < sizeof family / sizeof *family; i++) {
        clock_t t0 = clock();
        family[i](b, &p);
        if (verbose)
            fprintf(stderr, "time %s: %.2f ms\n", names[i], 1000.0 * (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
}

uint64_t nbf_answers(const nb_bundle *b, uint64_t seed)
{
    uint64_t digest = 14695981039346656037ull;
    answers = &digest;
    refused = 0;
    first_refusal[0] = '\0';
    run_families(b, seed);
    answers = NULL;
    return digest;
}

unsigned nbf_refusals(const char **first)
{
    if (first)
        *first = first_refusal;
    return refused;
}

void nbf_queries(const uint8_t *data, size_t size)
{
    nb_bundle *b;
    nb_err err;
    if (check_status(nb_bundle_open_memory(data, size, 0, NULL, &b, &err), &err,
                     "nb_bundle_open_memory") != NB_OK)
        return;
    if (nbf_verified(b)) {
        uint64_t seed = 2166136261u;
        size_t stride = size / 512 + 1;
        for (size_t i = 0; i < size; i += stride)
            seed = (seed ^ data[i]) * 1099511628211ull;
        run_families(b, seed);
    }
    nb_bundle_close(b);
}
