/* stale_temp.c: removing the temporary files of an output left behind by
 * writers that died (SIGKILL, a crash, a power cut) before they could
 * rename or remove them: each is as large as the bundle it was to become,
 * and nothing else would ever remove it. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bake_int.h"

/* The process id in a name of the form BASE.tmp-PID-N, or 0 when the name
 * is not of that form (another output's file, or not a temporary file). */
static pid_t temp_owner(const char *name, const char *base, size_t blen)
{
    if (strncmp(name, base, blen) != 0 || strncmp(name + blen, ".tmp-", 5) != 0)
        return 0;
    const char *p = name + blen + 5;
    long long pid = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++)
        if (digits > 9 || (pid = pid * 10 + (*p - '0')) > 0x7fffffff)
            return 0;
    if (digits == 0 || *p++ != '-' || *p == '\0')
        return 0;
    for (; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return (pid_t)pid;
}

void nbb_tempfile_sweep(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t blen = strlen(base);
    char *dir = slash ? nbb_strndup(path, slash == path ? 1 : (size_t)(slash - path)) : nbb_strdup(".");
    if (!dir || blen == 0) {
        nbb_free(dir);
        return;
    }
    DIR *d = opendir(dir);
    nbb_free(dir);
    if (!d)
        return; /* best effort: the write itself says what is wrong */
    uid_t me = geteuid();
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        pid_t pid = temp_owner(e->d_name, base, blen);
        /* Only a process that no longer exists: kill fails with ESRCH.
         * A live one (EPERM: another user's) may be writing it; a process
         * that took the dead one's id leaves it here, which is safe.  A
         * writer on another machine sharing the directory, or in another
         * PID namespace, is not seen: if its file is removed while it
         * writes, its rename fails and it says so; no bundle is damaged. */
        if (pid <= 1 || kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        /* Only our own regular files: never a link, a directory, or a file
         * of another user's that merely carries our naming. */
        struct stat sb;
        if (fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(sb.st_mode) || sb.st_uid != me)
            continue;
        (void)unlinkat(dirfd(d), e->d_name, 0);
    }
    closedir(d);
}
