/* world_input.h: a world named where a bundle may be (navbake info, verify,
 * convert): its manifest (a .yaml or .yml file) or its world bundle, and
 * where its world bundle and tiles are (world_input.c). */
#ifndef NBC_WORLD_INPUT_H
#define NBC_WORLD_INPUT_H

#include "bake.h"

typedef struct nbc_world_in {
    int manifest;  /* given the manifest, read into w */
    nbb_world w;
    char *bundle;  /* the world bundle's path */
    char *dir;     /* its folder: its tile bundles are dir/tiles/X_Y.nbb */
} nbc_world_in;

/* 1 when path names a manifest rather than a bundle: it ends in .yaml or .yml. */
int nbc_world_manifest_path(const char *path);
/* The world at path: a manifest, whose world bundle is baked/world.nbw
 * (baked NULL: the manifest's folder), or a world bundle.  1 when read,
 * else 0 with the error printed. */
int nbc_world_in_read(const char *path, const char *baked, nbc_world_in *in);
void nbc_world_in_free(nbc_world_in *in);
/* The world bundle of in opened and checked with its tiles: each is the
 * index's and, given a manifest, baked from the files it names now
 * (nbb_world_sources_check).  1 and *b (to close) when so, else 0 with the
 * error printed. */
int nbc_world_in_open(const nbc_world_in *in, nb_bundle **b);

/* What navbake info says of a world (info_world.c): its shape, over its
 * tile bundles their bytes and each section type's stored bytes, and the
 * world bundle's own bytes. */
#define NBC_WORLD_TYPES 64
typedef struct nbc_world_sum {
    nbb_world_shape_info shape;
    uint32_t tiles;
    uint64_t tile_bytes;
    size_t ntypes;
    uint32_t type[NBC_WORLD_TYPES];
    uint64_t bytes[NBC_WORLD_TYPES];
    /* The world bundle's own: its file and each section (index,
     * components, the graph above the tiles), stated a tile each. */
    uint64_t own_bytes;
    size_t nown;
    uint32_t own_type[NBC_WORLD_TYPES];
    uint64_t own[NBC_WORLD_TYPES];
} nbc_world_sum;
/* Sums the tiles of the world bundle b (in dir/tiles); 1, else 0 with the
 * error printed. */
int nbc_world_sum_make(const nb_bundle *b, const char *dir, nbc_world_sum *s);
/* Prints it as lines of text, or as the members of a JSON object. */
void nbc_world_sum_print(const nbc_world_sum *s, int json);
/* navbake info of a manifest: 1 when intact. */
int nbc_info_manifest(const char *path, const char *baked, int json);

#endif
