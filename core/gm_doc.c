/* gm_doc: the life of the documents the JSON reader fills (gm_json.h):
 * limits, documents, reproducers and their target records. */
#include "gm_json.h"

#include <stdlib.h>
#include <string.h>

#include "gm_json_fields.h"

void gm_limits_default(gm_limits *l) {
    l->max_file_bytes = GM_LIMIT_DEFAULT_FILE_BYTES;
    l->max_elements = GM_LIMIT_DEFAULT_ELEMENTS;
    l->max_bs = GM_LIMIT_DEFAULT_BS;
    l->max_width = GM_LIMIT_DEFAULT_WIDTH;
}

static void gm_doc_repro_init(gm_repro *r) {
    memset(r, 0, sizeof *r);
    /* A repro without "status" (older fuzzers) recorded a mismatch. */
    r->verdict.status = GM_STATUS_MISMATCH;
    r->verdict.compare = GM_COMPARE_LIVE;
}

/* The record's strings, one per row of its table (every row a string). */
static char **gm_doc_target_string(gm_target_record *t, size_t row) {
    return (char **)((char *)t + gm_json_fields_target.fields[row].at);
}

static const char *gm_doc_target_value(const gm_target_record *t, size_t row) {
    return *(char *const *)((const char *)t + gm_json_fields_target.fields[row].at);
}

void gm_target_record_free(gm_target_record *t) {
    for (size_t i = 0; i < gm_json_fields_target.n; i++) {
        free(*gm_doc_target_string(t, i));
    }
    memset(t, 0, sizeof *t);
}

static bool gm_doc_dup(char **dst, const char *src) {
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
    bool ok = true;
    memset(dst, 0, sizeof *dst);
    for (size_t i = 0; ok && i < gm_json_fields_target.n; i++) {
        ok = gm_doc_dup(gm_doc_target_string(dst, i), gm_doc_target_value(src, i));
    }
    if (!ok) {
        gm_target_record_free(dst);
    }
    return ok;
}

void gm_repro_free(gm_repro *r) {
    free(r->backend);
    gm_target_record_free(&r->target);
    free(r->reference_drift);
    gm_outputs_free(&r->torch);
    for (size_t i = 0; i < r->n_classes; i++) {
        free(r->classes[i]);
    }
    free(r->classes);
    free(r->signature);
    free(r->found_by);
    free(r->found_at);
    free(r->tool_version);
    gm_doc_repro_init(r);
}

void gm_doc_init(gm_doc *d) {
    d->kind = GM_DOC_CASE;
    gm_case_init(&d->c);
    gm_outputs_init(&d->reference);
    gm_outputs_init(&d->fused);
    gm_doc_repro_init(&d->repro);
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
