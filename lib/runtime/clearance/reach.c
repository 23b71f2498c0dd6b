/* reach.c: whether a cell is joined to a start on the map as an overlay
 * leaves it, exactly (reach.h).
 *
 * Two searches on the edited map decide it, in turns of TURN expansions
 * each: a flood from the start (Dijkstra over every cell the agent reaches
 * there), kept from test to test of one start, and an A* from the cell
 * tested toward the start.  The cell is joined when the A* reaches the
 * start or the flood closes the cell; apart when the A* runs out of cells
 * (its region is cut off) or the flood does (then it holds every cell
 * joined to the start, and every later test is one look-up).  Each turn of
 * the A* is matched by one of the flood, and the flood is never begun
 * again for the same start, so the tests from one start cost at most
 * twice the cells joined to it, plus twice an A* from each cell found
 * joined, plus a turn per test: a cell walled in costs what its own little
 * region does, an open map what the A* does. */
#include "clearance/aastar.h"
#include "clearance/reach.h"

#define TURN 64

void nbi_reach_init(nbi_reach *r, const nb_bundle *b)
{
    memset(r, 0, sizeof *r);
    r->b = b;
}

void nbi_reach_free(nbi_reach *r)
{
    nb_aa_close(r->flood);
    nb_aa_close(r->probe);
    r->flood = r->probe = NULL;
}

size_t nbi_reach_bytes(const nbi_reach *r)
{
    return (r->flood ? nb_aa_bytes(r->flood) : 0) + (r->probe ? nb_aa_bytes(r->probe) : 0);
}

void nbi_reach_use(nbi_reach *r, const nbi_layer *clear, uint32_t size, const nb_overlay *ov)
{
    r->clear = clear;
    r->size = size;
    r->ov = ov;
    r->on = r->done = 0;
    r->expanded = 0;
}

static nb_status nomem(nb_err *err)
{
    return nbi_fail(err, NB_ERR_NOMEM, "no memory for the searches that tell reach on the map "
                    "as the overlay leaves it");
}

/* The flood's closed cells are joined to its start. */
static int flooded(const nbi_reach *r, nb_cell c) { return nbi_aa_cost(r->flood, c) >= 0; }

nb_status nbi_reach_joined(nbi_reach *r, nb_cell start, nb_cell c, int *joined, nb_err *err)
{
    *joined = 1;
    if (c.x == start.x && c.y == start.y)
        return NB_OK;
    nb_status st;
    if ((!r->flood && (st = nb_aa_open(r->b, &r->flood, err)) != NB_OK) ||
        (!r->probe && (st = nb_aa_open(r->b, &r->probe, err)) != NB_OK))
        return st;
    /* Reachability is the same under either corner rule (a diagonal step of either has a
     * cardinal way round), so the strict one serves. */
    if (!r->on || r->from.x != start.x || r->from.y != start.y) {
        nbi_aa_start(r->flood, r->clear, r->size, NB_CORNER_STRICT, start, NULL, r->ov);
        r->on = 1;
        r->done = 0;
        r->from = start;
        r->counted = 0;
    }
    if (flooded(r, c))
        return NB_OK;
    *joined = 0;
    if (r->done)
        return NB_OK;
    nbi_aa_start(r->probe, r->clear, r->size, NB_CORNER_STRICT, c, &start, r->ov);
    int a, f;
    for (;;) {
        if ((a = nbi_aa_advance(r->probe, TURN)) != NBI_AA_RUNNING)
            break;
        if ((f = nbi_aa_advance(r->flood, TURN)) == NBI_AA_NOMEM)
            return nomem(err);
        if (flooded(r, c)) {
            *joined = 1;
            break;
        }
        if (f == NBI_AA_EXHAUSTED) {
            r->done = 1;
            break;
        }
    }
    if (a == NBI_AA_NOMEM)
        return nomem(err);
    if (a == NBI_AA_FOUND)
        *joined = 1;
    uint64_t fe = nbi_aa_expanded(r->flood);
    r->expanded += nbi_aa_expanded(r->probe) + (fe - r->counted);
    r->counted = fe;
    return NB_OK;
}
