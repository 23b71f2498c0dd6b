/* abstract_put.c: a new abstract graph into a bundle being written, with
 * what is derived from it (its terrain-cost profiles and higher levels):
 * mkabstract's last step, which the bake library (navbake_bake.h) takes
 * too, so that both write the same sections. */
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
