/* mkabstract_grid.c: mkabstract's grid mode, the HAA* abstract graph of
 * a bundle's map (formats/abstract.md, mkabstract(1)).  It reads the map,
 * agent set and clearance layers mkclear baked and replaces the bundle's
 * abstract graph, leaving every other section as it was.  The graph the
 * output held, when built with the same options, is brought up to date
 * rather than built again (nbb_abstract_update). */
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "mkabstract.h"
#include "progress.h"

static int usage(FILE *f)
{
    fprintf(f,
            "Usage: mkabstract [OPTION]... BUNDLE [-o OUT]\n"
            "       mkabstract --forest FOREST.yaml --agent-radius R[,R]... [OPTION]... [IN]\n"
            "                  -o BUNDLE\n"
            "Bake the HAA* abstract graph of BUNDLE's grid map, for every capability and\n"
            "size of its agent set, from the clearance layers mkclear baked.  BUNDLE is\n"
            "updated in place (its other sections are kept) unless -o is given; '-' reads\n"
            "it from standard input (and writes standard output without -o).\n\n"
            "  -c, --cluster-size N  side of a cluster in cells, 1 to %d (default 10)\n"
            "  -Q, --quality Q       'high' (default): drop strongly dominated edges;\n"
            "                        'low': also weak dominance with the circuit condition\n"
            "                        and the nodes it frees (smaller, longer paths);\n"
            "                        'initial': drop nothing\n"
            "  -p, --placement P     transition points of an entrance, on the run of pairs\n"
            "                        each size may cross: 'ends' (both ends of a run longer\n"
            "                        than --spread and evenly between, else its middle; the\n"
            "                        default for high quality), 'spread' (one in the middle\n"
            "                        of each --spread cells), 'middle' (one in the middle)\n"
            "                        or 'first' (the paper's: the first pair of maximal\n"
            "                        clearance; the default for low quality)\n"
            "      --spread K        cells per transition with 'spread' and 'ends' (default %d)\n"
            "      --corner RULE     'strict' (default: no corner cutting) or 'weak': the\n"
            "                        rule the intra-edge costs and stored paths follow\n"
            "      --paths           store every intra-edge's cell path, so queries refine\n"
            "                        without searching ('navbake info' shows what it costs)\n"
            "      --levels N        levels of clusters, the graph's own included: 1 (none\n"
            "                        above it) to 8; 'auto' (default): 1 up to 1024 cells\n"
            "                        a side, then one more for each factor by which the top\n"
            "                        level would still have more than 32 clusters a side\n"
            "      --level-factor M  a level's cluster is M x M clusters of the one below,\n"
            "                        2 to 64 (default %d)\n"
            "      --landmarks N     landmarks on the top level, 0 to %d (default %d): their\n"
            "                        distances bound long queries' search there (ALT)\n"
            "  -z, --zlib            store the section as a zlib stream\n"
            "  -o, --output OUT      write OUT ('-': standard output) instead of BUNDLE\n"
            "      --format FORM     write the bundle as 'binary' or 'sqlite' (default: sqlite\n"
            "                        when its name ends in .sqlite, .sqlite3 or .db)\n"
            "  -j, --threads N       threads to bake on, 1 to %d (default: the online\n"
            "                        CPUs, %u here); the bytes are the same for any number\n"
            "      --full            build the whole graph, even when the old one could be\n"
            "                        brought up to date (the old one is trusted otherwise;\n"
            "                        the clearance layers are checked against the map)\n"
            "  -v, --verbose         say what was built on standard error\n"
            "  -q, --quiet           say nothing but errors (no progress)\n"
            "      --progress WHEN   auto (default: a line on standard error when it is a\n"
            "                        terminal), none, or json (a JSON object a line)\n"
            "  -h, --help            show this help and exit\n"
            "  -V, --version         show the version and exit\n\n"
            "Round obstacles, the other mode ('mkabstract --forest FOREST.yaml --help'\n"
            "lists its options):\n"
            "  -f, --forest FILE     bake the bitangent graphs of the forest FILE (YAML,\n"
            "                        formats/forest.md) instead of a grid map's graph\n"
            "  -r, --agent-radius R  with --forest, an agent radius (0 for a point):\n"
            "                        repeat it, or give a list R1,R2,...; a graph for each\n\n"
            "The graph OUT (or BUNDLE) held, when built with the same options for the\n"
            "same agent set, is brought up to date: only the clusters whose clearance\n"
            "changed, and their borders, are built again; the bytes are those of a\n"
            "whole build.\n"
            NBC_EXIT_HELP,
            NB_ABSTRACT_MAX_CLUSTER, NBB_SPREAD_DEFAULT, NBB_LEVEL_FACTOR, NBB_LANDMARKS_MAX,
            NBB_LEVEL_LANDMARKS, NBB_MAX_THREADS,
            nbb_threads_online());
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

static int pick(const char *opt, const char *text, const char *const *names, uint32_t *out)
{
    for (uint32_t i = 0; names[i]; i++)
        if (strcmp(text, names[i]) == 0) {
            *out = i;
            return 1;
        }
    nbc_usage("%s: '%s' is not one of the choices (see --help)", opt, text);
    return 0;
}

/* The abstract section of a bundle, or -1. */
static long abstract_index(const nb_bundle *b)
{
    for (size_t i = 0; i < nb_bundle_section_count(b); i++)
        if (nb_bundle_section_get(b, i)->type == NB_SEC_ABSTRACT)
            return (long)i;
    return -1;
}

/* 1 when paths a and b name one existing file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return strcmp(a, "-") != 0 && strcmp(b, "-") != 0 && stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static void report(const char *out, const nbb_abstract_opts *o, const nbb_abstract_stats *stats,
                   double ms)
{
    if (stats->kept) {
        fprintf(stderr,
                "mkabstract: %s: no cell's clearance differs from the level the graph was built "
                "for: kept as it is; %.1f ms\n",
                out, ms);
        return;
    }
    fprintf(stderr,
            "mkabstract: %s: clusters of %u, %s quality, %s placement: %llu nodes, %llu "
            "edges (%llu inter, %llu intra), %llu bytes",
            out, o->cluster, nbb_abstract_quality_name(o->quality),
            nbb_abstract_placement_name(o->placement), (unsigned long long)stats->nodes,
            (unsigned long long)stats->edges, (unsigned long long)stats->inter,
            (unsigned long long)stats->intra, (unsigned long long)stats->bytes);
    if (o->paths)
        fprintf(stderr, " (%llu of them stored paths)", (unsigned long long)stats->path_bytes);
    if (stats->incremental)
        fprintf(stderr,
                "\nmkabstract: brought up to date: %llu cells' clearance changed; %llu of %llu "
                "clusters and %llu borders built again, the rest kept",
                (unsigned long long)stats->changed_cells,
                (unsigned long long)stats->rebuilt_clusters, (unsigned long long)stats->clusters,
                (unsigned long long)stats->rebuilt_borders);
    fprintf(stderr,
            "\nmkabstract: %llu entrances, %llu searches; from %llu nodes and %llu edges, "
            "dropped %llu strongly dominated, %llu weakly dominated and %llu by the circuit "
            "condition, %llu freed nodes and %llu intra-edges replaced through a node; %.1f ms\n",
            (unsigned long long)stats->entrances, (unsigned long long)stats->searches,
            (unsigned long long)stats->initial_nodes, (unsigned long long)stats->initial_edges,
            (unsigned long long)stats->strong, (unsigned long long)stats->weak,
            (unsigned long long)stats->circuit, (unsigned long long)stats->freed_nodes,
            (unsigned long long)stats->through, ms);
}

/* 1 when old's levels are the ones asked (none for one level). */
static int levels_match(const nb_bundle *old, const nbb_levels_opts *lo)
{
    size_t i;
    int have = nb_bundle_section_lookup(old, NB_SEC_ABSTRACT_LEVELS, NULL, NULL, 0, &i, NULL) ==
               NB_OK;
    if (lo->levels <= 1)
        return !have;
    const void *p;
    size_t len;
    return have && nb_bundle_payload(old, i, &p, &len, NULL) == NB_OK &&
           nbb_levels_baked_with(p, len, lo);
}

int nbc_mkabstract_grid(int argc, char **argv)
{
    enum { OPT_SPREAD = 256, OPT_CORNER, OPT_PATHS, OPT_FULL, OPT_LEVELS, OPT_FACTOR,
           OPT_LANDMARKS };
    static const struct option opts[] = {{"cluster-size", required_argument, NULL, 'c'},
                                         {"quality", required_argument, NULL, 'Q'},
                                         {"placement", required_argument, NULL, 'p'},
                                         {"spread", required_argument, NULL, OPT_SPREAD},
                                         {"corner", required_argument, NULL, OPT_CORNER},
                                         {"paths", no_argument, NULL, OPT_PATHS},
                                         {"levels", required_argument, NULL, OPT_LEVELS},
                                         {"level-factor", required_argument, NULL, OPT_FACTOR},
                                         {"landmarks", required_argument, NULL, OPT_LANDMARKS},
                                         {"zlib", no_argument, NULL, 'z'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"threads", required_argument, NULL, 'j'},
                                         {"full", no_argument, NULL, OPT_FULL},
                                         NBC_FORMAT_OPTION,
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         NBC_PROGRESS_OPTION,
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    static const char *const corners[] = {"strict", "weak", NULL};
    nbb_abstract_opts o;
    nbb_format format = NBB_FORMAT_AUTO;
    nbb_abstract_defaults(&o);
    nbb_levels_opts lo = {0, NBB_LEVEL_FACTOR, NBB_LEVEL_SPACING, 0, NBB_LEVEL_SHARE,
                          NBB_LEVEL_LANDMARKS};
    const char *out = NULL;
    int compress = 0, verbose = 0, quiet = 0, full = 0, c;
    nbc_progress_mode pmode = NBC_PROGRESS_AUTO;
    unsigned long v;
    while ((c = getopt_long(argc, argv, "c:Q:p:zo:j:vqhV", opts, NULL)) != -1) {
        switch (c) {
        case 'c':
            if (!nbc_uint("--cluster-size", optarg, 1, NB_ABSTRACT_MAX_CLUSTER, &v))
                return NBC_EXIT_USAGE;
            o.cluster = (uint32_t)v;
            break;
        case 'Q':
            if (!nbb_abstract_quality(optarg, &o.quality))
                return nbc_usage("--quality: '%s' is not one of the choices (see --help)", optarg);
            break;
        case 'p':
            if (!nbb_abstract_placement(optarg, &o.placement))
                return nbc_usage("--placement: '%s' is not one of the choices (see --help)",
                                 optarg);
            break;
        case OPT_SPREAD:
            if (!nbc_uint("--spread", optarg, 1, NB_ABSTRACT_MAX_CLUSTER, &v))
                return NBC_EXIT_USAGE;
            o.spread = (uint32_t)v;
            break;
        case OPT_CORNER: {
            uint32_t k;
            if (!pick("--corner", optarg, corners, &k))
                return NBC_EXIT_USAGE;
            o.corner = (nb_corner)k;
            break;
        }
        case OPT_PATHS: o.paths = 1; break;
        case OPT_LEVELS:
            if (strcmp(optarg, "auto") == 0)
                lo.levels = 0;
            else if (!nbc_uint("--levels", optarg, 1, NBB_LEVELS_MAX, &v))
                return NBC_EXIT_USAGE;
            else
                lo.levels = (uint32_t)v;
            break;
        case OPT_FACTOR:
            if (!nbc_uint("--level-factor", optarg, 2, NBB_LEVEL_FACTOR_MAX, &v))
                return NBC_EXIT_USAGE;
            lo.factor = (uint32_t)v;
            break;
        case OPT_LANDMARKS:
            if (!nbc_uint("--landmarks", optarg, 0, NBB_LANDMARKS_MAX, &v))
                return NBC_EXIT_USAGE;
            lo.landmarks = (uint32_t)v;
            break;
        case 'z': compress = 1; break;
        case 'o': out = optarg; break;
        case 'j':
            if (!nbc_threads("--threads", optarg, &o.threads))
                return NBC_EXIT_USAGE;
            break;
        case OPT_FULL: full = 1; break;
        case NBC_OPT_FORMAT:
            if (!nbc_format("--format", optarg, &format))
                return NBC_EXIT_USAGE;
            break;
        case 'v': verbose = 1; break;
        case 'q': verbose = 0, quiet = 1; break;
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
        return nbc_usage("no bundle given");
    if (argc - optind > 1)
        return nbc_usage("one bundle at a time ('%s' is extra)", argv[optind + 1]);
    const char *in = argv[optind];
    if (!out)
        out = strcmp(in, "-") == 0 ? "-" : in;
    nbb_abstract_resolve(&o);

    nb_err err;
    nb_bundle *b = NULL, *other = NULL;
    nbb_builder *w = NULL;
    uint8_t *payload = NULL;
    size_t len = 0;
    nbb_abstract_stats stats;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    nb_status st = nb_bundle_open(in, NB_OPEN_VERIFY, NULL, &b, &err);
    /* The graph to bring up to date: the one OUT holds when OUT is another
     * bundle (a level it held before), else BUNDLE's own.  An OUT that is
     * no bundle is simply replaced. */
    int in_place = strcmp(out, in) == 0 || same_file(out, in);
    if (st == NB_OK && !in_place && !full && strcmp(out, "-") != 0 &&
        nb_bundle_open(out, NB_OPEN_VERIFY, NULL, &other, NULL) != NB_OK)
        other = NULL;
    const nb_bundle *old = in_place ? b : other;
    /* The layers the graph is built from, and those the old graph is brought up to date by,
     * must be their maps' (mkabstract(1), "What an update trusts"). */
    if (st == NB_OK)
        st = nbb_clearance_check(b, o.threads,
                                 "; the graph is built from it: bake the layers from the map "
                                 "again with mkclear --full",
                                 &err);
    if (st == NB_OK && other)
        st = nbb_clearance_check(other, o.threads,
                                 "; its graph would be brought up to date by it: build the "
                                 "graph whole with --full",
                                 &err);
    if (st == NB_OK) {
        nbc_progress prog;
        nbc_progress_start(&prog, pmode, quiet,
                           "abstract graph", (double)nb_map_width(b) * nb_map_height(b), "cells");
        o.progress = nbc_progress_update;
        o.progress_arg = &prog;
        st = nbb_abstract_update(b, old, &o, full, &payload, &len, &stats, &err);
        nbc_progress_end(&prog);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long kept = st == NB_OK && stats.kept && old ? abstract_index(old) : -1;
    int same_encoding = kept >= 0 &&
                        !NB_ENC_COMPRESSION(nb_bundle_section_get(old, (size_t)kept)->encoding) == !compress;
    nbb_format form = format == NBB_FORMAT_AUTO ? nbb_format_for_path(out) : format;
    int same_form = (form == NBB_FORMAT_SQLITE) == (b && nb_bundle_form_of(b) == NB_FORM_SQLITE);
    /* Terrain costs follow the map's cells as well as the graph: with them the bundle is
     * written again. */
    int weighted = 0;
    for (size_t i = 0; b && i < nb_agent_count(b); i++)
        weighted |= nb_agent_get(b, i)->weighted;
    lo.threads = o.threads;
    if (b && lo.levels == 0)
        lo.levels = nbb_levels_default(nb_map_width(b), nb_map_height(b), o.cluster, lo.factor);
    if (st == NB_OK && kept >= 0 && same_encoding && in_place && same_form && !weighted &&
        levels_match(old, &lo) &&
        strcmp(out, "-") != 0) {
        /* Nothing to change: the file stays, and looks made now (make). */
        if (utimensat(AT_FDCWD, out, NULL, 0) != 0)
            st = nbb_fail_errno(&err, "cannot touch", out);
    } else if (st == NB_OK) {
        st = nbb_builder_new(&w, &err);
        if (st == NB_OK)
            nbb_builder_threads(w, o.threads);
        for (size_t i = 0; st == NB_OK && i < nb_bundle_section_count(b); i++)
            st = nbb_builder_borrow(w, b, i, &err);
        if (st == NB_OK)
            nbb_builder_remove(w, NB_SEC_ABSTRACT);
        /* The graph's costs first: adding a payload may free it (compress). */
        const void *graph = payload;
        size_t glen = len;
        if (st == NB_OK && kept >= 0)
            st = nb_bundle_payload(old, (size_t)kept, &graph, &glen, &err);
        if (st == NB_OK)
            st = nbb_abstract_put_derived(w, b, graph, glen, &lo, compress, &err);
        if (st == NB_OK && kept >= 0 && same_encoding)
            st = nbb_builder_borrow(w, old, (size_t)kept, &err);
        else if (st == NB_OK && kept >= 0) {
            nb_section_info info = *nb_bundle_section_get(old, (size_t)kept);
            info.encoding = NB_ENC_RAW;
            st = nbb_builder_add(w, &info, graph, glen, compress, &err);
        } else if (st == NB_OK) {
            st = nbb_abstract_put_graph(w, payload, len, compress, &err);
            payload = NULL;
        }
        if (st == NB_OK)
            st = nbb_builder_write_format(w, out, format, &err);
    }
    int rc = st == NB_OK ? NBC_EXIT_OK : nbc_fail_err(&err);
    if (st == NB_OK && verbose) {
        double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
        report(strcmp(out, "-") == 0 ? "(standard output)" : out, &o, &stats, ms);
    }
    free(payload);
    nbb_builder_free(w);
    nb_bundle_close(b);
    nb_bundle_close(other);
    return rc;
}
