/* gm_json_tree: the one JSON acceptance rule of gmfuzz, for every reader.
 *
 * Every document gmfuzz reads (cases, vectors, reproducers, known.json,
 * campaign.json, stats.jsonl lines) is checked by the triage scanner
 * (gm_jsonscan: RFC 8259, and surrogates in pairs) before anything reads
 * it, so that no two readers accept different texts (issue 11: cJSON
 * alone takes NUL, \f, \v and any byte <= 32 for whitespace, and the
 * scanner did not). The readers that walk a cJSON tree get it from here.
 */
#ifndef GM_JSON_TREE_H
#define GM_JSON_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "gm_error.h"

/* True when text[0..len) is exactly one JSON value (whitespace around it
 * allowed); else false with "JSON syntax error at byte N (line L, column
 * C) near "...": expected X", or "unexpected text after the JSON document
 * at byte N ..." when a complete value is followed by more. */
bool gm_json_syntax_check(const char *text, size_t len, gm_error *err);

/* The cJSON tree of text that passes gm_json_syntax_check; NULL with `err`
 * set otherwise (or when memory runs out). */
cJSON *gm_json_tree_parse(const char *text, size_t len, gm_error *err);

#endif
