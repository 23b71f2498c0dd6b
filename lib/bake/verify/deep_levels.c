/* deep_levels.c: the levels above the abstract graph (formats/abstract.md,
 * section type 34) against the graph they were baked from: baked again with
 * the options their header records (levels, factor, spacing, share,
 * landmarks; the graph's own paths) and compared, naming the level and the
 * array of the first byte that differs.  A version-1 section's landmarks, which
 * today's bake chooses otherwise, are baked again as version 1 chose them (every
 * one a node, farthest first), from its top level once that is proved today's. */
#include <stdlib.h>
#include <string.h>

#include "abstract/abstract_build.h"
#include "abstract/alevels.h"
#include "verify/deep.h"

static const char *const array_name[9] = {"cluster_first", "node_id", "node_first",
                                          "arc_to",        "arc_card", "arc_diag",
                                          "arc_ann",       "arc_path", "paths"};

/* Where byte at of a payload laid out as L describes lies, in words. */
static void place_of(const nbi_alevels *L, const uint8_t *p, size_t at, char *out, size_t len)
{
    if (at < NBI_ALEVELS_HEADER) {
        snprintf(out, len, "header word %zu", at / 4);
        return;
    }
    const int paths = (L->flags & NBI_ALEVELS_PATHS) != 0;
    uint64_t start = NBI_ALEVELS_HEADER + (uint64_t)NBI_ALEVELS_RECORD * (L->nlevels - 1);
    if (at < start) {
        snprintf(out, len, "level %zu's record", (at - NBI_ALEVELS_HEADER) / NBI_ALEVELS_RECORD + 2);
        return;
    }
    for (uint32_t j = 2; j <= L->nlevels; j++) {
        const nbi_alevel *v = &L->lv[j];
        uint64_t off[10];
        nbi_alevel_layout((uint64_t)v->ncx * v->ncy, v->nnodes, v->narcs, paths, v->path_words,
                          (uint64_t)(v->cluster_first - p), off);
        for (int a = 8; a >= 0; a--)
            if (at >= off[a] && at < off[9] && off[a] < off[a + 1]) {
                snprintf(out, len, "level %u's %s[%llu]", j, array_name[a],
                         (unsigned long long)((at - off[a]) / (a == 6 ? 2 : 4)));
                return;
            }
    }
    if (L->nlandmarks && at >= (size_t)(L->lm_dist - p))
        snprintf(out, len, "the landmarks' distances, node %zu, landmark %zu",
                 (at - (size_t)(L->lm_dist - p)) / 8 / L->nlandmarks,
                 (at - (size_t)(L->lm_dist - p)) / 8 % L->nlandmarks);
    else
        snprintf(out, len, "the landmarks' nodes");
}

nb_status nbb_deep_levels(nbb_deep *d, nb_err *err)
{
    const nb_bundle *b = d->b;
    nbi_agraph g;
    nbi_alevels L;
    nb_status st = nbi_agraph_find(b, &g, err);
    if (st == NB_OK)
        st = nbi_alevels_find(b, &g, &L, err); /* its message names the section */
    if (st != NB_OK)
        return st;
    const struct nbi_section *gs = &b->sections[g.section], *ls = &b->sections[d->index];
    const uint8_t *have = ls->payload;
    size_t hlen = (size_t)ls->info.usize;
    nbb_levels_opts o = {L.nlevels, L.factor, L.spacing, 0, L.share,
                         nbi_get32(have + 4 * NBI_AL_LANDMARKS)};
    uint8_t *p = NULL;
    size_t len = 0;
    st = nbb_levels_bake(gs->payload, (size_t)gs->info.usize, b->width, b->height, &o, &p, &len,
                         err);
    if (st != NB_OK)
        return nbb_deep_cannot(d, st, err, "from the abstract graph");
    size_t n = len < hlen ? len : hlen, at = 0;
    /* Version 1's landmarks are nodes chosen farthest first, where today's bake starts from the
     * map's corners: everything before them is compared with today's bake, then they are
     * chosen again as version 1 chose them, on the stored top level (now proved today's), in
     * place of today's, and compared too. */
    int v1 = ls->info.version == 1 && L.nlandmarks;
    size_t lm = v1 ? (size_t)(L.lm_node - have) : 0;
    if (v1 && lm < n)
        n = lm;
    while (at < n && p[at] == have[at])
        at++;
    if (v1 && at == n && len == hlen) {
        memset(p + lm, 0, len - lm);
        st = nbb_landmarks_build(&L, L.nlandmarks, 1, p + lm, p + (L.lm_dist - have), err);
        if (st != NB_OK) {
            nbb_free(p);
            return nbb_deep_cannot(d, st, err, "as version 1 chose them");
        }
        for (n = len; at < n && p[at] == have[at];)
            at++;
    }
    if (at < n || len != hlen) {
        char where[96];
        place_of(&L, have, at, where, sizeof where);
        st = at < n ? nbb_deep_fail(d, err, "payload byte %zu (%s) is 0x%02x, recomputed 0x%02x",
                                    at, where, have[at], p[at])
                    : nbb_deep_fail(d, err, "%zu bytes, recomputed %zu", hlen, len);
    }
    nbb_free(p);
    return st;
}
