/* deep_acosts.c: an abstract graph's costs for one terrain-cost profile
 * (formats/abstract.md, section type 33) against the map and the graph
 * they were baked from: the profile's costs are baked again (a
 * deterministic Dijkstra per node under the same multipliers) and compared
 * arc by arc, naming the first arc whose cost differs.  And the costs as a
 * set, with the graph's own check (nbb_deep_profiles): one section for
 * each profile of the agent set, as mkabstract bakes them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abstract/abstract.h"
#include "clearance/costs.h"
#include "verify/deep.h"

nb_status nbb_deep_acosts(nbb_deep *d, nb_err *err)
{
    const nb_bundle *b = d->b;
    nbi_agraph g;
    nbi_acosts c;
    nb_status st = nbi_agraph_find(b, &g, err);
    if (st == NB_OK)
        st = nbi_acosts_at(b, d->index, &g, &c, err); /* its message names the section */
    if (st != NB_OK)
        return st;
    nbb_acosts_source *src = nbb_malloc(sizeof *src);
    if (!src)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to check %s", d->what);
    const struct nbi_section *gs = &b->sections[g.section], *cs = &b->sections[d->index];
    uint8_t *p = NULL;
    size_t len = 0;
    st = nbb_acosts_source_of(b, src, err);
    if (st == NB_OK)
        st = nbb_acosts_bake(src, gs->payload, (size_t)gs->info.usize, c.cap, c.size, c.cost,
                             c.index, &p, &len, err);
    nbb_free(src);
    if (st != NB_OK)
        return nbb_deep_cannot(d, st, err, "from the map and the abstract graph");
    const uint8_t *rc = p + NBI_ACOSTS_HEADER + 8 * (size_t)b->legend.nterrains;
    for (uint32_t u = 0; u < g.nnodes && st == NB_OK; u++) {
        uint32_t a1 = nbi_u32at(g.node_first, u + 1);
        for (uint32_t a = nbi_u32at(g.node_first, u); a < a1; a++) {
            double have = nbi_acosts_arc(&c, a), want = nbi_getf64(rc + 8 * (size_t)a);
            if (nbb_deep_same(have, want))
                continue;
            uint32_t v = nbi_u32at(g.arc_to, a);
            st = nbb_deep_fail(d, err,
                               "arc %u from node %u (%u, %u) to node %u (%u, %u) costs %.17g, "
                               "recomputed %.17g",
                               a, u, nbi_u16at(g.node_xy, 2 * (size_t)u),
                               nbi_u16at(g.node_xy, 2 * (size_t)u + 1), v,
                               nbi_u16at(g.node_xy, 2 * (size_t)v),
                               nbi_u16at(g.node_xy, 2 * (size_t)v + 1), have, want);
            break;
        }
    }
    if (st == NB_OK)
        st = nbb_deep_bytes(d, cs->payload, (size_t)cs->info.usize, p, len, err);
    nbb_free(p);
    return st;
}

/* "{ground,swamp}, size 1, swamp x5": a profile in words. */
static void profile_words(const nb_bundle *b, const nbb_cost_profile *p, char *out, size_t len)
{
    char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
    nb_capability_format(b, p->cap, caps, sizeof caps);
    int at = snprintf(out, len, "{%s}, size %u", caps, p->size);
    for (unsigned t = 0; t < b->legend.nterrains && at > 0 && (size_t)at < len; t++)
        if (p->cap >> t & 1u && p->cost[t] != 1)
            at += snprintf(out + at, len - (size_t)at, ", %s x%g", b->legend.names[t], p->cost[t]);
}

nb_status nbb_deep_profiles(nbb_deep *d, const nbi_agraph *g, nb_err *err)
{
    const nb_bundle *b = d->b;
    if (!b->agents)
        return NB_OK;
    nbb_cost_profile *prof = nbb_malloc(NB_MAX_AGENTS * sizeof *prof);
    uint8_t *have = nbb_calloc(NB_MAX_AGENTS, 1);
    if (!prof || !have) {
        nbb_free(prof);
        nbb_free(have);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to check %s", d->what);
    }
    size_t n = nbb_cost_profiles(b->agents, prof);
    char words[NB_MAX_TERRAINS * (NB_NAME_MAX + 16) + 64];
    nb_status st = NB_OK;
    /* Each costs section (HAA* reads every one it finds for the graph): a profile of the agent
     * set's, at that profile's place. */
    for (size_t i = 0; i < b->nsections && st == NB_OK; i++) {
        nbi_acosts c;
        if (b->sections[i].info.type != NB_SEC_ABSTRACT_COSTS)
            continue;
        if ((st = nbi_acosts_at(b, i, g, &c, err)) != NB_OK)
            break;
        size_t k = 0;
        while (k < n && !(prof[k].cap == c.cap && prof[k].size == c.size &&
                          nbi_costs_equal(prof[k].cost, c.cost, c.cap)))
            k++;
        nbb_cost_profile cp = {c.cap, c.size, {0}};
        memcpy(cp.cost, c.cost, sizeof cp.cost);
        profile_words(b, &cp, words, sizeof words);
        if (k == n)
            st = nbb_deep_fail(d, err,
                               "section %zu (abstract_costs) holds the costs of a profile no agent "
                               "of the set has (%s): mkabstract bakes one for each agent's",
                               i, words);
        else if (c.index != k)
            st = nbb_deep_fail(d, err,
                               "section %zu (abstract_costs) holds profile %zu of the agent set's "
                               "(%s), but says it is profile %u",
                               i, k, words, c.index);
        else
            have[k] = 1;
    }
    /* Each agent with terrain costs: its profile's section, or HAA* refuses its every query. */
    for (size_t a = 0; a < b->agents->count && st == NB_OK; a++) {
        const nb_agent *ag = &b->agents->agent[a];
        if (!nbi_agent_weighted(ag))
            continue;
        size_t k = 0;
        while (k < n && !(prof[k].cap == ag->capability && prof[k].size == ag->size &&
                          nbi_costs_equal(prof[k].cost, ag->cost, ag->capability)))
            k++;
        if (k < n && !have[k]) {
            profile_words(b, &prof[k], words, sizeof words);
            st = nbb_deep_fail(d, err,
                               "agent '%s' has terrain costs (%s) but no abstract_costs section "
                               "holds its profile: HAA* would refuse its every query; mkabstract "
                               "bakes one for each profile",
                               ag->name, words);
        }
    }
    nbb_free(prof);
    nbb_free(have);
    return st;
}
