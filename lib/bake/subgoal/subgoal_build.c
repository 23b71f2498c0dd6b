/* subgoal_build.c: the optimal-search layer of one agent (capability,
 * size, corner rule) as mkclear --optimal bakes it (formats/subgoal.md):
 * the agent's grid as bitmaps, its subgoals, the simple subgoal graph of
 * direct-h-reachable pairs (Uras, Koenig and Hernandez, ICAPS 2013; each
 * subgoal's edges come from the runtime's own scan, so the bake and the
 * queries agree on what is reachable), and the contraction hierarchy over
 * it (contract.c). */
#include <math.h>
#include <stdlib.h>

#include "subgoal/subgoal_build.h"

/* ---- which cells are subgoals ---- */

/* Whether the agent may step from a to b, two cells of a 3 x 3 block given
 * as free[dy + 1][dx + 1], under the rule. */
static int block_step(const int free[3][3], int ax, int ay, int bx, int by, int strict)
{
    if (!free[ay + 1][ax + 1] || !free[by + 1][bx + 1])
        return 0;
    int dx = bx - ax, dy = by - ay;
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (!dx && !dy))
        return 0;
    if (!dx || !dy)
        return 1;
    int h = free[ay + 1][bx + 1], v = free[by + 1][ax + 1];
    return strict ? h && v : h || v;
}

int nbb_subgoal_rule(unsigned mask, nb_corner corner)
{
    int free[3][3], strict = corner == NB_CORNER_STRICT;
    free[1][1] = 1;
    for (unsigned d = 0; d < 8; d++)
        free[nbi_move_dy[d] + 1][nbi_move_dx[d] + 1] = (int)((mask >> d) & 1u);
    if (!strict) {
        /* A diagonal step from here that cuts a blocked cell's corner: its
         * target free, one cardinal cell beside it blocked and the other
         * free.  The bends of the strict definition below are not enough
         * here: a path over a wall two cells long cuts both its corners
         * and bends by 45 degrees at each cut, where no 3 x 3 block sees
         * a bend (formats/subgoal.md). */
        for (unsigned d = 4; d < 8; d++) {
            int dx = nbi_move_dx[d], dy = nbi_move_dy[d];
            if (free[dy + 1][dx + 1] && free[1][dx + 1] != free[dy + 1][1])
                return 1;
        }
        return 0;
    }
    for (unsigned p = 0; p < 8; p++)
        for (unsigned q = 0; q < 8; q++) {
            int px = nbi_move_dx[p], py = nbi_move_dy[p], qx = nbi_move_dx[q], qy = nbi_move_dy[q];
            if (p == q || !block_step(free, px, py, 0, 0, strict) ||
                !block_step(free, 0, 0, qx, qy, strict))
                continue;
            double through = nbi_move_cost(p) + nbi_move_cost(q);
            if (through <= nbi_octile_cells(px, py, qx, qy) + 1e-9)
                continue; /* straight on: no bend */
            /* Dijkstra from p over the block's other seven cells. */
            double dist[3][3];
            int done[3][3] = {{0}};
            for (int i = 0; i < 9; i++)
                dist[i / 3][i % 3] = INFINITY;
            dist[py + 1][px + 1] = 0;
            for (;;) {
                int bx = 0, by = 0;
                double best = INFINITY;
                for (int y = -1; y <= 1; y++)
                    for (int x = -1; x <= 1; x++)
                        if ((x || y) && !done[y + 1][x + 1] && dist[y + 1][x + 1] < best)
                            best = dist[y + 1][x + 1], bx = x, by = y;
                if (best == INFINITY)
                    break;
                done[by + 1][bx + 1] = 1;
                for (int y = -1; y <= 1; y++)
                    for (int x = -1; x <= 1; x++)
                        if ((x || y) && block_step(free, bx, by, x, y, strict)) {
                            double nd = best + ((x != bx && y != by) ? NBI_SQRT2 : 1.0);
                            if (nd < dist[y + 1][x + 1])
                                dist[y + 1][x + 1] = nd;
                        }
            }
            if (dist[qy + 1][qx + 1] > through + 1e-9)
                return 1;
        }
    return 0;
}

/* ---- the grid's bitmaps ---- */

static void put_bit(uint8_t *words, size_t word, unsigned bit)
{
    words[8 * word + bit / 8] |= (uint8_t)(1u << (bit % 8));
}

/* Free cells, subgoals and their ranks into the payload's arrays (zeroed);
 * returns the number of subgoals. */
static uint32_t fill_grid(const uint8_t *cv, uint32_t w, uint32_t h, uint32_t size, nb_corner corner,
                          uint8_t *p, const nbi_sg_layout *lay)
{
    uint8_t rule[256];
    for (unsigned m = 0; m < 256; m++)
        rule[m] = (uint8_t)nbb_subgoal_rule(m, corner);
    uint32_t rw = nbi_sg_words(w), cw = nbi_sg_words(h);
#define FREE(x, y) ((x) >= 0 && (y) >= 0 && (x) < (int64_t)w && (y) < (int64_t)h && \
                    cv[(size_t)(y) * w + (size_t)(x)] >= size)
    uint32_t count = 0;
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            size_t k = (size_t)y * rw + x / 64;
            if ((x & 63) == 0)
                nbi_put32(p + lay->rank + 4 * k, count);
            if (cv[(size_t)y * w + x] < size)
                continue;
            put_bit(p + lay->free_rows, k, x & 63);
            unsigned mask = 0;
            for (unsigned d = 0; d < 8; d++)
                if (FREE((int64_t)x + nbi_move_dx[d], (int64_t)y + nbi_move_dy[d]))
                    mask |= 1u << d;
            if (rule[mask]) {
                put_bit(p + lay->sub_rows, k, x & 63);
                count++;
            } else
                put_bit(p + lay->pass_cols, (size_t)x * cw + y / 64, y & 63);
        }
    }
#undef FREE
    return count;
}

/* ---- the simple subgoal graph ---- */

struct edges {
    nbb_sg_edge *e;
    size_t n, cap;
    const nbi_sglayer *l;
    uint32_t from;
    int oom;
};

static int add_edge(void *ctx, int32_t x, int32_t y, uint32_t card, uint32_t diag)
{
    struct edges *E = ctx;
    uint32_t to = nbi_sg_node_at(E->l, x, y);
    if (to == E->from)
        return 1;
    if (E->n == E->cap) {
        size_t nc = E->cap ? 2 * E->cap : 1024;
        nbb_sg_edge *ne = realloc(E->e, nc * sizeof *ne);
        if (!ne) {
            E->oom = 1;
            return 0;
        }
        E->e = ne;
        E->cap = nc;
    }
    nbb_sg_edge *e = &E->e[E->n++];
    e->u = E->from < to ? E->from : to;
    e->v = E->from < to ? to : E->from;
    e->card = card;
    e->diag = diag;
    e->mid = NBI_SG_NO_MID;
    return 1;
}

static int edge_cmp(const void *a, const void *b)
{
    const nbb_sg_edge *x = a, *y = b;
    if (x->u != y->u)
        return x->u < y->u ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

nb_status nbb_subgoal_encode(const uint8_t *cv, uint32_t w, uint32_t h, nb_capability cap,
                             uint32_t size, nb_corner corner, uint8_t **payload, size_t *len,
                             nbb_subgoal_stats *stats, nb_err *err)
{
    return nbb_subgoal_encode_progress(cv, w, h, cap, size, corner, payload, len, stats, NULL,
                                       err);
}

/* The shares of a layer's bake: the scans for edges, then the contraction. */
#define SHARE_SCAN 0.2

nb_status nbb_subgoal_encode_progress(const uint8_t *cv, uint32_t w, uint32_t h,
                                      nb_capability cap, uint32_t size, nb_corner corner,
                                      uint8_t **payload, size_t *len, nbb_subgoal_stats *stats,
                                      const nbb_progress_part *progress, nb_err *err)
{
    nbb_progress_part contracting = {nbb_progress_part_fn, (void *)progress, SHARE_SCAN,
                                     1 - SHARE_SCAN, NULL};
    *payload = NULL;
    *len = 0;
    nbi_sg_layout lay;
    nbi_sg_layout_of(w, h, 0, 0, &lay);
    /* The grid first, in a payload without nodes or edges: the scan reads it. */
    uint8_t *grid = calloc(1, (size_t)lay.total);
    if (!grid)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the subgoal layer of a %u x %u map", w,
                        h);
    uint32_t n = fill_grid(cv, w, h, size, corner, grid, &lay);
    nbi_sglayer l;
    memset(&l, 0, sizeof l);
    l.grid.free_rows = grid + lay.free_rows;
    l.grid.sub_rows = grid + lay.sub_rows;
    l.grid.pass_cols = grid + lay.pass_cols;
    l.grid.width = w;
    l.grid.height = h;
    l.grid.row_words = nbi_sg_words(w);
    l.grid.col_words = nbi_sg_words(h);
    l.grid.strict = corner == NB_CORNER_STRICT;
    l.rank = grid + lay.rank;
    l.nodes = n;

    uint32_t *cells = malloc(((size_t)n + 1) * sizeof *cells);
    struct edges E = {NULL, 0, 0, &l, 0, 0};
    nb_status st = NB_OK;
    if (!cells)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %u subgoals", n);
    for (uint32_t y = 0, i = 0; st == NB_OK && y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            if (nbi_sg_is_subgoal(&l.grid, (int32_t)x, (int32_t)y))
                cells[i++] = y * w + x;
    for (uint32_t u = 0; st == NB_OK && u < n; u++) {
        if (progress && (u & 1023) == 0) {
            nbb_progress_part_report(progress, SHARE_SCAN * u / n);
            if (nbb_progress_stopped(progress)) {
                st = nbb_progress_cancelled(err);
                break;
            }
        }
        E.from = u;
        if (nbi_sg_scan(&l.grid, (int32_t)(cells[u] % w), (int32_t)(cells[u] / w), -1, -1, add_edge,
                        &E) != 0)
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the subgoal graph's edges");
    }
    size_t ne = 0;
    if (st == NB_OK && E.n) {
        /* Each pair once: the scans of both ends usually find it. */
        qsort(E.e, E.n, sizeof *E.e, edge_cmp);
        for (size_t i = 0; i < E.n; i++)
            if (ne == 0 || edge_cmp(&E.e[ne - 1], &E.e[i]) != 0)
                E.e[ne++] = E.e[i];
    }
    uint32_t *level = st == NB_OK ? malloc(((size_t)n + 1) * sizeof *level) : NULL;
    uint32_t *first = st == NB_OK ? malloc(((size_t)n + 1) * sizeof *first) : NULL;
    nbb_sg_edge *up = NULL;
    size_t nup = 0;
    nbb_ch_stats chs;
    memset(&chs, 0, sizeof chs);
    if (st == NB_OK && (!level || !first))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for %u subgoals", n);
    uint64_t budget = (uint64_t)NBB_CH_BUDGET_PER_CELL * w * h;
    if (budget < NBB_CH_BUDGET_MIN)
        budget = NBB_CH_BUDGET_MIN;
    if (st == NB_OK)
        st = nbb_contract(n, E.e, ne, budget, level, first, &up, &nup, &chs,
                          progress ? &contracting : NULL, err);
    if (st == NB_OK && nup > UINT32_MAX)
        st = nbi_fail(err, NB_ERR_LIMIT, "%zu edges in a subgoal graph, more than a layer holds",
                      nup);
    uint8_t *p = NULL;
    if (st == NB_OK) {
        nbi_sg_layout full;
        nbi_sg_layout_of(w, h, n, (uint32_t)nup, &full);
        p = calloc(1, (size_t)full.total);
        if (!p)
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the subgoal layer of a %u x %u map",
                          w, h);
        else {
            /* The grid's arrays come first and keep their places. */
            memcpy(p, grid, (size_t)lay.cells);
            uint32_t hw[NBI_SG_WORDS] = {0};
            hw[NBI_SG_WIDTH] = w;
            hw[NBI_SG_HEIGHT] = h;
            hw[NBI_SG_CAPABILITY] = cap;
            hw[NBI_SG_SIZE] = size;
            hw[NBI_SG_CORNER] = (uint32_t)corner;
            hw[NBI_SG_ROW_WORDS] = nbi_sg_words(w);
            hw[NBI_SG_COL_WORDS] = nbi_sg_words(h);
            hw[NBI_SG_NODES] = n;
            hw[NBI_SG_EDGES] = (uint32_t)nup;
            hw[NBI_SG_ORIGINAL] = (uint32_t)ne;
            for (unsigned i = 0; i < NBI_SG_WORDS; i++)
                nbi_put32(p + 4 * i, hw[i]);
            for (uint32_t i = 0; i < n; i++) {
                nbi_put32(p + full.cells + 4 * (size_t)i, cells[i]);
                nbi_put32(p + full.level + 4 * (size_t)i, level[i]);
            }
            for (uint32_t i = 0; i <= n; i++)
                nbi_put32(p + full.first + 4 * (size_t)i, first[i]);
            for (size_t i = 0; i < nup; i++) {
                uint8_t *r = p + full.edges + i * NBI_SG_EDGE_RECORD;
                nbi_put32(r + NBI_SG_E_TARGET, up[i].v);
                nbi_put32(r + NBI_SG_E_MID, up[i].mid);
                nbi_put32(r + NBI_SG_E_CARDINAL, up[i].card);
                nbi_put32(r + NBI_SG_E_DIAGONAL, up[i].diag);
            }
            *payload = p;
            *len = (size_t)full.total;
            if (stats) {
                stats->nodes = n;
                stats->original = (uint32_t)ne;
                stats->edges = (uint32_t)nup;
                stats->core = (uint32_t)chs.core;
                stats->bytes = full.total;
            }
        }
    }
    free(grid);
    free(cells);
    free(E.e);
    free(level);
    free(first);
    free(up);
    return st;
}
