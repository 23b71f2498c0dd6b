/* deep_acosts.c: an abstract graph's costs for one terrain-cost profile
 * (formats/abstract.md, section type 33) against the map and the graph
 * they were baked from: the profile's costs are baked again (a
 * deterministic Dijkstra per node under the same multipliers) and compared
 * arc by arc, naming the first arc whose cost differs. */
#include <stdlib.h>

#include "abstract/abstract.h"
#include "verify/deep.h"

nb_status nbb_deep_acosts(nbb_deep *d, nb_err *err)
{
    const nb_bundle *b = d->b;
    nbi_agraph g;
    nbi_acosts c;
    nb_status st = nbi_agraph_find(b, &g, err);
    if (st == NB_OK)
        st = nbi_acosts_at(b, d->index, &g, &c, err); /* its message names the section */
    if (st != NB_OK)
        return st;
    nbb_acosts_source *src = malloc(sizeof *src);
    if (!src)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to check %s", d->what);
    const struct nbi_section *gs = &b->sections[g.section], *cs = &b->sections[d->index];
    uint8_t *p = NULL;
    size_t len = 0;
    st = nbb_acosts_source_of(b, src, err);
    if (st == NB_OK)
        st = nbb_acosts_bake(src, gs->payload, (size_t)gs->info.usize, c.cap, c.size, c.cost,
                             c.index, &p, &len, err);
    free(src);
    if (st != NB_OK)
        return nbb_deep_cannot(d, st, err, "from the map and the abstract graph");
    const uint8_t *rc = p + NBI_ACOSTS_HEADER + 8 * (size_t)b->legend.nterrains;
    for (uint32_t u = 0; u < g.nnodes && st == NB_OK; u++) {
        uint32_t a1 = nbi_u32at(g.node_first, u + 1);
        for (uint32_t a = nbi_u32at(g.node_first, u); a < a1; a++) {
            double have = nbi_acosts_arc(&c, a), want = nbi_getf64(rc + 8 * (size_t)a);
            if (nbb_deep_same(have, want))
                continue;
            uint32_t v = nbi_u32at(g.arc_to, a);
            st = nbb_deep_fail(d, err,
                               "arc %u from node %u (%u, %u) to node %u (%u, %u) costs %.17g, "
                               "recomputed %.17g",
                               a, u, nbi_u16at(g.node_xy, 2 * (size_t)u),
                               nbi_u16at(g.node_xy, 2 * (size_t)u + 1), v,
                               nbi_u16at(g.node_xy, 2 * (size_t)v),
                               nbi_u16at(g.node_xy, 2 * (size_t)v + 1), have, want);
            break;
        }
    }
    if (st == NB_OK)
        st = nbb_deep_bytes(d, cs->payload, (size_t)cs->info.usize, p, len, err);
    free(p);
    return st;
}
