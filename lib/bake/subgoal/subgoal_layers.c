/* subgoal_layers.c: which optimal-search layers mkclear --optimal bakes:
 * one for each (capability, size) of the agent set (the pairs Annotated
 * A* and HAA* serve) and each corner rule asked for (strict, weak or
 * both: the subgoals differ, formats/subgoal.md). */
#include <stdlib.h>
#include <time.h>

#include "clearance/clearance_build.h"
#include "subgoal/subgoal_build.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* nbb_bake_subgoal, telling progress (or NULL) the share done, layer by
 * layer; it may stop the bake (NB_ERR_CANCELLED). */
static nb_status bake_layers(nbb_builder *b, const nbi_legend *legend, const nbi_agentset *agents,
                             const nbb_grid *grid, unsigned corners, int compress,
                             nbb_optimal_stats *stats, const nbb_progress_part *progress,
                             nb_err *err)
{
    nb_capability caps[NB_MAX_AGENTS];
    uint32_t sizes[NB_MAX_AGENTS];
    size_t ncaps = nbi_agents_capabilities(agents, caps);
    size_t nsizes = nbi_agents_sizes(agents, sizes);
    uint32_t cap_size = nbi_agents_max_size(agents);
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (corners & ~(NBB_CORNERS_STRICT | NBB_CORNERS_WEAK))
        return nbi_fail(err, NB_ERR_ARG, "corner rules %#x: expected strict, weak or both",
                        corners);
    if (ncaps == 0 || corners == 0)
        return NB_OK;
    size_t n = (size_t)grid->width * grid->height;
    uint8_t *cv = malloc(n ? n : 1);
    if (!cv)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the clearance of a %u x %u map",
                        grid->width, grid->height);
    nb_status st = NB_OK;
    unsigned rules = (corners & NBB_CORNERS_STRICT ? 1u : 0u) + (corners & NBB_CORNERS_WEAK ? 1u : 0u);
    double layers = (double)ncaps * (double)nsizes * rules, done = 0;
    for (size_t c = 0; c < ncaps && st == NB_OK; c++) {
        uint8_t in_cap[256];
        nbb_terrain_mask(legend, caps[c], in_cap);
        nbb_clearance_compute(grid->cells, grid->width, grid->height, in_cap, cap_size, cv);
        for (size_t s = 0; s < nsizes && st == NB_OK; s++)
            for (unsigned rule = 0; rule < 2 && st == NB_OK; rule++) {
                if (!(corners & (1u << rule)))
                    continue;
                double t0 = now_s();
                uint8_t *payload;
                size_t len;
                nbb_subgoal_stats ss;
                nbb_progress_part part = {nbb_progress_part_fn, (void *)progress,
                                          done / layers, 1 / layers, NULL};
                done++;
                st = nbb_subgoal_encode_progress(cv, grid->width, grid->height, caps[c], sizes[s],
                                                 (nb_corner)rule, &payload, &len, &ss,
                                                 progress ? &part : NULL, err);
                if (st != NB_OK)
                    break;
                nb_section_info in;
                memset(&in, 0, sizeof in);
                in.type = NB_SEC_SUBGOAL;
                in.version = NBI_SUBGOAL_VERSION;
                in.encoding = NB_ENC_RAW;
                in.param[0] = caps[c];
                in.param[1] = sizes[s];
                in.param[2] = rule;
                in.param[3] = ss.nodes;
                in.param[4] = ss.edges;
                st = nbb_builder_add(b, &in, payload, len, compress, err);
                free(payload);
                if (st == NB_OK && stats) {
                    stats->layers++;
                    stats->nodes += ss.nodes;
                    stats->edges += ss.edges;
                    stats->bytes += len;
                    stats->seconds += now_s() - t0;
                }
            }
    }
    free(cv);
    return st;
}

nb_status nbb_bake_subgoal(nbb_builder *b, const nbi_legend *legend, const nbi_agentset *agents,
                           const nbb_grid *grid, unsigned corners, int compress,
                           nbb_optimal_stats *stats, nb_err *err)
{
    return bake_layers(b, legend, agents, grid, corners, compress, stats, NULL, err);
}

nb_status nbb_level_bake_subgoal(nbb_builder *b, const nbb_level *level, unsigned corners,
                                 int compress, nbb_optimal_stats *stats,
                                 const nbb_progress_part *progress, nb_err *err)
{
    return bake_layers(b, &level->legend, &level->agents, &level->grid, corners, compress, stats,
                       progress, err);
}
