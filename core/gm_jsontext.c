#include "gm_jsontext.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *gm_jt_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
        p++;
    }
    return p;
}

/* p at the opening quote; returns just after the closing one. */
static const char *gm_jt_skip_string(const char *p) {
    for (p++; *p != '"'; p++) {
        if (*p == '\\') {
            p++; /* the escaped byte is never the end */
        }
    }
    return p + 1;
}

static const char *gm_jt_skip_number(const char *p) {
    while ((*p >= '0' && *p <= '9') || *p == '-' || *p == '+' || *p == '.' || *p == 'e' ||
           *p == 'E') {
        p++;
    }
    return p;
}

/* An array or object: to its matching close, strings skipped whole. */
static const char *gm_jt_skip_nested(const char *p) {
    size_t depth = 0;
    for (;;) {
        char c = *p;
        if (c == '"') {
            p = gm_jt_skip_string(p);
            continue;
        }
        if (c == '[' || c == '{') {
            depth++;
        } else if ((c == ']' || c == '}') && --depth == 0) {
            return p + 1;
        }
        p++;
    }
}

gm_jt_type gm_jt_type_of(gm_jt v) {
    if (v.at == NULL) {
        return GM_JT_NONE;
    }
    switch (*v.at) {
    case 'n': return GM_JT_NULL;
    case 't': return GM_JT_TRUE;
    case 'f': return GM_JT_FALSE;
    case '"': return GM_JT_STRING;
    case '[': return GM_JT_ARRAY;
    case '{': return GM_JT_OBJECT;
    default: return GM_JT_NUMBER;
    }
}

const char *gm_jt_type_name(gm_jt v) {
    static const char *const names[] = {"nothing", "null",     "true",     "false",
                                        "a number", "a string", "an array", "an object"};
    return names[gm_jt_type_of(v)];
}

const char *gm_jt_end(gm_jt v) {
    switch (gm_jt_type_of(v)) {
    case GM_JT_NONE: return NULL;
    case GM_JT_NULL:
    case GM_JT_TRUE: return v.at + 4;
    case GM_JT_FALSE: return v.at + 5;
    case GM_JT_STRING: return gm_jt_skip_string(v.at);
    case GM_JT_NUMBER: return gm_jt_skip_number(v.at);
    default: return gm_jt_skip_nested(v.at);
    }
}

void gm_jt_array_begin(gm_jt array, gm_jt_cursor *c) { c->at = array.at + 1; }

bool gm_jt_array_next(gm_jt_cursor *c, gm_jt *elem) {
    const char *p = gm_jt_space(c->at);
    if (*p == ']') {
        c->at = p;
        return false;
    }
    if (*p == ',') {
        p = gm_jt_space(p + 1);
    }
    elem->at = p;
    c->at = gm_jt_end(*elem);
    return true;
}

size_t gm_jt_array_count(gm_jt array) {
    gm_jt_cursor c;
    gm_jt elem;
    size_t n = 0;
    gm_jt_array_begin(array, &c);
    while (gm_jt_array_next(&c, &elem)) {
        n++;
    }
    return n;
}

/* Counts the members of `object` and, when `table` is given, records them. */
static size_t gm_jt_object_walk(gm_jt object, gm_jt_member *table) {
    size_t n = 0;
    const char *p = gm_jt_space(object.at + 1);
    while (*p != '}') {
        if (*p == ',') {
            p = gm_jt_space(p + 1);
        }
        const char *key_end = gm_jt_skip_string(p);
        gm_jt value = {gm_jt_space(gm_jt_space(key_end) + 1)}; /* past ':' */
        if (table != NULL) {
            table[n] = (gm_jt_member){p + 1, value};
        }
        n++;
        p = gm_jt_space(gm_jt_end(value));
    }
    return n;
}

bool gm_jt_object_open(gm_jt object, gm_jt_object *o) {
    o->n = gm_jt_object_walk(object, NULL);
    o->members = o->n > 0 ? calloc(o->n, sizeof *o->members) : NULL;
    if (o->n > 0 && o->members == NULL) {
        o->n = 0;
        return false;
    }
    gm_jt_object_walk(object, o->members);
    return true;
}

void gm_jt_object_free(gm_jt_object *o) {
    free(o->members);
    o->members = NULL;
    o->n = 0;
}

static int gm_jt_hex(char c) {
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

static unsigned gm_jt_hex4(const char *p) {
    return (unsigned)(gm_jt_hex(p[0]) << 12 | gm_jt_hex(p[1]) << 8 | gm_jt_hex(p[2]) << 4 |
                      gm_jt_hex(p[3]));
}

static size_t gm_jt_utf8(unsigned cp, char *out) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* \uXXXX at p (after the backslash and 'u'), with its low half when it is
 * a high surrogate followed by one; *used: the bytes read after "\u". */
static unsigned gm_jt_code_point(const char *p, size_t *used) {
    unsigned cp = gm_jt_hex4(p);
    *used = 4;
    if (cp >= 0xd800 && cp <= 0xdbff && p[4] == '\\' && p[5] == 'u') {
        unsigned low = gm_jt_hex4(p + 6);
        if (low >= 0xdc00 && low <= 0xdfff) {
            *used = 10;
            return 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        }
    }
    return cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp;
}

/* Decodes raw[0..len) (escapes, no quotes) into out (room: len + 1). */
static void gm_jt_decode(const char *raw, size_t len, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (raw[i] != '\\') {
            out[o++] = raw[i];
            continue;
        }
        char e = raw[++i];
        if (e == 'u') {
            size_t used;
            unsigned cp = gm_jt_code_point(raw + i + 1, &used);
            o += gm_jt_utf8(cp, out + o); /* never longer than its escape */
            i += used;
            continue;
        }
        out[o++] = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r'
                 : e == 't' ? '\t' : e;
    }
    out[o] = '\0';
}

static char *gm_jt_dup_raw(const char *raw, size_t len) {
    char *out = len < SIZE_MAX ? malloc(len + 1) : NULL;
    if (out != NULL) {
        gm_jt_decode(raw, len, out);
    }
    return out;
}

/* The raw key's length: to its closing quote. */
static size_t gm_jt_key_len(const gm_jt_member *m) {
    return (size_t)(gm_jt_skip_string(m->key - 1) - 1 - m->key);
}

char *gm_jt_key_dup(const gm_jt_member *m) { return gm_jt_dup_raw(m->key, gm_jt_key_len(m)); }

bool gm_jt_key_is(const gm_jt_member *m, const char *name) {
    size_t i = 0;
    for (; m->key[i] != '"' && m->key[i] != '\\'; i++) {
        if (m->key[i] != name[i]) { /* also at the end of name: '\0' is never in a raw key */
            return false;
        }
    }
    if (m->key[i] == '"') {
        return name[i] == '\0';
    }
    char *key = gm_jt_key_dup(m); /* escaped: compare it decoded */
    bool same = key != NULL && strcmp(key, name) == 0;
    free(key);
    return same;
}

char *gm_jt_string_dup(gm_jt v) {
    const char *end = gm_jt_skip_string(v.at);
    return gm_jt_dup_raw(v.at + 1, (size_t)(end - 1 - (v.at + 1)));
}

bool gm_jt_string_is(gm_jt v, const char *s) {
    char *text = gm_jt_string_dup(v);
    bool same = text != NULL && strcmp(text, s) == 0;
    free(text);
    return same;
}
