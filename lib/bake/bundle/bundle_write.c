/* bundle_write.c: the bundle writer.
 *
 * A builder holds sections in memory; a tool loads the existing bundle,
 * replaces the sections it owns and writes.  The write goes to a temporary
 * file beside the target that is renamed into place, so a failed or killed
 * bake never leaves a half-written bundle and the old one stays intact.
 * The bytes depend only on the sections: no timestamps, zeroed padding, a
 * fixed order.  The same sections can be written as an SQLite database
 * instead (sqlite_write.c). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "bake_int.h"
#include "parallel/parallel.h"

struct bsec {
    nb_section_info info;
    uint8_t *stored;
    int borrowed; /* stored is an open bundle's, not the builder's to free */
};

struct nbb_builder {
    struct bsec *sec;
    size_t n, cap;
    unsigned minor; /* the highest minor version among loaded bundles */
    unsigned threads; /* to checksum sections on */
};

nb_status nbb_builder_new(nbb_builder **out, nb_err *err)
{
    *out = nbb_calloc(1, sizeof **out);
    if (!*out)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a bundle builder");
    (*out)->minor = NB_FORMAT_MINOR;
    (*out)->threads = 1;
    return NB_OK;
}

void nbb_builder_threads(nbb_builder *b, unsigned threads) { b->threads = threads; }

void nbb_builder_free(nbb_builder *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        if (!b->sec[i].borrowed)
            nbb_free(b->sec[i].stored);
    nbb_free(b->sec);
    nbb_free(b);
}

static int cmp_sec(const void *a, const void *b)
{
    return nbi_section_key_cmp(&((const struct bsec *)a)->info, &((const struct bsec *)b)->info);
}

/* Takes ownership of stored, unless it is borrowed. */
static nb_status put_section(nbb_builder *b, const nb_section_info *info, uint8_t *stored,
                             int borrowed, nb_err *err)
{
    for (size_t i = 0; i < b->n; i++)
        if (nbi_section_key_cmp(&b->sec[i].info, info) == 0) {
            if (!b->sec[i].borrowed)
                nbb_free(b->sec[i].stored);
            b->sec[i].info = *info;
            b->sec[i].stored = stored;
            b->sec[i].borrowed = borrowed;
            return NB_OK;
        }
    if (b->n == NBI_MAX_SECTIONS) {
        if (!borrowed)
            nbb_free(stored);
        return nbi_fail(err, NB_ERR_LIMIT, "a bundle holds at most %d sections", NBI_MAX_SECTIONS);
    }
    if (b->n == b->cap) {
        size_t ncap = b->cap ? 2 * b->cap : 16;
        struct bsec *s = nbb_realloc(b->sec, ncap * sizeof *s);
        if (!s) {
            if (!borrowed)
                nbb_free(stored);
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu sections", ncap);
        }
        b->sec = s;
        b->cap = ncap;
    }
    b->sec[b->n].info = *info;
    b->sec[b->n].stored = stored;
    b->sec[b->n].borrowed = borrowed;
    b->n++;
    return NB_OK;
}

static nb_status put(nbb_builder *b, const nb_section_info *info, uint8_t *stored, nb_err *err)
{
    return put_section(b, info, stored, 0, err);
}

nb_status nbb_builder_borrow(nbb_builder *b, const nb_bundle *from, size_t index, nb_err *err)
{
    if (from->minor > b->minor)
        b->minor = from->minor;
    const struct nbi_section *s = &from->sections[index];
    return put_section(b, &s->info, (uint8_t *)(uintptr_t)s->stored, 1, err);
}

nb_status nbb_builder_take(nbb_builder *b, const nb_bundle *old, nb_err *err)
{
    nb_status st = NB_OK;
    if (old->minor > b->minor)
        b->minor = old->minor;
    for (size_t i = 0; i < old->nsections && st == NB_OK; i++) {
        const struct nbi_section *s = &old->sections[i];
        uint8_t *copy = nbb_malloc(s->info.size ? (size_t)s->info.size : 1);
        if (!copy)
            return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory to copy section %zu", old->path, i);
        memcpy(copy, s->stored, (size_t)s->info.size);
        st = put(b, &s->info, copy, err);
    }
    return st;
}

nb_status nbb_builder_load(nbb_builder *b, const char *path, int may_be_missing, nb_err *err)
{
    struct stat sb;
    if (may_be_missing && strcmp(path, "-") != 0 && stat(path, &sb) != 0 && errno == ENOENT)
        return NB_OK;
    /* The output, to be updated: a device or FIFO there is refused before
     * it is read (it is not a bundle, and writing would replace it). */
    nb_status st;
    if (may_be_missing && strcmp(path, "-") != 0 && (st = nbb_output_check(path, err)) != NB_OK)
        return st;
    nb_bundle *old;
    st = nb_bundle_open(path, NB_OPEN_VERIFY, nbb_mem(), &old, err);
    if (st != NB_OK) {
        nbi_err_prefix(err, "cannot update the existing bundle (remove it to start afresh)");
        return st;
    }
    st = nbb_builder_take(b, old, err);
    nb_bundle_close(old);
    return st;
}

/* Stores payload (owned: freed on every path), compressed when asked. */
static nb_status add(nbb_builder *b, const nb_section_info *info, uint8_t *payload, size_t len,
                     int compress, nb_err *err)
{
    nb_section_info in = *info;
    uint8_t *stored;
    if (!nbi_section_kind(in.type) || NB_ENC_COMPRESSION(in.encoding) ||
        NB_ENC_LAYOUT(in.encoding) > NB_ENC_PACKED || memchr(in.name, 0, sizeof in.name) == NULL) {
        nbb_free(payload);
        return nbi_fail(err, NB_ERR_ARG, "nbb_builder_add: bad section type, encoding or name");
    }
    in.usize = len;
    if (compress && len > 0) {
        uLongf zlen = compressBound((uLong)len);
        stored = nbb_malloc(zlen);
        if (!stored) {
            nbb_free(payload);
            return nbi_fail(err, NB_ERR_NOMEM, "no memory to compress %zu bytes", len);
        }
        int zst = nbb_compress(stored, &zlen, payload, len, Z_BEST_COMPRESSION);
        nbb_free(payload);
        if (zst != Z_OK) {
            nbb_free(stored);
            return nbi_fail(err, NB_ERR_NOMEM, "zlib could not compress a %s section",
                            nb_section_type_name(in.type));
        }
        in.size = zlen;
        in.encoding |= NB_ENC_ZLIB;
    } else {
        stored = payload;
        in.size = len;
    }
    in.crc = nbb_crc32_threads(0, stored, (size_t)in.size, b->threads);
    in.offset = 0;
    /* The name is NUL-padded on disk: clear what follows the terminator. */
    size_t nl = strlen(in.name);
    memset(in.name + nl, 0, sizeof in.name - nl);
    return put(b, &in, stored, err);
}

nb_status nbb_builder_open_update(nbb_builder *b, const char *path, nb_bundle **old, nb_err *err)
{
    *old = NULL;
    struct stat sb;
    /* Nothing there to update (or nothing stat can reach: a loop of links,
     * which writing the output names). */
    if (strcmp(path, "-") == 0 || stat(path, &sb) != 0)
        return NB_OK;
    nb_status st = nbb_output_check(path, err);
    if (st != NB_OK)
        return st;
    if ((st = nb_bundle_open(path, NB_OPEN_VERIFY, nbb_mem(), old, err)) != NB_OK) {
        nbi_err_prefix(err, "cannot update the existing bundle (remove it to start afresh)");
        return st;
    }
    for (size_t i = 0; st == NB_OK && i < (*old)->nsections; i++)
        st = nbb_builder_borrow(b, *old, i, err);
    return st;
}

nb_status nbb_builder_add(nbb_builder *b, const nb_section_info *info, const void *payload,
                          size_t len, int compress, nb_err *err)
{
    uint8_t *copy = nbb_malloc(len ? len : 1);
    if (!copy)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a %zu-byte section", len);
    if (len)
        memcpy(copy, payload, len);
    return add(b, info, copy, len, compress, err);
}

nb_status nbb_builder_add_owned(nbb_builder *b, const nb_section_info *info, uint8_t *payload,
                                size_t len, int compress, nb_err *err)
{
    return add(b, info, payload, len, compress, err);
}

size_t nbb_builder_remove(nbb_builder *b, uint32_t type)
{
    return nbb_builder_remove_named(b, type, NULL);
}

size_t nbb_builder_remove_named(nbb_builder *b, uint32_t type, const char *name)
{
    size_t kept = 0, removed = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (b->sec[i].info.type == type && (!name || strcmp(b->sec[i].info.name, name) == 0)) {
            if (!b->sec[i].borrowed)
                nbb_free(b->sec[i].stored);
            removed++;
        } else {
            b->sec[kept++] = b->sec[i];
        }
    }
    b->n = kept;
    return removed;
}

int nbb_builder_has(const nbb_builder *b, uint32_t type)
{
    for (size_t i = 0; i < b->n; i++)
        if (b->sec[i].info.type == type)
            return 1;
    return 0;
}

static nb_status write_zeros(int fd, uint64_t n, const char *path, nb_err *err)
{
    static const uint8_t zeros[NBI_ALIGN];
    nb_status st = NB_OK;
    while (n > 0 && st == NB_OK) {
        size_t k = n > sizeof zeros ? sizeof zeros : (size_t)n;
        st = nbb_write_all(fd, zeros, k, path, err);
        n -= k;
    }
    return st;
}

/* Sorts the sections into table order, lays them out, and makes the header
 * and section table (head, NBI_HEADER_SIZE + n * NBI_ENTRY_SIZE bytes). */
static nb_status lay_out(nbb_builder *b, uint8_t **head, uint64_t *file_size, nb_err *err)
{
    if (!nbb_sort(b->sec, b->n, sizeof *b->sec, cmp_sec))
        return nbi_fail(err, NB_ERR_NOMEM, "no memory to sort the section table");
    nb_section_info *infos = nbb_malloc((b->n ? b->n : 1) * sizeof *infos);
    *head = nbb_calloc(1, NBI_HEADER_SIZE + b->n * NBI_ENTRY_SIZE);
    if (!infos || !*head) {
        nbb_free(infos);
        nbb_free(*head);
        *head = NULL;
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the section table");
    }
    for (size_t i = 0; i < b->n; i++)
        infos[i] = b->sec[i].info;
    *file_size = nbi_layout_offsets(infos, b->n);
    for (size_t i = 0; i < b->n; i++)
        b->sec[i].info.offset = infos[i].offset;
    nbi_layout_head(infos, b->n, NB_FORMAT_MAJOR, b->minor, 0, *file_size, *head);
    nbb_free(infos);
    return NB_OK;
}

/* Header, table and sections, in file order; into a new file (mapped)
 * through a mapping on the builder's threads, when it has more than one. */
static nb_status write_bundle(nbb_builder *b, int fd, int mapped, const char *path, nb_err *err)
{
    uint8_t *head;
    uint64_t file_size;
    nb_status st = lay_out(b, &head, &file_size, err);
    if (st != NB_OK)
        return st;
    uint64_t at = NBI_HEADER_SIZE + (uint64_t)b->n * NBI_ENTRY_SIZE;
    nbb_span *span = mapped && nbb_threads_resolve(b->threads) > 1
                         ? nbb_malloc((b->n + 1) * sizeof *span)
                         : NULL;
    if (span) {
        span[0] = (nbb_span){0, head, (size_t)at};
        for (size_t i = 0; i < b->n; i++)
            span[i + 1] = (nbb_span){b->sec[i].info.offset, b->sec[i].stored,
                                     (size_t)b->sec[i].info.size};
        int done;
        st = nbb_write_mapped(fd, file_size, span, b->n + 1, b->threads, path, &done, err);
        nbb_free(span);
        if (st != NB_OK || done) {
            nbb_free(head);
            return st;
        }
    }
    st = nbb_write_all(fd, head, (size_t)at, path, err);
    nbb_free(head);
    for (size_t i = 0; i < b->n && st == NB_OK; i++) {
        const nb_section_info *in = &b->sec[i].info;
        st = write_zeros(fd, in->offset - at, path, err);
        if (st == NB_OK)
            st = nbb_write_all(fd, b->sec[i].stored, (size_t)in->size, path, err);
        at = in->offset + in->size;
    }
    return st;
}

nb_status nbb_builder_image(nbb_builder *b, uint8_t **image, size_t *len, nb_err *err)
{
    uint8_t *head;
    uint64_t file_size;
    nb_status st = lay_out(b, &head, &file_size, err);
    if (st != NB_OK)
        return st;
    uint8_t *p = file_size <= SIZE_MAX ? nbb_calloc(1, (size_t)file_size) : NULL;
    if (!p) {
        nbb_free(head);
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a %llu-byte bundle",
                        (unsigned long long)file_size);
    }
    memcpy(p, head, NBI_HEADER_SIZE + b->n * NBI_ENTRY_SIZE);
    nbb_free(head);
    for (size_t i = 0; i < b->n; i++)
        if (b->sec[i].info.size)
            memcpy(p + b->sec[i].info.offset, b->sec[i].stored, (size_t)b->sec[i].info.size);
    *image = p;
    *len = (size_t)file_size;
    return NB_OK;
}

nbb_format nbb_format_for_path(const char *path)
{
    static const char *const ext[] = {".sqlite", ".sqlite3", ".db"};
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        size_t k = strlen(ext[i]);
        if (n > k && strcasecmp(path + n - k, ext[i]) == 0 && path[n - k - 1] != '/')
            return NBB_FORMAT_SQLITE;
    }
    return NBB_FORMAT_BINARY;
}

static nb_status write_binary(nbb_builder *b, const char *path, nb_err *err)
{
    if (strcmp(path, "-") == 0)
        return write_bundle(b, STDOUT_FILENO, 0, "(standard output)", err);
    nbb_tempfile t;
    nb_status st = nbb_tempfile_create(&t, path, err);
    if (st != NB_OK)
        return st;
    st = write_bundle(b, t.fd, 1, t.tmp, err);
    return nbb_tempfile_finish(&t, st, err);
}

static nb_status write_sqlite(nbb_builder *b, const char *path, nbb_progress_fn progress,
                              void *arg, nb_err *err)
{
    uint8_t *image;
    size_t len;
    nb_status st = nbb_builder_image(b, &image, &len, err);
    if (st != NB_OK)
        return st;
    /* Opened (and checked) as any bundle, so that the database's tables
     * come from the same decoding the runtime does. */
    nb_bundle *bundle;
    st = nbi_bundle_open_image_alloc(image, len,
                                     strcmp(path, "-") == 0 ? "(standard output)" : path,
                                     NB_OPEN_VERIFY, nbb_mem(), &bundle, err);
    if (st != NB_OK)
        return st;
    st = nbb_sqlite_write_progress(bundle, path, progress, arg, err);
    nb_bundle_close(bundle);
    return st;
}

nb_status nbb_builder_write_format(nbb_builder *b, const char *path, nbb_format format, nb_err *err)
{
    return nbb_builder_write_progress(b, path, format, NULL, NULL, err);
}

nb_status nbb_builder_write_progress(nbb_builder *b, const char *path, nbb_format format,
                                     nbb_progress_fn progress, void *arg, nb_err *err)
{
    if (format == NBB_FORMAT_AUTO)
        format = nbb_format_for_path(path);
    if (format == NBB_FORMAT_SQLITE)
        return write_sqlite(b, path, progress, arg, err);
    nb_status st = write_binary(b, path, err);
    if (st == NB_OK && progress)
        progress(arg, 1);
    return st;
}

nb_status nbb_builder_write(nbb_builder *b, const char *path, nb_err *err)
{
    return nbb_builder_write_format(b, path, NBB_FORMAT_AUTO, err);
}

nb_status nbb_put_level(nbb_builder *b, const nbi_legend *legend, const nbi_agentset *agents,
                        const nbb_grid *grid, int compress, nb_err *err)
{
    nb_section_info in;
    nb_status st;
    /* What a reader would refuse is not written (a program's agent set may
     * carry costs of its own making). */
    if (agents && (st = nbi_agents_check(agents, legend, err)) != NB_OK)
        return st;
    size_t n = nbi_legend_encoded_size(legend);
    size_t m = agents ? nbi_agents_encoded_size(agents, legend->nterrains) : 0;
    uint8_t *buf = nbb_malloc(n > m ? n : m);
    if (!buf)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu bytes", n > m ? n : m);

    memset(&in, 0, sizeof in);
    in.type = NB_SEC_LEGEND;
    in.version = NBI_LEGEND_VERSION;
    in.param[0] = legend->nterrains;
    nbi_legend_encode(legend, buf);
    nbb_builder_remove(b, NB_SEC_LEGEND);
    st = nbb_builder_add(b, &in, buf, n, 0, err);
    if (st == NB_OK && agents) {
        memset(&in, 0, sizeof in);
        in.type = NB_SEC_AGENTS;
        in.version = nbi_agents_version(agents);
        in.param[0] = (uint32_t)agents->count;
        nbi_agents_encode(agents, legend->nterrains, buf);
        nbb_builder_remove(b, NB_SEC_AGENTS);
        st = nbb_builder_add(b, &in, buf, m, 0, err);
    }
    nbb_free(buf);
    if (st == NB_OK && grid) {
        /* The map is the biggest input: made in place and handed over, not
         * copied again. */
        size_t len;
        uint32_t bits;
        uint8_t *map = nbb_map_pack(grid, &len, &bits);
        if (!map)
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for a %u x %u map", grid->width,
                            grid->height);
        memset(&in, 0, sizeof in);
        in.type = NB_SEC_MAP;
        in.version = NBI_MAP_VERSION_PACKED;
        in.encoding = NB_ENC_PACKED;
        in.param[0] = grid->width;
        in.param[1] = grid->height;
        in.param[2] = bits;
        nbb_builder_remove(b, NB_SEC_MAP);
        st = nbb_builder_add_owned(b, &in, map, len, compress, err);
    }
    return st;
}

const nb_section_info *nbb_builder_section(const nbb_builder *b, size_t i, const uint8_t **stored)
{
    if (i >= b->n)
        return NULL;
    *stored = b->sec[i].stored;
    return &b->sec[i].info;
}
