/* navbake plan: plans a path on a bundle's map, for a unit with a turning
 * radius (--unit: Directional A*, smoothing, the hybrid search;
 * plan_unit.c) or for a motion model (--model: motion-constrained
 * search, plan_motion.c).  This file only chooses between the two. */
#include <string.h>

#include "cli.h"
#include "commands.h"

static int usage(void)
{
    printf("Usage: navbake plan --unit NAME [OPTION]... --from X,Y --to X,Y BUNDLE\n"
           "       navbake plan --model NAME [OPTION]... BUNDLE\n"
           "Plan a path on the bundle's map.\n\n"
           "  --unit NAME    for a unit with a turning radius baked by mkhitcheck:\n"
           "                 Directional A*, smoothing, the hybrid search\n"
           "                 ('navbake plan --unit NAME --help' lists its options)\n"
           "  --model NAME   for a motion model baked by mkperim: motion-constrained A*\n"
           "                 ('navbake plan --model NAME --help' lists its options)\n"
           "  -h, --help     show this help and exit\n"
           "  -V, --version  show the version and exit\n"
           "Exit status: 0 a path found, 1 a failure, 2 a usage error, 3 no path (or the\n"
           "start or goal blocked), 4 a search stopped at its budget (the best partial\n"
           "path printed).\n");
    return NBC_EXIT_OK;
}

int nbc_cmd_plan(int argc, char **argv)
{
    int unit = 0, model = 0, help = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--unit") == 0 || strncmp(argv[i], "--unit=", 7) == 0)
            unit = 1;
        else if (strcmp(argv[i], "--model") == 0 || strncmp(argv[i], "--model=", 8) == 0)
            model = 1;
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            help = 1;
        else if (strcmp(argv[i], "-V") == 0 || strcmp(argv[i], "--version") == 0)
            return nbc_version();
    }
    if (unit && model)
        return nbc_usage("--unit and --model: give one");
    if (unit)
        return nbc_plan_unit(argc, argv);
    if (model)
        return nbc_plan_motion(argc, argv);
    if (help)
        return usage();
    return nbc_usage("give --unit NAME or --model NAME");
}
