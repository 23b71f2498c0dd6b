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
    fprintf(f, "Usage: navbake nearest [OPTION]... BUNDLE|WORLD X,Y\n"
               "Find the cell nearest cell X,Y (octile distance) where an agent may stand\n"
               "with its top-left cell; ties go to the least row, then the least column.\n"
               "WORLD, a world bundle (navbake world link), is searched across its tiles\n"
               "(nb_world_nearest_find), loading the tiles the search names.\n\n"
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
    const nbc_world_session *world; /* its world's, or NULL on a bundle */
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
    if (a->world)
        nbc_world_session_print(a->world);
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
    printf(", \"examined\": %llu, \"expanded\": %llu, \"microseconds\": %.1f",
           (unsigned long long)r->examined, (unsigned long long)r->expanded, us);
    if (a->world)
        nbc_world_session_json(a->world);
    printf("}\n");
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

/* A world's session for the options' agent, its workspace and its size in cells. */
static int world_open(nbc_world_session *ws, const char *path, const nbc_query_opts *o,
                      nbc_agent *agent, nb_world_aa **waa, uint32_t *w, uint32_t *h)
{
    int rc = nbc_world_session_open(ws, path, o->edits);
    if (rc == NBC_EXIT_OK)
        rc = nbc_query_agent(nb_world_bundle(ws->world), path, o, agent);
    nb_err err;
    if (rc == NBC_EXIT_OK && nb_world_aa_open(ws->world, waa, &err) != NB_OK)
        rc = nbc_fail_err(&err);
    nb_world_info in = {0};
    nb_world_describe(ws->world, &in); /* nothing when the world did not open */
    *w = in.width, *h = in.height;
    return rc;
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
    nbc_world_session ws;
    memset(&s, 0, sizeof s);
    memset(&ws, 0, sizeof ws);
    int world = nbc_path_is_world(argv[optind]);
    nb_world_aa *waa = NULL;
    uint32_t w = 0, h = 0;
    rc = world ? world_open(&ws, argv[optind], &o, &s.agent, &waa, &w, &h)
               : nbc_place_open(&s, argv[optind], &o);
    if (rc == NBC_EXIT_OK && !world)
        w = nb_map_width(s.bundle), h = nb_map_height(s.bundle);
    if (rc == NBC_EXIT_OK &&
        (!nbc_cell_on_map("the point", px, py, w, h) ||
         (op.q.reachable && !nbc_cell_on_map("--reachable-from", op.fx, op.fy, w, h))))
        rc = NBC_EXIT_USAGE;
    if (rc == NBC_EXIT_OK) {
        op.q.point = (nb_cell){(int32_t)px, (int32_t)py};
        op.q.start = (nb_cell){(int32_t)op.fx, (int32_t)op.fy};
        op.q.size = s.agent.size;
        op.q.capability = s.agent.capability;
        op.q.overlay = s.overlay;
        nb_nearest_result r;
        nb_err err;
        double t0 = nbc_now_us();
        nb_status st;
        if (!world)
            st = nb_nearest_find(s.place, &op.q, &r, &err);
        else /* as a game would: load what the search names, and ask again */
            while ((st = nb_world_nearest_find(waa, &op.q, ws.overlay, &r, &err)) ==
                       NB_ERR_UNLOADED &&
                   (st = nbc_world_session_load(&ws, nb_world_aa_needed(waa, ws.need, ws.ntiles),
                                                &err)) == NB_OK)
                ;
        answer a = {&s.agent, &op.q, &r, world ? &ws : NULL};
        rc = nbc_place_answer(st, &err, nbc_exit_of_path(r.status), json, nbc_now_us() - t0,
                              print_text, print_json, &a);
    }
    nb_world_aa_close(waa);
    nbc_world_session_close(&ws);
    nbc_place_close(&s);
    return rc;
}
