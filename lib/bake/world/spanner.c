/* spanner.c: which of a tile's portal-to-portal distances the world's HAA*
 * graph keeps as arcs.  A tile's portals lie on its edges and are all
 * joined inside it (a street map's tile of 1024 has some 400, so 160,000
 * pairs): the whole clique would make the world graph a byte a cell and
 * its search touch hundreds of arcs a node.  A greedy spanner keeps a pair
 * only when no two arcs already kept go through a third portal within the
 * stretch: pairs taken shortest first, each dropped when some portal k
 * with arcs (i, k) and (k, j) kept has d(i, k) + d(k, j) <= stretch x
 * d(i, j).  A dropped pair's distance is then two kept arcs within the
 * stretch, so every path through the tile costs at most stretch times its
 * clique cost; portals along one straight edge keep little more than a
 * chain.  Only two hops are tried (the tile's own exact distances), so
 * the choice is quick and the same on any machine. */
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"
#include "world/world.h"

typedef struct pair {
    double d;
    uint32_t i, j;
} pair;

static int by_length(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    if (x->d != y->d)
        return x->d < y->d ? -1 : 1;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    return (x->j > y->j) - (x->j < y->j);
}

static double dist(const nbi_bgraph *r, uint32_t i, uint32_t j)
{
    const uint8_t *d = r->dist + NBI_BGRAPH_DIST * ((size_t)i * r->portals + j);
    return nbi_steps_length(nbi_get32(d + NBI_BGRAPH_D_CARD), nbi_get32(d + NBI_BGRAPH_D_DIAG));
}

nb_status nbb_world_spanner(const nbi_bgraph *r, double stretch, uint8_t *kept, nb_err *err)
{
    uint32_t P = r->portals;
    memset(kept, 0, (size_t)P * P);
    size_t np = 0;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = i + 1; j < P; j++)
            np += nbi_get32(r->dist + NBI_BGRAPH_DIST * ((size_t)i * P + j)) != NBI_BGRAPH_NONE;
    pair *pr = nbb_malloc((np ? np : 1) * sizeof *pr);
    uint32_t *adj = nbb_malloc(((size_t)P * P + 1) * sizeof *adj), *deg = nbb_calloc(P + 1, sizeof *deg);
    if (!pr || !adj || !deg) {
        nbb_free(pr), nbb_free(adj), nbb_free(deg);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the spanner of %u portals", P);
    }
    np = 0;
    for (uint32_t i = 0; i < P; i++)
        for (uint32_t j = i + 1; j < P; j++)
            if (nbi_get32(r->dist + NBI_BGRAPH_DIST * ((size_t)i * P + j)) != NBI_BGRAPH_NONE)
                pr[np++] = (pair){dist(r, i, j), i, j};
    if (!nbb_sort(pr, np, sizeof *pr, by_length)) {
        nbb_free(pr), nbb_free(adj), nbb_free(deg);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the spanner of %u portals", P);
    }
    for (size_t k = 0; k < np; k++) {
        uint32_t i = pr[k].i, j = pr[k].j;
        double bound = stretch * pr[k].d;
        /* Through a portal kept from the one of fewer arcs. */
        uint32_t a = deg[i] <= deg[j] ? i : j, b = a == i ? j : i;
        int covered = 0;
        for (uint32_t e = 0; e < deg[a] && !covered; e++) {
            uint32_t m = adj[(size_t)a * P + e];
            covered = kept[(size_t)m * P + b] && dist(r, a, m) + dist(r, m, b) <= bound;
        }
        if (covered)
            continue;
        kept[(size_t)i * P + j] = kept[(size_t)j * P + i] = 1;
        adj[(size_t)i * P + deg[i]++] = j;
        adj[(size_t)j * P + deg[j]++] = i;
    }
    nbb_free(pr), nbb_free(adj), nbb_free(deg);
    return NB_OK;
}
