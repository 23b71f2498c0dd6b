/* abstract_put.c: a new abstract graph into a bundle being written, with
 * what is derived from it (its terrain-cost profiles and higher levels):
 * mkabstract's last step, which the bake library (navbake_bake.h) and a
 * world's tiles take too, so that all write the same sections. */
#include <stdlib.h>

#include "bake_int.h"

nb_status nbb_abstract_put_derived(nbb_builder *w, const nb_bundle *b, const void *graph,
                                   size_t glen, const nbb_levels_opts *lo, int compress,
                                   nb_err *err)
{
    nb_status st = nbb_put_abstract_costs(w, b, graph, glen, compress, NULL, err);
    if (st == NB_OK)
        st = nbb_levels_put(w, graph, glen, nb_map_width(b), nb_map_height(b), lo, compress, err);
    return st;
}

nb_status nbb_abstract_put_graph(nbb_builder *w, uint8_t *graph, size_t glen, int compress,
                                 nb_err *err)
{
    nb_section_info info;
    nbb_abstract_info(graph, &info);
    nbb_builder_remove(w, NB_SEC_ABSTRACT);
    return nbb_builder_add_owned(w, &info, graph, glen, compress, err);
}

nb_status nbb_abstract_put_built(nbb_builder *w, const nbb_abstract_opts *ao,
                                 const nbb_levels_opts *lo, int compress, nb_err *err)
{
    uint8_t *image = NULL, *graph = NULL;
    size_t len = 0, glen = 0;
    nb_bundle *cb = NULL;
    nbb_abstract_opts o = *ao;
    nbb_abstract_resolve(&o);
    nb_status st = nbb_builder_image(w, &image, &len, err);
    if (st == NB_OK)
        st = nb_bundle_open_memory(image, len, 0, nbb_mem(), &cb, err);
    if (st == NB_OK)
        st = nbb_abstract_build(cb, &o, &graph, &glen, NULL, err);
    if (st == NB_OK) {
        nbb_levels_opts l = {0};
        if (lo) {
            l = *lo;
            if (l.levels == 0)
                l.levels = nbb_levels_default(nb_map_width(cb), nb_map_height(cb), o.cluster,
                                              l.factor);
        }
        st = nbb_abstract_put_derived(w, cb, graph, glen, &l, compress, err);
    }
    if (st == NB_OK) {
        st = nbb_abstract_put_graph(w, graph, glen, compress, err);
        graph = NULL;
    }
    nbb_free(graph);
    nb_bundle_close(cb);
    nbb_free(image);
    return st;
}
