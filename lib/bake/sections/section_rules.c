/* section_rules.c: the bake side's registry of section types
 * (section_rules.h): each type's deep check and rebake rule, in one table,
 * in type order.
 * A new type is one entry here and one in lib/runtime/sections/
 * sections.c, plus its own files: HACKING.md, "Adding a section type".
 * nbb_verify_deep runs verify/deep.c's driver with this table's checks
 * (each type's structural check is the runtime's, which nb_bundle_verify
 * makes). */
#include "sections/section_rules.h"

/* Why an input has no deep check: nothing in the bundle to bake it from;
 * the plain checks (nb_bundle_verify: its structure) cover it. */
#define INPUT "an input: nothing in the bundle to bake it again from"

static const nbb_section_rules rules[] = {
    {NB_SEC_LEGEND, NULL, INPUT, NBB_RULE_LEVEL},
    {NB_SEC_AGENTS, NULL, INPUT, NBB_RULE_LEVEL},
    {NB_SEC_MAP, NULL, INPUT, NBB_RULE_LEVEL},
    {NB_SEC_CLEARANCE, nbb_deep_layer, NULL, NBB_RULE_UPDATED},
    {NB_SEC_COMPONENTS, nbb_deep_layer, NULL, NBB_RULE_UPDATED},
    {NB_SEC_RUNS, nbb_deep_runs, NULL, NBB_RULE_UPDATED},
    /* mkclear --optimal bakes the subgoal layers again whole. */
    {NB_SEC_SUBGOAL, nbb_deep_subgoal, NULL, NBB_RULE_SAME_LEVEL},
    {NB_SEC_ABSTRACT, nbb_deep_abstract, NULL, NBB_RULE_UPDATED},
    {NB_SEC_ABSTRACT_COSTS, nbb_deep_acosts, NULL, NBB_RULE_UPDATED},
    {NB_SEC_ABSTRACT_LEVELS, nbb_deep_levels, NULL, NBB_RULE_UPDATED},
    {NB_SEC_MODEL, NULL, INPUT, NBB_RULE_NOT_LEVEL},
    {NB_SEC_PERIMETER, nbb_deep_perimeter, NULL, NBB_RULE_NOT_LEVEL},
    {NB_SEC_UNIT, NULL, INPUT, NBB_RULE_NOT_LEVEL},
    {NB_SEC_HITCHECK, nbb_deep_hitcheck, NULL, NBB_RULE_NOT_LEVEL},
    {NB_SEC_CURVES, nbb_deep_curves, NULL, NBB_RULE_NOT_LEVEL},
    {NB_SEC_FOREST, NULL, INPUT, NBB_RULE_NOT_LEVEL},
    {NB_SEC_BITANGENT, nbb_deep_bitangent, NULL, NBB_RULE_NOT_LEVEL},
    /* Kept as stored by mkclear's update: its digests name files a rebake
     * does not read.  A tile bundle changed after its link no longer has
     * the digest the world's index gives it, which navbake verify of the
     * world bundle names. */
    {NB_SEC_TILE, NULL, "an input: where the tile lies and the digests of the files it was baked "
                        "from (navbake world tile)", NBB_RULE_NOT_LEVEL},
    {NB_SEC_BORDER, NULL, "computed from a tile bundle's component layers, which a border file "
                          "does not hold: navbake world check compares the two",
     NBB_RULE_NOT_LEVEL},
    {NB_SEC_WORLD, NULL, "the digests of the tile bundles, which a world bundle does not hold: "
                         "navbake world check compares them", NBB_RULE_NOT_LEVEL},
    {NB_SEC_WORLD_COMPONENTS, NULL, "computed from the tiles' border files by navbake world "
                                    "link, which a world bundle does not hold",
     NBB_RULE_NOT_LEVEL},
    {NB_SEC_BORDER_GRAPH, NULL, "computed from a tile bundle's abstract graph, which a border "
                                "file does not hold", NBB_RULE_NOT_LEVEL},
    {NB_SEC_WORLD_GRAPH, NULL, "computed from the tiles' border files by navbake world link, "
                               "which a world bundle does not hold", NBB_RULE_NOT_LEVEL},
    {NB_SEC_WORLD_LANDMARKS, NULL, "computed from the world graph by navbake world link",
     NBB_RULE_NOT_LEVEL},
    {NB_SEC_BORDER_OPT, NULL, "computed from a tile bundle's clearance layer, which a border "
                              "file does not hold", NBB_RULE_NOT_LEVEL},
    {NB_SEC_WORLD_OPT, NULL, "computed from the tiles' border files by navbake world link, "
                             "which a world bundle does not hold", NBB_RULE_NOT_LEVEL},
    {NB_SEC_WORLD_BLOCKS, NULL, "computed from the world graph by navbake world link",
     NBB_RULE_NOT_LEVEL},
    /* navbake world tile writes it anew on every bake, after the graph; a
     * tile bundle changed by anything else no longer has the digest its
     * world's index gives it, so no world reads the table kept. */
    {NB_SEC_TILE_INSERT, NULL, "computed from the tile's abstract graph by navbake world tile "
                               "(manifest `insert`), whose builder lies above the deep checks "
                               "(lib/bake/world/insert_table.c); its check on open compares "
                               "every portal, border node and distance's ends with the graph",
     NBB_RULE_NOT_LEVEL},
};
#define NRULES (sizeof rules / sizeof rules[0])

const nbb_section_rules *nbb_section_rules_of(uint32_t type)
{
    for (size_t i = 0; i < NRULES; i++)
        if (rules[i].type == type)
            return &rules[i];
    return NULL;
}

const nbb_section_rules *nbb_section_rules_at(size_t i)
{
    return i < NRULES ? &rules[i] : NULL;
}

static nbb_deep_check deep_of(uint32_t type)
{
    const nbb_section_rules *r = nbb_section_rules_of(type);
    return r ? r->deep : NULL;
}

nb_status nbb_verify_deep(const nb_bundle *b, const nbb_deep_opts *o, nbb_deep_stats *stats,
                          nb_err *err)
{
    return nbb_deep_run(b, o, deep_of, stats, err);
}
