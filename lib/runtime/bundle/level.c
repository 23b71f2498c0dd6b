/* level.c: what an open bundle says about its level: terrains, agent
 * types and the map's cells. */
#include <stdio.h>

#include "bundle/bundle.h"

unsigned nb_terrain_count(const nb_bundle *b) { return b->has_legend ? b->legend.nterrains : 0; }

const char *nb_terrain_name(const nb_bundle *b, unsigned t)
{
    return b->has_legend && t < b->legend.nterrains ? b->legend.names[t] : NULL;
}

const char *nb_terrain_chars(const nb_bundle *b, unsigned t)
{
    return b->has_legend && t < b->legend.nterrains ? b->legend.chars[t] : NULL;
}

const char *nb_obstacle_chars(const nb_bundle *b) { return b->has_legend ? b->legend.obstacles : ""; }

nb_status nb_capability_parse(const nb_bundle *b, const char *list, nb_capability *out, nb_err *err)
{
    if (!b->has_legend)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the bundle has no terrain legend", b->path);
    if (!list)
        return nbi_fail(err, NB_ERR_ARG, "nb_capability_parse: no list");
    return nbi_done(err, nbi_capability_parse(&b->legend, list, out, err));
}

size_t nb_capability_format(const nb_bundle *b, nb_capability cap, char *buf, size_t len)
{
    nbi_legend none;
    if (!b->has_legend)
        none.nterrains = 0;
    return nbi_capability_format(b->has_legend ? &b->legend : &none, cap, buf, len);
}

size_t nb_agent_count(const nb_bundle *b) { return b->agents ? b->agents->count : 0; }

const nb_agent *nb_agent_get(const nb_bundle *b, size_t i)
{
    return b->agents && i < b->agents->count ? &b->agents->agent[i] : NULL;
}

nb_status nb_agent_lookup(const nb_bundle *b, const char *name, size_t *index, nb_err *err)
{
    size_t n = nb_agent_count(b);
    for (size_t i = 0; name && i < n; i++)
        if (strcmp(b->agents->agent[i].name, name) == 0) {
            *index = i;
            return nbi_done(err, NB_OK);
        }
    char have[256] = "";
    size_t at = 0;
    for (size_t i = 0; i < n && at + NB_NAME_MAX + 3 < sizeof have; i++)
        at += (size_t)snprintf(have + at, sizeof have - at, "%s%s", i ? ", " : "",
                               b->agents->agent[i].name);
    return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no agent '%s' (%s%s)", b->path, name ? name : "",
                    n ? "the agents are " : "the bundle has no agent set", have);
}

int nb_has_map(const nb_bundle *b) { return b->has_map; }
uint32_t nb_map_width(const nb_bundle *b) { return b->width; }
uint32_t nb_map_height(const nb_bundle *b) { return b->height; }

int nb_map_terrain(const nb_bundle *b, long x, long y)
{
    if (!b->has_map || x < 0 || y < 0 || x >= (long)b->width || y >= (long)b->height)
        return NB_OBSTACLE;
    uint8_t code = b->legend.code[nbi_map_char_at(&b->map, (size_t)y * b->width + (size_t)x)];
    return code < b->legend.nterrains ? code : NB_OBSTACLE;
}

char nb_map_char(const nb_bundle *b, long x, long y)
{
    if (!b->has_map || x < 0 || y < 0 || x >= (long)b->width || y >= (long)b->height)
        return 0;
    return (char)nbi_map_char_at(&b->map, (size_t)y * b->width + (size_t)x);
}
