/* world_plan.c: navbake world plan, a world's action graph for an engine
 * that runs it (never a scheduler of our own): each tile baked from its
 * map and its neighbours' cells (navbake world tile; for Ninja, from the
 * strips they lend it, navbake world strips), then the link (navbake
 * world link).  The file is written only when its bytes change, so that
 * planning again leaves a build that reads it (Ninja) as it was. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "world_cli.h"
#include "world_plan.h"

/* path from the root: as it is when it starts with '/', else from the
 * current folder (not resolved: it may name a file of another machine). */
static char *from_root(const char *path)
{
    char cwd[PATH_MAX];
    if (path[0] == '/')
        return strdup(path);
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    size_t cl = strlen(cwd), pl = strlen(path);
    char *out = malloc(cl + 1 + pl + 1);
    if (out)
        snprintf(out, cl + 1 + pl + 1, "%s/%s", strcmp(cwd, "/") ? cwd : "", path);
    return out;
}

/* A newline ends a path in a Ninja file and a line of a script: a path
 * holding one cannot be planned. */
static int plannable(const char *what, const char *path)
{
    if (!strchr(path, '\n'))
        return 1;
    nbc_fail("%s: a path with a newline cannot be written into a plan", what);
    return 0;
}

/* The navbake the actions run: this one, unless told. */
static char *navbake_path(const char *told)
{
    if (told) {
        char *path = from_root(told);
        if (!path)
            nbc_fail("--navbake %s: cannot tell the folder it is from: %s", told, strerror(errno));
        return path;
    }
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) {
        nbc_fail("cannot tell where this navbake is (/proc/self/exe: %s); give it with --navbake PATH",
                 n < 0 ? strerror(errno) : "empty");
        return NULL;
    }
    buf[n] = '\0';
    return strdup(buf);
}

/* The folder the actions write to, made if it is not there. */
static char *output_folder(const char *dir)
{
    struct stat sb;
    char *real;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return nbc_fail("cannot make the folder %s: %s", dir, strerror(errno)), NULL;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return nbc_fail("%s: exists and is not a folder", dir), NULL;
    if (!(real = realpath(dir, NULL)))
        nbc_fail("%s: %s", dir, strerror(errno));
    return real;
}

static void plan_free(nbc_world_plan *p)
{
    if (p->maps)
        for (size_t i = 0; i < (size_t)p->w.columns * p->w.rows; i++)
            free(p->maps[i]);
    free(p->maps);
    free(p->twin);
    free(p->manifest);
    free(p->legend);
    free(p->agents);
    free(p->navbake);
    free(p->out);
    nbb_world_free(&p->w);
}

/* Every tile's map, which must be there: a missing one would otherwise be
 * found by Ninja or, worse, by a cluster's job long after submission. */
static int tile_maps(nbc_world_plan *p)
{
    size_t n = (size_t)p->w.columns * p->w.rows;
    nb_err err;
    if (!(p->maps = calloc(n, sizeof *p->maps)))
        return nbc_fail("no memory for %zu tiles", n), 0;
    for (uint32_t ty = 0; ty < p->w.rows; ty++)
        for (uint32_t tx = 0; tx < p->w.columns; tx++) {
            char **map = &p->maps[(size_t)ty * p->w.columns + tx];
            uint32_t x0, y0, tw, th;
            struct stat sb;
            if (nbb_world_tile_map(&p->w, tx, ty, map, &err) != NB_OK)
                return nbc_fail_err(&err), 0;
            nbb_world_tile_rect(&p->w, tx, ty, &x0, &y0, &tw, &th);
            const char *why = stat(*map, &sb) != 0 ? strerror(errno)
                              : S_ISDIR(sb.st_mode) ? "a folder, not a map"
                                                    : NULL;
            if (why)
                return nbc_fail("tile (%u, %u), cells (%u, %u) to (%u, %u): %s: %s", tx, ty, x0, y0,
                                x0 + tw - 1, y0 + th - 1, *map, why),
                       0;
            if (!plannable("the tile's map", *map))
                return 0;
        }
    return 1;
}

/* Reads the manifest from its absolute path (so that every path it gives
 * is absolute) and gathers the rest of the plan. */
static int plan_read(nbc_world_plan *p, const char *manifest, const char *out, const char *navbake)
{
    nb_err err;
    memset(p, 0, sizeof *p);
    if (!(p->manifest = realpath(manifest, NULL)))
        return nbc_fail("cannot open %s: %s", manifest, strerror(errno)), 0;
    if (nbb_world_read(p->manifest, &p->w, &err) != NB_OK)
        return nbc_fail_err(&err), 0;
    if ((p->w.legend && nbb_world_path(&p->w, p->w.legend, &p->legend, &err) != NB_OK) ||
        (p->w.agents && nbb_world_path(&p->w, p->w.agents, &p->agents, &err) != NB_OK))
        return nbc_fail_err(&err), 0;
    if (!(p->navbake = navbake_path(navbake)))
        return 0;
    /* The folder is made last, once nothing else is wrong. */
    return plannable("the manifest", p->manifest) && plannable("--navbake", p->navbake) &&
           (!p->legend || plannable("the legend", p->legend)) &&
           (!p->agents || plannable("the agent set", p->agents)) && tile_maps(p) &&
           (p->out = output_folder(out)) && plannable("the output folder", p->out);
}

/* Writes one form of the plan to path when its bytes change, and says so
 * as world cut does. */
static int put(const char *path, const nbc_world_plan *p, const nbc_slurm_opts *slurm,
               nbc_world_listing *l)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return nbc_fail("no memory for the plan");
    if (slurm)
        nbc_world_slurm(f, p, slurm);
    else
        nbc_world_ninja(f, p);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(buf);
        return nbc_fail("no memory for the plan");
    }
    nb_err err;
    int changed = 0;
    nb_status st = nbb_write_changed(path, buf, len, &changed, &err);
    free(buf);
    if (st != NB_OK)
        return nbc_fail_err(&err);
    nbc_world_list(l, path, changed);
    return NBC_EXIT_OK;
}

enum {
    OPT_NINJA = 256,
    OPT_SLURM,
    OPT_NAVBAKE,
    OPT_PARTITION,
    OPT_TIME,
    OPT_MEM,
    OPT_THROTTLE,
    OPT_NO_TWINS
};

/* A value Slurm reads: not empty, and only characters from allowed. */
static int slurm_value(const char *opt, const char *v, const char *allowed, const char *what)
{
    if (*v && strspn(v, allowed) == strlen(v))
        return 1;
    nbc_usage("%s: '%s' is not %s", opt, v, what);
    return 0;
}

static void help(void)
{
    printf("Usage: navbake world plan MANIFEST -o FOLDER --ninja FILE|--slurm FILE [OPTION]...\n"
           "Write the actions that bake the world MANIFEST (formats/world.md) into FOLDER,\n"
           "for Ninja or Slurm to run: one 'navbake world tile' a tile, reading the\n"
           "tile's map, its neighbours' cells, the manifest, the legend and the agent\n"
           "set, and writing FOLDER/tiles/X_Y.nbb and X_Y.border; then 'navbake world\n"
           "link', reading the manifest, the legend, the agent set and every .border,\n"
           "writing FOLDER/world.nbw.  For Ninja, the neighbours' cells are the\n"
           "strips they lend the tile, each tile's written from its map alone by a\n"
           "'navbake world strips' before ('tile --strips'), so that an edit in a\n"
           "tile's middle runs that tile alone; for Slurm, their maps.\n"
           "Every path written is absolute.  FILE is written only when its bytes\n"
           "change; FOLDER is made if it is not there.  Plan again after the manifest\n"
           "changes.\n\n"
           "  -o, --output FOLDER  where the actions write the world's bundles\n"
           "      --ninja FILE     a Ninja file (run: ninja -f FILE); each action is\n"
           "                       restat, so an edit rebakes the tiles it reaches\n"
           "      --slurm FILE     a shell script that submits the tiles as a job array\n"
           "                       and the link as a job depending on it (run: sh FILE\n"
           "                       [SBATCH OPTION]...; it prints the jobs' ids)\n"
           "      --navbake PATH   the navbake the actions run (default: this one)\n"
           "      --no-twins       bake every tile: a tile baked from the same cells as\n"
           "                       an earlier one (its map and its neighbours' maps the\n"
           "                       same bytes) is otherwise updated from that twin's\n"
           "                       bundle once it is baked ('tile --twin X,Y'), the\n"
           "                       same bytes at the cost of a copy (for Slurm, by\n"
           "                       arrays that start after the other tiles')\n"
           "  Slurm's requests for each action (default: the cluster's):\n"
           "      --partition P    the partition (or a comma-separated list of them)\n"
           "      --time T         the time limit (MINUTES, H:MM:SS, D-HH...)\n"
           "      --mem M          the memory (MB, or a number with K, M, G or T)\n"
           "      --throttle N     at most N tile actions of an array at once\n"
           "  -v, --verbose        also print a file left as it was\n"
           "  -q, --quiet          print nothing\n"
           "  -h, --help           show this help and exit\n"
           "  -V, --version        show the version and exit\n" NBC_EXIT_HELP);
}

int nbc_world_plan_cmd(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"ninja", required_argument, NULL, OPT_NINJA},
                                         {"slurm", required_argument, NULL, OPT_SLURM},
                                         {"navbake", required_argument, NULL, OPT_NAVBAKE},
                                         {"partition", required_argument, NULL, OPT_PARTITION},
                                         {"time", required_argument, NULL, OPT_TIME},
                                         {"mem", required_argument, NULL, OPT_MEM},
                                         {"throttle", required_argument, NULL, OPT_THROTTLE},
                                         {"no-twins", no_argument, NULL, OPT_NO_TWINS},
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    const char *out = NULL, *ninja = NULL, *slurm = NULL, *navbake = NULL;
    nbc_slurm_opts so = {NULL, NULL, NULL, 0};
    nbc_world_listing l = {0, 0, 0, 0};
    int c, asked_slurm = 0, twins = 1;
    while ((c = getopt_long(argc, argv, "o:vqhV", opts, NULL)) != -1) {
        if (nbc_world_option(c, &l) > 0) /* -v, -q */
            continue;
        switch (c) {
        case 'o': out = optarg; break;
        case OPT_NINJA: ninja = optarg; break;
        case OPT_SLURM: slurm = optarg; break;
        case OPT_NAVBAKE: navbake = optarg; break;
        case OPT_NO_TWINS: twins = 0; break;
        case OPT_PARTITION:
            if (!slurm_value("--partition", optarg,
                             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-,",
                             "a partition's name"))
                return NBC_EXIT_USAGE;
            so.partition = optarg, asked_slurm = 1;
            break;
        case OPT_TIME:
            if (!slurm_value("--time", optarg, "0123456789:-", "a time limit such as 90 or 1:30:00"))
                return NBC_EXIT_USAGE;
            so.time = optarg, asked_slurm = 1;
            break;
        case OPT_MEM: {
            size_t digits = strspn(optarg, "0123456789");
            if (!digits || (optarg[digits] && (!strchr("KMGT", optarg[digits]) || optarg[digits + 1])))
                return nbc_usage("--mem: '%s' is not an amount such as 900 or 2G", optarg);
            so.mem = optarg, asked_slurm = 1;
            break;
        }
        case OPT_THROTTLE:
            if (!nbc_uint("--throttle", optarg, 1, 1000000, &so.throttle))
                return NBC_EXIT_USAGE;
            asked_slurm = 1;
            break;
        case 'h': help(); return NBC_EXIT_OK;
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (argc - optind != 1)
        return nbc_usage(argc - optind < 1 ? "give a world's manifest" : "one manifest at a time");
    if (!out)
        return nbc_usage("give the folder the world is baked into (-o FOLDER)");
    if (!ninja && !slurm)
        return nbc_usage("give what to write: --ninja FILE, --slurm FILE or both");
    if (asked_slurm && !slurm)
        return nbc_usage("--partition, --time, --mem and --throttle are Slurm's: give --slurm FILE");
    nbc_world_plan p;
    int rc = NBC_EXIT_FAIL;
    if (plan_read(&p, argv[optind], out, navbake) && (!twins || nbc_world_twins(&p))) {
        rc = NBC_EXIT_OK;
        if (ninja)
            rc = put(ninja, &p, NULL, &l);
        if (rc == NBC_EXIT_OK && slurm)
            rc = put(slurm, &p, &so, &l);
    }
    plan_free(&p);
    return rc;
}
