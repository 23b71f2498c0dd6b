/* abstract_plan.c: which units of the abstract graph a bake computes
 * (abstract_build.h): all of them for a whole bake, the dirty ones for an
 * incremental one.
 *
 * When the clearance of some cells changed since the old graph was built
 * with the same options, the units that can differ are these:
 *   - a border whose facing cells changed: its entrances and transitions;
 *   - so the clusters on both sides of such a border, whose nodes its
 *     transitions are, and every cluster with a changed cell, whose
 *     searches see them (R1); a cluster's nodes are numbered from all
 *     four of its borders, so these are rebuilt whole, borders included;
 *   - low quality only: the circuit condition on a border compares its
 *     inter-edges with both clusters' intra-edges before dominance, which
 *     the old graph no longer holds, so the clusters next to R1 are
 *     searched again too (R2); their own outer borders keep the decisions
 *     the old graph made (both sides of those are unchanged).
 * Every other cluster is copied from the old graph with its arcs'
 * targets renumbered, and the bytes are those of a whole bake. */
#include <stdlib.h>

#include "abstract/abstract_build.h"

void nbb_ab_plan_free(nbb_ab_plan *plan)
{
    nbb_free(plan->scan);
    nbb_free(plan->build);
    nbb_free(plan->circuit);
    memset(plan, 0, sizeof *plan);
}

/* The plan of the clusters flagged in build (1: R1, 2: R2 only). */
static nb_status plan_of(nbb_ab *ab, const uint8_t *build, nbb_ab_plan *plan, nb_err *err)
{
    size_t nb = 2 * (size_t)ab->ncl;
    uint8_t *bflag = nbb_calloc(nb + 1, 1); /* 1: scanned, 2: and decided here */
    if (!bflag)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to plan the abstract graph");
    size_t nbuild = 0;
    for (uint32_t k = 0; k < ab->ncl; k++) {
        if (!build[k])
            continue;
        nbuild++;
        ab_border *side[4] = {nbb_ab_above(ab, k), nbb_ab_left(ab, k), nbb_ab_right(ab, k),
                              nbb_ab_below(ab, k)};
        for (int s = 0; s < 4; s++) {
            if (!side[s])
                continue;
            size_t bi = (size_t)(side[s] - ab->border);
            uint8_t f = build[k] == 1 ? 2 : 1;
            bflag[bi] = bflag[bi] > f ? bflag[bi] : f;
        }
    }
    size_t nscan = 0, ncirc = 0;
    for (size_t bi = 0; bi < nb; bi++) {
        nscan += bflag[bi] != 0;
        ncirc += bflag[bi] == 2;
    }
    plan->scan = nbb_malloc((nscan + 1) * sizeof *plan->scan);
    plan->build = nbb_malloc((nbuild + 1) * sizeof *plan->build);
    plan->circuit = nbb_malloc((ncirc + 1) * sizeof *plan->circuit);
    if (!plan->scan || !plan->build || !plan->circuit) {
        nbb_free(bflag);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to plan the abstract graph");
    }
    for (size_t bi = 0; bi < nb; bi++) {
        ab->border[bi].final = bflag[bi] == 2;
        if (bflag[bi])
            plan->scan[plan->nscan++] = (uint32_t)bi;
        if (bflag[bi] == 2)
            plan->circuit[plan->ncircuit++] = (uint32_t)bi;
    }
    for (uint32_t k = 0; k < ab->ncl; k++)
        if (build[k])
            plan->build[plan->nbuild++] = k;
    nbb_free(bflag);
    return NB_OK;
}

nb_status nbb_ab_plan_all(nbb_ab *ab, nbb_ab_plan *plan, nb_err *err)
{
    uint8_t *build = nbb_malloc((size_t)ab->ncl + 1);
    if (!build)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to plan the abstract graph");
    memset(build, 1, (size_t)ab->ncl + 1);
    nb_status st = plan_of(ab, build, plan, err);
    nbb_free(build);
    return st;
}

nb_status nbb_ab_plan_changes(nbb_ab *ab, const uint32_t *changed, size_t n, nbb_ab_plan *plan,
                              nb_err *err)
{
    uint8_t *build = nbb_calloc((size_t)ab->ncl + 1, 1);
    if (!build)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to plan the abstract graph");
    uint32_t cn = ab->opt->cluster;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = changed[i] % ab->width, y = changed[i] / ab->width;
        uint32_t cx = x / cn, cy = y / cn, k = cy * ab->ncx + cx;
        build[k] = 1;
        /* A cell on a border: the cluster across it too. */
        if (x % cn == cn - 1 && cx + 1 < ab->ncx)
            build[k + 1] = 1;
        if (x % cn == 0 && cx > 0)
            build[k - 1] = 1;
        if (y % cn == cn - 1 && cy + 1 < ab->ncy)
            build[k + ab->ncx] = 1;
        if (y % cn == 0 && cy > 0)
            build[k - ab->ncx] = 1;
    }
    if (ab->opt->quality == NBI_QUALITY_LOW)
        for (uint32_t k = 0; k < ab->ncl; k++) {
            if (build[k] != 1)
                continue;
            uint32_t cx = k % ab->ncx, cy = k / ab->ncx;
            if (cx > 0 && !build[k - 1])
                build[k - 1] = 2;
            if (cx + 1 < ab->ncx && !build[k + 1])
                build[k + 1] = 2;
            if (cy > 0 && !build[k - ab->ncx])
                build[k - ab->ncx] = 2;
            if (cy + 1 < ab->ncy && !build[k + ab->ncx])
                build[k + ab->ncx] = 2;
        }
    nb_status st = plan_of(ab, build, plan, err);
    nbb_free(build);
    return st;
}

/* The old graph's node at cell, or -1. */
static int64_t old_node(const nbb_ab *ab, uint32_t cell)
{
    const nbi_agraph *g = ab->old;
    uint32_t k = nbb_ab_cluster_of(ab, cell);
    size_t lo = nbi_u32at(g->cluster_first, k), hi = nbi_u32at(g->cluster_first, k + 1);
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        uint32_t m = (uint32_t)nbi_u16at(g->node_xy, 2 * mid + 1) * ab->width +
                     nbi_u16at(g->node_xy, 2 * mid);
        if (m == cell)
            return (int64_t)mid;
        if (m < cell)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

nb_status nbb_ab_old_alive(nbb_ab *ab, uint32_t bi, nb_err *err)
{
    (void)err;
    const nbi_agraph *g = ab->old;
    ab_border *bd = &ab->border[bi];
    for (uint32_t i = 0; i < bd->n; i++) {
        ab_inter *e = &bd->e[i];
        int64_t u = old_node(ab, e->a), v = old_node(ab, e->b);
        e->h.alive = 0;
        for (uint32_t a = u < 0 || v < 0 ? 0 : nbi_u32at(g->node_first, (size_t)u);
             u >= 0 && v >= 0 && a < nbi_u32at(g->node_first, (size_t)u + 1) && !e->h.alive; a++)
            e->h.alive = nbi_u32at(g->arc_to, a) == (uint32_t)v &&
                         g->arc_ann[2 * (size_t)a] == e->h.cap &&
                         g->arc_ann[2 * (size_t)a + 1] == e->h.cv;
    }
    /* Its dominance is not counted: it was decided before. */
    bd->strong = bd->weak = bd->circuit = 0;
    return NB_OK;
}
