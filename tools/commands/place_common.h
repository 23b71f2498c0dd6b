/* place_common.h: what navbake nearest, line and random share: the agent
 * options (-a, -s, -c, as navbake query reads them), --json, --help and
 * --version; the bundle and the place opened for that agent. */
#ifndef NB_PLACE_COMMON_H
#define NB_PLACE_COMMON_H

#include "query_common.h"

#define NBC_PLACE_LONG_OPTIONS                                                                     \
    {"agent", required_argument, NULL, 'a'}, {"size", required_argument, NULL, 's'},               \
        {"capability", required_argument, NULL, 'c'}, {"json", no_argument, NULL, 'j'},            \
        {"help", no_argument, NULL, 'h'},                                                          \
    {                                                                                              \
        "version", no_argument, NULL, 'V'                                                          \
    }
#define NBC_PLACE_SHORT_OPTIONS "a:s:c:jhV"

/* The lines of --help for the options above. */
void nbc_place_help(FILE *f);

/* A command's arguments: the options above, its own (opts and
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
    nbc_agent agent;
    nb_place *place;
} nbc_place_session;

/* Opens the bundle and the place of the agent the options name; an exit
 * status after a message.  Closing is safe after a failed open. */
int nbc_place_open(nbc_place_session *s, const char *path, const nbc_query_opts *o);
void nbc_place_close(nbc_place_session *s);

/* The end of a query: its error, or the answer printed (print_json when
 * json, else print_text, given ctx and the time it took) and the answer's
 * exit code, code (nbc_exit_of_path). */
int nbc_place_answer(nb_status st, const nb_err *err, int code, int json, double us,
                     void (*print_text)(const void *ctx, double us),
                     void (*print_json)(const void *ctx, double us), const void *ctx);

#endif
