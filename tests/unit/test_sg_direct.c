/* test_sg_direct.c: the optimal layer under an overlay where the only
 * shortest path from start to goal is one straight octile walk, the one
 * the overlay leaves open while it blocks every other cell near it
 * (sgoverlay.c, join_goal: the goal's kept scan has no target, so the
 * start is joined to the goal directly when such a walk links them).
 *
 * Crafted levels of 40 x 26 cells with pillars of wall (the layer's
 * subgoals, which the overlay blocks), none within 3 cells of the cells
 * left free; the overlay leaves the cells of one walk free (and beside its
 * diagonal moves the cells the corner rule needs, both for strict, one for
 * weak), and in half the cases a longer detour (one_case).  Walks:
 * straight along a row, a column, a diagonal, and cardinal moves then
 * diagonal ones and the other way round; both corner rules; sizes 1 and 2.
 * Along a row or a column no subgoal lies on the walk or at its ends, so
 * the search finds the walk only by the start's direct join; the corners
 * beside diagonal moves are subgoals it may go through.  For each case:
 *  - the premise, by this file's Dijkstra over the edited map (the map
 *    with the blocked cells made walls, brute.h's moves): the shortest
 *    length is the octile distance and one path alone has it;
 *  - nb_sg_find under the overlay: Annotated A*'s status and length under
 *    it and the Dijkstra's length (1e-9), a path legal on the edited map;
 *  - the search round the blocks itself (nbi_sgov_begin .. finish, which
 *    nb_sg_find starts only when the blocks cut the hierarchy's path, so
 *    never for these ends: a free walk between them is one on the layer,
 *    answered first): found, its waypoints' hops walkable on the edited
 *    map and as long as the Dijkstra's length. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clearance/clearance_build.h"
#include "subgoal/subgoal_build.h"
#include "brute.h"
#include "shapes.h"
#include "testutil.h"
#include "subgoal/subgoal.h"

#define W 40
#define H 26

static nbi_legend legend;

/* The walks: m1 moves (dx1, dy1) then m2 moves (dx2, dy2), from (sx, sy); the detour is
 * the walk moved along x (across 1) or y; under the weak rule a diagonal move keeps the cell
 * beside it along x (wside 0) or along y free, the one no other walk as short can use. */
static const struct shape {
    const char *name;
    int sx, sy, dx1, dy1, m1, dx2, dy2, m2, across, wside;
} shapes[] = {
    {"along a row", 4, 6, 1, 0, 24, 0, 0, 0, 0, 0},
    {"along a column", 30, 4, 0, 1, 14, 0, 0, 0, 1, 0},
    {"diagonal", 4, 3, 1, 1, 10, 0, 0, 0, 0, 0},
    {"cardinal then diagonal", 4, 4, 1, 0, 12, 1, 1, 8, 0, 0},
    {"diagonal then cardinal", 30, 4, -1, 1, 8, -1, 0, 12, 0, 1},
};

/* Agent positions (top-left of the footprint) the overlay leaves free. */
struct keep {
    int n;
    nb_cell c[256];
};

static void keep_add(struct keep *k, int x, int y)
{
    if (x >= 0 && y >= 0 && x < W && y < H && k->n < 256)
        k->c[k->n++] = (nb_cell){x, y};
}

/* The walk's cells from (x, y), and beside each diagonal move the positions the corner rule
 * needs (strict: both; weak: s->wside's); the walk's end in *end. */
static void keep_walk(struct keep *k, const struct shape *s, int x, int y, int weak, nb_cell *end)
{
    keep_add(k, x, y);
    for (int i = 0; i < s->m1 + s->m2; i++) {
        int dx = i < s->m1 ? s->dx1 : s->dx2, dy = i < s->m1 ? s->dy1 : s->dy2;
        if (dx && dy) {
            if (!weak || !s->wside)
                keep_add(k, x + dx, y);
            if (!weak || s->wside)
                keep_add(k, x, y + dy);
        }
        x += dx;
        y += dy;
        keep_add(k, x, y);
    }
    *end = (nb_cell){x, y};
}

/* 1 when a cell within 3 of (x, y) (either axis) is freed. */
static int near_freed(const uint8_t *freed, int x, int y)
{
    for (int j = y - 3; j <= y + 3; j++)
        for (int i = x - 3; i <= x + 3; i++)
            if (i >= 0 && j >= 0 && i < W && j < H && freed[j * W + i])
                return 1;
    return 0;
}

/* The level: ground with 2 x 2 pillars every 5 cells, none within 3 cells of a free footprint
 * (the layer's subgoals beside them are blocked, none on a kept walk). */
static void make_map(nbb_grid *g, const uint8_t *freed)
{
    g->width = W;
    g->height = H;
    g->cells = malloc((size_t)W * H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            g->cells[y * W + x] = !near_freed(freed, x, y) && x % 5 >= 2 && x % 5 <= 3 &&
                                          y % 5 >= 2 && y % 5 <= 3
                                      ? '@'
                                      : '.';
}

/* Positions from a along (dx, dy), n moves, a left out. */
static void keep_line(struct keep *k, nb_cell a, int dx, int dy, int n)
{
    for (int j = 1; j <= n; j++)
        keep_add(k, a.x + j * dx, a.y + j * dy);
}

/* Shortest paths from s over e (brute_dijkstra's distances) into goal t, counted: cells in
 * order of distance, each summing the counts of the cells whose legal step reaches it at its
 * distance.  Capped at 2 (only "one" matters). */
static int order_cmp(const void *a, const void *b)
{
    double x = ((const double *)a)[0], y = ((const double *)b)[0];
    return (x > y) - (x < y);
}
static int count_shortest(const nbb_grid *e, unsigned size, enum brute_corner rule, nb_cell s,
                          nb_cell t, const double *dist)
{
    static double order[W * H][2];
    static int count[W * H];
    int n = 0;
    for (int i = 0; i < W * H; i++) {
        count[i] = 0;
        if (dist[i] >= 0) {
            order[n][0] = dist[i];
            order[n++][1] = i;
        }
    }
    qsort(order, (size_t)n, sizeof *order, order_cmp);
    count[s.y * W + s.x] = 1;
    for (int k = 0; k < n; k++) {
        int v = (int)order[k][1], vx = v % W, vy = v / W;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int ux = vx - dx, uy = vy - dy, u = uy * W + ux;
                if ((!dx && !dy) || ux < 0 || uy < 0 || ux >= W || uy >= H || dist[u] < 0 ||
                    !brute_step_ok(&legend, e, 3, size, rule, ux, uy, vx, vy))
                    continue;
                if (fabs(dist[u] + (dx && dy ? sqrt(2.0) : 1.0) - dist[v]) < 1e-9)
                    count[v] = count[v] + count[u] > 2 ? 2 : count[v] + count[u];
            }
    }
    return count[t.y * W + t.x];
}

/* The length of a path of cells, each step legal on e; -1 when one is not. */
static double cells_length(const nbb_grid *e, unsigned size, enum brute_corner rule,
                           const nb_cell *p, size_t n)
{
    double len = 0;
    if (!n || !brute_can_stand(&legend, e, 3, size, p[0].x, p[0].y))
        return -1;
    for (size_t i = 1; i < n; i++) {
        int dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
        if (abs(dx) > 1 || abs(dy) > 1 || (!dx && !dy) ||
            !brute_step_ok(&legend, e, 3, size, rule, p[i - 1].x, p[i - 1].y, p[i].x, p[i].y))
            return -1;
        len += dx && dy ? sqrt(2.0) : 1.0;
    }
    return len;
}

/* The length of waypoints way (n), each hop a straight octile walk on e of either order of its
 * two moves (as a hop of the layer's path is); -1 when a hop has none. */
static double way_length(const nbb_grid *e, unsigned size, enum brute_corner rule,
                         const nb_cell *way, size_t n)
{
    double len = 0;
    for (size_t i = 1; i < n; i++) {
        nb_cell a = way[i - 1], b = way[i];
        int ax = abs(b.x - a.x), ay = abs(b.y - a.y), sx = (b.x > a.x) - (b.x < a.x),
            sy = (b.y > a.y) - (b.y < a.y);
        int diag = ax < ay ? ax : ay, card = (ax > ay ? ax : ay) - diag;
        int cx = ax > ay ? sx : 0, cy = ax > ay ? 0 : sy;
        double best = -1;
        for (int order = 0; order < 2 && best < 0; order++) {
            nb_cell c[2 * W + 2 * H];
            int k = 0;
            c[k++] = a;
            for (int j = 0; j < diag + card; j++) {
                int d = order == 0 ? j < diag : j >= card;
                c[k] = (nb_cell){c[k - 1].x + (d ? sx : cx), c[k - 1].y + (d ? sy : cy)};
                k++;
            }
            best = cells_length(e, size, rule, c, (size_t)k);
        }
        if (best < 0)
            return -1;
        len += best;
    }
    return len;
}

/* The layer of the bundle for size and corner. */
static int layer_of(const nb_bundle *nb, unsigned size, nb_corner corner, nbi_sglayer *l)
{
    for (size_t i = 0; i < nb->nsections; i++)
        if (nb->sections[i].info.type == NB_SEC_SUBGOAL && nbi_sglayer_at(nb, i, l, NULL) == NB_OK &&
            l->size == size && l->corner == corner)
            return 1;
    return 0;
}

struct tally {
    long cases, premise_bad, find_bad, find_searched, sgov_bad[2], asked[2]; /* [1]: straight */
};

/* One case (the file's comment), its checks counted in t. */
static void one_case(const struct shape *s, unsigned size, int weak, int detour, struct tally *t)
{
    enum brute_corner rule = weak ? BRUTE_WEAK : BRUTE_STRICT;
    nb_corner corner = weak ? NB_CORNER_WEAK : NB_CORNER_STRICT;
    char name[160];
    snprintf(name, sizeof name, "%s, size %u, %s corners%s", s->name, size,
             weak ? "weak" : "strict", detour ? ", with a detour" : "");
    /* The positions kept free: the walk and its detour, D cells off (rows, or columns for a
     * walk along a column).  A straight cardinal walk's detour is a loop from 3 cells behind
     * the start to 3 past the goal, which makes no corner at either end or on the walk (a
     * corner there is a subgoal an optimal path goes through); another walk's is the walk
     * again, joined to both ends by a straight line. */
    static struct keep k;
    k.n = 0;
    nb_cell start = {s->sx, s->sy}, goal, end2;
    keep_walk(&k, s, s->sx, s->sy, weak, &goal);
    int D = 4 + (int)size, ox = s->across, oy = !s->across;
    if (detour && !s->m2 && !(s->dx1 && s->dy1)) {
        nb_cell p = {start.x - 3 * s->dx1, start.y - 3 * s->dy1};
        nb_cell e2 = {goal.x + 3 * s->dx1, goal.y + 3 * s->dy1};
        keep_line(&k, start, -s->dx1, -s->dy1, 3);
        keep_line(&k, goal, s->dx1, s->dy1, 3);
        keep_line(&k, p, ox, oy, D);
        keep_line(&k, e2, ox, oy, D);
        keep_line(&k, (nb_cell){p.x + D * ox, p.y + D * oy}, s->dx1, s->dy1, s->m1 + 6);
    } else if (detour) {
        keep_walk(&k, s, s->sx + D * ox, s->sy + D * oy, weak, &end2);
        for (int j = 1; j < D; j++) {
            keep_add(&k, start.x + j * ox, start.y + j * oy);
            keep_add(&k, goal.x + j * ox, goal.y + j * oy);
        }
    }
    static uint8_t freed[W * H];
    memset(freed, 0, sizeof freed);
    for (int i = 0; i < k.n; i++)
        for (unsigned dy = 0; dy < size; dy++)
            for (unsigned dx = 0; dx < size; dx++)
                if (k.c[i].x + (int)dx < W && k.c[i].y + (int)dy < H)
                    freed[(k.c[i].y + (int)dy) * W + k.c[i].x + (int)dx] = 1;
    nbb_grid g = {0}, e = {0};
    make_map(&g, freed);
    make_map(&e, freed);
    static nbi_agentset agents;
    memset(&agents, 0, sizeof agents);
    for (unsigned a = 1; a <= 2; a++) {
        nb_agent *ag = &agents.agent[agents.count++];
        snprintf(ag->name, sizeof ag->name, "a%u", a);
        ag->capability = 3;
        ag->size = a;
    }
    nb_err err;
    nb_bundle *nb = NULL;
    nb_aa *aa = NULL;
    nb_sg *sg = NULL;
    nb_overlay *ov = NULL;
    nbi_sgov *o = NULL;
    static double dist[W * H];
    nbi_sglayer L;
    const char *path = tu_path(tu_tmpdir(), "sg-direct.nbk");
    t->cases++;
    if (tu_bake_optimal(path, &legend, &agents, &g, weak ? NBB_CORNERS_WEAK : NBB_CORNERS_STRICT,
                        &err) != NB_OK ||
        nb_bundle_open(path, 0, NULL, &nb, &err) != NB_OK || nb_aa_open(nb, &aa, &err) != NB_OK ||
        tu_sg_open(nb, 0, &sg, &err) != NB_OK || nb_overlay_open(nb, &ov, &err) != NB_OK ||
        !layer_of(nb, size, corner, &L) || !(o = nbi_sgov_new(nb->a))) {
        diag("%s: baked and opened: %s", name, err.msg);
        t->premise_bad++;
        goto out;
    }
    /* Every cell no kept footprint covers is blocked, row by row in runs. */
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W;) {
            int x1 = x;
            while (x1 < W && !freed[y * W + x1])
                x1++;
            if (x1 > x)
                tu_wall(ov, &e, x, y, x1 - x, 1);
            x = x1 + 1;
        }
    double want = brute_dijkstra(&legend, &e, 3, size, rule, start.x, start.y, goal.x, goal.y,
                                 NULL, dist);
    int paths = want >= 0 ? count_shortest(&e, size, rule, start, goal, dist) : 0;
    if (fabs(want - nbi_octile_cells(start.x, start.y, goal.x, goal.y)) > 1e-9 || paths != 1) {
        if (t->premise_bad++ < 4)
            diag("%s: the edited map's shortest path %.6f (octile %.6f), %d such", name, want,
                 nbi_octile_cells(start.x, start.y, goal.x, goal.y), paths);
        goto out;
    }
    /* nb_sg_find under the overlay, against Annotated A* under it and the Dijkstra. */
    nb_sg_query q;
    nb_sg_query_init(&q);
    q.capability = 3;
    q.size = size;
    q.corner = corner;
    q.start = start;
    q.goal = goal;
    q.overlay = ov;
    nb_aa_query aq = tu_aa_of_sg(&q);
    nb_sg_result r;
    nb_aa_result ar;
    if (nb_sg_find(sg, &q, &r, &err) != NB_OK || nb_aa_find(aa, &aq, &ar, &err) != NB_OK ||
        r.status != ar.status || r.status != NB_PATH_FOUND || fabs(r.length - ar.length) > 1e-9 ||
        fabs(r.length - want) > 1e-9 ||
        fabs(cells_length(&e, size, rule, r.path, r.path_len) - want) > 1e-9 ||
        r.path[0].x != start.x || r.path[0].y != start.y ||
        r.path[r.path_len - 1].x != goal.x || r.path[r.path_len - 1].y != goal.y) {
        if (t->find_bad++ < 4)
            diag("%s: nb_sg_find %s %.6f, Annotated A* %s %.6f, Dijkstra %.6f", name,
                 nb_path_status_str(r.status), r.length, nb_path_status_str(ar.status),
                 ar.length, want);
    }
    t->find_searched += r.searched != 0;
    /* The search round the blocks, from the same ends. */
    nb_status st = NB_OK;
    nbi_sgov_begin(o, &L, ov, start, goal, INFINITY, 0, 0);
    while (!nbi_sgov_step(o, 64, &st))
        ;
    nbi_sgov_result sr = {.status = NB_PATH_NONE};
    double got = -1;
    if (st == NB_OK && nbi_sgov_finish(o, &sr) && sr.status == NB_PATH_FOUND && sr.way_len >= 2 &&
        sr.way[0].x == start.x && sr.way[0].y == start.y && sr.way[sr.way_len - 1].x == goal.x &&
        sr.way[sr.way_len - 1].y == goal.y)
        got = way_length(&e, size, rule, sr.way, sr.way_len);
    int straight = !s->m2 && !(s->dx1 && s->dy1);
    t->asked[straight]++;
    if (fabs(got - want) > 1e-9 && t->sgov_bad[straight]++ < 4)
        diag("%s: the search round the blocks: %s, length %.6f; Dijkstra %.6f", name,
             nb_path_status_str(sr.status), got, want);
out:
    nbi_sgov_free(o);
    nb_overlay_close(ov);
    nb_sg_close(sg);
    nb_aa_close(aa);
    nb_bundle_close(nb);
    nbb_grid_free(&g);
    nbb_grid_free(&e);
}

int main(void)
{
    nbi_legend_default(&legend);
    struct tally t = {0};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (unsigned size = 1; size <= 2; size++)
            for (int weak = 0; weak < 2; weak++)
                for (int detour = 0; detour < 2; detour++)
                    one_case(&shapes[s], size, weak, detour, &t);
    ok(t.cases == 40 && t.premise_bad == 0,
       "%ld crafted cases: on the edited map (Dijkstra) the one shortest path is the octile walk "
       "the overlay leaves (%ld not)", t.cases, t.premise_bad);
    ok(t.find_bad == 0,
       "nb_sg_find under the overlay: found, Annotated A*'s status and length and the Dijkstra's, "
       "a legal path (%ld differ)", t.find_bad);
    ok(t.find_searched == 0,
       "nb_sg_find answers these ends by their walk, no search (%ld searched)", t.find_searched);
    ok(t.asked[1] == 16 && t.sgov_bad[1] == 0,
       "the search round the blocks, %ld walks along a row or a column (no subgoal on them, none "
       "at their ends: only the start's direct join finds them): found, hops walkable on the "
       "edited map, the Dijkstra's length (%ld differ)", t.asked[1], t.sgov_bad[1]);
    ok(t.asked[0] == 24 && t.sgov_bad[0] == 0,
       "the search round the blocks, %ld walks with diagonal moves (the corners beside them are "
       "subgoals): the same (%ld differ)", t.asked[0], t.sgov_bad[0]);
    return done_testing();
}
