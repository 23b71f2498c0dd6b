/* partial.c: the goal of a query that asks for a partial path (reach.h):
 * the goal itself when a path reaches it, else the reachable cell nearest
 * it, found by the rings around the goal (ring.c) with reach's tests
 * (reach.c).  HAA* and the optimal layer then search to that cell as to a
 * goal; Annotated A* needs neither, its own search ending where the start's
 * cells run out (aastar.c). */
#include <math.h>

#include "clearance/reach.h"

void nbi_partial_init(nbi_partial *pp, const nb_bundle *b) { nbi_reach_init(&pp->reach, b); }

void nbi_partial_free(nbi_partial *pp) { nbi_reach_free(&pp->reach); }

size_t nbi_partial_bytes(const nbi_partial *pp) { return nbi_reach_bytes(&pp->reach); }

nb_status nbi_partial_goal(nbi_reach *reach, const nbi_layer *comp, nb_cell start, nb_cell goal,
                           nb_cell *target, int *partial, nb_err *err)
{
    const nbi_layer *clear = reach->clear;
    uint32_t w = clear->width, want = 0;
    *target = goal;
    *partial = 0;
    if (comp)
        want = nbi_comp_get(comp, (uint64_t)start.y * w + (uint64_t)start.x);
    /* The goal itself, when it stands, the components leave it joined, and reach says so. */
    if (nbi_stands_under(clear, reach->size, reach->ov, (uint32_t)goal.x, (uint32_t)goal.y) &&
        (!comp || nbi_comp_get(comp, (uint64_t)goal.y * w + (uint64_t)goal.x) == want)) {
        int joined = 1;
        nb_status st = comp && !reach->ov ? NB_OK : nbi_reach_joined(reach, start, goal, &joined, err);
        if (st != NB_OK || joined)
            return st;
    }
    nbi_ring s;
    memset(&s, 0, sizeof s);
    s.clear = clear;
    s.size = reach->size;
    s.ov = reach->ov;
    s.reach = reach;
    s.start = start;
    s.comp = comp;
    s.comp_want = want;
    s.tell = reach->ov || !comp;
    nbi_ring_begin(&s, goal.x, goal.y, INFINITY);
    nbi_ring_run(&s, UINT64_MAX);
    if (s.fail)
        return nbi_fail(err, s.fail, "no memory for the searches that tell reach");
    *target = s.cell; /* the start qualifies, so there is one */
    *partial = 1;
    return NB_OK;
}

nb_status nbi_partial_target(nbi_partial *pp, const char *family, nb_capability cap,
                             uint32_t size, const nb_overlay *ov, nb_cell start, nb_cell goal,
                             nb_cell *target, int *partial, nb_err *err)
{
    const nb_bundle *b = pp->reach.b;
    *target = goal;
    *partial = 0;
    nb_status st = nbi_agent_layer(b, family, cap, size, &pp->clear, err);
    if (st != NB_OK)
        return st;
    ov = ov && ov->blocked ? ov : NULL;
    if (!nbi_stands_under(&pp->clear, size, ov, (uint32_t)start.x, (uint32_t)start.y))
        return NB_OK; /* the family says NB_PATH_START_BLOCKED */
    /* Without a component layer reach's searches tell everything; a damaged one is an error. */
    st = nbi_components_layer(b, cap, size, &pp->comp, err);
    if (st != NB_OK && st != NB_ERR_NOTFOUND)
        return st;
    nbi_reach_use(&pp->reach, &pp->clear, size, ov);
    st = nbi_partial_goal(&pp->reach, st == NB_OK ? &pp->comp : NULL, start, goal, target,
                          partial, err);
    if (st != NB_OK)
        nbi_err_prefix(err, "%s", family);
    return st;
}
