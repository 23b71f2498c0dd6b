/* sections.c: the names of section types and of their build parameters,
 * for inspectors; the meaning of each is in formats/bundle.md. */
#include <string.h>

#include "bundle/bundle.h"

static const struct nbi_section_kind kinds[] = {
    {NB_SEC_LEGEND, "legend", {"terrains"}},
    {NB_SEC_AGENTS, "agents", {"agents"}},
    {NB_SEC_MAP, "map", {"width", "height"}},
    {NB_SEC_CLEARANCE, "clearance", {"capability", "cap", "bits"}},
    {NB_SEC_COMPONENTS, "components", {"capability", "size", "components", "bits"}},
    {NB_SEC_RUNS, "runs", {"capability", "size", "components", "runs", "cells"}},
    {NB_SEC_SUBGOAL, "subgoal", {"capability", "size", "corner", "nodes", "edges"}},
    {NB_SEC_ABSTRACT, "abstract",
     {"cluster", "quality", "nodes", "edges", "inter", "placement", "path_bytes"}},
    {NB_SEC_ABSTRACT_COSTS, "abstract_costs", {"capability", "size", "arcs", "graph_crc", "profile"}},
    {NB_SEC_ABSTRACT_LEVELS, "abstract_levels", {"levels", "factor", "graph_crc", "nodes", "arcs"}},
    {NB_SEC_MODEL, "model", {"headings", "speeds", "speed_change"}},
    {NB_SEC_PERIMETER, "perimeter",
     {"radius", "layout", "entry_bits", "symmetries", "tables", "entries", "scale"}},
    {NB_SEC_UNIT, "unit", {"headings", "neighbourhood"}},
    {NB_SEC_HITCHECK, "hitcheck", {"neighbourhood", "window", "all_curves"}},
    {NB_SEC_CURVES, "curves", {"distance", "steps", "angles"}},
    {NB_SEC_FOREST, "forest", {"circles"}},
    {NB_SEC_BITANGENT, "bitangent", {"radius_index", "nodes", "transitions", "candidates", "arcs"}},
};

const struct nbi_section_kind *nbi_section_kind(uint32_t type)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].type == type)
            return &kinds[i];
    return NULL;
}

const struct nbi_section_kind *nbi_section_kind_at(size_t i)
{
    return i < sizeof kinds / sizeof kinds[0] ? &kinds[i] : NULL;
}

const char *nb_section_type_name(uint32_t type)
{
    const struct nbi_section_kind *k = nbi_section_kind(type);
    return k ? k->name : NULL;
}

uint32_t nb_section_type_from_name(const char *name)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(kinds[i].name, name) == 0)
            return kinds[i].type;
    return 0;
}

const char *nb_section_param_name(uint32_t type, unsigned i)
{
    const struct nbi_section_kind *k = nbi_section_kind(type);
    return k && i < NB_SECTION_PARAMS ? k->params[i] : NULL;
}

/* Parameters that an older version of a section did not store (its param
 * is 0) but always had one value of: a reader shows that value, not 0. */
static const struct {
    uint32_t type;
    uint16_t before; /* versions below this one */
    unsigned param;
    uint32_t value;
} implied[] = {
    /* Hit-check version 1 held every candidate curve of every entry, with
     * no flag for it (formats/hitcheck.md): all_curves is 1. */
    {NB_SEC_HITCHECK, 2, 2, 1},
};

uint32_t nb_section_param(const nb_section_info *info, unsigned i)
{
    if (!info || i >= NB_SECTION_PARAMS)
        return 0;
    for (size_t k = 0; k < sizeof implied / sizeof implied[0]; k++)
        if (implied[k].type == info->type && info->version < implied[k].before && implied[k].param == i)
            return implied[k].value;
    return info->param[i];
}

const char *nb_encoding_name(uint16_t encoding)
{
    switch (encoding) {
    case NB_ENC_RAW: return "raw";
    case NB_ENC_PACKED: return "packed";
    case NB_ENC_ZLIB | NB_ENC_RAW: return "zlib+raw";
    case NB_ENC_ZLIB | NB_ENC_PACKED: return "zlib+packed";
    }
    return "unknown";
}
