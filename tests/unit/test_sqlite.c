/* test_sqlite.c: the SQLite form of a bundle (formats/sqlite.md).
 *  - binary -> SQLite -> binary gives the same bytes, and SQLite -> binary
 *    -> SQLite the same rows, for the sample level, a zlib map, random
 *    levels, every shared benchmark map, an empty bundle, and a hand-made
 *    bundle with section types, encodings, flags and a minor version this
 *    reader does not know;
 *  - an SQLite bundle opens as the same bundle as its binary form;
 *  - the tables people query agree with answers made without the writer:
 *    the map file's own text and character counts, the runtime's decoding;
 *  - the schema is formats/sqlite.sql;
 *  - every kind of bad database is refused with a clear error, and no
 *    damage to the file changes the bundle unnoticed;
 *  - writes are atomic: a write that fails or is killed leaves the previous
 *    database as it was. */
#include "config.h"

#include <dirent.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "testutil.h"

static nbi_legend legend;
static nbi_agentset agents;
static nbb_grid grid;
static const char *dir;

/* ---- helpers ---- */

static int same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *x = tu_read(a, &la), *y = tu_read(b, &lb);
    int same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

/* navbake convert, as a library call. */
static nb_status convert(const char *in, const char *out, nbb_format format, nb_err *err)
{
    nb_bundle *b;
    nbb_builder *w;
    nb_status st = nb_bundle_open(in, NB_OPEN_VERIFY, NULL, &b, err);
    if (st != NB_OK)
        return st;
    st = nbb_builder_new(&w, err);
    if (st == NB_OK)
        st = nbb_builder_take(w, b, err);
    nb_bundle_close(b);
    if (st == NB_OK)
        st = nbb_builder_write_format(w, out, format, err);
    nbb_builder_free(w);
    return st;
}

/* Every row of every table, the schema and the header pragmas, as text. */
static char *db_rows(const char *path)
{
    sqlite3 *db;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *out = malloc(cap);
    out[0] = '\0';
#define ADD(...)                                                                                    \
    do {                                                                                            \
        int k_ = snprintf(NULL, 0, __VA_ARGS__);                                                    \
        while (n + (size_t)k_ + 1 > cap)                                                            \
            out = realloc(out, cap *= 2);                                                           \
        n += (size_t)snprintf(out + n, cap - n, __VA_ARGS__);                                       \
    } while (0)
    sqlite3_stmt *t, *r;
    sqlite3_prepare_v2(db, "SELECT type, name, sql FROM sqlite_master ORDER BY name", -1, &t, NULL);
    while (sqlite3_step(t) == SQLITE_ROW) {
        const char *type = (const char *)sqlite3_column_text(t, 0);
        const char *name = (const char *)sqlite3_column_text(t, 1);
        const char *sql = (const char *)sqlite3_column_text(t, 2);
        ADD("%s %s: %s\n", type, name, sql ? sql : "");
        if (strcmp(type, "table") != 0)
            continue;
        char q[256];
        snprintf(q, sizeof q, "SELECT * FROM \"%s\"", name);
        sqlite3_prepare_v2(db, q, -1, &r, NULL);
        while (sqlite3_step(r) == SQLITE_ROW) {
            for (int c = 0; c < sqlite3_column_count(r); c++) {
                int ty = sqlite3_column_type(r, c);
                if (ty == SQLITE_BLOB) {
                    const uint8_t *p = sqlite3_column_blob(r, c);
                    int len = sqlite3_column_bytes(r, c);
                    ADD(" x'");
                    for (int i = 0; i < len; i++)
                        ADD("%02x", p[i]);
                    ADD("'");
                } else if (ty == SQLITE_NULL) {
                    ADD(" NULL");
                } else {
                    ADD(" %d:%s", ty, (const char *)sqlite3_column_text(r, c));
                }
            }
            ADD("\n");
        }
        sqlite3_finalize(r);
    }
    sqlite3_finalize(t);
    sqlite3_prepare_v2(db, "SELECT (SELECT application_id FROM pragma_application_id), "
                           "(SELECT user_version FROM pragma_user_version)", -1, &t, NULL);
    if (sqlite3_step(t) == SQLITE_ROW)
        ADD("pragmas %lld %lld\n", sqlite3_column_int64(t, 0), sqlite3_column_int64(t, 1));
    sqlite3_finalize(t);
#undef ADD
    sqlite3_close(db);
    return out;
}

/* Runs SQL on a database file (for damage); returns SQLite's code. */
static int db_exec(const char *path, const char *sql)
{
    sqlite3 *db;
    int rc = sqlite3_open(path, &db);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

/* Both round trips from a binary bundle; label names it in messages. */
static void round_trips(const char *label, const char *bin)
{
    nb_err err;
    const char *db = tu_path(dir, "rt.sqlite"), *back = tu_path(dir, "rt-back.nbk");
    const char *db2 = tu_path(dir, "rt-back.sqlite");
    nb_status st = convert(bin, db, NBB_FORMAT_AUTO, &err);
    ok(st == NB_OK, "%s: binary -> SQLite", label);
    if (st != NB_OK) {
        diag("%s", err.msg);
        return;
    }
    st = convert(db, back, NBB_FORMAT_AUTO, &err);
    ok(st == NB_OK && same_file(bin, back), "%s: -> binary gives the same bytes", label);
    if (st != NB_OK)
        diag("%s", err.msg);
    st = convert(back, db2, NBB_FORMAT_SQLITE, &err);
    char *r1 = db_rows(db), *r2 = st == NB_OK ? db_rows(db2) : NULL;
    ok(r1 && r2 && strcmp(r1, r2) == 0, "%s: SQLite -> binary -> SQLite gives the same rows", label);
    ok(same_file(db, db2), "%s: and the same database bytes", label);
    free(r1);
    free(r2);
}

/* ---- round trips ---- */

static void test_sample_round_trips(void)
{
    nb_err err;
    const char *p = tu_path(dir, "sample.nbk");
    tu_write_level(p, &legend, &agents, &grid, 0, &err);
    round_trips("sample level", p);
    p = tu_path(dir, "sample-z.nbk");
    tu_write_level(p, &legend, &agents, &grid, 1, &err);
    round_trips("zlib map", p);

    nbb_builder *w;
    nbb_builder_new(&w, &err);
    p = tu_path(dir, "empty.nbk");
    ok(nbb_builder_write(w, p, &err) == NB_OK, "an empty bundle is written");
    nbb_builder_free(w);
    round_trips("no sections at all", p);

    /* Legend and agents without a map. */
    nbb_builder_new(&w, &err);
    nbb_put_level(w, &legend, &agents, NULL, 0, &err);
    p = tu_path(dir, "nomap.nbk");
    nbb_builder_write(w, p, &err);
    nbb_builder_free(w);
    round_trips("no map", p);

    tu_rng r = {7};
    static const uint32_t sizes[][2] = {{1, 1}, {1, 300}, {300, 1}, {97, 61}, {400, 250}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        nbb_grid g;
        tu_random_grid(&r, sizes[i][0], sizes[i][1], 25, 4, &g);
        char label[64];
        snprintf(label, sizeof label, "random %ux%u%s", sizes[i][0], sizes[i][1], i % 2 ? " zlib" : "");
        p = tu_path(dir, "random.nbk");
        tu_write_level(p, &legend, &agents, &g, (int)(i % 2), &err);
        round_trips(label, p);
        nbb_grid_free(&g);
    }
}

static int cmp_info(const void *a, const void *b) { return nbi_section_key_cmp(a, b); }

/* A bundle the tools never make: section types, encodings, flags, names
 * and a minor version this reader does not know, laid out as the writer
 * lays bundles out. */
static void test_unknown_round_trip(void)
{
    nb_err err;
    nbb_builder *w;
    uint8_t *level;
    size_t level_len;
    nbb_builder_new(&w, &err);
    nbb_put_level(w, &legend, &agents, &grid, 0, &err);
    nbb_builder_image(w, &level, &level_len, &err);
    nbb_builder_free(w);
    nb_bundle *lb;
    nbi_bundle_open_image(level, level_len, "level", 0, &lb, &err);

    enum { N = 6 };
    nb_section_info sec[N];
    const uint8_t *data[N];
    static uint8_t odd[1000];
    for (size_t i = 0; i < sizeof odd; i++)
        odd[i] = (uint8_t)(i * 37 + 11);
    memset(sec, 0, sizeof sec);
    for (int i = 0; i < 3; i++) {
        sec[i] = *nb_bundle_section_get(lb, (size_t)i);
        data[i] = lb->sections[i].stored;
    }
    /* type 200: zlib+packed, flags, a name, every parameter. */
    sec[3].type = 200, sec[3].version = 7, sec[3].encoding = 0x0101, sec[3].flags = 0x55aa;
    sec[3].size = 1000, sec[3].usize = 123456;
    for (int k = 0; k < NB_SECTION_PARAMS; k++)
        sec[3].param[k] = 0xfffffff0u + (uint32_t)k;
    strcpy(sec[3].name, "mystery-model_31-characters-max");
    sec[3].name[31] = '\0';
    data[3] = odd;
    /* the same type with another name: order by name. */
    sec[4] = sec[3];
    strcpy(sec[4].name, "another");
    sec[4].size = 17, sec[4].usize = 17, sec[4].encoding = 0x0302;
    data[4] = odd + 100;
    /* the largest type, empty. */
    sec[5].type = 0xffffffffu, sec[5].version = 65535;
    data[5] = odd;
    for (int i = 3; i < N; i++)
        sec[i].crc = (uint32_t)crc32(0, data[i], (uInt)sec[i].size);
    qsort(sec, N, sizeof sec[0], cmp_info);
    /* qsort moved the infos: find each one's bytes again by its key. */
    const uint8_t *sorted_data[N];
    for (int i = 0; i < N; i++) {
        sorted_data[i] = odd;
        if (sec[i].type <= 3)
            sorted_data[i] = lb->sections[sec[i].type - 1].stored;
        else if (sec[i].type == 200)
            sorted_data[i] = strcmp(sec[i].name, "another") == 0 ? odd + 100 : odd;
    }
    uint64_t size = nbi_layout_offsets(sec, N);
    uint8_t *img = calloc(1, (size_t)size);
    nbi_layout_head(sec, N, NB_FORMAT_MAJOR, 9, 0, size, img);
    for (int i = 0; i < N; i++)
        memcpy(img + sec[i].offset, sorted_data[i], (size_t)sec[i].size);
    const char *p = tu_path(dir, "unknown.nbk");
    tu_write(p, img, (size_t)size);
    nb_bundle_close(lb);

    nb_bundle *b;
    nb_status st = nb_bundle_open(p, NB_OPEN_VERIFY, NULL, &b, &err);
    ok(st == NB_OK, "the hand-made bundle opens and verifies");
    if (st != NB_OK)
        diag("%s", err.msg);
    nb_bundle_close(b);
    round_trips("unknown types, encodings, flags, minor 9", p);
    const char *db = tu_path(dir, "unknown.sqlite");
    convert(p, db, NBB_FORMAT_AUTO, &err);
    st = nb_bundle_open(db, NB_OPEN_VERIFY, NULL, &b, &err);
    unsigned major = 0, minor = 0;
    if (st == NB_OK)
        nb_bundle_format_version(b, &major, &minor);
    ok(st == NB_OK && minor == 9 && nb_bundle_section_count(b) == N &&
           nbi_section_index(b, 200, "mystery-model_31-characters-max", NULL, 0) >= 0,
       "the SQLite form keeps them all, minor version 9 included");
    sqlite3 *h;
    sqlite3_stmt *q;
    sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL);
    sqlite3_prepare_v2(h, "SELECT type || ' ' || encoding || ' ' || name FROM section_list WHERE id = 3",
                       -1, &q, NULL);
    const char *row = sqlite3_step(q) == SQLITE_ROW ? (const char *)sqlite3_column_text(q, 0) : "";
    is_str(row, "type-200 0x0302 another", "section_list names an unknown type and encoding by number");
    sqlite3_finalize(q);
    sqlite3_close(h);
    nb_bundle_close(b);
    free(img);
}

/* Every map of the shared benchmark set, as it is and with a zlib map. */
static void test_shared_maps(void)
{
    const char *shared = tu_shared("maps");
    char root[1024];
    if (shared) /* tu_shared's buffer is reused by tu_path */
        snprintf(root, sizeof root, "%s", shared);
    if (!shared) {
        skip(1, "../shared/maps is absent: shared maps not converted");
        return;
    }
    static const char *const sets[] = {"bg", "dao", "mazes", "random", "rooms", "sc1", "wc3"};
    int maps = 0, good = 0;
    nb_err err;
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        char sub[1024];
        snprintf(sub, sizeof sub, "%s/%s", root, sets[s]);
        DIR *d = opendir(sub);
        for (struct dirent *e; d && (e = readdir(d));) {
            size_t n = strlen(e->d_name);
            if (n < 5 || strcmp(e->d_name + n - 4, ".map") != 0)
                continue;
            char path[2048];
            snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
            nbb_grid g;
            maps++;
            if (nbb_map_read(path, &legend, 1, &g, &err) != NB_OK) {
                diag("%s", err.msg);
                continue;
            }
            const char *bin = tu_path(dir, "shared.nbk"), *db = tu_path(dir, "shared.sqlite");
            const char *back = tu_path(dir, "shared-back.nbk");
            int z = maps % 2;
            int fine = tu_write_level(bin, &legend, &agents, &g, z, &err) == NB_OK &&
                       convert(bin, db, NBB_FORMAT_AUTO, &err) == NB_OK &&
                       convert(db, back, NBB_FORMAT_AUTO, &err) == NB_OK && same_file(bin, back);
            /* The map's rows are the map file's own lines. */
            if (fine) {
                size_t len;
                char *text = tu_read(path, &len);
                char *body = text;
                for (int line = 0; line < 4 && body; line++)
                    body = strchr(body, '\n') ? strchr(body, '\n') + 1 : NULL;
                sqlite3 *h;
                sqlite3_stmt *q;
                sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL);
                sqlite3_prepare_v2(h, "SELECT cells FROM map_rows ORDER BY y", -1, &q, NULL);
                while (fine && body && sqlite3_step(q) == SQLITE_ROW) {
                    const char *cells = (const char *)sqlite3_column_text(q, 0);
                    size_t cl = strlen(cells);
                    fine = strncmp(body, cells, cl) == 0 && (body[cl] == '\n' || body[cl] == '\r');
                    body = strchr(body, '\n') ? strchr(body, '\n') + 1 : NULL;
                }
                sqlite3_finalize(q);
                sqlite3_close(h);
                free(text);
            }
            if (!fine)
                diag("%s: %s", path, err.msg);
            good += fine;
            nbb_grid_free(&g);
        }
        if (d)
            closedir(d);
    }
    ok(maps > 0 && good == maps,
       "%d shared maps (half with a zlib map): both ways byte for byte, and map_rows is each map "
       "file's text",
       maps);
}

/* ---- the same bundle ---- */

static int same_bundle(const nb_bundle *a, const nb_bundle *b)
{
    if (a->size != b->size || memcmp(a->data, b->data, (size_t)a->size) != 0)
        return 0;
    if (nb_bundle_section_count(a) != nb_bundle_section_count(b) ||
        nb_agent_count(a) != nb_agent_count(b) || nb_terrain_count(a) != nb_terrain_count(b))
        return 0;
    for (size_t i = 0; i < nb_bundle_section_count(a); i++) {
        const void *pa, *pb;
        size_t la, lb;
        if (memcmp(nb_bundle_section_get(a, i), nb_bundle_section_get(b, i), sizeof(nb_section_info)) != 0)
            return 0;
        nb_status sa = nb_bundle_payload(a, i, &pa, &la, NULL);
        nb_status sb = nb_bundle_payload(b, i, &pb, &lb, NULL);
        if (sa != sb || (sa == NB_OK && (la != lb || memcmp(pa, pb, la) != 0)))
            return 0;
    }
    for (size_t i = 0; i < nb_agent_count(a); i++)
        if (memcmp(nb_agent_get(a, i), nb_agent_get(b, i), sizeof(nb_agent)) != 0)
            return 0;
    for (long y = -1; y <= (long)nb_map_height(a); y++)
        for (long x = -1; x <= (long)nb_map_width(a); x++)
            if (nb_map_terrain(a, x, y) != nb_map_terrain(b, x, y) ||
                nb_map_char(a, x, y) != nb_map_char(b, x, y))
                return 0;
    return 1;
}

static void test_open_same(void)
{
    nb_err err;
    const char *bin = tu_path(dir, "same.nbk"), *db = tu_path(dir, "same.db");
    tu_write_level(bin, &legend, &agents, &grid, 1, &err);
    convert(bin, db, NBB_FORMAT_AUTO, &err);
    nb_bundle *a, *b, *m;
    nb_status sa = nb_bundle_open(bin, NB_OPEN_VERIFY, NULL, &a, &err);
    nb_status sb = nb_bundle_open(db, NB_OPEN_VERIFY, NULL, &b, &err);
    if (sb != NB_OK)
        diag("%s", err.msg);
    ok(sa == NB_OK && sb == NB_OK, "both forms open and verify");
    if (sa != NB_OK || sb != NB_OK)
        return;
    ok(nb_bundle_form_of(a) == NB_FORM_BINARY && nb_bundle_form_of(b) == NB_FORM_SQLITE,
       "each says its form");
    size_t dblen;
    char *dbbytes = tu_read(db, &dblen);
    is_int((long long)nb_bundle_file_size(b), (long long)dblen, "the file size is the database's");
    ok(same_bundle(a, b), "the SQLite form opens as the same bundle: image, sections, payloads, "
                          "agents, every cell");
    ok(nb_bundle_verify(b, &err) == NB_OK, "nb_bundle_verify passes on it");
    nb_status sm = nb_bundle_open_memory(dbbytes, dblen, NB_OPEN_VERIFY, NULL, &m, &err);
#ifdef HAVE_SQLITE3_DESERIALIZE
    ok(sm == NB_OK && same_bundle(a, m) && nb_bundle_form_of(m) == NB_FORM_SQLITE,
       "and from memory too");
    if (sm == NB_OK)
        nb_bundle_close(m);
#else
    ok(sm == NB_ERR_UNSUPPORTED, "from memory: unsupported by this SQLite, said so");
#endif
    free(dbbytes);
    nb_bundle_close(a);
    nb_bundle_close(b);

    /* A tool updating an SQLite bundle: load, replace a section, write. */
    nbb_builder *w;
    nbb_builder_new(&w, &err);
    sa = nbb_builder_load(w, db, 0, &err);
    nbb_grid g;
    tu_rng r = {99};
    tu_random_grid(&r, 20, 10, 10, 4, &g);
    nbb_put_level(w, &legend, &agents, &g, 0, &err);
    sb = nbb_builder_write(w, db, &err);
    nbb_builder_free(w);
    sa = sa == NB_OK && sb == NB_OK ? nb_bundle_open(db, NB_OPEN_VERIFY, NULL, &b, &err) : NB_ERR_ARG;
    ok(sa == NB_OK && nb_map_width(b) == 20 && nb_map_height(b) == 10 &&
           nb_bundle_form_of(b) == NB_FORM_SQLITE,
       "a tool loads an SQLite bundle, replaces its map and writes it back by name");
    if (sa == NB_OK)
        nb_bundle_close(b);
    nbb_grid_free(&g);

    ok(nbb_format_for_path("a.sqlite") == NBB_FORMAT_SQLITE &&
           nbb_format_for_path("dir/LEVEL.DB") == NBB_FORMAT_SQLITE &&
           nbb_format_for_path("x.sqlite3") == NBB_FORMAT_SQLITE &&
           nbb_format_for_path("x.nbk") == NBB_FORMAT_BINARY &&
           nbb_format_for_path("x.db.nbk") == NBB_FORMAT_BINARY &&
           nbb_format_for_path("dir/.db") == NBB_FORMAT_BINARY &&
           nbb_format_for_path("-") == NBB_FORMAT_BINARY,
       "the form by name: .sqlite, .sqlite3, .db in any case; anything else binary");
}

/* ---- the tables people query ---- */

static long long query_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *q;
    long long v = -999;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return v;
}

static void test_tables(void)
{
    nb_err err;
    const char *bin = tu_path(dir, "tables.nbk"), *db = tu_path(dir, "tables.sqlite");
    tu_write_level(bin, &legend, &agents, &grid, 0, &err);
    convert(bin, db, NBB_FORMAT_AUTO, &err);
    nb_bundle *b;
    nb_bundle_open(bin, 0, NULL, &b, &err);
    sqlite3 *h;
    sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL);

    /* The map file's characters, counted from its text. */
    size_t len;
    char *text = tu_read(tu_src("data/sample.map"), &len);
    long long count[256] = {0};
    char *body = text;
    for (int line = 0; line < 4; line++)
        body = strchr(body, '\n') + 1;
    for (char *c = body; *c; c++)
        if (*c != '\n' && *c != '\r')
            count[(unsigned char)*c]++;
    free(text);
    int fine = 1;
    for (unsigned c = 33; c < 127; c++) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM map_cells WHERE char = '%c'", c);
        if (c != '\'' && query_int(h, sql) != count[c]) {
            diag("character %c: %lld cells in map_cells, %lld in the map file", c,
                 query_int(h, sql), count[c]);
            fine = 0;
        }
    }
    ok(fine, "map_cells has each character as often as the map file");
    fine = 1;
    for (unsigned t = 0; t < legend.nterrains; t++) {
        long long want = 0;
        for (const char *c = legend.chars[t]; *c; c++)
            want += count[(unsigned char)*c];
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM map_cells WHERE terrain = %u", t);
        fine &= query_int(h, sql) == want;
    }
    long long obstacles = count['@'] + count['O'];
    ok(fine && query_int(h, "SELECT count(*) FROM map_cells WHERE terrain IS NULL") == obstacles,
       "and each terrain, obstacles (terrain NULL) included");
    is_int(query_int(h, "SELECT count(*) FROM map_cells"), (long long)grid.width * grid.height,
           "one map_cells row per cell");
    fine = 1;
    tu_rng r = {5};
    for (int i = 0; i < 50; i++) {
        long x = tu_below(&r, grid.width), y = tu_below(&r, grid.height);
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT coalesce(terrain, -1) FROM map_cells WHERE x = %ld AND y = %ld", x, y);
        fine &= query_int(h, sql) == nb_map_terrain(b, x, y);
    }
    ok(fine, "50 random cells: map_cells' terrain is the runtime's");
    ok(query_int(h, "SELECT width FROM map") == grid.width &&
           query_int(h, "SELECT height FROM map") == grid.height &&
           query_int(h, "SELECT value FROM section_params WHERE name = 'width'") == grid.width,
       "map and section_params give the size");

    fine = query_int(h, "SELECT count(*) FROM agents") == (long long)nb_agent_count(b);
    for (size_t i = 0; i < nb_agent_count(b); i++) {
        const nb_agent *a = nb_agent_get(b, i);
        char sql[256], caps[256];
        snprintf(sql, sizeof sql,
                 "SELECT count(*) FROM agents WHERE id = %zu AND name = '%s' AND size = %u AND "
                 "capability = %u",
                 i, a->name, a->size, a->capability);
        fine &= query_int(h, sql) == 1;
        nb_capability_format(b, a->capability, caps, sizeof caps);
        snprintf(sql, sizeof sql, "SELECT count(*) FROM capabilities WHERE mask = %u AND terrains = '%s'",
                 a->capability, caps);
        fine &= query_int(h, sql) == 1;
        snprintf(sql, sizeof sql, "SELECT count(*) FROM agent_terrains WHERE agent = '%s'", a->name);
        fine &= query_int(h, sql) == (int)nbp_popcount32(a->capability);
    }
    ok(fine, "agents, capabilities and agent_terrains agree with the runtime's agent set");
    fine = query_int(h, "SELECT count(*) FROM terrains") == nb_terrain_count(b);
    for (unsigned t = 0; t < nb_terrain_count(b); t++) {
        char sql[256];
        snprintf(sql, sizeof sql, "SELECT count(*) FROM terrains WHERE id = %u AND name = '%s' AND chars = '%s'",
                 t, nb_terrain_name(b, t), nb_terrain_chars(b, t));
        fine &= query_int(h, sql) == 1;
    }
    ok(fine, "terrains agree with the legend");
    ok(query_int(h, "SELECT count(*) FROM section_list WHERE type = 'map' AND params = 'width=64 height=40 bits=4'") == 1,
       "section_list shows the map's parameters by name");
    sqlite3_close(h);
    nb_bundle_close(b);
}

static void test_schema(void)
{
    nb_err err;
    const char *bin = tu_path(dir, "schema.nbk"), *db = tu_path(dir, "schema.sqlite");
    const char *fresh = tu_path(dir, "fresh.sqlite");
    tu_write_level(bin, &legend, &agents, &grid, 0, &err);
    convert(bin, db, NBB_FORMAT_AUTO, &err);
    char *sql = tu_read(tu_src("formats/sqlite.sql"), NULL);
    ok(sql && db_exec(fresh, sql) == SQLITE_OK, "formats/sqlite.sql runs in the sqlite3 library");
    free(sql);
    /* The schema lines of both: everything db_rows prints before rows. */
    char *a = db_rows(db), *b = db_rows(fresh);
    char sa[1 << 14] = "", sb[1 << 14] = "";
    for (char *line = strtok(a, "\n"); line; line = strtok(NULL, "\n"))
        if (line[0] != ' ' && strlen(sa) + strlen(line) + 2 < sizeof sa)
            strcat(strcat(sa, line), "\n");
    for (char *line = strtok(b, "\n"); line; line = strtok(NULL, "\n"))
        if (line[0] != ' ' && strlen(sb) + strlen(line) + 2 < sizeof sb)
            strcat(strcat(sb, line), "\n");
    is_str(sa, sb, "a written database has exactly the schema and pragmas of formats/sqlite.sql");
    like(sa, "pragmas 1312967507 1002", "application_id 0x4E424B53 and user_version 1002");
    free(a);
    free(b);
}

/* ---- bad databases ---- */

/* A fresh copy of a good SQLite bundle, damaged by sql; returns the status
 * of opening it (with flags) and leaves the message in err. */
static nb_status damaged(const char *sql, unsigned flags, nb_err *err)
{
    const char *good = tu_path(dir, "good.sqlite"), *bad = tu_path(dir, "bad.sqlite");
    size_t len;
    char *bytes = tu_read(good, &len);
    tu_write(bad, bytes, len);
    free(bytes);
    int id, at;
    if (sql && sscanf(sql, "FLIP %d %d", &id, &at) == 2) {
        /* One byte of a section's blob, in place: same length. */
        sqlite3 *h;
        sqlite3_blob *blob;
        uint8_t c;
        sqlite3_open(bad, &h);
        sqlite3_blob_open(h, "main", "sections", "data", id, 1, &blob);
        sqlite3_blob_read(blob, &c, 1, at);
        c ^= 0x21;
        sqlite3_blob_write(blob, &c, 1, at);
        sqlite3_blob_close(blob);
        sqlite3_close(h);
    } else if (sql && db_exec(bad, sql) != SQLITE_OK) {
        snprintf(err->msg, sizeof err->msg, "(the damage did not apply: %s)", sql);
        return NB_OK;
    }
    nb_bundle *b;
    nb_status st = nb_bundle_open(bad, flags, NULL, &b, err);
    if (st == NB_OK)
        nb_bundle_close(b);
    return st;
}

static void check_bad(const char *what, const char *sql, unsigned flags, nb_status want,
                      const char *msg)
{
    nb_err err;
    nb_status st = damaged(sql, flags, &err);
    if (strncmp(err.msg, "(the damage did not apply", 25) == 0 && strstr(sql, "VIRTUAL")) {
        skip(1, "%s: this SQLite lacks the module", what);
        return;
    }
    ok(st == want && strstr(err.msg, msg), "%s: %s", what, nb_status_str(want));
    if (st != want || !strstr(err.msg, msg))
        diag("got %s: %s", nb_status_str(st), err.msg);
}

static void test_bad(void)
{
    nb_err err;
    char bin[1024], good[1024]; /* (tu_path's buffers are reused by check_bad) */
    snprintf(bin, sizeof bin, "%s", tu_path(dir, "good.nbk"));
    snprintf(good, sizeof good, "%s", tu_path(dir, "good.sqlite"));
    tu_write_level(bin, &legend, &agents, &grid, 0, &err);
    convert(bin, good, NBB_FORMAT_AUTO, &err);
    nb_bundle *b;

    /* Not SQLite; SQLite's header on something else; another database. */
    tu_write(tu_path(dir, "text.db"), "hello, world\n", 13);
    nb_status st = nb_bundle_open(tu_path(dir, "text.db"), 0, NULL, &b, &err);
    ok(st == NB_ERR_FORMAT && strstr(err.msg, "not a navbake bundle"), "a text file named .db");
    char junk[4096] = "SQLite format 3";
    memset(junk + 16, 0xA5, sizeof junk - 16);
    tu_write(tu_path(dir, "junk.sqlite"), junk, sizeof junk);
    st = nb_bundle_open(tu_path(dir, "junk.sqlite"), 0, NULL, &b, &err);
    ok(st == NB_ERR_FORMAT && strstr(err.msg, "junk.sqlite: has SQLite's header but is not a database"),
       "SQLite's header on junk: FORMAT, said so");
    if (st != NB_ERR_FORMAT)
        diag("%s", err.msg);
    tu_write(tu_path(dir, "short.sqlite"), junk, 15);
    st = nb_bundle_open(tu_path(dir, "short.sqlite"), 0, NULL, &b, &err);
    ok(st == NB_ERR_FORMAT, "SQLite's header alone: FORMAT (%s)", err.msg);
    const char *other = tu_path(dir, "other.sqlite");
    db_exec(other, "CREATE TABLE t (x); INSERT INTO t VALUES (1)");
    st = nb_bundle_open(other, 0, NULL, &b, &err);
    ok(st == NB_ERR_FORMAT && strstr(err.msg, "an SQLite database, but not a navbake bundle") &&
           strstr(err.msg, "application_id is 0x00000000"),
       "another program's database: not a navbake bundle, its application_id named");

    check_bad("a newer schema", "PRAGMA user_version = 2003", 0, NB_ERR_VERSION,
              "SQLite bundle schema version 2.3 (user_version 2003); this reader");
    check_bad("a schema 0.x", "PRAGMA user_version = 7", 0, NB_ERR_VERSION, "schema version 0.7");
    check_bad("a later minor schema is read", "PRAGMA user_version = 1005", 0, NB_OK, "");
    check_bad("the sections table dropped", "DROP TABLE sections", 0, NB_ERR_FORMAT,
              "without its 'sections' table");
    check_bad("the bundle table made a view",
              "ALTER TABLE bundle RENAME TO b2; CREATE VIEW bundle AS SELECT * FROM b2", 0,
              NB_ERR_FORMAT, "without its 'bundle' table");
    check_bad("the sections table made a virtual table",
              "ALTER TABLE sections RENAME TO s2; CREATE VIRTUAL TABLE sections USING "
              "fts4(x)",
              0, NB_ERR_FORMAT, "without its 'sections' table");
    check_bad("two bundle rows", "INSERT INTO bundle SELECT * FROM bundle", 0, NB_ERR_FORMAT,
              "the bundle table has 2 rows, expected 1");
    check_bad("no bundle row", "DELETE FROM bundle", 0, NB_ERR_FORMAT,
              "the bundle table has 0 rows");
    check_bad("the last section missing", "DELETE FROM sections WHERE id = 2", 0, NB_ERR_FORMAT,
              "the bundle row says 3 sections but the sections table holds 2: a section is missing");
    check_bad("a section in the middle missing", "DELETE FROM sections WHERE id = 1", 0,
              NB_ERR_FORMAT, "row with id 2 where id 1 was expected");
    check_bad("a section too many",
              "INSERT INTO sections SELECT 3, 99, version, encoding, stored_size, unpacked_size, "
              "crc32, flags, name, p0, p1, p2, p3, p4, p5, p6, p7, data FROM sections WHERE id = 0",
              0, NB_ERR_FORMAT, "more rows than the 3 the bundle row says");
    check_bad("a parameter edited", "UPDATE sections SET p0 = 65 WHERE id = 2", 0, NB_ERR_CRC,
              "do not match the table checksum of the bundle row");
    check_bad("a section's flags edited", "UPDATE sections SET flags = 1 WHERE id = 0", 0,
              NB_ERR_CRC, "a row was changed");
    check_bad("a negative size", "UPDATE sections SET stored_size = -1 WHERE id = 1", 0,
              NB_ERR_FORMAT, "sections row 1: stored_size is not a whole number");
    check_bad("a version out of range", "UPDATE sections SET version = 70000 WHERE id = 1", 0,
              NB_ERR_FORMAT, "version is not a whole number from 0 to 65535");
    check_bad("a type as text", "UPDATE sections SET type = 'map' WHERE id = 2", 0, NB_ERR_FORMAT,
              "type is not a whole number");
    check_bad("a real for a CRC", "UPDATE bundle SET table_crc32 = 1.5", 0, NB_ERR_FORMAT,
              "bundle.table_crc32 is not a whole number");
    check_bad("a name too long", "UPDATE sections SET name = 'abcdefghijklmnopqrstuvwxyz0123456' WHERE id = 0",
              0, NB_ERR_FORMAT, "its name is not text of at most 31 bytes");
    check_bad("a name as a blob", "UPDATE sections SET name = x'00' WHERE id = 0", 0,
              NB_ERR_FORMAT, "its name is not text");
    check_bad("data as text", "UPDATE sections SET data = 'abc' WHERE id = 1", 0, NB_ERR_FORMAT,
              "section 1 (agents): its data is text of 3 bytes");
    check_bad("data shorter than its size", "UPDATE sections SET data = substr(data, 1, 100) WHERE id = 2",
              0, NB_ERR_FORMAT, "its data is blob of 100 bytes, but stored_size says a blob of 1552");
    /* Same length, one byte changed: the section's CRC. */
    const char *flip = "FLIP 2 999";
    check_bad("a byte of the map changed: verify", flip, NB_OPEN_VERIFY, NB_ERR_CRC,
              "section 2 (map), row id 2 of the sections table: checksum");
    check_bad("a byte of the map changed: open alone reads it, as the binary form does", flip, 0,
              NB_OK, "");
    check_bad("a newer bundle format", "UPDATE bundle SET format_major = 2", 0, NB_ERR_CRC,
              "does not match its header checksum");
    {
        /* A future major version, written consistently: refused by version. */
        size_t blen;
        uint8_t *h = (uint8_t *)tu_read(bin, &blen);
        h[8] = 2;
        char sql[160];
        snprintf(sql, sizeof sql, "UPDATE bundle SET format_major = 2, header_crc32 = %lu",
                 (unsigned long)crc32(0, h, 60));
        check_bad("a newer bundle format, consistent", sql, 0, NB_ERR_VERSION,
                  "bundle format version 2.0; this reader");
        free(h);
    }
    check_bad("the minor version edited", "UPDATE bundle SET format_minor = 3", 0, NB_ERR_CRC,
              "a value was changed");
    check_bad("the header flags edited", "UPDATE bundle SET flags = 1", 0, NB_ERR_CRC,
              "a value was changed");
    check_bad("the table checksum edited", "UPDATE bundle SET table_crc32 = table_crc32 + 1", 0,
              NB_ERR_CRC, "a row was changed");
    check_bad("the human tables changed: the bundle is not", "UPDATE terrains SET name = 'lava'",
              NB_OPEN_VERIFY, NB_OK, "");

    /* A zlib map whose blob is damaged is caught at open, as in binary. */
    tu_write_level(bin, &legend, &agents, &grid, 1, &err);
    convert(bin, good, NBB_FORMAT_AUTO, &err);
    check_bad("a damaged zlib map", "FLIP 2 20", 0, NB_ERR_CRC, "the section is damaged");

    /* A database that is locked by a writer: a clear error, not a hang. */
    tu_write_level(bin, &legend, &agents, &grid, 0, &err);
    convert(bin, good, NBB_FORMAT_AUTO, &err);
    sqlite3 *h;
    sqlite3_open(good, &h);
    sqlite3_exec(h, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE terrains SET id = id",
                 NULL, NULL, NULL);
    time_t t0 = time(NULL);
    st = nb_bundle_open(good, 0, NULL, &b, &err);
    ok(st == NB_ERR_IO && strstr(err.msg, "locked") && time(NULL) - t0 < 10,
       "a database locked by a writer: an I/O error that says so, after a short wait");
    if (st == NB_OK)
        nb_bundle_close(b);
    sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(h);
}

/* Random damage to the database file: each damaged copy is refused, or
 * opens and verifies as exactly the original bundle (a change that missed
 * the bundle: a human table, free space).  Never a crash (ASan watches). */
static void test_random_damage(void)
{
    nb_err err;
    const char *bin = tu_path(dir, "fuzz.nbk"), *db = tu_path(dir, "fuzz.sqlite");
    nbb_grid g;
    tu_rng r = {2024};
    tu_random_grid(&r, 40, 30, 20, 4, &g);
    tu_write_level(bin, &legend, &agents, &g, 0, &err);
    nbb_grid_free(&g);
    convert(bin, db, NBB_FORMAT_AUTO, &err);
    size_t blen, len;
    char *orig_bin = tu_read(bin, &blen);
    uint8_t *orig = (uint8_t *)tu_read(db, &len);
    const char *copy = tu_path(dir, "fuzz-copy.sqlite");
    int refused = 0, same = 0, wrong = 0, trials = 0;
    for (int i = 0; i < 600; i++, trials++) {
        uint8_t *p = malloc(len);
        memcpy(p, orig, len);
        size_t plen = len;
        int kind = (int)tu_below(&r, 4);
        if (kind == 0) { /* a bit anywhere */
            size_t at = tu_below(&r, (uint32_t)len);
            p[at] ^= (uint8_t)(1u << tu_below(&r, 8));
        } else if (kind == 1) { /* a byte in the first page: header and schema */
            p[tu_below(&r, 4096)] = (uint8_t)tu_rand(&r);
        } else if (kind == 2) { /* a run of bytes */
            size_t at = tu_below(&r, (uint32_t)len), n = 1 + tu_below(&r, 64);
            for (size_t k = at; k < at + n && k < len; k++)
                p[k] = (uint8_t)tu_rand(&r);
        } else { /* truncated */
            plen = tu_below(&r, (uint32_t)len);
        }
        tu_write(copy, p, plen);
        nb_bundle *b;
        /* By name and from memory: both readers of the database. */
        for (int how = 0; how < 2; how++) {
            nb_status st = how == 0 ? nb_bundle_open(copy, NB_OPEN_VERIFY, NULL, &b, &err)
                                    : nb_bundle_open_memory(p, plen, NB_OPEN_VERIFY, NULL, &b, &err);
            if (st != NB_OK) {
                refused++;
                if (!err.msg[0])
                    wrong++;
                continue;
            }
            if (b->size == blen && memcmp(b->data, orig_bin, blen) == 0)
                same++;
            else
                wrong++;
            nb_bundle_close(b);
        }
        free(p);
    }
    diag("%d damaged databases, twice each: %d refused, %d read as the same bundle", trials, refused,
         same);
    is_int(wrong, 0, "no damage changes the bundle unnoticed, and every refusal has a message");
    free(orig);
    free(orig_bin);
}

/* ---- atomic writes ---- */

static void test_atomic(void)
{
    nb_err err;
    const char *sub = tu_path(dir, "atomic");
    tu_check_failed_write(sub, "level.sqlite", &legend, &agents, &grid);
    const char *p = tu_path(sub, "level.sqlite");
    size_t before_len = 0, after_len = 0;
    char *before = tu_read(p, &before_len), *after;
    nbb_grid big;
    tu_rng r = {42};
    tu_random_grid(&r, 1000, 1000, 20, 4, &big);

    /* Killed outright at random moments while writing big databases: the
     * target is always a whole database, the old one or the new. */
    const char *newer = tu_path(dir, "newer.sqlite");
    tu_write_level(newer, &legend, &agents, &big, 0, &err);
    size_t new_len;
    char *new_bytes = tu_read(newer, &new_len);
    int whole = 0, kills = 6, status;
    for (int k = 0; k < kills; k++) {
        tu_write(p, before, before_len);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            for (;;)
                tu_write_level(p, &legend, &agents, &big, 0, &err);
        }
        struct timespec ts = {0, (long)(5 + 13 * k) * 1000000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        after = tu_read(p, &after_len);
        whole += after && ((after_len == before_len && memcmp(after, before, before_len) == 0) ||
                           (after_len == new_len && memcmp(after, new_bytes, new_len) == 0));
        free(after);
    }
    is_int(whole, kills, "killed %d times mid-write: the target is always the old or the new database",
           kills);
    tu_system("rm -f '%s'/*.tmp-*", sub);

    /* A polite kill (SIGTERM) is held until the write is done or undone. */
    tu_write(p, before, before_len);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        tu_write_level(p, &legend, &agents, &big, 0, &err);
        _exit(0);
    }
    struct timespec ts = {0, 20 * 1000000L};
    nanosleep(&ts, NULL);
    kill(pid, SIGTERM);
    waitpid(pid, &status, 0);
    ok(tu_count_entries(sub) == 1, "after SIGTERM mid-write, no temporary file is left");
    nb_bundle *b;
    ok(nb_bundle_open(p, NB_OPEN_VERIFY, NULL, &b, &err) == NB_OK, "and the target is a whole bundle");
    nb_bundle_close(b);

    ok(tu_write_level(tu_path(dir, "no/such/dir/x.sqlite"), &legend, &agents, &grid, 0, &err) ==
               NB_ERR_IO &&
           strstr(err.msg, "no/such/dir/x.sqlite"),
       "a write into a missing directory names the path");
    free(before);
    free(new_bytes);
    nbb_grid_free(&big);
}

int main(void)
{
    dir = tu_tmpdir();
    tu_read_sample(&legend, &agents, &grid);
    ok(nb_sqlite_supported(), "the tools' runtime reads SQLite bundles");
    test_sample_round_trips();
    test_unknown_round_trip();
    test_shared_maps();
    test_open_same();
    test_tables();
    test_schema();
    test_bad();
    test_random_damage();
    test_atomic();
    nbb_grid_free(&grid);
    return done_testing();
}
