/* directional.c: Directional A* (Pinter's "Legal Turns: The Directional A*
 * Algorithm").  A node is a cell and a heading; its children are every
 * neighbour of the 8-, 24- or 48-neighbourhood with every end heading,
 * reached by the first free curve of the hit-check table (its shortest
 * curve, or the first free candidate of a table that keeps them all).  The
 * cost is the curve's length (times the penalty when driven in reverse);
 * the heuristic (heuristic.c) never overestimates, so the path found is
 * the cheapest of this graph.  The first node may be anywhere, facing any
 * way: its curves are computed and swept directly, as the article says.
 *
 * What keeps a node cheap: the window of blocked cells around it is read
 * once (edges.c); a child that cannot be reached more cheaply than it
 * already is, judged by the entry's shortest curve before its cells are
 * read, is left alone; and a node's heuristic is computed once, when the
 * node is made. */
#include <math.h>

#include "turning/planner.h"

static int on_grid(const nb_planner *p, const nb_pose *s, long sx, long sy, unsigned *k)
{
    if (s->x != sx + 0.5 || s->y != sy + 0.5)
        return 0;
    for (unsigned h = 0; h < p->K; h++)
        if (fabs(remainder(s->heading - nbi_heading(h, p->K), 2 * M_PI)) < 1e-12) {
            *k = h;
            return 1;
        }
    return 0;
}

uint32_t nbi_next_open(nb_planner *p)
{
    nbi_heap_item it;
    for (int got; (got = nbi_open_pop(&p->heap, &it)) != 0;) {
        if (got < 0) {
            p->nodes.nomem = p->nodes.full = 1;
            return 0;
        }
        nbi_node *n = nbi_nodes_at(&p->nodes, it.id);
        if (!n->closed && it.tie == -n->g)
            return it.id;
    }
    return 0;
}

int nbi_dir_begin(nb_planner *p, const nb_pose *start, long gx, long gy, int goal_heading,
                  const struct nbi_dir_opts *o)
{
    struct nbi_dir *d = &p->dir;
    d->start = *start;
    d->sx = (long)floor(start->x);
    d->sy = (long)floor(start->y);
    d->gx = gx;
    d->gy = gy;
    d->goal_heading = goal_heading;
    d->o = *o;
    d->has_box = o->box != NULL;
    if (o->box)
        memcpy(d->box, o->box, sizeof d->box);
    d->o.box = NULL;
    d->best = d->goal = 0;
    nbi_nodes_clear(&p->nodes);
    nbi_open_clear(&p->heap);
    if (!nbi_lattice_need(p, o->neighbourhood) ||
        (!p->local_bound && !nbi_rra_begin(p, gx, gy, d->sx, d->sy, o->neighbourhood)))
        return 0;
    unsigned k0 = 0;
    int fresh;
    d->offgrid = !on_grid(p, start, d->sx, d->sy, &k0);
    uint32_t id = d->offgrid ? nbi_nodes_extra(&p->nodes, d->sx, d->sy)
                             : nbi_nodes_get(&p->nodes, d->sx, d->sy, k0, 1, &fresh);
    if (!id)
        return 0;
    nbi_node *n = nbi_nodes_at(&p->nodes, id);
    n->g = 0;
    if (!d->offgrid)
        nbi_block_g(&p->nodes, nbi_nodes_block(&p->nodes, d->sx >> 3, d->sy >> 3, 0))
            [NBI_SLOT(p->K, d->sx, d->sy, k0)] = 0;
    n->h = nbi_heuristic(p, start, gx, gy, o->reverse);
    n->k = (uint8_t)k0;
    d->sid = id;
    return nbi_queue(p, id);
}

/* A cell's part of its nodes' bound, the same for every heading: the
 * search back over cells' distance (or, with local_bound, the lattice
 * bound). */
static double cell_bound(nb_planner *p, long x, long y, long gx, long gy, unsigned N)
{
    const struct nbi_lattice *l = &p->lattice[N == 8 ? 0 : N == 24 ? 1 : 2];
    return p->local_bound ? nbi_lattice_bound(l, gx - x, gy - y) : nbi_rra_dist(p, x, y);
}

/* A node's bound: the larger of its cell's and the curve table's, which
 * knows the heading (heuristic.c, reverse.c); far from the goal the
 * table's cannot be the larger, and its look-up (an arc tangent) is
 * skipped. */
static double bound(nb_planner *p, long x, long y, unsigned k, double cell, long gx, long gy,
                    int reverse)
{
    if (reverse || nbi_curvetab_below(&p->ct, (double)(gx - x), (double)(gy - y), cell))
        return cell;
    nb_pose q = nbi_centre_pose(p, x, y, k);
    return fmax(cell, nbi_curvetab_lookup(&p->ct, &q, gx + 0.5, gy + 0.5));
}

static int inside(const struct nbi_dir *d, long x, long y)
{
    return !d->has_box || (x >= d->box[0] && y >= d->box[1] && x <= d->box[2] && y <= d->box[3]);
}

/* The costs of a block not made yet: no node, nothing to improve on. */
#define INF4 INFINITY, INFINITY, INFINITY, INFINITY
static const double no_nodes[16] = {INF4, INF4, INF4, INF4};

/* Expands node id.  Returns 0 when a node could not be made. */
static int expand(nb_planner *p, uint32_t id)
{
    struct nbi_dir *d = &p->dir;
    const unsigned K = p->K, N = d->o.neighbourhood;
    const int reverse = d->o.reverse, table = !d->o.onthefly;
    const double pen = p->unit.reverse_penalty;
    const nbi_node *n = nbi_nodes_at(&p->nodes, id);
    const long x = n->x, y = n->y;
    const unsigned h = n->k;
    const int start = id == d->sid && d->offgrid;
    const double g = n->g;
    const nbi_edges *e = &p->edges;
    if (table && !start)
        nbi_window_read(p, x, y);
    /* The children's blocks: at most two across and two down (a child is at most 3 cells
     * away, a block 8 wide). */
    const long bx0 = (x > 3 ? x - 3 : 0) >> 3, by0 = (y > 3 ? y - 3 : 0) >> 3;
    uint32_t *blocks[2][2];
    int looked[2][2] = {{0, 0}, {0, 0}};
    /* Children as bits 2 h1 + rev, h1 first as the search has always
     * taken them: forward alone, the even bits (0x55...). */
    const uint32_t every = reverse ? (uint32_t)(((uint64_t)1 << 2 * K) - 1)
                                   : (uint32_t)(0x55555555u & (((uint64_t)1 << 2 * K) - 1));
    /* Every neighbour's costs are read first thing: ask for them all at
     * once, so that their cache misses overlap (the next node expanded is
     * seldom near the last). */
    for (unsigned oi = 0; oi < N; oi++) {
        long nx = x + p->off[oi][0], ny = y + p->off[oi][1];
        if (nx < 0 || ny < 0 || nx >= p->W || ny >= p->H)
            continue;
        long bi = (nx >> 3) - bx0, bj = (ny >> 3) - by0;
        if (!looked[bj][bi]) {
            blocks[bj][bi] = nbi_nodes_block(&p->nodes, nx >> 3, ny >> 3, 0);
            looked[bj][bi] = 1;
        }
        if (blocks[bj][bi]) {
            const double *bg = nbi_block_g(&p->nodes, blocks[bj][bi]) + NBI_SLOT(K, nx, ny, 0);
            NBP_PREFETCH(bg);
            NBP_PREFETCH(bg + K - 1);
        }
    }
    /* The off-grid start may also go to the centre of its own cell. */
    unsigned nn = N + start;
    for (unsigned oi = 0; oi < nn; oi++) {
        long nx = x + (oi < N ? p->off[oi][0] : 0), ny = y + (oi < N ? p->off[oi][1] : 0);
        if (nx < 0 || ny < 0 || nx >= p->W || ny >= p->H || !inside(d, nx, ny))
            continue;
        long bi = (nx >> 3) - bx0, bj = (ny >> 3) - by0;
        if (!looked[bj][bi]) {
            blocks[bj][bi] = nbi_nodes_block(&p->nodes, nx >> 3, ny >> 3, 0);
            looked[bj][bi] = 1;
        }
        uint32_t *slots = blocks[bj][bi];
        const size_t slot0 = NBI_SLOT(K, nx, ny, 0);
        uint32_t want = every;
        double cell = -1; /* the cell's bound, once a child needs it */
        if (table && !start) {
            /* Cannot improve: the entry's shortest curve is no better than
             * the child's cost (INFINITY where it has no node yet).  One
             * pass over the cell's headings, without branches: nine in ten
             * children end here, in no pattern a branch could learn. */
            const double *bg = slots ? nbi_block_g(&p->nodes, slots) + slot0 : no_nodes;
            const double *L = e->least + ((size_t)h * e->N + oi) * K;
            want = 0;
            for (unsigned h1 = 0; h1 < K; h1++)
                want |= (uint32_t)(g + L[h1] < bg[h1]) << 2 * h1;
            if (reverse) {
                const double *R = e->least + ((size_t)((h + K / 2) % K) * e->N + oi) * K;
                for (unsigned h1 = 0; h1 < K; h1++)
                    want |= (uint32_t)(g + R[(h1 + K / 2) % K] * pen < bg[h1]) << (2 * h1 + 1);
            }
        }
        while (want) {
            unsigned bit = nbp_ctz32(want);
            want &= want - 1;
            unsigned h1 = bit >> 1;
            int rev = (int)(bit & 1);
            size_t slot = slot0 + h1;
            uint32_t cid = slots ? slots[slot] : 0;
            double len;
            unsigned code;
            int ok = start ? nbi_edge_pose(p, &d->start, nx, ny, h1, rev, &len, &code)
                     : table ? nbi_edge_win(p, h, oi, h1, rev, &len, &code)
                             : nbi_edge(p, x, y, h, oi, h1, rev, 1, &len, &code);
            if (!ok)
                continue;
            p->generated++;
            double ng = g + (rev ? len * pen : len);
            int fresh = !cid;
            if (fresh) {
                if (!slots && !(slots = blocks[bj][bi] = nbi_nodes_block(&p->nodes, nx >> 3, ny >> 3, 1)))
                    return 0;
                if (!(cid = nbi_nodes_make(&p->nodes, &slots[slot], nx, ny, h1)))
                    return 0;
            }
            /* The block's copy of the cost: the node itself may be far in
             * memory, and most children improve nothing. */
            if (ng >= nbi_block_g(&p->nodes, slots)[slot])
                continue;
            nbi_node *c = nbi_nodes_at(&p->nodes, cid);
            if (fresh) {
                if (cell < 0) {
                    cell = cell_bound(p, nx, ny, d->gx, d->gy, N);
                    if (p->nodes.full)
                        return 0;
                }
                c->h = bound(p, nx, ny, h1, cell, d->gx, d->gy, reverse);
            }
            if (!(c->h < INFINITY))
                continue; /* the goal is out of its reach */
            c->g = nbi_block_g(&p->nodes, slots)[slot] = ng;
            c->parent = id;
            c->move = (uint16_t)code;
            c->closed = 0;
            if (!nbi_queue(p, cid)) {
                p->nodes.nomem = p->nodes.full = 1;
                return 0;
            }
        }
    }
    return 1;
}

enum nbi_run nbi_dir_run(nb_planner *p, uint64_t budget)
{
    struct nbi_dir *d = &p->dir;
    for (uint64_t done = 0; done < budget; done++) {
        uint32_t id = nbi_next_open(p);
        if (!id)
            return p->nodes.nomem ? NBI_RUN_NOMEM : NBI_RUN_NONE;
        nbi_node *n = nbi_nodes_at(&p->nodes, id);
        n->closed = 1;
        p->expanded++;
        const nbi_node *b = d->best ? nbi_nodes_at(&p->nodes, d->best) : NULL;
        if (!b || n->h < b->h || (n->h == b->h && n->g < b->g))
            d->best = id;
        /* The off-grid start must still reach its cell's centre. */
        if (n->x == d->gx && n->y == d->gy && !(id == d->sid && d->offgrid) &&
            (d->goal_heading < 0 || n->k == (unsigned)d->goal_heading)) {
            d->goal = id;
            return NBI_RUN_FOUND;
        }
        if (!expand(p, id) || p->cells.nomem)
            return p->nodes.nomem || p->cells.nomem ? NBI_RUN_NOMEM : NBI_RUN_FULL;
    }
    return NBI_RUN_MORE;
}

int nbi_dir_route(nb_planner *p, int partial)
{
    struct nbi_dir *d = &p->dir;
    uint32_t end = partial ? d->best : d->goal;
    nbi_route *r = &p->route;
    r->n = 0;
    if (!end)
        return nbi_route_push(r, &d->start, NULL);
    /* Walk back to count, then fill the route from its end. */
    size_t n = 1;
    for (uint32_t id = end; nbi_nodes_at(&p->nodes, id)->parent; id = nbi_nodes_at(&p->nodes, id)->parent)
        n++;
    if (!nbi_route_reserve(r, n))
        return 0;
    r->n = n;
    size_t i = n - 1;
    for (uint32_t id = end;; i--) {
        const nbi_node *nd = nbi_nodes_at(&p->nodes, id);
        r->wp[i] = id == d->sid ? d->start : nbi_node_pose(p, nd);
        if (!nd->parent)
            break;
        id = nd->parent;
    }
    i = n - 1;
    for (uint32_t id = end; nbi_nodes_at(&p->nodes, id)->parent; id = nbi_nodes_at(&p->nodes, id)->parent, i--)
        nbi_edge_curve(p, &r->wp[i - 1], &r->wp[i], nbi_nodes_at(&p->nodes, id)->move, &r->edge[i - 1]);
    return 1;
}
