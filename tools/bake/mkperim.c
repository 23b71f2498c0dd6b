/* mkperim: bake a motion model and its abstract perimeter heuristic table
 * into a bundle (Sturtevant 2009; formats/motion.md). */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>

#include "cli.h"
#include "progress.h"

static int usage(FILE *f)
{
    fprintf(f,
            "Usage: mkperim --model MODEL.yaml [OPTION]... -o BUNDLE\n"
            "Add a motion model and its perimeter heuristic table to BUNDLE (created when\n"
            "missing; its other sections are kept).\n\n"
            "  -m, --model FILE        the motion model (YAML; data/models/*.yaml)\n"
            "  -r, --radius R          cells around the goal (default 15: a 31 x 31 window; 1-%d)\n"
            "  -l, --layout L          full, speed-limited, symmetric (default) or rotated\n"
            "  -b, --entry-bits N      16 (fixed point, default) or 32 (float, as in the paper)\n"
            "  -s, --symmetries S      all (default) or paper: the paper's symmetries only\n"
            "  -z, --zlib              store the table compressed\n"
            "  -o, --output BUNDLE     the bundle to update ('-' writes standard output)\n"
            "      --format FORM       write BUNDLE as 'binary' or 'sqlite' (default: sqlite\n"
            "                          when its name ends in .sqlite, .sqlite3 or .db)\n"
            "  -q, --quiet             print nothing but errors\n"
            "      --progress WHEN     auto (default: a line on standard error when it is a\n"
            "                          terminal), none, or json (a JSON object a line)\n"
            "  -h, --help              show this help and exit\n"
            "  -V, --version           show the version and exit\n"
            NBC_EXIT_HELP "See mkperim(1).\n",
            NB_PERIMETER_MAX_RADIUS);
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

static void progress(void *ctx, unsigned done, unsigned total)
{
    nbc_progress *p = ctx;
    p->total = total;
    nbc_progress_units(p, done);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"model", required_argument, NULL, 'm'},  {"radius", required_argument, NULL, 'r'},
        {"layout", required_argument, NULL, 'l'}, {"entry-bits", required_argument, NULL, 'b'},
        {"symmetries", required_argument, NULL, 's'}, {"zlib", no_argument, NULL, 'z'},
        {"output", required_argument, NULL, 'o'}, {"quiet", no_argument, NULL, 'q'},
        NBC_PROGRESS_OPTION,
        NBC_FORMAT_OPTION,
        {"help", no_argument, NULL, 'h'},         {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    const char *model_path = NULL, *out = NULL;
    nbb_perimeter_opts o = {.radius = 15, .layout = NB_PERIM_SYMMETRIC, .entry_bits = 16};
    int quiet = 0, c;
    nbc_progress_mode pmode = NBC_PROGRESS_AUTO;
    unsigned long v;
    nbb_format format = NBB_FORMAT_AUTO;
    nbc_prog = "mkperim";
    argv[0] = (char *)nbc_prog; /* getopt's own messages name it as ours do */
    while ((c = getopt_long(argc, argv, "m:r:l:b:s:zo:qhV", opts, NULL)) != -1) {
        switch (c) {
        case 'm': model_path = optarg; break;
        case 'r':
            if (!nbc_uint("--radius", optarg, 1, NB_PERIMETER_MAX_RADIUS, &v))
                return NBC_EXIT_USAGE;
            o.radius = (unsigned)v;
            break;
        case 'l': {
            int layout = -1;
            for (int k = 0; k <= NB_PERIM_ROTATED; k++)
                if (strcmp(optarg, nb_perimeter_layout_name((nb_perimeter_layout)k)) == 0)
                    layout = k;
            if (layout < 0)
                return nbc_usage("--layout: '%s' is not full, speed-limited, symmetric or rotated",
                                 optarg);
            o.layout = (nb_perimeter_layout)layout;
            break;
        }
        case 'b':
            if (strcmp(optarg, "16") && strcmp(optarg, "32"))
                return nbc_usage("--entry-bits: '%s' is not 16 or 32", optarg);
            o.entry_bits = (unsigned)atoi(optarg);
            break;
        case 's':
            if (strcmp(optarg, "all") && strcmp(optarg, "paper"))
                return nbc_usage("--symmetries: '%s' is not all or paper", optarg);
            o.paper = strcmp(optarg, "paper") == 0;
            break;
        case 'z': o.compress = 1; break;
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
        case 'h': return usage(stdout) == NBC_EXIT_OK ? nbc_close_stdout() : NBC_EXIT_USAGE;
        case 'V':
            nbc_version();
            return nbc_close_stdout();
        default: return nbc_bad_option();
        }
    }
    if (optind < argc)
        return nbc_usage("unexpected argument '%s'", argv[optind]);
    if (!model_path)
        return nbc_usage("no motion model given (--model FILE)");
    if (!out)
        return nbc_usage("no output bundle given (-o BUNDLE)");

    nb_err err;
    nb_model *m = NULL;
    nbb_builder *b = NULL;
    nbb_perimeter_info info;
    nb_status st = nbb_model_load(model_path, &m, &err);
    if (st == NB_OK)
        st = nbb_builder_new(&b, &err);
    if (st == NB_OK)
        st = nbb_builder_load(b, out, 1, &err);
    if (st == NB_OK)
        st = nbb_put_model(b, m, &err);
    if (st == NB_OK) {
        nbc_progress prog;
        nbc_progress_start(&prog, pmode, quiet, nb_model_name(m), 0, "tables");
        o.progress = progress;
        o.ctx = &prog;
        st = nbb_put_perimeter(b, m, &o, &info, &err);
        nbc_progress_end(&prog);
    }
    if (st == NB_OK)
        st = nbb_builder_write_format(b, out, format, &err);
    if (st == NB_OK && !quiet)
        fprintf(stderr,
                "mkperim: %s: %s layout, radius %u, %u table%s%s, %" PRIu64 " entries of %u bits: "
                "%" PRIu64 " bytes of entries, %" PRIu64 " in the file%s\n",
                nb_model_name(m), nb_perimeter_layout_name(o.layout), o.radius, info.tables - info.any_tables,
                info.tables - info.any_tables == 1 ? "" : "s",
                info.any_tables ? " and two for goals at any heading" : "", info.entries, o.entry_bits,
                info.table_bytes, info.stored, o.compress ? " (zlib)" : "");
    nbb_builder_free(b);
    nb_model_close(m);
    if (st != NB_OK)
        return nbc_fail_err(&err);
    return NBC_EXIT_OK;
}
