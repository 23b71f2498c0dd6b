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
#include "abstract/abstract_build.h"
#include "abstract/transitions.h"

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

/* The inter-edge of transition t. */
static void transition(const nbb_ab *ab, const border *bd, const nbi_transition *t, ab_inter *e)
{
    uint32_t k = t->k;
    int32_t ax = bd->ax + bd->sx * (int32_t)k, ay = bd->ay + bd->sy * (int32_t)k;
    int32_t bx = bd->bx + bd->sx * (int32_t)k, by = bd->by + bd->sy * (int32_t)k;
    memset(e, 0, sizeof *e);
    e->a = (uint32_t)ay * ab->width + (uint32_t)ax;
    e->b = (uint32_t)by * ab->width + (uint32_t)bx;
    e->h.cap = t->ci;
    e->h.cv = t->cv;
    e->h.card = 1;
    e->h.alive = 1;
    /* Among inter-edges of equal annotations the low-quality graph keeps
     * one at either end of the border (a cluster corner, whose node the
     * border at right angles may share), then the one of the longest
     * entrance, then the one nearest the middle of the border. */
    uint32_t off_mid = 2 * k > bd->len - 1 ? 2 * k - (bd->len - 1) : (bd->len - 1) - 2 * k;
    uint32_t len = t->len > 32767u ? 32767u : t->len;
    e->rank = (k == 0 || k + 1 == bd->len ? 0u : 1u << 31) | (32767u - len) << 16 | off_mid;
}

/* Every entrance of every capability along one border, and its
 * transitions (runtime/abstract/transitions.c, which the runtime's repair
 * under an overlay shares). */
static nb_status scan(nbb_ab *ab, const border *bd, ab_border *out, ab_worker *w, nb_err *err)
{
    nbi_tr_opts o = {ab->opt->placement, ab->opt->spread, ab->ncaps, ab->nsizes, ab->sizes};
    size_t nl = (size_t)ab->ncaps * bd->len, nr = nbi_tr_max_runs(&o, bd->len);
    if (!nbb_ab_room((void **)&w->lines, &w->lines_cap, 2 * nl, 1) ||
        !nbb_ab_room((void **)&w->runs, &w->runs_cap, nr, sizeof *w->runs) ||
        !nbb_ab_room((void **)&w->tr, &w->tr_cap, nr, sizeof *w->tr))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the entrances");
    uint8_t *ca = w->lines, *cb = w->lines + nl;
    for (unsigned ci = 0; ci < ab->ncaps; ci++)
        for (uint32_t k = 0; k < bd->len; k++) {
            ca[ci * bd->len + k] = (uint8_t)cv_at(ab, ci, bd->ax + bd->sx * (int32_t)k,
                                                  bd->ay + bd->sy * (int32_t)k);
            cb[ci * bd->len + k] = (uint8_t)cv_at(ab, ci, bd->bx + bd->sx * (int32_t)k,
                                                  bd->by + bd->sy * (int32_t)k);
        }
    size_t n = nbi_border_transitions(&o, bd->len, ca, cb, w->runs, w->tr, &out->entrances);
    out->e = nbb_arena_alloc(&w->arena, (n ? n : 1) * sizeof *out->e);
    if (!out->e)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph");
    out->n = 0;
    for (size_t i = 0; i < n; i++)
        transition(ab, bd, &w->tr[i], &out->e[out->n++]);
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
