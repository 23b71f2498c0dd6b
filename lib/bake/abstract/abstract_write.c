/* abstract_write.c: the abstract graph as a section payload
 * (formats/abstract.md): nodes in cluster order, each node's arcs
 * together (CSR), annotations packed beside them, and the stored paths as
 * 4-bit move codes.  The order is fixed by the graph alone, so the same
 * map and options give the same bytes.
 *
 * Each cluster's part of every array is contiguous: its nodes (by cell),
 * their arcs (by target, then annotation and weight), its stored paths
 * (placed as its arcs first name them).  So the payload is put together
 * cluster by cluster on threads, once each cluster's counts give where
 * its parts start; a cluster an incremental bake keeps is copied from the
 * old graph, its arcs' targets renumbered (abstract_build.h). */
#include <stdlib.h>

#include "abstract/abstract_build.h"

typedef struct ab_warc {
    uint32_t src, dst; /* the source's rank in its cluster; the target's final id */
    uint8_t cap, cv;
    uint16_t card, diag;
    uint32_t path;     /* the cluster's path, or UINT32_MAX */
    int forward;       /* the path runs from src to dst */
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


/* ---- the old graph's clusters (AB_KEEP) ---- */

static uint32_t old_first(const nbi_agraph *g, uint32_t k) { return nbi_u32at(g->cluster_first, k); }

static uint32_t old_cell(const nbb_ab *ab, const nbi_agraph *g, uint32_t u)
{
    return (uint32_t)nbi_u16at(g->node_xy, 2 * (size_t)u + 1) * ab->width +
           nbi_u16at(g->node_xy, 2 * (size_t)u);
}

/* The final id of the node at cell, or -1 when no node of the new graph
 * stands there. */
static int64_t final_id(const nbb_ab *ab, uint32_t cell)
{
    uint32_t k = nbb_ab_cluster_of(ab, cell);
    const ab_cluster *c = &ab->cl[k];
    size_t lo, hi, base;
    if (c->state == AB_NEW) {
        lo = 0;
        hi = c->nalive;
        base = 0;
    } else {
        lo = base = old_first(ab->old, k);
        hi = old_first(ab->old, k + 1);
    }
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        uint32_t m = c->state == AB_NEW ? c->cells[mid] : old_cell(ab, ab->old, (uint32_t)mid);
        if (m == cell)
            return (int64_t)(c->first_node + (mid - base));
        if (m < cell)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static nb_status mismatch(const nbb_ab *ab, uint32_t k, nb_err *err)
{
    nbi_box box = nbi_cluster_box(k, ab->ncx, ab->opt->cluster, ab->width, ab->height);
    return nbi_fail(err, NB_ERR_FORMAT,
                    "the old abstract graph does not fit the new one at cluster %u (cells %d,%d "
                    "to %d,%d): it was not built for the old level; bake it afresh (--full)",
                    k, box.x0, box.y0, box.x1 - 1, box.y1 - 1);
}

/* ---- counting ---- */

static const ab_border *side_of(const nbb_ab *ab, uint32_t k, int s)
{
    switch (s) {
    case 0: return nbb_ab_above(ab, k);
    case 1: return nbb_ab_left(ab, k);
    case 2: return nbb_ab_right(ab, k);
    default: return nbb_ab_below(ab, k);
    }
}

static nb_status count_new(nbb_ab *ab, ab_cluster *c, uint32_t k, ab_worker *w, nb_err *err)
{
    c->cells = nbb_arena_alloc(&w->arena, (c->nnodes ? c->nnodes : 1) * sizeof *c->cells);
    if (!c->cells || !nbb_ab_room((void **)&w->pmap, &w->pmap_cap, (size_t)c->npaths + 1,
                                  sizeof *w->pmap))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to write the abstract graph");
    c->nalive = 0;
    for (uint32_t i = 0; i < c->nnodes; i++)
        if (c->alive[c->bycell[i]])
            c->cells[c->nalive++] = c->node[c->bycell[i]];
    c->narcs = c->ninter_arcs = c->nnibbles = 0;
    for (uint32_t p = 0; p < c->npaths; p++)
        w->pmap[p] = 0;
    for (uint32_t i = 0; i < c->ne; i++) {
        const ab_intra *e = &c->e[i];
        if (!e->h.alive)
            continue;
        c->narcs += 2;
        if (ab->opt->paths && e->path != UINT32_MAX && !w->pmap[e->path]) {
            w->pmap[e->path] = 1;
            c->nnibbles += c->path[e->path].len;
        }
    }
    for (int s = 0; s < 4; s++) {
        const ab_border *bd = side_of(ab, k, s);
        for (uint32_t i = 0; bd && i < bd->n; i++)
            c->ninter_arcs += bd->e[i].h.alive;
    }
    c->narcs += c->ninter_arcs;
    return NB_OK;
}

static void count_kept(nbb_ab *ab, ab_cluster *c, uint32_t k)
{
    const nbi_agraph *g = ab->old;
    uint32_t o0 = old_first(g, k), o1 = old_first(g, k + 1);
    uint32_t a0 = nbi_u32at(g->node_first, o0), a1 = nbi_u32at(g->node_first, o1);
    c->nalive = o1 - o0;
    c->narcs = a1 - a0;
    c->ninter_arcs = 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t a = a0; a < a1; a++) {
        uint32_t v = nbi_u32at(g->arc_to, a);
        if (v < o0 || v >= o1) { /* its cluster's nodes are [o0, o1) */
            c->ninter_arcs++;
            continue;
        }
        if (!g->arc_path)
            continue;
        /* Both arcs of an edge point at its one stored path: the block is
         * the span of every arc's. */
        uint64_t off = nbi_u32at(g->arc_path, a), end = off + nbi_agraph_arc_steps(g, a);
        lo = off < lo ? off : lo;
        hi = end > hi ? end : hi;
    }
    c->old_nibble = lo == UINT64_MAX ? 0 : lo;
    c->nnibbles = lo == UINT64_MAX ? 0 : hi - lo;
}

static nb_status count_unit(nbb_ab *ab, uint32_t k, ab_worker *w, nb_err *err)
{
    ab_cluster *c = &ab->cl[k];
    if (c->state == AB_NEW)
        return count_new(ab, c, k, w, err);
    count_kept(ab, c, k);
    return NB_OK;
}

/* ---- writing ---- */

typedef struct layout {
    uint8_t *p;
    uint64_t off[11];
} layout;

/* Nibble n of the moves, of cluster c's block: a byte the block shares
 * with its neighbour's is kept aside and put in once both are written. */
static void put_nibble(uint8_t *moves, ab_cluster *c, uint64_t n, unsigned code)
{
    uint64_t s = c->first_nibble, e = s + c->nnibbles, byte = n / 2;
    uint8_t v = (uint8_t)(code << (4 * (n % 2)));
    if ((s & 1) && byte == s / 2)
        c->lead |= v;
    else if ((e & 1) && byte == (e - 1) / 2)
        c->trail |= v;
    else
        moves[byte] |= v;
}

static nb_status write_new(nbb_ab *ab, uint32_t k, ab_worker *w, const layout *ly, nb_err *err)
{
    ab_cluster *c = &ab->cl[k];
    uint8_t *p = ly->p;
    const uint64_t *off = ly->off;
    if (!nbb_ab_room((void **)&w->num, &w->num_cap, (size_t)c->nnodes + 1, sizeof *w->num) ||
        !nbb_ab_room((void **)&w->arcs, &w->arcs_cap, c->narcs + 1, sizeof *w->arcs) ||
        !nbb_ab_room((void **)&w->pmap, &w->pmap_cap, 2 * (size_t)c->npaths + 1, sizeof *w->pmap))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to write the abstract graph");
    uint32_t *rank = w->num;
    for (uint32_t i = 0, r = 0; i < c->nnodes; i++)
        rank[c->bycell[i]] = c->alive[c->bycell[i]] ? r++ : UINT32_MAX;
    warc *arcs = w->arcs;
    size_t na = 0;
    for (uint32_t i = 0; i < c->ne; i++) {
        const ab_intra *e = &c->e[i];
        if (!e->h.alive)
            continue;
        for (int dir = 0; dir < 2; dir++) {
            warc *a = &arcs[na++];
            a->src = rank[dir ? e->j : e->i];
            a->dst = (uint32_t)c->first_node + rank[dir ? e->i : e->j];
            a->cap = e->h.cap;
            a->cv = e->h.cv;
            a->card = e->h.card;
            a->diag = e->h.diag;
            a->path = ab->opt->paths ? e->path : UINT32_MAX;
            a->forward = !dir;
        }
    }
    for (int s = 0; s < 4; s++) {
        const ab_border *bd = side_of(ab, k, s);
        for (uint32_t i = 0; bd && i < bd->n; i++) {
            const ab_inter *e = &bd->e[i];
            if (!e->h.alive)
                continue;
            long u = nbb_ab_node_at(c, s < 2 ? e->b : e->a);
            int64_t v = final_id(ab, s < 2 ? e->a : e->b);
            if (u < 0 || v < 0 || rank[u] == UINT32_MAX)
                return mismatch(ab, k, err);
            warc *a = &arcs[na++];
            a->src = rank[u];
            a->dst = (uint32_t)v;
            a->cap = e->h.cap;
            a->cv = e->h.cv;
            a->card = 1;
            a->diag = 0;
            a->path = UINT32_MAX;
            a->forward = 1;
        }
    }
    if (na != c->narcs)
        return mismatch(ab, k, err);
    if (!nbb_sort(arcs, na, sizeof *arcs, arc_cmp))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to write the abstract graph");
    /* Nodes: their cells and first arcs. */
    uint8_t *xy = p + off[3], *nfirst = p + off[4];
    for (size_t r = 0, a = 0; r < c->nalive; r++) {
        nbi_put16at(xy, 2 * (c->first_node + r), (uint16_t)(c->cells[r] % ab->width));
        nbi_put16at(xy, 2 * (c->first_node + r) + 1, (uint16_t)(c->cells[r] / ab->width));
        while (a < na && arcs[a].src < r)
            a++;
        nbi_put32(nfirst + 4 * (c->first_node + r), (uint32_t)(c->first_arc + a));
    }
    /* Each stored path once, in the direction from the lower node id to
     * the higher; both arcs of an edge point to it. */
    uint32_t *poff = w->pmap;
    for (size_t t = 0; t < 2 * (size_t)c->npaths; t++)
        poff[t] = UINT32_MAX;
    uint64_t nib = 0;
    for (size_t a = 0; a < na; a++) {
        const warc *x = &arcs[a];
        if (x->path == UINT32_MAX || c->first_node + x->src > x->dst)
            continue;
        uint32_t *slot = &poff[2 * (size_t)x->path + (x->forward ? 0 : 1)];
        if (*slot == UINT32_MAX) {
            *slot = (uint32_t)nib;
            nib += c->path[x->path].len;
        }
    }
    if (nib != c->nnibbles)
        return mismatch(ab, k, err);
    uint8_t *to = p + off[5], *wt = p + off[6], *ann = p + off[7], *apath = p + off[8];
    for (size_t a = 0; a < na; a++) {
        const warc *x = &arcs[a];
        uint64_t at = c->first_arc + a;
        nbi_put32(to + 4 * at, x->dst);
        nbi_put16at(wt, 2 * at, x->card);
        nbi_put16at(wt, 2 * at + 1, x->diag);
        ann[2 * at] = x->cap;
        ann[2 * at + 1] = x->cv;
        if (!ab->opt->paths)
            continue;
        uint32_t po = NBI_NO_PATH;
        if (x->path != UINT32_MAX) {
            /* The path as stored runs from min(src, dst) to max(src, dst):
             * forward from the build's i to j when that arc is the one
             * leaving the lower id. */
            int build_forward = c->first_node + x->src < x->dst ? x->forward : !x->forward;
            po = (uint32_t)(c->first_nibble + poff[2 * (size_t)x->path + (build_forward ? 0 : 1)]);
        }
        nbi_put32(apath + 4 * at, po);
    }
    /* The moves: a path stored backwards has its moves reversed and turned round. */
    for (uint32_t pid = 0; ab->opt->paths && pid < c->npaths; pid++)
        for (int dir = 0; dir < 2; dir++) {
            uint32_t at = poff[2 * (size_t)pid + (size_t)dir];
            if (at == UINT32_MAX)
                continue;
            const ab_path *bp = &c->path[pid];
            for (uint32_t s = 0; s < bp->len; s++) {
                unsigned code = dir == 0 ? c->moves[bp->off + s]
                                         : nbi_move_opposite(c->moves[bp->off + bp->len - 1 - s]);
                put_nibble(p + off[9], c, c->first_nibble + at + s, code);
            }
        }
    return NB_OK;
}

/* The old nodes of a cluster and what to add to them to number them anew
 * (when the cluster is kept; else its nodes are looked up by cell). */
typedef struct renumber {
    uint32_t o0, o1;
    int64_t delta;
    int kept;
} renumber;

static nb_status write_kept(nbb_ab *ab, uint32_t k, const layout *ly, nb_err *err)
{
    const nbi_agraph *g = ab->old;
    ab_cluster *c = &ab->cl[k];
    uint8_t *p = ly->p;
    const uint64_t *off = ly->off;
    uint32_t o0 = old_first(g, k), o1 = old_first(g, k + 1);
    uint32_t a0 = nbi_u32at(g->node_first, o0), a1 = nbi_u32at(g->node_first, o1);
    memcpy(p + off[3] + 4 * c->first_node, g->node_xy + 4 * (size_t)o0, 4 * (size_t)(o1 - o0));
    for (uint32_t u = o0; u < o1; u++)
        nbi_put32(p + off[4] + 4 * (c->first_node + (u - o0)),
                  (uint32_t)(nbi_u32at(g->node_first, u) - a0 + c->first_arc));
    uint64_t at = c->first_arc;
    memcpy(p + off[6] + 4 * at, g->arc_w + 4 * (size_t)a0, 4 * (size_t)(a1 - a0));
    memcpy(p + off[7] + 2 * at, g->arc_ann + 2 * (size_t)a0, 2 * (size_t)(a1 - a0));
    /* Arcs lead into the cluster itself or the four around it. */
    renumber rn[5];
    uint32_t cx = k % ab->ncx, cy = k / ab->ncx, nrn = 0;
    uint32_t near[5] = {k, cy ? k - ab->ncx : k, cx ? k - 1 : k, cx + 1 < ab->ncx ? k + 1 : k,
                        cy + 1 < ab->ncy ? k + ab->ncx : k};
    for (int i = 0; i < 5; i++) {
        if (i && near[i] == k)
            continue;
        const ab_cluster *t = &ab->cl[near[i]];
        rn[nrn].o0 = old_first(g, near[i]);
        rn[nrn].o1 = old_first(g, near[i] + 1);
        rn[nrn].kept = t->state == AB_KEEP;
        rn[nrn].delta = (int64_t)t->first_node - rn[nrn].o0;
        nrn++;
    }
    for (uint32_t a = a0; a < a1; a++, at++) {
        uint32_t v = nbi_u32at(g->arc_to, a), i = 0;
        while (i < nrn && (v < rn[i].o0 || v >= rn[i].o1))
            i++;
        int64_t nv = -1;
        if (i < nrn)
            nv = rn[i].kept ? (int64_t)v + rn[i].delta : final_id(ab, old_cell(ab, g, v));
        if (nv < 0)
            return mismatch(ab, k, err);
        nbi_put32(p + off[5] + 4 * at, (uint32_t)nv);
        if (!ab->opt->paths)
            continue;
        uint32_t po = nbi_u32at(g->arc_path, a);
        if (po != NBI_NO_PATH)
            po = (uint32_t)(po - c->old_nibble + c->first_nibble);
        nbi_put32(p + off[8] + 4 * at, po);
    }
    for (uint64_t n = 0; ab->opt->paths && n < c->nnibbles; n++) {
        uint64_t from = c->old_nibble + n;
        put_nibble(p + off[9], c, c->first_nibble + n, (g->moves[from / 2] >> (4 * (from % 2))) & 15u);
    }
    return NB_OK;
}

typedef struct write_job {
    nbb_ab *ab;
    layout ly;
} write_job;

static nb_status write_unit(void *ctx, size_t k, unsigned worker, nb_err *err)
{
    write_job *j = ctx;
    nbb_ab *ab = j->ab;
    ab->cl[k].lead = ab->cl[k].trail = 0;
    if (ab->cl[k].state == AB_NEW)
        return write_new(ab, (uint32_t)k, &ab->w[worker], &j->ly, err);
    return write_kept(ab, (uint32_t)k, &j->ly, err);
}

typedef struct count_job {
    nbb_ab *ab;
} count_job;

static nb_status count_job_unit(void *ctx, size_t k, unsigned worker, nb_err *err)
{
    count_job *j = ctx;
    return count_unit(j->ab, (uint32_t)k, &j->ab->w[worker], err);
}

/* The header's words (formats/abstract.md). */
static void put_header(const nbb_ab *ab, uint8_t *p, uint64_t nn, uint64_t ne, uint64_t ninter,
                       uint64_t pbytes)
{
    const nbb_abstract_opts *o = ab->opt;
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
}

nb_status nbb_ab_write(nbb_ab *ab, uint8_t **payload, size_t *len, nb_err *err)
{
    count_job cj = {ab};
    nb_status st = nbb_par_for(ab->threads, ab->ncl, count_job_unit, &cj, err);
    if (st != NB_OK)
        return st;
    /* Where each cluster's parts start. */
    uint64_t nn = 0, na = 0, ninter = 0, nib = 0;
    for (uint32_t k = 0; k < ab->ncl; k++) {
        ab_cluster *c = &ab->cl[k];
        c->first_node = nn;
        c->first_arc = na;
        c->first_nibble = nib;
        nn += c->nalive;
        na += c->narcs;
        ninter += c->ninter_arcs;
        nib += c->nnibbles;
    }
    if (na % 2 || ninter % 2)
        return nbi_fail(err, NB_ERR_FORMAT, "the old abstract graph's arcs do not pair up: bake "
                        "it afresh (--full)");
    uint64_t ne = na / 2, pbytes = (nib + 1) / 2;
    int paths = ab->opt->paths != 0;
    uint64_t ncl = ab->ncl;
    uint64_t total = nbi_agraph_bytes(ab->ncaps, ab->nsizes, ncl, nn, ne, paths, pbytes);
    if (nn > UINT32_MAX / 2 || ne > UINT32_MAX / 2 || nib >= UINT32_MAX || total > SIZE_MAX)
        return nbi_fail(err, NB_ERR_LIMIT,
                        "an abstract graph of %llu nodes and %llu edges is too large",
                        (unsigned long long)nn, (unsigned long long)ne);
    write_job wj;
    wj.ab = ab;
    wj.ly.p = nbb_calloc((size_t)total, 1);
    if (!wj.ly.p)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a %llu-byte abstract graph",
                        (unsigned long long)total);
    uint8_t *p = wj.ly.p;
    const uint64_t *off = wj.ly.off;
    nbi_agraph_layout(ab->ncaps, ab->nsizes, ncl, nn, ne, paths, pbytes, wj.ly.off);
    put_header(ab, p, nn, ne, ninter / 2, pbytes);
    for (uint32_t i = 0; i < ab->ncaps; i++)
        nbi_put32(p + off[0] + 4 * i, ab->caps[i]);
    for (uint32_t i = 0; i < ab->nsizes; i++)
        nbi_put32(p + off[1] + 4 * i, ab->sizes[i]);
    for (uint32_t k = 0; k < ab->ncl; k++)
        nbi_put32(p + off[2] + 4 * (size_t)k, (uint32_t)ab->cl[k].first_node);
    nbi_put32(p + off[2] + 4 * ncl, (uint32_t)nn);
    nbi_put32(p + off[4] + 4 * nn, (uint32_t)na);
    st = nbb_par_for(ab->threads, ab->ncl, write_unit, &wj, err);
    if (st != NB_OK) {
        nbb_free(p);
        return st;
    }
    for (uint32_t k = 0; paths && k < ab->ncl; k++) {
        const ab_cluster *c = &ab->cl[k];
        uint64_t s = c->first_nibble, e = s + c->nnibbles;
        if (c->nnibbles && (s & 1))
            p[off[9] + s / 2] |= c->lead;
        if (c->nnibbles && (e & 1))
            p[off[9] + (e - 1) / 2] |= c->trail;
    }
    *payload = p;
    *len = (size_t)total;
    if (ab->stats) {
        nbb_abstract_stats *s = ab->stats;
        s->nodes = nn;
        s->edges = ne;
        s->inter = ninter / 2;
        s->intra = ne - ninter / 2;
        s->bytes = total;
        s->path_bytes =
            paths ? total - nbi_agraph_bytes(ab->ncaps, ab->nsizes, ncl, nn, ne, 0, 0) : 0;
    }
    return NB_OK;
}
