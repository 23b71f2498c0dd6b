/* overlay_opts.c: --block X,Y,W,H and --open X,Y,W,H (overlay_opts.h). */
#include <errno.h>
#include <stdlib.h>

#include "overlay_opts.h"

int nbc_edit_option(nbc_edits *ed, int block, const char *arg)
{
    const char *opt = block ? "--block" : "--open";
    long v[4];
    const char *p = arg;
    for (int i = 0; i < 4; i++) {
        char *end;
        errno = 0;
        v[i] = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : -1;
        if (v[i] < 0 || errno || v[i] > 0x7fffffffL || *end != (i < 3 ? ',' : '\0'))
            return nbc_usage("%s: '%s' is not a rectangle X,Y,W,H (four whole numbers: its "
                             "top-left cell, width and height)", opt, arg);
        p = end + 1;
    }
    if (v[2] < 1 || v[3] < 1)
        return nbc_usage("%s: '%s' has a side of 0 cells; W and H are 1 or more", opt, arg);
    if (ed->n == NBC_MAX_EDITS)
        return nbc_usage("%s: more than %d --block and --open options", opt, NBC_MAX_EDITS);
    ed->e[ed->n].x = v[0];
    ed->e[ed->n].y = v[1];
    ed->e[ed->n].w = v[2];
    ed->e[ed->n].h = v[3];
    ed->e[ed->n].block = block;
    ed->n++;
    return NBC_EXIT_OK;
}

int nbc_edits_overlay(const nbc_edits *ed, const nb_bundle *b, nb_overlay **out)
{
    *out = NULL;
    if (ed->n == 0)
        return NBC_EXIT_OK;
    unsigned long w = nb_map_width(b), h = nb_map_height(b);
    for (size_t i = 0; i < ed->n; i++)
        if ((unsigned long)ed->e[i].x + (unsigned long)ed->e[i].w > w ||
            (unsigned long)ed->e[i].y + (unsigned long)ed->e[i].h > h)
            return nbc_usage("%s %ld,%ld,%ld,%ld goes past the %lu x %lu map",
                             ed->e[i].block ? "--block" : "--open", ed->e[i].x, ed->e[i].y,
                             ed->e[i].w, ed->e[i].h, w, h);
    nb_err err;
    if (nb_overlay_open(b, out, &err) != NB_OK)
        return nbc_fail_err(&err);
    for (size_t i = 0; i < ed->n; i++) {
        nb_status st = ed->e[i].block
                           ? nb_overlay_block(*out, ed->e[i].x, ed->e[i].y, ed->e[i].w, ed->e[i].h, &err)
                           : nb_overlay_unblock(*out, ed->e[i].x, ed->e[i].y, ed->e[i].w, ed->e[i].h,
                                                &err);
        if (st != NB_OK) {
            nb_overlay_close(*out);
            *out = NULL;
            return nbc_fail_err(&err);
        }
    }
    return NBC_EXIT_OK;
}

void nbc_edits_help(FILE *f)
{
    fprintf(f, "      --block X,Y,W,H     block the W x H cells whose top-left cell is X,Y for\n"
               "                          this query, as if they were walls (repeatable)\n"
               "      --open X,Y,W,H      unblock cells an earlier --block blocked (a wall of\n"
               "                          the map stays one); the options apply in order\n");
}
