/* opt_world.c: a tile's border data for exact paths across tiles, the
 * overlay joining the tiles' data, and its shortest path (opt_world.h says
 * why it is exact). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/format.h"
#include "core/grid.h"
#include "stream/opt_world.h"

#define FAIL_MEM(what) nbi_fail(err, NB_ERR_NOMEM, "no memory for %s", what)

static nbi_box core_box(const nbi_wtile *t)
{
    nbi_box b = {(int32_t)t->core_x, (int32_t)t->core_y, (int32_t)(t->core_x + t->core_w),
                 (int32_t)(t->core_y + t->core_h)};
    return b;
}

static int in_box(const nbi_box *b, int32_t x, int32_t y)
{
    return x >= b->x0 && y >= b->y0 && x < b->x1 && y < b->y1;
}

/* 1 when the agent may make move d from (x, y), both ends standable, by the
 * corner rule. */
static int move_ok(const nbi_layer *l, uint32_t size, int corner, int32_t x, int32_t y, unsigned d)
{
    int32_t nx = x + nbi_move_dx[d], ny = y + nbi_move_dy[d];
    if (!nbi_standable(l, size, nx, ny))
        return 0;
    if (!NBI_MOVE_IS_DIAGONAL(d))
        return 1;
    int h = nbi_standable(l, size, nx, y), v = nbi_standable(l, size, x, ny);
    return corner == NBI_CORNER_STRICT ? h && v : h || v;
}

void nbi_optb_free(nbi_optb *b)
{
    const nb_allocator *a = b->a;
    nbi_free(a, b->cell);
    nbi_free(a, b->dist);
    nbi_free(a, b->card);
    nbi_free(a, b->diag);
    nbi_free(a, b->row);
    nbi_free(a, b->packed);
    nbi_free(a, b->link_from);
    nbi_free(a, b->link_to);
    nbi_free(a, b->link_move);
    memset(b, 0, sizeof *b);
}

nb_status nbi_optb_build(const nbi_layer *l, const nbi_wtile *t, uint32_t size, int corner,
                         const nb_allocator *a, nbi_optb *out, nb_err *err)
{
    memset(out, 0, sizeof *out);
    out->a = a;
    nbi_box box = core_box(t);
    size_t ring = nbi_ring_inner(t->core_w, t->core_h);
    nb_cell *local = nbi_alloc_array(a, ring, sizeof *local);
    out->cell = nbi_alloc_array(a, ring, sizeof *out->cell);
    out->link_from = nbi_alloc_array(a, ring * NBI_MOVES, sizeof *out->link_from);
    out->link_to = nbi_alloc_array(a, ring * NBI_MOVES, sizeof *out->link_to);
    out->link_move = nbi_alloc_array(a, ring, NBI_MOVES);
    if (!local || !out->cell || !out->link_from || !out->link_to || !out->link_move) {
        nbi_free(a, local);
        nbi_optb_free(out);
        return FAIL_MEM("a tile's border data");
    }
    /* The tile's own cells on its edges, row by row, with a move out. */
    for (int32_t y = box.y0; y < box.y1; y++) {
        int edge_row = y == box.y0 || y == box.y1 - 1;
        for (int32_t x = box.x0; x < box.x1; x++) {
            if (!edge_row && x != box.x0 && x != box.x1 - 1)
                x = box.x1 - 1;
            if (!nbi_standable(l, size, x, y))
                continue;
            uint32_t before = out->nlinks;
            for (unsigned d = 0; d < NBI_MOVES; d++) {
                int32_t nx = x + nbi_move_dx[d], ny = y + nbi_move_dy[d];
                if (in_box(&box, nx, ny) || !move_ok(l, size, corner, x, y, d))
                    continue;
                out->link_from[out->nlinks] = out->n;
                out->link_to[out->nlinks] =
                    (nb_cell){(int32_t)t->origin_x + nx, (int32_t)t->origin_y + ny};
                out->link_move[out->nlinks++] = (uint8_t)d;
            }
            if (out->nlinks == before)
                continue;
            local[out->n] = (nb_cell){x, y};
            out->cell[out->n++] = (nb_cell){(int32_t)t->origin_x + x, (int32_t)t->origin_y + y};
        }
    }
    size_t n = out->n;
    out->dist = nbi_alloc_array(a, n ? n * n : 1, sizeof *out->dist);
    out->card = nbi_zalloc_array(a, n ? n * n : 1, sizeof *out->card);
    out->diag = nbi_zalloc_array(a, n ? n * n : 1, sizeof *out->diag);
    if (!out->dist || !out->card || !out->diag) {
        nbi_free(a, local);
        nbi_optb_free(out);
        return FAIL_MEM("a tile's border distances");
    }
    /* From each portal to those after it, inside the tile: the moves are
     * their own reverses, so the distance back is the same. */
    nb_status st = nbi_optb_clique(out, l, &box, local, size, corner, err);
    if (st != NB_OK) {
        nbi_free(a, local);
        nbi_optb_free(out);
        return st;
    }
    nbi_free(a, local);
    return nbi_optb_pack(out, err);
}

uint64_t nbi_optb_stored_bytes(const nbi_optb *b)
{
    return NBI_OBORDER_HEADER + NBI_OBORDER_PORTAL * (uint64_t)b->n + 4 * ((uint64_t)b->n + 1) +
           NBI_OBORDER_LINK * (uint64_t)b->nlinks + b->packed_len;
}

uint64_t nbi_optb_plain_bytes(const nbi_optb *b)
{
    uint64_t pairs = (uint64_t)b->n * (b->n ? b->n - 1 : 0) / 2;
    return 16 + 4 * (uint64_t)b->n + 4 * pairs + 3 * (uint64_t)b->nlinks;
}

void nbi_optw_free(nbi_optw *w)
{
    nbi_free(NULL, w->tile_first);
    nbi_free(NULL, w->cell);
    nbi_free(NULL, w->arc_first);
    nbi_free(NULL, w->arc_to);
    nbi_free(NULL, w->arc_w);
    nbi_free(NULL, w->g);
    nbi_free(NULL, w->seen);
    nbi_free(NULL, w->closed);
    nbi_free(NULL, w->pos);
    nbi_free(NULL, w->scratch);
    nbi_free(NULL, w->to_goal);
    nbi_heap_free(&w->heap);
    memset(w, 0, sizeof *w);
}

static int cell_cmp(nb_cell a, nb_cell b) { return a.y != b.y ? (a.y < b.y ? -1 : 1) : (a.x > b.x) - (a.x < b.x); }

/* The node of world cell c among tile k's portals; UINT32_MAX when none. */
static uint32_t node_of(const nbi_optw *w, uint32_t k, nb_cell c)
{
    uint32_t lo = w->tile_first[k], hi = w->tile_first[k + 1];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int r = cell_cmp(w->cell[mid], c);
        if (!r)
            return mid;
        if (r < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return UINT32_MAX;
}

static uint32_t tile_of(const nbi_optw *w, nb_cell c)
{
    return (uint32_t)c.y / w->side * w->columns + (uint32_t)c.x / w->side;
}

nb_status nbi_optw_link(nbi_optw *w, const nbi_optb *tiles, uint32_t columns, uint32_t rows,
                        uint32_t side, uint32_t width, uint32_t height, nb_err *err)
{
    memset(w, 0, sizeof *w);
    w->columns = columns, w->rows = rows, w->side = side, w->width = width, w->height = height;
    size_t nt = (size_t)columns * rows, nodes = 0, arcs = 0, most = 0;
    for (size_t k = 0; k < nt; k++) {
        nodes += tiles[k].n;
        arcs += (size_t)tiles[k].n * tiles[k].n + tiles[k].nlinks;
        most = tiles[k].n > most ? tiles[k].n : most;
    }
    w->nodes = (uint32_t)nodes;
    w->tile_first = nbi_alloc_array(NULL, nt + 1, sizeof *w->tile_first);
    w->cell = nbi_alloc_array(NULL, nodes + 1, sizeof *w->cell);
    w->arc_first = nbi_zalloc_array(NULL, nodes + 1, sizeof *w->arc_first);
    w->arc_to = nbi_alloc_array(NULL, arcs + 1, sizeof *w->arc_to);
    w->arc_w = nbi_alloc_array(NULL, arcs + 1, sizeof *w->arc_w);
    w->g = nbi_alloc_array(NULL, nodes + 1, sizeof *w->g);
    w->seen = nbi_zalloc_array(NULL, nodes + 1, sizeof *w->seen);
    w->closed = nbi_zalloc_array(NULL, nodes + 1, sizeof *w->closed);
    w->pos = nbi_alloc_array(NULL, nodes + 1, sizeof *w->pos);
    w->scratch = nbi_alloc_array(NULL, most + 1, sizeof *w->scratch);
    w->to_goal = nbi_alloc_array(NULL, most + 1, sizeof *w->to_goal);
    if (!w->tile_first || !w->cell || !w->arc_first || !w->arc_to || !w->arc_w || !w->g ||
        !w->seen || !w->closed || !w->pos || !w->scratch || !w->to_goal ||
        !nbi_heap_init(&w->heap, NULL, nodes + 1, w->pos)) {
        nbi_optw_free(w);
        return FAIL_MEM("the world's overlay");
    }
    for (size_t u = 0; u <= nodes; u++)
        w->pos[u] = NBI_HEAP_NONE;
    uint32_t at = 0;
    for (size_t k = 0; k < nt; k++) {
        w->tile_first[k] = at;
        memcpy(w->cell + at, tiles[k].cell, tiles[k].n * sizeof *w->cell);
        at += tiles[k].n;
    }
    w->tile_first[nt] = at;
    /* Each node's arcs: its clique inside the tile, then its moves out. */
    size_t a = 0;
    for (size_t k = 0; k < nt; k++) {
        const nbi_optb *b = &tiles[k];
        uint32_t base = w->tile_first[k], li = 0;
        for (uint32_t i = 0; i < b->n; i++) {
            w->arc_first[base + i] = (uint32_t)a;
            /* The row as stored: what the overlay reads is the packed clique. */
            if (!nbi_optb_unpack_row(b->packed + b->row[i], b->row[i + 1] - b->row[i], b->cell,
                                     b->n, i, w->to_goal)) {
                nbi_optw_free(w);
                return nbi_fail(err, NB_ERR_FORMAT,
                                "tile (%zu, %zu): the packed distances of its portal %u "
                                "(%d, %d) are not a row of %u",
                                k % columns, k / columns, i, b->cell[i].x, b->cell[i].y, b->n);
            }
            for (uint32_t j = 0; j < b->n; j++) {
                double d = w->to_goal[j];
                if (j == i || d < 0)
                    continue;
                w->arc_to[a] = base + j;
                w->arc_w[a++] = d;
            }
            for (; li < b->nlinks && b->link_from[li] == i; li++) {
                nb_cell c = b->link_to[li];
                uint32_t v = c.x >= 0 && c.y >= 0 && (uint32_t)c.x < width &&
                                     (uint32_t)c.y < height
                                 ? node_of(w, tile_of(w, c), c)
                                 : UINT32_MAX;
                if (v == UINT32_MAX) {
                    nb_cell from = b->cell[i];
                    nbi_optw_free(w);
                    return nbi_fail(err, NB_ERR_FORMAT,
                                    "tile (%zu, %zu): its move from (%d, %d) to (%d, %d) reaches "
                                    "no border cell of the tile there",
                                    k % columns, k / columns, from.x, from.y, c.x, c.y);
                }
                w->arc_to[a] = v;
                w->arc_w[a++] = nbi_move_cost(b->link_move[li]);
            }
        }
    }
    w->arc_first[nodes] = (uint32_t)a;
    return NB_OK;
}

/* Distances inside tile t (layer l) from c (world) to the tile's portals
 * (into out, -1 when not reached), and to other (world, when not NULL). */
static double from_cell(nbi_optw *w, const nbi_optb *b, const nbi_layer *l, const nbi_wtile *t,
                        uint32_t size, int corner, nbi_csearch *cs, nb_cell c, double *out,
                        const nb_cell *other)
{
    nbi_box box = core_box(t);
    nb_cell o = {(int32_t)t->origin_x, (int32_t)t->origin_y};
    for (uint32_t i = 0; i < b->n; i++)
        w->scratch[i] = (nb_cell){b->cell[i].x - o.x, b->cell[i].y - o.y};
    uint32_t nt = b->n;
    if (other)
        w->scratch[nt++] = (nb_cell){other->x - o.x, other->y - o.y};
    nbi_csearch_run(cs, l, size, corner, &box, (nb_cell){c.x - o.x, c.y - o.y}, NULL, w->scratch,
                    nt);
    for (uint32_t i = 0; i < b->n; i++)
        out[i] = nbi_csearch_cost(cs, w->scratch[i], NULL);
    return other ? nbi_csearch_cost(cs, w->scratch[b->n], NULL) : -1;
}

/* The search's heuristic: no arc is shorter than its ends lie apart. */
static double octile_to(nb_cell a, nb_cell g) { return nbi_octile_cells(a.x, a.y, g.x, g.y); }

double nbi_optw_length(nbi_optw *w, const nbi_optb *tiles, const nbi_layer *ls,
                       const nbi_wtile *ts, const nbi_layer *lg, const nbi_wtile *tg,
                       uint32_t size, int corner, nbi_csearch *cs, nb_cell s, nb_cell g,
                       uint64_t *expanded)
{
    uint32_t ks = tile_of(w, s), kg = tile_of(w, g);
    *expanded = 0;
    if (++w->stamp == UINT32_MAX) {
        memset(w->seen, 0, (w->nodes + 1) * sizeof *w->seen);
        memset(w->closed, 0, (w->nodes + 1) * sizeof *w->closed);
        w->stamp = 1;
    }
    const uint32_t st = w->stamp;
    nbi_heap_clear(&w->heap);
    /* The goal's side first (to_goal), then the start's into g. */
    from_cell(w, &tiles[kg], lg, tg, size, corner, cs, g, w->to_goal, NULL);
    double *first = w->g + w->tile_first[ks];
    double best = from_cell(w, &tiles[ks], ls, ts, size, corner, cs, s, first,
                            ks == kg ? &g : NULL);
    if (best < 0)
        best = INFINITY;
    for (uint32_t u = w->tile_first[ks]; u < w->tile_first[ks + 1]; u++)
        if (w->g[u] >= 0) {
            w->seen[u] = st;
            if (!nbi_heap_push(&w->heap, w->g[u] + octile_to(w->cell[u], g), 0, u))
                return -2;
        }
    uint32_t g0 = w->tile_first[kg], g1 = w->tile_first[kg + 1];
    while (!nbi_heap_empty(&w->heap)) {
        nbi_heap_item it = nbi_heap_pop(&w->heap);
        if (it.key >= best - 1e-9)
            break;
        uint32_t u = it.id;
        double gu = w->g[u];
        w->closed[u] = st;
        ++*expanded;
        if (u >= g0 && u < g1 && w->to_goal[u - g0] >= 0 && gu + w->to_goal[u - g0] < best)
            best = gu + w->to_goal[u - g0];
        for (uint32_t a = w->arc_first[u]; a < w->arc_first[u + 1]; a++) {
            uint32_t v = w->arc_to[a];
            double ng = gu + w->arc_w[a];
            if (w->closed[v] == st || (w->seen[v] == st && ng >= w->g[v]))
                continue;
            w->seen[v] = st;
            w->g[v] = ng;
            if (!nbi_heap_push(&w->heap, ng + octile_to(w->cell[v], g), 0, v))
                return -2;
        }
    }
    return isinf(best) ? -1 : best;
}
