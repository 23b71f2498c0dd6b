/* info_world.c: navbake info of a world, given its manifest or its world
 * bundle: the grid, every tile checked against the index (and against the
 * manifest's files when given it), the tile bundles' bytes and each
 * section type's bytes per cell of the world, summed over the tiles, and
 * the world bundle's own bytes (index, components, graph) per tile: what
 * a game holds whatever tiles it has loaded (nb_world_bytes). */
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
    s->own_bytes = nb_bundle_file_size(b);
    for (size_t i = 0; i < nb_bundle_section_count(b) && s->nown < NBC_WORLD_TYPES; i++) {
        const nb_section_info *in = nb_bundle_section_get(b, i);
        size_t t = 0;
        while (t < s->nown && s->own_type[t] != in->type)
            t++;
        if (t == s->nown)
            s->own_type[s->nown++] = in->type;
        s->own[t] += in->size;
    }
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

/* A section type's name, or type-N for one this build does not know. */
static const char *type_name(uint32_t type, char *buf, size_t n)
{
    const char *name = nb_section_type_name(type);
    if (!name)
        snprintf(buf, n, "type-%" PRIu32, type), name = buf;
    return name;
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
        char buf[24];
        for (size_t t = 0; t < s->ntypes; t++)
            printf("%s\"%s\": {\"stored\": %" PRIu64 ", \"bytes_per_cell\": %.6f}", t ? ", " : "",
                   type_name(s->type[t], buf, sizeof buf), s->bytes[t],
                   (double)s->bytes[t] / cells);
        printf("}, \"world_bundle\": {\"bytes\": %" PRIu64 ", \"bytes_per_tile\": %.1f, "
               "\"sections\": {",
               s->own_bytes, (double)s->own_bytes / s->tiles);
        for (size_t t = 0; t < s->nown; t++)
            printf("%s\"%s\": {\"stored\": %" PRIu64 ", \"bytes_per_tile\": %.1f}", t ? ", " : "",
                   type_name(s->own_type[t], buf, sizeof buf), s->own[t],
                   (double)s->own[t] / s->tiles);
        printf("}}}");
        return;
    }
    printf("world      %u x %u cells in %u x %u tiles of %u (clusters of %u, a halo of %u)\n",
           w->width, w->height, w->columns, w->rows, w->tile, w->cluster, w->halo);
    printf("tiles      %u, each the one the index names: %" PRIu64 " bytes, %.3f bytes/cell\n",
           s->tiles, s->tile_bytes, (double)s->tile_bytes / cells);
    char buf[24];
    for (size_t t = 0; t < s->ntypes; t++)
        printf("  %-18s %12" PRIu64 " bytes  %.3f bytes/cell\n", type_name(s->type[t], buf, sizeof buf),
               s->bytes[t], (double)s->bytes[t] / cells);
    printf("own        the world bundle: %" PRIu64 " bytes, %.1f bytes/tile, held whatever tiles "
           "are loaded\n",
           s->own_bytes, (double)s->own_bytes / s->tiles);
    for (size_t t = 0; t < s->nown; t++)
        printf("  %-18s %12" PRIu64 " bytes  %.1f bytes/tile\n",
               type_name(s->own_type[t], buf, sizeof buf), s->own[t],
               (double)s->own[t] / s->tiles);
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
