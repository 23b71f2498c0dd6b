/* navbake world: worlds of tiles (formats/world.md).  "cut" makes one from
 * a large map; "check" reads a world's every file against its manifest;
 * "strips", "tile" and "link" are the bake's actions (world_bake.c); "plan"
 * writes the bake for Ninja or Slurm (world_plan.c); "reach" asks the
 * world bundle whether two cells are joined (world_reach.c). */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "world_cli.h"

static int cut(int argc, char **argv)
{
    static const struct option opts[] = {{"tile", required_argument, NULL, 't'},
                                         {"cluster-size", required_argument, NULL, 'c'},
                                         {"legend", required_argument, NULL, 'l'},
                                         {"agents", required_argument, NULL, 'a'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"threads", required_argument, NULL, 'j'},
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    unsigned long tile = 0, cluster = NBB_WORLD_DEFAULT_CLUSTER;
    const char *legend = NULL, *agents = NULL, *out = NULL;
    nbc_world_listing l = {0, 0, 0, 0};
    int c;
    while ((c = getopt_long(argc, argv, "t:c:l:a:o:j:vqhV", opts, NULL)) != -1) {
        int shared = nbc_world_option(c, &l);
        if (shared < 0)
            return NBC_EXIT_USAGE;
        if (shared > 0)
            continue;
        switch (c) {
        case 't':
            if (!nbc_uint("--tile", optarg, NBB_WORLD_MIN_TILE, NB_MAP_MAX_SIDE, &tile))
                return NBC_EXIT_USAGE;
            break;
        case 'c':
            if (!nbc_uint("--cluster-size", optarg, 1, NB_ABSTRACT_MAX_CLUSTER, &cluster))
                return NBC_EXIT_USAGE;
            break;
        case 'l': legend = optarg; break;
        case 'a': agents = optarg; break;
        case 'o': out = optarg; break;
        case 'h':
            printf("Usage: navbake world cut MAP --tile N -o FOLDER [OPTION]...\n"
                   "Cut the MovingAI map MAP into a world of tiles of N x N cells in FOLDER:\n"
                   "FOLDER/world.yaml (the manifest, formats/world.md), one map a tile in\n"
                   "FOLDER/tiles/X_Y.map (X the tile's column, Y its row; the last column and\n"
                   "row are narrower when N does not divide the map), and copies of the\n"
                   "legend and the agent set.  A file whose bytes would not change is not\n"
                   "written, so cutting again after an edit leaves a build graph (navbake\n"
                   "world plan, Ninja's restat) only the tiles the edit touched; each file is\n"
                   "written atomically.  Prints each file written.  MAP may be '-'.\n\n"
                   "  -t, --tile N          side of a tile in cells, %d to %d, a multiple of\n"
                   "                        the cluster size\n"
                   "  -c, --cluster-size N  side of the world's HAA* clusters, 1 to %d\n"
                   "                        (default %d)\n"
                   "  -l, --legend FILE     terrain legend (default: MovingAI's characters)\n"
                   "  -a, --agents FILE     agent set (default: one agent of size 1 that may\n"
                   "                        enter ground and swamp)\n"
                   "  -o, --output FOLDER   the world's folder, made if it is not there\n"
                   "  -j, --threads N       threads to read the map on, 1 to 256 (default: the\n"
                   "                        online CPUs)\n"
                   "  -v, --verbose         also print the files left as they were\n"
                   "  -q, --quiet           print nothing\n"
                   "  -h, --help            show this help and exit\n"
                   "  -V, --version         show the version and exit\n" NBC_EXIT_HELP,
                   NBB_WORLD_MIN_TILE, NB_MAP_MAX_SIDE, NB_ABSTRACT_MAX_CLUSTER,
                   NBB_WORLD_DEFAULT_CLUSTER);
            return NBC_EXIT_OK;
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (argc - optind != 1)
        return nbc_usage(argc - optind < 1 ? "give a map to cut" : "one map at a time");
    if (!tile)
        return nbc_usage("give the tile size (--tile N)");
    if (!out)
        return nbc_usage("give the world's folder (-o FOLDER)");
    if (tile % cluster)
        return nbc_usage("--tile %lu is not a multiple of the cluster size %lu", tile, cluster);
    if ((legend && strcmp(legend, "-") == 0) || (agents && strcmp(agents, "-") == 0))
        return nbc_usage("the legend and the agent set are copied into the world: give files, not '-'");
    nb_err err;
    size_t written = 0;
    nb_status st = nbb_world_cut(argv[optind], legend, agents, (uint32_t)tile, (uint32_t)cluster, out,
                                 l.threads, nbc_world_list, &l, &written, &err);
    if (st != NB_OK)
        return nbc_fail_err(&err);
    if (l.verbose)
        printf("%zu of %zu files written\n", written, l.seen);
    return NBC_EXIT_OK;
}

static int check(int argc, char **argv)
{
    static const struct option opts[] = {{"threads", required_argument, NULL, 'j'},
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    nbc_world_listing l = {0, 0, 0, 0};
    int c;
    while ((c = getopt_long(argc, argv, "j:vqhV", opts, NULL)) != -1) {
        int shared = nbc_world_option(c, &l);
        if (shared < 0)
            return NBC_EXIT_USAGE;
        if (shared > 0)
            continue;
        switch (c) {
        case 'h':
            printf("Usage: navbake world check [OPTION]... MANIFEST...\n"
                   "Check a world's files against its manifest (formats/world.md): the legend\n"
                   "and the agent set read, and every tile's map there, read with them, and\n"
                   "of its tile's size.  Prints 'MANIFEST: ok (C x R tiles of N cells, W x H\n"
                   "cells)' for each; the first error names the tile and the file.\n\n"
                   "  -j, --threads N  threads to read the maps on, 1 to 256 (default: the\n"
                   "                   online CPUs)\n"
                   "  -v, --verbose    also print each file read\n"
                   "  -q, --quiet      print nothing; the exit status tells\n"
                   "  -h, --help       show this help and exit\n"
                   "  -V, --version    show the version and exit\n" NBC_EXIT_HELP);
            return NBC_EXIT_OK;
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (argc - optind < 1)
        return nbc_usage("give a world's manifest to check");
    for (int i = optind; i < argc; i++) {
        nbb_world w;
        nb_err err;
        nb_status st = nbb_world_read(argv[i], &w, &err);
        if (st == NB_OK) {
            st = nbb_world_check(&w, l.threads, nbc_world_list, &l, &err);
            if (st != NB_OK)
                nbb_world_free(&w);
        }
        if (st != NB_OK)
            return nbc_fail_err(&err);
        if (!l.quiet)
            printf("%s: ok (%u x %u tiles of %u cells, %u x %u cells)\n", argv[i], w.columns, w.rows,
                   w.tile, w.width, w.height);
        nbb_world_free(&w);
    }
    return NBC_EXIT_OK;
}

int nbc_cmd_world(int argc, char **argv)
{
    static const struct {
        const char *name;
        int (*run)(int, char **);
    } subs[] = {{"cut", cut},
                {"check", check},
                {"tile", nbc_world_tile},
                {"link", nbc_world_link},
                {"plan", nbc_world_plan_cmd},
                {"reach", nbc_world_reach},
                {"strips", nbc_world_strips},
                {"path", nbc_world_path}};
    if (argc < 2 || argv[1][0] == '-') {
        if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
            printf("Usage: navbake world cut|check|tile|link|plan|reach|strips|path [OPTION]...\n"
                   "Worlds of tiles (formats/world.md).\n\n"
                   "  cut    cut a large map into a world of tiles (navbake world cut --help)\n"
                   "  check  check a world's files against its manifest\n"
                   "  tile   bake one tile of a world: its tile bundle and border file\n"
                   "  link   link the tiles' border files into the world bundle\n"
                   "  plan   write the world's bake for Ninja or Slurm (navbake world plan --help)\n"
                   "  reach  whether two cells of a world are joined, across its tiles\n"
                   "  strips write the cells of a tile its neighbours' halos hold\n"
                   "  path   a path of least cost between two cells, across its tiles\n"
                   "  -h, --help     show this help and exit\n"
                   "  -V, --version  show the version and exit\n" NBC_EXIT_HELP);
            return NBC_EXIT_OK;
        }
        if (argc >= 2 && (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0))
            return nbc_version();
        return nbc_usage("give what to do with a world: cut, check, tile, link, plan, reach, strips or path");
    }
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(argv[1], subs[i].name) == 0) {
            static char prog[64];
            snprintf(prog, sizeof prog, "navbake world %s", subs[i].name);
            nbc_prog = prog;
            argv[1] = prog;
            return subs[i].run(argc - 1, argv + 1);
        }
    return nbc_usage("unknown world command '%s' (cut, check, tile, link, plan, reach, strips or path)", argv[1]);
}
