/* levels_build.c: the abstract graph's higher levels (formats/abstract.md,
 * section type 34), clusters of clusters as HPA* builds them (Botea,
 * Mueller and Schaeffer 2004, section 5), from the graph alone.
 *
 * Level j's clusters are squares of factor x factor clusters of level
 * j - 1.  Its nodes are some of level j - 1's nodes on its clusters'
 * borders, and its arcs are (1) some of level j - 1's arcs across those
 * borders and (2) for every two nodes of a cluster and every (capability,
 * size) served, the shortest path between them over level j - 1's graph
 * inside the cluster.
 *
 * Which crossings stay: HPA* takes every entrance again at each level; on
 * a big level that gives a cluster hundreds of nodes and its intra-edges
 * grow with their square.  Here a crossing of level j - 1 is redundant at
 * level j when another one of the same border admits the same agents and
 * joins the same two components (for that agent) of the two clusters'
 * insides: whatever path used the one can use the other, so the graph
 * stays complete.  Of each such group one crossing stays per 1/spacing of
 * the border (the one nearest the middle of its share), which keeps paths
 * from detouring far.
 *
 * Clusters and borders are units on the bake's threads (parallel.h); each
 * writes only its own result and the level is put together in cluster
 * order, so the bytes do not depend on the number of threads. */
#include <stdlib.h>

#include "abstract/abstract_build.h"
#include "abstract/alevels.h"

typedef struct lb_arc {
    uint64_t admit;    /* bit c: the arc admits class c (the classes below 64) */
    uint32_t to;       /* local node */
    uint32_t a;        /* the arc's number in level j - 1 */
    uint32_t card, diag;
    uint8_t cap, cv;
    uint8_t inside;    /* the target is in the cluster */
} lb_arc;

typedef struct lb_cand { /* a crossing of a border of level j, from level j - 1 */
    uint32_t pos;        /* along the border */
    uint32_t ua, ub;     /* local nodes on either side */
    uint32_t ida, idb;   /* their numbers in level 1 */
    uint8_t cap, cv, kept;
} lb_cand;

typedef struct lb_edge {
    uint32_t i, j;       /* nodes of the cluster (in its order) */
    uint32_t card, diag;
    uint32_t poff;       /* its path: count, then arcs, at poff in the cluster's (or the
                            worker's) path words; UINT32_MAX without */
    uint8_t cap, cv, alive;
} lb_edge;

typedef struct lb_cluster {
    uint32_t nloc;
    uint32_t *comp;      /* [class * nloc + local]: a component label */
    uint32_t nn;
    uint32_t *ids;       /* level j's nodes, level-1 numbers ascending */
    lb_edge *e;
    uint32_t ne;
    uint32_t *pw;        /* the alive edges' paths */
    uint32_t npw;
    uint32_t first, arc0, pw0; /* where its nodes, arcs and path words start in level j */
} lb_cluster;

typedef struct lb_border {
    lb_cand *c;
    uint32_t n;
} lb_border;

typedef struct lb_warc { /* an arc of level j as assemble writes it */
    uint32_t u, to, card, diag, poff;
    uint8_t cap, cv;
} lb_warc;

typedef struct lb_worker {
    nbb_arena arena;
    uint32_t *loc, *subfirst, *subbase;
    size_t loc_cap, sub_cap, sub_cap2;
    uint32_t *afirst;
    size_t afirst_cap;
    lb_arc *arc;
    size_t arc_cap;
    uint32_t *uf;
    size_t uf_cap;
    double *dist;
    uint32_t *dcard, *ddiag, *done, *target, *parc, *pnode;
    size_t d_cap;
    nbi_heap heap;
    int heap_ok;
    lb_cand *cand;
    size_t cand_cap;
    uint32_t *ids;
    size_t ids_cap;
    lb_edge *e;
    size_t e_cap;
    uint32_t *pw;
    size_t pw_cap;
    lb_warc *wa;
    size_t wa_cap;
    uint32_t stamp;
} lb_worker;

typedef struct lb_ctx {
    nbi_alevels *L;
    uint32_t j;          /* the level being built */
    uint32_t nclass;     /* ncaps x nsizes: class c is capability c / nsizes, size c % nsizes */
    int paths;           /* store each intra-edge's path over level j - 1 */
    uint8_t *sub;        /* [a * ncaps + b]: capability a within capability b */
    lb_cluster *cl;
    lb_border *bd;       /* [2k] right of cluster k, [2k + 1] below it */
    lb_worker *w;
    unsigned threads;
    uint8_t *out;        /* level j's arrays, while assemble writes them */
    const uint64_t *off;
} lb_ctx;

static uint32_t class_size(const lb_ctx *x, uint32_t c)
{
    return nbi_u32at(x->L->g->sizes, c % x->L->g->nsizes);
}
static int admits(const lb_ctx *x, uint8_t cap, uint8_t cv, uint32_t c)
{
    return x->sub[(size_t)cap * x->L->g->ncaps + c / x->L->g->nsizes] && cv >= class_size(x, c);
}

/* The same for a local arc, through its mask for the first 64 classes (the searches test it
 * for every arc they relax). */
static inline int arc_admits(const lb_ctx *x, const lb_arc *r, uint32_t c)
{
    return c < 64 ? (int)(r->admit >> c & 1u) : admits(x, r->cap, r->cv, c);
}

#define NOMEM(what) nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract levels (%s)", what)

/* The level j - 1 clusters inside level j's cluster k: w->subfirst[s] is
 * the first node of sub-cluster s (row-major inside k), w->subbase[s] its
 * first local number; returns the local node count, and the sub-clusters'
 * grid in *nsx (columns) and *sx0, *sy0 (the first's column and row). */
static int subclusters(const lb_ctx *x, uint32_t k, lb_worker *w, uint32_t *nloc, uint32_t *nsx,
                       uint32_t *sx0, uint32_t *sy0)
{
    const nbi_alevels *L = x->L;
    const nbi_alevel *up = &L->lv[x->j], *lo = &L->lv[x->j - 1];
    uint32_t m = L->factor, kx = k % up->ncx, ky = k / up->ncx;
    uint32_t x0 = kx * m, y0 = ky * m;
    uint32_t x1 = x0 + m < lo->ncx ? x0 + m : lo->ncx, y1 = y0 + m < lo->ncy ? y0 + m : lo->ncy;
    size_t ns = (size_t)(x1 - x0) * (y1 - y0);
    if (!nbi_grow(nbb_mem(), (void **)&w->subfirst, &w->sub_cap, ns + 1, sizeof *w->subfirst) ||
        !nbi_grow(nbb_mem(), (void **)&w->subbase, &w->sub_cap2, ns + 1, sizeof *w->subbase))
        return 0;
    uint32_t n = 0, s = 0;
    for (uint32_t cy = y0; cy < y1; cy++)
        for (uint32_t cx = x0; cx < x1; cx++, s++) {
            uint32_t first, cnt = nbi_lv_nodes(L, x->j - 1, cy * lo->ncx + cx, &first);
            w->subfirst[s] = first;
            w->subbase[s] = n;
            n += cnt;
        }
    w->subbase[ns] = n;
    *nloc = n;
    *nsx = x1 - x0;
    *sx0 = x0;
    *sy0 = y0;
    return 1;
}

/* The local number of level j - 1's node t (a number of that level) in
 * the cluster whose sub-clusters subclusters() described, or UINT32_MAX
 * when t lies outside it. */
static uint32_t local_of(const lb_ctx *x, const lb_worker *w, uint32_t t, uint32_t nsx,
                         uint32_t sx0, uint32_t sy0, const nbi_box *box)
{
    const nbi_alevels *L = x->L;
    nb_cell c = nbi_lv_cell(L, nbi_lv_id(L, x->j - 1, t));
    if (c.x < box->x0 || c.y < box->y0 || c.x >= box->x1 || c.y >= box->y1)
        return UINT32_MAX;
    uint32_t side = L->lv[x->j - 1].side;
    uint32_t s = ((uint32_t)c.y / side - sy0) * nsx + ((uint32_t)c.x / side - sx0);
    return w->subbase[s] + (t - w->subfirst[s]);
}

/* Level j - 1's graph inside level j's cluster k, in local numbers: nodes
 * w->loc[0 .. *nloc) (level j - 1 numbers), arcs w->arc[w->afirst[i] ..
 * w->afirst[i + 1]), those leaving the cluster marked. */
static int local_graph(const lb_ctx *x, uint32_t k, lb_worker *w, uint32_t *nloc)
{
    const nbi_alevels *L = x->L;
    const uint32_t lj = x->j - 1;
    uint32_t n, nsx, sx0, sy0;
    if (!subclusters(x, k, w, &n, &nsx, &sx0, &sy0))
        return 0;
    if (!nbi_grow(nbb_mem(), (void **)&w->loc, &w->loc_cap, (size_t)n + 1, sizeof *w->loc) ||
        !nbi_grow(nbb_mem(), (void **)&w->afirst, &w->afirst_cap, (size_t)n + 1, sizeof *w->afirst))
        return 0;
    nbi_box box = nbi_lv_box(L, x->j, k);
    uint32_t i = 0, na = 0;
    for (uint32_t s = 0; w->subbase[s] < n || i < n; s++)
        for (uint32_t u = w->subfirst[s]; i < w->subbase[s + 1]; u++)
            w->loc[i++] = u;
    for (i = 0; i < n; i++) {
        uint32_t a0, a1 = nbi_lv_arcs(L, lj, w->loc[i], &a0);
        w->afirst[i] = na;
        if (!nbi_grow(nbb_mem(), (void **)&w->arc, &w->arc_cap, (size_t)na + (a1 - a0), sizeof *w->arc))
            return 0;
        for (uint32_t a = a0; a < a1; a++) {
            lb_arc *r = &w->arc[na++];
            uint32_t t = nbi_lv_to(L, lj, a), lt = local_of(x, w, t, nsx, sx0, sy0, &box);
            const uint8_t *ann = nbi_lv_ann(L, lj, a);
            nbi_lv_w(L, lj, a, &r->card, &r->diag);
            r->a = a;
            r->cap = ann[0];
            r->cv = ann[1];
            r->admit = 0;
            for (uint32_t c = 0; c < x->nclass && c < 64; c++)
                r->admit |= (uint64_t)admits(x, r->cap, r->cv, c) << c;
            r->inside = lt != UINT32_MAX;
            r->to = r->inside ? lt : t;
        }
    }
    w->afirst[n] = na;
    *nloc = n;
    return 1;
}

static uint32_t uf_find(uint32_t *p, uint32_t i)
{
    while (p[i] != i) {
        p[i] = p[p[i]];
        i = p[i];
    }
    return i;
}

/* Unit of phase 1: cluster k's components for each class. */
static nb_status components(void *ctx, size_t k, unsigned wi, nb_err *err)
{
    lb_ctx *x = ctx;
    lb_worker *w = &x->w[wi];
    lb_cluster *c = &x->cl[k];
    uint32_t n;
    if (!local_graph(x, (uint32_t)k, w, &n))
        return NOMEM("a cluster's graph");
    c->nloc = n;
    c->comp = n ? nbb_arena_alloc(&w->arena, (size_t)x->nclass * n * sizeof *c->comp) : NULL;
    if (n && (!c->comp || !nbi_grow(nbb_mem(), (void **)&w->uf, &w->uf_cap, n, sizeof *w->uf)))
        return NOMEM("components");
    for (uint32_t cl = 0; cl < x->nclass; cl++) {
        for (uint32_t i = 0; i < n; i++)
            w->uf[i] = i;
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t a = w->afirst[i]; a < w->afirst[i + 1]; a++) {
                const lb_arc *r = &w->arc[a];
                if (!r->inside || !arc_admits(x, r, cl))
                    continue;
                uint32_t p = uf_find(w->uf, i), q = uf_find(w->uf, r->to);
                if (p != q)
                    w->uf[p > q ? p : q] = p < q ? p : q;
            }
        for (uint32_t i = 0; i < n; i++)
            c->comp[(size_t)cl * n + i] = uf_find(w->uf, i);
    }
    return NB_OK;
}

static int by_pos(const void *a, const void *b)
{
    const lb_cand *p = a, *q = b;
    if (p->pos != q->pos)
        return p->pos < q->pos ? -1 : 1;
    if (p->ida != q->ida)
        return p->ida < q->ida ? -1 : 1;
    if (p->idb != q->idb)
        return p->idb < q->idb ? -1 : 1;
    if (p->cap != q->cap)
        return p->cap < q->cap ? -1 : 1;
    return p->cv < q->cv ? -1 : p->cv > q->cv;
}

/* Unit of phase 2: which crossings of border bi stay (bi / 2 the cluster
 * on its left or above, bi odd: the border below it). */
static nb_status border(void *ctx, size_t bi, unsigned wi, nb_err *err)
{
    lb_ctx *x = ctx;
    lb_worker *w = &x->w[wi];
    const nbi_alevels *L = x->L;
    const nbi_alevel *up = &L->lv[x->j];
    uint32_t k = (uint32_t)(bi / 2), below = bi & 1;
    lb_border *bd = &x->bd[bi];
    bd->n = 0;
    if (below ? k / up->ncx + 1 >= up->ncy : k % up->ncx + 1 >= up->ncx)
        return NB_OK;
    uint32_t k2 = below ? k + up->ncx : k + 1;
    nbi_box box = nbi_lv_box(L, x->j, k), box2 = nbi_lv_box(L, x->j, k2);
    uint32_t n, n2, nsx2, sx2, sy2;
    size_t nc = 0;
    if (!local_graph(x, k, w, &n))
        return NOMEM("a border");
    /* The near side's crossings, then the far side's sub-clusters to number
     * their targets (local_of reads them). */
    for (uint32_t i = 0; i < n; i++) {
        nb_cell c = nbi_lv_cell(L, nbi_lv_id(L, x->j - 1, w->loc[i]));
        if (below ? c.y != box.y1 - 1 : c.x != box.x1 - 1)
            continue;
        for (uint32_t a = w->afirst[i]; a < w->afirst[i + 1]; a++) {
            const lb_arc *r = &w->arc[a];
            if (r->inside)
                continue;
            nb_cell t = nbi_lv_cell(L, nbi_lv_id(L, x->j - 1, r->to));
            if (t.x < box2.x0 || t.y < box2.y0 || t.x >= box2.x1 || t.y >= box2.y1)
                continue;
            if (!nbi_grow(nbb_mem(), (void **)&w->cand, &w->cand_cap, nc + 1, sizeof *w->cand))
                return NOMEM("a border");
            lb_cand *cd = &w->cand[nc++];
            cd->pos = below ? (uint32_t)(c.x - box.x0) : (uint32_t)(c.y - box.y0);
            cd->ua = i;
            cd->ub = r->to; /* a level j - 1 number until the far side is described */
            cd->ida = nbi_lv_id(L, x->j - 1, w->loc[i]);
            cd->idb = nbi_lv_id(L, x->j - 1, r->to);
            cd->cap = r->cap;
            cd->cv = r->cv;
            cd->kept = 0;
        }
    }
    if (!subclusters(x, k2, w, &n2, &nsx2, &sx2, &sy2))
        return NOMEM("a border");
    for (size_t i = 0; i < nc; i++)
        w->cand[i].ub = local_of(x, w, w->cand[i].ub, nsx2, sx2, sy2, &box2);
    nbi_sort(w->cand, nc, sizeof *w->cand, by_pos);
    const lb_cluster *ca = &x->cl[k], *cb = &x->cl[k2];
    uint32_t len = below ? (uint32_t)(box.x1 - box.x0) : (uint32_t)(box.y1 - box.y0);
    uint32_t share = nbi_alevel_share(L, x->j);
    for (uint32_t cl = 0; cl < x->nclass; cl++) {
        const uint32_t *pa = ca->comp + (size_t)cl * ca->nloc, *pb = cb->comp + (size_t)cl * cb->nloc;
        for (size_t i = 0; i < nc; i++) {
            lb_cand *ci = &w->cand[i];
            if (!admits(x, ci->cap, ci->cv, cl))
                continue;
            uint32_t seg = ci->pos / share;
            uint32_t s0 = seg * share, s1 = s0 + share < len ? s0 + share : len;
            double mid = (s0 + s1 - 1) / 2.0;
            /* The best of its group and share: nearest the middle, then first. */
            int best = 1, covered = 0;
            for (size_t q = 0; q < nc && (best || !covered); q++) {
                const lb_cand *cq = &w->cand[q];
                if (q == i || cq->pos / share != seg || !admits(x, cq->cap, cq->cv, cl) ||
                    pa[cq->ua] != pa[ci->ua] || pb[cq->ub] != pb[ci->ub])
                    continue;
                if (cq->kept)
                    covered = 1;
                double di = ci->pos > mid ? ci->pos - mid : mid - ci->pos;
                double dq = cq->pos > mid ? cq->pos - mid : mid - cq->pos;
                if (dq < di || (dq == di && q < i))
                    best = 0;
            }
            if (!covered && best)
                ci->kept = 1;
        }
    }
    uint32_t kept = 0;
    for (size_t i = 0; i < nc; i++)
        kept += w->cand[i].kept;
    bd->c = kept ? nbb_arena_alloc(&w->arena, kept * sizeof *bd->c) : NULL;
    if (kept && !bd->c)
        return NOMEM("a border");
    for (size_t i = 0; i < nc; i++)
        if (w->cand[i].kept)
            bd->c[bd->n++] = w->cand[i];
    return NB_OK;
}

static int by_u32(const void *a, const void *b)
{
    uint32_t p = *(const uint32_t *)a, q = *(const uint32_t *)b;
    return p < q ? -1 : p > q;
}

static void add_ids(lb_worker *w, const lb_border *bd, int far, size_t *n)
{
    if (!bd)
        return;
    for (uint32_t i = 0; i < bd->n; i++)
        w->ids[(*n)++] = far ? bd->c[i].idb : bd->c[i].ida;
}

/* The borders of level j's cluster k: right, below, left, above (NULL at
 * the map's edge). */
static const lb_border *side_border(const lb_ctx *x, uint32_t k, int s)
{
    const nbi_alevel *up = &x->L->lv[x->j];
    switch (s) {
    case 0: return k % up->ncx + 1 < up->ncx ? &x->bd[2 * (size_t)k] : NULL;
    case 1: return k / up->ncx + 1 < up->ncy ? &x->bd[2 * (size_t)k + 1] : NULL;
    case 2: return k % up->ncx ? &x->bd[2 * (size_t)(k - 1)] : NULL;
    default: return k >= up->ncx ? &x->bd[2 * (size_t)(k - up->ncx) + 1] : NULL;
    }
}

/* *p reallocated to n elements of size bytes; 0 (and *p as it was) without memory. */
static int resize(void **p, size_t n, size_t size)
{
    void *q = nbb_realloc(*p, n * size);
    if (q)
        *p = q;
    return q != NULL;
}

/* Room for searches over n local nodes; the stamps of new room are 0. */
static int search_room(lb_worker *w, uint32_t n)
{
    if (!w->heap_ok && !(w->heap_ok = nbi_heap_init(&w->heap, nbb_mem(), 256, NULL)))
        return 0;
    if (n <= w->d_cap)
        return 1;
    size_t cap = (size_t)n + n / 2;
    if (!resize((void **)&w->dist, cap, sizeof *w->dist) ||
        !resize((void **)&w->dcard, cap, sizeof *w->dcard) ||
        !resize((void **)&w->ddiag, cap, sizeof *w->ddiag) ||
        !resize((void **)&w->done, cap, sizeof *w->done) ||
        !resize((void **)&w->target, cap, sizeof *w->target) ||
        !resize((void **)&w->parc, cap, sizeof *w->parc) ||
        !resize((void **)&w->pnode, cap, sizeof *w->pnode))
        return 0;
    memset(w->done + w->d_cap, 0, (cap - w->d_cap) * sizeof *w->done);
    memset(w->target + w->d_cap, 0, (cap - w->d_cap) * sizeof *w->target);
    w->d_cap = cap;
    return 1;
}

/* Dijkstra over the local graph from local node s for class cl, until
 * every node marked in w->target (with the search's stamp) is settled. */
static void dijkstra(const lb_ctx *x, lb_worker *w, uint32_t n, uint32_t s, uint32_t cl,
                     uint32_t ntargets)
{
    uint32_t st = w->stamp;
    nbi_heap_clear(&w->heap);
    w->dist[s] = 0;
    w->dcard[s] = w->ddiag[s] = 0;
    w->done[s] = st * 2; /* seen, not settled */
    nbi_heap_push(&w->heap, 0, 0, s);
    while (!nbi_heap_empty(&w->heap) && ntargets) {
        nbi_heap_item it = nbi_heap_pop(&w->heap);
        uint32_t u = it.id;
        if (w->done[u] == st * 2 + 1 || it.key > w->dist[u])
            continue;
        w->done[u] = st * 2 + 1;
        if (w->target[u] == st)
            ntargets--;
        for (uint32_t a = w->afirst[u]; a < w->afirst[u + 1]; a++) {
            const lb_arc *r = &w->arc[a];
            if (!r->inside || !arc_admits(x, r, cl))
                continue;
            uint32_t v = r->to;
            double d = w->dist[u] + nbi_steps_length(r->card, r->diag);
            if (w->done[v] / 2 == st && (w->done[v] & 1u || d >= w->dist[v]))
                continue;
            w->done[v] = st * 2;
            w->dist[v] = d;
            w->dcard[v] = w->dcard[u] + r->card;
            w->ddiag[v] = w->ddiag[u] + r->diag;
            w->parc[v] = r->a;
            w->pnode[v] = u;
            nbi_heap_push(&w->heap, d, 0, v);
        }
    }
    (void)n;
}

static int by_pair(const void *a, const void *b)
{
    const lb_edge *p = a, *q = b;
    if (p->i != q->i)
        return p->i < q->i ? -1 : 1;
    if (p->j != q->j)
        return p->j < q->j ? -1 : 1;
    if (p->cap != q->cap)
        return p->cap < q->cap ? -1 : 1;
    if (p->cv != q->cv)
        return p->cv < q->cv ? -1 : 1;
    double wp = nbi_steps_length(p->card, p->diag), wq = nbi_steps_length(q->card, q->diag);
    if (wp != wq)
        return wp < wq ? -1 : 1;
    return p->card < q->card ? -1 : p->card > q->card;
}

/* e is no better than f for any agent: f admits every agent e admits
 * and weighs no more (ties: the earlier stays). */
static int dominated(const lb_ctx *x, const lb_edge *e, const lb_edge *f, int f_first)
{
    if (!x->sub[(size_t)f->cap * x->L->g->ncaps + e->cap] || f->cv < e->cv)
        return 0;
    double we = nbi_steps_length(e->card, e->diag), wf = nbi_steps_length(f->card, f->diag);
    if (wf > we)
        return 0;
    int same = wf == we && f->cap == e->cap && f->cv == e->cv;
    return !same || f_first;
}

/* Unit of phase 3: cluster k's nodes and intra-edges. */
static nb_status cluster(void *ctx, size_t k, unsigned wi, nb_err *err)
{
    lb_ctx *x = ctx;
    lb_worker *w = &x->w[wi];
    const nbi_alevels *L = x->L;
    lb_cluster *c = &x->cl[k];
    size_t nid = 0, room = 0;
    for (int s = 0; s < 4; s++) {
        const lb_border *bd = side_border(x, (uint32_t)k, s);
        room += bd ? bd->n : 0;
    }
    if (!nbi_grow(nbb_mem(), (void **)&w->ids, &w->ids_cap, room + 1, sizeof *w->ids))
        return NOMEM("a cluster's nodes");
    for (int s = 0; s < 4; s++)
        add_ids(w, side_border(x, (uint32_t)k, s), s >= 2, &nid);
    nbi_sort(w->ids, nid, sizeof *w->ids, by_u32);
    uint32_t nn = 0;
    for (size_t i = 0; i < nid; i++)
        if (i == 0 || w->ids[i] != w->ids[i - 1])
            w->ids[nn++] = w->ids[i];
    c->nn = nn;
    c->ids = nn ? nbb_arena_copy(&w->arena, w->ids, nn * sizeof *w->ids) : NULL;
    c->ne = 0;
    if (nn && !c->ids)
        return NOMEM("a cluster's nodes");
    if (nn < 2)
        return NB_OK;
    uint32_t n, nsx, sx0, sy0;
    if (!local_graph(x, (uint32_t)k, w, &n) || !subclusters(x, (uint32_t)k, w, &n, &nsx, &sx0, &sy0))
        return NOMEM("a cluster's graph");
    if (!search_room(w, n))
        return NOMEM("a cluster's searches");
    nbi_box box = nbi_lv_box(L, x->j, (uint32_t)k);
    /* Local numbers of the cluster's nodes, in the ids' order. */
    uint32_t *lnode = nbb_arena_alloc(&w->arena, nn * sizeof *lnode);
    if (!lnode)
        return NOMEM("a cluster's nodes");
    for (uint32_t i = 0; i < nn; i++)
        lnode[i] = local_of(x, w, (uint32_t)nbi_lv_index(L, x->j - 1, c->ids[i]), nsx, sx0, sy0, &box);
    size_t ne = 0, npw = 0;
    for (uint32_t cl = 0; cl < x->nclass; cl++)
        for (uint32_t i = 0; i + 1 < nn; i++) {
            if (++w->stamp >= 0x7fffffffu) {
                memset(w->done, 0, n * sizeof *w->done);
                memset(w->target, 0, n * sizeof *w->target);
                w->stamp = 1;
            }
            uint32_t nt = 0;
            for (uint32_t q = i + 1; q < nn; q++)
                if (w->target[lnode[q]] != w->stamp) {
                    w->target[lnode[q]] = w->stamp;
                    nt++;
                }
            dijkstra(x, w, n, lnode[i], cl, nt);
            for (uint32_t q = i + 1; q < nn; q++) {
                uint32_t v = lnode[q];
                if (w->done[v] != w->stamp * 2 + 1)
                    continue;
                if (!nbi_grow(nbb_mem(), (void **)&w->e, &w->e_cap, ne + 1, sizeof *w->e))
                    return NOMEM("a cluster's edges");
                lb_edge *e = &w->e[ne++];
                e->i = i;
                e->j = q;
                e->card = w->dcard[v];
                e->diag = w->ddiag[v];
                e->poff = UINT32_MAX;
                if (x->paths) { /* the arcs from node i to node q, in the worker's words */
                    uint32_t steps = 0;
                    for (uint32_t z = v; z != lnode[i]; z = w->pnode[z])
                        steps++;
                    if (!nbi_grow(nbb_mem(), (void **)&w->pw, &w->pw_cap, npw + 1 + steps,
                                  sizeof *w->pw))
                        return NOMEM("a cluster's paths");
                    e->poff = (uint32_t)npw;
                    w->pw[npw] = steps;
                    uint32_t at = steps;
                    for (uint32_t z = v; z != lnode[i]; z = w->pnode[z])
                        w->pw[npw + at--] = w->parc[z];
                    npw += 1 + steps;
                }
                e->cap = (uint8_t)(cl / L->g->nsizes);
                e->cv = (uint8_t)class_size(x, cl);
                e->alive = 1;
            }
        }
    /* Of a pair's edges, those another admits at least the agents of, no
     * heavier, go (a pair's edges are adjacent once sorted). */
    nbi_sort(w->e, ne, sizeof *w->e, by_pair);
    for (size_t g0 = 0, g1; g0 < ne; g0 = g1) {
        for (g1 = g0 + 1; g1 < ne && w->e[g1].i == w->e[g0].i && w->e[g1].j == w->e[g0].j; g1++)
            ;
        for (size_t a = g0; a < g1; a++)
            for (size_t b = g0; b < g1; b++)
                if (a != b && w->e[b].alive && dominated(x, &w->e[a], &w->e[b], b < a)) {
                    w->e[a].alive = 0;
                    break;
                }
    }
    uint32_t alive = 0;
    for (size_t a = 0; a < ne; a++)
        alive += w->e[a].alive;
    c->e = alive ? nbb_arena_alloc(&w->arena, alive * sizeof *c->e) : NULL;
    if (alive && !c->e)
        return NOMEM("a cluster's edges");
    size_t words = 0;
    for (size_t a = 0; a < ne; a++)
        if (w->e[a].alive && w->e[a].poff != UINT32_MAX)
            words += 1 + (size_t)w->pw[w->e[a].poff];
    c->pw = words ? nbb_arena_alloc(&w->arena, words * sizeof *c->pw) : NULL;
    if (words && !c->pw)
        return NOMEM("a cluster's paths");
    for (size_t a = 0; a < ne; a++)
        if (w->e[a].alive) {
            lb_edge *e = &c->e[c->ne++];
            *e = w->e[a];
            if (e->poff != UINT32_MAX) {
                size_t words1 = 1 + (size_t)w->pw[e->poff];
                memcpy(c->pw + c->npw, w->pw + e->poff, words1 * sizeof *c->pw);
                e->poff = c->npw;
                c->npw += (uint32_t)words1;
            }
        }
    return NB_OK;
}

static int by_warc(const void *a, const void *b)
{
    const lb_warc *p = a, *q = b;
    if (p->u != q->u)
        return p->u < q->u ? -1 : 1;
    if (p->to != q->to)
        return p->to < q->to ? -1 : 1;
    if (p->cap != q->cap)
        return p->cap < q->cap ? -1 : 1;
    if (p->cv != q->cv)
        return p->cv < q->cv ? -1 : 1;
    double wp = nbi_steps_length(p->card, p->diag), wq = nbi_steps_length(q->card, q->diag);
    if (wp != wq)
        return wp < wq ? -1 : 1;
    return p->card < q->card ? -1 : p->card > q->card;
}

/* The position of level-1 number id among cluster k's nodes (which hold it). */
static uint32_t find_id(const lb_cluster *c, uint32_t id)
{
    uint32_t lo = 0, hi = c->nn;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->ids[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The cluster at the other side of side s of cluster k. */
static uint32_t beyond(const lb_ctx *x, uint32_t k, int s)
{
    uint32_t ncx = x->L->lv[x->j].ncx;
    return s == 0 ? k + 1 : s == 1 ? k + ncx : s == 2 ? k - 1 : k - ncx;
}

/* Cluster k's nodes, arcs (sorted by node) and path words into level j's
 * arrays, at the places assemble gave it: a unit on the threads. */
static nb_status assemble_cluster(void *ctx, size_t k, unsigned worker, nb_err *err)
{
    lb_ctx *x = ctx;
    lb_worker *w = &x->w[worker];
    const lb_cluster *c = &x->cl[k];
    const uint64_t *off = x->off;
    uint8_t *p = x->out;
    size_t nw = 0, room = 2 * (size_t)c->ne;
    for (int s = 0; s < 4; s++) {
        const lb_border *bd = side_border(x, (uint32_t)k, s);
        room += bd ? bd->n : 0;
    }
    if (!nbi_grow(nbb_mem(), (void **)&w->wa, &w->wa_cap, room + 1, sizeof *w->wa))
        return NOMEM("a level");
    lb_warc *wa = w->wa;
    for (uint32_t i = 0; i < c->ne; i++) {
        const lb_edge *e = &c->e[i];
        uint32_t po = e->poff == UINT32_MAX ? UINT32_MAX : c->pw0 + e->poff;
        wa[nw++] = (lb_warc){e->i, c->first + e->j, e->card, e->diag, po, e->cap, e->cv};
        wa[nw++] = (lb_warc){e->j, c->first + e->i, e->card, e->diag, po, e->cap, e->cv};
    }
    for (uint32_t i = 0; x->paths && i < c->npw; i++)
        nbi_put32(p + off[8] + 4 * ((size_t)c->pw0 + i), c->pw[i]);
    for (int s = 0; s < 4; s++) {
        const lb_border *bd = side_border(x, (uint32_t)k, s);
        if (!bd)
            continue;
        const lb_cluster *c2 = &x->cl[beyond(x, (uint32_t)k, s)];
        for (uint32_t i = 0; i < bd->n; i++) {
            const lb_cand *cd = &bd->c[i];
            uint32_t mine = s < 2 ? cd->ida : cd->idb, other = s < 2 ? cd->idb : cd->ida;
            wa[nw++] = (lb_warc){find_id(c, mine), c2->first + find_id(c2, other), 1, 0,
                                 UINT32_MAX, cd->cap, cd->cv};
        }
    }
    nbi_sort(wa, nw, sizeof *wa, by_warc);
    uint32_t at = c->arc0;
    for (uint32_t i = 0, q = 0; i < c->nn; i++) {
        uint32_t u = c->first + i;
        nbi_put32(p + off[1] + 4 * (size_t)u, c->ids[i]);
        nbi_put32(p + off[2] + 4 * (size_t)u, at);
        for (; q < nw && wa[q].u == i; q++, at++) {
            nbi_put32(p + off[3] + 4 * (size_t)at, wa[q].to);
            nbi_put32(p + off[4] + 4 * (size_t)at, wa[q].card);
            nbi_put32(p + off[5] + 4 * (size_t)at, wa[q].diag);
            p[off[6] + 2 * (size_t)at] = wa[q].cap;
            p[off[6] + 2 * (size_t)at + 1] = wa[q].cv;
            if (x->paths)
                nbi_put32(p + off[7] + 4 * (size_t)at, wa[q].poff);
        }
    }
    return NB_OK;
}

/* Level j's arrays, laid out from offset 0, into *out (malloc'ed).  Where
 * each cluster's nodes, arcs and path words start follows from the counts
 * of the clusters before it, so the clusters then fill their places on the
 * threads, in any order. */
static nb_status assemble(lb_ctx *x, uint8_t **out, uint64_t *len, nb_err *err)
{
    nbi_alevels *L = x->L;
    nbi_alevel *v = &L->lv[x->j];
    uint64_t ncl = (uint64_t)v->ncx * v->ncy, nodes = 0, narcs = 0, ninter = 0, words = 0;
    for (uint64_t k = 0; k < ncl; k++) {
        lb_cluster *c = &x->cl[k];
        uint64_t arcs = 2 * (uint64_t)c->ne;
        for (int s = 0; s < 4; s++) {
            const lb_border *bd = side_border(x, (uint32_t)k, s);
            ninter += bd ? bd->n : 0;
            arcs += bd ? bd->n : 0;
        }
        c->first = (uint32_t)nodes;
        c->arc0 = (uint32_t)narcs;
        c->pw0 = (uint32_t)words;
        nodes += c->nn;
        narcs += arcs;
        words += c->npw;
    }
    if (nodes > UINT32_MAX || narcs > UINT32_MAX || words >= UINT32_MAX)
        return nbi_fail(err, NB_ERR_LIMIT, "abstract level %u: %llu nodes, %llu arcs: too many", x->j,
                        (unsigned long long)nodes, (unsigned long long)narcs);
    uint64_t off[10];
    nbi_alevel_layout(ncl, nodes, narcs, x->paths, words, 0, off);
    uint8_t *p = nbb_calloc(1, off[9] ? off[9] : 1);
    if (!p)
        return NOMEM("a level");
    for (uint64_t k = 0; k < ncl; k++)
        nbi_put32(p + off[0] + 4 * k, x->cl[k].first);
    nbi_put32(p + off[0] + 4 * ncl, (uint32_t)nodes);
    nbi_put32(p + off[2] + 4 * nodes, (uint32_t)narcs);
    x->out = p;
    x->off = off;
    nb_status st = nbb_par_for(x->threads, (size_t)ncl, assemble_cluster, x, err);
    x->out = NULL;
    x->off = NULL;
    if (st != NB_OK) {
        nbb_free(p);
        return st;
    }
    v->nnodes = (uint32_t)nodes;
    v->narcs = (uint32_t)narcs;
    v->ninter = (uint32_t)ninter;
    v->path_words = (uint32_t)words;
    nbi_alevel_place(v, p, off, x->paths);
    *out = p;
    *len = off[9];
    return NB_OK;
}

static void worker_free(lb_worker *w)
{
    nbb_arena_free(&w->arena);
    nbb_free(w->loc);
    nbb_free(w->subfirst);
    nbb_free(w->subbase);
    nbb_free(w->afirst);
    nbb_free(w->arc);
    nbb_free(w->uf);
    nbb_free(w->dist);
    nbb_free(w->dcard);
    nbb_free(w->ddiag);
    nbb_free(w->done);
    nbb_free(w->target);
    if (w->heap_ok)
        nbi_heap_free(&w->heap);
    nbb_free(w->cand);
    nbb_free(w->ids);
    nbb_free(w->e);
    nbb_free(w->pw);
    nbb_free(w->wa);
    nbb_free(w->parc);
    nbb_free(w->pnode);
}

/* Builds level j of L from level j - 1 into *out. */
static nb_status build_level(nbi_alevels *L, uint32_t j, unsigned threads, uint8_t **out,
                             uint64_t *len, nb_err *err)
{
    const nbi_agraph *g = L->g;
    nbi_alevel *v = &L->lv[j], *lo = &L->lv[j - 1];
    memset(v, 0, sizeof *v);
    v->side = lo->side * L->factor;
    v->ncx = (lo->ncx + L->factor - 1) / L->factor;
    v->ncy = (lo->ncy + L->factor - 1) / L->factor;
    lb_ctx x;
    memset(&x, 0, sizeof x);
    x.L = L;
    x.j = j;
    x.nclass = g->ncaps * g->nsizes;
    x.paths = (L->flags & NBI_ALEVELS_PATHS) != 0;
    x.threads = threads;
    size_t ncl = (size_t)v->ncx * v->ncy;
    x.sub = nbb_malloc((size_t)g->ncaps * g->ncaps);
    x.cl = nbb_calloc(ncl, sizeof *x.cl);
    x.bd = nbb_calloc(2 * ncl, sizeof *x.bd);
    x.w = nbb_calloc(threads, sizeof *x.w);
    nb_status st = NB_OK;
    if (!x.sub || !x.cl || !x.bd || !x.w)
        st = NOMEM("a level");
    for (uint32_t a = 0; st == NB_OK && a < g->ncaps; a++)
        for (uint32_t b = 0; b < g->ncaps; b++)
            x.sub[(size_t)a * g->ncaps + b] = (nbi_u32at(g->caps, a) & ~nbi_u32at(g->caps, b)) == 0;
    if (st == NB_OK)
        st = nbb_par_for(threads, ncl, components, &x, err);
    if (st == NB_OK)
        st = nbb_par_for(threads, 2 * ncl, border, &x, err);
    if (st == NB_OK)
        st = nbb_par_for(threads, ncl, cluster, &x, err);
    if (st == NB_OK)
        st = assemble(&x, out, len, err);
    if (x.w)
        for (unsigned t = 0; t < threads; t++)
            worker_free(&x.w[t]);
    nbb_free(x.w);
    nbb_free(x.cl);
    nbb_free(x.bd);
    nbb_free(x.sub);
    return st;
}

uint32_t nbb_levels_default(uint32_t width, uint32_t height, uint32_t cluster, uint32_t factor)
{
    uint32_t side = width > height ? width : height;
    if (side <= 1024 || cluster == 0 || factor < 2)
        return 1;
    uint32_t levels = 1;
    for (uint64_t n = ((uint64_t)side + cluster - 1) / cluster; n > 32 && levels < NBI_LEVELS_MAX;
         n = (n + factor - 1) / factor)
        levels++;
    return levels;
}

nb_status nbb_levels_bake(const uint8_t *graph, size_t glen, uint32_t width, uint32_t height,
                          const nbb_levels_opts *o, uint8_t **payload, size_t *len, nb_err *err)
{
    *payload = NULL;
    *len = 0;
    if (o->levels < 2 || o->levels > NBI_LEVELS_MAX || o->factor < 2 ||
        o->factor > NBI_LEVEL_FACTOR_MAX || o->spacing < 1 || o->spacing > 64 || o->share > 65535 ||
        o->landmarks > NBI_LANDMARKS_MAX)
        return nbi_fail(err, NB_ERR_ARG,
                        "abstract levels: %u levels (2 to %d), factor %u (2 to %d), spacing %u (1 "
                        "to 64), share %u (0 to 65535), %u landmarks (0 to %d)",
                        o->levels, NBI_LEVELS_MAX, o->factor, NBI_LEVEL_FACTOR_MAX, o->spacing,
                        o->share, o->landmarks, NBI_LANDMARKS_MAX);
    nbi_agraph g;
    nb_status st = nbi_agraph_view(graph, glen, width, height, &g, err);
    if (st != NB_OK)
        return st;
    nbi_alevels *L = nbb_calloc(1, sizeof *L);
    uint8_t *block[NBI_LEVELS_MAX + 1] = {0};
    uint64_t blen[NBI_LEVELS_MAX + 1] = {0};
    if (!L)
        return NOMEM("the levels");
    nbi_alevels_base(L, &g);
    L->nlevels = o->levels;
    L->factor = o->factor;
    L->spacing = o->spacing;
    L->share = o->share;
    L->flags = (g.flags & NBI_AGRAPH_PATHS) ? NBI_ALEVELS_PATHS : 0;
    unsigned threads = nbb_threads_resolve(o->threads);
    uint64_t total = NBI_ALEVELS_HEADER + (uint64_t)NBI_ALEVELS_RECORD * (o->levels - 1);
    for (uint32_t j = 2; j <= o->levels && st == NB_OK; j++) {
        st = build_level(L, j, threads, &block[j], &blen[j], err);
        total += blen[j];
    }
    /* The top level's landmarks, at most one a node. */
    uint32_t top_nodes = st == NB_OK ? L->lv[o->levels].nnodes : 0;
    uint32_t nl = o->landmarks < top_nodes ? o->landmarks : top_nodes;
    uint64_t lm[3];
    nbi_landmarks_layout(nl, top_nodes, total, lm);
    if (nl)
        total = lm[2];
    uint8_t *p = st == NB_OK ? nbb_calloc(1, total) : NULL;
    if (st == NB_OK && !p)
        st = NOMEM("the levels");
    if (st == NB_OK) {
        uint32_t h[NBI_AL_WORDS] = {0};
        h[NBI_AL_WIDTH] = width;
        h[NBI_AL_HEIGHT] = height;
        h[NBI_AL_LEVELS] = o->levels;
        h[NBI_AL_FACTOR] = o->factor;
        h[NBI_AL_CLUSTER] = g.cluster;
        h[NBI_AL_NCAPS] = g.ncaps;
        h[NBI_AL_NSIZES] = g.nsizes;
        h[NBI_AL_GRAPH_CRC] = nbb_crc32_threads(0, graph, glen, threads);
        h[NBI_AL_GRAPH_NODES] = g.nnodes;
        h[NBI_AL_SPACING] = o->spacing;
        h[NBI_AL_SHARE] = o->share;
        h[NBI_AL_FLAGS] = L->flags;
        h[NBI_AL_LANDMARKS] = o->landmarks; /* asked: the top level has nl */
        for (int i = 0; i < NBI_AL_WORDS; i++)
            nbi_put32(p + 4 * i, h[i]);
        uint64_t at = NBI_ALEVELS_HEADER + (uint64_t)NBI_ALEVELS_RECORD * (o->levels - 1);
        for (uint32_t j = 2; j <= o->levels; j++) {
            uint8_t *r = p + NBI_ALEVELS_HEADER + (size_t)NBI_ALEVELS_RECORD * (j - 2);
            nbi_put32(r + 4 * NBI_ALR_NCX, L->lv[j].ncx);
            nbi_put32(r + 4 * NBI_ALR_NCY, L->lv[j].ncy);
            nbi_put32(r + 4 * NBI_ALR_NODES, L->lv[j].nnodes);
            nbi_put32(r + 4 * NBI_ALR_ARCS, L->lv[j].narcs);
            nbi_put32(r + 4 * NBI_ALR_INTER, L->lv[j].ninter);
            nbi_put32(r + 4 * NBI_ALR_PATH_WORDS, L->lv[j].path_words);
            memcpy(p + at, block[j], blen[j]);
            at += blen[j];
        }
        st = nbb_landmarks_build(L, nl, NBI_ALEVELS_VERSION, p + lm[0], p + lm[1], err);
    }
    if (st == NB_OK) {
        *payload = p;
        *len = (size_t)total;
    } else {
        nbb_free(p);
    }
    for (uint32_t j = 0; j <= NBI_LEVELS_MAX; j++)
        nbb_free(block[j]);
    nbb_free(L);
    return st;
}

int nbb_levels_baked_with(const void *payload, size_t len, const nbb_levels_opts *o)
{
    const uint8_t *p = payload;
    return len >= NBI_ALEVELS_HEADER && nbi_get32(p + 4 * NBI_AL_LEVELS) == o->levels &&
           nbi_get32(p + 4 * NBI_AL_FACTOR) == o->factor &&
           nbi_get32(p + 4 * NBI_AL_SPACING) == o->spacing &&
           nbi_get32(p + 4 * NBI_AL_SHARE) == o->share &&
           nbi_get32(p + 4 * NBI_AL_LANDMARKS) == o->landmarks;
}

void nbb_levels_info(const uint8_t *payload, size_t len, nb_section_info *info)
{
    memset(info, 0, sizeof *info);
    info->type = NB_SEC_ABSTRACT_LEVELS;
    info->version = NBI_ALEVELS_VERSION;
    info->encoding = NB_ENC_RAW;
    uint32_t levels = nbi_get32(payload + 4 * NBI_AL_LEVELS);
    info->param[0] = levels;
    info->param[1] = nbi_get32(payload + 4 * NBI_AL_FACTOR);
    info->param[2] = nbi_get32(payload + 4 * NBI_AL_GRAPH_CRC);
    uint64_t nodes = 0, arcs = 0;
    for (uint32_t j = 2; j <= levels; j++) {
        const uint8_t *r = payload + NBI_ALEVELS_HEADER + (size_t)NBI_ALEVELS_RECORD * (j - 2);
        nodes += nbi_get32(r + 4 * NBI_ALR_NODES);
        arcs += nbi_get32(r + 4 * NBI_ALR_ARCS);
    }
    info->param[3] = (uint32_t)nodes;
    info->param[4] = (uint32_t)arcs;
    (void)len;
}

nb_status nbb_levels_put(nbb_builder *w, const uint8_t *graph, size_t glen, uint32_t width,
                         uint32_t height, const nbb_levels_opts *o, int compress, nb_err *err)
{
    nbb_builder_remove(w, NB_SEC_ABSTRACT_LEVELS);
    if (o->levels <= 1)
        return NB_OK;
    uint8_t *payload;
    size_t len;
    nb_status st = nbb_levels_bake(graph, glen, width, height, o, &payload, &len, err);
    if (st != NB_OK)
        return st;
    nb_section_info info;
    nbb_levels_info(payload, len, &info);
    return nbb_builder_add_owned(w, &info, payload, len, compress, err);
}
