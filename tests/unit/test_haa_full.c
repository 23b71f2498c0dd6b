/* test_haa_full: completeness on the HAA* paper's whole query set
 * (../shared/haa-bg: 5 soft-obstacle sets x 120 maps x 100 queries, each
 * with sizes 1 and 2), on high- and low-quality graphs of clusters of 10,
 * 15 and 20.  Not part of make check: 'make check-haa-full'.
 *
 * The independent answers: whether a path exists comes from the
 * reachability components mkclear bakes (a breadth-first flood over
 * standable cells, no abstract graph involved); every path HAA* returns
 * is checked cell by cell against the map with the square-growing
 * standability of tests/support/brute.c; and no path may be shorter than the
 * octile distance, nor, straightened, than the refined one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "haa_util.h"

static const char *const set_dir[] = {"originalmaps", "softobs_10pct", "softobs_20pct",
                                      "softobs_40pct", "softobs_50pct"};
static const char *const set_scen[] = {"softobs_0pct", "softobs_10pct", "softobs_20pct",
                                       "softobs_40pct", "softobs_50pct"};

int main(void)
{
    nbi_legend legend;
    nbi_legend_default(&legend);
    if (!tu_shared("haa-bg/SOURCES.md"))
        skip_all("../shared/haa-bg is absent (set NB_SHARED)");
    nbi_agentset agents;
    nb_err err;
    if (nbb_agents_read(tu_src("data/haa-agents.yaml"), &legend, &agents, &err) != NB_OK) {
        ok(0, "data/haa-agents.yaml: %s", err.msg);
        return done_testing();
    }
    for (int si = 0; si < 5; si++) {
        char listing[1024];
        snprintf(listing, sizeof listing, "ls '%s/haa-bg/experiments/scenarios/%s'",
                 getenv("NB_SHARED") ? getenv("NB_SHARED") : "../shared", set_scen[si]);
        FILE *ls = popen(listing, "r");
        char name[256];
        long maps = 0, queries = 0, mismatch = 0, bad = 0, errors = 0;
        while (ls && fgets(name, sizeof name, ls)) {
            name[strcspn(name, "\n")] = 0;
            size_t nl = strlen(name);
            if (nl < 13 || strcmp(name + nl - 13, ".map.scenario") != 0)
                continue;
            char rel[512];
            snprintf(rel, sizeof rel, "haa-bg/maps/bgmaps/%s/%.*s", set_dir[si], (int)(nl - 9), name);
            const char *mp = tu_shared(rel);
            nbb_grid grid;
            if (!mp || nbb_map_read(mp, &legend, 1, &grid, &err) != NB_OK) {
                errors++;
                continue;
            }
            snprintf(rel, sizeof rel, "haa-bg/experiments/scenarios/%s/%s", set_scen[si], name);
            size_t len;
            char *text = tu_read(tu_shared(rel), &len);
            nb_bundle *b = hu_bake(tu_path(tu_tmpdir(), "full.nbk"), &legend, &agents, &grid);
            nb_haa *ws[6] = {NULL};
            uint8_t *pl[6] = {NULL};
            for (int k = 0; k < 6 && b; k++) {
                nbb_abstract_opts o;
                nbb_abstract_defaults(&o);
                o.cluster = 10 + 5 * (uint32_t)(k / 2);
                o.quality = k % 2 ? NBI_QUALITY_LOW : NBI_QUALITY_HIGH;
                nbi_agraph g;
                if (hu_graph(b, &o, &pl[k], &g, &err) != NB_OK ||
                    nbi_haa_new_graph(b, &g, 0, &ws[k], &err) != NB_OK) {
                    diag("%s: %s", mp, err.msg);
                    errors++;
                }
            }
            maps++;
            char *save = NULL;
            for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line && b;
                 line = strtok_r(NULL, "\n", &save)) {
                char path[256];
                int sx, sy, gx, gy, cap, size, steps;
                if (sscanf(line, "%255s %d %d %d %d %d %d %d", path, &sx, &sy, &gx, &gy, &cap, &size,
                           &steps) != 8)
                    continue;
                nb_capability c = (cap & 4 ? 1u << 0 : 0) | (cap & 64 ? 1u << 3 : 0);
                for (uint32_t s = 1; s <= 2; s++) {
                    nb_cell from = {sx, sy}, to = {gx, gy};
                    int reach = nb_reachable(b, c, s, from, to);
                    for (int k = 0; k < 6; k++) {
                        if (!ws[k])
                            continue;
                        nb_aa_query q;
                        nb_aa_query_init(&q);
                        q.start = from, q.goal = to, q.size = s, q.capability = c;
                        nb_haa_result r;
                        queries++;
                        if (tu_haa_find(ws[k], &q, NB_HAA_STRAIGHTEN, &r, &err) != NB_OK) {
                            if (errors++ < 5)
                                diag("%s: %s", rel, err.msg);
                            continue;
                        }
                        if ((r.status == NB_PATH_FOUND) != (reach == 1)) {
                            if (mismatch++ < 5)
                                diag("%s: (%d,%d)->(%d,%d) size %u cap %d: HAA* %d, components %d",
                                     rel, sx, sy, gx, gy, s, cap, r.status, reach);
                            continue;
                        }
                        if (r.status != NB_PATH_FOUND)
                            continue;
                        char why[160];
                        double dx = fabs((double)gx - sx), dy = fabs((double)gy - sy);
                        double octile = fmax(dx, dy) + (sqrt(2.0) - 1) * fmin(dx, dy);
                        if (!hu_path_ok(&legend, &grid, c, s, BRUTE_STRICT, r.path, r.path_len, from,
                                        to, r.length, why, sizeof why) ||
                            r.length < octile - 1e-9 || r.length > r.abstract_length + 1e-9) {
                            if (bad++ < 5)
                                diag("%s: (%d,%d)->(%d,%d) size %u: %s", rel, sx, sy, gx, gy, s,
                                     r.length < octile - 1e-9 ? "shorter than the octile distance"
                                                              : why);
                        }
                    }
                }
            }
            for (int k = 0; k < 6; k++) {
                nb_haa_close(ws[k]);
                free(pl[k]);
            }
            free(text);
            nb_bundle_close(b);
            nbb_grid_free(&grid);
        }
        if (ls)
            pclose(ls);
        diag("%s: %ld maps, %ld HAA* queries", set_scen[si], maps, queries);
        ok(maps == 120 && errors == 0, "%s: 120 maps, six graphs each, every query answered",
           set_scen[si]);
        is_int(mismatch, 0, "%s: a path exactly when the components join start and goal",
               set_scen[si]);
        is_int(bad, 0, "%s: every path valid for its agent, cell by cell", set_scen[si]);
    }
    return done_testing();
}
