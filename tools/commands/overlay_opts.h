/* overlay_opts.h: the --block and --open options of 'navbake query' and
 * 'navbake render': rectangles of cells blocked, or opened again, in an
 * overlay (nb_overlay_open(3)) made for the one command. */
#ifndef NB_OVERLAY_OPTS_H
#define NB_OVERLAY_OPTS_H

#include "cli.h"

#define NBC_MAX_EDITS 256

typedef struct nbc_edits {
    size_t n;
    struct {
        long x, y, w, h;
        int block; /* 1 --block, 0 --open */
    } e[NBC_MAX_EDITS];
} nbc_edits;

/* Takes "X,Y,W,H" of --block (block 1) or --open; an exit status after a
 * usage message. */
int nbc_edit_option(nbc_edits *ed, int block, const char *arg);
/* The overlay of the edits, in the order given, on b's map; *out is NULL
 * when there are none.  An exit status after a message (a rectangle off
 * the map is a usage error naming it). */
int nbc_edits_overlay(const nbc_edits *ed, const nb_bundle *b, nb_overlay **out);
/* The --help lines. */
void nbc_edits_help(FILE *f);

#endif
