/* abstract_write.c: the abstract graph as a section payload
 * (formats/abstract.md): nodes in cluster order, each node's arcs
 * together (CSR), annotations packed beside them, and the stored paths as
 * 4-bit move codes.  The order is fixed by the graph alone, so the same
 * map and options give the same bytes. */
#include <stdlib.h>

#include "abstract/abstract_build.h"

typedef struct warc {
    uint32_t src, dst; /* final node ids */
    uint8_t cap, cv;
    uint16_t card, diag;
    uint32_t path; /* build path id, or UINT32_MAX */
    int forward;   /* the build path runs from src to dst */
} warc;

static int arc_cmp(const void *pa, const void *pb)
{
    const warc *a = pa, *b = pb;
    if (a->src != b->src)
        return a->src < b->src ? -1 : 1;
    if (a->dst != b->dst)
        return a->dst < b->dst ? -1 : 1;
    if (a->cap != b->cap)
        return a->cap < b->cap ? -1 : 1;
    if (a->cv != b->cv)
        return a->cv < b->cv ? -1 : 1;
    if (a->card != b->card)
        return a->card < b->card ? -1 : 1;
    return a->diag < b->diag ? -1 : a->diag > b->diag;
}

typedef struct nkey {
    uint32_t cluster, cell, idx;
} nkey;

static int node_cmp(const void *pa, const void *pb)
{
    const nkey *a = pa, *b = pb;
    if (a->cluster != b->cluster)
        return a->cluster < b->cluster ? -1 : 1;
    return a->cell < b->cell ? -1 : a->cell > b->cell;
}

static void put_nibble(uint8_t *moves, uint64_t n, unsigned code)
{
    moves[n / 2] |= (uint8_t)(code << (4 * (n % 2)));
}

void nbb_abstract_info(const uint8_t *payload, nb_section_info *info)
{
    memset(info, 0, sizeof *info);
    info->type = NB_SEC_ABSTRACT;
    info->version = NBI_ABSTRACT_VERSION;
    info->encoding = NB_ENC_RAW;
#define WORD(w) nbi_get32(payload + 4 * (w))
    uint32_t ncx = WORD(NBI_AB_NCX), ncy = WORD(NBI_AB_NCY);
    uint32_t ncaps = WORD(NBI_AB_NCAPS), nsizes = WORD(NBI_AB_NSIZES);
    uint32_t nnodes = WORD(NBI_AB_NODES), nedges = WORD(NBI_AB_EDGES);
    uint32_t flags = WORD(NBI_AB_FLAGS), pbytes = WORD(NBI_AB_PATH_BYTES);
    info->param[0] = WORD(NBI_AB_CLUSTER);
    info->param[1] = WORD(NBI_AB_QUALITY);
    info->param[2] = nnodes;
    info->param[3] = nedges;
    info->param[4] = WORD(NBI_AB_INTER);
    info->param[5] = WORD(NBI_AB_PLACEMENT);
#undef WORD
    /* What the stored paths cost: the payload's bytes beyond the same
     * graph without them. */
    uint64_t ncl = (uint64_t)ncx * ncy;
    if (flags & NBI_AGRAPH_PATHS)
        info->param[6] = (uint32_t)(nbi_agraph_bytes(ncaps, nsizes, ncl, nnodes, nedges, 1, pbytes) -
                                    nbi_agraph_bytes(ncaps, nsizes, ncl, nnodes, nedges, 0, 0));
}

/* What nbb_ab_write works out, phase by phase, for the phases after it. */
typedef struct writer {
    nbb_agraph_build *ab;
    const nbb_abstract_opts *o;
    uint64_t ncl;             /* clusters */
    size_t nn, ne, ninter;    /* nodes and edges alive, the inter-edges among them */
    nkey *nk;                 /* the nodes alive, in their final order */
    warc *arcs;               /* both arcs of every edge alive, in their final order */
    size_t na;
    uint32_t *poff;           /* each build path's first nibble, forward and back, or UINT32_MAX */
    uint64_t nibbles, pbytes; /* of the stored paths */
} writer;

/* The nodes and edges that dominance left alive: only they are written. */
static void count_alive(writer *w)
{
    const nbb_agraph_build *ab = w->ab;
    for (size_t u = 0; u < ab->nnodes; u++)
        w->nn += ab->node[u].alive;
    for (size_t i = 0; i < ab->nedges; i++)
        if (ab->edge[i].alive) {
            w->ne++;
            w->ninter += ab->edge[i].inter;
        }
}

/* The nodes in cluster order, then cell order, which gives each its final id. */
static void order_nodes(writer *w)
{
    nbb_agraph_build *ab = w->ab;
    size_t nn = 0;
    for (size_t u = 0; u < ab->nnodes; u++)
        if (ab->node[u].alive) {
            w->nk[nn].cluster = ab->node[u].cluster;
            w->nk[nn].cell = (uint32_t)ab->node[u].y * ab->width + (uint32_t)ab->node[u].x;
            w->nk[nn++].idx = (uint32_t)u;
        }
    qsort(w->nk, nn, sizeof *w->nk, node_cmp);
    for (size_t k = 0; k < nn; k++)
        ab->node[w->nk[k].idx].final = (uint32_t)k;
}

/* Each edge as its two arcs, grouped by the node they leave (CSR) and ordered by arc_cmp. */
static void order_arcs(writer *w)
{
    const nbb_agraph_build *ab = w->ab;
    size_t na = 0;
    for (size_t i = 0; i < ab->nedges; i++) {
        const bedge *e = &ab->edge[i];
        if (!e->alive)
            continue;
        for (int dir = 0; dir < 2; dir++) {
            warc *a = &w->arcs[na++];
            a->src = ab->node[dir ? e->v : e->u].final;
            a->dst = ab->node[dir ? e->u : e->v].final;
            a->cap = e->cap;
            a->cv = e->cv;
            a->card = e->card;
            a->diag = e->diag;
            a->path = w->o->paths && !e->inter ? e->path : UINT32_MAX;
            a->forward = !dir;
        }
    }
    qsort(w->arcs, na, sizeof *w->arcs, arc_cmp);
    w->na = na;
}

/* Each stored path once, in the direction from the lower node id to
 * the higher; both arcs of an edge point to it. */
static nb_status place_paths(writer *w, nb_err *err)
{
    const nbb_agraph_build *ab = w->ab;
    w->poff = malloc((ab->npaths ? ab->npaths : 1) * 2 * sizeof *w->poff);
    if (!w->poff)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to write the abstract graph");
    for (size_t k = 0; k < 2 * ab->npaths; k++)
        w->poff[k] = UINT32_MAX;
    for (size_t k = 0; k < w->na; k++) {
        const warc *a = &w->arcs[k];
        if (a->path == UINT32_MAX || a->src > a->dst)
            continue;
        uint32_t *slot = &w->poff[2 * (size_t)a->path + (a->forward ? 0 : 1)];
        if (*slot == UINT32_MAX) {
            if (w->nibbles + ab->path[a->path].len >= UINT32_MAX)
                return nbi_fail(err, NB_ERR_LIMIT, "the refined paths exceed 2 GB");
            *slot = (uint32_t)w->nibbles;
            w->nibbles += ab->path[a->path].len;
        }
    }
    return NB_OK;
}

/* The header's words (formats/abstract.md). */
static void put_header(const writer *w, uint8_t *p)
{
    const nbb_agraph_build *ab = w->ab;
    const nbb_abstract_opts *o = w->o;
    uint32_t hdr[NBI_AB_WORDS];
    hdr[NBI_AB_WIDTH] = ab->width;
    hdr[NBI_AB_HEIGHT] = ab->height;
    hdr[NBI_AB_CLUSTER] = o->cluster;
    hdr[NBI_AB_QUALITY] = o->quality;
    hdr[NBI_AB_CORNER] = (uint32_t)o->corner;
    hdr[NBI_AB_PLACEMENT] = o->placement;
    hdr[NBI_AB_SPREAD] = o->placement >= NBI_PLACE_SPREAD ? o->spread : 0;
    hdr[NBI_AB_NCAPS] = ab->ncaps;
    hdr[NBI_AB_NSIZES] = ab->nsizes;
    hdr[NBI_AB_NCX] = ab->ncx;
    hdr[NBI_AB_NCY] = ab->ncy;
    hdr[NBI_AB_NODES] = (uint32_t)w->nn;
    hdr[NBI_AB_EDGES] = (uint32_t)w->ne;
    hdr[NBI_AB_INTER] = (uint32_t)w->ninter;
    hdr[NBI_AB_FLAGS] = o->paths ? NBI_AGRAPH_PATHS : 0;
    hdr[NBI_AB_PATH_BYTES] = (uint32_t)w->pbytes;
    for (int i = 0; i < NBI_AB_WORDS; i++)
        nbi_put32(p + 4 * i, hdr[i]);
}

/* The annotations served, each cluster's first node, the nodes' cells and each node's first
 * arc, at the offsets of nbi_agraph_layout. */
static void put_nodes(const writer *w, uint8_t *p, const uint64_t *off)
{
    const nbb_agraph_build *ab = w->ab;
    uint8_t *caps = p + off[0], *sizes = p + off[1], *cfirst = p + off[2], *xy = p + off[3];
    uint8_t *nfirst = p + off[4];
    for (uint32_t i = 0; i < ab->ncaps; i++)
        nbi_put32(caps + 4 * i, ab->caps[i]);
    for (uint32_t i = 0; i < ab->nsizes; i++)
        nbi_put32(sizes + 4 * i, ab->sizes[i]);
    for (size_t k = 0, c = 0; c <= w->ncl; c++) {
        while (k < w->nn && w->nk[k].cluster < c)
            k++;
        nbi_put32(cfirst + 4 * c, (uint32_t)k);
    }
    for (size_t k = 0; k < w->nn; k++) {
        const bnode *nd = &ab->node[w->nk[k].idx];
        nbi_put16(xy + 4 * k, (uint16_t)nd->x);
        nbi_put16(xy + 4 * k + 2, (uint16_t)nd->y);
    }
    for (size_t a = 0, u = 0; u <= w->nn; u++) {
        while (a < w->na && w->arcs[a].src < u)
            a++;
        nbi_put32(nfirst + 4 * u, (uint32_t)a);
    }
}

/* Each arc's head, weight, annotation and, with paths, where its stored path starts. */
static void put_arcs(const writer *w, uint8_t *p, const uint64_t *off)
{
    uint8_t *to = p + off[5], *wt = p + off[6], *ann = p + off[7], *apath = p + off[8];
    for (size_t k = 0; k < w->na; k++) {
        const warc *a = &w->arcs[k];
        nbi_put32(to + 4 * k, a->dst);
        nbi_put16(wt + 4 * k, a->card);
        nbi_put16(wt + 4 * k + 2, a->diag);
        ann[2 * k] = a->cap;
        ann[2 * k + 1] = a->cv;
        if (!w->o->paths)
            continue;
        uint32_t at = NBI_NO_PATH;
        if (a->path != UINT32_MAX) {
            /* The path as stored runs from min(src, dst) to max(src, dst):
             * forward from the build's u to v when that arc is the one
             * leaving the lower id. */
            int build_forward = a->src < a->dst ? a->forward : !a->forward;
            at = w->poff[2 * (size_t)a->path + (build_forward ? 0 : 1)];
        }
        nbi_put32(apath + 4 * k, at);
    }
}

/* The stored paths' move codes, a nibble each, where place_paths put them; a path stored
 * backwards has its moves reversed and turned round. */
static void put_moves(const writer *w, uint8_t *mv)
{
    const nbb_agraph_build *ab = w->ab;
    for (size_t pid = 0; pid < ab->npaths; pid++)
        for (int dir = 0; dir < 2; dir++) {
            uint32_t at = w->poff[2 * pid + (size_t)dir];
            if (at == UINT32_MAX)
                continue;
            const bpath *bp = &ab->path[pid];
            for (uint32_t s = 0; s < bp->len; s++) {
                unsigned code = dir == 0 ? ab->moves[bp->off + s]
                                         : nbi_move_opposite(ab->moves[bp->off + bp->len - 1 - s]);
                put_nibble(mv, (uint64_t)at + s, code);
            }
        }
}

/* What was written, for mkabstract --verbose and the benchmarks. */
static void put_stats(const writer *w, uint64_t total)
{
    const nbb_agraph_build *ab = w->ab;
    nbb_abstract_stats *s = ab->stats;
    s->nodes = w->nn;
    s->edges = w->ne;
    s->inter = w->ninter;
    s->intra = w->ne - w->ninter;
    s->bytes = total;
    if (w->o->paths)
        s->path_bytes = total - nbi_agraph_bytes(ab->ncaps, ab->nsizes, w->ncl, w->nn, w->ne, 0, 0);
    else
        s->path_bytes = 0;
}

nb_status nbb_ab_write(nbb_agraph_build *ab, uint8_t **payload, size_t *len, nb_err *err)
{
    writer w;
    memset(&w, 0, sizeof w);
    w.ab = ab;
    w.o = ab->opt;
    w.ncl = (uint64_t)ab->ncx * ab->ncy;
    count_alive(&w);
    w.nk = malloc((w.nn ? w.nn : 1) * sizeof *w.nk);
    w.arcs = malloc((w.ne ? 2 * w.ne : 1) * sizeof *w.arcs);
    uint8_t *p = NULL;
    nb_status st = NB_OK;
    if (!w.nk || !w.arcs) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to write the abstract graph");
        goto done;
    }
    order_nodes(&w);
    order_arcs(&w);
    if (w.o->paths && (st = place_paths(&w, err)) != NB_OK)
        goto done;
    w.pbytes = (w.nibbles + 1) / 2;
    uint64_t total =
        nbi_agraph_bytes(ab->ncaps, ab->nsizes, w.ncl, w.nn, w.ne, w.o->paths, w.pbytes);
    if (w.nn > UINT32_MAX / 2 || w.ne > UINT32_MAX / 2 || total > SIZE_MAX) {
        st = nbi_fail(err, NB_ERR_LIMIT, "an abstract graph of %zu nodes and %zu edges is too large",
                      w.nn, w.ne);
        goto done;
    }
    p = calloc((size_t)total, 1);
    if (!p) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a %llu-byte abstract graph",
                      (unsigned long long)total);
        goto done;
    }
    put_header(&w, p);
    uint64_t off[11];
    nbi_agraph_layout(ab->ncaps, ab->nsizes, w.ncl, w.nn, w.ne, w.o->paths, w.pbytes, off);
    put_nodes(&w, p, off);
    put_arcs(&w, p, off);
    if (w.o->paths)
        put_moves(&w, p + off[9]);
    *payload = p;
    *len = (size_t)total;
    p = NULL;
    if (ab->stats)
        put_stats(&w, total);
done:
    free(w.nk);
    free(w.arcs);
    free(w.poff);
    free(p);
    return st;
}
