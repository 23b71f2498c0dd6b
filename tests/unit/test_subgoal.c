/* test_subgoal.c: the optimal-search layer (subgoal graphs, nb_sg_*)
 * against a textbook Dijkstra (tests/support/brute.c) over the same moves:
 *  - random maps with 1 to 4 terrains, sizes 1 to 3, three capabilities
 *    and both corner rules (a layer for each): from sampled starts, every
 *    goal of the map gets Dijkstra's length (or no path exactly where
 *    Dijkstra finds none), and the paths of a sample are legal step by step
 *    under the query's rule and as long as they say;
 *  - the layer's subgoals are the cells the rule's definition names,
 *    recomputed here from the 3 x 3 block by brute force;
 *  - a wall two cells long, under the weak rule: the path over it cuts both
 *    its corners, where the strict rule's definition (a bend inside a 3 x 3
 *    block) names no subgoal (formats/subgoal.md);
 *  - a query for an agent or corner rule the bundle has no layer for is
 *    refused, naming the layers it has (the caller falls back to Annotated
 *    A*);
 *  - turning points alone (waypoints_only): no cells, the same length and
 *    turning points, and walking them (diagonal moves first where legal)
 *    gives the full answer's cells;
 *  - the sliced form gives find's path in steps of any size; a budget and
 *    a node cap end with NB_PATH_LIMIT and a legal partial path;
 *  - bad queries are errors; blocked ends and separate components are
 *    answered without a search. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clearance/clearance_build.h"
#include "subgoal/subgoal_build.h"
#include "brute.h"
#include "testutil.h"

static nbi_legend legend;

/* 1 when the path starts and ends at the query's ends, takes legal steps
 * only and is as long as it says. */
static int path_ok(const nbb_grid *g, const nb_sg_query *q, enum brute_corner rule,
                   const nb_cell *p, size_t n, double length, int to_goal)
{
    if (n < 1 || p[0].x != q->start.x || p[0].y != q->start.y)
        return 0;
    if (to_goal && (p[n - 1].x != q->goal.x || p[n - 1].y != q->goal.y))
        return 0;
    double len = 0;
    for (size_t i = 1; i < n; i++) {
        if (!brute_step_ok(&legend, g, q->capability, q->size, rule, p[i - 1].x, p[i - 1].y,
                           p[i].x, p[i].y))
            return 0;
        len += p[i - 1].x != p[i].x && p[i - 1].y != p[i].y ? sqrt(2.0) : 1.0;
    }
    return fabs(len - length) < 1e-9;
}

struct tally {
    long queries, found, none, bad_status, bad_len, bad_path, searched_none, bad_turns;
};

/* The cells of the octile walk from a to b (b included, a not) into out: its diagonal moves
 * first when every step of that is legal, else its cardinal moves first, as the header
 * describes turning points; 0 when neither is legal. */
static size_t walk_hop(const nbb_grid *g, const nb_sg_query *q, enum brute_corner rule, nb_cell a,
                       nb_cell b, nb_cell *out)
{
    int dx = (b.x > a.x) - (b.x < a.x), dy = (b.y > a.y) - (b.y < a.y);
    int ax = abs(b.x - a.x), ay = abs(b.y - a.y);
    int nd = ax < ay ? ax : ay, n = ax > ay ? ax : ay;
    for (int diag_first = 1; diag_first >= 0; diag_first--) {
        nb_cell c = a;
        int ok = 1;
        for (int k = 0; k < n && ok; k++) {
            int diag = diag_first ? k < nd : k >= n - nd;
            nb_cell next = {c.x + (diag || ax > ay ? dx : 0), c.y + (diag || ay > ax ? dy : 0)};
            ok = brute_step_ok(&legend, g, q->capability, q->size, rule, c.x, c.y, next.x, next.y);
            out[k] = c = next;
        }
        if (ok)
            return (size_t)n;
    }
    return 0;
}

/* A query for turning points alone (waypoints_only) answers with the turning points and
 * length of the full answer r and no cells, and walking its turning points gives r's cells. */
static int turns_ok(nb_sg *ws, const nbb_grid *g, const nb_sg_query *q, enum brute_corner rule,
                    const nb_sg_result *r)
{
    size_t n = r->path_len, nw = r->waypoint_len;
    nb_cell *full = malloc((n + nw) * sizeof *full), *walked = malloc((n + 1) * sizeof *walked);
    int ok = full && walked;
    if (ok) {
        memcpy(full, r->path, n * sizeof *full);
        memcpy(full + n, r->waypoints, nw * sizeof *full);
    }
    nb_sg_query tq = *q;
    tq.waypoints_only = 1;
    nb_sg_result t;
    nb_err err;
    ok = ok && nb_sg_find(ws, &tq, &t, &err) == NB_OK && t.status == r->status &&
         t.path_len == 0 && t.path == NULL && t.waypoint_len == nw && fabs(t.length - r->length) < 1e-9;
    ok = ok && memcmp(t.waypoints, full + n, nw * sizeof *full) == 0;
    size_t at = 1;
    for (size_t i = 1; ok && i < nw; i++) {
        size_t k = walk_hop(g, q, rule, t.waypoints[i - 1], t.waypoints[i], walked + at);
        ok = k > 0 && at + k <= n;
        at += k;
    }
    if (ok)
        walked[0] = t.waypoints[0];
    ok = ok && at == n && memcmp(walked, full, n * sizeof *full) == 0;
    free(full);
    free(walked);
    return ok;
}

/* The map of the first failure, for reproducing it. */
static void dump_once(const nbb_grid *g)
{
    static int dumped;
    if (dumped++)
        return;
    for (uint32_t y = 0; y < g->height; y++)
        diag("%.*s", (int)g->width, (const char *)g->cells + (size_t)y * g->width);
}

/* Every goal from a few starts, against Dijkstra's distances from them. */
static void all_goals(tu_rng *rng, nb_sg *ws, const nbb_grid *g, nb_capability cap, unsigned size,
                      enum brute_corner rule, int starts, double *dist, struct tally *t)
{
    size_t n = (size_t)g->width * g->height;
    for (int k = 0; k < starts; k++) {
        nb_sg_query q;
        nb_sg_query_init(&q);
        q.capability = cap;
        q.size = size;
        q.corner = rule == BRUTE_STRICT ? NB_CORNER_STRICT : NB_CORNER_WEAK;
        for (int tries = 0; tries < 50; tries++) {
            q.start.x = (int32_t)tu_below(rng, g->width);
            q.start.y = (int32_t)tu_below(rng, g->height);
            if (brute_can_stand(&legend, g, cap, size, q.start.x, q.start.y))
                break;
        }
        int s_ok = brute_can_stand(&legend, g, cap, size, q.start.x, q.start.y);
        brute_dijkstra(&legend, g, cap, size, rule, q.start.x, q.start.y, -1, -1, NULL, dist);
        for (size_t i = 0; i < n; i++) {
            q.goal.x = (int32_t)(i % g->width);
            q.goal.y = (int32_t)(i / g->width);
            nb_sg_result r;
            nb_err err;
            t->queries++;
            if (nb_sg_find(ws, &q, &r, &err) != NB_OK) {
                if (t->bad_status++ < 4)
                    diag("(%d,%d)->(%d,%d) size %u: %s", q.start.x, q.start.y, q.goal.x, q.goal.y,
                         size, err.msg);
                continue;
            }
            int g_ok = brute_can_stand(&legend, g, cap, size, q.goal.x, q.goal.y);
            double want = s_ok && g_ok ? dist[i] : -1;
            nb_path_status ws_ = !s_ok      ? NB_PATH_START_BLOCKED
                                 : !g_ok    ? NB_PATH_GOAL_BLOCKED
                                 : want < 0 ? NB_PATH_NONE
                                            : NB_PATH_FOUND;
            if (r.status != ws_) {
                dump_once(g);
                if (t->bad_status++ < 4)
                    diag("(%d,%d)->(%d,%d) size %u %s: %s, Dijkstra says %s", q.start.x,
                         q.start.y, q.goal.x, q.goal.y, size, rule ? "weak" : "strict",
                         nb_path_status_str(r.status), nb_path_status_str(ws_));
                continue;
            }
            if (r.status == NB_PATH_NONE) {
                t->none++;
                t->searched_none += r.searched;
            }
            if (r.status != NB_PATH_FOUND)
                continue;
            t->found++;
            if (fabs(r.length - want) > 1e-9 && (dump_once(g), t->bad_len++ < 4))
                diag("(%d,%d)->(%d,%d) size %u cap %u %s: length %.9f, Dijkstra %.9f", q.start.x,
                     q.start.y, q.goal.x, q.goal.y, size, cap, rule ? "weak" : "strict", r.length,
                     want);
            /* Every path of a sample is walked step by step. */
            if ((i % 7) == 0 && !path_ok(g, &q, rule, r.path, r.path_len, r.length, 1) &&
                t->bad_path++ < 4)
                diag("(%d,%d)->(%d,%d) size %u: the path is not legal or not as long as it says",
                     q.start.x, q.start.y, q.goal.x, q.goal.y, size);
            /* Turning points alone, on another sample (after: the query reuses r's room). */
            if ((i % 5) == 0 && !turns_ok(ws, g, &q, rule, &r) && t->bad_turns++ < 4)
                diag("(%d,%d)->(%d,%d) size %u %s: turning points alone differ from the path's",
                     q.start.x, q.start.y, q.goal.x, q.goal.y, size, rule ? "weak" : "strict");
        }
    }
}

static void add_agent(nbi_agentset *agents, nb_capability cap, uint32_t size)
{
    nb_agent *a = &agents->agent[agents->count];
    snprintf(a->name, sizeof a->name, "a%zu", agents->count);
    a->capability = cap;
    a->size = size;
    agents->count++;
}

static void test_random(tu_rng *rng)
{
    static const uint32_t shapes[][2] = {{1, 1}, {6, 5}, {24, 24}, {70, 9}, {40, 33}};
    static nbi_agentset agents;
    const char *path = tu_path(tu_tmpdir(), "sg.nbk");
    double *dist = malloc(70 * 40 * sizeof *dist);
    int k = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        for (unsigned nt = 1; nt <= 4; nt++, k++) {
            nbb_grid g;
            unsigned pct = 10u + (unsigned)(k % 4) * 10u;
            tu_random_grid(rng, shapes[sh][0], shapes[sh][1], pct, nt, &g);
            memset(&agents, 0, sizeof agents);
            nb_capability caps[3] = {(1u << nt) - 1, 1u, 1u + tu_below(rng, (1u << nt) - 1)};
            for (unsigned c = 0; c < 3; c++)
                for (unsigned s = 1; s <= 3; s++)
                    add_agent(&agents, caps[c], s);
            nb_err err;
            nb_bundle *nb = NULL;
            nb_sg *ws = NULL;
            nb_status st = tu_bake_optimal(path, &legend, &agents, &g, NBB_CORNERS_STRICT | NBB_CORNERS_WEAK, &err);
            if (st == NB_OK)
                st = nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &nb, &err);
            if (st == NB_OK)
                st = tu_sg_open(nb, 0, &ws, &err);
            if (!ok(st == NB_OK, "%ux%u, %u terrains: baked, opened",
                    g.width, g.height, nt)) {
                diag("%s", err.msg);
                nb_bundle_close(nb);
                nbb_grid_free(&g);
                continue;
            }
            for (int rule = 0; rule < 2; rule++) { /* strict, then weak: a layer each */
                struct tally t = {0};
                for (unsigned c = 0; c < 3; c++)
                    for (unsigned s = 1; s <= 3; s++)
                        all_goals(rng, ws, &g, caps[c], s, (enum brute_corner)rule, 3, dist, &t);
                ok(t.bad_status == 0 && t.bad_len == 0 && t.bad_path == 0 && t.searched_none == 0,
                   "%ux%u, %u terrains, %s corners, sizes 1-3, 3 capabilities: %ld queries (%ld "
                   "found, %ld none), Dijkstra's lengths, legal paths",
                   g.width, g.height, nt, rule ? "weak" : "strict", t.queries, t.found, t.none);
                ok(t.bad_turns == 0, "%ux%u, %s corners: turning points alone, walked, give the "
                   "path and length of the full answer", g.width, g.height, rule ? "weak" : "strict");
            }
            nb_sg_close(ws);
            nb_bundle_close(nb);
            nbb_grid_free(&g);
        }
    free(dist);
}

/* A map dense with subgoals (random obstacles), where contraction leaves
 * a core: every goal from a few starts, as Dijkstra says. */
static void test_dense(tu_rng *rng)
{
    static nbi_agentset agents;
    nbb_grid g;
    tu_random_grid(rng, 160, 150, 10, 1, &g);
    memset(&agents, 0, sizeof agents);
    add_agent(&agents, 1, 1);
    add_agent(&agents, 1, 2);
    uint8_t *cv = malloc((size_t)g.width * g.height);
    uint8_t in_cap[256];
    nbb_terrain_mask(&legend, 1, in_cap);
    nbb_clearance_compute(g.cells, g.width, g.height, in_cap, 2, cv);
    uint8_t *payload = NULL;
    size_t len = 0;
    nbb_subgoal_stats ss;
    nb_err err;
    nb_status st = nbb_subgoal_encode(cv, g.width, g.height, 1, 1, NB_CORNER_STRICT, &payload, &len,
                                      &ss, &err);
    free(cv);
    free(payload);
    ok(st == NB_OK && ss.core > 0, "dense: %u subgoals, %u of them left in the core", ss.nodes,
       ss.core);
    const char *path = tu_path(tu_tmpdir(), "sg-dense.nbk");
    nb_bundle *nb = NULL;
    nb_sg *ws = NULL;
    if (!ok(tu_bake_optimal(path, &legend, &agents, &g, NBB_CORNERS_STRICT | NBB_CORNERS_WEAK, &err) == NB_OK &&
                nb_bundle_open(path, 0, NULL, &nb, &err) == NB_OK &&
                tu_sg_open(nb, 0, &ws, &err) == NB_OK,
            "dense: baked and opened")) {
        diag("%s", err.msg);
        nbb_grid_free(&g);
        return;
    }
    double *dist = malloc((size_t)g.width * g.height * sizeof *dist);
    struct tally t = {0};
    for (int rule = 0; rule < 2; rule++)
        for (unsigned s = 1; s <= 2; s++)
            all_goals(rng, ws, &g, 1, s, (enum brute_corner)rule, 2, dist, &t);
    ok(t.bad_status == 0 && t.bad_len == 0 && t.bad_path == 0,
       "dense, both corner rules: %ld queries (%ld found), Dijkstra's lengths, legal paths",
       t.queries, t.found);
    ok(t.bad_turns == 0, "dense, both corner rules: turning points alone, walked, give the path "
       "and length of the full answer");
    free(dist);
    nb_sg_close(ws);
    nb_bundle_close(nb);
    nbb_grid_free(&g);
}

/* A layer damaged one way at a time, each refused when a workspace is
 * made, naming what is wrong. */
/* A bundle of g's level with payload as its subgoal layer (its table entry from its header),
 * written to path. */
static nb_status write_layer(const char *path, const nbb_grid *g, const nbi_agentset *agents,
                             const uint8_t *payload, size_t len, nb_err *err)
{
    nbb_builder *b;
    nb_status st = nbb_builder_new(&b, err);
    if (st != NB_OK)
        return st;
    st = nbb_put_level(b, &legend, agents, g, 0, err);
    nb_section_info in;
    memset(&in, 0, sizeof in);
    in.type = NB_SEC_SUBGOAL;
    in.version = NBI_SUBGOAL_VERSION;
    in.encoding = NB_ENC_RAW;
    if (len >= NBI_SG_HEADER) {
        in.param[0] = nbi_get32(payload + 4 * NBI_SG_CAPABILITY);
        in.param[1] = nbi_get32(payload + 4 * NBI_SG_SIZE);
        in.param[2] = nbi_get32(payload + 4 * NBI_SG_CORNER);
        in.param[3] = nbi_get32(payload + 4 * NBI_SG_NODES);
        in.param[4] = nbi_get32(payload + 4 * NBI_SG_EDGES);
    }
    if (st == NB_OK)
        st = nbb_builder_add(b, &in, payload, len, 0, err);
    if (st == NB_OK)
        st = nbb_builder_write(b, path, err);
    nbb_builder_free(b);
    return st;
}

static nb_status open_damaged(const nbb_grid *g, const nbi_agentset *agents, const uint8_t *payload,
                              size_t len, nb_err *err)
{
    const char *path = tu_path(tu_tmpdir(), "sg-damaged.nbk");
    nb_status st = write_layer(path, g, agents, payload, len, err);
    nb_bundle *nb = NULL;
    nb_sg *ws = NULL;
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, &nb, err);
    if (st == NB_OK) {
        st = tu_sg_open(nb, 0, &ws, err);
        nb_status vs = nb_bundle_verify(nb, NULL);
        if (vs != st) /* verify runs the same checks */
            st = NB_ERR_ARG;
    }
    nb_sg_close(ws);
    nb_bundle_close(nb);
    return st;
}

/* The octile steps between two cells, as an original edge holds them. */
static void steps_between(nb_cell a, nb_cell b, uint32_t *card, uint32_t *diag)
{
    uint32_t ax = (uint32_t)abs(a.x - b.x), ay = (uint32_t)abs(a.y - b.y);
    *diag = ax < ay ? ax : ay;
    *card = (ax > ay ? ax : ay) - *diag;
}

/* A layer that lies within every check of its own (issue 29): every edge the octile distance
 * between its ends, but the edges make one chain through the map's subgoals, zigzagging from
 * the west to the east and back, from those of a closed room in the north-west corner to those of
 * one in the south-east.  A query from room to room (no components layer says they are apart)
 * must follow the whole chain: more steps than the map has cells, which no path of distinct
 * cells can be.  nb_sg_finish refuses it before it unpacks anything (unpacked, each edge's steps
 * would be a node each, the path's edges times the map's cells in all). */
static void test_long_path(void)
{
    enum { W = 32, H = 32 };
    static uint8_t rows[W * H];
    memset(rows, '.', sizeof rows);
    for (int k = 0; k <= 6; k++) {
        rows[k * W + 6] = rows[6 * W + k] = '@';                         /* room A: x, y < 6 */
        rows[(25 + k) * W + 25] = rows[25 * W + 25 + k] = '@'; /* room B: x, y > 25 */
    }
    rows[2 * W + 2] = rows[29 * W + 29] = '@'; /* a pillar in each room: its subgoals */
    for (int y = 2; y < H; y += 4)
        for (int x = 2; x < W; x += 4)
            if (!(x <= 8 && y <= 8) && !(x >= 23 && y >= 23))
                rows[y * W + x] = '@';
    nbb_grid g = {W, H, rows};
    static nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    add_agent(&agents, 1, 1);
    uint8_t cv[W * H], in_cap[256];
    nbb_terrain_mask(&legend, 1, in_cap);
    nbb_clearance_compute(g.cells, W, H, in_cap, 1, cv);
    uint8_t *p = NULL;
    size_t len = 0;
    nb_err err;
    if (!ok(nbb_subgoal_encode(cv, W, H, 1, 1, NB_CORNER_STRICT, &p, &len, NULL, &err) == NB_OK,
            "long path: a layer encoded"))
        return;
    uint32_t n = nbi_get32(p + 4 * NBI_SG_NODES), e = 2 * (n - 1);
    nbi_sg_layout old, lay;
    nbi_sg_layout_of(W, H, n, nbi_get32(p + 4 * NBI_SG_EDGES), &old);
    nbi_sg_layout_of(W, H, n, e, &lay);
    uint8_t *q = calloc(1, lay.total);
    memcpy(q, p, lay.level); /* the header, bitmaps, ranks and cells: the same nodes */
    nbi_put32(q + 4 * NBI_SG_EDGES, e);
    nbi_put32(q + 4 * NBI_SG_ORIGINAL, e);
    /* The chain: room A's nodes, the others west, east, west... from the outside in, room B's. */
    uint32_t *chain = malloc(n * sizeof *chain), *at = malloc(n * sizeof *at), na = 0, nb = 0;
    nb_cell *cell = malloc(n * sizeof *cell);
    uint32_t *mid = malloc(n * sizeof *mid), nm = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t c = nbi_get32(p + old.cells + 4 * (size_t)v);
        cell[v] = (nb_cell){(int32_t)(c % W), (int32_t)(c / W)};
        if (cell[v].x < 6 && cell[v].y < 6)
            chain[na++] = v;
        else if (!(cell[v].x > 25 && cell[v].y > 25))
            mid[nm++] = v;
    }
    for (uint32_t i = 0; i < nm; i++) /* the others by x */
        for (uint32_t j = i + 1; j < nm; j++)
            if (cell[mid[j]].x < cell[mid[i]].x) {
                uint32_t t = mid[i];
                mid[i] = mid[j];
                mid[j] = t;
            }
    for (uint32_t lo = 0, hi = nm, k = 0; lo < hi; k++)
        chain[na + k] = k % 2 ? mid[--hi] : mid[lo++];
    nb = na + nm;
    for (uint32_t v = 0; v < n; v++)
        if (cell[v].x > 25 && cell[v].y > 25)
            chain[nb++] = v;
    uint64_t between = 0; /* the steps from room A's last node to room B's first */
    for (uint32_t k = 0; k < n; k++) {
        at[chain[k]] = k;
        if (k >= na && k <= na + nm) {
            uint32_t c, d;
            steps_between(cell[chain[k - 1]], cell[chain[k]], &c, &d);
            between += c + d;
        }
    }
    /* Every node on one level (the core's, whose nodes may join each other), its edges to the
     * nodes before and after it on the chain. */
    uint32_t edge = 0;
    for (uint32_t v = 0; v < n; v++) {
        nbi_put32(q + lay.first + 4 * (size_t)v, edge);
        for (int side = -1; side <= 1; side += 2) {
            uint32_t k = at[v] + (uint32_t)side;
            if ((side < 0 && at[v] == 0) || k >= n)
                continue;
            uint8_t *r = q + lay.edges + (size_t)edge++ * NBI_SG_EDGE_RECORD;
            uint32_t c, d;
            steps_between(cell[v], cell[chain[k]], &c, &d);
            nbi_put32(r + NBI_SG_E_TARGET, chain[k]);
            nbi_put32(r + NBI_SG_E_MID, NBI_SG_NO_MID);
            nbi_put32(r + NBI_SG_E_CARDINAL, c);
            nbi_put32(r + NBI_SG_E_DIAGONAL, d);
        }
    }
    nbi_put32(q + lay.first + 4 * (size_t)n, edge);
    const char *path = tu_path(tu_tmpdir(), "sg-long.nbk");
    nb_bundle *bu = NULL;
    nb_sg *ws = NULL;
    nb_status st = write_layer(path, &g, &agents, q, lay.total, &err);
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, &bu, &err);
    if (st == NB_OK)
        st = tu_sg_open(bu, 0, &ws, &err);
    ok(st == NB_OK && na == 4 && nb - na - nm == 4 && between >= (uint64_t)W * H,
       "long path: the chain opens (every check of the layer passes): %u nodes, room A's 4 and room "
       "B's 4 %llu steps apart on it, the map %d cells (%s)",
       n, (unsigned long long)between, W * H, st == NB_OK ? "ok" : err.msg);
    nb_sg_query sq;
    nb_sg_result r;
    nb_sg_query_init(&sq);
    sq.capability = 1;
    sq.start = (nb_cell){0, 0};
    sq.goal = (nb_cell){W - 1, H - 1};
    st = ws ? nb_sg_find(ws, &sq, &r, &err) : NB_ERR_ARG;
    ok(st == NB_ERR_FORMAT, "... a query from room to room is refused (%s), not unpacked",
       nb_status_str(st));
    like(err.msg, "more than the map has cells", "... naming the path's steps");
    nb_sg_close(ws);
    nb_bundle_close(bu);
    free(chain);
    free(at);
    free(cell);
    free(mid);
    free(q);
    free(p);
}

static void test_damage(tu_rng *rng)
{
    static nbi_agentset agents;
    nbb_grid g;
    tu_random_grid(rng, 70, 50, 20, 1, &g);
    memset(&agents, 0, sizeof agents);
    add_agent(&agents, 1, 1);
    uint8_t *cv = malloc((size_t)g.width * g.height);
    uint8_t in_cap[256];
    nbb_terrain_mask(&legend, 1, in_cap);
    nbb_clearance_compute(g.cells, g.width, g.height, in_cap, 1, cv);
    uint8_t *p = NULL;
    size_t len = 0;
    nb_err err;
    if (!ok(nbb_subgoal_encode(cv, g.width, g.height, 1, 1, NB_CORNER_STRICT, &p, &len, NULL,
                               &err) == NB_OK, "damage: a layer encoded")) {
        free(cv);
        nbb_grid_free(&g);
        return;
    }
    ok(open_damaged(&g, &agents, p, len, &err) == NB_OK, "damage: the layer as baked opens");
    uint32_t n = nbi_get32(p + 4 * NBI_SG_NODES), e = nbi_get32(p + 4 * NBI_SG_EDGES);
    nbi_sg_layout lay;
    nbi_sg_layout_of(g.width, g.height, n, e, &lay);
    uint8_t *q = malloc(len);
    /* A blocked cell, and an edge of the node of the lowest level. */
    size_t blocked = 0;
    while (cv[blocked])
        blocked++;
    uint32_t low = 0;
    for (uint32_t v = 0; v < n; v++)
        if (nbi_get32(p + lay.level + 4 * (size_t)v) == 0)
            low = v;
    uint32_t low_edge = nbi_get32(p + lay.first + 4 * (size_t)low);
    uint32_t orig = UINT32_MAX; /* an edge that is not a shortcut */
    for (uint32_t k = 0; k < e && orig == UINT32_MAX; k++)
        if (nbi_get32(p + lay.edges + (size_t)k * NBI_SG_EDGE_RECORD + NBI_SG_E_MID) == NBI_SG_NO_MID)
            orig = k;
    struct {
        const char *what, *says;
        int kind;
    } cases[] = {
        {"a rank one more", "the rank of row", 0},
        {"a subgoal on a blocked cell", "cannot stand on", 1},
        {"a column bit flipped", "disagrees with the rows", 2},
        {"an edge to the lowest node", "expected another node of a higher level", 3},
        {"an edge a step longer", "not the octile distance", 4},
        {"the edge lists' end moved", "the edge lists run from", 5},
        {"corner rule 2", "corner rule 2", 6},
        {"a node more in the header", "expected", 7},
        {"a bit past the map's edge", "past the map's edge", 8},
        {"a shortcut through a node of a higher level", "passes node", 9},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memcpy(q, p, len);
        size_t qlen = len;
        int applies = 1;
        switch (cases[c].kind) {
        case 0: nbi_put32(q + lay.rank + 4 * (size_t)(g.height / 2) * nbi_sg_words(g.width),
                          nbi_get32(q + lay.rank + 4 * (size_t)(g.height / 2) * nbi_sg_words(g.width)) + 1);
            break;
        case 1: {
            size_t y = blocked / g.width, x = blocked % g.width;
            q[lay.sub_rows + 8 * (y * nbi_sg_words(g.width) + x / 64) + (x % 64) / 8] |=
                (uint8_t)(1u << (x % 8));
            break;
        }
        case 2: q[lay.pass_cols + 3] ^= 0x10; break;
        case 3:
            applies = low_edge < e && n > 1;
            if (applies) {
                /* from the node of the highest level, an edge to the lowest */
                uint32_t hi = 0;
                for (uint32_t v = 0; v < n; v++)
                    if (nbi_get32(p + lay.level + 4 * (size_t)v) > nbi_get32(p + lay.level + 4 * (size_t)hi) &&
                        nbi_get32(p + lay.first + 4 * (size_t)v) < nbi_get32(p + lay.first + 4 * ((size_t)v + 1)))
                        hi = v;
                uint32_t he = nbi_get32(p + lay.first + 4 * (size_t)hi);
                applies = he < nbi_get32(p + lay.first + 4 * ((size_t)hi + 1));
                nbi_put32(q + lay.edges + (size_t)he * NBI_SG_EDGE_RECORD + NBI_SG_E_TARGET, low);
            }
            break;
        case 4:
            applies = orig != UINT32_MAX;
            if (applies) {
                uint8_t *r = q + lay.edges + (size_t)orig * NBI_SG_EDGE_RECORD + NBI_SG_E_CARDINAL;
                nbi_put32(r, nbi_get32(r) + 1);
            }
            break;
        case 5: nbi_put32(q + lay.first + 4 * (size_t)n, e ? e - 1 : 1); break;
        case 6: nbi_put32(q + 4 * NBI_SG_CORNER, 2); break;
        case 7: nbi_put32(q + 4 * NBI_SG_NODES, n + 1); break;
        case 8:
            applies = g.width % 64 != 0;
            q[lay.free_rows + 8 * (nbi_sg_words(g.width) - 1) + 7] |= 0x80;
            break;
        case 9: {
            applies = 0;
            for (uint32_t k = 0; k < e && !applies; k++) {
                uint8_t *r = q + lay.edges + (size_t)k * NBI_SG_EDGE_RECORD;
                if (nbi_get32(r + NBI_SG_E_MID) != NBI_SG_NO_MID) {
                    uint32_t top = 0;
                    for (uint32_t v = 0; v < n; v++)
                        if (nbi_get32(p + lay.level + 4 * (size_t)v) > nbi_get32(p + lay.level + 4 * (size_t)top))
                            top = v;
                    nbi_put32(r + NBI_SG_E_MID, top);
                    applies = 1;
                }
            }
            break;
        }
        }
        if (!applies) {
            skip(1, "damage: %s: the layer has nothing to damage", cases[c].what);
            continue;
        }
        nb_status st = open_damaged(&g, &agents, q, qlen, &err);
        ok(st == NB_ERR_FORMAT && strstr(err.msg, cases[c].says) != NULL,
           "damage: %s: NB_ERR_FORMAT, and verify agrees: %s", cases[c].what, err.msg);
    }
    free(q);
    free(p);
    free(cv);
    nbb_grid_free(&g);
}

/* The rule against its definition, on every 3 x 3 block.  Strict: a
 * subgoal is a cell some two neighbours p, q need to pass through (no
 * other way inside the block as short), on a path that bends (longer than
 * their octile distance), by Floyd-Warshall round the centre.  Weak: a
 * cell with a diagonal step the weak rule allows and the strict one does
 * not (it cuts a blocked cell's corner). */
static double block_octile(int ax, int ay, int bx, int by)
{
    int dx = abs(ax - bx), dy = abs(ay - by);
    int d = dx < dy ? dx : dy;
    return d * sqrt(2.0) + (dx + dy - 2 * d);
}

static int blk_free(unsigned mask, int x, int y)
{
    if (!x && !y)
        return 1;
    for (unsigned d = 0; d < 8; d++)
        if (nbi_move_dx[d] == x && nbi_move_dy[d] == y)
            return (int)((mask >> d) & 1u);
    return 0;
}

static int blk_step(unsigned mask, int ax, int ay, int bx, int by, int strict)
{
    if (abs(ax - bx) > 1 || abs(ay - by) > 1 || (ax == bx && ay == by) || !blk_free(mask, ax, ay) ||
        !blk_free(mask, bx, by))
        return 0;
    if (ax == bx || ay == by)
        return 1;
    int h = blk_free(mask, bx, ay), v = blk_free(mask, ax, by);
    return strict ? h && v : h || v;
}

/* The shortest way from a to b inside the block avoiding its centre, by
 * Floyd-Warshall over the eight border cells. */
static double around(unsigned mask, int ax, int ay, int bx, int by, int strict)
{
    double d[9][9];
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            int ix = i % 3 - 1, iy = i / 3 - 1, jx = j % 3 - 1, jy = j / 3 - 1;
            d[i][j] = i == j ? 0
                      : (i != 4 && j != 4 && blk_step(mask, ix, iy, jx, jy, strict))
                          ? ((ix != jx && iy != jy) ? sqrt(2.0) : 1.0)
                          : INFINITY;
        }
    for (int m = 0; m < 9; m++)
        for (int i = 0; i < 9; i++)
            for (int j = 0; j < 9; j++)
                if (d[i][m] + d[m][j] < d[i][j])
                    d[i][j] = d[i][m] + d[m][j];
    return d[(ay + 1) * 3 + ax + 1][(by + 1) * 3 + bx + 1];
}

/* The strict definition, a bend through the centre, with the moves of
 * either rule. */
static int bends(unsigned mask, int strict)
{
    for (int p = 0; p < 8; p++)
        for (int q = 0; q < 8; q++) {
            int px = nbi_move_dx[p], py = nbi_move_dy[p], qx = nbi_move_dx[q], qy = nbi_move_dy[q];
            if (p == q || !blk_step(mask, px, py, 0, 0, strict) ||
                !blk_step(mask, 0, 0, qx, qy, strict))
                continue;
            double through = nbi_move_cost((unsigned)p) + nbi_move_cost((unsigned)q);
            if (through > block_octile(px, py, qx, qy) + 1e-9 &&
                around(mask, px, py, qx, qy, strict) > through + 1e-9)
                return 1;
        }
    return 0;
}

static void test_rule(void)
{
    for (int strict = 0; strict < 2; strict++) {
        int bad = 0, count = 0;
        for (unsigned mask = 0; mask < 256; mask++) {
            int want = strict && bends(mask, 1);
            for (unsigned d = 4; d < 8 && !strict; d++)
                want |= blk_step(mask, 0, 0, nbi_move_dx[d], nbi_move_dy[d], 0) &&
                        !blk_step(mask, 0, 0, nbi_move_dx[d], nbi_move_dy[d], 1);
            int got = nbb_subgoal_rule(mask, strict ? NB_CORNER_STRICT : NB_CORNER_WEAK);
            bad += got != want;
            count += want;
        }
        ok(bad == 0, "%s corners: the subgoal rule as its definition on all 256 blocks (%d "
           "subgoal shapes)", strict ? "strict" : "weak", count);
    }
}

/* Why the weak rule needs its own subgoals: the way over a wall two cells
 * long cuts both its corners and bends by 45 degrees at each cell above
 * it, where no 3 x 3 block sees a bend.  With the strict definition (and
 * weak moves) no subgoal lies on that way, and no chain of h-reachable
 * hops gives its length; the weak layer has both cells and finds it. */
/* 1 when (x, y) is a subgoal of the bundle's first subgoal layer. */
static int layer_subgoal(const nb_bundle *nb, int32_t x, int32_t y)
{
    for (size_t i = 0; nb && i < nb->nsections; i++) {
        nbi_sglayer l;
        if (nb->sections[i].info.type == NB_SEC_SUBGOAL && nbi_sglayer_at(nb, i, &l, NULL) == NB_OK)
            return nbi_sg_is_subgoal(&l.grid, x, y);
    }
    return 0;
}

static void test_wall(void)
{
    static const char rows[] = "........"
                               "........"
                               "..@@...."
                               "........"
                               "........";
    nbb_grid g = {8, 5, (uint8_t *)rows};
    int bend_named = 0;
    for (int x = 2; x <= 3; x++) {
        unsigned mask = 0;
        for (unsigned d = 0; d < 8; d++) {
            int nx = x + nbi_move_dx[d], ny = 1 + nbi_move_dy[d];
            mask |= (unsigned)(nx >= 0 && ny >= 0 && nx < 8 && ny < 5 &&
                               rows[ny * 8 + nx] == '.') << d;
        }
        bend_named += bends(mask, 0);
    }
    ok(bend_named == 0, "a wall two cells long: the bend definition with weak moves names neither "
       "cell over it");
    static nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    add_agent(&agents, 1, 1);
    const char *path = tu_path(tu_tmpdir(), "sg-wall.nbk");
    nb_err err;
    nb_bundle *nb = NULL;
    nb_sg *ws = NULL;
    nb_sg_query q;
    nb_sg_result r;
    nb_sg_query_init(&q);
    q.capability = 1;
    q.corner = NB_CORNER_WEAK;
    q.start = (nb_cell){1, 2};
    q.goal = (nb_cell){4, 2};
    double want = brute_dijkstra(&legend, &g, 1, 1, BRUTE_WEAK, 1, 2, 4, 2, NULL, NULL);
    int found = tu_bake_optimal(path, &legend, &agents, &g, NBB_CORNERS_WEAK, &err) == NB_OK &&
                nb_bundle_open(path, 0, NULL, &nb, &err) == NB_OK &&
                tu_sg_open(nb, 0, &ws, &err) == NB_OK && nb_sg_find(ws, &q, &r, &err) == NB_OK &&
                r.status == NB_PATH_FOUND;
    ok(found && fabs(want - (1 + 2 * sqrt(2.0))) < 1e-9 && fabs(r.length - want) < 1e-9 &&
           layer_subgoal(nb, 2, 1) && layer_subgoal(nb, 3, 1),
       "... the weak layer has both as subgoals and finds the way over: %.6f, Dijkstra %.6f",
       found ? r.length : -1.0, want);
    nb_sg_close(ws);
    nb_bundle_close(nb);
}

/* Real maps under the weak rule, which the scenario files' lengths are not
 * for: the weak layer against Annotated A* with weak corners on an even
 * sample of 30 scenario lines a map (NB_SCEN_EVERY=k: every k-th line),
 * for sizes 1 and 2 on ground and swamp and size 1 on ground and trees;
 * paths legal step by step.  Skipped without ../shared (NB_SHARED);
 * make check-scen runs every line of every map the same way
 * (tests/cli/scen.sh). */
static void test_real_weak(void)
{
    static const char *const names[] = {"dao/arena", "dao/ost003d", "mazes/maze512-32-9",
                                        "bg/AR0042SR"};
    static const struct {
        nb_capability cap;
        unsigned size;
    } agent[] = {{3, 1}, {3, 2}, {9, 1}};
    const char *every_s = getenv("NB_SCEN_EVERY");
    for (size_t m = 0; m < sizeof names / sizeof *names; m++) {
        char rel[64];
        snprintf(rel, sizeof rel, "maps/%s.map.scen", names[m]);
        const char *scen_path = tu_shared(rel);
        if (!scen_path) {
            skip(1, "../shared/%s is absent (set NB_SHARED)", rel);
            continue;
        }
        char map_path[4096];
        snprintf(map_path, sizeof map_path, "%.*s", (int)(strlen(scen_path) - 5), scen_path);
        static nbi_agentset agents;
        memset(&agents, 0, sizeof agents);
        for (size_t a = 0; a < sizeof agent / sizeof *agent; a++)
            add_agent(&agents, agent[a].cap, agent[a].size);
        nbb_grid g;
        nbb_scen scen;
        nb_err err;
        nb_bundle *nb = NULL;
        nb_aa *aa = NULL;
        nb_sg *sg = NULL;
        const char *path = tu_path(tu_tmpdir(), "sg-real.nbk");
        if (!ok(nbb_map_read(map_path, &legend, 1, &g, &err) == NB_OK, "%s: read", names[m]))
            continue;
        if (!ok(nbb_scen_read(scen_path, &scen, &err) == NB_OK &&
                    tu_bake_optimal(path, &legend, &agents, &g, NBB_CORNERS_WEAK, &err) == NB_OK &&
                    nb_bundle_open(path, 0, NULL, &nb, &err) == NB_OK &&
                    nb_aa_open(nb, &aa, &err) == NB_OK && tu_sg_open(nb, 0, &sg, &err) == NB_OK,
                "%s: weak layers baked and opened", names[m])) {
            diag("%s", err.msg);
            nbb_grid_free(&g);
            continue;
        }
        size_t every = every_s && atoi(every_s) > 0 ? (size_t)atoi(every_s)
                                                    : (scen.count + 29) / 30;
        long runs = 0, found = 0, bad = 0, bad_path = 0;
        for (size_t a = 0; a < sizeof agent / sizeof *agent; a++)
            for (size_t i = 0; i < scen.count; i += every) {
                nb_aa_query aq;
                nb_sg_query sq;
                nb_aa_query_init(&aq);
                nb_sg_query_init(&sq);
                aq.capability = sq.capability = agent[a].cap;
                aq.size = sq.size = agent[a].size;
                aq.corner = sq.corner = NB_CORNER_WEAK;
                aq.start = sq.start = scen.lines[i].start;
                aq.goal = sq.goal = scen.lines[i].goal;
                nb_aa_result ar;
                nb_sg_result sr;
                runs++;
                if (nb_aa_find(aa, &aq, &ar, &err) != NB_OK ||
                    nb_sg_find(sg, &sq, &sr, &err) != NB_OK || ar.status != sr.status ||
                    (ar.status == NB_PATH_FOUND && fabs(ar.length - sr.length) > 1e-9)) {
                    if (bad++ < 4)
                        diag("%s line %u, size %u, capability %u: AA* %s %.6f, layer %s %.6f",
                             names[m], scen.lines[i].line, sq.size, sq.capability,
                             nb_path_status_str(ar.status), ar.length,
                             nb_path_status_str(sr.status), sr.length);
                    continue;
                }
                if (sr.status != NB_PATH_FOUND)
                    continue;
                found++;
                bad_path += !path_ok(&g, &sq, BRUTE_WEAK, sr.path, sr.path_len, sr.length, 1);
            }
        ok(bad == 0 && bad_path == 0 && found > 0,
           "%s, weak corners, sizes 1-2, 2 capabilities: %ld queries (%ld found), Annotated A*'s "
           "lengths, legal paths", names[m], runs, found);
        nb_sg_close(sg);
        nb_aa_close(aa);
        nb_bundle_close(nb);
        nbb_scen_free(&scen);
        nbb_grid_free(&g);
    }
}

/* Refusals, errors, blocked ends, slices, budgets and caps on one map. */
static void test_api(tu_rng *rng)
{
    static nbi_agentset agents;
    nbb_grid g;
    tu_random_grid(rng, 60, 40, 22, 2, &g);
    memset(&agents, 0, sizeof agents);
    add_agent(&agents, 3, 1);
    add_agent(&agents, 3, 2);
    const char *path = tu_path(tu_tmpdir(), "sg-api.nbk");
    nb_err err;
    nb_bundle *nb = NULL;
    nb_sg *ws = NULL;
    if (!ok(tu_bake_optimal(path, &legend, &agents, &g, NBB_CORNERS_STRICT, &err) == NB_OK &&
                nb_bundle_open(path, 0, NULL, &nb, &err) == NB_OK &&
                tu_sg_open(nb, 0, &ws, &err) == NB_OK,
            "api: a strict-only bundle baked and opened")) {
        diag("%s", err.msg);
        return;
    }
    nb_sg_query q;
    nb_sg_result r;
    nb_sg_query_init(&q);
    q.capability = 3;
    q.size = 3;
    is_int(nb_sg_find(ws, &q, &r, &err), NB_ERR_NOTFOUND, "size 3, not baked: NB_ERR_NOTFOUND");
    ok(strstr(err.msg, "size 3") && strstr(err.msg, "size 1 strict") &&
           strstr(err.msg, "size 2 strict"),
       "the message names the query and the layers there are: %s", err.msg);
    q.size = 1;
    q.corner = NB_CORNER_WEAK;
    is_int(nb_sg_find(ws, &q, &r, &err), NB_ERR_NOTFOUND,
           "weak corners, baked for strict only: NB_ERR_NOTFOUND");
    ok(strstr(err.msg, "weak corners") && strstr(err.msg, "size 1 strict") &&
           strstr(err.msg, "nb_aa_find"),
       "the message names the rule and sends the caller to Annotated A*: %s", err.msg);
    q.corner = NB_CORNER_STRICT;
    q.capability = 1;
    is_int(nb_sg_find(ws, &q, &r, &err), NB_ERR_NOTFOUND, "another capability: NB_ERR_NOTFOUND");
    q.capability = 3;
    q.size = 0;
    is_int(nb_sg_find(ws, &q, &r, &err), NB_ERR_ARG, "size 0: NB_ERR_ARG");
    q.size = 1;
    q.goal.x = 60;
    is_int(nb_sg_find(ws, &q, &r, &err), NB_ERR_OUTSIDE, "a goal off the map: NB_ERR_OUTSIDE");
    ok(strstr(err.msg, "goal (60, 0)") != NULL, "named: %s", err.msg);
    q.goal.x = 0;
    q.corner = (nb_corner)7;
    is_int(nb_sg_find(ws, &q, &r, &err), NB_ERR_ARG, "corner rule 7: NB_ERR_ARG");
    q.corner = NB_CORNER_STRICT;
    int done = 0;
    is_int(nb_sg_step(ws, 1, &done, &err), NB_ERR_ARG, "step with no query begun: NB_ERR_ARG");
    is_int(nb_sg_finish(ws, &r, &err), NB_ERR_ARG, "finish with no query begun: NB_ERR_ARG");

    /* Blocked ends. */
    int blocked = 0, standable = 0;
    for (size_t i = 0; i < (size_t)g.width * g.height && !(blocked && standable); i++) {
        nb_cell c = {(int32_t)(i % g.width), (int32_t)(i / g.width)};
        if (!brute_can_stand(&legend, &g, 3, 1, c.x, c.y) && !blocked)
            q.goal = c, blocked = 1;
        else if (brute_can_stand(&legend, &g, 3, 1, c.x, c.y) && !standable)
            q.start = c, standable = 1;
    }
    ok(nb_sg_find(ws, &q, &r, &err) == NB_OK && r.status == NB_PATH_GOAL_BLOCKED &&
           r.path_len == 0, "a blocked goal: NB_PATH_GOAL_BLOCKED, no path");
    nb_cell t = q.goal;
    q.goal = q.start;
    q.start = t;
    ok(nb_sg_find(ws, &q, &r, &err) == NB_OK && r.status == NB_PATH_START_BLOCKED,
       "a blocked start: NB_PATH_START_BLOCKED");

    /* Slices, budgets and caps against find, over random standable pairs. */
    int slice_bad = 0, limit_bad = 0, cap_bad = 0, runs = 0, limited = 0;
    nb_sg *capped = NULL;
    tu_sg_open(nb, 8, &capped, &err);
    for (int k = 0; k < 60; k++) {
        q.size = 1 + (unsigned)(k % 2);
        do {
            q.start.x = (int32_t)tu_below(rng, g.width), q.start.y = (int32_t)tu_below(rng, g.height);
        } while (!brute_can_stand(&legend, &g, 3, q.size, q.start.x, q.start.y));
        do {
            q.goal.x = (int32_t)tu_below(rng, g.width), q.goal.y = (int32_t)tu_below(rng, g.height);
        } while (!brute_can_stand(&legend, &g, 3, q.size, q.goal.x, q.goal.y));
        q.max_expansions = 0;
        if (nb_sg_find(ws, &q, &r, &err) != NB_OK || r.status != NB_PATH_FOUND)
            continue;
        runs++;
        double want = r.length;
        uint64_t exp = r.expanded;
        size_t n = r.path_len;
        nb_cell *copy = malloc(n * sizeof *copy);
        memcpy(copy, r.path, n * sizeof *copy);
        /* Sliced in steps of 1 to 3 expansions. */
        uint64_t step = 1 + (uint64_t)(k % 3);
        nb_status st = nb_sg_begin(ws, &q, &err);
        done = 0;
        while (st == NB_OK && !done)
            st = nb_sg_step(ws, step, &done, &err);
        if (st == NB_OK)
            st = nb_sg_finish(ws, &r, &err);
        slice_bad += st != NB_OK || r.status != NB_PATH_FOUND || r.path_len != n ||
                     memcmp(r.path, copy, n * sizeof *copy) != 0 || r.expanded != exp;
        /* A budget below what it needs: a partial path from the start. */
        if (exp > 1) {
            q.max_expansions = exp / 2;
            st = nb_sg_find(ws, &q, &r, &err);
            limited++;
            limit_bad += st != NB_OK || r.status != NB_PATH_LIMIT || r.expanded > exp / 2 ||
                         !path_ok(&g, &q, BRUTE_STRICT, r.path, r.path_len, r.length, 0);
            q.max_expansions = 0;
        }
        /* A node cap: found within it, else a partial path. */
        if (capped) {
            st = nb_sg_find(capped, &q, &r, &err);
            cap_bad += st != NB_OK ||
                       (r.status == NB_PATH_FOUND ? fabs(r.length - want) > 1e-9
                        : r.status != NB_PATH_LIMIT ||
                            !path_ok(&g, &q, BRUTE_STRICT, r.path, r.path_len, r.length, 0));
        }
        free(copy);
    }
    ok(runs > 20 && slice_bad == 0, "%d queries sliced in steps of 1-3: find's paths", runs);
    ok(limited > 5 && limit_bad == 0, "%d queries with half the expansions they need: "
       "NB_PATH_LIMIT and a legal partial path from the start", limited);
    ok(capped && cap_bad == 0, "a workspace capped at 8 nodes: optimal or NB_PATH_LIMIT with a "
       "legal partial path");
    ok(nb_sg_bytes(ws) > 0, "nb_sg_bytes: %zu", nb_sg_bytes(ws));
    nb_sg_close(capped);
    nb_sg_close(ws);
    nb_sg_close(NULL);
    nb_bundle_close(nb);

    /* A corner rule that does not exist is refused when baking. */
    ok(tu_bake_optimal(path, &legend, &agents, &g, 4, &err) == NB_ERR_ARG && strstr(err.msg, "corner rules 0x4"),
       "baking for corner rules 0x4 is refused: %s", err.msg);

    /* A bundle without a layer. */
    nb = NULL;
    ws = NULL;
    ok(tu_write_cleared(path, &legend, &agents, &g, 0, &err) == NB_OK &&
           nb_bundle_open(path, 0, NULL, &nb, &err) == NB_OK &&
           tu_sg_open(nb, 0, &ws, &err) == NB_ERR_NOTFOUND && ws == NULL &&
           strstr(err.msg, "mkclear --optimal"),
       "no layer: NB_ERR_NOTFOUND saying how to bake one");
    nb_bundle_close(nb);
    nbb_grid_free(&g);
}

int main(void)
{
    tu_rng rng = {0x5eed15};
    nbi_legend_default(&legend);
    test_rule();
    test_wall();
    test_api(&rng);
    test_damage(&rng);
    test_long_path();
    test_random(&rng);
    test_dense(&rng);
    test_real_weak();
    return done_testing();
}
