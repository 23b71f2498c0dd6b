/* abstract_rebake.c: mkabstract's graph, built whole or brought up to date.
 *
 * The old graph is brought up to date when its header records the options
 * asked for, for the same capabilities and sizes, and its bundle holds the
 * clearance it was built from: the cells whose clearance differs are the
 * changes, and abstract_plan.c says which units they reach. */
#include <stdlib.h>

#include "abstract/abstract_build.h"

int nbb_abstract_opts_of(const uint8_t *p, size_t len, const nbb_abstract_source *src,
                         nbb_abstract_opts *o)
{
    /* The header and the capabilities and sizes after it: all that is
     * read, so that a graph kept as it is costs no check of its arrays. */
    uint64_t off[11];
    if (len < NBI_ABSTRACT_HEADER)
        return 0;
#define WORD(w) nbi_get32(p + 4 * (w))
    uint32_t ncaps = WORD(NBI_AB_NCAPS), nsizes = WORD(NBI_AB_NSIZES);
    if (WORD(NBI_AB_WIDTH) != src->width || WORD(NBI_AB_HEIGHT) != src->height ||
        ncaps != src->ncaps || nsizes != src->nsizes)
        return 0;
    nbi_agraph_layout(ncaps, nsizes, 0, 0, 0, 0, 0, off);
    if (off[1] + 4 * (uint64_t)nsizes > len)
        return 0;
    for (uint32_t i = 0; i < ncaps; i++)
        if (nbi_u32at(p + off[0], i) != src->caps[i])
            return 0;
    for (uint32_t i = 0; i < nsizes; i++)
        if (nbi_u32at(p + off[1], i) != src->sizes[i])
            return 0;
    nbb_abstract_defaults(o);
    o->cluster = WORD(NBI_AB_CLUSTER);
    o->quality = WORD(NBI_AB_QUALITY);
    o->corner = (nb_corner)WORD(NBI_AB_CORNER);
    o->placement = WORD(NBI_AB_PLACEMENT);
    o->spread = o->placement >= NBI_PLACE_SPREAD ? WORD(NBI_AB_SPREAD) : NBB_SPREAD_DEFAULT;
    o->paths = (WORD(NBI_AB_FLAGS) & NBI_AGRAPH_PATHS) != 0;
#undef WORD
    nbb_abstract_opts checked;
    return nbb_ab_check_opts(o, &checked, NULL) == NB_OK;
}

/* The same options, as far as the bytes go. */
static int same_opts(const nbb_abstract_opts *a, const nbb_abstract_opts *b)
{
    return a->cluster == b->cluster && a->quality == b->quality && a->corner == b->corner &&
           a->placement == b->placement &&
           (a->placement < NBI_PLACE_SPREAD || a->spread == b->spread) &&
           !a->paths == !b->paths && a->through == b->through;
}

/* Appends the cells whose values differ between two layers of one size
 * and width. */
static int layer_changes(const nbi_layer *a, const nbi_layer *b, uint32_t **cells, size_t *n,
                         size_t *cap)
{
    uint64_t total = (uint64_t)a->width * a->height, nbits = total * a->bits;
    uint64_t bytes = (nbits + 7) / 8;
    /* Whole 64-byte blocks first: most are equal. */
    for (uint64_t at = 0; at < bytes; at += 64) {
        uint64_t len = bytes - at < 64 ? bytes - at : 64;
        if (memcmp(a->bits_at + at, b->bits_at + at, (size_t)len) == 0)
            continue;
        uint64_t c0 = at * 8 / a->bits, c1 = ((at + len) * 8 + a->bits - 1) / a->bits;
        for (uint64_t c = c0; c < c1 && c < total; c++)
            if (nbi_layer_get(a, c) != nbi_layer_get(b, c)) {
                if (!nbi_grow(nbb_mem(), (void **)cells, cap, *n + 1, sizeof **cells))
                    return 0;
                (*cells)[(*n)++] = (uint32_t)c;
            }
    }
    return 1;
}

nb_status nbb_abstract_update(const nb_bundle *b, const nb_bundle *old,
                              const nbb_abstract_opts *o, int full, uint8_t **payload,
                              size_t *len, nbb_abstract_stats *stats, nb_err *err)
{
    *payload = NULL;
    *len = 0;
    if (stats)
        memset(stats, 0, sizeof *stats);
    nbb_abstract_opts want, had;
    nb_status st = nbb_ab_check_opts(o, &want, err);
    if (st != NB_OK)
        return st;
    nbb_abstract_source *src = nbb_malloc(sizeof *src), *osrc = nbb_malloc(sizeof *osrc);
    if (!src || !osrc) {
        nbb_free(src);
        nbb_free(osrc);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to abstract a map");
    }
    st = nbb_abstract_source_of(b, src, err);
    /* The old graph is used when it was built with these options for the
     * same capabilities and sizes, and its bundle holds the clearance it
     * was built from: the cells whose clearance differs are the changes. */
    long idx = -1;
    const void *gp = NULL;
    size_t glen = 0;
    for (size_t i = 0; old && !full && i < nb_bundle_section_count(old) && idx < 0; i++)
        if (nb_bundle_section_get(old, i)->type == NB_SEC_ABSTRACT)
            idx = (long)i;
    int incremental = st == NB_OK && idx >= 0 &&
                      nb_bundle_payload(old, (size_t)idx, &gp, &glen, NULL) == NB_OK &&
                      nbb_abstract_opts_of(gp, glen, src, &had) && same_opts(&want, &had) &&
                      nbb_abstract_source_of(old, osrc, NULL) == NB_OK;
    uint32_t *changed = NULL;
    size_t nchanged = 0, cap = 0;
    for (uint32_t i = 0; incremental && i < src->ncaps; i++) {
        if (osrc->layer[i].bits != src->layer[i].bits)
            incremental = 0;
        else if (!layer_changes(&osrc->layer[i], &src->layer[i], &changed, &nchanged, &cap))
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory to compare the clearance layers");
    }
    nbi_agraph g;
    if (st == NB_OK && incremental && nchanged == 0) {
        /* Nothing the graph depends on changed: it stays as it is. */
        if (stats) {
            stats->incremental = 1;
            stats->kept = 1;
            stats->clusters = (uint64_t)((src->width + want.cluster - 1) / want.cluster) *
                              ((src->height + want.cluster - 1) / want.cluster);
        }
    } else if (st == NB_OK) {
        /* Only now are the old graph's arrays read: they are checked first. */
        if (incremental && nbi_agraph_at(old, (size_t)idx, &g, NULL) != NB_OK)
            incremental = 0;
        st = nbb_ab_bake(src, incremental ? &g : NULL, changed, nchanged, o, payload, len, stats,
                         err);
        if (st == NB_OK && stats) {
            stats->incremental = incremental;
            stats->changed_cells = nchanged;
        }
    }
    nbb_free(changed);
    nbb_free(src);
    nbb_free(osrc);
    return nbi_done(err, st);
}

nb_status nbb_abstract_build(const nb_bundle *b, const nbb_abstract_opts *o, uint8_t **payload,
                             size_t *len, nbb_abstract_stats *stats, nb_err *err)
{
    return nbb_abstract_update(b, NULL, o, 1, payload, len, stats, err);
}
