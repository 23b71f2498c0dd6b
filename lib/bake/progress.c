/* progress.c: the parts of a long bake's progress (bake.h). */
#include "bake_int.h"

void nbb_progress_part_report(const nbb_progress_part *part, double f)
{
    if (part && part->fn)
        part->fn(part->arg, part->base + part->span * (f < 0 ? 0 : f > 1 ? 1 : f));
}

void nbb_progress_part_fn(void *part, double f) { nbb_progress_part_report(part, f); }

int nbb_progress_stopped(const nbb_progress_part *part)
{
    for (; part; part = part->fn == nbb_progress_part_fn ? part->arg : NULL)
        if (part->stop && *part->stop)
            return 1;
    return 0;
}

int nbb_progress_fn_stopped(nbb_progress_fn fn, const void *arg)
{
    return fn == nbb_progress_part_fn && nbb_progress_stopped(arg);
}

nb_status nbb_progress_cancelled(nb_err *err)
{
    return nbi_fail(err, NB_ERR_CANCELLED, "the bake was cancelled");
}
