/* navbake dump: sections as text.  The map dumps as a MovingAI map, the
 * legend and the agent set as the YAML they were read from; a section this
 * command has no text form for dumps as hexadecimal. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>

#include "cli.h"
#include "commands.h"

static void dump_map(const nb_bundle *b)
{
    uint32_t w = nb_map_width(b), h = nb_map_height(b);
    printf("type octile\nheight %u\nwidth %u\nmap\n", h, w);
    char *row = malloc((size_t)w + 1);
    if (!row)
        return;
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++)
            row[x] = nb_map_char(b, x, y);
        row[w] = '\n';
        fwrite(row, 1, (size_t)w + 1, stdout);
    }
    free(row);
}

static void dump_hex(const uint8_t *p, size_t len)
{
    for (size_t i = 0; i < len; i += 32) {
        printf("%08zx ", i);
        for (size_t j = i; j < i + 32 && j < len; j++)
            printf("%02x", p[j]);
        putchar('\n');
    }
}

/* The forest as the YAML it was read from. */
static int dump_forest(const nb_bundle *b)
{
    nb_forest *f;
    nb_err err;
    if (nb_forest_open(b, &f, &err) != NB_OK)
        return nbc_fail_err(&err);
    nbb_forest yf = {(nb_circle *)nb_forest_circle_get(f, 0), nb_forest_circle_count(f), 0, {0, 0, 0, 0}};
    yf.has_bounds = nb_forest_bounds(f, yf.bounds);
    nbb_forest_print(&yf, stdout);
    nb_forest_close(f);
    return NBC_EXIT_OK;
}

static int dump_one(const nb_bundle *b, size_t i)
{
    const nb_section_info *in = nb_bundle_section_get(b, i);
    switch (in->type) {
    case NB_SEC_MAP: dump_map(b); return NBC_EXIT_OK;
    case NB_SEC_LEGEND:
    case NB_SEC_AGENTS: {
        nb_err err;
        nb_status st = in->type == NB_SEC_LEGEND ? nbb_print_legend(b, stdout, &err)
                                                  : nbb_print_agents(b, stdout, &err);
        return st == NB_OK ? NBC_EXIT_OK : nbc_fail_err(&err);
    }
    case NB_SEC_CLEARANCE:
    case NB_SEC_COMPONENTS: return nbc_dump_layer(b, i);
    case NB_SEC_UNIT: return nbc_dump_unit(b, i);
    case NB_SEC_FOREST: return dump_forest(b);
    }
    const void *data;
    size_t len;
    nb_err err;
    if (nb_bundle_payload(b, i, &data, &len, &err) != NB_OK)
        return nbc_fail_err(&err);
    dump_hex(data, len);
    return NBC_EXIT_OK;
}

/* --capability and --size select among the sections of a type by the
 * build parameters of those names. */
static int section_matches(const nb_bundle *b, size_t i, int by_cap, nb_capability cap, uint32_t size)
{
    const nb_section_info *in = nb_bundle_section_get(b, i);
    for (unsigned k = 0; k < NB_SECTION_PARAMS; k++) {
        const char *pn = nb_section_param_name(in->type, k);
        if (!pn)
            continue;
        if (by_cap && strcmp(pn, "capability") == 0 && in->param[k] != cap)
            return 0;
        if (size && strcmp(pn, "size") == 0 && in->param[k] != size)
            return 0;
    }
    return 1;
}

int nbc_cmd_dump(int argc, char **argv)
{
    static const struct option opts[] = {{"capability", required_argument, NULL, 'c'},
                                         {"size", required_argument, NULL, 's'},
                                         {"help", no_argument, NULL, 'h'},
                                         {"version", no_argument, NULL, 'V'},
                                         {NULL, 0, NULL, 0}};
    int c;
    const char *cap_list = NULL;
    unsigned long size = 0;
    while ((c = getopt_long(argc, argv, "c:s:hV", opts, NULL)) != -1) {
        switch (c) {
        case 'c': cap_list = optarg; break;
        case 's':
            if (!nbc_uint("--size", optarg, 1, NB_MAX_AGENT_SIZE, &size))
                return NBC_EXIT_USAGE;
            break;
        case 'h':
            printf("Usage: navbake dump [--capability LIST] [--size S] BUNDLE SECTION...\n"
                   "Print sections as text.  SECTION is a type name (every section of that\n"
                   "type) or a section number from 'navbake info'.\n"
                   "  map     the map, as a MovingAI map file\n"
                   "  legend  the terrain legend, as YAML\n"
                   "  agents  the agent set, as YAML\n"
                   "  clearance, components\n"
                   "          the layer as H rows of W integers (true clearance capped at\n"
                   "          the largest agent size; component ids, 0 where the agent\n"
                   "          cannot stand)\n"
                   "  unit    a unit, as the YAML mkhitcheck reads\n"
                   "  other   the decoded payload in hexadecimal, 32 bytes a line\n"
                   "With several sections, each is preceded by a line '# section N: TYPE'.\n\n"
                   "  -c, --capability LIST  only the sections built for this capability\n"
                   "                         (terrain names separated by commas)\n"
                   "  -s, --size S           only the sections built for agent size S\n"
                   "  -h, --help     show this help and exit\n"
                   "  -V, --version  show the version and exit\n" NBC_EXIT_HELP);
            return NBC_EXIT_OK;
        case 'V': return nbc_version();
        default: return nbc_bad_option();
        }
    }
    if (argc - optind < 2)
        return nbc_usage(optind == argc ? "no bundle given" : "no section given");
    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open(argv[optind], 0, NULL, &b, &err) != NB_OK)
        return nbc_fail_err(&err);
    nb_capability want_cap = 0;
    if (cap_list && nb_capability_parse(b, cap_list, &want_cap, &err) != NB_OK) {
        nb_bundle_close(b);
        return nbc_usage("--capability: %s", err.msg);
    }
    /* Resolve every name first, so that a typo prints nothing but the error. */
    size_t n = nb_bundle_section_count(b), nsel = 0;
    size_t *sel = malloc((n ? n : 1) * (size_t)(argc - optind) * sizeof *sel);
    int rc = sel ? NBC_EXIT_OK : nbc_fail("out of memory");
    for (int a = optind + 1; a < argc && rc == NBC_EXIT_OK; a++) {
        const char *s = argv[a];
        char *end;
        unsigned long idx = strtoul(s, &end, 10);
        if (s[0] >= '0' && s[0] <= '9' && *end == '\0') {
            if (idx >= n)
                rc = nbc_fail("%s: no section %s (it has %zu)", argv[optind], s, n);
            else
                sel[nsel++] = idx;
            continue;
        }
        uint32_t type;
        nb_err perr;
        if (nb_section_type_parse(s, &type, &perr) != NB_OK) {
            rc = nbc_usage("%s", perr.msg);
            break;
        }
        size_t before = nsel;
        for (size_t i = 0; i < n; i++)
            if (nb_bundle_section_get(b, i)->type == type && section_matches(b, i, cap_list != NULL,
                                                                         want_cap, (uint32_t)size))
                sel[nsel++] = i;
        if (nsel == before)
            rc = nbc_fail("%s: no %s section%s", argv[optind], s,
                          cap_list || size ? " built for that capability and size" : "");
    }
    for (size_t k = 0; k < nsel && rc == NBC_EXIT_OK; k++) {
        if (nsel > 1)
            printf("# section %zu: %s\n", sel[k],
                   nb_section_type_name(nb_bundle_section_get(b, sel[k])->type)
                       ? nb_section_type_name(nb_bundle_section_get(b, sel[k])->type)
                       : "unknown");
        rc = dump_one(b, sel[k]);
    }
    free(sel);
    nb_bundle_close(b);
    return rc;
}
