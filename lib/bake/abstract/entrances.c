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
 * each served size s, transitions inside the run of pairs of clearance
 * >= s (a prefix of the entrance): one in its middle (NBI_PLACE_MIDDLE);
 * one per `spread` cells, each in the middle of its share of the run
 * (NBI_PLACE_SPREAD); or, on a run longer than `spread`, at both ends and
 * evenly between (NBI_PLACE_ENDS, after HPA*).  Any pair of that run
 * serves every agent of size <= s by the same walk along the border, so
 * completeness is kept; the paper's placement stays as NBI_PLACE_FIRST.
 * An entrance no served size can cross gets no transition at all.
 *
 * A border depends on nothing but the clearance of its two facing lines
 * of cells: it is a unit of its own (abstract_build.h). */
#include <stdlib.h>

#include "abstract/abstract_build.h"

/* Clearance of (x, y) for capability index ci, capped at the largest
 * served size (or the options' cap). */
static uint32_t cv_at(const nbb_ab *ab, unsigned ci, int32_t x, int32_t y)
{
    const nbi_layer *l = &ab->layer[ci];
    uint32_t v = nbi_layer_get(l, (uint64_t)y * l->width + (uint32_t)x);
    uint32_t top = ab->opt->clearance_cap ? ab->opt->clearance_cap : ab->sizes[ab->nsizes - 1];
    return v > top ? top : v;
}

typedef struct border {
    int32_t ax, ay, bx, by; /* the first pair */
    int32_t sx, sy;         /* the step along the border */
    uint32_t len;
} border;

/* A run of pairs that must hold a transition: [lo, hi) of capability ci,
 * part of an entrance of len pairs. */
typedef struct ab_run {
    uint32_t lo, hi, len;
    uint32_t at; /* the transition chosen for it */
    uint8_t ci;
} run;

typedef struct run_list {
    ab_worker *w;
    size_t n;
} run_list;

static int add_run(run_list *rs, uint32_t lo, uint32_t hi, uint32_t len, unsigned ci)
{
    ab_worker *w = rs->w;
    if (!nbb_ab_room((void **)&w->runs, &w->runs_cap, rs->n + 1, sizeof *w->runs))
        return 0;
    w->runs[rs->n++] = (run){lo, hi, len, 0, (uint8_t)ci};
    return 1;
}

/* The runs of the entrance [e0, e0 + n) of capability ci, whose pair
 * clearances m[0..n) do not increase. */
static int entrance_runs(const nbb_ab *ab, unsigned ci, uint32_t e0, const uint32_t *m,
                         uint32_t n, run_list *out)
{
    const nbb_abstract_opts *o = ab->opt;
    if (o->placement == NBI_PLACE_FIRST)
        return add_run(out, e0, e0 + 1, n, ci);
    uint32_t last = 0;
    for (uint32_t si = ab->nsizes; si-- > 0;) { /* the largest size: the shortest run */
        uint32_t s = ab->sizes[si], len = 0;
        while (len < n && m[len] >= s)
            len++;
        if (len == 0 || len == last)
            continue;
        last = len;
        uint32_t t = 1;
        if (o->placement == NBI_PLACE_SPREAD || o->placement == NBI_PLACE_ENDS)
            t = (len + o->spread - 1) / o->spread;
        if (o->placement == NBI_PLACE_ENDS && t >= 2) {
            /* Both ends and evenly between: the ends of a border's runs
             * are the corners of clusters, where the runs of the border
             * at right angles end too, so their transitions share nodes. */
            for (uint32_t i = 0; i < t; i++) {
                uint32_t k = e0 + (uint32_t)((uint64_t)i * (len - 1) / (t - 1));
                if (!add_run(out, k, k + 1, n, ci))
                    return 0;
            }
            continue;
        }
        for (uint32_t i = 0; i < t; i++)
            if (!add_run(out, e0 + (uint32_t)((uint64_t)i * len / t),
                         e0 + (uint32_t)((uint64_t)(i + 1) * len / t), n, ci))
                return 0;
    }
    return 1;
}

static int by_length(const void *pa, const void *pb)
{
    const run *a = pa, *b = pb;
    uint32_t la = a->hi - a->lo, lb = b->hi - b->lo;
    if (la != lb)
        return la < lb ? -1 : 1;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    return a->ci < b->ci ? -1 : a->ci > b->ci;
}

/* The inter-edge of capability ci at pair k of the border. */
static void transition(const nbb_ab *ab, const border *bd, const run *r, uint32_t k, uint32_t cv,
                       ab_inter *e)
{
    int32_t ax = bd->ax + bd->sx * (int32_t)k, ay = bd->ay + bd->sy * (int32_t)k;
    int32_t bx = bd->bx + bd->sx * (int32_t)k, by = bd->by + bd->sy * (int32_t)k;
    memset(e, 0, sizeof *e);
    e->a = (uint32_t)ay * ab->width + (uint32_t)ax;
    e->b = (uint32_t)by * ab->width + (uint32_t)bx;
    e->h.cap = r->ci;
    e->h.cv = (uint8_t)cv;
    e->h.card = 1;
    e->h.alive = 1;
    /* Among inter-edges of equal annotations the low-quality graph keeps
     * one at either end of the border (a cluster corner, whose node the
     * border at right angles may share), then the one of the longest
     * entrance, then the one nearest the middle of the border. */
    uint32_t off_mid = 2 * k > bd->len - 1 ? 2 * k - (bd->len - 1) : (bd->len - 1) - 2 * k;
    uint32_t len = r->len > 32767u ? 32767u : r->len;
    e->rank = (k == 0 || k + 1 == bd->len ? 0u : 1u << 31) | (32767u - len) << 16 | off_mid;
}

/* Every entrance of every capability along one border, then the
 * transitions: each run gets one in its middle half, shared with other
 * runs (of other capabilities and sizes) wherever one already stands
 * there; shortest runs first, so that a long run takes up a transition
 * its shorter ones placed rather than adding its own. */
static nb_status scan(nbb_ab *ab, const border *bd, ab_border *out, ab_worker *w, nb_err *err)
{
    uint32_t ca[NBI_CLUSTER_MAX], cb[NBI_CLUSTER_MAX], m[NBI_CLUSTER_MAX];
    run_list rs = {w, 0};
    for (unsigned ci = 0; ci < ab->ncaps; ci++) {
        for (uint32_t k = 0; k < bd->len; k++) {
            ca[k] = cv_at(ab, ci, bd->ax + bd->sx * (int32_t)k, bd->ay + bd->sy * (int32_t)k);
            cb[k] = cv_at(ab, ci, bd->bx + bd->sx * (int32_t)k, bd->by + bd->sy * (int32_t)k);
            m[k] = ca[k] < cb[k] ? ca[k] : cb[k];
        }
        for (uint32_t k = 0; k < bd->len;) {
            if (m[k] == 0) {
                k++;
                continue;
            }
            uint32_t e0 = k;
            while (k + 1 < bd->len && m[k + 1] > 0 && ca[k + 1] <= ca[k] && cb[k + 1] <= cb[k])
                k++;
            k++;
            if (m[e0] < ab->sizes[0])
                continue; /* no served agent fits through */
            out->entrances++;
            if (!entrance_runs(ab, ci, e0, m + e0, k - e0, &rs))
                return nbi_fail(err, NB_ERR_NOMEM, "no memory for the entrances");
        }
    }
    size_t nr = rs.n;
    run *rr = w->runs;
    if (nr > 1)
        qsort(rr, nr, sizeof *rr, by_length);
    uint32_t chosen[NBI_CLUSTER_MAX];
    size_t nchosen = 0;
    for (size_t i = 0; i < nr; i++) {
        run *r = &rr[i];
        uint32_t len = r->hi - r->lo, lo = r->lo + len / 4, hi = r->hi - len / 4; /* [lo, hi) */
        uint32_t at = UINT32_MAX;
        for (size_t j = 0; j < nchosen && at == UINT32_MAX; j++)
            if (chosen[j] >= lo && chosen[j] < hi)
                at = chosen[j];
        if (at == UINT32_MAX)
            chosen[nchosen++] = at = r->lo + (len - 1) / 2;
        r->at = at;
    }
    /* One inter-edge per capability and transition. */
    out->e = nbb_arena_alloc(&w->arena, (nr ? nr : 1) * sizeof *out->e);
    if (!out->e)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph");
    out->n = 0;
    for (size_t i = 0; i < nr; i++) {
        const run *r = &rr[i];
        uint32_t at = r->at;
        int dup = 0;
        for (size_t j = 0; j < i && !dup; j++)
            dup = rr[j].ci == r->ci && rr[j].at == at;
        if (dup)
            continue;
        uint32_t a = cv_at(ab, r->ci, bd->ax + bd->sx * (int32_t)at, bd->ay + bd->sy * (int32_t)at);
        uint32_t b = cv_at(ab, r->ci, bd->bx + bd->sx * (int32_t)at, bd->by + bd->sy * (int32_t)at);
        transition(ab, bd, r, at, a < b ? a : b, &out->e[out->n++]);
    }
    return NB_OK;
}

nb_status nbb_ab_scan_border(nbb_ab *ab, uint32_t bi, ab_worker *w, nb_err *err)
{
    uint32_t k = bi / 2;
    nbi_box box = nbi_cluster_box(k, ab->ncx, ab->opt->cluster, ab->width, ab->height);
    ab_border *out = &ab->border[bi];
    border bd;
    if (bi % 2 == 0) /* the border with the cluster on the right */
        bd = (border){box.x1 - 1, box.y0, box.x1, box.y0, 0, 1, (uint32_t)(box.y1 - box.y0)};
    else /* and the one below */
        bd = (border){box.x0, box.y1 - 1, box.x0, box.y1, 1, 0, (uint32_t)(box.x1 - box.x0)};
    out->entrances = 0;
    nb_status st = scan(ab, &bd, out, w, err);
    if (st == NB_OK)
        st = nbb_ab_border_parallel(ab, out, w, err);
    return st;
}
