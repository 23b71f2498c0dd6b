/* bundle.h: an open bundle inside the runtime: its sections, and the level
 * it holds (legend, agent set, map), decoded once at open.  Internal. */
#ifndef NB_BUNDLE_H
#define NB_BUNDLE_H

#include <stdatomic.h>

#include "core/base.h"
#include "core/format.h"

/* ---- the legend (legend.c) ---- */

#define NBI_CHARS_MAX 95 /* printable ASCII, '!' to '~' */

typedef struct nbi_legend {
    unsigned nterrains;
    char names[NB_MAX_TERRAINS][NB_NAME_MAX + 1];
    char chars[NB_MAX_TERRAINS][NBI_CHARS_MAX + 1]; /* derived from code[] */
    char obstacles[NBI_CHARS_MAX + 1];               /* derived from code[] */
    uint8_t code[256]; /* per character: terrain, NBI_CELL_OBSTACLE or NBI_CELL_INVALID */
} nbi_legend;

/* The MovingAI legend: '.' 'G' ground, 'S' swamp, 'W' water, 'T' trees,
 * '@' 'O' obstacles. */
void nbi_legend_default(nbi_legend *legend);
/* Rebuilds chars[] and obstacles[] from code[]. */
void nbi_legend_derive_chars(nbi_legend *legend);
/* Checks a terrain or agent name: 1-31 of [A-Za-z0-9_-]. */
int nbi_name_ok(const char *name);
/* The terrain called name, or -1. */
int nbi_legend_find(const nbi_legend *legend, const char *name, size_t len);
size_t nbi_legend_encoded_size(const nbi_legend *legend);
void nbi_legend_encode(const nbi_legend *legend, uint8_t *out);
nb_status nbi_legend_decode(const uint8_t *p, size_t len, nbi_legend *legend, nb_err *err);
nb_status nbi_capability_parse(const nbi_legend *legend, const char *list, nb_capability *out,
                               nb_err *err);
size_t nbi_capability_format(const nbi_legend *legend, nb_capability cap, char *buf, size_t len);

/* ---- the map's cells, read in place (map_cells.c; formats/bundle.md) ----
 * Version 1 stores a character a cell (bits 8, the palette the identity);
 * version 2 packs each cell to 1, 2, 4 or 8 bits, a value indexing the
 * palette of the characters the map uses.  Every reader of a bundle's cells
 * goes through nbi_map_value / nbi_map_char_at (or, on the bake side,
 * nbi_map_bytes). */
typedef struct nbi_map {
    const uint8_t *values;  /* the packed values, row-major, cell i = y W + x */
    const uint8_t *palette; /* 256 bytes: each value's character (0 past the palette) */
    uint32_t bits;          /* 1, 2, 4 or 8 */
    uint32_t shift;         /* log2(8 / bits): cell i is in byte i >> shift */
    uint32_t low;           /* 2^shift - 1: i & low is its place in the byte */
    uint32_t lg;            /* log2(bits): that place's first bit is (i & low) << lg */
    uint32_t mask;          /* 2^bits - 1 */
    uint32_t chars;         /* characters in the palette */
} nbi_map;

/* The identity palette (a version 1 map, the bake's grid of characters). */
extern const uint8_t nbi_map_identity[256];

/* Cell i's stored value: below 2^bits, so always an index of the palette.
 * One formula for every width (bits 8: shift 0, the byte itself), its
 * constants kept in the view: costs read a cell per move. */
static inline uint32_t nbi_map_value(const nbi_map *m, size_t i)
{
    return (uint32_t)(m->values[i >> m->shift] >> (((unsigned)i & m->low) << m->lg)) & m->mask;
}

/* Cell i's character: a value beyond the palette reads as 0, which no
 * legend defines (so an obstacle to every query; verify names it). */
static inline uint8_t nbi_map_char_at(const nbi_map *m, size_t i)
{
    return m->palette[nbi_map_value(m, i)];
}

/* A view of raw characters (bits 8, the identity palette). */
void nbi_map_of_chars(nbi_map *m, const uint8_t *cells);
/* The n characters from cell first into out. */
void nbi_map_chars(const nbi_map *m, size_t first, size_t n, uint8_t *out);
/* Checks a map section's payload (version 1 or 2) and makes its view:
 * width and height 1 to NB_MAP_MAX_SIDE, the exact length, and for version
 * 2 the bits, the palette (1 to 2^bits characters, increasing, zeros after
 * them) and the last byte's unused bits zero.  Messages start "map section:". */
nb_status nbi_map_decode(const uint8_t *p, uint64_t len, uint16_t version, uint32_t *width,
                         uint32_t *height, nbi_map *m, nb_err *err);
/* Bytes of a version 2 payload of w x h cells at bits a cell. */
uint64_t nbi_map_packed_size(uint32_t w, uint32_t h, uint32_t bits);

/* ---- the agent set (agents.c) ---- */

/* An open bundle's set is allocated for its count of agents alone: never
 * copy one whole, nor read agent[] past count. */
typedef struct nbi_agentset {
    size_t count;
    nb_agent agent[NB_MAX_AGENTS];
    /* Bake side: the heightmap step limit an agent states (formats/agents.md);
     * none (has_step 0) follows the legend's.  Not stored in a bundle. */
    uint8_t has_step[NB_MAX_AGENTS];
    uint32_t max_step[NB_MAX_AGENTS];
} nbi_agentset;

/* 1 when the agent has a terrain cost other than 1 within its capability. */
int nbi_agent_weighted(const nb_agent *a);
/* The section version the set is written with: 2 when some agent is
 * weighted, else 1 (the bytes of a set without costs never change). */
uint16_t nbi_agents_version(const nbi_agentset *set);
size_t nbi_agents_encoded_size(const nbi_agentset *set, unsigned nterrains);
void nbi_agents_encode(const nbi_agentset *set, unsigned nterrains, uint8_t *out);
nb_status nbi_agents_decode(const uint8_t *p, size_t len, uint16_t version,
                            const nbi_legend *legend, nbi_agentset *set, nb_err *err);
/* Checks names, sizes and capabilities against the legend. */
nb_status nbi_agents_check(const nbi_agentset *set, const nbi_legend *legend, nb_err *err);
/* Distinct capabilities, in first-seen order; returns how many. */
size_t nbi_agents_capabilities(const nbi_agentset *set, nb_capability *caps);
/* Distinct sizes, ascending; returns how many. */
size_t nbi_agents_sizes(const nbi_agentset *set, uint32_t *sizes);
uint32_t nbi_agents_max_size(const nbi_agentset *set);

/* ---- section types, as the registry describes them ---- */

/* The container knows no section type of its own: a bundle is opened
 * with the registry's table of types (sections/sections.c), through which
 * it names types in messages, tells the types this reader knows from
 * newer ones, and runs their structural checks (verify.c).  The registry
 * sits above the features whose checks it lists. */
typedef nb_status (*nbi_section_check_fn)(const nb_bundle *b, size_t index, nb_err *err);

struct nbi_section_kind {
    uint32_t type;
    const char *name;
    const char *params[NB_SECTION_PARAMS]; /* what param[i] means, or NULL */
    /* The check the type's reader makes before any query trusts a section
     * (section index of b); NULL when the type has none, and then unchecked
     * says why.  nb_bundle_verify runs it (nbi_sections_check), and so
     * does every open with NB_OPEN_VERIFY and navbake verify. */
    nbi_section_check_fn check;
    const char *unchecked;
};

typedef struct nbi_section_kinds {
    const struct nbi_section_kind *kind; /* in type order */
    size_t count;
} nbi_section_kinds;

/* ---- an open bundle (bundle.c; opened by open.c) ---- */

struct nbi_section {
    nb_section_info info;
    const uint8_t *stored;  /* the stored bytes, in the mapping */
    const uint8_t *payload; /* decoded: == stored, or owned inflated bytes */
    uint8_t *owned;         /* inflated payload to free */
    /* Its reader's check of the whole payload, made once (checked.c). */
    atomic_uint check;      /* NBI_CHECK_* */
    nb_status check_status;
    char check_msg[NB_ERR_MSG_MAX];
};

struct nb_bundle {
    nb_allocator alloc;     /* what it and everything made from it allocate with */
    const nb_allocator *a;  /* &alloc, or NULL for the C library's */
    void *mapping;       /* mmap'ed file, or NULL */
    size_t mapping_len;
    uint8_t *buffer;     /* file read into memory, or NULL */
    const uint8_t *data; /* the whole file */
    uint64_t size;
    unsigned major, minor;
    uint32_t flags;
    size_t nsections;
    struct nbi_section *sections;
    char *path;
    nb_bundle_form form; /* NB_FORM_SQLITE: data is the binary image rebuilt from the database */
    uint64_t source_size; /* the size of what was opened (the database file for SQLite) */
    int from_file;        /* opened by its name (not standard input or memory) */
    const nbi_section_kinds *kinds; /* the types it was opened with */

    /* Known sections, decoded at open. */
    int has_legend;
    nbi_legend legend;
    nbi_agentset *agents; /* NULL when the bundle has no agent set */
    int has_map;
    uint32_t width, height;
    nbi_map map;          /* the cells, in the mapped section */
    uint8_t *map_bytes;   /* nbi_map_bytes' copy of a packed map, or NULL */
};

/* An empty bundle named name (for messages), allocating with a (NULL: the
 * C library), that knows the section types kinds lists. */
nb_bundle *nbi_bundle_new(const char *name, const nb_allocator *a, const nbi_section_kinds *kinds,
                          nb_err *err);
/* The kind of a section type in the bundle's table, or NULL for a type
 * this reader does not know; its name, or NULL (kinds.c). */
const struct nbi_section_kind *nbi_kind_of(const nb_bundle *b, uint32_t type);
const char *nbi_type_name(const nb_bundle *b, uint32_t type);
/* Checks and decodes b->data (the file, or an SQLite database, which is
 * turned into its binary image first): header, table, the sections the
 * runtime decodes at open. */
nb_status nbi_bundle_load(nb_bundle *b, unsigned flags, nb_err *err);
/* Checks a section's stored CRC. */
nb_status nbi_section_crc_check(const nb_bundle *bundle, size_t index, nb_err *err);
/* The index of the first section of this type whose name equals name (any
 * name when NULL) and whose first nparams parameters equal params; -1 if
 * none (nb_bundle_section_lookup without a message, for readers). */
long nbi_section_index(const nb_bundle *b, uint32_t type, const char *name, const uint32_t *params,
                       size_t nparams);
/* The map's width x height characters, row-major, for the bake side and the
 * tools, which read whole maps: a version 1 map's own bytes, else a copy
 * unpacked at the first call and kept until the bundle closes (not safe to
 * call first from two threads at once).  NULL without a map or memory.
 * Queries never call it: they read the cells in place. */
const uint8_t *nbi_map_bytes(const nb_bundle *b);

/* ---- opening (open.c), with the table of section types to know ---- */

/* nb_bundle_open, nb_bundle_open_memory and nbi_bundle_open_image
 * (sections/sections.h) with the types of kinds. */
nb_status nbi_open_path(const nbi_section_kinds *kinds, const char *path, unsigned flags,
                        const nb_allocator *alloc, nb_bundle **out, nb_err *err);
nb_status nbi_open_memory(const nbi_section_kinds *kinds, const void *data, size_t len,
                          unsigned flags, const nb_allocator *alloc, nb_bundle **out, nb_err *err);
nb_status nbi_open_image(const nbi_section_kinds *kinds, uint8_t *image, size_t len,
                         const char *name, unsigned flags, const nb_allocator *alloc,
                         nb_bundle **out, nb_err *err);

/* ---- the sections' own checks (verify.c) ---- */

/* Runs the check of every section whose kind has one, in table order, as
 * its reader would before a query: the first failure's status and
 * message. */
nb_status nbi_sections_check(const nb_bundle *b, nb_err *err);

/* ---- checks made once per bundle (checked.c) ---- */

enum { NBI_CHECK_NONE = 0, NBI_CHECK_RUNNING, NBI_CHECK_OK, NBI_CHECK_BAD };

/* The check a reader makes of a whole section before its searches trust
 * it (every index of a graph, say), made once per bundle however many
 * handles and threads ask: check(b, index, err) runs for the first
 * caller, and its answer (NB_OK, or the status and message) is kept in
 * the bundle and given to every later one.  A caller that comes while
 * another thread's check is running makes its own rather than wait (the
 * same answer: the bundle is read-only), so no lock is needed. */
nb_status nbi_section_checked(const nb_bundle *b, size_t index,
                              nb_status (*check)(const nb_bundle *b, size_t index, nb_err *err),
                              nb_err *err);

/* ---- the order of the section table (table_order.c) ---- */

/* Orders sections by (type, name, parameters): the order of every table. */
int nbi_section_key_cmp(const nb_section_info *a, const nb_section_info *b);
/* NB_OK when section i of b's table comes after section i - 1 in that
 * order (and is not of its key); else NB_ERR_FORMAT naming both. */
nb_status nbi_table_order_check(const nb_bundle *b, size_t i, nb_err *err);

/* ---- the binary layout (layout.c) ---- */

/* Sets the offset of each of n sections, in table order, and returns the
 * file size. */
uint64_t nbi_layout_offsets(nb_section_info *secs, size_t n);
/* Writes the header and the section table, NBI_HEADER_SIZE + n *
 * NBI_ENTRY_SIZE bytes, of sections laid out by nbi_layout_offsets. */
void nbi_layout_head(const nb_section_info *secs, size_t n, unsigned major, unsigned minor,
                     uint32_t flags, uint64_t file_size, uint8_t *head);

/* ---- the SQLite form (sqlite_read.c, or sqlite_none.c in a runtime
 * built without SQLite; formats/sqlite.md) ---- */

/* Replaces the SQLite database that bundle->data holds (read from
 * bundle->path when bundle->mapping is set, else from the bytes) by the
 * binary image of the same bundle, in bundle->buffer, so that the usual
 * checks and decoding follow.  With NB_OPEN_VERIFY, SQLite's own
 * quick_check runs too. */
nb_status nbi_sqlite_load(nb_bundle *bundle, unsigned flags, nb_err *err);

#endif
