/* world_ends.h: what the queries across a world's tiles (world reach,
 * world path) share: their options and the opening of the world. */
#ifndef NBC_WORLD_ENDS_H
#define NBC_WORLD_ENDS_H

#include "agent_pick.h"
#include "navbake.h"

/* The options, parsed. */
typedef struct nbc_world_ends {
    long fx, fy, tx, ty;
    int json, weak;
    const char *tiles;
    nbc_agent_opts ao;
    const char *path; /* the world bundle */
} nbc_world_ends;

/* Parses --from, --to, the agent, --tiles, --json, --help, --version and,
 * when weak_ok, --weak, and the one world; opens the world, picks the
 * agent and checks both cells lie on the map.  -1 to go on, with *w open,
 * *in described and *a chosen; otherwise the exit status to return (help
 * printed, or a message), the world closed. */
int nbc_world_ends_begin(int argc, char **argv, int weak_ok, void (*help)(void),
                         nbc_world_ends *e, nb_world **w, nb_world_info *in,
                         nbc_agent_choice *a);

#endif
