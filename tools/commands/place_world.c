/* place_world.c: a world for navbake line and random (place_world.h). */
#include <stdlib.h>
#include <string.h>

#include "bake.h"
#include "place_world.h"
#include "world_input.h"

int nbc_place_is_world(const char *path)
{
    if (nbc_world_manifest_path(path))
        return 1;
    nb_bundle *b;
    if (nb_bundle_open(path, 0, NULL, &b, NULL) != NB_OK)
        return 0; /* the bundle's own open says why */
    uint32_t tiles;
    int world = nbb_world_index_tiles(b, &tiles, NULL) == NB_OK;
    nb_bundle_close(b);
    return world;
}

/* The edits in world coordinates: a rectangle past the world is a usage error naming it. */
static int edits_overlay(nbc_place_world *s, const nbc_edits *ed)
{
    if (!ed || ed->n == 0)
        return NBC_EXIT_OK;
    for (size_t i = 0; i < ed->n; i++)
        if ((unsigned long)ed->e[i].x + (unsigned long)ed->e[i].w > s->in.width ||
            (unsigned long)ed->e[i].y + (unsigned long)ed->e[i].h > s->in.height)
            return nbc_usage("%s %ld,%ld,%ld,%ld goes past the %u x %u world",
                             ed->e[i].block ? "--block" : "--open", ed->e[i].x, ed->e[i].y,
                             ed->e[i].w, ed->e[i].h, s->in.width, s->in.height);
    nb_err err;
    if (nb_world_overlay_open(s->world, &s->overlay, &err) != NB_OK)
        return nbc_fail_err(&err);
    for (size_t i = 0; i < ed->n; i++) {
        nb_status st = (ed->e[i].block ? nb_world_overlay_block : nb_world_overlay_unblock)(
            s->overlay, ed->e[i].x, ed->e[i].y, ed->e[i].w, ed->e[i].h, &err);
        if (st != NB_OK)
            return nbc_fail_err(&err);
    }
    /* The count, for the answer: the edits' cells read back. */
    for (size_t i = 0; i < ed->n; i++)
        for (long y = ed->e[i].y; y < ed->e[i].y + ed->e[i].h; y++)
            for (long x = ed->e[i].x; x < ed->e[i].x + ed->e[i].w; x++) {
                int first = 1; /* a cell counted at the first edit that covers it */
                for (size_t j = 0; j < i && first; j++)
                    first = !(x >= ed->e[j].x && x < ed->e[j].x + ed->e[j].w &&
                              y >= ed->e[j].y && y < ed->e[j].y + ed->e[j].h);
                s->blocked += first && nb_world_overlay_blocked(s->overlay, x, y);
            }
    return NBC_EXIT_OK;
}

int nbc_place_world_open(nbc_place_world *s, const char *path, const nbc_query_opts *o)
{
    memset(s, 0, sizeof *s);
    nbc_world_in win;
    if (!nbc_world_in_read(path, NULL, &win))
        return NBC_EXIT_FAIL;
    nb_err err;
    int rc = NBC_EXIT_OK;
    if (nb_world_open(win.bundle, NULL, 0, NULL, &s->world, &err) != NB_OK)
        rc = nbc_fail_err(&err);
    if (rc == NBC_EXIT_OK) {
        nb_world_describe(s->world, &s->in);
        rc = nbc_query_agent(nb_world_bundle(s->world), path, o, &s->agent);
    }
    if (rc == NBC_EXIT_OK && nb_world_aa_open(s->world, &s->ws, &err) != NB_OK)
        rc = nbc_fail_err(&err);
    if (rc == NBC_EXIT_OK &&
        !(s->need = calloc((size_t)s->in.columns * s->in.rows, sizeof *s->need)))
        rc = nbc_fail("out of memory for the list of %u tiles", s->in.columns * s->in.rows);
    if (rc == NBC_EXIT_OK)
        rc = edits_overlay(s, o->edits);
    nbc_world_in_free(&win);
    return rc;
}

void nbc_place_world_close(nbc_place_world *s)
{
    nb_world_overlay_close(s->overlay);
    nb_world_aa_close(s->ws);
    nb_world_close(s->world);
    free(s->need);
    memset(s, 0, sizeof *s);
}

int nbc_place_world_retry(nbc_place_world *s, nb_status st, const nb_err *err)
{
    if (st == NB_OK)
        return NBC_EXIT_OK;
    if (st != NB_ERR_UNLOADED)
        return nbc_fail_err(err);
    size_t n = nb_world_aa_needed(s->ws, s->need, (size_t)s->in.columns * s->in.rows);
    nb_err lerr;
    for (size_t i = 0; i < n; i++)
        if (nb_world_load(s->world, s->need[i], &lerr) != NB_OK)
            return nbc_fail_err(&lerr);
    s->rounds++;
    return -1;
}

void nbc_place_world_print(const nbc_place_world *s)
{
    nb_world_info in;
    nb_world_describe(s->world, &in);
    if (s->overlay)
        printf("overlay    %llu cells blocked (--block, --open)\n", (unsigned long long)s->blocked);
    printf("tiles      %u of %u loaded (%u rounds)\n", in.loaded, in.columns * in.rows, s->rounds);
}

void nbc_place_world_json(const nbc_place_world *s)
{
    nb_world_info in;
    nb_world_describe(s->world, &in);
    if (s->overlay)
        printf(", \"blocked_cells\": %llu", (unsigned long long)s->blocked);
    printf(", \"tiles_loaded\": %u, \"tiles\": %u, \"rounds\": %u", in.loaded,
           in.columns * in.rows, s->rounds);
}
