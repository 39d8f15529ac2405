#include "repro.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "triage.h"
#include "harness.h"

#define REPRO_REWRITE_NAME_MAX 40
#define REPRO_REWRITE_VALUE_MAX 80

/* The first place two JSON trees differ: a path like
 * "fused.page_table[0][3]" and the value on each side (NULL: absent). */
typedef struct {
    char path[256];
    const cJSON *file;
    const cJSON *rewrite;
} repro_rewrite_diff;

/* The names of the finding's classes, in enum order (as repro_write
 * lists them). */
static size_t repro_rewrite_class_names(const triage_finding *f,
                                        char names[][REPRO_REWRITE_NAME_MAX], char **ptrs) {
    size_t n = 0;
    for (int k = 0; k < TRIAGE_CLASS_COUNT; k++) {
        if (f->classes & (1u << k)) {
            snprintf(names[n], REPRO_REWRITE_NAME_MAX, "%s", triage_class_name((triage_class)k));
            ptrs[n] = names[n];
            n++;
        }
    }
    return n;
}

/* The fused outputs the rewrite writes: the run's, except after the same
 * out-of-bounds access on a backend other than the recorded one. The host
 * stops at the first overrun while a GPU's other threads carry on, so what
 * the buffers hold then depends on the backend (harness_replay checks the
 * overrun itself there, and so does the rewrite). */
static const gm_outputs *repro_rewrite_fused(const harness_backend *b, const gm_doc *doc,
                                             const harness_run_result *r) {
    bool same_overrun = doc->fused.error != NULL && r->fused.error != NULL &&
                        strcmp(doc->fused.error, r->fused.error) == 0;
    return same_overrun && !harness_replay_recorded_here(b, doc) ? &doc->fused : &r->fused;
}

/* The reproducer of run `r` on `b`: origin fields as `doc` records them,
 * the rest from the run. */
static cJSON *repro_rewrite_document(const harness_backend *b, const gm_doc *doc,
                                     const harness_run_result *r, triage_finding *f) {
    char class_names[TRIAGE_CLASS_COUNT][REPRO_REWRITE_NAME_MAX];
    char *class_ptrs[TRIAGE_CLASS_COUNT];
    gm_repro rec = doc->repro;
    rec.verdict = r->verdict;
    rec.n_classes = repro_rewrite_class_names(f, class_names, class_ptrs);
    rec.classes = class_ptrs;
    rec.signature = f->signature;
    /* a three-way run's torch side, as the campaign wrote it (repro_write) */
    rec.reference_drift = r->drift[0] ? (char *)r->drift : NULL;
    rec.has_torch = r->has_torch && !r->torch_failed;
    rec.torch = r->torch;
    return gm_json_repro(&doc->c, &r->reference, repro_rewrite_fused(b, doc, r), &rec);
}

/* The unformatted print of `root` and the newline gm_json_write_file ends
 * every file with. */
static bool repro_rewrite_print(const cJSON *root, char **text, size_t *len, gm_error *err) {
    char *printed = root != NULL ? cJSON_PrintUnformatted(root) : NULL;
    if (printed == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory printing a rewrite");
    }
    size_t n = strlen(printed);
    *text = malloc(n + 2);
    if (*text != NULL) {
        memcpy(*text, printed, n);
        (*text)[n] = '\n';
        (*text)[n + 1] = '\0';
        *len = n + 1;
    }
    cJSON_free(printed);
    return *text != NULL || gm_error_set(err, GM_ERR_MEMORY, "out of memory printing a rewrite");
}

bool repro_rewrite_render(harness_backend *b, const gm_doc *doc, char **text, size_t *len,
                          gm_error *err) {
    *text = NULL;
    *len = 0;
    if (doc->kind != GM_DOC_REPRO) {
        return gm_error_set(err, GM_ERR_USAGE, "only a reproducer can be rewritten, not a %s",
                            gm_doc_kind_name(doc->kind));
    }
    harness_run_result r;
    harness_run_result_init(&r);
    bool ok = harness_run_case(b, &doc->c, doc->repro.verdict.compare, &r, err);
    if (ok) {
        triage_finding f;
        triage_classify(&doc->c, &r, &f);
        cJSON *root = repro_rewrite_document(b, doc, &r, &f);
        ok = repro_rewrite_print(root, text, len, err);
        cJSON_Delete(root);
    }
    harness_run_result_free(&r);
    return ok;
}

/* The size of an open file; -1 when it cannot be told. */
static long repro_rewrite_file_size(FILE *f) {
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    return size >= 0 && fseek(f, 0, SEEK_SET) == 0 ? size : -1;
}

/* The whole file, NUL-terminated; refuses one over `max_bytes`. */
static bool repro_rewrite_slurp(const char *path, size_t max_bytes, char **text, size_t *len,
                                gm_error *err) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        return gm_error_set(err, GM_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    }
    long size = repro_rewrite_file_size(f);
    bool ok = size >= 0 && (unsigned long)size <= max_bytes;
    *text = ok ? malloc((size_t)size + 1) : NULL;
    *len = *text != NULL ? fread(*text, 1, (size_t)size, f) : 0;
    ok = *text != NULL && !ferror(f) && *len == (size_t)size;
    fclose(f);
    if (!ok) {
        free(*text);
        *text = NULL;
        return gm_error_set(err, GM_ERR_IO, "%s: cannot read it whole (%ld bytes, limit %zu)",
                            path, size, max_bytes);
    }
    (*text)[*len] = '\0';
    return true;
}

static bool repro_rewrite_diff_node(const cJSON *file, const cJSON *rewrite, size_t at,
                                    repro_rewrite_diff *d);

static bool repro_rewrite_found(const cJSON *file, const cJSON *rewrite, repro_rewrite_diff *d) {
    d->file = file;
    d->rewrite = rewrite;
    return true;
}

/* Appends ".key" (or "key" at the root) or "[i]" to the path at `at`;
 * returns the new length. */
static size_t repro_rewrite_path_key(repro_rewrite_diff *d, size_t at, const char *key) {
    int n = snprintf(d->path + at, sizeof d->path - at, "%s%s", at == 0 ? "" : ".", key);
    return n < 0 ? at : strlen(d->path);
}

static size_t repro_rewrite_path_index(repro_rewrite_diff *d, size_t at, size_t i) {
    int n = snprintf(d->path + at, sizeof d->path - at, "[%zu]", i);
    return n < 0 ? at : strlen(d->path);
}

/* Keys in the file's order first, then keys only the rewrite has. */
static bool repro_rewrite_diff_object(const cJSON *file, const cJSON *rewrite, size_t at,
                                      repro_rewrite_diff *d) {
    const cJSON *item;
    cJSON_ArrayForEach(item, file) {
        const cJSON *other = cJSON_GetObjectItemCaseSensitive(rewrite, item->string);
        size_t next = repro_rewrite_path_key(d, at, item->string);
        if (other == NULL ? repro_rewrite_found(item, NULL, d)
                          : repro_rewrite_diff_node(item, other, next, d)) {
            return true;
        }
    }
    cJSON_ArrayForEach(item, rewrite) {
        if (cJSON_GetObjectItemCaseSensitive(file, item->string) == NULL) {
            repro_rewrite_path_key(d, at, item->string);
            return repro_rewrite_found(NULL, item, d);
        }
    }
    d->path[at] = '\0';
    return false;
}

static bool repro_rewrite_diff_array(const cJSON *file, const cJSON *rewrite, size_t at,
                                     repro_rewrite_diff *d) {
    const cJSON *a = file->child, *b = rewrite->child;
    for (size_t i = 0; a != NULL || b != NULL; i++) {
        size_t next = repro_rewrite_path_index(d, at, i);
        if (a == NULL || b == NULL) {
            return repro_rewrite_found(a, b, d);
        }
        if (repro_rewrite_diff_node(a, b, next, d)) {
            return true;
        }
        a = a->next;
        b = b->next;
    }
    d->path[at] = '\0';
    return false;
}

static bool repro_rewrite_diff_node(const cJSON *file, const cJSON *rewrite, size_t at,
                                    repro_rewrite_diff *d) {
    if ((file->type & 0xFF) != (rewrite->type & 0xFF)) {
        return repro_rewrite_found(file, rewrite, d);
    }
    if (cJSON_IsObject(file)) {
        return repro_rewrite_diff_object(file, rewrite, at, d);
    }
    if (cJSON_IsArray(file)) {
        return repro_rewrite_diff_array(file, rewrite, at, d);
    }
    bool differ = false;
    if (cJSON_IsString(file)) {
        differ = strcmp(file->valuestring, rewrite->valuestring) != 0;
    } else if (cJSON_IsNumber(file)) {
        /* both sides hold integers written exactly (|v| <= 2^53) */
        differ = file->valuedouble < rewrite->valuedouble ||
                 file->valuedouble > rewrite->valuedouble;
    }
    return differ && repro_rewrite_found(file, rewrite, d);
}

/* A value as JSON text, shortened for one line; "(absent)" for NULL. */
static void repro_rewrite_value(const cJSON *v, char *buf, size_t size) {
    char *text = v != NULL ? cJSON_PrintUnformatted(v) : NULL;
    if (v == NULL) {
        snprintf(buf, size, "(absent)");
    } else if (text == NULL) {
        snprintf(buf, size, "(unprintable)");
    } else if (strlen(text) >= size) {
        snprintf(buf, size, "%.*s...", (int)(size - 4), text);
    } else {
        snprintf(buf, size, "%s", text);
    }
    cJSON_free(text);
}

/* Names the JSON field at the first difference of the two texts. */
static void repro_rewrite_describe(const char *file, const char *rewrite, size_t byte,
                                   repro_rewrite_outcome *out) {
    cJSON *a = cJSON_Parse(file), *b = cJSON_Parse(rewrite);
    repro_rewrite_diff d = {.path = "", .file = NULL, .rewrite = NULL};
    if (a == NULL) {
        snprintf(out->message, sizeof out->message,
                 "byte %zu: the file is not JSON from there on", byte);
    } else if (b == NULL || !repro_rewrite_diff_node(a, b, 0, &d)) {
        snprintf(out->message, sizeof out->message,
                 "byte %zu: the same JSON laid out differently (the rewrite has "
                 "gm_json_write_file's layout)", byte);
    } else {
        char in_file[REPRO_REWRITE_VALUE_MAX], in_rewrite[REPRO_REWRITE_VALUE_MAX];
        repro_rewrite_value(d.file, in_file, sizeof in_file);
        repro_rewrite_value(d.rewrite, in_rewrite, sizeof in_rewrite);
        snprintf(out->message, sizeof out->message, "byte %zu: %s: the file has %s, the rewrite %s",
                 byte, d.path[0] != '\0' ? d.path : "the document", in_file, in_rewrite);
    }
    cJSON_Delete(a);
    cJSON_Delete(b);
}

bool repro_rewrite_check(harness_backend *b, const char *path, const gm_doc *doc, const gm_limits *lim,
                         repro_rewrite_outcome *out, gm_error *err) {
    out->same = false;
    out->message[0] = '\0';
    char *file = NULL, *rewrite = NULL;
    size_t file_len = 0, rewrite_len = 0;
    bool ok = repro_rewrite_slurp(path, lim->max_file_bytes, &file, &file_len, err);
    if (ok && !repro_rewrite_render(b, doc, &rewrite, &rewrite_len, err)) {
        gm_error_prefix(err, path);
        ok = false;
    }
    if (ok) {
        size_t byte = 0;
        while (byte < file_len && byte < rewrite_len && file[byte] == rewrite[byte]) {
            byte++;
        }
        out->same = byte == file_len && byte == rewrite_len;
        if (!out->same) {
            repro_rewrite_describe(file, rewrite, byte, out);
        }
    }
    free(file);
    free(rewrite);
    return ok;
}
