/* abstract_costs.c: the abstract graph's costs for each terrain-cost
 * profile of the agent set (formats/abstract.md, section type 33).
 *
 * Terrain costs change what a path costs, not where an agent may go: the
 * graph's nodes and edges, built for every (capability, size), serve an
 * agent with costs as they are (HAA* stays complete); only the weights
 * differ.  So a profile (the agents of one capability, size and
 * multipliers) gets what each arc that admits its agent costs it: a step
 * across a border, the multiplier of the cell it enters; an intra-edge,
 * the least cost of a path inside the cluster from one end to the other
 * in that direction (a Dijkstra from each node under the costs, the
 * move cost of Annotated A*: costs.h).  The cost from u to v and from v
 * to u differ (a move pays for the cell it enters), so each arc has its
 * own. */
#include <stdlib.h>

#include "abstract/abstract_build.h"
#include "bake_int.h"
#include "clearance/costs.h"
#include "core/heap.h"
#include "core/crc32.h"

typedef nbb_cost_profile profile;

static int profile_cmp(const void *pa, const void *pb)
{
    const profile *a = pa, *b = pb;
    if (a->cap != b->cap)
        return a->cap < b->cap ? -1 : 1;
    if (a->size != b->size)
        return a->size < b->size ? -1 : 1;
    for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
        if (a->cost[t] != b->cost[t])
            return a->cost[t] < b->cost[t] ? -1 : 1;
    return 0;
}

size_t nbb_cost_profiles(const nbi_agentset *set, nbb_cost_profile *out)
{
    size_t n = 0;
    for (size_t i = 0; i < set->count; i++) {
        const nb_agent *ag = &set->agent[i];
        if (!nbi_agent_weighted(ag))
            continue;
        profile p;
        memset(&p, 0, sizeof p);
        p.cap = ag->capability;
        p.size = ag->size;
        for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
            p.cost[t] = (p.cap >> t & 1u) ? ag->cost[t] : 1;
        size_t k = 0;
        while (k < n && profile_cmp(&out[k], &p) != 0)
            k++;
        if (k == n)
            out[n++] = p;
    }
    /* In place (no two compare equal, so any sort gives this order). */
    nbi_sort(out, n, sizeof *out, profile_cmp);
    return n;
}

/* The payload of one profile's costs on graph g (whose payload has CRC crc). */
static nb_status bake_profile(const nbb_acosts_source *src, const nbi_agraph *g, uint32_t crc,
                              const profile *p, uint32_t index, uint8_t **payload, size_t *len, nb_err *err)
{
    *payload = NULL;
    long ci = nbi_agraph_cap_index(g, p->cap);
    if (ci < 0)
        return nbi_fail(err, NB_ERR_FORMAT, "abstract costs: the graph does not serve capability %#x",
                        p->cap);
    const nbi_layer *l = NULL;
    for (uint32_t i = 0; i < src->ncaps; i++)
        if (src->caps[i] == p->cap)
            l = &src->layer[i];
    if (!l)
        return nbi_fail(err, NB_ERR_NOTFOUND, "abstract costs: no clearance layer for capability %#x",
                        p->cap);
    nbi_costs wc;
    nb_status st = nbi_costs_of_map(&wc, src->legend, src->cells, src->width, src->height, p->cap,
                                    p->size, p->cost, err);
    if (st != NB_OK)
        return st;
    unsigned nt = src->legend->nterrains;
    uint64_t narcs = 2 * (uint64_t)g->nedges, bytes = nbi_acosts_bytes(nt, narcs);
    uint8_t *out = nbb_calloc(1, (size_t)bytes);
    nbi_csearch cs;
    nb_cell *targets = nbb_malloc(((size_t)4 * g->cluster + 1) * sizeof *targets);
    if (!out || !targets || !nbi_csearch_init(&cs, nbb_mem(), g->cluster, g->cluster)) {
        nbb_free(out);
        nbb_free(targets);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph's costs");
    }
    nbi_csearch_costs(&cs, &wc, 0);
    const uint32_t h[NBI_AC_WORDS] = {src->width, src->height, p->cap, p->size, nt,
                                      (uint32_t)narcs, crc, index};
    for (int i = 0; i < NBI_AC_WORDS; i++)
        nbi_put32(out + 4 * i, h[i]);
    for (unsigned t = 0; t < nt; t++)
        nbi_putf64(out + NBI_ACOSTS_HEADER + 8 * (size_t)t, p->cost[t]);
    uint8_t *arc = out + NBI_ACOSTS_HEADER + 8 * (size_t)nt;
    const uint32_t ncl = g->ncx * g->ncy;
    for (uint32_t k = 0; k < ncl && st == NB_OK; k++) {
        nbi_box box = nbi_cluster_box(k, g->ncx, g->cluster, g->width, g->height);
        uint32_t n0 = nbi_u32at(g->cluster_first, k), n1 = nbi_u32at(g->cluster_first, k + 1);
        for (uint32_t u = n0; u < n1 && st == NB_OK; u++) {
            nb_cell cu = {nbi_u16at(g->node_xy, 2 * (size_t)u), nbi_u16at(g->node_xy, 2 * (size_t)u + 1)};
            uint32_t a0 = nbi_u32at(g->node_first, u), a1 = nbi_u32at(g->node_first, u + 1);
            size_t nt_ = 0;
            for (uint32_t a = a0; a < a1; a++) {
                if (!nbi_agraph_admits(g, a, p->cap, p->size))
                    continue;
                uint32_t v = nbi_u32at(g->arc_to, a);
                nb_cell cv = {nbi_u16at(g->node_xy, 2 * (size_t)v), nbi_u16at(g->node_xy, 2 * (size_t)v + 1)};
                if (v < n0 || v >= n1) /* across a border: one step into v's cell */
                    nbi_putf64(arc + 8 * (size_t)a, nbi_costs_cell(&wc, (uint32_t)cv.x, (uint32_t)cv.y));
                else {
                    size_t t = 0; /* parallel arcs lead to one node: each once */
                    while (t < nt_ && (targets[t].x != cv.x || targets[t].y != cv.y))
                        t++;
                    if (t == nt_)
                        targets[nt_++] = cv;
                }
            }
            if (nt_ == 0)
                continue;
            nbi_csearch_run(&cs, l, p->size, (int)g->corner, &box, cu, NULL, targets, nt_);
            for (uint32_t a = a0; a < a1; a++) {
                uint32_t v = nbi_u32at(g->arc_to, a);
                if (v < n0 || v >= n1 || !nbi_agraph_admits(g, a, p->cap, p->size))
                    continue;
                nb_cell cv = {nbi_u16at(g->node_xy, 2 * (size_t)v), nbi_u16at(g->node_xy, 2 * (size_t)v + 1)};
                double c = nbi_csearch_cost(&cs, cv, NULL);
                if (c < 0)
                    st = nbi_fail(err, NB_ERR_FORMAT,
                                  "abstract costs: arc %u from (%d, %d) to (%d, %d) admits an agent "
                                  "of size %u that cannot walk it: the graph does not match the "
                                  "clearance layers",
                                  a, cu.x, cu.y, cv.x, cv.y, p->size);
                else
                    nbi_putf64(arc + 8 * (size_t)a, c);
            }
        }
    }
    nbi_csearch_free(&cs);
    nbb_free(targets);
    if (st != NB_OK) {
        nbb_free(out);
        return st;
    }
    *payload = out;
    *len = (size_t)bytes;
    return NB_OK;
}

void nbb_acosts_info(const uint8_t *payload, nb_section_info *info)
{
    memset(info, 0, sizeof *info);
    info->type = NB_SEC_ABSTRACT_COSTS;
    info->version = NBI_ACOSTS_VERSION;
    info->encoding = NB_ENC_RAW;
    info->param[0] = nbi_get32(payload + 4 * NBI_AC_CAP);
    info->param[1] = nbi_get32(payload + 4 * NBI_AC_SIZE);
    info->param[2] = nbi_get32(payload + 4 * NBI_AC_ARCS);
    info->param[3] = nbi_get32(payload + 4 * NBI_AC_GRAPH_CRC);
    info->param[4] = nbi_get32(payload + 4 * NBI_AC_INDEX);
}

nb_status nbb_acosts_put(nbb_builder *w, const nbb_acosts_source *src, const uint8_t *graph,
                         size_t glen, int compress, size_t *count, nb_err *err)
{
    nbb_builder_remove(w, NB_SEC_ABSTRACT_COSTS);
    if (count)
        *count = 0;
    profile *prof = nbb_malloc(NB_MAX_AGENTS * sizeof *prof);
    if (!prof)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph's costs");
    size_t n = nbb_cost_profiles(src->agents, prof);
    nb_status st = NB_OK;
    nbi_agraph g;
    if (n)
        st = nbi_agraph_view(graph, glen, src->width, src->height, &g, err);
    uint32_t crc = n ? nbi_crc32(0, graph, glen) : 0;
    for (size_t i = 0; i < n && st == NB_OK; i++) {
        uint8_t *payload = NULL;
        size_t len = 0;
        st = bake_profile(src, &g, crc, &prof[i], (uint32_t)i, &payload, &len, err);
        if (st == NB_OK) {
            nb_section_info info;
            nbb_acosts_info(payload, &info);
            st = nbb_builder_add_owned(w, &info, payload, len, compress, err);
        }
    }
    if (st == NB_OK && count)
        *count = n;
    nbb_free(prof);
    return st;
}

nb_status nbb_acosts_source_of(const nb_bundle *b, nbb_acosts_source *src, nb_err *err)
{
    memset(src, 0, sizeof *src);
    if (!b->has_map || !b->agents)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no map or agent set", b->path);
    src->width = b->width;
    src->height = b->height;
    src->cells = nbi_map_bytes(b);
    if (!src->cells)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for the map's cells", b->path);
    src->legend = &b->legend;
    src->agents = b->agents;
    src->ncaps = (uint32_t)nbi_agents_capabilities(b->agents, src->caps);
    for (uint32_t i = 0; i < src->ncaps; i++) {
        nb_status st = nbi_clearance_layer(b, src->caps[i], &src->layer[i], err);
        if (st != NB_OK)
            return st;
    }
    return NB_OK;
}

nb_status nbb_acosts_bake(const nbb_acosts_source *src, const uint8_t *graph, size_t glen,
                          nb_capability cap, uint32_t size, const double *cost, uint32_t index,
                          uint8_t **payload, size_t *len, nb_err *err)
{
    profile p;
    memset(&p, 0, sizeof p);
    p.cap = cap;
    p.size = size;
    for (unsigned t = 0; t < NB_MAX_TERRAINS; t++)
        p.cost[t] = (cap >> t & 1u) ? cost[t] : 1;
    nbi_agraph g;
    nb_status st = nbi_agraph_view(graph, glen, src->width, src->height, &g, err);
    return st == NB_OK ? bake_profile(src, &g, nbi_crc32(0, graph, glen), &p, index, payload, len,
                                      err)
                       : st;
}

nb_status nbb_put_abstract_costs(nbb_builder *w, const nb_bundle *b, const void *graph,
                                 size_t glen, int compress, size_t *count, nb_err *err)
{
    nbb_acosts_source *src = nbb_malloc(sizeof *src);
    if (!src)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph's costs");
    nb_status st = nbb_acosts_source_of(b, src, err);
    if (st == NB_OK)
        st = nbb_acosts_put(w, src, graph, glen, compress, count, err);
    nbb_free(src);
    return st;
}
