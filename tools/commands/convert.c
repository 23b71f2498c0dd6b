/* navbake convert: a bundle from one form to the other, binary
 * (formats/bundle.md) or SQLite (formats/sqlite.md), every section kept as
 * stored. */
#include <getopt.h>

#include "cli.h"
#include "commands.h"
#include "progress.h"

int nbc_cmd_convert(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         NBC_PROGRESS_OPTION,
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    nbb_format format = NBB_FORMAT_AUTO;
    nbc_progress_mode pmode = NBC_PROGRESS_AUTO;
    int c;
    while ((c = getopt_long(argc, argv, "f:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (!nbc_format("--format", optarg, &format))
                return NBC_EXIT_USAGE;
            break;
        case NBC_OPT_PROGRESS:
            if (!nbc_progress_mode_parse(optarg, &pmode))
                return NBC_EXIT_USAGE;
            break;
        case 'h':
            printf("Usage: navbake convert [--format FORM] IN OUT\n"
                   "Write the bundle IN to OUT in the other form (or the same): binary, the\n"
                   "form to ship, which the runtime maps without copying, or SQLite, a\n"
                   "database to query with the sqlite3 shell (formats/sqlite.md).  Every\n"
                   "section is kept as stored, types this version does not know included, so\n"
                   "binary -> SQLite -> binary gives back the same bytes.  IN is verified\n"
                   "whole first; OUT is replaced atomically.  '-' is standard input or output.\n\n"
                   "  -f, --format FORM  'binary' or 'sqlite' (default: sqlite when OUT ends\n"
                   "                     in .sqlite, .sqlite3 or .db, else binary)\n"
                   "      --progress WHEN  auto (default: a line on standard error when it is\n"
                   "                     a terminal), none, or json (a JSON object a line)\n"
                   "  -h, --help         show this help and exit\n"
                   "  -V, --version      show the version and exit\n" NBC_EXIT_HELP);
            return NBC_EXIT_OK;
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (argc - optind != 2)
        return nbc_usage(argc - optind < 2 ? "give a bundle to read and one to write"
                                           : "one bundle at a time: IN OUT");
    const char *in = argv[optind], *out = argv[optind + 1];
    nb_bundle *b;
    nbb_builder *builder = NULL;
    nb_err err;
    nb_status st = nb_bundle_open(in, NB_OPEN_VERIFY, NULL, &b, &err);
    if (st != NB_OK)
        return nbc_fail_err(&err);
    st = nbb_builder_new(&builder, &err);
    if (st == NB_OK)
        st = nbb_builder_take(builder, b, &err);
    nb_bundle_close(b);
    if (st == NB_OK) {
        nbc_progress prog;
        nbc_progress_start(&prog, pmode, 0, out, 0, "");
        st = nbb_builder_write_progress(builder, out, format, nbc_progress_update, &prog, &err);
        nbc_progress_end(&prog);
    }
    nbb_builder_free(builder);
    return st == NB_OK ? NBC_EXIT_OK : nbc_fail_err(&err);
}
