/* navbake_layer.c: clearance and component layers as text, for
 * 'navbake dump BUNDLE clearance|components': H rows of W integers. */
#include <stdlib.h>

#include "clearance/clearance.h"
#include "cli.h"
#include "commands.h"

int nbc_dump_layer(const nb_bundle *b, size_t index)
{
    nbi_layer l;
    nb_err err;
    if (nbi_layer_at(b, index, &l, &err) != NB_OK)
        return nbc_fail_err(&err);
    /* One row at a time, so a large map prints at stdio speed. */
    size_t cap = (size_t)l.width * 11 + 2, at;
    char *row = malloc(cap);
    if (!row)
        return nbc_fail("out of memory");
    for (uint32_t y = 0; y < l.height; y++) {
        at = 0;
        for (uint32_t x = 0; x < l.width; x++) {
            uint32_t v = nbi_layer_get(&l, (uint64_t)y * l.width + x);
            at += (size_t)snprintf(row + at, cap - at, x ? " %u" : "%u", v);
        }
        row[at++] = '\n';
        fwrite(row, 1, at, stdout);
    }
    free(row);
    return NBC_EXIT_OK;
}
