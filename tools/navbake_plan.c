/* navbake plan: plan a path on a bundle's map, for a motion model
 * (--model, navbake_plan_motion.c) or a unit with a turning radius
 * (--unit, Directional A*). */
#include "cli.h"
#include "commands.h"

static int has_option(int argc, char **argv, const char *name)
{
    size_t n = strlen(name);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strncmp(argv[i], name, n) == 0 && (argv[i][n] == '\0' || argv[i][n] == '='))
            return 1;
    }
    return 0;
}

int nbc_cmd_plan(int argc, char **argv)
{
    int model = has_option(argc, argv, "--model") || has_option(argc, argv, "-m");
    int unit = has_option(argc, argv, "--unit");
    if (model && unit)
        return nbc_usage("--model and --unit cannot be combined");
    if (model)
        return nbc_plan_motion(argc, argv);
    if (unit)
        return nbc_usage("--unit (Directional A* for units with a turning radius) is not available "
                         "in this build; --model plans for motion models");
    if (has_option(argc, argv, "--help") || has_option(argc, argv, "-h")) {
        printf("Usage: navbake plan --model NAME --from X,Y[,H[,S]] --to X,Y[,H[,S]] [OPTION]... BUNDLE\n"
               "       navbake plan --unit NAME ... BUNDLE\n"
               "Plan a path on the bundle's map: --model for a motion model (headings and\n"
               "speeds, mkperim), --unit for a unit with a turning radius (Directional A*).\n"
               "'navbake plan --model X --help' lists the options of motion planning.\n");
        return NBC_EXIT_OK;
    }
    if (has_option(argc, argv, "--version") || has_option(argc, argv, "-V"))
        return nbc_version();
    return nbc_usage("plan needs --model NAME (a motion model) or --unit NAME (a unit)");
}
