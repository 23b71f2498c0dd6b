/* navbake random: standable cells drawn uniformly from the component of a
 * cell, or from the whole map, reproducibly from a seed
 * (nb_random_find). */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "place_common.h"
#include "place_world.h"

#define MAX_COUNT 1000000

static int usage(FILE *f)
{
    fprintf(f, "Usage: navbake random [OPTION]... BUNDLE|WORLD\n"
               "Draw cells where an agent may stand, uniformly, from the cells a path joins\n"
               "to --from (default: every standable cell of the map).  The same seed gives\n"
               "the same cells on every machine.\n\n"
               "  -f, --from X,Y          draw from the component of cell X,Y\n"
               "  -n, --count N           draw N cells (1 to 1000000, default 1)\n"
               "      --seed N            the generator's seed (0 to 2^64-1, default 1)\n"
               "      --area X,Y,W,H      on a world: draw from the W x H cells whose top-left\n"
               "                          cell is X,Y (default: the whole world)\n");
    nbc_place_help(f);
    fprintf(f, "With --block and --open, cells are drawn from those the agent may stand on\n"
               "(and reach from --from) on the map as they leave it, by drawing again.\n"
               "Exit status: 0 cells drawn, 1 a failure, 2 a usage error, 3 none to draw\n"
               "from (the agent cannot stand at --from, or anywhere).\n"
               "Given a world of tiles (its world bundle or manifest), cells are drawn across\n"
               "its tiles (nb_world_random_find), loading the tiles --area meets (and that of\n"
               "--from); the answer says how many were loaded.  --from with --block is not\n"
               "answered on a world.\n");
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

enum { OPT_SEED = 0x1100, OPT_AREA };

typedef struct options {
    long fx, fy;
    int have_from;
    int have_area;
    long area[4];
    unsigned long count;
    uint64_t seed;
} options;

static int take(int c, const char *arg, void *ctx)
{
    options *o = ctx;
    switch (c) {
    case 'f':
        o->have_from = 1;
        return nbc_point("--from", arg, &o->fx, &o->fy) ? NBC_EXIT_OK : NBC_EXIT_USAGE;
    case 'n':
        return nbc_uint("--count", arg, 1, MAX_COUNT, &o->count) ? NBC_EXIT_OK : NBC_EXIT_USAGE;
    case OPT_SEED: return nbc_uint64("--seed", arg, &o->seed) ? NBC_EXIT_OK : NBC_EXIT_USAGE;
    case OPT_AREA: {
        char end;
        long *v = o->area;
        if (sscanf(arg, "%ld,%ld,%ld,%ld%c", &v[0], &v[1], &v[2], &v[3], &end) != 4 || v[0] < 0 ||
            v[1] < 0 || v[2] < 1 || v[3] < 1)
            return nbc_usage("--area: '%s' is not a rectangle X,Y,W,H (its top-left cell, and a "
                             "width and height of 1 or more)", arg);
        o->have_area = 1;
        return NBC_EXIT_OK;
    }
    }
    return nbc_bad_option();
}

static void print_head(const nbc_agent *agent, const nbc_place_world *w, const nb_cell *from,
                       uint64_t seed, const nb_random_result *r, int json)
{
    int found = r->status == NB_PATH_FOUND;
    const char *why = r->status == NB_PATH_START_BLOCKED ? "the agent cannot stand at --from"
                                                         : "the agent can stand nowhere on the map";
    if (!json) {
        nbc_agent_print(agent);
        nbc_place_overlay_print(agent);
        if (w)
            nbc_place_world_print(w);
        if (!found)
            printf("status     none: %s\n", why);
        else if (from)
            printf("drawn from component %u (of the cell %d,%d): %llu cells, seed %llu\n",
                   r->component, from->x, from->y, (unsigned long long)r->cells,
                   (unsigned long long)seed);
        else
            printf("drawn from every standable cell%s: %llu cells, seed %llu\n",
                   w ? " of the area" : "", (unsigned long long)r->cells,
                   (unsigned long long)seed);
        return;
    }
    printf("{");
    nbc_agent_json(agent);
    nbc_place_overlay_json(agent);
    if (w)
        nbc_place_world_json(w);
    if (from)
        printf(", \"from\": [%d, %d]", from->x, from->y);
    else
        printf(", \"from\": null");
    printf(", \"seed\": %llu, \"status\": \"%s\", \"found\": %s, \"component\": ",
           (unsigned long long)seed,
           found                                ? "found"
           : r->status == NB_PATH_START_BLOCKED ? "from blocked"
                                                : "none",
           found ? "true" : "false");
    if (from && found)
        printf("%u", r->component);
    else
        printf("null");
    printf(", \"cells\": %llu, \"picks\": [", (unsigned long long)r->cells);
}

static void query_of(nb_random_query *q, const nbc_agent *agent, const options *op)
{
    nb_random_query_init(q);
    q->reachable = op->have_from;
    q->start = (nb_cell){(int32_t)op->fx, (int32_t)op->fy};
    q->seed = op->seed;
    q->size = agent->size;
    q->capability = agent->capability;
}

/* A draw: an exit status (NBC_EXIT_OK, or a failure after its message). */
typedef int (*draw_fn)(void *ctx, const nb_random_query *q, nb_random_result *r);

static int draw_bundle(void *ctx, const nb_random_query *q, nb_random_result *r)
{
    nb_err err;
    if (nb_random_find(((nbc_place_session *)ctx)->place, q, r, &err) != NB_OK)
        return nbc_fail_err(&err);
    return NBC_EXIT_OK;
}

/* A world's draw: its tiles loaded as the query names them. */
typedef struct world_draw {
    nbc_place_world *w;
    long area[4];
} world_draw;

static int draw_world(void *ctx, const nb_random_query *q, nb_random_result *r)
{
    world_draw *d = ctx;
    nb_err err;
    int rc;
    while ((rc = nbc_place_world_retry(d->w, nb_world_random_find(d->w->ws, q, d->w->ses.overlay,
                                                                  d->area[0], d->area[1],
                                                                  d->area[2], d->area[3], r, &err),
                                       &err)) < 0)
        ;
    return rc;
}

/* The draws and their answer: the first draw says whether there is anything to draw from. */
static int draw_all(nb_random_query *q, const options *op, const nbc_agent *agent,
                    const nbc_place_world *w, int json, draw_fn draw, void *ctx)
{
    nb_random_result r;
    nb_cell from = q->start;
    const nb_cell *fp = op->have_from ? &from : NULL;
    int rc = draw(ctx, q, &r);
    if (rc != NBC_EXIT_OK)
        return rc;
    int found = r.status == NB_PATH_FOUND;
    print_head(agent, w, fp, op->seed, &r, json);
    for (unsigned long i = 0; found && i < op->count; i++) {
        q->seed = r.state;
        if (i && (rc = draw(ctx, q, &r)) != NBC_EXIT_OK)
            break;
        if (json)
            printf("%s[%d, %d]", i ? ", " : "", r.cell.x, r.cell.y);
        else
            printf("%d,%d\n", r.cell.x, r.cell.y);
    }
    if (json)
        printf("]}\n");
    return rc == NBC_EXIT_OK ? nbc_exit_of_path(r.status) : rc;
}

/* The draws across a world's tiles, from --area (the whole world by default). */
static int on_world(const char *path, const nbc_query_opts *o, int json, const options *op)
{
    nbc_place_world w;
    int rc = nbc_place_world_open(&w, path, o);
    if (rc == NBC_EXIT_OK && op->have_from &&
        !nbc_cell_on_map("--from", op->fx, op->fy, w.in.width, w.in.height))
        rc = NBC_EXIT_USAGE;
    if (rc == NBC_EXIT_OK) {
        world_draw d = {&w, {0, 0, (long)w.in.width, (long)w.in.height}};
        if (op->have_area)
            memcpy(d.area, op->area, sizeof d.area);
        nb_random_query q;
        query_of(&q, &w.agent, op);
        rc = draw_all(&q, op, &w.agent, &w, json, draw_world, &d);
    }
    nbc_place_world_close(&w);
    return rc;
}

int nbc_cmd_random(int argc, char **argv)
{
    static const struct option opts[] = {NBC_PLACE_LONG_OPTIONS,
                                         {"from", required_argument, NULL, 'f'},
                                         {"count", required_argument, NULL, 'n'},
                                         {"seed", required_argument, NULL, OPT_SEED},
                                         {"area", required_argument, NULL, OPT_AREA},
                                         {NULL, 0, NULL, 0}};
    static const char *const missing[] = {"no bundle given"};
    options op = {0, 0, 0, 0, {0, 0, 0, 0}, 1, 1};
    static nbc_edits edits; /* static: a few KB, one per run of the command */
    edits.n = 0;
    nbc_query_opts o = {0, NULL, NULL, NULL, NB_CORNER_STRICT, 0, &edits, 0, 0};
    nbc_place_args args = {opts, NBC_PLACE_SHORT_OPTIONS "f:n:", 1, missing, usage, take, &op};
    int json = 0, rc = nbc_place_parse(argc, argv, &args, &o, &json);
    if (rc >= 0)
        return rc;
    if (nbc_place_is_world(argv[optind]))
        return on_world(argv[optind], &o, json, &op);
    if (op.have_area)
        return nbc_usage("--area is for a world of tiles; %s is a bundle", argv[optind]);
    nbc_place_session s;
    rc = nbc_place_open(&s, argv[optind], &o);
    if (rc == NBC_EXIT_OK && op.have_from &&
        !nbc_cell_on_map("--from", op.fx, op.fy, nb_map_width(s.bundle), nb_map_height(s.bundle)))
        rc = NBC_EXIT_USAGE;
    nb_random_query q;
    query_of(&q, &s.agent, &op);
    q.overlay = s.overlay;
    if (rc == NBC_EXIT_OK)
        rc = draw_all(&q, &op, &s.agent, NULL, json, draw_bundle, &s);
    nbc_place_close(&s);
    return rc;
}
