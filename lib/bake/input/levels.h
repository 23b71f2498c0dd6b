/* levels.h: levels as editors write them (Tiled, LDtk), read into the
 * same grid of map characters as a MovingAI map (formats/tiled.md,
 * formats/ldtk.md).  What the readers share: the legend's names for tiles
 * and values, located errors, layer data decoding.  Bake side, internal. */
#ifndef NB_LEVELS_H
#define NB_LEVELS_H

#include "bake_int.h"

/* ---- the legend's names for editors' things (legend_yaml.c) ---- */

typedef enum nbb_match_kind {
    NBB_MATCH_TILE,  /* Tiled: a tile class, or "TILESET:ID" */
    NBB_MATCH_VALUE, /* LDtk: an IntGrid value's identifier, "VALUE" or "LAYER:VALUE" */
    NBB_MATCH_COLOUR /* images: "#rrggbb" */
} nbb_match_kind;

#define NBB_MATCH_KEY_MAX 64
#define NBB_MATCH_MAX 4096

typedef struct nbb_match {
    nbb_match_kind kind;
    uint8_t code; /* a terrain, or NBI_CELL_OBSTACLE */
    char key[NBB_MATCH_KEY_MAX];
} nbb_match;

/* A band of heights of a heightmap that is one terrain (or obstacles). */
typedef struct nbb_height_band {
    uint32_t lo, hi; /* inclusive */
    uint8_t code;
} nbb_height_band;

/* What a legend says beyond characters (formats/legend.md, "Levels from
 * editors"). */
typedef struct nbb_legend_ext {
    size_t nmatch;
    nbb_match *match; /* malloc'ed */
    int empty;        /* a code for a cell nothing covers, or -1: the format's default */
    int unnamed;      /* a code for a tile or value that names nothing, or -1 */
    /* Heightmaps (formats/image.md): a legend with any of these reads a
     * PNG as heights. */
    int heightmap;
    uint32_t max_step;    /* UINT32_MAX: none */
    unsigned height_bits; /* 8 or 16, or 0: the image's own */
    size_t nbands;
    nbb_height_band band[NB_MAX_TERRAINS + 1];
    /* The agent set read with the level, or NULL: a heightmap follows the
     * limits its agents state and adds terrains to their capabilities
     * (heightmap_steps.c). */
    nbi_agentset *agents;
} nbb_legend_ext;

nb_status nbb_legend_parse_ext(const char *buf, size_t len, const char *name, nbi_legend *legend,
                               nbb_legend_ext *ext, nb_err *err);
nb_status nbb_legend_read_ext(const char *path, nbi_legend *legend, nbb_legend_ext *ext,
                              nb_err *err);
void nbb_legend_ext_free(nbb_legend_ext *ext);

/* The code (a terrain or NBI_CELL_OBSTACLE) that name gives: the legend's
 * entries of that kind first, then a terrain of that name, then
 * "obstacle"; -1 when none. */
int nbb_legend_name_code(const nbi_legend *legend, const nbb_legend_ext *ext, nbb_match_kind kind,
                         const char *name);
/* The map character of a code; an obstacle claims '@' (or the first free
 * character) when the legend has no obstacle character. */
nb_status nbb_legend_cell_char(nbi_legend *legend, int code, uint8_t *out, nb_err *err);

/* ---- the level files: which reader by the name (level_file.c) ---- */

typedef enum nbb_level_kind {
    NBB_LEVEL_MOVINGAI, NBB_LEVEL_TMX, NBB_LEVEL_TMJ, NBB_LEVEL_LDTK, NBB_LEVEL_PNG, NBB_LEVEL_PGM
} nbb_level_kind;

nbb_level_kind nbb_level_kind_of(const char *path);
/* Reads the level file at path into grid with legend's characters. */
nb_status nbb_level_file_read(const char *path, nbi_legend *legend, const nbb_legend_ext *ext,
                              unsigned threads, nbb_grid *grid, nb_err *err);

/* ---- Tiled: the map as both forms read it (tiled_map.c) ---- */

#define NBB_TILED_FILE_MAX ((size_t)256 << 20)
/* Gids carry flip flags in their top bits. */
#define NBB_TILED_GID_MASK 0x0fffffffu

typedef struct nbb_tiled_tile {
    uint32_t id;
    char *name; /* its terrain property, else its class; NULL when neither */
} nbb_tiled_tile;

typedef struct nbb_tiled_tileset {
    uint32_t firstgid;
    char *source;   /* an external tileset's file, as the map names it, until read */
    uint32_t count; /* tiles, 0 when the file does not say */
    int collection; /* a collection of images (columns 0): its ids are those listed */
    char *name;
    size_t ntiles;
    nbb_tiled_tile *tiles;
} nbb_tiled_tileset;

typedef struct nbb_tiled_chunk {
    int64_t x, y; /* in cells */
    uint32_t w, h;
    uint32_t *gids;
} nbb_tiled_chunk;

typedef struct nbb_tiled_layer {
    char *name;
    size_t nchunks;
    nbb_tiled_chunk *chunks; /* a finite map's layer is one chunk at (0, 0) */
} nbb_tiled_layer;

typedef enum nbb_tiled_shape { NBB_SHAPE_RECT, NBB_SHAPE_ELLIPSE, NBB_SHAPE_POLYGON } nbb_tiled_shape;

typedef struct nbb_tiled_object {
    uint32_t id;
    uint32_t gid;     /* a tile object's tile (flags cleared), else 0 */
    char *name;       /* its terrain property, else its class; NULL when neither */
    char *layer;      /* its layer's name, for messages */
    nbb_tiled_shape shape;
    double x, y, w, h, rotation; /* pixels, degrees clockwise about (x, y); a tile
                                  * object's (x, y) is its bottom-left corner */
    size_t npoints;
    double *points;   /* polygon: x, y pairs relative to (x, y) */
} nbb_tiled_object;

typedef struct nbb_tiled_map {
    const char *file; /* for messages */
    uint32_t width, height, tilewidth, tileheight;
    int infinite;
    size_t ntilesets, nlayers, nobjects;
    nbb_tiled_tileset *tilesets;
    nbb_tiled_layer *layers;
    nbb_tiled_object *objects;
} nbb_tiled_map;

void nbb_tiled_map_free(nbb_tiled_map *m);
/* Room for one more of each (NULL when out of memory). */
nbb_tiled_tileset *nbb_tiled_add_tileset(nbb_tiled_map *m);
nbb_tiled_layer *nbb_tiled_add_layer(nbb_tiled_map *m, const char *name);
nbb_tiled_chunk *nbb_tiled_add_chunk(nbb_tiled_layer *l);
nbb_tiled_object *nbb_tiled_add_object(nbb_tiled_map *m);
nbb_tiled_tile *nbb_tiled_add_tile(nbb_tiled_tileset *ts);
void nbb_tiled_tileset_free(nbb_tiled_tileset *ts);
/* The path of a file named by another (relative to its folder); nbb_malloc'ed. */
char *nbb_path_beside(const char *from, const char *rel);

/* A chunk's gids from a layer's data: encoding "csv", "base64" or NULL
 * (gids given one by one elsewhere), compression NULL/"", "zlib", "gzip"
 * or "zstd"; the decoded size must be exactly w * h gids, inflating no
 * further.  where names the layer (and chunk) for messages. */
nb_status nbb_tiled_decode(const char *text, size_t len, const char *encoding,
                           const char *compression, uint32_t *gids, size_t count,
                           const char *where, nb_err *err);
/* The terrain codes of the distinct gids a map's layers and objects hold
 * (tiled_codes.c), every layer's gid checked against its tileset: work
 * bounded by the gids stored, never by their values. */
typedef struct nbb_tiled_codes {
    size_t n;
    uint32_t *gid;  /* ascending, flags cleared */
    int16_t *code;  /* each one's code; -1: the tile names nothing */
    size_t lookups; /* tiles looked up in the legend (test_tiled_codes counts them) */
} nbb_tiled_codes;
nb_status nbb_tiled_codes_make(const nbb_tiled_map *m, const nbi_legend *legend,
                               const nbb_legend_ext *ext, nbb_tiled_codes *cs, nb_err *err);
/* The code of a gid (flags cleared) the map uses; -1 for any other. */
int nbb_tiled_code(const nbb_tiled_codes *cs, uint32_t gid);
void nbb_tiled_codes_free(nbb_tiled_codes *cs);
/* The grid of map characters: tile layers combined, objects over them. */
nb_status nbb_tiled_build(const nbb_tiled_map *m, nbi_legend *legend, const nbb_legend_ext *ext,
                          nbb_grid *grid, nb_err *err);

/* The two forms: XML (tiled_tmx.c, expat) and JSON (tiled_tmj.c, jansson).
 * Tilesets are read by the extension of their file (.tsx or .tsj). */
nb_status nbb_tmx_read(const char *path, nbb_tiled_map *m, nb_err *err);
nb_status nbb_tmj_read(const char *path, nbb_tiled_map *m, nb_err *err);
nb_status nbb_tsx_read(const char *path, nbb_tiled_tileset *ts, nb_err *err);
nb_status nbb_tsj_read(const char *path, nbb_tiled_tileset *ts, nb_err *err);
/* The map's external tilesets read, each by its extension (level_file.c). */
nb_status nbb_tiled_read_tilesets(const char *map_path, nbb_tiled_map *m, nb_err *err);

/* ---- LDtk (ldtk.c, jansson) ---- */

nb_status nbb_ldtk_read(const char *path, nbi_legend *legend, const nbb_legend_ext *ext,
                        nbb_grid *grid, nb_err *err);

/* ---- images and heightmaps (image_png.c with libpng, heightmap.c) ---- */

#define NBB_IMAGE_FILE_MAX ((size_t)1 << 30)

/* An image of heights (or colours) as read: w x h samples. */
typedef struct nbb_heights {
    uint32_t w, h;
    unsigned bits;     /* 8 or 16 */
    uint16_t *v;       /* heights (gray), or NULL for a colour image */
} nbb_heights;

/* A PNG: a colour image into the grid through the legend's colours, or
 * (heightmap set) its gray samples into *hm. */
nb_status nbb_png_read(const char *path, int heightmap, nbi_legend *legend,
                       const nbb_legend_ext *ext, nbb_grid *grid, nbb_heights *hm, nb_err *err);
/* A PGM (P5 or P2) into *hm. */
nb_status nbb_pgm_read(const char *path, nbb_heights *hm, nb_err *err);
/* The distinct step limits, ascending, into limit[NB_MAX_AGENTS]: the
 * agents' (the legend's for an agent that states none) when any states
 * one, else the legend's alone; returns how many. */
unsigned nbb_step_limits(const nbb_legend_ext *ext, uint32_t *limit);
/* A terrain for band's cells that only agents of limit need and above
 * stand on, added to the legend and to those agents' capabilities. */
nb_status nbb_step_terrain(const char *file, nbi_legend *legend, const nbb_legend_ext *ext,
                           int band, uint32_t need, int *code, nb_err *err);
/* Heights into the grid: bands to terrains, steps above max_step blocked. */
nb_status nbb_heightmap_grid(const char *file, const nbb_heights *hm, nbi_legend *legend,
                             const nbb_legend_ext *ext, nbb_grid *grid, nb_err *err);

#endif
