/* navbake world reach: whether two cells of a world of tiles are joined,
 * from the world's components (nb_world_reachable), loading the tiles the
 * query says it needs, as a game's I/O thread would. */
#include "cli.h"
#include "world_cli.h"
#include "world_ends.h"

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
    nbc_world_ends e;
    nb_world *w;
    nb_world_info in;
    nbc_agent_choice a;
    int rc = nbc_world_ends_begin(argc, argv, 0, help, &e, &w, &in, &a);
    if (rc >= 0)
        return rc;
    nb_err err;
    nb_cell from = {(int32_t)e.fx, (int32_t)e.fy}, to = {(int32_t)e.tx, (int32_t)e.ty};
    int reachable = 0;
    if (ask(w, &a, from, to, &reachable, &err) != NB_OK) {
        nb_world_close(w);
        return nbc_fail_err(&err);
    }
    nb_world_describe(w, &in);
    if (e.json)
        printf("{\"reachable\": %s, \"tiles_loaded\": %u, \"bytes\": %zu}\n",
               reachable ? "true" : "false", in.loaded, nb_world_bytes(w));
    else
        printf("%s (%u tile%s loaded)\n", reachable ? "reachable" : "not reachable", in.loaded,
               in.loaded == 1 ? "" : "s");
    nb_world_close(w);
    return reachable ? NBC_EXIT_OK : NBC_EXIT_NO;
}
