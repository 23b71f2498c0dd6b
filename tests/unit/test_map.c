/* test_map.c: the MovingAI map reader: good maps (the sample, every shared
 * map, line endings, the size limit) and one test per kind of bad input,
 * asserting the message names file, line and column; random maps read in
 * bands of rows on 1, 2, 5 and 8 threads, every cell where the text put it
 * and the first error in the text reported whatever the count. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

static nbi_legend legend;

static nb_status parse(const char *text, nbb_grid *g, nb_err *err)
{
    return nbb_map_parse(text, strlen(text), "t.map", &legend, 1, g, err);
}

/* A bad map: the status, and the message must contain want. */
static void bad(const char *text, nb_status code, const char *want, const char *what)
{
    nbb_grid g;
    nb_err err;
    nb_status st = parse(text, &g, &err);
    if (!ok(st == code, "%s: refused with %s", what, nb_status_str(code)))
        diag("status %s: %s", nb_status_str(st), st ? err.msg : "(accepted)");
    if (st == NB_OK)
        nbb_grid_free(&g);
    else
        like(err.msg, want, "%s: message", what);
}

/* Counts characters of a map file independently: every byte after the
 * fourth line that is not a line ending. */
static void count_chars(const char *text, size_t counts[256])
{
    memset(counts, 0, 256 * sizeof *counts);
    int lines = 0;
    for (const char *p = text; *p; p++) {
        if (lines >= 4 && *p != '\n' && *p != '\r')
            counts[(unsigned char)*p]++;
        if (*p == '\n')
            lines++;
    }
}

static void check_file(const char *path, const char *label)
{
    size_t len, want[256], got[256] = {0};
    char *text = tu_read(path, &len);
    if (!ok(text != NULL, "%s: readable", label))
        return;
    unsigned hw = 0, ww = 0;
    sscanf(strstr(text, "height"), "height %u", &hw);
    sscanf(strstr(text, "width"), "width %u", &ww);
    count_chars(text, want);
    nbb_grid g;
    nb_err err;
    nb_status st = nbb_map_read(path, &legend, 1, &g, &err);
    if (!ok(st == NB_OK, "%s: parses", label)) {
        diag("%s", err.msg);
        free(text);
        return;
    }
    for (size_t i = 0; i < (size_t)g.width * g.height; i++)
        got[g.cells[i]]++;
    ok(g.width == ww && g.height == hw && memcmp(got, want, sizeof got) == 0,
       "%s: %u x %u, every character counted", label, g.width, g.height);
    nbb_grid_free(&g);
    free(text);
}

int main(void)
{
    nbi_legend_default(&legend);
    nbb_grid g;
    nb_err err;

    /* The sample level. */
    check_file(tu_src("data/sample.map"), "data/sample.map");

    /* Good variations of one small map. */
    const char *lf = "type octile\nheight 2\nwidth 3\nmap\n.@T\nSWG\n";
    const char *variants[][2] = {
        {"type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@T\r\nSWG\r\n", "CRLF line endings"},
        {"type octile\nheight 2\nwidth 3\nmap\n.@T\nSWG", "no final newline"},
        {"type octile\nheight 2\nwidth 3\nmap\n.@T\nSWG\n\n\r\n", "trailing empty lines"},
        {"type octile\nwidth 3\nheight 2\nmap\n.@T\nSWG\n", "width before height"},
        {"type  octile \nheight\t2\nwidth 3\nmap\n.@T\nSWG\n", "extra blanks in the header"},
    };
    nbb_grid ref;
    if (ok(parse(lf, &ref, &err) == NB_OK, "a 3 x 2 map parses")) {
        ok(ref.width == 3 && ref.height == 2 && memcmp(ref.cells, ".@TSWG", 6) == 0,
           "its cells are row-major from the top-left");
        for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
            nb_status st = parse(variants[i][0], &g, &err);
            ok(st == NB_OK && g.width == 3 && g.height == 2 && memcmp(g.cells, ref.cells, 6) == 0,
               "%s: the same map", variants[i][1]);
            if (st == NB_OK)
                nbb_grid_free(&g);
        }
        nbb_grid_free(&ref);
    }

    /* Bad input: one test per kind. */
    bad("", NB_ERR_SYNTAX, "t.map:1: the file ends before the header line 'type octile'", "empty file");
    bad("type tile\nheight 1\nwidth 1\nmap\n.\n", NB_ERR_SYNTAX, "t.map:1:6: expected 'type octile'",
        "wrong map type");
    bad("height 1\nwidth 1\nmap\n.\n", NB_ERR_SYNTAX, "t.map:1:1: expected 'type octile'", "no type line");
    bad("type octile\nsize 1\nwidth 1\nmap\n.\n", NB_ERR_SYNTAX,
        "t.map:2:1: expected 'height N' or 'width N'", "unknown header line");
    bad("type octile\nheight 0\nwidth 1\nmap\n", NB_ERR_LIMIT, "t.map:2:8: height 0 is outside the limits 1 to 16384",
        "zero height");
    bad("type octile\nheight 1\nwidth 16385\nmap\n", NB_ERR_LIMIT,
        "t.map:3:7: width 16385 is outside the limits 1 to 16384", "width over the limit");
    bad("type octile\nheight 99999999999999999999\nwidth 1\nmap\n", NB_ERR_LIMIT, "outside the limits",
        "a number that overflows");
    bad("type octile\nheight 1x\nwidth 1\nmap\n", NB_ERR_SYNTAX, "t.map:2:9: height must be a whole number",
        "height not a number");
    bad("type octile\nheight -1\nwidth 1\nmap\n", NB_ERR_SYNTAX, "height must be a whole number",
        "negative height");
    bad("type octile\nheight 1\nheight 1\nmap\n", NB_ERR_SYNTAX, "t.map:3:1: 'height' is given twice",
        "height given twice");
    bad("type octile\nheight 1 2\nwidth 1\nmap\n", NB_ERR_SYNTAX, "t.map:2:10: expected 'height N' with one number",
        "two numbers");
    bad("type octile\nheight 1\nwidth 1\n.\n", NB_ERR_SYNTAX, "t.map:4:1: expected 'map'", "no map line");
    bad("type octile\nheight 1\nwidth 1\nmap extra\n.\n", NB_ERR_SYNTAX, "t.map:4:5: expected 'map'",
        "text after 'map'");
    bad("type octile\nheight 2\nwidth 3\nmap\n.@T\nSW\n", NB_ERR_SYNTAX,
        "t.map:6:3: row 1 has 2 characters, the width is 3", "short row");
    bad("type octile\nheight 2\nwidth 3\nmap\n.@T.\nSWG\n", NB_ERR_SYNTAX,
        "t.map:5:4: row 0 is longer than the width 3", "long row");
    bad("type octile\nheight 2\nwidth 3\nmap\n.@T\nSxG\n", NB_ERR_SYNTAX,
        "t.map:6:2: character 'x' is not in the legend", "unknown character");
    bad("type octile\nheight 1\nwidth 3\nmap\n.\t.\n", NB_ERR_SYNTAX, "t.map:5:2: character tab",
        "a tab in a row");
    bad("type octile\nheight 1\nwidth 3\nmap\n.\r.\n", NB_ERR_SYNTAX, "t.map:5:2: character CR",
        "a lone carriage return");
    bad("type octile\nheight 1\nwidth 1\nmap\n\x80\n", NB_ERR_SYNTAX, "character 0x80", "a non-ASCII byte");
    bad("type octile\nheight 3\nwidth 3\nmap\n.@T\n", NB_ERR_SYNTAX, "t.map:6: the map ends after 1 of its 3 rows",
        "missing rows");
    bad("type octile\nheight 1\nwidth 3\nmap\n.@T\n...\n", NB_ERR_SYNTAX,
        "t.map:6:1: text after the 1 rows that the header declares", "an extra row");
    bad("type octile\nheight 1\nwidth 1\n", NB_ERR_SYNTAX, "t.map:4: the file ends before the header line 'map'",
        "header only");

    nb_status st = nbb_map_read("/nonexistent/x.map", &legend, 1, &g, &err);
    ok(st == NB_ERR_IO, "a missing file is an I/O error");
    like(err.msg, "/nonexistent/x.map: cannot open: No such file", "and the message names it");
    st = nbb_map_read(tu_src("data"), &legend, 1, &g, &err);
    ok(st == NB_ERR_IO && strstr(err.msg, "is a directory"), "a directory is refused");

    /* The documented limit: 16384 cells a side; 8192 x 8192 in full. */
    {
        const uint32_t side = 8192;
        size_t len = 64 + (size_t)(side + 1) * side;
        char *big = malloc(len);
        int n = snprintf(big, len, "type octile\nheight %u\nwidth %u\nmap\n", side, side);
        char *p = big + n;
        for (uint32_t y = 0; y < side; y++) {
            memset(p, y % 7 ? '.' : 'T', side);
            p[side / 2] = '@';
            p += side;
            *p++ = '\n';
        }
        st = nbb_map_parse(big, (size_t)(p - big), "big.map", &legend, 1, &g, &err);
        if (ok(st == NB_OK, "an 8192 x 8192 map parses")) {
            ok(g.cells[(size_t)7 * side] == 'T' && g.cells[(size_t)8 * side + side / 2] == '@' &&
                   g.cells[(size_t)side * side - 1] == '.',
               "and its cells are where they were");
            nbb_grid_free(&g);
        }
        n = snprintf(big, len, "type octile\nheight 1\nwidth 16384\nmap\n");
        memset(big + n, '.', 16384);
        st = nbb_map_parse(big, (size_t)n + 16384, "wide.map", &legend, 1, &g, &err);
        ok(st == NB_OK && g.width == 16384, "a 16384 x 1 map parses");
        if (st == NB_OK)
            nbb_grid_free(&g);
        free(big);
    }

    /* Random maps on threads: the cells the text was made from, and with
     * bad rows the message of the first, on any number of threads. */
    {
        static const char chars[] = ".@TGSWO";
        static const unsigned counts[] = {1, 2, 5, 8};
        tu_rng r = {0x9e3779b97f4a7c15ull};
        int cells_bad = 0, errors_bad = 0, maps = 0, refused = 0;
        for (int t = 0; t < 60; t++) {
            uint32_t w = 1 + tu_below(&r, 40), h = 1 + tu_below(&r, 400);
            int crlf = tu_below(&r, 2);
            size_t cap = 64 + (size_t)(w + 2) * h;
            char *text = malloc(cap);
            uint8_t *want = malloc((size_t)w * h);
            int n = snprintf(text, cap, "type octile\nheight %u\nwidth %u\nmap\n", h, w);
            char *p = text + n;
            for (uint32_t y = 0; y < h; y++) {
                for (uint32_t x = 0; x < w; x++)
                    *p++ = (char)(want[(size_t)y * w + x] = (uint8_t)chars[tu_below(&r, 7)]);
                if (crlf)
                    *p++ = '\r';
                *p++ = '\n';
            }
            size_t len = (size_t)(p - text);
            /* Half the maps get two bad rows, the first one named. */
            uint32_t bad1 = h, bad2 = h;
            if (t % 2) {
                bad1 = tu_below(&r, h);
                bad2 = bad1 + tu_below(&r, h - bad1);
                text[(size_t)n + (size_t)bad2 * (w + 1 + crlf) + tu_below(&r, w)] = 'x';
                text[(size_t)n + (size_t)bad1 * (w + 1 + crlf) + tu_below(&r, w)] = '?';
            }
            char first[NB_ERR_MSG_MAX] = "";
            for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
                nbb_grid pg;
                nb_err perr;
                nb_status pst = nbb_map_parse(text, len, "r.map", &legend, counts[k], &pg, &perr);
                if (bad1 < h) {
                    char line[32];
                    snprintf(line, sizeof line, "r.map:%u:", bad1 + 5);
                    refused += pst != NB_OK;
                    if (k == 0)
                        snprintf(first, sizeof first, "%s", pst != NB_OK ? perr.msg : "");
                    errors_bad += pst == NB_OK || strncmp(perr.msg, line, strlen(line)) != 0 ||
                                  !strstr(perr.msg, "'?'") || strcmp(perr.msg, first) != 0;
                    if (pst == NB_OK)
                        nbb_grid_free(&pg);
                    continue;
                }
                maps++;
                cells_bad += pst != NB_OK || pg.width != w || pg.height != h ||
                             memcmp(pg.cells, want, (size_t)w * h) != 0;
                if (pst == NB_OK)
                    nbb_grid_free(&pg);
            }
            free(text);
            free(want);
        }
        ok(cells_bad == 0 && maps > 0,
           "random maps on 1, 2, 5 and 8 threads: every cell where the text put it (%d reads, %d "
           "wrong)", maps, cells_bad);
        ok(errors_bad == 0 && refused > 0,
           "random maps with two bad rows: the first named, the same message on 1, 2, 5 and 8 "
           "threads (%d refusals, %d wrong)", refused, errors_bad);
    }

    /* Every real map in the shared set. */
    static const char *const maps[] = {
        "maps/dao/arena.map", "maps/dao/den312d.map", "maps/dao/lak303d.map", "maps/dao/ost003d.map",
        "maps/dao/brc202d.map", "maps/dao/orz900d.map", "maps/bg/AR0011SR.map", "maps/bg/AR0042SR.map",
        "maps/wc3/battleground.map", "maps/wc3/blastedlands.map", "maps/wc3/bloodvenomfalls.map",
        "maps/wc3/darkforest.map", "maps/sc1/AcrosstheCape.map", "maps/sc1/Aftershock.map",
        "maps/sc1/CatwalkAlley.map", "maps/rooms/64room_005.map", "maps/rooms/8room_000.map",
        "maps/mazes/maze512-32-9.map", "maps/mazes/maze512-4-0.map", "maps/random/random512-10-0.map",
        "maps/random/random512-40-5.map"};
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        const char *p = tu_shared(maps[i]);
        if (p)
            check_file(p, maps[i]);
        else
            skip(2, "%s: ../shared is absent", maps[i]);
    }
    return done_testing();
}
