/* bundle.c: an open bundle's structure.
 *
 * The bytes (mapped or in memory: open.c) are never trusted: the header
 * and the section table are checked against the real size before any
 * offset or count is used (LMDB's habit with its meta pages).  Sections of
 * known types are decoded here once, so that queries never parse. */
#include <stdio.h>
#include <zlib.h>

#include "bundle/bundle.h"
#include "bundle/osfile.h"
#include "core/crc32.h"

/* zlib's allocations go through the bundle's allocator too. */
static voidpf zalloc(voidpf opaque, uInt items, uInt size)
{
    return nbi_alloc_array(opaque, items, size);
}
static void zfree(voidpf opaque, voidpf p) { nbi_free(opaque, p); }

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
    s->owned = nbi_alloc(b->a, (size_t)in->usize);
    if (!s->owned)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory to inflate %llu bytes", b->path,
                        (unsigned long long)in->usize);
    z_stream z;
    memset(&z, 0, sizeof z);
    if (b->a) {
        z.zalloc = zalloc;
        z.zfree = zfree;
        z.opaque = (voidpf)b->a;
    }
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
    if (zr == Z_MEM_ERROR)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory to inflate section at offset %llu",
                        b->path, (unsigned long long)in->offset);
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
    if (size < NBI_MAGIC_LEN || memcmp(h + NBI_HDR_MAGIC, NBI_MAGIC, NBI_MAGIC_LEN) != 0)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: %s", b->path,
                        size == 0 ? "0 bytes, too short for a navbake bundle"
                                  : "not a navbake bundle (wrong magic number)");
    if (size < NBI_HEADER_SIZE)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: %llu bytes, too short for a navbake bundle (the header is %d bytes): "
                        "it was truncated",
                        b->path, (unsigned long long)size, NBI_HEADER_SIZE);
    if (nbi_get32(h + NBI_HDR_CRC) != (uint32_t)crc32(0, h, NBI_HDR_CRC))
        return nbi_fail(err, NB_ERR_CRC, "%s: header checksum mismatch: the header is damaged", b->path);
    b->major = nbi_get16(h + NBI_HDR_MAJOR);
    b->minor = nbi_get16(h + NBI_HDR_MINOR);
    b->flags = nbi_get32(h + NBI_HDR_FLAGS);
    if (b->major != NB_FORMAT_MAJOR)
        return nbi_fail(err, NB_ERR_VERSION,
                        "%s: bundle format version %u.%u; this reader (navbake %s) reads version "
                        "%d.x only",
                        b->path, b->major, b->minor, NB_VERSION_STRING, NB_FORMAT_MAJOR);
    uint32_t header_size = nbi_get32(h + NBI_HDR_HEADER_SIZE), entry_size = nbi_get32(h + NBI_HDR_ENTRY_SIZE);
    uint32_t count = nbi_get32(h + NBI_HDR_COUNT);
    uint64_t table = nbi_get64(h + NBI_HDR_TABLE), file_size = nbi_get64(h + NBI_HDR_FILE_SIZE);
    if (file_size != size)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: the header says %llu bytes but the file has %llu: it was truncated "
                        "or extended",
                        b->path, (unsigned long long)file_size, (unsigned long long)size);
    if (header_size != NBI_HEADER_SIZE)
        return nbi_fail(err, NB_ERR_FORMAT, "%s: header size %u, expected %d", b->path,
                        header_size, NBI_HEADER_SIZE);
    if (entry_size < NBI_ENTRY_SIZE || entry_size > NBI_ENTRY_MAX_SIZE || entry_size % 8)
        return nbi_fail(err, NB_ERR_FORMAT,
                        "%s: section entry size %u, expected a multiple of 8 from %d to %d",
                        b->path, entry_size, NBI_ENTRY_SIZE, NBI_ENTRY_MAX_SIZE);
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
    if (nbi_get32(h + NBI_HDR_TABLE_CRC) != (uint32_t)crc32(0, h + table, (uInt)(table_end - table)))
        return nbi_fail(err, NB_ERR_CRC, "%s: section table checksum mismatch: the table is damaged",
                        b->path);

    b->sections = nbi_zalloc_array(b->a, count, sizeof *b->sections);
    if (!b->sections)
        return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for %u sections", b->path, count);
    b->nsections = count;
    uint64_t prev_end = table_end;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *e = h + table + (uint64_t)i * entry_size;
        struct nbi_section *s = &b->sections[i];
        nb_section_info *in = &s->info;
        atomic_init(&s->check, NBI_CHECK_NONE);
        in->type = nbi_get32(e + NBI_ENT_TYPE);
        in->version = nbi_get16(e + NBI_ENT_VERSION);
        in->encoding = nbi_get16(e + NBI_ENT_ENCODING);
        in->offset = nbi_get64(e + NBI_ENT_OFFSET);
        in->size = nbi_get64(e + NBI_ENT_SIZE);
        in->usize = nbi_get64(e + NBI_ENT_USIZE);
        in->crc = nbi_get32(e + NBI_ENT_CRC);
        in->flags = nbi_get32(e + NBI_ENT_FLAGS);
        for (int k = 0; k < NB_SECTION_PARAMS; k++)
            in->param[k] = nbi_get32(e + NBI_ENT_PARAMS + 4 * k);
        if (memchr(e + NBI_ENT_NAME, 0, NBI_ENT_NAME_SIZE) == NULL)
            return nbi_fail(err, NB_ERR_FORMAT, "%s: section %u: name is not terminated", b->path, i);
        memcpy(in->name, e + NBI_ENT_NAME, NBI_ENT_NAME_SIZE);
        /* Names of known types reach messages, JSON and file names: only the
         * characters every name of a definition may have (formats/bundle.md). */
        if (nbi_kind_of(b, in->type) && in->name[0] && !nbi_name_ok(in->name))
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: section %u (%s): its name is not 1 to %d letters, digits, '_' "
                            "or '-'",
                            b->path, i, nbi_type_name(b, in->type), NB_NAME_MAX);
        if (in->offset % NBI_ALIGN || in->offset < prev_end || in->offset > size ||
            in->size > size - in->offset)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: section %u (%s) at offset %llu, %llu bytes: outside the file, "
                            "misaligned or overlapping the one before",
                            b->path, i, nbi_type_name(b, in->type) ? nbi_type_name(b, in->type) : "unknown type",
                            (unsigned long long)in->offset, (unsigned long long)in->size);
        prev_end = in->offset + in->size;
        nb_status st = nbi_table_order_check(b, i, err);
        if (st != NB_OK)
            return st;
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
 * does not know are skipped (a newer minor version may add them).  With
 * NB_OPEN_VERIFY the legend, agent set and map are checked against their
 * CRCs before they are decoded, so that random damage is named as such
 * rather than as the structural error it happens to make. */
static nb_status decode_known(nb_bundle *b, unsigned flags, nb_err *err)
{
    nb_status st;
    long legend_at = -1, agents_at = -1, map_at = -1;
    for (size_t i = 0; i < b->nsections; i++) {
        struct nbi_section *s = &b->sections[i];
        if (!nbi_kind_of(b, s->info.type))
            continue;
        if (NB_ENC_COMPRESSION(s->info.encoding) == NB_ENC_ZLIB &&
            NB_ENC_LAYOUT(s->info.encoding) <= NB_ENC_PACKED) {
            if ((st = inflate_section(b, s, err)) != NB_OK)
                return st;
        } else if (s->info.encoding != NB_ENC_RAW && s->info.encoding != NB_ENC_PACKED) {
            return nbi_fail(err, NB_ERR_FORMAT, "%s: section %zu (%s): unknown encoding 0x%04x",
                            b->path, i, nbi_type_name(b, s->info.type), s->info.encoding);
        }
        long *slot = s->info.type == NB_SEC_LEGEND ? &legend_at
                     : s->info.type == NB_SEC_AGENTS ? &agents_at
                     : s->info.type == NB_SEC_MAP ? &map_at : NULL;
        if (slot) {
            if (*slot >= 0)
                return nbi_fail(err, NB_ERR_FORMAT, "%s: two %s sections (%ld and %zu)", b->path,
                                nbi_type_name(b, s->info.type), *slot, i);
            /* NBI_LEGEND_VERSION; the agent set's two in agents.c, the map's in map_cells.c */
            int two = s->info.type == NB_SEC_AGENTS ? s->info.version == NBI_AGENTS_VERSION_COSTS
                      : s->info.type == NB_SEC_MAP  ? s->info.version == NBI_MAP_VERSION_PACKED
                                                    : 0;
            if (s->info.version != 1 && !two)
                return nbi_fail(err, NB_ERR_VERSION, "%s: %s section version %u, this reader knows %s",
                                b->path, nbi_type_name(b, s->info.type), s->info.version,
                                s->info.type == NB_SEC_LEGEND ? "1" : "1 and 2");
            if ((flags & NB_OPEN_VERIFY) && NB_ENC_COMPRESSION(s->info.encoding) != NB_ENC_ZLIB &&
                (st = nbi_section_crc_check(b, i, err)) != NB_OK)
                return st; /* a zlib section's stored bytes were checked as it was inflated */
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
        /* Room for the agents the section holds, not NB_MAX_AGENTS (80 KB with their
         * costs): a mapped open allocates little.  The decoder refuses a count beyond
         * NB_MAX_AGENTS before it writes an agent. */
        uint32_t n =
            s->info.usize >= NBI_AGENTS_HEADER ? nbi_get32(s->payload + NBI_AGENTS_COUNT) : 0;
        n = n > NB_MAX_AGENTS ? 0 : n;
        b->agents = nbi_alloc(b->a, offsetof(nbi_agentset, agent) + (n ? n : 1) * sizeof(nb_agent));
        if (!b->agents)
            return nbi_fail(err, NB_ERR_NOMEM, "%s: no memory for the agent set", b->path);
        if ((st = nbi_agents_decode(s->payload, (size_t)s->info.usize, s->info.version, &b->legend,
                                     b->agents, err)) !=
            NB_OK) {
            nbi_err_prefix(err, "%s", b->path);
            return st;
        }
    }
    if (map_at >= 0) {
        struct nbi_section *s = &b->sections[map_at];
        if ((st = nbi_map_decode(s->payload, s->info.usize, s->info.version, &b->width, &b->height,
                                 &b->map, err)) != NB_OK) {
            nbi_err_prefix(err, "%s", b->path);
            return st;
        }
        if (s->info.version == NBI_MAP_VERSION_PACKED && s->info.param[2] != b->map.bits)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: map section: parameter bits %u, the payload's %u bits a cell",
                            b->path, s->info.param[2], b->map.bits);
        b->has_map = 1;
    }
    return NB_OK;
}

nb_bundle *nbi_bundle_new(const char *name, const nb_allocator *a, const nbi_section_kinds *kinds,
                          nb_err *err)
{
    nb_bundle *b = nbi_zalloc_array(a, 1, sizeof *b);
    if (b) {
        b->kinds = kinds;
        if (a) {
            b->alloc = *a;
            b->a = &b->alloc;
        }
        b->path = nbi_strdup(b->a, name);
    }
    if (!b || !b->path) {
        nbi_free(a, b);
        nbi_fail(err, NB_ERR_NOMEM, "%s: no memory to open", name);
        return NULL;
    }
    return b;
}

nb_status nbi_bundle_load(nb_bundle *b, unsigned flags, nb_err *err)
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
        st = decode_known(b, flags, err);
    return st;
}

void nb_bundle_close(nb_bundle *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->nsections; i++)
        nbi_free(b->a, b->sections[i].owned);
    nbi_free(b->a, b->sections);
    nbi_free(b->a, b->agents);
    nbi_free(b->a, b->map_bytes);
    if (b->mapping)
        nbi_file_unmap(b->mapping, b->mapping_len);
    nbi_free(b->a, b->buffer);
    nbi_free(b->a, b->path);
    nb_allocator copy = b->alloc; /* b->a points into b */
    nbi_free(b->a ? &copy : NULL, b);
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

const nb_section_info *nb_bundle_section_get(const nb_bundle *b, size_t index)
{
    return index < b->nsections ? &b->sections[index].info : NULL;
}

nb_status nb_bundle_section_lookup(const nb_bundle *b, uint32_t type, const char *name,
                                   const uint32_t *params, size_t nparams, size_t *index,
                                   nb_err *err)
{
    if (!b || !index || (nparams && !params))
        return nbi_fail(err, NB_ERR_ARG, "nb_bundle_section_lookup: NULL argument");
    if (nparams > NB_SECTION_PARAMS)
        return nbi_fail(err, NB_ERR_ARG, "nb_bundle_section_lookup: %zu parameters, at most %d",
                        nparams, NB_SECTION_PARAMS);
    long i = nbi_section_index(b, type, name, params, nparams);
    if (i >= 0) {
        *index = (size_t)i;
        return nbi_done(err, NB_OK);
    }
    const char *tn = nbi_type_name(b, type);
    size_t n = 0;
    for (size_t k = 0; k < b->nsections; k++)
        n += b->sections[k].info.type == type;
    return nbi_fail(err, NB_ERR_NOTFOUND,
                    "%s: no %s section%s%s%s with these parameters (it has %zu of the type)",
                    b->path, tn ? tn : "such", name ? " named '" : "", name ? name : "",
                    name ? "'" : "", n);
}

long nbi_section_index(const nb_bundle *b, uint32_t type, const char *name, const uint32_t *params,
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
    nbi_ok(err);
    return NB_OK;
}

nb_status nbi_section_crc_check(const nb_bundle *b, size_t index, nb_err *err)
{
    const struct nbi_section *s = &b->sections[index];
    uint32_t crc = nbi_crc32(0, s->stored, (size_t)s->info.size);
    if (crc != s->info.crc) {
        const char *tn = nbi_type_name(b, s->info.type);
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
