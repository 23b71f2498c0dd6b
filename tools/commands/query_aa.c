/* query_aa.c: Annotated A* as a method of 'navbake query' and 'navbake
 * scen' (the default). */
#include <stdlib.h>

#include "query_common.h"

struct aa_state {
    nb_aa *ws;
    nb_aa_query q;
    double setup_us;
};

static int aa_open(const nb_bundle *b, const nbc_agent *a, void **state, nb_err *err)
{
    struct aa_state *s = calloc(1, sizeof *s);
    if (!s)
        return nbb_fail(err, NB_ERR_NOMEM, "no memory"), NBC_EXIT_FAIL;
    double t0 = nbc_now_us();
    if (nb_aa_open(b, &s->ws, err) != NB_OK) {
        free(s);
        return NBC_EXIT_FAIL;
    }
    s->setup_us = nbc_now_us() - t0;
    nb_aa_query_init(&s->q);
    NBC_QUERY_AGENT(s->q, a);
    *state = s;
    return NBC_EXIT_OK;
}

static nb_status aa_solve(void *state, nb_cell from, nb_cell to, nbc_answer *ans, nb_err *err)
{
    struct aa_state *s = state;
    nb_aa_result r;
    s->q.start = from;
    s->q.goal = to;
    nb_status st = nb_aa_find(s->ws, &s->q, &r, err);
    *ans = NBC_ANSWER_OF(r, r.cost);
    return st;
}

static void aa_workspace(void *state, size_t *bytes, double *setup_us)
{
    struct aa_state *s = state;
    *bytes = nb_aa_bytes(s->ws);
    *setup_us = s->setup_us;
}

static void aa_close(void *state)
{
    struct aa_state *s = state;
    if (s)
        nb_aa_close(s->ws);
    free(s);
}

const nbc_method nbc_method_aa = {
    "aa", "Annotated A*: optimal, over the clearance layer", aa_open, aa_solve, aa_close, NULL,
    NULL, NULL, aa_workspace,
};
