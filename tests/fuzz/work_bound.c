/* work_bound.c: an HAA* query's bounds from its budget and the checked
 * sizes (work_bound.h).
 *
 * With budget B (0: none), a query settles at most B nodes in the phases
 * the budget counts (the near search, the insertions into level 1, the
 * search at level 1 or at the top level k, the A* that refines an edge),
 * so the path at its top level has at most min(B, N_k + 2) + 2 nodes.
 * Going down, each edge of level j becomes at most C_{j-1} + 1 nodes of
 * level j - 1 (a stored path never comes back to a node and stays in its
 * cluster, which holds C_{j-1} nodes of level j - 1; the ends' insertion
 * trees and the searches that refine an edge without a stored path stay
 * there too), and each edge of level 1 at most cluster^2 cells.  And by
 * weight: an edge of level j weighs what its stored path weighs (or more
 * than the path the search finds without one), every arc at least a step,
 * so a level's path has at most as many nodes as the top path has steps
 * (W_k each, the ends' insertions I_k each: I_1 = cluster^2, I_j = I_{j-1}
 * + C_{j-1} W_{j-1}), plus its two ends.  The searches the budget does
 * not count are the insertions above level 1 (a Dijkstra over one cluster
 * of each level, from each end), on a level without stored paths the
 * search that refines each of its edges (one cluster's nodes), and
 * finish's refinement of a partial path (an A* over one cluster's cells
 * for each edge of level 1 it takes no stored path for).  Bytes follow:
 * node storage in pages of 1024 keys of
 * 24 bytes (doubled as the pool grows), 24-byte heap items, about 100
 * bytes a node of a cluster search, 12-byte hops in two arrays, 8-byte
 * cells, each doubled for growth, and a constant for what the first query
 * above level 1 makes. */
#include <stdlib.h>
#include <string.h>

#include "work_bound.h"

#include "abstract/alevels.h"
#include "bundle/bundle.h"

#define PAGE_KEYS 1024u
#define PAGE_BYTES (PAGE_KEYS * 24u)
#define BASE_BYTES (512u << 10)

static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

int wb_haa_sizes(const nb_bundle *b, wb_haa *s)
{
    nbi_agraph g;
    nbi_alevels L;
    memset(s, 0, sizeof *s);
    if (nbi_agraph_find(b, &g, NULL) != NB_OK)
        return 0;
    s->cluster = g.cluster;
    s->cells = (uint64_t)g.width * g.height;
    s->levels = 1;
    int has = nbi_alevels_find(b, &g, &L, NULL) == NB_OK;
    if (!has)
        nbi_alevels_base(&L, &g);
    else
        s->levels = L.nlevels;
    s->paths[1] = g.arc_path != NULL;
    for (uint32_t j = 1; j <= s->levels; j++) {
        const nbi_alevel *v = &L.lv[j];
        s->nodes[j] = v->nnodes;
        if (j >= 2)
            s->paths[j] = v->arc_path != NULL;
        for (uint32_t u = 0; u < v->nnodes; u++) {
            uint32_t a0, a1 = nbi_lv_arcs(&L, j, u, &a0);
            s->degree[j] = max64(s->degree[j], a1 - a0);
            for (uint32_t a = a0; a < a1; a++) {
                uint32_t card, diag;
                nbi_lv_w(&L, j, a, &card, &diag);
                s->weight[j] = max64(s->weight[j], (uint64_t)card + diag);
            }
        }
        for (uint64_t k = 0; k < (uint64_t)v->ncx * v->ncy; k++) {
            uint32_t first;
            s->cluster_nodes[j] = max64(s->cluster_nodes[j], nbi_lv_nodes(&L, j, (uint32_t)k, &first));
        }
        if (j == s->levels)
            continue;
        /* C_j: level j's nodes counted by the cluster of level j + 1 they lie in. */
        const nbi_alevel *up = &L.lv[j + 1];
        uint64_t ncl = (uint64_t)up->ncx * up->ncy;
        uint32_t *count = calloc(ncl ? (size_t)ncl : 1, sizeof *count);
        if (!count)
            return 0;
        for (uint32_t u = 0; u < v->nnodes; u++) {
            nb_cell c = nbi_lv_cell(&L, nbi_lv_id(&L, j, u));
            uint32_t k = nbi_lv_cluster(&L, j + 1, (uint32_t)c.x, (uint32_t)c.y);
            if (++count[k] > s->within[j])
                s->within[j] = count[k];
        }
        free(count);
    }
    return 1;
}

/* Nodes the top search of level j may settle with budget B. */
static uint64_t settled(const wb_haa *s, uint64_t budget, uint32_t j)
{
    uint64_t all = s->nodes[j] + 2;
    return budget ? min64(budget, all) : all;
}

/* The steps of the top path of a query at level k: its inner edges and its ends' insertions. */
static uint64_t top_steps(const wb_haa *s, uint64_t budget, uint32_t k)
{
    uint64_t ins = s->cluster * s->cluster;
    for (uint32_t j = 2; j <= k; j++)
        ins += s->within[j - 1] * s->weight[j - 1];
    return settled(s, budget, k) * s->weight[k] + 2 * ins;
}

uint64_t wb_haa_hops(const wb_haa *s, uint64_t budget, uint32_t j)
{
    /* A query that stays at level 1, or one from the top level down. */
    const uint32_t k = s->levels;
    uint64_t h = settled(s, budget, k) + 2;
    for (uint32_t l = k; l > j; l--)
        h = h * (s->within[l - 1] + 1) + 1;
    h = min64(h, top_steps(s, budget, k) + 2 * (k - j + 1));
    return j == 1 ? max64(h, settled(s, budget, 1) + 2) : h;
}

/* Expansions of the searches the budget does not count: the insertions above level 1, the
 * refinement of the edges of a level without stored paths, and the refinement of a partial path
 * by finish (an A* in a cluster for each edge of level 1, when the query does not take its stored
 * path: none stored, terrain costs, or a stricter corner rule). */
static uint64_t uncounted(const wb_haa *s, uint64_t budget)
{
    uint64_t n = budget ? wb_haa_hops(s, budget, 1) * s->cluster * s->cluster : 0;
    for (uint32_t j = 2; j <= s->levels; j++) {
        n += 2 * s->within[j - 1];
        if (!s->paths[j])
            n += wb_haa_hops(s, budget, j) * s->within[j - 1];
    }
    return n;
}

/* Expansions of the counted phases when nothing stops them. */
static uint64_t counted_all(const wb_haa *s)
{
    uint64_t c2 = s->cluster * s->cluster, n = 18 * c2 + wb_haa_hops(s, 0, 1) * c2;
    for (uint32_t j = 1; j <= s->levels; j++)
        n += s->nodes[j] + 2;
    return n;
}

uint64_t wb_haa_expansions(const wb_haa *s, uint64_t budget)
{
    uint64_t counted = budget ? min64(budget, counted_all(s)) : counted_all(s);
    return counted + uncounted(s, budget);
}

/* A search of level j over pages of keys: its pages and heap for nodes it may reach. */
static uint64_t search_bytes(const wb_haa *s, uint64_t budget, uint32_t j)
{
    uint64_t reach = min64(settled(s, budget, j) * s->degree[j] + s->cluster_nodes[j] + 2,
                           s->nodes[j] + 2);
    uint64_t pages = min64(reach, (s->nodes[j] + 2 + PAGE_KEYS - 1) / PAGE_KEYS + 1);
    return 2 * pages * (PAGE_BYTES + 64) + 2 * 24 * reach;
}

uint64_t wb_haa_bytes(const wb_haa *s, uint64_t budget)
{
    uint64_t n = BASE_BYTES + search_bytes(s, budget, 1);
    uint64_t most_hops = 0;
    for (uint32_t j = 2; j <= s->levels; j++) {
        n += search_bytes(s, budget, j);
        /* The ends' insertions and the refinement's cluster search: nodes of level j - 1 in one
         * cluster of level j, each with its arcs pushed. */
        uint64_t c = s->within[j - 1];
        n += 3 * (2 * 100 * c + 2 * 24 * c * (s->degree[j - 1] + 1));
        most_hops = max64(most_hops, wb_haa_hops(s, budget, j));
    }
    uint64_t h1 = wb_haa_hops(s, budget, 1);
    most_hops = max64(most_hops, h1);
    n += 2 * 2 * 12 * most_hops + 2 * 2 * 4 * h1;
    /* The cells appended, whose loops are cut as they come: the path holds each cell once. */
    uint64_t cells = min64(h1 * (s->cluster * s->cluster + 1) + 16 * s->cluster * s->cluster,
                           s->cells + 1);
    n += 2 * 8 * cells + 4 * 12 * cells;
    return n;
}
