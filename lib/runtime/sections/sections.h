/* sections.h: the registry of section types (sections.c): every type this
 * reader knows, with its name, the meaning of its parameters and the
 * structural check its reader makes, in one table.  It sits above the
 * features whose checks it lists; the container (bundle/) is handed the
 * table when a bundle is opened and knows no feature itself.  Internal. */
#ifndef NB_SECTIONS_H
#define NB_SECTIONS_H

#include "bundle/bundle.h"

/* The table, in type order. */
extern const nbi_section_kinds nbi_sections;

/* The kind of a type, or NULL for a type this reader does not know. */
const struct nbi_section_kind *nbi_section_kind(uint32_t type);
/* The i-th known kind, in type order, or NULL past the last. */
const struct nbi_section_kind *nbi_section_kind_at(size_t i);

/* Opens a binary bundle image held in memory, taking ownership of image
 * (freed by nb_bundle_close, or here on failure; allocated with the C
 * library's malloc); name is used in messages. */
nb_status nbi_bundle_open_image(uint8_t *image, size_t len, const char *name, unsigned flags,
                                nb_bundle **out, nb_err *err);
/* The same with image from alloc (NULL: the C library's), which the
 * bundle then allocates with too. */
nb_status nbi_bundle_open_image_alloc(uint8_t *image, size_t len, const char *name,
                                      unsigned flags, const nb_allocator *alloc, nb_bundle **out,
                                      nb_err *err);

#endif
