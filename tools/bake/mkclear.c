/* mkclear: bakes a level's true-clearance layers and reachability
 * components into a bundle (formats/clearance.md, mkclear(1)).
 *
 * It reads the bundle that is already there and replaces only what it
 * owns: the clearance and component layers, and the level (legend, agent
 * set, map) when that is new or changed.  What is built on the level is
 * kept up to date (nbb_level_rebake): when the bundle held the same level
 * with some cells changed, only what those cells reach is computed again,
 * the abstract graph included; when it held another level, the sections
 * derived from the old one would describe a map that is no longer there:
 * they are removed, and mkclear says which, so a later step rebuilds them
 * instead of a query trusting them. */
#include <getopt.h>
#include <stdlib.h>

#include "cli.h"
#include "navbake_bake.h"
#include "progress.h"

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
               "  -j, --threads N      threads to bake on, 1 to %d (default: the online\n"
               "                       CPUs, %u here); the bytes are the same for any number\n"
               "      --full           bake from the map alone: everything again, even what\n"
               "                       changed cells cannot reach\n"
               "  -v, --verbose        say what was kept and what was computed again\n"
               "      --optimal[=RULE] also bake an optimal-search layer (a subgoal graph,\n"
               "                       formats/subgoal.md) for each capability and size of\n"
               "                       the agent set, for the corner rule RULE: strict (the\n"
               "                       default), weak or both; navbake query --method\n"
               "                       optimal uses it\n"
               "  -q, --quiet          no progress, and nothing about sections removed with\n"
               "                       an old level\n"
               "      --progress WHEN  auto (default: a line on standard error when it is a\n"
               "                       terminal), none, or json (a JSON object a line)\n"
               "  -h, --help           show this help and exit\n"
               "  -V, --version        show the version and exit\n\n"
               "When BUNDLE held the same level with some cells changed, only the clearance\n"
               "bands, components, their runs and abstract-graph clusters those cells reach\n"
               "are written anew; the result is the same bytes as a whole bake.  The layers\n"
               "kept are checked against the map, and a bundle whose layers are not its\n"
               "map's is refused (use --full); the abstract graph is kept unchecked where no\n"
               "change reaches it (mkclear(1), \"What an update trusts\").  When it held\n"
               "another map, legend or agent set, the sections derived from the old one\n"
               "(clearance, components, runs, abstract) are removed and listed.\n"
               NBC_EXIT_HELP,
            NBB_MAX_THREADS, nbb_threads_online());
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

static const char *const abstract_fate[] = {
    [NBB_REBAKE_NONE] = NULL,
    [NBB_REBAKE_KEPT] = "kept (no cell it depends on changed)",
    [NBB_REBAKE_UPDATED] = "brought up to date",
    [NBB_REBAKE_REBUILT] = "built whole with its options",
    [NBB_REBAKE_REMOVED] = "removed",
};

/* -v: what was kept and what was computed again. */
static void report(const char *out, const nbb_rebake_stats *s)
{
    if (s->change == NBB_LEVEL_OTHER)
        fprintf(stderr, "mkclear: %s: a new level: every layer baked whole (%u layers)\n", out,
                s->layers);
    else
        fprintf(stderr,
                "mkclear: %s: %s, %llu cells changed: %u of %u bands of rows written anew, "
                "%llu cells' clearance changed; %u of %u layers written anew (%llu cells "
                "searched for components, %u layers numbered again)%s\n",
                out, s->change == NBB_LEVEL_SAME ? "the same level" : "the same level size",
                (unsigned long long)s->changed_cells, s->bands_rebuilt, s->bands,
                (unsigned long long)s->clearance_changed, s->layers_rebuilt, s->layers,
                (unsigned long long)s->components_searched, s->components_renumbered,
                s->bands_rebuilt < s->bands || s->layers_rebuilt < s->layers
                    ? "; the rest kept as stored, computed again and found to be the map's"
                    : "");
    if (s->abstract == NBB_REBAKE_NONE)
        return;
    const nbb_abstract_stats *a = &s->abstract_stats;
    fprintf(stderr, "mkclear: %s: the abstract graph: %s", out, abstract_fate[s->abstract]);
    if (s->abstract == NBB_REBAKE_UPDATED || s->abstract == NBB_REBAKE_REBUILT)
        fprintf(stderr, ": %llu of %llu clusters and %llu borders computed, %llu searches; %llu "
                "nodes, %llu edges",
                (unsigned long long)a->rebuilt_clusters, (unsigned long long)a->clusters,
                (unsigned long long)a->rebuilt_borders, (unsigned long long)a->searches,
                (unsigned long long)a->nodes, (unsigned long long)a->edges);
    fputc('\n', stderr);
}

int main(int argc, char **argv)
{
    enum { OPT_FULL = 256 };
    static const struct option opts[] = {{"legend", required_argument, NULL, 'l'},
                                         {"agents", required_argument, NULL, 'a'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"encoding", required_argument, NULL, 'e'},
                                         {"zlib", no_argument, NULL, 'z'},
                                         {"threads", required_argument, NULL, 'j'},
                                         {"full", no_argument, NULL, OPT_FULL},
                                         {"optimal", optional_argument, NULL, 'O'},
                                         NBC_FORMAT_OPTION,
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         NBC_PROGRESS_OPTION,
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    const char *legend_path = NULL, *agents_path = NULL, *out = NULL;
    int quiet = 0, verbose = 0, c;
    unsigned optimal = 0; /* corner rules of the optimal-search layers, NBB_CORNERS_* */
    nbb_rebake_opts ro = {0, 0, 0, NULL, NULL};
    nbb_format format = NBB_FORMAT_AUTO;
    nbc_progress_mode pmode = NBC_PROGRESS_AUTO;
    nbc_prog = "mkclear";
    argv[0] = (char *)nbc_prog; /* getopt's own messages name it as ours do */
    while ((c = getopt_long(argc, argv, "l:a:o:e:zj:vqhV", opts, NULL)) != -1) {
        switch (c) {
        case 'l': legend_path = optarg; break;
        case 'a': agents_path = optarg; break;
        case 'o': out = optarg; break;
        case 'e':
            if (strcmp(optarg, "packed") == 0)
                ro.compress = 0;
            else if (strcmp(optarg, "zlib") == 0)
                ro.compress = 1;
            else
                return nbc_usage("--encoding: '%s' is neither 'packed' nor 'zlib'", optarg);
            break;
        case 'z': ro.compress = 1; break;
        case 'j':
            if (!nbc_threads("--threads", optarg, &ro.threads))
                return NBC_EXIT_USAGE;
            break;
        case OPT_FULL: ro.full = 1; break;
        case 'O':
            if (!optarg || strcmp(optarg, "strict") == 0)
                optimal = NBB_CORNERS_STRICT;
            else if (strcmp(optarg, "weak") == 0)
                optimal = NBB_CORNERS_WEAK;
            else if (strcmp(optarg, "both") == 0)
                optimal = NBB_CORNERS_STRICT | NBB_CORNERS_WEAK;
            else
                return nbc_usage("--optimal: '%s': expected strict (the default), weak or both "
                                 "(the corner rules to bake layers for)", optarg);
            break;
        case NBC_OPT_FORMAT:
            if (!nbc_format("--format", optarg, &format))
                return NBC_EXIT_USAGE;
            break;
        case 'v': verbose = 1; break;
        case 'q': quiet = 1; break;
        case NBC_OPT_PROGRESS:
            if (!nbc_progress_mode_parse(optarg, &pmode))
                return NBC_EXIT_USAGE;
            break;
        case 'h': return usage(stdout) == NBC_EXIT_OK ? nbc_close_stdout() : NBC_EXIT_USAGE;
        case 'V': nbc_version(); return nbc_close_stdout();
        default: return nbc_bad_option();
        }
    }
    if (optind == argc)
        return nbc_usage("no map given");
    if (argc - optind > 1)
        return nbc_usage("one map at a time ('%s' is extra)", argv[optind + 1]);
    if (!out)
        return nbc_usage("no output bundle given (-o BUNDLE)");
    const char *map_path = argv[optind];

    /* The level is read through the bake library (navbake_bake.h), as a
     * program that bakes in-process reads it. */
    nb_bake *bake;
    nb_err err;
    nb_status st = nb_bake_open(NULL, &bake, &err);
    if (st == NB_OK)
        st = nbb_bake_read(bake, legend_path, agents_path, map_path, ro.threads, &err);
    if (st != NB_OK) {
        nb_bake_close(bake);
        return nbc_fail_err(&err);
    }
    const nbb_level *level = nbb_bake_level(bake);

    nbb_builder *b = NULL;
    nb_bundle *old = NULL;
    st = nbb_builder_new(&b, &err);
    if (st == NB_OK)
        nbb_builder_threads(b, ro.threads);
    /* The bundle there is updated: its sections are taken as stored (it
     * stays open until the new one is written). */
    if (st == NB_OK)
        st = nbb_builder_open_update(b, out, &old, &err);
    nbb_rebake_stats stats;
    if (st == NB_OK) {
        nbc_progress prog;
        nbc_progress_start(&prog, pmode, quiet,
                           "clearance and components", (double)nbb_level_cells(level), "cells");
        ro.progress = nbc_progress_update;
        ro.progress_arg = &prog;
        st = nbb_level_rebake(b, level, old, &ro, &stats, &err);
        nbc_progress_end(&prog);
    }
    /* --full keeps nothing computed from the level: the subgoal layers of the same level (its
     * cells changed or not) are baked again with the corner rules they had. */
    unsigned had = 0;
    for (size_t i = 0; st == NB_OK && ro.full && stats.change != NBB_LEVEL_OTHER &&
                       i < nb_bundle_section_count(old);
         i++) {
        const nb_section_info *in = nb_bundle_section_get(old, i);
        if (in->type == NB_SEC_SUBGOAL && in->param[2] <= NB_CORNER_WEAK)
            had |= 1u << in->param[2];
    }
    optimal = optimal ? optimal : had;
    if (st == NB_OK && optimal) {
        nbb_builder_remove(b, NB_SEC_SUBGOAL);
        st = nbb_level_bake_subgoal(b, level, optimal, ro.compress, NULL, NULL, &err);
    }
    /* Changed cells leave the old subgoal layers behind (baked again whole
     * with --optimal). */
    size_t subgoals = 0;
    for (size_t i = 0; old && stats.change == NBB_LEVEL_CELLS && i < nb_bundle_section_count(old);
         i++)
        subgoals += nb_bundle_section_get(old, i)->type == NB_SEC_SUBGOAL;
    if (st == NB_OK && !quiet && subgoals && !optimal)
        fprintf(stderr,
                "mkclear: %s: its %zu subgoal layers are removed with the changed cells; bake "
                "them again with mkclear --optimal\n",
                out, subgoals);
    if (st == NB_OK && !quiet && stats.removed && stats.change == NBB_LEVEL_OTHER)
        /* Name what goes, so nobody wonders where the graph went. */
        fprintf(stderr,
                "mkclear: %s held %s: its %zu sections derived from the old level are "
                "removed%s%s%s\n",
                out, stats.why, stats.removed, *stats.removed_what ? " (" : "",
                stats.removed_what, *stats.removed_what ? "; rebuild them for the new level)" : "");
    else if (st == NB_OK && !quiet && stats.abstract == NBB_REBAKE_REMOVED)
        fprintf(stderr,
                "mkclear: %s: its abstract graph could not be brought up to date for the changed "
                "cells and is removed; rebuild it with mkabstract\n",
                out);
    if (st == NB_OK)
        st = nbb_builder_write_format(b, out, format, &err);
    int rc = st == NB_OK ? NBC_EXIT_OK : nbc_fail_err(&err);
    if (st == NB_OK && verbose)
        report(strcmp(out, "-") == 0 ? "(standard output)" : out, &stats);
    nbb_builder_free(b);
    nb_bundle_close(old);
    nb_bake_close(bake);
    return rc;
}
