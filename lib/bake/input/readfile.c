/* readfile.c: whole input files into memory, standard input included.
 * A regular file's known size is read in chunks on the bake's threads
 * (parallel.h): the kernel's copy of a 64 MB map (8192^2) was a fifth of
 * mkclear -j 2, on one thread. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bake_int.h"
#include "parallel/parallel.h"

const char *nbb_input_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "(standard input)" : path;
}

/* "16 MiB (16777216 bytes)": a limit as people and scripts read it. */
static void show_size(size_t n, char *buf, size_t len)
{
    if (n >= ((size_t)1 << 20) && n % ((size_t)1 << 20) == 0)
        snprintf(buf, len, "%zu MiB (%zu bytes)", n >> 20, n);
    else
        snprintf(buf, len, "%zu bytes", n);
}

static nb_status too_large(const char *name, size_t limit, nb_err *err)
{
    char lim[64];
    show_size(limit, lim, sizeof lim);
    return nbi_fail(err, NB_ERR_LIMIT, "%s: larger than %s, the limit for this input", name, lim);
}

/* read(2) again when a signal interrupts it. */
static ssize_t read_some(int fd, void *p, size_t n)
{
    ssize_t r;
    do
        r = read(fd, p, n);
    while (r < 0 && errno == EINTR);
    return r;
}

/* Bytes of a file a unit. */
#define CHUNK ((size_t)4 << 20)

typedef struct read_job {
    int fd;
    const char *name;
    char *p;
    size_t size;
    size_t *got; /* [chunk]: bytes read before the end of the file */
} read_job;

static nb_status read_chunk(void *ctx, size_t k, unsigned worker, nb_err *err)
{
    read_job *j = ctx;
    size_t at = k * CHUNK, n = j->size - at < CHUNK ? j->size - at : CHUNK, got = 0;
    (void)worker;
    while (got < n) {
        ssize_t r = pread(j->fd, j->p + at + got, n - got, (off_t)(at + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return nbi_fail_errno(err, "read error", j->name);
        if (r == 0)
            break;
        got += (size_t)r;
    }
    j->got[k] = got;
    return NB_OK;
}

/* The first size bytes of the regular file fd into p, chunks on threads;
 * the bytes read up to the first short chunk (the file shrank) in *n, and
 * the file's offset put there. */
static nb_status read_chunks(int fd, const char *name, char *p, size_t size, unsigned threads,
                             size_t *n, nb_err *err)
{
    size_t chunks = (size + CHUNK - 1) / CHUNK;
    read_job j = {fd, name, p, size, nbb_calloc(chunks ? chunks : 1, sizeof *j.got)};
    if (!j.got)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory", name);
    nb_status st = nbb_par_for(threads, chunks, read_chunk, &j, err);
    *n = 0;
    for (size_t k = 0; k < chunks && st == NB_OK; k++) {
        *n += j.got[k];
        if (j.got[k] < CHUNK)
            break;
    }
    nbb_free(j.got);
    if (st == NB_OK && lseek(fd, (off_t)*n, SEEK_SET) < 0)
        st = nbi_fail_errno(err, "read error", name);
    return st;
}

nb_status nbb_read_file(const char *path, size_t limit, char **buf, size_t *len, nb_err *err)
{
    return nbb_read_file_threads(path, limit, 1, buf, len, err);
}

nb_status nbb_read_file_threads(const char *path, size_t limit, unsigned threads, char **buf,
                                size_t *len, nb_err *err)
{
    int is_stdin = strcmp(path, "-") == 0;
    const char *name = nbb_input_name(path);
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return nbi_fail_errno(err, "cannot open", path);
    struct stat sb;
    int known = fstat(fd, &sb) == 0;
    nb_status st = NB_OK;
    if (known && S_ISDIR(sb.st_mode))
        st = nbi_fail(err, NB_ERR_IO, "%s: is a directory", name);
    /* A regular file's size is known: a file too large is refused before
     * anything is read.  Pipes and devices are read up to the limit. */
    else if (known && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size > (uint64_t)limit)
        st = too_large(name, limit, err);
    if (st != NB_OK) {
        if (!is_stdin)
            close(fd);
        return st;
    }
    /* A regular file is read at its size (and on after it, should it have
     * grown); anything else from a small buffer that doubles. */
    size_t size = known && S_ISREG(sb.st_mode) ? (size_t)sb.st_size : 0;
    size_t cap = limit < ((size_t)1 << 14) ? limit : (size_t)1 << 14, n = 0;
    if (size >= cap)
        cap = size < limit ? size + 1 : limit;
    char *p = nbb_malloc(cap + 1);
    if (!p)
        st = nbi_fail(err, NB_ERR_NOMEM, "%s: no memory", name);
    else if (size)
        st = read_chunks(fd, name, p, size, threads, &n, err);
    while (st == NB_OK) {
        if (n == cap && cap >= limit) {
            /* Full: one byte more says whether the input goes on. */
            char probe;
            ssize_t r = read_some(fd, &probe, 1);
            if (r < 0)
                st = nbi_fail_errno(err, "read error", name);
            else if (r > 0)
                st = too_large(name, limit, err);
            break;
        }
        if (n == cap) {
            size_t ncap = cap > limit / 2 ? limit : cap * 2;
            char *q = nbb_realloc(p, ncap + 1);
            if (!q) {
                st = nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %zu bytes", name, ncap);
                break;
            }
            p = q;
            cap = ncap;
        }
        ssize_t r = read_some(fd, p + n, cap - n);
        if (r < 0)
            st = nbi_fail_errno(err, "read error", name);
        else if (r == 0)
            break;
        else
            n += (size_t)r;
    }
    if (!is_stdin)
        close(fd);
    if (st != NB_OK) {
        nbb_free(p);
        return st;
    }
    p[n] = '\0';
    *buf = p;
    *len = n;
    return NB_OK;
}
