/* bench_open.c: what it costs to start using a bundle, for the promise
 * that opening a mapped bundle is O(sections), not O(cells) (formats/
 * bundle.md, "What a reader relies on"): nb_bundle_open alone, with
 * NB_OPEN_VERIFY, and for each query family the handle's open (where its
 * section is checked) and its first query on a fresh handle.  Each figure
 * is the median of -n runs, each from a fresh nb_bundle_open of a file in
 * the page cache.
 *
 * Levels (baked here with the bake API, every section): data/sample.map,
 * and with ../shared wc3/battleground.map (512 x 512) and dao/orz900d.map
 * (1491 x 656): mkclear's layers for data/agents.yaml, mkabstract --paths,
 * mkperim --model tank (symmetric, radius 15), mkhitcheck --unit tank; and
 * a forest of 2000 random circles with a graph for radius 1.  Or bundles named on the
 * command line.  Run by 'make bench'. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"

enum { MAX_REPS = 101 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const nb_err *err)
{
    fprintf(stderr, "bench_open: %s: %s\n", what, err->msg);
    exit(1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One measurement: the times of a phase over the runs. */
typedef struct series {
    double t[MAX_REPS];
    int n;
} series;

static void add(series *s, double t) { s->t[s->n++] = t; }

static double median_us(series *s)
{
    if (s->n == 0)
        return NAN;
    qsort(s->t, (size_t)s->n, sizeof *s->t, cmp_double);
    return s->t[s->n / 2] * 1e6;
}

/* ---- the query families ---- */

/* Two standable cells of agent 0 far apart: the first from the top-left
 * and the first from the bottom-right. */
static int ends(const nb_bundle *b, const nb_agent *a, nb_cell *s, nb_cell *g)
{
    long w = (long)nb_map_width(b), h = (long)nb_map_height(b);
    int found = 0;
    for (long i = 0; i < w * h && !(found & 1); i++)
        if (nb_can_stand(b, a->capability, a->size, i % w, i / w) == 1) {
            *s = (nb_cell){(int32_t)(i % w), (int32_t)(i / w)};
            found |= 1;
        }
    for (long i = w * h - 1; i >= 0 && !(found & 2); i--)
        if (nb_can_stand(b, a->capability, a->size, i % w, i / w) == 1 &&
            nb_reachable(b, a->capability, a->size, *s, (nb_cell){(int32_t)(i % w), (int32_t)(i / w)}) == 1) {
            *g = (nb_cell){(int32_t)(i % w), (int32_t)(i / w)};
            found |= 2;
        }
    return found == 3;
}

typedef struct family {
    const char *name;
    int (*present)(const nb_bundle *b);
    /* Opens the handle (timed as open), then one query (timed as first). */
    void (*run)(const nb_bundle *b, double *open, double *first);
} family;

static void aa_query(const nb_bundle *b, nb_aa_query *q)
{
    const nb_agent *a = nb_agent_get(b, 0);
    nb_aa_query_init(q);
    q->capability = a->capability;
    q->size = a->size;
    if (!ends(b, a, &q->start, &q->goal)) {
        fprintf(stderr, "bench_open: no two connected standable cells\n");
        exit(1);
    }
}

static int has_layers(const nb_bundle *b)
{
    return nb_agent_count(b) > 0 && nb_clearance_cap(b, nb_agent_get(b, 0)->capability) > 0;
}

static void run_aa(const nb_bundle *b, double *open, double *first)
{
    nb_aa_query q;
    aa_query(b, &q);
    nb_aa *ws;
    nb_aa_result r;
    nb_err err;
    double t0 = now();
    if (nb_aa_open(b, &ws, &err) != NB_OK)
        die("nb_aa_open", &err);
    double t1 = now();
    if (nb_aa_find(ws, &q, &r, &err) != NB_OK || r.status != NB_PATH_FOUND)
        die("nb_aa_find", &err);
    double t2 = now();
    nb_aa_close(ws);
    *open = t1 - t0;
    *first = t2 - t1;
}

static int has_abstract(const nb_bundle *b)
{
    return has_layers(b) && nbi_section_index(b, NB_SEC_ABSTRACT, NULL, NULL, 0) >= 0;
}

static void run_haa(const nb_bundle *b, double *open, double *first)
{
    nb_aa_query q;
    aa_query(b, &q);
    nb_haa *ws;
    nb_haa_result r;
    nb_err err;
    double t0 = now();
    if (nb_haa_open(b, &ws, &err) != NB_OK)
        die("nb_haa_open", &err);
    double t1 = now();
    if (tu_haa_find(ws, &q, 0, &r, &err) != NB_OK || r.status != NB_PATH_FOUND)
        die("nb_haa_find", &err);
    double t2 = now();
    nb_haa_close(ws);
    *open = t1 - t0;
    *first = t2 - t1;
}

static int has_model(const nb_bundle *b)
{
    return has_layers(b) && nbi_section_index(b, NB_SEC_PERIMETER, NULL, NULL, 0) >= 0;
}

static void run_motion(const nb_bundle *b, double *open, double *first)
{
    const nb_section_info *in = nb_bundle_section_get(b, (size_t)nbi_section_index(b, NB_SEC_PERIMETER, NULL, NULL, 0));
    const nb_agent *a = nb_agent_get(b, 0);
    nb_aa_query cells;
    aa_query(b, &cells);
    nb_model *m;
    nb_perimeter *p;
    nb_motion *ws;
    nb_err err;
    double t0 = now();
    if (nb_model_open(b, in->name, &m, &err) != NB_OK || nb_perimeter_open(b, m, &p, &err) != NB_OK ||
        tu_motion_open(b, m, p, a->capability, a->size, 0, &ws, &err) != NB_OK)
        die("a motion workspace", &err);
    double t1 = now();
    nb_motion_query q;
    nb_motion_result r;
    nb_motion_query_init(&q);
    q.heuristic = NB_MH_PERIMETER;
    q.start = (nb_motion_state){cells.start.x, cells.start.y, 0, (uint16_t)nb_model_stop(m)};
    /* A goal near the start: plans over the whole map take seconds. */
    q.goal = q.start;
    for (int d = 12; d > 0 && q.goal.x == q.start.x && q.goal.y == q.start.y; d--)
        for (int k = 0; k < 4; k++) {
            long x = q.start.x + (k & 1 ? d : 0), y = q.start.y + (k & 2 ? d : 0);
            nb_cell c = {(int32_t)x, (int32_t)y};
            if (nb_can_stand(b, a->capability, a->size, x, y) == 1 &&
                nb_reachable(b, a->capability, a->size, cells.start, c) == 1) {
                q.goal.x = c.x;
                q.goal.y = c.y;
                break;
            }
        }
    if (nb_motion_find(ws, &q, &r, &err) != NB_OK)
        die("nb_motion_find", &err);
    double t2 = now();
    nb_motion_close(ws);
    nb_perimeter_close(p);
    nb_model_close(m);
    *open = t1 - t0;
    *first = t2 - t1;
}

static int has_unit(const nb_bundle *b) { return nb_unit_count(b) > 0; }

static void run_planner(const nb_bundle *b, double *open, double *first)
{
    nb_unit u;
    nb_err err;
    if (nb_unit_get(b, 0, &u, &err) != NB_OK)
        die("nb_unit_get", &err);
    nb_aa_query cells;
    aa_query(b, &cells);
    nb_planner *pl;
    double t0 = now();
    if (nb_planner_open(b, u.name, &pl, &err) != NB_OK)
        die("nb_planner_open", &err);
    double t1 = now();
    nb_planner_query q;
    nb_planner_result r;
    nb_planner_query_init(&q);
    q.start = (nb_pose){cells.start.x + 0.5, cells.start.y + 0.5, 0};
    q.goal.x = cells.goal.x;
    q.goal.y = cells.goal.y;
    q.max_expansions = 200000;
    if (nb_planner_find(pl, &q, &r, &err) != NB_OK)
        die("nb_planner_find", &err);
    double t2 = now();
    nb_planner_close(pl);
    *open = t1 - t0;
    *first = t2 - t1;
}

static int has_forest(const nb_bundle *b) { return nbi_section_index(b, NB_SEC_FOREST, NULL, NULL, 0) >= 0; }

static void run_forest(const nb_bundle *b, double *open, double *first)
{
    nb_forest *f;
    nb_forest_ws *ws;
    nb_forest_result r;
    nb_err err;
    double t0 = now();
    if (nb_forest_open(b, &f, &err) != NB_OK || nb_forest_ws_open(f, &ws, &err) != NB_OK)
        die("nb_forest_open", &err);
    double t1 = now();
    double radius = nb_forest_radius_count(f) ? nb_forest_radius_get(f, 0) : 0, box[4] = {0, 0, 1, 1};
    nb_forest_bounds(f, box);
    nb_vec2 s = {box[0], box[1]}, g = {box[2], box[3]};
    if (tu_forest_find(f, radius, s, g, 0, ws, &r, &err) != NB_OK)
        die("nb_forest_find", &err);
    double t2 = now();
    nb_forest_ws_close(ws);
    nb_forest_close(f);
    *open = t1 - t0;
    *first = t2 - t1;
}

static const family families[] = {
    {"AA*", has_layers, run_aa},
    {"HAA*", has_abstract, run_haa},
    {"motion", has_model, run_motion},
    {"planner", has_unit, run_planner},
    {"forest", has_forest, run_forest},
};
enum { NFAM = sizeof families / sizeof families[0] };

static void measure(const char *path, int reps)
{
    series open = {0}, verify = {0}, fopen_[NFAM] = {0}, ffirst[NFAM] = {0};
    int present[NFAM] = {0};
    uint64_t bytes = 0;
    size_t nsections = 0;
    for (int k = 0; k < reps; k++) {
        nb_bundle *b;
        nb_err err;
        double t0 = now();
        if (nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &b, &err) != NB_OK)
            die(path, &err);
        add(&verify, now() - t0);
        nb_bundle_close(b);
        t0 = now();
        if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK)
            die(path, &err);
        add(&open, now() - t0);
        bytes = nb_bundle_file_size(b);
        nsections = nb_bundle_section_count(b);
        for (int f = 0; f < NFAM; f++)
            if ((present[f] = families[f].present(b))) {
                double o, q;
                families[f].run(b, &o, &q);
                add(&fopen_[f], o);
                add(&ffirst[f], q);
            }
        nb_bundle_close(b);
    }
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    printf("| %s | %.1f MB, %zu sections | %.0f | %.0f |", name, bytes / 1e6, nsections,
           median_us(&open), median_us(&verify));
    for (int f = 0; f < NFAM; f++)
        if (present[f])
            printf(" %.0f + %.0f |", median_us(&fopen_[f]), median_us(&ffirst[f]));
        else
            printf(" - |");
    printf("\n");
    fflush(stdout);
}

/* ---- the levels ---- */

/* 2000 circles of radius 2 to 8 in a 1000 x 1000 box. */
static int random_forest(nbb_forest *f)
{
    tu_rng r = {2026};
    f->n = 2000;
    f->circles = calloc(f->n, sizeof *f->circles);
    f->has_bounds = 1;
    f->bounds[0] = f->bounds[1] = 0;
    f->bounds[2] = f->bounds[3] = 1000;
    for (size_t i = 0; f->circles && i < f->n; i++)
        f->circles[i] = (nb_circle){10 + tu_below(&r, 98000) / 100.0, 10 + tu_below(&r, 98000) / 100.0,
                                    2 + tu_below(&r, 600) / 100.0};
    return f->circles != NULL;
}

static const char *bake(const char *map, const char *out)
{
    nb_err err;
    nbb_level *lv;
    nbb_builder *w;
    nb_model *m = NULL;
    nb_unit u;
    nbb_forest forest = {0};
    double radius = 1;
    nbb_perimeter_opts po = {.radius = 15, .layout = NB_PERIM_SYMMETRIC, .entry_bits = 16};
    if (nbb_level_read(NULL, tu_src("data/agents.yaml"), map, 1, &lv, &err) != NB_OK)
        die(map, &err);
    if (nbb_builder_new(&w, &err) != NB_OK || nbb_level_put(w, lv, 0, &err) != NB_OK ||
        nbb_level_bake_clearance(w, lv, 0, NULL, NULL, NULL, &err) != NB_OK ||
        nbb_model_load(tu_src("data/models/tank.yaml"), &m, &err) != NB_OK ||
        nbb_put_model(w, m, &err) != NB_OK || nbb_put_perimeter(w, m, &po, NULL, &err) != NB_OK ||
        nbb_unit_read(tu_src("data/units/tank.yaml"), NULL, &u, &err) != NB_OK ||
        nbb_put_unit(w, &u, 0, NULL, &err) != NB_OK ||
        !random_forest(&forest) ||
        nbb_put_forest(w, &forest, &radius, 1, 0, NULL, NULL, NULL, &err) != NB_OK ||
        nbb_builder_write(w, out, &err) != NB_OK)
        die(map, &err);
    nbb_builder_free(w);
    nbb_forest_free(&forest);
    nb_model_close(m);
    nbb_level_free(lv);
    /* The abstract graph with stored paths, from the layers just written. */
    nb_bundle *b;
    nbb_abstract_opts ao;
    uint8_t *payload;
    size_t len;
    nb_section_info info;
    nbb_abstract_defaults(&ao);
    ao.paths = 1;
    if (nb_bundle_open(out, 0, NULL, &b, &err) != NB_OK ||
        nbb_abstract_build(b, &ao, &payload, &len, NULL, &err) != NB_OK)
        die(out, &err);
    nbb_abstract_info(payload, &info);
    if (nbb_builder_new(&w, &err) != NB_OK || nbb_builder_take(w, b, &err) != NB_OK ||
        nbb_builder_add(w, &info, payload, len, 0, &err) != NB_OK)
        die(out, &err);
    nb_bundle_close(b);
    if (nbb_builder_write(w, out, &err) != NB_OK)
        die(out, &err);
    nbb_builder_free(w);
    free(payload);
    return out;
}

int main(int argc, char **argv)
{
    int reps = 21, first = 1;
    if (argc > 2 && strcmp(argv[1], "-n") == 0) {
        reps = atoi(argv[2]);
        first = 3;
        if (reps < 1 || reps > MAX_REPS) {
            fprintf(stderr, "bench_open: -n takes 1 to %d runs\n", MAX_REPS);
            return 2;
        }
    }
    printf("Median microseconds of %d runs; a family's cell is its handle's open + its first "
           "query.\n\n",
           reps);
    printf("| bundle | size | nb_bundle_open | with NB_OPEN_VERIFY | AA* | HAA* | motion | planner "
           "| forest |\n|---|---|---|---|---|---|---|---|---|\n");
    if (argc > first) {
        for (int i = first; i < argc; i++)
            measure(argv[i], reps);
        return 0;
    }
    if (!getenv("NB_SHARED"))
        setenv("NB_SHARED", tu_src("../shared"), 1);
    const char *dir = tu_tmpdir();
    measure(bake(tu_src("data/sample.map"), tu_path(dir, "sample.nbk")), reps);
    const char *maps[] = {"maps/wc3/battleground.map", "maps/dao/orz900d.map"};
    for (size_t i = 0; i < sizeof maps / sizeof *maps; i++) {
        const char *map = tu_shared(maps[i]);
        if (!map) {
            printf("(%s: ../shared is not there)\n", maps[i]);
            continue;
        }
        char name[64];
        snprintf(name, sizeof name, "%s.nbk", strrchr(maps[i], '/') + 1);
        measure(bake(map, tu_path(dir, name)), reps);
    }
    return 0;
}
