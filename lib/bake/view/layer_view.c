/* layer_view.c: clearance and component layers for the tools that print
 * and draw them, through the runtime's check of the layer. */
#include <stdlib.h>

#include "bake_int.h"
#include "clearance/clearance.h"

struct nbb_layer {
    nbi_layer l;
};

/* A view of a layer found by one of the runtime's look-ups. */
static nb_status wrap(nb_status st, const nbi_layer *l, nbb_layer **out, nb_err *err)
{
    *out = NULL;
    if (st != NB_OK)
        return st;
    nbb_layer *v = nbb_malloc(sizeof *v);
    if (!v)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a layer view");
    v->l = *l;
    *out = v;
    return NB_OK;
}

nb_status nbb_layer_open(const nb_bundle *b, size_t index, nbb_layer **out, nb_err *err)
{
    nbi_layer l;
    return wrap(nbi_layer_at(b, index, &l, err), &l, out, err);
}

nb_status nbb_layer_open_clearance(const nb_bundle *b, nb_capability cap, nbb_layer **out,
                                   nb_err *err)
{
    nbi_layer l;
    return wrap(nbi_clearance_layer(b, cap, &l, err), &l, out, err);
}

nb_status nbb_layer_open_components(const nb_bundle *b, nb_capability cap, unsigned size,
                                    nbb_layer **out, nb_err *err)
{
    nbi_layer l;
    return wrap(nbi_components_layer(b, cap, size, &l, err), &l, out, err);
}

void nbb_layer_close(nbb_layer *v) { nbb_free(v); }

void nbb_layer_describe(const nbb_layer *v, nbb_layer_info *info)
{
    info->width = v->l.width;
    info->height = v->l.height;
    info->bits = v->l.bits;
    info->maxval = v->l.maxval;
    info->section = (size_t)v->l.section;
}

uint32_t nbb_layer_value(const nbb_layer *v, uint32_t x, uint32_t y)
{
    return nbi_comp_value(&v->l, (uint64_t)y * v->l.width + x); /* a clearance layer's too */
}

void nbb_layer_row(const nbb_layer *v, uint32_t y, uint32_t *out)
{
    nbi_comp_row(&v->l, y, out);
}
