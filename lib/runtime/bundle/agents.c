/* agents.c: the agent set (name, size, capability of each agent type) and
 * the capabilities and sizes the precomputations derive from it.  The YAML
 * reader is in agents_yaml.c. */
#include <stdio.h>
#include <string.h>

#include "bundle/bundle.h"

/* Section layout, version 1: u32 count, u32 zero, then per agent a 48-byte
 * record: name[32] NUL-padded, u32 size, u32 capability, 8 zero bytes. */
size_t nbi_agents_encoded_size(const nbi_agentset *set)
{
    return NBI_AGENTS_HEADER + set->count * NBI_AGENT_RECORD;
}

void nbi_agents_encode(const nbi_agentset *set, uint8_t *out)
{
    memset(out, 0, nbi_agents_encoded_size(set));
    nbi_put32(out, (uint32_t)set->count);
    for (size_t i = 0; i < set->count; i++) {
        uint8_t *r = out + NBI_AGENTS_HEADER + i * NBI_AGENT_RECORD;
        memcpy(r, set->agent[i].name, strlen(set->agent[i].name));
        nbi_put32(r + NBI_AGENT_SIZE, set->agent[i].size);
        nbi_put32(r + NBI_AGENT_CAPABILITY, set->agent[i].capability);
    }
}

nb_status nbi_agents_check(const nbi_agentset *set, const nbi_legend *legend, nb_err *err)
{
    nb_capability all = ((nb_capability)1 << (legend->nterrains - 1) << 1) - 1;
    for (size_t i = 0; i < set->count; i++) {
        const nb_agent *a = &set->agent[i];
        if (!nbi_name_ok(a->name))
            return nbi_fail(err, NB_ERR_FORMAT,
                            "agent %zu: invalid name (1 to %d letters, digits, '_' or '-')", i,
                            NB_NAME_MAX);
        for (size_t j = 0; j < i; j++)
            if (strcmp(set->agent[j].name, a->name) == 0)
                return nbi_fail(err, NB_ERR_FORMAT, "agent '%s' is defined twice", a->name);
        if (a->size < 1 || a->size > NB_MAX_AGENT_SIZE)
            return nbi_fail(err, NB_ERR_LIMIT, "agent '%s': size %u, expected 1 to %d", a->name,
                            a->size, NB_MAX_AGENT_SIZE);
        if (a->capability == 0)
            return nbi_fail(err, NB_ERR_FORMAT, "agent '%s': empty capability", a->name);
        if (a->capability & ~all)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "agent '%s': capability 0x%x names terrains beyond the legend's %u",
                            a->name, a->capability, legend->nterrains);
    }
    return NB_OK;
}

nb_status nbi_agents_decode(const uint8_t *p, size_t len, const nbi_legend *legend,
                            nbi_agentset *set, nb_err *err)
{
    set->count = 0;
    if (len < 8)
        return nbi_fail(err, NB_ERR_FORMAT, "agents section: %zu bytes, expected at least 8", len);
    uint32_t n = nbi_get32(p);
    if (n > NB_MAX_AGENTS)
        return nbi_fail(err, NB_ERR_LIMIT, "agents section: %u agents, at most %d", n, NB_MAX_AGENTS);
    if (len != NBI_AGENTS_HEADER + (size_t)n * NBI_AGENT_RECORD)
        return nbi_fail(err, NB_ERR_FORMAT, "agents section: %zu bytes, expected %zu for %u agents",
                        len, NBI_AGENTS_HEADER + (size_t)n * NBI_AGENT_RECORD, n);
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *r = p + NBI_AGENTS_HEADER + (size_t)i * NBI_AGENT_RECORD;
        nb_agent *a = &set->agent[i];
        if (memchr(r, 0, 32) == NULL)
            return nbi_fail(err, NB_ERR_FORMAT, "agents section: name of agent %u is not terminated", i);
        memcpy(a->name, r, 32);
        a->size = nbi_get32(r + NBI_AGENT_SIZE);
        a->capability = nbi_get32(r + NBI_AGENT_CAPABILITY);
    }
    set->count = n;
    nb_status st = nbi_agents_check(set, legend, err);
    if (st != NB_OK)
        nbi_err_prefix(err, "agents section");
    return st;
}

size_t nbi_agents_capabilities(const nbi_agentset *set, nb_capability *caps)
{
    size_t n = 0;
    for (size_t i = 0; i < set->count; i++) {
        size_t j = 0;
        while (j < n && caps[j] != set->agent[i].capability)
            j++;
        if (j == n)
            caps[n++] = set->agent[i].capability;
    }
    return n;
}

size_t nbi_agents_sizes(const nbi_agentset *set, uint32_t *sizes)
{
    size_t n = 0;
    for (size_t i = 0; i < set->count; i++) {
        uint32_t s = set->agent[i].size;
        size_t j = 0;
        while (j < n && sizes[j] < s)
            j++;
        if (j < n && sizes[j] == s)
            continue;
        memmove(sizes + j + 1, sizes + j, (n - j) * sizeof *sizes);
        sizes[j] = s;
        n++;
    }
    return n;
}

uint32_t nbi_agents_max_size(const nbi_agentset *set)
{
    uint32_t m = 0;
    for (size_t i = 0; i < set->count; i++)
        if (set->agent[i].size > m)
            m = set->agent[i].size;
    return m;
}
