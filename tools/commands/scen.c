/* navbake scen: runs a MovingAI scenario file on a bundle and compares
 * every length with the file's optimal one; exit 3 when any differs. */
#include <math.h>
#include <stdlib.h>

#include "commands.h"
#include "progress.h"
#include "query_common.h"

#define DEFAULT_TOLERANCE 1e-4

static int usage(FILE *f)
{
    fprintf(f, "Usage: navbake scen [OPTION]... BUNDLE|WORLD FILE.scen\n"
               "Run every line of a MovingAI scenario file on the bundle's map and compare\n"
               "each path length with the optimal length the file gives.  Prints the lines\n"
               "run, those whose length differs by more than the tolerance, the mean and\n"
               "median microseconds per query and the node expansions per second.\n"
               "WORLD, a world bundle (navbake world link), runs the lines across its\n"
               "tiles, in world cells (methods aa, haa and haa-refined), loading the tiles\n"
               "the queries name.\n\n");
    nbc_query_help(f);
    fprintf(f, "  -T, --tolerance T       a length differs when it is more than T from the\n"
               "                          file's.  Default: 0.0001, or one unit of the\n"
               "                          last decimal for lengths the file writes with\n"
               "                          fewer than 4 decimals (older MovingAI files)\n"
               "  -v, --verbose           list every line that differs (else the first 10)\n"
               "  -j, --json              print JSON for programs\n"
               "      --progress WHEN     auto (default: a line on standard error when it is\n"
               "                          a terminal), none, or json (a JSON object a line)\n"
               "  -h, --help              show this help and exit\n"
               "  -V, --version           show the version and exit\n"
               "The scenario file may be '-' (standard input).  Exit status: 0 every length\n"
               "matches, 1 a failure, 2 a usage error, 3 a length differs (or, for a haa\n"
               "method, an answer is unlike Annotated A*'s).\n");
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int nbc_cmd_scen(int argc, char **argv)
{
    const nbc_method *mode = nbc_method_mode(argc, argv);
    if (mode)
        return mode->mode_main(argc, argv, 1);
    static const struct option opts[] = {NBC_QUERY_LONG_OPTIONS,
                                         {"tolerance", required_argument, NULL, 'T'},
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"json", no_argument, NULL, 'j'},
                                         NBC_PROGRESS_OPTION,
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    nbc_query_opts o = {0, NULL, NULL, NULL, NB_CORNER_STRICT, 0, NULL, 0, 0};
    double tolerance = DEFAULT_TOLERANCE;
    int verbose = 0, json = 0, fixed = 0, c;
    nbc_progress_mode pmode = NBC_PROGRESS_AUTO;
    while ((c = getopt_long(argc, argv, "a:s:c:m:T:vjhV", opts, NULL)) != -1) {
        int r = nbc_query_option(&o, c, optarg);
        if (r >= 0) {
            if (r != NBC_EXIT_OK)
                return r;
            continue;
        }
        switch (c) {
        case 'T':
            if (!nbc_real("--tolerance", optarg, 0, 1e9, &tolerance))
                return NBC_EXIT_USAGE;
            fixed = 1;
            break;
        case 'v': verbose = 1; break;
        case 'j': json = 1; break;
        case NBC_OPT_PROGRESS:
            if (!nbc_progress_mode_parse(optarg, &pmode))
                return NBC_EXIT_USAGE;
            break;
        case 'h': return usage(stdout);
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (argc - optind != 2)
        return nbc_usage(argc - optind < 2 ? "give a bundle and a scenario file"
                                           : "one bundle and one scenario file ('%s' is extra)",
                         argc - optind > 2 ? argv[optind + 2] : "");
    const char *bpath = argv[optind], *spath = argv[optind + 1];
    nb_err err;
    nbb_scen scen = {NULL, 0};
    if (nbb_scen_read(spath, &scen, &err) != NB_OK)
        return nbc_fail_err(&err);
    nbc_session q;
    int rc = nbc_session_open(&q, bpath, &o);
    const nbc_method *m = q.method;
    const nbc_agent a = q.agent;
    if (a.costs)
        rc = nbc_fail("agent '%s' has terrain costs (%s), and the scenario's optimal lengths are "
                      "for an agent without: give one without costs, or --size and --capability",
                      a.name, a.costs_text);
    for (size_t i = 0; i < scen.count && rc == NBC_EXIT_OK; i++)
        if (scen.lines[i].width != q.width || scen.lines[i].height != q.height)
            rc = nbc_fail("%s:%u: the line is for a %u x %u map, the %s is %u x %u", spath,
                          scen.lines[i].line, scen.lines[i].width, scen.lines[i].height,
                          q.world.world ? "world" : "bundle's map", q.width, q.height);
    double *us = rc == NBC_EXIT_OK ? malloc((scen.count ? scen.count : 1) * sizeof *us) : NULL;
    if (rc == NBC_EXIT_OK && !us)
        rc = nbc_fail("out of memory");
    size_t differ = 0, shown = 0, rounded = 0;
    nbc_error_stats es;
    memset(&es, 0, sizeof es);
    uint64_t expanded = 0;
    double total_us = 0, worst = 0;
    nbc_progress prog;
    nbc_progress_start(&prog, pmode, 0, spath, (double)scen.count, "queries");
    for (size_t i = 0; i < scen.count && rc == NBC_EXIT_OK; i++) {
        const nbb_scen_line *l = &scen.lines[i];
        nbc_answer r;
        double t0 = nbc_now_us();
        nb_status st = m->solve(q.state, l->start, l->goal, &r, &err);
        us[i] = nbc_now_us() - t0;
        nbc_progress_units(&prog, (double)i + 1); /* outside the time measured */
        if (st != NB_OK) {
            rc = nbc_fail("%s:%u: %s", spath, l->line, err.msg);
            break;
        }
        total_us += us[i];
        expanded += r.expanded;
        if (m->reference) {
            /* Not always the shortest: measured against Annotated A*, not
             * against the file's lengths (which are for MovingAI's agent). */
            char where[600];
            double opt;
            snprintf(where, sizeof where, "%s:%u", spath, l->line);
            if (verbose)
                nbc_progress_clear(&prog);
            if (nbc_error_add(&es, &q, l->start, l->goal, &r, where, verbose, json, &opt, &err) !=
                NB_OK) {
                rc = nbc_fail("%s: %s", where, err.msg);
                break;
            }
            continue;
        }
        double diff = r.status == NB_PATH_FOUND ? fabs(r.length - l->optimal) : INFINITY;
        if (diff > worst && r.status == NB_PATH_FOUND)
            worst = diff;
        /* Older files write lengths with 6 significant digits (%g), and
         * from single-precision sums: such a length is good to about one
         * unit of its last decimal, so that is the tolerance for it. */
        double tol = tolerance;
        if (!fixed && l->decimals < 4) {
            tol = pow(10, -(double)l->decimals);
            rounded++;
        }
        if (diff > tol) {
            differ++;
            if (!json && (verbose || shown < 10)) {
                shown++;
                nbc_progress_clear(&prog);
                if (r.status == NB_PATH_FOUND)
                    printf("differs    %s:%u: %d,%d -> %d,%d: length %.8f, the file says %.8f\n",
                           spath, l->line, l->start.x, l->start.y, l->goal.x, l->goal.y, r.length,
                           l->optimal);
                else
                    printf("differs    %s:%u: %d,%d -> %d,%d: %s, the file says %.8f\n", spath,
                           l->line, l->start.x, l->start.y, l->goal.x, l->goal.y,
                           nb_path_status_str(r.status), l->optimal);
            }
        }
    }
    nbc_progress_end(&prog);
    if (rc == NBC_EXIT_OK) {
        size_t n = scen.count;
        qsort(us, n, sizeof *us, cmp_double);
        double mean = n ? total_us / (double)n : 0;
        double median = n == 0 ? 0 : n % 2 ? us[n / 2] : (us[n / 2 - 1] + us[n / 2]) / 2;
        double rate = total_us > 0 ? (double)expanded / (total_us / 1e6) : 0;
        if (json) {
            printf("{\"scenario\": ");
            nbc_json_string(spath);
            printf(", \"method\": \"%s\", \"size\": %u, \"capability\": ", m->name, a.size);
            nbc_json_string(a.caps);
            printf(", \"corner\": \"%s\", \"lines\": %zu, \"differ\": %zu, \"tolerance\": %g, "
                   "\"rounded_lines\": %zu, \"max_difference\": %.3g, \"mean_us\": %.2f, "
                   "\"median_us\": %.2f, \"expanded\": %llu, \"expansions_per_second\": %.0f",
                   a.corner == NB_CORNER_WEAK ? "weak" : "strict", n, differ, tolerance, rounded,
                   worst, mean, median, (unsigned long long)expanded, rate);
            if (m->reference)
                nbc_error_print(&es, mean, 1);
            if (q.world.world)
                nbc_world_session_json(&q.world);
            printf("}\n");
        } else {
            if (differ > shown)
                printf("differs    ... and %zu more (--verbose lists them)\n", differ - shown);
            printf("scenario   %s\n", spath);
            if (a.name)
                printf("agent      %s%s%s (size %u, capability %s), %s, %s corners\n", a.name,
                       a.changed ? " with " : "", a.changed ? a.changed : "", a.size, a.caps,
                       m->name, a.corner == NB_CORNER_WEAK ? "weak" : "strict");
            else
                printf("agent      size %u, capability %s, %s, %s corners\n", a.size, a.caps,
                       m->name, a.corner == NB_CORNER_WEAK ? "weak" : "strict");
            if (m->reference) {
                printf("lines      %zu run, %zu paths\n", n, es.found);
                nbc_error_print(&es, mean, 0);
            } else {
                printf("lines      %zu run, %zu differ by more than %g", n, differ, tolerance);
                if (rounded)
                    printf(" (%zu written with fewer decimals: by more than a unit of their last)",
                           rounded);
                printf("\n");
                printf("largest    difference %.3g among the paths found\n", worst);
            }
            printf("time       mean %.1f us, median %.1f us per query\n", mean, median);
            printf("expanded   %llu nodes, %.2f million per second\n", (unsigned long long)expanded,
                   rate / 1e6);
            if (q.world.world)
                nbc_world_session_print(&q.world);
        }
        if (differ || es.mismatch)
            rc = NBC_EXIT_NO; /* every line answered: the answer to "do they match?" is no */
    }
    free(us);
    nbc_session_close(&q);
    nbb_scen_free(&scen);
    return rc;
}
