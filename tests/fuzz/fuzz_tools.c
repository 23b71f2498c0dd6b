/* fuzz_tools.c: libFuzzer target: the navbake commands on a bundle made
 * by the structure-aware mutator (mutate_bundle.c).  The commands run in
 * this process (nbc_cmd_* of tools/commands, getopt reset between calls),
 * on the bundle held in a memfd and named /proc/self/fd/N, as a user runs
 * them: `navbake verify`, `info` and `info --json`, `dump` of every
 * section, `render` of every layer to SVG (and the terrain to PNG when
 * libpng is there), and the query commands with --json (`query` with AA*
 * and HAA*, `query --forest`, `plan --unit`, `plan --model` with a small
 * expansion limit).  Their standard output is kept in memory: every JSON
 * answer must parse (tools/common/json.c), the rest is dropped; their
 * messages go nowhere (stderr is pointed at /dev/null during a command:
 * the sanitizers write to the file descriptor, so their reports stay).
 * Built by 'make fuzz-tools'; make check replays corpus/tools. */
#define _GNU_SOURCE /* memfd_create */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "json.h"
#include "render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fd = -1;
static char path[64];
static FILE *devnull;

/* Runs a command with these words (NULL-terminated); returns its exit
 * status and, when out is given, its standard output (free() it). */
static int run(int (*cmd)(int, char **), char **out, size_t *outlen, ...)
{
    char *argv[32];
    int argc = 0;
    va_list ap;
    va_start(ap, outlen);
    const char *w;
    while (argc < 31 && (w = va_arg(ap, const char *)))
        argv[argc++] = (char *)w;
    va_end(ap);
    argv[argc] = NULL;
    FILE *old_out = stdout, *old_err = stderr, *mem = NULL;
    char *buf = NULL;
    size_t len = 0;
    if (out && !(mem = open_memstream(&buf, &len)))
        abort();
    stdout = mem ? mem : devnull;
    stderr = devnull;
    optind = 0; /* getopt starts afresh (glibc) */
    opterr = 0;
    int rc = cmd(argc, argv);
    fflush(stdout);
    stdout = old_out;
    stderr = old_err;
    if (mem) {
        fclose(mem);
        *out = buf;
        *outlen = len;
    }
    if (rc < NBC_EXIT_OK || rc > NBC_EXIT_PARTIAL) { /* the codes of exit_status.h */
        fprintf(stderr, "fuzz_tools: %s exited %d\n", argv[0], rc);
        abort();
    }
    return rc;
}

/* The offset of the first byte of text that is not part of valid UTF-8
 * (RFC 3629), or len. */
static size_t utf8_end(const unsigned char *t, size_t len)
{
    for (size_t i = 0; i < len;) {
        unsigned c = t[i], cp, min;
        size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                             : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        if (n == 0 || n > len - i)
            return i;
        min = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
        cp = n == 1 ? c : c & (0x3fu >> (n - 1));
        for (size_t k = 1; k < n; k++) {
            if ((t[i + k] & 0xc0) != 0x80)
                return i;
            cp = cp << 6 | (t[i + k] & 0x3fu);
        }
        if (n > 1 && (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)))
            return i;
        i += n;
    }
    return len;
}

/* Output that must be JSON (one value, or one per line), in UTF-8. */
static void must_parse(char *text, size_t len, const char *what)
{
    nbj *v;
    nb_err err;
    size_t bad = utf8_end((const unsigned char *)text, len);
    if (bad < len) {
        fprintf(stderr, "fuzz_tools: %s printed a byte that is not UTF-8 at %zu\n", what, bad);
        abort();
    }
    if (len && nbj_parse_seq(text, len, what, &v, &err) != NB_OK) {
        fprintf(stderr, "fuzz_tools: %s printed what is not JSON: %s\n%.*s\n", what, err.msg,
                (int)(len > 4000 ? 4000 : len), text);
        abort();
    }
    if (len)
        nbj_free(v);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fd < 0) {
        fd = memfd_create("fuzz_tools", MFD_CLOEXEC);
        devnull = fopen("/dev/null", "w");
        if (fd < 0 || !devnull)
            abort();
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
        abort();
    char *out;
    size_t len;
    run(nbc_cmd_verify, NULL, NULL, "verify", path, NULL);
    run(nbc_cmd_info, NULL, NULL, "info", path, NULL);
    run(nbc_cmd_info, &out, &len, "info", "--json", path, NULL);
    must_parse(out, len, "navbake info --json");

    nb_bundle *b;
    nb_err err;
    if (nb_bundle_open(path, 0, NULL, &b, &err) != NB_OK)
        return 0;
    /* Choices from the input: an agent, a heading, cells. */
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < size; i += size / 256 + 1)
        h = (h ^ data[i]) * 1099511628211ull;
    size_t n = nb_bundle_section_count(b);
    uint32_t w = nb_map_width(b) ? nb_map_width(b) : 1, ht = nb_map_height(b) ? nb_map_height(b) : 1;
    /* Sections dumped from one chosen by the input on, while a budget of
     * printed values lasts (a layer prints a number a cell, an unknown
     * section a hexadecimal byte at a time): every section over the inputs,
     * without a few thousand lines of output each time. */
    long budget = 6000;
    for (size_t k = 0; k < n && (k < 2 || budget > 0); k++) {
        size_t i = (size_t)((h >> 4) + k) % n;
        const nb_section_info *in = nb_bundle_section_get(b, i);
        budget -= in->type == NB_SEC_CLEARANCE || in->type == NB_SEC_COMPONENTS || in->type == NB_SEC_MAP
                      ? (long)((uint64_t)w * ht)
                  : in->type == NB_SEC_LEGEND || in->type == NB_SEC_AGENTS || in->type == NB_SEC_UNIT
                      ? 64
                  : in->type == NB_SEC_FOREST ? (long)(in->usize / 8) : (long)(in->usize > 1000000 ? 1000000 : in->usize);
        char idx[24];
        snprintf(idx, sizeof idx, "%zu", i);
        run(nbc_cmd_dump, NULL, NULL, "dump", path, idx, NULL);
    }
    char agent[NB_NAME_MAX + 1] = "", heading[8], from[32], to[32], unit[NB_NAME_MAX + 1] = "",
         model[NB_NAME_MAX + 1] = "", window[64];
    if (nb_agent_count(b))
        snprintf(agent, sizeof agent, "%s", nb_agent_get(b, (h >> 8) % nb_agent_count(b))->name);
    snprintf(heading, sizeof heading, "%u", (unsigned)(h >> 16) % 16);
    snprintf(from, sizeof from, "%u,%u", (unsigned)(h >> 20) % w, (unsigned)(h >> 28) % ht);
    snprintf(to, sizeof to, "%u,%u", (unsigned)(h >> 36) % w, (unsigned)(h >> 44) % ht);
    /* An 8 x 8 window of the map at a pixel a cell, the whole map one time
     * in sixteen. */
    uint32_t ww = w < 8 ? w : 8, wh = ht < 8 ? ht : 8;
    snprintf(window, sizeof window, "%u,%u,%u,%u", (unsigned)(h >> 24) % (w - ww + 1),
             (unsigned)(h >> 32) % (ht - wh + 1), (unsigned)ww, (unsigned)wh);
    int whole = (h >> 60) % 16 == 0;
    for (size_t i = 0; i < n; i++) {
        const nb_section_info *in = nb_bundle_section_get(b, i);
        if (in->type == NB_SEC_UNIT && !unit[0])
            snprintf(unit, sizeof unit, "%s", in->name);
        if (in->type == NB_SEC_MODEL && !model[0])
            snprintf(model, sizeof model, "%s", in->name);
    }
    nb_bundle_close(b);

    /* Every layer: the map's in the window, the forest's and the unit's
     * whole (they are small); now and then for the input's agent. */
    static const char *const layers[] = {"terrain", "clearance", "components", "grid", "abstract",
                                         "perimeter", "forest", "bitangent", "hitcheck", "curves"};
    for (size_t i = 0; i < sizeof layers / sizeof *layers; i++) {
        const char *opt = i < 6 && !whole ? "--window" : "--scale";
        const char *val = i < 6 && !whole ? window : i < 6 ? "4" : "1";
        if (agent[0] && (h >> i) % 2)
            run(nbc_cmd_render, NULL, NULL, "render", path, "-o", "/dev/null", "--format", "svg",
                opt, val, "-a", agent, "-H", heading, layers[i], NULL);
        else
            run(nbc_cmd_render, NULL, NULL, "render", path, "-o", "/dev/null", "--format", "svg",
                opt, val, layers[i], NULL);
    }
    if (nbr_png_supported() && (h >> 12) % 8 == 0)
        run(nbc_cmd_render, NULL, NULL, "render", path, "-o", "/dev/null", "--format", "png",
            "--scale", "1", "terrain", "clearance", NULL);

    run(nbc_cmd_query, &out, &len, "query", path, "--from", from, "--to", to, "--json", "--path",
        agent[0] ? "-a" : "--size", agent[0] ? agent : "1", NULL);
    must_parse(out, len, "navbake query --json");
    run(nbc_cmd_query, &out, &len, "query", path, "--from", from, "--to", to, "--json", "--path",
        "-m", (h >> 52) % 2 ? "haa-smooth" : "haa", agent[0] ? "-a" : "--size", agent[0] ? agent : "1",
        NULL);
    must_parse(out, len, "navbake query -m haa --json");
    if ((h >> 54) % 2)
        run(nbc_cmd_query, &out, &len, "query", "--forest", path, "--from", from, "--to", to, "--json",
            "--deferred", NULL);
    else
        run(nbc_cmd_query, &out, &len, "query", "--forest", path, "--from", from, "--to", to, "--json",
            "--sample", "1", NULL);
    must_parse(out, len, "navbake query --forest --json");
    if (unit[0]) {
        run(nbc_cmd_plan, &out, &len, "plan", "--unit", unit, "--from", from, "--to", to, "--json",
            "--max-expansions", "200", "-m", (h >> 56) % 2 ? "hybrid" : "directional", path, NULL);
        must_parse(out, len, "navbake plan --unit --json");
    }
    if (model[0]) {
        run(nbc_cmd_plan, &out, &len, "plan", "--model", model, "--from", from, "--to", to, "--json",
            "-n", "200", (h >> 58) % 2 ? "--route" : "--json", path, NULL);
        must_parse(out, len, "navbake plan --model --json");
    }
    return 0;
}

#ifdef NB_FUZZ_LIBFUZZER
#include "bundle_hooks.h"
#endif
