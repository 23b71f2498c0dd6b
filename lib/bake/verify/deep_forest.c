/* deep_forest.c: a bitangent graph against the forest it was baked from
 * (formats/forest.md).  mkabstract --forest is deterministic, so the
 * graph is baked again from the forest section's circles at the agent
 * radius the graph records, and compared field by field: the counts, then
 * node by node (tangent point, angle, partner, circle and sense), free
 * arc by free arc, and the per-circle tables.  Coordinates and angles
 * agree to within a few units in the last place (nbb_deep_same). */
#include <stdlib.h>
#include <zlib.h>

#include "forest/forest.h"
#include "verify/deep.h"

static nb_status compare_nodes(nbb_deep *d, const uint8_t *g, uint32_t gm, const uint8_t *r,
                               uint32_t rm, nb_err *err)
{
    for (uint32_t k = 0; k < gm && k < rm; k++) {
        const uint8_t *a = g + (size_t)k * NBI_BITANGENT_NODE, *b = r + (size_t)k * NBI_BITANGENT_NODE;
        double ax = nbi_getf64(a + NBI_BT_N_X), ay = nbi_getf64(a + NBI_BT_N_Y),
               aa = nbi_getf64(a + NBI_BT_N_ANGLE);
        double bx = nbi_getf64(b + NBI_BT_N_X), by = nbi_getf64(b + NBI_BT_N_Y),
               ba = nbi_getf64(b + NBI_BT_N_ANGLE);
        uint32_t ap = nbi_get32(a + NBI_BT_N_PARTNER), bp = nbi_get32(b + NBI_BT_N_PARTNER);
        uint32_t ac = nbi_get32(a + NBI_BT_N_CIRCLE), bc = nbi_get32(b + NBI_BT_N_CIRCLE);
        if (!nbb_deep_same(ax, bx) || !nbb_deep_same(ay, by) || !nbb_deep_same(aa, ba) ||
            ap != bp || ac != bc)
            return nbb_deep_fail(d, err, "node %u (circle %u, %s) at (%.17g, %.17g), angle %.17g, "
                                 "partner %u; recomputed: circle %u, %s, (%.17g, %.17g), angle "
                                 "%.17g, partner %u", k, ac >> 1, ac & 1 ? "clockwise" : "counter-clockwise",
                                 ax, ay, aa, ap, bc >> 1, bc & 1 ? "clockwise" : "counter-clockwise",
                                 bx, by, ba, bp);
    }
    if (gm != rm)
        return nbb_deep_fail(d, err, "%u nodes, recomputed %u", gm, rm);
    return NB_OK;
}

static nb_status compare_arcs(nbb_deep *d, const uint8_t *g, const uint8_t *r, uint32_t na,
                              nb_err *err)
{
    for (uint32_t k = 0; k < na; k++) {
        const uint8_t *a = g + (size_t)k * NBI_BITANGENT_ARC, *b = r + (size_t)k * NBI_BITANGENT_ARC;
        double as = nbi_getf64(a + NBI_BT_A_START), aspan = nbi_getf64(a + NBI_BT_A_SPAN);
        double bs = nbi_getf64(b + NBI_BT_A_START), bspan = nbi_getf64(b + NBI_BT_A_SPAN);
        if (!nbb_deep_same(as, bs) || !nbb_deep_same(aspan, bspan))
            return nbb_deep_fail(d, err, "free arc %u from angle %.17g by %.17g, recomputed "
                                 "from %.17g by %.17g", k, as, aspan, bs, bspan);
    }
    return NB_OK;
}

static nb_status compare(nbb_deep *d, const uint8_t *g, size_t glen, const uint8_t *r, size_t rlen,
                         size_t n, nb_err *err)
{
    uint32_t gm = nbi_get32(g + NBI_BT_NODES), rm = nbi_get32(r + NBI_BT_NODES);
    uint32_t ga = nbi_get32(g + NBI_BT_ARCS), ra = nbi_get32(r + NBI_BT_ARCS);
    nb_status st = compare_nodes(d, g + NBI_BITANGENT_HEADER, gm, r + NBI_BITANGENT_HEADER, rm, err);
    if (st != NB_OK)
        return st;
    if (ga != ra)
        return nbb_deep_fail(d, err, "%u free arcs, recomputed %u", ga, ra);
    size_t nodes = NBI_BITANGENT_HEADER + (size_t)gm * NBI_BITANGENT_NODE;
    if ((st = compare_arcs(d, g + nodes, r + nodes, ga, err)) != NB_OK)
        return st;
    uint64_t gh = nbi_get64(g + NBI_BT_HUGGING), rh = nbi_get64(r + NBI_BT_HUGGING);
    if (nbi_get32(g + NBI_BT_CANDIDATES) != nbi_get32(r + NBI_BT_CANDIDATES) || gh != rh)
        return nbb_deep_fail(d, err, "%u candidate bitangents and %llu hugging arcs, recomputed "
                             "%u and %llu", nbi_get32(g + NBI_BT_CANDIDATES),
                             (unsigned long long)gh, nbi_get32(r + NBI_BT_CANDIDATES),
                             (unsigned long long)rh);
    /* The per-circle tables, then the header's zero fields. */
    size_t tables = nodes + (size_t)ga * NBI_BITANGENT_ARC;
    for (size_t i = 0; i < 2 * (n + 1); i++)
        if (nbi_get32(g + tables + 4 * i) != nbi_get32(r + tables + 4 * i))
            return nbb_deep_fail(d, err, "circle %zu's first %s is %u, recomputed %u", i % (n + 1),
                                 i <= n ? "node" : "free arc", nbi_get32(g + tables + 4 * i),
                                 nbi_get32(r + tables + 4 * i));
    if (glen != rlen || memcmp(g + NBI_BT_ZERO, r + NBI_BT_ZERO, 4) != 0 ||
        memcmp(g + NBI_BT_ZERO2, r + NBI_BT_ZERO2, NBI_BITANGENT_HEADER - NBI_BT_ZERO2) != 0)
        return nbb_deep_fail(d, err, "its header's reserved fields are not zero");
    return NB_OK;
}

nb_status nbb_deep_bitangent(nbb_deep *d, nb_err *err)
{
    const nb_bundle *b = d->b;
    nb_forest *f = NULL;
    /* The forest and the structure of every graph, as a query checks them
     * (the messages name the section). */
    nb_status st = nb_forest_open(b, &f, err);
    if (st != NB_OK)
        return st;
    const void *gp, *fp;
    size_t glen, flen, rlen = 0;
    uint8_t *rp = NULL;
    long fi = nbi_section_index(b, NB_SEC_FOREST, NULL, NULL, 0);
    st = nb_bundle_payload(b, d->index, &gp, &glen, err);
    if (st == NB_OK)
        st = nb_bundle_payload(b, (size_t)fi, &fp, &flen, err);
    if (st == NB_OK) {
        nbb_forest nf = {f->circles, f->n, f->has_bounds, {0, 0, 0, 0}};
        memcpy(nf.bounds, f->bounds, sizeof nf.bounds);
        double radius = nbi_getf64((const uint8_t *)gp + NBI_BT_RADIUS);
        uint32_t crc = (uint32_t)crc32(0, fp, (uInt)flen);
        st = nbb_bitangent_bake(&nf, radius, crc, 0, &rp, &rlen, NULL, NULL, NULL, err);
        if (st != NB_OK)
            st = nbb_deep_cannot(d, st, err, "from the forest");
    }
    if (st == NB_OK)
        st = compare(d, gp, glen, rp, rlen, f->n, err);
    nbb_free(rp);
    nb_forest_close(f);
    return st;
}
