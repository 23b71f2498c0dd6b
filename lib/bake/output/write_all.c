/* write_all.c: all of a buffer to a file, however the system splits the
 * write (short writes, signals). */
#include <errno.h>
#include <unistd.h>

#include "bake_int.h"

nb_status nbb_write_all(int fd, const void *data, size_t len, const char *path, nb_err *err)
{
    const uint8_t *p = data;
    while (len > 0) {
        /* At most 1 GiB a call: some systems refuse larger writes. */
        ssize_t w = write(fd, p, len > (1u << 30) ? (1u << 30) : len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return nbi_fail_errno(err, "write error", path);
        p += w;
        len -= (size_t)w;
    }
    return NB_OK;
}
