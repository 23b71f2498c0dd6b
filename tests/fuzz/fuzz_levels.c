/* fuzz_levels.c: libFuzzer target for the level readers (formats/tiled.md,
 * formats/ldtk.md, formats/image.md): the first byte picks the reader (a
 * Tiled map in XML or JSON, an LDtk project, a PNG of colours or of
 * heights, a PGM), the rest is the file, written to a private folder
 * under the name that reader is chosen by.  The legend names a few tiles,
 * values, colours and heights, so that the naming is fuzzed too.  Built by
 * 'make fuzz-levels'. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "levels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef NB_FUZZ_LIBFUZZER
/* Executions per reader, said at exit: the goal is per reader (issue 33). */
static unsigned long long runs[6];
static const char *const reader[] = {"Tiled XML", "Tiled JSON", "LDtk", "PNG", "PNG heights", "PGM"};

static void say_runs(void)
{
    for (int i = 0; i < 6; i++)
        fprintf(stderr, "fuzz_levels: %llu executions of the %s reader\n", runs[i], reader[i]);
}
#endif

static const char legend_yaml[] =
    "terrains:\n"
    "  - name: ground\n    chars: \".\"\n    tiles: [floor]\n    colours: [\"#c0c0c0\"]\n"
    "  - name: water\n    chars: \"W\"\n    values: [water, \"1\"]\n    heights: [0, 9]\n"
    "obstacles: \"@\"\nobstacle_tiles: [wall]\nobstacle_values: [walls]\nmax_step: 12\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[64];
    static const char *const names[] = {"f.tmx", "f.tmj", "f.ldtk", "f.png", "h.png", "f.pgm"};
    if (size < 1)
        return 0;
    if (!dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/nbfuzz-levels-XXXXXX", t && *t && strlen(t) < 32 ? t : "/tmp");
        if (!mkdtemp(dir))
            abort();
    }
    unsigned pick = data[0] % 6;
#ifdef NB_FUZZ_LIBFUZZER
    if (!runs[0] && !runs[1] && !runs[2] && !runs[3] && !runs[4] && !runs[5])
        atexit(say_runs);
    runs[pick]++;
#endif
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, names[pick]);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data + 1, 1, size - 1, f) != size - 1 || fclose(f) != 0)
        abort();
    nbi_legend legend;
    nbb_legend_ext ext;
    nb_err err;
    if (nbb_legend_parse_ext(legend_yaml, sizeof legend_yaml - 1, "fuzz.yaml", &legend, &ext,
                             &err) != NB_OK)
        abort();
    ext.heightmap = pick == 4 || pick == 5;
    if (pick == 3)
        ext.heightmap = 0, ext.nbands = 0, ext.max_step = UINT32_MAX;
    nbb_grid g;
    if (nbb_level_file_read(path, &legend, &ext, 1, &g, &err) == NB_OK)
        nbb_grid_free(&g);
    nbb_legend_ext_free(&ext);
    unlink(path);
    return 0;
}
