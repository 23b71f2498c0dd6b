/* world_session.h: a world of tiles as navbake query, scen and nearest
 * take it in place of a bundle: the world opened, the overlay of --block
 * and --open in world coordinates, and the loading of the tiles a query
 * names (NB_ERR_UNLOADED), as a game's I/O thread would, counted. */
#ifndef NBC_WORLD_SESSION_H
#define NBC_WORLD_SESSION_H

#include "overlay_opts.h"

typedef struct nbc_world_session {
    nb_world *world;           /* NULL: the command runs on a bundle */
    nb_world_overlay *overlay; /* of the edits, or NULL */
    nb_world_tile *need;       /* room for every tile of the world */
    size_t ntiles;
    unsigned rounds;           /* queries that named tiles, each followed by their loading */
} nbc_world_session;

/* 1 when b is a world bundle (navbake world link's: it holds a world's index). */
int nbc_bundle_is_world(const nb_bundle *b);
/* 1 when the file at path opens as a world bundle. */
int nbc_path_is_world(const char *path);
/* Opens the world at path, its tile bundles in the folder 'tiles' beside
 * it, and the overlay of edits (NULL: none) on its cells; an exit status
 * after a message.  Closing is safe after a failed open. */
int nbc_world_session_open(nbc_world_session *s, const char *path, const nbc_edits *edits);
void nbc_world_session_close(nbc_world_session *s);
/* Loads the first n tiles of s->need, which a query named: one round.  n
 * 0 (a query that named none) is an error, kept in err. */
nb_status nbc_world_session_load(nbc_world_session *s, size_t n, nb_err *err);
/* "tiles      3 of 12 loaded (2 rounds of loading)\n", and in JSON
 * ", \"tiles_loaded\": 3, \"tiles\": 12, \"rounds\": 2". */
void nbc_world_session_print(const nbc_world_session *s);
void nbc_world_session_json(const nbc_world_session *s);

#endif
