/* commands.h: the subcommands of navbake, one file each. */
#ifndef NB_COMMANDS_H
#define NB_COMMANDS_H

int nbc_cmd_info(int argc, char **argv);
int nbc_cmd_verify(int argc, char **argv);
int nbc_cmd_dump(int argc, char **argv);
/* navbake plan dispatches: --model to motion planning (navbake_plan_motion.c). */
int nbc_cmd_plan(int argc, char **argv);
int nbc_plan_motion(int argc, char **argv);

/* navbake_layer.c: a clearance or component layer as H rows of W integers. */
#include <stddef.h>
struct nb_bundle;
int nbc_dump_layer(const struct nb_bundle *b, size_t index);

#endif
