/* reverse.c: the obstacle-aware bound of Directional A*, a search back
 * from the goal over cells alone, resumed as the forward search asks.
 *
 * Forget the headings: a move of Directional-N from cell c to c + v costs
 * at least L(v), the shortest curve between the two centres whatever the
 * headings (heuristic.c), and needs c + v free.  The cheapest path from a
 * cell to the goal in that graph of cells is a lower bound of the unit's,
 * and, being a distance in a graph that holds every move of the search,
 * a consistent one; unlike the curve and lattice bounds it goes around
 * walls.  A cell with no such path cannot reach the goal at all.
 *
 * The distances come from A* backward from the goal toward the start
 * (Silver's Reverse Resumable A*): a cell's distance is exact once it is
 * closed, so when the forward search asks for a cell not yet closed, the
 * backward search runs on until it is; cells far from where the forward
 * search goes are never reached. */
#include <math.h>
#include <stdlib.h>

#include "turning/planner.h"

int nbi_rra_begin(nb_planner *p, long gx, long gy, long sx, long sy, unsigned N)
{
    struct nbi_rra *r = &p->rra;
    r->gx = gx;
    r->gy = gy;
    r->sx = sx;
    r->sy = sy;
    r->N = N;
    r->lat = &p->lattice[N == 8 ? 0 : N == 24 ? 1 : 2];
    nbi_nodes_clear(&r->nodes);
    nbi_open_clear(&r->heap);
    int fresh;
    uint32_t id = nbi_nodes_get(&r->nodes, gx, gy, 0, 1, &fresh);
    if (!id)
        return 0;
    nbi_node *n = nbi_nodes_at(&r->nodes, id);
    n->g = 0;
    nbi_block_g(&r->nodes, nbi_nodes_block(&r->nodes, gx >> 3, gy >> 3, 0))[NBI_SLOT(1, gx, gy, 0)] = 0;
    return nbi_open_push(&r->heap, nbi_lattice_bound(r->lat, sx - gx, sy - gy), 0, id);
}

/* Closes the next cell; 0 when none is left (or memory ran out). */
static uint32_t step(nb_planner *p)
{
    struct nbi_rra *r = &p->rra;
    uint32_t id = 0;
    nbi_heap_item it;
    for (int got; (got = nbi_open_pop(&r->heap, &it)) != 0;) {
        if (got < 0) {
            r->nodes.nomem = r->nodes.full = 1;
            return 0;
        }
        nbi_node *n = nbi_nodes_at(&r->nodes, it.id);
        if (!n->closed && it.tie == -n->g) {
            id = it.id;
            break;
        }
    }
    if (!id)
        return 0;
    nbi_node *n = nbi_nodes_at(&r->nodes, id);
    n->closed = 1;
    r->expanded++;
    long x = n->x, y = n->y;
    double g = n->g;
    /* The neighbours' rows of blocked cells, bit 3 + dx for x + dx, read
     * once; and their blocks of nodes, at most two across and two down. */
    uint64_t row[7];
    nbi_cells_rows(&p->cells, y - 3, 7, x - 3, row);
    const long bx0 = (x > 3 ? x - 3 : 0) >> 3, by0 = (y > 3 ? y - 3 : 0) >> 3;
    uint32_t *blocks[2][2] = {{NULL, NULL}, {NULL, NULL}};
    /* Backward: the cells c = (x, y) - v from which a move v reaches this one. */
    for (unsigned o = 0; o < r->N; o++) {
        long cx = x - p->off[o][0], cy = y - p->off[o][1];
        if (cx < 0 || cy < 0 || cx >= p->W || cy >= p->H || row[3 - p->off[o][1]] >> (3 - p->off[o][0]) & 1)
            continue;
        double ng = g + r->lat->least[o];
        uint32_t **bp = &blocks[(cy >> 3) - by0][(cx >> 3) - bx0];
        if (!*bp && !(*bp = nbi_nodes_block(&r->nodes, cx >> 3, cy >> 3, 1)))
            return 0;
        size_t slot = NBI_SLOT(1, cx, cy, 0);
        double *bg = nbi_block_g(&r->nodes, *bp);
        /* The block's copy of the cost first: most neighbours improve
         * nothing, and the node itself may be far in memory. */
        if (ng >= bg[slot])
            continue;
        uint32_t cid = (*bp)[slot];
        if (!cid && !(cid = nbi_nodes_make(&r->nodes, &(*bp)[slot], cx, cy, 0)))
            return 0;
        nbi_node *c = nbi_nodes_at(&r->nodes, cid);
        /* The bound toward the start is consistent: a closed cell's
         * distance is final (another sum of the same lengths may come out
         * a rounding error shorter; reopening it would only redo work). */
        if (c->closed)
            continue;
        c->g = bg[slot] = ng;
        if (!nbi_open_push(&r->heap, nbi_key(ng, nbi_lattice_bound(r->lat, r->sx - cx, r->sy - cy)), -ng,
                           cid)) {
            r->nodes.nomem = r->nodes.full = 1;
            return 0;
        }
    }
    return id;
}

double nbi_rra_dist(nb_planner *p, long x, long y)
{
    struct nbi_rra *r = &p->rra;
    int fresh;
    uint32_t id = nbi_nodes_get(&r->nodes, x, y, 0, 0, &fresh);
    if (id && nbi_nodes_at(&r->nodes, id)->closed)
        return nbi_nodes_at(&r->nodes, id)->g;
    if (r->nodes.full) /* at the node cap: the grid's bound, weaker */
        return nbi_lattice_bound(r->lat, r->gx - x, r->gy - y);
    for (;;) {
        uint32_t c = step(p);
        if (!c && r->nodes.nomem) {
            p->nodes.full = p->nodes.nomem = 1;
            return 0;
        }
        if (!c && r->nodes.full)
            return nbi_lattice_bound(r->lat, r->gx - x, r->gy - y);
        if (!c)
            return INFINITY;
        const nbi_node *n = nbi_nodes_at(&r->nodes, c);
        if (n->x == x && n->y == y)
            return n->g;
    }
}
