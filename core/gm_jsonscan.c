/* gm_jsonscan: a recursive-descent recognizer of the JSON grammar. It
 * builds nothing; the only values it keeps are the spans of the wanted
 * members of the outermost object. */
#include "gm_jsonscan.h"

#include <string.h>

typedef struct {
    const char *s;
    size_t n;
    size_t at;
    int depth;
    const char *problem; /* what was expected where the scan stopped */
    /* the outermost object's wanted members */
    const char *const *keys;
    size_t n_keys;
    gm_jsonscan_span *spans;
    const char *twice;   /* a wanted key seen twice */
    /* the outermost object's member whose value is being scanned */
    size_t parent_at, parent_len;
} gm_jsonscan;

static bool gm_jsonscan_value(gm_jsonscan *sc);

static bool gm_jsonscan_fail(gm_jsonscan *sc, const char *expected) {
    sc->problem = expected;
    return false;
}

static void gm_jsonscan_space(gm_jsonscan *sc) {
    while (sc->at < sc->n) {
        char c = sc->s[sc->at];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
            return;
        }
        sc->at++;
    }
}

static bool gm_jsonscan_peek(const gm_jsonscan *sc, char c) {
    return sc->at < sc->n && sc->s[sc->at] == c;
}

static bool gm_jsonscan_is_hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static unsigned gm_jsonscan_hex_value(char c) {
    return (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
}

/* Four hex digits at sc->at, read into *cp. */
static bool gm_jsonscan_hex4(gm_jsonscan *sc, unsigned *cp) {
    *cp = 0;
    for (int k = 0; k < 4; k++, sc->at++) {
        if (sc->at >= sc->n || !gm_jsonscan_is_hex(sc->s[sc->at])) {
            return gm_jsonscan_fail(sc, "four hex digits after \\u");
        }
        *cp = *cp << 4 | gm_jsonscan_hex_value(sc->s[sc->at]);
    }
    return true;
}

/* After a backslash: one of "\/bfnrt, or u and four hex digits. A UTF-16
 * surrogate must come as a pair (high, then low): RFC 8259's grammar lets
 * a lone one through, but it is no character, readers differ on it (cJSON
 * refuses it), and gmfuzz's one acceptance rule refuses it too. */
static bool gm_jsonscan_escape(gm_jsonscan *sc) {
    if (sc->at >= sc->n || strchr("\"\\/bfnrtu", sc->s[sc->at]) == NULL || sc->s[sc->at] == 0) {
        return gm_jsonscan_fail(sc, "a valid escape in a string");
    }
    if (sc->s[sc->at++] != 'u') {
        return true;
    }
    unsigned cp, low;
    size_t start = sc->at;
    if (!gm_jsonscan_hex4(sc, &cp)) {
        return false;
    }
    if (cp >= 0xdc00 && cp <= 0xdfff) {
        sc->at = start;
        return gm_jsonscan_fail(sc, "no lone low surrogate (\\udc00..\\udfff)");
    }
    if (cp < 0xd800 || cp > 0xdbff) {
        return true;
    }
    size_t second = sc->at;
    if (sc->n - sc->at < 2 || sc->s[sc->at] != '\\' || sc->s[sc->at + 1] != 'u') {
        return gm_jsonscan_fail(sc, "a low surrogate (\\udc00..\\udfff) after a high one");
    }
    sc->at += 2;
    if (!gm_jsonscan_hex4(sc, &low)) {
        return false;
    }
    if (low < 0xdc00 || low > 0xdfff) {
        sc->at = second;
        return gm_jsonscan_fail(sc, "a low surrogate (\\udc00..\\udfff) after a high one");
    }
    return true;
}

static bool gm_jsonscan_string(gm_jsonscan *sc) {
    sc->at++; /* the opening quote */
    while (sc->at < sc->n) {
        unsigned char c = (unsigned char)sc->s[sc->at++];
        if (c == '"') {
            return true;
        }
        if (c < 0x20) {
            return gm_jsonscan_fail(sc, "no control characters in a string");
        }
        if (c == '\\' && !gm_jsonscan_escape(sc)) {
            return false;
        }
    }
    return gm_jsonscan_fail(sc, "the end of a string");
}

/* One or more digits; false when there is none. */
static bool gm_jsonscan_digits(gm_jsonscan *sc) {
    size_t from = sc->at;
    while (sc->at < sc->n && sc->s[sc->at] >= '0' && sc->s[sc->at] <= '9') {
        sc->at++;
    }
    return sc->at > from;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool gm_jsonscan_number(gm_jsonscan *sc) {
    if (gm_jsonscan_peek(sc, '-')) {
        sc->at++;
    }
    if (gm_jsonscan_peek(sc, '0')) {
        sc->at++;
    } else if (!gm_jsonscan_digits(sc)) {
        return gm_jsonscan_fail(sc, "a digit");
    }
    if (gm_jsonscan_peek(sc, '.')) {
        sc->at++;
        if (!gm_jsonscan_digits(sc)) {
            return gm_jsonscan_fail(sc, "a digit after the decimal point");
        }
    }
    if (gm_jsonscan_peek(sc, 'e') || gm_jsonscan_peek(sc, 'E')) {
        sc->at++;
        if (gm_jsonscan_peek(sc, '+') || gm_jsonscan_peek(sc, '-')) {
            sc->at++;
        }
        if (!gm_jsonscan_digits(sc)) {
            return gm_jsonscan_fail(sc, "a digit in the exponent");
        }
    }
    return true;
}

static bool gm_jsonscan_literal(gm_jsonscan *sc, const char *word) {
    size_t n = strlen(word);
    if (sc->n - sc->at < n || memcmp(sc->s + sc->at, word, n) != 0) {
        return gm_jsonscan_fail(sc, "a JSON value");
    }
    sc->at += n;
    return true;
}

/* After an element or member: ',' (more follow) or the closing bracket. */
static bool gm_jsonscan_next(gm_jsonscan *sc, char close, bool *more) {
    gm_jsonscan_space(sc);
    if (gm_jsonscan_peek(sc, ',')) {
        sc->at++;
        *more = true;
        return true;
    }
    if (gm_jsonscan_peek(sc, close)) {
        sc->at++;
        *more = false;
        return true;
    }
    return gm_jsonscan_fail(sc, close == ']' ? "',' or ']'" : "',' or '}'");
}

static bool gm_jsonscan_array(gm_jsonscan *sc) {
    sc->at++;
    gm_jsonscan_space(sc);
    if (gm_jsonscan_peek(sc, ']')) {
        sc->at++;
        return true;
    }
    for (bool more = true; more;) {
        if (!gm_jsonscan_value(sc) || !gm_jsonscan_next(sc, ']', &more)) {
            return false;
        }
    }
    return true;
}

/* Whether wanted key `want` names the member key[0..len) at this depth:
 * "name" a member of the outermost object, "parent.name" a member of the
 * object that is the value of its member "parent". */
static bool gm_jsonscan_names(const gm_jsonscan *sc, const char *want, size_t key_at,
                              size_t key_len) {
    const char *dot = strchr(want, '.');
    const char *name = want;
    if (sc->depth == 2) {
        if (dot == NULL || (size_t)(dot - want) != sc->parent_len ||
            memcmp(want, sc->s + sc->parent_at, sc->parent_len) != 0) {
            return false;
        }
        name = dot + 1;
    } else if (dot != NULL) {
        return false;
    }
    return strlen(name) == key_len && memcmp(sc->s + key_at, name, key_len) == 0;
}

/* Records the span of a wanted member. */
static void gm_jsonscan_want(gm_jsonscan *sc, size_t key_at, size_t key_len, size_t value_at) {
    for (size_t k = 0; k < sc->n_keys; k++) {
        if (gm_jsonscan_names(sc, sc->keys[k], key_at, key_len)) {
            if (sc->spans[k].start != NULL) {
                sc->twice = sc->keys[k];
            }
            sc->spans[k].start = sc->s + value_at;
            sc->spans[k].len = sc->at - value_at;
        }
    }
}

/* "key": value. Wanted members are at depth 1 or 2. */
static bool gm_jsonscan_member(gm_jsonscan *sc) {
    gm_jsonscan_space(sc);
    if (!gm_jsonscan_peek(sc, '"')) {
        return gm_jsonscan_fail(sc, "a member name");
    }
    size_t key_at = sc->at + 1;
    if (!gm_jsonscan_string(sc)) {
        return false;
    }
    size_t key_len = sc->at - 1 - key_at;
    gm_jsonscan_space(sc);
    if (!gm_jsonscan_peek(sc, ':')) {
        return gm_jsonscan_fail(sc, "':'");
    }
    sc->at++;
    gm_jsonscan_space(sc);
    size_t value_at = sc->at;
    if (sc->depth == 1) {
        sc->parent_at = key_at;
        sc->parent_len = key_len;
    }
    if (!gm_jsonscan_value(sc)) {
        return false;
    }
    if (sc->depth <= 2) {
        gm_jsonscan_want(sc, key_at, key_len, value_at);
    }
    return sc->twice == NULL;
}

static bool gm_jsonscan_members(gm_jsonscan *sc) {
    sc->at++;
    gm_jsonscan_space(sc);
    if (gm_jsonscan_peek(sc, '}')) {
        sc->at++;
        return true;
    }
    for (bool more = true; more;) {
        if (!gm_jsonscan_member(sc) || !gm_jsonscan_next(sc, '}', &more)) {
            return false;
        }
    }
    return true;
}

/* A nested array or object, one level deeper. */
static bool gm_jsonscan_nested(gm_jsonscan *sc, bool object) {
    if (sc->depth >= GM_JSONSCAN_MAX_DEPTH) {
        return gm_jsonscan_fail(sc, "less nesting");
    }
    sc->depth++;
    bool ok = object ? gm_jsonscan_members(sc) : gm_jsonscan_array(sc);
    sc->depth--;
    return ok;
}

static bool gm_jsonscan_value(gm_jsonscan *sc) {
    gm_jsonscan_space(sc);
    if (sc->at >= sc->n) {
        return gm_jsonscan_fail(sc, "a JSON value");
    }
    switch (sc->s[sc->at]) {
    case '{': return gm_jsonscan_nested(sc, true);
    case '[': return gm_jsonscan_nested(sc, false);
    case '"': return gm_jsonscan_string(sc);
    case 't': return gm_jsonscan_literal(sc, "true");
    case 'f': return gm_jsonscan_literal(sc, "false");
    case 'n': return gm_jsonscan_literal(sc, "null");
    default: return gm_jsonscan_number(sc);
    }
}

/* The whole text as one value; false with sc->at and sc->problem set. */
static bool gm_jsonscan_document(gm_jsonscan *sc) {
    if (!gm_jsonscan_value(sc)) {
        return false;
    }
    gm_jsonscan_space(sc);
    return sc->at == sc->n || gm_jsonscan_fail(sc, GM_JSONSCAN_TRAILING);
}

bool gm_jsonscan_value_check(const char *text, size_t len, size_t *at, const char **expected) {
    gm_jsonscan sc = {.s = text, .n = len};
    bool ok = gm_jsonscan_document(&sc);
    *at = sc.at;
    *expected = ok ? NULL : sc.problem;
    return ok;
}

bool gm_jsonscan_object(const char *text, size_t len, const char *const *keys, size_t n_keys,
                        gm_jsonscan_span *spans, gm_error *err) {
    gm_jsonscan sc = {.s = text, .n = len, .keys = keys, .n_keys = n_keys, .spans = spans};
    if (n_keys > 0) {
        memset(spans, 0, n_keys * sizeof *spans);
    }
    gm_jsonscan_space(&sc);
    if (!gm_jsonscan_peek(&sc, '{')) {
        return gm_error_set(err, GM_ERR_FORMAT, "the document must be a JSON object");
    }
    bool ok = gm_jsonscan_document(&sc);
    if (sc.twice != NULL) {
        return gm_error_set(err, GM_ERR_FORMAT, "%s: given twice", sc.twice);
    }
    if (!ok) {
        return gm_error_set(err, GM_ERR_FORMAT, "JSON syntax error at byte %zu: expected %s",
                            sc.at, sc.problem);
    }
    return true;
}
