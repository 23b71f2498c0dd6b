/* mkabstract: bake abstract graphs into a bundle.  With --forest, the
 * bitangent graphs of a forest of round obstacles (mkabstract_forest.c);
 * the HAA* abstract graph of a grid map is the other mode. */
#include <string.h>

#include "cli.h"
#include "mkabstract.h"

static int usage(void)
{
    printf("Usage: mkabstract --forest FOREST.yaml --agent-radius R [--agent-radius R]...\n"
           "                  [OPTION]... [IN] -o BUNDLE\n"
           "Bake abstract graphs into a bundle.\n\n"
           "  --forest FILE  bake the bitangent graph of a forest of round obstacles for\n"
           "                 each agent radius ('mkabstract --forest --help' for more)\n"
           "  -h, --help     show this help and exit\n"
           "  -V, --version  show the version and exit\n\n"
           "The grid mode (mkabstract BUNDLE: the HAA* abstract graph) is not built yet.\n"
           "Exit status: 0 on success, 1 on failure, 2 on a usage error.\n");
    return NBC_EXIT_OK;
}

int main(int argc, char **argv)
{
    nbc_prog = "mkabstract";
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--forest") == 0 || strncmp(argv[i], "--forest=", 9) == 0)
            return nbc_mkabstract_forest(argc, argv);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return usage() == NBC_EXIT_OK ? nbc_close_stdout() : NBC_EXIT_FAIL;
        if (strcmp(argv[i], "-V") == 0 || strcmp(argv[i], "--version") == 0) {
            nbc_version();
            return nbc_close_stdout();
        }
    }
    return nbc_usage("the grid mode (mkabstract BUNDLE) is not built yet; for round obstacles "
                     "use --forest FOREST.yaml --agent-radius R -o BUNDLE");
}
