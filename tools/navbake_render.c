/* navbake render: a picture of what a bundle holds, as SVG or PNG.
 * Options choose the picture (format, scale, window); the words after
 * the bundle choose the layers, drawn in order, each over the last; paths
 * from files are drawn over them all. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "render.h"

enum layer { L_TERRAIN, L_CLEARANCE, L_COMPONENTS, L_GRID };

static const struct {
    const char *name;
    enum layer layer;
} layer_names[] = {
    {"terrain", L_TERRAIN},       {"map", L_TERRAIN}, {"clearance", L_CLEARANCE},
    {"components", L_COMPONENTS}, {"grid", L_GRID},
};
#define NLAYER_NAMES (sizeof layer_names / sizeof layer_names[0])
#define MAX_LAYERS 32
#define MAX_PATH_FILES 64

static int usage(FILE *f)
{
    fprintf(f,
            "Usage: navbake render [OPTION]... BUNDLE -o OUT.svg|OUT.png [LAYER]...\n"
            "Draw what a bundle holds.  The LAYERs are drawn in the order given, each over\n"
            "the last (default: terrain); paths given with --path are drawn over them all.\n\n"
            "Layers:\n"
            "  terrain     each terrain in its own colour, hard obstacles dark ('map' too)\n"
            "  clearance   the clearance layer of the capability as a heat map: dark purple\n"
            "              where only a size-1 agent fits, pale yellow at the layer's cap\n"
            "  components  the reachability components of (capability, size), each in\n"
            "              its own colour\n"
            "  grid        thin lines between cells\n\n"
            "Options:\n"
            "  -o, --output FILE       the picture: FILE.svg or FILE.png ('-' for standard\n"
            "                          output, with --format)\n"
            "  -f, --format svg|png    instead of the file name's extension\n"
            "  -s, --scale N           pixels per cell side, 1 to 64 (default: the most that\n"
            "                          keeps the map within 1024 pixels, at most 16)\n"
            "  -w, --window X,Y,W,H    draw only the W x H cells from cell (X, Y)\n"
            "  -c, --capability LIST   terrains separated by commas (default: the agent's)\n"
            "  -z, --size S            agent size for components and footprints\n"
            "  -a, --agent NAME        the capability and size of this agent (default: the\n"
            "                          first of the bundle's agent set)\n"
            "  -p, --path FILE         draw the paths of FILE: JSON from 'navbake query\n"
            "                          --json', or lines of cells 'X Y' (a blank line\n"
            "                          between paths); may be repeated\n"
            "      --footprint         draw the agent's square at every cell of a path\n"
            "      --no-legend         leave out the legend under the map\n"
            "  -q, --quiet             say nothing but errors\n"
            "  -h, --help              show this help and exit\n"
            "  -V, --version           show the version and exit\n\n"
            "PNG output: %s\n"
            "navbake-render(1) lists the colours and the legend's layout.\n",
            nbr_png_supported() ? "yes (libpng)"
                                : "NO: this navbake was built without libpng; only SVG is written");
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

static int parse_window(const char *text, long w[4])
{
    char *end;
    const char *s = text;
    for (int i = 0; i < 4; i++) {
        if (*s < '0' || *s > '9')
            goto bad;
        unsigned long v = strtoul(s, &end, 10);
        if (v > 0x7fffffffUL || (i < 3 && *end != ',') || (i == 3 && *end != '\0'))
            goto bad;
        w[i] = (long)v;
        s = end + 1;
    }
    if (w[2] == 0 || w[3] == 0)
        goto bad;
    return 1;
bad:
    nbc_usage("--window: '%s' is not X,Y,W,H (whole numbers, W and H at least 1)", text);
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m)
        return 0;
    for (size_t i = 0; i < m; i++)
        if ((s[n - m + i] | 0x20) != suffix[i])
            return 0;
    return 1;
}

typedef struct job {
    enum layer layers[MAX_LAYERS];
    size_t nlayers;
    nb_capability cap;
    uint32_t size;
    int footprint, legend;
    nbr_paths paths;
} job;

/* One pass over every layer: the first (v->canvas NULL) checks and
 * gathers the legend, the second draws. */
static nb_status pass(nbr_view *v, job *j, nb_err *err)
{
    nb_status st = NB_OK;
    for (size_t i = 0; i < j->nlayers && st == NB_OK; i++) {
        switch (j->layers[i]) {
        case L_TERRAIN: st = nbr_draw_terrain(v, err); break;
        case L_CLEARANCE: st = nbr_draw_clearance(v, j->cap, err); break;
        case L_COMPONENTS: st = nbr_draw_components(v, j->cap, j->size, err); break;
        case L_GRID: nbr_draw_grid(v); break;
        }
    }
    for (size_t i = 0; i < j->paths.n && st == NB_OK; i++)
        st = nbr_draw_path(v, &j->paths.path[i], (unsigned)i, j->footprint, err);
    return st;
}

int nbc_cmd_render(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"scale", required_argument, NULL, 's'},
                                         {"window", required_argument, NULL, 'w'},
                                         {"capability", required_argument, NULL, 'c'},
                                         {"size", required_argument, NULL, 'z'},
                                         {"agent", required_argument, NULL, 'a'},
                                         {"path", required_argument, NULL, 'p'},
                                         {"footprint", no_argument, NULL, 'F'},
                                         {"no-legend", no_argument, NULL, 'L'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    const char *out = NULL, *format = NULL, *cap_list = NULL, *agent_name = NULL;
    const char *path_files[MAX_PATH_FILES];
    size_t npaths = 0;
    unsigned long scale = 0, size = 0;
    long window[4];
    int have_window = 0, c;
    job j;
    memset(&j, 0, sizeof j);
    j.legend = 1;
    while ((c = getopt_long(argc, argv, "o:f:s:w:c:z:a:p:qhV", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'f': format = optarg; break;
        case 's':
            if (!nbc_uint("--scale", optarg, 1, 64, &scale))
                return NBC_EXIT_USAGE;
            break;
        case 'w':
            if (!parse_window(optarg, window))
                return NBC_EXIT_USAGE;
            have_window = 1;
            break;
        case 'c': cap_list = optarg; break;
        case 'z':
            if (!nbc_uint("--size", optarg, 1, NB_MAX_AGENT_SIZE, &size))
                return NBC_EXIT_USAGE;
            break;
        case 'a': agent_name = optarg; break;
        case 'p':
            if (npaths == MAX_PATH_FILES)
                return nbc_usage("--path: at most %d files", MAX_PATH_FILES);
            path_files[npaths++] = optarg;
            break;
        case 'F': j.footprint = 1; break;
        case 'L': j.legend = 0; break;
        case 'q': break;
        case 'h': return usage(stdout);
        case 'V': return nbc_version();
        default: return nbc_usage("unknown option");
        }
    }
    if (optind >= argc)
        return nbc_usage("no bundle given");
    if (!out)
        return nbc_usage("no output given (-o OUT.svg or -o OUT.png)");
    nbr_format fmt;
    if (format) {
        if (strcmp(format, "svg") == 0)
            fmt = NBR_SVG;
        else if (strcmp(format, "png") == 0)
            fmt = NBR_PNG;
        else
            return nbc_usage("--format: '%s' is neither 'svg' nor 'png'", format);
    } else if (ends_with(out, ".svg")) {
        fmt = NBR_SVG;
    } else if (ends_with(out, ".png")) {
        fmt = NBR_PNG;
    } else {
        return nbc_usage("%s: cannot tell the format from the name; end it in .svg or .png, "
                         "or give --format",
                         out);
    }
    if (fmt == NBR_PNG && !nbr_png_supported())
        return nbc_fail("%s: this navbake was built without libpng and cannot write PNG "
                        "(write .svg, or install libpng-dev and rebuild)",
                        out);
    const char *bundle_path = argv[optind];
    for (size_t i = 0; i < npaths; i++)
        if (strcmp(bundle_path, "-") == 0 && strcmp(path_files[i], "-") == 0)
            return nbc_usage("the bundle and a path cannot both come from standard input");
    for (int a = optind + 1; a < argc; a++) {
        size_t k = 0;
        while (k < NLAYER_NAMES && strcmp(argv[a], layer_names[k].name) != 0)
            k++;
        if (k == NLAYER_NAMES)
            return nbc_usage("unknown layer '%s' (terrain, clearance, components, grid)", argv[a]);
        if (j.nlayers == MAX_LAYERS)
            return nbc_usage("at most %d layers", MAX_LAYERS);
        j.layers[j.nlayers++] = layer_names[k].layer;
    }
    if (j.nlayers == 0)
        j.layers[j.nlayers++] = L_TERRAIN;

    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open(bundle_path, 0, &b, &err) != NB_OK)
        return nbc_fail_err(&err);
    int rc = NBC_EXIT_OK;
    nbr_view v;
    memset(&v, 0, sizeof v);
    v.bundle = b;
    nbr_canvas *canvas = NULL;

    if (!nb_has_map(b)) {
        rc = nbc_fail("%s: no map to draw", bundle_path);
        goto done;
    }
    /* Capability and size: given, or the agent's. */
    const nb_agent *agent = NULL;
    if (agent_name && !(agent = nb_agent_find(b, agent_name))) {
        rc = nbc_fail("%s: no agent called '%s'", bundle_path, agent_name);
        goto done;
    }
    if (!agent && nb_agent_count(b) > 0)
        agent = nb_agent_get(b, 0);
    if (cap_list) {
        if (nb_capability_parse(b, cap_list, &j.cap, &err) != NB_OK) {
            rc = nbc_usage("--capability: %s", err.msg);
            goto done;
        }
    } else if (agent) {
        j.cap = agent->capability;
    }
    j.size = size ? (uint32_t)size : agent && (agent_name || !cap_list) ? agent->size : 1;
    for (size_t i = 0; i < j.nlayers; i++)
        if ((j.layers[i] == L_CLEARANCE || j.layers[i] == L_COMPONENTS) && j.cap == 0) {
            rc = nbc_usage("%s has no agents: give --capability", bundle_path);
            goto done;
        }
    for (size_t i = 0; i < npaths; i++)
        if (nbr_paths_read(&j.paths, path_files[i], j.size, &err) != NB_OK) {
            rc = nbc_fail_err(&err);
            goto done;
        }

    /* The window, within the map. */
    uint32_t mw = nb_map_width(b), mh = nb_map_height(b);
    if (!have_window) {
        window[0] = window[1] = 0;
        window[2] = mw;
        window[3] = mh;
    } else if (window[0] >= (long)mw || window[1] >= (long)mh || window[0] + window[2] > (long)mw ||
               window[1] + window[3] > (long)mh) {
        rc = nbc_usage("--window %ld,%ld,%ld,%ld is not inside the %u x %u map", window[0],
                       window[1], window[2], window[3], mw, mh);
        goto done;
    }
    v.x0 = window[0];
    v.y0 = window[1];
    v.w = (uint32_t)window[2];
    v.h = (uint32_t)window[3];
    if (!scale) {
        uint32_t side = v.w > v.h ? v.w : v.h;
        scale = 1024 / side;
        scale = scale < 1 ? 1 : scale > 16 ? 16 : scale;
    }
    v.scale = (double)scale;
    v.row = malloc((size_t)v.w * sizeof *v.row);
    if (!v.row) {
        rc = nbc_fail("out of memory");
        goto done;
    }

    /* First pass: everything checked, the legend gathered. */
    if (pass(&v, &j, &err) != NB_OK || v.legend.failed) {
        rc = v.legend.failed ? nbc_fail("out of memory") : nbc_fail_err(&err);
        goto done;
    }
    uint32_t map_w = (uint32_t)(v.w * scale), map_h = (uint32_t)(v.h * scale);
    uint32_t width = map_w, legend_h = 0;
    if (j.legend) {
        width = width < 256 ? 256 : width;
        legend_h = nbr_legend_height(&v.legend, width);
    }
    canvas = nbr_canvas_new(fmt, width, map_h + legend_h, NBR_WHITE, &err);
    if (!canvas) {
        rc = nbc_fail_err(&err);
        goto done;
    }
    nbr_legend legend = v.legend;
    memset(&v.legend, 0, sizeof v.legend);
    v.canvas = canvas;
    double clip[4];
    nbr_view_clip(&v, clip);
    char title[512];
    snprintf(title, sizeof title, "%s: cells %ld,%ld to %ld,%ld at %lu pixels a cell", bundle_path,
             v.x0, v.y0, v.x0 + (long)v.w - 1, v.y0 + (long)v.h - 1, scale);
    nbr_group(canvas, "map", title, clip);
    nb_status st = pass(&v, &j, &err);
    nbr_group_end(canvas);
    if (j.legend)
        nbr_legend_draw(&legend, canvas, map_h);
    nbr_legend_free(&legend);
    if (st == NB_OK)
        st = nbr_canvas_write(canvas, out, &err);
    if (st != NB_OK)
        rc = nbc_fail_err(&err);
done:
    nbr_canvas_free(canvas);
    nbr_legend_free(&v.legend);
    nbr_paths_free(&j.paths);
    free(v.row);
    nb_bundle_close(b);
    return rc;
}
