/* test_motion.c: motion-constrained search against independent answers.
 *  - each heading's sweep (the cells a step passes through) against a
 *    Liang-Barsky clip of the step's segment by every cell, done here;
 *  - plans with admissible heuristics (octile, perimeter, grid,
 *    perimeter+grid, heading, perimeter+heading) cost what a plain
 *    Dijkstra over states finds, on random maps, and the heuristic at the
 *    start is no more than that;
 *  - the heading heuristic at a start (stopped or moving) is exactly the
 *    cost a Dijkstra over (cell, heading) with the speed left free finds,
 *    done here with this test's own rules; with classes of headings it is
 *    no more than that; and no more than the true cost;
 *  - every planned path is legal step by step under its model and the map
 *    (checked with the clip above, for the agent's whole square) and
 *    costs the sum of its steps;
 *  - weighted A* stays within its weight; truncation stops near the goal;
 *  - an agent of size 2 keeps its square on its capability's terrain;
 *  - routes through the sector abstraction reach the goal legally;
 *  - routes through HAA*'s abstract graph (random levels and the sample
 *    level, agents of size 1 and 2) are legal step by step from the start
 *    to the goal, cost no less than the optimum the Dijkstra above finds,
 *    and exist exactly when it finds one;
 *  - bad queries are refused with messages. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clearance/clearance.h"
#include "core/heap.h"
#include "motion/motion.h"
#include "testutil.h"

static const char *const models[] = {"humanoid", "tank", "vehicle"};

/* ---- an independent step legality ---- */

/* 1 when the closed segment from the centre of (0,0) to the centre of
 * (dx,dy) meets the closed square of cell (i,j): Liang-Barsky clipping in
 * doubled coordinates with exact fractions. */
static int clip_meets(int dx, int dy, int i, int j)
{
    long x0 = 1, y0 = 1, X = 2L * dx, Y = 2L * dy;
    long p[4] = {-X, X, -Y, Y};
    long q[4] = {x0 - 2L * i, 2L * i + 2 - x0, y0 - 2L * j, 2L * j + 2 - y0};
    long n0 = 0, d0 = 1, n1 = 1, d1 = 1; /* t0 = n0/d0, t1 = n1/d1 */
    for (int k = 0; k < 4; k++) {
        if (p[k] == 0) {
            if (q[k] < 0)
                return 0;
            continue;
        }
        long n = q[k], d = p[k];
        if (d < 0) {
            n = -n;
            d = -d;
        }
        if (p[k] < 0) {
            if (n * d0 > n0 * d) { /* t > t0 */
                n0 = n;
                d0 = d;
            }
        } else if (n * d1 < n1 * d) {
            n1 = n;
            d1 = d;
        }
    }
    return n0 * d1 <= n1 * d0;
}

typedef struct world {
    uint32_t w, h;
    uint8_t *stand;
} world;

static int stands(const world *wd, long x, long y)
{
    return x >= 0 && y >= 0 && x < (long)wd->w && y < (long)wd->h && wd->stand[(size_t)y * wd->w + x];
}

/* One action from s, with this test's own rules; 0 when illegal. */
static int act(const world *wd, const nb_model *m, const nb_motion_state *s, int turn, unsigned l2,
               nb_motion_state *to, double *cost)
{
    unsigned H = nb_model_headings(m), S = nb_model_speeds(m);
    unsigned ch = nb_model_speed_change(m);
    if (l2 >= S || (l2 > s->speed ? l2 - s->speed : s->speed - l2) > ch ||
        abs(turn) > (int)nb_model_turn(m, l2))
        return 0;
    unsigned h2 = (unsigned)(((int)s->heading + turn) % (int)H + (int)H) % H;
    double v = nb_model_speed(m, l2);
    int dx, dy;
    nb_model_offset(m, h2, &dx, &dy);
    *to = *s;
    to->heading = (uint16_t)h2;
    to->speed = (uint16_t)l2;
    *cost = nb_model_turn_cost(m) * abs(turn);
    if (v == 0) {
        *cost += nb_model_still_cost(m);
        return (to->heading != s->heading || to->speed != s->speed) && stands(wd, s->x, s->y);
    }
    int sg = v > 0 ? 1 : -1;
    for (int j = (dy < 0 ? dy : 0); j <= (dy > 0 ? dy : 0); j++)
        for (int i = (dx < 0 ? dx : 0); i <= (dx > 0 ? dx : 0); i++)
            if (clip_meets(dx, dy, i, j) && !stands(wd, s->x + sg * i, s->y + sg * j))
                return 0;
    to->x += sg * dx;
    to->y += sg * dy;
    *cost += sqrt((double)(dx * dx + dy * dy)) / fabs(v);
    return 1;
}

/* Plain Dijkstra over all states of the map; relaxed, over (cell,
 * heading) with every action of every speed level allowed from every
 * state (as if the agent had that speed already): the relaxation the
 * heading heuristic solves, done here. */
static double search(const world *wd, const nb_model *m, const nb_motion_state *a,
                     const nb_motion_state *b, int relaxed)
{
    unsigned H = nb_model_headings(m), S = nb_model_speeds(m), sh = relaxed ? H : H * S;
    size_t n = (size_t)wd->w * wd->h * sh;
    double *dist = malloc(n * sizeof *dist);
    uint32_t *pos = malloc(n * sizeof *pos);
    nbi_heap heap;
    nbi_heap_init(&heap, NULL, 1024, pos);
    for (size_t i = 0; i < n; i++) {
        dist[i] = INFINITY;
        pos[i] = NBI_HEAP_NONE;
    }
#define SID(s) (((size_t)(s).y * wd->w + (size_t)(s).x) * sh + (relaxed ? 0 : (s).speed * H) + (s).heading)
    dist[SID(*a)] = 0;
    nbi_heap_push(&heap, 0, 0, (uint32_t)SID(*a));
    double res = INFINITY;
    while (!nbi_heap_empty(&heap)) {
        size_t id = nbi_heap_pop(&heap).id;
        size_t cell = id / sh;
        nb_motion_state s = {(int32_t)(cell % wd->w), (int32_t)(cell / wd->w),
                             (uint16_t)(id % sh % H), (uint16_t)(id % sh / H)};
        if (s.x == b->x && s.y == b->y && (relaxed || b->speed == NB_SPEED_ANY || s.speed == b->speed) &&
            (b->heading == NB_HEADING_ANY || s.heading == b->heading)) {
            res = dist[id];
            break;
        }
        for (unsigned l2 = 0; l2 < S; l2++)
            for (int t = -(int)H / 2; t <= (int)H / 2; t++) {
                nb_motion_state to;
                double c;
                if (relaxed)
                    s.speed = (uint16_t)l2;
                if (!act(wd, m, &s, t, l2, &to, &c))
                    continue;
                size_t k = SID(to);
                if (dist[id] + c < dist[k]) {
                    dist[k] = dist[id] + c;
                    nbi_heap_push(&heap, dist[k], 0, (uint32_t)k);
                }
            }
    }
#undef SID
    free(dist);
    free(pos);
    nbi_heap_free(&heap);
    return res;
}

static double dijkstra(const world *wd, const nb_model *m, const nb_motion_state *a,
                       const nb_motion_state *b)
{
    return search(wd, m, a, b, 0);
}

/* The path is legal step by step; its steps' costs sum to cost. */
static int path_legal(const world *wd, const nb_model *m, const nb_motion_state *p, size_t n,
                      double cost, const char *what)
{
    double sum = 0;
    unsigned H = nb_model_headings(m), S = nb_model_speeds(m);
    if (n == 0 || !stands(wd, p[0].x, p[0].y)) {
        diag("%s: empty path or a start off the standable cells", what);
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        double best = INFINITY;
        for (unsigned l2 = 0; l2 < S; l2++)
            for (int t = -(int)H / 2; t <= (int)H / 2; t++) {
                nb_motion_state to;
                double c;
                if (act(wd, m, &p[i - 1], t, l2, &to, &c) && to.x == p[i].x && to.y == p[i].y &&
                    to.heading == p[i].heading && to.speed == p[i].speed && c < best)
                    best = c;
            }
        if (!isfinite(best)) {
            diag("%s: no legal action from (%d,%d,h%u,l%u) to (%d,%d,h%u,l%u)", what, p[i - 1].x,
                 p[i - 1].y, p[i - 1].heading, p[i - 1].speed, p[i].x, p[i].y, p[i].heading, p[i].speed);
            return 0;
        }
        sum += best;
    }
    if (fabs(sum - cost) > 1e-6 * (1 + cost)) {
        diag("%s: steps sum to %g, the plan says %g", what, sum, cost);
        return 0;
    }
    return 1;
}

/* ---- a level in a bundle ---- */

typedef struct level {
    nb_bundle *b;
    nb_model *m;
    nb_perimeter *p;
    nb_motion *ws;
    world wd;
} level;

/* layers: 0 the level alone; 1 with mkclear's layers; 2 with those and
 * an abstract graph, the workspace prepared for routes over it. */
static int make_level_layers(const char *model, const nbb_grid *grid, const char *agents_yaml,
                             const char *agent, unsigned sector, unsigned radius, int layers,
                             level *lv)
{
    static nb_model src;
    static nbi_agentset agents;
    nbi_legend legend;
    nb_err err;
    nbb_builder *bl;
    char file[64];
    snprintf(file, sizeof file, "data/models/%s.yaml", model);
    const char *path = tu_path(tu_tmpdir(), "m.nbk");
    nbb_perimeter_opts o = {.radius = radius, .layout = NB_PERIM_SYMMETRIC, .entry_bits = 16};
    memset(lv, 0, sizeof *lv);
    nbi_legend_default(&legend);
    nb_status st = agents_yaml ? nbb_agents_parse(agents_yaml, strlen(agents_yaml), "a.yaml", &legend,
                                                  &agents, &err)
                               : nbb_agents_default(&legend, &agents, &err);
    if (st == NB_OK)
        st = nbb_model_read(tu_src(file), &src, &err);
    if (st == NB_OK)
        st = nbb_builder_new(&bl, &err);
    if (st == NB_OK) {
        st = nbb_put_level(bl, &legend, &agents, grid, 0, &err);
        if (st == NB_OK && layers)
            st = nbb_bake_clearance(bl, &legend, &agents, grid, 0, NULL, &err);
        if (st == NB_OK)
            st = nbb_put_model(bl, &src, &err);
        if (st == NB_OK)
            st = nbb_put_perimeter(bl, &src, &o, NULL, &err);
        if (st == NB_OK)
            st = nbb_builder_write(bl, path, &err);
        nbb_builder_free(bl);
    }
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, &lv->b, &err);
    if (st == NB_OK && layers > 1)
        st = tu_add_abstract(&lv->b, tu_path(tu_tmpdir(), "a.nbk"), 8, &err);
    if (st == NB_OK)
        st = nb_model_open(lv->b, model, &lv->m, &err);
    if (st == NB_OK)
        st = nb_perimeter_open(lv->b, lv->m, &lv->p, &err);
    const nb_agent *a = st == NB_OK ? tu_agent(lv->b, agent) : NULL;
    if (st == NB_OK && !a)
        st = nbi_fail(&err, NB_ERR_NOTFOUND, "no agent %s", agent);
    if (st == NB_OK)
        st = tu_motion_open(lv->b, lv->m, lv->p, a->capability, a->size, sector, &lv->ws, &err);
    if (st == NB_OK && layers > 1)
        st = nb_motion_use_haa(lv->ws, &err);
    if (st != NB_OK) {
        diag("%s", err.msg);
        return 0;
    }
    /* The test's own standability: the agent's whole square on its terrains. */
    lv->wd.w = grid->width;
    lv->wd.h = grid->height;
    lv->wd.stand = malloc((size_t)grid->width * grid->height);
    for (long y = 0; y < (long)grid->height; y++)
        for (long x = 0; x < (long)grid->width; x++) {
            int okc = 1;
            for (long j = 0; j < (long)a->size && okc; j++)
                for (long i = 0; i < (long)a->size && okc; i++) {
                    int t = nb_map_terrain(lv->b, x + i, y + j);
                    okc = t != NB_OBSTACLE && (a->capability >> t & 1);
                }
            lv->wd.stand[(size_t)y * grid->width + x] = (uint8_t)okc;
        }
    return 1;
}

static int make_level(const char *model, const nbb_grid *grid, const char *agents_yaml,
                      const char *agent, unsigned sector, unsigned radius, level *lv)
{
    return make_level_layers(model, grid, agents_yaml, agent, sector, radius, 0, lv);
}

static void free_level(level *lv)
{
    nb_motion_close(lv->ws);
    nb_perimeter_close(lv->p);
    nb_model_close(lv->m);
    nb_bundle_close(lv->b);
    free(lv->wd.stand);
}

static nb_motion_state random_state(tu_rng *r, const level *lv)
{
    nb_motion_state s;
    do {
        s.x = (int32_t)tu_below(r, lv->wd.w);
        s.y = (int32_t)tu_below(r, lv->wd.h);
    } while (!stands(&lv->wd, s.x, s.y));
    s.heading = (uint16_t)tu_below(r, nb_model_headings(lv->m));
    s.speed = (uint16_t)nb_model_stop(lv->m);
    return s;
}

/* A query with the defaults between two random states. */
static void random_query(tu_rng *r, const level *lv, nb_motion_query *q)
{
    nb_motion_query_init(q);
    q->start = random_state(r, lv);
    q->goal = random_state(r, lv);
}

/* A random w x h map with pct% obstacles and a level on it (tables of
 * the given radius); 0, said so, when it cannot be made. */
static int random_level(const char *model, tu_rng *r, uint32_t w, uint32_t h, unsigned pct,
                        unsigned radius, nbb_grid *grid, level *lv)
{
    tu_random_grid(r, w, h, pct, 1, grid);
    if (make_level(model, grid, NULL, "movingai", 0, radius, lv))
        return 1;
    ok(0, "%s: a level", model);
    nbb_grid_free(grid);
    return 0;
}

/* Optimal plans and admissible heuristics on random maps. */
static void optimal(const char *model, uint64_t seed)
{
    tu_rng r = {seed};
    nbb_grid grid;
    level lv;
    if (!random_level(model, &r, 18, 14, 12, 5, &grid, &lv))
        return;
    enum { NHS = 6 };
    static const int hs[NHS] = {NB_MH_OCTILE, NB_MH_PERIMETER, NB_MH_GRID, NB_MH_PERIMETER_GRID,
                                NB_MH_HEADING, NB_MH_PERIMETER_HEADING};
    int queries = 0, optimal_n[NHS] = {0}, admissible[NHS] = {0}, legal[NHS] = {0}, reach = 0;
    uint64_t work[NHS] = {0};
    for (int i = 0; i < 9; i++) {
        nb_motion_query q;
        random_query(&r, &lv, &q);
        if (i >= 6)
            q.goal.heading = NB_HEADING_ANY; /* stop there, facing anywhere */
        if (i >= 8)
            q.goal.speed = NB_SPEED_ANY;     /* or just pass through */
        double best = dijkstra(&lv.wd, lv.m, &q.start, &q.goal);
        queries++;
        reach += isfinite(best);
        for (int k = 0; k < NHS; k++) {
            nb_motion_result res;
            nb_err err;
            q.heuristic = hs[k];
            if (nb_motion_find(lv.ws, &q, &res, &err) != NB_OK) {
                diag("%s", err.msg);
                continue;
            }
            work[k] += res.expanded;
            int same = isfinite(best) ? (res.status == NB_PATH_FOUND) && fabs(res.cost - best) < 1e-6 : !(res.status == NB_PATH_FOUND);
            optimal_n[k] += same;
            admissible[k] += res.h_start <= best + 1e-6;
            if (!same)
                diag("%s %s: (%d,%d,h%u) to (%d,%d,h%u): plan %s %g, Dijkstra %g", model,
                     nb_motion_heuristic_name(hs[k]), q.start.x, q.start.y, q.start.heading, q.goal.x,
                     q.goal.y, q.goal.heading, (res.status == NB_PATH_FOUND) ? "costs" : "not found", res.cost, best);
            size_t n;
            const nb_motion_state *p = (n = res.path_len, res.path);
            legal[k] += !(res.status == NB_PATH_FOUND) || path_legal(&lv.wd, lv.m, p, n, res.cost, model);
        }
    }
    for (int k = 0; k < NHS; k++) {
        is_int(optimal_n[k], queries, "%s, %s heuristic: A* costs what Dijkstra finds (%d of %d "
               "reachable, 3 goals at any heading, 1 of them at any speed), %llu states expanded", model, nb_motion_heuristic_name(hs[k]), reach,
               queries, (unsigned long long)work[k]);
        is_int(admissible[k], queries, "%s, %s heuristic: admissible at every start", model,
               nb_motion_heuristic_name(hs[k]));
        is_int(legal[k], queries, "%s, %s heuristic: every path legal step by step", model,
               nb_motion_heuristic_name(hs[k]));
    }
    /* Weighted A* and the extended heuristic: legal, and weighted A*
     * with a consistent heuristic stays within its weight. */
    int within = 0, legal_w = 0, trunc_ok = 0, n = 0;
    for (int i = 0; i < 6; i++) {
        nb_motion_query q;
        nb_motion_result res, tr;
        random_query(&r, &lv, &q);
        double best = dijkstra(&lv.wd, lv.m, &q.start, &q.goal);
        if (!isfinite(best))
            continue;
        n++;
        q.heuristic = i % 3 == 0 ? NB_MH_OCTILE : i % 3 == 1 ? NB_MH_GRID : NB_MH_HEADING;
        q.weight = 1.5;
        nb_motion_find(lv.ws, &q, &res, NULL);
        within += (res.status == NB_PATH_FOUND) && res.cost <= 1.5 * best + 1e-6;
        size_t len;
        const nb_motion_state *p = (len = res.path_len, res.path);
        q.heuristic = NB_MH_EXTENDED_GRID;
        q.weight = 1.2;
        legal_w += (res.status == NB_PATH_FOUND) && path_legal(&lv.wd, lv.m, p, len, res.cost, model);
        q.truncate = 2;
        nb_motion_find(lv.ws, &q, &tr, NULL);
        p = (len = tr.path_len, tr.path);
        trunc_ok += (tr.status == NB_PATH_FOUND) && labs((long)tr.end.x - q.goal.x) <= 2 && labs((long)tr.end.y - q.goal.y) <= 2 &&
                    path_legal(&lv.wd, lv.m, p, len, tr.cost, model);
    }
    is_int(within, n, "%s: weighted A* (w 1.5) costs at most 1.5 times the optimum", model);
    is_int(legal_w, n, "%s: and its paths are legal", model);
    is_int(trunc_ok, n, "%s: truncated searches (k 2) stop within 2 cells of the goal, legally", model);
    free_level(&lv);
    nbb_grid_free(&grid);
}

/* The heading heuristic against the relaxation done here, from stopped
 * and moving starts, with and without classes of headings. */
static void heading_relaxation(const char *model, uint64_t seed)
{
    tu_rng r = {seed};
    nbb_grid grid;
    level lv;
    if (!random_level(model, &r, 16, 12, 15, 4, &grid, &lv))
        return;
    unsigned H = nb_model_headings(lv.m), S = nb_model_speeds(lv.m);
    /* One class per heading, the default, and 2 and 4 headings a class. */
    enum { NC = 4 };
    unsigned classes[NC] = {H, 0, H / 2, H / 4};
    int n = 0, exact = 0, below[NC] = {0}, admissible[NC] = {0}, optimal_n[NC] = {0}, unreachable = 0;
    int same_default = 0, want_default = strcmp(model, "vehicle") == 0 ? 0 : 3;
    double gap = 0;
    for (int i = 0; i < 12; i++) {
        nb_motion_query q;
        nb_motion_query_init(&q);
        q.start = random_state(&r, &lv);
        q.start.speed = (uint16_t)tu_below(&r, S); /* moving starts too */
        q.goal = random_state(&r, &lv);
        if (i % 3 == 1)
            q.goal.heading = NB_HEADING_ANY;
        double want = search(&lv.wd, lv.m, &q.start, &q.goal, 1);
        double best = dijkstra(&lv.wd, lv.m, &q.start, &q.goal);
        n++;
        unreachable += !isfinite(want);
        if (isfinite(want) && isfinite(best))
            gap += best - want;
        q.heuristic = NB_MH_HEADING;
        double h_full = NAN, h_c[NC];
        for (int c = 0; c < NC; c++) {
            nb_motion_result res;
            nb_err err;
            q.heading_classes = classes[c];
            if (nb_motion_find(lv.ws, &q, &res, &err) != NB_OK) {
                diag("%s", err.msg);
                continue;
            }
            if (c == 0) {
                h_full = res.h_start;
                exact += res.h_start == want || fabs(res.h_start - want) < 1e-9;
                if (!(res.h_start == want || fabs(res.h_start - want) < 1e-9))
                    diag("%s (%d,%d,h%u,l%u) to (%d,%d,h%u): heuristic %g, relaxation %g", model,
                         q.start.x, q.start.y, q.start.heading, q.start.speed, q.goal.x, q.goal.y,
                         q.goal.heading, res.h_start, want);
            }
            below[c] += res.h_start <= h_full + 1e-9;
            h_c[c] = res.h_start;
            admissible[c] += res.h_start <= best + 1e-9;
            optimal_n[c] += isfinite(best) ? (res.status == NB_PATH_FOUND) && fabs(res.cost - best) < 1e-6 : !(res.status == NB_PATH_FOUND);
        }
        same_default += h_c[1] == h_c[want_default];
    }
    is_int(exact, n, "%s: the heading heuristic at %d starts (stopped or moving; %d cannot reach "
           "their goals even relaxed) is the least time with the speed left free, as a Dijkstra "
           "over (cell, heading) done here finds (true costs %.2f above it in all)", model, n,
           unreachable, gap);
    for (int c = 0; c < NC; c++) {
        char what[64];
        snprintf(what, sizeof what, c == 1 ? "the default classes of headings" : "%u classes of headings",
                 classes[c]);
        is_int(below[c] + admissible[c], 2 * n, "%s, %s: no more than one class per heading gives, nor "
               "than the true cost", model, what);
        is_int(optimal_n[c], n, "%s, %s: A* costs what Dijkstra finds", model, what);
    }
    /* The vehicle cannot turn at top speed: its default is one class per
     * heading; the others turn by 3 at full speed: 4 headings a class. */
    is_int(same_default, n, "%s: the default classes are %s (the same values)", model,
           want_default ? "4 headings a class" : "one per heading");
    free_level(&lv);
    nbb_grid_free(&grid);
}

/* A 2 x 2 agent that keeps to ground on a map of ground and swamp. */
static void sized(void)
{
    static const char agents[] = "agents:\n  - {name: cart, size: 2, capability: [ground]}\n";
    tu_rng r = {99};
    nbb_grid grid;
    level lv;
    tu_random_grid(&r, 22, 16, 3, 1, &grid);
    for (size_t i = 0; i < (size_t)grid.width * grid.height; i++)
        if (grid.cells[i] == '.' && tu_below(&r, 100) < 5)
            grid.cells[i] = 'S';
    if (!make_level("tank", &grid, agents, "cart", 0, 4, &lv)) {
        ok(0, "sized level");
        nbb_grid_free(&grid);
        return;
    }
    int good = 0, n = 0, found = 0;
    for (int i = 0; i < 6; i++) {
        nb_motion_query q;
        nb_motion_result res;
        random_query(&r, &lv, &q);
        q.heuristic = NB_MH_PERIMETER_GRID;
        double best = dijkstra(&lv.wd, lv.m, &q.start, &q.goal);
        nb_motion_find(lv.ws, &q, &res, NULL);
        size_t len;
        const nb_motion_state *p = (len = res.path_len, res.path);
        n++;
        found += (res.status == NB_PATH_FOUND);
        good += isfinite(best) ? (res.status == NB_PATH_FOUND) && fabs(res.cost - best) < 1e-6 &&
                                     path_legal(&lv.wd, lv.m, p, len, res.cost, "cart")
                               : !(res.status == NB_PATH_FOUND);
    }
    ok(good == n && found >= n / 2, "a 2 x 2 tank that keeps to ground: optimal and legal for its "
       "whole square (%d of %d found)", found, n);
    free_level(&lv);
    nbb_grid_free(&grid);
}

/* Routes through sectors on a larger map. */
static void routes(const char *model)
{
    tu_rng r = {7};
    nbb_grid grid;
    level lv;
    tu_random_grid(&r, 60, 48, 8, 1, &grid);
    if (!make_level(model, &grid, NULL, "movingai", 6, 6, &lv)) {
        ok(0, "route level");
        nbb_grid_free(&grid);
        return;
    }
    int good = 0, n = 0, found = 0;
    for (int i = 0; i < 8; i++) {
        nb_motion_query q;
        nb_motion_result res;
        nb_err err;
        size_t segs;
        random_query(&r, &lv, &q);
        q.heuristic = i < 4 ? NB_MH_EXTENDED : NB_MH_EXTENDED_HEADING;
        q.heading_classes = i == 7 ? nb_model_headings(lv.m) / 4 : 0;
        q.weight = 1.2;
        q.truncate = 3;
        q.max_expansions = 200000;
        q.waypoint_heading = i % 2;
        if (nb_motion_route_find(lv.ws, &q, 3, NULL, NULL, &res, &segs, &err) != NB_OK) {
            diag("%s", err.msg);
            continue;
        }
        size_t len;
        const nb_motion_state *p = (len = res.path_len, res.path);
        n++;
        found += (res.status == NB_PATH_FOUND);
        good += !(res.status == NB_PATH_FOUND) ||
                (p[len - 1].x == q.goal.x && p[len - 1].y == q.goal.y &&
                 p[len - 1].heading == q.goal.heading && p[len - 1].speed == q.goal.speed &&
                 p[0].x == q.start.x && p[0].y == q.start.y && path_legal(&lv.wd, lv.m, p, len, res.cost, model));
    }
    ok(good == n && found > 0, "%s: routes over sectors of 6, segments of 3, truncation 3 (waypoints "
       "at any heading or facing the way in; extended and extended+heading heuristics): %d of %d "
       "found, each legal from the start to the goal state", model, found, n);
    free_level(&lv);
    nbb_grid_free(&grid);
}

/* Routes over the HAA* graph for lv's agent: n random queries (when
 * wall is not 0, the first `across` with their ends on either side of
 * x = wall, the others on one side), each against the test's own
 * Dijkstra. */
static void haa_routes(const char *what, level *lv, tu_rng *r, int n, long wall, int across)
{
    int good = 0, found = 0, none = 0, multi = 0;
    for (int i = 0; i < n; i++) {
        nb_motion_query q;
        nb_motion_result res;
        nb_err err;
        size_t segs, len;
        nb_motion_query_init(&q);
        do {
            q.start = random_state(r, lv);
            q.goal = random_state(r, lv);
        } while (wall && (i < across) == ((q.start.x < wall) == (q.goal.x < wall)));
        q.heuristic = i % 3 ? NB_MH_EXTENDED_HEADING : NB_MH_EXTENDED;
        q.weight = 1.2;
        q.truncate = 3;
        q.waypoint_heading = i % 2;
        q.abstraction = NB_ROUTE_HAA;
        double best = dijkstra(&lv->wd, lv->m, &q.start, &q.goal);
        if (nb_motion_route_find(lv->ws, &q, 3, NULL, NULL, &res, &segs, &err) != NB_OK) {
            diag("%s: %s", what, err.msg);
            continue;
        }
        const nb_motion_state *p = (len = res.path_len, res.path);
        found += (res.status == NB_PATH_FOUND);
        none += !isfinite(best);
        multi += segs > 1;
        if (!isfinite(best)) {
            good += !(res.status == NB_PATH_FOUND);
            continue;
        }
        if (!(res.status == NB_PATH_FOUND)) {
            diag("%s: no route from (%d,%d) to (%d,%d), the optimum costs %g", what, q.start.x,
                 q.start.y, q.goal.x, q.goal.y, best);
            continue;
        }
        int ends = len > 0 && memcmp(&p[0], &q.start, sizeof *p) == 0 &&
                   memcmp(&p[len - 1], &q.goal, sizeof *p) == 0;
        if (!ends || res.cost < best - 1e-6 * (1 + best))
            diag("%s: ends %d, cost %g against the optimum %g", what, ends, res.cost, best);
        good += ends && res.cost >= best - 1e-6 * (1 + best) &&
                path_legal(&lv->wd, lv->m, p, len, res.cost, what);
    }
    ok(good == n && multi > 0 && (across == 0 || none > 0),
       "%s: routes over the HAA* graph: %d of %d found (%d unreachable), %d of several segments; "
       "each legal from start to goal, no cheaper than the optimum, found when it exists",
       what, found, n, none, multi);
}

/* HAA*-routed paths on random levels (one cut in two by a wall), and
 * on the sample level for a small and a large agent. */
static void haa_levels(void)
{
    static const char *const agents[] = {"scout", "wagon"};
    tu_rng r = {17};
    for (int k = 0; k < 3; k++) {
        nbb_grid grid;
        level lv;
        char what[64];
        tu_random_grid(&r, 48, 36, 8, 1, &grid);
        long wall = k == 2 ? 24 : 0;
        for (uint32_t y = 0; wall && y < grid.height; y++)
            grid.cells[(size_t)y * grid.width + (size_t)wall] = '@';
        snprintf(what, sizeof what, "%s, random level%s", models[k], wall ? " with a wall" : "");
        if (make_level_layers(models[k], &grid, NULL, "movingai", 0, 6, 2, &lv)) {
            haa_routes(what, &lv, &r, 6, wall, wall ? 3 : 0);
            free_level(&lv);
        } else {
            ok(0, "%s", what);
        }
        nbb_grid_free(&grid);
    }
    nbi_legend legend;
    nbi_agentset set;
    nbb_grid grid;
    size_t ylen;
    tu_read_sample(&legend, &set, &grid);
    char *yaml = tu_read(tu_src("data/sample-agents.yaml"), &ylen);
    for (int k = 0; k < 2; k++) {
        level lv;
        char what[64];
        snprintf(what, sizeof what, "tank, sample level, %s", agents[k]);
        if (make_level_layers("tank", &grid, yaml, agents[k], 0, 6, 2, &lv)) {
            haa_routes(what, &lv, &r, 6, 0, 0);
            free_level(&lv);
        } else {
            ok(0, "%s", what);
        }
    }
    free(yaml);
    nbb_grid_free(&grid);
}

/* Routes over HAA* refused: a bundle without a graph, an agent the graph
 * does not serve, a workspace not prepared, an unknown abstraction. */
static void haa_refused(void)
{
    tu_rng r = {23};
    nbb_grid grid;
    level plain, haa;
    nb_err err;
    tu_random_grid(&r, 20, 16, 5, 1, &grid);
    if (!make_level_layers("humanoid", &grid, NULL, "movingai", 6, 3, 1, &plain) ||
        !make_level_layers("humanoid", &grid, NULL, "movingai", 6, 3, 2, &haa)) {
        ok(0, "levels");
        nbb_grid_free(&grid);
        return;
    }
    is_int(nb_motion_use_haa(plain.ws, &err), NB_ERR_NOTFOUND,
           "routes over HAA* need an abstract graph in the bundle");
    like(err.msg, "no abstract graph; bake one with mkabstract", "and say so");
    nb_motion_query q;
    nb_motion_result res;
    random_query(&r, &plain, &q);
    q.abstraction = NB_ROUTE_HAA;
    is_int(nb_motion_route_find(plain.ws, &q, 3, NULL, NULL, &res, NULL, &err), NB_ERR_ARG,
           "a route over HAA* on a workspace not prepared is refused");
    like(err.msg, "needs the workspace prepared for it", "and named");
    q.abstraction = 7;
    is_int(nb_motion_route_find(haa.ws, &q, 3, NULL, NULL, &res, NULL, &err), NB_ERR_ARG,
           "an unknown abstraction is refused");
    q.abstraction = NB_ROUTE_SECTORS;
    ok(nb_motion_route_find(haa.ws, &q, 3, NULL, NULL, &res, NULL, &err) == NB_OK,
       "one workspace routes over sectors and over HAA*");
    nb_motion *ws;
    const nb_agent *a = tu_agent(haa.b, "movingai");
    ok(tu_motion_open(haa.b, haa.m, NULL, a->capability, 2, 0, &ws, &err) == NB_OK,
       "a workspace for a size the agent set lacks");
    is_int(nb_motion_use_haa(ws, &err), NB_ERR_NOTFOUND, "the graph does not serve it");
    like(err.msg, "does not serve size 2; it serves sizes 1", "and says which it serves");
    nb_motion_close(ws);
    is_str(nb_route_abstraction_name(NB_ROUTE_HAA), "haa", "the abstractions' names");
    ok(tu_abstraction("sectors") == NB_ROUTE_SECTORS &&
           tu_abstraction("hpa") == -1 && !nb_route_abstraction_name(2),
       "parse and name agree");
    free_level(&plain);
    free_level(&haa);
    nbb_grid_free(&grid);
}

static void sweeps(void)
{
    for (int i = 0; i < 3; i++) {
        nb_model m;
        nb_err err;
        char file[64];
        snprintf(file, sizeof file, "data/models/%s.yaml", models[i]);
        if (nbb_model_read(tu_src(file), &m, &err) != NB_OK) {
            ok(0, "%s", err.msg);
            continue;
        }
        int good = 0, H = (int)nb_model_headings(&m);
        for (int h = 0; h < H; h++) {
            int dx, dy, want = 0, got = 1;
            const int8_t *c;
            nb_model_offset(&m, (unsigned)h, &dx, &dy);
            unsigned n = nb_model_sweep(&m, (unsigned)h, &c);
            for (int j = (dy < 0 ? dy : 0); j <= (dy > 0 ? dy : 0); j++)
                for (int k = (dx < 0 ? dx : 0); k <= (dx > 0 ? dx : 0); k++)
                    want += (k || j) && clip_meets(dx, dy, k, j);
            for (unsigned k = 0; k < n; k++)
                got &= clip_meets(dx, dy, c[2 * k], c[2 * k + 1]) && (c[2 * k] || c[2 * k + 1]);
            got &= n > 0 && c[2 * (n - 1)] == dx && c[2 * (n - 1) + 1] == dy;
            good += got && (int)n == want;
        }
        is_int(good, H, "%s: every heading's sweep is the cells its segment meets, the end last",
               models[i]);
    }
    /* By hand, as formats/motion.md lists them. */
    nb_model m;
    nbb_model_read(tu_src("data/models/tank.yaml"), &m, NULL);
    const int8_t *c;
    unsigned n = nb_model_sweep(&m, 1, &c); /* (3, 1) crosses the corner (2, 1) */
    char buf[128] = "";
    for (unsigned k = 0; k < n; k++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "(%d,%d)", c[2 * k], c[2 * k + 1]);
    is_str(buf, "(1,0)(1,1)(2,0)(2,1)(3,1)",
           "tank heading 1 (3, 1): both cells beside the corner it crosses, in order along the step");
}

/* With mkclear's layers in the bundle: the same plans, and a goal in
 * another component is known unreachable without a search. */
static void layered(void)
{
    tu_rng r = {41};
    nbb_grid grid;
    level plain, lay;
    tu_random_grid(&r, 24, 16, 6, 2, &grid);
    for (uint32_t y = 0; y < grid.height; y++)
        grid.cells[(size_t)y * grid.width + 12] = '@'; /* a wall: two components */
    if (!make_level_layers("vehicle", &grid, NULL, "movingai", 0, 4, 0, &plain) ||
        !make_level_layers("vehicle", &grid, NULL, "movingai", 0, 4, 1, &lay)) {
        ok(0, "layered levels");
        nbb_grid_free(&grid);
        return;
    }
    ok(nb_clearance_cap(lay.b, tu_agent(lay.b, "movingai")->capability) >= 1,
       "the bundle has a clearance layer for the agent's capability");
    int same = 0, n = 0;
    for (int i = 0; i < 6; i++) {
        nb_motion_query q;
        nb_motion_result a, b;
        nb_motion_query_init(&q);
        q.heuristic = NB_MH_PERIMETER_GRID;
        do {
            q.start = random_state(&r, &lay);
            q.goal = random_state(&r, &lay);
        } while ((q.start.x < 12) != (q.goal.x < 12));
        nb_motion_find(plain.ws, &q, &a, NULL);
        nb_motion_find(lay.ws, &q, &b, NULL);
        n++;
        same += (a.status == NB_PATH_FOUND) == (b.status == NB_PATH_FOUND) && (!(a.status == NB_PATH_FOUND) || fabs(a.cost - b.cost) < 1e-9) && a.expanded == b.expanded;
    }
    is_int(same, n, "plans are the same whether standability comes from the layer or the map");
    nb_motion_query q;
    nb_motion_result a, b;
    nb_motion_query_init(&q);
    do {
        q.start = random_state(&r, &lay);
        q.goal = random_state(&r, &lay);
    } while (q.start.x > 10 || q.goal.x < 13);
    nb_motion_find(plain.ws, &q, &a, NULL);
    nb_motion_find(lay.ws, &q, &b, NULL);
    ok(!(a.status == NB_PATH_FOUND) && a.expanded > 0 && !(b.status == NB_PATH_FOUND) && b.expanded == 0,
       "a goal beyond the wall: %llu states searched without the component layer, none with it",
       (unsigned long long)a.expanded);
    free_level(&plain);
    free_level(&lay);
    nbb_grid_free(&grid);
}

static void bad_queries(void)
{
    tu_rng r = {5};
    nbb_grid grid;
    level lv;
    tu_random_grid(&r, 10, 10, 0, 1, &grid);
    grid.cells[0] = '@';
    if (!make_level("humanoid", &grid, NULL, "movingai", 0, 3, &lv)) {
        ok(0, "level");
        nbb_grid_free(&grid);
        return;
    }
    nb_motion_query q;
    nb_motion_result res;
    nb_err err;
    nb_motion_query_init(&q);
    q.start = (nb_motion_state){0, 0, 0, 0};
    q.goal = (nb_motion_state){5, 5, 0, 0};
    ok(nb_motion_find(lv.ws, &q, &res, &err) == NB_OK && res.status == NB_PATH_START_BLOCKED,
       "a start on an obstacle: no path, the start blocked");
    ok(err.code == NB_OK && res.expanded == 0, "an answer, not an error, and no search");
    q.start.x = 1;
    q.goal.x = 10;
    is_int(nb_motion_find(lv.ws, &q, &res, &err), NB_ERR_OUTSIDE, "a goal off the map is refused");
    like(err.msg, "goal (10, 5) is off the 10 x 10 map", "and named");
    q.goal.x = 5;
    q.goal.heading = 16;
    is_int(nb_motion_find(lv.ws, &q, &res, &err), NB_ERR_ARG, "a heading the model lacks is refused");
    q.goal.heading = 0;
    q.weight = 0.5;
    is_int(nb_motion_find(lv.ws, &q, &res, &err), NB_ERR_ARG, "a weight below 1 is refused");
    q.weight = 1;
    q.heading_classes = 5;
    q.heuristic = NB_MH_HEADING;
    is_int(nb_motion_find(lv.ws, &q, &res, &err), NB_ERR_ARG, "5 classes of 16 headings are refused");
    like(err.msg, "5 classes of headings do not divide model humanoid's 16 headings", "and named");
    q.heading_classes = 0;
    q.heuristic = NB_MH_OCTILE;
    q.max_expansions = 3;
    ok(nb_motion_find(lv.ws, &q, &res, &err) == NB_OK && !(res.status == NB_PATH_FOUND) && (res.status == NB_PATH_LIMIT) && res.expanded == 3,
       "the expansion limit stops a search, said so");
    nb_motion *ws2;
    is_int(tu_motion_open(lv.b, lv.m, NULL, 1, 1, 0, &ws2, &err), NB_OK, "a workspace without a table");
    q.heuristic = NB_MH_PERIMETER;
    q.max_expansions = 0;
    is_int(nb_motion_find(ws2, &q, &res, &err), NB_ERR_NOTFOUND, "the perimeter heuristic needs a table");
    like(err.msg, "needs the perimeter table of model humanoid", "and says so");
    is_int(nb_motion_route_find(ws2, &q, 3, NULL, NULL, &res, NULL, &err), NB_ERR_NOTFOUND,
           "so does a route with it");
    q.heuristic = NB_MH_OCTILE;
    is_int(nb_motion_route_find(ws2, &q, 3, NULL, NULL, &res, NULL, &err), NB_ERR_ARG,
           "a route needs a workspace with sectors");
    nb_motion_close(ws2);
    /* Any int is a turn the caller may pass: the extremes are refused, not negated (abs(INT_MIN)
     * is undefined: make check-sanitize's UBSan sees it). */
    nb_motion_state from = {5, 5, 0, 0}, to;
    double cost;
    int turns[] = {INT_MIN, INT_MIN + 1, INT_MAX, -(int)nb_model_turn(lv.m, 1) - 1,
                   (int)nb_model_turn(lv.m, 1) + 1};
    int refused = 0;
    for (size_t i = 0; i < sizeof turns / sizeof turns[0]; i++)
        refused += nb_motion_action(lv.ws, &from, turns[i], 1, &to, &cost) == 0;
    is_int(refused, 5, "nb_motion_action: turns of INT_MIN, INT_MAX and one past the limit "
                       "either way are refused");
    ok(nb_motion_action(lv.ws, &from, -(int)nb_model_turn(lv.m, 1), 1, &to, &cost) == 1 &&
           nb_motion_action(lv.ws, &from, (int)nb_model_turn(lv.m, 1), 1, &to, &cost) == 1,
       "  and the limit itself, either way, is an action");
    free_level(&lv);
    nbb_grid_free(&grid);
}

/* Budgets and slices (navbake.h): a search advanced in slices of 1, 7 or 100 expansions gives
 * find's answer; a budget of half find's expansions, or a search finished before its end, gives
 * NB_PATH_LIMIT with a partial path from the start that is legal step by step and costs what it
 * says; advance or finish with no search begun is NB_ERR_ARG. */
static void slices(const char *model, uint64_t seed)
{
    tu_rng r = {seed};
    nbb_grid grid;
    level lv;
    if (!random_level(model, &r, 30, 24, 15, 5, &grid, &lv))
        return;
    nb_err err;
    nb_motion_result res, want;
    int done;
    is_int(nb_motion_step(lv.ws, 10, &done, &err), NB_ERR_ARG,
           "advance with no search begun: NB_ERR_ARG");
    is_int(nb_motion_finish(lv.ws, &res, &err), NB_ERR_ARG, "finish with no search begun: NB_ERR_ARG");
    int sliced_bad = 0, limit_bad = 0, early_bad = 0, limits = 0, found = 0;
    nb_motion_state *path = NULL;
    for (int k = 0; k < 40; k++) {
        nb_motion_query q;
        random_query(&r, &lv, &q);
        q.heuristic = k % 2 ? NB_MH_OCTILE : NB_MH_PERIMETER;
        if (nb_motion_find(lv.ws, &q, &want, &err) != NB_OK) {
            diag("%s: %s", model, err.msg);
            sliced_bad++;
            continue;
        }
        size_t wlen;
        const nb_motion_state *wp = (wlen = want.path_len, want.path);
        path = realloc(path, (wlen ? wlen : 1) * sizeof *path);
        if (wlen) /* no path: NULL, which memcpy may not be given */
            memcpy(path, wp, wlen * sizeof *path);
        found += want.status == NB_PATH_FOUND;
        static const uint64_t steps[3] = {1, 7, 100};
        for (int i = 0; i < 3; i++) {
            nb_status st = nb_motion_begin(lv.ws, &q, &err);
            done = 0;
            while (st == NB_OK && !done)
                st = nb_motion_step(lv.ws, steps[i], &done, &err);
            st = st == NB_OK ? nb_motion_finish(lv.ws, &res, &err) : st;
            size_t n;
            const nb_motion_state *p = (n = res.path_len, res.path);
            if (st != NB_OK || res.status != want.status || res.expanded != want.expanded ||
                res.generated != want.generated || res.cost != want.cost || n != wlen ||
                (n && memcmp(p, path, n * sizeof *p) != 0)) /* no path: NULL */
                sliced_bad++;
        }
        if (want.status != NB_PATH_FOUND || want.expanded < 4)
            continue;
        q.max_expansions = want.expanded / 2;
        limits++;
        size_t n = 0;
        const nb_motion_state *p = NULL;
        if (nb_motion_find(lv.ws, &q, &res, &err) != NB_OK || res.status != NB_PATH_LIMIT ||
            res.expanded != q.max_expansions || res.path_len == 0 ||
            !(p = (n = res.path_len, res.path)) || n != res.path_len || p[0].x != q.start.x ||
            p[0].y != q.start.y || !path_legal(&lv.wd, lv.m, p, n, res.cost, "a budget's path"))
            limit_bad++;
        q.max_expansions = 0;
        if (nb_motion_begin(lv.ws, &q, &err) != NB_OK ||
            nb_motion_step(lv.ws, want.expanded / 3, &done, &err) != NB_OK || done ||
            nb_motion_finish(lv.ws, &res, &err) != NB_OK || res.status != NB_PATH_LIMIT ||
            res.expanded != want.expanded / 3 || !(p = (n = res.path_len, res.path)) ||
            n != res.path_len || p[0].x != q.start.x || p[0].y != q.start.y ||
            !path_legal(&lv.wd, lv.m, p, n, res.cost, "an early finish"))
            early_bad++;
    }
    free(path);
    ok(found >= 10 && sliced_bad == 0,
       "%s: searches advanced in slices of 1, 7 and 100 give find's answer (%d found)", model,
       found);
    ok(limits >= 10 && limit_bad == 0,
       "%s: a budget of half the expansions: NB_PATH_LIMIT and a legal partial path (%d)", model,
       limits);
    is_int(early_bad, 0, "finished before the end: NB_PATH_LIMIT and a legal partial path");
    free_level(&lv);
    nbb_grid_free(&grid);
}

/* ---- a workspace that costs what its searches touch (issue 16) ---- */

typedef struct held {
    size_t live, peak;
} held;

static void *h_alloc(void *o, size_t n)
{
    held *h = o;
    size_t *p = malloc(sizeof(max_align_t) + n);
    if (!p)
        return NULL;
    *p = n;
    h->live += n;
    h->peak = h->live > h->peak ? h->live : h->peak;
    return (char *)p + sizeof(max_align_t);
}

static void h_free(void *o, void *ptr)
{
    held *h = o;
    size_t *p = (size_t *)(void *)((char *)ptr - sizeof(max_align_t));
    h->live -= *p;
    free(p);
}

static void *h_realloc(void *o, void *ptr, size_t n)
{
    if (!ptr)
        return h_alloc(o, n);
    void *q = h_alloc(o, n);
    if (!q)
        return NULL;
    size_t old = *(size_t *)(void *)((char *)ptr - sizeof(max_align_t));
    memcpy(q, ptr, old < n ? old : n);
    h_free(o, ptr);
    return q;
}

/* A motion workspace with a counting allocator on the bundle at path
 * (make_level's), and the bytes it holds after opening it. */
static nb_motion *counted_ws(const char *path, const char *model, held *h, nb_allocator *al,
                                nb_bundle **b, nb_model **m, nb_perimeter **p, size_t *base)
{
    nb_err err;
    *al = (nb_allocator){h_alloc, h_realloc, h_free, h};
    *m = NULL;
    *p = NULL;
    nb_motion *ws = NULL;
    const nb_agent *a;
    if (nb_bundle_open(path, 0, al, b, &err) != NB_OK || nb_model_open(*b, model, m, &err) != NB_OK ||
        nb_perimeter_open(*b, *m, p, &err) != NB_OK || !(a = tu_agent(*b, "movingai"))) {
        diag("%s", err.msg);
        return NULL;
    }
    *base = h->live;
    if (tu_motion_open(*b, *m, *p, a->capability, a->size, 0, &ws, &err) != NB_OK)
        diag("%s", err.msg);
    return ws;
}

/* A 40 x 30 random level, alone and in the corner of a 1024 x 1024 map
 * that is wall elsewhere: the same answers (the test's Dijkstra's), and a
 * workspace with its queries holds about the same bytes on both: what
 * its searches touch, not per-cell arrays of the map (about 30 bytes a
 * cell, 30 MB, before issue 16). */
static void big_map(const char *model, uint64_t seed)
{
    tu_rng r = {seed};
    nbb_grid small, big;
    level lv;
    tu_random_grid(&r, 40, 30, 10, 1, &small);
    big.width = big.height = 1024;
    big.cells = malloc((size_t)big.width * big.height);
    memset(big.cells, '@', (size_t)big.width * big.height);
    for (uint32_t y = 0; y < small.height; y++)
        memcpy(big.cells + (size_t)y * big.width, small.cells + (size_t)y * small.width, small.width);
    const char *path[2] = {tu_path(tu_tmpdir(), "small.nbk"), tu_path(tu_tmpdir(), "big.nbk")};
    held h[2] = {{0, 0}, {0, 0}};
    nb_allocator al[2];
    nb_bundle *b[2] = {NULL, NULL};
    nb_model *m[2];
    nb_perimeter *p[2];
    nb_motion *ws[2] = {NULL, NULL};
    size_t base[2] = {0, 0};
    int made = 0;
    for (int k = 1; k >= 0; k--) {
        level tmp;
        if (!make_level(model, k ? &big : &small, NULL, "movingai", 0, 4, k ? &tmp : &lv))
            break;
        if (k)
            free_level(&tmp);
        made += 1;
        if (rename(tu_path(tu_tmpdir(), "m.nbk"), path[k]) != 0)
            break;
        ws[k] = counted_ws(path[k], model, &h[k], &al[k], &b[k], &m[k], &p[k], &base[k]);
    }
    int good = 0, n = 0, found = 0;
    for (int i = 0; ws[0] && ws[1] && i < 12; i++) {
        nb_motion_query q;
        nb_motion_result res[2];
        random_query(&r, &lv, &q);
        q.heuristic = i % 3 == 0 ? NB_MH_PERIMETER_GRID : i % 3 == 1 ? NB_MH_PERIMETER_HEADING
                                                                      : NB_MH_PERIMETER;
        double best = dijkstra(&lv.wd, lv.m, &q.start, &q.goal);
        nb_motion_find(ws[0], &q, &res[0], NULL);
        nb_motion_find(ws[1], &q, &res[1], NULL);
        n++;
        found += res[1].status == NB_PATH_FOUND;
        good += res[0].status == res[1].status && res[0].expanded == res[1].expanded &&
                (isfinite(best) ? res[1].status == NB_PATH_FOUND && fabs(res[1].cost - best) < 1e-6
                                : res[1].status != NB_PATH_FOUND);
    }
    ok(n > 0 && good == n && found > 0,
       "%s on a 1024 x 1024 map: the answers and expansions of the 40 x 30 level it holds "
       "(%d of %d found)", model, found, n);
    size_t held_small = h[0].peak - base[0], held_big = h[1].peak - base[1];
    ok(ws[1] && held_big < held_small + ((size_t)256 << 10),
       "%s: a workspace and its %d queries held %zu bytes on the big map, %zu on the level "
       "alone (per-cell arrays: about %zu)", model, n, held_big, held_small,
       (size_t)30 * big.width * big.height);
    for (int k = 0; k < 2; k++) {
        nb_motion_close(ws[k]);
        if (b[k]) {
            nb_perimeter_close(p[k]);
            nb_model_close(m[k]);
            nb_bundle_close(b[k]);
        }
    }
    if (made == 2)
        free_level(&lv);
    nbb_grid_free(&small);
    free(big.cells);
}

int main(void)
{
    sweeps();
    for (int i = 0; i < 3; i++)
        optimal(models[i], 100 + (uint64_t)i);
    for (int i = 0; i < 3; i++)
        heading_relaxation(models[i], 300 + (uint64_t)i);
    sized();
    for (int i = 0; i < 3; i++)
        routes(models[i]);
    haa_levels();
    haa_refused();
    layered();
    bad_queries();
    for (int i = 0; i < 3; i++)
        slices(models[i], 500 + (uint64_t)i);
    for (int i = 0; i < 3; i++)
        big_map(models[i], 700 + (uint64_t)i);
    return done_testing();
}
