/* navbake convert: a bundle from one form to the other, binary
 * (formats/bundle.md) or SQLite (formats/sqlite.md), every section kept as
 * stored; or a level (a Tiled map, an LDtk project, a MovingAI map) or a
 * world (its manifest or its world bundle) written as a MovingAI map for
 * the research tools. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "progress.h"
#include "world_input.h"

static int ends_with_map(const char *s)
{
    size_t n = strlen(s);
    return n >= 4 && strcmp(s + n - 4, ".map") == 0;
}

/* text (len bytes) to out, '-' being standard output; frees it. */
static int put_text(char *text, size_t len, const char *out)
{
    nb_err err;
    nb_status st = NB_OK;
    if (strcmp(out, "-") == 0) {
        if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
            free(text);
            return nbc_fail("standard output: %s", strerror(errno));
        }
    } else
        st = nbb_write_changed(out, text, len, NULL, &err);
    free(text);
    return st == NB_OK ? NBC_EXIT_OK : nbc_fail_err(&err);
}

/* The world at in (its manifest: from the tile maps; its world bundle:
 * from the tile bundles, each checked against the index) as one map. */
static int world_to_map(const char *in, const char *out)
{
    nbc_world_in w;
    nb_bundle *b = NULL;
    nb_err err;
    char *text = NULL;
    size_t len = 0;
    if (!nbc_world_in_read(in, NULL, &w))
        return NBC_EXIT_FAIL;
    nb_status st = NB_OK;
    if (w.manifest)
        st = nbb_world_map_from_maps(&w.w, 0, &text, &len, &err);
    else if (nbc_world_in_open(&w, &b))
        st = nbb_world_map_from_tiles(b, w.dir, &text, &len, &err);
    else
        st = NB_ERR_FORMAT, err.msg[0] = '\0';
    nb_bundle_close(b);
    nbc_world_in_free(&w);
    if (st != NB_OK)
        return err.msg[0] ? nbc_fail_err(&err) : NBC_EXIT_FAIL;
    return put_text(text, len, out);
}

/* 1 when the bundle at path is a world bundle. */
static int world_bundle(const char *path)
{
    nb_bundle *b;
    uint32_t tiles;
    if (strcmp(path, "-") == 0 || nb_bundle_open(path, 0, NULL, &b, NULL) != NB_OK)
        return 0;
    int is = nbb_world_index_tiles(b, &tiles, NULL) == NB_OK;
    nb_bundle_close(b);
    return is;
}

/* The level at in, read with legend, as a MovingAI map at out. */
static int level_to_map(const char *in, const char *out, const char *legend)
{
    nbb_level *level;
    nb_err err;
    char *text = NULL;
    size_t len = 0;
    nb_status st = nbb_level_read_map(legend, in, &level, &err);
    if (st != NB_OK)
        return nbc_fail_err(&err);
    st = nbb_level_map_text(level, &text, &len, &err);
    nbb_level_free(level);
    if (st != NB_OK)
        return nbc_fail_err(&err);
    return put_text(text, len, out);
}

int nbc_cmd_convert(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"legend", required_argument, NULL, 'l'},
                                         NBC_PROGRESS_OPTION,
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    nbb_format format = NBB_FORMAT_AUTO;
    nbc_progress_mode pmode = NBC_PROGRESS_AUTO;
    const char *legend = NULL;
    int to_map = 0, c;
    while ((c = getopt_long(argc, argv, "f:l:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (strcmp(optarg, "map") == 0)
                to_map = 1;
            else if (!nbc_format("--format", optarg, &format))
                return NBC_EXIT_USAGE;
            break;
        case 'l': legend = optarg; break;
        case NBC_OPT_PROGRESS:
            if (!nbc_progress_mode_parse(optarg, &pmode))
                return NBC_EXIT_USAGE;
            break;
        case 'h':
            printf("Usage: navbake convert [--format FORM] IN OUT\n"
                   "       navbake convert [--legend FILE] LEVEL OUT.map\n"
                   "Write the bundle IN to OUT in the other form (or the same): binary, the\n"
                   "form to ship, which the runtime maps without copying, or SQLite, a\n"
                   "database to query with the sqlite3 shell (formats/sqlite.md).  Every\n"
                   "section is kept as stored, types this version does not know included, so\n"
                   "binary -> SQLite -> binary gives back the same bytes.  IN is verified\n"
                   "whole first; OUT is replaced atomically.  '-' is standard input or output.\n"
                   "When LEVEL is a level (a Tiled .tmx or .tmj map, an LDtk .ldtk project\n"
                   "or FILE.ldtk#LEVEL, a .png or .pgm image or heightmap, a MovingAI .map),\n"
                   "OUT ends in .map or --format map\n"
                   "is given, LEVEL is read as the bakers read it and OUT is its map in the\n"
                   "MovingAI form (formats/map.md), in the legend's characters.\n"
                   "When IN is a world, its manifest (a .yaml file, formats/world.md) or its\n"
                   "world bundle, OUT is the world's whole map: from the tiles' maps, or from\n"
                   "the tile bundles beside the world bundle, each checked against its index.\n"
                   "A world bundle written in another form is checked so first too.\n\n"
                   "  -f, --format FORM  'binary', 'sqlite' or 'map' (default: map for a\n"
                   "                     level or when OUT ends in .map, sqlite when OUT\n"
                   "                     ends in .sqlite, .sqlite3 or .db, else binary)\n"
                   "  -l, --legend FILE  the terrain legend a level is read with (default:\n"
                   "                     the MovingAI one; formats/legend.md)\n"

                   "      --progress WHEN  auto (default: a line on standard error when it is\n"
                   "                     a terminal), none, or json (a JSON object a line)\n"
                   "  -h, --help         show this help and exit\n"
                   "  -V, --version      show the version and exit\n" NBC_EXIT_HELP);
            return NBC_EXIT_OK;
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (argc - optind != 2)
        return nbc_usage(argc - optind < 2 ? "give a bundle to read and one to write"
                                           : "one bundle at a time: IN OUT");
    const char *in = argv[optind], *out = argv[optind + 1];
    int manifest = nbc_world_manifest_path(in), wbundle = !manifest && world_bundle(in);
    if (manifest && legend)
        return nbc_usage("--legend: a world is read with the legend its manifest names");
    if (manifest || (wbundle && (to_map || ends_with_map(out))))
        return world_to_map(in, out);
    if (wbundle) {
        /* Its tiles checked before the world bundle is written again. */
        nbc_world_in w;
        nb_bundle *wb = NULL;
        int ok = nbc_world_in_read(in, NULL, &w) && nbc_world_in_open(&w, &wb);
        nb_bundle_close(wb);
        nbc_world_in_free(&w);
        if (!ok)
            return NBC_EXIT_FAIL;
    }
    /* A MovingAI map given as IN with a bundle's OUT is refused below as
     * not a bundle; an editor's level has only the one output form. */
    if (to_map || ends_with_map(out) ||
        (nbb_level_path(in) && !ends_with_map(in) && strcmp(out, "-") == 0))
        return level_to_map(in, out, legend);
    if (nbb_level_path(in) && !ends_with_map(in))
        return nbc_usage("a level is written as a MovingAI map: give OUT ending in .map, '-' or "
                         "--format map");
    if (legend)
        return nbc_usage("--legend is for a level written as a map (OUT ending in .map)");
    nb_bundle *b;
    nbb_builder *builder = NULL;
    nb_err err;
    nb_status st = nb_bundle_open(in, NB_OPEN_VERIFY, NULL, &b, &err);
    if (st != NB_OK)
        return nbc_fail_err(&err);
    st = nbb_builder_new(&builder, &err);
    if (st == NB_OK)
        st = nbb_builder_take(builder, b, &err);
    nb_bundle_close(b);
    if (st == NB_OK) {
        nbc_progress prog;
        nbc_progress_start(&prog, pmode, 0, out, 0, "");
        st = nbb_builder_write_progress(builder, out, format, nbc_progress_update, &prog, &err);
        nbc_progress_end(&prog);
    }
    nbb_builder_free(builder);
    return st == NB_OK ? NBC_EXIT_OK : nbc_fail_err(&err);
}
