/* repair.c: the abstract graph's clusters made again under an overlay
 * (repair.h), so that HAA* searches the graph of the edited map.
 *
 * A cluster's nodes come from the transitions of its four borders, and a
 * border's transitions from the clearances of its two facing lines
 * (transitions.c, the bake's own rule); its intra-edges from the cells it
 * holds.  The overlay changes clearances only where its limit, min(cap,
 * D), is below the graph's largest size: a cluster is repaired when such
 * a cell lies in it or one cell beyond it (the facing lines of its
 * borders), and every other cluster is the baked one.  A change marks the
 * clusters within a cell of the band it rewrote and a flush repairs them,
 * so a change costs what the clusters it touches cost, whatever the map. */
#include "abstract/repair.h"
#include "abstract/transitions.h"
#include "blocked/blocked.h"

long nbi_agraph_node_at(const nbi_agraph *g, uint32_t k, uint32_t cell)
{
    uint32_t lo = nbi_u32at(g->cluster_first, k), hi = nbi_u32at(g->cluster_first, k + 1);
    while (lo < hi) { /* a cluster's nodes are stored in increasing order of their cells */
        uint32_t mid = lo + (hi - lo) / 2;
        nb_cell c = {nbi_u16at(g->node_xy, 2 * (size_t)mid), nbi_u16at(g->node_xy, 2 * (size_t)mid + 1)};
        uint32_t m = (uint32_t)c.y * g->width + (uint32_t)c.x;
        if (m == cell)
            return mid;
        if (m < cell)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

long nbi_rcluster_node(const nbi_rcluster *c, uint32_t cell)
{
    uint32_t lo = 0, hi = c->nn;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->cell[mid] == cell)
            return mid;
        if (c->cell[mid] < cell)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* The graph's cost profiles (abstract_costs sections naming it) whose capability it serves,
 * with their agents' costs on the map; 0 when out of memory. */
static int find_profiles(nbi_repair *r, const nb_bundle *b, const nbi_agraph *g)
{
    size_t n = 0;
    for (size_t i = 0; i < b->nsections; i++)
        n += b->sections[i].info.type == NB_SEC_ABSTRACT_COSTS;
    if (n == 0)
        return 1;
    r->prof = nbi_alloc_array(r->a, n, sizeof *r->prof);
    if (!r->prof)
        return 0;
    for (size_t i = 0; i < b->nsections; i++) {
        nbi_acosts p;
        if (b->sections[i].info.type != NB_SEC_ABSTRACT_COSTS || nbi_acosts_at(b, i, g, &p, NULL) != NB_OK)
            continue;
        nbi_rprof *rp = &r->prof[r->nprof];
        for (rp->ci = 0; rp->ci < g->ncaps && nbi_u32at(g->caps, rp->ci) != p.cap; rp->ci++)
            ;
        if (rp->ci == g->ncaps || nbi_costs_make(&rp->costs, b, p.cap, p.size, p.cost, NULL) != NB_OK)
            continue; /* a query with it is refused, or weighs the repair itself (haa_search.c) */
        rp->section = p.section;
        rp->size = p.size;
        r->nprof++;
    }
    return 1;
}

int nbi_repair_init(nbi_repair *r, const nb_bundle *b, const nbi_agraph *g)
{
    memset(r, 0, sizeof *r);
    r->a = b->a;
    r->g = *g;
    r->ncl = g->ncx * g->ncy;
    r->per = 4 * g->cluster;
    r->layer = nbi_zalloc_array(r->a, g->ncaps ? g->ncaps : 1, sizeof *r->layer);
    r->sizes = nbi_alloc_array(r->a, g->nsizes ? g->nsizes : 1, sizeof *r->sizes);
    if (!r->layer || !r->sizes)
        return 0;
    for (uint32_t s = 0; s < g->nsizes; s++)
        r->sizes[s] = nbi_u32at(g->sizes, s);
    r->top = g->nsizes ? r->sizes[g->nsizes - 1] : 1;
    /* Low quality drops inter-edges by the circuit condition, which reads both clusters'
     * insides, and then the nodes left without one (Theorem 7, Corollary 8): a repair there
     * remakes the ring of clusters beside the touched ones too (ring()). */
    r->ring = g->quality == NBI_QUALITY_LOW;
    r->ok = g->nsizes > 0;
    for (uint32_t i = 0; i < g->ncaps && r->ok; i++)
        r->ok = nbi_clearance_layer(b, nbi_u32at(g->caps, i), &r->layer[i], NULL) == NB_OK &&
                r->layer[i].maxval >= r->top;
    /* Search keys of repaired nodes must fit 32 bits (haa_search.c). */
    if ((uint64_t)g->nnodes + 2 + (uint64_t)r->ncl * r->per > UINT32_MAX)
        r->ok = 0;
    r->serves = r->ok;
    return r->ok ? find_profiles(r, b, g) : 1;
}

static void rec_free(nbi_repair *r, nbi_rcluster *c)
{
    nbi_free(r->a, c->cell);
    nbi_free(r->a, c->first);
    nbi_free(r->a, c->arc);
    nbi_free(r->a, c->pcost);
    memset(c, 0, sizeof *c);
    c->k = UINT32_MAX;
}

static void scratch_free(nbi_repair *r)
{
    if (r->cs_ok)
        nbi_csearch_free(&r->cs);
    r->cs_ok = 0;
    nbi_free(r->a, r->lines);
    nbi_free(r->a, r->runs);
    nbi_free(r->a, r->tr);
    nbi_free(r->a, r->node);
    nbi_free(r->a, r->local);
    nbi_free(r->a, r->arcs);
    nbi_free(r->a, r->targets);
    nbi_free(r->a, r->stand);
    nbi_free(r->a, r->group);
    r->group = NULL;
    r->lines = NULL;
    r->runs = r->tr = NULL;
    r->node = NULL;
    r->local = NULL;
    r->arcs = NULL;
    r->arcs_cap = 0;
    r->targets = NULL;
    r->stand = NULL;
}

void nbi_repair_reset(nbi_repair *r)
{
    for (size_t i = 0; i < r->nrec; i++)
        if (r->rec[i].k != UINT32_MAX)
            rec_free(r, &r->rec[i]);
    r->nrec = 0;
    r->held = 0;
    r->ntodo = 0;
    r->ok = r->serves;
    if (r->slot)
        for (uint32_t k = 0; k < r->ncl; k++) {
            r->slot[k] = UINT32_MAX;
            r->pending[k] = 0;
        }
}

void nbi_repair_free(nbi_repair *r)
{
    nbi_repair_reset(r);
    scratch_free(r);
    nbi_free(r->a, r->rec);
    nbi_free(r->a, r->slot);
    nbi_free(r->a, r->pending);
    nbi_free(r->a, r->todo);
    nbi_free(r->a, r->layer);
    nbi_free(r->a, r->sizes);
    nbi_free(r->a, r->prof);
    memset(r, 0, sizeof *r);
}

/* The per-cluster arrays, made at the first change. */
static int have_slots(nbi_repair *r)
{
    if (r->slot)
        return 1;
    r->slot = nbi_alloc_array(r->a, r->ncl, sizeof *r->slot);
    r->pending = nbi_zalloc_array(r->a, r->ncl, 1);
    if (!r->slot || !r->pending) {
        nbi_free(r->a, r->slot);
        nbi_free(r->a, r->pending);
        r->slot = NULL;
        r->pending = NULL;
        return 0;
    }
    for (uint32_t k = 0; k < r->ncl; k++)
        r->slot[k] = UINT32_MAX;
    return 1;
}

static int rec_copy(nbi_repair *r, nbi_rcluster *d, const nbi_rcluster *s)
{
    *d = *s;
    d->cell = d->first = NULL;
    d->arc = NULL;
    d->pcost = NULL;
    if (s->k == UINT32_MAX)
        return 1;
    size_t arcs = s->first[s->nn], costs = r->nprof * arcs;
    d->cell = nbi_alloc_array(r->a, s->nn ? s->nn : 1, sizeof *d->cell);
    d->first = nbi_alloc_array(r->a, (size_t)s->nn + 1, sizeof *d->first);
    d->arc = nbi_alloc_array(r->a, arcs ? arcs : 1, sizeof *d->arc);
    d->pcost = nbi_alloc_array(r->a, costs ? costs : 1, sizeof *d->pcost);
    if (!d->cell || !d->first || !d->arc || !d->pcost) {
        rec_free(r, d);
        return 0;
    }
    memcpy(d->pcost, s->pcost, costs * sizeof *d->pcost);
    memcpy(d->cell, s->cell, s->nn * sizeof *d->cell);
    memcpy(d->first, s->first, ((size_t)s->nn + 1) * sizeof *d->first);
    memcpy(d->arc, s->arc, arcs * sizeof *d->arc);
    return 1;
}

int nbi_repair_copy(nbi_repair *dst, const nbi_repair *src)
{
    memset(dst, 0, sizeof *dst);
    dst->a = src->a;
    dst->g = src->g;
    dst->top = src->top;
    dst->per = src->per;
    dst->ncl = src->ncl;
    dst->ok = src->ok;
    dst->serves = src->serves;
    dst->ring = src->ring;
    dst->layer = nbi_alloc_array(dst->a, src->g.ncaps ? src->g.ncaps : 1, sizeof *dst->layer);
    dst->sizes = nbi_alloc_array(dst->a, src->g.nsizes ? src->g.nsizes : 1, sizeof *dst->sizes);
    if (!dst->layer || !dst->sizes)
        return 0;
    memcpy(dst->layer, src->layer, src->g.ncaps * sizeof *dst->layer);
    memcpy(dst->sizes, src->sizes, src->g.nsizes * sizeof *dst->sizes);
    if (src->nprof) {
        dst->prof = nbi_alloc_array(dst->a, src->nprof, sizeof *dst->prof);
        if (!dst->prof)
            return 0;
        memcpy(dst->prof, src->prof, src->nprof * sizeof *dst->prof);
        dst->nprof = src->nprof;
    }
    if (!src->slot)
        return 1;
    if (!have_slots(dst))
        return 0;
    memcpy(dst->slot, src->slot, dst->ncl * sizeof *dst->slot);
    dst->rec = nbi_zalloc_array(dst->a, src->nrec ? src->nrec : 1, sizeof *dst->rec);
    if (!dst->rec)
        return 0;
    dst->rcap = src->nrec ? src->nrec : 1;
    for (size_t i = 0; i < src->nrec; i++) {
        if (!rec_copy(dst, &dst->rec[i], &src->rec[i])) {
            dst->nrec = i;
            return 0;
        }
    }
    dst->nrec = src->nrec;
    dst->held = src->held;
    return 1;
}

void nbi_repair_mark(nbi_repair *r, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1)
{
    if (!r->ok)
        return;
    if (!have_slots(r)) {
        r->ok = 0;
        return;
    }
    const nbi_agraph *g = &r->g;
    const uint32_t n = g->cluster;
    /* A cell beyond a cluster is on the facing line of one of its borders; with a ring, the
     * clusters beside those are repaired or given back with them. */
    const uint32_t m = r->ring ? n + 1 : 1;
    x0 = x0 > m ? x0 - m : 0;
    y0 = y0 > m ? y0 - m : 0;
    x1 = x1 + m < g->width ? x1 + m : g->width;
    y1 = y1 + m < g->height ? y1 + m : g->height;
    for (uint32_t cy = y0 / n; cy <= (y1 - 1) / n; cy++)
        for (uint32_t cx = x0 / n; cx <= (x1 - 1) / n; cx++) {
            uint32_t k = cy * g->ncx + cx;
            if (r->pending[k])
                continue;
            if (!nbi_grow(r->a, (void **)&r->todo, &r->todo_cap, r->ntodo + 1, sizeof *r->todo)) {
                r->ok = 0;
                return;
            }
            r->pending[k] = 1;
            r->todo[r->ntodo++] = k;
        }
}

/* ---- one cluster ---- */

/* The clearance of capability index ci at (x, y) under the overlay, capped at the largest
 * size: what the bake's entrances see on the edited map. */
static inline uint8_t seen(const nbi_repair *r, const nb_overlay *ov, unsigned ci, int32_t x,
                           int32_t y)
{
    const nbi_layer *l = &r->layer[ci];
    uint32_t v = nbi_layer_get(l, (uint64_t)y * l->width + (uint32_t)x);
    uint32_t d = nbi_overlay_lim(ov, (uint32_t)x, (uint32_t)y);
    v = d < v ? d : v;
    return (uint8_t)(v > r->top ? r->top : v);
}

/* 1 when the overlay lowers a cell of box k or the line of cells around it below the top. */
static int touched(const nbi_repair *r, const nb_overlay *ov, const nbi_box *b)
{
    int32_t x0 = b->x0 ? b->x0 - 1 : 0, y0 = b->y0 ? b->y0 - 1 : 0;
    int32_t x1 = (uint32_t)b->x1 < r->g.width ? b->x1 + 1 : b->x1;
    int32_t y1 = (uint32_t)b->y1 < r->g.height ? b->y1 + 1 : b->y1;
    for (int32_t y = y0; y < y1; y++)
        for (int32_t x = x0; x < x1; x++)
            if (nbi_overlay_lim(ov, (uint32_t)x, (uint32_t)y) < r->top)
                return 1;
    return 0;
}

static int scratch(nbi_repair *r)
{
    if (r->cs_ok)
        return 1;
    const uint32_t n = r->g.cluster, ncombo = r->g.ncaps * r->g.nsizes;
    nbi_tr_opts o = {r->g.placement, r->g.spread, r->g.ncaps, r->g.nsizes, r->sizes};
    size_t nr = nbi_tr_max_runs(&o, n);
    r->cs_ok = nbi_csearch_init(&r->cs, r->a, n, n);
    r->lines = nbi_alloc_array(r->a, (size_t)2 * r->g.ncaps * n + 1, 1);
    r->runs = nbi_alloc_array(r->a, nr, sizeof(nbi_tr_run));
    r->tr = nbi_alloc_array(r->a, nr, sizeof(nbi_transition));
    r->node = nbi_alloc_array(r->a, (size_t)4 * n, sizeof *r->node);
    r->local = nbi_zalloc_array(r->a, (size_t)n * n, sizeof *r->local);
    r->targets = nbi_alloc_array(r->a, (size_t)4 * n, sizeof *r->targets);
    r->stand = nbi_alloc_array(r->a, (size_t)(ncombo ? ncombo : 1) * n * n, 1);
    r->group = nbi_alloc_array(r->a, ncombo ? ncombo : 1, sizeof *r->group);
    if (!r->group || !r->cs_ok || !r->lines || !r->runs || !r->tr || !r->node || !r->local || !r->targets ||
        !r->stand) {
        scratch_free(r);
        return 0;
    }
    return 1;
}


/* An arc found, with the number of the node it leaves. */
typedef struct sarc {
    uint32_t from;
    nbi_rarc a;
} sarc;

static int add_arc(nbi_repair *r, size_t *na, uint32_t from, nbi_rarc a)
{
    if (!nbi_grow(r->a, &r->arcs, &r->arcs_cap, *na + 1, sizeof(sarc)))
        return 0;
    sarc *s = (sarc *)r->arcs + *na;
    s->from = from;
    s->a = a;
    ++*na;
    return 1;
}

/* The number of the node at (x, y) of box b, made when new. */
static uint32_t node_of(nbi_repair *r, const nbi_box *b, uint32_t *nn, int32_t x, int32_t y)
{
    uint32_t bw = (uint32_t)(b->x1 - b->x0);
    uint16_t *at = &r->local[(uint32_t)(y - b->y0) * bw + (uint32_t)(x - b->x0)];
    if (!*at) {
        r->node[*nn] = (uint32_t)y * r->g.width + (uint32_t)x;
        *at = (uint16_t)++*nn;
    }
    return *at - 1u;
}

/* The nodes of box b and their inter-edges: the transitions of its four borders, which lie
 * as the bake lays them (bake/abstract/entrances.c: the border below or right of the
 * cluster above or left, from that cluster's first cell). */
static int borders(nbi_repair *r, const nb_overlay *ov, const nbi_box *b, uint32_t *nn, size_t *na)
{
    const nbi_agraph *g = &r->g;
    nbi_tr_opts o = {g->placement, g->spread, g->ncaps, g->nsizes, r->sizes};
    for (int side = 0; side < 4; side++) {
        int32_t ax, ay, sx, sy, dx, dy; /* the first pair's first cell, the step, a to b */
        uint32_t len;
        if (side == 0 || side == 3) { /* above, below */
            if (side == 0 ? b->y0 == 0 : (uint32_t)b->y1 >= g->height)
                continue;
            ax = b->x0;
            ay = side == 0 ? b->y0 - 1 : b->y1 - 1;
            sx = 1, sy = 0, dx = 0, dy = 1;
            len = (uint32_t)(b->x1 - b->x0);
        } else { /* left, right */
            if (side == 1 ? b->x0 == 0 : (uint32_t)b->x1 >= g->width)
                continue;
            ax = side == 1 ? b->x0 - 1 : b->x1 - 1;
            ay = b->y0;
            sx = 0, sy = 1, dx = 1, dy = 0;
            len = (uint32_t)(b->y1 - b->y0);
        }
        size_t nl = (size_t)g->ncaps * len;
        uint8_t *ca = r->lines, *cb = r->lines + nl;
        for (unsigned ci = 0; ci < g->ncaps; ci++)
            for (uint32_t k = 0; k < len; k++) {
                int32_t x = ax + sx * (int32_t)k, y = ay + sy * (int32_t)k;
                ca[ci * len + k] = seen(r, ov, ci, x, y);
                cb[ci * len + k] = seen(r, ov, ci, x + dx, y + dy);
            }
        uint32_t ent;
        nbi_transition *t = r->tr;
        size_t nt = nbi_border_transitions(&o, len, ca, cb, r->runs, t, &ent);
        for (size_t i = 0; i < nt; i++) {
            int32_t x = ax + sx * (int32_t)t[i].k, y = ay + sy * (int32_t)t[i].k;
            int near_b = side < 2; /* the cluster is b's side of the borders above and left */
            int32_t nx = near_b ? x + dx : x, ny = near_b ? y + dy : y;
            int32_t fx = near_b ? x : x + dx, fy = near_b ? y : y + dy;
            uint32_t u = node_of(r, b, nn, nx, ny);
            nbi_rarc a = {(uint32_t)fy * g->width + (uint32_t)fx, 1, 0, t[i].ci, t[i].cv, 1};
            if (!add_arc(r, na, u, a))
                return 0;
        }
    }
    return 1;
}

/* The intra-edges of box b between its nn nodes, for every (capability, size) the graph
 * serves: a Dijkstra from each node to the later ones, once for all pairs whose standable
 * cells are the same (as the bake does, bake/abstract/abstract_build.c). */
static int intra(nbi_repair *r, const nb_overlay *ov, const nbi_box *b, uint32_t nn, size_t *na)
{
    const nbi_agraph *g = &r->g;
    const uint32_t ncombo = g->ncaps * g->nsizes, bw = (uint32_t)(b->x1 - b->x0);
    const size_t cells = (size_t)bw * (uint32_t)(b->y1 - b->y0);
    uint32_t *group = r->group;
    if (nn < 2)
        return 1;
    for (uint32_t c = 0; c < ncombo; c++) {
        uint8_t *st = r->stand + c * cells;
        const nbi_layer *l = &r->layer[c / g->nsizes];
        uint32_t s = r->sizes[c % g->nsizes];
        for (int32_t y = b->y0; y < b->y1; y++)
            for (int32_t x = b->x0; x < b->x1; x++)
                st[(size_t)(y - b->y0) * bw + (uint32_t)(x - b->x0)] =
                    (uint8_t)(nbi_standable(l, s, x, y) && nbi_overlay_room(ov, s, (uint32_t)x, (uint32_t)y));
        group[c] = c;
        for (uint32_t d = 0; d < c; d++)
            if (group[d] == d && memcmp(r->stand + d * cells, st, cells) == 0) {
                group[c] = d;
                break;
            }
    }
    r->cs.ov = ov;
    for (uint32_t c = 0; c < ncombo; c++) {
        if (group[c] != c)
            continue;
        const uint8_t *st = r->stand + c * cells;
        const nbi_layer *l = &r->layer[c / g->nsizes];
        uint32_t s = r->sizes[c % g->nsizes];
#define STANDS(cell) st[((cell) / g->width - (uint32_t)b->y0) * bw + (cell) % g->width - (uint32_t)b->x0]
        for (uint32_t i = 0; i + 1 < nn; i++) {
            if (!STANDS(r->node[i]))
                continue;
            size_t nt = 0;
            for (uint32_t j = i + 1; j < nn; j++)
                if (STANDS(r->node[j]))
                    r->targets[nt++] = (nb_cell){(int32_t)(r->node[j] % g->width),
                                                 (int32_t)(r->node[j] / g->width)};
            if (nt == 0)
                continue;
            nb_cell from = {(int32_t)(r->node[i] % g->width), (int32_t)(r->node[i] / g->width)};
            nbi_csearch_run(&r->cs, l, s, (int)g->corner, b, from, NULL, r->targets, nt);
            for (uint32_t j = i + 1; j < nn; j++) {
                nb_cell to = {(int32_t)(r->node[j] % g->width), (int32_t)(r->node[j] / g->width)};
                uint32_t diag;
                double cost = nbi_csearch_cost(&r->cs, to, &diag);
                if (cost < 0)
                    continue;
                uint16_t card = (uint16_t)((long)(cost - diag * NBI_SQRT2 + 0.5));
                for (uint32_t d = c; d < ncombo; d++) {
                    if (group[d] != c)
                        continue;
                    uint8_t ci = (uint8_t)(d / g->nsizes), cv = (uint8_t)r->sizes[d % g->nsizes];
                    nbi_rarc ij = {j, card, (uint16_t)diag, ci, cv, 0};
                    nbi_rarc ji = {i, card, (uint16_t)diag, ci, cv, 0};
                    if (!add_arc(r, na, i, ij) || !add_arc(r, na, j, ji))
                        return 0;
                }
            }
        }
#undef STANDS
    }
    r->cs.ov = NULL;
    return 1;
}

/* The costs of c's arcs for each of the repair's profiles (c->pcost): an intra-arc's, the
 * profile agent's least-cost path in the cluster under the overlay (one Dijkstra from each
 * node, under the graph's corner rule: what HAA*'s refinement finds for the step); an
 * inter-arc's, one step into the far cell; -1 for an arc that does not admit the agent. */
static void weigh(nbi_repair *r, const nb_overlay *ov, nbi_rcluster *c)
{
    const nbi_agraph *g = &r->g;
    const size_t na = c->first[c->nn];
    nbi_box b = nbi_cluster_box(c->k, g->ncx, g->cluster, g->width, g->height);
    r->cs.ov = ov;
    for (size_t p = 0; p < r->nprof; p++) {
        const nbi_rprof *rp = &r->prof[p];
        const nb_capability cap = nbi_u32at(g->caps, rp->ci);
        double *w = c->pcost + p * na;
        nbi_csearch_costs(&r->cs, &rp->costs, 0);
        for (uint32_t i = 0; i < c->nn; i++) {
            uint8_t aimed[4 * NBI_CLUSTER_MAX] = {0}; /* arcs of several combos share an end */
            size_t nt = 0;
            for (uint32_t a = c->first[i]; a < c->first[i + 1]; a++) {
                const nbi_rarc *e = &c->arc[a];
                int admits = (nbi_u32at(g->caps, e->cap) & ~cap) == 0 && e->cv >= rp->size;
                uint32_t to = e->inter ? e->to : c->cell[e->to];
                w[a] = -1;
                if (admits && e->inter)
                    w[a] = nbi_costs_cell(&rp->costs, to % g->width, to / g->width);
                else if (admits && !aimed[e->to]) {
                    aimed[e->to] = 1;
                    r->targets[nt++] = (nb_cell){(int32_t)(to % g->width), (int32_t)(to / g->width)};
                }
            }
            if (nt == 0)
                continue;
            nb_cell from = {(int32_t)(c->cell[i] % g->width), (int32_t)(c->cell[i] / g->width)};
            nbi_csearch_run(&r->cs, &r->layer[rp->ci], rp->size, (int)g->corner, &b, from, NULL,
                            r->targets, nt);
            for (uint32_t a = c->first[i]; a < c->first[i + 1]; a++) {
                const nbi_rarc *e = &c->arc[a];
                if (!e->inter && (nbi_u32at(g->caps, e->cap) & ~cap) == 0 && e->cv >= rp->size)
                    w[a] = nbi_csearch_cost(&r->cs, (nb_cell){(int32_t)(c->cell[e->to] % g->width),
                                                              (int32_t)(c->cell[e->to] / g->width)},
                                            NULL);
            }
        }
    }
    nbi_csearch_costs(&r->cs, NULL, 0);
    r->cs.ov = NULL;
}

/* Cluster k's record made from the scratch: nodes sorted by cell, arcs by node. */
static int keep(nbi_repair *r, const nb_overlay *ov, uint32_t k, uint32_t nn, size_t na)
{
    uint32_t order[4 * NBI_CLUSTER_MAX], rank[4 * NBI_CLUSTER_MAX];
    for (uint32_t i = 0; i < nn; i++)
        order[i] = i;
    for (uint32_t i = 1; i < nn; i++) { /* few nodes: insertion sort */
        uint32_t v = order[i], j = i;
        while (j > 0 && r->node[order[j - 1]] > r->node[v]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
    for (uint32_t i = 0; i < nn; i++)
        rank[order[i]] = i;
    nbi_rcluster c;
    memset(&c, 0, sizeof c);
    c.k = k;
    c.nn = nn;
    c.cell = nbi_alloc_array(r->a, nn ? nn : 1, sizeof *c.cell);
    c.first = nbi_zalloc_array(r->a, (size_t)nn + 1, sizeof *c.first);
    c.arc = nbi_alloc_array(r->a, na ? na : 1, sizeof *c.arc);
    c.pcost = nbi_alloc_array(r->a, r->nprof && na ? r->nprof * na : 1, sizeof *c.pcost);
    if (!c.cell || !c.first || !c.arc || !c.pcost) {
        rec_free(r, &c);
        return 0;
    }
    for (uint32_t i = 0; i < nn; i++)
        c.cell[rank[i]] = r->node[i];
    const sarc *s = r->arcs;
    for (size_t i = 0; i < na; i++)
        c.first[rank[s[i].from] + 1]++;
    for (uint32_t i = 0; i < nn; i++)
        c.first[i + 1] += c.first[i];
    for (size_t i = 0; i < na; i++) {
        nbi_rarc a = s[i].a;
        if (!a.inter)
            a.to = rank[a.to];
        c.arc[c.first[rank[s[i].from]]++] = a;
    }
    for (uint32_t i = nn; i > 0; i--) /* back to the starts */
        c.first[i] = c.first[i - 1];
    c.first[0] = 0;
    weigh(r, ov, &c);
    /* Into the cluster's record, or a free one. */
    uint32_t at = r->slot[k];
    if (at == UINT32_MAX) {
        for (at = 0; at < r->nrec && r->rec[at].k != UINT32_MAX; at++)
            ;
        if (at == r->nrec) {
            if (!nbi_grow(r->a, (void **)&r->rec, &r->rcap, r->nrec + 1, sizeof *r->rec)) {
                rec_free(r, &c);
                return 0;
            }
            r->nrec++;
        }
        r->held++;
    } else {
        rec_free(r, &r->rec[at]);
    }
    r->rec[at] = c;
    r->slot[k] = at;
    return 1;
}

/* 1 when cluster k of a low-quality graph must be made again though the overlay leaves its
 * cells and facing lines as baked: a cluster beside it is touched.  The circuit condition
 * dropped inter-edges of their common border, and Corollary 8 the nodes they left bare, on
 * the strength of paths inside the touched cluster that a block may cut; the ring's own
 * outer borders keep their decisions (both of their sides are as baked), so the ring's
 * nodes meet the baked graph where its kept inter-edges land. */
static int ring(const nbi_repair *r, const nb_overlay *ov, uint32_t k)
{
    const nbi_agraph *g = &r->g;
    const uint32_t cx = k % g->ncx, cy = k / g->ncx;
    const int32_t dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1};
    if (!r->ring)
        return 0;
    for (int i = 0; i < 4; i++) {
        int64_t x = (int64_t)cx + dx[i], y = (int64_t)cy + dy[i];
        if (x < 0 || y < 0 || x >= g->ncx || y >= g->ncy)
            continue;
        nbi_box b = nbi_cluster_box((uint32_t)y * g->ncx + (uint32_t)x, g->ncx, g->cluster,
                                    g->width, g->height);
        if (touched(r, ov, &b))
            return 1;
    }
    return 0;
}

static int repair_cluster(nbi_repair *r, const nb_overlay *ov, uint32_t k)
{
    const nbi_agraph *g = &r->g;
    nbi_box b = nbi_cluster_box(k, g->ncx, g->cluster, g->width, g->height);
    if (!ov || (!touched(r, ov, &b) && !ring(r, ov, k))) { /* the baked cluster stands */
        if (r->slot[k] != UINT32_MAX) {
            rec_free(r, &r->rec[r->slot[k]]);
            r->slot[k] = UINT32_MAX;
            r->held--;
        }
        return 1;
    }
    if (!scratch(r))
        return 0;
    uint32_t nn = 0;
    size_t na = 0;
    int ok = borders(r, ov, &b, &nn, &na);
    for (uint32_t i = 0; i < nn; i++) { /* the cell-to-node map clean for the next */
        uint32_t x = r->node[i] % g->width - (uint32_t)b.x0, y = r->node[i] / g->width - (uint32_t)b.y0;
        r->local[y * (uint32_t)(b.x1 - b.x0) + x] = 0;
    }
    return ok && intra(r, ov, &b, nn, &na) && keep(r, ov, k, nn, na);
}

void nbi_repair_flush(nbi_repair *r, const nb_overlay *ov)
{
    for (size_t i = 0; i < r->ntodo; i++) {
        uint32_t k = r->todo[i];
        r->pending[k] = 0;
        if (r->ok && !repair_cluster(r, ov, k))
            r->ok = 0; /* HAA* answers without the repair from now on */
    }
    r->ntodo = 0;
}

size_t nbi_repair_bytes(const nbi_repair *r)
{
    const uint32_t n = r->g.cluster, ncombo = r->g.ncaps * r->g.nsizes;
    size_t bytes = r->g.ncaps * sizeof *r->layer + r->g.nsizes * sizeof *r->sizes +
                   r->nprof * sizeof *r->prof +
                   r->todo_cap * sizeof *r->todo + r->rcap * sizeof *r->rec;
    if (r->slot)
        bytes += (size_t)r->ncl * (sizeof *r->slot + 1);
    for (size_t i = 0; i < r->nrec; i++) {
        const nbi_rcluster *c = &r->rec[i];
        if (c->k != UINT32_MAX)
            bytes += c->nn * sizeof *c->cell + ((size_t)c->nn + 1) * sizeof *c->first +
                     c->first[c->nn] * (sizeof *c->arc + r->nprof * sizeof *c->pcost);
    }
    if (r->cs_ok) { /* the scratch of a flush */
        nbi_tr_opts o = {r->g.placement, r->g.spread, r->g.ncaps, r->g.nsizes, r->sizes};
        size_t nr = nbi_tr_max_runs(&o, n);
        bytes += nbi_csearch_bytes(&r->cs) + (size_t)2 * r->g.ncaps * n + 1 +
                 nr * (sizeof(nbi_tr_run) + sizeof(nbi_transition)) +
                 (size_t)4 * n * (sizeof *r->node + sizeof *r->targets) +
                 (size_t)n * n * (sizeof *r->local + ncombo) + ncombo * sizeof *r->group +
                 r->arcs_cap * sizeof(sarc);
    }
    return bytes;
}
