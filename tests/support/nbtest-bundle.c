/* nbtest-bundle: a test helper that bakes a level (legend, agents, map)
 * into a bundle with the library's writer, for the command-line tests.
 *   nbtest-bundle [--legend L] [--agents A] [--zlib] MAP OUT */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

int main(int argc, char **argv)
{
    const char *legend_path = NULL, *agents_path = NULL;
    int zlib = 0, i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        if (strcmp(argv[i], "--legend") == 0 && i + 1 < argc)
            legend_path = argv[++i];
        else if (strcmp(argv[i], "--agents") == 0 && i + 1 < argc)
            agents_path = argv[++i];
        else if (strcmp(argv[i], "--zlib") == 0)
            zlib = 1;
        else
            break;
    }
    if (argc - i != 2) {
        fprintf(stderr, "usage: nbtest-bundle [--legend L] [--agents A] [--zlib] MAP OUT\n");
        return 2;
    }
    nbi_legend legend;
    static nbi_agentset agents;
    nbb_grid grid;
    nb_err err;
    nb_status st = nbb_read_level(legend_path, agents_path, argv[i], 0, &legend, &agents, &grid,
                                  &err);
    if (st == NB_OK) {
        st = tu_write_level(argv[i + 1], &legend, &agents, &grid, zlib, &err);
        nbb_grid_free(&grid);
    }
    if (st != NB_OK) {
        fprintf(stderr, "nbtest-bundle: %s\n", err.msg);
        return 1;
    }
    return 0;
}
