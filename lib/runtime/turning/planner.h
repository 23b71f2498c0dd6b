/* planner.h: what the unit planner's files share (directional.c,
 * smooth.c, hybrid.c, plan.c).  Internal. */
#ifndef NB_PLANNER_H
#define NB_PLANNER_H

#include "core/heap.h"
#include "turning/turning.h"

/* A route: waypoints and, between each two, the curve driven. */
typedef struct nbi_route {
    const nb_allocator *a;
    nb_pose *wp;
    nb_curve *edge; /* edge[i] joins wp[i] and wp[i+1] */
    size_t n, cap;
} nbi_route;

int nbi_route_reserve(nbi_route *r, size_t n);
void nbi_route_free(nbi_route *r);
/* Appends a waypoint reached by curve c (c NULL for the first). */
int nbi_route_push(nbi_route *r, const nb_pose *p, const nb_curve *c);
/* Appends src[from..] to dst, whose last waypoint is src's waypoint from. */
int nbi_route_append(nbi_route *dst, const nbi_route *src, size_t from);
double nbi_route_length(const nbi_route *r);

/* One candidate curve of the decoded hit-check table. */
struct nbi_pcurve {
    double length;
    uint32_t first;  /* into deltas */
    uint32_t ncells;
    uint8_t word, variant;
};

/* Is a cell free for a unit?  The map's hard obstacles and the unit's
 * capability; a clearance layer plugs in here when the bundle has one. */
typedef int (*nbi_free_fn)(const nb_bundle *b, nb_capability cap, long x, long y);

struct nb_planner {
    const nb_bundle *bundle;
    const nb_allocator *a;
    nb_unit unit;
    nbi_hitcheck hc;
    nbi_curvetab ct;
    unsigned K;            /* headings */
    long W, H;
    nbi_free_fn cell_free;
    nb_capability cap;     /* the unit's terrains as a mask */
    int off[NBI_MAX_NEIGHBOURS][2]; /* the 48 offsets in canonical order */
    int8_t oindex[7][7];            /* [dy + 3][dx + 3]: the index of an offset, or -1 */

    /* Blocked cells, with a blocked border pad cells wide so that a table
     * curve from any cell of the map reads inside the array. */
    long pad;
    size_t stride;
    uint8_t *blocked;

    /* The hit-check table decoded for this grid: per (h0, h1, o) its
     * candidates, per candidate the cells as offsets into blocked[]. */
    uint32_t *efirst;
    uint8_t *ecount;
    struct nbi_pcurve *pc;
    int32_t *deltas;

    /* Search state, one entry per (x, y, heading) plus the off-grid start;
     * stamp[] says which entries belong to the current search. */
    size_t nstates;
    double *g;
    uint32_t *parent, *move, *stamp, *hpos;
    uint8_t *closed;
    uint32_t gen;
    nbi_heap heap;

    /* Scratch: the cells of a grid path, the routes of the stages. */
    uint32_t *cells;
    size_t ncells;
    nbi_route route, fwd, bwd, mid, tmp;
    uint8_t *stand; /* W x H: the unit's disc fits at the cell's centre */

    /* What the last query returns. */
    nb_segment *seg;
    size_t nseg, capseg;
    uint64_t expanded, generated;
};

#define NBI_START_ID(p) ((uint32_t)((p)->nstates - 1))
#define NBI_NO_PARENT UINT32_MAX

/* Moves: the neighbour, end heading, word, variant and gear of an edge. */
static inline uint32_t nbi_move(unsigned o, unsigned h1, unsigned word, unsigned variant, int rev)
{
    return o | h1 << 6 | word << 11 | variant << 14 | (uint32_t)(rev ? 1 : 0) << 15;
}

/* Records that node nid is reached from id by the edge code at cost g,
 * unless it already is as cheaply; then queues it with key f = g + h.
 * Returns 1 when it was queued, 0 when not, -1 when out of memory. */
static inline int nbi_relax(nb_planner *p, uint32_t nid, uint32_t id, unsigned code, double g,
                            double h)
{
    if (p->stamp[nid] == p->gen && g >= p->g[nid])
        return 0;
    p->g[nid] = g;
    p->parent[nid] = id;
    p->move[nid] = code;
    p->stamp[nid] = p->gen;
    p->closed[nid] = 0;
    return nbi_heap_push(&p->heap, g + h, -g, nid) ? 1 : -1;
}

/* Starts a search: a new generation of stamps. */
void nbi_search_begin(nb_planner *p);
static inline int nbi_seen(const nb_planner *p, uint32_t id) { return p->stamp[id] == p->gen; }

static inline int nbi_blocked(const nb_planner *p, long x, long y)
{
    if (x < 0 || y < 0 || x >= p->W || y >= p->H)
        return 1;
    return p->blocked[(size_t)(y + p->pad) * p->stride + (size_t)(x + p->pad)];
}

/* The first free curve, shortest first, from the centre of (x, y) facing
 * h0 to the centre of the neighbour o (p->off[o]) facing h1 (reverse: driven
 * backwards).  From the table when the offset is baked and !onthefly,
 * else computed and swept here.  Returns 1 with its length and code. */
int nbi_edge(const nb_planner *p, long x, long y, unsigned h0, unsigned o, unsigned h1,
             int reverse, int onthefly, double *len, unsigned *code);
/* The index of an offset in the 48-neighbourhood, or -1. */
static inline int nbi_offset_index(const nb_planner *p, long dx, long dy)
{
    return dx < -3 || dx > 3 || dy < -3 || dy > 3 ? -1 : p->oindex[dy + 3][dx + 3];
}
/* The same from any pose to a cell centre facing h1; the cells the unit
 * covers where it stands are not checked. */
int nbi_edge_pose(const nb_planner *p, const nb_pose *from, long tx, long ty, unsigned h1,
                  int reverse, double *len, unsigned *code);
/* The curve of an edge found by nbi_edge or nbi_edge_pose. */
void nbi_edge_curve(const nb_planner *p, const nb_pose *from, const nb_pose *to, unsigned code,
                    nb_curve *out);
/* 1 when the exact sweep of the segments meets no blocked cell; cells
 * under the disc at (skipx, skipy) are not checked when skip. */
int nbi_walkable(const nb_planner *p, const nb_segment *seg, size_t n, int skip, double skipx,
                 double skipy);
/* The curve heuristic from a pose to a cell's centre. */
double nbi_heuristic(const nb_planner *p, const nb_pose *from, long gx, long gy, int reverse_ok);

static inline nb_pose nbi_centre_pose(const nb_planner *p, long x, long y, unsigned h)
{
    nb_pose q = {x + 0.5, y + 0.5, nbi_heading(h, p->K)};
    return q;
}

/* Directional A* (directional.c) from a pose to a cell (goal_heading -1 for
 * any); box limits the cells searched (x0, y0, x1, y1 inclusive) when not
 * NULL.  Fills p->route. */
struct nbi_dir_opts {
    unsigned neighbourhood;
    int onthefly, reverse;
    uint64_t max_expansions;
    const long *box;
};
int nbi_directional(nb_planner *p, const nb_pose *start, long gx, long gy, int goal_heading,
                    const struct nbi_dir_opts *o, const char **reason);

/* Grid A* (hybrid.c) over cells a unit may stand on, 4- or 8-connected
 * (no corner cutting); fills p->cells.  1 found, 0 none, -1 no memory. */
int nbi_grid_astar(nb_planner *p, long sx, long sy, long gx, long gy, int eight);
/* The hybrid (or, without fallback_ok, pre-smoothing alone); fills
 * p->route, before the final smoothing. */
int nbi_hybrid(nb_planner *p, const nb_pose *start, long gx, long gy, int goal_heading,
               int onthefly, int fallback_ok, int *fell_back, const char **reason);
/* An 8-connected grid path as lines from the start; fills p->route. */
int nbi_lines(nb_planner *p, const nb_pose *start, long gx, long gy, const char **reason);

/* Smoothing (smooth.c). */
/* Listing 1 over route's waypoints with curves between poses (or lines
 * when lines): drops each waypoint that a walkable curve no longer than
 * the route skips. */
int nbi_smooth_simple(nb_planner *p, nbi_route *r, int lines);
/* Smoothing-48 along the grid path p->cells: forward from the start pose,
 * or backward from the last cell (any heading, or goal_heading).  Fills
 * out with the route found, or the route to the farthest waypoint reached,
 * whose index goes to *far.  Returns 1 when it reached the other end, 0
 * when it gave up, -1 when out of memory. */
int nbi_smooth48(nb_planner *p, const nb_pose *start, int backward, int goal_heading, int onthefly,
                 nbi_route *out, size_t *far);

/* The reasons a stage gives when memory ran out, or its expansion limit
 * stopped it: nb_planner_find turns them into NB_ERR_NOMEM and
 * NB_PATH_LIMIT. */
extern const char nbi_reason_nomem[], nbi_reason_limit[];

/* Flattens a route into p->seg. */
int nbi_route_segments(nb_planner *p, const nbi_route *r);

#endif
