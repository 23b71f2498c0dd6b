/* crc32.h: the CRC-32 of bundles (zlib's crc32: ISO 3309, reflected,
 * pre- and post-inverted), fast on big sections.  Internal. */
#ifndef NB_CRC32_H
#define NB_CRC32_H

#include "core/base.h"

/* The CRC-32 of len bytes at p continuing crc (0 to start), as zlib's
 * crc32(crc, p, len) for any len. */
uint32_t nbi_crc32(uint32_t crc, const void *p, size_t len);

/* The same, folding from fold_min bytes on (at least 64) where the
 * processor can: for tests, which check the folding on short buffers. */
uint32_t nbi_crc32_from(uint32_t crc, const void *p, size_t len, size_t fold_min);
/* 1 where this processor folds (PCLMULQDQ), else 0. */
int nbi_crc32_folds(void);

#endif
