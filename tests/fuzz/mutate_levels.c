/* mutate_levels.c: the structure-aware mutations of the abstract levels
 * section (formats/abstract.md, type 34), and stored paths that bounce
 * (issue 29), the levels' and the graph's own, for the mutator
 * (mutate_bundle.c; mutate.h).
 *
 * A levels mutation is, by weight: a header word or a level's record word
 * (the payload laid out again for the counts half of the time, the table's
 * parameters following); an entry of a level's arrays (cluster index, node
 * ids, adjacency index, targets, weights, annotations, path offsets, path
 * words) or of the landmarks'; a stored path made to bounce (its first arc
 * and that arc's way back, 1 to as many times as the level below has
 * nodes, before it goes on: what the readers accepted before issue 29),
 * its arcs' weights kept or made the sum of the new path; a step of a
 * path sent to another arc of the node it has reached; an intra-arc's
 * weight set about the cells of its cluster.  The graph's stored cell
 * paths bounce the same way (a move and its opposite), their weights
 * following as the graph's reader wants.  Every read is bounded by the
 * payload: the mutator runs on anything. */
#include <stdlib.h>
#include <string.h>

#include "abstract/abstract.h"
#include "abstract/alevels.h"
#include "core/base.h"
#include "core/format.h"
#include "core/grid.h"
#include "mutate.h"

#define NONE UINT32_MAX
#define MAX_GROWTH (4u << 20) /* bytes a bounce may add */

/* A levels payload's layout from its header and records, unchecked but bounded. */
typedef struct lv_raw {
    uint32_t nlevels, paths, nlm;
    int laid;           /* every level's arrays placed (the counts in range) */
    uint32_t ncx[NBI_LEVELS_MAX + 1], ncy[NBI_LEVELS_MAX + 1];
    uint32_t nnodes[NBI_LEVELS_MAX + 1], narcs[NBI_LEVELS_MAX + 1], pw[NBI_LEVELS_MAX + 1];
    uint64_t off[NBI_LEVELS_MAX + 1][10];
    uint64_t lm[3], end;
} lv_raw;

static int lv_parse(const uint8_t *p, size_t len, lv_raw *v)
{
    memset(v, 0, sizeof *v);
    if (len < NBI_ALEVELS_HEADER)
        return 0;
    v->nlevels = nbi_get32(p + 4 * NBI_AL_LEVELS);
    v->paths = (nbi_get32(p + 4 * NBI_AL_FLAGS) & NBI_ALEVELS_PATHS) != 0;
    if (v->nlevels < 2 || v->nlevels > NBI_LEVELS_MAX ||
        len < NBI_ALEVELS_HEADER + (size_t)NBI_ALEVELS_RECORD * (v->nlevels - 1))
        return 0;
    uint64_t at = NBI_ALEVELS_HEADER + (uint64_t)NBI_ALEVELS_RECORD * (v->nlevels - 1);
    for (uint32_t l = 2; l <= v->nlevels; l++) {
        const uint8_t *r = p + NBI_ALEVELS_HEADER + (size_t)NBI_ALEVELS_RECORD * (l - 2);
        v->ncx[l] = nbi_get32(r + 4 * NBI_ALR_NCX);
        v->ncy[l] = nbi_get32(r + 4 * NBI_ALR_NCY);
        v->nnodes[l] = nbi_get32(r + 4 * NBI_ALR_NODES);
        v->narcs[l] = nbi_get32(r + 4 * NBI_ALR_ARCS);
        v->pw[l] = nbi_get32(r + 4 * NBI_ALR_PATH_WORDS);
        if ((uint64_t)v->ncx[l] * v->ncy[l] > (1u << 24) || v->nnodes[l] > (1u << 24) ||
            v->narcs[l] > (1u << 26) || v->pw[l] > (1u << 26))
            return 0;
        nbi_alevel_layout((uint64_t)v->ncx[l] * v->ncy[l], v->nnodes[l], v->narcs[l], v->paths,
                          v->pw[l], at, v->off[l]);
        at = v->off[l][9];
    }
    v->laid = 1;
    v->nlm = nbi_get32(p + 4 * NBI_AL_LANDMARKS);
    uint32_t top = v->nnodes[v->nlevels];
    if (v->nlm > top)
        v->nlm = top;
    if (v->nlm > NBI_LANDMARKS_MAX)
        return 0;
    nbi_landmarks_layout(v->nlm, top, at, v->lm);
    v->end = v->nlm ? v->lm[2] : at;
    return v->end == len;
}

/* Arcs of a level as arrays (level 1: the graph's), every index checked by the caller. */
typedef struct arcs {
    const uint8_t *first, *to, *w1, *card, *diag, *id;
    uint32_t nnodes;
    uint64_t narcs;
} arcs;

static int level_arcs(nbf_bundle *b, const uint8_t *p, const lv_raw *v, uint32_t j, arcs *a)
{
    memset(a, 0, sizeof *a);
    if (j >= 2) {
        a->first = p + v->off[j][2];
        a->to = p + v->off[j][3];
        a->card = p + v->off[j][4];
        a->diag = p + v->off[j][5];
        a->id = p + v->off[j][1];
        a->nnodes = v->nnodes[j];
        a->narcs = v->narcs[j];
        return 1;
    }
    nbf_section *g = nbf_find(b, NB_SEC_ABSTRACT);
    if (!g || g->len < NBI_ABSTRACT_HEADER)
        return 0;
    uint32_t w[NBI_AB_WORDS];
    for (int i = 0; i < NBI_AB_WORDS; i++)
        w[i] = nbi_get32(g->data + 4 * i);
    uint64_t off[11], ncl = (uint64_t)w[NBI_AB_NCX] * w[NBI_AB_NCY];
    if (ncl > (1u << 24) || w[NBI_AB_NODES] > (1u << 24) || w[NBI_AB_EDGES] > (1u << 24) ||
        w[NBI_AB_NCAPS] > (1u << 16) || w[NBI_AB_NSIZES] > (1u << 16))
        return 0;
    nbi_agraph_layout(w[NBI_AB_NCAPS], w[NBI_AB_NSIZES], ncl, w[NBI_AB_NODES], w[NBI_AB_EDGES],
                      (w[NBI_AB_FLAGS] & NBI_AGRAPH_PATHS) != 0, w[NBI_AB_PATH_BYTES], off);
    if (off[10] != g->len)
        return 0;
    a->first = g->data + off[4];
    a->to = g->data + off[5];
    a->w1 = g->data + off[6];
    a->nnodes = w[NBI_AB_NODES];
    a->narcs = 2 * (uint64_t)w[NBI_AB_EDGES];
    return 1;
}

static uint32_t arc_weight(const arcs *a, uint32_t e, uint32_t *diag)
{
    if (a->w1) {
        *diag = nbi_u16at(a->w1, 2 * (size_t)e + 1);
        return nbi_u16at(a->w1, 2 * (size_t)e);
    }
    *diag = nbi_u32at(a->diag, e);
    return nbi_u32at(a->card, e);
}

/* The node of level arcs a that owns arc e, or NONE. */
static uint32_t owner(const arcs *a, uint32_t e)
{
    uint32_t lo = 0, hi = a->nnodes;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (nbi_u32at(a->first, mid + 1) <= e)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < a->nnodes && nbi_u32at(a->first, lo) <= e ? lo : NONE;
}

/* Level-1 id to level j's number, by a scan (fuzzing's levels are small). */
static uint32_t index_of(const arcs *a, uint32_t id)
{
    if (!a->id)
        return id < a->nnodes ? id : NONE;
    for (uint32_t u = 0; u < a->nnodes; u++)
        if (nbi_u32at(a->id, u) == id)
            return u;
    return NONE;
}

/* The arc of node x to node y, or NONE (indices bounded). */
static uint32_t arc_between(const arcs *a, uint32_t x, uint32_t y)
{
    if (x >= a->nnodes)
        return NONE;
    uint32_t a0 = nbi_u32at(a->first, x), a1 = nbi_u32at(a->first, x + 1);
    for (uint32_t e = a0; e < a1 && e < a->narcs; e++)
        if (nbi_u32at(a->to, e) == y)
            return e;
    return NONE;
}

/* The payload laid out again with `extra` words appended to level j's paths (words), into
 * s; 1 when done. */
static int grow_paths(nbf_section *s, const lv_raw *v, uint32_t j, const uint32_t *words,
                      uint32_t extra)
{
    lv_raw n = *v;
    n.pw[j] += extra;
    uint64_t at = NBI_ALEVELS_HEADER + (uint64_t)NBI_ALEVELS_RECORD * (v->nlevels - 1);
    for (uint32_t l = 2; l <= v->nlevels; l++) {
        nbi_alevel_layout((uint64_t)n.ncx[l] * n.ncy[l], n.nnodes[l], n.narcs[l], n.paths, n.pw[l],
                          at, n.off[l]);
        at = n.off[l][9];
    }
    nbi_landmarks_layout(n.nlm, n.nnodes[n.nlevels], at, n.lm);
    n.end = n.nlm ? n.lm[2] : at;
    if (n.end > v->end + MAX_GROWTH)
        return 0;
    uint8_t *q = calloc((size_t)n.end, 1);
    if (!q)
        return 0;
    const uint8_t *p = s->data;
    size_t head = NBI_ALEVELS_HEADER + (size_t)NBI_ALEVELS_RECORD * (v->nlevels - 1);
    memcpy(q, p, head);
    nbi_put32(q + NBI_ALEVELS_HEADER + (size_t)NBI_ALEVELS_RECORD * (j - 2) + 4 * NBI_ALR_PATH_WORDS,
              n.pw[j]);
    for (uint32_t l = 2; l <= v->nlevels; l++)
        for (int i = 0; i < 9; i++) {
            uint64_t len = v->off[l][i + 1] - v->off[l][i];
            memcpy(q + n.off[l][i], p + v->off[l][i], (size_t)len);
        }
    for (uint32_t k = 0; k < extra; k++)
        nbi_put32(q + n.off[j][8] + 4 * ((size_t)v->pw[j] + k), words[k]);
    if (n.nlm) {
        memcpy(q + n.lm[0], p + v->lm[0], (size_t)(v->lm[1] - v->lm[0]));
        memcpy(q + n.lm[1], p + v->lm[1], (size_t)(v->lm[2] - v->lm[1]));
    }
    free(s->data);
    s->data = q;
    s->len = (size_t)n.end;
    return 1;
}

/* Level j's arc e's stored path made to bounce r times (see the top). */
static int bounce_path(nbf_bundle *b, nbf_section *s, const lv_raw *v, uint32_t j, nbf_rng *r)
{
    const uint8_t *p = s->data;
    arcs up, below;
    if (!level_arcs(b, p, v, j, &up) || !level_arcs(b, p, v, j - 1, &below) || up.narcs == 0)
        return 0;
    const uint8_t *apath = p + v->off[j][7], *words = p + v->off[j][8];
    uint32_t e = NONE, off = NONE;
    for (int tries = 0; tries < 32 && e == NONE; tries++) {
        uint32_t c = (uint32_t)nbf_below(r, up.narcs);
        uint32_t o = nbi_u32at(apath, c);
        if (o < v->pw[j] && nbi_u32at(words, o) >= 1 && nbi_u32at(words, o) < v->pw[j] - o)
            e = c, off = o;
    }
    uint32_t u = e == NONE ? NONE : owner(&up, e);
    if (u == NONE || nbi_u32at(up.to, e) >= up.nnodes)
        return 0;
    uint32_t t = nbi_u32at(up.to, e), lo = u < t ? u : t;
    uint32_t n = nbi_u32at(words, off), e1 = nbi_u32at(words, off + 1);
    uint32_t x0 = index_of(&below, nbi_u32at(up.id, lo));
    if (x0 == NONE || e1 >= below.narcs)
        return 0;
    uint32_t r1 = arc_between(&below, nbi_u32at(below.to, e1), x0);
    if (r1 == NONE)
        r1 = e1;
    uint64_t most = below.nnodes > n ? (below.nnodes - n) / 2 : 1;
    uint64_t reps = nbf_chance(r, 30) ? most : 1 + nbf_below(r, most < 8 ? most : 8);
    if (reps > (MAX_GROWTH / 4 - n - 1) / 2)
        reps = (MAX_GROWTH / 4 - n - 1) / 2;
    uint32_t extra = 1 + n + 2 * (uint32_t)reps;
    uint32_t *w = malloc((size_t)extra * sizeof *w);
    if (!w)
        return 0;
    w[0] = n + 2 * (uint32_t)reps;
    for (uint32_t k = 0; k < reps; k++) {
        w[1 + 2 * k] = e1;
        w[2 + 2 * k] = r1;
    }
    for (uint32_t k = 0; k < n; k++)
        w[1 + 2 * reps + k] = nbi_u32at(words, off + 1 + k);
    /* Its weight: the arcs of the way there and back added, half of the time. */
    uint32_t c1, d1, c2, d2;
    c1 = arc_weight(&below, e1, &d1);
    c2 = r1 < below.narcs ? arc_weight(&below, r1, &d2) : (d2 = 0);
    int reweigh = nbf_chance(r, 50);
    uint32_t new_off = v->pw[j], old_pw = v->pw[j];
    lv_raw keep = *v;
    int ok = grow_paths(s, v, j, w, extra);
    free(w);
    if (!ok)
        return 0;
    /* Offsets are at the same place relative to the level's arrays: read them anew. */
    lv_raw nv;
    lv_parse(s->data, s->len, &nv);
    uint8_t *ap = s->data + nv.off[j][7];
    uint8_t *card = s->data + nv.off[j][4], *diag = s->data + nv.off[j][5];
    int twins = nbf_chance(r, 80);
    for (uint32_t a = 0; a < keep.narcs[j]; a++) {
        if (nbi_u32at(ap, a) != off || (a != e && !twins))
            continue;
        nbi_put32at(ap, a, new_off);
        if (reweigh) {
            nbi_put32at(card, a, nbi_u32at(card, a) + (uint32_t)reps * (c1 + c2));
            nbi_put32at(diag, a, nbi_u32at(diag, a) + (uint32_t)reps * (d1 + d2));
        }
    }
    (void)old_pw;
    return 1;
}

int nbf_mut_levels(nbf_bundle *b, nbf_section *s, nbf_rng *r)
{
    lv_raw v;
    int fits = lv_parse(s->data, s->len, &v);
    if (s->len < NBI_ALEVELS_HEADER)
        return 0;
    uint32_t j = fits ? 2 + (uint32_t)nbf_below(r, v.nlevels - 1) : 2;
    uint8_t *p = s->data;
    /* header, record, cluster index, node ids, adjacency, targets, weights, annotations, path
     * offsets, path words, landmarks, bounce, a step sent elsewhere, a weight about the cells */
    unsigned wt[14] = {10, 10, 4, 6, 6, 8, 8, 4, 5, 8, 5, 16, 6, 4};
    if (!fits)
        memset(wt + 2, 0, sizeof wt - 2 * sizeof wt[0]);
    if (fits && !v.paths)
        wt[8] = wt[9] = wt[11] = wt[12] = 0;
    if (fits && !v.nlm)
        wt[10] = 0;
    size_t region = 0;
    uint64_t total = 0;
    for (int i = 0; i < 14; i++)
        total += wt[i];
    uint64_t x = nbf_below(r, total);
    while (region < 13 && x >= wt[region])
        x -= wt[region++];
    uint32_t nn = v.nnodes[j], na = v.narcs[j];
    uint64_t at = 0, n = 0;
    unsigned width = 4;
    switch (region) {
    case 0: {
        unsigned i = (unsigned)nbf_below(r, 16);
        at = 4 * (uint64_t)i;
        n = i == NBI_AL_LEVELS ? v.nlevels : i == NBI_AL_FACTOR ? 2 : i == NBI_AL_LANDMARKS ? 16 : 64;
        break;
    }
    case 1: {
        unsigned i = (unsigned)nbf_below(r, 8);
        at = NBI_ALEVELS_HEADER + (uint64_t)NBI_ALEVELS_RECORD * (j - 2) + 4 * i;
        n = i == NBI_ALR_NODES ? nn : i == NBI_ALR_ARCS || i == NBI_ALR_INTER ? na : 64;
        break;
    }
    case 2: at = v.off[j][0] + 4 * nbf_below(r, (uint64_t)v.ncx[j] * v.ncy[j] + 1); n = nn; break;
    case 3: at = v.off[j][1] + 4 * nbf_below(r, nn); n = v.nnodes[2] * 3; break;
    case 4: at = v.off[j][2] + 4 * nbf_below(r, (uint64_t)nn + 1); n = na; break;
    case 5: at = v.off[j][3] + 4 * nbf_below(r, na); n = nn; break;
    case 6: at = v.off[j][4 + nbf_below(r, 2)] + 4 * nbf_below(r, na); n = 64; break;
    case 7: at = v.off[j][6] + nbf_below(r, 2 * (uint64_t)na); n = 8; width = 1; break;
    case 8: at = v.off[j][7] + 4 * nbf_below(r, na); n = v.pw[j]; break;
    case 9: at = v.off[j][8] + 4 * nbf_below(r, v.pw[j]); n = v.narcs[j - 1 >= 2 ? j - 1 : 2]; break;
    case 10:
        if (nbf_chance(r, 30)) {
            at = v.lm[0] + 4 * nbf_below(r, v.nlm);
            n = v.nnodes[v.nlevels];
        } else {
            at = v.lm[1] + 4 * nbf_below(r, 2 * (uint64_t)v.nlm * v.nnodes[v.nlevels]);
            n = 1000;
        }
        break;
    case 11: return bounce_path(b, s, &v, j, r);
    case 12: { /* a step of a path sent to another arc of the node it has reached */
        if (v.pw[j] < 2)
            return 0;
        uint64_t k = 1 + nbf_below(r, v.pw[j] - 1);
        arcs below;
        if (!level_arcs(b, p, &v, j - 1, &below) || below.narcs == 0)
            return 0;
        uint32_t prev = nbi_u32at(p + v.off[j][8], k - 1), x0 = prev < below.narcs
                                                                  ? nbi_u32at(below.to, prev)
                                                                  : NONE;
        if (x0 >= below.nnodes)
            return 0;
        uint32_t a0 = nbi_u32at(below.first, x0), a1 = nbi_u32at(below.first, x0 + 1);
        if (a1 <= a0 || a1 > below.narcs)
            return 0;
        nbi_put32(p + v.off[j][8] + 4 * k, a0 + (uint32_t)nbf_below(r, a1 - a0));
        return 1;
    }
    default: { /* an intra-arc's weight about its cluster's cells */
        if (na == 0)
            return 0;
        uint32_t a = (uint32_t)nbf_below(r, na);
        uint64_t side = nbi_get32(p + 4 * NBI_AL_CLUSTER);
        for (uint32_t l = 2; l <= j; l++)
            side *= nbi_get32(p + 4 * NBI_AL_FACTOR);
        uint64_t cells = side * side, diag = nbi_u32at(p + v.off[j][5], a);
        uint64_t want = cells - 1 + nbf_below(r, 3);
        nbi_put32(p + v.off[j][4] + 4 * (uint64_t)a, (uint32_t)(want > diag ? want - diag : 0));
        return 1;
    }
    }
    if (at + width > s->len)
        return 0;
    if (width == 1)
        p[at] = (uint8_t)nbf_pick_int(r, p[at], n, 8);
    else
        nbi_put32(p + at, (uint32_t)nbf_pick_int(r, nbi_get32(p + at), n, 32));
    if (region <= 1) {
        lv_raw nv;
        if (!lv_parse(s->data, s->len, &nv) && nv.laid && nbf_chance(r, 50) && nv.end <= (16u << 20))
            nbf_resize(s, (size_t)nv.end);
        if (nbf_chance(r, 70))
            nbf_sync_levels_params(s);
    }
    return 1;
}

void nbf_sync_levels_params(nbf_section *s)
{
    lv_raw v;
    if (s->len < NBI_ALEVELS_HEADER)
        return;
    const uint8_t *p = s->data;
    s->info.param[0] = nbi_get32(p + 4 * NBI_AL_LEVELS);
    s->info.param[1] = nbi_get32(p + 4 * NBI_AL_FACTOR);
    s->info.param[2] = nbi_get32(p + 4 * NBI_AL_GRAPH_CRC);
    if (!lv_parse(p, s->len, &v) && !v.laid)
        return;
    uint64_t nodes = 0, narcs = 0;
    for (uint32_t l = 2; l <= v.nlevels; l++) {
        nodes += v.nnodes[l];
        narcs += v.narcs[l];
    }
    s->info.param[3] = (uint32_t)nodes;
    s->info.param[4] = (uint32_t)narcs;
}

/* ---- the graph's own stored paths ---- */

static unsigned move_at(const uint8_t *m, uint64_t n) { return (m[n / 2] >> (4 * (n % 2))) & 15u; }
static void put_move(uint8_t *m, uint64_t n, unsigned c)
{
    m[n / 2] = (uint8_t)((m[n / 2] & ~(15u << (4 * (n % 2)))) | (c << (4 * (n % 2))));
}

int nbf_bounce_graph(nbf_section *s, nbf_rng *r)
{
    if (s->len < NBI_ABSTRACT_HEADER)
        return 0;
    uint32_t w[NBI_AB_WORDS];
    for (int i = 0; i < NBI_AB_WORDS; i++)
        w[i] = nbi_get32(s->data + 4 * i);
    uint64_t off[11], ncl = (uint64_t)w[NBI_AB_NCX] * w[NBI_AB_NCY];
    if (!(w[NBI_AB_FLAGS] & NBI_AGRAPH_PATHS) || ncl > (1u << 24) || w[NBI_AB_NODES] > (1u << 24) ||
        w[NBI_AB_EDGES] > (1u << 24) || w[NBI_AB_NCAPS] > (1u << 16) || w[NBI_AB_NSIZES] > (1u << 16))
        return 0;
    nbi_agraph_layout(w[NBI_AB_NCAPS], w[NBI_AB_NSIZES], ncl, w[NBI_AB_NODES], w[NBI_AB_EDGES], 1,
                      w[NBI_AB_PATH_BYTES], off);
    uint64_t narcs = 2 * (uint64_t)w[NBI_AB_EDGES], moves = 2 * (uint64_t)w[NBI_AB_PATH_BYTES];
    if (off[10] != s->len || narcs == 0)
        return 0;
    uint32_t a = (uint32_t)nbf_below(r, narcs);
    uint32_t o = nbi_get32(s->data + off[8] + 4 * (uint64_t)a);
    uint32_t card = nbi_get16(s->data + off[6] + 4 * (uint64_t)a);
    uint32_t diag = nbi_get16(s->data + off[6] + 4 * (uint64_t)a + 2);
    uint64_t steps = (uint64_t)card + diag;
    if (o == NBI_NO_PATH || steps == 0 || o > moves || steps > moves - o)
        return 0;
    uint64_t c2 = (uint64_t)w[NBI_AB_CLUSTER] * w[NBI_AB_CLUSTER];
    uint64_t most = c2 > steps + 1 ? (c2 - 1 - steps) / 2 : 1;
    uint64_t reps = nbf_chance(r, 30) ? most : 1 + nbf_below(r, most < 4 ? most : 4);
    unsigned m0 = move_at(s->data + off[9], o) & 7u;
    uint64_t wk = m0 < 4 ? card : diag;
    if (wk + 2 * reps > 65535)
        reps = (65535 - wk) / 2;
    uint64_t n = steps + 2 * reps, at = moves;
    size_t bytes = (size_t)((moves + n + 1) / 2);
    if (bytes > (size_t)w[NBI_AB_PATH_BYTES] + MAX_GROWTH || !nbf_resize(s, (size_t)off[9] + bytes))
        return 0;
    uint8_t *m = s->data + off[9];
    for (uint64_t k = 0; k < reps; k++) {
        put_move(m, at++, m0);
        put_move(m, at++, nbi_move_opposite(m0));
    }
    for (uint64_t k = 0; k < steps; k++)
        put_move(m, at++, move_at(m, (uint64_t)o + k));
    nbi_put32(s->data + 4 * NBI_AB_PATH_BYTES, (uint32_t)bytes);
    /* The arc and, mostly, its twin (the same stored path) take the new path and its weight. */
    int twins = nbf_chance(r, 80);
    for (uint64_t e = 0; e < narcs; e++) {
        uint8_t *pe = s->data + off[8] + 4 * e;
        if (nbi_get32(pe) != o || (e != a && !twins))
            continue;
        nbi_put32(pe, (uint32_t)moves);
        uint8_t *we = s->data + off[6] + 4 * e + (m0 < 4 ? 0 : 2);
        nbi_put16(we, (uint16_t)(nbi_get16(we) + 2 * reps));
    }
    s->info.param[6] = (uint32_t)bytes;
    return 1;
}
