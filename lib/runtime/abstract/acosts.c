/* acosts.c: the runtime's reading of an abstract graph's costs for one
 * terrain-cost profile (formats/abstract.md, section type 33).  A profile
 * is the agents of one capability, size and terrain costs; its section
 * holds, for every arc of the bundle's abstract graph that admits such an
 * agent, what the arc costs it.  Everything HAA* relies on (the graph it
 * was baked for, the profile's multipliers, each cost at least the octile
 * distance times the least multiplier, so the heuristic stays admissible)
 * is checked once per bundle (bundle/checked.c).  It stores no path: an
 * agent with costs refines every edge by an A* in its cluster, which its
 * budget counts, so its work is bounded as the graph's (haa.c). */
#include <math.h>

#include "abstract/abstract.h"
#include "core/crc32.h"

static nb_cell node_cell(const nbi_agraph *g, uint32_t u)
{
    nb_cell c = {nbi_u16at(g->node_xy, 2 * (size_t)u), nbi_u16at(g->node_xy, 2 * (size_t)u + 1)};
    return c;
}

#define BAD(...) nbi_fail(err, NB_ERR_FORMAT, "abstract costs: " __VA_ARGS__)

uint64_t nbi_acosts_bytes(uint32_t nterrains, uint64_t narcs)
{
    return NBI_ACOSTS_HEADER + 8 * (uint64_t)nterrains + 8 * narcs;
}

uint32_t nbi_agraph_crc(const nb_bundle *b, const nbi_agraph *g)
{
    const struct nbi_section *s = &b->sections[g->section];
    return nbi_crc32(0, s->payload, (size_t)s->info.usize);
}

long nbi_agraph_cap_index(const nbi_agraph *g, nb_capability cap)
{
    for (uint32_t i = 0; i < g->ncaps; i++)
        if (nbi_u32at(g->caps, i) == cap)
            return (long)i;
    return -1;
}

/* The header and the profile: O(terrains). */
static nb_status view_header(const nb_bundle *b, const uint8_t *p, size_t len, const nbi_agraph *g,
                             nbi_acosts *c, nb_err *err)
{
    memset(c, 0, sizeof *c);
    c->section = -1;
    if (len < NBI_ACOSTS_HEADER)
        return BAD("%zu bytes, shorter than its %d-byte header", len, NBI_ACOSTS_HEADER);
    uint32_t h[NBI_AC_WORDS];
    for (int i = 0; i < NBI_AC_WORDS; i++)
        h[i] = nbi_get32(p + 4 * i);
    if (h[NBI_AC_WIDTH] != b->width || h[NBI_AC_HEIGHT] != b->height)
        return BAD("for a %u x %u map, not this %u x %u one", h[NBI_AC_WIDTH], h[NBI_AC_HEIGHT],
                   b->width, b->height);
    unsigned nt = b->legend.nterrains;
    if (h[NBI_AC_NTERRAINS] != nt)
        return BAD("%u terrains, but the legend has %u", h[NBI_AC_NTERRAINS], nt);
    c->cap = h[NBI_AC_CAP];
    c->size = h[NBI_AC_SIZE];
    if (c->cap == 0 || (nt < 32 && (c->cap >> nt) != 0))
        return BAD("capability %#x is not a set of the legend's %u terrains", c->cap, nt);
    if (c->size < 1 || c->size > NB_MAX_AGENT_SIZE)
        return BAD("agent size %u: expected 1 to %d", c->size, NB_MAX_AGENT_SIZE);
    uint64_t narcs = 2 * (uint64_t)g->nedges;
    if (h[NBI_AC_ARCS] != narcs)
        return BAD("%u arcs, but the abstract graph has %llu: baked for another graph; run "
                   "mkabstract again",
                   h[NBI_AC_ARCS], (unsigned long long)narcs);
    if (len != nbi_acosts_bytes(nt, narcs))
        return BAD("%zu bytes, expected %llu for %u terrains and %llu arcs", len,
                   (unsigned long long)nbi_acosts_bytes(nt, narcs), nt, (unsigned long long)narcs);
    c->graph_crc = h[NBI_AC_GRAPH_CRC];
    c->index = h[NBI_AC_INDEX];
    c->least = NB_MAX_COST;
    int weighted = 0;
    for (unsigned t = 0; t < NB_MAX_TERRAINS; t++) {
        double v = t < nt ? nbi_getf64(p + NBI_ACOSTS_HEADER + 8 * (size_t)t) : 1;
        if (!(c->cap >> t & 1u)) {
            if (v != 1)
                return BAD("terrain %u is not the profile's but costs %g (expected 1)", t, v);
        } else {
            if (!(v >= 1 && v <= NB_MAX_COST))
                return BAD("terrain %u costs %g: a multiplier is a number from 1 to 1e6", t, v);
            weighted |= v != 1;
            if (v < c->least)
                c->least = v;
        }
        c->cost[t] = v;
    }
    if (!weighted)
        return BAD("a profile whose terrains all cost 1 (the graph's own weights serve it)");
    long ci = nbi_agraph_cap_index(g, c->cap);
    uint32_t si = 0;
    while (si < g->nsizes && nbi_u32at(g->sizes, si) != c->size)
        si++;
    if (ci < 0 || si == g->nsizes)
        return BAD("a profile of capability %#x and size %u, which the abstract graph does not "
                   "serve",
                   c->cap, c->size);
    c->arc_cost = p + NBI_ACOSTS_HEADER + 8 * (size_t)nt;
    return NB_OK;
}

/* Every arc: a cost where it admits the profile's agent, no less than what the heuristic says
 * (the octile distance between its ends times the least multiplier), else 0. */
static nb_status check_body(const nb_bundle *b, const nbi_agraph *g, const nbi_acosts *c,
                            nb_err *err)
{
    uint32_t crc = nbi_agraph_crc(b, g);
    if (crc != c->graph_crc)
        return BAD("baked for another abstract graph (CRC %08x, the graph's is %08x); run "
                   "mkabstract again",
                   c->graph_crc, crc);
    double most = NB_MAX_COST * NBI_SQRT2 * (double)g->cluster * g->cluster;
    for (uint32_t u = 0; u < g->nnodes; u++) {
        nb_cell cu = node_cell(g, u);
        uint32_t a1 = nbi_u32at(g->node_first, u + 1);
        for (uint32_t a = nbi_u32at(g->node_first, u); a < a1; a++) {
            double v = nbi_acosts_arc(c, a);
            if (!nbi_agraph_admits(g, a, c->cap, c->size)) {
                if (v != 0)
                    return BAD("arc %u does not admit the profile's agent but costs %g "
                               "(expected 0)",
                               a, v);
                continue;
            }
            nb_cell cv = node_cell(g, nbi_u32at(g->arc_to, a));
            double low = nbi_octile_cells(cu.x, cu.y, cv.x, cv.y) * c->least;
            if (!(v >= low * (1 - NBI_ACOSTS_SLACK) && v <= most))
                return BAD("arc %u costs %g, below the octile distance times the least "
                           "multiplier (%g) or beyond any path in its cluster",
                           a, v, low);
        }
    }
    return NB_OK;
}

static nb_status check_section(const nb_bundle *b, size_t index, nb_err *err)
{
    nbi_agraph g;
    nbi_acosts c;
    nb_status st = nbi_agraph_find(b, &g, err);
    if (st == NB_OK) {
        const struct nbi_section *s = &b->sections[index];
        st = view_header(b, s->payload, (size_t)s->info.usize, &g, &c, err);
        if (st == NB_OK)
            st = check_body(b, &g, &c, err);
        if (st != NB_OK)
            nbi_err_prefix(err, "%s: section %zu", b->path, index);
    }
    return st;
}

nb_status nbi_acosts_section_check(const nb_bundle *b, size_t index, nb_err *err)
{
    nbi_agraph g;
    nbi_acosts c;
    nb_status st = nbi_agraph_under(b, index, &g, err);
    return st == NB_OK ? nbi_acosts_at(b, index, &g, &c, err) : st;
}

nb_status nbi_acosts_at(const nb_bundle *b, size_t index, const nbi_agraph *g, nbi_acosts *c,
                        nb_err *err)
{
    if (index >= b->nsections || b->sections[index].info.type != NB_SEC_ABSTRACT_COSTS)
        return nbi_fail(err, NB_ERR_ARG, "%s: section %zu is not an abstract graph's costs", b->path,
                        index);
    const struct nbi_section *s = &b->sections[index];
    if (s->info.version != NBI_ACOSTS_VERSION)
        return nbi_fail(err, NB_ERR_VERSION,
                        "%s: section %zu (abstract_costs) has version %u; this reader knows "
                        "version %d",
                        b->path, index, s->info.version, NBI_ACOSTS_VERSION);
    if (NB_ENC_LAYOUT(s->info.encoding) != NB_ENC_RAW || s->payload == NULL ||
        (NB_ENC_COMPRESSION(s->info.encoding) && s->payload == s->stored))
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (abstract_costs): encoding %s, expected raw", b->path,
                        index, nb_encoding_name(s->info.encoding));
    nb_status st = view_header(b, s->payload, (size_t)s->info.usize, g, c, err);
    if (st != NB_OK) {
        nbi_err_prefix(err, "%s: section %zu", b->path, index);
        return st;
    }
    const nb_section_info *in = &s->info;
    if (in->param[0] != c->cap || in->param[1] != c->size || in->param[2] != 2 * g->nedges ||
        in->param[3] != c->graph_crc || in->param[4] != c->index)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (abstract_costs): the section table and the payload "
                        "disagree on its profile, arcs or graph",
                        b->path, index);
    st = nbi_section_checked(b, index, check_section, err);
    if (st != NB_OK)
        return st;
    c->section = (long)index;
    return NB_OK;
}
