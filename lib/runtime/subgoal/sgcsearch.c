/* sgcsearch.c: least-cost paths from the optimal layer under an agent's
 * terrain costs (subgoal.h: nbi_sgc_*), for every query.
 *
 * A move costs its length times the multiplier of the cell it enters
 * (clearance/costs.h).  The layer is customized to a cost profile the
 * first time a query uses it (and kept while the profile is the same):
 *
 *  - each free cell gets its multiplier's class k; G_k is the grid whose
 *    free cells are those of class k, the others blocked;
 *  - the border B: free cells with a free neighbour (of the eight) of
 *    another class; the nodes N: B and the layer's subgoals;
 *  - edges: from each node u of class k, the nodes a scan of G_k from u
 *    reaches (nbi_sg_scan with G_k's bitmaps and N as its subgoals), each
 *    costing k's multiplier times its octile length; and from each node
 *    of B, each legal single move to a neighbour in B, costing its length
 *    times the multiplier of the cell it enters.
 *
 * Why that is exact.  Cut a least-cost path P where the class of the
 * entered cell changes: each piece enters cells of one class k only, and
 * each cut cell (the last of a piece) has a neighbour, the next cell, of
 * another class, so it is in B, and so is that neighbour.  A piece from
 * cell a enters class-k cells only and costs k's multiplier times its
 * length.  If a is not of class k, its first move goes from a cell of B
 * to a neighbour of another class, in B: a single-move edge.  What is
 * left runs in G_k but for its diagonal moves that pass a free cell of
 * another class (legal on the grid, not in G_k): both ends of such a move
 * are beside that cell, so in B, and the move is a single-move edge too.
 * Each remaining stretch is a path of G_k between two cells of N (or the
 * query's ends), and as a part of a least-cost path it is a shortest path
 * of G_k (a shorter one would cost less at the same multiplier).  N holds
 * every subgoal of G_k: a cell of class k whose diagonal neighbour is
 * blocked in G_k is in B when that neighbour is free (of another class),
 * and a subgoal of the layer when it is blocked (its two cardinal cells
 * free in G_k are free on the grid, under either corner rule's test of
 * formats/subgoal.md).  So, as in the layer (Uras, Koenig and Hernandez,
 * 2013; extra subgoals keep that true), a shortest path of G_k between
 * those ends is a chain of direct-h-reachable hops between nodes, each a
 * scan edge.  So P's cost is a path's cost in the graph, and each edge is
 * a walk on the grid that costs what the edge says: the graph's least
 * cost is the grid's.  The ends join it as the layer's do: an end in N is
 * its node; an end e outside B has every neighbour of its own class, so
 * the piece at e runs in G_class(e), and a scan from e reaches the nodes
 * of its first (last) hop, the start's scan finding the goal too when it
 * is of the start's class.
 *
 * The search is A* with the least multiplier times the octile distance,
 * which no move's cost undercuts (consistent).  The graph is sized by
 * its nodes (the border is most of them): it is measured against the
 * layer and Annotated A* in tests/bench/results/optimal-bench.md. */
#include <math.h>
#include <stdlib.h>

#include "blocked/blocked.h"
#include "core/u32map.h"
#include "subgoal/subgoal.h"

#define NONE UINT32_MAX
#define NOCLASS 0xffu
#define MAXCLASS 64u
#define LANDMARKS 8u

/* A byte of the customized graph changed under an overlay, with what it held and holds. */
struct sgc_patch {
    uint8_t *at;
    uint8_t old, val;
};

/* A hop a node's expansion under an overlay found (its scan of G'_k or a single move), kept
 * while the overlay is unchanged: the node reached and what the hop costs. */
struct sgc_hop {
    uint32_t to;
    double cost;
};
struct sgc_hops {
    uint32_t first, n; /* a node's hops in the pool */
};

struct sgc_open {
    double key;
    uint32_t node;
};

struct nbi_sgc {
    const nb_allocator *a;
    /* The profile the graph is customized for. */
    const nbi_sglayer *L;
    nb_capability cap;
    uint32_t size;
    double cost[NB_MAX_TERRAINS];
    int built;

    uint32_t width, height, rw, cw;
    uint8_t *cls;     /* class per cell, NOCLASS where the agent may not stand */
    uint32_t nclass;
    double mult[MAXCLASS];
    double least;
    uint8_t *bits;    /* per class: free rows, node rows, free-and-not-node columns */
    size_t class_bytes;
    nbi_sggrid *grid; /* per class, over bits */
    uint8_t *node_rows; /* N as a row bitmap */
    uint32_t *rank;     /* per row word: nodes in the words before it */
    uint32_t nodes;
    uint32_t *cell;     /* per node: y W + x */
    uint32_t *first;    /* per node + 1 */
    uint32_t *target;   /* per edge */
    size_t nedges, ecap;
    uint32_t *card, *diag; /* per edge: the hop's steps */
    double *land;          /* per landmark, per node: its least cost from the landmark */
    uint32_t nland;
    double land_t[LANDMARKS]; /* the query's goal's least cost from each landmark */
    int32_t *box;          /* per node: x0, y0, x1, y1 of the cells its stored scan read */

    /* Under an overlay (the query's; see "Under an overlay" above): the bytes of cls and the
     * class grids changed, the temporary nodes (ids nodes, nodes + 1, ...), the overlay's
     * tiles that hold a changed cell, as sums over the tiles above and left. */
    struct sgc_patch *patch;
    size_t npatch, patch_cap;
    uint32_t ntemp;
    size_t vcap;              /* room of the per-node arrays below, temporary nodes included */
    nbi_u32map temp;          /* cell -> temporary node */
    int32_t *blocked;         /* x, y of each cell the overlay takes */
    size_t nblocked, blocked_cap;
    uint32_t *dirty;          /* (tw + 1) x (th + 1) sums of changed tiles */
    size_t dirty_cap;
    uint32_t tw, th;
    int overlaid;
    /* The changes above kept for the overlay's version (pver) while queries come: lifted (the
     * bytes put back, the log and the temporary nodes kept, ntemp_kept of them) between
     * queries, laid again by the next one under the same version.  And each node's hops
     * under it (ohop, by node: index in oent, whose hops are in hop). */
    uint64_t pver;
    int lifted;
    uint32_t ntemp_kept;
    nbi_u32map ohop;
    struct sgc_hops *oent;
    size_t noent, oent_cap;
    struct sgc_hop *hop;
    size_t nhop, hop_cap;
    uint64_t hops_made, hops_kept; /* for tests: expansions that scanned, and read back */

    /* The query. */
    nb_cell s, t;
    size_t max_nodes;
    uint64_t max_expansions, expanded, scanned;
    int limit, ended;
    nb_path_status status;
    double best;      /* the least cost to the goal found so far */
    uint32_t best_at; /* its last node (NONE: the start's scan reached the goal) */
    double *g, *to_goal;
    uint32_t *parent, *heap_pos, *stamp, *gstamp;
    uint32_t epoch;
    size_t reached;
    struct sgc_open *heap;
    size_t hn;
    uint32_t near;    /* the settled node nearest the goal: a limit's partial path */
    double near_h;
    nb_cell *path;
    size_t path_cap, path_len;
    nb_cell *way;
    size_t way_cap, way_len;
    nb_status oom;
};

nbi_sgc *nbi_sgc_new(const nb_allocator *a)
{
    nbi_sgc *c = nbi_zalloc_array(a, 1, sizeof *c);
    if (c) {
        c->a = a;
        nbi_u32map_init(&c->temp, a);
        nbi_u32map_init(&c->ohop, a);
    }
    return c;
}

static void drop_graph(nbi_sgc *c)
{
    const nb_allocator *a = c->a;
    nbi_free(a, c->cls);
    nbi_free(a, c->bits);
    nbi_free(a, c->grid);
    nbi_free(a, c->node_rows);
    nbi_free(a, c->rank);
    nbi_free(a, c->cell);
    nbi_free(a, c->first);
    nbi_free(a, c->target);
    nbi_free(a, c->card);
    nbi_free(a, c->diag);
    nbi_free(a, c->g);
    nbi_free(a, c->to_goal);
    nbi_free(a, c->parent);
    nbi_free(a, c->heap_pos);
    nbi_free(a, c->stamp);
    nbi_free(a, c->gstamp);
    nbi_free(a, c->heap);
    nbi_free(a, c->land);
    nbi_free(a, c->box);
    c->box = NULL;
    c->land = NULL;
    c->nland = 0;
    c->npatch = 0; /* the bytes it names are gone */
    c->ntemp = 0;
    c->pver = 0;
    c->lifted = 0;
    c->vcap = 0;
    c->overlaid = 0;
    c->cls = c->bits = c->node_rows = NULL;
    c->grid = NULL;
    c->rank = c->cell = c->first = c->target = c->card = c->diag = NULL;
    c->g = c->to_goal = NULL;
    c->parent = c->heap_pos = c->stamp = c->gstamp = NULL;
    c->heap = NULL;
    c->nedges = c->ecap = 0;
    c->nodes = 0;
    c->built = 0;
}

void nbi_sgc_free(nbi_sgc *c)
{
    if (!c)
        return;
    drop_graph(c);
    nbi_free(c->a, c->patch);
    nbi_free(c->a, c->blocked);
    nbi_free(c->a, c->dirty);
    nbi_u32map_free(&c->temp);
    nbi_u32map_free(&c->ohop);
    nbi_free(c->a, c->oent);
    nbi_free(c->a, c->hop);
    nbi_free(c->a, c->path);
    nbi_free(c->a, c->way);
    nbi_free(c->a, c);
}

size_t nbi_sgc_bytes(const nbi_sgc *c)
{
    if (!c)
        return 0;
    size_t bytes = sizeof *c + c->path_cap * sizeof *c->path + c->way_cap * sizeof *c->way +
                   c->patch_cap * sizeof *c->patch + c->blocked_cap * sizeof *c->blocked +
                   c->dirty_cap * sizeof *c->dirty + nbi_u32map_bytes(&c->temp) +
                   nbi_u32map_bytes(&c->ohop) + c->oent_cap * sizeof *c->oent +
                   c->hop_cap * sizeof *c->hop;
    if (!c->built)
        return bytes;
    size_t n = c->vcap;
    return bytes + (size_t)c->width * c->height +
           c->nclass * (c->class_bytes + sizeof *c->grid) +
           (size_t)c->height * c->rw * 8 + 8 + ((size_t)c->height * c->rw + 1) * sizeof *c->rank +
           n * sizeof *c->cell + ((size_t)c->nodes + 1) * (sizeof *c->first + 4 * sizeof *c->box) +
           c->ecap * (sizeof *c->target + sizeof *c->card + sizeof *c->diag) +
           n * (sizeof *c->g + sizeof *c->to_goal + sizeof *c->parent + sizeof *c->heap_pos +
                sizeof *c->stamp + sizeof *c->gstamp + sizeof *c->heap) +
           ((size_t)c->nodes + 1) * c->nland * sizeof *c->land;
}

/* ---- customizing the layer to a profile ---- */

static inline void set_bit(uint8_t *bytes, size_t line_bytes, uint32_t line, uint32_t at)
{
    bytes[(size_t)line * line_bytes + (at >> 3)] |= (uint8_t)(1u << (at & 7));
}
static inline int cls_at(const nbi_sgc *c, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || (uint32_t)x >= c->width || (uint32_t)y >= c->height)
        return NOCLASS;
    return c->cls[(size_t)y * c->width + (uint32_t)x];
}

/* The node of (x, y), which must be one. */
static uint32_t node_at(const nbi_sgc *c, int32_t x, int32_t y)
{
    size_t k = (size_t)y * c->rw + ((uint32_t)x >> 6);
    uint64_t w = nbi_sg_word(c->node_rows, k) & ((((uint64_t)1) << (x & 63)) - 1);
    return c->rank[k] + nbp_popcount64(w);
}
static int is_node(const nbi_sgc *c, int32_t x, int32_t y)
{
    if (x < 0 || y < 0 || (uint32_t)x >= c->width || (uint32_t)y >= c->height)
        return 0;
    return (int)((nbi_sg_word(c->node_rows, (size_t)y * c->rw + ((uint32_t)x >> 6)) >> (x & 63)) & 1u);
}

static int add_edge(nbi_sgc *c, uint32_t to, uint32_t card, uint32_t diag)
{
    if (c->nedges >= UINT32_MAX)
        return 0; /* first[] holds u32 edge numbers */
    if (c->nedges == c->ecap) {
        size_t cap = c->ecap;
        if (!nbi_grow(c->a, (void **)&c->target, &cap, c->nedges + 1, sizeof *c->target))
            return 0;
        size_t cap2 = c->ecap, cap3 = c->ecap;
        if (!nbi_grow(c->a, (void **)&c->card, &cap2, cap, sizeof *c->card) ||
            !nbi_grow(c->a, (void **)&c->diag, &cap3, cap, sizeof *c->diag))
            return 0;
        c->ecap = cap;
    }
    c->target[c->nedges] = to;
    c->card[c->nedges] = card;
    c->diag[c->nedges] = diag;
    c->nedges++;
    return 1;
}

static int edge_visit(void *ctx, int32_t x, int32_t y, uint32_t card, uint32_t diag)
{
    nbi_sgc *c = ctx;
    return add_edge(c, node_at(c, x, y), card, diag);
}

/* The class of multiplier m, made when new; NOCLASS past MAXCLASS. */
static unsigned class_of(nbi_sgc *c, double m)
{
    for (unsigned k = 0; k < c->nclass; k++)
        if (c->mult[k] == m)
            return k;
    if (c->nclass == MAXCLASS)
        return NOCLASS;
    c->mult[c->nclass] = m;
    return c->nclass++;
}

static double edge_cost(const nbi_sgc *c, size_t e);
static void sift_up(nbi_sgc *c, size_t i, struct sgc_open e);
static uint32_t pop(nbi_sgc *c);

/* d: the least cost from node src to every node (INFINITY: none), over the graph's edges. */
static void dijkstra(nbi_sgc *c, uint32_t src, double *d)
{
    for (uint32_t v = 0; v < c->nodes; v++) {
        d[v] = INFINITY;
        c->heap_pos[v] = NONE;
    }
    c->hn = 0;
    d[src] = 0;
    sift_up(c, c->hn++, (struct sgc_open){0, src});
    while (c->hn) {
        uint32_t v = pop(c);
        for (uint32_t e = c->first[v]; e < c->first[v + 1]; e++) {
            uint32_t t = c->target[e];
            double nd = d[v] + edge_cost(c, e);
            if (nd < d[t]) {
                d[t] = nd;
                size_t pos = c->heap_pos[t] == NONE ? c->hn++ : c->heap_pos[t];
                sift_up(c, pos, (struct sgc_open){nd, t});
            }
        }
    }
    c->hn = 0;
}

/* Landmarks for the search's heuristic (ALT: Goldberg and Harrelson, 2005): a least cost d(l, v)
 * from landmark l to every node, so that no path from v to the goal t costs less than
 * d(l, t) - d(l, v) (else l would reach t for less than d(l, t) through v).  The first is the
 * node farthest from the map's centre, each next the node farthest from those chosen. */
static int landmarks(nbi_sgc *c)
{
    uint32_t n = c->nodes, k = n < LANDMARKS ? n : LANDMARKS;
    if (!(c->land = nbi_alloc_array(c->a, (size_t)k * n, sizeof *c->land)))
        return 0;
    uint32_t pick = 0;
    double far = -1;
    for (uint32_t v = 0; v < n; v++) {
        double h = nbi_octile_cells((int32_t)(c->cell[v] % c->width), (int32_t)(c->cell[v] / c->width),
                                    (int32_t)c->width / 2, (int32_t)c->height / 2);
        if (h > far)
            far = h, pick = v;
    }
    for (c->nland = 0; c->nland < k;) {
        double *d = c->land + (size_t)c->nland * n;
        dijkstra(c, pick, d);
        c->nland++;
        far = -1;
        for (uint32_t v = 0; v < n; v++) {
            double m = INFINITY;
            for (uint32_t l = 0; l < c->nland; l++) {
                double x = c->land[(size_t)l * n + v];
                m = x < m ? x : m;
            }
            if (m < INFINITY && m > far)
                far = m, pick = v;
        }
        if (far <= 0)
            break; /* every node is a landmark's own */
    }
    return 1;
}

static nb_status build(nbi_sgc *c, const nbi_sglayer *L, const nbi_costs *costs, nb_err *err)
{
    drop_graph(c);
    const nbi_sggrid *lg = &L->grid;
    const nb_allocator *a = c->a;
    uint32_t W = lg->width, H = lg->height;
    c->width = W;
    c->height = H;
    c->rw = lg->row_words;
    c->cw = lg->col_words;
    c->nclass = 0;
    size_t cells = (size_t)W * H, rowb = (size_t)c->rw * 8, colb = (size_t)c->cw * 8;
    if (!(c->cls = nbi_alloc_array(a, cells ? cells : 1, 1)))
        return nbi_fail_nomem(err, "the layer customized to terrain costs");
    c->least = INFINITY;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            unsigned k = NOCLASS;
            if (nbi_sg_free(lg, (int32_t)x, (int32_t)y)) {
                double m = nbi_costs_cell(costs, x, y);
                k = class_of(c, m);
                if (k == NOCLASS)
                    return nbi_fail(err, NB_ERR_ARG, "optimal layer: more than %u distinct terrain "
                                    "multipliers under the agent's square", MAXCLASS);
                c->least = m < c->least ? m : c->least;
            }
            c->cls[(size_t)y * W + x] = (uint8_t)k;
        }
    /* N: the border and the layer's subgoals. */
    if (!(c->node_rows = nbi_zalloc_array(a, (size_t)H * rowb + 8, 1)) ||
        !(c->rank = nbi_alloc_array(a, (size_t)H * c->rw + 1, sizeof *c->rank)))
        return nbi_fail_nomem(err, "the layer customized to terrain costs");
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            int k = c->cls[(size_t)y * W + x];
            if (k == NOCLASS)
                continue;
            int node = nbi_sg_is_subgoal(lg, (int32_t)x, (int32_t)y);
            for (unsigned d = 0; d < 8 && !node; d++) {
                int n = cls_at(c, (int32_t)x + nbi_move_dx[d], (int32_t)y + nbi_move_dy[d]);
                node = n != NOCLASS && n != k;
            }
            if (node)
                set_bit(c->node_rows, rowb, y, x);
        }
    uint32_t n = 0;
    for (size_t k = 0; k < (size_t)H * c->rw; k++) {
        c->rank[k] = n;
        n += (uint32_t)nbp_popcount64(nbi_sg_word(c->node_rows, k));
    }
    c->nodes = n;
    /* Each class's grid: its free cells, its nodes, its free cells that are not nodes. */
    c->class_bytes = 2 * (size_t)H * rowb + (size_t)W * colb + 8;
    if (!(c->bits = nbi_zalloc_array(a, c->nclass ? c->nclass : 1, c->class_bytes)) ||
        !(c->grid = nbi_zalloc_array(a, c->nclass ? c->nclass : 1, sizeof *c->grid)) ||
        !(c->cell = nbi_alloc_array(a, (size_t)n + 1, sizeof *c->cell)) ||
        !(c->first = nbi_alloc_array(a, (size_t)n + 1, sizeof *c->first)) ||
        !(c->box = nbi_alloc_array(a, (size_t)n + 1, 4 * sizeof *c->box)))
        return nbi_fail_nomem(err, "the layer customized to terrain costs");
    for (uint32_t k = 0; k < c->nclass; k++) {
        uint8_t *base = c->bits + k * c->class_bytes;
        nbi_sggrid *g = &c->grid[k];
        g->free_rows = base;
        g->sub_rows = base + (size_t)H * rowb;
        g->pass_cols = base + 2 * (size_t)H * rowb;
        g->width = W;
        g->height = H;
        g->row_words = c->rw;
        g->col_words = c->cw;
        g->strict = lg->strict;
    }
    uint32_t u = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            int k = c->cls[(size_t)y * W + x];
            if (k == NOCLASS)
                continue;
            uint8_t *base = c->bits + (size_t)k * c->class_bytes;
            set_bit(base, rowb, y, x);
            if (is_node(c, (int32_t)x, (int32_t)y)) {
                set_bit(base + (size_t)H * rowb, rowb, y, x);
                c->cell[u++] = y * W + x;
            } else {
                set_bit(base + 2 * (size_t)H * rowb, colb, x, y);
            }
        }
    /* The edges, node by node. */
    for (u = 0; u < n; u++) {
        c->first[u] = (uint32_t)c->nedges;
        int32_t x = (int32_t)(c->cell[u] % W), y = (int32_t)(c->cell[u] / W);
        int k = c->cls[c->cell[u]];
        if (nbi_sg_scan_box(&c->grid[k], x, y, edge_visit, c, c->box + 4 * (size_t)u) < 0)
            return nbi_fail_nomem(err, "the layer customized to terrain costs");
        for (unsigned d = 0; d < 8; d++) {
            int32_t nx = x + nbi_move_dx[d], ny = y + nbi_move_dy[d];
            if (!is_node(c, nx, ny) || !nbi_sg_step_ok(lg, x, y, d))
                continue;
            /* Moves inside G_k the scan found; the others cross classes or pass one. */
            if (cls_at(c, nx, ny) == k && nbi_sg_step_ok(&c->grid[k], x, y, d))
                continue;
            int diagonal = NBI_MOVE_IS_DIAGONAL(d) != 0;
            if (!add_edge(c, node_at(c, nx, ny), (uint32_t)!diagonal, (uint32_t)diagonal))
                return nbi_fail_nomem(err, "the layer customized to terrain costs");
        }
    }
    c->first[n] = (uint32_t)c->nedges;
    if (!(c->g = nbi_alloc_array(a, (size_t)n + 1, sizeof *c->g)) ||
        !(c->to_goal = nbi_alloc_array(a, (size_t)n + 1, sizeof *c->to_goal)) ||
        !(c->parent = nbi_alloc_array(a, (size_t)n + 1, sizeof *c->parent)) ||
        !(c->heap_pos = nbi_alloc_array(a, (size_t)n + 1, sizeof *c->heap_pos)) ||
        !(c->stamp = nbi_zalloc_array(a, (size_t)n + 1, sizeof *c->stamp)) ||
        !(c->gstamp = nbi_zalloc_array(a, (size_t)n + 1, sizeof *c->gstamp)) ||
        !(c->heap = nbi_alloc_array(a, (size_t)n + 1, sizeof *c->heap)))
        return nbi_fail_nomem(err, "the layer customized to terrain costs");
    c->vcap = (size_t)n + 1;
    c->epoch = 0;
    if (n && !landmarks(c))
        return nbi_fail_nomem(err, "the layer customized to terrain costs");
    c->built = 1;
    return NB_OK;
}

/* ---- under an overlay ----
 *
 * The blocks take cells from the classes' grids: G'_k is G_k less them.  The graph for G'_k
 * is the customized one changed where the blocks are:
 *
 *  - each free cell next to a blocked one (of the eight) that is not a node becomes a
 *    temporary node, so that N' (N and those) holds every subgoal of each G'_k, by the file's
 *    argument: a cell of class k whose diagonal neighbour is blocked in G'_k is in B when the
 *    neighbour is free of another class, a subgoal of the layer when the layer blocks it, and
 *    a temporary node (or a node already) when the overlay does;
 *  - a node is expanded by its scan of G'_k with N' as its subgoals, and its single moves
 *    under the overlay, when the rectangle its stored scan read (one cell wider, for its
 *    single moves) meets a tile that holds a blocked cell or a temporary node; else its
 *    stored edges stand (the grid and the nodes are the same in that rectangle, so its scan
 *    would find the same hops).  Temporary nodes are always scanned; they have no single-move
 *    edges (not in B, every free neighbour is of their class).
 *
 * Blocks only take paths away, so d'(v, t) >= d(v, t) >= d(l, t) - d(l, v) for the unblocked
 * graph's least costs d: the landmarks' bound, with d(l, t) read on the unblocked graph (the
 * goal's scan before the blocks go in), stays admissible.  It is consistent over the edges
 * between permanent nodes (each costs at least d(u, v)), not over an edge into a temporary
 * node, whose bound is the octile one: the search reopens what it reaches again for less.
 * The class grids and cls are changed in place, each byte's old value logged, and put back
 * when the next query begins. */

#define TILE_SHIFT 6 /* the changed tiles' side, as the overlay's (64 cells) */

static uint32_t node_id(const nbi_sgc *c, int32_t x, int32_t y)
{
    if (is_node(c, x, y))
        return node_at(c, x, y);
    if (!c->ntemp)
        return NONE;
    int found;
    uint32_t v = nbi_u32map_get(&c->temp, (uint32_t)y * c->width + (uint32_t)x, &found);
    return found ? v : NONE;
}

static int log_byte(nbi_sgc *c, uint8_t *at, uint8_t val)
{
    if (*at == val)
        return 1;
    if (!nbi_grow(c->a, (void **)&c->patch, &c->patch_cap, c->npatch + 1, sizeof *c->patch))
        return 0;
    c->patch[c->npatch++] = (struct sgc_patch){at, *at, val};
    *at = val;
    return 1;
}
static int log_bit(nbi_sgc *c, uint8_t *bytes, size_t line_bytes, uint32_t line, uint32_t at,
                   int on)
{
    uint8_t *b = bytes + (size_t)line * line_bytes + (at >> 3), bit = (uint8_t)(1u << (at & 7));
    return log_byte(c, b, on ? (uint8_t)(*b | bit) : (uint8_t)(*b & ~bit));
}

/* The graph as customized, every logged byte back in reverse order, the log and the
 * temporary nodes kept for the next query under the same overlay (lay). */
static void lift(nbi_sgc *c)
{
    if (!c->overlaid)
        return;
    for (size_t i = c->npatch; i-- > 0;)
        *c->patch[i].at = c->patch[i].old;
    c->ntemp_kept = c->ntemp;
    c->ntemp = 0;
    c->overlaid = 0;
    c->lifted = 1;
}

/* The lifted changes laid again. */
static void lay(nbi_sgc *c)
{
    for (size_t i = 0; i < c->npatch; i++)
        *c->patch[i].at = c->patch[i].val;
    c->ntemp = c->ntemp_kept;
    c->overlaid = 1;
    c->lifted = 0;
}

/* What was kept for an overlay dropped (the graph lifted first: its bytes are the
 * customized ones). */
static void forget(nbi_sgc *c)
{
    c->npatch = 0;
    c->ntemp = c->ntemp_kept = 0;
    c->overlaid = c->lifted = 0;
    c->pver = 0;
    nbi_u32map_clear(&c->temp);
    nbi_u32map_clear(&c->ohop);
    c->noent = c->nhop = 0;
}

/* Room for need nodes in the per-node arrays of the search. */
static int grow_nodes(nbi_sgc *c, size_t need)
{
    if (need <= c->vcap)
        return 1;
    size_t cap = need + need / 8 + 256; /* a few blocks' corners at a time, not the map's nodes again */
    void *p;
#define GROW(f)                                                                                   \
    if (!(p = nbi_realloc_array(c->a, c->f, cap, sizeof *c->f)))                                  \
        return 0;                                                                                 \
    c->f = p;
    GROW(cell) GROW(g) GROW(to_goal) GROW(parent) GROW(heap_pos) GROW(stamp) GROW(gstamp)
    GROW(heap)
#undef GROW
    memset(c->stamp + c->vcap, 0, (cap - c->vcap) * sizeof *c->stamp);
    memset(c->gstamp + c->vcap, 0, (cap - c->vcap) * sizeof *c->gstamp);
    c->vcap = cap;
    return 1;
}

static void mark_tile(nbi_sgc *c, int32_t x, int32_t y)
{
    c->dirty[((size_t)((uint32_t)y >> TILE_SHIFT) + 1) * (c->tw + 1) + ((uint32_t)x >> TILE_SHIFT) + 1] = 1;
}

/* The blocks of ov for an agent of this size put into the class grids; 0 without memory. */
static int patch(nbi_sgc *c, const nb_overlay *ov, uint32_t size)
{
    uint32_t W = c->width, H = c->height;
    size_t rowb = (size_t)c->rw * 8, colb = (size_t)c->cw * 8;
    c->overlaid = 1;
    c->nblocked = 0;
    /* The cells the overlay takes, read in the tiles it holds of its own with a cell below
     * its cap (the others block nothing). */
    for (uint32_t ty = 0; ty < ov->th; ty++)
        for (uint32_t tx = 0; tx < ov->tw; tx++) {
            size_t ti = (size_t)ty * ov->tw + tx;
            if (ov->tile[ti] == ov->full || (size <= ov->cap && ov->low[ti] == 0))
                continue;
            for (uint32_t r = 0; r < NBI_OV_SIDE && (ty << NBI_OV_SHIFT) + r < H; r++)
                for (uint64_t m = nbi_overlay_row_low(ov->tile[ti] + (r << NBI_OV_SHIFT), size); m;
                     m &= m - 1) {
                    uint32_t x = (tx << NBI_OV_SHIFT) + (uint32_t)nbp_ctz64(m), y = (ty << NBI_OV_SHIFT) + r;
                    if (x >= W || c->cls[(size_t)y * W + x] == NOCLASS)
                        continue;
                    if (!nbi_grow(c->a, (void **)&c->blocked, &c->blocked_cap,
                                  2 * c->nblocked + 2, sizeof *c->blocked))
                        return 0;
                    c->blocked[2 * c->nblocked] = (int32_t)x;
                    c->blocked[2 * c->nblocked + 1] = (int32_t)y;
                    c->nblocked++;
                }
        }
    c->tw = (W >> TILE_SHIFT) + 1;
    c->th = (H >> TILE_SHIFT) + 1;
    size_t nd = (size_t)(c->tw + 1) * (c->th + 1);
    if (!nbi_grow(c->a, (void **)&c->dirty, &c->dirty_cap, nd, sizeof *c->dirty))
        return 0;
    memset(c->dirty, 0, nd * sizeof *c->dirty);
    for (size_t i = 0; i < c->nblocked; i++) {
        uint32_t x = (uint32_t)c->blocked[2 * i], y = (uint32_t)c->blocked[2 * i + 1];
        uint8_t *k = &c->cls[(size_t)y * W + x];
        uint8_t *base = c->bits + (size_t)*k * c->class_bytes;
        if (!log_bit(c, base, rowb, y, x, 0) || !log_bit(c, base + (size_t)H * rowb, rowb, y, x, 0) ||
            !log_bit(c, base + 2 * (size_t)H * rowb, colb, x, y, 0) || !log_byte(c, k, NOCLASS))
            return 0;
        mark_tile(c, (int32_t)x, (int32_t)y);
    }
    for (size_t i = 0; i < c->nblocked; i++)
        for (unsigned d = 0; d < 8; d++) {
            int32_t x = c->blocked[2 * i] + nbi_move_dx[d], y = c->blocked[2 * i + 1] + nbi_move_dy[d];
            int k = cls_at(c, x, y);
            if (k == NOCLASS || node_id(c, x, y) != NONE)
                continue;
            uint32_t v = c->nodes + c->ntemp;
            if (v == NONE || !grow_nodes(c, (size_t)v + 1) ||
                !nbi_u32map_put(&c->temp, (uint32_t)y * W + (uint32_t)x, v))
                return 0;
            c->ntemp++;
            c->cell[v] = (uint32_t)y * W + (uint32_t)x;
            uint8_t *base = c->bits + (size_t)k * c->class_bytes;
            if (!log_bit(c, base + (size_t)H * rowb, rowb, (uint32_t)y, (uint32_t)x, 1) ||
                !log_bit(c, base + 2 * (size_t)H * rowb, colb, (uint32_t)x, (uint32_t)y, 0))
                return 0;
            mark_tile(c, x, y);
        }
    /* Sums: dirty[(j + 1)(tw + 1) + i + 1] counts the changed tiles (i', j') with i' <= i, j' <= j. */
    for (uint32_t j = 1; j <= c->th; j++)
        for (uint32_t i = 1; i <= c->tw; i++) {
            size_t at = (size_t)j * (c->tw + 1) + i;
            c->dirty[at] += c->dirty[at - 1] + c->dirty[at - c->tw - 1] - c->dirty[at - c->tw - 2];
        }
    return 1;
}

/* 1 when node v's stored edges may not be its edges under the overlay. */
static int touched(const nbi_sgc *c, uint32_t v)
{
    if (v >= c->nodes)
        return 1;
    const int32_t *b = c->box + 4 * (size_t)v;
    int32_t x0 = b[0] > 0 ? b[0] - 1 : 0, y0 = b[1] > 0 ? b[1] - 1 : 0;
    int32_t x1 = b[2] + 1, y1 = b[3] + 1;
    uint32_t i0 = (uint32_t)x0 >> TILE_SHIFT, j0 = (uint32_t)y0 >> TILE_SHIFT;
    uint32_t i1 = (uint32_t)x1 >> TILE_SHIFT, j1 = (uint32_t)y1 >> TILE_SHIFT;
    i1 = i1 < c->tw ? i1 : c->tw - 1;
    j1 = j1 < c->th ? j1 : c->th - 1;
    size_t s = c->tw + 1;
    const uint32_t *d = c->dirty;
    return d[(j1 + 1) * s + i1 + 1] - d[j0 * s + i1 + 1] - d[(j1 + 1) * s + i0] + d[j0 * s + i0] != 0;
}

/* 1 when the agent may move from (x, y) by d on the grid the overlay leaves. */
static int step_left(const nbi_sgc *c, int32_t x, int32_t y, unsigned d)
{
    int32_t dx = nbi_move_dx[d], dy = nbi_move_dy[d];
    if (cls_at(c, x + dx, y + dy) == NOCLASS)
        return 0;
    if (!NBI_MOVE_IS_DIAGONAL(d))
        return 1;
    int h = cls_at(c, x + dx, y) != NOCLASS, w = cls_at(c, x, y + dy) != NOCLASS;
    return c->grid[0].strict ? h && w : h || w;
}

/* ---- the search ---- */

static double edge_cost(const nbi_sgc *c, size_t e)
{
    return c->mult[c->cls[c->cell[c->target[e]]]] * nbi_steps_length(c->card[e], c->diag[e]);
}

static double heur(const nbi_sgc *c, uint32_t v)
{
    int32_t x = (int32_t)(c->cell[v] % c->width), y = (int32_t)(c->cell[v] / c->width);
    double h = c->least * nbi_octile_cells(x, y, c->t.x, c->t.y);
    /* A temporary node (under an overlay) has no landmark distances: the octile bound alone.
     * The search reopens a node reached again for less, so a bound that is admissible but not
     * consistent across its edges (below) still ends with the least cost. */
    for (uint32_t l = 0; v < c->nodes && l < c->nland; l++) {
        double dv = c->land[(size_t)l * c->nodes + v], b = c->land_t[l] - dv;
        /* A landmark that reaches neither is no bound; the margin keeps two sums of the same
         * costs in other orders from overestimating in their last bits. */
        if (dv < INFINITY && c->land_t[l] < INFINITY && b > h)
            h = b;
    }
    return h - 1e-12 * h;
}

static void sift_up(nbi_sgc *c, size_t i, struct sgc_open e)
{
    while (i > 0) {
        size_t p = (i - 1) >> 1;
        if (c->heap[p].key <= e.key)
            break;
        c->heap[i] = c->heap[p];
        c->heap_pos[c->heap[i].node] = (uint32_t)i;
        i = p;
    }
    c->heap[i] = e;
    c->heap_pos[e.node] = (uint32_t)i;
}

static uint32_t pop(nbi_sgc *c)
{
    uint32_t top = c->heap[0].node;
    c->heap_pos[top] = NONE;
    size_t n = --c->hn;
    if (n == 0)
        return top;
    struct sgc_open e = c->heap[n];
    size_t i = 0;
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= n)
            break;
        if (k + 1 < n && c->heap[k + 1].key < c->heap[k].key)
            k++;
        if (c->heap[k].key >= e.key)
            break;
        c->heap[i] = c->heap[k];
        c->heap_pos[c->heap[i].node] = (uint32_t)i;
        i = k;
    }
    c->heap[i] = e;
    c->heap_pos[e.node] = (uint32_t)i;
    return top;
}

/* Node v reached at cost g from parent p (NONE: the start). */
static void reach(nbi_sgc *c, uint32_t v, double g, uint32_t p)
{
    if (c->stamp[v] != c->epoch) {
        if (c->max_nodes && c->reached >= c->max_nodes) {
            c->limit = 1;
            return;
        }
        c->reached++;
        c->stamp[v] = c->epoch;
        c->g[v] = INFINITY;
        c->heap_pos[v] = NONE;
    } else if (g >= c->g[v]) {
        return;
    }
    c->g[v] = g;
    c->parent[v] = p;
    if (c->gstamp[v] == c->epoch && g + c->to_goal[v] < c->best) {
        c->best = g + c->to_goal[v];
        c->best_at = v;
    }
    struct sgc_open o = {g + heur(c, v), v};
    size_t pos = c->heap_pos[v] == NONE ? c->hn++ : c->heap_pos[v];
    sift_up(c, pos, o);
}

struct end_scan {
    nbi_sgc *c;
    int goal_side; /* 1: the goal's costs to its nodes, 2: its landmarks' costs alone, 3: both */
    double mult;
    int32_t tx, ty;
    int hit;
};

static int end_visit(void *ctx, int32_t x, int32_t y, uint32_t card, uint32_t diag)
{
    struct end_scan *j = ctx;
    nbi_sgc *c = j->c;
    double cost = j->mult * nbi_steps_length(card, diag);
    if (x == j->tx && y == j->ty) {
        if (cost < c->best) {
            c->best = cost;
            c->best_at = NONE;
        }
        j->hit = 1;
        return 1;
    }
    c->scanned++;
    uint32_t v = node_id(c, x, y);
    if (j->goal_side & 1) {
        if (c->gstamp[v] != c->epoch || cost < c->to_goal[v])
            c->to_goal[v] = cost;
        c->gstamp[v] = c->epoch;
    }
    if (j->goal_side & 2) {
        for (uint32_t l = 0; l < c->nland; l++) {
            double d = c->land[(size_t)l * c->nodes + v] + cost;
            c->land_t[l] = d < c->land_t[l] ? d : c->land_t[l];
        }
    }
    if (!j->goal_side)
        reach(c, v, cost, NONE);
    return 1;
}

static void add_hop(nbi_sgc *c, uint32_t to, double cost)
{
    if (!nbi_grow(c->a, (void **)&c->hop, &c->hop_cap, c->nhop + 1, sizeof *c->hop)) {
        c->oom = NB_ERR_NOMEM;
        return;
    }
    c->hop[c->nhop++] = (struct sgc_hop){to, cost};
}

/* A node's edges found again under the overlay: its scan of G'_k (and below, its single moves),
 * reached now or kept (keep: the scan made for kept_hops). */
struct rescan {
    nbi_sgc *c;
    uint32_t from;
    double g, mult;
    int keep;
};
static int rescan_visit(void *ctx, int32_t x, int32_t y, uint32_t card, uint32_t diag)
{
    struct rescan *r = ctx;
    double cost = r->mult * nbi_steps_length(card, diag);
    if (r->keep)
        add_hop(r->c, node_id(r->c, x, y), cost);
    else
        reach(r->c, node_id(r->c, x, y), r->g + cost, r->from);
    return r->c->oom == NB_OK;
}

/* Node (x, y) of class k's single move d to a node, when it is one the
 * scan under the overlay does not find: moves inside G'_k the scan found;
 * the others cross classes or pass one.  Its target and cost. */
static inline int single_move(nbi_sgc *c, int32_t x, int32_t y, int k, unsigned d, uint32_t *to,
                              double *cost)
{
    int32_t nx = x + nbi_move_dx[d], ny = y + nbi_move_dy[d];
    int kn = cls_at(c, nx, ny);
    if (kn == NOCLASS || !is_node(c, nx, ny) || !step_left(c, x, y, d))
        return 0;
    if (kn == k && nbi_sg_step_ok(&c->grid[k], x, y, d))
        return 0;
    *to = node_at(c, nx, ny);
    *cost = c->mult[kn] * (NBI_MOVE_IS_DIAGONAL(d) ? NBI_SQRT2 : 1.0);
    return 1;
}

/* The hops of node v under the overlay, found once for its version and kept (the scan reads
 * the changed grids, the same for every query under it); 0 without memory, and the caller
 * scans as before. */
static int kept_hops(nbi_sgc *c, uint32_t v, uint32_t *first, uint32_t *n)
{
    int found;
    uint32_t *e = nbi_u32map_slot(&c->ohop, v, &found);
    if (!e)
        return 0;
    if (found) {
        if (*e == NONE)
            return 0;
        c->hops_kept++;
        *first = c->oent[*e].first;
        *n = c->oent[*e].n;
        return 1;
    }
    *e = NONE; /* until made */
    if (!nbi_grow(c->a, (void **)&c->oent, &c->oent_cap, c->noent + 1, sizeof *c->oent))
        return 0;
    size_t at = c->nhop;
    int32_t x = (int32_t)(c->cell[v] % c->width), y = (int32_t)(c->cell[v] / c->width);
    int k = c->cls[c->cell[v]];
    struct rescan r = {c, v, 0, c->mult[k], 1};
    nbi_sg_scan(&c->grid[k], x, y, -1, -1, rescan_visit, &r);
    if (v < c->nodes)
        for (unsigned d = 0; d < 8 && c->oom == NB_OK; d++) {
            uint32_t to;
            double cost;
            if (single_move(c, x, y, k, d, &to, &cost))
                add_hop(c, to, cost);
        }
    if (c->oom != NB_OK || c->nhop - at > NONE || at > NONE) {
        c->oom = NB_OK; /* not kept (only kept_hops sets oom during a search): scanned again */
        c->nhop = at;
        return 0;
    }
    c->hops_made++;
    *e = (uint32_t)c->noent;
    c->oent[c->noent++] = (struct sgc_hops){(uint32_t)at, (uint32_t)(c->nhop - at)};
    *first = (uint32_t)at;
    *n = (uint32_t)(c->nhop - at);
    return 1;
}

void nbi_sgc_kept(const nbi_sgc *c, uint64_t *made, uint64_t *kept)
{
    *made = c->hops_made;
    *kept = c->hops_kept;
}

static void expand_overlaid(nbi_sgc *c, uint32_t v, double g)
{
    uint32_t first, n;
    if (kept_hops(c, v, &first, &n)) {
        for (uint32_t i = 0; i < n; i++)
            reach(c, c->hop[first + i].to, g + c->hop[first + i].cost, v);
        return;
    }
    int32_t x = (int32_t)(c->cell[v] % c->width), y = (int32_t)(c->cell[v] / c->width);
    int k = c->cls[c->cell[v]];
    struct rescan r = {c, v, g, c->mult[k], 0};
    nbi_sg_scan(&c->grid[k], x, y, -1, -1, rescan_visit, &r);
    if (v >= c->nodes)
        return;
    for (unsigned d = 0; d < 8; d++) {
        uint32_t to;
        double cost;
        if (single_move(c, x, y, k, d, &to, &cost))
            reach(c, to, g + cost, v);
    }
}

nb_status nbi_sgc_begin(nbi_sgc *c, const nbi_sglayer *L, const nbi_costs *costs,
                        const double *profile, const struct nb_overlay *ov, nb_cell s, nb_cell t,
                        size_t max_nodes, uint64_t max_expansions, nb_err *err)
{
    lift(c);
    double cost[NB_MAX_TERRAINS];
    for (unsigned k = 0; k < NB_MAX_TERRAINS; k++)
        cost[k] = profile ? profile[k] : 1;
    if (!c->built || c->L != L || c->cap != L->cap || c->size != L->size ||
        !nbi_costs_equal(c->cost, cost, L->cap)) {
        forget(c);
        nb_status st = build(c, L, costs, err);
        if (st != NB_OK) {
            drop_graph(c);
            return st;
        }
        c->L = L;
        c->cap = L->cap;
        c->size = L->size;
        memcpy(c->cost, cost, sizeof cost);
    }
    if (++c->epoch == 0) { /* the stamps wrapped: clear them */
        memset(c->stamp, 0, c->vcap * sizeof *c->stamp);
        memset(c->gstamp, 0, c->vcap * sizeof *c->gstamp);
        c->epoch = 1;
    }
    c->s = s;
    c->t = t;
    c->max_nodes = max_nodes;
    c->max_expansions = max_expansions;
    c->expanded = c->scanned = 0;
    c->reached = 0;
    c->limit = c->ended = 0;
    c->best = INFINITY;
    c->best_at = NONE;
    c->hn = 0;
    c->near = NONE;
    c->near_h = INFINITY;
    c->oom = NB_OK;
    c->path_len = c->way_len = 0;
    int ks = cls_at(c, s.x, s.y), kt = cls_at(c, t.x, t.y);
    /* The goal's side first, so that the start's reach sees it, and the goal's cost from each
     * landmark: its node's, or the least over the nodes its scan reaches (the last hop of every
     * path to it, as the file's comment says). */
    for (uint32_t l = 0; l < c->nland; l++)
        c->land_t[l] = INFINITY;
    /* Under an overlay the landmarks' costs are the unblocked graph's, read before the
     * blocks go in (see "Under an overlay"). */
    int both = ov == NULL || !ov->blocked;
    if (is_node(c, t.x, t.y)) {
        uint32_t v = node_at(c, t.x, t.y);
        for (uint32_t l = 0; l < c->nland; l++)
            c->land_t[l] = c->land[(size_t)l * c->nodes + v];
    } else {
        struct end_scan j = {c, both ? 3 : 2, c->mult[kt], -1, -1, 0};
        nbi_sg_scan(&c->grid[kt], t.x, t.y, -1, -1, end_visit, &j);
    }
    if (!both && c->lifted && c->pver == ov->version) {
        lay(c);
    } else if (!both) {
        forget(c);
        if (!patch(c, ov, L->size)) {
            lift(c);
            forget(c);
            return nbi_fail_nomem(err, "the layer customized to terrain costs under an overlay");
        }
        c->pver = ov->version;
    }
    uint32_t vt = node_id(c, t.x, t.y);
    if (vt != NONE) {
        c->to_goal[vt] = 0;
        c->gstamp[vt] = c->epoch;
    } else if (!both) {
        struct end_scan j = {c, 1, c->mult[kt], -1, -1, 0};
        nbi_sg_scan(&c->grid[kt], t.x, t.y, -1, -1, end_visit, &j);
    }
    uint32_t vs = node_id(c, s.x, s.y);
    if (vs != NONE) {
        reach(c, vs, 0, NONE);
    } else {
        struct end_scan j = {c, 0, c->mult[ks], ks == kt ? t.x : -1, ks == kt ? t.y : -1, 0};
        nbi_sg_scan(&c->grid[ks], s.x, s.y, j.tx, j.ty, end_visit, &j);
    }
    return nbi_done(err, NB_OK);
}

int nbi_sgc_step(nbi_sgc *c, uint64_t expansions)
{
    for (uint64_t k = 0; !c->ended && k < expansions; k++) {
        if (c->limit || (c->max_expansions && c->expanded >= c->max_expansions)) {
            c->status = NB_PATH_LIMIT;
            c->ended = 1;
            break;
        }
        if (c->hn == 0 || c->heap[0].key >= c->best) {
            c->status = c->best < INFINITY ? NB_PATH_FOUND : NB_PATH_NONE;
            c->ended = 1;
            break;
        }
        uint32_t v = pop(c);
        c->expanded++;
        double h = heur(c, v);
        if (h < c->near_h) {
            c->near = v;
            c->near_h = h;
        }
        double g = c->g[v];
        if (c->overlaid && touched(c, v)) {
            expand_overlaid(c, v, g);
            continue;
        }
        for (uint32_t e = c->first[v]; e < c->first[v + 1]; e++)
            reach(c, c->target[e], g + edge_cost(c, e), v);
    }
    return c->ended;
}

static int push_way(nbi_sgc *c, nb_cell p)
{
    if (!nbi_grow(c->a, (void **)&c->way, &c->way_cap, c->way_len + 1, sizeof *c->way))
        return 0;
    c->way[c->way_len++] = p;
    return 1;
}
static nb_cell cell_of(const nbi_sgc *c, uint32_t v)
{
    nb_cell p = {(int32_t)(c->cell[v] % c->width), (int32_t)(c->cell[v] / c->width)};
    return p;
}

/* The hops' cells: each on the grid of its end's class (a single move is its end). */
static nb_status walk(nbi_sgc *c, nb_err *err)
{
    uint64_t total = nbi_sg_way_cells(c->way, c->way_len);
    if (!nbi_grow(c->a, (void **)&c->path, &c->path_cap, (size_t)total, sizeof *c->path))
        return nbi_fail_nomem(err, "a path");
    c->path[0] = c->way[0];
    size_t at = 1;
    for (size_t i = 1; i < c->way_len; i++) {
        nb_cell p = c->way[i - 1], q = c->way[i];
        size_t k;
        if (abs(q.x - p.x) <= 1 && abs(q.y - p.y) <= 1) {
            c->path[at] = q;
            k = 1;
        } else {
            k = nbi_sg_walk(&c->grid[cls_at(c, q.x, q.y)], p, q, c->path + at);
        }
        if (k == 0)
            return nbi_fail(err, NB_ERR_FORMAT, "optimal layer with terrain costs: no walk from "
                            "(%d, %d) to (%d, %d), which its graph joins", p.x, p.y, q.x, q.y);
        at += k;
    }
    c->path_len = at;
    return NB_OK;
}

nb_status nbi_sgc_finish(nbi_sgc *c, nbi_sgc_result *r, nb_err *err)
{
    memset(r, 0, sizeof *r);
    r->status = c->ended ? c->status : NB_PATH_LIMIT;
    r->expanded = c->expanded;
    r->scanned = c->scanned;
    c->way_len = c->path_len = 0;
    if (r->status != NB_PATH_FOUND && r->status != NB_PATH_LIMIT)
        return nbi_done(err, NB_OK);
    uint32_t end = r->status == NB_PATH_FOUND ? c->best_at : c->near;
    size_t n = 0;
    for (uint32_t v = end; v != NONE; v = c->parent[v])
        n++;
    if (!nbi_grow(c->a, (void **)&c->way, &c->way_cap, n + 2, sizeof *c->way))
        return nbi_fail_nomem(err, "a path");
    c->way_len = n + 1;
    c->way[0] = c->s;
    for (uint32_t v = end; v != NONE; v = c->parent[v])
        c->way[n--] = cell_of(c, v);
    if (r->status == NB_PATH_FOUND && !push_way(c, c->t))
        return nbi_fail_nomem(err, "a path");
    /* An end that is a node appears twice: once as the end, once as its node. */
    size_t w = 0;
    for (size_t i = 0; i < c->way_len; i++)
        if (!w || c->way[i].x != c->way[w - 1].x || c->way[i].y != c->way[w - 1].y)
            c->way[w++] = c->way[i];
    c->way_len = w;
    nb_status st = walk(c, err);
    if (st != NB_OK)
        return st;
    r->way = c->way;
    r->way_len = c->way_len;
    r->path = c->path;
    r->path_len = c->path_len;
    return nbi_done(err, NB_OK);
}

uint32_t nbi_sgc_nodes(const nbi_sgc *c, size_t *edges)
{
    if (edges)
        *edges = c->nedges;
    return c->nodes;
}
