/* insert_table.c: a tile's table for inserting a query's end, one
 * (capability, size) (NB_SEC_TILE_INSERT, formats/world.md; the manifest's
 * `insert: B`).  A query inserts its end by a Dijkstra over its tile's graph
 * to every portal; on a street tile that is nearly the whole graph.  With
 * the table it searches only the end's block of B x B clusters and sums,
 * over the block's border nodes, the end's distance to one and the table's
 * from it to each portal: a path leaving the block leaves it at a border
 * node, so the sums are exact.  The table is a Dijkstra from each border
 * node over the graph kept to the tile's cells (as the border graph's
 * distances are), to the portals. */
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"
#include "stream/haa_world.h"
#include "world/world.h"

/* The table's steps, u32 pairs while built (then u16 when all fit). */
typedef struct built {
    uint32_t *portal, np, *first, *border, nborder, nblocks;
    uint32_t *steps; /* nborder x np pairs */
} built;

static void built_free(built *t)
{
    nbb_free(t->portal), nbb_free(t->first), nbb_free(t->border), nbb_free(t->steps);
}

/* Portals, then the border nodes by block (counted, then placed in node order). */
static int list_nodes(const nbi_agraph *g, const nbi_wtile *t, nb_capability cap, uint32_t size,
                      uint32_t side, built *r)
{
    uint32_t n = g->nnodes ? g->nnodes : 1;
    r->portal = nbb_malloc((size_t)n * sizeof *r->portal);
    r->first = nbb_calloc((size_t)r->nblocks + 2, sizeof *r->first);
    r->border = nbb_malloc((size_t)n * sizeof *r->border);
    if (!r->portal || !r->first || !r->border)
        return 0;
    for (uint32_t u = 0; u < g->nnodes; u++) {
        if (nbi_tins_is_portal(g, t, u, cap, size))
            r->portal[r->np++] = u;
        uint32_t k = nbi_tins_border_block(g, t, side, u, cap, size);
        if (k != UINT32_MAX)
            r->first[k + 2]++;
    }
    /* first[k + 1] is block k's next place while placing; first[k] its start after. */
    for (uint32_t k = 0; k < r->nblocks; k++)
        r->first[k + 2] += r->first[k + 1];
    for (uint32_t u = 0; u < g->nnodes; u++) {
        uint32_t k = nbi_tins_border_block(g, t, side, u, cap, size);
        if (k != UINT32_MAX)
            r->border[r->first[k + 1]++] = u;
    }
    r->nborder = r->first[r->nblocks];
    return 1;
}

/* From each border node, over the tile's cells, until every portal is settled. */
static int distances(const nbi_agraph *g, const nbi_wtile *t, nb_capability cap, uint32_t size,
                     built *r, uint32_t *wide)
{
    nbi_tdijk dj;
    uint8_t *want = nbb_calloc(g->nnodes ? g->nnodes : 1, 1);
    r->steps = nbb_malloc(((size_t)r->nborder * r->np + 1) * 2 * sizeof *r->steps);
    if (!want || !r->steps || !nbi_tdijk_init(&dj, nbb_mem(), g->nnodes)) {
        nbb_free(want);
        return 0;
    }
    for (uint32_t i = 0; i < r->np; i++)
        want[r->portal[i]] = 1;
    uint32_t zero = 0, x1 = t->core_x + t->core_w, y1 = t->core_y + t->core_h;
    int ok = 1;
    *wide = 0;
    for (uint32_t j = 0; ok && j < r->nborder; j++) {
        dj.target = want;
        dj.left = r->np;
        ok = nbi_tdijk_run(&dj, g, cap, size, t->core_x, t->core_y, x1, y1, &r->border[j], &zero,
                           &zero, 1);
        uint32_t *row = r->steps + (size_t)j * r->np * 2;
        for (uint32_t i = 0; ok && i < r->np; i++) {
            uint32_t p = r->portal[i];
            int has = nbi_tdijk_reached(&dj, p) && (dj.stamp[p] & 1);
            row[2 * i] = has ? dj.card[p] : UINT32_MAX;
            row[2 * i + 1] = has ? dj.diag[p] : UINT32_MAX;
            *wide |= has && (dj.card[p] >= UINT16_MAX || dj.diag[p] >= UINT16_MAX);
        }
    }
    nbi_tdijk_free(&dj);
    nbb_free(want);
    return ok;
}

nb_status nbb_world_insert_table(nbb_builder *out, const nbi_agraph *g, const nbi_wtile *t,
                                 nb_capability cap, uint32_t size, uint32_t bsz, nb_err *err)
{
    built r;
    memset(&r, 0, sizeof r);
    uint32_t side = bsz * t->cluster, wide = 0;
    r.nblocks = ((t->core_w + side - 1) / side) * ((t->core_h + side - 1) / side);
    if (!list_nodes(g, t, cap, size, side, &r) || !distances(g, t, cap, size, &r, &wide)) {
        built_free(&r);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for an insertion table");
    }
    uint32_t width = wide ? 4 : 2;
    size_t len = NBI_TINS_HEADER + 4 * ((size_t)r.np + r.nblocks + 1 + r.nborder) +
                 2 * (size_t)width * r.nborder * r.np;
    uint8_t *p = nbb_calloc(1, len);
    if (!p) {
        built_free(&r);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for an insertion table of %zu bytes", len);
    }
    uint32_t head[8] = {cap, size, bsz, r.np, r.nborder, r.nblocks, g->nnodes, width};
    for (int i = 0; i < 8; i++)
        nbi_put32(p + 4 * i, head[i]);
    uint8_t *q = p + NBI_TINS_HEADER;
    for (uint32_t i = 0; i < r.np; i++, q += 4)
        nbi_put32(q, r.portal[i]);
    for (uint32_t k = 0; k <= r.nblocks; k++, q += 4)
        nbi_put32(q, r.first[k]);
    for (uint32_t j = 0; j < r.nborder; j++, q += 4)
        nbi_put32(q, r.border[j]);
    for (size_t k = 0; k < 2 * (size_t)r.nborder * r.np; k++, q += width) {
        if (width == 4)
            nbi_put32(q, r.steps[k]);
        else /* none: all ones, the card and (unread) diag alike */
            nbi_put16(q, r.steps[k] == UINT32_MAX ? UINT16_MAX : (uint16_t)r.steps[k]);
    }
    nb_section_info info;
    memset(&info, 0, sizeof info);
    info.type = NB_SEC_TILE_INSERT;
    info.version = NBI_TINS_VERSION;
    info.param[0] = cap;
    info.param[1] = size;
    info.param[2] = bsz;
    info.param[3] = r.np;
    info.param[4] = r.nborder;
    built_free(&r);
    return nbb_builder_add_owned(out, &info, p, len, 0, err);
}
