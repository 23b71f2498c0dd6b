/* render_world.h: navbake render of a world of tiles: the layers of cells
 * drawn tile by tile from the tile bundles, each tile's own cells at their
 * place in the world's picture (render_world.c). */
#ifndef NBC_RENDER_WORLD_H
#define NBC_RENDER_WORLD_H

#include "render.h"

typedef struct nbc_render_world {
    nb_world *world;
    nb_world_info in;
    char *folder; /* the tile bundles: the folder 'tiles' beside the world bundle */
} nbc_render_world;

/* Opens the world bundle at path; an exit status after a message. */
int nbc_render_world_open(nbc_render_world *rw, const char *path);
void nbc_render_world_close(nbc_render_world *rw);

/* Calls draw(tile view, ctx, err) for each tile the window of v holds:
 * the view of that tile bundle's own cells inside the window, drawn where
 * they lie in the picture.  Each tile is loaded (nb_world_load: checked
 * against the world's index, its file and coordinates named when it is
 * refused) and unloaded after.  Without a canvas (the first pass, which
 * gathers the legend) only the window's first tile is read. */
nb_status nbc_render_world_tiles(nbc_render_world *rw, nbr_view *v,
                                 nb_status (*draw)(nbr_view *tile, void *ctx, nb_err *err),
                                 void *ctx, nb_err *err);

#endif
