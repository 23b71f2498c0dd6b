/* mkhitcheck: bakes units with a turning radius into a bundle: for each,
 * its definition, its hit-check table and its curve heuristic table
 * (formats/hitcheck.md).  Other sections of the bundle are kept as they
 * are. */
#include <getopt.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"

#define MAX_UNITS 64

static int usage(void)
{
    printf("Usage: mkhitcheck --unit UNIT.yaml [--unit UNIT.yaml]... [OPTION]... -o BUNDLE\n"
           "Bake units with a turning radius into BUNDLE: for each unit its definition,\n"
           "its hit-check table (the cells each curve of its search touches) and its\n"
           "curve heuristic table.  A unit's sections replace those of the unit with the\n"
           "same name; the bundle's other sections are kept.  BUNDLE is created when it\n"
           "does not exist.\n\n"
           "  -u, --unit FILE          a unit definition (YAML; '-' for standard input)\n"
           "  -n, --neighbourhood N    8, 24 or 48: the neighbours each node of the search\n"
           "                           reaches (Directional-N); default: the unit's own,\n"
           "                           or 24\n"
           "  -c, --curves WHICH       shortest (default): the shortest curve of each\n"
           "                           entry of the hit-check table; all: every candidate\n"
           "                           (larger; finds more paths for Directional-8)\n"
           "  -z, --zlib               store the tables zlib-compressed\n"
           "  -o, --output BUNDLE      the bundle to write (required)\n"
           "      --format FORM        write BUNDLE as 'binary' or 'sqlite' (default: sqlite\n"
           "                           when its name ends in .sqlite, .sqlite3 or .db)\n"
           "  -q, --quiet              print nothing on success\n"
           "      --progress WHEN      auto (default: a line on standard error when it is\n"
           "                           a terminal), none, or json (a JSON object a line)\n"
           "  -h, --help               show this help and exit\n"
           "  -V, --version            show the version and exit\n"
           NBC_EXIT_HELP);
    return NBC_EXIT_OK;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {{"unit", required_argument, NULL, 'u'},
                                         {"neighbourhood", required_argument, NULL, 'n'},
                                         {"neighborhood", required_argument, NULL, 'n'},
                                         {"curves", required_argument, NULL, 'c'},
                                         {"zlib", no_argument, NULL, 'z'},
                                         {"output", required_argument, NULL, 'o'},
                                         NBC_FORMAT_OPTION,
                                         {"quiet", no_argument, NULL, 'q'},
                                         NBC_PROGRESS_OPTION,
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    const char *units[MAX_UNITS], *out = NULL;
    size_t nunits = 0;
    unsigned long nb = 0;
    int quiet = 0, zlib = 0, all = 0, c;
    nbc_progress_mode pmode = NBC_PROGRESS_AUTO;
    nbb_format format = NBB_FORMAT_AUTO;
    nbc_prog = "mkhitcheck";
    argv[0] = (char *)nbc_prog; /* getopt's own messages name it as ours do */
    while ((c = getopt_long(argc, argv, "u:n:c:zo:qhV", opts, NULL)) != -1) {
        switch (c) {
        case 'u':
            if (nunits == MAX_UNITS)
                return nbc_usage("more than %d units", MAX_UNITS);
            units[nunits++] = optarg;
            break;
        case 'n':
            if (!nbc_neighbourhood(optarg, &nb))
                return NBC_EXIT_USAGE;
            break;
        case 'c':
            if (strcmp(optarg, "shortest") && strcmp(optarg, "all"))
                return nbc_usage("--curves '%s': expected shortest or all", optarg);
            all = strcmp(optarg, "all") == 0;
            break;
        case 'z': zlib = 1; break;
        case 'o': out = optarg; break;
        case NBC_OPT_FORMAT:
            if (!nbc_format("--format", optarg, &format))
                return NBC_EXIT_USAGE;
            break;
        case 'q': quiet = 1; break;
        case NBC_OPT_PROGRESS:
            if (!nbc_progress_mode_parse(optarg, &pmode))
                return NBC_EXIT_USAGE;
            break;
        case 'h': return usage() == NBC_EXIT_OK ? nbc_close_stdout() : NBC_EXIT_FAIL;
        case 'V': nbc_version(); return nbc_close_stdout();
        default: return nbc_bad_option();
        }
    }
    if (optind < argc)
        return nbc_usage("unexpected argument '%s'", argv[optind]);
    if (nunits == 0)
        return nbc_usage("no unit given (--unit UNIT.yaml)");
    if (!out)
        return nbc_usage("no output bundle given (-o BUNDLE)");

    nb_err err;
    nbb_builder *b = NULL;
    nb_bundle *old = NULL;
    int rc = NBC_EXIT_FAIL;
    /* Terrain names are the bundle's own when it has a legend. */
    if (strcmp(out, "-") != 0 && access(out, F_OK) == 0 &&
        nb_bundle_open(out, 0, NULL, &old, &err) != NB_OK)
        return nbc_fail_err(&err);
    if (nbb_builder_new(&b, &err) != NB_OK || nbb_builder_load(b, out, 1, &err) != NB_OK)
        goto fail;
    static char names[MAX_UNITS][NB_NAME_MAX + 1];
    for (size_t i = 0; i < nunits; i++) {
        nb_unit u;
        nbb_unit_stats stats;
        if (nbb_unit_read(units[i], old, &u, &err) != NB_OK)
            goto fail;
        for (size_t j = 0; j < i; j++)
            if (strcmp(names[j], u.name) == 0) {
                nbc_fail("%s: unit '%s' is already defined by %s", units[i], u.name, units[j]);
                goto done;
            }
        memcpy(names[i], u.name, sizeof names[i]);
        if (nb)
            u.neighbourhood = (unsigned)nb;
        nbc_progress prog;
        /* The table holds the first quarter of the start headings. */
        nbc_progress_start(&prog, pmode, quiet, u.name, (double)(u.headings / 4) * u.headings,
                           "heading pairs");
        nbb_progress_part part = {nbc_progress_update, &prog, 0, 1, NULL};
        nb_status st = nbb_put_unit_progress(
            b, &u, (zlib ? NBB_UNIT_ZLIB : 0) | (all ? NBB_UNIT_ALL_CURVES : 0),
            nbb_progress_part_fn, &part, &stats, &err);
        nbc_progress_end(&prog);
        if (st != NB_OK)
            goto fail;
        if (!quiet)
            printf("unit %s: radius %g, width %g, %u headings%s; Directional-%u: %u curves%s in a "
                   "%u x %u window (%zu bytes); curve table %zu bytes\n",
                   u.name, u.radius, u.width, u.headings, u.reverse ? ", reverses" : "",
                   u.neighbourhood, stats.curves, all ? " (every candidate)" : "", stats.window,
                   stats.window, stats.hitcheck_bytes, stats.curves_bytes);
    }
    if (nbb_builder_write_format(b, out, format, &err) != NB_OK)
        goto fail;
    rc = NBC_EXIT_OK;
    goto done;
fail:
    rc = nbc_fail_err(&err);
done:
    nbb_builder_free(b);
    nb_bundle_close(old);
    return rc;
}
