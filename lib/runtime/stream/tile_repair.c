/* tile_repair.c: an edited tile's portal distances under an overlay,
 * from the tile's own abstract graph as the overlay repairs it
 * (abstract/repair.c, through an nb_overlay of the tile's bundle), for
 * world HAA* (haa_world.c).
 *
 * Blocks only take cells away, so a distance between two of the tile's
 * portals whose baked shortest path keeps out of every repaired cluster
 * stands: the pair (p, q) may change only when dK(p) + dK(q) <= d(p, q),
 * dK the baked distance to the nearest node of a repaired cluster (one
 * Dijkstra from them all; a path in the repaired graph that enters a
 * repaired cluster crosses a border the repair left as baked).  Such a
 * pair's world arc is not used: the search above the tiles enters the
 * repaired graph at the portal (its nodes are keys of that search, so
 * the tile is walked once toward the goal rather than once a portal) and
 * leaves it at a portal.  Where a repaired cluster lies on the tile's
 * edge (r->edge) the crossings of that border may change: the neighbour
 * across it is edited too (haa_edit.c marks the tiles beside a changed
 * cell) and repaired alike, the two repairs see the border's facing cells
 * alike and so make nodes at the same crossings, and the search leaves the
 * tile by the repaired graph's arcs out of it for the neighbour's node at
 * the far cell (nbi_trep_arcs, nbi_trep_key_at), and by a world graph arc
 * between tiles only where its move still stands (haa_world.c).  The
 * ends' tiles are walked cell by cell (haa_edit.c). */
#include <string.h>

#include "abstract/repair.h"
#include "blocked/blocked.h"
#include "stream/haa_world.h"

static uint32_t node_local(const nbi_wgraph *g, uint32_t u)
{
    return nbi_get32(g->node + (size_t)u * NBI_WGRAPH_NODE + NBI_WGRAPH_N_LOCAL);
}

/* World node u's key in the tile's repaired graph, UINT32_MAX when none. */
static uint32_t portal_key(const nbi_agraph *g, const nbi_repair *rep, const nbi_wgraph *wg,
                           uint32_t u)
{
    uint32_t v = node_local(wg, u);
    return v < g->nnodes ? nbi_repair_key(g, rep, g->nnodes, v) : UINT32_MAX;
}

void nbi_trep_release(nbi_trep *r)
{
    nb_overlay_close(r->ov);
    r->ov = NULL;
}

void nbi_trep_free(const nb_allocator *a, nbi_trep *r)
{
    nbi_trep_release(r);
    nbi_free(a, r->join);
    nbi_free(a, r->dk);
    nbi_free(a, r->pkey);
    nbi_free(a, r->portal_of);
    memset(r, 0, sizeof *r);
}

size_t nbi_trep_bytes(const nbi_trep *r)
{
    return r->npcap * (sizeof *r->join + sizeof *r->dk) + r->pkcap * sizeof *r->pkey +
           r->pocap * sizeof *r->portal_of;
}

/* The blocked cells of the world overlay in the tile's map, into the tile's overlay. */
typedef struct blocks {
    const nbi_stile *t;
    nb_overlay *ov;
    nb_cell *c;
    size_t n, cap;
    int nomem;
} blocks;

static void take(void *ctx, uint32_t x, uint32_t y)
{
    blocks *b = ctx;
    uint32_t ox = b->t->tag.origin_x, oy = b->t->tag.origin_y;
    if (x < ox || y < oy || x - ox >= b->ov->width || y - oy >= b->ov->height || b->nomem)
        return;
    if (!nbi_grow(b->ov->a, (void **)&b->c, &b->cap, b->n + 1, sizeof *b->c)) {
        b->nomem = 1;
        return;
    }
    b->c[b->n++] = (nb_cell){(int32_t)(x - ox), (int32_t)(y - oy)};
}

nb_status nbi_trep_overlay(const nbi_stile *t, const nb_world_overlay *wov, nb_overlay **out,
                           nb_err *err)
{
    nb_status st = nb_overlay_open(t->b, out, err);
    if (st != NB_OK)
        return st;
    blocks b = {t, *out, NULL, 0, 0, 0};
    nbi_wov_each(wov, take, &b);
    if (b.nomem)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for a tile's overlay");
    else if (b.n)
        st = nb_overlay_block_cells(*out, b.c, b.n, err);
    nbi_free(b.ov->a, b.c);
    if (st != NB_OK) {
        nb_overlay_close(*out);
        *out = NULL;
    }
    return st;
}

/* 1 when cluster k of the tile's graph lies in the tile's own cells (clusters lie whole in
 * them or in the halo). */
static int in_core(const nbi_agraph *g, uint32_t k, const nbi_wtile *tg)
{
    nbi_box bx = nbi_cluster_box(k, g->ncx, g->cluster, g->width, g->height);
    return bx.x0 >= (int32_t)tg->core_x && bx.y0 >= (int32_t)tg->core_y &&
           bx.x0 < (int32_t)(tg->core_x + tg->core_w) && bx.y0 < (int32_t)(tg->core_y + tg->core_h);
}

/* The repair of the tile's graph for capability cap, or NULL. */
static const nbi_repair *tile_repair(const nb_overlay *ov, nb_capability cap)
{
    for (size_t i = 0; i < ov->nrep; i++)
        if (ov->rep[i].ok && nbi_agraph_cap_index(&ov->rep[i].g, cap) >= 0)
            return &ov->rep[i];
    return NULL;
}

static int grow(const nb_allocator *a, void **p, size_t *cap, size_t n, size_t size)
{
    return nbi_grow(a, p, cap, n, size);
}

/* What the search over the repaired graph needs beside it: the agent's capabilities and
 * the graph's size in keys. */
static void set_agent(nbi_trep *r, nb_capability cap, uint32_t size)
{
    const nbi_agraph *g = &r->rep->g;
    r->cap = cap;
    r->size = size;
    memset(r->capok, 0, sizeof r->capok);
    for (uint32_t c = 0; c < g->ncaps && c < 64; c++)
        r->capok[c] = (nbi_u32at(g->caps, c) & ~cap) == 0;
    r->nbase = g->nnodes;
    r->nkeys = g->nnodes + (uint32_t)(r->rep->nrec * r->rep->per);
}

int nbi_trep_make(nbi_trep *r, const nb_allocator *a, const nbi_wgraph *wg, const nbi_stile *t,
                  const nb_world_overlay *wov, nb_capability cap, uint32_t size, nbi_tdijk *dj)
{
    const nbi_wtile *tg = &t->tag;
    r->tile = t->index;
    r->t = t;
    r->first = nbi_u32at(wg->tile_first, t->index);
    r->np = nbi_u32at(wg->tile_first, t->index + 1) - r->first;
    r->serial = t->serial;
    r->clusters = 0;
    nbi_trep_release(r); /* a kept one of another load or version */
    if (nbi_trep_overlay(t, wov, &r->ov, NULL) != NB_OK)
        return -1;
    const nbi_repair *rep = tile_repair(r->ov, cap);
    if (!rep) {
        nbi_trep_release(r);
        return 0;
    }
    r->rep = rep;
    const nbi_agraph *g = &rep->g;
    /* The repaired clusters of the tile's own cells (those of its halo are its neighbours'
     * business: they are searched through their own tiles' repairs); edge: one of them on
     * an edge, where the search crosses to the neighbour by the repaired graph's arcs out
     * of the tile (nbi_trep_arcs), not by the world graph's baked ones alone. */
    r->edge = 0;
    for (size_t i = 0; i < rep->nrec; i++) {
        if (rep->rec[i].k == UINT32_MAX || !in_core(g, rep->rec[i].k, tg))
            continue;
        nbi_box bx = nbi_cluster_box(rep->rec[i].k, g->ncx, g->cluster, g->width, g->height);
        if (bx.x0 <= (int32_t)tg->core_x || bx.y0 <= (int32_t)tg->core_y ||
            bx.x1 >= (int32_t)(tg->core_x + tg->core_w) || bx.y1 >= (int32_t)(tg->core_y + tg->core_h))
            r->edge = 1;
        r->clusters++;
    }
    set_agent(r, cap, size);
    size_t npc = r->npcap;
    if (!grow(a, (void **)&r->join, &npc, r->np ? r->np : 1, sizeof *r->join) ||
        !grow(a, (void **)&r->dk, &r->npcap, r->np ? r->np : 1, sizeof *r->dk) ||
        !grow(a, (void **)&r->pkey, &r->pkcap, r->np ? r->np : 1, sizeof *r->pkey) ||
        !grow(a, (void **)&r->portal_of, &r->pocap, r->nkeys ? r->nkeys : 1,
              sizeof *r->portal_of)) {
        nbi_trep_release(r);
        return -1;
    }
    /* dK: the baked distance from the repaired clusters' nodes to each portal. */
    uint32_t *seed = NULL, *zero = NULL;
    size_t ns = 0, scap = 0, zcap = 0;
    for (size_t i = 0; i < rep->nrec; i++) {
        uint32_t k = rep->rec[i].k;
        if (k == UINT32_MAX || !in_core(g, k, tg))
            continue;
        for (uint32_t u = nbi_u32at(g->cluster_first, k); u < nbi_u32at(g->cluster_first, k + 1); u++) {
            if (!grow(a, (void **)&seed, &scap, ns + 1, sizeof *seed)) {
                nbi_free(a, seed);
                nbi_trep_release(r);
                return -1;
            }
            seed[ns++] = u;
        }
    }
    int ok = grow(a, (void **)&zero, &zcap, ns ? ns : 1, sizeof *zero);
    if (ok)
        memset(zero, 0, (ns ? ns : 1) * sizeof *zero);
    if (ok && dj->n != g->nnodes) {
        nbi_tdijk_free(dj);
        ok = nbi_tdijk_init(dj, a, g->nnodes);
    }
    ok = ok && nbi_tdijk_run(dj, g, cap, size, tg->core_x, tg->core_y, tg->core_x + tg->core_w,
                             tg->core_y + tg->core_h, seed, zero, zero, ns);
    nbi_free(a, seed);
    nbi_free(a, zero);
    if (!ok) {
        nbi_trep_release(r);
        return -1;
    }
    for (uint32_t i = 0; i < r->np; i++) {
        uint32_t u = node_local(wg, r->first + i);
        r->dk[i] = u < g->nnodes && nbi_tdijk_reached(dj, u) ? nbi_steps_length(dj->card[u], dj->diag[u])
                                                             : -1;
        r->join[i] = 0;
        r->pkey[i] = portal_key(g, rep, wg, r->first + i);
    }
    for (uint32_t v = 0; v < r->nkeys; v++)
        r->portal_of[v] = UINT32_MAX;
    for (uint32_t i = 0; i < r->np; i++) /* a repaired node too, in a cluster on an edge */
        if (r->pkey[i] < r->nkeys)
            r->portal_of[r->pkey[i]] = i;
    /* The portals of a pair the repair may change. */
    for (uint32_t i = 0; i < r->np; i++) {
        uint32_t u = r->first + i;
        if (r->dk[i] < 0)
            continue;
        for (uint32_t k = nbi_u32at(wg->arc_first, u); k < nbi_u32at(wg->arc_first, u + 1); k++) {
            const uint8_t *ap = wg->arc + (size_t)k * NBI_WGRAPH_ARC;
            uint32_t v = nbi_get32(ap + NBI_WGRAPH_A_TO);
            if (v < r->first || v >= r->first + r->np)
                continue;
            double d = nbi_steps_length(nbi_get32(ap + NBI_WGRAPH_A_CARD), nbi_get32(ap + NBI_WGRAPH_A_DIAG));
            if (nbi_trep_changed(r, i, v - r->first, d)) {
                r->join[i] = 1;
                break;
            }
        }
    }
    return 1;
}

/* ---- the repaired graph as keys of the search above the tiles ---- */

static int inside(const nbi_agraph *g, uint32_t u, const nbi_wtile *tg)
{
    uint32_t x = nbi_u16at(g->node_xy, 2 * (size_t)u), y = nbi_u16at(g->node_xy, 2 * (size_t)u + 1);
    return x >= tg->core_x && x < tg->core_x + tg->core_w && y >= tg->core_y &&
           y < tg->core_y + tg->core_h;
}

static int cell_inside(const nbi_agraph *g, uint32_t cell, const nbi_wtile *tg)
{
    uint32_t x = cell % g->width, y = cell / g->width;
    return x >= tg->core_x && x < tg->core_x + tg->core_w && y >= tg->core_y &&
           y < tg->core_y + tg->core_h;
}

/* The world cell of the tile graph's baked node v. */
static nb_cell node_world(const nbi_trep *r, uint32_t v)
{
    const nbi_agraph *g = &r->rep->g;
    return (nb_cell){(int32_t)(nbi_u16at(g->node_xy, 2 * (size_t)v) + r->t->tag.origin_x),
                     (int32_t)(nbi_u16at(g->node_xy, 2 * (size_t)v + 1) + r->t->tag.origin_y)};
}

uint32_t nbi_trep_key_at(const nbi_trep *r, nb_cell c)
{
    const nbi_wtile *tg = &r->t->tag;
    const nbi_agraph *g = &r->rep->g;
    if (c.x < (int32_t)tg->origin_x || c.y < (int32_t)tg->origin_y)
        return UINT32_MAX;
    uint32_t x = (uint32_t)c.x - tg->origin_x, y = (uint32_t)c.y - tg->origin_y;
    if (x < tg->core_x || x >= tg->core_x + tg->core_w || y < tg->core_y ||
        y >= tg->core_y + tg->core_h)
        return UINT32_MAX;
    return nbi_repair_key_at(g, r->rep, r->nbase, y * g->width + x);
}

nb_cell nbi_trep_cell(const nbi_trep *r, uint32_t k)
{
    const nbi_repair *rep = r->rep;
    const nbi_agraph *g = &rep->g;
    uint32_t x, y;
    if (k < r->nbase) {
        x = nbi_u16at(g->node_xy, 2 * (size_t)k), y = nbi_u16at(g->node_xy, 2 * (size_t)k + 1);
    } else {
        uint32_t c = rep->rec[(k - r->nbase) / rep->per].cell[(k - r->nbase) % rep->per];
        x = c % g->width, y = c / g->width;
    }
    return (nb_cell){(int32_t)(x + r->t->tag.origin_x), (int32_t)(y + r->t->tag.origin_y)};
}

int nbi_trep_arcs(const nbi_trep *r, uint32_t u, nbi_trep_reach reach, void *ctx)
{
    const nbi_repair *rep = r->rep;
    const nbi_agraph *g = &rep->g;
    const nbi_wtile *tg = &r->t->tag;
    uint32_t base = r->nbase;
    if (u < base) { /* a baked node: its cluster is as baked */
        for (uint32_t e = nbi_u32at(g->node_first, u); e < nbi_u32at(g->node_first, u + 1); e++) {
            uint32_t v = nbi_u32at(g->arc_to, e);
            if (!nbi_agraph_admits(g, e, r->cap, r->size))
                continue;
            if (!inside(g, v, tg)) {
                if (r->edge &&
                    !reach(ctx, UINT32_MAX, nbi_steps_length(nbi_u16at(g->arc_w, 2 * (size_t)e),
                                                             nbi_u16at(g->arc_w, 2 * (size_t)e + 1)),
                           node_world(r, v)))
                    return 0;
                continue;
            }
            uint32_t key = nbi_repair_key(g, rep, base, v);
            if (key != UINT32_MAX &&
                !reach(ctx, key, nbi_steps_length(nbi_u16at(g->arc_w, 2 * (size_t)e),
                                                  nbi_u16at(g->arc_w, 2 * (size_t)e + 1)),
                       nbi_trep_cell(r, key)))
                return 0;
        }
        return 1;
    }
    uint32_t k = u - base, rec = k / rep->per, ni = k % rep->per;
    const nbi_rcluster *c = &rep->rec[rec];
    for (uint32_t e = c->first[ni]; e < c->first[ni + 1]; e++) {
        const nbi_rarc *ra = &c->arc[e];
        if (ra->cap >= 64 || !r->capok[ra->cap] || ra->cv < r->size)
            continue;
        if (ra->inter && !cell_inside(g, ra->to, tg)) { /* out of the tile: the neighbour's */
            if (r->edge &&
                !reach(ctx, UINT32_MAX, nbi_steps_length(ra->card, ra->diag),
                       (nb_cell){(int32_t)(ra->to % g->width + tg->origin_x),
                                 (int32_t)(ra->to / g->width + tg->origin_y)}))
                return 0;
            continue;
        }
        uint32_t v = ra->inter ? nbi_repair_key_at(g, rep, base, ra->to) : base + rec * rep->per + ra->to;
        if (v == UINT32_MAX || (v < base && !inside(g, v, tg)))
            continue;
        if (!reach(ctx, v, nbi_steps_length(ra->card, ra->diag), nbi_trep_cell(r, v)))
            return 0;
    }
    return 1;
}
