/* opt_link.c: the link's join of the tiles' optimal-layer borders
 * (border_opt, border_opt.c) into the world bundle's world_opt section
 * (formats/world.md): every tile's section as it is, after it the node
 * each move out of a tile reaches, found among the portals of the tile
 * there.  Each tile's section is read back checked first; a move that
 * reaches no portal of its neighbour means the two were baked from other
 * cells, and is refused naming both.  Then the landmarks on the joined
 * graph and every node's distances from them (opt_landmarks.c). */
#include <stdio.h>
#include <string.h>

#include "bake_int.h"
#include "stream/opt_world.h"
#include "world/opt_landmarks.h"
#include "world/world.h"

/* Landmarks the link stores: 8, as the world graph's (landmarks_link.c). */
#define LANDMARKS 8

static int cell_before(nb_cell a, nb_cell b) { return a.y != b.y ? a.y < b.y : a.x < b.x; }

/* Portal of b at world cell c, or UINT32_MAX (portals run row by row). */
static uint32_t portal_at(const nbi_optb *b, nb_cell c)
{
    uint32_t lo = 0, hi = b->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (b->cell[mid].x == c.x && b->cell[mid].y == c.y)
            return mid;
        if (cell_before(b->cell[mid], c))
            lo = mid + 1;
        else
            hi = mid;
    }
    return UINT32_MAX;
}

nb_status nbb_world_opt_join(const nbb_world *w, const nbi_wtile *tags,
                             const uint8_t *const *payload, const size_t *plen,
                             const uint32_t param[4], uint8_t **out, size_t *out_len,
                             uint32_t *nodes_out, nb_err *err)
{
    uint32_t tiles = w->columns * w->rows;
    nbi_optb *b = nbb_calloc(tiles, sizeof *b);
    uint32_t *first = nbb_malloc(((size_t)tiles + 1) * sizeof *first);
    uint32_t *lfirst = NULL, *lto = NULL, *lm = NULL;
    uint8_t *lmove = NULL;
    double *ld = NULL;
    nb_status st = NB_OK;
    uint8_t *p = NULL;
    if (!b || !first) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the optimal layer's borders");
        goto done;
    }
    uint64_t nodes = 0, links = 0, bytes = 0;
    for (uint32_t t = 0; t < tiles && st == NB_OK; t++) {
        char where[96];
        snprintf(where, sizeof where, "tile (%u, %u)'s border_opt", t % w->columns,
                 t / w->columns);
        uint32_t pr[4] = {param[0], param[1], param[2],
                          plen[t] >= NBI_OBORDER_HEADER ? nbi_get32(payload[t] + NBI_OBORDER_PORTALS)
                                                        : 0};
        st = nbi_oborder_read(payload[t], plen[t], pr, &tags[t], where, nbb_mem(), &b[t], err);
        first[t] = (uint32_t)nodes;
        nodes += b[t].n;
        links += b[t].nlinks;
        bytes += plen[t];
    }
    if (st != NB_OK)
        goto done;
    first[tiles] = (uint32_t)nodes;
    if (nodes >= UINT32_MAX || bytes >= UINT32_MAX) {
        st = nbi_fail(err, NB_ERR_LIMIT, "the optimal layer across tiles: %llu portals in %llu "
                                         "bytes, beyond a u32",
                      (unsigned long long)nodes, (unsigned long long)bytes);
        goto done;
    }
    size_t head = NBI_WOPT_HEADER + 4 * ((size_t)tiles + 1), tgt = head + 4 * (size_t)links;
    lfirst = nbb_malloc(((size_t)nodes + 1) * sizeof *lfirst);
    lto = nbb_malloc(((size_t)links + 1) * sizeof *lto);
    lmove = nbb_malloc((size_t)links + 1);
    lm = nbb_malloc(LANDMARKS * sizeof *lm);
    ld = nbb_malloc(((size_t)nodes + 1) * LANDMARKS * sizeof *ld);
    /* The landmarks' bytes come last: room for as many as are wanted. */
    size_t lbytes = 4 * (size_t)LANDMARKS + 8 * (size_t)LANDMARKS * (size_t)nodes;
    *out_len = tgt + (size_t)bytes + lbytes;
    if (!lfirst || !lto || !lmove || !lm || !ld || !(p = nbb_calloc(1, *out_len))) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the optimal layer across tiles");
        goto done;
    }
    uint32_t hd[8] = {param[0], param[1], param[2], tiles, (uint32_t)nodes, (uint32_t)links,
                      (uint32_t)bytes, 0};
    for (int i = 0; i < 8; i++)
        nbi_put32(p + 4 * i, hd[i]);
    uint32_t off = 0, k = 0;
    for (uint32_t t = 0; t < tiles && st == NB_OK; t++) {
        nbi_put32at(p + NBI_WOPT_HEADER, t, off);
        memcpy(p + tgt + off, payload[t], plen[t]);
        off += (uint32_t)plen[t];
        for (uint32_t i = 0, l = 0; i < b[t].n; i++) {
            lfirst[first[t] + i] = k + l;
            while (l < b[t].nlinks && b[t].link_from[l] == i)
                l++;
        }
        for (uint32_t l = 0; l < b[t].nlinks; l++, k++) {
            nb_cell c = b[t].link_to[l], from = b[t].cell[b[t].link_from[l]];
            uint32_t j = UINT32_MAX, u = 0;
            if (c.x >= 0 && c.y >= 0 && (uint32_t)c.x < w->width && (uint32_t)c.y < w->height) {
                u = (uint32_t)c.y / w->tile * w->columns + (uint32_t)c.x / w->tile;
                j = portal_at(&b[u], c);
            }
            if (j == UINT32_MAX) {
                st = nbi_fail(err, NB_ERR_FORMAT,
                              "tile (%u, %u)'s optimal border moves from (%d, %d) to (%d, %d), "
                              "which is no portal of tile (%u, %u): bake both from the same maps",
                              t % w->columns, t / w->columns, from.x, from.y, c.x, c.y,
                              u % w->columns, u / w->columns);
                break;
            }
            nbi_put32at(p + head, k, first[u] + j);
            lto[k] = first[u] + j;
            lmove[k] = b[t].link_move[l];
        }
    }
    nbi_put32at(p + NBI_WOPT_HEADER, tiles, off);
    lfirst[nodes] = k;
    uint32_t nl = 0;
    if (st == NB_OK) {
        nbbo_graph g = {tiles, (uint32_t)nodes, b, first, lfirst, lto, lmove};
        st = nbb_world_opt_landmarks(&g, LANDMARKS, lm, ld, &nl, err);
    }
    if (st == NB_OK) {
        /* K, the landmarks, then each node's K distances (f64 bits). */
        uint8_t *q = p + tgt + bytes;
        nbi_put32(p + NBI_WOPT_LANDMARKS, nl);
        for (uint32_t i = 0; i < nl; i++)
            nbi_put32at(q, i, lm[i]);
        q += 4 * (size_t)nl;
        for (uint64_t v = 0; v < nodes; v++)
            for (uint32_t i = 0; i < nl; i++, q += 8)
                nbi_putf64(q, ld[v * LANDMARKS + i]);
        *out_len = (size_t)(q - p);
    }
    if (st == NB_OK) {
        *out = p;
        *nodes_out = (uint32_t)nodes;
        p = NULL;
    }
done:
    for (uint32_t t = 0; b && t < tiles; t++)
        nbi_optb_free(&b[t]);
    nbb_free(b);
    nbb_free(first);
    nbb_free(lfirst);
    nbb_free(lto);
    nbb_free(lmove);
    nbb_free(lm);
    nbb_free(ld);
    nbb_free(p);
    return st;
}
