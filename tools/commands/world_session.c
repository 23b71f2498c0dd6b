/* world_session.c: a world as the query commands take it (world_session.h). */
#include <stdlib.h>

#include "world_session.h"

int nbc_bundle_is_world(const nb_bundle *b)
{
    size_t at;
    return nb_bundle_section_lookup(b, NB_SEC_WORLD, NULL, NULL, 0, &at, NULL) == NB_OK;
}

int nbc_path_is_world(const char *path)
{
    nb_bundle *b;
    if (nb_bundle_open(path, 0, NULL, &b, NULL) != NB_OK)
        return 0; /* the command's own open says why */
    int world = nbc_bundle_is_world(b);
    nb_bundle_close(b);
    return world;
}

/* The overlay of the edits on the world's cells, as nbc_edits_overlay on a bundle's. */
static int edits_overlay(nbc_world_session *s, const nbc_edits *ed)
{
    if (!ed || ed->n == 0)
        return NBC_EXIT_OK;
    nb_world_info in;
    nb_world_describe(s->world, &in);
    for (size_t i = 0; i < ed->n; i++)
        if ((unsigned long)ed->e[i].x + (unsigned long)ed->e[i].w > in.width ||
            (unsigned long)ed->e[i].y + (unsigned long)ed->e[i].h > in.height)
            return nbc_usage("%s %ld,%ld,%ld,%ld goes past the %u x %u world",
                             ed->e[i].block ? "--block" : "--open", ed->e[i].x, ed->e[i].y,
                             ed->e[i].w, ed->e[i].h, in.width, in.height);
    nb_err err;
    if (nb_world_overlay_open(s->world, &s->overlay, &err) != NB_OK)
        return nbc_fail_err(&err);
    for (size_t i = 0; i < ed->n; i++) {
        nb_status st = ed->e[i].block ? nb_world_overlay_block(s->overlay, ed->e[i].x, ed->e[i].y,
                                                               ed->e[i].w, ed->e[i].h, &err)
                                      : nb_world_overlay_unblock(s->overlay, ed->e[i].x,
                                                                 ed->e[i].y, ed->e[i].w,
                                                                 ed->e[i].h, &err);
        if (st != NB_OK)
            return nbc_fail_err(&err);
    }
    return NBC_EXIT_OK;
}

int nbc_world_session_open(nbc_world_session *s, const char *path, const nbc_edits *edits)
{
    nb_err err;
    memset(s, 0, sizeof *s);
    if (nb_world_open(path, NULL, 0, NULL, &s->world, &err) != NB_OK)
        return nbc_fail_err(&err);
    nb_world_info in;
    nb_world_describe(s->world, &in);
    s->ntiles = (size_t)in.columns * in.rows;
    if (!(s->need = calloc(s->ntiles, sizeof *s->need)))
        return nbc_fail("out of memory for the list of %zu tiles", s->ntiles);
    return edits_overlay(s, edits);
}

void nbc_world_session_close(nbc_world_session *s)
{
    nb_world_overlay_close(s->overlay);
    free(s->need);
    nb_world_close(s->world);
    memset(s, 0, sizeof *s);
}

nb_status nbc_world_session_load(nbc_world_session *s, size_t n, nb_err *err)
{
    if (n == 0) /* a query that needs tiles names them: else it would ask forever */
        return err->code != NB_OK ? err->code : NB_ERR_UNLOADED;
    s->rounds++;
    for (size_t i = 0; i < n && i < s->ntiles; i++) {
        nb_status st = nb_world_load(s->world, s->need[i], err);
        if (st != NB_OK)
            return st;
    }
    return NB_OK;
}

void nbc_world_session_print(const nbc_world_session *s)
{
    nb_world_info in;
    nb_world_describe(s->world, &in);
    printf("tiles      %u of %u loaded (%u round%s of loading)\n", in.loaded, in.columns * in.rows,
           s->rounds, s->rounds == 1 ? "" : "s");
}

void nbc_world_session_json(const nbc_world_session *s)
{
    nb_world_info in;
    nb_world_describe(s->world, &in);
    printf(", \"tiles_loaded\": %u, \"tiles\": %u, \"rounds\": %u", in.loaded,
           in.columns * in.rows, s->rounds);
}
