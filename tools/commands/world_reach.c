/* navbake world reach: whether two cells of a world of tiles are joined,
 * from the world's components (nb_world_reachable), loading the tiles the
 * query says it needs, as a game's I/O thread would. */
#include <getopt.h>
#include <string.h>

#include "agent_pick.h"
#include "cli.h"
#include "world_cli.h"

static void help(void)
{
    printf("Usage: navbake world reach WORLD --from X,Y --to X,Y [OPTION]...\n"
           "Whether a path joins two cells of a world of tiles for an agent, from the\n"
           "world bundle WORLD (navbake world link) and the tile bundles of the two\n"
           "cells, which are loaded when the query asks for them (nb_world_open(3)).\n"
           "Prints 'reachable' or 'not reachable' and the tiles loaded.\n\n"
           "      --from X,Y          a cell of the world\n"
           "      --to X,Y            another\n");
    nbc_agent_help(stdout, 'a', 's', 'c');
    printf("  -t, --tiles FOLDER      the tile bundles (default: 'tiles' beside WORLD)\n"
           "      --json              print one JSON object: reachable, tiles_loaded, bytes\n"
           "  -h, --help              show this help and exit\n"
           "  -V, --version           show the version and exit\n"
           "Exit status: 0 reachable, 3 not reachable, 1 on a failure, 2 on a usage\n"
           "error.\n");
}

/* The answer, loading the tiles the query names until it has one. */
static nb_status ask(nb_world *w, const nbc_agent_choice *a, nb_cell from, nb_cell to,
                     int *reachable, nb_err *err)
{
    /* One round of loads gives the query every tile it needs. */
    for (int round = 0;; round++) {
        nb_world_tile need[2];
        size_t n = 0;
        nb_status st = nb_world_reachable(w, a->capability, a->size, from, to, reachable, need, 2,
                                          &n, err);
        if (st != NB_ERR_UNLOADED || round == 1)
            return st;
        for (size_t i = 0; i < n; i++)
            if ((st = nb_world_load(w, need[i], err)) != NB_OK)
                return st;
    }
}

int nbc_world_reach(int argc, char **argv)
{
    static const struct option opts[] = {{"from", required_argument, NULL, 'F'},
                                         {"to", required_argument, NULL, 'T'},
                                         {"agent", required_argument, NULL, 'a'},
                                         {"size", required_argument, NULL, 's'},
                                         {"capability", required_argument, NULL, 'c'},
                                         {"tiles", required_argument, NULL, 't'},
                                         {"json", no_argument, NULL, 'J'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    long fx = -1, fy = -1, tx = -1, ty = -1;
    int have_from = 0, have_to = 0, json = 0, c;
    const char *tiles = NULL;
    nbc_agent_opts ao = {NULL, NULL, 0};
    while ((c = getopt_long(argc, argv, "a:s:c:t:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'F':
            if (!nbc_point("--from", optarg, &fx, &fy))
                return NBC_EXIT_USAGE;
            have_from = 1;
            break;
        case 'T':
            if (!nbc_point("--to", optarg, &tx, &ty))
                return NBC_EXIT_USAGE;
            have_to = 1;
            break;
        case 'a': ao.name = optarg; break;
        case 'c': ao.capability = optarg; break;
        case 's':
            if (!nbc_uint("--size", optarg, 1, NB_MAX_AGENT_SIZE, &ao.size))
                return NBC_EXIT_USAGE;
            break;
        case 't': tiles = optarg; break;
        case 'J': json = 1; break;
        case 'h': help(); return NBC_EXIT_OK;
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (argc - optind != 1)
        return nbc_usage(argc - optind < 1 ? "give a world bundle" : "one world at a time");
    if (!have_from || !have_to)
        return nbc_usage("give both cells (--from X,Y --to X,Y)");
    const char *path = argv[optind];
    nb_world *w;
    nb_err err;
    if (nb_world_open(path, tiles, 0, NULL, &w, &err) != NB_OK)
        return nbc_fail_err(&err);
    nb_world_info in;
    nb_world_describe(w, &in);
    nbc_agent_choice a;
    int rc = nbc_agent_pick(nb_world_bundle(w), path, &ao, &a);
    if (rc == NBC_EXIT_OK && (!nbc_cell_on_map("--from", fx, fy, in.width, in.height) ||
                              !nbc_cell_on_map("--to", tx, ty, in.width, in.height)))
        rc = NBC_EXIT_USAGE;
    if (rc != NBC_EXIT_OK) {
        nb_world_close(w);
        return rc;
    }
    nb_cell from = {(int32_t)fx, (int32_t)fy}, to = {(int32_t)tx, (int32_t)ty};
    int reachable = 0;
    if (ask(w, &a, from, to, &reachable, &err) != NB_OK) {
        nb_world_close(w);
        return nbc_fail_err(&err);
    }
    nb_world_describe(w, &in);
    if (json)
        printf("{\"reachable\": %s, \"tiles_loaded\": %u, \"bytes\": %zu}\n",
               reachable ? "true" : "false", in.loaded, nb_world_bytes(w));
    else
        printf("%s (%u tile%s loaded)\n", reachable ? "reachable" : "not reachable", in.loaded,
               in.loaded == 1 ? "" : "s");
    nb_world_close(w);
    return reachable ? NBC_EXIT_OK : NBC_EXIT_NO;
}
