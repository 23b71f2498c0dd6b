/* readfile.c: whole input files into memory, standard input included. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bake_int.h"

const char *nbb_input_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "(standard input)" : path;
}

nb_status nbb_read_file(const char *path, size_t limit, char **buf, size_t *len, nb_err *err)
{
    int is_stdin = strcmp(path, "-") == 0;
    const char *name = nbb_input_name(path);
    int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return nbi_fail_errno(err, "cannot open", path);
    struct stat sb;
    if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        if (!is_stdin)
            close(fd);
        return nbi_fail(err, NB_ERR_IO, "%s: is a directory", name);
    }
    size_t cap = 1 << 14, n = 0;
    char *p = malloc(cap + 1);
    nb_status st = p ? NB_OK : nbi_fail(err, NB_ERR_NOMEM, "%s: no memory", name);
    while (st == NB_OK) {
        if (n == cap) {
            if (cap >= limit) {
                st = nbi_fail(err, NB_ERR_LIMIT, "%s: larger than the %zu-byte limit", name, limit);
                break;
            }
            size_t ncap = cap * 2 > limit ? limit : cap * 2;
            char *q = realloc(p, ncap + 1);
            if (!q) {
                st = nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %zu bytes", name, ncap);
                break;
            }
            p = q;
            cap = ncap;
        }
        ssize_t r = read(fd, p + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
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
        free(p);
        return st;
    }
    p[n] = '\0';
    *buf = p;
    *len = n;
    return NB_OK;
}
