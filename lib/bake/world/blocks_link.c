/* blocks_link.c: the level of tile blocks the link writes above a world's
 * HAA* graph (NB_SEC_WORLD_BLOCKS, formats/world.md).  On a world 32 tiles
 * wide the search above the tiles expands tens of thousands of portals
 * between far corners; grouping the tiles in blocks of S x S, as HAA*
 * groups cells in clusters, leaves a search over the nodes on the blocks'
 * borders only.  A block's border nodes are the world graph's nodes with
 * an arc to or from another block; between two of them the level keeps
 * the exact distance over the world graph's arcs kept to the block's
 * tiles (one Dijkstra from each), so a path above the blocks is no longer
 * than one above the tiles and HAA*'s error bound stays the world graph's.
 * An arc i -> j is left out when the shortest path Dijkstra found passes
 * through a third border node k: then i -> k and k -> j (each kept, or left
 * out for the same reason on a shorter path) give the same length, so the
 * level's distances stay exact; border nodes along one straight edge keep
 * little more than a chain.  Ties go by node number: the same bytes on any
 * machine, and a function of the world graph's bytes alone (so a link from
 * its cache writes the same level). */
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"
#include "core/heap.h"
#include "world/world.h"

#define NONE UINT32_MAX

typedef struct blk_arc {
    uint32_t to, card, diag;
} blk_arc;

typedef struct blocks {
    uint32_t n, tiles, columns, rows, side, bc, br;
    const uint8_t *tile_first, *af, *arc;
    uint32_t *blk;    /* n: each node's block */
    uint8_t *border;  /* n: 1 for a border node */
    uint32_t *loc;    /* n: a node's place in its block's list (valid for the block's nodes) */
    uint32_t *list;   /* the block's nodes, increasing */
    uint32_t *card, *diag, *pos;
    uint8_t *done, *via;
    nbi_heap h;
    blk_arc *out;     /* the level's arcs so far */
    size_t nout, capout;
} blocks;

static uint32_t arc_to(const blocks *s, uint32_t k)
{
    return nbi_get32(s->arc + (size_t)k * NBI_WGRAPH_ARC + NBI_WGRAPH_A_TO);
}

/* The nodes of block (bx, by) into s->list, increasing (tiles row by row:
 * a world graph numbers its nodes tile by tile); their count. */
static uint32_t block_nodes(blocks *s, uint32_t bx, uint32_t by)
{
    uint32_t m = 0;
    for (uint32_t ty = by * s->side; ty < (by + 1) * s->side && ty < s->rows; ty++)
        for (uint32_t tx = bx * s->side; tx < (bx + 1) * s->side && tx < s->columns; tx++) {
            uint32_t t = ty * s->columns + tx;
            for (uint32_t u = nbi_u32at(s->tile_first, t); u < nbi_u32at(s->tile_first, t + 1); u++)
                s->loc[u] = m, s->list[m++] = u;
        }
    return m;
}

/* Dijkstra from the block's node src (local) over the arcs kept to block k,
 * each node's steps in card and diag (local), via[v] 1 when the path found
 * passes through a border node other than src.  0 without memory. */
static int dijkstra(blocks *s, uint32_t k, uint32_t m, uint32_t src)
{
    for (uint32_t i = 0; i < m; i++)
        s->card[i] = s->diag[i] = NONE, s->done[i] = s->via[i] = 0, s->pos[i] = NBI_HEAP_NONE;
    nbi_heap_clear(&s->h);
    s->card[src] = s->diag[src] = 0;
    if (!nbi_heap_push(&s->h, 0, src, src))
        return 0;
    while (!nbi_heap_empty(&s->h)) {
        uint32_t i = nbi_heap_pop(&s->h).id, u = s->list[i];
        s->done[i] = 1;
        uint8_t through = s->via[i] || (i != src && s->border[u]);
        for (uint32_t a = nbi_u32at(s->af, u); a < nbi_u32at(s->af, u + 1); a++) {
            uint32_t v = arc_to(s, a);
            if (s->blk[v] != k)
                continue;
            uint32_t j = s->loc[v];
            if (s->done[j])
                continue;
            const uint8_t *q = s->arc + (size_t)a * NBI_WGRAPH_ARC;
            uint32_t c = s->card[i] + nbi_get32(q + NBI_WGRAPH_A_CARD),
                     d = s->diag[i] + nbi_get32(q + NBI_WGRAPH_A_DIAG);
            if (s->card[j] == c && s->diag[j] == d) {
                s->via[j] |= through; /* an equal path through a border node: as good */
                continue;
            }
            double l = nbi_steps_length(c, d);
            if (s->card[j] != NONE && nbi_steps_length(s->card[j], s->diag[j]) <= l)
                continue;
            s->card[j] = c, s->diag[j] = d, s->via[j] = through;
            if (!nbi_heap_push(&s->h, l, j, j))
                return 0;
        }
    }
    return 1;
}

static int add_arc(blocks *s, uint32_t to, uint32_t card, uint32_t diag)
{
    if (s->nout == s->capout) {
        size_t cap = s->capout ? 2 * s->capout : 1024;
        blk_arc *a = nbb_realloc(s->out, cap * sizeof *a);
        if (!a)
            return 0;
        s->out = a, s->capout = cap;
    }
    s->out[s->nout++] = (blk_arc){to, card, diag};
    return 1;
}

nb_status nbb_world_blocks(const uint8_t *wg, uint32_t columns, uint32_t rows, uint32_t side,
                           uint8_t **out, size_t *len, uint32_t *entries, nb_err *err)
{
    *out = NULL;
    *len = 0;
    blocks s;
    memset(&s, 0, sizeof s);
    s.n = nbi_get32(wg + NBI_WGRAPH_NODES);
    s.tiles = nbi_get32(wg + NBI_WGRAPH_TILES);
    s.columns = columns, s.rows = rows, s.side = side;
    s.bc = (columns + side - 1) / side, s.br = (rows + side - 1) / side;
    s.tile_first = wg + NBI_WGRAPH_HEADER;
    s.af = s.tile_first + 4 * ((size_t)s.tiles + 1) + (size_t)s.n * NBI_WGRAPH_NODE;
    s.arc = s.af + 4 * ((size_t)s.n + 1);
    uint32_t K = s.bc * s.br, n1 = s.n + 1;
    uint32_t *first = nbb_calloc((size_t)K + 1, sizeof *first),
             *afirst = nbb_calloc((size_t)n1, sizeof *afirst), *entry = nbb_malloc(n1 * sizeof *entry);
    s.blk = nbb_malloc(n1 * sizeof *s.blk), s.loc = nbb_malloc(n1 * sizeof *s.loc);
    s.list = nbb_malloc(n1 * sizeof *s.list), s.card = nbb_malloc(n1 * sizeof *s.card);
    s.diag = nbb_malloc(n1 * sizeof *s.diag), s.pos = nbb_malloc(n1 * sizeof *s.pos);
    s.border = nbb_calloc(n1, 1), s.done = nbb_malloc(n1), s.via = nbb_malloc(n1);
    uint8_t *p = NULL;
    nb_status st = NB_OK;
    if (!first || !afirst || !entry || !s.blk || !s.loc || !s.list || !s.card || !s.diag ||
        !s.pos || !s.border || !s.done || !s.via || !nbi_heap_init(&s.h, NULL, 1024, s.pos)) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the blocks of %u nodes", s.n);
        goto out;
    }
    if (s.tiles != columns * rows || side < 1) {
        st = nbi_fail(err, NB_ERR_ARG, "blocks of %u tiles over a graph of %u tiles, not %u x %u",
                      side, s.tiles, columns, rows);
        goto out;
    }
    for (uint32_t t = 0; t < s.tiles; t++) {
        uint32_t b = (t / columns / side) * s.bc + (t % columns) / side;
        for (uint32_t u = nbi_u32at(s.tile_first, t); u < nbi_u32at(s.tile_first, t + 1); u++)
            s.blk[u] = b;
    }
    for (uint32_t u = 0; u < s.n; u++)
        for (uint32_t a = nbi_u32at(s.af, u); a < nbi_u32at(s.af, u + 1); a++) {
            uint32_t v = arc_to(&s, a);
            if (s.blk[v] != s.blk[u])
                s.border[u] = s.border[v] = 1;
        }
    uint32_t M = 0;
    for (uint32_t by = 0; by < s.br; by++)
        for (uint32_t bx = 0; bx < s.bc; bx++) {
            uint32_t k = by * s.bc + bx, m = block_nodes(&s, bx, by), e0 = M;
            for (uint32_t i = 0; i < m; i++)
                if (s.border[s.list[i]])
                    entry[M++] = s.list[i];
            first[k + 1] = M;
            for (uint32_t e = e0; e < M; e++) {
                if (!dijkstra(&s, k, m, s.loc[entry[e]])) {
                    st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the blocks of %u nodes", s.n);
                    goto out;
                }
                for (uint32_t f = e0; f < M; f++) {
                    uint32_t j = s.loc[entry[f]];
                    if (f == e || s.card[j] == NONE || s.via[j])
                        continue;
                    if (!add_arc(&s, f, s.card[j], s.diag[j]) || s.nout >= UINT32_MAX) {
                        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the blocks' arcs (%zu)",
                                      s.nout);
                        goto out;
                    }
                }
                afirst[e + 1] = (uint32_t)s.nout;
            }
        }
    *len = NBI_WBLK_HEADER + 4 * ((size_t)K + 1) + 4 * (size_t)M + 4 * ((size_t)M + 1) +
           NBI_WBLK_ARC * s.nout;
    if (!(p = nbb_calloc(1, *len))) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the blocks' %zu bytes", *len);
        goto out;
    }
    uint32_t head[8] = {nbi_get32(wg + NBI_WGRAPH_CAPABILITY), nbi_get32(wg + NBI_WGRAPH_SIZE), s.n,
                        side, s.bc, s.br, M, (uint32_t)s.nout};
    for (int i = 0; i < 8; i++)
        nbi_put32(p + 4 * i, head[i]);
    uint8_t *q = p + NBI_WBLK_HEADER;
    for (uint32_t k = 0; k <= K; k++, q += 4)
        nbi_put32(q, first[k]);
    for (uint32_t e = 0; e < M; e++, q += 4)
        nbi_put32(q, entry[e]);
    for (uint32_t e = 0; e <= M; e++, q += 4)
        nbi_put32(q, afirst[e]);
    for (size_t a = 0; a < s.nout; a++, q += NBI_WBLK_ARC) {
        nbi_put32(q + NBI_WBLK_A_TO, s.out[a].to);
        nbi_put32(q + NBI_WBLK_A_CARD, s.out[a].card);
        nbi_put32(q + NBI_WBLK_A_DIAG, s.out[a].diag);
    }
    *out = p;
    *entries = M;
    p = NULL;
out:
    if (s.h.a)
        nbi_heap_free(&s.h);
    nbb_free(first), nbb_free(afirst), nbb_free(entry), nbb_free(s.blk), nbb_free(s.loc);
    nbb_free(s.list), nbb_free(s.card), nbb_free(s.diag), nbb_free(s.pos), nbb_free(s.border);
    nbb_free(s.done), nbb_free(s.via), nbb_free(s.out), nbb_free(p);
    if (st != NB_OK)
        *len = 0;
    return st;
}
