/* navbake world path: Annotated A* across a world's tiles
 * (nb_world_aa_find), loading the tiles the query says it needs and asking
 * again, as a game's I/O thread would. */
#include <stdlib.h>

#include "cli.h"
#include "world_cli.h"
#include "world_ends.h"

static void help(void)
{
    printf("Usage: navbake world path WORLD --from X,Y --to X,Y [OPTION]...\n"
           "A path of least cost between two cells of a world of tiles for an agent\n"
           "(Annotated A*, nb_world_aa_find(3)), from the world bundle WORLD and the\n"
           "tile bundles the search needs, loaded when it asks for them and no others.\n"
           "Prints the path's length and cost and the tiles loaded.\n\n"
           "      --from X,Y          the start, a cell of the world\n"
           "      --to X,Y            the goal\n");
    nbc_agent_help(stdout, 'a', 's', 'c');
    printf("      --weak              the weak corner rule (default: strict)\n"
           "  -t, --tiles FOLDER      the tile bundles (default: 'tiles' beside WORLD)\n"
           "      --json              print one JSON object: status, length, cost, expanded,\n"
           "                          rounds, tiles_loaded, bytes\n"
           "  -h, --help              show this help and exit\n"
           "  -V, --version           show the version and exit\n"
           "Exit status: 0 a path found, 3 none, 1 on a failure, 2 on a usage error.\n");
}

int nbc_world_path(int argc, char **argv)
{
    nbc_world_ends e;
    nb_world *w;
    nb_world_info in;
    nbc_agent_choice a;
    int rc = nbc_world_ends_begin(argc, argv, 1, help, &e, &w, &in, &a);
    if (rc >= 0)
        return rc;
    rc = NBC_EXIT_OK;
    nb_err err;
    nb_world_aa *ws = NULL;
    nb_world_tile *need = NULL;
    size_t ntiles = (size_t)in.columns * in.rows;
    if (nb_world_aa_open(w, &ws, &err) != NB_OK)
        rc = nbc_fail_err(&err);
    else if (!(need = calloc(ntiles, sizeof *need)))
        rc = nbc_fail("out of memory for the list of %zu tiles", ntiles);
    nb_aa_query q;
    nb_aa_query_init(&q);
    q.start = (nb_cell){(int32_t)e.fx, (int32_t)e.fy};
    q.goal = (nb_cell){(int32_t)e.tx, (int32_t)e.ty};
    q.size = a.size;
    q.capability = a.capability;
    q.costs = a.costs;
    q.corner = e.weak ? NB_CORNER_WEAK : NB_CORNER_STRICT;
    nb_aa_result res;
    unsigned rounds = 0;
    /* Each round loads every tile the search named; a search that names none is answered. */
    while (rc == NBC_EXIT_OK) {
        nb_status st = nb_world_aa_find(ws, &q, NULL, &res, &err);
        if (st == NB_OK)
            break;
        if (st != NB_ERR_UNLOADED) {
            rc = nbc_fail_err(&err);
            break;
        }
        size_t n = nb_world_aa_needed(ws, need, ntiles);
        for (size_t i = 0; i < n && rc == NBC_EXIT_OK; i++)
            if (nb_world_load(w, need[i], &err) != NB_OK)
                rc = nbc_fail_err(&err);
        rounds++;
    }
    if (rc == NBC_EXIT_OK) {
        nb_world_describe(w, &in);
        int found = res.status == NB_PATH_FOUND;
        if (e.json)
            printf("{\"status\": \"%s\", \"length\": %.6f, \"cost\": %.6f, \"expanded\": %llu, "
                   "\"rounds\": %u, \"tiles_loaded\": %u, \"tiles\": %u, \"bytes\": %zu}\n",
                   nb_path_status_str(res.status), res.length, res.cost,
                   (unsigned long long)res.expanded, rounds, in.loaded, in.columns * in.rows,
                   nb_world_bytes(w));
        else if (found)
            printf("length %.6f cost %.6f (%u of %u tiles loaded)\n", res.length, res.cost,
                   in.loaded, in.columns * in.rows);
        else
            printf("%s (%u of %u tiles loaded)\n", nb_path_status_str(res.status), in.loaded,
                   in.columns * in.rows);
        rc = found ? NBC_EXIT_OK : NBC_EXIT_NO;
    }
    free(need);
    nb_world_aa_close(ws);
    nb_world_close(w);
    return rc;
}
