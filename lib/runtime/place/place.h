/* place.h: places, the queries game code asks of a grid before any path
 * (nearest.c, walk_line.c, random.c), and the runs section they draw
 * random cells from (runs.c; formats/runs.md).  Internal. */
#ifndef NB_PLACE_H
#define NB_PLACE_H

#include "clearance/clearance.h"

/* ---- a runs section (runs.c), checked ---- */

typedef struct nbi_runs {
    const uint8_t *first; /* u32[n + 1]: component k's runs are first[k-1] .. first[k]-1 */
    const uint8_t *runs; /* count records of NBI_RUNS_RECORD bytes */
    uint32_t width, height;
    uint32_t n; /* components */
    uint32_t count; /* runs */
    uint32_t cells; /* standable cells, all components */
    long section;
} nbi_runs;

/* Checks the runs section at idx against the map and itself (every count,
 * offset and run: formats/runs.md says what) and describes it. */
nb_status nbi_runs_at(const nb_bundle *b, size_t idx, nbi_runs *out, nb_err *err);
/* nbi_runs_at's checks alone: the registry's structural check. */
nb_status nbi_runs_section_check(const nb_bundle *b, size_t idx, nb_err *err);
/* The runs section of (cap, size), checked; NB_ERR_NOTFOUND without one. */
nb_status nbi_runs_find(const nb_bundle *b, nb_capability cap, uint32_t size, nbi_runs *out,
                        nb_err *err);

/* Reads of a checked view: component k's first run (k <= n), run j's
 * first cell, and the cells before run j (j <= count: all at count). */
static inline uint32_t nbi_runs_first(const nbi_runs *r, uint32_t k) { return nbi_u32at(r->first, k); }
static inline uint32_t nbi_runs_start(const nbi_runs *r, uint32_t j)
{
    return nbi_get32(r->runs + (size_t)j * NBI_RUNS_RECORD + NBI_RUN_START);
}
static inline uint32_t nbi_runs_before(const nbi_runs *r, uint32_t j)
{
    return j < r->count ? nbi_get32(r->runs + (size_t)j * NBI_RUNS_RECORD + NBI_RUN_BEFORE)
                        : r->cells;
}

/* Cells of component c (1 to n), or of every component when c is 0. */
uint32_t nbi_runs_size(const nbi_runs *r, uint32_t c);
/* The k-th cell (k < nbi_runs_size) of component c in row-major order, or
 * with c 0 the k-th in the order of the components, each in row-major
 * order; its index y W + x, and its component in *comp.  O(log runs). */
uint32_t nbi_runs_cell(const nbi_runs *r, uint32_t c, uint32_t k, uint32_t *comp);

/* ---- the generator (random.c): SplitMix64, nb_random_standable(3) ---- */
uint64_t nbi_splitmix64(uint64_t *state);
/* Uniform in [0, n), n >= 1, by rejection: no modulo bias. */
uint64_t nbi_random_below(uint64_t *state, uint64_t n);

/* ---- a place (place.c) ---- */

struct nb_place {
    const nb_bundle *b;
    nb_capability cap;
    uint32_t size;
    nbi_layer clear;
    int has_comp, has_runs;
    nbi_layer comp;
    nbi_runs runs;
};

/* 1 when the agent may stand at cell (x, y) of the map (no bounds check). */
static inline int nbi_place_stands(const nb_place *p, uint32_t x, uint32_t y)
{
    return nbi_layer_get(&p->clear, (uint64_t)y * p->clear.width + x) >= p->size;
}

/* ---- straight lines (walk_line.c), exactly ---- */

/* A time along the segment, num / den, den > 0. */
typedef struct nbi_frac {
    int64_t num, den;
} nbi_frac;

typedef struct nbi_line {
    nb_path_status status;
    nbi_frac t; /* how far the agent gets */
    int32_t bx, by; /* the blocking cell, when not found */
    uint64_t examined;
} nbi_line;

/* The sweep between two points in units of 1 / NB_LINE_RESOLUTION cell,
 * each within [0, width] x [0, height] of the map. */
void nbi_walk_line(const nb_place *p, int64_t ax, int64_t ay, int64_t bx, int64_t by,
                   nbi_line *out);

#endif
