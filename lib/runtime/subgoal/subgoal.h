/* subgoal.h: subgoal graphs, the optimal-search layer, inside the runtime
 * (formats/subgoal.md): the grid as the scans read it, the checked layer,
 * the scan for direct-h-reachable subgoals and the walk of an h-path.  The
 * bake side builds layers with the same scan (bake/subgoal).  Internal.
 *
 * The cells where one agent (capability, size) may stand form a binary
 * 8-connected grid; a subgoal is a cell where shortest paths bend round
 * an obstacle's corner, so that every shortest path is a chain of
 * h-reachable hops (each as long as the octile distance) between the two
 * ends and subgoals (Uras, Koenig and Hernandez, ICAPS 2013).  The layer
 * keeps the grid as bitmaps, the subgoals, and the graph of their
 * direct-h-reachable pairs with a contraction hierarchy on top. */
#ifndef NB_SUBGOAL_H
#define NB_SUBGOAL_H

#include "bundle/bundle.h"
#include "clearance/costs.h"
#include "core/grid.h"

/* The grid of one agent as bitmaps of little-endian u64 words, read in
 * place: row y's word k holds cells x = 64k .. 64k + 63 (bit x mod 64);
 * column x's word k holds rows y = 64k .. 64k + 63.  Bits past the map's
 * edge are 0. */
typedef struct nbi_sggrid {
    const uint8_t *free_rows; /* height x row_words: 1 where the agent may stand */
    const uint8_t *sub_rows;  /* height x row_words: 1 at a subgoal */
    const uint8_t *pass_cols; /* width x col_words: 1 where free and not a subgoal */
    uint32_t width, height, row_words, col_words;
    int strict; /* the corner rule: NB_CORNER_STRICT */
} nbi_sggrid;

static inline uint64_t nbi_sg_word(const uint8_t *words, size_t i)
{
    return nbi_load64le(words + 8 * i);
}
static inline int nbi_sg_inside(const nbi_sggrid *g, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && (uint32_t)x < g->width && (uint32_t)y < g->height;
}
/* The bit of (x, y) in a row bitmap; 0 outside the map. */
static inline int nbi_sg_rowbit(const nbi_sggrid *g, const uint8_t *rows, int32_t x, int32_t y)
{
    if (!nbi_sg_inside(g, x, y))
        return 0;
    uint64_t w = nbi_sg_word(rows, (size_t)y * g->row_words + ((uint32_t)x >> 6));
    return (int)((w >> (x & 63)) & 1u);
}
static inline int nbi_sg_free(const nbi_sggrid *g, int32_t x, int32_t y)
{
    return nbi_sg_rowbit(g, g->free_rows, x, y);
}
static inline int nbi_sg_is_subgoal(const nbi_sggrid *g, int32_t x, int32_t y)
{
    return nbi_sg_rowbit(g, g->sub_rows, x, y);
}
/* 1 when the agent may step from (x, y) by move d (core/grid.h), which
 * needs (x, y) free: the target free and, for a diagonal, both cardinal
 * cells beside it free (strict) or either (weak). */
int nbi_sg_step_ok(const nbi_sggrid *g, int32_t x, int32_t y, unsigned d);

/* ---- the arrays of a payload (sglayer.c) ---- */

typedef struct nbi_sg_layout {
    uint64_t free_rows, sub_rows, pass_cols; /* u64 words */
    uint64_t rank;                           /* u32 per row word */
    uint64_t cells, level, first;            /* u32 per node (first: nodes + 1) */
    uint64_t edges;                          /* NBI_SG_EDGE_RECORD each */
    uint64_t total;                          /* the payload's length */
} nbi_sg_layout;

/* Where each array starts (every one on a multiple of 8) for a map of w x
 * h cells, n nodes and e edges; 0 when the sizes overflow 64 bits. */
int nbi_sg_layout_of(uint32_t w, uint32_t h, uint32_t n, uint32_t e, nbi_sg_layout *out);
/* Words of a row (of a column) bitmap. */
static inline uint32_t nbi_sg_words(uint32_t cells) { return (uint32_t)(((uint64_t)cells + 63) / 64); }

/* ---- a checked layer (sglayer.c) ---- */

typedef struct nbi_sglayer {
    nbi_sggrid grid;
    const uint8_t *rank;  /* u32 per row word: subgoals in the words before it */
    const uint8_t *cells; /* u32 per node: y W + x, increasing */
    const uint8_t *level; /* u32 per node: its place in the hierarchy */
    const uint8_t *first; /* u32 per node + 1: its first edge */
    const uint8_t *edges; /* NBI_SG_EDGE_RECORD per edge, each to a higher level */
    uint32_t nodes, nedges, original;
    uint32_t size;
    nb_capability cap;
    nb_corner corner;
    long section;
} nbi_sglayer;

/* Checks the subgoal layer in section idx against the bundle's map and
 * everything a query relies on (formats/subgoal.md, "What a reader relies
 * on"), reading every count, offset and index once; NB_ERR_FORMAT (or
 * NB_ERR_VERSION) naming the section and what is wrong. */
nb_status nbi_sglayer_at(const nb_bundle *b, size_t idx, nbi_sglayer *out, nb_err *err);
/* nbi_sglayer_at's checks alone: the registry's structural check. */
nb_status nbi_subgoal_section_check(const nb_bundle *b, size_t idx, nb_err *err);

/* The node of the subgoal at (x, y), which must be one. */
static inline uint32_t nbi_sg_node_at(const nbi_sglayer *l, int32_t x, int32_t y)
{
    size_t k = (size_t)y * l->grid.row_words + ((uint32_t)x >> 6);
    uint64_t w = nbi_sg_word(l->grid.sub_rows, k) & ((((uint64_t)1) << (x & 63)) - 1);
    return nbi_u32at(l->rank, k) + nbp_popcount64(w);
}
static inline nb_cell nbi_sg_node_cell(const nbi_sglayer *l, uint32_t node)
{
    uint32_t c = nbi_u32at(l->cells, node);
    nb_cell out = {(int32_t)(c % l->grid.width), (int32_t)(c / l->grid.width)};
    return out;
}
/* The edge from v whose target is t, or UINT32_MAX. */
uint32_t nbi_sg_edge_to(const nbi_sglayer *l, uint32_t v, uint32_t t);

/* ---- the scan (sgscan.c) ---- */

/* Called for each subgoal the scan finds, with the cardinal and diagonal
 * steps of the h-path to it (diagonal moves first); returns 0 to stop the
 * scan (out of memory). */
typedef int (*nbi_sg_visit)(void *ctx, int32_t x, int32_t y, uint32_t cardinal,
                            uint32_t diagonal);

/* The direct-h-reachable subgoals of (x, y): along each of the eight rays
 * to the first cell that is blocked or a subgoal, then from each cell of
 * a diagonal ray along its two cardinal directions, each line no longer
 * than the one before it, so that every subgoal found is reached by an
 * h-path (diagonal moves, then cardinal ones) through free cells that are
 * not subgoals.  A target (tx, ty) that is not a subgoal is treated as
 * one and reported the same way (tx < 0: none).  (x, y) must be free.
 * Returns 0, or -1 when visit stopped it. */
int nbi_sg_scan(const nbi_sggrid *g, int32_t x, int32_t y, int32_t tx, int32_t ty,
                nbi_sg_visit visit, void *ctx);

/* nbi_sg_scan keeping only the subgoals (and target) whose h-path length
 * from (x, y) plus octile distance to (tx, ty) is at most bound: no path
 * from (x, y) to (tx, ty) through any other is shorter than the bound.
 * Its diagonal rays stop at that ellipse's edge, so a query that knows its
 * answer is no longer than the bound reads and joins that much. */
int nbi_sg_scan_within(const nbi_sggrid *g, int32_t x, int32_t y, int32_t tx, int32_t ty,
                       double bound, nbi_sg_visit visit, void *ctx);

/* nbi_sg_scan with no target, setting box to the least rectangle (x0, y0,
 * x1, y1) that holds every cell the scan read: a grid that differs from
 * g nowhere in it (nor in the cells round it that say whether one is a
 * subgoal) gives the same scan. */
int nbi_sg_scan_box(const nbi_sggrid *g, int32_t x, int32_t y, nbi_sg_visit visit, void *ctx,
                    int32_t box[4]);

/* The cells of an h-path from a to b, b included and a not, into out
 * (room for max(|dx|, |dy|) cells): diagonal moves first, else cardinal
 * moves first, whichever the grid allows.  Returns the number of cells,
 * or 0 when neither shape is free (a layer that disagrees with itself). */
size_t nbi_sg_walk(const nbi_sggrid *g, nb_cell a, nb_cell b, nb_cell *out);

/* Any octile-shortest walk from a to b, of whatever shape (the diagonal and the cardinal move
 * toward b in any order), found by a sweep of the parallelogram the two moves span: row j
 * holds the cells after j diagonal moves, bit i + 1 the one after i cardinal moves too.  Only
 * for diagonal counts up to NBI_SG_MONO_DIAG and cardinal counts up to NBI_SG_MONO_CARD. */
#define NBI_SG_MONO_DIAG 63u
#define NBI_SG_MONO_CARD 61u
typedef struct nbi_sgmono {
    uint64_t reach[NBI_SG_MONO_DIAG + 1]; /* row j's cells some such walk from a reaches */
    uint64_t in_diag[NBI_SG_MONO_DIAG + 1]; /* of those, the ones a diagonal move enters */
    nb_cell a;
    unsigned d, c;       /* the two moves */
    uint32_t diag, card; /* how many of each */
} nbi_sgmono;

/* 1 when such a walk is free (m then holds the sweep for nbi_sg_mono_turns); 0 when none is,
 * or the counts are past the limits. */
int nbi_sg_mono(const nbi_sggrid *g, nb_cell a, nb_cell b, nbi_sgmono *m);

/* The turning points of one walk of the sweep (nbi_sg_mono returned 1), a and b left out,
 * into out (room for diag + card cells, at most): each hop between two of them is straight.
 * Returns their number. */
size_t nbi_sg_mono_turns(const nbi_sgmono *m, nb_cell *out);

/* The cells of the octile walks through waypoints way[0 .. n - 1], the first included: the
 * room their walks need. */
static inline uint64_t nbi_sg_way_cells(const nb_cell *way, size_t n)
{
    uint64_t total = 1;
    for (size_t i = 1; i < n; i++) {
        uint32_t ax = (uint32_t)(way[i].x > way[i - 1].x ? way[i].x - way[i - 1].x : way[i - 1].x - way[i].x);
        uint32_t ay = (uint32_t)(way[i].y > way[i - 1].y ? way[i].y - way[i - 1].y : way[i - 1].y - way[i].y);
        total += ax > ay ? ax : ay;
    }
    return total;
}

/* Free cells that are not subgoals from (x, y) by cardinal move c, not
 * counting (x, y), at most limit: the scan's line, a word at a time. */
uint32_t nbi_sg_run(const nbi_sggrid *g, int32_t x, int32_t y, unsigned c, uint32_t limit);

/* ---- under an overlay (sgoverlay.c) ---- */

/* The search of the layer's grid less the cells an overlay takes from
 * (capability, size): the subgoals of that grid (the layer's, and the
 * corners the blocks make) found by scans as the query goes, with the
 * layer's hierarchy for what the blocks leave as it was.  Opaque. */
typedef struct nbi_sgov nbi_sgov;
struct nb_overlay;

nbi_sgov *nbi_sgov_new(const nb_allocator *a);
void nbi_sgov_free(nbi_sgov *o);
size_t nbi_sgov_bytes(const nbi_sgov *o);
/* Whether a and b are joined under the overlay on layer l, by the regions
 * labelled once an overlay version (maps up to 2048 x 2048): 1 joined, 0
 * apart, -1 not known (a larger map, no memory, or an end not free). */
int nbi_sgov_joined(nbi_sgov *o, const nbi_sglayer *l, const struct nb_overlay *ov, nb_cell a,
                    nb_cell b);
/* Starts the search from start to goal, both standable under the
 * overlay, on layer l; the heuristic's distances are read up to bound
 * (INFINITY: all), a lower bound beyond; max_nodes and max_expansions as
 * the query's (0: none). */
void nbi_sgov_begin(nbi_sgov *o, const nbi_sglayer *l, const struct nb_overlay *ov,
                    nb_cell start, nb_cell goal, double bound, size_t max_nodes,
                    uint64_t max_expansions);
/* At most expansions nodes; 1 when the search has ended.  NB_ERR_NOMEM
 * ends it too. */
int nbi_sgov_step(nbi_sgov *o, uint64_t expansions, nb_status *st);
/* The status the search ended with (NB_PATH_LIMIT: at its budget or node cap). */
nb_path_status nbi_sgov_status(const nbi_sgov *o);
/* The result: its status (NB_PATH_FOUND, _NONE or _LIMIT with the best
 * partial path), the waypoints (start first) in *way, counts; 0 without
 * memory. */
typedef struct nbi_sgov_result {
    nb_path_status status;
    const nb_cell *way;
    size_t way_len;
    uint64_t expanded, scanned;
} nbi_sgov_result;
int nbi_sgov_finish(nbi_sgov *o, nbi_sgov_result *r);
/* The nodes the search under an overlay may expand before Annotated A* answers instead
 * (sgsearch.c's SGOV_BUDGET; UINT64_MAX: never; 0: at once), for tests and benchmarks. */
void nbi_sg_set_overlay_budget(nb_sg *ws, uint64_t nodes);
/* For tests and benchmarks: the scans the workspace's searches under overlays made and kept
 * for their overlay's version (made), and the expansions that read one back (kept), since
 * the workspace was opened. */
void nbi_sg_overlay_kept(const nb_sg *ws, uint64_t *made, uint64_t *kept);
void nbi_sgov_kept(const nbi_sgov *o, uint64_t *made, uint64_t *kept);
/* For tests: 1 when the last query found no path within its first try's bound
 * (sgsearch.c, join_ends) and was searched again without one. */
int nbi_sg_retried(const nb_sg *ws);
/* For tests: the subgoals (cells, and the length of the h-path to each)
 * that expanding layer subgoal at finds under ov with the search's goal
 * at goal: by a scan under the overlay (stored 0), or read from its
 * stored scan (stored 1: box set to the cells that scan read; SIZE_MAX
 * when it does not stand for one under ov).  Their count; at most cap
 * written. */
size_t nbi_sgov_scan_hits(nbi_sgov *o, const nbi_sglayer *l, const struct nb_overlay *ov,
                          nb_cell at, nb_cell goal, int stored, nb_cell *cells, double *len,
                          size_t cap, int32_t box[4]);
/* 1 when the agent may stand at (x, y) under the overlay and the layer. */
int nbi_sgov_free_at(const nbi_sglayer *l, const struct nb_overlay *ov, int32_t x, int32_t y);
/* The cells of an h-path from a to b under the overlay, as nbi_sg_walk (out NULL: only
 * whether one exists). */
size_t nbi_sgov_walk(const nbi_sglayer *l, const struct nb_overlay *ov, nb_cell a, nb_cell b,
                     nb_cell *out);
/* 1 when every cell of path (n cells) and every step between them is
 * allowed under the overlay. */
int nbi_sgov_path_ok(const nbi_sglayer *l, const struct nb_overlay *ov, const nb_cell *path,
                     size_t n);

/* ---- terrain costs (sgcosts.c) ---- */

/* What path (n cells) costs under c: each move's length times the
 * multiplier of the cell it enters, as Annotated A* weighs it. */
double nbi_sg_path_cost(const nbi_costs *c, const nb_cell *path, size_t n);
/* ---- least-cost paths under terrain costs (sgcsearch.c) ---- */

/* The layer customized to a cost profile (its border cells joined to the
 * subgoals, edges priced) and its search; kept while the profile is the
 * same.  Opaque. */
typedef struct nbi_sgc nbi_sgc;
nbi_sgc *nbi_sgc_new(const nb_allocator *a);
void nbi_sgc_free(nbi_sgc *c);
size_t nbi_sgc_bytes(const nbi_sgc *c);
/* Starts the least-cost search from s to t (both free, s != t, and left
 * free by ov) on layer L under costs (made from profile, the query's
 * multipliers or NULL) and overlay ov (NULL: none), customizing the layer
 * first when the profile is not the last one's.  The blocks change the
 * customized graph in place until the next begin. */
nb_status nbi_sgc_begin(nbi_sgc *c, const nbi_sglayer *L, const nbi_costs *costs,
                        const double *profile, const struct nb_overlay *ov, nb_cell s, nb_cell t,
                        size_t max_nodes, uint64_t max_expansions, nb_err *err);
/* At most expansions nodes; 1 when the search has ended. */
int nbi_sgc_step(nbi_sgc *c, uint64_t expansions);
typedef struct nbi_sgc_result {
    nb_path_status status; /* NB_PATH_FOUND, _NONE, or _LIMIT with a partial path */
    const nb_cell *way, *path;
    size_t way_len, path_len;
    uint64_t expanded, scanned;
} nbi_sgc_result;
nb_status nbi_sgc_finish(nbi_sgc *c, nbi_sgc_result *r, nb_err *err);
/* The customized graph's nodes (and *edges). */
uint32_t nbi_sgc_nodes(const nbi_sgc *c, size_t *edges);
/* For tests: the nodes whose hops under an overlay were found and kept, and the expansions
 * that read them back, since c was made. */
void nbi_sgc_kept(const nbi_sgc *c, uint64_t *made, uint64_t *kept);

#endif
