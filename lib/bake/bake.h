/* build.h: the builders' side of the library, what the tools link: input
 * readers (maps, YAML) and the bundle writer.  Not installed; the runtime
 * (navbake.h) never depends on it.  Builder functions are named nbb_. */
#ifndef NB_BUILD_H
#define NB_BUILD_H

#include <signal.h>

#include "core/base.h"

/* ---- files (readfile.c) ---- */

/* Reads a whole file ("-" for standard input) into a NUL-terminated
 * buffer of at most limit bytes. */
nb_status nbb_read_file(const char *path, size_t limit, char **buf, size_t *len, nb_err *err);
/* The name errors give an input: the path, or "(standard input)" for "-". */
const char *nbb_input_name(const char *path);

/* ---- MovingAI maps (map_read.c; formats/map.md) ---- */

typedef struct nbb_grid {
    uint32_t width, height;
    uint8_t *cells; /* width * height map characters, row-major from the top-left */
} nbb_grid;

#define NBB_MAP_FILE_MAX ((size_t)1 << 30)

nb_status nbb_map_read(const char *path, const nbi_legend *legend, nbb_grid *grid, nb_err *err);
/* Parses a map held in memory; name is used in messages. */
nb_status nbb_map_parse(const char *buf, size_t len, const char *name, const nbi_legend *legend,
                        nbb_grid *grid, nb_err *err);
void nbb_grid_free(nbb_grid *grid);

/* ---- YAML documents with located errors (yamldoc.c) ---- */

#include <yaml.h>

typedef struct nbb_yaml {
    yaml_document_t doc;
    const char *name; /* file name for messages */
} nbb_yaml;

/* Parses exactly one YAML document; a syntax error names line and column. */
nb_status nbb_yaml_load(nbb_yaml *y, const char *buf, size_t len, const char *name, nb_err *err);
void nbb_yaml_free(nbb_yaml *y);
/* The root node, which must be a mapping (what names it in messages). */
nb_status nbb_yaml_root(nbb_yaml *y, const char *what, yaml_node_t **root, nb_err *err);
/* "file:line:column: message" at a node. */
nb_status nbb_yaml_fail(const nbb_yaml *y, const yaml_node_t *node, nb_err *err, nb_status code,
                        const char *fmt, ...) NBI_PRINTF(5, 6);
/* Checks that node is a mapping with scalar keys, none repeated, each one
 * of keys (a NULL-terminated list). */
nb_status nbb_yaml_mapping(const nbb_yaml *y, const yaml_node_t *node, const char *what,
                           const char *const *keys, nb_err *err);
/* The value of key in a mapping, or NULL. */
yaml_node_t *nbb_yaml_get(nbb_yaml *y, const yaml_node_t *map, const char *key);
/* The same, an error naming the mapping's position when absent. */
nb_status nbb_yaml_need(nbb_yaml *y, const yaml_node_t *map, const char *key, const char *what,
                        yaml_node_t **out, nb_err *err);
/* A sequence node: its items and their count. */
nb_status nbb_yaml_sequence(const nbb_yaml *y, const yaml_node_t *node, const char *what,
                            size_t max_items, size_t *count, nb_err *err);
yaml_node_t *nbb_yaml_item(nbb_yaml *y, const yaml_node_t *seq, size_t i);
/* Scalars: the text, a whole number within [min, max], a finite real
 * within [min, max], a boolean (true/false/yes/no). */
nb_status nbb_yaml_string(const nbb_yaml *y, const yaml_node_t *node, const char *what,
                          const char **text, size_t *len, nb_err *err);
nb_status nbb_yaml_uint(const nbb_yaml *y, const yaml_node_t *node, const char *what, uint64_t min,
                        uint64_t max, uint64_t *out, nb_err *err);
nb_status nbb_yaml_real(const nbb_yaml *y, const yaml_node_t *node, const char *what, double min,
                        double max, double *out, nb_err *err);
nb_status nbb_yaml_bool(const nbb_yaml *y, const yaml_node_t *node, const char *what, int *out,
                        nb_err *err);

/* ---- YAML inputs (legend_yaml.c, agents_yaml.c; formats/legend.md, agents.md) ---- */

#define NBB_YAML_FILE_MAX ((size_t)16 << 20)

nb_status nbb_legend_read(const char *path, nbi_legend *legend, nb_err *err);
nb_status nbb_legend_parse(const char *buf, size_t len, const char *name, nbi_legend *legend,
                           nb_err *err);
/* Writes a legend as YAML that nbb_legend_read reads back. */
void nbb_legend_print(const nbi_legend *legend, void *file /* FILE * */);

nb_status nbb_agents_read(const char *path, const nbi_legend *legend, nbi_agentset *set, nb_err *err);
nb_status nbb_agents_parse(const char *buf, size_t len, const char *name, const nbi_legend *legend,
                           nbi_agentset *set, nb_err *err);
/* The default agent set (data/agents.yaml): one agent of size 1 that may
 * enter ground and swamp, as MovingAI's optimal lengths assume. */
nb_status nbb_agents_default(const nbi_legend *legend, nbi_agentset *set, nb_err *err);
extern const char nbb_default_agents_yaml[];
/* A capability: a terrain name or a list of them, checked against legend. */
nb_status nbb_yaml_capability(nbb_yaml *y, yaml_node_t *node, const char *what,
                              const nbi_legend *legend, nb_capability *out, nb_err *err);
void nbb_agents_print(const nbi_agentset *set, const nbi_legend *legend, void *file /* FILE * */);

/* ---- the bundle writer (bundle_write.c) ---- */

typedef struct nbb_builder nbb_builder;

nb_status nbb_builder_new(nbb_builder **out, nb_err *err);
void nbb_builder_free(nbb_builder *b);
/* Takes every section of an existing bundle, as stored (types this
 * library does not know included).  A missing file is not an error when
 * may_be_missing; a damaged one always is, so nothing is silently lost. */
nb_status nbb_builder_load(nbb_builder *b, const char *path, int may_be_missing, nb_err *err);
/* The same from a bundle already open (one read from standard input, say). */
nb_status nbb_builder_take(nbb_builder *b, const nb_bundle *old, nb_err *err);
/* Adds a section, replacing one with the same type, name and parameters.
 * info gives type, version, layout encoding (NB_ENC_RAW or NB_ENC_PACKED),
 * flags, param and name; offsets, sizes and CRC are computed.  With
 * compress, the payload is stored as a zlib stream. */
nb_status nbb_builder_add(nbb_builder *b, const nb_section_info *info, const void *payload,
                          size_t len, int compress, nb_err *err);
/* Removes every section of a type; returns how many. */
size_t nbb_builder_remove(nbb_builder *b, uint32_t type);
/* Removes the sections of a type with this name (a unit's, a model's). */
size_t nbb_builder_remove_named(nbb_builder *b, uint32_t type, const char *name);
/* 1 when a section of this type is present. */
int nbb_builder_has(const nbb_builder *b, uint32_t type);
/* The two forms a bundle is written in (formats/bundle.md, formats/sqlite.md). */
typedef enum nbb_format {
    NBB_FORMAT_AUTO = 0, /* by the output's name: nbb_format_for_path */
    NBB_FORMAT_BINARY,
    NBB_FORMAT_SQLITE
} nbb_format;
/* NBB_FORMAT_SQLITE for a name ending in .sqlite, .sqlite3 or .db (in any
 * case), else NBB_FORMAT_BINARY ("-" included). */
nbb_format nbb_format_for_path(const char *path);
/* Writes the bundle in a form: to a temporary file beside path, then
 * renamed into place, so a failure leaves any previous file intact.  "-"
 * writes to standard output.  Sections are ordered by (type, name,
 * parameters), so the same sections give the same bytes whatever order
 * they came in. */
nb_status nbb_builder_write_format(nbb_builder *b, const char *path, nbb_format format, nb_err *err);
/* The same in the form the name asks for (NBB_FORMAT_AUTO). */
nb_status nbb_builder_write(nbb_builder *b, const char *path, nb_err *err);
/* The binary form in memory (what nbb_builder_write would write). */
nb_status nbb_builder_image(nbb_builder *b, uint8_t **image, size_t *len, nb_err *err);

/* A temporary file beside path, for writing a file atomically: termination
 * signals are held from create to finish, which (when st is NB_OK) syncs
 * it and renames it over path, or else removes it; returns the status.
 * Finishing with path NULL removes it (a scratch file). */
typedef struct nbb_tempfile {
    char *tmp; /* its name */
    int fd;
    sigset_t saved;
} nbb_tempfile;
nb_status nbb_tempfile_create(nbb_tempfile *t, const char *path, nb_err *err);
/* Refuses an output path that exists and is not a regular file (a device,
 * a FIFO, a directory): renaming a new file onto it would replace it. */
nb_status nbb_output_check(const char *path, nb_err *err);
nb_status nbb_tempfile_finish(nbb_tempfile *t, const char *path, nb_status st, nb_err *err);

/* ---- the SQLite form (sqlite_write.c; formats/sqlite.md) ---- */

/* Writes an open bundle as an SQLite database (atomically, as above; "-"
 * for standard output): its sections as stored, and the tables people
 * query, decoded from them. */
nb_status nbb_sqlite_write(const nb_bundle *bundle, const char *path, nb_err *err);

/* Puts the legend, agent set and map sections (a builder's common first
 * step); grid may be NULL for bundles without a map. */
nb_status nbb_put_level(nbb_builder *b, const nbi_legend *legend, const nbi_agentset *agents,
                        const nbb_grid *grid, int compress, nb_err *err);

/* The legend (the default one when legend_path is NULL), the agent set
 * (the default set when agents_path is NULL) and, unless map_path is
 * NULL, the map read with that legend: what a level-baking tool reads. */
nb_status nbb_read_level(const char *legend_path, const char *agents_path, const char *map_path,
                         nbi_legend *legend, nbi_agentset *agents, nbb_grid *grid, nb_err *err);

/* ---- round obstacles (forest_yaml.c, forest_bake.c; formats/forest.md) ---- */

typedef struct nbb_forest {
    nb_circle *circles;
    size_t n;
    int has_bounds;
    double bounds[4]; /* xmin, ymin, xmax, ymax */
} nbb_forest;

/* Reads a forest (YAML); errors name file, line and column. */
nb_status nbb_forest_read(const char *path, nbb_forest *f, nb_err *err);
nb_status nbb_forest_parse(const char *buf, size_t len, const char *name, nbb_forest *f, nb_err *err);
void nbb_forest_free(nbb_forest *f);
/* Writes a forest as YAML that nbb_forest_read reads back exactly. */
void nbb_forest_print(const nbb_forest *f, void *file /* FILE * */);

/* Called now and then during a long bake with the fraction done. */
typedef void (*nbb_progress_fn)(void *arg, double fraction);

/* The forest section's payload (malloc'ed). */
nb_status nbb_forest_encode(const nbb_forest *f, uint8_t **payload, size_t *len, nb_err *err);
/* Bakes the bitangent graph of the forest inflated by agent_radius into a
 * bitangent section's payload (malloc'ed); forest_crc is the CRC-32 of
 * the forest section's payload.  info (may be NULL) gets the counts.
 * flags: NBB_BAKE_PLAIN_LOS tests every bitangent against every circle,
 * as the article does, instead of through the grid (the same bytes,
 * slower: for the benchmark and the tests). */
#define NBB_BAKE_PLAIN_LOS 0x1u
nb_status nbb_bitangent_bake(const nbb_forest *f, double agent_radius, uint32_t forest_crc,
                             unsigned flags, uint8_t **payload, size_t *len,
                             nb_forest_graph_info *info, nbb_progress_fn progress, void *arg,
                             nb_err *err);
/* Replaces any forest and bitangent sections of b by this forest and a
 * graph for each radius (radius index i for radii[i]); info[i] (may be
 * NULL) gets each graph's counts. */
nb_status nbb_put_forest(nbb_builder *b, const nbb_forest *f, const double *radii, unsigned nradii,
                         int compress, nb_forest_graph_info *info, nbb_progress_fn progress,
                         void *arg, nb_err *err);

/* ---- motion models and perimeter tables (model_yaml.c, perimeter_build.c;
 * formats/motion.md) ---- */

nb_status nbb_model_read(const char *path, nb_model *m, nb_err *err);
nb_status nbb_model_parse(const char *buf, size_t len, const char *name, nb_model *m, nb_err *err);
/* The same, allocated: free it with nb_model_close. */
nb_status nbb_model_load(const char *path, nb_model **out, nb_err *err);
/* Puts the model's section, replacing any model section of that name. */
nb_status nbb_put_model(nbb_builder *b, const nb_model *m, nb_err *err);

typedef struct nbb_perimeter_opts {
    unsigned radius;     /* cells (Chebyshev) around the goal */
    int layout;          /* NB_PERIM_* */
    unsigned entry_bits; /* 16 (fixed point) or 32 (IEEE float) */
    int paper;           /* 1: only the paper's symmetries */
    int compress;        /* store the section as zlib */
    void (*progress)(void *ctx, unsigned done, unsigned total);
    void *ctx;
} nbb_perimeter_opts;

typedef struct nbb_perimeter_info {
    unsigned tables;      /* the any-heading tables included */
    unsigned any_tables;  /* 2 when the last two serve goals at any heading */
    uint64_t entries;
    uint64_t table_bytes; /* entries x entry bytes */
    uint64_t payload;     /* the whole section, header included */
    uint64_t stored;      /* bytes in the file (zlib when compressed) */
    unsigned margin;      /* how far past the window the backward searches went */
    double max_value;
} nbb_perimeter_info;

/* Builds the perimeter table of a model and puts it (replacing any
 * perimeter section of the model's name). */
nb_status nbb_put_perimeter(nbb_builder *b, const nb_model *m, const nbb_perimeter_opts *o,
                            nbb_perimeter_info *info, nb_err *err);
/* The encoded payload alone (for tests and benchmarks); free() it. */
nb_status nbb_perimeter_encode(const nb_model *m, const nbb_perimeter_opts *o, uint8_t **out,
                               size_t *len, nbb_perimeter_info *info, nb_err *err);

#endif /* NB_BUILD_H */
