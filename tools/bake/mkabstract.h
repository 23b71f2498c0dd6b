/* mkabstract.h: the modes of mkabstract, one file each; tools/bake/mkabstract.c
 * dispatches between them.  Each takes main's argc and argv. */
#ifndef NB_MKABSTRACT_H
#define NB_MKABSTRACT_H

/* mkabstract [OPTION]... BUNDLE: the HAA* abstract graph of a grid map,
 * the default mode (mkabstract_grid.c). */
int nbc_mkabstract_grid(int argc, char **argv);

/* mkabstract --forest F.yaml --agent-radius R... -o BUNDLE: bitangent
 * graphs of round obstacles (mkabstract_forest.c). */
int nbc_mkabstract_forest(int argc, char **argv);

#endif
