/* navbake render: a picture of what a bundle holds, as SVG or PNG.
 * Options choose the picture (format, scale, window); the words after
 * the bundle choose the layers, drawn in order, each over the last; paths
 * from files are drawn over them all. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "agent_pick.h"
#include "cli.h"
#include "commands.h"
#include "overlay_opts.h"
#include "progress.h"
#include "render.h"
#include "render_world.h"
#include "world_session.h"

enum layer {
    L_TERRAIN, L_CLEARANCE, L_COMPONENTS, L_GRID, L_PERIMETER, L_ABSTRACT,
    L_FOREST, L_BITANGENT, L_HITCHECK, L_CURVES
};
/* What a layer is drawn in: the map's cells, a forest's world units, or
 * the cells of a unit's hit-check window. */
enum frame { F_MAP, F_WORLD, F_UNIT };
static enum frame frame_of(enum layer l)
{
    return l == L_FOREST || l == L_BITANGENT ? F_WORLD
           : l == L_HITCHECK || l == L_CURVES ? F_UNIT
                                              : F_MAP;
}

static const struct {
    const char *name;
    enum layer layer;
} layer_names[] = {
    {"terrain", L_TERRAIN},       {"map", L_TERRAIN}, {"clearance", L_CLEARANCE},
    {"components", L_COMPONENTS}, {"grid", L_GRID},   {"forest", L_FOREST},
    {"bitangent", L_BITANGENT},   {"hitcheck", L_HITCHECK}, {"curves", L_CURVES},
    {"perimeter", L_PERIMETER},   {"abstract", L_ABSTRACT},
};
#define NLAYER_NAMES (sizeof layer_names / sizeof layer_names[0])
#define MAX_LAYERS 32
#define MAX_PATH_FILES 64
#define MAX_SIDE_PIXELS 1e6

static int usage(FILE *f)
{
    fprintf(f,
            "Usage: navbake render [OPTION]... BUNDLE -o OUT.svg|OUT.png [LAYER]...\n"
            "Draw what a bundle holds.  The LAYERs are drawn in the order given, each over\n"
            "the last (default: terrain); paths given with --path are drawn over them all.\n"
            "BUNDLE may be a world bundle (navbake world link): its terrain, clearance and\n"
            "grid layers are drawn tile by tile from its tile bundles.\n\n"
            "Layers:\n"
            "  terrain     each terrain in its own colour, hard obstacles dark ('map' too)\n"
            "  clearance   the clearance layer of the capability as a heat map: dark purple\n"
            "              where only a size-1 agent fits, pale yellow at the layer's cap\n"
            "  components  the reachability components of (capability, size), each in\n"
            "              its own colour\n"
            "  grid        thin lines between cells\n"
            "  abstract    the HAA* abstract graph: cluster borders, nodes, intra-edges\n"
            "              (blue) and inter-edges (red); with --agent, --capability or\n"
            "              --size only the edges that agent may use\n"
            "  perimeter   a slice of a model's perimeter table: the empty-map cost to the\n"
            "              goal from each cell near it, at one heading and speed\n"
            "  forest      round obstacles (dark green), inflated by the agent radius (grey)\n"
            "  bitangent   the bitangent graph baked for the agent radius: bitangents,\n"
            "              the free arcs its hugging arcs run along, its nodes\n"
            "  hitcheck    a unit's hit-check table for one start heading, in its window\n"
            "              round the origin cell: how many stored curves (to every\n"
            "              neighbour, every end heading) touch each cell\n"
            "  curves      those curves themselves\n"
            "A bundle without a map draws its forest by default.  Map, forest and unit\n"
            "layers do not mix (they are in different units).\n\n"
            "Options:\n"
            "  -o, --output FILE       the picture: FILE.svg or FILE.png ('-' for standard\n"
            "                          output, with --format)\n"
            "  -f, --format svg|png    instead of the file name's extension\n"
            "  -s, --scale N           pixels per cell side (per world unit for forests),\n"
            "                          0.001 to 64 (default: the most that keeps the picture\n"
            "                          within 1024 pixels: a whole number, at most 16, for\n"
            "                          grid maps)\n"
            "  -w, --window X,Y,W,H    draw only the W x H cells from cell (X, Y) (for a\n"
            "                          forest: world units, (X, Y) the bottom-left corner)\n"
            "  -r, --agent-radius R    the forest layers' agent radius (default: the first\n"
            "                          baked one, or 0)\n"
            "  -m, --model NAME        the perimeter layer's motion model (default: the\n"
            "                          bundle's first)\n"
            "  -g, --goal X,Y[,H]      its goal cell, stopped, at heading H or any (the\n"
            "                          default: the window's centre cell, any heading)\n"
            "  -S, --speed NAME        its start speed (default: stopped); --heading gives\n"
            "                          its start heading\n"
            "  -u, --unit NAME         the unit of the hitcheck and curves layers (default:\n"
            "                          the bundle's first)\n"
            "  -H, --heading K         their start heading (and the perimeter layer's):\n"
            "                          K x 360 / headings degrees (default 0, east)\n");
    nbc_agent_help(f, 'a', 'z', 'c');
    fprintf(f,
            "  -p, --path FILE         draw the paths of FILE: JSON from 'navbake query\n"
            "                          --json' (--forest too), or lines of cells 'X Y' (a\n"
            "                          blank line between paths); may be repeated\n"
            "      --footprint         draw the agent's square at every cell of a path\n"
            "      --block X,Y,W,H     draw the W x H cells at X,Y as blocked, as 'navbake\n"
            "                          query --block' blocks them (repeatable)\n"
            "      --open X,Y,W,H      unblock cells an earlier --block blocked\n"
            "      --no-legend         leave out the legend under the map\n"
            "  -q, --quiet             say nothing but errors\n"
            "      --progress WHEN     auto (default: a line on standard error when it is a\n"
            "                          terminal), none, or json (a JSON object a line, always)\n"
            "  -h, --help              show this help and exit\n"
            "  -V, --version           show the version and exit\n\n"
            "PNG output: %s\n"
            "navbake-render(1) lists the colours and the legend's layout.\n"
            "Exit status: 0 the picture written, 1 a failure, 2 a usage error.\n",
            nbr_png_supported() ? "yes (libpng)"
                                : "NO: this navbake was built without libpng; only SVG is written");
    return f == stdout ? NBC_EXIT_OK : NBC_EXIT_USAGE;
}

static const char *layer_name(enum layer l)
{
    for (size_t i = 0; i < NLAYER_NAMES; i++)
        if (layer_names[i].layer == l)
            return layer_names[i].name;
    return "?";
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

/* Drawing's progress: a phase per layer, one more for writing a PNG. */
typedef struct render_progress {
    nbc_progress line;
    nbc_progress_mode mode;
    int quiet;
    double phase, phases;
} render_progress;

static void on_rows(void *arg, uint32_t done, uint32_t total)
{
    render_progress *p = arg;
    nbc_progress_update(&p->line, (p->phase + (double)done / total) / p->phases);
}

typedef struct job {
    enum layer layers[MAX_LAYERS];
    size_t nlayers;
    nb_forest *forest;
    double radius; /* the forest layers' agent radius */
    int graph;     /* the bitangent graph baked for it, or -1 */
    char unit[NB_NAME_MAX + 1];
    unsigned heading;
    nb_model *model;
    nb_perimeter *perim;
    unsigned speed;
    nb_motion_state goal;
    nb_capability cap;
    uint32_t size;
    int filter; /* the abstract layer: only what (cap, size) may use */
    int footprint, legend;
    nbr_paths paths;
    nb_overlay *overlay; /* --block, --open */
    render_progress progress;
    nbc_render_world *world; /* a world of tiles in place of a bundle's map, or NULL */
} job;

/* A layer of cells on one tile of a world (render_world.h). */
typedef struct tile_layer {
    enum layer layer;
    nb_capability cap;
} tile_layer;

static nb_status draw_tile(nbr_view *v, void *ctx, nb_err *err)
{
    const tile_layer *t = ctx;
    return t->layer == L_TERRAIN ? nbr_draw_terrain(v, err) : nbr_draw_clearance(v, t->cap, err);
}

/* One pass over every layer: the first (v->canvas NULL) checks and
 * gathers the legend, the second draws. */
static nb_status pass(nbr_view *v, job *j, nb_err *err)
{
    nb_status st = NB_OK;
    for (size_t i = 0; i < j->nlayers && st == NB_OK; i++) {
        if (v->canvas)
            j->progress.phase = (double)i;
        if (j->world && j->layers[i] != L_GRID) { /* terrain or clearance: main() checked */
            tile_layer t = {j->layers[i], j->cap};
            st = nbc_render_world_tiles(j->world, v, draw_tile, &t, err);
            continue;
        }
        switch (j->layers[i]) {
        case L_TERRAIN: st = nbr_draw_terrain(v, err); break;
        case L_CLEARANCE: st = nbr_draw_clearance(v, j->cap, err); break;
        case L_COMPONENTS: st = nbr_draw_components(v, j->cap, j->size, err); break;
        case L_GRID: nbr_draw_grid(v); break;
        case L_ABSTRACT: st = nbr_draw_abstract(v, j->filter, j->cap, j->size, err); break;
        case L_PERIMETER:
            st = nbr_draw_perimeter(v, j->model, j->perim, j->heading, j->speed, &j->goal, err);
            break;
        case L_FOREST: st = nbr_draw_forest(v, j->forest, j->radius, err); break;
        case L_HITCHECK: st = nbr_draw_hitcheck(v, j->unit, j->heading, err); break;
        case L_CURVES: st = nbr_draw_curves(v, j->unit, j->heading, err); break;
        case L_BITANGENT:
            if (j->graph < 0) {
                char baked[256] = "";
                size_t at = 0;
                for (unsigned k = 0; k < nb_forest_radius_count(j->forest) && at < 200; k++)
                    at += (size_t)snprintf(baked + at, sizeof baked - at, "%s%g", k ? ", " : "",
                                           nb_forest_radius_get(j->forest, k));
                st = nbb_fail(err, NB_ERR_NOTFOUND,
                              "no bitangent graph is baked for the agent radius %g (baked: %s)",
                              j->radius, at ? baked : "none");
            } else {
                st = nbr_draw_bitangent(v, j->forest, (unsigned)j->graph, err);
            }
            break;
        }
    }
    if (j->overlay && st == NB_OK)
        st = nbr_draw_blocked(v, j->overlay, err);
    for (size_t i = 0; i < j->paths.n && st == NB_OK; i++)
        st = nbr_draw_path(v, &j->paths.path[i], (unsigned)i, j->footprint, err);
    return st;
}

/* The perimeter layer's model, table, start speed and goal (by default
 * the window's centre cell, stopped at any heading). */
static int open_perimeter(const nb_bundle *b, const char *path, job *j, const char *model,
                          const char *goal, const char *speed, unsigned heading, const nbr_view *v)
{
    nb_err err;
    if (!model) {
        size_t i;
        if (nb_bundle_section_lookup(b, NB_SEC_PERIMETER, NULL, NULL, 0, &i, NULL) != NB_OK)
            return nbc_fail("%s: no perimeter table to draw (mkperim bakes them)", path);
        model = nb_bundle_section_get(b, i)->name;
    }
    if (nb_model_open(b, model, &j->model, &err) != NB_OK ||
        nb_perimeter_open(b, j->model, &j->perim, &err) != NB_OK)
        return nbc_fail_err(&err);
    unsigned nh = nb_model_headings(j->model);
    if (heading >= nh)
        return nbc_usage("--heading: model %s has %u headings (0 to %u)", model, nh, nh - 1);
    j->heading = heading;
    j->speed = nb_model_stop(j->model);
    if (speed) {
        size_t l;
        if (nb_model_speed_lookup(j->model, speed, &l, &err) != NB_OK)
            return nbc_usage("--speed: %s", err.msg);
        j->speed = (unsigned)l;
    }
    j->goal.x = (int32_t)(v->x0 + v->w / 2);
    j->goal.y = (int32_t)(v->y0 + v->h / 2);
    j->goal.heading = NB_HEADING_ANY;
    j->goal.speed = (uint16_t)nb_model_stop(j->model);
    if (goal) {
        long x, y;
        char xy[64], *comma;
        snprintf(xy, sizeof xy, "%s", goal);
        comma = strchr(xy, ',') ? strchr(strchr(xy, ',') + 1, ',') : NULL;
        if (comma)
            *comma = '\0';
        if (!nbc_point("--goal", xy, &x, &y))
            return NBC_EXIT_USAGE;
        j->goal.x = (int32_t)x;
        j->goal.y = (int32_t)y;
        if (comma && strcmp(comma + 1, "any") != 0) {
            unsigned long h;
            if (!nbc_uint("--goal", comma + 1, 0, nh - 1, &h))
                return NBC_EXIT_USAGE;
            j->goal.heading = (uint16_t)h;
        }
    }
    if (!nbc_cell_on_map("--goal", j->goal.x, j->goal.y, nb_map_width(b), nb_map_height(b)))
        return NBC_EXIT_USAGE;
    return NBC_EXIT_OK;
}

/* What the command line asks for, beside what goes in the job. */
typedef struct request {
    const char *out, *format, *cap_list, *agent_name, *unit, *model, *goal, *speed;
    const char *bundle_path;
    const char *path_files[MAX_PATH_FILES];
    size_t npaths;
    unsigned long heading, size;
    double scale, radius;
    int have_radius, have_window;
    long window[4];
    nbr_format fmt;
    nbc_edits edits;
} request;

#define GO_ON (-1) /* read_options' answer when the command goes on */
enum { OPT_BLOCK = 0x2000, OPT_OPEN };

/* The options, into r and j; GO_ON, or the exit status (--help and --version are done). */
static int read_options(int argc, char **argv, request *r, job *j)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"scale", required_argument, NULL, 's'},
                                         {"window", required_argument, NULL, 'w'},
                                         {"capability", required_argument, NULL, 'c'},
                                         {"size", required_argument, NULL, 'z'},
                                         {"agent", required_argument, NULL, 'a'},
                                         {"agent-radius", required_argument, NULL, 'r'},
                                         {"unit", required_argument, NULL, 'u'},
                                         {"model", required_argument, NULL, 'm'},
                                         {"goal", required_argument, NULL, 'g'},
                                         {"speed", required_argument, NULL, 'S'},
                                         {"heading", required_argument, NULL, 'H'},
                                         {"path", required_argument, NULL, 'p'},
                                         {"footprint", no_argument, NULL, 'F'},
                                         {"block", required_argument, NULL, OPT_BLOCK},
                                         {"open", required_argument, NULL, OPT_OPEN},
                                         {"no-legend", no_argument, NULL, 'L'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         NBC_PROGRESS_OPTION,
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "o:f:s:w:c:z:a:r:u:m:g:S:H:p:qhV", opts, NULL)) != -1) {
        switch (c) {
        case 'o': r->out = optarg; break;
        case 'f': r->format = optarg; break;
        case 's':
            if (!nbc_real("--scale", optarg, 0.001, 64, &r->scale))
                return NBC_EXIT_USAGE;
            break;
        case 'w':
            if (!parse_window(optarg, r->window))
                return NBC_EXIT_USAGE;
            r->have_window = 1;
            break;
        case 'c': r->cap_list = optarg; break;
        case 'z':
            if (!nbc_uint("--size", optarg, 1, NB_MAX_AGENT_SIZE, &r->size))
                return NBC_EXIT_USAGE;
            break;
        case 'a': r->agent_name = optarg; break;
        case 'u': r->unit = optarg; break;
        case 'm': r->model = optarg; break;
        case 'g': r->goal = optarg; break;
        case 'S': r->speed = optarg; break;
        case 'H':
            if (!nbc_uint("--heading", optarg, 0, 63, &r->heading))
                return NBC_EXIT_USAGE;
            break;
        case 'r':
            if (!nbc_real("--agent-radius", optarg, 0, NB_FOREST_MAX_COORD, &r->radius))
                return NBC_EXIT_USAGE;
            r->have_radius = 1;
            break;
        case 'p':
            if (r->npaths == MAX_PATH_FILES)
                return nbc_usage("--path: at most %d files", MAX_PATH_FILES);
            r->path_files[r->npaths++] = optarg;
            break;
        case 'F': j->footprint = 1; break;
        case OPT_BLOCK:
        case OPT_OPEN: {
            int e = nbc_edit_option(&r->edits, c == OPT_BLOCK, optarg);
            if (e != NBC_EXIT_OK)
                return e;
            break;
        }
        case 'L': j->legend = 0; break;
        case 'q': j->progress.quiet = 1; break;
        case NBC_OPT_PROGRESS:
            if (!nbc_progress_mode_parse(optarg, &j->progress.mode))
                return NBC_EXIT_USAGE;
            break;
        case 'h': return usage(stdout);
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    return GO_ON;
}

/* The words after the options: the bundle and the layers; and the picture's format, from
 * --format or the output's name. */
static int read_words(int argc, char **argv, request *r, job *j)
{
    if (optind >= argc)
        return nbc_usage("no bundle given");
    if (!r->out)
        return nbc_usage("no output given (-o OUT.svg or -o OUT.png)");
    if (r->format) {
        if (strcmp(r->format, "svg") == 0)
            r->fmt = NBR_SVG;
        else if (strcmp(r->format, "png") == 0)
            r->fmt = NBR_PNG;
        else
            return nbc_usage("--format: '%s' is neither 'svg' nor 'png'", r->format);
    } else if (ends_with(r->out, ".svg")) {
        r->fmt = NBR_SVG;
    } else if (ends_with(r->out, ".png")) {
        r->fmt = NBR_PNG;
    } else {
        return nbc_usage("%s: cannot tell the format from the name; end it in .svg or .png, "
                         "or give --format",
                         r->out);
    }
    if (r->fmt == NBR_PNG && !nbr_png_supported())
        return nbc_fail("%s: this navbake was built without libpng and cannot write PNG "
                        "(write .svg, or install libpng-dev and rebuild)",
                        r->out);
    r->bundle_path = argv[optind];
    for (size_t i = 0; i < r->npaths; i++)
        if (strcmp(r->bundle_path, "-") == 0 && strcmp(r->path_files[i], "-") == 0)
            return nbc_usage("the bundle and a path cannot both come from standard input");
    for (int a = optind + 1; a < argc; a++) {
        size_t k = 0;
        while (k < NLAYER_NAMES && strcmp(argv[a], layer_names[k].name) != 0)
            k++;
        if (k == NLAYER_NAMES)
            return nbc_usage("unknown layer '%s' (terrain, clearance, components, grid, forest, "
                             "bitangent, hitcheck, curves, perimeter, abstract)",
                             argv[a]);
        if (j->nlayers == MAX_LAYERS)
            return nbc_usage("at most %d layers", MAX_LAYERS);
        j->layers[j->nlayers++] = layer_names[k].layer;
    }
    return GO_ON;
}

/* The frame the layers are drawn in, into *frame: the first layer's that has one (grid lines
 * fit any); the default layer when none is given; refused when layers of two frames are asked
 * for, or map layers of a bundle without a map. */
static int choose_frame(const nb_bundle *b, const request *r, job *j, enum frame *frame)
{
    size_t fi;
    int has_forest = nb_bundle_section_lookup(b, NB_SEC_FOREST, NULL, NULL, 0, &fi, NULL) == NB_OK;
    if (j->nlayers == 0)
        j->layers[j->nlayers++] = nb_has_map(b) || !has_forest ? L_TERRAIN : L_FOREST;
    size_t lead = 0;
    while (lead + 1 < j->nlayers && j->layers[lead] == L_GRID)
        lead++;
    *frame = frame_of(j->layers[lead]);
    if (j->layers[lead] == L_GRID && !nb_has_map(b) && has_forest)
        *frame = F_WORLD;
    for (size_t i = 0; i < j->nlayers; i++)
        if (j->layers[i] != L_GRID && frame_of(j->layers[i]) != *frame)
            return nbc_usage("map, forest and unit layers cannot be drawn together");
    if (*frame == F_MAP && !nb_has_map(b))
        return nbc_fail("%s: no map to draw%s", r->bundle_path,
                        has_forest ? " (it holds a forest: draw the 'forest' layer)" : "");
    return NBC_EXIT_OK;
}

/* What a unit frame or a world frame draws from: the unit and the side of its hit-check
 * window (into *unit_side); the forest, its agent radius and the bitangent graph baked for it. */
static int open_frame(const nb_bundle *b, const request *r, job *j, enum frame frame,
                      unsigned *unit_side)
{
    nb_err err;
    if (frame == F_UNIT) {
        nb_unit first;
        if (!r->unit && nb_unit_get(b, 0, &first, &err) != NB_OK)
            return nbc_fail("%s: no unit to draw (mkhitcheck bakes them)", r->bundle_path);
        snprintf(j->unit, sizeof j->unit, "%s", r->unit ? r->unit : first.name);
        j->heading = (unsigned)r->heading;
        if (nbr_unit_window(b, j->unit, unit_side, &err) != NB_OK)
            return nbc_fail_err(&err);
        if (r->npaths)
            return nbc_usage("paths are drawn over maps and forests, not over a hit-check table");
    }
    if (frame == F_WORLD) {
        if (nb_forest_open(b, &j->forest, &err) != NB_OK)
            return nbc_fail_err(&err);
        j->radius = r->have_radius ? r->radius
                    : nb_forest_radius_count(j->forest) ? nb_forest_radius_get(j->forest, 0) : 0;
        size_t k;
        j->graph = nb_forest_radius_lookup(j->forest, j->radius, &k, NULL) == NB_OK ? (int)k : -1;
    }
    return NBC_EXIT_OK;
}

/* Capability and size: the agent's, by every command's rule (agent_pick.h); then the paths,
 * whose footprints take that size. */
static int choose_agent(const nb_bundle *b, const request *r, job *j)
{
    nb_err err;
    nbc_agent_opts ao = {r->agent_name, r->cap_list, r->size};
    nbc_agent_choice ch;
    int needed = 0;
    for (size_t i = 0; i < j->nlayers; i++)
        needed |= j->layers[i] == L_CLEARANCE || j->layers[i] == L_COMPONENTS;
    /* Only the layers of an agent need one: a forest's, a unit's or a path's footprints draw
     * without on a bundle that has none. */
    if (needed || nb_agent_count(b) || r->agent_name || r->cap_list) {
        int rc = nbc_agent_pick(b, r->bundle_path, &ao, &ch);
        if (rc != NBC_EXIT_OK)
            return rc;
        j->cap = ch.capability;
        j->size = ch.size;
    } else {
        j->size = r->size ? (uint32_t)r->size : 1;
    }
    j->filter = r->agent_name || r->cap_list || r->size;
    for (size_t i = 0; i < r->npaths; i++)
        if (nbr_paths_read(&j->paths, r->path_files[i], j->size, &err) != NB_OK)
            return nbc_fail_err(&err);
    return NBC_EXIT_OK;
}

/* The window drawn, into v, its size in cells or world units into span, and the scale (given,
 * or the most that keeps the picture within 1024 pixels); v->row for the map and unit frames. */
static int fit_view(const nb_bundle *b, const request *r, const job *j, enum frame frame,
                    unsigned unit_side, nbr_view *v, double span[2])
{
    double scale = r->scale;
    if (v->world) {
        /* The window in world units; by default the bounds and every
         * circle inflated. */
        double ext[4];
        nbr_forest_extent(j->forest, j->radius, ext);
        v->wx0 = r->have_window ? (double)r->window[0] : ext[0];
        v->wy0 = r->have_window ? (double)r->window[1] : ext[1];
        v->ww = r->have_window ? (double)r->window[2] : ext[2] - ext[0];
        v->wh = r->have_window ? (double)r->window[3] : ext[3] - ext[1];
        span[0] = v->ww;
        span[1] = v->wh;
        if (!scale)
            scale = 1024 / fmax(v->ww, v->wh);
    } else if (frame == F_UNIT) {
        /* The table's window, the origin cell in its middle. */
        v->x0 = v->y0 = -(long)(unit_side - 1) / 2;
        v->w = v->h = unit_side;
        span[0] = span[1] = unit_side;
        if (r->have_window)
            return nbc_usage("--window does not apply to a hit-check table");
        if (!scale) {
            scale = floor(1024 / span[0]);
            scale = scale > 48 ? 48 : scale < 1 ? 1 : scale;
        }
        v->row = malloc((size_t)v->w * sizeof *v->row);
        if (!v->row)
            return nbc_fail("out of memory");
    } else {
        /* The window, within the map (or the world). */
        uint32_t mw = j->world ? j->world->in.width : nb_map_width(b);
        uint32_t mh = j->world ? j->world->in.height : nb_map_height(b);
        long window[4] = {0, 0, mw, mh};
        if (r->have_window) {
            memcpy(window, r->window, sizeof window);
            if (window[0] >= (long)mw || window[1] >= (long)mh ||
                window[0] + window[2] > (long)mw || window[1] + window[3] > (long)mh)
                return nbc_usage("--window %ld,%ld,%ld,%ld is not inside the %u x %u %s",
                                 window[0], window[1], window[2], window[3], mw, mh,
                                 j->world ? "world" : "map");
        }
        v->x0 = window[0];
        v->y0 = window[1];
        v->w = (uint32_t)window[2];
        v->h = (uint32_t)window[3];
        span[0] = v->w;
        span[1] = v->h;
        if (!scale) {
            scale = floor(1024 / fmax(span[0], span[1]));
            scale = scale < 1 ? 1 : scale > 16 ? 16 : scale;
        }
        v->row = malloc((size_t)v->w * sizeof *v->row);
        if (!v->row)
            return nbc_fail("out of memory");
    }
    v->scale = scale;
    return NBC_EXIT_OK;
}

/* The title of the picture's map group: the bundle and the window drawn. */
static void view_title(const request *r, const job *j, enum frame frame, const nbr_view *v,
                       char *title, size_t len)
{
    if (frame == F_UNIT)
        snprintf(title, len, "%s: unit %s, cells %ld to %ld round the origin, at %g pixels "
                 "a cell", r->bundle_path, j->unit, v->x0, -v->x0, v->scale);
    else if (v->world)
        snprintf(title, len, "%s: x %g to %g, y %g to %g at %g pixels a unit", r->bundle_path,
                 v->wx0, v->wx0 + v->ww, v->wy0, v->wy0 + v->wh, v->scale);
    else
        snprintf(title, len, "%s: cells %ld,%ld to %ld,%ld at %g pixels a cell", r->bundle_path,
                 v->x0, v->y0, v->x0 + (long)v->w - 1, v->y0 + (long)v->h - 1, v->scale);
}

/* The picture: a first pass that checks every layer and gathers the legend, which sizes the
 * canvas; the second pass draws, the legend under it; then the file written.  The canvas is
 * left in v->canvas for the caller to free. */
static int draw(const request *r, job *j, enum frame frame, nbr_view *v, const double span[2])
{
    nb_err err;
    const double scale = v->scale;
    /* The options make the picture's size: one too large is a usage
     * error, said before anything is drawn. */
    double pw = ceil(span[0] * scale - 1e-9), ph = ceil(span[1] * scale - 1e-9);
    if (!(pw <= MAX_SIDE_PIXELS && ph <= MAX_SIDE_PIXELS && pw * ph <= (double)NBR_MAX_PIXELS))
        return nbc_usage("--scale %g: a picture of %.0f x %.0f pixels is too large (at most %.0f "
                         "a side and %.0f in all): give a smaller --scale or a --window",
                         scale, pw, ph, MAX_SIDE_PIXELS, (double)NBR_MAX_PIXELS);
    if (pass(v, j, &err) != NB_OK || v->legend.failed)
        return v->legend.failed ? nbc_fail("out of memory") : nbc_fail_err(&err);
    uint32_t map_w = (uint32_t)ceil(span[0] * scale - 1e-9);
    uint32_t map_h = (uint32_t)ceil(span[1] * scale - 1e-9);
    map_w = map_w ? map_w : 1;
    map_h = map_h ? map_h : 1;
    uint32_t width = map_w, legend_h = 0;
    if (j->legend) {
        width = width < 256 ? 256 : width;
        legend_h = nbr_legend_height(&v->legend, width);
    }
    v->canvas = nbr_canvas_new(r->fmt, width, map_h + legend_h, NBR_WHITE, &err);
    if (!v->canvas)
        return nbc_fail_err(&err);
    nbr_legend legend = v->legend;
    memset(&v->legend, 0, sizeof v->legend);
    double clip[4];
    nbr_view_clip(v, clip);
    char title[512];
    view_title(r, j, frame, v, title, sizeof title);
    render_progress *p = &j->progress;
    p->phases = (double)j->nlayers + (r->fmt == NBR_PNG);
    nbc_progress_start(&p->line, p->mode, p->quiet, r->out, 0, "");
    nbr_canvas_watch(v->canvas, on_rows, p);
    nbr_group(v->canvas, "map", title, clip);
    nb_status st = pass(v, j, &err);
    nbr_group_end(v->canvas);
    if (j->legend)
        nbr_legend_draw(&legend, v->canvas, map_h);
    nbr_legend_free(&legend);
    p->phase = (double)j->nlayers;
    if (st == NB_OK)
        st = nbr_canvas_write(v->canvas, r->out, &err);
    nbc_progress_end(&p->line);
    return st == NB_OK ? NBC_EXIT_OK : nbc_fail_err(&err);
}

/* The layers of a world (terrain, the default, clearance and grid: the others read a whole
 * bundle, or component numbers that are each tile's own), and no edits: an exit status. */
static int world_layers(const request *r, job *j)
{
    if (j->nlayers == 0)
        j->layers[j->nlayers++] = L_TERRAIN;
    for (size_t i = 0; i < j->nlayers; i++)
        if (j->layers[i] != L_TERRAIN && j->layers[i] != L_CLEARANCE && j->layers[i] != L_GRID)
            return nbc_usage("%s is a world of tiles: its terrain, clearance and grid layers are "
                             "drawn, tile by tile, not its %s",
                             r->bundle_path, layer_name(j->layers[i]));
    if (r->edits.n)
        return nbc_usage("--block and --open draw on a bundle's map, not on a world of tiles");
    return NBC_EXIT_OK;
}

int nbc_cmd_render(int argc, char **argv)
{
    request r;
    job j;
    memset(&r, 0, sizeof r);
    memset(&j, 0, sizeof j);
    j.legend = 1;
    int rc = read_options(argc, argv, &r, &j);
    if (rc == GO_ON)
        rc = read_words(argc, argv, &r, &j);
    if (rc != GO_ON)
        return rc;

    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open(r.bundle_path, 0, NULL, &b, &err) != NB_OK)
        return nbc_fail_err(&err);
    nbr_view v;
    memset(&v, 0, sizeof v);
    v.bundle = b;
    j.graph = -1;
    enum frame frame = F_MAP;
    unsigned unit_side = 0;
    double span[2] = {0, 0};
    nbc_render_world rw;
    memset(&rw, 0, sizeof rw);
    if (nbc_bundle_is_world(b)) {
        rc = world_layers(&r, &j);
        if (rc == NBC_EXIT_OK)
            rc = nbc_render_world_open(&rw, r.bundle_path);
        j.world = &rw;
        v.map_w = rw.in.width, v.map_h = rw.in.height;
    } else {
        rc = choose_frame(b, &r, &j, &frame);
    }
    v.world = frame == F_WORLD;
    if (rc == NBC_EXIT_OK)
        rc = open_frame(b, &r, &j, frame, &unit_side);
    if (rc == NBC_EXIT_OK)
        rc = choose_agent(b, &r, &j);
    if (rc == NBC_EXIT_OK)
        rc = fit_view(b, &r, &j, frame, unit_side, &v, span);
    if (rc == NBC_EXIT_OK && r.edits.n && frame != F_MAP)
        rc = nbc_usage("--block and --open draw on a grid map, not on this picture");
    if (rc == NBC_EXIT_OK)
        rc = nbc_edits_overlay(&r.edits, b, &j.overlay);
    for (size_t i = 0; i < j.nlayers && rc == NBC_EXIT_OK; i++)
        if (j.layers[i] == L_PERIMETER && !j.model)
            rc = open_perimeter(b, r.bundle_path, &j, r.model, r.goal, r.speed,
                                (unsigned)r.heading, &v);
    if (rc == NBC_EXIT_OK)
        rc = draw(&r, &j, frame, &v, span);

    nb_perimeter_close(j.perim);
    nb_model_close(j.model);
    nb_forest_close(j.forest);
    nb_overlay_close(j.overlay);
    nbr_canvas_free(v.canvas);
    nbr_legend_free(&v.legend);
    nbr_paths_free(&j.paths);
    free(v.row);
    nbc_render_world_close(&rw);
    nb_bundle_close(b);
    return rc;
}
