/* world_ninja.c: a world's plan as a Ninja file.  Each action is restat:
 * the strips, tile and link actions write a file only when its bytes
 * change, so after an edit Ninja runs the edited tile's strips and tile
 * actions, its neighbours' only when a strip they read changed, and the
 * link only when a border summary changed. */
#include "world_plan.h"

/* Text of a path in a build line: '$', ' ' and ':' escaped with '$'. */
static void escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '$' || *s == ' ' || *s == ':')
            fputc('$', f);
        fputc(*s, f);
    }
}

/* A path in a build line, after a space. */
static void path(FILE *f, const char *s)
{
    fputc(' ', f);
    escaped(f, s);
}

/* An output of the actions: the output folder, then the name. */
static void output(FILE *f, const nbc_world_plan *p, const char *name)
{
    path(f, p->out);
    fputc('/', f);
    escaped(f, name);
}

static void tile_output(FILE *f, const nbc_world_plan *p, uint32_t tx, uint32_t ty, const char *ext)
{
    char name[64];
    snprintf(name, sizeof name, NBC_WORLD_TILES_DIR "/%u_%u.%s", tx, ty, ext);
    output(f, p, name);
}

/* A variable holding one shell word ('$' escaped for Ninja). */
static void variable(FILE *f, const char *name, const char *value)
{
    fprintf(f, "%s = ", name);
    nbc_shell_word(f, value, 1);
    fputc('\n', f);
}

/* The inputs every action reads: the manifest, the legend and the agent
 * set it names. */
static void level(FILE *f, const nbc_world_plan *p)
{
    path(f, p->manifest);
    if (p->legend)
        path(f, p->legend);
    if (p->agents)
        path(f, p->agents);
}

/* The strip tile (tx, ty) lends its neighbour at (dx, dy). */
static void strip_output(FILE *f, const nbc_world_plan *p, uint32_t tx, uint32_t ty, int dx, int dy)
{
    char name[64];
    nbb_world_strip_name(name, sizeof name, tx, ty, dx, dy);
    output(f, p, name);
}

/* The strips action of tile (tx, ty): its map in, a strip for each
 * neighbour out (none in a world of one tile: no edge). */
static void strips_edge(FILE *f, const nbc_world_plan *p, uint32_t tx, uint32_t ty)
{
    int any = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            uint32_t nx, ny;
            if (!nbb_world_neighbour(&p->w, tx, ty, dx, dy, &nx, &ny))
                continue;
            fputs(any++ ? "" : "\nbuild", f);
            strip_output(f, p, tx, ty, dx, dy);
        }
    if (!any)
        return;
    fputs(": strips", f);
    level(f, p);
    path(f, p->maps[(size_t)ty * p->w.columns + tx]);
    fprintf(f, "\n  x = %u\n  y = %u\n", tx, ty);
}

void nbc_world_ninja(FILE *f, const nbc_world_plan *p)
{
    const nbb_world *w = &p->w;
    fputs("# A navbake world's bake (navbake world plan, formats/world.md): each tile's\n"
          "# strips from its map, each tile from its map and the strips its neighbours\n"
          "# lend it, then the link.  Run: ninja -f FILE.\n"
          "# Plan again after the manifest changes.\n"
          "ninja_required_version = 1.3\n",
          f);
    /* Ninja's log (with what restat learnt) beside the outputs, wherever
     * ninja runs from. */
    fputs("builddir =", f);
    path(f, p->out);
    fputc('\n', f);
    variable(f, "navbake", p->navbake);
    variable(f, "manifest", p->manifest);
    variable(f, "dir", p->out);
    fputs("\nrule strips\n"
          "  command = $navbake world strips $manifest $x $y -o $dir\n"
          "  description = strips ${x}_$y\n"
          "  restat = 1\n"
          "\nrule tile\n"
          "  command = $navbake world tile $manifest $x $y -o $dir --strips\n"
          "  description = tile ${x}_$y\n"
          "  restat = 1\n"
          "\nrule link\n"
          "  command = $navbake world link $manifest -o $dir\n"
          "  description = link\n"
          "  restat = 1\n",
          f);
    /* A twin's tile action: the tile updated from its twin's bundle
     * (world_twins.c), only in a plan that has twins. */
    if (p->twin && p->twins)
        fputs("\nrule twin\n"
              "  command = $navbake world tile $manifest $x $y -o $dir --strips --twin $tx,$ty\n"
              "  description = twin ${x}_$y of ${tx}_$ty\n"
              "  restat = 1\n",
              f);
    for (uint32_t ty = 0; ty < w->rows; ty++)
        for (uint32_t tx = 0; tx < w->columns; tx++)
            strips_edge(f, p, tx, ty);
    for (uint32_t ty = 0; ty < w->rows; ty++)
        for (uint32_t tx = 0; tx < w->columns; tx++) {
            uint32_t i = ty * w->columns + tx, twin = p->twin ? p->twin[i] : i;
            fputs("\nbuild", f);
            tile_output(f, p, tx, ty, "nbb");
            tile_output(f, p, tx, ty, "border");
            fputs(twin != i ? ": twin" : ": tile", f);
            level(f, p);
            /* The tile's map first, then the strips its neighbours lend
             * it, row by row. */
            path(f, p->maps[(size_t)ty * w->columns + tx]);
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    uint32_t nx, ny;
                    if (nbb_world_neighbour(w, tx, ty, dx, dy, &nx, &ny))
                        strip_output(f, p, nx, ny, -dx, -dy);
                }
            /* The twin's bundle, which the action reads. */
            if (twin != i) {
                fputs(" |", f);
                tile_output(f, p, twin % w->columns, twin / w->columns, "nbb");
            }
            fprintf(f, "\n  x = %u\n  y = %u\n", tx, ty);
            if (twin != i)
                fprintf(f, "  tx = %u\n  ty = %u\n", twin % w->columns, twin / w->columns);
        }
    fputs("\nbuild", f);
    output(f, p, NBC_WORLD_BUNDLE);
    fputs(": link", f);
    level(f, p);
    for (uint32_t ty = 0; ty < w->rows; ty++)
        for (uint32_t tx = 0; tx < w->columns; tx++)
            tile_output(f, p, tx, ty, "border");
    fputs("\n\ndefault", f);
    output(f, p, NBC_WORLD_BUNDLE);
    fputc('\n', f);
}
