/* crc32_threads.c: the CRC-32 of a big buffer on the bake's threads
 * (parallel.h).  Chunks are units; each one's CRC is taken from zero and
 * they are joined in chunk order with zlib's crc32_combine, which gives
 * the CRC of the whole: the same value for any number of threads.  A
 * bundle's sections reach hundreds of MB at 8192^2 (the abstract graph
 * 171 MB), which one thread checksums while the other waits. */
#include <stdlib.h>
#include <zlib.h>

#include "core/crc32.h"
#include "parallel/parallel.h"

/* Bytes a unit: big enough that joining costs nothing, small enough that
 * the chunks share out evenly. */
#define CHUNK ((size_t)1 << 20)

typedef struct crc_job {
    const uint8_t *p;
    size_t len;
    uint32_t *crc; /* [chunk] */
} crc_job;

static nb_status chunk_crc(void *ctx, size_t k, unsigned worker, nb_err *err)
{
    crc_job *j = ctx;
    size_t at = k * CHUNK, n = j->len - at < CHUNK ? j->len - at : CHUNK;
    (void)worker;
    (void)err;
    j->crc[k] = nbi_crc32(0, j->p + at, n);
    return NB_OK;
}

uint32_t nbb_crc32_threads(uint32_t crc, const void *p, size_t len, unsigned threads)
{
    size_t chunks = (len + CHUNK - 1) / CHUNK;
    crc_job j = {p, len, NULL};
    /* One chunk, one thread, or no memory for the chunks' CRCs: in one go. */
    if (chunks < 2 || nbb_threads_resolve(threads) < 2 ||
        !(j.crc = nbb_malloc(chunks * sizeof *j.crc)))
        return nbi_crc32(crc, p, len);
    nbb_par_for(threads, chunks, chunk_crc, &j, NULL);
    for (size_t k = 0; k < chunks; k++) {
        size_t n = len - k * CHUNK < CHUNK ? len - k * CHUNK : CHUNK;
        crc = (uint32_t)crc32_combine(crc, j.crc[k], (z_off_t)n);
    }
    nbb_free(j.crc);
    return crc;
}
