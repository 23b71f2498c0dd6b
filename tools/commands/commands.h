/* commands.h: the subcommands of navbake, one file each. */
#ifndef NB_COMMANDS_H
#define NB_COMMANDS_H

int nbc_cmd_info(int argc, char **argv);
int nbc_cmd_verify(int argc, char **argv);
int nbc_cmd_dump(int argc, char **argv);
int nbc_cmd_convert(int argc, char **argv);
int nbc_cmd_plan(int argc, char **argv);
/* navbake plan --unit (plan_unit.c) */
int nbc_plan_unit(int argc, char **argv);
int nbc_cmd_query(int argc, char **argv);
/* navbake query --forest (query_forest.c). */
int nbc_query_forest(int argc, char **argv);
/* navbake plan --model (plan_motion.c). */
int nbc_plan_motion(int argc, char **argv);
/* navbake scen (scen.c). */
int nbc_cmd_scen(int argc, char **argv);
int nbc_cmd_render(int argc, char **argv);
/* Places: nearest.c, line.c, random.c. */
int nbc_cmd_nearest(int argc, char **argv);
int nbc_cmd_line(int argc, char **argv);
int nbc_cmd_random(int argc, char **argv);
/* Worlds of tiles: cut, check (world.c). */
int nbc_cmd_world(int argc, char **argv);

/* dump_layer.c: a clearance or component layer as H rows of W integers. */
#include <stddef.h>
struct nb_bundle;
int nbc_dump_layer(const struct nb_bundle *b, size_t index);
/* dump_unit.c: a unit as the YAML mkhitcheck reads. */
int nbc_dump_unit(const struct nb_bundle *b, size_t index);

#endif
