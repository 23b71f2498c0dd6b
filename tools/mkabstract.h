/* mkabstract.h: the modes of mkabstract, one file each; tools/mkabstract.c
 * dispatches between them. */
#ifndef NB_MKABSTRACT_H
#define NB_MKABSTRACT_H

/* mkabstract_grid.c: the HAA* abstract graph of a grid map (the default
 * mode).  Takes main's argc and argv. */
int nbc_mkabstract_grid(int argc, char **argv);

#endif
