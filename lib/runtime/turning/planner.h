/* planner.h: what the unit planner's files share (cells.c, nodes.c,
 * edges.c, heuristic.c, directional.c, smooth.c, hybrid.c, plan.c).
 * Internal.
 *
 * A planner's memory follows what its queries touch, not the map: the
 * cells blocked for the unit are read from the bundle by tiles of 64 x 64
 * when a search first reaches them, and the search nodes live in blocks
 * of 8 x 8 cells found through a hash table, both kept for the next
 * query. */
#ifndef NB_PLANNER_H
#define NB_PLANNER_H

#include "clearance/clearance.h"
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

/* ---- the cells blocked for the unit (cells.c) ---- */

#define NBI_TILE_SHIFT 6
#define NBI_TILE (1 << NBI_TILE_SHIFT)

typedef struct nbi_tile {
    uint64_t blocked[NBI_TILE]; /* row r, bit c: cell (c, r) of the tile */
    uint64_t stand[NBI_TILE];   /* the unit's disc fits at the cell's centre */
    int stand_done;
} nbi_tile;

typedef struct nbi_cells {
    const nb_bundle *b;
    const nb_allocator *a;
    nb_capability cap; /* the unit's terrains */
    int layered;       /* the bundle's clearance layer says which cells are free */
    nbi_layer layer;
    double width;      /* the unit's, for stand */
    long W, H, tw, th; /* the map, and its tiles across and down */
    uint32_t *dir;     /* tw x th: 0 not read yet, else 1 + the tile's index */
    nbi_tile **pool;   /* each tile its own allocation: pointers stay valid */
    size_t n, capn;
    nbi_tile outside;  /* every cell blocked, the stand bits clear */
    int nomem;         /* a tile could not be made: read as blocked */
} nbi_cells;

nb_status nbi_cells_init(nbi_cells *c, const nb_bundle *b, nb_capability cap, double width,
                         nb_err *err);
void nbi_cells_free(nbi_cells *c);
/* Is the cell blocked (off the map, an obstacle, a terrain the unit may
 * not enter)?  Read from the bundle, not the tiles. */
int nbi_cells_blocked_direct(const nbi_cells *c, long x, long y);
/* The tile (tx, ty), read when first asked for; the outside tile off the
 * map (and, with c->nomem set, when memory ran out). */
const nbi_tile *nbi_cells_tile(nbi_cells *c, long tx, long ty);
/* The tile of a coordinate; negative ones are off the map too: divide
 * rounding down. */
static inline long nbi_tile_of(long v)
{
    return v >= 0 ? v >> NBI_TILE_SHIFT : -((-v + NBI_TILE - 1) >> NBI_TILE_SHIFT);
}
static inline int nbi_cells_blocked(nbi_cells *c, long x, long y)
{
    long tx = nbi_tile_of(x), ty = nbi_tile_of(y);
    const nbi_tile *t = nbi_cells_tile(c, tx, ty);
    return (int)(t->blocked[y - ty * NBI_TILE] >> (x - tx * NBI_TILE) & 1);
}
/* The blocked bits of cells x .. x + 63 of the n rows y0 .. y0 + n - 1,
 * cell x in bit 0, into out[0 .. n - 1]. */
void nbi_cells_rows(nbi_cells *c, long y0, unsigned n, long x, uint64_t *out);
/* Does the unit's disc fit at the centre of the cell? */
int nbi_cells_stand(nbi_cells *c, long x, long y);

/* ---- search nodes (nodes.c) ---- */

typedef struct nbi_node {
    double g;        /* the best cost found */
    double h;        /* the heuristic */
    uint32_t parent; /* 0: none */
    int32_t x, y;
    uint16_t move;   /* the edge from the parent (nbi_move) */
    uint8_t k;       /* heading */
    uint8_t closed;
} nbi_node;

typedef struct nbi_nodes {
    const nb_allocator *a;
    unsigned K;
    nbi_node *node; /* node 0 is no node */
    size_t n, cap;
    size_t max;     /* 0: no cap; else at most this many nodes a search */
    uint32_t **blocks; /* 8 x 8 cells x K headings of node indices each, then their costs */
    size_t nblocks, capblocks, capb; /* used this search, allocated, room for */
    struct nbi_hslot {
        uint64_t key;
        uint32_t block, gen;
    } *hash;
    size_t hcap;
    uint32_t gen;
    uint64_t last_key;
    uint32_t last_block;
    int full;       /* a node could not be made: the cap, or memory (nomem) */
    int nomem;
} nbi_nodes;

void nbi_nodes_init(nbi_nodes *s, const nb_allocator *a, unsigned K);
void nbi_nodes_free(nbi_nodes *s);
/* Forgets every node: a new search. */
void nbi_nodes_clear(nbi_nodes *s);
/* The node of (x, y, k) (x, y >= 0): 0 when there is none and !create, or
 * when it cannot be made (s->full, and s->nomem when memory ran out).
 * *fresh says it was made here (g INFINITY, no parent, open). */
uint32_t nbi_nodes_get(nbi_nodes *s, long x, long y, unsigned k, int create, int *fresh);
/* A node no cell names (the off-grid start); 0 when it cannot be made. */
uint32_t nbi_nodes_extra(nbi_nodes *s, long x, long y);
/* The node indices of block (bx, by), cells (8 bx .. 8 bx + 7, 8 by ..):
 * cell (x, y) heading k at NBI_SLOT(K, x, y, k); NULL when the block has no
 * node yet and !create, or cannot be made.  Valid until the next clear. */
#define NBI_SLOT(K, x, y, k) ((((size_t)((y) & 7) << 3) + (size_t)((x) & 7)) * (K) + (k))
uint32_t *nbi_nodes_block(nbi_nodes *s, long bx, long by, int create);
/* A block's copy of its nodes' costs (INFINITY where none), beside the
 * indices, so that a search judges children without reading the nodes;
 * the searches that read it keep it equal to the nodes' own. */
static inline double *nbi_block_g(const nbi_nodes *s, uint32_t *block)
{
    return (double *)(void *)(block + (size_t)64 * s->K);
}
/* Makes the node of (x, y, k) in its slot: its index, 0 when it cannot. */
uint32_t nbi_nodes_make(nbi_nodes *s, uint32_t *slot, long x, long y, unsigned k);
static inline nbi_node *nbi_nodes_at(const nbi_nodes *s, uint32_t id) { return &s->node[id]; }
/* Bytes held. */
size_t nbi_nodes_bytes(const nbi_nodes *s);

/* ---- the hit-check table decoded for the search (edges.c) ---- */

typedef struct nbi_edges {
    unsigned K, N, window, half;
    int masks;         /* 1: curves as bit masks of the window (window <= 32) */
    unsigned stride;   /* mask bits per window row: 8, 16 or 32 */
    unsigned words;    /* 64-bit words of a mask */
    uint32_t *efirst;  /* per entry (h0 K + h1) N + o: its first curve */
    uint8_t *ecount;
    double *least;     /* per (h0 N + o) K + h1: the entry's shortest curve,
                        * INFINITY when it has none; a search's "cannot
                        * improve" test reads a node's row of N K at once */
    double *len;       /* per curve */
    uint16_t *code;    /* word | variant << 3 */
    uint64_t *mask;    /* masks: words per curve, the destination's bit set too */
    uint32_t *cfirst;  /* cell lists: each curve's first cell and count */
    uint16_t *cnum;
    int8_t (*cell)[2]; /* the cells touched, the destination last */
    size_t ncurves;
} nbi_edges;

/* Decodes the table, as bit masks when its window is at most mask_window
 * (and 32) cells wide, else as cell lists. */
nb_status nbi_edges_init(nbi_edges *e, const nbi_hitcheck *hc, const nb_allocator *a,
                         unsigned mask_window, nb_err *err);
void nbi_edges_free(nbi_edges *e, const nb_allocator *a);

#define NBI_WINDOW_WORDS 16 /* 32 rows of 32 bits */

/* Is any cell the curve touches (or its destination) blocked? */
static inline int nbi_mask_hits(const nbi_edges *e, const uint64_t *win, uint32_t c)
{
    const uint64_t *m = e->mask + (size_t)c * e->words;
    uint64_t any = 0;
    for (unsigned w = 0; w < e->words; w++)
        any |= m[w] & win[w];
    return any != 0;
}

/* ---- open lists (queue.c) ---- */

/* The entries of an open list beyond the lowest band of keys wait
 * unsorted in buckets of this width (queue.c), in chunks of this many. */
#define NBI_OPEN_WIDTH 0.125
#define NBI_OPEN_CHUNK 16

typedef struct nbi_open {
    nbi_heap_item *a; /* the heap: the entries of bucket cur and below */
    size_t n, cap;
    struct nbi_open_chunk {
        uint32_t next, n; /* next: the bucket's next chunk + 1, or 0 */
        double key[NBI_OPEN_CHUNK], tie[NBI_OPEN_CHUNK]; /* 20 bytes an entry, */
        uint32_t id[NBI_OPEN_CHUNK];                     /* not a heap item's 24 */
    } *chunk;          /* the waiting entries' chunks, and free ones */
    size_t nchunk, capchunk;
    uint32_t *head;    /* per bucket: its newest chunk + 1, or 0 */
    size_t caphead;
    size_t waiting;    /* entries in buckets */
    size_t cur, top;   /* the bucket heaped last; the highest with entries */
    uint32_t free;     /* free chunks, a list */
    double base;       /* the key where bucket 0 starts */
    /* When set, the nodes the ids name: an entry whose node is closed or
     * has another cost than its tie says (-g) is stale, and is dropped as
     * its bucket is heaped, never popped (most of the search back over
     * cells' entries are: a cell is often found cheaper while it waits). */
    const nbi_nodes *nodes;
    int based;
    const nb_allocator *alloc;
} nbi_open;

int nbi_open_init(nbi_open *q, const nb_allocator *a, size_t cap);
void nbi_open_free(nbi_open *q);
void nbi_open_clear(nbi_open *q);
static inline int nbi_open_empty(const nbi_open *q) { return q->n == 0 && q->waiting == 0; }
/* 0 when out of memory; the list is as it was. */
int nbi_open_push(nbi_open *q, double key, double tie, uint32_t id);
/* The least entry, removed, in *out: 1; 0 when the list is empty (it may
 * be, with nodes set, though nbi_open_empty said no); -1 when out of
 * memory (the list is as it was). */
int nbi_open_pop(nbi_open *q, nbi_heap_item *out);
/* Bytes held. */
size_t nbi_open_bytes(const nbi_open *q);

/* ---- heuristics' tables (heuristic.c, reverse.c) ---- */

struct nbi_lattice {
    int ready;
    unsigned nf;
    double a[64][2];                 /* facets over the first octant: a . d <= cost */
    double least[NBI_MAX_NEIGHBOURS]; /* the shortest curve to each offset, any headings */
};

/* The lattice bound of a displacement. */
double nbi_lattice_bound(const struct nbi_lattice *l, long dx, long dy);

struct nbi_rra {
    nbi_nodes nodes; /* cells: heading 0 */
    nbi_open heap;
    const struct nbi_lattice *lat;
    long gx, gy, sx, sy;
    unsigned N;
    uint64_t expanded;
};

/* ---- the planner ---- */

/* One stage's search, resumable (directional.c, hybrid.c, smooth.c). */
struct nbi_dir_opts {
    unsigned neighbourhood;
    int onthefly, reverse;
    const long *box; /* x0, y0, x1, y1 inclusive, or NULL */
};

enum nbi_run { NBI_RUN_MORE, NBI_RUN_FOUND, NBI_RUN_NONE, NBI_RUN_FULL, NBI_RUN_NOMEM };

struct nbi_dir {
    nb_pose start;
    long sx, sy, gx, gy;
    int goal_heading;
    struct nbi_dir_opts o;
    long box[4];
    uint32_t sid, best, goal;
    int has_box, offgrid;
};

struct nbi_grid {
    long gx, gy;
    int eight;
    uint32_t best, goal;
};

struct nbi_s48 {
    nb_pose start;
    int backward, goal_heading, onthefly;
    size_t far;
    uint32_t far_id, sid; /* sid: the off-grid start, or 0 */
    int have_far;
};

struct nb_planner {
    const nb_bundle *bundle;
    const nb_allocator *a;
    nb_unit unit;
    nbi_hitcheck hc;
    nbi_curvetab ct;
    unsigned K;            /* headings */
    long W, H;
    nb_capability cap;     /* the unit's terrains as a mask */
    int off[NBI_MAX_NEIGHBOURS][2]; /* the 48 offsets in canonical order */
    int8_t oindex[7][7];            /* [dy + 3][dx + 3]: the index of an offset, or -1 */
    size_t max_nodes;

    nbi_cells cells;
    nbi_edges edges;
    struct nbi_lattice lattice[3]; /* of Directional-8, -24, -48 (heuristic.c) */
    struct nbi_rra rra;
    nbi_nodes nodes;
    nbi_open heap;
    uint64_t win[NBI_WINDOW_WORDS]; /* the blocked cells around (winx, winy) */
    long winx, winy;
    int win_ok;

    /* The query under way (plan.c). */
    int active, done, stage;
    nb_planner_query q;
    nb_planner_result res;
    unsigned N;
    int onthefly, reverse, local_bound;
    const char *reason;
    int found;
    long box[4];           /* the query's window, when has_box */
    int has_box;
    struct nbi_dir dir;
    struct nbi_grid grid;
    struct nbi_s48 s48;
    size_t fa, fb; /* the hybrid's failure points */

    /* Scratch: the cells of a grid path, the routes of the stages. */
    uint32_t *path;        /* grid path cells as y * W + x */
    size_t npath, cappath;
    nbi_route route, fwd, bwd, mid, tmp;

    /* What the last query returns. */
    nb_segment *seg;
    size_t nseg, capseg;
    uint64_t expanded, generated;
};

/* Moves: the neighbour, end heading, word, variant and gear of an edge, packed into the 16
 * bits of a node's move: the neighbour in bits 0-5 (0 to 48, 48 an end off the grid), the
 * heading in 6-10 (at most 16 headings), the word in 11-13, the variant in 14, reverse in 15. */
static inline uint32_t nbi_move(unsigned o, unsigned h1, unsigned word, unsigned variant, int rev)
{
    return o | h1 << 6 | word << 11 | variant << 14 | (uint32_t)(rev ? 1 : 0) << 15;
}

static inline int nbi_blocked(nb_planner *p, long x, long y) { return nbi_cells_blocked(&p->cells, x, y); }

/* The first free curve, shortest first, from the centre of (x, y) facing
 * h0 to the centre of the neighbour o (p->off[o]) facing h1 (reverse: driven
 * backwards).  From the table when the offset is baked and !onthefly,
 * else computed and swept here.  Returns 1 with its length and code. */
int nbi_edge(nb_planner *p, long x, long y, unsigned h0, unsigned o, unsigned h1, int reverse,
             int onthefly, double *len, unsigned *code);
/* The index of an offset in the 48-neighbourhood, or -1. */
static inline int nbi_offset_index(const nb_planner *p, long dx, long dy)
{
    return dx < -3 || dx > 3 || dy < -3 || dy > 3 ? -1 : p->oindex[dy + 3][dx + 3];
}
/* The same from any pose to a cell centre facing h1; the cells the unit
 * covers where it stands are not checked. */
int nbi_edge_pose(nb_planner *p, const nb_pose *from, long tx, long ty, unsigned h1, int reverse,
                  double *len, unsigned *code);
/* The curve of an edge found by nbi_edge or nbi_edge_pose. */
void nbi_edge_curve(const nb_planner *p, const nb_pose *from, const nb_pose *to, unsigned code,
                    nb_curve *out);
/* Reads the blocked cells of the window around (x, y) into p->win. */
void nbi_window_read(nb_planner *p, long x, long y);
/* Is any cell curve c touches blocked, from the window's origin (cell
 * lists, for windows past 32 cells)? */
int nbi_list_hits(nb_planner *p, uint32_t c);
/* The table's curves of entry (h0, h1, o) read against the window read
 * for the origin cell: the first free one's length and code, or 0. */
static inline int nbi_edge_win(nb_planner *p, unsigned h0, unsigned o, unsigned h1, int rev,
                               double *len, unsigned *code)
{
    const nbi_edges *e = &p->edges;
    unsigned K = p->K, a = rev ? (h0 + K / 2) % K : h0, b = rev ? (h1 + K / 2) % K : h1;
    size_t ix = ((size_t)a * K + b) * e->N + o;
    for (uint32_t c = e->efirst[ix], end = c + e->ecount[ix]; c < end; c++)
        if (e->masks ? !nbi_mask_hits(e, p->win, c) : !nbi_list_hits(p, c)) {
            *len = e->len[c];
            *code = nbi_move(o, h1, e->code[c] & 7u, e->code[c] >> 3, rev);
            return 1;
        }
    return 0;
}
/* 1 when the exact sweep of the segments meets no blocked cell; cells
 * under the disc at (skipx, skipy) are not checked when skip. */
int nbi_walkable(nb_planner *p, const nb_segment *seg, size_t n, int skip, double skipx,
                 double skipy);

/* ---- heuristics (heuristic.c) ---- */

/* Makes the lattice bound for the neighbourhood, when the planner does
 * not have it yet; 0 when out of memory. */
int nbi_lattice_need(nb_planner *p, unsigned N);
/* The reverse search (reverse.c): begin starts it from the goal; dist is
 * the cell's distance to the goal in the graph of cells, INFINITY when it
 * has none (0, with p->nodes.full set, when the search ran out of room). */
int nbi_rra_begin(nb_planner *p, long gx, long gy, long sx, long sy, unsigned N);
double nbi_rra_dist(nb_planner *p, long x, long y);
/* The curve heuristic from a pose to a cell's centre. */
double nbi_heuristic(const nb_planner *p, const nb_pose *from, long gx, long gy, int reverse_ok);

static inline nb_pose nbi_centre_pose(const nb_planner *p, long x, long y, unsigned h)
{
    nb_pose q = {x + 0.5, y + 0.5, nbi_heading(h, p->K)};
    return q;
}

/* The pose of a node. */
static inline nb_pose nbi_node_pose(const nb_planner *p, const nbi_node *n)
{
    return nbi_centre_pose(p, n->x, n->y, n->k);
}

/* A search's key g + h to 2^-30 of a cell: sums of the same lengths in
 * another order differ in their last bits, and then the larger g, not the
 * rounding, must decide between nodes that are equally good (on open
 * ground most are).  A path found is then within 2^-30 of the least cost. */
static inline double nbi_key(double g, double h)
{
    return floor((g + h) * 1073741824.0) / 1073741824.0;
}
/* Queues node id at its key; 0 when out of memory. */
static inline int nbi_queue(nb_planner *p, uint32_t id)
{
    const nbi_node *n = nbi_nodes_at(&p->nodes, id);
    return nbi_open_push(&p->heap, nbi_key(n->g, n->h), -n->g, id);
}
/* The next open node, skipping stale entries, or 0. */
uint32_t nbi_next_open(nb_planner *p);

/* Directional A* (directional.c) from a pose to a cell (goal_heading -1 for
 * any); o->box limits the cells searched.  begin queues the start; run
 * expands at most budget nodes; route fills p->route with the path to
 * the node found, or to the best node (least heuristic, then least cost)
 * when the search stopped short. */
int nbi_dir_begin(nb_planner *p, const nb_pose *start, long gx, long gy, int goal_heading,
                  const struct nbi_dir_opts *o);
enum nbi_run nbi_dir_run(nb_planner *p, uint64_t budget);
int nbi_dir_route(nb_planner *p, int partial);

/* Grid A* (hybrid.c) over cells a unit may stand on, 4- or 8-connected
 * (no corner cutting); route fills p->path with the path found, or to the
 * best node. */
int nbi_grid_begin(nb_planner *p, long sx, long sy, long gx, long gy, int eight);
enum nbi_run nbi_grid_run(nb_planner *p, uint64_t budget);
int nbi_grid_path(nb_planner *p, int partial);
/* The hybrid's step between the two smoothing passes: the Directional-8
 * search between their failure points, started; and the join of the
 * three pieces into p->route. */
int nbi_hybrid_bridge(nb_planner *p, const char **reason);
int nbi_hybrid_join(nb_planner *p, int backward_too);
/* An 8-connected grid path as lines from the start; fills p->route. */
int nbi_lines(nb_planner *p, const nb_pose *start, const char **reason);

/* Smoothing (smooth.c). */
/* Listing 1 over route's waypoints with curves between poses (or lines
 * when lines): drops each waypoint that a walkable curve no longer than
 * the route skips. */
int nbi_smooth_simple(nb_planner *p, nbi_route *r, int lines);
/* Smoothing-48 along the grid path p->path: forward from the start pose,
 * or backward from the last cell (any heading, or goal_heading).  run
 * returns FOUND when it reached the other end, NONE when it gave up;
 * route fills out with the route found, or the route to the farthest
 * waypoint reached. */
int nbi_s48_begin(nb_planner *p, const nb_pose *start, int backward, int goal_heading,
                  int onthefly);
enum nbi_run nbi_s48_run(nb_planner *p, uint64_t budget);
int nbi_s48_route(nb_planner *p, nbi_route *out, size_t *far);

/* The reasons a stage gives. */
extern const char nbi_reason_nomem[], nbi_reason_limit[];

/* Flattens a route into p->seg. */
int nbi_route_segments(nb_planner *p, const nbi_route *r);

#endif
