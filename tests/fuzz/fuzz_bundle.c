/* fuzz_bundle.c: libFuzzer target: any bytes opened as a bundle, verified,
 * and everything the runtime reads touched: for each agent, a place made
 * and queried (its layers and runs checked, a nearest cell, a line, random
 * cells).  Built by 'make fuzz'. */
#include <stddef.h>
#include <stdint.h>

#include "navbake.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open_memory(data, size, 0, NULL, &b, &err) != NB_OK)
        return 0;
    (void)nb_bundle_verify(b, &err);
    for (size_t i = 0; i < nb_bundle_section_count(b); i++) {
        const void *p;
        size_t len;
        if (nb_bundle_payload(b, i, &p, &len, &err) == NB_OK && len)
            (void)((const volatile uint8_t *)p)[len - 1];
    }
    uint32_t w = nb_map_width(b), h = nb_map_height(b);
    for (size_t i = 0; i < nb_agent_count(b); i++) {
        char buf[64];
        const nb_agent *a = nb_agent_get(b, i);
        nb_capability_format(b, a->capability, buf, sizeof buf);
        nb_place *pl;
        if (!nb_has_map(b) || nb_place_open(b, &pl, &err) != NB_OK)
            continue;
        nb_nearest_query q;
        nb_nearest_result nr;
        nb_nearest_query_init(&q);
        nb_nearest_query_agent(&q, a);
        q.radius = 8;
        q.point = (nb_cell){(int32_t)(w / 2), (int32_t)(h / 2)};
        (void)nb_nearest_find(pl, &q, &nr, &err);
        q.reachable = 1;
        q.start = q.point;
        (void)nb_nearest_find(pl, &q, &nr, &err);
        nb_line_query lq;
        nb_line_result lr;
        nb_line_query_init(&lq);
        nb_line_query_agent(&lq, a);
        lq.goal = (nb_vec2){w / 2.0, h};
        (void)nb_line_find(pl, &lq, &lr, &err);
        nb_random_query rq;
        nb_random_result rr;
        nb_random_query_init(&rq);
        nb_random_query_agent(&rq, a);
        rq.seed = size;
        (void)nb_random_find(pl, &rq, &rr, &err);
        rq.reachable = 1;
        rq.start = q.point;
        rq.seed = rr.state;
        (void)nb_random_find(pl, &rq, &rr, &err);
        nb_place_close(pl);
    }
    for (uint32_t y = 0; y < h; y += 7)
        for (uint32_t x = 0; x < w; x += 7)
            (void)nb_map_terrain(b, x, y);
    nb_bundle_close(b);
    return 0;
}
