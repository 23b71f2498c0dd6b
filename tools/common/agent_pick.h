/* agent_pick.h: the agent a command acts for, by one rule for every
 * command that takes one (navbake query, scen, nearest, line, random,
 * plan --model and render): the bundle's first agent type; --agent NAME
 * picks another; --capability LIST and --size S replace those fields of
 * it, its name and terrain costs staying.  A bundle without an agent set
 * needs --capability (size 1 unless --size). */
#ifndef NB_AGENT_PICK_H
#define NB_AGENT_PICK_H

#include <stdio.h>

#include "navbake.h"

/* What the command line gave. */
typedef struct nbc_agent_opts {
    const char *name;       /* --agent NAME, or NULL */
    const char *capability; /* --capability LIST, or NULL */
    unsigned long size;     /* --size S, or 0 */
} nbc_agent_opts;

/* The agent chosen. */
typedef struct nbc_agent_choice {
    const nb_agent *type;     /* the agent type it is (or was changed from); NULL without one */
    uint32_t size;
    nb_capability capability;
    const double *costs;      /* the type's terrain costs (nb_agent.cost) when it has any */
    const char *changed;      /* "--size", "--capability", "--size and --capability", or NULL */
} nbc_agent_choice;

/* The agent the options name in bundle b (read from path, for messages).
 * NBC_EXIT_OK, or an exit code after a message: a failure for an agent
 * the bundle lacks, or a bundle without agents and no --capability; a
 * usage error for a capability naming a terrain the legend lacks. */
int nbc_agent_pick(const nb_bundle *b, const char *path, const nbc_agent_opts *o,
                   nbc_agent_choice *out);

/* The lines of --help for the three options, with the short letters given
 * (0: a long option only), in the 26-column layout of the commands. */
void nbc_agent_help(FILE *f, char agent_letter, char size_letter, char capability_letter);

#endif
