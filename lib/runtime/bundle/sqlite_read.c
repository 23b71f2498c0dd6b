/* sqlite_read.c: opening a bundle held in an SQLite database
 * (formats/sqlite.md).
 *
 * The database's `bundle` row and `sections` rows are what the binary
 * form's header and section table hold, and each row's blob is a section's
 * stored bytes.  They are read into the binary image of the same bundle,
 * laid out as the writer lays it out, so that everything after (the
 * structure checks, decoding, verify, every query) is the binary path and
 * an SQLite bundle behaves exactly as its binary form.  The price is a copy
 * of every section, which is why the binary form is the one to ship.
 *
 * The database is untrusted: only its two tables are read, after checking
 * that they are tables (a view could run anything), every value's type and
 * range is checked before use, and the rows must give the binary header
 * and section table whose checksums the writer recorded, so that an
 * edited, added or lost row is caught. */
#include "config.h"

#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "bundle/bundle.h"
#include "bundle/osfile.h"

int nb_sqlite_supported(void) { return 1; }

typedef struct reader {
    nb_bundle *b;
    sqlite3 *db;
    nb_err *err;
} reader;

/* An SQLite failure as a status and a message that says what was being
 * done. */
static nb_status db_fail(reader *r, int rc, const char *what)
{
    const char *msg = r->db ? sqlite3_errmsg(r->db) : sqlite3_errstr(rc);
    switch (rc & 0xff) {
    case SQLITE_NOTADB:
        return nbi_fail(r->err, NB_ERR_FORMAT,
                        "%s: has SQLite's header but is not a database SQLite can read (%s)",
                        r->b->path, msg);
    case SQLITE_CORRUPT:
        return nbi_fail(r->err, NB_ERR_FORMAT, "%s: %s: the database is damaged (%s)", r->b->path,
                        what, msg);
    case SQLITE_NOMEM:
        return nbi_fail(r->err, NB_ERR_NOMEM, "%s: %s: out of memory", r->b->path, what);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return nbi_fail(r->err, NB_ERR_IO, "%s: %s: the database is locked by another writer (%s)",
                        r->b->path, what, msg);
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_PERM:
    case SQLITE_READONLY:
        return nbi_fail(r->err, NB_ERR_IO, "%s: %s: %s", r->b->path, what, msg);
    }
    return nbi_fail(r->err, NB_ERR_FORMAT, "%s: %s: %s", r->b->path, what, msg);
}

static nb_status open_db(reader *r)
{
    nb_bundle *b = r->b;
    int rc;
    if (b->from_file) {
        /* A file by its name, so that SQLite sees its journal and locks.  A
         * name SQLite could take for a URI is made plainly a path. */
        size_t n = strlen(b->path);
        char *name = nbi_alloc(b->a, n + 3);
        if (!name)
            return nbi_fail(r->err, NB_ERR_NOMEM, "%s: no memory", b->path);
        snprintf(name, n + 3, "%s%s", strncmp(b->path, "file:", 5) == 0 ? "./" : "", b->path);
        rc = sqlite3_open_v2(name, &r->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
        nbi_free(b->a, name);
        if (rc != SQLITE_OK)
            return db_fail(r, rc, "cannot open the database");
    } else {
#ifdef HAVE_SQLITE3_DESERIALIZE
        rc = sqlite3_open_v2(":memory:", &r->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
        if (rc == SQLITE_OK)
            rc = sqlite3_deserialize(r->db, "main", (unsigned char *)b->data, (sqlite3_int64)b->size,
                                     (sqlite3_int64)b->size, SQLITE_DESERIALIZE_READONLY);
        if (rc != SQLITE_OK)
            return db_fail(r, rc, "cannot read the database from memory");
#else
        return nbi_fail(r->err, NB_ERR_UNSUPPORTED,
                        "%s: an SQLite bundle in memory or on a pipe needs SQLite 3.36 or later "
                        "(sqlite3_deserialize); open the file by its name",
                        b->path);
#endif
    }
    /* Defences for a database from anywhere (SQLite's own advice). */
    sqlite3_db_config(r->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
    sqlite3_db_config(r->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
#endif
    sqlite3_busy_timeout(r->db, 2000);
    return NB_OK;
}

/* The single integer a statement gives (a PRAGMA), or -1 with *rc set. */
static sqlite3_int64 one_int(reader *r, const char *sql, int *rc)
{
    sqlite3_stmt *st;
    sqlite3_int64 v = -1;
    *rc = sqlite3_prepare_v2(r->db, sql, -1, &st, NULL);
    if (*rc != SQLITE_OK)
        return -1;
    *rc = sqlite3_step(st);
    if (*rc == SQLITE_ROW) {
        v = sqlite3_column_int64(st, 0);
        *rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    return v;
}

static nb_status check_identity(reader *r, unsigned flags)
{
    nb_bundle *b = r->b;
    int rc;
    sqlite3_int64 app = one_int(r, "PRAGMA application_id", &rc);
    if (rc != SQLITE_OK)
        return db_fail(r, rc, "cannot read the database header");
    if (app != NBI_SQLITE_APPLICATION_ID)
        return nbi_fail(r->err, NB_ERR_FORMAT,
                        "%s: an SQLite database, but not a navbake bundle (its application_id is "
                        "0x%08llx; a navbake bundle's is 0x%08x)",
                        b->path, (unsigned long long)(uint32_t)app, NBI_SQLITE_APPLICATION_ID);
    sqlite3_int64 v = one_int(r, "PRAGMA user_version", &rc);
    if (rc != SQLITE_OK)
        return db_fail(r, rc, "cannot read the database header");
    if (v / 1000 != NBI_SQLITE_SCHEMA / 1000)
        return nbi_fail(r->err, NB_ERR_VERSION,
                        "%s: SQLite bundle schema version %lld.%lld (user_version %lld); this reader "
                        "(navbake %s) reads schema version %d.x only",
                        b->path, (long long)(v / 1000), (long long)(v % 1000), (long long)v,
                        NB_VERSION_STRING, NBI_SQLITE_SCHEMA / 1000);
    if (flags & NB_OPEN_VERIFY) {
        sqlite3_stmt *st;
        rc = sqlite3_prepare_v2(r->db, "PRAGMA quick_check(1)", -1, &st, NULL);
        if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            const char *res = (const char *)sqlite3_column_text(st, 0);
            if (!res || strcmp(res, "ok") != 0) {
                nbi_fail(r->err, NB_ERR_CRC, "%s: SQLite's quick_check: %s: the database is damaged",
                         b->path, res ? res : "no answer");
                sqlite3_finalize(st);
                return NB_ERR_CRC;
            }
            rc = SQLITE_OK;
        }
        sqlite3_finalize(st);
        if (rc != SQLITE_OK)
            return db_fail(r, rc, "quick_check");
    }
    /* Only tables are read: a view or a virtual table (rootpage 0) in
     * their place could run any query or any module. */
    static const char *const tables[] = {"bundle", "sections"};
    for (size_t i = 0; i < 2; i++) {
        sqlite3_stmt *st;
        rc = sqlite3_prepare_v2(r->db, "SELECT type FROM sqlite_master WHERE name = ?1 AND rootpage > 0", -1, &st, NULL);
        if (rc != SQLITE_OK)
            return db_fail(r, rc, "cannot read the schema");
        sqlite3_bind_text(st, 1, tables[i], -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
        int is_table = rc == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT &&
                       strcmp((const char *)sqlite3_column_text(st, 0), "table") == 0;
        sqlite3_finalize(st);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return db_fail(r, rc, "cannot read the schema");
        if (!is_table)
            return nbi_fail(r->err, NB_ERR_FORMAT,
                            "%s: a navbake database without its '%s' table: damaged, or not "
                            "written by navbake",
                            b->path, tables[i]);
    }
    return NB_OK;
}

/* Column i of a row as an integer in [0, max], or -1 (wrong type or range). */
static int64_t col_uint(sqlite3_stmt *st, int i, uint64_t max)
{
    if (sqlite3_column_type(st, i) != SQLITE_INTEGER)
        return -1;
    sqlite3_int64 v = sqlite3_column_int64(st, i);
    return v < 0 || (uint64_t)v > max ? -1 : (int64_t)v;
}

typedef struct head_row {
    unsigned major, minor;
    uint32_t flags, table_crc, header_crc;
    size_t count;
} head_row;

static nb_status read_bundle_row(reader *r, head_row *h)
{
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(
        r->db,
        "SELECT format_major, format_minor, flags, section_count, table_crc32, header_crc32 "
        "FROM bundle",
        -1, &st, NULL);
    if (rc != SQLITE_OK)
        return db_fail(r, rc, "cannot read the bundle table");
    size_t rows = 0;
    int64_t v[6] = {0};
    static const uint64_t max[6] = {0xffff,           0xffff,      0xffffffffu,
                                    NBI_MAX_SECTIONS, 0xffffffffu, 0xffffffffu};
    int bad = -1;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (rows++ == 0)
            for (int i = 0; i < 6; i++)
                if ((v[i] = col_uint(st, i, max[i])) < 0 && bad < 0)
                    bad = i;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(r, rc, "cannot read the bundle table");
    if (rows != 1)
        return nbi_fail(r->err, NB_ERR_FORMAT, "%s: the bundle table has %zu rows, expected 1",
                        r->b->path, rows);
    static const char *const names[6] = {"format_major", "format_minor", "flags",
                                         "section_count", "table_crc32", "header_crc32"};
    if (bad >= 0)
        return nbi_fail(r->err, NB_ERR_FORMAT,
                        "%s: bundle.%s is not a whole number from 0 to %llu", r->b->path, names[bad],
                        (unsigned long long)max[bad]);
    h->major = (unsigned)v[0];
    h->minor = (unsigned)v[1];
    h->flags = (uint32_t)v[2];
    h->count = (size_t)v[3];
    h->table_crc = (uint32_t)v[4];
    h->header_crc = (uint32_t)v[5];
    return NB_OK;
}

#define NCOLS (10 + NB_SECTION_PARAMS)

/* Reads the sections rows' fields (not their blobs) into secs, in id
 * order, checking each. */
static nb_status read_section_rows(reader *r, const head_row *h, nb_section_info *secs,
                                   int64_t *rowids)
{
    const char *path = r->b->path;
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(
        r->db,
        "SELECT id, type, version, encoding, stored_size, unpacked_size, crc32, flags, "
        "p0, p1, p2, p3, p4, p5, p6, p7, name, length(data), typeof(data) FROM sections ORDER BY id",
        -1, &st, NULL);
    if (rc != SQLITE_OK)
        return db_fail(r, rc, "cannot read the sections table");
    static const char *const names[16] = {"id", "type", "version", "encoding", "stored_size",
                                          "unpacked_size", "crc32", "flags", "p0", "p1", "p2",
                                          "p3", "p4", "p5", "p6", "p7"};
    static const uint64_t max[16] = {INT64_MAX, 0xffffffffu, 0xffff, 0xffff, INT64_MAX, INT64_MAX,
                                     0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                                     0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                                     0xffffffffu, 0xffffffffu};
    nb_status res = NB_OK;
    size_t n = 0;
    while (res == NB_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (n == h->count) {
            res = nbi_fail(r->err, NB_ERR_FORMAT,
                           "%s: the sections table has more rows than the %zu the bundle row says",
                           path, h->count);
            break;
        }
        int64_t v[16];
        for (int i = 0; i < 16 && res == NB_OK; i++)
            if ((v[i] = col_uint(st, i, max[i])) < 0)
                res = nbi_fail(r->err, NB_ERR_FORMAT,
                               "%s: sections row %zu: %s is not a whole number from 0 to %llu", path,
                               n, names[i], (unsigned long long)max[i]);
        if (res != NB_OK)
            break;
        nb_section_info *in = &secs[n];
        memset(in, 0, sizeof *in);
        rowids[n] = v[0];
        in->type = (uint32_t)v[1];
        in->version = (uint16_t)v[2];
        in->encoding = (uint16_t)v[3];
        in->size = (uint64_t)v[4];
        in->usize = (uint64_t)v[5];
        in->crc = (uint32_t)v[6];
        in->flags = (uint32_t)v[7];
        for (int k = 0; k < NB_SECTION_PARAMS; k++)
            in->param[k] = (uint32_t)v[8 + k];
        const char *tn = nbi_type_name(r->b, in->type);
        if (v[0] != (int64_t)n) {
            res = nbi_fail(r->err, NB_ERR_FORMAT,
                           "%s: sections row with id %lld where id %zu was expected: the ids run "
                           "from 0 without a gap, so a section is missing",
                           path, (long long)v[0], n);
            break;
        }
        const unsigned char *name = sqlite3_column_text(st, 16);
        int name_len = sqlite3_column_bytes(st, 16);
        if (sqlite3_column_type(st, 16) != SQLITE_TEXT || name_len > NB_NAME_MAX ||
            strlen((const char *)name) != (size_t)name_len) {
            res = nbi_fail(r->err, NB_ERR_FORMAT,
                           "%s: section %zu (%s): its name is not text of at most %d bytes", path, n,
                           tn ? tn : "unknown type", NB_NAME_MAX);
            break;
        }
        memcpy(in->name, name, (size_t)name_len);
        const char *kind = (const char *)sqlite3_column_text(st, 18);
        if (!kind || strcmp(kind, "blob") != 0 ||
            (uint64_t)sqlite3_column_int64(st, 17) != in->size) {
            res = nbi_fail(r->err, NB_ERR_FORMAT,
                           "%s: section %zu (%s): its data is %s of %lld bytes, but stored_size says "
                           "a blob of %llu",
                           path, n, tn ? tn : "unknown type", kind ? kind : "?",
                           (long long)sqlite3_column_int64(st, 17), (unsigned long long)in->size);
            break;
        }
        n++;
    }
    if (res == NB_OK && rc != SQLITE_DONE)
        res = db_fail(r, rc, "cannot read the sections table");
    sqlite3_finalize(st);
    if (res == NB_OK && n != h->count)
        res = nbi_fail(r->err, NB_ERR_FORMAT,
                       "%s: the bundle row says %zu sections but the sections table holds %zu: a "
                       "section is missing",
                       path, h->count, n);
    return res;
}

/* Copies each section's blob into its place in the image. */
static nb_status read_blobs(reader *r, const nb_section_info *secs, const int64_t *rowids, size_t n,
                            uint8_t *image)
{
    for (size_t i = 0; i < n; i++) {
        if (secs[i].size == 0)
            continue;
        sqlite3_blob *blob;
        int rc = sqlite3_blob_open(r->db, "main", "sections", "data", rowids[i], 0, &blob);
        if (rc != SQLITE_OK)
            return db_fail(r, rc, "cannot read a section's data");
        if ((uint64_t)sqlite3_blob_bytes(blob) != secs[i].size) {
            sqlite3_blob_close(blob);
            return nbi_fail(r->err, NB_ERR_FORMAT, "%s: section %zu changed size while read",
                            r->b->path, i);
        }
        uint64_t at = 0;
        while (rc == SQLITE_OK && at < secs[i].size) {
            int k = (int)(secs[i].size - at > (1u << 30) ? (1u << 30) : secs[i].size - at);
            rc = sqlite3_blob_read(blob, image + secs[i].offset + at, k, (int)at);
            at += (uint64_t)k;
        }
        sqlite3_blob_close(blob);
        if (rc != SQLITE_OK)
            return db_fail(r, rc, "cannot read a section's data");
    }
    return NB_OK;
}

static nb_status read_image(reader *r, unsigned flags, uint8_t **image, size_t *len)
{
    nb_status res = check_identity(r, flags);
    if (res != NB_OK)
        return res;
    head_row h = {0, 0, 0, 0, 0, 0};
    if ((res = read_bundle_row(r, &h)) != NB_OK)
        return res;
    nb_section_info *secs = nbi_alloc_array(r->b->a, h.count, sizeof *secs);
    int64_t *rowids = nbi_alloc_array(r->b->a, h.count, sizeof *rowids);
    if (!secs || !rowids) {
        nbi_free(r->b->a, secs);
        nbi_free(r->b->a, rowids);
        return nbi_fail(r->err, NB_ERR_NOMEM, "%s: no memory for %zu sections", r->b->path, h.count);
    }
    res = read_section_rows(r, &h, secs, rowids);
    uint64_t size = res == NB_OK ? nbi_layout_offsets(secs, h.count) : 0;
    if (res == NB_OK && size > SIZE_MAX)
        res = nbi_fail(r->err, NB_ERR_LIMIT, "%s: a %llu-byte bundle does not fit in memory",
                       r->b->path, (unsigned long long)size);
    uint8_t *img = NULL;
    if (res == NB_OK && !(img = nbi_zalloc_array(r->b->a, 1, (size_t)size)))
        res = nbi_fail(r->err, NB_ERR_NOMEM, "%s: no memory for a %llu-byte bundle", r->b->path,
                       (unsigned long long)size);
    if (res == NB_OK) {
        nbi_layout_head(secs, h.count, h.major, h.minor, h.flags, size, img);
        uint32_t crc = nbi_get32(img + NBI_HDR_TABLE_CRC);
        if (crc != h.table_crc)
            res = nbi_fail(r->err, NB_ERR_CRC,
                           "%s: the sections rows do not match the table checksum of the bundle "
                           "row (0x%08x; the rows give 0x%08x): a row was changed",
                           r->b->path, (unsigned)h.table_crc, (unsigned)crc);
        else if ((crc = nbi_get32(img + NBI_HDR_CRC)) != h.header_crc)
            res = nbi_fail(r->err, NB_ERR_CRC,
                           "%s: the bundle row does not match its header checksum (0x%08x; its "
                           "values give 0x%08x): a value was changed",
                           r->b->path, (unsigned)h.header_crc, (unsigned)crc);
    }
    if (res == NB_OK)
        res = read_blobs(r, secs, rowids, h.count, img);
    nbi_free(r->b->a, secs);
    nbi_free(r->b->a, rowids);
    if (res != NB_OK) {
        nbi_free(r->b->a, img);
        return res;
    }
    *image = img;
    *len = (size_t)size;
    return NB_OK;
}

nb_status nbi_sqlite_load(nb_bundle *b, unsigned flags, nb_err *err)
{
    reader r = {b, NULL, err};
    uint8_t *image = NULL;
    size_t len = 0;
    nb_status res = open_db(&r);
    if (res == NB_OK) {
        /* One read transaction: the rows and blobs are of one version of
         * the database even if a writer commits meanwhile. */
        int rc = sqlite3_exec(r.db, "BEGIN", NULL, NULL, NULL);
        res = rc == SQLITE_OK ? read_image(&r, flags, &image, &len)
                              : db_fail(&r, rc, "cannot begin reading");
        if (rc == SQLITE_OK)
            sqlite3_exec(r.db, "COMMIT", NULL, NULL, NULL);
    }
    sqlite3_close(r.db);
    if (res != NB_OK)
        return res;
    if (b->mapping)
        nbi_file_unmap(b->mapping, b->mapping_len);
    nbi_free(b->a, b->buffer);
    b->mapping = NULL;
    b->mapping_len = 0;
    b->buffer = image;
    b->data = image;
    b->size = len;
    b->form = NB_FORM_SQLITE;
    return NB_OK;
}
