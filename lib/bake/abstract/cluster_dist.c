/* cluster_dist.c: Dijkstra between a cluster's nodes over moves read once
 * per box (cluster_dist.h says why). */
#include <stdlib.h>
#include <string.h>

#include "abstract/cluster_dist.h"
#include "port.h"

int nbb_cdist_init(nbb_cdist *cd, uint32_t side)
{
    memset(cd, 0, sizeof *cd);
    size_t n = ((size_t)side + 2) * ((size_t)side + 2);
    cd->maxcells = (uint32_t)n;
    cd->stand = calloc(n, sizeof *cd->stand);
    cd->move = calloc(n, sizeof *cd->move);
    cd->g = malloc(n * sizeof *cd->g);
    cd->diag = malloc(n * sizeof *cd->diag);
    cd->seen = calloc(n, sizeof *cd->seen);
    cd->closed = calloc(n, sizeof *cd->closed);
    cd->target = calloc(n, sizeof *cd->target);
    /* A cell enters a queue at most once for each of the 4 moves of its kind into it. */
    cd->qcap = (uint32_t)(4 * n);
    cd->open = malloc(2 * (size_t)cd->qcap * sizeof *cd->open);
    if (!cd->stand || !cd->move || !cd->g || !cd->diag || !cd->seen || !cd->closed ||
        !cd->target || !cd->open) {
        nbb_cdist_free(cd);
        return 0;
    }
    return 1;
}

void nbb_cdist_free(nbb_cdist *cd)
{
    free(cd->stand);
    free(cd->move);
    free(cd->g);
    free(cd->diag);
    free(cd->seen);
    free(cd->closed);
    free(cd->target);
    free(cd->open);
    memset(cd, 0, sizeof *cd);
}

static int32_t move_off(const nbb_cdist *cd, unsigned d)
{
    return nbi_move_dy[d] * (int32_t)cd->w2 + nbi_move_dx[d];
}

void nbb_cdist_box(nbb_cdist *cd, const nbi_layer *l, uint32_t size, int corner,
                   const nbi_box *box)
{
    cd->box = *box;
    uint32_t w = (uint32_t)(box->x1 - box->x0), h = (uint32_t)(box->y1 - box->y0);
    cd->w2 = w + 2;
    memset(cd->stand, 0, (size_t)cd->w2 * (h + 2));
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            cd->stand[(y + 1) * cd->w2 + x + 1] =
                (uint8_t)nbi_standable(l, size, box->x0 + (int32_t)x, box->y0 + (int32_t)y);
    /* A diagonal move needs both cardinal neighbours standable (strict) or
     * one (weak).  Only standable cells get moves: a search starts on one. */
    int32_t off[NBI_MOVES];
    for (unsigned d = 0; d < NBI_MOVES; d++)
        off[d] = move_off(cd, d);
    /* The diagonal moves (bits 4 to 7) the cardinal ones (bits 0 to 3) allow. */
    uint8_t corners[16];
    for (unsigned card = 0; card < 16; card++) {
        corners[card] = 0;
        for (unsigned d = 4; d < NBI_MOVES; d++) {
            unsigned cx = (card >> nbi_move_horizontal(d)) & 1u;
            unsigned cy = (card >> nbi_move_vertical(d)) & 1u;
            if (corner == NBI_CORNER_STRICT ? cx & cy : cx | cy)
                corners[card] |= (uint8_t)(1u << d);
        }
    }
    for (uint32_t y = 1; y <= h; y++)
        for (uint32_t x = 1; x <= w; x++) {
            uint32_t i = y * cd->w2 + x;
            const uint8_t *at = cd->stand + i;
            unsigned m = 0;
            if (*at) {
                for (unsigned d = 0; d < NBI_MOVES; d++)
                    m |= (unsigned)at[off[d]] << d;
                m &= 0x0fu | corners[m & 0x0fu];
            }
            cd->move[i] = (uint8_t)m;
        }
}

static inline uint32_t cell_no(const nbb_cdist *cd, nb_cell c)
{
    return (uint32_t)(c.y - cd->box.y0 + 1) * cd->w2 + (uint32_t)(c.x - cd->box.x0 + 1);
}

/* A new stamp; on wrap-around the stamped arrays are cleared once. */
static void next_stamp(nbb_cdist *cd)
{
    if (++cd->stamp == UINT32_MAX) {
        memset(cd->seen, 0, cd->maxcells * sizeof *cd->seen);
        memset(cd->closed, 0, cd->maxcells * sizeof *cd->closed);
        memset(cd->target, 0, cd->maxcells * sizeof *cd->target);
        cd->stamp = 1;
    }
}

/* Dijkstra with two FIFO queues in place of a heap, one for the cardinal
 * moves (cost 1) and one for the diagonal ones (sqrt 2): cells leave in
 * order of g, so what each queue receives, g of the cell left plus its
 * one cost, comes in order too, and the smaller front is the next cell.
 * A cell queued again with a lower g leaves first; its older entries
 * find it closed. */
void nbb_cdist_run(nbb_cdist *cd, nb_cell start, const nb_cell *targets, size_t ntargets)
{
    next_stamp(cd);
    const uint32_t st = cd->stamp;
    size_t left = 0;
    for (size_t k = 0; k < ntargets; k++) {
        uint32_t t = cell_no(cd, targets[k]);
        if (cd->target[t] != st) {
            cd->target[t] = st;
            left++;
        }
    }
    int32_t off[NBI_MOVES];
    for (unsigned d = 0; d < NBI_MOVES; d++)
        off[d] = move_off(cd, d);
    nbb_cdist_item *q[2] = {cd->open, cd->open + cd->qcap};
    uint32_t head[2] = {0, 0}, tail[2] = {0, 0};
    uint32_t s = cell_no(cd, start);
    cd->g[s] = 0;
    cd->diag[s] = 0;
    cd->seen[s] = st;
    q[0][tail[0]++] = (nbb_cdist_item){0, s};
    while (left) {
        int k;
        if (head[0] < tail[0])
            k = head[1] < tail[1] && q[1][head[1]].key < q[0][head[0]].key;
        else if (head[1] < tail[1])
            k = 1;
        else
            break;
        uint32_t i = q[k][head[k]++].id;
        if (cd->closed[i] == st)
            continue;
        cd->closed[i] = st;
        if (cd->target[i] == st)
            left--;
        double gi = cd->g[i];
        uint16_t di = cd->diag[i];
        for (unsigned m = cd->move[i]; m; m &= m - 1) {
            unsigned d = nbp_ctz32(m);
            uint32_t j = (uint32_t)((int32_t)i + off[d]);
            if (cd->closed[j] == st)
                continue;
            double ng = gi + nbi_move_cost(d);
            if (cd->seen[j] != st || ng < cd->g[j]) {
                unsigned diagonal = NBI_MOVE_IS_DIAGONAL(d);
                cd->seen[j] = st;
                cd->g[j] = ng;
                cd->diag[j] = (uint16_t)(di + diagonal);
                q[diagonal][tail[diagonal]++] = (nbb_cdist_item){ng, j};
            }
        }
    }
}

double nbb_cdist_cost(const nbb_cdist *cd, nb_cell c, uint32_t *diag)
{
    if (c.x < cd->box.x0 || c.y < cd->box.y0 || c.x >= cd->box.x1 || c.y >= cd->box.y1)
        return -1;
    uint32_t i = cell_no(cd, c);
    if (cd->closed[i] != cd->stamp)
        return -1;
    if (diag)
        *diag = cd->diag[i];
    return cd->g[i];
}
