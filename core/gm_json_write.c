/* gm_json_write: builders for the three gmfuzz documents, and writing one
 * to a file (atomically: gm_file).
 *
 * Builders write what gm_json_read.c reads back to an identical value:
 * optional fields only when present, arrays in their shapes, integers
 * through gm_json_int (exact text, strings beyond 2^53). Each returns NULL
 * when memory runs out, never half a tree.
 */
#include "gm_file.h"
#include "gm_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_json_internal.h"
#include "gm_jsonint.h"

cJSON *gm_json_int(int64_t v) { return gm_jsonint_create(v); }

/* ------------------------------------------------------------------ */
/* Tree helpers: each consumes `item`, so a failed add frees it.       */

static bool add(cJSON *obj, const char *key, cJSON *item) {
    if (item == NULL) {
        return false;
    }
    if (!cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

static bool append(cJSON *arr, cJSON *item) {
    if (item == NULL) {
        return false;
    }
    if (!cJSON_AddItemToArray(arr, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

static bool add_int(cJSON *obj, const char *key, int64_t v) {
    return add(obj, key, gm_json_int(v));
}

static bool add_string(cJSON *obj, const char *key, const char *s) {
    return add(obj, key, cJSON_CreateString(s));
}

/* A required string that the caller left NULL is written as "", so that
 * the document stays readable. */
static bool add_required_string(cJSON *obj, const char *key, const char *s) {
    return add_string(obj, key, s != NULL ? s : "");
}

static bool add_string_or_null(cJSON *obj, const char *key, const char *s) {
    return add(obj, key, s != NULL ? cJSON_CreateString(s) : cJSON_CreateNull());
}

/* Finishes a builder: the tree when every step succeeded, else nothing. */
static cJSON *finish(cJSON *obj, bool ok) {
    if (!ok) {
        cJSON_Delete(obj);
        return NULL;
    }
    return obj;
}

/* ------------------------------------------------------------------ */
/* Integer arrays                                                      */

/* Element i of an int32 or int64 array. */
typedef struct {
    const void *data;
    bool is_int64;
} int_source;

static int64_t source_get(int_source s, size_t i) {
    return s.is_int64 ? ((const int64_t *)s.data)[i] : ((const int32_t *)s.data)[i];
}

static cJSON *int_row(int_source s, size_t offset, size_t n) {
    cJSON *arr = cJSON_CreateArray();
    bool ok = arr != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        ok = append(arr, gm_json_int(source_get(s, offset + i)));
    }
    return finish(arr, ok);
}

/* A flat array (rank 1) or dims[0] rows of dims[1] (rank 2). */
static cJSON *int_shaped(int_source s, int rank, const size_t dims[2]) {
    if (rank != 2) {
        return int_row(s, 0, dims[0]);
    }
    cJSON *rows = cJSON_CreateArray();
    bool ok = rows != NULL;
    for (size_t r = 0; ok && r < dims[0]; r++) {
        ok = append(rows, int_row(s, r * dims[1], dims[1]));
    }
    return finish(rows, ok);
}

static cJSON *i64_array(const int64_t *v, size_t n) {
    return int_row((int_source){v, true}, 0, n);
}

static cJSON *i32_array(const int32_t *v, size_t n) {
    return int_row((int_source){v, false}, 0, n);
}

/* ------------------------------------------------------------------ */
/* Case                                                                */

static bool add_case_scalars(cJSON *o, const gm_case *c) {
    return add_string(o, "format", GM_JSON_FORMAT_CASE) &&
           (c->name == NULL || add_string(o, "name", c->name)) &&
           add_string(o, "mode", gm_mode_name(c->mode)) && add_int(o, "page_size", c->page_size) &&
           add_int(o, "max_context_len", c->max_context_len);
}

static bool add_case_inputs(cJSON *o, const gm_case *c) {
    size_t dims[2] = {c->pool, c->width};
    return add(o, "req_to_token", int_shaped((int_source){c->req_to_token, false}, 2, dims)) &&
           add(o, "req_pool_indices", i64_array(c->req_pool_indices, c->bs)) &&
           add(o, "seq_lens", i64_array(c->seq_lens, c->bs)) &&
           (c->seq_lens_cpu == NULL || add(o, "seq_lens_cpu", i64_array(c->seq_lens_cpu, c->bs)));
}

/* The per-mode fields: written for their mode, or elsewhere when nonzero
 * (a reader must get back exactly what was built). */
static bool add_mode_fields(cJSON *o, const gm_case *c) {
    return ((c->mode != GM_MODE_DRAFT_DECODE && c->speculative_step_id == 0) ||
            add_int(o, "speculative_step_id", c->speculative_step_id)) &&
           ((c->mode != GM_MODE_TARGET_VERIFY && c->num_draft_tokens == 0) ||
            add_int(o, "num_draft_tokens", c->num_draft_tokens)) &&
           (c->qlens == NULL || add(o, "qlens", i32_array(c->qlens, c->bs))) &&
           ((c->mode != GM_MODE_DRAFT_EXTEND_V2 && c->q_stride == 0) ||
            add_int(o, "q_stride", c->q_stride)) &&
           (!c->has_max_seq_pages || add_int(o, "max_seq_pages", c->max_seq_pages));
}

static cJSON *swa_json(const gm_swa *s) {
    cJSON *o = cJSON_CreateObject();
    bool ok = o != NULL && add(o, "mapping", i64_array(s->mapping, s->mapping_len)) &&
              add(o, "page_table", cJSON_CreateBool(s->page_table)) &&
              (s->out_cache_loc == NULL ||
               add(o, "out_cache_loc", i64_array(s->out_cache_loc, s->n_out))) &&
              (!s->has_out_len || add(o, "out_len", gm_jsonint_create_u64(s->out_len)));
    return finish(o, ok);
}

/* An init array in its buffer's shape; flat when it does not fit the
 * shape (a case built in C that gm_case_check would reject anyway). */
static cJSON *init_value(const gm_case *c, gm_buf_id id) {
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
    return int_shaped((int_source){in->values, true}, rank, dims);
}

static bool add_init(cJSON *o, const gm_case *c) {
    bool any = false;
    for (int id = 0; id < GM_BUF_COUNT; id++) {
        any = any || c->init[id].kind != GM_INIT_DEFAULT;
    }
    if (!any) {
        return true;
    }
    cJSON *init = cJSON_CreateObject();
    bool ok = init != NULL;
    for (int id = 0; ok && id < GM_BUF_COUNT; id++) {
        if (c->init[id].kind != GM_INIT_DEFAULT) {
            ok = add(init, gm_buf_name((gm_buf_id)id), init_value(c, (gm_buf_id)id));
        }
    }
    return add(o, "init", finish(init, ok));
}

cJSON *gm_json_case(const gm_case *c) {
    cJSON *o = cJSON_CreateObject();
    bool ok = o != NULL && add_case_scalars(o, c) && add_case_inputs(o, c) &&
              add_mode_fields(o, c) && (!c->has_swa || add(o, "swa", swa_json(&c->swa))) &&
              add_init(o, c);
    return finish(o, ok);
}

/* ------------------------------------------------------------------ */
/* Outputs, verdicts, documents                                        */

static cJSON *buffer_json(const gm_buffer *b) {
    if (!b->present) {
        return cJSON_CreateNull();
    }
    return int_shaped((int_source){b->data, b->is_int64}, b->rank, b->dims);
}

cJSON *gm_json_outputs(const gm_outputs *out) {
    cJSON *o = cJSON_CreateObject();
    bool ok = o != NULL;
    for (int id = 0; ok && id < GM_BUF_COUNT; id++) {
        ok = add(o, gm_buf_name((gm_buf_id)id), buffer_json(&out->buf[id]));
    }
    ok = ok && add_string_or_null(o, "error", out->error);
    return finish(o, ok);
}

static cJSON *index_json(const gm_difference *d) {
    cJSON *arr = cJSON_CreateArray();
    bool ok = arr != NULL;
    for (int k = 0; ok && k < d->rank && k < 2; k++) {
        ok = append(arr, gm_jsonint_create_u64(d->index[k]));
    }
    return finish(arr, ok);
}

cJSON *gm_json_difference(const gm_difference *d) {
    if (!d->present) {
        return cJSON_CreateNull();
    }
    cJSON *o = cJSON_CreateObject();
    bool ok = o != NULL && add_string(o, "buffer", gm_buf_name(d->buf)) &&
              add(o, "index", index_json(d)) && add_int(o, "reference", d->reference) &&
              add_int(o, "fused", d->fused);
    return finish(o, ok);
}

static cJSON *buffer_names(unsigned mask) {
    cJSON *arr = cJSON_CreateArray();
    bool ok = arr != NULL;
    for (int id = 0; ok && id < GM_BUF_COUNT; id++) {
        if (mask & (1u << id)) {
            ok = append(arr, cJSON_CreateString(gm_buf_name((gm_buf_id)id)));
        }
    }
    return finish(arr, ok);
}

/* The verdict's fields other than first_difference, which a repro puts
 * after its classes and signature. */
static bool add_verdict_counts(cJSON *o, const gm_verdict *v) {
    return add_string(o, "status", gm_status_name(v->status)) &&
           add_string(o, "compare", gm_compare_name(v->compare)) &&
           add(o, "buffers", buffer_names(v->buffers)) &&
           add(o, "n_differences", gm_jsonint_create_u64(v->n_differences));
}

cJSON *gm_json_verdict(const gm_verdict *v) {
    cJSON *o = cJSON_CreateObject();
    bool ok = o != NULL && add_verdict_counts(o, v) &&
              add(o, "first_difference", gm_json_difference(&v->first));
    return finish(o, ok);
}

static cJSON *classes_json(const gm_repro *r) {
    cJSON *arr = cJSON_CreateArray();
    bool ok = arr != NULL;
    for (size_t i = 0; ok && i < r->n_classes; i++) {
        ok = append(arr, cJSON_CreateString(r->classes[i] != NULL ? r->classes[i] : ""));
    }
    return finish(arr, ok);
}

static cJSON *found_json(const gm_repro *r) {
    cJSON *o = cJSON_CreateObject();
    bool ok = o != NULL && add_required_string(o, "by", r->found_by) &&
              add_required_string(o, "at", r->found_at) &&
              add(o, "execs", gm_jsonint_create_u64(r->found_execs));
    return finish(o, ok);
}

/* "format", "case" and the two outputs, shared by vectors and repros. */
static bool add_doc_head(cJSON *o, const char *format, const gm_case *c, const char *ref_key,
                         const gm_outputs *ref, const gm_outputs *fused) {
    return add_string(o, "format", format) && add(o, "case", gm_json_case(c)) &&
           add(o, ref_key, gm_json_outputs(ref)) && add(o, "fused", gm_json_outputs(fused));
}

static cJSON *target_json(const gm_target_record *t) {
    cJSON *o = cJSON_CreateObject();
    const char *const keys[] = {"spec", "kind", "module", "function",
                                "file", "sha256", "version", "device"};
    const char *const values[] = {t->spec, t->kind, t->module,  t->function,
                                  t->file, t->sha256, t->version, t->device};
    bool ok = o != NULL;
    for (size_t k = 0; ok && k < sizeof keys / sizeof keys[0]; k++) {
        ok = k == 0 ? add_required_string(o, keys[k], values[k])
                    : add_string_or_null(o, keys[k], values[k]);
    }
    return finish(o, ok);
}

cJSON *gm_json_repro(const gm_case *c, const gm_outputs *ref, const gm_outputs *fused,
                     const gm_repro *r) {
    cJSON *o = cJSON_CreateObject();
    bool ok = o != NULL && add_doc_head(o, GM_JSON_FORMAT_REPRO, c, "reference", ref, fused) &&
              add_required_string(o, "backend", r->backend) &&
              (!r->has_target || add(o, "target", target_json(&r->target))) &&
              (r->reference_drift == NULL ||
               add_required_string(o, "reference_drift", r->reference_drift)) &&
              add_verdict_counts(o, &r->verdict) && add(o, "classes", classes_json(r)) &&
              add_required_string(o, "signature", r->signature) &&
              add(o, "first_difference", gm_json_difference(&r->verdict.first)) &&
              (!r->has_found || add(o, "found", found_json(r))) &&
              add(o, "minimized", cJSON_CreateBool(r->minimized)) &&
              add_required_string(o, "tool_version", r->tool_version);
    return finish(o, ok);
}

cJSON *gm_json_vector(const gm_case *c, const gm_outputs *legacy, const gm_outputs *fused) {
    cJSON *o = cJSON_CreateObject();
    bool ok = o != NULL && add_doc_head(o, GM_JSON_FORMAT_VECTOR, c, "legacy", legacy, fused);
    return finish(o, ok);
}

/* ------------------------------------------------------------------ */
/* Files                                                               */

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
