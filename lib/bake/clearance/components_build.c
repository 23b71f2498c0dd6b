/* components_build.c: reachability, so that a query with no path never searches.
 *
 * For one (capability, size) the cells where the agent may stand are
 * those of clearance >= size.  Two of them are joined by a path exactly
 * when they lie in one connected component under the search's moves.  A
 * diagonal step needs a standable cardinal neighbour (both of them by
 * default, one under the paper's weaker rule), through which the same two
 * cells are joined by cardinal steps; so with either rule the components
 * are the 4-connected ones, found here by breadth-first flood fill in
 * O(cells).  Seed 004 keeps a 1-bit region table for the same question;
 * exact components answer it for every pair of cells. */
#include "clearance/clearance_build.h"

/* Cells between two reports of progress. */
#define REPORT_EVERY 65536

uint32_t nbb_components_compute(const uint8_t *clearance, uint32_t width, uint32_t height,
                                unsigned size, uint32_t *label, uint32_t *queue,
                                const nbb_progress_part *progress)
{
    size_t n = (size_t)width * height, w = width;
    for (size_t i = 0; i < n; i++)
        label[i] = 0;
    uint32_t count = 0;
    /* Each cell is seen once as done: labelled (taken off the queue) or,
     * when the agent cannot stand there, passed over as a seed. */
    size_t done = 0, report = REPORT_EVERY;
    for (size_t seed = 0; seed < n; seed++) {
        if (progress && done >= report) {
            nbb_progress_part_report(progress, (double)done / (double)n);
            report = done + REPORT_EVERY;
        }
        if (clearance[seed] < size)
            done++;
        if (label[seed] || clearance[seed] < size)
            continue;
        uint32_t id = ++count;
        size_t head = 0, tail = 0;
        label[seed] = id;
        queue[tail++] = (uint32_t)seed;
        while (head < tail) {
            size_t i = queue[head++], x = i % w;
            if (progress && ++done >= report) {
                nbb_progress_part_report(progress, (double)done / (double)n);
                report = done + REPORT_EVERY;
            }
            /* left, right, up, down */
            if (x > 0 && !label[i - 1] && clearance[i - 1] >= size) {
                label[i - 1] = id;
                queue[tail++] = (uint32_t)(i - 1);
            }
            if (x + 1 < w && !label[i + 1] && clearance[i + 1] >= size) {
                label[i + 1] = id;
                queue[tail++] = (uint32_t)(i + 1);
            }
            if (i >= w && !label[i - w] && clearance[i - w] >= size) {
                label[i - w] = id;
                queue[tail++] = (uint32_t)(i - w);
            }
            if (i + w < n && !label[i + w] && clearance[i + w] >= size) {
                label[i + w] = id;
                queue[tail++] = (uint32_t)(i + w);
            }
        }
    }
    return count;
}
