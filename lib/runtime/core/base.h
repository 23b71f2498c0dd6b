/* internal.h: what the library's own files share; not installed.
 *
 * Internal functions are named nbi_ so that libnavbake exports only the
 * public nb_ API (the link uses -export-symbols-regex '^nb_'). */
#ifndef NB_INTERNAL_H
#define NB_INTERNAL_H

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "navbake.h"

#if defined(__GNUC__)
#define NBI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define NBI_PRINTF(f, a)
#endif

/* ---- errors (error.c) ---- */

/* Fills err (when not NULL) and returns code. */
nb_status nbi_fail(nb_err *err, nb_status code, const char *fmt, ...) NBI_PRINTF(3, 4);
nb_status nbi_vfail(nb_err *err, nb_status code, const char *fmt, va_list ap);
/* Marks err as success. */
void nbi_ok(nb_err *err);
/* Prepends "prefix: " to an error message already in err. */
void nbi_err_prefix(nb_err *err, const char *fmt, ...) NBI_PRINTF(2, 3);
/* The message of errno for a failed system call on path. */
nb_status nbi_fail_errno(nb_err *err, const char *what, const char *path);

/* ---- little-endian fields (every integer in a bundle) ---- */

static inline uint16_t nbi_get16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t nbi_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t nbi_get64(const uint8_t *p)
{
    return (uint64_t)nbi_get32(p) | ((uint64_t)nbi_get32(p + 4) << 32);
}
static inline void nbi_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void nbi_put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}
static inline void nbi_put64(uint8_t *p, uint64_t v)
{
    nbi_put32(p, (uint32_t)v);
    nbi_put32(p + 4, (uint32_t)(v >> 32));
}

/* A real: IEEE 754 binary64, little-endian. */
static inline double nbi_getf64(const uint8_t *p)
{
    uint64_t v = nbi_get64(p);
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}
static inline void nbi_putf64(uint8_t *p, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    nbi_put64(p, v);
}

/* ---- angles (radians; curves, sweeps and forests alike) ---- */

#define NBI_PI 3.1415926535897932384626433832795
#define NBI_TWO_PI 6.283185307179586476925286766559
#define NBI_HALF_PI 1.5707963267948966192313216916398

/* a reduced to [0, 2 pi): how far round a circle, in the positive sense,
 * an angle lies from 0. */
static inline double nbi_angle_mod(double a)
{
    /* Differences of angles in [-pi, pi] need one step at most. */
    if (a >= 0 && a < NBI_TWO_PI)
        return a;
    if (a < 0 && a >= -NBI_TWO_PI) {
        a += NBI_TWO_PI;
        return a >= NBI_TWO_PI ? 0 : a;
    }
    a = fmod(a, NBI_TWO_PI);
    if (a < 0)
        a += NBI_TWO_PI;
    return a >= NBI_TWO_PI ? 0 : a;
}

/* ---- file layout (formats/bundle.md) ---- */

#define NBI_MAGIC "\x89NBK\r\n\x1a\n"
#define NBI_MAGIC_LEN 8
#define NBI_SQLITE_MAGIC "SQLite format 3"
#define NBI_HEADER_SIZE 64
#define NBI_ENTRY_SIZE 128
#define NBI_ALIGN 64
#define NBI_MAX_SECTIONS 65536

/* ---- the legend (legend.c) ---- */

#define NBI_CELL_OBSTACLE 0xffu /* legend code of a hard obstacle character */
#define NBI_CELL_INVALID 0xfeu  /* legend code of a character the legend does not know */
#define NBI_CHARS_MAX 95        /* printable ASCII, '!' to '~' */

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

/* ---- the agent set (agents.c) ---- */

typedef struct nbi_agentset {
    size_t count;
    nb_agent agent[NB_MAX_AGENTS];
} nbi_agentset;

#define NBI_AGENT_RECORD 48
size_t nbi_agents_encoded_size(const nbi_agentset *set);
void nbi_agents_encode(const nbi_agentset *set, uint8_t *out);
nb_status nbi_agents_decode(const uint8_t *p, size_t len, const nbi_legend *legend,
                            nbi_agentset *set, nb_err *err);
/* Checks names, sizes and capabilities against the legend. */
nb_status nbi_agents_check(const nbi_agentset *set, const nbi_legend *legend, nb_err *err);
/* Distinct capabilities, in first-seen order; returns how many. */
size_t nbi_agents_capabilities(const nbi_agentset *set, nb_capability *caps);
/* Distinct sizes, ascending; returns how many. */
size_t nbi_agents_sizes(const nbi_agentset *set, uint32_t *sizes);
uint32_t nbi_agents_max_size(const nbi_agentset *set);

/* ---- the map section (map.c) ---- */

#define NBI_MAP_HEADER 8 /* u32 width, u32 height, then the cells */

/* ---- an open bundle (bundle.c) ---- */

struct nbi_section {
    nb_section_info info;
    const uint8_t *stored;  /* the stored bytes, in the mapping */
    const uint8_t *payload; /* decoded: == stored, or owned inflated bytes */
    uint8_t *owned;         /* inflated payload to free */
};

struct nb_bundle {
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

    /* Known sections, decoded at open. */
    int has_legend;
    nbi_legend legend;
    nbi_agentset *agents; /* NULL when the bundle has no agent set */
    int has_map;
    uint32_t width, height;
    const uint8_t *cells; /* width * height map characters, row-major */
};

/* Checks a section's stored CRC. */
nb_status nbi_section_crc_check(const nb_bundle *bundle, size_t index, nb_err *err);
/* Opens a binary bundle image held in memory, taking ownership of image
 * (freed by nb_bundle_close, or here on failure); name is used in messages. */
nb_status nbi_bundle_open_image(uint8_t *image, size_t len, const char *name, unsigned flags,
                                nb_bundle **out, nb_err *err);

/* ---- the binary layout (bundle_layout.c) ---- */

/* Orders sections by (type, name, parameters): the order of every table. */
int nbi_section_key_cmp(const nb_section_info *a, const nb_section_info *b);
/* Sets the offset of each of n sections, in table order, and returns the
 * file size. */
uint64_t nbi_layout_offsets(nb_section_info *secs, size_t n);
/* Writes the header and the section table, NBI_HEADER_SIZE + n *
 * NBI_ENTRY_SIZE bytes, of sections laid out by nbi_layout_offsets. */
void nbi_layout_head(const nb_section_info *secs, size_t n, unsigned major, unsigned minor,
                     uint32_t flags, uint64_t file_size, uint8_t *head);

/* ---- the SQLite form (bundle_sqlite.c, or bundle_nosqlite.c in a runtime
 * built without SQLite; formats/sqlite.md) ---- */

#define NBI_SQLITE_APPLICATION_ID 0x4E424B53 /* "NBKS" */
#define NBI_SQLITE_SCHEMA 1000               /* user_version: 1000 x major + minor */

/* Replaces the SQLite database that bundle->data holds (read from
 * bundle->path when bundle->mapping is set, else from the bytes) by the
 * binary image of the same bundle, in bundle->buffer, so that the usual
 * checks and decoding follow.  With NB_OPEN_VERIFY, SQLite's own
 * quick_check runs too. */
nb_status nbi_sqlite_load(nb_bundle *bundle, unsigned flags, nb_err *err);

/* ---- section type registry (sections.c) ---- */

struct nbi_section_kind {
    uint32_t type;
    const char *name;
    const char *params[NB_SECTION_PARAMS];
};
const struct nbi_section_kind *nbi_section_kind(uint32_t type);
/* The i-th known kind, in type order, or NULL past the last. */
const struct nbi_section_kind *nbi_section_kind_at(size_t i);

#endif /* NB_INTERNAL_H */
