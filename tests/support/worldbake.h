/* worldbake.h: a world baked in a test's folder (tiles, then the link) and
 * the same level baked whole, for the tests of worlds (test_world.c,
 * test_world_runtime.c). */
#ifndef NB_WORLDBAKE_H
#define NB_WORLDBAKE_H

#include "testutil.h"
#include "world/world.h"

/* A world baked in dir: its manifest, tile bundles and world bundle. */
typedef struct tw_world {
    nbb_world w;
    nb_bundle **tiles; /* columns x rows, row by row */
    nbi_wtile *tag;
    nb_bundle *index;
} tw_world;

void tw_world_close(tw_world *wd);
/* Bakes every tile of dir's world (updating what is there when update)
 * and links it; 0 with a diagnostic in err on failure. */
int tw_bake_world(const char *dir, int update, tw_world *wd, nb_err *err);
/* The whole bake of the level (mkclear's); NULL with a diagnostic. */
nb_bundle *tw_whole_bake(const char *map, const char *legend, const char *agents);

/* A grid's cells written as a MovingAI map at path. */
void tw_write_map(const char *path, const nbb_grid *g);
/* A new folder tmp/PREFIXk (k counted up), its path in a buffer of its own
 * (tu_path's buffers rotate; 16 of these do). */
const char *tw_fresh_dir(const char *tmp, const char *prefix, int *k);
/* A cell of the w x h level whole drawn at random where the agent of cap
 * (size 1) stands, after at most 500 draws (the last drawn otherwise). */
nb_cell tw_standable(tu_rng *r, const nb_bundle *whole, nb_capability cap, uint32_t w, uint32_t h);

/* A level cut into a world (baked, linked and opened) and baked whole, for
 * the tests of queries across tiles (test_world_query.c, test_world_place.c). */
typedef struct tw_level {
    const char *what;
    tw_world wd;
    nb_bundle *whole;
    nb_world *w;
    nb_world_info in; /* as opened */
} tw_level;
/* Cuts map (with agents) into tiles of tile cells and clusters of cluster
 * in dir, bakes, links and opens it, and bakes it whole; 0 after a failed
 * test line. */
int tw_level_open(tw_level *l, const char *what, const char *map, const char *agents,
                  uint32_t tile, uint32_t cluster, const char *dir);
void tw_level_close(tw_level *l);
/* n rectangles of 1 to 6 cells a side centred on tile corners and borders
 * (and on borders at random places along them), blocked in both wov and
 * ov, the whole bake's. */
void tw_straddling_blocks(tu_rng *r, const tw_level *l, nb_world_overlay *wov, nb_overlay *ov,
                          int n);
/* n hollow squares (a wall of one cell, 7 to 21 cells a side) centred on
 * tile borders, blocked in both overlays: pockets the blocks cut off; their
 * centres in centre[n] when not NULL. */
void tw_ring_blocks(tu_rng *r, const tw_level *l, nb_world_overlay *wov, nb_overlay *ov, int n,
                    nb_cell *centre);
/* The cells joined to start on the whole bake b as ov edits it (a flood by
 * the four cardinal moves, which join what the diagonal ones do under
 * either corner rule): a byte a cell, row by row, to free. */
uint8_t *tw_edited_reach(const nb_bundle *b, const nb_overlay *ov, nb_capability cap,
                         uint32_t size, nb_cell start);

#endif
