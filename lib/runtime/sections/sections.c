/* sections.c: the registry of section types: for each type this reader
 * knows, its name, what its build parameters mean (the meaning of each is
 * in formats/bundle.md) and the structural check its reader makes before a
 * query trusts a section, which nb_bundle_verify (and so NB_OPEN_VERIFY and
 * navbake verify) makes of every section: a bundle that verifies is one
 * every query accepts.  The bundles this library opens are opened with
 * this table (the public opens at the end), so the container (bundle/)
 * names types and runs their checks through it without knowing any
 * feature.
 *
 * A new type is one entry here (and one in lib/bake/sections/
 * section_rules.c), plus its own files: HACKING.md, "Adding a section
 * type". */
#include <stdio.h>
#include <string.h>

#include "abstract/alevels.h"
#include "clearance/clearance.h"
#include "forest/forest.h"
#include "motion/perimeter.h"
#include "place/place.h"
#include "sections/sections.h"
#include "subgoal/subgoal.h"
#include "turning/turning.h"
#include "world/world.h"

/* Why the level's three sections have no check here: bundle.c decodes and
 * checks them when the bundle is opened, before anything else reads it. */
#define READ_AT_OPEN "decoded and checked when the bundle is opened (bundle.c)"

/* ---- a section as the handles that read it with others check it ----
 * A section can pass its own reader's check and still be refused by a
 * handle that reads it with other sections: HAA*'s workspace reads the
 * clearance layers its graph searches (each capped at the graph's largest
 * size at least); a place reads an agent's runs with its component layer
 * (one count of components); a planner reads its unit against the legend.
 * Those checks are the handles' own: the types' checks below make them by
 * opening the handle as a query would, on the section the handle reads
 * (the first of its key), so that a bundle nb_bundle_verify accepts is one
 * every handle opens on (tests/fuzz/test_verified.c). */

/* err, when st is an error, says which section it was read for: "FILE:
 * section 12 (abstract), read by HAA* (nb_haa_open): " before the handle's
 * message (less the file it starts with). */
static nb_status read_as(const nb_bundle *b, size_t index, const char *by, nb_status st,
                         nb_err *err)
{
    if (st == NB_OK || !err)
        return st;
    char msg[NB_ERR_MSG_MAX];
    size_t n = strlen(b->path);
    const char *rest = err->msg;
    if (strncmp(rest, b->path, n) == 0 && rest[n] == ':' && rest[n + 1] == ' ')
        rest += n + 2;
    snprintf(msg, sizeof msg, "%s", rest);
    snprintf(err->msg, sizeof err->msg, "%s: section %zu (%s), read by %s: %s", b->path, index,
             nbi_type_name(b, b->sections[index].info.type), by, msg);
    return st;
}

/* The graph HAA* reads (the first), as its workspace reads it: with its
 * clearance layers, its costs and the levels above it. */
static nb_status abstract_check(const nb_bundle *b, size_t index, nb_err *err)
{
    nb_status st = nbi_abstract_section_check(b, index, err);
    if (st != NB_OK || nbi_section_index(b, NB_SEC_ABSTRACT, NULL, NULL, 0) != (long)index)
        return st;
    nb_haa *ws = NULL;
    st = nb_haa_open(b, &ws, err);
    nb_haa_close(ws);
    return read_as(b, index, "HAA* (nb_haa_open)", st, err);
}

/* An agent's runs, as a place reads them: with the agent's clearance layer
 * and its component layer.  Runs no place can read (no clearance layer
 * serves their agent) are refused with the rest. */
static nb_status runs_check(const nb_bundle *b, size_t index, nb_err *err)
{
    nb_status st = nbi_runs_section_check(b, index, err);
    const uint32_t *agent = b->sections[index].info.param; /* capability, size */
    if (st != NB_OK || nbi_section_index(b, NB_SEC_RUNS, NULL, agent, 2) != (long)index)
        return st;
    nb_place *p = NULL;
    st = nb_place_open(b, &p, err);
    if (st == NB_OK)
        st = nbi_place_use(p, "the places", agent[0], agent[1], err);
    nb_place_close(p);
    return read_as(b, index, "the places (nb_place_open)", st, err);
}

/* A unit, as its planner reads it: with its tables, on the map and the
 * legend.  A unit without its tables (or a bundle without a map) has no
 * planner to open: a query for it says NB_ERR_NOTFOUND, not baked. */
static nb_status unit_check(const nb_bundle *b, size_t index, nb_err *err)
{
    nb_status st = nbi_unit_section_check(b, index, err);
    const char *name = b->sections[index].info.name;
    if (st != NB_OK || nbi_section_index(b, NB_SEC_UNIT, name, NULL, 0) != (long)index)
        return st;
    nb_planner *pl = NULL;
    st = nb_planner_open(b, name, &pl, err);
    nb_planner_close(pl);
    if (st == NB_ERR_NOTFOUND)
        return nbi_done(err, NB_OK);
    return read_as(b, index, "the planner (nb_planner_open)", st, err);
}

static const struct nbi_section_kind kinds[] = {
    {NB_SEC_LEGEND, "legend", {"terrains"}, NULL, READ_AT_OPEN},
    {NB_SEC_AGENTS, "agents", {"agents"}, NULL, READ_AT_OPEN},
    /* nb_bundle_verify checks its characters against the legend too. */
    {NB_SEC_MAP, "map", {"width", "height", "bits"}, NULL, READ_AT_OPEN},
    {NB_SEC_CLEARANCE, "clearance", {"capability", "cap", "bits"}, nbi_layer_section_check, NULL},
    {NB_SEC_COMPONENTS, "components", {"capability", "size", "components", "bits"},
     nbi_layer_section_check, NULL},
    {NB_SEC_RUNS, "runs", {"capability", "size", "components", "runs", "cells"},
     runs_check, NULL},
    {NB_SEC_SUBGOAL, "subgoal", {"capability", "size", "corner", "nodes", "edges"},
     nbi_subgoal_section_check, NULL},
    {NB_SEC_ABSTRACT, "abstract",
     {"cluster", "quality", "nodes", "edges", "inter", "placement", "path_bytes"},
     abstract_check, NULL},
    {NB_SEC_ABSTRACT_COSTS, "abstract_costs",
     {"capability", "size", "arcs", "graph_crc", "profile"}, nbi_acosts_section_check, NULL},
    {NB_SEC_ABSTRACT_LEVELS, "abstract_levels", {"levels", "factor", "graph_crc", "nodes", "arcs"},
     nbi_alevels_section_check, NULL},
    {NB_SEC_MODEL, "model", {"headings", "speeds", "speed_change"}, nbi_model_section_check, NULL},
    {NB_SEC_PERIMETER, "perimeter",
     {"radius", "layout", "entry_bits", "symmetries", "tables", "entries", "scale"},
     nbi_perimeter_section_check, NULL},
    {NB_SEC_UNIT, "unit", {"headings", "neighbourhood"}, unit_check, NULL},
    {NB_SEC_HITCHECK, "hitcheck", {"neighbourhood", "window", "all_curves"},
     nbi_hitcheck_section_check, NULL},
    {NB_SEC_CURVES, "curves", {"distance", "steps", "angles"}, nbi_curves_section_check, NULL},
    /* The forest's check reads every bitangent graph with it. */
    {NB_SEC_FOREST, "forest", {"circles"}, nbi_forest_section_check, NULL},
    {NB_SEC_BITANGENT, "bitangent", {"radius_index", "nodes", "transitions", "candidates", "arcs"},
     nbi_bitangent_section_check, NULL},
    {NB_SEC_TILE, "tile", {"column", "row"}, nbi_wtile_section_check, NULL},
    {NB_SEC_BORDER, "border", {"capability", "size", "components"}, nbi_border_section_check, NULL},
    {NB_SEC_WORLD, "world", {"columns", "rows"}, nbi_windex_section_check, NULL},
    {NB_SEC_WORLD_COMPONENTS, "world_components", {"capability", "size", "components"},
     nbi_wcomp_section_check, NULL},
    {NB_SEC_BORDER_GRAPH, "border_graph", {"capability", "size", "portals", "links"},
     nbi_bgraph_section_check, NULL},
    {NB_SEC_WORLD_GRAPH, "world_graph", {"capability", "size", "nodes", "arcs"},
     nbi_wgraph_section_check, NULL},
    {NB_SEC_WORLD_LANDMARKS, "world_landmarks", {"capability", "size", "landmarks"},
     nbi_wlmk_section_check, NULL},
    {NB_SEC_BORDER_OPT, "border_opt", {"capability", "size", "corner", "portals"}, NULL,
     "its reader is above the registry (lib/runtime/stream/opt_border.c): the link reads it "
     "checked (nbi_oborder_read), and the world bundle's world_opt holds it"},
    {NB_SEC_WORLD_OPT, "world_opt", {"capability", "size", "corner", "nodes"}, NULL,
     "its reader is above the registry (lib/runtime/stream/opt_wview.c): nb_world_sg_find "
     "reads it in place, its header at the layer's first query, each tile's border, moves "
     "and landmark distances at the tile's first use, each row as it is unpacked (nbi_wopv)"},
    {NB_SEC_WORLD_BLOCKS, "world_blocks", {"capability", "size", "side", "entries"},
     nbi_wblocks_section_check, NULL},
    {NB_SEC_TILE_INSERT, "tile_insert", {"capability", "size", "blocks", "portals", "borders"},
     nbi_tins_section_check, NULL},
};

const nbi_section_kinds nbi_sections = {kinds, sizeof kinds / sizeof kinds[0]};

const struct nbi_section_kind *nbi_section_kind(uint32_t type)
{
    for (size_t i = 0; i < nbi_sections.count; i++)
        if (kinds[i].type == type)
            return &kinds[i];
    return NULL;
}

const struct nbi_section_kind *nbi_section_kind_at(size_t i)
{
    return i < nbi_sections.count ? &kinds[i] : NULL;
}

const char *nb_section_type_name(uint32_t type)
{
    const struct nbi_section_kind *k = nbi_section_kind(type);
    return k ? k->name : NULL;
}

nb_status nb_section_type_parse(const char *name, uint32_t *type, nb_err *err)
{
    char have[512] = "";
    size_t at = 0;
    for (size_t i = 0; i < nbi_sections.count; i++) {
        if (name && strcmp(kinds[i].name, name) == 0) {
            *type = kinds[i].type;
            return nbi_done(err, NB_OK);
        }
        if (at + 32 < sizeof have)
            at += (size_t)snprintf(have + at, sizeof have - at, "%s%s", i ? ", " : "",
                                   kinds[i].name);
    }
    return nbi_fail(err, NB_ERR_NOTFOUND, "no section type '%s' (the types are %s)",
                    name ? name : "", have);
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

/* ---- the public opens, with this table ---- */

/* The first handle a program makes: the ABI guard checks the program's
 * navbake.h here (core/abi.c). */
nb_status nb_bundle_open_abi(const char *path, unsigned flags, const nb_allocator *alloc,
                             nb_bundle **out, nb_err *err, const nb_abi *abi)
{
    if (out)
        *out = NULL;
    nb_status st = nb_abi_check(abi, err);
    return st != NB_OK ? st : nbi_open_path(&nbi_sections, path, flags, alloc, out, err);
}

nb_status nb_bundle_open_memory_abi(const void *data, size_t len, unsigned flags,
                                    const nb_allocator *alloc, nb_bundle **out, nb_err *err,
                                    const nb_abi *abi)
{
    if (out)
        *out = NULL;
    nb_status st = nb_abi_check(abi, err);
    return st != NB_OK ? st : nbi_open_memory(&nbi_sections, data, len, flags, alloc, out, err);
}

nb_status nbi_bundle_open_image(uint8_t *image, size_t len, const char *name, unsigned flags,
                                nb_bundle **out, nb_err *err)
{
    return nbi_open_image(&nbi_sections, image, len, name, flags, NULL, out, err);
}

nb_status nbi_bundle_open_image_alloc(uint8_t *image, size_t len, const char *name,
                                      unsigned flags, const nb_allocator *alloc, nb_bundle **out,
                                      nb_err *err)
{
    return nbi_open_image(&nbi_sections, image, len, name, flags, alloc, out, err);
}
