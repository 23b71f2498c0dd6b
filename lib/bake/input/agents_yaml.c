/* agents_yaml.c: the agent set in YAML (formats/agents.md). */
#include <stdio.h>
#include <stdlib.h>

#include "bake_int.h"

const char nbb_default_agents_yaml[] =
    "# The default agent set: what MovingAI's optimal lengths assume.\n"
    "agents:\n"
    "  - name: movingai\n"
    "    size: 1\n"
    "    capability: [ground, swamp]\n";

nb_status nbb_yaml_capability(nbb_yaml *y, yaml_node_t *node, const char *what,
                              const nbi_legend *legend, nb_capability *out, nb_err *err)
{
    nb_capability cap = 0;
    size_t n = 1;
    int list = node->type == YAML_SEQUENCE_NODE;
    nb_status st;
    if (list && (st = nbb_yaml_sequence(y, node, what, 4 * NB_MAX_TERRAINS, &n, err)))
        return st;
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *item = list ? nbb_yaml_item(y, node, i) : node;
        const char *text;
        size_t len;
        if ((st = nbb_yaml_string(y, item, what, &text, &len, err)))
            return st;
        int t = nbi_legend_find(legend, text, len);
        if (t < 0) {
            char known[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
            nbi_capability_format(legend, ((nb_capability)1 << (legend->nterrains - 1) << 1) - 1, known,
                                  sizeof known);
            return nbb_yaml_fail(y, item, err, NB_ERR_NOTFOUND,
                                 "%s: unknown terrain '%.*s' (the legend has %s)", what,
                                 (int)(len > 40 ? 40 : len), text, known);
        }
        cap |= (nb_capability)1 << t;
    }
    if (cap == 0)
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX, "%s: the capability is empty", what);
    *out = cap;
    return NB_OK;
}

nb_status nbb_agents_parse(const char *buf, size_t len, const char *name, const nbi_legend *legend,
                           nbi_agentset *set, nb_err *err)
{
    static const char *const top_keys[] = {"agents", NULL};
    static const char *const agent_keys[] = {"name", "size", "capability", NULL};
    nbb_yaml y;
    yaml_node_t *root, *agents;
    size_t n = 0;
    nb_status st = nbb_yaml_load(&y, buf, len, name, NBB_YAML_MAX_NODES, err);
    if (st != NB_OK)
        return st;
    set->count = 0;
    if ((st = nbb_yaml_root(&y, "an agent set with 'agents'", &root, err)) ||
        (st = nbb_yaml_mapping(&y, root, "agent set", top_keys, err)) ||
        (st = nbb_yaml_need(&y, root, "agents", "agent set", &agents, err)) ||
        (st = nbb_yaml_sequence(&y, agents, "agents", NB_MAX_AGENTS, &n, err)))
        goto done;
    if (n == 0) {
        st = nbb_yaml_fail(&y, agents, err, NB_ERR_SYNTAX, "agents: the list is empty");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *item = nbb_yaml_item(&y, agents, i), *nn, *sn, *cn;
        nb_agent *a = &set->agent[i];
        char what[64];
        memset(a, 0, sizeof *a);
        const char *text;
        size_t tlen;
        uint64_t size;
        snprintf(what, sizeof what, "agent %zu", i + 1);
        if ((st = nbb_yaml_mapping(&y, item, what, agent_keys, err)) ||
            (st = nbb_yaml_need(&y, item, "name", what, &nn, err)) ||
            (st = nbb_yaml_need(&y, item, "size", what, &sn, err)) ||
            (st = nbb_yaml_need(&y, item, "capability", what, &cn, err)) ||
            (st = nbb_yaml_string(&y, nn, what, &text, &tlen, err)))
            goto done;
        if (tlen > NB_NAME_MAX || (memcpy(a->name, text, tlen), a->name[tlen] = '\0', !nbi_name_ok(a->name))) {
            st = nbb_yaml_fail(&y, nn, err, NB_ERR_SYNTAX,
                               "%s: name '%.*s' must be 1 to %d letters, digits, '_' or '-'", what,
                               (int)(tlen > 40 ? 40 : tlen), text, NB_NAME_MAX);
            goto done;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(set->agent[j].name, a->name) == 0) {
                st = nbb_yaml_fail(&y, nn, err, NB_ERR_SYNTAX, "%s: name '%s' is already used", what,
                                   a->name);
                goto done;
            }
        snprintf(what, sizeof what, "agent '%s'", a->name);
        if ((st = nbb_yaml_uint(&y, sn, what, 1, NB_MAX_AGENT_SIZE, &size, err)) ||
            (st = nbb_yaml_capability(&y, cn, what, legend, &a->capability, err)))
            goto done;
        a->size = (uint32_t)size;
        set->count = i + 1;
    }
done:
    nbb_yaml_free(&y);
    return st;
}

nb_status nbb_agents_read(const char *path, const nbi_legend *legend, nbi_agentset *set, nb_err *err)
{
    char *buf;
    size_t len;
    nb_status st = nbb_read_file(path, NBB_YAML_FILE_MAX, &buf, &len, err);
    if (st != NB_OK)
        return st;
    st = nbb_agents_parse(buf, len, nbb_input_name(path), legend, set, err);
    free(buf);
    return st;
}

nb_status nbb_agents_default(const nbi_legend *legend, nbi_agentset *set, nb_err *err)
{
    nb_status st = nbb_agents_parse(nbb_default_agents_yaml, strlen(nbb_default_agents_yaml),
                                    "(default agent set)", legend, set, err);
    if (st != NB_OK)
        nbi_err_prefix(err, "the default agent set needs terrains 'ground' and 'swamp'; give an "
                            "agent set (--agents)");
    return st;
}

void nbb_agents_print(const nbi_agentset *set, const nbi_legend *legend, FILE *f)
{

    fputs("agents:\n", f);
    for (size_t i = 0; i < set->count; i++) {
        const char *sep = "";
        fprintf(f, "  - name: %s\n    size: %u\n    capability: [", set->agent[i].name,
                set->agent[i].size);
        for (unsigned t = 0; t < legend->nterrains; t++)
            if (set->agent[i].capability & ((nb_capability)1 << t)) {
                fprintf(f, "%s%s", sep, legend->names[t]);
                sep = ", ";
            }
        fputs("]\n", f);
    }
}
