/* world_reach.c: reachability across a world's tiles in O(1)
 * (nb_world_reachable): each cell's component in the tile bundle that
 * owns it, mapped to the world's by the world bundle's components
 * (formats/world.md).  A query pins the slots it reads (stream.h) and
 * allocates nothing; a tile that is not loaded is named, never loaded. */
#include <stdio.h>

#include "stream/wquery.h"

#define FAMILY "world reachability"

/* The world components of (cap, size), or NULL. */
const nbi_wcomp *nbi_world_comp_of(const nb_world *w, nb_capability cap, unsigned size, size_t *at)
{
    for (size_t i = 0; i < w->ncomp; i++)
        if (w->comp[i].capability == cap && w->comp[i].size == size) {
            *at = i;
            return &w->comp[i];
        }
    return NULL;
}

static nb_status not_served(const nb_world *w, nb_capability cap, unsigned size, nb_err *err)
{
    char have[256] = "";
    size_t at = 0;
    for (size_t i = 0; i < w->ncomp && at + 40 < sizeof have; i++)
        at += (size_t)snprintf(have + at, sizeof have - at, "%s(%#x, %u)", i ? ", " : "",
                               w->comp[i].capability, w->comp[i].size);
    return nbi_fail(err, NB_ERR_NOTFOUND,
                    "%s: %s: no world components for capability %#x and size %u (it has %s)",
                    w->index->path, FAMILY, cap, size, w->ncomp ? have : "none");
}

static uint32_t tile_of(const nb_world *w, nb_cell c)
{
    return ((uint32_t)c.y / w->x.side) * w->x.columns + (uint32_t)c.x / w->x.side;
}

/* The world component of cell c in the tile pinned in t, for view i. */
uint32_t nbi_world_component(const nb_world *w, const nbi_stile *t, size_t i, nb_cell c)
{
    const nbi_layer *l = &t->components[i];
    uint64_t bx = (uint64_t)c.x - t->tag.origin_x, by = (uint64_t)c.y - t->tag.origin_y;
    return nbi_wcomp_of(&w->comp[i], t->index, nbi_comp_value(l, by * l->width + bx));
}

static nb_status reachable(const nb_world *w, nb_capability cap, unsigned size, nb_cell from,
                           nb_cell to, int *out, nb_world_tile *needed, size_t needed_max,
                           size_t *needed_count, nb_err *err)
{
    if (size == 0)
        return nbi_query_size_fail(err, FAMILY);
    nb_cell ends[2] = {from, to};
    for (int e = 0; e < 2; e++)
        if (ends[e].x < 0 || ends[e].y < 0 || (uint32_t)ends[e].x >= w->x.width ||
            (uint32_t)ends[e].y >= w->x.height)
            return nbi_query_cell_fail(err, FAMILY, e ? "goal" : "start", ends[e], w->x.width,
                                       w->x.height);
    size_t i;
    if (!nbi_world_comp_of(w, cap, size, &i))
        return not_served(w, cap, size, err);
    uint32_t slot[2] = {tile_of(w, from), tile_of(w, to)};
    int n = slot[0] == slot[1] ? 1 : 2;
    nbi_slot *s[2];
    const nbi_stile *t[2];
    size_t missing = 0;
    for (int k = 0; k < n; k++) {
        /* The count first, then the tile: an unload that takes the tile
         * out after this sees the count (stream.h). */
        s[k] = &w->slots[slot[k]];
        atomic_fetch_add(&s[k]->readers, 1);
        t[k] = atomic_load(&s[k]->tile);
        if (!t[k] && nbi_world_autoload(w)) {
            /* The game asked the queries to load (nb_world_set_budget). */
            nb_status st = nbi_world_fetch((nb_world *)w, slot[k], err);
            if (st != NB_OK) {
                for (int j = 0; j <= k; j++)
                    atomic_fetch_sub(&s[j]->readers, 1);
                return st;
            }
            t[k] = atomic_load(&s[k]->tile);
        }
        if (!t[k]) {
            if (missing < needed_max && needed)
                needed[missing] = (nb_world_tile){slot[k] % w->x.columns, slot[k] / w->x.columns};
            missing++;
        }
    }
    nb_status st = NB_OK;
    if (!missing) {
        uint32_t a = nbi_world_component(w, t[0], i, from);
        uint32_t b = nbi_world_component(w, t[n - 1], i, to);
        *out = a != 0 && a == b;
    }
    for (int k = 0; k < n; k++)
        atomic_fetch_sub(&s[k]->readers, 1);
    if (nbi_world_autoload(w))
        nbi_world_trim((nb_world *)w);
    if (needed_count)
        *needed_count = missing;
    if (missing) {
        uint32_t m = t[0] ? slot[1] : slot[0], c = w->x.columns;
        if (missing > 1)
            st = nbi_fail(err, NB_ERR_UNLOADED,
                          "%s: %s: tiles (%u, %u) and (%u, %u) are not loaded (nb_world_load, "
                          "then ask again)",
                          w->index->path, FAMILY, slot[0] % c, slot[0] / c, slot[1] % c,
                          slot[1] / c);
        else
            st = nbi_fail(err, NB_ERR_UNLOADED,
                          "%s: %s: tile (%u, %u) is not loaded (nb_world_load, then ask again)",
                          w->index->path, FAMILY, m % c, m / c);
    }
    return st;
}

nb_status nb_world_reachable(const nb_world *w, nb_capability cap, unsigned size, nb_cell from,
                             nb_cell to, int *out, nb_world_tile *needed, size_t needed_max,
                             size_t *needed_count, nb_err *err)
{
    if (out)
        *out = 0;
    if (needed_count)
        *needed_count = 0;
    if (!w || !out)
        return nbi_fail(err, NB_ERR_ARG, "%s: a NULL world or result", FAMILY);
    return nbi_done(err, reachable(w, cap, size, from, to, out, needed, needed_max, needed_count,
                                   err));
}
