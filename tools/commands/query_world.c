/* query_world.c: the methods of 'navbake query' and 'navbake scen' on a
 * world of tiles (world_session.h): aa (nb_world_aa_find), haa and
 * haa-refined (nb_world_haa_find, with and without NB_HAA_STRAIGHTEN) and
 * optimal (nb_world_sg_find, a world baked with `optimal: 1`), each
 * asking again after loading the tiles a query names.  They answer as
 * their bundle methods do (query_aa.c, query_haa.c), so both commands run,
 * print and time them alike; haa's reference is aa across the same world. */
#include <stdlib.h>

#include "query_common.h"

struct world_state {
    nbc_world_session *ws;
    nb_world_aa *aa; /* aa's, or haa's reference, made at its first query */
    nb_aa_query aq;
    nb_world_haa *haa;
    nb_haa_query hq;
    nb_world_sg *sg;
    nb_sg_query sq;
    double setup_us;
};

/* Annotated A* across the world, loading what it names until it answers. */
static nb_status aa_find(struct world_state *s, nb_aa_result *r, nb_err *err)
{
    memset(r, 0, sizeof *r);
    nb_status st = s->aa ? NB_OK : nb_world_aa_open(s->ws->world, &s->aa, err);
    while (st == NB_OK &&
           (st = nb_world_aa_find(s->aa, &s->aq, s->ws->overlay, r, err)) == NB_ERR_UNLOADED)
        st = nbc_world_session_load(s->ws, nb_world_aa_needed(s->aa, s->ws->need, s->ws->ntiles),
                                    err);
    return st;
}

static int world_open(nbc_world_session *ws, const nbc_agent *a, void **state, nb_err *err,
                      int haa, int sg, unsigned flags)
{
    struct world_state *s = calloc(1, sizeof *s);
    if (!s)
        return nbb_fail(err, NB_ERR_NOMEM, "no memory"), NBC_EXIT_FAIL;
    s->ws = ws;
    double t0 = nbc_now_us();
    nb_status st = sg    ? nb_world_sg_open(ws->world, &s->sg, err)
                   : haa ? nb_world_haa_open(ws->world, &s->haa, err)
                         : nb_world_aa_open(ws->world, &s->aa, err);
    s->setup_us = nbc_now_us() - t0;
    if (st != NB_OK) {
        free(s);
        return NBC_EXIT_FAIL;
    }
    /* The agent's overlay is NULL on a world: its blocked cells are the session's overlay. */
    nb_aa_query_init(&s->aq);
    NBC_QUERY_AGENT(s->aq, a);
    nb_haa_query_init(&s->hq);
    NBC_QUERY_AGENT(s->hq, a);
    s->hq.flags = flags;
    nb_sg_query_init(&s->sq);
    NBC_QUERY_AGENT(s->sq, a);
    *state = s;
    return NBC_EXIT_OK;
}

static nb_status aa_solve(void *state, nb_cell from, nb_cell to, nbc_answer *ans, nb_err *err)
{
    struct world_state *s = state;
    nb_aa_result r;
    s->aq.start = from;
    s->aq.goal = to;
    nb_status st = aa_find(s, &r, err);
    *ans = NBC_ANSWER_OF(r, r.cost);
    return st;
}

static nb_status haa_solve(void *state, nb_cell from, nb_cell to, nbc_answer *ans, nb_err *err)
{
    struct world_state *s = state;
    nb_haa_result r;
    s->hq.start = from;
    s->hq.goal = to;
    nb_status st;
    while ((st = nb_world_haa_find(s->haa, &s->hq, s->ws->overlay, &r, err)) == NB_ERR_UNLOADED &&
           (st = nbc_world_session_load(
                s->ws, nb_world_haa_needed(s->haa, s->ws->need, s->ws->ntiles), err)) == NB_OK)
        ;
    *ans = NBC_ANSWER_OF(r, r.cost);
    ans->level = r.level;
    return st;
}

static nb_status sg_solve(void *state, nb_cell from, nb_cell to, nbc_answer *ans, nb_err *err)
{
    struct world_state *s = state;
    nb_sg_result r;
    s->sq.start = from;
    s->sq.goal = to;
    nb_status st;
    while ((st = nb_world_sg_find(s->sg, &s->sq, s->ws->overlay, &r, err)) == NB_ERR_UNLOADED &&
           (st = nbc_world_session_load(
                s->ws, nb_world_sg_needed(s->sg, s->ws->need, s->ws->ntiles), err)) == NB_OK)
        ;
    *ans = NBC_ANSWER_OF(r, r.cost);
    return st;
}

/* Annotated A*'s optimal cost across the world, -1 when there is no path (query_haa.c's
 * reference on a bundle). */
static nb_status haa_reference(void *state, nb_cell from, nb_cell to, double *length, nb_err *err)
{
    struct world_state *s = state;
    nb_aa_result r;
    s->aq.start = from;
    s->aq.goal = to;
    s->aq.max_expansions = 0; /* the optimum, whatever the budget of the answer */
    nb_status st = aa_find(s, &r, err);
    *length = st == NB_OK && r.status == NB_PATH_FOUND ? r.cost : -1;
    return st;
}

static void workspace(void *state, size_t *bytes, double *setup_us)
{
    struct world_state *s = state;
    *bytes = s->sg    ? nb_world_sg_bytes(s->sg)
             : s->haa ? nb_world_haa_bytes(s->haa)
                      : nb_world_aa_bytes(s->aa);
    *setup_us = s->setup_us;
}

static void world_close(void *state)
{
    struct world_state *s = state;
    if (s) {
        nb_world_aa_close(s->aa);
        nb_world_haa_close(s->haa);
        nb_world_sg_close(s->sg);
    }
    free(s);
}

static const nbc_method world_aa = {
    "aa", "Annotated A* across the tiles (nb_world_aa_find)", NULL, aa_solve, world_close, NULL,
    NULL, NULL, workspace,
};
static const nbc_method world_haa = {
    "haa", "HAA* across the tiles, straightened (nb_world_haa_find)", NULL, haa_solve,
    world_close, NULL, NULL, haa_reference, workspace,
};
static const nbc_method world_haa_refined = {
    "haa-refined", "HAA* across the tiles as refined (nb_world_haa_find)", NULL, haa_solve,
    world_close, NULL, NULL, haa_reference, workspace,
};

static const nbc_method world_optimal = {
    "optimal", "the optimal layer across the tiles, exact (nb_world_sg_find)", NULL, sg_solve,
    world_close, NULL, NULL, NULL, workspace,
};

int nbc_world_method_open(const char *name, nbc_world_session *ws, const nbc_agent *a,
                          const nbc_method **m, void **state)
{
    static const nbc_method *const all[] = {&world_aa, &world_haa, &world_haa_refined,
                                            &world_optimal};
    nb_err err;
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (strcmp(all[i]->name, name ? name : "aa") == 0) {
            *m = all[i];
            int sg = all[i] == &world_optimal, haa = !sg && all[i] != &world_aa;
            unsigned flags = all[i] == &world_haa ? NB_HAA_STRAIGHTEN : 0;
            return world_open(ws, a, state, &err, haa, sg, flags) == NBC_EXIT_OK
                       ? NBC_EXIT_OK
                       : nbc_fail_err(&err);
        }
    return nbc_usage("--method %s does not take a world of tiles (aa, haa, haa-refined and "
                     "optimal do)",
                     name);
}
