/* bake_run.c: the bake library's bake (navbake_bake.h): the level a handle
 * holds, through mkclear's code (the level, clearance, components, runs;
 * the optimal layers) and mkabstract's (the graph, its costs and levels),
 * into a bundle in memory or on disk.  The progress callback may cancel:
 * each step checks after each report (a band of rows, some clusters, some
 * nodes of the optimal layer's graph: bake.h's nbb_progress_part.stop),
 * and nothing is handed out or written, since the file is written only at
 * the end, beside its target and renamed into place. */
#include <stdlib.h>
#include <string.h>

#include "api/bake_api.h"

/* The public codes are formats/abstract.md's, as the graph's header stores them. */
_Static_assert(NB_BAKE_QUALITY_INITIAL == NBI_QUALITY_INITIAL && NB_BAKE_QUALITY_HIGH ==
                   NBI_QUALITY_HIGH && NB_BAKE_QUALITY_LOW == NBI_QUALITY_LOW,
               "qualities");
_Static_assert(NB_BAKE_PLACE_FIRST == NBI_PLACE_FIRST && NB_BAKE_PLACE_MIDDLE == NBI_PLACE_MIDDLE &&
                   NB_BAKE_PLACE_SPREAD == NBI_PLACE_SPREAD && NB_BAKE_PLACE_ENDS == NBI_PLACE_ENDS,
               "placements");

/* A bake's progress: the caller's callback, and whether it cancelled. */
typedef struct run {
    const nb_bake_options *o;
    int cancelled;
    double at;
} run;

static void tell(void *arg, double f)
{
    run *r = arg;
    if (r->cancelled)
        return; /* r->at stays where it was cancelled */
    r->at = f;
    if (r->o->progress && r->o->progress(r->o->progress_arg, f))
        r->cancelled = 1;
}

/* st, or NB_ERR_CANCELLED saying where when the callback cancelled. */
static nb_status step_done(run *r, nb_status st, const char *step, nb_err *err)
{
    if (!r->cancelled)
        return st;
    return nbi_fail(err, NB_ERR_CANCELLED, "the bake was cancelled at %.0f%%, in %s", 100 * r->at,
                    step);
}

static nb_status check_options(const nb_bake_options *o, nb_err *err)
{
    const uint32_t known = NB_BAKE_ABSTRACT | NB_BAKE_OPTIMAL | NB_BAKE_OPTIMAL_WEAK | NB_BAKE_ZLIB;
    if (o->flags & ~known)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_options: unknown flags 0x%x",
                        (unsigned)(o->flags & ~known));
    if (o->cluster < 1 || o->cluster > NB_ABSTRACT_MAX_CLUSTER)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_options: cluster %u is not 1 to %u",
                        (unsigned)o->cluster, (unsigned)NB_ABSTRACT_MAX_CLUSTER);
    if (o->levels > NBB_LEVELS_MAX)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_options: levels %u is not 0 (auto) to %u",
                        (unsigned)o->levels, (unsigned)NBB_LEVELS_MAX);
    if (o->landmarks > NBB_LANDMARKS_MAX)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_options: landmarks %u is not 0 to %u",
                        (unsigned)o->landmarks, (unsigned)NBB_LANDMARKS_MAX);
    if (o->threads > NBB_MAX_THREADS)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_options: threads %u is not 0 to %u",
                        (unsigned)o->threads, (unsigned)NBB_MAX_THREADS);
    if (o->quality > NB_BAKE_QUALITY_LOW)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_options: quality %u is not one of "
                        "NB_BAKE_QUALITY_INITIAL, _HIGH or _LOW", (unsigned)o->quality);
    if (o->placement > NB_BAKE_PLACE_ENDS && o->placement != NB_BAKE_PLACE_AUTO)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_options: placement %u is not one of "
                        "NB_BAKE_PLACE_*", (unsigned)o->placement);
    if (o->reserved)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_options: reserved is not 0");
    return NB_OK;
}

/* The graph of what b holds so far, with its costs and levels (mkabstract
 * on mkclear's bundle, with its defaults but for o's). */
static nb_status put_abstract(nbb_builder *b, const nb_bake_options *o, int compress,
                              nbb_progress_part *part, nb_err *err)
{
    nbb_abstract_opts ao;
    nbb_abstract_defaults(&ao);
    ao.cluster = o->cluster;
    ao.threads = o->threads;
    ao.quality = o->quality;
    ao.placement = o->placement == NB_BAKE_PLACE_AUTO ? NBB_PLACE_AUTO : o->placement;
    ao.progress = nbb_progress_part_fn;
    ao.progress_arg = part;
    nbb_levels_opts lo = {o->levels, NBB_LEVEL_FACTOR, NBB_LEVEL_SPACING, o->threads,
                          NBB_LEVEL_SHARE, o->landmarks};
    return nbb_abstract_put_built(b, &ao, &lo, compress, err);
}

/* o, or the defaults in d. */
static const nb_bake_options *or_defaults(const nb_bake_options *o, nb_bake_options *d)
{
    if (o)
        return o;
    nb_bake_options_init(d);
    return d;
}

/* The bundle's sections, baked into a new builder. */
static nb_status bake(nb_bake *bk, const nb_bake_options *o, nbb_builder **out, run *r,
                      nb_err *err)
{
    *out = NULL;
    r->o = o;
    nb_status st = check_options(o, err);
    if (st != NB_OK)
        return st;
    const nbb_level *level = nbb_bake_level(bk);
    if (!level)
        return nbi_fail(err, NB_ERR_ARG,
                        "no level to bake: set a grid (nb_bake_set_grid, nb_bake_set_map or "
                        "nb_bake_read_level) first");
    if (level->agents.count == 0)
        return nbi_fail(err, NB_ERR_ARG,
                        "no agent set: the legend lacks the default agents' terrains (ground "
                        "and swamp); give one (nb_bake_set_agents)");
    int compress = (o->flags & NB_BAKE_ZLIB) != 0;
    unsigned corners = (o->flags & NB_BAKE_OPTIMAL ? NBB_CORNERS_STRICT : 0) |
                       (o->flags & NB_BAKE_OPTIMAL_WEAK ? NBB_CORNERS_WEAK : 0);
    int abstract = (o->flags & NB_BAKE_ABSTRACT) != 0;
    /* Shares of the whole, by what each step costs on a typical level. */
    double layers = abstract ? 0.4 : 1.0, optimal = corners ? 0.3 : 0.0;
    nbb_progress_part part = {tell, r, 0, layers * (1 - optimal), &r->cancelled};
    nbb_builder *b = NULL;
    if ((st = nbb_builder_new(&b, err)) != NB_OK)
        return st;
    nbb_builder_threads(b, o->threads);
    nbb_rebake_opts ro = {compress, o->threads, 0, nbb_progress_part_fn, &part};
    nbb_rebake_stats stats;
    const char *step = "the clearance layers";
    tell(r, 0);
    st = step_done(r, NB_OK, step, err);
    if (st == NB_OK)
        st = step_done(r, nbb_level_rebake(b, level, NULL, &ro, &stats, err), step, err);
    if (st == NB_OK && corners) {
        step = "the optimal layers";
        part.base = part.base + part.span;
        part.span = optimal;
        st = step_done(r, nbb_level_bake_subgoal(b, level, corners, compress, NULL, &part, err),
                       step, err);
    }
    if (st == NB_OK && abstract) {
        step = "the abstract graph";
        part.base = part.base + part.span;
        part.span = 1 - part.base;
        st = step_done(r, put_abstract(b, o, compress, &part, err), step, err);
    }
    if (st != NB_OK) {
        nbb_builder_free(b);
        return st;
    }
    *out = b;
    return NB_OK;
}

nb_status nb_bake_memory(nb_bake *bk, const nb_bake_options *o, void **data, size_t *len,
                         nb_err *err)
{
    if (!bk || !data || !len)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_memory: the handle, data or len is NULL");
    *data = NULL;
    *len = 0;
    nb_bake_options d;
    run r = {or_defaults(o, &d), 0, 0};
    nbb_builder *b;
    uint8_t *image = NULL;
    size_t n = 0;
    nb_status st = bake(bk, r.o, &b, &r, err);
    if (st == NB_OK)
        st = nbb_builder_image(b, &image, &n, err);
    nbb_builder_free(b);
    if (st != NB_OK)
        return st;
    /* The image in the caller's memory. */
    void *copy = nbb_bake_alloc(bk, n);
    if (!copy) {
        free(image);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a bundle of %zu bytes", n);
    }
    memcpy(copy, image, n);
    free(image);
    tell(&r, 1);
    *data = copy;
    *len = n;
    nbi_ok(err);
    return NB_OK;
}

void nb_bake_free(nb_bake *bk, void *data)
{
    if (bk)
        nbb_bake_dealloc(bk, data);
}

nb_status nb_bake_write(nb_bake *bk, const nb_bake_options *o, const char *path, nb_err *err)
{
    if (!bk || !path)
        return nbi_fail(err, NB_ERR_ARG, "nb_bake_write: the handle or path is NULL");
    nb_bake_options d;
    run r = {or_defaults(o, &d), 0, 0};
    nbb_builder *b;
    nb_status st = bake(bk, r.o, &b, &r, err);
    if (st == NB_OK)
        st = nbb_builder_write(b, path, err);
    nbb_builder_free(b);
    if (st == NB_OK) {
        tell(&r, 1);
        nbi_ok(err);
    }
    return st;
}
