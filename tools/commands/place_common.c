/* place_common.c: the arguments, the place and the answer of navbake
 * nearest, line and random (see place_common.h). */
#include "place_common.h"

void nbc_place_help(FILE *f)
{
    nbc_agent_help(f, 'a', 's', 'c');
    nbc_edits_help(f);
    fprintf(f, "  -j, --json              print JSON for programs\n"
               "  -h, --help              show this help and exit\n"
               "  -V, --version           show the version and exit\n");
}

int nbc_place_parse(int argc, char **argv, const nbc_place_args *a, nbc_query_opts *o, int *json)
{
    int c;
    while ((c = getopt_long(argc, argv, a->shortopts, a->opts, NULL)) != -1) {
        int rc;
        switch (c) {
        case 'a':
        case 's':
        case 'c': rc = nbc_query_option(o, c, optarg); break;
        case 'j':
            *json = 1;
            rc = NBC_EXIT_OK;
            break;
        case NBC_OPT_PLACE_BLOCK:
        case NBC_OPT_PLACE_OPEN:
            rc = nbc_edit_option((nbc_edits *)o->edits, c == NBC_OPT_PLACE_BLOCK, optarg);
            break;
        case 'h': return a->usage(stdout);
        case 'V': return nbc_version();
        case '?': return nbc_bad_option();
        default: rc = a->take(c, optarg, a->ctx); break;
        }
        if (rc != NBC_EXIT_OK)
            return rc;
    }
    if (argc - optind < a->npos)
        return nbc_usage("%s", a->missing[argc - optind]);
    if (argc - optind > a->npos)
        return nbc_usage("too many operands ('%s' is extra)", argv[optind + a->npos]);
    return -1;
}

int nbc_place_open(nbc_place_session *s, const char *path, const nbc_query_opts *o)
{
    nb_err err;
    memset(s, 0, sizeof *s);
    if (nb_bundle_open(path, 0, NULL, &s->bundle, &err) != NB_OK)
        return nbc_fail_err(&err);
    if (!nb_has_map(s->bundle))
        return nbc_fail("%s holds no map (bake one with mkclear)", path);
    int rc = nbc_query_agent(s->bundle, path, o, &s->agent);
    if (rc == NBC_EXIT_OK && nb_place_open(s->bundle, &s->place, &err) != NB_OK)
        rc = nbc_fail_err(&err);
    if (rc == NBC_EXIT_OK && o->edits)
        rc = nbc_edits_overlay(o->edits, s->bundle, &s->overlay);
    s->agent.overlay = s->overlay;
    return rc;
}

void nbc_place_close(nbc_place_session *s)
{
    nb_overlay_close(s->overlay);
    nb_place_close(s->place);
    nb_bundle_close(s->bundle);
    memset(s, 0, sizeof *s);
}

void nbc_place_overlay_print(const nbc_agent *a)
{
    if (a->overlay)
        printf("overlay    %llu cells blocked (--block, --open)\n",
               (unsigned long long)nb_overlay_blocked_count(a->overlay));
}

void nbc_place_overlay_json(const nbc_agent *a)
{
    if (a->overlay)
        printf(", \"blocked_cells\": %llu", (unsigned long long)nb_overlay_blocked_count(a->overlay));
}

int nbc_place_answer(nb_status st, const nb_err *err, int code, int json, double us,
                     void (*print_text)(const void *ctx, double us),
                     void (*print_json)(const void *ctx, double us), const void *ctx)
{
    if (st != NB_OK)
        return nbc_fail_err(err);
    (json ? print_json : print_text)(ctx, us);
    return code;
}
