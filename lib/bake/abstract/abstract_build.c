/* abstract_build.c: building the HAA* abstract graph (Harabor and Botea, CIG
 * 2008, sections VI and VII): the driver and the intra-edges.
 *
 * The map is cut into square clusters; entrances.c finds the entrances
 * and transition points of every capability; here every pair of abstract
 * nodes of a cluster gets an intra-edge for every (c, s) of C x S with a
 * path inside the cluster, weighted by that path's cost; dominance.c then
 * drops what the quality allows.
 *
 * The paper runs an AA* search per pair of nodes and (c, s).  One
 * Dijkstra from each node, stopped once every later node of the cluster is
 * settled, gives all of that node's edges at once.  And (c, s) pairs
 * whose standable cells are the same inside the cluster (in a cluster
 * without trees, {ground} and {ground, trees} say, or sizes 1 and 2 in
 * open ground) have the same paths: the searches run once for all of them. */
#include <stdlib.h>

#include "abstract/abstract_build.h"
#include "bake_int.h"

void nbb_abstract_defaults(nbb_abstract_opts *o)
{
    memset(o, 0, sizeof *o);
    o->cluster = 10;
    o->quality = NBI_QUALITY_HIGH;
    o->placement = NBB_PLACE_AUTO;
    o->spread = NBB_SPREAD_DEFAULT;
    o->corner = NBI_CORNER_STRICT;
    o->paths = 0;
    o->through = 1;
}

int nbb_abstract_quality(const char *name, uint32_t *out)
{
    for (uint32_t q = 0; nbi_quality_name(q); q++)
        if (strcmp(name, nbi_quality_name(q)) == 0) {
            *out = q;
            return 1;
        }
    return 0;
}

int nbb_abstract_placement(const char *name, uint32_t *out)
{
    for (uint32_t p = 0; nbi_placement_name(p); p++)
        if (strcmp(name, nbi_placement_name(p)) == 0) {
            *out = p;
            return 1;
        }
    return 0;
}

const char *nbb_abstract_quality_name(uint32_t quality) { return nbi_quality_name(quality); }
const char *nbb_abstract_placement_name(uint32_t placement) { return nbi_placement_name(placement); }

void nbb_abstract_resolve(nbb_abstract_opts *o)
{
    /* Low quality keeps the paper's placement: its transitions at the
     * start of each border share nodes at cluster corners, which is what
     * keeps low-quality graphs as small as the paper's Table I. */
    if (o->placement == NBB_PLACE_AUTO)
        o->placement = o->quality == NBI_QUALITY_LOW ? NBI_PLACE_FIRST : NBI_PLACE_ENDS;
}

/* Records the path of the last search from its start to c; its id, or
 * UINT32_MAX when out of memory. */
static uint32_t keep_path(nbb_agraph_build *ab, const nbi_csearch *cs, nb_cell c, nb_cell *cells)
{
    size_t n = nbi_csearch_path(cs, c, cells);
    size_t steps = n ? n - 1 : 0;
    size_t mc = (size_t)ab->moves_cap;
    if (ab->npaths >= UINT32_MAX - 1 ||
        !nbi_grow(NULL, (void **)&ab->path, &ab->path_cap, ab->npaths + 1, sizeof *ab->path) ||
        !nbi_grow(NULL, (void **)&ab->moves, &mc, (size_t)ab->nmoves + steps, 1))
        return UINT32_MAX;
    ab->moves_cap = mc;
    bpath *p = &ab->path[ab->npaths];
    p->off = ab->nmoves;
    p->len = (uint32_t)steps;
    for (size_t k = 0; k < steps; k++)
        ab->moves[ab->nmoves++] = (uint8_t)nbi_move_code(cells[k], cells[k + 1]);
    return (uint32_t)ab->npaths++;
}

/* A 64-bit digest of the cells of a box where (ci, s) may stand. */
static uint64_t stand_digest(const nbb_agraph_build *ab, const nbi_box *box, unsigned ci,
                             uint32_t s)
{
    uint64_t h = 1469598103934665603u, acc = 0;
    unsigned nbits = 0;
    for (int32_t y = box->y0; y < box->y1; y++)
        for (int32_t x = box->x0; x < box->x1; x++) {
            acc = acc << 1 | (uint64_t)nbi_standable(&ab->layer[ci], s, x, y);
            if (++nbits == 64) {
                h = (h ^ acc) * 1099511628211u;
                acc = 0;
                nbits = 0;
            }
        }
    return (h ^ acc ^ nbits) * 1099511628211u;
}

static int same_cells(const nbb_agraph_build *ab, const nbi_box *box, unsigned c1, uint32_t s1,
                      unsigned c2, uint32_t s2)
{
    for (int32_t y = box->y0; y < box->y1; y++)
        for (int32_t x = box->x0; x < box->x1; x++)
            if (nbi_standable(&ab->layer[c1], s1, x, y) != nbi_standable(&ab->layer[c2], s2, x, y))
                return 0;
    return 1;
}

typedef struct combo {
    unsigned ci, si;
    uint64_t digest;
    int group; /* index of the first combo with the same cells */
} combo;

typedef struct found {
    uint32_t i, j; /* positions in the cluster's node list */
    uint16_t card, diag;
    uint32_t path;
} found;

/* The intra-edges of one cluster, whose nodes are list[0..x). */
static nb_status cluster_edges(nbb_agraph_build *ab, uint32_t k, const uint32_t *list, uint32_t x,
                               nbi_csearch *cs, combo *cb, found **fbuf, size_t *fcap,
                               nb_cell *cells, nb_cell *targets, nb_err *err)
{
    nbi_box box = nbi_cluster_box(k, ab->ncx, ab->opt->cluster, ab->width, ab->height);
    size_t ncombo = (size_t)ab->ncaps * ab->nsizes;
    for (size_t c = 0; c < ncombo; c++) {
        cb[c].ci = (unsigned)(c / ab->nsizes);
        cb[c].si = (unsigned)(c % ab->nsizes);
        cb[c].digest = stand_digest(ab, &box, cb[c].ci, ab->sizes[cb[c].si]);
        cb[c].group = (int)c;
        for (size_t d = 0; d < c; d++)
            if (cb[d].group == (int)d && cb[d].digest == cb[c].digest &&
                same_cells(ab, &box, cb[d].ci, ab->sizes[cb[d].si], cb[c].ci, ab->sizes[cb[c].si])) {
                cb[c].group = (int)d;
                break;
            }
    }
    for (size_t c = 0; c < ncombo; c++) {
        if (cb[c].group != (int)c)
            continue;
        const nbi_layer *l = &ab->layer[cb[c].ci];
        uint32_t s = ab->sizes[cb[c].si];
        size_t nf = 0;
        for (uint32_t i = 0; i + 1 < x; i++) {
            const bnode *ni = &ab->node[list[i]];
            if (!nbi_standable(l, s, ni->x, ni->y))
                continue;
            size_t nt = 0;
            for (uint32_t j = i + 1; j < x; j++) {
                const bnode *nj = &ab->node[list[j]];
                if (nbi_standable(l, s, nj->x, nj->y))
                    targets[nt++] = (nb_cell){nj->x, nj->y};
            }
            if (nt == 0)
                continue;
            nb_cell from = {ni->x, ni->y};
            nbi_csearch_run(cs, l, s, (int)ab->opt->corner, &box, from, NULL, targets, nt);
            if (ab->stats)
                ab->stats->searches++;
            for (uint32_t j = i + 1; j < x; j++) {
                const bnode *nj = &ab->node[list[j]];
                nb_cell to = {nj->x, nj->y};
                uint32_t diag;
                double cost = nbi_csearch_cost(cs, to, &diag);
                if (cost < 0)
                    continue;
                if (!nbi_grow(NULL, (void **)fbuf, fcap, nf + 1, sizeof **fbuf))
                    return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph");
                found *f = &(*fbuf)[nf++];
                f->i = i;
                f->j = j;
                f->diag = (uint16_t)diag;
                f->card = (uint16_t)((long)(cost - diag * NBI_SQRT2 + 0.5));
                f->path = UINT32_MAX;
                if (ab->opt->paths && (f->path = keep_path(ab, cs, to, cells)) == UINT32_MAX)
                    return nbi_fail(err, NB_ERR_NOMEM, "no memory for the refined paths");
            }
        }
        /* Every (c, s) with these cells gets the same edges. */
        for (size_t d = c; d < ncombo; d++) {
            if (cb[d].group != (int)c)
                continue;
            for (size_t f = 0; f < nf; f++) {
                bedge e;
                memset(&e, 0, sizeof e);
                e.u = list[(*fbuf)[f].i];
                e.v = list[(*fbuf)[f].j];
                e.cap = (uint8_t)cb[d].ci;
                e.cv = (uint8_t)ab->sizes[cb[d].si];
                e.card = (*fbuf)[f].card;
                e.diag = (*fbuf)[f].diag;
                e.alive = 1;
                e.path = (*fbuf)[f].path;
                if (!nbb_ab_edge(ab, &e))
                    return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph");
            }
        }
    }
    return NB_OK;
}

/* The share of the work done when each step ends (the rest is writing),
 * as measured on open and on maze-like maps of 4096 x 4096. */
#define PROGRESS_ENTRANCES 0.05
#define PROGRESS_INTRA 0.7
#define PROGRESS_DOMINANCE 0.9

static nb_status intra_edges(nbb_agraph_build *ab, nb_err *err)
{
    uint32_t n = ab->opt->cluster, ncl = ab->ncx * ab->ncy;
    size_t ncombo = (size_t)ab->ncaps * ab->nsizes, fcap = 0;
    uint32_t *first = calloc((size_t)ncl + 1, sizeof *first);
    uint32_t *list = malloc((ab->nnodes ? ab->nnodes : 1) * sizeof *list);
    combo *cb = malloc(ncombo * sizeof *cb);
    nb_cell *cells = malloc((size_t)n * n * sizeof *cells);
    nb_cell *targets = malloc((size_t)4 * n * sizeof *targets);
    found *fbuf = NULL;
    nbi_csearch cs;
    int cs_ok = nbi_csearch_init(&cs, NULL, n, n);
    nb_status st = NB_OK;
    if (!first || !list || !cb || !cells || !targets || !cs_ok)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to build intra-edges");
    if (st == NB_OK) {
        /* Nodes by cluster, in the order they were made. */
        for (size_t i = 0; i < ab->nnodes; i++)
            first[ab->node[i].cluster + 1]++;
        for (uint32_t k = 0; k < ncl; k++)
            first[k + 1] += first[k];
        uint32_t *at = malloc(((size_t)ncl + 1) * sizeof *at);
        if (!at)
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory to build intra-edges");
        else {
            memcpy(at, first, ((size_t)ncl + 1) * sizeof *at);
            for (size_t i = 0; i < ab->nnodes; i++)
                list[at[ab->node[i].cluster]++] = (uint32_t)i;
            free(at);
        }
    }
    /* Progress by clusters: the searches inside them are most of the work. */
    nbb_progress_part part = {ab->opt->progress, ab->opt->progress_arg, PROGRESS_ENTRANCES,
                              PROGRESS_INTRA - PROGRESS_ENTRANCES};
    for (uint32_t k = 0; k < ncl && st == NB_OK; k++) {
        uint32_t x = first[k + 1] - first[k];
        if (part.fn && (k & 63) == 0)
            nbb_progress_part_report(&part, (double)k / ncl);
        if (x >= 2)
            st = cluster_edges(ab, k, list + first[k], x, &cs, cb, &fbuf, &fcap, cells, targets,
                               err);
    }
    if (cs_ok)
        nbi_csearch_free(&cs);
    free(first);
    free(list);
    free(cb);
    free(cells);
    free(targets);
    free(fbuf);
    return st;
}

static void build_free(nbb_agraph_build *ab)
{
    free(ab->cell_node);
    free(ab->node);
    free(ab->edge);
    free(ab->path);
    free(ab->moves);
}

nb_status nbb_abstract_build(const nb_bundle *b, const nbb_abstract_opts *o, uint8_t **payload,
                             size_t *len, nbb_abstract_stats *stats, nb_err *err)
{
    *payload = NULL;
    *len = 0;
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (o->cluster < 1 || o->cluster > NBI_CLUSTER_MAX)
        return nbi_fail(err, NB_ERR_ARG, "cluster size %u: expected 1 to %d", o->cluster,
                        NBI_CLUSTER_MAX);
    nbb_abstract_opts resolved = *o;
    nbb_abstract_resolve(&resolved);
    o = &resolved;
    if (o->quality > NBI_QUALITY_LOW || o->placement > NBI_PLACE_ENDS || (unsigned)o->corner > NB_CORNER_WEAK ||
        (o->placement >= NBI_PLACE_SPREAD && o->spread < 1))
        return nbi_fail(err, NB_ERR_ARG, "bad abstract graph options");
    if (!b->has_map)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no map to abstract (bake it with mkclear)",
                        b->path);
    if (!b->agents || b->agents->count == 0)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no agent set (bake the level with mkclear)",
                        b->path);
    nbb_agraph_build ab;
    memset(&ab, 0, sizeof ab);
    ab.opt = o;
    ab.stats = stats;
    ab.width = b->width;
    ab.height = b->height;
    ab.ncx = (b->width + o->cluster - 1) / o->cluster;
    ab.ncy = (b->height + o->cluster - 1) / o->cluster;
    ab.ncaps = (uint32_t)nbi_agents_capabilities(b->agents, ab.caps);
    ab.nsizes = (uint32_t)nbi_agents_sizes(b->agents, ab.sizes);
    uint32_t top = ab.sizes[ab.nsizes - 1];
    for (uint32_t i = 0; i < ab.ncaps; i++) {
        nb_status st = nbi_clearance_layer(b, ab.caps[i], &ab.layer[i], err);
        if (st != NB_OK)
            return st;
        if (ab.layer[i].maxval < top) {
            char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
            nb_capability_format(b, ab.caps[i], caps, sizeof caps);
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: the clearance layer of {%s} is capped at %u but the agent set "
                            "has size %u; run mkclear again",
                            b->path, caps, ab.layer[i].maxval, top);
        }
    }
    size_t cells = (size_t)b->width * b->height;
    ab.cell_node = malloc(cells * sizeof *ab.cell_node);
    if (!ab.cell_node)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to abstract a %u x %u map", b->width,
                        b->height);
    for (size_t i = 0; i < cells; i++)
        ab.cell_node[i] = -1;
    nbb_progress_part whole = {o->progress, o->progress_arg, 0, 1};
    nbb_progress_part_report(&whole, 0);
    nb_status st = nbb_ab_entrances(&ab, err);
    nbb_progress_part_report(&whole, PROGRESS_ENTRANCES);
    if (st == NB_OK)
        st = intra_edges(&ab, err);
    nbb_progress_part_report(&whole, PROGRESS_INTRA);
    if (st == NB_OK && stats) {
        stats->initial_nodes = ab.nnodes;
        stats->initial_edges = ab.nedges;
    }
    if (st == NB_OK)
        st = nbb_ab_dominance(&ab, err);
    nbb_progress_part_report(&whole, PROGRESS_DOMINANCE);
    if (st == NB_OK)
        st = nbb_ab_write(&ab, payload, len, err);
    nbb_progress_part_report(&whole, 1);
    build_free(&ab);
    return st;
}
