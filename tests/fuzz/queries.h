/* queries.h: every query family run on a bundle (queries.c), shared by
 * fuzz_queries.c and fuzz_sqlite.c. */
#ifndef NB_FUZZ_QUERIES_H
#define NB_FUZZ_QUERIES_H

#include <stddef.h>
#include <stdint.h>

#include "navbake.h"

/* 1 when the bundle passes what `navbake verify` checks: nb_bundle_verify
 * (every checksum, every section's structure). */
int nbf_verified(const nb_bundle *b);
/* Opens the bytes as a bundle and, when it verifies, runs every query
 * family on it; aborts on a broken promise of the API. */
void nbf_queries(const uint8_t *data, size_t size);
/* Runs every query family on b as nbf_queries does, its choices of cells,
 * flags and methods drawn from seed, and returns a digest of every answer
 * (each call's status and message, each path's cells, length and cost,
 * each value of the level's accessors): two bundles that answer alike
 * give the same digest. */
uint64_t nbf_answers(const nb_bundle *b, uint64_t seed);
/* How many calls of the last nbf_answers an error of structure refused
 * (NB_ERR_FORMAT, NB_ERR_VERSION or NB_ERR_CRC: none should, on a bundle
 * that verifies), and in *first (may be NULL) the first call and its
 * message. */
unsigned nbf_refusals(const char **first);
/* When set, called during nbf_answers for each such call, with its name
 * ("nb_haa_open", "nb_haa_find"...) and its error. */
extern void (*nbf_on_refusal)(const char *call, const nb_err *err);

#endif
