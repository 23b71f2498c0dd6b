/* navbake.h: the navbake runtime, the library a game links.
 *
 * A bundle is one file that offline tools (mkclear, mkabstract, mkperim,
 * mkhitcheck) bake from a level; the runtime maps it read-only and answers
 * queries from it.  The conventions every call keeps (navbake(3) has them
 * in full):
 *
 *  - Every function that can fail returns an nb_status and, when given a
 *    non-NULL nb_err, fills it with the same code and a message naming the
 *    file, offset or line and what was expected; on success it clears it.
 *  - A query that could be answered returns NB_OK, and its result's status
 *    (nb_path_status) says whether a path was found: "no path" is never an
 *    error.  An error means the query was wrong (a cell off the map, a
 *    section the bundle lacks) or the system failed.
 *  - Objects are opaque handles made by a _open function and released by
 *    its _close (NULL is allowed).  Names mean one thing each: _find is a
 *    search (a path, a cell, a line's walk), _lookup finds an entry by its
 *    name or value and gives its index (NB_ERR_NOTFOUND, naming those
 *    there are, when none), _get reads an entry by index, _count says how
 *    many, _bytes what a handle holds in memory.  A struct the caller fills
 *    has an _init that sets its defaults.
 *  - One query shape for every search family FAM (aa, haa, sg, motion,
 *    planner, forest, nearest, line, random): a struct nb_FAM_query set by
 *    nb_FAM_query_init, whose fields have the same names for the same
 *    things (start, goal, size, capability, costs, overlay, corner,
 *    max_expansions), nb_FAM_query_agent to take an agent's size,
 *    capability and terrain costs, and nb_FAM_find with its sliced form.
 *    A query a family cannot honour (terrain costs no layer was baked for,
 *    an overlay it does not read) is refused with a status that says so,
 *    never answered as another kind of query.  The same cause gets the same
 *    status from every family: navbake(3) has the table.
 *  - No global state.  A bundle is read-only once open, so any number of
 *    threads may query one bundle, each with its own workspace.
 *  - Memory comes from the caller's allocator when one is given (to
 *    nb_bundle_open, nb_forest_open_circles), else from the C library;
 *    everything made from a bundle or forest uses its allocator.  It is
 *    allocated when a handle is opened; a query allocates only to grow its
 *    own workspace past anything asked of it before (a longer path, a
 *    larger search), and keeps what it grew.
 *  - A workspace is sized by the searches it runs, not by the map: its
 *    node storage grows with what a query touches and is kept for the
 *    next one, so making one costs the same on a 16384 x 16384 level as on
 *    a 512 x 512 one.  nb_FAM_set_max_nodes caps it (Detour's maxNodes; 0,
 *    the default, is no cap beyond memory) and nb_FAM_bytes says what it
 *    holds.
 *  - Budgets and slices, for every search family FAM.  A query struct has
 *    uint64_t max_expansions (0, as its _init sets it: no limit).  A search that stops there, or at the node
 *    cap, returns NB_OK with its result's status NB_PATH_LIMIT and the best
 *    partial path: from the start to the expanded node with the least
 *    heuristic to the goal (ties: the least cost from the start), so that
 *    a game may move toward the goal while it asks again.  The sliced form
 *    spreads one query over frames:
 *      nb_FAM_begin(ws, query, err)            checks the query and starts
 *          it (its errors are nb_FAM_find's);
 *      nb_FAM_step(ws, expansions, &done, err) expands at most that many
 *          nodes, and sets done to 1 once the search has ended (found,
 *          exhausted, or max_expansions reached);
 *      nb_FAM_finish(ws, res, err)             writes the result: when done,
 *          exactly what nb_FAM_find would have; before, NB_PATH_LIMIT and
 *          the best partial path so far (the query ends either way).
 *    nb_FAM_find is begin, one step of UINT64_MAX and finish, through the
 *    same code, so slices of any size give find's path.  A workspace runs
 *    one query at a time: begin abandons one in progress; step or finish
 *    with none begun is NB_ERR_ARG, and an error in step ends the query.
 *    A result's path stays valid until the workspace's next begin or find.
 */
#ifndef NAVBAKE_H
#define NAVBAKE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NB_VERSION_STRING "1.0.0"
#define NB_VERSION_MAJOR 1
#define NB_VERSION_MINOR 0
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
    NB_ERR_ARG,         /* a caller's argument is malformed: NULL where a handle is needed,
                           size 0, a value not finite, an unknown flag or enum value, an
                           overlay or handle made from another bundle */
    NB_ERR_IO,          /* a system call failed (open, read, write, rename) */
    NB_ERR_NOMEM,       /* out of memory */
    NB_ERR_SYNTAX,      /* an input file (map, YAML) is malformed */
    NB_ERR_FORMAT,      /* not a bundle, or a bundle whose structure is wrong */
    NB_ERR_VERSION,     /* a bundle of a major version this reader does not know, or a
                           program compiled with another navbake.h (the ABI guard) */
    NB_ERR_CRC,         /* a checksum does not match: the bundle is damaged */
    NB_ERR_NOTFOUND,    /* the bundle holds nothing for the request: no section of the kind,
                           no layer for the agent's capability, size or corner rule, no cost
                           profile for its terrain costs, no entry of that name */
    NB_ERR_UNSUPPORTED, /* valid, but this build or this family cannot do it (an overlay
                           given to a family that does not read one; SQLite left out) */
    NB_ERR_LIMIT,       /* beyond a documented limit of the library (NB_MAP_MAX_SIDE...) */
    NB_ERR_OUTSIDE,     /* a position outside the map (or a forest's bounds or range) */
    NB_ERR_UNLOADED,    /* a world's query needs a tile that is not loaded (nb_world_load) */
    NB_ERR_MISMATCH,    /* a tile bundle that is not the one its world was linked from: its
                           digest or its tile section differs from the world's index */
    NB_ERR_CANCELLED    /* the caller cancelled it (a bake's progress callback:
                           navbake_bake.h) */
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
/* The ABI guard                                                       */

/* What navbake 1.x promises a program compiled against this header:
 *  - Every function and type of 1.0 stays, with its meaning.  A minor
 *    version only adds functions, flags, enum values (a switch over an
 *    nb_ enum needs a default) and fields at the end of the structs a
 *    query fills or a caller reads (nb_*_query, nb_*_result, nb_*_info,
 *    nb_agent, nb_unit, nb_haa_graph, nb_section_info, nb_forest_graph_info).
 *    A program built against an older 1.x header is refused with
 *    NB_ERR_VERSION naming the struct that grew, by the first call that
 *    makes a handle or inits that query (below), and works once rebuilt
 *    against the new header, unchanged: a grown struct is never read or
 *    written past the program's end of it.  (Fields are added 8 bytes at a
 *    time, so that each addition changes the struct's size: an int alone
 *    could fit in a struct's tail padding, where the guard would not see it.)  Value types (nb_cell,
 *    nb_vec2, nb_pose, nb_segment, nb_curve, nb_circle, nb_motion_state,
 *    nb_frame, nb_err, nb_allocator, nb_abi) never change within a major
 *    version.
 *  - The shared library's soname changes with the major version alone.
 * As zlib's inflateInit passes ZLIB_VERSION and sizeof(z_stream), the
 * calls that make the first handle of any program (nb_bundle_open,
 * nb_bundle_open_memory, nb_forest_open_circles, nb_world_open) and every query _init are
 * macros that pass the version and the sizes of the public structs this
 * header declares; the library refuses a mismatch with NB_ERR_VERSION and
 * a message naming the struct, rather than read or write past a struct of
 * another size.  A binding that declares the structs itself (Python's
 * ctypes, C#'s P/Invoke) fills an nb_abi with its own sizes and calls the
 * functions with the _abi suffix, or nb_abi_check first. */
typedef struct nb_abi {
    uint32_t major, minor; /* NB_VERSION_MAJOR, NB_VERSION_MINOR of the caller's header */
    uint32_t count;        /* entries of sizes */
    const uint32_t *sizes; /* sizeof each struct, in the order of NB_ABI_STRUCTS */
} nb_abi;

/* Checks a caller's ABI against the library's: NB_OK, or NB_ERR_VERSION
 * naming the first struct whose size differs (or the major version). */
nb_status nb_abi_check(const nb_abi *abi, nb_err *err);
/* The size the library gives struct number i of NB_ABI_STRUCTS, or 0. */
uint32_t nb_abi_size(unsigned i);
/* Its name ("nb_aa_query"), or NULL. */
const char *nb_abi_name(unsigned i);

/* ------------------------------------------------------------------ */
/* Memory                                                              */

/* A caller's allocator (as zlib's zalloc/zfree or Detour's dtAllocSetCustom,
 * but per bundle): alloc and realloc return memory aligned for any type, or
 * NULL when there is none; free is never given NULL.  opaque is passed to
 * each.  The allocator must stay valid while anything made with it is open;
 * calls come from the thread that opens or closes a handle, or that runs a
 * query on a workspace that grows.  Handles made from a bundle keep a
 * pointer to the bundle's copy of the allocator: close them before it. */
typedef struct nb_allocator {
    void *(*alloc)(void *opaque, size_t size);
    void *(*realloc)(void *opaque, void *ptr, size_t size);
    void (*free)(void *opaque, void *ptr);
    void *opaque;
} nb_allocator;

/* ------------------------------------------------------------------ */
/* Limits (formats/map.md, formats/legend.md, formats/agents.md)       */

#define NB_MAP_MAX_SIDE 16384      /* width and height, each */
#define NB_MAX_TERRAINS 32         /* a capability is a 32-bit mask */
#define NB_MAX_AGENTS 256          /* agent types in one agent set */
#define NB_MAX_AGENT_SIZE 64       /* cells per side of the largest agent */
#define NB_NAME_MAX 31             /* terrain, agent, model and unit names */
#define NB_MAX_COST 1e6            /* the largest terrain cost multiplier */
#define NB_ABSTRACT_MAX_CLUSTER 255 /* side of an HAA* cluster (formats/abstract.md) */
#define NB_PERIMETER_MAX_RADIUS 63  /* of a perimeter table (formats/motion.md) */

/* ------------------------------------------------------------------ */
/* Bundles                                                             */

typedef struct nb_bundle nb_bundle;

/* Section types.  Numbers are fixed forever; a reader skips types it does
 * not know.  Each is specified in formats/bundle.md (and its own page). */
typedef enum nb_section_type {
    NB_SEC_LEGEND = 1,     /* terrain names and the map characters of each */
    NB_SEC_AGENTS = 2,     /* agent types: name, size, capability */
    NB_SEC_MAP = 3,        /* the grid: one map character per cell */
    NB_SEC_CLEARANCE = 16, /* true clearance for one capability */
    NB_SEC_COMPONENTS = 17,/* reachability components for one (capability, size) */
    NB_SEC_RUNS = 18,      /* each component's cells as row runs, for random picks */
    NB_SEC_SUBGOAL = 19,   /* optimal-search layer (subgoal graph) for one (capability,
                              size, corner rule) */
    NB_SEC_ABSTRACT = 32,  /* the HAA* abstract graph */
    NB_SEC_ABSTRACT_COSTS = 33, /* the abstract graph's arc costs for one terrain-cost profile */
    NB_SEC_ABSTRACT_LEVELS = 34, /* the abstract graph's higher levels (clusters of clusters) */
    NB_SEC_MODEL = 48,     /* a motion model */
    NB_SEC_PERIMETER = 49, /* a perimeter heuristic table for one model */
    NB_SEC_UNIT = 64,      /* a unit with a turning radius */
    NB_SEC_HITCHECK = 65,  /* hit-check bitsets for one unit */
    NB_SEC_CURVES = 66,    /* curve heuristic table for one unit */
    NB_SEC_FOREST = 80,    /* round obstacles */
    NB_SEC_BITANGENT = 81, /* bitangent graph for one agent radius */
    NB_SEC_TILE = 96,      /* a world's tile: where the bundle's map lies in the world,
                              and the digests of what it was baked from */
    NB_SEC_BORDER = 97,    /* a tile's border for one (capability, size): the components
                              of the cells on both sides of its edges */
    NB_SEC_WORLD = 98,     /* a world's index of tiles, with each tile bundle's digest */
    NB_SEC_WORLD_COMPONENTS = 99, /* world-wide components for one (capability, size):
                              each tile's component numbers to the world's */
    NB_SEC_BORDER_GRAPH = 100, /* a tile's HAA* nodes on its edges for one (capability,
                              size), with their distances inside the tile */
    NB_SEC_WORLD_GRAPH = 101, /* the HAA* graph above a world's tiles for one (capability,
                              size): the tiles' edge nodes, joined */
    NB_SEC_WORLD_LANDMARKS = 102, /* landmarks on a world's HAA* graph for one (capability,
                              size): each node's distance to a few of them (ALT) */
    NB_SEC_BORDER_OPT = 103, /* a tile's cells on its edges for the optimal layer across
                              tiles, one (capability, size, corner rule): their distances
                              inside the tile, packed */
    NB_SEC_WORLD_OPT = 104, /* a world bundle's: every tile's border_opt, joined by the
                              moves between tiles (navbake world link) */
    NB_SEC_WORLD_BLOCKS = 105, /* a level above a world's HAA* graph for one (capability,
                              size): blocks of tiles, their border nodes and the distances
                              between them inside each block */
    NB_SEC_TILE_INSERT = 106 /* a tile's table for inserting a query's end, one (capability,
                              size): blocks of clusters, their border nodes' distances to
                              the tile's portals */
} nb_section_type;

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
#define NB_OPEN_VERIFY 0x1u  /* also make nb_bundle_verify's checks: every CRC and every
                                section's structure, as a query would check it */
#define NB_OPEN_PRIVATE 0x2u /* read the file into memory instead of mapping it */

/* Opens a bundle file read-only.  The binary form is mapped (mmap, or
 * MapViewOfFile on Windows, where path is UTF-8) and its header and
 * section table are checked against the file's real size before any offset
 * is used; a zlib-encoded section is inflated here (and its CRC checked on
 * the way).  "-" reads standard input into memory.
 * An SQLite bundle (formats/sqlite.md) is read into memory and checked as
 * its binary form would be; a library built without SQLite support refuses
 * one with NB_ERR_UNSUPPORTED.  alloc (NULL: the C library's) serves the
 * bundle and everything opened on it.  *out is NULL after a failure.
 *
 * A mapped file must not be changed in place while the bundle is open
 * (written into, as with dd conv=notrunc, or truncated): the checks made at
 * open no longer hold for what the queries then read, and the behaviour is
 * undefined (a crash is possible).  The navbake tools never do that: they
 * write a new file and rename it into place, and an open bundle keeps the
 * old file.  NB_OPEN_PRIVATE reads the whole file into memory from alloc
 * instead, so that nothing done to the file afterwards reaches the bundle,
 * at the cost of reading it all at open and keeping the copy.
 *
 * nb_bundle_open is a macro (the ABI guard above) for nb_bundle_open_abi
 * with this header's nb_abi: NB_ERR_VERSION when the program was compiled
 * with another navbake.h. */
nb_status nb_bundle_open_abi(const char *path, unsigned flags, const nb_allocator *alloc,
                             nb_bundle **out, nb_err *err, const nb_abi *abi);

/* The same from a buffer in memory, which is copied (so NB_OPEN_PRIVATE,
 * allowed, changes nothing). */
nb_status nb_bundle_open_memory_abi(const void *data, size_t len, unsigned flags,
                                    const nb_allocator *alloc, nb_bundle **out, nb_err *err,
                                    const nb_abi *abi);

/* Unmaps and frees; NULL is allowed. */
void nb_bundle_close(nb_bundle *bundle);

/* Checks every CRC, that sections do not overlap, that every byte between
 * them is zero, that the map's characters are in its legend, and every
 * section's structure as its reader checks it before a query trusts it
 * (each reader also checks its own when a query first reads it, once per
 * bundle; a check made here is not made again): NB_OK only when the whole
 * file is intact and every query will accept it.  `navbake verify` makes
 * these checks. */
nb_status nb_bundle_verify(const nb_bundle *bundle, nb_err *err);

void nb_bundle_format_version(const nb_bundle *bundle, unsigned *major, unsigned *minor);
uint64_t nb_bundle_file_size(const nb_bundle *bundle);
size_t nb_bundle_section_count(const nb_bundle *bundle);
/* The index-th entry of the section table, or NULL past the end. */
const nb_section_info *nb_bundle_section_get(const nb_bundle *bundle, size_t index);

/* The index of the first section of this type whose name equals name (any
 * name when NULL) and whose first nparams parameters equal params, in
 * *index; NB_ERR_NOTFOUND when there is none. */
nb_status nb_bundle_section_lookup(const nb_bundle *bundle, uint32_t type, const char *name,
                                   const uint32_t *params, size_t nparams, size_t *index,
                                   nb_err *err);

/* The section's payload once decoded (inflated when zlib-encoded), valid
 * until nb_bundle_close. */
nb_status nb_bundle_payload(const nb_bundle *bundle, size_t index, const void **data,
                            size_t *len, nb_err *err);

/* "map", "clearance", ... or NULL for a type this library does not know. */
const char *nb_section_type_name(uint32_t type);
/* The type with this name in *type; NB_ERR_NOTFOUND, naming the types
 * there are, when none has it. */
nb_status nb_section_type_parse(const char *name, uint32_t *type, nb_err *err);
/* What param[i] of a section of this type means ("capability", "size"), or
 * NULL when unused. */
const char *nb_section_param_name(uint32_t type, unsigned i);
/* info->param[i] as its name means it in this version of the section: the
 * stored value, or, for a parameter an older version did not store, the
 * value that version always had (a hit-check table of version 1 holds
 * every candidate: all_curves 1).  0 past NB_SECTION_PARAMS. */
uint32_t nb_section_param(const nb_section_info *info, unsigned i);
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
    uint32_t size;          /* cells per side; the agent's top-left cell (its anchor) is its
                               position: nb_anchor_of_centre converts a game's centre */
    nb_capability capability;
    /* Terrain costs (the agent set's `costs`, formats/agents.md): when
     * weighted is 1, cost[t] is the multiplier of terrain t, finite, from
     * 1 to NB_MAX_COST, and 1 for the terrains outside the capability; 0:
     * every terrain costs 1 (an agent read from a bundle then has every
     * cost[t] 1; one a program makes may leave cost[] zero).
     * nb_FAM_query_agent passes them to a query. */
    int weighted;
    double cost[NB_MAX_TERRAINS];
} nb_agent;

size_t nb_agent_count(const nb_bundle *bundle);
/* The index-th agent of the set, or NULL past the end. */
const nb_agent *nb_agent_get(const nb_bundle *bundle, size_t index);
/* The index of the agent called name in *index; NB_ERR_NOTFOUND, naming
 * the agents there are, when none is. */
nb_status nb_agent_lookup(const nb_bundle *bundle, const char *name, size_t *index, nb_err *err);

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
/* Clearance and reachability (lib/runtime/clearance/)                 */

/* A cell of the map: column x, row y, (0, 0) the top-left. */
typedef struct nb_cell {
    int32_t x, y;
} nb_cell;

/* A point: in cells on a grid (cell (x, y) is the square [x, x + 1) x
 * [y, y + 1), y down), in world units in a forest (y up). */
typedef struct nb_vec2 {
    double x, y;
} nb_vec2;

/* Positions.  An agent of size s stands at its anchor, its top-left cell
 * (x, y): it covers the s x s cells from there, and its centre is the
 * point (x + s/2, y + s/2) in cells.  A game keeps its units' centres in
 * its own world coordinates; a frame says how the world lies on the grid,
 * and the two helpers below convert (nb_anchor_of_centre(3) has the
 * picture).  A NULL frame is the grid's own: world units are cells, y
 * down, the origin at the map's top-left corner. */
typedef struct nb_frame {
    double origin_x, origin_y; /* the world position of the map's top-left corner */
    double cell;               /* a cell's side in world units, > 0 */
    int y_up;                  /* 1: the world's y grows upwards, so rows go down as y falls */
} nb_frame;

/* The grid's own frame: origin (0, 0), cell 1, y down. */
void nb_frame_init(nb_frame *frame);
/* The anchor cell of an agent of this size whose centre is at centre (world
 * units of frame): the cell whose s x s square is centred nearest it
 * (halves round up, toward larger x and y in cells).  The cell may lie off
 * the map: a query then says NB_ERR_OUTSIDE.  size 0 counts as 1. */
nb_cell nb_anchor_of_centre(const nb_frame *frame, nb_vec2 centre, unsigned size);
/* The centre, in world units of frame, of an agent of this size anchored at
 * anchor: the inverse of nb_anchor_of_centre. */
nb_vec2 nb_centre_of_anchor(const nb_frame *frame, nb_cell anchor, unsigned size);

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
/* Runtime obstacles (lib/runtime/overlay/)                            */

/* An overlay holds cells blocked at run time (a door shut, a bridge down,
 * a unit parked) beside a read-only bundle: the bundle never changes.
 * Annotated A*, HAA*, the optimal-search layer and the places (nearest,
 * line, random) take one in their query (nb_aa_query.overlay,
 * nb_sg_query.overlay...; NULL: none) and answer as the same query would
 * on a bundle baked from the map with those cells made hard obstacles
 * (navbake(3), nb_overlay_open(3)).
 *
 * A cell is blocked or not (a set, not a count): blocking a blocked cell
 * changes nothing, and unblocking takes away the overlay's block alone, so
 * a wall of the map stays a wall.  A change costs what it touches: the
 * cells changed and the band above and left of them up to the largest
 * agent size the bundle serves, and HAA*'s clusters within a cell of that
 * band, whose entrances, transitions and intra-edges it makes again on the
 * edited map and holds (HAA* searches them in place of the baked ones),
 * whatever the map's size.
 *
 * Threads: queries only read an overlay, so any number of them may use one
 * at once while nothing changes it.  A writer prepares the next version in
 * another overlay (nb_overlay_clone of the current, then its changes),
 * publishes it to the readers (a pointer swap under the game's own lock or
 * at a frame boundary), and closes or reuses the old one once the last
 * query that read it has returned. */

typedef struct nb_overlay nb_overlay;

/* An overlay with no cell blocked, for this bundle's map (the bundle must
 * stay open while it is used).  Its memory is a directory of the map's
 * 64 x 64 tiles (10 bytes each with 64-bit pointers) and 4 KB for each
 * tile that a block reaches; it comes from the bundle's allocator. */
nb_status nb_overlay_open(const nb_bundle *bundle, nb_overlay **out, nb_err *err);
void nb_overlay_close(nb_overlay *overlay);
/* A copy of src, for a writer to change while readers use src. */
nb_status nb_overlay_clone(const nb_overlay *src, nb_overlay **out, nb_err *err);
/* Blocks, or unblocks, the w x h cells whose top-left cell is (x, y); the
 * rectangle must lie inside the map (NB_ERR_ARG otherwise).  An agent's
 * footprint is the rectangle (x, y, size, size) of its top-left cell.
 * NB_ERR_NOMEM leaves the overlay as it was. */
nb_status nb_overlay_block(nb_overlay *overlay, long x, long y, long w, long h, nb_err *err);
nb_status nb_overlay_unblock(nb_overlay *overlay, long x, long y, long w, long h, nb_err *err);
/* The same for a list of cells (all checked before any changes). */
nb_status nb_overlay_block_cells(nb_overlay *overlay, const nb_cell *cells, size_t n, nb_err *err);
nb_status nb_overlay_unblock_cells(nb_overlay *overlay, const nb_cell *cells, size_t n,
                                   nb_err *err);
/* Unblocks every cell. */
void nb_overlay_clear(nb_overlay *overlay);
/* 1 when the overlay blocks (x, y); 0 when not or outside the map. */
int nb_overlay_blocked(const nb_overlay *overlay, long x, long y);
/* Cells blocked. */
uint64_t nb_overlay_blocked_count(const nb_overlay *overlay);
/* The bytes the overlay holds. */
size_t nb_overlay_bytes(const nb_overlay *overlay);
/* nb_can_stand on the map as the overlay leaves it. */
int nb_overlay_can_stand(const nb_overlay *overlay, nb_capability cap, unsigned size, long x,
                         long y);
/* nb_reachable under the overlay, answered from the bundle's component
 * layer without a search: 0 when the bundle's components keep the cells
 * apart or the agent cannot stand at one of them (blocks only take cells
 * away), 1 when they are joined and the overlay blocks nothing, and
 * NB_REACH_UNKNOWN when they are joined on the bundle but the overlay
 * blocks cells, which may cut them apart: nb_haa_reachable tells exactly,
 * by a search over HAA*'s graph as the overlay repaired it.  -1 as
 * nb_reachable. */
#define NB_REACH_UNKNOWN 2
int nb_overlay_reachable(const nb_overlay *overlay, nb_capability cap, unsigned size, nb_cell from,
                         nb_cell to);

/* ------------------------------------------------------------------ */
/* Paths                                                               */

/* What a query found.  Every query family reports it the same way: NB_OK
 * and one of these in its result's status. */
typedef enum nb_path_status {
    NB_PATH_FOUND = 0,
    NB_PATH_NONE,          /* start and goal are not joined (a line: blocked on the way;
                              nearest and random: no standable cell on the whole map) */
    NB_PATH_START_BLOCKED, /* the agent cannot be at the start */
    NB_PATH_GOAL_BLOCKED,  /* nor at the goal */
    NB_PATH_LIMIT,         /* the budget stopped the search first (the query's
                              max_expansions or the workspace's node cap): the result holds
                              the best partial answer */
    NB_PATH_BEYOND_RADIUS, /* nearest: no cell within the radius (there may be one beyond) */
    NB_PATH_PARTIAL        /* a query that asked for a partial path (its field
                              partial) and whose goal no path reaches: the path leads to
                              the reachable cell nearest the goal (octile distance; ties:
                              the least y, then the least x), as Detour's
                              DT_PARTIAL_RESULT */
} nb_path_status;

/* "found", "no path", "start blocked", "goal blocked", "stopped at its
 * budget", "none within the radius", "partial: the reachable cell nearest
 * the goal". */
const char *nb_path_status_str(nb_path_status status);

/* ------------------------------------------------------------------ */
/* Annotated A* (lib/runtime/clearance/aastar.c)                       */

/* Annotated A* (Harabor and Botea, CIG 2008, section V): A* over the cells
 * where an agent of a given size and capability may stand (true clearance
 * >= size, read from the bundle's clearance layer at every expansion).
 * Octile moves: cardinal cost 1, diagonal cost sqrt(2), each times the
 * terrain multiplier of the cell entered when the query has costs; the
 * octile distance (times the least multiplier among the capability's
 * terrains) is the heuristic, so paths are of least cost.  A query whose start
 * and goal lie in different components (when the bundle has the component
 * layer for the agent) is answered without a search.
 *
 * A workspace is made once per bundle and thread and reused by every
 * query.  Its node storage follows the searches, not the map: pages of
 * 16 bytes per cell for each 32 x 32 tile of cells a search reaches, made
 * by the first search that needs them and reused by the next (a query
 * allocates only to grow it past anything asked before); a new workspace
 * holds about 1.5 MB on a 16384 x 16384 map.  Several threads may search
 * one bundle, each with its own workspace. */

typedef struct nb_aa nb_aa;

/* When a diagonal step is allowed. */
typedef enum nb_corner {
    NB_CORNER_STRICT = 0, /* both cardinal neighbours standable: no corner cutting
                             (the default, what MovingAI's optimal lengths assume) */
    NB_CORNER_WEAK = 1    /* at least one: the paper's rule, "an equivalent two-step
                             move using cardinal directions" exists */
} nb_corner;

typedef struct nb_aa_query {
    nb_cell start, goal;      /* the agent's top-left cell at each end */
    uint32_t size;            /* the agent covers size x size cells, 1 or more */
    nb_capability capability; /* the bundle must hold a clearance layer for it */
    nb_corner corner;
    uint64_t max_expansions;  /* 0: no limit (HAA*: of its searches together) */
    /* Terrain costs: the multiplier of each terrain by number (an agent's
     * nb_agent.cost, nb_terrain_count entries read), or NULL: every
     * terrain costs 1.  A move costs its length (1 or sqrt 2) times the
     * largest multiplier among the terrains under the agent's size x size
     * square at the cell it enters.  Those of the capability's terrains
     * must be finite and at least 1; the others are not read. */
    const double *costs;
    const nb_overlay *overlay; /* cells blocked at run time, made from the same bundle;
                                  NULL (the default): none; HAA* checks its path against it */
    /* 1: when no path reaches the goal (a goal blocked, walled off, or
     * cut off by the overlay), the path to the reachable cell nearest it,
     * NB_PATH_PARTIAL; 0 (the default): NB_PATH_NONE or _GOAL_BLOCKED. */
    int partial;
} nb_aa_query;

/* Sets a query's defaults: size 1, the strict corner rule, (0, 0) to
 * (0, 0), capability 0 (which no bundle serves: set it), no limit, no
 * terrain costs, no overlay.  A macro (the ABI guard): NB_ERR_VERSION,
 * and q left as it was, when the program's navbake.h is another. */
nb_status nb_aa_query_init_abi(nb_aa_query *q, const nb_abi *abi);
/* Sets a query's size, capability and terrain costs to the agent's
 * (q->costs then points into *agent, which must outlive the query; NULL
 * when the agent has none). */
void nb_aa_query_agent(nb_aa_query *q, const nb_agent *agent);

typedef struct nb_aa_result {
    nb_path_status status;
    double length;        /* of the path: cardinal steps + sqrt(2) x diagonal */
    double cost;          /* of the path under the query's terrain costs: its moves'
                             lengths times their multipliers; equal to length when
                             every multiplier is 1 */
    uint64_t expanded;    /* nodes taken off the open list (goal included) */
    int searched;         /* 0 when answered without a search */
    size_t path_len;      /* cells of the path, start and goal included; 0 when none */
    const nb_cell *path;  /* in the workspace: valid until its next begin or find.
                             NB_PATH_FOUND: start to goal; NB_PATH_LIMIT: the best
                             partial path, start to the expanded cell nearest the goal */
} nb_aa_result;

/* A workspace for searches on this bundle's map (which must be open for
 * as long as the workspace is used). */
nb_status nb_aa_open(const nb_bundle *bundle, nb_aa **out, nb_err *err);
void nb_aa_close(nb_aa *ws);
/* Caps the cells one search may reach (Detour's maxNodes): a search that
 * would reach one more ends with NB_PATH_LIMIT.  0 (the default): no cap
 * beyond memory.  Applies from the next nb_aa_begin or nb_aa_find. */
void nb_aa_set_max_nodes(nb_aa *ws, uint64_t max_nodes);
/* The bytes the workspace holds now. */
size_t nb_aa_bytes(const nb_aa *ws);
/* Finds a path of least cost.  NB_OK with res->status saying whether there
 * is one (NB_PATH_LIMIT: max_expansions or the node cap stopped the search
 * first; res->path is then the best partial path); an error for a bad
 * query (NB_ERR_ARG: size 0, an unknown corner rule, terrain costs that are
 * not finite or below 1, an overlay of another bundle; NB_ERR_OUTSIDE: an
 * end off the map), an agent the bundle does not serve (NB_ERR_NOTFOUND: no
 * clearance layer for the capability, or a size beyond its cap), or no
 * memory to grow the workspace (NB_ERR_NOMEM). */
nb_status nb_aa_find(nb_aa *ws, const nb_aa_query *query, nb_aa_result *res, nb_err *err);
/* The same query in slices (the convention at the top of this header):
 * begin checks it and starts it, with find's errors; step expands at most
 * expansions nodes and sets *done once the search has ended; finish
 * writes what find would have, or before *done NB_PATH_LIMIT and the best
 * partial path so far. */
nb_status nb_aa_begin(nb_aa *ws, const nb_aa_query *query, nb_err *err);
nb_status nb_aa_step(nb_aa *ws, uint64_t expansions, int *done, nb_err *err);
nb_status nb_aa_finish(nb_aa *ws, nb_aa_result *res, nb_err *err);

/* ------------------------------------------------------------------ */
/* Optimal paths from a baked subgoal graph (lib/runtime/subgoal/)     */

/* The optimal-search layer mkclear --optimal bakes for each (capability,
 * size) of the agent set and each corner rule asked for
 * (formats/subgoal.md): the subgoals of the cells where that agent may
 * stand (the corners its shortest paths bend round; Uras, Koenig and
 * Hernandez, ICAPS 2013) and the graph of the pairs a straight octile
 * walk joins, with a contraction hierarchy over it.  A query joins its two
 * ends to the subgoals a scan of the grid's bitmaps reaches, searches the
 * hierarchy from both ends, and walks the subgoal path back into cells.
 * Paths are optimal for the same moves and corner rules as Annotated A*
 * (the same lengths, not always the same cells).
 *
 * Queries follow Annotated A*'s conventions, with an expansion budget and
 * a sliced form (begin, step, finish) for spreading one query over frames.
 * A workspace reads the bundle's layers in place; its own memory grows
 * with what a query touches (subgoals reached, the path's cells), never
 * with the map, up to max_nodes if one is set, and is kept for the next
 * query.  Several threads may query one bundle, each with its own
 * workspace. */

typedef struct nb_sg nb_sg;

typedef struct nb_sg_query {
    nb_cell start, goal;      /* the agent's top-left cell at each end */
    uint32_t size;            /* the agent covers size x size cells, 1 or more */
    nb_capability capability; /* the bundle must hold a layer for (capability, size, corner) */
    nb_corner corner;
    uint64_t max_expansions;  /* 0: no limit */
    /* Terrain costs, as nb_aa_query's (NULL, or all 1: none).  The layers
     * mkclear --optimal bakes are for shortest paths: a query with other
     * costs is refused with NB_ERR_NOTFOUND (no layer for that cost
     * profile), never answered with a shortest path. */
    const double *costs;
    const nb_overlay *overlay; /* cells blocked at run time (NULL: none); see nb_sg_find */
    int partial;               /* as nb_aa_query's: NB_PATH_PARTIAL */
    /* 1: the answer is its turning points alone (res->waypoints, start and
     * goal included) and its length, without the cells between them
     * (path_len 0, path NULL), which skips walking the path into cells.
     * Each turning point is joined to the next by a straight octile walk:
     * the diagonal moves first where the grid allows, else the cardinal
     * moves first; walking them so gives the path nb_sg_find returns
     * without the flag. */
    int waypoints_only;
} nb_sg_query;

/* Sets a query's defaults: size 1, the strict corner rule, no limit,
 * (0, 0) to (0, 0), capability 0 (which no bundle serves: set it), no
 * costs, no overlay.  A macro, as nb_aa_query_init. */
nb_status nb_sg_query_init_abi(nb_sg_query *q, const nb_abi *abi);
/* Sets a query's size, capability and terrain costs to the agent's, as
 * nb_aa_query_agent. */
void nb_sg_query_agent(nb_sg_query *q, const nb_agent *agent);

typedef struct nb_sg_result {
    nb_path_status status;
    double length;          /* of the path when found (or of the partial path at the limit) */
    uint64_t expanded;      /* graph nodes settled, both directions */
    uint64_t scanned;       /* subgoals the scans of the two ends reached */
    int searched;           /* 0 when answered without a graph search (different
                               components, the same cell, or a straight octile walk) */
    size_t path_len;        /* cells of the path, start and goal included; 0 when none */
    const nb_cell *path;    /* in the workspace: valid until its next begin or find */
    size_t waypoint_len;    /* the path's turning points: start, subgoals, goal */
    const nb_cell *waypoints; /* each joined to the next by a straight octile walk */
    int fallback;           /* 1 when the layer could not serve the query and Annotated A*
                               over the map answered it (never with the default budget of
                               the search round an overlay's blocks) */
    double cost;            /* of the path under the query's terrain costs, as nb_aa_result's
                               (equal to length when every multiplier is 1) */
} nb_sg_result;

/* A workspace for queries on this bundle (which must stay open while it is
 * used).  Every subgoal layer of the bundle is checked here, once
 * (NB_ERR_FORMAT naming the section and what is wrong); NB_ERR_NOTFOUND
 * when the bundle holds none. */
nb_status nb_sg_open(const nb_bundle *bundle, nb_sg **out, nb_err *err);
void nb_sg_close(nb_sg *ws);
/* Caps the graph nodes one query may touch (Detour's maxNodes): a query
 * that reaches it ends with NB_PATH_LIMIT.  0 (the default): no cap beyond
 * memory.  Applies from the next nb_sg_begin or nb_sg_find. */
void nb_sg_set_max_nodes(nb_sg *ws, uint64_t max_nodes);
/* Finds a shortest path: nb_sg_begin, nb_sg_step without a limit of its
 * own, nb_sg_finish.  NB_OK with res->status saying whether there is one;
 * an error for a bad query (NB_ERR_ARG: size 0, an unknown corner rule, an
 * overlay of another bundle; NB_ERR_OUTSIDE: an end off the map) or an
 * agent the bundle has no layer for (NB_ERR_NOTFOUND, naming those it has:
 * a capability, size or corner rule not baked, or terrain costs). */
nb_status nb_sg_find(nb_sg *ws, const nb_sg_query *query, nb_sg_result *res, nb_err *err);
/* The sliced form.  begin checks the query (its errors are find's), joins
 * both ends to the graph and starts the search, abandoning any query in
 * progress; step expands at most expansions nodes and sets *done to 1 when
 * the search has ended (found, exhausted, or at max_expansions or
 * max_nodes); finish writes the result: when done, what find returns;
 * before, NB_PATH_LIMIT with the best partial path so far (the search then
 * ends).  step or finish with no query begun is NB_ERR_ARG. */
nb_status nb_sg_begin(nb_sg *ws, const nb_sg_query *query, nb_err *err);
nb_status nb_sg_step(nb_sg *ws, uint64_t expansions, int *done, nb_err *err);
nb_status nb_sg_finish(nb_sg *ws, nb_sg_result *res, nb_err *err);
/* Bytes the workspace holds now (what its queries have grown it to). */
size_t nb_sg_bytes(const nb_sg *ws);

/* ------------------------------------------------------------------ */
/* HAA* (lib/runtime/abstract/haa.c)                                   */

/* Hierarchical Annotated A* (Harabor and Botea, CIG 2008, section VIII)
 * on the abstract graph mkabstract bakes (formats/abstract.md).  A query
 * is the same as Annotated A*'s, for an agent whose (capability, size)
 * the graph serves (every pair of the bundle's agent set).  Start and
 * goal are joined to the abstract nodes of their clusters by one
 * Dijkstra each, inside the cluster, for the agent's own capability and
 * size; A* then runs on the abstract graph, taking only the edges whose
 * annotation admits the agent (the edge's capability within the agent's,
 * its clearance at least the agent's size), with the octile distance as
 * heuristic; each abstract edge is then refined into cells (a step across
 * a border, a stored path, or an A* inside the cluster), and the cell
 * path is cut wherever it comes back to a cell it has passed.
 *
 * A query with terrain costs plans on the graph's costs for its cost
 * profile (the agent's capability, size and multipliers; mkabstract bakes
 * them for each agent of the set with costs: formats/abstract.md): every
 * search counts a move as Annotated A* does, the heuristic is the octile
 * distance times the least multiplier, and the path costs at least the
 * least cost.  Costs that are all 1 are no costs.
 *
 * On a graph of any quality HAA* finds a path exactly when Annotated A*
 * does; the path is valid for the agent cell by cell, but not always the
 * shortest.  A workspace is made once per bundle and thread and reused by
 * every query.  What it holds is sized by the graph's cluster and by what
 * queries touch, not by the map: the abstract search keeps its nodes in
 * pages made as it reaches them (a query allocates only to grow them past
 * anything asked before), and the graph is checked once per bundle, at
 * its first workspace, so that making another costs its own arrays only.
 * Several threads may query one bundle, each with its own workspace. */

typedef struct nb_haa nb_haa;

/* A query: Annotated A*'s fields, the same names for the same things, and
 * flags. */
typedef struct nb_haa_query {
    nb_cell start, goal;       /* the agent's top-left cell at each end */
    uint32_t size;             /* the agent covers size x size cells, 1 or more */
    nb_capability capability;  /* one the abstract graph serves (the agent set's) */
    nb_corner corner;
    uint64_t max_expansions;   /* 0: no limit; else of its searches together */
    const double *costs;       /* terrain costs, as nb_aa_query's: the graph's costs for the
                                  agent's profile must be baked (mkabstract) */
    const nb_overlay *overlay; /* cells blocked at run time, NULL: none */
    unsigned flags;            /* NB_HAA_SMOOTH, NB_HAA_STRAIGHTEN */
    int partial;               /* as nb_aa_query's: NB_PATH_PARTIAL */
} nb_haa_query;

/* Sets a query's defaults, as nb_aa_query_init, and no flags.  A macro,
 * as nb_aa_query_init. */
nb_status nb_haa_query_init_abi(nb_haa_query *q, const nb_abi *abi);
/* Sets a query's size, capability and terrain costs to the agent's, as
 * nb_aa_query_agent. */
void nb_haa_query_agent(nb_haa_query *q, const nb_agent *agent);

/* Query flags. */
#define NB_HAA_SMOOTH 0x1u     /* seed 004's simple smoothing: drop each waypoint the
                                  agent, its whole square, can skip in a straight line;
                                  the path is then waypoints, not cells */
#define NB_HAA_STRAIGHTEN 0x2u /* the same on the grid: replace runs of cells by the
                                  octile walk nearest the straight line wherever the agent
                                  may take it; the path stays cells, never longer (a query
                                  with terrain costs is left as refined) */

typedef struct nb_haa_result {
    nb_path_status status;
    double length;          /* of the path returned: octile steps, or straight segments
                               when smoothed */
    double cost;            /* of the cell path under the query's terrain costs (its moves'
                               lengths times their multipliers): cell_length without costs */
    double cell_length;     /* of the cell path (refined, straightened when asked),
                               before any smoothing */
    double abstract_length; /* the abstract path's weight (its edges' costs) */
    uint64_t expanded;      /* all nodes taken off open lists: the three below */
    uint64_t expanded_insert, expanded_search, expanded_refine;
    int searched;           /* 0 when answered without a search */
    size_t abstract_len;    /* nodes on the abstract path, start and goal included (at
                               level 1, once a higher level's path is refined down) */
    size_t path_len;        /* cells (or waypoints) of the path, both ends included */
    const nb_cell *path;    /* in the workspace: valid until its next query */
    unsigned level;         /* the level of clusters the abstract search ran on: 1 is the
                               graph's own, 2 and up the bundle's abstract levels */
} nb_haa_result;

/* A workspace for HAA* on this bundle (which must stay open while it is
 * used).  NB_ERR_NOTFOUND when the bundle holds no abstract graph or
 * lacks a clearance layer it needs; NB_ERR_FORMAT when the graph is
 * malformed (every part of it is checked by the bundle's first workspace,
 * once, and the answer kept for every later one, in any thread). */
nb_status nb_haa_open(const nb_bundle *bundle, nb_haa **out, nb_err *err);
void nb_haa_close(nb_haa *ws);
/* Caps the abstract nodes one query may reach (its searches inside a
 * cluster have storage of the cluster's size); 0, the default: no cap. */
void nb_haa_set_max_nodes(nb_haa *ws, uint64_t max_nodes);
/* The most levels of clusters a query may search (the bundle's abstract
 * levels, mkabstract --levels); 0, the default: all the bundle has; 1: the
 * graph's own alone. */
void nb_haa_set_levels(nb_haa *ws, unsigned levels);
/* The bytes the workspace holds now. */
size_t nb_haa_bytes(const nb_haa *ws);
/* Finds a path, for the same queries as Annotated A* (max_expansions
 * counts the expansions of all its searches: insertion, abstract search
 * and refinement).  NB_OK with res->status saying
 * whether there is one (NB_PATH_LIMIT: the budget or the node cap
 * stopped it first, and res->path is the best partial path: the abstract
 * path to the expanded node nearest the goal, refined; during refinement,
 * the part refined; before the abstract search, the start alone); an
 * error for a bad query (NB_ERR_ARG: size 0, flags it does not know, an
 * overlay of another bundle; NB_ERR_OUTSIDE: an end off the map), or an
 * agent the bundle does not serve (NB_ERR_NOTFOUND, naming what it does: a
 * capability or size not in the graph, terrain costs without their
 * profile's costs). */
nb_status nb_haa_find(nb_haa *ws, const nb_haa_query *query, nb_haa_result *res, nb_err *err);
/* The same in slices (the convention at the top of this header).  A
 * partial path's refinement, made by finish, runs whole the A* inside a
 * cluster that a step without a stored path needs (at most the cluster's
 * cells each). */
nb_status nb_haa_begin(nb_haa *ws, const nb_haa_query *query, nb_err *err);
nb_status nb_haa_step(nb_haa *ws, uint64_t expansions, int *done, nb_err *err);
nb_status nb_haa_finish(nb_haa *ws, nb_haa_result *res, nb_err *err);
/* Whether the query's agent at q->start can reach q->goal on the map as
 * q->overlay leaves it (NULL: the bundle's map), exactly, in *reachable (1
 * or 0); the corner rule, costs, flags and budget are not read (reachability
 * is the same under each).  Errors as nb_haa_find's.  nb_overlay_reachable
 * answers first, from the component layer; only when it cannot tell (the
 * ends joined on the bundle, cells blocked) does a search run: HAA*'s over
 * its graph as the overlay repaired it (complete, so its answer is exact),
 * without refinement: the insertions in the ends' clusters (or the near
 * search) and an A* over the abstract graph, at most what nb_haa_find
 * costs.  For a (capability, size) the graph does not serve, or a graph the
 * overlay does not repair, Annotated A* with the overlay answers (its
 * workspace opened inside this one). */
nb_status nb_haa_reachable(nb_haa *ws, const nb_haa_query *q, int *reachable, nb_err *err);

/* What a workspace's graph is. */
typedef struct nb_haa_graph {
    uint32_t cluster;   /* side of a cluster */
    const char *quality;   /* "high", "low" or "initial" */
    const char *placement; /* transition placement: "first", "middle" or "spread" */
    uint32_t nodes, edges, inter_edges;
    int paths;          /* 1 when refined paths are stored */
    size_t bytes;       /* of the section's payload */
    unsigned levels;    /* levels of clusters, the graph's own included (1: none above) */
    unsigned level_factor; /* a level's cluster is this many clusters a side of the one below */
} nb_haa_graph;
void nb_haa_describe(const nb_haa *ws, nb_haa_graph *out);

/* ------------------------------------------------------------------ */
/* Motion-constrained search (lib/runtime/motion/)                     */

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
/* The speed level called name in *level; NB_ERR_NOTFOUND, naming the
 * model's levels, when none is. */
nb_status nb_model_speed_lookup(const nb_model *model, const char *name, size_t *level,
                                nb_err *err);
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

typedef enum nb_perimeter_layout {
    NB_PERIM_FULL = 0,          /* a table per goal heading and speed */
    NB_PERIM_SPEED_LIMITED = 1, /* a table per goal heading, goals stopped */
    NB_PERIM_SYMMETRIC = 2,     /* a table per class of goal headings under
                                 * 90-degree rotations and reflections */
    NB_PERIM_ROTATED = 3        /* one table, goal facing heading 0; other
                                 * goals through a (virtual) rotation */
} nb_perimeter_layout;

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
nb_perimeter_layout nb_perimeter_layout_of(const nb_perimeter *perimeter);
/* "full", "speed-limited", "symmetric", "rotated"; NULL for another value. */
const char *nb_perimeter_layout_name(nb_perimeter_layout layout);
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

/* Motion-constrained search (motion.c, griddist.c, headdist.c, sectors.c). */
typedef enum nb_motion_heuristic {
    NB_MH_OCTILE = 0,         /* straight-line distance / top speed */
    NB_MH_PERIMETER = 1,      /* the perimeter table, octile beyond it */
    NB_MH_EXTENDED = 2,       /* the extended perimeter heuristic */
    NB_MH_GRID = 3,           /* obstacle-aware distance / top speed */
    NB_MH_PERIMETER_GRID = 4, /* max(perimeter, grid) */
    NB_MH_EXTENDED_GRID = 5,  /* max(extended, grid) */
    NB_MH_HEADING = 6,        /* obstacle- and heading-aware time (speeds relaxed) */
    NB_MH_PERIMETER_HEADING = 7, /* max(perimeter, heading) */
    NB_MH_EXTENDED_HEADING = 8   /* max(extended, heading) */
} nb_motion_heuristic;
#define NB_MH_COUNT 9
/* "octile", "perimeter", "extended", "grid", "perimeter+grid", "extended+grid",
 * "heading", "perimeter+heading", "extended+heading". */
const char *nb_motion_heuristic_name(nb_motion_heuristic heuristic);
/* The heuristic called name in *heuristic; NB_ERR_NOTFOUND, naming those
 * there are, when none is. */
nb_status nb_motion_heuristic_parse(const char *name, nb_motion_heuristic *heuristic,
                                    nb_err *err);

typedef struct nb_motion nb_motion;

/* A workspace for searches of one model by one agent on the bundle's map:
 * the agent of size size (cells a side, anchored at its top-left cell)
 * and capability cap, whose legal moves the workspace learns and keeps
 * (the motion family's agent is its workspace's, so its queries name
 * none; its costs are the model's times, so an agent's terrain costs do
 * not apply).  perimeter may be NULL.  Everything a search needs is
 * allocated here and grown by a search that needs more than any before
 * it. */
nb_status nb_motion_open(const nb_bundle *bundle, const nb_model *model,
                         const nb_perimeter *perimeter, nb_capability cap, unsigned size,
                         nb_motion **out, nb_err *err);
void nb_motion_close(nb_motion *ws);
/* Caps the states one search may reach (Detour's maxNodes): a search that
 * would reach more ends with NB_PATH_LIMIT.  0 (the default): no cap
 * beyond memory.  Applies from the next nb_motion_begin or find. */
void nb_motion_set_max_nodes(nb_motion *ws, uint64_t max_nodes);
/* The bytes the workspace holds now. */
size_t nb_motion_bytes(const nb_motion *ws);
/* 1 when the agent may stand at (x, y). */
int nb_motion_standable(const nb_motion *ws, long x, long y);
/* 1 when the action (turn, new speed level) from state s is legal; the
 * state it reaches and its cost in *to and *cost. */
int nb_motion_action(nb_motion *ws, const nb_motion_state *s, int turn, unsigned speed,
                     nb_motion_state *to, double *cost);

/* The abstractions a route may go through. */
typedef enum nb_route_abstraction {
    NB_ROUTE_SECTORS = 0, /* sectors of the workspace (nb_motion_use_sectors) */
    NB_ROUTE_HAA = 1      /* the bundle's HAA* graph (nb_motion_use_haa) */
} nb_route_abstraction;

typedef struct nb_motion_query {
    nb_motion_state start, goal;
    nb_motion_heuristic heuristic;
    double weight;           /* 1 for A*; > 1 weighted A* (f = g + w h) */
    unsigned truncate;       /* 0: reach the goal state; k: stop at the first
                              * expanded state within k cells (Chebyshev) of
                              * the goal's cell */
    uint64_t max_expansions; /* 0: no limit */
    const nb_overlay *overlay; /* NULL: motion searches do not read overlays yet, and refuse
                              * one with NB_ERR_UNSUPPORTED rather than plan through it */
    int reopen;              /* re-open closed states found cheaper: 1, 0, or
                              * -1 for the default (only when weight is 1) */
    int waypoint_heading;    /* routes: 0 (default) intermediate goals at any
                              * heading; 1 facing the way the abstract path
                              * enters them (the paper's setup) */
    unsigned heading_classes; /* heading heuristics: classes of consecutive
                              * headings, a divisor of the model's heading
                              * count (fewer: cheaper, weaker); 0 (default):
                              * the headings the top speed may turn across
                              * in one action make a class */
    nb_route_abstraction abstraction; /* routes: NB_ROUTE_SECTORS (default) or NB_ROUTE_HAA */
} nb_motion_query;

/* "sectors", "haa"; NULL for others. */
const char *nb_route_abstraction_name(nb_route_abstraction abstraction);
/* The abstraction called name in *abstraction; NB_ERR_NOTFOUND, naming
 * those there are, when none is. */
nb_status nb_route_abstraction_parse(const char *name, nb_route_abstraction *abstraction,
                                     nb_err *err);

typedef struct nb_motion_result {
    nb_path_status status;   /* NB_PATH_LIMIT when max_expansions stopped the search:
                              * the rest is then the best partial path's */
    double cost;             /* the path's cost (time) */
    double h_start;          /* the heuristic at the start */
    uint64_t expanded, generated, reopened;
    uint64_t grid_expanded;  /* cells expanded by the grid heuristic's search */
    size_t path_len;         /* states on the path, start and end included */
    const nb_motion_state *path; /* in the workspace: valid until its next begin or find */
    nb_motion_state end;     /* the state reached */
} nb_motion_result;

/* Sets a query's defaults: octile, weight 1, no truncation, no limit, no
 * overlay.  A macro, as nb_aa_query_init. */
nb_status nb_motion_query_init_abi(nb_motion_query *q, const nb_abi *abi);
/* Finds a path from q->start to q->goal.  NB_OK with r->status saying
 * whether there is one (NB_PATH_START_BLOCKED or _GOAL_BLOCKED when the
 * agent may not stand there); an error for a bad query (NB_ERR_OUTSIDE: a
 * state off the map; NB_ERR_ARG: a heading or speed the model lacks;
 * NB_ERR_NOTFOUND: a heuristic whose table the bundle lacks;
 * NB_ERR_UNSUPPORTED: an overlay). */
nb_status nb_motion_find(nb_motion *ws, const nb_motion_query *q, nb_motion_result *r,
                         nb_err *err);
/* The same in slices (the convention at the top of this header; one action
 * of the model is nb_motion_action).  When max_expansions, the node cap or
 * finishing before the end stops the search, the result is NB_PATH_LIMIT
 * with the path to the expanded state with the least heuristic, ties the
 * least cost. */
nb_status nb_motion_begin(nb_motion *ws, const nb_motion_query *q, nb_err *err);
nb_status nb_motion_step(nb_motion *ws, uint64_t expansions, int *done, nb_err *err);
nb_status nb_motion_finish(nb_motion *ws, nb_motion_result *r, nb_err *err);

/* Prepares the workspace for routes over sectors of side x side cells
 * (NB_ROUTE_SECTORS): the sector abstraction of the workspace's agent is
 * built here, once for each side (1 to 1024). */
nb_status nb_motion_use_sectors(nb_motion *ws, unsigned side, nb_err *err);
/* Prepares the workspace for routes over the bundle's HAA* abstract graph
 * (mkabstract; formats/abstract.md): its HAA* workspace is made here,
 * once.  NB_ERR_NOTFOUND when the bundle has no abstract graph or the
 * graph does not serve the workspace's (capability, size); the graph's
 * own errors (NB_ERR_FORMAT) as nb_haa_open gives them.  Calling it again
 * does nothing. */
nb_status nb_motion_use_haa(nb_motion *ws, nb_err *err);

/* Long paths: an abstract path, refined segment by segment (a search of
 * its own kind, through many searches).  With
 * q->abstraction NB_ROUTE_SECTORS it is A* over the workspace's sectors
 * (an intermediate goal is a region's node); with NB_ROUTE_HAA, HAA* for
 * the workspace's capability and size on the bundle's abstract graph (an
 * intermediate goal is an abstract node; of an inter-edge's two ends, one
 * step apart, only the one it enters).  Each segment reaches `segment`
 * intermediate goals ahead (sectors or clusters); an intermediate goal is
 * the node's cell, stopped, at any heading (or facing the way in, with
 * q->waypoint_heading), and uses q->truncate; the last segment reaches
 * q->goal itself (q->truncate does not apply to it).  r->status is
 * NB_PATH_NONE when the abstraction joins no path or a segment finds none;
 * r->path the whole route.  each, when not NULL, is called with each
 * segment's result.  r sums the segments (expanded and generated) and
 * gives the whole path's cost.  NB_ERR_ARG when the workspace lacks the
 * abstraction asked for (nb_motion_use_sectors, nb_motion_use_haa). */
typedef void (*nb_motion_segment_fn)(void *ctx, const nb_motion_result *segment);
nb_status nb_motion_route_find(nb_motion *ws, const nb_motion_query *q, unsigned segment,
                               nb_motion_segment_fn each, void *ctx, nb_motion_result *r,
                               size_t *segments, nb_err *err);

/* ------------------------------------------------------------------ */
/* Curves, Directional A* and smoothing (lib/runtime/turning/)         */

/* Geometry.  Positions are in cells: cell (x, y) is the square [x, x+1) x
 * [y, y+1) and its centre is (x + 0.5, y + 0.5); y grows downwards, as the
 * map is drawn.  A heading is an angle in radians from +x towards +y: 0 is
 * east, pi/2 south.  A heading that grows turns clockwise as the map is
 * drawn: a right turn ('R'); one that shrinks turns left ('L').  Forests
 * (below) use the same angles in world units with y up, where a heading
 * that grows turns counter-clockwise. */
typedef struct nb_pose {
    double x, y;
    double heading; /* the way the unit faces */
} nb_pose;

typedef enum nb_segment_kind { NB_SEG_LINE = 0, NB_SEG_ARC = 1 } nb_segment_kind;

/* One piece of a path: a straight line, or an arc of a circle.  A path is
 * an array of segments of any length, each starting where the one before
 * ends (curves here, planned routes and paths around round obstacles all
 * share it, and all sample through nb_segments_sample). */
typedef struct nb_segment {
    nb_segment_kind kind;
    int turn;        /* arcs: the sign of the sweep: +1 angles grow (right on a map, y down;
                        counter-clockwise in a forest, y up), -1 they shrink; lines: 0 */
    int gear;        /* +1 forward; -1 in reverse: the unit faces away from its travel */
    double x, y;     /* where it starts */
    double heading;  /* direction of travel at the start */
    double length;   /* cells or world units, >= 0; an arc's is radius * |sweep| */
    double cx, cy;   /* arcs: the circle's centre */
    double radius;   /* arcs: the circle's radius; lines: 0 */
} nb_segment;

/* A line from (x0, y0) to (x1, y1), driven forward. */
nb_segment nb_segment_line(double x0, double y0, double x1, double y1);
/* An arc of the circle (cx, cy, radius) from the point at angle from (seen
 * from the centre) through sweep radians: sweep > 0 angles grow (turn
 * +1), sweep < 0 they shrink (turn -1); driven forward. */
nb_segment nb_segment_arc(double cx, double cy, double radius, double from, double sweep);
/* An arc's angles, the inverse of nb_segment_arc: the angle of its start
 * seen from the centre and its signed sweep (turn * length / radius).  A
 * line gives its heading and 0. */
void nb_segment_angles(const nb_segment *seg, double *from, double *sweep);
/* Position and heading at distance at along a segment (Pinter's Listing
 * 2); at is clamped to [0, length], so at = length gives its end.  The
 * heading is not reduced to a range: compare headings modulo 2 pi. */
void nb_segment_sample(const nb_segment *seg, double at, nb_pose *out);
/* The same along the n segments of a path, at clamped to the path (before
 * the start: the start; past the end: the end); returns the total length.
 * With n = 0 out is the origin. */
double nb_segments_sample(const nb_segment *seg, size_t n, double at, nb_pose *out);
double nb_segments_length(const nb_segment *seg, size_t n);

/* A curve with a turning radius: at most four segments (two arcs and a
 * line, three arcs, or an arc and a line), named by its word: "LSR",
 * "RLR", "LS", "RL"...  (S a line, L and R arcs). */
#define NB_CURVE_MAX_SEGMENTS 4
#define NB_CURVE_MAX_CANDIDATES 8
typedef struct nb_curve {
    double length;     /* the sum of its segments' lengths */
    unsigned count;    /* segments; an empty arc or line is left out */
    char word[4];      /* NUL-terminated */
    unsigned variant;  /* 0 or 1: which of the two solutions of a CCC or CC word */
    nb_segment seg[NB_CURVE_MAX_SEGMENTS];
} nb_curve;

/* Every curve from a pose to a point with turning radius radius: an arc
 * then a line, turning right or left (Pinter's Figure 6), and, when the
 * point is near enough, an arc then an arc the other way (shorter when the
 * point lies inside a turning circle).  Writes up to NB_CURVE_MAX_CANDIDATES
 * curves to out, shortest first, and returns how many; the first is the
 * shortest path to the point with a free final heading. */
size_t nb_curve_to_point(const nb_pose *from, double radius, double x, double y, nb_curve *out);
/* Every Dubins curve from a pose to a pose: the four arc-line-arc words of
 * Pinter's Figures 9-11 (LSL RSR LSR RSL) and the arc-arc-arc words (LRL
 * RLR, each with its two solutions); shortest first, equal ones once. */
size_t nb_curve_to_pose(const nb_pose *from, const nb_pose *to, double radius, nb_curve *out);
/* Turns a curve computed between two poses turned by pi into the same
 * movement driven in reverse: the unit then faces the other way. */
void nb_curve_set_reverse(nb_curve *curve);
/* Position and heading at distance at along the curve. */
void nb_curve_sample(const nb_curve *curve, double at, nb_pose *out);

/* Units (formats/hitcheck.md): a unit is a disc of diameter width cells
 * that turns no tighter than radius, kept in a bundle by name with its
 * hit-check and curve tables (mkhitcheck). */
typedef struct nb_unit {
    char name[NB_NAME_MAX + 1];
    double radius;           /* turning radius, cells */
    double width;            /* diameter, cells */
    unsigned headings;       /* 8 or 16 */
    unsigned neighbourhood;  /* offsets baked in the hit-check table: 8, 24 or 48 */
    int reverse;             /* 1 when it may drive in reverse */
    double reverse_penalty;  /* cost factor of a reverse move (>= 1) */
    nb_capability capability;/* terrains it may enter; 0 for every terrain */
} nb_unit;

size_t nb_unit_count(const nb_bundle *bundle);
/* The index-th unit (in section order), decoded from its section and
 * checked (hence a status: NB_ERR_FORMAT for a damaged one, NB_ERR_NOTFOUND
 * past the end). */
nb_status nb_unit_get(const nb_bundle *bundle, size_t index, nb_unit *out, nb_err *err);
/* The index of the unit called name in *index; NB_ERR_NOTFOUND, naming the
 * units there are, when none is. */
nb_status nb_unit_lookup(const nb_bundle *bundle, const char *name, size_t *index, nb_err *err);

/* Planning for a unit: Directional A* over (x, y, heading) with the
 * hit-check and curve tables, smoothing, and Pinter's hybrid search.  A
 * planner is the workspace of one unit on one bundle's map.  Its memory
 * follows what its queries touch, not the map: the cells it reads (2 bits
 * a cell, by tiles of 64 x 64) and the search nodes it makes, kept for the
 * next query; a query allocates only to grow them past what earlier ones
 * needed. */
typedef struct nb_planner nb_planner;

nb_status nb_planner_open(const nb_bundle *bundle, const char *unit, nb_planner **out, nb_err *err);
void nb_planner_close(nb_planner *planner);
const nb_unit *nb_planner_unit(const nb_planner *planner);
/* At most max_nodes search nodes a query (Detour's maxNodes; 0, the
 * default: no cap beyond memory).  A query that needs more stops with
 * NB_PATH_LIMIT and its best partial path. */
void nb_planner_set_max_nodes(nb_planner *planner, uint64_t max_nodes);
/* The bytes the planner holds now. */
size_t nb_planner_bytes(const nb_planner *planner);

typedef enum nb_plan_method {
    NB_PLAN_DIRECTIONAL = 0, /* Directional A* */
    NB_PLAN_HYBRID = 1,      /* 4-connected A*, Smoothing-48 both ways, Directional-8 between */
    NB_PLAN_PRESMOOTH = 2,   /* 4-connected A*, Smoothing-48, final smoothing; no fallback */
    NB_PLAN_LINES = 3        /* 8-connected A* and line smoothing with the unit's width */
} nb_plan_method;
#define NB_PLAN_ONTHEFLY 0x1u  /* compute and sweep curves instead of reading the tables */
#define NB_PLAN_SMOOTH 0x2u    /* directional: a final simple smoothing pass */
#define NB_PLAN_FORWARD 0x4u   /* no reverse moves even if the unit may reverse */
#define NB_PLAN_LOCAL_BOUND 0x8u /* directional: bound the cost to the goal by the curves and the
                                  * grid's moves alone, not by a search back over the cells
                                  * (less memory; many more nodes where walls force detours) */

/* A query.  The planner's agent is its unit (its width, turning radius and
 * capability), so a query names none. */
typedef struct nb_planner_query {
    nb_pose start;           /* anywhere inside a free cell, any heading */
    nb_cell goal;            /* the goal cell: the path ends at its centre */
    int goal_heading;        /* -1: any; else the heading index (0 .. headings-1) */
    nb_plan_method method;
    unsigned neighbourhood;  /* 8, 24 or 48; 0 for the unit's */
    unsigned flags;          /* NB_PLAN_* */
    uint64_t max_expansions; /* 0: no limit; else NB_PATH_LIMIT and the best partial path */
    unsigned window;         /* 0: the whole map; else the searches keep to a square of this
                              * side centred between start and goal (Pinter's 60) */
    const nb_overlay *overlay; /* NULL: the planner does not read overlays yet, and refuses one
                              * with NB_ERR_UNSUPPORTED rather than plan through it */
} nb_planner_query;

/* Sets a query's defaults: Directional A*, any goal heading, the unit's
 * neighbourhood, no flags, no limit, from and to (0, 0), no overlay.  A
 * macro, as nb_aa_query_init. */
nb_status nb_planner_query_init_abi(nb_planner_query *q, const nb_abi *abi);

typedef struct nb_planner_result {
    nb_path_status status;
    const char *reason;          /* when not found: why, a constant string */
    double length;               /* cells travelled */
    double cost;                 /* length with reverse moves' penalties */
    size_t segment_len;
    const nb_segment *segments;  /* the path; valid until the planner's next begin or find */
    size_t waypoint_len;
    const nb_pose *waypoints;    /* the poses the path passes, start and goal included */
    uint64_t expanded;           /* nodes taken from the open list, every stage */
    uint64_t generated;          /* children found free */
    int fallback;                /* hybrid: 1 when the Directional-8 step ran */
} nb_planner_result;

/* Plans a path.  NB_OK with out->status saying whether there is one (and
 * out->reason why not); an error for a bad query (NB_ERR_OUTSIDE: a start
 * or goal off the map; NB_ERR_ARG: a start that is not a finite pose, an
 * unknown method, a window that does not hold start and goal;
 * NB_ERR_UNSUPPORTED: an overlay).  A query stopped by max_expansions
 * or the node cap is NB_PATH_LIMIT with the best partial path: from the
 * start toward the goal as far as the search got (Directional A*: to the
 * node expanded with the least heuristic, then the least cost). */
nb_status nb_planner_find(nb_planner *planner, const nb_planner_query *query,
                          nb_planner_result *out, nb_err *err);
/* The same in slices: begin checks the query (the errors of find) and
 * starts it, abandoning any query under way; step expands at most
 * expansions nodes and sets *done (may be NULL) when the query has ended;
 * finish writes the result, what find returns when done, else
 * NB_PATH_LIMIT and the best partial path so far, and ends the query.
 * step or finish with no query begun is NB_ERR_ARG.  find is begin,
 * step(UINT64_MAX) and finish. */
nb_status nb_planner_begin(nb_planner *planner, const nb_planner_query *query, nb_err *err);
nb_status nb_planner_step(nb_planner *planner, uint64_t expansions, int *done, nb_err *err);
nb_status nb_planner_finish(nb_planner *planner, nb_planner_result *out, nb_err *err);
/* 1 when a unit driving these segments touches no cell that is blocked
 * for it (the exact swept disc, not samples); 0 for a segment that leaves
 * the map or has a number that is not finite. */
int nb_planner_walkable(const nb_planner *planner, const nb_segment *seg, size_t n);
/* 1 when the cell is blocked for the planner's unit. */
int nb_planner_blocked(const nb_planner *planner, long x, long y);

/* ------------------------------------------------------------------ */
/* SQLite bundles (lib/runtime/bundle/sqlite_read.c, formats/sqlite.md) */

/* The same bundle can be held in an SQLite database that people and tools
 * query (the tools write one with --format sqlite, navbake convert turns
 * either form into the other).  nb_bundle_open reads one into memory and
 * then behaves exactly as with its binary form, which is the form to ship:
 * it maps without copying. */
typedef enum nb_bundle_form {
    NB_FORM_BINARY = 0, /* formats/bundle.md, mapped */
    NB_FORM_SQLITE = 1  /* formats/sqlite.md, read into memory */
} nb_bundle_form;

/* The form the bundle was opened from.  For NB_FORM_SQLITE,
 * nb_bundle_file_size is the database's size, and the section offsets are
 * those of the bundle's binary form. */
nb_bundle_form nb_bundle_form_of(const nb_bundle *bundle);
/* 1 when this library opens SQLite bundles (the default); 0 when it was
 * configured with --disable-sqlite-runtime. */
int nb_sqlite_supported(void);

/* ------------------------------------------------------------------ */
/* Round obstacles (lib/runtime/forest/)                               */
/*
 * A forest is a set of round obstacles in continuous space (world units,
 * x to the right, y up: "counter-clockwise" is the positive sense of
 * angles).  An agent of radius a moves among them as a point among the
 * circles inflated by a (the Minkowski sum).  Paths are exact shortest
 * paths: alternating straight segments (bitangents) and arcs hugging the
 * inflated circles.  A path may graze a circle, but no arc goes round a
 * circle past a point where another circle touches it.  formats/forest.md
 * has the input and section formats; nb_forest_find(3) the details.
 *
 * mkabstract --forest bakes, for each agent radius, the bitangent graph
 * (NB_SEC_BITANGENT) next to the circles (NB_SEC_FOREST), and
 * nb_forest_find searches it.  For a radius without a baked graph it runs
 * the deferred search, which builds the edges it needs while it searches:
 * for forests that were never baked or that a game changes at run time
 * (nb_forest_open_circles, nb_forest_set_circle...). */

#define NB_FOREST_MAX_CIRCLES 1000000 /* circles in one forest */
#define NB_FOREST_MAX_RADII 64        /* baked agent radii in one bundle */
#define NB_FOREST_MAX_COORD 1e9       /* |x|, |y|, radius and agent radius */

typedef struct nb_circle {
    double x, y, r; /* centre and radius (r > 0) */
} nb_circle;

typedef struct nb_forest nb_forest;
typedef struct nb_forest_ws nb_forest_ws;

/* Opens the forest of a bundle (its forest section and every bitangent
 * graph, all checked here once, so queries trust them).  The forest reads
 * the bundle in place: close it before the bundle.  Read-only: threads may
 * share it, each with its own workspace.  NB_ERR_NOTFOUND when the bundle
 * has no forest. */
nb_status nb_forest_open(const nb_bundle *bundle, nb_forest **out, nb_err *err);
/* A forest made by the program: a copy of n circles, and optionally world
 * bounds {xmin, ymin, xmax, ymax} (NULL for none), allocating with alloc
 * (NULL: the C library's).  It has no baked graph; change it at will
 * between queries.  A macro (the ABI guard), as nb_bundle_open. */
nb_status nb_forest_open_circles_abi(const nb_circle *circles, size_t n, const double *bounds,
                                     const nb_allocator *alloc, nb_forest **out, nb_err *err,
                                     const nb_abi *abi);
void nb_forest_close(nb_forest *forest);

size_t nb_forest_circle_count(const nb_forest *forest);
/* The obstacles as given (not inflated); NULL past the end. */
const nb_circle *nb_forest_circle_get(const nb_forest *forest, size_t index);
/* 1 and the bounds {xmin, ymin, xmax, ymax} when the forest has bounds.
 * Bounds say where start and goal may be; they are not walls. */
int nb_forest_bounds(const nb_forest *forest, double bounds[4]);

/* Changes to a forest made with nb_forest_open_circles (a bundle's forest is
 * read-only: NB_ERR_ARG).  Indices of the circles after a removed one move
 * down by one. */
nb_status nb_forest_set_circle(nb_forest *forest, size_t index, nb_circle circle, nb_err *err);
nb_status nb_forest_add_circle(nb_forest *forest, nb_circle circle, nb_err *err);
nb_status nb_forest_remove_circle(nb_forest *forest, size_t index, nb_err *err);

/* Baked agent radii, in the order they were given to mkabstract. */
unsigned nb_forest_radius_count(const nb_forest *forest);
/* The radius_index-th baked radius; NAN past the end. */
double nb_forest_radius_get(const nb_forest *forest, unsigned radius_index);
/* The index of the graph baked for exactly this agent radius in *index;
 * NB_ERR_NOTFOUND, naming the radii baked, when there is none. */
nb_status nb_forest_radius_lookup(const nb_forest *forest, double agent_radius, size_t *index,
                                  nb_err *err);

/* What a baked graph holds (as `navbake info` shows it). */
typedef struct nb_forest_graph_info {
    double agent_radius;
    uint32_t nodes;       /* tangent points; each node is one end of one bitangent */
    uint32_t transitions; /* bitangent segments kept (each used both ways) */
    uint32_t candidates;  /* bitangents of all pairs before line of sight */
    uint64_t arcs;        /* hugging arcs (oriented, no cusps) not cut by another circle */
    uint32_t free_arcs;   /* maximal arcs of the circles that no other circle covers */
} nb_forest_graph_info;
nb_status nb_forest_graph(const nb_forest *forest, unsigned radius_index, nb_forest_graph_info *info,
                          nb_err *err);

/* A path: segments (nb_segment, driven forward) alternating between
 * straight lines (bitangents) and arcs round inflated circles (turn +1
 * counter-clockwise, -1 clockwise); segments of length zero are left out,
 * except that a path from a point to itself is one line of length 0, so
 * every path found has a segment to sample.  Sample it with
 * nb_segments_sample(res.segments, res.segment_len, s, &pose). */
typedef struct nb_forest_result {
    nb_path_status status;
    long blocked_by;             /* NB_PATH_START_BLOCKED, _GOAL_BLOCKED: the circle the
                                    point is inside (with the agent's radius); else -1 */
    nb_vec2 start, goal;
    double length;               /* the sum of the segments' lengths; INFINITY when none;
                                    NB_PATH_LIMIT: the partial path's */
    size_t segment_len;          /* 0 when no path was found */
    const nb_segment *segments;  /* owned by the workspace: valid until its next query */
    /* What the search did. */
    uint64_t expanded;  /* states taken from the open list */
    uint64_t generated; /* states put on it */
    uint64_t pruned;    /* transitions refused because they cross the one before */
    uint64_t los_tests; /* line-of-sight tests made during the search */
    uint64_t circles_opened; /* deferred search: circles whose edges were generated */
} nb_forest_result;

/* Options of a search (flags). */
#define NB_FOREST_NO_PRUNE 0x1u /* keep transitions that cross the one before */
/* The article's scheme as it stands, for comparison: the straight-line
 * distance as heuristic on every state, and the start's tangents to every
 * circle made at once (by default a bitangent is valued from its far end
 * and the start's tangents are made as the search comes near them; the
 * lengths are the same). */
#define NB_FOREST_PLAIN 0x2u
/* The deferred search even when a graph is baked for the radius. */
#define NB_FOREST_DEFERRED 0x4u

/* A query: the forest family's agent is a disc, so its query names the
 * agent's radius where a grid query names a size and capability. */
typedef struct nb_forest_query {
    nb_vec2 start, goal;     /* world units, finite, within the forest's bounds */
    double agent_radius;     /* >= 0 */
    unsigned flags;          /* NB_FOREST_* */
    uint64_t max_expansions; /* 0: no limit */
} nb_forest_query;

/* Sets a query's defaults: (0, 0) to (0, 0), agent radius 0, no flags, no
 * limit.  A macro, as nb_aa_query_init. */
nb_status nb_forest_query_init_abi(nb_forest_query *q, const nb_abi *abi);

/* A query workspace for searches in this forest (which must stay open while
 * it is used; a program's forest may change between queries): arrays
 * reused by every query made with it, sized for the forest's baked graphs
 * so that a query on a baked graph never allocates; the deferred search
 * grows it when it must and keeps what it grew. */
nb_status nb_forest_ws_open(const nb_forest *forest, nb_forest_ws **out, nb_err *err);
void nb_forest_ws_close(nb_forest_ws *ws);
/* Caps the states one search may put on its open list (Detour's maxNodes):
 * a search that would put one more ends with NB_PATH_LIMIT.  0 (the
 * default): no cap beyond memory. */
void nb_forest_ws_set_max_nodes(nb_forest_ws *ws, uint64_t max_nodes);
/* The bytes the workspace holds now. */
size_t nb_forest_ws_bytes(const nb_forest_ws *ws);

/* The shortest path from q->start to q->goal for an agent of radius
 * q->agent_radius.  With a graph baked for exactly this radius
 * (nb_forest_radius_lookup) and without NB_FOREST_DEFERRED: start and goal
 * join it by their tangents to the circles (for this query only), then A*
 * with the straight-line distance as heuristic.  Otherwise the deferred
 * search: the edges leaving a circle are generated when the search first
 * reaches it, and a bitangent's line of sight is tested only when the
 * search would take it.  NB_OK with res->status: NB_PATH_START_BLOCKED or
 * _GOAL_BLOCKED when that point is inside an inflated circle
 * (res->blocked_by), NB_PATH_NONE when the circles close one off from the
 * other, NB_PATH_LIMIT when max_expansions or the node cap stopped the
 * search (the path to the expanded state nearest the goal, as the crow
 * flies).  NB_ERR_ARG for a point or agent radius that is not finite or
 * negative, or unknown flags; NB_ERR_OUTSIDE for a point beyond
 * NB_FOREST_MAX_COORD in x or y or outside the bounds; NB_ERR_LIMIT for an
 * agent radius beyond NB_FOREST_MAX_COORD. */
nb_status nb_forest_find(nb_forest_ws *ws, const nb_forest_query *q, nb_forest_result *res,
                         nb_err *err);
/* The same in slices (the convention at the top of this header). */
nb_status nb_forest_begin(nb_forest_ws *ws, const nb_forest_query *q, nb_err *err);
nb_status nb_forest_step(nb_forest_ws *ws, uint64_t expansions, int *done, nb_err *err);
nb_status nb_forest_finish(nb_forest_ws *ws, nb_forest_result *res, nb_err *err);

/* ------------------------------------------------------------------ */
/* Places: nearest and random cells, straight lines (lib/runtime/place/) */
/*
 * What game code asks of a navigation runtime before any path (Detour's
 * findNearestPoly, findRandomPoint and raycast), for an agent on a
 * bundle's grid: the standable cell nearest a click or a spawn point, a
 * random standable cell the agent can reach, and whether the agent can
 * walk a straight segment.  The three are search families with the shape
 * of the others: a query struct with the agent's size and capability, an
 * _init and an _agent, a budget, _find and its sliced form, on a place,
 * the workspace of a thread on a bundle.  navbake(3) has the conventions,
 * nb_place_open(3) and each function's page the details. */

typedef struct nb_place nb_place;

/* A workspace for the place queries on this bundle's map (which must stay
 * open while it is used).  A query needs the clearance layer of its
 * capability (NB_ERR_NOTFOUND without one, or for a size beyond its cap),
 * and reads the component layer and the runs section of (capability, size)
 * where it needs them (mkclear bakes both); each is checked when a query
 * first needs it and kept for the next query of the same agent.  A place
 * holds a small record and allocates nothing more, but for two Annotated
 * A* workspaces opened by its first query that must tell reach under an
 * overlay (nb_nearest_find); one per thread. */
nb_status nb_place_open(const nb_bundle *bundle, nb_place **out, nb_err *err);
void nb_place_close(nb_place *place);
/* The bytes the place holds. */
size_t nb_place_bytes(const nb_place *place);

/* The search radius nb_nearest_query_init sets, in cells (octile). */
#define NB_NEAREST_RADIUS 64.0

typedef struct nb_nearest_query {
    nb_cell point;            /* where to look from: a cell of the map */
    double radius;            /* cells farther than this (octile distance) are not
                                 looked at; >= 0, INFINITY for the whole map */
    int reachable;            /* 1: only cells joined by a path to start */
    nb_cell start;            /* when reachable: a cell of the map */
    uint32_t size;            /* the agent covers size x size cells, 1 or more */
    nb_capability capability; /* the bundle must hold a clearance layer for it */
    uint64_t max_expansions;  /* cells looked at; 0: no limit */
    const nb_overlay *overlay; /* cells blocked at run time (NULL: none): the answer is the
                                  one on the map as the overlay leaves it */
} nb_nearest_query;

/* Sets a query's defaults: point (0, 0), radius NB_NEAREST_RADIUS, any
 * cell (reachable 0), size 1, capability 0 (set it), no limit, no overlay.
 * A macro, as nb_aa_query_init. */
nb_status nb_nearest_query_init_abi(nb_nearest_query *q, const nb_abi *abi);
/* Sets a query's size and capability to the agent's (a nearest cell is
 * by distance, not cost: the agent's terrain costs do not apply). */
void nb_nearest_query_agent(nb_nearest_query *q, const nb_agent *agent);

typedef struct nb_nearest_result {
    nb_path_status status; /* FOUND; NONE: no such cell on the map (said
                              when the square of side 2 radius + 1 around
                              point covers the map); BEYOND_RADIUS: none
                              within the radius (there may be one beyond);
                              START_BLOCKED: the agent cannot stand at start;
                              LIMIT: max_expansions cells were looked at
                              first (cell is then the nearest so far, if any) */
    nb_cell cell;          /* when found: the agent's top-left cell; else (-1, -1) */
    double distance;       /* octile distance from point to cell */
    uint64_t examined;     /* cells looked at */
    uint64_t expanded;     /* cells expanded by the searches that tell reach under an
                              overlay that blocks cells (reachable); 0 without */
} nb_nearest_result;

/* The cell nearest query->point, by octile distance, where the agent may
 * stand (and, with query->reachable, that a path joins to query->start).
 * Ties go to the cell first in row-major order: the least y, then the
 * least x.  The search reads the cells in square rings around the point,
 * stopping once no farther ring can hold a nearer cell: it looks at
 * (2 floor(d) + 1)^2 cells at most for an answer at distance d, whatever
 * the map's size.  Under an overlay that blocks cells, a cell is
 * standable where nb_overlay_can_stand says so, and with reachable it is
 * joined to start by a path on the map as the overlay leaves it, exactly:
 * the component layer proves cells apart; a cell it leaves joined that
 * would be the answer is tested by two Annotated A* searches in turns (a
 * flood from start kept for the query's later tests, an A* from the cell
 * to start), at most twice the cells joined to start over the whole
 * query plus twice each A* that finds a cell joined (res->expanded; the
 * place opens the two workspaces at its first such query, and
 * max_expansions counts cells looked at, not these).
 * NB_ERR_OUTSIDE for a point or start off the map;
 * NB_ERR_ARG for a radius that is negative or NaN, or size 0;
 * NB_ERR_NOTFOUND for an agent the bundle does not serve, or reachable on
 * a bundle without the component layer. */
nb_status nb_nearest_find(nb_place *place, const nb_nearest_query *query,
                          nb_nearest_result *res, nb_err *err);
/* The same in slices (the convention at the top of this header; an
 * expansion is a cell looked at). */
nb_status nb_nearest_begin(nb_place *place, const nb_nearest_query *query, nb_err *err);
nb_status nb_nearest_step(nb_place *place, uint64_t expansions, int *done, nb_err *err);
nb_status nb_nearest_finish(nb_place *place, nb_nearest_result *res, nb_err *err);

/* Points of a line are taken to this fraction of a cell (rounded to the
 * nearest), so that every test is exact integer arithmetic. */
#define NB_LINE_RESOLUTION 65536

typedef struct nb_line_query {
    nb_vec2 start, goal;      /* where the agent's top-left corner is at each end, in cells */
    uint32_t size;            /* the agent covers size x size cells, 1 or more */
    nb_capability capability; /* the bundle must hold a clearance layer for it */
    uint64_t max_expansions;  /* cells looked at; 0: no limit */
    const nb_overlay *overlay; /* cells blocked at run time (NULL: none): walls for the line */
} nb_line_query;

/* Sets a query's defaults: (0, 0) to (0, 0), size 1, capability 0 (set
 * it), no limit, no overlay.  A macro, as nb_aa_query_init. */
nb_status nb_line_query_init_abi(nb_line_query *q, const nb_abi *abi);
/* Sets a query's size and capability to the agent's. */
void nb_line_query_agent(nb_line_query *q, const nb_agent *agent);

typedef struct nb_line_result {
    nb_path_status status; /* FOUND: the whole segment is free; NONE: blocked
                              on the way; START_BLOCKED: the agent does not
                              fit at start; LIMIT: max_expansions cells were
                              looked at first (t is then how far it is known
                              free) */
    double t;              /* the fraction of the segment travelled free (1
                              when found, 0 when the start is blocked) */
    nb_vec2 last;          /* the last free point: start + t (goal - start) */
    nb_cell blocking;      /* when blocked: the first cell the agent's square
                              would enter (may lie just outside the map);
                              else (-1, -1) */
    uint64_t examined;     /* cells looked at */
} nb_line_result;

/* Whether the agent can travel the straight segment from query->start to
 * query->goal.  A point is where the agent's top-left corner is, in cells
 * (x right, y down): at (x, y) the agent covers the square [x, x + size] x
 * [y, y + size], so at a whole point it covers exactly the cells
 * nb_can_stand tests for that cell.  The square, slid along the segment,
 * must meet the inside of no cell that is outside the map, of a terrain
 * outside the capability, or blocked by the query's overlay (touching an
 * edge or a corner is allowed): the
 * sweep is exact, at any angle.  When it does meet one, the result says
 * how far the agent gets and the first cell it meets (ties: row-major
 * order).  NB_ERR_ARG for a point that is not finite or size 0;
 * NB_ERR_OUTSIDE for one outside [0, width] x [0, height];
 * NB_ERR_NOTFOUND for an agent the bundle does not serve. */
nb_status nb_line_find(nb_place *place, const nb_line_query *query, nb_line_result *res,
                       nb_err *err);
/* The same in slices (an expansion is a cell looked at; a slice ends at the
 * end of the row of cells where it reaches its count). */
nb_status nb_line_begin(nb_place *place, const nb_line_query *query, nb_err *err);
nb_status nb_line_step(nb_place *place, uint64_t expansions, int *done, nb_err *err);
nb_status nb_line_finish(nb_place *place, nb_line_result *res, nb_err *err);

typedef struct nb_random_query {
    int reachable;            /* 1: only cells joined by a path to start */
    nb_cell start;            /* when reachable: a cell of the map */
    uint64_t seed;            /* the generator's state for this draw: the result's state is
                                 the next draw's seed */
    uint32_t size;            /* the agent covers size x size cells, 1 or more */
    nb_capability capability; /* the bundle must hold a clearance layer for it */
    uint64_t max_expansions;  /* draws; 0: no limit (without an overlay that blocks cells,
                                 one draw always ends it) */
    const nb_overlay *overlay; /* cells blocked at run time (NULL: none): the cell is drawn
                                  from those standable (and joined to start) on the map as
                                  the overlay leaves it */
} nb_random_query;

/* Sets a query's defaults: any standable cell (reachable 0), seed 0, size
 * 1, capability 0 (set it), no limit, no overlay.  A macro, as
 * nb_aa_query_init. */
nb_status nb_random_query_init_abi(nb_random_query *q, const nb_abi *abi);
/* Sets a query's size and capability to the agent's. */
void nb_random_query_agent(nb_random_query *q, const nb_agent *agent);

typedef struct nb_random_result {
    nb_path_status status; /* FOUND; START_BLOCKED: the agent cannot stand
                              at start; NONE: no standable cell at all;
                              LIMIT: max_expansions draws were all refused
                              (under an overlay) or none was made */
    nb_cell cell;          /* the cell drawn; else (-1, -1) */
    uint32_t component;    /* its component (nb_component) */
    uint64_t cells;        /* how many cells it was drawn among: under an overlay that
                              blocks cells, those of the bundle the draws were made from
                              (the overlay's refusals aside) */
    uint64_t state;        /* the generator's state after the draw: the next seed */
    uint64_t draws;        /* draws made: 1 without an overlay that blocks cells */
    uint64_t expanded;     /* cells expanded by the searches that tell reach under
                              such an overlay (reachable); 0 without */
} nb_random_result;

/* A standable cell drawn uniformly from the component of query->start (or
 * from every standable cell of the map), with the generator whose state is
 * query->seed; the state after the draw is in res->state.  The same seed
 * gives the same cells on every platform (the generator, SplitMix64, and
 * the draw are specified in nb_random_find(3)).  O(log runs) from the runs
 * section mkclear bakes.  Under an overlay that blocks cells the draw is
 * by rejection: a cell drawn so is kept when the agent stands there under
 * the overlay and, with reachable, when it is joined to start on the map
 * as the overlay leaves it (told as nb_nearest_find tells it), else drawn
 * again, so the cell is uniform among those: about N / M draws, N the
 * cells drawn from and M those kept (res->draws; max_expansions bounds
 * them).  NB_ERR_NOTFOUND on a bundle without it (or, with
 * reachable, without the component layer) or for an agent the bundle does
 * not serve; NB_ERR_OUTSIDE for a start off the map; NB_ERR_FORMAT when the
 * cell the runs give is one the clearance layer says the agent cannot
 * stand on, or the component layer puts in another component (a runs
 * section that lies: no cell is drawn). */
nb_status nb_random_find(nb_place *place, const nb_random_query *query, nb_random_result *res,
                         nb_err *err);
/* The same in slices, for a game loop that runs every query so (a draw is
 * one expansion). */
nb_status nb_random_begin(nb_place *place, const nb_random_query *query, nb_err *err);
nb_status nb_random_step(nb_place *place, uint64_t expansions, int *done, nb_err *err);
nb_status nb_random_finish(nb_place *place, nb_random_result *res, nb_err *err);

/* ------------------------------------------------------------------ */
/* Worlds of tiles, streamed (lib/runtime/stream/)                     */

/* A world too large for one bundle is baked as tile bundles and a world
 * bundle (navbake world tile, link; formats/world.md).  An nb_world holds
 * the world bundle (its index of tiles and world-wide components) and maps
 * the tiles the game asks for: no query loads a tile unless the game asked
 * for it (nb_world_set_budget).  A query that needs a tile that is not
 * loaded says so (NB_ERR_UNLOADED) with the list of tiles it needs, so that
 * the game loads them on its own I/O thread and asks again.
 *
 * Threads: any number of threads may query a world while one thread (one
 * at a time) loads and unloads its tiles.  A query pins the tiles it reads
 * (a count per tile, two atomic operations) and an unload never waits:
 * the tile leaves the index at once, and is unmapped when no query holds
 * it any more, by that unload or a later load or unload (nb_world_open(3)
 * says why). */

typedef struct nb_world nb_world;

/* A tile's place in the world's grid of tiles: column and row, from 0. */
typedef struct nb_world_tile {
    uint32_t column, row;
} nb_world_tile;

/* What a world is (the world bundle's index) and what it holds now. */
typedef struct nb_world_info {
    uint32_t width, height;  /* cells */
    uint32_t tile;           /* a tile's side, in cells */
    uint32_t cluster, halo;  /* the side of HAA*'s clusters; the halo of each tile bundle */
    uint32_t columns, rows;  /* tiles */
    uint32_t loaded;         /* tiles loaded now */
    uint64_t retired;        /* tiles unloaded but still mapped for a query reading them */
} nb_world_info;

/* Opens the world bundle at path (written by navbake world link) and
 * checks its index and components.  tiles is the folder of the tile
 * bundles X_Y.nbb (NULL: the folder "tiles" beside the world bundle), read
 * only when a tile is loaded without a loader.  flags (NB_OPEN_VERIFY,
 * NB_OPEN_PRIVATE) apply to the world bundle and to every tile bundle
 * loaded; alloc (NULL: the C library's) serves the world and its tiles.
 * No tile is loaded.  A macro (the ABI guard), as nb_bundle_open. */
nb_status nb_world_open_abi(const char *path, const char *tiles, unsigned flags,
                            const nb_allocator *alloc, nb_world **out, nb_err *err,
                            const nb_abi *abi);
/* Unmaps every tile and the world bundle; NULL is allowed.  No query may
 * be running. */
void nb_world_close(nb_world *world);
/* The world bundle: its legend and agent set (nb_agent_get), its sections. */
const nb_bundle *nb_world_bundle(const nb_world *world);
/* The world's shape and the tiles it holds now. */
void nb_world_describe(const nb_world *world, nb_world_info *info);

/* A game's own source of tile bundles (its archive, its file system):
 * called by nb_world_load for each tile it loads, it sets *path to a file
 * to map, or *data and *len to the tile bundle's bytes (copied before the
 * load returns, then handed to release when it is not NULL).  An error it
 * returns (with its message in err) fails the load. */
typedef nb_status (*nb_world_loader)(void *opaque, nb_world_tile tile, const char **path,
                                     const void **data, size_t *len, nb_err *err);
typedef void (*nb_world_release)(void *opaque, nb_world_tile tile, const void *data);
/* Sets the loader (NULL: the files of the tile folder) for later loads. */
void nb_world_set_loader(nb_world *world, nb_world_loader loader, nb_world_release release,
                         void *opaque);

/* Loads a tile: maps its bundle, refuses it (NB_ERR_MISMATCH) when its
 * digest (file size and table CRC) or its tile section is not what the
 * world's index says, and publishes it to the queries.  A tile already
 * loaded is left as it is.  NB_ERR_OUTSIDE for a tile outside the grid;
 * the open's errors (NB_ERR_IO, NB_ERR_FORMAT...) with the tile named. */
nb_status nb_world_load(nb_world *world, nb_world_tile tile, nb_err *err);
/* Takes a tile out of the queries' sight; it is unmapped once no query
 * reads it.  A tile not loaded is left as it is.  NB_ERR_OUTSIDE as above. */
nb_status nb_world_unload(nb_world *world, nb_world_tile tile, nb_err *err);
/* The same for every tile that the w x h cells from (x, y) meet, the
 * rectangle clipped to the world (NB_ERR_ARG when w or h is below 1).
 * Loading stops at the first tile that fails, those before it loaded. */
nb_status nb_world_load_cells(nb_world *world, long x, long y, long w, long h, nb_err *err);
nb_status nb_world_unload_cells(nb_world *world, long x, long y, long w, long h, nb_err *err);
/* 1 when the tile is loaded, 0 when not or outside the grid. */
int nb_world_loaded(const nb_world *world, nb_world_tile tile);

/* Whether a path joins world cells from and to for an agent of (cap,
 * size), in *reachable (1 or 0: 0 also where the agent cannot stand), in
 * O(1): each cell's component in its tile bundle, mapped to the world's by
 * the world bundle.  NB_ERR_ARG for size 0 or a NULL world or reachable;
 * NB_ERR_OUTSIDE for a cell off the world; NB_ERR_NOTFOUND when the world
 * has no components for (cap, size); NB_ERR_UNLOADED when a cell's tile is
 * not loaded: *needed_count is then how many tiles the query needs that
 * are not loaded (1 or 2; 0 otherwise), the first needed_max of them in
 * needed (from's before to's). */
nb_status nb_world_reachable(const nb_world *world, nb_capability cap, unsigned size, nb_cell from,
                             nb_cell to, int *reachable, nb_world_tile *needed, size_t needed_max,
                             size_t *needed_count, nb_err *err);

/* The bytes the world holds: the world bundle's file and the handle's
 * arrays (a slot of 24 bytes a tile), and each tile bundle mapped (loaded,
 * or unloaded but still read by a query) with its views.  Mapped files
 * count whole: an upper bound of what is resident. */
size_t nb_world_bytes(const nb_world *world);
/* What of nb_world_bytes is in memory now: of each file mapped (the world
 * bundle, the tile bundles) the pages this process maps in memory (Linux:
 * its page table, /proc/self/pagemap; other POSIX systems: the file's pages
 * in the system's page cache, mincore; the whole file where the system
 * cannot say), and whole what is in the allocator's memory (a tile from the
 * loader's bytes, a bundle read rather than mapped, the tables, views and
 * arrays). */
size_t nb_world_resident(const nb_world *world);
/* Gives back to the system the world bundle's pages that belong to the
 * tiles not loaded now (their nodes, arcs and landmark distances of the
 * HAA* graph above the tiles), which long queries read and which would
 * otherwise stay resident as the game's players move on.  The file is not
 * unmapped: a later query that reads a page maps it again from the file,
 * the same bytes, so a trim is safe while other threads query (they may
 * only wait for a page fault).  The game calls it when it likes (after a
 * long query, each second); nothing calls it for the game.  Returns the
 * bytes given back (whole pages; 0 for a NULL world, a world bundle read
 * into memory rather than mapped, or a system without the call). */
size_t nb_world_trim(nb_world *world);
/* Automatic loading under a budget of bytes: with bytes above 0 and a
 * loader set (nb_world_set_loader), a query that needs a tile that is not
 * loaded (nb_world_aa_find, nb_world_nearest_find, nb_world_reachable)
 * loads it through the loader, on the query's thread, and goes on; a tile
 * it cannot load (the loader's error, a refusal as nb_world_load's) is the
 * query's error, with the tile named.  Without a loader queries never load
 * (NB_ERR_UNLOADED as above).  Every load, the game's or a query's, then
 * unloads the least recently used tiles that no query pins until
 * nb_world_bytes is at most bytes (SIZE_MAX: no limit); a query keeps
 * the tiles it reads pinned to its end, so while it runs the world may
 * hold more, and it is back within the budget when the query returns
 * (when no other query pins more).  Loads and unloads take a lock, so any
 * thread may then load.  0 (the default) turns both off. */
void nb_world_set_budget(nb_world *world, size_t bytes);

/* Cells blocked at run time in a world's coordinates, whatever tiles they
 * fall in (lib/runtime/stream/world_overlay.c): the queries across a world
 * take one (NULL: none) and answer as on the world with those cells made
 * hard obstacles.  It costs a page of 128 bytes for each 32 x 32 block of
 * cells that holds a blocked cell.  Change it only while no query reads it. */
typedef struct nb_world_overlay nb_world_overlay;
nb_status nb_world_overlay_open(const nb_world *world, nb_world_overlay **out, nb_err *err);
void nb_world_overlay_close(nb_world_overlay *overlay);
/* Blocks (unblocks) the w x h cells from (x, y), which must lie inside
 * the world (NB_ERR_ARG otherwise), as nb_overlay_block. */
nb_status nb_world_overlay_block(nb_world_overlay *overlay, long x, long y, long w, long h,
                                 nb_err *err);
nb_status nb_world_overlay_unblock(nb_world_overlay *overlay, long x, long y, long w, long h,
                                   nb_err *err);
/* 1 when world cell (x, y) is blocked, 0 when not or off the world. */
int nb_world_overlay_blocked(const nb_world_overlay *overlay, long x, long y);

/* Annotated A* across a world's tiles (lib/runtime/stream/world_aa.c):
 * nb_aa_find's query and result on world cells, each cell answered by the
 * tile that owns it, exact across tile borders (terrain costs too).  A
 * workspace per world and thread; its nodes follow the searches (pages of
 * 32 x 32 cells the searches reach), and a query allocates only to grow
 * it past anything asked before.  The query's overlay must be NULL: ov
 * blocks cells.  A tile that is not loaded is never entered: when the
 * search ends at a cost that no path through such a tile could beat, the
 * answer is the world's; else the status is NB_ERR_UNLOADED and
 * nb_world_aa_needed lists the tiles (those whose cells the search would
 * have entered below the cost it ended at), so that the game loads them
 * and asks again.  Other statuses and path statuses as nb_aa_find's. */
typedef struct nb_world_aa nb_world_aa;
nb_status nb_world_aa_open(const nb_world *world, nb_world_aa **out, nb_err *err);
void nb_world_aa_close(nb_world_aa *ws);
size_t nb_world_aa_bytes(const nb_world_aa *ws);
/* As nb_aa_set_max_nodes. */
void nb_world_aa_set_max_nodes(nb_world_aa *ws, uint64_t max_nodes);
nb_status nb_world_aa_find(nb_world_aa *ws, const nb_aa_query *query,
                           const nb_world_overlay *overlay, nb_aa_result *res, nb_err *err);
/* After a find that returned NB_ERR_UNLOADED: how many tiles it needs,
 * the first max of them in needed (in the order the search met them). */
size_t nb_world_aa_needed(const nb_world_aa *ws, nb_world_tile *needed, size_t max);
/* The same query in slices (the convention at the top of this header):
 * begin checks it (find's errors) and pins the tiles it reads from then
 * to finish; overlay must stay unchanged until finish.  A step that needs
 * a tile that is not loaded returns NB_ERR_UNLOADED and
 * nb_world_aa_needed lists the tiles it needs to go on (at most 3; the
 * ends' tiles at the first step); the query keeps its place, and the
 * next step, once the game has loaded them (on any thread), resumes the
 * same search.  A move into a tile not loaded waits until the bound of
 * any path through it comes first, so a step asks only for tiles that
 * find, with them missing, would have named, and the answer is find's on
 * the tiles loaded at the end.  With a loader and a budget
 * (nb_world_set_budget) the tiles are loaded through it instead.  Any
 * other query on the workspace (nearest, line, random) abandons a sliced
 * one (NB_ERR_ARG at its next step). */
nb_status nb_world_aa_begin(nb_world_aa *ws, const nb_aa_query *query,
                            const nb_world_overlay *overlay, nb_err *err);
nb_status nb_world_aa_step(nb_world_aa *ws, uint64_t expansions, int *done, nb_err *err);
nb_status nb_world_aa_finish(nb_world_aa *ws, nb_aa_result *res, nb_err *err);

/* nb_nearest_find across a world's tiles, in a world workspace: the same
 * query, answer and order of rings, each cell read in the tile that owns
 * it, ov (NULL: none; the query's overlay must be NULL) blocking cells in
 * world coordinates, reach from the world's components.  A cell in a tile
 * not loaded is not read; the answer stands when no such cell is nearer
 * (or as near), else NB_ERR_UNLOADED and nb_world_aa_needed lists their
 * tiles.  reachable under an overlay that blocks cells asks a search on
 * the edited grid whether the blocks cut the answer off from the start;
 * reachable needs the world's components of the agent (NB_ERR_NOTFOUND
 * without). */
nb_status nb_world_nearest_find(nb_world_aa *ws, const nb_nearest_query *query,
                                const nb_world_overlay *overlay, nb_nearest_result *res,
                                nb_err *err);

/* nb_line_find across a world's tiles, in a world workspace
 * (lib/runtime/stream/world_line.c): the same query, sweep and answer as
 * on the map baked whole, each cell read in the tile that owns it, ov
 * (NULL: none; the query's overlay must be NULL) blocking cells in world
 * coordinates.  A cell in a tile not loaded is not read: the answer stands
 * when the square enters no such cell before the point the answer gives
 * (at it too, when blocked), else NB_ERR_UNLOADED and nb_world_aa_needed
 * lists their tiles.  NB_ERR_LIMIT on a world of more than 32768 cells a
 * side; other errors as nb_line_find's. */
nb_status nb_world_line_find(nb_world_aa *ws, const nb_line_query *query,
                             const nb_world_overlay *overlay, nb_line_result *res, nb_err *err);

/* nb_random_find across a world's tiles, in a world workspace
 * (lib/runtime/stream/world_random.c): a cell drawn uniformly from the
 * cells of the w x h rectangle from world cell (x, y) (clipped to the
 * world; NB_ERR_ARG when w or h is below 1) where the agent stands, and
 * with query->reachable that the world's components join to
 * query->start, with the generator and seed of nb_random_find.  Every tile
 * the rectangle meets must be loaded (else NB_ERR_UNLOADED and
 * nb_world_aa_needed lists those that are not), and the start's tile with
 * reachable.  ov (NULL: none; the query's overlay must be NULL) refuses
 * the cells it leaves the agent no room on, by drawing again, as
 * nb_random_find, and with reachable the cells a search on the edited
 * grid does not join to the start.  res->cells counts the cells of the
 * rectangle drawn from; a draw reads the runs of the tiles it meets
 * (nb_world_random_find(3)). */
nb_status nb_world_random_find(nb_world_aa *ws, const nb_random_query *query,
                               const nb_world_overlay *overlay, long x, long y, long w, long h,
                               nb_random_result *res, nb_err *err);
/* HAA* across a world's tiles (lib/runtime/stream/world_haa.c):
 * nb_haa_find's query and result on world cells.  The abstract search
 * runs over the world bundle's graph above the tiles (navbake world link)
 * and reads no tile; the ends' tiles are read to insert them, and the
 * tiles the path crosses to refine each stretch inside one by that tile's
 * own HAA* (NB_HAA_STRAIGHTEN straightens each stretch).  Complete, never
 * shorter than nb_world_aa_find; the corner rule is the tiles' graphs';
 * ends in different world components answered without a search.
 * A workspace per world and thread, holding one search a (capability,
 * size) its queries name.  max_expansions caps the search above the
 * tiles (NB_PATH_LIMIT, the path the start alone); res->level is 1 and
 * expanded counts that search's nodes (expanded_search).  Under an
 * overlay that blocks cells, the tiles it edits are walked on the edited
 * grid instead of through the world graph (the path a walk of the edited
 * grid, complete against nb_world_aa_find under it).  Not answered across
 * tiles yet: NB_HAA_SMOOTH, partial (NB_ERR_ARG); terrain costs
 * (NB_ERR_NOTFOUND, as a graph without their profile).  With a loader
 * and a budget (nb_world_set_budget) a query loads the tiles it needs;
 * otherwise, when the ends' tiles, those its path crosses or the edited
 * ones it walks are not loaded the status is NB_ERR_UNLOADED and
 * nb_world_haa_needed lists them.  NB_ERR_NOTFOUND when the world bundle
 * holds no graph for the agent. */
typedef struct nb_world_haa nb_world_haa;
nb_status nb_world_haa_open(const nb_world *world, nb_world_haa **out, nb_err *err);
void nb_world_haa_close(nb_world_haa *ws);
size_t nb_world_haa_bytes(const nb_world_haa *ws);
nb_status nb_world_haa_find(nb_world_haa *ws, const nb_haa_query *query,
                            const nb_world_overlay *overlay, nb_haa_result *res, nb_err *err);
/* After a find that returned NB_ERR_UNLOADED: how many tiles it needs,
 * the first max of them in needed. */
size_t nb_world_haa_needed(const nb_world_haa *ws, nb_world_tile *needed, size_t max);
/* The same query in slices (the convention at the top of this header;
 * expansions count the search above the tiles' nodes).  The first step
 * reads the ends' tiles and inserts the ends; the step that ends the
 * search refines its path through the tiles it crosses.  A step that
 * needs a tile that is not loaded returns NB_ERR_UNLOADED and
 * nb_world_haa_needed lists them; the query keeps its place (the
 * insertion, or the abstract path awaiting refinement), and the next step
 * after the game has loaded them resumes it.  Under an overlay that blocks
 * cells, an edited tile the search walks that is not loaded is named when
 * the search ends, and the next step searches again.  With a loader and a
 * budget the tiles are loaded through it instead.  overlay must stay
 * unchanged until finish; before the end finish answers NB_PATH_LIMIT with
 * the start alone, as find stopped by max_expansions. */
nb_status nb_world_haa_begin(nb_world_haa *ws, const nb_haa_query *query,
                             const nb_world_overlay *overlay, nb_err *err);
nb_status nb_world_haa_step(nb_world_haa *ws, uint64_t expansions, int *done, nb_err *err);
nb_status nb_world_haa_finish(nb_world_haa *ws, nb_haa_result *res, nb_err *err);

/* The optimal layer across a world's tiles, exact
 * (lib/runtime/stream/world_sg.c): nb_sg_find's query and result on world
 * cells, for a world whose manifest says `optimal: 1` (navbake world link
 * then joins each tile's border into the world bundle: the strict corner
 * rule, every (capability, size) of the agent set).  The search runs over
 * the tiles' portals and their distances inside each tile, reading no
 * tile; the ends' tiles are read to join the ends, and the tiles the path
 * crosses to walk it into cells.  res->expanded counts the portals
 * settled; scanned is 0.  max_expansions caps them (NB_PATH_LIMIT, the
 * start alone).  Under a world overlay that blocks cells the answer stays
 * exact: the tiles it edits are searched under it where the query reads
 * them (their rows kept for the next query under the same overlay).  Not
 * answered (refused): terrain costs (NB_ERR_NOTFOUND, as a layer without
 * their profile); partial paths (NB_ERR_UNSUPPORTED: nb_world_aa_find
 * answers them).
 * With a loader and a budget (nb_world_set_budget) a query loads the
 * tiles it needs; otherwise NB_ERR_UNLOADED and nb_world_sg_needed lists
 * them.  NB_ERR_NOTFOUND when the world bundle holds no layer for the
 * agent and corner rule.  A workspace per world and thread. */
typedef struct nb_world_sg nb_world_sg;
nb_status nb_world_sg_open(const nb_world *world, nb_world_sg **out, nb_err *err);
void nb_world_sg_close(nb_world_sg *ws);
size_t nb_world_sg_bytes(const nb_world_sg *ws);
nb_status nb_world_sg_find(nb_world_sg *ws, const nb_sg_query *query,
                           const nb_world_overlay *overlay, nb_sg_result *res, nb_err *err);
/* After a find that returned NB_ERR_UNLOADED: how many tiles it needs,
 * the first max of them in needed. */
size_t nb_world_sg_needed(const nb_world_sg *ws, nb_world_tile *needed, size_t max);
/* The same query in slices (the convention at the top of this header;
 * expansions count the portals settled).  The first step reads the ends'
 * tiles and joins the ends to their portals; the step that ends the search
 * walks its path into cells through the tiles it crosses.  A step that
 * needs a tile that is not loaded returns NB_ERR_UNLOADED and
 * nb_world_sg_needed lists them; the query keeps its place (the ends to
 * join, or the path to walk), and the next step after the game has loaded
 * them resumes it.  Before the end finish answers NB_PATH_LIMIT with the
 * start alone, as find stopped by max_expansions. */
nb_status nb_world_sg_begin(nb_world_sg *ws, const nb_sg_query *query,
                            const nb_world_overlay *overlay, nb_err *err);
nb_status nb_world_sg_step(nb_world_sg *ws, uint64_t expansions, int *done, nb_err *err);
nb_status nb_world_sg_finish(nb_world_sg *ws, nb_sg_result *res, nb_err *err);

/* ------------------------------------------------------------------ */
/* The ABI guard's list                                                */

/* The public structs in the order of nb_abi's sizes: entries are only ever
 * added at the end. */
#define NB_ABI_STRUCTS(X)                                                                       \
    X(nb_err) X(nb_allocator) X(nb_section_info) X(nb_agent) X(nb_cell) X(nb_vec2) X(nb_frame)  \
    X(nb_aa_query) X(nb_aa_result) X(nb_sg_query) X(nb_sg_result) X(nb_haa_query)              \
    X(nb_haa_result) X(nb_haa_graph) X(nb_motion_state) X(nb_motion_query) X(nb_motion_result) \
    X(nb_pose) X(nb_segment) X(nb_curve) X(nb_unit) X(nb_planner_query) X(nb_planner_result)   \
    X(nb_circle) X(nb_forest_graph_info) X(nb_forest_query) X(nb_forest_result)                \
    X(nb_nearest_query) X(nb_nearest_result) X(nb_line_query) X(nb_line_result)                \
    X(nb_random_query) X(nb_random_result) X(nb_world_tile) X(nb_world_info)

/* This header's nb_abi, one copy per translation unit (static const
 * objects, which C89 and C++98 accept and no compiler warns about when a
 * header defines them unused). */
#define NB_ABI_SIZE_(t) (uint32_t) sizeof(t),
static const uint32_t nb_abi_sizes_[] = {NB_ABI_STRUCTS(NB_ABI_SIZE_)};
#undef NB_ABI_SIZE_
static const nb_abi nb_abi_this_ = {NB_VERSION_MAJOR, NB_VERSION_MINOR,
                                    (uint32_t)(sizeof nb_abi_sizes_ / sizeof nb_abi_sizes_[0]),
                                    nb_abi_sizes_};
#define NB_ABI_THIS (&nb_abi_this_)

/* The calls that pass it.  Variadic where the language has such macros, so
 * that an argument holding a comma (a C99 compound literal) passes whole. */
#if (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L) || \
    (defined(__cplusplus) && __cplusplus >= 201103L) || (defined(_MSC_VER) && _MSC_VER >= 1400)
#define nb_bundle_open(...) nb_bundle_open_abi(__VA_ARGS__, NB_ABI_THIS)
#define nb_bundle_open_memory(...) nb_bundle_open_memory_abi(__VA_ARGS__, NB_ABI_THIS)
#define nb_forest_open_circles(...) nb_forest_open_circles_abi(__VA_ARGS__, NB_ABI_THIS)
#define nb_aa_query_init(...) nb_aa_query_init_abi(__VA_ARGS__, NB_ABI_THIS)
#define nb_sg_query_init(...) nb_sg_query_init_abi(__VA_ARGS__, NB_ABI_THIS)
#define nb_haa_query_init(...) nb_haa_query_init_abi(__VA_ARGS__, NB_ABI_THIS)
#define nb_motion_query_init(...) nb_motion_query_init_abi(__VA_ARGS__, NB_ABI_THIS)
#define nb_planner_query_init(...) nb_planner_query_init_abi(__VA_ARGS__, NB_ABI_THIS)
#define nb_forest_query_init(...) nb_forest_query_init_abi(__VA_ARGS__, NB_ABI_THIS)
#define nb_nearest_query_init(...) nb_nearest_query_init_abi(__VA_ARGS__, NB_ABI_THIS)
#define nb_line_query_init(...) nb_line_query_init_abi(__VA_ARGS__, NB_ABI_THIS)
#define nb_random_query_init(...) nb_random_query_init_abi(__VA_ARGS__, NB_ABI_THIS)
#define nb_world_open(...) nb_world_open_abi(__VA_ARGS__, NB_ABI_THIS)
#else
#define nb_bundle_open(path, flags, alloc, out, err) \
    nb_bundle_open_abi(path, flags, alloc, out, err, NB_ABI_THIS)
#define nb_bundle_open_memory(data, len, flags, alloc, out, err) \
    nb_bundle_open_memory_abi(data, len, flags, alloc, out, err, NB_ABI_THIS)
#define nb_forest_open_circles(circles, n, bounds, alloc, out, err) \
    nb_forest_open_circles_abi(circles, n, bounds, alloc, out, err, NB_ABI_THIS)
#define nb_aa_query_init(q) nb_aa_query_init_abi(q, NB_ABI_THIS)
#define nb_sg_query_init(q) nb_sg_query_init_abi(q, NB_ABI_THIS)
#define nb_haa_query_init(q) nb_haa_query_init_abi(q, NB_ABI_THIS)
#define nb_motion_query_init(q) nb_motion_query_init_abi(q, NB_ABI_THIS)
#define nb_planner_query_init(q) nb_planner_query_init_abi(q, NB_ABI_THIS)
#define nb_forest_query_init(q) nb_forest_query_init_abi(q, NB_ABI_THIS)
#define nb_nearest_query_init(q) nb_nearest_query_init_abi(q, NB_ABI_THIS)
#define nb_line_query_init(q) nb_line_query_init_abi(q, NB_ABI_THIS)
#define nb_random_query_init(q) nb_random_query_init_abi(q, NB_ABI_THIS)
#define nb_world_open(path, tiles, flags, alloc, out, err) \
    nb_world_open_abi(path, tiles, flags, alloc, out, err, NB_ABI_THIS)
#endif

#ifdef __cplusplus
}
#endif

#endif /* NAVBAKE_H */
