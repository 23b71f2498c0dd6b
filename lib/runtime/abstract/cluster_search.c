/* cluster_search.c: Dijkstra and A* confined to one cluster, the small
 * searches HAA* is made of: one Dijkstra per abstract node and (c, s)
 * builds all of a node's intra-edges at once, one per end inserts start
 * and goal, and A* refines an abstract edge into cells.
 *
 * The agent's top-left cell stays in the box (Theorem 2 maps the agent
 * to that one cell); its other cells may lie beyond, which the clearance
 * read at each cell already accounts for.  A diagonal step needs both
 * cardinal neighbours standable (strict) or one (weak); either neighbour
 * lies in the box whenever both ends do. */
#include "abstract/abstract.h"
#include "clearance/costs.h"
#include "blocked/blocked.h"

/* The open list: a binary min-heap of (f, tie, cell) with a place per
 * cell for decrease-key, kept here (not the shared heap.c) so that the
 * inner loop inlines it: these small searches are most of a query. */
struct nbi_cs_item {
    double key;
    float tie; /* -g: among equal f, the deeper first */
    uint32_t id;
};

static inline int before(const struct nbi_cs_item *a, const struct nbi_cs_item *b)
{
    return a->key < b->key || (a->key == b->key && a->tie < b->tie);
}

static inline void sift_up(nbi_csearch *cs, uint32_t i, struct nbi_cs_item it)
{
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!before(&it, &cs->open[p]))
            break;
        cs->open[i] = cs->open[p];
        cs->hpos[cs->open[i].id] = i;
        i = p;
    }
    cs->open[i] = it;
    cs->hpos[it.id] = i;
}

static inline void open_push(nbi_csearch *cs, double key, double tie, uint32_t id)
{
    struct nbi_cs_item it = {key, (float)tie, id};
    uint32_t at = cs->hpos[id];
    if (at != NBI_HEAP_NONE) { /* only ever lowered */
        sift_up(cs, at, it);
        return;
    }
    sift_up(cs, cs->nopen++, it);
}

static inline uint32_t open_pop(nbi_csearch *cs)
{
    uint32_t top = cs->open[0].id;
    cs->hpos[top] = NBI_HEAP_NONE;
    uint32_t n = --cs->nopen;
    if (n == 0)
        return top;
    struct nbi_cs_item last = cs->open[n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(&cs->open[c + 1], &cs->open[c]))
            c++;
        if (!before(&cs->open[c], &last))
            break;
        cs->open[i] = cs->open[c];
        cs->hpos[cs->open[i].id] = i;
        i = c;
    }
    cs->open[i] = last;
    cs->hpos[last.id] = i;
    return top;
}

int nbi_csearch_init(nbi_csearch *cs, const nb_allocator *a, uint32_t maxw, uint32_t maxh)
{
    memset(cs, 0, sizeof *cs);
    cs->a = a;
    /* Cells are numbered in the box with a ring of one cell around it, so
     * that a neighbour is an offset and the ring stops every search. */
    size_t n = ((size_t)maxw + 2) * ((size_t)maxh + 2);
    cs->maxcells = (uint32_t)n;
    cs->g = nbi_alloc_array(cs->a, n, sizeof *cs->g);
    cs->parent = nbi_alloc_array(cs->a, n, sizeof *cs->parent);
    cs->diag = nbi_alloc_array(cs->a, n, sizeof *cs->diag);
    cs->seen = nbi_zalloc_array(cs->a, n, sizeof *cs->seen);
    cs->closed = nbi_zalloc_array(cs->a, n, sizeof *cs->closed);
    cs->target = nbi_zalloc_array(cs->a, n, sizeof *cs->target);
    cs->memo = nbi_zalloc_array(cs->a, n, sizeof *cs->memo);
    cs->hpos = nbi_alloc_array(cs->a, n, sizeof *cs->hpos);
    cs->open = nbi_alloc_array(cs->a, n, sizeof *cs->open);
    if (!cs->g || !cs->parent || !cs->diag || !cs->seen || !cs->closed || !cs->target ||
        !cs->memo || !cs->hpos || !cs->open) {
        nbi_csearch_free(cs);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        cs->hpos[i] = NBI_HEAP_NONE;
    return 1;
}

void nbi_csearch_free(nbi_csearch *cs)
{
    nbi_free(cs->a, cs->g);
    nbi_free(cs->a, cs->parent);
    nbi_free(cs->a, cs->diag);
    nbi_free(cs->a, cs->seen);
    nbi_free(cs->a, cs->closed);
    nbi_free(cs->a, cs->target);
    nbi_free(cs->a, cs->memo);
    nbi_free(cs->a, cs->hpos);
    nbi_free(cs->a, cs->open);
    const nb_allocator *a = cs->a;
    memset(cs, 0, sizeof *cs);
    cs->a = a;
}

/* A new stamp; on wrap-around every array is cleared once.  The memo
 * holds stamp * 2 + standable, so stamps stay below 2^31. */
static void next_stamp(nbi_csearch *cs)
{
    if (++cs->stamp >= 0x80000000u) {
        memset(cs->seen, 0, cs->maxcells * sizeof *cs->seen);
        memset(cs->closed, 0, cs->maxcells * sizeof *cs->closed);
        memset(cs->target, 0, cs->maxcells * sizeof *cs->target);
        memset(cs->memo, 0, cs->maxcells * sizeof *cs->memo);
        cs->stamp = 1;
    }
}

static inline double octile(int32_t dx, int32_t dy)
{
    return nbi_octile((uint32_t)(dx < 0 ? -dx : dx), (uint32_t)(dy < 0 ? -dy : dy));
}

/* The number of cell (x, y), which must be in the box or its ring. */
static inline uint32_t cell_no(const nbi_csearch *cs, int32_t x, int32_t y)
{
    return (uint32_t)(y - cs->box.y0 + 1) * cs->w2 + (uint32_t)(x - cs->box.x0 + 1);
}

/* May the agent stand at (x, y), cell p?  Read from the layer once per
 * search and cell; the ring and beyond the box: no. */
static inline int free_at(nbi_csearch *cs, const nbi_layer *l, uint32_t size, uint32_t p, int32_t x,
                          int32_t y)
{
    uint32_t m = cs->memo[p];
    if ((m >> 1) == cs->stamp)
        return (int)(m & 1u);
    int v = x >= cs->box.x0 && y >= cs->box.y0 && x < cs->box.x1 && y < cs->box.y1 &&
            nbi_standable(l, size, x, y) && nbi_overlay_room(cs->ov, size, (uint32_t)x, (uint32_t)y);
    cs->memo[p] = cs->stamp << 1 | (uint32_t)v;
    return v;
}

void nbi_csearch_costs(nbi_csearch *cs, const struct nbi_costs *costs, int reverse)
{
    cs->costs = costs;
    cs->cost_rev = reverse;
}

void nbi_csearch_start(nbi_csearch *cs, const nbi_layer *l, uint32_t size, int corner,
                       const nbi_box *box, nb_cell start, const nb_cell *goal,
                       const nb_cell *targets, size_t ntargets)
{
    next_stamp(cs);
    for (uint32_t k = 0; k < cs->nopen; k++) /* what the last search left open */
        cs->hpos[cs->open[k].id] = NBI_HEAP_NONE;
    cs->nopen = 0;
    cs->box = *box;
    cs->w2 = (uint32_t)(box->x1 - box->x0) + 2;
    cs->expanded = 0;
    cs->layer = l;
    cs->size = size;
    cs->strict = corner == NBI_CORNER_STRICT;
    cs->has_goal = goal != NULL;
    cs->end = NBI_CS_RUNNING;
    const uint32_t st = cs->stamp;
    cs->left = 0;
    cs->goal_i = UINT32_MAX;
    if (goal) {
        cs->goal = *goal;
        cs->goal_i = cell_no(cs, goal->x, goal->y);
        cs->left = 1;
    } else {
        for (size_t k = 0; k < ntargets; k++) {
            uint32_t t = cell_no(cs, targets[k].x, targets[k].y);
            if (cs->target[t] != st) {
                cs->target[t] = st;
                cs->left++;
            }
        }
    }
    cs->all = !goal && ntargets == 0;
    uint32_t s = cell_no(cs, start.x, start.y);
    cs->g[s] = 0;
    cs->parent[s] = s;
    cs->diag[s] = 0;
    cs->seen[s] = st;
    double hmul = cs->costs ? cs->costs->least : 1;
    open_push(cs, goal ? octile(goal->x - start.x, goal->y - start.y) * hmul : 0, 0, s);
}

void nbi_csearch_also(nbi_csearch *cs, nb_cell c)
{
    uint32_t s = cell_no(cs, c.x, c.y);
    if (cs->seen[s] == cs->stamp)
        return;
    cs->g[s] = 0;
    cs->parent[s] = s;
    cs->diag[s] = 0;
    cs->seen[s] = cs->stamp;
    open_push(cs, 0, 0, s);
}

/* The search loop, made twice by the compiler: weighted is a constant in each, so a search
 * without terrain costs runs the loop it ran before costs existed. */
static inline NBP_ALWAYS_INLINE int step_loop(nbi_csearch *cs, uint64_t budget, const int weighted)
{
    const uint32_t st = cs->stamp, w2 = cs->w2;
    const nbi_layer *l = cs->layer;
    const uint32_t size = cs->size;
    const int has_goal = cs->has_goal, strict = cs->strict;
    const nb_cell *goal = &cs->goal;
    const nbi_costs *costs = cs->costs;
    const int rev = cs->cost_rev;
    const double hmul = weighted ? costs->least : 1;
    const int32_t x0 = cs->box.x0 - 1, y0 = cs->box.y0 - 1; /* of cell 0, in the ring */
    /* Offsets of the eight moves in the ringed box, a row being w2 cells. */
    int32_t off[NBI_MOVES];
    for (unsigned d = 0; d < NBI_MOVES; d++)
        off[d] = nbi_move_dy[d] * (int32_t)w2 + nbi_move_dx[d];
    for (uint64_t done = 0; done < budget; done++) {
        if (!cs->nopen) {
            cs->end = cs->all ? NBI_CS_FOUND : NBI_CS_FAILED;
            return 1;
        }
        if (cs->budget && cs->expanded == cs->budget) {
            cs->end = NBI_CS_FAILED;
            return 1;
        }
        uint32_t i = open_pop(cs);
        cs->closed[i] = st;
        cs->expanded++;
        if (has_goal ? i == cs->goal_i : (!cs->all && cs->target[i] == st)) {
            if (--cs->left == 0) {
                cs->end = NBI_CS_FOUND;
                return 1;
            }
        }
        int32_t x = x0 + (int32_t)(i % w2), y = y0 + (int32_t)(i / w2);
        double gi = cs->g[i];
        uint16_t di = cs->diag[i];
        /* From the goal, a move toward the start costs the multiplier of
         * the cell it enters when walked the other way: this one (read at
         * the first move that needs it; 0 until then). */
        double mi = 0;
        /* Cardinal neighbours first: the diagonal ones need them.  The moves as a mask of move
         * bits, taken in the order of their codes (as the loop over the eight codes did, which
         * took about twice the instructions: callgrind, HAA* on AR0042SR). */
        unsigned m = 0;
        for (unsigned d = 0; d < 4; d++)
            m |= (unsigned)free_at(cs, l, size, (uint32_t)((int32_t)i + off[d]), x + nbi_move_dx[d],
                                   y + nbi_move_dy[d])
                 << d;
        const unsigned corners = nbi_move_corners[strict][m];
        for (unsigned d = 4; d < NBI_MOVES; d++)
            if ((corners >> d & 1u) && free_at(cs, l, size, (uint32_t)((int32_t)i + off[d]),
                                               x + nbi_move_dx[d], y + nbi_move_dy[d]))
                m |= 1u << d;
        while (m) {
            const unsigned d = nbp_ctz32(m);
            m &= m - 1;
            uint32_t j = (uint32_t)((int32_t)i + off[d]);
            if (cs->closed[j] == st)
                continue;
            double ng = gi + nbi_move_cost((unsigned)d);
            if (weighted) {
                /* No move costs less than its length times the least multiplier: the
                 * multiplier is read only when the move may lower j's cost. */
                if (cs->seen[j] == st && gi + nbi_move_cost((unsigned)d) * hmul >= cs->g[j])
                    continue;
                if (rev && mi == 0)
                    mi = nbi_costs_cell(costs, (uint32_t)x, (uint32_t)y);
                ng = gi + nbi_move_cost((unsigned)d) *
                              (rev ? mi
                                   : nbi_costs_cell(costs, (uint32_t)(x + nbi_move_dx[d]),
                                                    (uint32_t)(y + nbi_move_dy[d])));
            }
            if (cs->seen[j] != st || ng < cs->g[j]) {
                cs->seen[j] = st;
                cs->g[j] = ng;
                cs->parent[j] = i;
                cs->diag[j] = (uint16_t)(di + NBI_MOVE_IS_DIAGONAL(d));
                double h = has_goal ? octile(goal->x - (x + nbi_move_dx[d]),
                                             goal->y - (y + nbi_move_dy[d]))
                                    : 0;
                if (weighted)
                    h *= hmul;
                open_push(cs, ng + h, -ng, j);
            }
        }
    }
    return 0;
}

int nbi_csearch_step(nbi_csearch *cs, uint64_t budget)
{
    if (cs->end != NBI_CS_RUNNING)
        return 1;
    return cs->costs ? step_loop(cs, budget, 1) : step_loop(cs, budget, 0);
}

int nbi_csearch_run(nbi_csearch *cs, const nbi_layer *l, uint32_t size, int corner,
                    const nbi_box *box, nb_cell start, const nb_cell *goal, const nb_cell *targets,
                    size_t ntargets)
{
    nbi_csearch_start(cs, l, size, corner, box, start, goal, targets, ntargets);
    nbi_csearch_step(cs, UINT64_MAX);
    return cs->end == NBI_CS_FOUND;
}

size_t nbi_csearch_bytes(const nbi_csearch *cs)
{
    return (size_t)cs->maxcells * (sizeof *cs->g + sizeof *cs->parent + sizeof *cs->diag +
                                   sizeof *cs->seen + sizeof *cs->closed + sizeof *cs->target +
                                   sizeof *cs->memo + sizeof *cs->hpos + sizeof *cs->open);
}

static int in_box(const nbi_csearch *cs, nb_cell c)
{
    return c.x >= cs->box.x0 && c.y >= cs->box.y0 && c.x < cs->box.x1 && c.y < cs->box.y1;
}

double nbi_csearch_cost(const nbi_csearch *cs, nb_cell c, uint32_t *diag)
{
    if (!in_box(cs, c))
        return -1;
    uint32_t i = cell_no(cs, c.x, c.y);
    if (cs->closed[i] != cs->stamp)
        return -1;
    if (diag)
        *diag = cs->diag[i];
    return cs->g[i];
}

size_t nbi_csearch_path(const nbi_csearch *cs, nb_cell c, nb_cell *out)
{
    if (nbi_csearch_cost(cs, c, NULL) < 0)
        return 0;
    uint32_t i = cell_no(cs, c.x, c.y);
    size_t n = 0;
    for (;;) {
        out[n].x = cs->box.x0 - 1 + (int32_t)(i % cs->w2);
        out[n].y = cs->box.y0 - 1 + (int32_t)(i / cs->w2);
        n++;
        if (cs->parent[i] == i)
            break;
        i = cs->parent[i];
    }
    for (size_t a = 0, b = n - 1; a < b; a++, b--) {
        nb_cell t = out[a];
        out[a] = out[b];
        out[b] = t;
    }
    return n;
}
