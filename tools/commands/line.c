/* navbake line: whether an agent can walk a straight segment, and if not
 * how far it gets and what stops it (nb_line_find). */
#include <math.h>
#include <stdlib.h>

#include "commands.h"
#include "place_common.h"
#include "place_world.h"

static int usage(FILE *f)
{
    fprintf(f, "Usage: navbake line [OPTION]... BUNDLE|WORLD --from X,Y --to X,Y\n"
               "Test whether an agent can travel the straight segment between two points:\n"
               "its square, slid along it, may meet no cell it cannot enter (touching one is\n"
               "allowed).  A point is the agent's top-left corner in cells, any real from 0\n"
               "to the map's width (X) or height (Y): at X,Y the agent covers the square\n"
               "from X,Y to X+S,Y+S, so at whole numbers it stands on the cell X,Y.\n\n"
               "  -f, --from X,Y          where the agent starts\n"
               "  -t, --to X,Y            where it goes\n");
    nbc_place_help(f);
    fprintf(f, "With --block and --open, their cells are walls for the segment too.\n"
               "When blocked, the last free point (where the agent's square first touches\n"
               "a cell it cannot enter) and that cell are printed.\n"
               "Exit status: 0 the segment clear, 1 a failure, 2 a usage error, 3 the\n"
               "segment blocked (or the agent does not fit at --from).\n"
               "Given a world of tiles (its world bundle or manifest), the segment is walked\n"
               "across its tiles (nb_world_line_find), loading the tiles the walk names and\n"
               "no others; the answer says how many were loaded.\n");
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

static const char *status_name(nb_path_status s)
{
    return s == NB_PATH_FOUND ? "clear" : s == NB_PATH_START_BLOCKED ? "start blocked" : "blocked";
}

/* What the blocking cell is: blocked by --block, a terrain, an obstacle, or outside. */
static const char *cell_kind(const nb_bundle *b, const nb_overlay *ov, nb_cell c)
{
    if (c.x < 0 || c.y < 0 || (uint32_t)c.x >= nb_map_width(b) || (uint32_t)c.y >= nb_map_height(b))
        return "outside the map";
    if (ov && nb_overlay_blocked(ov, c.x, c.y))
        return "blocked (--block)";
    int t = nb_map_terrain(b, c.x, c.y);
    return t < 0 ? "obstacle" : nb_terrain_name(b, (unsigned)t);
}

/* The same, on a world: no terrain is read (a tile's cells are the tile's). */
static const char *world_kind(const nbc_place_world *w, nb_cell c)
{
    if (c.x < 0 || c.y < 0 || (uint32_t)c.x >= w->in.width || (uint32_t)c.y >= w->in.height)
        return "outside the map";
    if (w->ses.overlay && nb_world_overlay_blocked(w->ses.overlay, c.x, c.y))
        return "blocked (--block)";
    return "not walkable";
}

typedef struct answer {
    const nbc_place_session *s; /* a bundle's, or NULL */
    const nbc_place_world *w;   /* else a world's */
    nb_vec2 a, b;
    const nb_line_result *r;
} answer;

static const char *kind_of(const answer *x)
{
    return x->s ? cell_kind(x->s->bundle, x->s->overlay, x->r->blocking)
                : world_kind(x->w, x->r->blocking);
}

static void print_text(const void *ctx, double us)
{
    const answer *x = ctx;
    const nb_line_result *r = x->r;
    if (x->s) {
        nbc_agent_print(&x->s->agent);
        nbc_place_overlay_print(&x->s->agent);
    } else {
        nbc_agent_print(&x->w->agent);
        nbc_place_world_print(x->w);
    }
    double len = hypot(x->b.x - x->a.x, x->b.y - x->a.y);
    printf("segment    %g,%g -> %g,%g (length %.6f)\n", x->a.x, x->a.y, x->b.x, x->b.y, len);
    printf("status     %s\n", status_name(r->status));
    if (r->status != NB_PATH_FOUND) {
        if (r->status == NB_PATH_NONE)
            printf("travelled  %.6f of it (%.6f cells)\nlast       %.6f,%.6f\n", r->t, r->t * len,
                   r->last.x, r->last.y);
        printf("blocking   %d,%d (%s)\n", r->blocking.x, r->blocking.y, kind_of(x));
    }
    printf("examined   %llu cells\ntime       %.1f us\n", (unsigned long long)r->examined, us);
}

static void print_json(const void *ctx, double us)
{
    const answer *x = ctx;
    const nb_line_result *r = x->r;
    printf("{");
    if (x->s) {
        nbc_agent_json(&x->s->agent);
        nbc_place_overlay_json(&x->s->agent);
    } else {
        nbc_agent_json(&x->w->agent);
        nbc_place_world_json(x->w);
    }
    printf(", \"from\": [%.17g, %.17g], \"to\": [%.17g, %.17g], \"status\": \"%s\", "
           "\"clear\": %s, \"t\": %.17g, \"last\": [%.17g, %.17g], \"blocking\": ",
           x->a.x, x->a.y, x->b.x, x->b.y, status_name(r->status),
           r->status == NB_PATH_FOUND ? "true" : "false", r->t, r->last.x, r->last.y);
    if (r->status == NB_PATH_FOUND)
        printf("null");
    else {
        printf("{\"x\": %d, \"y\": %d, \"kind\": ", r->blocking.x, r->blocking.y);
        nbc_json_string(kind_of(x));
        printf("}");
    }
    printf(", \"examined\": %llu, \"microseconds\": %.1f}\n", (unsigned long long)r->examined, us);
}

typedef struct options {
    const char *from, *to;
} options;

static int take(int c, const char *arg, void *ctx)
{
    options *o = ctx;
    switch (c) {
    case 'f': o->from = arg; return NBC_EXIT_OK;
    case 't': o->to = arg; return NBC_EXIT_OK;
    }
    return nbc_bad_option();
}

static void query_of(nb_line_query *q, const nbc_agent *agent, nb_vec2 a, nb_vec2 b)
{
    nb_line_query_init(q);
    q->start = a;
    q->goal = b;
    q->size = agent->size;
    q->capability = agent->capability;
}

/* The segment across a world's tiles, loading what the walk names until it answers. */
static int on_world(const char *path, const nbc_query_opts *o, int json, const char *from,
                    const char *to)
{
    nbc_place_world w;
    double ax, ay, bx, by;
    int rc = nbc_place_world_open(&w, path, o);
    if (rc == NBC_EXIT_OK &&
        (!nbc_real_point("--from", from, 0, w.in.width, 0, w.in.height, &ax, &ay) ||
         !nbc_real_point("--to", to, 0, w.in.width, 0, w.in.height, &bx, &by)))
        rc = NBC_EXIT_USAGE;
    if (rc == NBC_EXIT_OK) {
        nb_line_result r;
        nb_err err;
        answer x = {NULL, &w, {ax, ay}, {bx, by}, &r};
        nb_line_query q;
        query_of(&q, &w.agent, x.a, x.b);
        double t0 = nbc_now_us();
        nb_status st;
        while ((rc = nbc_place_world_retry(&w, st = nb_world_line_find(w.ws, &q, w.ses.overlay, &r,
                                                                       &err), &err)) < 0)
            ;
        if (rc == NBC_EXIT_OK)
            rc = nbc_place_answer(st, &err, nbc_exit_of_path(r.status), json,
                                  nbc_now_us() - t0, print_text, print_json, &x);
    }
    nbc_place_world_close(&w);
    return rc;
}

int nbc_cmd_line(int argc, char **argv)
{
    static const struct option opts[] = {NBC_PLACE_LONG_OPTIONS,
                                         {"from", required_argument, NULL, 'f'},
                                         {"to", required_argument, NULL, 't'},
                                         {NULL, 0, NULL, 0}};
    static const char *const missing[] = {"no bundle given"};
    options op = {NULL, NULL};
    static nbc_edits edits; /* static: a few KB, one per run of the command */
    edits.n = 0;
    nbc_query_opts o = {0, NULL, NULL, NULL, NB_CORNER_STRICT, 0, &edits, 0, 0};
    nbc_place_args args = {opts, NBC_PLACE_SHORT_OPTIONS "f:t:", 1, missing, usage, take, &op};
    int json = 0, rc = nbc_place_parse(argc, argv, &args, &o, &json);
    if (rc >= 0)
        return rc;
    if (!op.from || !op.to)
        return nbc_usage("give both ends: --from X,Y --to X,Y");
    /* The form of the points first, then their range on the map. */
    double ax, ay, bx, by;
    if (!nbc_real_point("--from", op.from, -INFINITY, INFINITY, -INFINITY, INFINITY, &ax, &ay) ||
        !nbc_real_point("--to", op.to, -INFINITY, INFINITY, -INFINITY, INFINITY, &bx, &by))
        return NBC_EXIT_USAGE;
    if (nbc_place_is_world(argv[optind]))
        return on_world(argv[optind], &o, json, op.from, op.to);
    nbc_place_session s;
    rc = nbc_place_open(&s, argv[optind], &o);
    if (rc == NBC_EXIT_OK) {
        double w = nb_map_width(s.bundle), h = nb_map_height(s.bundle);
        if (!nbc_real_point("--from", op.from, 0, w, 0, h, &ax, &ay) ||
            !nbc_real_point("--to", op.to, 0, w, 0, h, &bx, &by))
            rc = NBC_EXIT_USAGE;
    }
    if (rc == NBC_EXIT_OK) {
        nb_line_result r;
        nb_err err;
        answer x = {&s, NULL, {ax, ay}, {bx, by}, &r};
        double t0 = nbc_now_us();
        nb_line_query q;
        query_of(&q, &s.agent, x.a, x.b);
        q.overlay = s.overlay;
        nb_status st = nb_line_find(s.place, &q, &r, &err);
        rc = nbc_place_answer(st, &err, nbc_exit_of_path(r.status), json, nbc_now_us() - t0,
                              print_text, print_json, &x);
    }
    nbc_place_close(&s);
    return rc;
}
