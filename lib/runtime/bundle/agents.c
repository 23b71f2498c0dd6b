/* agents.c: the agent set (name, size, capability and terrain costs of
 * each agent type) and the capabilities and sizes the precomputations
 * derive from it.  The YAML reader is in agents_yaml.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bundle/bundle.h"

/* Section layout (formats/bundle.md): u32 count, u32 zero, then per agent a
 * 48-byte record: name[32] NUL-padded, u32 size, u32 capability, 8 zero
 * bytes.  Version 2, written only when some agent has a cost other than 1
 * (so that a set without costs keeps version 1's bytes), then holds per
 * agent an f64 multiplier per terrain of the legend. */
int nbi_agent_weighted(const nb_agent *a)
{
    if (!a->weighted)
        return 0;
    for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
        if ((a->capability >> t & 1u) && a->cost[t] != 1)
            return 1;
    return 0;
}

static int any_weighted(const nbi_agentset *set)
{
    for (size_t i = 0; i < set->count; i++)
        if (nbi_agent_weighted(&set->agent[i]))
            return 1;
    return 0;
}

uint16_t nbi_agents_version(const nbi_agentset *set)
{
    return any_weighted(set) ? NBI_AGENTS_VERSION_COSTS : NBI_AGENTS_VERSION;
}

size_t nbi_agents_encoded_size(const nbi_agentset *set, unsigned nterrains)
{
    size_t n = NBI_AGENTS_HEADER + set->count * NBI_AGENT_RECORD;
    if (any_weighted(set))
        n += set->count * nterrains * NBI_AGENT_COST;
    return n;
}

void nbi_agents_encode(const nbi_agentset *set, unsigned nterrains, uint8_t *out)
{
    memset(out, 0, nbi_agents_encoded_size(set, nterrains));
    nbi_put32(out + NBI_AGENTS_COUNT, (uint32_t)set->count);
    for (size_t i = 0; i < set->count; i++) {
        uint8_t *r = out + NBI_AGENTS_HEADER + i * NBI_AGENT_RECORD;
        memcpy(r + NBI_AGENT_NAME, set->agent[i].name, strlen(set->agent[i].name));
        nbi_put32(r + NBI_AGENT_SIZE, set->agent[i].size);
        nbi_put32(r + NBI_AGENT_CAPABILITY, set->agent[i].capability);
    }
    if (!any_weighted(set))
        return;
    uint8_t *c = out + NBI_AGENTS_HEADER + set->count * NBI_AGENT_RECORD;
    for (size_t i = 0; i < set->count; i++) {
        const nb_agent *a = &set->agent[i];
        int w = nbi_agent_weighted(a);
        for (unsigned t = 0; t < nterrains; t++, c += NBI_AGENT_COST)
            nbi_putf64(c, w && (a->capability >> t & 1u) ? a->cost[t] : 1.0);
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
        for (unsigned t = 0; a->weighted && t < legend->nterrains; t++) {
            double c = a->cost[t];
            if (!(a->capability >> t & 1u) ? c != 1 : !(c >= 1 && c <= NB_MAX_COST))
                return nbi_fail(err, NB_ERR_FORMAT,
                                "agent '%s': cost %g for terrain '%s', expected %s", a->name, c,
                                legend->names[t],
                                a->capability >> t & 1u ? "a number from 1 to 1e6"
                                                        : "1 (a terrain outside its capability)");
        }
    }
    return NB_OK;
}

nb_status nbi_agents_decode(const uint8_t *p, size_t len, uint16_t version,
                            const nbi_legend *legend, nbi_agentset *set, nb_err *err)
{
    set->count = 0;
    if (version != NBI_AGENTS_VERSION && version != NBI_AGENTS_VERSION_COSTS)
        return nbi_fail(err, NB_ERR_VERSION, "agents section version %u, this reader knows 1 and 2",
                        version);
    if (len < NBI_AGENTS_HEADER)
        return nbi_fail(err, NB_ERR_FORMAT, "agents section: %zu bytes, expected at least %d", len,
                        NBI_AGENTS_HEADER);
    uint32_t n = nbi_get32(p + NBI_AGENTS_COUNT);
    if (n > NB_MAX_AGENTS)
        return nbi_fail(err, NB_ERR_LIMIT, "agents section: %u agents, at most %d", n, NB_MAX_AGENTS);
    size_t want = NBI_AGENTS_HEADER + (size_t)n * NBI_AGENT_RECORD;
    if (version == NBI_AGENTS_VERSION_COSTS)
        want += (size_t)n * legend->nterrains * NBI_AGENT_COST;
    if (len != want)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "agents section: %zu bytes, expected %zu for %u agents (version %u)", len,
                        want, n, version);
    const uint8_t *c = p + NBI_AGENTS_HEADER + (size_t)n * NBI_AGENT_RECORD;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *r = p + NBI_AGENTS_HEADER + (size_t)i * NBI_AGENT_RECORD;
        nb_agent *a = &set->agent[i];
        memset(a, 0, sizeof *a); /* padding too: agents compare by their bytes */
        if (memchr(r + NBI_AGENT_NAME, 0, NBI_AGENT_NAME_SIZE) == NULL)
            return nbi_fail(err, NB_ERR_FORMAT, "agents section: name of agent %u is not terminated", i);
        memcpy(a->name, r + NBI_AGENT_NAME, NBI_AGENT_NAME_SIZE);
        a->size = nbi_get32(r + NBI_AGENT_SIZE);
        a->capability = nbi_get32(r + NBI_AGENT_CAPABILITY);
        a->weighted = 0;
        for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
            a->cost[t] = 1;
        for (unsigned t = 0; version == NBI_AGENTS_VERSION_COSTS && t < legend->nterrains; t++) {
            a->cost[t] = nbi_getf64(c);
            c += NBI_AGENT_COST;
            a->weighted |= a->cost[t] != 1; /* a NaN too, for the check to refuse */
        }
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
