/* navbake verify: every checksum and the structure of one or more
 * bundles, and with --deep every computed section against what its
 * inputs give; exit 0 only when all are intact. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "progress.h"
#include "world_input.h"

static int usage(void)
{
    printf("Usage: navbake verify [-q] [--deep [--seed N] [--perimeter-tables N|all] [-v]] "
           "BUNDLE...\n"
           "       navbake verify [OPTION]... [--baked FOLDER] MANIFEST.yaml...\n"
           "Check each bundle whole: header, section table (in order, each section\n"
           "once), the CRC-32 of every section, zero padding between sections, that\n"
           "the map uses only characters of its legend, and the structure of every\n"
           "section as the queries check it: a bundle that verifies is one every\n"
           "query accepts.\n"
           "With --deep, also compute every computed section again from the bundle's\n"
           "own inputs and parameters and compare: clearance and component layers\n"
           "(the map, legend and agents), the abstract graph (its weights and stored\n"
           "paths against the clearance layers), hit-check and curve tables (their\n"
           "unit), bitangent graphs (the forest) and a sample of perimeter tables\n"
           "(their model); the first disagreement is reported with its section and\n"
           "position.  A world bundle (navbake world link) is checked with its tiles,\n"
           "DIR/tiles/X_Y.nbb beside it: each has the digest the world's index gives\n"
           "it, says it is that tile, and is verified as a bundle (--deep too).  A\n"
           "world's manifest (formats/world.md) is checked with its world bundle,\n"
           "FOLDER/world.nbw (--baked; default: the manifest's folder), as above, and\n"
           "each tile was baked from the legend, agent set and tile map the manifest\n"
           "names now.  Exit 0 only when every bundle is intact.\n\n"
           "  -q, --quiet                print nothing for intact bundles\n"
           "      --deep                 recompute what can be recomputed (see above)\n"
           "      --seed N               choose the perimeter tables checked with N\n"
           "                             (0 to 4294967295; default %d)\n"
           "      --perimeter-tables N   tables checked per perimeter section, or 'all'\n"
           "                             (default %d)\n"
           "      --baked FOLDER         where a manifest's world was baked (navbake world\n"
           "                             plan -o; default: the manifest's folder)\n"
           "  -v, --verbose              with --deep, the time each section took, on\n"
           "                             standard error\n"
           "      --progress WHEN        with --deep: auto (default: a line on standard\n"
           "                             error when it is a terminal), none, or json\n"
           "  -h, --help                 show this help and exit\n"
           "  -V, --version              show the version and exit\n"
           "Exit status: 0 when every bundle is intact, 1 when one is not or cannot be\n"
           "read (a message for each), 2 on a usage error.\n",
           NBB_DEEP_SEED, NBB_DEEP_PERIMETER_TABLES);
    return NBC_EXIT_OK;
}

typedef struct timing {
    const nb_bundle *b;
    const char *path;
    int verbose;
    nbc_progress *prog; /* counted in the sections' bytes */
    double done;
    size_t current; /* the section being checked: sections go in order */
} timing;

static void section_progress(void *ctx, double fraction)
{
    timing *t = ctx;
    nbc_progress_units(t->prog,
                       t->done + fraction * (double)nb_bundle_section_get(t->b, t->current)->usize);
}

static void section_done(void *ctx, size_t index, int recomputed, double seconds, double cpu)
{
    timing *t = ctx;
    t->done += (double)nb_bundle_section_get(t->b, index)->usize;
    t->current = index + 1;
    nbc_progress_units(t->prog, t->done);
    if (!recomputed || !t->verbose)
        return;
    nbc_progress_clear(t->prog);
    const nb_section_info *in = nb_bundle_section_get(t->b, index);
    fprintf(stderr, "%s: %s: section %zu (%s%s%s): recomputed in %.3f s (%.3f s of CPU)\n",
            nbc_prog, t->path, index, nb_section_type_name(in->type), in->name[0] ? " " : "",
            in->name, seconds, cpu);
}

/* One bundle: 1 when intact. */
static int verify_one(const char *path, int quiet, int deep, int verbose,
                      nbc_progress_mode pmode, nbb_deep_opts *o)
{
    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open(path, NB_OPEN_VERIFY, NULL, &b, &err) != NB_OK) {
        nbc_fail_err(&err);
        return 0;
    }
    /* NB_OPEN_VERIFY made every check of nb_bundle_verify: the checksums,
     * and what a CRC cannot see (a section baked wrong stays consistent
     * with its checksum): every section's structure, as a query checks it. */
    nb_status st = NB_OK;
    nbb_deep_stats stats;
    nbc_progress prog;
    double total = 0;
    for (size_t i = 0; i < nb_bundle_section_count(b); i++)
        total += (double)nb_bundle_section_get(b, i)->usize;
    timing t = {b, path, verbose, &prog, 0, 0};
    o->ctx = &t;
    o->section_done = section_done;
    o->progress = section_progress;
    if (st == NB_OK && deep) {
        nbc_progress_start(&prog, pmode, quiet, path, total, "bytes");
        st = nbb_verify_deep(b, o, &stats, &err);
        nbc_progress_end(&prog);
    }
    if (st != NB_OK)
        nbc_fail_err(&err);
    else if (!quiet) {
        printf("%s: ok, %zu sections, %" PRIu64 " bytes", path, nb_bundle_section_count(b),
               nb_bundle_file_size(b));
        if (deep) {
            printf("; deep: %zu sections recomputed, %" PRIu64 " perimeter entries sampled",
                   stats.recomputed, stats.perimeter_entries);
            if (stats.perimeter_tables_total)
                printf(" (%" PRIu64 " of %" PRIu64 " tables, seed %" PRIu64 ")",
                       stats.perimeter_tables, stats.perimeter_tables_total, o->seed);
        }
        printf("\n");
    }
    int intact = st == NB_OK;
    /* A world bundle: its tiles too, where the link found their borders. */
    uint32_t tiles = 0;
    if (intact && nbb_world_index_tiles(b, &tiles, NULL) == NB_OK) {
        const char *slash = strrchr(path, '/');
        char *dir = strndup(path, slash ? (size_t)(slash - path) : 0);
        for (uint32_t k = 0; dir && k < tiles; k++) {
            char *tile = NULL;
            if (nbb_world_index_tile(b, *dir ? dir : ".", k, &tile, &err) != NB_OK) {
                nbc_fail_err(&err);
                intact = 0;
            } else
                intact &= verify_one(tile, quiet, deep, verbose, pmode, o);
            free(tile);
        }
        free(dir);
    }
    nb_bundle_close(b);
    return intact;
}

/* A world's manifest: its world bundle and tiles verified, then each tile
 * against the files the manifest names.  1 when intact. */
static int verify_manifest(const char *path, const char *baked, int quiet, int deep, int verbose,
                           nbc_progress_mode pmode, nbb_deep_opts *o)
{
    nbc_world_in in;
    nb_bundle *b = NULL;
    if (!nbc_world_in_read(path, baked, &in))
        return 0;
    int intact = verify_one(in.bundle, quiet, deep, verbose, pmode, o) && nbc_world_in_open(&in, &b);
    if (intact && !quiet)
        printf("%s: ok, the world baked in %s from the files it names, %u x %u tiles\n", path,
               in.dir, in.w.columns, in.w.rows);
    nb_bundle_close(b);
    nbc_world_in_free(&in);
    return intact;
}

int nbc_cmd_verify(int argc, char **argv)
{
    enum { OPT_DEEP = 256, OPT_SEED, OPT_TABLES, OPT_BAKED };
    static const struct option opts[] = {{"quiet", no_argument, NULL, 'q'},
                                         {"deep", no_argument, NULL, OPT_DEEP},
                                         {"seed", required_argument, NULL, OPT_SEED},
                                         {"perimeter-tables", required_argument, NULL, OPT_TABLES},
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"baked", required_argument, NULL, OPT_BAKED},
                                         NBC_PROGRESS_OPTION,
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    int quiet = 0, deep = 0, verbose = 0, c;
    const char *baked = NULL;
    nbc_progress_mode pmode = NBC_PROGRESS_AUTO;
    nbb_deep_opts o;
    nbb_deep_defaults(&o);
    unsigned long v;
    while ((c = getopt_long(argc, argv, "qvhV", opts, NULL)) != -1) {
        switch (c) {
        case 'q': quiet = 1; break;
        case OPT_DEEP: deep = 1; break;
        case OPT_SEED:
            if (!nbc_uint("--seed", optarg, 0, 4294967295ul, &v))
                return NBC_EXIT_USAGE;
            o.seed = v;
            break;
        case OPT_TABLES:
            if (strcmp(optarg, "all") == 0)
                o.perimeter_tables = 0;
            else if (!nbc_uint("--perimeter-tables", optarg, 1, 65536, &v))
                return NBC_EXIT_USAGE;
            else
                o.perimeter_tables = (unsigned)v;
            break;
        case 'v': verbose = 1; break;
        case OPT_BAKED: baked = optarg; break;
        case NBC_OPT_PROGRESS:
            if (!nbc_progress_mode_parse(optarg, &pmode))
                return NBC_EXIT_USAGE;
            break;
        case 'h': return usage();
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (optind == argc)
        return nbc_usage("no bundle given");
    int rc = NBC_EXIT_OK;
    for (int i = optind; i < argc; i++)
        if (!(nbc_world_manifest_path(argv[i])
                  ? verify_manifest(argv[i], baked, quiet, deep, verbose, pmode, &o)
                  : verify_one(argv[i], quiet, deep, verbose, pmode, &o)))
            rc = NBC_EXIT_FAIL;
    return rc;
}
