/* deep_abstract.c: the HAA* abstract graph against the clearance layers it
 * was built from (formats/abstract.md).  The build is deterministic, so
 * the graph is built again with the options its header records (cluster
 * size, quality, placement, spread, corner rule, stored paths; mkabstract
 * always drops intra-edges replaced through a node) and compared value by
 * value: capabilities and sizes, then nodes, then each node's arcs
 * (target, annotation, weight, stored path move by move). */
#include <stdlib.h>

#include "abstract/abstract.h"
#include "verify/deep.h"

static const char *const move_name[NBI_MOVES] = {"+x",    "-x",    "+y",    "-y",
                                                 "+x+y", "+x-y", "-x+y", "-x-y"};

static void node_cell(const nbi_agraph *g, uint32_t u, uint32_t *x, uint32_t *y)
{
    *x = nbi_u16at(g->node_xy, 2 * (size_t)u);
    *y = nbi_u16at(g->node_xy, 2 * (size_t)u + 1);
}

/* "arc 57 from node 12 (30, 40) to node 15 (39, 41), {ground} size 1" */
static void arc_text(const nb_bundle *b, const nbi_agraph *g, uint32_t u, uint32_t a, char *out,
                     size_t len)
{
    uint32_t v = nbi_u32at(g->arc_to, a), ux, uy, vx, vy;
    node_cell(g, u, &ux, &uy);
    node_cell(g, v, &vx, &vy);
    char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 1) + 1];
    nb_capability_format(b, nbi_u32at(g->caps, g->arc_ann[2 * (size_t)a]), caps, sizeof caps);
    snprintf(out, len, "arc %u from node %u (%u, %u) to node %u (%u, %u), {%s} size %u", a, u, ux,
             uy, v, vx, vy, caps, g->arc_ann[2 * (size_t)a + 1]);
}

static unsigned move_at(const nbi_agraph *g, uint32_t nibble)
{
    return (g->moves[nibble / 2] >> (4 * (nibble % 2))) & 15u;
}

/* The stored path of arc a (from u, the lower node) move by move. */
static nb_status compare_path(nbb_deep *d, const nbi_agraph *g, const nbi_agraph *r, uint32_t u,
                              uint32_t a, uint32_t ra, nb_err *err)
{
    uint32_t go = nbi_u32at(g->arc_path, a), ro = nbi_u32at(r->arc_path, ra);
    uint32_t steps = nbi_agraph_arc_steps(g, a), x, y;
    node_cell(g, u, &x, &y);
    for (uint32_t k = 0; k < steps; k++) {
        unsigned gm = move_at(g, go + k), rm = move_at(r, ro + k);
        if (gm != rm) {
            char arc[200];
            arc_text(d->b, g, u, a, arc, sizeof arc);
            return nbb_deep_fail(d, err, "%s: its stored path's step %u from (%u, %u) is %s, "
                                 "recomputed %s", arc, k, x, y, move_name[gm & 7],
                                 move_name[rm & 7]);
        }
        x = (uint32_t)((int32_t)x + nbi_move_dx[gm]);
        y = (uint32_t)((int32_t)y + nbi_move_dy[gm]);
    }
    return NB_OK;
}

/* Arc a of g against arc ra of r, both from node u. */
static nb_status compare_arc(nbb_deep *d, const nbi_agraph *g, const nbi_agraph *r, uint32_t u,
                             uint32_t a, uint32_t ra, nb_err *err)
{
    char arc[200];
    uint32_t v = nbi_u32at(g->arc_to, a), rv = nbi_u32at(r->arc_to, ra);
    unsigned ci = g->arc_ann[2 * (size_t)a], cv = g->arc_ann[2 * (size_t)a + 1];
    unsigned rci = r->arc_ann[2 * (size_t)ra], rcv = r->arc_ann[2 * (size_t)ra + 1];
    uint32_t card = nbi_u16at(g->arc_w, 2 * (size_t)a), diag = nbi_u16at(g->arc_w, 2 * (size_t)a + 1);
    uint32_t rcard = nbi_u16at(r->arc_w, 2 * (size_t)ra),
             rdiag = nbi_u16at(r->arc_w, 2 * (size_t)ra + 1);
    arc_text(d->b, g, u, a, arc, sizeof arc);
    if (v != rv || ci != rci || cv != rcv) {
        uint32_t x, y;
        node_cell(r, rv, &x, &y);
        char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 1) + 1];
        nb_capability_format(d->b, nbi_u32at(r->caps, rci), caps, sizeof caps);
        return nbb_deep_fail(d, err, "%s: recomputed, this arc of node %u leads to node %u "
                             "(%u, %u) for {%s} size %u", arc, u, rv, x, y, caps, rcv);
    }
    if (card != rcard || diag != rdiag)
        return nbb_deep_fail(d, err, "%s: weight %u + %u sqrt(2), recomputed %u + %u sqrt(2)", arc,
                             card, diag, rcard, rdiag);
    if (g->arc_path) {
        uint32_t go = nbi_u32at(g->arc_path, a), ro = nbi_u32at(r->arc_path, ra);
        if (go != ro)
            return nbb_deep_fail(d, err, "%s: its stored path at move %u, recomputed %u", arc, go,
                                 ro);
        if (go != NBI_NO_PATH && u < v)
            return compare_path(d, g, r, u, a, ra, err);
    }
    return NB_OK;
}

static nb_status compare_nodes(nbb_deep *d, const nbi_agraph *g, const nbi_agraph *r, nb_err *err)
{
    uint32_t nv = g->nnodes < r->nnodes ? g->nnodes : r->nnodes, x, y, rx, ry;
    for (uint32_t u = 0; u < nv; u++) {
        node_cell(g, u, &x, &y);
        node_cell(r, u, &rx, &ry);
        if (x != rx || y != ry)
            return nbb_deep_fail(d, err, "node %u is at (%u, %u), recomputed (%u, %u)", u, x, y,
                                 rx, ry);
    }
    if (g->nnodes > nv) {
        node_cell(g, nv, &x, &y);
        return nbb_deep_fail(d, err, "%u nodes, recomputed %u: node %u (%u, %u) is not in the "
                             "recomputed graph", g->nnodes, r->nnodes, nv, x, y);
    }
    if (r->nnodes > nv) {
        node_cell(r, nv, &x, &y);
        return nbb_deep_fail(d, err, "%u nodes, recomputed %u: node %u (%u, %u) is missing",
                             g->nnodes, r->nnodes, nv, x, y);
    }
    for (uint32_t u = 0; u < g->nnodes; u++) {
        uint32_t a0 = nbi_u32at(g->node_first, u), a1 = nbi_u32at(g->node_first, u + 1);
        uint32_t r0 = nbi_u32at(r->node_first, u), r1 = nbi_u32at(r->node_first, u + 1);
        uint32_t n = a1 - a0 < r1 - r0 ? a1 - a0 : r1 - r0;
        for (uint32_t k = 0; k < n; k++) {
            nb_status st = compare_arc(d, g, r, u, a0 + k, r0 + k, err);
            if (st != NB_OK)
                return st;
        }
        if (a1 - a0 != r1 - r0) {
            char arc[200];
            if (a1 - a0 > n)
                arc_text(d->b, g, u, a0 + n, arc, sizeof arc);
            else
                arc_text(d->b, r, u, r0 + n, arc, sizeof arc);
            node_cell(g, u, &x, &y);
            return nbb_deep_fail(d, err, "node %u (%u, %u) has %u arcs, recomputed %u: %s %s", u,
                                 x, y, a1 - a0, r1 - r0, arc,
                                 a1 - a0 > n ? "is not in the recomputed graph" : "is missing");
        }
    }
    return NB_OK;
}

static nb_status compare(nbb_deep *d, const nbi_agraph *g, const nbi_agraph *r, const uint8_t *gp,
                         size_t glen, const uint8_t *rp, size_t rlen, nb_err *err)
{
    if (g->ncaps != r->ncaps || g->nsizes != r->nsizes)
        return nbb_deep_fail(d, err, "serves %u capabilities and %u sizes, the agent set %u and %u",
                             g->ncaps, g->nsizes, r->ncaps, r->nsizes);
    for (uint32_t i = 0; i < g->ncaps; i++)
        if (nbi_u32at(g->caps, i) != nbi_u32at(r->caps, i))
            return nbb_deep_fail(d, err, "capability %u is %#x, the agent set's %#x", i,
                                 (unsigned)nbi_u32at(g->caps, i), (unsigned)nbi_u32at(r->caps, i));
    for (uint32_t i = 0; i < g->nsizes; i++)
        if (nbi_u32at(g->sizes, i) != nbi_u32at(r->sizes, i))
            return nbb_deep_fail(d, err, "size %u is %u, the agent set's %u", i,
                                 (unsigned)nbi_u32at(g->sizes, i), (unsigned)nbi_u32at(r->sizes, i));
    nb_status st = compare_nodes(d, g, r, err);
    if (st != NB_OK)
        return st;
    /* Equal nodes and arcs give equal counts and indexes. */
    if (g->nedges != r->nedges || g->ninter != r->ninter || g->path_bytes != r->path_bytes)
        return nbb_deep_fail(d, err, "%u edges (%u inter) and %u path bytes, recomputed %u (%u) "
                             "and %u", g->nedges, g->ninter, g->path_bytes, r->nedges, r->ninter,
                             r->path_bytes);
    return nbb_deep_bytes(d, gp, glen, rp, rlen, err);
}

nb_status nbb_deep_abstract(nbb_deep *d, nb_err *err)
{
    const nb_bundle *b = d->b;
    nbi_agraph g, r;
    nb_status st = nbi_agraph_at(b, d->index, &g, err); /* its message names the section */
    if (st != NB_OK)
        return st;
    nbb_abstract_opts o;
    nbb_abstract_defaults(&o);
    o.progress = d->o->progress;
    o.progress_arg = d->o->ctx;
    o.cluster = g.cluster;
    o.quality = g.quality;
    o.placement = g.placement;
    if (g.spread)
        o.spread = g.spread;
    o.corner = (nb_corner)g.corner;
    o.paths = (g.flags & NBI_AGRAPH_PATHS) != 0;
    uint8_t *p = NULL;
    size_t len = 0;
    if ((st = nbb_abstract_build(b, &o, &p, &len, NULL, err)) != NB_OK ||
        (st = nbi_agraph_view(p, len, b->width, b->height, &r, err)) != NB_OK)
        st = nbb_deep_cannot(d, st, err, "from the clearance layers");
    else
        st = compare(d, &g, &r, b->sections[d->index].payload,
                     (size_t)b->sections[d->index].info.usize, p, len, err);
    nbb_free(p);
    /* The costs HAA* reads with the graph (the first: the one HAA* searches). */
    if (st == NB_OK && nbi_section_index(b, NB_SEC_ABSTRACT, NULL, NULL, 0) == (long)d->index)
        st = nbb_deep_profiles(d, &g, err);
    return st;
}
