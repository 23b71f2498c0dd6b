/* test_statuses.c: one status for one cause, in every query family.
 *
 * Each cause (a size above what was baked, a capability without a layer,
 * a blocked start, a blocked goal, an end off the map, an overlay made
 * from another bundle, a budget spent, terrain costs no layer was baked
 * for, an overlay a family does not read yet: the motion search and the
 * planner, whose agent is their workspace's) is put to every family that
 * can meet it, through the 1.0 query shapes alone (nb_X_query_init,
 * nb_X_query_agent, nb_X_find), and every family must answer with the
 * status the table below gives for the cause: the same from each.  A
 * family that cannot meet a cause (a forest has no capability; a random
 * draw has no goal) says so in its adapter, and the test counts that the
 * cause still reached at least two families.
 *
 * Last, an agent with terrain costs never gets a path of another kind:
 * Annotated A* and HAA* answer with least-cost paths (their cost is the
 * path's cost under the agent's multipliers, checked cell by cell here),
 * and the optimal layer answers with the least cost from the layer
 * customized to the agent's costs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

enum cause {
    SIZE_ABOVE_CAP,
    UNKNOWN_CAPABILITY,
    START_BLOCKED,
    GOAL_BLOCKED,
    OFF_THE_MAP,
    OVERLAY_OF_ANOTHER_BUNDLE,
    BUDGET_SPENT,
    COSTS_NOT_BAKED,
    OVERLAY_NOT_READ,
    NCAUSES
};

/* What every family must answer for each cause: an error status, or NB_OK
 * and a path status. */
static const struct {
    const char *name;
    nb_status st;
    nb_path_status ps;
} expect[NCAUSES] = {
    [SIZE_ABOVE_CAP] = {"a size above the baked cap", NB_ERR_NOTFOUND, NB_PATH_NONE},
    [UNKNOWN_CAPABILITY] = {"a capability without a layer", NB_ERR_NOTFOUND, NB_PATH_NONE},
    [START_BLOCKED] = {"the start blocked", NB_OK, NB_PATH_START_BLOCKED},
    [GOAL_BLOCKED] = {"the goal blocked", NB_OK, NB_PATH_GOAL_BLOCKED},
    [OFF_THE_MAP] = {"an end off the map", NB_ERR_OUTSIDE, NB_PATH_NONE},
    [OVERLAY_OF_ANOTHER_BUNDLE] = {"an overlay of another bundle", NB_ERR_ARG, NB_PATH_NONE},
    [BUDGET_SPENT] = {"a budget of one expansion", NB_OK, NB_PATH_LIMIT},
    [COSTS_NOT_BAKED] = {"terrain costs no layer was baked for", NB_ERR_NOTFOUND, NB_PATH_NONE},
    [OVERLAY_NOT_READ] = {"an overlay the family does not read", NB_ERR_UNSUPPORTED,
                          NB_PATH_NONE},
};

#define NA ((nb_status)-1) /* the family cannot meet the cause */
#define B(cause) (1u << (cause))

/* What the adapters share: the bundle, a second handle on the same file
 * (whose overlay is another bundle's), and cells picked from the map. */
typedef struct env {
    nb_bundle *b, *other;
    nb_overlay *ov, *ov_other;
    const nb_agent *scout, *wagon, *giant; /* sizes 1, 2 (terrain costs), 3 */
    nb_cell wall, free_a, free_b;          /* free cells of scout's, far apart, joined */
    uint32_t w, h;
    nb_aa *aa;
    nb_haa *haa;
    nb_sg *sg;
    nb_model *model;
    nb_motion *motion, *motion_big;
    nb_planner *planner;
    nb_forest *forest;
    nb_forest_ws *fws;
    nb_place *place;
    double costs[NB_MAX_TERRAINS]; /* a profile no layer was baked for */
} env;

/* The grid families' common fields for a cause: the agent, the ends. */
typedef struct grid_q {
    nb_cell start, goal;
    uint32_t size;
    nb_capability cap;
    const double *costs;
    const nb_overlay *ov;
    uint64_t budget;
} grid_q;

/* The query of a grid family for cause c; 0 when the family has nothing
 * of the kind (no costs field: has_costs 0). */
static int grid_case(const env *e, unsigned c, int has_costs, grid_q *g)
{
    g->start = e->free_a;
    g->goal = e->free_b;
    g->size = e->scout->size;
    g->cap = e->scout->capability;
    g->costs = NULL;
    g->ov = NULL;
    g->budget = 0;
    if (c & B(SIZE_ABOVE_CAP))
        g->size = e->giant->size + 1;
    if (c & B(UNKNOWN_CAPABILITY))
        g->cap = 1u << 2; /* water alone */
    if (c & B(START_BLOCKED))
        g->start = e->wall;
    if (c & B(GOAL_BLOCKED))
        g->goal = e->wall;
    if (c & B(OFF_THE_MAP))
        g->goal = (nb_cell){(int32_t)e->w, 0};
    if (c & B(OVERLAY_OF_ANOTHER_BUNDLE))
        g->ov = e->ov_other;
    if (c & B(BUDGET_SPENT))
        g->budget = 1;
    if (c & B(COSTS_NOT_BAKED)) {
        if (!has_costs)
            return 0;
        g->costs = e->costs;
    }
    if (c & B(OVERLAY_NOT_READ))
        g->ov = e->ov;
    return 1;
}

static nb_status fam_aa(env *e, unsigned c, nb_path_status *ps, nb_err *err)
{
    grid_q g;
    if ((c & B(OVERLAY_NOT_READ)) || (c & B(COSTS_NOT_BAKED))) /* it reads both, any costs */
        return NA;
    grid_case(e, c, 1, &g);
    nb_aa_query q;
    nb_aa_result r;
    nb_aa_query_init(&q);
    q.start = g.start, q.goal = g.goal, q.size = g.size, q.capability = g.cap;
    q.costs = g.costs, q.overlay = g.ov, q.max_expansions = g.budget;
    nb_status st = nb_aa_find(e->aa, &q, &r, err);
    *ps = r.status;
    return st;
}

static nb_status fam_haa(env *e, unsigned c, nb_path_status *ps, nb_err *err)
{
    grid_q g;
    if ((c & B(OVERLAY_NOT_READ)))
        return NA;
    grid_case(e, c, 1, &g);
    nb_haa_query q;
    nb_haa_result r;
    nb_haa_query_init(&q);
    q.start = g.start, q.goal = g.goal, q.size = g.size, q.capability = g.cap;
    q.costs = g.costs, q.overlay = g.ov, q.max_expansions = g.budget;
    nb_status st = nb_haa_find(e->haa, &q, &r, err);
    *ps = r.status;
    return st;
}

static nb_status fam_sg(env *e, unsigned c, nb_path_status *ps, nb_err *err)
{
    grid_q g;
    /* Terrain costs alone: it answers where its shortest path is the cheapest, and refuses
     * the others (test_sg_costs), whatever profile they are. */
    if ((c & B(OVERLAY_NOT_READ)) || c == B(COSTS_NOT_BAKED))
        return NA;
    grid_case(e, c, 1, &g);
    nb_sg_query q;
    nb_sg_result r;
    nb_sg_query_init(&q);
    q.start = g.start, q.goal = g.goal, q.size = g.size, q.capability = g.cap;
    q.costs = g.costs, q.overlay = g.ov, q.max_expansions = g.budget;
    nb_status st = nb_sg_find(e->sg, &q, &r, err);
    *ps = r.status;
    return st;
}

static nb_status fam_nearest(env *e, unsigned c, nb_path_status *ps, nb_err *err)
{
    grid_q g;
    if ((c & B(GOAL_BLOCKED)) || (c & B(OVERLAY_NOT_READ)) || !grid_case(e, c, 0, &g))
        return NA;
    nb_nearest_query q;
    nb_nearest_result r;
    nb_nearest_query_init(&q);
    q.size = g.size, q.capability = g.cap, q.overlay = g.ov, q.max_expansions = g.budget;
    q.point = (c & B(OFF_THE_MAP)) ? g.goal : e->wall; /* from a wall, so the search reads on */
    q.radius = INFINITY;
    q.reachable = 1;
    q.start = g.start;
    nb_status st = nb_nearest_find(e->place, &q, &r, err);
    *ps = r.status;
    return st;
}

static nb_status fam_line(env *e, unsigned c, nb_path_status *ps, nb_err *err)
{
    grid_q g;
    if ((c & B(GOAL_BLOCKED)) || (c & B(OVERLAY_NOT_READ)) ||
        !grid_case(e, c, 0, &g)) /* a wall on the way is NB_PATH_NONE */
        return NA;
    nb_line_query q;
    nb_line_result r;
    nb_line_query_init(&q);
    q.size = g.size, q.capability = g.cap, q.overlay = g.ov, q.max_expansions = g.budget;
    q.start = (nb_vec2){g.start.x, g.start.y};
    q.goal = (nb_vec2){g.goal.x + ((c & B(OFF_THE_MAP)) != 0), g.goal.y}; /* points reach x = width */
    nb_status st = nb_line_find(e->place, &q, &r, err);
    *ps = r.status;
    return st;
}

static nb_status fam_random(env *e, unsigned c, nb_path_status *ps, nb_err *err)
{
    grid_q g;
    /* A draw is one expansion, which any budget allows; it has no goal. */
    if ((c & B(GOAL_BLOCKED)) || (c & B(BUDGET_SPENT)) || (c & B(OVERLAY_NOT_READ)) ||
        !grid_case(e, c, 0, &g))
        return NA;
    nb_random_query q;
    nb_random_result r;
    nb_random_query_init(&q);
    q.size = g.size, q.capability = g.cap, q.overlay = g.ov;
    q.reachable = 1;
    q.start = (c & B(OFF_THE_MAP)) ? g.goal : g.start;
    q.seed = 7;
    nb_status st = nb_random_find(e->place, &q, &r, err);
    *ps = r.status;
    return st;
}

/* The motion family's agent is its workspace's (nb_motion_open): the
 * agent causes meet it there. */
static nb_status fam_motion(env *e, unsigned c, nb_path_status *ps, nb_err *err)
{
    grid_q g;
    if ((c & B(SIZE_ABOVE_CAP)) || (c & B(UNKNOWN_CAPABILITY)) || !grid_case(e, c, 0, &g))
        return NA;
    nb_motion_query q;
    nb_motion_result r;
    nb_motion_query_init(&q);
    q.start = (nb_motion_state){g.start.x, g.start.y, 0, (uint16_t)nb_model_stop(e->model)};
    q.goal = (nb_motion_state){g.goal.x, g.goal.y, NB_HEADING_ANY,
                               (uint16_t)nb_model_stop(e->model)};
    q.overlay = g.ov;
    q.max_expansions = g.budget;
    nb_status st = nb_motion_find(e->motion, &q, &r, err);
    *ps = r.status;
    return st;
}

/* The planner's agent is its unit; its start is a pose. */
static nb_status fam_planner(env *e, unsigned c, nb_path_status *ps, nb_err *err)
{
    grid_q g;
    if ((c & B(SIZE_ABOVE_CAP)) || (c & B(UNKNOWN_CAPABILITY)) || !grid_case(e, c, 0, &g))
        return NA;
    nb_planner_query q;
    nb_planner_result r;
    nb_planner_query_init(&q);
    q.start = (nb_pose){g.start.x + 0.5, g.start.y + 0.5, 0};
    q.goal = g.goal;
    q.overlay = g.ov;
    q.max_expansions = g.budget;
    nb_status st = nb_planner_find(e->planner, &q, &r, err);
    *ps = r.status;
    return st;
}

/* A forest's agent is a radius, its world has bounds, not a map's cells. */
static nb_status fam_forest(env *e, unsigned c, nb_path_status *ps, nb_err *err)
{
    nb_forest_query q;
    nb_forest_result r;
    nb_forest_query_init(&q);
    q.start = (nb_vec2){2, 2};
    q.goal = (nb_vec2){98, 58};
    q.agent_radius = 0.5;
    if (c & ~(B(START_BLOCKED) | B(GOAL_BLOCKED) | B(OFF_THE_MAP) | B(BUDGET_SPENT)))
        return NA;
    if (c & B(START_BLOCKED))
        q.start = (nb_vec2){12, 10}; /* a tree's centre */
    if (c & B(GOAL_BLOCKED))
        q.goal = (nb_vec2){62, 22}; /* a pond's */
    if (c & B(OFF_THE_MAP))
        q.goal = (nb_vec2){101, 30}; /* past the bounds */
    if (c & B(BUDGET_SPENT))
        q.max_expansions = 1;
    nb_status st = nb_forest_find(e->fws, &q, &r, err);
    *ps = r.status;
    return st;
}

static const struct {
    const char *name;
    nb_status (*run)(env *, unsigned, nb_path_status *, nb_err *);
} families[] = {
    {"Annotated A*", fam_aa},  {"HAA*", fam_haa},         {"optimal layer", fam_sg},
    {"motion", fam_motion},    {"unit planner", fam_planner}, {"forest", fam_forest},
    {"nearest", fam_nearest}, {"line", fam_line},         {"random", fam_random},
};
#define NFAMILIES (sizeof families / sizeof families[0])

/* Two free cells of the scout far apart in one component, and a wall. */
static int pick_cells(env *e)
{
    const nb_agent *a = e->scout;
    int have_wall = 0;
    long best = -1;
    for (uint32_t y = 0; y < e->h; y++)
        for (uint32_t x = 0; x < e->w; x++) {
            if (!have_wall && nb_map_terrain(e->b, x, y) == NB_OBSTACLE && x > 0 && y > 0) {
                e->wall = (nb_cell){(int32_t)x, (int32_t)y};
                have_wall = 1;
            }
        }
    nb_cell first = {-1, -1};
    for (uint32_t y = 0; y < e->h && first.x < 0; y++)
        for (uint32_t x = 0; x < e->w && first.x < 0; x++)
            if (nb_can_stand(e->b, a->capability, a->size, x, y) == 1)
                first = (nb_cell){(int32_t)x, (int32_t)y};
    long c0 = nb_component(e->b, a->capability, a->size, first.x, first.y);
    for (uint32_t y = 0; y < e->h; y++)
        for (uint32_t x = 0; x < e->w; x++)
            if (nb_component(e->b, a->capability, a->size, x, y) == c0) {
                long d = labs((long)x - first.x) + labs((long)y - first.y);
                if (d > best) {
                    best = d;
                    e->free_b = (nb_cell){(int32_t)x, (int32_t)y};
                }
            }
    e->free_a = first;
    return have_wall && first.x >= 0 && best > 20;
}

static int setup(env *e, const char *dir)
{
    const char *top = getenv("top_builddir"), *src = getenv("top_srcdir");
    top = top && *top ? top : ".";
    src = src && *src ? src : ".";
    const char *path = tu_path(dir, "s.nbk");
    static char bundle[1024];
    snprintf(bundle, sizeof bundle, "%s", path);
    static const char agents[] =
        "agents:\n"
        "  - {name: scout, size: 1, capability: [ground, swamp]}\n"
        "  - {name: wagon, size: 2, capability: [ground, swamp], costs: {swamp: 5}}\n"
        "  - {name: giant, size: 3, capability: [ground, swamp, trees]}\n";
    if (tu_write(tu_path(dir, "agents.yaml"), agents, strlen(agents)) != 0)
        return 0;
    if (tu_system("cd '%s' && T='%s/tools' && D='%s/data' && "
                  "$T/mkclear -q --optimal --agents agents.yaml $D/sample.map -o '%s' && "
                  "$T/mkabstract -q '%s' && $T/mkperim -q -r 4 -m $D/models/humanoid.yaml -o '%s' && "
                  "$T/mkhitcheck -q -u $D/units/jeep.yaml -o '%s' && "
                  "$T/mkabstract -q --forest $D/forest.yaml --agent-radius 0.5 -o '%s'",
                  dir, top, src, bundle, bundle, bundle, bundle, bundle) != 0)
        return 0;
    nb_err err;
    if (nb_bundle_open(bundle, 0, NULL, &e->b, &err) != NB_OK ||
        nb_bundle_open(bundle, 0, NULL, &e->other, &err) != NB_OK) {
        diag("%s", err.msg);
        return 0;
    }
    size_t i;
    if (nb_agent_lookup(e->b, "scout", &i, &err) != NB_OK)
        return 0;
    e->scout = nb_agent_get(e->b, i);
    if (nb_agent_lookup(e->b, "wagon", &i, &err) != NB_OK)
        return 0;
    e->wagon = nb_agent_get(e->b, i);
    if (nb_agent_lookup(e->b, "giant", &i, &err) != NB_OK)
        return 0;
    e->giant = nb_agent_get(e->b, i);
    e->w = nb_map_width(e->b);
    e->h = nb_map_height(e->b);
    for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
        e->costs[t] = t == 1 ? 3 : 1; /* swamp 3: no agent of the set has it */
    if (!pick_cells(e))
        return 0;
    nb_status st = NB_OK;
    if ((st = nb_overlay_open(e->b, &e->ov, &err)) != NB_OK ||
        (st = nb_overlay_open(e->other, &e->ov_other, &err)) != NB_OK ||
        (st = nb_aa_open(e->b, &e->aa, &err)) != NB_OK ||
        (st = nb_haa_open(e->b, &e->haa, &err)) != NB_OK ||
        (st = nb_sg_open(e->b, &e->sg, &err)) != NB_OK ||
        (st = nb_model_open(e->b, "humanoid", &e->model, &err)) != NB_OK ||
        (st = nb_motion_open(e->b, e->model, NULL, e->scout->capability, e->scout->size,
                             &e->motion, &err)) != NB_OK ||
        (st = nb_planner_open(e->b, "jeep", &e->planner, &err)) != NB_OK ||
        (st = nb_forest_open(e->b, &e->forest, &err)) != NB_OK ||
        (st = nb_forest_ws_open(e->forest, &e->fws, &err)) != NB_OK ||
        (st = nb_place_open(e->b, &e->place, &err)) != NB_OK) {
        diag("%s", err.msg);
        return 0;
    }
    /* The overlays block one cell away from every end the queries use. */
    nb_overlay_block(e->ov, e->w - 1, e->h - 1, 1, 1, NULL);
    nb_overlay_block(e->ov_other, e->w - 1, e->h - 1, 1, 1, NULL);
    return 1;
}

static void teardown(env *e)
{
    nb_place_close(e->place);
    nb_forest_ws_close(e->fws);
    nb_forest_close(e->forest);
    nb_planner_close(e->planner);
    nb_motion_close(e->motion);
    nb_model_close(e->model);
    nb_sg_close(e->sg);
    nb_haa_close(e->haa);
    nb_aa_close(e->aa);
    nb_overlay_close(e->ov_other);
    nb_overlay_close(e->ov);
    nb_bundle_close(e->other);
    nb_bundle_close(e->b);
}

/* Every cause through every family that can meet it: the table's status. */
static void test_causes(env *e)
{
    for (int c = 0; c < NCAUSES; c++) {
        int met = 0, same = 1;
        for (size_t f = 0; f < NFAMILIES; f++) {
            nb_err err;
            nb_path_status ps = NB_PATH_NONE;
            nb_status st = families[f].run(e, B(c), &ps, &err);
            if (st == NA)
                continue;
            met++;
            int right = st == expect[c].st && (st != NB_OK || ps == expect[c].ps);
            if (!right) {
                same = 0;
                diag("%s, %s: %s%s%s (want %s, %s)", expect[c].name, families[f].name,
                     nb_status_str(st), st == NB_OK ? ", " : ": ",
                     st == NB_OK ? nb_path_status_str(ps) : err.msg, nb_status_str(expect[c].st),
                     nb_path_status_str(expect[c].ps));
            }
            /* An error says what it is in its message, and the status is
             * the one in err. */
            if (st != NB_OK && (err.code != st || !err.msg[0])) {
                same = 0;
                diag("%s, %s: err.code %d, message '%s'", expect[c].name, families[f].name,
                     err.code, err.msg);
            }
        }
        /* HAA* alone refuses costs its graph has no profile for. */
        ok(same && met >= (c == COSTS_NOT_BAKED ? 1 : 2), "%s: %s from each of the %d families that meet it",
           expect[c].name,
           expect[c].st == NB_OK ? nb_path_status_str(expect[c].ps) : nb_status_str(expect[c].st),
           met);
    }
}

/* A query with several faults gets the status of the first check that
 * fails, in the one order: malformed, off the map, not baked, not
 * honoured (core/query.c). */
static void test_order(env *e)
{
    static const struct {
        unsigned set;
        enum cause first;
    } combos[] = {
        {B(OVERLAY_OF_ANOTHER_BUNDLE) | B(OFF_THE_MAP), OVERLAY_OF_ANOTHER_BUNDLE},
        {B(OVERLAY_OF_ANOTHER_BUNDLE) | B(UNKNOWN_CAPABILITY), OVERLAY_OF_ANOTHER_BUNDLE},
        {B(OFF_THE_MAP) | B(UNKNOWN_CAPABILITY), OFF_THE_MAP},
        {B(OFF_THE_MAP) | B(SIZE_ABOVE_CAP), OFF_THE_MAP},
        {B(OFF_THE_MAP) | B(COSTS_NOT_BAKED), OFF_THE_MAP},
        {B(OFF_THE_MAP) | B(OVERLAY_NOT_READ), OFF_THE_MAP},
        {B(OFF_THE_MAP) | B(START_BLOCKED), OFF_THE_MAP},
        {B(UNKNOWN_CAPABILITY) | B(START_BLOCKED), UNKNOWN_CAPABILITY},
    };
    for (size_t k = 0; k < sizeof combos / sizeof combos[0]; k++) {
        int met = 0, same = 1;
        enum cause want = combos[k].first;
        for (size_t f = 0; f < NFAMILIES; f++) {
            nb_err err;
            nb_path_status ps = NB_PATH_NONE;
            nb_status st = families[f].run(e, combos[k].set, &ps, &err);
            if (st == NA)
                continue;
            met++;
            if (st != expect[want].st || (st == NB_OK && ps != expect[want].ps)) {
                same = 0;
                diag("%s, with another fault, %s: %s (%s)", expect[want].name, families[f].name,
                     nb_status_str(st), st == NB_OK ? nb_path_status_str(ps) : err.msg);
            }
        }
        ok(same && met >= 2, "%s before the other fault: %s from each of the %d families",
           expect[want].name, nb_status_str(expect[want].st), met);
    }
}

/* The cost of a cell path under an agent's multipliers, from the
 * definition (formats/agents.md): each move's length times the largest
 * multiplier under the agent's square at the cell it enters. */
static double path_cost(const nb_bundle *b, const nb_agent *a, const nb_cell *p, size_t n)
{
    double sum = 0;
    for (size_t i = 1; i < n; i++) {
        double m = 1;
        for (uint32_t dy = 0; dy < a->size; dy++)
            for (uint32_t dx = 0; dx < a->size; dx++) {
                int t = nb_map_terrain(b, p[i].x + (long)dx, p[i].y + (long)dy);
                if (t >= 0 && a->cost[t] > m)
                    m = a->cost[t];
            }
        int diag = p[i].x != p[i - 1].x && p[i].y != p[i - 1].y;
        sum += (diag ? M_SQRT2 : 1) * m;
    }
    return sum;
}

/* An agent with terrain costs: least-cost paths or a refusal, never a
 * shortest path given as if it were one. */
static void test_costs_agent(env *e)
{
    const nb_agent *a = e->wagon;
    nb_err err;
    nb_aa_query aq, plain;
    nb_aa_result ar, pr;
    nb_aa_query_init(&aq);
    nb_aa_query_agent(&aq, a);
    ok(aq.costs == a->cost && aq.size == a->size && aq.capability == a->capability,
       "nb_aa_query_agent takes the agent's size, capability and costs");
    /* Ends whose shortest path crosses swamp, where the agent's costs and
     * a shortest path part. */
    plain = aq;
    plain.costs = NULL;
    int found = 0, have_start = 0;
    for (uint32_t y = 0; y < e->h && !found; y++)
        for (uint32_t x = 0; x < e->w && !found; x++) {
            if (nb_can_stand(e->b, a->capability, a->size, x, y) != 1)
                continue;
            if (!have_start) {
                plain.start = (nb_cell){(int32_t)x, (int32_t)y};
                have_start = 1;
                continue;
            }
            plain.goal = (nb_cell){(int32_t)x, (int32_t)y};
            if (nb_aa_find(e->aa, &plain, &pr, &err) == NB_OK && pr.status == NB_PATH_FOUND &&
                path_cost(e->b, a, pr.path, pr.path_len) > pr.length + 1)
                found = 1;
        }
    ok(found, "ends whose shortest path crosses swamp");
    double shortest = pr.length, shortest_costed = path_cost(e->b, a, pr.path, pr.path_len);
    aq.start = plain.start, aq.goal = plain.goal;
    nb_status st = nb_aa_find(e->aa, &aq, &ar, &err);
    double own = st == NB_OK ? path_cost(e->b, a, ar.path, ar.path_len) : -1;
    ok(st == NB_OK && ar.status == NB_PATH_FOUND && fabs(ar.cost - own) < 1e-9 * own,
       "Annotated A* with the agent's costs: a path costed by its multipliers (%g)", own);
    ok(ar.cost <= shortest_costed + 1e-9 && ar.cost > shortest + 1e-9,
       "... of least cost (%g; the shortest path costs %g), not the shortest length (%g)",
       ar.cost, shortest_costed, shortest);
    nb_haa_query hq;
    nb_haa_result hr;
    nb_haa_query_init(&hq);
    nb_haa_query_agent(&hq, a);
    hq.start = aq.start, hq.goal = aq.goal;
    st = nb_haa_find(e->haa, &hq, &hr, &err);
    own = st == NB_OK ? path_cost(e->b, a, hr.path, hr.path_len) : -1;
    ok(st == NB_OK && hr.status == NB_PATH_FOUND && fabs(hr.cost - own) < 1e-9 * own &&
           hr.cost >= ar.cost - 1e-9,
       "HAA* with the agent's costs: its path's cost under them (%g), not below the least (%g)",
       own, ar.cost);
    nb_sg_query sq;
    nb_sg_result sr;
    nb_sg_query_init(&sq);
    nb_sg_query_agent(&sq, a);
    sq.start = aq.start, sq.goal = aq.goal;
    st = nb_sg_find(e->sg, &sq, &sr, &err);
    own = st == NB_OK ? path_cost(e->b, a, sr.path, sr.path_len) : -1;
    ok(st == NB_OK && sr.status == NB_PATH_FOUND && fabs(sr.cost - own) < 1e-9 * own &&
           fabs(sr.cost - ar.cost) < 1e-9 * ar.cost,
       "the optimal layer with the agent's costs: a path of least cost (%g, Annotated A* %g)",
       own, ar.cost);
    sq.costs = NULL;
    st = nb_sg_find(e->sg, &sq, &sr, &err);
    ok(st == NB_OK && sr.status == NB_PATH_FOUND && fabs(sr.length - shortest) < 1e-9,
       "... and answers the same agent without them with the shortest length (%g, A* %g)",
       st == NB_OK ? sr.length : -1, shortest);
}

int main(void)
{
    const char *dir = tu_tmpdir();
    env e;
    memset(&e, 0, sizeof e);
    if (!setup(&e, dir)) {
        printf("Bail out! cannot bake and open the bundle (top_builddir set?)\n");
        return 1;
    }
    test_causes(&e);
    test_order(&e);
    test_costs_agent(&e);
    teardown(&e);
    return done_testing();
}
