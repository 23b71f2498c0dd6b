/* test_walk_line.c: nb_line_find against brute force, on random levels of
 * several terrains for three capabilities and sizes 1 to 3, 10^4 random
 * segments per level (NB_PLACE_QUERIES): points anywhere (in 1/65536 of a
 * cell), on a 1/64 grid, on whole cells, and short hops.
 *
 *  - The status, the exact fraction of the segment travelled (compared as
 *    a fraction) and the blocking cell (ties: row-major order) equal the
 *    brute force's that cuts every cell's box of overlapping positions by
 *    the segment (brute_line_cells), and, on the 1/64 grid, those of the
 *    one that places the square at exact times between the moments its
 *    edges cross grid lines (brute_line_events);
 *  - the public call, given the same points as doubles, agrees, and its
 *    last free point is from + t (to - from);
 *  - between whole cells the answer is square_smooth.c's test (written
 *    for HAA*'s smoothing) whenever the agent stands at the start, and a
 *    segment is clear both ways or neither;
 *  - a step to a neighbour is clear exactly when the strict corner rule
 *    allows it (both cells standable, and both cardinal neighbours of a
 *    diagonal step), so every clear step is one the weak rule allows too;
 *  - bad points are argument errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "abstract/abstract.h"
#include "place/place.h"
#include "placeutil.h"

#define Q ((int64_t)NB_LINE_RESOLUTION)
#define K 64 /* the coarse grid: 1/64 of a cell */

static int same_frac(nbi_frac a, brute_frac b)
{
    return brute_frac_cmp((brute_frac){a.num, a.den}, b) == 0;
}

/* A point in units of 1 / Q: kind 0 anywhere, 1 on the 1/64 grid, 2 a
 * whole cell; near a cell where the agent stands, mostly. */
static void point(tu_rng *r, const nbb_grid *g, const pu_pair *P, int kind, int64_t *x, int64_t *y)
{
    uint32_t cx = tu_below(r, g->width), cy = tu_below(r, g->height);
    for (int k = 0; k < 20 && tu_below(r, 4) && !P->stand[(size_t)cy * g->width + cx]; k++) {
        cx = tu_below(r, g->width);
        cy = tu_below(r, g->height);
    }
    int64_t fx = 0, fy = 0;
    if (kind == 0) {
        fx = tu_below(r, (uint32_t)Q);
        fy = tu_below(r, (uint32_t)Q);
    } else if (kind == 1) {
        fx = tu_below(r, K) * (Q / K);
        fy = tu_below(r, K) * (Q / K);
    }
    *x = cx * Q + fx;
    *y = cy * Q + fy;
    if (*x > (int64_t)g->width * Q)
        *x = (int64_t)g->width * Q;
    if (*y > (int64_t)g->height * Q)
        *y = (int64_t)g->height * Q;
}

static void check_level(pu_level *L, tu_rng *r)
{
    const nbb_grid *g = &L->grid;
    unsigned long nq = pu_queries(), bad = 0, bad_ev = 0, nev = 0, bad_pub = 0, bad_smooth = 0;
    unsigned long nsmooth = 0, bad_back = 0, clear = 0, blocked = 0, start = 0, errors = 0;
    for (unsigned long q = 0; q < nq; q++) {
        const pu_pair *P = &L->pair[tu_below(r, (uint32_t)L->npairs)];
        pu_ctx ctx = {L, P};
        int kind = (int)(q % 4);
        int64_t ax, ay, bx, by;
        point(r, g, P, kind == 3 ? 1 : kind, &ax, &ay);
        if (kind == 3) { /* a hop of up to 3 cells on the 1/64 grid */
            bx = ax + ((int64_t)tu_below(r, 6 * K + 1) - 3 * K) * (Q / K);
            by = ay + ((int64_t)tu_below(r, 6 * K + 1) - 3 * K) * (Q / K);
            bx = bx < 0 ? 0 : bx > (int64_t)g->width * Q ? (int64_t)g->width * Q : bx;
            by = by < 0 ? 0 : by > (int64_t)g->height * Q ? (int64_t)g->height * Q : by;
        } else {
            point(r, g, P, kind, &bx, &by);
            /* On a large map, within 48 cells: the brute force reads the
             * sweep's whole bounding box. */
            if ((size_t)g->width * g->height > 100000) {
                int64_t m = 48 * Q;
                bx = bx < ax - m ? ax - m : bx > ax + m ? ax + m : bx;
                by = by < ay - m ? ay - m : by > ay + m ? ay + m : by;
            }
        }
        nbi_line ours;
        nbi_walk_line(P->place, ax, ay, bx, by, &ours);
        brute_line want;
        brute_line_cells(pu_passable, &ctx, Q, P->size, ax, ay, bx, by, &want);
        int same = ours.status == want.status && same_frac(ours.t, want.t) &&
                   (want.status == NB_PATH_FOUND || (ours.bx == want.bx && ours.by == want.by));
        if (!same && bad++ < 5)
            diag("%s: cap %u size %u: (%g, %g) -> (%g, %g): got %s t %lld/%lld cell (%d, %d), "
                 "brute force %s t %lld/%lld cell (%ld, %ld)",
                 L->name, P->cap, P->size, (double)ax / Q, (double)ay / Q, (double)bx / Q,
                 (double)by / Q, nb_path_status_str(ours.status), (long long)ours.t.num,
                 (long long)ours.t.den, ours.bx, ours.by, nb_path_status_str(want.status),
                 (long long)want.t.num, (long long)want.t.den, want.bx, want.by);
        clear += want.status == NB_PATH_FOUND;
        blocked += want.status == NB_PATH_NONE;
        start += want.status == NB_PATH_START_BLOCKED;
        if (kind != 0) { /* exact on the coarse grid */
            brute_line ev;
            brute_line_events(pu_passable, &ctx, K, P->size, ax / (Q / K), ay / (Q / K),
                              bx / (Q / K), by / (Q / K), &ev);
            nev++;
            if ((ev.status != want.status || brute_frac_cmp(ev.t, want.t) != 0 ||
                 ev.bx != want.bx || ev.by != want.by) &&
                bad_ev++ < 5)
                diag("%s: (%g, %g) -> (%g, %g) size %u: by events %s t %lld/%lld cell (%ld, %ld)",
                     L->name, (double)ax / Q, (double)ay / Q, (double)bx / Q, (double)by / Q,
                     P->size, nb_path_status_str(ev.status), (long long)ev.t.num,
                     (long long)ev.t.den, ev.bx, ev.by);
        }
        /* The public call on the same points. */
        nb_vec2 a = {(double)ax / Q, (double)ay / Q}, b = {(double)bx / Q, (double)by / Q};
        nb_line_result res;
        nb_err err;
        if (tu_walk_line(P->place, a, b, &res, &err) != NB_OK) {
            if (errors++ < 3)
                diag("%s", err.msg);
            continue;
        }
        double t = (double)want.t.num / (double)want.t.den;
        int pub = res.status == want.status && fabs(res.t - t) < 1e-12 &&
                  fabs(res.last.x - (a.x + t * (b.x - a.x))) < 1e-9 &&
                  fabs(res.last.y - (a.y + t * (b.y - a.y))) < 1e-9 &&
                  (want.status == NB_PATH_FOUND ||
                   (res.blocking.x == want.bx && res.blocking.y == want.by)) &&
                  res.examined == ours.examined;
        if (!pub && bad_pub++ < 3)
            diag("%s: public call on (%g, %g) -> (%g, %g): %s t %.17g last (%.17g, %.17g)", L->name,
                 a.x, a.y, b.x, b.y, nb_path_status_str(res.status), res.t, res.last.x, res.last.y);
        if (kind == 2) {
            nb_cell ca = {(int32_t)(ax / Q), (int32_t)(ay / Q)},
                    cb = {(int32_t)(bx / Q), (int32_t)(by / Q)};
            if (P->stand[(size_t)ca.y * g->width + (size_t)ca.x] && ca.x < (int32_t)g->width &&
                cb.x < (int32_t)g->width && ca.y < (int32_t)g->height &&
                cb.y < (int32_t)g->height) {
                nsmooth++;
                int sm = nbi_square_walkable(&P->place->clear, NULL, P->size, ca, cb);
                bad_smooth += sm != (want.status == NB_PATH_FOUND);
            }
            nbi_line back;
            nbi_walk_line(P->place, bx, by, ax, ay, &back);
            bad_back += (back.status == NB_PATH_FOUND) != (ours.status == NB_PATH_FOUND);
        }
    }
    ok(errors == 0, "%s: %lu segments answered without an error", L->name, nq);
    ok(bad == 0,
       "%s: %lu segments as brute force cell by cell: %lu clear, %lu blocked, %lu from a "
       "blocked start",
       L->name, nq, clear, blocked, start);
    ok(bad_ev == 0, "%s: %lu of them on the 1/64 grid, as brute force by events too", L->name, nev);
    ok(bad_pub == 0, "%s: the public call agrees (t, last point, blocking cell)", L->name);
    ok(bad_smooth == 0 && bad_back == 0,
       "%s: %lu between whole cells from a standable start as HAA*'s smoothing test; clear "
       "both ways or neither",
       L->name, nsmooth);
}

/* Every step to a neighbour, for each pair: clear exactly when the strict
 * corner rule allows it. */
static void check_steps(pu_level *L, tu_rng *r)
{
    (void)r;
    const nbb_grid *g = &L->grid;
    unsigned long steps = 0, strict_bad = 0, weak_bad = 0, cuts = 0;
    static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1}, dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
    for (size_t k = 0; k < L->npairs; k++) {
        const pu_pair *P = &L->pair[k];
        for (uint32_t y = 0; y < g->height; y++)
            for (uint32_t x = 0; x < g->width; x++) {
                if (!P->stand[(size_t)y * g->width + x])
                    continue;
                for (int d = 0; d < 8; d++) {
                    long nx = (long)x + dx[d], ny = (long)y + dy[d];
                    if (nx < 0 || ny < 0 || nx >= (long)g->width || ny >= (long)g->height)
                        continue;
                    nbi_line l;
                    nbi_walk_line(P->place, x * Q, y * Q, nx * Q, ny * Q, &l);
                    int c = l.status == NB_PATH_FOUND;
                    int s =
                        brute_step_ok(&L->legend, g, P->cap, P->size, BRUTE_STRICT, x, y, nx, ny);
                    int w = brute_step_ok(&L->legend, g, P->cap, P->size, BRUTE_WEAK, x, y, nx, ny);
                    steps++;
                    strict_bad += c != s;
                    weak_bad += c && !w;
                    cuts += w && !s;
                }
            }
    }
    ok(strict_bad == 0 && weak_bad == 0,
       "%s: %lu steps to a neighbour: clear exactly when the strict corner rule allows them, so "
       "always when the weak one does (it allows %lu corner cuts more)",
       L->name, steps, cuts);
}

static void check_level_and_steps(pu_level *L, tu_rng *r)
{
    check_level(L, r);
    if ((size_t)L->grid.width * L->grid.height <= 100000)
        check_steps(L, r);
}

static void check_cases(void)
{
    pu_level L;
    static const char cells[] = "......"
                                "..@..."
                                "......"
                                "......";
    if (!pu_level_chars(&L, 6, 4, cells, "a post")) {
        pu_level_close(&L);
        return;
    }
    nb_place *p1 = L.pair[0].place, *p2 = L.pair[1].place;
    nb_line_result res;
    nb_err err;
    ok(tu_walk_line(p1, (nb_vec2){0, 1}, (nb_vec2){5, 1}, &res, &err) == NB_OK &&
           res.status == NB_PATH_NONE && res.t == 0.2 && res.last.x == 1 && res.last.y == 1 &&
           res.blocking.x == 2 && res.blocking.y == 1,
       "along row 1 into the post: stops at x = 1, touching it, t = 0.2");
    ok(tu_walk_line(p1, (nb_vec2){0, 0}, (nb_vec2){5, 0}, &res, &err) == NB_OK &&
           res.status == NB_PATH_FOUND && res.t == 1 && res.last.x == 5,
       "along row 0, grazing the post's top edge: clear");
    ok(tu_walk_line(p1, (nb_vec2){1, 0}, (nb_vec2){3, 2}, &res, &err) == NB_OK &&
           res.status == NB_PATH_NONE && res.blocking.x == 2 && res.blocking.y == 1,
       "diagonally past the post's corner: the square meets it");
    ok(tu_walk_line(p1, (nb_vec2){2, 0}, (nb_vec2){4, 2}, &res, &err) == NB_OK &&
           res.status == NB_PATH_NONE,
       "diagonally from above it: blocked");
    ok(tu_walk_line(p1, (nb_vec2){3, 0}, (nb_vec2){5, 2}, &res, &err) == NB_OK &&
           res.status == NB_PATH_FOUND,
       "diagonally from its right: clear (touching its corner only)");
    ok(tu_walk_line(p2, (nb_vec2){0, 2}, (nb_vec2){4, 2}, &res, &err) == NB_OK &&
           res.status == NB_PATH_FOUND,
       "a size-2 agent below the post: clear");
    ok(tu_walk_line(p2, (nb_vec2){4, 1.5}, (nb_vec2){0, 1.5}, &res, &err) == NB_OK &&
           res.status == NB_PATH_NONE && res.t == 0.25 && res.last.x == 3 && res.last.y == 1.5 &&
           res.blocking.x == 2 && res.blocking.y == 1,
       "a size-2 agent half a cell higher, going left: blocked at x = 3");
    ok(tu_walk_line(p2, (nb_vec2){0, 1.5}, (nb_vec2){4, 1.5}, &res, &err) == NB_OK &&
           res.status == NB_PATH_NONE && res.t == 0 && res.blocking.x == 2,
       "... going right from x = 0, touching the post: blocked at once, not at the start");
    ok(tu_walk_line(p2, (nb_vec2){2, 1}, (nb_vec2){4, 2}, &res, &err) == NB_OK &&
           res.status == NB_PATH_START_BLOCKED && res.t == 0 && res.blocking.x == 2 &&
           res.blocking.y == 1,
       "a start on the post: START_BLOCKED, the post named");
    ok(tu_walk_line(p2, (nb_vec2){4, 2}, (nb_vec2){4.5, 2}, &res, &err) == NB_OK &&
           res.status == NB_PATH_NONE && res.t == 0 && res.blocking.x == 6 && res.blocking.y == 2,
       "a size-2 agent at the right edge: the cell outside the map blocks at once");
    ok(tu_walk_line(p1, (nb_vec2){5, 3}, (nb_vec2){5, 3}, &res, &err) == NB_OK &&
           res.status == NB_PATH_FOUND,
       "a segment of one point where the agent fits: clear");
    like(tu_walk_line(p1, (nb_vec2){0, 0}, (nb_vec2){6.5, 0}, &res, &err) == NB_ERR_OUTSIDE ? err.msg
                                                                                        : "",
         "goal (6.5, 0) is off the 6 x 4 map", "a point beyond the map: NB_ERR_OUTSIDE");
    ok(tu_walk_line(p1, (nb_vec2){NAN, 0}, (nb_vec2){1, 0}, &res, &err) == NB_ERR_ARG &&
           tu_walk_line(p1, (nb_vec2){0, INFINITY}, (nb_vec2){1, 0}, &res, &err) == NB_ERR_ARG &&
           tu_walk_line(p1, (nb_vec2){-0.5, 0}, (nb_vec2){1, 0}, &res, &err) == NB_ERR_OUTSIDE,
       "NaN and infinite coordinates: NB_ERR_ARG; negative: NB_ERR_OUTSIDE");
    ok(tu_walk_line(NULL, (nb_vec2){0, 0}, (nb_vec2){1, 0}, &res, &err) == NB_ERR_ARG &&
           tu_walk_line(p1, (nb_vec2){0, 0}, (nb_vec2){1, 0}, NULL, NULL) == NB_ERR_ARG,
       "NULL arguments: NB_ERR_ARG");
    pu_level_close(&L);
}

int main(void)
{
    check_cases();
    pu_each_level(check_level_and_steps, 19);
    return done_testing();
}
