/* query_sg.c: the optimal-search layer (subgoal graphs) as a method of
 * 'navbake query' and 'navbake scen': 'optimal', also called 'subgoal'. */
#include <stdlib.h>

#include "query_common.h"

struct sg_state {
    nb_sg *ws;
    nb_sg_query q;
};

static int sg_open(const nb_bundle *b, const nbc_agent *a, void **state, nb_err *err)
{
    struct sg_state *s = calloc(1, sizeof *s);
    if (!s)
        return nbb_fail(err, NB_ERR_NOMEM, "no memory"), NBC_EXIT_FAIL;
    if (nb_sg_open(b, 0, &s->ws, err) != NB_OK) {
        free(s);
        return NBC_EXIT_FAIL;
    }
    nb_sg_query_init(&s->q);
    s->q.size = a->size;
    s->q.capability = a->capability;
    s->q.corner = a->corner;
    *state = s;
    return NBC_EXIT_OK;
}

static nb_status sg_solve(void *state, nb_cell from, nb_cell to, nbc_answer *ans, nb_err *err)
{
    struct sg_state *s = state;
    nb_sg_result r;
    s->q.start = from;
    s->q.goal = to;
    nb_status st = nb_sg_find(s->ws, &s->q, &r, err);
    ans->status = r.status;
    ans->length = r.length;
    ans->expanded = r.expanded;
    ans->searched = r.searched;
    ans->path_len = r.path_len;
    ans->path = r.path;
    return st;
}

static void sg_close(void *state)
{
    struct sg_state *s = state;
    if (s)
        nb_sg_close(s->ws);
    free(s);
}

const nbc_method nbc_method_optimal = {
    .name = "optimal",
    .summary = "optimal paths from the subgoal graph mkclear --optimal bakes",
    .open = sg_open,
    .solve = sg_solve,
    .close = sg_close,
};
const nbc_method nbc_method_subgoal = {
    .name = "subgoal",
    .summary = "the same as optimal (its technique's name)",
    .open = sg_open,
    .solve = sg_solve,
    .close = sg_close,
};
