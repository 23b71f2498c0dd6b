/* bench_place.c: what the place queries cost (nb_nearest_find,
 * nb_walk_line, nb_random_standable), each against the way a game would
 * do without them, measured in the same run on the same queries:
 *
 *  - making a place, which checks the runs section (O(components + runs)),
 *    against building the runs when the bundle is opened instead (a pass
 *    over the component layer's cells and the runs built, what a
 *    "once per bundle" precomputation costs);
 *  - the nearest standable cell from a random cell, plain and within the
 *    component of another, against the spiral search over nb_can_stand
 *    that issue 18's newcomer wrote (the same rings, the public call per
 *    cell); the answers' distances are compared;
 *  - a straight line between two standable cells at most 32 apart, against
 *    square_smooth.c's whole-cell test of HAA*'s smoothing (the answers
 *    must agree);
 *  - a random cell of a component, against drawing random cells of the
 *    map until one is in it.
 *
 * Levels: data/sample.map and, with ../shared, wc3/battleground.map
 * (512 x 512) and dao/orz900d.map (1491 x 656), baked with
 * data/sample-agents.yaml (four capabilities, sizes 1 to 3); or maps named
 * on the command line.  Queries use each of the four agents in turn.
 * Prints Markdown tables; tests/bench/results/place-bench.md has them with the
 * command and the machine.  Run by 'make bench'. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "abstract/abstract.h"
#include "place/place.h"
#include "place/runs_build.h"
#include "testutil.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, const nb_err *err)
{
    fprintf(stderr, "bench_place: %s: %s\n", what, err->msg);
    exit(1);
}

/* The least time of three passes of a loop (a shared machine's noise
 * only ever adds); the loop's results are those of the last pass. */
#define BEST_OF_3(t, body)                                                                         \
    do {                                                                                           \
        t = INFINITY;                                                                              \
        for (int pass_ = 0; pass_ < 3; pass_++) {                                                  \
            double t0_ = now();                                                                    \
            body;                                                                                  \
            double t1_ = now() - t0_;                                                              \
            if (t1_ < t)                                                                           \
                t = t1_;                                                                           \
        }                                                                                          \
    } while (0)

typedef struct level {
    char name[64];
    nb_bundle *b;
    size_t nagents;
    const nb_agent *agent[8];
    nb_place *place[8];
} level;

static void bake(const char *map, const char *name, level *L)
{
    nbi_legend legend;
    nbi_agentset agents;
    nbb_grid g;
    nb_err err;
    nbi_legend_default(&legend);
    if (nbb_agents_read(tu_src("data/sample-agents.yaml"), &legend, &agents, &err) != NB_OK)
        die("data/sample-agents.yaml", &err);
    if (nbb_map_read(map, &legend, 1, &g, &err) != NB_OK)
        die(map, &err);
    const char *path = tu_path(tu_tmpdir(), "place.nbk");
    remove(path);
    if (tu_write_cleared(path, &legend, &agents, &g, 0, &err) != NB_OK ||
        nb_bundle_open(path, 0, NULL, &L->b, &err) != NB_OK)
        die(map, &err);
    free(g.cells);
    snprintf(L->name, sizeof L->name, "%s", name);
    L->nagents = nb_agent_count(L->b);
    for (size_t i = 0; i < L->nagents; i++) {
        L->agent[i] = nb_agent_get(L->b, i);
        if (tu_place_open(L->b, L->agent[i]->capability, L->agent[i]->size, &L->place[i], &err))
            die("nb_place_open", &err);
    }
}

static void sizes(const level *L)
{
    uint64_t comp = 0, runs = 0, nruns = 0, cells = 0;
    for (size_t i = 0; i < nb_bundle_section_count(L->b); i++) {
        const nb_section_info *in = nb_bundle_section_get(L->b, i);
        if (in->type == NB_SEC_COMPONENTS)
            comp += in->size;
        if (in->type == NB_SEC_RUNS) {
            runs += in->size;
            nruns += in->param[3];
            cells += in->param[4];
        }
    }
    double map = (double)nb_map_width(L->b) * nb_map_height(L->b);
    printf("| %s | %u x %u | %.0f KiB (%.3f B/cell) | %.0f KiB (%.3f B/cell) | %llu | %llu |\n",
           L->name, nb_map_width(L->b), nb_map_height(L->b), comp / 1024.0, comp / (map * 12),
           runs / 1024.0, runs / (map * 12), (unsigned long long)nruns, (unsigned long long)cells);
}

/* Making a place for every agent, and the alternative: the runs built
 * from the component layer when the bundle is opened. */
static void opening(const level *L, int reps)
{
    double t_open = 0, t_build = 0;
    size_t n = (size_t)nb_map_width(L->b) * nb_map_height(L->b);
    uint32_t *label = malloc(n * sizeof *label);
    for (int r = 0; r < reps; r++)
        for (size_t i = 0; i < L->nagents; i++) {
            nb_place *p;
            nb_err err;
            double t0 = now();
            if (tu_place_open(L->b, L->agent[i]->capability, L->agent[i]->size, &p, &err))
                die("nb_place_open", &err);
            t_open += now() - t0;
            nb_place_close(p);
            t0 = now();
            const nbi_layer *c = &L->place[i]->comp;
            for (size_t k = 0; k < n; k++)
                label[k] = nbi_layer_value(c, k);
            nbb_runs runs;
            if (nbb_runs_build(label, c->width, c->height, c->maxval, &runs, &err))
                die("nbb_runs_build", &err);
            nbb_runs_free(&runs);
            t_build += now() - t0;
        }
    free(label);
    double k = 1e6 / (reps * (double)L->nagents);
    printf("| %s | %.1f | %.0f | %.0f |\n", L->name, t_open * k, t_build * k,
           t_build / t_open);
}

/* The newcomer's spiral: rings of nb_can_stand until a ring lies beyond
 * the best distance. */
static double spiral(const nb_bundle *b, const nb_agent *a, nb_cell p, double radius)
{
    long w = nb_map_width(b), h = nb_map_height(b), reach = w + h;
    double best = INFINITY;
    for (long r = 0; r <= reach && r <= best && r <= radius; r++)
        for (long y = p.y - r; y <= p.y + r; y++)
            for (long x = p.x - r; x <= p.x + r; x++) {
                if (labs(x - p.x) != r && labs(y - p.y) != r)
                    continue;
                if (nb_can_stand(b, a->capability, a->size, x, y) != 1)
                    continue;
                long dx = labs(x - p.x), dy = labs(y - p.y);
                double d = dx > dy ? dx + (M_SQRT2 - 1) * dy : dy + (M_SQRT2 - 1) * dx;
                if (d <= radius && d < best)
                    best = d;
            }
    return best;
}

static nb_cell standable(const level *L, size_t a, tu_rng *r)
{
    const nb_agent *ag = L->agent[a];
    for (;;) {
        nb_cell c = {(int32_t)tu_below(r, nb_map_width(L->b)), (int32_t)tu_below(r, nb_map_height(L->b))};
        if (nb_can_stand(L->b, ag->capability, ag->size, c.x, c.y) == 1)
            return c;
    }
}

static void nearest(const level *L, int nq, int reachable)
{
    tu_rng r = {42};
    nb_nearest_query *q = malloc((size_t)nq * sizeof *q);
    double *d = malloc((size_t)nq * sizeof *d);
    uint64_t examined = 0;
    for (int i = 0; i < nq; i++) {
        nb_nearest_query_init(&q[i]);
        q[i].point = (nb_cell){(int32_t)tu_below(&r, nb_map_width(L->b)),
                               (int32_t)tu_below(&r, nb_map_height(L->b))};
        q[i].reachable = reachable;
        if (reachable)
            q[i].start = standable(L, (size_t)i % L->nagents, &r);
    }
    double ours;
    BEST_OF_3(ours, {
        examined = 0;
        for (int i = 0; i < nq; i++) {
            nb_nearest_result res;
            nb_err err;
            if (tu_nearest(L->place[(size_t)i % L->nagents], &q[i], &res, &err))
                die("nb_nearest_find", &err);
            d[i] = res.distance;
            examined += res.examined;
        }
    });
    if (reachable) {
        printf("| %s | within reach | %.2f | %.0f | | |\n", L->name, ours * 1e6 / nq,
               (double)examined / nq);
        free(q);
        free(d);
        return;
    }
    int differ = 0;
    double theirs;
    BEST_OF_3(theirs, {
        differ = 0;
        for (int i = 0; i < nq; i++)
            differ +=
                spiral(L->b, L->agent[(size_t)i % L->nagents], q[i].point, q[i].radius) != d[i];
    });
    printf("| %s | any cell | %.2f | %.0f | %.2f (%d differ) | %.0f |\n", L->name, ours * 1e6 / nq,
           (double)examined / nq, theirs * 1e6 / nq, differ, theirs / ours);
    free(q);
    free(d);
}

static void lines(const level *L, int nq)
{
    tu_rng r = {43};
    nb_cell *a = malloc((size_t)nq * sizeof *a), *b = malloc((size_t)nq * sizeof *b);
    for (int i = 0; i < nq; i++) {
        size_t ag = (size_t)i % L->nagents;
        a[i] = standable(L, ag, &r);
        do
            b[i] = standable(L, ag, &r);
        while (abs(b[i].x - a[i].x) > 32 || abs(b[i].y - a[i].y) > 32);
    }
    int clear = 0, differ = 0;
    uint64_t examined = 0;
    double ours, theirs;
    BEST_OF_3(ours, {
        clear = 0;
        examined = 0;
        for (int i = 0; i < nq; i++) {
            nb_line_result res;
            nb_err err;
            if (tu_walk_line(L->place[(size_t)i % L->nagents], (nb_vec2){a[i].x, a[i].y},
                             (nb_vec2){b[i].x, b[i].y}, &res, &err))
                die("nb_walk_line", &err);
            clear += res.status == NB_PATH_FOUND;
            examined += res.examined;
        }
    });
    int clear2 = 0;
    BEST_OF_3(theirs, {
        clear2 = 0;
        for (int i = 0; i < nq; i++) {
            nb_place *p = L->place[(size_t)i % L->nagents];
            clear2 += nbi_square_walkable(&p->clear, NULL, p->size, a[i], b[i]);
        }
    });
    for (int i = 0; i < nq && clear == clear2; i++) {
        nb_place *p = L->place[(size_t)i % L->nagents];
        nbi_line l;
        nbi_walk_line(p, a[i].x * (int64_t)NB_LINE_RESOLUTION, a[i].y * (int64_t)NB_LINE_RESOLUTION,
                      b[i].x * (int64_t)NB_LINE_RESOLUTION, b[i].y * (int64_t)NB_LINE_RESOLUTION, &l);
        differ += (l.status == NB_PATH_FOUND) != nbi_square_walkable(&p->clear, NULL, p->size, a[i], b[i]);
    }
    printf("| %s | %.2f | %.0f | %.0f %% | %.2f (%d differ) | %.2f |\n", L->name, ours * 1e6 / nq,
           (double)examined / nq, 100.0 * clear / nq, theirs * 1e6 / nq, differ + (clear != clear2),
           ours / theirs);
    free(a);
    free(b);
}

static void draws(const level *L, int nq)
{
    tu_rng r = {44};
    nb_cell *from = malloc((size_t)nq * sizeof *from);
    for (int i = 0; i < nq; i++)
        from[i] = standable(L, (size_t)i % L->nagents, &r);
    uint64_t state = 1, sum = 0, tries = 0;
    double ours, theirs;
    BEST_OF_3(ours, {
        sum = 0;
        for (int i = 0; i < nq; i++) {
            nb_random_result res;
            nb_err err;
            if (tu_random(L->place[(size_t)i % L->nagents], &from[i], &state, &res,
                                    &err))
                die("nb_random_standable", &err);
            sum += res.cells;
        }
    });
    BEST_OF_3(theirs, {
        tries = 0;
        for (int i = 0; i < nq; i++) {
            const nb_agent *a = L->agent[(size_t)i % L->nagents];
            long c = nb_component(L->b, a->capability, a->size, from[i].x, from[i].y);
            for (;;) {
                tries++;
                long x = (long)tu_below(&r, nb_map_width(L->b));
                long y = (long)tu_below(&r, nb_map_height(L->b));
                if (nb_component(L->b, a->capability, a->size, x, y) == c)
                    break;
            }
        }
    });
    printf("| %s | %.0f | %.3f | %.2f (%.1f tries) | %.0f |\n", L->name, (double)sum / nq,
           ours * 1e6 / nq, theirs * 1e6 / nq, (double)tries / nq, theirs / ours);
    free(from);
}

int main(int argc, char **argv)
{
    int nq = 20000, first = 1;
    if (argc > 2 && strcmp(argv[1], "-q") == 0) {
        nq = atoi(argv[2]);
        first = 3;
    }
    if (!getenv("NB_SHARED"))
        setenv("NB_SHARED", tu_src("../shared"), 1);
    level levels[8];
    int n = 0;
    if (argc > first)
        for (int i = first; i < argc && n < 8; i++)
            bake(argv[i], strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i], &levels[n++]);
    else {
        bake(tu_src("data/sample.map"), "sample.map", &levels[n++]);
        const char *maps[] = {"maps/wc3/battleground.map", "maps/dao/orz900d.map"};
        for (size_t i = 0; i < sizeof maps / sizeof *maps; i++) {
            const char *m = tu_shared(maps[i]);
            if (m)
                bake(m, strrchr(maps[i], '/') + 1, &levels[n++]);
            else
                printf("(%s: ../shared is not there)\n", maps[i]);
        }
    }
    printf("%d queries of each kind per level, the four agents in turn.\n\n", nq);
    printf("Sections, for 12 (capability, size) pairs:\n\n| level | map | component layers | runs "
           "sections | runs | cells in them |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++)
        sizes(&levels[i]);
    printf("\nMaking a place (µs; the runs section checked), against building the runs from "
           "the component layer when the bundle is opened:\n\n| level | nb_place_open | runs "
           "built at open | ratio |\n|---|---|---|---|\n");
    for (int i = 0; i < n; i++)
        opening(&levels[i], 5);
    printf("\nNearest standable cell from a random cell (radius 64; µs a query), against the "
           "spiral search over nb_can_stand:\n\n| level | cells | nb_nearest_find | cells "
           "read | spiral over nb_can_stand | ratio |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        nearest(&levels[i], nq, 0);
        nearest(&levels[i], nq, 1);
    }
    printf("\nA straight line between two standable cells at most 32 apart (µs a query), against "
           "HAA*'s whole-cell smoothing test:\n\n| level | nb_walk_line | cells read | clear | "
           "nbi_square_walkable | ratio |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++)
        lines(&levels[i], nq);
    printf("\nA random cell of a random standable cell's component (µs a draw), against drawing "
           "random cells of the map until one is in it:\n\n| level | mean component | "
           "nb_random_standable | rejection over the map | ratio |\n|---|---|---|---|---|\n");
    for (int i = 0; i < n; i++)
        draws(&levels[i], nq);
    for (int i = 0; i < n; i++) {
        for (size_t a = 0; a < levels[i].nagents; a++)
            nb_place_close(levels[i].place[a]);
        nb_bundle_close(levels[i].b);
    }
    return 0;
}
