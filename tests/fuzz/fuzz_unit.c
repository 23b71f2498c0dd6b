/* fuzz_unit.c: libFuzzer target for units: any bytes opened as a bundle;
 * each unit it holds is read, a planner made (which checks the hit-check
 * and curve tables through) and a short plan run on its map; or, when the
 * first byte is 'Y', the rest parsed as a unit definition.  Built by
 * 'make fuzz-hitcheck'. */
#include <stddef.h>
#include <stdint.h>

#include "turning/turning_build.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nb_err err;
    if (size > 0 && data[0] == 'Y') {
        nbi_legend legend;
        nb_unit u;
        nbi_legend_default(&legend);
        (void)nbb_unit_parse((const char *)data + 1, size - 1, "fuzz.yaml", &legend, &u, &err);
        return 0;
    }
    nb_bundle *b;
    if (nb_bundle_open_memory(data, size, 0, NULL, &b, &err) != NB_OK)
        return 0;
    for (size_t i = 0; i < nb_unit_count(b); i++) {
        nb_unit u;
        nb_planner *p;
        if (nb_unit_get(b, i, &u, &err) != NB_OK || nb_planner_open(b, u.name, &p, &err) != NB_OK)
            continue;
        long w = nb_map_width(b), h = nb_map_height(b);
        nb_planner_query q;
        nb_planner_query_init(&q);
        q.start = (nb_pose){0.5, 0.5, 0};
        q.goal.x = w - 1;
        q.goal.y = h - 1;
        q.method = (nb_plan_method)(i % 4);
        q.max_expansions = 200;
        nb_planner_result r;
        (void)nb_planner_find(p, &q, &r, &err);
        nb_planner_close(p);
    }
    nb_bundle_close(b);
    return 0;
}
