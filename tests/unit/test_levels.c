/* test_levels.c: HAA* over the abstract graph's higher levels (issue 16,
 * point 4; formats/abstract.md, section type 34).
 *  - random maps of 1 to 3 terrains, agents of two capabilities and sizes
 *    1 and 2, graphs of clusters of 3 to 5 under every quality, with and
 *    without stored paths, and 2 to 4 levels of factor 2 or 3: HAA* finds
 *    a path exactly when a plain Dijkstra (tests/support/brute.c) does,
 *    whichever level it searched; each path is legal step by step, ends
 *    where asked and is never shorter than Dijkstra's; most of the far
 *    queries ran above level 1 (the result's level says which);
 *  - a level is what its definition says, recomputed here from the graph
 *    alone: each intra-edge weighs exactly the shortest path over the
 *    level below inside its cluster for its annotation, and every pair
 *    of nodes joined inside a cluster for a (capability, size) has an edge
 *    that admits it;
 *  - the bytes do not depend on the number of threads;
 *  - slices of any size give the unsliced path;
 *  - a section that lies (a node out of range, an arc to nowhere, a weight
 *    below the octile distance, another graph's CRC, a bad count) is
 *    refused at open, naming the section. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abstract/alevels.h"
#include "abstract/haa_ws.h"
#include "brute.h"
#include "testutil.h"

static nbi_legend legend;

struct tally {
    int queries, found, none, bad, above;
    double worst;
};

static int path_ok(const nbb_grid *g, const nb_aa_query *q, enum brute_corner rule,
                   const nb_haa_result *r)
{
    if (r->path_len < 1 || r->path[0].x != q->start.x || r->path[0].y != q->start.y ||
        r->path[r->path_len - 1].x != q->goal.x || r->path[r->path_len - 1].y != q->goal.y)
        return 0;
    double c = 0;
    for (size_t i = 1; i < r->path_len; i++) {
        const nb_cell *a = &r->path[i - 1], *b = &r->path[i];
        if (!brute_step_ok(&legend, g, q->capability, q->size, rule, a->x, a->y, b->x, b->y))
            return 0;
        c += a->x != b->x && a->y != b->y ? sqrt(2.0) : 1.0;
    }
    return fabs(c - r->cell_length) <= 1e-9 * (1 + c);
}

static void standable_end(tu_rng *rng, const nbb_grid *g, const nb_aa_query *q, nb_cell *e,
                          int32_t x0, int32_t x1)
{
    for (int t = 0; t < 40; t++) {
        e->x = x0 + (int32_t)tu_below(rng, (uint32_t)(x1 - x0));
        e->y = (int32_t)tu_below(rng, g->height);
        if (brute_can_stand(&legend, g, q->capability, q->size, e->x, e->y))
            return;
    }
}

static void one_query(nb_haa *ws, const nbb_grid *g, const nb_aa_query *q, enum brute_corner rule,
                      struct tally *t)
{
    nb_err err;
    nb_haa_result r;
    t->queries++;
    if (tu_haa_find(ws, q, 0, &r, &err) != NB_OK) {
        if (t->bad++ < 4)
            diag("query failed: %s", err.msg);
        return;
    }
    double want = brute_dijkstra(&legend, g, q->capability, q->size, rule, q->start.x, q->start.y,
                                 q->goal.x, q->goal.y, NULL, NULL);
    int found = r.status == NB_PATH_FOUND;
    int right = found == (want >= 0) &&
                (!found || (path_ok(g, q, rule, &r) && r.cell_length >= want - 1e-9));
    if (!right && t->bad++ < 4)
        diag("(%d,%d)->(%d,%d) size %u cap %#x level %u: %s length %.6f, Dijkstra %.6f",
             q->start.x, q->start.y, q->goal.x, q->goal.y, q->size, q->capability, r.level,
             nb_path_status_str(r.status), r.cell_length, want);
    if (found && want > 0 && r.cell_length / want > t->worst)
        t->worst = r.cell_length / want;
    t->found += found;
    t->none += !found;
    t->above += r.level >= 2;
}

static nb_status bake(const nbb_grid *g, const nb_capability *caps, const nbb_abstract_opts *o,
                      const nbb_levels_opts *lo, nbi_agentset *agents, nb_bundle **b, nb_err *err)
{
    const char *path = tu_path(tu_tmpdir(), "lv.nbk");
    memset(agents, 0, sizeof *agents);
    for (unsigned c = 0; c < 2; c++)
        for (unsigned s = 1; s <= 2; s++) {
            nb_agent *a = &agents->agent[agents->count++];
            snprintf(a->name, sizeof a->name, "c%us%u", c, s);
            a->capability = caps[c];
            a->size = s;
            for (unsigned i = 0; i < NB_MAX_TERRAINS; i++)
                a->cost[i] = 1;
        }
    *b = NULL;
    nb_status st = tu_write_cleared(path, &legend, agents, g, 0, err);
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, b, err);
    if (st == NB_OK)
        st = tu_add_abstract_opts(b, path, o, err);
    if (st == NB_OK)
        st = tu_add_levels(b, path, lo, err);
    return st;
}

/* ---- a level against its definition ---- */

/* Shortest paths over level j - 1 inside level j's cluster k for an agent
 * (caps index ci, size s), from node id src: a plain O(n^2) Dijkstra over
 * the cluster's nodes of level j - 1, written from formats/abstract.md. */
static void plain_dijkstra(const nbi_alevels *L, uint32_t j, uint32_t k, nb_capability cap,
                           uint32_t s, uint32_t src, const uint32_t *ids, size_t n, double *dist)
{
    nbi_box box = nbi_lv_box(L, j, k);
    char *done = calloc(n, 1);
    for (size_t i = 0; i < n; i++)
        dist[i] = ids[i] == src ? 0 : INFINITY;
    for (;;) {
        size_t u = n;
        for (size_t i = 0; i < n; i++)
            if (!done[i] && dist[i] < INFINITY && (u == n || dist[i] < dist[u]))
                u = i;
        if (u == n)
            break;
        done[u] = 1;
        long iu = nbi_lv_index(L, j - 1, ids[u]);
        uint32_t a0, a1 = nbi_lv_arcs(L, j - 1, (uint32_t)iu, &a0);
        for (uint32_t a = a0; a < a1; a++) {
            const uint8_t *ann = nbi_lv_ann(L, j - 1, a);
            if ((nbi_u32at(L->g->caps, ann[0]) & ~cap) || ann[1] < s)
                continue;
            uint32_t t = nbi_lv_id(L, j - 1, nbi_lv_to(L, j - 1, a));
            nb_cell c = nbi_lv_cell(L, t);
            if (c.x < box.x0 || c.y < box.y0 || c.x >= box.x1 || c.y >= box.y1)
                continue;
            uint32_t card, diag;
            nbi_lv_w(L, j - 1, a, &card, &diag);
            for (size_t v = 0; v < n; v++)
                if (ids[v] == t && dist[u] + card + diag * sqrt(2.0) < dist[v])
                    dist[v] = dist[u] + card + diag * sqrt(2.0);
        }
    }
    free(done);
}

/* Checks every intra-edge of every level against plain_dijkstra, and that
 * every joined pair has an edge for each served (capability, size). */
static int check_definition(const nb_bundle *b, int *pairs)
{
    nbi_agraph g;
    nbi_alevels L;
    nb_err err;
    if (nbi_agraph_find(b, &g, &err) != NB_OK || nbi_alevels_find(b, &g, &L, &err) != NB_OK)
        return 0;
    int bad = 0;
    for (uint32_t j = 2; j <= L.nlevels; j++) {
        const nbi_alevel *v = &L.lv[j];
        for (uint32_t k = 0; k < v->ncx * v->ncy; k++) {
            /* The level below's nodes inside cluster k. */
            nbi_box box = nbi_lv_box(&L, j, k);
            size_t n = 0;
            uint32_t *ids = malloc(sizeof *ids * (L.lv[j - 1].nnodes + 1));
            for (uint32_t u = 0; u < L.lv[j - 1].nnodes; u++) {
                nb_cell c = nbi_lv_cell(&L, nbi_lv_id(&L, j - 1, u));
                if (c.x >= box.x0 && c.y >= box.y0 && c.x < box.x1 && c.y < box.y1)
                    ids[n++] = nbi_lv_id(&L, j - 1, u);
            }
            double *dist = malloc(sizeof *dist * (n + 1));
            uint32_t first, nn = nbi_lv_nodes(&L, j, k, &first);
            for (uint32_t ci = 0; ci < g.ncaps; ci++)
                for (uint32_t si = 0; si < g.nsizes; si++) {
                    nb_capability cap = nbi_u32at(g.caps, ci);
                    uint32_t s = nbi_u32at(g.sizes, si);
                    for (uint32_t u = first; u < first + nn; u++) {
                        uint32_t idu = nbi_lv_id(&L, j, u);
                        plain_dijkstra(&L, j, k, cap, s, idu, ids, n, dist);
                        for (uint32_t w = first; w < first + nn; w++) {
                            if (w == u)
                                continue;
                            uint32_t idw = nbi_lv_id(&L, j, w);
                            double d = INFINITY;
                            for (size_t i = 0; i < n; i++)
                                if (ids[i] == idw)
                                    d = dist[i];
                            /* The lightest arc u -> w admitting the agent. */
                            double best = INFINITY;
                            uint32_t a0, a1 = nbi_lv_arcs(&L, j, u, &a0);
                            for (uint32_t a = a0; a < a1; a++) {
                                const uint8_t *ann = nbi_lv_ann(&L, j, a);
                                if (nbi_lv_to(&L, j, a) != w ||
                                    (nbi_u32at(g.caps, ann[0]) & ~cap) || ann[1] < s)
                                    continue;
                                uint32_t card, diag;
                                nbi_lv_w(&L, j, a, &card, &diag);
                                double wt = card + diag * sqrt(2.0);
                                best = wt < best ? wt : best;
                            }
                            *pairs += d < INFINITY;
                            if (!(isinf(d) ? isinf(best) : fabs(best - d) <= 1e-9 * (1 + d))) {
                                if (bad++ < 3)
                                    diag("level %u cluster %u: nodes %u -> %u, (%#x, %u): "
                                         "lightest arc %.6f, shortest path below %.6f",
                                         j, k, idu, idw, cap, s, best, d);
                            }
                        }
                    }
                }
            free(dist);
            free(ids);
        }
        /* Stored paths: from the arc's lower end, arcs of the level below that each admit
         * the arc's agents, weighing together what the arc weighs, ending at its other end. */
        for (uint32_t u = 0; v->arc_path && u < v->nnodes; u++) {
            uint32_t a0, a1 = nbi_lv_arcs(&L, j, u, &a0);
            for (uint32_t a = a0; a < a1; a++) {
                uint32_t t = nbi_lv_to(&L, j, a), off = nbi_u32at(v->arc_path, a);
                if (off == UINT32_MAX)
                    continue; /* between clusters */
                uint32_t lo = u < t ? u : t, hi = u < t ? t : u, n = nbi_u32at(v->paths, off);
                long x = nbi_lv_index(&L, j - 1, nbi_lv_id(&L, j, lo));
                uint64_t card = 0, dg = 0;
                int fine = 1;
                const uint8_t *ann = nbi_lv_ann(&L, j, a);
                for (uint32_t k = 1; k <= n; k++) {
                    uint32_t e = nbi_u32at(v->paths, off + k), c, d, e0;
                    uint32_t e1 = nbi_lv_arcs(&L, j - 1, (uint32_t)x, &e0);
                    const uint8_t *an = nbi_lv_ann(&L, j - 1, e);
                    fine &= e >= e0 && e < e1 &&
                            (nbi_u32at(g.caps, an[0]) & ~nbi_u32at(g.caps, ann[0])) == 0 &&
                            an[1] >= ann[1];
                    nbi_lv_w(&L, j - 1, e, &c, &d);
                    card += c, dg += d;
                    x = (long)nbi_lv_to(&L, j - 1, e);
                }
                uint32_t wc, wd;
                nbi_lv_w(&L, j, a, &wc, &wd);
                fine &= nbi_lv_id(&L, j - 1, (uint32_t)x) == nbi_lv_id(&L, j, hi) &&
                        card == wc && dg == wd;
                *pairs += 1;
                if (!fine && bad++ < 3)
                    diag("level %u: arc %u's stored path is not its edge's", j, a);
            }
        }
    }
    return bad == 0;
}

static void test_random(tu_rng *rng)
{
    static const uint32_t shapes[][2] = {{40, 40}, {72, 60}, {96, 96}};
    static nbi_agentset agents;
    int cases = 0;
    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; sh++)
        for (unsigned nt = 1; nt <= 3; nt++) {
            nbb_grid g;
            tu_random_grid(rng, shapes[sh][0], shapes[sh][1], 12 + 6 * nt, nt, &g);
            nb_capability caps[2] = {(1u << nt) - 1, 1u + tu_below(rng, (1u << nt) - 1)};
            for (int variant = 0; variant < 3; variant++, cases++) {
                int rule = (variant + (int)nt) % 2;
                nbb_abstract_opts o;
                nbb_abstract_defaults(&o);
                o.corner = rule ? NB_CORNER_WEAK : NB_CORNER_STRICT;
                o.cluster = 3 + (uint32_t)(cases % 3);
                o.quality = (uint32_t)(cases % 3);
                o.paths = cases % 2;
                nbb_levels_opts lo = {2 + (uint32_t)(cases % 3), 2 + (uint32_t)(cases / 3 % 2),
                                      1 + (uint32_t)(cases % 2), 1,
                                      cases % 3 ? 2 + (uint32_t)(cases % 4) : 0,
                                      (uint32_t)(cases * 7 % 17)};
                nb_err err;
                nb_bundle *b;
                nb_haa *ws = NULL;
                nb_status st = bake(&g, caps, &o, &lo, &agents, &b, &err);
                if (st == NB_OK)
                    st = nb_haa_open(b, &ws, &err);
                if (!ok(st == NB_OK, "random: %ux%u: baked with %u levels", g.width, g.height,
                        lo.levels)) {
                    diag("%s", err.msg);
                    nb_bundle_close(b);
                    continue;
                }
                int pairs = 0, defined = check_definition(b, &pairs);
                ok(defined && pairs > 0,
                   "random: %ux%u, clusters of %u, %u levels of factor %u: every intra-edge of "
                   "every level is the shortest path below it, for every served agent (%d pairs)",
                   g.width, g.height, o.cluster, lo.levels, lo.factor, pairs);
                struct tally t = {0};
                for (int k = 0; k < 60; k++) {
                    nb_aa_query q;
                    nb_aa_query_init(&q);
                    nb_aa_query_agent(&q, &agents.agent[k % 4]);
                    q.corner = o.corner;
                    /* Most queries from one side of the map to the other. */
                    int32_t w = (int32_t)g.width;
                    if (k % 4 == 3) {
                        standable_end(rng, &g, &q, &q.start, 0, w);
                        standable_end(rng, &g, &q, &q.goal, 0, w);
                    } else {
                        standable_end(rng, &g, &q, &q.start, 0, w / 4);
                        standable_end(rng, &g, &q, &q.goal, w - w / 4, w);
                    }
                    one_query(ws, &g, &q, (enum brute_corner)rule, &t);
                }
                ok(t.bad == 0 && t.above > 0,
                   "random: %ux%u, %u terrains, %s corners, clusters of %u, %s quality%s, %u "
                   "levels of factor %u, spacing %u, shares of at most %u: %d queries (%d found, "
                   "%d none, %d above level 1; worst %.3f x Dijkstra's)",
                   g.width, g.height, nt, rule ? "weak" : "strict", o.cluster,
                   nbb_abstract_quality_name(o.quality), o.paths ? ", paths" : "", lo.levels,
                   lo.factor, lo.spacing, lo.share, t.queries, t.found, t.none, t.above, t.worst);
                nb_haa_close(ws);
                nb_bundle_close(b);
            }
            nbb_grid_free(&g);
        }
}

/* ---- the top level's landmarks ---- */

/* Every landmark's distances against a plain O(n^2) Dijkstra over the top
 * level's arcs (all of them, whatever they admit), written from
 * formats/abstract.md; returns the landmarks checked, -1 on a mismatch. */
static int check_landmark_table(const nb_bundle *b)
{
    nbi_agraph g;
    nbi_alevels L;
    nb_err err;
    if (nbi_agraph_find(b, &g, &err) != NB_OK || nbi_alevels_find(b, &g, &L, &err) != NB_OK)
        return -1;
    const uint32_t top = L.nlevels, n = L.lv[top].nnodes;
    double *dist = malloc((size_t)n * sizeof *dist);
    char *done = malloc(n);
    int bad = 0;
    for (uint32_t i = 0; i < L.nlandmarks && !bad; i++) {
        uint32_t src = nbi_u32at(L.lm_node, i);
        /* The first four are the map's corners, in NBI_LANDMARK_CORNER's order: every node of the
         * top level's cluster there starts at its octile distance from the corner. */
        int corner = src >= NBI_LANDMARK_CORNER && src < NBI_LANDMARK_CORNER + 4;
        if (corner != (i < 4)) {
            diag("landmark %u is %#x: the first four are the corners, then nodes", i, src);
            bad = 1;
            break;
        }
        int32_t cx = (src - NBI_LANDMARK_CORNER) & 1 ? (int32_t)L.g->width - 1 : 0,
                cy = (src - NBI_LANDMARK_CORNER) & 2 ? (int32_t)L.g->height - 1 : 0;
        for (uint32_t v = 0; v < n; v++) {
            dist[v] = v == src ? 0 : INFINITY, done[v] = 0;
            nb_cell c = nbi_lv_cell(&L, nbi_lv_id(&L, top, v));
            if (corner && (uint32_t)c.x / L.lv[top].side == (uint32_t)cx / L.lv[top].side &&
                (uint32_t)c.y / L.lv[top].side == (uint32_t)cy / L.lv[top].side) {
                double dx = fabs((double)c.x - cx), dy = fabs((double)c.y - cy);
                dist[v] = fmax(dx, dy) + (sqrt(2.0) - 1) * fmin(dx, dy);
            }
        }
        for (;;) {
            uint32_t u = n;
            for (uint32_t v = 0; v < n; v++)
                if (!done[v] && dist[v] < INFINITY && (u == n || dist[v] < dist[u]))
                    u = v;
            if (u == n)
                break;
            done[u] = 1;
            uint32_t a0, a1 = nbi_lv_arcs(&L, top, u, &a0);
            for (uint32_t a = a0; a < a1; a++) {
                uint32_t t = nbi_lv_to(&L, top, a), card, diag;
                nbi_lv_w(&L, top, a, &card, &diag);
                if (dist[u] + card + diag * sqrt(2.0) < dist[t])
                    dist[t] = dist[u] + card + diag * sqrt(2.0);
            }
        }
        for (uint32_t v = 0; v < n && !bad; v++) {
            double have = nbi_lv_landmark(&L, v, i), want = dist[v] < INFINITY ? dist[v] : -1;
            if (fabs(have - want) > 1e-6 * (1 + want)) {
                diag("landmark %u (%#x): node %u at %g, Dijkstra %g", i, src, v, have, want);
                bad = 1;
            }
        }
    }
    free(dist);
    free(done);
    return bad ? -1 : (int)L.nlandmarks;
}

/* Landmarks change how much the top level's search expands, never what it
 * finds: the same bundle baked with and without them gives the same
 * abstract lengths, and the table holds the distances a Dijkstra gives. */
static void test_landmarks(tu_rng *rng)
{
    static nbi_agentset agents;
    for (int m = 0; m < 4; m++) {
        nbb_grid g;
        uint32_t w = 120 + 30 * (uint32_t)m, h = 90 + 20 * (uint32_t)(m % 2);
        tu_random_grid(rng, w, h, 15 + 5 * m, 2, &g);
        nb_capability caps[2] = {3, 1};
        nbb_abstract_opts o;
        nbb_abstract_defaults(&o);
        o.cluster = 3 + (uint32_t)m % 2;
        o.paths = m % 2;
        o.corner = m == 3 ? NB_CORNER_WEAK : NB_CORNER_STRICT;
        nbb_levels_opts with = {3, 2 + (uint32_t)m % 2, 2, 1, 4, 1 + 5 * (uint32_t)m};
        nbb_levels_opts without = with;
        without.landmarks = 0;
        nb_bundle *b[2] = {NULL, NULL};
        nb_haa *ws[2] = {NULL, NULL};
        nb_err err;
        nb_status st = NB_OK;
        const char *path = tu_path(tu_tmpdir(), "lv.nbk"), *keep = tu_path(tu_tmpdir(), "lv0.nbk");
        st = bake(&g, caps, &o, &without, &agents, &b[0], &err);
        if (st == NB_OK) { /* keep it apart: bake() writes the same path again */
            nb_bundle_close(b[0]);
            b[0] = NULL;
            st = rename(path, keep) == 0 ? nb_bundle_open(keep, 0, NULL, &b[0], &err) : NB_ERR_IO;
        }
        if (st == NB_OK)
            st = bake(&g, caps, &o, &with, &agents, &b[1], &err);
        for (int i = 0; i < 2 && st == NB_OK; i++)
            st = nb_haa_open(b[i], &ws[i], &err);
        if (!ok(st == NB_OK, "landmarks: %ux%u baked with 0 and %u landmarks", w, h,
                with.landmarks)) {
            diag("%s", err.msg);
        } else {
            int nl = check_landmark_table(b[1]);
            ok(nl > 0, "landmarks: %ux%u: %d landmarks, each node's distances those of a plain "
                       "Dijkstra over the top level",
               w, h, nl);
            int same = 1, top = 0;
            uint64_t exp[2] = {0, 0};
            for (int k = 0; k < 60; k++) {
                nb_aa_query q;
                nb_aa_query_init(&q);
                nb_aa_query_agent(&q, &agents.agent[k % 4]);
                q.corner = o.corner;
                standable_end(rng, &g, &q, &q.start, 0, (int32_t)w / 5);
                standable_end(rng, &g, &q, &q.goal, (int32_t)w - (int32_t)w / 5, (int32_t)w);
                if (k % 2) {
                    nb_cell t = q.start;
                    q.start = q.goal;
                    q.goal = t;
                }
                /* Without landmarks, with them, and with them trying every arc at the levels
                 * above the graph's (levels_query.c skips a node's arcs inside its cluster when
                 * it was reached from inside). */
                nb_haa_result r[3];
                for (int i = 0; i < 3; i++) {
                    ws[i % 2]->every_arc = i == 2;
                    if (tu_haa_find(ws[i % 2], &q, 0, &r[i], &err) != NB_OK)
                        r[i].status = NB_PATH_NONE, r[i].level = 0, r[i].expanded_search = 0;
                }
                ws[0]->every_arc = 0;
                int this = 1;
                for (int i = 1; i < 3; i++)
                    this &= r[0].status == r[i].status && r[0].level == r[i].level &&
                            (r[0].status != NB_PATH_FOUND ||
                             fabs(r[0].abstract_length - r[i].abstract_length) <=
                                 1e-9 * r[0].abstract_length);
                if (!this && same)
                    diag("(%d,%d)->(%d,%d): %s %.6f level %u without, %s %.6f level %u with, "
                         "%s %.6f level %u every arc",
                         q.start.x, q.start.y, q.goal.x, q.goal.y,
                         nb_path_status_str(r[0].status), r[0].abstract_length, r[0].level,
                         nb_path_status_str(r[1].status), r[1].abstract_length, r[1].level,
                         nb_path_status_str(r[2].status), r[2].abstract_length, r[2].level);
                same &= this;
                if (r[0].level == with.levels && r[0].status == NB_PATH_FOUND) {
                    top++;
                    exp[0] += r[0].expanded_search;
                    exp[1] += r[1].expanded_search;
                }
            }
            ok(same && top >= 10,
               "landmarks: %ux%u: 60 queries find the same abstract lengths with and without "
               "them, and trying every arc; %d at the top level expanded %llu nodes there with, "
               "%llu without",
               w, h, top, (unsigned long long)exp[1], (unsigned long long)exp[0]);
        }
        for (int i = 0; i < 2; i++) {
            nb_haa_close(ws[i]);
            nb_bundle_close(b[i]);
        }
        remove(keep);
        nbb_grid_free(&g);
    }
}

/* The bundle at path with its levels section replaced, written to out. */
static int put_levels(const char *path, const char *out, const nb_section_info *info,
                      const uint8_t *payload, size_t len)
{
    nbb_builder *w;
    nb_err err;
    int ok = nbb_builder_new(&w, &err) == NB_OK && nbb_builder_load(w, path, 0, &err) == NB_OK;
    if (ok)
        nbb_builder_remove(w, NB_SEC_ABSTRACT_LEVELS);
    ok = ok && nbb_builder_add(w, info, payload, len, 0, &err) == NB_OK &&
         nbb_builder_write(w, out, &err) == NB_OK;
    nbb_builder_free(w);
    return ok;
}

/* The bundle at path with its levels section replaced, written to out, opened and an HAA*
 * workspace made on it: the status (err says why), the workspace closed. */
static nb_status open_with_levels(const char *path, const char *out, const nb_section_info *info,
                                  const uint8_t *payload, size_t len, nb_err *err)
{
    nb_bundle *bb = NULL;
    nb_haa *ws = NULL;
    nb_status st = put_levels(path, out, info, payload, len)
                       ? nb_bundle_open(out, 0, NULL, &bb, err)
                       : NB_ERR_IO;
    if (st == NB_OK)
        st = nb_haa_open(bb, &ws, err);
    nb_haa_close(ws);
    nb_bundle_close(bb);
    return st;
}

/* Threads, slices, lies. */
static void test_edges(tu_rng *rng)
{
    static nbi_agentset agents;
    nbb_grid g;
    tu_random_grid(rng, 120, 100, 20, 2, &g);
    nb_capability caps[2] = {3, 1};
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    o.cluster = 4;
    o.paths = 1;
    nbb_levels_opts lo = {3, 3, 2, 1, 5, 6}; /* 6 landmarks: the 4 corners and 2 nodes */
    nb_err err;
    nb_bundle *b;
    nb_haa *ws = NULL;
    nb_status st = bake(&g, caps, &o, &lo, &agents, &b, &err);
    if (st == NB_OK)
        st = nb_haa_open(b, &ws, &err);
    if (!ok(st == NB_OK, "edges: baked")) {
        diag("%s", err.msg);
        nb_bundle_close(b);
        nbb_grid_free(&g);
        return;
    }
    /* The same bytes on 1, 2, 5 and 8 threads (clusters built and assembled
     * as units on them). */
    const void *graph;
    size_t glen;
    long gi = nbi_section_index(b, NB_SEC_ABSTRACT, NULL, NULL, 0);
    nb_bundle_payload(b, (size_t)gi, &graph, &glen, &err);
    uint8_t *p[4] = {NULL, NULL, NULL, NULL};
    size_t n[4] = {0, 0, 0, 0};
    unsigned threads[4] = {1, 2, 5, 8};
    int same_bytes = 1;
    for (int i = 0; i < 4; i++) {
        nbb_levels_opts t = lo;
        t.threads = threads[i];
        nbb_levels_bake(graph, glen, g.width, g.height, &t, &p[i], &n[i], &err);
        same_bytes = same_bytes && p[i] && n[i] == n[0] && memcmp(p[0], p[i], n[0]) == 0;
    }
    ok(same_bytes, "edges: the levels' bytes are the same on 1, 2, 5 and 8 threads (%zu bytes)",
       n[0]);
    /* Slices give the unsliced path. */
    static nb_cell whole[120 * 100 * 2];
    int same = 1, runs = 0, above = 0;
    for (int k = 0; k < 80; k++) {
        nb_aa_query q;
        nb_aa_query_init(&q);
        nb_aa_query_agent(&q, &agents.agent[k % 4]);
        standable_end(rng, &g, &q, &q.start, 0, 20);
        standable_end(rng, &g, &q, &q.goal, 100, 120);
        nb_haa_result r;
        if (tu_haa_find(ws, &q, 0, &r, &err) != NB_OK || r.status != NB_PATH_FOUND)
            continue;
        size_t len = r.path_len;
        memcpy(whole, r.path, len * sizeof *whole);
        above += r.level >= 2;
        unsigned budget = 1 + (unsigned)tu_below(rng, 12);
        int done = 0;
        st = tu_haa_begin(ws, &q, 0, &err);
        while (st == NB_OK && !done)
            st = nb_haa_step(ws, budget, &done, &err);
        if (st == NB_OK)
            st = nb_haa_finish(ws, &r, &err);
        runs++;
        int this = st == NB_OK && r.status == NB_PATH_FOUND && r.path_len == len &&
                   memcmp(r.path, whole, len * sizeof *whole) == 0;
        if (!this && same)
            diag("slices of %u: %s, %s, %zu cells against %zu", budget,
                 st == NB_OK ? "ok" : err.msg, nb_path_status_str(r.status), r.path_len, len);
        same &= this;
    }
    ok(same && runs >= 10 && above == runs,
       "edges: %d queries above level 1 in slices of 1 to 12 expansions give the unsliced paths",
       runs);
    /* nb_haa_set_levels(1): the graph's own level alone. */
    nb_haa_set_levels(ws, 1);
    nb_aa_query q;
    nb_aa_query_init(&q);
    nb_aa_query_agent(&q, &agents.agent[0]);
    standable_end(rng, &g, &q, &q.start, 0, 20);
    standable_end(rng, &g, &q, &q.goal, 100, 120);
    nb_haa_result r;
    st = tu_haa_find(ws, &q, 0, &r, &err);
    ok(st == NB_OK && r.level <= 1, "edges: nb_haa_set_levels(1) searches level 1 (level %u)",
       r.level);
    /* Under an overlay whose repair holds clusters the graph's own level serves (the levels
     * are the bake's), and the path is the edited map's. */
    nb_haa_set_levels(ws, 0);
    nb_overlay *ov = NULL;
    if (ok(nb_overlay_open(b, &ov, &err) == NB_OK &&
               nb_overlay_block(ov, 50, 0, 4, 60, &err) == NB_OK,
           "edges: an overlay blocks a wall across the middle")) {
        nbb_grid e = g;
        e.cells = malloc((size_t)g.width * g.height);
        memcpy(e.cells, g.cells, (size_t)g.width * g.height);
        for (long y = 0; y < 60; y++)
            for (long x = 50; x < 54; x++)
                e.cells[(size_t)y * g.width + (size_t)x] = '@';
        struct tally t = {0};
        int level1 = 1;
        for (int k = 0; k < 20; k++) {
            nb_aa_query_init(&q);
            nb_aa_query_agent(&q, &agents.agent[k % 4]);
            q.overlay = ov;
            standable_end(rng, &e, &q, &q.start, 0, 20);
            standable_end(rng, &e, &q, &q.goal, 100, 120);
            one_query(ws, &e, &q, BRUTE_STRICT, &t);
            if (tu_haa_find(ws, &q, 0, &r, &err) == NB_OK)
                level1 &= r.level <= 1;
        }
        ok(t.bad == 0 && level1,
           "edges: under a repaired overlay %d far queries search level 1 and answer as a "
           "Dijkstra on the edited map (%d found, %d none)",
           t.queries, t.found, t.none);
        free(e.cells);
    }
    nb_overlay_close(ov);
    nb_haa_close(ws);
    /* Lies, each refused at open. */
    const char *path = tu_path(tu_tmpdir(), "lv.nbk"), *bad = tu_path(tu_tmpdir(), "lvbad.nbk");
    size_t len;
    nb_section_info info;
    uint8_t *sec = tu_section_take(path, NB_SEC_ABSTRACT_LEVELS, &len, &info);
    nbi_agraph ag;
    nbi_alevels L;
    int viewed = sec && nbi_agraph_find(b, &ag, &err) == NB_OK &&
                 nbi_alevels_view(sec, len, &ag, nbi_agraph_crc(b, &ag), &L, &err) == NB_OK;
    if (ok(viewed, "edges: the section views")) {
        const nbi_alevel *v2 = &L.lv[2];
        /* The first landmark that is a node (the first four are the map's corners). */
        uint32_t lk = 0;
        while (lk < L.nlandmarks && nbi_u32at(L.lm_node, lk) >= L.lv[L.nlevels].nnodes)
            lk++;
        const int lnode = lk < L.nlandmarks;
        const uint32_t lmn = lnode ? nbi_u32at(L.lm_node, lk) : 0;
        struct {
            const char *what;
            size_t off;
            uint32_t value;
        } lies[] = {
            {"a node out of range", (size_t)(v2->node_id - sec), ag.nnodes + 7},
            {"an arc to nowhere", (size_t)(v2->arc_to - sec), v2->nnodes + 3},
            {"a weight below the distance", (size_t)(v2->arc_card - sec), 0},
            {"another graph's CRC", 4 * NBI_AL_GRAPH_CRC, 12345},
            {"a bad cluster count", NBI_ALEVELS_HEADER + 4 * NBI_ALR_NCX, 1000},
            {"a node count beyond the level below's", NBI_ALEVELS_HEADER + 4 * NBI_ALR_NODES,
             0x7fffffff},
            {"a stored path whose arc is not the reached node's",
             v2->paths ? (size_t)(v2->paths - sec) + 4 : 0, 0},
            {"flags that are not defined", 4 * NBI_AL_FLAGS, 6},
            {"a share beyond 65535 cells", 4 * NBI_AL_SHARE, 70000},
            {"more landmarks than it may have", 4 * NBI_AL_LANDMARKS, NBI_LANDMARKS_MAX + 1},
            {"a landmark out of range", L.lm_node ? (size_t)(L.lm_node - sec) : 0,
             L.lv[L.nlevels].nnodes},
            {"a landmark away from itself",
             lnode ? (size_t)(L.lm_dist - sec) + 8 * ((size_t)lmn * L.nlandmarks + lk) : 0, 3},
            {"a landmark distance an arc contradicts", 0, 0}, /* found below */
        };
        for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
            if (lies[i].off == 0 && !strstr(lies[i].what, "contradicts"))
                continue;
            uint8_t *m = malloc(len);
            memcpy(m, sec, len);
            /* The weight lie on an intra-arc: find one. */
            size_t off = lies[i].off;
            if (strstr(lies[i].what, "contradicts") && L.nlandmarks) {
                /* The head of node 0's first arc said to be 1000 cells further from landmark 0
                 * (a corner of the map) than it is. */
                uint32_t a0, a1 = nbi_lv_arcs(&L, L.nlevels, 0, &a0);
                if (a1 > a0) {
                    uint32_t t = nbi_lv_to(&L, L.nlevels, a0);
                    off = (size_t)(L.lm_dist - sec) + 8 * ((size_t)t * L.nlandmarks);
                    lies[i].value = nbi_u32at(L.lm_dist, 2 * (size_t)t * L.nlandmarks) + 1000;
                }
            }
            if (off == 0)
                continue;
            if (i == 2)
                for (uint32_t a = 0; a < v2->narcs; a++)
                    if (nbi_u32at(v2->arc_card, a) + nbi_u32at(v2->arc_diag, a) > 1) {
                        off += 4 * (size_t)a;
                        nbi_put32(m + (v2->arc_diag - sec) + 4 * (size_t)a, 0);
                        break;
                    }
            nbi_put32(m + off, lies[i].value);
            nb_section_info in = info;
            nbb_levels_info(m, len, &in);
            in.encoding = info.encoding;
            st = open_with_levels(path, bad, &in, m, len, &err);
            ok(st == NB_ERR_FORMAT && strstr(err.msg, "abstract levels") &&
                   strstr(err.msg, "section"),
               "edges: a levels section with %s is refused at open: %s", lies[i].what,
               st == NB_OK ? "(opened)" : err.msg);
            free(m);
        }
    }
    /* The section's version: 1 (landmarks all nodes) is read, one this reader does not know is
     * refused, naming it. */
    for (int v = 1; sec && v <= 3; v += 2) {
        nb_section_info in = info;
        in.version = (uint32_t)v;
        st = open_with_levels(path, bad, &in, sec, len, &err);
        if (v == 1)
            ok(st == NB_OK, "edges: a levels section of version 1 is read");
        else
            ok(st == NB_ERR_VERSION && strstr(err.msg, "version 3") &&
                   strstr(err.msg, "abstract_levels"),
               "edges: a levels section of version 3 is refused: %s",
               st == NB_OK ? "(opened)" : err.msg);
    }
    free(sec);
    for (int i = 0; i < 4; i++)
        free(p[i]);
    nb_bundle_close(b);
    nbb_grid_free(&g);
}

int main(void)
{
    tu_rng rng = {0x1e7e15u};
    nbi_legend_default(&legend);
    test_random(&rng);
    test_landmarks(&rng);
    test_edges(&rng);
    return done_testing();
}
