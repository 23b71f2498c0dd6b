/* subgoal_build.h: what mkclear --optimal computes (subgoal_build.c,
 * contract.c), for the bake side, the deep verifier and the tests.  The
 * layout is specified in formats/subgoal.md; the runtime reads it through
 * subgoal/subgoal.h. */
#ifndef NB_SUBGOAL_BUILD_H
#define NB_SUBGOAL_BUILD_H

#include "bake_int.h"
#include "subgoal/subgoal.h"

/* A path's length as its counts of cardinal and diagonal steps, compared
 * exactly: a + b sqrt(2) <= c + d sqrt(2), which holds with equality only
 * when a = c and b = d (sqrt(2) is irrational).  Counts below 2^31. */
static inline int nbb_steps_le(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    int64_t da = (int64_t)a - (int64_t)c, db = (int64_t)d - (int64_t)b;
    if (da <= 0 && db >= 0)
        return 1;
    if (da >= 0 && db <= 0)
        return da == 0 && db == 0;
    if (da < 0) /* and db < 0: |da| >= |db| sqrt(2) */
        return da * da >= 2 * db * db;
    return da * da <= 2 * db * db; /* both positive */
}

/* 1 when a free cell whose eight neighbours' freedom is mask (bit d for
 * move d of core/grid.h) is a subgoal under the corner rule.  Strict: some
 * two of its neighbours p and q are joined through it more briefly than
 * by any other way inside its 3 x 3 block, and that way is longer than the
 * octile distance from p to q (a path bends there round a corner): the
 * cells with a blocked diagonal neighbour whose two cardinal cells between
 * are free.  Weak: a diagonal step from it cuts a blocked cell's corner
 * (its target free, one of the two cardinal cells beside it blocked, the
 * other free), so that both ends of every corner-cutting step are
 * subgoals (formats/subgoal.md says why). */
int nbb_subgoal_rule(unsigned mask, nb_corner corner);

/* One undirected edge of the simple subgoal graph, or a shortcut. */
typedef struct nbb_sg_edge {
    uint32_t u, v;        /* node ids */
    uint32_t card, diag;  /* steps of the path it stands for */
    uint32_t mid;         /* a shortcut's middle node, or NBI_SG_NO_MID */
} nbb_sg_edge;

/* The contraction hierarchy over n nodes and their undirected edges
 * (contract.c): level[v] is v's place in the contraction order, and the
 * upward edges of each node (to nodes contracted later, shortcuts
 * included) come out in CSR form, each node's sorted by target: first
 * (n + 1 entries) and *up (*nup of them, malloc'ed).  Contraction stops
 * when its witness searches have pushed budget nodes (0: no budget), and
 * the nodes left, with those of too many edges, make the core: the top
 * level, their edges among themselves kept both ways. */
typedef struct nbb_ch_stats {
    uint64_t shortcuts, witness_searches, settled, pushes, arcs;
    uint64_t core; /* nodes left uncontracted, at the top level */
} nbb_ch_stats;
/* progress (or NULL) is told the share of nodes contracted, and may stop it
 * (NB_ERR_CANCELLED). */
nb_status nbb_contract(uint32_t n, const nbb_sg_edge *edges, size_t nedges, uint64_t budget,
                       uint32_t *level, uint32_t *first, nbb_sg_edge **up, size_t *nup,
                       nbb_ch_stats *stats, const nbb_progress_part *progress, nb_err *err);

/* Witness-search pushes contraction may spend per map cell, and at least
 * in all.  Street maps and large open maps need about 200 a cell to
 * contract whole with witness searches of 200 settled nodes (Paris_0_512
 * 53M pushes, AcrosstheCape 118M; contract.c shortens them past 7/10 of
 * this); with less they stop with subgoals in
 * the core, which the query searches as a plain graph (at 40 a cell,
 * 28-31% of them: 2.7x slower on AcrosstheCape).  The budget still bounds
 * maps of many close subgoals (random512-10-0)
 * (tests/bench/results/optimal-bench.md, "Street maps" and "Street maps,
 * round 6"). */
#define NBB_CH_BUDGET_PER_CELL 320
#define NBB_CH_BUDGET_MIN ((uint64_t)8 << 20)

typedef struct nbb_subgoal_stats {
    uint32_t nodes;    /* subgoals */
    uint32_t original; /* edges of the simple subgoal graph (undirected) */
    uint32_t edges;    /* upward edges stored, shortcuts included */
    uint32_t core;     /* nodes left uncontracted (contract.c) */
    uint64_t bytes;    /* the payload */
} nbb_subgoal_stats;

/* The subgoal layer of one agent (size, corner rule) from the clearance of
 * its capability (one byte per cell, capped at size or more), as a
 * section payload (malloc'ed, *len bytes). */
/* The same, telling progress (or NULL) the share done; it may stop it
 * (NB_ERR_CANCELLED). */
nb_status nbb_subgoal_encode_progress(const uint8_t *cv, uint32_t width, uint32_t height,
                                      nb_capability cap, uint32_t size, nb_corner corner,
                                      uint8_t **payload, size_t *len, nbb_subgoal_stats *stats,
                                      const nbb_progress_part *progress, nb_err *err);
nb_status nbb_subgoal_encode(const uint8_t *cv, uint32_t width, uint32_t height, nb_capability cap,
                             uint32_t size, nb_corner corner, uint8_t **payload, size_t *len,
                             nbb_subgoal_stats *stats, nb_err *err);

/* The layers of nbb_level_bake_subgoal, for a level given by its parts. */
nb_status nbb_bake_subgoal(nbb_builder *b, const nbi_legend *legend, const nbi_agentset *agents,
                           const nbb_grid *grid, unsigned corners, int compress,
                           nbb_optimal_stats *stats, nb_err *err);

#endif
