/* transitions.c: the entrances and transition points of one border
 * (Harabor and Botea, CIG 2008, section VI), shared by the bake
 * (bake/abstract/entrances.c) and the repair of clusters under an overlay
 * (repair.c), so that both place the same transitions on the same cells.
 *
 * For each capability the border is scanned along its pairs of facing
 * cells.  A pair is crossable when both cells have clearance >= 1; an
 * entrance is a run of crossable pairs that ends at an obstacle, at the
 * end of the border, or where the clearance on either side begins to
 * increase, so that along an entrance both clearances are non-increasing:
 * an agent that may cross at some pair may walk along the border to every
 * earlier one, which keeps the graph complete for large agents.  Each
 * served size s gets transitions inside the run of pairs of clearance
 * >= s (a prefix of the entrance), placed as formats/abstract.md's
 * placement says (bake/abstract/entrances.c explains the choices).  The
 * shortest runs choose first, and a longer run takes up a transition a
 * shorter one placed in its middle half rather than adding its own. */
#include "abstract/transitions.h"

typedef struct tr_list {
    nbi_tr_run *r;
    size_t n;
} tr_list;

static void add_run(tr_list *rs, uint32_t lo, uint32_t hi, uint32_t len, unsigned ci)
{
    nbi_tr_run *r = &rs->r[rs->n++];
    r->lo = lo;
    r->hi = hi;
    r->len = len;
    r->at = 0;
    r->ci = (uint8_t)ci;
}

/* The runs of the entrance [e0, e0 + n) of capability ci, whose pair
 * clearances m[0..n) do not increase. */
static void entrance_runs(const nbi_tr_opts *o, unsigned ci, uint32_t e0, const uint32_t *m,
                          uint32_t n, tr_list *out)
{
    if (o->placement == NBI_PLACE_FIRST) {
        add_run(out, e0, e0 + 1, n, ci);
        return;
    }
    uint32_t last = 0;
    for (uint32_t si = o->nsizes; si-- > 0;) { /* the largest size: the shortest run */
        uint32_t s = o->sizes[si], len = 0;
        while (len < n && m[len] >= s)
            len++;
        if (len == 0 || len == last)
            continue;
        last = len;
        uint32_t t = 1;
        if (o->placement == NBI_PLACE_SPREAD || o->placement == NBI_PLACE_ENDS)
            t = (len + o->spread - 1) / o->spread;
        if (o->placement == NBI_PLACE_ENDS && t >= 2) {
            /* Both ends and evenly between: the ends of a border's runs are the corners of
             * clusters, where the runs of the border at right angles end too. */
            for (uint32_t i = 0; i < t; i++)
                add_run(out, e0 + (uint32_t)((uint64_t)i * (len - 1) / (t - 1)),
                        e0 + (uint32_t)((uint64_t)i * (len - 1) / (t - 1)) + 1, n, ci);
            continue;
        }
        for (uint32_t i = 0; i < t; i++)
            add_run(out, e0 + (uint32_t)((uint64_t)i * len / t),
                    e0 + (uint32_t)((uint64_t)(i + 1) * len / t), n, ci);
    }
}

/* Shorter runs first, then by place and capability (a strict order but
 * for runs that are the same in every field). */
static int before(const nbi_tr_run *a, const nbi_tr_run *b)
{
    uint32_t la = a->hi - a->lo, lb = b->hi - b->lo;
    if (la != lb)
        return la < lb;
    if (a->lo != b->lo)
        return a->lo < b->lo;
    return a->ci < b->ci;
}

size_t nbi_tr_max_runs(const nbi_tr_opts *o, uint32_t len)
{
    return (size_t)o->ncaps * (o->nsizes ? o->nsizes : 1) * len + 1;
}

size_t nbi_border_transitions(const nbi_tr_opts *o, uint32_t len, const uint8_t *ca,
                              const uint8_t *cb, nbi_tr_run *runs, nbi_transition *out,
                              uint32_t *entrances)
{
    uint32_t m[NBI_CLUSTER_MAX];
    tr_list rs = {runs, 0};
    *entrances = 0;
    for (unsigned ci = 0; ci < o->ncaps; ci++) {
        const uint8_t *a = ca + (size_t)ci * len, *b = cb + (size_t)ci * len;
        for (uint32_t k = 0; k < len; k++)
            m[k] = a[k] < b[k] ? a[k] : b[k];
        for (uint32_t k = 0; k < len;) {
            if (m[k] == 0) {
                k++;
                continue;
            }
            uint32_t e0 = k;
            while (k + 1 < len && m[k + 1] > 0 && a[k + 1] <= a[k] && b[k + 1] <= b[k])
                k++;
            k++;
            if (m[e0] < o->sizes[0])
                continue; /* no served agent fits through */
            ++*entrances;
            entrance_runs(o, ci, e0, m + e0, k - e0, &rs);
        }
    }
    /* Insertion sort: a border holds few runs, and equal runs are alike. */
    for (size_t i = 1; i < rs.n; i++) {
        nbi_tr_run v = runs[i];
        size_t j = i;
        while (j > 0 && before(&v, &runs[j - 1])) {
            runs[j] = runs[j - 1];
            j--;
        }
        runs[j] = v;
    }
    uint32_t chosen[NBI_CLUSTER_MAX];
    size_t nchosen = 0, nout = 0;
    for (size_t i = 0; i < rs.n; i++) {
        nbi_tr_run *r = &runs[i];
        uint32_t rl = r->hi - r->lo, lo = r->lo + rl / 4, hi = r->hi - rl / 4; /* [lo, hi) */
        uint32_t at = UINT32_MAX;
        for (size_t j = 0; j < nchosen && at == UINT32_MAX; j++)
            if (chosen[j] >= lo && chosen[j] < hi)
                at = chosen[j];
        if (at == UINT32_MAX)
            chosen[nchosen++] = at = r->lo + (rl - 1) / 2;
        r->at = at;
    }
    /* One transition per capability and cell pair, in the order of the runs. */
    for (size_t i = 0; i < rs.n; i++) {
        const nbi_tr_run *r = &runs[i];
        int dup = 0;
        for (size_t j = 0; j < i && !dup; j++)
            dup = runs[j].ci == r->ci && runs[j].at == r->at;
        if (dup)
            continue;
        const uint8_t *a = ca + (size_t)r->ci * len, *b = cb + (size_t)r->ci * len;
        nbi_transition *t = &out[nout++];
        t->k = r->at;
        t->len = r->len;
        t->ci = r->ci;
        t->cv = a[r->at] < b[r->at] ? a[r->at] : b[r->at];
    }
    return nout;
}
