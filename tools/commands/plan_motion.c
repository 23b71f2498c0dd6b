/* navbake plan --model: motion-constrained planning (Sturtevant 2009) on
 * a bundle's map, for people (a table of states) or programs (--json). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "agent_pick.h"
#include "cli.h"
#include "commands.h"

static int usage(FILE *f)
{
    fprintf(f,
            "Usage: navbake plan --model NAME --from X,Y[,H[,S]] --to X,Y[,H[,S]] [OPTION]... BUNDLE\n"
            "Plan a path for a motion model on the bundle's map: states are a cell, a heading\n"
            "(0 to H-1, 0 east) and a speed (a name of the model's, or its level; default the\n"
            "stopped one).\n\n"
            "  -m, --model NAME        a model baked by mkperim, or a model file (NAME.yaml)\n"
            "  -f, --from X,Y[,H[,S]]  the start state\n"
            "  -t, --to X,Y[,H[,S]]    the goal state; H may be 'any' (stop there, any heading),\n"
            "                          and then S too (pass through the cell)\n");
    nbc_agent_help(f, 'a', 0, 0);
    fprintf(f,
            "  -H, --heuristic H       octile, perimeter, extended, grid, perimeter+grid,\n"
            "                          extended+grid, heading, perimeter+heading or\n"
            "                          extended+heading (default extended+heading with a\n"
            "                          perimeter table in the bundle, heading without)\n"
            "      --heading-classes N the heading heuristics: N classes of consecutive\n"
            "                          headings (a divisor of the model's count; cheaper with\n"
            "                          fewer, and weaker; default: the headings the top speed\n"
            "                          may turn across in one action make a class)\n"
            "  -w, --weight W          weighted A*: f = g + W h (default 1)\n"
            "  -k, --truncate K        stop within K cells of the goal (default 0: reach it)\n"
            "  -r, --route             plan through an abstraction, segment by segment\n"
            "      --abstraction A     the route's abstraction (implies --route): sectors\n"
            "                          (default) or haa (the bundle's HAA* graph, baked by\n"
            "                          mkabstract, for the agent's size and capability)\n"
            "      --waypoint-heading  on a route, stop at intermediate goals facing the way in\n"
            "                          (the paper's setup) rather than at any heading\n"
            "      --sector N          sector side in cells (default 6)\n"
            "      --segment N         sectors (or HAA* clusters) per refined segment (default 3)\n"
            "  -n, --max-expansions N  stop after N states expanded per search, with the\n"
            "                          best partial path\n"
            "  -j, --json              print one JSON object\n"
            "  -q, --quiet             print nothing; the exit status tells\n"
            "  -h, --help              show this help and exit\n"
            "  -V, --version           show the version and exit\n"
            "Exit status: 0 a path found, 1 a failure, 2 a usage error, 3 no path (or the\n"
            "start or goal blocked), 4 stopped at --max-expansions (the best partial path\n"
            "printed).\n");
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

/* "X,Y[,H[,S]]" against the model: heading index, speed name or level. */
static int parse_state(const char *opt, const char *text, const nb_model *m, nb_motion_state *s)
{
    char buf[128];
    if (strlen(text) >= sizeof buf)
        return nbc_usage("%s: '%.40s...' is too long", opt, text), 0;
    strcpy(buf, text);
    char *part[4] = {NULL}, *save = NULL;
    int n = 0;
    for (char *t = strtok_r(buf, ",", &save); t && n < 5; t = strtok_r(NULL, ",", &save))
        if (n < 4)
            part[n++] = t;
        else
            n++;
    unsigned long v[3];
    if (n < 2 || n > 4)
        return nbc_usage("%s: '%s' is not X,Y[,HEADING[,SPEED]]", opt, text), 0;
    /* The cell as every command reads one; whether it is on the map is said after. */
    char xy[sizeof buf];
    long x, y;
    snprintf(xy, sizeof xy, "%s,%s", part[0], part[1]);
    if (!nbc_point(opt, xy, &x, &y))
        return 0;
    s->x = (int32_t)x;
    s->y = (int32_t)y;
    s->heading = 0;
    s->speed = (uint16_t)nb_model_stop(m);
    if (n >= 3 && strcmp(part[2], "any") == 0) {
        if (strcmp(opt, "--to") != 0)
            return nbc_usage("%s: only the goal may be at any heading", opt), 0;
        s->heading = NB_HEADING_ANY;
    } else if (n >= 3) {
        if (!nbc_uint(opt, part[2], 0, nb_model_headings(m) - 1, &v[2]))
            return 0;
        s->heading = (uint16_t)v[2];
    }
    if (n == 4 && strcmp(part[3], "any") == 0) {
        if (s->heading != NB_HEADING_ANY)
            return nbc_usage("%s: a speed of 'any' needs a heading of 'any' (pass through the cell)",
                             opt), 0;
        s->speed = NB_SPEED_ANY;
    } else if (n == 4) {
        size_t level;
        int l = nb_model_speed_lookup(m, part[3], &level, NULL) == NB_OK ? (int)level : -1;
        if (l < 0 && part[3][0] >= '0' && part[3][0] <= '9') {
            if (!nbc_uint(opt, part[3], 0, nb_model_speeds(m) - 1, &v[2]))
                return 0;
            l = (int)v[2];
        }
        if (l < 0) {
            char list[256] = "";
            for (unsigned k = 0; k < nb_model_speeds(m); k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "",
                         nb_model_speed_name(m, k));
            nbc_usage("%s: model %s has no speed '%s' (%s)", opt, nb_model_name(m), part[3], list);
            return 0;
        }
        s->speed = (uint16_t)l;
    }
    return 1;
}

static void print_state_json(const nb_model *m, const nb_motion_state *s)
{
    printf("{\"x\": %d, \"y\": %d, \"heading\": ", s->x, s->y);
    if (s->heading == NB_HEADING_ANY)
        printf("null");
    else
        printf("%u", s->heading);
    if (s->speed == NB_SPEED_ANY)
        printf(", \"speed\": null}");
    else {
        printf(", \"speed\": ");
        nbc_json_string(nb_model_speed_name(m, s->speed));
        printf("}");
    }
}

/* Step costs along a path, for the listing. */
static double step_cost(nb_motion *ws, const nb_model *m, const nb_motion_state *a,
                        const nb_motion_state *b)
{
    int H = (int)nb_model_headings(m), t = ((int)b->heading - (int)a->heading + H) % H;
    if (t > H / 2)
        t -= H;
    nb_motion_state to;
    double c;
    for (int k = 0; k < 2; k++, t = t > 0 ? t - H : t + H)
        if (nb_motion_action(ws, a, t, b->speed, &to, &c) && to.x == b->x && to.y == b->y)
            return c;
    return NAN;
}

int nbc_plan_motion(int argc, char **argv)
{
    enum { O_SIZE = 256, O_CAP, O_SECTOR, O_SEGMENT, O_WPH, O_CLASSES, O_ABSTRACTION };
    static const struct option opts[] = {
        {"model", required_argument, NULL, 'm'},     {"from", required_argument, NULL, 'f'},
        {"to", required_argument, NULL, 't'},        {"agent", required_argument, NULL, 'a'},
        {"size", required_argument, NULL, O_SIZE},   {"capability", required_argument, NULL, O_CAP},
        {"heuristic", required_argument, NULL, 'H'}, {"weight", required_argument, NULL, 'w'},
        {"truncate", required_argument, NULL, 'k'},  {"route", no_argument, NULL, 'r'},
        {"sector", required_argument, NULL, O_SECTOR}, {"segment", required_argument, NULL, O_SEGMENT},
        {"max-expansions", required_argument, NULL, 'n'}, {"json", no_argument, NULL, 'j'},
        {"waypoint-heading", no_argument, NULL, O_WPH},
        {"heading-classes", required_argument, NULL, O_CLASSES},
        {"abstraction", required_argument, NULL, O_ABSTRACTION},
        {"quiet", no_argument, NULL, 'q'},           {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},         {NULL, 0, NULL, 0}};
    const char *model_name = NULL, *from = NULL, *to = NULL, *agent_name = NULL, *cap_list = NULL;
    int heuristic = -1, route = 0, json = 0, quiet = 0, wph = 0, abstraction = NB_ROUTE_SECTORS, c;
    unsigned long size = 0, truncate = 0, sector = 6, segment = 3, maxexp = 0, classes = 0;
    double weight = 1;
    nb_err err;
    while ((c = getopt_long(argc, argv, "m:f:t:a:H:w:k:rn:jqhV", opts, NULL)) != -1) {
        switch (c) {
        case 'm': model_name = optarg; break;
        case 'f': from = optarg; break;
        case 't': to = optarg; break;
        case 'a': agent_name = optarg; break;
        case O_SIZE:
            if (!nbc_uint("--size", optarg, 1, NB_MAX_AGENT_SIZE, &size))
                return NBC_EXIT_USAGE;
            break;
        case O_CAP: cap_list = optarg; break;
        case 'H':
            nb_motion_heuristic hh;
            if (nb_motion_heuristic_parse(optarg, &hh, &err) != NB_OK)
                return nbc_usage("--heuristic: %s", err.msg);
            heuristic = (int)hh;
            break;
        case 'w':
            if (!nbc_real("--weight", optarg, 1, 100, &weight))
                return NBC_EXIT_USAGE;
            break;
        case 'k':
            if (!nbc_uint("--truncate", optarg, 0, 1000000, &truncate))
                return NBC_EXIT_USAGE;
            break;
        case 'r': route = 1; break;
        case O_ABSTRACTION:
            nb_route_abstraction ab;
            if (nb_route_abstraction_parse(optarg, &ab, &err) != NB_OK)
                return nbc_usage("--abstraction: %s", err.msg);
            abstraction = (int)ab;
            route = 1;
            break;
        case O_WPH: wph = 1; break;
        case O_CLASSES:
            if (!nbc_uint("--heading-classes", optarg, 1, NB_MODEL_MAX_HEADINGS, &classes))
                return NBC_EXIT_USAGE;
            break;
        case O_SECTOR:
            if (!nbc_uint("--sector", optarg, 2, 1024, &sector))
                return NBC_EXIT_USAGE;
            break;
        case O_SEGMENT:
            if (!nbc_uint("--segment", optarg, 1, 1000, &segment))
                return NBC_EXIT_USAGE;
            break;
        case 'n':
            if (!nbc_uint("--max-expansions", optarg, 1, 4000000000UL, &maxexp))
                return NBC_EXIT_USAGE;
            break;
        case 'j': json = 1; break;
        case 'q': quiet = 1; break;
        case 'h': return usage(stdout);
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (optind + 1 != argc)
        return nbc_usage(optind == argc ? "no bundle given" : "one bundle at a time");
    if (!from || !to)
        return nbc_usage("give the start and the goal (--from X,Y and --to X,Y)");

    nb_bundle *b = NULL;
    nb_model *m = NULL;
    nb_perimeter *p = NULL;
    nb_motion *ws = NULL;
    int rc = NBC_EXIT_OK;
    if (nb_bundle_open(argv[optind], 0, NULL, &b, &err) != NB_OK)
        return nbc_fail_err(&err);
    size_t nl = strlen(model_name);
    if (strchr(model_name, '/') || (nl > 5 && strcmp(model_name + nl - 5, ".yaml") == 0)) {
        if (nbb_model_load(model_name, &m, &err) != NB_OK) {
            rc = nbc_fail_err(&err);
            goto done;
        }
    } else if (nb_model_open(b, model_name, &m, &err) != NB_OK) {
        rc = nbc_fail_err(&err);
        goto done;
    }
    if (nb_perimeter_open(b, m, &p, &err) != NB_OK && err.code != NB_ERR_NOTFOUND) {
        rc = nbc_fail_err(&err);
        goto done;
    }
    if (heuristic < 0)
        heuristic = p ? NB_MH_EXTENDED_HEADING : NB_MH_HEADING;
    nb_motion_query q;
    nb_motion_query_init(&q);
    q.heuristic = heuristic;
    q.weight = weight;
    q.truncate = (unsigned)truncate;
    q.max_expansions = maxexp;
    q.waypoint_heading = wph;
    q.heading_classes = (unsigned)classes;
    q.abstraction = abstraction;
    if (!parse_state("--from", from, m, &q.start) || !parse_state("--to", to, m, &q.goal) ||
        !nbc_cell_on_map("--from", q.start.x, q.start.y, nb_map_width(b), nb_map_height(b)) ||
        !nbc_cell_on_map("--to", q.goal.x, q.goal.y, nb_map_width(b), nb_map_height(b))) {
        rc = NBC_EXIT_USAGE;
        goto done;
    }
    nbc_agent_opts ao = {agent_name, cap_list, size};
    nbc_agent_choice ch;
    if ((rc = nbc_agent_pick(b, argv[optind], &ao, &ch)) != NBC_EXIT_OK)
        goto done;
    nb_capability cap = ch.capability;
    size = ch.size;
    const char *label = ch.type ? ch.type->name : NULL;
    char who[NB_NAME_MAX + 40];
    snprintf(who, sizeof who, "%s%s%s", label ? label : "(size and capability given)",
             ch.changed ? " with " : "", ch.changed ? ch.changed : "");
    int sectors = route && abstraction == NB_ROUTE_SECTORS;
    if (nb_motion_open(b, m, p, cap, (unsigned)size, &ws, &err) != NB_OK ||
        (sectors && nb_motion_use_sectors(ws, (unsigned)sector, &err) != NB_OK) ||
        (route && !sectors && nb_motion_use_haa(ws, &err) != NB_OK)) {
        rc = nbc_fail_err(&err);
        goto done;
    }
    nb_motion_result res;
    size_t segments = 1;
    nb_status st = route ? nb_motion_route_find(ws, &q, (unsigned)segment, NULL, NULL, &res, &segments, &err)
                         : nb_motion_find(ws, &q, &res, &err);
    if (st != NB_OK) {
        rc = nbc_fail_err(&err);
        goto done;
    }
    size_t n = res.path_len;
    const nb_motion_state *path = res.path;
    char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
    nb_capability_format(b, cap, caps, sizeof caps);
    if (json && !quiet) {
        printf("{\"model\": ");
        nbc_json_string(nb_model_name(m));
        printf(", \"agent\": {\"name\": ");
        if (label)
            nbc_json_string(label);
        else
            printf("null");
        printf(", \"size\": %lu, \"capability\": ", size);
        nbc_json_string(caps);
        printf("}, \"heuristic\": \"%s\", \"weight\": %g, \"truncate\": %lu, \"route\": %s",
               nb_motion_heuristic_name(heuristic), weight, truncate, route ? "true" : "false");
        if (route)
            printf(", \"abstraction\": \"%s\"", nb_route_abstraction_name(abstraction));
        printf(",\n \"start\": ");
        print_state_json(m, &q.start);
        printf(", \"goal\": ");
        print_state_json(m, &q.goal);
        int found = res.status == NB_PATH_FOUND, limited = res.status == NB_PATH_LIMIT;
        printf(",\n \"found\": %s, \"limited\": %s", found ? "true" : "false",
               limited ? "true" : "false");
        if (found || limited) /* limited: the best partial path's */
            printf(", \"cost\": %.6f", res.cost);
        printf(", \"segments\": %zu, \"expanded\": %" PRIu64 ", \"generated\": %" PRIu64
               ", \"reopened\": %" PRIu64 ", \"grid_expanded\": %" PRIu64 ",\n \"path\": [",
               segments, res.expanded, res.generated, res.reopened, res.grid_expanded);
        double g = 0;
        for (size_t i = 0; i < n; i++) {
            if (i)
                g += step_cost(ws, m, &path[i - 1], &path[i]);
            printf("%s\n  {\"x\": %d, \"y\": %d, \"heading\": %u, \"speed\": ", i ? "," : "",
                   path[i].x, path[i].y, path[i].heading);
            nbc_json_string(nb_model_speed_name(m, path[i].speed));
            printf(", \"g\": %.6f}", g);
        }
        printf("%s]}\n", n ? "\n " : "");
    } else if (!quiet) {
        printf("model      %s (%u headings, %u speeds)\n", nb_model_name(m), nb_model_headings(m),
               nb_model_speeds(m));
        printf("agent      %s: size %lu, capability %s\n", who, size, caps);
        printf("search     %s heuristic, weight %g%s", nb_motion_heuristic_name(heuristic), weight,
               truncate ? ", truncated" : "");
        if (sectors)
            printf(", route over sectors of %lu, %zu segment%s of %lu", sector, segments,
                   segments == 1 ? "" : "s", segment);
        else if (route)
            printf(", route over the HAA* graph, %zu segment%s of %lu clusters", segments,
                   segments == 1 ? "" : "s", segment);
        printf("\n");
        printf("work       %" PRIu64 " states expanded, %" PRIu64 " generated", res.expanded,
               res.generated);
        if (res.grid_expanded)
            printf(", %" PRIu64 " %s", res.grid_expanded,
                   strstr(nb_motion_heuristic_name(heuristic), "heading") ? "states for the heading heuristic"
                                                                         : "cells for the grid heuristic");
        printf("\n");
        if (res.status == NB_PATH_FOUND || (res.status == NB_PATH_LIMIT && n)) {
            if (res.status == NB_PATH_FOUND)
                printf("path       cost %.4f, %zu states\n", res.cost, n);
            else
                printf("partial    cost %.4f, %zu states (the search stopped at its limit: the "
                       "best partial path)\n",
                       res.cost, n);
            printf("  %5s %6s %6s %7s  %-10s %10s\n", "step", "x", "y", "heading", "speed", "g");
            double g = 0;
            for (size_t i = 0; i < n; i++) {
                if (i)
                    g += step_cost(ws, m, &path[i - 1], &path[i]);
                printf("  %5zu %6d %6d %7u  %-10s %10.4f\n", i, path[i].x, path[i].y,
                       path[i].heading, nb_model_speed_name(m, path[i].speed), g);
            }
        }
    }
    if (res.status != NB_PATH_FOUND) {
        if (!quiet && !json && res.status == NB_PATH_LIMIT)
            nbc_fail("no path found within %" PRIu64 " expansions", res.expanded);
        else if (!quiet && !json && res.status != NB_PATH_NONE)
            nbc_fail("no path: the agent cannot stand at the %s (%d, %d)",
                     res.status == NB_PATH_START_BLOCKED ? "start" : "goal",
                     res.status == NB_PATH_START_BLOCKED ? q.start.x : q.goal.x,
                     res.status == NB_PATH_START_BLOCKED ? q.start.y : q.goal.y);
        else if (!quiet && !json)
            nbc_fail("no path");
    }
    rc = nbc_exit_of_path(res.status);
done:
    nb_motion_close(ws);
    nb_perimeter_close(p);
    nb_model_close(m);
    nb_bundle_close(b);
    return rc;
}
