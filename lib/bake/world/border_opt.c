/* border_opt.c: a tile's border for the optimal layer across tiles
 * (NB_SEC_BORDER_OPT, formats/world.md), which the tile action writes into
 * the border file when the manifest says `optimal: 1`: the tile's portals
 * (its own edge cells with a legal move out, read through the halo), the
 * clique of their distances inside the tile (a Dijkstra a portal,
 * opt_clique.c, which is why it is asked for), packed, and their moves out
 * (lib/runtime/stream/opt_world.c builds it, opt_border.c writes it). */
#include <string.h>

#include "bake_int.h"
#include "stream/opt_world.h"
#include "world/world.h"

nb_status nbb_world_border_opt(nbb_builder *out, const nb_bundle *tb, const nbi_wtile *t,
                               nb_capability cap, uint32_t size, int corner, nb_err *err)
{
    nbi_layer l;
    nbi_optb b;
    memset(&b, 0, sizeof b);
    nb_status st = nbi_clearance_layer(tb, cap, &l, err);
    if (st != NB_OK)
        return st;
    uint8_t *p = NULL;
    size_t len = 0;
    st = nbi_optb_build(&l, t, size, corner, nbb_mem(), &b, err);
    if (st == NB_OK)
        st = nbi_oborder_put(&b, t, cap, size, corner, nbb_mem(), &p, &len, err);
    if (st == NB_OK) {
        nb_section_info info;
        memset(&info, 0, sizeof info);
        info.type = NB_SEC_BORDER_OPT;
        info.version = NBI_OBORDER_VERSION;
        info.param[0] = cap;
        info.param[1] = size;
        info.param[2] = (uint32_t)corner;
        info.param[3] = b.n;
        st = nbb_builder_add_owned(out, &info, p, len, 0, err);
    }
    nbi_optb_free(&b);
    return st;
}
