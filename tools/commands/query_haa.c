/* query_haa.c: HAA* as methods of 'navbake query' and 'navbake scen'.
 *
 * 'haa' answers with the refined path straightened (NB_HAA_STRAIGHTEN),
 * 'haa-refined' with the refined path as the paper's procedure leaves it,
 * 'haa-smooth' with seed 004's simple smoothing (waypoints, straight
 * segments).  HAA* paths are not always the shortest: each method also
 * gives, when asked and apart from its timed answer, AA*'s optimal length,
 * which scen and query --compare report the error against.  AA*'s
 * workspace is made then, not before: a query that does not compare runs
 * HAA* alone. */
#include <stdlib.h>

#include "query_common.h"

struct haa_state {
    const nb_bundle *b;
    nb_haa *ws;
    nb_aa *ref; /* the reference's, made at its first query */
    nb_haa_query q;
    double setup_us; /* nb_haa_open's alone */
};

static int haa_open_flags(const nb_bundle *b, const nbc_agent *a, void **state, nb_err *err,
                          unsigned flags)
{
    struct haa_state *s = calloc(1, sizeof *s);
    if (!s)
        return nbb_fail(err, NB_ERR_NOMEM, "no memory"), NBC_EXIT_FAIL;
    double t0 = nbc_now_us();
    nb_status st = nb_haa_open(b, &s->ws, err);
    s->setup_us = nbc_now_us() - t0;
    if (st != NB_OK) {
        free(s);
        return NBC_EXIT_FAIL;
    }
    s->b = b;
    nb_haa_query_init(&s->q);
    NBC_QUERY_AGENT(s->q, a);
    nb_haa_set_levels(s->ws, a->levels);
    s->q.flags = flags;
    *state = s;
    return NBC_EXIT_OK;
}

static int haa_open(const nb_bundle *b, const nbc_agent *a, void **state, nb_err *err)
{
    return haa_open_flags(b, a, state, err, NB_HAA_STRAIGHTEN);
}

static int haa_open_refined(const nb_bundle *b, const nbc_agent *a, void **state, nb_err *err)
{
    return haa_open_flags(b, a, state, err, 0);
}

static int haa_open_smooth(const nb_bundle *b, const nbc_agent *a, void **state, nb_err *err)
{
    return haa_open_flags(b, a, state, err, NB_HAA_STRAIGHTEN | NB_HAA_SMOOTH);
}

static nb_status haa_solve(void *state, nb_cell from, nb_cell to, nbc_answer *ans, nb_err *err)
{
    struct haa_state *s = state;
    nb_haa_result r;
    s->q.start = from;
    s->q.goal = to;
    nb_status st = nb_haa_find(s->ws, &s->q, &r, err);
    /* A smoothed path is waypoints: measured by their straight segments,
     * but under terrain costs by the cell path's cost (the only cost the
     * search knows; smoothing ignores costs). */
    int smooth = (s->q.flags & NB_HAA_SMOOTH) != 0;
    *ans = NBC_ANSWER_OF(r, smooth && !s->q.costs ? r.length : r.cost);
    ans->level = r.level;
    ans->waypoints = smooth;
    return st;
}

/* AA*'s optimal cost (its length without terrain costs) for the same query, -1 when there is
 * no path. */
static nb_status haa_reference(void *state, nb_cell from, nb_cell to, double *length, nb_err *err)
{
    struct haa_state *s = state;
    nb_status st = s->ref ? NB_OK : nb_aa_open(s->b, &s->ref, err);
    if (st != NB_OK)
        return st;
    nb_aa_result r;
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.start = from;
    q.goal = to;
    q.size = s->q.size;
    q.capability = s->q.capability;
    q.corner = s->q.corner;
    q.costs = s->q.costs;
    q.overlay = s->q.overlay;
    q.max_expansions = 0; /* the optimum, whatever the budget of the answer */
    st = nb_aa_find(s->ref, &q, &r, err);
    *length = st == NB_OK && r.status == NB_PATH_FOUND ? r.cost : -1;
    return st;
}

static void haa_workspace(void *state, size_t *bytes, double *setup_us)
{
    struct haa_state *s = state;
    *bytes = nb_haa_bytes(s->ws);
    *setup_us = s->setup_us;
}

static void haa_close(void *state)
{
    struct haa_state *s = state;
    if (s) {
        nb_haa_close(s->ws);
        nb_aa_close(s->ref);
    }
    free(s);
}

const nbc_method nbc_method_haa = {
    .name = "haa",
    .summary = "HAA* on the bundle's abstract graph (mkabstract), the path straightened",
    .open = haa_open,
    .solve = haa_solve,
    .close = haa_close,
    .reference = haa_reference,
    .workspace = haa_workspace,
};
const nbc_method nbc_method_haa_refined = {
    .name = "haa-refined",
    .summary = "HAA*, the refined path as the paper's procedure leaves it",
    .open = haa_open_refined,
    .solve = haa_solve,
    .close = haa_close,
    .reference = haa_reference,
    .workspace = haa_workspace,
};
const nbc_method nbc_method_haa_smooth = {
    .name = "haa-smooth",
    .summary = "HAA*, straightened, then smoothed for the agent's square (waypoints)",
    .open = haa_open_smooth,
    .solve = haa_solve,
    .close = haa_close,
    .reference = haa_reference,
    .workspace = haa_workspace,
};

nb_status nbc_error_add(nbc_error_stats *es, const nbc_session *s, nb_cell from, nb_cell to,
                        const nbc_answer *ans, const char *where, int verbose, int json,
                        double *optimal, nb_err *err)
{
    double t0 = nbc_now_us();
    nb_status st = s->method->reference(s->state, from, to, optimal, err);
    es->ref_us += nbc_now_us() - t0;
    if (st != NB_OK)
        return st;
    es->answers++;
    int found = ans->status == NB_PATH_FOUND;
    const char *bad = NULL;
    if (found != (*optimal >= 0))
        bad = found ? "a path where Annotated A* finds none" : "no path, but Annotated A* finds one";
    else if (found && ans->cost < *optimal - 1e-9 * (1 + *optimal) &&
             !(ans->waypoints && !s->agent.costs))
        bad = "a path shorter than Annotated A*'s optimum"; /* straight segments may be */
    if (bad) {
        es->mismatch++;
        if (!json && (verbose || es->shown < 10)) {
            es->shown++;
            printf("mismatch   %s%s%d,%d -> %d,%d: %s\n", where ? where : "", where ? ": " : "",
                   from.x, from.y, to.x, to.y, bad);
        }
        return NB_OK;
    }
    if (!found)
        return NB_OK;
    es->found++;
    double e = *optimal > 0 ? 100.0 * (ans->cost - *optimal) / *optimal : 0;
    es->sum += e;
    if (e > es->max)
        es->max = e;
    return NB_OK;
}

void nbc_error_print(const nbc_error_stats *es, double method_us, int json)
{
    double mean = es->found ? es->sum / (double)es->found : 0;
    double ref = es->answers ? es->ref_us / (double)es->answers : 0;
    if (json) {
        printf(", \"error_mean_pct\": %.4f, \"error_max_pct\": %.4f, \"mismatches\": %zu, "
               "\"reference_mean_us\": %.2f",
               mean, es->max, es->mismatch, ref);
        return;
    }
    printf("error      mean %.3f %%, largest %.3f %% against Annotated A*'s optimal lengths "
           "(%zu paths)\n",
           mean, es->max, es->found);
    printf("reference  Annotated A* mean %.1f us per query (%.2f times this method's)\n", ref,
           method_us > 0 ? ref / method_us : 0);
    if (es->mismatch)
        printf("mismatch   %zu queries answered unlike Annotated A*\n", es->mismatch);
}
