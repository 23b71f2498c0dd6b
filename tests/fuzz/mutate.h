/* mutate.h: the structure-aware mutators of tests/fuzz (README.md there).
 *
 * A bundle is taken apart into its sections (decoded payloads and table
 * entries), changed by mutations that know each section's layout
 * (lib/runtime/core/format.h names every offset), and laid out again with
 * every CRC computed afresh: the section CRCs, the table's and the
 * header's, and the CRCs one section keeps of another (a perimeter table's
 * of its model, a bitangent graph's of its forest).  So what a reader sees
 * is a bundle whose checksums are right and whose content is wrong in one
 * place: the checks behind the CRCs are what is tested.
 *
 * Everything is deterministic given the seed.  libFuzzer's hooks
 * (LLVMFuzzerCustomMutator, LLVMFuzzerCustomCrossOver) are in
 * custom_mutator.c; make check tests the mutators without libFuzzer
 * (test_mutate.c). */
#ifndef NB_FUZZ_MUTATE_H
#define NB_FUZZ_MUTATE_H

#include <stddef.h>
#include <stdint.h>

#include "navbake.h"

/* A mutator of raw bytes, as LLVMFuzzerMutate: changes data[0..size) in
 * place, returns the new size (at most max_size). */
typedef size_t (*nbf_bytes_fn)(uint8_t *data, size_t size, size_t max_size);

/* splitmix64: one state word, seeded by libFuzzer's seed. */
typedef struct nbf_rng {
    uint64_t s;
} nbf_rng;
void nbf_seed(nbf_rng *r, uint64_t seed);
uint64_t nbf_next(nbf_rng *r);
/* Uniform in [0, n); 0 when n is 0. */
uint64_t nbf_below(nbf_rng *r, uint64_t n);
/* 1 with probability percent / 100. */
int nbf_chance(nbf_rng *r, unsigned percent);

/* A section taken out of a bundle. */
typedef struct nbf_section {
    nb_section_info info;
    uint8_t *data; /* the payload, inflated when the entry says zlib */
    size_t len;
    int opaque;    /* data is the stored bytes as they were (a zlib stream
                      that does not inflate, or an unknown compression),
                      written back as they are with info.usize kept */
} nbf_section;

typedef struct nbf_bundle {
    unsigned major, minor;
    uint32_t flags;
    size_t n, cap;
    nbf_section *s;
} nbf_bundle;

/* Takes a binary bundle apart (header, table, every section that lies in
 * the file; CRCs are not checked).  0 when it is not one. */
int nbf_parse(const uint8_t *data, size_t size, nbf_bundle *out);
void nbf_free(nbf_bundle *b);
/* Fills s->data, s->len and s->opaque from a section's stored bytes
 * (s->info set): inflated when zlib says so and it inflates. */
int nbf_load(nbf_section *s, const uint8_t *stored, size_t size);
/* The bytes to store for s (deflated again when zlib), and its table
 * entry with size, usize and CRC computed; *owned is what to free.  NULL
 * when out of memory. */
uint8_t *nbf_stored(const nbf_section *s, nb_section_info *info, uint8_t **owned);
/* Adds a copy of a section (its payload copied). */
int nbf_add(nbf_bundle *b, const nbf_section *s);
void nbf_remove(nbf_bundle *b, size_t i);

/* Applies one to a few mutations that know the sections' layouts (see
 * mutate_bundle.c for the list); bytes (may be NULL) mutates a small
 * range of a payload now and then.  max_size bounds growth. */
void nbf_mutate(nbf_bundle *b, nbf_rng *r, nbf_bytes_fn bytes, size_t max_size);
/* What the mutations do not mean to break, made right again: a perimeter
 * table's CRC of its model, a bitangent graph's of its forest (most of
 * the time), and the table's order (most of the time). */
void nbf_fix(nbf_bundle *b, nbf_rng *r);
/* Lays the bundle out (each section at the next multiple of 64, zlib
 * sections deflated again) with every CRC computed; with r, now and then
 * changes a header or table field after the layout (its CRCs computed
 * again).  Returns the size, or 0 when it would exceed max_size. */
size_t nbf_write(const nbf_bundle *b, nbf_rng *r, uint8_t *out, size_t max_size);

/* The whole mutator: parse, mutate, fix, write.  When the input is not a
 * binary bundle (or the result does not fit), bytes mutates it instead
 * (nothing when bytes is NULL). */
/* Helpers the section mutators share (mutate_bundle.c): the first section of a type that is
 * not opaque, or NULL; an integer near the interesting values of a field whose value is cur
 * and that counts or indexes n things; a payload resized (zeroes added), 0 without memory. */
nbf_section *nbf_find(nbf_bundle *b, uint32_t type);
uint64_t nbf_pick_int(nbf_rng *r, uint64_t cur, uint64_t n, unsigned bits);
int nbf_resize(nbf_section *s, size_t len);
/* The levels section's mutations (mutate_levels.c), its table parameters made the payload's, and
 * a stored cell path of the abstract graph made to bounce (issue 29); 1 when a change was made. */
int nbf_mut_levels(nbf_bundle *b, nbf_section *s, nbf_rng *r);
void nbf_sync_levels_params(nbf_section *s);
int nbf_bounce_graph(nbf_section *s, nbf_rng *r);

size_t nbf_mutate_bundle(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                         nbf_bytes_fn bytes);
/* A bundle made of two: data1 with a section of data2 added, or replacing
 * the section of data1 with the same type.  0 when either is not a
 * bundle. */
size_t nbf_crossover_bundle(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                            uint8_t *out, size_t max_size, unsigned seed);

/* The SQLite form (mutate_sqlite.c): the database is deserialized, its
 * sections rows taken as an nbf_bundle and mutated as above (their crc32
 * columns and the bundle row's checksums computed again), or its rows and
 * schema changed as SQL, then serialized.  Inputs that are not SQLite
 * bundles are mutated by bytes. */
size_t nbf_mutate_sqlite(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                         nbf_bytes_fn bytes);

#endif
