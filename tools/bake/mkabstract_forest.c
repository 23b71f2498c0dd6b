/* mkabstract --forest: bake the bitangent graph of a forest of round
 * obstacles for each agent radius (lib/bake/forest/bitangent_build.c) into a bundle,
 * beside whatever else the bundle holds. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

#include "cli.h"
#include "mkabstract.h"
#include "progress.h"

static int forest_usage(void)
{
    printf("Usage: mkabstract --forest FOREST.yaml --agent-radius R [--agent-radius R]...\n"
           "                  [OPTION]... [IN] -o BUNDLE\n"
           "Bake the bitangent graph of a forest of round obstacles for each agent radius:\n"
           "every circle is inflated by the radius, the bitangents of every pair are kept\n"
           "where nothing blocks them, and each circle keeps the arcs no other circle\n"
           "covers.  The forest and its graphs replace any forest in the bundle; other\n"
           "sections are kept.  IN (default: BUNDLE, when it exists) is read, BUNDLE is\n"
           "written atomically.\n\n"
           "  -f, --forest FILE        the forest (YAML, formats/forest.md; '-' for stdin)\n"
           "  -r, --agent-radius R     an agent radius (0 for a point); repeat, or give a\n"
           "                           list R1,R2,...; radius index i is the i-th given\n"
           "  -o, --output BUNDLE      the bundle to write ('-' for standard output)\n"
           "      --format FORM        write BUNDLE as 'binary' or 'sqlite' (default: sqlite\n"
           "                           when its name ends in .sqlite, .sqlite3 or .db)\n"
           "  -z, --zlib               store the sections zlib-compressed\n"
           "  -v, --verbose            print what each graph holds\n"
           "  -q, --quiet              no progress\n"
           "      --progress WHEN      auto (default: a line on standard error when it is\n"
           "                           a terminal), none, or json (a JSON object a line)\n"
           "  -h, --help               show this help and exit\n"
           "  -V, --version            show the version and exit\n"
           NBC_EXIT_HELP);
    return NBC_EXIT_OK;
}

/* "0.5" or "0.5,1,2" into radii[]. */
static int add_radii(const char *text, double *radii, unsigned *n)
{
    char buf[512];
    unsigned before = *n;
    if (strlen(text) >= sizeof buf)
        return nbc_usage("--agent-radius: '%.40s...' is too long", text), 0;
    strcpy(buf, text);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        double r;
        if (*n == NB_FOREST_MAX_RADII)
            return nbc_usage("--agent-radius: at most %d radii", NB_FOREST_MAX_RADII), 0;
        if (!nbc_real("--agent-radius", tok, 0, NB_FOREST_MAX_COORD, &r))
            return 0;
        for (unsigned i = 0; i < *n; i++)
            if (radii[i] == r)
                return nbc_usage("--agent-radius: %g is given twice", r), 0;
        radii[(*n)++] = r;
    }
    if (*n == before)
        return nbc_usage("--agent-radius: no value"), 0;
    return 1;
}

int nbc_mkabstract_forest(int argc, char **argv)
{
    static const struct option opts[] = {{"forest", required_argument, NULL, 'f'},
                                         {"agent-radius", required_argument, NULL, 'r'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"zlib", no_argument, NULL, 'z'},
                                         NBC_FORMAT_OPTION,
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         NBC_PROGRESS_OPTION,
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    const char *forest_path = NULL, *out = NULL, *in = NULL;
    double radii[NB_FOREST_MAX_RADII];
    unsigned nradii = 0;
    int zlib = 0, verbose = 0, quiet = 0, c;
    nbc_progress_mode pmode = NBC_PROGRESS_AUTO;
    nbb_format format = NBB_FORMAT_AUTO;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:r:o:zvqhV", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (forest_path)
                return nbc_usage("--forest given twice");
            forest_path = optarg;
            break;
        case 'r':
            if (!add_radii(optarg, radii, &nradii))
                return NBC_EXIT_USAGE;
            break;
        case 'o': out = optarg; break;
        case 'z': zlib = 1; break;
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
        case 'h': return forest_usage() == NBC_EXIT_OK ? nbc_close_stdout() : NBC_EXIT_FAIL;
        case 'V': nbc_version(); return nbc_close_stdout();
        default: return nbc_bad_option();
        }
    }
    if (optind < argc)
        in = argv[optind++];
    if (optind < argc)
        return nbc_usage("one input bundle at most ('%s' is extra)", argv[optind]);
    if (!forest_path)
        return nbc_usage("--forest: no forest file given");
    if (nradii == 0)
        return nbc_usage("no --agent-radius given (0 bakes for a point agent)");
    if (!out)
        return nbc_usage("no output bundle given (-o BUNDLE)");
    if (in && strcmp(in, "-") == 0 && strcmp(forest_path, "-") == 0)
        return nbc_usage("the forest and the input bundle cannot both be standard input");

    nb_err err;
    nbb_forest forest;
    if (nbb_forest_read(forest_path, &forest, &err) != NB_OK)
        return nbc_fail_err(&err);
    nbb_builder *b = NULL;
    nb_forest_graph_info info[NB_FOREST_MAX_RADII];
    nbc_progress prog;
    nbc_progress_start(&prog, pmode, quiet,
                       "bitangent graphs", (double)forest.n * forest.n * nradii / 2, "pairs");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    nb_status st = nbb_builder_new(&b, &err);
    if (st == NB_OK)
        st = in ? nbb_builder_load(b, in, 0, &err)
                : strcmp(out, "-") == 0 ? NB_OK /* a new bundle to standard output */
                                        : nbb_builder_load(b, out, 1, &err);
    if (st == NB_OK)
        st = nbb_put_forest(b, &forest, radii, nradii, zlib, info, nbc_progress_update, &prog, &err);
    nbc_progress_end(&prog);
    if (st == NB_OK)
        st = nbb_builder_write_format(b, out, format, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    nbb_builder_free(b);
    if (st != NB_OK) {
        nbb_forest_free(&forest);
        return nbc_fail_err(&err);
    }
    if (verbose) {
        fprintf(stderr, "%s: %s: %zu circles, %u agent radii, %.3f s\n", nbc_prog, out, forest.n,
                nradii,
                (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
        for (unsigned k = 0; k < nradii; k++)
            fprintf(stderr,
                    "  radius %u (%g): %" PRIu32 " nodes, %" PRIu32 " of %" PRIu32
                    " bitangents kept, %" PRIu64 " hugging arcs, %" PRIu32 " free arcs\n",
                    k, info[k].agent_radius, info[k].nodes, info[k].transitions, info[k].candidates,
                    info[k].arcs, info[k].free_arcs);
    }
    nbb_forest_free(&forest);
    return NBC_EXIT_OK;
}
