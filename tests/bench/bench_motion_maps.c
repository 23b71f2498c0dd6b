/* bench_motion_maps: the paper's Tables 2 and 3 on the Dragon Age maps.
 * On each map, random waypoint pairs (cells in the same region of the
 * sector graph), out and back: an abstract path over sectors of 6, refined
 * segment by segment (segments of 3 sectors: 12-18 cells, Table 2; of 4:
 * 18-24, Table 3) by weighted A* (w 1.2), with and without intermediate
 * search truncation (within 3 cells).  States expanded per planning step
 * (one low-level search): median, 90th and 99th percentile.
 *
 * A trip starts stopped, facing the abstract path's first node after its
 * start's.  Columns, as the paper sets the problem (an intermediate goal is reached
 * stopped and facing the way the abstract path enters it, a waypoint
 * stopped at any heading; tables with the paper's symmetries and 4-byte
 * entries):
 *   octile     the straight-line heuristic;
 *   perimeter  the extended perimeter heuristic (the paper's column);
 *   ours       max(extended perimeter, the obstacle- and heading-aware
 *              time of headdist.c) (--ours picks another) with mkperim's
 *              default tables (which, when truncating, steer toward
 *              passing through the goal's cell);
 * and "ours, any heading": the same with intermediate goals at any heading
 * too (this library's default for routes); and, asked for with --columns
 * ...,haa, "ours, HAA*": the "ours" column routed over HAA*'s abstract
 * graph (clusters of 10 or --cluster N, mkabstract's other defaults, baked
 * here with mkclear's layers) instead of sectors, segments counting
 * clusters.  Times per step (CPU time of
 * the process) are against octile in the same run.
 *   bench_motion_maps [--maps DIR] [--map NAME] [--pairs N] [--pairs-untruncated N]
 *                     [--max-expansions N] [--models a,b] [--segments 3,4]
 *                     [--ours HEURISTIC] [--columns octile,perimeter,ours,any,haa]
 *                     [--truncation yes|no|both] [--per-class K] [--steps FILE]
 *                     [--row LABEL] [--box] [--cluster N]
 * --map keeps the maps whose name contains NAME; --columns and --truncation
 * run part of the table (exploring); --per-class groups the headings K
 * by K for the heading heuristics (nb_motion_query.heading_classes is the
 * model's heading count over K; without it, the library's default); --steps writes one line per planning
 * step (map, model, segments, truncated, column, pair, out/back, step,
 * steps in the route, expanded, start state, goal cell, found, cells or
 * states the obstacle-aware heuristic's search expanded).  --row prints,
 * instead of the tables, one markdown row per segment length and
 * truncation setting for the "ours" column (median / 90th / 99th per
 * model, the obstacle-aware heuristic's work and the time per step against
 * the perimeter column's), for tables of candidates
 * (tests/bench/motion-candidates.sh).  --box makes the heading heuristics of
 * truncated searches aim at every cell where they may stop, not at the
 * goal's cell (an experiment: nb_motion.heading_box). */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "clearance/clearance.h"
#include "motion/motion.h"
#include "motion/perimeter.h"
#include "testutil.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

enum { NMODELS = 3, NH = 5 };
static const char *const names[NMODELS] = {"humanoid", "tank", "vehicle"};
static int hs[NH] = {NB_MH_OCTILE, NB_MH_EXTENDED, NB_MH_EXTENDED_HEADING, NB_MH_EXTENDED_HEADING,
                     NB_MH_EXTENDED_HEADING};
/* Per column: mkperim's default tables (1) or the paper's (0); waypoints
 * facing the way in (1) or at any heading (0); the route's abstraction. */
static const int ours_table[NH] = {0, 0, 1, 1, 1}, exact_waypoints[NH] = {1, 1, 1, 0, 1};
static const int abstraction[NH] = {NB_ROUTE_SECTORS, NB_ROUTE_SECTORS, NB_ROUTE_SECTORS,
                                    NB_ROUTE_SECTORS, NB_ROUTE_HAA};
/* The paper's Tables 2 and 3: [table][truncated][row][model][octile, perimeter]. */
static const double paper[2][2][3][NMODELS][2] = {
    {{{{6874, 2062}, {1705, 79}, {9638, 595}},
      {{13197, 4373}, {8138, 776}, {30164, 1051}},
      {{24284, 6538}, {12429, 1308}, {34394, 12429}}},
     {{{25, 13}, {7, 7}, {82, 14}}, {{82, 30}, {17, 10}, {248, 22}}, {{1638, 260}, {981, 105}, {3065, 104}}}},
    {{{{12325, 4171}, {4591, 137}, {14234, 909}},
      {{28387, 8189}, {22482, 1290}, {41325, 1750}},
      {{50741, 17185}, {36023, 4764}, {48279, 3452}}},
     {{{56, 162}, {11, 11}, {157, 64}}, {{338, 565}, {103, 98}, {770, 273}}, {{5486, 2541}, {4030, 1683}, {7454, 746}}}}};

typedef struct samples {
    uint64_t *v;
    size_t n, cap;
    uint64_t failed, grid, total;
    uint64_t routes, found;  /* routes planned, found */
    double cost;             /* of the routes found */
    double seconds;
} samples;

static void add(samples *s, uint64_t x)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = x;
    s->total += x;
}

static void count_route(samples *s, const nb_motion_result *r)
{
    s->routes++;
    s->found += (r->status == NB_PATH_FOUND);
    s->cost += (r->status == NB_PATH_FOUND) ? r->cost : 0;
}

/* A route's steps, for --steps. */
typedef struct trip {
    samples *s;
    size_t n;
    nb_motion_result step[4096];
} trip;

static void on_step(void *ctx, const nb_motion_result *r)
{
    trip *t = ctx;
    samples *s = t->s;
    add(s, r->expanded);
    s->failed += !(r->status == NB_PATH_FOUND);
    s->grid += r->grid_expanded;
    if (t->n < sizeof t->step / sizeof t->step[0])
        t->step[t->n++] = *r;
}

static const char *const colnames[NH] = {"octile", "perimeter", "ours", "any", "haa"};
/* Table headings (the first follows the model's name). */
static const char *const colheads[NH] = {"octile", "perimeter", "ours", "ours, any heading",
                                         "ours, HAA*"};

/* Which part of the route a step refines: 0 the first segment (from a
 * trip's start, stopped), 1 an intermediate one, 2 the last (to the
 * waypoint, stopped there: never truncated).  A one-segment route's
 * step is a last one. */
static int step_kind(const nb_motion *ws, size_t k, unsigned segment)
{
    size_t last = ws->ngoals ? ws->ngoals - 1 : 0;
    return (k + 1) * segment >= last ? 2 : k == 0 ? 0 : 1;
}

/* Adds the route's steps to the samples of their kinds. */
static void add_kinds(samples *by_kind, const trip *t, const nb_motion *ws, unsigned segment)
{
    for (size_t k = 0; k < t->n; k++)
        add(&by_kind[step_kind(ws, k, segment)], t->step[k].expanded);
}

/* One line per step of the route just planned from start. */
static void dump_trip(FILE *f, const trip *t, nb_motion *ws, const nb_motion_state *start,
                      const nb_motion_state *goal, unsigned segment, const char *map, const char *model,
                      int truncated, int col, size_t pair, int back)
{
    nb_motion_state at = *start;
    for (size_t k = 0; k < t->n; k++) {
        size_t j = (k + 1) * segment;
        int final = step_kind(ws, k, segment) == 2;
        long gx = final ? goal->x : ws->goals[j].x, gy = final ? goal->y : ws->goals[j].y;
        fprintf(f, "%s\t%s\t%u\t%d\t%s\t%zu\t%s\t%zu\t%zu\t%llu\t%d,%d,%u,%u\t%ld,%ld\t%d\t%llu\n", map,
                model, segment, truncated, colnames[col], pair, back ? "back" : "out", k, t->n,
                (unsigned long long)t->step[k].expanded, at.x, at.y, at.heading, at.speed, gx, gy,
                (t->step[k].status == NB_PATH_FOUND), (unsigned long long)t->step[k].grid_expanded);
        at = t->step[k].end;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Nearest-rank percentile. */
static uint64_t pct(samples *s, double p)
{
    if (!s->n)
        return 0;
    size_t k = (size_t)ceil(p / 100 * (double)s->n);
    return s->v[k ? k - 1 : 0];
}

/* The heading from a toward the abstract path's first node after a's own. */
static uint16_t departure(nb_motion *ws, const nb_model *m, const nb_motion_state *a,
                          const nb_motion_state *b)
{
    nbi_sectors *s = &ws->sectors;
    long tx = b->x, ty = b->y;
    if (nbi_sectors_path(s, a->x, a->y, b->x, b->y) && s->apath_len >= 3) {
        tx = s->rx[s->apath[1]];
        ty = s->ry[s->apath[1]];
    }
    return (uint16_t)nbi_motion_heading_toward(m, tx - a->x, ty - a->y, 0);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *dir = NULL;
    unsigned pairs = 200, pairs_untrunc = 200, segs[2] = {3, 4}, nsegs = 2;
    uint64_t maxexp = 200000;
    int use[NMODELS] = {1, 1, 1}, cols[NH] = {1, 1, 1, 1, 0}, trs[2] = {1, 1};
    const char *only_map = NULL, *row_label = NULL;
    unsigned per_class = 0, cluster = 10;
    int box = 0;
    FILE *steps = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--maps") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--per-class") == 0 && i + 1 < argc)
            per_class = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--cluster") == 0 && i + 1 < argc)
            cluster = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--box") == 0)
            box = 1;
        else if (strcmp(argv[i], "--row") == 0 && i + 1 < argc)
            row_label = argv[++i];
        else if (strcmp(argv[i], "--map") == 0 && i + 1 < argc)
            only_map = argv[++i];
        else if (strcmp(argv[i], "--columns") == 0 && i + 1 < argc) {
            const char *l = argv[++i];
            for (int h = 0; h < NH; h++)
                cols[h] = strstr(l, colnames[h]) != NULL;
        } else if (strcmp(argv[i], "--truncation") == 0 && i + 1 < argc) {
            const char *v = argv[++i];
            trs[0] = strcmp(v, "yes") != 0;
            trs[1] = strcmp(v, "no") != 0;
        } else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            if (!(steps = fopen(argv[++i], "w"))) {
                fprintf(stderr, "bench_motion_maps: cannot write %s\n", argv[i]);
                return 1;
            }
        } else if (strcmp(argv[i], "--pairs") == 0 && i + 1 < argc)
            pairs = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--pairs-untruncated") == 0 && i + 1 < argc)
            pairs_untrunc = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--max-expansions") == 0 && i + 1 < argc)
            maxexp = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--models") == 0 && i + 1 < argc) {
            const char *l = argv[++i];
            for (int k = 0; k < NMODELS; k++)
                use[k] = strstr(l, names[k]) != NULL;
        } else if (strcmp(argv[i], "--ours") == 0 && i + 1 < argc) {
            if ((hs[2] = hs[3] = tu_heuristic(argv[++i])) < 0) {
                fprintf(stderr, "bench_motion_maps: unknown heuristic '%s'\n", argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--segments") == 0 && i + 1 < argc) {
            nsegs = (unsigned)sscanf(argv[++i], "%u,%u", &segs[0], &segs[1]);
        } else {
            fprintf(stderr, "usage: bench_motion_maps [--maps DIR] [--map NAME] [--pairs N] [--pairs-untruncated N]\n"
                            "         [--max-expansions N] [--models a,b] [--segments 3,4] [--ours H]\n"
                            "         [--columns octile,perimeter,ours,any,haa] [--truncation yes|no|both]\n"
                            "         [--per-class K] [--steps FILE] [--row LABEL] [--box] [--cluster N]\n");
            return 2;
        }
    }
    if (!dir && !(dir = tu_shared("maps/dao")) && access(tu_src("../shared/maps/dao"), R_OK) == 0)
        dir = tu_src("../shared/maps/dao"); /* make bench: the shared material beside the tree */
    if (!dir) {
        printf("bench_motion_maps: SKIP: no maps (set NB_SHARED to the shared material, or --maps DIR)\n");
        return 0;
    }
    dir = strdup(dir); /* tu_path's buffers are reused */
    /* --maps is a comma-separated list of directories; each one's maps in
     * name order, the directories in the order given. */
    enum { MAXFILES = 1024 };
    static char *files[MAXFILES];
    size_t nfiles = 0;
    char *dl = strdup(dir), *save = NULL;
    for (char *one = strtok_r(dl, ",", &save); one; one = strtok_r(NULL, ",", &save)) {
        DIR *d = opendir(one);
        if (!d) {
            fprintf(stderr, "bench_motion_maps: cannot open %s\n", one);
            return 1;
        }
        size_t first = nfiles;
        for (struct dirent *e; (e = readdir(d)) && nfiles < MAXFILES;) {
            size_t l = strlen(e->d_name);
            if (l > 4 && strcmp(e->d_name + l - 4, ".map") == 0 && (!only_map || strstr(e->d_name, only_map))) {
                files[nfiles] = malloc(strlen(one) + l + 2);
                sprintf(files[nfiles++], "%s/%s", one, e->d_name);
            }
        }
        closedir(d);
        qsort(files + first, nfiles - first, sizeof *files, cmp_str);
    }
    free(dl);

    /* samples[segment][truncated][model][heuristic] */
    static samples S[2][2][NMODELS][NH], K[2][2][NMODELS][NH][3];
    nbi_legend legend;
    static nbi_agentset agents;
    nb_err err;
    nbi_legend_default(&legend);
    nbb_agents_default(&legend, &agents, NULL);
    static nb_model src[NMODELS];
    for (int k = 0; k < NMODELS; k++) {
        char file[64];
        snprintf(file, sizeof file, "data/models/%s.yaml", names[k]);
        if (nbb_model_read(tu_src(file), &src[k], &err) != NB_OK) {
            fprintf(stderr, "bench_motion_maps: %s\n", err.msg);
            return 1;
        }
    }
    double t_start = now();
    printf("# maps: %zu in %s", nfiles, dir);
    printf("\n# %u waypoint pairs per map out and back with truncation, %u without; at most %llu\n"
           "# states expanded per planning step (a step that reaches the limit counts as failed);\n"
           "# ours = %s", pairs, pairs_untrunc, (unsigned long long)maxexp, nb_motion_heuristic_name(hs[2]));
    if (per_class)
        printf(", headings in classes of %u", per_class);
    if (cols[4])
        printf("; HAA* over clusters of %u", cluster);
    if (box)
        printf(", aiming truncated searches at their whole box");
    printf("\n");
    /* The tables do not depend on the map: the paper's (tables[0]) and
     * mkperim's default ones (tables[1]) are baked once, each in a bundle
     * of its own (with the first map's level, which a bundle needs), and
     * used with every map's bundle. */
    nb_bundle *tables[2];
    for (int v = 0; v < 2 && nfiles; v++) {
        nbb_grid grid;
        nbb_builder *bl;
        if (nbb_map_read(files[0], &legend, 1, &grid, &err) || nbb_builder_new(&bl, &err) ||
            nbb_put_level(bl, &legend, &agents, &grid, 0, &err)) {
            fprintf(stderr, "bench_motion_maps: %s\n", err.msg);
            return 1;
        }
        for (int k = 0; k < NMODELS; k++) {
            nbb_perimeter_opts o = {.radius = 15, .layout = NB_PERIM_SYMMETRIC, .entry_bits = v ? 16 : 32,
                                    .paper = !v};
            if (nbb_put_model(bl, &src[k], &err) || nbb_put_perimeter(bl, &src[k], &o, NULL, &err)) {
                fprintf(stderr, "bench_motion_maps: %s\n", err.msg);
                return 1;
            }
        }
        const char *bpath = tu_path(tu_tmpdir(), v ? "ours.nbk" : "paper.nbk");
        if (nbb_builder_write(bl, bpath, &err) || nb_bundle_open(bpath, 0, NULL, &tables[v], &err)) {
            fprintf(stderr, "bench_motion_maps: %s\n", err.msg);
            return 1;
        }
        nbb_builder_free(bl);
        nbb_grid_free(&grid);
    }
    for (size_t f = 0; f < nfiles; f++) {
        const char *mpath = files[f];
        nbb_grid grid;
        nb_bundle *bund;
        nbb_builder *bl;
        if (nbb_map_read(mpath, &legend, 1, &grid, &err) != NB_OK || nbb_builder_new(&bl, &err) ||
            nbb_put_level(bl, &legend, &agents, &grid, 0, &err)) {
            fprintf(stderr, "bench_motion_maps: %s\n", err.msg);
            return 1;
        }
        /* HAA* needs mkclear's layers and the abstract graph. */
        const char *bpath = tu_path(tu_tmpdir(), "map.nbk");
        if ((cols[4] && nbb_bake_clearance(bl, &legend, &agents, &grid, 0, NULL, &err)) ||
            nbb_builder_write(bl, bpath, &err) || nb_bundle_open(bpath, 0, NULL, &bund, &err) ||
            (cols[4] && tu_add_abstract(&bund, tu_path(tu_tmpdir(), "haa.nbk"), cluster, &err))) {
            fprintf(stderr, "bench_motion_maps: %s\n", err.msg);
            return 1;
        }
        nbb_builder_free(bl);
        nb_capability cap = agents.agent[0].capability;
        double t_map = now();
        for (int k = 0; k < NMODELS; k++) {
            if (!use[k])
                continue;
            nb_model *mv[2];
            nb_perimeter *pv[2];
            nb_motion *wsv[2];
            for (int v = 0; v < 2; v++) {
                if (nb_model_open(tables[v], names[k], &mv[v], &err) ||
                    nb_perimeter_open(tables[v], mv[v], &pv[v], &err) ||
                    tu_motion_open(bund, mv[v], pv[v], cap, 1, 6, &wsv[v], &err) ||
                    (v && cols[4] && nb_motion_use_haa(wsv[v], &err))) {
                    fprintf(stderr, "bench_motion_maps: %s\n", err.msg);
                    return 1;
                }
                wsv[v]->heading_box = box;
                /* Work out the legal steps of every cell before timing, so
                 * that no heuristic pays for what the first one met. */
                for (uint32_t y = 0; y < grid.height; y++)
                    for (uint32_t x = 0; x < grid.width; x++)
                        if (nb_motion_standable(wsv[v], x, y))
                            nbi_move_legal(&wsv[v]->grid, x, y, 0);
            }
            nb_model *m = mv[0];
            nb_motion *ws = wsv[0];
            /* The same pairs for every model and heuristic: cells joined by the
             * sector graph. */
            tu_rng r = {1000 + f};
            size_t np = pairs > pairs_untrunc ? pairs : pairs_untrunc;
            nb_motion_state *A = malloc(np * sizeof *A), *B = malloc(np * sizeof *B);
            nb_motion_state *Aback = malloc(np * sizeof *Aback);
            for (size_t i = 0; i < np; i++) {
                for (int tries = 0; tries < 100000; tries++) {
                    A[i] = (nb_motion_state){(int32_t)tu_below(&r, grid.width), (int32_t)tu_below(&r, grid.height), 0, 0};
                    B[i] = (nb_motion_state){(int32_t)tu_below(&r, grid.width), (int32_t)tu_below(&r, grid.height), 0, 0};
                    if (nb_motion_standable(ws, A[i].x, A[i].y) && nb_motion_standable(ws, B[i].x, B[i].y) &&
                        (A[i].x != B[i].x || A[i].y != B[i].y) &&
                        nbi_sectors_path(&ws->sectors, A[i].x, A[i].y, B[i].x, B[i].y))
                        break;
                }
                /* The trips start stopped, facing the way the abstract path
                 * leaves, and end stopped at the waypoint, facing any way. */
                A[i].speed = B[i].speed = (uint16_t)m->stop;
                A[i].heading = departure(ws, m, &A[i], &B[i]);
                B[i].heading = NB_HEADING_ANY;
                Aback[i] = A[i];
                Aback[i].heading = NB_HEADING_ANY;
            }
            for (unsigned sg = 0; sg < nsegs; sg++)
                for (int tr = 0; tr < 2; tr++)
                    for (int h = 0; h < NH; h++) {
                        if (!trs[tr] || !cols[h])
                            continue;
                        samples *s = &S[sg][tr][k][h];
                        static trip t;
                        t.s = s;
                        double t0 = now();
                        nb_motion *w = wsv[ours_table[h]];
                        for (size_t i = 0; i < (tr ? pairs : pairs_untrunc); i++) {
                            nb_motion_query q;
                            nb_motion_result res;
                            nb_motion_query_init(&q);
                            q.heuristic = hs[h];
                            q.weight = 1.2;
                            q.truncate = tr ? 3 : 0;
                            q.max_expansions = maxexp;
                            q.waypoint_heading = exact_waypoints[h];
                            q.heading_classes = per_class ? nb_model_headings(m) / per_class : 0;
                            q.abstraction = abstraction[h];
                            q.start = A[i];
                            q.goal = B[i];
                            t.n = 0;
                            if (nb_motion_route_find(w, &q, segs[sg], on_step, &t, &res, NULL, &err) != NB_OK) {
                                fprintf(stderr, "bench_motion_maps: %s\n", err.msg);
                                return 1;
                            }
                            count_route(s, &res);
                            add_kinds(K[sg][tr][k][h], &t, w, segs[sg]);
                            if (steps)
                                dump_trip(steps, &t, w, &q.start, &q.goal, segs[sg], files[f], names[k], tr, h, i, 0);
                            /* Back from where the agent ended (or from B if it failed). */
                            q.start = B[i];
                            q.start.heading = departure(w, m, &B[i], &A[i]);
                            if ((res.status == NB_PATH_FOUND))
                                q.start = res.end;
                            q.goal = Aback[i];
                            t.n = 0;
                            if (nb_motion_route_find(w, &q, segs[sg], on_step, &t, &res, NULL, &err) != NB_OK) {
                                fprintf(stderr, "bench_motion_maps: %s\n", err.msg);
                                return 1;
                            }
                            count_route(s, &res);
                            add_kinds(K[sg][tr][k][h], &t, w, segs[sg]);
                            if (steps)
                                dump_trip(steps, &t, w, &q.start, &q.goal, segs[sg], files[f], names[k], tr, h, i, 1);
                        }
                        s->seconds += now() - t0;
                    }
            free(A);
            free(B);
            free(Aback);
            for (int v = 0; v < 2; v++) {
                nb_motion_close(wsv[v]);
                nb_perimeter_close(pv[v]);
                nb_model_close(mv[v]);
            }
        }
        fprintf(stderr, "bench_motion_maps: %s (%ux%u) done in %.0f s\n", files[f], grid.width,
                grid.height, now() - t_map);
        nb_bundle_close(bund);
        nbb_grid_free(&grid);
    }
    for (int v = 0; v < 2 && nfiles; v++)
        nb_bundle_close(tables[v]);
    for (unsigned sg = 0; sg < nsegs; sg++)
        for (int tr = 0; tr < 2; tr++)
            for (int k = 0; k < NMODELS; k++)
                for (int h = 0; h < NH; h++) {
                    qsort(S[sg][tr][k][h].v, S[sg][tr][k][h].n, sizeof(uint64_t), cmp_u64);
                    for (int j = 0; j < 3; j++)
                        qsort(K[sg][tr][k][h][j].v, K[sg][tr][k][h][j].n, sizeof(uint64_t), cmp_u64);
                }
    for (unsigned sg = 0; sg < nsegs && row_label; sg++)
        for (int tr = 1; tr >= 0; tr--) {
            if (!trs[tr])
                continue;
            printf("| %s | %u-%u | %s |", row_label, 6 * (segs[sg] - 1), 6 * segs[sg], tr ? "yes" : "no");
            for (int k = 0; k < NMODELS; k++) {
                samples *s = &S[sg][tr][k][2];
                if (use[k])
                    printf(" %llu / %llu / %llu |", (unsigned long long)pct(s, 50), (unsigned long long)pct(s, 90),
                           (unsigned long long)pct(s, 99));
                else
                    printf(" - |");
            }
            for (int pass = 0; pass < 2; pass++) {
                const char *sep = " ";
                for (int k = 0; k < NMODELS; k++) {
                    samples *s = &S[sg][tr][k][2], *b = &S[sg][tr][k][1];
                    if (!use[k] || !s->n)
                        printf("%s-", sep);
                    else if (pass == 0)
                        printf("%s%.0f", sep, (double)s->grid / s->n);
                    else
                        printf("%s%.2fx", sep, b->n && b->seconds > 0 ? s->seconds / s->n / (b->seconds / b->n) : 0);
                    sep = " / ";
                }
                printf(" |");
            }
            printf("\n");
        }
    /* The tables show the columns that ran. */
    const int ncols = cols[4] ? NH : NH - 1;
    for (unsigned sg = 0; sg < nsegs && !row_label; sg++) {
        int table = segs[sg] == 3 ? 0 : segs[sg] == 4 ? 1 : -1;
        printf("\n## Segments of %u sectors (%u-%u cells)%s\n\n", segs[sg], 6 * (segs[sg] - 1),
               6 * segs[sg], table == 0 ? ": the paper's Table 2" : table == 1 ? ": the paper's Table 3" : "");
        printf("|  |");
        for (int k = 0; k < NMODELS; k++)
            for (int h = 0, first = 1; h < ncols && use[k]; h++)
                if (cols[h]) {
                    /* The model's name heads its first column. */
                    printf(" %s%s%s |", first ? names[k] : "", first ? " " : "", colheads[h]);
                    first = 0;
                }
        printf("\n|---|");
        for (int k = 0; k < NMODELS; k++)
            for (int h = 0; h < ncols && use[k]; h++)
                    if (cols[h])
                printf("---|");
        printf("\n");
        static const char *const rows[3] = {"median", "90th percentile", "99th percentile"};
        static const double ps[3] = {50, 90, 99};
        for (int tr = 0; tr < 2; tr++) {
            printf("| **%s** |", tr ? "intermediate search truncation" : "no intermediate search truncation");
            for (int k = 0; k < NMODELS; k++)
                for (int h = 0; h < ncols && use[k]; h++)
                    if (cols[h])
                    printf("  |");
            printf("\n");
            for (int row = 0; row < 3; row++) {
                printf("| %s |", rows[row]);
                for (int k = 0; k < NMODELS; k++) {
                    if (!use[k])
                        continue;
                    for (int h = 0; h < ncols; h++)
                    if (cols[h]) {
                        uint64_t v = pct(&S[sg][tr][k][h], ps[row]);
                        if (!S[sg][tr][k][h].n)
                            printf(" - |");
                        else if (table >= 0 && h < 2)
                            printf(" %llu (%g) |", (unsigned long long)v, paper[table][tr][row][k][h]);
                        else
                            printf(" %llu |", (unsigned long long)v);
                    }
                }
                printf("\n");
            }
            printf("| 99th percentile: first / intermediate / last steps |");
            for (int k = 0; k < NMODELS; k++)
                if (use[k])
                    for (int h = 0; h < ncols; h++)
                    if (cols[h]) {
                        samples *b = K[sg][tr][k][h];
                        if (S[sg][tr][k][h].n)
                            printf(" %llu / %llu / %llu |", (unsigned long long)pct(&b[0], 99),
                                   (unsigned long long)pct(&b[1], 99), (unsigned long long)pct(&b[2], 99));
                        else
                            printf(" - |");
                    }
            printf("\n| planning steps (failed) |");
            for (int k = 0; k < NMODELS; k++)
                if (use[k])
                    for (int h = 0; h < ncols; h++)
                    if (cols[h])
                        printf(" %zu (%llu) |", S[sg][tr][k][h].n, (unsigned long long)S[sg][tr][k][h].failed);
            printf("\n| mean states per step |");
            for (int k = 0; k < NMODELS; k++)
                if (use[k])
                    for (int h = 0; h < ncols; h++)
                    if (cols[h])
                        printf(" %.0f |", S[sg][tr][k][h].n ? (double)S[sg][tr][k][h].total / S[sg][tr][k][h].n : 0);
            printf("\n| obstacle-aware search per step (cells or states) |");
            for (int k = 0; k < NMODELS; k++)
                if (use[k])
                    for (int h = 0; h < ncols; h++)
                    if (cols[h]) {
                        samples *s = &S[sg][tr][k][h];
                        if (h >= 2 && s->n)
                            printf(" %.0f |", (double)s->grid / s->n);
                        else
                            printf(" - |");
                    }
            printf("\n| us per step (vs octile) |");
            for (int k = 0; k < NMODELS; k++)
                if (use[k])
                    for (int h = 0; h < ncols; h++)
                    if (cols[h]) {
                        samples *s = &S[sg][tr][k][h];
                        double us = s->n ? 1e6 * s->seconds / s->n : 0;
                        double base = S[sg][tr][k][0].n ? 1e6 * S[sg][tr][k][0].seconds / S[sg][tr][k][0].n : 0;
                        printf(" %.0f (%.2fx) |", us, base > 0 ? us / base : 0);
                    }
            /* Whole routes (the abstract search included) against "ours"
             * over sectors: what the HAA* column changes. */
            printf("\n| us per route (vs ours) |");
            for (int k = 0; k < NMODELS; k++)
                for (int h = 0; h < ncols && use[k]; h++)
                    if (cols[h]) {
                    samples *s = &S[sg][tr][k][h], *b = &S[sg][tr][k][2];
                    double us = s->routes ? 1e6 * s->seconds / s->routes : 0;
                    double base = b->routes ? 1e6 * b->seconds / b->routes : 0;
                    printf(" %.0f (%.2fx) |", us, base > 0 ? us / base : 0);
                }
            printf("\n| routes found, mean cost (vs ours) |");
            for (int k = 0; k < NMODELS; k++)
                for (int h = 0; h < ncols && use[k]; h++)
                    if (cols[h]) {
                    samples *s = &S[sg][tr][k][h], *b = &S[sg][tr][k][2];
                    double c = s->found ? s->cost / s->found : 0, base = b->found ? b->cost / b->found : 0;
                    printf(" %llu, %.1f (%.2fx) |", (unsigned long long)s->found, c, base > 0 ? c / base : 0);
                }
            printf("\n");
        }
    }
    if (!row_label)
        printf("\nTotal CPU time %.0f s.  In parentheses: the paper's figures (its 75 maps, not these).\n",
               now() - t_start);
    for (size_t f = 0; f < nfiles; f++)
        free(files[f]);
    free((char *)dir);
    if (steps)
        fclose(steps);
    return 0;
}
