/* navbake plan --unit: a path for a unit with a turning radius, by
 * Directional A* (with the unit's hit-check and curve tables), smoothing
 * or the hybrid search; printed as the list of segments and the poses
 * sampled along them, or as JSON. */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "cli.h"
#include "commands.h"

static const char *const methods[] = {"directional", "hybrid", "presmooth", "lines"};

static int usage(void)
{
    printf("Usage: navbake plan --unit NAME --from X,Y --to X,Y [OPTION]... BUNDLE\n"
           "Plan a path for a unit with a turning radius (baked by mkhitcheck) from the\n"
           "centre of cell X,Y to the centre of cell X,Y.  Headings are degrees from +x\n"
           "towards +y (0 east, 90 south: clockwise on the map as drawn).\n\n"
           "  -u, --unit NAME           the unit (required)\n"
           "  -f, --from X,Y            the start cell (required)\n"
           "  -H, --heading DEG         the start heading (default 0)\n"
           "  -p, --position X,Y        start at this point of the start cell instead of its\n"
           "                            centre (reals, in cells)\n"
           "  -t, --to X,Y              the goal cell (required)\n"
           "  -g, --goal-heading DEG    arrive facing this way (a multiple of 360/headings)\n"
           "  -m, --method M            directional (default): Directional A*;\n"
           "                            hybrid: 4-connected A*, Smoothing-48 both ways,\n"
           "                            Directional-8 between the failure points;\n"
           "                            presmooth: 4-connected A* and Smoothing-48 only;\n"
           "                            lines: 8-connected A* smoothed with straight lines\n"
           "                            (the unit's width, no turning radius)\n"
           "  -n, --neighbourhood N     8, 24 or 48 (default: as baked)\n"
           "  -s, --smooth              directional: a final simple smoothing pass\n"
           "      --onthefly            compute and sweep curves instead of reading the tables\n"
           "      --forward             no reverse moves even if the unit may reverse\n"
           "      --max-expansions N    stop after N nodes with the best partial path\n"
           "                            (1 to 4000000000)\n"
           "      --max-nodes N         at most N search nodes a query, the planner's cap\n"
           "                            (1 to 4000000000)\n"
           "      --window N            keep the search to an N x N square centred between\n"
           "                            start and goal (Pinter's 60; 1 to %d)\n"
           "      --local-bound         directional: bound the cost to the goal without the\n"
           "                            search back over the cells (more nodes, less memory)\n"
           "      --slice N             run the query N expansions at a time (the sliced\n"
           "                            form a game spreads over frames; 1 to 4000000000)\n"
           "      --step S              sample poses every S cells (default 0.5; 0: none;\n"
           "                            else 0.01 to 1000, at most %d poses)\n"
           "  -j, --json                print JSON\n"
           "  -q, --quiet               print nothing; the exit status says if a path exists\n"
           "  -h, --help                show this help and exit\n"
           "  -V, --version             show the version and exit\n"
           "Exit status: 0 a path found, 1 a failure, 2 a usage error, 3 no path (or the\n"
           "start or goal blocked), 4 stopped at --max-expansions or --max-nodes (the best\n"
           "partial path printed).\n",
           NB_MAP_MAX_SIDE, NBC_MAX_SAMPLES);
    return NBC_EXIT_OK;
}

static double degrees(double rad)
{
    double d = fmod(rad * 180 / M_PI, 360);
    if (d < 0)
        d += 360;
    return d >= 360 - 5e-7 ? 0 : d;
}

static int reals(const char *opt, const char *text, double *x, double *y)
{
    char *end;
    *x = strtod(text, &end);
    if (end == text || *end != ',' || !isfinite(*x))
        goto bad;
    const char *s = end + 1;
    *y = strtod(s, &end);
    if (end == s || *end || !isfinite(*y))
        goto bad;
    return 1;
bad:
    nbc_usage("%s: '%s' is not a point X,Y (two numbers)", opt, text);
    return 0;
}

static void json_pose(const nb_pose *p)
{
    printf("{\"x\": %.6f, \"y\": %.6f, \"heading\": %.6f}", p->x, p->y, degrees(p->heading));
}

/* The smallest --step: a hundred poses a cell. */
#define MIN_STEP 0.01

/* The pose at sample i of last (nbc_samples), and its distance. */
static double sample(const nb_planner_result *r, double step, double len, size_t i, size_t last,
                     nb_pose *p)
{
    double d = i == last ? len : (double)i * step;
    nb_segments_sample(r->segments, r->segment_len, d, p);
    return d;
}

static void print_json(const nb_unit *u, const char *method, unsigned nb, const nb_pose *s, long gx,
                       long gy, const nb_planner_result *r, double step, size_t last)
{
    printf("{\n  \"unit\": {\"name\": ");
    nbc_json_string(u->name);
    printf(", \"radius\": %g, \"width\": %g, \"headings\": %u, \"reverse\": %s},\n", u->radius,
           u->width, u->headings, u->reverse ? "true" : "false");
    printf("  \"method\": \"%s\", \"neighbourhood\": %u,\n  \"start\": ", method, nb);
    json_pose(s);
    printf(", \"goal\": {\"x\": %ld, \"y\": %ld},\n", gx, gy);
    printf("  \"found\": %s, \"partial\": %s, ", r->status == NB_PATH_FOUND ? "true" : "false",
           r->status == NB_PATH_LIMIT ? "true" : "false");
    if (r->status != NB_PATH_FOUND)
        printf("\"reason\": \"%s\", ", r->reason ? r->reason : "no path");
    printf("\"length\": %.6f, \"cost\": %.6f, \"expanded\": %" PRIu64 ", \"generated\": %" PRIu64
           ", \"fallback\": %s,\n",
           r->length, r->cost, r->expanded, r->generated, r->fallback ? "true" : "false");
    printf("  \"segments\": [");
    for (size_t i = 0; i < r->segment_len; i++) {
        const nb_segment *g = &r->segments[i];
        printf("%s\n    {\"kind\": \"%s\", \"gear\": \"%s\", \"x\": %.6f, \"y\": %.6f, "
               "\"heading\": %.6f, \"length\": %.6f",
               i ? "," : "", g->kind == NB_SEG_ARC ? "arc" : "line",
               g->gear < 0 ? "reverse" : "forward", g->x, g->y, degrees(g->heading), g->length);
        if (g->kind == NB_SEG_ARC)
            printf(", \"cx\": %.6f, \"cy\": %.6f, \"radius\": %g, \"turn\": \"%s\"", g->cx, g->cy,
                   g->radius, g->turn > 0 ? "right" : "left");
        printf("}");
    }
    printf("%s],\n  \"waypoints\": [", r->segment_len ? "\n  " : "");
    for (size_t i = 0; i < r->waypoint_len; i++) {
        printf("%s\n    ", i ? "," : "");
        json_pose(&r->waypoints[i]);
    }
    printf("%s],\n  \"poses\": [", r->waypoint_len ? "\n  " : "");
    size_t k = 0;
    if ((r->status == NB_PATH_FOUND || r->status == NB_PATH_LIMIT) && r->segment_len && step > 0) {
        double len = nb_segments_length(r->segments, r->segment_len);
        for (size_t i = 0; i <= last; i++) {
            nb_pose p;
            double d = sample(r, step, len, i, last, &p);
            printf("%s\n    {\"s\": %.6f, \"x\": %.6f, \"y\": %.6f, \"heading\": %.6f}", k++ ? "," : "",
                   d, p.x, p.y, degrees(p.heading));
        }
    }
    printf("%s]\n}\n", k ? "\n  " : "");
}

static void print_text(const nb_unit *u, const char *method, unsigned nb, const nb_planner_result *r,
                       double step, size_t last)
{
    char name[NBC_PRINTABLE_NAME];
    printf("unit %s: radius %g, width %g, %u headings%s; %s",
           nbc_printable(u->name, name, sizeof name), u->radius, u->width, u->headings,
           u->reverse ? ", reverses" : "", method);
    if (strcmp(method, "directional") == 0)
        printf(" (Directional-%u)", nb);
    printf("\n%s: %.3f cells (cost %.3f), %zu waypoints, %zu segments; %" PRIu64
           " nodes expanded, %" PRIu64 " curves found free%s\n",
           r->status == NB_PATH_LIMIT ? "partial path (the search stopped at its limit)" : "path",
           r->length, r->cost, r->waypoint_len, r->segment_len, r->expanded, r->generated,
           r->fallback ? "; the hybrid fell back to Directional-8" : "");
    printf("segments:\n  %3s %-4s %-7s %9s %9s %8s %8s %9s %9s %6s %s\n", "#", "kind", "gear",
           "x", "y", "heading", "length", "centre x", "centre y", "radius", "turn");
    for (size_t i = 0; i < r->segment_len; i++) {
        const nb_segment *g = &r->segments[i];
        printf("  %3zu %-4s %-7s %9.3f %9.3f %8.2f %8.3f", i + 1,
               g->kind == NB_SEG_ARC ? "arc" : "line", g->gear < 0 ? "reverse" : "forward", g->x,
               g->y, degrees(g->heading), g->length);
        if (g->kind == NB_SEG_ARC)
            printf(" %9.3f %9.3f %6g %s", g->cx, g->cy, g->radius, g->turn > 0 ? "right" : "left");
        putchar('\n');
    }
    if (step > 0 && r->segment_len) {
        printf("poses (every %g cells):\n  %9s %9s %9s %8s\n", step, "distance", "x", "y", "heading");
        double len = nb_segments_length(r->segments, r->segment_len);
        for (size_t i = 0; i <= last; i++) {
            nb_pose p;
            double d = sample(r, step, len, i, last, &p);
            printf("  %9.3f %9.3f %9.3f %8.2f\n", d, p.x, p.y, degrees(p.heading));
        }
    }
}

int nbc_plan_unit(int argc, char **argv)
{
    enum { OPT_ONTHEFLY = 256, OPT_FORWARD, OPT_MAXEXP, OPT_STEP, OPT_MAXNODES, OPT_WINDOW,
           OPT_LOCAL, OPT_SLICE };
    static const struct option opts[] = {{"unit", required_argument, NULL, 'u'},
                                         {"from", required_argument, NULL, 'f'},
                                         {"heading", required_argument, NULL, 'H'},
                                         {"position", required_argument, NULL, 'p'},
                                         {"to", required_argument, NULL, 't'},
                                         {"goal-heading", required_argument, NULL, 'g'},
                                         {"method", required_argument, NULL, 'm'},
                                         {"neighbourhood", required_argument, NULL, 'n'},
                                         {"neighborhood", required_argument, NULL, 'n'},
                                         {"smooth", no_argument, NULL, 's'},
                                         {"onthefly", no_argument, NULL, OPT_ONTHEFLY},
                                         {"forward", no_argument, NULL, OPT_FORWARD},
                                         {"max-expansions", required_argument, NULL, OPT_MAXEXP},
                                         {"max-nodes", required_argument, NULL, OPT_MAXNODES},
                                         {"window", required_argument, NULL, OPT_WINDOW},
                                         {"local-bound", no_argument, NULL, OPT_LOCAL},
                                         {"slice", required_argument, NULL, OPT_SLICE},
                                         {"step", required_argument, NULL, OPT_STEP},
                                         {"json", no_argument, NULL, 'j'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    const char *unit = NULL;
    long fx = 0, fy = 0, gx = 0, gy = 0;
    int have_from = 0, have_to = 0;
    double heading = 0, goal_heading = NAN, px = NAN, py = NAN, step = 0.5;
    unsigned long method = 0, nb = 0, maxexp = 0, maxnodes = 0, window = 0, slice = 0;
    unsigned flags = 0;
    int json = 0, quiet = 0, c;
    while ((c = getopt_long(argc, argv, "u:f:H:p:t:g:m:n:sjqhV", opts, NULL)) != -1) {
        switch (c) {
        case 'u': unit = optarg; break;
        case 'f':
            if (!nbc_point("--from", optarg, &fx, &fy))
                return NBC_EXIT_USAGE;
            have_from = 1;
            break;
        case 'H':
            if (!nbc_real("--heading", optarg, -3600, 3600, &heading))
                return NBC_EXIT_USAGE;
            break;
        case 'p':
            if (!reals("--position", optarg, &px, &py))
                return NBC_EXIT_USAGE;
            break;
        case 't':
            if (!nbc_point("--to", optarg, &gx, &gy))
                return NBC_EXIT_USAGE;
            have_to = 1;
            break;
        case 'g':
            if (!nbc_real("--goal-heading", optarg, -3600, 3600, &goal_heading))
                return NBC_EXIT_USAGE;
            break;
        case 'm':
            for (method = 0; method < 4 && strcmp(optarg, methods[method]) != 0; method++)
                ;
            if (method == 4)
                return nbc_usage("--method: '%s'; expected directional, hybrid, presmooth or lines",
                                 optarg);
            break;
        case 'n':
            if (!nbc_neighbourhood(optarg, &nb))
                return NBC_EXIT_USAGE;
            break;
        case 's': flags |= NB_PLAN_SMOOTH; break;
        case OPT_ONTHEFLY: flags |= NB_PLAN_ONTHEFLY; break;
        case OPT_FORWARD: flags |= NB_PLAN_FORWARD; break;
        case OPT_MAXEXP:
            if (!nbc_uint("--max-expansions", optarg, 1, 4000000000UL, &maxexp))
                return NBC_EXIT_USAGE;
            break;
        case OPT_MAXNODES:
            if (!nbc_uint("--max-nodes", optarg, 1, 4000000000UL, &maxnodes))
                return NBC_EXIT_USAGE;
            break;
        case OPT_WINDOW:
            if (!nbc_uint("--window", optarg, 1, NB_MAP_MAX_SIDE, &window))
                return NBC_EXIT_USAGE;
            break;
        case OPT_LOCAL: flags |= NB_PLAN_LOCAL_BOUND; break;
        case OPT_SLICE:
            if (!nbc_uint("--slice", optarg, 1, 4000000000UL, &slice))
                return NBC_EXIT_USAGE;
            break;
        case OPT_STEP:
            if (!nbc_real("--step", optarg, 0, 1000, &step))
                return NBC_EXIT_USAGE;
            if (step > 0 && step < MIN_STEP)
                return nbc_usage("--step: '%s' is below %g cells (0 samples no poses)", optarg,
                                 MIN_STEP);
            break;
        case 'j': json = 1; break;
        case 'q': quiet = 1; break;
        case 'h': return usage();
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (!unit)
        return nbc_usage("no unit given (--unit NAME)");
    if (!have_from)
        return nbc_usage("no start given (--from X,Y)");
    if (!have_to)
        return nbc_usage("no goal given (--to X,Y)");
    if (optind == argc)
        return nbc_usage("no bundle given");
    if (optind + 1 < argc)
        return nbc_usage("one bundle only ('%s' too)", argv[optind + 1]);
    if (!isnan(px) && (floor(px) != fx || floor(py) != fy))
        return nbc_usage("--position %g,%g is not in the start cell %ld,%ld", px, py, fx, fy);

    nb_err err;
    nb_bundle *b = NULL;
    nb_planner *p = NULL;
    int rc = NBC_EXIT_FAIL;
    if (nb_bundle_open(argv[optind], 0, NULL, &b, &err) != NB_OK ||
        nb_planner_open(b, unit, &p, &err) != NB_OK) {
        rc = nbc_fail_err(&err);
        goto done;
    }
    const nb_unit *u = nb_planner_unit(p);
    if (!nbc_cell_on_map("--from", fx, fy, nb_map_width(b), nb_map_height(b)) ||
        !nbc_cell_on_map("--to", gx, gy, nb_map_width(b), nb_map_height(b))) {
        rc = NBC_EXIT_USAGE;
        goto done;
    }
    nb_planner_query q;
    nb_planner_query_init(&q);
    q.start.x = isnan(px) ? fx + 0.5 : px;
    q.start.y = isnan(py) ? fy + 0.5 : py;
    q.start.heading = heading * M_PI / 180;
    q.goal.x = gx;
    q.goal.y = gy;
    q.goal_heading = -1;
    if (!isnan(goal_heading)) {
        double k = goal_heading * u->headings / 360;
        if (fabs(k - round(k)) > 1e-9) {
            rc = nbc_usage("--goal-heading %g: unit '%s' has %u headings, every %g degrees",
                           goal_heading, u->name, u->headings, 360.0 / u->headings);
            goto done;
        }
        long ki = lround(k) % (long)u->headings;
        q.goal_heading = (int)(ki < 0 ? ki + u->headings : ki);
    }
    q.method = (unsigned)method;
    q.neighbourhood = (unsigned)nb;
    q.flags = flags;
    q.max_expansions = maxexp;
    q.window = (unsigned)window;
    nb_planner_set_max_nodes(p, maxnodes);
    nb_planner_result r;
    unsigned long slices = 0;
    nb_status st;
    if (slice) {
        /* As a game would, a slice a frame. */
        int finished = 0;
        st = nb_planner_begin(p, &q, &err);
        while (st == NB_OK && !finished) {
            st = nb_planner_step(p, slice, &finished, &err);
            slices++;
        }
        if (st == NB_OK)
            st = nb_planner_finish(p, &r, &err);
    } else {
        st = nb_planner_find(p, &q, &r, &err);
    }
    if (st != NB_OK) {
        rc = nbc_fail_err(&err);
        goto done;
    }
    unsigned shown = nb ? (unsigned)nb : u->neighbourhood;
    /* Checked before anything is printed: a refused step prints nothing. */
    size_t last = 0;
    if (!quiet && step > 0 && (r.status == NB_PATH_FOUND || r.status == NB_PATH_LIMIT) &&
        r.segment_len &&
        !nbc_samples("--step", step, nb_segments_length(r.segments, r.segment_len), &last)) {
        rc = NBC_EXIT_USAGE;
        goto done;
    }
    if (slice && !quiet && !json)
        printf("in %lu slices of at most %lu expansions\n", slices, slice);
    if (!quiet && json)
        print_json(u, methods[method], shown, &q.start, gx, gy, &r, step, last);
    else if (!quiet && (r.status == NB_PATH_FOUND || r.status == NB_PATH_LIMIT))
        print_text(u, methods[method], shown, &r, step, last);
    if (r.status == NB_PATH_START_BLOCKED || r.status == NB_PATH_GOAL_BLOCKED) {
        int s = r.status == NB_PATH_START_BLOCKED;
        if (!quiet)
            nbc_fail("the %s cell (%ld, %ld) is blocked for unit '%s'", s ? "start" : "goal",
                     s ? (long)floor(q.start.x) : gx, s ? (long)floor(q.start.y) : gy, u->name);
    } else if (r.status != NB_PATH_FOUND) {
        if (!quiet)
            nbc_fail("no path from %ld,%ld to %ld,%ld for unit '%s': %s", fx, fy, gx, gy, u->name,
                     r.reason ? r.reason : "none");
    }
    rc = nbc_exit_of_path(r.status);
done:
    nb_planner_close(p);
    nb_bundle_close(b);
    return rc;
}
