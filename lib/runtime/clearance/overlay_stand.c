/* overlay_stand.c: standing and reaching under an overlay
 * (nb_overlay_can_stand, nb_overlay_reachable): the bundle's answers
 * from its layers, less what the overlay's blocked cells take away.
 * Here, above the blocked cells and beside the layers, so that every
 * search (HAA*'s among them) can ask. */
#include "blocked/blocked.h"
#include "clearance/clearance.h"

int nb_overlay_can_stand(const nb_overlay *ov, nb_capability cap, unsigned size, long x, long y)
{
    if (!ov)
        return -1;
    int r = nb_can_stand(ov->b, cap, size, x, y);
    if (r != 1)
        return r;
    return nbi_overlay_room(ov, size, (uint32_t)x, (uint32_t)y);
}

int nb_overlay_reachable(const nb_overlay *ov, nb_capability cap, unsigned size, nb_cell from,
                         nb_cell to)
{
    if (!ov)
        return -1;
    int r = nb_reachable(ov->b, cap, size, from, to);
    if (r != 1)
        return r;
    /* Blocks only take cells away: the bundle's "apart" stands, and its "joined" holds while
     * both ends stand and nothing is blocked. */
    if (nb_overlay_can_stand(ov, cap, size, from.x, from.y) != 1 ||
        nb_overlay_can_stand(ov, cap, size, to.x, to.y) != 1)
        return 0;
    return ov->blocked ? NB_REACH_UNKNOWN : 1;
}
