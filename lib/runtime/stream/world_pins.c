/* world_pins.c: the tiles a query across a world pins as it reaches them
 * (wquery.h).  Arrays of one entry a tile, made with the workspace: a
 * query allocates nothing. */
#include <stdio.h>
#include <string.h>

#include "stream/wquery.h"

int nbi_wpins_init(nbi_wpins *p, const nb_world *w)
{
    memset(p, 0, sizeof *p);
    p->w = w;
    p->a = w->index->a;
    size_t n = (size_t)w->x.columns * w->x.rows;
    p->v = nbi_zalloc_array(p->a, n, sizeof *p->v);
    p->pinned = nbi_alloc_array(p->a, n, sizeof *p->pinned);
    p->missing = nbi_alloc_array(p->a, n, sizeof *p->missing);
    return p->v && p->pinned && p->missing;
}

void nbi_wpins_free(nbi_wpins *p)
{
    nbi_free(p->a, p->v);
    nbi_free(p->a, p->pinned);
    nbi_free(p->a, p->missing);
    memset(p, 0, sizeof *p);
}

size_t nbi_wpins_bytes(const nbi_wpins *p)
{
    size_t n = (size_t)p->w->x.columns * p->w->x.rows;
    return n * (sizeof *p->v + sizeof *p->pinned + sizeof *p->missing);
}

void nbi_wpins_begin(nbi_wpins *p, const char *family, nb_capability cap, uint32_t size)
{
    /* A sliced query that another abandoned still holds its tiles. */
    for (size_t i = 0; i < p->npinned; i++)
        atomic_fetch_sub(&p->w->slots[p->pinned[i]].readers, 1);
    if (++p->qid == 0) { /* a wrap: no view may look seen */
        size_t n = (size_t)p->w->x.columns * p->w->x.rows;
        for (size_t i = 0; i < n; i++)
            p->v[i].qid = 0;
        p->qid = 1;
    }
    p->npinned = p->nmissing = 0;
    p->cap = cap;
    p->size = size;
    p->family = family;
    p->st = NB_OK;
}

void nbi_wpins_end(nbi_wpins *p)
{
    for (size_t i = 0; i < p->npinned; i++)
        atomic_fetch_sub(&p->w->slots[p->pinned[i]].readers, 1);
    p->npinned = 0;
    if (nbi_world_autoload(p->w))
        nbi_world_trim((nb_world *)p->w);
}

nbi_wview *nbi_wpins_see(nbi_wpins *p, uint32_t ti)
{
    nbi_wview *v = &p->v[ti];
    nbi_slot *s = &p->w->slots[ti];
    v->qid = p->qid;
    v->miss = INFINITY;
    /* The count first, then the tile (stream.h). */
    atomic_fetch_add(&s->readers, 1);
    v->t = atomic_load(&s->tile);
    /* The world's own, made non-const by nb_world_open: the game asked
     * the queries to load (nb_world_set_budget). */
    nb_world *w = (nb_world *)p->w;
    if (!v->t && nbi_world_autoload(w) && p->st == NB_OK) {
        nb_err err;
        nb_status st = nbi_world_fetch(w, ti, &err);
        if (st != NB_OK) {
            /* The loader's error or the tile's refusal is the query's. */
            p->st = st;
            p->err = err;
            atomic_fetch_sub(&s->readers, 1);
            v->state = NBI_WV_MISSING + 1;
            return v;
        }
        v->t = atomic_load(&s->tile);
    }
    if (v->t) {
        if (atomic_load_explicit(&w->budget, memory_order_relaxed))
            nbi_world_touch(w, ti);
        nb_err err;
        nb_status st = nbi_agent_layer(v->t->b, p->family, p->cap, p->size, &v->clear, &err);
        if (st == NB_OK) {
            p->pinned[p->npinned++] = ti;
            v->state = NBI_WV_LOADED;
            return v;
        }
        /* A tile without the layer: the query cannot be answered (every
         * tile of a world is baked with one agent set, so this is a bad
         * agent or a damaged tile); it goes on as if the tile were missing
         * and fails at its end. */
        if (p->st == NB_OK) {
            p->st = st;
            p->err = err;
            nbi_err_prefix(&p->err, "tile (%u, %u)", ti % p->w->x.columns, ti / p->w->x.columns);
        }
        v->t = NULL;
        atomic_fetch_sub(&s->readers, 1);
        v->state = NBI_WV_MISSING + 1; /* neither loaded nor needed */
        return v;
    }
    atomic_fetch_sub(&s->readers, 1);
    v->state = NBI_WV_MISSING;
    p->missing[p->nmissing++] = ti;
    return v;
}

size_t nbi_wpins_needed(const nbi_wpins *p, double limit, nb_world_tile *out, size_t max)
{
    size_t n = 0;
    uint32_t c = p->w->x.columns;
    for (size_t i = 0; i < p->nmissing; i++) {
        uint32_t ti = p->missing[i];
        if (!(p->v[ti].miss < limit))
            continue;
        if (out && n < max)
            out[n] = (nb_world_tile){ti % c, ti / c};
        n++;
    }
    return n;
}

nb_status nbi_wpins_unloaded(const nbi_wpins *p, double limit, size_t n, nb_err *err)
{
    nb_world_tile first = {0, 0};
    nbi_wpins_needed(p, limit, &first, 1);
    return nbi_fail(err, NB_ERR_UNLOADED,
                    "%s: %s: %zu tile%s not loaded, (%u, %u) first (nb_world_load, then ask "
                    "again)",
                    p->w->index->path, p->family, n, n == 1 ? " is" : "s are", first.column,
                    first.row);
}
