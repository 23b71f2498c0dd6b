/* world_cli.c: what navbake world's subcommands share: the options -j,
 * -v, -q and the listing of the files each writes or reads. */
#include <getopt.h>

#include "cli.h"
#include "world_cli.h"

int nbc_world_option(int c, nbc_world_listing *l)
{
    switch (c) {
    case 'j': return nbc_threads("--threads", optarg, &l->threads) ? 1 : -1;
    case 'v': l->verbose = 1; return 1;
    case 'q': l->quiet = 1; return 1;
    default: return 0;
    }
}

void nbc_world_list(void *arg, const char *path, int changed)
{
    nbc_world_listing *l = arg;
    l->seen++;
    if (l->verbose || (changed && !l->quiet))
        printf("%s %s\n", changed ? "wrote" : "same ", path);
}
