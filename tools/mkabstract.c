/* mkabstract: bake abstract graphs into a bundle.  Without --forest, the
 * HAA* abstract graph of the bundle's grid map (mkabstract_grid.c); with
 * --forest, the bitangent graphs of round obstacles, which this build
 * does not have yet. */
#include <string.h>

#include "cli.h"
#include "mkabstract.h"

int main(int argc, char **argv)
{
    nbc_prog = "mkabstract";
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--forest") == 0 || strncmp(argv[i], "--forest=", 9) == 0)
            return nbc_usage("--forest: round obstacles are not in this build yet; without "
                             "--forest, mkabstract bakes the HAA* graph of a grid map");
    return nbc_mkabstract_grid(argc, argv);
}
