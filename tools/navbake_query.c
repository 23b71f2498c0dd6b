/* navbake query: find a path in a bundle.  --forest searches among round
 * obstacles (navbake_query_forest.c); grid queries are the other mode. */
#include <string.h>

#include "cli.h"
#include "commands.h"

int nbc_cmd_query(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--forest") == 0)
            return nbc_query_forest(argc, argv);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("Usage: navbake query --forest [OPTION]... FOREST --from X,Y --to X,Y\n"
                   "Find a path.  --forest: among round obstacles ('navbake query --forest\n"
                   "--help' for more).  Grid queries are not built yet.\n");
            return NBC_EXIT_OK;
        }
        if (strcmp(argv[i], "-V") == 0 || strcmp(argv[i], "--version") == 0)
            return nbc_version();
    }
    return nbc_usage("grid queries are not built yet; for round obstacles use navbake query "
                     "--forest BUNDLE --from X,Y --to X,Y");
}
