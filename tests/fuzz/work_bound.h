/* work_bound.h: what an HAA* query may cost on a bundle that opens (issue
 * 29), computed from its budget and the sizes its sections' checks have
 * proved: the bounds of lib/runtime/abstract/haa.c's and levels_query.c's
 * comments, as numbers, for the fuzz target that measures work
 * (fuzz_work.c) and the budget test (test_budget.c).  The constants are
 * the workspace's element sizes, rounded up; what matters is that the
 * bound follows the budget and the checked sizes, never the product of a
 * level's size with the one below (what stored paths that bounce cost
 * before issue 29). */
#ifndef NB_FUZZ_WORK_BOUND_H
#define NB_FUZZ_WORK_BOUND_H

#include <stdint.h>

#include "navbake.h"

#define WB_LEVELS 9 /* [1 .. 8] */

typedef struct wb_haa {
    uint64_t cluster;             /* level 1's side in cells */
    uint64_t cells;               /* the map's */
    uint32_t levels;              /* 1: the graph alone */
    int paths[WB_LEVELS];         /* level j stores its edges' paths */
    uint64_t nodes[WB_LEVELS];    /* N_j */
    uint64_t degree[WB_LEVELS];   /* the most arcs of a node of level j */
    uint64_t cluster_nodes[WB_LEVELS]; /* the most nodes of level j in one cluster of level j */
    uint64_t within[WB_LEVELS];   /* C_j: the most nodes of level j in one cluster of level j + 1 */
    uint64_t weight[WB_LEVELS];   /* W_j: the most steps of an arc of level j */
} wb_haa;

/* The checked sizes of b's graph and levels (b's HAA* workspace has opened: its sections are
 * checked); 0 when b has no graph. */
int wb_haa_sizes(const nb_bundle *b, wb_haa *s);
/* The most expansions a query with this budget (0: none) may report. */
uint64_t wb_haa_expansions(const wb_haa *s, uint64_t budget);
/* The most bytes its workspace may take from the allocator during the query (a query after
 * others: what it grows by). */
uint64_t wb_haa_bytes(const wb_haa *s, uint64_t budget);
/* The most nodes of level j's path while the path goes down (the hops of levels_query.c). */
uint64_t wb_haa_hops(const wb_haa *s, uint64_t budget, uint32_t j);

#endif
