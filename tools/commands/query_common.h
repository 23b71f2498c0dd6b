/* query_common.h: what 'navbake query' and 'navbake scen' share: the agent chosen
 * on the command line, and the search methods that answer queries.
 *
 * A method lives in a file of its own (query_aa.c; HAA* and others come
 * the same way) and is listed once in query_methods.c.  A method either
 * answers (start, goal) queries for an agent, which both commands then
 * run, print and time alike (--method NAME), or takes over the whole
 * command when its mode flag is given (a world that is not a grid, such
 * as --forest), parsing its own options. */
#ifndef NB_QUERY_H
#define NB_QUERY_H

#include <getopt.h>

#include "agent_pick.h"
#include "cli.h"
#include "overlay_opts.h"
#include "world_session.h"

/* The agent of a query. */
typedef struct nbc_agent {
    uint32_t size;
    nb_capability capability;
    nb_corner corner;
    uint64_t max_expansions; /* the query's budget (navbake query --max-expansions); 0: none */
    const nb_overlay *overlay; /* cells blocked for the query (--block, --open), or NULL */
    const char *name; /* the agent type's name (agent_pick.h), NULL for a bundle without */
    const char *changed; /* what replaced its fields ("--size"), or NULL */
    char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1]; /* "ground,swamp" */
    const double *costs; /* the agent type's terrain costs (nb_agent.cost), NULL without */
    char costs_text[NB_MAX_TERRAINS * (NB_NAME_MAX + 28) + 1]; /* "swamp 2.5, water 4" */
    unsigned levels; /* HAA*'s most levels of clusters (navbake query --levels); 0: all */
    int partial;     /* the query's partial (navbake query --partial) */
} nbc_agent;

/* One answer. */
typedef struct nbc_answer {
    nb_path_status status;
    double length;
    double cost; /* what the answer is measured by against the optimum: its cost under the
                    agent's terrain costs (a cell path's), else the length of the path returned */
    uint64_t expanded;
    int searched;
    size_t path_len;
    const nb_cell *path; /* valid until the method's next answer */
    unsigned level;      /* HAA*: the level of clusters searched; 0 for other methods */
    int waypoints;       /* 1: the path is waypoints joined by straight segments, not cells */
} nbc_answer;

/* The answer in a library result (nb_aa_result, nb_haa_result and
 * nb_sg_result have these fields under these names), of this cost. */
#define NBC_ANSWER_OF(r, c)                                                                      \
    ((nbc_answer){(r).status, (r).length, (c), (r).expanded, (r).searched, (r).path_len, (r).path, \
                  0, 0})

/* Sets the agent's fields of a query (nb_aa_query and nb_haa_query name them alike): its size,
 * capability, corner rule, terrain costs, budget, overlay and partial. */
#define NBC_QUERY_AGENT(q, a)                                                                    \
    ((q).size = (a)->size, (q).capability = (a)->capability, (q).corner = (a)->corner,           \
     (q).costs = (a)->costs, (q).max_expansions = (a)->max_expansions, (q).overlay = (a)->overlay, \
     (q).partial = (a)->partial)

typedef struct nbc_method {
    const char *name;    /* for --method */
    const char *summary; /* a line for --help */
    /* Grid methods: state for one bundle and agent, answers, cleanup. */
    int (*open)(const nb_bundle *b, const nbc_agent *agent, void **state, nb_err *err);
    nb_status (*solve)(void *state, nb_cell from, nb_cell to, nbc_answer *ans, nb_err *err);
    void (*close)(void *state);
    /* A method with its own mode: when mode_flag ("--forest") is among
     * the arguments, the command hands everything to mode_main (scen is
     * 1 for 'navbake scen'). */
    const char *mode_flag;
    int (*mode_main)(int argc, char **argv, int scen);
    /* A grid method whose paths are not always the shortest (HAA*) gives,
     * apart from its timed answer, the optimal length its answer is
     * measured against (Annotated A*'s, run only when this is called; -1
     * when there is no path), a cost under the agent's terrain costs;
     * scen, and query with --compare, then report the error of the
     * answer's cost.  NULL for exact methods. */
    nb_status (*reference)(void *state, nb_cell from, nb_cell to, double *optimal, nb_err *err);
    /* What the method's own workspace holds now and how long making it took (its reference's
     * apart); NULL when the method does not say. */
    void (*workspace)(void *state, size_t *bytes, double *setup_us);
} nbc_method;

/* Every method, NULL-terminated (query_methods.c); the first is the default. */
extern const nbc_method *const nbc_methods[];
const nbc_method *nbc_method_find(const char *name);
/* The method whose mode flag is among the arguments, or NULL. */
const nbc_method *nbc_method_mode(int argc, char **argv);
/* "aa, haa" for messages and --help. */
void nbc_method_names(char *buf, size_t len);

/* Options both commands take. */
typedef struct nbc_query_opts {
    unsigned long size; /* 0 when not given */
    const char *capability, *agent, *method;
    nb_corner corner;
    uint64_t max_expansions; /* navbake query's --max-expansions; 0: none */
    const nbc_edits *edits;  /* navbake query's --block and --open, or NULL */
    unsigned levels;         /* navbake query's --levels; 0: all */
    int partial;             /* navbake query's --partial */
} nbc_query_opts;

enum { NBC_OPT_SIZE = 0x1000, NBC_OPT_CAPABILITY, NBC_OPT_AGENT, NBC_OPT_CORNER, NBC_OPT_METHOD };
#define NBC_QUERY_LONG_OPTIONS                                                                     \
    {"size", required_argument, NULL, NBC_OPT_SIZE},                                               \
        {"capability", required_argument, NULL, NBC_OPT_CAPABILITY},                               \
        {"agent", required_argument, NULL, NBC_OPT_AGENT},                                         \
        {"corner", required_argument, NULL, NBC_OPT_CORNER},                                       \
    {                                                                                              \
        "method", required_argument, NULL, NBC_OPT_METHOD                                          \
    }
/* Prints the lines of --help for them. */
void nbc_query_help(FILE *f);

/* Takes a shared option: NBC_EXIT_OK, NBC_EXIT_USAGE after a message, or
 * -1 when c is not one of them. */
int nbc_query_option(nbc_query_opts *o, int c, const char *arg);
/* The agent the options name in bundle b, read from path: the rule of
 * every command (agent_pick.h).  Returns an exit status after a message. */
int nbc_query_agent(const nb_bundle *b, const char *path, const nbc_query_opts *o,
                    nbc_agent *agent);

/* "agent      scout (size 1, capability ground,swamp)\n";
 * "agent      wagon with --size (size 3, capability ground)\n" */
void nbc_agent_print(const nbc_agent *a);
/* "\"agent\": \"scout\", \"size\": 1, \"capability\": \"ground,swamp\"" */
void nbc_agent_json(const nbc_agent *a);

/* A bundle opened for queries: the agent resolved, the method ready. */
typedef struct nbc_session {
    nb_bundle *bundle;
    nbc_agent agent;
    const nbc_method *method;
    void *state;
    nb_overlay *overlay; /* of the options' edits, or NULL */
    /* A world of tiles in place of the bundle (bundle NULL then): the
     * method one of query_world.c's, the overlay the world's. */
    nbc_world_session world;
    uint32_t width, height; /* of the map, or of the world */
} nbc_session;

/* Opens the bundle, or the world when path is a world bundle (navbake
 * world link's), finds the agent the options name and opens the method
 * (--method, or the default); returns an exit status after a message.
 * nbc_session_close is safe on a session that failed to open. */
int nbc_session_open(nbc_session *s, const char *path, const nbc_query_opts *o);
void nbc_session_close(nbc_session *s);

/* The method of that name (NULL: aa) across the world's tiles, opened for
 * the agent (query_world.c): NBC_EXIT_OK with *m and *state set, or an
 * exit status after a message (a method that does not take a world is a
 * usage error). */
int nbc_world_method_open(const char *name, nbc_world_session *ws, const nbc_agent *a,
                          const nbc_method **m, void **state);

/* The error of a method with a reference against it, over many answers
 * (query_haa.c). */
typedef struct nbc_error_stats {
    size_t answers, found, mismatch, shorter;
    double sum, max, ref_us; /* error % summed and largest; the reference's time */
    size_t shown;
} nbc_error_stats;
/* Asks the method's reference for one answer (its time apart) and counts
 * it: a status other than the reference's, or a path shorter than its
 * optimum, is a mismatch, printed (up to 10 unless verbose; never with
 * json).  NB_OK, or the reference's error. */
nb_status nbc_error_add(nbc_error_stats *es, const nbc_session *s, nb_cell from, nb_cell to,
                        const nbc_answer *ans, const char *where, int verbose, int json,
                        double *optimal, nb_err *err);
/* The summary lines (text) or JSON members (", \"error_mean_pct\": ..."). */
void nbc_error_print(const nbc_error_stats *es, double method_us, int json);

#endif
