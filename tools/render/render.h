/* render.h: what 'navbake render' draws, layer by layer, on a canvas
 * (canvas.h).  A view maps the map's cells to the picture's pixels: the
 * window's top-left cell (x0, y0) is at the picture's origin and a cell
 * is scale pixels a side.  Every layer is drawn in two passes: the first
 * reads and checks what it needs from the bundle and adds its legend
 * entries (so that errors come before any drawing and the picture's size
 * is known), the second draws. */
#ifndef NB_RENDER_H
#define NB_RENDER_H

#include <stdio.h>

#include "canvas.h"

/* ---- colours (palette.c; listed in navbake-render(1)) ---- */

#define NBR_WHITE 0xffffffu
#define NBR_BLACK 0x000000u
#define NBR_OBSTACLE 0x262626u  /* hard obstacles */
#define NBR_EXCLUDED 0x707070u  /* a terrain outside the capability drawn */
#define NBR_START 0x1a9641u     /* path starts */
#define NBR_GOAL 0xd7191cu      /* path goals */
#define NBR_UNTOUCHED 0xdcdcdcu /* a hit-check cell no curve touches */
#define NBR_BLOCKED 0xff7f0eu     /* cells an overlay blocks (--block) */
#define NBR_ABSTRACT_BORDER 0x303030u /* cluster borders */
#define NBR_ABSTRACT_INTRA 0x1f77b4u  /* intra-edges */
#define NBR_ABSTRACT_INTER 0xd62728u  /* inter-edges */
#define NBR_ABSTRACT_NODE 0x111111u   /* abstract nodes */
#define NBR_FOREST_GROUND 0xf6f3eau    /* open ground among round obstacles */
#define NBR_FOREST_CIRCLE 0x2e5e34u    /* a round obstacle */
#define NBR_FOREST_INFLATED 0x8a8a8au  /* its inflation by the agent radius, at 0.35 */
#define NBR_FOREST_BOUNDS 0x9a9a9au    /* the forest's bounds */
#define NBR_FOREST_BITANGENT 0x1f77b4u /* bitangents (at 0.6) and nodes */
#define NBR_FOREST_ARC 0xff7f0eu       /* free arcs, where hugging arcs run */

/* A terrain's colour: fixed for the legend's usual names (ground, swamp,
 * water, trees...), else from a palette by terrain number. */
uint32_t nbr_terrain_colour(const char *name, unsigned terrain);
/* Clearance v of a layer capped at cap: 1 to cap on a gradient from deep
 * purple to pale yellow (cap itself the lightest); 0 is not drawn by it. */
uint32_t nbr_heat_colour(unsigned v, unsigned cap);
/* The same gradient at t in [0, 1]: 0 deep purple, 1 pale yellow. */
uint32_t nbr_heat_fraction(double t);
/* Component k >= 1: hues spread by the golden ratio, so that components
 * numbered close together differ most. */
uint32_t nbr_component_colour(unsigned long k);
/* Colour i of a short list of distinct colours for paths and graphs. */
uint32_t nbr_series_colour(unsigned i);
/* HSV (h in [0, 1), s and v in [0, 1]) to 0xRRGGBB. */
uint32_t nbr_hsv(double h, double s, double v);

/* ---- the legend (render_legend.c) ---- */

typedef enum nbr_item_kind {
    NBR_ITEM_TITLE,  /* text that starts a new line */
    NBR_ITEM_SWATCH, /* a filled square and a label */
    NBR_ITEM_LINE,   /* a short line and a label */
    NBR_ITEM_DOT,    /* a filled circle and a label */
    NBR_ITEM_TEXT    /* a label alone */
} nbr_item_kind;

typedef struct nbr_item {
    nbr_item_kind kind;
    uint32_t colour;
    char label[160];
} nbr_item;

typedef struct nbr_legend {
    nbr_item *items;
    size_t n, cap;
    int failed;
} nbr_legend;

void nbr_legend_add(nbr_legend *l, nbr_item_kind kind, uint32_t colour, const char *fmt, ...)
    NBP_PRINTF(4, 5);
void nbr_legend_free(nbr_legend *l);
/* The height in pixels the legend takes below the map in a picture of
 * this width (0 when it has no items). */
uint32_t nbr_legend_height(const nbr_legend *l, uint32_t width);
/* The font height the legend uses in a picture of this width. */
double nbr_legend_text_px(uint32_t width);
/* Draws it in the strip [top, top + height) of the canvas. */
void nbr_legend_draw(const nbr_legend *l, nbr_canvas *c, double top);

/* ---- the view ---- */

typedef struct nbr_view {
    const nb_bundle *bundle;
    nbr_canvas *canvas;  /* NULL during the first pass */
    long x0, y0;         /* the window's top-left cell */
    uint32_t w, h;       /* the window, in cells */
    double scale;        /* pixels per cell side (per world unit in a world view) */
    /* A world view (forests): world units with y up; the window is
     * [wx0, wx0 + ww] x [wy0, wy0 + wh], its top at wy0 + wh. */
    int world;
    double wx0, wy0, ww, wh;
    nbr_legend legend;
    uint32_t *row;       /* scratch: w colours */
    /* Where the window's top-left cell is drawn, in pixels (0, 0 but for a
     * piece of a larger picture: a world's tile, navbake render of a world). */
    double ox, oy;
    /* The size in cells that paths must lie in when the bundle has no map
     * of it (a world's); 0: the bundle's map's. */
    uint32_t map_w, map_h;
} nbr_view;

/* The pixel of a point: in cell units ((x, y) a cell's top-left), or in
 * world units in a world view. */
static inline double nbr_px(const nbr_view *v, double x)
{
    return (x - (v->world ? v->wx0 : (double)v->x0)) * v->scale;
}
static inline double nbr_py(const nbr_view *v, double y)
{
    return v->world ? (v->wy0 + v->wh - y) * v->scale : (y - (double)v->y0) * v->scale;
}
/* An angle of the map (from +x towards +y) on the picture. */
static inline double nbr_pangle(const nbr_view *v, double a) { return v->world ? -a : a; }

/* The rectangle of the window in pixels, for clipping. */
void nbr_view_clip(const nbr_view *v, double clip[4]);

/* ---- layers over the grid map (render_map.c) ---- */

/* Each terrain in its colour, hard obstacles dark. */
nb_status nbr_draw_terrain(nbr_view *v, nb_err *err);
/* The clearance layer of cap as a heat map; cells where it is 0 show
 * the terrain's exclusion (hard obstacles dark, other terrains grey). */
nb_status nbr_draw_clearance(nbr_view *v, nb_capability cap, nb_err *err);
/* The reachability components of (cap, size), each in its own colour. */
nb_status nbr_draw_components(nbr_view *v, nb_capability cap, unsigned size, nb_err *err);
/* Thin lines between cells (for large scales). */
void nbr_draw_grid(nbr_view *v);

/* ---- paths (render_path.c) ---- */

/* A piece of a path in map units (a cell is 1 x 1, (x, y) its top-left
 * corner): a straight line to (x1, y1), or an arc of the circle (cx, cy,
 * r) from angle a0 to a1 (radians from +x towards +y), ending at (x1, y1). */
typedef struct nbr_piece {
    int arc;
    double x1, y1;
    double cx, cy, r, a0, a1;
} nbr_piece;

typedef struct nbr_path {
    char name[128];      /* the file, and its path number when it holds several */
    int world;           /* in world units (a forest's pieces), not cells */
    nb_cell *cells;      /* the agent's top-left cell at each step, when given as cells */
    size_t ncells;
    double x0, y0;       /* where the drawn line starts */
    nbr_piece *pieces;   /* and how it goes on */
    size_t npieces;
    uint32_t size;       /* the agent's size in cells, 0 when not known */
    double length;       /* as the file says, or measured; < 0 when neither */
    double cost;         /* a motion plan's cost, or < 0 */
    /* A query that found no path: only its ends are drawn, from (x0, y0)
     * to (gx, gy); a grid query gives them as cells. */
    int ends_only;
    nb_cell from, to;
    double gx, gy;
    char status[80];     /* "no path"...: the query's status when the file gives one */
    /* A unit's plan (navbake plan --unit --json): its name and width. */
    int unit_plan;
    char unit[32];
    double width;
} nbr_path;

typedef struct nbr_paths {
    nbr_path *path;
    size_t n, cap;
} nbr_paths;

/* Reads the paths of a file: JSON as 'navbake query --json --path'
 * writes it (one object or several, one a line; a query without a path
 * gives its two ends), or a text list of cells, one "X Y" or "X,Y" a line ('#' starts a
 * comment; a blank line ends a path and starts the next).  size is the
 * agent size to assume when the file does not say (0: 1). */
nb_status nbr_paths_read(nbr_paths *ps, const char *path, uint32_t size, nb_err *err);
void nbr_paths_free(nbr_paths *ps);
/* Draws path i (colour from the series), its start and goal marked, with
 * the agent's footprint at each cell when footprint is set. */
nb_status nbr_draw_path(nbr_view *v, const nbr_path *p, unsigned i, int footprint, nb_err *err);

/* The cells the overlay blocks (render_blocked.c). */
nb_status nbr_draw_blocked(nbr_view *v, const nb_overlay *ov, nb_err *err);

/* ---- the HAA* abstract graph (render_abstract.c) ---- */

/* Cluster borders, intra-edges (blue) as straight lines between their
 * nodes, inter-edges (red) across borders, the nodes; with filter, only
 * the edges whose annotation admits an agent of capability cap and size
 * size (its capability within cap, its clearance at least size). */
nb_status nbr_draw_abstract(nbr_view *v, int filter, nb_capability cap, unsigned size, nb_err *err);

/* ---- motion models (render_motion.c) ---- */

struct nb_model;
struct nb_perimeter;

/* A slice of a perimeter table over the window: for every cell within
 * the table's radius of the goal, the empty-map cost from the state
 * (cell, heading, speed) to goal, pale yellow at 0 to deep purple at the
 * slice's largest; other cells are left as they are; the goal ringed. */
nb_status nbr_draw_perimeter(nbr_view *v, const struct nb_model *m, const struct nb_perimeter *t,
                             unsigned heading, unsigned speed, const nb_motion_state *goal,
                             nb_err *err);

/* ---- units (render_unit.c) ---- */

/* The side of the window of the unit's hit-check table. */
nb_status nbr_unit_window(const nb_bundle *b, const char *unit, unsigned *side, nb_err *err);
/* In a view of that window (cells relative to the origin cell, x0 = y0 =
 * -(side - 1) / 2): for start heading h0, how many stored curves touch
 * each cell, the origin and its neighbours framed. */
nb_status nbr_draw_hitcheck(nbr_view *v, const char *unit, unsigned h0, nb_err *err);
/* The stored curves themselves, for start heading h0. */
nb_status nbr_draw_curves(nbr_view *v, const char *unit, unsigned h0, nb_err *err);

/* ---- forests (render_forest.c) ---- */

struct nb_forest;

/* The world rectangle {x0, y0, x1, y1} a forest picture shows: the
 * forest's bounds and every circle inflated by radius. */
void nbr_forest_extent(const struct nb_forest *f, double radius, double ext[4]);
/* The circles (dark green) and, when radius > 0, each inflated by it
 * (translucent grey); the bounds as a thin frame. */
nb_status nbr_draw_forest(nbr_view *v, const struct nb_forest *f, double radius, nb_err *err);
/* Graph k: its bitangents (blue), the free arcs of the inflated circles
 * that hugging arcs run along (orange), its nodes. */
nb_status nbr_draw_bitangent(nbr_view *v, const struct nb_forest *f, unsigned k, nb_err *err);

#endif
