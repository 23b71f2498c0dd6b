/* entrances.c: entrances and transition points (Harabor and Botea, CIG
 * 2008, section VI).
 *
 * For each capability c and each border between neighbouring clusters,
 * the border is scanned in increasing x (or y).  A pair of facing cells
 * (a in the first cluster, b in the second) is crossable for c when both
 * have clearance >= 1 for c.  An entrance is a run of crossable pairs that
 * ends at an obstacle, at terrain outside c, at the end of the border, or
 * where the clearance on either side begins to increase.  So along an
 * entrance both clearances are non-increasing: an agent that may cross at
 * some pair may also walk along the border, on either side, to every
 * earlier pair.  That is what keeps the graph complete for large agents.
 *
 * The paper puts the transition at the first pair of maximal clearance,
 * which the rule above makes the first pair of the entrance, and blames
 * that for most of its error on open maps.  Here an entrance gets, for
 * each served size s, a transition inside the run of pairs of clearance
 * >= s (a prefix of the entrance): at its middle (NBI_PLACE_MIDDLE), or
 * one every `spread` cells evenly over it (NBI_PLACE_SPREAD).  Any pair
 * of that run serves every agent of size <= s by the same walk along the
 * border, so completeness is kept; the paper's placement stays as
 * NBI_PLACE_FIRST for comparison.  An entrance no served size can cross
 * gets no transition at all. */
#include "abstract_build.h"

/* Clearance of (x, y) for capability index ci, capped at the largest
 * served size. */
static uint32_t cv_at(const nbb_agraph_build *ab, unsigned ci, int32_t x, int32_t y)
{
    const nbi_layer *l = &ab->layer[ci];
    uint32_t v = nbi_layer_get(l, (uint64_t)y * l->width + (uint32_t)x);
    uint32_t top = ab->sizes[ab->nsizes - 1];
    return v > top ? top : v;
}

typedef struct border {
    int32_t ax, ay, bx, by; /* the first pair */
    int32_t sx, sy;         /* the step along the border */
    uint32_t len;
} border;

/* Adds the transition at pair k of the border. */
static nb_status transition(nbb_agraph_build *ab, const border *bd, unsigned ci, uint32_t k,
                            uint32_t cv, uint32_t entrance_len, nb_err *err)
{
    int32_t ax = bd->ax + bd->sx * (int32_t)k, ay = bd->ay + bd->sy * (int32_t)k;
    int32_t bx = bd->bx + bd->sx * (int32_t)k, by = bd->by + bd->sy * (int32_t)k;
    bedge e;
    memset(&e, 0, sizeof e);
    e.u = nbb_ab_node(ab, ax, ay);
    e.v = nbb_ab_node(ab, bx, by);
    e.cap = (uint8_t)ci;
    e.cv = (uint8_t)cv;
    e.card = 1;
    e.inter = 1;
    e.alive = 1;
    e.path = UINT32_MAX;
    /* Among inter-edges of equal annotations the low-quality graph keeps
     * the one of the longest entrance, then the one nearest the middle of
     * the border. */
    uint32_t off_mid = (uint32_t)(2 * k > bd->len - 1 ? 2 * k - (bd->len - 1) : (bd->len - 1) - 2 * k);
    e.rank = (65535u - (entrance_len > 65535u ? 65535u : entrance_len)) * 65536u + off_mid;
    if (e.u == UINT32_MAX || e.v == UINT32_MAX || !nbb_ab_edge(ab, &e))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph");
    return NB_OK;
}

/* The transitions of the entrance of pairs [e0, e0 + n) whose pair
 * clearances are m[0..n), non-increasing. */
static nb_status place(nbb_agraph_build *ab, const border *bd, unsigned ci, uint32_t e0,
                       const uint32_t *m, uint32_t n, nb_err *err)
{
    const nbb_abstract_opts *o = ab->opt;
    if (m[0] < ab->sizes[0])
        return NB_OK; /* no served agent fits through */
    if (ab->stats)
        ab->stats->entrances++;
    if (o->placement == NBI_PLACE_FIRST)
        return transition(ab, bd, ci, e0, m[0], n, err);
    /* Runs per served size, from the largest size (the shortest run). */
    uint32_t chosen[NBI_CLUSTER_MAX + 1], nchosen = 0, last_run = 0;
    for (uint32_t si = ab->nsizes; si-- > 0;) {
        uint32_t s = ab->sizes[si], run = 0;
        if (s > m[0])
            continue;
        while (run < n && m[run] >= s)
            run++;
        if (run == last_run)
            continue; /* the same run as a larger size: already served */
        last_run = run;
        uint32_t t = 1;
        if (o->placement == NBI_PLACE_SPREAD && o->spread > 0)
            t = (run + o->spread - 1) / o->spread;
        for (uint32_t i = 0; i < t; i++) {
            uint32_t k = (uint32_t)(((uint64_t)(2 * i + 1) * run) / (2 * (uint64_t)t));
            if (k >= run)
                k = run - 1;
            int dup = 0;
            for (uint32_t j = 0; j < nchosen; j++)
                dup |= chosen[j] == k;
            if (dup || nchosen > NBI_CLUSTER_MAX)
                continue;
            chosen[nchosen++] = k;
            nb_status st = transition(ab, bd, ci, e0 + k, m[k], n, err);
            if (st != NB_OK)
                return st;
        }
    }
    return NB_OK;
}

static nb_status scan(nbb_agraph_build *ab, const border *bd, nb_err *err)
{
    uint32_t ca[NBI_CLUSTER_MAX], cb[NBI_CLUSTER_MAX], m[NBI_CLUSTER_MAX];
    for (unsigned ci = 0; ci < ab->ncaps; ci++) {
        for (uint32_t k = 0; k < bd->len; k++) {
            ca[k] = cv_at(ab, ci, bd->ax + bd->sx * (int32_t)k, bd->ay + bd->sy * (int32_t)k);
            cb[k] = cv_at(ab, ci, bd->bx + bd->sx * (int32_t)k, bd->by + bd->sy * (int32_t)k);
            m[k] = ca[k] < cb[k] ? ca[k] : cb[k];
        }
        uint32_t k = 0;
        while (k < bd->len) {
            if (m[k] == 0) {
                k++;
                continue;
            }
            uint32_t e0 = k;
            while (k + 1 < bd->len && m[k + 1] > 0 && ca[k + 1] <= ca[k] && cb[k + 1] <= cb[k])
                k++;
            nb_status st = place(ab, bd, ci, e0, m + e0, k + 1 - e0, err);
            if (st != NB_OK)
                return st;
            k++;
        }
    }
    return NB_OK;
}

nb_status nbb_ab_entrances(nbb_agraph_build *ab, nb_err *err)
{
    uint32_t n = ab->opt->cluster;
    for (uint32_t k = 0; k < ab->ncx * ab->ncy; k++) {
        nbi_box box = nbi_cluster_box(k, ab->ncx, n, ab->width, ab->height);
        uint32_t cx = k % ab->ncx, cy = k / ab->ncx;
        nb_status st = NB_OK;
        if (cx + 1 < ab->ncx) { /* the border with the cluster on the right */
            border bd = {box.x1 - 1, box.y0, box.x1, box.y0, 0, 1, (uint32_t)(box.y1 - box.y0)};
            st = scan(ab, &bd, err);
        }
        if (st == NB_OK && cy + 1 < ab->ncy) { /* and the one below */
            border bd = {box.x0, box.y1 - 1, box.x0, box.y1, 1, 0, (uint32_t)(box.x1 - box.x0)};
            st = scan(ab, &bd, err);
        }
        if (st != NB_OK)
            return st;
    }
    return NB_OK;
}
