/* mkabstract: bake abstract graphs into a bundle.  With --forest, the
 * bitangent graphs of a forest of round obstacles (mkabstract_forest.c);
 * without, the HAA* abstract graph of the bundle's grid map
 * (mkabstract_grid.c), whose --help mentions --forest. */
#include <string.h>

#include "cli.h"
#include "mkabstract.h"

int main(int argc, char **argv)
{
    nbc_prog = "mkabstract";
    argv[0] = (char *)nbc_prog; /* getopt's own messages name it as ours do */
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--forest") == 0 || strncmp(argv[i], "--forest=", 9) == 0)
            return nbc_mkabstract_forest(argc, argv);
    return nbc_mkabstract_grid(argc, argv);
}
