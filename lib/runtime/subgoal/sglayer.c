/* sglayer.c: the runtime's reading of a subgoal layer (formats/subgoal.md).
 * Everything a query relies on is checked here, once, when a workspace is
 * made: the header against the map and the section table, every array
 * inside the payload, the bitmaps' padding and ranks, each node's cell,
 * and each edge (its target a higher level, a shortcut's two halves
 * present and adding up, an original edge as long as the octile distance
 * between its ends).  A query then reads the layer in place without a
 * bound check of its own and cannot be led outside the payload, into a
 * loop, or to a cell off the map.  Nor beyond its work's bound
 * (formats/subgoal.md): unpacking a shortcut gives as many original edges
 * as its steps at most (each a step or more, the halves adding up), and
 * every edge is fewer steps than the map has cells; sgsearch.c refuses a
 * path of more steps than that before it unpacks it. */
#include "subgoal/subgoal.h"

#define ALIGN8(n) (((n) + 7) & ~(uint64_t)7)

int nbi_sg_layout_of(uint32_t w, uint32_t h, uint32_t n, uint32_t e, nbi_sg_layout *out)
{
    /* Every factor is below 2^32 and every product below 2^38: no sum
     * below can overflow 64 bits. */
    uint64_t rw = nbi_sg_words(w), cw = nbi_sg_words(h);
    uint64_t at = NBI_SG_HEADER;
    out->free_rows = at;
    at += (uint64_t)h * rw * 8;
    out->sub_rows = at;
    at += (uint64_t)h * rw * 8;
    out->pass_cols = at;
    at += (uint64_t)w * cw * 8;
    out->rank = at;
    at += ALIGN8((uint64_t)h * rw * 4);
    out->cells = at;
    at += ALIGN8((uint64_t)n * 4);
    out->level = at;
    at += ALIGN8((uint64_t)n * 4);
    out->first = at;
    at += ALIGN8(((uint64_t)n + 1) * 4);
    out->edges = at;
    at += (uint64_t)e * NBI_SG_EDGE_RECORD;
    out->total = at;
    return 1;
}

uint32_t nbi_sg_edge_to(const nbi_sglayer *l, uint32_t v, uint32_t t)
{
    for (uint32_t e = nbi_u32at(l->first, v), end = nbi_u32at(l->first, v + 1); e < end; e++)
        if (nbi_get32(l->edges + (size_t)e * NBI_SG_EDGE_RECORD + NBI_SG_E_TARGET) == t)
            return e;
    return UINT32_MAX;
}

#define FAIL(...) nbi_fail(err, NB_ERR_FORMAT, __VA_ARGS__)

/* The bitmaps: nothing past the map's edge, subgoals only on free cells,
 * each row word's rank the subgoals before it, and nodes as many as
 * subgoals. */
static nb_status check_bitmaps(const nb_bundle *b, size_t idx, const nbi_sglayer *l, nb_err *err)
{
    const nbi_sggrid *g = &l->grid;
    uint64_t last = g->width % 64 ? (((uint64_t)1) << (g->width % 64)) - 1 : ~(uint64_t)0;
    uint64_t count = 0;
    for (uint32_t y = 0; y < g->height; y++)
        for (uint32_t k = 0; k < g->row_words; k++) {
            size_t i = (size_t)y * g->row_words + k;
            uint64_t f = nbi_sg_word(g->free_rows, i), s = nbi_sg_word(g->sub_rows, i);
            uint64_t in = k + 1 == g->row_words ? last : ~(uint64_t)0;
            if ((f | s) & ~in)
                return FAIL("%s: section %zu (subgoal): row %u has bits past the map's edge",
                            b->path, idx, y);
            if (s & ~f)
                return FAIL("%s: section %zu (subgoal): row %u has a subgoal on a cell the agent "
                            "cannot stand on", b->path, idx, y);
            if (nbi_u32at(l->rank, i) != count)
                return FAIL("%s: section %zu (subgoal): the rank of row %u, word %u is %u, but %llu "
                            "subgoals come before it", b->path, idx, y, k, nbi_u32at(l->rank, i),
                            (unsigned long long)count);
            count += nbp_popcount64(s);
        }
    if (count != l->nodes)
        return FAIL("%s: section %zu (subgoal): %llu subgoals in the bitmap, %u nodes", b->path,
                    idx, (unsigned long long)count, l->nodes);
    /* The columns: each bit the free cell that is not a subgoal, as the
     * rows say (so a scan north or south stops where one east or west
     * would), and nothing past the map's edge. */
    for (uint32_t x = 0; x < g->width; x++)
        for (uint32_t k = 0; k < g->col_words; k++) {
            uint64_t want = 0;
            for (uint32_t i = 0; i < 64 && 64 * k + i < g->height; i++) {
                uint32_t y = 64 * k + i;
                size_t r = (size_t)y * g->row_words + (x >> 6);
                uint64_t pass = nbi_sg_word(g->free_rows, r) & ~nbi_sg_word(g->sub_rows, r);
                want |= ((pass >> (x & 63)) & 1u) << i;
            }
            if (nbi_sg_word(g->pass_cols, (size_t)x * g->col_words + k) != want)
                return FAIL("%s: section %zu (subgoal): column %u, rows %u to %u, disagrees with "
                            "the rows' free cells and subgoals", b->path, idx, x, 64 * k,
                            64 * k + 63);
        }
    return NB_OK;
}

/* Nodes: cells increasing, each a subgoal of the bitmap; so node i is the
 * i-th subgoal in row-major order, which is what nbi_sg_node_at counts.
 * First edges: from 0, never decreasing, to the edge count. */
static nb_status check_nodes(const nb_bundle *b, size_t idx, const nbi_sglayer *l, nb_err *err)
{
    uint64_t cells = (uint64_t)l->grid.width * l->grid.height;
    for (uint32_t i = 0; i < l->nodes; i++) {
        uint32_t c = nbi_u32at(l->cells, i);
        if (c >= cells || (i > 0 && c <= nbi_u32at(l->cells, i - 1)))
            return FAIL("%s: section %zu (subgoal): node %u's cell %u is %s", b->path, idx, i, c,
                        c >= cells ? "off the map" : "not after the node before it");
        nb_cell at = nbi_sg_node_cell(l, i);
        if (!nbi_sg_is_subgoal(&l->grid, at.x, at.y))
            return FAIL("%s: section %zu (subgoal): node %u at (%d, %d) is not a subgoal of the "
                        "bitmap", b->path, idx, i, at.x, at.y);
    }
    if (nbi_u32at(l->first, 0) != 0 || nbi_u32at(l->first, l->nodes) != l->nedges)
        return FAIL("%s: section %zu (subgoal): the edge lists run from %u to %u, expected 0 to "
                    "%u", b->path, idx, nbi_u32at(l->first, 0), nbi_u32at(l->first, l->nodes),
                    l->nedges);
    for (uint32_t i = 0; i < l->nodes; i++)
        if (nbi_u32at(l->first, i + 1) < nbi_u32at(l->first, i))
            return FAIL("%s: section %zu (subgoal): node %u's edges end before they start",
                        b->path, idx, i);
    return NB_OK;
}

/* Edges: each to another node of a higher level; an original one (no
 * mid) as long as the octile distance between its ends; a shortcut through
 * a node of a lower level than both ends, whose two edges to them exist
 * and add up to it.  So unpacking a shortcut ends (levels fall) and gives
 * a path of exactly the shortcut's steps. */
static nb_status check_edges(const nb_bundle *b, size_t idx, const nbi_sglayer *l, nb_err *err)
{
    uint64_t cells = (uint64_t)l->grid.width * l->grid.height;
    uint32_t top = 0; /* the core's level */
    for (uint32_t v = 0; v < l->nodes; v++)
        if (nbi_u32at(l->level, v) > top)
            top = nbi_u32at(l->level, v);
    for (uint32_t v = 0; v < l->nodes; v++) {
        uint32_t lv = nbi_u32at(l->level, v);
        nb_cell cv = nbi_sg_node_cell(l, v);
        for (uint32_t e = nbi_u32at(l->first, v); e < nbi_u32at(l->first, v + 1); e++) {
            const uint8_t *r = l->edges + (size_t)e * NBI_SG_EDGE_RECORD;
            uint32_t t = nbi_get32(r + NBI_SG_E_TARGET), mid = nbi_get32(r + NBI_SG_E_MID);
            uint32_t card = nbi_get32(r + NBI_SG_E_CARDINAL), diag = nbi_get32(r + NBI_SG_E_DIAGONAL);
            if (t >= l->nodes || t == v || nbi_u32at(l->level, t) < lv ||
                (nbi_u32at(l->level, t) == lv && lv != top))
                return FAIL("%s: section %zu (subgoal): edge %u of node %u leads to %u, expected "
                            "another node of a higher level, or of the core's (the top level)",
                            b->path, idx, e, v, t);
            if ((uint64_t)card + diag >= cells)
                return FAIL("%s: section %zu (subgoal): edge %u of node %u is %u steps long, "
                            "more than the map has cells", b->path, idx, e, v, card + diag);
            if (mid == NBI_SG_NO_MID) {
                nb_cell ct = nbi_sg_node_cell(l, t);
                uint32_t ax = (uint32_t)(ct.x > cv.x ? ct.x - cv.x : cv.x - ct.x);
                uint32_t ay = (uint32_t)(ct.y > cv.y ? ct.y - cv.y : cv.y - ct.y);
                uint32_t dg = ax < ay ? ax : ay;
                if (diag != dg || card != (ax > ay ? ax : ay) - dg)
                    return FAIL("%s: section %zu (subgoal): edge %u of node %u is %u cardinal and "
                                "%u diagonal steps, not the octile distance between its ends",
                                b->path, idx, e, v, card, diag);
                continue;
            }
            if (mid >= l->nodes || nbi_u32at(l->level, mid) >= lv)
                return FAIL("%s: section %zu (subgoal): edge %u of node %u passes node %u, "
                            "expected one of a lower level", b->path, idx, e, v, mid);
            uint32_t e1 = nbi_sg_edge_to(l, mid, v), e2 = nbi_sg_edge_to(l, mid, t);
            if (e1 == UINT32_MAX || e2 == UINT32_MAX)
                return FAIL("%s: section %zu (subgoal): edge %u of node %u passes node %u, which "
                            "has no edge to %u", b->path, idx, e, v, mid,
                            e1 == UINT32_MAX ? v : t);
            const uint8_t *r1 = l->edges + (size_t)e1 * NBI_SG_EDGE_RECORD;
            const uint8_t *r2 = l->edges + (size_t)e2 * NBI_SG_EDGE_RECORD;
            uint64_t c12 = (uint64_t)nbi_get32(r1 + NBI_SG_E_CARDINAL) +
                           nbi_get32(r2 + NBI_SG_E_CARDINAL);
            uint64_t d12 = (uint64_t)nbi_get32(r1 + NBI_SG_E_DIAGONAL) +
                           nbi_get32(r2 + NBI_SG_E_DIAGONAL);
            if (c12 != card || d12 != diag)
                return FAIL("%s: section %zu (subgoal): edge %u of node %u is not the sum of the "
                            "two edges it replaces", b->path, idx, e, v);
        }
    }
    return NB_OK;
}

nb_status nbi_subgoal_section_check(const nb_bundle *b, size_t idx, nb_err *err)
{
    nbi_sglayer l;
    return nbi_sglayer_at(b, idx, &l, err);
}

nb_status nbi_sglayer_at(const nb_bundle *b, size_t idx, nbi_sglayer *out, nb_err *err)
{
    if (idx >= b->nsections || b->sections[idx].info.type != NB_SEC_SUBGOAL)
        return nbi_fail(err, NB_ERR_ARG, "%s: section %zu is not a subgoal layer", b->path, idx);
    const struct nbi_section *s = &b->sections[idx];
    const nb_section_info *in = &s->info;
    if (!b->has_map)
        return FAIL("%s: a subgoal layer but no map", b->path);
    if (in->version != NBI_SUBGOAL_VERSION)
        return nbi_fail(err, NB_ERR_VERSION,
                        "%s: section %zu (subgoal) has version %u; this reader knows version %u",
                        b->path, idx, in->version, NBI_SUBGOAL_VERSION);
    if (NB_ENC_LAYOUT(in->encoding) != NB_ENC_RAW || s->payload == NULL ||
        (NB_ENC_COMPRESSION(in->encoding) && s->payload == s->stored))
        return FAIL("%s: section %zu (subgoal): encoding %s, expected raw", b->path, idx,
                    nb_encoding_name(in->encoding));
    const uint8_t *p = s->payload;
    uint64_t len = in->usize;
    if (len < NBI_SG_HEADER)
        return FAIL("%s: section %zu (subgoal): %llu bytes, shorter than its header", b->path, idx,
                    (unsigned long long)len);
    uint32_t hw[NBI_SG_WORDS];
    for (unsigned i = 0; i < NBI_SG_WORDS; i++)
        hw[i] = nbi_u32at(p, i);
    for (unsigned i = NBI_SG_WORDS * 4; i < NBI_SG_HEADER; i++)
        if (p[i])
            return FAIL("%s: section %zu (subgoal): header byte %u is not zero", b->path, idx, i);
    if (hw[NBI_SG_WIDTH] != b->width || hw[NBI_SG_HEIGHT] != b->height)
        return FAIL("%s: section %zu (subgoal) is %u x %u cells but the map is %u x %u", b->path,
                    idx, hw[NBI_SG_WIDTH], hw[NBI_SG_HEIGHT], b->width, b->height);
    if (hw[NBI_SG_SIZE] < 1 || hw[NBI_SG_SIZE] > NB_MAX_AGENT_SIZE)
        return FAIL("%s: section %zu (subgoal): agent size %u, expected 1 to %d", b->path, idx,
                    hw[NBI_SG_SIZE], NB_MAX_AGENT_SIZE);
    if (hw[NBI_SG_CORNER] != NB_CORNER_STRICT && hw[NBI_SG_CORNER] != NB_CORNER_WEAK)
        return FAIL("%s: section %zu (subgoal): corner rule %u, expected 0 (strict) or 1 (weak)",
                    b->path, idx, hw[NBI_SG_CORNER]);
    if (hw[NBI_SG_ROW_WORDS] != nbi_sg_words(b->width) ||
        hw[NBI_SG_COL_WORDS] != nbi_sg_words(b->height))
        return FAIL("%s: section %zu (subgoal): %u words a row and %u a column, expected %u and %u",
                    b->path, idx, hw[NBI_SG_ROW_WORDS], hw[NBI_SG_COL_WORDS],
                    nbi_sg_words(b->width), nbi_sg_words(b->height));
    if (hw[NBI_SG_FLAGS] != 0)
        return FAIL("%s: section %zu (subgoal): flags %#x, this reader knows none", b->path, idx,
                    hw[NBI_SG_FLAGS]);
    if ((uint64_t)hw[NBI_SG_NODES] > (uint64_t)b->width * b->height ||
        hw[NBI_SG_ORIGINAL] > hw[NBI_SG_EDGES])
        return FAIL("%s: section %zu (subgoal): %u nodes, %u edges of which %u original: more "
                    "than the map or the edges can hold", b->path, idx, hw[NBI_SG_NODES],
                    hw[NBI_SG_EDGES], hw[NBI_SG_ORIGINAL]);
    if (in->param[0] != hw[NBI_SG_CAPABILITY] || in->param[1] != hw[NBI_SG_SIZE] ||
        in->param[2] != hw[NBI_SG_CORNER] || in->param[3] != hw[NBI_SG_NODES] ||
        in->param[4] != hw[NBI_SG_EDGES])
        return FAIL("%s: section %zu (subgoal): the section table and the payload disagree on its "
                    "capability, size, corner rule, nodes or edges", b->path, idx);
    nbi_sg_layout lay;
    nbi_sg_layout_of(b->width, b->height, hw[NBI_SG_NODES], hw[NBI_SG_EDGES], &lay);
    if (len != lay.total)
        return FAIL("%s: section %zu (subgoal): %llu bytes, expected %llu for %u x %u cells, %u "
                    "nodes and %u edges", b->path, idx, (unsigned long long)len,
                    (unsigned long long)lay.total, b->width, b->height, hw[NBI_SG_NODES],
                    hw[NBI_SG_EDGES]);
    nbi_sglayer l;
    memset(&l, 0, sizeof l);
    l.grid.free_rows = p + lay.free_rows;
    l.grid.sub_rows = p + lay.sub_rows;
    l.grid.pass_cols = p + lay.pass_cols;
    l.grid.width = b->width;
    l.grid.height = b->height;
    l.grid.row_words = hw[NBI_SG_ROW_WORDS];
    l.grid.col_words = hw[NBI_SG_COL_WORDS];
    l.grid.strict = hw[NBI_SG_CORNER] == NB_CORNER_STRICT;
    l.rank = p + lay.rank;
    l.cells = p + lay.cells;
    l.level = p + lay.level;
    l.first = p + lay.first;
    l.edges = p + lay.edges;
    l.nodes = hw[NBI_SG_NODES];
    l.nedges = hw[NBI_SG_EDGES];
    l.original = hw[NBI_SG_ORIGINAL];
    l.size = hw[NBI_SG_SIZE];
    l.cap = hw[NBI_SG_CAPABILITY];
    l.corner = (nb_corner)hw[NBI_SG_CORNER];
    l.section = (long)idx;
    nb_status st;
    if ((st = check_bitmaps(b, idx, &l, err)) != NB_OK || (st = check_nodes(b, idx, &l, err)) != NB_OK ||
        (st = check_edges(b, idx, &l, err)) != NB_OK)
        return st;
    *out = l;
    return NB_OK;
}
