/* test_crafted.c: bundles crafted as an attacker would, with every CRC
 * right, that the readers must refuse or read safely: the holes found in
 * HAA*'s graph reader, the layers' value range and section names.  Each
 * section is changed through its decoded payload and written back with the
 * bake API, which recomputes the checksums, so only the readers' own
 * checks stand between these bundles and a query. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abstract/abstract.h"
#include "motion/perimeter.h"
#include "testutil.h"

static const char *dir;

/* nb_haa_open on a bundle file: its status, and the message in msg. */
static nb_status haa_open_status(const char *path, char *msg, size_t len)
{
    nb_bundle *b;
    nb_haa *h = NULL;
    nb_err err;
    nb_status st = nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &b, &err);
    if (st == NB_OK) {
        st = nb_haa_open(b, &h, &err);
        nb_haa_close(h);
        nb_bundle_close(b);
    }
    snprintf(msg, len, "%s", st == NB_OK ? "" : err.msg);
    return st;
}

/* The sample level with its layers and an abstract graph with stored paths. */
static const char *bake_graph(int paths)
{
    nbi_legend legend;
    static nbi_agentset agents;
    nbb_grid grid;
    nb_err err;
    tu_read_sample(&legend, &agents, &grid);
    const char *path = tu_path(dir, paths ? "paths.nbk" : "plain.nbk");
    nb_bundle *b = NULL;
    if (tu_write_cleared(path, &legend, &agents, &grid, 0, &err) != NB_OK ||
        nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK) {
        printf("Bail out! %s\n", err.msg);
        exit(1);
    }
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    o.paths = paths;
    uint8_t *payload;
    size_t n;
    nb_section_info info;
    if (nbb_abstract_build(b, &o, &payload, &n, NULL, &err) != NB_OK) {
        printf("Bail out! %s\n", err.msg);
        exit(1);
    }
    nbb_abstract_info(payload, &info);
    nb_bundle_close(b);
    if (!tu_section_put(path, path, &info, payload, n))
        exit(1);
    free(payload);
    nbb_grid_free(&grid);
    return path;
}

/* The checked view of the graph in a payload (that the sample level's map
 * is 64 x 40 the test knows). */
static int view(const uint8_t *p, size_t len, nbi_agraph *g)
{
    return nbi_agraph_view(p, len, 64, 40, g, NULL) == NB_OK;
}

/* An intra-edge arc a from node u to v with u > v: its stored path is the
 * one read backwards from v. */
static int find_backward_arc(const nbi_agraph *g, uint32_t *arc)
{
    for (uint32_t u = 0; u < g->nnodes; u++)
        for (uint32_t a = nbi_u32at(g->node_first, u); a < nbi_u32at(g->node_first, u + 1); a++)
            if (nbi_u32at(g->arc_to, a) < u && nbi_u32at(g->arc_path, a) != NBI_NO_PATH) {
                *arc = a;
                return 1;
            }
    return 0;
}

static void test_backward_path_offset(const char *path)
{
    size_t len;
    nb_section_info info;
    uint8_t *p = tu_section_take(path, NB_SEC_ABSTRACT, &len, &info);
    nbi_agraph g;
    uint32_t a = 0;
    if (!ok(p && view(p, len, &g) && find_backward_arc(&g, &a), "a graph with stored paths")) {
        free(p);
        return;
    }
    /* The offset of an arc from a higher node to a lower: once only the
     * arcs the other way were checked. */
    nbi_put32((uint8_t *)g.arc_path + 4 * (size_t)a, 0x7ffffff0u);
    const char *out = tu_path(dir, "backward.nbk");
    char msg[NB_ERR_MSG_MAX];
    ok(tu_section_put(path, out, &info, p, len), "its backward arc's path offset made huge, CRCs right");
    nb_status st = haa_open_status(out, msg, sizeof msg);
    ok(st == NB_ERR_FORMAT && strstr(msg, "lies beyond the moves"),
       "nb_haa_open refuses it: %s", msg);
    free(p);
}

/* A stored path that loops back and forth inside its cluster and still
 * ends at its node with its weight, longer than the workspace's buffer for
 * a refined edge: appended to the moves, the arc pointed at it. */
static void test_looping_path(const char *path)
{
    size_t len;
    nb_section_info info;
    uint8_t *p = tu_section_take(path, NB_SEC_ABSTRACT, &len, &info);
    nbi_agraph g;
    if (!ok(p && view(p, len, &g), "the graph read")) {
        free(p);
        return;
    }
    /* The first intra arc u -> v with u < v, and a move from v that stays
     * in its cluster. */
    uint32_t arc = UINT32_MAX, u = 0;
    for (uint32_t x = 0; x < g.nnodes && arc == UINT32_MAX; x++)
        for (uint32_t a = nbi_u32at(g.node_first, x); a < nbi_u32at(g.node_first, x + 1); a++)
            if (nbi_u32at(g.arc_to, a) > x && nbi_u32at(g.arc_path, a) != NBI_NO_PATH) {
                arc = a;
                u = x;
                break;
            }
    uint32_t v = nbi_u32at(g.arc_to, arc);
    int32_t vx = nbi_u16at(g.node_xy, 2 * (size_t)v), vy = nbi_u16at(g.node_xy, 2 * (size_t)v + 1);
    nbi_box box = nbi_cluster_box(nbi_node_cluster(&g, (uint32_t)vx, (uint32_t)vy), g.ncx, g.cluster,
                                  g.width, g.height);
    unsigned there = 0;
    for (unsigned d = 0; d < 4; d++) {
        int32_t nx = vx + nbi_move_dx[d], ny = vy + nbi_move_dy[d];
        if (nx >= box.x0 && ny >= box.y0 && nx < box.x1 && ny < box.y1) {
            there = d;
            break;
        }
    }
    uint32_t steps = nbi_agraph_arc_steps(&g, arc), off = nbi_u32at(g.arc_path, arc);
    uint32_t loops = 8 * g.cluster * g.cluster; /* far beyond 16 x cluster^2 cells */
    uint32_t total = steps + 2 * loops;
    uint64_t old_off[11], new_off[11];
    uint32_t ncl = g.ncx * g.ncy;
    nbi_agraph_layout(g.ncaps, g.nsizes, ncl, g.nnodes, g.nedges, 1, g.path_bytes, old_off);
    uint32_t at = 2 * g.path_bytes; /* the new path starts after the old moves */
    uint32_t pbytes = (at + total + 1) / 2;
    nbi_agraph_layout(g.ncaps, g.nsizes, ncl, g.nnodes, g.nedges, 1, pbytes, new_off);
    uint8_t *q = calloc(new_off[10], 1);
    memcpy(q, p, (size_t)old_off[10]);
    nbi_put32(q + 4 * NBI_AB_PATH_BYTES, pbytes);
    uint8_t *moves = q + new_off[9];
    for (uint32_t k = 0; k < total; k++) {
        unsigned code;
        if (k < steps) {
            uint32_t n = off + k;
            code = (p[old_off[9] + n / 2] >> (4 * (n % 2))) & 15u;
        } else {
            code = (k - steps) % 2 == 0 ? there : nbi_move_opposite(there);
        }
        uint32_t n = at + k;
        moves[n / 2] |= (uint8_t)(code << (4 * (n % 2)));
    }
    nbi_put32(q + new_off[8] + 4 * (size_t)arc, at);
    nbi_put16(q + new_off[6] + 4 * (size_t)arc, (uint16_t)(nbi_u16at(g.arc_w, 2 * (size_t)arc) + 2 * loops));
    const char *out = tu_path(dir, "loop.nbk");
    char msg[NB_ERR_MSG_MAX];
    ok(tu_section_put(path, out, &info, q, (size_t)new_off[10]),
       "arc %u (node %u to %u): its path made %u steps, looping inside its cluster", arc, u, v, total);
    nb_status st = haa_open_status(out, msg, sizeof msg);
    ok(st == NB_ERR_FORMAT && strstr(msg, "longer than its"), "nb_haa_open refuses it: %s", msg);
    free(q);
    free(p);
}

/* Two nodes of one cluster on the same cell: then nothing bounded how many
 * nodes a cluster holds, and the insertion of start and goal wrote past
 * its buffer. */
static void test_crowded_cluster(const char *path)
{
    size_t len;
    nb_section_info info;
    uint8_t *p = tu_section_take(path, NB_SEC_ABSTRACT, &len, &info);
    nbi_agraph g;
    if (!ok(p && view(p, len, &g), "a graph without stored paths")) {
        free(p);
        return;
    }
    uint32_t k = 0;
    while (k < g.ncx * g.ncy &&
           nbi_u32at(g.cluster_first, k + 1) - nbi_u32at(g.cluster_first, k) < 2)
        k++;
    uint32_t first = nbi_u32at(g.cluster_first, k);
    uint8_t *xy = (uint8_t *)g.node_xy;
    nbi_put16(xy + 4 * ((size_t)first + 1), nbi_u16at(g.node_xy, 2 * (size_t)first));
    nbi_put16(xy + 4 * ((size_t)first + 1) + 2, nbi_u16at(g.node_xy, 2 * (size_t)first + 1));
    const char *out = tu_path(dir, "crowded.nbk");
    char msg[NB_ERR_MSG_MAX];
    ok(tu_section_put(path, out, &info, p, len), "cluster %u's second node moved onto its first", k);
    nb_status st = haa_open_status(out, msg, sizeof msg);
    ok(st == NB_ERR_FORMAT && strstr(msg, "comes after a node of the same or a later cell"),
       "nb_haa_open refuses it: %s", msg);
    /* And a node off its cluster's border. */
    free(p);
    p = tu_section_take(path, NB_SEC_ABSTRACT, &len, &info);
    view(p, len, &g);
    nbi_box box = nbi_cluster_box(k, g.ncx, g.cluster, g.width, g.height);
    xy = (uint8_t *)g.node_xy;
    nbi_put16(xy + 4 * (size_t)first, (uint16_t)(box.x0 + 1));
    nbi_put16(xy + 4 * (size_t)first + 2, (uint16_t)(box.y0 + 1));
    out = tu_path(dir, "inside.nbk");
    ok(tu_section_put(path, out, &info, p, len), "a node moved inside its cluster");
    st = haa_open_status(out, msg, sizeof msg);
    ok(st == NB_ERR_FORMAT && (strstr(msg, "not on the border") || strstr(msg, "comes after")),
       "nb_haa_open refuses it: %s", msg);
    free(p);
}

/* A component layer whose cell holds a value beyond the layer's count (the
 * packing has room for it): read as no component, never handed on. */
static void test_component_range(const char *path)
{
    nb_bundle *b;
    nb_err err;
    nb_bundle_open(path, 0, NULL, &b, &err);
    long i = -1;
    for (size_t k = 0; k < nb_bundle_section_count(b) && i < 0; k++) {
        const nb_section_info *in = nb_bundle_section_get(b, k);
        /* a layer with room above its count */
        if (in->type == NB_SEC_COMPONENTS && in->param[2] + 1 < (1u << in->param[3]))
            i = (long)k;
    }
    if (!ok(i >= 0, "a component layer with room above its count")) {
        nb_bundle_close(b);
        return;
    }
    nb_section_info info = *nb_bundle_section_get(b, (size_t)i);
    const void *data;
    size_t len;
    nb_bundle_payload(b, (size_t)i, &data, &len, &err);
    uint8_t *p = malloc(len);
    memcpy(p, data, len);
    nb_capability cap = info.param[0];
    unsigned size = info.param[1];
    char caps[256];
    nb_capability_format(b, cap, caps, sizeof caps);
    /* A standable cell of the layer. */
    long cx = -1, cy = -1;
    for (long y = 0; y < 40 && cx < 0; y++)
        for (long x = 0; x < 64; x++)
            if (nb_component(b, cap, size, x, y) > 0) {
                cx = x;
                cy = y;
                break;
            }
    nb_bundle_close(b);
    uint32_t bits = info.param[3];
    uint64_t bit = (uint64_t)(cy * 64 + cx) * bits;
    for (uint32_t k = 0; k < bits; k++) /* every bit of the cell set */
        p[NBI_LAYER_HEADER + (bit + k) / 8] |= (uint8_t)(1u << ((bit + k) % 8));
    const char *out = tu_path(dir, "component.nbk");
    ok(tu_section_put(path, out, &info, p, len), "cell (%ld, %ld) of a component layer set to %u, beyond its %u",
       cx, cy, (1u << bits) - 1, info.param[2]);
    ok(nb_bundle_open(out, NB_OPEN_VERIFY, NULL, &b, &err) == NB_OK, "it verifies");
    ok(nb_component(b, cap, size, cx, cy) == 0, "nb_component reads it as no component");
    nb_cell c = {(int32_t)cx, (int32_t)cy};
    ok(nb_reachable(b, cap, size, c, c) == 0, "nor is it reachable from itself");
    nb_bundle_close(b);
    const char *top = getenv("top_builddir");
    if (top && *top) {
        int rc = tu_system("'%s/tools/navbake' render '%s' -o '%s' components --capability %s "
                           "--size %u",
                           top, out, tu_path(dir, "c.svg"), caps, size);
        ok(rc == 0, "navbake render of its components draws it (exit %d)", rc);
    } else {
        skip(1, "top_builddir not set: navbake not found");
    }
    free(p);
}

/* A section name that is not a name: refused at open for known types. */
static void test_section_name(const char *path)
{
    size_t len;
    nb_section_info info;
    uint8_t *p = tu_section_take(path, NB_SEC_AGENTS, &len, &info);
    nb_section_info evil = info;
    evil.type = NB_SEC_MODEL; /* a type whose sections have names */
    snprintf(evil.name, sizeof evil.name, "m\x1b[31m\"x");
    const char *out = tu_path(dir, "name.nbk");
    ok(p && tu_section_put(path, out, &evil, p, len), "a model section named with an escape and a quote");
    nb_bundle *b;
    nb_err err;
    nb_status st = nb_bundle_open(out, 0, NULL, &b, &err);
    ok(st == NB_ERR_FORMAT && strstr(err.msg, "its name is not"), "open refuses it: %s",
       st == NB_OK ? "opened" : err.msg);
    if (st == NB_OK)
        nb_bundle_close(b);
    free(p);
}

/* A level with its layers, the tank model and its perimeter table in
 * 32-bit entries. */
static const char *bake_perimeter(void)
{
    nbi_legend legend;
    static nbi_agentset agents;
    static nb_model src;
    nbb_grid grid;
    nb_err err;
    nbb_builder *bl = NULL;
    tu_read_sample(&legend, &agents, &grid);
    const char *path = tu_path(dir, "perimeter.nbk");
    nbb_perimeter_opts o = {.radius = 6, .layout = NB_PERIM_FULL, .entry_bits = 32};
    nb_status st = nbb_model_read(tu_src("data/models/tank.yaml"), &src, &err);
    if (st == NB_OK)
        st = nbb_builder_new(&bl, &err);
    if (st == NB_OK)
        st = nbb_put_level(bl, &legend, &agents, &grid, 0, &err);
    if (st == NB_OK)
        st = nbb_bake_clearance(bl, &legend, &agents, &grid, 0, NULL, &err);
    if (st == NB_OK)
        st = nbb_put_model(bl, &src, &err);
    if (st == NB_OK)
        st = nbb_put_perimeter(bl, &src, &o, NULL, &err);
    if (st == NB_OK)
        st = nbb_builder_write(bl, path, &err);
    nbb_builder_free(bl);
    nbb_grid_free(&grid);
    if (st != NB_OK)
        diag("cannot bake a perimeter table: %s", err.msg);
    return st == NB_OK ? path : NULL;
}

/* The costs of plans between fixed pairs of states with one heuristic;
 * -1 where a plan fails. */
static void plan_costs(const char *path, nb_motion_heuristic h, double *cost, int n)
{
    nb_bundle *b = NULL;
    nb_model *m = NULL;
    nb_perimeter *p = NULL;
    nb_motion *ws = NULL;
    nb_err err;
    for (int i = 0; i < n; i++)
        cost[i] = -1;
    const nb_agent *a;
    if (nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &b, &err) != NB_OK ||
        nb_model_open(b, "tank", &m, &err) != NB_OK || nb_perimeter_open(b, m, &p, &err) != NB_OK ||
        !(a = nb_agent_get(b, 0)) ||
        tu_motion_open(b, m, p, a->capability, a->size, 0, &ws, &err) != NB_OK) {
        diag("cannot plan on %s: %s", path, err.msg);
        goto out;
    }
    tu_rng r = {7};
    for (int i = 0; i < n; i++) {
        nb_motion_query q;
        nb_motion_result res;
        nb_motion_query_init(&q);
        q.heuristic = h;
        for (nb_motion_state *s = &q.start; s; s = s == &q.start ? &q.goal : NULL) {
            do {
                s->x = (int32_t)tu_below(&r, 64);
                s->y = (int32_t)tu_below(&r, 40);
            } while (nb_can_stand(b, a->capability, a->size, s->x, s->y) != 1);
            s->heading = (uint16_t)tu_below(&r, nb_model_headings(m));
            s->speed = (uint16_t)nb_model_stop(m);
        }
        if (nb_motion_find(ws, &q, &res, &err) == NB_OK && res.status == NB_PATH_FOUND)
            cost[i] = res.cost;
    }
out:
    nb_motion_close(ws);
    nb_perimeter_close(p);
    nb_model_close(m);
    nb_bundle_close(b);
}

/* Perimeter entries that are NaN or negative: no order for the search to
 * keep, so they read as 0, a lower bound, and plans stay optimal. */
static void test_perimeter_values(void)
{
    const char *path = bake_perimeter();
    size_t len;
    nb_section_info info;
    uint8_t *p = path ? tu_section_take(path, NB_SEC_PERIMETER, &len, &info) : NULL;
    if (!ok(p != NULL, "a level with a 32-bit perimeter table"))
        return;
    size_t first = 64 + 16 * (size_t)nbi_get32(p + 28);
    const uint32_t nan = 0x7fc00000u, minus = 0xc2c80000u; /* NaN, -100 */
    for (size_t e = first, k = 0; e + 4 <= len; e += 4, k++)
        nbi_put32(p + e, k % 2 ? nan : minus);
    const char *out = tu_path(dir, "perimeter-nan.nbk");
    ok(tu_section_put(path, out, &info, p, len), "every entry NaN or -100");
    /* Every look-up of the crafted table, near the goal, is a cost. */
    nb_bundle *b;
    nb_model *m = NULL;
    nb_perimeter *per = NULL;
    nb_err err;
    long looked = 0, costs = 0;
    if (nb_bundle_open(out, 0, NULL, &b, &err) == NB_OK) {
        if (nb_model_open(b, "tank", &m, &err) == NB_OK && nb_perimeter_open(b, m, &per, &err) == NB_OK) {
            nb_motion_state g = {0, 0, 0, (uint16_t)nb_model_stop(m)}, st = g;
            for (st.y = -6; st.y <= 6; st.y++)
                for (st.x = -6; st.x <= 6; st.x++)
                    for (st.heading = 0; st.heading < nb_model_headings(m); st.heading++) {
                        double v = -1;
                        if (nb_perimeter_lookup(per, &st, &g, &v) != NB_PERIM_OUTSIDE) {
                            looked++;
                            costs += v >= 0;
                        }
                    }
        }
        nb_perimeter_close(per);
        nb_model_close(m);
        nb_bundle_close(b);
    }
    ok(looked > 0, "%ld look-ups inside the table", looked);
    is_int(costs, looked, "nb_perimeter_lookup answers each with a cost of 0 or more");
    enum { N = 12 };
    double want[N], got[N];
    plan_costs(path, NB_MH_OCTILE, want, N);
    plan_costs(out, NB_MH_PERIMETER, got, N);
    int same = 0, found = 0;
    for (int i = 0; i < N; i++) {
        found += want[i] >= 0;
        same += want[i] == got[i];
        if (want[i] != got[i])
            diag("plan %d: octile on the true level %g, perimeter on the crafted one %g", i, want[i],
                 got[i]);
    }
    ok(found > 0, "%d of %d plans found", found, N);
    is_int(same, N, "the perimeter heuristic over them plans what the octile one does");
    free(p);
}

int main(void)
{
    dir = tu_tmpdir();
    const char *with_paths = bake_graph(1), *plain = bake_graph(0);
    test_backward_path_offset(with_paths);
    test_looping_path(with_paths);
    test_crowded_cluster(plain);
    test_component_range(plain);
    test_section_name(plain);
    test_perimeter_values();
    return done_testing();
}
