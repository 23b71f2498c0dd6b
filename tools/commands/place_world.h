/* place_world.h: navbake line and random on a world of tiles (its world
 * bundle or manifest, where a bundle may be): the world, a workspace, the
 * agent the options name, the overlay of their edits in world
 * coordinates, and the loading of the tiles a query names, as a game's
 * I/O thread would (place_world.c). */
#ifndef NBC_PLACE_WORLD_H
#define NBC_PLACE_WORLD_H

#include "place_common.h"

typedef struct nbc_place_world {
    nb_world *world;
    nb_world_info in;
    nb_world_aa *ws;
    nb_world_overlay *overlay; /* of the options' edits, or NULL */
    uint64_t blocked;          /* the cells the edits leave blocked */
    nbc_agent agent;           /* its overlay NULL: the world's is above */
    nb_world_tile *need;       /* room for every tile */
    unsigned rounds;           /* loads made for the queries */
} nbc_place_world;

/* 1 when path names a world: a manifest (.yaml, .yml) or a world bundle. */
int nbc_place_is_world(const char *path);
/* Opens the world (its tiles beside it), a workspace, the agent and the
 * overlay; an exit status after a message.  Closing is safe after a
 * failed open. */
int nbc_place_world_open(nbc_place_world *s, const char *path, const nbc_query_opts *o);
void nbc_place_world_close(nbc_place_world *s);
/* After a query's status st: NBC_EXIT_OK to answer, -1 to ask again (the
 * tiles it named loaded), else an exit status after a message. */
int nbc_place_world_retry(nbc_place_world *s, nb_status st, const nb_err *err);
/* "tiles      3 of 12 loaded (2 rounds)\n"; in JSON, ", \"tiles_loaded\": 3,
 * \"tiles\": 12, \"rounds\": 2" (and the overlay's blocked cells). */
void nbc_place_world_print(const nbc_place_world *s);
void nbc_place_world_json(const nbc_place_world *s);

#endif
