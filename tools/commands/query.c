/* navbake query: one path query on a bundle: its length, the nodes the
 * search expanded, the time, and the path (--path); --json for programs. */
#include <stdlib.h>

#include "commands.h"
#include "query_common.h"

enum { OPT_BLOCK = 0x2000, OPT_OPEN, OPT_LEVELS, OPT_COMPARE, OPT_PARTIAL };

static int usage(FILE *f)
{
    fprintf(f, "Usage: navbake query [OPTION]... BUNDLE|WORLD --from X,Y --to X,Y\n"
               "Find a shortest path for an agent between two cells (its top-left cell at\n"
               "each end) and print its length, the nodes expanded and the time taken.\n"
               "WORLD, a world bundle (navbake world link), is searched across its tiles\n"
               "(methods aa, haa and haa-refined), loading the tiles a search names.\n\n"
               "  -f, --from X,Y          the start cell (column X, row Y; 0,0 top-left)\n"
               "  -t, --to X,Y            the goal cell\n");
    nbc_query_help(f);
    nbc_edits_help(f);
    fprintf(f, "  -n, --max-expansions N  stop the search after N nodes expanded (1 to\n"
               "                          4000000000; aa and the haa methods) and answer\n"
               "                          with the best partial path\n"
               "      --partial           when no path reaches the goal, the path to the\n"
               "                          reachable cell nearest it (octile distance; ties:\n"
               "                          the least row, then column; not with --compare)\n"
               "      --levels N          the haa methods search at most N levels of clusters\n"
               "                          (1: the abstract graph's own; default: every level\n"
               "                          the bundle has, mkabstract --levels)\n"
               "      --compare           the haa methods: also run Annotated A* for the\n"
               "                          optimum, and print it and the answer's error\n"
               "  -p, --path              print the path's cells too\n"
               "  -j, --json              print JSON for programs\n"
               "  -h, --help              show this help and exit\n"
               "  -V, --version           show the version and exit\n"
               "The answer is printed whatever it is.  Exit status: 0 a path found, 1 a\n"
               "failure, 2 a usage error, 3 no path (the ends not joined, or the agent\n"
               "cannot stand at one; with --partial, the path to the nearest reachable\n"
               "cell printed), 4 stopped by --max-expansions (the best partial path\n"
               "printed).\n");
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

static const char *why(nb_path_status s)
{
    switch (s) {
    case NB_PATH_FOUND: return "found";
    case NB_PATH_NONE: return "no path";
    case NB_PATH_START_BLOCKED: return "no path: the agent cannot stand at the start";
    case NB_PATH_GOAL_BLOCKED: return "no path: the agent cannot stand at the goal";
    case NB_PATH_LIMIT: return "stopped at the expansion limit: the best partial path";
    case NB_PATH_PARTIAL: return "partial: no path to the goal; the path to the reachable cell nearest it";
    default: return nb_path_status_str(s);
    }
}

/* How much longer than the optimum, in %; 0 within rounding. */
static double error_pct(const nbc_answer *r, double optimal)
{
    double e = r->status == NB_PATH_FOUND && optimal > 0 ? 100.0 * (r->cost - optimal) / optimal : 0;
    return e > -1e-9 && e < 1e-9 ? 0 : e;
}

/* A path to print: found, or the best partial path of a search stopped at its limit. */
static int has_path(const nbc_answer *r)
{
    return r->status == NB_PATH_FOUND || r->status == NB_PATH_PARTIAL ||
           (r->status == NB_PATH_LIMIT && r->path_len);
}

/* The method's workspace: its bytes and the microseconds making it took. */
typedef struct wsinfo {
    int known;
    size_t bytes;
    double setup_us;
} wsinfo;

static void print_text(const nbc_agent *a, const char *method, nb_cell from, nb_cell to,
                       const nbc_answer *r, double us, int with_path, const double *optimal,
                       const wsinfo *w, const nbc_world_session *world)
{
    nbc_agent_print(a);
    printf("query      %d,%d -> %d,%d (%s, %s corners)\n", from.x, from.y, to.x, to.y, method,
           a->corner == NB_CORNER_WEAK ? "weak" : "strict");
    if (a->overlay)
        printf("overlay    %llu cells blocked (--block, --open)\n",
               (unsigned long long)nb_overlay_blocked_count(a->overlay));
    printf("status     %s%s\n", why(r->status),
           r->status == NB_PATH_NONE && !r->searched ? " (different components: no search)" : "");
    const char *points = r->waypoints ? "waypoints" : "cells";
    if (r->status == NB_PATH_FOUND)
        printf("length     %.8f (%zu %s)\n", r->length, r->path_len, points);
    else if (has_path(r))
        printf("partial    %.8f (%zu %s, to %d,%d)\n", r->length, r->path_len, points,
               r->path[r->path_len - 1].x, r->path[r->path_len - 1].y);
    if (a->costs && has_path(r))
        printf("cost       %.8f (%s times the terrain costs)\n", r->cost,
               r->waypoints ? "the cell path's length, before smoothing," : "the length");
    if (optimal && *optimal >= 0) { /* a method that may miss the optimum */
        printf("optimal    %.8f (Annotated A*%s)\nerror      %.3f %%", *optimal,
               a->costs ? "'s cost" : "", error_pct(r, *optimal));
        if (r->waypoints)
            printf(a->costs ? " (of the cell path's cost, before smoothing)\n"
                            : " (of the waypoints' length: straight segments, which may be shorter "
                              "than a path of cells)\n");
        else
            putchar('\n');
    }
    printf("expanded   %llu\n", (unsigned long long)r->expanded);
    printf("time       %.1f us\n", us);
    if (w->known)
        printf("workspace  %zu bytes, made in %.1f us\n", w->bytes, w->setup_us);
    if (world->world)
        nbc_world_session_print(world);
    if (with_path && has_path(r)) {
        printf("path      ");
        for (size_t i = 0; i < r->path_len; i++)
            printf(" %d,%d", r->path[i].x, r->path[i].y);
        putchar('\n');
    }
}

static void print_json(const nbc_agent *a, const char *method, nb_cell from, nb_cell to,
                       const nbc_answer *r, double us, int with_path, const double *optimal,
                       const wsinfo *w, const nbc_world_session *world)
{
    static const char *const names[] = {"found",         "no path", "start blocked",
                                        "goal blocked",  "limit",   "beyond radius",
                                        "partial"};
    printf("{\"method\": \"%s\", ", method);
    nbc_agent_json(a);
    printf(", \"corner\": \"%s\", \"from\": [%d, %d], \"to\": [%d, %d], \"status\": \"%s\", "
           "\"found\": %s, ",
           a->corner == NB_CORNER_WEAK ? "weak" : "strict", from.x, from.y, to.x, to.y,
           names[r->status], r->status == NB_PATH_FOUND ? "true" : "false");
    if (a->overlay)
        printf("\"blocked_cells\": %llu, ", (unsigned long long)nb_overlay_blocked_count(a->overlay));
    if (has_path(r))
        printf("\"length\": %.8f, ", r->length);
    else
        printf("\"length\": null, ");
    printf("\"searched\": %s, \"expanded\": %llu, \"microseconds\": %.1f",
           r->searched ? "true" : "false", (unsigned long long)r->expanded, us);
    if (has_path(r))
        printf(", \"cost\": %.8f", r->cost);
    else
        printf(", \"cost\": null");
    if (r->level)
        printf(", \"level\": %u", r->level);
    if (w->known)
        printf(", \"workspace_bytes\": %zu, \"setup_microseconds\": %.1f", w->bytes, w->setup_us);
    if (optimal && *optimal >= 0)
        printf(", \"optimal\": %.8f, \"error_pct\": %.4f", *optimal, error_pct(r, *optimal));
    printf(", \"path_of\": \"%s\"", r->waypoints ? "waypoints" : "cells");
    if (world->world)
        nbc_world_session_json(world);
    if (with_path) {
        printf(", \"path\": [");
        for (size_t i = 0; has_path(r) && i < r->path_len; i++)
            printf("%s[%d, %d]", i ? ", " : "", r->path[i].x, r->path[i].y);
        putchar(']');
    }
    printf("}\n");
}

int nbc_cmd_query(int argc, char **argv)
{
    const nbc_method *mode = nbc_method_mode(argc, argv);
    if (mode)
        return mode->mode_main(argc, argv, 0);
    static const struct option opts[] = {NBC_QUERY_LONG_OPTIONS,
                                         {"from", required_argument, NULL, 'f'},
                                         {"to", required_argument, NULL, 't'},
                                         {"max-expansions", required_argument, NULL, 'n'},
                                         {"block", required_argument, NULL, OPT_BLOCK},
                                         {"open", required_argument, NULL, OPT_OPEN},
                                         {"levels", required_argument, NULL, OPT_LEVELS},
                                         {"compare", no_argument, NULL, OPT_COMPARE},
                                         {"partial", no_argument, NULL, OPT_PARTIAL},
                                         {"path", no_argument, NULL, 'p'},
                                         {"json", no_argument, NULL, 'j'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    static nbc_edits edits; /* static: a few KB, one per run of the command */
    edits.n = 0;
    nbc_query_opts o = {0, NULL, NULL, NULL, NB_CORNER_STRICT, 0, &edits, 0, 0};
    long fx = 0, fy = 0, tx = 0, ty = 0;
    int have_from = 0, have_to = 0, with_path = 0, json = 0, compare = 0, c;
    unsigned long maxexp = 0;
    while ((c = getopt_long(argc, argv, "a:s:c:m:f:t:n:pjhV", opts, NULL)) != -1) {
        int r = nbc_query_option(&o, c, optarg);
        if (r >= 0) {
            if (r != NBC_EXIT_OK)
                return r;
            continue;
        }
        switch (c) {
        case 'f':
            if (!nbc_point("--from", optarg, &fx, &fy))
                return NBC_EXIT_USAGE;
            have_from = 1;
            break;
        case 't':
            if (!nbc_point("--to", optarg, &tx, &ty))
                return NBC_EXIT_USAGE;
            have_to = 1;
            break;
        case 'n':
            if (!nbc_uint("--max-expansions", optarg, 1, 4000000000UL, &maxexp))
                return NBC_EXIT_USAGE;
            o.max_expansions = maxexp;
            break;
        case OPT_LEVELS: {
            unsigned long lv;
            if (!nbc_uint("--levels", optarg, 1, 8, &lv))
                return NBC_EXIT_USAGE;
            o.levels = (unsigned)lv;
            break;
        }
        case OPT_BLOCK:
        case OPT_OPEN: {
            int e = nbc_edit_option(&edits, c == OPT_BLOCK, optarg);
            if (e != NBC_EXIT_OK)
                return e;
            break;
        }
        case OPT_COMPARE: compare = 1; break;
        case OPT_PARTIAL: o.partial = 1; break;
        case 'p': with_path = 1; break;
        case 'j': json = 1; break;
        case 'h': return usage(stdout);
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (optind == argc)
        return nbc_usage("no bundle or world given");
    if (argc - optind > 1)
        return nbc_usage("one bundle or world at a time ('%s' is extra)", argv[optind + 1]);
    if (!have_from || !have_to)
        return nbc_usage("give both ends: --from X,Y --to X,Y");
    const nbc_method *m = o.method ? nbc_method_find(o.method) : nbc_methods[0];
    if (compare && o.partial)
        return nbc_usage("--compare measures paths to the goal; --partial may end elsewhere");
    if (compare && !m->reference)
        return nbc_usage("--compare: the %s method's paths are the shortest already; it measures "
                         "the haa methods against Annotated A*",
                         m->name);
    nbc_session q;
    int rc = nbc_session_open(&q, argv[optind], &o);
    if (rc == NBC_EXIT_OK &&
        (!nbc_cell_on_map("--from", fx, fy, q.width, q.height) ||
         !nbc_cell_on_map("--to", tx, ty, q.width, q.height)))
        rc = NBC_EXIT_USAGE;
    if (rc == NBC_EXIT_OK) {
        nb_cell from = {(int32_t)fx, (int32_t)fy}, to = {(int32_t)tx, (int32_t)ty};
        nbc_answer r;
        nb_err err;
        double t0 = nbc_now_us();
        nb_status st = q.method->solve(q.state, from, to, &r, &err);
        double us = nbc_now_us() - t0;
        /* A method that may miss the optimum is measured against it when
         * asked (--compare: Annotated A* may take far longer than the
         * answer), out of the time above. */
        double opt = -1;
        nbc_error_stats es;
        memset(&es, 0, sizeof es);
        if (st == NB_OK && compare && r.status != NB_PATH_LIMIT)
            st = nbc_error_add(&es, &q, from, to, &r, NULL, 1, json, &opt, &err);
        const double *optimal = compare ? &opt : NULL;
        wsinfo w = {0, 0, 0};
        if (q.method->workspace) {
            w.known = 1;
            q.method->workspace(q.state, &w.bytes, &w.setup_us);
        }
        if (st != NB_OK)
            rc = nbc_fail_err(&err);
        else if (json)
            print_json(&q.agent, q.method->name, from, to, &r, us, with_path, optimal, &w,
                       &q.world);
        else
            print_text(&q.agent, q.method->name, from, to, &r, us, with_path, optimal, &w,
                       &q.world);
        if (st == NB_OK)
            rc = nbc_exit_of_path(r.status); /* as grep without a match: the answer is printed */
        if (rc == NBC_EXIT_OK && es.mismatch)
            rc = NBC_EXIT_FAIL; /* an answer unlike the optimum's is a defect */
    }
    nbc_session_close(&q);
    return rc;
}
