/* world_cli.h: what navbake world's subcommands share (world.c). */
#ifndef NBC_WORLD_CLI_H
#define NBC_WORLD_CLI_H

#include <stddef.h>

/* Prints each file written (changed) or, verbose, left as it was. */
typedef struct nbc_world_listing {
    int verbose, quiet;
    size_t seen;
    unsigned threads;
} nbc_world_listing;

/* The options the subcommands share (-j, -v, -q): 1 when c was one, 0
 * when not, -1 for a bad value (the usage message printed). */
int nbc_world_option(int c, nbc_world_listing *l);
/* An nbb_world_file_fn over a listing. */
void nbc_world_list(void *arg, const char *path, int changed);

/* The tile and link actions (world_bake.c). */
int nbc_world_tile(int argc, char **argv);
int nbc_world_link(int argc, char **argv);
/* The strips a tile lends its neighbours' halos (world_bake.c). */
int nbc_world_strips(int argc, char **argv);
/* Their plan for Ninja or Slurm (world_plan.c). */
int nbc_world_plan_cmd(int argc, char **argv);
/* Reachability across a world's tiles (world_reach.c). */
int nbc_world_reach(int argc, char **argv);
/* Annotated A* across a world's tiles (world_path.c). */
int nbc_world_path(int argc, char **argv);

#endif
