/* mkabstract.h: the modes of mkabstract, one file each. */
#ifndef NB_MKABSTRACT_H
#define NB_MKABSTRACT_H

/* mkabstract --forest F.yaml --agent-radius R... -o BUNDLE: bitangent
 * graphs of round obstacles (mkabstract_forest.c).  argv as main's. */
int nbc_mkabstract_forest(int argc, char **argv);

#endif
