/* test_place_slices.c: the place families' sliced forms and budgets
 * (nb_nearest_*, nb_line_*, nb_random_* begin/step/finish).
 *
 * On random levels, for random queries: a query stepped in slices of 1, 7
 * and 64 expansions ends with the answer nb_X_find gives (each family's
 * find is begin, one step and finish); with a budget below what find
 * read, the answer is NB_PATH_LIMIT, having read no more than the budget
 * (nearest: plus nothing; a line: plus the rest of one row of cells), and
 * what it says is true: the nearest cell so far is standable and no
 * nearer than find's, the free fraction of a line is no more than find's.
 * finish before the end is NB_PATH_LIMIT; step and finish with nothing
 * begun are NB_ERR_ARG. */
#include <math.h>

#include "placeutil.h"

static const uint64_t slices[] = {1, 7, 64};

static nb_cell random_cell(tu_rng *r, const pu_level *L)
{
    return (nb_cell){(int32_t)tu_below(r, L->grid.width), (int32_t)tu_below(r, L->grid.height)};
}

static void check(pu_level *L, tu_rng *r)
{
    long near_bad = 0, line_bad = 0, rand_bad = 0, limits = 0, n = 0;
    nb_err err;
    for (unsigned long i = 0; i < pu_queries() / 10; i++) {
        const pu_pair *P = &L->pair[tu_below(r, (uint32_t)L->npairs)];
        nb_place *p = P->place;
        int done;
        /* nearest */
        nb_nearest_query nq;
        nb_nearest_result want, got;
        nb_nearest_query_init(&nq);
        nq.size = P->size, nq.capability = P->cap;
        nq.point = random_cell(r, L);
        nq.radius = tu_below(r, 2) ? INFINITY : tu_below(r, 20);
        if (nb_nearest_find(p, &nq, &want, &err) != NB_OK)
            continue;
        n++;
        for (size_t k = 0; k < 3; k++) {
            nb_status st = nb_nearest_begin(p, &nq, &err);
            done = 0;
            while (st == NB_OK && !done)
                st = nb_nearest_step(p, slices[k], &done, &err);
            if (st != NB_OK || nb_nearest_finish(p, &got, &err) != NB_OK ||
                got.status != want.status || got.cell.x != want.cell.x ||
                got.cell.y != want.cell.y || got.examined != want.examined)
                near_bad++;
        }
        if (want.examined > 2) {
            nq.max_expansions = want.examined / 2;
            limits++;
            if (nb_nearest_find(p, &nq, &got, &err) != NB_OK || got.status != NB_PATH_LIMIT ||
                got.examined > nq.max_expansions ||
                (got.cell.x >= 0 &&
                 (!P->stand[(size_t)got.cell.y * L->grid.width + (size_t)got.cell.x] ||
                  got.distance < want.distance)))
                near_bad++;
        }
        /* a line */
        nb_line_query lq;
        nb_line_result lw, lg;
        nb_line_query_init(&lq);
        lq.size = P->size, lq.capability = P->cap;
        nb_cell a = random_cell(r, L), b = random_cell(r, L);
        lq.start = (nb_vec2){a.x + tu_below(r, 4) / 4.0, a.y};
        lq.goal = (nb_vec2){b.x, b.y + tu_below(r, 4) / 4.0};
        if (nb_line_find(p, &lq, &lw, &err) != NB_OK) {
            line_bad++;
            continue;
        }
        for (size_t k = 0; k < 3; k++) {
            nb_status st = nb_line_begin(p, &lq, &err);
            done = 0;
            while (st == NB_OK && !done)
                st = nb_line_step(p, slices[k], &done, &err);
            if (st != NB_OK || nb_line_finish(p, &lg, &err) != NB_OK || lg.status != lw.status ||
                lg.t != lw.t || lg.blocking.x != lw.blocking.x || lg.examined != lw.examined) {
                if (line_bad++ < 3)
                    diag("line (%g, %g)-(%g, %g) size %u in slices of %llu: %s t %g examined "
                         "%llu, find %s t %g examined %llu", lq.start.x, lq.start.y, lq.goal.x,
                         lq.goal.y, P->size, (unsigned long long)slices[k],
                         nb_path_status_str(lg.status), lg.t, (unsigned long long)lg.examined,
                         nb_path_status_str(lw.status), lw.t, (unsigned long long)lw.examined);
            }
        }
        if (lw.status != NB_PATH_START_BLOCKED && lw.examined > 2) {
            lq.max_expansions = lw.examined / 2;
            if (nb_line_find(p, &lq, &lg, &err) != NB_OK || lg.status != NB_PATH_LIMIT ||
                lg.examined > lq.max_expansions + L->grid.width + P->size + 2 ||
                !(lg.t >= 0 && lg.t <= lw.t)) {
                if (line_bad++ < 3)
                    diag("line (%g, %g)-(%g, %g) size %u at a budget of %llu: %s t %g examined "
                         "%llu, find %s t %g", lq.start.x, lq.start.y, lq.goal.x, lq.goal.y,
                         P->size, (unsigned long long)lq.max_expansions,
                         nb_path_status_str(lg.status), lg.t, (unsigned long long)lg.examined,
                         nb_path_status_str(lw.status), lw.t);
            }
        }
        /* a random draw */
        nb_random_query rq;
        nb_random_result rw, rg;
        nb_random_query_init(&rq);
        rq.size = P->size, rq.capability = P->cap;
        rq.seed = tu_rand(r);
        rq.reachable = tu_below(r, 2);
        rq.start = random_cell(r, L);
        if (nb_random_find(p, &rq, &rw, &err) != NB_OK)
            continue;
        nb_status st = nb_random_begin(p, &rq, &err);
        done = 0;
        while (st == NB_OK && !done)
            st = nb_random_step(p, 1, &done, &err);
        if (st != NB_OK || nb_random_finish(p, &rg, &err) != NB_OK || rg.status != rw.status ||
            rg.cell.x != rw.cell.x || rg.cell.y != rw.cell.y || rg.state != rw.state)
            rand_bad++;
    }
    is_int(near_bad, 0, "%s: %ld nearest searches in slices of 1, 7, 64 are find's; %ld at a "
           "budget of half stop there with a true partial answer", L->name, n, limits);
    is_int(line_bad, 0, "%s: lines in slices are find's; at half the budget, partial and true",
           L->name);
    is_int(rand_bad, 0, "%s: a draw stepped is find's draw", L->name);
}

static void misuse(void)
{
    pu_level L;
    if (!pu_level_chars(&L, 4, 2, "....@...", "misuse"))
        return;
    nb_place *p = L.pair[0].place;
    nb_err err;
    int done;
    nb_nearest_result nr;
    nb_line_result lr;
    nb_random_result rr;
    ok(nb_nearest_step(p, 1, &done, &err) == NB_ERR_ARG &&
           nb_nearest_finish(p, &nr, &err) == NB_ERR_ARG &&
           nb_line_step(p, 1, &done, &err) == NB_ERR_ARG &&
           nb_line_finish(p, &lr, &err) == NB_ERR_ARG &&
           nb_random_step(p, 1, &done, &err) == NB_ERR_ARG &&
           nb_random_finish(p, &rr, &err) == NB_ERR_ARG,
       "step and finish with nothing begun: NB_ERR_ARG");
    nb_line_query lq;
    nb_line_query_init(&lq);
    lq.size = L.pair[0].size, lq.capability = L.pair[0].cap;
    lq.goal = (nb_vec2){3, 1.5};
    ok(nb_line_begin(p, &lq, &err) == NB_OK && nb_line_finish(p, &lr, &err) == NB_OK &&
           lr.status == NB_PATH_LIMIT && lr.t >= 0 && lr.t <= 1,
       "a line finished before a step: NB_PATH_LIMIT, t %g", lr.t);
    nb_random_query rq;
    nb_random_query_init(&rq);
    rq.size = L.pair[0].size, rq.capability = L.pair[0].cap;
    ok(nb_random_begin(p, &rq, &err) == NB_OK && nb_random_finish(p, &rr, &err) == NB_OK &&
           rr.status == NB_PATH_LIMIT && rr.state == rq.seed,
       "a draw finished before its step: NB_PATH_LIMIT, the seed unspent");
    ok(nb_nearest_step(p, 1, &done, &err) == NB_ERR_ARG,
       "finish ends the query: a step after it is NB_ERR_ARG");
    pu_level_close(&L);
}

int main(void)
{
    pu_each_level(check, 41);
    misuse();
    return done_testing();
}
