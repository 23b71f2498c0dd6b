/* reach.c: whether a cell is joined to a query's start under an overlay
 * that blocks cells, exactly.
 *
 * The component layer was baked without the overlay: blocks only take
 * cells away, so it proves two cells apart, never joined.  Two searches
 * on the edited map decide it, in turns of TURN expansions each: a flood
 * from the start (Dijkstra over every cell the agent reaches there), kept
 * from test to test of one query, and an A* from the cell tested toward
 * the start.  The cell is joined when the A* reaches the start or the
 * flood closes the cell; apart when the A* runs out of cells (its region
 * is cut off) or the flood does (then it holds every cell joined to the
 * start, and every later test of the query is one look-up).  Each turn of
 * the A* is matched by one of the flood, and the flood is never begun
 * again within a query, so a query's tests cost at most twice the cells
 * joined to its start, plus twice an A* from each cell found joined to
 * the start, plus a turn per test: a cell walled in beside the point costs
 * what its own little region does, an open map what the A* does. */
#include "clearance/aastar.h"
#include "place/place.h"

#define TURN 64

static nb_status nomem(nb_err *err)
{
    return nbi_fail(err, NB_ERR_NOMEM,
                    "places: no memory for the searches that tell reach under the overlay");
}

/* The flood's closed cells are joined to its start. */
static int flooded(const nb_place *p, nb_cell c) { return nbi_aa_cost(p->flood, c) >= 0; }

nb_status nbi_reach_joined(nb_place *p, nb_cell start, nb_cell c, int *joined, nb_err *err)
{
    *joined = 1;
    if (c.x == start.x && c.y == start.y)
        return NB_OK;
    nb_status st;
    if ((!p->flood && (st = nb_aa_open(p->b, &p->flood, err)) != NB_OK) ||
        (!p->probe && (st = nb_aa_open(p->b, &p->probe, err)) != NB_OK))
        return st;
    /* Reachability is the same under either corner rule (a diagonal step of either has a
     * cardinal way round), so the strict one serves. */
    if (!p->flood_on || p->flood_from.x != start.x || p->flood_from.y != start.y) {
        nbi_aa_start(p->flood, &p->clear, p->size, NB_CORNER_STRICT, start, NULL, p->ov);
        p->flood_on = 1;
        p->flood_done = 0;
        p->flood_from = start;
        p->flood_counted = 0;
    }
    if (flooded(p, c))
        return NB_OK;
    *joined = 0;
    if (p->flood_done)
        return NB_OK;
    nbi_aa_start(p->probe, &p->clear, p->size, NB_CORNER_STRICT, c, &start, p->ov);
    int a, f;
    for (;;) {
        if ((a = nbi_aa_advance(p->probe, TURN)) != NBI_AA_RUNNING)
            break;
        if ((f = nbi_aa_advance(p->flood, TURN)) == NBI_AA_NOMEM)
            return nomem(err);
        if (flooded(p, c)) {
            *joined = 1;
            break;
        }
        if (f == NBI_AA_EXHAUSTED) {
            p->flood_done = 1;
            break;
        }
    }
    if (a == NBI_AA_NOMEM)
        return nomem(err);
    if (a == NBI_AA_FOUND)
        *joined = 1;
    uint64_t fe = nbi_aa_expanded(p->flood);
    p->reach_expanded += nbi_aa_expanded(p->probe) + (fe - p->flood_counted);
    p->flood_counted = fe;
    return NB_OK;
}
