/* mkclear: bakes a level's true-clearance layers and reachability
 * components into a bundle (formats/clearance.md, mkclear(1)).
 *
 * It reads the bundle that is already there and replaces only what it
 * owns: the clearance and component layers, and the level (legend, agent
 * set, map) when that is new or changed.  When the bundle held another
 * level, the sections derived from the old one (clearance, components and
 * the abstract graph) would describe a map that is no longer there: they
 * are removed, and mkclear says which, so a later step rebuilds them
 * instead of a query trusting them. */
#include <getopt.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cli.h"
#include "progress.h"

/* Section types computed from the level's map, legend or agent set. */
static const uint32_t derived_types[] = {NB_SEC_CLEARANCE, NB_SEC_COMPONENTS, NB_SEC_RUNS,
                                         NB_SEC_ABSTRACT};
#define NDERIVED (sizeof derived_types / sizeof derived_types[0])

static int usage(FILE *f)
{
    fprintf(f, "Usage: mkclear [OPTION]... MAP -o BUNDLE\n"
               "Bake true-clearance layers (one per capability of the agent set, capped at\n"
               "its largest size), reachability components and their cells as runs along\n"
               "rows (one of each per capability and size; the runs serve random cells)\n"
               "for a MovingAI map into BUNDLE, with the map, legend and agent set.  An\n"
               "existing BUNDLE is updated: its other sections are kept.  MAP may be '-'.\n\n"
               "  -l, --legend FILE    terrain legend (YAML; default: MovingAI's characters)\n"
               "  -a, --agents FILE    agent set (YAML; default: one agent of size 1 that\n"
               "                       may enter ground and swamp)\n"
               "  -o, --output BUNDLE  the bundle to create or update ('-': standard output)\n"
               "      --format FORM    write BUNDLE as 'binary' or 'sqlite' (default: sqlite\n"
               "                       when its name ends in .sqlite, .sqlite3 or .db)\n"
               "  -e, --encoding ENC   'packed' (default: read in place from the mapped file)\n"
               "                       or 'zlib' (smaller; inflated when the bundle is opened)\n"
               "  -z, --zlib           the same as --encoding zlib\n"
               "  -q, --quiet          no progress, and nothing about sections removed with\n"
               "                       an old level\n"
               "      --progress WHEN  auto (default: a line on standard error when it is a\n"
               "                       terminal), none, or json (a JSON object a line)\n"
               "  -h, --help           show this help and exit\n"
               "  -V, --version        show the version and exit\n\n"
               "When BUNDLE held a different map, legend or agent set, the sections derived\n"
               "from the old one (clearance, components, runs, abstract) are removed and\n"
               "listed.\n"
               "Exit status: 0 on success, 1 on failure, 2 on a usage error.\n");
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

/* 1 when two encodings are the same bytes. */
int main(int argc, char **argv)
{
    static const struct option opts[] = {{"legend", required_argument, NULL, 'l'},
                                         {"agents", required_argument, NULL, 'a'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"encoding", required_argument, NULL, 'e'},
                                         {"zlib", no_argument, NULL, 'z'},
                                         NBC_FORMAT_OPTION,
                                         {"quiet", no_argument, NULL, 'q'},
                                         NBC_PROGRESS_OPTION,
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    const char *legend_path = NULL, *agents_path = NULL, *out = NULL;
    int compress = 0, quiet = 0, c;
    nbb_format format = NBB_FORMAT_AUTO;
    nbc_progress_mode pmode = NBC_PROGRESS_AUTO;
    nbc_prog = "mkclear";
    while ((c = getopt_long(argc, argv, "l:a:o:e:zqhV", opts, NULL)) != -1) {
        switch (c) {
        case 'l': legend_path = optarg; break;
        case 'a': agents_path = optarg; break;
        case 'o': out = optarg; break;
        case 'e':
            if (strcmp(optarg, "packed") == 0)
                compress = 0;
            else if (strcmp(optarg, "zlib") == 0)
                compress = 1;
            else
                return nbc_usage("--encoding: '%s' is neither 'packed' nor 'zlib'", optarg);
            break;
        case 'z': compress = 1; break;
        case NBC_OPT_FORMAT:
            if (!nbc_format("--format", optarg, &format))
                return NBC_EXIT_USAGE;
            break;
        case 'q': quiet = 1; break;
        case NBC_OPT_PROGRESS:
            if (!nbc_progress_mode_parse(optarg, &pmode))
                return NBC_EXIT_USAGE;
            break;
        case 'h': return usage(stdout) == NBC_EXIT_OK ? nbc_close_stdout() : NBC_EXIT_USAGE;
        case 'V': nbc_version(); return nbc_close_stdout();
        default: return nbc_usage("unknown option");
        }
    }
    if (optind == argc)
        return nbc_usage("no map given");
    if (argc - optind > 1)
        return nbc_usage("one map at a time ('%s' is extra)", argv[optind + 1]);
    if (!out)
        return nbc_usage("no output bundle given (-o BUNDLE)");
    const char *map_path = argv[optind];

    nbb_level *level;
    nb_err err;
    nb_status st = nbb_level_read(legend_path, agents_path, map_path, &level, &err);
    if (st != NB_OK)
        return nbc_fail_err(&err);

    nbb_builder *b = NULL;
    nb_bundle *old = NULL;
    int rc = NBC_EXIT_OK;
    st = nbb_builder_new(&b, &err);
    struct stat sb;
    int exists = strcmp(out, "-") != 0 && stat(out, &sb) == 0;
    if (st == NB_OK && exists)
        st = nbb_builder_load(b, out, 1, &err);
    if (st == NB_OK && exists)
        st = nb_bundle_open(out, 0, NULL, &old, &err);
    char why[160];
    const char *differs = old ? nbb_level_differs(level, old, why, sizeof why) : "nothing";
    if (st == NB_OK && differs) {
        if (old) {
            /* Name what goes, so nobody wonders where the graph went. */
            char gone[256] = "";
            size_t at = 0, total = 0;
            for (size_t k = 0; k < NDERIVED; k++) {
                size_t n = 0;
                for (size_t i = 0; i < nb_bundle_section_count(old); i++)
                    n += nb_bundle_section(old, i)->type == derived_types[k];
                if (n && derived_types[k] == NB_SEC_ABSTRACT) {
                    int k2 = snprintf(gone + at, sizeof gone - at, "%s%zu %s", at ? ", " : "", n,
                                      nb_section_type_name(derived_types[k]));
                    at += k2 > 0 && (size_t)k2 < sizeof gone - at ? (size_t)k2 : 0;
                }
                total += n;
                nbb_builder_remove(b, derived_types[k]);
            }
            if (!quiet && total)
                fprintf(stderr,
                        "mkclear: %s held %s: its %zu sections derived from the old level are "
                        "removed%s%s%s\n",
                        out, differs, total, at ? " (" : "", gone,
                        at ? "; rebuild them for the new level)" : "");
        }
        st = nbb_level_put(b, level, compress, &err);
    }
    if (st == NB_OK) {
        nbc_progress prog;
        nbb_builder_remove(b, NB_SEC_CLEARANCE);
        nbb_builder_remove(b, NB_SEC_COMPONENTS);
        nbb_builder_remove(b, NB_SEC_RUNS);
        nbc_progress_start(&prog, pmode, quiet,
                           "clearance and components", (double)nbb_level_cells(level), "cells");
        st = nbb_level_bake_clearance(b, level, compress, nbc_progress_update, &prog, NULL, &err);
        nbc_progress_end(&prog);
    }
    nb_bundle_close(old);
    if (st == NB_OK)
        st = nbb_builder_write_format(b, out, format, &err);
    if (st != NB_OK)
        rc = nbc_fail_err(&err);
    nbb_builder_free(b);
    nbb_level_free(level);
    return rc;
}
