/* gm_json_read: the validating reader of the three gmfuzz documents.
 *
 * The text is checked against the JSON grammar first (gm_jsonscan: the
 * one acceptance rule of every gmfuzz reader), then read in place
 * (gm_jsontext): no tree is built, arrays are walked with a cursor, so
 * that reading costs the text and the arrays it fills (issue 11, item 6).
 * What is read, in which order, with which rules, is the tables of
 * gm_json_fields.c: this file walks them, reads the scalar kinds and
 * applies the rules; gm_json_read_shapes.c reads the arrays.
 */
#define _POSIX_C_SOURCE 200809L /* fstat, fileno */

#include "gm_json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gm_json_fields.h"
#include "gm_json_read_shapes.h"
#include "gm_json_reader.h"
#include "gm_json_tree.h"

static void *gm_json_read_at(void *object, size_t offset) {
    return (char *)object + offset;
}

static bool gm_json_read_table(gm_json_reader *rd, const gm_jt_object *obj,
                               const gm_json_table *t, void *object);

/* ---- scalar kinds ------------------------------------------------------------------ */

static bool gm_json_read_format(gm_json_reader *rd, gm_jt item, const char *text) {
    if (gm_jt_type_of(item) != GM_JT_STRING || !gm_jt_string_is(item, text)) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT, "expected \"%s\"", text);
    }
    return true;
}

static bool gm_json_read_string(gm_json_reader *rd, gm_jt item, char **out) {
    if (gm_jt_type_of(item) != GM_JT_STRING) {
        return gm_json_reader_fail_type(rd, "a string", item);
    }
    return (*out = gm_json_reader_string(rd, item)) != NULL;
}

static bool gm_json_read_bool(gm_json_reader *rd, const gm_json_field *f, gm_jt item,
                              bool *out) {
    gm_jt_type type = gm_jt_type_of(item);
    if (item.at == NULL) {
        *out = f->fallback;
    } else if (type == GM_JT_TRUE || type == GM_JT_FALSE) {
        *out = type == GM_JT_TRUE;
    } else {
        return gm_json_reader_fail_type(rd, "true or false", item);
    }
    return true;
}

/* One of a closed set of names, parsed into the enum at `out`. */
static bool gm_json_read_name(gm_json_reader *rd, const gm_json_names *names, gm_jt item,
                              void *out) {
    char quoted[64];
    char *name = NULL;
    bool ok = true;
    if (gm_jt_type_of(item) != GM_JT_STRING) {
        ok = gm_json_reader_fail_type(rd, "a string", item);
    } else if ((name = gm_json_reader_string(rd, item)) == NULL) {
        ok = false;
    } else if (!names->parse(name, out)) {
        gm_jsonint_quote(name, quoted, sizeof quoted);
        ok = gm_json_reader_fail(rd, GM_ERR_FORMAT, "unknown value %s (expected %s)", quoted,
                                 names->expected);
    }
    free(name);
    return ok;
}

static void gm_json_read_given(const gm_json_field *f, void *object, bool given) {
    if (f->given_at != 0) {
        *(bool *)gm_json_read_at(object, f->given_at - 1) = given;
    }
}

/* An int32 >= f->min; the default stays when absent. */
static bool gm_json_read_i32(gm_json_reader *rd, const gm_json_field *f, gm_jt item,
                             void *object) {
    int64_t v;
    gm_jsonint_range range = gm_jsonint_at_least(GM_JSONINT_INT32, f->has_min ? f->min : INT32_MIN);
    gm_json_read_given(f, object, item.at != NULL);
    if (item.at == NULL) {
        return true;
    }
    if (!gm_json_reader_int(rd, item, range, &v)) {
        return false;
    }
    *(int32_t *)gm_json_read_at(object, f->at) = (int32_t)v;
    return f->limit != GM_JSON_LIMIT_WIDTH || gm_json_reader_check_width(rd, f->what, (size_t)v);
}

/* An integer >= 0 kept as a size_t. */
static bool gm_json_read_count(gm_json_reader *rd, const gm_json_field *f, gm_jt item,
                               void *object) {
    int64_t v = 0;
    gm_json_read_given(f, object, item.at != NULL);
    if (item.at == NULL) {
        return true;
    }
    if (!gm_json_reader_int(rd, item, gm_jsonint_at_least(GM_JSONINT_INT64, 0), &v)) {
        return false;
    }
    size_t n = (uint64_t)v > SIZE_MAX ? SIZE_MAX : (size_t)v;
    *(size_t *)gm_json_read_at(object, f->at) = n;
    return f->limit != GM_JSON_LIMIT_ELEMENTS || gm_json_reader_count(rd, n);
}

/* An element of first_difference's buffer, in that buffer's dtype. */
static bool gm_json_read_element(gm_json_reader *rd, gm_jt item, const gm_difference *d,
                                 int64_t *out) {
    gm_jsonint_range range = gm_buf_is_int64(d->buf) ? GM_JSONINT_INT64 : GM_JSONINT_INT32;
    return gm_json_reader_int(rd, item, range, out);
}

static bool gm_json_read_object(gm_json_reader *rd, const gm_json_field *f, gm_jt item,
                                void *object) {
    const gm_jt_object *members;
    if (item.at == NULL) {
        return true;
    }
    gm_json_read_given(f, object, true);
    return (members = gm_json_reader_open(rd, item)) != NULL &&
           gm_json_read_table(rd, members, f->table, gm_json_read_at(object, f->at));
}

/* ---- rows ---------------------------------------------------------------------------- */

static bool gm_json_read_rule(gm_json_reader *rd, gm_json_rule rule, void *object) {
    const gm_case *c = object;
    switch (rule) {
    case GM_JSON_RULE_QLENS_FOR_DRAFT_EXTEND:
        if (c->mode == GM_MODE_DRAFT_EXTEND && c->qlens == NULL) {
            gm_json_reader_push_key(rd, "qlens");
            return gm_json_reader_fail(rd, GM_ERR_FORMAT, "is required in mode draft_extend");
        }
        return true;
    case GM_JSON_RULE_COUNT_OUTPUTS: return gm_json_read_shapes_count_outputs(rd, c);
    case GM_JSON_RULE_CASE_CHECK: return gm_case_check(c, rd->err) || gm_json_reader_fail_here(rd);
    case GM_JSON_RULE_DIFFERENCE_BUFFER: return gm_json_read_shapes_difference_buffer(rd, object);
    }
    return false;
}

/* The member `item` (absent: item.at NULL) of row `f`. */
static bool gm_json_read_value(gm_json_reader *rd, const gm_json_field *f, gm_jt item,
                               void *object) {
    void *at = gm_json_read_at(object, f->at);
    bool absent = item.at == NULL;
    switch (f->kind) {
    case GM_JSON_FORMAT: return absent || gm_json_read_format(rd, item, f->text);
    case GM_JSON_STRING: return absent || gm_json_read_string(rd, item, at);
    case GM_JSON_BOOL: return gm_json_read_bool(rd, f, item, at);
    case GM_JSON_NAME: return absent || gm_json_read_name(rd, f->names, item, at);
    case GM_JSON_I32: return gm_json_read_i32(rd, f, item, object);
    case GM_JSON_COUNT: return gm_json_read_count(rd, f, item, object);
    case GM_JSON_U64: return absent || gm_json_reader_u64(rd, item, at);
    case GM_JSON_OBJECT: return gm_json_read_object(rd, f, item, object);
    case GM_JSON_ELEMENT: return absent || gm_json_read_element(rd, item, object, at);
    default: return gm_json_read_shapes_field(rd, f, item, object);
    }
}

static bool gm_json_read_row(gm_json_reader *rd, const gm_jt_object *obj, const gm_json_field *f,
                             void *object) {
    size_t mark = rd->path_len;
    gm_jt item;
    bool ok;
    if (f->kind == GM_JSON_RULE) {
        ok = gm_json_read_rule(rd, f->rule, object);
    } else if (f->kind == GM_JSON_INLINE) {
        ok = gm_json_read_table(rd, obj, f->table, gm_json_read_at(object, f->at));
    } else {
        ok = gm_json_reader_lookup(rd, obj, f->key, f->required, &item) &&
             gm_json_read_value(rd, f, item, object);
    }
    gm_json_reader_restore(rd, mark);
    return ok;
}

static bool gm_json_read_table(gm_json_reader *rd, const gm_jt_object *obj,
                               const gm_json_table *t, void *object) {
    for (size_t i = 0; i < t->n; i++) {
        if (!gm_json_read_row(rd, obj, &t->fields[i], object)) {
            return false;
        }
    }
    return true;
}

/* ---- documents --------------------------------------------------------------------- */

/* "gmfuzz-case-v1, gmfuzz-vector-v1 or gmfuzz-repro-v1" */
static void gm_json_read_formats_text(char *buf, size_t size) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < gm_json_fields_n_documents && used < size; i++) {
        const char *sep = i == 0 ? "" : i + 1 == gm_json_fields_n_documents ? " or " : ", ";
        int n = snprintf(buf + used, size - used, "%s%s", sep, gm_json_fields_documents[i].format);
        used += n > 0 ? (size_t)n : 0;
    }
}

/* The document whose "format" the root names; NULL with the message. */
static const gm_json_document *gm_json_read_document(gm_json_reader *rd,
                                                     const gm_jt_object *root) {
    gm_jt item;
    char quoted[64], expected[128];
    const gm_json_document *doc = NULL;
    if (!gm_json_reader_lookup(rd, root, "format", true, &item)) {
        return NULL;
    }
    if (gm_jt_type_of(item) != GM_JT_STRING) {
        gm_json_reader_fail_type(rd, "a string", item);
        return NULL;
    }
    for (size_t i = 0; i < gm_json_fields_n_documents && doc == NULL; i++) {
        doc = gm_jt_string_is(item, gm_json_fields_documents[i].format)
                  ? &gm_json_fields_documents[i] : NULL;
    }
    char *format = doc == NULL ? gm_json_reader_string(rd, item) : NULL;
    if (format != NULL) {
        gm_jsonint_quote(format, quoted, sizeof quoted);
        gm_json_read_formats_text(expected, sizeof expected);
        gm_json_reader_fail(rd, GM_ERR_FORMAT, "unknown format %s (expected %s)", quoted,
                            expected);
        free(format);
    }
    gm_json_reader_restore(rd, 0);
    return doc;
}

static bool gm_json_read_doc(gm_json_reader *rd, gm_jt value, size_t at, gm_doc *doc) {
    if (gm_jt_type_of(value) != GM_JT_OBJECT) {
        return gm_json_reader_fail(rd, GM_ERR_FORMAT,
                                   "the document must be a JSON object, found %s at byte %zu",
                                   gm_jt_type_name(value), at);
    }
    const gm_jt_object *root = gm_json_reader_open(rd, value);
    const gm_json_document *d = root != NULL ? gm_json_read_document(rd, root) : NULL;
    if (d == NULL) {
        return false;
    }
    doc->kind = d->kind;
    rd->c = &doc->c;
    return gm_json_read_table(rd, root, d->table, gm_json_read_at(doc, d->at));
}

/* ---- text and files ------------------------------------------------------------------ */

bool gm_json_parse(const char *text, size_t len, const char *label, const gm_limits *lim,
                   gm_doc *doc, gm_error *err) {
    gm_limits defaults;
    if (lim == NULL) {
        gm_limits_default(&defaults);
        lim = &defaults;
    }
    label = label != NULL ? label : "<json>";
    gm_doc_init(doc);
    if (text == NULL) {
        return gm_error_set(err, GM_ERR_USAGE, "%s: no text to parse", label);
    }
    if (len > lim->max_file_bytes) {
        return gm_error_set(err, GM_ERR_LIMIT,
                            "%s: the document is %zu bytes, over the limit max_file_bytes = %zu "
                            "(raise it with --max-file-size)", label, len, lim->max_file_bytes);
    }
    gm_json_reader rd = {.lim = lim, .err = err};
    bool ok = gm_json_syntax_check(text, len, err);
    if (ok) {
        const char *start = text;
        while (*start == ' ' || *start == '\t' || *start == '\n' || *start == '\r') {
            start++;
        }
        ok = gm_json_read_doc(&rd, (gm_jt){start}, (size_t)(start - text), doc);
        gm_json_reader_close(&rd);
    }
    if (!ok) {
        gm_error_prefix(err, label);
        gm_doc_free(doc);
    }
    return ok;
}

/* `size` says how big: "300 bytes", "more than 200 bytes". */
static bool gm_json_read_too_big(const char *path, const char *size, size_t max, gm_error *err) {
    return gm_error_set(err, GM_ERR_LIMIT,
                        "%s: the file is %s, over the limit max_file_bytes = %zu "
                        "(raise it with --max-file-size)", path, size, max);
}

/* Doubles buf's capacity; frees it and gives NULL when memory runs out. */
static char *gm_json_read_grow(char *buf, size_t *cap) {
    char *bigger = *cap > SIZE_MAX / 2 ? NULL : realloc(buf, *cap * 2);
    if (bigger == NULL) {
        free(buf);
    }
    *cap *= 2;
    return bigger;
}

/* Reads the whole stream, failing once it passes `max` bytes (the size
 * from fstat is only a hint: pipes and growing files have none). */
static bool gm_json_read_stream(FILE *f, const char *path, size_t max, size_t hint, char **out,
                                size_t *out_len, gm_error *err) {
    size_t cap = hint > 0 ? hint : 4096, len = 0, got;
    char *buf = malloc(cap);
    do {
        if (buf == NULL) {
            return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory reading the file", path);
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (len > max) {
            char size[48];
            snprintf(size, sizeof size, "more than %zu bytes", max);
            free(buf);
            return gm_json_read_too_big(path, size, max, err);
        }
        if (got != 0 && len == cap) {
            buf = gm_json_read_grow(buf, &cap);
        }
    } while (got != 0);
    if (ferror(f)) {
        int saved = errno;
        free(buf);
        return gm_error_set(err, GM_ERR_IO, "%s: cannot read: %s", path, strerror(saved));
    }
    *out = buf;
    *out_len = len;
    return true;
}

static bool gm_json_read_whole_file(const char *path, size_t max, char **text, size_t *len,
                                    gm_error *err) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    struct stat st;
    size_t hint = 0;
    bool ok = true;
    bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    if (!regular && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        ok = gm_error_set(err, GM_ERR_IO, "%s: cannot read: it is a directory", path);
    } else if (regular && (uintmax_t)st.st_size > max) {
        char size[48];
        snprintf(size, sizeof size, "%jd bytes", (intmax_t)st.st_size);
        ok = gm_json_read_too_big(path, size, max, err); /* before reading any of it */
    } else if (regular) {
        hint = (size_t)st.st_size + 1; /* + 1: EOF is seen without growing */
    }
    ok = ok && gm_json_read_stream(f, path, max, hint, text, len, err);
    fclose(f);
    return ok;
}

bool gm_json_read_file(const char *path, const gm_limits *lim, gm_doc *doc, gm_error *err) {
    gm_limits defaults;
    if (lim == NULL) {
        gm_limits_default(&defaults);
        lim = &defaults;
    }
    gm_doc_init(doc);
    if (path == NULL) {
        return gm_error_set(err, GM_ERR_USAGE, "no file to read");
    }
    char *text = NULL;
    size_t len = 0;
    if (!gm_json_read_whole_file(path, lim->max_file_bytes, &text, &len, err)) {
        return false;
    }
    bool ok = gm_json_parse(text, len, path, lim, doc, err);
    free(text);
    return ok;
}
