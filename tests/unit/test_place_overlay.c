/* test_place_overlay.c: nearest, line and random under an overlay, against
 * the brute force on the edited map: the level's grid with every cell the
 * overlay blocks made a wall ('@'), and the brute facts (where the agent
 * stands and enters, its components under the strict rule) made again
 * from it by brute.c, which shares nothing with the runtime.  On random
 * levels of several terrains, three capabilities and sizes 1 to 3, with
 * overlays of 1 to 6 rectangles of 1 x 1 to 8 x 8 cells and, half the
 * time, a hollow square whose wall cuts its inside off from the rest of
 * its component (the case the component layer cannot see):
 *
 *  - nearest (with and without --reachable-from, any radius): the status,
 *    the cell and the distance are the brute force's on the edited map,
 *    and a start the overlay blocks is START_BLOCKED;
 *  - line: the status, the fraction travelled and the blocking cell are
 *    brute_line_cells' with the blocked cells as walls;
 *  - random (from the whole map and from a cell): the draw the documents
 *    specify, replayed here: an index below the bundle's cell count of
 *    the component drawn with brute_below, the cell of that rank in the
 *    bundle's component (row-major), kept when the agent stands there on
 *    the edited map and, from a cell, lies in that cell's edited
 *    component; the cell, the state after the draws and their count
 *    agree, and the cell kept is always one the brute force allows;
 *  - nearest in slices of 1 to 20 cells, and random a draw at a time,
 *    give find's answers (and the same count of reach's expansions);
 *  - an overlay that blocks every standable cell leaves random NONE, and a
 *    budget of draws that all miss is LIMIT with the state moved on.
 * NB_PLACE_QUERIES sets the queries per level, NB_PLACE_LEVELS the
 * levels, as for the other place tests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "placeutil.h"

#define Q ((int64_t)NB_LINE_RESOLUTION)

/* The brute facts of one pair on the edited map. */
typedef struct edited {
    uint8_t *stand, *pass;
    uint32_t *comp;
} edited;

/* The grid with the overlay's cells made walls. */
static void edit_grid(const pu_level *L, const nb_overlay *ov, nbb_grid *e)
{
    const nbb_grid *g = &L->grid;
    e->width = g->width;
    e->height = g->height;
    e->cells = malloc((size_t)g->width * g->height);
    for (uint32_t y = 0; y < g->height; y++)
        for (uint32_t x = 0; x < g->width; x++) {
            size_t i = (size_t)y * g->width + x;
            e->cells[i] = nb_overlay_blocked(ov, x, y) ? '@' : g->cells[i];
        }
}

static void edited_make(const pu_level *L, const nbb_grid *e, const pu_pair *P, edited *E)
{
    size_t n = (size_t)e->width * e->height;
    E->stand = malloc(n);
    E->pass = malloc(n);
    E->comp = malloc(n * sizeof *E->comp);
    for (size_t i = 0; i < n; i++) {
        long x = (long)(i % e->width), y = (long)(i / e->width);
        E->stand[i] = (uint8_t)brute_can_stand(&L->legend, e, P->cap, P->size, x, y);
        E->pass[i] = (uint8_t)brute_passable(&L->legend, e, P->cap, x, y);
    }
    brute_components(&L->legend, e, P->cap, P->size, BRUTE_STRICT, E->comp);
}

static void edited_free(edited *E)
{
    free(E->stand);
    free(E->pass);
    free(E->comp);
}

/* 1 to 6 rectangles, and half the time a hollow square around a cell where
 * an agent stands. */
static void random_overlay(tu_rng *r, const pu_level *L, nb_overlay *ov)
{
    const nbb_grid *g = &L->grid;
    nb_overlay_clear(ov);
    unsigned n = 1 + tu_below(r, 6);
    for (unsigned k = 0; k < n; k++) {
        long w = 1 + tu_below(r, 8), h = 1 + tu_below(r, 8);
        long x = tu_below(r, g->width), y = tu_below(r, g->height);
        if (x + w > (long)g->width)
            w = (long)g->width - x;
        if (y + h > (long)g->height)
            h = (long)g->height - y;
        nb_overlay_block(ov, x, y, w, h, NULL);
    }
    if (tu_below(r, 2) && g->width >= 7 && g->height >= 7) {
        long s = 5 + tu_below(r, 11);
        if (s > (long)g->width)
            s = (long)g->width;
        if (s > (long)g->height)
            s = (long)g->height;
        long x = tu_below(r, g->width - (uint32_t)s + 1), y = tu_below(r, g->height - (uint32_t)s + 1);
        nb_overlay_block(ov, x, y, s, 1, NULL);
        nb_overlay_block(ov, x, y + s - 1, s, 1, NULL);
        nb_overlay_block(ov, x, y, 1, s, NULL);
        nb_overlay_block(ov, x + s - 1, y, 1, s, NULL);
    }
}

static nb_cell random_cell(tu_rng *r, const nbb_grid *g)
{
    return (nb_cell){(int32_t)tu_below(r, g->width), (int32_t)tu_below(r, g->height)};
}

/* A cell where the agent stands on the edited map, mostly. */
static nb_cell some_start(tu_rng *r, const nbb_grid *g, const edited *E)
{
    nb_cell c = random_cell(r, g);
    for (int k = 0; k < 50 && tu_below(r, 8) && !E->stand[(size_t)c.y * g->width + (size_t)c.x]; k++)
        c = random_cell(r, g);
    return c;
}

typedef struct tally {
    unsigned long queries, bad, errors, found, reach, cut, expanded, sliced, bad_sliced;
} tally;

static void check_nearest(const pu_level *L, const pu_pair *P, const edited *E,
                          const nb_overlay *ov, tu_rng *r, tally *t)
{
    const nbb_grid *g = &L->grid;
    nb_nearest_query q;
    nb_nearest_query_init(&q);
    q.size = P->size;
    q.capability = P->cap;
    q.overlay = ov;
    q.point = random_cell(r, g);
    q.radius = tu_below(r, 3) ? INFINITY : tu_below(r, 41) / 2.0;
    if (tu_below(r, 4)) {
        q.reachable = 1;
        q.start = some_start(r, g, E);
    }
    nb_nearest_result res;
    nb_err err;
    t->queries++;
    if (nb_nearest_find(P->place, &q, &res, &err) != NB_OK) {
        if (t->errors++ < 3)
            diag("%s: nearest: %s", L->name, err.msg);
        return;
    }
    size_t si = (size_t)q.start.y * g->width + (size_t)q.start.x;
    long bx = -1, by = -1;
    nb_path_status want;
    if (q.reachable && !E->stand[si])
        want = NB_PATH_START_BLOCKED;
    else
        want = brute_nearest(E->stand, q.reachable ? E->comp : NULL, q.reachable ? E->comp[si] : 0,
                             g->width, g->height, q.point.x, q.point.y, q.radius, &bx, &by);
    /* The bundle's component held the answer's cell apart from the start's region: the case
     * only reach's searches tell. */
    if (q.reachable && want == NB_PATH_FOUND) {
        t->reach++;
        long cx, cy;
        if (brute_nearest(E->stand, P->strict, P->strict[si], g->width, g->height, q.point.x,
                          q.point.y, q.radius, &cx, &cy) == NB_PATH_FOUND &&
            (cx != bx || cy != by))
            t->cut++;
    }
    t->expanded += res.expanded;
    /* In slices of a few cells: find's answer. */
    if (tu_below(r, 4) == 0) {
        nb_nearest_result sr;
        int done = 0;
        uint64_t k = 1 + tu_below(r, 20);
        nb_status st = nb_nearest_begin(P->place, &q, NULL);
        while (st == NB_OK && !done)
            st = nb_nearest_step(P->place, k, &done, NULL);
        st = st == NB_OK ? nb_nearest_finish(P->place, &sr, NULL) : st;
        t->sliced++;
        t->bad_sliced += st != NB_OK || sr.status != res.status || sr.cell.x != res.cell.x ||
                         sr.cell.y != res.cell.y || sr.examined != res.examined ||
                         sr.expanded != res.expanded;
    }
    int same = res.status == want &&
               (want != NB_PATH_FOUND || (res.cell.x == bx && res.cell.y == by &&
                                          fabs(res.distance - nbi_octile_cells(
                                                                  (int32_t)bx, (int32_t)by,
                                                                  q.point.x, q.point.y)) < 1e-9));
    t->found += want == NB_PATH_FOUND;
    if (!same && t->bad++ < 5)
        diag("%s: cap %u size %u: nearest (%d, %d) radius %g%s (%d, %d): got %s (%d, %d), "
             "brute force on the edited map %s (%ld, %ld)",
             L->name, P->cap, P->size, q.point.x, q.point.y, q.radius,
             q.reachable ? " reachable from" : "", q.start.x, q.start.y,
             nb_path_status_str(res.status), res.cell.x, res.cell.y, nb_path_status_str(want), bx,
             by);
}

static void check_line(const pu_level *L, const pu_pair *P, const edited *E, const nb_overlay *ov,
                       tu_rng *r, tally *t)
{
    const nbb_grid *g = &L->grid;
    pu_pair EP = *P;
    EP.pass = E->pass;
    pu_ctx ctx = {L, &EP};
    int64_t p[4];
    for (int k = 0; k < 4; k++) {
        int64_t side = k % 2 ? g->height : g->width;
        p[k] = tu_below(r, 4) ? (int64_t)tu_below(r, (uint32_t)side) * Q + tu_below(r, (uint32_t)Q)
                              : (int64_t)tu_below(r, (uint32_t)side + 1) * Q;
        if (p[k] > side * Q)
            p[k] = side * Q;
    }
    brute_line want;
    brute_line_cells(pu_passable, &ctx, Q, P->size, p[0], p[1], p[2], p[3], &want);
    nb_line_query q;
    nb_line_query_init(&q);
    q.size = P->size;
    q.capability = P->cap;
    q.overlay = ov;
    q.start = (nb_vec2){(double)p[0] / Q, (double)p[1] / Q};
    q.goal = (nb_vec2){(double)p[2] / Q, (double)p[3] / Q};
    nb_line_result res;
    nb_err err;
    t->queries++;
    if (nb_line_find(P->place, &q, &res, &err) != NB_OK) {
        if (t->errors++ < 3)
            diag("%s: line: %s", L->name, err.msg);
        return;
    }
    double wt = (double)want.t.num / (double)want.t.den;
    int same = res.status == want.status && fabs(res.t - wt) < 1e-12 &&
               (want.status == NB_PATH_FOUND ||
                (res.blocking.x == want.bx && res.blocking.y == want.by));
    t->found += want.status == NB_PATH_FOUND;
    t->cut += want.status != NB_PATH_FOUND && want.bx >= 0 && want.by >= 0 &&
              want.bx < (long)g->width && want.by < (long)g->height &&
              nb_overlay_blocked(ov, want.bx, want.by);
    if (!same && t->bad++ < 5)
        diag("%s: cap %u size %u: line (%g, %g) -> (%g, %g): got %s t %.9f (%d, %d), brute "
             "force %s t %.9f (%ld, %ld)",
             L->name, P->cap, P->size, q.start.x, q.start.y, q.goal.x, q.goal.y,
             nb_path_status_str(res.status), res.t, res.blocking.x, res.blocking.y,
             nb_path_status_str(want.status), wt, want.bx, want.by);
}

/* The bundle's cells of component rank c (0: every one, in the order of the components),
 * row-major: what the runs draw from. */
static size_t population(const pu_level *L, const pu_pair *P, uint32_t c, uint32_t *out)
{
    size_t n = 0, cells = (size_t)L->grid.width * L->grid.height;
    for (uint32_t k = c ? c : 1; k <= (c ? c : P->ncomp); k++)
        for (size_t i = 0; i < cells; i++)
            if (P->strict[i] && P->rank[P->strict[i]] == k)
                out[n++] = (uint32_t)i;
    return n;
}

static void check_random(const pu_level *L, const pu_pair *P, const edited *E,
                         const nb_overlay *ov, tu_rng *r, uint32_t *pop, tally *t)
{
    const nbb_grid *g = &L->grid;
    nb_random_query q;
    nb_random_query_init(&q);
    q.size = P->size;
    q.capability = P->cap;
    q.overlay = ov;
    q.seed = tu_rand(r);
    if (tu_below(r, 2)) {
        q.reachable = 1;
        q.start = some_start(r, g, E);
    }
    nb_random_result res;
    nb_err err;
    t->queries++;
    if (nb_random_find(P->place, &q, &res, &err) != NB_OK) {
        if (t->errors++ < 3)
            diag("%s: random: %s", L->name, err.msg);
        return;
    }
    /* The draw replayed from its specification. */
    size_t si = (size_t)q.start.y * g->width + (size_t)q.start.x;
    nb_path_status want = NB_PATH_NONE;
    long wx = -1, wy = -1;
    uint64_t state = q.seed, draws = 0;
    uint32_t c = q.reachable ? (P->strict[si] ? P->rank[P->strict[si]] : 0) : 0;
    size_t n = 0, left = 0;
    if (q.reachable && !E->stand[si])
        want = NB_PATH_START_BLOCKED;
    else {
        n = population(L, P, c, pop);
        for (size_t k = 0; k < n; k++)
            left += E->stand[pop[k]] && (!q.reachable || E->comp[pop[k]] == E->comp[si]);
    }
    if (left) {
        for (;;) {
            uint32_t i = pop[brute_below(&state, n)];
            draws++;
            if (E->stand[i] && (!q.reachable || E->comp[i] == E->comp[si])) {
                want = NB_PATH_FOUND;
                wx = (long)(i % g->width);
                wy = (long)(i / g->width);
                break;
            }
        }
    }
    if (tu_below(r, 4) == 0) { /* a draw at a time: find's */
        nb_random_result sr;
        int done = 0;
        nb_status st = nb_random_begin(P->place, &q, NULL);
        while (st == NB_OK && !done)
            st = nb_random_step(P->place, 1, &done, NULL);
        st = st == NB_OK ? nb_random_finish(P->place, &sr, NULL) : st;
        t->sliced++;
        t->bad_sliced += st != NB_OK || sr.status != res.status || sr.cell.x != res.cell.x ||
                         sr.cell.y != res.cell.y || sr.state != res.state || sr.draws != res.draws;
    }
    t->found += want == NB_PATH_FOUND;
    t->cut += draws > 1;
    t->expanded += res.expanded;
    int same = res.status == want &&
               (want != NB_PATH_FOUND || (res.cell.x == wx && res.cell.y == wy &&
                                          res.state == state && res.draws == draws &&
                                          res.cells == n));
    if (!same && t->bad++ < 5)
        diag("%s: cap %u size %u: random%s (%d, %d) seed %llu: got %s (%d, %d) after %llu draws, "
             "the specification %s (%ld, %ld) after %llu",
             L->name, P->cap, P->size, q.reachable ? " from" : "", q.start.x, q.start.y,
             (unsigned long long)q.seed, nb_path_status_str(res.status), res.cell.x, res.cell.y,
             (unsigned long long)res.draws, nb_path_status_str(want), wx, wy,
             (unsigned long long)draws);
}

static void check_level(pu_level *L, tu_rng *r)
{
    const nbb_grid *g = &L->grid;
    unsigned long nq = pu_queries();
    const unsigned overlays = 8;
    tally tn = {0}, tl = {0}, tr = {0};
    nb_overlay *ov;
    nb_err err;
    if (!ok(nb_overlay_open(L->b, &ov, &err) == NB_OK, "%s: an overlay", L->name)) {
        diag("%s", err.msg);
        return;
    }
    uint32_t *pop = malloc(((size_t)g->width * g->height + 1) * sizeof *pop);
    for (unsigned o = 0; o < overlays; o++) {
        random_overlay(r, L, ov);
        nbb_grid e;
        edit_grid(L, ov, &e);
        for (size_t k = 0; k < L->npairs; k++) {
            const pu_pair *P = &L->pair[k];
            edited E;
            edited_make(L, &e, P, &E);
            unsigned long per = nq / overlays / L->npairs + 1;
            for (unsigned long i = 0; i < per; i++) {
                check_nearest(L, P, &E, ov, r, &tn);
                check_line(L, P, &E, ov, r, &tl);
                check_random(L, P, &E, ov, r, pop, &tr);
            }
            edited_free(&E);
        }
        free(e.cells);
    }
    free(pop);
    nb_overlay_close(ov);
    ok(tn.bad == 0 && tn.errors == 0,
       "%s: %lu nearest queries under %u overlays are the brute force's on the edited map "
       "(%lu found; %lu reachable, %lu of them where the bundle's component would give another "
       "cell; %.1f cells expanded a query to tell reach)",
       L->name, tn.queries, overlays, tn.found, tn.reach, tn.cut,
       tn.queries ? (double)tn.expanded / (double)tn.queries : 0.0);
    ok(tn.bad_sliced == 0 && tr.bad_sliced == 0,
       "%s: %lu nearest queries in slices of 1 to 20 cells and %lu draws one at a time give "
       "find's answers",
       L->name, tn.sliced, tr.sliced);
    ok(tl.bad == 0 && tl.errors == 0,
       "%s: %lu lines too (%lu clear, %lu stopped by a blocked cell)", L->name, tl.queries,
       tl.found, tl.cut);
    ok(tr.bad == 0 && tr.errors == 0,
       "%s: %lu random draws follow the specification on the edited map (%lu found, %lu after "
       "refused draws)",
       L->name, tr.queries, tr.found, tr.cut);
}

/* Every standable cell blocked: nothing to draw; a budget that the draws spend: LIMIT with the
 * state moved on, and the same draw resumed from it. */
static void check_edges(void)
{
    pu_level L;
    static const char cells[] = "........"
                                "........"
                                "........"
                                "........";
    if (!pu_level_chars(&L, 8, 4, cells, "an open 8 x 4 level"))
        return;
    const pu_pair *P = &L.pair[0];
    nb_overlay *ov;
    nb_err err;
    nb_overlay_open(L.b, &ov, &err);
    nb_overlay_block(ov, 0, 0, 8, 4, NULL);
    nb_random_query q;
    nb_random_query_init(&q);
    q.size = P->size;
    q.capability = P->cap;
    q.overlay = ov;
    nb_random_result res;
    nb_status st = nb_random_find(P->place, &q, &res, &err);
    ok(st == NB_OK && res.status == NB_PATH_NONE && res.draws == 0,
       "an overlay that blocks every cell leaves random nothing to draw: %s",
       nb_path_status_str(res.status));
    /* One cell of 32 left: draws that miss it until the budget ends. */
    nb_overlay_unblock(ov, 5, 2, 1, 1, NULL);
    q.seed = 99;
    q.max_expansions = 3;
    unsigned long limits = 0, resumed = 0, tries = 0;
    for (int k = 0; k < 200; k++, q.seed += 7) {
        nb_random_query once = q;
        once.max_expansions = 0;
        nb_random_result whole, part, rest;
        nb_random_find(P->place, &once, &whole, NULL);
        nb_random_find(P->place, &q, &part, NULL);
        if (part.status != NB_PATH_LIMIT)
            continue;
        tries++;
        limits += part.draws == 3 && part.cell.x == -1;
        nb_random_query again = once;
        again.seed = part.state;
        nb_random_find(P->place, &again, &rest, NULL);
        resumed += rest.status == NB_PATH_FOUND && rest.cell.x == 5 && rest.cell.y == 2 &&
                   rest.cell.x == whole.cell.x && rest.state == whole.state &&
                   rest.draws + 3 == whole.draws;
    }
    ok(tries > 0 && limits == tries && resumed == tries,
       "a budget of 3 draws that all miss: LIMIT after 3, and drawing on from its state gives "
       "the unbounded draw's cell and state (%lu of %lu)",
       resumed, tries);
    nb_overlay_close(ov);
    pu_level_close(&L);
}

int main(void)
{
    pu_each_level(check_level, 0x0be1a7);
    check_edges();
    return done_testing();
}
