/* navbake query --forest: a shortest path among round obstacles, on a
 * bundle's baked bitangent graph or with the deferred search (for any
 * agent radius, and for forest YAML files that were never baked). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>

#include "cli.h"
#include "commands.h"
#include "query_common.h"

static int help(void)
{
    printf("Usage: navbake query --forest [OPTION]... FOREST --from X,Y --to X,Y\n"
           "Find the shortest path among round obstacles from one point to another.\n"
           "FOREST is a bundle with a forest (mkabstract --forest) or a forest YAML file\n"
           "('-' reads a bundle from standard input).  A bundle's graph baked for the\n"
           "agent radius is searched when there is one; otherwise the deferred search\n"
           "generates the edges as it goes.\n\n"
           "  --forest              search among round obstacles\n"
           "  -s, --from X,Y        the start (world units, each within +-1e9)\n"
           "  -t, --to X,Y          the goal\n"
           "  -r, --agent-radius R  the agent's radius, 0 to 1e9 (default: the first baked\n"
           "                        radius, or 0 when nothing is baked)\n"
           "  -i, --radius-index I  the graph baked for the I-th agent radius (0 to 63)\n"
           "  -d, --deferred        the deferred search, even when a graph is baked\n"
           "  -b, --baked           the baked graph only (an error when there is none)\n"
           "      --no-prune        keep transitions that cross the one before\n"
           "      --plain           the article's scheme as it stands (straight-line\n"
           "                        heuristic everywhere; the same length, more work)\n"
           "  -S, --sample STEP     also list positions and headings every STEP units\n"
           "                        (1e-9 to 1e9; at most 1000000 samples)\n"
           "  -j, --json            print JSON for programs\n"
           "  -q, --quiet           print the length only\n"
           "  -h, --help            show this help and exit\n"
           "  -V, --version         show the version and exit\n"
           "Exit status: 0 a path found, 1 a failure, 2 a usage error, 3 no path (the\n"
           "circles close one end off from the other, or an end is inside one).\n");
    return NBC_EXIT_OK;
}

static int parse_xy(const char *opt, const char *text, nb_vec2 *p)
{
    const double m = NB_FOREST_MAX_COORD;
    return nbc_real_point(opt, text, -m, m, -m, m, &p->x, &p->y);
}

/* A bundle, or failing its magic a forest YAML file. */
static int is_bundle(const char *path)
{
    if (strcmp(path, "-") == 0)
        return 1;
    FILE *f = fopen(path, "rb");
    unsigned char m[8] = {0};
    size_t n = f ? fread(m, 1, sizeof m, f) : 0;
    if (f)
        fclose(f);
    return !f || (n == 8 && memcmp(m, "\x89NBK\r\n\x1a\n", 8) == 0) ||
           (n >= 6 && memcmp(m, "SQLite", 6) == 0);
}

/* A segment's end (sampled at its length), start angle and signed sweep. */
static void seg_geometry(const nb_segment *g, nb_pose *end, double *from, double *sweep)
{
    nb_segment_sample(g, g->length, end);
    nb_segment_angles(g, from, sweep);
}

static void print_segment_json(const nb_segment *g, int first)
{
    nb_pose e;
    double from, sweep;
    seg_geometry(g, &e, &from, &sweep);
    printf("%s\n    {\"kind\": \"%s\", \"from\": [%.17g, %.17g], \"to\": [%.17g, %.17g], "
           "\"heading\": %.17g, \"length\": %.17g",
           first ? "" : ",", g->kind == NB_SEG_ARC ? "arc" : "line", g->x, g->y, e.x, e.y,
           remainder(g->heading, 2 * M_PI), g->length);
    if (g->kind == NB_SEG_ARC)
        printf(", \"centre\": [%.17g, %.17g], \"radius\": %.17g, \"turn\": %d, "
               "\"start_angle\": %.17g, \"sweep\": %.17g",
               g->cx, g->cy, g->radius, g->turn, from, sweep);
    printf("}");
}

int nbc_query_forest(int argc, char **argv)
{
    enum { OPT_FOREST = 256, OPT_NO_PRUNE, OPT_PLAIN };
    static const struct option opts[] = {{"forest", no_argument, NULL, OPT_FOREST},
                                         {"from", required_argument, NULL, 's'},
                                         {"to", required_argument, NULL, 't'},
                                         {"agent-radius", required_argument, NULL, 'r'},
                                         {"radius-index", required_argument, NULL, 'i'},
                                         {"deferred", no_argument, NULL, 'd'},
                                         {"baked", no_argument, NULL, 'b'},
                                         {"no-prune", no_argument, NULL, OPT_NO_PRUNE},
                                         {"plain", no_argument, NULL, OPT_PLAIN},
                                         {"sample", required_argument, NULL, 'S'},
                                         {"json", no_argument, NULL, 'j'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    nb_vec2 from = {0, 0}, to = {0, 0};
    int have_from = 0, have_to = 0, deferred = 0, baked = 0, json = 0, quiet = 0, c;
    double radius = -1, step = 0;
    unsigned long index = 0;
    int have_index = 0;
    unsigned flags = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "s:t:r:i:dbS:jqhV", opts, NULL)) != -1) {
        switch (c) {
        case OPT_FOREST: break;
        case 's':
            if (!parse_xy("--from", optarg, &from))
                return NBC_EXIT_USAGE;
            have_from = 1;
            break;
        case 't':
            if (!parse_xy("--to", optarg, &to))
                return NBC_EXIT_USAGE;
            have_to = 1;
            break;
        case 'r':
            if (!nbc_real("--agent-radius", optarg, 0, NB_FOREST_MAX_COORD, &radius))
                return NBC_EXIT_USAGE;
            break;
        case 'i':
            if (!nbc_uint("--radius-index", optarg, 0, NB_FOREST_MAX_RADII - 1, &index))
                return NBC_EXIT_USAGE;
            have_index = 1;
            break;
        case 'd': deferred = 1; break;
        case 'b': baked = 1; break;
        case OPT_NO_PRUNE: flags |= NB_FOREST_NO_PRUNE; break;
        case OPT_PLAIN: flags |= NB_FOREST_PLAIN; break;
        case 'S':
            if (!nbc_real("--sample", optarg, 1e-9, NB_FOREST_MAX_COORD, &step))
                return NBC_EXIT_USAGE;
            break;
        case 'j': json = 1; break;
        case 'q': quiet = 1; break;
        case 'h': return help();
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (optind + 1 != argc)
        return nbc_usage(optind == argc ? "no forest given" : "one forest at a time");
    if (!have_from || !have_to)
        return nbc_usage("both --from X,Y and --to X,Y are needed");
    if (deferred && baked)
        return nbc_usage("--deferred and --baked exclude each other");
    if (have_index && radius >= 0)
        return nbc_usage("--agent-radius and --radius-index exclude each other");
    if (have_index && deferred)
        return nbc_usage("--radius-index names a baked graph; --deferred takes --agent-radius");

    const char *path = argv[optind];
    nb_err err;
    nb_bundle *bundle = NULL;
    nb_forest *forest = NULL;
    nb_status st;
    if (is_bundle(path)) {
        if ((st = nb_bundle_open(path, 0, NULL, &bundle, &err)) == NB_OK)
            st = nb_forest_open(bundle, &forest, &err);
    } else {
        nbb_forest f;
        if ((st = nbb_forest_read(path, &f, &err)) == NB_OK) {
            st = nb_forest_open_circles(f.circles, f.n, f.has_bounds ? f.bounds : NULL, NULL, &forest, &err);
            nbb_forest_free(&f);
        }
    }
    int rc = NBC_EXIT_OK;
    nb_forest_ws *ws = NULL;
    if (st != NB_OK) {
        rc = nbc_fail_err(&err);
        goto done;
    }
    /* Which search: the baked graph of the radius asked for, if any. */
    int k = -1;
    if (have_index) {
        if (index >= nb_forest_radius_count(forest)) {
            rc = nbc_fail("%s: no graph baked for radius index %lu (%u baked)", path, index,
                          nb_forest_radius_count(forest));
            goto done;
        }
        k = (int)index;
        radius = nb_forest_radius_get(forest, (unsigned)k);
    } else if (radius >= 0) {
        size_t ki;
        k = !deferred && nb_forest_radius_lookup(forest, radius, &ki, NULL) == NB_OK ? (int)ki : -1;
    } else {
        radius = nb_forest_radius_count(forest) ? nb_forest_radius_get(forest, 0) : 0;
        k = deferred || !nb_forest_radius_count(forest) ? -1 : 0;
    }
    if (baked && k < 0) {
        rc = nbc_fail("%s: no graph baked for the agent radius %g (bake it with mkabstract "
                      "--forest --agent-radius %g, or drop --baked)",
                      path, radius, radius);
        goto done;
    }
    nb_forest_result p;
    nb_forest_query fq;
    nb_forest_query_init(&fq);
    fq.start = from;
    fq.goal = to;
    fq.agent_radius = radius;
    fq.flags = k >= 0 ? flags : flags | NB_FOREST_DEFERRED;
    if ((st = nb_forest_ws_open(forest, &ws, &err)) == NB_OK)
        st = nb_forest_find(ws, &fq, &p, &err);
    if (st != NB_OK) {
        rc = nbc_fail("%s: %s", path, err.msg);
        goto done;
    }
    if (p.status == NB_PATH_START_BLOCKED || p.status == NB_PATH_GOAL_BLOCKED) {
        int s = p.status == NB_PATH_START_BLOCKED;
        nb_vec2 at = s ? from : to;
        const nb_circle *in = nb_forest_circle_get(forest, (size_t)p.blocked_by);
        nbc_fail("%s: the %s (%g, %g) is inside circle %ld (centre (%g, %g), radius %g, %g "
                 "with the agent radius %g): %g from its centre",
                 path, s ? "start" : "goal", at.x, at.y, p.blocked_by, in->x, in->y, in->r,
                 in->r + radius, radius, hypot(at.x - in->x, at.y - in->y));
        rc = nbc_exit_of_path(p.status);
        goto done;
    }
    if (p.status != NB_PATH_FOUND) {
        nbc_fail("%s: no path from (%g, %g) to (%g, %g) for the agent radius %g: the circles "
                 "close one off from the other",
                 path, from.x, from.y, to.x, to.y, radius);
        rc = nbc_exit_of_path(p.status);
        goto done;
    }
    if (quiet) {
        printf("%.9f\n", p.length);
        goto done;
    }
    /* Checked before anything is printed: a refused step prints nothing. */
    size_t ns = 0;
    if (step > 0 && !nbc_samples("--sample", step, p.length, &ns)) {
        rc = NBC_EXIT_USAGE;
        goto done;
    }
    if (json) {
        printf("{\n  \"length\": %.17g,\n  \"search\": \"%s\",\n  \"agent_radius\": %.17g,\n",
               p.length, k >= 0 ? "baked" : "deferred", radius);
        if (k >= 0)
            printf("  \"radius_index\": %d,\n", k);
        printf("  \"expanded\": %zu,\n  \"generated\": %zu,\n  \"pruned\": %zu,\n"
               "  \"los_tests\": %zu,\n  \"circles_opened\": %zu,\n  \"segments\": [",
               p.expanded, p.generated, p.pruned, p.los_tests, p.circles_opened);
        for (size_t i = 0; i < p.segment_len; i++)
            print_segment_json(&p.segments[i], i == 0);
        printf("%s]", p.segment_len ? "\n  " : "");
        if (step > 0) {
            printf(",\n  \"samples\": [");
            for (size_t i = 0; i <= ns; i++) {
                nb_pose q;
                double s = i == ns ? p.length : (double)i * step;
                nb_segments_sample(p.segments, p.segment_len, s, &q);
                printf("%s\n    [%.17g, %.17g, %.17g, %.17g]", i ? "," : "", s, q.x, q.y,
                       remainder(q.heading, 2 * M_PI));
            }
            printf("\n  ]");
        }
        printf("\n}\n");
        goto done;
    }
    printf("length     %.9f\n", p.length);
    if (k >= 0)
        printf("search     baked graph %d (agent radius %g)\n", k, radius);
    else
        printf("search     deferred (agent radius %g): %zu circles opened\n", radius,
               p.circles_opened);
    printf("expanded   %zu states, %zu generated, %zu pruned, %zu line-of-sight tests\n",
           p.expanded, p.generated, p.pruned, p.los_tests);
    printf("segments   %zu\n", p.segment_len);
    for (size_t i = 0; i < p.segment_len; i++) {
        const nb_segment *g = &p.segments[i];
        nb_pose e;
        double a0, sweep;
        seg_geometry(g, &e, &a0, &sweep);
        if (g->kind == NB_SEG_ARC)
            printf("  arc   (%.6f, %.6f) -> (%.6f, %.6f)  length %.6f  centre (%.6f, %.6f) "
                   "radius %.6f sweep %+.6f\n",
                   g->x, g->y, e.x, e.y, g->length, g->cx, g->cy, g->radius, sweep);
        else
            printf("  line  (%.6f, %.6f) -> (%.6f, %.6f)  length %.6f\n", g->x, g->y, e.x, e.y,
                   g->length);
    }
    if (step > 0) {
        printf("samples    every %g: distance x y heading\n", step);
        for (size_t i = 0; i <= ns; i++) {
            nb_pose q;
            double s = i == ns ? p.length : (double)i * step;
            nb_segments_sample(p.segments, p.segment_len, s, &q);
            printf("  %.6f %.6f %.6f %.6f\n", s, q.x, q.y, remainder(q.heading, 2 * M_PI));
        }
    }
done:
    nb_forest_ws_close(ws);
    nb_forest_close(forest);
    nb_bundle_close(bundle);
    return rc;
}

/* --forest takes over 'navbake query'; scenarios are grid-only. */
static int forest_mode(int argc, char **argv, int scen)
{
    if (scen)
        return nbc_usage("--forest: scenario files are for grid maps; use 'navbake query --forest'");
    return nbc_query_forest(argc, argv);
}

const nbc_method nbc_method_forest = {
    .name = "forest",
    .summary = "shortest paths among round obstacles (--forest)",
    .mode_flag = "--forest",
    .mode_main = forest_mode,
};
