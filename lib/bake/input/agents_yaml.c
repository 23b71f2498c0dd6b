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

/* The terrain a scalar names, into *t; an error naming the legend's terrains when it names
 * none.  what and key prefix the message ("agent 'x'", "costs: "). */
static nb_status yaml_terrain(nbb_yaml *y, yaml_node_t *node, const char *what, const char *key,
                              const nbi_legend *legend, int *t, nb_err *err)
{
    const char *text;
    size_t len;
    nb_status st = nbb_yaml_string(y, node, what, &text, &len, err);
    if (st != NB_OK)
        return st;
    *t = nbi_legend_find(legend, text, len);
    if (*t >= 0)
        return NB_OK;
    char known[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
    nbi_capability_format(legend, ((nb_capability)1 << (legend->nterrains - 1) << 1) - 1, known,
                          sizeof known);
    return nbb_yaml_fail(y, node, err, NB_ERR_NOTFOUND, "%s: %sunknown terrain '%.*s' (the legend has %s)",
                         what, key, (int)(len > 40 ? 40 : len), text, known);
}

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
        int t;
        if ((st = yaml_terrain(y, item, what, "", legend, &t, err)))
            return st;
        cap |= (nb_capability)1 << t;
    }
    if (cap == 0)
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX, "%s: the capability is empty", what);
    *out = cap;
    return NB_OK;
}

/* An agent's `costs`: a mapping from terrain names of its capability to
 * multipliers from 1 to NB_MAX_COST; the terrains it does not name cost 1. */
static nb_status parse_costs(nbb_yaml *y, yaml_node_t *node, const char *what,
                             const nbi_legend *legend, nb_agent *a, nb_err *err)
{
    if (node->type != YAML_MAPPING_NODE)
        return nbb_yaml_fail(y, node, err, NB_ERR_SYNTAX,
                             "%s: costs: expected a mapping of terrain names to multipliers "
                             "({swamp: 2.5})", what);
    for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(&y->doc, p->key);
        yaml_node_t *v = yaml_document_get_node(&y->doc, p->value);
        int t;
        nb_status st = yaml_terrain(y, k, what, "costs: ", legend, &t, err);
        if (st != NB_OK)
            return st;
        if (!(a->capability >> t & 1u))
            return nbb_yaml_fail(y, k, err, NB_ERR_SYNTAX,
                                 "%s: costs: terrain '%s' is not in its capability", what,
                                 legend->names[t]);
        for (yaml_node_pair_t *q = node->data.mapping.pairs.start; q < p; q++) {
            yaml_node_t *kq = yaml_document_get_node(&y->doc, q->key);
            if (kq->type == YAML_SCALAR_NODE && kq->data.scalar.length == k->data.scalar.length &&
                memcmp(kq->data.scalar.value, k->data.scalar.value, k->data.scalar.length) == 0)
                return nbb_yaml_fail(y, k, err, NB_ERR_SYNTAX,
                                     "%s: costs: terrain '%s' appears twice", what, legend->names[t]);
        }
        char cwhat[96];
        snprintf(cwhat, sizeof cwhat, "%s: cost of '%s'", what, legend->names[t]);
        if ((st = nbb_yaml_real(y, v, cwhat, 1, NB_MAX_COST, &a->cost[t], err)) != NB_OK)
            return st;
    }
    a->weighted = 1;
    a->weighted = nbi_agent_weighted(a); /* costs of 1 alone are no costs */
    return NB_OK;
}

nb_status nbb_agents_parse(const char *buf, size_t len, const char *name, const nbi_legend *legend,
                           nbi_agentset *set, nb_err *err)
{
    static const char *const top_keys[] = {"agents", NULL};
    static const char *const agent_keys[] = {"name", "size", "capability", "costs", "max_step",
                                             NULL};
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
        for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
            a->cost[t] = 1; /* as a bundle's agent without costs reads */
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
        yaml_node_t *costs = nbb_yaml_get(&y, item, "costs");
        if (costs && (st = parse_costs(&y, costs, what, legend, a, err)))
            goto done;
        /* A heightmap's step limit for this agent, in the legend's height units. */
        yaml_node_t *step = nbb_yaml_get(&y, item, "max_step");
        uint64_t limit;
        char swhat[96];
        snprintf(swhat, sizeof swhat, "%s: max_step", what);
        set->has_step[i] = 0;
        if (step && (st = nbb_yaml_uint(&y, step, swhat, 0, 65535, &limit, err)))
            goto done;
        if (step)
            set->has_step[i] = 1, set->max_step[i] = (uint32_t)limit;
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
    nbb_free(buf);
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
        if (!nbi_agent_weighted(&set->agent[i]))
            continue;
        sep = "";
        fputs("    costs: {", f);
        for (unsigned t = 0; t < legend->nterrains; t++)
            if ((set->agent[i].capability >> t & 1u) && set->agent[i].cost[t] != 1) {
                /* The shortest form that reads back as the same double. */
                char num[32];
                for (int digits = 6; digits <= 17; digits++) {
                    snprintf(num, sizeof num, "%.*g", digits, set->agent[i].cost[t]);
                    if (strtod(num, NULL) == set->agent[i].cost[t])
                        break;
                }
                fprintf(f, "%s%s: %s", sep, legend->names[t], num);
                sep = ", ";
            }
        fputs("}\n", f);
    }
}
