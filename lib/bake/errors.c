/* errors.c: the library's message convention (core/error.c) for the
 * tools' own helpers, which do not see the runtime's internals. */
#include "bake_int.h"

nb_status nbb_fail(nb_err *err, nb_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    nbi_vfail(err, code, fmt, ap);
    va_end(ap);
    return code;
}

nb_status nbb_fail_errno(nb_err *err, const char *what, const char *path)
{
    return nbi_fail_errno(err, what, path);
}

void nbb_ok(nb_err *err) { nbi_ok(err); }
