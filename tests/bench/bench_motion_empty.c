/* bench_motion_empty: the paper's Figure 6.  On an empty map each model
 * starts stopped facing east and must travel a distance d south,
 * arriving stopped and facing east; states expanded by A* against d with
 * the octile, perimeter and extended perimeter heuristics (and
 * extended+grid), with the cost found (the extended heuristic is not
 * admissible) and the time, against octile in the same run.
 *   bench_motion_empty [--radius R] [--max D] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "motion/perimeter.h"
#include "testutil.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static const char *const names[] = {"humanoid", "tank", "vehicle"};

int main(int argc, char **argv)
{
    unsigned radius = 15, maxd = 40;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--radius") == 0 && i + 1 < argc)
            radius = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--max") == 0 && i + 1 < argc)
            maxd = (unsigned)atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: bench_motion_empty [--radius R] [--max D]\n");
            return 2;
        }
    }
    /* An empty map with room around the start and the goal. */
    nbb_grid grid = {.width = 100, .height = maxd + 60};
    grid.cells = malloc((size_t)grid.width * grid.height);
    memset(grid.cells, '.', (size_t)grid.width * grid.height);
    nbi_legend legend;
    static nbi_agentset agents;
    nb_err err;
    nbb_builder *bl;
    nbi_legend_default(&legend);
    nbb_agents_default(&legend, &agents, NULL);
    nbb_builder_new(&bl, NULL);
    nbb_put_level(bl, &legend, &agents, &grid, 0, NULL);
    for (int i = 0; i < 3; i++) {
        static nb_model m;
        char file[64];
        snprintf(file, sizeof file, "data/models/%s.yaml", names[i]);
        nbb_perimeter_opts o = {.radius = radius, .layout = NB_PERIM_SYMMETRIC, .entry_bits = 16};
        if (nbb_model_read(tu_src(file), &m, &err) || nbb_put_model(bl, &m, &err) ||
            nbb_put_perimeter(bl, &m, &o, NULL, &err)) {
            fprintf(stderr, "bench_motion_empty: %s\n", err.msg);
            return 1;
        }
    }
    const char *path = tu_path(tu_tmpdir(), "empty.nbk");
    nb_bundle *b;
    if (nbb_builder_write(bl, path, &err) || nb_bundle_open(path, 0, NULL, &b, &err)) {
        fprintf(stderr, "bench_motion_empty: %s\n", err.msg);
        return 1;
    }
    nbb_builder_free(bl);
    static const int hs[] = {NB_MH_OCTILE, NB_MH_PERIMETER, NB_MH_EXTENDED, NB_MH_EXTENDED_GRID};
    printf("# Figure 6: states expanded by A* on an empty %ux%u map, start stopped facing east,\n"
           "# goal d cells south, stopped facing east; perimeter tables of radius %u (symmetric\n"
           "# layout, 16-bit entries); cost ratio = cost found / optimal cost\n",
           grid.width, grid.height, radius);
    for (int i = 0; i < 3; i++) {
        nb_model *m;
        nb_perimeter *p;
        nb_motion *ws;
        if (nb_model_open(b, names[i], &m, &err) || nb_perimeter_open(b, m, &p, &err) ||
            tu_motion_open(b, m, p, 1, 1, 0, &ws, &err)) {
            fprintf(stderr, "bench_motion_empty: %s\n", err.msg);
            return 1;
        }
        printf("\n## %s\n\n| d | octile | perimeter | extended | extended+grid | optimal cost | extended cost "
               "ratio | octile ms | extended ms |\n|---|---|---|---|---|---|---|---|---|\n", names[i]);
        double t_all[4] = {0};
        uint64_t n_all[4] = {0};
        for (unsigned d = 1; d <= maxd; d += d < 10 ? 1 : d < 20 ? 2 : 5) {
            nb_motion_query q;
            nb_motion_result r[4];
            double t[4];
            nb_motion_query_init(&q);
            q.start = (nb_motion_state){40, 30, 0, (uint16_t)nb_model_stop(m)};
            q.goal = q.start;
            q.goal.y += (int32_t)d;
            for (int k = 0; k < 4; k++) {
                q.heuristic = hs[k];
                double t0 = now();
                if (nb_motion_find(ws, &q, &r[k], &err) != NB_OK) {
                    fprintf(stderr, "bench_motion_empty: %s\n", err.msg);
                    return 1;
                }
                t[k] = now() - t0;
                t_all[k] += t[k];
                n_all[k] += r[k].expanded;
            }
            printf("| %u | %llu | %llu | %llu | %llu | %.3f | %.3f | %.2f | %.3f |\n", d,
                   (unsigned long long)r[0].expanded, (unsigned long long)r[1].expanded,
                   (unsigned long long)r[2].expanded, (unsigned long long)r[3].expanded, r[0].cost,
                   r[2].cost / r[0].cost, 1e3 * t[0], 1e3 * t[2]);
            fflush(stdout);
        }
        printf("\nTotals: octile %llu states (%.2f s); perimeter %llu (%.0fx fewer); extended %llu "
               "(%.0fx fewer, %.3f s, %.0fx faster); extended+grid %llu (%.0fx fewer)\n",
               (unsigned long long)n_all[0], t_all[0], (unsigned long long)n_all[1],
               (double)n_all[0] / n_all[1], (unsigned long long)n_all[2], (double)n_all[0] / n_all[2],
               t_all[2], t_all[0] / t_all[2], (unsigned long long)n_all[3], (double)n_all[0] / n_all[3]);
        nb_motion_close(ws);
        nb_perimeter_close(p);
        nb_model_close(m);
    }
    nb_bundle_close(b);
    nbb_grid_free(&grid);
    return 0;
}
