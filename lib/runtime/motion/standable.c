/* standable.c: where an agent of a size and capability may stand, the
 * one question the motion search asks of the map.
 *
 * The bundle's clearance layer for the capability answers when mkclear
 * baked one that serves the size (nb_can_stand); otherwise the map itself
 * does, through the true-clearance recurrence (the side of the largest
 * square of cells in the capability anchored at each cell: 1 + the least
 * of its right, lower and lower-right neighbours'). */
#include <stdlib.h>

#include "clearance/clearance.h"
#include "motion/motion.h"

nb_status nbi_stand_map(const nb_bundle *b, nb_capability cap, unsigned size, uint8_t *stand,
                        nb_err *err)
{
    uint32_t w = b->width, h = b->height;
    if (!b->has_map)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the bundle has no map", b->path);
    if (size < 1 || size > NB_MAX_AGENT_SIZE)
        return nbi_fail(err, NB_ERR_ARG, "agent size %u, expected 1 to %d", size, NB_MAX_AGENT_SIZE);
    nbi_layer layer;
    if (nbi_clearance_layer(b, cap, &layer, NULL) == NB_OK && layer.maxval >= size &&
        layer.width == w && layer.height == h) {
        for (uint64_t i = 0; i < (uint64_t)w * h; i++)
            stand[i] = nbi_layer_get(&layer, i) >= size;
        return NB_OK;
    }
    /* Two rows of clearance, bottom to top. */
    uint16_t *below = nbi_zalloc_array(b->a, (size_t)w + 1, sizeof *below), *row = nbi_zalloc_array(b->a, (size_t)w + 1, sizeof *row);
    if (!below || !row) {
        nbi_free(b->a, below);
        nbi_free(b->a, row);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a %u-wide clearance row", w);
    }
    for (uint32_t y = h; y-- > 0;) {
        row[w] = 0;
        for (uint32_t x = w; x-- > 0;) {
            int t = nb_map_terrain(b, x, y);
            uint16_t c = 0;
            if (t != NB_OBSTACLE && (cap & ((nb_capability)1 << t))) {
                uint16_t m = row[x + 1] < below[x] ? row[x + 1] : below[x];
                if (below[x + 1] < m)
                    m = below[x + 1];
                c = (uint16_t)(m + 1 > NB_MAX_AGENT_SIZE ? NB_MAX_AGENT_SIZE : m + 1);
            }
            row[x] = c;
            stand[(size_t)y * w + x] = c >= size;
        }
        uint16_t *t = below;
        below = row;
        row = t;
    }
    nbi_free(b->a, below);
    nbi_free(b->a, row);
    return NB_OK;
}
