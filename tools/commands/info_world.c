/* info_world.c: navbake info of a world, given its manifest or its world
 * bundle: the grid, every tile checked against the index (and against the
 * manifest's files when given it), the tile bundles' bytes and each
 * section type's bytes per cell of the world, summed over the tiles. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "world_input.h"

int nbc_world_sum_make(const nb_bundle *b, const char *dir, nbc_world_sum *s)
{
    nb_err err;
    memset(s, 0, sizeof *s);
    if (nbb_world_index_shape(b, &s->shape, &err) != NB_OK)
        return nbc_fail_err(&err), 0;
    s->tiles = s->shape.columns * s->shape.rows;
    for (uint32_t k = 0; k < s->tiles; k++) {
        char *path = NULL;
        nb_bundle *tb = NULL;
        nb_status st = nbb_world_index_tile(b, dir, k, &path, &err);
        if (st == NB_OK)
            st = nb_bundle_open(path, 0, NULL, &tb, &err);
        free(path);
        if (st != NB_OK)
            return nbc_fail_err(&err), 0;
        s->tile_bytes += nb_bundle_file_size(tb);
        for (size_t i = 0; i < nb_bundle_section_count(tb); i++) {
            const nb_section_info *in = nb_bundle_section_get(tb, i);
            size_t t = 0;
            while (t < s->ntypes && s->type[t] != in->type)
                t++;
            if (t == s->ntypes && s->ntypes < NBC_WORLD_TYPES)
                s->type[s->ntypes++] = in->type;
            if (t < s->ntypes)
                s->bytes[t] += in->size;
        }
        nb_bundle_close(tb);
    }
    return 1;
}

void nbc_world_sum_print(const nbc_world_sum *s, int json)
{
    const nbb_world_shape_info *w = &s->shape;
    double cells = (double)w->width * w->height;
    if (json) {
        printf("  \"world\": {\"width\": %u, \"height\": %u, \"tile\": %u, \"cluster\": %u, "
               "\"columns\": %u, \"rows\": %u, \"halo\": %u, \"tiles\": %u, \"tile_bytes\": %" PRIu64
               ", \"bytes_per_cell\": %.6f, \"sections\": {",
               w->width, w->height, w->tile, w->cluster, w->columns, w->rows, w->halo, s->tiles,
               s->tile_bytes, (double)s->tile_bytes / cells);
        for (size_t t = 0; t < s->ntypes; t++) {
            const char *name = nb_section_type_name(s->type[t]);
            char buf[24];
            if (!name)
                snprintf(buf, sizeof buf, "type-%" PRIu32, s->type[t]), name = buf;
            printf("%s\"%s\": {\"stored\": %" PRIu64 ", \"bytes_per_cell\": %.6f}", t ? ", " : "",
                   name, s->bytes[t], (double)s->bytes[t] / cells);
        }
        printf("}}");
        return;
    }
    printf("world      %u x %u cells in %u x %u tiles of %u (clusters of %u, a halo of %u)\n",
           w->width, w->height, w->columns, w->rows, w->tile, w->cluster, w->halo);
    printf("tiles      %u, each the one the index names: %" PRIu64 " bytes, %.3f bytes/cell\n",
           s->tiles, s->tile_bytes, (double)s->tile_bytes / cells);
    for (size_t t = 0; t < s->ntypes; t++) {
        const char *name = nb_section_type_name(s->type[t]);
        char buf[24];
        if (!name)
            snprintf(buf, sizeof buf, "type-%" PRIu32, s->type[t]), name = buf;
        printf("  %-18s %12" PRIu64 " bytes  %.3f bytes/cell\n", name, s->bytes[t],
               (double)s->bytes[t] / cells);
    }
}

int nbc_info_manifest(const char *path, const char *baked, int json)
{
    nbc_world_in in;
    if (!nbc_world_in_read(path, baked, &in))
        return 0;
    const nbb_world *w = &in.w;
    FILE *f = fopen(in.bundle, "rb");
    int have = f != NULL, ok = 1;
    if (f)
        fclose(f);
    nb_bundle *b = NULL;
    nbc_world_sum s;
    if (have)
        ok = nbc_world_in_open(&in, &b) && nbc_world_sum_make(b, in.dir, &s);
    if (ok && json) {
        printf("{\n  \"manifest\": ");
        nbc_json_string(path);
        printf(",\n  \"width\": %u, \"height\": %u, \"tile\": %u, \"cluster\": %u, \"columns\": %u, "
               "\"rows\": %u,\n  \"maps\": ",
               w->width, w->height, w->tile, w->cluster, w->columns, w->rows);
        nbc_json_string(w->maps);
        printf(",\n  \"world_bundle\": ");
        if (have)
            nbc_json_string(in.bundle);
        else
            printf("null");
        printf(",\n");
        if (have)
            nbc_world_sum_print(&s, 1);
        else
            printf("  \"world\": null");
        printf("\n}\n");
    } else if (ok) {
        printf("manifest   %s\n", path);
        if (!have)
            printf("world      %u x %u cells in %u x %u tiles of %u (clusters of %u)\n", w->width,
                   w->height, w->columns, w->rows, w->tile, w->cluster);
        printf("maps       %s\n", w->maps);
        printf("legend     %s\n", w->legend ? w->legend : "(MovingAI's characters)");
        printf("agents     %s\n", w->agents ? w->agents : "(the default agent set)");
        if (have) {
            printf("baked      %s, from the files the manifest names\n", in.bundle);
            nbc_world_sum_print(&s, 0);
        } else
            printf("baked      not yet: no %s\n", in.bundle);
    }
    nb_bundle_close(b);
    nbc_world_in_free(&in);
    return ok;
}
