/* abstract_rebake.c: which units of the abstract graph a bake computes
 * (abstract_build.h), and mkabstract's incremental update.
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
    free(plan->scan);
    free(plan->build);
    free(plan->circuit);
    memset(plan, 0, sizeof *plan);
}

/* The plan of the clusters flagged in build (1: R1, 2: R2 only). */
static nb_status plan_of(nbb_ab *ab, const uint8_t *build, nbb_ab_plan *plan, nb_err *err)
{
    size_t nb = 2 * (size_t)ab->ncl;
    uint8_t *bflag = calloc(nb + 1, 1); /* 1: scanned, 2: and decided here */
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
    plan->scan = malloc((nscan + 1) * sizeof *plan->scan);
    plan->build = malloc((nbuild + 1) * sizeof *plan->build);
    plan->circuit = malloc((ncirc + 1) * sizeof *plan->circuit);
    if (!plan->scan || !plan->build || !plan->circuit) {
        free(bflag);
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
    free(bflag);
    return NB_OK;
}

nb_status nbb_ab_plan_all(nbb_ab *ab, nbb_ab_plan *plan, nb_err *err)
{
    uint8_t *build = malloc((size_t)ab->ncl + 1);
    if (!build)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to plan the abstract graph");
    memset(build, 1, (size_t)ab->ncl + 1);
    nb_status st = plan_of(ab, build, plan, err);
    free(build);
    return st;
}

nb_status nbb_ab_plan_changes(nbb_ab *ab, const uint32_t *changed, size_t n, nbb_ab_plan *plan,
                              nb_err *err)
{
    uint8_t *build = calloc((size_t)ab->ncl + 1, 1);
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
    free(build);
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

int nbb_abstract_opts_of(const uint8_t *p, size_t len, const nbb_abstract_source *src,
                         nbb_abstract_opts *o)
{
    /* The header and the capabilities and sizes after it: all that is
     * read, so that a graph kept as it is costs no check of its arrays. */
    uint64_t off[11];
    if (len < NBI_ABSTRACT_HEADER)
        return 0;
#define WORD(w) nbi_get32(p + 4 * (w))
    uint32_t ncaps = WORD(NBI_AB_NCAPS), nsizes = WORD(NBI_AB_NSIZES);
    if (WORD(NBI_AB_WIDTH) != src->width || WORD(NBI_AB_HEIGHT) != src->height ||
        ncaps != src->ncaps || nsizes != src->nsizes)
        return 0;
    nbi_agraph_layout(ncaps, nsizes, 0, 0, 0, 0, 0, off);
    if (off[1] + 4 * (uint64_t)nsizes > len)
        return 0;
    for (uint32_t i = 0; i < ncaps; i++)
        if (nbi_u32at(p + off[0], i) != src->caps[i])
            return 0;
    for (uint32_t i = 0; i < nsizes; i++)
        if (nbi_u32at(p + off[1], i) != src->sizes[i])
            return 0;
    nbb_abstract_defaults(o);
    o->cluster = WORD(NBI_AB_CLUSTER);
    o->quality = WORD(NBI_AB_QUALITY);
    o->corner = (nb_corner)WORD(NBI_AB_CORNER);
    o->placement = WORD(NBI_AB_PLACEMENT);
    o->spread = o->placement >= NBI_PLACE_SPREAD ? WORD(NBI_AB_SPREAD) : NBB_SPREAD_DEFAULT;
    o->paths = (WORD(NBI_AB_FLAGS) & NBI_AGRAPH_PATHS) != 0;
#undef WORD
    nbb_abstract_opts checked;
    return nbb_ab_check_opts(o, &checked, NULL) == NB_OK;
}

/* The same options, as far as the bytes go. */
static int same_opts(const nbb_abstract_opts *a, const nbb_abstract_opts *b)
{
    return a->cluster == b->cluster && a->quality == b->quality && a->corner == b->corner &&
           a->placement == b->placement &&
           (a->placement < NBI_PLACE_SPREAD || a->spread == b->spread) &&
           !a->paths == !b->paths && a->through == b->through;
}

/* Appends the cells whose values differ between two layers of one size
 * and width. */
static int layer_changes(const nbi_layer *a, const nbi_layer *b, uint32_t **cells, size_t *n,
                         size_t *cap)
{
    uint64_t total = (uint64_t)a->width * a->height, nbits = total * a->bits;
    uint64_t bytes = (nbits + 7) / 8;
    /* Whole 64-byte blocks first: most are equal. */
    for (uint64_t at = 0; at < bytes; at += 64) {
        uint64_t len = bytes - at < 64 ? bytes - at : 64;
        if (memcmp(a->bits_at + at, b->bits_at + at, (size_t)len) == 0)
            continue;
        uint64_t c0 = at * 8 / a->bits, c1 = ((at + len) * 8 + a->bits - 1) / a->bits;
        for (uint64_t c = c0; c < c1 && c < total; c++)
            if (nbi_layer_get(a, c) != nbi_layer_get(b, c)) {
                if (!nbi_grow(NULL, (void **)cells, cap, *n + 1, sizeof **cells))
                    return 0;
                (*cells)[(*n)++] = (uint32_t)c;
            }
    }
    return 1;
}

nb_status nbb_abstract_update(const nb_bundle *b, const nb_bundle *old,
                              const nbb_abstract_opts *o, int full, uint8_t **payload,
                              size_t *len, nbb_abstract_stats *stats, nb_err *err)
{
    *payload = NULL;
    *len = 0;
    if (stats)
        memset(stats, 0, sizeof *stats);
    nbb_abstract_opts want, had;
    nb_status st = nbb_ab_check_opts(o, &want, err);
    if (st != NB_OK)
        return st;
    nbb_abstract_source *src = malloc(sizeof *src), *osrc = malloc(sizeof *osrc);
    if (!src || !osrc) {
        free(src);
        free(osrc);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to abstract a map");
    }
    st = nbb_abstract_source_of(b, src, err);
    /* The old graph is used when it was built with these options for the
     * same capabilities and sizes, and its bundle holds the clearance it
     * was built from: the cells whose clearance differs are the changes. */
    long idx = -1;
    const void *gp = NULL;
    size_t glen = 0;
    for (size_t i = 0; old && !full && i < nb_bundle_section_count(old) && idx < 0; i++)
        if (nb_bundle_section(old, i)->type == NB_SEC_ABSTRACT)
            idx = (long)i;
    int incremental = st == NB_OK && idx >= 0 &&
                      nb_bundle_payload(old, (size_t)idx, &gp, &glen, NULL) == NB_OK &&
                      nbb_abstract_opts_of(gp, glen, src, &had) && same_opts(&want, &had) &&
                      nbb_abstract_source_of(old, osrc, NULL) == NB_OK;
    uint32_t *changed = NULL;
    size_t nchanged = 0, cap = 0;
    for (uint32_t i = 0; incremental && i < src->ncaps; i++) {
        if (osrc->layer[i].bits != src->layer[i].bits)
            incremental = 0;
        else if (!layer_changes(&osrc->layer[i], &src->layer[i], &changed, &nchanged, &cap))
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory to compare the clearance layers");
    }
    nbi_agraph g;
    if (st == NB_OK && incremental && nchanged == 0) {
        /* Nothing the graph depends on changed: it stays as it is. */
        if (stats) {
            stats->incremental = 1;
            stats->kept = 1;
            stats->clusters = (uint64_t)((src->width + want.cluster - 1) / want.cluster) *
                              ((src->height + want.cluster - 1) / want.cluster);
        }
    } else if (st == NB_OK) {
        /* Only now are the old graph's arrays read: they are checked first. */
        if (incremental && nbi_agraph_at(old, (size_t)idx, &g, NULL) != NB_OK)
            incremental = 0;
        st = nbb_ab_bake(src, incremental ? &g : NULL, changed, nchanged, o, payload, len, stats,
                         err);
        if (st == NB_OK && stats) {
            stats->incremental = incremental;
            stats->changed_cells = nchanged;
        }
    }
    free(changed);
    free(src);
    free(osrc);
    return nbi_done(err, st);
}
