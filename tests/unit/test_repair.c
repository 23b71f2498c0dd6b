/* test_repair.c: HAA*'s abstract graph repaired under an overlay
 * (abstract/repair.c), against a fresh bake of the edited map.
 *
 * Random overlays (rectangles, cell lists, blocked and unblocked again) on
 * random levels and small maps of ../shared/maps, whose base bundle holds
 * an abstract graph of quality initial or high; the map with the overlay's
 * blocked cells made walls is baked again, graph and all, with the same
 * options.  Then, cluster by cluster:
 *  - where the overlay holds a repair, its nodes are the fresh graph's, and
 *    its arcs (ends, capability, clearance, cardinal and diagonal steps)
 *    are the fresh graph's (quality initial) or hold them (high quality,
 *    whose dominance the repair does not apply);
 *  - everywhere else the base graph's cluster is the fresh graph's;
 * and HAA* with the overlay gives the status and the abstract length of
 * HAA* on the fresh bake (quality initial), never by Annotated A* after a
 * block, with a path valid on the edited map; on high-quality graphs it
 * finds a path exactly when Annotated A* on the fresh bake does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abstract/repair.h"
#include "haa_util.h"
#include "blocked/blocked.h"

static nbi_legend legend;

/* The bundle at path with an abstract graph of these options added. */
static nb_bundle *with_graph(nb_bundle *b, const char *path, const nbb_abstract_opts *o)
{
    uint8_t *payload = NULL;
    size_t n;
    nbb_builder *w = NULL;
    nb_section_info info;
    nb_err err;
    nb_status st = nbb_abstract_build(b, o, &payload, &n, NULL, &err);
    if (st == NB_OK)
        st = nbb_builder_new(&w, &err);
    if (st == NB_OK) {
        nbb_abstract_info(payload, &info);
        st = nbb_builder_take(w, b, &err);
    }
    if (st == NB_OK)
        st = nbb_builder_add(w, &info, payload, n, 0, &err);
    if (st == NB_OK)
        st = nbb_builder_write(w, path, &err);
    nbb_builder_free(w);
    free(payload);
    nb_bundle_close(b);
    b = NULL;
    if (st == NB_OK)
        st = nb_bundle_open(path, 0, NULL, &b, &err);
    if (st != NB_OK)
        diag("with_graph: %s", err.msg);
    return b;
}

static nb_bundle *bake(const char *path, const nbi_agentset *agents, const nbb_grid *grid,
                       const nbb_abstract_opts *o)
{
    nb_bundle *b = hu_bake(path, &legend, agents, grid);
    return b ? with_graph(b, path, o) : NULL;
}

/* An arc as both graphs can say it. */
typedef struct arc {
    uint32_t from, to;
    uint32_t cap, cv, card, diag;
} arc;

static int arc_cmp(const void *pa, const void *pb)
{
    const arc *a = pa, *b = pb;
    const uint32_t *x = &a->from, *y = &b->from;
    for (int i = 0; i < 6; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

static uint32_t cell_of(const nbi_agraph *g, uint32_t u)
{
    return (uint32_t)nbi_u16at(g->node_xy, 2 * (size_t)u + 1) * g->width +
           nbi_u16at(g->node_xy, 2 * (size_t)u);
}

/* The nodes (cells, ascending) and arcs (sorted) of cluster k of a baked graph. */
static size_t baked_cluster(const nbi_agraph *g, uint32_t k, uint32_t *nodes, size_t *nn, arc *out)
{
    uint32_t a = nbi_u32at(g->cluster_first, k), z = nbi_u32at(g->cluster_first, k + 1);
    size_t na = 0;
    *nn = 0;
    for (uint32_t u = a; u < z; u++) {
        nodes[(*nn)++] = cell_of(g, u);
        for (uint32_t e = nbi_u32at(g->node_first, u); e < nbi_u32at(g->node_first, u + 1); e++)
            out[na++] = (arc){cell_of(g, u), cell_of(g, nbi_u32at(g->arc_to, e)),
                              g->arc_ann[2 * (size_t)e], g->arc_ann[2 * (size_t)e + 1],
                              nbi_u16at(g->arc_w, 2 * (size_t)e), nbi_u16at(g->arc_w, 2 * (size_t)e + 1)};
    }
    qsort(out, na, sizeof *out, arc_cmp);
    return na;
}

static size_t repaired_cluster(const nbi_rcluster *c, uint32_t *nodes, size_t *nn, arc *out)
{
    size_t na = 0;
    *nn = c->nn;
    for (uint32_t i = 0; i < c->nn; i++) {
        nodes[i] = c->cell[i];
        for (uint32_t e = c->first[i]; e < c->first[i + 1]; e++) {
            const nbi_rarc *r = &c->arc[e];
            out[na++] = (arc){c->cell[i], r->inter ? r->to : c->cell[r->to], r->cap, r->cv, r->card,
                              r->diag};
        }
    }
    qsort(out, na, sizeof *out, arc_cmp);
    return na;
}

/* 1 when the sorted b[0..nb) holds every element of the sorted a[0..na). */
static int holds(const arc *a, size_t na, const arc *b, size_t nb)
{
    size_t j = 0;
    for (size_t i = 0; i < na; i++) {
        while (j < nb && arc_cmp(&b[j], &a[i]) < 0)
            j++;
        if (j == nb || arc_cmp(&b[j], &a[i]) != 0)
            return 0;
        j++;
    }
    return 1;
}

static nb_cell standable_cell(tu_rng *r, const nb_bundle *b, const nb_agent *a)
{
    for (int i = 0; i < 200; i++) {
        nb_cell c = {(int32_t)tu_below(r, b->width), (int32_t)tu_below(r, b->height)};
        if (nb_can_stand(b, a->capability, a->size, c.x, c.y) == 1)
            return c;
    }
    return (nb_cell){0, 0};
}

typedef struct tally {
    long clusters, repaired, node_bad, arc_bad, kept_bad;
    long queries, found, status_bad, length_bad, by_aa, path_bad;
    long reach, reach_bad, reach_searched, reach_yes;
} tally;

/* Components of the cells where the agent stands on the edited bundle e, by a breadth-first
 * search over the four cardinal steps (a diagonal step under either corner rule goes round by
 * a free corner): label + 1, 0 where it cannot stand. */
static uint32_t *bfs_labels(const nb_bundle *e, const nb_agent *a)
{
    uint32_t w = e->width, h = e->height;
    uint32_t *lab = calloc((size_t)w * h, sizeof *lab), *queue = malloc((size_t)w * h * sizeof *queue);
    uint32_t next = 0;
    for (uint32_t s = 0; s < w * h; s++) {
        if (lab[s] || nb_can_stand(e, a->capability, a->size, s % w, s / w) != 1)
            continue;
        size_t head = 0, tail = 0;
        lab[s] = ++next;
        queue[tail++] = s;
        while (head < tail) {
            uint32_t c = queue[head++], x = c % w, y = c / w;
            const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
            for (int d = 0; d < 4; d++) {
                long nx = (long)x + dx[d], ny = (long)y + dy[d];
                if (nx < 0 || ny < 0 || nx >= (long)w || ny >= (long)h)
                    continue;
                uint32_t n = (uint32_t)ny * w + (uint32_t)nx;
                if (!lab[n] && nb_can_stand(e, a->capability, a->size, nx, ny) == 1) {
                    lab[n] = next;
                    queue[tail++] = n;
                }
            }
        }
    }
    free(queue);
    return lab;
}

/* nb_haa_reachable with the overlay against the breadth-first search on the edited map. */
static void compare_reach(const nb_bundle *b, nb_haa *haa, const nb_overlay *ov, const nb_bundle *e,
                          const nbi_agentset *agents, tu_rng *r, int nq, tally *t)
{
    for (size_t ai = 0; ai < agents->count; ai++) {
        const nb_agent *a = &agents->agent[ai];
        uint32_t *lab = bfs_labels(e, a);
        for (int k = 0; k < 4 * nq; k++) {
            nb_cell p = standable_cell(r, b, a), q = standable_cell(r, b, a);
            if (k % 7 == 6)
                q = (nb_cell){(int32_t)tu_below(r, b->width), (int32_t)tu_below(r, b->height)};
            uint32_t lp = lab[(size_t)p.y * b->width + (size_t)p.x],
                     lq = lab[(size_t)q.y * b->width + (size_t)q.x];
            int want = lp && lp == lq;
            int got = tu_haa_reachable(haa, ov, a->capability, a->size, p, q);
            t->reach++;
            t->reach_yes += want;
            t->reach_searched += nb_overlay_reachable(ov, a->capability, a->size, p, q) ==
                                 NB_REACH_UNKNOWN;
            if (got != want && t->reach_bad++ < 3)
                diag("%s (%d,%d)-(%d,%d): nb_haa_reachable %d, the edited map's search %d",
                     a->name, p.x, p.y, q.x, q.y, got, want);
        }
        free(lab);
    }
}

/* Every cluster of the overlay's repair of b's graph against the fresh graph fg. */
static void compare_graphs(const nbi_agraph *bg, const nbi_repair *rep, const nbi_agraph *fg,
                           int exact, tally *t)
{
    size_t room = (size_t)4 * bg->cluster * 4 * bg->cluster * 64 + 64;
    uint32_t *n1 = malloc((size_t)16 * bg->cluster * sizeof *n1), *n2 = malloc((size_t)16 * bg->cluster * sizeof *n2);
    arc *a1 = malloc(room * sizeof *a1), *a2 = malloc(room * sizeof *a2);
    for (uint32_t k = 0; k < bg->ncx * bg->ncy; k++) {
        size_t nn1, nn2, na1, na2;
        const nbi_rcluster *c = nbi_repair_at(rep, k);
        na2 = baked_cluster(fg, k, n2, &nn2, a2);
        if (c)
            na1 = repaired_cluster(c, n1, &nn1, a1);
        else
            na1 = baked_cluster(bg, k, n1, &nn1, a1);
        t->clusters++;
        t->repaired += c != NULL;
        if (nn1 != nn2 || memcmp(n1, n2, nn1 * sizeof *n1) != 0) {
            if ((c ? t->node_bad++ : t->kept_bad++) < 3)
                diag("cluster %u (%s): %zu nodes, the fresh graph %zu", k, c ? "repaired" : "kept",
                     nn1, nn2);
            continue;
        }
        int same = na1 == na2 && memcmp(a1, a2, na1 * sizeof *a1) == 0;
        if (c ? !(exact ? same : holds(a2, na2, a1, na1)) : !same) {
            if ((c ? t->arc_bad++ : t->kept_bad++) < 3)
                diag("cluster %u (%s): %zu arcs, the fresh graph %zu", k, c ? "repaired" : "kept",
                     na1, na2);
        }
    }
    free(n1);
    free(n2);
    free(a1);
    free(a2);
}


static void compare_queries(const nb_bundle *b, nb_haa *haa, const nb_overlay *ov,
                            const nbb_grid *eg, nb_haa *fhaa, nb_aa *faa,
                            const nbi_agentset *agents, int exact, tu_rng *r, int nq, tally *t)
{
    for (size_t ai = 0; ai < agents->count; ai++) {
        const nb_agent *a = &agents->agent[ai];
        for (int k = 0; k < nq; k++) {
            nb_aa_query q;
            nb_aa_query_init(&q);
            q.start = standable_cell(r, b, a);
            q.goal = standable_cell(r, b, a);
            q.size = a->size;
            q.capability = a->capability;
            q.corner = k & 1 ? NB_CORNER_WEAK : NB_CORNER_STRICT;
            nb_haa_result want, got;
            nb_aa_result aw;
            nb_err err;
            t->queries++;
            if (tu_haa_find(fhaa, &q, 0, &want, &err) != NB_OK ||
                nb_aa_find(faa, &q, &aw, &err) != NB_OK) {
                diag("fresh bake: %s", err.msg);
                t->status_bad++;
                continue;
            }
            q.overlay = ov;
            if (tu_haa_find(haa, &q, 0, &got, &err) != NB_OK) {
                diag("HAA* with the overlay: %s", err.msg);
                t->status_bad++;
                continue;
            }
            int fw = want.status == NB_PATH_FOUND, fg = got.status == NB_PATH_FOUND;
            t->found += fg;
            if (fg != (aw.status == NB_PATH_FOUND) || (exact && got.status != want.status)) {
                if (t->status_bad++ < 3)
                    diag("%s (%d,%d)->(%d,%d): HAA* with the overlay %s, on the fresh bake %s, "
                         "AA* %s", a->name, q.start.x, q.start.y, q.goal.x, q.goal.y,
                         nb_path_status_str(got.status), nb_path_status_str(want.status),
                         nb_path_status_str(aw.status));
                continue;
            }
            if (fg && got.abstract_len == 0)
                t->by_aa++;
            if (exact && fg && fw && fabs(got.abstract_length - want.abstract_length) > 1e-9 &&
                t->length_bad++ < 3)
                diag("%s (%d,%d)->(%d,%d) %s: abstract length %.6f, on the fresh bake %.6f",
                     a->name, q.start.x, q.start.y, q.goal.x, q.goal.y,
                     q.corner ? "weak" : "strict", got.abstract_length, want.abstract_length);
            char why[160];
            if (fg && !hu_path_ok(&legend, eg, a->capability, a->size,
                                  q.corner ? BRUTE_WEAK : BRUTE_STRICT, got.path, got.path_len,
                                  q.start, q.goal, got.length, why, sizeof why) &&
                t->path_bad++ < 3)
                diag("HAA*'s path with the overlay: %s", why);
        }
    }
}

/* A random change to the overlay and the test's own record of the blocked cells. */
static void random_change(nb_overlay *ov, uint8_t *blk, uint32_t w, uint32_t h, tu_rng *r,
                          long *bad)
{
    int block = tu_below(r, 3) != 0;
    if (tu_below(r, 4) == 0) {
        nb_cell c[6];
        size_t n = 1 + tu_below(r, 6);
        for (size_t i = 0; i < n; i++) {
            c[i] = (nb_cell){(int32_t)tu_below(r, w), (int32_t)tu_below(r, h)};
            blk[(size_t)c[i].y * w + (size_t)c[i].x] = (uint8_t)block;
        }
        *bad += (block ? nb_overlay_block_cells(ov, c, n, NULL)
                       : nb_overlay_unblock_cells(ov, c, n, NULL)) != NB_OK;
        return;
    }
    long rw = 1 + (long)tu_below(r, 9), rh = 1 + (long)tu_below(r, 9);
    rw = rw > (long)w ? (long)w : rw;
    rh = rh > (long)h ? (long)h : rh;
    long x = (long)tu_below(r, w - (uint32_t)rw + 1), y = (long)tu_below(r, h - (uint32_t)rh + 1);
    for (long j = y; j < y + rh; j++)
        for (long i = x; i < x + rw; i++)
            blk[(size_t)j * w + (size_t)i] = (uint8_t)block;
    *bad += (block ? nb_overlay_block(ov, x, y, rw, rh, NULL)
                   : nb_overlay_unblock(ov, x, y, rw, rh, NULL)) != NB_OK;
}

static void check_level(const char *name, const nbb_grid *grid, const nbi_agentset *agents,
                        const nbb_abstract_opts *o, int rounds, int nq, uint64_t seed)
{
    const char *dir = tu_tmpdir();
    int exact = o->quality == NBI_QUALITY_INITIAL;
    nb_bundle *b = bake(tu_path(dir, "base.nbk"), agents, grid, o);
    nb_overlay *ov = NULL;
    nb_haa *haa = NULL;
    nbi_agraph bg;
    if (!ok(b && nb_overlay_open(b, &ov, NULL) == NB_OK && nb_haa_open(b, &haa, NULL) == NB_OK &&
                nbi_agraph_find(b, &bg, NULL) == NB_OK && ov->nrep == 1 && ov->rep[0].ok,
            "%s: a base bundle, an overlay holding a repair of its graph", name))
        goto out;
    uint8_t *blk = calloc((size_t)grid->width * grid->height, 1);
    tu_rng r = {seed};
    tally t;
    memset(&t, 0, sizeof t);
    long bad = 0;
    for (int round = 0; round < rounds; round++) {
        int changes = 1 + (int)tu_below(&r, 5);
        for (int c = 0; c < changes; c++)
            random_change(ov, blk, grid->width, grid->height, &r, &bad);
        nbb_grid eg = {grid->width, grid->height, malloc((size_t)grid->width * grid->height)};
        for (size_t i = 0; i < (size_t)grid->width * grid->height; i++)
            eg.cells[i] = blk[i] ? '@' : grid->cells[i];
        nb_bundle *e = bake(tu_path(dir, "edited.nbk"), agents, &eg, o);
        nb_haa *fhaa = NULL;
        nb_aa *faa = NULL;
        nbi_agraph fg;
        if (e && nbi_agraph_find(e, &fg, NULL) == NB_OK && nb_haa_open(e, &fhaa, NULL) == NB_OK &&
            nb_aa_open(e, &faa, NULL) == NB_OK) {
            compare_graphs(&bg, &ov->rep[0], &fg, exact, &t);
            compare_queries(b, haa, ov, &eg, fhaa, faa, agents, exact, &r, nq, &t);
            compare_reach(b, haa, ov, e, agents, &r, nq, &t);
        } else {
            bad++;
        }
        nb_haa_close(fhaa);
        nb_aa_close(faa);
        nb_bundle_close(e);
        free(eg.cells);
    }
    ok(bad == 0, "%s: every change is accepted and every edited map bakes", name);
    ok(t.repaired > 0 && t.node_bad == 0 && t.arc_bad == 0,
       "%s: the %ld repaired clusters (of %ld) have the fresh graph's nodes, and %s arcs", name,
       t.repaired, t.clusters, exact ? "its" : "all of its");
    ok(t.kept_bad == 0, "%s: every cluster not repaired is the fresh graph's", name);
    ok(t.status_bad == 0 && t.length_bad == 0 && t.by_aa == 0 && t.path_bad == 0,
       "%s: HAA* with the overlay: %s (%ld queries, %ld found), from the repaired graph, paths "
       "valid on the edited map",
       name,
       exact ? "HAA*'s status and abstract length on the fresh bake"
             : "a path exactly when AA* on the fresh bake finds one",
       t.queries, t.found);
    ok(t.reach_bad == 0 && t.reach_searched > 0,
       "%s: nb_haa_reachable is the edited map's breadth-first search (%ld pairs, %ld joined, "
       "%ld by a search)",
       name, t.reach, t.reach_yes, t.reach_searched);
    nb_overlay_clear(ov);
    ok(ov->rep[0].held == 0, "%s: a cleared overlay holds no repaired cluster", name);
    free(blk);
out:
    nb_overlay_close(ov);
    nb_haa_close(haa);
    nb_bundle_close(b);
}

static void levels(int quality, const char *qname)
{
    tu_rng r = {20261125 + (uint64_t)quality};
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    o.quality = (uint32_t)quality;
    o.cluster = 8;
    for (int lv = 0; lv < 4; lv++) {
        nbb_grid grid;
        nbi_agentset agents;
        uint32_t w = 30 + tu_below(&r, 30), h = 24 + tu_below(&r, 30);
        if (lv % 2)
            tu_random_grid(&r, w, h, 5 + tu_below(&r, 15), 2, &grid);
        else
            hu_rooms_grid(&r, w, h, 2, &grid);
        hu_random_agents(&r, 1 + tu_below(&r, 3), 2, 3, &agents);
        nbb_abstract_opts p = o;
        p.placement = lv % 4 == 3 ? NBI_PLACE_MIDDLE : NBB_PLACE_AUTO;
        nbb_abstract_resolve(&p);
        char name[80];
        snprintf(name, sizeof name, "%s: random level %d (%u x %u)", qname, lv, w, h);
        check_level(name, &grid, &agents, &p, 5, 10, tu_rand(&r));
        nbb_grid_free(&grid);
    }
    static const char *const maps[] = {"dao/arena.map", "dao/den312d.map", "dao/lak303d.map"};
    nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    nb_capability gs;
    nbi_capability_parse(&legend, "ground,swamp", &gs, NULL);
    for (unsigned s = 1; s <= 2; s++) {
        nb_agent *a = &agents.agent[agents.count++];
        snprintf(a->name, sizeof a->name, "size%u", s);
        a->size = s;
        a->capability = gs;
    }
    o.cluster = 16;
    nbb_abstract_resolve(&o);
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        char rel[64], name[96];
        snprintf(rel, sizeof rel, "maps/%s", maps[i]);
        const char *p = tu_shared(rel);
        nbb_grid grid;
        if (!p || nbb_map_read(p, &legend, 1, &grid, NULL) != NB_OK) {
            skip(1, "../shared/%s is not there", rel);
            continue;
        }
        snprintf(name, sizeof name, "%s: %s", qname, maps[i]);
        check_level(name, &grid, &agents, &o, 3, 8, 91 + i);
        nbb_grid_free(&grid);
    }
}

int main(void)
{
    nbi_legend_default(&legend);
    levels(NBI_QUALITY_INITIAL, "initial");
    levels(NBI_QUALITY_HIGH, "high");
    return done_testing();
}
