/* level_rebake.c: what mkclear makes of a bundle for a level: the level's
 * sections, its clearance and component layers, and the abstract graph
 * built on them, kept up to date.
 *
 * When the bundle held the same level, nothing changes.  When it held the
 * same size, legend and agent set with some cells changed, the changed
 * rows reach a few bands of each clearance layer (clearance_rebake.c);
 * the cells whose standing changed reach a few components
 * (components_repair.c); the cells whose clearance changed reach a few
 * clusters and borders of the abstract graph (abstract_rebake.c, with the
 * options its header records).  Everything else is kept as it is stored:
 * not compressed again.  The bytes are those of a whole bake.
 * Any other level makes the sections built on the old one meaningless:
 * they are removed (and named), and the layers are baked whole.
 *
 * What an update trusts (mkclear(1)): the layers it keeps must be the
 * map's, and are checked for it: every band of every clearance layer is
 * computed from the map and compared where no change reaches; each
 * component layer, repaired or kept, is compared with a whole bake of the
 * checked clearance, and its runs (patched or kept) are checked against
 * it in one pass, without building them.  A difference refuses the old
 * bundle, naming the layer, the cell and --full: a layer that is not its
 * map's was changed after it was baked, and so may anything else in it.
 * The abstract graph is the one thing kept unchecked (checking it costs a
 * whole build): its clusters no change reaches, and the levels above it
 * when it is kept whole, are taken as mkabstract made them from the layers.
 * --full (o->full) reads nothing of the old sections but the options they
 * were built with: every layer, runs section and cluster comes from the
 * map alone.
 *
 * The registry of section types (sections/section_rules.c) says what
 * becomes of each type here, its rebake rule: a type added to mkclear (or
 * built on the level by another tool) says so there, and until it can be
 * brought up to date it is removed with the others (NBB_RULE_SAME_LEVEL). */
#include <stdlib.h>

#include "abstract/abstract_build.h"
#include "clearance/clearance_build.h"
#include "parallel/parallel.h"
#include "place/runs_build.h"
#include "sections/section_rules.h"

/* What a refusal of an old bundle ends with. */
#define NBB_TRUST_FULL \
    "; mkclear updates a bundle only where what it keeps is its map's: bake it from the map " \
    "alone with --full"

/* A layer as it will be written: kept (the old section as stored), or a
 * new payload (malloc'ed, owned here until added). */
typedef struct layer_out {
    long keep;        /* the old section's index, or -1 */
    uint8_t *payload; /* a new payload, or NULL */
    size_t len;
    nbi_layer view;   /* to read the values (kept or new) */
    uint32_t params[4];
    size_t nparams;
    long runs_keep;   /* a component layer's runs: the old section kept, or -1 */
    nbb_runs runs;    /* else the runs built from its values, or patched */
} layer_out;

/* Removes the sections computed from the level (rules UPDATED and
 * SAME_LEVEL) that go with the change stats->change (all for another
 * level), counting them into stats. */
static void remove_derived(nbb_builder *b, const nb_bundle *old, nbb_rebake_stats *stats)
{
    size_t at = 0;
    const nbb_section_rules *r;
    for (size_t k = 0; (r = nbb_section_rules_at(k)) != NULL; k++) {
        if (r->rebake != NBB_RULE_UPDATED && r->rebake != NBB_RULE_SAME_LEVEL)
            continue;
        if (stats->change != NBB_LEVEL_OTHER &&
            (r->rebake == NBB_RULE_UPDATED ||
             (r->rebake == NBB_RULE_SAME_LEVEL && stats->change == NBB_LEVEL_SAME)))
            continue;
        size_t n = 0;
        for (size_t i = 0; old && i < nb_bundle_section_count(old); i++)
            n += nb_bundle_section_get(old, i)->type == r->type;
        nbb_builder_remove(b, r->type);
        if (!n)
            continue;
        stats->removed += n;
        /* The layers are baked again at once: only the others are named. */
        if (r->type == NB_SEC_CLEARANCE || r->type == NB_SEC_COMPONENTS || r->type == NB_SEC_RUNS)
            continue;
        int w = snprintf(stats->removed_what + at, sizeof stats->removed_what - at, "%s%zu %s",
                         at ? ", " : "", n, nb_section_type_name(r->type));
        at += w > 0 && (size_t)w < sizeof stats->removed_what - at ? (size_t)w : 0;
    }
}

/* The old bundle's layer in section idx, if it is one of this map and
 * these parameters (no more components than cells: the repair allocates
 * by the count). */
static int usable(const nb_bundle *old, long idx, const nbi_layer *l, const nbb_grid *g,
                  uint32_t maxval_min)
{
    return idx >= 0 && !l->rows && l->width == g->width && l->height == g->height && l->maxval >= maxval_min &&
           (uint64_t)l->maxval <= (uint64_t)g->width * g->height &&
           l->bits == nbi_bits_for(l->maxval) &&
           old->sections[idx].info.usize == nbi_layer_bytes((uint64_t)g->width * g->height, l->bits);
}

/* A new layer's parameters (clearance: cap, cap size, bits; components:
 * cap, size, count, bits) and its view. */
static void made(layer_out *o, nb_capability cap, uint32_t size, int comp)
{
    uint32_t maxval = nbi_get32(o->payload + NBI_LAYER_MAXVAL);
    o->params[0] = cap;
    o->params[1] = comp ? size : maxval;
    o->params[2] = comp ? maxval : nbi_bits_for(maxval);
    o->params[3] = nbi_bits_for(maxval);
    o->nparams = comp ? 4 : 3;
    nbb_layer_of_payload(o->payload, &o->view);
}

/* Adds a layer: the old section as stored when it is kept and stored as
 * asked; else its payload, compressed when asked. */
static nb_status add_layer(nbb_builder *b, const nb_bundle *old, layer_out *o, uint32_t type,
                           int compress, nb_err *err)
{
    if (o->keep >= 0) {
        const struct nbi_section *s = &old->sections[o->keep];
        if (!NB_ENC_COMPRESSION(s->info.encoding) == !compress)
            return nbb_builder_borrow(b, old, (size_t)o->keep, err);
        nb_section_info in = s->info;
        in.encoding = (uint16_t)NB_ENC_LAYOUT(in.encoding);
        return nbb_builder_add(b, &in, s->payload, (size_t)s->info.usize, compress, err);
    }
    uint8_t *p = o->payload;
    o->payload = NULL;
    return nbb_layer_add(b, type, o->params, o->nparams, p, o->len, compress, err);
}

/* The rows y0 to y1 - 1 outside which component layer v holds the same
 * values as the old bundle's layer of (cap, size): 0 when there is none
 * or it packs its values in another width. */
static int layer_rows_changed(const nb_bundle *old, const nbi_layer *v, nb_capability cap, uint32_t size,
                        uint32_t *y0, uint32_t *y1)
{
    nbi_layer ol;
    if (nbi_components_layer(old, cap, size, &ol, NULL) != NB_OK || ol.rows || ol.bits != v->bits ||
        ol.width != v->width || ol.height != v->height)
        return 0;
    uint64_t cells = (uint64_t)v->width * v->height, len = (cells * v->bits + 7) / 8, i = 0,
             j = len;
    while (i < len && ol.bits_at[i] == v->bits_at[i])
        i++;
    while (j > i && ol.bits_at[j - 1] == v->bits_at[j - 1])
        j--;
    if (i == j) {
        *y0 = *y1 = 0;
        return 1;
    }
    uint64_t c0 = i * 8 / v->bits, c1 = (j * 8 - 1) / v->bits;
    *y0 = (uint32_t)(c0 / v->width);
    *y1 = (uint32_t)(c1 / v->width + 1);
    if (*y1 > v->height)
        *y1 = v->height;
    return 1;
}

/* The name of component layer (cap, size) in a refusal. */
static void comp_name(const nb_bundle *old, nb_capability cap, uint32_t size, char *out,
                      size_t n)
{
    char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
    nb_capability_format(old, cap, caps, sizeof caps);
    snprintf(out, n, "{%s} for size %u", caps, size);
}

/* The runs of a checked component layer (its values in label): what an
 * update takes from old, checked against label (nbb_runs_check: one pass
 * over the standable cells), or built from label.  An update takes old's
 * runs section as stored when the layer is kept, else that section
 * patched in the rows where the layer changed (runs_patch.c); old NULL (a
 * whole bake) or without runs, they are built.  Runs that are not the
 * layer's refuse the old bundle. */
static nb_status layer_runs(const nb_bundle *old, layer_out *lo, nb_capability cap,
                            uint32_t size, const uint32_t *label, unsigned threads, nb_err *err)
{
    const nbi_layer *v = &lo->view;
    nbi_runs or;
    uint32_t y0 = 0, y1 = 0; /* (set when used; gcc cannot tell) */
    lo->runs_keep = -1;
    if (!old || nbi_runs_find(old, cap, size, &or, NULL) != NB_OK ||
        (lo->keep < 0 && !layer_rows_changed(old, v, cap, size, &y0, &y1)))
        return nbb_runs_build_threads(label, v->width, v->height, v->maxval, threads, &lo->runs,
                                      err);
    const struct nbi_section *s = &old->sections[or.section];
    const uint8_t *have = s->payload;
    size_t len = (size_t)s->info.usize;
    char msg[200] = "", name[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 32];
    nb_err quiet;
    if (lo->keep < 0) {
        /* A patch the old runs refuse (out of order, past the count) is of runs no bake wrote. */
        nb_status st = nbb_runs_patch(&or, v, y0, y1, &lo->runs, &quiet);
        if (st != NB_OK && st != NB_ERR_FORMAT)
            return nbi_fail(err, st, "%s", quiet.msg);
        if (st != NB_OK)
            snprintf(msg, sizeof msg, "%s", quiet.msg);
        have = lo->runs.payload;
        len = lo->runs.len;
    }
    uint64_t stand = 0, cells = (uint64_t)v->width * v->height;
    for (uint64_t i = 0; i < cells; i++)
        stand += label[i] != 0;
    if (*msg || nbb_runs_check(have, len, label, v->width, v->height, v->maxval, stand, msg,
                               sizeof msg)) {
        comp_name(old, cap, size, name, sizeof name);
        return nbi_fail(err, NB_ERR_FORMAT, "%s: section %ld (the runs of %s) is not its map's: %s%s",
                        old->path, or.section, name, msg, NBB_TRUST_FULL);
    }
    if (lo->keep >= 0)
        lo->runs_keep = or.section;
    return NB_OK;
}

/* The whole bake of capability c's layers into out[0] (clearance) and
 * out[1 ..] (a component layer per size, with its runs), telling part the
 * share done; cv and label are scratch of a map's cells. */
static nb_status bake_whole(const nbb_level *lv, nb_capability cap, const uint32_t *sizes,
                            size_t nsizes, uint32_t cap_size, unsigned threads, uint8_t *cv,
                            uint32_t *label, layer_out *out, const nbb_progress_part *part,
                            nb_err *err)
{
    nbb_progress_part layer = *part;
    layer.span = part->span / (double)(1 + nsizes);
    const nbb_grid *g = &lv->grid;
    uint8_t in_cap[256];
    nbb_terrain_mask(&lv->legend, cap, in_cap);
    nb_status st = nbb_bake_clearance_layer(g, in_cap, cap_size, threads, cv, &out[0].payload,
                                            &out[0].len, &layer, err);
    if (st == NB_OK)
        made(&out[0], cap, 0, 0);
    for (size_t s = 0; st == NB_OK && s < nsizes; s++) {
        layer_out *o = &out[1 + s];
        layer.base = part->base + (double)(1 + s) * layer.span;
        st = nbb_bake_components_layer(cv, g->width, g->height, sizes[s], threads, label,
                                       &o->payload, &o->len, &layer, err);
        if (st == NB_OK) {
            made(o, cap, sizes[s], 1);
            st = layer_runs(NULL, o, cap, sizes[s], label, threads, err);
        }
    }
    return st;
}

/* Component layer (cap, size) as an update would write it (o: kept, or
 * repaired from the old one, cs) against a whole bake from the checked
 * clearance cv, which leaves its values in label: a difference refuses the
 * old bundle. */
static nb_status check_components(const nb_bundle *old, const uint8_t *old_payload,
                                  size_t old_len, long idx, const layer_out *o, nb_capability cap,
                                  uint32_t size, const uint8_t *cv, uint32_t *label,
                                  unsigned threads, nb_err *err)
{
    uint32_t w = old->width, h = old->height;
    uint8_t *whole;
    size_t len;
    nb_status st = nbb_bake_components_layer(cv, w, h, size, threads, label, &whole, &len, NULL, err);
    if (st != NB_OK)
        return st;
    const uint8_t *have = o->payload ? o->payload : old_payload;
    size_t hlen = o->payload ? o->len : old_len;
    if (hlen != len || memcmp(have, whole, len) != 0) {
        nbi_layer a, b;
        nbb_layer_of_payload(have, &a);
        nbb_layer_of_payload(whole, &b);
        uint64_t i = 0, n = (uint64_t)w * h;
        while (i < n && nbi_layer_get(&a, i) == nbi_layer_get(&b, i))
            i++;
        char name[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 32];
        comp_name(old, cap, size, name, sizeof name);
        if (i < n)
            st = nbi_fail(err, NB_ERR_FORMAT,
                          "%s: section %ld (the components of %s) is not its map's: %s, cell "
                          "(%u, %u) is in component %u where the map gives %u%s",
                          old->path, idx, name, o->payload ? "brought up to date" : "kept",
                          (uint32_t)(i % w), (uint32_t)(i / w), nbi_layer_get(&a, i),
                          nbi_layer_get(&b, i), NBB_TRUST_FULL);
        else
            st = nbi_fail(err, NB_ERR_FORMAT,
                          "%s: section %ld (the components of %s) is not its map's: %s, it "
                          "counts %u components in %u bits a cell where the map gives %u in %u%s",
                          old->path, idx, name, o->payload ? "brought up to date" : "kept",
                          a.maxval, a.bits, b.maxval, b.bits, NBB_TRUST_FULL);
    }
    nbb_free(whole);
    return st;
}

/* An old component layer stored by runs that an update may repair: of
 * this map, its count within the cells, every run in order (verify's check). */
static int runs_usable(const nb_bundle *old, const nbi_layer *l, const nbb_grid *g)
{
    return l->width == g->width && l->height == g->height &&
           (uint64_t)l->maxval <= (uint64_t)g->width * g->height &&
           l->bits == nbi_bits_for(l->maxval) &&
           nbi_comp_runs_check(old, (size_t)l->section, l, NULL) == NB_OK;
}

/* bake_changes' work once the old layers are found usable: lp the old
 * clearance layer, cl and comp the old component layers and their
 * sections, unpacked[s] the packed payload of a layer stored by runs
 * (NULL: the section's own). */
static nb_status bake_changes_of(const nbb_level *lv, const nb_bundle *old, nb_capability cap,
                                 const uint32_t *sizes, size_t nsizes, uint32_t cap_size,
                                 const uint8_t *changed_rows, unsigned threads, uint8_t *cv,
                                 uint32_t *label, layer_out *out, nbb_cv_change **changes,
                                 size_t *nchanges, nbb_rebake_stats *stats, const nbi_layer *lp,
                                 const nbi_layer *cl, const long *comp,
                                 const uint8_t *const *unpacked, const size_t *unpacked_len,
                                 nb_err *err)
{
    const nbb_grid *g = &lv->grid;
    nbi_layer l = *lp;
    const struct nbi_section *sec = &old->sections[l.section];
    uint8_t in_cap[256];
    nbb_terrain_mask(&lv->legend, cap, in_cap);
    nbb_cv_rebake r;
    nb_status st = nbb_clearance_rebake(g, changed_rows, in_cap, cap_size, nbi_bits_for(cap_size),
                                        threads, sec->payload, (size_t)sec->info.usize, cv, 1, &r,
                                        err);
    if (st != NB_OK)
        return st;
    if (r.lies) {
        st = nbb_clearance_lie(old, &l, cap, &r, NBB_TRUST_FULL, err);
        nbb_free(r.payload);
        nbb_free(r.changes);
        return st;
    }
    *changes = r.changes;
    *nchanges = r.nchanges;
    stats->bands_rebuilt += r.rebuilt;
    stats->clearance_changed += r.nchanges;
    out[0].keep = r.nchanges ? -1 : l.section;
    if (r.nchanges) {
        out[0].payload = r.payload;
        out[0].len = (size_t)sec->info.usize;
        made(&out[0], cap, 0, 0);
    } else {
        nbb_free(r.payload);
        out[0].view = l;
    }
    for (size_t s = 0; st == NB_OK && s < nsizes; s++) {
        layer_out *o = &out[1 + s];
        const struct nbi_section *cs = &old->sections[comp[s]];
        const uint8_t *op = unpacked[s] ? unpacked[s] : cs->payload;
        size_t olen = unpacked[s] ? unpacked_len[s] : (size_t)cs->info.usize;
        nbb_repair_stats rs;
        st = nbb_components_repair(&out[0].view, op, olen, sizes[s], r.changes, r.nchanges,
                                   threads, &o->payload, &o->len, &rs, err);
        if (st == NB_OK)
            st = check_components(old, op, olen, comp[s], o, cap, sizes[s], cv, label, threads,
                                  err);
        if (st != NB_OK)
            break;
        stats->components_searched += rs.searched;
        stats->components_renumbered += rs.renumbered;
        if (!o->payload) {
            o->keep = comp[s];
            o->view = cl[s];
        } else
            made(o, cap, sizes[s], 1);
        st = layer_runs(old, o, cap, sizes[s], label, threads, err);
    }
    return st;
}

/* Capability c's layers brought up to date from the old ones, each
 * checked against the map (cv and label: scratch of a map's cells): 0
 * (and nothing done) when the old bundle lacks one of them. */
static nb_status bake_changes(const nbb_level *lv, const nb_bundle *old, nb_capability cap,
                              const uint32_t *sizes, size_t nsizes, uint32_t cap_size,
                              const uint8_t *changed_rows, unsigned threads, uint8_t *cv,
                              uint32_t *label, layer_out *out, nbb_cv_change **changes,
                              size_t *nchanges, int *done, nbb_rebake_stats *stats, nb_err *err)
{
    const nbb_grid *g = &lv->grid;
    nbi_layer l;
    *done = 0;
    if (nbi_clearance_layer(old, cap, &l, NULL) != NB_OK || !usable(old, l.section, &l, g, 0) ||
        l.maxval != cap_size)
        return NB_OK;
    long comp[NB_MAX_AGENTS];
    nbi_layer cl[NB_MAX_AGENTS];
    for (size_t s = 0; s < nsizes; s++)
        if (nbi_components_layer(old, cap, sizes[s], &cl[s], NULL) != NB_OK ||
            !(cl[s].rows ? runs_usable(old, &cl[s], g) : usable(old, cl[s].section, &cl[s], g, 0)))
            return NB_OK;
        else
            comp[s] = cl[s].section;
    /* Layers stored by runs (a tile's) are repaired as packed ones. */
    uint8_t *unpacked[NB_MAX_AGENTS] = {NULL};
    size_t unpacked_len[NB_MAX_AGENTS] = {0};
    for (size_t s = 0; s < nsizes; s++)
        if (cl[s].rows && !(unpacked[s] = nbb_comp_runs_unpack(&cl[s], &unpacked_len[s]))) {
            for (size_t k = 0; k < s; k++)
                nbb_free(unpacked[k]);
            return nbi_fail(err, NB_ERR_NOMEM, "no memory to unpack a component layer");
        }
    nb_status st = bake_changes_of(lv, old, cap, sizes, nsizes, cap_size, changed_rows, threads,
                                   cv, label, out, changes, nchanges, stats, &l, cl, comp,
                                   (const uint8_t *const *)unpacked, unpacked_len, err);
    *done = 1;
    for (size_t s = 0; s < nsizes; s++)
        nbb_free(unpacked[s]);
    return st;
}

static int by_cell(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

static nb_status update_graph(nbb_builder *b, const nb_bundle *old, long idx,
                              const nbb_acosts_source *cs, const nb_capability *caps,
                              size_t ncaps, const uint32_t *sizes, size_t nsizes,
                              const uint32_t *changed, size_t nchanged, int full,
                              unsigned threads, const nbb_rebake_opts *ro,
                              nbb_rebake_stats *stats, nb_err *err);

/* The abstract graph of the old bundle, brought up to date (or built
 * whole when full) with the options it was built with, from the new
 * layers; removed (and named) when it cannot be. */
static nb_status update_abstract(nbb_builder *b, const nbb_level *lv, const nb_bundle *old,
                                 const layer_out *const *clear, const nb_capability *caps,
                                 size_t ncaps, const uint32_t *sizes, size_t nsizes,
                                 const uint32_t *changed, size_t nchanged, int full,
                                 unsigned threads, const nbb_rebake_opts *ro,
                                 nbb_rebake_stats *stats, nb_err *err)
{
    long idx = -1;
    for (size_t i = 0; i < nb_bundle_section_count(old) && idx < 0; i++)
        if (nb_bundle_section_get(old, i)->type == NB_SEC_ABSTRACT)
            idx = (long)i;
    if (idx < 0) {
        nbb_builder_remove(b, NB_SEC_ABSTRACT_COSTS); /* costs and levels without their graph */
        nbb_builder_remove(b, NB_SEC_ABSTRACT_LEVELS);
        return NB_OK;
    }
    /* The graph's costs follow the new cells even where the graph stays. */
    nbb_acosts_source *cs = nbb_malloc(sizeof *cs);
    if (!cs)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to abstract a map");
    memset(cs, 0, sizeof *cs);
    cs->width = lv->grid.width;
    cs->height = lv->grid.height;
    cs->cells = lv->grid.cells;
    cs->legend = &lv->legend;
    cs->agents = &lv->agents;
    cs->ncaps = (uint32_t)ncaps;
    memcpy(cs->caps, caps, ncaps * sizeof *caps);
    for (size_t c = 0; c < ncaps; c++)
        cs->layer[c] = clear[c]->view;
    nb_status st = update_graph(b, old, idx, cs, caps, ncaps, sizes, nsizes, changed, nchanged,
                                full, threads, ro, stats, err);
    nbb_free(cs);
    return st;
}

/* The options old's levels section was baked with: 1; 0 when it has none;
 * -1 when it has one whose options this library cannot bake (it goes: it
 * was baked for the old graph). */
static int levels_opts_of(const nb_bundle *old, nbb_levels_opts *lo)
{
    long i = nbi_section_index(old, NB_SEC_ABSTRACT_LEVELS, NULL, NULL, 0);
    const void *p;
    size_t len;
    if (i < 0)
        return 0;
    if (nb_bundle_payload(old, (size_t)i, &p, &len, NULL) != NB_OK || len < NBI_ALEVELS_HEADER)
        return -1;
    lo->levels = nbi_get32((const uint8_t *)p + 4 * NBI_AL_LEVELS);
    lo->factor = nbi_get32((const uint8_t *)p + 4 * NBI_AL_FACTOR);
    lo->spacing = nbi_get32((const uint8_t *)p + 4 * NBI_AL_SPACING);
    lo->share = nbi_get32((const uint8_t *)p + 4 * NBI_AL_SHARE);
    lo->landmarks = nbi_get32((const uint8_t *)p + 4 * NBI_AL_LANDMARKS);
    lo->threads = 0;
    return lo->levels >= 2 && lo->levels <= NBI_LEVELS_MAX && lo->factor >= 2 &&
                   lo->factor <= NBI_LEVEL_FACTOR_MAX && lo->spacing >= 1 && lo->spacing <= 64 &&
                   lo->share <= 65535 && lo->landmarks <= NBI_LANDMARKS_MAX
               ? 1
               : -1;
}

/* update_abstract's graph (old's section idx) and its costs. */
static nb_status update_graph(nbb_builder *b, const nb_bundle *old, long idx,
                              const nbb_acosts_source *cs, const nb_capability *caps,
                              size_t ncaps, const uint32_t *sizes, size_t nsizes,
                              const uint32_t *changed, size_t nchanged, int full,
                              unsigned threads, const nbb_rebake_opts *ro,
                              nbb_rebake_stats *stats, nb_err *err)
{
    const struct nbi_section *sec = &old->sections[idx];
    int compress = NB_ENC_COMPRESSION(sec->info.encoding) != 0;
    if (!full && nchanged == 0) {
        stats->abstract = NBB_REBAKE_KEPT;
        const void *gp;
        size_t glen;
        nb_status st = nb_bundle_payload(old, (size_t)idx, &gp, &glen, err);
        return st == NB_OK ? nbb_acosts_put(b, cs, gp, glen, compress, NULL, err) : st;
    }
    nbb_abstract_source *src = nbb_malloc(sizeof *src);
    if (!src)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to abstract a map");
    memset(src, 0, sizeof *src);
    src->width = cs->width;
    src->height = cs->height;
    src->ncaps = (uint32_t)ncaps;
    src->nsizes = (uint32_t)nsizes;
    memcpy(src->caps, caps, ncaps * sizeof *caps);
    memcpy(src->sizes, sizes, nsizes * sizeof *sizes);
    for (size_t c = 0; c < ncaps; c++)
        src->layer[c] = cs->layer[c];
    nbi_agraph g;
    nbb_abstract_opts o;
    nb_status st = NB_OK;
    if (!nbb_abstract_opts_of(sec->payload, (size_t)sec->info.usize, src, &o) ||
        (!full && nbi_agraph_at(old, (size_t)idx, &g, NULL) != NB_OK)) {
        /* Not a graph this library can bring up to date: it goes. */
        nbb_builder_remove(b, NB_SEC_ABSTRACT);
        nbb_builder_remove(b, NB_SEC_ABSTRACT_COSTS);
        nbb_builder_remove(b, NB_SEC_ABSTRACT_LEVELS);
        stats->abstract = NBB_REBAKE_REMOVED;
        stats->removed++;
        snprintf(stats->removed_what, sizeof stats->removed_what, "1 abstract");
    } else {
        uint8_t *payload;
        size_t len;
        o.threads = threads;
        nbb_progress_part part = {ro->progress, ro->progress_arg, 0.5, 0.5, NULL};
        o.progress = ro->progress ? nbb_progress_part_fn : NULL;
        o.progress_arg = &part;
        st = nbb_ab_bake(src, full ? NULL : &g, changed, nchanged, &o, &payload, &len,
                         &stats->abstract_stats, err);
        if (st == NB_OK)
            st = nbb_acosts_put(b, cs, payload, len, compress, NULL, err);
        /* The levels above the graph, with the options they were baked with: built again
         * whole from the new graph (what a whole bake writes; they cost a fraction of it). */
        nbb_levels_opts lo;
        int has = st == NB_OK ? levels_opts_of(old, &lo) : 0;
        if (has > 0) {
            lo.threads = threads;
            st = nbb_levels_put(b, payload, len, cs->width, cs->height, &lo, compress, err);
        } else if (has < 0) {
            nbb_builder_remove(b, NB_SEC_ABSTRACT_LEVELS);
        }
        if (st != NB_OK)
            nbb_free(payload);
        if (st == NB_OK) {
            nb_section_info in;
            nbb_abstract_info(payload, &in);
            nbb_builder_remove(b, NB_SEC_ABSTRACT);
            st = nbb_builder_add_owned(b, &in, payload, len, compress, err);
            stats->abstract = full ? NBB_REBAKE_REBUILT : NBB_REBAKE_UPDATED;
        }
    }
    nbb_free(src);
    return st;
}

/* Flags the rows where the two maps differ; returns how many cells do. */
static uint64_t changed_rows(const nbi_map *a, const uint8_t *b, uint32_t w, uint32_t h,
                             uint8_t *rows)
{
    uint64_t n = 0;
    uint8_t ra[NB_MAP_MAX_SIDE]; /* a row of the old map, unpacked */
    for (size_t y = 0; y < h; y++) {
        const uint8_t *rb = b + y * w;
        nbi_map_chars(a, y * w, w, ra);
        rows[y] = memcmp(ra, rb, w) != 0;
        for (size_t x = 0; rows[y] && x < w; x++)
            n += ra[x] != rb[x];
    }
    return n;
}

nb_status nbb_level_rebake(nbb_builder *b, const nbb_level *lv, const nb_bundle *old,
                           const nbb_rebake_opts *o, nbb_rebake_stats *stats, nb_err *err)
{
    memset(stats, 0, sizeof *stats);
    const nbb_grid *g = &lv->grid;
    unsigned threads = nbb_threads_resolve(o->threads);
    stats->change = old ? nbb_level_compare(lv, old, stats->why, sizeof stats->why)
                        : NBB_LEVEL_OTHER;
    nb_capability caps[NB_MAX_AGENTS];
    uint32_t sizes[NB_MAX_AGENTS];
    size_t ncaps = nbi_agents_capabilities(&lv->agents, caps);
    size_t nsizes = nbi_agents_sizes(&lv->agents, sizes);
    uint32_t cap_size = nbi_agents_max_size(&lv->agents);
    stats->bands = nbb_band_count(g->height) * (uint32_t)ncaps;
    stats->layers = (uint32_t)(ncaps * (1 + nsizes));
    nb_status st = NB_OK;
    if (stats->change == NBB_LEVEL_OTHER) {
        /* Another level: what was built on the old one goes. */
        remove_derived(b, old, stats);
        st = nbb_level_put(b, lv, o->compress, err);
        if (st == NB_OK)
            st = nbb_bake_clearance_opts(b, &lv->legend, &lv->agents, g, o->compress, threads,
                                         o->progress, o->progress_arg, NULL, err);
        stats->bands_rebuilt = stats->bands;
        stats->layers_rebuilt = stats->layers;
        return st;
    }
    /* The same level, or some of its cells changed. */
    remove_derived(b, old, stats);
    uint8_t *rows = nbb_malloc(g->height ? g->height : 1);
    layer_out *out = nbb_calloc(ncaps * (1 + nsizes) + 1, sizeof *out);
    const layer_out **clear = nbb_malloc((ncaps + 1) * sizeof *clear);
    uint32_t *changed = NULL;
    size_t nchanged = 0, cap = 0, ncells = (size_t)g->width * g->height;
    /* Every cell's clearance and component: what the layers are checked against. */
    uint8_t *cv = nbb_malloc(ncells ? ncells : 1);
    uint32_t *label = nbb_malloc((ncells ? ncells : 1) * sizeof *label);
    if (!rows || !out || !clear || !cv || !label) {
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to compare the levels");
        goto done;
    }
    stats->changed_cells = changed_rows(&old->map, g->cells, g->width, g->height, rows);
    if (stats->change == NBB_LEVEL_CELLS)
        st = nbb_level_put(b, lv, o->compress, err);
    /* A change of most of the map is baked whole: no faster otherwise. */
    int full = o->full || stats->changed_cells > (uint64_t)g->width * g->height / 4;
    /* Progress: the layers by capability, then the abstract graph. */
    nbb_progress_part part = {o->progress, o->progress_arg, 0, 0.5 / (double)(ncaps ? ncaps : 1),
                              NULL};
    for (size_t c = 0; st == NB_OK && c < ncaps; c++) {
        layer_out *lo = &out[c * (1 + nsizes)];
        part.base = (double)c * part.span;
        nbb_progress_part_report(&part, 0);
        clear[c] = lo;
        for (size_t k = 0; k <= nsizes; k++)
            lo[k].keep = lo[k].runs_keep = -1;
        nbb_cv_change *ch = NULL;
        size_t nch = 0;
        int done = 0;
        if (!full)
            st = bake_changes(lv, old, caps[c], sizes, nsizes, cap_size, rows, threads, cv,
                              label, lo, &ch, &nch, &done, stats, err);
        if (st == NB_OK && !done) {
            st = bake_whole(lv, caps[c], sizes, nsizes, cap_size, threads, cv, label, lo, &part,
                            err);
            stats->bands_rebuilt += nbb_band_count(g->height);
            full = 1; /* the abstract graph cannot know what changed either */
        }
        for (size_t i = 0; st == NB_OK && i < nch; i++) {
            if (!nbi_grow(nbb_mem(), (void **)&changed, &cap, nchanged + 1, sizeof *changed))
                st = nbi_fail(err, NB_ERR_NOMEM, "no memory to compare the levels");
            else
                changed[nchanged++] = ch[i].cell;
        }
        nbb_free(ch);
    }
    if (st == NB_OK && !nbb_sort(changed, nchanged, sizeof *changed, by_cell))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory to compare the levels");
    /* The same level: whatever was built on it stands, even when its layers
     * were missing and were baked whole. */
    if (stats->change == NBB_LEVEL_SAME && !o->full)
        full = 0;
    /* The layers, then the graph built on them. */
    nbb_builder_remove(b, NB_SEC_CLEARANCE);
    nbb_builder_remove(b, NB_SEC_COMPONENTS);
    nbb_builder_remove(b, NB_SEC_RUNS);
    for (size_t c = 0; st == NB_OK && c < ncaps; c++)
        for (size_t k = 0; st == NB_OK && k <= nsizes; k++) {
            layer_out *lo = &out[c * (1 + nsizes) + k];
            stats->layers_rebuilt += lo->keep < 0;
            if (k == 0)
                continue; /* the clearance layer last: the graph reads it */
            layer_out runs;
            memset(&runs, 0, sizeof runs);
            runs.keep = lo->runs_keep;
            st = lo->runs_keep >= 0
                     ? add_layer(b, old, &runs, NB_SEC_RUNS, o->compress, err)
                     : nbb_runs_add_built(b, caps[c], sizes[k - 1], &lo->runs, o->compress, err);
            if (st == NB_OK)
                st = add_layer(b, old, lo, NB_SEC_COMPONENTS, o->compress, err);
        }
    if (st == NB_OK)
        st = update_abstract(b, lv, old, clear, caps, ncaps, sizes, nsizes, changed, nchanged,
                             full, threads, o, stats, err);
    for (size_t c = 0; st == NB_OK && c < ncaps; c++)
        st = add_layer(b, old, &out[c * (1 + nsizes)], NB_SEC_CLEARANCE, o->compress, err);
done:
    for (size_t i = 0; out && i < ncaps * (1 + nsizes); i++) {
        nbb_free(out[i].payload);
        nbb_runs_free(&out[i].runs);
    }
    nbb_free(out);
    nbb_free(cv);
    nbb_free(label);
    nbb_free(clear);
    nbb_free(rows);
    nbb_free(changed);
    return st;
}
