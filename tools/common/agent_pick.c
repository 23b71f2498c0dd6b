/* agent_pick.c: one rule for the agent of every command (agent_pick.h). */
#include <string.h>

#include "agent_pick.h"
#include "cli.h"

int nbc_agent_pick(const nb_bundle *b, const char *path, const nbc_agent_opts *o,
                   nbc_agent_choice *out)
{
    memset(out, 0, sizeof *out);
    size_t ai;
    nb_err err;
    if (o->name) {
        if (nb_agent_lookup(b, o->name, &ai, &err) != NB_OK)
            return nbc_fail_err(&err);
        out->type = nb_agent_get(b, ai);
    }
    if (!out->type && nb_agent_count(b) > 0)
        out->type = nb_agent_get(b, 0);
    if (!out->type && !o->capability)
        return nbc_fail("%s has no agent set: give --capability (and --size)", path);
    if (out->type) {
        out->size = out->type->size;
        out->capability = out->type->capability;
        out->costs = out->type->weighted ? out->type->cost : NULL;
    } else {
        out->size = 1;
    }
    if (o->size)
        out->size = (uint32_t)o->size;
    if (o->capability) {
        if (nb_capability_parse(b, o->capability, &out->capability, &err) != NB_OK)
            return nbc_usage("--capability: %s", err.msg);
    }
    if (out->type && (o->size || o->capability))
        out->changed = o->size && o->capability ? "--size and --capability"
                       : o->size                ? "--size"
                                                : "--capability";
    return NBC_EXIT_OK;
}

void nbc_agent_help(FILE *f, char agent_letter, char size_letter, char capability_letter)
{
    char a[8] = "    ", s[8] = "    ", c[8] = "    ";
    if (agent_letter)
        snprintf(a, sizeof a, "-%c, ", agent_letter);
    if (size_letter)
        snprintf(s, sizeof s, "-%c, ", size_letter);
    if (capability_letter)
        snprintf(c, sizeof c, "-%c, ", capability_letter);
    fprintf(f,
            "  %s--agent NAME        the agent type NAME of the bundle's agent set\n"
            "                          (default: its first)\n"
            "  %s--size S            the agent's size in cells a side, for the type's\n"
            "  %s--capability LIST   the terrains it may enter, by name, separated by\n"
            "                          commas, for the type's (its terrain costs stay)\n",
            a, s, c);
}
