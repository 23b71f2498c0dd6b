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
 * open ground) have the same paths: the searches run once for all of them.
 *
 * Borders and clusters are units (abstract_build.h) run on threads: all
 * of them in a whole bake, the ones the changed cells reach in an
 * incremental one (abstract_rebake.c). */
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
    o->threads = 0;
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

/* ---- the intra-edges of one cluster ---- */

/* Records the path of the last search from its start to c in the
 * worker's scratch; its number, or UINT32_MAX when out of memory. */
static uint32_t keep_path(ab_worker *w, const nbi_csearch *cs, nb_cell c, uint32_t *npaths,
                          size_t *nmoves)
{
    size_t n = nbi_csearch_path(cs, c, w->cells);
    size_t steps = n ? n - 1 : 0;
    if (!nbb_ab_room((void **)&w->path, &w->pcap, (size_t)*npaths + 1, sizeof *w->path) ||
        !nbb_ab_room((void **)&w->moves, &w->mcap, *nmoves + steps, 1))
        return UINT32_MAX;
    ab_path *p = &w->path[*npaths];
    p->off = (uint32_t)*nmoves;
    p->len = (uint32_t)steps;
    for (size_t k = 0; k < steps; k++)
        w->moves[(*nmoves)++] = (uint8_t)nbi_move_code(w->cells[k], w->cells[k + 1]);
    return (*npaths)++;
}

/* A 64-bit digest of the cells of a box where (ci, s) may stand. */
static uint64_t stand_digest(const nbb_ab *ab, const nbi_box *box, unsigned ci, uint32_t s)
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

static int same_cells(const nbb_ab *ab, const nbi_box *box, unsigned c1, uint32_t s1, unsigned c2,
                      uint32_t s2)
{
    for (int32_t y = box->y0; y < box->y1; y++)
        for (int32_t x = box->x0; x < box->x1; x++)
            if (nbi_standable(&ab->layer[c1], s1, x, y) != nbi_standable(&ab->layer[c2], s2, x, y))
                return 0;
    return 1;
}

typedef struct ab_combo {
    unsigned ci, si;
    uint64_t digest;
    int group; /* index of the first combo with the same cells */
} combo;

typedef struct ab_found {
    uint32_t i, j; /* node numbers */
    uint16_t card, diag;
    uint32_t path;
} found;

static nb_cell cell_xy(const nbb_ab *ab, uint32_t cell)
{
    return (nb_cell){(int32_t)(cell % ab->width), (int32_t)(cell / ab->width)};
}

/* Every intra-edge of cluster k, in the worker's scratch: *ne edges,
 * *np paths. */
static nb_status search_edges(nbb_ab *ab, uint32_t k, ab_worker *w, size_t *ne, uint32_t *np,
                              nb_err *err)
{
    ab_cluster *cl = &ab->cl[k];
    uint32_t x = cl->nnodes;
    nbi_box box = nbi_cluster_box(k, ab->ncx, ab->opt->cluster, ab->width, ab->height);
    size_t ncombo = (size_t)ab->ncaps * ab->nsizes, nmoves = 0;
    combo *cb = w->cb;
    *ne = 0;
    *np = 0;
    if (x < 2)
        return NB_OK;
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
        /* Without paths the parents do not matter: the box's moves read once (cluster_dist.h). */
        int paths = ab->opt->paths != 0;
        if (!paths)
            nbb_cdist_box(&w->cd, l, s, (int)ab->opt->corner, &box);
        for (uint32_t i = 0; i + 1 < x; i++) {
            nb_cell from = cell_xy(ab, cl->node[i]);
            if (!nbi_standable(l, s, from.x, from.y))
                continue;
            size_t nt = 0;
            for (uint32_t j = i + 1; j < x; j++) {
                nb_cell to = cell_xy(ab, cl->node[j]);
                if (nbi_standable(l, s, to.x, to.y))
                    w->targets[nt++] = to;
            }
            if (nt == 0)
                continue;
            if (paths)
                nbi_csearch_run(&w->cs, l, s, (int)ab->opt->corner, &box, from, NULL, w->targets,
                                nt);
            else
                nbb_cdist_run(&w->cd, from, w->targets, nt);
            cl->searches++;
            for (uint32_t j = i + 1; j < x; j++) {
                nb_cell to = cell_xy(ab, cl->node[j]);
                uint32_t diag;
                double cost = paths ? nbi_csearch_cost(&w->cs, to, &diag)
                                    : nbb_cdist_cost(&w->cd, to, &diag);
                if (cost < 0)
                    continue;
                if (!nbb_ab_room((void **)&w->found, &w->nfound_cap, nf + 1, sizeof *w->found))
                    return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph");
                found *f = &w->found[nf++];
                f->i = i;
                f->j = j;
                f->diag = (uint16_t)diag;
                f->card = (uint16_t)((long)(cost - diag * NBI_SQRT2 + 0.5));
                f->path = UINT32_MAX;
                if (ab->opt->paths && (f->path = keep_path(w, &w->cs, to, np, &nmoves)) == UINT32_MAX)
                    return nbi_fail(err, NB_ERR_NOMEM, "no memory for the refined paths");
            }
        }
        /* Every (c, s) with these cells gets the same edges. */
        for (size_t d = c; d < ncombo; d++) {
            if (cb[d].group != (int)c)
                continue;
            if (!nbb_ab_room((void **)&w->e, &w->ecap, *ne + nf, sizeof *w->e))
                return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph");
            for (size_t f = 0; f < nf; f++) {
                ab_intra *e = &w->e[(*ne)++];
                memset(e, 0, sizeof *e);
                e->i = (uint16_t)w->found[f].i;
                e->j = (uint16_t)w->found[f].j;
                e->h.cap = (uint8_t)cb[d].ci;
                e->h.cv = (uint8_t)ab->sizes[cb[d].si];
                e->h.card = w->found[f].card;
                e->h.diag = w->found[f].diag;
                e->h.alive = 1;
                e->path = w->found[f].path;
            }
        }
    }
    return NB_OK;
}

/* The alive edges of the scratch, and the paths they use, into the arena. */
static nb_status keep_edges(ab_cluster *cl, ab_worker *w, size_t ne, uint32_t np, nb_err *err)
{
    uint32_t alive = 0;
    for (size_t i = 0; i < ne; i++)
        alive += w->e[i].h.alive;
    cl->e = nbb_arena_alloc(&w->arena, (alive ? alive : 1) * sizeof *cl->e);
    if (!cl->e)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the abstract graph");
    if (!nbb_ab_room((void **)&w->pmap, &w->pmap_cap, (size_t)np + 1, sizeof *w->pmap))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the refined paths");
    for (uint32_t p = 0; p < np; p++)
        w->pmap[p] = UINT32_MAX;
    uint32_t kept = 0, npaths = 0, nmoves = 0;
    for (size_t i = 0; i < ne; i++) {
        ab_intra *e = &w->e[i];
        if (!e->h.alive)
            continue;
        if (e->path != UINT32_MAX) {
            if (w->pmap[e->path] == UINT32_MAX) {
                w->pmap[e->path] = npaths++;
                nmoves += w->path[e->path].len;
            }
            e->path = w->pmap[e->path];
        }
        cl->e[kept++] = *e;
    }
    cl->ne = kept;
    cl->npaths = npaths;
    cl->path = nbb_arena_alloc(&w->arena, (npaths ? npaths : 1) * sizeof *cl->path);
    cl->moves = nbb_arena_alloc(&w->arena, nmoves ? nmoves : 1);
    if (!cl->path || !cl->moves)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the refined paths");
    uint32_t at = 0;
    for (uint32_t p = 0; p < np; p++) {
        uint32_t q = w->pmap[p];
        if (q == UINT32_MAX)
            continue;
        cl->path[q].off = at;
        cl->path[q].len = w->path[p].len;
        memcpy(cl->moves + at, w->moves + w->path[p].off, w->path[p].len);
        at += w->path[p].len;
    }
    return NB_OK;
}

nb_status nbb_ab_cluster_edges(nbb_ab *ab, uint32_t k, ab_worker *w, nb_err *err)
{
    ab_cluster *cl = &ab->cl[k];
    size_t ne;
    uint32_t np;
    nb_status st = search_edges(ab, k, w, &ne, &np, err);
    if (st != NB_OK)
        return st;
    cl->initial_edges = (uint32_t)ne;
    /* Dominance on the scratch, then only what is left is kept. */
    cl->e = w->e;
    cl->ne = (uint32_t)ne;
    st = nbb_ab_cluster_dominance(ab, cl, w, err);
    if (st == NB_OK)
        st = keep_edges(cl, w, ne, np, err);
    if (st == NB_OK)
        st = nbb_ab_cluster_adjacency(ab, cl, w, err);
    return st;
}

/* ---- the driver ---- */

static nb_status worker_init(const nbb_ab *ab, ab_worker *w, nb_err *err)
{
    uint32_t n = ab->opt->cluster;
    memset(w, 0, sizeof *w);
    w->cs_ok = nbi_csearch_init(&w->cs, NULL, n, n);
    w->cd_ok = nbb_cdist_init(&w->cd, n);
    w->cb = malloc((size_t)ab->ncaps * ab->nsizes * sizeof *w->cb);
    w->cells = malloc((size_t)n * n * sizeof *w->cells);
    w->targets = malloc((size_t)4 * n * sizeof *w->targets);
    w->local = calloc((size_t)n * n, sizeof *w->local);
    if (!w->cs_ok || !w->cd_ok || !w->cb || !w->cells || !w->targets || !w->local)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to build the abstract graph");
    return NB_OK;
}

static void worker_free(ab_worker *w)
{
    if (w->cs_ok)
        nbi_csearch_free(&w->cs);
    if (w->cd_ok)
        nbb_cdist_free(&w->cd);
    free(w->cb);
    free(w->found);
    free(w->cells);
    free(w->targets);
    free(w->local);
    free(w->num);
    free(w->e);
    free(w->path);
    free(w->moves);
    free(w->slot);
    free(w->order);
    free(w->key);
    free(w->runs);
    free(w->tr);
    free(w->lines);
    free(w->arcs);
    free(w->pmap);
    nbb_arena_free(&w->arena);
}

/* A phase: one function over a list of units (every unit when list is NULL). */
typedef struct phase {
    nbb_ab *ab;
    const uint32_t *list;
    nb_status (*fn)(nbb_ab *ab, uint32_t unit, ab_worker *w, nb_err *err);
} phase;

static nb_status run_unit(void *ctx, size_t i, unsigned worker, nb_err *err)
{
    phase *p = ctx;
    return p->fn(p->ab, p->list ? p->list[i] : (uint32_t)i, &p->ab->w[worker], err);
}

/* The phase as the share [base, base + span) of the progress. */
static nb_status run_phase(nbb_ab *ab, const uint32_t *list, size_t n,
                           nb_status (*fn)(nbb_ab *, uint32_t, ab_worker *, nb_err *),
                           double base, double span, nb_err *err)
{
    phase p = {ab, list, fn};
    nbb_progress_part part = {ab->opt->progress, ab->opt->progress_arg, base, span, NULL};
    return nbb_par_for_progress(ab->threads, n, run_unit, &p, &part, err);
}

static nb_status scan_unit(nbb_ab *ab, uint32_t bi, ab_worker *w, nb_err *err)
{
    ab_border *bd = &ab->border[bi];
    bd->state = AB_NEW;
    nb_status st = nbb_ab_scan_border(ab, bi, w, err);
    if (st == NB_OK && !bd->final)
        st = nbb_ab_old_alive(ab, bi, err);
    return st;
}

static nb_status cluster_unit(nbb_ab *ab, uint32_t k, ab_worker *w, nb_err *err)
{
    ab->cl[k].state = AB_NEW;
    nb_status st = nbb_ab_cluster_nodes(ab, k, w, err);
    return st == NB_OK ? nbb_ab_cluster_edges(ab, k, w, err) : st;
}

static nb_status circuit_unit(nbb_ab *ab, uint32_t bi, ab_worker *w, nb_err *err)
{
    return nbb_ab_circuit(ab, bi, w, err);
}

static nb_status free_unit(nbb_ab *ab, uint32_t k, ab_worker *w, nb_err *err)
{
    return nbb_ab_free_nodes(ab, k, w, err);
}

nb_status nbb_ab_run(nbb_ab *ab, const nbb_ab_plan *plan, uint8_t **payload, size_t *len,
                     nb_err *err)
{
    /* The shares of the work, as measured on open and maze-like maps of
     * 4096 x 4096: the clusters' searches are most of it. */
    nb_status st = run_phase(ab, plan->scan, plan->nscan, scan_unit, 0, 0.05, err);
    if (st == NB_OK)
        st = run_phase(ab, plan->build, plan->nbuild, cluster_unit, 0.05, 0.85, err);
    if (st == NB_OK && ab->opt->quality == NBI_QUALITY_LOW) {
        st = run_phase(ab, plan->circuit, plan->ncircuit, circuit_unit, 0.9, 0.03, err);
        if (st == NB_OK)
            st = run_phase(ab, plan->build, plan->nbuild, free_unit, 0.93, 0.02, err);
    }
    nbb_progress_part whole = {ab->opt->progress, ab->opt->progress_arg, 0, 1, NULL};
    nbb_progress_part_report(&whole, 0.95);
    if (st == NB_OK)
        st = nbb_ab_write(ab, payload, len, err);
    nbb_progress_part_report(&whole, 1);
    return st;
}

/* The counts of every unit computed, into stats. */
static void sum_stats(const nbb_ab *ab, nbb_abstract_stats *s)
{
    for (size_t bi = 0; bi < 2 * (size_t)ab->ncl; bi++) {
        const ab_border *bd = &ab->border[bi];
        if (bd->state != AB_NEW)
            continue;
        s->entrances += bd->entrances;
        s->initial_edges += bd->n;
        s->strong += bd->strong;
        s->weak += bd->weak;
        s->circuit += bd->circuit;
        s->rebuilt_borders++;
    }
    for (uint32_t k = 0; k < ab->ncl; k++) {
        const ab_cluster *c = &ab->cl[k];
        if (c->state != AB_NEW)
            continue;
        s->searches += c->searches;
        s->initial_nodes += c->nnodes;
        s->initial_edges += c->initial_edges;
        s->strong += c->strong;
        s->weak += c->weak;
        s->through += c->through;
        s->freed_nodes += c->freed;
        s->rebuilt_clusters++;
    }
    s->clusters = ab->ncl;
}

nb_status nbb_ab_check_opts(const nbb_abstract_opts *o, nbb_abstract_opts *resolved, nb_err *err)
{
    *resolved = *o;
    nbb_abstract_resolve(resolved);
    o = resolved;
    if (o->cluster < 1 || o->cluster > NBI_CLUSTER_MAX)
        return nbi_fail(err, NB_ERR_ARG, "cluster size %u: expected 1 to %d", o->cluster,
                        NBI_CLUSTER_MAX);
    if (o->quality > NBI_QUALITY_LOW || o->placement > NBI_PLACE_ENDS ||
        (unsigned)o->corner > NB_CORNER_WEAK || (o->placement >= NBI_PLACE_SPREAD && o->spread < 1))
        return nbi_fail(err, NB_ERR_ARG, "bad abstract graph options");
    return NB_OK;
}

nb_status nbb_ab_bake(const nbb_abstract_source *src, const nbi_agraph *old,
                      const uint32_t *changed, size_t nchanged, const nbb_abstract_opts *o,
                      uint8_t **payload, size_t *len, nbb_abstract_stats *stats, nb_err *err)
{
    *payload = NULL;
    *len = 0;
    if (stats)
        memset(stats, 0, sizeof *stats);
    nbb_abstract_opts resolved;
    nb_status st = nbb_ab_check_opts(o, &resolved, err);
    if (st != NB_OK)
        return st;
    o = &resolved;
    nbb_ab ab;
    memset(&ab, 0, sizeof ab);
    ab.opt = o;
    ab.stats = stats;
    ab.width = src->width;
    ab.height = src->height;
    ab.ncx = (src->width + o->cluster - 1) / o->cluster;
    ab.ncy = (src->height + o->cluster - 1) / o->cluster;
    ab.ncl = ab.ncx * ab.ncy;
    ab.ncaps = src->ncaps;
    ab.nsizes = src->nsizes;
    memcpy(ab.caps, src->caps, sizeof ab.caps);
    memcpy(ab.sizes, src->sizes, sizeof ab.sizes);
    ab.layer = src->layer;
    ab.threads = nbb_threads_resolve(o->threads);
    ab.old = old;
    ab.border = calloc(2 * (size_t)ab.ncl + 1, sizeof *ab.border);
    ab.cl = calloc((size_t)ab.ncl + 1, sizeof *ab.cl);
    ab.w = calloc(ab.threads, sizeof *ab.w);
    if (!ab.border || !ab.cl || !ab.w)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to abstract a %u x %u map", ab.width,
                      ab.height);
    unsigned made = 0;
    for (; st == NB_OK && made < ab.threads; made++)
        st = worker_init(&ab, &ab.w[made], err);
    nbb_ab_plan plan;
    memset(&plan, 0, sizeof plan);
    if (st == NB_OK)
        st = old ? nbb_ab_plan_changes(&ab, changed, nchanged, &plan, err)
                 : nbb_ab_plan_all(&ab, &plan, err);
    if (st == NB_OK)
        st = nbb_ab_run(&ab, &plan, payload, len, err);
    if (st == NB_OK && stats)
        sum_stats(&ab, stats);
    nbb_ab_plan_free(&plan);
    for (unsigned i = 0; ab.w && i < made; i++)
        worker_free(&ab.w[i]);
    free(ab.w);
    free(ab.border);
    free(ab.cl);
    return nbi_done(err, st);
}

nb_status nbb_abstract_source_of(const nb_bundle *b, nbb_abstract_source *src, nb_err *err)
{
    memset(src, 0, sizeof *src);
    if (!b->has_map)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no map to abstract (bake it with mkclear)",
                        b->path);
    if (!b->agents || b->agents->count == 0)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: no agent set (bake the level with mkclear)",
                        b->path);
    src->width = b->width;
    src->height = b->height;
    src->ncaps = (uint32_t)nbi_agents_capabilities(b->agents, src->caps);
    src->nsizes = (uint32_t)nbi_agents_sizes(b->agents, src->sizes);
    uint32_t top = src->sizes[src->nsizes - 1];
    for (uint32_t i = 0; i < src->ncaps; i++) {
        nb_status st = nbi_clearance_layer(b, src->caps[i], &src->layer[i], err);
        if (st != NB_OK)
            return st;
        if (src->layer[i].maxval < top) {
            char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
            nb_capability_format(b, src->caps[i], caps, sizeof caps);
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: the clearance layer of {%s} is capped at %u but the agent set "
                            "has size %u; run mkclear again",
                            b->path, caps, src->layer[i].maxval, top);
        }
    }
    return NB_OK;
}
