/* gm_jsonscan: checks the JSON syntax of an object and finds some of its
 * members, without building a tree of its values.
 *
 * Triage reads a few small fields of thousands of reproducers whose bulk
 * (the case and both outputs) it never looks at; building cJSON trees of
 * all of it costs ~50 times what scanning does. The scan checks the whole
 * text against the JSON grammar (RFC 8259: strings and their escapes,
 * numbers, literals, nesting), so a truncated or garbled file is still
 * rejected; the caller parses the members it found with cJSON.
 *
 * It is also the one JSON acceptance rule of gmfuzz: every reader checks
 * its text here first (gm_json_parse included), so that the scanner and
 * the full reader accept and reject the same documents (issue 11, item 8:
 * cJSON alone skips every byte <= 32, NUL included, as whitespace).
 */
#ifndef GM_JSONSCAN_H
#define GM_JSONSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_error.h"

/* Deeper nesting is rejected (hostile input must not exhaust the stack). */
#define GM_JSONSCAN_MAX_DEPTH 256

/* The text of one member's value; start == NULL when the member is absent. */
typedef struct {
    const char *start;
    size_t len;
} gm_jsonscan_span;

/* Checks that text[0..len) is exactly one JSON object (whitespace around
 * it allowed) and sets spans[k] to the value of member keys[k]: "name" is
 * a member of that object, "parent.name" a member of the object that is
 * the value of "parent" (one level down; the caller checks that "parent"
 * is an object). Names are compared byte for byte with the raw key, which
 * must not need escapes. A wanted member given twice is an error.
 * Messages say what is wrong and at which byte; the caller prefixes the
 * file name. */
bool gm_jsonscan_object(const char *text, size_t len, const char *const *keys, size_t n_keys,
                        gm_jsonscan_span *spans, gm_error *err);

/* What `expected` names when a complete value is followed by more text. */
#define GM_JSONSCAN_TRAILING "the end of the document"

/* Checks that text[0..len) is exactly one JSON value of any type
 * (whitespace around it allowed). On failure *at is the byte where the
 * scan stopped and *expected what it expected there; on success *at is len
 * and *expected NULL. */
bool gm_jsonscan_value_check(const char *text, size_t len, size_t *at, const char **expected);

#endif
