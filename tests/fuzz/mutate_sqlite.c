/* mutate_sqlite.c: the structure-aware mutator of SQLite bundles
 * (formats/sqlite.md; mutate.h).
 *
 * The database is deserialized into a writable in-memory one.  Most of
 * the time its sections rows become an nbf_bundle, which the binary
 * mutator changes (every layout-aware mutation of mutate_bundle.c), and
 * the rows are written back: each row's columns, its blob and crc32, and
 * the bundle row's section_count, table_crc32 and header_crc32 computed
 * from them as the writer does (nbi_layout_offsets, nbi_layout_head), so
 * the reader's checks behind the checksums are what is tested.  Otherwise
 * the mutation is SQL: a column of a sections row set to a value of the
 * wrong type or range (then, most of the time, the bundle row's checksums
 * computed again so that the value reaches the reader's own checks), a
 * row deleted, renumbered or copied, the bundle row changed, deleted or
 * doubled, the header's application_id or user_version, a table replaced
 * by a view, or a row of a decoded table (which nothing reads back)
 * changed.  Then the database is serialized (vacuumed when it grew past
 * the room there is). */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bundle/bundle.h"
#include "core/base.h"
#include "core/format.h"
#include "mutate.h"

static int exec(sqlite3 *db, const char *sql) { return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK; }

/* The sections rows, in id order, as a bundle; 0 when a row does not read
 * as one (a column of the wrong type, say). */
static int load_rows(sqlite3 *db, nbf_bundle *b)
{
    memset(b, 0, sizeof *b);
    b->major = 1;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT format_major, format_minor, flags FROM bundle", -1, &st, NULL) != SQLITE_OK)
        return 0;
    if (sqlite3_step(st) == SQLITE_ROW) {
        b->major = (unsigned)sqlite3_column_int(st, 0);
        b->minor = (unsigned)sqlite3_column_int(st, 1);
        b->flags = (uint32_t)sqlite3_column_int64(st, 2);
    }
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(db,
                           "SELECT type, version, encoding, unpacked_size, flags, p0, p1, p2, p3, p4, "
                           "p5, p6, p7, name, data FROM sections ORDER BY id",
                           -1, &st, NULL) != SQLITE_OK)
        return 0;
    int ok = 1;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        nbf_section s;
        memset(&s, 0, sizeof s);
        for (int i = 0; i < 15; i++)
            if (sqlite3_column_type(st, i) != (i == 13 ? SQLITE_TEXT : i == 14 ? SQLITE_BLOB : SQLITE_INTEGER) &&
                !(i == 14 && sqlite3_column_bytes(st, i) == 0))
                ok = 0;
        if (!ok)
            break;
        s.info.type = (uint32_t)sqlite3_column_int64(st, 0);
        s.info.version = (uint16_t)sqlite3_column_int64(st, 1);
        s.info.encoding = (uint16_t)sqlite3_column_int64(st, 2);
        s.info.usize = (uint64_t)sqlite3_column_int64(st, 3);
        s.info.flags = (uint32_t)sqlite3_column_int64(st, 4);
        for (int k = 0; k < NB_SECTION_PARAMS; k++)
            s.info.param[k] = (uint32_t)sqlite3_column_int64(st, 5 + k);
        const char *name = (const char *)sqlite3_column_text(st, 13);
        snprintf(s.info.name, sizeof s.info.name, "%s", name ? name : "");
        const void *blob = sqlite3_column_blob(st, 14);
        int n = sqlite3_column_bytes(st, 14);
        if (!nbf_load(&s, blob, (size_t)(n > 0 ? n : 0)) || !nbf_add(b, &s))
            ok = 0;
        free(s.data);
    }
    sqlite3_finalize(st);
    if (!ok)
        nbf_free(b);
    return ok;
}

/* The bundle row's checksums (and section count) for these entries, as the
 * reader recomputes them. */
static int put_bundle_row(sqlite3 *db, const nbf_bundle *b, nb_section_info *info, size_t n)
{
    uint64_t size = nbi_layout_offsets(info, n);
    (void)size;
    uint8_t *head = malloc(NBI_HEADER_SIZE + n * NBI_ENTRY_SIZE);
    if (!head)
        return 0;
    nbi_layout_head(info, n, b->major, b->minor, b->flags, size, head);
    char sql[256];
    snprintf(sql, sizeof sql,
             "UPDATE bundle SET section_count = %zu, table_crc32 = %u, header_crc32 = %u", n,
             (unsigned)nbi_get32(head + NBI_HDR_TABLE_CRC), (unsigned)nbi_get32(head + NBI_HDR_CRC));
    free(head);
    return exec(db, sql);
}

/* Writes b back as the sections rows and the bundle row. */
static int store_rows(sqlite3 *db, const nbf_bundle *b)
{
    size_t n = b->n;
    nb_section_info *info = calloc(n ? n : 1, sizeof *info);
    if (!info || !exec(db, "SAVEPOINT m") || !exec(db, "DELETE FROM sections")) {
        free(info);
        return 0;
    }
    sqlite3_stmt *st = NULL;
    int ok = sqlite3_prepare_v2(db,
                                "INSERT INTO sections (id, type, version, encoding, stored_size, "
                                "unpacked_size, crc32, flags, name, p0, p1, p2, p3, p4, p5, p6, p7, "
                                "data) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
                                "?14, ?15, ?16, ?17, ?18)",
                                -1, &st, NULL) == SQLITE_OK;
    for (size_t i = 0; ok && i < n; i++) {
        uint8_t *owned;
        const uint8_t *stored = nbf_stored(&b->s[i], &info[i], &owned);
        if (!stored) {
            ok = 0;
            break;
        }
        const nb_section_info *in = &info[i];
        sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
        sqlite3_bind_int64(st, 2, in->type);
        sqlite3_bind_int64(st, 3, in->version);
        sqlite3_bind_int64(st, 4, in->encoding);
        sqlite3_bind_int64(st, 5, (sqlite3_int64)in->size);
        sqlite3_bind_int64(st, 6, (sqlite3_int64)in->usize);
        sqlite3_bind_int64(st, 7, in->crc);
        sqlite3_bind_int64(st, 8, in->flags);
        sqlite3_bind_text(st, 9, in->name, -1, SQLITE_TRANSIENT);
        for (int k = 0; k < NB_SECTION_PARAMS; k++)
            sqlite3_bind_int64(st, 10 + k, in->param[k]);
        sqlite3_bind_blob64(st, 18, stored, in->size, SQLITE_TRANSIENT);
        ok = sqlite3_step(st) == SQLITE_DONE;
        sqlite3_reset(st);
        free(owned);
    }
    sqlite3_finalize(st);
    ok = ok && put_bundle_row(db, b, info, n);
    free(info);
    if (ok)
        return exec(db, "RELEASE m");
    exec(db, "ROLLBACK TO m");
    exec(db, "RELEASE m");
    return 0;
}

/* The bundle row's checksums computed again from the rows as they are
 * (when every column reads as a number). */
static void recompute_bundle_row(sqlite3 *db)
{
    nbf_bundle b;
    if (!load_rows(db, &b))
        return;
    nb_section_info *info = calloc(b.n ? b.n : 1, sizeof *info);
    sqlite3_stmt *st;
    if (info && sqlite3_prepare_v2(db,
                                   "SELECT type, version, encoding, stored_size, unpacked_size, crc32, "
                                   "flags, p0, p1, p2, p3, p4, p5, p6, p7, name FROM sections ORDER BY id",
                                   -1, &st, NULL) == SQLITE_OK) {
        size_t i = 0;
        while (i < b.n && sqlite3_step(st) == SQLITE_ROW) {
            nb_section_info *in = &info[i++];
            in->type = (uint32_t)sqlite3_column_int64(st, 0);
            in->version = (uint16_t)sqlite3_column_int64(st, 1);
            in->encoding = (uint16_t)sqlite3_column_int64(st, 2);
            in->size = (uint64_t)sqlite3_column_int64(st, 3);
            in->usize = (uint64_t)sqlite3_column_int64(st, 4);
            in->crc = (uint32_t)sqlite3_column_int64(st, 5);
            in->flags = (uint32_t)sqlite3_column_int64(st, 6);
            for (int k = 0; k < NB_SECTION_PARAMS; k++)
                in->param[k] = (uint32_t)sqlite3_column_int64(st, 7 + k);
            const char *name = (const char *)sqlite3_column_text(st, 15);
            snprintf(in->name, sizeof in->name, "%s", name ? name : "");
        }
        sqlite3_finalize(st);
        put_bundle_row(db, &b, info, i);
    }
    free(info);
    nbf_free(&b);
}

static const char *const columns[] = {"id", "type", "version", "encoding", "stored_size",
                                      "unpacked_size", "crc32", "flags", "name", "p0", "p1", "p2",
                                      "p3", "p4", "p5", "p6", "p7", "data"};
static const char *const values[] = {"NULL", "-1", "0", "1", "65535", "65536", "4294967295",
                                     "4294967296", "9223372036854775807", "-9223372036854775808",
                                     "1.5", "'7'", "'text'", "x'00'", "zeroblob(64)", "''",
                                     "'a\"b\\c'", "'0123456789012345678901234567890123'",
                                     "substr(data, 2)", "data || x'00'", "char(0)"};
static const char *const decoded[] = {"terrains", "map_chars", "capabilities", "capability_terrains",
                                      "agents", "map", "map_rows", "section_types", "encodings",
                                      "section_param_names"};

/* One change made in SQL; 0 when it did not apply. */
static int sql_mutation(sqlite3 *db, nbf_rng *r)
{
    char sql[512];
    sqlite3_int64 n = 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sections", -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    long k = (long)nbf_below(r, (uint64_t)(n > 0 ? n : 1));
    int recompute = nbf_chance(r, 70);
    switch (nbf_below(r, 16)) {
    case 0:
    case 1:
    case 2:
    case 3:
        snprintf(sql, sizeof sql, "UPDATE sections SET %s = %s WHERE id = %ld",
                 columns[nbf_below(r, sizeof columns / sizeof *columns)],
                 values[nbf_below(r, sizeof values / sizeof *values)], k);
        break;
    case 4: snprintf(sql, sizeof sql, "DELETE FROM sections WHERE id = %ld", k); break;
    case 5: snprintf(sql, sizeof sql, "UPDATE sections SET id = id + %d WHERE id = %ld", nbf_chance(r, 50) ? 1000 : -1, k); break;
    case 6:
        snprintf(sql, sizeof sql,
                 "INSERT INTO sections SELECT %lld, type, version, encoding, stored_size, "
                 "unpacked_size, crc32, flags, name, p0, p1, p2, p3, p4, p5, p6, p7 + 1, data "
                 "FROM sections WHERE id = %ld",
                 (long long)n, k);
        break;
    case 7: {
        static const char *const b[] = {"format_major = 2", "format_minor = 7", "flags = 1",
                                        "section_count = section_count + 1", "section_count = -1",
                                        "table_crc32 = 'x'", "header_crc32 = NULL", "format_major = 1.0"};
        snprintf(sql, sizeof sql, "UPDATE bundle SET %s", b[nbf_below(r, 8)]);
        recompute = recompute && nbf_chance(r, 50);
        break;
    }
    case 8: snprintf(sql, sizeof sql, nbf_chance(r, 50) ? "DELETE FROM bundle" : "INSERT INTO bundle SELECT * FROM bundle"); recompute = 0; break;
    case 9: {
        static const char *const p[] = {"PRAGMA user_version = 2000", "PRAGMA user_version = 1001",
                                        "PRAGMA user_version = 999", "PRAGMA application_id = 0",
                                        "PRAGMA application_id = 1312967508"};
        snprintf(sql, sizeof sql, "%s", p[nbf_below(r, 5)]);
        break;
    }
    case 10:
        snprintf(sql, sizeof sql, "%s", nbf_chance(r, 50)
                     ? "ALTER TABLE sections RENAME TO sections_t; CREATE VIEW sections AS SELECT * FROM sections_t"
                     : "ALTER TABLE bundle RENAME TO bundle_t; CREATE VIEW bundle AS SELECT * FROM bundle_t");
        recompute = 0;
        break;
    case 11: snprintf(sql, sizeof sql, "DROP TABLE %s", nbf_chance(r, 50) ? "bundle" : "sections"); recompute = 0; break;
    case 12:
        /* the same bytes under another encoding, or sizes that disagree */
        snprintf(sql, sizeof sql, "UPDATE sections SET %s WHERE id = %ld",
                 nbf_chance(r, 50) ? "unpacked_size = stored_size + 1" : "encoding = (encoding | 256) - (encoding & 256)", k);
        break;
    default: {
        const char *t = decoded[nbf_below(r, sizeof decoded / sizeof *decoded)];
        snprintf(sql, sizeof sql,
                 nbf_chance(r, 50) ? "DELETE FROM %s WHERE rowid IN (SELECT rowid FROM %s LIMIT 1)"
                                   : "UPDATE %s SET rowid = rowid + 100 WHERE rowid IN (SELECT rowid FROM %s LIMIT 1)",
                 t, t);
        recompute = 0;
        break;
    }
    }
    if (!exec(db, sql))
        return 0;
    if (recompute)
        recompute_bundle_row(db);
    return 1;
}

size_t nbf_mutate_sqlite(uint8_t *data, size_t size, size_t max_size, unsigned seed,
                         nbf_bytes_fn bytes)
{
    static const char magic[] = "SQLite format 3";
    if (size < 100 || memcmp(data, magic, sizeof magic) != 0)
        return bytes ? bytes(data, size, max_size) : size;
    nbf_rng r;
    nbf_seed(&r, seed);
    sqlite3 *db = NULL;
    size_t out = 0;
    unsigned char *copy = sqlite3_malloc64(size);
    if (!copy)
        return size;
    memcpy(copy, data, size);
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK ||
        sqlite3_deserialize(db, "main", copy, (sqlite3_int64)size, (sqlite3_int64)size,
                            SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) != SQLITE_OK) {
        sqlite3_close(db);
        return bytes ? bytes(data, size, max_size) : size;
    }
    int done = 0;
    if (nbf_chance(&r, 80)) {
        nbf_bundle b;
        if (load_rows(db, &b)) {
            nbf_mutate(&b, &r, bytes, max_size);
            nbf_fix(&b, &r);
            done = store_rows(db, &b);
            nbf_free(&b);
        }
    }
    for (int tries = 0; !done && tries < 4; tries++)
        done = sql_mutation(db, &r);
    if (done) {
        for (int pass = 0; pass < 2 && !out; pass++) {
            sqlite3_int64 sz = 0;
            unsigned char *ser = sqlite3_serialize(db, "main", &sz, 0);
            if (ser && sz > 0 && (uint64_t)sz <= max_size) {
                memcpy(data, ser, (size_t)sz);
                out = (size_t)sz;
            }
            sqlite3_free(ser);
            if (!out && !exec(db, "VACUUM"))
                break;
        }
    }
    sqlite3_close(db);
    if (!out)
        out = bytes ? bytes(data, size, max_size) : size;
    return out;
}
