/* standable.c: where an agent of a size and capability may stand, the
 * one question the motion search asks of the map, answered cell by cell
 * without a copy of the map (a workspace costs what its searches touch).
 *
 * The bundle's clearance layer for the capability answers when mkclear
 * baked one that serves the size (nb_can_stand); otherwise the map itself
 * does: every cell of the size x size square anchored at the cell is in
 * the map and has a terrain in the capability. */
#include "motion/motion.h"

nb_status nbi_stand_init(nbi_stand *s, const nb_bundle *b, nb_capability cap, unsigned size,
                         nb_err *err)
{
    memset(s, 0, sizeof *s);
    if (!b->has_map)
        return nbi_fail(err, NB_ERR_NOTFOUND, "%s: the bundle has no map", b->path);
    if (size < 1 || size > NB_MAX_AGENT_SIZE)
        return nbi_fail(err, NB_ERR_ARG, "agent size %u, expected 1 to %d", size, NB_MAX_AGENT_SIZE);
    s->b = b;
    s->cap = cap;
    s->size = size;
    s->w = b->width;
    s->h = b->height;
    s->layered = nbi_clearance_layer(b, cap, &s->layer, NULL) == NB_OK && s->layer.maxval >= size &&
                 s->layer.width == s->w && s->layer.height == s->h;
    return NB_OK;
}

int nbi_stand_square(const nbi_stand *s, long x, long y)
{
    if ((uint64_t)x + s->size > s->w || (uint64_t)y + s->size > s->h)
        return 0;
    for (long j = y; j < y + (long)s->size; j++)
        for (long i = x; i < x + (long)s->size; i++) {
            int t = nb_map_terrain(s->b, i, j);
            if (t == NB_OBSTACLE || t < 0 || !(s->cap & ((nb_capability)1 << t)))
                return 0;
        }
    return 1;
}
