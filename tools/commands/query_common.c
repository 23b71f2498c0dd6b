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
    nbc_agent_help(f, 'a', 's', 'c');
    fprintf(f,
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

int nbc_query_agent(const nb_bundle *b, const char *path, const nbc_query_opts *o, nbc_agent *a)
{
    memset(a, 0, sizeof *a);
    a->corner = o->corner;
    a->max_expansions = o->max_expansions;
    a->levels = o->levels;
    a->partial = o->partial;
    nbc_agent_opts ao = {o->agent, o->capability, o->size};
    nbc_agent_choice ch;
    int rc = nbc_agent_pick(b, path, &ao, &ch);
    if (rc != NBC_EXIT_OK)
        return rc;
    a->size = ch.size;
    a->capability = ch.capability;
    a->name = ch.type ? ch.type->name : NULL;
    a->changed = ch.changed;
    a->costs = ch.costs;
    size_t at = 0;
    for (unsigned k = 0; a->costs && k < nb_terrain_count(b) && at < sizeof a->costs_text; k++)
        if ((a->capability >> k & 1u) && a->costs[k] != 1)
            at += (size_t)snprintf(a->costs_text + at, sizeof a->costs_text - at, "%s%s %g",
                                   at ? ", " : "", nb_terrain_name(b, k), a->costs[k]);
    nb_capability_format(b, a->capability, a->caps, sizeof a->caps);
    return NBC_EXIT_OK;
}

void nbc_agent_print(const nbc_agent *a)
{
    printf("agent      ");
    if (a->name)
        printf("%s%s%s ", a->name, a->changed ? " with " : "", a->changed ? a->changed : "");
    printf("(size %u, capability %s", a->size, a->caps);
    if (a->costs && a->costs_text[0])
        printf(", costs %s", a->costs_text);
    printf(")\n");
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

/* The session on a world: its agents are the world bundle's. */
static int world_open(nbc_session *s, const char *path, const nbc_query_opts *o)
{
    int rc = nbc_world_session_open(&s->world, path, o->edits);
    if (rc == NBC_EXIT_OK)
        rc = nbc_query_agent(nb_world_bundle(s->world.world), path, o, &s->agent);
    if (rc == NBC_EXIT_OK) {
        nb_world_info in;
        nb_world_describe(s->world.world, &in);
        s->width = in.width;
        s->height = in.height;
        rc = nbc_world_method_open(o->method, &s->world, &s->agent, &s->method, &s->state);
    }
    if (rc != NBC_EXIT_OK)
        s->state = NULL;
    return rc;
}

int nbc_session_open(nbc_session *s, const char *path, const nbc_query_opts *o)
{
    nb_err err;
    memset(s, 0, sizeof *s);
    s->method = o->method ? nbc_method_find(o->method) : nbc_methods[0];
    if (nb_bundle_open(path, 0, NULL, &s->bundle, &err) != NB_OK)
        return nbc_fail_err(&err);
    if (nbc_bundle_is_world(s->bundle)) {
        nb_bundle_close(s->bundle);
        s->bundle = NULL;
        return world_open(s, path, o);
    }
    s->width = nb_map_width(s->bundle);
    s->height = nb_map_height(s->bundle);
    int rc = nbc_query_agent(s->bundle, path, o, &s->agent);
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
    nbc_world_session_close(&s->world);
    memset(s, 0, sizeof *s);
}
