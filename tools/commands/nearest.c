/* navbake nearest: the cell nearest a point where an agent may stand,
 * optionally one it can reach from another cell (nb_nearest_find). */
#include <math.h>
#include <stdlib.h>

#include "commands.h"
#include "place_common.h"

/* The largest --radius: more than the octile diameter of the largest map
 * (16384 sqrt 2 = 23170.5). */
#define MAX_RADIUS 32768.0

static int usage(FILE *f)
{
    fprintf(f, "Usage: navbake nearest [OPTION]... BUNDLE X,Y\n"
               "Find the cell nearest cell X,Y (octile distance) where an agent may stand\n"
               "with its top-left cell; ties go to the least row, then the least column.\n\n"
               "  -r, --reachable-from X,Y  only cells a path joins to cell X,Y\n"
               "  -R, --radius R          look no farther than R cells (0 to 32768,\n"
               "                          default 64)\n");
    nbc_place_help(f);
    fprintf(f, "With --block and --open, the answer is the one on the map as they leave it.\n"
               "The answer is printed whatever it is.  Exit status: 0 a cell found, 1 a\n"
               "failure, 2 a usage error, 3 none found (within the radius, or the agent\n"
               "cannot stand at --reachable-from).\n");
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

static const char *status_name(nb_path_status s)
{
    switch (s) {
    case NB_PATH_FOUND: return "found";
    case NB_PATH_BEYOND_RADIUS: return "beyond radius";
    case NB_PATH_LIMIT: return "budget";
    case NB_PATH_START_BLOCKED: return "from blocked";
    default: return "none";
    }
}

typedef struct answer {
    const nbc_agent *agent;
    const nb_nearest_query *q;
    const nb_nearest_result *r;
} answer;

static void print_text(const void *ctx, double us)
{
    const answer *a = ctx;
    const nb_nearest_query *q = a->q;
    const nb_nearest_result *r = a->r;
    nbc_agent_print(a->agent);
    nbc_place_overlay_print(a->agent);
    printf("point      %d,%d\n", q->point.x, q->point.y);
    printf("radius     %g\n", q->radius);
    if (q->reachable)
        printf("reachable  from %d,%d\n", q->start.x, q->start.y);
    switch (r->status) {
    case NB_PATH_FOUND:
        printf("status     found\ncell       %d,%d\ndistance   %.8f\n", r->cell.x, r->cell.y,
               r->distance);
        break;
    case NB_PATH_BEYOND_RADIUS: printf("status     none within the radius\n"); break;
    case NB_PATH_START_BLOCKED:
        printf("status     none: the agent cannot stand at --reachable-from\n");
        break;
    default: printf("status     none: the agent can stand nowhere on the map\n"); break;
    }
    printf("examined   %llu cells\n", (unsigned long long)r->examined);
    if (a->agent->overlay && q->reachable)
        printf("expanded   %llu cells (reach under the overlay)\n", (unsigned long long)r->expanded);
    printf("time       %.1f us\n", us);
}

static void print_json(const void *ctx, double us)
{
    const answer *a = ctx;
    const nb_nearest_query *q = a->q;
    const nb_nearest_result *r = a->r;
    printf("{");
    nbc_agent_json(a->agent);
    nbc_place_overlay_json(a->agent);
    printf(", \"point\": [%d, %d], \"radius\": %g, \"reachable_from\": ", q->point.x, q->point.y,
           q->radius);
    if (q->reachable)
        printf("[%d, %d]", q->start.x, q->start.y);
    else
        printf("null");
    printf(", \"status\": \"%s\", \"found\": %s, ", status_name(r->status),
           r->status == NB_PATH_FOUND ? "true" : "false");
    if (r->status == NB_PATH_FOUND)
        printf("\"x\": %d, \"y\": %d, \"distance\": %.8f", r->cell.x, r->cell.y, r->distance);
    else
        printf("\"x\": null, \"y\": null, \"distance\": null");
    printf(", \"examined\": %llu, \"expanded\": %llu, \"microseconds\": %.1f}\n",
           (unsigned long long)r->examined, (unsigned long long)r->expanded, us);
}

typedef struct options {
    nb_nearest_query q;
    long fx, fy;
} options;

static int take(int c, const char *arg, void *ctx)
{
    options *o = ctx;
    switch (c) {
    case 'r':
        o->q.reachable = 1;
        return nbc_point("--reachable-from", arg, &o->fx, &o->fy) ? NBC_EXIT_OK : NBC_EXIT_USAGE;
    case 'R':
        return nbc_real("--radius", arg, 0, MAX_RADIUS, &o->q.radius) ? NBC_EXIT_OK
                                                                      : NBC_EXIT_USAGE;
    }
    return nbc_bad_option();
}

int nbc_cmd_nearest(int argc, char **argv)
{
    static const struct option opts[] = {NBC_PLACE_LONG_OPTIONS,
                                         {"reachable-from", required_argument, NULL, 'r'},
                                         {"radius", required_argument, NULL, 'R'},
                                         {NULL, 0, NULL, 0}};
    static const char *const missing[] = {"no bundle given", "no point X,Y given"};
    options op = {.fx = -1, .fy = -1};
    nb_nearest_query_init(&op.q);
    static nbc_edits edits; /* static: a few KB, one per run of the command */
    edits.n = 0;
    nbc_query_opts o = {0, NULL, NULL, NULL, NB_CORNER_STRICT, 0, &edits, 0, 0};
    nbc_place_args args = {opts, NBC_PLACE_SHORT_OPTIONS "r:R:", 2, missing, usage, take, &op};
    int json = 0, rc = nbc_place_parse(argc, argv, &args, &o, &json);
    if (rc >= 0)
        return rc;
    long px, py;
    if (!nbc_point("the point", argv[optind + 1], &px, &py))
        return NBC_EXIT_USAGE;
    nbc_place_session s;
    rc = nbc_place_open(&s, argv[optind], &o);
    if (rc == NBC_EXIT_OK) {
        uint32_t w = nb_map_width(s.bundle), h = nb_map_height(s.bundle);
        if (!nbc_cell_on_map("the point", px, py, w, h) ||
            (op.q.reachable && !nbc_cell_on_map("--reachable-from", op.fx, op.fy, w, h)))
            rc = NBC_EXIT_USAGE;
    }
    if (rc == NBC_EXIT_OK) {
        op.q.point = (nb_cell){(int32_t)px, (int32_t)py};
        op.q.start = (nb_cell){(int32_t)op.fx, (int32_t)op.fy};
        op.q.size = s.agent.size;
        op.q.capability = s.agent.capability;
        op.q.overlay = s.overlay;
        nb_nearest_result r;
        nb_err err;
        double t0 = nbc_now_us();
        nb_status st = nb_nearest_find(s.place, &op.q, &r, &err);
        answer a = {&s.agent, &op.q, &r};
        rc = nbc_place_answer(st, &err, nbc_exit_of_path(r.status), json, nbc_now_us() - t0,
                              print_text, print_json, &a);
    }
    nbc_place_close(&s);
    return rc;
}
