/* navbake info: what a bundle holds, for people (default) or programs
 * (--json). */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>

#include "cli.h"
#include "commands.h"
#include "world_input.h"

/* Cells per terrain (index nterrains counts obstacles). */
static void count_cells(const nb_bundle *b, uint64_t *count)
{
    unsigned n = nb_terrain_count(b);
    memset(count, 0, sizeof(uint64_t) * (NB_MAX_TERRAINS + 1));
    for (uint32_t y = 0; y < nb_map_height(b); y++)
        for (uint32_t x = 0; x < nb_map_width(b); x++) {
            int t = nb_map_terrain(b, x, y);
            count[t == NB_OBSTACLE ? n : (unsigned)t]++;
        }
}

/* "name=jeep capability=ground,swamp size=2", or the members of a JSON
 * object: each named parameter; a capability parameter is shown by
 * terrain names.  A section's name may hold any bytes (a section type
 * this reader does not know is not checked): it goes through the JSON
 * string escaper, or is shown with its unprintable bytes escaped. */
static void print_params(const nb_bundle *b, const nb_section_info *in, int json)
{
    int first = 1;
    if (in->name[0]) {
        char shown[NBC_PRINTABLE_NAME];
        if (json) {
            printf("\"name\": ");
            nbc_json_string(in->name);
        } else {
            printf("name=%s", nbc_printable(in->name, shown, sizeof shown));
        }
        first = 0;
    }
    for (unsigned i = 0; i < NB_SECTION_PARAMS; i++) {
        const char *pn = nb_section_param_name(in->type, i);
        uint32_t v = nb_section_param(in, i);
        if (!pn && v == 0)
            continue;
        char pname[32];
        if (!pn) {
            snprintf(pname, sizeof pname, "p%u", i);
            pn = pname;
        }
        printf("%s", first ? "" : json ? ", " : " ");
        first = 0;
        if (strcmp(pn, "capability") == 0) {
            char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
            nb_capability_format(b, v, caps, sizeof caps);
            if (json) {
                printf("\"%s\": ", pn);
                nbc_json_string(caps);
            } else {
                printf("%s=%s", pn, caps);
            }
        } else {
            printf(json ? "\"%s\": %" PRIu32 : "%s=%" PRIu32, pn, v);
        }
    }
}

/* The widest of n entries: a column sized from its content, never narrower than least (the
 * width it has for the common names, so that the usual listing keeps its layout). */
static int widest(int least, int width)
{
    return width > least ? width : least;
}

/* Digits of v. */
static int digits(uint64_t v)
{
    int n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

/* The type's name, or "type-N" for one this reader does not know. */
static const char *type_name(const nb_section_info *in, char *buf, size_t len)
{
    const char *tn = nb_section_type_name(in->type);
    if (!tn) {
        snprintf(buf, len, "type-%" PRIu32, in->type);
        tn = buf;
    }
    return tn;
}

/* The section table's columns, sized from the sections. */
typedef struct columns {
    int index, type, version, encoding, stored, unpacked;
} columns;

static columns section_columns(const nb_bundle *b)
{
    columns w = {3, 11, 3, 12, 10, 10};
    size_t n = nb_bundle_section_count(b);
    w.index = widest(w.index, digits(n ? n - 1 : 0));
    for (size_t i = 0; i < n; i++) {
        const nb_section_info *in = nb_bundle_section_get(b, i);
        char tbuf[24];
        w.type = widest(w.type, (int)strlen(type_name(in, tbuf, sizeof tbuf)));
        w.version = widest(w.version, digits(in->version));
        w.encoding = widest(w.encoding, (int)strlen(nb_encoding_name(in->encoding)));
        w.stored = widest(w.stored, digits(in->size));
        w.unpacked = widest(w.unpacked, digits(in->usize));
    }
    return w;
}

/* Sections that grow with the map's cells, whose size info gives per cell:
 * the map and what is baked from it. */
static int per_cell(uint32_t type)
{
    return type == NB_SEC_MAP || (type >= NB_SEC_CLEARANCE && type <= NB_SEC_SUBGOAL) ||
           (type >= NB_SEC_ABSTRACT && type <= NB_SEC_ABSTRACT_LEVELS);
}

static double map_cells(const nb_bundle *b)
{
    return (double)nb_map_width(b) * nb_map_height(b);
}

/* Stored bytes of the map and what is baked from it. */
static uint64_t per_cell_bytes(const nb_bundle *b)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < nb_bundle_section_count(b); i++)
        sum += per_cell(nb_bundle_section_get(b, i)->type) ? nb_bundle_section_get(b, i)->size : 0;
    return sum;
}

static void print_text(const char *path, const nb_bundle *b)
{
    unsigned major, minor;
    nb_bundle_format_version(b, &major, &minor);
    printf("bundle     %s\n", path);
    printf("format     %u.%u\n", major, minor);
    printf("form       %s\n", nb_bundle_form_of(b) == NB_FORM_SQLITE ? "sqlite" : "binary");
    printf("file       %" PRIu64 " bytes, %zu sections\n", nb_bundle_file_size(b),
           nb_bundle_section_count(b));
    unsigned nt = nb_terrain_count(b);
    uint64_t count[NB_MAX_TERRAINS + 1];
    if (nb_has_map(b)) {
        count_cells(b, count);
        uint64_t cells = (uint64_t)nb_map_width(b) * nb_map_height(b);
        printf("map        %u x %u cells: %" PRIu64 " passable, %" PRIu64 " obstacles\n",
               nb_map_width(b), nb_map_height(b), cells - count[nt], count[nt]);
    } else {
        printf("map        none\n");
    }
    if (nt) {
        printf("terrains   %u\n", nt);
        char name[NBC_PRINTABLE_NAME];
        int tw = 12;
        for (unsigned t = 0; t < nt; t++)
            tw = widest(tw, (int)strlen(nbc_printable(nb_terrain_name(b, t), name, sizeof name)));
        for (unsigned t = 0; t < nt; t++) {
            printf("  %-2u %-*s chars \"%s\"", t, tw,
                   nbc_printable(nb_terrain_name(b, t), name, sizeof name), nb_terrain_chars(b, t));
            if (nb_has_map(b))
                printf(", %" PRIu64 " cells", count[t]);
            putchar('\n');
        }
        printf("  %-*s chars \"%s\"", tw + 3, "obstacles", nb_obstacle_chars(b));
        if (nb_has_map(b))
            printf(", %" PRIu64 " cells", count[nt]);
        putchar('\n');
    }
    if (nb_agent_count(b)) {
        printf("agents     %zu\n", nb_agent_count(b));
        char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1], name[NBC_PRINTABLE_NAME];
        int aw = 14, cw = 0;
        for (size_t i = 0; i < nb_agent_count(b); i++) {
            const nb_agent *a = nb_agent_get(b, i);
            aw = widest(aw, (int)strlen(nbc_printable(a->name, name, sizeof name)));
            nb_capability_format(b, a->capability, caps, sizeof caps);
            cw = widest(cw, (int)strlen(caps));
        }
        for (size_t i = 0; i < nb_agent_count(b); i++) {
            const nb_agent *a = nb_agent_get(b, i);
            nb_capability_format(b, a->capability, caps, sizeof caps);
            /* The capability padded only when costs follow it. */
            printf("  %-*s size %-3u capability %-*s", aw,
                   nbc_printable(a->name, name, sizeof name), a->size, a->weighted ? cw : 0, caps);
            const char *sep = "   costs ";
            for (unsigned t = 0; a->weighted && t < nb_terrain_count(b); t++)
                if ((a->capability >> t & 1u) && a->cost[t] != 1) {
                    printf("%s%s %g", sep, nb_terrain_name(b, t), a->cost[t]);
                    sep = ", ";
                }
            putchar('\n');
        }
    }
    /* A forest's graphs: the agent radius each was baked for. */
    nb_forest *forest = NULL;
    if (nb_forest_open(b, &forest, NULL) != NB_OK)
        forest = NULL;
    columns w = section_columns(b);
    printf("sections\n  %-*s %-*s %-*s %-*s %*s %*s %8s  %s\n", w.index, "#", w.type, "type",
           w.version, "ver", w.encoding, "encoding", w.stored, "stored", w.unpacked, "unpacked",
           "crc32", "parameters");
    for (size_t i = 0; i < nb_bundle_section_count(b); i++) {
        const nb_section_info *in = nb_bundle_section_get(b, i);
        char tbuf[24];
        printf("  %-*zu %-*s %-*u %-*s %*" PRIu64 " %*" PRIu64 " %08" PRIx32 "  ", w.index, i, w.type,
               type_name(in, tbuf, sizeof tbuf), w.version, in->version, w.encoding,
               nb_encoding_name(in->encoding), w.stored, in->size, w.unpacked, in->usize, in->crc);
        print_params(b, in, 0);
        if (per_cell(in->type) && in->type != NB_SEC_ABSTRACT && nb_has_map(b))
            printf(" (%.3f bytes/cell)", (double)in->size / ((double)nb_map_width(b) * nb_map_height(b)));
        if (in->type == NB_SEC_ABSTRACT && nb_has_map(b)) {
            printf(" (%.3f bytes/cell", (double)in->size / ((double)nb_map_width(b) * nb_map_height(b)));
            if (in->param[6] && in->usize)
                printf("; stored paths %.0f%% of it", 100.0 * in->param[6] / (double)in->usize);
            printf(")");
        }
        if (in->type == NB_SEC_BITANGENT && forest && in->param[0] < nb_forest_radius_count(forest))
            printf(" (agent radius %g: %" PRIu32 " of %" PRIu32 " bitangents kept)",
                   nb_forest_radius_get(forest, in->param[0]), in->param[2], in->param[3]);
        if (!nb_section_type_name(in->type))
            printf(" (unknown to this reader; kept as is)");
        putchar('\n');
    }
    if (nb_has_map(b))
        printf("bytes/cell %.3f (the map and what is baked from it, over its %" PRIu64 " cells)\n",
               (double)per_cell_bytes(b) / map_cells(b), (uint64_t)nb_map_width(b) * nb_map_height(b));
    nb_forest_close(forest);
}

static void print_json(const char *path, const nb_bundle *b, const nbc_world_sum *world)
{
    unsigned major, minor;
    nb_bundle_format_version(b, &major, &minor);
    printf("{\n  \"bundle\": ");
    nbc_json_string(path);
    printf(",\n  \"format\": [%u, %u],\n  \"form\": \"%s\",\n  \"file_size\": %" PRIu64 ",\n", major,
           minor, nb_bundle_form_of(b) == NB_FORM_SQLITE ? "sqlite" : "binary", nb_bundle_file_size(b));
    unsigned nt = nb_terrain_count(b);
    uint64_t count[NB_MAX_TERRAINS + 1] = {0};
    if (nb_has_map(b)) {
        count_cells(b, count);
        printf("  \"map\": {\"width\": %u, \"height\": %u, \"obstacles\": %" PRIu64 "},\n",
               nb_map_width(b), nb_map_height(b), count[nt]);
    } else {
        printf("  \"map\": null,\n");
    }
    printf("  \"terrains\": [");
    for (unsigned t = 0; t < nt; t++) {
        printf("%s\n    {\"name\": ", t ? "," : "");
        nbc_json_string(nb_terrain_name(b, t));
        printf(", \"chars\": ");
        nbc_json_string(nb_terrain_chars(b, t));
        printf(", \"cells\": %" PRIu64 "}", count[t]);
    }
    printf("%s],\n  \"obstacle_chars\": ", nt ? "\n  " : "");
    nbc_json_string(nb_obstacle_chars(b));
    printf(",\n  \"agents\": [");
    for (size_t i = 0; i < nb_agent_count(b); i++) {
        const nb_agent *a = nb_agent_get(b, i);
        char caps[NB_MAX_TERRAINS * (NB_NAME_MAX + 2) + 1];
        nb_capability_format(b, a->capability, caps, sizeof caps);
        printf("%s\n    {\"name\": ", i ? "," : "");
        nbc_json_string(a->name);
        printf(", \"size\": %u, \"capability\": ", a->size);
        nbc_json_string(caps);
        if (a->weighted) {
            /* Every terrain of the capability, by name: the multiplier of each. */
            printf(", \"costs\": {");
            const char *sep = "";
            for (unsigned t = 0; t < nb_terrain_count(b); t++)
                if (a->capability >> t & 1u) {
                    printf("%s", sep);
                    nbc_json_string(nb_terrain_name(b, t));
                    printf(": %.17g", a->cost[t]);
                    sep = ", ";
                }
            printf("}");
        }
        printf("}");
    }
    printf("%s],\n  \"sections\": [", nb_agent_count(b) ? "\n  " : "");
    for (size_t i = 0; i < nb_bundle_section_count(b); i++) {
        const nb_section_info *in = nb_bundle_section_get(b, i);
        printf("%s\n    {\"index\": %zu, \"type\": %" PRIu32 ", \"type_name\": ", i ? "," : "", i,
               in->type);
        if (nb_section_type_name(in->type))
            nbc_json_string(nb_section_type_name(in->type));
        else
            printf("null");
        printf(", \"version\": %u, \"encoding\": \"%s\", \"offset\": %" PRIu64
               ", \"stored\": %" PRIu64 ", \"unpacked\": %" PRIu64 ", \"crc32\": \"%08" PRIx32
               "\", \"params\": {",
               in->version, nb_encoding_name(in->encoding), in->offset, in->size, in->usize, in->crc);
        print_params(b, in, 1);
        printf("}");
        if (per_cell(in->type) && nb_has_map(b))
            printf(", \"bytes_per_cell\": %.6f", (double)in->size / map_cells(b));
        printf("}");
    }
    printf("%s]", nb_bundle_section_count(b) ? "\n  " : "");
    if (nb_has_map(b))
        printf(",\n  \"bytes_per_cell\": %.6f", (double)per_cell_bytes(b) / map_cells(b));
    if (world) {
        printf(",\n");
        nbc_world_sum_print(world, 1);
    }
    printf("\n}\n");
}

int nbc_cmd_info(int argc, char **argv)
{
    enum { OPT_BAKED = 256 };
    static const struct option opts[] = {{"json", no_argument, NULL, 'j'},
                                         {"baked", required_argument, NULL, OPT_BAKED},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    int json = 0, c;
    const char *baked = NULL;
    while ((c = getopt_long(argc, argv, "jhV", opts, NULL)) != -1) {
        switch (c) {
        case 'j': json = 1; break;
        case OPT_BAKED: baked = optarg; break;
        case 'h':
            printf("Usage: navbake info [--json] BUNDLE\n"
                   "       navbake info [--json] [--baked FOLDER] MANIFEST.yaml\n"
                   "Describe a bundle: format version, map size, terrains with their cell\n"
                   "counts, agent types, and each section with its encoding, stored and\n"
                   "unpacked sizes, CRC-32 and build parameters.  Of a world bundle, also\n"
                   "the world: its grid of tiles, each tile bundle (DIR/tiles/X_Y.nbb beside\n"
                   "it) checked against the index, their bytes and each section type's bytes\n"
                   "a cell of the world.  Of a world's manifest (formats/world.md), the world\n"
                   "it names and, when baked, the same, each tile checked against the files\n"
                   "the manifest names too.\n\n"
                   "  -j, --json     print JSON for programs\n"
                   "      --baked FOLDER  where a manifest's world was baked (navbake world\n"
                   "                 plan -o; default: the manifest's folder)\n"
                   "  -h, --help     show this help and exit\n"
                   "  -V, --version  show the version and exit\n" NBC_EXIT_HELP);
            return NBC_EXIT_OK;
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (optind + 1 != argc)
        return nbc_usage(optind == argc ? "no bundle given" : "one bundle at a time");
    if (nbc_world_manifest_path(argv[optind]))
        return nbc_info_manifest(argv[optind], baked, json) ? NBC_EXIT_OK : NBC_EXIT_FAIL;
    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open(argv[optind], 0, NULL, &b, &err) != NB_OK)
        return nbc_fail_err(&err);
    /* A world bundle: its tiles checked against the index before a word. */
    nbc_world_sum world;
    uint32_t tiles;
    int is_world = nbb_world_index_tiles(b, &tiles, NULL) == NB_OK;
    if (is_world) {
        nbc_world_in in;
        int ok = nbc_world_in_read(argv[optind], NULL, &in) && nbc_world_sum_make(b, in.dir, &world);
        nbc_world_in_free(&in);
        if (!ok) {
            nb_bundle_close(b);
            return NBC_EXIT_FAIL;
        }
    }
    if (json)
        print_json(argv[optind], b, is_world ? &world : NULL);
    else {
        print_text(argv[optind], b);
        if (is_world)
            nbc_world_sum_print(&world, 0);
    }
    nb_bundle_close(b);
    return NBC_EXIT_OK;
}
