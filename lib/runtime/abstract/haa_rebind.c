/* haa_rebind.c: one HAA* workspace moved to another bundle whose graph has
 * the same shape (clusters, capabilities and sizes): a world's
 * tiles, whose stretches one world query refines one after another
 * (stream/haa_world.c), so that such a query opens no workspace per tile.
 * What a workspace holds from its bundle are views (the graph, its layers,
 * cost profiles and levels), read again here with nb_haa_open's own reads
 * and checks (each checked once per bundle); what it holds for queries (the
 * searches inside clusters, the abstract search's pages, the path and the
 * set of its cells) is sized by the cluster and the map and is kept, grown
 * only where the new graph needs more keys or its map more cells.  Pages kept from the last
 * bundle hold nothing a new search trusts: the abstract search's nodes are
 * stamped with its search id, the cells' places hold only while the path
 * holds the cell (haa.c). */
#include "abstract/haa_ws.h"

/* What the last bundle lent given back (its Annotated A* for queries under an overlay, the
 * partial paths' searches: opened again by the first query that needs them), no query under
 * way, and the workspace's bundle b. */
static void bind_to(nb_haa *ws, const nb_bundle *b)
{
    nb_aa_close(ws->aa);
    ws->aa = NULL;
    nbi_partial_free(&ws->part);
    nbi_partial_init(&ws->part, b);
    ws->b = b;
    ws->rep = NULL;
    ws->phase = NBI_HAA_IDLE;
}

nb_status nbi_haa_rebind(nb_haa *ws, const nb_bundle *b, nb_err *err)
{
    if (ws->b == b)
        return nbi_done(err, NB_OK);
    nbi_agraph g;
    nb_status st = nbi_agraph_find(b, &g, err);
    if (st != NB_OK)
        return st;
    if (g.cluster != ws->g.cluster || g.ncaps != ws->g.ncaps ||
        g.nsizes != ws->g.nsizes)
        return nbi_fail(err, NB_ERR_ARG,
                        "%s: HAA*: a workspace for clusters of %u (%u capabilities, %u sizes) "
                        "cannot serve this graph (clusters of %u, %u, %u): open one",
                        b->path, ws->g.cluster, ws->g.ncaps, ws->g.nsizes, g.cluster, g.ncaps,
                        g.nsizes);
    bind_to(ws, b);
    ws->g = g;
    ws->bytes = (size_t)b->sections[g.section].info.usize;
    ws->top = nbi_u32at(g.sizes, g.nsizes - 1);
    if (!nbi_haa_room_cells(ws))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for an HAA* workspace (%u x %u cells)",
                      g.width, g.height);
    if (st == NB_OK && (st = nbi_haa_room_keys(ws, (uint64_t)g.nnodes + 2, err)) == NB_OK &&
        (st = nbi_haa_bind_layers(ws, err)) == NB_OK &&
        (st = nbi_haa_load_profiles(ws, err)) == NB_OK)
        st = nbi_haa_find_levels(ws, err);
    /* The searches above level 1 are sized by the largest level: made again by the next query
     * that needs them when this graph's is larger. */
    if (st == NB_OK && ws->lq && ws->has_levels) {
        uint32_t most = 0;
        for (uint32_t j = 2; j <= ws->lv.nlevels; j++)
            most = ws->lv.lv[j].nnodes > most ? ws->lv.lv[j].nnodes : most;
        if ((size_t)most + 2 > ws->lq->as.pool.ndir << NBI_ASEARCH_SHIFT) {
            nbi_levels_ws_free(ws->lq);
            ws->lq = NULL;
        }
    }
    if (st != NB_OK)
        ws->b = NULL; /* bound to nothing: only nb_haa_close (or another rebind) may follow */
    return st;
}

void nbi_haa_unbind(nb_haa *ws) { bind_to(ws, NULL); }
