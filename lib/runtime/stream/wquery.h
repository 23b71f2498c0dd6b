/* wquery.h: what the queries across a world's tiles share (world_aa.c,
 * world_place.c): the world's overlay of blocked cells (world_overlay.c)
 * and the tiles a query pins as it reaches them (world_pins.c).  Internal.
 *
 * A query pins a tile the first time it reads one of its cells and keeps
 * it pinned to its end, so it sees one tile for each place however the
 * loading thread loads and unloads meanwhile (stream.h).  A tile found not
 * loaded is remembered with the least bound on the cost of any path
 * through it (the cost so far plus the heuristic), so that a search that
 * ends below every such bound is exact without it, and one that does not
 * names exactly the tiles it would need. */
#ifndef NB_WQUERY_H
#define NB_WQUERY_H

#include <math.h>

#include "core/u32map.h"
#include "stream/stream.h"

/* Blocks of 32 x 32 cells: a page of the overlay, and of a search's nodes. */
#define NBI_WB_SHIFT 5
#define NBI_WB_SIDE (1u << NBI_WB_SHIFT)
#define NBI_WB_MASK (NBI_WB_SIDE - 1)

struct nb_world_overlay {
    const nb_world *w;
    const nb_allocator *a;
    nbi_u32map dir;   /* block key -> its page + 1 */
    uint64_t *pages;  /* 16 words (a bit a cell) a page */
    uint32_t npages, cap, bcols;
    uint64_t blocked; /* cells blocked now */
    /* Its cells' version, unique among every overlay's: a new one at each open and each
     * change (world HAA* keeps its repaired tiles for the next query under the same). */
    uint64_t version;
};
uint64_t nbi_wov_next_version(void);
/* fn(ctx, x, y) for each blocked cell of ov, page by page. */
void nbi_wov_each(const nb_world_overlay *ov, void (*fn)(void *, uint32_t, uint32_t), void *ctx);

/* The start of a path query across a world (nb_world_aa_find,
 * nb_world_haa_find): the result cleared to "no path" when there is one,
 * and NB_ERR_ARG naming family, returned, when the workspace, the query or
 * the result is NULL. */
#define NBI_WQUERY_BEGIN(ws, q, res, family, err)                                                \
    do {                                                                                         \
        if (res) {                                                                               \
            memset(res, 0, sizeof *(res));                                                       \
            (res)->status = NB_PATH_NONE;                                                        \
        }                                                                                        \
        if (!(ws) || !(q) || !(res))                                                             \
            return nbi_fail(err, NB_ERR_ARG, "%s: a NULL workspace, query or result", family);   \
    } while (0)

/* 1 when cell (x, y), inside the world, is blocked. */
static inline int nbi_wov_blocked(const nb_world_overlay *ov, uint32_t x, uint32_t y)
{
    int found;
    uint32_t p = nbi_u32map_get(&ov->dir, (y >> NBI_WB_SHIFT) * ov->bcols + (x >> NBI_WB_SHIFT),
                                &found);
    if (!found)
        return 0;
    uint32_t bit = (y & NBI_WB_MASK) << NBI_WB_SHIFT | (x & NBI_WB_MASK);
    return (int)(ov->pages[(size_t)(p - 1) * 16 + bit / 64] >> (bit % 64) & 1u);
}
/* 1 when no cell of the size x size square at (x, y) (clipped to the
 * world) is blocked; ov NULL: none is. */
int nbi_wov_room(const nb_world_overlay *ov, uint32_t size, uint32_t x, uint32_t y);
/* NB_ERR_ARG when ov is not an overlay of w. */
nb_status nbi_wopv_check(const nb_world_overlay *ov, const nb_world *w, const char *family,
                        nb_err *err);

/* The world components of (cap, size) (at *at among w->comp), or NULL
 * (world_reach.c). */
const nbi_wcomp *nbi_world_comp_of(const nb_world *w, nb_capability cap, unsigned size,
                                   size_t *at);
/* The world component of cell c in the tile pinned in t, for components i. */
uint32_t nbi_world_component(const nb_world *w, const nbi_stile *t, size_t i, nb_cell c);

/* A tile as one query sees it. */
typedef struct nbi_wview {
    uint32_t qid;          /* the query that set it; another: not seen yet */
    int state;             /* NBI_WV_LOADED or NBI_WV_MISSING */
    const nbi_stile *t;    /* pinned, when loaded */
    nbi_layer clear;       /* its clearance layer for the query's capability */
    double miss;           /* missing: the least bound of a path through it */
} nbi_wview;
enum { NBI_WV_LOADED = 1, NBI_WV_MISSING = 2 };

/* The tiles one query has pinned and found missing. */
typedef struct nbi_wpins {
    const nb_world *w;
    const nb_allocator *a;
    nbi_wview *v;          /* a view a tile */
    uint32_t *pinned, *missing;
    size_t npinned, nmissing;
    uint32_t qid;
    nb_capability cap;
    uint32_t size;
    const char *family;
    nb_status st;          /* a tile's layer that could not be read: the query fails */
    nb_err err;
} nbi_wpins;

int nbi_wpins_init(nbi_wpins *p, const nb_world *w);
void nbi_wpins_free(nbi_wpins *p);
size_t nbi_wpins_bytes(const nbi_wpins *p);
/* Starts a query for an agent of (cap, size) (no tile pinned yet). */
void nbi_wpins_begin(nbi_wpins *p, const char *family, nb_capability cap, uint32_t size);
/* Unpins every tile the query pinned. */
void nbi_wpins_end(nbi_wpins *p);
/* The view of tile ti, pinning it the first time the query reads it. */
nbi_wview *nbi_wpins_see(nbi_wpins *p, uint32_t ti);
static inline nbi_wview *nbi_wpins_view(nbi_wpins *p, uint32_t ti)
{
    nbi_wview *v = &p->v[ti];
    return v->qid == p->qid ? v : nbi_wpins_see(p, ti);
}
static inline uint32_t nbi_wtile_index(const nb_world *w, uint32_t x, uint32_t y)
{
    return (y / w->x.side) * w->x.columns + x / w->x.side;
}
/* 1 when the agent stands at world cell (x, y) by its tile's clearance and
 * the overlay, 0 when not (or off the world), -1 when the tile is missing
 * (then bound lowers its remembered bound). */
static inline int nbi_wpins_stands(nbi_wpins *p, const nb_world_overlay *ov, int32_t x, int32_t y,
                                   double bound)
{
    const nb_world *w = p->w;
    if (x < 0 || y < 0 || (uint32_t)x >= w->x.width || (uint32_t)y >= w->x.height)
        return 0;
    nbi_wview *v = nbi_wpins_view(p, nbi_wtile_index(w, (uint32_t)x, (uint32_t)y));
    if (v->state != NBI_WV_LOADED) {
        if (bound < v->miss)
            v->miss = bound;
        return -1;
    }
    uint64_t bx = (uint64_t)x - v->t->tag.origin_x, by = (uint64_t)y - v->t->tag.origin_y;
    if (nbi_layer_get(&v->clear, by * v->clear.width + bx) < p->size)
        return 0;
    return !ov || !ov->blocked || nbi_wov_room(ov, p->size, (uint32_t)x, (uint32_t)y);
}
/* The missing tiles whose bound is below limit (all of them: INFINITY), in
 * the order they were found: how many, the first max of them in out. */
size_t nbi_wpins_needed(const nbi_wpins *p, double limit, nb_world_tile *out, size_t max);
/* NB_ERR_UNLOADED naming the first of the n below limit. */
nb_status nbi_wpins_unloaded(const nbi_wpins *p, double limit, size_t n, nb_err *err);

#endif
