/* bake.h: the bake side of navbake, as the tools see it: reading levels and
 * definitions, baking sections, writing bundles (binary or SQLite), and
 * checked views of sections for the tools that print or draw them.  It
 * depends on navbake.h only; what the bake side shares inside itself is in
 * bake_int.h.  Not installed.  Functions are named nbb_. */
#ifndef NB_BAKE_H
#define NB_BAKE_H

#include <stdint.h>
#include <stdio.h>

#include "navbake.h"
#include "port.h"

/* ---- messages (errors.c) ----
 * The tools' own helpers fill an nb_err as the library does: the status,
 * and a message naming where and what. */
nb_status nbb_fail(nb_err *err, nb_status code, const char *fmt, ...) NBP_PRINTF(3, 4);
/* The message of errno for a failed system call on path. */
nb_status nbb_fail_errno(nb_err *err, const char *what, const char *path);
/* Marks err as success. */
void nbb_ok(nb_err *err);

/* The most threads a bake runs (mkclear and mkabstract -j). */
#define NBB_MAX_THREADS 256
/* The number of threads a bake runs when told 0: the online CPUs
 * (parallel/parallel.c). */
unsigned nbb_threads_online(void);

/* Called now and then during a long bake with the fraction done, 0 to 1
 * (the tools' progress line: tools/common/progress.h). */
typedef void (*nbb_progress_fn)(void *arg, double fraction);
/* A part of a longer task: a fraction f of the part is base + span * f of
 * the whole, told to fn (nothing when fn or the part is NULL). */
typedef struct nbb_progress_part {
    nbb_progress_fn fn;
    void *arg;
    double base, span;
    /* Or NULL: nonzero there asks the work to stop (the bake library's
     * cancel), read on the reporting thread after each report. */
    const int *stop;
} nbb_progress_part;
void nbb_progress_part_report(const nbb_progress_part *part, double f);
/* The same as an nbb_progress_fn, part being an nbb_progress_part *. */
void nbb_progress_part_fn(void *part, double f);
/* 1 when the part, or any part it reports to through nbb_progress_part_fn,
 * asks the work to stop: a long step checks it after each report and
 * returns nbb_progress_cancelled's status. */
int nbb_progress_stopped(const nbb_progress_part *part);
int nbb_progress_fn_stopped(nbb_progress_fn fn, const void *arg);
nb_status nbb_progress_cancelled(nb_err *err);

/* ---- files (input/readfile.c) ---- */

/* Reads a whole file ("-" for standard input) into a NUL-terminated
 * buffer of at most limit bytes (free() it). */
nb_status nbb_read_file(const char *path, size_t limit, char **buf, size_t *len, nb_err *err);
/* The same, a regular file read in chunks on up to threads threads (0: the
 * online CPUs). */
nb_status nbb_read_file_threads(const char *path, size_t limit, unsigned threads, char **buf,
                                size_t *len, nb_err *err);
/* The name errors give an input: the path, or "(standard input)" for "-". */
const char *nbb_input_name(const char *path);

/* ---- bundles being written (bundle/bundle_write.c) ---- */

typedef struct nbb_builder nbb_builder;

nb_status nbb_builder_new(nbb_builder **out, nb_err *err);
void nbb_builder_free(nbb_builder *b);
/* The threads the CRC-32 of a section added from now on is computed on (1
 * when made; 0: the online CPUs); the bytes are the same for any count. */
void nbb_builder_threads(nbb_builder *b, unsigned threads);
/* Takes every section of an existing bundle, as stored (types this
 * library does not know included).  A missing file is not an error when
 * may_be_missing; a damaged one always is, so nothing is silently lost. */
nb_status nbb_builder_load(nbb_builder *b, const char *path, int may_be_missing, nb_err *err);
/* The same from a bundle already open (one read from standard input, say). */
nb_status nbb_builder_take(nbb_builder *b, const nb_bundle *old, nb_err *err);
/* Takes section index of an open bundle as it is stored, without a copy:
 * the bundle must stay open until the builder is written or freed. */
nb_status nbb_builder_borrow(nbb_builder *b, const nb_bundle *from, size_t index, nb_err *err);
/* The bundle at path, to be updated, when there is one (*old NULL when
 * not, or for "-"): opened and checked (a damaged one is refused, so
 * nothing is silently lost), its sections borrowed; close it after the
 * builder is written or freed. */
nb_status nbb_builder_open_update(nbb_builder *b, const char *path, nb_bundle **old, nb_err *err);
/* Adds a section, replacing one with the same type, name and parameters.
 * info gives type, version, layout encoding (NB_ENC_RAW or NB_ENC_PACKED),
 * flags, param and name; offsets, sizes and CRC are computed.  With
 * compress, the payload is stored as a zlib stream. */
nb_status nbb_builder_add(nbb_builder *b, const nb_section_info *info, const void *payload,
                          size_t len, int compress, nb_err *err);
/* The same taking payload (malloc'ed) over: it is stored as it is unless
 * compress, and freed in every case. */
nb_status nbb_builder_add_owned(nbb_builder *b, const nb_section_info *info, uint8_t *payload,
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
/* The same, telling progress the fraction done (the SQLite form's tables
 * take long; the binary form is written at once). */
nb_status nbb_builder_write_progress(nbb_builder *b, const char *path, nbb_format format,
                                     nbb_progress_fn progress, void *arg, nb_err *err);
/* The same in the form the name asks for (NBB_FORMAT_AUTO). */
nb_status nbb_builder_write(nbb_builder *b, const char *path, nb_err *err);
/* The binary form in memory (what nbb_builder_write would write; free() it). */
nb_status nbb_builder_image(nbb_builder *b, uint8_t **image, size_t *len, nb_err *err);
/* Writes an open bundle as an SQLite database (atomically; "-" for
 * standard output): its sections as stored, and the tables people query,
 * decoded from them. */
nb_status nbb_sqlite_write(const nb_bundle *bundle, const char *path, nb_err *err);
/* The same, telling progress the fraction done. */
nb_status nbb_sqlite_write_progress(const nb_bundle *bundle, const char *path,
                                    nbb_progress_fn progress, void *arg, nb_err *err);

/* ---- levels: a map, its terrain legend and agent set (input/level.c) ---- */

typedef struct nbb_level nbb_level;

/* Reads the legend (the default one when legend_path is NULL), the agent
 * set (the default set when agents_path is NULL) and the map read with
 * that legend: what a level-baking tool reads.  The map is a MovingAI map,
 * or by its extension a Tiled map (.tmx, .tmj), an LDtk project (.ldtk,
 * or FILE.ldtk#LEVEL for one level), an image or heightmap (.png, .pgm)
 * (formats/tiled.md, formats/ldtk.md, formats/image.md). */
nb_status nbb_level_read(const char *legend_path, const char *agents_path, const char *map_path,
                         unsigned threads, nbb_level **out, nb_err *err);
/* The legend and the map alone, with no agent set (navbake convert). */
nb_status nbb_level_read_map(const char *legend_path, const char *map_path, nbb_level **out,
                             nb_err *err);
void nbb_level_free(nbb_level *level);
/* How the level a bundle holds differs from this one. */
typedef enum nbb_level_change {
    NBB_LEVEL_SAME,  /* the same map, legend and agent set */
    NBB_LEVEL_CELLS, /* the same size, legend and agent set; some cells differ */
    NBB_LEVEL_OTHER  /* no map, or another size, legend or agent set */
} nbb_level_change;
/* The difference, and what the bundle holds, as a phrase ("a different
 * map of the same size"), written into buf. */
nbb_level_change nbb_level_compare(const nbb_level *level, const nb_bundle *old, char *buf,
                                   size_t len);
/* The cells of its map (width x height): what progress is counted in. */
uint64_t nbb_level_cells(const nbb_level *level);
/* NULL when the bundle holds exactly this level (map, legend and agent
 * set); otherwise the phrase of nbb_level_compare, in buf. */
const char *nbb_level_differs(const nbb_level *level, const nb_bundle *old, char *buf, size_t len);
/* 1 when path names a level by its extension (.map, .tmx, .tmj, .ldtk,
 * FILE.ldtk#LEVEL, .png, .pgm), 0 for anything else (input/level_file.c). */
int nbb_level_path(const char *path);
/* The level's map as a MovingAI map (formats/map.md) in the legend's
 * characters: *text malloc'ed, *len bytes. */
nb_status nbb_level_map_text(const nbb_level *level, char **text, size_t *len, nb_err *err);
/* Puts the level's legend, agent set and map sections. */
nb_status nbb_level_put(nbb_builder *b, const nbb_level *level, int compress, nb_err *err);

/* What mkclear bakes (clearance/clearance_build.c): a clearance layer for
 * every capability of the agent set, capped at its largest size, and a
 * component layer for every (capability, size) of C x S; compress stores
 * them as zlib streams. */
typedef struct nbb_clearance_stats {
    size_t clearance_layers, component_layers;
    uint64_t packed_bytes; /* payload bytes before any zlib */
} nbb_clearance_stats;
nb_status nbb_level_bake_clearance(nbb_builder *b, const nbb_level *level, int compress,
                                   nbb_progress_fn progress, void *arg, nbb_clearance_stats *stats,
                                   nb_err *err);

/* What mkclear --optimal bakes (subgoal/): an optimal-search layer (a
 * subgoal graph with its contraction hierarchy; formats/subgoal.md) for
 * every (capability, size) of the agent set and each corner rule in
 * corners (bit NB_CORNER_STRICT, bit NB_CORNER_WEAK: NBB_CORNERS_*). */
#define NBB_CORNERS_STRICT (1u << NB_CORNER_STRICT)
#define NBB_CORNERS_WEAK (1u << NB_CORNER_WEAK)
typedef struct nbb_optimal_stats {
    size_t layers;
    uint64_t nodes, edges; /* summed over the layers */
    uint64_t bytes;        /* payloads, before any zlib */
    double seconds;        /* baking them */
} nbb_optimal_stats;
nb_status nbb_level_bake_subgoal(nbb_builder *b, const nbb_level *level, unsigned corners,
                                 int compress, nbb_optimal_stats *stats,
                                 const nbb_progress_part *progress, nb_err *err);

/* The legend and the agent set of a bundle as the YAML that reads them
 * back (formats/legend.md, formats/agents.md); NB_ERR_NOTFOUND when it has
 * none. */
nb_status nbb_print_legend(const nb_bundle *b, FILE *file, nb_err *err);
nb_status nbb_print_agents(const nb_bundle *b, FILE *file, nb_err *err);
/* The default agent (data/agents.yaml: size 1, ground and swamp, what
 * MovingAI's optimal lengths assume) in the terms of the bundle's legend. */
nb_status nbb_default_agent(const nb_bundle *b, nb_agent *out, nb_err *err);

/* ---- MovingAI scenarios (input/scen.c) ---- */

typedef struct nbb_scen_line {
    unsigned line; /* in the file, from 1 */
    uint32_t bucket;
    uint32_t width, height; /* of the map the line was made for */
    nb_cell start, goal;
    double optimal;    /* the optimal length the file gives */
    unsigned decimals; /* how many decimals it was written with */
} nbb_scen_line;

typedef struct nbb_scen {
    nbb_scen_line *lines;
    size_t count;
} nbb_scen;

/* A scenario file's limits (navbake-scen(1)): its size, and the queries
 * it holds (MovingAI's largest files hold some 10,000). */
#define NBB_SCEN_FILE_MAX ((size_t)256 << 20)
#define NBB_SCEN_MAX_LINES ((size_t)1 << 20)

/* Reads a scenario file (https://movingai.com/benchmarks/formats.html): a
 * 'version N' line, then lines of nine columns separated by tabs or
 * spaces (bucket, map, width, height, start x, start y, goal x, goal y,
 * optimal length); the map column may carry a path.  Blank lines are
 * skipped.  An error names file, line and what was expected.  "-" reads
 * standard input.  At most NBB_SCEN_FILE_MAX bytes and NBB_SCEN_MAX_LINES
 * queries. */
nb_status nbb_scen_read(const char *path, nbb_scen *scen, nb_err *err);
nb_status nbb_scen_parse(const char *buf, size_t len, const char *name, nbb_scen *scen,
                         nb_err *err);
void nbb_scen_free(nbb_scen *scen);

/* ---- the HAA* abstract graph (abstract/) ---- */

/* Qualities and transition placements, by name: "high", "low", "initial";
 * "first", "middle", "spread", "ends" (formats/abstract.md).  A parse
 * returns 0 for an unknown name; a name is NULL for an unknown code. */
int nbb_abstract_quality(const char *name, uint32_t *out);
int nbb_abstract_placement(const char *name, uint32_t *out);
const char *nbb_abstract_quality_name(uint32_t quality);
const char *nbb_abstract_placement_name(uint32_t placement);
#define NBB_PLACE_AUTO 255 /* the placement of a quality: ends for high, first for low */
#define NBB_SPREAD_DEFAULT 8

typedef struct nbb_abstract_opts {
    uint32_t cluster;   /* side of a cluster, 1 to NB_ABSTRACT_MAX_CLUSTER */
    uint32_t quality;   /* a quality (nbb_abstract_quality) */
    uint32_t placement; /* a placement (nbb_abstract_placement), or NBB_PLACE_AUTO */
    uint32_t spread;    /* cells per transition with the "spread" placement */
    nb_corner corner;   /* the rule the intra-edge weights follow */
    int paths;          /* store each intra-edge's cell path */
    int through;        /* also drop intra-edges two others replace through a node,
                           at the same cost (Theorem 6 through a node) */
    uint32_t clearance_cap; /* entrances and inter-edges see clearances capped here;
                           0 (the default): at the largest served size.  A larger cap
                           (the paper's high quality has none) needs clearance layers
                           that hold it; an experiment (tests/bench/bench_haa --cap) */
    unsigned threads;   /* threads to build on; 0: the online CPUs (the bytes do not
                           depend on it) */
    nbb_progress_fn progress; /* told the fraction done now and then, or NULL */
    void *progress_arg;
} nbb_abstract_opts;

/* The defaults mkabstract uses. */
void nbb_abstract_defaults(nbb_abstract_opts *o);
/* Replaces NBB_PLACE_AUTO by the placement it stands for at o's quality. */
void nbb_abstract_resolve(nbb_abstract_opts *o);

typedef struct nbb_abstract_stats {
    uint64_t entrances, searches;
    uint64_t nodes, edges, inter, intra;   /* in the graph written */
    uint64_t initial_nodes, initial_edges; /* before any dominance */
    uint64_t strong, weak, circuit;        /* edges dropped by each rule */
    uint64_t through;                      /* intra-edges replaced through a node */
    uint64_t freed_nodes;                  /* nodes dropped by Corollary 8 */
    uint64_t path_bytes;                   /* what the stored paths add to the payload */
    uint64_t bytes;                        /* the payload */
    /* What was computed: clusters (of how many) and borders; the counts
     * above before "nodes" are of these only.  An incremental build says
     * how many cells' clearance changed; kept: none did, and the old graph
     * stays as it is (no payload is made). */
    uint64_t rebuilt_clusters, clusters, rebuilt_borders;
    int incremental, kept;
    uint64_t changed_cells;
} nbb_abstract_stats;

/* Builds the abstract graph of the bundle's map for every (capability,
 * size) of its agent set, from its clearance layers, as a section payload
 * (malloc'ed, *len bytes).  stats may be NULL. */
nb_status nbb_abstract_build(const nb_bundle *b, const nbb_abstract_opts *o, uint8_t **payload,
                             size_t *len, nbb_abstract_stats *stats, nb_err *err);
/* The same, kept up to date: when old (b itself, or the bundle being
 * replaced; may be NULL) holds a graph built with the same options for
 * the same capabilities and sizes, with the clearance layers it was built
 * from, only the clusters and borders that the cells whose clearance
 * differs from b's can reach are built again, the rest copied; the bytes
 * are those of nbb_abstract_build.  When no cell differs, stats->kept is
 * set and no payload is made: old's section stays as it is.  full builds
 * the whole graph. */
nb_status nbb_abstract_update(const nb_bundle *b, const nb_bundle *old,
                              const nbb_abstract_opts *o, int full, uint8_t **payload,
                              size_t *len, nbb_abstract_stats *stats, nb_err *err);
/* The section table entry for such a payload (type, version, parameters). */
void nbb_abstract_info(const uint8_t *payload, nb_section_info *info);
/* Checks the clearance layer of each capability of b's agent set against
 * b's map, computing every band of rows again on threads (0: the online
 * CPUs): NB_ERR_FORMAT naming the first layer that is not its map's, its
 * first wrong cell and how many differ, then the text then.  A graph is
 * built from these layers, and an old graph brought up to date by them
 * (mkabstract checks them first). */
nb_status nbb_clearance_check(const nb_bundle *b, unsigned threads, const char *then,
                              nb_err *err);
/* Replaces the builder's abstract graph costs (formats/abstract.md,
 * section type 33) by those of every cost profile of b's agent set (its
 * agents with terrain costs: one section per distinct capability, size
 * and multipliers, sorted), for the graph whose payload is graph (glen
 * bytes) built on b's map and clearance layers; *count (NULL: not asked)
 * gets how many.  An agent set without costs gets none. */
nb_status nbb_put_abstract_costs(nbb_builder *w, const nb_bundle *b, const void *graph,
                                 size_t glen, int compress, size_t *count, nb_err *err);

/* ---- mkabstract --levels: the graph's higher levels (section type 34) ---- */

typedef struct nbb_levels_opts {
    uint32_t levels;  /* the graph's own included: 1 (none), 2 to 8 */
    uint32_t factor;  /* a level's cluster is factor x factor clusters of the one below */
    uint32_t spacing; /* a border is cut into shares of its side / spacing cells (1 to 64) */
    unsigned threads; /* 0: the online CPUs (the bytes do not depend on it) */
    uint32_t share;   /* ... of at most share cells (0: no cap; at most 65535); a group of
                         crossings keeps one per share */
    uint32_t landmarks; /* landmarks of the top level for the search there (0 to 16; 0: none) */
} nbb_levels_opts;
#define NBB_LEVEL_FACTOR 4
#define NBB_LEVELS_MAX 8        /* = NBI_LEVELS_MAX */
#define NBB_LEVEL_FACTOR_MAX 64 /* = NBI_LEVEL_FACTOR_MAX */
#define NBB_LEVEL_SPACING 2
#define NBB_LEVEL_SHARE 32
#define NBB_LEVEL_LANDMARKS 8
#define NBB_LANDMARKS_MAX 16 /* = NBI_LANDMARKS_MAX */
/* The levels mkabstract bakes by default for a map of width x height in
 * clusters of cluster cells: 1 up to 1024 cells a side, then one more for
 * each factor by which the top level's clusters would still be more than
 * 32 a side. */
uint32_t nbb_levels_default(uint32_t width, uint32_t height, uint32_t cluster, uint32_t factor);
/* The levels section for the graph payload graph (glen bytes) of a
 * width x height map (malloc'ed into *payload, *len bytes). */
nb_status nbb_levels_bake(const uint8_t *graph, size_t glen, uint32_t width, uint32_t height,
                          const nbb_levels_opts *o, uint8_t **payload, size_t *len, nb_err *err);
/* 1 when the levels payload (len bytes) was baked with o's levels, factor, spacing, share and
 * landmarks. */
int nbb_levels_baked_with(const void *payload, size_t len, const nbb_levels_opts *o);
/* Its section table entry. */
void nbb_levels_info(const uint8_t *payload, size_t len, nb_section_info *info);
/* Replaces w's levels section by one for the graph (none with o->levels 1). */
nb_status nbb_levels_put(nbb_builder *w, const uint8_t *graph, size_t glen, uint32_t width,
                         uint32_t height, const nbb_levels_opts *o, int compress, nb_err *err);

/* ---- mkclear: a level and what is built on it, kept up to date ---- */

/* What mkclear makes of a bundle (rebake/level_rebake.c). */
typedef struct nbb_rebake_opts {
    int compress;     /* store new layers (and a new map) as zlib streams */
    unsigned threads; /* 0: the online CPUs (the bytes do not depend on it) */
    int full;         /* bake every band and cluster, as for another level */
    nbb_progress_fn progress; /* told the fraction done now and then, or NULL */
    void *progress_arg;
} nbb_rebake_opts;

/* What became of the bundle's abstract graph. */
enum {
    NBB_REBAKE_NONE = 0, /* there was none */
    NBB_REBAKE_KEPT,     /* no cell it depends on changed */
    NBB_REBAKE_UPDATED,  /* the clusters the changes reach were built again */
    NBB_REBAKE_REBUILT,  /* built whole, with the options it was built with */
    NBB_REBAKE_REMOVED   /* it described another level, or could not be read */
};

typedef struct nbb_rebake_stats {
    nbb_level_change change;     /* from the old bundle's level (OTHER: none) */
    char why[160];               /* what the old bundle held (nbb_level_compare) */
    uint64_t changed_cells;      /* map cells that differ from the old level's */
    uint32_t bands, bands_rebuilt;   /* bands of rows, over the clearance layers */
    uint32_t layers, layers_rebuilt; /* clearance and component layers not kept as stored */
    uint64_t clearance_changed;  /* cells whose clearance changed, over capabilities */
    uint64_t components_searched;    /* cells the components' repairs reached */
    uint32_t components_renumbered;  /* component layers numbered again */
    int abstract;                /* NBB_REBAKE_* */
    nbb_abstract_stats abstract_stats;
    size_t removed;              /* sections removed with the old level, or with
                                    changed cells (subgoal layers) */
    char removed_what[256];      /* those another step made ("1 abstract") */
} nbb_rebake_stats;

/* mkclear's work on a builder holding the sections of old (borrowed or
 * copied; old NULL, and the builder empty, for a new bundle): puts the
 * level and its layers.  When old held this level, or the same size,
 * legend and agent set with some cells changed, what the changes reach is
 * computed again (the bands of rows, the components, the clusters of an
 * abstract graph, with the options it was built with) and the rest kept
 * as stored; otherwise the sections built on the old level are removed
 * and the layers baked whole.  The bytes are those of a whole bake. */
nb_status nbb_level_rebake(nbb_builder *b, const nbb_level *level, const nb_bundle *old,
                           const nbb_rebake_opts *o, nbb_rebake_stats *stats, nb_err *err);

/* ---- motion models and perimeter tables (motion/; formats/motion.md) ---- */

/* Reads a model; free it with nb_model_close. */
nb_status nbb_model_load(const char *path, nb_model **out, nb_err *err);
/* Puts the model's section, replacing any model section of that name. */
nb_status nbb_put_model(nbb_builder *b, const nb_model *m, nb_err *err);

typedef struct nbb_perimeter_opts {
    unsigned radius;     /* cells (Chebyshev) around the goal, 1 to NB_PERIMETER_MAX_RADIUS */
    nb_perimeter_layout layout;
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

/* ---- units with a turning radius (turning/; formats/hitcheck.md) ---- */

/* Reads a unit definition; the terrain names of its capability are those
 * of the bundle's legend (the default legend when the bundle is NULL or
 * has none).  Errors name file, line and column. */
nb_status nbb_unit_read(const char *path, const nb_bundle *legend_from, nb_unit *u, nb_err *err);
/* Writes a unit as YAML that nbb_unit_read reads back. */
void nbb_unit_print(const nb_unit *u, const nb_bundle *legend_from, FILE *file);
/* Adds (or replaces) the unit's three sections in a bundle being built;
 * stats (may be NULL) tells what they hold. */
typedef struct nbb_unit_stats {
    unsigned curves, window;
    size_t hitcheck_bytes, curves_bytes;
} nbb_unit_stats;
#define NBB_UNIT_ZLIB 0x1u       /* store the tables zlib-compressed */
#define NBB_UNIT_ALL_CURVES 0x2u /* every candidate curve of an entry, not only the shortest */
nb_status nbb_put_unit(nbb_builder *b, const nb_unit *u, unsigned flags, nbb_unit_stats *stats,
                       nb_err *err);
/* The same, telling progress the fraction done. */
nb_status nbb_put_unit_progress(nbb_builder *b, const nb_unit *u, unsigned flags,
                                nbb_progress_fn progress, void *arg, nbb_unit_stats *stats,
                                nb_err *err);
/* The angle of heading k of n, in radians (0 east, growing clockwise as a
 * map is drawn). */
double nbb_heading_angle(unsigned k, unsigned n);

/* ---- round obstacles (forest/; formats/forest.md) ---- */

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
void nbb_forest_print(const nbb_forest *f, FILE *file);
/* Replaces any forest and bitangent sections of b by this forest and a
 * graph for each radius (radius index i for radii[i]); info[i] (may be
 * NULL) gets each graph's counts. */
nb_status nbb_put_forest(nbb_builder *b, const nbb_forest *f, const double *radii, unsigned nradii,
                         int compress, nb_forest_graph_info *info, nbb_progress_fn progress,
                         void *arg, nb_err *err);

/* ---- deep verification (verify/; navbake verify --deep) ----
 * What a CRC cannot see: a section baked wrong, or changed and given a
 * right CRC.  Every section computed from others is computed again from
 * the bundle's own inputs and the parameters it records, and compared
 * value by value (never as stored bytes, which zlib or a wider bit width
 * may change): clearance and component layers from the map, legend and
 * agent set; the abstract graph (nodes, arcs, weights, stored paths) from
 * the clearance layers (checked before it) with the options its header
 * records; hit-check and curve tables from their unit; bitangent graphs
 * from the forest; perimeter tables from their model, every entry of a
 * sample of tables chosen by a seed.  The inputs themselves (legend,
 * agent set, map, models, units, forest) are what nb_bundle_verify checks,
 * with the structure of every section: run it first (NB_OPEN_VERIFY). */

#define NBB_DEEP_SEED 1              /* the seed navbake verify --deep uses by default */
#define NBB_DEEP_PERIMETER_TABLES 2  /* tables sampled per perimeter section by default */

typedef struct nbb_deep_opts {
    uint64_t seed;             /* chooses the perimeter tables checked */
    unsigned perimeter_tables; /* tables checked per perimeter section; 0: every one */
    /* Called after each section (may be NULL) with the seconds it took,
     * elapsed and of the process's CPU time: recomputed is 0 for an input
     * or a type this library does not know. */
    void (*section_done)(void *ctx, size_t index, int recomputed, double seconds, double cpu);
    void *ctx;
    /* Told now and then the fraction done of the section being recomputed,
     * where that takes long (the abstract graph), with ctx; or NULL. */
    nbb_progress_fn progress;
} nbb_deep_opts;

typedef struct nbb_deep_stats {
    size_t recomputed;          /* sections computed again and compared */
    uint64_t perimeter_entries; /* perimeter entries computed again and compared */
    uint64_t perimeter_tables, perimeter_tables_total; /* tables checked, of how many */
} nbb_deep_stats;

/* The defaults: seed NBB_DEEP_SEED, NBB_DEEP_PERIMETER_TABLES tables. */
void nbb_deep_defaults(nbb_deep_opts *o);
/* NB_OK when every section agrees with what its inputs give.  The first
 * disagreement is NB_ERR_FORMAT, its message naming the section (index,
 * type, parameters) and where in it: a cell (x, y) of a layer; a node or
 * an arc (ids, cells, annotation) and a step of its stored path; a
 * hit-check entry (headings, neighbour), curve and cell; a perimeter
 * table, entry and state; a bitangent node or free arc.  A section that
 * cannot be recomputed (a perimeter table without its model) is an error
 * too.  o and stats may be NULL. */
nb_status nbb_verify_deep(const nb_bundle *b, const nbb_deep_opts *o, nbb_deep_stats *stats,
                          nb_err *err);

/* ---- checked views of sections (view/) ----
 * For the tools that print or draw what a bundle holds.  Each view is made
 * by the runtime's own check of its section, so a tool reads only what a
 * query would accept. */

/* A clearance or component layer (formats/clearance.md). */
typedef struct nbb_layer nbb_layer;
typedef struct nbb_layer_info {
    uint32_t width, height;
    uint32_t bits;   /* per cell */
    uint32_t maxval; /* clearance: the cap; components: the component count */
    size_t section;
} nbb_layer_info;
/* The layer in section index, the clearance layer of cap, or the component
 * layer of (cap, size). */
nb_status nbb_layer_open(const nb_bundle *b, size_t index, nbb_layer **out, nb_err *err);
nb_status nbb_layer_open_clearance(const nb_bundle *b, nb_capability cap, nbb_layer **out,
                                   nb_err *err);
nb_status nbb_layer_open_components(const nb_bundle *b, nb_capability cap, unsigned size,
                                    nbb_layer **out, nb_err *err);
void nbb_layer_close(nbb_layer *l);
void nbb_layer_describe(const nbb_layer *l, nbb_layer_info *info);
/* The value of a cell (x < width, y < height); at most maxval. */
uint32_t nbb_layer_value(const nbb_layer *l, uint32_t x, uint32_t y);
/* nbb_layer_value of every cell of row y (y < height) into out[width]. */
void nbb_layer_row(const nbb_layer *l, uint32_t y, uint32_t *out);

/* The HAA* abstract graph (formats/abstract.md). */
typedef struct nbb_agraph nbb_agraph;
typedef struct nbb_agraph_info {
    uint32_t width, height, cluster, ncx, ncy;
    uint32_t nodes, edges, inter_edges;
    uint32_t arcs;         /* 2 x edges: each edge from both ends */
    const char *quality;   /* nbb_abstract_quality_name */
    const char *placement;
    nb_corner corner;
    int paths;             /* 1 when intra-edges' cell paths are stored */
} nbb_agraph_info;
typedef struct nbb_agraph_arc_info {
    uint32_t to;               /* the node it leads to */
    uint32_t cardinal, diagonal; /* steps: its weight is cardinal + sqrt(2) x diagonal */
    nb_capability capability;  /* the terrains it needs */
    uint32_t clearance;        /* the largest agent size it admits */
    int inter;                 /* 1 across a cluster border */
    int stored;                /* 1 when its cell path is stored */
} nbb_agraph_arc_info;
nb_status nbb_agraph_open(const nb_bundle *b, nbb_agraph **out, nb_err *err);
void nbb_agraph_close(nbb_agraph *g);
void nbb_agraph_describe(const nbb_agraph *g, nbb_agraph_info *info);
/* A node's cell (u < nodes) and the arcs that leave it: [*first, *end);
 * arc a of those. */
nb_cell nbb_agraph_node(const nbb_agraph *g, uint32_t u);
void nbb_agraph_arcs(const nbb_agraph *g, uint32_t u, uint32_t *first, uint32_t *end);
void nbb_agraph_arc(const nbb_agraph *g, uint32_t u, uint32_t a, nbb_agraph_arc_info *out);
/* 1 when an agent of this capability and size may use arc a. */
int nbb_agraph_admits(const nbb_agraph *g, uint32_t a, nb_capability cap, unsigned size);
/* The cells of arc a's stored path from its node u to its other end, into
 * out (room for cardinal + diagonal + 1 cells); returns how many (0 when
 * no path is stored). */
size_t nbb_agraph_arc_cells(const nbb_agraph *g, uint32_t a, uint32_t u, nb_cell *out);

/* A unit's hit-check table (formats/hitcheck.md), every entry (h0, h1, o)
 * whether stored or turned from a stored one. */
typedef struct nbb_hitcheck nbb_hitcheck;
typedef struct nbb_hitcheck_info {
    unsigned headings, neighbourhood, window;
    int all;                 /* 1: every candidate of an entry; 0: its shortest */
    uint32_t entries;        /* stored entries (the first quarter of the start headings) */
    uint32_t curves;         /* stored curves */
    double radius, width;
} nbb_hitcheck_info;
typedef struct nbb_hitcheck_curve {
    double length;
    const char *word; /* "LSL" ... */
    unsigned variant;
    unsigned cells;   /* cells its sweep touches */
} nbb_hitcheck_curve;
/* The table of the unit called name; u (may be NULL) gets the unit. */
nb_status nbb_hitcheck_open(const nb_bundle *b, const char *name, nb_unit *u, nbb_hitcheck **out,
                            nb_err *err);
void nbb_hitcheck_close(nbb_hitcheck *h);
void nbb_hitcheck_describe(const nbb_hitcheck *h, nbb_hitcheck_info *info);
/* Offset o of the neighbourhood (o < neighbourhood). */
void nbb_hitcheck_offset(const nbb_hitcheck *h, unsigned o, int *dx, int *dy);
/* How many curves entry (h0, h1, o) holds: from heading h0 to the
 * neighbour o at heading h1, shortest first. */
unsigned nbb_hitcheck_entry(const nbb_hitcheck *h, unsigned h0, unsigned h1, unsigned o);
/* Its k-th curve. */
void nbb_hitcheck_curve_get(const nbb_hitcheck *h, unsigned h0, unsigned h1, unsigned o,
                            unsigned k, nbb_hitcheck_curve *out);
/* 1 when that curve's sweep touches cell (x, y) of the table's window
 * (window x window cells, the start cell at (window / 2, window / 2)). */
int nbb_hitcheck_touches(const nbb_hitcheck *h, unsigned h0, unsigned h1, unsigned o, unsigned k,
                         unsigned x, unsigned y);

/* A forest's baked bitangent graph for radius index ri (formats/forest.md). */
/* Its nodes: tangent points, and the node at the other end of each one's
 * bitangent. */
uint32_t nbb_forest_nodes(const nb_forest *f, unsigned ri);
void nbb_forest_node(const nb_forest *f, unsigned ri, uint32_t i, nb_vec2 *at, uint32_t *partner);
/* The free arcs of a circle (the parts no other circle covers): start
 * angle and counter-clockwise span (2 pi for a whole free circle). */
size_t nbb_forest_free_arcs(const nb_forest *f, unsigned ri, size_t circle);
void nbb_forest_free_arc(const nb_forest *f, unsigned ri, size_t circle, size_t k, double *start,
                         double *span);

/* ---- worlds of tiles (world/, formats/world.md) ---- */

/* The manifest's limits. */
#define NBB_WORLD_MAX_SIDE ((uint32_t)1 << 20)  /* cells a side */
#define NBB_WORLD_MAX_TILES ((uint32_t)1 << 20) /* tiles in all */
#define NBB_WORLD_MIN_TILE 16
#define NBB_WORLD_DEFAULT_CLUSTER 16
#define NBB_WORLD_MANIFEST "world.yaml"         /* what world cut writes */
#define NBB_WORLD_TILE_MAPS "tiles/{x}_{y}.map" /* and where its tile maps go */

/* A world's manifest as read (nbb_world_read) or to be written. */
typedef struct nbb_world {
    uint32_t width, height; /* cells, the whole world */
    uint32_t tile;          /* side of a tile in cells; the last column and row may be narrower */
    uint32_t cluster;       /* side of an HAA* cluster: the tile is a multiple of it */
    uint32_t columns, rows; /* tiles a row, rows of tiles */
    char *dir;              /* the manifest's folder ("" for the current one): paths are from it */
    char *maps;             /* the tiles' maps: a path with {x} and {y} for the tile's column and row */
    char *legend, *agents;  /* paths, or NULL for the defaults */
    uint32_t paths;         /* 1: each tile's HAA* graph stores its intra-edges' cell paths */
    uint32_t levels;        /* each tile's HAA* levels of clusters, its graph's own included:
                               1 (none above it, the default) to 8 (mkabstract --levels) */
    uint32_t optimal;       /* 1: each border file holds the optimal layer's border (border_opt)
                               and the link joins them (world_opt): Dijkstra a portal, dear */
    uint32_t blocks;        /* S > 0: the link writes a level of blocks of S x S tiles above
                               the world graph (world_blocks); 0: none */
    uint32_t landmarks;     /* K > 0: world_landmarks holds K landmarks, the corner and edge
                               ones then farthest first; 0: the 8 corner and edge ones */
    uint32_t insert;        /* B > 0: each tile bundle holds a table for inserting a query's
                               end (tile_insert), blocks of B x B clusters; 0: none */
} nbb_world;

/* Reads and checks a manifest (not the files it names); an error names
 * the file, line and column.  nbb_world_free releases what it holds. */
nb_status nbb_world_read(const char *path, nbb_world *w, nb_err *err);
void nbb_world_free(nbb_world *w);
/* Sets the fields derived from width, height and tile, after checking
 * them and cluster against the limits; what names the source in errors. */
nb_status nbb_world_shape(nbb_world *w, const char *what, nb_err *err);
/* The manifest as YAML (malloc'ed, NUL-terminated): the same bytes for the
 * same world. */
nb_status nbb_world_text(const nbb_world *w, char **text, size_t *len, nb_err *err);
/* A path the manifest gives, as found from the current folder (malloc'ed). */
nb_status nbb_world_path(const nbb_world *w, const char *rel, char **out, nb_err *err);
/* The map of tile (tx, ty) as found from the current folder (malloc'ed). */
nb_status nbb_world_tile_map(const nbb_world *w, uint32_t tx, uint32_t ty, char **out, nb_err *err);
/* The cells tile (tx, ty) covers: from (x0, y0), w x h. */
void nbb_world_tile_rect(const nbb_world *w, uint32_t tx, uint32_t ty, uint32_t *x0, uint32_t *y0,
                         uint32_t *tw, uint32_t *th);

/* Told each file a cut or a check reads or writes: changed is 1 when its
 * bytes were written (cut), 0 when they were the same already. */
typedef void (*nbb_world_file_fn)(void *arg, const char *path, int changed);

/* Cuts the level (map_path read with legend_path and agents_path, NULL for
 * the defaults) into a world of tiles of tile cells a side in the folder
 * dir: dir/world.yaml, the tile maps dir/tiles/X_Y.map, and copies of the
 * legend and the agent set.  A file whose bytes would not change is not
 * written, so that a build graph sees only what an edit changed; each is
 * written atomically.  *written counts the files written (may be NULL). */
nb_status nbb_world_cut(const char *map_path, const char *legend_path, const char *agents_path,
                        uint32_t tile, uint32_t cluster, const char *dir, unsigned threads,
                        nbb_world_file_fn fn, void *arg, size_t *written, nb_err *err);
/* Checks that every file a manifest names is there and right: the legend,
 * the agent set, and each tile's map read with them and of its tile's
 * size.  The first error names the file. */
nb_status nbb_world_check(const nbb_world *w, unsigned threads, nbb_world_file_fn fn, void *arg,
                          nb_err *err);

/* A file a tile was baked from: its role (formats/world.md: 1 the legend,
 * 2 the agent set, 16 + 3 (dy + 1) + (dx + 1) the map of the tile at (dx,
 * dy) from it), the CRC-32 and length of its bytes. */
typedef struct nbb_world_input {
    uint32_t role, crc;
    uint64_t length;
} nbb_world_input;

/* The cells tile (tx, ty) and its halo cover, clipped to the world. */
void nbb_world_extent(const nbb_world *w, uint32_t tx, uint32_t ty, uint32_t halo, uint32_t *ex0,
                      uint32_t *ey0, uint32_t *ew, uint32_t *eh);

/* What a tile action makes: the tile bundle and its border file (images
 * of the files, malloc'ed), and what the update of an old tile bundle did. */
typedef struct nbb_world_tile_out {
    uint8_t *tile, *border;
    size_t tile_len, border_len;
    nbb_rebake_stats stats;
    int twin; /* 1: updated from the twin's bundle (nbb_world_tile_bake_twin) */
} nbb_world_tile_out;

/* Bakes tile (tx, ty) of the world (navbake world tile): the level of the
 * tile and its halo, read from its map and its neighbours', with mkclear's
 * layers and runs and mkabstract's graph (the world's cluster, no levels),
 * tagged with a tile section; and its border file.  old_path (NULL: none)
 * is the tile bundle baked before, brought up to date when it is this
 * tile's: the bytes are those of a whole bake in every case. */
nb_status nbb_world_tile_bake(const nbb_world *w, uint32_t tx, uint32_t ty, const char *old_path,
                              unsigned threads, nbb_world_tile_out *out, nb_err *err);
void nbb_world_tile_out_free(nbb_world_tile_out *out);
/* Adds to out the border graph (NB_SEC_BORDER_GRAPH) of the tile t whose
 * bundle's abstract graph is g, for (cap, size) (border_graph.c). */
struct nbi_wtile;
struct nbi_agraph;
struct nbi_bgraph;
/* Marks in kept[i * P + j] (P x P bytes) the pairs of portals of the
 * border graph r the world graph keeps as arcs: a greedy spanner within
 * stretch (spanner.c). */
nb_status nbb_world_spanner(const struct nbi_bgraph *r, double stretch, uint8_t *kept,
                            nb_err *err);
nb_status nbb_world_border_graph(nbb_builder *out, const struct nbi_agraph *g,
                                 const struct nbi_wtile *t, nb_capability cap, uint32_t size,
                                 nb_err *err);
/* The tile's table for inserting a query's end (NB_SEC_TILE_INSERT) for
 * (cap, size), blocks of bsz x bsz clusters, into out (insert_table.c). */
nb_status nbb_world_insert_table(nbb_builder *out, const struct nbi_agraph *g,
                                 const struct nbi_wtile *t, nb_capability cap, uint32_t size,
                                 uint32_t bsz, nb_err *err);
/* The optimal layer's border of tile t (bundle tb) for (cap, size, corner)
 * (NB_SEC_BORDER_OPT, border_opt.c), added to out. */
nb_status nbb_world_border_opt(nbb_builder *out, const nb_bundle *tb, const struct nbi_wtile *t,
                               nb_capability cap, uint32_t size, int corner, nb_err *err);
/* The link's world_opt payload (opt_link.c; malloc'ed into *out) from the
 * tiles' border_opt payloads payload[t] (plen[t] bytes) of the tiles
 * tagged tags[t], for param (capability, size, corner): each read back
 * checked, each move out joined to the portal it reaches. */
nb_status nbb_world_opt_join(const nbb_world *w, const struct nbi_wtile *tags,
                             const uint8_t *const *payload, const size_t *plen,
                             const uint32_t param[4], uint8_t **out, size_t *out_len,
                             uint32_t *nodes_out, nb_err *err);
/* The landmarks (NB_SEC_WORLD_LANDMARKS payload, malloc'ed) on the world
 * graph payload wg of a world of width x height cells (landmarks_link.c):
 * want of them (at most the largest component's nodes), or 0 for the 8 at
 * the corners and edges' middles; NB_ERR_NOTFOUND for a graph without nodes. */
nb_status nbb_world_landmarks(const uint8_t *wg, uint32_t width, uint32_t height, uint32_t want,
                              uint8_t **out, size_t *len, uint32_t *count, nb_err *err);

/* The level of blocks of side x side tiles above the world graph payload
 * wg of a world of columns x rows tiles (NB_SEC_WORLD_BLOCKS payload,
 * malloc'ed; blocks_link.c): each block's border nodes and their
 * distances inside it, exact. */
nb_status nbb_world_blocks(const uint8_t *wg, uint32_t columns, uint32_t rows, uint32_t side,
                           uint8_t **out, size_t *len, uint32_t *entries, nb_err *err);

/* The world bundle (navbake world link): read from the border files
 * dir/tiles/X_Y.border and the manifest's legend and agents alone (malloc'ed
 * image).  A border file missing, of another world or tile, with other
 * inputs than the manifest's, or disagreeing with a neighbour about a
 * cell they share is an error naming it.  fn (may be NULL) is told each
 * file read. */
typedef struct nbb_world_link_stats {
    uint32_t tiles, classes;     /* border files read; (capability, size) pairs */
    uint64_t local_components;   /* the tiles' components, summed */
    uint64_t world_components;   /* the world's, summed over the pairs */
    uint64_t haa_nodes, haa_arcs; /* of the world's HAA* graphs, summed over the pairs */
    uint64_t haa_unmatched;      /* tiles' links whose far end no neighbour's portal is */
    uint32_t borders_read;       /* border files read (the others from the cache) */
    const char *cache_ignored;   /* with a cache asked for: why none was used, or NULL */
} nbb_world_link_stats;
nb_status nbb_world_link(const nbb_world *w, const char *dir, nbb_world_file_fn fn, void *arg,
                         uint8_t **image, size_t *len, nbb_world_link_stats *stats, nb_err *err);
/* The link with its cache (link_cache.c, formats/world.md): with read,
 * the records of the previous link in dir/link.cache are used for the
 * tiles whose border file has the digest they were made from (the cache
 * ignored when damaged or of another world); when cache is not NULL, the
 * records of this link are put in *cache, *cache_len, for dir/link.cache.
 * The world bundle's bytes are those of a link without it. */
#define NBB_WORLD_LINK_CACHE "link.cache"
nb_status nbb_world_link_cached(const nbb_world *w, const char *dir, int read,
                                nbb_world_file_fn fn, void *arg, uint8_t **image, size_t *len,
                                uint8_t **cache, size_t *cache_len, nbb_world_link_stats *stats,
                                nb_err *err);

/* The tiles of the world bundle world (NB_ERR_NOTFOUND: it is not one). */
nb_status nbb_world_index_tiles(const nb_bundle *world, uint32_t *count, nb_err *err);
/* Tile t (row by row) of the world bundle: its path in dir (*path,
 * malloc'ed, set whenever it could be made), checked against the index:
 * its header's digest, and its tile section's tile and world. */
nb_status nbb_world_index_tile(const nb_bundle *world, const char *dir, uint32_t t, char **path,
                               nb_err *err);

/* A world's output folder: dir and dir/tiles made when missing. */
nb_status nbb_world_folders(const char *dir, nb_err *err);
/* dir/name (malloc'ed). */
nb_status nbb_world_join(const char *dir, const char *name, char **out, nb_err *err);
/* Writes buf to dir/name atomically unless it holds those bytes already,
 * tells fn (may be NULL) and counts it in *written (may be NULL) when it
 * wrote. */
nb_status nbb_world_put(const char *dir, const char *name, const void *buf, size_t len,
                        nbb_world_file_fn fn, void *arg, size_t *written, nb_err *err);

/* dir and dir/sub made when missing. */
nb_status nbb_world_subfolder(const char *dir, const char *sub, nb_err *err);

/* A tile's halo strips (world/strips.c, formats/world.md): the cells of
 * the tile that each neighbour's halo holds, as small map files in the
 * output folder's strips/, so that a build graph makes a tile depend on
 * those cells of its neighbours, not on their whole maps. */
#define NBB_WORLD_STRIPS "strips"
/* The neighbour of tile (tx, ty) at (dx, dy) (each -1 to 1, not both 0):
 * 1 and its column and row when the world has it, else 0. */
int nbb_world_neighbour(const nbb_world *w, uint32_t tx, uint32_t ty, int dx, int dy, uint32_t *nx,
                        uint32_t *ny);
/* "strips/X_Y.D.map" into buf: the strip tile (tx, ty) lends its neighbour
 * at (dx, dy), D that neighbour's direction (n, ne, e, se, s, sw, w, nw). */
void nbb_world_strip_name(char *buf, size_t len, uint32_t tx, uint32_t ty, int dx, int dy);
/* The world cells of tile (tx, ty) that the halo of its neighbour at (dx,
 * dy) holds: from (x, y), w x h; 0 when it has no such neighbour. */
int nbb_world_lent(const nbb_world *w, uint32_t tx, uint32_t ty, int dx, int dy, uint32_t halo,
                   uint32_t *x, uint32_t *y, uint32_t *rw, uint32_t *rh);
/* Writes tile (tx, ty)'s strips into dir/strips/ (navbake world strips),
 * each only when its bytes change; it reads the manifest's legend and
 * agent set (the halo) and the tile's map, nothing else. */
nb_status nbb_world_strips(const nbb_world *w, uint32_t tx, uint32_t ty, const char *dir,
                           unsigned threads, nbb_world_file_fn fn, void *arg, size_t *written,
                           nb_err *err);
/* nbb_world_tile_bake with the neighbours' cells read from their strips in
 * strips/ of the folder dir rather than from their maps (dir NULL: the
 * maps); the bytes are the same either way. */
nb_status nbb_world_tile_bake_strips(const nbb_world *w, uint32_t tx, uint32_t ty, const char *dir,
                                     const char *old_path, unsigned threads,
                                     nbb_world_tile_out *out, nb_err *err);
/* nbb_world_tile_bake_strips, given twin_path (NULL: none), the bundle of
 * another tile of the world that may have been baked from the same cells:
 * the tile's map, the cells its halo holds and their shape all the same
 * (the tile section's input records and header, but for the tile's place).
 * When it was, that bundle is updated in place of old_path's, which
 * changes no cell: only the tile section is new (out->twin 1).  Otherwise
 * it is as without it.  The bytes are those of a whole bake either way
 * (navbake world plan's twins, formats/world.md "Repeated tiles"). */
nb_status nbb_world_tile_bake_twin(const nbb_world *w, uint32_t tx, uint32_t ty, const char *dir,
                                   const char *old_path, const char *twin_path, unsigned threads,
                                   nbb_world_tile_out *out, nb_err *err);

/* The shape of the world whose world bundle is world (its world section;
 * NB_ERR_NOTFOUND when it is not one). */
typedef struct nbb_world_shape_info {
    uint32_t width, height, tile, cluster, columns, rows, halo;
} nbb_world_shape_info;
nb_status nbb_world_index_shape(const nb_bundle *world, nbb_world_shape_info *out, nb_err *err);
/* The tiles of the world bundle world (in dir/tiles) against the manifest
 * w (world/sources_check.c): the world's shape is the manifest's, every
 * tile is the index's (nbb_world_index_tile), and each was baked from the
 * legend, agent set and tile map the manifest names now.  The first
 * difference names the tile and the file; fn (may be NULL) is told each
 * map read. */
nb_status nbb_world_sources_check(const nbb_world *w, const nb_bundle *world, const char *dir,
                                  unsigned threads, nbb_world_file_fn fn, void *arg, nb_err *err);
/* A world's map whole as MovingAI map text (malloc'ed; world/world_map.c):
 * from the manifest's tile maps, or from the tile bundles of the world
 * bundle in dir/tiles, each checked against the index. */
nb_status nbb_world_map_from_maps(const nbb_world *w, unsigned threads, char **text, size_t *len,
                                  nb_err *err);
nb_status nbb_world_map_from_tiles(const nb_bundle *world, const char *dir, char **text,
                                   size_t *len, nb_err *err);

/* Writes len bytes to path atomically, unless path holds those bytes
 * already; *changed (may be NULL) says whether it wrote (output/write_changed.c). */
nb_status nbb_write_changed(const char *path, const void *buf, size_t len, int *changed, nb_err *err);

/* ---- the bake library (navbake_bake.h; api/, abstract/abstract_put.c) ---- */

/* A new abstract graph's derived sections: its terrain-cost profiles and
 * higher levels (lo: levels 0 is none), for the graph payload graph
 * (glen bytes) built on b; mkabstract's and the library's. */
nb_status nbb_abstract_put_derived(nbb_builder *w, const nb_bundle *b, const void *graph,
                                   size_t glen, const nbb_levels_opts *lo, int compress,
                                   nb_err *err);
/* The graph itself, taken over (freed in every case), replacing any. */
nb_status nbb_abstract_put_graph(nbb_builder *w, uint8_t *graph, size_t glen, int compress,
                                 nb_err *err);
/* The abstract graph of what w holds so far (built with ao, resolved
 * here), put with its costs and levels lo (NULL: none; levels 0: the
 * default for the map): the bake library's and a world tile's step. */
nb_status nbb_abstract_put_built(nbb_builder *w, const nbb_abstract_opts *ao,
                                 const nbb_levels_opts *lo, int compress, nb_err *err);
/* The level a bake handle holds (NULL before a grid is set): mkclear reads
 * its level through the library, then brings its bundle up to date by it. */
struct nb_bake;
const nbb_level *nbb_bake_level(const struct nb_bake *bake);
/* nb_bake_read_level reading on threads (0: the online CPUs). */
nb_status nbb_bake_read(struct nb_bake *bake, const char *legend_path, const char *agents_path,
                        const char *level_path, unsigned threads, nb_err *err);

/* ---- memory (mem.c) ---- */

/* The bake side allocates through these alone: the allocator of the bake
 * running on this thread (the bake library sets its caller's for the
 * length of a call, and parallel.c the caller's in each worker), else the
 * C library's, so outside the library free() takes what they give.  Sizes
 * of 0 are 1; calloc's product is checked. */
const nb_allocator *nbb_mem(void);
/* Sets this thread's allocator (NULL: the C library's), returning the one
 * to put back with nbb_mem_leave. */
const nb_allocator *nbb_mem_enter(const nb_allocator *a);
void nbb_mem_leave(const nb_allocator *prev);
void *nbb_malloc(size_t size);
void *nbb_calloc(size_t count, size_t size);
void *nbb_realloc(void *p, size_t size);
void nbb_free(void *p);
char *nbb_strdup(const char *s);
/* The n bytes at s (which has them) and a NUL. */
char *nbb_strndup(const char *s, size_t n);
/* A z_stream (zlib.h; passed as void * to keep zlib out of this header)
 * zeroed, its states from nbb_malloc. */
void nbb_zstream_init(void *zs);
/* compress2 (the same bytes) with its state from nbb_malloc. */
int nbb_compress(uint8_t *dest, unsigned long *dest_len, const uint8_t *src, size_t len,
                 int level);
/* qsort's order (stable, as glibc's merge sort), its buffer from
 * nbb_malloc (sort.c): 0 when there is no memory for it, the array as it was. */
int nbb_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif /* NB_BAKE_H */
