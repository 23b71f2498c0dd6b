/* navbake: inspect, verify, convert and query bundles. */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"info", nbc_cmd_info, "describe a bundle: format, map, terrains, agents, sections"},
    {"verify", nbc_cmd_verify, "check every checksum and the structure of bundles"},
    {"dump", nbc_cmd_dump, "print sections as text (the map as a MovingAI map)"},
    {"convert", nbc_cmd_convert, "write a bundle in the other form: binary or SQLite"},
    {"plan", nbc_cmd_plan, "plan a path for a unit (--unit) or a motion model (--model)"},
    {"query", nbc_cmd_query, "find a path for an agent between two cells (--forest: among round obstacles)"},
    {"scen", nbc_cmd_scen, "run a MovingAI scenario file and check every length"},
    {"nearest", nbc_cmd_nearest, "the nearest cell where an agent may stand (reachable from a cell)"},
    {"line", nbc_cmd_line, "whether an agent can walk a straight segment, and how far it gets"},
    {"random", nbc_cmd_random, "random cells where an agent may stand, from a seed"},
    {"render", nbc_cmd_render, "draw a bundle's map and layers as SVG or PNG"},
    {"world", nbc_cmd_world, "worlds of tiles: cut a large map into tiles, check a world"},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static int usage(FILE *f)
{
    fprintf(f, "Usage: navbake COMMAND [OPTION]... BUNDLE...\n"
               "Inspect, verify, convert and query navbake bundles.\n\nCommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'navbake COMMAND --help' describes a command; navbake(1) has the details.\n"
               "  -h, --help     show this help and exit\n"
               "  -V, --version  show the version and exit\n"
               "Exit status: 0 on success, 1 on a failure, 2 on a usage error; the commands\n"
               "that answer a question (query, scen, plan, nearest, line, random) also 3\n"
               "when the answer is no, and 4 for a search stopped at its budget.\n");
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return nbc_usage("no command given (info, verify, dump, ...)");
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0)
        return usage(stdout) == NBC_EXIT_OK ? nbc_close_stdout() : NBC_EXIT_USAGE;
    if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0) {
        nbc_version();
        return nbc_close_stdout();
    }
    char *helpv[4];
    if (strcmp(cmd, "help") == 0 && argc == 3) {
        helpv[0] = argv[0];
        helpv[1] = argv[2];
        helpv[2] = "--help";
        helpv[3] = NULL;
        argv = helpv;
        argc = 3;
        cmd = argv[1];
    }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(cmd, commands[i].name) == 0) {
            static char prog[64];
            snprintf(prog, sizeof prog, "navbake %s", commands[i].name);
            nbc_prog = prog;
            argv[1] = prog; /* getopt's own messages name the command as ours do */
            int rc = commands[i].run(argc - 1, argv + 1);
            int out = nbc_close_stdout();
            return rc ? rc : out;
        }
    return nbc_usage("unknown command '%s'", cmd);
}
