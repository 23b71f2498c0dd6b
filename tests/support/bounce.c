/* bounce.c: bundles whose stored paths bounce (bounce.h). */
#include <stdlib.h>
#include <string.h>

#include "abstract/abstract.h"
#include "abstract/alevels.h"
#include "bake.h"
#include "bounce.h"
#include "core/grid.h"

/* ---- the levels above the graph ---- */

/* The arc of level j's node x to node y, or UINT32_MAX. */
static uint32_t arc_to(const nbi_alevels *L, uint32_t j, uint32_t x, uint32_t y)
{
    uint32_t a0, a1 = nbi_lv_arcs(L, j, x, &a0);
    for (uint32_t a = a0; a < a1; a++)
        if (nbi_lv_to(L, j, a) == y)
            return a;
    return UINT32_MAX;
}

/* Level l's paths, bouncing, into words (room for them: *nw, grown) and each arc's offset
 * into off[narcs]. */
static int bounce_level(const nbi_alevels *L, uint32_t l, uint32_t reps, uint32_t **words,
                        size_t *nw, uint32_t *off)
{
    const nbi_alevel *v = &L->lv[l];
    uint32_t *moved = malloc(((size_t)v->path_words + 1) * sizeof *moved);
    size_t cap = 0, at = 0;
    if (!moved)
        return 0;
    for (size_t i = 0; i <= v->path_words; i++)
        moved[i] = UINT32_MAX;
    for (uint32_t u = 0; u < v->nnodes; u++) {
        uint32_t a0, a1 = nbi_lv_arcs(L, l, u, &a0);
        for (uint32_t a = a0; a < a1; a++) {
            uint32_t o = nbi_u32at(v->arc_path, a);
            off[a] = o;
            if (o == UINT32_MAX)
                continue;
            if (moved[o] != UINT32_MAX) {
                off[a] = moved[o];
                continue;
            }
            uint32_t t = nbi_lv_to(L, l, a), lo = u < t ? u : t;
            uint32_t n = nbi_u32at(v->paths, o), e1 = nbi_u32at(v->paths, o + 1);
            uint32_t x0 = (uint32_t)nbi_lv_index(L, l - 1, nbi_lv_id(L, l, lo));
            uint32_t r1 = arc_to(L, l - 1, nbi_lv_to(L, l - 1, e1), x0);
            uint32_t room = L->lv[l - 1].nnodes > n ? (L->lv[l - 1].nnodes - n) / 2 : 0;
            uint32_t r = r1 == UINT32_MAX ? 0 : reps < room ? reps : room;
            size_t need = at + 1 + n + 2 * (size_t)r;
            if (need > cap) {
                cap = 2 * need;
                uint32_t *w = realloc(*words, cap * sizeof *w);
                if (!w) {
                    free(moved);
                    return 0;
                }
                *words = w;
            }
            moved[o] = off[a] = (uint32_t)at;
            (*words)[at++] = n + 2 * r;
            for (uint32_t k = 0; k < r; k++) {
                (*words)[at++] = e1;
                (*words)[at++] = r1;
            }
            for (uint32_t k = 0; k < n; k++)
                (*words)[at++] = nbi_u32at(v->paths, o + 1 + k);
        }
    }
    free(moved);
    *nw = at;
    return 1;
}

uint8_t *tb_bounce_levels(const nb_bundle *b, uint32_t level, uint32_t reps, size_t *len,
                          nb_section_info *info)
{
    nbi_agraph g;
    nbi_alevels L;
    if (nbi_agraph_find(b, &g, NULL) != NB_OK || nbi_alevels_find(b, &g, &L, NULL) != NB_OK ||
        !(L.flags & NBI_ALEVELS_PATHS))
        return NULL;
    const uint8_t *p = b->sections[L.section].payload;
    uint32_t *words[NBI_LEVELS_MAX + 1] = {NULL}, *offs[NBI_LEVELS_MAX + 1] = {NULL};
    size_t nw[NBI_LEVELS_MAX + 1] = {0};
    int ok = 1;
    for (uint32_t l = 2; ok && l <= L.nlevels; l++) {
        offs[l] = malloc(((size_t)L.lv[l].narcs + 1) * sizeof *offs[l]);
        ok = offs[l] && bounce_level(&L, l, level == 0 || level == l ? reps : 0, &words[l],
                                     &nw[l], offs[l]);
    }
    /* The new layout: the header and records, each level's arrays (its paths new), the
     * landmarks. */
    uint64_t at = NBI_ALEVELS_HEADER + (uint64_t)NBI_ALEVELS_RECORD * (L.nlevels - 1), o[10];
    for (uint32_t l = 2; l <= L.nlevels; l++) {
        nbi_alevel_layout((uint64_t)L.lv[l].ncx * L.lv[l].ncy, L.lv[l].nnodes, L.lv[l].narcs, 1,
                          nw[l], at, o);
        at = o[9];
    }
    uint64_t lm[3];
    nbi_landmarks_layout(L.nlandmarks, L.lv[L.nlevels].nnodes, at, lm);
    size_t total = (size_t)(L.nlandmarks ? lm[2] : at);
    uint8_t *q = ok ? calloc(1, total) : NULL;
    if (q) {
        size_t head = NBI_ALEVELS_HEADER + (size_t)NBI_ALEVELS_RECORD * (L.nlevels - 1);
        memcpy(q, p, head);
        at = head;
        for (uint32_t l = 2; l <= L.nlevels; l++) {
            const nbi_alevel *v = &L.lv[l];
            uint8_t *r = q + NBI_ALEVELS_HEADER + (size_t)NBI_ALEVELS_RECORD * (l - 2);
            nbi_put32(r + 4 * NBI_ALR_PATH_WORDS, (uint32_t)nw[l]);
            nbi_alevel_layout((uint64_t)v->ncx * v->ncy, v->nnodes, v->narcs, 1, nw[l], at, o);
            const uint8_t *from[7] = {v->cluster_first, v->node_id, v->node_first, v->arc_to,
                                      v->arc_card,      v->arc_diag, v->arc_ann};
            for (int i = 0; i < 7; i++)
                memcpy(q + o[i], from[i], (size_t)(o[i + 1] - o[i]));
            for (uint32_t a = 0; a < v->narcs; a++)
                nbi_put32(q + o[7] + 4 * (size_t)a, offs[l][a]);
            for (size_t i = 0; i < nw[l]; i++)
                nbi_put32(q + o[8] + 4 * i, words[l][i]);
            at = o[9];
        }
        if (L.nlandmarks) {
            memcpy(q + lm[0], L.lm_node, 4 * (size_t)L.nlandmarks);
            memcpy(q + lm[1], L.lm_dist, 8 * (size_t)L.nlandmarks * L.lv[L.nlevels].nnodes);
        }
        *info = b->sections[L.section].info;
        nbb_levels_info(q, total, info);
        info->encoding = NB_ENC_RAW;
        *len = total;
    }
    for (uint32_t l = 2; l <= L.nlevels; l++) {
        free(words[l]);
        free(offs[l]);
    }
    return q;
}

/* ---- the graph's own stored paths ---- */

static unsigned move_at(const uint8_t *m, uint64_t n) { return (m[n / 2] >> (4 * (n % 2))) & 15u; }
static void put_move(uint8_t *m, uint64_t n, unsigned v)
{
    m[n / 2] = (uint8_t)((m[n / 2] & ~(15u << (4 * (n % 2)))) | (v << (4 * (n % 2))));
}

uint8_t *tb_bounce_graph(const nb_bundle *b, uint32_t reps, size_t *len, nb_section_info *info)
{
    nbi_agraph g;
    if (nbi_agraph_find(b, &g, NULL) != NB_OK || !g.arc_path)
        return NULL;
    const uint8_t *p = b->sections[g.section].payload;
    size_t plen = (size_t)b->sections[g.section].info.usize;
    uint64_t narcs = 2 * (uint64_t)g.nedges, old = 2 * (uint64_t)g.path_bytes;
    uint32_t *moved = malloc((old + 1) * sizeof *moved), *extra = malloc((old + 1) * sizeof *extra);
    uint8_t *moves = NULL;
    uint64_t at = 0, cap = 0;
    int ok = moved && extra;
    for (uint64_t i = 0; ok && i <= old; i++)
        moved[i] = UINT32_MAX;
    /* New moves, and each path's bounces (extra[old offset]). */
    for (uint64_t a = 0; ok && a < narcs; a++) {
        uint32_t o = nbi_u32at(g.arc_path, a), steps = nbi_agraph_arc_steps(&g, a);
        if (o == NBI_NO_PATH || moved[o] != UINT32_MAX || steps == 0)
            continue;
        uint32_t card = nbi_u16at(g.arc_w, 2 * a), diag = nbi_u16at(g.arc_w, 2 * a + 1);
        unsigned m0 = move_at(g.moves, o);
        uint64_t cells = (uint64_t)g.cluster * g.cluster;
        uint64_t room = cells > steps + 1 ? (cells - 1 - steps) / 2 : 0;
        uint64_t w = m0 < 4 ? card : diag;
        if (room > (65535 - w) / 2)
            room = (65535 - w) / 2;
        uint32_t r = reps < room ? reps : (uint32_t)room;
        if (at + steps + 2 * (uint64_t)r + 2 > cap) {
            cap = 2 * (at + steps + 2 * (uint64_t)r + 2);
            uint8_t *mm = realloc(moves, (size_t)(cap / 2 + 1));
            if (!(ok = mm != NULL))
                break;
            memset(mm + (at + 1) / 2, 0, (size_t)(cap / 2 + 1 - (at + 1) / 2));
            moves = mm;
        }
        moved[o] = (uint32_t)at;
        extra[o] = r;
        for (uint32_t k = 0; k < r; k++) {
            put_move(moves, at++, m0);
            put_move(moves, at++, nbi_move_opposite(m0));
        }
        for (uint32_t k = 0; k < steps; k++)
            put_move(moves, at++, move_at(g.moves, (uint64_t)o + k));
    }
    uint8_t *q = NULL;
    uint64_t off[11];
    uint32_t pbytes = (uint32_t)((at + 1) / 2);
    nbi_agraph_layout(g.ncaps, g.nsizes, (uint64_t)g.ncx * g.ncy, g.nnodes, g.nedges, 1, pbytes,
                      off);
    if (ok && (q = calloc(1, (size_t)off[10])) != NULL) {
        memcpy(q, p, (size_t)off[9] < plen ? (size_t)off[9] : plen);
        nbi_put32(q + 4 * NBI_AB_PATH_BYTES, pbytes);
        for (uint64_t a = 0; a < narcs; a++) {
            uint32_t o = nbi_u32at(g.arc_path, a);
            if (o == NBI_NO_PATH || moved[o] == UINT32_MAX)
                continue;
            nbi_put32(q + off[8] + 4 * a, moved[o]);
            /* The bounce's steps, on the weight of the first move's kind. */
            unsigned m0 = move_at(g.moves, o);
            size_t wi = (size_t)off[6] + 4 * (size_t)a + (m0 < 4 ? 0 : 2);
            nbi_put16(q + wi, (uint16_t)(nbi_get16(q + wi) + 2 * extra[o]));
        }
        if (moves)
            memcpy(q + off[9], moves, pbytes);
        *info = b->sections[g.section].info;
        nbb_abstract_info(q, info);
        info->encoding = NB_ENC_RAW;
        *len = (size_t)off[10];
    }
    free(moved);
    free(extra);
    free(moves);
    return q;
}
