/* heightmap_steps.c: a heightmap's step limits per agent (formats/agents.md,
 * formats/image.md).  An agent stands on a cell when the cell is at most
 * its limit above each of its eight neighbours, so that no move between two
 * cells it stands on climbs or drops more.  With the agents' distinct limits
 * L1 < ... < Lk, a cell whose largest drop d has j of them below it stands
 * for the agents of limit L(j+1) and above: j = 0 is its band's terrain,
 * j = k an obstacle, and between, a terrain of its own ("ground-step30":
 * ground that agents of max_step 30 and above stand on), which those
 * agents' capabilities get at the band's cost.  One limit (the legend's,
 * or every agent's the same) makes no new terrain. */
#include <stdio.h>
#include <stdlib.h>

#include "core/heap.h"
#include "levels.h"

static uint32_t agent_limit(const nbb_legend_ext *ext, const nbi_agentset *set, size_t a)
{
    return set->has_step[a] ? set->max_step[a] : ext->max_step;
}

static int ascending(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

unsigned nbb_step_limits(const nbb_legend_ext *ext, uint32_t *limit)
{
    const nbi_agentset *set = ext ? ext->agents : NULL;
    int any = 0;
    for (size_t a = 0; set && a < set->count; a++)
        any |= set->has_step[a];
    limit[0] = ext ? ext->max_step : UINT32_MAX;
    if (!any)
        return 1;
    for (size_t a = 0; a < set->count; a++)
        limit[a] = agent_limit(ext, set, a);
    nbi_sort(limit, set->count, sizeof *limit, ascending);
    unsigned k = 0;
    for (size_t a = 0; a < set->count; a++)
        if (k == 0 || limit[k - 1] != limit[a])
            limit[k++] = limit[a];
    return k;
}

nb_status nbb_step_terrain(const char *file, nbi_legend *legend, const nbb_legend_ext *ext,
                           int band, uint32_t need, int *code, nb_err *err)
{
    char name[NB_NAME_MAX + 1], suffix[24];
    if (need == UINT32_MAX)
        snprintf(suffix, sizeof suffix, "-steep");
    else
        snprintf(suffix, sizeof suffix, "-step%u", need);
    int keep = NB_NAME_MAX - (int)strlen(suffix);
    snprintf(name, sizeof name, "%.*s%s", keep, legend->names[band], suffix);
    if (legend->nterrains >= NB_MAX_TERRAINS)
        return nbi_fail(err, NB_ERR_LIMIT,
                        "%s: the agents' step limits need a terrain '%s' (%s where only agents of "
                        "max_step %u and above stand), beyond the %d terrains a legend may have",
                        file, name, legend->names[band], need, NB_MAX_TERRAINS);
    if (nbi_legend_find(legend, name, strlen(name)) >= 0)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: the agents' step limits need a terrain '%s', a name the legend already uses",
                        file, name);
    unsigned c = '!';
    while (c <= '~' && legend->code[c] != NBI_CELL_INVALID)
        c++;
    if (c > '~')
        return nbi_fail(err, NB_ERR_LIMIT,
                        "%s: the legend uses every character: none is left for the terrain '%s' of "
                        "the agents' step limits", file, name);
    int t = (int)legend->nterrains++;
    memcpy(legend->names[t], name, strlen(name) + 1);
    legend->code[c] = (uint8_t)t;
    nbi_legend_derive_chars(legend);
    nbi_agentset *set = ext->agents;
    for (size_t a = 0; a < set->count; a++) {
        nb_agent *ag = &set->agent[a];
        if ((ag->capability >> band & 1u) && agent_limit(ext, set, a) >= need) {
            ag->capability |= (nb_capability)1 << t;
            ag->cost[t] = ag->cost[band];
        }
    }
    *code = t;
    return NB_OK;
}
