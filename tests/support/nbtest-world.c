/* nbtest-world: reachability across the tiles of a world, the way the
 * streaming runtime will read it (issue 31), for tests/cli/world-bake.sh.
 *
 *   nbtest-world reach WORLD.nbw TILES_DIR AGENT X1 Y1 X2 Y2
 *
 * prints "joined" when the world's components put the two world cells in
 * one component for AGENT's capability and size, "apart" otherwise.  Each
 * cell's tile bundle (TILES_DIR/X_Y.nbb) must have the digest the world's
 * index gives it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"
#include "world/world.h"

static int fail(const char *msg)
{
    fprintf(stderr, "nbtest-world: %s\n", msg);
    return 2;
}

/* The world component of world cell (x, y). */
static int component(const nb_bundle *wb, const nbi_windex *x, const nbi_wcomp *c,
                     const char *dir, unsigned long cx, unsigned long cy, uint32_t *out)
{
    if (cx >= x->width || cy >= x->height)
        return fail("a cell outside the world");
    uint32_t tx = (uint32_t)(cx / x->side), ty = (uint32_t)(cy / x->side), t = ty * x->columns + tx;
    char path[4096];
    snprintf(path, sizeof path, "%s/%u_%u.nbb", dir, tx, ty);
    nb_bundle *tb;
    nb_err err;
    nbi_wtile tag;
    nbb_layer *l;
    if (nb_bundle_open(path, 0, NULL, &tb, &err) != NB_OK || nbi_wtile_find(tb, &tag, &err) != NB_OK)
        return fail(err.msg);
    /* The digest: the file's size and table CRC, from its header. */
    uint8_t head[NBI_HEADER_SIZE] = {0};
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(head, 1, sizeof head, f) : 0;
    if (f)
        fclose(f);
    const uint8_t *d = x->digests + (size_t)t * NBI_DIGEST_SIZE;
    if (got != sizeof head || nbi_get64(d + NBI_DIGEST_BYTES) != nbi_get64(head + NBI_HDR_FILE_SIZE) ||
        nbi_get32(d + NBI_DIGEST_TABLE_CRC) != nbi_get32(head + NBI_HDR_TABLE_CRC)) {
        nb_bundle_close(tb);
        return fail("a tile bundle whose digest is not the index's");
    }
    if (nbb_layer_open_components(tb, c->capability, c->size, &l, &err) != NB_OK)
        return fail(err.msg);
    *out = nbi_wcomp_of(c, t, nbb_layer_value(l, (uint32_t)(cx - tag.origin_x),
                                                 (uint32_t)(cy - tag.origin_y)));
    nbb_layer_close(l);
    nb_bundle_close(tb);
    (void)wb;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 9 || strcmp(argv[1], "reach") != 0)
        return fail("usage: nbtest-world reach WORLD.nbw TILES_DIR AGENT X1 Y1 X2 Y2");
    nb_bundle *wb;
    nb_err err;
    nbi_windex x;
    if (nb_bundle_open(argv[2], NB_OPEN_VERIFY, NULL, &wb, &err) != NB_OK ||
        nbi_windex_find(wb, &x, &err) != NB_OK)
        return fail(err.msg);
    const nb_agent *a = NULL;
    for (size_t i = 0; i < nb_agent_count(wb); i++)
        if (strcmp(nb_agent_get(wb, i)->name, argv[4]) == 0)
            a = nb_agent_get(wb, i);
    if (!a)
        return fail("no such agent");
    uint32_t params[2] = {a->capability, a->size};
    long ci = nbi_section_index(wb, NB_SEC_WORLD_COMPONENTS, NULL, params, 2);
    nbi_wcomp c;
    if (ci < 0 || nbi_wcomp_at(wb, (size_t)ci, &c, &err) != NB_OK)
        return fail("no world components for the agent");
    uint32_t g1 = 0, g2 = 0;
    int rc = component(wb, &x, &c, argv[3], strtoul(argv[5], NULL, 10), strtoul(argv[6], NULL, 10), &g1);
    if (!rc)
        rc = component(wb, &x, &c, argv[3], strtoul(argv[7], NULL, 10), strtoul(argv[8], NULL, 10), &g2);
    if (!rc)
        printf("%s\n", g1 && g1 == g2 ? "joined" : "apart");
    nb_bundle_close(wb);
    return rc;
}
