/* navbake random: standable cells drawn uniformly from the component of a
 * cell, or from the whole map, reproducibly from a seed
 * (nb_random_find). */
#include <stdlib.h>

#include "commands.h"
#include "place_common.h"

#define MAX_COUNT 1000000

static int usage(FILE *f)
{
    fprintf(f, "Usage: navbake random [OPTION]... BUNDLE\n"
               "Draw cells where an agent may stand, uniformly, from the cells a path joins\n"
               "to --from (default: every standable cell of the map).  The same seed gives\n"
               "the same cells on every machine.\n\n"
               "  -f, --from X,Y          draw from the component of cell X,Y\n"
               "  -n, --count N           draw N cells (1 to 1000000, default 1)\n"
               "      --seed N            the generator's seed (0 to 2^64-1, default 1)\n");
    nbc_place_help(f);
    fprintf(f, "With --block and --open, cells are drawn from those the agent may stand on\n"
               "(and reach from --from) on the map as they leave it, by drawing again.\n"
               "Exit status: 0 cells drawn, 1 a failure, 2 a usage error, 3 none to draw\n"
               "from (the agent cannot stand at --from, or anywhere).\n");
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

enum { OPT_SEED = 0x1100 };

typedef struct options {
    long fx, fy;
    int have_from;
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
    }
    return nbc_bad_option();
}

static void print_head(const nbc_agent *agent, const nb_cell *from, uint64_t seed,
                       const nb_random_result *r, int json)
{
    int found = r->status == NB_PATH_FOUND;
    const char *why = r->status == NB_PATH_START_BLOCKED ? "the agent cannot stand at --from"
                                                         : "the agent can stand nowhere on the map";
    if (!json) {
        nbc_agent_print(agent);
        nbc_place_overlay_print(agent);
        if (!found)
            printf("status     none: %s\n", why);
        else if (from)
            printf("drawn from component %u (of the cell %d,%d): %llu cells, seed %llu\n",
                   r->component, from->x, from->y, (unsigned long long)r->cells,
                   (unsigned long long)seed);
        else
            printf("drawn from every standable cell: %llu cells, seed %llu\n",
                   (unsigned long long)r->cells, (unsigned long long)seed);
        return;
    }
    printf("{");
    nbc_agent_json(agent);
    nbc_place_overlay_json(agent);
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

int nbc_cmd_random(int argc, char **argv)
{
    static const struct option opts[] = {NBC_PLACE_LONG_OPTIONS,
                                         {"from", required_argument, NULL, 'f'},
                                         {"count", required_argument, NULL, 'n'},
                                         {"seed", required_argument, NULL, OPT_SEED},
                                         {NULL, 0, NULL, 0}};
    static const char *const missing[] = {"no bundle given"};
    options op = {0, 0, 0, 1, 1};
    static nbc_edits edits; /* static: a few KB, one per run of the command */
    edits.n = 0;
    nbc_query_opts o = {0, NULL, NULL, NULL, NB_CORNER_STRICT, 0, &edits, 0, 0};
    nbc_place_args args = {opts, NBC_PLACE_SHORT_OPTIONS "f:n:", 1, missing, usage, take, &op};
    int json = 0, rc = nbc_place_parse(argc, argv, &args, &o, &json);
    if (rc >= 0)
        return rc;
    nbc_place_session s;
    rc = nbc_place_open(&s, argv[optind], &o);
    if (rc == NBC_EXIT_OK && op.have_from &&
        !nbc_cell_on_map("--from", op.fx, op.fy, nb_map_width(s.bundle), nb_map_height(s.bundle)))
        rc = NBC_EXIT_USAGE;
    nb_cell from = {(int32_t)op.fx, (int32_t)op.fy};
    const nb_cell *fp = op.have_from ? &from : NULL;
    nb_random_query q;
    nb_random_query_init(&q);
    q.reachable = fp != NULL;
    q.start = from;
    q.seed = op.seed;
    q.size = s.agent.size;
    q.capability = s.agent.capability;
    q.overlay = s.overlay;
    nb_random_result r;
    nb_err err;
    /* The first draw says whether there is anything to draw from. */
    if (rc == NBC_EXIT_OK && nb_random_find(s.place, &q, &r, &err) != NB_OK)
        rc = nbc_fail_err(&err);
    if (rc == NBC_EXIT_OK) {
        int found = r.status == NB_PATH_FOUND;
        print_head(&s.agent, fp, op.seed, &r, json);
        for (unsigned long i = 0; found && i < op.count; i++) {
            q.seed = r.state;
            if (i && nb_random_find(s.place, &q, &r, &err) != NB_OK) {
                rc = nbc_fail_err(&err);
                break;
            }
            if (json)
                printf("%s[%d, %d]", i ? ", " : "", r.cell.x, r.cell.y);
            else
                printf("%d,%d\n", r.cell.x, r.cell.y);
        }
        if (json)
            printf("]}\n");
        if (rc == NBC_EXIT_OK)
            rc = nbc_exit_of_path(r.status);
    }
    nbc_place_close(&s);
    return rc;
}
