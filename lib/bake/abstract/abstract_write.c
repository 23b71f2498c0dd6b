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

nb_status nbb_ab_write(nbb_agraph_build *ab, uint8_t **payload, size_t *len, nb_err *err)
{
    const nbb_abstract_opts *o = ab->opt;
    size_t nn = 0, ne = 0, ninter = 0;
    for (size_t u = 0; u < ab->nnodes; u++)
        nn += ab->node[u].alive;
    for (size_t i = 0; i < ab->nedges; i++)
        if (ab->edge[i].alive) {
            ne++;
            ninter += ab->edge[i].inter;
        }
    uint64_t ncl = (uint64_t)ab->ncx * ab->ncy;
    nkey *nk = malloc((nn ? nn : 1) * sizeof *nk);
    warc *arcs = malloc((ne ? 2 * ne : 1) * sizeof *arcs);
    uint32_t *poff = NULL;
    uint8_t *p = NULL;
    nb_status st = NB_OK;
    if (!nk || !arcs) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to write the abstract graph");
        goto done;
    }
    nn = 0;
    for (size_t u = 0; u < ab->nnodes; u++)
        if (ab->node[u].alive) {
            nk[nn].cluster = ab->node[u].cluster;
            nk[nn].cell = (uint32_t)ab->node[u].y * ab->width + (uint32_t)ab->node[u].x;
            nk[nn++].idx = (uint32_t)u;
        }
    qsort(nk, nn, sizeof *nk, node_cmp);
    for (size_t k = 0; k < nn; k++)
        ab->node[nk[k].idx].final = (uint32_t)k;
    size_t na = 0;
    for (size_t i = 0; i < ab->nedges; i++) {
        const bedge *e = &ab->edge[i];
        if (!e->alive)
            continue;
        for (int dir = 0; dir < 2; dir++) {
            warc *a = &arcs[na++];
            a->src = ab->node[dir ? e->v : e->u].final;
            a->dst = ab->node[dir ? e->u : e->v].final;
            a->cap = e->cap;
            a->cv = e->cv;
            a->card = e->card;
            a->diag = e->diag;
            a->path = o->paths && !e->inter ? e->path : UINT32_MAX;
            a->forward = !dir;
        }
    }
    qsort(arcs, na, sizeof *arcs, arc_cmp);

    /* Each stored path once, in the direction from the lower node id to
     * the higher; both arcs of an edge point to it. */
    uint64_t nibbles = 0;
    if (o->paths) {
        poff = malloc((ab->npaths ? ab->npaths : 1) * 2 * sizeof *poff);
        if (!poff) {
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory to write the abstract graph");
            goto done;
        }
        for (size_t k = 0; k < 2 * ab->npaths; k++)
            poff[k] = UINT32_MAX;
        for (size_t k = 0; k < na; k++) {
            const warc *a = &arcs[k];
            if (a->path == UINT32_MAX || a->src > a->dst)
                continue;
            uint32_t *slot = &poff[2 * (size_t)a->path + (a->forward ? 0 : 1)];
            if (*slot == UINT32_MAX) {
                if (nibbles + ab->path[a->path].len >= UINT32_MAX) {
                    st = nbi_fail(err, NB_ERR_LIMIT, "the refined paths exceed 2 GB");
                    goto done;
                }
                *slot = (uint32_t)nibbles;
                nibbles += ab->path[a->path].len;
            }
        }
    }
    uint64_t pbytes = (nibbles + 1) / 2;
    uint64_t total = nbi_agraph_bytes(ab->ncaps, ab->nsizes, ncl, nn, ne, o->paths, pbytes);
    if (nn > UINT32_MAX / 2 || ne > UINT32_MAX / 2 || total > SIZE_MAX) {
        st = nbi_fail(err, NB_ERR_LIMIT, "an abstract graph of %zu nodes and %zu edges is too large",
                      nn, ne);
        goto done;
    }
    p = calloc((size_t)total, 1);
    if (!p) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a %llu-byte abstract graph",
                      (unsigned long long)total);
        goto done;
    }
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
    hdr[NBI_AB_NODES] = (uint32_t)nn;
    hdr[NBI_AB_EDGES] = (uint32_t)ne;
    hdr[NBI_AB_INTER] = (uint32_t)ninter;
    hdr[NBI_AB_FLAGS] = o->paths ? NBI_AGRAPH_PATHS : 0;
    hdr[NBI_AB_PATH_BYTES] = (uint32_t)pbytes;
    for (int i = 0; i < NBI_AB_WORDS; i++)
        nbi_put32(p + 4 * i, hdr[i]);
    uint64_t off[11];
    nbi_agraph_layout(ab->ncaps, ab->nsizes, ncl, nn, ne, o->paths, pbytes, off);
    uint8_t *caps = p + off[0], *sizes = p + off[1], *cfirst = p + off[2], *xy = p + off[3];
    uint8_t *nfirst = p + off[4], *to = p + off[5], *wt = p + off[6], *ann = p + off[7];
    uint8_t *apath = p + off[8], *mv = p + off[9];
    for (uint32_t i = 0; i < ab->ncaps; i++)
        nbi_put32(caps + 4 * i, ab->caps[i]);
    for (uint32_t i = 0; i < ab->nsizes; i++)
        nbi_put32(sizes + 4 * i, ab->sizes[i]);
    for (size_t k = 0, c = 0; c <= ncl; c++) {
        while (k < nn && nk[k].cluster < c)
            k++;
        nbi_put32(cfirst + 4 * c, (uint32_t)k);
    }
    for (size_t k = 0; k < nn; k++) {
        const bnode *nd = &ab->node[nk[k].idx];
        nbi_put16(xy + 4 * k, (uint16_t)nd->x);
        nbi_put16(xy + 4 * k + 2, (uint16_t)nd->y);
    }
    for (size_t a = 0, u = 0; u <= nn; u++) {
        while (a < na && arcs[a].src < u)
            a++;
        nbi_put32(nfirst + 4 * u, (uint32_t)a);
    }
    for (size_t k = 0; k < na; k++) {
        const warc *a = &arcs[k];
        nbi_put32(to + 4 * k, a->dst);
        nbi_put16(wt + 4 * k, a->card);
        nbi_put16(wt + 4 * k + 2, a->diag);
        ann[2 * k] = a->cap;
        ann[2 * k + 1] = a->cv;
        if (!o->paths)
            continue;
        uint32_t at = NBI_NO_PATH;
        if (a->path != UINT32_MAX) {
            /* The path as stored runs from min(src, dst) to max(src, dst):
             * forward from the build's u to v when that arc is the one
             * leaving the lower id. */
            int build_forward = a->src < a->dst ? a->forward : !a->forward;
            at = poff[2 * (size_t)a->path + (build_forward ? 0 : 1)];
        }
        nbi_put32(apath + 4 * k, at);
    }
    if (o->paths) {
        for (size_t pid = 0; pid < ab->npaths; pid++)
            for (int dir = 0; dir < 2; dir++) {
                uint32_t at = poff[2 * pid + (size_t)dir];
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
    *payload = p;
    *len = (size_t)total;
    p = NULL;
    if (ab->stats) {
        nbb_abstract_stats *s = ab->stats;
        s->nodes = nn;
        s->edges = ne;
        s->inter = ninter;
        s->intra = ne - ninter;
        s->bytes = total;
        s->path_bytes =
            o->paths ? total - nbi_agraph_bytes(ab->ncaps, ab->nsizes, ncl, nn, ne, 0, 0) : 0;
    }
done:
    free(nk);
    free(arcs);
    free(poff);
    free(p);
    return st;
}
