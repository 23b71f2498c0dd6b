/* world_bake.c: a world's bake actions.  "strips" writes the cells of a
 * tile its neighbours' halos hold; "tile" bakes one tile into its tile
 * bundle and border file; "link" joins the border files into the world
 * bundle.  Each writes a file only when its bytes change, so that a build
 * graph (Ninja's restat) stops where an edit stopped changing anything. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "world_cli.h"

/* "tiles/X_Y.EXT" into buf. */
static void tile_name(char *buf, size_t len, uint32_t x, uint32_t y, const char *ext)
{
    snprintf(buf, len, "tiles/%u_%u.%s", x, y, ext);
}

/* The help of tile and of strips. */
static void tile_help(void)
{
    printf("Usage: navbake world tile MANIFEST X Y -o FOLDER [OPTION]...\n"
           "  or:  navbake world tile MANIFEST --index I -o FOLDER [OPTION]...\n"
           "Bake tile (X, Y) of the world MANIFEST (formats/world.md): the level of the\n"
           "tile's cells and a halo of its neighbours' around them (the smallest\n"
           "multiple of the cluster at least the largest agent's size), with mkclear's\n"
           "clearance layers, components and runs and mkabstract's graph (the world's\n"
           "cluster), into FOLDER/tiles/X_Y.nbb, a bundle that opens alone, tagged\n"
           "with the tile and the digests of the files it was baked from; and its\n"
           "border file FOLDER/tiles/X_Y.border (what navbake world link reads).  It\n"
           "reads the manifest, its legend and agents and the maps of the tile and its\n"
           "neighbours (with --strips, the tile's map and its neighbours' strips),\n"
           "nothing else.  A tile bundle there already is brought up to date (the\n"
           "bytes are a whole bake's).  A file whose bytes would not change is not\n"
           "written.  Prints each file written.\n\n"
           "  -i, --index I        the tile by its number, Y x columns + X (a job\n"
           "                       array's task id)\n"
           "  -o, --output FOLDER  the world's output folder, made if missing\n"
           "      --full           bake from the maps alone, ignoring the tile bundle\n"
           "                       there\n"
           "      --strips         read the neighbours' cells from the strips they lend\n"
           "                       it, FOLDER/strips/X_Y.D.map (navbake world strips),\n"
           "                       not from their maps: the same bytes\n"
           "      --twin X,Y       tile (X, Y) of the world may have been baked from the\n"
           "                       same cells (navbake world plan's twins): when it was,\n"
           "                       its bundle FOLDER/tiles/X_Y.nbb is updated in place\n"
           "                       of this tile's, which changes only the tile's place;\n"
           "                       when it was not, the option does nothing.  The same\n"
           "                       bytes either way\n"
           "  -j, --threads N      threads to bake on, 1 to 256 (default: the online\n"
           "                       CPUs); the bytes are the same for any number\n"
           "  -v, --verbose        also print the files left as they were, and what\n"
           "                       the update computed again\n"
           "  -q, --quiet          print nothing\n"
           "  -h, --help           show this help and exit\n"
           "  -V, --version        show the version and exit\n" NBC_EXIT_HELP);
}

static void strips_help(void)
{
    printf("Usage: navbake world strips MANIFEST X Y -o FOLDER [OPTION]...\n"
           "  or:  navbake world strips MANIFEST --index I -o FOLDER [OPTION]...\n"
           "Write the strips of tile (X, Y) of the world MANIFEST (formats/world.md):\n"
           "for each neighbour, the tile's cells that the neighbour's halo holds, as a\n"
           "map FOLDER/strips/X_Y.D.map (D the neighbour's direction: n, ne, e, se, s,\n"
           "sw, w, nw).  navbake world tile --strips reads them in place of the\n"
           "neighbours' maps, so that a build graph (navbake world plan) runs a tile\n"
           "again when the cells its halo holds change, not on every edit of a\n"
           "neighbour.  It reads the manifest, its legend and agents (the halo) and\n"
           "the tile's map, nothing else.  A file whose bytes would not change is not\n"
           "written.  Prints each file written.\n\n"
           "  -i, --index I        the tile by its number, Y x columns + X\n"
           "  -o, --output FOLDER  the world's output folder, made if missing\n"
           "  -j, --threads N      threads to read the map on, 1 to 256 (default: the\n"
           "                       online CPUs)\n"
           "  -v, --verbose        also print the files left as they were\n"
           "  -q, --quiet          print nothing\n"
           "  -h, --help           show this help and exit\n"
           "  -V, --version        show the version and exit\n" NBC_EXIT_HELP);
}

/* The options of a tile's actions (tile: tile 1, which has --full and
 * --strips; strips: tile 0). */
typedef struct tile_args {
    nbc_world_listing l;
    const char *out;
    unsigned long index;
    unsigned long twin_x, twin_y; /* --twin X,Y */
    int have_index, full, strips, twin;
} tile_args;

static int pick_tile(int argc, char **argv, const tile_args *a, nbb_world *w, unsigned long *tx,
                     unsigned long *ty);

/* Reads the options into a and the tile (pick_tile): -1 when they are
 * all right, else the exit status. */
static int tile_options(int argc, char **argv, int tile, tile_args *a, nbb_world *w,
                        unsigned long *tx, unsigned long *ty)
{
    enum { OPT_FULL = 256, OPT_STRIPS, OPT_TWIN };
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"index", required_argument, NULL, 'i'},
                                         {"full", no_argument, NULL, OPT_FULL},
                                         {"strips", no_argument, NULL, OPT_STRIPS},
                                         {"twin", required_argument, NULL, OPT_TWIN},
                                         {"threads", required_argument, NULL, 'j'},
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    memset(a, 0, sizeof *a);
    int c;
    while ((c = getopt_long(argc, argv, "o:i:j:vqhV", opts, NULL)) != -1) {
        int shared = nbc_world_option(c, &a->l);
        if (shared < 0)
            return NBC_EXIT_USAGE;
        if (shared > 0)
            continue;
        switch (c) {
        case 'o': a->out = optarg; break;
        case 'i':
            if (!nbc_uint("--index", optarg, 0, NBB_WORLD_MAX_TILES - 1, &a->index))
                return NBC_EXIT_USAGE;
            a->have_index = 1;
            break;
        case OPT_FULL:
        case OPT_STRIPS:
            if (!tile)
                return nbc_usage("--full and --strips are navbake world tile's");
            *(c == OPT_FULL ? &a->full : &a->strips) = 1;
            break;
        case OPT_TWIN: {
            char *comma = strchr(optarg, ',');
            if (!tile)
                return nbc_usage("--twin is navbake world tile's");
            if (!comma)
                return nbc_usage("--twin: '%s' is not a tile's X,Y", optarg);
            *comma = '\0';
            int good = nbc_uint("--twin's X", optarg, 0, NBB_WORLD_MAX_SIDE - 1, &a->twin_x) &&
                       nbc_uint("--twin's Y", comma + 1, 0, NBB_WORLD_MAX_SIDE - 1, &a->twin_y);
            *comma = ',';
            if (!good)
                return NBC_EXIT_USAGE;
            a->twin = 1;
            break;
        }
        case 'h': tile ? tile_help() : strips_help(); return NBC_EXIT_OK;
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    return pick_tile(argc, argv, a, w, tx, ty);
}

/* The tile an action is given, "MANIFEST X Y" or "MANIFEST" with --index,
 * and the manifest read into w: -1 then, else the exit status (w freed). */
static int pick_tile(int argc, char **argv, const tile_args *a, nbb_world *w, unsigned long *tx,
                     unsigned long *ty)
{
    int args = argc - optind;
    if (args < 1)
        return nbc_usage("give the world's manifest");
    if (a->have_index ? args != 1 : args != 3)
        return nbc_usage(a->have_index ? "give the manifest and --index, without X and Y"
                                    : "give the manifest and the tile's X and Y (or --index I)");
    if (!a->out)
        return nbc_usage("give the world's output folder (-o FOLDER)");
    *tx = *ty = 0;
    if (!a->have_index && (!nbc_uint("X", argv[optind + 1], 0, NBB_WORLD_MAX_SIDE - 1, tx) ||
                        !nbc_uint("Y", argv[optind + 2], 0, NBB_WORLD_MAX_SIDE - 1, ty)))
        return NBC_EXIT_USAGE;
    nb_err err;
    if (nbb_world_read(argv[optind], w, &err) != NB_OK)
        return nbc_fail_err(&err);
    if (a->have_index) {
        uint32_t n = w->columns * w->rows;
        if (a->index >= n) {
            nbb_world_free(w);
            return nbc_usage("--index %lu: the world has %u tiles (0 to %u)", a->index, n, n - 1);
        }
        *tx = a->index % w->columns;
        *ty = a->index / w->columns;
    }
    return -1;
}

int nbc_world_tile(int argc, char **argv)
{
    tile_args a;
    unsigned long tx, ty;
    nbb_world w;
    int rc = tile_options(argc, argv, 1, &a, &w, &tx, &ty);
    if (rc >= 0)
        return rc;
    nb_err err;
    char name[64], border[64], twin[64], *old = NULL, *twin_path = NULL;
    tile_name(name, sizeof name, (uint32_t)tx, (uint32_t)ty, "nbb");
    tile_name(twin, sizeof twin, (uint32_t)a.twin_x, (uint32_t)a.twin_y, "nbb");
    tile_name(border, sizeof border, (uint32_t)tx, (uint32_t)ty, "border");
    nbb_world_tile_out o;
    memset(&o, 0, sizeof o);
    nb_status st = nbb_world_folders(a.out, &err);
    if (st == NB_OK && !a.full)
        st = nbb_world_join(a.out, name, &old, &err);
    /* A twin of itself is no twin: the tile's own bundle is the old one. */
    if (st == NB_OK && a.twin && (a.twin_x != tx || a.twin_y != ty))
        st = nbb_world_join(a.out, twin, &twin_path, &err);
    if (st == NB_OK)
        st = nbb_world_tile_bake_twin(&w, (uint32_t)tx, (uint32_t)ty, a.strips ? a.out : NULL, old,
                                      twin_path, a.l.threads, &o, &err);
    /* The bundle first: the border file holds its digest, and the link
     * reads the border. */
    if (st == NB_OK)
        st = nbb_world_put(a.out, name, o.tile, o.tile_len, nbc_world_list, &a.l, NULL, &err);
    if (st == NB_OK)
        st = nbb_world_put(a.out, border, o.border, o.border_len, nbc_world_list, &a.l, NULL, &err);
    if (st == NB_OK && a.l.verbose)
        printf("tile (%lu, %lu): %s, %llu cells changed, %u of %u layers written anew\n", tx, ty,
               o.stats.change == NBB_LEVEL_OTHER ? "baked whole"
               : o.twin                          ? "updated from its twin"
                                                 : "updated",
               (unsigned long long)o.stats.changed_cells, o.stats.layers_rebuilt, o.stats.layers);
    nbb_world_tile_out_free(&o);
    free(old);
    free(twin_path);
    nbb_world_free(&w);
    return st == NB_OK ? NBC_EXIT_OK : nbc_fail_err(&err);
}

int nbc_world_strips(int argc, char **argv)
{
    tile_args a;
    unsigned long tx, ty;
    nbb_world w;
    int rc = tile_options(argc, argv, 0, &a, &w, &tx, &ty);
    if (rc >= 0)
        return rc;
    nb_err err;
    nb_status st = nbb_world_strips(&w, (uint32_t)tx, (uint32_t)ty, a.out, a.l.threads,
                                    nbc_world_list, &a.l, NULL, &err);
    nbb_world_free(&w);
    return st == NB_OK ? NBC_EXIT_OK : nbc_fail_err(&err);
}

int nbc_world_link(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"threads", required_argument, NULL, 'j'},
                                         {"full", no_argument, NULL, 'f'},
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    nbc_world_listing l = {0, 0, 0, 0};
    const char *out = NULL;
    int c, full = 0;
    while ((c = getopt_long(argc, argv, "o:j:vqhV", opts, NULL)) != -1) {
        int shared = nbc_world_option(c, &l);
        if (shared < 0)
            return NBC_EXIT_USAGE;
        if (shared > 0)
            continue;
        switch (c) {
        case 'o': out = optarg; break;
        case 'f': full = 1; break;
        case 'h':
            printf("Usage: navbake world link MANIFEST -o FOLDER [OPTION]...\n"
                   "Link the world MANIFEST's tiles (formats/world.md) into the world bundle\n"
                   "FOLDER/world.nbw: the index of the tiles with each tile bundle's digest,\n"
                   "and world-wide component numbers for every capability and size (so that\n"
                   "reachability across tiles is two lookups).  It reads the manifest, its\n"
                   "legend and agents, and the border files FOLDER/tiles/X_Y.border that\n"
                   "navbake world tile wrote, never a tile bundle.  Tiles baked with another\n"
                   "legend or agent set, or from another version of a neighbour's map, are\n"
                   "refused, naming the tile to bake again.  The file is written only when\n"
                   "its bytes change.  What it made of each border file is kept in\n"
                   "FOLDER/link.cache, by the file's digest, so that a link after an edit\n"
                   "reads only the border files that changed; the world bundle's bytes are\n"
                   "the same with or without it (a cache damaged or of another world is\n"
                   "ignored).\n\n"
                   "  -o, --output FOLDER  the world's output folder\n"
                   "  -j, --threads N      accepted for symmetry with tile (the link runs on one)\n"
                   "      --full           read every border file, ignoring FOLDER/link.cache\n"
                   "  -v, --verbose        also print each file read and the counts\n"
                   "  -q, --quiet          print nothing\n"
                   "  -h, --help           show this help and exit\n"
                   "  -V, --version        show the version and exit\n" NBC_EXIT_HELP);
            return NBC_EXIT_OK;
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (argc - optind != 1)
        return nbc_usage(argc - optind < 1 ? "give the world's manifest" : "one manifest at a time");
    if (!out)
        return nbc_usage("give the world's output folder (-o FOLDER)");
    nbb_world w;
    nb_err err;
    uint8_t *image = NULL;
    size_t len = 0;
    nbb_world_link_stats s;
    nb_status st = nbb_world_read(argv[optind], &w, &err);
    if (st != NB_OK)
        return nbc_fail_err(&err);
    uint8_t *cache = NULL;
    size_t cache_len = 0;
    st = nbb_world_link_cached(&w, out, !full, l.verbose ? nbc_world_list : NULL, &l, &image,
                               &len, &cache, &cache_len, &s, &err);
    if (st == NB_OK)
        st = nbb_world_put(out, "world.nbw", image, len, nbc_world_list, &l, NULL, &err);
    /* The cache after the world bundle: a link stopped between the two
     * leaves an older cache, whose records still match their digests. */
    if (st == NB_OK)
        st = nbb_world_put(out, NBB_WORLD_LINK_CACHE, cache, cache_len,
                           l.verbose ? nbc_world_list : NULL, &l, NULL, &err);
    if (st == NB_OK && l.verbose)
        printf("%u of %u border files read%s%s\n", s.borders_read, s.tiles,
               s.cache_ignored && !full ? ", the cache ignored: " : "",
               s.cache_ignored && !full ? s.cache_ignored : "");
    if (st == NB_OK && l.verbose)
        printf("%u tiles, %u (capability, size) pairs: %llu components in the tiles, %llu in the "
               "world\n",
               s.tiles, s.classes, (unsigned long long)s.local_components,
               (unsigned long long)s.world_components);
    free(image);
    free(cache);
    nbb_world_free(&w);
    return st == NB_OK ? NBC_EXIT_OK : nbc_fail_err(&err);
}
