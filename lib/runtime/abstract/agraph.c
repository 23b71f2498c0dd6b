/* agraph.c: the runtime's reading of an abstract graph section
 * (formats/abstract.md).  Every count, offset, index and annotation is
 * checked here, so that a search may then index the arrays in the mapped
 * file without a check per read: the header and the arrays' places
 * whenever a view is made (O(1)), and the arrays' contents (every node,
 * arc and stored path: O(the graph)) once per bundle, however many
 * workspaces and threads use the graph (bundle/checked.c).
 *
 * What bounds a query's work on any graph that passes (haa.c says how a
 * query spends it): a node has the arcs its adjacency index gives, each
 * read once an expansion; a stored path is fewer steps than its cluster
 * has cells and never comes back to a cell it has passed, so refining an
 * edge appends fewer than N^2 cells, each once. */
#include <stdio.h>

#include "abstract/abstract.h"

const char *nbi_quality_name(uint32_t q)
{
    switch (q) {
    case NBI_QUALITY_INITIAL: return "initial";
    case NBI_QUALITY_HIGH: return "high";
    case NBI_QUALITY_LOW: return "low";
    }
    return NULL;
}

const char *nbi_placement_name(uint32_t p)
{
    switch (p) {
    case NBI_PLACE_FIRST: return "first";
    case NBI_PLACE_MIDDLE: return "middle";
    case NBI_PLACE_SPREAD: return "spread";
    case NBI_PLACE_ENDS: return "ends";
    }
    return NULL;
}

static uint64_t align8(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

void nbi_agraph_layout(uint32_t ncaps, uint32_t nsizes, uint64_t nclusters, uint64_t nnodes,
                   uint64_t nedges, int paths, uint64_t path_bytes, uint64_t off[11])
{
    uint64_t narcs = 2 * nedges, at = NBI_ABSTRACT_HEADER;
    const uint64_t len[10] = {4 * ncaps,           4 * nsizes, 4 * (nclusters + 1), 4 * nnodes,
                              4 * (nnodes + 1),    4 * narcs,  4 * narcs,           2 * narcs,
                              paths ? 4 * narcs : 0, paths ? path_bytes : 0};
    for (int i = 0; i < 10; i++) {
        off[i] = at;
        at = align8(at + len[i]);
    }
    off[10] = at;
}

uint64_t nbi_agraph_bytes(uint32_t ncaps, uint32_t nsizes, uint64_t nclusters, uint64_t nnodes,
                          uint64_t nedges, int paths, uint64_t path_bytes)
{
    uint64_t off[11];
    nbi_agraph_layout(ncaps, nsizes, nclusters, nnodes, nedges, paths, path_bytes, off);
    return off[10];
}

#define BAD(...) nbi_fail(err, NB_ERR_FORMAT, "abstract graph: " __VA_ARGS__)

/* A bit per cell of one cluster (NBI_CLUSTER_MAX a side at most): the cells a
 * stored path has passed. */
typedef uint8_t path_cells[(NBI_CLUSTER_MAX * NBI_CLUSTER_MAX + 7) / 8];

/* Checks the stored path of arc a, which joins nodes u and v: the path is
 * stored once, from the lower node to the higher, and both arcs of the edge
 * may point at it, so every arc is checked, whichever way it runs.  A path
 * stays inside its cluster and never comes back to a cell it has passed,
 * so it is shorter than its cluster has cells and refining it costs at
 * most that (the work a query may do, the file's comment at the top);
 * passed holds no bit before and after. */
static nb_status check_path(const nbi_agraph *g, size_t a, uint32_t u, uint32_t v,
                            uint8_t *passed, nb_err *err)
{
    if (u > v) {
        uint32_t t = u;
        u = v;
        v = t;
    }
    uint32_t off = nbi_u32at(g->arc_path, a);
    uint32_t steps = nbi_agraph_arc_steps(g, a);
    if (off > 2 * (uint64_t)g->path_bytes || steps > 2 * (uint64_t)g->path_bytes - off)
        return BAD("arc %zu: its path (%u steps at %u) lies beyond the moves", a, steps, off);
    if (steps >= (uint64_t)g->cluster * g->cluster)
        return BAD("arc %zu: its path of %u steps is longer than its %u x %u cluster allows", a,
                   steps, g->cluster, g->cluster);
    const int32_t x0 = nbi_u16at(g->node_xy, 2 * (size_t)u), y0 = nbi_u16at(g->node_xy, 2 * (size_t)u + 1);
    nbi_box box = nbi_cluster_box(nbi_node_cluster(g, (uint32_t)x0, (uint32_t)y0), g->ncx, g->cluster,
                                  g->width, g->height);
    int32_t x = x0, y = y0;
    uint32_t diag = 0, k = 0;
    nb_status st = NB_OK;
    for (;; k++) {
        uint32_t bit = (uint32_t)(y - box.y0) * g->cluster + (uint32_t)(x - box.x0);
        if (passed[bit / 8] & (1u << (bit % 8))) {
            st = BAD("the edge of arc %zu, from node %u to node %u: its stored path comes back "
                     "to cell (%d, %d) at step %u",
                     a, u, v, x, y, k - 1);
            break;
        }
        passed[bit / 8] = (uint8_t)(passed[bit / 8] | (1u << (bit % 8)));
        if (k == steps)
            break;
        uint32_t n = off + k;
        unsigned code = (g->moves[n / 2] >> (4 * (n % 2))) & 15u;
        if (code > 7) {
            st = BAD("arc %zu: move code %u at step %u", a, code, k);
            break;
        }
        x += nbi_move_dx[code];
        y += nbi_move_dy[code];
        diag += code >= 4;
        if (x < box.x0 || y < box.y0 || x >= box.x1 || y >= box.y1) {
            st = BAD("arc %zu: its path leaves the cluster at step %u", a, k);
            break;
        }
    }
    /* The bits set, walked again and cleared: the cells up to step k. */
    for (uint32_t i = 0, cx = (uint32_t)x0, cy = (uint32_t)y0;; i++) {
        uint32_t bit = (cy - (uint32_t)box.y0) * g->cluster + (cx - (uint32_t)box.x0);
        passed[bit / 8] = (uint8_t)(passed[bit / 8] & ~(1u << (bit % 8)));
        if (i >= k || i >= steps)
            break;
        uint32_t n = off + i;
        unsigned code = (g->moves[n / 2] >> (4 * (n % 2))) & 15u;
        cx = (uint32_t)((int32_t)cx + nbi_move_dx[code & 7u]);
        cy = (uint32_t)((int32_t)cy + nbi_move_dy[code & 7u]);
    }
    if (st != NB_OK)
        return st;
    if (x != nbi_u16at(g->node_xy, 2 * (size_t)v) || y != nbi_u16at(g->node_xy, 2 * (size_t)v + 1) ||
        diag != nbi_u16at(g->arc_w, 2 * a + 1))
        return BAD("arc %zu: its path does not end at node %u with its weight", a, v);
    return NB_OK;
}

/* The header, checked, and the places of the arrays: O(1). */
static nb_status view_header(const uint8_t *p, size_t len, uint32_t width, uint32_t height,
                             nbi_agraph *g, nb_err *err)
{
    memset(g, 0, sizeof *g);
    g->section = -1;
    if (len < NBI_ABSTRACT_HEADER)
        return BAD("%zu bytes, shorter than its %d-byte header", len, NBI_ABSTRACT_HEADER);
    uint32_t h[NBI_AB_WORDS];
    for (int i = 0; i < NBI_AB_WORDS; i++)
        h[i] = nbi_get32(p + 4 * i);
    g->width = h[NBI_AB_WIDTH];
    g->height = h[NBI_AB_HEIGHT];
    g->cluster = h[NBI_AB_CLUSTER];
    g->quality = h[NBI_AB_QUALITY];
    g->corner = h[NBI_AB_CORNER];
    g->placement = h[NBI_AB_PLACEMENT];
    g->spread = h[NBI_AB_SPREAD];
    g->ncaps = h[NBI_AB_NCAPS];
    g->nsizes = h[NBI_AB_NSIZES];
    g->ncx = h[NBI_AB_NCX];
    g->ncy = h[NBI_AB_NCY];
    g->nnodes = h[NBI_AB_NODES];
    g->nedges = h[NBI_AB_EDGES];
    g->ninter = h[NBI_AB_INTER];
    g->flags = h[NBI_AB_FLAGS];
    g->path_bytes = h[NBI_AB_PATH_BYTES];
    if (g->width != width || g->height != height)
        return BAD("built for a %u x %u map, but the map is %u x %u", g->width, g->height, width,
                   height);
    if (g->cluster < 1 || g->cluster > NBI_CLUSTER_MAX)
        return BAD("cluster size %u, expected 1 to %d", g->cluster, NBI_CLUSTER_MAX);
    if (g->ncx != (width + g->cluster - 1) / g->cluster ||
        g->ncy != (height + g->cluster - 1) / g->cluster)
        return BAD("%u x %u clusters do not tile a %u x %u map in clusters of %u", g->ncx, g->ncy,
                   width, height, g->cluster);
    if (g->quality > NBI_QUALITY_LOW || g->corner > 1 || g->placement > NBI_PLACE_ENDS)
        return BAD("quality %u, corner rule %u, placement %u: unknown", g->quality, g->corner,
                   g->placement);
    /* The repair under an overlay places transitions again by it (transitions.c). */
    if ((g->placement == NBI_PLACE_SPREAD || g->placement == NBI_PLACE_ENDS) && g->spread < 1)
        return BAD("placement %s with a spread of 0 cells", g->placement == NBI_PLACE_SPREAD
                                                                 ? "spread" : "ends");
    if (g->ncaps < 1 || g->ncaps > 256 || g->nsizes < 1 || g->nsizes > NB_MAX_AGENT_SIZE)
        return BAD("%u capabilities and %u sizes, expected 1 to 256 and 1 to %d", g->ncaps,
                   g->nsizes, NB_MAX_AGENT_SIZE);
    if ((g->flags & ~NBI_AGRAPH_PATHS) || (!(g->flags & NBI_AGRAPH_PATHS) && g->path_bytes))
        return BAD("flags %#x with %u path bytes", g->flags, g->path_bytes);
    if (g->ninter > g->nedges || g->nedges > UINT32_MAX / 2)
        return BAD("%u inter-edges among %u edges", g->ninter, g->nedges);
    uint64_t ncl = (uint64_t)g->ncx * g->ncy, off[11];
    int paths = (g->flags & NBI_AGRAPH_PATHS) != 0;
    nbi_agraph_layout(g->ncaps, g->nsizes, ncl, g->nnodes, g->nedges, paths, g->path_bytes, off);
    if (off[10] != len)
        return BAD("%zu bytes, expected %llu for its counts", len, (unsigned long long)off[10]);
    g->caps = p + off[0];
    g->sizes = p + off[1];
    g->cluster_first = p + off[2];
    g->node_xy = p + off[3];
    g->node_first = p + off[4];
    g->arc_to = p + off[5];
    g->arc_w = p + off[6];
    g->arc_ann = p + off[7];
    g->arc_path = paths ? p + off[8] : NULL;
    g->moves = paths ? p + off[9] : NULL;
    return NB_OK;
}

/* The arrays' contents, every entry: O(the graph). */
static nb_status check_body(const nbi_agraph *g, nb_err *err)
{
    const uint32_t width = g->width, height = g->height;
    const uint64_t ncl = (uint64_t)g->ncx * g->ncy;
    const int paths = (g->flags & NBI_AGRAPH_PATHS) != 0;
    /* Each capability once: an arc's annotation names one by its index, and the SQLite form
     * keys the graph's (capability, size) pairs (at most 256 capabilities: a square is cheap). */
    for (uint32_t i = 0; i < g->ncaps; i++) {
        uint32_t c = nbi_u32at(g->caps, i);
        if (c == 0)
            return BAD("capability %u is empty", i);
        for (uint32_t j = 0; j < i; j++)
            if (nbi_u32at(g->caps, j) == c)
                return BAD("capability %u is capability %u again (0x%x)", i, j, c);
    }
    for (uint32_t i = 0; i < g->nsizes; i++) {
        uint32_t s = nbi_u32at(g->sizes, i);
        if (s < 1 || s > NB_MAX_AGENT_SIZE || (i && s <= nbi_u32at(g->sizes, i - 1)))
            return BAD("sizes must ascend from 1 to %d (size %u is %u)", NB_MAX_AGENT_SIZE, i, s);
    }
    if (nbi_u32at(g->cluster_first, 0) != 0 || nbi_u32at(g->cluster_first, ncl) != g->nnodes)
        return BAD("the cluster index does not span the %u nodes", g->nnodes);
    for (uint64_t k = 0; k < ncl; k++) {
        uint32_t a = nbi_u32at(g->cluster_first, k), b = nbi_u32at(g->cluster_first, k + 1);
        if (b < a)
            return BAD("the cluster index decreases at cluster %llu", (unsigned long long)k);
        /* A node is a transition cell on its cluster's border; nodes are
         * listed in row-major order of their cells, each once, so no cluster
         * holds more nodes than its border has cells (what a query's
         * insertion of start and goal makes room for). */
        nbi_box box = nbi_cluster_box((uint32_t)k, g->ncx, g->cluster, width, height);
        uint64_t prev = 0;
        for (uint32_t u = a; u < b; u++) {
            uint32_t x = nbi_u16at(g->node_xy, 2 * (size_t)u), y = nbi_u16at(g->node_xy, 2 * (size_t)u + 1);
            if (x >= width || y >= height || nbi_node_cluster(g, x, y) != k)
                return BAD("node %u at (%u, %u) is not in its cluster %llu", u, x, y,
                           (unsigned long long)k);
            if ((int32_t)x != box.x0 && (int32_t)x != box.x1 - 1 && (int32_t)y != box.y0 &&
                (int32_t)y != box.y1 - 1)
                return BAD("node %u at (%u, %u) is not on the border of its cluster %llu", u, x,
                           y, (unsigned long long)k);
            uint64_t cell = (uint64_t)y * width + x + 1;
            if (cell <= prev)
                return BAD("node %u at (%u, %u) comes after a node of the same or a later cell", u,
                           x, y);
            prev = cell;
        }
    }
    uint64_t narcs = 2 * (uint64_t)g->nedges;
    if (nbi_u32at(g->node_first, 0) != 0 || nbi_u32at(g->node_first, g->nnodes) != narcs)
        return BAD("the adjacency index does not span the %llu arcs", (unsigned long long)narcs);
    uint64_t inter_arcs = 0;
    path_cells passed;
    memset(passed, 0, sizeof passed);
    for (uint32_t u = 0; u < g->nnodes; u++) {
        uint32_t a0 = nbi_u32at(g->node_first, u), a1 = nbi_u32at(g->node_first, u + 1);
        if (a1 < a0)
            return BAD("the adjacency index decreases at node %u", u);
        int32_t ux = nbi_u16at(g->node_xy, 2 * (size_t)u), uy = nbi_u16at(g->node_xy, 2 * (size_t)u + 1);
        for (uint32_t a = a0; a < a1; a++) {
            uint32_t v = nbi_u32at(g->arc_to, a);
            if (v >= g->nnodes || v == u)
                return BAD("arc %u of node %u leads to node %u", a, u, v);
            unsigned ci = g->arc_ann[2 * (size_t)a], cv = g->arc_ann[2 * (size_t)a + 1];
            if (ci >= g->ncaps || cv < 1 || cv > NB_MAX_AGENT_SIZE)
                return BAD("arc %u: capability %u of %u, clearance %u", a, ci, g->ncaps, cv);
            int32_t vx = nbi_u16at(g->node_xy, 2 * (size_t)v), vy = nbi_u16at(g->node_xy, 2 * (size_t)v + 1);
            uint32_t card = nbi_u16at(g->arc_w, 2 * (size_t)a), diag = nbi_u16at(g->arc_w, 2 * (size_t)a + 1);
            int32_t dx = ux > vx ? ux - vx : vx - ux, dy = uy > vy ? uy - vy : vy - uy;
            int same = nbi_node_cluster(g, (uint32_t)ux, (uint32_t)uy) ==
                       nbi_node_cluster(g, (uint32_t)vx, (uint32_t)vy);
            if (!same) {
                if (dx + dy != 1)
                    return BAD("arc %u joins nodes %u and %u of different clusters that are not "
                               "neighbours across a border",
                               a, u, v);
                if (card != 1 || diag != 0)
                    return BAD("inter-edge arc %u weighs %u + %u sqrt(2), not 1", a, card, diag);
                inter_arcs++;
                if (paths && nbi_u32at(g->arc_path, a) != NBI_NO_PATH)
                    return BAD("inter-edge arc %u has a stored path", a);
                continue;
            }
            /* The weight may not undercut the octile distance, which the
             * abstract search uses as a consistent heuristic. */
            int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
            if (card + NBI_SQRT2 * diag < (hi - lo) + NBI_SQRT2 * lo - 1e-9 ||
                card + diag < (uint32_t)hi)
                return BAD("arc %u: weight %u + %u sqrt(2) is shorter than the distance from "
                           "node %u to node %u",
                           a, card, diag, u, v);
            if (paths && nbi_u32at(g->arc_path, a) == NBI_NO_PATH)
                return BAD("intra-edge arc %u has no stored path", a);
            if (paths) {
                nb_status st = check_path(g, a, u, v, passed, err);
                if (st != NB_OK)
                    return st;
            }
        }
    }
    if (inter_arcs != 2 * (uint64_t)g->ninter)
        return BAD("%llu inter-edge arcs, expected twice the %u inter-edges",
                   (unsigned long long)inter_arcs, g->ninter);
    return NB_OK;
}

nb_status nbi_agraph_view(const uint8_t *p, size_t len, uint32_t width, uint32_t height,
                          nbi_agraph *g, nb_err *err)
{
    nb_status st = view_header(p, len, width, height, g, err);
    return st == NB_OK ? check_body(g, err) : st;
}

size_t nbi_agraph_arc_cells(const nbi_agraph *g, size_t a, uint32_t u, uint32_t v, nb_cell *out)
{
    uint32_t off = nbi_u32at(g->arc_path, a), steps = nbi_agraph_arc_steps(g, a);
    nb_cell c = {nbi_u16at(g->node_xy, 2 * (size_t)u), nbi_u16at(g->node_xy, 2 * (size_t)u + 1)};
    out[0] = c;
    for (uint32_t k = 0; k < steps; k++) {
        uint32_t nib = u < v ? off + k : off + steps - 1 - k;
        unsigned code = (g->moves[nib / 2] >> (4 * (nib % 2))) & 7u;
        if (u > v)
            code = nbi_move_opposite(code);
        c.x += nbi_move_dx[code];
        c.y += nbi_move_dy[code];
        out[k + 1] = c;
    }
    return (size_t)steps + 1;
}

/* check_body for the bundle's section index, whose header view_header has accepted; its
 * message names the section. */
static nb_status check_section(const nb_bundle *b, size_t index, nb_err *err)
{
    const struct nbi_section *s = &b->sections[index];
    nbi_agraph g;
    nb_status st = view_header(s->payload, (size_t)s->info.usize, b->width, b->height, &g, err);
    if (st == NB_OK)
        st = check_body(&g, err);
    if (st != NB_OK)
        nbi_err_prefix(err, "%s: section %zu", b->path, index);
    return st;
}

nb_status nbi_agraph_find(const nb_bundle *b, nbi_agraph *g, nb_err *err)
{
    long idx = nbi_section_index(b, NB_SEC_ABSTRACT, NULL, NULL, 0);
    if (idx < 0)
        return nbi_fail(err, NB_ERR_NOTFOUND,
                        "%s: no abstract graph; bake one with mkabstract (after mkclear)", b->path);
    return nbi_agraph_at(b, (size_t)idx, g, err);
}

nb_status nbi_agraph_under(const nb_bundle *b, size_t index, nbi_agraph *g, nb_err *err)
{
    long gi = nbi_section_index(b, NB_SEC_ABSTRACT, NULL, NULL, 0);
    if (gi < 0)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %zu (%s) belongs to an abstract graph, but the bundle has none",
                        b->path, index, nbi_type_name(b, b->sections[index].info.type));
    return nbi_agraph_at(b, (size_t)gi, g, err);
}

nb_status nbi_abstract_section_check(const nb_bundle *b, size_t index, nb_err *err)
{
    nbi_agraph g;
    return nbi_agraph_at(b, index, &g, err);
}

nb_status nbi_agraph_at(const nb_bundle *b, size_t index, nbi_agraph *g, nb_err *err)
{
    long idx = (long)index;
    if (index >= b->nsections || b->sections[index].info.type != NB_SEC_ABSTRACT)
        return nbi_fail(err, NB_ERR_ARG, "%s: section %zu is not an abstract graph", b->path, index);
    if (!b->has_map)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: an abstract graph but no map", b->path);
    const struct nbi_section *s = &b->sections[idx];
    if (s->info.version != NBI_ABSTRACT_VERSION)
        return nbi_fail(err, NB_ERR_VERSION,
                        "%s: section %ld (abstract) has version %u; this reader knows version %d",
                        b->path, idx, s->info.version, NBI_ABSTRACT_VERSION);
    if (NB_ENC_LAYOUT(s->info.encoding) != NB_ENC_RAW || s->payload == NULL ||
        (NB_ENC_COMPRESSION(s->info.encoding) && s->payload == s->stored))
        return nbi_fail(err, NB_ERR_FORMAT, "%s: section %ld (abstract): encoding %s, expected raw",
                        b->path, idx, nb_encoding_name(s->info.encoding));
    nb_status st = view_header(s->payload, (size_t)s->info.usize, b->width, b->height, g, err);
    if (st != NB_OK) {
        nbi_err_prefix(err, "%s: section %ld", b->path, idx);
        return st;
    }
    const nb_section_info *in = &s->info;
    if (in->param[0] != g->cluster || in->param[1] != g->quality || in->param[2] != g->nnodes ||
        in->param[3] != g->nedges)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %ld (abstract): the section table and the payload disagree on "
                        "its cluster size, quality or counts",
                        b->path, idx);
    st = nbi_section_checked(b, index, check_section, err);
    if (st != NB_OK)
        return st;
    g->section = idx;
    return NB_OK;
}
