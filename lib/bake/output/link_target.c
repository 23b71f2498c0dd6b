/* link_target.c: the file an output path names once its symbolic links
 * are followed.  A bundle is replaced by renaming a new file onto it;
 * renamed onto a link, the new file would take the link's place and leave
 * the file it pointed to stale, so the writer renames onto the target. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bake_int.h"

/* Links followed before giving up, as the kernel does (Linux's limit). */
#define MAX_LINKS 40

/* The contents of the link at path (malloc'ed, NUL-terminated), or NULL
 * with errno set; size_hint is lstat's size, which some file systems give
 * as 0. */
static char *read_link(const char *path, size_t size_hint)
{
    size_t cap = size_hint + 1 < 256 ? 256 : size_hint + 1;
    for (;;) {
        char *buf = nbb_malloc(cap);
        if (!buf)
            return NULL;
        ssize_t n = readlink(path, buf, cap);
        if (n < 0) {
            nbb_free(buf);
            return NULL;
        }
        if ((size_t)n < cap) {
            buf[n] = '\0';
            return buf;
        }
        nbb_free(buf); /* it may have grown since lstat: try again, larger */
        if (cap > ((size_t)1 << 20)) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        cap *= 2;
    }
}

nb_status nbb_link_target(const char *path, char **target, nb_err *err)
{
    *target = NULL;
    char *cur = nbb_strdup(path);
    if (!cur)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    for (int links = 0;; links++) {
        struct stat sb;
        /* Not a link (or not there: a dangling link's target is the file
         * to create): this is the file. */
        if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode)) {
            *target = cur;
            return NB_OK;
        }
        if (links == MAX_LINKS) {
            nbb_free(cur);
            return nbi_fail(err, NB_ERR_IO, "%s: too many levels of symbolic links", path);
        }
        char *link = read_link(cur, (size_t)sb.st_size);
        if (!link) {
            nb_status st = nbi_fail_errno(err, "cannot read the symbolic link", cur);
            nbb_free(cur);
            return st;
        }
        /* A relative link is read from the link's own directory. */
        const char *slash = link[0] == '/' ? NULL : strrchr(cur, '/');
        size_t dirlen = slash ? (size_t)(slash - cur) + 1 : 0;
        char *next = nbb_malloc(dirlen + strlen(link) + 1);
        if (!next) {
            nbb_free(link);
            nbb_free(cur);
            return nbi_fail(err, NB_ERR_NOMEM, "no memory");
        }
        memcpy(next, cur, dirlen);
        strcpy(next + dirlen, link);
        nbb_free(link);
        nbb_free(cur);
        cur = next;
    }
}
