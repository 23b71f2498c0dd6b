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
#include "parallel/parallel.h"

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

/* ---- the same components band by band, on threads ----
 *
 * Each band of rows is labelled on its own (a union-find over provisional
 * labels made in row-major order, the smaller label always the root, so
 * that a band's pieces come numbered in the order of their first cells);
 * then the pieces that touch across the line between two bands are
 * joined, again with the smaller number as the root.  Bands are in row
 * order, so a component's smallest piece number is the piece that holds
 * its first cell, and numbering the roots in order numbers the components
 * as the flood fill above does: by their first cells, in row-major order. */

typedef struct comp_job {
    const uint8_t *cv;
    uint32_t width, height, size;
    uint32_t *label;
    uint32_t *pieces;    /* per band: how many */
    uint32_t *base;      /* per band: the number of its piece 0, minus one */
    uint32_t *final;     /* per piece (1 + base + local): the component */
    uint32_t **scratch;  /* a worker's provisional parents */
    uint8_t *payload;    /* the packed layer (pass 3) */
    unsigned bits;
} comp_job;

static uint32_t find(uint32_t *parent, uint32_t a)
{
    while (parent[a] != a) {
        parent[a] = parent[parent[a]];
        a = parent[a];
    }
    return a;
}

static uint32_t join(uint32_t *parent, uint32_t a, uint32_t b)
{
    a = find(parent, a);
    b = find(parent, b);
    if (a < b)
        parent[b] = a;
    else
        parent[a] = b;
    return a < b ? a : b;
}

/* Numbers the roots of parent[1..n] 1, 2, ... in order, and gives every
 * label its root's number (in parent); returns how many.  Every parent is
 * at most its child, so one pass from the left finds each root. */
static uint32_t number_roots(uint32_t *parent, uint64_t n)
{
    for (uint64_t l = 1; l <= n; l++)
        parent[l] = parent[parent[l]];
    uint32_t m = 0;
    for (uint64_t l = 1; l <= n; l++)
        parent[l] = parent[l] == l ? ++m : parent[parent[l]];
    return m;
}

/* Pass 1: the band's pieces, numbered 1, 2, ... by their first cells. */
static nb_status label_band(void *ctx, size_t band, unsigned worker, nb_err *err)
{
    comp_job *j = ctx;
    uint32_t y0, y1;
    size_t w = j->width;
    nbb_band_rows((uint32_t)band, j->height, &y0, &y1);
    uint32_t *parent = j->scratch[worker];
    if (!parent &&
        !(parent = j->scratch[worker] = malloc(((size_t)NBB_BAND_ROWS * w / 2 + 2) * sizeof *parent)))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the components of a %u x %u map",
                        j->width, j->height);
    const uint8_t *cv = j->cv;
    uint32_t *label = j->label, next = 0;
    for (size_t y = y0; y < y1; y++)
        for (size_t x = 0, i = y * w; x < w; x++, i++) {
            if (cv[i] < j->size) {
                label[i] = 0;
                continue;
            }
            uint32_t left = x > 0 ? label[i - 1] : 0, up = y > y0 ? label[i - w] : 0;
            if (left && up)
                label[i] = left == up ? left : join(parent, left, up);
            else if (left || up)
                label[i] = left | up;
            else {
                label[i] = ++next;
                parent[next] = next;
            }
        }
    /* Roots are the smallest labels of their pieces: number them in order. */
    uint32_t m = number_roots(parent, next);
    for (size_t i = (size_t)y0 * w; i < (size_t)y1 * w; i++)
        if (label[i])
            label[i] = parent[label[i]];
    j->pieces[band] = m;
    return NB_OK;
}

/* Pass 3: the components' numbers, packed. */
static nb_status number_band(void *ctx, size_t band, unsigned worker, nb_err *err)
{
    (void)worker;
    (void)err;
    comp_job *j = ctx;
    uint32_t y0, y1;
    nbb_band_rows((uint32_t)band, j->height, &y0, &y1);
    uint32_t *label = j->label, base = j->base[band];
    for (size_t i = (size_t)y0 * j->width; i < (size_t)y1 * j->width; i++)
        if (label[i])
            label[i] = j->final[base + label[i]];
    nbb_layer_pack_rows(j->payload, j->width, j->bits, y0, y1, NULL,
                        label + (size_t)y0 * j->width);
    return NB_OK;
}

nb_status nbb_bake_components_layer(const uint8_t *cv, uint32_t width, uint32_t height,
                                    unsigned size, unsigned threads, uint32_t *label,
                                    uint8_t **payload, size_t *len,
                                    const nbb_progress_part *progress, nb_err *err)
{
    /* Progress: the labelling is most of the work, the numbering the rest. */
    nbb_progress_part labelling = {NULL, NULL, 0, 0, NULL}, numbering = labelling;
    if (progress) {
        labelling = *progress;
        labelling.span = progress->span * 0.8;
        numbering = *progress;
        numbering.base = progress->base + labelling.span;
        numbering.span = progress->span - labelling.span;
    }
    uint32_t nb = nbb_band_count(height);
    comp_job j;
    memset(&j, 0, sizeof j);
    j.cv = cv;
    j.width = width;
    j.height = height;
    j.size = size;
    j.label = label;
    uint32_t *scratch[NBB_MAX_THREADS] = {NULL};
    j.scratch = scratch;
    j.pieces = malloc(((size_t)nb + 1) * sizeof *j.pieces);
    j.base = malloc(((size_t)nb + 1) * sizeof *j.base);
    *payload = NULL;
    nb_status st = NB_OK;
    if (!j.pieces || !j.base)
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the components of a %u x %u map", width,
                      height);
    if (st == NB_OK)
        st = nbb_par_for_progress(threads, nb, label_band, &j, &labelling, err);
    for (unsigned i = 0; i < NBB_MAX_THREADS; i++)
        free(scratch[i]);
    /* Pass 2: the pieces that meet across band lines, then the numbering. */
    uint64_t total = 0;
    for (uint32_t b = 0; st == NB_OK && b < nb; b++) {
        j.base[b] = (uint32_t)total;
        total += j.pieces[b];
    }
    if (st == NB_OK && !(j.final = malloc(((size_t)total + 1) * sizeof *j.final)))
        st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the components of a %u x %u map", width,
                      height);
    uint32_t count = 0;
    if (st == NB_OK) {
        uint32_t *parent = j.final;
        for (uint64_t g = 0; g <= total; g++)
            parent[g] = (uint32_t)g;
        size_t w = width;
        for (uint32_t b = 0; b + 1 < nb; b++) {
            uint32_t y0, y1;
            nbb_band_rows(b, height, &y0, &y1);
            const uint32_t *up = label + (size_t)(y1 - 1) * w, *down = label + (size_t)y1 * w;
            for (size_t x = 0; x < w; x++)
                if (up[x] && down[x])
                    join(parent, j.base[b] + up[x], j.base[b + 1] + down[x]);
        }
        count = number_roots(parent, total);
        j.bits = nbi_bits_for(count);
        *len = (size_t)nbi_layer_bytes((uint64_t)width * height, j.bits);
        if (!(*payload = j.payload = malloc(*len)))
            st = nbi_fail(err, NB_ERR_NOMEM, "no memory for the components of a %u x %u map",
                          width, height);
    }
    if (st == NB_OK) {
        nbb_layer_header(j.payload, width, height, j.bits, count);
        st = nbb_par_for_progress(threads, nb, number_band, &j, &numbering, err);
    }
    if (st != NB_OK) {
        free(*payload);
        *payload = NULL;
    }
    free(j.pieces);
    free(j.base);
    free(j.final);
    return st;
}
