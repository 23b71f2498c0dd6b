/* aastar.h: Annotated A* inside the library, for the searches that stand
 * on it (HAA* insertion and refinement, abstract-edge building, motion
 * planning).  Internal. */
#ifndef NB_AASTAR_H
#define NB_AASTAR_H

#include "clearance/clearance.h"

/* A rectangle of cells, x0 <= x < x1 and y0 <= y < y1: a search given one
 * keeps the agent's top-left cell inside it (a cluster, say). */
typedef struct nbi_window {
    int32_t x0, y0, x1, y1;
} nbi_window;

/* The search alone, without a budget, on a clearance layer the caller has found (with
 * nbi_clearance_layer) for the agent's capability; size must be within
 * the layer's cap.  With goal NULL it is Dijkstra from start: it settles
 * every cell the agent reaches inside the window, whose costs
 * nbi_aa_cost then reads.  win NULL is the whole map.  No component
 * look-up and no standability check of the ends: the caller does those.
 * res->status is NB_PATH_FOUND or NB_PATH_NONE (always NONE without a
 * goal); res->path is filled when found.  ov (NULL: none) blocks cells. */
void nbi_aa_run(nb_aa *ws, const nbi_layer *clearance, uint32_t size, nb_corner corner,
                nb_cell start, const nb_cell *goal, const nbi_window *win, const nb_overlay *ov,
                nb_aa_result *res);

/* The same search begun and run in slices, for searches that others drive (place/reach.c):
 * start sets it up; advance expands at most budget cells and says how it stands:
 * NBI_AA_RUNNING, NBI_AA_FOUND (the goal closed), NBI_AA_EXHAUSTED (every cell reached
 * closed), or NBI_AA_NOMEM (the workspace could not grow).  expanded counts the cells the
 * search has expanded so far. */
enum { NBI_AA_RUNNING = 0, NBI_AA_FOUND, NBI_AA_EXHAUSTED, NBI_AA_NOMEM };
void nbi_aa_start(nb_aa *ws, const nbi_layer *clearance, uint32_t size, nb_corner corner,
                  nb_cell start, const nb_cell *goal, const nb_overlay *ov);
int nbi_aa_advance(nb_aa *ws, uint64_t budget);
uint64_t nbi_aa_expanded(const nb_aa *ws);

/* The cost of the best path to c found by the workspace's last search,
 * when that search closed c (settled it); -1 otherwise. */
double nbi_aa_cost(const nb_aa *ws, nb_cell c);

/* The same search on per-cell arrays the size of the map instead of the
 * pool's pages (the workspace before issue 16), and on those arrays with
 * lib/runtime/core/heap.h as its open list instead of the specialised heap,
 * for the benchmark (tests/bench/bench_clearance.c) to compare them in one
 * run.  Allocate their arrays at the first call; return 0 without memory. */
int nbi_aa_run_flat(nb_aa *ws, const nbi_layer *clear, uint32_t size, nb_corner corner,
                    nb_cell start, const nb_cell *goal, nb_aa_result *res);
int nbi_aa_run_generic_heap(nb_aa *ws, const nbi_layer *clear, uint32_t size, nb_corner corner,
                            nb_cell start, const nb_cell *goal, nb_aa_result *res);

/* For tests: the id the next search follows, to reach the wrap-around. */
void nbi_aa_force_sid(nb_aa *ws, uint32_t sid);

#endif
