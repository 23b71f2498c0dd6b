/* forest_search.c: A* among round obstacles, on a baked bitangent graph
 * (nb_forest_find) or generating the edges as it goes (the deferred search,
 * the article's neighbors() scheme).
 *
 * A node is a tangent point u with the sense in which the path goes round
 * its circle there.  Every tangent point is one end of one bitangent, and
 * a path taking that bitangent away from the circle leaves in one sense
 * (the node's departure sense, stored) while a path arriving along it goes
 * round the other way.  So each point gives two oriented states: arrival
 * (2u) and departure (2u + 1).  Edges:
 *   departure u -> arrival of u's partner: the bitangent, a straight segment;
 *   arrival u -> departure w on the same circle, where w's departure sense
 *   is u's arrival sense: the hugging arc in that sense, when no other
 *   circle cuts it.
 * An arc that would turn back (a cusp) is never an edge: the sense never
 * changes on a circle.  The start is a departure state and the goal an
 * arrival state; their tangents to the circles are made for each query.
 *
 * The heuristic is the straight-line distance to the goal; a departure
 * state, whose one way on is its bitangent, is valued from the
 * bitangent's far end (the bitangent plus the straight line from there),
 * which is still consistent.  Lines of sight are tested lazily: the
 * tangents from the start when the search takes one, the tangents to the
 * goal and (deferred) the bitangents when the search would leave along
 * them.  A state is taken from the open list at most once, so each test
 * is made at most once per query.  NB_FOREST_PLAIN gives the article's
 * scheme as it stands, for comparison. */
#include <math.h>
#include <stdlib.h>

#include "forest/forest.h"
#include "core/heap.h"
#include "core/base.h"

#define NONE UINT32_MAX

/* A tangent point made during a query: the tangents of start and goal,
 * and every bitangent of the deferred search.  Nodes 0 and 1 are the
 * start and the goal themselves. */
typedef struct dnode {
    nb_vec2 p;
    double angle;
    uint32_t circle;  /* NONE for start and goal */
    uint32_t partner; /* the other end, as a node index (see sctx) */
    uint32_t next;    /* the next node made on the same circle, or NONE */
    uint8_t sense;    /* departure sense */
    uint8_t los;      /* deferred bitangents: 0 untested, 1 clear, 2 blocked */
    uint8_t stand_in; /* stands for the start's two tangents to circle aux */
    uint32_t aux;
} dnode;

enum { OPENED = 1, GOAL_TANGENTS = 2 };

typedef struct cstate {
    uint32_t stamp; /* == ws->gen when the rest is this query's */
    uint32_t flags;
    uint32_t head;  /* first dnode on the circle, or NONE */
    uint32_t arc0, narcs; /* deferred: its free arcs in ws->arcs */
} cstate;

/* One query.  Node indices: 0 .. m - 1 the baked graph's nodes, m + k the
 * dnode k; so S = m and G = m + 1. */
typedef struct sctx {
    nb_forest_ws *ws;
    const nb_circle *c;
    size_t n;
    const nbi_cgrid *grid;
    double eps;
    const nbi_fgraph *bg; /* NULL for the deferred search */
    uint32_t m, S, G;
    nb_vec2 s, t;
    unsigned flags;
    nb_forest_result *path;
} sctx;

enum { IDLE, RUNNING, DONE };

struct nb_forest_ws {
    const nb_forest *forest;
    nb_allocator alloc;
    const nb_allocator *a; /* &alloc, or NULL for the C library's */
    dnode *dn;
    size_t ndn, dncap;
    /* Per state: g, parent state, stamp (== gen when g and parent are this
     * query's), closed, and the heap's positions. */
    double *g;
    uint32_t *parent, *stamp, *hpos;
    uint8_t *closed;
    size_t scap;
    uint32_t gen;
    nbi_heap heap;
    cstate *cs;
    size_t cscap;
    /* Free arcs: the deferred search's per circle, or one circle's copy. */
    nbi_free_arc *arcs;
    size_t narcs, arcscap;
    /* The deferred search's inflated forest. */
    nb_circle *infl;
    nbi_cgrid grid;
    double *iv;
    uint32_t *near;
    uint8_t *seen;
    size_t ncap; /* of infl, iv (twice), near and seen */
    nb_segment *segs;
    uint32_t *chain;
    size_t pcap;
    /* The query under way (nb_forest_begin .. _finish): its context, its
     * result so far, its phase, the expanded state nearest the goal (the
     * end of a partial path) and the node cap. */
    sctx x;
    nb_forest_query q;
    nb_forest_result res;
    int phase;
    uint32_t best;
    double best_d;
    uint64_t max_nodes;
    int capped;
};

/* ---- memory ---- */

/* Reallocates n parallel arrays to ncap elements each (size[i] bytes an
 * element); 0 when any fails, each array then valid at its old size or
 * larger. */
static int grow_all(const nb_allocator *a, void **const *arr, const size_t *size, int n, size_t ncap)
{
    int ok = 1;
    for (int i = 0; i < n; i++) {
        void *q = nbi_realloc_array(a, *arr[i], ncap, size[i]);
        if (q)
            *arr[i] = q;
        else
            ok = 0;
    }
    return ok;
}

static size_t grown(size_t cap, size_t need)
{
    size_t ncap = cap ? cap : 64;
    while (ncap < need)
        ncap *= 2;
    return ncap;
}

static int grow_states(nb_forest_ws *ws, size_t need)
{
    if (need <= ws->scap)
        return 1;
    size_t ncap = grown(ws->scap, need);
    void **const arr[] = {(void **)&ws->g, (void **)&ws->parent, (void **)&ws->stamp,
                          (void **)&ws->hpos, (void **)&ws->closed};
    const size_t size[] = {sizeof *ws->g, sizeof *ws->parent, sizeof *ws->stamp, sizeof *ws->hpos,
                           sizeof *ws->closed};
    int ok = grow_all(ws->a, arr, size, 5, ncap);
    ws->heap.pos = ws->hpos;
    if (!ok)
        return 0;
    for (size_t i = ws->scap; i < ncap; i++) {
        ws->stamp[i] = 0;
        ws->hpos[i] = NBI_HEAP_NONE;
    }
    ws->scap = ncap;
    return 1;
}

static int grow_circles(nb_forest_ws *ws, size_t n)
{
    size_t old = ws->cscap;
    if (!nbi_grow(ws->a, (void **)&ws->cs, &ws->cscap, n, sizeof *ws->cs))
        return 0;
    for (size_t i = old; i < ws->cscap; i++)
        ws->cs[i].stamp = 0;
    return 1;
}

/* The path's segments and the chain of states it is made from. */
static int grow_path(nb_forest_ws *ws, size_t need)
{
    if (need <= ws->pcap)
        return 1;
    size_t ncap = grown(ws->pcap, need);
    void **const arr[] = {(void **)&ws->segs, (void **)&ws->chain};
    const size_t size[] = {sizeof *ws->segs, sizeof *ws->chain};
    if (!grow_all(ws->a, arr, size, 2, ncap))
        return 0;
    ws->pcap = ncap;
    return 1;
}

/* What the deferred search needs per circle of an n-circle forest. */
static int grow_scratch(nb_forest_ws *ws, size_t n)
{
    if (n + 1 <= ws->ncap)
        return 1;
    void **const arr[] = {(void **)&ws->infl, (void **)&ws->iv, (void **)&ws->near,
                          (void **)&ws->seen};
    const size_t size[] = {sizeof *ws->infl, 2 * sizeof *ws->iv, sizeof *ws->near, 1};
    if (!grow_all(ws->a, arr, size, 4, n + 1))
        return 0;
    memset(ws->seen, 0, n + 1);
    ws->ncap = n + 1;
    return 1;
}

/* What a baked query needs: its nodes (per circle a stand-in and two
 * tangents for the start, two tangents for the goal), the states, and a
 * path that goes round each circle at most once (a shortest path among
 * convex obstacles touches each in one arc). */
static int reserve(nb_forest_ws *ws, size_t m, size_t n)
{
    size_t dn = 2 + 5 * n;
    return nbi_grow(ws->a, (void **)&ws->dn, &ws->dncap, dn, sizeof *ws->dn) &&
           grow_states(ws, 2 * (m + dn)) && grow_circles(ws, n) && grow_path(ws, 2 * n + 4) &&
           nbi_grow(ws->a, (void **)&ws->arcs, &ws->arcscap, n + 1, sizeof *ws->arcs);
}

nb_status nb_forest_ws_open(const nb_forest *f, nb_forest_ws **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_forest_ws_open: no place for the workspace");
    *out = NULL;
    if (!f)
        return nbi_fail(err, NB_ERR_ARG, "nb_forest_ws_open: forest is NULL");
    const nb_allocator *a = f->a;
    nb_forest_ws *ws = nbi_zalloc_array(a, 1, sizeof *ws);
    if (!ws)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a forest query workspace");
    if (a) { /* a copy: the workspace may outlive a forest made by the program */
        ws->alloc = *a;
        ws->a = &ws->alloc;
    }
    ws->forest = f;
    ws->grid.a = ws->a;
    if (!nbi_heap_init(&ws->heap, ws->a, 64, NULL))
        goto nomem;
    size_t m = 0, n = f->n;
    for (unsigned k = 0; k < f->ngraphs; k++)
        if (f->graph[k].nodes > m)
            m = f->graph[k].nodes;
    if (!reserve(ws, m, n))
        goto nomem;
    /* The heap holds each state at most once. */
    nbi_heap_free(&ws->heap);
    if (!nbi_heap_init(&ws->heap, ws->a, ws->scap, ws->hpos))
        goto nomem;
    *out = ws;
    nbi_ok(err);
    return NB_OK;
nomem:
    nb_forest_ws_close(ws);
    return nbi_fail(err, NB_ERR_NOMEM, "no memory for a forest query workspace");
}

void nb_forest_ws_close(nb_forest_ws *ws)
{
    if (!ws)
        return;
    nbi_free(ws->a, ws->dn);
    nbi_free(ws->a, ws->g);
    nbi_free(ws->a, ws->parent);
    nbi_free(ws->a, ws->stamp);
    nbi_free(ws->a, ws->hpos);
    nbi_free(ws->a, ws->closed);
    nbi_heap_free(&ws->heap);
    nbi_free(ws->a, ws->cs);
    nbi_free(ws->a, ws->arcs);
    nbi_free(ws->a, ws->infl);
    nbi_cgrid_free(&ws->grid);
    nbi_free(ws->a, ws->iv);
    nbi_free(ws->a, ws->near);
    nbi_free(ws->a, ws->seen);
    nbi_free(ws->a, ws->segs);
    nbi_free(ws->a, ws->chain);
    nb_allocator copy = ws->alloc; /* ws->a points into ws */
    nbi_free(ws->a ? &copy : NULL, ws);
}

/* ---- nodes ---- */

static inline const uint8_t *brec(const sctx *x, uint32_t u)
{
    return x->bg->node + (size_t)u * NBI_BITANGENT_NODE;
}

static inline nb_vec2 npos(const sctx *x, uint32_t u)
{
    if (u < x->m)
        return (nb_vec2){nbi_getf64(brec(x, u) + NBI_BT_N_X), nbi_getf64(brec(x, u) + NBI_BT_N_Y)};
    return x->ws->dn[u - x->m].p;
}

static inline double nangle(const sctx *x, uint32_t u)
{
    return u < x->m ? nbi_getf64(brec(x, u) + NBI_BT_N_ANGLE) : x->ws->dn[u - x->m].angle;
}

static inline uint32_t ncircle(const sctx *x, uint32_t u)
{
    return u < x->m ? nbi_get32(brec(x, u) + NBI_BT_N_CIRCLE) >> 1 : x->ws->dn[u - x->m].circle;
}

static inline unsigned nsense(const sctx *x, uint32_t u)
{
    return u < x->m ? nbi_get32(brec(x, u) + NBI_BT_N_CIRCLE) & 1u : x->ws->dn[u - x->m].sense;
}

static inline uint32_t npartner(const sctx *x, uint32_t u)
{
    return u < x->m ? nbi_get32(brec(x, u) + NBI_BT_N_PARTNER) : x->ws->dn[u - x->m].partner;
}

static double dist(nb_vec2 a, nb_vec2 b)
{
    double dx = b.x - a.x, dy = b.y - a.y;
    return sqrt(dx * dx + dy * dy);
}

static cstate *circle_state(sctx *x, uint32_t c)
{
    cstate *cs = &x->ws->cs[c];
    if (cs->stamp != x->ws->gen) {
        cs->stamp = x->ws->gen;
        cs->flags = 0;
        cs->head = NONE;
        cs->narcs = 0;
    }
    return cs;
}

/* A new dnode, linked on its circle; NONE when out of memory. */
static uint32_t add_node(sctx *x, nb_vec2 p, double angle, uint32_t circle, unsigned sense,
                         uint32_t partner)
{
    nb_forest_ws *ws = x->ws;
    if (!nbi_grow(ws->a, (void **)&ws->dn, &ws->dncap, ws->ndn + 1, sizeof *ws->dn) ||
        !grow_states(ws, 2 * (x->m + ws->ndn + 1)))
        return NONE;
    dnode *d = &ws->dn[ws->ndn];
    d->p = p;
    d->angle = angle;
    d->circle = circle;
    d->partner = partner;
    d->sense = (uint8_t)sense;
    d->los = 0;
    d->stand_in = 0;
    d->next = NONE;
    if (circle != NONE) {
        cstate *cs = circle_state(x, circle);
        d->next = cs->head;
        cs->head = (uint32_t)ws->ndn;
    }
    return x->m + (uint32_t)ws->ndn++;
}

/* ---- the open list ---- */

static inline void touch(nb_forest_ws *ws, uint32_t id)
{
    if (ws->stamp[id] != ws->gen) {
        ws->stamp[id] = ws->gen;
        ws->g[id] = INFINITY;
        ws->parent[id] = NONE;
        ws->closed[id] = 0;
    }
}

static int relax(sctx *x, uint32_t id, double g, uint32_t parent)
{
    nb_forest_ws *ws = x->ws;
    touch(ws, id);
    if (ws->closed[id] || !(g < ws->g[id]))
        return 1;
    if (ws->max_nodes && x->path->generated >= ws->max_nodes) {
        ws->capped = 1; /* the caller's cap, not memory: the search ends at its limit */
        return 0;
    }
    ws->g[id] = g;
    ws->parent[id] = parent;
    uint32_t u = id >> 1;
    double h;
    if (u == x->G)
        h = 0;
    else if (u == x->S)
        h = dist(x->s, x->t);
    else if ((id & 1) && !(x->flags & NB_FOREST_PLAIN)) {
        /* A departure has one way on, its bitangent: the distance to the
         * goal from the bitangent's far end, plus the bitangent, is still
         * a lower bound and consistent (it is the next state's value plus
         * the edge), and it leaves bitangents that lead away from the goal
         * at the back of the open list, their sight never tested. */
        uint32_t v = npartner(x, u);
        nb_vec2 a = npos(x, u), b = v == x->G ? x->t : npos(x, v);
        h = dist(a, b) + dist(b, x->t);
    } else {
        h = dist(npos(x, u), x->t);
    }
    x->path->generated++;
    return nbi_heap_push(&ws->heap, g + h, -g, id);
}

/* ---- neighbours ---- */

static nb_vec2 spos(const sctx *x, uint32_t u)
{
    return u == x->S ? x->s : u == x->G ? x->t : npos(x, u);
}

/* The start's two tangents to circle ci, reached from state id. */
static int start_tangents(sctx *x, uint32_t ci, uint32_t id)
{
    nbi_ptangent pt[2];
    int k = nbi_point_tangents(x->s, &x->c[ci], x->eps, pt);
    for (int j = 0; j < k; j++) {
        uint32_t t = add_node(x, pt[j].p, pt[j].angle, ci, !pt[j].sense, x->S);
        if (t == NONE || !relax(x, 2 * t, dist(x->s, pt[j].p), id))
            return 0;
    }
    return 1;
}

/* The start: straight to the goal when it is in sight, and to both
 * tangent points of every circle.  Those are made only when the search
 * gets near them: each circle first has a stand-in on the open list keyed
 * by a lower bound of its tangents' f (the tangent's exact length plus the
 * distance from the circle to the goal), which costs a square root where
 * the tangents cost trigonometry; far circles are never worked out. */
static int expand_start(sctx *x, uint32_t id)
{
    nb_forest_ws *ws = x->ws;
    x->path->los_tests++;
    if (nbi_los(x->grid, x->c, x->s, x->t, NONE, NONE, x->eps) &&
        !relax(x, 2 * x->G, dist(x->s, x->t), id))
        return 0;
    for (size_t i = 0; i < x->n && (x->flags & NB_FOREST_PLAIN); i++)
        if (!start_tangents(x, (uint32_t)i, id))
            return 0;
    for (size_t i = 0; i < x->n && !(x->flags & NB_FOREST_PLAIN); i++) {
        const nb_circle *c = &x->c[i];
        nb_vec2 centre = {c->x, c->y};
        double ds = dist(x->s, centre), dt = dist(centre, x->t) - c->r;
        double g = ds > c->r ? sqrt(ds * ds - c->r * c->r) : 0;
        uint32_t u = add_node(x, x->s, 0, NONE, 0, NONE);
        if (u == NONE)
            return 0;
        ws->dn[u - x->m].stand_in = 1;
        ws->dn[u - x->m].aux = (uint32_t)i;
        uint32_t sid = 2 * u + 1;
        touch(ws, sid);
        ws->g[sid] = 0;
        ws->parent[sid] = id;
        x->path->generated++;
        if (!nbi_heap_push(&ws->heap, g + (dt > 0 ? dt : 0), 0, sid))
            return 0;
    }
    return 1;
}

static int expand_stand_in(sctx *x, uint32_t id, uint32_t u)
{
    return start_tangents(x, x->ws->dn[u - x->m].aux, id);
}

/* Leaving along u's bitangent (or tangent to the goal). */
static int expand_departure(sctx *x, uint32_t id, uint32_t u)
{
    nb_forest_ws *ws = x->ws;
    uint32_t v = npartner(x, u);
    nb_vec2 a = npos(x, u), b = spos(x, v);
    if (u >= x->m) {
        /* Not baked: test its sight now (once for both ends). */
        dnode *d = &ws->dn[u - x->m];
        if (d->los == 0) {
            x->path->los_tests++;
            d->los = nbi_los(x->grid, x->c, a, b, d->circle, v == x->G ? NONE : ncircle(x, v), x->eps)
                         ? 1 : 2;
            if (v >= x->m && v != x->G)
                ws->dn[v - x->m].los = d->los;
        }
        if (d->los == 2)
            return 1;
    }
    if (!(x->flags & NB_FOREST_NO_PRUNE)) {
        /* The transition before: from the departure two states back to the
         * arrival that led here. */
        uint32_t arr = ws->parent[id], dep = arr == NONE ? NONE : ws->parent[arr];
        if (dep != NONE &&
            nbi_segments_cross(spos(x, dep >> 1), spos(x, arr >> 1), a, b, x->eps)) {
            x->path->pruned++;
            return 1;
        }
    }
    return relax(x, 2 * v, ws->g[id] + dist(a, b), id);
}

/* The deferred search reaches circle ci for the first time: its free
 * arcs, and its bitangents to every circle not opened yet (those opened
 * before made theirs to this one). */
static int open_circle(sctx *x, uint32_t ci)
{
    nb_forest_ws *ws = x->ws;
    cstate *cs = circle_state(x, ci);
    cs->flags |= OPENED;
    x->path->circles_opened++;
    if (!nbi_grow(ws->a, (void **)&ws->arcs, &ws->arcscap, ws->narcs + x->n + 1, sizeof *ws->arcs))
        return 0;
    cs->arc0 = (uint32_t)ws->narcs;
    cs->narcs = (uint32_t)nbi_circle_free_arcs(x->grid, x->c, x->n, ci, x->eps, ws->iv, ws->near,
                                               ws->seen, ws->arcs + ws->narcs);
    ws->narcs += cs->narcs;
    for (size_t j = 0; j < x->n; j++) {
        if (j == ci || (circle_state(x, (uint32_t)j)->flags & OPENED))
            continue;
        nbi_bitangent bt[4];
        int k = nbi_bitangents(&x->c[ci], &x->c[j], x->eps, bt);
        for (int i = 0; i < k; i++) {
            uint32_t a = add_node(x, bt[i].pa, bt[i].angle_a, ci, bt[i].sense_a, NONE);
            uint32_t b = add_node(x, bt[i].pb, bt[i].angle_b, (uint32_t)j, !bt[i].sense_b, a);
            if (a == NONE || b == NONE)
                return 0;
            ws->dn[a - x->m].partner = b;
        }
    }
    return 1;
}

static int goal_tangents(sctx *x, uint32_t ci)
{
    nbi_ptangent pt[2];
    int k = nbi_point_tangents(x->t, &x->c[ci], x->eps, pt);
    for (int j = 0; j < k; j++)
        /* Going goal -> tangent point arrives in pt.sense; the path goes
         * the other way, so it leaves the circle in the opposite sense. */
        if (add_node(x, pt[j].p, pt[j].angle, ci, !pt[j].sense, x->G) == NONE)
            return 0;
    return 1;
}

/* Arriving at u on its circle: the hugging arcs to every point of the
 * circle where the path may leave in the same sense. */
static int expand_arrival(sctx *x, uint32_t id, uint32_t u)
{
    nb_forest_ws *ws = x->ws;
    uint32_t ci = ncircle(x, u);
    if (npartner(x, u) == x->S) {
        x->path->los_tests++;
        if (!nbi_los(x->grid, x->c, x->s, npos(x, u), ci, NONE, x->eps))
            return 1;
    }
    cstate *cs = circle_state(x, ci);
    if (!x->bg && !(cs->flags & OPENED) && !open_circle(x, ci))
        return 0;
    if (!(cs->flags & GOAL_TANGENTS)) {
        cs->flags |= GOAL_TANGENTS;
        if (!goal_tangents(x, ci))
            return 0;
    }
    const nbi_free_arc *arcs;
    size_t narcs;
    if (x->bg) {
        uint32_t a0 = nbi_u32at(x->bg->afirst, ci), a1 = nbi_u32at(x->bg->afirst, ci + 1);
        for (uint32_t k = a0; k < a1; k++) {
            const uint8_t *r = x->bg->arc + (size_t)k * NBI_BITANGENT_ARC;
            ws->arcs[k - a0] =
                (nbi_free_arc){nbi_getf64(r + NBI_BT_A_START), nbi_getf64(r + NBI_BT_A_SPAN)};
        }
        arcs = ws->arcs;
        narcs = a1 - a0;
    } else {
        arcs = ws->arcs + cs->arc0;
        narcs = cs->narcs;
    }
    double r = x->c[ci].r, ea = x->eps / r, a = nangle(x, u), o;
    long k = nbi_free_arc_find(arcs, narcs, a, ea, &o);
    if (k < 0)
        return 1;
    const nbi_free_arc arc = arcs[k];
    unsigned sense = !nsense(x, u);
    double g = ws->g[id];
    if (x->bg) {
        uint32_t w0 = nbi_u32at(x->bg->first, ci), w1 = nbi_u32at(x->bg->first, ci + 1);
        for (uint32_t w = w0; w < w1; w++) {
            if (nsense(x, w) != sense)
                continue;
            double sw = nbi_sweep(a, nangle(x, w), sense, ea);
            if (nbi_arc_fits(&arc, o, sw, sense, ea) && !relax(x, 2 * w + 1, g + r * sw, id))
                return 0;
        }
    }
    for (uint32_t k2 = ws->cs[ci].head; k2 != NONE; k2 = ws->dn[k2].next) {
        const dnode *d = &ws->dn[k2];
        if (d->sense != sense || d->partner == x->S)
            continue;
        double sw = nbi_sweep(a, d->angle, sense, ea);
        if (nbi_arc_fits(&arc, o, sw, sense, ea) && !relax(x, 2 * (x->m + k2) + 1, g + r * sw, id))
            return 0;
    }
    return 1;
}

/* ---- the path ---- */

/* The path from the start to state last (the goal's arrival, or the end
 * of a partial path). */
static nb_status make_path(sctx *x, uint32_t last, nb_err *err)
{
    nb_forest_ws *ws = x->ws;
    nb_forest_result *path = x->path;
    size_t len = 0;
    for (uint32_t id = last; id != NONE; id = ws->parent[id]) {
        if (!grow_path(ws, len + 1))
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for a path of %zu states", len + 1);
        ws->chain[len++] = id;
    }
    size_t np = 0;
    double total = 0;
    for (size_t i = len - 1; i > 0; i--) {
        uint32_t from = ws->chain[i], to = ws->chain[i - 1], u = from >> 1, v = to >> 1;
        nb_segment *p = &ws->segs[np];
        if (from & 1) {
            nb_vec2 a = spos(x, u), b = spos(x, v);
            *p = nb_segment_line(a.x, a.y, b.x, b.y);
        } else {
            uint32_t ci = ncircle(x, u);
            unsigned sense = !nsense(x, u);
            double r = x->c[ci].r;
            double sw = nbi_sweep(nangle(x, u), nangle(x, v), sense, x->eps / r);
            *p = nb_segment_arc(x->c[ci].x, x->c[ci].y, r, nangle(x, u), sense == NBI_CCW ? sw : -sw);
        }
        if (p->length > 0) {
            total += p->length;
            np++;
        }
    }
    /* From a point to itself: one empty line, so that sampling gives the point. */
    if (np == 0)
        ws->segs[np++] = nb_segment_line(x->s.x, x->s.y, x->s.x, x->s.y);
    path->segments = ws->segs;
    path->segment_len = np;
    path->length = total;
    return NB_OK;
}

/* ---- the search ---- */

static nb_status check_finite(nb_vec2 p, const char *what, nb_err *err)
{
    if (!isfinite(p.x) || !isfinite(p.y))
        return nbi_fail(err, NB_ERR_ARG, "forest search: %s (%g, %g) is not a finite point", what,
                        p.x, p.y);
    return NB_OK;
}

static nb_status check_point(const nb_forest *f, nb_vec2 p, const char *what, nb_err *err)
{
    /* Where the circles are: beyond, differences of points would overflow. */
    if (fabs(p.x) > NB_FOREST_MAX_COORD || fabs(p.y) > NB_FOREST_MAX_COORD)
        return nbi_fail(err, NB_ERR_OUTSIDE, "forest search: %s (%g, %g) is beyond %g in x or y",
                        what, p.x, p.y, NB_FOREST_MAX_COORD);
    if (f->has_bounds &&
        !(p.x >= f->bounds[0] && p.x <= f->bounds[2] && p.y >= f->bounds[1] && p.y <= f->bounds[3]))
        return nbi_fail(err, NB_ERR_OUTSIDE,
                        "forest search: %s (%g, %g) is outside the forest's bounds [%g, %g] x "
                        "[%g, %g]",
                        what, p.x, p.y, f->bounds[0], f->bounds[2], f->bounds[1], f->bounds[3]);
    return NB_OK;
}

/* What a query without a path leaves: no segments, an infinite length. */
static void no_path(nb_forest_result *path, nb_vec2 s, nb_vec2 t)
{
    memset(path, 0, sizeof *path);
    path->status = NB_PATH_NONE;
    path->blocked_by = -1;
    path->start = s;
    path->goal = t;
    path->length = INFINITY;
}

/* Starts the query in ws->x: phase DONE when an end is blocked, else
 * RUNNING with the start on the open list. */
static nb_status start(nb_forest_ws *ws, nb_err *err)
{
    sctx *x = &ws->x;
    nb_forest_result *path = x->path;
    nb_vec2 s = x->s, t = x->t;
    ws->phase = DONE;
    /* An end inside an inflated circle: no path, and which circle. */
    long in_s = nbi_inside(x->grid, x->c, s, x->eps), in_t = nbi_inside(x->grid, x->c, t, x->eps);
    if (in_s >= 0 || in_t >= 0) {
        path->status = in_s >= 0 ? NB_PATH_START_BLOCKED : NB_PATH_GOAL_BLOCKED;
        path->blocked_by = in_s >= 0 ? in_s : in_t;
        return NB_OK;
    }
    ws->phase = IDLE;
    if (!reserve(ws, x->m, x->n))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a forest query");
    if (++ws->gen == 0 || ws->gen == UINT32_MAX) {
        for (size_t i = 0; i < ws->scap; i++)
            ws->stamp[i] = 0;
        for (size_t i = 0; i < ws->cscap; i++)
            ws->cs[i].stamp = 0;
        ws->gen = 1;
    }
    nbi_heap_clear(&ws->heap);
    ws->ndn = 0;
    ws->narcs = 0;
    ws->capped = 0;
    ws->best = NONE;
    ws->best_d = INFINITY;
    x->S = add_node(x, s, 0, NONE, 0, NONE);
    x->G = add_node(x, t, 0, NONE, 0, NONE);
    if (x->S == NONE || x->G == NONE || !relax(x, 2 * x->S + 1, 0, NONE)) {
        if (!ws->capped)
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for a forest query");
        path->status = NB_PATH_LIMIT; /* a cap of 0 nodes leaves no room for the start */
        ws->phase = DONE;
        return NB_OK;
    }
    ws->phase = RUNNING;
    return NB_OK;
}

/* Runs the search begun for at most budget expansions; phase DONE when it
 * has ended (found, exhausted, or stopped by max_expansions or the cap). */
static nb_status run(nb_forest_ws *ws, uint64_t budget, nb_err *err)
{
    sctx *x = &ws->x;
    nb_forest_result *path = x->path;
    const uint64_t stop = path->expanded + budget < path->expanded ? UINT64_MAX
                                                                   : path->expanded + budget;
    int ok = 1;
    while (ok && !nbi_heap_empty(&ws->heap)) {
        if (path->expanded == stop)
            return NB_OK; /* the slice is spent */
        if (ws->q.max_expansions && path->expanded >= ws->q.max_expansions) {
            path->status = NB_PATH_LIMIT;
            ws->phase = DONE;
            return NB_OK;
        }
        uint32_t id = nbi_heap_pop(&ws->heap).id;
        if (ws->closed[id])
            continue;
        ws->closed[id] = 1;
        path->expanded++;
        uint32_t u = id >> 1;
        if (id == 2 * x->G) {
            nbi_heap_clear(&ws->heap);
            ws->phase = DONE;
            path->status = NB_PATH_FOUND;
            return NB_OK;
        }
        /* The end of a partial path: the state expanded nearest the goal. */
        double d = dist(spos(x, u), x->t);
        if (d < ws->best_d) {
            ws->best_d = d;
            ws->best = id;
        }
        if (id == 2 * x->S + 1)
            ok = expand_start(x, id);
        else if ((id & 1) && u >= x->m && ws->dn[u - x->m].stand_in)
            ok = expand_stand_in(x, id, u);
        else if (id & 1)
            ok = expand_departure(x, id, u);
        else
            ok = expand_arrival(x, id, u);
    }
    nbi_heap_clear(&ws->heap);
    ws->phase = DONE;
    if (!ok && ws->capped) {
        path->status = NB_PATH_LIMIT;
        return NB_OK;
    }
    if (!ok) {
        ws->phase = IDLE;
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the search (%zu states)", ws->scap);
    }
    return NB_OK; /* NB_PATH_NONE: the circles close one off from the other */
}

/* The context of a query on the graph baked at radius index k. */
static void setup_baked(nb_forest_ws *ws, unsigned k)
{
    const nb_forest *f = ws->forest;
    const nbi_fgraph *g = &f->graph[k];
    ws->x = (sctx){.ws = ws, .c = g->infl, .n = f->n, .grid = &g->grid, .eps = g->eps, .bg = g,
                   .m = g->nodes, .s = ws->q.start, .t = ws->q.goal, .flags = ws->q.flags,
                   .path = &ws->res};
}

/* The deferred search's context: the circles inflated for this radius. */
static nb_status setup_deferred(nb_forest_ws *ws, nb_err *err)
{
    const nb_forest *f = ws->forest;
    size_t n = f->n;
    if (!grow_scratch(ws, n))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu circles", n);
    for (size_t i = 0; i < n; i++) {
        ws->infl[i] = f->circles[i];
        ws->infl[i].r += ws->q.agent_radius;
    }
    double eps = nbi_forest_eps(ws->infl, n);
    if (!nbi_cgrid_build(&ws->grid, ws->infl, n, eps))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the grid of %zu circles", n);
    ws->x = (sctx){.ws = ws, .c = ws->infl, .n = n, .grid = &ws->grid, .eps = eps, .bg = NULL,
                   .m = 0, .s = ws->q.start, .t = ws->q.goal, .flags = ws->q.flags,
                   .path = &ws->res};
    return NB_OK;
}

nb_status nb_forest_query_init_abi(nb_forest_query *q, const nb_abi *abi)
{
    if (nbi_abi_ok(abi, NBI_ABI_nb_forest_query) != NB_OK)
        return NB_ERR_VERSION;
    memset(q, 0, sizeof *q);
    return NB_OK;
}

const nb_forest *nbi_forest_ws_forest(const nb_forest_ws *ws) { return ws->forest; }

void nb_forest_ws_set_max_nodes(nb_forest_ws *ws, uint64_t max_nodes) { ws->max_nodes = max_nodes; }

size_t nb_forest_ws_bytes(const nb_forest_ws *ws)
{
    return sizeof *ws + ws->dncap * sizeof *ws->dn +
           ws->scap * (sizeof *ws->g + sizeof *ws->parent + sizeof *ws->stamp +
                       sizeof *ws->hpos + sizeof *ws->closed) +
           nbi_heap_bytes(&ws->heap) + ws->cscap * sizeof *ws->cs +
           ws->arcscap * sizeof *ws->arcs +
           ws->ncap * (sizeof *ws->infl + 2 * sizeof *ws->iv + sizeof *ws->near + 1) +
           ws->grid.start_cap * sizeof *ws->grid.start + ws->grid.items_cap * sizeof *ws->grid.items + ws->pcap * (sizeof *ws->segs + sizeof *ws->chain);
}

nb_status nb_forest_begin(nb_forest_ws *ws, const nb_forest_query *q, nb_err *err)
{
    if (!ws || !q)
        return nbi_fail(err, NB_ERR_ARG, "nb_forest_begin: NULL argument");
    const nb_forest *f = ws->forest;
    ws->phase = IDLE;
    no_path(&ws->res, q->start, q->goal);
    const unsigned known = NB_FOREST_NO_PRUNE | NB_FOREST_PLAIN | NB_FOREST_DEFERRED;
    if (q->flags & ~known)
        return nbi_fail(err, NB_ERR_ARG, "forest search: unknown flags %#x", q->flags & ~known);
    if (!(isfinite(q->agent_radius) && q->agent_radius >= 0))
        return nbi_fail(err, NB_ERR_ARG, "forest search: agent radius %g: expected a number 0 or more",
                        q->agent_radius);
    nb_status st;
    /* The order every family keeps (core/query.c): malformed, off the
     * bounds, then the limit of the radius. */
    if ((st = check_finite(q->start, "start", err)) != NB_OK ||
        (st = check_finite(q->goal, "goal", err)) != NB_OK ||
        (st = check_point(f, q->start, "start", err)) != NB_OK ||
        (st = check_point(f, q->goal, "goal", err)) != NB_OK)
        return st;
    if (q->agent_radius > NB_FOREST_MAX_COORD)
        return nbi_fail(err, NB_ERR_LIMIT, "forest search: agent radius %g is beyond %g",
                        q->agent_radius, NB_FOREST_MAX_COORD);
    ws->q = *q;
    size_t k;
    if (!(q->flags & NB_FOREST_DEFERRED) &&
        nb_forest_radius_lookup(f, q->agent_radius, &k, NULL) == NB_OK)
        setup_baked(ws, (unsigned)k);
    else if ((st = setup_deferred(ws, err)) != NB_OK)
        return st;
    return nbi_done(err, start(ws, err));
}

nb_status nb_forest_step(nb_forest_ws *ws, uint64_t expansions, int *done, nb_err *err)
{
    if (!ws || ws->phase == IDLE)
        return nbi_fail(err, NB_ERR_ARG, "nb_forest_step: no query begun (nb_forest_begin)");
    nb_status st = ws->phase == RUNNING ? run(ws, expansions, err) : NB_OK;
    if (done)
        *done = st != NB_OK || ws->phase == DONE;
    return nbi_done(err, st);
}

nb_status nb_forest_finish(nb_forest_ws *ws, nb_forest_result *res, nb_err *err)
{
    if (!ws || ws->phase == IDLE) {
        if (res && ws)
            no_path(res, ws->q.start, ws->q.goal);
        return nbi_fail(err, NB_ERR_ARG, "nb_forest_finish: no query begun (nb_forest_begin)");
    }
    sctx *x = &ws->x;
    nb_forest_result *path = &ws->res;
    if (ws->phase == RUNNING)
        path->status = NB_PATH_LIMIT;
    ws->phase = IDLE;
    nbi_heap_clear(&ws->heap);
    nb_status st = NB_OK;
    if (path->status == NB_PATH_FOUND)
        st = make_path(x, 2 * x->G, err);
    else if (path->status == NB_PATH_LIMIT)
        st = ws->best != NONE ? make_path(x, ws->best, err) : NB_OK;
    if (st != NB_OK)
        no_path(path, ws->q.start, ws->q.goal);
    *res = *path;
    return nbi_done(err, st);
}

nb_status nb_forest_find(nb_forest_ws *ws, const nb_forest_query *q, nb_forest_result *res,
                         nb_err *err)
{
    int done;
    nb_status st = nb_forest_begin(ws, q, err);
    if (st == NB_OK)
        st = nb_forest_step(ws, UINT64_MAX, &done, err);
    if (st == NB_OK)
        return nb_forest_finish(ws, res, err);
    if (res)
        no_path(res, q ? q->start : (nb_vec2){0, 0}, q ? q->goal : (nb_vec2){0, 0});
    return st;
}
