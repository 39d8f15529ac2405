/* gm_json_write: builders for the three gmfuzz documents, and writing one
 * to a file (atomically: gm_file).
 *
 * A builder walks the same tables the reader reads (gm_json_fields.c), so
 * that what is written reads back to an identical value: members in the
 * tables' order, optional ones only when given (or as null where the
 * format says so), arrays in their shapes, integers through gm_json_int
 * (exact text, strings beyond 2^53). Each returns NULL when memory runs
 * out, never half a tree.
 */
#include "gm_file.h"
#include "gm_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_json_fields.h"
#include "gm_jsonint.h"

cJSON *gm_json_int(int64_t v) { return gm_jsonint_create(v); }

static const void *gm_json_write_at(const void *object, size_t offset) {
    return (const char *)object + offset;
}

static cJSON *gm_json_write_table(const gm_json_table *t, const void *object);

/* ---- tree helpers: each consumes `item`, so a failed add frees it ------------------ */

static bool gm_json_write_add(cJSON *obj, const char *key, cJSON *item) {
    if (item == NULL) {
        return false;
    }
    if (!cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

static bool gm_json_write_append(cJSON *arr, cJSON *item) {
    if (item == NULL) {
        return false;
    }
    if (!cJSON_AddItemToArray(arr, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

/* Finishes a builder: the tree when every step succeeded, else nothing. */
static cJSON *gm_json_write_finish(cJSON *obj, bool ok) {
    if (!ok) {
        cJSON_Delete(obj);
        return NULL;
    }
    return obj;
}

/* ---- integer arrays ---------------------------------------------------------------------- */

/* Element i of an int32 or int64 array. */
typedef struct {
    const void *data;
    bool is_int64;
} gm_json_write_source;

static int64_t gm_json_write_get(gm_json_write_source s, size_t i) {
    return s.is_int64 ? ((const int64_t *)s.data)[i] : ((const int32_t *)s.data)[i];
}

static cJSON *gm_json_write_row(gm_json_write_source s, size_t offset, size_t n) {
    cJSON *arr = cJSON_CreateArray();
    bool ok = arr != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        ok = gm_json_write_append(arr, gm_json_int(gm_json_write_get(s, offset + i)));
    }
    return gm_json_write_finish(arr, ok);
}

/* A flat array (rank 1) or dims[0] rows of dims[1] (rank 2). */
static cJSON *gm_json_write_shaped(gm_json_write_source s, int rank, const size_t dims[2]) {
    if (rank != 2) {
        return gm_json_write_row(s, 0, dims[0]);
    }
    cJSON *rows = cJSON_CreateArray();
    bool ok = rows != NULL;
    for (size_t r = 0; ok && r < dims[0]; r++) {
        ok = gm_json_write_append(rows, gm_json_write_row(s, r * dims[1], dims[1]));
    }
    return gm_json_write_finish(rows, ok);
}

/* ---- the kinds that are not scalars ------------------------------------------------------ */

/* An init array in its buffer's shape; flat when it does not fit the
 * shape (a case built in C that gm_case_check would reject anyway). */
static cJSON *gm_json_write_init_value(const gm_case *c, gm_buf_id id) {
    const gm_init *in = &c->init[id];
    if (in->kind == GM_INIT_FILL) {
        return gm_json_int(in->fill);
    }
    int rank;
    size_t dims[2];
    if (!gm_case_buf_shape(c, id, &rank, dims) || dims[0] * dims[1] != in->len) {
        rank = 1;
        dims[0] = in->len;
    }
    return gm_json_write_shaped((gm_json_write_source){in->values, true}, rank, dims);
}

static cJSON *gm_json_write_init(const gm_case *c) {
    cJSON *init = cJSON_CreateObject();
    bool ok = init != NULL;
    for (int id = 0; ok && id < GM_BUF_COUNT; id++) {
        if (c->init[id].kind != GM_INIT_DEFAULT) {
            ok = gm_json_write_add(init, gm_buf_name((gm_buf_id)id),
                                   gm_json_write_init_value(c, (gm_buf_id)id));
        }
    }
    return gm_json_write_finish(init, ok);
}

static cJSON *gm_json_write_buffer(const gm_buffer *b) {
    if (!b->present) {
        return cJSON_CreateNull();
    }
    return gm_json_write_shaped((gm_json_write_source){b->data, b->is_int64}, b->rank, b->dims);
}

static cJSON *gm_json_write_buffer_names(unsigned mask) {
    cJSON *arr = cJSON_CreateArray();
    bool ok = arr != NULL;
    for (int id = 0; ok && id < GM_BUF_COUNT; id++) {
        if (mask & (1u << id)) {
            ok = gm_json_write_append(arr, cJSON_CreateString(gm_buf_name((gm_buf_id)id)));
        }
    }
    return gm_json_write_finish(arr, ok);
}

/* A list of strings; a NULL entry is written as "". */
static cJSON *gm_json_write_strings(char *const *list, size_t n) {
    cJSON *arr = cJSON_CreateArray();
    bool ok = arr != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        ok = gm_json_write_append(arr, cJSON_CreateString(list[i] != NULL ? list[i] : ""));
    }
    return gm_json_write_finish(arr, ok);
}

static cJSON *gm_json_write_index(const gm_difference *d) {
    cJSON *arr = cJSON_CreateArray();
    bool ok = arr != NULL;
    for (int k = 0; ok && k < d->rank && k < 2; k++) {
        ok = gm_json_write_append(arr, gm_jsonint_create_u64(d->index[k]));
    }
    return gm_json_write_finish(arr, ok);
}

static cJSON *gm_json_write_array(const gm_json_field *f, const void *object) {
    const void *data;
    memcpy(&data, gm_json_write_at(object, f->at), sizeof data); /* an int32_t * or int64_t * */
    size_t n = *(const size_t *)gm_json_write_at(object, f->length_at);
    return gm_json_write_row((gm_json_write_source){data, f->int64}, 0, n);
}

static cJSON *gm_json_write_rows(const gm_case *c) {
    size_t dims[2] = {c->pool, c->width};
    return gm_json_write_shaped((gm_json_write_source){c->req_to_token, false}, 2, dims);
}

/* ---- rows -------------------------------------------------------------------------------- */

/* The value of row `f`, which the rules below say is written. */
static cJSON *gm_json_write_value(const gm_json_field *f, const void *object) {
    const void *at = gm_json_write_at(object, f->at);
    const char *s;
    switch (f->kind) {
    case GM_JSON_FORMAT: return cJSON_CreateString(f->text);
    case GM_JSON_STRING: /* a required string the caller left NULL: "", so that it reads back */
        s = *(char *const *)at;
        return cJSON_CreateString(s != NULL ? s : "");
    case GM_JSON_BOOL: return cJSON_CreateBool(*(const bool *)at);
    case GM_JSON_NAME: return cJSON_CreateString(f->names->name(at));
    case GM_JSON_I32: return gm_json_int(*(const int32_t *)at);
    case GM_JSON_COUNT: return gm_jsonint_create_u64(*(const size_t *)at);
    case GM_JSON_U64: return gm_jsonint_create_u64(*(const uint64_t *)at);
    case GM_JSON_ELEMENT: return gm_json_int(*(const int64_t *)at);
    case GM_JSON_ARRAY: return gm_json_write_array(f, object);
    case GM_JSON_OBJECT: return gm_json_write_table(f->table, at);
    case GM_JSON_ROWS: return gm_json_write_rows(object);
    case GM_JSON_INIT: return gm_json_write_init(object);
    case GM_JSON_BUFFER: return gm_json_write_buffer(&((const gm_outputs *)object)->buf[f->buf]);
    case GM_JSON_BUFFER_SET: return gm_json_write_buffer_names(*(const unsigned *)at);
    case GM_JSON_STRINGS:
        return gm_json_write_strings(*(char *const *const *)at,
                                     *(const size_t *)gm_json_write_at(object, f->length_at));
    case GM_JSON_INDEX: return gm_json_write_index(object);
    case GM_JSON_INLINE:
    case GM_JSON_RULE: break;
    }
    return NULL;
}

/* Whether row `f` is written: its own rule, else its "given" flag, else a
 * pointer that is set (required ones always), else always. */
static bool gm_json_write_given(const gm_json_field *f, const void *object) {
    const void *at = gm_json_write_at(object, f->at);
    const void *pointer;
    if (f->written != NULL) {
        return f->written(object);
    }
    if (f->given_at != 0) {
        return *(const bool *)gm_json_write_at(object, f->given_at - 1);
    }
    if (f->required || (f->kind != GM_JSON_STRING && f->kind != GM_JSON_ARRAY)) {
        return true;
    }
    memcpy(&pointer, at, sizeof pointer);
    return pointer != NULL;
}

static bool gm_json_write_member(cJSON *o, const gm_json_field *f, const void *object) {
    if (gm_json_write_given(f, object)) {
        return gm_json_write_add(o, f->key, gm_json_write_value(f, object));
    }
    return f->absent == GM_JSON_ABSENT_OMIT || gm_json_write_add(o, f->key, cJSON_CreateNull());
}

static bool gm_json_write_rows_of(cJSON *o, const gm_json_table *t, const void *object) {
    bool ok = true;
    for (size_t i = 0; ok && i < t->n; i++) {
        const gm_json_field *f = &t->fields[i];
        if (f->kind == GM_JSON_INLINE) {
            ok = gm_json_write_rows_of(o, f->table, gm_json_write_at(object, f->at));
        } else if (f->kind != GM_JSON_RULE) {
            ok = gm_json_write_member(o, f, object);
        }
    }
    return ok;
}

static cJSON *gm_json_write_table(const gm_json_table *t, const void *object) {
    cJSON *o = cJSON_CreateObject();
    return gm_json_write_finish(o, o != NULL && gm_json_write_rows_of(o, t, object));
}

/* ---- documents --------------------------------------------------------------------------- */

cJSON *gm_json_case(const gm_case *c) { return gm_json_write_table(&gm_json_fields_case, c); }

cJSON *gm_json_outputs(const gm_outputs *out) {
    return gm_json_write_table(&gm_json_fields_outputs, out);
}

cJSON *gm_json_verdict(const gm_verdict *v) {
    return gm_json_write_table(&gm_json_fields_verdict, v);
}

cJSON *gm_json_difference(const gm_difference *d) {
    if (!d->present) {
        return cJSON_CreateNull();
    }
    return gm_json_write_table(&gm_json_fields_difference, d);
}

/* The tables of the documents that hold a case are over gm_doc: a shallow
 * view of the caller's parts, which it still owns. */
cJSON *gm_json_repro(const gm_case *c, const gm_outputs *ref, const gm_outputs *fused,
                     const gm_repro *r) {
    gm_doc view = {.kind = GM_DOC_REPRO, .c = *c, .reference = *ref, .fused = *fused,
                   .repro = *r};
    return gm_json_write_table(&gm_json_fields_repro, &view);
}

cJSON *gm_json_vector(const gm_case *c, const gm_outputs *legacy, const gm_outputs *fused) {
    gm_doc view = {.kind = GM_DOC_VECTOR, .c = *c, .reference = *legacy, .fused = *fused};
    return gm_json_write_table(&gm_json_fields_vector, &view);
}

/* ---- files ------------------------------------------------------------------------------- */

bool gm_json_write_file(const char *path, const cJSON *root, gm_error *err) {
    char *text = cJSON_PrintUnformatted(root);
    if (text == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory printing the document", path);
    }
    /* One line: the document and its newline. */
    size_t n = strlen(text);
    char *line = malloc(n + 1);
    bool ok = line != NULL;
    if (!ok) {
        gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory", path);
    } else {
        memcpy(line, text, n);
        line[n] = '\n';
        ok = gm_file_write_atomic(path, line, n + 1, err);
    }
    free(line);
    cJSON_free(text);
    return ok;
}
