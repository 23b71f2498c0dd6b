/* deep_report.c: what the checks of nbb_verify_deep share: their messages,
 * which all start with the bundle and the section, and the comparison of
 * recomputed doubles.  A file of its own, so that the checks and the
 * driver that calls them do not call each other. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "verify/deep.h"

nb_status nbb_deep_fail(const nbb_deep *d, nb_err *err, const char *fmt, ...)
{
    char msg[NB_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return nbi_fail(err, NB_ERR_FORMAT, "%s: %s: %s", d->b->path, d->what, msg);
}

nb_status nbb_deep_prefix(const nbb_deep *d, nb_status st, nb_err *err)
{
    if (st != NB_OK)
        nbi_err_prefix(err, "%s: %s", d->b->path, d->what);
    return st;
}

nb_status nbb_deep_agent(const nbb_deep *d, nb_capability cap, int sized, uint32_t size,
                         nb_err *err)
{
    const nb_bundle *b = d->b;
    if (cap == 0 || (b->legend.nterrains < 32 && cap >> b->legend.nterrains))
        return nbb_deep_fail(d, err, "capability %#x names terrains the legend does not have",
                             (unsigned)cap);
    if (sized && (size < 1 || size > NB_MAX_AGENT_SIZE))
        return nbb_deep_fail(d, err, "agent size %u, expected 1 to %d", (unsigned)size,
                             NB_MAX_AGENT_SIZE);
    return NB_OK;
}

int nbb_deep_same(double a, double b)
{
    if (a == b)
        return 1;
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return isfinite(a) && isfinite(b) && fabs(a - b) <= 1e-12 * (m > 1 ? m : 1);
}

nb_status nbb_deep_cannot(const nbb_deep *d, nb_status st, nb_err *err, const char *from)
{
    nbi_err_prefix(err, "cannot recompute it %s", from);
    return nbb_deep_prefix(d, st, err);
}

nb_status nbb_deep_bytes(const nbb_deep *d, const uint8_t *p, size_t len, const uint8_t *r,
                         size_t rlen, nb_err *err)
{
    if (len != rlen)
        return nbb_deep_fail(d, err, "%zu bytes, recomputed %zu", len, rlen);
    for (size_t i = 0; i < len; i++)
        if (p[i] != r[i])
            return nbb_deep_fail(d, err, "payload byte %zu is 0x%02x, recomputed 0x%02x", i, p[i],
                                 r[i]);
    return NB_OK;
}
