/* nbtest-bounce: a test helper that makes a bundle whose stored paths
 * bounce (issue 29; bounce.h), every CRC right, for the fuzz corpus that
 * tests/support/fuzz-bounce.sh makes.
 *   nbtest-bounce levels [LEVEL] IN OUT   the levels' paths (of LEVEL; default every level)
 *   nbtest-bounce graph IN OUT            the graph's cell paths (the bundle's levels and
 *                                         graph costs, baked for the graph it changes, are
 *                                         left out)
 * Each path goes back and forth as often as the readers before issue 29
 * allowed (as long as the level below has nodes, or its cluster cells). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake.h"
#include "bounce.h"

int main(int argc, char **argv)
{
    int levels = argc >= 4 && strcmp(argv[1], "levels") == 0;
    int graph = argc == 4 && strcmp(argv[1], "graph") == 0;
    if ((!levels && !graph) || argc > 5) {
        fprintf(stderr, "usage: nbtest-bounce levels [LEVEL] IN OUT | graph IN OUT\n");
        return 2;
    }
    const char *in = argv[argc - 2], *out = argv[argc - 1];
    uint32_t level = argc == 5 ? (uint32_t)strtoul(argv[2], NULL, 10) : 0;
    nb_bundle *b = NULL;
    nbb_builder *w = NULL;
    nb_err err;
    nb_status st = nb_bundle_open(in, 0, NULL, &b, &err);
    if (st == NB_OK)
        st = nbb_builder_new(&w, &err);
    if (st == NB_OK)
        st = nbb_builder_load(w, in, 0, &err);
    size_t len = 0;
    nb_section_info info;
    uint8_t *p = NULL;
    if (st == NB_OK) {
        p = levels ? tb_bounce_levels(b, level, UINT32_MAX, &len, &info)
                   : tb_bounce_graph(b, UINT32_MAX, &len, &info);
        if (!p)
            st = nbb_fail(&err, NB_ERR_NOTFOUND, "%s: no %s with stored paths", in,
                          levels ? "abstract levels" : "abstract graph");
    }
    if (st == NB_OK) {
        nbb_builder_remove(w, info.type);
        if (graph) {
            nbb_builder_remove(w, NB_SEC_ABSTRACT_LEVELS);
            nbb_builder_remove(w, NB_SEC_ABSTRACT_COSTS);
        }
        st = nbb_builder_add(w, &info, p, len, 1, &err); /* zlib: the bounces are alike */
    }
    if (st == NB_OK)
        st = nbb_builder_write(w, out, &err);
    free(p);
    nbb_builder_free(w);
    nb_bundle_close(b);
    if (st != NB_OK) {
        fprintf(stderr, "nbtest-bounce: %s\n", err.msg);
        return 1;
    }
    return 0;
}
