/* bundle_write.c: the bundle writer.
 *
 * A builder holds sections in memory; a tool loads the existing bundle,
 * replaces the sections it owns and writes.  The write goes to a temporary
 * file beside the target that is renamed into place, so a failed or killed
 * bake never leaves a half-written bundle and the old one stays intact.
 * The bytes depend only on the sections: no timestamps, zeroed padding, a
 * fixed order. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "build.h"

struct bsec {
    nb_section_info info;
    uint8_t *stored;
};

struct nbb_builder {
    struct bsec *sec;
    size_t n, cap;
    unsigned minor; /* the highest minor version among loaded bundles */
};

nb_status nbb_builder_new(nbb_builder **out, nb_err *err)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for a bundle builder");
    (*out)->minor = NB_FORMAT_MINOR;
    return NB_OK;
}

void nbb_builder_free(nbb_builder *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n; i++)
        free(b->sec[i].stored);
    free(b->sec);
    free(b);
}

static int cmp_key(const nb_section_info *a, const nb_section_info *b)
{
    if (a->type != b->type)
        return a->type < b->type ? -1 : 1;
    int c = strcmp(a->name, b->name);
    if (c)
        return c < 0 ? -1 : 1;
    for (int i = 0; i < NB_SECTION_PARAMS; i++)
        if (a->param[i] != b->param[i])
            return a->param[i] < b->param[i] ? -1 : 1;
    return 0;
}

static int cmp_sec(const void *a, const void *b)
{
    return cmp_key(&((const struct bsec *)a)->info, &((const struct bsec *)b)->info);
}

/* Takes ownership of stored. */
static nb_status put(nbb_builder *b, const nb_section_info *info, uint8_t *stored, nb_err *err)
{
    for (size_t i = 0; i < b->n; i++)
        if (cmp_key(&b->sec[i].info, info) == 0) {
            free(b->sec[i].stored);
            b->sec[i].info = *info;
            b->sec[i].stored = stored;
            return NB_OK;
        }
    if (b->n == NBI_MAX_SECTIONS) {
        free(stored);
        return nbi_fail(err, NB_ERR_LIMIT, "a bundle holds at most %d sections", NBI_MAX_SECTIONS);
    }
    if (b->n == b->cap) {
        size_t ncap = b->cap ? 2 * b->cap : 16;
        struct bsec *s = realloc(b->sec, ncap * sizeof *s);
        if (!s) {
            free(stored);
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu sections", ncap);
        }
        b->sec = s;
        b->cap = ncap;
    }
    b->sec[b->n].info = *info;
    b->sec[b->n].stored = stored;
    b->n++;
    return NB_OK;
}

nb_status nbb_builder_load(nbb_builder *b, const char *path, int may_be_missing, nb_err *err)
{
    struct stat sb;
    if (may_be_missing && strcmp(path, "-") != 0 && stat(path, &sb) != 0 && errno == ENOENT)
        return NB_OK;
    nb_bundle *old;
    nb_status st = nb_bundle_open(path, NB_OPEN_VERIFY, &old, err);
    if (st != NB_OK) {
        nbi_err_prefix(err, "cannot update the existing bundle (remove it to start afresh)");
        return st;
    }
    st = nbb_builder_take(b, old, err);
    nb_bundle_close(old);
    return st;
}

nb_status nbb_builder_take(nbb_builder *b, const nb_bundle *old, nb_err *err)
{
    nb_status st = NB_OK;
    if (old->minor > b->minor)
        b->minor = old->minor;
    for (size_t i = 0; i < old->nsections && st == NB_OK; i++) {
        const struct nbi_section *s = &old->sections[i];
        uint8_t *copy = malloc(s->info.size ? (size_t)s->info.size : 1);
        if (!copy) {
            st = nbi_fail(err, NB_ERR_NOMEM, "%s: no memory to copy section %zu", old->path, i);
            break;
        }
        memcpy(copy, s->stored, (size_t)s->info.size);
        st = put(b, &s->info, copy, err);
    }
    return st;
}

nb_status nbb_builder_add(nbb_builder *b, const nb_section_info *info, const void *payload,
                          size_t len, int compress, nb_err *err)
{
    nb_section_info in = *info;
    uint8_t *stored;
    if (!nbi_section_kind(in.type) || NB_ENC_COMPRESSION(in.encoding) ||
        NB_ENC_LAYOUT(in.encoding) > NB_ENC_PACKED || memchr(in.name, 0, sizeof in.name) == NULL)
        return nbi_fail(err, NB_ERR_ARG, "nbb_builder_add: bad section type, encoding or name");
    in.usize = len;
    if (compress && len > 0) {
        uLongf zlen = compressBound((uLong)len);
        stored = malloc(zlen);
        if (!stored)
            return nbi_fail(err, NB_ERR_NOMEM, "no memory to compress %zu bytes", len);
        if (compress2(stored, &zlen, payload, (uLong)len, Z_BEST_COMPRESSION) != Z_OK) {
            free(stored);
            return nbi_fail(err, NB_ERR_NOMEM, "zlib could not compress a %s section",
                            nb_section_type_name(in.type));
        }
        in.size = zlen;
        in.encoding |= NB_ENC_ZLIB;
    } else {
        stored = malloc(len ? len : 1);
        if (!stored)
            return nbi_fail(err, NB_ERR_NOMEM, "no memory for a %zu-byte section", len);
        if (len)
            memcpy(stored, payload, len);
        in.size = len;
    }
    {
        uLong crc = crc32(0, NULL, 0);
        for (uint64_t at = 0; at < in.size;) {
            uInt n = (uInt)(in.size - at > 0x40000000u ? 0x40000000u : in.size - at);
            crc = crc32(crc, stored + at, n);
            at += n;
        }
        in.crc = (uint32_t)crc;
    }
    in.offset = 0;
    /* The name is NUL-padded on disk: clear what follows the terminator. */
    size_t nl = strlen(in.name);
    memset(in.name + nl, 0, sizeof in.name - nl);
    return put(b, &in, stored, err);
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
            free(b->sec[i].stored);
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

static nb_status write_all(int fd, const void *data, size_t len, const char *path, nb_err *err)
{
    const uint8_t *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len > (1u << 30) ? (1u << 30) : len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return nbi_fail_errno(err, "write error", path);
        p += w;
        len -= (size_t)w;
    }
    return NB_OK;
}

static nb_status write_zeros(int fd, uint64_t n, const char *path, nb_err *err)
{
    static const uint8_t zeros[NBI_ALIGN];
    nb_status st = NB_OK;
    while (n > 0 && st == NB_OK) {
        size_t k = n > sizeof zeros ? sizeof zeros : (size_t)n;
        st = write_all(fd, zeros, k, path, err);
        n -= k;
    }
    return st;
}

static uint64_t align_up(uint64_t v) { return (v + NBI_ALIGN - 1) / NBI_ALIGN * NBI_ALIGN; }

/* Header, table and sections, in file order. */
static nb_status write_bundle(nbb_builder *b, int fd, const char *path, nb_err *err)
{
    qsort(b->sec, b->n, sizeof *b->sec, cmp_sec);
    uint64_t table_end = NBI_HEADER_SIZE + (uint64_t)b->n * NBI_ENTRY_SIZE, at = table_end;
    for (size_t i = 0; i < b->n; i++) {
        at = align_up(at);
        b->sec[i].info.offset = at;
        at += b->sec[i].info.size;
    }
    uint64_t file_size = at;
    size_t head_len = (size_t)table_end;
    uint8_t *head = calloc(1, head_len);
    if (!head)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for the section table");
    for (size_t i = 0; i < b->n; i++) {
        const nb_section_info *in = &b->sec[i].info;
        uint8_t *e = head + NBI_HEADER_SIZE + i * NBI_ENTRY_SIZE;
        nbi_put32(e, in->type);
        nbi_put16(e + 4, in->version);
        nbi_put16(e + 6, in->encoding);
        nbi_put64(e + 8, in->offset);
        nbi_put64(e + 16, in->size);
        nbi_put64(e + 24, in->usize);
        nbi_put32(e + 32, in->crc);
        nbi_put32(e + 36, in->flags);
        for (int k = 0; k < NB_SECTION_PARAMS; k++)
            nbi_put32(e + 40 + 4 * k, in->param[k]);
        memcpy(e + 72, in->name, sizeof in->name);
    }
    memcpy(head, NBI_MAGIC, NBI_MAGIC_LEN);
    nbi_put16(head + 8, NB_FORMAT_MAJOR);
    nbi_put16(head + 10, (uint16_t)b->minor);
    nbi_put32(head + 12, 0);
    nbi_put32(head + 16, NBI_HEADER_SIZE);
    nbi_put32(head + 20, NBI_ENTRY_SIZE);
    nbi_put32(head + 24, (uint32_t)b->n);
    nbi_put64(head + 32, NBI_HEADER_SIZE);
    nbi_put64(head + 40, file_size);
    nbi_put32(head + 48, (uint32_t)crc32(0, head + NBI_HEADER_SIZE, (uInt)(head_len - NBI_HEADER_SIZE)));
    nbi_put32(head + 60, (uint32_t)crc32(0, head, 60));
    nb_status st = write_all(fd, head, head_len, path, err);
    free(head);
    at = table_end;
    for (size_t i = 0; i < b->n && st == NB_OK; i++) {
        const nb_section_info *in = &b->sec[i].info;
        st = write_zeros(fd, in->offset - at, path, err);
        if (st == NB_OK)
            st = write_all(fd, b->sec[i].stored, (size_t)in->size, path, err);
        at = in->offset + in->size;
    }
    return st;
}

nb_status nbb_builder_write(nbb_builder *b, const char *path, nb_err *err)
{
    if (strcmp(path, "-") == 0)
        return write_bundle(b, STDOUT_FILENO, "(standard output)", err);

    size_t plen = strlen(path);
    char *tmp = malloc(plen + 48);
    if (!tmp)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory");
    /* Ctrl-C or a polite kill during the write is held until the temporary
     * file is renamed or removed, so none is left behind. */
    sigset_t hold, saved;
    sigemptyset(&hold);
    sigaddset(&hold, SIGINT);
    sigaddset(&hold, SIGTERM);
    sigaddset(&hold, SIGHUP);
    sigaddset(&hold, SIGQUIT);
    sigprocmask(SIG_BLOCK, &hold, &saved);
    int fd = -1;
    for (unsigned k = 0; k < 1000 && fd < 0; k++) {
        snprintf(tmp, plen + 48, "%s.tmp-%ld-%u", path, (long)getpid(), k);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        nb_status st = nbi_fail_errno(err, "cannot create a temporary file beside", path);
        free(tmp);
        sigprocmask(SIG_SETMASK, &saved, NULL);
        return st;
    }
    /* A rewritten bundle keeps the permissions the old one had. */
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode))
        (void)fchmod(fd, sb.st_mode & 07777);
    nb_status st = write_bundle(b, fd, tmp, err);
#ifdef HAVE_FSYNC
    if (st == NB_OK && fsync(fd) != 0)
        st = nbi_fail_errno(err, "fsync failed", tmp);
#endif
    if (close(fd) != 0 && st == NB_OK)
        st = nbi_fail_errno(err, "close failed", tmp);
    if (st == NB_OK && rename(tmp, path) != 0)
        st = nbi_fail_errno(err, "cannot rename the new bundle into place", path);
    if (st != NB_OK)
        unlink(tmp);
    free(tmp);
    sigprocmask(SIG_SETMASK, &saved, NULL);
    return st;
}

nb_status nbb_put_level(nbb_builder *b, const nbi_legend *legend, const nbi_agentset *agents,
                        const nbb_grid *grid, int compress, nb_err *err)
{
    nb_section_info in;
    nb_status st;
    size_t n = nbi_legend_encoded_size(legend);
    size_t m = agents ? nbi_agents_encoded_size(agents) : 0;
    uint64_t cells = grid ? (uint64_t)grid->width * grid->height : 0;
    size_t big = n > m ? n : m;
    if (grid && NBI_MAP_HEADER + cells > big)
        big = NBI_MAP_HEADER + (size_t)cells;
    uint8_t *buf = malloc(big);
    if (!buf)
        return nbi_fail(err, NB_ERR_NOMEM, "no memory for %zu bytes", big);

    memset(&in, 0, sizeof in);
    in.type = NB_SEC_LEGEND;
    in.version = 1;
    in.param[0] = legend->nterrains;
    nbi_legend_encode(legend, buf);
    nbb_builder_remove(b, NB_SEC_LEGEND);
    st = nbb_builder_add(b, &in, buf, n, 0, err);
    if (st == NB_OK && agents) {
        memset(&in, 0, sizeof in);
        in.type = NB_SEC_AGENTS;
        in.version = 1;
        in.param[0] = (uint32_t)agents->count;
        nbi_agents_encode(agents, buf);
        nbb_builder_remove(b, NB_SEC_AGENTS);
        st = nbb_builder_add(b, &in, buf, m, 0, err);
    }
    if (st == NB_OK && grid) {
        memset(&in, 0, sizeof in);
        in.type = NB_SEC_MAP;
        in.version = 1;
        in.param[0] = grid->width;
        in.param[1] = grid->height;
        nbi_put32(buf, grid->width);
        nbi_put32(buf + 4, grid->height);
        memcpy(buf + NBI_MAP_HEADER, grid->cells, (size_t)cells);
        nbb_builder_remove(b, NB_SEC_MAP);
        st = nbb_builder_add(b, &in, buf, NBI_MAP_HEADER + (size_t)cells, compress, err);
    }
    free(buf);
    return st;
}
