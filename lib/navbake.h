/* navbake.h: the navbake runtime, the library a game links.
 *
 * A bundle is one file that offline tools (mkclear, mkabstract, mkperim,
 * mkhitcheck) bake from a level; the runtime maps it read-only and answers
 * queries from it.  Conventions (see navbake(3)):
 *
 *  - Every function that can fail returns an nb_status and, when given a
 *    non-NULL nb_err, fills it with the same code and a message naming the
 *    file, offset or line and what was expected.
 *  - No global state.  A bundle is read-only once open, so any number of
 *    threads may query one bundle, each with its own query workspace.
 *  - Allocation happens at open and when a workspace is made, never per
 *    query.
 */
#ifndef NAVBAKE_H
#define NAVBAKE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NB_VERSION_STRING "0.1.0"
#define NB_VERSION_MAJOR 0
#define NB_VERSION_MINOR 1
#define NB_VERSION_PATCH 0

/* The bundle format this library writes and reads (formats/bundle.md).  A
 * reader opens any minor version of its major version; a new minor version
 * only adds. */
#define NB_FORMAT_MAJOR 1
#define NB_FORMAT_MINOR 0

/* ------------------------------------------------------------------ */
/* Status codes and messages                                           */

typedef enum nb_status {
    NB_OK = 0,
    NB_ERR_ARG,         /* a caller's argument is out of range or malformed */
    NB_ERR_IO,          /* a system call failed (open, read, write, rename) */
    NB_ERR_NOMEM,       /* out of memory */
    NB_ERR_SYNTAX,      /* an input file (map, YAML) is malformed */
    NB_ERR_FORMAT,      /* not a bundle, or a bundle whose structure is wrong */
    NB_ERR_VERSION,     /* a bundle of a major version this reader does not know */
    NB_ERR_CRC,         /* a checksum does not match: the bundle is damaged */
    NB_ERR_NOTFOUND,    /* a section, terrain or agent that is not there */
    NB_ERR_UNSUPPORTED, /* valid, but not supported by this build */
    NB_ERR_LIMIT        /* beyond a documented limit */
} nb_status;

#define NB_ERR_MSG_MAX 512

/* Filled by every fallible call that is given one.  code is NB_OK and msg
 * empty after success. */
typedef struct nb_err {
    nb_status code;
    char msg[NB_ERR_MSG_MAX];
} nb_err;

/* A short constant description of a status ("bad bundle structure"). */
const char *nb_status_str(nb_status status);

/* The library's version string, for checking against NB_VERSION_STRING. */
const char *nb_version(void);

/* ------------------------------------------------------------------ */
/* Limits (formats/map.md, formats/legend.md, formats/agents.md)       */

#define NB_MAP_MAX_SIDE 16384      /* width and height, each */
#define NB_MAX_TERRAINS 32         /* a capability is a 32-bit mask */
#define NB_MAX_AGENTS 256          /* agent types in one agent set */
#define NB_MAX_AGENT_SIZE 64       /* cells per side of the largest agent */
#define NB_NAME_MAX 31             /* terrain, agent, model and unit names */

/* ------------------------------------------------------------------ */
/* Bundles                                                             */

typedef struct nb_bundle nb_bundle;

/* Section types.  Numbers are fixed forever; a reader skips types it does
 * not know.  Each is specified in formats/bundle.md (and its own page). */
enum nb_section_type {
    NB_SEC_LEGEND = 1,     /* terrain names and the map characters of each */
    NB_SEC_AGENTS = 2,     /* agent types: name, size, capability */
    NB_SEC_MAP = 3,        /* the grid: one map character per cell */
    NB_SEC_CLEARANCE = 16, /* true clearance for one capability */
    NB_SEC_COMPONENTS = 17,/* reachability components for one (capability, size) */
    NB_SEC_ABSTRACT = 32,  /* the HAA* abstract graph */
    NB_SEC_MODEL = 48,     /* a motion model */
    NB_SEC_PERIMETER = 49, /* a perimeter heuristic table for one model */
    NB_SEC_UNIT = 64,      /* a unit with a turning radius */
    NB_SEC_HITCHECK = 65,  /* hit-check bitsets for one unit */
    NB_SEC_CURVES = 66,    /* curve heuristic table for one unit */
    NB_SEC_FOREST = 80,    /* round obstacles */
    NB_SEC_BITANGENT = 81  /* bitangent graph for one agent radius */
};

/* Encodings: the low byte is the layout of the payload, the high byte the
 * compression of the stored bytes. */
#define NB_ENC_RAW 0x0000u    /* plain little-endian fields */
#define NB_ENC_PACKED 0x0001u /* bit-packed values, read in place */
#define NB_ENC_ZLIB 0x0100u   /* stored as a zlib stream of the layout */
#define NB_ENC_LAYOUT(e) ((e) & 0xffu)
#define NB_ENC_COMPRESSION(e) ((e) & 0xff00u)

#define NB_SECTION_PARAMS 8

/* One entry of a bundle's section table. */
typedef struct nb_section_info {
    uint32_t type;        /* enum nb_section_type, or one this reader does not know */
    uint16_t version;     /* the section's own format version */
    uint16_t encoding;    /* NB_ENC_* */
    uint64_t offset;      /* from the start of the file; a multiple of 64 */
    uint64_t size;        /* stored bytes */
    uint64_t usize;       /* bytes once decompressed (== size when not compressed) */
    uint32_t crc;         /* CRC-32 (zlib's) of the stored bytes */
    uint32_t flags;       /* section-specific */
    uint32_t param[NB_SECTION_PARAMS]; /* build parameters: see section_params */
    char name[NB_NAME_MAX + 1];        /* a model's or unit's name, or "" */
} nb_section_info;

/* Flags for nb_bundle_open. */
#define NB_OPEN_VERIFY 0x1u /* also check every CRC (as nb_bundle_verify) */

/* Opens a bundle file read-only.  The binary form is mapped with mmap and
 * its header and section table are checked against the file's real size
 * before any offset is used; a zlib-encoded section is inflated here (and
 * its CRC checked on the way).  "-" reads standard input into memory.
 * An SQLite bundle is recognised and refused with NB_ERR_UNSUPPORTED when
 * this build has no SQLite support. */
nb_status nb_bundle_open(const char *path, unsigned flags, nb_bundle **out, nb_err *err);

/* The same from a buffer in memory, which is copied. */
nb_status nb_bundle_open_memory(const void *data, size_t len, unsigned flags,
                                nb_bundle **out, nb_err *err);

/* Unmaps and frees; NULL is allowed. */
void nb_bundle_close(nb_bundle *bundle);

/* Checks every CRC, that sections do not overlap and that every byte
 * between them is zero: NB_OK only when the whole file is intact. */
nb_status nb_bundle_verify(const nb_bundle *bundle, nb_err *err);

void nb_bundle_format_version(const nb_bundle *bundle, unsigned *major, unsigned *minor);
uint64_t nb_bundle_file_size(const nb_bundle *bundle);
size_t nb_bundle_section_count(const nb_bundle *bundle);
const nb_section_info *nb_bundle_section(const nb_bundle *bundle, size_t index);

/* Index of the first section of this type whose name equals name (any name
 * when NULL) and whose first nparams parameters equal params; -1 if none. */
long nb_bundle_find(const nb_bundle *bundle, uint32_t type, const char *name,
                    const uint32_t *params, size_t nparams);

/* The section's payload once decoded (inflated when zlib-encoded), valid
 * until nb_bundle_close. */
nb_status nb_bundle_payload(const nb_bundle *bundle, size_t index, const void **data,
                            size_t *len, nb_err *err);

/* "map", "clearance", ... or NULL for a type this library does not know. */
const char *nb_section_type_name(uint32_t type);
/* The type with this name, or 0. */
uint32_t nb_section_type_from_name(const char *name);
/* What param[i] of a section of this type means ("capability", "size"), or
 * NULL when unused. */
const char *nb_section_param_name(uint32_t type, unsigned i);
/* "raw", "packed", "zlib+raw", "zlib+packed", or "unknown". */
const char *nb_encoding_name(uint16_t encoding);

/* ------------------------------------------------------------------ */
/* The level held by a bundle: terrains, agents, map                   */

/* Terrains are numbered from 0 in the order of the legend; a capability is
 * a mask with bit t set for each terrain t it may enter. */
typedef uint32_t nb_capability;

#define NB_OBSTACLE (-1) /* nb_map_terrain of a hard obstacle or outside the map */

unsigned nb_terrain_count(const nb_bundle *bundle);
const char *nb_terrain_name(const nb_bundle *bundle, unsigned terrain);
/* The map characters of a terrain, NUL-terminated ("." "G" for ground). */
const char *nb_terrain_chars(const nb_bundle *bundle, unsigned terrain);
/* Characters that are hard obstacles. */
const char *nb_obstacle_chars(const nb_bundle *bundle);

/* Parses "ground,swamp" (terrain names separated by commas) into a mask. */
nb_status nb_capability_parse(const nb_bundle *bundle, const char *list,
                              nb_capability *out, nb_err *err);
/* Writes "ground,swamp" into buf (always NUL-terminated); returns the length
 * it needed, as snprintf does. */
size_t nb_capability_format(const nb_bundle *bundle, nb_capability cap, char *buf, size_t len);

typedef struct nb_agent {
    char name[NB_NAME_MAX + 1];
    uint32_t size;          /* cells per side; the agent's top-left cell is its position */
    nb_capability capability;
} nb_agent;

size_t nb_agent_count(const nb_bundle *bundle);
const nb_agent *nb_agent_get(const nb_bundle *bundle, size_t index);
/* The agent with this name, or NULL. */
const nb_agent *nb_agent_find(const nb_bundle *bundle, const char *name);

/* 1 when the bundle holds a grid map. */
int nb_has_map(const nb_bundle *bundle);
uint32_t nb_map_width(const nb_bundle *bundle);
uint32_t nb_map_height(const nb_bundle *bundle);
/* The terrain of a cell, or NB_OBSTACLE for a hard obstacle or a cell
 * outside the map. */
int nb_map_terrain(const nb_bundle *bundle, long x, long y);
/* The map character the cell was read from, or 0 outside the map. */
char nb_map_char(const nb_bundle *bundle, long x, long y);

/* ------------------------------------------------------------------ */
/* Clearance and reachability (clearance.c, components.c)              */

/* A cell of the map: column x, row y, (0, 0) the top-left. */
typedef struct nb_cell {
    int32_t x, y;
} nb_cell;

/* Baked by mkclear (formats/clearance.md): for each capability c of the
 * agent set, the true clearance cv(t, c) of every cell t, capped at the
 * largest agent size served; for each (capability, size) of C x S, the
 * connected components of the cells where such an agent may stand.
 * These look-ups read the mapped layers in place, in O(1) in the map's
 * size (a call finds its layer among the bundle's sections). */

/* cv((x, y), cap), capped at the layer's cap; 0 outside the map and where
 * the cell's terrain is not in cap.  -1 when the bundle holds no
 * clearance layer for exactly this capability. */
int nb_clearance(const nb_bundle *bundle, nb_capability cap, long x, long y);
/* The cap of that layer (the largest size it answers), or -1. */
int nb_clearance_cap(const nb_bundle *bundle, nb_capability cap);
/* 1 when an agent of this size and capability may stand with its
 * top-left cell at (x, y) (cv >= size), 0 when not or outside the map;
 * -1 when the bundle cannot tell: no layer for cap, size 0, or a size
 * beyond the layer's cap. */
int nb_can_stand(const nb_bundle *bundle, nb_capability cap, unsigned size, long x, long y);
/* 1 when a path joins the two cells for this agent (the same moves as
 * nb_aa_find, either corner rule), 0 when none does (also when either
 * cell is not standable); -1 when the bundle holds no component layer for
 * (cap, size). */
int nb_reachable(const nb_bundle *bundle, nb_capability cap, unsigned size, nb_cell from,
                 nb_cell to);
/* The component of a cell, numbered from 1 in row-major order of each
 * component's first cell; 0 where the agent cannot stand; -1 when there
 * is no layer for (cap, size). */
long nb_component(const nb_bundle *bundle, nb_capability cap, unsigned size, long x, long y);

/* ------------------------------------------------------------------ */
/* Annotated A* (aastar.c)                                             */

/* ------------------------------------------------------------------ */
/* HAA* (haa.c)                                                        */

/* ------------------------------------------------------------------ */
/* Motion-constrained search (motion.c, perimeter.c)                   */

/* Motion models (model.c; formats/motion.md).  A model is data: H
 * headings, each stepping by a grid offset; speed levels ordered by value
 * (one is 0, negative values step backwards), each with the largest turn
 * (in heading steps) an action taken at that speed may make; how many
 * levels an action may change the speed; and costs.  An action turns,
 * then steps one offset when its new speed is not 0; it costs the step's
 * length divided by |speed| (an action at speed 0, a stop or a turn in
 * place, costs the model's still cost), plus the turn cost per heading
 * step turned.  mkperim stores models in bundles (NB_SEC_MODEL, named). */
typedef struct nb_model nb_model;

#define NB_MODEL_MAX_HEADINGS 64
#define NB_MODEL_MAX_SPEEDS 16
#define NB_MODEL_MAX_OFFSET 8  /* largest |dx| or |dy| of a heading's step */
#define NB_MODEL_MAX_SPEED 64.0 /* largest |speed| */

/* Decodes the model section called name. */
nb_status nb_model_open(const nb_bundle *bundle, const char *name, nb_model **out, nb_err *err);
void nb_model_close(nb_model *model);
const char *nb_model_name(const nb_model *model);
unsigned nb_model_headings(const nb_model *model);
unsigned nb_model_speeds(const nb_model *model);
/* The speed level whose value is 0. */
unsigned nb_model_stop(const nb_model *model);
double nb_model_speed(const nb_model *model, unsigned level);
const char *nb_model_speed_name(const nb_model *model, unsigned level);
/* The level called name, or -1. */
int nb_model_speed_find(const nb_model *model, const char *name);
/* The largest turn, in heading steps, of an action at this speed level. */
unsigned nb_model_turn(const nb_model *model, unsigned level);
/* Levels an action may change the speed by. */
unsigned nb_model_speed_change(const nb_model *model);
/* The offset heading h steps by. */
void nb_model_offset(const nb_model *model, unsigned heading, int *dx, int *dy);
/* The largest |speed|: the octile heuristic is distance / top speed. */
double nb_model_top_speed(const nb_model *model);
double nb_model_still_cost(const nb_model *model);
double nb_model_turn_cost(const nb_model *model);
/* w_m, the extended perimeter heuristic's weight. */
double nb_model_extended_weight(const nb_model *model);
/* The cells (relative to the start cell) that a step of heading h passes
 * through, the end cell last; the start cell is not listed.  A step is
 * legal when its start cell and all of these are standable (backward
 * steps use the same cells negated).  Returns how many. */
unsigned nb_model_sweep(const nb_model *model, unsigned heading, const int8_t **cells);

/* A state of a motion-constrained agent: its cell, heading and speed level.
 * A goal's heading may be NB_HEADING_ANY: stop at the cell, facing
 * anywhere; with its speed NB_SPEED_ANY too, pass through the cell. */
#define NB_HEADING_ANY 0xffffu
#define NB_SPEED_ANY 0xffffu
typedef struct nb_motion_state {
    int32_t x, y;
    uint16_t heading, speed;
} nb_motion_state;

/* Abstract perimeter heuristic tables (perimeter.c; formats/motion.md):
 * the exact cost-to-goal on an empty map of every state within R cells
 * (Chebyshev) of a goal, built by mkperim. */
typedef struct nb_perimeter nb_perimeter;

enum nb_perimeter_layout {
    NB_PERIM_FULL = 0,          /* a table per goal heading and speed */
    NB_PERIM_SPEED_LIMITED = 1, /* a table per goal heading, goals stopped */
    NB_PERIM_SYMMETRIC = 2,     /* a table per class of goal headings under
                                 * 90-degree rotations and reflections */
    NB_PERIM_ROTATED = 3        /* one table, goal facing heading 0; other
                                 * goals through a (virtual) rotation */
};

/* What a lookup answered. */
#define NB_PERIM_OUTSIDE 0 /* the state is beyond the table, or the goal has none */
#define NB_PERIM_EXACT 1   /* the exact empty-map cost (to the entry encoding) */
#define NB_PERIM_APPROX 2  /* from a rotated table at an angle that is not a
                            * multiple of 90 degrees: not admissible */

/* Opens the perimeter table of a model (the section named as the model).
 * Checks that the table was built from this model's definition. */
nb_status nb_perimeter_open(const nb_bundle *bundle, const nb_model *model, nb_perimeter **out,
                            nb_err *err);
void nb_perimeter_close(nb_perimeter *perimeter);
unsigned nb_perimeter_radius(const nb_perimeter *perimeter);
int nb_perimeter_layout(const nb_perimeter *perimeter);
/* "full", "speed-limited", "symmetric", "rotated". */
const char *nb_perimeter_layout_name(int layout);
/* The cost from state s to goal g on an empty map, in *value; returns
 * NB_PERIM_OUTSIDE, _EXACT or _APPROX.  For a goal at NB_HEADING_ANY
 * (stopped), the least over its headings (one look-up when mkperim made
 * the table for such goals). */
int nb_perimeter_lookup(const nb_perimeter *perimeter, const nb_motion_state *s,
                        const nb_motion_state *g, double *value);
/* The extended heuristic: the table within R; from R to 2R, w_m times
 * the table at half the offset (not admissible: the paper's margin of
 * error); beyond 2R, NB_PERIM_OUTSIDE. */
int nb_perimeter_extended(const nb_perimeter *perimeter, const nb_motion_state *s,
                          const nb_motion_state *g, double *value);

/* Motion-constrained search (motion.c, griddist.c, sectors.c). */
enum nb_motion_heuristic {
    NB_MH_OCTILE = 0,         /* straight-line distance / top speed */
    NB_MH_PERIMETER = 1,      /* the perimeter table, octile beyond it */
    NB_MH_EXTENDED = 2,       /* the extended perimeter heuristic */
    NB_MH_GRID = 3,           /* obstacle-aware distance / top speed */
    NB_MH_PERIMETER_GRID = 4, /* max(perimeter, grid) */
    NB_MH_EXTENDED_GRID = 5   /* max(extended, grid) */
};
#define NB_MH_COUNT 6
/* "octile", "perimeter", "extended", "grid", "perimeter+grid", "extended+grid". */
const char *nb_motion_heuristic_name(int heuristic);
/* The heuristic called name, or -1. */
int nb_motion_heuristic_parse(const char *name);

typedef struct nb_motion_ws nb_motion_ws;

/* A workspace for searches of one model by an agent of size size (cells
 * a side, anchored at its top-left cell) and capability cap on the
 * bundle's map; perimeter may be NULL.  Everything a search needs is
 * allocated here (and grown, rarely, by a search that needs more than
 * any before it).  With sector > 0 the sector abstraction for routes is
 * built too (sectors of sector x sector cells). */
nb_status nb_motion_ws_new(const nb_bundle *bundle, const nb_model *model,
                           const nb_perimeter *perimeter, nb_capability cap, unsigned size,
                           unsigned sector, nb_motion_ws **out, nb_err *err);
void nb_motion_ws_free(nb_motion_ws *ws);
/* 1 when the agent may stand at (x, y). */
int nb_motion_standable(const nb_motion_ws *ws, long x, long y);
/* 1 when the step from s by action (turn, new speed level) is legal; the
 * state it reaches and its cost in *to and *cost. */
int nb_motion_step(nb_motion_ws *ws, const nb_motion_state *s, int turn, unsigned speed,
                   nb_motion_state *to, double *cost);

typedef struct nb_motion_query {
    nb_motion_state start, goal;
    int heuristic;           /* NB_MH_* */
    double weight;           /* 1 for A*; > 1 weighted A* (f = g + w h) */
    unsigned truncate;       /* 0: reach the goal state; k: stop at the first
                              * expanded state within k cells (Chebyshev) of
                              * the goal's cell */
    uint64_t max_expansions; /* 0: no limit */
    int reopen;              /* re-open closed states found cheaper: 1, 0, or
                              * -1 for the default (only when weight is 1) */
    int waypoint_heading;    /* routes: 0 (default) intermediate goals at any
                              * heading; 1 facing the way the abstract path
                              * enters them (the paper's setup) */
} nb_motion_query;

typedef struct nb_motion_result {
    int found;               /* 1 when a path was found */
    int limited;             /* 1 when max_expansions stopped the search */
    double cost;             /* the path's cost (time) */
    double h_start;          /* the heuristic at the start */
    uint64_t expanded, generated, reopened;
    uint64_t grid_expanded;  /* cells expanded by the grid heuristic's search */
    size_t length;           /* states on the path, start and end included */
    nb_motion_state end;     /* the state reached */
} nb_motion_result;

/* Sets a query's defaults: octile, weight 1, no truncation, no limit. */
void nb_motion_query_init(nb_motion_query *q);
/* Plans from q->start to q->goal.  NB_OK with r->found 0 when there is
 * no path (or the limit stopped the search); an error for a bad query
 * (a state off the map or not standable, a heuristic whose table is
 * missing). */
nb_status nb_motion_plan(nb_motion_ws *ws, const nb_motion_query *q, nb_motion_result *r,
                         nb_err *err);
/* The last plan's (or route's) path, valid until the next search. */
const nb_motion_state *nb_motion_path(const nb_motion_ws *ws, size_t *length);

/* Long paths: an abstract path over sectors, refined segment by segment
 * (each segment reaches `segment` sectors ahead; an intermediate goal is
 * the abstract node's cell, stopped, at any heading, and uses
 * q->truncate; the last segment reaches q->goal as q asks).  step, when
 * not NULL, is called with each segment's result.  r sums the segments
 * (expanded and generated) and gives the whole path's cost. */
typedef void (*nb_motion_step_fn)(void *ctx, const nb_motion_result *segment);
nb_status nb_motion_route(nb_motion_ws *ws, const nb_motion_query *q, unsigned segment,
                          nb_motion_step_fn step, void *ctx, nb_motion_result *r,
                          size_t *segments, nb_err *err);

/* ------------------------------------------------------------------ */
/* Curves, Directional A* and smoothing (curve.c, directional.c)       */

/* ------------------------------------------------------------------ */
/* Round obstacles (forest.c)                                          */

#ifdef __cplusplus
}
#endif

#endif /* NAVBAKE_H */
