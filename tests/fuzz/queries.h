/* queries.h: every query family run on a bundle (queries.c), shared by
 * fuzz_queries.c and fuzz_sqlite.c. */
#ifndef NB_FUZZ_QUERIES_H
#define NB_FUZZ_QUERIES_H

#include <stddef.h>
#include <stdint.h>

#include "navbake.h"

/* 1 when the bundle passes what `navbake verify` checks: nb_bundle_verify
 * and, when it holds one, the abstract graph's structure. */
int nbf_verified(const nb_bundle *b);
/* Opens the bytes as a bundle and, when it verifies, runs every query
 * family on it; aborts on a broken promise of the API. */
void nbf_queries(const uint8_t *data, size_t size);

#endif
