/* place.c: a place, the handle of the queries of this folder for one
 * agent (capability and size) on a bundle's map.  It holds the checked
 * layers and runs section it reads, nothing more: queries never allocate
 * and never change it, so threads share it. */
#include "place/place.h"

static nb_status open_place(const nb_bundle *b, nb_capability cap, unsigned size, nb_place *p,
                            nb_err *err)
{
    nb_status st = nbi_clearance_layer(b, cap, &p->clear, err);
    if (st != NB_OK)
        return st;
    if (size < 1 || size > p->clear.maxval)
        return nbi_fail(err, size < 1 ? NB_ERR_ARG : NB_ERR_LIMIT,
                        "%s: agent size %u, expected 1 to %u (the clearance layer's cap)", b->path,
                        size, p->clear.maxval);
    p->b = b;
    p->cap = cap;
    p->size = size;
    /* The component layer and the runs are optional: without them the
     * queries that need them say so. */
    uint32_t params[2] = {cap, size};
    if (nb_bundle_find(b, NB_SEC_COMPONENTS, NULL, params, 2) >= 0) {
        if ((st = nbi_components_layer(b, cap, size, &p->comp, err)) != NB_OK)
            return st;
        p->has_comp = 1;
    }
    if (nb_bundle_find(b, NB_SEC_RUNS, NULL, params, 2) >= 0) {
        if ((st = nbi_runs_find(b, cap, size, &p->runs, err)) != NB_OK)
            return st;
        p->has_runs = 1;
    }
    /* A component drawn from must be one the runs list. */
    if (p->has_comp && p->has_runs && p->comp.maxval != p->runs.n)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section %ld (runs) lists %u components, its component layer "
                        "(section %ld) %u",
                        b->path, p->runs.section, p->runs.n, p->comp.section, p->comp.maxval);
    return NB_OK;
}

nb_status nb_place_open(const nb_bundle *b, nb_capability cap, unsigned size, nb_place **out,
                        nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_place_open: out is NULL");
    *out = NULL;
    if (!b)
        return nbi_fail(err, NB_ERR_ARG, "nb_place_open: bundle is NULL");
    nb_place p;
    memset(&p, 0, sizeof p);
    nb_status st = open_place(b, cap, size, &p, err);
    if (st != NB_OK)
        return st;
    nb_place *h = nbi_alloc(b->a, sizeof *h);
    if (!h)
        return nbi_fail_nomem(err, "a place");
    *h = p;
    *out = h;
    nbi_ok(err);
    return NB_OK;
}

void nb_place_close(nb_place *p)
{
    if (p)
        nbi_free(p->b->a, p);
}
