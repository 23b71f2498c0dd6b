/* shell_word.c: a string as one word of a POSIX shell's command line, for
 * the plans navbake world plan writes (world_ninja.c, world_slurm.c). */
#include "world_plan.h"

void nbc_shell_word(FILE *f, const char *s, int ninja)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else if (*s == '$' && ninja)
            fputs("$$", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}
