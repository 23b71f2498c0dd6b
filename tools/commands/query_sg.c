/* query_sg.c: the optimal-search layer (subgoal graphs) as a method of
 * 'navbake query' and 'navbake scen': 'optimal', also called 'subgoal'. */
#include <stdio.h>
#include <stdlib.h>

#include "query_common.h"

extern const nbc_method nbc_method_aa;

struct sg_state {
    nb_sg *ws;
    nb_sg_query q;
    void *aa; /* Annotated A*'s state when the bundle has no layer for the agent */
    double setup_us;
};

/* The layer for this agent, or Annotated A* in its place: a bundle holds
 * optimal-search layers for the corner rules mkclear --optimal was given
 * and the agent set's (capability, size) pairs only, and the library
 * refuses other agents (NB_ERR_NOTFOUND) for its caller to fall back, as
 * this one does, saying so on standard error.  An agent with terrain costs gets the least-cost
 * path of the layer customized to its costs, under an overlay too. */
static int sg_open(const nb_bundle *b, const nbc_agent *a, void **state, nb_err *err)
{
    struct sg_state *s = calloc(1, sizeof *s);
    if (!s)
        return nbb_fail(err, NB_ERR_NOMEM, "no memory"), NBC_EXIT_FAIL;
    nb_sg_query_init(&s->q);
    s->q.size = a->size;
    s->q.capability = a->capability;
    s->q.corner = a->corner;
    s->q.overlay = a->overlay;
    s->q.partial = a->partial;
    s->q.costs = a->costs;
    double t0 = nbc_now_us();
    nb_status st = nb_sg_open(b, &s->ws, err);
    s->setup_us = nbc_now_us() - t0;
    if (st == NB_OK) {
        /* A query of the agent's own, from a cell to itself, says whether
         * there is a layer for it. */
        nb_sg_result r;
        st = nb_sg_find(s->ws, &s->q, &r, err);
    }
    if (st == NB_ERR_NOTFOUND) {
        fprintf(stderr, "%s: note: %s; answering with Annotated A* (aa)\n", nbc_prog, err->msg);
        nb_sg_close(s->ws);
        s->ws = NULL;
        int rc = nbc_method_aa.open(b, a, &s->aa, err);
        if (rc != NBC_EXIT_OK) {
            free(s);
            return rc;
        }
    } else if (st != NB_OK) {
        nb_sg_close(s->ws);
        free(s);
        return NBC_EXIT_FAIL;
    }
    *state = s;
    return NBC_EXIT_OK;
}

static nb_status sg_solve(void *state, nb_cell from, nb_cell to, nbc_answer *ans, nb_err *err)
{
    struct sg_state *s = state;
    if (s->aa)
        return nbc_method_aa.solve(s->aa, from, to, ans, err);
    nb_sg_result r;
    s->q.start = from;
    s->q.goal = to;
    nb_status st = nb_sg_find(s->ws, &s->q, &r, err);
    *ans = NBC_ANSWER_OF(r, r.cost);
    return st;
}

static void sg_workspace(void *state, size_t *bytes, double *setup_us)
{
    struct sg_state *s = state;
    if (s->aa) {
        nbc_method_aa.workspace(s->aa, bytes, setup_us);
        return;
    }
    *bytes = nb_sg_bytes(s->ws);
    *setup_us = s->setup_us;
}

static void sg_close(void *state)
{
    struct sg_state *s = state;
    if (s) {
        nb_sg_close(s->ws);
        if (s->aa)
            nbc_method_aa.close(s->aa);
    }
    free(s);
}

const nbc_method nbc_method_optimal = {
    .name = "optimal",
    .summary = "optimal paths from the subgoal graph mkclear --optimal bakes",
    .open = sg_open,
    .solve = sg_solve,
    .close = sg_close,
    .workspace = sg_workspace,
};
const nbc_method nbc_method_subgoal = {
    .name = "subgoal",
    .summary = "the same as optimal (its technique's name)",
    .open = sg_open,
    .solve = sg_solve,
    .close = sg_close,
    .workspace = sg_workspace,
};
