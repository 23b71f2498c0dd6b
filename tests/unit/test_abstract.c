/* test_abstract.c: the abstract graph mkabstract builds, against
 * independent answers.
 *
 *  - Intra-edges of the initial graph: for every two nodes of a cluster
 *    and every (c, s), an edge annotated (c, s) exactly when a textbook
 *    Dijkstra kept inside the cluster finds a path, with its cost.
 *  - Inter-edges: each joins facing cells across a border, annotated
 *    with the smaller of their clearances (the paper's square growing);
 *    and from every pair of facing cells an agent may cross, a transition
 *    of its capability is reached by walking along the border.
 *  - Strong dominance never removes an edge whose twin (or, through a
 *    node, whose two edges of the same total weight) is not at least as
 *    good; the high-quality graph keeps every node; the low-quality graph
 *    keeps no node without an inter-edge.
 *  - The section round-trips through a bundle (plain and zlib), verifies,
 *    and the same inputs give the same bytes.
 *  - Damaged payloads are refused or, when they still pass the checks,
 *    queried without harm; bad parameters get clear errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "haa_util.h"

static nbi_legend legend;

static nb_cell cell_of(const nbi_agraph *g, uint32_t u)
{
    nb_cell c = {nbi_u16at(g->node_xy, 2 * (size_t)u), nbi_u16at(g->node_xy, 2 * (size_t)u + 1)};
    return c;
}

/* The node at a cell, or -1. */
static long node_at(const nbi_agraph *g, nb_cell c)
{
    uint32_t k = nbi_node_cluster(g, (uint32_t)c.x, (uint32_t)c.y);
    for (uint32_t u = nbi_u32at(g->cluster_first, k); u < nbi_u32at(g->cluster_first, k + 1); u++) {
        nb_cell d = cell_of(g, u);
        if (d.x == c.x && d.y == c.y)
            return u;
    }
    return -1;
}

static int subset(const nbi_agraph *g, unsigned a, unsigned b)
{
    return (nbi_u32at(g->caps, a) & ~nbi_u32at(g->caps, b)) == 0;
}

typedef struct arcv {
    uint32_t to;
    unsigned cap, cv, card, diag;
} arcv;

static arcv arc_at(const nbi_agraph *g, uint32_t a)
{
    arcv r = {nbi_u32at(g->arc_to, a), g->arc_ann[2 * (size_t)a], g->arc_ann[2 * (size_t)a + 1],
              nbi_u16at(g->arc_w, 2 * (size_t)a), nbi_u16at(g->arc_w, 2 * (size_t)a + 1)};
    return r;
}

/* Intra-edges of the initial graph against the windowed Dijkstra. */
static void check_intra(const nbi_agraph *g, const nbb_grid *grid, const char *what, long *bad,
                        long *checked)
{
    enum brute_corner rule = g->corner ? BRUTE_WEAK : BRUTE_STRICT;
    for (uint32_t k = 0; k < g->ncx * g->ncy; k++) {
        nbi_box box = nbi_cluster_box(k, g->ncx, g->cluster, g->width, g->height);
        uint32_t a = nbi_u32at(g->cluster_first, k), z = nbi_u32at(g->cluster_first, k + 1);
        for (uint32_t u = a; u < z; u++)
            for (uint32_t v = u + 1; v < z; v++)
                for (uint32_t ci = 0; ci < g->ncaps; ci++)
                    for (uint32_t si = 0; si < g->nsizes; si++) {
                        nb_capability cap = nbi_u32at(g->caps, ci);
                        uint32_t s = nbi_u32at(g->sizes, si);
                        const long win[4] = {box.x0, box.y0, box.x1, box.y1};
                        nb_cell cu = cell_of(g, u), cv = cell_of(g, v);
                        double want = brute_dijkstra(&legend, grid, cap, s, rule, cu.x, cu.y, cv.x,
                                                     cv.y, win, NULL);
                        int n = 0;
                        double got = -1;
                        for (uint32_t e = nbi_u32at(g->node_first, u); e < nbi_u32at(g->node_first, u + 1); e++) {
                            arcv r = arc_at(g, e);
                            if (r.to == v && r.cap == ci && r.cv == s) {
                                n++;
                                got = r.card + sqrt(2.0) * r.diag;
                            }
                        }
                        (*checked)++;
                        if ((want < 0 ? n != 0 : n != 1 || fabs(got - want) > 1e-9) && (*bad)++ < 5)
                            diag("%s: nodes %u-%u cap %#x size %u: %d edges of %.4f, Dijkstra %.4f",
                                 what, u, v, cap, s, n, got, want);
                    }
    }
}

/* Inter-edges: annotations, and a transition reached from every crossing. */
static void check_inter(const nbi_agraph *g, const nbb_grid *grid, const char *what, long *bad,
                        long *checked)
{
    uint32_t top = nbi_u32at(g->sizes, g->nsizes - 1);
    for (uint32_t u = 0; u < g->nnodes; u++)
        for (uint32_t e = nbi_u32at(g->node_first, u); e < nbi_u32at(g->node_first, u + 1); e++) {
            arcv r = arc_at(g, e);
            nb_cell a = cell_of(g, u), b = cell_of(g, r.to);
            if (nbi_node_cluster(g, (uint32_t)a.x, (uint32_t)a.y) ==
                nbi_node_cluster(g, (uint32_t)b.x, (uint32_t)b.y))
                continue;
            nb_capability cap = nbi_u32at(g->caps, r.cap);
            unsigned ca = brute_clearance(&legend, grid, cap, a.x, a.y, top);
            unsigned cb = brute_clearance(&legend, grid, cap, b.x, b.y, top);
            (*checked)++;
            if (r.cv != (ca < cb ? ca : cb) && (*bad)++ < 5)
                diag("%s: inter-edge (%d,%d)-(%d,%d) cap %#x: clearance %u, expected %u", what, a.x,
                     a.y, b.x, b.y, cap, r.cv, ca < cb ? ca : cb);
        }
    /* Every crossing (c, s) reaches a transition of c with clearance >= s
     * along the border, over pairs where both sides keep clearance >= s. */
    for (uint32_t k = 0; k < g->ncx * g->ncy; k++) {
        nbi_box box = nbi_cluster_box(k, g->ncx, g->cluster, g->width, g->height);
        for (int dir = 0; dir < 2; dir++) {
            if (dir == 0 ? box.x1 >= (int32_t)g->width : box.y1 >= (int32_t)g->height)
                continue;
            int32_t len = dir == 0 ? box.y1 - box.y0 : box.x1 - box.x0;
            for (uint32_t ci = 0; ci < g->ncaps; ci++)
                for (uint32_t si = 0; si < g->nsizes; si++) {
                    nb_capability cap = nbi_u32at(g->caps, ci);
                    uint32_t s = nbi_u32at(g->sizes, si);
                    for (int32_t i = 0; i < len; i++) {
                        nb_cell pa = dir == 0 ? (nb_cell){box.x1 - 1, box.y0 + i}
                                              : (nb_cell){box.x0 + i, box.y1 - 1};
                        nb_cell pb = dir == 0 ? (nb_cell){box.x1, box.y0 + i}
                                              : (nb_cell){box.x0 + i, box.y1};
                        if (!brute_can_stand(&legend, grid, cap, s, pa.x, pa.y) ||
                            !brute_can_stand(&legend, grid, cap, s, pb.x, pb.y))
                            continue;
                        int found = 0;
                        for (int step = -1; step <= 1 && !found; step += 2)
                            for (int32_t j = i; j >= 0 && j < len && !found; j += step) {
                                nb_cell qa = dir == 0 ? (nb_cell){box.x1 - 1, box.y0 + j}
                                                      : (nb_cell){box.x0 + j, box.y1 - 1};
                                nb_cell qb = dir == 0 ? (nb_cell){box.x1, box.y0 + j}
                                                      : (nb_cell){box.x0 + j, box.y1};
                                if (!brute_can_stand(&legend, grid, cap, s, qa.x, qa.y) ||
                                    !brute_can_stand(&legend, grid, cap, s, qb.x, qb.y))
                                    break;
                                long na = node_at(g, qa), nb = node_at(g, qb);
                                if (na < 0 || nb < 0)
                                    continue;
                                for (uint32_t e = nbi_u32at(g->node_first, (uint32_t)na);
                                     e < nbi_u32at(g->node_first, (uint32_t)na + 1) && !found; e++) {
                                    arcv r = arc_at(g, e);
                                    found = r.to == (uint32_t)nb && subset(g, r.cap, ci) && r.cv >= s;
                                }
                            }
                        (*checked)++;
                        if (!found && (*bad)++ < 5)
                            diag("%s: crossing (%d,%d)-(%d,%d) for cap %#x size %u reaches no "
                                 "transition",
                                 what, pa.x, pa.y, pb.x, pb.y, cap, s);
                    }
                }
        }
    }
}

/* The cheapest path from u to v in g over intra-edges of u's cluster each
 * at least as good as r (a plain O(n^2) Dijkstra); -1 when none. */
static double detour(const nbi_agraph *g, uint32_t u, uint32_t v, const arcv *r)
{
    nb_cell cu = cell_of(g, u);
    uint32_t k = nbi_node_cluster(g, (uint32_t)cu.x, (uint32_t)cu.y);
    uint32_t a = nbi_u32at(g->cluster_first, k), z = nbi_u32at(g->cluster_first, k + 1), n = z - a;
    double *d = malloc(n * sizeof *d);
    char *done = calloc(n, 1);
    for (uint32_t i = 0; i < n; i++)
        d[i] = INFINITY;
    d[u - a] = 0;
    double result = -1;
    for (;;) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < n; i++)
            if (!done[i] && isfinite(d[i]) && (best == UINT32_MAX || d[i] < d[best]))
                best = i;
        if (best == UINT32_MAX)
            break;
        done[best] = 1;
        if (best + a == v) {
            result = d[best];
            break;
        }
        for (uint32_t e = nbi_u32at(g->node_first, best + a); e < nbi_u32at(g->node_first, best + a + 1); e++) {
            arcv t = arc_at(g, e);
            if (t.to < a || t.to >= z || !subset(g, t.cap, r->cap) || t.cv < r->cv)
                continue;
            double nd = d[best] + t.card + sqrt(2.0) * t.diag;
            if (nd < d[t.to - a])
                d[t.to - a] = nd;
        }
    }
    free(d);
    free(done);
    return result;
}

/* Every edge of `from` missing in `to` (nodes matched by cell) has in
 * `to` a twin at least as good of the same weight, or (through nodes) a
 * path of such edges whose weights add up to its own. */
static void check_dominance(const nbi_agraph *from, const nbi_agraph *to, int through,
                            const char *what, long *bad, long *removed)
{
    for (uint32_t u = 0; u < from->nnodes; u++) {
        long tu = node_at(to, cell_of(from, u));
        for (uint32_t e = nbi_u32at(from->node_first, u); e < nbi_u32at(from->node_first, u + 1); e++) {
            arcv r = arc_at(from, e);
            long tv = node_at(to, cell_of(from, r.to));
            if (tu < 0 || tv < 0) {
                if ((*bad)++ < 5)
                    diag("%s: a node is gone", what);
                continue;
            }
            int present = 0, twin = 0;
            for (uint32_t f = nbi_u32at(to->node_first, (uint32_t)tu);
                 f < nbi_u32at(to->node_first, (uint32_t)tu + 1); f++) {
                arcv t = arc_at(to, f);
                if (t.to != (uint32_t)tv)
                    continue;
                present |= t.cap == r.cap && t.cv == r.cv && t.card == r.card && t.diag == r.diag;
                twin |= subset(to, t.cap, r.cap) && t.cv >= r.cv && t.card == r.card &&
                        t.diag == r.diag;
            }
            if (present)
                continue;
            (*removed)++;
            if (!twin && through)
                twin = fabs(detour(to, (uint32_t)tu, (uint32_t)tv, &r) - (r.card + sqrt(2.0) * r.diag)) < 1e-9;
            if (!twin && (*bad)++ < 5)
                diag("%s: edge %u-%u (cap %u, clearance %u, %u+%u) removed without a twin", what,
                     u, r.to, r.cap, r.cv, r.card, r.diag);
        }
    }
}

static void test_construction(tu_rng *r)
{
    const char *dir = tu_tmpdir();
    long ibad = 0, ichecked = 0, xbad = 0, xchecked = 0, dbad = 0, dremoved = 0, tbad = 0,
         tremoved = 0, nodes_bad = 0, lq_bad = 0;
    for (unsigned m = 0; m < 16; m++) {
        uint32_t w = 10 + tu_below(r, 22), h = 10 + tu_below(r, 22);
        unsigned nt = 1 + tu_below(r, 3);
        nbb_grid grid;
        nbi_agentset agents;
        nb_bundle *b = hu_random_level(r, &legend, w, h, nt, m % 2 ? 5 + tu_below(r, 20) : 0, 4,
                                       1 + tu_below(r, 3), tu_path(dir, "a.nbk"), &grid, &agents);
        nbb_abstract_opts o;
        nbb_abstract_defaults(&o);
        o.cluster = 3 + tu_below(r, 6);
        o.placement = tu_below(r, 4);
        o.corner = tu_below(r, 2);
        uint8_t *p[4] = {NULL, NULL, NULL, NULL};
        nbi_agraph g[4];
        nb_err err;
        int ok_ = b != NULL;
        /* initial, high without and with the through-node rule, low */
        for (int q = 0; q < 4 && ok_; q++) {
            o.quality = q == 0 ? NBI_QUALITY_INITIAL : q == 3 ? NBI_QUALITY_LOW : NBI_QUALITY_HIGH;
            o.through = q == 2 || q == 3;
            if (hu_graph(b, &o, &p[q], &g[q], &err) != NB_OK) {
                diag("map %u: %s", m, err.msg);
                ok_ = 0;
            }
        }
        if (ok_) {
            check_intra(&g[0], &grid, "initial", &ibad, &ichecked);
            check_inter(&g[0], &grid, "initial", &xbad, &xchecked);
            check_inter(&g[2], &grid, "high", &xbad, &xchecked);
            check_dominance(&g[0], &g[1], 0, "high", &dbad, &dremoved);
            check_dominance(&g[0], &g[2], 1, "high, through nodes", &tbad, &tremoved);
            nodes_bad += g[1].nnodes != g[0].nnodes || g[2].nnodes != g[0].nnodes;
            /* Corollary 8 applied: every low-quality node has an inter-edge. */
            for (uint32_t u = 0; u < g[3].nnodes; u++) {
                int inter = 0;
                nb_cell cu = cell_of(&g[3], u);
                for (uint32_t e = nbi_u32at(g[3].node_first, u); e < nbi_u32at(g[3].node_first, u + 1); e++) {
                    nb_cell cv = cell_of(&g[3], nbi_u32at(g[3].arc_to, e));
                    inter |= nbi_node_cluster(&g[3], (uint32_t)cu.x, (uint32_t)cu.y) !=
                             nbi_node_cluster(&g[3], (uint32_t)cv.x, (uint32_t)cv.y);
                }
                lq_bad += !inter;
            }
        }
        ok(ok_, "map %u (%ux%u, %u terrains, clusters of %u, %s placement): four graphs", m, w, h,
           nt, o.cluster, nbi_placement_name(o.placement));
        for (int q = 0; q < 4; q++)
            free(p[q]);
        nb_bundle_close(b);
        nbb_grid_free(&grid);
    }
    diag("%ld intra-edge checks, %ld inter-edge checks, %ld and %ld edges dropped", ichecked,
         xchecked, dremoved, tremoved);
    is_int(ibad, 0, "intra-edges: one per (c, s) and pair with a path inside the cluster, with "
                    "its cost");
    is_int(xbad, 0, "inter-edges: annotations, and a transition reached from every crossing");
    ok(dbad == 0 && dremoved > 0, "strong dominance removes only edges with a twin as good");
    ok(tbad == 0 && tremoved > dremoved,
       "and through a node, only edges with two as good of the same total weight");
    is_int(nodes_bad, 0, "the high-quality graph keeps every node");
    is_int(lq_bad, 0, "every low-quality node keeps an inter-edge (Corollary 8)");
}

static void test_roundtrip(tu_rng *r)
{
    const char *dir = tu_tmpdir();
    nbb_grid grid;
    nbi_agentset agents;
    nb_bundle *b = hu_random_level(r, &legend, 48, 40, 3, 0, 3, 3, tu_path(dir, "r.nbk"), &grid,
                                   &agents);
    nb_err err;
    for (int paths = 0; paths < 2; paths++) {
        nbb_abstract_opts o;
        nbb_abstract_defaults(&o);
        o.paths = paths;
        uint8_t *p1 = NULL, *p2 = NULL;
        size_t n1 = 0, n2 = 0;
        nbb_abstract_stats st;
        ok(nbb_abstract_build(b, &o, &p1, &n1, &st, &err) == NB_OK &&
               nbb_abstract_build(b, &o, &p2, &n2, NULL, &err) == NB_OK && n1 == n2 &&
               memcmp(p1, p2, n1) == 0,
           "%s: the same inputs give the same bytes", paths ? "with paths" : "plain");
        ok(st.bytes == n1 && st.nodes > 0 && st.edges > st.inter && (paths ? st.path_bytes > 0 : st.path_bytes == 0),
           "the build's statistics describe the payload");
        for (int z = 0; z < 2; z++) {
            nbb_builder *w;
            nb_section_info info;
            nbb_abstract_info(p1, &info);
            const char *path = tu_path(dir, "rt.nbk");
            nb_bundle *rb = NULL;
            nbi_agraph g;
            const void *pl;
            size_t pn;
            int good = nbb_builder_new(&w, &err) == NB_OK && nbb_builder_take(w, b, &err) == NB_OK &&
                       nbb_builder_add(w, &info, p1, n1, z, &err) == NB_OK &&
                       nbb_builder_write(w, path, &err) == NB_OK;
            nbb_builder_free(w);
            good = good && nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &rb, &err) == NB_OK &&
                   nb_bundle_verify(rb, &err) == NB_OK && nbi_agraph_find(rb, &g, &err) == NB_OK &&
                   nb_bundle_payload(rb, (size_t)g.section, &pl, &pn, &err) == NB_OK && pn == n1 &&
                   memcmp(pl, p1, n1) == 0;
            ok(good, "%s%s: written, verified and read back byte for byte",
               paths ? "with paths" : "plain", z ? ", zlib" : "");
            if (!good)
                diag("%s", err.msg);
            const nb_section_info *si = rb && g.section >= 0 ? nb_bundle_section_get(rb, (size_t)g.section) : NULL;
            ok(si && si->param[0] == o.cluster && si->param[1] == NBI_QUALITY_HIGH &&
                   si->param[2] == st.nodes && si->param[3] == st.edges && si->param[4] == st.inter &&
                   si->param[5] == NBI_PLACE_ENDS && si->param[6] == st.path_bytes,
               "the section table: cluster, quality, nodes, edges, inter, placement, path bytes");
            nb_haa *ws = NULL;
            ok(rb && nb_haa_open(rb, &ws, &err) == NB_OK, "nb_haa_open on it");
            nb_haa_close(ws);
            nb_bundle_close(rb);
        }
        free(p1);
        free(p2);
    }
    nb_bundle_close(b);
    nbb_grid_free(&grid);
}

static void test_damage(tu_rng *r)
{
    const char *dir = tu_tmpdir();
    nbb_grid grid;
    nbi_agentset agents;
    nb_bundle *b = hu_random_level(r, &legend, 44, 36, 2, 0, 2, 2, tu_path(dir, "d.nbk"), &grid,
                                   &agents);
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    o.cluster = 6;
    o.paths = 1;
    uint8_t *pp[2] = {NULL, NULL};
    size_t nn[2] = {0, 0};
    nb_err err;
    int built = b && nbb_abstract_build(b, &o, &pp[0], &nn[0], NULL, &err) == NB_OK;
    o.paths = 0;
    built = built && nbb_abstract_build(b, &o, &pp[1], &nn[1], NULL, &err) == NB_OK;
    if (!ok(built, "graphs to damage, with and without paths")) {
        free(pp[0]);
        free(pp[1]);
        nb_bundle_close(b);
        nbb_grid_free(&grid);
        return;
    }
    uint8_t *c = malloc(nn[0] > nn[1] ? nn[0] : nn[1]);
    long refused = 0, accepted = 0, other = 0;
    for (int t = 0; t < 3000; t++) {
        const uint8_t *p = pp[t % 2];
        size_t n = nn[t % 2];
        memcpy(c, p, n);
        size_t len = n;
        int kind = (int)tu_below(r, 5);
        if (kind == 0) {
            len = tu_below(r, (uint32_t)n);
        } else if (kind == 4) {
            /* One flip among the weights: mostly a heavier edge, which the
             * checks accept; queries must still come out sound. */
            nbi_agraph g0;
            nbi_agraph_view(p, n, grid.width, grid.height, &g0, NULL);
            size_t w0 = (size_t)(g0.arc_w - p), wn = 8 * (size_t)g0.nedges;
            c[w0 + tu_below(r, (uint32_t)wn)] ^= (uint8_t)(1u << tu_below(r, 8));
        } else {
            for (int k = 0; k < 1 + kind; k++)
                c[tu_below(r, (uint32_t)n)] ^= (uint8_t)(1u << tu_below(r, 8));
        }
        nbi_agraph g;
        nb_status st = nbi_agraph_view(c, len, grid.width, grid.height, &g, &err);
        if (st != NB_OK) {
            refused++;
            other += st != NB_ERR_FORMAT || strstr(err.msg, "abstract graph: ") == NULL;
            continue;
        }
        accepted++;
        nb_haa *ws;
        if (nbi_haa_new_graph(b, &g, len, &ws, &err) != NB_OK)
            continue;
        for (int k = 0; k < 10; k++) {
            const nb_agent *a = &agents.agent[tu_below(r, (uint32_t)agents.count)];
            nb_aa_query q = {{(int32_t)tu_below(r, grid.width), (int32_t)tu_below(r, grid.height)},
                             {(int32_t)tu_below(r, grid.width), (int32_t)tu_below(r, grid.height)},
                             a->size, a->capability, NB_CORNER_STRICT, 0, NULL, NULL, 0};
            nb_haa_result res;
            tu_haa_find(ws, &q, NB_HAA_STRAIGHTEN, &res, &err);
        }
        nb_haa_close(ws);
    }
    diag("damaged payloads: %ld refused, %ld accepted (flips the checks cannot see)", refused,
         accepted);
    ok(refused > 1500, "most damage is refused");
    is_int(other, 0, "refusals are format errors that name the abstract graph");
    free(c);
    free(pp[0]);
    free(pp[1]);
    nb_bundle_close(b);
    nbb_grid_free(&grid);
}

static void test_errors(void)
{
    const char *dir = tu_tmpdir();
    static const char map[] = "type octile\nheight 4\nwidth 5\nmap\n.....\n..@..\n.....\n.....\n";
    nbb_grid grid;
    nb_err err;
    nbb_map_parse(map, sizeof map - 1, "e", &legend, 1, &grid, &err);
    nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    agents.count = 1;
    agents.agent[0] = (nb_agent){"a", 1, 1u, 0, {0}};
    nb_bundle *b = hu_bake(tu_path(dir, "e.nbk"), &legend, &agents, &grid);
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    uint8_t *p = NULL;
    size_t n;
    o.cluster = 0;
    is_int(nbb_abstract_build(b, &o, &p, &n, NULL, &err), NB_ERR_ARG, "cluster size 0");
    like(err.msg, "cluster size 0: expected 1 to 255", "named");
    o.cluster = 256;
    is_int(nbb_abstract_build(b, &o, &p, &n, NULL, &err), NB_ERR_ARG, "cluster size 256");
    o.cluster = 200;
    ok(nbb_abstract_build(b, &o, &p, &n, NULL, &err) == NB_OK, "a cluster larger than the map");
    free(p);
    p = NULL;
    nb_bundle_close(b);
    /* A capability listed twice: an arc names one by its index, and the SQLite form keys the
     * graph's (capability, size) pairs, which convert could not write. */
    agents.count = 2;
    agents.agent[1] = (nb_agent){"b", 1, 3u, 0, {0}};
    b = hu_bake(tu_path(dir, "e2.nbk"), &legend, &agents, &grid);
    agents.count = 1;
    nbi_agraph g;
    if (ok(b && nbb_abstract_build(b, &o, &p, &n, NULL, &err) == NB_OK &&
               nbi_agraph_view(p, n, grid.width, grid.height, &g, &err) == NB_OK && g.ncaps == 2,
           "a graph of two capabilities")) {
        size_t caps = (size_t)(g.caps - p);
        memcpy(p + caps + 4, p + caps, 4);
        is_int(nbi_agraph_view(p, n, grid.width, grid.height, &g, &err), NB_ERR_FORMAT,
               "the same capability twice: refused");
        like(err.msg, "abstract graph: capability 1 is capability 0 again", "named, both indices");
    }
    free(p);
    p = NULL;
    nb_bundle_close(b);
    /* A level without clearance layers. */
    const char *bare = tu_path(dir, "bare.nbk");
    tu_write_level(bare, &legend, &agents, &grid, 0, &err);
    nb_bundle_open(bare, 0, NULL, &b, &err);
    o.cluster = 10;
    is_int(nbb_abstract_build(b, &o, &p, &n, NULL, &err), NB_ERR_NOTFOUND, "no clearance layer");
    like(err.msg, "no clearance layer for capability {ground}", "named, with its capability");
    nb_bundle_close(b);
    /* No map at all. */
    tu_write_level(bare, &legend, &agents, NULL, 0, &err);
    nb_bundle_open(bare, 0, NULL, &b, &err);
    is_int(nbb_abstract_build(b, &o, &p, &n, NULL, &err), NB_ERR_NOTFOUND, "no map");
    like(err.msg, "no map to abstract", "named");
    nb_bundle_close(b);
    nbb_grid_free(&grid);
}

int main(void)
{
    nbi_legend_default(&legend);
    tu_rng r = {2008};
    test_construction(&r);
    test_roundtrip(&r);
    test_damage(&r);
    test_errors();
    return done_testing();
}
