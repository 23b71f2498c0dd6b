/* test_bundle.c: the bundle writer and reader: write, reopen, compare;
 * determinism; replacing only owned sections; forward compatibility (a
 * hand-made bundle of a future minor version with an unknown section, and
 * of a future major version); atomic writes that leave the previous
 * bundle intact when they fail. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "testutil.h"

static nbi_legend legend;
static nbi_agentset agents;
static nbb_grid grid;

/* An independent writer, from formats/bundle.md alone: one legend
 * section and one section of type 999, in a file of version major.minor. */
static size_t handmade(uint8_t *out, unsigned major, unsigned minor, const uint8_t *unknown, size_t ulen)
{
    uint8_t leg[TU_ROCK_LEGEND_SIZE];
    tu_rock_legend(leg);
    size_t n = 2, table_end = 64 + n * 128;
    size_t off1 = (table_end + 63) / 64 * 64, off2 = (off1 + sizeof leg + 63) / 64 * 64;
    size_t size = off2 + ulen;
    memset(out, 0, size);
    memcpy(out, "\x89NBK\r\n\x1a\n", 8);
    nbi_put16(out + 8, (uint16_t)major);
    nbi_put16(out + 10, (uint16_t)minor);
    nbi_put32(out + 16, 64);
    nbi_put32(out + 20, 128);
    nbi_put32(out + 24, (uint32_t)n);
    nbi_put64(out + 32, 64);
    nbi_put64(out + 40, size);
    uint8_t *e = out + 64;
    nbi_put32(e, NB_SEC_LEGEND);
    nbi_put16(e + 4, 1);
    nbi_put64(e + 8, off1);
    nbi_put64(e + 16, sizeof leg);
    nbi_put64(e + 24, sizeof leg);
    nbi_put32(e + 32, (uint32_t)crc32(0, leg, sizeof leg));
    nbi_put32(e + 40, 1);
    e += 128;
    nbi_put32(e, 999);
    nbi_put16(e + 4, 7);
    nbi_put16(e + 6, 0x0100); /* zlib: a reader must not need to decode it */
    nbi_put64(e + 8, off2);
    nbi_put64(e + 16, ulen);
    nbi_put64(e + 24, ulen * 3);
    nbi_put32(e + 32, (uint32_t)crc32(0, unknown, (uInt)ulen));
    nbi_put32(e + 40, 42);
    memcpy(e + 72, "future", 6);
    memcpy(out + off1, leg, sizeof leg);
    memcpy(out + off2, unknown, ulen);
    nbi_put32(out + 48, (uint32_t)crc32(0, out + 64, (uInt)(n * 128)));
    nbi_put32(out + 60, (uint32_t)crc32(0, out, 60));
    return size;
}

static int same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *pa = tu_read(a, &la), *pb = tu_read(b, &lb);
    int same = pa && pb && la == lb && memcmp(pa, pb, la) == 0;
    free(pa);
    free(pb);
    return same;
}

static void test_round_trip(const char *dir)
{
    nb_err err;
    for (int z = 0; z < 2; z++) {
        const char *p = tu_path(dir, z ? "rt-zlib.nbk" : "rt.nbk");
        nb_status st = tu_write_level(p, &legend, &agents, &grid, z, &err);
        if (!ok(st == NB_OK, "write a bundle (map %s)", z ? "zlib" : "raw")) {
            diag("%s", err.msg);
            continue;
        }
        nb_bundle *b;
        st = nb_bundle_open(p, NB_OPEN_VERIFY, NULL, &b, &err);
        if (!ok(st == NB_OK, "reopen it and verify")) {
            diag("%s", err.msg);
            continue;
        }
        unsigned major, minor;
        nb_bundle_format_version(b, &major, &minor);
        ok(major == NB_FORMAT_MAJOR && minor == NB_FORMAT_MINOR, "format version %u.%u", major, minor);
        is_int(nb_bundle_section_count(b), 3, "three sections: legend, agents, map");
        ok(memcmp(&b->legend, &legend, sizeof legend) == 0, "the legend is the one written");
        ok(nb_agent_count(b) == agents.count &&
               memcmp(nb_agent_get(b, 0), agents.agent, agents.count * sizeof(nb_agent)) == 0,
           "the agents are the ones written");
        int same = nb_map_width(b) == grid.width && nb_map_height(b) == grid.height;
        for (uint32_t y = 0; same && y < grid.height; y++)
            for (uint32_t x = 0; same && x < grid.width; x++) {
                uint8_t c = grid.cells[(size_t)y * grid.width + x];
                int t = nb_map_terrain(b, x, y);
                same = nb_map_char(b, x, y) == (char)c &&
                       t == (legend.code[c] == NBI_CELL_OBSTACLE ? NB_OBSTACLE : legend.code[c]);
            }
        ok(same, "every cell has its character and terrain");
        ok(nb_map_terrain(b, -1, 0) == NB_OBSTACLE && nb_map_terrain(b, 0, (long)grid.height) == NB_OBSTACLE,
           "outside the map is an obstacle");
        long m = nbi_section_index(b, NB_SEC_MAP, NULL, NULL, 0);
        const nb_section_info *in = m >= 0 ? nb_bundle_section_get(b, (size_t)m) : NULL;
        ok(in && in->param[0] == grid.width && in->param[1] == grid.height &&
               in->param[2] == 4 && in->version == 2 &&
               in->encoding == (z ? (NB_ENC_ZLIB | NB_ENC_PACKED) : NB_ENC_PACKED) && in->offset % 64 == 0,
           "the map section: parameters (4 bits a cell), version 2, packed, alignment");
        if (z)
            ok(in && in->size < in->usize, "zlib stores the map smaller (%llu < %llu)",
               in ? (unsigned long long)in->size : 0ULL, in ? (unsigned long long)in->usize : 0ULL);
        uint32_t params[2] = {grid.width, grid.height + 1};
        ok(nbi_section_index(b, NB_SEC_MAP, NULL, params, 2) == -1 && nbi_section_index(b, NB_SEC_MAP, NULL, params, 1) == m,
           "nbi_section_index matches parameters");
        nb_capability cap;
        char buf[64];
        ok(nb_capability_parse(b, "swamp, ground", &cap, &err) == NB_OK && cap == 3, "capability parse");
        ok(nb_capability_format(b, 0xb, buf, sizeof buf) == 18 && strcmp(buf, "ground,swamp,trees") == 0,
           "capability format");
        ok(nb_capability_format(b, 0xb, buf, 10) == 18 && strcmp(buf, "ground") == 0,
           "capability format truncates at a name");
        ok(nb_capability_parse(b, "ground,lava", &cap, &err) == NB_ERR_NOTFOUND, "an unknown terrain is refused");
        like(err.msg, "unknown terrain 'lava'", "and named");
        nb_bundle_close(b);
    }
    /* The same level written again, from a builder filled in another order,
     * gives the same bytes. */
    nbb_builder *bb;
    nb_err e2;
    nbb_builder_new(&bb, &e2);
    nbb_put_level(bb, &legend, NULL, &grid, 0, &e2);
    nbb_put_level(bb, &legend, &agents, NULL, 0, &e2);
    nb_status st = nbb_builder_write(bb, tu_path(dir, "rt2.nbk"), &e2);
    nbb_builder_free(bb);
    ok(st == NB_OK && same_file(tu_path(dir, "rt.nbk"), tu_path(dir, "rt2.nbk")),
       "determinism: the same sections in another order give identical bytes");
    tu_write_level(tu_path(dir, "rt3.nbk"), &legend, &agents, &grid, 1, &e2);
    ok(same_file(tu_path(dir, "rt-zlib.nbk"), tu_path(dir, "rt3.nbk")),
       "determinism: baking the same input twice gives identical bytes (zlib)");

    /* open_memory reads the same. */
    size_t len;
    char *bytes = tu_read(tu_path(dir, "rt.nbk"), &len);
    nb_bundle *b;
    st = nb_bundle_open_memory(bytes, len, NB_OPEN_VERIFY, NULL, &b, &err);
    ok(st == NB_OK && nb_map_width(b) == grid.width, "nb_bundle_open_memory reads the same bundle");
    if (st == NB_OK)
        nb_bundle_close(b);
    free(bytes);
}

static void test_update(const char *dir)
{
    nb_err err;
    const char *p = tu_path(dir, "up.nbk");
    tu_write_level(p, &legend, &agents, NULL, 0, &err);
    /* A tool that owns the map section adds it; the rest stays. */
    nbb_builder *b;
    nbb_builder_new(&b, &err);
    nb_status st = nbb_builder_load(b, p, 0, &err);
    ok(st == NB_OK, "load an existing bundle into a builder");
    nbb_put_level(b, &legend, NULL, &grid, 0, &err);
    st = nbb_builder_write(b, p, &err);
    nbb_builder_free(b);
    ok(st == NB_OK && same_file(p, tu_path(dir, "rt.nbk")),
       "adding the map to a bundle of legend and agents gives the bundle written at once");

    nbb_builder_new(&b, &err);
    st = nbb_builder_load(b, tu_path(dir, "missing.nbk"), 1, &err);
    ok(st == NB_OK, "a missing bundle may be started afresh");
    st = nbb_builder_load(b, tu_path(dir, "missing.nbk"), 0, &err);
    ok(st == NB_ERR_IO && strstr(err.msg, "missing.nbk"), "unless it must exist");
    tu_write(tu_path(dir, "junk.nbk"), "not a bundle at all, just text\n", 31);
    st = nbb_builder_load(b, tu_path(dir, "junk.nbk"), 1, &err);
    ok(st == NB_ERR_FORMAT, "a file that is not a bundle is never overwritten by an update");
    like(err.msg, "cannot update the existing bundle", "and the message says so");
    nbb_builder_free(b);
}

static void test_versions(const char *dir)
{
    uint8_t buf[4096], unknown[100];
    nb_err err;
    nb_bundle *b;
    for (size_t i = 0; i < sizeof unknown; i++)
        unknown[i] = (uint8_t)(i * 7);
    size_t n = handmade(buf, 1, 9, unknown, sizeof unknown);
    nb_status st = nb_bundle_open_memory(buf, n, NB_OPEN_VERIFY, NULL, &b, &err);
    if (ok(st == NB_OK, "a future minor version (1.9) with an unknown section opens and verifies")) {
        unsigned major, minor;
        nb_bundle_format_version(b, &major, &minor);
        ok(major == 1 && minor == 9 && nb_bundle_section_count(b) == 2, "it says 1.9, two sections");
        const nb_section_info *in = nb_bundle_section_get(b, 1);
        ok(in->type == 999 && in->version == 7 && in->param[0] == 42 && strcmp(in->name, "future") == 0 &&
               nb_section_type_name(999) == NULL,
           "the unknown section's entry is read as written");
        ok(nb_terrain_count(b) == 1 && strcmp(nb_terrain_name(b, 0), "rock") == 0 &&
               strcmp(nb_obstacle_chars(b), "#") == 0,
           "the known section (legend) is decoded");
        const void *data;
        size_t len;
        ok(nb_bundle_payload(b, 1, &data, &len, &err) == NB_ERR_UNSUPPORTED,
           "the unknown zlib section is skipped, not decoded");
        nb_bundle_close(b);
    } else {
        diag("%s", err.msg);
    }
    /* A writer updating that bundle keeps what it does not know. */
    const char *p = tu_path(dir, "future.nbk");
    tu_write(p, buf, n);
    nbb_builder *bb;
    nbb_builder_new(&bb, &err);
    st = nbb_builder_load(bb, p, 0, &err);
    nbi_legend rock;
    const char *rock_yaml = "terrains: [{name: rock, chars: \".\"}]\nobstacles: \"#\"\n";
    ok(nbb_legend_parse(rock_yaml, strlen(rock_yaml), "x", &rock, &err) == NB_OK, "a one-terrain legend");
    nbb_grid small = {2, 1, (uint8_t *)".#"};
    if (st == NB_OK)
        st = nbb_put_level(bb, &rock, NULL, &small, 0, &err);
    if (st == NB_OK)
        st = nbb_builder_write(bb, p, &err);
    nbb_builder_free(bb);
    if (ok(st == NB_OK, "a builder updates the future bundle") &&
        (ok(nb_bundle_open(p, NB_OPEN_VERIFY, NULL, &b, &err) == NB_OK, "which still verifies") || (diag("%s", err.msg), 0))) {
        unsigned major, minor;
        nb_bundle_format_version(b, &major, &minor);
        long u = nbi_section_index(b, 999, "future", NULL, 0);
        const nb_section_info *in = u >= 0 ? nb_bundle_section_get(b, (size_t)u) : NULL;
        ok(minor == 9 && in && in->size == sizeof unknown && in->usize == 3 * sizeof unknown &&
               in->encoding == 0x0100 && memcmp(b->data + in->offset, unknown, sizeof unknown) == 0,
           "the unknown section and the minor version survive the update byte for byte");
        ok(nb_has_map(b) && nb_map_width(b) == 2, "and the new map is there");
        nb_bundle_close(b);
    }

    n = handmade(buf, 2, 0, unknown, sizeof unknown);
    st = nb_bundle_open_memory(buf, n, 0, NULL, &b, &err);
    ok(st == NB_ERR_VERSION, "a future major version (2.0) is refused");
    like(err.msg, "bundle format version 2.0; this reader (navbake " NB_VERSION_STRING ") reads version 1.x only",
         "naming both versions");
}

static void test_open_errors(const char *dir)
{
    nb_bundle *b;
    nb_err err;
    nb_status st = nb_bundle_open(tu_path(dir, "none.nbk"), 0, NULL, &b, &err);
    ok(st == NB_ERR_IO && strstr(err.msg, "none.nbk: cannot open: No such file"), "a missing bundle");
    st = nb_bundle_open(dir, 0, NULL, &b, &err);
    ok(st == NB_ERR_IO && strstr(err.msg, "is a directory"), "a directory");
    tu_write(tu_path(dir, "empty.nbk"), "", 0);
    st = nb_bundle_open(tu_path(dir, "empty.nbk"), 0, NULL, &b, &err);
    ok(st == NB_ERR_FORMAT && strstr(err.msg, "0 bytes, too short"), "an empty file");
    tu_write(tu_path(dir, "text.nbk"), "type octile\nheight 1\nwidth 1\nmap\n.\n.........................\n", 59);
    st = nb_bundle_open(tu_path(dir, "text.nbk"), 0, NULL, &b, &err);
    ok(st == NB_ERR_FORMAT && strstr(err.msg, "not a navbake bundle (wrong magic number)"), "a map file");
    char sq[100] = "SQLite format 3";
    tu_write(tu_path(dir, "db.nbk"), sq, sizeof sq);
    st = nb_bundle_open(tu_path(dir, "db.nbk"), 0, NULL, &b, &err);
    /* (The tests link the SQLite reader; test_nosqlite has the build without.) */
    ok(st == NB_ERR_FORMAT && strstr(err.msg, "has SQLite's header but is not a database"),
       "an SQLite file is recognised");
}

/* Writes a big bundle with the file size limit below its size: the write
 * fails, and the previous bundle must be there, unchanged, alone. */
static void test_failed_write(const char *dir)
{
    nb_err err;
    tu_check_failed_write(tu_path(dir, "atomic"), "level.nbk", &legend, &agents, &grid);
    nb_status st = tu_write_level(tu_path(dir, "no/such/dir/x.nbk"), &legend, &agents, &grid, 0, &err);
    ok(st == NB_ERR_IO && strstr(err.msg, "no/such/dir/x.nbk"), "a write into a missing directory names the path");
}

int main(void)
{
    const char *dir = tu_tmpdir();
    tu_read_sample(&legend, &agents, &grid);
    test_round_trip(dir);
    test_update(dir);
    test_versions(dir);
    test_open_errors(dir);
    test_failed_write(dir);
    nbb_grid_free(&grid);
    return done_testing();
}
