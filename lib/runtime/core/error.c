/* error.c: status codes and the messages that go with them. */
#include <errno.h>
#include <stdio.h>

#include "core/base.h"

const char *nb_status_str(nb_status status)
{
    switch (status) {
    case NB_OK: return "success";
    case NB_ERR_ARG: return "invalid argument";
    case NB_ERR_IO: return "input/output error";
    case NB_ERR_NOMEM: return "out of memory";
    case NB_ERR_SYNTAX: return "syntax error";
    case NB_ERR_FORMAT: return "bad bundle structure";
    case NB_ERR_VERSION: return "version mismatch";
    case NB_ERR_CRC: return "checksum mismatch";
    case NB_ERR_NOTFOUND: return "not in the bundle";
    case NB_ERR_UNSUPPORTED: return "not supported";
    case NB_ERR_LIMIT: return "beyond a limit";
    case NB_ERR_OUTSIDE: return "off the map";
    case NB_ERR_UNLOADED: return "a tile is not loaded";
    case NB_ERR_MISMATCH: return "not the world's tile";
    case NB_ERR_CANCELLED: return "cancelled";
    }
    return "unknown status";
}

const char *nb_version(void) { return NB_VERSION_STRING; }

nb_status nbi_vfail(nb_err *err, nb_status code, const char *fmt, va_list ap)
{
    if (err) {
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    }
    return code;
}

nb_status nbi_fail(nb_err *err, nb_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nbi_vfail(err, code, fmt, ap);
    va_end(ap);
    return code;
}

void nbi_ok(nb_err *err)
{
    if (err) {
        err->code = NB_OK;
        err->msg[0] = '\0';
    }
}

void nbi_err_prefix(nb_err *err, const char *fmt, ...)
{
    char prefix[NB_ERR_MSG_MAX], old[NB_ERR_MSG_MAX];
    va_list ap;
    if (!err)
        return;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    snprintf(err->msg, sizeof err->msg, "%s: %s", prefix, old);
}

nb_status nbi_fail_errno(nb_err *err, const char *what, const char *path)
{
    int e = errno;
    return nbi_fail(err, e == ENOMEM ? NB_ERR_NOMEM : NB_ERR_IO, "%s: %s: %s", path, what,
                    strerror(e));
}

nb_status nbi_fail_nomem(nb_err *err, const char *what)
{
    return nbi_fail(err, NB_ERR_NOMEM, "out of memory: %s", what);
}

const char *nb_path_status_str(nb_path_status s)
{
    switch (s) {
    case NB_PATH_FOUND: return "found";
    case NB_PATH_NONE: return "no path";
    case NB_PATH_START_BLOCKED: return "start blocked";
    case NB_PATH_GOAL_BLOCKED: return "goal blocked";
    case NB_PATH_LIMIT: return "stopped at its budget";
    case NB_PATH_BEYOND_RADIUS: return "none within the radius";
    case NB_PATH_PARTIAL: return "partial: the reachable cell nearest the goal";
    }
    return "unknown";
}
