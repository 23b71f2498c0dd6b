/* place_world.h: navbake line and random on a world of tiles (its world
 * bundle or manifest, where a bundle may be): the world, a workspace, the
 * agent the options name, the overlay of their edits in world
 * coordinates, and the loading of the tiles a query names, as a game's
 * I/O thread would: a world_session.h session with a workspace and an
 * agent added (place_world.c). */
#ifndef NBC_PLACE_WORLD_H
#define NBC_PLACE_WORLD_H

#include "place_common.h"
#include "world_session.h"

typedef struct nbc_place_world {
    nbc_world_session ses;     /* the world, the edits' overlay, the tiles loaded */
    nb_world_info in;
    nb_world_aa *ws;
    uint64_t blocked;          /* the cells the edits leave blocked */
    nbc_agent agent;           /* its overlay NULL: the session's is above */
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
/* The overlay's blocked cells (when there are edits), then the session's
 * tiles line (nbc_world_session_print, _json). */
void nbc_place_world_print(const nbc_place_world *s);
void nbc_place_world_json(const nbc_place_world *s);

#endif
