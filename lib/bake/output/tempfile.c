/* tempfile.c: writing a file atomically: a temporary file beside the
 * target, renamed into place once complete, so that a failed or
 * interrupted write leaves the old file as it was (bundles, SQLite
 * bundles). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bake_int.h"

nb_status nbb_output_check(const char *path, nb_err *err)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return nbi_fail(err, NB_ERR_IO,
                        "%s: not a regular file; the output is written to a new file renamed "
                        "into place, which would replace it",
                        path);
    return NB_OK;
}

/* Creates t->tmp beside t->target (which t owns from here on). */
static nb_status create(nbb_tempfile *t, nb_err *err)
{
    /* Before a new file as large as the bundle is written: the space the
     * dead writers' files hold may be what this write needs. */
    nbb_tempfile_sweep(t->target);
    size_t plen = strlen(t->target);
    t->tmp = nbb_malloc(plen + 48);
    if (!t->tmp) {
        nbb_free(t->target);
        t->target = NULL;
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    }
    /* Ctrl-C or a polite kill during the write is held until the temporary
     * file is renamed or removed, so none is left behind. */
    sigset_t hold;
    sigemptyset(&hold);
    sigaddset(&hold, SIGINT);
    sigaddset(&hold, SIGTERM);
    sigaddset(&hold, SIGHUP);
    sigaddset(&hold, SIGQUIT);
    sigprocmask(SIG_BLOCK, &hold, &t->saved);
    for (unsigned k = 0; k < 1000 && t->fd < 0; k++) {
        snprintf(t->tmp, plen + 48, "%s.tmp-%ld-%u", t->target, (long)getpid(), k);
        t->fd = open(t->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (t->fd < 0 && errno != EEXIST)
            break;
    }
    if (t->fd < 0) {
        nb_status st = nbi_fail_errno(err, "cannot create a temporary file beside", t->target);
        nbb_free(t->tmp);
        nbb_free(t->target);
        t->tmp = t->target = NULL;
        sigprocmask(SIG_SETMASK, &t->saved, NULL);
        return st;
    }
    /* A rewritten bundle keeps the permissions the old one had. */
    struct stat sb;
    if (!t->scratch && stat(t->target, &sb) == 0 && S_ISREG(sb.st_mode))
        (void)fchmod(t->fd, sb.st_mode & 07777);
    return NB_OK;
}

nb_status nbb_tempfile_create(nbb_tempfile *t, const char *path, nb_err *err)
{
    t->fd = -1;
    t->tmp = NULL;
    t->scratch = 0;
    nb_status st = nbb_link_target(path, &t->target, err);
    if (st == NB_OK && (st = nbb_output_check(t->target, err)) != NB_OK) {
        nbb_free(t->target);
        t->target = NULL;
    }
    return st == NB_OK ? create(t, err) : st;
}

nb_status nbb_tempfile_scratch(nbb_tempfile *t, const char *base, nb_err *err)
{
    t->fd = -1;
    t->tmp = NULL;
    t->scratch = 1;
    /* base is not resolved: in a shared directory (/tmp) a link there is
     * anyone's, and must not choose where this file goes. */
    t->target = nbb_strdup(base);
    if (!t->target)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    return create(t, err);
}

nb_status nbb_tempfile_finish(nbb_tempfile *t, nb_status st, nb_err *err)
{
    if (t->scratch) {
        close(t->fd);
        unlink(t->tmp);
    } else {
#ifdef HAVE_FSYNC
        if (st == NB_OK && fsync(t->fd) != 0)
            st = nbi_fail_errno(err, "fsync failed", t->tmp);
#endif
        if (close(t->fd) != 0 && st == NB_OK)
            st = nbi_fail_errno(err, "close failed", t->tmp);
        if (st == NB_OK && rename(t->tmp, t->target) != 0)
            st = nbi_fail_errno(err, "cannot rename the new bundle into place", t->target);
        if (st != NB_OK)
            unlink(t->tmp);
    }
    nbb_free(t->tmp);
    nbb_free(t->target);
    t->tmp = t->target = NULL;
    t->fd = -1;
    sigprocmask(SIG_SETMASK, &t->saved, NULL);
    return st;
}
