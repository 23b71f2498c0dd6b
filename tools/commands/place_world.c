/* place_world.c: a world for navbake line and random (place_world.h). */
#include <string.h>

#include "place_world.h"
#include "world_input.h"

int nbc_place_is_world(const char *path)
{
    return nbc_world_manifest_path(path) || nbc_path_is_world(path);
}

/* The cells the edits leave blocked, for the answer: each cell counted at the first edit that
 * covers it. */
static uint64_t edits_blocked(const nb_world_overlay *ov, const nbc_edits *ed)
{
    uint64_t n = 0;
    for (size_t i = 0; ov && ed && i < ed->n; i++)
        for (long y = ed->e[i].y; y < ed->e[i].y + ed->e[i].h; y++)
            for (long x = ed->e[i].x; x < ed->e[i].x + ed->e[i].w; x++) {
                int first = 1;
                for (size_t j = 0; j < i && first; j++)
                    first = !(x >= ed->e[j].x && x < ed->e[j].x + ed->e[j].w &&
                              y >= ed->e[j].y && y < ed->e[j].y + ed->e[j].h);
                n += first && nb_world_overlay_blocked(ov, x, y);
            }
    return n;
}

int nbc_place_world_open(nbc_place_world *s, const char *path, const nbc_query_opts *o)
{
    memset(s, 0, sizeof *s);
    nbc_world_in win;
    if (!nbc_world_in_read(path, NULL, &win))
        return NBC_EXIT_FAIL;
    nb_err err;
    int rc = nbc_world_session_open(&s->ses, win.bundle, o->edits);
    if (rc == NBC_EXIT_OK) {
        nb_world_describe(s->ses.world, &s->in);
        rc = nbc_query_agent(nb_world_bundle(s->ses.world), path, o, &s->agent);
    }
    if (rc == NBC_EXIT_OK && nb_world_aa_open(s->ses.world, &s->ws, &err) != NB_OK)
        rc = nbc_fail_err(&err);
    s->blocked = edits_blocked(s->ses.overlay, o->edits);
    nbc_world_in_free(&win);
    return rc;
}

void nbc_place_world_close(nbc_place_world *s)
{
    nb_world_aa_close(s->ws);
    nbc_world_session_close(&s->ses);
    memset(s, 0, sizeof *s);
}

int nbc_place_world_retry(nbc_place_world *s, nb_status st, const nb_err *err)
{
    if (st == NB_OK)
        return NBC_EXIT_OK;
    if (st != NB_ERR_UNLOADED)
        return nbc_fail_err(err);
    nb_err lerr = *err; /* a query that named no tile fails with its own message */
    size_t n = nb_world_aa_needed(s->ws, s->ses.need, s->ses.ntiles);
    if (nbc_world_session_load(&s->ses, n, &lerr) != NB_OK)
        return nbc_fail_err(&lerr);
    return -1;
}

void nbc_place_world_print(const nbc_place_world *s)
{
    if (s->ses.overlay)
        printf("overlay    %llu cells blocked (--block, --open)\n", (unsigned long long)s->blocked);
    nbc_world_session_print(&s->ses);
}

void nbc_place_world_json(const nbc_place_world *s)
{
    if (s->ses.overlay)
        printf(", \"blocked_cells\": %llu", (unsigned long long)s->blocked);
    nbc_world_session_json(&s->ses);
}
