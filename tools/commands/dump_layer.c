/* dump_layer.c: clearance and component layers as text, for
 * 'navbake dump BUNDLE clearance|components': H rows of W integers. */
#include <stdlib.h>

#include "cli.h"
#include "commands.h"

int nbc_dump_layer(const nb_bundle *b, size_t index)
{
    nbb_layer *l;
    nb_err err;
    if (nbb_layer_open(b, index, &l, &err) != NB_OK)
        return nbc_fail_err(&err);
    nbb_layer_info li;
    nbb_layer_describe(l, &li);
    /* One row at a time, so a large map prints at stdio speed. */
    size_t cap = (size_t)li.width * 11 + 2, at;
    char *row = malloc(cap);
    if (!row) {
        nbb_layer_close(l);
        return nbc_fail("out of memory");
    }
    for (uint32_t y = 0; y < li.height; y++) {
        at = 0;
        for (uint32_t x = 0; x < li.width; x++)
            at += (size_t)snprintf(row + at, cap - at, x ? " %u" : "%u", nbb_layer_value(l, x, y));
        row[at++] = '\n';
        fwrite(row, 1, at, stdout);
    }
    free(row);
    nbb_layer_close(l);
    return NBC_EXIT_OK;
}
