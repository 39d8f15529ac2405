/* gm_json_read: the validating reader of the three gmfuzz documents.
 *
 * The text is checked against the JSON grammar first (gm_jsonscan: the
 * one acceptance rule of every gmfuzz reader), then read in place
 * (gm_jsontext): no tree is built, arrays are walked with a cursor, so
 * that reading costs the text and the arrays it fills (issue 11, item 6).
 * A `reader` knows the path of the value at hand ("case.swa.mapping"), so
 * that every failure says where it is. Sizes are counted against the
 * limits before anything is allocated: the arrays built from the text
 * (and the output buffers that others allocate from the case's shape) are
 * not bounded by the file size.
 */
#define _POSIX_C_SOURCE 200809L /* fstat, fileno */

#include "gm_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gm_json_internal.h"
#include "gm_jsonint.h"
#include "gm_json_tree.h"
#include "gm_jsontext.h"

#define GM_JSON_PATH_MAX 160
/* The objects one document opens: root, case, swa, init, two outputs,
 * first_difference, found, target. */
#define GM_JSON_OBJECTS_MAX 16

typedef struct {
    const gm_limits *lim;
    gm_error *err;
    size_t elements;              /* integers counted against max_elements */
    char path[GM_JSON_PATH_MAX];  /* where the reader is, for messages */
    size_t path_len;
    gm_jt_object objects[GM_JSON_OBJECTS_MAX]; /* opened, freed when the read ends */
    size_t n_objects;
} reader;

/* Exactly one of i32 / i64 is set; values are checked against `range`
 * before they are stored, so the int32 store never truncates. */
typedef struct {
    gm_jsonint_range range;
    int32_t *i32;
    int64_t *i64;
} int_sink;

/* ------------------------------------------------------------------ */
/* Documents and limits                                                */

void gm_limits_default(gm_limits *l) {
    l->max_file_bytes = GM_LIMIT_DEFAULT_FILE_BYTES;
    l->max_elements = GM_LIMIT_DEFAULT_ELEMENTS;
    l->max_bs = GM_LIMIT_DEFAULT_BS;
    l->max_width = GM_LIMIT_DEFAULT_WIDTH;
}

static void gm_repro_init(gm_repro *r) {
    memset(r, 0, sizeof *r);
    /* A repro without "status" (older fuzzers) recorded a mismatch. */
    r->verdict.status = GM_STATUS_MISMATCH;
    r->verdict.compare = GM_COMPARE_LIVE;
}

void gm_target_record_free(gm_target_record *t) {
    free(t->spec);
    free(t->kind);
    free(t->module);
    free(t->function);
    free(t->file);
    free(t->sha256);
    free(t->version);
    free(t->device);
    memset(t, 0, sizeof *t);
}

static bool gm_target_record_dup(char **dst, const char *src) {
    *dst = NULL;
    if (src == NULL) {
        return true;
    }
    size_t n = strlen(src) + 1;
    *dst = malloc(n);
    if (*dst != NULL) {
        memcpy(*dst, src, n);
    }
    return *dst != NULL;
}

bool gm_target_record_copy(gm_target_record *dst, const gm_target_record *src) {
    memset(dst, 0, sizeof *dst);
    bool ok = gm_target_record_dup(&dst->spec, src->spec) &&
              gm_target_record_dup(&dst->kind, src->kind) &&
              gm_target_record_dup(&dst->module, src->module) &&
              gm_target_record_dup(&dst->function, src->function) &&
              gm_target_record_dup(&dst->file, src->file) &&
              gm_target_record_dup(&dst->sha256, src->sha256) &&
              gm_target_record_dup(&dst->version, src->version) &&
              gm_target_record_dup(&dst->device, src->device);
    if (!ok) {
        gm_target_record_free(dst);
    }
    return ok;
}

void gm_repro_free(gm_repro *r) {
    free(r->backend);
    gm_target_record_free(&r->target);
    free(r->reference_drift);
    for (size_t i = 0; i < r->n_classes; i++) {
        free(r->classes[i]);
    }
    free(r->classes);
    free(r->signature);
    free(r->found_by);
    free(r->found_at);
    free(r->tool_version);
    gm_repro_init(r);
}

void gm_doc_init(gm_doc *d) {
    d->kind = GM_DOC_CASE;
    gm_case_init(&d->c);
    gm_outputs_init(&d->reference);
    gm_outputs_init(&d->fused);
    gm_repro_init(&d->repro);
}

void gm_doc_free(gm_doc *d) {
    gm_case_free(&d->c);
    gm_outputs_free(&d->reference);
    gm_outputs_free(&d->fused);
    gm_repro_free(&d->repro);
    gm_doc_init(d);
}

const char *gm_doc_kind_name(gm_doc_kind k) {
    switch (k) {
    case GM_DOC_CASE: return "case";
    case GM_DOC_VECTOR: return "vector";
    case GM_DOC_REPRO: return "repro";
    }
    return "?";
}

/* ------------------------------------------------------------------ */
/* Paths and failures                                                  */

static void path_append(reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void path_append(reader *rd, const char *fmt, ...) {
    size_t room = sizeof rd->path - rd->path_len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(rd->path + rd->path_len, room, fmt, ap);
    va_end(ap);
    if (n > 0) {
        rd->path_len += (size_t)n < room ? (size_t)n : room - 1;
    }
}

/* Each push returns the length to restore once the value is read. */
static size_t path_push_key(reader *rd, const char *key) {
    size_t mark = rd->path_len;
    path_append(rd, "%s%s", mark == 0 ? "" : ".", key);
    return mark;
}

static size_t path_push_index(reader *rd, size_t i) {
    size_t mark = rd->path_len;
    path_append(rd, "[%zu]", i);
    return mark;
}

static void path_restore(reader *rd, size_t mark) {
    rd->path_len = mark;
    rd->path[mark] = '\0';
}

static bool fail(reader *rd, gm_error_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Sets "<path>: <problem>" (the label is added last, by gm_json_parse). */
static bool fail(reader *rd, gm_error_code code, const char *fmt, ...) {
    char problem[GM_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, sizeof problem, fmt, ap);
    va_end(ap);
    if (rd->path_len == 0) {
        return gm_error_set(rd->err, code, "%s", problem);
    }
    return gm_error_set(rd->err, code, "%s: %s", rd->path, problem);
}

/* An error that names only the problem gets the current path in front. */
static bool fail_here(reader *rd) {
    if (rd->path_len > 0) {
        gm_error_prefix(rd->err, rd->path);
    }
    return false;
}

static bool fail_type(reader *rd, const char *expected, gm_jt found) {
    return fail(rd, GM_ERR_FORMAT, "expected %s, found %s", expected, gm_jt_type_name(found));
}

static bool fail_memory(reader *rd, const char *what) {
    return fail(rd, GM_ERR_MEMORY, "out of memory for %s", what);
}

/* ------------------------------------------------------------------ */
/* Limits                                                              */

static size_t size_mul(size_t a, size_t b) {
    return (a != 0 && b > SIZE_MAX / a) ? SIZE_MAX : a * b; /* saturates */
}

static bool count_elements(reader *rd, size_t n) {
    size_t max = rd->lim->max_elements;
    size_t total = n > SIZE_MAX - rd->elements ? SIZE_MAX : rd->elements + n;
    if (total > max) {
        return fail(rd, GM_ERR_LIMIT,
                    "the case holds %zu integers or more, over the limit max_elements = %zu "
                    "(raise it with --max-elements)", total, max);
    }
    rd->elements = total;
    return true;
}

static bool check_bs(reader *rd, size_t bs) {
    if (bs > rd->lim->max_bs) {
        return fail(rd, GM_ERR_LIMIT,
                    "bs = %zu is over the limit max_bs = %zu (raise it with --max-bs)", bs,
                    rd->lim->max_bs);
    }
    return true;
}

static bool check_width(reader *rd, const char *what, size_t width) {
    if (width > rd->lim->max_width) {
        return fail(rd, GM_ERR_LIMIT,
                    "%s %zu is over the limit max_width = %zu (raise it with --max-width)", what,
                    width, rd->lim->max_width);
    }
    return true;
}

/* n + 1 elements: a present array stays non-NULL even when empty, which is
 * how gm_case tells "given, empty" from "absent". */
static void *alloc_elements(reader *rd, size_t n, size_t size) {
    /* n + 1 must not wrap (limits raised to SIZE_MAX let counts saturate). */
    void *p = n < SIZE_MAX / size ? calloc(n + 1, size) : NULL;
    if (p == NULL) {
        fail(rd, GM_ERR_MEMORY, "out of memory for %zu elements", n);
    }
    return p;
}

/* ------------------------------------------------------------------ */
/* Members and scalar fields                                           */

/* Finds `key` in `obj` and pushes it on the path (the caller restores).
 * Absent and null both give *out == NULL, an error when `required`. A key
 * given twice is an error: JSON readers differ on which copy wins. */
static bool lookup(reader *rd, const gm_jt_object *obj, const char *key, bool required,
                   gm_jt *out) {
    const gm_jt_member *found = NULL;
    path_push_key(rd, key);
    out->at = NULL;
    for (size_t i = 0; i < obj->n; i++) {
        if (!gm_jt_key_is(&obj->members[i], key)) {
            continue;
        }
        if (found != NULL) {
            return fail(rd, GM_ERR_FORMAT, "the key appears more than once");
        }
        found = &obj->members[i];
    }
    if (found != NULL && gm_jt_type_of(found->value) != GM_JT_NULL) {
        *out = found->value;
    } else if (required) {
        return fail(rd, GM_ERR_FORMAT,
                    found == NULL ? "is missing" : "is null, but it is required");
    }
    return true;
}

/* The members of `item`, which must be an object; the table lives until
 * the read ends. NULL on failure. */
static const gm_jt_object *open_object(reader *rd, gm_jt item) {
    if (gm_jt_type_of(item) != GM_JT_OBJECT) {
        fail_type(rd, "an object", item);
        return NULL;
    }
    if (rd->n_objects == GM_JSON_OBJECTS_MAX) {
        fail(rd, GM_ERR_FORMAT, "more than %d objects opened", GM_JSON_OBJECTS_MAX);
        return NULL;
    }
    gm_jt_object *o = &rd->objects[rd->n_objects];
    if (!gm_jt_object_open(item, o)) {
        fail_memory(rd, "the members of an object");
        return NULL;
    }
    rd->n_objects++;
    return o;
}

static void close_objects(reader *rd) {
    for (size_t i = 0; i < rd->n_objects; i++) {
        gm_jt_object_free(&rd->objects[i]);
    }
    rd->n_objects = 0;
}

/* An integer: a JSON number or a decimal string (gm_jsonint's rules). */
static bool jt_int(gm_jt item, const char *end, gm_jsonint_range range, int64_t *out,
                   gm_error *err) {
    gm_jt_type type = gm_jt_type_of(item);
    if (type == GM_JT_NUMBER) {
        return gm_jsonint_read_number_text(item.at, (size_t)(end - item.at), range, out, err);
    }
    if (type != GM_JT_STRING) {
        return gm_error_set(err, GM_ERR_FORMAT, "expected an integer, found %s",
                            gm_jt_type_name(item));
    }
    char *text = gm_jt_string_dup(item);
    if (text == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory for a string");
    }
    bool ok = gm_jsonint_read_string(text, range, out, err);
    free(text);
    return ok;
}

static bool read_int(reader *rd, gm_jt item, gm_jsonint_range range, int64_t *out) {
    return jt_int(item, gm_jt_end(item), range, out, rd->err) || fail_here(rd);
}

/* An unsigned 64-bit counter (found.execs). */
static bool read_u64(reader *rd, gm_jt item, uint64_t *out) {
    if (gm_jt_type_of(item) == GM_JT_STRING) {
        char *text = gm_jt_string_dup(item);
        bool ok = text != NULL ? gm_jsonint_read_u64_string(text, out, rd->err)
                               : fail_memory(rd, "a string");
        free(text);
        return ok || fail_here(rd);
    }
    int64_t v;
    if (!read_int(rd, item, gm_jsonint_at_least(GM_JSONINT_INT64, 0), &v)) {
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

/* An integer member; *present says whether it was given (absent or null: no). */
static bool read_int_field(reader *rd, const gm_jt_object *obj, const char *key, bool required,
                           gm_jsonint_range range, int64_t *out, bool *present) {
    size_t mark = rd->path_len;
    gm_jt item;
    bool ok = lookup(rd, obj, key, required, &item) &&
              (item.at == NULL || read_int(rd, item, range, out));
    *present = item.at != NULL;
    path_restore(rd, mark);
    return ok;
}

/* An int32 member; keeps *out (its default) when absent. */
static bool read_i32_field(reader *rd, const gm_jt_object *obj, const char *key, bool required,
                           int64_t min, int32_t *out, bool *present) {
    int64_t v = 0;
    bool given;
    gm_jsonint_range range = gm_jsonint_at_least(GM_JSONINT_INT32, min);
    if (!read_int_field(rd, obj, key, required, range, &v, &given)) {
        return false;
    }
    if (given) {
        *out = (int32_t)v;
    }
    if (present != NULL) {
        *present = given;
    }
    return true;
}

/* The decoded string value `item`; NULL (failed) when memory runs out. */
static char *dup_string(reader *rd, gm_jt item) {
    char *copy = gm_jt_string_dup(item);
    if (copy == NULL) {
        fail_memory(rd, "a string");
    }
    return copy;
}

/* A string member, copied; NULL when absent (and not required). */
static bool read_string_field(reader *rd, const gm_jt_object *obj, const char *key, bool required,
                              char **out) {
    size_t mark = rd->path_len;
    gm_jt item;
    bool ok = lookup(rd, obj, key, required, &item);
    if (ok && item.at != NULL) {
        ok = gm_jt_type_of(item) == GM_JT_STRING ? (*out = dup_string(rd, item)) != NULL
                                                 : fail_type(rd, "a string", item);
    }
    path_restore(rd, mark);
    return ok;
}

/* A boolean member; `fallback` when absent or null. */
static bool read_bool_field(reader *rd, const gm_jt_object *obj, const char *key, bool required,
                            bool fallback, bool *out) {
    size_t mark = rd->path_len;
    gm_jt item;
    bool ok = lookup(rd, obj, key, required, &item);
    if (ok) {
        if (item.at == NULL) {
            *out = fallback;
        } else if (gm_jt_type_of(item) == GM_JT_TRUE || gm_jt_type_of(item) == GM_JT_FALSE) {
            *out = gm_jt_type_of(item) == GM_JT_TRUE;
        } else {
            ok = fail_type(rd, "true or false", item);
        }
    }
    path_restore(rd, mark);
    return ok;
}

/* A member that must be one of a closed set of names. `parse` maps a name
 * to its value (gm_mode_from_name, ...); `expected` lists them for the
 * message. */
typedef bool (*name_parser)(const char *name, void *out);

static bool read_name_field(reader *rd, const gm_jt_object *obj, const char *key, bool required,
                            name_parser parse, void *out, const char *expected, bool *present) {
    size_t mark = rd->path_len;
    gm_jt item;
    bool ok = lookup(rd, obj, key, required, &item);
    if (ok && item.at != NULL) {
        char quoted[64];
        char *name = NULL;
        if (gm_jt_type_of(item) != GM_JT_STRING) {
            ok = fail_type(rd, "a string", item);
        } else if ((name = dup_string(rd, item)) == NULL) {
            ok = false;
        } else if (!parse(name, out)) {
            gm_jsonint_quote(name, quoted, sizeof quoted);
            ok = fail(rd, GM_ERR_FORMAT, "unknown value %s (expected %s)", quoted, expected);
        }
        free(name);
    }
    if (present != NULL) {
        *present = item.at != NULL;
    }
    path_restore(rd, mark);
    return ok;
}

static bool parse_mode(const char *name, void *out) { return gm_mode_from_name(name, out); }
static bool parse_compare(const char *name, void *out) { return gm_compare_from_name(name, out); }
static bool parse_status(const char *name, void *out) { return gm_status_from_name(name, out); }

static bool parse_buf(const char *name, void *out) {
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        if (strcmp(name, gm_buf_name((gm_buf_id)id)) == 0) {
            *(gm_buf_id *)out = (gm_buf_id)id;
            return true;
        }
    }
    return false;
}

#define GM_JSON_BUF_NAMES                                                                   \
    "cache_seqlens, cu_seqlens_k, cu_seqlens_q, page_table, swa_page_table or "           \
    "swa_out_cache_loc"

/* ------------------------------------------------------------------ */
/* Integer arrays                                                      */

static bool array_length(reader *rd, gm_jt item, size_t *n) {
    *n = 0;
    if (gm_jt_type_of(item) != GM_JT_ARRAY) {
        return fail_type(rd, "an array", item);
    }
    *n = gm_jt_array_count(item);
    return true;
}

/* Reads every element of the array `arr` into sink[offset + i]; the caller
 * made room for them. */
static bool read_elements(reader *rd, gm_jt arr, size_t offset, int_sink sink) {
    size_t i = 0;
    gm_jt_cursor cursor;
    gm_jt it;
    gm_jt_array_begin(arr, &cursor);
    for (; gm_jt_array_next(&cursor, &it); i++) {
        int64_t v;
        if (!jt_int(it, cursor.at, sink.range, &v, rd->err)) {
            path_push_index(rd, i); /* only on failure: paths cost time */
            return fail_here(rd);
        }
        if (sink.i64 != NULL) {
            sink.i64[offset + i] = v;
        } else {
            sink.i32[offset + i] = (int32_t)v;
        }
    }
    return true;
}

static void shape_text(int rank, const size_t dims[2], char *buf, size_t size) {
    if (rank == 2) {
        snprintf(buf, size, "[%zu, %zu]", dims[0], dims[1]);
    } else {
        snprintf(buf, size, "[%zu]", dims[0]);
    }
}

/* Checks that `item` is a flat array of dims[0] (rank 1) or dims[0] rows of
 * dims[1] (rank 2), before anything is read or allocated. */
static bool check_shape(reader *rd, gm_jt item, int rank, const size_t dims[2]) {
    char shape[64];
    size_t n;
    shape_text(rank, dims, shape, sizeof shape);
    if (!array_length(rd, item, &n)) {
        return false;
    }
    if (n != dims[0]) {
        return fail(rd, GM_ERR_FORMAT, "has %zu %s, expected %zu%s (shape %s)", n,
                    rank == 2 ? "entries" : "elements", dims[0], rank == 2 ? " rows" : "",
                    shape);
    }
    size_t i = 0;
    gm_jt_cursor cursor;
    gm_jt row;
    gm_jt_array_begin(item, &cursor);
    for (; rank == 2 && gm_jt_array_next(&cursor, &row); i++) {
        size_t mark = path_push_index(rd, i);
        if (!array_length(rd, row, &n)) {
            return false;
        }
        if (n != dims[1]) {
            return fail(rd, GM_ERR_FORMAT, "has %zu elements, expected %zu (shape %s)", n,
                        dims[1], shape);
        }
        path_restore(rd, mark);
    }
    return true;
}

/* Reads an array whose shape check_shape accepted, row-major into `sink`. */
static bool read_shaped(reader *rd, gm_jt item, int rank, const size_t dims[2],
                        int_sink sink) {
    if (rank == 1) {
        return read_elements(rd, item, 0, sink);
    }
    size_t i = 0;
    gm_jt_cursor cursor;
    gm_jt row;
    gm_jt_array_begin(item, &cursor);
    for (; gm_jt_array_next(&cursor, &row); i++) {
        size_t mark = path_push_index(rd, i);
        if (!read_elements(rd, row, i * dims[1], sink)) {
            return false;
        }
        path_restore(rd, mark);
    }
    return true;
}

/* A new int32 or int64 array of the `n` elements of the array `item` (the
 * caller counted them); NULL on failure. */
static void *read_vector(reader *rd, gm_jt item, size_t n, bool is_int64) {
    if (!count_elements(rd, n)) {
        return NULL;
    }
    void *data = alloc_elements(rd, n, is_int64 ? sizeof(int64_t) : sizeof(int32_t));
    if (data == NULL) {
        return NULL;
    }
    int_sink sink = {is_int64 ? GM_JSONINT_INT64 : GM_JSONINT_INT32, is_int64 ? NULL : data,
                     is_int64 ? data : NULL};
    if (!read_elements(rd, item, 0, sink)) {
        free(data);
        return NULL;
    }
    return data;
}

/* ------------------------------------------------------------------ */
/* The case                                                            */

static bool read_case_format(reader *rd, const gm_jt_object *obj) {
    size_t mark = rd->path_len;
    gm_jt item;
    bool ok = lookup(rd, obj, "format", false, &item);
    if (ok && item.at != NULL && (gm_jt_type_of(item) != GM_JT_STRING ||
                                  !gm_jt_string_is(item, GM_JSON_FORMAT_CASE))) {
        ok = fail(rd, GM_ERR_FORMAT, "expected \"" GM_JSON_FORMAT_CASE "\"");
    }
    path_restore(rd, mark);
    return ok;
}

static bool read_case_scalars(reader *rd, const gm_jt_object *obj, gm_case *c) {
    return read_string_field(rd, obj, "name", false, &c->name) &&
           read_name_field(rd, obj, "mode", true, parse_mode, &c->mode,
                           "decode, draft_decode, target_verify, draft_extend or draft_extend_v2",
                           NULL) &&
           read_i32_field(rd, obj, "page_size", true, 1, &c->page_size, NULL) &&
           read_i32_field(rd, obj, "max_context_len", true, 1, &c->max_context_len, NULL) &&
           read_i32_field(rd, obj, "speculative_step_id", false, INT32_MIN,
                          &c->speculative_step_id, NULL) &&
           read_i32_field(rd, obj, "num_draft_tokens", false, INT32_MIN, &c->num_draft_tokens,
                          NULL) &&
           read_i32_field(rd, obj, "q_stride", false, INT32_MIN, &c->q_stride, NULL);
}

/* max_seq_pages is the fused page-table width: it has the width limit. */
static bool read_max_seq_pages(reader *rd, const gm_jt_object *obj, gm_case *c) {
    if (!read_i32_field(rd, obj, "max_seq_pages", false, 0, &c->max_seq_pages,
                        &c->has_max_seq_pages)) {
        return false;
    }
    if (!c->has_max_seq_pages) {
        return true;
    }
    size_t mark = path_push_key(rd, "max_seq_pages");
    bool ok = check_width(rd, "the page-table width", (size_t)c->max_seq_pages);
    path_restore(rd, mark);
    return ok;
}

/* req_to_token: pool >= 1 rows of one width W >= max_context_len. */
static bool read_req_to_token(reader *rd, const gm_jt_object *obj, gm_case *c) {
    size_t mark = rd->path_len;
    gm_jt item;
    size_t dims[2];
    if (!lookup(rd, obj, "req_to_token", true, &item) || !array_length(rd, item, &dims[0])) {
        return false;
    }
    if (dims[0] == 0) {
        return fail(rd, GM_ERR_FORMAT, "has no rows (pool must be >= 1)");
    }
    size_t row_mark = path_push_index(rd, 0);
    gm_jt_cursor cursor;
    gm_jt first_row;
    gm_jt_array_begin(item, &cursor);
    gm_jt_array_next(&cursor, &first_row); /* there is one: dims[0] >= 1 */
    if (!array_length(rd, first_row, &dims[1])) {
        return false;
    }
    path_restore(rd, row_mark);
    if (!check_shape(rd, item, 2, dims) || !check_width(rd, "the row width W", dims[1])) {
        return false;
    }
    if (dims[1] < (size_t)c->max_context_len) {
        return fail(rd, GM_ERR_FORMAT, "rows have width %zu, below max_context_len %" PRId32,
                    dims[1], c->max_context_len);
    }
    size_t n = size_mul(dims[0], dims[1]);
    if (!count_elements(rd, n) ||
        (c->req_to_token = alloc_elements(rd, n, sizeof(int32_t))) == NULL) {
        return false;
    }
    c->pool = dims[0];
    c->width = dims[1];
    int_sink sink = {GM_JSONINT_INT32, c->req_to_token, NULL};
    if (!read_shaped(rd, item, 2, dims, sink)) {
        return false;
    }
    path_restore(rd, mark);
    return true;
}

/* One of the [bs] input arrays; *out stays NULL when absent. */
static bool read_batch_array(reader *rd, const gm_jt_object *obj, const char *key, bool required,
                             size_t bs, bool is_int64, void **out) {
    size_t mark = rd->path_len;
    gm_jt item;
    size_t n;
    if (!lookup(rd, obj, key, required, &item)) {
        return false;
    }
    if (item.at != NULL) {
        if (!array_length(rd, item, &n)) {
            return false;
        }
        if (n != bs) {
            return fail(rd, GM_ERR_FORMAT,
                        "has %zu elements, but req_pool_indices has %zu (both are [bs])", n, bs);
        }
        if ((*out = read_vector(rd, item, n, is_int64)) == NULL) {
            return false;
        }
    }
    path_restore(rd, mark);
    return true;
}

/* req_pool_indices sets bs; seq_lens, seq_lens_cpu and qlens follow it. */
static bool read_batch(reader *rd, const gm_jt_object *obj, gm_case *c) {
    size_t mark = rd->path_len;
    gm_jt item;
    size_t bs;
    if (!lookup(rd, obj, "req_pool_indices", true, &item) || !array_length(rd, item, &bs) ||
        !check_bs(rd, bs) || (c->req_pool_indices = read_vector(rd, item, bs, true)) == NULL) {
        return false;
    }
    path_restore(rd, mark);
    c->bs = bs;
    void *seq_lens = NULL, *seq_lens_cpu = NULL, *qlens = NULL;
    bool ok = read_batch_array(rd, obj, "seq_lens", true, bs, true, &seq_lens) &&
              read_batch_array(rd, obj, "seq_lens_cpu", false, bs, true, &seq_lens_cpu) &&
              read_batch_array(rd, obj, "qlens", false, bs, false, &qlens);
    c->seq_lens = seq_lens; /* also on failure: the case owns what was read */
    c->seq_lens_cpu = seq_lens_cpu;
    c->qlens = qlens;
    if (!ok) {
        return false;
    }
    if (c->mode == GM_MODE_DRAFT_EXTEND && c->qlens == NULL) {
        path_push_key(rd, "qlens");
        return fail(rd, GM_ERR_FORMAT, "is required in mode draft_extend");
    }
    return true;
}

static bool read_swa_mapping(reader *rd, const gm_jt_object *swa, gm_swa *s) {
    size_t mark = rd->path_len;
    gm_jt item;
    if (!lookup(rd, swa, "mapping", true, &item) || !array_length(rd, item, &s->mapping_len)) {
        return false;
    }
    if (s->mapping_len == 0) {
        return fail(rd, GM_ERR_FORMAT, "is empty (it needs at least 1 element)");
    }
    if ((s->mapping = read_vector(rd, item, s->mapping_len, true)) == NULL) {
        return false;
    }
    path_restore(rd, mark);
    return true;
}

static bool read_swa_out_cache_loc(reader *rd, const gm_jt_object *swa, gm_swa *s) {
    size_t mark = rd->path_len;
    gm_jt item;
    if (!lookup(rd, swa, "out_cache_loc", false, &item)) {
        return false;
    }
    if (item.at != NULL && (!array_length(rd, item, &s->n_out) ||
                         (s->out_cache_loc = read_vector(rd, item, s->n_out, true)) == NULL)) {
        return false;
    }
    path_restore(rd, mark);
    return true;
}

/* out_len is the length of an output buffer: it counts against the limit
 * here, before anyone allocates the buffer. */
static bool read_swa_out_len(reader *rd, const gm_jt_object *swa, gm_swa *s) {
    int64_t v = 0;
    gm_jsonint_range range = gm_jsonint_at_least(GM_JSONINT_INT64, 0);
    if (!read_int_field(rd, swa, "out_len", false, range, &v, &s->has_out_len)) {
        return false;
    }
    if (!s->has_out_len) {
        return true;
    }
    size_t mark = path_push_key(rd, "out_len");
    s->out_len = (uint64_t)v > SIZE_MAX ? SIZE_MAX : (size_t)v;
    bool ok = count_elements(rd, s->out_len);
    path_restore(rd, mark);
    return ok;
}

static bool read_swa(reader *rd, const gm_jt_object *obj, gm_case *c) {
    size_t mark = rd->path_len;
    gm_jt item;
    const gm_jt_object *swa;
    if (!lookup(rd, obj, "swa", false, &item)) {
        return false;
    }
    if (item.at != NULL) {
        c->has_swa = true;
        if ((swa = open_object(rd, item)) == NULL || !read_swa_mapping(rd, swa, &c->swa) ||
            !read_bool_field(rd, swa, "page_table", false, true, &c->swa.page_table) ||
            !read_swa_out_cache_loc(rd, swa, &c->swa) || !read_swa_out_len(rd, swa, &c->swa)) {
            return false;
        }
    }
    path_restore(rd, mark);
    return true;
}

/* The output buffers that others will allocate from this case's shape
 * (swa_out_cache_loc was counted at swa.out_len). */
static bool count_outputs(reader *rd, const gm_case *c) {
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        int rank;
        size_t dims[2];
        if (id != GM_BUF_SWA_OUT_CACHE_LOC && gm_case_buf_shape(c, (gm_buf_id)id, &rank, dims) &&
            !count_elements(rd, size_mul(dims[0], dims[1]))) {
            return false;
        }
    }
    return true;
}

/* Why the case has or lacks the buffer `id`, for messages. */
static const char *buffer_reason(const gm_case *c, gm_buf_id id) {
    if (id != GM_BUF_SWA_PAGE_TABLE && id != GM_BUF_SWA_OUT_CACHE_LOC) {
        return "every case has it";
    }
    if (!c->has_swa) {
        return "the case has no swa";
    }
    if (id == GM_BUF_SWA_PAGE_TABLE) {
        return c->swa.page_table ? "swa.page_table is true" : "swa.page_table is false";
    }
    return c->swa.has_out_len ? "swa.out_len is given" : "swa.out_len is absent";
}

/* One init value: an integer fill, or an array of the buffer's shape. */
static bool read_init_value(reader *rd, gm_jt item, const gm_case *c, gm_buf_id id,
                            gm_init *init) {
    int rank;
    size_t dims[2];
    bool has = gm_case_buf_shape(c, id, &rank, dims);
    gm_jsonint_range range = gm_buf_is_int64(id) ? GM_JSONINT_INT64 : GM_JSONINT_INT32;
    if (gm_jt_type_of(item) == GM_JT_NUMBER || gm_jt_type_of(item) == GM_JT_STRING) {
        /* A fill for a buffer the case lacks is checked, then ignored: 37
         * of the 250 conformance vectors carry such fills, and a buffer
         * that does not exist has no prior contents to set. */
        int64_t fill;
        if (!read_int(rd, item, range, &fill)) {
            return false;
        }
        if (has) {
            init->kind = GM_INIT_FILL;
            init->fill = fill;
        }
        return true;
    }
    if (!has) {
        return fail(rd, GM_ERR_FORMAT,
                    "the case has no %s buffer (%s), so it takes no init array",
                    gm_buf_name(id), buffer_reason(c, id));
    }
    if (gm_jt_type_of(item) != GM_JT_ARRAY) {
        return fail_type(rd, "an integer fill or an array of the buffer's shape", item);
    }
    size_t n = size_mul(dims[0], dims[1]);
    if (!check_shape(rd, item, rank, dims) || !count_elements(rd, n) ||
        (init->values = alloc_elements(rd, n, sizeof(int64_t))) == NULL) {
        return false;
    }
    init->kind = GM_INIT_ARRAY;
    init->len = n;
    return read_shaped(rd, item, rank, dims, (int_sink){range, NULL, init->values});
}

static bool read_init_member(reader *rd, const gm_jt_member *member, gm_case *c,
                             unsigned *seen) {
    gm_buf_id id;
    char quoted[64];
    gm_jt item = member->value;
    char *key = gm_jt_key_dup(member);
    if (key == NULL) {
        return fail_memory(rd, "a key");
    }
    bool known = parse_buf(key, &id);
    if (!known) {
        gm_jsonint_quote(key, quoted, sizeof quoted);
    }
    free(key);
    if (!known) {
        return fail(rd, GM_ERR_FORMAT, "unknown buffer %s (expected " GM_JSON_BUF_NAMES ")",
                    quoted);
    }
    size_t mark = path_push_key(rd, gm_buf_name(id));
    if (*seen & (1u << id)) {
        return fail(rd, GM_ERR_FORMAT, "the key appears more than once");
    }
    *seen |= 1u << id;
    if (gm_jt_type_of(item) == GM_JT_NULL) {
        path_restore(rd, mark);
        return true; /* null: the default, like an absent key */
    }
    if (!read_init_value(rd, item, c, id, &c->init[id])) {
        return false;
    }
    path_restore(rd, mark);
    return true;
}

static bool read_init(reader *rd, const gm_jt_object *obj, gm_case *c) {
    size_t mark = rd->path_len;
    gm_jt init;
    const gm_jt_object *members = NULL;
    unsigned seen = 0;
    if (!lookup(rd, obj, "init", false, &init) ||
        (init.at != NULL && (members = open_object(rd, init)) == NULL)) {
        return false;
    }
    for (size_t i = 0; members != NULL && i < members->n; i++) {
        if (!read_init_member(rd, &members->members[i], c, &seen)) {
            return false;
        }
    }
    path_restore(rd, mark);
    return true;
}

/* Cross-field rules shared with code that builds cases directly. */
static bool check_case(reader *rd, const gm_case *c) {
    return gm_case_check(c, rd->err) || fail_here(rd);
}

static bool read_case_object(reader *rd, const gm_jt_object *obj, gm_case *c) {
    return read_case_format(rd, obj) && read_case_scalars(rd, obj, c) &&
           read_max_seq_pages(rd, obj, c) && read_req_to_token(rd, obj, c) &&
           read_batch(rd, obj, c) && read_swa(rd, obj, c) && count_outputs(rd, c) &&
           read_init(rd, obj, c) && check_case(rd, c);
}

static bool read_case_member(reader *rd, const gm_jt_object *root, gm_case *c) {
    size_t mark = rd->path_len;
    gm_jt item;
    const gm_jt_object *obj;
    if (!lookup(rd, root, "case", true, &item) || (obj = open_object(rd, item)) == NULL ||
        !read_case_object(rd, obj, c)) {
        return false;
    }
    path_restore(rd, mark);
    return true;
}

/* ------------------------------------------------------------------ */
/* Outputs                                                             */

/* Buffer `id` of an outputs object: present exactly when the case has it. */
static bool read_output_buffer(reader *rd, const gm_jt_object *obj, const gm_case *c, gm_buf_id id,
                               gm_outputs *o) {
    size_t mark = rd->path_len;
    gm_jt item;
    int rank;
    size_t dims[2];
    if (!lookup(rd, obj, gm_buf_name(id), false, &item)) {
        return false;
    }
    bool has = gm_case_buf_shape(c, id, &rank, dims);
    if (!has && item.at != NULL) {
        return fail(rd, GM_ERR_FORMAT, "must be null: the case has no %s buffer (%s)",
                    gm_buf_name(id), buffer_reason(c, id));
    }
    if (has && item.at == NULL) {
        return fail(rd, GM_ERR_FORMAT, "is missing or null, but the case has a %s buffer (%s)",
                    gm_buf_name(id), buffer_reason(c, id));
    }
    if (has) {
        if (!check_shape(rd, item, rank, dims)) {
            return false;
        }
        if (!gm_outputs_alloc_buf(o, c, id, rd->err)) {
            return fail_here(rd);
        }
        gm_jsonint_range range = gm_buf_is_int64(id) ? GM_JSONINT_INT64 : GM_JSONINT_INT32;
        int_sink sink = {range, o->buf[id].is_int64 ? NULL : o->buf[id].data,
                         o->buf[id].is_int64 ? o->buf[id].data : NULL};
        if (!read_shaped(rd, item, rank, dims, sink)) {
            return false;
        }
    }
    path_restore(rd, mark);
    return true;
}

static bool read_outputs(reader *rd, gm_jt item, const gm_case *c, gm_outputs *o) {
    const gm_jt_object *obj = open_object(rd, item);
    if (obj == NULL) {
        return false;
    }
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        if (!read_output_buffer(rd, obj, c, (gm_buf_id)id, o)) {
            return false;
        }
    }
    return read_string_field(rd, obj, "error", false, &o->error);
}

static bool read_outputs_member(reader *rd, const gm_jt_object *root, const char *key,
                                const gm_case *c,
                                gm_outputs *o) {
    size_t mark = rd->path_len;
    gm_jt item;
    if (!lookup(rd, root, key, true, &item) || !read_outputs(rd, item, c, o)) {
        return false;
    }
    path_restore(rd, mark);
    return true;
}

/* ------------------------------------------------------------------ */
/* Repro                                                               */

/* "buffers": distinct buffer names, as a bit set. */
static bool read_buffer_list(reader *rd, const gm_jt_object *obj, unsigned *mask) {
    size_t mark = rd->path_len;
    gm_jt item;
    size_t n;
    if (!lookup(rd, obj, "buffers", false, &item) ||
        (item.at != NULL && !array_length(rd, item, &n))) {
        return false;
    }
    size_t list_mark = rd->path_len;
    size_t i = 0;
    gm_jt_cursor cursor = {NULL};
    gm_jt it;
    if (item.at != NULL) {
        gm_jt_array_begin(item, &cursor);
    }
    for (; item.at != NULL && gm_jt_array_next(&cursor, &it); i++) {
        gm_buf_id id;
        char quoted[64];
        path_push_index(rd, i);
        if (gm_jt_type_of(it) != GM_JT_STRING) {
            return fail_type(rd, "a buffer name", it);
        }
        char *name = dup_string(rd, it);
        bool known = name != NULL && parse_buf(name, &id);
        if (name != NULL && !known) {
            gm_jsonint_quote(name, quoted, sizeof quoted);
        }
        free(name);
        if (name == NULL) {
            return false;
        }
        if (!known) {
            return fail(rd, GM_ERR_FORMAT, "unknown buffer %s (expected " GM_JSON_BUF_NAMES ")",
                        quoted);
        }
        if (*mask & (1u << id)) {
            return fail(rd, GM_ERR_FORMAT, "%s is listed twice", gm_buf_name(id));
        }
        *mask |= 1u << id;
        path_restore(rd, list_mark);
    }
    path_restore(rd, mark);
    return true;
}

static bool read_classes(reader *rd, const gm_jt_object *obj, gm_repro *r) {
    size_t mark = rd->path_len;
    gm_jt item;
    size_t n;
    if (!lookup(rd, obj, "classes", true, &item) || !array_length(rd, item, &n)) {
        return false;
    }
    size_t list_mark = rd->path_len;
    if ((r->classes = alloc_elements(rd, n, sizeof(char *))) == NULL) {
        return false;
    }
    gm_jt_cursor cursor;
    gm_jt it;
    gm_jt_array_begin(item, &cursor);
    while (gm_jt_array_next(&cursor, &it)) {
        path_push_index(rd, r->n_classes);
        if (gm_jt_type_of(it) != GM_JT_STRING) {
            return fail_type(rd, "a class name", it);
        }
        if ((r->classes[r->n_classes] = dup_string(rd, it)) == NULL) {
            return false;
        }
        r->n_classes++;
        path_restore(rd, list_mark);
    }
    path_restore(rd, mark);
    return true;
}

/* first_difference.index: one in-bounds entry per dimension of the buffer. */
static bool read_difference_index(reader *rd, const gm_jt_object *obj, int rank,
                                  const size_t dims[2],
                                  gm_difference *d) {
    size_t mark = rd->path_len;
    gm_jt item;
    size_t n;
    if (!lookup(rd, obj, "index", true, &item) || !array_length(rd, item, &n)) {
        return false;
    }
    if (n != (size_t)rank) {
        return fail(rd, GM_ERR_FORMAT, "has %zu entries, but the buffer has rank %d", n, rank);
    }
    size_t list_mark = rd->path_len;
    size_t k = 0;
    gm_jt_cursor cursor;
    gm_jt it;
    gm_jt_array_begin(item, &cursor);
    for (; gm_jt_array_next(&cursor, &it); k++) {
        int64_t v;
        path_push_index(rd, k);
        gm_jsonint_range range = gm_jsonint_at_least(GM_JSONINT_INT64, 0);
        if (!read_int(rd, it, range, &v)) {
            return false;
        }
        if ((uint64_t)v >= dims[k]) {
            return fail(rd, GM_ERR_FORMAT, "%" PRId64 " is outside the buffer (dimension %zu)", v,
                        dims[k]);
        }
        d->index[k] = (size_t)v;
        path_restore(rd, list_mark);
    }
    d->rank = rank;
    path_restore(rd, mark);
    return true;
}

static bool read_difference(reader *rd, gm_jt item, const gm_case *c, gm_difference *d) {
    int rank;
    size_t dims[2];
    bool given;
    const gm_jt_object *obj = open_object(rd, item);
    if (obj == NULL ||
        !read_name_field(rd, obj, "buffer", true, parse_buf, &d->buf, GM_JSON_BUF_NAMES, NULL)) {
        return false;
    }
    if (!gm_case_buf_shape(c, d->buf, &rank, dims)) {
        path_push_key(rd, "buffer");
        return fail(rd, GM_ERR_FORMAT, "the case has no %s buffer (%s)", gm_buf_name(d->buf),
                    buffer_reason(c, d->buf));
    }
    gm_jsonint_range range = gm_buf_is_int64(d->buf) ? GM_JSONINT_INT64 : GM_JSONINT_INT32;
    d->present = true;
    return read_difference_index(rd, obj, rank, dims, d) &&
           read_int_field(rd, obj, "reference", true, range, &d->reference, &given) &&
           read_int_field(rd, obj, "fused", true, range, &d->fused, &given);
}

static bool read_first_difference(reader *rd, const gm_jt_object *obj, const gm_case *c,
                                  gm_difference *d) {
    size_t mark = rd->path_len;
    gm_jt item;
    if (!lookup(rd, obj, "first_difference", false, &item) ||
        (item.at != NULL && !read_difference(rd, item, c, d))) {
        return false;
    }
    path_restore(rd, mark);
    return true;
}

static bool read_found(reader *rd, const gm_jt_object *obj, gm_repro *r) {
    size_t mark = rd->path_len;
    gm_jt item;
    gm_jt execs;
    const gm_jt_object *found;
    if (!lookup(rd, obj, "found", false, &item)) {
        return false;
    }
    if (item.at != NULL) {
        r->has_found = true;
        if ((found = open_object(rd, item)) == NULL ||
            !read_string_field(rd, found, "by", true, &r->found_by) ||
            !read_string_field(rd, found, "at", true, &r->found_at) ||
            !lookup(rd, found, "execs", true, &execs) || !read_u64(rd, execs, &r->found_execs)) {
            return false;
        }
    }
    path_restore(rd, mark);
    return true;
}

static bool read_verdict(reader *rd, const gm_jt_object *root, const gm_case *c, gm_verdict *v) {
    int64_t n = 0;
    bool given;
    gm_jsonint_range count = gm_jsonint_at_least(GM_JSONINT_INT64, 0);
    bool ok = read_name_field(rd, root, "compare", true, parse_compare, &v->compare,
                              "live or strict", NULL) &&
              read_name_field(rd, root, "status", false, parse_status, &v->status,
                              "match, mismatch, reference_error, fused_out_of_bounds, target_failed or reference_drift", NULL) &&
              read_buffer_list(rd, root, &v->buffers) &&
              read_int_field(rd, root, "n_differences", false, count, &n, &given) &&
              read_first_difference(rd, root, c, &v->first);
    v->n_differences = (size_t)n;
    return ok;
}

/* The optional "target" object (docs/TARGETS.md): strings, "spec" required. */
static bool read_target(reader *rd, const gm_jt_object *root, gm_repro *r) {
    size_t mark = rd->path_len;
    gm_jt item;
    const gm_jt_object *o;
    if (!lookup(rd, root, "target", false, &item)) {
        return false;
    }
    if (item.at != NULL) {
        gm_target_record *t = &r->target;
        r->has_target = true;
        if ((o = open_object(rd, item)) == NULL ||
            !read_string_field(rd, o, "spec", true, &t->spec) ||
            !read_string_field(rd, o, "kind", false, &t->kind) ||
            !read_string_field(rd, o, "module", false, &t->module) ||
            !read_string_field(rd, o, "function", false, &t->function) ||
            !read_string_field(rd, o, "file", false, &t->file) ||
            !read_string_field(rd, o, "sha256", false, &t->sha256) ||
            !read_string_field(rd, o, "version", false, &t->version) ||
            !read_string_field(rd, o, "device", false, &t->device)) {
            return false;
        }
    }
    path_restore(rd, mark);
    return true;
}

static bool read_repro_fields(reader *rd, const gm_jt_object *root, const gm_case *c, gm_repro *r) {
    return read_string_field(rd, root, "backend", true, &r->backend) && read_target(rd, root, r) &&
           read_string_field(rd, root, "reference_drift", false, &r->reference_drift) &&
           read_verdict(rd, root, c, &r->verdict) && read_classes(rd, root, r) &&
           read_string_field(rd, root, "signature", true, &r->signature) &&
           read_found(rd, root, r) &&
           read_bool_field(rd, root, "minimized", true, false, &r->minimized) &&
           read_string_field(rd, root, "tool_version", true, &r->tool_version);
}

/* ------------------------------------------------------------------ */
/* Documents                                                           */

static bool read_doc_kind(reader *rd, const gm_jt_object *root, gm_doc_kind *kind) {
    gm_jt item;
    char quoted[64];
    if (!lookup(rd, root, "format", true, &item)) {
        return false;
    }
    if (gm_jt_type_of(item) != GM_JT_STRING) {
        return fail_type(rd, "a string", item);
    }
    char *format = dup_string(rd, item);
    if (format == NULL) {
        return false;
    }
    bool known = true;
    if (strcmp(format, GM_JSON_FORMAT_CASE) == 0) {
        *kind = GM_DOC_CASE;
    } else if (strcmp(format, GM_JSON_FORMAT_VECTOR) == 0) {
        *kind = GM_DOC_VECTOR;
    } else if (strcmp(format, GM_JSON_FORMAT_REPRO) == 0) {
        *kind = GM_DOC_REPRO;
    } else {
        known = false;
        gm_jsonint_quote(format, quoted, sizeof quoted);
    }
    free(format);
    if (!known) {
        return fail(rd, GM_ERR_FORMAT,
                    "unknown format %s (expected " GM_JSON_FORMAT_CASE ", " GM_JSON_FORMAT_VECTOR
                    " or " GM_JSON_FORMAT_REPRO ")", quoted);
    }
    path_restore(rd, 0);
    return true;
}

static bool read_doc(reader *rd, gm_jt value, gm_doc *doc) {
    if (gm_jt_type_of(value) != GM_JT_OBJECT) {
        return fail(rd, GM_ERR_FORMAT, "the document must be a JSON object, found %s",
                    gm_jt_type_name(value));
    }
    const gm_jt_object *root = open_object(rd, value);
    if (root == NULL || !read_doc_kind(rd, root, &doc->kind)) {
        return false;
    }
    switch (doc->kind) {
    case GM_DOC_CASE:
        return read_case_object(rd, root, &doc->c);
    case GM_DOC_VECTOR:
        return read_case_member(rd, root, &doc->c) &&
               read_outputs_member(rd, root, "legacy", &doc->c, &doc->reference) &&
               read_outputs_member(rd, root, "fused", &doc->c, &doc->fused);
    case GM_DOC_REPRO:
        return read_case_member(rd, root, &doc->c) &&
               read_outputs_member(rd, root, "reference", &doc->c, &doc->reference) &&
               read_outputs_member(rd, root, "fused", &doc->c, &doc->fused) &&
               read_repro_fields(rd, root, &doc->c, &doc->repro);
    }
    return false;
}

/* ------------------------------------------------------------------ */
/* Text and files                                                      */

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
    reader rd = {.lim = lim, .err = err};
    bool ok = gm_json_syntax_check(text, len, err);
    if (ok) {
        const char *start = text;
        while (*start == ' ' || *start == '\t' || *start == '\n' || *start == '\r') {
            start++;
        }
        ok = read_doc(&rd, (gm_jt){start}, doc);
        close_objects(&rd);
    }
    if (!ok) {
        gm_error_prefix(err, label);
        gm_doc_free(doc);
    }
    return ok;
}

/* `size` says how big: "300 bytes", "more than 200 bytes". */
static bool file_too_big(const char *path, const char *size, size_t max, gm_error *err) {
    return gm_error_set(err, GM_ERR_LIMIT,
                        "%s: the file is %s, over the limit max_file_bytes = %zu "
                        "(raise it with --max-file-size)", path, size, max);
}

/* Reads the whole stream, failing once it passes `max` bytes (the size
 * from fstat is only a hint: pipes and growing files have none). */
static bool read_stream(FILE *f, const char *path, size_t max, size_t hint, char **out,
                        size_t *out_len, gm_error *err) {
    size_t cap = hint > 0 ? hint : 4096, len = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (buf == NULL) {
            return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory reading the file", path);
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (len > max) {
            char size[48];
            snprintf(size, sizeof size, "more than %zu bytes", max);
            free(buf);
            return file_too_big(path, size, max, err);
        }
        if (got == 0) {
            break;
        }
        if (len == cap) {
            char *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
            if (bigger == NULL) {
                free(buf);
            }
            buf = bigger;
            cap *= 2;
        }
    }
    if (ferror(f)) {
        int saved = errno;
        free(buf);
        return gm_error_set(err, GM_ERR_IO, "%s: cannot read: %s", path, strerror(saved));
    }
    *out = buf;
    *out_len = len;
    return true;
}

static bool read_whole_file(const char *path, size_t max, char **text, size_t *len,
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
        ok = file_too_big(path, size, max, err); /* before reading any of it */
    } else if (regular) {
        hint = (size_t)st.st_size + 1; /* + 1: EOF is seen without growing */
    }
    ok = ok && read_stream(f, path, max, hint, text, len, err);
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
    if (!read_whole_file(path, lim->max_file_bytes, &text, &len, err)) {
        return false;
    }
    bool ok = gm_json_parse(text, len, path, lim, doc, err);
    free(text);
    return ok;
}
