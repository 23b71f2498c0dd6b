/* kinds.c: section types as an open bundle knows them: through the table
 * of types it was opened with (bundle.h; the registry's, sections/), so
 * that the container names types and tells known ones from newer ones
 * without knowing any.  And the names of the encodings, which are the
 * container's own. */
#include "bundle/bundle.h"

const struct nbi_section_kind *nbi_kind_of(const nb_bundle *b, uint32_t type)
{
    for (size_t i = 0; b->kinds && i < b->kinds->count; i++)
        if (b->kinds->kind[i].type == type)
            return &b->kinds->kind[i];
    return NULL;
}

const char *nbi_type_name(const nb_bundle *b, uint32_t type)
{
    const struct nbi_section_kind *k = nbi_kind_of(b, type);
    return k ? k->name : NULL;
}

const char *nb_encoding_name(uint16_t encoding)
{
    switch (encoding) {
    case NB_ENC_RAW: return "raw";
    case NB_ENC_PACKED: return "packed";
    case NB_ENC_ZLIB | NB_ENC_RAW: return "zlib+raw";
    case NB_ENC_ZLIB | NB_ENC_PACKED: return "zlib+packed";
    }
    return "unknown";
}
