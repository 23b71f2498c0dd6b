/* alevels.c: the runtime's reading of the abstract graph's higher levels
 * (formats/abstract.md, section type 34).  The header and the places of
 * the arrays are checked whenever a view is made (O(levels)); the arrays'
 * contents, every node and arc of every level, and the graph they were
 * baked for (its CRC) once per bundle (bundle/checked.c), so that a search
 * may index them without a check per read.
 *
 * What bounds a query's work on any section that passes (issue 29; the
 * argument is levels_query.c's): a stored path never comes back to a node
 * it has passed and stays in its cluster, so an edge of level j becomes at
 * most C_{j-1} + 1 nodes of level j - 1 (C_{j-1}: the most nodes of level
 * j - 1 in a cluster of level j); its arcs weigh together what its edge
 * weighs, every arc at least a step, and an edge is fewer steps than its
 * cluster has cells, so an edge refined down to cells gives fewer cells
 * than its cluster has.  Before, a path could go back and forth between
 * two nodes as long as the level below had nodes, and a refinement's work
 * multiplied by a level's size at every level.  The check costs one pass
 * over the path words with a stamp per node of the level below. */
#include <stdio.h>

#include "abstract/alevels.h"
#include "bundle/bundle.h"
#include "core/crc32.h"

#define BAD(...) nbi_fail(err, NB_ERR_FORMAT, "abstract levels: " __VA_ARGS__)

static uint64_t align8(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

void nbi_alevel_layout(uint64_t nclusters, uint64_t nnodes, uint64_t narcs, int paths,
                       uint64_t path_words, uint64_t at, uint64_t off[10])
{
    const uint64_t len[9] = {4 * (nclusters + 1), 4 * nnodes, 4 * (nnodes + 1), 4 * narcs,
                             4 * narcs,           4 * narcs,  2 * narcs,
                             paths ? 4 * narcs : 0, paths ? 4 * path_words : 0};
    for (int i = 0; i < 9; i++) {
        off[i] = at;
        at = align8(at + len[i]);
    }
    off[9] = at;
}

void nbi_landmarks_layout(uint64_t nlandmarks, uint64_t nnodes, uint64_t at, uint64_t off[3])
{
    off[0] = at;
    off[1] = align8(at + 4 * nlandmarks);
    off[2] = align8(off[1] + 8 * nlandmarks * nnodes);
}

void nbi_alevel_place(nbi_alevel *v, const uint8_t *p, const uint64_t off[10], int paths)
{
    v->cluster_first = p + off[0];
    v->node_id = p + off[1];
    v->node_first = p + off[2];
    v->arc_to = p + off[3];
    v->arc_card = p + off[4];
    v->arc_diag = p + off[5];
    v->arc_ann = p + off[6];
    v->arc_path = paths ? p + off[7] : NULL;
    v->paths = paths ? p + off[8] : NULL;
}

static uint64_t levels_start(uint32_t nlevels)
{
    return NBI_ALEVELS_HEADER + (uint64_t)NBI_ALEVELS_RECORD * (nlevels - 1);
}

void nbi_alevels_base(nbi_alevels *lv, const nbi_agraph *g)
{
    nbi_alevel *b = &lv->lv[1];
    memset(b, 0, sizeof *b);
    lv->g = g;
    b->side = g->cluster;
    b->ncx = g->ncx;
    b->ncy = g->ncy;
    b->nnodes = g->nnodes;
    b->narcs = 2 * g->nedges;
    b->ninter = 2 * g->ninter;
}

long nbi_lv_index(const nbi_alevels *L, uint32_t j, uint32_t id)
{
    if (id >= L->g->nnodes)
        return -1;
    if (j == 1)
        return (long)id;
    nb_cell c = nbi_lv_cell(L, id);
    uint32_t first, n = nbi_lv_nodes(L, j, nbi_lv_cluster(L, j, (uint32_t)c.x, (uint32_t)c.y), &first);
    uint32_t lo = first, hi = first + n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2, v = nbi_u32at(L->lv[j].node_id, mid);
        if (v == id)
            return (long)mid;
        if (v < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* The header and the places of the arrays: O(levels). */
static nb_status view_header(const uint8_t *p, size_t len, const nbi_agraph *g, nbi_alevels *lv,
                             nb_err *err)
{
    memset(lv, 0, sizeof *lv);
    lv->section = -1;
    nbi_alevels_base(lv, g);
    if (len < NBI_ALEVELS_HEADER)
        return BAD("%zu bytes, shorter than its %d-byte header", len, NBI_ALEVELS_HEADER);
    uint32_t h[NBI_AL_WORDS];
    for (int i = 0; i < NBI_AL_WORDS; i++)
        h[i] = nbi_get32(p + 4 * i);
    if (h[NBI_AL_WIDTH] != g->width || h[NBI_AL_HEIGHT] != g->height)
        return BAD("for a %u x %u map, not this %u x %u one", h[NBI_AL_WIDTH], h[NBI_AL_HEIGHT],
                   g->width, g->height);
    lv->nlevels = h[NBI_AL_LEVELS];
    lv->factor = h[NBI_AL_FACTOR];
    lv->spacing = h[NBI_AL_SPACING];
    lv->flags = h[NBI_AL_FLAGS];
    lv->share = h[NBI_AL_SHARE];
    lv->nlandmarks = h[NBI_AL_LANDMARKS];
    if (lv->nlandmarks > NBI_LANDMARKS_MAX)
        return BAD("%u landmarks: expected 0 to %d", lv->nlandmarks, NBI_LANDMARKS_MAX);
    if (lv->share > 65535)
        return BAD("a share of %u cells: expected 0 to 65535", lv->share);
    if (lv->flags & ~NBI_ALEVELS_PATHS)
        return BAD("flags %#x: only bit 0 (paths) is defined", lv->flags);
    const int paths = (lv->flags & NBI_ALEVELS_PATHS) != 0;
    if (lv->nlevels < 2 || lv->nlevels > NBI_LEVELS_MAX)
        return BAD("%u levels: expected 2 to %d", lv->nlevels, NBI_LEVELS_MAX);
    if (lv->factor < 2 || lv->factor > NBI_LEVEL_FACTOR_MAX)
        return BAD("factor %u: expected 2 to %d", lv->factor, NBI_LEVEL_FACTOR_MAX);
    if (lv->spacing < 1 || lv->spacing > 64)
        return BAD("transition spacing 1/%u of a side: expected 1 to 64", lv->spacing);
    if (h[NBI_AL_CLUSTER] != g->cluster || h[NBI_AL_NCAPS] != g->ncaps ||
        h[NBI_AL_NSIZES] != g->nsizes || h[NBI_AL_GRAPH_NODES] != g->nnodes)
        return BAD("baked for another abstract graph (cluster %u, %u capabilities, %u sizes, %u "
                   "nodes); run mkabstract again",
                   h[NBI_AL_CLUSTER], h[NBI_AL_NCAPS], h[NBI_AL_NSIZES], h[NBI_AL_GRAPH_NODES]);
    for (int i = NBI_AL_WORDS; i < 16; i++)
        if (nbi_get32(p + 4 * i) != 0)
            return BAD("header word %d is %u, expected 0", i, nbi_get32(p + 4 * i));
    uint64_t start = levels_start(lv->nlevels);
    if (len < start)
        return BAD("%zu bytes, shorter than the records of its %u levels", len, lv->nlevels);
    uint64_t at = start;
    for (uint32_t l = 2; l <= lv->nlevels; l++) {
        const uint8_t *r = p + NBI_ALEVELS_HEADER + (size_t)NBI_ALEVELS_RECORD * (l - 2);
        nbi_alevel *v = &lv->lv[l], *below = &lv->lv[l - 1];
        uint64_t side = (uint64_t)below->side * lv->factor;
        v->side = side > UINT32_MAX ? UINT32_MAX : (uint32_t)side;
        v->ncx = nbi_get32(r + 4 * NBI_ALR_NCX);
        v->ncy = nbi_get32(r + 4 * NBI_ALR_NCY);
        v->nnodes = nbi_get32(r + 4 * NBI_ALR_NODES);
        v->narcs = nbi_get32(r + 4 * NBI_ALR_ARCS);
        v->ninter = nbi_get32(r + 4 * NBI_ALR_INTER);
        v->path_words = nbi_get32(r + 4 * NBI_ALR_PATH_WORDS);
        if (!paths && v->path_words)
            return BAD("level %u: %u path words, but no paths are stored", l, v->path_words);
        for (int i = NBI_ALR_WORDS; i < 8; i++)
            if (nbi_get32(r + 4 * i) != 0)
                return BAD("level %u: record word %d is %u, expected 0", l, i, nbi_get32(r + 4 * i));
        if (v->ncx != (below->ncx + lv->factor - 1) / lv->factor ||
            v->ncy != (below->ncy + lv->factor - 1) / lv->factor)
            return BAD("level %u: %u x %u clusters do not tile level %u's %u x %u by %u", l, v->ncx,
                       v->ncy, l - 1, below->ncx, below->ncy, lv->factor);
        if (v->nnodes > below->nnodes || v->ninter > v->narcs)
            return BAD("level %u: %u nodes (level %u has %u), %u inter-arcs of %u", l, v->nnodes,
                       l - 1, below->nnodes, v->ninter, v->narcs);
        uint64_t off[10];
        nbi_alevel_layout((uint64_t)v->ncx * v->ncy, v->nnodes, v->narcs, paths, v->path_words,
                          at, off);
        if (off[9] > len)
            return BAD("level %u: its arrays end at byte %llu, beyond the payload's %zu", l,
                       (unsigned long long)off[9], len);
        nbi_alevel_place(v, p, off, paths);
        at = off[9];
    }
    /* The landmarks asked, as many as the top level has nodes at most. */
    if (lv->nlandmarks > lv->lv[lv->nlevels].nnodes)
        lv->nlandmarks = lv->lv[lv->nlevels].nnodes;
    uint64_t lm[3];
    nbi_landmarks_layout(lv->nlandmarks, lv->lv[lv->nlevels].nnodes, at, lm);
    if (lv->nlandmarks) {
        if (lm[2] > len)
            return BAD("its landmarks end at byte %llu, beyond the payload's %zu",
                       (unsigned long long)lm[2], len);
        lv->lm_node = p + lm[0];
        lv->lm_dist = p + lm[1];
        at = lm[2];
    }
    if (at != len)
        return BAD("%zu bytes, expected %llu for its counts", len, (unsigned long long)at);
    return NB_OK;
}

/* Level l's nodes: each a node of level l - 1, on the border of its
 * cluster, listed under that cluster in ascending order of its number. */
static nb_status check_nodes(const nbi_alevels *L, uint32_t l, nb_err *err)
{
    const nbi_alevel *v = &L->lv[l];
    uint64_t ncl = (uint64_t)v->ncx * v->ncy;
    if (nbi_u32at(v->cluster_first, 0) != 0 || nbi_u32at(v->cluster_first, ncl) != v->nnodes)
        return BAD("level %u: the cluster index does not span its %u nodes", l, v->nnodes);
    for (uint64_t k = 0; k < ncl; k++) {
        uint32_t a = nbi_u32at(v->cluster_first, k), b = nbi_u32at(v->cluster_first, k + 1);
        if (b < a)
            return BAD("level %u: the cluster index decreases at cluster %llu", l,
                       (unsigned long long)k);
        nbi_box box = nbi_lv_box(L, l, (uint32_t)k);
        for (uint32_t u = a; u < b; u++) {
            uint32_t id = nbi_u32at(v->node_id, u);
            if (id >= L->g->nnodes || (u > a && id <= nbi_u32at(v->node_id, u - 1)))
                return BAD("level %u: node %u is node %u of the graph, out of range or out of "
                           "order",
                           l, u, id);
            nb_cell c = nbi_lv_cell(L, id);
            if (nbi_lv_cluster(L, l, (uint32_t)c.x, (uint32_t)c.y) != k)
                return BAD("level %u: node %u at (%d, %d) is not in its cluster %llu", l, u, c.x,
                           c.y, (unsigned long long)k);
            if (c.x != box.x0 && c.x != box.x1 - 1 && c.y != box.y0 && c.y != box.y1 - 1)
                return BAD("level %u: node %u at (%d, %d) is not on its cluster's border", l, u,
                           c.x, c.y);
            if (nbi_lv_index(L, l - 1, id) < 0)
                return BAD("level %u: node %u (node %u of the graph) is not a node of level %u", l,
                           u, id, l - 1);
        }
    }
    return NB_OK;
}

/* Scratch of the checks of the stored paths: a stamp per node of the level
 * below, so that a path coming back to a node is seen in one pass. */
typedef struct path_seen {
    const nb_allocator *a;
    uint32_t *stamp; /* [nodes of level l - 1] */
    size_t cap;
    uint32_t now;
} path_seen;

/* The cells of level l's cluster k (cut short by the map's edge). */
static uint64_t box_cells(const nbi_alevels *L, uint32_t l, uint32_t k)
{
    nbi_box box = nbi_lv_box(L, l, k);
    return (uint64_t)(box.x1 - box.x0) * (uint64_t)(box.y1 - box.y0);
}

/* Intra-arc a of level l joins nodes lo < hi (level l's numbers): its stored
 * path, read from lo, is a chain of arcs of level l - 1 each leaving the
 * node the one before reached, inside the arc's cluster, ending at hi; it
 * never comes back to a node it has passed (lo included), so it holds fewer
 * arcs than the cluster has nodes of level l - 1; and its arcs' weights add
 * up to the arc's own (what the bake's Dijkstra gives), so that refining
 * the arc down to cells gives as many steps as it weighs, fewer than its
 * cluster has cells (check_arcs).  A refinement then cannot multiply its
 * work from one level to the next (the file's comment at the top). */
static nb_status check_path(const nbi_alevels *L, uint32_t l, uint32_t a, uint32_t lo,
                            uint32_t hi, path_seen *seen, nb_err *err)
{
    const nbi_alevel *v = &L->lv[l];
    uint32_t off = nbi_u32at(v->arc_path, a);
    if (off == UINT32_MAX || off >= v->path_words)
        return BAD("level %u: arc %u: its path at %u lies beyond the %u path words", l, a, off,
                   v->path_words);
    uint32_t n = nbi_u32at(v->paths, off);
    if (n == 0 || n > v->path_words - off - 1 || n > L->lv[l - 1].nnodes)
        return BAD("level %u: arc %u: a path of %u arcs at %u does not fit", l, a, n, off);
    uint32_t idlo = nbi_lv_id(L, l, lo), idhi = nbi_lv_id(L, l, hi);
    nb_cell c0 = nbi_lv_cell(L, idlo);
    nbi_box box = nbi_lv_box(L, l, nbi_lv_cluster(L, l, (uint32_t)c0.x, (uint32_t)c0.y));
    long x = nbi_lv_index(L, l - 1, idlo);
    if (++seen->now == 0) { /* the stamps wrapped: start again */
        memset(seen->stamp, 0, L->lv[l - 1].nnodes * sizeof *seen->stamp);
        seen->now = 1;
    }
    if (x >= 0)
        seen->stamp[x] = seen->now;
    uint64_t card = 0, diag = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t e = nbi_u32at(v->paths, off + 1 + k), e0 = 0, e1 = 0;
        if (x >= 0)
            e1 = nbi_lv_arcs(L, l - 1, (uint32_t)x, &e0);
        if (x < 0 || e < e0 || e >= e1)
            return BAD("level %u: arc %u: step %u of its path is not an arc of the node it has "
                       "reached",
                       l, a, k);
        uint32_t ec, ed;
        nbi_lv_w(L, l - 1, e, &ec, &ed);
        card += ec;
        diag += ed;
        x = (long)nbi_lv_to(L, l - 1, e);
        nb_cell c = nbi_lv_cell(L, nbi_lv_id(L, l - 1, (uint32_t)x));
        if (c.x < box.x0 || c.y < box.y0 || c.x >= box.x1 || c.y >= box.y1)
            return BAD("level %u: arc %u: its path leaves the cluster at step %u", l, a, k);
        if (seen->stamp[x] == seen->now)
            return BAD("level %u: the edge of arc %u, from node %u to node %u: its stored path "
                       "comes back at step %u to node %u of level %u, which it has passed",
                       l, a, lo, hi, k, (uint32_t)x, l - 1);
        seen->stamp[x] = seen->now;
    }
    if (nbi_lv_id(L, l - 1, (uint32_t)x) != idhi)
        return BAD("level %u: arc %u: its path does not end at its other node", l, a);
    uint32_t wc, wd;
    nbi_lv_w(L, l, a, &wc, &wd);
    if (card != wc || diag != wd)
        return BAD("level %u: the edge of arc %u, from node %u to node %u, weighs %u + %u "
                   "sqrt(2), but its stored path %llu + %llu sqrt(2)",
                   l, a, lo, hi, wc, wd, (unsigned long long)card, (unsigned long long)diag);
    return NB_OK;
}

/* Level l's arcs: to another node of the level, annotated as level 1's
 * are; within a cluster no lighter than the octile distance (the searches'
 * heuristic stays consistent), across clusters one step between facing
 * cells. */
static nb_status check_arcs(const nbi_alevels *L, uint32_t l, path_seen *seen, nb_err *err)
{
    const nbi_alevel *v = &L->lv[l];
    if (nbi_u32at(v->node_first, 0) != 0 || nbi_u32at(v->node_first, v->nnodes) != v->narcs)
        return BAD("level %u: the adjacency index does not span its %u arcs", l, v->narcs);
    uint64_t inter = 0;
    for (uint32_t u = 0; u < v->nnodes; u++) {
        uint32_t a0, a1 = nbi_lv_arcs(L, l, u, &a0);
        if (a1 < a0)
            return BAD("level %u: the adjacency index decreases at node %u", l, u);
        nb_cell cu = nbi_lv_cell(L, nbi_lv_id(L, l, u));
        for (uint32_t a = a0; a < a1; a++) {
            uint32_t t = nbi_lv_to(L, l, a);
            if (t >= v->nnodes || t == u)
                return BAD("level %u: arc %u of node %u leads to node %u", l, a, u, t);
            const uint8_t *ann = nbi_lv_ann(L, l, a);
            if (ann[0] >= L->g->ncaps || ann[1] < 1 || ann[1] > NB_MAX_AGENT_SIZE)
                return BAD("level %u: arc %u: capability %u of %u, clearance %u", l, a, ann[0],
                           L->g->ncaps, ann[1]);
            uint32_t card, diag;
            nbi_lv_w(L, l, a, &card, &diag);
            nb_cell ct = nbi_lv_cell(L, nbi_lv_id(L, l, t));
            int32_t dx = cu.x > ct.x ? cu.x - ct.x : ct.x - cu.x;
            int32_t dy = cu.y > ct.y ? cu.y - ct.y : ct.y - cu.y;
            if (nbi_lv_cluster(L, l, (uint32_t)cu.x, (uint32_t)cu.y) !=
                nbi_lv_cluster(L, l, (uint32_t)ct.x, (uint32_t)ct.y)) {
                if (dx + dy != 1 || card != 1 || diag != 0)
                    return BAD("level %u: arc %u between clusters does not join facing cells "
                               "with one step",
                               l, a);
                if (v->arc_path && nbi_u32at(v->arc_path, a) != UINT32_MAX)
                    return BAD("level %u: arc %u between clusters has a stored path", l, a);
                inter++;
                continue;
            }
            int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
            if ((double)card + NBI_SQRT2 * diag < (hi - lo) + NBI_SQRT2 * lo - 1e-9 ||
                (uint64_t)card + diag < (uint64_t)hi)
                return BAD("level %u: arc %u: weight %u + %u sqrt(2) is shorter than the "
                           "distance it spans",
                           l, a, card, diag);
            uint64_t cells = box_cells(L, l, nbi_lv_cluster(L, l, (uint32_t)cu.x, (uint32_t)cu.y));
            if ((uint64_t)card + diag >= cells)
                return BAD("level %u: the edge of arc %u, from node %u to node %u, is %llu steps "
                           "long: a path inside its cluster of %llu cells is shorter",
                           l, a, u, t, (unsigned long long)card + diag, (unsigned long long)cells);
            if (v->arc_path) {
                nb_status st = check_path(L, l, a, u < t ? u : t, u < t ? t : u, seen, err);
                if (st != NB_OK)
                    return st;
            }
        }
    }
    if (inter != v->ninter)
        return BAD("level %u: %llu arcs between clusters, expected %u", l,
                   (unsigned long long)inter, v->ninter);
    return NB_OK;
}

/* The landmarks: nodes of the top level, each at distance 0 from itself,
 * and distances that no arc contradicts: along every arc u -> t (whatever
 * it admits) both ends are reached or neither, and |d(u) - d(t)| is at
 * most the arc's weight.  Then |d(x) - d(y)| is at most the length of any
 * path from x to y, for any agent, so the searches' bounds made from them
 * (levels_query.c) never overestimate, whatever the bundle says. */
static nb_status check_landmarks(const nbi_alevels *L, nb_err *err)
{
    const uint32_t top = L->nlevels, nl = L->nlandmarks;
    const nbi_alevel *v = &L->lv[top];
    for (uint32_t i = 0; i < nl; i++) {
        uint32_t n = nbi_u32at(L->lm_node, i);
        if (n >= NBI_LANDMARK_CORNER && n < NBI_LANDMARK_CORNER + 4)
            continue; /* a corner of the map: the arcs below are all its distances must obey */
        if (n >= v->nnodes)
            return BAD("landmark %u is node %u, beyond level %u's %u nodes", i, n, top, v->nnodes);
        if (nbi_lv_landmark(L, n, i) != 0)
            return BAD("landmark %u (node %u of level %u) is at distance %g from itself", i, n, top,
                       nbi_lv_landmark(L, n, i));
    }
    for (uint32_t u = 0; nl && u < v->nnodes; u++) {
        uint32_t a0, a1 = nbi_lv_arcs(L, top, u, &a0);
        for (uint32_t a = a0; a < a1; a++) {
            uint32_t t = nbi_lv_to(L, top, a), card, diag;
            nbi_lv_w(L, top, a, &card, &diag);
            double w = nbi_steps_length(card, diag);
            for (uint32_t i = 0; i < nl; i++) {
                double du = nbi_lv_landmark(L, u, i), dt = nbi_lv_landmark(L, t, i);
                double gap = du > dt ? du - dt : dt - du;
                if ((du < 0) != (dt < 0) || gap > w + 1e-9 * (1 + du + dt))
                    return BAD("landmark %u: nodes %u and %u of level %u, one arc apart (%g), "
                               "at distances %g and %g",
                               i, u, t, top, w, du, dt);
            }
        }
    }
    return NB_OK;
}

/* Every level's nodes and arcs, then the landmarks; the stored paths' checks take a stamp per
 * node of a level (from allocator a). */
static nb_status check_body(const nbi_alevels *L, const nb_allocator *a, nb_err *err)
{
    path_seen seen = {a, NULL, 0, 0};
    nb_status st = NB_OK;
    for (uint32_t l = 2; st == NB_OK && l <= L->nlevels; l++) {
        st = check_nodes(L, l, err);
        if (st == NB_OK && L->lv[l].arc_path && L->lv[l - 1].nnodes > seen.cap) {
            nbi_free(a, seen.stamp);
            seen.cap = L->lv[l - 1].nnodes;
            seen.stamp = nbi_zalloc_array(a, seen.cap, sizeof *seen.stamp);
            seen.now = 0;
            if (!seen.stamp)
                st = nbi_fail_nomem(err, "checking the abstract levels' stored paths");
        }
        if (st == NB_OK)
            st = check_arcs(L, l, &seen, err);
    }
    nbi_free(a, seen.stamp);
    return st == NB_OK ? check_landmarks(L, err) : st;
}

static nb_status view_with(const uint8_t *p, size_t len, const nbi_agraph *g, uint32_t crc,
                           const nb_allocator *a, nbi_alevels *lv, nb_err *err)
{
    nb_status st = view_header(p, len, g, lv, err);
    if (st == NB_OK && nbi_get32(p + 4 * NBI_AL_GRAPH_CRC) != crc)
        st = BAD("baked for another abstract graph (its CRC differs); run mkabstract again");
    return st == NB_OK ? check_body(lv, a, err) : st;
}

nb_status nbi_alevels_view(const uint8_t *p, size_t len, const nbi_agraph *g, uint32_t crc,
                           nbi_alevels *lv, nb_err *err)
{
    return view_with(p, len, g, crc, NULL, lv, err);
}

static nb_status levels_at(const nb_bundle *b, long idx, const nbi_agraph *g, nbi_alevels *lv,
                           nb_err *err);

static nb_status check_section(const nb_bundle *b, size_t index, nb_err *err)
{
    nbi_agraph g;
    nb_status st = nbi_agraph_find(b, &g, err);
    if (st != NB_OK)
        return st;
    const struct nbi_section *s = &b->sections[index];
    nbi_alevels lv;
    st = view_with(s->payload, (size_t)s->info.usize, &g, nbi_agraph_crc(b, &g), b->a, &lv, err);
    if (st != NB_OK)
        nbi_err_prefix(err, "%s: section %zu", b->path, index);
    return st;
}

nb_status nbi_alevels_find(const nb_bundle *b, const nbi_agraph *g, nbi_alevels *lv, nb_err *err)
{
    long idx = nbi_section_index(b, NB_SEC_ABSTRACT_LEVELS, NULL, NULL, 0);
    if (idx < 0)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no abstract levels", b->path);
    return levels_at(b, idx, g, lv, err);
}

nb_status nbi_alevels_section_check(const nb_bundle *b, size_t index, nb_err *err)
{
    nbi_agraph g;
    nbi_alevels lv;
    nb_status st = nbi_agraph_under(b, index, &g, err);
    return st == NB_OK ? levels_at(b, (long)index, &g, &lv, err) : st;
}

static nb_status levels_at(const nb_bundle *b, long idx, const nbi_agraph *g, nbi_alevels *lv,
                           nb_err *err)
{
    const struct nbi_section *s = &b->sections[idx];
    if (s->info.version != NBI_ALEVELS_VERSION && s->info.version != 1)
        return nbi_fail(err, NB_ERR_VERSION,
                        "%s: section %ld (abstract_levels) has version %u; this reader knows "
                        "versions 1 and %d",
                        b->path, idx, s->info.version, NBI_ALEVELS_VERSION);
    if (NB_ENC_LAYOUT(s->info.encoding) != NB_ENC_RAW || s->payload == NULL ||
        (NB_ENC_COMPRESSION(s->info.encoding) && s->payload == s->stored))
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %ld (abstract_levels): encoding %s, expected raw", b->path,
                        idx, nb_encoding_name(s->info.encoding));
    nb_status st = view_header(s->payload, (size_t)s->info.usize, g, lv, err);
    if (st != NB_OK) {
        nbi_err_prefix(err, "%s: section %ld", b->path, idx);
        return st;
    }
    const nb_section_info *in = &s->info;
    uint64_t nodes = 0, arcs = 0;
    for (uint32_t l = 2; l <= lv->nlevels; l++) {
        nodes += lv->lv[l].nnodes;
        arcs += lv->lv[l].narcs;
    }
    if (in->param[0] != lv->nlevels || in->param[1] != lv->factor ||
        in->param[2] != nbi_get32(s->payload + 4 * NBI_AL_GRAPH_CRC) || in->param[3] != nodes ||
        in->param[4] != arcs)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %ld (abstract_levels): the section table and the payload "
                        "disagree on its levels, factor, graph or counts",
                        b->path, idx);
    st = nbi_section_checked(b, (size_t)idx, check_section, err);
    if (st != NB_OK)
        return st;
    lv->section = idx;
    return NB_OK;
}
