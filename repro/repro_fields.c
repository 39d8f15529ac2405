#include "repro.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gm_json.h"
#include "gm_jsonint.h"
#include "gm_jsonscan.h"
#include "gm_textfile.h"

#define REPRO_FIELDS_FORMAT "gmfuzz-repro-v1"

enum {
    REPRO_FIELDS_FORMAT_KEY,
    REPRO_FIELDS_SIGNATURE,
    REPRO_FIELDS_FOUND,
    REPRO_FIELDS_FIRST_DIFFERENCE,
    REPRO_FIELDS_CASE,
    REPRO_FIELDS_INDICES,
    REPRO_FIELDS_COUNT
};

static const char *const repro_fields_keys[REPRO_FIELDS_COUNT] = {
    "format", "signature", "found", "first_difference", "case", "case.req_pool_indices",
};

/* "<path>: <field>: <problem>" */
__attribute__((format(printf, 4, 5)))
static bool repro_fields_fail(gm_error *err, const char *path, const char *field,
                              const char *fmt, ...) {
    char problem[GM_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, sizeof problem, fmt, ap);
    va_end(ap);
    return gm_error_set(err, GM_ERR_FORMAT, "%s: %s: %s", path, field, problem);
}

/* One member's value as a cJSON tree (NULL when memory runs out: the scan
 * has already checked its syntax). */
static cJSON *repro_fields_tree(const gm_jsonscan_span *span) {
    return cJSON_ParseWithLength(span->start, span->len);
}

static bool repro_fields_format(const char *path, const gm_jsonscan_span *span,
                                gm_error *err) {
    if (span->start == NULL) {
        return repro_fields_fail(err, path, "format", "missing");
    }
    cJSON *item = repro_fields_tree(span);
    bool ok = cJSON_IsString(item) && strcmp(item->valuestring, REPRO_FIELDS_FORMAT) == 0;
    char quoted[64];
    if (!cJSON_IsString(item)) {
        repro_fields_fail(err, path, "format", "expected a string, found %s",
                          gm_jsonint_type_name(item));
    } else if (!ok) {
        gm_jsonint_quote(item->valuestring, quoted, sizeof quoted);
        repro_fields_fail(err, path, "format", "%s: not a reproducer (" REPRO_FIELDS_FORMAT
                          ")", quoted);
    }
    cJSON_Delete(item);
    return ok;
}

static bool repro_fields_signature(const char *path, const gm_jsonscan_span *span,
                                   triage_finding *f, gm_error *err) {
    if (span->start == NULL) {
        return repro_fields_fail(err, path, "signature", "missing");
    }
    cJSON *item = repro_fields_tree(span);
    gm_error problem = {0};
    bool ok = cJSON_IsString(item) && triage_finding_parse(item->valuestring, f, &problem);
    if (!cJSON_IsString(item)) {
        repro_fields_fail(err, path, "signature", "expected a string, found %s",
                          gm_jsonint_type_name(item));
    } else if (!ok) {
        repro_fields_fail(err, path, "signature", "%s", problem.msg);
    }
    cJSON_Delete(item);
    return ok;
}

/* found: {"at": ISO-8601, "execs": N, ...}, or absent or null. */
static bool repro_fields_found_in(const char *path, const cJSON *found, repro_fields *out,
                                  gm_error *err) {
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(found, "at");
    const cJSON *execs = cJSON_GetObjectItemCaseSensitive(found, "execs");
    gm_error problem = {0};
    if (!cJSON_IsObject(found)) {
        return repro_fields_fail(err, path, "found", "expected an object, found %s",
                                 gm_jsonint_type_name(found));
    }
    if (!cJSON_IsString(at) || strlen(at->valuestring) >= sizeof out->found_at) {
        return repro_fields_fail(err, path, "found.at", "expected an ISO-8601 time, found %s",
                                 cJSON_IsString(at) ? "a long string"
                                                       : gm_jsonint_type_name(at));
    }
    if (execs == NULL || !gm_jsonint_read_u64(execs, &out->found_execs, &problem)) {
        return repro_fields_fail(err, path, "found.execs", "%s",
                                 execs == NULL ? "missing" : problem.msg);
    }
    strcpy(out->found_at, at->valuestring);
    out->has_found = true;
    return true;
}

static bool repro_fields_found(const char *path, const gm_jsonscan_span *span,
                               repro_fields *out, gm_error *err) {
    if (span->start == NULL) {
        return true;
    }
    cJSON *found = repro_fields_tree(span);
    bool ok = cJSON_IsNull(found) || repro_fields_found_in(path, found, out, err);
    cJSON_Delete(found);
    return ok;
}

static bool repro_fields_buffer(const cJSON *item, gm_buf_id *out) {
    for (int id = 0; cJSON_IsString(item) && id < GM_BUF_COUNT; id++) {
        if (strcmp(item->valuestring, gm_buf_name((gm_buf_id)id)) == 0) {
            *out = (gm_buf_id)id;
            return true;
        }
    }
    return false;
}

/* first_difference.index: one or two non-negative integers. */
static bool repro_fields_index(const char *path, const cJSON *index, gm_difference *d,
                               gm_error *err) {
    int n = cJSON_IsArray(index) ? cJSON_GetArraySize(index) : 0;
    if (n != 1 && n != 2) {
        return repro_fields_fail(err, path, "first_difference.index",
                                 "expected one or two integers");
    }
    d->rank = n;
    for (int k = 0; k < n; k++) {
        int64_t v;
        gm_error problem = {0};
        if (!gm_jsonint_read(cJSON_GetArrayItem(index, k),
                             gm_jsonint_at_least(GM_JSONINT_INT64, 0), &v, &problem)) {
            return repro_fields_fail(err, path, "first_difference.index", "[%d]: %s", k,
                                     problem.msg);
        }
        d->index[k] = (size_t)v;
    }
    return true;
}

/* One of first_difference's values, in its buffer's dtype. */
static bool repro_fields_value(const char *path, const cJSON *obj, const char *key,
                               gm_buf_id buf, int64_t *out, gm_error *err) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    gm_error problem = {0};
    gm_jsonint_range range = gm_buf_is_int64(buf) ? GM_JSONINT_INT64 : GM_JSONINT_INT32;
    if (item == NULL || !gm_jsonint_read(item, range, out, &problem)) {
        return repro_fields_fail(err, path, "first_difference", "%s: %s", key,
                                 item == NULL ? "missing" : problem.msg);
    }
    return true;
}

static bool repro_fields_difference_in(const char *path, const cJSON *obj, gm_difference *d,
                                       gm_error *err) {
    if (!cJSON_IsObject(obj)) {
        return repro_fields_fail(err, path, "first_difference",
                                 "expected an object, found %s", gm_jsonint_type_name(obj));
    }
    if (!repro_fields_buffer(cJSON_GetObjectItemCaseSensitive(obj, "buffer"), &d->buf)) {
        return repro_fields_fail(err, path, "first_difference.buffer",
                                 "expected a buffer name");
    }
    d->present = true;
    return repro_fields_index(path, cJSON_GetObjectItemCaseSensitive(obj, "index"), d, err) &&
           repro_fields_value(path, obj, "reference", d->buf, &d->reference, err) &&
           repro_fields_value(path, obj, "fused", d->buf, &d->fused, err);
}

static bool repro_fields_difference(const char *path, const gm_jsonscan_span *span,
                                    gm_difference *d, gm_error *err) {
    if (span->start == NULL) {
        return true;
    }
    cJSON *obj = repro_fields_tree(span);
    bool ok = cJSON_IsNull(obj) || repro_fields_difference_in(path, obj, d, err);
    cJSON_Delete(obj);
    return ok;
}

/* bs: the length of case.req_pool_indices. */
static bool repro_fields_bs(const char *path, const gm_jsonscan_span *spans, int64_t *bs,
                            gm_error *err) {
    const gm_jsonscan_span *c = &spans[REPRO_FIELDS_CASE];
    const gm_jsonscan_span *indices = &spans[REPRO_FIELDS_INDICES];
    if (c->start == NULL || c->start[0] != '{') {
        return repro_fields_fail(err, path, "case", "%s",
                                 c->start == NULL ? "missing" : "expected an object");
    }
    cJSON *list = indices->start != NULL ? repro_fields_tree(indices) : NULL;
    bool ok = cJSON_IsArray(list);
    if (ok) {
        *bs = cJSON_GetArraySize(list);
    } else {
        repro_fields_fail(err, path, "case.req_pool_indices", "expected an array, found %s",
                          indices->start != NULL ? gm_jsonint_type_name(list) : "nothing");
    }
    cJSON_Delete(list);
    return ok;
}

static bool repro_fields_members(const char *path, const gm_jsonscan_span *spans,
                                 repro_fields *out, gm_error *err) {
    return repro_fields_format(path, &spans[REPRO_FIELDS_FORMAT_KEY], err) &&
           repro_fields_signature(path, &spans[REPRO_FIELDS_SIGNATURE], &out->finding,
                                  err) &&
           repro_fields_found(path, &spans[REPRO_FIELDS_FOUND], out, err) &&
           repro_fields_difference(path, &spans[REPRO_FIELDS_FIRST_DIFFERENCE],
                                   &out->first_difference, err) &&
           repro_fields_bs(path, spans, &out->bs, err);
}

bool repro_fields_read(const char *path, repro_fields *out, gm_error *err) {
    memset(out, 0, sizeof *out);
    char *text = NULL;
    size_t len = 0;
    gm_jsonscan_span spans[REPRO_FIELDS_COUNT];
    gm_error problem = {0};
    if (!gm_textfile_read(path, GM_LIMIT_DEFAULT_FILE_BYTES, &text, &len, err)) {
        return false;
    }
    bool ok = gm_jsonscan_object(text, len, repro_fields_keys, REPRO_FIELDS_COUNT, spans,
                                 &problem);
    if (!ok) {
        gm_error_set(err, problem.code, "%s: %s", path, problem.msg);
    }
    ok = ok && repro_fields_members(path, spans, out, err);
    out->bytes = (long long)len;
    free(text);
    return ok;
}
