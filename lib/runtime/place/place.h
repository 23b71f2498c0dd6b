/* place.h: places, the queries game code asks of a grid before any path
 * (nearest.c, walk_line.c, random.c), and the runs section they draw
 * random cells from (runs.c; formats/runs.md).  Internal. */
#ifndef NB_PLACE_H
#define NB_PLACE_H

#include "clearance/reach.h"

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

/* ---- the generator (random.c): SplitMix64, nb_random_find(3) ---- */
uint64_t nbi_splitmix64(uint64_t *state);
/* Uniform in [0, n), n >= 1, by rejection: no modulo bias. */
uint64_t nbi_random_below(uint64_t *state, uint64_t n);

/* ---- straight lines (walk_line.c), exactly ---- */

/* A time along the segment, num / den, den > 0. */
typedef struct nbi_frac {
    int64_t num, den;
} nbi_frac;

typedef struct nbi_line {
    nb_path_status status;
    nbi_frac t; /* how far the agent gets (known free, when stopped by the budget) */
    int32_t bx, by; /* the blocking cell, when blocked */
    uint64_t examined;
} nbi_line;

/* A line walk under way: the rows of cells the square may meet, read one
 * at a time in the order it enters them (walk_line.c). */
typedef struct nbi_line_walk {
    int64_t ax, ay, bx, by, S; /* the ends and the side, in 1 / NB_LINE_RESOLUTION cells */
    int64_t r0, r1, k;         /* the rows, and how many have been read */
    int have;                  /* a block was met, at time best */
    int done;
    nbi_frac best;
    nbi_line out;
} nbi_line_walk;

/* ---- a place (place.c) ---- */

enum { NBI_PLACE_IDLE, NBI_PLACE_NEAREST, NBI_PLACE_LINE, NBI_PLACE_RANDOM };

/* A nearest search under way (nearest.c): the rings around its point
 * (clearance/ring.c), its budget and its result so far. */
typedef struct nbi_nearest {
    nbi_ring ring;
    uint64_t max;
    nb_nearest_result res;
} nbi_nearest;

struct nb_place {
    const nb_bundle *b;
    /* The agent of the last query and the sections it read: a query of
     * the same agent reads them again for nothing. */
    int have_agent;
    nb_capability cap;
    uint32_t size;
    nbi_layer clear;
    int has_comp, has_runs;
    nbi_layer comp;
    nbi_runs runs;
    /* The query's overlay when it blocks cells (NULL otherwise: the bundle's map as it is). */
    const nb_overlay *ov;
    /* Reach under that overlay (clearance/reach.c), for the query under way: its searches
     * are opened by the first query that needs them, and grow as Annotated A*'s do. */
    nbi_reach reach;
    /* The query under way: its kind (NBI_PLACE_*), and its state. */
    int kind;
    int done;
    nbi_nearest near;
    nbi_line_walk line;
    nb_line_query lq;
    nb_random_query rq;
    nb_random_result rres;
    uint32_t rcomp; /* the component drawn from (0: every one) */
};

/* Makes (cap, size) the place's agent for a query of family: its
 * clearance layer (NB_ERR_NOTFOUND without one, or for a size beyond its
 * cap), and the component layer and runs of (cap, size) when the bundle
 * has them, each checked. */
nb_status nbi_place_use(nb_place *p, const char *family, nb_capability cap, uint32_t size,
                        nb_err *err);

/* 1 when the agent may stand at cell (x, y) of the map (no bounds check), under the
 * query's overlay too. */
static inline int nbi_place_stands(const nb_place *p, uint32_t x, uint32_t y)
{
    return nbi_stands_under(&p->clear, p->size, p->ov, x, y);
}

/* The checks every place query makes first (NB_ERR_ARG): size 0, an
 * overlay of another bundle. */
nb_status nbi_place_check(const nb_place *p, const char *family, uint32_t size,
                          const nb_overlay *overlay, nb_err *err);
/* The checks it makes once its ends are on the map: the agent's layers
 * (nbi_place_use: NB_ERR_NOTFOUND); then the query's overlay becomes the
 * place's (p->ov, NULL when it blocks nothing) and reach's facts are
 * forgotten. */
nb_status nbi_place_bind(nb_place *p, const char *family, nb_capability cap, uint32_t size,
                         const nb_overlay *overlay, nb_err *err);

/* Starts a walk between two points in units of 1 / NB_LINE_RESOLUTION
 * cell, each within [0, width] x [0, height] of the map, for the place's
 * agent: the start's square is read here (w->done when it is blocked). */
void nbi_line_begin(const nb_place *p, nbi_line_walk *w, int64_t ax, int64_t ay, int64_t bx,
                    int64_t by);
/* Reads rows until w->out.examined reaches stop or the walk ends (w->done). */
void nbi_line_run(const nb_place *p, nbi_line_walk *w, uint64_t stop);
/* The whole walk, in one go. */
void nbi_walk_line(const nb_place *p, int64_t ax, int64_t ay, int64_t bx, int64_t by,
                   nbi_line *out);

#endif
