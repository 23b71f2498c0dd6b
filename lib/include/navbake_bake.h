/* navbake_bake.h: the bake as a library (libnavbake_bake), for an editor
 * or a game that bakes in-process: a level in memory (a grid of terrain
 * ids or a map's text, a legend, an agent set) or read from its files,
 * baked into a bundle in memory or on disk, as mkclear and mkabstract bake
 * it (the same bytes).  The runtime (navbake.h, libnavbake) opens what it
 * makes.  nb_bake(3) has it in full.
 *
 * It keeps navbake.h's conventions: an opaque handle from nb_bake_open,
 * released by nb_bake_close (NULL allowed); every fallible call returns an
 * nb_status and fills an nb_err when given one; a struct the caller fills
 * has an _init; no global state, so any number of threads may bake at
 * once, each with a handle of its own (one handle bakes on one thread at a
 * time); the handle and the images it gives come from the caller's
 * allocator (NULL: the C library's).
 *
 * Its ABI guard is navbake.h's: nb_bake_open and nb_bake_options_init are
 * macros passing this header's nb_abi (the sizes of NB_BAKE_ABI_STRUCTS)
 * and navbake.h's; a program compiled with another header is refused with
 * NB_ERR_VERSION naming the struct. */
#ifndef NAVBAKE_BAKE_H
#define NAVBAKE_BAKE_H

#include "navbake.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A level being made and baked: its legend, agent set and grid, and the
 * allocator it was opened with. */
typedef struct nb_bake nb_bake;

/* The terrain id of a cell no agent enters (nb_bake_set_grid). */
#define NB_BAKE_OBSTACLE 255u

/* What a bake makes beyond the level, its clearance and component layers
 * and their runs (what mkclear bakes): nb_bake_options.flags. */
#define NB_BAKE_ABSTRACT 0x1u     /* the HAA* abstract graph, its higher levels and its
                                     terrain-cost profiles (mkabstract) */
#define NB_BAKE_OPTIMAL 0x2u      /* optimal-search layers, strict corners (--optimal) */
#define NB_BAKE_OPTIMAL_WEAK 0x4u /* optimal-search layers, weak corners */
#define NB_BAKE_ZLIB 0x8u         /* sections stored as zlib streams (-z) */

/* The HAA* graph's quality and its transitions' placement (formats/abstract.md,
 * mkabstract --quality, --placement): nb_bake_options.quality, .placement.
 * A low-quality graph with the first placement takes a sixth to a quarter
 * fewer instructions to bake (tests/bench/results/bake-bench.md). */
#define NB_BAKE_QUALITY_INITIAL 0u /* drop no edge */
#define NB_BAKE_QUALITY_HIGH 1u    /* drop strongly dominated edges (the default) */
#define NB_BAKE_QUALITY_LOW 2u     /* also weakly dominated ones: smaller, longer paths */
#define NB_BAKE_PLACE_FIRST 0u
#define NB_BAKE_PLACE_MIDDLE 1u
#define NB_BAKE_PLACE_SPREAD 2u
#define NB_BAKE_PLACE_ENDS 3u
#define NB_BAKE_PLACE_AUTO 255u /* ends for high quality, first for the others */

/* Told the fraction done (0 to 1) now and then, on the baking thread;
 * returning nonzero cancels the bake: it stops inside the step it is in,
 * where that step next checks (rows, clusters, nodes: nb_bake(3)), and
 * returns NB_ERR_CANCELLED, having written nothing. */
typedef int (*nb_bake_progress_fn)(void *arg, double fraction);

typedef struct nb_bake_options {
    uint32_t flags;     /* NB_BAKE_* (default NB_BAKE_ABSTRACT) */
    uint32_t cluster;   /* side of an HAA* cluster, 1 to NB_ABSTRACT_MAX_CLUSTER (default 10) */
    uint32_t levels;    /* levels of clusters, the graph's own included, 1 to 8; 0 (the
                           default): mkabstract's "auto" */
    uint32_t landmarks; /* landmarks on the top level, 0 to 16 (default 8) */
    uint32_t threads;   /* threads to bake on; 0: the online CPUs (default 1); the bytes
                           are the same for any number */
    uint32_t quality;   /* of the HAA* graph: NB_BAKE_QUALITY_* (default HIGH) */
    uint32_t placement; /* of its transitions: NB_BAKE_PLACE_* (default AUTO) */
    uint32_t reserved;  /* 0 */
    nb_bake_progress_fn progress; /* or NULL (the default) */
    void *progress_arg;
} nb_bake_options;

/* Sets the defaults above (mkclear then mkabstract with no options).  A
 * macro (the ABI guard): NB_ERR_VERSION, and o left as it was, when the
 * program's headers are others. */
nb_status nb_bake_options_init_abi(nb_bake_options *o, const nb_abi *abi, const nb_abi *bake_abi);

/* Opens a handle holding the default legend (MovingAI's characters), the
 * default agent set and no grid.  alloc (NULL: the C library's) serves the
 * handle and the images nb_bake_memory gives; it must outlive them.  A
 * macro (the ABI guard), as nb_bundle_open. */
nb_status nb_bake_open_abi(const nb_allocator *alloc, nb_bake **out, nb_err *err,
                           const nb_abi *abi, const nb_abi *bake_abi);
/* Releases the handle; NULL is allowed. */
void nb_bake_close(nb_bake *bake);

/* The terrain legend from its YAML text (formats/legend.md), len bytes;
 * NULL: the default.  name names the text in messages (NULL: "legend").
 * The agent set goes back to the default and the grid is dropped: they are
 * read in the legend's terms. */
nb_status nb_bake_set_legend(nb_bake *bake, const char *yaml, size_t len, const char *name,
                             nb_err *err);
/* The agent set from its YAML text (formats/agents.md); NULL: the default. */
nb_status nb_bake_set_agents(nb_bake *bake, const char *yaml, size_t len, const char *name,
                             nb_err *err);
/* The grid: width x height terrain ids, row by row from the top-left, each
 * a terrain of the legend (0 to nb_bake_terrain_count - 1) or
 * NB_BAKE_OBSTACLE; copied.  Each id is stored as its terrain's first map
 * character (an obstacle as the legend's, '@' when it has none). */
nb_status nb_bake_set_grid(nb_bake *bake, uint32_t width, uint32_t height, const uint8_t *terrain,
                           nb_err *err);
/* The grid from a MovingAI map's text (formats/map.md) in the legend's
 * characters. */
nb_status nb_bake_set_map(nb_bake *bake, const char *text, size_t len, const char *name,
                          nb_err *err);
/* Reads a level from its files as mkclear does: the legend and agent set
 * (NULL: the defaults) and the level (a MovingAI map, a Tiled, LDtk, image
 * or heightmap level by its extension: mkclear(1)). */
nb_status nb_bake_read_level(nb_bake *bake, const char *legend_path, const char *agents_path,
                             const char *level_path, nb_err *err);
/* The legend's terrains, and the id of the one called name
 * (NB_ERR_NOTFOUND, naming those there are, when none). */
unsigned nb_bake_terrain_count(const nb_bake *bake);
nb_status nb_bake_terrain_lookup(const nb_bake *bake, const char *name, unsigned *id, nb_err *err);

/* Bakes the level into a bundle's bytes, *data from the handle's allocator
 * (release them with nb_bake_free), *len bytes: what mkclear then mkabstract
 * would write for it with the options, byte for byte.  NB_ERR_ARG without
 * a grid; NB_ERR_CANCELLED when the progress callback cancelled it (*data
 * NULL after any failure).  o NULL: the defaults. */
nb_status nb_bake_memory(nb_bake *bake, const nb_bake_options *o, void **data, size_t *len,
                         nb_err *err);
/* Releases an image nb_bake_memory gave (NULL is allowed). */
void nb_bake_free(nb_bake *bake, void *data);
/* The same written to path, binary or SQLite by its name (mkclear's
 * --format): beside it, then renamed into place, so a failure or a
 * cancelled bake leaves any file there as it was. */
nb_status nb_bake_write(nb_bake *bake, const nb_bake_options *o, const char *path, nb_err *err);

/* The bake library's own ABI check, size and name of struct i of
 * NB_BAKE_ABI_STRUCTS (as nb_abi_check, nb_abi_size, nb_abi_name). */
nb_status nb_bake_abi_check(const nb_abi *bake_abi, nb_err *err);
uint32_t nb_bake_abi_size(unsigned i);
const char *nb_bake_abi_name(unsigned i);

/* ------------------------------------------------------------------ */
/* The ABI guard's list: entries are only ever added at the end.       */

#define NB_BAKE_ABI_STRUCTS(X) X(nb_bake_options)

#define NB_BAKE_ABI_SIZE_(t) (uint32_t) sizeof(t),
static const uint32_t nb_bake_abi_sizes_[] = {NB_BAKE_ABI_STRUCTS(NB_BAKE_ABI_SIZE_)};
#undef NB_BAKE_ABI_SIZE_
static const nb_abi nb_bake_abi_this_ = {
    NB_VERSION_MAJOR, NB_VERSION_MINOR,
    (uint32_t)(sizeof nb_bake_abi_sizes_ / sizeof nb_bake_abi_sizes_[0]), nb_bake_abi_sizes_};
#define NB_BAKE_ABI_THIS (&nb_bake_abi_this_)

#define nb_bake_open(alloc, out, err) \
    nb_bake_open_abi(alloc, out, err, NB_ABI_THIS, NB_BAKE_ABI_THIS)
#define nb_bake_options_init(o) nb_bake_options_init_abi(o, NB_ABI_THIS, NB_BAKE_ABI_THIS)

#ifdef __cplusplus
}
#endif

#endif /* NAVBAKE_BAKE_H */
