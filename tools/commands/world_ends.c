/* world_ends.c: the options and the opening of the world that navbake
 * world reach and world path share. */
#include <getopt.h>

#include "cli.h"
#include "world_ends.h"

/* The options: -1 to go on, or the exit status. */
static int parse(int argc, char **argv, int weak_ok, void (*help)(void), nbc_world_ends *e)
{
    struct option opts[] = {{"from", required_argument, NULL, 'F'},
                            {"to", required_argument, NULL, 'T'},
                            {"agent", required_argument, NULL, 'a'},
                            {"size", required_argument, NULL, 's'},
                            {"capability", required_argument, NULL, 'c'},
                            {"tiles", required_argument, NULL, 't'},
                            {"json", no_argument, NULL, 'J'},
                            {"help", no_argument, NULL, 'h'},
                            {"version", no_argument, NULL, 'V'},
                            {"weak", no_argument, NULL, 'W'},
                            {NULL, 0, NULL, 0}};
    if (!weak_ok) /* world reach has no --weak: getopt calls it unknown */
        opts[9] = (struct option){NULL, 0, NULL, 0};
    *e = (nbc_world_ends){-1, -1, -1, -1, 0, 0, NULL, {NULL, NULL, 0}, NULL};
    int have_from = 0, have_to = 0, c;
    while ((c = getopt_long(argc, argv, "a:s:c:t:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'F':
            if (!nbc_point("--from", optarg, &e->fx, &e->fy))
                return NBC_EXIT_USAGE;
            have_from = 1;
            break;
        case 'T':
            if (!nbc_point("--to", optarg, &e->tx, &e->ty))
                return NBC_EXIT_USAGE;
            have_to = 1;
            break;
        case 'a': e->ao.name = optarg; break;
        case 'c': e->ao.capability = optarg; break;
        case 's':
            if (!nbc_uint("--size", optarg, 1, NB_MAX_AGENT_SIZE, &e->ao.size))
                return NBC_EXIT_USAGE;
            break;
        case 't': e->tiles = optarg; break;
        case 'W': e->weak = 1; break;
        case 'J': e->json = 1; break;
        case 'h': help(); return NBC_EXIT_OK;
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (argc - optind != 1)
        return nbc_usage(argc - optind < 1 ? "give a world bundle" : "one world at a time");
    if (!have_from || !have_to)
        return nbc_usage("give both cells (--from X,Y --to X,Y)");
    e->path = argv[optind];
    return -1;
}

int nbc_world_ends_begin(int argc, char **argv, int weak_ok, void (*help)(void),
                         nbc_world_ends *e, nb_world **w, nb_world_info *in,
                         nbc_agent_choice *a)
{
    int rc = parse(argc, argv, weak_ok, help, e);
    if (rc >= 0)
        return rc;
    nb_err err;
    if (nb_world_open(e->path, e->tiles, 0, NULL, w, &err) != NB_OK)
        return nbc_fail_err(&err);
    nb_world_describe(*w, in);
    rc = nbc_agent_pick(nb_world_bundle(*w), e->path, &e->ao, a);
    if (rc == NBC_EXIT_OK &&
        (!nbc_cell_on_map("--from", e->fx, e->fy, in->width, in->height) ||
         !nbc_cell_on_map("--to", e->tx, e->ty, in->width, in->height)))
        rc = NBC_EXIT_USAGE;
    if (rc != NBC_EXIT_OK) {
        nb_world_close(*w);
        *w = NULL;
        return rc;
    }
    return -1;
}
