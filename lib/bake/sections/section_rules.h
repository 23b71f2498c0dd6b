/* section_rules.h: the bake side's registry of section types
 * (section_rules.c): for every type, what verify --deep does with it (its
 * deep check: the section baked again from the bundle's inputs and
 * compared) and what mkclear's update of a bundle does with it (its rebake
 * rule, rebake/level_rebake.c).  The runtime's registry (lib/runtime/sections/) holds
 * each type's name and structural check; the two list the same types
 * (tests/unit/test_sections.c).  It sits above verify/, whose checks it
 * lists, and below rebake/, which follows its rules.  Internal. */
#ifndef NB_SECTION_RULES_H
#define NB_SECTION_RULES_H

#include "verify/deep.h"

/* What mkclear's update of a bundle for a level does with a section. */
typedef enum nbb_rebake_rule {
    NBB_RULE_LEVEL = 1, /* the level itself: written again when the level's files changed */
    NBB_RULE_UPDATED,   /* computed from the level: brought up to date when cells change */
    NBB_RULE_SAME_LEVEL, /* computed from the level, not brought up to date: kept for the same
                            level, removed when cells change (the next bake makes it again) */
    NBB_RULE_NOT_LEVEL  /* computed from no part of the level (a model, a unit, a forest and
                           what is built on them): kept as stored */
} nbb_rebake_rule;

typedef struct nbb_section_rules {
    uint32_t type;
    nbb_deep_check deep; /* verify --deep's check, or NULL: */
    const char *not_deep; /* why it has none */
    nbb_rebake_rule rebake;
} nbb_section_rules;

/* The rules of a type, or NULL for a type this library does not know. */
const nbb_section_rules *nbb_section_rules_of(uint32_t type);
/* The i-th type's, in type order, or NULL past the last. */
const nbb_section_rules *nbb_section_rules_at(size_t i);

#endif
