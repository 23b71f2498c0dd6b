/* index_check.c: the tile bundles of a world against its world bundle's
 * index (navbake verify of a world bundle): each is where the link step's
 * layout puts it (DIR/tiles/X_Y.nbb beside the world bundle), its header
 * has the digest the index gives it (the file's size and table CRC), and
 * its tile section says it is that tile of that world.  A tile baked
 * again after the link, or swapped with another, is named. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bake_int.h"
#include "world/world.h"

nb_status nbb_world_index_tiles(const nb_bundle *world, uint32_t *count, nb_err *err)
{
    nbi_windex x;
    nb_status st = nbi_windex_find(world, &x, err);
    *count = st == NB_OK ? x.columns * x.rows : 0;
    return st;
}

nb_status nbb_world_index_tile(const nb_bundle *world, const char *dir, uint32_t t, char **path,
                               nb_err *err)
{
    nbi_windex x;
    nb_status st = nbi_windex_find(world, &x, err);
    *path = NULL;
    if (st != NB_OK)
        return st;
    if (t >= x.columns * x.rows)
        return nbi_fail(err, NB_ERR_ARG, "tile %u of a world of %u", t, x.columns * x.rows);
    uint32_t tx = t % x.columns, ty = t / x.columns;
    char name[64];
    snprintf(name, sizeof name, "tiles/%u_%u.nbb", tx, ty);
    if ((st = nbb_world_join(dir, name, path, err)) != NB_OK)
        return st;
    /* The digest, from the header as a bundle's open reads it. */
    uint8_t head[NBI_HEADER_SIZE];
    FILE *f = fopen(*path, "rb");
    if (!f)
        return nbi_fail_errno(err, "cannot open", *path);
    size_t got = fread(head, 1, sizeof head, f);
    fclose(f);
    const uint8_t *d = x.digests + (size_t)t * NBI_DIGEST_SIZE;
    uint64_t size = got == sizeof head ? nbi_get64(head + NBI_HDR_FILE_SIZE) : 0;
    uint32_t crc = got == sizeof head ? nbi_get32(head + NBI_HDR_TABLE_CRC) : 0;
    if (size != nbi_get64(d + NBI_DIGEST_BYTES) || crc != nbi_get32(d + NBI_DIGEST_TABLE_CRC))
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: tile (%u, %u) is not the one the world was linked from (its file "
                        "size %llu and table CRC %08x; the index says %llu and %08x): bake it "
                        "again and link",
                        *path, tx, ty, (unsigned long long)size, crc,
                        (unsigned long long)nbi_get64(d + NBI_DIGEST_BYTES),
                        nbi_get32(d + NBI_DIGEST_TABLE_CRC));
    nb_bundle *tb;
    nbi_wtile tag;
    if ((st = nb_bundle_open(*path, 0, nbb_mem(), &tb, err)) != NB_OK)
        return st;
    if ((st = nbi_wtile_find(tb, &tag, err)) == NB_OK &&
        (tag.column != tx || tag.row != ty || tag.width != x.width || tag.height != x.height ||
         tag.side != x.side || tag.cluster != x.cluster || tag.halo != x.halo || tag.has_digest))
        st = nbi_fail(err, NB_ERR_FORMAT, "%s: says it is tile (%u, %u) of another world", *path,
                      tag.column, tag.row);
    nb_bundle_close(tb);
    return st;
}

nb_status nbb_world_index_shape(const nb_bundle *world, nbb_world_shape_info *out, nb_err *err)
{
    nbi_windex x;
    nb_status st = nbi_windex_find(world, &x, err);
    if (st == NB_OK) {
        out->width = x.width, out->height = x.height, out->tile = x.side;
        out->cluster = x.cluster, out->columns = x.columns, out->rows = x.rows;
        out->halo = x.halo;
    }
    return st;
}
