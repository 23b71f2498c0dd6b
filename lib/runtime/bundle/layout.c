/* layout.c: where each section goes in a binary bundle, and the
 * bytes of its header and section table (formats/bundle.md).
 *
 * The writer lays a bundle out with it, and so does the SQLite reader when
 * it rebuilds the binary form of a database in memory: one layout, so that
 * binary -> SQLite -> binary gives back the same bytes. */
#include <zlib.h>

#include "bundle/bundle.h"

static uint64_t align_up(uint64_t v) { return (v + NBI_ALIGN - 1) / NBI_ALIGN * NBI_ALIGN; }

uint64_t nbi_layout_offsets(nb_section_info *secs, size_t n)
{
    uint64_t at = NBI_HEADER_SIZE + (uint64_t)n * NBI_ENTRY_SIZE;
    for (size_t i = 0; i < n; i++) {
        at = align_up(at);
        secs[i].offset = at;
        at += secs[i].size;
    }
    return at;
}

void nbi_layout_head(const nb_section_info *secs, size_t n, unsigned major, unsigned minor,
                     uint32_t flags, uint64_t file_size, uint8_t *head)
{
    size_t head_len = NBI_HEADER_SIZE + n * NBI_ENTRY_SIZE;
    memset(head, 0, head_len);
    for (size_t i = 0; i < n; i++) {
        const nb_section_info *in = &secs[i];
        uint8_t *e = head + NBI_HEADER_SIZE + i * NBI_ENTRY_SIZE;
        nbi_put32(e + NBI_ENT_TYPE, in->type);
        nbi_put16(e + NBI_ENT_VERSION, in->version);
        nbi_put16(e + NBI_ENT_ENCODING, in->encoding);
        nbi_put64(e + NBI_ENT_OFFSET, in->offset);
        nbi_put64(e + NBI_ENT_SIZE, in->size);
        nbi_put64(e + NBI_ENT_USIZE, in->usize);
        nbi_put32(e + NBI_ENT_CRC, in->crc);
        nbi_put32(e + NBI_ENT_FLAGS, in->flags);
        for (int k = 0; k < NB_SECTION_PARAMS; k++)
            nbi_put32(e + NBI_ENT_PARAMS + 4 * k, in->param[k]);
        /* NUL-padded: nothing after the terminator reaches the file. */
        size_t nl = strnlen(in->name, sizeof in->name - 1);
        memcpy(e + NBI_ENT_NAME, in->name, nl);
    }
    memcpy(head + NBI_HDR_MAGIC, NBI_MAGIC, NBI_MAGIC_LEN);
    nbi_put16(head + NBI_HDR_MAJOR, (uint16_t)major);
    nbi_put16(head + NBI_HDR_MINOR, (uint16_t)minor);
    nbi_put32(head + NBI_HDR_FLAGS, flags);
    nbi_put32(head + NBI_HDR_HEADER_SIZE, NBI_HEADER_SIZE);
    nbi_put32(head + NBI_HDR_ENTRY_SIZE, NBI_ENTRY_SIZE);
    nbi_put32(head + NBI_HDR_COUNT, (uint32_t)n);
    nbi_put64(head + NBI_HDR_TABLE, NBI_HEADER_SIZE);
    nbi_put64(head + NBI_HDR_FILE_SIZE, file_size);
    nbi_put32(head + NBI_HDR_TABLE_CRC, (uint32_t)crc32(0, head + NBI_HEADER_SIZE, (uInt)(head_len - NBI_HEADER_SIZE)));
    nbi_put32(head + NBI_HDR_CRC, (uint32_t)crc32(0, head, NBI_HDR_CRC));
}
