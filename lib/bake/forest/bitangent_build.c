/* bitangent_build.c: baking the bitangent graph of a forest for one agent
 * radius (what mkabstract --forest writes; formats/forest.md).
 *
 * Every circle is inflated by the agent radius (the Minkowski sum: the
 * agent becomes a point).  For each pair, the four bitangents that exist
 * are kept when nothing blocks their line of sight; each kept bitangent
 * gives two nodes, one tangent point on each circle, with the sense in
 * which a path leaves that circle along it.  The hugging arcs are not
 * listed one by one: each circle stores its free arcs (what no other
 * circle covers), and an arc between two of its nodes is an edge exactly
 * when it lies inside one free arc, which the search checks in O(1).  So
 * the section is O(nodes), while the arcs it stands for, counted here for
 * `navbake info`, are O(nodes^2). */
#include <math.h>
#include <stdlib.h>
#include <zlib.h>

#include "bake_int.h"
#include "core/heap.h"
#include "forest/forest.h"

typedef struct bnode {
    double x, y, angle;
    uint32_t circle, partner, index;
    uint32_t sense;
    double partner_angle;
} bnode;

nb_status nbb_forest_encode(const nbb_forest *f, uint8_t **payload, size_t *len, nb_err *err)
{
    size_t size = NBI_FOREST_HEADER + f->n * NBI_FOREST_CIRCLE;
    uint8_t *p = nbb_calloc(1, size);
    if (!p)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a forest of %zu circles", f->n);
    nbi_put32(p + NBI_FOREST_COUNT, (uint32_t)f->n);
    nbi_put32(p + NBI_FOREST_FLAGS, f->has_bounds ? NBI_FOREST_HAS_BOUNDS : 0);
    for (int i = 0; i < 4 && f->has_bounds; i++)
        nbi_putf64(p + NBI_FOREST_BOUNDS + 8 * i, f->bounds[i]);
    for (size_t i = 0; i < f->n; i++) {
        uint8_t *c = p + NBI_FOREST_HEADER + i * NBI_FOREST_CIRCLE;
        nbi_putf64(c + NBI_FOREST_C_X, f->circles[i].x);
        nbi_putf64(c + NBI_FOREST_C_Y, f->circles[i].y);
        nbi_putf64(c + NBI_FOREST_C_R, f->circles[i].r);
    }
    *payload = p;
    *len = size;
    return NB_OK;
}

/* Nodes in a fixed order: by circle, then angle, then anything that
 * tells two apart, so the same forest gives the same bytes. */
static int cmp_node(const void *pa, const void *pb)
{
    const bnode *a = pa, *b = pb;
    if (a->circle != b->circle)
        return a->circle < b->circle ? -1 : 1;
    if (a->angle != b->angle)
        return a->angle < b->angle ? -1 : 1;
    if (a->sense != b->sense)
        return a->sense < b->sense ? -1 : 1;
    if (a->partner_angle != b->partner_angle)
        return a->partner_angle < b->partner_angle ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b;
}

/* How many of the sorted values v[0..n) are < x (or <= x). */
static size_t count_below(const double *v, size_t n, double x, int or_equal)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x || (or_equal && v[mid] == x))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The hugging arcs of one circle: from each node arriving (in the sense
 * opposite its departure sense) to each node leaving in that sense, along
 * the free arc they share.  off[] and the two sorted lists are scratch. */
static uint64_t count_arcs(const bnode *nd, size_t k, const nbi_free_arc *arcs, size_t narcs,
                           double ea, long *comp, double *off, double *sorted)
{
    uint64_t total = 0;
    if (narcs == 1 && arcs[0].span > NBI_TWO_PI) {
        uint64_t c[2] = {0, 0};
        for (size_t i = 0; i < k; i++)
            c[nd[i].sense]++;
        return 2 * c[0] * c[1];
    }
    for (size_t i = 0; i < k; i++)
        comp[i] = nbi_free_arc_find(arcs, narcs, nd[i].angle, ea, &off[i]);
    for (size_t a = 0; a < narcs; a++)
        for (unsigned sense = 0; sense < 2; sense++) {
            /* Offsets of the nodes that leave in this sense. */
            size_t m = 0;
            for (size_t i = 0; i < k; i++)
                if (comp[i] == (long)a && nd[i].sense == sense)
                    sorted[m++] = off[i];
            /* In place: only counted, so equal values may go in any order. */
            nbi_sort(sorted, m, sizeof *sorted, cmp_double);
            for (size_t i = 0; i < k; i++) {
                if (comp[i] != (long)a || nd[i].sense == sense)
                    continue; /* arrives in the other sense */
                /* Counter-clockwise to the nodes ahead in the free arc,
                 * clockwise to those behind (within eps: the same point). */
                if (sense == NBI_CCW)
                    total += m - count_below(sorted, m, off[i] - ea, 0);
                else
                    total += count_below(sorted, m, off[i] + ea, 1);
            }
        }
    return total;
}

nb_status nbb_bitangent_bake(const nbb_forest *f, double radius, uint32_t forest_crc,
                             unsigned flags, uint8_t **payload, size_t *len,
                             nb_forest_graph_info *info, nbb_progress_fn progress, void *arg,
                             nb_err *err)
{
    size_t n = f->n;
    nb_status st = NB_OK;
    nb_circle *c = nbb_calloc(n + 1, sizeof *c);
    nbi_cgrid grid = {0};
    bnode *nd = NULL;
    size_t m = 0, cap = 0;
    uint64_t candidates = 0, arcs_total = 0;
    uint32_t *remap = NULL, *first = NULL, *afirst = NULL, *near = NULL;
    nbi_free_arc *arcs = NULL;
    size_t narcs = 0, arcs_cap = 0;
    double *iv = NULL, *off = NULL, *sorted = NULL;
    long *comp = NULL;
    uint8_t *seen = NULL;
    *payload = NULL;
    if (!c)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu circles", n);
    for (size_t i = 0; i < n; i++) {
        c[i] = f->circles[i];
        c[i].r += radius;
    }
    double eps = nbi_forest_eps(c, n);
    if (!nbi_cgrid_build(&grid, c, n, eps)) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the grid of %zu circles", n);
        goto done;
    }
    /* The bitangents of every pair, kept where nothing blocks them. */
    double pairs = (double)n * (n - 1) / 2, done_pairs = 0, next_report = 0;
    for (size_t i = 0; i < n; i++) {
        if (progress && done_pairs >= next_report) {
            progress(arg, pairs > 0 ? done_pairs / pairs : 1);
            next_report = done_pairs + pairs / 200;
        }
        done_pairs += (double)(n - 1 - i);
        for (size_t j = i + 1; j < n; j++) {
            nbi_bitangent bt[4];
            int k = nbi_bitangents(&c[i], &c[j], eps, bt);
            candidates += (uint64_t)k;
            for (int t = 0; t < k; t++) {
                if (!((flags & NBB_BAKE_PLAIN_LOS)
                          ? nbi_los_brute(c, n, bt[t].pa, bt[t].pb, (uint32_t)i, (uint32_t)j, eps)
                          : nbi_los(&grid, c, bt[t].pa, bt[t].pb, (uint32_t)i, (uint32_t)j, eps)))
                    continue;
                if (m + 2 > (size_t)INT32_MAX) {
                    st = nbi_fail(err, NB_ERR_LIMIT,
                                  "agent radius %g: more than %d tangent points; the forest is too "
                                  "large to bake (search it with the deferred search instead)",
                                  radius, INT32_MAX);
                    goto done;
                }
                if (!nbi_grow(nbb_mem(), (void **)&nd, &cap, m + 2, sizeof *nd)) {
                    st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu tangent points", m + 2);
                    goto done;
                }
                nd[m] = (bnode){bt[t].pa.x, bt[t].pa.y, bt[t].angle_a, (uint32_t)i, (uint32_t)m + 1,
                                (uint32_t)m, bt[t].sense_a, bt[t].angle_b};
                /* Taken the other way, the path leaves B in the sense
                 * opposite to the one it arrives in. */
                nd[m + 1] = (bnode){bt[t].pb.x, bt[t].pb.y, bt[t].angle_b, (uint32_t)j, (uint32_t)m,
                                    (uint32_t)m + 1, !bt[t].sense_b, bt[t].angle_a};
                m += 2;
            }
        }
    }
    if (candidates > UINT32_MAX) {
        st = nbi_fail(err, NB_ERR_LIMIT, "agent radius %g: more than 2^32 bitangents", radius);
        goto done;
    }
    if (!nbb_sort(nd, m, sizeof *nd, cmp_node)) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to sort %zu bitangent nodes", m);
        goto done;
    }
    remap = nbb_malloc((m ? m : 1) * sizeof *remap);
    first = nbb_calloc(n + 1, sizeof *first);
    afirst = nbb_calloc(n + 1, sizeof *afirst);
    near = nbb_malloc((n + 1) * sizeof *near);
    seen = nbb_calloc(n + 1, 1);
    iv = nbb_malloc(2 * (n + 1) * sizeof *iv);
    if (!remap || !first || !afirst || !near || !seen || !iv) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu tangent points", m);
        goto done;
    }
    for (size_t i = 0; i < m; i++)
        remap[nd[i].index] = (uint32_t)i;
    for (size_t i = 0; i < m; i++) {
        nd[i].partner = remap[nd[i].partner];
        first[nd[i].circle + 1]++;
    }
    for (size_t i = 0; i < n; i++)
        first[i + 1] += first[i];
    /* Free arcs, and the hugging arcs they allow. */
    size_t kmax = 0;
    for (size_t i = 0; i < n; i++)
        if (first[i + 1] - first[i] > kmax)
            kmax = first[i + 1] - first[i];
    off = nbb_malloc((kmax + 1) * sizeof *off);
    sorted = nbb_malloc((kmax + 1) * sizeof *sorted);
    comp = nbb_malloc((kmax + 1) * sizeof *comp);
    if (!off || !sorted || !comp) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu tangent points", kmax);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        if (!nbi_grow(nbb_mem(), (void **)&arcs, &arcs_cap, narcs + n + 1, sizeof *arcs)) {
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu free arcs", narcs + n + 1);
            goto done;
        }
        afirst[i] = (uint32_t)narcs;
        size_t a = nbi_circle_free_arcs(&grid, c, n, i, eps, iv, near, seen, arcs + narcs);
        arcs_total += count_arcs(nd + first[i], first[i + 1] - first[i], arcs + narcs, a,
                                 eps / c[i].r, comp, off, sorted);
        narcs += a;
    }
    afirst[n] = (uint32_t)narcs;
    if (narcs > INT32_MAX) {
        st = nbi_fail(err, NB_ERR_LIMIT, "agent radius %g: too many free arcs", radius);
        goto done;
    }
    /* The section. */
    size_t size = NBI_BITANGENT_HEADER + m * NBI_BITANGENT_NODE + narcs * NBI_BITANGENT_ARC +
                  8 * (n + 1);
    uint8_t *p = nbb_calloc(1, size);
    if (!p) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a %zu-byte bitangent section", size);
        goto done;
    }
    nbi_putf64(p + NBI_BT_RADIUS, radius);
    nbi_put32(p + NBI_BT_CIRCLES, (uint32_t)n);
    nbi_put32(p + NBI_BT_NODES, (uint32_t)m);
    nbi_put32(p + NBI_BT_ARCS, (uint32_t)narcs);
    nbi_put32(p + NBI_BT_FOREST_CRC, forest_crc);
    nbi_put32(p + NBI_BT_CANDIDATES, (uint32_t)candidates);
    nbi_put64(p + NBI_BT_HUGGING, arcs_total);
    uint8_t *q = p + NBI_BITANGENT_HEADER;
    for (size_t i = 0; i < m; i++, q += NBI_BITANGENT_NODE) {
        nbi_putf64(q + NBI_BT_N_X, nd[i].x);
        nbi_putf64(q + NBI_BT_N_Y, nd[i].y);
        nbi_putf64(q + NBI_BT_N_ANGLE, nd[i].angle);
        nbi_put32(q + NBI_BT_N_PARTNER, nd[i].partner);
        nbi_put32(q + NBI_BT_N_CIRCLE, nd[i].circle << 1 | nd[i].sense);
    }
    for (size_t i = 0; i < narcs; i++, q += NBI_BITANGENT_ARC) {
        nbi_putf64(q + NBI_BT_A_START, arcs[i].start);
        nbi_putf64(q + NBI_BT_A_SPAN, arcs[i].span);
    }
    for (size_t i = 0; i <= n; i++, q += 4)
        nbi_put32(q, first[i]);
    for (size_t i = 0; i <= n; i++, q += 4)
        nbi_put32(q, afirst[i]);
    *payload = p;
    *len = size;
    if (info) {
        memset(info, 0, sizeof *info);
        info->agent_radius = radius;
        info->nodes = (uint32_t)m;
        info->transitions = (uint32_t)(m / 2);
        info->candidates = (uint32_t)candidates;
        info->arcs = arcs_total;
        info->free_arcs = (uint32_t)narcs;
    }
    if (progress)
        progress(arg, 1);
done:
    nbb_free(c);
    nbi_cgrid_free(&grid);
    nbb_free(nd);
    nbb_free(remap);
    nbb_free(first);
    nbb_free(afirst);
    nbb_free(near);
    nbb_free(seen);
    nbb_free(iv);
    nbb_free(arcs);
    nbb_free(off);
    nbb_free(sorted);
    nbb_free(comp);
    return st;
}

struct progress_share {
    nbb_progress_fn fn;
    void *arg;
    unsigned index, count;
};

static void share(void *arg, double fraction)
{
    struct progress_share *p = arg;
    p->fn(p->arg, (p->index + fraction) / p->count);
}

nb_status nbb_put_forest(nbb_builder *b, const nbb_forest *f, const double *radii, unsigned nradii,
                         int compress, nb_forest_graph_info *info, nbb_progress_fn progress,
                         void *arg, nb_err *err)
{
    if (nradii > NB_FOREST_MAX_RADII)
        return nbi_fail(err, NB_ERR_LIMIT, "%u agent radii, at most %d", nradii, NB_FOREST_MAX_RADII);
    uint8_t *p;
    size_t len;
    nb_status st = nbb_forest_encode(f, &p, &len, err);
    if (st != NB_OK)
        return st;
    uint32_t crc = (uint32_t)crc32(0, p, (uInt)len);
    nb_section_info in;
    memset(&in, 0, sizeof in);
    in.type = NB_SEC_FOREST;
    in.version = NBI_FOREST_VERSION;
    in.param[0] = (uint32_t)f->n;
    /* A new forest makes every graph of the old one meaningless. */
    nbb_builder_remove(b, NB_SEC_FOREST);
    nbb_builder_remove(b, NB_SEC_BITANGENT);
    st = nbb_builder_add(b, &in, p, len, compress, err);
    nbb_free(p);
    struct progress_share ps = {progress, arg, 0, nradii};
    for (unsigned k = 0; k < nradii && st == NB_OK; k++) {
        nb_forest_graph_info gi;
        ps.index = k;
        st = nbb_bitangent_bake(f, radii[k], crc, 0, &p, &len, &gi, progress ? share : NULL, &ps, err);
        if (st != NB_OK)
            break;
        memset(&in, 0, sizeof in);
        in.type = NB_SEC_BITANGENT;
        in.version = NBI_BITANGENT_VERSION;
        in.param[0] = k;
        in.param[1] = gi.nodes;
        in.param[2] = gi.transitions;
        in.param[3] = gi.candidates;
        in.param[4] = gi.arcs > UINT32_MAX ? UINT32_MAX : (uint32_t)gi.arcs;
        st = nbb_builder_add(b, &in, p, len, compress, err);
        nbb_free(p);
        if (info)
            info[k] = gi;
    }
    return st;
}
