#include "gm_json_tree.h"

#include <string.h>

#include "gm_jsonint.h"
#include "gm_jsonscan.h"

/* Bytes of the input quoted around a syntax error. */
#define GM_JSON_SNIPPET 24

/* "at byte N (line L, column C) near "...": expected X": where the scan
 * stopped, and what it wanted there. */
static bool syntax_error(const char *text, size_t len, size_t offset, const char *what,
                         const char *expected, gm_error *err) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < offset && i < len; i++) {
        column = text[i] == '\n' ? 1 : column + 1;
        line += text[i] == '\n';
    }
    char excerpt[GM_JSON_SNIPPET + 1];
    size_t n = offset < len ? len - offset : 0;
    n = n < GM_JSON_SNIPPET ? n : GM_JSON_SNIPPET;
    memcpy(excerpt, text + offset, n);
    excerpt[n] = '\0';
    char quoted[GM_JSON_SNIPPET * 4 + 8];
    gm_jsonint_quote_bytes(excerpt, n, quoted, sizeof quoted);
    return gm_error_set(err, GM_ERR_FORMAT,
                        "%s at byte %zu (line %zu, column %zu)%s%s: expected %s",
                        what, offset, line, column, n > 0 ? " near " : ", at the end of the input",
                        n > 0 ? quoted : "", expected);
}

/* The check is gm_jsonscan_value_check (RFC 8259, surrogates in pairs):
 * cJSON alone took any byte <= 32 (NUL, \f, \v) for whitespace and
 * ignored what followed the value. */
bool gm_json_syntax_check(const char *text, size_t len, gm_error *err) {
    size_t at;
    const char *expected;
    if (gm_jsonscan_value_check(text, len, &at, &expected)) {
        return true;
    }
    bool trailing = strcmp(expected, GM_JSONSCAN_TRAILING) == 0;
    return syntax_error(text, len, at,
                        trailing ? "unexpected text after the JSON document" : "JSON syntax error",
                        expected, err);
}

cJSON *gm_json_tree_parse(const char *text, size_t len, gm_error *err) {
    if (!gm_json_syntax_check(text, len, err)) {
        return NULL;
    }
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (root == NULL) { /* the scanner accepted it: only memory is left */
        gm_error_set(err, GM_ERR_MEMORY, "out of memory for the JSON tree of %zu bytes", len);
    }
    return root;
}
