/* place_common.h: what navbake nearest, line and random share: the agent
 * options (-a, -s, -c, as navbake query reads them), --block and --open
 * (overlay_opts.h, as navbake query reads them), --json, --help and
 * --version; the bundle, the place opened for that agent and the overlay
 * of the edits. */
#ifndef NB_PLACE_COMMON_H
#define NB_PLACE_COMMON_H

#include "query_common.h"

enum { NBC_OPT_PLACE_BLOCK = 0x2100, NBC_OPT_PLACE_OPEN };
#define NBC_PLACE_LONG_OPTIONS                                                                     \
    {"agent", required_argument, NULL, 'a'}, {"size", required_argument, NULL, 's'},               \
        {"capability", required_argument, NULL, 'c'}, {"json", no_argument, NULL, 'j'},            \
        {"block", required_argument, NULL, NBC_OPT_PLACE_BLOCK},                                   \
        {"open", required_argument, NULL, NBC_OPT_PLACE_OPEN},                                     \
        {"help", no_argument, NULL, 'h'},                                                          \
    {                                                                                              \
        "version", no_argument, NULL, 'V'                                                          \
    }
#define NBC_PLACE_SHORT_OPTIONS "a:s:c:jhV"

/* The lines of --help for the options above. */
void nbc_place_help(FILE *f);

/* A command's arguments: the options above (the edits into o->edits, which
 * must be set), its own (opts and
 * shortopts hold both; take(c, optarg, ctx) takes its own and returns an
 * exit status, NBC_EXIT_OK to go on), then npos operands (a usage error
 * without them, saying what is missing: one string per operand, "no
 * bundle given" first).  -1 when the command goes on with the operands
 * at argv[optind]; else the exit status to end with (0 after --help or
 * --version). */
typedef struct nbc_place_args {
    const struct option *opts;
    const char *shortopts;
    int npos;
    const char *const *missing;
    int (*usage)(FILE *f);
    int (*take)(int c, const char *arg, void *ctx);
    void *ctx;
} nbc_place_args;
int nbc_place_parse(int argc, char **argv, const nbc_place_args *a, nbc_query_opts *o, int *json);

typedef struct nbc_place_session {
    nb_bundle *bundle;
    nbc_agent agent; /* its overlay: the session's */
    nb_place *place;
    nb_overlay *overlay; /* of the options' edits, or NULL */
} nbc_place_session;

/* Opens the bundle, the place of the agent the options name and the
 * overlay of their edits; an exit status after a message.  Closing is
 * safe after a failed open. */
int nbc_place_open(nbc_place_session *s, const char *path, const nbc_query_opts *o);
void nbc_place_close(nbc_place_session *s);

/* "overlay    12 cells blocked (--block, --open)\n" when the agent's query has
 * one; in JSON, ", \"blocked_cells\": 12". */
void nbc_place_overlay_print(const nbc_agent *a);
void nbc_place_overlay_json(const nbc_agent *a);

/* The end of a query: its error, or the answer printed (print_json when
 * json, else print_text, given ctx and the time it took) and the answer's
 * exit code, code (nbc_exit_of_path). */
int nbc_place_answer(nb_status st, const nb_err *err, int code, int json, double us,
                     void (*print_text)(const void *ctx, double us),
                     void (*print_json)(const void *ctx, double us), const void *ctx);

#endif
