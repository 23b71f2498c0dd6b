/* write_changed.c: a file written only when its bytes change.  A world's
 * tiles are rebuilt by a build graph (Ninja, Slurm) that decides from the
 * files' times what to run again: a cut or a bake that rewrote a file with
 * the same bytes would send every action after it around again. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bake_int.h"

/* 1 when path is a regular file holding exactly buf; 0 otherwise, whatever
 * the reason (missing, another size, unreadable: then it is written). */
static int holds(const char *path, const void *buf, size_t len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    struct stat sb;
    int same = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size == len;
    uint8_t chunk[65536];
    const uint8_t *p = buf;
    size_t at = 0;
    while (same && at < len) {
        size_t want = len - at < sizeof chunk ? len - at : sizeof chunk;
        ssize_t r = read(fd, chunk, want);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0 || memcmp(chunk, p + at, (size_t)r) != 0)
            same = 0;
        else
            at += (size_t)r;
    }
    close(fd);
    return same;
}

nb_status nbb_write_changed(const char *path, const void *buf, size_t len, int *changed, nb_err *err)
{
    if (changed)
        *changed = 0;
    if (holds(path, buf, len)) {
        nbi_ok(err);
        return NB_OK;
    }
    nbb_tempfile t;
    nb_status st = nbb_tempfile_create(&t, path, err);
    if (st != NB_OK)
        return st;
    st = nbb_write_all(t.fd, buf, len, t.tmp, err);
    st = nbb_tempfile_finish(&t, st, err);
    if (st == NB_OK && changed)
        *changed = 1;
    return st;
}
