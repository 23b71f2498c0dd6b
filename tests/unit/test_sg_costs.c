/* test_sg_costs.c: the optimal layer with terrain costs (nb_sg_find with
 * an agent's costs) against Annotated A* with the same costs.
 *
 * The layer customized to the query's cost profile answers every query
 * with a least-cost path (lib/runtime/subgoal/sgcsearch.c says why).  On
 * every scenario line of three maps of ../shared/maps with several
 * terrains (two with swamp and water, one with water at the sea's edge),
 * for an agent of {ground, swamp, water} of size 1 under the strict
 * corner rule and two cost profiles, and on a sample of the lines (every
 * line with NB_SGC_EVERY=1, which make check-scen sets) for sizes 1 and 2
 * under both corner rules:
 *  - every query is answered (no refusal, no fallback), with Annotated
 *    A*'s status and cost, and a path legal step by step from start to
 *    goal that costs what it says, recomputed here;
 *  - sliced in steps of a few nodes, the same answer;
 *  - asked for a partial path, Annotated A*'s status, cost and end;
 *  - the same on pairs of random cells of each map, half of them ending in
 *    swamp or water (scenario lines end on ground).
 * The sample level of data/ is used the same way with random pairs (some
 * cut off, for partial paths), against a plain Dijkstra with the costs.
 *
 * Under an edited overlay (edited): the same queries again after each edit,
 * each against Annotated A* under the overlay as it stands (the layer keeps
 * what it made for an overlay while its version stays).
 *
 * Under overlays (covered): on the same three maps and two profiles, each
 * query gets an overlay of its own, 1 to 100 rectangles of 1 x 1 to 20 x 20
 * cells, up to three of them on the query's least-cost path without the
 * overlay, the others anywhere: the layer answers (no refusal, fallback
 * 0) with Annotated A*'s status and cost under the same overlay and
 * costs, by a path legal under the overlay that costs what it says,
 * recomputed here; one query in seven again in slices.  Every scenario
 * line at size 1 under the strict rule with NB_SGC_EVERY=1, one line in
 * eight otherwise; a sample of sizes 2 and the weak rule.
 *
 * Partial paths under overlays: on the same maps and profiles, the goal of
 * a scenario line walled in by a square ring of blocks (and 0 to 99 more
 * rectangles anywhere), asked for a partial path: the layer answers
 * (fallback 0), ending at the cell a breadth-first search over the map
 * with the blocks as walls finds reachable nearest the goal (octile; ties:
 * the least y, then the least x), NB_PATH_PARTIAL unless that is the goal,
 * by a legal path costing Annotated A*'s least cost to that cell under the
 * same overlay and costs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clearance/clearance_build.h"
#include "subgoal/subgoal_build.h"
#include "brute.h"
#include "testutil.h"
#include "shapes.h"

static nbi_legend legend;

#define CAP 7u /* ground, swamp, water in the default legend */
static const unsigned sizes[] = {1, 2};
/* Two profiles: swamp and water dear; swamp very dear and water a little. */
static double profile[2][NB_MAX_TERRAINS];

struct tally {
    long runs, answered, refused, found, bad, bad_refuse, bad_path, sliced_bad, bad_partial, partials;
};

/* What p costs under cost when every step is legal for the query's agent, -1 otherwise. */
static double path_cost(const nbb_grid *g, const nb_sg_query *q, const double *cost,
                        const nb_cell *p, size_t n)
{
    enum brute_corner rule = q->corner == NB_CORNER_WEAK ? BRUTE_WEAK : BRUTE_STRICT;
    double c = 0;
    for (size_t i = 1; i < n; i++) {
        if (!brute_step_ok(&legend, g, q->capability, q->size, rule, p[i - 1].x, p[i - 1].y,
                           p[i].x, p[i].y))
            return -1;
        c += (p[i - 1].x != p[i].x && p[i - 1].y != p[i].y ? sqrt(2.0) : 1.0) *
             brute_square_cost(&legend, g, cost, q->size, p[i].x, p[i].y);
    }
    return c;
}

static int same_cost(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (1 + fabs(b));
}

/* The answer of a sliced query: its status and result. */
static nb_status sliced(nb_sg *sg, const nb_sg_query *q, nb_sg_result *r)
{
    nb_err err;
    int done = 0;
    nb_status st = nb_sg_begin(sg, q, &err);
    for (uint64_t k = 1; st == NB_OK && !done; k++)
        st = nb_sg_step(sg, 1 + k % 5, &done, &err);
    if (st == NB_OK)
        st = nb_sg_finish(sg, r, &err);
    return st;
}

/* Annotated A*'s query for the layer's sq, with the costs and overlay given. */
static nb_aa_query aa_of(const nb_sg_query *sq, const double *cost, const nb_overlay *ov)
{
    nb_aa_query aq;
    nb_aa_query_init(&aq);
    aq.start = sq->start;
    aq.goal = sq->goal;
    aq.size = sq->size;
    aq.capability = sq->capability;
    aq.corner = sq->corner;
    aq.costs = cost;
    aq.overlay = ov;
    return aq;
}

/* One query with costs; want_cost < 0: Annotated A*'s answer is the reference. */
static void one(nb_sg *sg, nb_aa *aa, const nbb_grid *g, nb_sg_query *sq, const double *cost,
                struct tally *t, const char *name, int slice, double want_cost)
{
    nb_err err;
    nb_sg_result sr;
    nb_aa_query aq = aa_of(sq, cost, NULL);
    nb_aa_result ar;
    if (nb_aa_find(aa, &aq, &ar, &err) != NB_OK) {
        if (t->bad++ < 3)
            diag("%s: Annotated A*: %s", name, err.msg);
        return;
    }
    nb_path_status want = ar.status;
    /* On the sample level a plain Dijkstra's cost (want_cost; -2: none) checks A* first. */
    if ((want_cost >= 0 ? ar.status != NB_PATH_FOUND || !same_cost(ar.cost, want_cost)
                        : want_cost < -1.5 && ar.status == NB_PATH_FOUND) &&
        t->bad++ < 3)
        diag("%s: Annotated A* %s cost %g, Dijkstra %g", name, nb_path_status_str(ar.status),
             ar.cost, want_cost);
    double ref = want == NB_PATH_FOUND ? ar.cost : 0;
    sq->costs = cost;
    t->runs++;
    nb_status st = nb_sg_find(sg, sq, &sr, &err);
    if (st == NB_ERR_NOTFOUND || (st == NB_OK && sr.fallback)) {
        t->refused++;
        if (t->bad_refuse++ < 3)
            diag("%s: (%d, %d) -> (%d, %d) size %u: %s, want an answer from the layer", name,
                 sq->start.x, sq->start.y, sq->goal.x, sq->goal.y, sq->size,
                 st == NB_OK ? "Annotated A* answered" : err.msg);
    } else if (st != NB_OK) {
        if (t->bad++ < 3)
            diag("%s: %s", name, err.msg);
        return;
    } else {
        t->answered++;
        if (sr.status != want || (want == NB_PATH_FOUND && !same_cost(sr.cost, ref))) {
            if (t->bad++ < 3)
                diag("%s: (%d, %d) -> (%d, %d) size %u corner %d: %s cost %.9g, Annotated A* "
                     "%s cost %.9g", name, sq->start.x, sq->start.y, sq->goal.x, sq->goal.y,
                     sq->size, (int)sq->corner, nb_path_status_str(sr.status), sr.cost,
                     nb_path_status_str(want), ref);
        } else if (want == NB_PATH_FOUND) {
            t->found++;
            double c = path_cost(g, sq, cost, sr.path, sr.path_len);
            int ends = sr.path_len >= 1 && sr.path[0].x == sq->start.x &&
                       sr.path[0].y == sq->start.y && sr.path[sr.path_len - 1].x == sq->goal.x &&
                       sr.path[sr.path_len - 1].y == sq->goal.y;
            if ((!ends || c < 0 || !same_cost(c, sr.cost)) && t->bad_path++ < 3)
                diag("%s: a path of %zu cells, recomputed cost %g, said %g", name, sr.path_len,
                     c, sr.cost);
        }
    }
    if (slice) {
        /* A partial path: Annotated A*'s status, cost and end (the goal when it is reached). */
        nb_sg_query pq = *sq;
        pq.partial = 1;
        aq.partial = 1;
        nb_sg_result pr;
        if (nb_aa_find(aa, &aq, &ar, &err) != NB_OK || nb_sg_find(sg, &pq, &pr, &err) != NB_OK ||
            pr.fallback || pr.status != ar.status ||
            ((ar.status == NB_PATH_FOUND || ar.status == NB_PATH_PARTIAL) &&
             (!same_cost(pr.cost, ar.cost) || pr.path_len < 1 ||
              pr.path[pr.path_len - 1].x != ar.path[ar.path_len - 1].x ||
              pr.path[pr.path_len - 1].y != ar.path[ar.path_len - 1].y))) {
            if (t->bad_partial++ < 3)
                diag("%s: (%d, %d) -> (%d, %d) partial: %s cost %g, Annotated A* %s cost %g", name,
                     sq->start.x, sq->start.y, sq->goal.x, sq->goal.y,
                     nb_path_status_str(pr.status), pr.cost, nb_path_status_str(ar.status),
                     ar.cost);
        }
        t->partials += ar.status == NB_PATH_PARTIAL;
        nb_sg_result r2;
        nb_status st2 = sliced(sg, sq, &r2);
        if ((st2 != st || (st == NB_OK && (r2.status != sr.status || r2.cost != sr.cost))) &&
            t->sliced_bad++ < 3)
            diag("%s: sliced: status %d, cost %g (find: %d, %g)", name, (int)st2, r2.cost,
                 (int)st, sr.cost);
    }
}

/* A rectangle of 1 x 1 to 20 x 20 cells round (cx, cy), clipped to the map. */
static void block_near(nb_overlay *ov, tu_rng *r, const nbb_grid *g, long cx, long cy)
{
    long bw = 1 + (long)tu_below(r, 20), bh = 1 + (long)tu_below(r, 20);
    long x = cx - (long)tu_below(r, (uint32_t)bw), y = cy - (long)tu_below(r, (uint32_t)bh);
    x = x < 0 ? 0 : x;
    y = y < 0 ? 0 : y;
    bw = x + bw > (long)g->width ? (long)g->width - x : bw;
    bh = y + bh > (long)g->height ? (long)g->height - y : bh;
    nb_err err;
    if (nb_overlay_block(ov, x, y, bw, bh, &err) != NB_OK)
        diag("block %ld,%ld,%ld,%ld: %s", x, y, bw, bh, err.msg);
}

/* 1 when every cell of p is one the agent may stand on under ov and each diagonal step's two
 * cardinal cells are as the corner rule asks (the grid's own rules are path_cost's). */
static int overlay_ok(const nb_overlay *ov, const nb_sg_query *q, const nb_cell *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (nb_overlay_can_stand(ov, q->capability, q->size, p[i].x, p[i].y) != 1)
            return 0;
        if (i && p[i].x != p[i - 1].x && p[i].y != p[i - 1].y) {
            int h = nb_overlay_can_stand(ov, q->capability, q->size, p[i].x, p[i - 1].y) == 1;
            int v = nb_overlay_can_stand(ov, q->capability, q->size, p[i - 1].x, p[i].y) == 1;
            if (q->corner == NB_CORNER_WEAK ? !(h || v) : !(h && v))
                return 0;
        }
    }
    return 1;
}

struct ctally {
    long runs, found, cut, onpath, bad, refused, bad_path, sliced_bad;
};

/* One query with costs under a random overlay made for it, against Annotated A*. */
static void one_covered(nb_sg *sg, nb_aa *aa, nb_overlay *ov, const nbb_grid *g, tu_rng *r,
                        nb_sg_query *sq, const double *cost, struct ctally *t, const char *name,
                        int slice)
{
    nb_err err;
    nb_sg_result sr;
    nb_aa_result ar;
    nb_overlay_clear(ov);
    sq->costs = cost;
    sq->overlay = NULL;
    size_t n = 0;
    nb_cell *base = NULL;
    double base_cost = 0;
    if (nb_sg_find(sg, sq, &sr, &err) == NB_OK && sr.status == NB_PATH_FOUND) {
        n = sr.path_len;
        base_cost = sr.cost;
        base = malloc(n * sizeof *base);
        memcpy(base, sr.path, n * sizeof *base);
    }
    unsigned rects = 1 + tu_below(r, 100), on = tu_below(r, 4);
    for (unsigned i = 0; i < rects; i++) {
        if (n && i < on) {
            size_t k = n > 2 && tu_below(r, 10) ? 1 + tu_below(r, (uint32_t)(n - 2))
                                                 : tu_below(r, (uint32_t)n);
            block_near(ov, r, g, base[k].x, base[k].y);
        } else {
            block_near(ov, r, g, (long)tu_below(r, g->width), (long)tu_below(r, g->height));
        }
    }
    free(base);
    sq->overlay = ov;
    nb_aa_query aq = aa_of(sq, cost, ov);
    t->runs++;
    if (nb_aa_find(aa, &aq, &ar, &err) != NB_OK) {
        if (t->bad++ < 3)
            diag("%s: Annotated A*: %s", name, err.msg);
        return;
    }
    nb_status st = nb_sg_find(sg, sq, &sr, &err);
    if (st != NB_OK || sr.fallback) {
        if (t->refused++ < 3)
            diag("%s: (%d, %d) -> (%d, %d) size %u, %u rectangles: %s", name, sq->start.x,
                 sq->start.y, sq->goal.x, sq->goal.y, sq->size, rects,
                 st == NB_OK ? "Annotated A* answered" : err.msg);
        return;
    }
    if (sr.status != ar.status || (ar.status == NB_PATH_FOUND && !same_cost(sr.cost, ar.cost))) {
        if (t->bad++ < 3)
            diag("%s: (%d, %d) -> (%d, %d) size %u corner %d, %u rectangles: %s cost %.9g, "
                 "Annotated A* %s cost %.9g", name, sq->start.x, sq->start.y, sq->goal.x,
                 sq->goal.y, sq->size, (int)sq->corner, rects, nb_path_status_str(sr.status),
                 sr.cost, nb_path_status_str(ar.status), ar.cost);
        return;
    }
    t->cut += n && ar.status == NB_PATH_NONE;
    if (ar.status != NB_PATH_FOUND)
        return;
    t->found++;
    t->onpath += sr.cost > base_cost + 1e-9 * (1 + base_cost);
    double c = path_cost(g, sq, cost, sr.path, sr.path_len);
    int ends = sr.path_len >= 1 && sr.path[0].x == sq->start.x && sr.path[0].y == sq->start.y &&
               sr.path[sr.path_len - 1].x == sq->goal.x && sr.path[sr.path_len - 1].y == sq->goal.y;
    if (!ends || c < 0 || !same_cost(c, sr.cost) || !overlay_ok(ov, sq, sr.path, sr.path_len)) {
        if (t->bad_path++ < 3)
            diag("%s: (%d, %d) -> (%d, %d): a path of %zu cells, recomputed cost %g, said %g, "
                 "%s under the overlay", name, sq->start.x, sq->start.y, sq->goal.x, sq->goal.y,
                 sr.path_len, c, sr.cost,
                 overlay_ok(ov, sq, sr.path, sr.path_len) ? "legal" : "not legal");
        return;
    }
    if (!slice)
        return;
    double keep = sr.cost;
    nb_sg_result r2;
    nb_status st2 = sliced(sg, sq, &r2);
    if ((st2 != NB_OK || r2.status != NB_PATH_FOUND || r2.fallback || r2.cost != keep) &&
        t->sliced_bad++ < 3)
        diag("%s: sliced under the overlay: %s cost %g (find: %g)", name,
             nb_path_status_str(r2.status), r2.cost, keep);
}

struct ptally {
    long runs, partial, found, bad, fell;
};

/* One partial query with costs whose goal a ring of blocks walls in (the file's comment). */
static void one_partial(nb_sg *sg, nb_aa *aa, nb_overlay *ov, const nbb_grid *g, nbb_grid *e,
                        tu_rng *r, nb_sg_query *sq, const double *cost, struct ptally *t,
                        const char *name)
{
    nb_err err;
    nb_cell want;
    if (!tu_walled_goal(ov, e, g, &legend, r, sq, 100, &want))
        return;
    sq->costs = cost;
    sq->overlay = ov;
    sq->partial = 1;
    nb_sg_result sr;
    nb_aa_result ar;
    nb_sg_query to = *sq;
    to.goal = want;
    to.partial = 0;
    nb_aa_query aq = aa_of(&to, cost, ov);
    t->runs++;
    nb_status st = nb_sg_find(sg, sq, &sr, &err);
    sq->partial = 0;
    if (st != NB_OK || sr.fallback) {
        if (t->fell++ < 3)
            diag("%s: partial (%d, %d) -> (%d, %d): %s", name, sq->start.x, sq->start.y,
                 sq->goal.x, sq->goal.y, st == NB_OK ? "Annotated A* answered" : err.msg);
        return;
    }
    int at_goal = want.x == sq->goal.x && want.y == sq->goal.y;
    nb_path_status ws = at_goal ? NB_PATH_FOUND : NB_PATH_PARTIAL;
    int ends = sr.path_len >= 1 && sr.path[0].x == sq->start.x && sr.path[0].y == sq->start.y &&
               sr.path[sr.path_len - 1].x == want.x && sr.path[sr.path_len - 1].y == want.y;
    double c = ends ? path_cost(e, sq, cost, sr.path, sr.path_len) : -1;
    int aok = nb_aa_find(aa, &aq, &ar, &err) == NB_OK && ar.status == NB_PATH_FOUND;
    if (sr.status != ws || !ends || c < 0 || !same_cost(c, sr.cost) || !aok ||
        !same_cost(sr.cost, ar.cost)) {
        if (t->bad++ < 3)
            diag("%s: partial (%d, %d) -> (%d, %d) size %u corner %d: %s ending at (%d, %d), "
                 "cost %.9g (recomputed %.9g); want %s ending at (%d, %d), Annotated A*'s cost "
                 "there %.9g", name, sq->start.x, sq->start.y, sq->goal.x, sq->goal.y, sq->size,
                 (int)sq->corner, nb_path_status_str(sr.status),
                 sr.path_len ? sr.path[sr.path_len - 1].x : -1,
                 sr.path_len ? sr.path[sr.path_len - 1].y : -1, sr.cost, c,
                 nb_path_status_str(ws), want.x, want.y, aok ? ar.cost : -1.0);
        return;
    }
    t->partial += !at_goal;
    t->found += at_goal;
}

static void report_covered(const struct ctally *t, const char *name)
{
    ok(t->bad == 0 && t->bad_path == 0 && t->found > 0 && t->onpath > 0,
       "%s under random overlays: %ld queries (%ld found, %ld dearer than without the overlay, "
       "%ld cut off): Annotated A*'s statuses and costs, legal paths costing what they say",
       name, t->runs, t->found, t->onpath, t->cut);
    ok(t->refused == 0, "%s under random overlays: every query answered by the layer, fallback 0 "
       "(%ld refused or handed on)", name, t->refused);
    ok(t->sliced_bad == 0, "%s under random overlays: sliced, the same costs", name);
}

static void report(const struct tally *t, const char *name)
{
    ok(t->bad == 0 && t->bad_path == 0 && t->found > 0,
       "%s: %ld queries with terrain costs, %ld answered (%ld found): Annotated A*'s statuses "
       "and costs, legal paths costing what they say", name, t->runs, t->answered, t->found);
    ok(t->bad_refuse == 0 && t->answered == t->runs,
       "%s: every query answered by the layer (%ld refused or handed on)", name, t->refused);
    ok(t->sliced_bad == 0, "%s: sliced, the same answers", name);
    ok(t->bad_partial == 0, "%s: partial paths as Annotated A*'s (%ld ended short of the goal)",
       name, t->partials);
}

static int open_level(const nbb_grid *g, const char *name, nb_bundle **nb, nb_aa **aa, nb_sg **sg)
{
    static nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++) {
        nb_agent *ag = &agents.agent[agents.count++];
        snprintf(ag->name, sizeof ag->name, "a%zu", a);
        ag->capability = CAP;
        ag->size = sizes[a];
    }
    nb_err err;
    const char *path = tu_path(tu_tmpdir(), "sgc.nbk");
    const unsigned both = NBB_CORNERS_STRICT | NBB_CORNERS_WEAK;
    if (ok(tu_bake_optimal(path, &legend, &agents, g, both, &err) == NB_OK &&
               nb_bundle_open(path, 0, NULL, nb, &err) == NB_OK &&
               nb_aa_open(*nb, aa, &err) == NB_OK && tu_sg_open(*nb, 0, sg, &err) == NB_OK,
           "%s: both corner rules' layers baked and opened", name))
        return 1;
    diag("%s", err.msg);
    return 0;
}

static void query_init(nb_sg_query *sq, size_t a, int corner)
{
    nb_sg_query_init(sq);
    sq->capability = CAP;
    sq->size = sizes[a];
    sq->corner = corner ? NB_CORNER_WEAK : NB_CORNER_STRICT;
}

/* 1 when the agent stands at (x, y) in swamp or water beside a cell of ground. */
static int wet_shore(const nbb_grid *g, unsigned size, long x, long y)
{
    if (brute_square_cost(&legend, g, profile[0], size, x, y) == 1)
        return 0;
    for (long dy = -1; dy <= 1; dy++)
        for (long dx = -1; dx <= 1; dx++)
            if (brute_can_stand(&legend, g, CAP, size, x + dx, y + dy) &&
                brute_square_cost(&legend, g, profile[0], size, x + dx, y + dy) == 1)
                return 1;
    return 0;
}

/* A cell where the agent may stand, half the time (when the map has one) in swamp or water
 * beside ground, where the goal's own cost decides. */
static void random_end(tu_rng *r, const nbb_grid *g, unsigned size, nb_cell *c)
{
    int wet = tu_below(r, 2);
    for (int k = 0; k < 100000; k++) {
        c->x = (int32_t)tu_below(r, g->width), c->y = (int32_t)tu_below(r, g->height);
        if (!brute_can_stand(&legend, g, CAP, size, c->x, c->y))
            continue;
        if (!wet || k > 50000 || wet_shore(g, size, c->x, c->y))
            return;
    }
}

/* One workspace, one overlay edited between rounds of the same queries with costs: the layer
 * keeps its graph's changes and each node's hops under the overlay while the overlay's version
 * stays (sgcsearch.c, "Under an overlay"), so each answer is checked against Annotated A*'s
 * under the overlay as it stands.  An edit blocks a rectangle of 1 x 1 to 4 x 4 cells on a
 * path the last round found, unblocks the last one so blocked, or adds a few anywhere; a
 * query without the overlay comes before each round and one with the other profile (a new
 * customization) after every other. */
#define EDIT_PAIRS 8
#define EDIT_ROUNDS 12
static void edited(nb_bundle *nb, nb_sg *sg, nb_aa *aa, const nbb_grid *g, const nbb_scen *scen,
                   tu_rng *r, const char *rel)
{
    nb_overlay *ov = NULL;
    nb_err err;
    if (!ok(nb_overlay_open(nb, &ov, &err) == NB_OK, "%s: an overlay opened", rel))
        return;
    nb_sg_query q[EDIT_PAIRS];
    double last[EDIT_PAIRS];
    /* One agent and corner rule for all: one customized graph, which a new layer would
     * make again (and drop what was kept). */
    size_t agent = tu_below(r, 2);
    int rule = (int)tu_below(r, 2);
    for (int i = 0; i < EDIT_PAIRS; i++) {
        query_init(&q[i], agent, rule);
        if (scen) {
            size_t k = tu_below(r, (uint32_t)scen->count);
            q[i].start = scen->lines[k].start;
            q[i].goal = scen->lines[k].goal;
        } else {
            random_end(r, g, q[i].size, &q[i].start);
            random_end(r, g, q[i].size, &q[i].goal);
        }
        q[i].costs = profile[0];
        q[i].overlay = ov;
        last[i] = -1;
    }
    for (int k = 0; k < (scen ? 10 : 1); k++) /* the sample level is 64 x 40 cells */
        block_near(ov, r, g, (long)tu_below(r, g->width), (long)tu_below(r, g->height));
    uint64_t made0, kept0, made1, kept1;
    nbi_sg_overlay_kept(sg, &made0, &kept0);
    long runs = 0, bad = 0, found = 0, changed = 0;
    long lx = -1, ly = -1, lw = 0, lh = 0;
    nb_cell pick = {-1, -1};
    for (int round = 0; round < EDIT_ROUNDS; round++) {
        unsigned what = round == 0 ? 4 : tu_below(r, 4);
        if (what == 4) {
            /* the overlay as made */
        } else if (what == 0 && lx >= 0) {
            nb_overlay_unblock(ov, lx, ly, lw, lh, NULL);
            lx = -1;
        } else if (what == 1 || pick.x < 0) {
            for (int k = 0; k < (scen ? 3 : 1); k++)
                block_near(ov, r, g, (long)tu_below(r, g->width), (long)tu_below(r, g->height));
        } else {
            lw = 1 + (long)tu_below(r, 4);
            lh = 1 + (long)tu_below(r, 4);
            lx = pick.x - (long)tu_below(r, (uint32_t)lw);
            ly = pick.y - (long)tu_below(r, (uint32_t)lh);
            lx = lx < 0 ? 0 : lx;
            ly = ly < 0 ? 0 : ly;
            lw = lx + lw > (long)g->width ? (long)g->width - lx : lw;
            lh = ly + lh > (long)g->height ? (long)g->height - ly : lh;
            nb_overlay_block(ov, lx, ly, lw, lh, NULL);
        }
        pick = (nb_cell){-1, -1};
        nb_sg_result sr;
        nb_sg_query plain = q[round % EDIT_PAIRS];
        plain.overlay = NULL;
        nb_sg_find(sg, &plain, &sr, &err);
        /* Each pair twice a round (the second reads what the first kept), then the other
         * profile's query. */
        for (int j = 0; j <= 2 * EDIT_PAIRS; j++) {
            int i = j < 2 * EDIT_PAIRS ? j % EDIT_PAIRS : EDIT_PAIRS;
            nb_sg_query sq = q[i % EDIT_PAIRS];
            if (i == EDIT_PAIRS) {
                if (round % 2 == 0)
                    continue;
                sq.costs = profile[1];
            }
            nb_aa_query aq = aa_of(&sq, sq.costs, ov);
            nb_aa_result ar;
            runs++;
            nb_status st = nb_aa_find(aa, &aq, &ar, &err);
            if (st == NB_OK)
                st = nb_sg_find(sg, &sq, &sr, &err);
            double c = st == NB_OK && sr.status == NB_PATH_FOUND
                           ? path_cost(g, &sq, sq.costs, sr.path, sr.path_len) : -1;
            if (st != NB_OK || sr.fallback || sr.status != ar.status ||
                (ar.status == NB_PATH_FOUND &&
                 (!same_cost(sr.cost, ar.cost) || c < 0 || !same_cost(c, sr.cost) ||
                  !overlay_ok(ov, &sq, sr.path, sr.path_len)))) {
                if (bad++ < 3)
                    diag("%s round %d: (%d, %d) -> (%d, %d) size %u: %s cost %.9g (fallback %d), "
                         "Annotated A* %s cost %.9g", rel, round, sq.start.x, sq.start.y,
                         sq.goal.x, sq.goal.y, sq.size, nb_path_status_str(sr.status), sr.cost,
                         sr.fallback, nb_path_status_str(ar.status), ar.cost);
                continue;
            }
            if (i == EDIT_PAIRS || j >= EDIT_PAIRS || sr.status != NB_PATH_FOUND)
                continue;
            found++;
            changed += round > 0 && !same_cost(sr.cost, last[i]);
            last[i] = sr.cost;
            if (sr.path_len > 2 && (pick.x < 0 || tu_below(r, 2)))
                pick = sr.path[1 + tu_below(r, (uint32_t)(sr.path_len - 2))];
        }
    }
    nbi_sg_overlay_kept(sg, &made1, &kept1);
    ok(bad == 0 && found > 0 && changed > 0 && kept1 > kept0,
       "%s: %ld queries with costs under an overlay edited %d times between rounds (%ld found, "
       "%ld costs changed by an edit): Annotated A*'s statuses and costs, legal paths, no "
       "fallback; hops kept under the overlay read back %llu times (%llu nodes)", rel, runs,
       EDIT_ROUNDS - 1, found, changed, (unsigned long long)(kept1 - kept0),
       (unsigned long long)(made1 - made0));
    nb_overlay_close(ov);
}

/* The layer with costs under random overlays on a map's scenario lines (the file's comment). */
static void covered(nb_bundle *nb, nb_sg *sg, nb_aa *aa, const nbb_grid *g, const nbb_scen *scen,
                    int all, tu_rng *r, const char *rel)
{
    nb_overlay *ov = NULL;
    nb_err err;
    if (!ok(nb_overlay_open(nb, &ov, &err) == NB_OK, "%s: an overlay opened", rel))
        return;
    size_t every = all ? 1 : 8, sample = (scen->count + 19) / 20;
    nbb_grid e = *g;
    e.cells = malloc((size_t)g->width * g->height);
    for (int p = 0; p < 2; p++) {
        char name[300];
        snprintf(name, sizeof name, "%s, profile %d", rel, p + 1);
        struct ptally t = {0};
        for (size_t i = (size_t)p, n = 0; i < scen->count; i += 2 * every, n++) {
            nb_sg_query sq;
            query_init(&sq, n % 5 == 4, n % 3 == 2);
            sq.start = scen->lines[i].start;
            sq.goal = scen->lines[i].goal;
            one_partial(sg, aa, ov, g, &e, r, &sq, profile[p], &t, name);
        }
        ok(t.bad == 0 && t.partial > 0,
           "%s, partial paths under a ring of blocks round the goal: %ld queries (%ld partial, "
           "%ld reached the goal): the breadth-first search's nearest cell, the status, legal "
           "paths costing Annotated A*'s least cost to that cell", name, t.runs, t.partial,
           t.found);
        ok(t.fell == 0, "%s, partial paths under blocks: answered by the layer, fallback 0 "
           "(%ld handed on)", name, t.fell);
    }
    free(e.cells);
    for (int p = 0; p < 2; p++) {
        char name[300];
        snprintf(name, sizeof name, "%s, profile %d", rel, p + 1);
        struct ctally t = {0};
        for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++)
            for (int corner = 0; corner < 2; corner++) {
                size_t step = a == 0 && corner == 0 ? every : sample;
                for (size_t i = (size_t)p; i < scen->count; i += step) {
                    nb_sg_query sq;
                    query_init(&sq, a, corner);
                    sq.start = scen->lines[i].start;
                    sq.goal = scen->lines[i].goal;
                    one_covered(sg, aa, ov, g, r, &sq, profile[p], &t, name, i % 7 == 0);
                }
            }
        report_covered(&t, name);
    }
    nb_overlay_close(ov);
}

static void run_map(const char *rel, int all, tu_rng *r)
{
    nbb_grid g;
    nbb_scen scen;
    nb_err err;
    if (tu_scen_level(rel, &legend, &g, &scen, &err) != NB_OK) {
        ok(0, "%s: read (%s)", rel, err.msg);
        return;
    }
    nb_bundle *nb = NULL;
    nb_aa *aa = NULL;
    nb_sg *sg = NULL;
    if (open_level(&g, rel, &nb, &aa, &sg)) {
        size_t sample = all ? 1 : (scen.count + 39) / 40;
        for (int p = 0; p < 2; p++) {
            char name[300];
            snprintf(name, sizeof name, "%s, profile %d", rel, p + 1);
            struct tally t = {0};
            /* Every line for size 1 under the strict rule; a sample for the others. */
            for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++)
                for (int corner = 0; corner < 2; corner++)
                    for (size_t i = 0, every = a == 0 && corner == 0 ? 1 : sample;
                         i < scen.count; i += every) {
                        nb_sg_query sq;
                        query_init(&sq, a, corner);
                        sq.start = scen.lines[i].start;
                        sq.goal = scen.lines[i].goal;
                        one(sg, aa, &g, &sq, profile[p], &t, name, i % (7 * every) == 0, -1);
                    }
            /* Scenario lines end on ground: pairs of any standable cells end in swamp and
             * water too, where entering the goal counts. */
            for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++)
                for (int i = 0; i < 40; i++) {
                    nb_sg_query sq;
                    query_init(&sq, a, i & 1);
                    random_end(r, &g, sizes[a], &sq.start);
                    random_end(r, &g, sizes[a], &sq.goal);
                    one(sg, aa, &g, &sq, profile[p], &t, name, i % 8 == 0, -1);
                }
            report(&t, name);
        }
        covered(nb, sg, aa, &g, &scen, all, r, rel);
        edited(nb, sg, aa, &g, &scen, r, rel);
    }
    nb_sg_close(sg);
    nb_aa_close(aa);
    nb_bundle_close(nb);
    nbb_scen_free(&scen);
    nbb_grid_free(&g);
}

/* Without ../shared: the sample level, random pairs, against a plain Dijkstra. */
static void run_sample(tu_rng *r)
{
    nbi_agentset unused;
    nbb_grid g;
    tu_read_sample(&legend, &unused, &g);
    nb_bundle *nb = NULL;
    nb_aa *aa = NULL;
    nb_sg *sg = NULL;
    if (open_level(&g, "data/sample.map", &nb, &aa, &sg)) {
        for (int p = 0; p < 2; p++) {
            char name[64];
            snprintf(name, sizeof name, "data/sample.map, profile %d", p + 1);
            struct tally t = {0};
            for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++)
                for (int corner = 0; corner < 2; corner++)
                    for (int i = 0; i < 150; i++) {
                        nb_sg_query sq;
                        query_init(&sq, a, corner);
                        sq.start = (nb_cell){(int32_t)tu_below(r, g.width), (int32_t)tu_below(r, g.height)};
                        sq.goal = (nb_cell){(int32_t)tu_below(r, g.width), (int32_t)tu_below(r, g.height)};
                        double d = brute_cost_dijkstra(
                            &legend, &g, CAP, sizes[a], corner ? BRUTE_WEAK : BRUTE_STRICT,
                            profile[p], sq.start.x, sq.start.y, sq.goal.x, sq.goal.y);
                        one(sg, aa, &g, &sq, profile[p], &t, name, i % 10 == 0, d < 0 ? -2 : d);
                    }
            report(&t, name);
        }
        edited(nb, sg, aa, &g, NULL, r, "data/sample.map");
    }
    nb_sg_close(sg);
    nb_aa_close(aa);
    nb_bundle_close(nb);
    nbb_grid_free(&g);
}

int main(void)
{
    static const char *const three[] = {"maps/wc3/battleground.map", "maps/wc3/bloodvenomfalls.map",
                                        "maps/wc3/blastedlands.map"};
    nbi_legend_default(&legend);
    for (int p = 0; p < 2; p++)
        for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
            profile[p][t] = 1;
    profile[0][1] = 2.5, profile[0][2] = 3;   /* swamp, water */
    profile[1][1] = 5, profile[1][2] = 1.5;
    const char *all_s = getenv("NB_SGC_EVERY");
    int all = all_s && atoi(all_s) == 1;
    tu_rng r = {0x5c057ed};
    /* The sample level always: its random pairs end where no path goes (partial paths). */
    run_sample(&r);
    if (tu_shared("maps"))
        for (size_t m = 0; m < sizeof three / sizeof *three; m++)
            run_map(three[m], all, &r);
    return done_testing();
}
