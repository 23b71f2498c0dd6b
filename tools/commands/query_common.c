/* query_common.c: the agent and method options of 'navbake query' and 'navbake
 * scen' (see query_common.h). */
#include <stdlib.h>
#include <time.h>

#include "query_common.h"

const nbc_method *nbc_method_find(const char *name)
{
    for (size_t i = 0; nbc_methods[i]; i++)
        if (strcmp(nbc_methods[i]->name, name) == 0)
            return nbc_methods[i];
    return NULL;
}

const nbc_method *nbc_method_mode(int argc, char **argv)
{
    for (size_t i = 0; nbc_methods[i]; i++)
        if (nbc_methods[i]->mode_flag)
            for (int a = 1; a < argc; a++)
                if (strcmp(argv[a], nbc_methods[i]->mode_flag) == 0)
                    return nbc_methods[i];
    return NULL;
}

void nbc_method_names(char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; nbc_methods[i] && at < len; i++)
        if (nbc_methods[i]->solve)
            at +=
                (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", nbc_methods[i]->name);
}

void nbc_query_help(FILE *f)
{
    char names[256];
    nbc_method_names(names, sizeof names);
    fprintf(f,
            "  -a, --agent NAME        the agent type NAME of the bundle's agent set\n"
            "  -s, --size S            agent size in cells per side (default 1)\n"
            "  -c, --capability LIST   the terrains it may enter, by name, separated by\n"
            "                          commas (default ground,swamp, as MovingAI assumes)\n"
            "      --corner RULE       'strict' (default): a diagonal step needs both\n"
            "                          cardinal neighbours free; 'weak': one of them (the\n"
            "                          HAA* paper's rule)\n"
            "  -m, --method NAME       the search: %s (default %s)\n",
            names, nbc_methods[0]->name);
    for (size_t i = 0; nbc_methods[i]; i++)
        fprintf(f, "                            %s: %s\n",
                nbc_methods[i]->mode_flag ? nbc_methods[i]->mode_flag : nbc_methods[i]->name,
                nbc_methods[i]->summary);
}

int nbc_query_option(nbc_query_opts *o, int c, const char *arg)
{
    switch (c) {
    case NBC_OPT_SIZE:
    case 's':
        return nbc_uint("--size", arg, 1, NB_MAX_AGENT_SIZE, &o->size) ? NBC_EXIT_OK
                                                                       : NBC_EXIT_USAGE;
    case NBC_OPT_CAPABILITY:
    case 'c': o->capability = arg; return NBC_EXIT_OK;
    case NBC_OPT_AGENT:
    case 'a': o->agent = arg; return NBC_EXIT_OK;
    case NBC_OPT_METHOD:
    case 'm':
        if (!nbc_method_find(arg) || !nbc_method_find(arg)->solve) {
            char names[256];
            nbc_method_names(names, sizeof names);
            return nbc_usage("--method: unknown method '%s' (known: %s)", arg, names);
        }
        o->method = arg;
        return NBC_EXIT_OK;
    case NBC_OPT_CORNER:
        if (strcmp(arg, "strict") == 0)
            o->corner = NB_CORNER_STRICT;
        else if (strcmp(arg, "weak") == 0)
            o->corner = NB_CORNER_WEAK;
        else
            return nbc_usage("--corner: '%s' is neither 'strict' nor 'weak'", arg);
        return NBC_EXIT_OK;
    }
    return -1;
}

int nbc_query_agent(const nb_bundle *b, const nbc_query_opts *o, nbc_agent *a)
{
    nb_err err;
    memset(a, 0, sizeof *a);
    a->corner = o->corner;
    a->max_expansions = o->max_expansions;
    a->levels = o->levels;
    if (o->agent) {
        if (o->size || o->capability)
            return nbc_usage("--agent gives the size and the capability: do not combine it with "
                             "--size or --capability");
        size_t ti;
        if (nb_agent_lookup(b, o->agent, &ti, &err) != NB_OK)
            return nbc_fail_err(&err);
        const nb_agent *t = nb_agent_get(b, ti);
        a->size = t->size;
        a->capability = t->capability;
        a->name = t->name;
        if (t->weighted) {
            a->costs = t->cost;
            size_t at = 0;
            for (unsigned k = 0; k < nb_terrain_count(b) && at < sizeof a->costs_text; k++)
                if ((t->capability >> k & 1u) && t->cost[k] != 1)
                    at += (size_t)snprintf(a->costs_text + at, sizeof a->costs_text - at, "%s%s %g",
                                           at ? ", " : "", nb_terrain_name(b, k), t->cost[k]);
        }
    } else {
        a->size = o->size ? (uint32_t)o->size : 1;
        if (o->capability) {
            if (nb_capability_parse(b, o->capability, &a->capability, &err) != NB_OK)
                return nbc_usage("--capability: %s", err.msg);
        } else {
            nb_agent def;
            if (nbb_default_agent(b, &def, &err) != NB_OK)
                return nbc_fail("no --capability given, and the bundle's legend has no 'ground' "
                                "and 'swamp' for the default one; give --capability or --agent");
            a->capability = def.capability;
        }
    }
    nb_capability_format(b, a->capability, a->caps, sizeof a->caps);
    return NBC_EXIT_OK;
}

void nbc_agent_print(const nbc_agent *a)
{
    if (a->name && a->costs)
        printf("agent      %s (size %u, capability %s, costs %s)\n", a->name, a->size, a->caps,
               a->costs_text);
    else if (a->name)
        printf("agent      %s (size %u, capability %s)\n", a->name, a->size, a->caps);
    else
        printf("agent      size %u, capability %s\n", a->size, a->caps);
}

void nbc_agent_json(const nbc_agent *a)
{
    printf("\"agent\": ");
    if (a->name)
        nbc_json_string(a->name);
    else
        printf("null");
    printf(", \"size\": %u, \"capability\": ", a->size);
    nbc_json_string(a->caps);
    if (a->costs) {
        printf(", \"costs\": ");
        nbc_json_string(a->costs_text);
    }
}

int nbc_session_open(nbc_session *s, const char *path, const nbc_query_opts *o)
{
    nb_err err;
    memset(s, 0, sizeof *s);
    s->method = o->method ? nbc_method_find(o->method) : nbc_methods[0];
    if (nb_bundle_open(path, 0, NULL, &s->bundle, &err) != NB_OK)
        return nbc_fail_err(&err);
    int rc = nbc_query_agent(s->bundle, o, &s->agent);
    if (rc == NBC_EXIT_OK && o->edits)
        rc = nbc_edits_overlay(o->edits, s->bundle, &s->overlay);
    s->agent.overlay = s->overlay;
    if (rc == NBC_EXIT_OK && s->method->open(s->bundle, &s->agent, &s->state, &err) != NBC_EXIT_OK)
        rc = nbc_fail_err(&err);
    return rc;
}

void nbc_session_close(nbc_session *s)
{
    if (s->state)
        s->method->close(s->state);
    nb_overlay_close(s->overlay);
    nb_bundle_close(s->bundle);
    memset(s, 0, sizeof *s);
}
