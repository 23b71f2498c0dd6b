/* verify.c: the full integrity check of an open bundle.  Open checks the
 * structure; this reads every byte: each section's CRC, and that every
 * byte not inside the header, the table or a section is zero, so that no
 * single-bit change anywhere in the file goes unnoticed.  Then what a CRC
 * cannot see (a section baked wrong stays consistent with its checksum):
 * every section's structure, checked as its reader checks it before a
 * query trusts it, so that a bundle that verifies is one every query
 * accepts.  The checks come from the table of types the bundle was opened
 * with (sections/sections.c), so that the container knows no feature. */
#include <stdio.h>

#include "bundle/bundle.h"

static nb_status zero_gap(const nb_bundle *b, uint64_t from, uint64_t to, nb_err *err)
{
    for (uint64_t i = from; i < to; i++)
        if (b->data[i] != 0)
            return nbi_fail(err, NB_ERR_CRC,
                            "%s: byte %llu between sections is 0x%02x, expected padding 0: the "
                            "file is damaged",
                            b->path, (unsigned long long)i, b->data[i]);
    return NB_OK;
}

/* Content checks that a CRC cannot make: the map's characters are all in
 * the legend (a packed map's values all within its palette). */
static nb_status check_map_chars(const nb_bundle *b, nb_err *err)
{
    uint64_t n = (uint64_t)b->width * b->height;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t v = nbi_map_value(&b->map, (size_t)i);
        if (v >= b->map.chars)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: map cell (%llu, %llu) holds value %u, beyond the palette's %u "
                            "characters",
                            b->path, (unsigned long long)(i % b->width),
                            (unsigned long long)(i / b->width), v, b->map.chars);
        uint8_t ch = b->map.palette[v];
        if (b->legend.code[ch] == NBI_CELL_INVALID)
            return nbi_fail(err, NB_ERR_FORMAT,
                            "%s: map cell (%llu, %llu) holds character 0x%02x, which the legend "
                            "does not define",
                            b->path, (unsigned long long)(i % b->width),
                            (unsigned long long)(i / b->width), ch);
    }
    return NB_OK;
}

nb_status nb_bundle_verify(const nb_bundle *b, nb_err *err)
{
    nb_status st;
    uint64_t at = NBI_HEADER_SIZE;
    uint64_t table = nbi_get64(b->data + NBI_HDR_TABLE);
    uint64_t table_end = table + (uint64_t)b->nsections * nbi_get32(b->data + NBI_HDR_ENTRY_SIZE);
    if ((st = zero_gap(b, at, table, err)) != NB_OK)
        return st;
    at = table_end;
    for (size_t i = 0; i < b->nsections; i++) {
        const nb_section_info *in = &b->sections[i].info;
        if ((st = zero_gap(b, at, in->offset, err)) != NB_OK)
            return st;
        if ((st = nbi_section_crc_check(b, i, err)) != NB_OK)
            return st;
        at = in->offset + in->size;
    }
    if ((st = zero_gap(b, at, b->size, err)) != NB_OK)
        return st;
    if (b->has_map && (st = check_map_chars(b, err)) != NB_OK)
        return st;
    if ((st = nbi_sections_check(b, err)) != NB_OK)
        return st;
    nbi_ok(err);
    return NB_OK;
}

nb_status nbi_sections_check(const nb_bundle *b, nb_err *err)
{
    for (size_t i = 0; i < b->nsections; i++) {
        const struct nbi_section_kind *k = nbi_kind_of(b, b->sections[i].info.type);
        nb_status st;
        if (k && k->check && (st = k->check(b, i, err)) != NB_OK)
            return st;
    }
    nbi_ok(err);
    return NB_OK;
}
