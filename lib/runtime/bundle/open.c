/* open.c: opening a bundle read-only, from a file (mapped, or read into
 * memory with NB_OPEN_PRIVATE), a stream (read into memory no further than
 * its header says) or memory (copied), with the section types the caller
 * gives (the public opens are sections/sections.c's, with the registry's).
 * bundle.c checks and decodes what was opened. */
#include <stdio.h>

#include "bundle/bundle.h"
#include "bundle/osfile.h"

static nb_status finish_open(nb_bundle *b, unsigned flags, nb_bundle **out, nb_err *err)
{
    nb_status st = nbi_bundle_load(b, flags, err);
    if (st == NB_OK && (flags & NB_OPEN_VERIFY))
        st = nb_bundle_verify(b, err);
    if (st != NB_OK) {
        nb_bundle_close(b);
        return st;
    }
    nbi_ok(err);
    *out = b;
    return NB_OK;
}

#define STREAM_UNKNOWN UINT64_MAX /* too few bytes yet to tell its length */
#define STREAM_TO_END (UINT64_MAX - 1) /* no length known: read to the end */

/* How long a stream says it is, from its first n bytes: STREAM_UNKNOWN
 * while too few are there; 0 when it is neither a bundle nor an SQLite
 * database.  A stream is read only so far, so that a device that never
 * ends (/dev/zero, /dev/urandom) is refused at once, not read forever. */
static uint64_t stream_length(const uint8_t *p, size_t n)
{
    size_t sqlen = sizeof NBI_SQLITE_MAGIC; /* with its NUL, as in the file */
    if (memcmp(p, NBI_MAGIC, n < NBI_MAGIC_LEN ? n : NBI_MAGIC_LEN) == 0) {
        if (n < NBI_HEADER_SIZE)
            return STREAM_UNKNOWN;
        uint64_t size = nbi_get64(p + NBI_HDR_FILE_SIZE); /* a wrong one is named by the header check */
        return size < NBI_HEADER_SIZE ? NBI_HEADER_SIZE : size;
    }
    if (memcmp(p, NBI_SQLITE_MAGIC, n < sqlen ? n : sqlen) == 0) {
        /* The page size (1 meaning 65536) times the page count, when the
         * header keeps it current (its version-valid-for number equals the
         * change counter). */
        if (n < NBI_SQLITE_HDR_READ)
            return STREAM_UNKNOWN;
        const uint8_t *ps = p + NBI_SQLITE_HDR_PAGE_SIZE, *pn = p + NBI_SQLITE_HDR_PAGES;
        uint32_t page = (uint32_t)ps[0] << 8 | ps[1];
        uint32_t pages = (uint32_t)pn[0] << 24 | (uint32_t)pn[1] << 16 | (uint32_t)pn[2] << 8 | pn[3];
        if (page == 1)
            page = 65536;
        int current = memcmp(p + NBI_SQLITE_HDR_CHANGES, p + NBI_SQLITE_HDR_VALID_FOR, 4) == 0;
        return pages && page && current ? (uint64_t)page * pages : STREAM_TO_END;
    }
    return 0;
}

/* Reads a whole stream (standard input, a pipe, a device) into memory,
 * no further than its header says it reaches. */
static nb_status slurp(const nb_allocator *a, nbi_file *f, const char *path, uint8_t **buf,
                       size_t *len, nb_err *err)
{
    size_t cap = 1 << 16, n = 0;
    uint64_t want = STREAM_UNKNOWN;
    uint8_t *p = nbi_alloc(a, cap);
    if (!p)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory", path);
    for (;;) {
        if (want == STREAM_UNKNOWN && (want = stream_length(p, n)) == 0) {
            nbi_free(a, p);
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: not a navbake bundle (neither its magic nor SQLite's)", path);
        }
        if (want < STREAM_TO_END && n > want)
            break; /* longer than it says: the header check names it */
        if (n == cap) {
            uint8_t *q = cap > SIZE_MAX / 2 ? NULL : nbi_realloc_array(a, p, cap, 2);
            if (!q) {
                nbi_free(a, p);
                return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %zu bytes", path, cap * 2);
            }
            p = q;
            cap *= 2;
        }
        size_t r = 0;
        nb_status st = nbi_file_read(f, p + n, cap - n, NBI_FILE_NEXT, &r, path, err);
        if (st != NB_OK) {
            nbi_free(a, p);
            return st;
        }
        if (r == 0)
            break;
        n += r;
    }
    *buf = p;
    *len = n;
    return NB_OK;
}

/* Reads a regular file of size bytes into memory (NB_OPEN_PRIVATE), from
 * its start as the mapping would be.  A file that shrank meanwhile gives
 * fewer bytes, which the header check refuses; one that grew is read no
 * further than size. */
static nb_status read_file(const nb_allocator *a, nbi_file *f, const char *path, size_t size,
                           uint8_t **buf, size_t *len, nb_err *err)
{
    uint8_t *p = nbi_alloc(a, size);
    if (!p)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %zu bytes", path, size);
    size_t n = 0, r = 1;
    nb_status st = NB_OK;
    while (n < size && (st = nbi_file_read(f, p + n, size - n, n, &r, path, err)) == NB_OK && r)
        n += r;
    if (st != NB_OK) {
        nbi_free(a, p);
        return st;
    }
    *buf = p;
    *len = n;
    return NB_OK;
}

/* Whether the file starts as an SQLite database: one is read into memory
 * by SQLite at open whatever the flags, so NB_OPEN_PRIVATE need not copy
 * it first. */
static int is_sqlite_file(nbi_file *f)
{
    char head[sizeof NBI_SQLITE_MAGIC - 1];
    size_t got = 0;
    return nbi_file_read(f, head, sizeof head, 0, &got, "", NULL) == NB_OK &&
           got == sizeof head && memcmp(head, NBI_SQLITE_MAGIC, sizeof head) == 0;
}

/* Reads or maps what f holds into b: a regular file is mapped (read with
 * NB_OPEN_PRIVATE), anything else read to its end. */
static nb_status load(nb_bundle *b, nbi_file *f, unsigned flags, nb_err *err)
{
    nbi_file_kind kind;
    uint64_t size;
    size_t len = 0;
    nb_status st = nbi_file_stat(f, b->path, &kind, &size, err);
    if (st != NB_OK)
        return st;
    if (kind == NBI_FILE_DIR)
        return nbi_fail(err, NB_ERR_IO, "%s: is a directory, not a bundle", b->path);
    if (kind != NBI_FILE_REGULAR || size == 0) {
        st = slurp(b->a, f, b->path, &b->buffer, &len, err);
        b->data = b->buffer;
        b->size = len;
        return st;
    }
    b->from_file = !f->is_stdin;
    if (size > SIZE_MAX)
        return nbi_fail(err, NB_ERR_LIMIT, "%s: too large to map", b->path);
    if ((flags & NB_OPEN_PRIVATE) && !is_sqlite_file(f)) {
        st = read_file(b->a, f, b->path, (size_t)size, &b->buffer, &len, err);
        b->data = b->buffer;
        b->size = len;
        return st;
    }
    void *m = NULL;
    st = nbi_file_map(f, (size_t)size, &m, b->path, err);
    if (st == NB_OK) {
        b->mapping = m;
        b->mapping_len = (size_t)size;
        b->data = m;
        b->size = size;
    }
    return st;
}

#define KNOWN_FLAGS (NB_OPEN_VERIFY | NB_OPEN_PRIVATE)

nb_status nbi_open_path(const nbi_section_kinds *kinds, const char *path, unsigned flags,
                        const nb_allocator *alloc, nb_bundle **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_bundle_open: no place for the bundle");
    *out = NULL;
    if (!path)
        return nbi_fail(err, NB_ERR_ARG, "nb_bundle_open: no path");
    if (flags & ~KNOWN_FLAGS)
        return nbi_fail(err, NB_ERR_ARG, "nb_bundle_open: unknown flags %#x", flags & ~KNOWN_FLAGS);
    nb_status st = nbi_allocator_check(alloc, "nb_bundle_open", err);
    if (st != NB_OK)
        return st;
    nb_bundle *b = nbi_bundle_new(strcmp(path, "-") == 0 ? "(standard input)" : path, alloc, kinds,
                                  err);
    if (!b)
        return NB_ERR_NOMEM;
    nbi_file f;
    st = nbi_file_open(&f, path, b->a, err);
    if (st != NB_OK) {
        nb_bundle_close(b);
        return st;
    }
    st = load(b, &f, flags, err);
    nbi_file_close(&f);
    if (st != NB_OK) {
        nb_bundle_close(b);
        return st;
    }
    return finish_open(b, flags, out, err);
}

nb_status nbi_open_memory(const nbi_section_kinds *kinds, const void *data, size_t len,
                          unsigned flags, const nb_allocator *alloc, nb_bundle **out, nb_err *err)
{
    if (!out)
        return nbi_fail(err, NB_ERR_ARG, "nb_bundle_open_memory: no place for the bundle");
    *out = NULL;
    if (!data && len)
        return nbi_fail(err, NB_ERR_ARG, "nb_bundle_open_memory: no data");
    if (flags & ~KNOWN_FLAGS)
        return nbi_fail(err, NB_ERR_ARG, "nb_bundle_open_memory: unknown flags %#x",
                        flags & ~KNOWN_FLAGS);
    nb_status st = nbi_allocator_check(alloc, "nb_bundle_open_memory", err);
    if (st != NB_OK)
        return st;
    nb_bundle *b = nbi_bundle_new("(memory)", alloc, kinds, err);
    if (!b)
        return NB_ERR_NOMEM;
    b->buffer = nbi_alloc(b->a, len);
    if (!b->buffer) {
        nb_bundle_close(b);
        return nbi_fail(err, NB_ERR_NOMEM, "(memory): no memory to copy %zu bytes", len);
    }
    if (len)
        memcpy(b->buffer, data, len);
    b->data = b->buffer;
    b->size = len;
    return finish_open(b, flags, out, err);
}

nb_status nbi_open_image(const nbi_section_kinds *kinds, uint8_t *image, size_t len,
                         const char *name, unsigned flags, const nb_allocator *alloc,
                         nb_bundle **out, nb_err *err)
{
    *out = NULL;
    /* The image is alloc's, and so is the bundle's allocator: nb_bundle_close
     * frees it with nbi_free(b->a, ...) as here. */
    nb_bundle *b = nbi_bundle_new(name, alloc, kinds, err);
    if (!b) {
        nbi_free(alloc, image);
        return NB_ERR_NOMEM;
    }
    b->buffer = image;
    b->data = image;
    b->size = len;
    return finish_open(b, flags, out, err);
}

