/* bake_use.c: a program of the bake library's users, compiled by
 * tests/cli/bake-lib.sh as C and as C++ against the installed headers and
 * linked with libnavbake_bake and libnavbake.
 *   bake_use LEVEL OUT [LEGEND|- [AGENTS|- [FLAGS]]]
 * bakes the level's files into OUT as nb_bake_write does (FLAGS: letters
 * a abstract, l with 3 levels of clusters, q low quality and the first
 * placement, o optimal strict, w optimal weak, z zlib; default "a");
 *   bake_use --chunk
 * bakes a room with a wall in memory, opens it with libnavbake and prints
 * an Annotated A* path's length around the wall. */
#include <navbake.h>
#include <navbake_bake.h>
#include <stdio.h>
#include <string.h>

static int fail(const nb_err *err)
{
    fprintf(stderr, "bake_use: %s\n", err->msg);
    return 1;
}

static int chunk(void)
{
    static uint8_t cells[16 * 16];
    nb_bake *bake;
    nb_bake_options o;
    nb_bundle *b;
    nb_aa_query q;
    nb_aa_result res;
    nb_aa *ws;
    nb_err err;
    void *data;
    size_t len;
    unsigned ground, y;
    if (nb_bake_open(NULL, &bake, &err) != NB_OK ||
        nb_bake_terrain_lookup(bake, "ground", &ground, &err) != NB_OK)
        return fail(&err);
    memset(cells, (int)ground, sizeof cells);
    for (y = 0; y < 12; y++)
        cells[y * 16 + 8] = NB_BAKE_OBSTACLE; /* a wall down from the top */
    if (nb_bake_set_grid(bake, 16, 16, cells, &err) != NB_OK ||
        nb_bake_options_init(&o) != NB_OK || nb_bake_memory(bake, &o, &data, &len, &err) != NB_OK)
        return fail(&err);
    if (nb_bundle_open_memory(data, len, NB_OPEN_VERIFY, NULL, &b, &err) != NB_OK)
        return fail(&err);
    nb_bake_free(bake, data);
    nb_bake_close(bake);
    nb_aa_query_init(&q);
    q.start.x = 2;
    q.start.y = 2;
    q.goal.x = 14;
    q.goal.y = 2;
    nb_aa_query_agent(&q, nb_agent_get(b, 0));
    if (nb_aa_open(b, &ws, &err) != NB_OK || nb_aa_find(ws, &q, &res, &err) != NB_OK)
        return fail(&err);
    printf("%s %.3f\n", nb_path_status_str(res.status), res.length);
    nb_aa_close(ws);
    nb_bundle_close(b);
    return 0;
}

int main(int argc, char **argv)
{
    nb_bake *bake;
    nb_bake_options o;
    nb_err err;
    const char *flags = argc > 5 ? argv[5] : "a";
    if (argc == 2 && strcmp(argv[1], "--chunk") == 0)
        return chunk();
    if (argc < 3) {
        fprintf(stderr, "usage: bake_use LEVEL OUT [LEGEND|- [AGENTS|- [FLAGS]]] | --chunk\n");
        return 2;
    }
    if (nb_bake_open(NULL, &bake, &err) != NB_OK || nb_bake_options_init(&o) != NB_OK)
        return fail(&err);
    o.flags = (strchr(flags, 'a') ? NB_BAKE_ABSTRACT : 0u) |
              (strchr(flags, 'o') ? NB_BAKE_OPTIMAL : 0u) |
              (strchr(flags, 'w') ? NB_BAKE_OPTIMAL_WEAK : 0u) | (strchr(flags, 'z') ? NB_BAKE_ZLIB : 0u);
    if (strchr(flags, 'l'))
        o.levels = 3;
    if (strchr(flags, 'q')) {
        o.quality = NB_BAKE_QUALITY_LOW;
        o.placement = NB_BAKE_PLACE_FIRST;
    }
    if (nb_bake_read_level(bake, argc > 3 && strcmp(argv[3], "-") ? argv[3] : NULL,
                           argc > 4 && strcmp(argv[4], "-") ? argv[4] : NULL, argv[1],
                           &err) != NB_OK ||
        nb_bake_write(bake, &o, argv[2], &err) != NB_OK) {
        nb_bake_close(bake);
        return fail(&err);
    }
    nb_bake_close(bake);
    return 0;
}
