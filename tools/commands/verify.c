/* navbake verify: every checksum and the structure of one or more
 * bundles; exit 0 only when all are intact. */
#include <getopt.h>
#include <inttypes.h>

#include "cli.h"
#include "commands.h"

int nbc_cmd_verify(int argc, char **argv)
{
    static const struct option opts[] = {{"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    int quiet = 0, c;
    while ((c = getopt_long(argc, argv, "qhV", opts, NULL)) != -1) {
        switch (c) {
        case 'q': quiet = 1; break;
        case 'h':
            printf("Usage: navbake verify [-q] BUNDLE...\n"
                   "Check each bundle whole: header, section table, the CRC-32 of every\n"
                   "section, zero padding between sections, that the map uses only\n"
                   "characters of its legend, and the whole structure of an abstract graph.\n"
                   "Exit 0 only when every bundle is intact.\n\n"
                   "  -q, --quiet    print nothing for intact bundles\n"
                   "  -h, --help     show this help and exit\n"
                   "  -V, --version  show the version and exit\n");
            return NBC_EXIT_OK;
        case 'V': return nbc_version();
        default: return nbc_usage("unknown option");
        }
    }
    if (optind == argc)
        return nbc_usage("no bundle given");
    int rc = NBC_EXIT_OK;
    for (int i = optind; i < argc; i++) {
        nb_bundle *b;
        nb_err err;
        if (nb_bundle_open(argv[i], NB_OPEN_VERIFY, NULL, &b, &err) != NB_OK) {
            rc = nbc_fail_err(&err);
            continue;
        }
        /* What a CRC cannot see: a graph baked wrong stays consistent with
         * its checksum, so its structure is checked as a query would. */
        if (nb_bundle_find(b, NB_SEC_ABSTRACT, NULL, NULL, 0) >= 0) {
            nbb_agraph *g;
            if (nbb_agraph_open(b, &g, &err) != NB_OK) {
                rc = nbc_fail_err(&err);
                nb_bundle_close(b);
                continue;
            }
            nbb_agraph_close(g);
        }
        if (!quiet)
            printf("%s: ok, %zu sections, %" PRIu64 " bytes\n", argv[i], nb_bundle_section_count(b),
                   nb_bundle_file_size(b));
        nb_bundle_close(b);
    }
    return rc;
}
