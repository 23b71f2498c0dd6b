/* border_graph.c: a tile's border graph for one (capability, size)
 * (NB_SEC_BORDER_GRAPH, formats/world.md), which the link joins into the
 * world's HAA* graph above the tiles.  Its portals are the nodes of the
 * tile bundle's abstract graph on the tile's own edges with an arc (for
 * that agent) to a node outside them; its links are those arcs; its
 * distances are a Dijkstra from each portal over the graph kept to the
 * tile's own cells.  Kept to the tile's cells, a distance never counts a
 * stretch of a neighbour twice: what leaves the tile is the neighbour's
 * portals' business.  The clusters on both sides of a tile's edge are on
 * the world's grid and their border cells are exact in both tiles (the
 * halo), so a link's far end is a portal of the neighbour. */
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"
#include "stream/haa_world.h"
#include "world/world.h"

static nb_cell node_cell(const nbi_agraph *g, uint32_t u)
{
    nb_cell c = {nbi_u16at(g->node_xy, 2 * (size_t)u), nbi_u16at(g->node_xy, 2 * (size_t)u + 1)};
    return c;
}

static int in_core(const nbi_wtile *t, uint32_t x, uint32_t y)
{
    return x >= t->core_x && y >= t->core_y && x < t->core_x + t->core_w &&
           y < t->core_y + t->core_h;
}

nb_status nbb_world_border_graph(nbb_builder *out, const nbi_agraph *g, const nbi_wtile *t,
                                 nb_capability cap, uint32_t size, nb_err *err)
{
    uint32_t *portal = NULL, *lk = NULL, np = 0, nl = 0;
    uint8_t *p = NULL;
    nbi_tdijk dj;
    memset(&dj, 0, sizeof dj);
    nb_status st = NB_OK;
    size_t cap_p = 64, cap_l = 64;
    portal = nbb_malloc(cap_p * sizeof *portal);
    lk = nbb_malloc(cap_l * 2 * sizeof *lk); /* (portal, arc) */
    if (!portal || !lk || !nbi_tdijk_init(&dj, nbb_mem(), g->nnodes)) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a border graph");
        goto done;
    }
    for (uint32_t u = 0; u < g->nnodes; u++) {
        if (!nbi_tins_is_portal(g, t, u, cap, size)) /* the rule the insertion table checks */
            continue;
        for (uint32_t a = nbi_u32at(g->node_first, u); a < nbi_u32at(g->node_first, u + 1); a++) {
            nb_cell v = node_cell(g, nbi_u32at(g->arc_to, a));
            if (!nbi_agraph_admits(g, a, cap, size) || in_core(t, (uint32_t)v.x, (uint32_t)v.y))
                continue;
            if (nl == cap_l) {
                uint32_t *n2 = nbb_realloc(lk, (cap_l *= 2) * 2 * sizeof *lk);
                if (!n2) {
                    st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a border graph");
                    goto done;
                }
                lk = n2;
            }
            lk[2 * nl] = np;
            lk[2 * nl + 1] = a;
            nl++;
        }
        if (np == cap_p) {
            uint32_t *n2 = nbb_realloc(portal, (cap_p *= 2) * sizeof *portal);
            if (!n2) {
                st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a border graph");
                goto done;
            }
            portal = n2;
        }
        portal[np++] = u;
    }
    size_t len = NBI_BGRAPH_HEADER + (size_t)np * NBI_BGRAPH_PORTAL + (size_t)nl * NBI_BGRAPH_LINK +
                 NBI_BGRAPH_DIST * (size_t)np * np;
    if (!(p = nbb_calloc(1, len))) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a border graph of %u portals", np);
        goto done;
    }
    uint32_t head[4] = {cap, size, np, nl};
    for (int i = 0; i < 4; i++)
        nbi_put32(p + 4 * i, head[i]);
    uint8_t *pp = p + NBI_BGRAPH_HEADER, *pl = pp + (size_t)np * NBI_BGRAPH_PORTAL,
            *pd = pl + (size_t)nl * NBI_BGRAPH_LINK;
    for (uint32_t i = 0; i < np; i++) {
        nb_cell c = node_cell(g, portal[i]);
        nbi_put32(pp + (size_t)i * NBI_BGRAPH_PORTAL + NBI_BGRAPH_P_NODE, portal[i]);
        nbi_put32(pp + (size_t)i * NBI_BGRAPH_PORTAL + NBI_BGRAPH_P_X, t->origin_x + (uint32_t)c.x);
        nbi_put32(pp + (size_t)i * NBI_BGRAPH_PORTAL + NBI_BGRAPH_P_Y, t->origin_y + (uint32_t)c.y);
    }
    for (uint32_t k = 0; k < nl; k++) {
        uint32_t a = lk[2 * k + 1];
        nb_cell v = node_cell(g, nbi_u32at(g->arc_to, a));
        uint8_t *q = pl + (size_t)k * NBI_BGRAPH_LINK;
        nbi_put32(q + NBI_BGRAPH_L_PORTAL, lk[2 * k]);
        nbi_put32(q + NBI_BGRAPH_L_X, t->origin_x + (uint32_t)v.x);
        nbi_put32(q + NBI_BGRAPH_L_Y, t->origin_y + (uint32_t)v.y);
        nbi_put32(q + NBI_BGRAPH_L_CARD, nbi_u16at(g->arc_w, 2 * (size_t)a));
        nbi_put32(q + NBI_BGRAPH_L_DIAG, nbi_u16at(g->arc_w, 2 * (size_t)a + 1));
    }
    /* From each portal to those after it: the graph is undirected, so the
     * distance back is the same (one length, one count of each step). */
    uint32_t zero = 0;
    uint8_t *want = nbb_calloc(g->nnodes ? g->nnodes : 1, 1);
    if (!want) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a border graph");
        goto done;
    }
    for (uint32_t i = 0; i < np; i++)
        want[portal[i]] = 1;
    dj.target = want;
    for (uint32_t i = 0; i < np; i++) {
        want[portal[i]] = 0;
        dj.left = np - i - 1;
        if (!dj.left)
            break;
        if (!nbi_tdijk_run(&dj, g, cap, size, t->core_x, t->core_y, t->core_x + t->core_w,
                           t->core_y + t->core_h, &portal[i], &zero, &zero, 1)) {
            nbb_free(want);
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a border graph");
            goto done;
        }
        for (uint32_t j = i + 1; j < np; j++) {
            uint8_t *d = pd + NBI_BGRAPH_DIST * ((size_t)i * np + j);
            uint8_t *b = pd + NBI_BGRAPH_DIST * ((size_t)j * np + i);
            int r = nbi_tdijk_reached(&dj, portal[j]);
            nbi_put32(d + NBI_BGRAPH_D_CARD, r ? dj.card[portal[j]] : NBI_BGRAPH_NONE);
            nbi_put32(d + NBI_BGRAPH_D_DIAG, r ? dj.diag[portal[j]] : NBI_BGRAPH_NONE);
            memcpy(b, d, NBI_BGRAPH_DIST);
        }
    }
    nbb_free(want);
    nb_section_info info;
    memset(&info, 0, sizeof info);
    info.type = NB_SEC_BORDER_GRAPH;
    info.version = NBI_BGRAPH_VERSION;
    info.param[0] = cap;
    info.param[1] = size;
    info.param[2] = np;
    info.param[3] = nl;
    st = nbb_builder_add_owned(out, &info, p, len, 0, err);
    p = NULL;
done:
    nbb_free(p);
    nbb_free(portal);
    nbb_free(lk);
    nbi_tdijk_free(&dj);
    return st;
}
