/* progress.c: the parts of a long bake's progress (bake.h). */
#include "bake.h"

void nbb_progress_part_report(const nbb_progress_part *part, double f)
{
    if (part && part->fn)
        part->fn(part->arg, part->base + part->span * (f < 0 ? 0 : f > 1 ? 1 : f));
}

void nbb_progress_part_fn(void *part, double f) { nbb_progress_part_report(part, f); }
