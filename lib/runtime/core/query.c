/* query.c: the checks every query family shares, so that one cause gets
 * one status and one wording from each (navbake(3), "Statuses"). */
#include "core/base.h"

nb_status nbi_query_size_fail(nb_err *err, const char *family)
{
    return nbi_fail(err, NB_ERR_ARG, "%s: agent size 0: an agent covers 1 or more cells a side",
                    family);
}

nb_status nbi_query_cell_fail(nb_err *err, const char *family, const char *what, nb_cell c,
                              uint32_t w, uint32_t h)
{
    return nbi_fail(err, NB_ERR_OUTSIDE,
                    "%s: %s (%d, %d) is off the %u x %u map (x 0 to %u, y 0 to %u)", family, what,
                    c.x, c.y, w, h, w ? w - 1 : 0, h ? h - 1 : 0);
}

nb_status nbi_query_unsupported(nb_err *err, const char *family, const char *what)
{
    return nbi_fail(err, NB_ERR_UNSUPPORTED, "%s does not %s", family, what);
}
