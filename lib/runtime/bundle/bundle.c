/* bundle.c: opening a bundle read-only.
 *
 * The file is mapped, never trusted: the header and the section table are
 * checked against the file's real size before any offset or count is used
 * (LMDB's habit with its meta pages).  Sections of known types are decoded
 * here once, so that queries never parse. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/base.h"

/* zlib cannot expand a stream by more than about 1032:1; a larger claim is
 * damage (or a bomb), refused before allocating. */
#define NBI_MAX_INFLATE_RATIO 1100u

static nb_status inflate_section(nb_bundle *b, struct nbi_section *s, nb_err *err)
{
    const nb_section_info *in = &s->info;
    if (in->usize > in->size * NBI_MAX_INFLATE_RATIO + 4096 || in->usize > SIZE_MAX / 2)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section at offset %llu claims %llu bytes from %llu compressed",
                        b->path, (unsigned long long)in->offset, (unsigned long long)in->usize,
                        (unsigned long long)in->size);
    nb_status st = nbi_section_crc_check(b, (size_t)(s - b->sections), err);
    if (st != NB_OK)
        return st;
    s->owned = malloc(in->usize ? (size_t)in->usize : 1);
    if (!s->owned)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory to inflate %llu bytes", b->path,
                        (unsigned long long)in->usize);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: inflateInit failed", b->path);
    /* Feed in chunks: avail_in and avail_out are 32-bit. */
    uint64_t in_left = in->size, out_left = in->usize;
    z.next_in = (Bytef *)s->stored;
    z.next_out = s->owned;
    int zr;
    for (;;) {
        if (z.avail_in == 0 && in_left > 0) {
            z.avail_in = (uInt)(in_left > 0x40000000u ? 0x40000000u : in_left);
            in_left -= z.avail_in;
        }
        if (z.avail_out == 0 && out_left > 0) {
            z.avail_out = (uInt)(out_left > 0x40000000u ? 0x40000000u : out_left);
            out_left -= z.avail_out;
        }
        zr = inflate(&z, Z_NO_FLUSH);
        if (zr == Z_OK)
            continue;
        if (zr == Z_BUF_ERROR && ((z.avail_in == 0 && in_left > 0) || (z.avail_out == 0 && out_left > 0)))
            continue; /* more input or room to hand over */
        break;
    }
    uint64_t produced = z.total_out;
    inflateEnd(&z);
    if (zr != Z_STREAM_END || produced != in->usize || z.avail_in != 0 || in_left != 0)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: zlib section at offset %llu does not inflate to its %llu bytes (%s)",
                        b->path, (unsigned long long)in->offset, (unsigned long long)in->usize,
                        zr == Z_STREAM_END ? "wrong length" : "damaged stream");
    s->payload = s->owned;
    return NB_OK;
}

static nb_status parse_table(nb_bundle *b, nb_err *err)
{
    const uint8_t *h = b->data;
    uint64_t size = b->size;
    if (size < NBI_MAGIC_LEN || memcmp(h, NBI_MAGIC, NBI_MAGIC_LEN) != 0)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: %s", b->path,
                        size == 0 ? "0 bytes, too short for a navbake bundle"
                                  : "not a navbake bundle (wrong magic number)");
    if (size < NBI_HEADER_SIZE)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: %llu bytes, too short for a navbake bundle (the header is %d bytes): "
                        "it was truncated",
                        b->path, (unsigned long long)size, NBI_HEADER_SIZE);
    if (nbi_get32(h + 60) != (uint32_t)crc32(0, h, 60))
        return nbi_fail(err, NB_ERR_CRC, "%s: header checksum mismatch: the header is damaged", b->path);
    b->major = nbi_get16(h + 8);
    b->minor = nbi_get16(h + 10);
    b->flags = nbi_get32(h + 12);
    if (b->major != NB_FORMAT_MAJOR)
        return nbi_fail(err, NB_ERR_VERSION,
                        "%s: bundle format version %u.%u; this reader (navbake %s) reads version "
                        "%d.x only",
                        b->path, b->major, b->minor, NB_VERSION_STRING, NB_FORMAT_MAJOR);
    uint32_t header_size = nbi_get32(h + 16), entry_size = nbi_get32(h + 20);
    uint32_t count = nbi_get32(h + 24);
    uint64_t table = nbi_get64(h + 32), file_size = nbi_get64(h + 40);
    if (file_size != size)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: the header says %llu bytes but the file has %llu: it was truncated "
                        "or extended",
                        b->path, (unsigned long long)file_size, (unsigned long long)size);
    if (header_size != NBI_HEADER_SIZE)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: header size %u, expected %d", b->path,
                        header_size, NBI_HEADER_SIZE);
    if (entry_size < NBI_ENTRY_SIZE || entry_size > 4096 || entry_size % 8)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section entry size %u, expected a multiple of 8 from %d to 4096",
                        b->path, entry_size, NBI_ENTRY_SIZE);
    if (count > NBI_MAX_SECTIONS)
        return nbi_fail(err, NB_ERR_LIMIT, "%s: %u sections, at most %d", b->path, count,
                        NBI_MAX_SECTIONS);
    if (table < NBI_HEADER_SIZE || table % 8 || table > size ||
        (uint64_t)count * entry_size > size - table)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section table at offset %llu with %u entries of %u bytes does not "
                        "fit in the file's %llu bytes",
                        b->path, (unsigned long long)table, count, entry_size,
                        (unsigned long long)size);
    uint64_t table_end = table + (uint64_t)count * entry_size;
    if (nbi_get32(h + 48) != (uint32_t)crc32(0, h + table, (uInt)(table_end - table)))
        return nbi_fail(err, NB_ERR_CRC, "%s: section table checksum mismatch: the table is damaged",
                        b->path);

    b->sections = calloc(count ? count : 1, sizeof *b->sections);
    if (!b->sections)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %u sections", b->path, count);
    b->nsections = count;
    uint64_t prev_end = table_end;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = h + table + (uint64_t)i * entry_size;
        struct nbi_section *s = &b->sections[i];
        nb_section_info *in = &s->info;
        in->type = nbi_get32(e);
        in->version = nbi_get16(e + 4);
        in->encoding = nbi_get16(e + 6);
        in->offset = nbi_get64(e + 8);
        in->size = nbi_get64(e + 16);
        in->usize = nbi_get64(e + 24);
        in->crc = nbi_get32(e + 32);
        in->flags = nbi_get32(e + 36);
        for (int k = 0; k < NB_SECTION_PARAMS; k++)
            in->param[k] = nbi_get32(e + 40 + 4 * k);
        if (memchr(e + 72, 0, 32) == NULL)
            return nbi_fail(err, NB_ERR_FORMAT, "%s: section %u: name is not terminated", b->path, i);
        memcpy(in->name, e + 72, 32);
        if (in->offset % NBI_ALIGN || in->offset < prev_end || in->offset > size ||
            in->size > size - in->offset)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: section %u (%s) at offset %llu, %llu bytes: outside the file, "
                            "misaligned or overlapping the one before",
                            b->path, i, nb_section_type_name(in->type) ? nb_section_type_name(in->type) : "unknown type",
                            (unsigned long long)in->offset, (unsigned long long)in->size);
        prev_end = in->offset + in->size;
        s->stored = h + in->offset;
        s->payload = s->stored;
        if (NB_ENC_COMPRESSION(in->encoding) == 0 && in->usize != in->size)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: section %u is not compressed but its sizes differ (%llu, %llu)",
                            b->path, i, (unsigned long long)in->size, (unsigned long long)in->usize);
    }
    return NB_OK;
}

/* Decodes the sections the runtime uses directly.  Sections of types it
 * does not know are skipped (a newer minor version may add them). */
static nb_status decode_known(nb_bundle *b, nb_err *err)
{
    nb_status st;
    long legend_at = -1, agents_at = -1, map_at = -1;
    for (size_t i = 0; i < b->nsections; i++) {
        struct nbi_section *s = &b->sections[i];
        if (!nbi_section_kind(s->info.type))
            continue;
        if (NB_ENC_COMPRESSION(s->info.encoding) == NB_ENC_ZLIB &&
            NB_ENC_LAYOUT(s->info.encoding) <= NB_ENC_PACKED) {
            if ((st = inflate_section(b, s, err)) != NB_OK)
                return st;
        } else if (s->info.encoding != NB_ENC_RAW && s->info.encoding != NB_ENC_PACKED) {
            return nbi_fail(err, NB_ERR_FORMAT, "%s: section %zu (%s): unknown encoding 0x%04x",
                            b->path, i, nb_section_type_name(s->info.type), s->info.encoding);
        }
        long *slot = s->info.type == NB_SEC_LEGEND ? &legend_at
                     : s->info.type == NB_SEC_AGENTS ? &agents_at
                     : s->info.type == NB_SEC_MAP ? &map_at : NULL;
        if (slot) {
            if (*slot >= 0)
                return nbi_fail(err, NB_ERR_FORMAT, "%s: two %s sections (%ld and %zu)", b->path,
                                nb_section_type_name(s->info.type), *slot, i);
            if (s->info.version != 1)
                return nbi_fail(err, NB_ERR_VERSION, "%s: %s section version %u, this reader knows 1",
                                b->path, nb_section_type_name(s->info.type), s->info.version);
            *slot = (long)i;
        }
    }
    if ((agents_at >= 0 || map_at >= 0) && legend_at < 0)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: a map or agent set without a legend section", b->path);
    if (legend_at >= 0) {
        struct nbi_section *s = &b->sections[legend_at];
        if ((st = nbi_legend_decode(s->payload, (size_t)s->info.usize, &b->legend, err)) != NB_OK) {
            nbi_err_prefix(err, "%s", b->path);
            return st;
        }
        b->has_legend = 1;
    }
    if (agents_at >= 0) {
        struct nbi_section *s = &b->sections[agents_at];
        b->agents = malloc(sizeof *b->agents);
        if (!b->agents)
            return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for the agent set", b->path);
        if ((st = nbi_agents_decode(s->payload, (size_t)s->info.usize, &b->legend, b->agents, err)) !=
            NB_OK) {
            nbi_err_prefix(err, "%s", b->path);
            return st;
        }
    }
    if (map_at >= 0) {
        struct nbi_section *s = &b->sections[map_at];
        uint64_t len = s->info.usize;
        if (len < NBI_MAP_HEADER)
            return nbi_fail(err, NB_ERR_FORMAT, "%s: map section: %llu bytes, expected at least %d",
                            b->path, (unsigned long long)len, NBI_MAP_HEADER);
        uint32_t w = nbi_get32(s->payload), h = nbi_get32(s->payload + 4);
        if (w < 1 || h < 1 || w > NB_MAP_MAX_SIDE || h > NB_MAP_MAX_SIDE)
            return nbi_fail(err, NB_ERR_FORMAT, "%s: map section: %u x %u cells, expected 1 to %d a side",
                            b->path, w, h, NB_MAP_MAX_SIDE);
        if (len != NBI_MAP_HEADER + (uint64_t)w * h)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: map section: %llu bytes, expected %llu for %u x %u cells", b->path,
                            (unsigned long long)len, (unsigned long long)(NBI_MAP_HEADER + (uint64_t)w * h),
                            w, h);
        b->has_map = 1;
        b->width = w;
        b->height = h;
        b->cells = s->payload + NBI_MAP_HEADER;
    }
    return NB_OK;
}

static nb_status finish_open(nb_bundle *b, unsigned flags, nb_bundle **out, nb_err *err)
{
    nb_status st = NB_OK;
    b->source_size = b->size;
    /* An SQLite bundle becomes its binary image first; the rest is common. */
    if (b->size >= sizeof NBI_SQLITE_MAGIC - 1 &&
        memcmp(b->data, NBI_SQLITE_MAGIC, sizeof NBI_SQLITE_MAGIC - 1) == 0)
        st = nbi_sqlite_load(b, flags, err);
    if (st == NB_OK)
        st = parse_table(b, err);
    if (st == NB_OK)
        st = decode_known(b, err);
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

static nb_bundle *new_bundle(const char *path, nb_err *err)
{
    nb_bundle *b = calloc(1, sizeof *b);
    if (b)
        b->path = strdup(path);
    if (!b || !b->path) {
        free(b);
        nbi_fail(err, NB_ERR_NOMEM, "%s: no memory to open", path);
        return NULL;
    }
    return b;
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
        uint64_t size = nbi_get64(p + 40); /* a wrong one is named by the header check */
        return size < NBI_HEADER_SIZE ? NBI_HEADER_SIZE : size;
    }
    if (memcmp(p, NBI_SQLITE_MAGIC, n < sqlen ? n : sqlen) == 0) {
        /* The page size (1 meaning 65536) times the page count, when the
         * header keeps it current (its version-valid-for number equals the
         * change counter). */
        if (n < 96)
            return STREAM_UNKNOWN;
        uint32_t page = (uint32_t)p[16] << 8 | p[17];
        uint32_t pages = (uint32_t)p[28] << 24 | (uint32_t)p[29] << 16 | (uint32_t)p[30] << 8 | p[31];
        if (page == 1)
            page = 65536;
        int current = memcmp(p + 24, p + 92, 4) == 0;
        return pages && page && current ? (uint64_t)page * pages : STREAM_TO_END;
    }
    return 0;
}

/* Reads a whole stream (standard input, a pipe, a device) into memory,
 * no further than its header says it reaches. */
static nb_status slurp(int fd, const char *path, uint8_t **buf, size_t *len, nb_err *err)
{
    size_t cap = 1 << 16, n = 0;
    uint64_t want = STREAM_UNKNOWN;
    uint8_t *p = malloc(cap);
    if (!p)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory", path);
    for (;;) {
        if (want == STREAM_UNKNOWN && (want = stream_length(p, n)) == 0) {
            free(p);
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: not a navbake bundle (neither its magic nor SQLite's)", path);
        }
        if (want < STREAM_TO_END && n > want)
            break; /* longer than it says: the header check names it */
        if (n == cap) {
            uint8_t *q = cap > SIZE_MAX / 2 ? NULL : realloc(p, cap * 2);
            if (!q) {
                free(p);
                return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %zu bytes", path, cap * 2);
            }
            p = q;
            cap *= 2;
        }
        ssize_t r = read(fd, p + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            free(p);
            return nbi_fail_errno(err, "read", path);
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    *buf = p;
    *len = n;
    return NB_OK;
}

nb_status nb_bundle_open(const char *path, unsigned flags, nb_bundle **out, nb_err *err)
{
    *out = NULL;
    if (!path)
        return nbi_fail(err, NB_ERR_ARG, "nb_bundle_open: no path");
    nb_bundle *b = new_bundle(strcmp(path, "-") == 0 ? "(standard input)" : path, err);
    if (!b)
        return NB_ERR_NOMEM;
    int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        nb_status st = nbi_fail_errno(err, "cannot open", path);
        nb_bundle_close(b);
        return st;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        nb_status st = nbi_fail_errno(err, "cannot stat", b->path);
        if (fd != STDIN_FILENO)
            close(fd);
        nb_bundle_close(b);
        return st;
    }
    nb_status st = NB_OK;
    if (S_ISDIR(sb.st_mode)) {
        st = nbi_fail(err, NB_ERR_IO, "%s: is a directory, not a bundle", b->path);
    } else if (S_ISREG(sb.st_mode) && sb.st_size > 0) {
        if ((uint64_t)sb.st_size > SIZE_MAX) {
            st = nbi_fail(err, NB_ERR_LIMIT, "%s: too large to map", b->path);
        } else {
            void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_SHARED, fd, 0);
            if (m == MAP_FAILED) {
                st = nbi_fail_errno(err, "cannot map", b->path);
            } else {
                b->mapping = m;
                b->mapping_len = (size_t)sb.st_size;
                b->from_file = fd != STDIN_FILENO;
                b->data = m;
                b->size = (uint64_t)sb.st_size;
            }
        }
    } else {
        size_t len = 0;
        st = slurp(fd, b->path, &b->buffer, &len, err);
        b->data = b->buffer;
        b->size = len;
    }
    if (fd != STDIN_FILENO)
        close(fd);
    if (st != NB_OK) {
        nb_bundle_close(b);
        return st;
    }
    return finish_open(b, flags, out, err);
}

nb_status nb_bundle_open_memory(const void *data, size_t len, unsigned flags, nb_bundle **out,
                                nb_err *err)
{
    *out = NULL;
    if (!data && len)
        return nbi_fail(err, NB_ERR_ARG, "nb_bundle_open_memory: no data");
    nb_bundle *b = new_bundle("(memory)", err);
    if (!b)
        return NB_ERR_NOMEM;
    b->buffer = malloc(len ? len : 1);
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

nb_status nbi_bundle_open_image(uint8_t *image, size_t len, const char *name, unsigned flags,
                                nb_bundle **out, nb_err *err)
{
    *out = NULL;
    nb_bundle *b = new_bundle(name, err);
    if (!b) {
        free(image);
        return NB_ERR_NOMEM;
    }
    b->buffer = image;
    b->data = image;
    b->size = len;
    return finish_open(b, flags, out, err);
}

void nb_bundle_close(nb_bundle *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->nsections; i++)
        free(b->sections[i].owned);
    free(b->sections);
    free(b->agents);
    if (b->mapping)
        munmap(b->mapping, b->mapping_len);
    free(b->buffer);
    free(b->path);
    free(b);
}

void nb_bundle_format_version(const nb_bundle *b, unsigned *major, unsigned *minor)
{
    if (major)
        *major = b->major;
    if (minor)
        *minor = b->minor;
}

uint64_t nb_bundle_file_size(const nb_bundle *b) { return b->source_size; }
nb_bundle_form nb_bundle_form_of(const nb_bundle *b) { return b->form; }
size_t nb_bundle_section_count(const nb_bundle *b) { return b->nsections; }

const nb_section_info *nb_bundle_section(const nb_bundle *b, size_t index)
{
    return index < b->nsections ? &b->sections[index].info : NULL;
}

long nb_bundle_find(const nb_bundle *b, uint32_t type, const char *name, const uint32_t *params,
                    size_t nparams)
{
    if (nparams > NB_SECTION_PARAMS)
        return -1;
    for (size_t i = 0; i < b->nsections; i++) {
        const nb_section_info *in = &b->sections[i].info;
        if (in->type != type || (name && strcmp(in->name, name) != 0))
            continue;
        if (nparams && memcmp(in->param, params, nparams * sizeof *params) != 0)
            continue;
        return (long)i;
    }
    return -1;
}

nb_status nb_bundle_payload(const nb_bundle *b, size_t index, const void **data, size_t *len,
                            nb_err *err)
{
    if (index >= b->nsections)
        return nbi_fail(err, NB_ERR_ARG, "%s: no section %zu (the bundle has %zu)", b->path, index,
                        b->nsections);
    const struct nbi_section *s = &b->sections[index];
    if (NB_ENC_COMPRESSION(s->info.encoding) && !s->owned)
        return nbi_fail(err, NB_ERR_UNSUPPORTED, "%s: section %zu: encoding %s of an unknown type "
                        "is not decoded", b->path, index, nb_encoding_name(s->info.encoding));
    *data = s->payload;
    *len = (size_t)s->info.usize;
    return NB_OK;
}

nb_status nbi_section_crc_check(const nb_bundle *b, size_t index, nb_err *err)
{
    const struct nbi_section *s = &b->sections[index];
    uLong crc = crc32(0, NULL, 0);
    const uint8_t *p = s->stored;
    uint64_t left = s->info.size;
    while (left > 0) {
        uInt n = (uInt)(left > 0x40000000u ? 0x40000000u : left);
        crc = crc32(crc, p, n);
        p += n;
        left -= n;
    }
    if ((uint32_t)crc != s->info.crc) {
        const char *tn = nb_section_type_name(s->info.type);
        if (b->form == NB_FORM_SQLITE)
            return nbi_fail(err, NB_ERR_CRC,
                            "%s: section %zu (%s), row id %zu of the sections table: checksum "
                            "0x%08x, its crc32 column says 0x%08x: the section is damaged",
                            b->path, index, tn ? tn : "unknown type", index, (unsigned)crc,
                            (unsigned)s->info.crc);
        return nbi_fail(err, NB_ERR_CRC,
                        "%s: section %zu (%s) at offset %llu: checksum 0x%08x, the table says "
                        "0x%08x: the section is damaged",
                        b->path, index, tn ? tn : "unknown type", (unsigned long long)s->info.offset,
                        (unsigned)crc, (unsigned)s->info.crc);
    }
    return NB_OK;
}
