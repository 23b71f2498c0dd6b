/* stream.h: an open world of tiles (nb_world, navbake.h): the world
 * bundle's index and components, and a slot per tile that the loading
 * thread publishes a mapped tile bundle in and the queries read
 * (world_handle.c loads and unloads, world_reach.c answers).  Internal.
 *
 * A query pins a slot by its count of readers before it reads the tile in
 * it; an unload takes the tile out of the slot first and unmaps it only
 * when the slot's count is 0 (else it keeps it on the retired list, for
 * the next load or unload to try again), so a query never reads an
 * unmapped tile and the loading thread never waits for a query. */
#ifndef NB_STREAM_H
#define NB_STREAM_H

#include <stdatomic.h>

#include "clearance/clearance.h"
#include "world/world.h"

/* A tile bundle loaded, with the views the queries read. */
typedef struct nbi_stile {
    nb_bundle *b;
    nbi_wtile tag;
    uint32_t index;          /* row * columns + column */
    uint64_t serial;         /* this load's number in the world (never 0, never reused): what
                                a workspace keeps of the tile is its own only while the slot
                                holds the same serial (tile_repair.c) */
    nbi_layer *components;   /* one per world_components section, in its order */
    nbi_tins *insert;        /* its tile_insert sections, checked at load (ninsert of them) */
    size_t ninsert;
    size_t bytes;            /* what it holds: its file and these views */
    struct nbi_stile *next;  /* on the retired list */
} nbi_stile;

/* Tile t's table for inserting an end of (cap, size), or NULL. */
static inline const nbi_tins *nbi_stile_insert(const nbi_stile *t, nb_capability cap,
                                               uint32_t size)
{
    for (size_t i = 0; i < t->ninsert; i++)
        if (t->insert[i].capability == cap && t->insert[i].size == size)
            return &t->insert[i];
    return NULL;
}

typedef struct nbi_slot {
    _Atomic(nbi_stile *) tile; /* NULL: not loaded */
    atomic_uint readers;       /* queries reading this slot now */
    atomic_uint_fast64_t used; /* the world's clock when last loaded or pinned: the
                                  budget unloads the least recently used first */
} nbi_slot;

struct nb_world {
    nb_bundle *index;  /* the world bundle; its allocator serves everything */
    nbi_windex x;
    size_t ncomp;
    nbi_wcomp *comp;   /* each world_components section, in table order */
    char *folder;      /* of the tile bundles */
    unsigned flags;    /* for each tile's open */
    nb_world_loader loader;
    nb_world_release release;
    void *opaque;
    nbi_slot *slots;   /* columns x rows, row by row */
    nbi_stile *retired;
    atomic_uint loaded;
    atomic_uint nretired;
    atomic_size_t tile_bytes; /* of the tiles loaded or retired */
    size_t own_bytes;         /* the world bundle and these arrays */
    /* Automatic loading (nb_world_set_budget): with a budget and a loader,
     * a query loads a tile it needs itself, and every load unloads the
     * least recently used tiles no query pins until nb_world_bytes is
     * within the budget again.  Loads, unloads and sweeps then come from
     * any thread, so they take the lock, one at a time (the queries' pins
     * stay as above: a query waits only when it needs a tile loaded). */
    atomic_size_t budget;     /* 0: no budget, queries never load */
    atomic_uint_fast64_t clock;
    atomic_uint_fast64_t serials; /* the last tile load's serial */
    atomic_flag lock;
};

/* With a budget and a loader: queries load what they need. */
static inline int nbi_world_autoload(const nb_world *w)
{
    return w->loader && atomic_load_explicit(&w->budget, memory_order_relaxed) != 0;
}
/* Marks tile ti used now (the budget's order of unloading). */
static inline void nbi_world_touch(nb_world *w, uint32_t ti)
{
    atomic_store_explicit(&w->slots[ti].used,
                          atomic_fetch_add_explicit(&w->clock, 1, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}
/* A query's load of tile ti through the loader, then the budget's
 * unloading of other tiles that no query pins (world_handle.c); the tile's
 * refusals name it. */
nb_status nbi_world_fetch(nb_world *w, uint32_t ti, nb_err *err);
/* At a query's end, after its pins are released: the budget's unloading
 * (and the unmapping of retired tiles no query reads), when over it. */
void nbi_world_trim(nb_world *w);

#endif
