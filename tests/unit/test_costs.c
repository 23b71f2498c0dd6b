/* test_costs.c: terrain costs per agent (issue 18, part 1).
 *  - the agent set's `costs` in YAML: values, and an error naming file,
 *    line and terrain for each kind of bad input;
 *  - the bundle: a set without costs is written as version 1, the same
 *    bytes as costs that are all 1; with costs, version 2, read back
 *    exactly; damaged cost tables refused at open;
 *  - Annotated A* with random costs on random maps of 1 to 4 terrains,
 *    sizes 1 to 3, both corner rules: the same cost as a plain Dijkstra
 *    written here with the rule spelled out again (a move costs its length
 *    times the largest multiplier under the agent's square at the cell it
 *    enters), no path exactly when it finds none, every path legal and
 *    costing what the result says;
 *  - every multiplier 1 gives today's answers exactly (the same cells and
 *    expansions as a query without costs); sliced queries give the unsliced
 *    path; bad multipliers are refused naming the terrain;
 *  - wc3/bloodvenomfalls and wc3/battleground of ../shared/maps, with
 *    agents of {ground, swamp} whose swamp costs 1, 2 and 5: on the start
 *    and goal of every scenario line, AA*'s cost is a plain Dijkstra's
 *    with the same costs (and with cost 1, its length is the scenario's
 *    optimum).  make check runs every 100th line; make check-costs
 *    (NB_COSTS_EVERY=1) every line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "brute.h"
#include "testutil.h"

static nbi_legend legend;

/* ---- the plain Dijkstra (brute.c) ---- */

static double square_cost(const nbb_grid *g, const double *cost, unsigned size, long x, long y)
{
    return brute_square_cost(&legend, g, cost, size, x, y);
}

static double plain_dijkstra(const nbb_grid *g, nb_capability cap, unsigned size,
                             enum brute_corner rule, const double *cost, long sx, long sy, long gx,
                             long gy)
{
    return brute_cost_dijkstra(&legend, g, cap, size, rule, cost, sx, sy, gx, gy);
}

/* ---- YAML ---- */

static nb_status parse(const char *yaml, nbi_agentset *set, nb_err *err)
{
    return nbb_agents_parse(yaml, strlen(yaml), "a.yaml", &legend, set, err);
}

static void test_yaml(void)
{
    static nbi_agentset set;
    nb_err err;
    nb_status st = parse("agents:\n"
                         "  - name: scout\n"
                         "    size: 1\n"
                         "    capability: [ground, swamp]\n"
                         "    costs: {swamp: 2.5}\n"
                         "  - name: plain\n"
                         "    size: 2\n"
                         "    capability: [ground, swamp]\n"
                         "  - name: ones\n"
                         "    size: 1\n"
                         "    capability: [ground, swamp, water]\n"
                         "    costs: {swamp: 1, ground: 1.0}\n"
                         "  - name: boat\n"
                         "    size: 1\n"
                         "    capability: [ground, water]\n"
                         "    costs:\n"
                         "      ground: 3\n"
                         "      water: 1.25\n",
                         &set, &err);
    if (!ok(st == NB_OK && set.count == 4, "costs: a set with costs parses")) {
        diag("%s", err.msg);
        return;
    }
    ok(set.agent[0].weighted && set.agent[0].cost[1] == 2.5 && set.agent[0].cost[0] == 1,
       "costs: swamp 2.5, ground (unnamed) 1");
    ok(!set.agent[1].weighted, "costs: an agent without costs is not weighted");
    ok(!set.agent[2].weighted, "costs: costs that are all 1 are no costs");
    ok(set.agent[3].weighted && set.agent[3].cost[0] == 3 && set.agent[3].cost[2] == 1.25,
       "costs: block form, two terrains");

    static const struct {
        const char *costs, *where, *what;
    } bad[] = {
        {"{lava: 2}", "a.yaml:5:13:", "unknown terrain 'lava'"},
        {"{water: 2}", "a.yaml:5:13:", "'water' is not in its capability"},
        {"{swamp: 0.5}", "a.yaml:5:20:", "0.5 is outside 1 to 1e+06"},
        {"{swamp: 2e6}", "a.yaml:5:20:", "is outside 1 to 1e+06"},
        {"{swamp: nan}", "a.yaml:5:20:", "expected a finite number, found 'nan'"},
        {"{swamp: .inf}", "a.yaml:5:20:", "expected a finite number"},
        {"{swamp: [2]}", "a.yaml:5:20:", "expected a scalar"},
        {"{swamp: 2, swamp: 3}", "a.yaml:5:23:", "'swamp' appears twice"},
        {"[swamp, 2]", "a.yaml:5:12:", "expected a mapping"},
        {"2", "a.yaml:5:12:", "expected a mapping"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char yaml[512];
        snprintf(yaml, sizeof yaml,
                 "agents:\n  - name: scout\n    size: 1\n    capability: [ground, swamp]\n"
                 "    costs: %s\n",
                 bad[i].costs);
        st = parse(yaml, &set, &err);
        int good = st != NB_OK && strstr(err.msg, bad[i].where) == err.msg &&
                   strstr(err.msg, "agent 'scout'") && strstr(err.msg, bad[i].what);
        if (!ok(good, "costs: %s is refused: %s ... %s", bad[i].costs, bad[i].where, bad[i].what))
            diag("got %d: %s", (int)st, err.msg);
    }
}

/* ---- the bundle ---- */

/* The agents section of the bundle at path: its version and bytes (free them). */
static uint8_t *agents_section(const char *path, uint16_t *version, size_t *len)
{
    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK)
        return NULL;
    uint8_t *out = NULL;
    for (size_t i = 0; i < nb_bundle_section_count(b); i++) {
        const nb_section_info *in = nb_bundle_section_get(b, i);
        if (in->type != NB_SEC_AGENTS)
            continue;
        const void *data;
        size_t n;
        if (nb_bundle_payload(b, i, &data, &n, &err) != NB_OK)
            break;
        *version = in->version;
        *len = n;
        out = malloc(n);
        memcpy(out, data, n);
    }
    nb_bundle_close(b);
    return out;
}

/* A bundle in memory of the default legend and this agents section. */
static nb_status open_with_agents(const uint8_t *payload, size_t len, uint16_t version,
                                  nb_bundle **out, nb_err *err)
{
    nbb_builder *w;
    nb_section_info in;
    uint8_t *img = NULL;
    size_t n = 0;
    nb_status st = nbb_builder_new(&w, err);
    if (st != NB_OK)
        return st;
    st = nbb_put_level(w, &legend, NULL, NULL, 0, err);
    memset(&in, 0, sizeof in);
    in.type = NB_SEC_AGENTS;
    in.version = version;
    in.param[0] = nbi_get32(payload);
    if (st == NB_OK)
        st = nbb_builder_add(w, &in, payload, len, 0, err);
    if (st == NB_OK)
        st = nbb_builder_image(w, &img, &n, err);
    nbb_builder_free(w);
    if (st == NB_OK)
        st = nb_bundle_open_memory(img, n, NB_OPEN_PRIVATE, NULL, out, err);
    free(img);
    return st;
}

static void test_bundle(tu_rng *rng)
{
    static nbi_agentset plain, ones, costs;
    nb_err err;
    nbb_grid g;
    tu_random_grid(rng, 20, 20, 20, 3, &g);
    const char *base = "agents:\n  - name: a\n    size: 1\n    capability: [ground, swamp]\n%s"
                       "  - name: b\n    size: 2\n    capability: [ground, water]\n%s";
    char yaml[512];
    snprintf(yaml, sizeof yaml, base, "", "");
    nb_status st = parse(yaml, &plain, &err);
    snprintf(yaml, sizeof yaml, base, "    costs: {swamp: 1}\n", "    costs: {ground: 1}\n");
    st = st == NB_OK ? parse(yaml, &ones, &err) : st;
    snprintf(yaml, sizeof yaml, base, "    costs: {swamp: 2.5}\n",
             "    costs: {water: 0.1e1, ground: 7.125}\n");
    st = st == NB_OK ? parse(yaml, &costs, &err) : st;
    const char *dir = tu_tmpdir();
    const char *pp = tu_path(dir, "plain.nbk"), *po = tu_path(dir, "ones.nbk"),
               *pc = tu_path(dir, "costs.nbk");
    st = st == NB_OK ? tu_write_cleared(pp, &legend, &plain, &g, 0, &err) : st;
    st = st == NB_OK ? tu_write_cleared(po, &legend, &ones, &g, 0, &err) : st;
    st = st == NB_OK ? tu_write_cleared(pc, &legend, &costs, &g, 0, &err) : st;
    if (!ok(st == NB_OK, "bundle: three agent sets baked")) {
        diag("%s", err.msg);
        nbb_grid_free(&g);
        return;
    }
    size_t lp, lo;
    char *bp = tu_read(pp, &lp), *bo = tu_read(po, &lo);
    ok(bp && bo && lp == lo && memcmp(bp, bo, lp) == 0,
       "bundle: costs of 1 give the bytes of no costs");
    free(bp);
    free(bo);
    uint16_t vp = 0, vc = 0;
    size_t sp = 0, sc = 0;
    uint8_t *ap = agents_section(pp, &vp, &sp), *ac = agents_section(pc, &vc, &sc);
    ok(ap && vp == 1 && sp == 8 + 2 * 48, "bundle: without costs, agents version 1, %zu bytes", sp);
    ok(ac && vc == 2 && sc == 8 + 2 * 48 + 2 * legend.nterrains * 8,
       "bundle: with costs, agents version 2, %zu bytes", sc);
    ok(ap && ac && memcmp(ap, ac, 8 + 2 * 48) == 0,
       "bundle: version 2 keeps version 1's records, then the costs");
    nb_bundle *b = NULL;
    if (nb_bundle_open(pc, NB_OPEN_VERIFY, NULL, &b, &err) == NB_OK) {
        const nb_agent *a = tu_agent(b, "a"), *bb = tu_agent(b, "b");
        ok(a && bb && a->weighted && a->cost[1] == 2.5 && a->cost[0] == 1 && a->cost[2] == 1 &&
               bb->weighted && bb->cost[0] == 7.125 && bb->cost[2] == 1 && bb->cost[1] == 1,
           "bundle: the costs read back exactly");
        nb_bundle_close(b);
    } else {
        ok(0, "bundle: the bundle with costs opens (%s)", err.msg);
    }
    /* Damaged cost tables, each refused at open. */
    if (ac) {
        size_t at = 8 + 2 * 48; /* agent a's costs: ground, swamp, water, trees */
        static const struct {
            size_t off;
            double v;
            const char *what;
        } lies[] = {
            {1, NAN, "cost nan for terrain 'swamp'"},
            {1, 0.5, "cost 0.5 for terrain 'swamp'"},
            {0, INFINITY, "cost inf for terrain 'ground'"},
            {2, 2, "cost 2 for terrain 'water', expected 1 (a terrain outside its capability)"},
            {1, 2e6, "cost 2e+06 for terrain 'swamp'"},
        };
        for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
            uint8_t *x = malloc(sc);
            memcpy(x, ac, sc);
            nbi_putf64(x + at + 8 * lies[i].off, lies[i].v);
            b = NULL;
            st = open_with_agents(x, sc, 2, &b, &err);
            if (!ok(st == NB_ERR_FORMAT && strstr(err.msg, lies[i].what),
                    "bundle: %s is refused", lies[i].what))
                diag("got %d: %s", (int)st, err.msg);
            nb_bundle_close(b);
            free(x);
        }
        b = NULL;
        st = open_with_agents(ac, sc - 8, 2, &b, &err);
        ok(st == NB_ERR_FORMAT && strstr(err.msg, "expected"), "bundle: a short cost table: %s",
           err.msg);
        nb_bundle_close(b);
        b = NULL;
        st = open_with_agents(ac, sc, 3, &b, &err);
        ok(st == NB_ERR_VERSION && strstr(err.msg, "knows 1 and 2"), "bundle: version 3: %s",
           err.msg);
        nb_bundle_close(b);
        b = NULL;
        st = open_with_agents(ap, sp, 2, &b, &err);
        ok(st == NB_ERR_FORMAT, "bundle: version 2 without its table: %s", err.msg);
        nb_bundle_close(b);
    }
    free(ap);
    free(ac);
    /* A program's agent set with a cost a reader would refuse is not written. */
    costs.agent[0].cost[0] = 0;
    st = tu_write_level(tu_path(dir, "bad.nbk"), &legend, &costs, &g, 0, &err);
    ok(st == NB_ERR_FORMAT && strstr(err.msg, "cost 0 for terrain 'ground'"),
       "bundle: an agent set with a cost of 0 is not written: %s", err.msg);
    FILE *f = fopen(tu_path(dir, "bad.nbk"), "rb");
    ok(!f, "bundle: ... and no file is left");
    if (f)
        fclose(f);
    nbb_grid_free(&g);
}

/* ---- Annotated A* ---- */

static int path_cost_ok(const nbb_grid *g, const nb_aa_query *q, enum brute_corner rule,
                        const double *cost, const nb_aa_result *r)
{
    if (r->path_len < 1 || r->path[0].x != q->start.x || r->path[0].y != q->start.y ||
        r->path[r->path_len - 1].x != q->goal.x || r->path[r->path_len - 1].y != q->goal.y)
        return 0;
    double len = 0, c = 0;
    for (size_t i = 1; i < r->path_len; i++) {
        const nb_cell *a = &r->path[i - 1], *b = &r->path[i];
        if (!brute_step_ok(&legend, g, q->capability, q->size, rule, a->x, a->y, b->x, b->y))
            return 0;
        double step = a->x != b->x && a->y != b->y ? sqrt(2.0) : 1.0;
        len += step;
        c += step * square_cost(g, cost, q->size, b->x, b->y);
    }
    return fabs(len - r->length) < 1e-9 * (1 + len) && fabs(c - r->cost) < 1e-9 * (1 + c);
}

struct tally {
    int queries, found, none, bad;
};

static void random_ends(tu_rng *rng, const nbb_grid *g, nb_aa_query *q)
{
    q->start.x = (int32_t)tu_below(rng, g->width), q->start.y = (int32_t)tu_below(rng, g->height);
    q->goal.x = (int32_t)tu_below(rng, g->width), q->goal.y = (int32_t)tu_below(rng, g->height);
    for (int t = 0; t < 20 && !brute_can_stand(&legend, g, q->capability, q->size, q->start.x,
                                                q->start.y); t++)
        q->start.x = (int32_t)tu_below(rng, g->width), q->start.y = (int32_t)tu_below(rng, g->height);
    for (int t = 0; t < 20 && !brute_can_stand(&legend, g, q->capability, q->size, q->goal.x,
                                                q->goal.y); t++)
        q->goal.x = (int32_t)tu_below(rng, g->width), q->goal.y = (int32_t)tu_below(rng, g->height);
}

static void one_query(nb_aa *ws, const nbb_grid *g, nb_aa_query *q, enum brute_corner rule,
                      const double *cost, struct tally *t)
{
    nb_err err;
    nb_aa_result r;
    t->queries++;
    if (nb_aa_find(ws, q, &r, &err) != NB_OK) {
        if (t->bad++ < 4)
            diag("query failed: %s", err.msg);
        return;
    }
    double want = plain_dijkstra(g, q->capability, q->size, rule, cost, q->start.x, q->start.y,
                                 q->goal.x, q->goal.y);
    int found = r.status == NB_PATH_FOUND;
    int right = found == (want >= 0) &&
                (!found || (fabs(r.cost - want) <= 1e-9 * (1 + want) && path_cost_ok(g, q, rule, cost, &r)));
    if (!right && t->bad++ < 4)
        diag("(%d,%d)->(%d,%d) size %u cap %#x: %s cost %.9f, Dijkstra %.9f", q->start.x,
             q->start.y, q->goal.x, q->goal.y, q->size, q->capability,
             nb_path_status_str(r.status), r.cost, want);
    t->found += found;
    t->none += !found;
}

/* Query k of a series: capability caps[k % 2], sizes 1-3, random costs and ends, on g (the
 * map with the overlay's blocks as walls when ov is given). */
static void random_query(tu_rng *rng, nb_aa *ws, const nbb_grid *g, const nb_capability *caps,
                         int k, int rule, const nb_overlay *ov, struct tally *t)
{
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.capability = caps[k % 2];
    q.size = 1 + (uint32_t)(k / 2 % 3);
    q.corner = rule ? NB_CORNER_WEAK : NB_CORNER_STRICT;
    double cost[NB_MAX_TERRAINS];
    for (unsigned i = 0; i < NB_MAX_TERRAINS; i++)
        cost[i] = tu_below(rng, 3) ? 1 + tu_below(rng, 4000) / 1000.0 : 1;
    q.costs = cost;
    q.overlay = ov;
    random_ends(rng, g, &q);
    one_query(ws, g, &q, (enum brute_corner)rule, cost, t);
}

static void test_aa(tu_rng *rng)
{
    static const uint32_t shapes[][2] = {{1, 1}, {6, 9}, {24, 24}, {40, 31}};
    static nbi_agentset agents;
    const char *path = tu_path(tu_tmpdir(), "aa.nbk");
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        for (unsigned nt = 1; nt <= 4; nt++) {
            nbb_grid g;
            tu_random_grid(rng, shapes[sh][0], shapes[sh][1], 10 + 5 * nt, nt, &g);
            memset(&agents, 0, sizeof agents);
            nb_capability caps[2] = {(1u << nt) - 1, 1u + tu_below(rng, (1u << nt) - 1)};
            for (unsigned c = 0; c < 2; c++)
                for (unsigned s = 1; s <= 3; s++) {
                    nb_agent *a = &agents.agent[agents.count++];
                    snprintf(a->name, sizeof a->name, "c%us%u", c, s);
                    a->capability = caps[c];
                    a->size = s;
                }
            nb_err err;
            nb_bundle *nb = NULL;
            nb_aa *ws = NULL;
            nb_status st = tu_write_cleared(path, &legend, &agents, &g, 0, &err);
            if (st == NB_OK)
                st = nb_bundle_open(path, 0, NULL, &nb, &err);
            if (st == NB_OK)
                st = nb_aa_open(nb, &ws, &err);
            if (!ok(st == NB_OK, "aa: %ux%u, %u terrains: baked", g.width, g.height, nt)) {
                diag("%s", err.msg);
                nbb_grid_free(&g);
                continue;
            }
            for (int rule = 0; rule < 2; rule++) {
                struct tally t = {0};
                for (int k = 0; k < 60; k++)
                    random_query(rng, ws, &g, caps, k, rule, NULL, &t);
                ok(t.bad == 0, "aa: %ux%u, %u terrains, %s corners: %d queries with random costs "
                   "(%d found, %d none) cost what Dijkstra says, paths legal",
                   g.width, g.height, nt, rule ? "weak" : "strict", t.queries, t.found, t.none);
                /* Costs under a runtime overlay: Dijkstra on the map with the blocks as walls. */
                nb_overlay *ov = NULL;
                nbb_grid walls = {g.width, g.height, malloc((size_t)g.width * g.height)};
                memcpy(walls.cells, g.cells, (size_t)g.width * g.height);
                if (nb_overlay_open(nb, &ov, &err) != NB_OK) {
                    ok(0, "overlay: %s", err.msg);
                    free(walls.cells);
                    continue;
                }
                for (int k = 0; k < 3; k++) {
                    long bx = tu_below(rng, g.width), by = tu_below(rng, g.height);
                    long bw = 1 + tu_below(rng, g.width - (uint32_t)bx < 4 ? g.width - (uint32_t)bx : 4);
                    long bh = 1 + tu_below(rng, g.height - (uint32_t)by < 4 ? g.height - (uint32_t)by : 4);
                    if (nb_overlay_block(ov, bx, by, bw, bh, &err) != NB_OK)
                        diag("block: %s", err.msg);
                    for (long y = by; y < by + bh && y < (long)g.height; y++)
                        for (long x = bx; x < bx + bw && x < (long)g.width; x++)
                            walls.cells[(size_t)y * g.width + (size_t)x] = '@';
                }
                struct tally to = {0};
                for (int k = 0; k < 30; k++)
                    random_query(rng, ws, &walls, caps, k, rule, ov, &to);
                ok(to.bad == 0, "aa: %ux%u, %u terrains, %s corners: %d queries with random costs "
                   "under a runtime overlay (%d found, %d none) cost what Dijkstra says on the map "
                   "with the blocks as walls", g.width, g.height, nt, rule ? "weak" : "strict",
                   to.queries, to.found, to.none);
                nb_overlay_close(ov);
                free(walls.cells);
            }
            nb_aa_close(ws);
            nb_bundle_close(nb);
            nbb_grid_free(&g);
        }
}

/* Multipliers of 1 give today's answers exactly; slices give the unsliced path. */
static void test_ones_and_slices(tu_rng *rng)
{
    static nbi_agentset agents;
    nbb_grid g;
    tu_random_grid(rng, 60, 45, 25, 4, &g);
    memset(&agents, 0, sizeof agents);
    for (unsigned s = 1; s <= 3; s++) {
        nb_agent *a = &agents.agent[agents.count++];
        snprintf(a->name, sizeof a->name, "s%u", s);
        a->capability = 15;
        a->size = s;
    }
    agents.agent[agents.count] = agents.agent[0];
    agents.agent[agents.count].capability = 1;
    strcpy(agents.agent[agents.count++].name, "ground");
    const char *path = tu_path(tu_tmpdir(), "ones.nbk");
    nb_err err;
    nb_bundle *nb = NULL;
    nb_aa *ws = NULL;
    if (tu_write_cleared(path, &legend, &agents, &g, 0, &err) != NB_OK ||
        nb_bundle_open(path, 0, NULL, &nb, &err) != NB_OK || nb_aa_open(nb, &ws, &err) != NB_OK) {
        ok(0, "ones: setup (%s)", err.msg);
        nbb_grid_free(&g);
        return;
    }
    static nb_cell cells[60 * 45];
    const double ones[NB_MAX_TERRAINS] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                          1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    int same = 0, slices = 0, n = 200;
    for (int k = 0; k < n; k++) {
        nb_aa_query q;
        nb_aa_query_init(&q);
        q.capability = 15;
        q.size = 1 + (uint32_t)(k % 3);
        q.corner = k & 4 ? NB_CORNER_WEAK : NB_CORNER_STRICT;
        random_ends(rng, &g, &q);
        nb_aa_result a, b;
        if (nb_aa_find(ws, &q, &a, &err) != NB_OK)
            break;
        size_t alen = a.path_len;
        if (alen)
            memcpy(cells, a.path, alen * sizeof *cells);
        q.costs = ones;
        if (nb_aa_find(ws, &q, &b, &err) != NB_OK)
            break;
        same += a.status == b.status && a.length == b.length && a.cost == a.length &&
                b.cost == b.length && a.expanded == b.expanded && alen == b.path_len &&
                (alen == 0 || memcmp(cells, b.path, alen * sizeof *cells) == 0);
        /* The same query with costs, whole and in slices of 1 to 7 expansions. */
        double cost[NB_MAX_TERRAINS] = {1, 2.5, 1.5, 4};
        q.costs = cost;
        if (nb_aa_find(ws, &q, &a, &err) != NB_OK)
            break;
        alen = a.path_len;
        if (alen)
            memcpy(cells, a.path, alen * sizeof *cells);
        int done = 0;
        nb_status st = nb_aa_begin(ws, &q, &err);
        while (st == NB_OK && !done)
            st = nb_aa_step(ws, 1 + (uint64_t)(k % 7), &done, &err);
        if (st == NB_OK)
            st = nb_aa_finish(ws, &b, &err);
        slices += st == NB_OK && a.status == b.status && a.cost == b.cost && alen == b.path_len &&
                  (alen == 0 || memcmp(cells, b.path, alen * sizeof *cells) == 0);
    }
    ok(same == n, "ones: %d of %d queries with every multiplier 1 answer as without costs "
       "(status, length, cells, expansions)", same, n);
    ok(slices == n, "slices: %d of %d weighted queries in slices give the unsliced path", slices, n);

    /* Bad multipliers, named; those outside the capability are not read. */
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.capability = 15;
    nb_aa_result r;
    double bad[NB_MAX_TERRAINS] = {1, 0.5, NAN, NAN};
    q.costs = bad;
    nb_status st = nb_aa_find(ws, &q, &r, &err);
    ok(st == NB_ERR_ARG && strstr(err.msg, "cost 0.5 for terrain 'swamp'"), "bad cost: %s", err.msg);
    bad[1] = NAN;
    st = nb_aa_find(ws, &q, &r, &err);
    ok(st == NB_ERR_ARG && strstr(err.msg, "'swamp'"), "NaN cost: %s", err.msg);
    q.capability = 1;
    st = nb_aa_find(ws, &q, &r, &err);
    ok(st == NB_OK, "costs outside the capability are not read");
    /* nb_aa_query_agent. */
    nb_agent ag;
    memset(&ag, 0, sizeof ag);
    ag.size = 2;
    ag.capability = 5;
    nb_aa_query_agent(&q, &ag);
    ok(q.size == 2 && q.capability == 5 && q.costs == NULL, "query_agent: no costs");
    ag.weighted = 1;
    nb_aa_query_agent(&q, &ag);
    ok(q.costs == ag.cost, "query_agent: the agent's costs");
    nb_aa_close(ws);
    nb_bundle_close(nb);
    nbb_grid_free(&g);
}

/* ---- the scenarios of two wc3 maps ---- */

struct heap_item {
    double d;
    uint32_t cell;
};

/* Dijkstra for a size-1 agent of {ground, swamp} under the strict corner rule, on the map's
 * cells, stopped at the goal: a binary heap with stale entries skipped.  cost[] by terrain. */
static double scen_dijkstra(const nbb_grid *g, const double *cost, nb_cell s, nb_cell t,
                            double *d, struct heap_item *h)
{
    const long W = (long)g->width, H = (long)g->height;
    size_t n = (size_t)W * (size_t)H, hn = 0;
#define PASS(x, y)                                                                                     ((x) >= 0 && (y) >= 0 && (x) < W && (y) < H &&                                                      legend.code[g->cells[(size_t)(y) * (size_t)W + (size_t)(x)]] <= 1)
    for (size_t i = 0; i < n; i++)
        d[i] = INFINITY;
    if (!PASS(s.x, s.y) || !PASS(t.x, t.y))
        return -1;
    d[(size_t)s.y * (size_t)W + (size_t)s.x] = 0;
    h[hn++] = (struct heap_item){0, (uint32_t)(s.y * W + s.x)};
    while (hn) {
        struct heap_item top = h[0], last = h[--hn];
        size_t i = 0;
        for (;;) { /* sift last down from the root */
            size_t c = 2 * i + 1;
            if (c >= hn)
                break;
            if (c + 1 < hn && h[c + 1].d < h[c].d)
                c++;
            if (h[c].d >= last.d)
                break;
            h[i] = h[c];
            i = c;
        }
        if (hn)
            h[i] = last;
        if (top.d > d[top.cell])
            continue; /* stale */
        long x = (long)(top.cell % (uint32_t)W), y = (long)(top.cell / (uint32_t)W);
        if (x == t.x && y == t.y)
            return top.d;
        for (long dy = -1; dy <= 1; dy++)
            for (long dx = -1; dx <= 1; dx++) {
                long nx = x + dx, ny = y + dy;
                if ((!dx && !dy) || !PASS(nx, ny) || (dx && dy && !(PASS(x + dx, y) && PASS(x, y + dy))))
                    continue;
                size_t v = (size_t)ny * (size_t)W + (size_t)nx;
                double nd = top.d + (dx && dy ? sqrt(2.0) : 1.0) * cost[legend.code[g->cells[v]]];
                if (nd >= d[v])
                    continue;
                d[v] = nd;
                size_t j = hn++; /* sift up */
                while (j > 0 && h[(j - 1) / 2].d > nd) {
                    h[j] = h[(j - 1) / 2];
                    j = (j - 1) / 2;
                }
                h[j] = (struct heap_item){nd, (uint32_t)v};
            }
    }
#undef PASS
    return -1;
}

static void test_scenarios(void)
{
    static const char *const maps[] = {"maps/wc3/bloodvenomfalls.map", "maps/wc3/battleground.map"};
    static const double swamp[] = {1, 2, 5};
    const char *e = getenv("NB_COSTS_EVERY");
    long every = e && atol(e) > 0 ? atol(e) : 100;
    for (size_t m = 0; m < 2; m++) {
        const char *mapfile = tu_shared(maps[m]);
        if (!mapfile) {
            skip(1, "%s: ../shared is not there", maps[m]);
            continue;
        }
        char scenfile[1024];
        snprintf(scenfile, sizeof scenfile, "%s.scen", mapfile);
        static nbi_agentset agents;
        nbb_grid g;
        nbb_scen scen = {NULL, 0};
        nb_err err;
        nb_bundle *b = NULL;
        nb_aa *ws = NULL;
        tu_swamp_agents(&agents, swamp, 3);
        const char *bpath = tu_path(tu_tmpdir(), "scen.nbk");
        if (nbb_map_read(mapfile, &legend, 1, &g, &err) != NB_OK ||
            nbb_scen_read(scenfile, &scen, &err) != NB_OK ||
            tu_write_cleared(bpath, &legend, &agents, &g, 0, &err) != NB_OK ||
            nb_bundle_open(bpath, 0, NULL, &b, &err) != NB_OK || nb_aa_open(b, &ws, &err) != NB_OK) {
            ok(0, "%s reads, bakes and opens: %s", maps[m], err.msg);
            continue;
        }
        size_t n = (size_t)g.width * g.height;
        double *d = malloc(n * sizeof *d);
        struct heap_item *h = malloc(8 * n * sizeof *h);
        for (size_t k = 0; k < 3; k++) {
            const nb_agent *a = nb_agent_get(b, k);
            nb_aa_query q;
            nb_aa_query_init(&q);
            nb_aa_query_agent(&q, a);
            size_t runs = 0, bad = 0, off_optimal = 0;
            for (size_t i = 0; i < scen.count; i++) {
                if (i % (size_t)every && i + 1 != scen.count)
                    continue;
                const nbb_scen_line *l = &scen.lines[i];
                q.start = l->start;
                q.goal = l->goal;
                nb_aa_result r;
                runs++;
                if (nb_aa_find(ws, &q, &r, &err) != NB_OK) {
                    if (bad++ < 3)
                        diag("line %u: %s", l->line, err.msg);
                    continue;
                }
                double want = scen_dijkstra(&g, a->cost, l->start, l->goal, d, h);
                if (r.status != NB_PATH_FOUND || fabs(r.cost - want) > 1e-9 * (1 + want)) {
                    if (bad++ < 3)
                        diag("%s line %u: AA* %s, cost %.9f; Dijkstra %.9f", a->name, l->line,
                             nb_path_status_str(r.status), r.cost, want);
                }
                double tol = l->decimals >= 4 ? 1e-4 : pow(10, -(double)l->decimals);
                off_optimal += swamp[k] == 1 && fabs(r.length - l->optimal) > tol;
            }
            ok(bad == 0, "%s, swamp costs %g: AA*'s cost is Dijkstra's on %zu scenario lines",
               maps[m], swamp[k], runs);
            if (swamp[k] == 1)
                ok(off_optimal == 0, "%s, swamp costs 1: every length is the scenario's optimum",
                   maps[m]);
        }
        free(d);
        free(h);
        nb_aa_close(ws);
        nb_bundle_close(b);
        nbb_scen_free(&scen);
        nbb_grid_free(&g);
    }
}

int main(void)
{
    tu_rng rng = {0xc0575ULL};
    nbi_legend_default(&legend);
    test_yaml();
    test_bundle(&rng);
    test_aa(&rng);
    test_ones_and_slices(&rng);
    test_scenarios();
    return done_testing();
}
