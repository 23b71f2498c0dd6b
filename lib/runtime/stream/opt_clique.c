/* opt_clique.c: a tile's clique of portal distances (what border_opt
 * packs) by one Dijkstra a portal specialised to the grid, the tile
 * action's dear part with `optimal: 1` (world-opt-bench.md, round 12).
 *
 * Why it is cheaper than the cluster search it replaces:
 * - the legal moves of every cell of the tile are worked out once (a byte
 *   of 8 bits) rather than at every expansion of every search;
 * - the open list is a bucket queue (Dial's) rather than a binary heap.
 *   Buckets are a unit wide: every move costs 1 or sqrt 2, so no cell in
 *   the lowest bucket can lower another in it, and each is final when its
 *   bucket comes up, in any order; a move from bucket k lands in k + 1 or
 *   k + 2, so three buckets in turn suffice, and a cell is pushed at most
 *   twice (k + 2, then k + 1);
 * - under the strict corner rule a cell makes only the moves a shortest
 *   path may take after the moves it was reached by (the canonical order
 *   of jump point search: diagonal moves first): after a diagonal, that
 *   diagonal and its two cardinals (any other neighbour is nearer the cell
 *   before, whose sides the diagonal needed free); after a cardinal, the
 *   same cardinal, and a turn to a side (the side's cardinal and diagonal
 *   ahead) only where the cell beside the one before is not free (else the
 *   diagonal from there reaches it as short or shorter).  A cell keeps
 *   every move it was reached by at its distance (its nearer neighbours all
 *   come out of lower buckets first), so a cell reached only the long way
 *   round is never pruned.
 *
 * Why the bytes stay the same: the clique keeps each pair's cardinal and
 * diagonal steps, and a length c + d sqrt 2 has one (c, d) (sqrt 2 is
 * irrational), so any exact Dijkstra gives the same pairs, whatever path
 * it keeps among equals.  Lengths are kept as (c, d), so equal lengths are
 * equal exactly; two different ones of a tile differ by far more than a
 * double's rounding of c + d sqrt 2, which orders them. */
#include <math.h>

#include "core/grid.h"
#include "stream/opt_world.h"

typedef struct cq_cell {
    uint32_t c, d; /* the best length found: cardinal and diagonal steps */
    uint32_t mark; /* 2 s: (c, d) is search s's, 2 s + 1: settled in it */
    uint32_t in;   /* bit m: reached at that length by move m */
} cq_cell;

static inline double cq_len(uint32_t c, uint32_t d) { return (double)c + NBI_SQRT2 * (double)d; }

typedef struct cq {
    const nb_allocator *a;
    uint32_t w, h;
    uint8_t *moves;   /* per cell of the box: bit d, move d legal inside it */
    uint32_t *portal; /* per cell: its portal + 1, 0 none */
    cq_cell *cell;
    uint32_t *bucket[3], len[3];
    int32_t off[NBI_MOVES];
    /* Per move m: the moves a shortest path may take next, and for a
     * cardinal, the moves that turn to each side and the side's move. */
    uint8_t next[NBI_MOVES], turn[NBI_MOVES][2], side[NBI_MOVES][2];
    int strict;
} cq;

static void cq_free(cq *q)
{
    nbi_free(q->a, q->moves);
    nbi_free(q->a, q->portal);
    nbi_free(q->a, q->cell);
    for (int k = 0; k < 3; k++)
        nbi_free(q->a, q->bucket[k]);
}

/* The moves of every cell of the box, by the corner rule: both ends
 * standable and in the box (as the cluster search keeps the agent's cell
 * to its box), a diagonal's sides standable (strict) or one of them. */
static void cq_moves(cq *q, const nbi_layer *l, const nbi_box *box, uint32_t size, int corner)
{
    for (uint32_t y = 0; y < q->h; y++)
        for (uint32_t x = 0; x < q->w; x++) {
            int32_t gx = box->x0 + (int32_t)x, gy = box->y0 + (int32_t)y;
            uint8_t m = 0;
            if (nbi_standable(l, size, gx, gy))
                for (unsigned d = 0; d < NBI_MOVES; d++) {
                    int32_t nx = (int32_t)x + nbi_move_dx[d], ny = (int32_t)y + nbi_move_dy[d];
                    if (nx < 0 || ny < 0 || (uint32_t)nx >= q->w || (uint32_t)ny >= q->h ||
                        !nbi_standable(l, size, gx + nbi_move_dx[d], gy + nbi_move_dy[d]))
                        continue;
                    if (NBI_MOVE_IS_DIAGONAL(d)) {
                        int hs = nbi_standable(l, size, gx + nbi_move_dx[d], gy);
                        int vs = nbi_standable(l, size, gx, gy + nbi_move_dy[d]);
                        if (corner == NBI_CORNER_STRICT ? !(hs && vs) : !(hs || vs))
                            continue;
                    }
                    m |= (uint8_t)(1u << d);
                }
            q->moves[(size_t)y * q->w + x] = m;
        }
    for (unsigned d = 0; d < NBI_MOVES; d++)
        q->off[d] = nbi_move_dx[d] + nbi_move_dy[d] * (int32_t)q->w;
    q->strict = corner == NBI_CORNER_STRICT;
    for (unsigned d = 0; d < NBI_MOVES; d++) {
        int dx = nbi_move_dx[d], dy = nbi_move_dy[d];
        q->next[d] = (uint8_t)(1u << d);
        for (unsigned e = 0; e < NBI_MOVES; e++) {
            int ex = nbi_move_dx[e], ey = nbi_move_dy[e];
            if (NBI_MOVE_IS_DIAGONAL(d) && ((ex == dx && ey == 0) || (ex == 0 && ey == dy)))
                q->next[d] |= (uint8_t)(1u << e); /* a diagonal's cardinals */
            if (NBI_MOVE_IS_DIAGONAL(d))
                continue;
            /* A cardinal's sides: k = 0 the one at (-dy, dx), 1 the other. */
            for (int k = 0; k < 2; k++) {
                int sx = k ? dy : -dy, sy = k ? -dx : dx;
                if (ex == sx && ey == sy)
                    q->side[d][k] = (uint8_t)(1u << e), q->turn[d][k] |= (uint8_t)(1u << e);
                if (ex == sx + dx && ey == sy + dy)
                    q->turn[d][k] |= (uint8_t)(1u << e);
            }
        }
    }
}

/* The moves cell u (reached by the moves in) may take toward a shortest
 * path: all of them under the weak corner rule and from the start. */
static inline unsigned cq_next(const cq *q, uint32_t u, uint32_t in)
{
    unsigned m = q->moves[u];
    if (!q->strict || !in)
        return m;
    unsigned ok = 0;
    for (; in; in &= in - 1) {
        unsigned d = nbp_ctz32(in);
        ok |= q->next[d];
        if (NBI_MOVE_IS_DIAGONAL(d))
            continue;
        /* The cell before, and its sides: a turn where a side is not free. */
        unsigned before = q->moves[(uint32_t)((int32_t)u - q->off[d])];
        for (int k = 0; k < 2; k++)
            if (!(before & q->side[d][k]))
                ok |= q->turn[d][k];
    }
    return m & ok;
}

static inline void cq_push(cq *q, uint32_t id, uint32_t bucket)
{
    uint32_t k = bucket % 3;
    q->bucket[k][q->len[k]++] = id;
}

/* Dijkstra from portal i's cell (search stamp s) until the portals after
 * it are settled, or all it reaches. */
static void cq_search(cq *q, uint32_t start, uint32_t i, uint32_t n, uint32_t s)
{
    const uint32_t open = 2 * s, done = 2 * s + 1;
    size_t left = n - i - 1, pending = 1;
    q->len[0] = q->len[1] = q->len[2] = 0;
    q->cell[start] = (cq_cell){0, 0, open, 0};
    cq_push(q, start, 0);
    for (uint32_t k = 0; pending && left; k++) {
        uint32_t *b = q->bucket[k % 3];
        uint32_t nb = q->len[k % 3];
        pending -= nb;
        for (uint32_t t = 0; t < nb && left; t++) {
            uint32_t u = b[t];
            cq_cell *cu = &q->cell[u];
            if (cu->mark == done)
                continue; /* pushed again lower, settled there */
            cu->mark = done;
            if (q->portal[u] > i + 1)
                left--;
            const uint32_t c = cu->c, d = cu->d;
            for (unsigned m = cq_next(q, u, cu->in), e; m; m &= m - 1) {
                e = nbp_ctz32(m);
                uint32_t v = (uint32_t)((int32_t)u + q->off[e]);
                cq_cell *cv = &q->cell[v];
                if (cv->mark == done)
                    continue;
                uint32_t nc = c + !NBI_MOVE_IS_DIAGONAL(e), nd = d + NBI_MOVE_IS_DIAGONAL(e);
                double ng = cq_len(nc, nd);
                uint32_t nbk = (uint32_t)ng;
                if (cv->mark == open) {
                    if (cv->c == nc && cv->d == nd) {
                        cv->in |= 1u << e; /* another move of the same length */
                        continue;
                    }
                    double og = cq_len(cv->c, cv->d);
                    if (ng >= og)
                        continue;
                    /* Already in the bucket it now falls in: lowered in place. */
                    int queued = (uint32_t)og == nbk;
                    *cv = (cq_cell){nc, nd, open, 1u << e};
                    if (queued)
                        continue;
                } else
                    *cv = (cq_cell){nc, nd, open, 1u << e};
                cq_push(q, v, nbk);
                pending++;
            }
        }
        q->len[k % 3] = 0;
    }
}

nb_status nbi_optb_clique(nbi_optb *b, const nbi_layer *l, const nbi_box *box,
                          const nb_cell *local, uint32_t size, int corner, nb_err *err)
{
    cq q;
    memset(&q, 0, sizeof q);
    q.a = b->a;
    q.w = (uint32_t)(box->x1 - box->x0), q.h = (uint32_t)(box->y1 - box->y0);
    size_t cells = (size_t)q.w * q.h, n = b->n;
    q.moves = nbi_alloc_array(q.a, cells ? cells : 1, 1);
    q.portal = nbi_zalloc_array(q.a, cells ? cells : 1, sizeof *q.portal);
    q.cell = nbi_zalloc_array(q.a, cells ? cells : 1, sizeof *q.cell);
    /* A cell is pushed at most twice a search. */
    for (int k = 0; k < 3; k++)
        q.bucket[k] = nbi_alloc_array(q.a, cells ? 2 * cells : 1, sizeof *q.bucket[k]);
    if (!q.moves || !q.portal || !q.cell || !q.bucket[0] || !q.bucket[1] || !q.bucket[2]) {
        cq_free(&q);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a tile's border distances");
    }
    cq_moves(&q, l, box, size, corner);
    for (uint32_t i = 0; i < n; i++)
        q.portal[(size_t)(local[i].y - box->y0) * q.w + (uint32_t)(local[i].x - box->x0)] = i + 1;
    for (uint32_t i = 0; i < n; i++) {
        b->dist[(size_t)i * n + i] = 0;
        uint32_t start = (uint32_t)((local[i].y - box->y0) * (int32_t)q.w + (local[i].x - box->x0));
        if (i + 1 < n)
            cq_search(&q, start, i, (uint32_t)n, i + 1);
        const uint32_t done = 2 * (i + 1) + 1;
        for (size_t j = i + 1; j < n; j++) {
            const cq_cell *c =
                &q.cell[(size_t)(local[j].y - box->y0) * q.w + (uint32_t)(local[j].x - box->x0)];
            int on = c->mark == done;
            b->dist[i * n + j] = b->dist[j * n + i] = on ? cq_len(c->c, c->d) : -1;
            b->diag[i * n + j] = b->diag[j * n + i] = on ? c->d : 0;
            b->card[i * n + j] = b->card[j * n + i] = on ? c->c : 0;
        }
    }
    cq_free(&q);
    return NB_OK;
}
