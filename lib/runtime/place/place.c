/* place.c: a place, the workspace of the queries of this folder (nearest,
 * line, random) on a bundle's map.  It keeps the checked layers and runs
 * section of the last query's agent, so a game asking again for the same
 * agent reads nothing twice, and the state of the query under way for the
 * sliced forms.  Queries never allocate, but for the two Annotated A*
 * workspaces that decide reach under an overlay (clearance/reach.c), opened
 * by the first query that needs them: one place per thread. */
#include "blocked/blocked.h"
#include "place/place.h"

nb_status nbi_place_use(nb_place *p, const char *family, nb_capability cap, uint32_t size,
                        nb_err *err)
{
    if (p->have_agent && p->cap == cap && p->size == size)
        return NB_OK;
    p->have_agent = 0;
    p->has_comp = p->has_runs = 0;
    nb_status st = nbi_agent_layer(p->b, family, cap, size, &p->clear, err);
    if (st != NB_OK)
        return st;
    p->cap = cap;
    p->size = size;
    /* The component layer and the runs are optional: without them the
     * queries that need them say so. */
    uint32_t params[2] = {cap, size};
    if (nbi_section_index(p->b, NB_SEC_COMPONENTS, NULL, params, 2) >= 0) {
        if ((st = nbi_components_layer(p->b, cap, size, &p->comp, err)) != NB_OK)
            return st;
        p->has_comp = 1;
    }
    if (nbi_section_index(p->b, NB_SEC_RUNS, NULL, params, 2) >= 0) {
        if ((st = nbi_runs_find(p->b, cap, size, &p->runs, err)) != NB_OK)
            return st;
        p->has_runs = 1;
    }
    /* A component drawn from must be one the runs list. */
    if (p->has_comp && p->has_runs && p->comp.maxval != p->runs.n)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %ld (runs) lists %u components, its component layer "
                        "(section %ld) %u",
                        p->b->path, p->runs.section, p->runs.n, p->comp.section, p->comp.maxval);
    p->have_agent = 1;
    return NB_OK;
}

nb_status nbi_place_check(const nb_place *p, const char *family, uint32_t size,
                          const nb_overlay *overlay, nb_err *err)
{
    nb_status st = nbi_query_size(err, family, size);
    return st == NB_OK ? nbi_overlay_check(overlay, p->b, family, err) : st;
}

nb_status nbi_place_bind(nb_place *p, const char *family, nb_capability cap, uint32_t size,
                         const nb_overlay *overlay, nb_err *err)
{
    nb_status st = nbi_place_use(p, family, cap, size, err);
    /* An overlay that blocks nothing leaves the bundle's map: the queries then read the
     * bundle alone, as fast as without one. */
    p->ov = overlay && overlay->blocked ? overlay : NULL;
    nbi_reach_use(&p->reach, &p->clear, p->size, p->ov);
    return st;
}

nb_status nb_place_open(const nb_bundle *b, nb_place **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_place_open: out is NULL");
    *out = NULL;
    if (!b)
        return nbi_fail(err, NB_ERR_ARG, "nb_place_open: bundle is NULL");
    if (!nb_has_map(b))
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the bundle holds no map", b->path);
    nb_place *p = nbi_zalloc_array(b->a, 1, sizeof *p);
    if (!p)
        return nbi_fail_nomem(err, "a place");
    p->b = b;
    nbi_reach_init(&p->reach, b);
    *out = p;
    nbi_ok(err);
    return NB_OK;
}

void nb_place_close(nb_place *p)
{
    if (!p)
        return;
    nbi_reach_free(&p->reach);
    nbi_free(p->b->a, p);
}

size_t nb_place_bytes(const nb_place *p)
{
    return sizeof *p + nbi_reach_bytes(&p->reach);
}
