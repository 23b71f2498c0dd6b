/* write_mapped.c: a new file's bytes copied into it mapped in memory,
 * chunks of the file as units on the bake's threads (parallel.h).
 *
 * The kernel's copy of a write(2) runs on the writing thread alone, and
 * at 8192^2 mkabstract writes 300 MB: with the bake done on two threads it
 * was the longest stretch on one.  Mapped, both threads fill the file's
 * pages.  Its blocks are reserved first, so that a full disk is an error
 * here and not a SIGBUS in the middle of a copy; a file that cannot be
 * reserved or mapped (a file system without either) is left to write(2).
 * Each chunk is mapped alone, so a bake's memory does not grow by the
 * file's pages. */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>

#include "bake_int.h"
#include "parallel/parallel.h"

/* Bytes of the file a unit. */
#define CHUNK ((size_t)4 << 20)

typedef struct map_job {
    int fd;
    uint64_t size;
    const nbb_span *s;
    size_t n;
} map_job;

/* Chunk k of the file, mapped alone (the process never holds more of the
 * file than a chunk a thread): the parts of the spans that fall in it (the
 * rest is zero already). */
static nb_status copy_chunk(void *ctx, size_t k, unsigned worker, nb_err *err)
{
    const map_job *j = ctx;
    uint64_t c0 = (uint64_t)k * CHUNK, c1 = c0 + CHUNK < j->size ? c0 + CHUNK : j->size;
    (void)worker;
    uint8_t *map = mmap(NULL, (size_t)(c1 - c0), PROT_WRITE, MAP_SHARED, j->fd, (off_t)c0);
    if (map == MAP_FAILED)
        return nbi_fail(err, NB_ERR_IO, "cannot map");
    for (size_t i = 0; i < j->n; i++) {
        uint64_t a = j->s[i].at > c0 ? j->s[i].at : c0, e = j->s[i].at + j->s[i].len;
        e = e < c1 ? e : c1;
        if (a < e)
            memcpy(map + (a - c0), j->s[i].p + (a - j->s[i].at), (size_t)(e - a));
    }
    return munmap(map, (size_t)(c1 - c0)) == 0 ? NB_OK : nbi_fail(err, NB_ERR_IO, "cannot unmap");
}

nb_status nbb_write_mapped(int fd, uint64_t size, const nbb_span *s, size_t n, unsigned threads,
                           const char *path, int *done, nb_err *err)
{
    *done = 0;
    if (size == 0 || size > SIZE_MAX)
        return NB_OK;
    int e = posix_fallocate(fd, 0, (off_t)size);
    if (e == ENOSPC || e == EFBIG || e == EDQUOT || e == EIO) {
        errno = e;
        return nbi_fail_errno(err, "write error", path);
    }
    if (e != 0)
        return NB_OK;
    /* A chunk that cannot be mapped leaves the whole file to write(2),
     * which writes it again from its start. */
    map_job j = {fd, size, s, n};
    *done = nbb_par_for(threads, (size_t)((size + CHUNK - 1) / CHUNK), copy_chunk, &j, NULL) ==
            NB_OK;
    return NB_OK;
}
