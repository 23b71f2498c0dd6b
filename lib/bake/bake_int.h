/* bake_int.h: what the bake side shares inside itself, beyond the tools'
 * API (bake.h): the level's parts as the runtime decodes them (legend,
 * agent set), the map reader, YAML documents with located errors,
 * temporary files, and the encoders the writers call.  The bake side may
 * use the runtime's internals; tools never include this.  Not installed. */
#ifndef NB_BAKE_INT_H
#define NB_BAKE_INT_H

#include <signal.h>
#include <yaml.h>

#include "abstract/abstract.h"
#include "bake.h"
#include "bundle/bundle.h"
#include "clearance/clearance.h"
#include "sections/sections.h"

/* ---- MovingAI maps (input/map_read.c; formats/map.md) ---- */

typedef struct nbb_grid {
    uint32_t width, height;
    uint8_t *cells; /* width * height map characters, row-major from the top-left */
} nbb_grid;

#define NBB_MAP_FILE_MAX ((size_t)1 << 30)

nb_status nbb_map_read(const char *path, const nbi_legend *legend, unsigned threads, nbb_grid *grid,
                       nb_err *err);
/* Parses a map held in memory; name is used in messages. */
nb_status nbb_map_parse(const char *buf, size_t len, const char *name, const nbi_legend *legend,
                        unsigned threads, nbb_grid *grid, nb_err *err);
void nbb_grid_free(nbb_grid *grid);

/* A level read from its files (input/level.c). */
struct nbb_level {
    nbi_legend legend;
    nbi_agentset agents;
    nbb_grid grid;
};

/* ---- YAML documents with located errors (input/yamldoc.c) ---- */

typedef struct nbb_yaml {
    yaml_document_t doc;
    const char *name; /* file name for messages */
} nbb_yaml;

/* The limits of every YAML input (formats/legend.md), checked before the
 * document is built: nesting, nodes (scalars, lists, mappings and
 * aliases: a forest has its own count) and anchors.  The largest real
 * inputs are far below them: 3 levels, some 10,000 nodes (an agent set of
 * 256 agents), no anchors. */
#define NBB_YAML_MAX_DEPTH 64
#define NBB_YAML_MAX_NODES 100000
#define NBB_YAML_MAX_ANCHORS 64

/* Parses exactly one YAML document of at most max_nodes nodes; a syntax
 * error or a limit names line and column. */
nb_status nbb_yaml_load(nbb_yaml *y, const char *buf, size_t len, const char *name,
                        size_t max_nodes, nb_err *err);
void nbb_yaml_free(nbb_yaml *y);
/* The root node, which must be a mapping (what names it in messages). */
nb_status nbb_yaml_root(nbb_yaml *y, const char *what, yaml_node_t **root, nb_err *err);
/* "file:line:column: message" at a node. */
nb_status nbb_yaml_fail(const nbb_yaml *y, const yaml_node_t *node, nb_err *err, nb_status code,
                        const char *fmt, ...) NBP_PRINTF(5, 6);
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

/* ---- legends and agent sets (input/legend_yaml.c, input/agents_yaml.c;
 * formats/legend.md, formats/agents.md) ---- */

#define NBB_YAML_FILE_MAX ((size_t)16 << 20)

nb_status nbb_legend_read(const char *path, nbi_legend *legend, nb_err *err);
nb_status nbb_legend_parse(const char *buf, size_t len, const char *name, nbi_legend *legend,
                           nb_err *err);
/* Writes a legend as YAML that nbb_legend_read reads back. */
void nbb_legend_print(const nbi_legend *legend, FILE *file);

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
void nbb_agents_print(const nbi_agentset *set, const nbi_legend *legend, FILE *file);

/* The legend (the default one when legend_path is NULL), the agent set
 * (the default set when agents_path is NULL; none when agents is NULL) and, unless map_path is
 * NULL, the map read with that legend (input/level.c). */
nb_status nbb_read_level(const char *legend_path, const char *agents_path, const char *map_path,
                         unsigned threads, nbi_legend *legend, nbi_agentset *agents, nbb_grid *grid,
                         nb_err *err);
/* Puts the legend, agent set and map sections (a builder's common first
 * step); agents and grid may be NULL (bundle/bundle_write.c). */
nb_status nbb_put_level(nbb_builder *b, const nbi_legend *legend, const nbi_agentset *agents,
                        const nbb_grid *grid, int compress, nb_err *err);
/* The map section's payload (version 2: the cells packed through a palette
 * of the characters used) and its bits a cell; NULL without memory
 * (bundle/map_pack.c). */
uint8_t *nbb_map_pack(const nbb_grid *g, size_t *len, uint32_t *bits);
/* Section i of what b holds, as stored (*stored: the zlib stream when its
 * encoding says so); NULL past the last (bundle/bundle_write.c). */
const nb_section_info *nbb_builder_section(const nbb_builder *b, size_t i, const uint8_t **stored);
/* A component layer's version 1 payload (packed, checked by the caller)
 * as version 2, by runs along rows; NULL without memory
 * (clearance/comp_runs_pack.c). */
uint8_t *nbb_comp_runs_pack(const uint8_t *packed, size_t *len);
/* The reverse: a checked layer by runs as a version 1 payload, for an
 * update that repairs it; NULL without memory. */
uint8_t *nbb_comp_runs_unpack(const nbi_layer *l, size_t *len);
/* Every uncompressed version 1 component layer in b stored by runs
 * instead, when that is smaller or always: the tile action's, whose tiles
 * have few components. */
nb_status nbb_builder_comp_runs(nbb_builder *b, int always, nb_err *err);

/* ---- the HAA* abstract graph (abstract/) ---- */

/* What an abstract graph is built from: the map's size, the agent set's
 * capabilities and sizes, and each capability's clearance layer. */
typedef struct nbb_abstract_source {
    uint32_t width, height;
    uint32_t ncaps, nsizes;
    nb_capability caps[NB_MAX_AGENTS];
    uint32_t sizes[NB_MAX_AGENTS];
    nbi_layer layer[NB_MAX_AGENTS];
} nbb_abstract_source;
/* The source in a bundle (its map, agent set and clearance layers). */
nb_status nbb_abstract_source_of(const nb_bundle *b, nbb_abstract_source *src, nb_err *err);
/* Builds the graph of src with options o: all of it when old is NULL;
 * else only the borders and clusters that changed[0..nchanged) reach
 * (cells whose clearance changed for some capability since old was built
 * with the same options), the rest taken from old.  The bytes are those
 * of a whole bake (abstract/abstract_build.c). */
nb_status nbb_ab_bake(const nbb_abstract_source *src, const nbi_agraph *old,
                      const uint32_t *changed, size_t nchanged, const nbb_abstract_opts *o,
                      uint8_t **payload, size_t *len, nbb_abstract_stats *stats, nb_err *err);
/* The options the graph in payload p (len bytes) was built with, read
 * from its header alone, for building it again; 0 when they are not
 * options this library builds with, or the graph does not serve exactly
 * src's capabilities and sizes on a map of its size. */
int nbb_abstract_opts_of(const uint8_t *p, size_t len, const nbb_abstract_source *src,
                         nbb_abstract_opts *o);

/* What an abstract graph's costs are built from (abstract/abstract_costs.c):
 * the map, its legend, the agent set whose agents with terrain costs make
 * the profiles, and each capability's clearance layer. */
typedef struct nbb_acosts_source {
    uint32_t width, height;
    const uint8_t *cells;
    const nbi_legend *legend;
    const nbi_agentset *agents;
    uint32_t ncaps;
    nb_capability caps[NB_MAX_AGENTS];
    nbi_layer layer[NB_MAX_AGENTS];
} nbb_acosts_source;
/* A terrain-cost profile: the agents with costs of one capability, size
 * and multipliers (formats/abstract.md) share one, and one section of the
 * graph's costs. */
typedef struct nbb_cost_profile {
    nb_capability cap;
    uint32_t size;
    double cost[NB_MAX_TERRAINS]; /* 1 outside cap */
} nbb_cost_profile;
/* The distinct profiles of the set's agents with terrain costs, in the
 * order of their sections (capability, size, then the multipliers terrain
 * by terrain), into out (room for NB_MAX_AGENTS); returns how many. */
size_t nbb_cost_profiles(const nbi_agentset *set, nbb_cost_profile *out);
/* Replaces the builder's abstract graph costs by one section per cost
 * profile of src's agents, for the graph whose payload is graph (glen
 * bytes); *count gets how many (NULL: not asked). */
nb_status nbb_acosts_put(nbb_builder *w, const nbb_acosts_source *src, const uint8_t *graph,
                         size_t glen, int compress, size_t *count, nb_err *err);
/* The section table entry of such a payload. */
void nbb_acosts_info(const uint8_t *payload, nb_section_info *info);
/* The source in a bundle (its map, legend, agent set, clearance layers). */
nb_status nbb_acosts_source_of(const nb_bundle *b, nbb_acosts_source *src, nb_err *err);
/* One profile's payload (malloc'ed), the index-th of its bundle. */
nb_status nbb_acosts_bake(const nbb_acosts_source *src, const uint8_t *graph, size_t glen,
                          nb_capability cap, uint32_t size, const double *cost, uint32_t index,
                          uint8_t **payload, size_t *len, nb_err *err);

/* ---- a new file written through a mapping (bundle/write_mapped.c) ---- */

/* len bytes at p to go at offset at of a file. */
typedef struct nbb_span {
    uint64_t at;
    const uint8_t *p;
    size_t len;
} nbb_span;
/* Makes the empty file fd size bytes long, its blocks reserved, and copies
 * the spans (ascending, apart) into it mapped, chunks of it on up to
 * threads threads; zeros between.  *done is 1 when written, 0 when the
 * file could not be reserved or mapped (the caller writes it); a full disk
 * is an error naming path. */
nb_status nbb_write_mapped(int fd, uint64_t size, const nbb_span *s, size_t n, unsigned threads,
                           const char *path, int *done, nb_err *err);

/* ---- writing files atomically (output/tempfile.c) ---- */

/* A temporary file for writing a file atomically: termination signals are
 * held from create to finish, which (when st is NB_OK) syncs it and renames
 * it over its target, or else removes it; returns the status.  The target
 * is path once its symbolic links are followed (a dangling link's target is
 * created), so that a link stays a link and its target is replaced; the
 * temporary file, target.tmp-PID-N, is beside the target, and creating one
 * first removes those of dead writers (nbb_tempfile_sweep). */
typedef struct nbb_tempfile {
    char *tmp;    /* its name */
    char *target; /* what it replaces */
    int fd;
    int scratch;
    sigset_t saved;
} nbb_tempfile;
nb_status nbb_tempfile_create(nbb_tempfile *t, const char *path, nb_err *err);
/* A scratch file, base.tmp-PID-N, that finish removes in every case; base
 * is taken as it is, links and all. */
nb_status nbb_tempfile_scratch(nbb_tempfile *t, const char *base, nb_err *err);
nb_status nbb_tempfile_finish(nbb_tempfile *t, nb_status st, nb_err *err);
/* Writes all len bytes to fd, again after a signal; an error names path
 * (output/write_all.c). */
nb_status nbb_write_all(int fd, const void *data, size_t len, const char *path, nb_err *err);
/* Refuses an output path that exists and is not a regular file (a device,
 * a FIFO, a directory): renaming a new file onto it would replace it. */
nb_status nbb_output_check(const char *path, nb_err *err);
/* The file path names once its symbolic links are followed (malloc'ed into
 * *target): path itself when it is not a link (output/link_target.c). */
nb_status nbb_link_target(const char *path, char **target, nb_err *err);
/* Removes path's temporary files (path.tmp-PID-N) whose writer is dead:
 * regular files of this user's whose PID is no process (output/stale_temp.c). */
void nbb_tempfile_sweep(const char *path);

/* ---- round obstacles (forest/) ---- */

/* A forest file's limits (formats/forest.md): some 64 bytes of YAML a
 * circle, and 7 nodes for a circle written as a mapping, for the largest
 * forest; beside them, a few for the keys and the bounds. */
#define NBB_FOREST_FILE_MAX ((size_t)64 * NB_FOREST_MAX_CIRCLES)
#define NBB_FOREST_YAML_MAX_NODES ((size_t)7 * NB_FOREST_MAX_CIRCLES + 16)

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

/* ---- motion models (motion/model_yaml.c) ---- */

nb_status nbb_model_read(const char *path, nb_model *m, nb_err *err);
nb_status nbb_model_parse(const char *buf, size_t len, const char *name, nb_model *m, nb_err *err);

/* ---- perimeter tables (motion/perimeter_build.c) ----
 * The backward search that gives a table's values: mkperim runs it for
 * every table, nbb_verify_deep for the tables it samples. */

typedef struct nbb_pvalues nbb_pvalues;
/* A search over the states within radius cells of the goal (and a margin
 * that grows as needed); m must outlive it. */
nb_status nbb_pvalues_new(const nb_model *m, unsigned radius, nbb_pvalues **out, nb_err *err);
void nbb_pvalues_free(nbb_pvalues *pv);
/* Searches back from the goal at heading gh and speed level gl
 * (NBI_PERIM_ANY: any heading, any speed) until the window's values are
 * exact. */
nb_status nbb_pvalues_goal(nbb_pvalues *pv, unsigned gh, unsigned gl, nb_err *err);
/* The cost from (x, y) at heading h and speed class k (cls: the class of
 * each speed level) to the last goal searched; 0 for a goal state. */
double nbb_pvalues_get(const nbb_pvalues *pv, const uint8_t *cls, long x, long y, unsigned h,
                       unsigned k);
/* How far past the window the searches have gone. */
unsigned nbb_pvalues_margin(const nbb_pvalues *pv);
/* A cost as an entry of bits 16 (times scale, rounded down; 0xFFFF when
 * unreachable) or 32 (a float rounded down). */
uint32_t nbb_perimeter_entry(double v, unsigned bits, uint32_t scale);

/* ---- worlds of tiles (world/) ---- */

/* The legend and agent set a world's manifest names (the defaults when it
 * names none), with the digests of their files (role 0 when none). */
nb_status nbb_world_read_defs(const nbb_world *w, nbi_legend *legend, nbi_agentset *agents,
                              nbb_world_input *lin, nbb_world_input *ain, nb_err *err);
/* Tile (tx, ty)'s map, read with legend and checked against the tile's
 * size, with its digest (in may be NULL) and its path (path_out may be
 * NULL; malloc'ed); an error names the tile, its cells and the file. */
nb_status nbb_world_read_tile(const nbb_world *w, const nbi_legend *legend, uint32_t tx, uint32_t ty,
                              unsigned threads, nbb_grid *grid, nbb_world_input *in, char **path_out,
                              nb_err *err);
/* The halo of the world's tiles for this agent set: the smallest multiple
 * of the cluster at least the largest agent's size. */
uint32_t nbb_world_halo(const nbb_world *w, const nbi_agentset *agents);

/* The w x h cells from (x, y) of a grid stride cells wide as a MovingAI
 * map into text (room for 64 bytes and h rows of w + 1); its length. */
size_t nbb_world_map_text(const uint8_t *cells, uint32_t stride, uint32_t x, uint32_t y, uint32_t w,
                          uint32_t h, char *text);
/* The strip tile (nx, ny) lends its neighbour at (dx, dy), read from
 * dir/strips/ with legend and checked against the cells that neighbour's
 * halo holds; an error names the file. */
nb_status nbb_world_read_strip(const nbb_world *w, const nbi_legend *legend, const char *dir,
                               uint32_t nx, uint32_t ny, int dx, int dy, uint32_t halo,
                               unsigned threads, nbb_grid *g, nb_err *err);

#endif /* NB_BAKE_INT_H */
