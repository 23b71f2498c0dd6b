/* world_input.c: a world named where a bundle may be (world_input.h).  A
 * manifest says where the tiles' maps are, not where the world was baked:
 * its bake is looked for in the manifest's folder (navbake world plan -o
 * with the world's own folder) unless --baked names another. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "world_input.h"

int nbc_world_manifest_path(const char *path)
{
    size_t n = strlen(path);
    return (n > 5 && strcmp(path + n - 5, ".yaml") == 0) ||
           (n > 4 && strcmp(path + n - 4, ".yml") == 0);
}

int nbc_world_in_read(const char *path, const char *baked, nbc_world_in *in)
{
    nb_err err;
    memset(in, 0, sizeof *in);
    if (nbc_world_manifest_path(path)) {
        if (nbb_world_read(path, &in->w, &err) != NB_OK)
            return nbc_fail_err(&err), 0;
        in->manifest = 1;
        if (!(in->dir = strdup(baked ? baked : *in->w.dir ? in->w.dir : ".")))
            return nbc_fail("no memory"), nbc_world_in_free(in), 0;
    } else {
        const char *slash = strrchr(path, '/');
        if (!(in->dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path))
                              : strdup(".")))
            return nbc_fail("no memory"), 0;
        if (!(in->bundle = strdup(path)))
            return nbc_fail("no memory"), nbc_world_in_free(in), 0;
        return 1;
    }
    if (nbb_world_join(in->dir, "world.nbw", &in->bundle, &err) != NB_OK)
        return nbc_fail_err(&err), nbc_world_in_free(in), 0;
    return 1;
}

void nbc_world_in_free(nbc_world_in *in)
{
    if (in->manifest)
        nbb_world_free(&in->w);
    free(in->bundle);
    free(in->dir);
    memset(in, 0, sizeof *in);
}

int nbc_world_in_open(const nbc_world_in *in, nb_bundle **b)
{
    nb_err err;
    uint32_t tiles = 0;
    nb_status st = nb_bundle_open(in->bundle, 0, NULL, b, &err);
    if (st == NB_OK && nbb_world_index_tiles(*b, &tiles, &err) != NB_OK) {
        nb_bundle_close(*b);
        *b = NULL;
        return nbc_fail("%s: not a world bundle (it has no world section)", in->bundle), 0;
    }
    if (st == NB_OK && in->manifest)
        st = nbb_world_sources_check(&in->w, *b, in->dir, 0, NULL, NULL, &err);
    for (uint32_t k = 0; st == NB_OK && !in->manifest && k < tiles; k++) {
        char *tile = NULL;
        st = nbb_world_index_tile(*b, in->dir, k, &tile, &err);
        free(tile);
    }
    if (st == NB_OK)
        return 1;
    nb_bundle_close(*b);
    *b = NULL;
    nbc_fail_err(&err);
    return 0;
}
